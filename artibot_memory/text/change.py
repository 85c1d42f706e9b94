r"""What one file edit changed, in a few words (standard library only, Python 3.9+).

An error's fix is easier to trust when it says what changed: ``-import yaml +import json``
rather than "edited settings_loader.py". The edit tools of Claude Code say it in two
shapes, read here for the PostToolUse hook (its ``tool_input`` and ``tool_response``) and
for the transcript (the ``tool_use`` input and the row's ``toolUseResult``) alike:

- a patch, ``structuredPatch``: hunks whose ``lines`` start with ``-``, ``+`` or a space
  (Edit, MultiEdit, and a Write that replaced a file);
- the strings themselves: ``old_string`` and ``new_string`` (Edit, each of MultiEdit's
  ``edits``), ``content`` (Write) or ``new_source`` (NotebookEdit).

The summary is the first line removed and the first line added (blank lines and lines
that only moved are not changes), and how many more changed. Each line is redacted whole
before it is cut, so a cut never leaves half a secret the redactor can no longer see; a
redactor that cannot load means no summary at all.

>>> change_of("Edit", {"old_string": "import yaml\nx = 1", "new_string": "import json\nx = 1"})
'-import yaml +import json'
>>> change_of("Write", {"content": "a\nb\n"}, {"type": "create"})
'new file, 2 lines'
"""

from __future__ import annotations

from artibot_memory.text.trim import clip

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

LINE_CHARS = 60  # of each line shown
MAX_READ_LINES = 2_000  # of one edit's old or new text: a pasted file stays cheap
_PRECUT = 8  # a line is cut to 8x LINE_CHARS before redaction, to LINE_CHARS after


def change_of(tool: str, given: object, response: object = None) -> str:
    """Return what an edit changed (``''`` when it cannot be told), redacted and short.

    ``given`` is the tool's input, ``response`` its result object when there is one.

    >>> change_of("Edit", {"old_string": "a = 1", "new_string": "a = 2"}, None)
    '-a = 1 +a = 2'
    >>> change_of("Edit", "not a dict")
    ''
    """
    given = given if isinstance(given, dict) else {}
    response = response if isinstance(response, dict) else {}
    patch = response.get("structuredPatch")
    if isinstance(patch, list) and patch:
        removed, added = _patch_lines(patch)
    elif tool == "Write":  # a new file, or a Write whose result gave no patch
        return _new_file(given.get("content"), response.get("type"))
    else:
        removed, added = _difference(*_edit_texts(given))
    return _summary(removed, added)


def _new_file(content: object, result_type: object) -> str:
    if not isinstance(content, str):
        return ""
    count = len(content.splitlines())
    noun = "line" if count == 1 else "lines"
    return f"new file, {count} {noun}" if result_type == "create" else f"written, {count} {noun}"


def _edit_texts(given: dict[str, Any]) -> tuple[str, str]:
    """Return the old and new text of an Edit, of all a MultiEdit's edits, or of a cell."""
    edits = given.get("edits")
    pairs = edits if isinstance(edits, list) else [given]
    old, new = [], []
    for edit in pairs:
        if isinstance(edit, dict):
            old.append(_text(edit.get("old_string")))
            new.append(_text(edit.get("new_string") or edit.get("new_source")))
    return "\n".join(old), "\n".join(new)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _patch_lines(hunks: list[Any]) -> tuple[list[str], list[str]]:
    lines = [
        line
        for hunk in hunks
        if isinstance(hunk, dict) and isinstance(hunk.get("lines"), list)
        for line in hunk["lines"][:MAX_READ_LINES]
        if isinstance(line, str)
    ]
    removed = [line[1:] for line in lines if line.startswith("-")]
    added = [line[1:] for line in lines if line.startswith("+")]
    return _difference("\n".join(removed), "\n".join(added))


def _difference(old: str, new: str) -> tuple[list[str], list[str]]:
    """Return the lines only in ``old`` and those only in ``new``, in order, blanks left out."""
    old_lines = _lines(old)
    new_lines = _lines(new)
    old_set, new_set = set(old_lines), set(new_lines)
    return [x for x in old_lines if x not in new_set], [x for x in new_lines if x not in old_set]


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()[:MAX_READ_LINES] if line.strip()]


def _summary(removed: list[str], added: list[str]) -> str:
    redact = _redactor()
    if redact is None:
        return ""
    parts = [f"-{_short(removed[0], redact)}"] if removed else []
    parts += [f"+{_short(added[0], redact)}"] if added else []
    more = max(len(removed) - 1, 0) + max(len(added) - 1, 0)
    if more:
        parts.append(f"({more} more changed line{'s' if more > 1 else ''})")
    return " ".join(parts)


def _short(line: str, redact: Callable[[str], str]) -> str:
    return clip(redact(line[: LINE_CHARS * _PRECUT]), LINE_CHARS)


def _redactor() -> Callable[[str], str] | None:
    """Return the redactor, or None when it cannot load (nothing is summarised then)."""
    try:
        from artibot_memory.core.redact import redact  # noqa: PLC0415 - edits only
    except ImportError:
        return None
    return redact
