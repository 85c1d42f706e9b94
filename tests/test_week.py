"""A week of sessions (tests/week.py) through the real hooks, day by day under freezegun.

What a person finds in the memory home afterwards is what this file pins: one daily note
per day that had a session, a MEMORY.md worth reading, and everything in them searchable,
editable and forgettable.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from freezegun import freeze_time
from week import hook_payloads, week, write_transcript

from artibot_memory import lifecycle
from artibot_memory.api import memories
from artibot_memory.plugin import fast
from artibot_memory.store.model import MemoryType


def live(root: Path, sessions=None) -> None:  # type: ignore[no-untyped-def]
    """Run ``sessions`` (default: the whole week) through the hooks, each at its own time."""
    for session in sessions or week():
        project = root / session.project
        (project / ".git").mkdir(parents=True, exist_ok=True)
        transcript = write_transcript(session, root, root / "transcripts")
        for at, event, payload in hook_payloads(session, root, transcript):
            with freeze_time(at):
                if event in ("PostToolUse", "PostToolUseFailure"):
                    fast.handle(event, payload)
                elif event == "SessionEnd":
                    fast.defer(event, payload)  # what the hook does; its worker, in process:
                    lifecycle.ingest()
                else:
                    lifecycle.handle(event, payload)


@pytest.fixture
def lived(tmp_path: Path) -> Path:
    live(tmp_path / "work")
    return tmp_path / "work"


@pytest.mark.usefixtures("lived")
def test_every_session_of_the_week_leaves_its_summary() -> None:
    summaries = [
        m for m in memories.list_memories(MemoryType.CONTEXT) if "session-summary" in m.tags
    ]
    assert len(summaries) == len(week())
    preferences = {m.key: m for m in memories.list_memories(MemoryType.PREFERENCE)}
    assert "package-manager" in preferences, sorted(map(str, preferences))
