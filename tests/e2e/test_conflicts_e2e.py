"""A contradiction in real Claude Code sessions: logged, named at the next start once, resolved.

Session 1 in project ``shop`` states a rule ("always use pnpm, never npm"). Session 2
contradicts it plainly ("please always use yarn", saying neither "from now on" nor
"instead of pnpm": a reversal that says so supersedes with no conflict,
notes/conflicts.py): the new value wins as before, and the pair is now a conflict in
``conflicts/<today>.md``, both sides with their sources, high severity (the old side is
an established global rule). Session 3's SessionStart context names it
once, with the command that resolves it; session 4's does not name it again. The user
keeps the old rule with ``conflicts resolve ID --keep old``: pnpm is active again, yarn is
kept as superseded history, and the ledger entry says how it was resolved.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import TYPE_CHECKING

import pytest

from .fake_anthropic import text
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

OLD = "From now on always use pnpm, never npm, in every project."
NEW = "Please always use yarn in every project."


def _preference(memory_home: Path, words: str) -> dict[str, object]:
    found = [m for m in memories(memory_home, "preference") if words in str(m["text"])]
    assert len(found) == 1, found
    return found[0]


def test_a_contradicting_preference_is_named_at_the_next_session_start_and_resolved(
    fake_api: FakeAnthropic, e2e_home: Path, tmp_path: Path
) -> None:
    shop = git_project(tmp_path / "shop")
    place = Place(e2e_home, shop, tmp_path / "memory")
    first = session(OLD, [text("Noted: pnpm.")], fake_api, place).check()
    wait_for_ingest(first, place.memory_home)
    second = session(NEW, [text("Noted: yarn.")], fake_api, place).check()
    wait_for_ingest(second, place.memory_home)

    today = datetime.now().astimezone().date().isoformat()
    ledger = (place.memory_home / "conflicts" / f"{today}.md").read_text(encoding="utf-8")
    heading = re.search(r"^## (cf-[0-9a-f]{8}) · high · open$", ledger, re.MULTILINE)
    assert heading, ledger
    conflict = heading.group(1)
    assert "pnpm" in ledger
    assert "yarn" in ledger
    listed = json.loads(memory_cli(place.memory_home, "conflicts", "--json"))
    assert [c["id"] for c in listed] == [conflict], listed

    third = session("What should I work on?", [text("The cart.")], fake_api, place).check()
    named = start_context(fake_api)
    assert conflict in named, named
    assert f"artibot-memory conflicts resolve {conflict}" in named
    assert "pnpm" in named
    assert "yarn" in named
    wait_for_ingest(third, place.memory_home)
    session("Anything else?", [text("No.")], fake_api, place).check()
    assert conflict not in start_context(fake_api)  # named once

    memory_cli(place.memory_home, "conflicts", "resolve", conflict, "--keep", "old")
    assert _preference(place.memory_home, "always use pnpm")["state"] == "active"
    assert _preference(place.memory_home, "always use yarn")["state"] == "superseded"
    history = json.loads(
        memory_cli(place.memory_home, "search", "yarn", "--state", "superseded", "--json")
    )
    assert any("yarn" in str(hit["text"]) for hit in history), history
    resolved = (place.memory_home / "conflicts" / f"{today}.md").read_text(encoding="utf-8")
    assert f"## {conflict} · high · resolved" in resolved
    assert re.search(r"^- resolution: .*kept old", resolved, re.MULTILINE), resolved
