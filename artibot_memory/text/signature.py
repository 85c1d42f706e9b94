r"""Normalised error signatures: the same error gives the same string, run after run.

An error signature keeps what identifies the failure (the exception class and message,
the npm error code, the rustc error code, the missing command) and replaces what changes
from one run or machine to the next (paths, numbers, hashes, addresses, timestamps,
UUIDs, temp names) with placeholders. Claude Code's leading ``Exit code N`` line is left
out (:func:`exit_code`, below): the message says what went wrong,
and the same failure may exit 1 or 2. A command's signature is
:func:`~artibot_memory.text.shell.command_signature`.

Short quoted values stay, so a missing ``'requests'`` differs from a missing ``'flask'``;
quoted values over 40 characters become ``'<str>'``.

>>> error_signature("Exit code 1\nTraceback (most recent call last):\n"
...                 '  File "/tmp/x.py", line 1, in <module>\n'
...                 "ModuleNotFoundError: No module named 'requests'")
"modulenotfounderror: no module named 'requests'"

The exit code. Claude Code's Bash tool starts a failure's error text with an ``Exit code N``
line (``Error: Exit code N`` in some versions), then the command's output. The journal keeps
the code (:func:`exit_code`, the one reader of that line), the session summary shows it,
and the signature leaves the line out. The code counts only as the whole first non-blank
line, so output that merely begins with those words keeps its text and has no code. It
lives here, beside the signature that always goes with it, so a failure's hook loads one
module for both.
"""

from __future__ import annotations

import re

# Claude Code's first line of a failed Bash call: read by exit_code, left out of signatures.
_EXIT_LINE = re.compile(r"\s*(?:Error: )?Exit code (-?\d+)[ \t]*(?:\r?\n|\Z)")

MAX_SIGNATURE_CHARS = 200
MAX_QUOTED_CHARS = 40

_NOT_FOUND = re.compile(
    r"(?:^|:\s)(?:command not found: (?P<zsh>\S+)|(?P<bash>[^\s:]+): (?:command )?not found$)"
)
_EXCEPTION = re.compile(
    r"^(?:E\s+)?(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt)(?::\s.*|:)?$"
)
_PYTEST_FAILED = re.compile(r"^(?:FAILED|ERROR) \S+ - ")
_RUST_CODE = re.compile(r"^error\[E\d+\]: ")
_RUST_ERROR = re.compile(r"^error: (?!could not compile|aborting due to)")
_NPM = re.compile(r"^npm (?:ERR!|error) ?(.*)$")
_NPM_NOISE = ("syscall", "path", "errno", "a complete log", "log files", "this is related")
_KEYWORDS = re.compile(
    r"\b(?:error|fatal|fail(?:ed|ure)?|not found|denied|cannot|can't|no such|unable|"
    r"refused|invalid|undefined|panic)\b",
    re.IGNORECASE,
)

# Order matters: URLs before paths, paths before numbers, hex before numbers.
_SUBSTITUTIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE), "<url>"),
    (
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"
            r"(?:Z|[+-]\d{2}:?\d{2})?)?\b"
        ),
        "<time>",
    ),
    (re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"), "<time>"),
    (
        re.compile(r"\b[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}\b", re.IGNORECASE),
        "<uuid>",
    ),
    (re.compile(r"\b0x[0-9a-f]+\b", re.IGNORECASE), "<hex>"),
    (re.compile(r"(?<![\w.])[A-Za-z]:\\[^\s'\"`:;,()\[\]{}<>]*"), "<path>"),
    (re.compile(r"(?<![\w/.~-])~?/[^\s'\"`:;,()\[\]{}<>]+"), "<path>"),
    (re.compile(r"\btmp[\w-]{4,}", re.IGNORECASE), "<tmp>"),
    (re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b", re.IGNORECASE), "<hex>"),
    (re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b"), "<ip>"),
    (re.compile(r"(?<![\w.])\d+(?:\.\d+)*"), "<n>"),
)
_LONG_QUOTED = re.compile(
    r"'[^'\n]{%d,}'|\"[^\"\n]{%d,}\"" % (MAX_QUOTED_CHARS + 1, MAX_QUOTED_CHARS + 1)  # noqa: UP031
)
_SPACES = re.compile(r"\s+")


def exit_code(text: str) -> tuple[int | None, str]:
    r"""Return the code of a leading ``Exit code N`` line and the text after that line.

    Without such a line the code is None and the text comes back whole.

    >>> exit_code("Error: Exit code 2\n\nsrc/a.ts(3,1): error TS1005")
    (2, '\nsrc/a.ts(3,1): error TS1005')
    >>> exit_code("Exit code 1")
    (1, '')
    >>> exit_code("fatal: not a git repository")
    (None, 'fatal: not a git repository')
    """
    found = _EXIT_LINE.match(text)
    if found is None:
        return None, text
    return int(found[1]), text[found.end() :]


def error_signature(error_text: str) -> str:
    r"""Return the normalised signature of an error output ('' when there is none).

    >>> error_signature("bash: foo: command not found")
    'command not found: foo'
    >>> error_signature("Exit code 1\nnpm ERR! code ENOENT\nnpm ERR! syscall open")
    'npm error code enoent'
    """
    _, rest = exit_code(error_text or "")
    lines = [line.strip() for line in rest.splitlines()]
    lines = [line for line in lines if line]
    line = _meaningful_line(lines)
    return _normalise(line)[:MAX_SIGNATURE_CHARS].rstrip() if line else ""


def _meaningful_line(lines: list[str]) -> str:
    """Pick the line that names the failure, trying the most specific shapes first."""
    for pick in (_not_found, _exception, _rust, _npm, _keyword):
        found = pick(lines)
        if found:
            return found
    return lines[-1] if lines else ""


def _not_found(lines: list[str]) -> str:
    for line in lines:
        match = _NOT_FOUND.search(line)
        if match:
            return f"command not found: {match['zsh'] or match['bash']}"
    return ""


def _exception(lines: list[str]) -> str:
    """Return the last exception line (a chained traceback ends with the one that escaped).

    A bare ``AssertionError`` says little, so pytest's ``FAILED test - ...`` line,
    which names the test, is taken instead when there is one.
    """
    found = [line for line in lines if _EXCEPTION.match(line)]
    if not found:
        return ""
    line = re.sub(r"^E\s+", "", found[-1])
    if line.startswith("AssertionError"):
        return next((x for x in lines if _PYTEST_FAILED.match(x)), line)
    return line


def _rust(lines: list[str]) -> str:
    coded = [line for line in lines if _RUST_CODE.match(line)]
    plain = [line for line in lines if _RUST_ERROR.match(line)]
    return (coded or plain or [""])[0]


def _npm(lines: list[str]) -> str:
    """``npm error code X`` plus the first line that explains it."""
    messages = [m[1].strip() for line in lines if (m := _NPM.match(line)) and m[1].strip()]
    code = next((m[5:].strip() for m in messages if m.startswith("code ")), "")
    detail = next(
        (m for m in messages if not m.startswith("code ") and not m.lower().startswith(_NPM_NOISE)),
        "",
    )
    if not (code or detail):
        return ""
    return " ".join(part for part in ("npm error", code and f"code {code}", detail) if part)


def _keyword(lines: list[str]) -> str:
    return next((line for line in lines if _KEYWORDS.search(line)), "")


def _normalise(line: str) -> str:
    for pattern, placeholder in _SUBSTITUTIONS:
        line = pattern.sub(placeholder, line)
    line = _LONG_QUOTED.sub(lambda m: f"{m[0][0]}<str>{m[0][0]}", line)
    return _SPACES.sub(" ", line).strip().lower()
