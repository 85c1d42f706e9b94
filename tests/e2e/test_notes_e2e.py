"""The Markdown layers from a real Claude Code session: a daily note and a MEMORY.md line.

Session 1 in project ``shop`` states a preference, decides something with its reason and
runs a test. Its detached SessionEnd worker writes ``daily/<today>.md`` (the ask as an
Event, the decision under Decisions, both naming the project and ending with their source)
and renders ``MEMORY.md`` (the preference as a managed line). Then, as a person would, the
user reads the day back with ``get today``, finds the decision with ``search`` (an
episodic hit with its ``daily/…:LINE`` source), and adds a line to MEMORY.md by hand;
session 2's worker keeps that line and learns it as a memory.
"""

from __future__ import annotations

import json
import re
import time
from datetime import datetime
from typing import TYPE_CHECKING

import pytest

from .fake_anthropic import bash, text
from .sessions import Place, git_project, memories, memory_cli, session, wait_for_ingest

if TYPE_CHECKING:
    from pathlib import Path

    from .fake_anthropic import FakeAnthropic, Turn

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("claude_bin")]

ASK = (
    "From now on always use pnpm, never npm. We'll go with argon2 over bcrypt for the "
    "password hashes because it is memory-hard. Please run the unit tests."
)
HAND_LINE = "Sara owns the billing service"
WAIT_SECONDS = 30


def _wait_for(path: Path, needle: str) -> str:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if path.exists() and needle in (content := path.read_text(encoding="utf-8")):
            return content
        time.sleep(0.2)
    pytest.fail(f"{path.name} never held {needle!r}")


def test_a_session_leaves_a_daily_note_and_a_memory_md_line_a_person_can_read_and_edit(
    fake_api: FakeAnthropic, e2e_home: Path, tmp_path: Path
) -> None:
    shop = git_project(tmp_path / "shop")
    place = Place(e2e_home, shop, tmp_path / "memory")
    script: list[Turn] = [
        bash("python3 -c 'print(\"2 passed\")'", "Run the unit tests"),
        text("2 passed."),
    ]
    run = session(ASK, script, fake_api, place).check()
    wait_for_ingest(run, place.memory_home)

    today = datetime.now().astimezone().date().isoformat()
    note = _wait_for(place.memory_home / "daily" / f"{today}.md", "argon2")
    for heading in ("## Events", "## Decisions", "## Observations", "## Notes"):
        assert heading in note
    events = note.split("## Events", 1)[1].split("## Decisions", 1)[0]
    decisions = note.split("## Decisions", 1)[1].split("## Observations", 1)[0]
    short = str(run.session_id)[:8]
    assert re.search(
        rf"^- \d\d:\d\d \[shop\] .*\(session {short}:\d+(-\d+)?\)$", events, re.MULTILINE
    )
    assert re.search(r"^- \d\d:\d\d \[shop\] .*argon2.*\)$", decisions, re.MULTILINE), decisions

    semantic = _wait_for(place.memory_home / "MEMORY.md", "pnpm")
    assert "## User Preferences" in semantic
    assert re.search(r"^- .*pnpm.* <!-- am:pref-[0-9a-f]+ -->$", semantic, re.MULTILINE), semantic

    day = memory_cli(place.memory_home, "get", "today")
    assert "argon2" in day
    query = ("search", "argon2 bcrypt", "--all-projects", "--json")
    hits = json.loads(memory_cli(place.memory_home, *query))
    cited = {str(hit.get("source")) for hit in hits} | {
        str(also) for hit in hits for also in hit.get("also") or ()
    }
    assert any(s.startswith(f"daily/{today}.md:") for s in cited), hits
    assert {hit.get("layer") for hit in hits} >= {"episodic"}, hits

    memory_md = place.memory_home / "MEMORY.md"
    edited = memory_md.read_text(encoding="utf-8").replace(
        "## Relationships & People\n", f"## Relationships & People\n- {HAND_LINE}\n", 1
    )
    memory_md.write_text(edited, encoding="utf-8")
    again = session("Thanks, that is all for today.", [text("Bye.")], fake_api, place).check()
    wait_for_ingest(again, place.memory_home)
    kept = _wait_for(memory_md, f"{HAND_LINE} <!-- am:")
    assert kept.count(HAND_LINE) == 1
    learned = [m for m in memories(place.memory_home, "context") if HAND_LINE in m["text"]]
    assert learned, "the line added by hand did not become a memory"
