from __future__ import annotations

import os
from datetime import timedelta

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.api.memories import Draft
from artibot_memory.core.errors import UnknownMemoryError, UsageError
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.merge import enforce_cap
from artibot_memory.store.model import MAX_TEXT_CHARS, Memory, Source, State
from artibot_memory.store.table import STORES, StoreSpec, spec_for

START = "2026-03-01T12:00:00Z"


def word(number: int) -> str:
    """A distinct word per number, so error signatures (which mask digits) stay distinct."""
    letters = ""
    while True:
        number, rest = divmod(number, 26)
        letters += "abcdefghijklmnopqrstuvwxyz"[rest]
        if number == 0:
            return letters


def stored(kind: str) -> list[Memory]:
    return Store(spec_for(kind)).load()


@pytest.mark.parametrize(
    ("kind", "days"),
    [
        pytest.param("command", 7, id="command-7-days"),
        pytest.param("context", 90, id="context-90-days"),
        pytest.param("error", 90, id="error-90-days"),
    ],
)
def test_an_entry_expires_exactly_at_its_ttl_and_not_a_second_before(kind: str, days: int) -> None:
    with freeze_time(START) as clock:
        memories.save(kind, "the one that expires")
        clock.tick(timedelta(days=days) - timedelta(seconds=1))
        assert [m.text for m in memories.list_memories(kind)] == ["the one that expires"]
        clock.tick(timedelta(seconds=1))
        assert memories.list_memories(kind) == []


def test_expired_entries_are_removed_from_the_file_by_the_next_save() -> None:
    with freeze_time(START) as clock:
        memories.save("command", "old command")
        clock.tick(timedelta(days=7))
        memories.save("command", "new command")
    assert [m.text for m in stored("command")] == ["new command"]


def test_preferences_never_expire() -> None:
    with freeze_time(START) as clock:
        memories.save("preference", "Use pnpm")
        clock.tick(timedelta(days=3650))
        assert [m.text for m in memories.list_memories("preference")] == ["Use pnpm"]


def test_a_repeated_command_merges_into_one_entry_with_a_count() -> None:
    with freeze_time(START) as clock:
        first = memories.save("command", "pytest -q")
        clock.tick(timedelta(hours=1))
        second = memories.save("command", "pytest -q")
    assert second.id == first.id
    [entry] = stored("command")
    assert entry.count == 2
    assert entry.last_seen > entry.created_at


def test_a_repeat_refreshes_the_ttl_from_the_last_sighting() -> None:
    with freeze_time(START) as clock:
        memories.save("command", "make")
        clock.tick(timedelta(days=6))
        memories.save("command", "make")
        clock.tick(timedelta(days=6))
        assert [m.count for m in memories.list_memories("command")] == [2]


def test_a_repeated_error_merges_and_keeps_its_resolution() -> None:
    memories.save(
        "error",
        "ModuleNotFoundError: No module named 'requests'",
        resolution="pip install requests",
    )
    again = memories.save("error", "ModuleNotFoundError: No module named 'requests'")
    assert (again.count, again.resolution, again.state) == (
        2,
        "pip install requests",
        State.RESOLVED,
    )


def test_a_preference_with_the_same_key_supersedes_the_old_value() -> None:
    old = memories.save("preference", "Use npm", key="package-manager")
    new = memories.save("preference", "Use pnpm", key="package-manager")
    entries = {m.id: m for m in stored("preference")}
    assert entries[old.id].state is State.SUPERSEDED
    assert entries[new.id].state is State.ACTIVE
    assert old.id in entries[new.id].related


def test_saving_the_same_keyed_value_again_only_counts_it() -> None:
    memories.save("preference", "Use pnpm", key="package-manager")
    again = memories.save("preference", "use pnpm.", key="package-manager")
    assert again.count == 2
    assert len(stored("preference")) == 1


def test_a_preference_without_a_key_is_deduplicated_by_its_normalised_text() -> None:
    memories.save("preference", "Always run black before committing")
    memories.save("preference", "always run   black before committing.")
    [entry] = stored("preference")
    assert entry.count == 2


def test_a_context_with_a_key_is_updated_in_place() -> None:
    first = memories.save("context", "summary v1", key="session:abc", project="shop")
    second = memories.save("context", "summary v2", key="session:abc", project="shop")
    assert second.id == first.id
    assert [m.text for m in stored("context")] == ["summary v2"]


def test_a_pending_preference_becomes_active_when_seen_in_a_second_session() -> None:
    memories.save("preference", "I prefer uv", state="pending", source=Source(session_id="s1"))
    same_session = memories.save(
        "preference", "I prefer uv", state="pending", source=Source(session_id="s1")
    )
    assert same_session.state is State.PENDING
    other = memories.save(
        "preference", "I prefer uv", state="pending", source=Source(session_id="s2")
    )
    assert other.state is State.ACTIVE


@pytest.mark.parametrize("spec", [pytest.param(s, id=s.type.value) for s in STORES])
def test_each_store_is_held_to_its_cap_least_valuable_first(spec: StoreSpec) -> None:
    drafts = [Draft(spec.type, f"entry {word(i)}") for i in range(spec.cap + 5)]
    with freeze_time(START) as clock:
        for chunk_start in range(0, len(drafts), 100):
            memories.save_many(drafts[chunk_start : chunk_start + 100])
            clock.tick(timedelta(minutes=1))
    entries = stored(spec.type.value)
    assert len(entries) == spec.cap
    texts = {m.text for m in entries}
    assert f"entry {word(0)}" not in texts  # the oldest went first
    assert f"entry {word(spec.cap + 4)}" in texts


def test_the_cap_evicts_superseded_history_before_active_entries() -> None:
    memories.save("preference", "v1", key="k")
    memories.save("preference", "v2", key="k")
    entries = stored("preference")
    removed = enforce_cap(entries, 1)
    assert [m.text for m in removed] == ["v1"]


def test_the_cap_evicts_the_least_used_before_the_often_used() -> None:
    with freeze_time(START) as clock:
        memories.save("command", "often")
        memories.save("command", "often")
        clock.tick(timedelta(minutes=1))
        memories.save("command", "once")
    removed = enforce_cap(stored("command"), 1)
    assert [m.text for m in removed] == ["once"]


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        pytest.param("recipe", "x", "unknown memory type", id="unknown-type"),
        pytest.param("preference", "", "empty", id="empty-text"),
        pytest.param("preference", "   \n ", "empty", id="blank-text"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(kind: str, text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        memories.save(kind, text)


def test_an_oversized_text_is_capped_at_the_entry_limit() -> None:
    saved = memories.save("context", "x" * (MAX_TEXT_CHARS * 3))
    assert len(saved.text) == MAX_TEXT_CHARS
    assert saved.text.endswith("[truncated]")


def test_get_and_forget_by_id() -> None:
    saved = memories.save("context", "The shop uses Postgres 16", project="shop")
    assert memories.get(saved.id).text == "The shop uses Postgres 16"
    [gone] = memories.forget(saved.id)
    assert gone.id == saved.id
    with pytest.raises(UnknownMemoryError, match="no memory with id"):
        memories.get(saved.id)


def test_forget_by_key_removes_the_value_and_its_history() -> None:
    memories.save("preference", "a", key="editor")
    memories.save("preference", "b", key="editor")
    memories.save("preference", "unrelated")
    assert len(memories.forget(key="editor")) == 2
    assert [m.text for m in stored("preference")] == ["unrelated"]


def test_forgetting_an_unknown_id_is_an_error() -> None:
    with pytest.raises(UnknownMemoryError):
        memories.forget("pref-0000000000")


def test_list_filters_by_project_and_keeps_global_memories() -> None:
    memories.save("context", "shop fact", project="/src/shop")
    memories.save("context", "blog fact", project="/src/blog")
    memories.save("preference", "global preference")
    texts = {m.text for m in memories.list_memories(project="shop")}
    assert texts == {"shop fact", "global preference"}


def test_auto_tags_are_added_on_save() -> None:
    saved = memories.save("error", "ModuleNotFoundError: No module named 'requests' in app/main.py")
    assert "modulenotfounderror" in saved.tags


def test_forget_rewrites_the_backup_without_the_forgotten_memory() -> None:
    gone = memories.save("preference", "Use yarn")
    memories.save("preference", "Use pnpm")
    backup = Store(spec_for("preference")).backup_path
    assert b"Use yarn" in backup.read_bytes()
    memories.forget(gone.id)
    assert b"Use yarn" not in backup.read_bytes()
    assert b"Use pnpm" in backup.read_bytes()  # the rest of the previous version stays


def test_forget_deletes_a_backup_that_cannot_be_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = memories.save("preference", "Use yarn")
    memories.save("preference", "Use pnpm")
    backup = Store(spec_for("preference")).backup_path
    backup.write_bytes(b'{"schema_version": 1, "entries": [{"text": "Use yarn"')

    def no_hard_links(*_args: object) -> None:
        raise OSError(1, "hard links not supported")

    monkeypatch.setattr(os, "link", no_hard_links)  # so the damaged backup is not replaced
    memories.forget(gone.id)
    assert not backup.exists()
