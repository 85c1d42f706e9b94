from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.capture import journal
from artibot_memory.lifecycle import handle, ingest
from artibot_memory.plugin import fast
from artibot_memory.recall.startcache import serve_cached_start

SHOP = {"cwd": "/src/shop", "source": "startup"}


def start_fully_then_drain() -> dict[str, Any] | None:
    """A SessionStart on the full path, then the session's end and its worker's ingest."""

    output = handle("SessionStart", SHOP)
    fast.defer(
        "SessionEnd", {"session_id": "s", "cwd": SHOP["cwd"], "transcript_path": "/nonexistent"}
    )
    ingest()
    return output


def test_a_full_session_start_leaves_a_cache_the_next_start_serves() -> None:
    memories.save("preference", "Use pnpm, not npm")
    fresh = start_fully_then_drain()
    served, cached = serve_cached_start(SHOP)
    assert served
    assert cached == fresh


def test_serving_from_the_cache_still_counts_the_items_as_accessed() -> None:
    memories.save("preference", "Use pnpm, not npm")
    start_fully_then_drain()
    serve_cached_start(SHOP)
    ingest()
    [entry] = memories.list_memories("preference")
    assert entry.access_count == 2


def test_an_empty_context_is_cached_as_nothing_to_say() -> None:
    start_fully_then_drain()
    assert serve_cached_start(SHOP) == (True, None)


def test_any_store_change_sends_the_start_back_to_the_full_path() -> None:
    memories.save("preference", "Use pnpm, not npm")
    start_fully_then_drain()
    memories.save("context", "new fact", project="/src/shop")
    assert serve_cached_start(SHOP) == (False, None)


def test_records_waiting_in_the_journal_send_it_back_to_the_full_path() -> None:
    memories.save("preference", "Use pnpm, not npm")
    start_fully_then_drain()
    handle("UserPromptSubmit", {"session_id": "x", "prompt": "nothing to keep"})

    journal.append({"event": "PostToolUse", "tool_name": "Bash", "command": "ls"})
    assert serve_cached_start(SHOP)[0] is False


def test_back_to_back_starts_are_all_served_from_the_cache() -> None:
    memories.save("preference", "Use pnpm, not npm")
    start_fully_then_drain()
    outputs = [serve_cached_start({**SHOP, "session_id": f"s{n}"}) for n in range(4)]
    assert all(served for served, _ in outputs)  # each journals an access: none renders again
    assert len({json.dumps(output) for _, output in outputs}) == 1
    assert [len(r["ids"]) for r in journal.drain() if r["event"] == journal.ACCESS_EVENT] == [1] * 4


def test_another_project_has_its_own_cache() -> None:
    memories.save("context", "shop fact", project="/src/shop")
    start_fully_then_drain()
    assert serve_cached_start({"cwd": "/src/blog"})[0] is False


def test_the_cache_expires_with_the_first_memory_it_shows_and_after_a_day() -> None:
    with freeze_time("2026-01-01T00:00:00Z") as clock:
        memories.save("command", "make test", project="/src/shop")
        start_fully_then_drain()
        clock.tick(timedelta(days=7))
        assert serve_cached_start(SHOP)[0] is False
    with freeze_time("2026-02-01T00:00:00Z") as clock:
        memories.save("preference", "tabs")
        start_fully_then_drain()
        clock.tick(timedelta(hours=23))
        assert serve_cached_start(SHOP)[0] is True
        clock.tick(timedelta(hours=2))
        assert serve_cached_start(SHOP)[0] is False


def test_a_session_end_refreshes_the_cache_of_its_project(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    row = {
        "type": "user",
        "sessionId": "s1",
        "cwd": "/src/shop",
        "timestamp": "2026-01-01T10:00:00Z",
        "message": {"role": "user", "content": "Build the cart"},
    }
    transcript.write_text(json.dumps(row) + "\n")

    fast.defer(
        "SessionEnd", {"session_id": "s1", "cwd": "/src/shop", "transcript_path": str(transcript)}
    )
    ingest()
    served, output = serve_cached_start(SHOP)
    assert served
    assert output is not None
    assert "Build the cart" in output["hookSpecificOutput"]["additionalContext"]
