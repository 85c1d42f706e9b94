from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.api import doctor, memories
from artibot_memory.api.prune import extend_ttl, plan_prune, prune
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
