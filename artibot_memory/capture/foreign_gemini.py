"""Gemini CLI chats as Claude Code rows (the format: capture/foreign.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
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
    strings_of,
    text_block,
    use_block,
)
from artibot_memory.core.agents import GEMINI

_REFUSED = "The user doesn't want to proceed with this tool use. "  # what transcript counts
_GEMINI_TRAILER_RE = re.compile(r"(Exit Code|Background PIDs|Process Group PGID): (.*)")
_GEMINI_SIGNAL_RE = re.compile(r"^Signal: \S+$", re.MULTILINE)
_HOOK_CONTEXT_RE = re.compile(r"<hook_context>.*?</hook_context>", re.DOTALL)
_UNTRUSTED_RE = re.compile(r"<untrusted_context>(.*)</untrusted_context>", re.DOTALL)
_SLASH_RE = re.compile(r"/([A-Za-z][\w:.-]*)(?:\s|$)")


# --- Gemini CLI -------------------------------------------------------------------------


@dataclass
class _Message:
    """One Gemini chat message as last written, and the lines that first and last wrote it."""

    record: Row
    first: int
    last: int


class GeminiTranslator(Translator):
    """Gemini CLI chat records (``~/.gemini/tmp/<project>/chats/session-*.jsonl``) as rows."""

    agent = GEMINI

    def __init__(self, *, cwd: str = "", session_id: str = "") -> None:
        super().__init__(cwd=cwd, session_id=session_id)
        self.meta: Row = {}
        self.meta_line = self.updated_line = 0
        self.messages: dict[str, _Message] = {}

    def translate(self, line: int, record: dict[str, Any]) -> list[Numbered]:
        """Return the rows record ``line`` stands for."""
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
            for record in (r for r in listed if isinstance(r, dict) and str_of(r.get("id"))):
                was = known.get(record["id"])
                self.messages[record["id"]] = _Message(
                    record, was.first if was else line, was.last if was else line
                )
        self.meta.update((key, value) for key, value in changes.items() if key != "messages")
        if "lastUpdated" in changes:
            self.updated_line = line

    def finish(self) -> list[Numbered]:
        """Return the rows held back until the whole transcript was read."""
        self._settle_envelope()
        rows = self._stamped(self.meta_line, [{"type": "gemini"}], self.meta.get("startTime"))
        for message in self.messages.values():
            rows += self._told(message)
        ended = self.updated_line or self.meta_line
        return rows + self._stamped(ended, [{"type": "gemini"}], self.meta.get("lastUpdated"))

    def _settle_envelope(self) -> None:
        if str_of(self.meta.get("sessionId")):
            self.envelope["sessionId"] = self.meta["sessionId"]
        folders = self.meta.get("directories")
        if "cwd" not in self.envelope and isinstance(folders, list) and folders:
            self.envelope.update({"cwd": str_of(folders[0])} if str_of(folders[0]) else {})

    def _told(self, message: _Message) -> list[Numbered]:
        record = message.record
        kind, at = record.get("type"), record.get("timestamp")
        if kind == "user":
            text = _gemini_prompt(record.get("content"))
            return self._stamped(message.first, [prompt_row(text)] if text else [], at)
        if kind != "gemini":
            return []  # info, error and warning lines are the CLI's, not the conversation's
        calls = [c for c in list_of(record.get("toolCalls")) if str_of(dict_of(c).get("id"))]
        told = [_gemini_call(call) for call in calls]
        said = [text_block(t) for t in _parts_text(record.get("content")) if t.strip()]
        blocks = said + [use for use, _ in told]
        rows = self._stamped(message.first, [said_row(blocks, str_of(record.get("model")))], at)
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
    tool_id, status = str_of(call.get("id")), call.get("status")
    output, error = _gemini_result(call)
    name, given, extra = _gemini_tool(str_of(call.get("name")), dict_of(call.get("args")), output)
    use = use_block(tool_id, name, given)
    if status == "cancelled":
        return use, result_row(tool_id, _REFUSED + (error or output), failed=True)
    if status not in ("success", "error"):
        return use, None  # scheduled or still running when the chat was last written
    if name != "Bash":
        return use, result_row(tool_id, error or output, failed=status == "error", extra=extra)
    text, failed, extra = _gemini_shell(output, error, failed=status == "error")
    return use, result_row(tool_id, text, failed=failed, extra=extra)


def _gemini_result(call: Row) -> tuple[str, str]:
    """Return the output and the error text of a Gemini tool call's ``functionResponse``."""
    result = call.get("result")
    outputs, errors = [], []
    for part in result if isinstance(result, list) else [result]:
        response = dict_of(dict_of(dict_of(part).get("functionResponse")).get("response"))
        outputs.append(str_of(response.get("output")) or str_of(response.get("llmContent")))
        outputs.append(str_of(part) or str_of(dict_of(part).get("text")))
        errors.append(str_of(response.get("error")))
    output = "\n".join(o for o in outputs if o) or str_of(call.get("resultDisplay"))
    return output, "\n".join(e for e in errors if e)


def _gemini_tool(name: str, args: Row, output: str) -> tuple[str, Row, Row]:
    """Return Claude Code's name, input and result extra for a Gemini tool call."""
    path = str_of(args.get("file_path")) or str_of(args.get("absolute_path"))
    if name == "run_shell_command":
        return "Bash", {"command": str_of(args.get("command"))}, {}
    if name == "write_file":
        made = "create" if "created" in output[:200] else "update" if "overwrote" in output else ""
        return "Write", {"file_path": path, "content": args.get("content")}, {"type": made}
    if name in ("replace", "edit"):
        if args.get("old_string") == "" and "Created new file" in output[:200]:
            created = {"file_path": path, "content": args.get("new_string")}
            return "Write", created, {"type": "create"}
        return "Edit", {"file_path": path, **strings_of(args, "old_string", "new_string")}, {}
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
    return failure_text(body, code, failed=failed), failed, extra


def _parts_text(content: object) -> list[str]:
    """Return the texts of a Gemini ``PartListUnion``: a string, a part or a list; no thoughts."""
    if isinstance(content, str):
        return [content]
    parts = content if isinstance(content, list) else [content]
    return [
        part if isinstance(part, str) else part["text"]
        for part in parts
        if isinstance(part, str)
        or (isinstance(part, dict) and str_of(part.get("text")) and not part.get("thought"))
    ]
