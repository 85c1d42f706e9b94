"""The real plugin in a real Claude Code: two sessions, and memory carries over.

Session 1 states a preference, runs a command that fails and then its fix. Session 2
must receive the preference and session 1's summary in its SessionStart context, and,
when the same command fails again, what fixed it last time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .fake_anthropic import Turn, bash, text
from .harness import validate_plugin
from .sessions import (
    REPO,
    Place,
    failure_contexts,
    git_project,
    session,
    start_context,
    wait_for_ingest,
)

if TYPE_CHECKING:
    from pathlib import Path

    from .fake_anthropic import FakeAnthropic

pytestmark = pytest.mark.e2e

FAILING = 'python3 -c "import artibot_e2e_helper"'
FIX = "echo 'VALUE = 1' > artibot_e2e_helper.py"
PREFERENCE = "Remember that I prefer pnpm over npm for every JavaScript project"


@pytest.mark.usefixtures("claude_bin")  # skips (or, in CI, fails) without the CLI
def test_the_repository_is_a_valid_plugin_and_marketplace(e2e_home: Path) -> None:
    done = validate_plugin(REPO, e2e_home)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.usefixtures("claude_bin")  # skips (or, in CI, fails) without the CLI
def test_a_second_session_remembers_the_first(
    fake_api: FakeAnthropic, e2e_home: Path, e2e_project: Path, tmp_path: Path
) -> None:
    place = Place(e2e_home, git_project(e2e_project), tmp_path / "memory")
    first: list[Turn] = [
        bash(FAILING, "Import the helper"),
        bash(FIX, "Create the helper"),
        bash(FAILING, "Import again"),
        text("Fixed."),
    ]
    wait_for_ingest(session(PREFERENCE, first, fake_api, place).check(), place.memory_home)

    (e2e_project / "artibot_e2e_helper.py").unlink()
    second: list[Turn] = [bash(FAILING, "Import the helper"), text("It failed again.")]
    session("What do you remember about this project?", second, fake_api, place).check()

    context = start_context(fake_api)
    assert context, "no SessionStart context reached the model"
    assert "I prefer pnpm over npm for every JavaScript project" in context
    assert "## Last sessions in " in context  # session 1, in a line: what it asked and did
    assert "failed, then fixed" in context  # its failed import, fixed by the helper it wrote
    fixed = [told for told in failure_contexts(fake_api) if "fixed" in told]
    assert fixed, "the earlier fix was not offered when the error came back"
    assert "artibot_e2e_helper.py" in fixed[0]
