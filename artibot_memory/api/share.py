"""``artibot-memory share``: a project's memory a team would want, committed with its code.

:func:`proposals` picks, from this person's stores, what a teammate of the project gains from:
its decisions (with their reasons), its facts, who does what in it, the fixes of its
errors, and its project-scoped preferences. Never a global preference, never a session
summary, a todo or a command, never anything of another project. :func:`share` writes the
accepted ones to ``<repository>/.artibot-memory/team.md`` (:mod:`artibot_memory.recall.team`
reads it at a teammate's session start), added to what is there; :func:`remove` takes a
line out, for everyone once the change is committed. The file is Markdown a reviewer reads
in a pull request: one section per kind, one line per memory, its id in a hidden marker.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from artibot_memory.core import disk
from artibot_memory.core.errors import UnknownMemoryError, UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import display_name, git_root, same_project
from artibot_memory.recall.team import SECTIONS, TEAM_DIR, read_team, team_path
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.lock import locked
from artibot_memory.store.model import Memory, MemoryType, Scope, State
from artibot_memory.store.table import STORES
from artibot_memory.text.markdown import Document, Line, Section, marked, parse, render, unmarked

DECISIONS, FACTS, PEOPLE, FIXES, PREFERENCES = SECTIONS
NOT_SHARED = frozenset({"session-summary", "todo"})
SHARED_STATES = frozenset({State.ACTIVE, State.RESOLVED})  # resolved: an error with its fix
LINE_CHARS = 300


def section_of(memory: Memory, project: str) -> str | None:
    """Return the team file's section a memory of ``project`` goes to, None: not shared.

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    >>> m = Memory(id="pref-1", type="preference", text="Use pnpm", created_at=t,
    ...            updated_at=t, last_seen=t)
    >>> section_of(m, "/src/shop") is None  # a global preference: never
    True
    """
    if not _shareable(memory, project):
        return None
    if memory.type is MemoryType.PREFERENCE:
        return PREFERENCES if memory.scope is not Scope.GLOBAL else None
    if memory.type is MemoryType.ERROR:
        return FIXES if memory.resolution else None
    return _context_section(memory) if memory.type is MemoryType.CONTEXT else None


def _context_section(memory: Memory) -> str:
    if "decision" in memory.tags:
        return DECISIONS
    if memory.scope is Scope.PERSON or any(t.startswith("person:") for t in memory.tags):
        return PEOPLE
    return FACTS


def _shareable(memory: Memory, project: str) -> bool:
    """Of this project, in force (an error: resolved), no session summary or todo."""
    return (
        memory.project is not None
        and same_project(memory.project, project)
        and memory.state in SHARED_STATES
        and not set(memory.tags) & NOT_SHARED
        and not (memory.key or "").startswith("session:")
    )


def line_of(memory: Memory, section: str) -> str:
    """Return a memory's line in the team file (its text on one line, its reason, its fix)."""
    text = " ".join(memory.text.split())
    if section == FIXES and memory.resolution:
        text = f"{text} — fix: {' '.join(memory.resolution.split())}"
    elif section == DECISIONS and memory.why and memory.why not in text:
        text = f"{text} — because {' '.join(memory.why.split())}"
    if len(text) > LINE_CHARS:
        text = text[: LINE_CHARS - 1].rstrip() + "…"
    return text


def repository_of(given: str | None, cwd: str | None = None) -> str:
    """Return the repository whose team file ``share`` writes: ``--project`` or this one."""
    folder = given if given is not None else (cwd or os.getcwd())
    root = git_root(os.path.abspath(os.path.expanduser(folder)))
    if root is None:
        msg = f"{folder} is in no git repository: team memory lives in a repository's files"
        raise UsageError(msg)
    return root


def proposals(root: str, home: Path | None = None) -> list[tuple[str, Memory]]:
    """Return (section, memory) for each memory of the project not shared yet."""
    shared = {line.id for line in read_team(root)}
    found = []
    for spec in STORES:
        for memory in Store(spec, home).load():
            section = section_of(memory, root)
            if section is not None and memory.id not in shared:
                found.append((section, memory))
    return sorted(found, key=lambda pair: (SECTIONS.index(pair[0]), pair[1].created_at))


def share(
    root: str,
    accept: Callable[[str, Memory], bool],
    home: Path | None = None,
) -> list[Memory]:
    """Add the proposals ``accept`` says yes to into the team file; return them."""
    chosen = [(section, m) for section, m in proposals(root, home) if accept(section, m)]
    if chosen:
        _change(root, lambda text: _with_lines(text, chosen))
    return [memory for _section, memory in chosen]


def remove(root: str, memory_id: str) -> None:
    """Take the line of ``memory_id`` out of the team file (for everyone, once committed)."""
    if memory_id not in {line.id for line in read_team(root)}:
        raise UnknownMemoryError(f"id {memory_id!r} in {team_path(root)}")
    _change(root, lambda text: _without(text, memory_id))


def is_shared(memory_id: str, cwd: str | None = None) -> bool:
    """Tell whether ``memory_id`` is a line of the team file of the repository of ``cwd``."""
    root = git_root(cwd or os.getcwd())
    return root is not None and memory_id in {line.id for line in read_team(root)}


def hide(memory_id: str, home: Path | None = None) -> None:
    """Hide a team line for this person only: its id among their tombstones."""
    from artibot_memory.store.tombstones import record_forgotten  # noqa: PLC0415

    record_forgotten([memory_id], home if home is not None else memory_home())


def _change(root: str, edit: Callable[[str], str]) -> None:
    path = Path(team_path(root))
    path.parent.mkdir(exist_ok=True)
    with locked(Path(root, TEAM_DIR, ".team.md")):
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = _skeleton(root)
        disk.write_text(path, edit(text))
    _ignore_lock(Path(root, TEAM_DIR))


def _ignore_lock(folder: Path) -> None:
    """Keep the lock file out of the team's commits (a .gitignore of its own folder)."""
    ignore = folder / ".gitignore"
    if not ignore.exists():
        disk.write_text(ignore, "*.lock\n")


def _skeleton(root: str) -> str:
    head = [
        f"# Team memory: {display_name(root)}",
        "",
        "Shared with `artibot-memory share`, read at every session start in this repository.",
        "Each line ends with its id; `artibot-memory share --remove ID` takes one out.",
        "",
    ]
    for section in SECTIONS:
        head += [f"## {section}", ""]
    return "\n".join(head)


def _with_lines(text: str, chosen: Iterable[tuple[str, Memory]]) -> str:
    doc = parse(text)
    for title, memory in chosen:
        section = doc.section(title) or _add_section(doc, title)
        last = max((i for i, ln in enumerate(section.body) if ln.text.strip()), default=-1)
        section.body.insert(last + 1, Line(0, marked(line_of(memory, title), memory.id)))
    return render(doc)


def _add_section(doc: Document, title: str) -> Section:
    """Add a section the file lacks (a reviewer deleted it) at its end."""
    section = Section(title, Line(0, f"## {title}"), [Line(0, "")])
    doc.sections.append(section)
    return section


def _without(text: str, memory_id: str) -> str:
    kept = [line for line in text.split("\n") if unmarked(line)[1] != memory_id]
    return "\n".join(kept)
