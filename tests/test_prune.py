from __future__ import annotations

from datetime import timedelta

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.api.prune import extend_ttl, plan_prune, prune
from artibot_memory.core.errors import UnknownMemoryError, UsageError
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
