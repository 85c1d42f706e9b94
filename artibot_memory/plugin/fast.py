"""The per-tool-call hooks, and the journal records of every hook (standard library only).

PostToolUse and PostToolUseFailure run after every Bash call and file edit, so they do
the least that keeps the information: append one redacted line to the journal
(:mod:`artibot_memory.capture.journal`) and return. The full path ingests the journal later.
A failure whose error signature is already known is answered at once: the recorded fix
(or that the error was seen and never resolved) goes back to Claude as
``additionalContext``, framed as recorded data (:mod:`artibot_memory.recall.known_errors`).

Journal records (every one also has ``"v": 1`` and ``"at"``; ``agent`` is the agent whose
hook wrote it, :data:`artibot_memory.plugin.agents.AGENTS`, null in records older than it):

- ``PostToolUse``: ``event, session_id, cwd, agent, tool_name, tool_use_id, duration_ms``, plus
  for Bash ``command, description, output`` (stdout and stderr, head and tail kept),
  ``interrupted``; for Edit/Write/MultiEdit/NotebookEdit ``file_path`` and ``change``
  (what changed in a few words, :func:`~artibot_memory.text.change.change_of`).
- ``PostToolUseFailure``: the same first fields, plus ``command, description, error``
  (redacted), ``exit_code`` (from the ``Exit code N`` line,
  :func:`~artibot_memory.text.shell.exit_code`; null when absent), ``is_interrupt``,
  ``signature`` (:func:`~artibot_memory.text.signature.error_signature` of the redacted error).
- ``Recalled``, after a failure answered with a stored fix: ``event, session_id, cwd,
  tool_name, tool_use_id, command, signature`` of the failure and ``ids`` (the fix's
  memory), so the ingest can tell whether the fix then worked.
- a full event journaled because the full path could not run, and every SessionEnd and
  PreCompact, for the worker (:func:`defer`): ``event, session_id, cwd, agent``, the fields of
  ``DEFERRED_FIELDS`` plus ``"deferred": true``, so the ingest can do the full work later.

Before anything, every event's payload loses its ``<private>`` blocks
(:func:`artibot_memory.core.private.scrub`, in place, so the full path gets it so too), and
a session where capture is off (:func:`artibot_memory.core.private.capture_off`) is handled
here whole, recording nothing (:func:`unrecorded`).

>>> handle("Notification", {}) is None
True
"""

from __future__ import annotations

import os

from artibot_memory.capture import journal
from artibot_memory.core import private

# Imported where used: a successful tool call needs neither the signatures nor the
# framing. Paths are str and os.path, and typing is for checkers only: importing
# pathlib or typing costs milliseconds, paid on every tool call.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FAST_EVENTS = frozenset({"PostToolUse", "PostToolUseFailure"})
EDIT_TOOLS = {
    "Edit": "file_path",
    "Write": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
DEFERRED_FIELDS = {
    "SessionStart": ("source",),
    "UserPromptSubmit": ("prompt", "prompt_id"),
    "SessionEnd": ("transcript_path", "reason"),
    "PreCompact": ("transcript_path", "trigger"),
}
# Handed to the detached worker: the session summary is made from the transcript there.
SUMMARY_EVENTS = frozenset({"SessionEnd", "PreCompact"})


def route(event: str, payload: dict[str, Any]) -> tuple[bool, dict[str, Any] | None]:
    """Handle what the standard library can; ``(False, None)`` sends it to the full path.

    ``(True, output)`` means handled here (output may be None: print nothing); the full
    path is the one with pydantic and the stores.

    - PostToolUse / PostToolUseFailure: always here (:func:`handle`).
    - SessionStart: served from the context cache when it is still exact
      (:mod:`artibot_memory.recall.startcache`); otherwise the full path renders it.
    - UserPromptSubmit: most prompts hold nothing to keep and end here, with what they
      clearly ask about recalled (:mod:`artibot_memory.recall.prompt_recall`); a slash
      command is journaled; only a stated preference goes on to be saved (and the recall
      made) by the full path.
    - SessionEnd: journaled, and a detached worker stores the session (Claude Code
      cancels SessionEnd hooks after 1.5 s; the worker outlives it).
    - PreCompact: the same, a checkpoint of the session so far (the compaction waits
      for this hook; a session killed after it never sends SessionEnd).

    The payload's ``<private>`` blocks are taken out first, in place; where capture is off,
    every event ends here (:func:`unrecorded`).
    """
    private.scrub(payload)
    off = private.capture_off(_text(payload, "cwd"))
    if off is not None:
        return True, unrecorded(event, payload, off)
    if event in FAST_EVENTS:
        return True, handle(event, payload)
    if event == "SessionStart":
        from artibot_memory.recall.startcache import serve_cached_start  # noqa: PLC0415

        return serve_cached_start(payload)
    if event == "UserPromptSubmit":
        return _on_prompt(payload)
    if event in SUMMARY_EVENTS:
        defer(event, payload)
        start_worker()
        return True, None
    return False, None


def _on_prompt(payload: dict[str, Any]) -> tuple[bool, dict[str, Any] | None]:
    from artibot_memory.capture.prompts import detect_preferences, slash_command  # noqa: PLC0415

    prompt = _text(payload, "prompt") or ""
    if detect_preferences(prompt):
        return False, None  # the full path keeps it, then recalls as below
    if slash_command(prompt):
        defer("UserPromptSubmit", payload)
    from artibot_memory.recall.prompt_recall import prompt_output  # noqa: PLC0415 - prompts only

    return True, prompt_output(payload)


def unrecorded(event: str, payload: dict[str, Any], off: private.Off) -> dict[str, Any] | None:
    """Answer an event of a session where capture is off: what is known, and nothing kept.

    - SessionStart: the project's context as any session gets it (global memories, and the
      project's own if any were kept before or saved by hand), read only: no start cache
      written, no access counted, no shown-file;
    - PostToolUseFailure: a known error's recorded fix, read only;
    - SessionEnd: one line in ``logs/hooks.log`` that counts the session (why capture is
      off, in a word; no path, no id);
    - the rest, nothing: no journal line; no per-prompt recall, which records what it
      showed to never repeat it.
    """
    if event == "SessionStart":
        return _start_read_only(payload)
    if event == "PostToolUseFailure":
        return _on_failure(payload, keep=False)
    if event == "SessionEnd":
        from artibot_memory.capture.hooklog import note_unrecorded  # noqa: PLC0415 - rare

        note_unrecorded(off.kind)
    return None


def _start_read_only(payload: dict[str, Any]) -> dict[str, Any] | None:
    """Return the payload's project's SessionStart context, writing nothing to serve it.

    From the start cache when it is still exact (it was written by a session that could
    capture), else rendered from the index; a home with no store has nothing to say.
    """
    from artibot_memory.core import clock  # noqa: PLC0415 - session starts only
    from artibot_memory.core.paths import home_dir  # noqa: PLC0415
    from artibot_memory.core.project import project_of  # noqa: PLC0415
    from artibot_memory.recall import startcache  # noqa: PLC0415

    home = home_dir(create=False)
    if not any(startcache.fingerprints(home).values()):
        return None
    project = project_of(_text(payload, "cwd"))
    cached = startcache.read_cache(home, project, clock.micros_now())
    if cached is not None:
        return startcache.session_start_output(cached[0])
    try:
        from artibot_memory.recall.context import render_context  # noqa: PLC0415 - as above

        text = render_context(project).text
    except Exception as exc:  # noqa: BLE001 - recall is a courtesy here: never a failed start
        from artibot_memory.capture.hooklog import log_failure  # noqa: PLC0415 - failures only

        log_failure("SessionStart: context, capture off", exc)
        return None
    return startcache.session_start_output(text)


def entry_script() -> str:
    """Return ``bin/artibot-memory`` of the plugin this package belongs to.

    Found with os.path from this file: SessionEnd imports nothing else to find it.
    """
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(os.path.dirname(package), "bin", "artibot-memory")


def start_worker(*verb: str) -> None:
    """Start ``artibot-memory ingest`` (or ``verb``) detached: it stores the journal, exits."""
    import subprocess  # noqa: PLC0415 - only SessionEnd and PreCompact start a process
    import sys  # noqa: PLC0415

    subprocess.Popen(  # noqa: S603 - our own interpreter and script, no shell
        [sys.executable, entry_script(), *(verb or ("ingest",))],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def handle(event: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """Journal one tool call; return the hook output (a known fix) or None."""
    if event == "PostToolUse":
        _on_success(payload)
        return None
    if event == "PostToolUseFailure":
        return _on_failure(payload)
    return None


def defer(event: str, payload: dict[str, Any]) -> None:
    """Journal what a full event needs, for the ingest to process when it can.

    SessionEnd and PreCompact keep ``transcript_path`` (the summary is made later from
    the transcript), UserPromptSubmit keeps the prompt; events not listed here are not
    journaled.
    """
    fields = DEFERRED_FIELDS.get(event)
    if fields is None:
        return
    record = {
        "event": event,
        "session_id": _text(payload, "session_id"),
        "cwd": _text(payload, "cwd"),
        "agent": _text(payload, "agent"),
    }
    record.update({name: payload.get(name) for name in fields})
    journal.append({**record, "deferred": True})


def _base(event: str, payload: dict[str, Any]) -> dict[str, Any]:
    duration = payload.get("duration_ms")
    return {
        "event": event,
        "session_id": _text(payload, "session_id"),
        "cwd": _text(payload, "cwd"),
        "agent": _text(payload, "agent"),
        "tool_name": _text(payload, "tool_name"),
        "tool_use_id": _text(payload, "tool_use_id"),
        "duration_ms": duration if isinstance(duration, (int, float)) else None,
    }


def _on_success(payload: dict[str, Any]) -> None:
    tool = payload.get("tool_name")
    tool_input = _mapping(payload.get("tool_input"))
    record = _base("PostToolUse", payload)
    if tool == "Bash":
        response = _mapping(payload.get("tool_response"))
        output = "\n".join(t for t in (_text(response, "stdout"), _text(response, "stderr")) if t)
        record.update(_command_fields(tool_input))
        record.update(output=output, interrupted=bool(response.get("interrupted")))
    elif tool in EDIT_TOOLS:
        from artibot_memory.text.change import change_of  # noqa: PLC0415 - edits only

        record["file_path"] = _text(tool_input, EDIT_TOOLS[str(tool)])
        record["change"] = change_of(str(tool), tool_input, payload.get("tool_response"))
    else:
        return
    journal.append(record)


def _on_failure(payload: dict[str, Any], *, keep: bool = True) -> dict[str, Any] | None:
    """Journal a failure (unless not ``keep``); return its known fix, if one was recorded."""
    # Imported here: a successful tool call, the common case, needs neither.
    from artibot_memory.text.signature import error_signature, exit_code  # noqa: PLC0415

    raw_error = _text(payload, "error") or ""
    # Exactly the text the journal keeps, so the ingest gets this signature from it again.
    error = journal.kept_text(raw_error, "error")
    code, _ = exit_code(raw_error)
    record = _base("PostToolUseFailure", payload)
    record.update(_command_fields(_mapping(payload.get("tool_input"))))
    record.update(
        error=error,
        exit_code=code,
        is_interrupt=bool(payload.get("is_interrupt")),
        signature=error_signature(error),
    )
    if keep:
        journal.append(record)
    from artibot_memory.recall import known_errors  # noqa: PLC0415 - failures only

    output, offered = known_errors.recall(record["signature"], record["cwd"])
    if offered is not None and keep:  # so the ingest can see whether the fix then worked
        journal.append(_recalled(record, offered, known_errors.RECALL_EVENT))
    return output


def _recalled(failure: dict[str, Any], memory_id: str, event: str) -> dict[str, Any]:
    keep = ("session_id", "cwd", "agent", "tool_name", "tool_use_id", "command", "signature")
    return {"event": event, **{name: failure[name] for name in keep}, "ids": [memory_id]}


def _command_fields(tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "command": _text(tool_input, "command"),
        "description": _text(tool_input, "description"),
    }


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(mapping: dict[str, Any], key: str) -> str | None:
    value = mapping.get(key)
    return value if isinstance(value, str) else None
