"""Forget forgets: the text leaves every file of the memory home, and nothing brings it back."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import doctor, memories
from artibot_memory.api.ingest import apply_records
from artibot_memory.capture import journal
from artibot_memory.recall import context
from artibot_memory.store import tombstones
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Memory, MemoryType
from artibot_memory.store.table import spec_for
from artibot_memory.text.framing import quote

# Quotes, a backslash and non-ASCII: the plain text and its JSON spellings all differ.
TEXT = 'Deploy with "fly deploy --remote-only" from C:\\builds\\shop, naïve café'
PROJECT = "/src/shop"
TYPES = ("preference", "context", "command", "error")
BARRIER_TIMEOUT = 120.0
_SHARED: dict[str, Any] = {}  # per-process state handed over by the pool


def spellings(text: str) -> list[bytes]:
    """The text as plain bytes and inside a JSON string (escaped or not), as stored or as
    a context quotes it."""
    forms = {text, quote(text)[1:-1]}
    escaped = {json.dumps(f, ensure_ascii=flag)[1:-1] for f in forms for flag in (False, True)}
    return [s.encode("utf-8") for s in forms | escaped]


def files_quoting(home: Path, text: str) -> list[str]:
    """Every file under ``home`` holding ``text`` in any spelling, relative to ``home``."""
    found = []
    for path in sorted(home.rglob("*")):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if any(spelling in data for spelling in spellings(text)):
                found.append(str(path.relative_to(home)))
    return found


def bash_record(command: str, number: int, **fields: Any) -> dict[str, Any]:
    return {
        "event": "PostToolUse",
        "session_id": "session-one",
        "cwd": PROJECT,
        "tool_name": "Bash",
        "tool_use_id": f"toolu_{number:04d}",
        "command": command,
        **fields,
    }


def plant_everywhere(memory_home: Path, memory_type: str) -> Memory:
    """Save a memory with TEXT, then leave the text in every kind of file the home keeps."""
    fix = {"resolution": "deploy with --force"} if memory_type == "error" else {}
    saved = memories.save(memory_type, TEXT, project=PROJECT, **fix)  # a fix: shown at start
    memories.save(memory_type, "an unrelated memory that stays", project=PROJECT)  # backups/
    journal.append(bash_record(f"echo '{TEXT}'", 1))
    journal.append(bash_record("make unrelated", 2))
    journal.drain(memory_home)  # taken and never finished: a take left by a crashed ingest
    journal.append(bash_record(TEXT, 3))  # the command itself, run again
    journal.append(bash_record("git status", 4))
    context.refresh_start_cache(PROJECT)
    store = Store(spec_for(memory_type)).path
    shutil.copy(store, store.with_name(store.name + ".corrupt-20260101T000000Z"))
    shutil.copy(store, store.with_name(f".{store.name}.killed.tmp"))  # a write killed midway
    return saved


@pytest.mark.parametrize("memory_type", TYPES)
def test_after_forget_the_text_is_in_no_file_of_the_memory_home(
    memory_home: Path, memory_type: str
) -> None:
    saved = plant_everywhere(memory_home, memory_type)
    before = files_quoting(memory_home, saved.text)
    store = spec_for(memory_type).filename
    planted = {store, f"backups/{store}", "journal.jsonl", f"{store}.corrupt-20260101T000000Z"}
    assert planted | {f".{store}.killed.tmp"} <= set(before)
    assert any(name.endswith(".ingesting") for name in before)
    assert any(name.startswith("cache/context-") for name in before)
    memories.forget(saved.id)
    assert files_quoting(memory_home, saved.text) == []
    assert saved.id.encode() not in Store(spec_for(memory_type)).backup_path.read_bytes()


def test_forget_keeps_every_other_memory_and_journal_record(memory_home: Path) -> None:
    saved = plant_everywhere(memory_home, "command")
    memories.forget(saved.id)
    assert [m.text for m in memories.list_memories()] == ["an unrelated memory that stays"]
    backup = Store(spec_for("command")).backup_path.read_bytes()
    assert b"an unrelated memory that stays" in backup
    commands = [r["command"] for r in journal.drain(memory_home, stale_after=0)]
    assert sorted(commands) == ["git status", "make unrelated"]


def test_forget_deletes_every_start_cache(memory_home: Path) -> None:
    memories.save("preference", "Use pnpm")
    gone = memories.save("preference", TEXT)
    for project in ("/src/shop", "/src/blog", None):
        context.refresh_start_cache(project)
    assert len(list((memory_home / "cache").iterdir())) == 3
    memories.forget(gone.id)
    assert list((memory_home / "cache").iterdir()) == []


def test_forget_drops_the_journal_records_that_produced_an_error(memory_home: Path) -> None:
    failure = {
        **bash_record("pnpm test", 7),
        "event": "PostToolUseFailure",
        "at": "2026-03-01T10:00:00.000+00:00",
        "error": "Exit code 1\nError: Cannot find module 'vitest'",
    }
    [error] = [m for m in apply_records([failure]).stored if m.type is MemoryType.ERROR]
    journal.append({**failure, "tool_use_id": "toolu_0008"})  # the same failure, seen again
    journal.append(bash_record("pnpm build", 9))
    memories.forget(error.id)
    assert [r["command"] for r in journal.drain(memory_home)] == ["pnpm build"]


def test_doctor_repair_after_a_corrupted_store_does_not_bring_a_forgotten_memory_back(
    memory_home: Path,
) -> None:
    keep = memories.save("preference", "Use pnpm")
    gone = memories.save("preference", TEXT)
    memories.save("preference", "Use tabs")
    memories.forget(gone.id)
    store = Store(spec_for("preference"))
    store.path.write_bytes(b'{"schema_version": 1, "entr')
    doctor.repair()
    assert gone.id not in {m.id for m in memories.list_memories()}
    assert keep.id in {m.id for m in memories.list_memories()}
    assert files_quoting(memory_home, TEXT) == []


def test_a_backup_older_than_the_forget_is_restored_without_the_forgotten_memory(
    memory_home: Path,
) -> None:
    memories.save("preference", "Use pnpm")
    gone = memories.save("preference", TEXT)
    store = Store(spec_for("preference"))
    memories.save("preference", "Use tabs")
    stale_backup = store.path.read_bytes()  # as a backup kept before forget scrubbed them
    memories.forget(gone.id)
    store.backup_path.write_bytes(stale_backup)
    store.path.write_bytes(b"garbage")
    actions = doctor.repair()
    assert gone.id not in {m.id for m in memories.list_memories()}
    assert any("left out 1 forgotten or expired entry" in action for action in actions)
    assert files_quoting(memory_home, TEXT) == []


def test_a_tombstone_holds_ids_only(memory_home: Path) -> None:
    gone = [memories.save("preference", f"{TEXT} number {n}") for n in range(3)]
    gone.append(memories.save("context", TEXT, key="session:3f1c2a9e-1b2c-4d5e-8f9a-0b1c2d3e4f5a"))
    for memory in gone:
        memories.forget(memory.id)
    path = memory_home / tombstones.TOMBSTONES_NAME
    assert json.loads(path.read_bytes()) == {"v": 1, "ids": [m.id for m in gone]}
    assert files_quoting(memory_home, TEXT) == []
    assert b"session:" not in path.read_bytes()
    assert path.stat().st_mode & 0o777 == 0o600


def test_tombstones_keep_the_newest_ids_up_to_their_bound(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tombstones, "MAX_TOMBSTONES", 3)
    tombstones.record_forgotten(["pref-1", "pref-2", "pref-3"], memory_home)
    tombstones.record_forgotten(["pref-4", "pref-2"], memory_home)
    document = json.loads((memory_home / tombstones.TOMBSTONES_NAME).read_bytes())
    assert document["ids"] == ["pref-3", "pref-4", "pref-2"]


def test_a_damaged_tombstone_file_still_counts_every_legible_id(memory_home: Path) -> None:
    memory_home.mkdir(mode=0o700, exist_ok=True)
    (memory_home / tombstones.TOMBSTONES_NAME).write_bytes(
        b'{"v": 1, "ids": ["pref-1", "ctx-2", "e'
    )
    assert tombstones.forgotten_ids(memory_home) == {"pref-1", "ctx-2"}
    tombstones.record_forgotten(["err-3"], memory_home)
    assert tombstones.forgotten_ids(memory_home) == {"pref-1", "ctx-2", "err-3"}


def test_forget_by_key_tombstones_every_value_of_the_key(memory_home: Path) -> None:
    first = memories.save("preference", "Use npm", key="package-manager")
    second = memories.save("preference", "Use pnpm", key="package-manager")
    memories.forget(key="package-manager")
    assert tombstones.forgotten_ids(memory_home) == {first.id, second.id}
    assert files_quoting(memory_home, "Use npm") == []


def test_the_same_command_run_after_forget_is_a_new_memory() -> None:
    with freeze_time("2026-03-01 10:00:00"):
        gone = memories.save("command", "make deploy")
        memories.forget(gone.id)
        again = memories.save("command", "make deploy")
        assert [m.id for m in memories.list_memories()] == [again.id]
    assert again.id != gone.id


# ---- forget and save at once, in real processes


def _init(home: str, barrier: Any) -> None:
    os.environ["ARTIBOT_MEMORY_HOME"] = home
    _SHARED["barrier"] = barrier


def letter(number: int) -> str:
    """Spell a digit with a letter: signatures replace numbers, and texts must stay distinct."""
    return "bcdfghjklm"[number]


def save_while_forgetting(worker: int) -> list[str]:
    """Wait for the forgetter, then save ten preferences and ten contexts; return their ids."""
    _SHARED["barrier"].wait(BARRIER_TIMEOUT)
    texts = [("preference", f"Prefer style {letter(worker)} {letter(n)}") for n in range(10)]
    texts += [("context", f"Fact {letter(worker)} {letter(n)}") for n in range(10)]
    return [memories.save(memory_type, text).id for memory_type, text in texts]


def forget_while_saving(ids: list[str]) -> int:
    """Wait for the savers, then forget every id; return how many went."""
    _SHARED["barrier"].wait(BARRIER_TIMEOUT)
    return sum(len(memories.forget(memory_id)) for memory_id in ids)


@pytest.mark.slow
def test_forget_while_saves_run_loses_neither_the_saves_nor_the_forgets(memory_home: Path) -> None:
    doomed = [memories.save("preference", f"Doomed preference {letter(n)}").id for n in range(10)]
    doomed += [memories.save("context", f"Doomed fact {letter(n)}").id for n in range(10)]
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(4)
    with ProcessPoolExecutor(4, context, _init, (str(memory_home), barrier)) as pool:
        forgetting = pool.submit(forget_while_saving, doomed)
        saving = [pool.submit(save_while_forgetting, worker) for worker in range(3)]
        saved = {memory_id for future in saving for memory_id in future.result(timeout=300)}
        assert forgetting.result(timeout=300) == len(doomed)
    on_disk = {m.id for m in memories.list_memories()}
    assert saved <= on_disk
    assert len(saved) == 3 * 20
    assert not on_disk & set(doomed)
    for memory_type in ("preference", "context"):
        backup = Store(spec_for(memory_type)).backup_path.read_bytes()
        assert not any(memory_id.encode() in backup for memory_id in doomed)
    assert tombstones.forgotten_ids(memory_home) == set(doomed)
    assert files_quoting(memory_home, "Doomed") == []
