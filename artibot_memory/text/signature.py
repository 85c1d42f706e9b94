r"""Normalised signatures: the same error or command gives the same string, run after run.

An error signature keeps what identifies the failure (the exception class and message,
the npm error code, the rustc error code, the missing command) and replaces what changes
from one run or machine to the next (paths, numbers, hashes, addresses, timestamps,
UUIDs, temp names) with placeholders. Claude Code's leading ``Exit code N`` line is left
out: the message says what went wrong, and the same failure may exit 1 or 2.

Short quoted values stay, so a missing ``'requests'`` differs from a missing ``'flask'``;
quoted values over 40 characters become ``'<str>'``.

>>> error_signature("Exit code 1\nTraceback (most recent call last):\n"
...                 '  File "/tmp/x.py", line 1, in <module>\n'
...                 "ModuleNotFoundError: No module named 'requests'")
"modulenotfounderror: no module named 'requests'"
"""

from __future__ import annotations

import re
import shlex

MAX_SIGNATURE_CHARS = 200
MAX_COMMAND_CHARS = 300
MAX_QUOTED_CHARS = 40

_EXIT_CODE = re.compile(r"^(?:Error: )?Exit code \d+$")
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

_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_LEADING_ENV = re.compile(r"^(?:[A-Za-z_]\w*=(?:'[^']*'|\"[^\"]*\"|\S*)\s+)+")
_LEADING_CD = re.compile(r"^cd\s+(?:'[^']*'|\"[^\"]*\"|\S+)\s*(?:&&|;)\s*")
_OPERATOR_CHARS = set("();<>|&")
_PYTHON = re.compile(r"python[\d.]*")
_FILE_NAME = re.compile(r"\.\w{1,5}$")
_WRAPPERS = frozenset({"sudo", "time", "env", "nice", "nohup", "command", "exec"})
_RUNNERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pnpm", "exec"), ("npx",)}
_WITH_SUBCOMMAND = frozenset(
    {
        "git",
        "npm",
        "pnpm",
        "yarn",
        "bun",
        "pip",
        "pip3",
        "cargo",
        "go",
        "docker",
        "uv",
        "poetry",
        "make",
        "kubectl",
        "gh",
        "dotnet",
        "terraform",
    }
)


def error_signature(error_text: str) -> str:
    r"""Return the normalised signature of an error output ('' when there is none).

    >>> error_signature("bash: foo: command not found")
    'command not found: foo'
    >>> error_signature("Exit code 1\nnpm ERR! code ENOENT\nnpm ERR! syscall open")
    'npm error code enoent'
    """
    lines = [line.strip() for line in (error_text or "").splitlines()]
    lines = [line for line in lines if line]
    if lines and _EXIT_CODE.match(lines[0]):
        lines = lines[1:]
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


def command_signature(command: str) -> str:
    """Return a command normalised for counting repeats.

    Whitespace is collapsed; leading ``cd DIR &&`` steps (Claude Code's habit) and
    leading ``VAR=value`` assignments are dropped, the latter also because they may hold
    secrets. Case and arguments are kept: ``pytest -x`` and ``pytest`` stay different.

    >>> command_signature("cd /repo &&  FOO=1 pytest   -q")
    'pytest -q'
    """
    text = _SPACES.sub(" ", command or "").strip()
    previous = None
    while previous != text:
        previous = text
        text = _LEADING_CD.sub("", _LEADING_ENV.sub("", text))
    return text[:MAX_COMMAND_CHARS]


def program_and_target(command: str) -> tuple[str, str]:
    """Return the program (with its subcommand where it has one) and its main target.

    Runners are looked through (``uv run``, ``poetry run``, ``npx``, ``python -m``), so
    one program run different ways pairs up. The target is the first path-like argument,
    else the first argument that is not a flag, else ``''``.

    >>> program_and_target("cd /repo && python -m pytest tests/test_x.py -x 2>&1 | tail")
    ('pytest', 'tests/test_x.py')
    >>> program_and_target("git -C repo push origin main")
    ('git push', 'origin')
    """
    words = _first_simple_command(_split(command_signature(command)))
    words = _unwrap(words)
    if not words:
        return "", ""
    program = words[0].rsplit("/", 1)[-1]
    rest = words[1:]
    if program in _WITH_SUBCOMMAND:
        rest = _skip_global_options(program, rest)
        if rest:
            program, rest = f"{program} {rest[0]}", rest[1:]
    return program, _target(rest)


def _split(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain words
        return command.split()


def _first_simple_command(words: list[str]) -> list[str]:
    """Return the words before the first operator (``&&``, ``|``, ``;``, a redirection)."""
    for index, word in enumerate(words):
        if set(word) <= _OPERATOR_CHARS:
            return words[:index]
    return words


def _unwrap(words: list[str]) -> list[str]:
    """Drop wrappers (``sudo``, ``env A=1``) and runners until the real program."""
    previous: list[str] | None = None
    while words and words != previous:
        previous = words
        while words and (_ENV_ASSIGNMENT.match(words[0]) or words[0] in _WRAPPERS):
            words = words[1:]
        words = _drop_runner(words)
    return words


def _drop_runner(words: list[str]) -> list[str]:
    for runner in _RUNNERS:
        if tuple(words[: len(runner)]) == runner:
            rest = words[len(runner) :]
            return rest[next((i for i, w in enumerate(rest) if not w.startswith("-")), 0) :]
    if words[1:2] == ["-m"] and _PYTHON.fullmatch(words[0].rsplit("/", 1)[-1]):
        return words[2:] or words
    return words


def _skip_global_options(program: str, words: list[str]) -> list[str]:
    """Skip options before the subcommand, with the value of ``git -C``/``-c``."""
    index = 0
    while index < len(words) and words[index].startswith("-"):
        takes_value = program == "git" and words[index] in ("-C", "-c")
        index += 2 if takes_value else 1
    return words[index:]


def _target(words: list[str]) -> str:
    """Return the first path-like argument (``file.py::test_id`` counts as ``file.py``)."""
    arguments = [w.split("::", 1)[0] for w in words if not w.startswith("-")]
    pathlike = [w for w in arguments if "/" in w or _FILE_NAME.search(w)]
    return (pathlike or arguments or [""])[0]
