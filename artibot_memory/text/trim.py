"""Cutting text to a length, the two ways the product needs (standard library only).

- :func:`clip` keeps the start: a line a person reads (a prompt, an error line, a memory
  in a listing) ends with ``…``, cut at a boundary (a space, a newline) when one is near
  enough, so a word, and a secret inside it, is kept whole or dropped whole;
- :func:`cut_middle` keeps the head and the tail: a command's output or a log entry,
  whose end (the summary line, the exception) matters as much as its start.

>>> clip("alpha beta gamma", 12)
'alpha beta…'
>>> cut_middle("abcdefghijklmnopqrstuvwxyz" * 4, 64)
'abcdefghijklmnopqrst …[63 chars trimmed]… fghijklmnopqrstuvwxyz'
"""

from __future__ import annotations

ELLIPSIS = "…"


def clip(text: str, limit: int, *, at: str | None = " ", min_keep: float = 0.5) -> str:
    r"""Return ``text`` cut to at most ``limit`` characters, ending in ``…`` when cut.

    The cut falls on the last ``at`` (a space by default; ``None`` cuts anywhere) when
    more than ``min_keep`` of the text kept lies before it; trailing spaces go.

    >>> clip("one two three", 8), clip("one two three", 8, at=None)
    ('one two…', 'one two…')
    >>> clip("line one\nline two", 14, at="\n", min_keep=0)
    'line one…'
    >>> clip("short", 10)
    'short'
    """
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 1, 0)]
    boundary = cut.rfind(at) if at else -1
    if boundary > limit * min_keep:
        cut = cut[:boundary]
    return cut.rstrip() + ELLIPSIS


def cut_middle(text: str, limit: int) -> str:
    """Keep the head and the tail of ``text``, at most ``limit`` characters in all.

    Cutting again with the same limit changes nothing, so a string trimmed by a hook
    and trimmed again by the journal stays the same string.

    >>> cut_middle("x" * 100, 64) == cut_middle(cut_middle("x" * 100, 64), 64)
    True
    """
    limit = max(limit, 64)
    if len(text) <= limit:
        return text
    keep = limit - len(f" …[{len(text)} chars trimmed]… ")
    head = keep // 2
    return f"{text[:head]} …[{len(text) - keep} chars trimmed]… {text[len(text) - (keep - head) :]}"
