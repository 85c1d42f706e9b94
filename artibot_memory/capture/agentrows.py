"""Claude Code's transcript rows, made from another agent's records: what translators share.

A translator (:mod:`artibot_memory.capture.foreign`) turns each record of its agent into the
rows Claude Code would have written for the same moment; this module holds its base class,
the row builders and the readers of loosely typed JSON they all use (standard library only).
"""

from __future__ import annotations

from typing import Any

from artibot_memory.core.agents import CLAUDE

Row = dict[str, Any]
Numbered = tuple[int, Row]  # a row, with the transcript line it stands for


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


def prompt_row(text: str) -> Row:
    """Return the row of a prompt the user typed."""
    return {"type": "user", "message": {"role": "user", "content": text}}


def said_row(blocks: list[Row], model: str = "") -> Row:
    """Return the row of the assistant's turn made of ``blocks``."""
    message = {"role": "assistant", "content": blocks, **({"model": model} if model else {})}
    return {"type": "assistant", "message": message}


def text_block(text: str) -> Row:
    """Return a text block of an assistant's turn."""
    return {"type": "text", "text": text}


def use_block(tool_id: str, name: str, given: dict[str, Any]) -> Row:
    """Return a ``tool_use`` block: the tool ``name`` called with ``given``."""
    return {"type": "tool_use", "id": tool_id, "name": name, "input": given}


def result_row(tool_id: str, text: str, *, failed: bool, extra: Row | None = None) -> Row:
    """Return the user row that carries a tool's result (``is_error`` when it failed)."""
    block = {"type": "tool_result", "tool_use_id": tool_id, "content": text, "is_error": failed}
    row: Row = {"type": "user", "message": {"role": "user", "content": [block]}}
    return {**row, "toolUseResult": extra} if extra else row


def failure_text(body: str, code: int | None, *, failed: bool) -> str:
    """Return a command's output as Claude Code words it, its exit code if it failed."""
    """Write a failed command's output as Claude Code's Bash tool does: ``Exit code N`` first.

    A failure always has some text: the transcript parser tells an error by it.
    """
    if not failed:
        return body
    return f"Exit code {code}\n{body}" if code is not None else body.strip() or "(no output)"


# --- shapes -----------------------------------------------------------------------------


def str_of(value: object) -> str:
    """Return ``value`` when it is a str, else an empty one."""
    return value if isinstance(value, str) else ""


def dict_of(value: object) -> Row:
    """Return ``value`` when it is a dict, else an empty one."""
    return value if isinstance(value, dict) else {}


def list_of(value: object) -> list[Any]:
    """Return ``value`` when it is a list, else an empty one."""
    return value if isinstance(value, list) else []


def strings_of(given: Row, *keys: str) -> Row:
    """Return the entries of ``given`` named ``keys`` whose value is a string."""
    return {key: given[key] for key in keys if isinstance(given.get(key), str)}
