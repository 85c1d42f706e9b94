"""Every Bash command is counted, failed or not (issue 10, item 5).

Played through the real hooks with the captured 2.1.332 payloads, ingested as SessionStart
does, and read back from the SessionStart text, fresh and from the start cache.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from payloads import captured

from artibot_memory.api import memories
from artibot_memory.api.ingest import apply_records
from artibot_memory.lifecycle import handle, ingest
from artibot_memory.plugin import fast
from artibot_memory.recall.context import get_relevant_context
from artibot_memory.recall.startcache import serve_cached_start
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.table import spec_for

SHOP = "/src/shop"
FAILING = "Exit code 1\nnpm error Missing script: test"


def run(command: str, *, error: str | None = None, tool_use_id: str = "") -> None:
    """Tell the hooks of one Bash call in the shop, as Claude Code 2.1.332 sends it."""
    event = "PostToolUse" if error is None else "PostToolUseFailure"
    payload: dict[str, Any] = {**captured(event), "cwd": SHOP}
    payload["tool_input"] = {"command": command, "description": "run"}
    if tool_use_id:
        payload["tool_use_id"] = tool_use_id
    if error is not None:
        payload["error"] = error
    fast.handle(event, payload)


def commands() -> dict[str, tuple[int, int]]:
    return {m.text: (m.count, m.failures) for m in memories.list_memories("command")}


def test_a_failed_run_counts_as_a_run_and_as_a_failure() -> None:
    run("npm test", error=FAILING, tool_use_id="toolu_1")
    run("npm test", error=FAILING, tool_use_id="toolu_2")
    run("npm test", tool_use_id="toolu_3")
    ingest()
    assert commands() == {"npm test": (3, 2)}


def test_the_session_start_text_shows_runs_and_failures() -> None:
    for i in range(42):
        run("pytest -q", error=FAILING if i % 14 == 0 else None, tool_use_id=f"toolu_{i}")
    run("ruff check .", tool_use_id="toolu_ruff")
    ingest()
    text = get_relevant_context(SHOP)
    assert "`pytest -q` ×42 (3 failed), `ruff check .` ×1\n" in text + "\n"  # no failure: none said


def test_the_cached_session_start_shows_the_same_counts() -> None:
    run("npm test", error=FAILING, tool_use_id="toolu_1")
    run("npm test", tool_use_id="toolu_2")
    fresh = handle("SessionStart", {"cwd": SHOP, "source": "startup", "session_id": "s2"})
    # the session's end: its worker ingests what the start journaled and renders the cache
    fast.defer("SessionEnd", {"session_id": "s2", "cwd": SHOP, "transcript_path": "/none"})
    ingest()
    served, cached = serve_cached_start({"cwd": SHOP, "source": "startup"})
    assert served
    assert cached == fresh
    assert cached is not None
    assert "`npm test` ×2 (1 failed)" in cached["hookSpecificOutput"]["additionalContext"]


def test_a_replayed_batch_counts_each_failure_once() -> None:
    record = {
        "event": "PostToolUseFailure",
        "at": "2026-01-01T10:00:00",
        "session_id": "s1",
        "cwd": SHOP,
        "tool_name": "Bash",
        "tool_use_id": "toolu_1",
        "command": "make deploy",
        "error": "Exit code 2\npermission denied",
    }
    apply_records([record])
    apply_records([record])
    assert commands() == {"make deploy": (1, 1)}


def test_a_failed_call_of_another_tool_is_no_command() -> None:
    payload = {**captured("PostToolUseFailure"), "cwd": SHOP, "tool_name": "Read"}
    payload["tool_input"] = {"file_path": "/src/shop/missing.txt"}
    fast.handle("PostToolUseFailure", payload)
    ingest()
    assert commands() == {}
    assert len(memories.list_memories("error")) == 1


@pytest.mark.parametrize("stored", [{}, {"failures": 0}], ids=["written-before", "written-now"])
def test_a_store_written_before_failures_were_counted_still_loads_and_counts_on(
    memory_home: Path, stored: dict[str, Any]
) -> None:
    entry = {
        "id": "cmd-0a1b2c3d4e",
        "type": "command",
        "text": "npm test",
        "signature": "npm test",
        "project": SHOP,
        "count": 5,
        "created_at": "2026-01-01T10:00:00+00:00",
        "updated_at": "2026-01-01T10:00:00+00:00",
        "last_seen": "2099-01-01T10:00:00+00:00",
        **stored,
    }
    memory_home.mkdir(parents=True)
    document = {"schema_version": 1, "entries": [entry]}
    (memory_home / spec_for("command").filename).write_text(json.dumps(document))
    run("npm test", error=FAILING)
    ingest()
    [saved] = Store(spec_for("command")).load()
    assert (saved.id, saved.count, saved.failures) == ("cmd-0a1b2c3d4e", 6, 1)
