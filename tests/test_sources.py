"""A memory's source is a path and line or a command; where names the channel (METADATA §1)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from artibot_memory import lifecycle
from artibot_memory.api import memories
from artibot_memory.api.relate import relate
from artibot_memory.api.transfer import import_file
from artibot_memory.cli import render
from artibot_memory.cli.app import main
from artibot_memory.core import clock

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
TRANSCRIPT = FIXTURES / "ba1b0fe1-1819-4a4d-b995-e79e9936c3ca.jsonl"
PROMPT_ID = "8f16dbab-7298-41eb-857f-1b72c69e0759"


def test_a_prompt_line_is_found_by_its_prompt_id() -> None:
    assert lifecycle.prompt_line(str(TRANSCRIPT), PROMPT_ID) == 4


def test_a_prompt_not_written_yet_is_the_line_after_the_last(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_bytes(b'{"type":"user"}\n' * 3)
    assert lifecycle.prompt_line(str(transcript), "not-there") == 4
    assert lifecycle.prompt_line(str(tmp_path / "missing.jsonl"), "x") is None


def test_a_prompt_id_across_a_chunk_boundary_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lifecycle, "SCAN_CHUNK", 7)
    transcript = tmp_path / "t.jsonl"
    transcript.write_bytes(b'{"a":1}\n{"b":2}\n{"promptId":"p-1","type":"user"}\n')
    assert lifecycle.prompt_line(str(transcript), "p-1") == 3


def test_a_stated_preference_points_at_its_transcript_line() -> None:
    payload = {
        "session_id": "s-1",
        "transcript_path": str(TRANSCRIPT),
        "cwd": "/nowhere",
        "prompt_id": PROMPT_ID,
        "hook_event_name": "UserPromptSubmit",
        "prompt": "From now on, always use pnpm instead of npm.",
    }
    lifecycle.keep_prompt(payload)
    [saved] = memories.list_memories("preference")
    assert (saved.source.path, saved.source.line) == (str(TRANSCRIPT), 4)
    assert saved.source.channel == "hook:UserPromptSubmit"


@pytest.mark.parametrize(
    ("env", "channel"),
    [
        pytest.param({}, "cli", id="terminal"),
        pytest.param({"CLAUDECODE": "1"}, "skill", id="claude"),
    ],
)
def test_a_cli_save_records_the_command_as_typed(
    env: dict[str, str], channel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDECODE", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    argv = ["save", "preference", "Use pnpm; token ghp_" + "a" * 36]
    monkeypatch.setattr(sys, "argv", ["artibot-memory", *argv])
    assert main(argv) == 0
    [saved] = memories.list_memories("preference")
    assert saved.source.channel == channel
    assert saved.source.command is not None
    assert saved.source.command.startswith("artibot-memory save preference 'Use pnpm")
    assert "ghp_" + "a" * 36 not in saved.source.command


def test_a_short_import_record_points_at_its_file_and_line() -> None:
    lines = ["", json.dumps({"type": "preference", "text": "Use tabs"})]
    import_file(lines, "mine.jsonl")
    [saved] = memories.list_memories("preference")
    assert (saved.source.channel, saved.source.path, saved.source.line) == (
        "import",
        "mine.jsonl",
        2,
    )


def test_show_says_how_sure_where_from_and_what_is_related() -> None:
    doc = {
        "id": "pref-1",
        "type": "preference",
        "text": "Use pnpm",
        "confidence": 0.75,
        "created_at": "2026-11-02T09:00:00Z",
        "updated_at": "2026-11-03T09:00:00Z",
        "last_seen": "2026-11-03T09:00:00Z",
        "last_verified": "2026-11-03T09:00:00Z",
        "source": {
            "channel": "hook:UserPromptSubmit",
            "session_id": "s2",
            "path": "t.jsonl",
            "line": 14,
        },
        "evidence": [
            {"at": "2026-11-02T09:00:00Z", "session_id": "s1"},
            {"at": "2026-11-03T09:00:00Z", "session_id": "s2", "kind": "used"},
        ],
        "counter_evidence": [{"at": "2026-11-03T10:00:00Z", "session_id": "s3"}],
        "related": ["cmd-1", "cmd-gone"],
    }
    now = clock.parse_time("2026-11-04T09:00:00Z")
    assert now is not None
    text = "\n".join(render.record(doc, now, render.Style(), {"cmd-1": "pnpm install"}))
    assert "0.75, from 2 sessions over 2 days, against 1" in text
    assert "a prompt (UserPromptSubmit hook), session s2" in text
    assert "t.jsonl:14" in text
    assert '- cmd-1 "pnpm install"' in text
    assert "- cmd-gone" in text
    assert "used" in text


def test_show_reads_related_texts_from_the_index() -> None:
    memories.save("preference", "Use pnpm")
    command = memories.save("command", "pnpm install")
    relate()
    assert render.related_texts([command.id, "cmd-gone"]) == {command.id: "pnpm install"}
