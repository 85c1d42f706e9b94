from __future__ import annotations

import json
import time
from datetime import timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory import lifecycle
from artibot_memory.api import doctor, memories
from artibot_memory.api.prune import extend_ttl, plan_prune, prune
from artibot_memory.cli import app
from artibot_memory.cli.app import main
from artibot_memory.core.errors import UnknownMemoryError, UsageError
from artibot_memory.recall import context
from artibot_memory.store import tombstones
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.table import spec_for


def test_plan_lists_expired_entries_and_changes_nothing() -> None:
    with freeze_time("2026-01-01") as clock:
        memories.save("command", "ls -la")
        before = Store(spec_for("command")).path.read_bytes()
        clock.tick(timedelta(days=7))
        plan = plan_prune()
    assert [m.text for m in plan.expired] == ["ls -la"]
    assert Store(spec_for("command")).path.read_bytes() == before


def test_prune_removes_expired_entries_from_every_store() -> None:
    with freeze_time("2026-01-01") as clock:
        memories.save("command", "ls -la")
        memories.save("context", "a fact", project="p")
        memories.save("preference", "forever")
        clock.tick(timedelta(days=91))
        report = prune()
    assert sorted(m.text for m in report.expired) == ["a fact", "ls -la"]
    assert [m.text for m in memories.list_memories(include_expired=True)] == ["forever"]


def test_extend_ttl_keeps_a_memory_past_its_expiry() -> None:
    with freeze_time("2026-01-01") as clock:
        saved = memories.save("command", "make release")
        clock.tick(timedelta(days=6))
        extend_ttl(saved.id, 30)
        clock.tick(timedelta(days=20))
        assert prune().expired == []


@pytest.mark.parametrize("days", [0, -3, 100_000])
def test_extend_ttl_refuses_silly_amounts(days: float) -> None:
    saved = memories.save("command", "make")
    with pytest.raises(UsageError):
        extend_ttl(saved.id, days)


def test_extend_ttl_refuses_permanent_memories_and_unknown_ids() -> None:
    saved = memories.save("preference", "permanent")
    with pytest.raises(UsageError, match="permanent"):
        extend_ttl(saved.id, 5)
    with pytest.raises(UnknownMemoryError):
        extend_ttl("cmd-0000000000", 5)


def files_holding(home: Path, text: str) -> list[str]:
    return sorted(
        str(p.relative_to(home))
        for p in home.rglob("*")
        if p.is_file() and text.encode() in p.read_bytes()
    )


def test_what_prune_deletes_leaves_the_backup_and_the_start_caches_too(memory_home: Path) -> None:
    with freeze_time("2026-01-01") as clock:
        memories.save("command", "make release-candidate", project="/src/shop")
        clock.tick(timedelta(days=3))
        memories.save("command", "make keep", project="/src/shop")
        context.refresh_start_cache("/src/shop")
        assert "backups/command-history.json" in files_holding(memory_home, "release-candidate")
        clock.tick(timedelta(days=5))
        report = prune()
    assert [m.text for m in report.expired] == ["make release-candidate"]
    assert files_holding(memory_home, "release-candidate") == []
    assert "make keep" in Store(spec_for("command")).backup_path.read_text()
    assert not list((memory_home / "cache").iterdir())


def test_doctor_repair_after_a_corrupted_store_does_not_bring_a_pruned_memory_back() -> None:
    with freeze_time("2026-01-01") as clock:
        memories.save("command", "make release-candidate")
        clock.tick(timedelta(days=3))
        memories.save("command", "make keep")
        clock.tick(timedelta(days=5))
        prune()
        Store(spec_for("command")).path.write_bytes(b"\x00 garbage")
        doctor.repair()
        kept = memories.list_memories(include_expired=True)
    assert [m.text for m in kept] == ["make keep"]


def test_an_entry_pruned_over_the_cap_leaves_the_backup_too(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with freeze_time("2026-01-01") as clock:
        for name in ("alpha", "bravo", "charlie"):
            memories.save("command", f"make {name}")
            clock.tick(timedelta(hours=1))
        monkeypatch.setenv("ARTIBOT_MEMORY_CAPS", "command=2")  # a cap lowered by its setting
        report = prune()
    assert [m.text for m in report.over_cap] == ["make alpha"]
    assert files_holding(memory_home, "make alpha") == []
    assert tombstones.forgotten_ids(memory_home) == frozenset()  # evicted, not forgotten


def test_the_caps_setting_raises_a_cap_for_prune_and_save(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARTIBOT_MEMORY_CAPS", "command=2")
    with freeze_time("2026-01-01") as clock:
        for name in ("alpha", "bravo", "charlie"):
            memories.save("command", f"make {name}")
            clock.tick(timedelta(hours=1))
        assert len(memories.list_memories(include_expired=True)) == 2
        monkeypatch.setenv("ARTIBOT_MEMORY_CAPS", "command=10, context=nonsense")
        for name in ("delta", "echo", "foxtrot"):
            memories.save("command", f"make {name}")
        assert prune().over_cap == []
        assert len(memories.list_memories(include_expired=True)) == 5
    assert spec_for("context").cap == 2_000  # not a number: the table's
    monkeypatch.delenv("ARTIBOT_MEMORY_CAPS")
    assert spec_for("command").cap == 500  # unset: the table's


# ---- the daily notes' forgetting curve (docs/NOTES.md)


def write_notes(home: Path, *days: str) -> None:
    folder = home / "daily"
    folder.mkdir(parents=True, exist_ok=True)
    for day in days:
        (folder / f"{day}.md").write_text(f"# {day}\n\n## Events\n- 10:00 [shop] x (ctx-1)\n")


def notes_left(home: Path) -> list[str]:
    return sorted(p.name for p in (home / "daily").iterdir())


def test_daily_notes_older_than_90_local_days_are_planned_then_pruned(memory_home: Path) -> None:
    write_notes(memory_home, "2026-09-01", "2026-09-02", "2026-11-30")
    (memory_home / "daily" / "my-ideas.md").write_text("not a daily note\n")
    with freeze_time("2026-12-01 12:00:00"):  # 2026-09-01 is 91 days back, 09-02 is 90
        plan = plan_prune()
        assert plan.notes == ["daily/2026-09-01.md"]
        assert len(notes_left(memory_home)) == 4  # the plan deletes nothing
        report = prune()
    assert report.notes == ["daily/2026-09-01.md"]
    assert notes_left(memory_home) == ["2026-09-02.md", "2026-11-30.md", "my-ideas.md"]


def test_the_notes_days_setting_changes_how_long_notes_are_kept(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_notes(memory_home, "2026-11-20", "2026-11-29")
    monkeypatch.setenv("ARTIBOT_MEMORY_NOTES_DAYS", "7")
    with freeze_time("2026-12-01 12:00:00"):
        assert plan_prune().notes == ["daily/2026-11-20.md"]
        monkeypatch.setenv("ARTIBOT_MEMORY_NOTES_DAYS", "0")  # not a positive number: 90
        assert plan_prune().notes == []


def test_a_notes_day_is_the_local_day(memory_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_notes(memory_home, "2026-09-01")
    monkeypatch.setenv("TZ", "Asia/Seoul")
    time.tzset()
    try:
        # 16:00 UTC on 2026-11-30 is 01:00 on 2026-12-01 in Seoul: 91 local days after 09-01.
        with freeze_time("2026-11-30 16:00:00"):
            assert plan_prune().notes == ["daily/2026-09-01.md"]
        with freeze_time("2026-11-30 14:00:00"):  # 23:00 on 11-30 in Seoul: 90 days, kept
            assert plan_prune().notes == []
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_the_prune_verb_shows_old_notes_and_asks_first(
    memory_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_notes(memory_home, "2026-08-01", "2026-11-30")
    with freeze_time("2026-12-01 12:00:00"):
        assert main(["prune", "--dry-run"]) == 0
        out = capsys.readouterr().out
        assert "1 daily note older than 90 days:" in out
        assert "old note  daily/2026-08-01.md" in out
        assert main(["prune"]) == 0  # no terminal: the question is answered no
        assert "nothing deleted" in capsys.readouterr().out
        assert len(notes_left(memory_home)) == 2
        questions: list[str] = []

        def yes(question: str) -> bool:
            questions.append(question)
            return True

        monkeypatch.setattr(app, "ask", yes)
        assert main(["prune", "--json"]) == 0
    assert questions == ["Delete these 1 daily notes? [y/N] "]
    assert json.loads(capsys.readouterr().out)["notes"] == ["daily/2026-08-01.md"]
    assert notes_left(memory_home) == ["2026-11-30.md"]


def test_yes_prunes_old_notes_with_expired_memories(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with freeze_time("2026-08-01 12:00:00") as clock:
        memories.save("command", "make old")
        write_notes(memory_home, "2026-08-01")
        clock.tick(timedelta(days=95))
        assert main(["prune", "--yes"]) == 0
    assert "deleted 1 memories and 1 daily notes" in capsys.readouterr().out
    assert notes_left(memory_home) == []


def test_session_start_prunes_old_notes_without_asking_as_it_does_expired_memories(
    memory_home: Path,
) -> None:
    write_notes(memory_home, "2026-08-01")
    with freeze_time("2026-12-01 12:00:00"):
        lifecycle.ingest(then_prune=True)  # what a SessionStart's worker runs
    assert notes_left(memory_home) == []
