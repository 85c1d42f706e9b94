"""A plugin installed from a clone stays small, whether or not the tests ran in it.

Claude Code installs a plugin from a local-directory marketplace by copying the folder
whole into its plugin cache (everything but ``.git``: it honours no ignore file). So what
git ships, plus whatever the tests leave inside the tree, is what every user's plugin
cache receives; the tests keep their own caches (the Claude Code CLI, pytest's cache,
hypothesis' files) in a folder of the user's instead. ``tests/e2e/test_plugin_install.py``
checks the same on a real install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import cache_root, claude_code_dir
from hypothesis.configuration import storage_directory

REPO = Path(__file__).resolve().parents[1]
LIMIT = 6 * 1024 * 1024  # the tests and benchmarks ship too: four agents' fixtures took it past 5
# Written by the developer's tools of README's "Working on it", not by the tests; they are
# copied along too (the README says to install from a clone you do not develop in).
NOT_FROM_THE_TESTS = (".mypy_cache", ".ruff_cache")


def git_paths(*args: str) -> list[str]:
    """NUL-separated paths printed by ``git ls-files ARGS`` in the repository."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    done = subprocess.run(  # noqa: S603 - git from PATH, fixed argv
        ["git", "-C", str(REPO), "ls-files", "-z", *args],  # noqa: S607
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"{REPO} is not a git work tree")
    return [p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def size(relative: str) -> int:
    """Bytes of one file in the tree (a link counts as itself; a deleted file as 0)."""
    try:
        return (REPO / relative).lstat().st_size
    except FileNotFoundError:
        return 0


def is_left_by_the_tests(relative: str, venvs: tuple[str, ...]) -> bool:
    """Whether an untracked file is one the tests may have written (not a venv or a linter's)."""
    first = relative.split("/", 1)[0]
    return first not in NOT_FROM_THE_TESTS and not relative.startswith(venvs)


def megabytes(n: int) -> str:
    return f"{n / 1024 / 1024:.2f} MB"


def test_what_git_ships_and_what_the_tests_leave_in_the_tree_stay_under_6_mb() -> None:
    shipped = git_paths("--cached")
    # Untracked files, ignored ones included: what the tests wrote lands there.
    untracked = git_paths("--others")
    venvs = tuple(p.removesuffix("pyvenv.cfg") for p in untracked if p.endswith("pyvenv.cfg"))
    left = [p for p in untracked if is_left_by_the_tests(p, venvs)]

    by_folder: Counter[str] = Counter()
    for path in [*shipped, *left]:
        by_folder["/".join(path.split("/")[:3])] += size(path)
    total = sum(by_folder.values())
    largest = ", ".join(f"{name} {megabytes(n)}" for name, n in by_folder.most_common(5))
    assert total < LIMIT, (
        f"the tree holds {megabytes(total)} a plugin installed from it would copy "
        f"(largest: {largest}); a leftover tests/e2e/node_modules, .pytest_cache or "
        ".hypothesis from an older layout can be removed"
    )


def resolved_pytest_cache_dir(config: pytest.Config) -> Path:
    """``cache_dir`` resolved as pytest resolves it (``~`` and variables, then the rootdir)."""
    value = os.path.expandvars(os.path.expanduser(str(config.getini("cache_dir"))))
    return config.rootpath / value


def test_the_tests_keep_their_caches_outside_the_tree(pytestconfig: pytest.Config) -> None:
    installed = claude_code_dir()
    assert installed is not None, "tests/e2e/package.json pins no Claude Code version"
    # Older hypothesis versions return the path itself, newer ones an object holding it.
    storage: Any = storage_directory("examples")
    hypothesis_dir = Path(getattr(storage, "path", storage))
    places = {
        "the test cache folder": cache_root(),
        "the Claude Code CLI (.ci/install-claude-code)": installed,
        "pytest's cache (cache_dir)": resolved_pytest_cache_dir(pytestconfig),
        "hypothesis' database (tests/conftest.py)": hypothesis_dir,
    }
    inside = {
        what: str(where)
        for what, where in places.items()
        if where.resolve().is_relative_to(REPO.resolve())
    }
    assert not inside, f"inside the clone, so copied into Claude Code's plugin cache: {inside}"
