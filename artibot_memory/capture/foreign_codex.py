"""Codex CLI rollouts as Claude Code rows (the format: capture/foreign.py)."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from artibot_memory.capture.agentrows import (
    Numbered,
    Row,
    Translator,
    dict_of,
    failure_text,
    list_of,
    prompt_row,
    result_row,
    said_row,
    str_of,
    text_block,
    use_block,
)
from artibot_memory.core.agents import CODEX

OUTPUT_CHARS = 100_000  # of a command's output kept while its process runs on (the tail)
MAX_EXIT_CODES = 1_000  # exit codes events reported and no output claimed yet
MAX_PATCH_LINES = 2_000  # of one file's hunks in a patch (the change summary reads fewer)
MAX_PATCH_FILES = 100
_CODEX_SHELLS = frozenset({"exec_command", "shell", "shell_command", "container.exec"})
_SHELL_FLAGS = frozenset({"-c", "-lc", "-ic", "-Command", "/c"})
_INJECTED_TAGS = frozenset({"skill", "image", "instructions", "system-reminder"})
_TAG_RE = re.compile(r"<([A-Za-z][\w-]*)[^>]*>")
_CODEX_EXIT_RE = re.compile(r"(?:Exit code:|Process exited with code)\s*(-?\d+)\s*")
_CODEX_RUNNING_RE = re.compile(r"Process running with session ID\s*(\S+)\s*")
_CODEX_HEADER_RE = re.compile(r"(?:Chunk ID|Wall time|Original token count|Total output lines):.*")
_PATCH_FILE_RE = re.compile(r"\*\*\* (Add|Update|Delete) File: (.+)")


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


class CodexTranslator(Translator):
    """Codex CLI rollout records (``$CODEX_HOME/sessions/…/rollout-*.jsonl``) as rows."""

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
        """Return the rows record ``line`` stands for."""
        payload, kind = dict_of(record.get("payload")), record.get("type")
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
        found = str_of(meta.get("id")) or str_of(meta.get("session_id"))
        if found and not self.named:
            self.envelope["sessionId"], self.named = found, True
        self._move(meta.get("cwd"))
        for key, value in (("version", meta.get("cli_version")), ("gitBranch", _git(meta))):
            if str_of(value):
                self.envelope[key] = str_of(value)
        return []

    def _compacted(self, _: Row) -> list[Row]:
        return [{"type": "system", "subtype": "compact_boundary"}]

    def _turn(self, context: Row) -> list[Row]:
        self._move(context.get("cwd"))
        self.model = str_of(context.get("model")) or self.model
        return []

    def _move(self, cwd: object) -> None:
        if str_of(cwd):
            self.envelope["cwd"] = str_of(cwd)

    def _item(self, item: Row) -> list[Row]:
        kind = item.get("type")
        if kind == "message":
            return self._message(item)
        if kind == "function_call":
            return self._function(item)
        if kind == "local_shell_call":
            action = dict_of(item.get("action"))
            return self._shell(_call_id(item), _command(action.get("command")))
        if kind == "custom_tool_call":
            return self._custom(item)
        if kind in ("function_call_output", "custom_tool_call_output"):
            return self._output(_call_id(item), _codex_output(item.get("output")))
        return []  # reasoning, web searches, snapshots and what Codex adds next

    def _message(self, item: Row) -> list[Row]:
        role, blocks = item.get("role"), list_of(item.get("content"))
        if role == "assistant":
            said = [text_block(b["text"]) for b in blocks if str_of(dict_of(b).get("text"))]
            return [said_row(said, self.model)] if said else []
        if role != "user":
            return []  # developer and system messages: the harness's, hooks' context among them
        made_by = _provenances(item)  # by the content item's place in the list
        typed = [
            str_of(block.get("text"))
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
        return [prompt_row(text)]

    def _event(self, event: Row) -> list[Row]:
        kind = event.get("type")
        if kind == "user_message" and event.get("kind") in (None, "plain"):
            message = str_of(event.get("message"))
            return [] if _injected(message) else self._prompt("event", message)
        if kind == "item_completed":
            return self._completed(dict_of(event.get("item")))
        if kind == "exec_command_end":
            self._exit(str_of(event.get("call_id")), event.get("exit_code"))
        return []

    def _completed(self, item: Row) -> list[Row]:
        if item.get("type") == "CommandExecution":
            self._exit(str_of(item.get("id")), item.get("exit_code"))
        elif item.get("type") == "UserMessage" and isinstance(item.get("content"), list):
            texts = [str_of(b.get("text")) for b in item["content"] if isinstance(b, dict)]
            return self._prompt("event", "\n".join(t for t in texts if t and not _injected(t)))
        return []

    def _exit(self, call_id: str, code: object) -> None:
        if call_id and isinstance(code, int) and not isinstance(code, bool):
            if len(self.exit_codes) > MAX_EXIT_CODES:
                self.exit_codes.clear()
            self.exit_codes[call_id] = code

    def _function(self, item: Row) -> list[Row]:
        name, call_id = str_of(item.get("name")), _call_id(item)
        given = _arguments(item.get("arguments"))
        if name == "write_stdin":
            self.calls[call_id] = _Call(polls=str(given.get("session_id", "")))
            return []
        if name in _CODEX_SHELLS:
            return self._shell(call_id, _command(given.get("cmd") or given.get("command")))
        if name == "apply_patch":
            return self._patch(call_id, str_of(given.get("input") or given.get("patch")))
        return self._other(call_id, name, given)

    def _custom(self, item: Row) -> list[Row]:
        name, call_id, given = str_of(item.get("name")), _call_id(item), str_of(item.get("input"))
        if name == "apply_patch":
            return self._patch(call_id, given)
        return self._other(call_id, name, {"input": given})

    def _shell(self, call_id: str, command: str) -> list[Row]:
        if "*** Begin Patch" in command:  # apply_patch run through the shell: Codex intercepts it
            return self._patch(call_id, command)
        if not call_id or not command:
            return []
        self.calls[call_id] = _Call(uses=((call_id, {}),))
        return [said_row([use_block(call_id, "Bash", {"command": command})], self.model)]

    def _patch(self, call_id: str, patch: str) -> list[Row]:
        edits = _patch_edits(patch)
        if not call_id or not edits:
            return self._other(call_id, "apply_patch", {"input": patch[:1000]})
        uses = tuple((f"{call_id}#{at}", extra) for at, (_, _, extra) in enumerate(edits))
        self.calls[call_id] = _Call(uses=uses, patch=True)
        blocks = [
            use_block(tool_id, name, given)
            for (tool_id, _), (name, given, _) in zip(uses, edits, strict=True)
        ]
        return [said_row(blocks, self.model)]

    def _other(self, call_id: str, name: str, given: Row) -> list[Row]:
        if not call_id or not name:
            return []
        return [said_row([use_block(call_id, name, given)], self.model)]  # counted, no more

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
    text = failure_text(out.text, out.code, failed=failed)
    return [result_row(tool_id, text, failed=failed, extra=extra) for tool_id, extra in call.uses]


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
        code = dict_of(structured.get("metadata")).get("exit_code")
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
        return "\n".join(str_of(b.get("text")) for b in value if isinstance(b, dict))
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
    kept = dict_of(item.get("internal_chat_message_metadata_passthrough"))
    listed = kept.get("content_item_metadata")
    if not isinstance(listed, list):
        return {}
    return {
        at: str_of(dict_of(dict_of(meta).get("provenance")).get("type"))
        for at, meta in enumerate(listed)
        if str_of(dict_of(dict_of(meta).get("provenance")).get("type"))
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
    return str_of(dict_of(meta.get("git")).get("branch"))


def _call_id(item: Row) -> str:
    return str_of(item.get("call_id")) or str_of(item.get("id"))
