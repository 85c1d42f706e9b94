from __future__ import annotations

import pytest

from artibot_memory.text.shell import command_signature, program_and_target
from artibot_memory.text.signature import MAX_SIGNATURE_CHARS, error_signature

PYTHON_TRACEBACK = """Exit code 1
Traceback (most recent call last):
  File "{tmp}/app/main.py", line 3, in <module>
    import requests
ModuleNotFoundError: No module named 'requests'"""

PYTEST_FAILURE = """Exit code 1
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.3.4, pluggy-1.5.0
rootdir: {tmp}
collected 2 items

test_config.py .F                                                        [100%]

=================================== FAILURES ===================================
_________________________________ test_loads ___________________________________

tmp_path = PosixPath('{tmp}/test_loads0')

    def test_loads(tmp_path):
>       load(tmp_path / "settings.toml")
E       FileNotFoundError: [Errno 2] No such file or directory: '{tmp}/test_loads0/settings.toml'

test_config.py:9: FileNotFoundError
=========================== short test summary info ============================
FAILED test_config.py::test_loads - FileNotFoundError: [Errno 2] No such file or directory
========================= 1 failed, 1 passed in {secs}s ========================="""

PYTEST_ASSERTION = """Exit code 1
E       assert {got} == 4
E        +  where {got} = add(2, 2)
tests/test_math.py:5: AssertionError
FAILED tests/test_math.py::test_add - assert {got} == 4
========================= 1 failed in {secs}s ========================="""

NPM_ENOENT = """Exit code 254
npm ERR! code ENOENT
npm ERR! syscall open
npm ERR! path {tmp}/package.json
npm ERR! errno -2
npm ERR! enoent ENOENT: no such file or directory, open '{tmp}/package.json'
npm ERR! enoent This is related to npm not being able to find a file.
npm ERR! A complete log of this run can be found in: {tmp}/_logs/2026-11-12T10_01_02Z-debug-0.log"""

NPM_MISSING_SCRIPT = """Exit code 1
npm error Missing script: "tset"
npm error
npm error Did you mean this?
npm error   npm test # Test a package
npm error A complete log of this run can be found in: {tmp}/_logs/debug-0.log"""

RUSTC = """Exit code 101
   Compiling demo v0.1.0 ({tmp}/demo)
error[E0425]: cannot find value `totl` in this scope
 --> src/main.rs:4:20
  |
4 |     println!("{{}}", totl);
  |                    ^^^^ help: a local variable with a similar name exists: `total`

For more information about this error, try `rustc --explain E0425`.
error: could not compile `demo` (bin "demo") due to 1 previous error"""

GO_BUILD = """Exit code 1
# example.com/demo
./main.go:{line}:2: undefined: fmtt"""

NODE = """Exit code 1
node:internal/modules/cjs/loader:1228
  throw err;
  ^

Error: Cannot find module 'express'
Require stack:
- {tmp}/server.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15) {{
  code: 'MODULE_NOT_FOUND'
}}"""

SEGFAULT = "Exit code 139\nSegmentation fault at 0x7f3a2b10{n}c0 (pid {n}) on {date}"


def render(template: str, run: int) -> str:
    """One run's output: temp dirs, durations, line numbers and dates differ per run."""
    values = {
        "tmp": f"/tmp/pytest-of-user{run}/pytest-{run * 7}/tmp{run}xy9",  # noqa: S108 - test data
        "secs": f"0.{run}3",
        "got": str(run + 4),
        "line": str(run + 3),
        "n": str(run * 31),
        "date": f"2026-11-{run + 10}T10:0{run}:00Z",
    }
    return template.format(**values)


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        pytest.param(
            PYTHON_TRACEBACK, "modulenotfounderror: no module named 'requests'", id="python"
        ),
        pytest.param(
            PYTEST_FAILURE,
            "filenotfounderror: [errno <n>] no such file or directory: '<path>'",
            id="pytest-tmp-paths",
        ),
        pytest.param(
            PYTEST_ASSERTION,
            "failed tests/test_math.py::test_add - assert <n> == <n>",
            id="pytest-assertion",
        ),
        pytest.param(
            NPM_ENOENT,
            "npm error code enoent enoent enoent: no such file or directory, open '<path>'",
            id="npm-err",
        ),
        pytest.param(NPM_MISSING_SCRIPT, 'npm error missing script: "tset"', id="npm-error"),
        pytest.param(RUSTC, "error[e0425]: cannot find value `totl` in this scope", id="rustc"),
        pytest.param(GO_BUILD, "./main.go:<n>:<n>: undefined: fmtt", id="go"),
        pytest.param(NODE, "error: cannot find module 'express'", id="node"),
        pytest.param(SEGFAULT, "segmentation fault at <hex> (pid <n>) on <time>", id="segfault"),
    ],
)
def test_an_error_gives_the_same_signature_run_after_run(template: str, expected: str) -> None:
    first, second = render(template, 1), render(template, 2)
    assert first != second
    assert error_signature(first) == error_signature(second) == expected


@pytest.mark.parametrize(
    "error",
    [
        pytest.param("bash: foo: command not found", id="bash"),
        pytest.param("bash: line 1: foo: command not found", id="bash-line"),
        pytest.param("zsh: command not found: foo", id="zsh"),
        pytest.param("/bin/sh: 1: foo: not found", id="sh"),
        pytest.param("Exit code 127\n/usr/bin/bash: foo: command not found", id="claude-code"),
    ],
)
def test_a_missing_command_is_named_whatever_the_shell(error: str) -> None:
    assert error_signature(error) == "command not found: foo"


def test_a_missing_requests_differs_from_a_missing_flask() -> None:
    requests = error_signature(render(PYTHON_TRACEBACK, 1))
    flask = error_signature(render(PYTHON_TRACEBACK, 1).replace("requests", "flask"))
    assert requests != flask


def test_the_exit_code_line_is_left_out() -> None:
    assert error_signature("Exit code 1\nfatal: not a git repository") == error_signature(
        "Exit code 128\nfatal: not a git repository"
    )


def test_a_chained_traceback_is_signed_by_the_exception_that_escaped() -> None:
    error = (
        "KeyError: 'user'\n\nDuring handling of the above exception, another exception occurred:\n"
        "\nTraceback (most recent call last):\nValueError: bad config"
    )
    assert error_signature(error) == "valueerror: bad config"


@pytest.mark.parametrize(
    ("value", "placeholder"),
    [
        pytest.param("550e8400-e29b-41d4-a716-446655440000", "<uuid>", id="uuid"),
        pytest.param("commit 3f2a9c1d8e7b", "commit <hex>", id="hash"),
        pytest.param("at 12:30:45.123", "at <time>", id="clock"),
        pytest.param("http://localhost:8080/api", "<url>", id="url"),
        pytest.param("bind 127.0.0.1:8000", "bind <ip>:<n>", id="address-and-port"),
        pytest.param("C:\\Users\\bob\\x.py", "<path>", id="windows-path"),
        pytest.param("~/proj/x.py", "<path>", id="home-path"),
        pytest.param("in tmpa8Xk2_q", "in <tmp>", id="tempfile-name"),
    ],
)
def test_values_that_change_between_runs_become_placeholders(value: str, placeholder: str) -> None:
    assert error_signature(f"error: {value}") == f"error: {placeholder}"


def test_a_long_quoted_value_is_replaced_but_a_short_one_kept() -> None:
    long_value = "x" * 60
    assert error_signature(f"KeyError: '{long_value}'") == "keyerror: '<str>'"
    assert error_signature("KeyError: 'user_id'") == "keyerror: 'user_id'"


def test_a_signature_is_capped() -> None:
    assert len(error_signature("error: " + "word " * 200)) <= MAX_SIGNATURE_CHARS


@pytest.mark.parametrize("error", ["", "   \n\n", "Exit code 1"])
def test_no_error_text_gives_an_empty_signature(error: str) -> None:
    assert error_signature(error) == ""


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("pytest   -q\n tests", "pytest -q tests", id="whitespace"),
        pytest.param("cd /repo && pytest -q", "pytest -q", id="leading-cd"),
        pytest.param("cd '/my repo'; pytest -q", "pytest -q", id="quoted-cd"),
        pytest.param("API_TOKEN=abc123 DEBUG=1 pytest -q", "pytest -q", id="env-assignments"),
        pytest.param("pytest -x", "pytest -x", id="flags-kept"),
        pytest.param("Make Test", "Make Test", id="case-kept"),
    ],
)
def test_a_command_signature_drops_only_what_varies_between_repeats(
    command: str, expected: str
) -> None:
    assert command_signature(command) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("pytest tests/test_x.py -x", ("pytest", "tests/test_x.py"), id="pytest"),
        pytest.param(
            "pytest -x tests/test_x.py::test_a", ("pytest", "tests/test_x.py"), id="test-id"
        ),
        pytest.param(
            "python3 -m pytest tests/test_x.py", ("pytest", "tests/test_x.py"), id="python-m"
        ),
        pytest.param("uv run pytest tests/test_x.py", ("pytest", "tests/test_x.py"), id="uv-run"),
        pytest.param("git push origin main", ("git push", "origin"), id="git"),
        pytest.param("git -C sub commit -m 'x'", ("git commit", "x"), id="git-global-option"),
        pytest.param("npm test", ("npm test", ""), id="npm"),
        pytest.param("npm run build -- --prod", ("npm run", "build"), id="npm-run"),
        pytest.param("cargo build --release", ("cargo build", ""), id="cargo"),
        pytest.param("sudo docker compose up -d", ("docker compose", "up"), id="sudo-docker"),
        pytest.param("make test", ("make test", ""), id="make"),
        pytest.param(
            "/usr/bin/python3 manage.py migrate", ("python3", "manage.py"), id="abs-program"
        ),
        pytest.param("cd /r && FOO=1 ./run.sh --fast | tee log", ("run.sh", ""), id="pipeline"),
        pytest.param("echo 'unbalanced", ("echo", "'unbalanced"), id="bad-quotes"),
        pytest.param("", ("", ""), id="empty"),
    ],
)
def test_program_and_target_name_what_ran_on_what(command: str, expected: tuple[str, str]) -> None:
    assert program_and_target(command) == expected


def test_a_retry_with_other_flags_pairs_with_the_failed_run() -> None:
    assert program_and_target("pytest tests/test_x.py -x") == program_and_target(
        "pytest tests/test_x.py"
    )
