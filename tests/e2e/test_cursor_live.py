"""Cursor, live: runs only where ``cursor-agent`` and ``CURSOR_API_KEY`` exist.

Cursor's agent comes from Cursor's own site and its model runs behind Cursor's backend, so
no fake can stand in and CI cannot run it; ``tests/test_agents.py`` tests the adapter on the
documented payloads instead. Here, with a real account: the hooks installed the README's
way (``~/.cursor/hooks.json`` from ``hooks/cursor.json``) in a throwaway HOME, a memory
saved by hand is recalled at the session's start (the model answers with it), and the
session leaves its summary, made from Cursor's own transcript.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from .sessions import git_project, memories, memory_cli

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
AGENT = shutil.which("cursor-agent")
WAIT_SECONDS = 30

requires_cursor = pytest.mark.skipif(
    AGENT is None or not os.environ.get("CURSOR_API_KEY"),
    reason="cursor-agent and CURSOR_API_KEY are needed (Cursor cannot run offline)",
)


def install_hooks(home: Path) -> None:
    """The README's lines: our hooks file with the clone's path, as ~/.cursor/hooks.json."""
    text = (REPO / "hooks" / "cursor.json").read_text(encoding="utf-8")
    (home / ".cursor").mkdir(parents=True)
    written = text.replace("${CURSOR_PLUGIN_ROOT}", str(REPO))
    (home / ".cursor" / "hooks.json").write_text(written, encoding="utf-8")


@requires_cursor
def test_cursor_recalls_a_memory_at_its_start_and_leaves_its_summary(tmp_path: Path) -> None:
    home, memory = tmp_path / "home", tmp_path / "memory"
    project = git_project(tmp_path / "shop")
    install_hooks(home)
    memory_cli(memory, "save", "preference", "Always use pnpm instead of npm")
    env = {
        **os.environ,
        "HOME": str(home),
        "ARTIBOT_MEMORY_HOME": str(memory),
    }
    done = subprocess.run(  # noqa: S603 - the agent found on PATH
        [str(AGENT), "-p", "--force", "Which package manager should I use here? One word."],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "pnpm" in done.stdout.lower()
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        ours = [
            m
            for m in memories(memory, "context")
            if (m.get("source") or {}).get("agent") == "cursor"
        ]
        if ours:
            break
        time.sleep(0.5)
    assert ours, json.dumps(memories(memory, "context"), indent=1)
