"""Claude Code hook events on the full path (pydantic and the stores available).

The per-tool-call events never come here: :mod:`artibot_memory.plugin.fast` journals them
with the standard library only. What comes here:

- **SessionStart**: ingest the journal, prune what expired, and return the relevant
  context of the session's project (its git top-level) as ``additionalContext``, or
  nothing when there is nothing to say.
- **UserPromptSubmit**, **SessionEnd** and **PreCompact**, directly or as journal records
  deferred by the fast path: count slash commands, save stated preferences, summarise the
  session (at its end, and as a checkpoint before each compaction).

Hooks return a dict (printed as one JSON object) or None; the launcher catches every
exception, logs it and exits 0.

Whatever comes here, a hook's payload or a deferred record, loses its ``<private>`` blocks
first, and is dropped when capture is off where it happened
(:mod:`artibot_memory.core.private`; the fast path has answered such a session already,
this is for records journaled before capture was turned off there).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from typing import Any

from artibot_memory.api import conflicts, memories
from artibot_memory.api.anchors import refresh as refresh_code
from artibot_memory.api.daily import note_session
from artibot_memory.api.ingest import IngestReport, Record, ingest_journal, refine_errors
from artibot_memory.api.prune import prune
from artibot_memory.api.relate import relate
from artibot_memory.api.semantic import refresh as refresh_semantic
from artibot_memory.capture import people
from artibot_memory.capture.hooklog import log_failure, write_log
from artibot_memory.capture.prompts import (
    MACHINE_PROMPTS,
    Detected,
    detect_preferences,
    slash_command,
)
from artibot_memory.capture.summary import render_summary
from artibot_memory.capture.transcript import SessionDigest, read_transcript
from artibot_memory.core import private
from artibot_memory.core.errors import ArtibotMemoryError, StoreError
from artibot_memory.core.project import project_of
from artibot_memory.core.redact import redact
from artibot_memory.recall import lookup
from artibot_memory.recall.context import refresh_start_cache, start_session
from artibot_memory.recall.prompt_recall import prompt_output
from artibot_memory.store.model import MemoryType, Scope, Source, State
from artibot_memory.text.tokens import normalize_text

Payload = dict[str, Any]
SESSION_KEY_PREFIX = memories.SESSION_KEY
SUMMARY_CHARS = 2_000
START_LOCK_TIMEOUT = 0.5


def _text(payload: Payload, name: str) -> str | None:
    value = payload.get(name)
    return value if isinstance(value, str) and value else None


def on_session_start(payload: Payload) -> Payload | None:
    """Ingest, prune, and hand the project's memories to the new session.

    A broken store is logged and left out: the others still reach the session. The
    ingest, which may need the broken store, keeps the journal for a later try.
    """
    try:
        ingest()
    except StoreError as exc:
        log_failure("SessionStart", exc)
    report = prune(lock_timeout=START_LOCK_TIMEOUT)
    for problem in report.unusable:
        write_log(f"SessionStart: prune: {problem}")
    maintain()
    return start_session(payload)


def ingest(*, then_prune: bool = False) -> IngestReport:
    """Drain the journal into the stores, handling deferred prompts and session ends.

    With ``then_prune``, prune after it, then :func:`maintain`: what a SessionStart served
    from the index leaves to its worker. Projects whose session ended (or was checkpointed
    before a compaction) or started get their SessionStart context rendered afresh once the
    stores are written (the access counts a start journaled change them), so the next
    session there starts on the fast path.
    """
    report = ingest_journal(on_deferred=process_deferred)
    if then_prune:
        pruned = prune(lock_timeout=START_LOCK_TIMEOUT)
        for problem in pruned.unusable:
            write_log(f"SessionStart: prune: {problem}")
        maintain()
        evolve_if_due()
    if report.records:
        refresh_memory_md()  # first: a start cache quotes MEMORY.md's lines
    touched = {project_of(_text(r, "cwd")) for r in report.deferred if r.get("event") in REFRESHED}
    for project in touched:
        follow_code(project)  # first: the start cache says which files changed since
        refresh_start_cache(project)
    if any(r.get("event") == "SessionEnd" for r in report.deferred):
        sync_if_asked()  # the SessionEnd worker, detached: never in a hook's own time
    return report


def sync_if_asked() -> None:
    """Sync with the remote when ``sync.auto`` is on (docs/SYNC.md); a failure is only logged."""
    from artibot_memory.api.sync import sync_if_asked as run  # noqa: PLC0415 - git, session ends

    run()


def follow_code(project: str | None) -> None:
    """Anchor the project's fresh memories to its files and check them all (docs/CODE.md).

    Runs git, so only here, in the workers; once per HEAD and working-tree state. A
    failure is only logged: the memories are kept, and nothing is flagged.
    """
    try:
        refresh_code(project)
    except Exception as exc:  # noqa: BLE001 - code state is a courtesy: never worth a session
        log_failure("code state", exc)


def refresh_memory_md() -> None:
    """Apply the user's edits of MEMORY.md and render it again; a failure is only logged.

    Called once the stores are written (after an ingest that read records, after a session
    summary): what is stored is kept whatever happens to the file.
    """
    try:
        refresh_semantic()
    except Exception as exc:  # noqa: BLE001 - the file must never cost a session its memories
        log_failure("MEMORY.md", exc)


def maintain() -> None:
    """Do a session start's maintenance, in its worker: conflicts over every pair, then links.

    The conflict scan finds pairs no save compared (memories kept before conflicts were
    checked, a hand edit); the links (``related``) follow the conflicts. Neither is in the
    SessionEnd worker's time: a save is checked as it is written, and links can wait for
    the next start. A failure of either is only logged.
    """
    conflicts.scan_logged()
    try:
        relate()
    except Exception as exc:  # noqa: BLE001 - links are derived: never worth a lost session
        log_failure("relate", exc)


def evolve_if_due() -> None:
    """Run the weekly evolve (docs/EVOLVE.md §7) in a session start's worker; log a failure."""
    try:
        from artibot_memory.api.evolve import run_if_due  # noqa: PLC0415 - weekly, the worker

        report = run_if_due()
    except Exception as exc:  # noqa: BLE001 - evolve is maintenance: never worth a session
        log_failure("SessionStart: evolve", exc)
        return
    for warning in report.warnings if report is not None else ():
        write_log(f"evolve: {warning}")


def process_deferred(record: Record) -> None:
    """Handle an event the fast path journaled for later (not where capture is off now)."""
    handler = DEFERRED.get(str(record.get("event")))
    if handler is not None and _may_keep(record):
        handler(record)


def _may_keep(payload: Payload) -> bool:
    """Take ``payload``'s private blocks out (in place); tell whether capture is on there."""
    private.scrub(payload)
    return private.capture_off(_text(payload, "cwd")) is None


CONFIDENCE = {"asked to remember": 0.9, "stated as a rule": 0.8, "a project fact": 0.8}


def on_user_prompt(payload: Payload) -> Payload | None:
    """Recall what the prompt asks about, then keep what it states (:func:`keep_prompt`).

    The recall is :func:`artibot_memory.recall.prompt_recall.prompt_output`, the one the
    fast path returns for a prompt with nothing to keep; made first, so a prompt is never
    handed back the fact it has just stated.
    """
    output = prompt_output(payload)
    keep_prompt(payload)
    return output


def keep_prompt(payload: Payload) -> None:
    """Count a slash command; keep what the prompt states: preferences and project facts.

    Detection reads the redacted prompt, so a sentence that held a secret is left out
    whole (:mod:`artibot_memory.capture.prompts`). A preference scoped to the project, and
    a fact of the project, are stored with the prompt's project (the cwd's git top-level)
    and left out when there is none; prompts Claude Code wrote itself are not the user's.
    """
    prompt = _text(payload, "prompt") or ""
    project = project_of(_text(payload, "cwd"))
    source = _source(payload, "UserPromptSubmit")
    drafts = []
    command = slash_command(prompt)
    if command:
        drafts.append(memories.Draft(MemoryType.COMMAND, command, project=project, source=source))
    if payload.get("source") not in MACHINE_PROMPTS:
        observation = _text(payload, "prompt_id")
        for found in detect_preferences(redact(prompt)):
            if project is not None or not _is_local(found):
                drafts.append(_remembered(found, project, source, observation))
    if drafts:
        memories.save_many(drafts)


def _is_local(found: Detected) -> bool:
    """Tell whether ``found`` is kept only with a project (left out where there is none).

    A fact about a person is not: said outside any project, it is kept for all of them.
    """
    if found.scope == Scope.PERSON.value:
        return False
    return found.kind == MemoryType.CONTEXT.value or found.scope == Scope.PROJECT.value


def _remembered(
    found: Detected, project: str | None, source: Source, observation: str | None
) -> memories.Draft:
    """Return the draft of a detected preference or fact: its key, scope, project, state, why.

    A fact about a person keeps its scope and is the project's it was said in, unless it
    says it holds everywhere ("across all our repos", "모든 프로젝트에서":
    :func:`artibot_memory.capture.people.everywhere`).
    """
    local = _is_local(found)
    person = found.scope == Scope.PERSON.value
    here = local or (person and not people.everywhere(found.text))
    return memories.Draft(
        MemoryType(found.kind),
        found.text,
        key=found.key,
        tags=found.tags,
        project=project if here else None,
        scope=Scope.PROJECT if local else Scope(found.scope),
        state=State(found.strength),
        confidence=CONFIDENCE.get(found.why, 0.5),
        why=found.why,
        source=source,
        observation=observation,
    )


def _source(payload: Payload, event: str) -> Source:
    """Where a prompt's memories come from: the hook, the session, the transcript's line."""
    path = _text(payload, "transcript_path")
    line = prompt_line(path, _text(payload, "prompt_id")) if path else None
    return Source(
        channel=f"hook:{event}",
        session_id=_text(payload, "session_id"),
        path=path,
        line=line,
        agent=_text(payload, "agent"),
    )


SCAN_CHUNK = 1 << 20


def prompt_line(path: str, prompt_id: str | None) -> int | None:
    """Return the transcript line (from 1) of the prompt ``prompt_id``, or the next line.

    The first row naming the prompt's id is its line; a prompt not written yet (Claude Code
    writes the transcript asynchronously) will be the line after the last. Read in binary
    chunks, counting newlines: a 3 MB transcript costs a few milliseconds. None when the
    file cannot be read.
    """
    needle = f'"promptId":"{prompt_id}"'.encode() if prompt_id else None
    newlines, tail = 0, b""
    try:
        with open(path, "rb") as transcript:
            while chunk := transcript.read(SCAN_CHUNK):
                window = tail + chunk
                found = window.find(needle) if needle else -1
                if found >= 0:
                    return newlines + window.count(b"\n", 0, found) - tail.count(b"\n") + 1
                newlines += chunk.count(b"\n")
                tail = window[-len(needle) :] if needle else b""
    except OSError:
        return None
    return newlines + 1


def on_session_end(payload: Payload) -> None:
    """Store (or, for a resumed session, update) the session's summary as a context."""
    save_summary(payload, "SessionEnd")


def on_pre_compact(payload: Payload) -> None:
    """Checkpoint the session so far into its summary, before Claude Code compacts it.

    It is the memory SessionEnd completes later, not a second one: a session killed after
    a compaction never sends SessionEnd, and still leaves its summary.
    """
    save_summary(payload, "PreCompact")


def save_summary(payload: Payload, event: str) -> None:
    """Summarise the transcript into the session's one context memory, keyed by its id.

    Every summary is made from the whole transcript, so a checkpoint, the end and the end
    of a resumed session replace one another instead of adding up; the same text again
    (a resumed session that did nothing new) is one sighting, named by the text, and
    counted once. One made from fewer transcript lines than the stored one is dropped:
    when a session ends right after a compaction, the checkpoint's worker may finish after
    the end's, and must not put the older summary back.
    """
    digest = read_transcript(
        _text(payload, "transcript_path"),
        cwd=_text(payload, "cwd"),
        session_id=_text(payload, "session_id"),
    )
    if not digest.readable or digest.is_empty:
        return
    refine_errors(digest)  # the transcript says what the journal cannot: why, what changed
    session_id = digest.session_id or _text(payload, "session_id") or "unknown"
    key = SESSION_KEY_PREFIX + session_id
    if _summarised_lines(key) > digest.lines:
        return
    text = render_summary(digest, max_chars=SUMMARY_CHARS)
    project = project_of(digest.cwd or _text(payload, "cwd"))
    memories.save(
        MemoryType.CONTEXT,
        text,
        key=key,
        project=project,
        tags=["session-summary"] + ([f"branch:{digest.git_branch}"] if digest.git_branch else []),
        why="session summary",
        source=Source(
            channel=f"hook:{event}",
            session_id=session_id,
            path=digest.path,
            line=digest.last_line or None,
            agent=_text(payload, "agent") or digest.agent,
        ),
        observation=_sighting(text),
        details={
            "kind": "session-summary",
            "duration_seconds": round(digest.duration_seconds),
            "transcript_lines": digest.lines,
        },
    )
    _note_day(digest, session_id, project, event)
    if event == "SessionEnd":
        _auto_promote(project)
        promote_beliefs(project)


def _auto_promote(project: str | None) -> None:
    """Promote what qualifies when ``promotion.auto_promote`` is on; a failure is only logged."""
    try:
        from artibot_memory.api.proposals import auto_promote  # noqa: PLC0415 - session ends only

        auto_promote(project=project)
    except Exception as exc:  # noqa: BLE001 - promotion must never cost a session its summary
        log_failure("SessionEnd: auto_promote", exc)


def promote_beliefs(project: str | None) -> None:
    """Run evolve's promote phase (Top Beliefs), as seed 002 does after every capture."""
    try:
        from artibot_memory.api.evolve import promote_quietly  # noqa: PLC0415 - session ends

        promote_quietly(project=project)
    except Exception as exc:  # noqa: BLE001 - Top Beliefs must never cost a session its summary
        log_failure("SessionEnd: promote", exc)


def _note_day(digest: SessionDigest, session_id: str, project: str | None, event: str) -> None:
    """Add what is new of the session to the daily notes; a failure there only is logged."""
    try:
        note_session(digest, session_id, project)
    except (ArtibotMemoryError, OSError) as exc:
        log_failure(f"{event}: daily note", exc)


def _sighting(text: str) -> str:
    """Name a summary by its text, as the store compares texts: the same one counts once."""
    digest = hashlib.blake2b(normalize_text(text).encode(), digest_size=8).hexdigest()
    return f"summary:{digest}"


def _summarised_lines(key: str) -> int:
    """How many transcript lines the stored summary under ``key`` was made from (0: none).

    Read through the index (one document, no validation of the whole context store); the
    stores themselves where the index cannot serve.
    """
    try:
        docs = lookup.naming(json.dumps(key), types=[MemoryType.CONTEXT])
    except (sqlite3.Error, StoreError):
        docs = [m.model_dump(mode="json") for m in memories.list_memories(MemoryType.CONTEXT)]
    for doc in docs:
        if doc.get("key") == key:
            lines = (doc.get("details") or {}).get("transcript_lines")
            return lines if isinstance(lines, int) else 0
    return 0


REFRESHED = frozenset({"SessionStart", "SessionEnd", "PreCompact"})  # their project's cache
SUMMARIES: dict[str, Callable[[Payload], None]] = {
    "SessionEnd": on_session_end,
    "PreCompact": on_pre_compact,
}
# A deferred prompt is only kept: its session has long moved on, nothing is recalled.
DEFERRED: dict[str, Callable[[Payload], None]] = {
    "UserPromptSubmit": keep_prompt,
    **SUMMARIES,
}
HANDLERS: dict[str, Callable[[Payload], Payload | None]] = {
    "SessionStart": on_session_start,
    **DEFERRED,
    "UserPromptSubmit": on_user_prompt,
}


def handle(event: str, payload: Payload) -> Payload | None:
    """Run the handler of ``event`` (unknown events do nothing) and return its output.

    Nothing runs where capture is off (:func:`_may_keep`).

    A session summary handled here, not inside an ingest, relates the memories and renders
    MEMORY.md after it (an ingest does both once for all it stored).
    """
    payload = payload if isinstance(payload, dict) else {}
    handler = HANDLERS.get(event) if _may_keep(payload) else None
    if handler is None:
        return None
    output = handler(payload)
    if event in SUMMARIES:
        refresh_memory_md()
    return output
