"""Cursor agent transcripts as Claude Code rows (the format: capture/foreign.py)."""

from __future__ import annotations

import re
from typing import Any

from artibot_memory.capture.agentrows import (
    Numbered,
    Row,
    Translator,
    dict_of,
    list_of,
    prompt_row,
    result_row,
    said_row,
    str_of,
    strings_of,
    text_block,
    use_block,
)
from artibot_memory.core.agents import CURSOR

_USER_QUERY_RE = re.compile(r"<user_query>(.*?)</user_query>", re.DOTALL)


# --- Cursor -----------------------------------------------------------------------------


class CursorTranslator(Translator):
    """Cursor agent-transcript records as rows (no times, no tool results)."""

    agent = CURSOR

    def translate(self, line: int, record: dict[str, Any]) -> list[Numbered]:
        """Return the rows record ``line`` stands for."""
        blocks = list_of(dict_of(record.get("message")).get("content"))
        blocks = [block for block in blocks if isinstance(block, dict)]
        if record.get("role") == "user":
            text = _cursor_prompt(blocks)
            return self._stamped(line, [prompt_row(text)] if text else [], None)
        if record.get("role") == "assistant":
            return self._stamped(line, _cursor_said(line, blocks), None)
        return []


def _cursor_prompt(blocks: list[Row]) -> str:
    r"""Return the user's query: inside ``<user_query>``, or the text when there is no tag.

    >>> _cursor_prompt([{"type": "text", "text": "<user_query>\nfix it\n</user_query>"}])
    'fix it'
    """
    texts = [str_of(block.get("text")) for block in blocks if block.get("type") == "text"]
    queries = [q.strip() for text in texts for q in _USER_QUERY_RE.findall(text)]
    typed = queries or [t.strip() for t in texts if not t.lstrip().startswith("<")]
    return "\n".join(t for t in typed if t)


def _cursor_said(line: int, blocks: list[Row]) -> list[Row]:
    """Return the assistant's row, then a result for each edit (Cursor logs none, nor fails)."""
    said: list[Row] = []
    done: list[Row] = []
    for at, block in enumerate(blocks):
        if block.get("type") == "text" and str_of(block.get("text")):
            said.append(text_block(block["text"]))
        elif block.get("type") == "tool_use" and str_of(block.get("name")):
            tool_id = str_of(block.get("id")) or f"cursor-{line}-{at}"
            name, given = _cursor_tool(block["name"], dict_of(block.get("input")))
            said.append(use_block(tool_id, name, given))
            if name in ("Write", "Edit"):
                done.append(result_row(tool_id, "", failed=False))
    return [said_row(said), *done] if said else []


def _cursor_tool(name: str, given: Row) -> tuple[str, Row]:
    """Return Claude Code's name and input for a Cursor tool call."""
    path = str_of(given.get("path")) or str_of(given.get("file_path"))
    if name == "Shell":
        return "Bash", {"command": str_of(given.get("command"))}
    if name == "Write":
        return "Write", {"file_path": path, "content": given.get("contents", given.get("content"))}
    if name in ("StrReplace", "Edit"):
        return "Edit", {"file_path": path, **strings_of(given, "old_string", "new_string")}
    if name == "Read":
        return "Read", {"file_path": path}
    return name, given
