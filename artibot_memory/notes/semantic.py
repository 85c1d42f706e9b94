"""MEMORY.md, the semantic layer: what goes where, the file's merge, the diff of hand edits.

The stores are the source of truth; MEMORY.md is rendered from their records
(:func:`lines_for`) into five sections, every line ``- text <!-- am:ID -->``
(:func:`artibot_memory.text.markdown.marked`). What goes where:

- **User Preferences**: active preferences, global ones first, then each project's
  (``[shop] …``), newest first; the key in parentheses when there is one.
- **Project Context**: one ``### <project>`` group per project, most recently active first,
  at most :data:`MAX_PROJECTS`: a status line from its latest session summary, its newest
  decisions (contexts tagged ``decision``, ``Decided: …``) and other facts. Global facts
  (of no project) come before the first group.
- **Relationships & People**: memories of scope ``person``.
- **Technical Environment**: contexts tagged ``environment``, and the tools the command
  store shows, one line per kind of tool (runtimes and versions, package managers, tests
  and checks, other tools), a tool named in a tool preference marked ``(preferred)``.
- **Lessons Learned**: contexts tagged ``lesson``, resolved errors that recurred (count of
  2 or more), and reversed decisions (a superseded memory whose successor is live:
  ``Changed: was X, now Y``, managed by the superseded id).

Only live memories are rendered (``active``; a resolved error too); a memory tagged
``memory-md`` (pinned by consolidation, or a line the user added) is always rendered, in
the section of its type and scope, beyond the per-section limits.

A line is either **plain**, its memory's text with a fixed prefix and suffix (``Decided: ``,
`` (package-manager)``), or **derived** (a status, a tool line, a lesson): a user's change
of a plain line changes the memory's text; of a derived line, it is kept as the line's
text (``details["memory_md_text"]``), since the record's own text says more.

How the file is merged with the user's text, and how their edits are read back, is
:mod:`artibot_memory.notes.memory_md`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from artibot_memory.capture.sessions import asks_of, branch_of
from artibot_memory.core.project import display_name
from artibot_memory.store import layers
from artibot_memory.store.model import Memory, MemoryType, Scope, State
from artibot_memory.text.ask import ask_in_words
from artibot_memory.text.shell import CommandLine
from artibot_memory.text.subjects import subject_key
from artibot_memory.text.trim import clip

FILE_NAME = layers.MEMORY_MD
PINNED = "memory-md"  # the tag that keeps a memory in MEMORY.md
SUMMARY_TAG = "session-summary"  # a session summary's tag and its details' kind
SESSION_KEY = "session:"  # a session summary's key starts so (api/memories.SESSION_KEY)
OVERRIDE = "memory_md_text"  # details key: the user's wording of a derived line
SECTIONS = layers.SEMANTIC_SECTIONS
TOP_BELIEFS = "Top Beliefs"  # the first section, written by evolve's promote (docs/EVOLVE.md §3)
BELIEF = "belief"  # details[BELIEF]: what evolve's reflect and promote concluded
LABEL_CHARS = 60
PREFERENCES, PROJECTS, PEOPLE, ENVIRONMENT, LESSONS = SECTIONS
DECIDED = "Decided: "
MAX_COMMANDS_READ = 100  # the most-run commands the Technical Environment is read from
# A decision already worded as one ("Decided to …", "Chose …") needs no "Decided: " before it.
_WORDED = ("decided", "decide", "chose", "we'll go", "we will go", "let's", "we chose")


def _decided(text: str) -> str:
    """Return the prefix a decision's line takes: none when its words already say so.

    >>> _decided("Decided to pin node:22"), _decided("keep the v1 API")
    ('', 'Decided: ')
    """
    return "" if text.lower().lstrip().startswith(_WORDED) else DECIDED


LINE_CHARS = 160
STATUS_ASK_CHARS = 90  # of the ask on a project's Status line
MAX_PROJECTS = 8
MAX_PER_KIND = 5  # decisions, facts per project; reversals
MAX_PER_SECTION = 30
MIN_RUNS = 2  # a tool run once is not the environment
MIN_RECURRENCES = 2  # an error seen once taught nothing yet
HEADER = """# MEMORY

<!-- Managed by artibot-memory. Edit freely: a line you add becomes a memory, a line you
change updates it, a line you delete forgets it. Text outside the sections below, and
sections you add, are kept as they are. `artibot-memory edit` opens this file. -->
"""


@dataclass(frozen=True)
class Line:
    """One managed line: where it goes, its memory, its text, how it maps back to the record.

    ``parts`` is ``(prefix, suffix)`` around the memory's text for a plain line, None for
    a derived one; ``sources`` are the ids it was made from (forgotten when it is deleted).
    """

    section: str
    group: str | None
    memory_id: str
    text: str
    parts: tuple[str, str] | None
    sources: tuple[str, ...]
    project: str | None = None


def is_live(memory: Memory) -> bool:
    """Tell whether a memory may be rendered (active, or a resolved error)."""
    if memory.state is State.RESOLVED:
        return memory.type is MemoryType.ERROR
    return memory.state is State.ACTIVE


def section_of(memory: Memory) -> str:
    """Return the section a memory belongs in, by its type, scope and tags.

    >>> from artibot_memory.store.model import Memory
    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    >>> section_of(Memory(id="ctx-1", type="context", text="x", scope="person",
    ...            created_at=t, updated_at=t, last_seen=t))
    'Relationships & People'
    """
    if memory.scope is Scope.PERSON:
        return PEOPLE
    if memory.type is MemoryType.PREFERENCE:
        return PREFERENCES
    if memory.type is MemoryType.COMMAND or "environment" in memory.tags:
        return ENVIRONMENT
    if memory.type is MemoryType.ERROR or "lesson" in memory.tags:
        return LESSONS
    return PROJECTS


def lines_for(memories: Iterable[Memory], now: datetime) -> list[Line]:
    """Return every managed line of MEMORY.md, section by section, in their order."""
    kept = [m for m in memories if not m.is_expired(now)]
    by_section: dict[str, list[Memory]] = {title: [] for title in SECTIONS}
    for memory in kept:
        if is_live(memory):
            by_section[section_of(memory)].append(memory)
    return [
        *_preferences(by_section[PREFERENCES]),
        *_projects(by_section[PROJECTS]),
        *_people(by_section[PEOPLE]),
        *_environment(by_section[ENVIRONMENT], by_section[PREFERENCES]),
        *_lessons(by_section[LESSONS], kept),
    ]


def top_lines(memories: Iterable[Memory]) -> list[tuple[str, str]]:
    """Return the ``## Top Beliefs`` lines, (memory id, text), in the order promote ranked them.

    A top belief is a live memory whose ``details["belief"]`` holds ``top`` (when it was
    promoted) and ``place`` (its rank); the line links to it by id, its text only a label:
    ``Use pnpm, not npm → pref-… · conf 0.91 · 8 sources · stable``.
    """
    found = []
    for memory in memories:
        held = memory.details.get(BELIEF)
        if isinstance(held, dict) and held.get("top") and is_live(memory):
            place = held.get("place")
            found.append((place if isinstance(place, int) else 1_000_000, memory.id, memory, held))
    return [(memory_id, _top_text(m, held)) for _p, memory_id, m, held in sorted(found)]


def _top_text(memory: Memory, held: dict[str, object]) -> str:
    label = clip(" ".join(memory.text.split()), LABEL_CHARS)
    confidence = held.get("confidence")
    conf = f"{confidence:.2f}" if isinstance(confidence, int | float) else "?"
    sources = held.get("sources")
    many = (
        f"{sources} source{'' if sources == 1 else 's'}"
        if isinstance(sources, int)
        else "? sources"
    )
    freshness = held.get("freshness") or "stable"
    return f"{scope_prefix(memory)}{label} → {memory.id} · conf {conf} · {many} · {freshness}"


def _newest(memories: Iterable[Memory]) -> list[Memory]:
    return sorted(memories, key=lambda m: m.last_seen, reverse=True)


def _limited(memories: Iterable[Memory], limit: int) -> list[Memory]:
    """Return the newest ``limit`` of ``memories`` and every pinned one, newest first."""
    ordered = _newest(memories)
    return [m for at, m in enumerate(ordered) if at < limit or PINNED in m.tags]


def _plain(
    section: str,
    memory: Memory,
    prefix: str = "",
    suffix: str = "",
    *,
    group: str | None = None,
    project: str | None = None,
) -> Line:
    room = LINE_CHARS - len(prefix) - len(suffix)
    text = f"{prefix}{clip(memory.text.replace(chr(10), ' '), room)}{suffix}"
    return Line(section, group, memory.id, text, (prefix, suffix), (memory.id,), project)


def _derived(
    section: str,
    memory: Memory,
    text: str,
    sources: Sequence[str] = (),
    *,
    group: str | None = None,
    project: str | None = None,
    prefix: str = "",
) -> Line:
    shown = prefix + str(memory.details.get(OVERRIDE) or clip(text, LINE_CHARS - len(prefix)))
    return Line(section, group, memory.id, shown, None, tuple(sources) or (memory.id,), project)


# ---- User Preferences


def _preferences(live: list[Memory]) -> list[Line]:
    chosen = _global_first(_limited(live, MAX_PER_SECTION))
    return [_scoped(PREFERENCES, m, f" ({m.key})" if m.key else "") for m in chosen]


def _global_first(memories: list[Memory]) -> list[Memory]:
    """Return the global memories first, then each project's, by name (a stable sort)."""
    return sorted(
        memories,
        key=lambda m: (m.project is not None, display_name(m.project) if m.project else ""),
    )


def scope_prefix(memory: Memory) -> str:
    """Return what opens a line of a project's memory outside Project Context: ``[shop] ``.

    Every line carries its memory's project, so a session of another project never shows
    it, and a person reads whose it is (:func:`artibot_memory.text.markdown.scoped`).
    """
    return f"[{display_name(memory.project)}] " if memory.project else ""


def _scoped(section: str, memory: Memory, suffix: str = "") -> Line:
    return _plain(section, memory, scope_prefix(memory), suffix, project=memory.project)


def _scoped_derived(section: str, memory: Memory, text: str, sources: Sequence[str] = ()) -> Line:
    prefix = scope_prefix(memory)
    return _derived(section, memory, text, sources, project=memory.project, prefix=prefix)


# ---- Project Context


def _projects(live: list[Memory]) -> list[Line]:
    contexts = live
    by_project: dict[str | None, list[Memory]] = {}
    for memory in contexts:
        by_project.setdefault(memory.project, []).append(memory)
    lines = [_plain(PROJECTS, m) for m in _limited(_facts(by_project.pop(None, [])), MAX_PER_KIND)]
    ranked = sorted(by_project, key=lambda p: max(m.last_seen for m in by_project[p]), reverse=True)
    for at, project in enumerate(ranked):
        group = by_project[project]
        if at < MAX_PROJECTS or any(PINNED in m.tags for m in group):
            lines += _project_lines(project, group)
    return lines


def is_summary(memory: Memory) -> bool:
    """Tell whether ``memory`` is a session summary: its tag, its details' kind or its key."""
    return (
        SUMMARY_TAG in memory.tags
        or memory.details.get("kind") == SUMMARY_TAG
        or (memory.key or "").startswith(SESSION_KEY)
    )


def _facts(memories: list[Memory]) -> list[Memory]:
    return [m for m in memories if not is_summary(m) and "decision" not in m.tags]


def _project_lines(project: str | None, group: list[Memory]) -> list[Line]:
    group_name = display_name(project)
    summaries = _newest(m for m in group if is_summary(m))
    statuses = [m for at, m in enumerate(summaries) if at == 0 or PINNED in m.tags]
    decisions = _limited((m for m in group if "decision" in m.tags), MAX_PER_KIND)
    return [
        *(_derived(PROJECTS, m, status_of(m), group=group_name, project=project) for m in statuses),
        *(
            _plain(PROJECTS, m, _decided(m.text), group=group_name, project=project)
            for m in decisions
        ),
        *(
            _plain(PROJECTS, m, group=group_name, project=project)
            for m in _limited(_facts(group), MAX_PER_KIND)
        ),
    ]


def status_of(summary: Memory) -> str:
    r"""Return the one-line status of a project from its session summary.

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 11, 30, 10, tzinfo=timezone.utc)
    >>> m = Memory(id="ctx-1", type="context", created_at=t, updated_at=t, last_seen=t,
    ...     text="Session 1a2b3c4d 2026-11-30 10:02–10:45 UTC, branch fix/login\nAsked: fix it")
    >>> status_of(m)
    'Status: last session 2026-11-30, branch fix/login; asked: fix it'
    """
    parts = [f"Status: last session {layers.local_day(summary.last_seen)}"]
    branch = branch_of(summary.text)
    parts += [f"branch {branch}"] if branch else []
    asked = asks_of(summary.text)  # in words again: a summary written before they were
    done = f"; asked: {ask_in_words(asked[0], STATUS_ASK_CHARS)}" if asked else ""
    return ", ".join(parts) + done


# ---- Relationships & People


def _people(live: list[Memory]) -> list[Line]:
    return [_scoped(PEOPLE, m) for m in _global_first(_limited(live, MAX_PER_SECTION))]


# ---- Technical Environment

TOOL_KINDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Runtimes", frozenset("python node deno bun ruby go java rustc php perl dotnet".split())),
    (
        "Package managers",
        frozenset(
            "uv uvx pip pipx poetry pdm pipenv conda mamba npm npx pnpm yarn cargo gem bundle"
            " brew apt apt-get dnf yum pacman winget choco".split()
        ),
    ),
    (
        "Tests and checks",
        frozenset(
            "pytest tox nox jest vitest mocha ruff mypy pyright black eslint prettier tsc"
            " flake8 pylint rspec phpunit".split()
        ),
    ),
    (
        "Other tools",
        frozenset(
            "docker podman docker-compose kubectl helm terraform make just gh git aws gcloud az"
            " psql sqlite3 redis-cli cmake ansible".split()
        ),
    ),
)
_VERSIONED = re.compile(r"^(?P<tool>python|pip|node|ruby|php|perl|java)(?P<version>\d+(?:\.\d+)*)$")
_SYSTEM = {"brew": "macOS", "apt": "Debian/Ubuntu", "apt-get": "Debian/Ubuntu", "winget": "Windows"}
TOOL_KEYS = frozenset(
    "package-manager python-package-manager formatter linter type-checker test-runner"
    " python-version node-version shell editor".split()
)


def tools_of(command: str) -> list[str]:
    """Return the tools a command line runs, runners included, versions kept.

    >>> tools_of("cd app && uv run pytest -q && python3.12 -m pip install x")
    ['uv', 'pytest', 'python 3.12', 'pip']
    """
    return _read_tools(command)[0]


def _read_tools(command: str) -> tuple[list[str], str]:
    """Return a line's tools and the program it is about (its last statement that matters)."""
    found: list[str] = []
    statements = CommandLine(command).statements
    for statement in statements:
        for name in (*statement.runners, statement.program):
            match = _VERSIONED.match(name)
            tool = f"{match['tool']} {match['version']}" if match else name
            found += [] if tool in found else [tool]
    return found, statements[-1].program if statements else ""


def _kind_of(tool: str) -> str | None:
    base = "python" if tool == "python3" else tool.split(" ", 1)[0]
    return next((kind for kind, names in TOOL_KINDS if base in names), None)


@dataclass(frozen=True)
class _Run:
    """A command memory read once: its tools by kind, and the kind it is about."""

    memory: Memory
    tools: tuple[tuple[str, str | None], ...]
    kind: str | None


def _environment(live: list[Memory], preferences: list[Memory]) -> list[Line]:
    facts = [m for m in live if m.type is not MemoryType.COMMAND]
    lines = [_scoped(ENVIRONMENT, m) for m in _global_first(_limited(facts, MAX_PER_SECTION))]
    runs = []
    commands = [m for m in live if m.type is MemoryType.COMMAND]
    # The most-run commands name the tools worth a line; reading every one of the store's
    # 500 with the shell reader would cost the SessionEnd worker about 0.2 s.
    commands.sort(key=lambda m: (-m.count, m.id))
    for memory in commands[:MAX_COMMANDS_READ]:
        tools, primary = _read_tools(memory.text)
        runs.append(_Run(memory, tuple((t, _kind_of(t)) for t in tools), _kind_of(primary)))
    preferred = _preferred_tools(preferences)
    used: set[str] = set()
    for kind, _names in TOOL_KINDS:
        line = _tool_line(kind, runs, preferred, used)
        if line is not None:
            lines.append(line)
            used.add(line.memory_id)
    return lines


def _tool_line(kind: str, runs: list[_Run], preferred: set[str], used: set[str]) -> Line | None:
    counts: dict[str, int] = {}
    sources: dict[str, _Run] = {}
    for run in runs:
        for tool, tool_kind in run.tools:
            if tool_kind == kind:
                counts[tool] = counts.get(tool, 0) + run.memory.count
                sources[run.memory.id] = run
    tools = sorted((t for t in counts if counts[t] >= MIN_RUNS), key=lambda t: (-counts[t], t))
    owners = sorted(sources.values(), key=lambda r: (r.kind != kind, -r.memory.count))
    owner = next((r.memory for r in owners if r.memory.id not in used), None)
    if not tools or owner is None:
        return None
    names = [_tool_name(tool, preferred) for tool in tools[:8]]
    ranked = sorted((r.memory for r in sources.values()), key=lambda m: -m.count)
    total = sum(m.count for m in ranked)
    text = f"{kind}: {', '.join(names)} (seen in {total} commands)"
    return _derived(ENVIRONMENT, owner, text, [m.id for m in ranked])


def _tool_name(tool: str, preferred: set[str]) -> str:
    system = _SYSTEM.get(tool)
    notes = [n for n in (system, "preferred" if tool in preferred else None) if n]
    return f"{tool} ({', '.join(notes)})" if notes else tool


def _preferred_tools(live: list[Memory]) -> set[str]:
    """Return the tool each tool preference names first ("Use pnpm, not npm": pnpm)."""
    found = set()
    for memory in live:
        if (memory.key or subject_key(memory.text)) in TOOL_KEYS:
            words = re.findall(r"[\w.+-]+", memory.text.lower())
            tool = next((w for w in words if _kind_of(w) is not None), None)
            found |= {tool} if tool else set()
    return found


# ---- Lessons Learned


def _lessons(live: list[Memory], kept: list[Memory]) -> list[Line]:
    facts = [m for m in live if m.type is not MemoryType.ERROR]
    errors = [
        m
        for m in live
        if m.type is MemoryType.ERROR and m.resolution and m.count >= MIN_RECURRENCES
    ]
    pinned_errors = [m for m in live if m.type is MemoryType.ERROR and PINNED in m.tags]
    lines = [_scoped(LESSONS, m) for m in _global_first(_limited(facts, MAX_PER_SECTION))]
    chosen = _limited({m.id: m for m in [*errors, *pinned_errors]}.values(), MAX_PER_SECTION)
    lines += [_scoped_derived(LESSONS, m, lesson_of(m)) for m in _global_first(chosen)]
    return lines + _reversals(kept)


def lesson_of(error: Memory) -> str:
    """Return an error's lesson line: what failed, how it was fixed, how often it came."""
    lines = [line.strip() for line in error.text.splitlines() if line.strip()]
    head = lines[0] if lines else error.text
    if re.search(r"failed: Exit code \d+$", head) and len(lines) > 1:
        head = head[: head.index("failed:")] + lines[1]
    fix = f" — fixed by {clip(error.resolution, 60)}" if error.resolution else ""
    return f"{clip(head, 90)}{fix} (seen {error.count} times)"


def _reversals(kept: list[Memory]) -> list[Line]:
    by_id = {m.id: m for m in kept}
    successors = [m for m in kept if "supersedes" in m.details and is_live(m)]
    found = []
    for successor in sorted(successors, key=lambda m: m.updated_at, reverse=True):
        old = by_id.get(str(successor.details.get("supersedes") or ""))
        if old is not None and old.state is State.SUPERSEDED:
            text = f"Changed: was {clip(old.text, 70)}, now {clip(successor.text, 70)}"
            found.append(_scoped_derived(LESSONS, old, text))
    return found[:MAX_PER_KIND]
