r"""Reading shell command lines: the one reader behind pairing, test runs and command tags.

Claude Code runs Bash lines such as ``cd app && uv run pytest tests/x.py -x 2>&1 | tail``.
What the memory needs of one is *what ran on what*, here ``pytest`` on ``tests/x.py``.
Ingest (pairing an error with its fix), the session summary (the same pairing, and telling
test runs) and auto-tags all read commands here, so they reach the same answer.

How a line is read, step by step:

- **Words.** Quotes and backslashes work as in the shell (``'a b'`` is one word ``a b``);
  ``$(...)``, ``${...}`` and backticks stay inside their word. A ``#`` that starts a word
  comments out the rest of the line; a backslash-newline joins two lines. A line whose
  quotes (or ``$(``) do not balance falls back to plain whitespace-separated words, quotes
  kept (``echo 'oops`` is ``echo`` and ``'oops``), and operators still count where they stand
  alone or lead a word.
- **Statements.** ``&&``, ``||``, ``;``, ``&``, a newline, ``(`` and ``)`` end a statement. Each
  statement is read on its own: nothing is assumed about which ones ran. The body of a
  here-document (``<<EOF`` ... ``EOF``) is skipped. At most 20 statements are read.
- **Pipes.** Of ``a | b`` (or ``a |& b``) only the head ``a`` counts: in ``pytest 2>&1 | tail``
  pytest runs, tail only trims its output.
- **Redirections** are dropped with their file, wherever they stand: ``2>&1``, ``>&2``,
  ``> out.txt``, ``>> log``, ``>| out.txt``, ``2>/dev/null``, ``&> all.log``, ``&>> all.log``,
  ``>& all.log``, ``1>&-``, ``< in.txt``, ``<<EOF``, ``<<< word``.
- **Prefixes** are dropped until the program: ``NAME=value`` assignments (``FOO=1 pytest``),
  shell keywords that lead a command (``if``, ``then``, ``do``, ``!``, ``{`` ...), wrappers with
  their options (``sudo -u ci``, ``env -i X=1``, ``time -p``, ``nice -n 5``, ``nohup``,
  ``command``, ``exec``, ``timeout 60``), and runners with their options (``uv run --with x``,
  ``poetry run``, ``pipenv run``, ``pdm run``, ``hatch run``, ``bundle exec``, ``pnpm exec``,
  ``npm exec``, ``npx``, ``bunx``, ``uvx``, ``python -m X``). A program run through a runner is
  the same program, so ``uv run pytest`` pairs with ``pytest``; the runners' own names are
  kept for tags (``python -m pytest`` is tagged python and pytest).
- **Program.** The base name of the first word left (``/usr/bin/python3`` is ``python3``).
  Programs with subcommands (git, npm, pnpm, yarn, cargo, go, docker, kubectl, gh, make,
  ...) are named with it, ``git push``, found after their global options and the values
  those take (``git -C dir -c k=v push``, ``cargo +nightly build``, ``kubectl -n ns get``).
  A subcommand is a name, so ``make build/x.o`` is ``make`` on ``build/x.o``.
- **Target.** The first argument that looks like a path (it has a ``/`` or a file
  extension; ``tests/x.py::test_a`` counts as ``tests/x.py``), else the first argument that
  is not a flag, else ``''``. Preferring a path makes ``pytest -k name tests/x.py`` about
  ``tests/x.py``. A statement's key is ``(program, target)``.
- **Bookkeeping.** ``cd``, ``pushd``, ``popd``, ``export``, ``unset``, ``source``, ``.``, ``set``,
  ``echo``, ``printf``, ``true``, ``false``, ``:``, ``sleep``, ``wait``, ``exit``, ``[`` and the
  keywords that close a block (``fi``, ``done``, ...) set the stage and are never a key. A
  line made of nothing else is keyed by them.
- **The line's key** is the key of its last statement that matters: ``npm ci && npm test``
  is about ``npm test``, the step the others prepare.
- **Test runs.** A line runs tests when a statement that matters is a test runner
  (``pytest``, ``jest``, ``vitest``, ``go test``, ``cargo test``, ``npm test``, ``make test``
  ...) or a package script named for tests (``npm run test:unit``).
- **Signature.** :func:`command_signature` is the whole line with its whitespace collapsed
  and only leading ``cd DIR &&`` (or ``;``) steps and ``VAR=value`` assignments dropped,
  capped at 300 characters: it counts repeats of a command, so ``-x`` stays.
- **Same attempt.** A success retries a failure when they have the same (non-empty)
  :func:`command_signature`; or a statement of the success has the failure's key; or the
  failure names no target, runs no tests, and a statement of the success runs the same
  program (``git push`` is fixed by ``git push -u origin main``, while a failing ``pytest``
  suite is not fixed by one file that passes). Ingest and the session summary both pair by
  this rule (:func:`same_attempt`, and :meth:`CommandLine.attempt_keys` against
  :meth:`CommandLine.fix_keys` for an index).

Where the readers this module replaces disagreed, the choices above are the ones a user
expects: ``2>&1`` is never a target, a retry through a runner (``uv run pytest tests/x.py``
after ``pytest tests/x.py -x 2>&1 | tail``) is the same attempt, the last statement of a
``&&`` chain is the one that counts, and ingest, like the summary, lets ``git push -u
origin x`` close a failed ``git push``.

The ``Exit code N`` line that heads a failed call's error text is read by
:func:`artibot_memory.text.signature.exit_code`, kept apart so a failure's hook need not load
this module.

>>> program_and_target("cd app && uv run pytest tests/x.py -x 2>&1 | tail")
('pytest', 'tests/x.py')
"""

from __future__ import annotations

import re

# typing is for checkers only: this module is loaded by hooks, and importing typing costs
# milliseconds.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "CommandLine",
    "Statement",
    "command_keys",
    "command_signature",
    "is_test",
    "program_and_target",
    "same_attempt",
    "statements",
]

Key = tuple[str, str]  # (program, target): ("git push", "origin"), ("pytest", "")

MAX_COMMAND_CHARS = 300  # of a command signature
MAX_READ_CHARS = 20_000  # of a line read into statements: a pasted script stays cheap
MAX_STATEMENTS = 20
MAX_PROGRAM_CHARS = 100
MAX_TARGET_CHARS = 200

# --- the command signature: the whole line, normalised for counting repeats ---------------

_SPACES = re.compile(r"\s+")
_LEADING_ENV = re.compile(r"^(?:[A-Za-z_]\w*=(?:'[^']*'|\"[^\"]*\"|\S*)\s+)+")
_LEADING_CD = re.compile(r"^cd\s+(?:'[^']*'|\"[^\"]*\"|\S+)\s*(?:&&|;)\s*")

# --- words and operators --------------------------------------------------------------------

_REDIRECT = r"(?:\d+|&)?(?:>>|>\||>|<<<|<<-|<<|<>|<)(?:&(?:\d+-?|-)?)?"
_OPERATOR = r"&&|\|\||\|&|;;&|;;|;&|[;&|()]"
_BLANKS = " \t\r\f\v\\\n"  # what may trail the last token (a backslash-newline is a blank)
_TOKEN = re.compile(
    rf"""
    (?:[ \t\r\f\v]|\\\n)*  # blanks before a token belong to it: half the matches
    (?:(?P<newline>\n)
    |(?P<comment>\#[^\n]*)
    |(?P<redirect>{_REDIRECT})
    |(?P<operator>{_OPERATOR})
    |(?P<word>(?:
        [^\s'"\\`$;&|()<>]+
        |'[^']*'
        |"(?:[^"\\]|\\.)*"
        |\\.
        |`[^`]*`
        # $(...) and ${...} are bounded: one left open is rescanned from each $ after it
        |\$\((?:[^()]|\((?:[^()]|\([^()]*\))*\)){{0,500}}\)
        |\$\{{[^{{}}\n]{{0,200}}\}}
        |\$
    )+))
    """,
    re.VERBOSE | re.DOTALL,
)
_REDIRECT_RE = re.compile(_REDIRECT)
_OPERATOR_RE = re.compile(_OPERATOR)
_FD_DUPLICATION = re.compile(r"&(?:\d+-?|-)$")  # 2>&1, >&2, <&-: no file follows
_QUOTED = re.compile(r"'([^']*)'|\"((?:[^\"\\]|\\.)*)\"|\\(.)|([^'\"\\]+)", re.DOTALL)
_DOUBLE_QUOTE_ESCAPE = re.compile(r"\\([$`\"\\\n])")
_SEPARATORS = frozenset({"&&", "||", ";", "&", ";;", ";&", ";;&", "(", ")"})

# --- prefixes, programs and targets -----------------------------------------------------------


def _names(text: str) -> frozenset[str]:
    """Read a whitespace-separated list of names, kept dense so the tables stay readable."""
    return frozenset(text.split())


_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")
_LEADING_KEYWORDS = _names("! { if then do else elif while until")
# wrapper: (its options that take a value, how many operands come before the program)
_WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "sudo": (_names("-u -g -h -p -C -D -r -t -T -U"), 0),
    "env": (_names("-u -C -S"), 0),
    "time": (_names("-f -o"), 0),
    "nice": (_names("-n"), 0),
    "nohup": (frozenset(), 0),
    "command": (frozenset(), 0),
    "exec": (_names("-a"), 0),
    "timeout": (_names("-s -k --signal --kill-after"), 1),
}
# runner (its words): its options that take a value
_RUNNERS: dict[tuple[str, ...], frozenset[str]] = {
    ("uv", "run"): _names(
        "--with --with-editable --with-requirements --python -p --package --extra --group"
        " --only-group --directory --project --env-file --index"
    ),
    ("poetry", "run"): _names("-C --directory -P --project"),
    ("pipenv", "run"): frozenset(),
    ("pdm", "run"): _names("-p --project"),
    ("hatch", "run"): frozenset(),
    ("bundle", "exec"): frozenset(),
    ("pnpm", "exec"): _names("-C --dir -F --filter"),
    ("npm", "exec"): _names("--package -w --workspace"),
    ("npx",): _names("-p --package"),
    ("bunx",): frozenset(),
    ("uvx",): _names("--with --from --python -p"),
}
_PYTHON = re.compile(r"python[\d.]*")
_PYTHON_FLAGS = re.compile(r"-[bBdEiIOPqRsSuv]+")  # options of python itself before -m
_PYTHON_VALUE_FLAGS = _names("-W -X")
# program: its global options (before the subcommand) that take a value
_SUBCOMMAND_TOOLS: dict[str, frozenset[str]] = {
    "git": _names("-C -c --git-dir --work-tree --namespace"),
    "docker": _names("-H --host --context -c --config -l --log-level"),
    "podman": _names("-c --connection --url"),
    "kubectl": _names("-n --namespace --context --cluster --kubeconfig -s --server --user"),
    "helm": _names("-n --namespace --kube-context --kubeconfig"),
    "npm": _names("--prefix -w --workspace"),
    "pnpm": _names("-C --dir -F --filter"),
    "yarn": _names("--cwd"),
    "cargo": _names("-C --config -Z --color"),
    "make": _names("-C -f --file -I -o -W"),
    "gh": _names("-R --repo"),
    "mvn": _names("-f --file -P -pl"),
    "gradle": _names("-p --project-dir"),
    "gradlew": _names("-p --project-dir"),
    **dict.fromkeys(
        _names(
            "bun pip pip3 pipx uv poetry hatch go dotnet terraform mix rake deno bd brew apt"
            " apt-get bundle rails conda rustup"
        ),
        frozenset(),
    ),
}
_SUBCOMMAND = re.compile(r"[A-Za-z][\w.:-]*")
_FILE_NAME = re.compile(r"\.\w{1,5}$")
# bookkeeping around the command that matters, never the key of a statement
_BOOKKEEPING = _names(
    "cd pushd popd export unset source . set shopt echo printf true false : sleep wait exit"
    " [ [[ for case select fi done esac }"
)
_TEST_PROGRAMS = frozenset(
    "pytest,py.test,jest,vitest,rspec,phpunit,ctest,tox,nox,mocha,unittest,go test,cargo test,"
    "cargo nextest,mix test,npm test,pnpm test,yarn test,bun test,deno test,dotnet test,"
    "make test,make check,rake test,rails test,gradle test,gradlew test,mvn test".split(",")
)


def command_signature(command: str) -> str:
    """Return a command normalised for counting repeats.

    Whitespace is collapsed; leading ``cd DIR &&`` steps (Claude Code's habit) and
    leading ``VAR=value`` assignments are dropped, the latter also because they may hold
    secrets. Case and arguments are kept: ``pytest -x`` and ``pytest`` stay different.
    At most 300 characters are kept.

    >>> command_signature("cd /repo &&  FOO=1 pytest   -q")
    'pytest -q'
    """
    text = _SPACES.sub(" ", command or "").strip()
    previous = None
    while previous != text:
        previous = text
        text = _LEADING_CD.sub("", _LEADING_ENV.sub("", text))
    return text[:MAX_COMMAND_CHARS]


class Statement:
    """The head simple command of one statement, read: runners, program, subcommand, arguments.

    >>> s = Statement(["sudo", "FOO=1", "python3", "-m", "pip", "install", "-U", "requests"])
    >>> s.runners, s.program, s.subcommand, s.arguments
    (('python3',), 'pip', 'install', ('-U', 'requests'))
    >>> s.key
    ('pip install', 'requests')
    """

    __slots__ = ("arguments", "program", "runners", "subcommand")

    def __init__(self, words: Iterable[str]) -> None:
        rest, runners = _unwrap(list(words))
        self.runners: tuple[str, ...] = tuple(runners)
        self.program = _base(rest[0]) if rest else ""
        subcommand, arguments = _subcommand(self.program, rest[1:])
        self.subcommand = subcommand
        self.arguments: tuple[str, ...] = tuple(arguments)

    def __repr__(self) -> str:
        """Show the name and arguments, what a test failure needs to tell statements apart."""
        return f"Statement({self.name!r}, arguments={self.arguments!r})"

    @property
    def name(self) -> str:
        """The program, with its subcommand when it has one: ``git push``, ``pytest``."""
        return f"{self.program} {self.subcommand}" if self.subcommand else self.program

    @property
    def target(self) -> str:
        """The first path-like argument, else the first that is not a flag, else ``''``."""
        arguments = [w.split("::", 1)[0] for w in self.arguments if not w.startswith("-")]
        pathlike = [w for w in arguments if "/" in w or _FILE_NAME.search(w)]
        return (pathlike or arguments or [""])[0]

    @property
    def key(self) -> Key:
        """``(program, target)``: what ran on what."""
        return self.name[:MAX_PROGRAM_CHARS], self.target[:MAX_TARGET_CHARS]

    @property
    def bookkeeping(self) -> bool:
        """True for ``cd``, ``export``, ``echo`` and the like: never the command that matters."""
        return self.program in _BOOKKEEPING


class CommandLine:
    """A command line read once: its signature, the statements that matter, their keys.

    >>> line = CommandLine("cd app && npm ci && npm test 2>&1 | tail -5")
    >>> line.keys, line.key, line.test, line.piped
    ((('npm ci', ''), ('npm test', '')), ('npm test', ''), True, True)
    """

    __slots__ = ("keys", "piped", "signature", "statements")

    def __init__(self, command: str) -> None:
        command = command or ""
        self.signature = command_signature(command)
        heads, self.piped = _heads(command[:MAX_READ_CHARS])
        read = [statement for statement in map(Statement, heads) if statement.program]
        self.statements = tuple([s for s in read if not s.bookkeeping] or read)
        # the key of each statement that matters, in order
        self.keys: tuple[Key, ...] = tuple(statement.key for statement in self.statements)

    @property
    def key(self) -> Key:
        """The key of the last statement that matters; ``('', '')`` when there is none."""
        return self.keys[-1] if self.keys else ("", "")

    @property
    def test(self) -> bool:
        """True when a statement that matters runs tests."""
        return any(_runs_tests(key) for key in self.keys)

    def attempt_keys(self) -> frozenset[tuple[str, ...]]:
        """Return what a later success must offer (:meth:`fix_keys`) to retry this failure.

        >>> sorted(CommandLine("git push 2>&1").attempt_keys())
        [('command', 'git push 2>&1'), ('key', 'git push', ''), ('program', 'git push')]
        """
        found: set[tuple[str, ...]] = {("command", self.signature)} if self.signature else set()
        program, target = self.key
        if program:
            found.add(("key", program, target))
            if not target and not self.test:
                found.add(("program", program))
        return frozenset(found)

    def fix_keys(self) -> frozenset[tuple[str, ...]]:
        """Return what this line, run with success, offers as the retry of an earlier failure.

        >>> sorted(CommandLine("git push -u origin x").fix_keys())  # doctest: +NORMALIZE_WHITESPACE
        [('command', 'git push -u origin x'), ('key', 'git push', 'origin'),
         ('program', 'git push')]
        """
        found: set[tuple[str, ...]] = {("command", self.signature)} if self.signature else set()
        for program, target in self.keys:
            found.update((("key", program, target), ("program", program)))
        return frozenset(found)


def statements(command: str) -> tuple[Statement, ...]:
    """Return the statements of a line that matter (bookkeeping only when there is nothing else).

    >>> [s.name for s in statements("cd x && git add . && git commit -m 'wip' | cat")]
    ['git add', 'git commit']
    """
    return CommandLine(command).statements


def command_keys(command: str) -> tuple[Key, ...]:
    """Return ``(program, target)`` of each statement of a line that matters.

    >>> command_keys("cd app && git push --set-upstream origin main 2>&1 | tail -3")
    (('git push', 'origin'),)
    """
    return CommandLine(command).keys


def program_and_target(command: str) -> Key:
    """Return the key of a line: the program (with its subcommand) and its main target.

    >>> program_and_target("cd /repo && python -m pytest tests/test_x.py -x 2>&1 | tail")
    ('pytest', 'tests/test_x.py')
    >>> program_and_target("git -C repo push origin main")
    ('git push', 'origin')
    """
    return CommandLine(command).key


def is_test(command: str) -> bool:
    """Tell whether a line runs tests.

    >>> is_test("npm run test:unit"), is_test("uv run pytest -q"), is_test("pip install pytest")
    (True, True, False)
    """
    return CommandLine(command).test


def same_attempt(failed: str, succeeded: str) -> bool:
    """Tell whether ``succeeded`` is a retry of ``failed`` (see the module docstring).

    >>> same_attempt("pytest tests/test_a.py -x 2>&1 | tail", "uv run pytest tests/test_a.py")
    True
    >>> same_attempt("pytest tests/test_a.py", "pytest tests/test_b.py")
    False
    """
    return not CommandLine(failed).attempt_keys().isdisjoint(CommandLine(succeeded).fix_keys())


def _runs_tests(key: Key) -> bool:
    program, target = key
    return program in _TEST_PROGRAMS or (program.endswith(" run") and target.startswith("test"))


# --- from a line to the head simple command of each statement ---------------------------------


def _heads(line: str) -> tuple[list[list[str]], bool]:
    """Return the words of each statement's head simple command, and whether a pipe was seen.

    Redirections are left out with their file; words after a pipe are dropped.
    """
    heads: list[list[str]] = []
    words: list[str] = []
    in_head, needs_file, piped = True, False, False
    for kind, text in _tokens(line):
        if kind == "operator":
            needs_file = False
            if text in _SEPARATORS:
                if words:
                    heads.append(words)
                words, in_head = [], True
            else:  # a pipe
                in_head, piped = False, True
        elif kind == "redirect":
            needs_file = not _FD_DUPLICATION.search(text)
        elif needs_file:
            needs_file = False
        elif in_head:
            words.append(text)
    if words:
        heads.append(words)
    return heads[:MAX_STATEMENTS], piped


def _tokens(line: str) -> list[tuple[str, str]]:
    """Split a line into ``(kind, text)`` tokens: word (unquoted), redirect, operator.

    A newline is the operator ``;``. Unbalanced quotes give :func:`_plain_tokens`.
    """
    tokens: list[tuple[str, str]] = []
    heredocs: list[str] = []  # delimiters whose bodies start at the next newline
    at = 0
    while at < len(line):
        at = _scan(line, at, tokens, heredocs)
        if at < 0:
            return _plain_tokens(line)
    return tokens


def _scan(line: str, at: int, tokens: list[tuple[str, str]], heredocs: list[str]) -> int:
    """Add the tokens from ``at`` on; return where a here-document body ends, or -1 on a gap.

    ``finditer`` skips what no token matches (an unbalanced quote): a gap means no parse.
    """
    for found in _TOKEN.finditer(line, at):
        if found.start() != at:
            return -1
        at, kind = found.end(), found.lastgroup or ""
        if kind == "newline":
            tokens.append(("operator", ";"))
            if heredocs:
                return _skip_heredocs(line, at, heredocs)
        elif kind == "word":
            text = found[kind]
            word = _unquote(text) if "'" in text or '"' in text or "\\" in text else text
            if tokens and _opens_heredoc(tokens[-1]):
                heredocs.append(word)
            tokens.append((kind, word))
        elif kind != "comment":
            tokens.append((kind, found[kind]))
    return len(line) if not line[at:].strip(_BLANKS) else -1


def _opens_heredoc(token: tuple[str, str]) -> bool:
    kind, text = token
    return kind == "redirect" and "<<" in text and "<<<" not in text


def _skip_heredocs(line: str, at: int, delimiters: list[str]) -> int:
    """Return where the line goes on after the here-document bodies that start at ``at``."""
    for delimiter in delimiters:
        end = re.compile(rf"^[ \t]*{re.escape(delimiter)}[ \t]*$", re.MULTILINE).search(line, at)
        at = end.end() if end else len(line)
    delimiters.clear()
    return at


def _plain_tokens(line: str) -> list[tuple[str, str]]:
    """Tokens of a line that does not parse: whitespace-separated words, quotes kept."""
    tokens: list[tuple[str, str]] = []
    for row in line.splitlines():
        for word in row.split():
            redirect = _REDIRECT_RE.match(word)
            if _OPERATOR_RE.fullmatch(word):
                tokens.append(("operator", word))
            elif redirect:
                tokens.append(("redirect", redirect[0]))
                if redirect.end() < len(word):
                    tokens.append(("word", word[redirect.end() :]))
            else:
                tokens.append(("word", word))
        tokens.append(("operator", ";"))
    return tokens


def _unquote(word: str) -> str:
    r"""Remove the shell's quoting from one word.

    >>> _unquote("'it'" + r"\''s\ " + r'"a \"b\""')
    'it\'s a "b"'
    """
    parts = []
    for single, double, escaped, plain in _QUOTED.findall(word):
        if double:
            parts.append(_DOUBLE_QUOTE_ESCAPE.sub(r"\1", double))
        else:
            parts.append(single or escaped or plain)
    return "".join(parts)


# --- from the words of a simple command to its program -------------------------------------------


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _unwrap(words: list[str]) -> tuple[list[str], list[str]]:
    """Drop assignments, leading keywords, wrappers and runners; return the rest and runners."""
    runners: list[str] = []
    at = 0
    while at < len(words):
        word, name = words[at], _base(words[at])
        if _ASSIGNMENT.match(word) or word in _LEADING_KEYWORDS:
            at += 1
        elif name in _WRAPPERS:
            takes_value, operands = _WRAPPERS[name]
            at = _skip_options(words, at + 1, takes_value) + operands
        else:
            after = _after_runner(words, at)
            if after is None:
                break
            runners.append(name)
            at = after
    return words[at:], runners


def _after_runner(words: list[str], at: int) -> int | None:
    """Where the program run by the runner at ``at`` starts; None when no runner is there."""
    name = _base(words[at])
    for size in (2, 1):
        runner = (name, *words[at + 1 : at + size])
        if len(runner) == size and runner in _RUNNERS:
            return _skip_options(words, at + size, _RUNNERS[runner])
    if _PYTHON.fullmatch(name):
        return _python_module(words, at + 1)
    return None


def _python_module(words: list[str], at: int) -> int | None:
    """Where the module of ``python [options] -m MODULE`` is; None for a script or ``-c``."""
    while at < len(words) - 1:
        word = words[at]
        if word == "-m":
            return at + 1
        if word in _PYTHON_VALUE_FLAGS:
            at += 2
        elif _PYTHON_FLAGS.fullmatch(word):
            at += 1
        else:
            return None
    return None


def _skip_options(words: list[str], at: int, takes_value: frozenset[str], marks: str = "-") -> int:
    """Skip the options from ``at`` (with the values of those in ``takes_value``) and ``--``."""
    while at < len(words) and words[at] and words[at][0] in marks:
        if words[at] == "--":
            return at + 1
        at += 2 if words[at] in takes_value else 1
    return at


def _subcommand(program: str, rest: list[str]) -> tuple[str, list[str]]:
    """Split the subcommand off the arguments of a program that has subcommands."""
    global_options = _SUBCOMMAND_TOOLS.get(program)
    if global_options is None:
        return "", rest
    rest = rest[_skip_options(rest, 0, global_options, marks="-+") :]  # cargo +nightly
    if rest and _SUBCOMMAND.fullmatch(rest[0]):
        return rest[0], rest[1:]
    return "", rest
