"""Recall across the layers: daily notes and MEMORY.md in the index, search, get, stats, start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.cli.app import main
from artibot_memory.recall import lookup
from artibot_memory.recall.context import (
    consolidation_reminder,
    get_relevant_context,
    render_context,
    start_session,
)
from artibot_memory.recall.lookup import Hit, LayerHit
from artibot_memory.recall.search import search_layers
from artibot_memory.store import layers
from artibot_memory.store.model import Memory

ROOT = Path(__file__).resolve().parents[1]
SHOP = "/src/shop"

DAY = """\
# 2026-11-30 (Monday)

## Events
- 10:02 [shop] Asked: "fix the login redirect after sign-in" (session 1a2b3c4d:3-212)
- 10:45 [blog] Session on branch fix/feed, 12m (session 9f9f9f9f:1-40)

## Decisions
- 10:20 [shop] Chose argon2 over bcrypt because it is memory-hard (session 1a2b3c4d:88)
- 11:30 [shop] 결정: 결제 서비스는 사라가 담당한다 (session 1a2b3c4d:120)

## Observations
- 10:05 [global] Preference detected: use pnpm, not npm (pref-5e6f7a8b9c)

## Notes
A line the user wrote by hand about the flaky payment webhook.
"""

MEMORY_MD = """\
# MEMORY

<!-- Managed by artibot-memory. Edit freely: a line you add becomes a memory, a line you
change updates it, a line you delete forgets it. -->

## User Preferences
- Use pnpm, not npm (package-manager) <!-- am:pref-5e6f7a8b9c -->

## Project Context
### shop
- Status: last session 2026-11-30, branch fix/redirect
The checkout talks to Stripe in sandbox mode only.
### blog
- The blog deploys from Netlify

## Relationships & People
- Sara owns the billing service

## Technical Environment
- Python 3.12, uv, pytest

## Lessons Learned
### blog
- Hugo themes break on upgrade
"""


def write_day(home: Path, day: str, text: str) -> Path:
    path = home / "daily" / f"{day}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_memory_md(home: Path, text: str = MEMORY_MD) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "MEMORY.md"
    path.write_text(text, encoding="utf-8")
    return path


def sources(hits: Sequence[Hit | LayerHit]) -> list[tuple[str, str]]:
    return [(hit.layer, hit.source) for hit in hits]


def json_of(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# ---- the index


def test_every_bullet_and_prose_line_of_both_layers_is_a_row_with_its_source(
    memory_home: Path,
) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    write_memory_md(memory_home)
    episodic = {line.source: line for line in lookup.layer_lines(layers=["episodic"])}
    semantic = {line.source: line for line in lookup.layer_lines(layers=["semantic"])}
    decision = episodic["daily/2026-11-30.md:8"]
    assert (decision.project, decision.section) == ("shop", "Decisions")
    assert decision.text == "Chose argon2 over bcrypt because it is memory-hard"
    assert decision.date.astimezone().strftime("%Y-%m-%d %H:%M") == "2026-11-30 10:20"
    assert episodic["daily/2026-11-30.md:12"].project is None  # [global]
    assert episodic["daily/2026-11-30.md:12"].ref == "pref-5e6f7a8b9c"
    assert episodic["daily/2026-11-30.md:15"].text.startswith("A line the user wrote")
    assert "daily/2026-11-30.md:1" not in episodic  # a heading is no line to find
    stripe = semantic["MEMORY.md:12"]
    assert (stripe.project, stripe.section) == ("shop", "Project Context")
    assert semantic["MEMORY.md:7"].marker == "pref-5e6f7a8b9c"
    assert semantic["MEMORY.md:17"].project is None
    assert not any("Managed by" in line.text for line in semantic.values())  # a comment


def test_an_edited_layer_file_is_read_again_and_only_that_one(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_day(memory_home, "2026-11-30", DAY)
    write_memory_md(memory_home)
    assert search_layers("argon2", record=False)
    reads: list[str] = []
    real = layers.read_layer

    def counted(path: str) -> str:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(layers, "read_layer", counted)
    path.write_text(DAY.replace("argon2", "scrypt"), encoding="utf-8")
    os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    assert not search_layers("argon2", record=False)
    assert sources(search_layers("scrypt", record=False)) == [("episodic", "daily/2026-11-30.md:8")]
    assert [Path(p).name for p in reads] == ["2026-11-30.md"]  # MEMORY.md was not re-read
    reads.clear()
    search_layers("scrypt", record=False)
    assert reads == []  # nothing changed: one stat per file


def test_a_deleted_layer_file_loses_its_rows(memory_home: Path) -> None:
    path = write_day(memory_home, "2026-11-30", DAY)
    assert search_layers("argon2", record=False)
    path.unlink()
    assert search_layers("argon2", record=False) == []
    assert lookup.layer_lines(layers=["episodic"]) == []


# ---- search


def test_one_search_finds_a_daily_bullet_a_memory_md_line_and_a_memory(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    write_memory_md(memory_home)
    saved = memories.save("context", "The payment webhook retries three times", project=SHOP)
    found = json_of(capsys, "search", "payment webhook", "--all-projects")
    assert isinstance(found, list)
    by_layer = {hit["layer"]: hit for hit in found}
    assert by_layer["store"]["id"] == saved.id
    assert by_layer["episodic"]["origin"] == "daily/2026-11-30.md:15"
    found = json_of(capsys, "search", "Stripe sandbox checkout", "--all-projects")
    assert [(h["layer"], h["origin"], h["project"]) for h in found] == [
        ("semantic", "MEMORY.md:12", "shop")
    ]
    assert main(["search", "argon2", "--all-projects"]) == 0
    out = capsys.readouterr().out
    assert "daily/2026-11-30.md:8" in out
    assert "episodic" in out


def test_a_korean_bullet_is_found_by_its_words(memory_home: Path) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    assert sources(search_layers("결제 서비스는 누가 담당해?", record=False)) == [
        ("episodic", "daily/2026-11-30.md:9")
    ]


def test_a_managed_line_is_its_memory_once_with_its_memory_md_source_noted(
    memory_home: Path,
) -> None:
    saved = memories.save("preference", "Use pnpm, not npm", key="package-manager")
    write_memory_md(memory_home, MEMORY_MD.replace("pref-5e6f7a8b9c", saved.id))
    write_day(memory_home, "2026-11-30", DAY.replace("pref-5e6f7a8b9c", saved.id))
    hits = search_layers("pnpm npm", record=False)
    assert sources(hits) == [("store", saved.id)]
    assert isinstance(hits[0], Hit)
    assert hits[0].also == ("MEMORY.md:7", "daily/2026-11-30.md:12")


def test_a_daily_bullet_sourced_by_a_memory_that_does_not_hit_is_still_found(
    memory_home: Path,
) -> None:
    write_day(memory_home, "2026-11-30", DAY)  # pref-5e6f7a8b9c is in no store
    assert sources(search_layers("pnpm", record=False)) == [("episodic", "daily/2026-11-30.md:12")]


def test_layer_and_type_filters_choose_where_to_look(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    write_memory_md(memory_home)
    memories.save("context", "Sara reviews the billing changes", project=SHOP)
    found = json_of(capsys, "search", "Sara billing", "--all-projects")
    assert {h["layer"] for h in found} == {"store", "semantic"}
    found = json_of(capsys, "search", "Sara billing", "--all-projects", "--layer", "semantic")
    assert [h["origin"] for h in found] == ["MEMORY.md:17"]
    found = json_of(capsys, "search", "Sara billing", "--all-projects", "--type", "context")
    assert {h["layer"] for h in found} == {"store"}


def test_a_project_sees_its_own_lines_and_the_global_ones(memory_home: Path) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    assert search_layers("branch feed session", project="/src/blog", record=False)
    assert search_layers("branch feed session", project=SHOP, record=False) == []


def test_nothing_relevant_still_returns_nothing(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    write_memory_md(memory_home)
    assert main(["search", "kubernetes helm chart", "--all-projects"]) == 0
    assert capsys.readouterr().out == ""


# ---- get


@pytest.mark.parametrize(
    ("what", "day"),
    [
        pytest.param("2026-11-29", "2026-11-29", id="a date"),
        pytest.param("today", "2026-11-30", id="today"),
        pytest.param("yesterday", "2026-11-29", id="yesterday"),
    ],
)
def test_get_prints_a_days_note(
    what: str, day: str, memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    write_day(memory_home, "2026-11-29", DAY.replace("2026-11-30 (Monday)", "2026-11-29"))
    with freeze_time("2026-11-30T15:00:00"):
        assert main(["get", what]) == 0
        assert capsys.readouterr().out.startswith(f"# {day}")
        document = json_of(capsys, "get", what)
    assert isinstance(document, dict)
    assert (document["path"], document["date"]) == (f"daily/{day}.md", day)
    assert list(document["sections"]) == ["Events", "Decisions", "Observations", "Notes"]
    first = document["sections"]["Decisions"][0]
    assert first == {
        "line": 8,
        "text": "10:20 [shop] Chose argon2 over bcrypt because it is memory-hard "
        "(session 1a2b3c4d:88)",
        "source": f"daily/{day}.md:8",
    }
    assert document["text"].startswith(f"# {day}")


def test_get_memory_md_gives_its_sections_without_the_markers(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_memory_md(memory_home)
    document = json_of(capsys, "get", "MEMORY.md")
    assert isinstance(document, dict)
    assert document["path"] == "MEMORY.md"
    assert document["sections"]["User Preferences"] == [
        {"line": 7, "text": "Use pnpm, not npm (package-manager)", "source": "MEMORY.md:7"}
    ]
    assert document["text"] == MEMORY_MD


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["get", "2026-11-28"], "no daily note for 2026-11-28", id="no note"),
        pytest.param(["get", "2026-02-30"], "not a day: '2026-02-30'", id="no such day"),
        pytest.param(["get", "last tuesday"], "not a day: 'last tuesday'", id="not a date"),
        pytest.param(["get", "MEMORY.md"], "no MEMORY.md", id="no MEMORY.md"),
    ],
)
def test_get_of_what_is_not_there_says_so_in_one_line(
    argv: list[str], message: str, memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"artibot-memory: {message}")
    assert captured.err.count("\n") == 1


# ---- stats


def test_stats_counts_the_notes_layer(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for day in ("2026-07-01", "2026-10-15", "2026-11-20", "2026-11-30"):
        write_day(memory_home, day, DAY)
    write_memory_md(memory_home)
    with freeze_time("2026-11-30T12:00:00"):
        rows = json_of(capsys, "stats")
        assert isinstance(rows, list)
        daily = next(r for r in rows if r["layer"] == "episodic")
        semantic = next(r for r in rows if r["layer"] == "semantic")
        assert (daily["entries"], daily["oldest"], daily["newest"]) == (
            4,
            "2026-07-01",
            "2026-11-30",
        )
        assert daily["bytes"] == 4 * len(DAY.encode("utf-8"))
        assert (daily["days_last_30"], daily["days_last_90"]) == (2, 3)
        assert semantic["sections"] == {
            "User Preferences": 1,
            "Project Context": 2,
            "Relationships & People": 1,
            "Technical Environment": 1,
            "Lessons Learned": 1,
        }
        assert daily["last_consolidated"] is None
        assert main(["stats"]) == 0
        assert "consolidated  never" in capsys.readouterr().out
        (memory_home / "daily" / ".consolidated.json").write_text(
            '{"last_run": "2026-11-27T12:00:00+00:00"}', encoding="utf-8"
        )
        rows = json_of(capsys, "stats")
        assert rows[-1]["last_consolidated"] == "2026-11-27T12:00:00+00:00"
        assert main(["stats"]) == 0
        assert "consolidated  3 days ago" in capsys.readouterr().out


# ---- SessionStart


def seed_layers(home: Path) -> Memory:
    """Three days of shop notes, an older fourth, MEMORY.md, and a stored preference."""
    for day in ("2026-11-26", "2026-11-27", "2026-11-29", "2026-11-30"):
        write_day(home, day, DAY.replace("argon2", f"argon2 on {day}"))
    with freeze_time("2026-11-30T12:00:00"):
        pref = memories.save("preference", "Use pnpm, not npm", key="package-manager")
    write_memory_md(home, MEMORY_MD.replace("pref-5e6f7a8b9c", pref.id))
    return pref


def test_a_session_start_shows_each_fact_once_from_the_stores_not_the_notes(
    memory_home: Path,
) -> None:
    pref = seed_layers(memory_home)
    with freeze_time("2026-11-30T12:00:00"):
        text = get_relevant_context(SHOP, record=False)
    assert text.count("Use pnpm, not npm") == 1  # the preference, not its MEMORY.md line too
    assert f"· {pref.id}]" in text
    assert "argon2" not in text  # the daily notes are searched per prompt, not handed over
    assert "MEMORY.md:" not in text
    assert "Daily notes" not in text


def test_no_layer_files_leave_the_context_as_it_was() -> None:
    memories.save("context", "shop runs on Django", project=SHOP)
    before = get_relevant_context(SHOP, record=False)
    assert "MEMORY.md" not in before
    assert "Daily notes" not in before


def start_text(project: str = SHOP) -> str:
    output = start_session({"cwd": project, "session_id": "s1"})
    return "" if output is None else str(output["hookSpecificOutput"]["additionalContext"])


def test_an_overdue_consolidation_is_mentioned_once(memory_home: Path) -> None:
    write_day(memory_home, "2026-11-01", DAY)
    with freeze_time("2026-11-05T12:00:00"):
        assert consolidation_reminder(memory_home) is None  # notes of only 4 days
    with freeze_time("2026-11-30T12:00:00"):
        first, second = start_text(), start_text()
    assert "`artibot-memory consolidate`" in first
    assert "never run" in first
    assert "consolidate" not in second
    (memory_home / "daily" / ".consolidated.json").write_text(
        '{"last_run": "2026-12-01T09:00:00+00:00"}', encoding="utf-8"
    )
    with freeze_time("2026-12-05T12:00:00"):
        assert "consolidate" not in start_text()  # ran 4 days ago
    with freeze_time("2026-12-09T12:00:00"):
        again = start_text()
        assert "last run 2026-12-01" in again
        assert "consolidate" not in start_text()


# ---- the read path


def run_python(code: str, home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARTIBOT_MEMORY_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return subprocess.run(  # noqa: S603 - this interpreter, our own code
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False, cwd=cwd
    )


def test_search_get_and_stats_import_no_pydantic(memory_home: Path, tmp_path: Path) -> None:
    write_day(memory_home, "2026-11-30", DAY)
    write_memory_md(memory_home)
    code = """
import sys
from artibot_memory.cli.app import main
for argv in (["search", "argon2 payment", "--all-projects"], ["search", "Sara", "--json"],
             ["get", "2026-11-30"], ["get", "MEMORY.md", "--json"], ["stats", "--json"]):
    assert main(argv) == 0, argv
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "orjson", "filelock"))
assert not heavy, heavy
print("ok")
"""
    done = run_python(code, memory_home, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("ok\n")


def test_a_broken_store_leaves_the_other_stores_in_the_session_start(memory_home: Path) -> None:
    pref = seed_layers(memory_home)
    (memory_home / "project-contexts.json").write_bytes(b"{")
    reported: list[object] = []
    with freeze_time("2026-11-30T12:00:00"):
        text = render_context(SHOP, on_unusable=reported.append).text
    assert reported
    assert f"· {pref.id}]" in text
