from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from artibot_memory.api import memories
from artibot_memory.core.errors import CorruptStoreError, NewerSchemaError, UnsafeStoreError
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.table import spec_for


def store_of(kind: str) -> Store:
    return Store(spec_for(kind))


def test_a_missing_store_file_reads_as_empty() -> None:
    assert store_of("preference").load() == []


def test_the_memory_home_is_private_and_files_are_owner_only(memory_home: Path) -> None:
    memories.save("preference", "Tabs, not spaces")
    assert stat.S_IMODE(memory_home.stat().st_mode) == 0o700
    path = memory_home / "user-preferences.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_store_file_has_the_versioned_shape(memory_home: Path) -> None:
    memories.save("command", "make build")
    document = json.loads((memory_home / "command-history.json").read_text())
    assert document["schema_version"] == 1
    assert [entry["text"] for entry in document["entries"]] == ["make build"]


def test_every_save_keeps_the_previous_file_as_a_backup(memory_home: Path) -> None:
    memories.save("preference", "first")
    memories.save("preference", "second")
    backup = json.loads((memory_home / "backups" / "user-preferences.json").read_text())
    assert [entry["text"] for entry in backup["entries"]] == ["first"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        pytest.param(b"", "is empty", id="zero-bytes"),
        pytest.param(b'{"schema_version": 1, "entr', "not valid JSON", id="truncated"),
        pytest.param(b"\x00\xff garbage", "not valid JSON", id="garbage"),
        pytest.param(b'{"schema_version": 1, "entries": {}}', "is not a store", id="wrong-shape"),
        pytest.param(b'"just a string"', "is not a store", id="wrong-type"),
        pytest.param(
            b'{"schema_version": 1, "entries": [{"id": "x"}]}', "invalid entry", id="bad-entry"
        ),
    ],
)
def test_a_corrupt_store_is_reported_and_never_overwritten(
    memory_home: Path, content: bytes, problem: str
) -> None:
    memory_home.mkdir(parents=True)
    path = memory_home / "user-preferences.json"
    path.write_bytes(content)
    with pytest.raises(CorruptStoreError, match=problem) as caught:
        memories.save("preference", "anything")
    assert str(path) in str(caught.value)
    assert path.read_bytes() == content


def test_a_newer_schema_version_is_refused_with_advice_to_upgrade(memory_home: Path) -> None:
    memory_home.mkdir(parents=True)
    path = memory_home / "error-patterns.json"
    content = b'{"schema_version": 99, "entries": []}'
    path.write_bytes(content)
    with pytest.raises(NewerSchemaError, match="upgrade"):
        memories.save("error", "boom")
    assert path.read_bytes() == content


def test_a_version_0_file_of_the_original_code_is_migrated(memory_home: Path) -> None:
    memory_home.mkdir(parents=True)
    original = [
        {
            "id": "old-1",
            "type": "preference",
            "data": "prefers dark mode",
            "tags": ["ui"],
            "createdAt": "2026-01-01T00:00:00Z",
            "accessCount": 3,
        }
    ]
    (memory_home / "user-preferences.json").write_text(json.dumps(original))
    [entry] = store_of("preference").load()
    assert (entry.text, entry.access_count, entry.tags) == ("prefers dark mode", 3, ["ui"])


def test_a_symlinked_store_leading_out_of_the_home_is_refused(
    memory_home: Path, tmp_path: Path
) -> None:
    memory_home.mkdir(parents=True)
    outside = tmp_path / "elsewhere.json"
    outside.write_text('{"schema_version": 1, "entries": []}')
    os.symlink(outside, memory_home / "user-preferences.json")
    with pytest.raises(UnsafeStoreError):
        memories.save("preference", "x")
    assert outside.read_text() == '{"schema_version": 1, "entries": []}'


def test_a_failed_transaction_writes_nothing() -> None:
    memories.save("preference", "kept")
    store = store_of("preference")
    before = store.path.read_bytes()
    with pytest.raises(RuntimeError), store.transaction() as entries:  # noqa: PT012 - raised inside the transaction
        entries.clear()
        raise RuntimeError
    assert store.path.read_bytes() == before


def test_a_file_moved_aside_keeps_its_bytes_under_a_timestamped_name(memory_home: Path) -> None:
    from artibot_memory.store.files import move_aside  # noqa: PLC0415

    memory_home.mkdir(parents=True)
    path = memory_home / "command-history.json"
    path.write_bytes(b"broken")
    moved = move_aside(store_of("command").path)
    assert not path.exists()
    assert moved.read_bytes() == b"broken"
    assert moved.name.startswith("command-history.json.corrupt-")


def test_a_list_of_objects_with_ids_inside_a_memory_stays_on_its_line(memory_home: Path) -> None:
    conflicts = [{"id": f"cf-{n}", "with": f"pref-{n}", "status": "open"} for n in range(3)]
    saved = memories.save("preference", "Use pnpm", details={"conflicts": conflicts})
    memories.save("preference", "Use tabs")
    raw = (memory_home / "user-preferences.json").read_bytes()
    lines = raw.splitlines()[1:-1]
    parsed = [json.loads(line.rstrip(b",")) for line in lines]  # each line one whole entry
    assert len(parsed) == 2
    assert next(e for e in parsed if e["id"] == saved.id)["details"]["conflicts"] == conflicts
