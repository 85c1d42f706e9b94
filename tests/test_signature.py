"""Error signatures (artibot_memory.text.signature): each rule its docstring states.

The table runs over real failures of each tool (tests/fixtures/errors, see its README),
each in a short form and a long one that Claude Code has cut.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot_memory.capture.journal import kept_text
from artibot_memory.text import signature
from artibot_memory.text.shell import command_signature, program_and_target
from artibot_memory.text.signature import (
    MAX_SIGNATURE_CHARS,
    error_signature,
    exit_code,
    is_specific,
)
from artibot_memory.text.trim import cut_middle

ERRORS = Path(__file__).parent / "fixtures" / "errors"

# name: (signature, is_specific). Every fixture is here, and every entry has its two files.
SIGNATURES: dict[str, tuple[str, bool]] = {
    # Python
    "python-module-not-found": ("modulenotfounderror: no module named 'requests'", True),
    "python-key-error-chained": (
        "configerror: database_url is not set; copy .env.example to .env",
        True,
    ),
    "python-type-error": (
        "typeerror: unsupported operand type(s) for +: 'int' and 'str'",
        True,
    ),
    "python-syntax-error": ("syntaxerror: invalid syntax @ run.py", False),
    "python-connection-error": ("connectionrefusederror: [errno <n>] connection refused", True),
    "python-called-process-error": (
        (
            "subprocess.calledprocesserror: command '['bash', '-c', 'echo building; exit <n>']' "
            "returned non-zero exit status <n>."
        ),
        False,
    ),
    "python-file-not-found": (
        "filenotfounderror: [errno <n>] no such file or directory: 'report.csv'",
        True,
    ),
    "python-progress-bar": (
        "runtimeerror: checksum mismatch for model.bin: expected <hex>, got <hex>",
        True,
    ),
    # pytest
    "pytest-assertion": ("failed test_core.py::test_add - assert <n> == <n>", False),
    "pytest-color": ("failed test_core.py::test_add - assert <n> == <n>", False),
    "pytest-many-failures": ("failed test_core.py::test_add - assert <n> == <n>", False),
    "pytest-exception": (
        (
            "failed test_core.py::test_parse_rejects_words - valueerror: invalid literal for int() "
            "with base <n>: 'twelve'"
        ),
        True,
    ),
    "pytest-narrow-terminal": (
        (
            "failed test_core.py::test_loads_the_default_configuration_file - filenotfounderror: "
            "[errno <n>] no such file or directory: 'defaults.json'"
        ),
        True,
    ),
    "pytest-collection-error": ("modulenotfounderror: no module named 'yaml'", True),
    "pytest-fixture-not-found": (
        "error test_core.py::test_db - fixture 'database' not found",
        True,
    ),
    # Node
    "node-assert-strict-equal": (
        "assertionerror [err_assertion]: expected values to be strictly equal: @ test.js",
        False,
    ),
    "node-assert-deep-equal": (
        "assertionerror [err_assertion]: expected values to be strictly deep-equal: @ check.js",
        False,
    ),
    "node-assert-message": (
        "assertionerror [err_assertion]: api_url must be set before starting the server @ start.js",
        True,
    ),
    "node-err-module-not-found": (
        "error [err_module_not_found]: cannot find module 'helper.js' imported from index.js",
        True,
    ),
    "node-err-unknown-file-extension": (
        'typeerror [err_unknown_file_extension]: unknown file extension ".ts" for app.ts',
        True,
    ),
    "node-err-invalid-arg-type": (
        (
            'typeerror [err_invalid_arg_type]: the "path" argument must be of type string or an '
            "instance of buffer or url. received undefined"
        ),
        True,
    ),
    "node-cannot-find-module": ("error: cannot find module 'express'", True),
    "node-type-error": ("typeerror: cannot read properties of null (reading 'name')", True),
    "node-unhandled-rejection": (
        "error: enoent: no such file or directory, open 'settings.json'",
        True,
    ),
    "node-eaddrinuse": ("error: listen eaddrinuse: address already in use :::<n>", True),
    "node-test-runner": ("formats price: expected values to be strictly equal:", False),
    "node-test-spec": ("formats price: expected values to be strictly equal:", False),
    # npm, pnpm, yarn: the error under the wrapper
    "npm-test-failed": ("formats price: expected values to be strictly equal:", False),
    "npm-run-script-error": ("typeerror: cannot read properties of null (reading 'name')", True),
    "npm6-test-failed": (
        "assertionerror [err_assertion]: expected values to be strictly equal: @ test.js",
        False,
    ),
    "npm6-lifecycle": ("error: cannot find module 'helper'", True),
    "npm9-workspace-failed": (
        "assertionerror [err_assertion]: expected values to be strictly equal: @ test.js",
        False,
    ),
    "pnpm-test-failed": (
        "cart › sums prices: expect(received).tobe(expected) // object.is equality",
        False,
    ),
    "pnpm-run-error": ("typeerror: cannot read properties of null (reading 'name')", True),
    "yarn-test-failed": (
        "cart › sums prices: expect(received).tobe(expected) // object.is equality",
        False,
    ),
    "yarn-run-error": (
        "assertionerror [err_assertion]: api_url must be set before starting the server @ build.js",
        True,
    ),
    # npm install and friends
    "npm-missing-script": ('npm error missing script: "lint"', True),
    "npm-enoent": (
        (
            "npm error code enoent enoent could not read package.json: error: enoent: no such file "
            "or directory, open 'package.json'"
        ),
        True,
    ),
    "npm-e404": (
        (
            "npm error code e404 the requested resource 'left-pad-does-not-exist-zz9@*' could not "
            "be found or you do not have permission to access it."
        ),
        True,
    ),
    "npm9-e404": (
        "npm error code e404 '@acme/does-not-exist-zz9@*' is not in this registry.",
        True,
    ),
    "npm-etarget": (
        "npm error code etarget notarget no matching version found for react@<n>.",
        True,
    ),
    "npm-eresolve": ("npm error code eresolve eresolve unable to resolve dependency tree", True),
    # jest, vitest
    "jest-failed": (
        "cart › sums prices: expect(received).tobe(expected) // object.is equality",
        False,
    ),
    "jest-color": (
        "cart › sums prices: expect(received).tobe(expected) // object.is equality",
        False,
    ),
    "jest-cannot-find-module": (
        "test suite failed to run: cannot find module 'users' from 'users.test.js'",
        False,
    ),
    "vitest-failed": (
        (
            "cart.test.mjs > cart > sums prices: assertionerror: expected <n> to be <n> "
            "// object.is equality"
        ),
        False,
    ),
    # TypeScript, ESLint
    "tsc-ts2322": (
        "price.ts(<n>,<n>): error ts2322: type 'string' is not assignable to type 'number'.",
        True,
    ),
    "tsc-ts2307": (
        (
            "schema.ts(<n>,<n>): error ts2307: cannot find module 'zod' or its corresponding type "
            "declarations."
        ),
        True,
    ),
    "eslint-errors": ("<n>:<n> error 'name' is defined but never used no-unused-vars", True),
    "eslint-config-crash": (
        (
            "error [err_module_not_found]: cannot find package '@eslint/js' imported from "
            "eslint.config.mjs"
        ),
        True,
    ),
    # cargo
    "cargo-e0425": ("error[e0425]: cannot find value `totl` in this scope", True),
    "cargo-color": ("error[e0425]: cannot find value `totl` in this scope", True),
    "cargo-e0308": ("error[e0308]: mismatched types", True),
    "cargo-e0502": (
        "error[e0502]: cannot borrow `v` as mutable because it is also borrowed as immutable",
        True,
    ),
    "cargo-missing-crate": ("error[e0432]: unresolved import `serde`", True),
    "cargo-test-failed": (
        "thread 'tests::adds' panicked at lib.rs:<n>:<n>: assertion `left == right` failed",
        False,
    ),
    "cargo-panic": ("thread 'main' panicked at main.rs:<n>:<n>: usage: demo <config>", True),
    # go
    "go-build-undefined": ("main.go:<n>:<n>: total declared but not used", False),
    "go-missing-module": (
        (
            "main.go:<n>:<n>: cannot find module providing package github.com/google/uuid: module "
            "lookup disabled by goproxy=off"
        ),
        False,
    ),
    "go-test-failed": ("--- fail: testadd: shop_test.go:<n>: add(<n>, <n>) = <n>; want <n>", False),
    "go-panic": ("panic: runtime error: invalid memory address or nil pointer dereference", True),
    # make
    "make-no-rule": ("make: *** no rule to make target 'deploy'. stop.", False),
    "make-gcc-error": ("main.c:<n>:<n>: error: expected ';' before 'return'", True),
    "make-recipe-python": ("failed test_core.py::test_add - assert <n> == <n>", False),
    "make-missing-command": ("command not found: shellcheck", True),
    # docker
    "docker-daemon": (
        "cannot connect to the docker daemon at <url> is the docker daemon running?",
        False,
    ),
    "docker-build-pip": (
        (
            "error: could not find a version that satisfies the requirement psycopg3==<n> "
            "(from versions: none)"
        ),
        True,
    ),
    "docker-build-copy": (
        'error: failed to calculate checksum of ref <uuid>::<id>: "requirements.txt": not found',
        True,
    ),
    "docker-run-port": (
        (
            "error response from daemon: driver failed programming external connectivity on "
            "endpoint shop-web (<hex>): bind for <ip>:<n> failed: port is already allocated."
        ),
        True,
    ),
    "docker-compose-pull-denied": (
        (
            "error response from daemon: pull access denied for shop-api, repository does not "
            "exist or may require 'docker login': denied: requested access to the resource is "
            "denied"
        ),
        True,
    ),
    # git
    "git-not-a-repository": (
        "fatal: not a git repository (or any of the parent directories): .git",
        True,
    ),
    "git-pathspec": ("fatal: pathspec 'missing.py' did not match any files", True),
    "git-no-upstream": ("fatal: the current branch feature/login has no upstream branch.", True),
    "git-merge-conflict": ("conflict (content): merge conflict in a.txt", False),
    "git-checkout-overwritten": (
        "error: your local changes to the following files would be overwritten by checkout:",
        True,
    ),
    "git-push-rejected": ("! [rejected] main -> main (fetch first)", False),
    # pip
    "pip-no-matching-distribution": (
        (
            "error: could not find a version that satisfies the requirement torchh==<n> "
            "(from versions: <n>)"
        ),
        True,
    ),
    "pip-resolution-impossible": (
        (
            "error: cannot install idna==<n> and requests==<n> because these package versions have "
            "conflicting dependencies."
        ),
        True,
    ),
    "pip-build-failed": ("modulenotfounderror: no module named 'numpy_headers_missing'", True),
    # the shell
    "bash-command-not-found": ("command not found: poetry", True),
    "bash-permission-denied": ("bash: line <n>: deploy.sh: permission denied", False),
    "bash-no-such-file": ("cat: app.yaml: no such file or directory", False),
}

# The same error reached through other tools, wrappers or colours: one signature each group.
SAME_ERROR = (
    {"pytest-assertion", "pytest-color", "pytest-many-failures", "make-recipe-python"},
    {"node-test-runner", "node-test-spec", "npm-test-failed"},
    {"node-assert-strict-equal", "npm6-test-failed", "npm9-workspace-failed"},
    {"node-type-error", "npm-run-script-error", "pnpm-run-error"},
    {"jest-failed", "jest-color", "pnpm-test-failed", "yarn-test-failed"},
    {"cargo-e0425", "cargo-color"},
)


def read(name: str, form: str = "") -> str:
    return (ERRORS / f"{name}{form}.txt").read_text(encoding="utf-8")


def elsewhere(text: str) -> str:
    """The same failure on another machine, a day later: other folders, lines, temp names."""
    text = text.replace("/home/dev/", "/Users/ana/src/").replace("Exit code 1\n", "Exit code 2\n")
    text = re.sub(r"pytest-of-dev/pytest-\d+", "pytest-of-ana/pytest-3", text)
    text = re.sub(r"\btmp[a-z0-9_]{8}\b", "tmpq8d2kx1z", text)
    text = re.sub(r"(?<=[:(])\d+(?=[:),])|(?<=line )\d+", lambda m: str(int(m[0]) + 7), text)
    return re.sub(r"\b\d+\.\d+ ?m?s\b", "13.37s", text)


NAMES = sorted(SIGNATURES)
MOVABLE = [name for name in NAMES if elsewhere(read(name)) != read(name)]


def test_every_fixture_has_its_signature_and_both_forms() -> None:
    files = {path.name.removesuffix(".txt") for path in ERRORS.glob("*.txt")}
    assert files == {f"{name}{form}" for name in SIGNATURES for form in ("", ".long")}


@pytest.mark.parametrize(("name", "expected", "specific"), [(n, *SIGNATURES[n]) for n in NAMES])
def test_a_failure_gives_its_signature_short_long_and_as_journaled(
    name: str, expected: str, specific: bool
) -> None:
    short, long = read(name), read(name, ".long")
    assert "characters truncated] ..." in long
    assert len(long) > len(short)
    # The hook signs the error as the journal keeps it: redacted, cut to its field's limit.
    journaled = kept_text(long, "error")
    assert error_signature(short) == error_signature(long) == error_signature(journaled) == expected
    assert is_specific(expected) is specific


def test_different_errors_give_different_signatures() -> None:
    by_signature: dict[str, set[str]] = {}
    for name in NAMES:
        by_signature.setdefault(error_signature(read(name)), set()).add(name)
    shared = [names for names in by_signature.values() if len(names) > 1]
    assert sorted(map(sorted, shared)) == sorted(map(sorted, SAME_ERROR))


@pytest.mark.parametrize("name", MOVABLE)
def test_the_same_error_elsewhere_gives_the_same_signature(name: str) -> None:
    for form in ("", ".long"):
        text = read(name, form)
        assert error_signature(elsewhere(text)) == error_signature(text)


@pytest.mark.parametrize("name", NAMES)
def test_no_signature_holds_a_folder(name: str) -> None:
    for text in (read(name), read(name, ".long"), elsewhere(read(name))):
        signature = error_signature(text)
        assert not re.search(r"(?<![\w.:>])[/~\\]\w|[A-Za-z]:\\|/home/|/users/|/tmp/", signature)


@pytest.mark.parametrize(
    "banner",
    [
        pytest.param("Node.js v20.20.2", id="node"),
        pytest.param("\n\nNode.js v22.11.0\n", id="node-blank-lines"),
        pytest.param(
            "npm ERR! A complete log of this run can be found in:\n"
            "npm ERR!     /home/dev/.npm/_logs/2026-03-04T09_00_00_000Z-debug-0.log",
            id="npm-log",
        ),
        pytest.param(
            "npm error A complete log of this run can be found in: "
            "/home/dev/.npm/_logs/2026-03-04T09_00_00_000Z-debug-0.log",
            id="npm-log-11",
        ),
        pytest.param("Traceback (most recent call last):", id="traceback-header"),
        pytest.param(
            "============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0\n"
            "rootdir: /home/dev/calc\ncollected 12 items",
            id="pytest-header",
        ),
        pytest.param("========================= 1 failed, 11 passed in 0.42s =========", id="rule"),
        pytest.param(
            "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 62.6/62.6 kB 3.3 MB/s eta 0:00:00",
            id="progress",
        ),
        pytest.param("    at Object.<anonymous> (/home/dev/b/test.js:3:8)", id="stack-frame"),
        pytest.param("\n> shop@1.0.0 test\n> jest --ci\n", id="npm-script-echo"),
        pytest.param("yarn run v1.22.22\n$ jest --ci", id="yarn-echo"),
        pytest.param(">>> import requests\n$ npm test", id="prompt-echo"),
        pytest.param("Exit code 1\nnpm ERR! Test failed.  See above for more details.", id="npm"),
        pytest.param(" ELIFECYCLE  Test failed. See above for more details.", id="pnpm"),
        pytest.param("error Command failed with exit code 1.", id="yarn"),
        pytest.param("make: *** [Makefile:12: test] Error 1", id="make"),
        pytest.param("npm error code 1\nnpm error path /home/dev/shop", id="npm-code-1"),
        pytest.param("Command timed out after 2m 0s", id="timeout"),
    ],
)
def test_a_banner_alone_gives_a_signature_too_vague_to_share(banner: str) -> None:
    signature = error_signature(banner)
    assert signature
    assert not is_specific(signature)


def test_an_assert_in_one_project_is_not_a_missing_module_in_another() -> None:
    """Both outputs end with the same Node banner: issue 10's ``node.js v20.20.2`` for both."""
    missing, failing = read("node-cannot-find-module"), read("node-assert-strict-equal")
    assert missing.endswith("Node.js v20.20.2")
    assert failing.endswith("Node.js v20.20.2")
    assert error_signature(missing) != error_signature(failing)
    assert "node.js" not in error_signature(missing) + error_signature(failing)
    assert not is_specific(error_signature(failing))


@pytest.mark.parametrize(
    ("signature", "specific"),
    [
        pytest.param("modulenotfounderror: no module named 'requests'", True, id="class-message"),
        pytest.param(
            "error [err_module_not_found]: cannot find package 'zod' imported from a.js",
            True,
            id="node-code",
        ),
        pytest.param("error[e0425]: cannot find value `x` in this scope", True, id="rust-code"),
        pytest.param(
            "a.ts(<n>,<n>): error ts2345: argument of type 'string' is not assignable",
            True,
            id="tsc-code",
        ),
        pytest.param("keyerror: 'user_id'", True, id="quoted-name"),
        pytest.param("command not found: poetry", True, id="missing-command"),
        pytest.param("assertionerror", False, id="bare-assertion"),
        pytest.param("assertionerror @ test_x.py", False, id="bare-assertion-located"),
        pytest.param("exit code <n>", False, id="exit-code"),
        pytest.param("command failed", False, id="command-failed"),
        pytest.param("error", False, id="error"),
        pytest.param("error: <n>", False, id="error-number"),
        pytest.param("npm error test failed. see above for more details.", False, id="npm-test"),
        pytest.param("npm error code elifecycle", False, id="npm-lifecycle"),
        pytest.param("make: *** [makefile:<n>: test] error <n>", False, id="make"),
        pytest.param("error command failed with exit code <n>.", False, id="yarn"),
        pytest.param("node.js v<n>", False, id="banner"),
        pytest.param("failed test_a.py::test_b - assert <n> == <n>", False, id="pytest-assert"),
        pytest.param("syntaxerror: invalid syntax @ run.py", False, id="syntax-template"),
        pytest.param(
            "assertionerror [err_assertion]: expected values to be strictly equal: @ a.js",
            False,
            id="node-assert-template",
        ),
        pytest.param("", False, id="empty"),
    ],
)
def test_is_specific_asks_for_a_kind_and_something_said_about_it(
    signature: str, specific: bool
) -> None:
    assert is_specific(signature) is specific


# --- reading the output ---------------------------------------------------------------------------


def test_a_cut_takes_the_broken_lines_on_each_side_along() -> None:
    """Half a line would be a different, wrong signature; a whole one around the cut stays."""
    error = (
        "Exit code 1\nTraceback (most recent call last):\nError: Cannot fi"
        "\n... [20417 characters truncated] ...\n"
        "re: No module named 'x'\nModuleNotFoundError: No module named 'yaml'"
    )
    assert error_signature(error) == "modulenotfounderror: no module named 'yaml'"
    head = "fatal: not a git repository (or any of the parent directories): .git\nError: Cannot fi"
    assert error_signature(cut_middle(head + "x" * 500 + "\nwarning: done", 200)) == (
        "fatal: not a git repository (or any of the parent directories): .git"
    )


def test_colours_rewritten_lines_and_docker_steps_are_read_as_printed() -> None:
    assert error_signature("\x1b[1m\x1b[31mE       KeyError: 'user'\x1b[0m") == "keyerror: 'user'"
    assert error_signature("loading 10%\rloading 100%\rKeyError: 'user'\n") == "keyerror: 'user'"
    assert error_signature("#8 2.013 ERROR: No matching distribution found for x==1.0") == (
        "error: no matching distribution found for x==<n>"
    )


def test_a_wrapper_stands_only_when_nothing_above_it_says_more() -> None:
    gcc = "main.c:4:30: error: expected ';' before 'return'\nmake: *** [Makefile:9: main.o] Error 1"
    assert error_signature(gcc) == "main.c:<n>:<n>: error: expected ';' before 'return'"
    assert error_signature("make: *** [Makefile:9: main.o] Error 1") == (
        "make: *** [makefile:<n>: main.o] error <n>"
    )


def test_an_assertion_is_told_apart_by_the_file_that_raised_it() -> None:
    def failing(path: str) -> str:
        return (
            "Traceback (most recent call last):\n"
            f'  File "{path}", line 3, in <module>\n    assert total == 4\nAssertionError'
        )

    assert error_signature(failing("/home/dev/shop/check.py")) == "assertionerror @ check.py"
    assert error_signature(failing("/home/dev/shop/check.py")) != error_signature(
        failing("/home/dev/billing/verify.py")
    )


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        pytest.param(
            "Exit code 1\nsrc/shop/cart.py:12: error: Incompatible types in assignment "
            '(expression has type "int", variable has type "str")  [assignment]\n'
            "Found 1 error in 1 file (checked 12 source files)",
            "cart.py:<n>: error: incompatible types in assignment (expression has type "
            '"int", variable has type "str") [assignment]',
            id="mypy",
        ),
        pytest.param(
            "Exit code 1\nsrc/shop/cart.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.",
            "cart.py:<n>:<n>: f401 [*] `os` imported but unused",
            id="ruff",
        ),
        pytest.param(
            "Exit code 1\n.F.\n"
            + "=" * 70
            + "\nFAIL: test_total (shop.tests.CartTests.test_total)\n"
            + "-" * 70
            + "\nTraceback (most recent call last):\n"
            '  File "/home/dev/shop/shop/tests.py", line 9, in test_total\n'
            "    self.assertEqual(total([1, 2]), 3)\nAssertionError: 4 != 3\n\n"
            + "-" * 70
            + "\nRan 3 tests in 0.001s\n\nFAILED (failures=1)",
            "fail: shop.tests.carttests.test_total - assertionerror: <n> != <n>",
            id="unittest",
        ),
        pytest.param(
            "Exit code 1\nERROR: test_home (pages.tests.HomeTests.test_home)\n"
            + "-" * 70
            + "\nTraceback (most recent call last):\n"
            '  File "/home/dev/site/pages/tests.py", line 6, in test_home\n'
            "django.urls.exceptions.NoReverseMatch: Reverse for 'home' not found.\n\n"
            + "-" * 70
            + "\nRan 1 test in 0.012s\n\nFAILED (errors=1)",
            "error: pages.tests.hometests.test_home - django.urls.exceptions.noreversematch: "
            "reverse for 'home' not found.",
            id="django",
        ),
        pytest.param(
            "Exit code 1\n/home/dev/web/app.js:3\n});\n^\n\nSyntaxError: Unexpected token '}'\n"
            "    at internalCompileFunction (node:internal/vm:76:18)\n\nNode.js v20.20.2",
            "syntaxerror: unexpected token '}' @ app.js",
            id="node-syntax-error",
        ),
        pytest.param(
            "Exit code 1\n> Task :app:compileJava FAILED\n"
            "/home/dev/app/src/main/java/App.java:5: error: cannot find symbol\n1 error\n\n"
            "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
            "Execution failed for task ':app:compileJava'.",
            "app.java:<n>: error: cannot find symbol",
            id="javac-under-gradle",
        ),
        pytest.param(
            "Exit code 1\n  × No solution found when resolving dependencies:\n"
            "  ╰─▶ Because there is no version of flask==9.0 and you require flask==9.0, we can "
            "conclude that your requirements are unsatisfiable.",
            "because there is no version of flask==<n> and you require flask==<n>, we can "
            "conclude that your requirements are unsatisfiable.",
            id="uv",
        ),
        pytest.param(
            "Exit code 1\nerror: externally-managed-environment\n\n"
            "× This environment is externally managed\n╰─> To install Python packages "
            "system-wide, try apt install",
            "error: externally-managed-environment",
            id="pip-pep-668",
        ),
        pytest.param(
            "Exit code 2\npsql: error: connection to server on socket "
            '"/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory',
            'psql: error: connection to server on socket ".s.pgsql.5432" failed: no such file or '
            "directory",
            id="psql",
        ),
        pytest.param(
            "Exit code 1\n  ● Console\n\n    console.log\n      loading\n\n"
            "  ● cart › sums prices\n\n    expect(received).toBe(expected)",
            "cart › sums prices: expect(received).tobe(expected)",
            id="jest-console-block",
        ),
    ],
)
def test_other_tools_are_read_by_the_same_rules(error: str, expected: str) -> None:
    assert error_signature(error) == expected


# --- what the signature keeps and drops ---------------------------------------------------------


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
    requests = error_signature(read("python-module-not-found"))
    flask = error_signature(read("python-module-not-found").replace("requests", "flask"))
    assert requests != flask


def test_the_exit_code_line_is_left_out() -> None:
    assert error_signature("Exit code 1\nfatal: not a git repository") == error_signature(
        "Exit code 128\nfatal: not a git repository"
    )
    assert exit_code("Exit code 128\nfatal: x") == (128, "fatal: x")


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
        pytest.param("on 2026-11-12T10:01:02Z", "on <time>", id="timestamp"),
        pytest.param("http://localhost:8080/api", "<url>", id="url"),
        pytest.param("bind 127.0.0.1:8000", "bind <ip>:<n>", id="address-and-port"),
        pytest.param("C:\\Users\\bob\\x.py", "x.py", id="windows-path"),
        pytest.param("~/proj/x.py", "x.py", id="home-path"),
        pytest.param("/home/ana/shop/src/app.js:12:5", "app.js:<n>:<n>", id="absolute-path"),
        pytest.param("src/app/models.py", "models.py", id="relative-path"),
        pytest.param("in tmpa8Xk2_q", "in <tmp>", id="tempfile-name"),
        pytest.param("ref r6k2q1xhx3m5bq0v8c2dnyw9z", "ref <id>", id="random-id"),
        pytest.param(
            "segfault at 0x7f3a2b10c0 (pid 4411)", "segfault at <hex> (pid <n>)", id="pid"
        ),
    ],
)
def test_values_that_change_between_runs_become_placeholders(value: str, placeholder: str) -> None:
    assert error_signature(f"error: {value}") == f"error: {placeholder}"


@pytest.mark.parametrize(
    "kept",
    [
        pytest.param("error: E0425 TS2345 ERR_ASSERTION", id="codes"),
        pytest.param("error: cannot find package '@eslint/js'", id="scoped-package"),
        pytest.param("error: branch origin/main", id="branch"),
    ],
)
def test_codes_and_names_that_are_not_paths_are_kept(kept: str) -> None:
    assert error_signature(kept) == kept.lower()


def test_typographic_quotes_are_plain_ones() -> None:
    assert error_signature("main.c:4:30: error: expected ‘;’ before ‘return’") == error_signature(
        "main.c:4:30: error: expected ';' before 'return'"
    )


def test_a_long_quoted_value_is_replaced_but_a_short_one_kept() -> None:
    long_value = "x" * 60
    assert error_signature(f"KeyError: '{long_value}'") == "keyerror: '<str>'"
    assert error_signature("KeyError: 'user_id'") == "keyerror: 'user_id'"


def test_a_signature_is_capped() -> None:
    assert len(error_signature("error: " + "word " * 200)) <= MAX_SIGNATURE_CHARS


@pytest.mark.parametrize("error", ["", "   \n\n", "Exit code 1"])
def test_no_error_text_gives_an_empty_signature(error: str) -> None:
    assert error_signature(error) == ""


# --- command signatures (text/shell.py) ----------------------------------------------------------


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


# -- the cheap gates before each pattern never change an answer -----------------------------

_LINE_CHARS = "aeEfFnrt :/\\.-_#~^%|[]()'\"`0123456789xXTZ+━✖\t"


def _every_fixture_line() -> list[str]:
    return [
        line
        for path in sorted(ERRORS.glob("*.txt"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


def _ungated_noise(line: str) -> bool:
    low = line.lower()
    return low.startswith(signature._NOISE_PREFIXES) or bool(  # noqa: SLF001
        re.match(signature._NOISE, low) or re.search(signature._PROGRESS, low)  # noqa: SLF001
    )


def _ungated_normalise(line: str) -> str:
    line = line.translate(signature._QUOTES)  # noqa: SLF001
    for pattern, placeholder, _ in signature._SUBSTITUTIONS:  # noqa: SLF001
        line = re.sub(pattern, placeholder, line)
    line = re.sub(signature._LONG_QUOTED, lambda m: f"{m[0][0]}<str>{m[0][0]}", line)  # noqa: SLF001
    return re.sub(r"\s+", " ", line).strip().lower()


def test_the_gates_agree_with_the_patterns_on_every_fixture_line() -> None:
    lines = _every_fixture_line()
    assert len(lines) > 1_000
    for line in lines:
        assert signature._noise(line) == _ungated_noise(line), line  # noqa: SLF001
        assert signature._normalise(line) == _ungated_normalise(line), line  # noqa: SLF001


_NOISE_STARTS = (
    *("warn", "Warning: ", "hint: ", "note ", "help", "INFO ", "debug", "done 3", "cached"),
    *("[internal] ", "transferring ", "run v1", "dev  v2", "node:internal/x:12", "npm error "),
    *("found 3 errors", "3 failed", "✖ 2 problems", "~~^", "---", "...", "##", "━━ 50%|"),
    *("a.py::t_x passed", "t.py .. [ 50%]", "eta 0:01", "[###  ]", " 3/10 [0"),
)
_LINES = st.text(alphabet=_LINE_CHARS, max_size=80) | st.builds(
    str.__add__, st.sampled_from(_NOISE_STARTS), st.text(alphabet=_LINE_CHARS, max_size=30)
)


@settings(max_examples=600, deadline=None)
@given(_LINES)
def test_the_gates_agree_with_the_patterns_on_any_line(line: str) -> None:
    assert signature._noise(line) == _ungated_noise(line)  # noqa: SLF001
    assert signature._normalise(line) == _ungated_normalise(line)  # noqa: SLF001
