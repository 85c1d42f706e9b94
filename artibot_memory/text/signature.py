r"""Error signatures: the identity of a failure, the same run after run and machine to machine.

A signature is made from the error itself: the exception's class and message, the error
code, the failing test. It is never made from what merely surrounds an error: a runtime
banner (``Node.js v20.20.2``), a wrapper's verdict (``npm ERR! Test failed``, make's
``*** [test] Error 1``), a progress bar, a timing, a stack frame or an echoed command. Two
failures share a signature when they are the same error, and a stored fix is offered
again on that signature alone, so a banner-made signature would tell an unrelated failing
``assert`` it was fixed before.

>>> error_signature("Exit code 1\nTraceback (most recent call last):\n"
...                 '  File "/srv/app/main.py", line 1, in <module>\n'
...                 "ModuleNotFoundError: No module named 'requests'")
"modulenotfounderror: no module named 'requests'"

**The telling line.** The output is read as lines, and each line that can name the failure
is ranked by what it is; the best rank wins, and within a rank the first line, or the last
for exceptions. From best to worst:

1. a failed test, with its id: pytest's ``FAILED path::test - message`` (or ``ERROR``),
   the message taken from the test's own ``E`` lines, since the summary line is cut to
   the terminal's width (``- FileNo...`` at the 80 columns a command gets under Claude
   Code); unittest's and Django's ``FAIL: test (id)`` with the exception under it; jest's
   ``● suite › test`` and its first message line; vitest's ``FAIL file > suite > test``
   and the error under it; node's test runner (TAP's ``not ok 2 - name`` with its
   ``error:``, or spec's ``✖ name`` with the message, read the same); go's ``--- FAIL:
   TestX`` with its ``file_test.go:N:`` line. A test's message is mostly a template
   (``assert 5 == 4``), so the test's name is what tells two apart:

   >>> error_signature("FAILED tests/test_cart.py::test_total - assert 5 == 4")
   'failed test_cart.py::test_total - assert <n> == <n>'

2. an exception or a crash: ``command not found``, Rust's and Go's panics, then
   Python's ``Name: message`` (the last one: a chained traceback ends with the exception
   that escaped; a dotted ``module.Name:`` counts whatever the name), Node's ``TypeError:
   …`` and ``Error [ERR_X]: …``. An ``AssertionError`` or a ``SyntaxError`` gets the
   project file it was raised in (`` @ test.js``), for the same reason as a test's name:

   >>> error_signature("AssertionError [ERR_ASSERTION]: Expected values to be strictly "
   ...                 "equal:\n\n4 !== 3\n\n    at Object.<anonymous> (/srv/b/test.js:3:8)")
   'assertionerror [err_assertion]: expected values to be strictly equal: @ test.js'

3. a coded diagnostic, the first: rustc's ``error[E0425]``, tsc's ``error TS2345``, a
   ``file:line[:col]: error:`` of gcc, javac, mypy or go, a ``file:line:col: F401`` of a
   linter, an eslint row (``1:9 error … no-undef``), npm's ``code E404`` with the line
   that explains it, pip's ``ERROR:``, docker's ``Error response from daemon:``, git's
   ``CONFLICT`` and ``! [rejected]``;
4. a tool's plain ``error:`` or ``fatal:`` line (git, cargo, psql, make's ``No rule to
   make target``), npm's own ``npm error`` message;
5. the last line with an error word in it (``cannot``, ``denied``, ``failed`` …);
6. a wrapper's verdict, only when nothing above it said more: make's ``*** [target]
   Error N``, npm's ``ELIFECYCLE``, ``Test failed`` and ``Lifecycle script … failed``,
   yarn's and pnpm's ``Command failed``, cargo's ``could not compile``, docker's ``process
   … did not complete successfully``, Python's ``CalledProcessError``, Claude Code's
   ``Command timed out``;
7. the last line left.

Lines never taken (rank 1 to 6): banners and version lines, stack frames (``at
Object.<anonymous> (…)``, ``File "…", line N``), ``Traceback (most recent call last):``,
pytest's session header and ``===`` rules, test counts and timings, npm's ``A complete log
of this run…`` and its ``path``/``errno`` lines, the echo of an npm or yarn script
(``> app@1.0.0 test``, ``$ jest``), warnings, hints and notes, progress bars. Only when
nothing else is left does the last line stand, so a banner alone gives a signature that
:func:`is_specific` rejects:

>>> error_signature("Exit code 1\nnpm ERR! Test failed.  See above for more details.")
'npm error test failed. see above for more details.'
>>> is_specific(error_signature("Exit code 1\n\nNode.js v20.20.2"))
False

Before the lines are read, ANSI colours go, a line rewritten with ``\r`` keeps its last
state, docker's ``#8 2.013`` step prefixes and pip's and uv's box (``╰─▶``) go, npm's
``npm ERR!`` (npm 6 to 9) reads as npm 10's ``npm error``, and a cut (Claude Code's ``...
[N characters truncated] ...``, the journal's ``…[N chars trimmed]…``) takes the broken line
on each side of it along, so a long output that keeps the error gives the same signature
as the short one:

>>> error_signature("Error: Cannot fi\n... [9000 characters truncated] ...\nule 'x'\n"
...                 "KeyError: 'id'")
"keyerror: 'id'"

**Normalised.** What changes from one run or machine to the next becomes a placeholder
or goes: a path keeps only its file name (``/home/ana/shop/src/app.js`` and ``src/app.js``
are ``app.js``: no signature holds an absolute path), URLs become ``<url>``, timestamps
``<time>``, UUIDs ``<uuid>``, hex and hashes ``<hex>``, long random ids ``<id>``,
temp names ``<tmp>``, IP addresses ``<ip>``, every other number ``<n>`` (line numbers,
ports, durations, versions), a quoted value over 40 characters ``'<str>'``; typographic
quotes become plain ones and the text is lower-cased. A short quoted value stays, so a
missing ``'requests'`` differs from a missing ``'flask'``, and codes keep their digits
(``E0425``, ``TS2345``, ``ERR_ASSERTION``).

>>> error_signature("Error [ERR_MODULE_NOT_FOUND]: Cannot find module "
...                 "'/home/ana/web/src/lib/db.js' imported from /home/ana/web/src/index.js")
"error [err_module_not_found]: cannot find module 'db.js' imported from index.js"

**The exit code.** Claude Code's Bash tool starts a failure's error text with an ``Exit code
N`` line (``Error: Exit code N`` in some versions), then the command's output. The journal
keeps the code (:func:`exit_code`, the one reader of that line), the session summary shows
it, and the signature leaves the line out: the same failure may exit 1 or 2. The code
counts only as the whole first non-blank line, so output that merely begins with those
words keeps its text and has no code. It lives here, beside the signature that always goes
with it, so a failure's hook loads one module for both.

**Cheap to load.** The module runs on the hook after every failed call and imports nothing
but ``re``. Its patterns are kept as strings, which ``re`` compiles on first use and caches:
a failure compiles only the patterns its output reaches (a traceback never compiles npm's),
and most lines are sorted by plain prefixes and substrings before any pattern is tried.
A command's signature is :func:`~artibot_memory.text.shell.command_signature`.
"""

from __future__ import annotations

import re

# Claude Code's first line of a failed Bash call: read by exit_code, left out of signatures.
_EXIT_LINE = r"\s*(?:Error: )?Exit code (-?\d+)[ \t]*(?:\r?\n|\Z)"

MAX_SIGNATURE_CHARS = 200
MAX_QUOTED_CHARS = 40
_NEAR = 12  # lines searched around a test's name for its message
_FRAMES = 40  # lines searched around an assertion for the file that raised it
_MIN_WORDS = 2  # what a specific signature says about its error, beyond templates

# --- cleaning the output before its lines are read ------------------------------------------
_ANSI = r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])"
# A cut: Claude Code's (head, marker, tail), then the journal's (text/trim.py).
_CUT = r"\n?\.\.\. \[\d+ (?:characters|lines) truncated\] \.\.\.\n?| …\[\d+ chars trimmed\]… "
_DOCKER_STEP = r"^#\d+ (?:\d+\.\d+ )?|^\d+\.\d{3} "
_DECORATION = "×╰─▶│"  # the box pip and uv draw around an error: "× …", "╰─▶ because …"
_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})

# --- lines that never name the failure (read lower-cased) -----------------------------------
# Prefixes and substrings cost nothing to load; only what needs a pattern is one.
_NOISE_PREFIXES = (
    *("node.js v", "bun v", "deno ", "eslint: "),  # runtime banners
    *("at ", 'file "', "traceback", "during handling of the above", "the above exception was"),
    *("^", "│", "|", "===", "___", "!!!", "***", "⎯⎯⎯"),  # carets, code frames, rules
    *("platform ", "rootdir:", "configfile:", "cachedir:", "testpaths:", "plugins:"),  # pytest
    *("collected ", "collecting "),
    *("test suites:", "tests:", "test files:", "snapshots:", "time:", "start at", "duration:"),
    *("ran all test suites", "summary of all failing tests", "✖ failing tests", "ℹ "),
    *("# ", "npm warn", "npm notice", "npm info", "npm verb", "npm http"),  # TAP's comments
    *("npm error path ", "npm error syscall ", "npm error errno ", "npm error workspace "),
    *("npm error location ", "npm error command sh ", "npm error command cmd "),
    *("> ", "$ ", "+ ", ">>> ", "yarn run v", "[warn", "[info]", "[debug]", "building with "),
)
_NOISE = (
    r"node:[\w/]+:\d+$|~*\^[\^~]*$|-{3,}$|\.{3}$|#+$|(?:run|dev) +v\d|"
    r"(?:warn(?:ing)?|hint|note|help|info|debug)\b|done \d|cached$|\[internal\] |transferring |"
    r"(?:\S+ )?[.fesx]+ +\[ *\d+%\]$|\S+::\S+ (?:passed|failed|error)|✖ \d+ problem|"
    r"\d+ (?:failed|passed|errors?|skipped|deselected)\b|found \d+ (?:error|problem|warning)|"
    r"npm error (?:a complete log|log files|\S*debug(?:-\d+)?\.log$|$|\s+\S+\.log$)"
)
_PROGRESS = r"━━|\d%\||eta \d+:\d\d|\[#+ *\]| \d+/\d+ \[\d"
# What a line must hold for those two to match: the first character of each alternative of
# _NOISE (or the "%]" and "::" of the two that may start anywhere), a piece of each of
# _PROGRESS. Most lines hold none, and neither pattern is compiled for them.
_NOISE_FIRST = frozenset("n~^-.#rdwhict[✖f0123456789")
_NOISE_ANYWHERE = ("%]", "::")
_PROGRESS_PIECES = ("━━", "%|", "eta ", "[#", "/")

# --- rank 1: a failed test -----------------------------------------------------------------
_TEST_STARTS = ("FAILED ", "ERROR", "● ", "FAIL", "not ok ", "✖ ", "--- FAIL: ")
_PYTEST = r"^(FAILED|ERROR) (\S+::\S.*?)(?: - (.*))?$"
_PYTEST_E = r"^E\s+(\S.*)$"
_PYTEST_SECTION = r"^_{3,} (?:ERROR at (?:setup|teardown) of )?(.+?) _{3,}$"
_JEST = r"^● (?!Console$)(.+)$"  # "● Console" holds a test's console.log output
_VITEST = r"^FAIL\s+(\S+ > .+)$"
_TAP = r"^not ok \d+ - (.+?)(?: # .*)?$"
_TAP_ERROR = r"^error: (?:\|-?$|'(.*)'$|(.+)$)"
_NODE_SPEC = r"^✖ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$"
_GO_FAIL = r"^--- FAIL: (\S+)"
_GO_MESSAGE = r"^\S+_test\.go:\d+: "
_UNITTEST = r"^(FAIL|ERROR): (\w+) \(([\w.]+)\)"

# --- rank 2: an exception or a crash -------------------------------------------------------
# Errors whose message is a template, told apart by the file they were raised in.
_LOCATED = ("AssertionError", "SyntaxError", "IndentationError", "TabError")
_EXCEPTION_WORDS = ("Error", "Exception", "Exit", "Interrupt", "StopIteration")
_EXCEPTION = (
    r"^(?:E\s+|Uncaught )?((?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*)?(?:Error|Exception|Exit|Interrupt)"
    r"|StopIteration|KeyboardInterrupt|(?:[a-z_]\w*\.)+[A-Z]\w*(?=: ))(?: \[(\w+)\])?(?::\s*(.*))?$"
)
_NOT_FOUND = (
    r"(?:^|:\s)(?:command not found: (?P<zsh>\S+)|(?P<bash>[^\s:'\"]+): (?:command )?not found$)"
)
_RUST_PANIC = r"^thread '(.+?)'(?: \(\d+\))? panicked at (.+?)(:)?$"
_GO_PANIC = r"^panic: (.+?)(?: \[recovered\])?$"
_PY_FRAME = r'^File "([^"]+)", line \d+'
_JS_FRAME = r"^at (?:.*?\()?((?:file://)?[^():]+):\d+:\d+\)?$"
_JS_HEADER = r"^(\S+\.[cm]?[jt]sx?):\d+$"
_LIBRARY = r"node_modules|site-packages|dist-packages|[/\\]lib[/\\]python|^<|^node:"

# --- rank 3 and 4: diagnostics and tool errors ---------------------------------------------
_DIAGNOSTIC = (
    r"^(?:error\[E\d+\]: |.*\berror TS\d+: |\S+:\d+(?::\d+)?: (?:fatal )?error: |"
    r"\S+:\d+:\d+: [A-Z]+\d+\b|"
    r"\S+\.go:\d+(?::\d+)?: |\d+:\d+\s+error\s|ERROR: |.*Error response from daemon: |"
    r"CONFLICT \(|! \[(?:remote )?rejected\]|Cannot connect to the Docker daemon)"
)
_NPM_DETAIL_NOISE = (
    r"^(?:code|syscall|path|errno|\S+ this is related|404\s*$|404 not found - |404 note that|"
    r"404 tarball|[a-z]+$|$)"
)
_HTTP_STATUS = r"^\d{3}\s+"
_TOOL_ERROR = r"^(?:error|fatal|FATAL|E|\w+: \*\*\*)(?:: | )\S|^\w[\w.-]*: (?:error|fatal): "

# --- rank 5 and 6: error words, wrappers ---------------------------------------------------
_KEYWORD = (
    r"\b(?:errors?|fatal|fail(?:ed|ure|s)?|not found|denied|cannot|can't|could not|no such|"
    r"unable|refused|invalid|undefined|panic|exception|conflict|rejected|timed out|missing)\b"
)
# A wrapper's verdict on a failure it ran: a last resort (read lower-cased, npm ERR! as npm error).
_WRAPPER_PREFIXES = (
    *("make: *** [", "error command failed", "elifecycle", "err_pnpm_", "exit status "),
    *("npm error code elifecycle", "npm error errno", "npm error test failed"),
    *("npm error lifecycle script", "npm error failed at the", "npm error in workspace"),
    *("npm error at location", "npm error exit status", "npm error this is probably not"),
    *("npm error signal ", "npm error error: command failed", "npm error command failed"),
    *("error: test failed", "subprocess.calledprocesserror", "calledprocesserror"),
    *("error: command failed", "command timed out", "failed to build"),
    *("error: failed to solve: process", "automatic merge failed", "error: failed to push"),
)
_WRAPPER_PARTS = (
    *("command failed with exit code", "could not compile", "aborting due to"),
    *("did not complete successfully", "subprocess-exited-with-error", "command errored out"),
    *("metadata-generation-failed", "encountered error while", "see above for"),
)
_WRAPPER = (
    r"make\[\d+\]: \*\*\* \[|npm error code \d+$|npm error \S+@\S+ \S+: `|"
    r"fail(?:\s+\S+\s+[\d.]+s)?$|aborting$"
)

# --- normalisation: order matters (URLs before paths, paths before numbers, hex before numbers)
# Each pattern with the substrings (of the lower-cased line) one of which it needs: a line
# without them skips the pattern, and the pattern is never compiled for it.
_DIGITS = tuple("0123456789")
_SUBSTITUTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (r"\b[A-Za-z][\w+.-]*://\S+", "<url>", ("://",)),
    (
        (
            r"\b\d{4}[-/]\d{2}[-/]\d{2}(?:[T _]\d{2}[:_]\d{2}(?:[:_]\d{2}(?:[.,_]\d+)?)?"
            r"(?:Z|[+-]\d{2}:?\d{2})?)?\b"
        ),
        "<time>",
        ("-", "/"),
    ),
    (r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b", "<time>", (":",)),
    (
        r"\b[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\b",
        "<uuid>",
        ("-",),
    ),
    (r"\b0x[0-9a-fA-F]+\b", "<hex>", ("0x",)),
    # A path keeps its file name: absolute, home, Windows, and relative ones with an extension.
    (r"(?<![\w.])[A-Za-z]:\\(?:[^\s'\"`:;,()\[\]{}<>\\]*\\)*", "", (":\\",)),
    (r"(?<![\w/.~:-])(?:~|\.{1,2})?/(?:[^\s'\"`:;,()\[\]{}<>/]*/)*(?=[^\s/])", "", ("/",)),
    (r"(?<![\w/.@-])(?:[\w.-]+/)+(?=[\w-]+(?:\.\w+)*\.[A-Za-z]\w*\b)", "", ("/",)),
    (r"\b[Tt][Mm][Pp][\w-]{4,}", "<tmp>", ("tmp",)),
    (r"\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{6,}\b", "<hex>", _DIGITS),
    (
        r"\b(?=[a-zA-Z0-9]*\d[a-zA-Z0-9]*\d)(?=[a-zA-Z0-9]*[a-zA-Z])[a-zA-Z0-9]{20,}\b",
        "<id>",
        _DIGITS,
    ),
    (r"\b\d{1,3}(?:\.\d{1,3}){3}\b", "<ip>", (".",)),
    (r"(?<![\w.])\d+(?:\.\d+)*", "<n>", _DIGITS),
)
_LONG_QUOTED = (
    r"'[^'\n]{%d,}'|\"[^\"\n]{%d,}\"" % (MAX_QUOTED_CHARS + 1, MAX_QUOTED_CHARS + 1)  # noqa: UP031
)

# --- is_specific --------------------------------------------------------------------------
_KIND = (
    r"(?:^|\s)(?:[a-z_][\w.]*(?:error|exception)|error|fatal|panic|panicked|command not found)\b"
    r"|\b(?:err_[a-z_]+|e\d{3,5}|ts\d{3,5}|code e[a-z0-9]{2,})\b"
)
_FILE_NAME = r"\b[\w-]+\.[a-z]{1,4}\b(?::<n>)*"
_WORD = r"'[^']+'|`[^`]+`|\"[^\"]+\"|[a-z_][a-z0-9_]{2,}"
_NAME = r"[a-z_][a-z0-9_]+"
_GENERIC_WORDS = frozenset(
    "error errors exception fatal panic panicked failed failure fail assertionerror assert "
    "assertion err_assertion expected received actual values value strictly deep deeply equal "
    "equality object tobe toequal tostrictequal true false truthy falsy evaluated expression "
    "left right want got the and was were not with for from see above more details test tests "
    "command exit code status script lifecycle npm make process complete successfully returned "
    "non zero thread main while raised invalid syntax unexpected token".split()
)


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
    found = re.match(_EXIT_LINE, text)
    if found is None:
        return None, text
    return int(found[1]), text[found.end() :]


def error_signature(error_text: str) -> str:
    r"""Return the normalised signature of an error output ('' when there is none).

    >>> error_signature("bash: foo: command not found")
    'command not found: foo'
    >>> error_signature("Exit code 2\nsrc/a.ts(3,7): error TS2322: Type 'string' is not "
    ...                 "assignable to type 'number'.")
    "a.ts(<n>,<n>): error ts2322: type 'string' is not assignable to type 'number'."
    """
    _, rest = exit_code(error_text or "")
    lines = _lines(rest)
    return _normalise(_telling(lines))[:MAX_SIGNATURE_CHARS].rstrip() if lines else ""


def is_specific(signature: str) -> bool:
    """Tell whether a signature names its error well enough to offer another project's fix.

    It must name a kind of error (an exception class, an error code, or a tool's
    ``error``/``fatal``/``panic`` label) and say something about it: two words, or one
    word and a quoted name, beyond the vocabulary of assertions and wrappers. A failed
    assertion's template (``assert <n> == <n>``, ``expected values to be strictly
    equal``), a bare class, a wrapper's verdict and a banner do not.

    >>> is_specific("modulenotfounderror: no module named 'requests'")
    True
    >>> is_specific("error[e0425]: cannot find value `totl` in this scope")
    True
    >>> is_specific("assertionerror [err_assertion]: expected values to be strictly equal: @ a.js")
    False
    >>> is_specific("make: *** [makefile:<n>: test] error <n>")
    False
    """
    text = signature.strip().lower().split(" @ ")[0]
    kind = re.search(_KIND, text)
    probe = text.replace("<n>", "0")  # a banner's own numbers are placeholders by now
    if not kind or _wrapper(probe) or _noise(probe):
        return False
    said = [w for w in re.findall(_WORD, re.sub(_FILE_NAME, " ", text[kind.end() :])) if _tells(w)]
    if kind[0].strip() == "command not found":  # the missing program is the whole message
        return bool(said)
    return len(said) >= _MIN_WORDS or any(w[0] in "'`\"" for w in said)


def _tells(word: str) -> bool:
    """Tell a word beyond the templates' vocabulary, or a quoted value that holds one."""
    if word[0] in "'`\"":
        return any(name not in _GENERIC_WORDS for name in re.findall(_NAME, word))
    return word not in _GENERIC_WORDS


# --- reading the output -------------------------------------------------------------------


class _Output:
    """An output's cleaned lines, and those of them that are not noise (with their index)."""

    __slots__ = ("kept", "lines")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.kept = [(i, line) for i, line in enumerate(lines) if not _noise(line)]

    def after(self, start: int) -> str:
        """Return the first line after ``start`` that is not noise, or ''."""
        return next((x for x in self.lines[start + 1 : start + _NEAR] if not _noise(x)), "")


def _lines(text: str) -> list[str]:
    """Return the output's non-blank lines, without colour, rewrites, cuts, step prefixes."""
    text = re.sub(_ANSI, "", text) if "\x1b" in text else text
    lines = []
    for raw in _uncut(text.replace("\r\n", "\n")).split("\n"):
        line = raw.rsplit("\r", 1)[-1] if "\r" in raw else raw
        line = re.sub(_DOCKER_STEP, "", line) if line[:1] in "#0123456789" else line
        line = line.strip().lstrip(_DECORATION).lstrip()
        if line.startswith("npm ERR!"):  # npm 6 to 9; npm 10 on prints "npm error"
            line = "npm error" + line[8:]
        if line:
            lines.append(line)
    return lines


def _uncut(text: str) -> str:
    """Drop each cut with the broken line on each side of it: half a line misleads."""
    pieces = re.split(_CUT, text) if "truncated] ..." in text or "trimmed]…" in text else [text]
    for k in range(len(pieces)):
        if k < len(pieces) - 1:
            pieces[k] = pieces[k].rpartition("\n")[0]
        if k > 0:
            pieces[k] = pieces[k].partition("\n")[2]
    return "\n".join(pieces)


def _telling(lines: list[str]) -> str:
    """Return the text that names the failure, trying the surest kinds of line first."""
    out = _Output(lines)
    for pick in (_failed_test, _exception, _diagnostic, _tool_error, _keyword_line, _wrapper_line):
        found = pick(out)
        if found:
            return found
    return out.kept[-1][1] if out.kept else lines[-1]


def _noise(line: str) -> bool:
    low = line.lower()
    if low.startswith(_NOISE_PREFIXES):
        return True
    if (low[:1] in _NOISE_FIRST or any(p in low for p in _NOISE_ANYWHERE)) and re.match(
        _NOISE, low
    ):
        return True
    return any(p in low for p in _PROGRESS_PIECES) and re.search(_PROGRESS, low) is not None


def _wrapper(line: str) -> bool:
    low = line.lower()
    return (
        low.startswith(_WRAPPER_PREFIXES)
        or any(part in low for part in _WRAPPER_PARTS)
        or bool(re.match(_WRAPPER, low))
    )


# --- rank 1: a failed test ----------------------------------------------------------------


def _failed_test(out: _Output) -> str:
    for i, line in out.kept:
        if line.startswith(_TEST_STARTS):
            found = (
                _pytest(out, line)
                or _unittest(out, i, line)
                or _jest(out, i, line)
                or _vitest(out, i, line)
                or _node_test(out, i, line)
                or _go_test(out, i, line)
            )
            if found:
                return found
    return ""


def _pytest(out: _Output, line: str) -> str:
    """Return ``FAILED path::test - message``, the message from the test's own ``E`` lines.

    The summary line is cut to the terminal's width (``- FileNo...`` at 80 columns, the
    width a command run by Claude Code gets), so it stands only when the test's section
    of the report is not in the output.
    """
    found = re.match(_PYTEST, line)
    if not found:
        return ""
    status, test, summary = found.groups()
    message = _pytest_section(out.lines, test.split("::", 1)[1].replace("::", "."))
    if not message:
        message = (summary or "").removesuffix("...").strip()
    if not message:
        message = next((m[1] for m in (re.match(_PYTEST_E, x) for x in out.lines) if m), "")
    return f"{status} {test} - {message}" if message else f"{status} {test}"


def _pytest_section(lines: list[str], name: str) -> str:
    """Return the exception (the last) or else the first ``E`` line of one test's report."""
    start = next((i for i, x in enumerate(lines) if _section_name(x) == name), -1)
    errors = []
    for line in lines[start + 1 :] if start >= 0 else ():
        if line.startswith(("___", "===")):
            break
        found = re.match(_PYTEST_E, line)
        if found:
            errors.append(found[1])
    raised = [e for e in errors if _could_raise(e) and re.match(_EXCEPTION, e)]
    return (raised[-1:] or errors[:1] or [""])[0]


def _section_name(line: str) -> str:
    found = re.match(_PYTEST_SECTION, line) if line.startswith("___") else None
    return found[1] if found else ""


def _unittest(out: _Output, i: int, line: str) -> str:
    """Return unittest's (and Django's) ``FAIL: test (id)`` with the exception under it."""
    found = re.match(_UNITTEST, line)
    if not found:
        return ""
    raised = ""
    for follow in out.lines[i + 1 :]:
        if follow.startswith(("---", "===")) and raised:
            break
        if _could_raise(follow) and re.match(_EXCEPTION, follow):
            raised = follow
    test = f"{found[1].lower()}: {found[3]}"
    return f"{test} - {raised}" if raised else test


def _jest(out: _Output, i: int, line: str) -> str:
    found = re.match(_JEST, line)
    if not found:
        return ""
    title, message = found[1], out.after(i)
    if title == "Test suite failed to run":
        return f"test suite failed to run: {message}"
    return f"{title}: {message}" if message else title


def _vitest(out: _Output, i: int, line: str) -> str:
    found = re.match(_VITEST, line)
    return f"{found[1]}: {out.after(i)}" if found else ""


def _node_test(out: _Output, i: int, line: str) -> str:
    """Read node's test runner: TAP (``not ok``, then ``error:``) or spec (``✖``, the error)."""
    found = re.match(_TAP, line)
    if found:
        for k in range(i + 1, min(i + _NEAR, len(out.lines))):
            error = re.match(_TAP_ERROR, out.lines[k])
            if error:
                return f"{found[1]}: {error[1] or error[2] or out.after(k)}"
        return found[1]
    found = re.match(_NODE_SPEC, line)
    if not found:
        return ""
    message = out.after(i)
    error = re.match(_EXCEPTION, message) if _could_raise(message) else None
    return f"{found[1]}: {error[3] if error and error[3] else message}"


def _go_test(out: _Output, i: int, line: str) -> str:
    """Return ``--- FAIL: TestX`` and its ``x_test.go:N:`` line, after it (before, under -v)."""
    found = re.match(_GO_FAIL, line)
    if not found:
        return ""
    after = [m for m in out.lines[i + 1 : i + _NEAR] if re.match(_GO_MESSAGE, m)]
    before = [m for m in out.lines[max(i - _NEAR, 0) : i] if re.match(_GO_MESSAGE, m)]
    message = (after[:1] or before[-1:] or [""])[0]
    return f"--- fail: {found[1]}: {message}" if message else f"--- fail: {found[1]}"


# --- rank 2: an exception or a crash ------------------------------------------------------


def _exception(out: _Output) -> str:
    """Return a missing command, else a panic (the first), else the last exception line."""
    for _, line in out.kept:
        missing = re.search(_NOT_FOUND, line) if "not found" in line else None
        if missing:
            return f"command not found: {missing['zsh'] or missing['bash']}"
    for i, line in out.kept:
        if line.startswith(("thread '", "panic: ")):
            panic = _panic(out, i, line)
            if panic:
                return panic
    found = [
        (i, m)
        for i, line in out.kept
        if _could_raise(line) and (m := re.match(_EXCEPTION, line)) and not _wrapper(line)
    ]
    if not found:
        return ""
    i, match = found[-1]
    line = re.sub(r"^(?:E\s+|Uncaught )", "", match[0])
    where = _raised_in(out.lines, i) if match[1].endswith(_LOCATED) else ""
    return f"{line} @ {where}" if where else line


def _could_raise(line: str) -> bool:
    """Tell, cheaply, whether a line may be an exception, before the pattern says."""
    return any(word in line for word in _EXCEPTION_WORDS) or ("." in line and ": " in line)


def _panic(out: _Output, i: int, line: str) -> str:
    rust = re.match(_RUST_PANIC, line)
    if rust and rust[3]:  # Rust 1.73 on: the message is on the next line
        return f"thread '{rust[1]}' panicked at {rust[2]}: {out.after(i)}"
    if rust:
        return f"thread '{rust[1]}' panicked at {rust[2]}"
    return line if re.match(_GO_PANIC, line) else ""


def _raised_in(lines: list[str], i: int) -> str:
    """Return the project file an assertion was raised in: Python's last frame, Node's first."""
    for line in reversed(lines[max(i - _FRAMES, 0) : i]):
        frame = re.match(_PY_FRAME, line) if line.startswith("File ") else None
        if frame and not re.search(_LIBRARY, frame[1]):
            return frame[1]
    for line in lines[i + 1 : i + _FRAMES]:
        frame = re.match(_JS_FRAME, line) if line.startswith("at ") else None
        if frame and not re.search(_LIBRARY, frame[1]):
            return frame[1]
    for line in reversed(lines[max(i - _FRAMES, 0) : i]):  # node's "/app/x.js:3" header
        header = re.match(_JS_HEADER, line)
        if header and not re.search(_LIBRARY, header[1]):
            return header[1]
    return ""


# --- rank 3 to 6: diagnostics, tool errors, error words, wrappers --------------------------


def _diagnostic(out: _Output) -> str:
    """Return the first coded diagnostic; npm's code comes with the line that explains it."""
    npm = _npm_code(out)
    if npm:
        return npm
    found = next((x for _, x in out.kept if re.match(_DIAGNOSTIC, x) and not _wrapper(x)), "")
    daemon = found.find("Error response from daemon: ")  # docker run says "docker: " first
    return found[daemon:] if daemon > 0 else found


def _npm_code(out: _Output) -> str:
    messages = [line[9:].strip() for _, line in out.kept if line.startswith("npm error")]
    code = next((m[5:].strip() for m in messages if m.startswith("code ")), "")
    if not code or _wrapper(f"npm error code {code}"):
        return ""
    detail = next((m for m in messages if not _npm_noise(m)), "")
    return f"npm error code {code} {re.sub(_HTTP_STATUS, '', detail)}".strip()


def _npm_noise(message: str) -> bool:
    return bool(re.match(_NPM_DETAIL_NOISE, message.lower()))


def _tool_error(out: _Output) -> str:
    for _, line in out.kept:
        if _wrapper(line):
            continue
        if line.startswith("npm error") and not _npm_noise(line[9:].strip()):
            return line
        if re.match(_TOOL_ERROR, line):
            return line
    return ""


def _keyword_line(out: _Output) -> str:
    found = [x for _, x in out.kept if re.search(_KEYWORD, x.lower()) and not _wrapper(x)]
    return found[-1] if found else ""


def _wrapper_line(out: _Output) -> str:
    return next((x for _, x in out.kept if _wrapper(x)), "")


def _normalise(line: str) -> str:
    line = line.translate(_QUOTES)
    for pattern, placeholder, needs in _SUBSTITUTIONS:
        low = line.lower()
        if any(need in low for need in needs):
            line = re.sub(pattern, placeholder, line)
    if len(line) > MAX_QUOTED_CHARS and ("'" in line or '"' in line):
        line = re.sub(_LONG_QUOTED, lambda m: f"{m[0][0]}<str>{m[0][0]}", line)
    return " ".join(line.split()).lower()
