"""Every MEMORY.md line carries its memory's project and date, and stays in its project.

Issue 24: a project's reversal ("Changed: was …, now …") was injected into another
project's session start, and MEMORY.md lines were dated by the file's modification time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories, semantic
from artibot_memory.recall import lookup
from artibot_memory.recall.context import get_relevant_context
from artibot_memory.store.model import Scope
from artibot_memory.text import markdown

SHOP, BLOG = "/src/shop", "/src/blog"


pytestmark = pytest.mark.usefixtures("utc_days")  # local days are UTC days here


@pytest.fixture
def lived(memory_home: Path) -> Iterator[Path]:
    """A shop reversal, a shop person, a global lesson; MEMORY.md written days later."""
    with freeze_time("2026-11-20 09:00:00"):
        memories.save("preference", "Use tabs in this repo", project=SHOP, key="indentation")
    with freeze_time("2026-11-24 09:00:00"):
        memories.save("preference", "Use spaces in this repo", project=SHOP, key="indentation")
        memories.save(
            "context", "Sara reviews the checkout changes", project=SHOP, scope=Scope.PERSON
        )
        memories.save("context", "Mina is the contact for the design system", scope=Scope.PERSON)
        memories.save("context", "The blog deploys from main", project=BLOG, tags=["lesson"])
    with freeze_time("2026-11-30 10:00:00"):
        semantic.refresh()
        yield memory_home


def lines_of(home: Path, section: str) -> list[str]:
    doc = markdown.parse((home / "MEMORY.md").read_text(encoding="utf-8"))
    return [bullet.text for bullet in markdown.bullets(doc.section(section))]


def test_a_project_memorys_line_names_its_project_in_every_section(lived: Path) -> None:
    assert lines_of(lived, "Relationships & People") == [
        "Mina is the contact for the design system",
        "[shop] Sara reviews the checkout changes",
    ]
    assert lines_of(lived, "Lessons Learned") == [
        "[blog] The blog deploys from main",
        "[shop] Changed: was Use tabs in this repo, now Use spaces in this repo",
    ]


@pytest.mark.usefixtures("lived")
def test_another_projects_lines_never_reach_a_session_start() -> None:
    blog = get_relevant_context(BLOG, record=False)
    for theirs in ("Use tabs", "Use spaces", "Sara reviews"):
        assert theirs not in blog
    assert "Mina is the contact" in blog  # a global person
    shop = get_relevant_context(SHOP, record=False)
    assert "Use spaces in this repo" in shop
    assert "Use tabs in this repo" not in shop  # superseded: never shown as current
    assert "The blog deploys" not in shop


@pytest.mark.usefixtures("lived")
def test_a_session_start_line_is_dated_by_its_memorys_last_sighting() -> None:
    with freeze_time("2026-12-02 10:00:00"):
        memories.save("context", "Mina is the contact for the design system", scope=Scope.PERSON)
        semantic.refresh()
        blog = get_relevant_context(BLOG, record=False)
    [line] = [line for line in blog.splitlines() if "Mina is the contact" in line]
    assert line.startswith("- [2026-12-02 · ctx-")


def test_the_index_dates_a_memory_md_line_by_its_memorys_last_sighting(lived: Path) -> None:
    [line] = [
        row for row in lookup.layer_lines(home=lived) if row.marker and "Changed: was" in row.text
    ]
    assert line.date.astimezone().date().isoformat() == "2026-11-20"  # its memory's, not the file's
    assert line.project == "shop"


def test_a_line_a_person_adds_with_a_project_is_that_projects_memory(lived: Path) -> None:
    path = lived / "MEMORY.md"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "## Lessons Learned\n", "## Lessons Learned\n- [shop] Run the e2e suite on Fridays\n"
    )
    path.write_text(text, encoding="utf-8")
    semantic.refresh()
    [added] = [m for m in memories.list_memories("context") if "e2e suite" in m.text]
    assert (added.text, added.project) == ("Run the e2e suite on Fridays", SHOP)
    assert "e2e suite" not in get_relevant_context(BLOG, record=False)


def test_removing_the_project_from_a_derived_line_keeps_it_in_its_project(lived: Path) -> None:
    path = lived / "MEMORY.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("- [shop] Changed: was", "- Changed: was"), encoding="utf-8")
    semantic.refresh()
    assert "[shop] Changed: was" in path.read_text(encoding="utf-8")
    [row] = [row for row in lookup.layer_lines(home=lived) if "Changed: was" in row.text]
    assert row.project == "shop"
