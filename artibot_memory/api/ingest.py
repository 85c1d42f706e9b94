"""From the capture journal to the stores: commands, errors, their fixes, recalls' outcomes.

The fast hooks only append to the journal; this runs on the full path (SessionStart, the
detached SessionEnd worker) and turns a drained batch into memories:

- every Bash command is counted in the command history, failed or not (a command's
  ``failures`` says how many of its runs failed);
- every failure becomes an error pattern (signature from the error text), paired with its
  fix by :mod:`artibot_memory.capture.pairing`, the one rule, which the transcript digest
  pairs by too. A fix is stored with how it is known (``details["fix"]``: method,
  confidence, session, when, edits, commands; see :class:`~artibot_memory.store.model.Memory`)
  and the resolution text recall shows; a failure nobody closed keeps what happened next
  (``details["unresolved"]``);
- an error stored by an earlier batch and still open is paired with what this batch shows
  of its session afterwards;
- a fix the failure hook recalled (a ``Recalled`` record) gains evidence when the same
  command then succeeds, counter-evidence when the same error comes back; either moves its
  confidence (:func:`~artibot_memory.capture.pairing.fix_confidence`);
- at SessionEnd, :func:`refine_errors` takes the transcript's pairing of the session's
  errors, which also has the assistant's words, where it is at least as sure;
- events deferred while the Python dependencies were missing (prompts, session ends)
  are processed now.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from artibot_memory.api import conflicts
from artibot_memory.api.memories import Draft, save_many
from artibot_memory.capture import journal, pairing
from artibot_memory.capture.pairing import Fix, Outcome, Step, command_step
from artibot_memory.capture.transcript import FailedCommand, SessionDigest
from artibot_memory.core import clock
from artibot_memory.core.errors import StoreError
from artibot_memory.core.project import project_of, same_project
from artibot_memory.core.redact import redact, redact_value
from artibot_memory.recall.known_errors import RECALL_EVENT
from artibot_memory.store.jsonfile import Store, change_each_store, group_by_store
from artibot_memory.store.merge import MAX_EVIDENCE, adopt_fix
from artibot_memory.store.model import Evidence, Memory, MemoryType, Source, State
from artibot_memory.store.table import StoreSpec, spec_for, specs_for_id
from artibot_memory.text.signature import error_signature

Record = dict[str, Any]
MAX_ERROR_LINES = 12
_TOOL_EVENTS = frozenset({"PostToolUse", "PostToolUseFailure", RECALL_EVENT})


def error_text(record: Record) -> str:
    """Return the stored text of a failure: the command, then the head of its error output."""
    lines = str(record.get("error") or "").splitlines()
    body = "\n".join(lines[:MAX_ERROR_LINES]) or "failed with no output"
    return f"`{record.get('command') or record.get('tool_name')}` failed: {body}"


def _source(record: Record, channel: str) -> Source:
    agent = record.get("agent")
    return Source(
        channel=channel,
        session_id=record.get("session_id"),
        command=record.get("command"),
        agent=agent if isinstance(agent, str) else None,
    )


def _observation(record: Record) -> str | None:
    """Name a journal record so that re-applying it (a retried batch) counts it once."""
    tool_use_id = record.get("tool_use_id")
    return f"{tool_use_id}@{record.get('at')}" if tool_use_id else None


def _signature(record: Record) -> str:
    return str(record.get("signature") or error_signature(str(record.get("error") or "")))


def step_of(record: Record) -> Step | None:
    """Return the pairing step a journal record stands for (None: nothing pairing reads)."""
    event, at, ref = record.get("event"), str(record.get("at") or ""), _observation(record) or ""
    command = str(record.get("command") or "")
    if event == "PostToolUse" and record.get("file_path"):
        change = str(record.get("change") or "")
        return Step(pairing.EDITED, str(record["file_path"]), at, ref, change=change)
    if event == "PostToolUse" and command:
        return command_step(pairing.SUCCEEDED, command, at=at, ref=ref)
    if event == "PostToolUseFailure" and not command:  # another tool: never retried as a command
        return Step(pairing.FAILED, str(record.get("tool_name") or ""), at, ref, _signature(record))
    if event == "PostToolUseFailure":
        return command_step(pairing.FAILED, command, at=at, ref=ref, signature=_signature(record))
    if event == RECALL_EVENT and record.get("ids"):
        memory_id = str(record["ids"][0])
        return command_step(
            pairing.RECALLED, command, at=at, ref=memory_id, signature=_signature(record)
        )
    return None


@dataclass
class Plan:
    """What a batch adds up to: drafts to save, stored errors to change."""

    drafts: list[Draft] = field(default_factory=list)
    stored_fixes: list[tuple[str, Fix, str, str | None]] = field(default_factory=list)
    outcomes: list[tuple[Outcome, str]] = field(default_factory=list)  # (outcome, session)


@dataclass
class IngestReport:
    """What one ingest stored."""

    records: int = 0
    stored: list[Memory] = field(default_factory=list)
    deferred: list[Record] = field(default_factory=list)


def walk(records: Iterable[Record]) -> tuple[dict[str, list[Record]], list[Record]]:
    """Group the tool records by session, in time order; return them and the deferred ones."""
    sessions: dict[str, list[Record]] = defaultdict(list)
    deferred: list[Record] = []
    for record in sorted(records, key=lambda r: str(r.get("at") or "")):
        if record.get("deferred") or record.get("event") == journal.ACCESS_EVENT:
            deferred.append(record)
        elif record.get("event") in _TOOL_EVENTS:
            sessions[str(record.get("session_id"))].append(record)
    return sessions, deferred


def plan_session(
    session_id: str, records: list[Record], still_open: list[Memory], plan: Plan
) -> None:
    """Pair one session's records (after its errors still open) and add the result to ``plan``."""
    opened = [_stored_step(entry) for entry in still_open]
    pairs = [(record, step_of(record)) for record in records]
    steps = opened + [step for _, step in pairs if step is not None]
    kept = [record for record, step in pairs if step is not None]
    for at, fix in pairing.pair(steps):
        if at < len(opened):
            if fix.resolved:
                entry = still_open[at]
                plan.stored_fixes.append((entry.id, fix, session_id, entry.project))
        else:
            plan.drafts.append(_error_draft(kept[at - len(opened)], fix))
    plan.drafts += [_command_draft(r) for r in records if r.get("command") and _is_run(r)]
    plan.outcomes += [(outcome, session_id) for outcome in pairing.outcomes(steps)]


def _is_run(record: Record) -> bool:
    return record.get("event") in ("PostToolUse", "PostToolUseFailure")


def _stored_step(entry: Memory) -> Step:
    command = str(entry.details.get("command") or "")
    return command_step(pairing.FAILED, command, signature=entry.signature or "")


def _command_draft(record: Record) -> Draft:
    failed = record.get("event") == "PostToolUseFailure"
    return Draft(
        MemoryType.COMMAND,
        str(record["command"]),
        project=project_of(record.get("cwd")),
        source=_source(record, f"hook:{record.get('event')}"),
        observation=_observation(record),
        failures=1 if failed else 0,
    )


def _error_draft(record: Record, fix: Fix) -> Draft:
    project = project_of(record.get("cwd"))
    session_id = record.get("session_id")
    details: dict[str, Any] = {
        "command": record.get("command"),
        "exit_code": record.get("exit_code"),
    }
    if fix.resolved:
        details["fix"] = fix_details(fix, session_id, project)
    else:
        details["unresolved"] = unresolved_details(fix, session_id, project)
    return Draft(
        MemoryType.ERROR,
        error_text(record),
        project=project,
        source=_source(record, "hook:PostToolUseFailure"),
        observation=_observation(record),
        signature=_signature(record),
        details=details,
        resolution=fix.describe(project) if fix.resolved else None,
        confidence=fix.confidence,
    )


def fix_details(fix: Fix, session_id: str | None, root: str | None) -> dict[str, Any]:
    """How a fix is known, as ``details["fix"]`` keeps it (see the model's docstring)."""
    return {
        **_sighting(fix, session_id),
        "fixed_by": fix.fixed_by,
        "explanation": fix.explanation,
        "edits": list(fix.edits(root)),
        "commands": list(fix.commands()),
        "confirmed": 0,
        "contradicted": 0,
    }


def unresolved_details(fix: Fix, session_id: str | None, root: str | None) -> dict[str, Any]:
    """Return the latest sighting nobody closed, as ``details["unresolved"]`` keeps it."""
    return {**_sighting(fix, session_id), "next": fix.describe(root)}


def _sighting(fix: Fix, session_id: str | None) -> dict[str, Any]:
    """Return what both records of a failure's pairing begin with: how, how sure, when."""
    return {
        "method": fix.method,
        "confidence": fix.confidence,
        "session_id": session_id,
        "at": fix.at,
    }


def apply_records(records: list[Record], home: Path | None = None) -> IngestReport:
    """Store what a batch of journal records says; see the module docstring."""
    sessions, deferred = walk(records)
    report = IngestReport(records=len(records))
    if sessions:
        plan = Plan()
        still_open = _still_open(sessions, home)
        for session_id, session in sessions.items():
            plan_session(session_id, session, still_open.get(session_id, []), plan)
        if plan.outcomes or plan.stored_fixes:
            change_stored_errors(plan, home)
        report.stored = save_many(plan.drafts, home=home) if plan.drafts else []
        conflicts.contradicted(_commands_run(plan.drafts, report.stored), home)  # never raises
    accessed = [r for r in deferred if r.get("event") == journal.ACCESS_EVENT]
    if accessed:
        apply_accesses(accessed, home)
    report.deferred = [r for r in deferred if r.get("event") != journal.ACCESS_EVENT]
    return report


def _commands_run(drafts: list[Draft], stored: list[Memory]) -> list[tuple[Memory, str | None]]:
    """Return each command stored with the session it was run in (for the behaviour rule)."""
    return [
        (memory, draft.source.session_id)
        for draft, memory in zip(drafts, stored, strict=True)
        if memory.type is MemoryType.COMMAND
    ]


def _still_open(sessions: dict[str, list[Record]], home: Path | None) -> dict[str, list[Memory]]:
    """Return the errors each session left open (sessions with a success that may close one)."""
    closing = {
        sid for sid, recs in sessions.items() if any(r.get("event") == "PostToolUse" for r in recs)
    }
    if not closing:
        return {}
    try:
        stored = Store(spec_for(MemoryType.ERROR), home).load()
    except StoreError:  # closes nothing now; a broken error store must not hold commands back
        return {}
    found: dict[str, list[Memory]] = defaultdict(list)
    for entry in stored:
        if entry.state is State.ACTIVE and not entry.resolution:
            for session_id in {e.session_id for e in entry.evidence} & closing:
                found[str(session_id)].append(entry)
    return found


def change_stored_errors(plan: Plan, home: Path | None = None) -> None:
    """Apply recalls' outcomes, then fixes of errors stored open: one locked write."""
    store = Store(spec_for(MemoryType.ERROR), home)
    now = clock.now()
    with store.transaction() as entries:
        by_id = {entry.id: entry for entry in entries}
        for outcome, session_id in plan.outcomes:
            entry = by_id.get(outcome.memory_id)
            if entry is not None:
                _judge(entry, outcome, session_id, now)
        for memory_id, fix, session_id, project in plan.stored_fixes:
            entry = by_id.get(memory_id)
            if entry is not None:
                _give_fix(entry, fix, session_id, project, now)


def _judge(entry: Memory, outcome: Outcome, session_id: str, now: datetime) -> None:
    """Count a recalled fix's outcome once (a replayed batch does not count it again)."""
    note = f"recall:{outcome.ref}"
    if note in {e.note for e in [*entry.evidence, *entry.counter_evidence]}:
        return
    at = clock.parse_time(outcome.at) or now
    evidence = Evidence(at=at, session_id=session_id, note=note)
    fix = dict(entry.details.get("fix") or {"confidence": entry.confidence})
    counted = "confirmed" if outcome.worked else "contradicted"
    fix[counted] = int(fix.get(counted) or 0) + 1
    if outcome.worked:
        entry.evidence = [*entry.evidence, evidence][-MAX_EVIDENCE:]
    else:
        entry.counter_evidence = [*entry.counter_evidence, evidence][-MAX_EVIDENCE:]
    entry.details = {**entry.details, "fix": fix}
    base = float(fix.get("confidence") or entry.confidence)
    confirmed, contradicted = int(fix.get("confirmed") or 0), int(fix.get("contradicted") or 0)
    entry.confidence = pairing.fix_confidence(base, confirmed, contradicted)
    entry.updated_at = now


def _give_fix(
    entry: Memory, fix: Fix, session_id: str | None, project: str | None, now: datetime
) -> bool:
    """Offer a stored error a fix (redacted: this path does not go through ``build``).

    The same session's pairing made again (a resumed session ends, a checkpoint then the
    end) keeps what its recalls showed since: their counts carry over.
    """
    details = fix_details(fix, session_id, project)
    held = entry.details.get("fix")
    if isinstance(held, dict) and session_id and held.get("session_id") == session_id:
        for counted in ("confirmed", "contradicted"):
            details[counted] = int(held.get(counted) or 0)
    confidence = pairing.fix_confidence(
        fix.confidence, details["confirmed"], details["contradicted"]
    )
    resolution = redact(fix.describe(project))
    if not adopt_fix(entry, resolution, confidence, redact_value(details)):
        return False
    entry.updated_at = now
    return True


def refine_errors(digest: SessionDigest, home: Path | None = None) -> int:
    """Pair the session's stored errors again from its transcript; return how many changed.

    The transcript knows what the journal does not (the assistant's words, what each edit
    changed); a stored error takes its pairing when it is at least as sure as the one it
    has. Errors are found by the tool call that failed (its id is in their evidence), or by
    signature in the session's project.
    """
    project = project_of(digest.cwd) if digest.cwd else None
    found = [e for e in digest.errors if e.fix.resolved]
    store = Store(spec_for(MemoryType.ERROR), home)
    if not found or not any(_entry_for(store.load(), e, digest, project) for e in found):
        return 0
    now, changed = clock.now(), 0
    with store.transaction() as entries:
        for failed in found:
            entry = _entry_for(entries, failed, digest, project)
            if entry is not None and _give_fix(entry, failed.fix, digest.session_id, project, now):
                changed += 1
    return changed


def _entry_for(
    entries: list[Memory], failed: FailedCommand, digest: SessionDigest, project: str | None
) -> Memory | None:
    live = [e for e in entries if e.state in (State.ACTIVE, State.RESOLVED)]
    if failed.ref:
        mark = f"{failed.ref}@"
        for entry in live:
            if any((e.note or "").startswith(mark) for e in entry.evidence):
                return entry
    for entry in live:
        sessions = {e.session_id for e in entry.evidence}
        if (
            failed.signature
            and entry.signature == failed.signature
            and same_project(entry.project, project)
            and digest.session_id in sessions
        ):
            return entry
    return None


def apply_accesses(records: list[Record], home: Path | None = None) -> None:
    """Count the journaled accesses: one locked write per store touched."""
    counts: dict[str, int] = defaultdict(int)
    for record in records:
        for memory_id in record.get("ids") or []:
            counts[str(memory_id)] += 1
    last = max(str(r.get("at") or "") for r in records)
    record_access_counts(counts, clock.parse_time(last) or clock.now(), home)


ACCESS_LOCK_TIMEOUT = 2.0  # seconds; an access count is not worth a slow hook


def record_access_counts(counts: dict[str, int], at: datetime, home: Path | None = None) -> None:
    """Add ``counts[id]`` accesses to each memory, one locked write per store touched.

    A store whose lock is busy is skipped: a lost access count is better than a slow hook.
    """

    def bump(_spec: StoreSpec, entries: list[Memory], ids: list[str]) -> None:
        chosen = set(ids)
        for entry in entries:
            if entry.id in chosen:
                entry.access_count += counts[entry.id]
                entry.last_accessed = max(at, entry.last_accessed) if entry.last_accessed else at

    groups = group_by_store(counts, specs_for_id)
    change_each_store(groups, bump, home, timeout=ACCESS_LOCK_TIMEOUT, skip_busy=True)


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
