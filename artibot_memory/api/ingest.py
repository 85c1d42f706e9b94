"""From the capture journal to the stores: commands, errors, and errors paired with fixes.

The fast hooks only append to the journal; this runs on the full path (SessionStart, the
detached SessionEnd worker) and turns a drained batch into memories:

- each successful Bash command is counted in the command history;
- each failed Bash command becomes an error pattern (signature from the error text);
- a failure followed, in the same session, by a retry that succeeds (the same command, or
  the same program on the same target: :func:`~artibot_memory.text.shell.same_attempt`,
  the rule the session summary pairs by too) is closed: its resolution lists what
  happened in between (commands run, files edited) and the command that then succeeded;
- a success whose failure was ingested by an earlier batch closes the stored error;
- events deferred while the Python dependencies were missing (prompts, session ends)
  are processed now.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from artibot_memory.api.memories import Draft, save_many
from artibot_memory.capture import journal
from artibot_memory.core import clock
from artibot_memory.core.project import project_of
from artibot_memory.recall.search import record_access_counts
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Memory, MemoryType, Source, State
from artibot_memory.store.table import spec_for
from artibot_memory.text.shell import same_attempt
from artibot_memory.text.signature import error_signature

Record = dict[str, Any]
MAX_STEPS_IN_RESOLUTION = 8
MAX_ERROR_LINES = 12


@dataclass
class Session:
    """What one session's records add up to while a batch is walked."""

    drafts: list[Draft] = field(default_factory=list)
    open_failures: list[tuple[Record, Draft]] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    unmatched_successes: list[Record] = field(default_factory=list)


def error_text(record: Record) -> str:
    """Return the stored text of a failure: the command, then the head of its error output."""
    lines = str(record.get("error") or "").splitlines()
    body = "\n".join(lines[:MAX_ERROR_LINES]) or "failed with no output"
    return f"`{record.get('command') or record.get('tool_name')}` failed: {body}"


def _source(record: Record, channel: str) -> Source:
    return Source(
        channel=channel, session_id=record.get("session_id"), command=record.get("command")
    )


def _observation(record: Record) -> str | None:
    """Name a journal record so that re-applying it (a retried batch) counts it once."""
    tool_use_id = record.get("tool_use_id")
    return f"{tool_use_id}@{record.get('at')}" if tool_use_id else None


def _on_failure(session: Session, record: Record) -> None:
    draft = Draft(
        MemoryType.ERROR,
        error_text(record),
        project=project_of(record.get("cwd")),
        source=_source(record, "hook:PostToolUseFailure"),
        observation=_observation(record),
        signature=record.get("signature") or error_signature(str(record.get("error") or "")),
        details={"command": record.get("command"), "exit_code": record.get("exit_code")},
    )
    session.drafts.append(draft)
    session.open_failures.append((record, draft))
    session.steps.append(f"`{record.get('command')}` failed")


def _on_success(session: Session, record: Record) -> None:
    if record.get("file_path"):
        session.steps.append(f"edited {record['file_path']}")
        return
    command = record.get("command")
    if not command:
        return
    session.drafts.append(
        Draft(
            MemoryType.COMMAND,
            command,
            project=project_of(record.get("cwd")),
            source=_source(record, "hook:PostToolUse"),
            observation=_observation(record),
        )
    )
    closed = _close_open_failures(session, command)
    if not closed:
        session.unmatched_successes.append(record)
    session.steps.append(f"ran `{command}`")


def _close_open_failures(session: Session, command: str) -> bool:
    closed = False
    for failed, draft in list(session.open_failures):
        if same_attempt(str(failed.get("command") or ""), command):
            draft.resolution = resolution_text(session.steps, failed, command)
            session.open_failures.remove((failed, draft))
            closed = True
    return closed


def resolution_text(steps: list[str], failed: Record, command: str) -> str:
    """Describe the fix: the steps after the failure, then the command that succeeded."""
    marker = f"`{failed.get('command')}` failed"
    after = steps[len(steps) - steps[::-1].index(marker) :] if marker in steps else []
    between = [s for s in after if not s.endswith(" failed")][-MAX_STEPS_IN_RESOLUTION:]
    if not between:
        return f"re-running `{command}` unchanged succeeded"
    return "; ".join(between) + f"; then `{command}` succeeded"


HANDLERS: dict[str, Callable[[Session, Record], None]] = {
    "PostToolUse": _on_success,
    "PostToolUseFailure": _on_failure,
}


@dataclass
class IngestReport:
    """What one ingest stored."""

    records: int = 0
    stored: list[Memory] = field(default_factory=list)
    deferred: list[Record] = field(default_factory=list)


def walk(records: Iterable[Record]) -> tuple[dict[str, Session], list[Record]]:
    """Group records by session (in time order) and apply them; return deferred ones."""
    sessions: dict[str, Session] = defaultdict(Session)
    deferred: list[Record] = []
    for record in sorted(records, key=lambda r: str(r.get("at") or "")):
        if record.get("deferred") or record.get("event") == journal.ACCESS_EVENT:
            deferred.append(record)
            continue
        handler = HANDLERS.get(str(record.get("event")))
        if handler is not None:
            handler(sessions[str(record.get("session_id"))], record)
    return sessions, deferred


def apply_records(records: list[Record], home: Path | None = None) -> IngestReport:
    """Store what a batch of journal records says; see the module docstring."""
    sessions, deferred = walk(records)
    drafts = [draft for session in sessions.values() for draft in session.drafts]
    report = IngestReport(records=len(records), deferred=deferred)
    report.stored = save_many(drafts, home=home) if drafts else []
    late = [(sid, r) for sid, s in sessions.items() for r in s.unmatched_successes]
    if late:
        close_stored_errors(late, home)
    accessed = [r for r in deferred if r.get("event") == journal.ACCESS_EVENT]
    if accessed:
        apply_accesses(accessed, home)
    report.deferred = [r for r in deferred if r.get("event") != journal.ACCESS_EVENT]
    return report


def apply_accesses(records: list[Record], home: Path | None = None) -> None:
    """Count the journaled accesses: one locked write per store touched."""
    counts: dict[str, int] = defaultdict(int)
    for record in records:
        for memory_id in record.get("ids") or []:
            counts[str(memory_id)] += 1
    last = max(str(r.get("at") or "") for r in records)
    record_access_counts(counts, clock.parse_time(last) or clock.now(), home)


def close_stored_errors(successes: list[tuple[str, Record]], home: Path | None = None) -> None:
    """Resolve errors stored by an earlier batch that a later success of the session fixed."""
    store = Store(spec_for(MemoryType.ERROR), home)
    if not any(m.state is State.ACTIVE and not m.resolution for m in store.load()):
        return
    now = clock.now()
    with store.transaction() as entries:
        for session_id, record in successes:
            for entry in entries:
                if _fixes(entry, session_id, str(record.get("command"))):
                    entry.resolution = (
                        f"later in the same session `{record.get('command')}` succeeded"
                    )
                    entry.state = State.RESOLVED
                    entry.updated_at = now


def _fixes(entry: Memory, session_id: str, command: str) -> bool:
    return (
        entry.state is State.ACTIVE
        and not entry.resolution
        and entry.source.session_id == session_id
        and same_attempt(str(entry.details.get("command") or ""), command)
    )


def ingest_journal(
    on_deferred: Callable[[Record], None] | None = None, home: Path | None = None
) -> IngestReport:
    """Drain the journal into the stores; the journal is kept if storing fails.

    ``on_deferred`` receives the events journaled while the full path was unavailable
    (prompts, session ends), inside the drain, so they too are kept on failure.
    """
    with journal.drain(home) as batch:
        report = apply_records(list(batch), home)
        for record in report.deferred:
            if on_deferred is not None:
                on_deferred(record)
        return report
