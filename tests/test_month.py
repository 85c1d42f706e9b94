"""A month of sessions (tests/month.py) through the real hooks: how sure, how fresh, disputed.

Issue 14's "done when": the month yields proposals a person would accept, every
contradiction lands in the ledger with both sides, and search results say how sure and how
fresh they are. One month is lived once per module (it takes a few seconds) and read by
every test here through the CLI, as a person would.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from freezegun import freeze_time
from month import (
    CHANGELOG,
    DATE_FNS,
    DAYJS,
    DIFF_FIRST,
    ENGLISH,
    KOREAN,
    NO_CHANGELOG,
    NO_SCREENSHOTS,
    PNPM,
    POSTGRES,
    SCREENSHOTS,
    SQLITE,
    month,
)
from week import live, lived_home

from artibot_memory.cli.app import main as cli_main
from artibot_memory.text import markdown

AFTER = "2026-11-30T09:00:00Z"  # the Monday after: what the user sees


@pytest.fixture(scope="module")
def lived(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The memory home after the month (module scope: lived once, read by every test)."""
    root = tmp_path_factory.mktemp("month")
    with lived_home(root / "memory") as home:
        live(root / "work", month())
        yield home


@pytest.fixture
def home(lived: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The lived month's home, for this test (conftest gives each test an empty one)."""
    monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(lived))
    monkeypatch.setenv("ARTIBOT_MEMORY_VECTORS", "off")
    return lived


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    with freeze_time(AFTER):
        assert cli_main(list(argv)) == 0
    return capsys.readouterr().out


def _ledger(home: Path) -> dict[str, str]:
    """Every conflict of the ledger: its id to its section's text (heading included)."""
    found: dict[str, str] = {}
    for path in sorted((home / "conflicts").glob("*.md")):
        doc = markdown.parse(path.read_text(encoding="utf-8"))
        for section in doc.sections:
            if section.title.startswith("cf-"):
                lines = [section.heading, *section.body]
                found[section.title.split(" ")[0]] = "\n".join(line.text for line in lines)
    return found


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (ENGLISH, KOREAN),
        (CHANGELOG, NO_CHANGELOG),
        (SCREENSHOTS, NO_SCREENSHOTS),
        (DAYJS, DATE_FNS),
        (POSTGRES, SQLITE),
    ],
    ids=["same-key", "polarity", "polarity-ko", "instead", "decision"],
)
def test_every_contradiction_of_the_month_lands_in_the_ledger_with_both_sides(
    home: Path, old: str, new: str
) -> None:
    entries = _ledger(home)

    def quoted(statement: str, entry: str) -> bool:
        words = [w for w in statement.replace(".", " ").split() if len(w) > 3][:4]
        return all(word in entry for word in words)

    both = [cid for cid, entry in entries.items() if quoted(old, entry) and quoted(new, entry)]
    assert len(both) == 1, (old, new, entries)
    entry = entries[both[0]]
    assert "- new:" in entry
    assert "- old:" in entry
    assert any(level in entry.splitlines()[0] for level in ("high", "medium", "low"))


def test_a_stated_rule_the_user_keeps_breaking_is_a_behaviour_conflict(home: Path) -> None:
    behaviour = [e for e in _ledger(home).values() if "- kind: behaviour" in e]
    assert len(behaviour) == 1, _ledger(home)
    assert "pnpm" in behaviour[0]
    assert "npm install" in behaviour[0]


def test_the_month_proposes_the_repeated_liking_and_not_the_one_off(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert home.is_dir()
    proposals = json.loads(_cli(capsys, "proposals", "--json"))
    texts = {p["text"]: p for p in proposals["proposals"]}
    assert any("small, focused commits" in text for text in texts), proposals
    liked = next(p for text, p in texts.items() if "small, focused commits" in text)
    assert len(liked["strong"]) >= 2
    assert not any(DIFF_FIRST in text for text in texts)


def test_search_says_how_sure_and_how_fresh_each_memory_is(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert home.is_dir()
    hits = json.loads(_cli(capsys, "search", "pnpm npm", "--all-projects", "--json"))
    stored = [h for h in hits if h["layer"] == "store"]
    assert stored
    for hit in stored:
        assert {"state", "confidence", "last_verified", "source", "origin", "flags"} <= set(hit)
    rule = next(h for h in stored if h["text"] == PNPM.rstrip("."))
    assert rule["confidence"] > 0.8  # restated in a second session
    assert "conflicting" in rule["flags"]  # the docs sessions keep running npm
    text = _cli(capsys, "search", "pnpm npm", "--all-projects")
    assert "conflicts with" in text
