r"""What a prompt asks, in words: pasted logs, code, images and data as short markers (stdlib).

A session's ask is written in three places: the ``Asked`` line of its summary
(:mod:`artibot_memory.capture.summary`), the project's ``Status:`` line in MEMORY.md
(:func:`artibot_memory.notes.semantic.status_of`) and the day's note. Each writes
:func:`ask_in_words` of the prompt, so none of them carries what was pasted after the
words: a data URL or a long base64 run (``[image]``, ``[data]``), a fenced block, a run
of log lines or of code lines (``[log, 40 lines]``, ``[code, 12 lines]``), a blockquote
(``[quote, 3 lines]``), Claude Code's ``[Image #1]`` (``[image]``). What is left is the
words, on one line, cut at a word (a marker is kept whole or dropped whole).

Reading the result again gives the same text, so a writer may apply it to an ask that an
earlier writer already put in words (an old summary's ``Asked`` line included).

>>> ask_in_words("use this as the favicon: data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==")
'use this as the favicon: [image]'
>>> ask_in_words("why does this fail?\n```\nTraceback (most recent call last):\n  x\n```")
'why does this fail? [log, 2 lines]'
>>> ask_in_words("이 로그 봐 줘\n[ERROR] db down\n[ERROR] retry 1\n[ERROR] retry 2")
'이 로그 봐 줘 [log, 3 lines]'
"""

from __future__ import annotations

import re

from artibot_memory.text.trim import ELLIPSIS, clip

__all__ = ["MARKERS", "ask_in_words", "data_as_markers"]

MAX_READ = 20_000  # of one prompt: the lines past it are pasted, and only counted
MIN_BLOB = 100  # a run of base64 characters this long, with no space, is data, not a word
MARKERS = ("image", "data", "code", "log", "quote")
_I = re.IGNORECASE
_DATA_URL = re.compile(
    r"\bdata:(?P<mime>[\w.+-]+/[\w.+-]+)?(?:;[\w.+-]+=[\w.+-]+)*(?P<b64>;base64)?,"
    r"(?:\[REDACTED:[\w-]+\]|[A-Za-z0-9+/=%_.~-])*",
    _I,
)
_B64 = "A-Za-z0-9+/=_-"
_BLOB = re.compile(rf"(?<![{_B64}])(?=[{_B64}]*\d)(?=[{_B64}]*[A-Za-z])[{_B64}]{{{MIN_BLOB},}}")
_PLACEHOLDER = re.compile(r"\[Image #\d+\]|\[image: [^\]\n]{0,200}\]", _I)
_FENCE = re.compile(
    r"^[ \t]*(```|~~~)([^\n]*)\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL
)
_LOG_LANGS = frozenset({"log", "logs", "text", "txt", "console", "output", "shell-session"})
_LOG_LINE = re.compile(
    r"^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}|^\s*\[?\d{1,2}:\d{2}:\d{2}\b"
    r"|^\s*\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|PANIC)\b"
    r"|^\s*(?:error|warning|fatal|panic)(?:\[[\w-]+\])?:\s|^\s*npm (?:ERR!|WARN|notice)\b"
    r"|^\s*Traceback \(|^\s*File \"[^\"]+\", line \d+|^\s*at \S+ \(?\S*:\d+|^\s*at\s+[\w.$<>]+\("
    r"|^\s*\d+:\d+\s+(?:error|warning)\b|^\s*[\w./-]+\.\w{1,5}:\d+\b"
    r"|^\s*[A-Z]\w*(?:Error|Exception|Warning):\s|^\s*(?:E|W|F)\s{2,}\S"
    r"|^\s*(?:FAIL|PASS|FAILED|PASSED)\s|^\s*[$❯%]\s+\S|^\s*={3,}|^\s*-{3,}\s*\S"
    r"|^\s*\^+\s*$|^\s*(?:Exit code|exit status)\s+-?\d+",
)
_CODE_LINE = re.compile(
    r"^(?:\t| {4,})(?![-*•]\s|\d{1,2}[.)]\s)\S"  # indented, and not a nested list item
    r"|^\s*(?:def|class|fn|func|function|async\s+def|pub\s+fn|impl|struct|enum|interface)\s+\w+"
    r"|^\s*(?:const|let|var)\s+\w+\s*[=:]|^\s*(?:from\s+[\w.]+\s+)?import\s+[\w.{*]"
    r"|^\s*#include\b|^\s*#!|^\s*//|^\s*/\*|^\s*@\w+(?:\(|$)"
    r"|[;{(]\s*$|^\s*[})\]][\s;,)]*$|^\s*[{\[]\s*[\"'{\[]"
    r"|^\s*(?:if|for|while|return|elif|else|switch|case|try|catch|except|finally)\b.*[:{]\s*$"
    r"|^\s*</?[A-Za-z][\w.-]*(?:\s[^<>]*)?/?>|^\s*[\w.\[\]\"']+\s*(?::=|\+=|-=|==|=)\s*\S.*$",
)
_QUOTE_LINE = re.compile(r"^\s*>")
_MARKER = re.compile(rf"\[(?:{'|'.join(MARKERS)})(?:, \d+ lines?)?\]")
_SPACES = re.compile(r"\s+")


def ask_in_words(prompt: str, limit: int | None = None) -> str:
    r"""Return what ``prompt`` asks, in words, on one line, at most ``limit`` characters.

    >>> ask_in_words("fix the build:\n    x = 1\n    y = 2\nthanks")
    'fix the build: [code, 2 lines] thanks'
    >>> ask_in_words("파비콘으로 써 줘 [Image #1]")
    '파비콘으로 써 줘 [image]'
    >>> ask_in_words("add a test for the login flow please", 24)
    'add a test for the…'
    """
    read, unread = prompt, 0
    if len(prompt) > MAX_READ:  # the rest is counted, not read: the lines of the same paste
        read = prompt[: prompt.rfind("\n", 0, MAX_READ) + 1] or prompt[:MAX_READ]
        unread = prompt.count("\n", len(read)) + (not prompt.endswith("\n"))
    text = data_as_markers(read).strip()
    if "\n" in text:  # one line is what was typed: words, whatever it looks like
        text = " ".join(_lines(_FENCE.sub(_fenced, text).split("\n"), unread))
    said = _SPACES.sub(" ", text).strip()
    return said if limit is None else _clipped(said, limit)


def data_as_markers(text: str) -> str:
    r"""Replace what is pasted inside a line (data URLs, base64 runs, image placeholders).

    The lines stay as they are: a reader of sentences (decisions) keeps its own split.

    >>> data_as_markers("logo: data:image/svg+xml;base64,PHN2Zz4=\nnext line")
    'logo: [image]\nnext line'
    """
    if "data:" in text:
        text = _DATA_URL.sub(_data_url, text)
    text = _PLACEHOLDER.sub("[image]", text)
    return _BLOB.sub("[data]", text) if len(text) >= MIN_BLOB else text


def _data_url(match: re.Match[str]) -> str:
    mime = (match.group("mime") or "").lower()
    return "[image]" if mime.startswith("image/") else "[data]"


def _fenced(match: re.Match[str]) -> str:
    lang, body = match.group(2).strip().lower(), match.group(3)
    lines = [line for line in body.split("\n") if line.strip()]
    logs = sum(bool(_LOG_LINE.search(line)) for line in lines)
    kind = "log" if lang in _LOG_LANGS or (not lang and logs * 2 >= len(lines)) else "code"
    return f"\n{_marker(kind, len(lines))}\n"


def _lines(lines: list[str], unread: int = 0) -> list[str]:
    """Return the prose lines, each run of pasted lines (blank ones within) as one marker.

    ``unread`` lines followed those read: a run open at the end counts them as its own.
    """
    kept: list[str] = []
    run: list[str] = []  # the kinds of the pasted lines of the current run
    for line in lines:
        kind = _kind(line)
        if kind is None and (run and not line.strip()):
            continue  # a blank line inside a run of pasted ones
        if kind is None:
            kept += [_run_marker(run), line] if run else [line]
            run = []
        else:
            run.append(kind)
    if run:
        return [*kept, _run_marker(run, unread)]
    return [*kept, ELLIPSIS] if unread else kept


def _kind(line: str) -> str | None:
    """Return what a line is when pasted (``log``, ``code``, ``quote``), None for words."""
    if not line.strip() or _MARKER.fullmatch(line.strip()):
        return None
    if _QUOTE_LINE.match(line):
        return "quote"
    if _LOG_LINE.search(line):
        return "log"
    return "code" if _CODE_LINE.search(line) else None


def _run_marker(kinds: list[str], unread: int = 0) -> str:
    counts = {kind: kinds.count(kind) for kind in dict.fromkeys(kinds)}
    kind = max(counts, key=lambda k: (counts[k], k == "log"))
    return _marker(kind, len(kinds) + unread)


def _marker(kind: str, lines: int) -> str:
    return f"[{kind}, {lines} line{'s' if lines != 1 else ''}]"


def _clipped(text: str, limit: int) -> str:
    """Cut at a word, and never inside a marker: it is kept whole or left out."""
    if len(text) <= limit:
        return text
    cut = clip(text, limit)
    start = cut.rfind("[")
    if start >= 0 and "]" not in cut[start:] and _MARKER.match(text, start):
        return text[:start].rstrip() + ELLIPSIS
    return cut
