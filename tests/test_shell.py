"""Behaviour of artibot_memory.text.shell: each rule its docstring states."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artibot_memory.api import memories
from artibot_memory.api.ingest import apply_records
from artibot_memory.capture.transcript import read_transcript
from artibot_memory.store.model import State
from artibot_memory.text.shell import (
    MAX_COMMAND_CHARS,
    MAX_STATEMENTS,
    CommandLine,
    Statement,
    command_keys,
    command_signature,
    is_test,
    program_and_target,
    same_attempt,
    statements,
)
from artibot_memory.text.signature import error_signature, exit_code
from artibot_memory.text.tags import auto_tags

Key = tuple[str, str]


def keys_are(command: str, expected: tuple[Key, ...]) -> None:
    assert command_keys(command) == expected, command


# --- words ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "key"),
    [
        pytest.param("git commit -m 'fix the bug'", ("git commit", "fix the bug"), id="single"),
        pytest.param('git commit -m "say \\"hi\\""', ("git commit", 'say "hi"'), id="double"),
        pytest.param("pytest tests/my\\ file.py", ("pytest", "tests/my file.py"), id="backslash"),
        pytest.param("pytest 'tests/a b.py' -x", ("pytest", "tests/a b.py"), id="quoted-path"),
        pytest.param(
            "pytest $(git diff --name-only)", ("pytest", "$(git diff --name-only)"), id="subst"
        ),
        pytest.param("pytest `cat list`", ("pytest", "`cat list`"), id="backticks"),
        pytest.param("pytest ${TESTS}/x.py", ("pytest", "${TESTS}/x.py"), id="braces"),
        pytest.param("pytest tests/x.py # && make", ("pytest", "tests/x.py"), id="comment"),
        pytest.param("pytest \\\n  tests/x.py", ("pytest", "tests/x.py"), id="continued-line"),
        pytest.param("echo a#b", ("echo", "a#b"), id="hash-inside-a-word"),
    ],
)
def test_quotes_and_substitutions_keep_a_word_whole(command: str, key: Key) -> None:
    assert program_and_target(command) == key


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("echo 'unbalanced", (("echo", "'unbalanced"),), id="quote-kept"),
        pytest.param(
            'git commit -m "wip && pytest tests/x.py',
            (("git commit", '"wip'), ("pytest", "tests/x.py")),
            id="operators-still-split",
        ),
        pytest.param(
            "git commit -m \"$(cat <<'EOF'", (("git commit", '"$(cat'),), id="open-substitution"
        ),
        pytest.param("git push 'x 2>&1 | tail", (("git push", "'x"),), id="redirect-and-pipe"),
        pytest.param("git push 'x >out.txt", (("git push", "'x"),), id="redirect-leading-a-word"),
    ],
)
def test_unbalanced_quotes_fall_back_to_plain_words(
    command: str, expected: tuple[Key, ...]
) -> None:
    keys_are(command, expected)


# --- statements and pipes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("make build && make test", (("make build", ""), ("make test", "")), id="and"),
        pytest.param(
            "which uv || pip install uv", (("which", "uv"), ("pip install", "uv")), id="or"
        ),
        pytest.param("npm ci; npm test", (("npm ci", ""), ("npm test", "")), id="semicolon"),
        pytest.param(
            "npm run dev & pytest tests/e2e",
            (("npm run", "dev"), ("pytest", "tests/e2e")),
            id="background",
        ),
        pytest.param(
            "ruff check src\nmypy src", (("ruff", "check"), ("mypy", "src")), id="newline"
        ),
        pytest.param("(cd app && make) && ls", (("make", ""), ("ls", "")), id="subshell"),
        pytest.param("a&&b", (("a", ""), ("b", "")), id="no-spaces"),
    ],
)
def test_each_operator_ends_a_statement(command: str, expected: tuple[Key, ...]) -> None:
    keys_are(command, expected)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "cat > f.py <<'EOF'\nimport os\nEOF\npython f.py",
            (("cat", ""), ("python", "f.py")),
            id="quoted-delimiter",
        ),
        pytest.param(
            "cat <<-END > f\n\tfoo bar\n\tEND\nmake", (("cat", ""), ("make", "")), id="tab-strip"
        ),
        pytest.param("cat <<EOF\nfoo bar", (("cat", ""),), id="never-closed"),
        pytest.param("grep x <<< 'a b'; make", (("grep", "x"), ("make", "")), id="here-string"),
    ],
)
def test_a_here_document_body_is_not_read_as_commands(
    command: str, expected: tuple[Key, ...]
) -> None:
    keys_are(command, expected)


@given(st.text(alphabet=st.sampled_from(list("ab 12-=/'\"\\`$(){}<>&|;#\n\t")), max_size=80))
def test_any_line_is_read_without_raising(command: str) -> None:
    line = CommandLine(command)
    assert all(isinstance(part, str) for key in line.keys for part in key)
    assert isinstance(line.attempt_keys(), frozenset)


def test_at_most_twenty_statements_are_read() -> None:
    command = "; ".join(f"make t{i}" for i in range(MAX_STATEMENTS + 10))
    assert len(command_keys(command)) == MAX_STATEMENTS


@pytest.mark.parametrize(
    ("command", "key", "piped"),
    [
        pytest.param("pytest tests/x.py 2>&1 | tail -5", ("pytest", "tests/x.py"), True, id="pipe"),
        pytest.param("make |& tee build.log", ("make", ""), True, id="pipe-stderr"),
        pytest.param("grep 'a|b' f.txt", ("grep", "f.txt"), False, id="quoted-bar-is-no-pipe"),
        pytest.param("pytest || make", ("make", ""), False, id="or-is-no-pipe"),
    ],
)
def test_only_the_head_of_a_pipeline_counts(command: str, key: Key, *, piped: bool) -> None:
    line = CommandLine(command)
    assert (line.key, line.piped) == (key, piped)


# --- redirections --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "redirection",
    [
        pytest.param("2>&1", id="stderr-to-stdout"),
        pytest.param(">&2", id="stdout-to-stderr"),
        pytest.param("1>&-", id="closed"),
        pytest.param("> out.txt", id="to-file"),
        pytest.param(">out.txt", id="to-file-attached"),
        pytest.param(">> log", id="append"),
        pytest.param("2>/dev/null", id="stderr-to-null"),
        pytest.param("2> err.log", id="stderr-to-file"),
        pytest.param("&> all.log", id="both"),
        pytest.param("&>>all.log", id="both-append"),
        pytest.param(">& all.log", id="both-old-style"),
        pytest.param("< in.txt", id="from-file"),
        pytest.param("<<< word", id="here-string"),
        pytest.param(">| forced.txt", id="clobber"),
    ],
)
def test_a_redirection_is_dropped_with_its_file(redirection: str) -> None:
    assert program_and_target(f"git push {redirection}") == ("git push", "")
    assert program_and_target(f"{redirection} git push") == ("git push", "")
    assert program_and_target(f"git {redirection} push origin") == ("git push", "origin")


# --- prefixes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prefix",
    [
        pytest.param("FOO=1", id="assignment"),
        pytest.param("FOO=1 BAR='a b'", id="assignments"),
        pytest.param("sudo", id="sudo"),
        pytest.param("sudo -E -u ci", id="sudo-options"),
        pytest.param("env", id="env"),
        pytest.param("env -i X=1", id="env-assignment"),
        pytest.param("env -u HOME", id="env-unset"),
        pytest.param("time", id="time"),
        pytest.param("time -p", id="time-portable"),
        pytest.param("nice", id="nice"),
        pytest.param("nice -n 5", id="nice-value"),
        pytest.param("nohup", id="nohup"),
        pytest.param("command", id="command"),
        pytest.param("exec", id="exec"),
        pytest.param("timeout 60", id="timeout"),
        pytest.param("timeout -s KILL 60", id="timeout-signal"),
        pytest.param("/usr/bin/time", id="wrapper-by-path"),
        pytest.param("sudo FOO=1 nice -n 5 time", id="stacked"),
        pytest.param("!", id="negation"),
        pytest.param("if", id="if"),
        pytest.param("then", id="then"),
        pytest.param("do", id="do"),
        pytest.param("{", id="group"),
    ],
)
def test_assignments_keywords_and_wrappers_are_looked_through(prefix: str) -> None:
    assert program_and_target(f"{prefix} pytest tests/x.py") == ("pytest", "tests/x.py")


@pytest.mark.parametrize(
    ("runner", "runners"),
    [
        pytest.param("uv run", ("uv",), id="uv-run"),
        pytest.param("uv run --with requests -p 3.12", ("uv",), id="uv-run-options"),
        pytest.param("poetry run", ("poetry",), id="poetry-run"),
        pytest.param("pipenv run", ("pipenv",), id="pipenv-run"),
        pytest.param("pdm run", ("pdm",), id="pdm-run"),
        pytest.param("hatch run", ("hatch",), id="hatch-run"),
        pytest.param("bundle exec", ("bundle",), id="bundle-exec"),
        pytest.param("pnpm exec", ("pnpm",), id="pnpm-exec"),
        pytest.param("npm exec --", ("npm",), id="npm-exec"),
        pytest.param("npx", ("npx",), id="npx"),
        pytest.param("npx --yes -p pkg", ("npx",), id="npx-options"),
        pytest.param("bunx", ("bunx",), id="bunx"),
        pytest.param("uvx --from pkg", ("uvx",), id="uvx"),
        pytest.param("python -m", ("python",), id="python-m"),
        pytest.param("python3.12 -m", ("python3.12",), id="versioned-python"),
        pytest.param("python -u -X dev -m", ("python",), id="python-options"),
        pytest.param(".venv/bin/python -m", ("python",), id="python-by-path"),
        pytest.param("uv run python -m", ("uv", "python"), id="nested"),
    ],
)
def test_a_program_run_through_a_runner_is_the_same_program(
    runner: str, runners: tuple[str, ...]
) -> None:
    (statement,) = statements(f"{runner} pytest tests/x.py")
    assert (statement.key, statement.runners) == (("pytest", "tests/x.py"), runners)


@pytest.mark.parametrize(
    ("command", "key"),
    [
        pytest.param("python script.py --fast", ("python", "script.py"), id="script"),
        pytest.param("python -c 'print(1)'", ("python", "print(1)"), id="code"),
        pytest.param("python -m", ("python", ""), id="no-module"),
        pytest.param("uv run", ("", ""), id="runner-alone"),
        pytest.param("uv sync --frozen", ("uv sync", ""), id="other-subcommand"),
    ],
)
def test_a_runner_without_a_program_to_run_is_not_looked_through(command: str, key: Key) -> None:
    assert program_and_target(command) == key


# --- programs, subcommands, targets --------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "key"),
    [
        pytest.param("git -C repo push origin main", ("git push", "origin"), id="git-C"),
        pytest.param("git -c user.name=x commit -m x", ("git commit", "x"), id="git-c"),
        pytest.param("git --no-pager log", ("git log", ""), id="git-flag"),
        pytest.param("git --git-dir=.git status", ("git status", ""), id="git-option-with-equals"),
        pytest.param("cargo +nightly build", ("cargo build", ""), id="cargo-toolchain"),
        pytest.param("kubectl -n prod get pods", ("kubectl get", "pods"), id="kubectl-namespace"),
        pytest.param("docker --context prod ps", ("docker ps", ""), id="docker-context"),
        pytest.param("npm --prefix web run build", ("npm run", "build"), id="npm-prefix"),
        pytest.param("pnpm -C web test", ("pnpm test", ""), id="pnpm-dir"),
        pytest.param("yarn --cwd web test", ("yarn test", ""), id="yarn-cwd"),
        pytest.param("make -C sub test", ("make test", ""), id="make-dir"),
        pytest.param("gh -R o/r pr list", ("gh pr", "list"), id="gh-repo"),
        pytest.param("go test ./...", ("go test", "./..."), id="go"),
        pytest.param("make build/x.o", ("make", "build/x.o"), id="a-path-is-no-subcommand"),
        pytest.param("git", ("git", ""), id="no-subcommand"),
        pytest.param("./node_modules/.bin/jest x.test.js", ("jest", "x.test.js"), id="by-path"),
    ],
)
def test_a_subcommand_is_found_after_the_global_options(command: str, key: Key) -> None:
    assert program_and_target(command) == key


@pytest.mark.parametrize(
    ("command", "target"),
    [
        pytest.param("pytest -k name tests/x.py", "tests/x.py", id="path-before-word"),
        pytest.param("pytest tests/x.py::test_a -x", "tests/x.py", id="test-id"),
        pytest.param("ruff format setup.py", "setup.py", id="file-extension"),
        pytest.param("git push origin main", "origin", id="first-word"),
        pytest.param("ls -la", "", id="flags-only"),
        pytest.param("npm run build -- --prod", "build", id="double-dash"),
    ],
)
def test_the_target_is_a_path_else_the_first_argument(command: str, target: str) -> None:
    assert program_and_target(command)[1] == target


def test_a_key_is_capped() -> None:
    program, target = program_and_target(f"{'p' * 300} {'t' * 300}")
    assert (len(program), len(target)) == (100, 200)


# --- bookkeeping and the key of a line -----------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("cd app && make", (("make", ""),), id="cd"),
        pytest.param("pushd app; make; popd", (("make", ""),), id="pushd-popd"),
        pytest.param("export CI=1 && make", (("make", ""),), id="export"),
        pytest.param("source .venv/bin/activate && pytest", (("pytest", ""),), id="source"),
        pytest.param(". .venv/bin/activate && pytest", (("pytest", ""),), id="dot"),
        pytest.param("set -e; make", (("make", ""),), id="set"),
        pytest.param("echo start; make; echo done", (("make", ""),), id="echo"),
        pytest.param("printf 'x\\n' && make", (("make", ""),), id="printf"),
        pytest.param("pytest || true", (("pytest", ""),), id="true"),
        pytest.param("sleep 2 && curl localhost", (("curl", "localhost"),), id="sleep"),
        pytest.param("[ -f x ] && make", (("make", ""),), id="test-bracket"),
        pytest.param("for f in a b; do ruff $f; done", (("ruff", "$f"),), id="for-loop"),
        pytest.param("cd /srv/app", (("cd", "/srv/app"),), id="nothing-else"),
        pytest.param("exec > log 2>&1", (), id="no-program"),
        pytest.param("", (), id="empty"),
    ],
)
def test_bookkeeping_is_never_the_key_unless_it_is_all_there_is(
    command: str, expected: tuple[Key, ...]
) -> None:
    keys_are(command, expected)


def test_the_key_of_a_line_is_its_last_statement_that_matters() -> None:
    assert program_and_target("npm ci && npm test && echo ok") == ("npm test", "")


def test_a_statement_tells_its_runners_program_subcommand_and_arguments() -> None:
    statement = Statement(["sudo", "python3", "-m", "pip", "install", "-U", "requests"])
    assert (statement.runners, statement.name, statement.arguments) == (
        ("python3",),
        "pip install",
        ("-U", "requests"),
    )
    assert statement.key == ("pip install", "requests")
    assert not statement.bookkeeping


# --- the command signature -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("pytest   -q\n tests", "pytest -q tests", id="whitespace"),
        pytest.param("cd /repo && pytest -q", "pytest -q", id="leading-cd"),
        pytest.param("cd a && cd b; X=1 pytest", "pytest", id="repeated-prefixes"),
        pytest.param("pytest -q && cd /repo", "pytest -q && cd /repo", id="trailing-cd-kept"),
        pytest.param("pytest 2>&1 | tail", "pytest 2>&1 | tail", id="rest-kept"),
    ],
)
def test_the_command_signature_only_drops_leading_cd_and_assignments(
    command: str, expected: str
) -> None:
    assert command_signature(command) == expected


def test_the_command_signature_is_capped() -> None:
    assert len(command_signature("x" * 1000)) == MAX_COMMAND_CHARS


# --- test runs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("pytest", True, id="pytest"),
        pytest.param("py.test -x", True, id="py.test"),
        pytest.param("python -m pytest -q", True, id="python-m-pytest"),
        pytest.param("python -m unittest discover", True, id="unittest"),
        pytest.param("uv run pytest tests", True, id="uv-run-pytest"),
        pytest.param("npx jest", True, id="npx-jest"),
        pytest.param("CI=1 npx vitest run", True, id="vitest"),
        pytest.param("go test ./...", True, id="go-test"),
        pytest.param("cargo test", True, id="cargo-test"),
        pytest.param("cargo nextest run", True, id="cargo-nextest"),
        pytest.param("npm test", True, id="npm-test"),
        pytest.param("npm run test:unit", True, id="npm-run-test-script"),
        pytest.param("pnpm test", True, id="pnpm-test"),
        pytest.param("yarn test", True, id="yarn-test"),
        pytest.param("make test", True, id="make-test"),
        pytest.param("make check", True, id="make-check"),
        pytest.param("mix test 2>&1 | tail -3", True, id="mix-test-piped"),
        pytest.param("bundle exec rspec", True, id="rspec"),
        pytest.param("tox -e py311", True, id="tox"),
        pytest.param("cd app && pytest", True, id="after-cd"),
        pytest.param("npm ci && npm test", True, id="in-a-chain"),
        pytest.param("pip install pytest", False, id="installing-a-runner"),
        pytest.param("grep -r jest package.json", False, id="mentioning-a-runner"),
        pytest.param("echo pytest", False, id="echoing-a-runner"),
        pytest.param("cat tests/test_x.py", False, id="reading-a-test-file"),
        pytest.param("npm run build", False, id="other-script"),
        pytest.param("git commit -m 'fix pytest'", False, id="commit-message"),
    ],
)
def test_a_test_run_is_a_statement_that_runs_a_test_runner(command: str, *, expected: bool) -> None:
    assert is_test(command) is expected


# --- same attempt: ingest and the session summary pair alike -------------------------------------

PAIRS = [
    pytest.param("pytest tests/x.py", "pytest tests/x.py", True, id="same-command"),
    pytest.param("cd app && pytest -q", "pytest -q", True, id="same-signature"),
    pytest.param("pytest tests/x.py -x", "pytest tests/x.py -q", True, id="other-flags"),
    pytest.param(
        "pytest tests/x.py -x 2>&1 | tail", "uv run pytest tests/x.py", True, id="through-a-runner"
    ),
    pytest.param("python -m pytest tests/x.py", "pytest tests/x.py", True, id="python-m"),
    pytest.param("pytest tests/a.py", "pytest tests/b.py", False, id="other-target"),
    pytest.param("rm build/a.o", "rm build/b.o", False, id="other-file"),
    pytest.param(
        "git push 2>&1", "git push --set-upstream origin feature", True, id="no-target-then-one"
    ),
    pytest.param("pytest", "pytest tests/test_one.py", False, id="narrower-test-run"),
    pytest.param("pytest", "pytest -q", True, id="whole-suite-again"),
    pytest.param("make", "make install", False, id="other-subcommand"),
    pytest.param("npm ci && npm test", "npm test", True, id="failed-chain-then-its-last-step"),
    pytest.param("npm test", "npm ci && npm test", True, id="failure-then-a-chain-with-it"),
    pytest.param("npm ci && npm test", "npm ci", False, id="failed-chain-then-its-first-step"),
    pytest.param("git -C repo push", "git push", True, id="git-global-option"),
    pytest.param("cd app\nnpm test", "npm test", True, id="multi-line"),
]


@pytest.mark.parametrize(("failed", "succeeded", "expected"), PAIRS)
def test_a_success_retries_a_failure_by_signature_key_or_program(
    failed: str, succeeded: str, *, expected: bool
) -> None:
    assert same_attempt(failed, succeeded) is expected
    line = CommandLine(failed)
    assert (not line.attempt_keys().isdisjoint(CommandLine(succeeded).fix_keys())) is expected


def test_an_empty_command_is_nobodys_retry() -> None:
    assert not same_attempt("", "")


def _transcript(tmp_path: Path, failed: str, succeeded: str) -> Path:
    def row(kind: str, content: list[dict[str, Any]]) -> str:
        return json.dumps({"type": kind, "message": {"role": kind, "content": content}})

    def bash(tool_id: str, command: str, output: str, *, error: bool) -> list[str]:
        use = {"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": command}}
        result = {"type": "tool_result", "tool_use_id": tool_id, "content": output}
        return [row("assistant", [use]), row("user", [{**result, "is_error": error}])]

    rows = [
        *bash("t1", failed, "Exit code 1\nsomething broke", error=True),
        *bash("t2", succeeded, "done", error=False),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _ingest_closes(failed: str, succeeded: str) -> bool:
    base = {"session_id": "s1", "cwd": "/src/app", "tool_name": "Bash"}
    apply_records(
        [
            {**base, "event": "PostToolUseFailure", "at": "2026-01-01T10:00:00"}
            | {"command": failed, "error": "Exit code 1\nsomething broke"},
            {**base, "event": "PostToolUse", "at": "2026-01-01T10:01:00", "command": succeeded},
        ]
    )
    (error,) = memories.list_memories("error")
    return error.state is State.RESOLVED


@pytest.mark.parametrize(("failed", "succeeded", "expected"), PAIRS)
def test_ingest_and_the_session_summary_pair_the_same_commands(
    tmp_path: Path, failed: str, succeeded: str, *, expected: bool
) -> None:
    (summary_error,) = read_transcript(_transcript(tmp_path, failed, succeeded)).errors
    assert (_ingest_closes(failed, succeeded), summary_error.fixed) == (expected, expected)


# --- tags ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("`uv run pytest -q`", ["uv", "pytest"], id="runner-and-program"),
        pytest.param("`cd app && make test`", ["make", "make test"], id="bookkeeping-left-out"),
        pytest.param("`pytest 2>&1 | tail -3`", ["pytest"], id="pipe-head-only"),
        pytest.param("`sudo -u ci git -C x push`", ["git", "git push"], id="wrapper-and-option"),
    ],
)
def test_command_tags_name_what_the_shell_reader_finds(text: str, expected: list[str]) -> None:
    assert auto_tags(text) == expected


# --- exit codes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Exit code 1\nboom", (1, "boom"), id="plain"),
        pytest.param("Error: Exit code 2\nboom", (2, "boom"), id="error-prefix"),
        pytest.param("\n  Exit code 3  \nboom", (3, "boom"), id="blank-lines-and-spaces"),
        pytest.param("Exit code 1\r\nboom", (1, "boom"), id="crlf"),
        pytest.param("Exit code -1\nboom", (-1, "boom"), id="negative"),
        pytest.param("Exit code 127", (127, ""), id="code-only"),
        pytest.param("Exit code 1 means usage", (None, "Exit code 1 means usage"), id="prose"),
        pytest.param("boom\nExit code 1", (None, "boom\nExit code 1"), id="not-first"),
        pytest.param("", (None, ""), id="empty"),
    ],
)
def test_the_exit_code_is_the_whole_first_line(text: str, expected: tuple[int | None, str]) -> None:
    assert exit_code(text) == expected


@pytest.mark.parametrize(
    "text",
    ["Exit code 1\nValueError: bad", "Error: Exit code 2\nValueError: bad", "ValueError: bad"],
)
def test_the_error_signature_leaves_the_exit_code_line_out(text: str) -> None:
    assert error_signature(text) == error_signature(exit_code(text)[1]) == "valueerror: bad"
