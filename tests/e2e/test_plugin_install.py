"""Installed from a clone the README's way, after the tests ran in it, the plugin stays small.

Claude Code copies a plugin from a local-directory marketplace whole (all but ``.git``)
into ``~/.claude/plugins/cache/<marketplace>/<plugin>/<version>/``. The clone here is
this repository as its next commit would be (``git clone``, then the tracked and the new,
unignored files of the work tree over it); a few tests run inside it first, with the
cache provider and hypothesis on, so that anything they would leave in the tree is there
to be copied. ``tests/test_plugin_size.py`` checks the tree itself without the CLI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .harness import claude_env

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
LIMIT = 6 * 1024 * 1024  # the tests and benchmarks ship too: four agents' fixtures took it past 5
PLUGIN_ID = "artibot-memory@artibot-memory"
# The README's install commands, run as written with the clone's path.
README_PLACEHOLDER = "/path/to/artibot-memory"
README_COMMANDS = (
    ("claude", "plugin", "marketplace", "add", README_PLACEHOLDER),
    ("claude", "plugin", "install", PLUGIN_ID),
)
# Fast tests that write pytest's cache and hypothesis' files (test_tokens uses @given).
TESTS_RUN_IN_THE_CLONE = ("tests/test_tokens.py", "tests/test_plugin_size.py")
# Where the tests' caches used to land inside the tree.
IN_TREE_CACHES = (".pytest_cache", ".hypothesis", "tests/e2e/node_modules")


def run(args: list[str], *, env: dict[str, str], cwd: Path, timeout: float = 120) -> str:
    done = subprocess.run(  # noqa: S603 - argv built here
        args, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout, check=False
    )
    assert done.returncode == 0, (
        f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    )
    return done.stdout


def git_paths(*args: str) -> list[str]:
    done = subprocess.run(  # noqa: S603 - git from PATH, fixed argv
        ["git", "-C", str(REPO), "ls-files", "-z", *args],  # noqa: S607
        capture_output=True,
        check=True,
    )
    return [p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def clone_as_next_commit(clone: Path) -> None:
    """``git clone`` of the repository, with the work tree's uncommitted changes on top."""
    run(["git", "clone", "--quiet", str(REPO), str(clone)], env=dict(os.environ), cwd=REPO)
    for relative in git_paths("--cached", "--others", "--exclude-standard"):
        source, target = REPO / relative, clone / relative
        if source.is_symlink():  # the Gemini extension's links into the package
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink() or target.is_file():
                target.unlink()
            if not target.exists():
                target.symlink_to(os.readlink(source))
        elif source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        elif not source.exists() and target.is_file():
            target.unlink()  # deleted in the work tree


def tree_size(root: Path) -> int:
    """Bytes of every file under ``root`` (links counted as themselves, not followed)."""
    return sum(
        (Path(folder) / name).lstat().st_size
        for folder, _, names in os.walk(root)
        for name in names
    )


def test_the_plugin_installed_from_a_clone_after_the_tests_ran_stays_under_6_mb(
    claude_bin: Path, tmp_path: Path, e2e_home: Path
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for command in README_COMMANDS:
        assert " ".join(command) in readme, f"the README no longer says `{' '.join(command)}`"

    clone = tmp_path / "artibot-memory"
    clone_as_next_commit(clone)

    # The tests, in the clone, as a developer runs them: caches on, default cache folders
    # (under a throwaway HOME, so that nothing lands in the real user's cache).
    user_home = tmp_path / "user-home"
    user_home.mkdir()
    test_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "HYPOTHESIS_"))
        and k not in {"ARTIBOT_TEST_CACHE", "XDG_CACHE_HOME", "ARTIBOT_MEMORY_HOME"}
    }
    test_env["HOME"] = str(user_home)
    run(
        [sys.executable, "-m", "pytest", "-q", "-p", "cacheprovider", *TESTS_RUN_IN_THE_CLONE],
        env=test_env,
        cwd=clone,
        timeout=300,
    )
    caches = user_home / ".cache" / "artibot-memory"
    assert (caches / "pytest").is_dir(), "pytest's cache did not go to the user's cache folder"
    assert (caches / "hypothesis").is_dir(), "hypothesis did not use the user's cache folder"
    assert not [p for p in IN_TREE_CACHES if (clone / p).exists()]

    # The README's install commands, with a throwaway HOME for Claude Code. No API key:
    # with one, the CLI first waits ~18 s on an (offline) fetch of managed settings.
    env = claude_env(e2e_home)
    env.pop("ANTHROPIC_API_KEY", None)
    for command in README_COMMANDS:
        argv = [
            str(claude_bin),
            *(str(clone) if a == README_PLACEHOLDER else a for a in command[1:]),
        ]
        run(argv, env=env, cwd=e2e_home)

    installed = json.loads(
        (e2e_home / ".claude" / "plugins" / "installed_plugins.json").read_text(encoding="utf-8")
    )
    install_path = Path(installed["plugins"][PLUGIN_ID][0]["installPath"])
    assert install_path.is_relative_to(e2e_home / ".claude" / "plugins" / "cache"), install_path
    assert (install_path / ".claude-plugin" / "plugin.json").is_file()
    assert (install_path / "hooks" / "hooks.json").is_file()
    assert not [p for p in IN_TREE_CACHES if (install_path / p).exists()]
    size = tree_size(install_path)
    print(f"installed plugin: {install_path} holds {size / 1024 / 1024:.2f} MB")  # for -s
    assert size < LIMIT, f"{install_path} holds {size / 1024 / 1024:.1f} MB"
