"""MEMORY.md kept in step with the stores: the user's edits applied first, then the render.

:func:`refresh` is what the SessionEnd worker, ingest and every writing verb run; :func:`edit`
is ``artibot-memory edit``. What goes where, and how the file is merged, is
:mod:`artibot_memory.notes.semantic`; this module reads and writes the stores and the file.

The order, under MEMORY.md's own lock (``MEMORY.md.lock``):

1. read the file; when its fingerprint is not the one last written
   (``cache/memory-md.json``), the user edited it: apply the edits to the stores (an added
   line becomes a memory, a changed one updates it, a deleted one forgets it);
2. render the stores' records into the file's text;
3. read the file again just before the atomic replace: if the user saved meanwhile, their
   version wins: back to 1 with it (at most :data:`MAX_ATTEMPTS` times, then the file is
   left alone and the hooks' log says so).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from artibot_memory.api import memories
from artibot_memory.capture.hooklog import write_log
from artibot_memory.capture.prompts import person_of, person_tag
from artibot_memory.core import clock, disk
from artibot_memory.core.errors import UnknownMemoryError, UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.redact import redact
from artibot_memory.notes import memory_md, semantic
from artibot_memory.notes.memory_md import Edit, FileState
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.lock import locked
from artibot_memory.store.model import Memory, MemoryType, Scope, Source, State
from artibot_memory.store.table import STORES, spec_for, specs_for_id
from artibot_memory.text import markdown
from artibot_memory.text.subjects import SUBJECTS, subject_key
from artibot_memory.text.tokens import normalize_text

MAX_ATTEMPTS = 3
LOCK_TIMEOUT_SECONDS = 10.0
FALLBACK_EDITOR = "vi"
KEYS = frozenset(key for key, _english, _korean in SUBJECTS)


@dataclass
class Report:
    """What a refresh did: the ids the user's edits added, updated and forgot; the write."""

    path: str
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    written: bool = False
    retries: int = 0
    left_alone: bool = False


def memory_md_path(home: Path | None = None) -> Path:
    """Return the path of MEMORY.md in the memory home."""
    return (home if home is not None else memory_home()) / semantic.FILE_NAME


def refresh(home: Path | None = None) -> Report:
    """Apply the user's edits of MEMORY.md to the stores, then render it (see the docstring)."""
    home = home if home is not None else memory_home()
    path = memory_md_path(home)
    report = Report(str(path))
    adopted: dict[str, str] = {}
    with locked(path, LOCK_TIMEOUT_SECONDS):
        for _attempt in range(MAX_ATTEMPTS):
            if _render_once(path, home, report, adopted):
                return report
            report.retries += 1
    write_log("MEMORY.md: it kept changing while it was rendered; left as the user saved it")
    report.left_alone = True
    return report


def _render_once(path: Path, home: Path, report: Report, adopted: dict[str, str]) -> bool:
    """One read, apply, render, replace; False when the file moved before the replace."""
    seen = read_file(path)
    state = FileState.load(home)
    text = seen
    records = _records(home)
    lines = semantic.lines_for(records, clock.now())
    if seen is not None and markdown.fingerprint(seen) != state.fingerprint:
        shown = {line.memory_id for line in lines}
        text = apply_edits(seen, state, home, report, adopted, shown=shown)
        records = _records(home)
        lines = semantic.lines_for(records, clock.now())
    rendered = memory_md.merge(text, lines, semantic.top_lines(records))
    if read_before_replace(path) != seen:
        return False  # the user saved meanwhile: their version wins, read it again
    if rendered != seen:
        disk.write_text(path, rendered)
        report.written = True
    written = FileState.of(read_file(path) or "", lines)
    if written != state:
        written.save(home)
    return True


def read_file(path: Path) -> str | None:
    """Return MEMORY.md's text, or None when there is none (undecodable bytes replaced)."""
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        return None


read_before_replace = read_file  # the re-read just before the replace (a test seam)


def _records(home: Path) -> list[Memory]:
    return [memory for spec in STORES for memory in Store(spec, home).load()]


# ---- the user's edits into the stores


def apply_edits(
    text: str,
    state: FileState,
    home: Path,
    report: Report,
    adopted: dict[str, str] | None = None,
    *,
    shown: set[str] | None = None,
) -> str:
    """Apply the edits of ``text`` since ``state``; return it with added lines marked.

    ``adopted`` (normalised text → id) carries the lines already added by an earlier attempt
    of the same refresh, so a line is not saved twice. A line missing from the file is a
    deletion only when its memory is still one the stores would show (``shown``; None: all):
    a line the renderer itself took out (its memory went stale, fell out of the newest), in
    a render whose state a crash did not let it save, forgets nothing.
    """
    adopted = {} if adopted is None else adopted
    marks: dict[int, str] = {}
    for edit in memory_md.edits(text, state):
        if edit.kind == "added":
            memory_id = adopted.get(normalize_text(edit.text)) or _add(edit, home).id
            adopted[normalize_text(edit.text)] = memory_id
            marks[edit.line] = memory_id
            report.added += [] if memory_id in report.added else [memory_id]
        elif edit.kind == "changed" and _change(edit, home):
            report.updated.append(str(edit.memory_id))
        elif edit.kind == "deleted" and (shown is None or edit.memory_id in shown):
            report.forgotten += _forget(edit, home)
    return memory_md.adopt(text, marks)


def _source(edit: Edit) -> Source:
    return Source(channel=semantic.FILE_NAME, path=semantic.FILE_NAME, line=edit.line or None)


def _add(edit: Edit, home: Path) -> Memory:
    """Save a line the user added as the memory its section says; return the stored record."""
    draft = _draft(edit)
    draft.tags = [*draft.tags, semantic.PINNED]
    stored = memories.save_many([draft], home=home)[0]
    if stored.state is not State.ACTIVE:  # it repeats a stale or pending one: restated
        update(stored.id, lambda m: setattr(m, "state", State.ACTIVE), home=home)
    return stored


def _draft(edit: Edit) -> memories.Draft:
    """Return the memory an added line says: outside Project Context, ``[shop] …`` scopes it."""
    text, source = edit.text, _source(edit)
    named, text = (None, text) if edit.section == semantic.PROJECTS else markdown.scoped(text)
    project = edit.project if named else None
    if edit.section == semantic.PREFERENCES:
        key, text = _trailing_key(text)
        return memories.Draft(
            MemoryType.PREFERENCE,
            text,
            key=key or subject_key(text),
            project=project,
            source=source,
        )
    if edit.section == semantic.PEOPLE:
        person = person_of(text)
        tags = [person_tag(person)] if person else []
        return memories.Draft(
            MemoryType.CONTEXT, text, tags=tags, project=project, scope=Scope.PERSON, source=source
        )
    if edit.section in (semantic.ENVIRONMENT, semantic.LESSONS):
        tag = "environment" if edit.section == semantic.ENVIRONMENT else "lesson"
        return memories.Draft(MemoryType.CONTEXT, text, tags=[tag], project=project, source=source)
    tags = []
    if text.startswith(semantic.DECIDED):
        text, tags = text[len(semantic.DECIDED) :], ["decision"]
    return memories.Draft(MemoryType.CONTEXT, text, tags=tags, project=edit.project, source=source)


def _trailing_key(text: str) -> tuple[str | None, str]:
    """``Use pnpm (package-manager)`` → ("package-manager", "Use pnpm"): a known key only."""
    if text.endswith(")") and " (" in text:
        rest, key = text[:-1].rsplit(" (", 1)
        if key in KEYS and rest.strip():
            return key, rest.strip()
    return None, text


def _change(edit: Edit, home: Path) -> bool:
    """Update the memory of a changed line; False when there is nothing to change."""
    memory = _find(str(edit.memory_id), home)
    if memory is None:
        return False
    if edit.before.get("parts") is None:  # a derived line: the user's wording is kept
        wording = redact(markdown.scoped(edit.text)[1])  # its [project] is the memory's
        return update(memory.id, lambda m: _set_override(m, wording), home=home)
    text = memory_md.new_core(edit)
    if not text or normalize_text(text) == normalize_text(memory.text):
        return False
    if memory.type is MemoryType.PREFERENCE:
        return _supersede(memory, text, edit, home)
    cleaned = memories.clean_text(text)
    return update(memory.id, lambda m: _set_text(m, cleaned), home=home)


def _set_override(memory: Memory, wording: str) -> None:
    memory.details = {**memory.details, semantic.OVERRIDE: wording}
    memory.updated_at = clock.now()


def _set_text(memory: Memory, text: str) -> None:
    memory.text = text
    memory.updated_at = clock.now()


def _supersede(old: Memory, text: str, edit: Edit, home: Path) -> bool:
    """Supersede a preference by its new value, as a new save with its key would."""
    if old.state is State.SUPERSEDED:
        return False  # applied already (an earlier attempt of this refresh)
    draft = memories.Draft(
        MemoryType.PREFERENCE,
        text,
        key=old.key,
        project=old.project,
        scope=old.scope,
        tags=[semantic.PINNED] if semantic.PINNED in old.tags else [],
        source=_source(edit),
    )
    if old.key is not None:
        memories.save_many([draft], home=home)  # store/merge.py supersedes by key
        return True
    new = memories.build(draft, clock.now())
    with Store(spec_for(MemoryType.PREFERENCE), home).transaction() as entries:
        for entry in entries:
            if entry.id == old.id:
                entry.state = State.SUPERSEDED
                entry.updated_at = new.updated_at
                new.related = [old.id]
                new.details = {**new.details, "supersedes": old.id}
                entries.append(new)
                return True
    return False


def _forget(edit: Edit, home: Path) -> list[str]:
    """Forget what a deleted line was made from (its memory, or a tool line's commands)."""
    gone = []
    for memory_id in edit.before.get("sources") or [edit.memory_id]:
        try:
            gone += [m.id for m in memories.forget(str(memory_id), home=home)]
        except UnknownMemoryError:
            continue  # forgotten already
    return gone


def _find(memory_id: str, home: Path) -> Memory | None:
    try:
        return memories.get(memory_id, home=home)
    except UnknownMemoryError:
        return None


def update(memory_id: str, change: Callable[[Memory], None], *, home: Path | None = None) -> bool:
    """Change one memory in place under its store's lock (like every writer); True if found.

    ``change`` edits the record (its text, state, details); the store is written atomically
    and the search index kept in step, as by every write. MEMORY.md is not rendered here:
    a caller that changed what it shows runs :func:`refresh`.
    """
    for spec in specs_for_id(memory_id):
        store = Store(spec, home)
        if not any(m.id == memory_id for m in store.load()):
            continue
        with store.transaction() as entries:
            for entry in entries:
                if entry.id == memory_id:
                    change(entry)
        return True
    return False


# ---- artibot-memory edit


def edit(editor: str | None = None, *, home: Path | None = None) -> Report:
    """Apply pending edits, open MEMORY.md in the editor, then apply what the user changed.

    The editor is ``editor``, else ``$VISUAL``, else ``$EDITOR``, else ``vi``; without a
    terminal ``vi`` is not started (it would wait for one) and the error says so.
    """
    before = refresh(home)
    argv = editor_command(editor)
    path = memory_md_path(home)
    interactive = sys.stdin.isatty()
    try:
        done = subprocess.run(  # noqa: S603 - the user's own editor, on the user's own file
            [*argv, str(path)], check=False, stdin=None if interactive else subprocess.DEVNULL
        )
    except OSError as exc:
        msg = f"cannot run the editor {argv[0]!r} ({exc.strerror}); set $VISUAL or $EDITOR"
        raise UsageError(msg) from exc
    if done.returncode != 0:
        msg = (
            f"the editor {argv[0]!r} exited with status {done.returncode}; {path} is as it left it"
        )
        raise UsageError(msg)
    after = refresh(home)
    after.added[:0], after.updated[:0], after.forgotten[:0] = (
        before.added,
        before.updated,
        before.forgotten,
    )
    return after


def editor_command(editor: str | None = None) -> list[str]:
    """Return the editor's command line, or raise a one-line :class:`UsageError`."""
    chosen = editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or None
    value = chosen or FALLBACK_EDITOR
    try:
        argv = shlex.split(value)
    except ValueError:
        argv = []
    if not argv or shutil.which(argv[0]) is None:
        msg = f"no editor to open MEMORY.md: {value!r} was not found; set $VISUAL or $EDITOR"
        raise UsageError(msg)
    if chosen is None and not sys.stdin.isatty():
        msg = (
            f"no terminal to run {FALLBACK_EDITOR} in; set $EDITOR, or open "
            f"{semantic.FILE_NAME} in the memory home yourself"
        )
        raise UsageError(msg)
    return argv
