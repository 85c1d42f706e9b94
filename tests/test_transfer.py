from __future__ import annotations

import json
from pathlib import Path

import pytest

from artibot_memory.api import memories
from artibot_memory.api.transfer import export_lines, import_file
from artibot_memory.core.errors import ImportFileError
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Memory
from artibot_memory.store.table import STORES, spec_for


def test_export_then_import_into_an_empty_home_restores_every_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memories.save("preference", "Use pnpm", key="pm", tags=["js"])
    memories.save("context", "shop facts", project="/src/shop")
    memories.save("error", "TypeError: x is undefined", resolution="guard the call")
    memories.save("command", "pnpm build")
    exported = list(export_lines())
    original = {m.id: m for m in memories.list_memories()}
    monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(tmp_path / "other-home"))
    report = import_file(exported, "export.jsonl")
    assert report.imported == 4
    restored = {m.id: m for m in memories.list_memories()}
    assert restored.keys() == original.keys()
    for memory_id, memory in original.items():
        assert restored[memory_id].model_dump() == memory.model_dump()


def test_short_records_need_only_type_and_text() -> None:
    lines = [
        json.dumps({"type": "preference", "text": "tabs", "key": "indent"}),
        json.dumps({"type": "context", "text": "fact", "project": "shop", "tags": ["a"]}),
        "",
    ]
    report = import_file(lines, "in.jsonl")
    assert report.imported == 2
    assert {m.text for m in memories.list_memories()} == {"tabs", "fact"}


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        pytest.param("{not json", "line", id="not-json"),
        pytest.param('["a list"]', "JSON object", id="not-an-object"),
        pytest.param('{"type": "recipe", "text": "x"}', "type", id="unknown-type"),
        pytest.param('{"type": "preference", "text": ""}', "text", id="empty-text"),
        pytest.param('{"type": "preference"}', "text", id="missing-text"),
    ],
)
def test_a_malformed_line_is_reported_by_number_and_nothing_is_imported(
    line: str, problem: str
) -> None:
    lines = [json.dumps({"type": "preference", "text": "valid"}), line]
    with pytest.raises(ImportFileError, match=r"in\.jsonl:2: ") as caught:
        import_file(lines, "in.jsonl")
    assert problem in str(caught.value)
    assert memories.list_memories() == []


def test_skip_invalid_imports_the_valid_lines_and_lists_the_rest() -> None:
    lines = [json.dumps({"type": "preference", "text": "valid"}), "{broken"]
    report = import_file(lines, "in.jsonl", skip_invalid=True)
    assert report.imported == 1
    assert report.skipped[0].startswith("in.jsonl:2: ")


def test_an_import_takes_one_write_per_store(monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[str] = []
    original = Store._write  # noqa: SLF001 - the one place a store writes its file

    def counting(self: Store, entries: list[Memory]) -> None:
        writes.append(self.spec.filename)
        original(self, entries)

    monkeypatch.setattr(Store, "_write", counting)
    lines = [
        json.dumps({"type": s.type.value, "text": f"t{i} {s.type.value}"})
        for s in STORES
        for i in range(20)
    ]
    import_file(lines, "bulk.jsonl")
    assert sorted(writes) == sorted(s.filename for s in STORES)


def test_records_already_expired_on_arrival_are_not_kept() -> None:
    line = json.dumps({"type": "command", "text": "ls", "created_at": "2020-01-01T00:00:00Z"})
    report = import_file([line], "old.jsonl")
    assert (report.imported, report.expired_on_arrival) == (0, 1)
    assert Store(spec_for("command")).load() == []


def test_importing_the_same_full_records_twice_keeps_one_copy_each() -> None:
    memories.save("command", "make build")
    exported = list(export_lines())
    import_file(exported, "again.jsonl")
    [entry] = memories.list_memories("command")
    assert entry.count == 1
