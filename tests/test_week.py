"""A week of sessions (tests/week.py) through the real hooks, day by day under freezegun.

What a person finds in the memory home afterwards is what this file pins: one daily note
per day that had a session, a MEMORY.md worth reading, and everything in them searchable,
editable and forgettable.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from freezegun import freeze_time
from week import live, week

from artibot_memory.api import memories, semantic
from artibot_memory.cli.app import main as cli_main
from artibot_memory.notes.daily import SECTIONS, read_bullet
from artibot_memory.store.model import MemoryType
from artibot_memory.text import markdown


@pytest.fixture
def lived(tmp_path: Path) -> Iterator[Path]:
    """The week lived, and the test run on the Monday after it: the fixture's clock."""
    live(tmp_path / "work", week())
    with freeze_time(AFTER_THE_WEEK):
        yield tmp_path / "work"


AFTER_THE_WEEK = "2026-11-30 09:00:00"


@pytest.mark.usefixtures("lived")
def test_every_session_of_the_week_leaves_its_summary() -> None:
    summaries = [
        m for m in memories.list_memories(MemoryType.CONTEXT) if "session-summary" in m.tags
    ]
    assert len(summaries) == len(week())
    preferences = {m.key: m for m in memories.list_memories(MemoryType.PREFERENCE)}
    assert "package-manager" in preferences, sorted(map(str, preferences))


NOTE_DAYS = [f"2026-11-{day}" for day in range(23, 30)]


def _note(home: Path, day: str) -> str:
    return (home / "daily" / f"{day}.md").read_text(encoding="utf-8")


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert cli_main(list(argv)) == 0
    return capsys.readouterr().out


pytestmark = pytest.mark.usefixtures("utc_days")  # local days are UTC days here


@pytest.mark.usefixtures("lived")
def test_the_week_leaves_one_note_per_day_each_item_dated_placed_and_sourced(
    memory_home: Path,
) -> None:
    assert sorted(p.stem for p in (memory_home / "daily").glob("*.md")) == NOTE_DAYS
    for day in NOTE_DAYS:
        doc = markdown.parse(_note(memory_home, day))
        assert [s.title for s in doc.sections] == list(SECTIONS)
        for section in doc.sections:
            for bullet in markdown.bullets(section):
                assert read_bullet(bullet.raw) is not None, bullet.raw  # time, project, source
    tuesday = _note(memory_home, "2026-11-24")
    assert '[infra] Asked: "terraform apply가 state lock 때문에 실패해. 고쳐줘."' in tuesday
    assert "fixed on retry" in tuesday
    wednesday = _note(memory_home, "2026-11-25").split("## Decisions")[1]
    assert "결제 모듈은 Stripe 대신 Toss Payments로 하자" in wednesday.split("## Observations")[0]
    monday = _note(memory_home, "2026-11-23")
    assert "Remember: the staging shop resets its database every Sunday night" in monday
    assert "Preference detected: From now on always use pnpm" in monday
    thursday = _note(memory_home, "2026-11-26")
    assert "Error seen again (×2)" in thursday
    # the session that only looked around (git status, ls) tells no routine command
    assert "`git status`" not in monday
    assert "`ls`" not in monday


@pytest.mark.usefixtures("lived")
def test_memory_md_after_the_week_reads_as_a_person_would_write_it(memory_home: Path) -> None:
    doc = markdown.parse((memory_home / "MEMORY.md").read_text(encoding="utf-8"))
    assert [s.title for s in doc.sections] == [
        "User Preferences",
        "Project Context",
        "Relationships & People",
        "Technical Environment",
        "Lessons Learned",
    ]

    def texts(title: str) -> str:
        return "\n".join(b.text for b in markdown.bullets(doc.section(title)))

    preferences = texts("User Preferences")
    assert "always use pnpm, never npm" in preferences
    assert "use pip instead of uv" in preferences
    assert "always use uv for Python packages" not in preferences  # reversed on Friday
    projects = texts("Project Context")
    for decision in (
        "Toss Payments",
        "negative line items",
        "reject mixed currencies",
        "node:22-slim",
        "OpenTofu",
    ):
        assert decision in projects, decision
    assert projects.count("Status: last session") == 3
    people = texts("Relationships & People")
    assert "Sara owns the billing service" in people
    assert "Ask Tom" in people
    assert "pnpm" in texts("Technical Environment")
    lessons = texts("Lessons Learned")
    assert "TS2345" in lessons  # fixed three times on three days
    assert "Changed: was From now on always use uv" in lessons
    for section in doc.sections:
        for bullet in markdown.bullets(section):
            assert bullet.marker, bullet.raw  # every line traceable to its memory
            assert len(bullet.text) <= 200


@pytest.mark.usefixtures("lived")
def test_everything_the_week_wrote_can_be_searched_edited_and_forgotten(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with freeze_time("2026-11-30 09:00:00"):
        found = json.loads(_cli(capsys, "search", "Toss Payments", "--all-projects", "--json"))
        assert found
        assert {hit["layer"] for hit in found} >= {"store", "episodic"}
        day = _cli(capsys, "get", "2026-11-25")
        assert "## Decisions" in day
        assert "Toss Payments" in day

        memory_md = memory_home / "MEMORY.md"
        text = memory_md.read_text(encoding="utf-8")
        sara = next(line for line in text.splitlines() if "Sara owns" in line)
        added = "- Mina runs the Monday deploys"
        memory_md.write_text(text.replace(sara + "\n", added + "\n"), encoding="utf-8")
        semantic.refresh()
        contexts = memories.list_memories(MemoryType.CONTEXT)
        people = [m for m in contexts if m.scope.value == "person"]
        assert not [m for m in people if "Sara owns" in m.text]  # the deleted line forgot it
        [mina] = [m for m in contexts if "Mina runs the Monday deploys" in m.text]
        assert mina.source.path == "MEMORY.md"

        def layers() -> str:
            return "".join(p.read_text(encoding="utf-8") for p in memory_home.rglob("*.md"))

        [toss] = [m for m in contexts if "decision" in m.tags and "Toss Payments" in m.text]
        _cli(capsys, "forget", toss.id)
        assert toss.id not in layers()  # its daily bullet and its MEMORY.md line are gone
        # the session that said it still tells it; forgetting the session forgets that too
        assert toss.source.session_id
        _cli(capsys, "forget", "--key", f"session:{toss.source.session_id}")
        assert "Toss Payments로 하자" not in layers()


@pytest.mark.usefixtures("lived")
def test_a_consolidation_after_the_week_then_nothing_more_to_propose(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with freeze_time("2026-11-30 09:00:00"):
        first = json.loads(_cli(capsys, "consolidate", "--yes", "--json"))
        assert first["applied"]
        assert first["last_run"]
        again = json.loads(_cli(capsys, "consolidate", "--yes", "--json"))
        assert again["proposal"] == []
        stats = _cli(capsys, "stats")
    assert "7 files" in stats or "daily notes" in stats
    assert "never" not in stats.split("consolidated", 1)[1].splitlines()[0]
