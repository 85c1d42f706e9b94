from __future__ import annotations

import json
from pathlib import Path

from artibot_memory.api import memories
from artibot_memory.capture import journal
from artibot_memory.lifecycle import handle
from artibot_memory.store.model import State


def write_transcript(path: Path, session_id: str, prompts: list[str]) -> Path:
    rows = []
    for i, prompt in enumerate(prompts):
        rows.append(
            {
                "type": "user",
                "sessionId": session_id,
                "cwd": "/src/shop",
                "gitBranch": "main",
                "timestamp": f"2026-01-01T10:0{i}:00.000Z",
                "uuid": f"u{i}",
                "message": {"role": "user", "content": prompt},
            }
        )
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def test_session_start_with_nothing_stored_prints_nothing() -> None:
    assert handle("SessionStart", {"cwd": "/src/shop", "source": "startup"}) is None


def test_session_start_injects_the_projects_memories_as_additional_context() -> None:
    memories.save("preference", "Use pnpm, not npm")
    memories.save("context", "Checkout uses Stripe", project="/src/shop")
    output = handle("SessionStart", {"cwd": "/src/shop", "source": "startup", "session_id": "s"})
    assert output is not None
    specific = output["hookSpecificOutput"]
    assert specific["hookEventName"] == "SessionStart"
    assert "Use pnpm, not npm" in specific["additionalContext"]
    assert "Checkout uses Stripe" in specific["additionalContext"]
    assert len(specific["additionalContext"]) <= 8_000


def test_session_start_ingests_the_journal_first() -> None:
    journal.append(
        {
            "event": "PostToolUse",
            "session_id": "s",
            "cwd": "/src/shop",
            "tool_name": "Bash",
            "command": "pnpm test",
        }
    )
    output = handle("SessionStart", {"cwd": "/src/shop", "source": "startup"})
    assert output is not None
    assert "pnpm test" in output["hookSpecificOutput"]["additionalContext"]


def test_session_end_stores_a_summary_and_a_resumed_session_updates_it(tmp_path: Path) -> None:
    path = write_transcript(tmp_path / "s1.jsonl", "s1", ["Add a checkout page"])
    handle("SessionEnd", {"session_id": "s1", "transcript_path": str(path), "cwd": "/src/shop"})
    [summary] = memories.list_memories("context")
    assert summary.key == "session:s1"
    assert "Add a checkout page" in summary.text
    write_transcript(path, "s1", ["Add a checkout page", "Now add tests for it"])
    handle("SessionEnd", {"session_id": "s1", "transcript_path": str(path), "cwd": "/src/shop"})
    [updated] = memories.list_memories("context")
    assert updated.id == summary.id
    assert "Now add tests for it" in updated.text


def test_session_end_with_a_missing_transcript_stores_nothing(tmp_path: Path) -> None:
    handle("SessionEnd", {"session_id": "s1", "transcript_path": str(tmp_path / "gone.jsonl")})
    assert memories.list_memories() == []


def test_a_stated_preference_is_pending_until_a_second_session_states_it() -> None:
    handle("UserPromptSubmit", {"session_id": "a", "prompt": "I prefer small commits"})
    [pending] = memories.list_memories("preference")
    assert pending.state is State.PENDING
    handle("UserPromptSubmit", {"session_id": "b", "prompt": "I prefer small commits."})
    [active] = memories.list_memories("preference")
    assert active.state is State.ACTIVE


def test_an_explicit_remember_is_active_at_once() -> None:
    prompt = "Remember to always run the linter before committing"
    handle("UserPromptSubmit", {"session_id": "a", "prompt": prompt})
    [saved] = memories.list_memories("preference")
    assert (saved.text, saved.state) == ("always run the linter before committing", State.ACTIVE)


def test_a_slash_command_is_counted() -> None:
    handle("UserPromptSubmit", {"session_id": "a", "cwd": "/src/shop", "prompt": "/compact"})
    [command] = memories.list_memories("command")
    assert command.text == "/compact"


def test_unknown_events_and_garbage_payloads_do_nothing() -> None:
    assert handle("Notification", {"x": 1}) is None
    assert handle("UserPromptSubmit", {"prompt": 42}) is None
    assert handle("SessionEnd", {"transcript_path": ["not", "a", "path"]}) is None


def test_one_broken_store_does_not_cost_the_session_the_others(memory_home: Path) -> None:
    memories.save("preference", "Use pnpm, not npm")
    (memory_home / "command-history.json").write_bytes(b"{broken")
    output = handle("SessionStart", {"cwd": "/src/shop", "source": "startup"})
    assert output is not None
    assert "Use pnpm, not npm" in output["hookSpecificOutput"]["additionalContext"]
    assert "command-history.json" in (memory_home / "logs" / "hooks.log").read_text()
    assert (memory_home / "command-history.json").read_bytes() == b"{broken"
