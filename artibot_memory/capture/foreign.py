r"""Other agents' transcripts, turned record by record into Claude Code's transcript rows.

:mod:`artibot_memory.capture.transcript` digests one shape of row, Claude Code's. A session
of Codex CLI, Gemini CLI or Cursor is read by translating each of its records into the rows
Claude Code would have written for the same moment (a prompt, the assistant's words, a
``tool_use`` named ``Bash``, ``Write``, ``Edit`` or ``Read``, its ``tool_result``), so one
parser tells prompts, commands, failures and their fixes, file changes, decisions and todos
whatever the agent. A translator holds no digest logic; it only knows its agent's format:

- **Codex CLI** rollouts (``$CODEX_HOME/sessions/…/rollout-*.jsonl``): ``{timestamp, type,
  payload}``. A prompt is a ``response_item`` message of role ``user`` whose text is typed,
  not injected (``<environment_context>``, ``# AGENTS.md instructions for …``, any
  ``<snake_case>`` block, or content the record's metadata says the harness made); the same
  prompt told again by an ``event_msg`` (``user_message``, ``item_completed``) counts once.
  A command is a ``function_call`` (``exec_command``'s ``cmd``, ``shell``'s argv) or a
  ``local_shell_call``; its output fails when it reports a non-zero exit: ``Process exited
  with code N`` (unified exec), ``Exit code: N`` (freeform shell) or
  ``{"metadata": {"exit_code": N}}`` (structured shell). A command still running
  (``Process running with session ID N``) is told when a ``write_stdin`` poll sees it end.
  A patch (``apply_patch``, as a custom tool, a function or inside a shell command) is a
  ``Write`` of each ``*** Add File:`` and an ``Edit`` of each ``*** Update File:``.
- **Gemini CLI** chats (``~/.gemini/tmp/<project>/chats/session-*.jsonl``): a metadata line,
  messages (a message written again under the same id replaces the earlier one in place),
  ``{"$set": …}`` (metadata, or with ``messages`` the whole list) and ``{"$rewindTo": id}``
  (that message and every later one are gone), as gemini-cli's ``loadConversationRecord``
  reads them. So a chat is translated at its end, each message at the line that first wrote
  it (its tool results at the line that last did). A shell result fails on ``Exit Code: N``
  or a ``Signal:``, or when the call's status is ``error``; ``cancelled`` is a refusal. The
  ``<hook_context>`` blocks the CLI prepends to a prompt are not what the user typed.
- **Cursor** agent transcripts (``~/.cursor/projects/<slug>/agent-transcripts/<id>.jsonl``,
  :func:`cursor_transcript_path`): ``{role, message: {content: [blocks]}}``, the prompt in
  ``<user_query>``, no times and no tool results: nothing fails, an edit is taken as done.

Only :func:`detect` runs on a Claude Code transcript: one look at its first record.

>>> detect({"type": "session_meta", "payload": {"id": "0193"}}), detect({"type": "user"})
('codex-cli', 'claude-code')
"""

from __future__ import annotations

import os
import re
from typing import Any

from artibot_memory.capture.agentrows import Translator
from artibot_memory.capture.foreign_codex import CodexTranslator
from artibot_memory.capture.foreign_cursor import CursorTranslator
from artibot_memory.capture.foreign_gemini import GeminiTranslator
from artibot_memory.core.agents import CLAUDE, CODEX, CURSOR, GEMINI

__all__ = [
    "Translator",
    "cursor_transcript_path",
    "detect",
    "translator_for",
]

_CODEX_TYPES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "compacted"}
)
_GEMINI_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})


def detect(record: dict[str, Any]) -> str:
    """Name the agent whose transcript ``record`` (a decoded line) comes from.

    >>> detect({"$set": {"lastUpdated": "2026-12-06T01:21:07.502Z"}})
    'gemini-cli'
    >>> detect({"role": "user", "message": {"content": []}})
    'cursor'
    """
    kind = record.get("type")
    kind = kind if isinstance(kind, str) else None if "type" not in record else ""
    if kind in _CODEX_TYPES and isinstance(record.get("payload"), dict):
        return CODEX
    if _is_gemini(record, kind):
        return GEMINI
    if kind is None and record.get("role") in ("user", "assistant") and "message" in record:
        return CURSOR
    return CLAUDE


def _is_gemini(record: dict[str, Any], kind: str | None) -> bool:
    if "$set" in record or "$rewindTo" in record:
        return True
    if kind is None:
        return isinstance(record.get("sessionId"), str) and "projectHash" in record
    return kind in _GEMINI_TYPES and isinstance(record.get("id"), str) and "message" not in record


def translator_for(
    record: dict[str, Any], *, cwd: str = "", session_id: str = "", name: str = ""
) -> Translator | None:
    """Return a translator for the transcript ``record`` opens; None for Claude Code's own.

    ``cwd`` and ``session_id`` stand in where the transcript carries none; ``name`` is the
    file's name without ``.jsonl`` (a Cursor transcript is named after its conversation).

    >>> translator_for({"type": "user", "message": {"content": "hi"}}) is None
    True
    >>> translator_for({"role": "user", "message": {}}, name="c-42").envelope
    {'sessionId': 'c-42'}
    """
    agent = detect(record)
    if agent == CURSOR:
        session_id = session_id or name
    make = {CODEX: CodexTranslator, GEMINI: GeminiTranslator, CURSOR: CursorTranslator}.get(agent)
    return None if make is None else make(cwd=cwd, session_id=session_id)


def cursor_transcript_path(
    workspace_root: str, conversation_id: str, home: str | None = None
) -> str:
    """Return where Cursor writes the agent transcript of a conversation in a workspace.

    >>> cursor_transcript_path("/home/dev/my app", "c1", home="/home/dev")
    '/home/dev/.cursor/projects/home-dev-my-app/agent-transcripts/c1.jsonl'
    """
    slug = re.sub(r"[^A-Za-z0-9]+", "-", workspace_root).strip("-")
    base = os.path.join(home or os.path.expanduser("~"), ".cursor", "projects")
    return os.path.join(base, slug, "agent-transcripts", f"{conversation_id}.jsonl")
