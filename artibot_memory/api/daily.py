"""What a session, and a save, add to the day's note (:mod:`artibot_memory.notes.daily`).

:func:`note_session` is what the SessionEnd worker and the PreCompact checkpoint call
once the session's summary is saved; :func:`note_memory` is what ``save … --note`` and a
save tagged ``decision`` call. Everything comes from what the session really did, with no
model in between:

- **Events**: the session's ask (its first prompt in words, what was pasted with it a
  marker: :mod:`artibot_memory.text.ask`; Claude Code's own prompts are not the user's),
  the files created and edited, the tests run and how they ended, the errors and what
  fixed them, the branch and how long it took. A session of nothing but
  routine commands (``ls``, ``git status``…) gives at most its ask.
- **Decisions**: the ones stated in the transcript, by the user or the assistant
  (:mod:`artibot_memory.capture.decisions`), and the memories this session saved with the
  tag ``decision``.
- **Observations**: the preferences this session stated, the errors it saw again (an
  error memory seen more than once, seen in this session too), a command run at least
  :data:`PATTERN_RUNS` times.
- **Notes**: what the user asked to remember (a context this session kept from a
  prompt: "asked to remember", or "a project fact").

The transcript is read only after the last line the notes already hold of this session
(:func:`artibot_memory.notes.daily.covered_lines`), so a resumed session, a checkpoint
then the end, and a retried worker add only what is new. Every text is redacted before
it is cut, so a secret is never half kept (and the file is redacted again when written).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from artibot_memory.api.memories import Draft, list_memories, save_many
from artibot_memory.capture.transcript import FailedCommand, Mark, SessionDigest, read_transcript
from artibot_memory.core import clock, disk
from artibot_memory.core.errors import StoreError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import display_name
from artibot_memory.notes import daily
from artibot_memory.notes.daily import DECISIONS, EVENTS, NOTES, OBSERVATIONS, Item
from artibot_memory.recall import lookup
from artibot_memory.store.model import Memory, MemoryType, Source
from artibot_memory.text.ask import ask_in_words
from artibot_memory.text.shell import command_signature, program_and_target
from artibot_memory.text.trim import clip

__all__ = [
    "DECISIONS",
    "EVENTS",
    "NOTES",
    "OBSERVATIONS",
    "PATTERN_RUNS",
    "ROUTINE",
    "note_memory",
    "note_session",
    "session_items",
]

PATTERN_RUNS = 5  # a command run this often in one session is a pattern worth a line
ASK_CHARS = 120
TEXT_CHARS = 200
MAX_FILES_NAMED = 6
MAX_TESTS_NAMED = 3
MAX_ERRORS_NAMED = 4
DECISION_TAG = "decision"
TODO_TAG = "todo"  # work left for later: a session start lists it as open
STATED = "a decision stated"  # the why of a decision kept from the session's own words
DECISION_CONFIDENCE = 0.6  # heard once, in the session's own words: not yet confirmed
# why a context was kept from a prompt: asked to remember it, or stated as a project fact
REMEMBERED = frozenset({"asked to remember", "a project fact"})
# programs (with their subcommand) that only look around: a session of these alone is routine
ROUTINE = frozenset(
    (
        "ls cd pwd cat head tail less more echo which type whoami date wc file stat tree find"
        " grep rg ag fd du df env printenv clear history"
    ).split()
) | frozenset(("git status", "git log", "git diff", "git show", "git branch", "git remote"))
MIN_DURATION_SECONDS = 60  # shorter is not worth saying
_PREFIX = {DECISIONS: "Decided: ", NOTES: ""}
_OUTCOME = {True: "passed", False: "FAILED", None: "outcome unknown"}


def note_session(
    digest: SessionDigest, session_id: str, project: str | None, home: Path | None = None
) -> list[Item]:
    """Add what this session did, and has not told yet, to its days' notes; return it.

    Each item goes to the note of its own local day (a session past midnight writes in
    two notes).
    """
    home = home or memory_home()
    covered = daily.covered_lines(home, session_id, daily.day_of())
    if covered and digest.path and covered >= digest.first_line:
        digest = read_transcript(
            digest.path, after_line=covered, cwd=digest.cwd, session_id=digest.session_id
        )
    items = session_items(digest, session_id, project) if digest.first_line else []
    keep_decisions(digest, session_id, project, home)
    keep_todos(digest, session_id, project, home)
    items += _memory_items(session_id, digest, project, home)
    return _write(home, items)


def keep_decisions(
    digest: SessionDigest, session_id: str, project: str | None, home: Path
) -> list[Memory]:
    """Keep each decision the session stated as a context tagged ``decision``.

    So MEMORY.md lists a project's recent decisions and search finds them as memories; the
    day's note then cites the memory. Each is named by its session and transcript line, so
    a retried worker or a resumed session counts it once.
    """
    return _keep_marks(
        digest.decisions, DECISION_TAG, f"{STATED} by the", session_id, digest, project, home
    )


def keep_todos(
    digest: SessionDigest, session_id: str, project: str | None, home: Path
) -> list[Memory]:
    """Keep what the session left to do as contexts tagged ``todo`` of its project.

    The next session start lists them first, as open work, while they are recent
    (:mod:`artibot_memory.recall.briefing`); outside a project they are not kept.
    """
    if project is None:
        return []
    return _keep_marks(
        digest.todos, TODO_TAG, "left to do by the", session_id, digest, project, home
    )


def _keep_marks(  # noqa: PLR0917 - one builder for both kinds of mark, every part named
    marks: tuple[Mark, ...],
    tag: str,
    why: str,
    session_id: str,
    digest: SessionDigest,
    project: str | None,
    home: Path,
) -> list[Memory]:
    """Save each distinct mark as a context tagged ``tag``, named by its session and line."""
    drafts = [
        Draft(
            MemoryType.CONTEXT,
            mark.text,
            tags=[tag],
            project=project,
            confidence=DECISION_CONFIDENCE,
            why=f"{why} {mark.kind}",
            source=Source(
                channel="hook:SessionEnd",
                session_id=session_id,
                path=digest.path,
                line=mark.line,
                agent=digest.agent,
            ),
            created_at=mark.at,
            observation=f"{tag}:{session_id}:{mark.line}",
        )
        for mark in _distinct(marks)
    ]
    return save_many(drafts, home=home) if drafts else []


def _distinct(marks: tuple[Mark, ...]) -> list[Mark]:
    seen: set[str] = set()
    kept = []
    for mark in marks:
        if mark.text.strip() and mark.text.lower() not in seen:
            seen.add(mark.text.lower())
            kept.append(mark)
    return kept


def note_memory(memory: Memory, section: str, home: Path | None = None) -> list[Item]:
    """Add one saved memory to today's note, in ``section`` (``Decisions`` or ``Notes``)."""
    text = _PREFIX.get(section, "") + _said(memory.text, TEXT_CHARS)
    item = Item(section, clock.now(), _name(memory.project), text, memory.id)
    return _write(home or memory_home(), [item])


def session_items(digest: SessionDigest, session_id: str, project: str | None) -> list[Item]:
    """Return the Events and Decisions of a digest (its transcript lines, nothing else)."""
    span = daily.session_source(session_id, digest.first_line, digest.last_line)
    ends = digest.ended_at or clock.now()
    here = _Here(session_id, _name(project), span, ends, digest.cwd)
    return _events(digest, here)


@dataclass(frozen=True)
class _Here:
    """What every item of one run shares: the session, project, span source, end, folder."""

    session_id: str
    project: str
    span: str
    ends: datetime
    cwd: str

    def item(self, section: str, at: datetime | None, text: str, source: str = "") -> Item:
        return Item(section, at or self.ends, self.project, text, source or self.span)


def _events(d: SessionDigest, here: _Here) -> list[Item]:
    asks = [mark for mark in d.asks if mark.text.strip()]
    items = [_asked(asks, here)] if asks else []
    if not _substantive(d):
        return items[:1]
    items += _changed(d.changes, here)
    items += _tested(d, here)
    items += _failed(d.errors, here)
    items.append(_closing(d, here))
    return items


def _asked(asks: list[Mark], here: _Here) -> Item:
    more = f" (+{len(asks) - 1} more)" if len(asks) > 1 else ""
    said = ask_in_words(disk.clean(asks[0].text), ASK_CHARS)  # redacted, then cut
    return here.item(EVENTS, asks[0].at, f'Asked: "{said}"{more}')


def _substantive(d: SessionDigest) -> bool:
    """Tell whether the session did more than look around (files, tests, errors, work)."""
    if d.changes or d.tests or d.errors or d.decisions:
        return True
    return any(program_and_target(command)[0] not in ROUTINE for command in d.commands)


def _changed(changes: tuple[Mark, ...], here: _Here) -> list[Item]:
    items = []
    for group in _by_day(changes, here):
        parts = [
            f"{verb} {_names([_here_path(m.text, here.cwd) for m in group if m.kind == kind])}"
            for verb, kind in (("Edited", "edited"), ("created", "created"))
            if any(m.kind == kind for m in group)
        ]
        text = "; ".join(parts)
        items.append(here.item(EVENTS, group[-1].at, text[:1].upper() + text[1:]))
    return items


def _tested(d: SessionDigest, here: _Here) -> list[Item]:
    items = []
    by_command: dict[tuple[object, str], list[bool | None]] = {}
    last: dict[tuple[object, str], datetime | None] = {}
    for run in d.tests:
        key = (_day(run.at, here), run.command)
        by_command.setdefault(key, []).append(run.passed)
        last[key] = run.at
    for key, outcomes in list(by_command.items())[-MAX_TESTS_NAMED:]:
        said = ", then ".join(_OUTCOME[o] for o in _collapsed(outcomes))
        items.append(here.item(EVENTS, last[key], f"Tests: `{_said(key[1], 70)}` {said}"))
    return items


def _failed(errors: tuple[FailedCommand, ...], here: _Here) -> list[Item]:
    latest = {(e.command, e.error_first_line): e for e in errors}  # one line per repeat
    items = []
    for error in list(latest.values())[:MAX_ERRORS_NAMED]:
        head = f"Error `{_said(error.command, 70)}` ({_said(error.error_first_line, 90)})"
        source = daily.session_source(here.session_id, error.line) if error.line else ""
        items.append(here.item(EVENTS, error.at, f"{head} {_fix(error, here.cwd)}", source))
    return items


def _fix(error: FailedCommand, cwd: str) -> str:
    if not error.fixed:
        return "not fixed"
    if error.fix_files:
        return "fixed by editing " + ", ".join(_here_path(f, cwd) for f in error.fix_files[:3])
    if error.fixed_by and error.fixed_by != error.command:
        return f"fixed by `{_said(error.fixed_by, 70)}`"
    return "fixed on retry"


def _closing(d: SessionDigest, here: _Here) -> Item:
    branch = f" on branch {_said(d.git_branch, 80)}" if d.git_branch else ""
    took = (
        f", {_duration(d.duration_seconds)}" if d.duration_seconds >= MIN_DURATION_SECONDS else ""
    )
    return here.item(EVENTS, d.ended_at, f"Session{branch}{took}")


# ---- what the stores say this session did


def _memory_items(session_id: str, d: SessionDigest, project: str | None, home: Path) -> list[Item]:
    """Return the items the session's memories give: decisions, observations, notes."""
    mine = [m for m in _named_by(session_id, home) if _touched(m, session_id)]
    items = [item for m in mine if (item := _memory_item(m, session_id)) is not None]
    return items + _patterns(d, session_id, project, home)


def _touched(memory: Memory, session_id: str) -> bool:
    if memory.source.session_id == session_id:
        return True
    return memory.type is MemoryType.ERROR and any(
        e.session_id == session_id for e in memory.evidence
    )


def _memory_item(m: Memory, session_id: str) -> Item | None:
    text = _said(m.text, TEXT_CHARS)
    made_here = m.source.session_id == session_id
    if m.type is MemoryType.CONTEXT and DECISION_TAG in m.tags and made_here:
        said = text if (m.why or "").startswith(STATED) else f"Decided: {text}"
        return Item(DECISIONS, m.created_at, _name(m.project), said, m.id)
    if m.type is MemoryType.CONTEXT and m.why in REMEMBERED and made_here:
        return Item(NOTES, m.created_at, _name(m.project), f"Remember: {text}", m.id)
    if m.type is MemoryType.PREFERENCE and made_here:
        said = "Preference detected" + (" (pending)" if m.state.value == "pending" else "")
        return Item(OBSERVATIONS, m.created_at, _name(m.project), f"{said}: {text}", m.id)
    if m.type is MemoryType.ERROR and m.count > 1:
        said = f"Error seen again (×{m.count}): {text}"
        return Item(OBSERVATIONS, m.last_seen, _name(m.project), said, m.id)
    return None


def _patterns(d: SessionDigest, session_id: str, project: str | None, home: Path) -> list[Item]:
    """Return a line for each non-routine command run :data:`PATTERN_RUNS` times or more."""
    frequent = [
        (command, n)
        for command, n in d.commands.most_common(3)
        if n >= PATTERN_RUNS and program_and_target(command)[0] not in ROUTINE
    ]
    if not frequent:
        return []
    known = {m.signature: m for m in _named_by(session_id, home) if m.type is MemoryType.COMMAND}
    span = daily.session_source(session_id, d.first_line, d.last_line)
    items = []
    for command, n in frequent:
        memory = known.get(command_signature(command))
        text = f"Ran `{_said(command, 70)}` {n} times"
        source = memory.id if memory else span
        name = _name(memory.project if memory else project)
        items.append(Item(OBSERVATIONS, d.ended_at or clock.now(), name, text, source))
    return items


def _named_by(session_id: str, home: Path) -> list[Memory]:
    """Return the memories whose record names ``session_id`` (source or evidence).

    Read through the index and validated one by one: a few, not every store. Without a
    usable index (no FTS5, a broken file) the stores are read whole.
    """
    try:
        docs = lookup.naming(f'"{session_id}"', home=home)
    except (sqlite3.Error, StoreError):
        return list_memories(home=home)
    return [Memory.model_validate(doc) for doc in docs]


# ---- small helpers


def _write(home: Path, items: list[Item]) -> list[Item]:
    """Append the items to the note of each one's day; return those written."""
    written: list[Item] = []
    for day in sorted({item.day for item in items}):
        written += daily.append(home, day, [item for item in items if item.day == day])
    return written


def _by_day(marks: Iterable[Mark], here: _Here) -> list[list[Mark]]:
    groups: dict[object, list[Mark]] = {}
    for mark in marks:
        groups.setdefault(_day(mark.at, here), []).append(mark)
    return list(groups.values())


def _day(at: datetime | None, here: _Here) -> object:
    return daily.day_of(at or here.ends)


def _collapsed(outcomes: list[bool | None]) -> list[bool | None]:
    """Return how the runs went, not each run: ``[False, False, True]`` -> ``[False, True]``."""
    return [o for i, o in enumerate(outcomes) if i == 0 or outcomes[i - 1] != o]


def _names(paths: list[str]) -> str:
    named = ", ".join(clip(p, 80) for p in paths[:MAX_FILES_NAMED])
    more = len(paths) - MAX_FILES_NAMED
    return named + (f" (+{more} more)" if more > 0 else "")


def _here_path(path: str, cwd: str) -> str:
    """Return ``path`` relative to the session's folder when inside it, redacted."""
    prefix = cwd.rstrip("/") + "/"
    return _said(path[len(prefix) :] if cwd and path.startswith(prefix) else path, 120)


def _said(text: str, limit: int) -> str:
    """Redact, then cut: a secret is replaced whole before any cut could keep half of it."""
    return clip(" ".join(disk.clean(text).split()), limit)


def _name(project: str | None) -> str:
    return display_name(project) if project else daily.GLOBAL


def _duration(seconds: float) -> str:
    minutes = int(seconds) // 60
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m"
