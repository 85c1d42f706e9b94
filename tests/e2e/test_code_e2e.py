"""Memory that follows the code (issue 29), in a real Claude Code.

Session 1: a check of the cart total fails, the assistant rewrites ``cart_total.py``, the
same check then passes: a fix, anchored by the session end's worker to the file's blob and
HEAD. Then the developer commits the fix and, later, rewrites the file again and commits
that. Session 2 is a quick look (its start finds HEAD moved: its worker checks the code).
Session 3: the same check fails again, and what Claude receives says the fix's file
changed since, with the commits, and the fix's confidence lowered for this recall; the
session start says it too.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from typing import TYPE_CHECKING

import pytest

from .fake_anthropic import Turn, bash, text, tool_use
from .sessions import (
    WAIT_SECONDS,
    Place,
    failure_contexts,
    git_project,
    memories,
    session,
    show,
    start_context,
    wait_for_ingest,
)

if TYPE_CHECKING:
    from pathlib import Path

    from .fake_anthropic import FakeAnthropic

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("claude_bin")]

CHECK = "python3 -c \"import cart_total; assert cart_total.total([1, 2]) == 3, 'wrong total'\""
BUGGY = "def total(items):\n    return sum(items) - 1\n"
FIXED = "def total(items):\n    return sum(items)\n"
REWRITTEN = "def total(items):\n    subtotal = sum(items)\n    return subtotal + 1  # shipping\n"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ana",
    "GIT_AUTHOR_EMAIL": "ana@example.com",
    "GIT_COMMITTER_NAME": "Ana",
    "GIT_COMMITTER_EMAIL": "ana@example.com",
}


def commit(project: Path, message: str) -> str:
    """Commit everything in ``project`` as a developer would; return the new HEAD."""
    env = {**os.environ, **GIT_ENV}
    for argv in (["add", "-A"], ["commit", "-q", "-m", message]):
        subprocess.run(["git", *argv], cwd=project, check=True, env=env)  # noqa: S603, S607
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"],  # noqa: S607
        cwd=project,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def wait_for_code_check(memory_home: Path, head: str) -> None:
    """Wait until a worker has checked the project's code at ``head`` (cache/code-*.json)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        for path in (memory_home / "cache").glob("code-*.json"):
            try:
                if json.loads(path.read_text()).get("head") == head:
                    return
            except (OSError, ValueError):
                pass
        time.sleep(0.2)
    pytest.fail(f"no worker checked the code at {head} in time")


def test_a_recalled_fix_of_a_file_rewritten_since_says_so(
    fake_api: FakeAnthropic, e2e_home: Path, tmp_path: Path
) -> None:
    project = git_project(tmp_path / "cart-app")
    (project / "cart_total.py").write_text(BUGGY, encoding="utf-8")
    commit(project, "the cart total")
    place = Place(e2e_home, project, tmp_path / "memory")
    target = str(project / "cart_total.py")
    first: list[Turn] = [
        bash(CHECK, "Check the cart total"),
        tool_use(
            "Write",
            {"file_path": target, "content": FIXED},
            preamble="The total subtracts one; it should be the plain sum.",
        ),
        bash(CHECK, "Check the cart total again"),
        text("Fixed: total() returns the plain sum."),
    ]
    one = session("Fix the cart total", first, fake_api, place, tools=("Bash", "Write"))
    one.check()
    wait_for_ingest(one, place.memory_home)
    [listed] = [e for e in memories(place.memory_home, "error") if "wrong total" in e["text"]]
    error = show(place.memory_home, listed["id"])
    anchored = error["details"]["anchors"]["files"]
    assert [a["path"] for a in anchored] == ["cart_total.py"], anchored

    commit(project, "fix the cart total")  # the anchored content, committed
    (project / "cart_total.py").write_text(REWRITTEN, encoding="utf-8")
    head = commit(project, "shipping in the total")

    look: list[Turn] = [bash("git log --oneline -3", "Look at the history"), text("Two commits.")]
    session("What changed lately?", look, fake_api, place).check()
    wait_for_code_check(place.memory_home, head)

    again: list[Turn] = [bash(CHECK, "Check the cart total"), text("It fails again.")]
    session("Check the cart total", again, fake_api, place).check()

    [told] = failure_contexts(fake_api)
    assert listed["id"] in told
    assert "cart_total.py changed since, 2 commits" in told, told
    assert "confidence" in told
    assert ", was " in told  # lowered for this recall, with what it was
    start = start_context(fake_api)
    assert "cart_total.py changed since, 2 commits" in start, start
