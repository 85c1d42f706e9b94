"""The README a newcomer reads in five minutes, and the reference it points to.

Its Results are the same table RESULTS.md opens with, every link it or a page of docs/ makes
leads to a file that exists, and it stays short enough to read: the reference lives in docs/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = sorted((REPO / "docs").glob("*.md"))

# Markdown links and images to a path of this repository (not a URL, not an anchor only).
LINK = re.compile(r"!?\[[^\]]*\]\(([^)#\s]+)(?:#[^)]*)?\)")


def readme() -> str:
    return README.read_text(encoding="utf-8")


def current_in_readme() -> str:
    found = re.search(
        r"<!-- current-results -->\n(.*?)\n<!-- /current-results -->", readme(), re.DOTALL
    )
    assert found, "the README's Results lost their markers"
    return found.group(1).strip()


def current_in_results() -> str:
    text = (REPO / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    found = re.search(
        r"<!-- section:current -->.*?\n(\| promise .*?)\n<!-- /section:current -->", text, re.DOTALL
    )
    assert found, "RESULTS.md no longer opens with today's table"
    return found.group(1).strip()


def test_the_readme_results_are_the_table_results_md_opens_with() -> None:
    assert current_in_readme() == current_in_results()


def test_results_md_opens_with_todays_table_and_keeps_its_history_last() -> None:
    text = (REPO / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    sections = re.findall(r"<!-- section:([\w-]+) -->", text)
    assert sections[0] == "current"
    assert sections[-1] == "history"


def test_every_row_of_todays_table_names_its_benchmark_and_its_target() -> None:
    rows = current_in_readme().splitlines()[2:]
    assert len(rows) >= 10
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert len(cells) == 4, row
        assert re.search(r"met|missed", cells[2]), row
        named = re.findall(r"`([\w/.]+\.py)`", cells[3])
        assert named, row
        for name in named:
            assert (REPO / name).is_file() or (REPO / "benchmarks" / name).is_file(), name


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda page: page.name)
def test_every_link_leads_to_a_file_that_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    missing = [
        target
        for target in LINK.findall(text)
        if "://" not in target and not (page.parent / target).exists()
    ]
    assert missing == []


def test_the_readme_is_read_in_five_minutes() -> None:
    text = readme()
    assert len(text.encode()) < 16_000
    headings = re.findall(r"^## (.+)$", text, re.MULTILINE)
    for needed in ("Install and test", "Install it in your agent", "What a session receives"):
        assert needed in headings
    for verb in ("report", "edit", "forget"):
        assert f"artibot-memory {verb}" in text


def test_the_readme_gives_the_two_commands_ci_runs_first() -> None:
    block = re.search(r"```bash\n(.*?)```", readme(), re.DOTALL)
    assert block
    assert block.group(1).split("\n")[:2] == ["pip install -e '.[test]'", "pytest"]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.index("pip install -e '.[test]'") < ci.index("\npytest\n")


def test_every_page_of_docs_is_reachable_from_the_readme() -> None:
    linked = {Path(target).name for target in LINK.findall(readme())}
    for page in DOCS:
        reached = page.name in linked or any(
            page.name in LINK.findall(other.read_text(encoding="utf-8"))
            for other in DOCS
            if other.name in linked
        )
        assert reached, f"docs/{page.name} is linked from neither the README nor a page it links"
