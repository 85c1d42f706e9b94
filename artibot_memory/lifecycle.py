"""Claude Code hook events on the full path (pydantic and the stores available).

The per-tool-call events never come here: :mod:`artibot_memory.plugin.fast` journals them
with the standard library only. What comes here:

- **SessionStart**: ingest the journal, prune what expired, and return the relevant
  context of the session's project (its git top-level) as ``additionalContext``, or
  nothing when there is nothing to say.
- **UserPromptSubmit** and **SessionEnd**, directly or as journal records deferred by the
  fast path: count slash commands, save stated preferences, summarise the session.

Hooks return a dict (printed as one JSON object) or None; the launcher catches every
exception, logs it and exits 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from artibot_memory.api import memories
from artibot_memory.api.ingest import IngestReport, Record, ingest_journal
from artibot_memory.api.prune import prune
from artibot_memory.capture.hooklog import log_failure, write_log
from artibot_memory.capture.prompts import detect_preferences, slash_command
from artibot_memory.capture.summary import render_summary
from artibot_memory.capture.transcript import read_transcript
from artibot_memory.core import clock
from artibot_memory.core.errors import StoreError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import project_of
from artibot_memory.recall.context import RenderedContext, note_shown, render_context
from artibot_memory.recall.startcache import session_start_output, write_cache
from artibot_memory.store.model import MemoryType, Source, State

Payload = dict[str, Any]
SESSION_KEY_PREFIX = "session:"
SUMMARY_CHARS = 2_000
CONTEXT_BUDGET = 8_000
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
    rendered = refresh_start_cache(project_of(_text(payload, "cwd")))
    note_shown(rendered.shown)
    return session_start_output(rendered.text)


def refresh_start_cache(project: str | None) -> RenderedContext:
    """Render a project's context and keep it for the next SessionStart's fast path."""
    rendered = render_context(project, budget=CONTEXT_BUDGET, on_unusable=_log_unusable)
    ids = [memory.id for memory in rendered.shown]
    write_cache(memory_home(), project, rendered.text, ids, rendered.valid_until, clock.now())
    return rendered


def _log_unusable(exc: StoreError) -> None:
    write_log(f"SessionStart: context: {exc}")


def ingest() -> IngestReport:
    """Drain the journal into the stores, handling deferred prompts and session ends.

    Projects whose session ended get their SessionStart context rendered afresh, so the
    next session there starts on the fast path.
    """
    report = ingest_journal(on_deferred=process_deferred)
    ended = {project_of(_text(r, "cwd")) for r in report.deferred if r.get("event") == "SessionEnd"}
    for project in ended:
        refresh_start_cache(project)
    return report


def process_deferred(record: Record) -> None:
    """Handle an event the fast path journaled for later."""
    handler = DEFERRED.get(str(record.get("event")))
    if handler is not None:
        handler(record)


def on_user_prompt(payload: Payload) -> None:
    """Count a slash command; save stated preferences (pending) and explicit ones (active)."""
    prompt = _text(payload, "prompt") or ""
    session_id = _text(payload, "session_id")
    drafts = []
    command = slash_command(prompt)
    if command:
        project = project_of(_text(payload, "cwd"))
        drafts.append(
            memories.Draft(
                MemoryType.COMMAND,
                command,
                project=project,
                source=_source(payload, "UserPromptSubmit"),
            )
        )
    for found in detect_preferences(prompt):
        drafts.append(
            memories.Draft(
                MemoryType.PREFERENCE,
                found.text,
                state=State.ACTIVE if found.explicit else State.PENDING,
                confidence=0.9 if found.explicit else 0.5,
                why="asked to remember" if found.explicit else "stated in a prompt",
                source=Source(channel="hook:UserPromptSubmit", session_id=session_id),
            )
        )
    if drafts:
        memories.save_many(drafts)


def _source(payload: Payload, event: str) -> Source:
    return Source(channel=f"hook:{event}", session_id=_text(payload, "session_id"))


def on_session_end(payload: Payload) -> None:
    """Store (or, for a resumed session, update) the session's summary as a context."""
    digest = read_transcript(_text(payload, "transcript_path"))
    if not digest.readable or digest.is_empty:
        return
    session_id = digest.session_id or _text(payload, "session_id") or "unknown"
    project = project_of(digest.cwd or _text(payload, "cwd"))
    memories.save(
        MemoryType.CONTEXT,
        render_summary(digest, max_chars=SUMMARY_CHARS),
        key=SESSION_KEY_PREFIX + session_id,
        project=project,
        tags=["session-summary"] + ([f"branch:{digest.git_branch}"] if digest.git_branch else []),
        why="session summary",
        source=Source(channel="hook:SessionEnd", session_id=session_id, path=digest.path),
        details={"kind": "session-summary", "duration_seconds": round(digest.duration_seconds)},
    )


DEFERRED: dict[str, Callable[[Payload], None]] = {
    "UserPromptSubmit": on_user_prompt,
    "SessionEnd": on_session_end,
}
HANDLERS: dict[str, Callable[[Payload], Payload | None]] = {
    "SessionStart": on_session_start,
    **DEFERRED,
}


def handle(event: str, payload: Payload) -> Payload | None:
    """Run the handler of ``event`` (unknown events do nothing) and return its output."""
    handler = HANDLERS.get(event)
    return handler(payload if isinstance(payload, dict) else {}) if handler else None
