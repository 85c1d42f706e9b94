"""Beliefs that evolve in real Claude Code: Top Beliefs at session end, `/artibot-memory:evolve`.

Four sessions in project ``shop`` each state the same rule ("always use pnpm, never npm"):
four sessions of evidence. The SessionEnd worker's promote phase (bootstrap: fewer than 20
beliefs, so confidence 0.7 and 1 source suffice, and four sources make 0.8) pins it to
MEMORY.md's ``## Top Beliefs`` and says so in ``evolution.log``, with no evolve run by
anyone. Then the user types ``/artibot-memory:evolve --dry-run``: Claude Code expands the
skill with the user's flags, the model (the fake API) runs the command the skill shows, and
the report it reads ends with the audit log's path; the dry run logged nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from .fake_anthropic import bash, text
from .sessions import Place, git_project, memory_cli, session, wait_for_ingest

if TYPE_CHECKING:
    from pathlib import Path

    from .fake_anthropic import FakeAnthropic, Turn

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("claude_bin")]

RULE = "From now on always use pnpm, never npm, in every project."
TOP_LINE = re.compile(
    r"^- From now on always use pnpm, never npm, in every project → (pref-[0-9a-f]{10}) · "
    r"conf 0\.80 · 4 sources · stable <!-- am:\1 -->$",
    re.MULTILINE,
)


def test_a_rule_of_four_sessions_reaches_top_beliefs_and_the_skill_runs_evolve(
    fake_api: FakeAnthropic, e2e_home: Path, tmp_path: Path
) -> None:
    shop = git_project(tmp_path / "shop")
    place = Place(e2e_home, shop, tmp_path / "memory")
    for _ in range(4):
        run = session(RULE, [text("Noted: pnpm.")], fake_api, place).check()
        wait_for_ingest(run, place.memory_home)

    memory_md = (place.memory_home / "MEMORY.md").read_text(encoding="utf-8")
    top = memory_md.split("## Top Beliefs\n", 1)[1].split("\n## ", 1)[0]
    found = TOP_LINE.search(top)
    assert found, memory_md
    rule_id = found.group(1)
    log = (place.memory_home / "evolution.log").read_text(encoding="utf-8")
    assert f"PROMOTE  {rule_id} → Top Beliefs conf=0.80 sources=4 [bootstrap]" in log

    script: list[Turn] = [
        bash("artibot-memory evolve --dry-run", "Evolve the memory, writing nothing"),
        text("Nothing would change."),
    ]
    evolved = session("/artibot-memory:evolve --dry-run", script, fake_api, place).check()
    expanded = [r for r in fake_api.main_requests() if r.contains("# Evolve the memory (seed 002)")]
    assert expanded, "the skill's body never reached the model"
    assert expanded[0].contains("The user's words after `/artibot-memory:evolve` are: --dry-run")
    results = [s for r in fake_api.main_requests() for s in r.strings() if "Memory evolved" in s]
    assert results, "the command's report never reached the model"
    assert "(dry run: nothing written)" in results[-1]
    assert f"Audit: {place.memory_home / 'evolution.log'}" in results[-1]
    wait_for_ingest(evolved, place.memory_home)
    assert "Top Beliefs #1" in memory_cli(place.memory_home, "show", rule_id)
    # The dry run logged nothing, and the session end's promote found nothing to change.
    assert (place.memory_home / "evolution.log").read_text(encoding="utf-8") == log
