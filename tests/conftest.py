"""Every test gets its own empty memory home; hypothesis and bytecode stay outside the clone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import cache_root  # pytest puts tests/ on sys.path before importing this file
from hypothesis.configuration import set_hypothesis_home_dir

# Bytecode goes to the tests' cache folder too, for this process and the hooks and CLIs the
# tests start: Claude Code copies a clone installed as a plugin whole, __pycache__ included
# (tests/test_plugin_size.py). Set before the package below is imported.
sys.pycache_prefix = os.environ.setdefault("PYTHONPYCACHEPREFIX", str(cache_root() / "pycache"))

# Every module that builds a pydantic schema, imported before any test: the read path
# imports the writers lazily, and a schema first built inside freeze_time would be built
# for freezegun's FakeDatetime, which pydantic refuses (a test artefact, not a product one).
import artibot_memory.cli.verbs  # noqa: E402 - after the bytecode folder is set
import artibot_memory.lifecycle  # noqa: E402, F401

FIXTURES = Path(__file__).parent / "fixtures"

# Hypothesis would write .hypothesis/ (its example database, constants and unicode caches)
# into the current directory, that is the clone, which Claude Code copies whole into its
# plugin cache when the plugin is installed from it. Set before any test touches it, to the
# folder the e2e harness and .ci/install-claude-code use (one rule for all the tests' caches).
set_hypothesis_home_dir(cache_root() / "hypothesis")


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """Declare ``cache_dir`` when ``-p no:cacheprovider`` left nobody to.

    pyproject.toml moves pytest's cache out of the clone with ``cache_dir``, which only the
    cache provider declares; without it ``--strict-config`` would refuse the key.
    """
    if pluginmanager.is_blocked("cacheprovider"):
        parser.addini("cache_dir", "unused: the cache provider is off (-p no:cacheprovider)")


@pytest.fixture(autouse=True)
def memory_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "memory-home"
    monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(home))
    # Nor the plugin's data of a Claude Code installed on this machine: doctor and the
    # bootstrap look for its venv there (a test that wants one sets these itself).
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-config"))
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    # Nor Codex's, nor the folder Gemini CLI's and Cursor's hooks share (core/venv.py).
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    monkeypatch.delenv("PLUGIN_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    # Keyword-only whether or not the vectors extra is installed, so every test sees the
    # results of today's search; tests/test_vectors.py turns the layer on where it needs it.
    monkeypatch.setenv("ARTIBOT_MEMORY_VECTORS", "off")
    return home


@pytest.fixture
def utc_days(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make the user's local days UTC days, so a note's name and a line's date are known."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record the detached processes started instead of starting them (run the others)."""
    calls: list[list[str]] = []
    real_popen = subprocess.Popen

    def fake_popen(argv: list[str], **options: Any) -> Any:
        if not options.get("start_new_session"):
            return real_popen(argv, **options)  # subprocess.run: a probe, not a builder
        calls.append(argv)
        return None

    monkeypatch.setattr(subprocess, "Popen", fake_popen)
    return calls
