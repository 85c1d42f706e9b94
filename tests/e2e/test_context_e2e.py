"""What the memory hands back, in a real Claude Code (issue 25).

Session 1 fails the imports of five helper modules, writes each, and each import then
succeeds; it also states who owns the module. Session 2 starts with a context a person
would write (fixes, people, the last session in a line; no session id, clock range, path
or model), four fixes in it (its cap); its prompt, asking what fixed the fifth import, the
one the start did not show, is answered by that error record with its fix, not by a
session summary.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from .fake_anthropic import Turn, bash, text
from .sessions import (
    Place,
    git_project,
    memories,
    memory_cli,
    session,
    start_context,
    wait_for_ingest,
)

if TYPE_CHECKING:
    from pathlib import Path

    from .fake_anthropic import FakeAnthropic

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("claude_bin")]

MODULES = ("ledger_rounding", "ledger_export", "ledger_audit", "ledger_totals", "ledger_dates")
ASK = "Add the ledger rounding helper. Mina owns the ledger module, so keep its API stable."
PROMPT_MARK = "UserPromptSubmit hook additional context"
BOOKKEEPING = re.compile(r"Session [0-9a-f]{8}|\d\d:\d\d–\d\d:\d\d|UTC|claude-|/tmp/")


def prompt_context(fake: FakeAnthropic) -> str:
    """What UserPromptSubmit told the model in the last session (empty when nothing)."""
    return "\n".join(s for r in fake.main_requests() for s in r.strings() if PROMPT_MARK in s)


def test_a_session_starts_with_what_it_needs_and_a_prompt_gets_the_fix_that_answers_it(
    fake_api: FakeAnthropic, e2e_home: Path, tmp_path: Path
) -> None:
    project = git_project(tmp_path / "ledger-app")
    place = Place(e2e_home, project, tmp_path / "memory")
    first: list[Turn] = [
        turn
        for module in MODULES
        for turn in (
            bash(f'python3 -c "import {module}"', f"Import {module}"),
            bash(f"echo 'READY = True' > {module}.py", f"Write {module}"),
            bash(f'python3 -c "import {module}"', f"Import {module} again"),
        )
    ]
    first.append(text("Fixed: the helper modules now exist."))
    wait_for_ingest(session(ASK, first, fake_api, place).check(), place.memory_home)
    errors = {e["text"].split('"')[1]: e for e in memories(place.memory_home, "error")}
    assert all(errors[f"import {module}"]["resolution"] for module in MODULES)
    shown = memory_cli(place.memory_home, "context", "--project", str(project))
    [hidden] = [module for module in MODULES if errors[f"import {module}"]["id"] not in shown]
    error = errors[f"import {hidden}"]  # the start shows four fixes: its cap

    second: list[Turn] = [text("It was fixed by writing the module.")]
    session(f"How did we fix the {hidden} import error last time?", second, fake_api, place)

    start = start_context(fake_api).split("\n\n# Environment", 1)[0]  # ours, not Claude Code's
    assert "## Fixes of errors seen in ledger-app" in start
    assert "## People of ledger-app" in start
    assert "Mina owns the ledger module" in start
    assert "## Last sessions in ledger-app" in start
    assert not BOOKKEEPING.search(start), BOOKKEEPING.search(start)
    assert len(start) <= 3_600 + len("SessionStart hook additional context: ")
    assert error["id"] not in start

    recalled = prompt_context(fake_api)
    assert error["id"] in recalled, recalled
    assert "fixed by" in recalled
    assert "session:" not in recalled  # the record that answers, not a summary
