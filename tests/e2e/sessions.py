"""Scripted sessions of the real plugin, and what the memory home holds after them.

One place for what every end-to-end scenario does: run a ``claude -p`` session with this
repository as its plugin (:func:`session`), read the memory home through the real CLI
(:func:`memory_cli`), wait for the detached SessionEnd worker (:func:`wait_for_ingest`),
and pick out what the hooks told the model (:func:`start_context`,
:func:`failure_contexts`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .harness import ClaudeRun, run_claude

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .fake_anthropic import FakeAnthropic, Turn

REPO = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 30
START_MARK = "SessionStart hook additional context"
HOOK_MARK = "hook additional context"


@dataclass(frozen=True)
class Place:
    """Where a session runs: Claude Code's HOME, the project, the memory home."""

    home: Path
    project: Path
    memory_home: Path

    def elsewhere(self, project: Path) -> Place:
        """The same HOME and memory home, in another project."""
        return Place(self.home, project, self.memory_home)


def git_project(path: Path) -> Path:
    """An empty git repository at ``path`` (the project a session runs in)."""
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)  # noqa: S603, S607 - git from PATH, fixed argv
    return path


def session(
    prompt: str,
    script: Sequence[Turn],
    fake: FakeAnthropic,
    place: Place,
    *,
    tools: Sequence[str] = ("Bash",),
    extra_args: Sequence[str] = (),
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> ClaudeRun:
    """One ``claude -p`` session with the plugin, the fake API answering from ``script``."""
    fake.reset()
    fake.set_script(script)
    return run_claude(
        prompt,
        plugin_dir=REPO,
        home=place.home,
        cwd=place.project,
        api_url=fake.base_url,
        env_extra={"ARTIBOT_MEMORY_HOME": str(place.memory_home), **(env or {})},
        allowed_tools=tools,
        extra_args=extra_args,
        timeout=timeout,
    )


def memory_cli(memory_home: Path, *argv: str) -> str:
    """``artibot-memory ARGV`` on ``memory_home``, run as a user would; its stdout."""
    done = subprocess.run(  # noqa: S603 - this interpreter, our own module
        [sys.executable, "-m", "artibot_memory", *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={
            "ARTIBOT_MEMORY_HOME": str(memory_home),
            "PATH": "/usr/bin:/bin",
            # its bytecode out of the clone, as the tests' own (tests/conftest.py)
            **{k: v for k, v in os.environ.items() if k == "PYTHONPYCACHEPREFIX"},
        },
    )
    return done.stdout


def memories(memory_home: Path, kind: str) -> list[dict[str, Any]]:
    """Every memory of one type, in every project (``list --type KIND --all-projects``)."""
    listing = memory_cli(memory_home, "list", "--type", kind, "--all-projects", "--json")
    return list(json.loads(listing))


def show(memory_home: Path, memory_id: str) -> dict[str, Any]:
    """One memory in full, with its details (``show ID --json``)."""
    return dict(json.loads(memory_cli(memory_home, "show", memory_id, "--json")))


def wait_for_ingest(run: ClaudeRun, memory_home: Path) -> None:
    """Wait until the detached SessionEnd worker has stored ``run``'s session."""
    deadline = time.monotonic() + WAIT_SECONDS
    key = f"session:{run.session_id}"
    while time.monotonic() < deadline:
        pending = list(memory_home.glob("journal*"))
        if not pending and any(m.get("key") == key for m in memories(memory_home, "context")):
            return
        time.sleep(0.2)
    pytest.fail(f"the SessionEnd worker did not store {key} in time")


def start_context(fake: FakeAnthropic) -> str:
    """What SessionStart told the model in the last session (empty when nothing)."""
    return "\n".join(
        s
        for r in fake.main_requests()
        if r.contains(START_MARK)
        for s in r.strings()
        if START_MARK in s
    )


def section(context: str, heading: str) -> str:
    """The lines under ``## HEADING`` in a SessionStart context, up to the next heading."""
    _, found, rest = context.partition(f"## {heading}\n")
    assert found, f"no {heading} section in {context!r}"
    return rest.split("\n## ", 1)[0]


def failure_contexts(fake: FakeAnthropic) -> list[str]:
    """What PostToolUseFailure told the model in the last session, one string per failure."""
    found: list[str] = []
    for request in fake.main_requests():
        for string in request.strings():
            ours = "PostToolUse" in string and HOOK_MARK in string and "artibot-memory" in string
            if ours and string not in found:
                found.append(string)
    return found
