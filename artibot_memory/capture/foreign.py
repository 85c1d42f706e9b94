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

import json
import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from artibot_memory.core.agents import CLAUDE, CODEX, CURSOR, GEMINI

__all__ = [
    "Translator",
    "cursor_transcript_path",
    "detect",
    "translator_for",
]

OUTPUT_CHARS = 100_000  # of a command's output kept while its process runs on (the tail)
MAX_EXIT_CODES = 1_000  # exit codes events reported and no output claimed yet
MAX_PATCH_LINES = 2_000  # of one file's hunks in a patch (the change summary reads fewer)
MAX_PATCH_FILES = 100
_CODEX_TYPES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "compacted"}
)
_GEMINI_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
_REFUSED = "The user doesn't want to proceed with this tool use. "  # what transcript counts
_CODEX_SHELLS = frozenset({"exec_command", "shell", "shell_command", "container.exec"})
_SHELL_FLAGS = frozenset({"-c", "-lc", "-ic", "-Command", "/c"})
_INJECTED_TAGS = frozenset({"skill", "image", "instructions", "system-reminder"})
_TAG_RE = re.compile(r"<([A-Za-z][\w-]*)[^>]*>")
_CODEX_EXIT_RE = re.compile(r"(?:Exit code:|Process exited with code)\s*(-?\d+)\s*")
_CODEX_RUNNING_RE = re.compile(r"Process running with session ID\s*(\S+)\s*")
_CODEX_HEADER_RE = re.compile(r"(?:Chunk ID|Wall time|Original token count|Total output lines):.*")
_GEMINI_TRAILER_RE = re.compile(r"(Exit Code|Background PIDs|Process Group PGID): (.*)")
_GEMINI_SIGNAL_RE = re.compile(r"^Signal: \S+$", re.MULTILINE)
_HOOK_CONTEXT_RE = re.compile(r"<hook_context>.*?</hook_context>", re.DOTALL)
_UNTRUSTED_RE = re.compile(r"<untrusted_context>(.*)</untrusted_context>", re.DOTALL)
_USER_QUERY_RE = re.compile(r"<user_query>(.*?)</user_query>", re.DOTALL)
_SLASH_RE = re.compile(r"/([A-Za-z][\w:.-]*)(?:\s|$)")
_PATCH_FILE_RE = re.compile(r"\*\*\* (Add|Update|Delete) File: (.+)")

Row = dict[str, Any]
Numbered = tuple[int, Row]  # a row, with the transcript line it stands for


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
    make = {CODEX: _Codex, GEMINI: _Gemini, CURSOR: _Cursor}.get(agent)
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


class Translator:
    """Turns one agent's records into Claude Code rows; ``finish`` gives what it held back.

    Every row carries the ``envelope`` (session id, working directory…) and its record's
    time, as each Claude Code row does.
    """

    agent = CLAUDE

    def __init__(self, *, cwd: str = "", session_id: str = "") -> None:
        self.envelope: dict[str, str] = {}
        if session_id:
            self.envelope["sessionId"] = session_id
        if cwd:
            self.envelope["cwd"] = cwd

    def translate(self, line: int, record: dict[str, Any]) -> list[Numbered]:  # noqa: ARG002
        """Return the rows record ``line`` stands for (none for a record of no interest)."""
        return []

    def finish(self) -> list[Numbered]:
        """Return the rows held back until the whole transcript was read."""
        return []

    def _stamped(self, line: int, rows: list[Row], at: object) -> list[Numbered]:
        when = {"timestamp": at} if isinstance(at, str) and at else {}
        return [(line, {**self.envelope, **when, **row}) for row in rows]


# --- Claude Code rows -------------------------------------------------------------------


def _prompt_row(text: str) -> Row:
    return {"type": "user", "message": {"role": "user", "content": text}}


def _said_row(blocks: list[Row], model: str = "") -> Row:
    message = {"role": "assistant", "content": blocks, **({"model": model} if model else {})}
    return {"type": "assistant", "message": message}


def _text_block(text: str) -> Row:
    return {"type": "text", "text": text}


def _use_block(tool_id: str, name: str, given: dict[str, Any]) -> Row:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": given}


def _result_row(tool_id: str, text: str, *, failed: bool, extra: Row | None = None) -> Row:
    block = {"type": "tool_result", "tool_use_id": tool_id, "content": text, "is_error": failed}
    row: Row = {"type": "user", "message": {"role": "user", "content": [block]}}
    return {**row, "toolUseResult": extra} if extra else row


def _failure_text(body: str, code: int | None, *, failed: bool) -> str:
    """Write a failed command's output as Claude Code's Bash tool does: ``Exit code N`` first.

    A failure always has some text: the transcript parser tells an error by it.
    """
    if not failed:
        return body
    return f"Exit code {code}\n{body}" if code is not None else body.strip() or "(no output)"


# --- Codex CLI --------------------------------------------------------------------------


@dataclass
class _Call:
    """A Codex tool call waiting for its output: the tool uses it became, or what it polls."""

    uses: tuple[tuple[str, Row], ...] = ()  # each tool_use id, with its toolUseResult extra
    polls: str = ""  # write_stdin: the running process it reads
    patch: bool = False  # apply_patch: says "Success." or why not, exit code or none
    chunks: list[str] = field(default_factory=list)  # output of a process still running


@dataclass
class _Output:
    """A Codex tool output: its text, its exit code, the process still running if any."""

    text: str
    code: int | None = None
    running: str = ""
    failed: bool = False  # the output said so in so many words (success: false)


class _Codex(Translator):
    agent = CODEX

    def __init__(self, *, cwd: str = "", session_id: str = "") -> None:
        super().__init__(cwd=cwd, session_id=session_id)
        self.model = ""
        self.calls: dict[str, _Call] = {}
        self.running: dict[str, _Call] = {}  # process id -> the command it runs
        self.exit_codes: dict[str, int] = {}  # call id -> exit code an event reported
        self.unmatched: list[tuple[str, str]] = []  # prompts one source told, the other not yet
        self.named = False  # the rollout named its session (a fork's later metas do not rename)

    def translate(self, line: int, record: dict[str, Any]) -> list[Numbered]:
        payload, kind = _dict(record.get("payload")), record.get("type")
        handler = {
            "session_meta": self._session,
            "turn_context": self._turn,
            "response_item": self._item,
            "event_msg": self._event,
            "compacted": self._compacted,
        }.get(kind if isinstance(kind, str) else "")
        rows = handler(payload) if handler else []
        return self._stamped(line, rows or [{"type": "codex"}], record.get("timestamp"))

    def _session(self, meta: Row) -> list[Row]:
        found = _str(meta.get("id")) or _str(meta.get("session_id"))
        if found and not self.named:
            self.envelope["sessionId"], self.named = found, True
        self._move(meta.get("cwd"))
        for key, value in (("version", meta.get("cli_version")), ("gitBranch", _git(meta))):
            if _str(value):
                self.envelope[key] = _str(value)
        return []

    def _compacted(self, _: Row) -> list[Row]:
        return [{"type": "system", "subtype": "compact_boundary"}]

    def _turn(self, context: Row) -> list[Row]:
        self._move(context.get("cwd"))
        self.model = _str(context.get("model")) or self.model
        return []

    def _move(self, cwd: object) -> None:
        if _str(cwd):
            self.envelope["cwd"] = _str(cwd)

    def _item(self, item: Row) -> list[Row]:
        kind = item.get("type")
        if kind == "message":
            return self._message(item)
        if kind == "function_call":
            return self._function(item)
        if kind == "local_shell_call":
            action = _dict(item.get("action"))
            return self._shell(_call_id(item), _command(action.get("command")))
        if kind == "custom_tool_call":
            return self._custom(item)
        if kind in ("function_call_output", "custom_tool_call_output"):
            return self._output(_call_id(item), _codex_output(item.get("output")))
        return []  # reasoning, web searches, snapshots and what Codex adds next

    def _message(self, item: Row) -> list[Row]:
        role, blocks = item.get("role"), _list(item.get("content"))
        if role == "assistant":
            said = [_text_block(b["text"]) for b in blocks if _str(_dict(b).get("text"))]
            return [_said_row(said, self.model)] if said else []
        if role != "user":
            return []  # developer and system messages: the harness's, hooks' context among them
        made_by = _provenances(item)  # by the content item's place in the list
        typed = [
            _str(block.get("text"))
            for at, block in enumerate(blocks)
            if isinstance(block, dict)
            and block.get("type") == "input_text"
            and made_by.get(at, "user") == "user"
        ]
        return self._prompt("item", "\n".join(t for t in typed if not _injected(t)))

    def _prompt(self, source: str, text: str) -> list[Row]:
        """Tell a prompt once, though a response item and an event may both record it."""
        text = text.strip()
        if not text:
            return []
        for at, (said_by, said) in enumerate(self.unmatched):
            if said_by != source and said == text:
                del self.unmatched[at]
                return []
        self.unmatched = [*self.unmatched[-19:], (source, text)]
        return [_prompt_row(text)]

    def _event(self, event: Row) -> list[Row]:
        kind = event.get("type")
        if kind == "user_message" and event.get("kind") in (None, "plain"):
            message = _str(event.get("message"))
            return [] if _injected(message) else self._prompt("event", message)
        if kind == "item_completed":
            return self._completed(_dict(event.get("item")))
        if kind == "exec_command_end":
            self._exit(_str(event.get("call_id")), event.get("exit_code"))
        return []

    def _completed(self, item: Row) -> list[Row]:
        if item.get("type") == "CommandExecution":
            self._exit(_str(item.get("id")), item.get("exit_code"))
        elif item.get("type") == "UserMessage" and isinstance(item.get("content"), list):
            texts = [_str(b.get("text")) for b in item["content"] if isinstance(b, dict)]
            return self._prompt("event", "\n".join(t for t in texts if t and not _injected(t)))
        return []

    def _exit(self, call_id: str, code: object) -> None:
        if call_id and isinstance(code, int) and not isinstance(code, bool):
            if len(self.exit_codes) > MAX_EXIT_CODES:
                self.exit_codes.clear()
            self.exit_codes[call_id] = code

    def _function(self, item: Row) -> list[Row]:
        name, call_id = _str(item.get("name")), _call_id(item)
        given = _arguments(item.get("arguments"))
        if name == "write_stdin":
            self.calls[call_id] = _Call(polls=str(given.get("session_id", "")))
            return []
        if name in _CODEX_SHELLS:
            return self._shell(call_id, _command(given.get("cmd") or given.get("command")))
        if name == "apply_patch":
            return self._patch(call_id, _str(given.get("input") or given.get("patch")))
        return self._other(call_id, name, given)

    def _custom(self, item: Row) -> list[Row]:
        name, call_id, given = _str(item.get("name")), _call_id(item), _str(item.get("input"))
        if name == "apply_patch":
            return self._patch(call_id, given)
        return self._other(call_id, name, {"input": given})

    def _shell(self, call_id: str, command: str) -> list[Row]:
        if "*** Begin Patch" in command:  # apply_patch run through the shell: Codex intercepts it
            return self._patch(call_id, command)
        if not call_id or not command:
            return []
        self.calls[call_id] = _Call(uses=((call_id, {}),))
        return [_said_row([_use_block(call_id, "Bash", {"command": command})], self.model)]

    def _patch(self, call_id: str, patch: str) -> list[Row]:
        edits = _patch_edits(patch)
        if not call_id or not edits:
            return self._other(call_id, "apply_patch", {"input": patch[:1000]})
        uses = tuple((f"{call_id}#{at}", extra) for at, (_, _, extra) in enumerate(edits))
        self.calls[call_id] = _Call(uses=uses, patch=True)
        blocks = [
            _use_block(tool_id, name, given)
            for (tool_id, _), (name, given, _) in zip(uses, edits, strict=True)
        ]
        return [_said_row(blocks, self.model)]

    def _other(self, call_id: str, name: str, given: Row) -> list[Row]:
        if not call_id or not name:
            return []
        return [_said_row([_use_block(call_id, name, given)], self.model)]  # counted, no more

    def _output(self, call_id: str, out: _Output) -> list[Row]:
        call = self.calls.pop(call_id, None)
        if call is None:
            return []
        if out.code is None:
            out.code = self.exit_codes.pop(call_id, None)
        if call.polls:
            return self._polled(call.polls, out)
        if out.running:  # it runs on: told when a poll sees it end
            call.chunks.append(out.text)
            self.running[out.running] = call
            return []
        return _codex_results(call, out)

    def _polled(self, process: str, out: _Output) -> list[Row]:
        call = self.running.get(process)
        if call is None:
            return []
        call.chunks = ["".join([*call.chunks, out.text])[-OUTPUT_CHARS:]]
        if out.running:
            return []
        del self.running[process]
        return _codex_results(call, _Output(call.chunks[0], out.code, failed=out.failed))


def _codex_results(call: _Call, out: _Output) -> list[Row]:
    failed = out.failed or out.code not in (None, 0)
    if call.patch and out.code is None:  # "apply_patch verification failed: …" has no code
        failed = failed or not out.text.lstrip().startswith("Success.")
    text = _failure_text(out.text, out.code, failed=failed)
    return [_result_row(tool_id, text, failed=failed, extra=extra) for tool_id, extra in call.uses]


def _codex_output(value: object) -> _Output:
    r"""Read a Codex tool output: unified exec's, the freeform shell's or the structured one.

    >>> _codex_output("Chunk ID: a1\nWall time: 0.1 seconds\nProcess exited with code 2\n"
    ...               "Original token count: 3\nOutput:\nboom\n")
    _Output(text='boom\n', code=2, running='', failed=False)
    >>> _codex_output('{"output": "ok", "metadata": {"exit_code": 0}}').code
    0
    """
    if isinstance(value, dict):  # {content, success}: an older rollout's failure shape
        out = _codex_output(value.get("content"))
        out.failed = value.get("success") is False
        return out
    text = _output_text(value)
    if text.startswith("{") and '"metadata"' in text:
        structured = _arguments(text)
        code = _dict(structured.get("metadata")).get("exit_code")
        if isinstance(structured.get("output"), str) and isinstance(code, int):
            return _Output(structured["output"], code)
    return _headed(text)


def _headed(text: str) -> _Output:
    """Split the ``Name: value`` lines Codex puts above a command's ``Output:``."""
    out = _Output(text)
    lines = text.split("\n", 8)
    for at, line in enumerate(lines):
        if line.strip() == "Output:":
            out.text = "\n".join(lines[at + 1 :])
            return out
        if found := _CODEX_EXIT_RE.fullmatch(line):
            out.code = int(found[1])
        elif found := _CODEX_RUNNING_RE.fullmatch(line):
            out.running = found[1]
        elif line.strip() and not _CODEX_HEADER_RE.fullmatch(line):
            return out  # plain output, kept whole
    out.text = ""  # headers alone: a process that ended with nothing more to say
    return out


def _output_text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # content items: [{type: input_text, text}, …]
        return "\n".join(_str(b.get("text")) for b in value if isinstance(b, dict))
    return ""


def _patch_edits(patch: str) -> list[tuple[str, Row, Row]]:
    r"""Return a tool name, input and result extra for each file an ``apply_patch`` changes.

    >>> _patch_edits("*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch")
    [('Write', {'file_path': 'a.txt', 'content': 'hi'}, {'type': 'create'})]
    """
    edits: list[tuple[str, str, list[str]]] = []  # action, path, lines
    for line in patch.splitlines():
        if found := _PATCH_FILE_RE.fullmatch(line.strip()):
            edits.append((found[1], found[2].strip(), []))
        elif line.startswith("*** Move to: ") and edits:
            edits[-1] = (edits[-1][0], line[len("*** Move to: ") :].strip(), edits[-1][2])
        elif edits and line[:1] in ("+", "-", " ") and len(edits[-1][2]) < MAX_PATCH_LINES:
            edits[-1][2].append(line)
    return [_patch_edit(*edit) for edit in edits[:MAX_PATCH_FILES] if edit[1]]


def _patch_edit(action: str, path: str, lines: list[str]) -> tuple[str, Row, Row]:
    if action == "Add":
        content = "\n".join(line[1:] for line in lines if line.startswith("+"))
        return "Write", {"file_path": path, "content": content}, {"type": "create"}
    return "Edit", {"file_path": path}, {"structuredPatch": [{"lines": lines}]}


def _command(value: object) -> str:
    """Return a command as typed: ``cmd``'s string, or the script of a ``bash -lc`` argv.

    >>> _command(["bash", "-lc", "pytest -q"]), _command(["ls", "my dir"])
    ('pytest -q', "ls 'my dir'")
    """
    if isinstance(value, str):
        return value
    if not isinstance(value, list) or not all(isinstance(part, str) for part in value):
        return ""
    if len(value) == 3 and value[1] in _SHELL_FLAGS:  # noqa: PLR2004 - shell, flag, script
        return str(value[2])
    return shlex.join(value)


def _arguments(value: object) -> Row:
    """Decode a function call's arguments, a JSON object in a string ({} for anything else)."""
    if isinstance(value, dict):
        return value
    try:
        decoded = json.loads(value) if isinstance(value, str) else None
    except (ValueError, RecursionError):
        return {}
    return decoded if isinstance(decoded, dict) else {}


def _provenances(item: Row) -> dict[int, str]:
    """Say who made each content item of a message, where the rollout's metadata tells."""
    kept = _dict(item.get("internal_chat_message_metadata_passthrough"))
    listed = kept.get("content_item_metadata")
    if not isinstance(listed, list):
        return {}
    return {
        at: _str(_dict(_dict(meta).get("provenance")).get("type"))
        for at, meta in enumerate(listed)
        if _str(_dict(_dict(meta).get("provenance")).get("type"))
    }


def _injected(text: str) -> bool:
    r"""Tell context an agent put in a user message from what the user typed.

    >>> _injected("<environment_context>\n  <cwd>/x</cwd>\n</environment_context>")
    True
    >>> _injected("why does <div> collapse?"), _injected("# AGENTS.md instructions for /x")
    (False, True)
    """
    head = text.lstrip()
    if head.startswith(("# AGENTS.md instructions for ", "<INSTRUCTIONS>")):
        return True
    tag = _TAG_RE.match(head)
    if tag is None or f"</{tag[1]}>" not in head:
        return False
    return "_" in tag[1] or tag[1] in _INJECTED_TAGS


def _git(meta: Row) -> str:
    return _str(_dict(meta.get("git")).get("branch"))


def _call_id(item: Row) -> str:
    return _str(item.get("call_id")) or _str(item.get("id"))


# --- Gemini CLI -------------------------------------------------------------------------


@dataclass
class _Message:
    """One Gemini chat message as last written, and the lines that first and last wrote it."""

    record: Row
    first: int
    last: int


class _Gemini(Translator):
    agent = GEMINI

    def __init__(self, *, cwd: str = "", session_id: str = "") -> None:
        super().__init__(cwd=cwd, session_id=session_id)
        self.meta: Row = {}
        self.meta_line = self.updated_line = 0
        self.messages: dict[str, _Message] = {}

    def translate(self, line: int, record: dict[str, Any]) -> list[Numbered]:
        rewound, changes = record.get("$rewindTo"), record.get("$set")
        if isinstance(rewound, str):
            self._rewind(rewound)
        elif isinstance(record.get("id"), str):
            self._keep(line, record)
        elif isinstance(changes, dict):
            self._set(line, changes)
        elif isinstance(record.get("sessionId"), str) and "projectHash" in record:
            self.meta_line = self.meta_line or line
            self._set(line, record)
        return []  # a chat is told at its end: a later record may rewind or replace any message

    def _keep(self, line: int, record: Row) -> None:
        known = self.messages.get(record["id"])
        self.messages[record["id"]] = _Message(record, known.first if known else line, line)

    def _rewind(self, message_id: str) -> None:
        if message_id not in self.messages:
            self.messages.clear()  # as gemini-cli does when the message is unknown
            return
        ids = list(self.messages)
        for gone in ids[ids.index(message_id) :]:
            del self.messages[gone]

    def _set(self, line: int, changes: Row) -> None:
        listed = changes.get("messages")
        if isinstance(listed, list):  # a checkpoint: the whole list, rewritten
            known, self.messages = self.messages, {}
            for record in (r for r in listed if isinstance(r, dict) and _str(r.get("id"))):
                was = known.get(record["id"])
                self.messages[record["id"]] = _Message(
                    record, was.first if was else line, was.last if was else line
                )
        self.meta.update((key, value) for key, value in changes.items() if key != "messages")
        if "lastUpdated" in changes:
            self.updated_line = line

    def finish(self) -> list[Numbered]:
        self._settle_envelope()
        rows = self._stamped(self.meta_line, [{"type": "gemini"}], self.meta.get("startTime"))
        for message in self.messages.values():
            rows += self._told(message)
        ended = self.updated_line or self.meta_line
        return rows + self._stamped(ended, [{"type": "gemini"}], self.meta.get("lastUpdated"))

    def _settle_envelope(self) -> None:
        if _str(self.meta.get("sessionId")):
            self.envelope["sessionId"] = self.meta["sessionId"]
        folders = self.meta.get("directories")
        if "cwd" not in self.envelope and isinstance(folders, list) and folders:
            self.envelope.update({"cwd": _str(folders[0])} if _str(folders[0]) else {})

    def _told(self, message: _Message) -> list[Numbered]:
        record = message.record
        kind, at = record.get("type"), record.get("timestamp")
        if kind == "user":
            text = _gemini_prompt(record.get("content"))
            return self._stamped(message.first, [_prompt_row(text)] if text else [], at)
        if kind != "gemini":
            return []  # info, error and warning lines are the CLI's, not the conversation's
        calls = [c for c in _list(record.get("toolCalls")) if _str(_dict(c).get("id"))]
        told = [_gemini_call(call) for call in calls]
        said = [_text_block(t) for t in _parts_text(record.get("content")) if t.strip()]
        blocks = said + [use for use, _ in told]
        rows = self._stamped(message.first, [_said_row(blocks, _str(record.get("model")))], at)
        for call, (_, result) in zip(calls, told, strict=True):
            if result is not None:
                rows += self._stamped(message.last, [result], call.get("timestamp") or at)
        return rows


def _gemini_prompt(content: object) -> str:
    r"""Return what the user typed: no ``<hook_context>`` block, no ``<session_context>``.

    >>> _gemini_prompt([{"text": "<hook_context>ctx</hook_context>\n\nRun it"},
    ...                 {"text": "<hook_context>more</hook_context>"}])
    'Run it'
    """
    texts = (_HOOK_CONTEXT_RE.sub("", text).strip() for text in _parts_text(content))
    typed = "\n".join(t for t in texts if t and not t.startswith("<session_context>"))
    slash = _SLASH_RE.match(typed)
    return f"<command-name>/{slash[1]}</command-name>" if slash else typed


def _gemini_call(call: Row) -> tuple[Row, Row | None]:
    """Return a Gemini tool call as a tool_use block, and its result row once it has one."""
    tool_id, status = _str(call.get("id")), call.get("status")
    output, error = _gemini_result(call)
    name, given, extra = _gemini_tool(_str(call.get("name")), _dict(call.get("args")), output)
    use = _use_block(tool_id, name, given)
    if status == "cancelled":
        return use, _result_row(tool_id, _REFUSED + (error or output), failed=True)
    if status not in ("success", "error"):
        return use, None  # scheduled or still running when the chat was last written
    if name != "Bash":
        return use, _result_row(tool_id, error or output, failed=status == "error", extra=extra)
    text, failed, extra = _gemini_shell(output, error, failed=status == "error")
    return use, _result_row(tool_id, text, failed=failed, extra=extra)


def _gemini_result(call: Row) -> tuple[str, str]:
    """Return the output and the error text of a Gemini tool call's ``functionResponse``."""
    result = call.get("result")
    outputs, errors = [], []
    for part in result if isinstance(result, list) else [result]:
        response = _dict(_dict(_dict(part).get("functionResponse")).get("response"))
        outputs.append(_str(response.get("output")) or _str(response.get("llmContent")))
        outputs.append(_str(part) or _str(_dict(part).get("text")))
        errors.append(_str(response.get("error")))
    output = "\n".join(o for o in outputs if o) or _str(call.get("resultDisplay"))
    return output, "\n".join(e for e in errors if e)


def _gemini_tool(name: str, args: Row, output: str) -> tuple[str, Row, Row]:
    """Return Claude Code's name, input and result extra for a Gemini tool call."""
    path = _str(args.get("file_path")) or _str(args.get("absolute_path"))
    if name == "run_shell_command":
        return "Bash", {"command": _str(args.get("command"))}, {}
    if name == "write_file":
        made = "create" if "created" in output[:200] else "update" if "overwrote" in output else ""
        return "Write", {"file_path": path, "content": args.get("content")}, {"type": made}
    if name in ("replace", "edit"):
        if args.get("old_string") == "" and "Created new file" in output[:200]:
            created = {"file_path": path, "content": args.get("new_string")}
            return "Write", created, {"type": "create"}
        return "Edit", {"file_path": path, **_strings(args, "old_string", "new_string")}, {}
    if name == "read_file":
        return "Read", {"file_path": path}, {}
    return name, args, {}


def _gemini_shell(output: str, error: str, *, failed: bool) -> tuple[str, bool, Row]:
    r"""Read ``run_shell_command``'s result: ``Output: …`` then ``Exit Code:``, ``Signal:`` ….

    >>> _gemini_shell("Output: boom\nExit Code: 1\nProcess Group PGID: 7", "", failed=False)
    ('Exit code 1\nboom', True, {})
    """
    wrapped = _UNTRUSTED_RE.search(output)  # an AfterTool hook's context may follow it
    body = wrapped[1] if wrapped else _HOOK_CONTEXT_RE.sub("", output)
    lines, code = body.strip().split("\n"), None
    while lines and (found := _GEMINI_TRAILER_RE.fullmatch(lines[-1].strip())):
        lines.pop()
        if found[1] == "Exit Code" and found[2].lstrip("-").isdigit():
            code = int(found[2])
    body = "\n".join(lines).removeprefix("Output: ").removeprefix("(empty)").strip("\n")
    body = "\n".join(part for part in (body, error) if part)  # a Signal: line stays, as said
    failed = failed or code not in (None, 0) or bool(_GEMINI_SIGNAL_RE.search(body[-200:]))
    background = re.match(r"Command moved to background \(PID: (\d+)\)", body)
    extra = {"backgroundTaskId": background[1]} if background else {}
    return _failure_text(body, code, failed=failed), failed, extra


def _parts_text(content: object) -> list[str]:
    """Return the texts of a Gemini ``PartListUnion``: a string, a part or a list; no thoughts."""
    if isinstance(content, str):
        return [content]
    parts = content if isinstance(content, list) else [content]
    return [
        part if isinstance(part, str) else part["text"]
        for part in parts
        if isinstance(part, str)
        or (isinstance(part, dict) and _str(part.get("text")) and not part.get("thought"))
    ]


# --- Cursor -----------------------------------------------------------------------------


class _Cursor(Translator):
    agent = CURSOR

    def translate(self, line: int, record: dict[str, Any]) -> list[Numbered]:
        blocks = _list(_dict(record.get("message")).get("content"))
        blocks = [block for block in blocks if isinstance(block, dict)]
        if record.get("role") == "user":
            text = _cursor_prompt(blocks)
            return self._stamped(line, [_prompt_row(text)] if text else [], None)
        if record.get("role") == "assistant":
            return self._stamped(line, _cursor_said(line, blocks), None)
        return []


def _cursor_prompt(blocks: list[Row]) -> str:
    r"""Return the user's query: inside ``<user_query>``, or the text when there is no tag.

    >>> _cursor_prompt([{"type": "text", "text": "<user_query>\nfix it\n</user_query>"}])
    'fix it'
    """
    texts = [_str(block.get("text")) for block in blocks if block.get("type") == "text"]
    queries = [q.strip() for text in texts for q in _USER_QUERY_RE.findall(text)]
    typed = queries or [t.strip() for t in texts if not t.lstrip().startswith("<")]
    return "\n".join(t for t in typed if t)


def _cursor_said(line: int, blocks: list[Row]) -> list[Row]:
    """Return the assistant's row, then a result for each edit (Cursor logs none, nor fails)."""
    said: list[Row] = []
    done: list[Row] = []
    for at, block in enumerate(blocks):
        if block.get("type") == "text" and _str(block.get("text")):
            said.append(_text_block(block["text"]))
        elif block.get("type") == "tool_use" and _str(block.get("name")):
            tool_id = _str(block.get("id")) or f"cursor-{line}-{at}"
            name, given = _cursor_tool(block["name"], _dict(block.get("input")))
            said.append(_use_block(tool_id, name, given))
            if name in ("Write", "Edit"):
                done.append(_result_row(tool_id, "", failed=False))
    return [_said_row(said), *done] if said else []


def _cursor_tool(name: str, given: Row) -> tuple[str, Row]:
    """Return Claude Code's name and input for a Cursor tool call."""
    path = _str(given.get("path")) or _str(given.get("file_path"))
    if name == "Shell":
        return "Bash", {"command": _str(given.get("command"))}
    if name == "Write":
        return "Write", {"file_path": path, "content": given.get("contents", given.get("content"))}
    if name in ("StrReplace", "Edit"):
        return "Edit", {"file_path": path, **_strings(given, "old_string", "new_string")}
    if name == "Read":
        return "Read", {"file_path": path}
    return name, given


# --- shapes -----------------------------------------------------------------------------


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _dict(value: object) -> Row:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _strings(given: Row, *keys: str) -> Row:
    return {key: given[key] for key in keys if isinstance(given.get(key), str)}
