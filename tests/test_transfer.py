from __future__ import annotations

import json
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory import lifecycle
from artibot_memory.api import memories
from artibot_memory.api.ingest import apply_records, record_access_counts
from artibot_memory.api.transfer import export_lines, import_file
from artibot_memory.core import clock
from artibot_memory.core.errors import ImportFileError
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Evidence, Memory, Source, State
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

    def counting(self: Store, entries: list[Memory], payload: bytes | None = None) -> bytes:
        writes.append(self.spec.filename)
        return original(self, entries, payload)

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


# ---- a round trip on a realistic home

PROJECTS = ("/src/shop", "/src/blog", "/src/api")
SESSIONS = [str(uuid.UUID(int=0x3F1C2A9E1B2C4D5E8F9A0B1C2D3E4F50 + n)) for n in range(6)]
FAKE_TOKEN = "ghp_" + "A1b2" * 9


def journal_records() -> list[dict[str, Any]]:
    """A failure fixed in the same session, a failure left open, commands repeated."""
    base = {"session_id": SESSIONS[0], "cwd": "/src/shop", "tool_name": "Bash"}
    steps = [
        ("PostToolUse", "pnpm build", None),
        ("PostToolUseFailure", "pnpm test", "Exit code 1\nError: Cannot find module 'vitest'"),
        ("PostToolUse", "pnpm add -D vitest", None),
        ("PostToolUse", "pnpm test", None),
        ("PostToolUse", "pnpm build", None),
        ("PostToolUseFailure", "pnpm lint", "Exit code 2\nTypeError: x is not a function"),
    ]
    return [
        {
            **base,
            "event": event,
            "at": f"2026-03-01T10:00:{second:02d}.000+00:00",
            "tool_use_id": f"toolu_01Xy{second:02d}AbCdEfGhIjKlMnOp",
            "command": command,
            **({"error": error, "exit_code": 1} if error else {"output": "done"}),
        }
        for second, (event, command, error) in enumerate(steps)
    ]


def build_realistic_home() -> None:
    """Every type, superseded history, pending candidates, evidence both ways, resolutions,
    access counts, and session summaries of three projects keyed ``session:<uuid>``."""
    memories.save("preference", "Use npm", key="package-manager", source=Source(channel="cli"))
    memories.save("preference", "Use pnpm, not npm", key="package-manager")
    lifecycle.on_user_prompt({"prompt": "I prefer tabs over spaces", "session_id": SESSIONS[0]})
    lifecycle.on_user_prompt({"prompt": "I prefer no sudo in scripts", "session_id": SESSIONS[1]})
    for number, session in enumerate(SESSIONS):
        memories.save(
            "context",
            f"Session {number}: edited app.py, ran pnpm test (passed) on branch main",
            key=f"session:{session}",
            project=PROJECTS[number % len(PROJECTS)],
            tags=["session-summary", "branch:main"],
            why="session summary",
            source=Source(
                channel="hook:SessionEnd",
                session_id=session,
                path=f"/home/me/.claude/projects/-src/{session}.jsonl",
            ),
            details={"kind": "session-summary", "duration_seconds": 300 + number},
        )
    fact = memories.save("context", "The shop deploys with fly.io", project="/src/shop")
    apply_records(journal_records())
    memories.save("error", "ModuleNotFoundError: No module named 'requests'", resolution="pip")
    preference = memories.list_memories("preference")[0]
    record_access_counts({preference.id: 3, fact.id: 1}, clock.now())
    with Store(spec_for("preference")).transaction() as entries:
        for entry in entries:
            if entry.state is State.ACTIVE:
                entry.counter_evidence = [
                    Evidence(at=clock.now(), session_id=SESSIONS[2], note="said otherwise")
                ]


def test_export_import_export_into_an_empty_home_gives_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with freeze_time("2026-03-01 09:00:00", tick=True):
        build_realistic_home()
        first = list(export_lines())
        monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(tmp_path / "empty-home"))
        report = import_file(first, "export.jsonl")
        second = list(export_lines())
    assert report.imported == len(first)
    assert "\n".join(second) == "\n".join(first)
    by_type = Counter(json.loads(line)["type"] for line in second)
    assert by_type == {"preference": 4, "context": 7, "command": 4, "error": 3}  # + pnpm lint
    states = Counter(json.loads(line)["state"] for line in second)
    assert (states["superseded"], states["pending"], states["resolved"]) == (1, 2, 2)


def test_session_summaries_of_several_projects_keep_their_own_keys_through_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with freeze_time("2026-03-01 09:00:00"):
        build_realistic_home()
        exported = list(export_lines("context"))
        monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(tmp_path / "empty-home"))
        import_file(exported, "export.jsonl")
        summaries = [m for m in memories.list_memories("context") if m.key]
    assert sorted(m.key for m in summaries if m.key) == sorted(f"session:{s}" for s in SESSIONS)
    assert {m.project for m in summaries} == set(PROJECTS)


def test_export_order_does_not_depend_on_the_order_of_the_store_file() -> None:
    with freeze_time("2026-03-01 09:00:00"):  # every record seen at the same instant
        for number in range(5):
            memories.save("command", f"make step-{'abcde'[number]}")
        first = list(export_lines())
        with Store(spec_for("command")).transaction() as entries:
            entries.reverse()
        assert list(export_lines()) == first
    assert [json.loads(line)["id"] for line in first] == sorted(
        json.loads(line)["id"] for line in first
    )


def full_record(**fields: Any) -> dict[str, Any]:
    stamp = "2026-03-01T09:00:00Z"
    return {
        "id": "pref-0a1b2c3d4e",
        "type": "preference",
        "text": "Use pnpm",
        "created_at": stamp,
        "updated_at": stamp,
        "last_seen": stamp,
        **fields,
    }


def test_a_secret_in_the_free_text_of_a_full_record_is_still_redacted_on_import(
    memory_home: Path,
) -> None:
    secret = f"export GITHUB_TOKEN={FAKE_TOKEN}"
    record = full_record(
        text=f"deploy with {secret}",
        key=f"deploy {secret}",
        why=secret,
        resolution=secret,
        project=f"/src/{secret}",
        tags=[secret],
        details={"note": secret, "password": "hunter2hunter2"},
        source={"channel": "import", "command": secret, "extra": secret},
        evidence=[{"at": "2026-03-01T09:00:00Z", "note": secret, "extra": secret}],
        related=[FAKE_TOKEN],
        signature=secret,
        anything_else={"nested": [secret]},
    )
    report = import_file([json.dumps(record)], "foreign.jsonl")
    assert report.imported == 1
    on_disk = b"".join(p.read_bytes() for p in memory_home.rglob("*") if p.is_file())
    assert FAKE_TOKEN.encode() not in on_disk
    assert b"hunter2hunter2" not in on_disk
    [stored] = memories.list_memories()
    assert stored.text == "deploy with export GITHUB_TOKEN=[REDACTED:github-token]"
    assert stored.id == "pref-0a1b2c3d4e"


def test_identifiers_the_product_wrote_come_back_unchanged_from_a_full_record() -> None:
    session = SESSIONS[0]
    identifiers = {
        "id": "ctx-0a1b2c3d4e",
        "key": f"session:{session}",
        "signature": "TypeError: <str> is not a function",
        "related": ["pref-0a1b2c3d4e"],
        "source": {"channel": "hook:SessionEnd", "session_id": session, "path": f"/t/{session}"},
        "evidence": [
            {
                "at": "2026-03-01T09:00:00Z",
                "session_id": session,
                "note": "toolu_01A@t",
                "kind": "used",
            }
        ],
    }
    with freeze_time("2026-03-02"):
        import_file([json.dumps(full_record(type="context", **identifiers))], "export.jsonl")
        [stored] = memories.list_memories()
    record = stored.model_dump(mode="json", exclude_none=True)
    assert {name: record[name] for name in identifiers} == identifiers


def test_a_forgotten_memory_in_an_old_export_is_skipped_with_a_note() -> None:
    keep = memories.save("preference", "Use pnpm")
    drop = memories.save("preference", "Use yarn")
    old_export = list(export_lines())
    memories.forget(drop.id)
    report = import_file(old_export, "old.jsonl")
    assert report.forgotten == [drop.id]
    assert [m.id for m in memories.list_memories()] == [keep.id]


def test_a_full_record_longer_than_a_memory_holds_is_kept_cut_and_named() -> None:
    memories.save("context", "the staging database is reset every Sunday")
    [line] = export_lines()
    record = json.loads(line)
    record["id"], record["text"] = "ctx-00000000aa", "y" * 20_000
    report = import_file([json.dumps(record)], "long.jsonl")
    assert report.imported == 1
    assert report.cut == [
        "long.jsonl:1: text cut from 20,000 to 16,000 characters (the most one memory holds)"
    ]
    assert len(memories.get("ctx-00000000aa").text) == 16_000


def test_what_a_read_verb_prints_with_json_imports_as_the_record_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memories.save("preference", "Use tabs", key="indentation")
    [line] = export_lines()
    printed = {"schema": "artibot-memory/1", **json.loads(line)}
    monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(tmp_path / "fresh"))
    assert import_file([json.dumps(printed)], "listed.jsonl").imported == 1
    assert list(export_lines()) == [line]
