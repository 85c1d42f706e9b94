"""One adapter per agent: its hook payload in, the lifecycle's events out, its field back.

The lifecycle (:mod:`artibot_memory.plugin.fast`, :mod:`artibot_memory.lifecycle`) knows
Claude Code's six events and payloads. Codex CLI, Gemini CLI and Cursor send their own
(``../shared/agents/SPEC.md``, ``docs/AGENTS.md``); :func:`normalize` turns one into the
event and payload the lifecycle already handles, :func:`answer` turns what it returns into
what that agent reads. Standard library only, no import beyond ``re`` (it runs on every
tool call):

- events: Gemini's ``BeforeAgent``/``AfterTool``/``PreCompress``, Cursor's camelCase names,
  Codex's (Claude Code's own) map to ours;
- a failure where the agent has no failure event: Codex's ``PostToolUse`` of a command
  whose output says it exited non-zero, Gemini's ``AfterTool`` with ``tool_response.error``
  or a non-zero ``Exit Code:``; it becomes ``PostToolUseFailure`` with the ``error`` text
  Claude Code would send (``Exit code N`` first), so signatures and fixes are the same
  whichever agent saw the error;
- tools: ``run_shell_command``, ``Shell``, ``exec_command`` are ``Bash``; ``write_file`` is
  ``Write``; ``replace``, ``StrReplace``, ``apply_patch`` are ``Edit``; their inputs take
  Claude Code's names (``file_path``, ``content``);
- the session and the project: Cursor's ``conversation_id`` and ``workspace_roots[0]``;
  Cursor's transcript path, which its CLI leaves null, is computed;
- every payload says which agent it came from (``agent``): the journal and every memory
  keep it (``source.agent``).

>>> normalize("gemini-cli", "BeforeAgent", {"prompt": "<hook_context>x</hook_context> hi"})
('UserPromptSubmit', {'prompt': 'hi', 'agent': 'gemini-cli'})
>>> answer("cursor", "sessionStart", {"hookSpecificOutput": {"additionalContext": "m"}})
{'additional_context': 'm'}
"""

from __future__ import annotations

import os
import re

from artibot_memory.core.agents import AGENTS, CLAUDE, CODEX, CURSOR, GEMINI

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The agent's event -> ours. Claude Code's and Codex's names are ours.
_OURS = ("SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure")
EVENTS: dict[str, dict[str, str]] = {
    CLAUDE: {name: name for name in (*_OURS, "PreCompact", "SessionEnd")},
    CODEX: {name: name for name in (*_OURS, "PreCompact", "SessionEnd")},
    GEMINI: {
        "SessionStart": "SessionStart",
        "BeforeAgent": "UserPromptSubmit",
        "AfterTool": "PostToolUse",
        "PreCompress": "PreCompact",
        "SessionEnd": "SessionEnd",
    },
    CURSOR: {
        "sessionStart": "SessionStart",
        "beforeSubmitPrompt": "UserPromptSubmit",
        "postToolUse": "PostToolUse",
        "postToolUseFailure": "PostToolUseFailure",
        "preCompact": "PreCompact",
        "sessionEnd": "SessionEnd",
    },
}
TOOLS = {
    "run_shell_command": "Bash",
    "Shell": "Bash",
    "shell": "Bash",
    "exec_command": "Bash",
    "local_shell": "Bash",
    "write_file": "Write",
    "replace": "Edit",
    "StrReplace": "Edit",
    "apply_patch": "Edit",
}
_INPUT_NAMES = {"path": "file_path", "contents": "content", "absolute_path": "file_path"}
# What a shell tool's output says of a non-zero exit, per agent (the first number found).
_EXIT = re.compile(r"^Exit Code: (-?\d+)$", re.MULTILINE)  # Gemini's shell result
_CURSOR_EXIT = re.compile(r"exit code (-?\d+)", re.IGNORECASE)
_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update) File: (.+)$", re.MULTILINE)
ROLLOUT_TAIL = 256 * 1024  # bytes of a Codex rollout read for a command's exit code
_HOOK_CONTEXT = re.compile(r"\A\s*<hook_context>.*?</hook_context>\s*", re.DOTALL)


def agent_of(name: str | None) -> str:
    """Return the agent ``name`` names (``codex``, ``gemini`` accepted), Claude Code else.

    >>> agent_of("codex"), agent_of("gemini-cli"), agent_of(None), agent_of("emacs")
    ('codex-cli', 'gemini-cli', 'claude-code', 'claude-code')
    """
    if not name:
        return CLAUDE
    if name in AGENTS:
        return name
    return {"codex": CODEX, "gemini": GEMINI, "claude": CLAUDE}.get(name, CLAUDE)


def normalize(agent: str, event: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Return our event and a Claude Code-shaped payload for ``agent``'s ``event``.

    An event we do not handle comes back as ``""`` (the hook then does nothing). The
    payload is changed in place and returned, with ``agent`` set.
    """
    ours = EVENTS.get(agent, EVENTS[CLAUDE]).get(event, "")
    if payload.get("agent") not in AGENTS:  # set already when relayed to the plugin venv
        payload["agent"] = agent
    if agent == CURSOR:
        _cursor_envelope(payload, ours)
    if ours == "UserPromptSubmit":
        prompt = payload.get("prompt")
        if isinstance(prompt, str) and prompt.lstrip().startswith("<hook_context>"):
            payload["prompt"] = _HOOK_CONTEXT.sub("", prompt, count=1)
    if ours in ("PostToolUse", "PostToolUseFailure") and agent != CLAUDE:
        ours = _tool_call(agent, ours, payload)
    return ours, payload


def answer(agent: str, event: str, output: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return ``output`` (Claude Code's shape) as ``agent`` reads it after its ``event``.

    Codex and Gemini read ``hookSpecificOutput.additionalContext`` named by their own
    event; Cursor reads ``additional_context`` (a ``systemMessage`` is left out there: it
    has no field a person sees).
    """
    if output is None or agent == CLAUDE:
        return output
    specific = output.get("hookSpecificOutput")
    context = specific.get("additionalContext") if isinstance(specific, dict) else None
    if agent == CURSOR:
        return {"additional_context": context} if context else None
    converted = {key: value for key, value in output.items() if key != "hookSpecificOutput"}
    if context:
        converted["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": context}
    return converted or None


def _tool_call(agent: str, ours: str, payload: dict[str, Any]) -> str:
    """Map a tool call's name and input to Claude Code's; return its event.

    ``PostToolUse`` becomes ``PostToolUseFailure`` for a shell command that failed; an
    edit that failed, or a tool we keep nothing of, becomes ``""`` (nothing to do).
    """
    tool = payload.get("tool_name")
    given = payload.get("tool_input")
    given = dict(given) if isinstance(given, dict) else {}
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    if tool == "apply_patch":  # Codex's edits: one patch, its first file kept
        tool, given = _patched(str(given.get("command") or given.get("input") or ""))
    name = TOOLS.get(tool, tool) if isinstance(tool, str) else tool
    payload["tool_name"] = name
    payload["tool_input"] = _claude_input(given, cwd)
    response = payload.get("tool_response", payload.get("tool_output"))
    if name != "Bash":
        return "" if name is None or _error_of(response) else ours
    if ours == "PostToolUseFailure":  # Cursor's: its error message, and any output
        payload["error"] = _cursor_error(payload, response)
        return ours
    if agent == CODEX:  # the output alone; the exit status is in the rollout
        text = response if isinstance(response, str) else ""
        code = codex_exit_code(payload.get("transcript_path"), payload.get("tool_use_id"))
        error = None
    else:
        text, code, error = _response_parts(response)
    if error is None and not code:
        payload["tool_response"] = {"stdout": text, "stderr": "", "interrupted": False}
        return ours
    body = "\n".join(part for part in (error, text) if part)
    payload["error"] = f"Exit code {code or 1}" + (f"\n{body}" if body else "")
    return "PostToolUseFailure"


def _cursor_error(payload: dict[str, Any], response: object) -> str:
    r"""Return a Cursor failure as Claude Code's ``error``: ``Exit code N``, then what it said.

    >>> _cursor_error({"error_message": "Command failed with exit code 2"}, None)
    'Exit code 2\nCommand failed with exit code 2'
    """
    said = payload.get("error_message") or payload.get("error")
    said = str(said) if said else ""
    found = _CURSOR_EXIT.search(said)
    output = _response_parts(response)[0] if response else ""
    head = f"Exit code {found.group(1) if found else 1}"
    return "\n".join(part for part in (head, said, output) if part)


def _claude_input(given: dict[str, Any], cwd: str | None) -> dict[str, Any]:
    """Rename an input's fields to Claude Code's (``path`` -> ``file_path`` ...); a copy.

    A relative file path is made absolute from the session's folder, as Claude Code's are.
    """
    renamed = {_INPUT_NAMES.get(key, key): value for key, value in given.items()}
    command = renamed.get("command", renamed.get("cmd"))
    if isinstance(command, list):  # Codex's argv form: ["bash", "-lc", "pytest -q"]
        shell = command[:2] in (["bash", "-lc"], ["/bin/bash", "-lc"], ["sh", "-c"])
        command = str(command[-1]) if shell else " ".join(str(part) for part in command)
    if isinstance(command, str):
        renamed["command"] = command
    path = renamed.get("file_path")
    if isinstance(path, str) and path and cwd and not os.path.isabs(path):
        renamed["file_path"] = os.path.join(cwd, path)
    return renamed


def _patched(patch: str) -> tuple[str | None, dict[str, Any]]:
    r"""Return the Claude Code tool and input of a Codex patch's first added or updated file.

    >>> _patched("*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch")
    ('Edit', {'file_path': 'a.py', 'old_string': 'x = 1', 'new_string': 'x = 2'})
    """
    found = _PATCH_FILE.search(patch)
    if found is None:
        return None, {}
    rest = patch[found.end() :]
    body = rest[: rest.find("\n*** ")] if "\n*** " in rest else rest
    lines = body.splitlines()
    added = "\n".join(line[1:] for line in lines if line.startswith("+"))
    if found.group(1) == "Add":
        return "Write", {"file_path": found.group(2).strip(), "content": added}
    removed = "\n".join(line[1:] for line in lines if line.startswith("-"))
    return "Edit", {"file_path": found.group(2).strip(), "old_string": removed, "new_string": added}


def codex_exit_code(transcript: object, call_id: object) -> int | None:
    """Return the exit code Codex's rollout gives the command ``call_id``; None if not there.

    Codex's PostToolUse carries the output alone. Its rollout has written the command's
    ``item_completed`` event (``exit_code``) by the time the hook runs: only the last
    :data:`ROLLOUT_TAIL` bytes are read, from the end, a few lines parsed.
    """
    if not isinstance(transcript, str) or not isinstance(call_id, str) or not call_id:
        return None
    try:
        with open(transcript, "rb") as rollout:
            rollout.seek(max(0, rollout.seek(0, os.SEEK_END) - ROLLOUT_TAIL))
            tail = rollout.read(ROLLOUT_TAIL)
    except OSError:
        return None
    needle = call_id.encode()
    for line in reversed(tail.splitlines()):
        if needle in line and b"exit_code" in line:
            code = _exit_in(line, call_id)
            if code is not None:
                return code
    return None


def _exit_in(line: bytes, call_id: str) -> int | None:
    import json  # noqa: PLC0415 - only where a rollout line names the call

    try:
        row = json.loads(line)
    except ValueError:
        return None
    payload = row.get("payload") if isinstance(row, dict) else None
    item = payload.get("item") if isinstance(payload, dict) else None
    if not isinstance(item, dict) or item.get("id") != call_id:
        return None
    code = item.get("exit_code")
    return code if isinstance(code, int) and not isinstance(code, bool) else None


def _error_of(response: object) -> str | None:
    """Return a tool response's own error message (Gemini's ``error``), or None."""
    error = response.get("error") if isinstance(response, dict) else None
    if isinstance(error, dict):
        error = error.get("message") or error.get("type")
    return error if isinstance(error, str) and error else None


def _response_parts(response: object) -> tuple[str, int | None, str | None]:
    """Return ``(output text, exit code or None, error text or None)`` of a shell response.

    Gemini: ``{llmContent, returnDisplay, error?}``, the exit code on an ``Exit Code: N``
    line of ``llmContent`` (an ``error`` only for the tool's own failures); Cursor: a JSON
    string; any: ``exit_code`` or ``exitCode`` where a response has one.
    """
    if isinstance(response, str) and response.lstrip().startswith("{"):
        import json  # noqa: PLC0415 - a JSON string response only

        try:
            response = json.loads(str(response))
        except ValueError:
            return str(response), None, None
    if isinstance(response, str):
        return response, None, None
    if not isinstance(response, dict):
        return "", None, None
    said = response.get("llmContent")
    said = said if isinstance(said, str) else ""
    shown = (response.get(k) for k in ("returnDisplay", "output", "stdout"))
    text = next((t for t in shown if isinstance(t, str) and t), said)
    code = response.get("exit_code", response.get("exitCode"))
    if not isinstance(code, int) or isinstance(code, bool):
        found = _EXIT.search(said)
        code = int(found.group(1)) if found else None
    return text, code, _error_of(response)


def _cursor_envelope(payload: dict[str, Any], ours: str) -> None:
    """Give a Cursor payload Claude Code's session, cwd, tool response and transcript."""
    if not payload.get("session_id") and isinstance(payload.get("conversation_id"), str):
        payload["session_id"] = payload["conversation_id"]
    roots = payload.get("workspace_roots")
    root = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None
    if not payload.get("cwd"):
        payload["cwd"] = root or os.environ.get("CURSOR_PROJECT_DIR") or None
    if "tool_output" in payload and "tool_response" not in payload:
        payload["tool_response"] = payload["tool_output"]
    if ours in ("SessionEnd", "PreCompact") and not payload.get("transcript_path") and root:
        conversation = payload.get("session_id")
        if isinstance(conversation, str) and conversation:
            from artibot_memory.capture.foreign import cursor_transcript_path  # noqa: PLC0415

            payload["transcript_path"] = cursor_transcript_path(root, conversation)
