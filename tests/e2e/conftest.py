"""Fixtures for the end-to-end tests that run the real Claude Code CLI.

Without the CLI the tests skip (install it with ``bash .ci/install-claude-code``);
CI sets ``ARTIBOT_REQUIRE_CLAUDE=1`` to turn that skip into a failure, so a
broken install cannot pass silently.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# The helpers live beside this file, in this package (relative imports work in every
# pytest import mode, and give mypy the same module names as pytest).
from .fake_anthropic import FakeAnthropic
from .harness import INSTALL_COMMAND, claude_code_dir, find_claude

if TYPE_CHECKING:
    from collections.abc import Iterator


def _claude_required() -> bool:
    """Whether a missing CLI must fail the run instead of skipping."""
    return (
        os.environ.get("CI", "").lower() == "true"
        and os.environ.get("ARTIBOT_REQUIRE_CLAUDE") == "1"
    )


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    """A working ``claude`` binary, or a skip (a failure when CI requires it)."""
    binary = find_claude()
    if binary is not None:
        return binary
    reason = (
        "Claude Code CLI not found or not runnable (checked $ARTIBOT_CLAUDE_BIN, "
        f"{claude_code_dir()} and PATH); install it with `{INSTALL_COMMAND}`"
    )
    if _claude_required():
        pytest.fail(f"{reason} [CI=true and ARTIBOT_REQUIRE_CLAUDE=1]", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def fake_api() -> Iterator[FakeAnthropic]:
    """A started fake Anthropic API on 127.0.0.1; give it a script with ``set_script``."""
    with FakeAnthropic() as fake:
        yield fake
    # A crash inside the fake would otherwise only show up as a confused CLI.
    assert not fake.errors, "fake_anthropic failed:\n" + "\n".join(fake.errors)


@pytest.fixture
def e2e_home(tmp_path: Path) -> Path:
    """An empty HOME for the CLI (config, transcripts and plugin data land here)."""
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.fixture
def e2e_project(tmp_path: Path) -> Path:
    """An empty project directory to run the CLI in."""
    project = tmp_path / "project"
    project.mkdir()
    return project
