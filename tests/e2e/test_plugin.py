"""The real plugin in a real Claude Code: two sessions, and memory carries over.

Session 1 states a preference, runs a command that fails and then its fix. Session 2
must receive the preference and session 1's summary in its SessionStart context, and,
when the same command fails again, what fixed it last time.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .fake_anthropic import FakeAnthropic, Turn, bash, text
from .harness import ClaudeRun, run_claude, validate_plugin

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
FAILING = 'python3 -c "import artibot_e2e_helper"'
FIX = "echo 'VALUE = 1' > artibot_e2e_helper.py"
PREFERENCE = "Remember that I prefer pnpm over npm for every JavaScript project"
INGEST_WAIT_SECONDS = 30


def memory_cli(memory_home: Path, *argv: str) -> str:
    done = subprocess.run(  # noqa: S603 - this interpreter, our own module
        [sys.executable, "-m", "artibot_memory", *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={"ARTIBOT_MEMORY_HOME": str(memory_home), "PATH": "/usr/bin:/bin"},
    )
    return done.stdout


def wait_for_ingest(memory_home: Path) -> None:
    """Wait until the detached SessionEnd worker has stored the journal (as a user would)."""
    deadline = time.monotonic() + INGEST_WAIT_SECONDS
    while time.monotonic() < deadline:
        pending = list(memory_home.glob("journal*"))
        listing = memory_cli(memory_home, "list", "--type", "context", "--all-projects", "--json")
        summaries = list(json.loads(listing))
        if not pending and summaries:
            return
        time.sleep(0.2)
    pytest.fail(f"the SessionEnd worker did not finish: {pending} still in the memory home")


def session(
    prompt: str,
    script: list[Turn],
    fake: FakeAnthropic,
    *,
    home: Path,
    project: Path,
    memory_home: Path,
) -> ClaudeRun:
    fake.reset()
    fake.set_script(script)
    run = run_claude(
        prompt,
        plugin_dir=REPO,
        home=home,
        cwd=project,
        api_url=fake.base_url,
        env_extra={"ARTIBOT_MEMORY_HOME": str(memory_home)},
    )
    return run.check()


@pytest.mark.usefixtures("claude_bin")  # skips (or, in CI, fails) without the CLI
def test_the_repository_is_a_valid_plugin_and_marketplace(e2e_home: Path) -> None:
    done = validate_plugin(REPO, e2e_home)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.usefixtures("claude_bin")  # skips (or, in CI, fails) without the CLI
def test_a_second_session_remembers_the_first(
    fake_api: FakeAnthropic, e2e_home: Path, e2e_project: Path, tmp_path: Path
) -> None:
    memory_home = tmp_path / "memory"
    subprocess.run(["git", "init", "-q", str(e2e_project)], check=True)  # noqa: S603, S607 - git from PATH, fixed argv

    first: list[Turn] = [
        bash(FAILING, "Import the helper"),
        bash(FIX, "Create the helper"),
        bash(FAILING, "Import again"),
        text("Fixed."),
    ]
    session(
        PREFERENCE, first, fake_api, home=e2e_home, project=e2e_project, memory_home=memory_home
    )
    wait_for_ingest(memory_home)

    (e2e_project / "artibot_e2e_helper.py").unlink()
    second: list[Turn] = [bash(FAILING, "Import the helper"), text("It failed again.")]
    session(
        "What do you remember about this project?",
        second,
        fake_api,
        home=e2e_home,
        project=e2e_project,
        memory_home=memory_home,
    )

    start = [
        r for r in fake_api.main_requests() if r.contains("SessionStart hook additional context")
    ]
    assert start, "no SessionStart context reached the model"
    context = "\n".join(s for s in start[0].strings() if "artibot-memory" in s)
    assert "I prefer pnpm over npm for every JavaScript project" in context
    assert "Session " in context and PREFERENCE[:40] in context  # noqa: PT018 - session 1's summary: its heading and its text
    fixed = [
        s
        for r in fake_api.main_requests()
        for s in r.strings()
        if "PostToolUseFailure" in s and "fixed" in s
    ]
    assert fixed, "the earlier fix was not offered when the error came back"
    assert "artibot_e2e_helper.py" in fixed[0]
