"""PreCompact in a real Claude Code: the checkpoint of a session, manual and automatic.

- ``claude plugin validate --strict`` lists the PreCompact hook.
- A manual ``/compact`` (``claude -p /compact --resume ID``) runs the hook; the session's
  end completes the checkpoint: one summary, which knows of the compaction.
- An automatic compaction, then the session is killed (no SessionEnd ever comes): the
  next session still receives the killed one's summary, made from its transcript.

Claude Code compacts automatically when the context nears its window. The fake API
reports 10 input tokens per request, so the second scenario makes it report 95,000, and
sets ``CLAUDE_CODE_AUTO_COMPACT_WINDOW`` to 100,000 (2.1.332 takes 100k as the least
window: an 80,000-token effective window, a compaction threshold below that).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from . import fake_anthropic
from .fake_anthropic import FakeAnthropic, Turn, bash, text
from .harness import ClaudeRun, validate_plugin
from .sessions import REPO, Place, memories, session

pytestmark = pytest.mark.e2e

WAIT_SECONDS = 30
NEAR_FULL_CONTEXT = 95_000  # input tokens reported per request, over the threshold
WINDOW = {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "100000"}
KILL_AFTER_SECONDS = 30  # the hanging step is reached in about 6 s


def summaries(memory_home: Path) -> list[dict[str, Any]]:
    """Every session summary of the memory home, through the real CLI."""
    return [m for m in memories(memory_home, "context") if str(m.get("key")).startswith("session:")]


def wait_for_summary(memory_home: Path, session_id: str, needle: str) -> dict[str, Any]:
    """Wait for the detached worker: the session's summary, once it holds ``needle``."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        found = [m for m in summaries(memory_home) if m["key"] == f"session:{session_id}"]
        if found and needle in found[0]["text"]:
            return found[0]
        time.sleep(0.2)
    pytest.fail(f"no summary of {session_id} holding {needle!r}: {summaries(memory_home)}")


def hook_lines(run: ClaudeRun, name: str) -> list[str]:
    """The debug-log lines saying a hook ``name`` (``PreCompact:auto``) completed with 0."""
    return [
        line
        for line in run.debug_log.splitlines()
        if f"[DEBUG] {name}" in line and "completed with status 0" in line
    ]


@pytest.mark.usefixtures("claude_bin")
def test_validate_lists_the_pre_compact_hook(e2e_home: Path) -> None:
    done = validate_plugin(REPO, e2e_home)
    assert done.returncode == 0, done.stdout + done.stderr
    [line] = [line for line in done.stdout.splitlines() if "hooks: PreCompact" in line]
    assert "auto|manual" in line
    assert '"hook","PreCompact"]' in line


@pytest.mark.usefixtures("claude_bin")
def test_a_manual_compaction_is_checkpointed_and_the_end_completes_it(
    fake_api: FakeAnthropic, e2e_home: Path, e2e_project: Path, tmp_path: Path
) -> None:
    memory_home = tmp_path / "memory"
    subprocess.run(["git", "init", "-q", str(e2e_project)], check=True)  # noqa: S603, S607 - git from PATH, fixed argv
    place = Place(e2e_home, e2e_project, memory_home)
    script: list[Turn] = [bash("echo checked-the-refunds", "Check the refunds"), text("Checked.")]
    first = session("Check the refund totals", script, fake_api, place).check()
    assert first.session_id is not None
    wait_for_summary(memory_home, first.session_id, "Check the refund totals")

    compact = session(
        "/compact", script, fake_api, place, extra_args=("--resume", first.session_id)
    ).check()

    assert hook_lines(compact, "PreCompact:manual"), compact.describe()
    assert [r.kind for r in fake_api.message_requests()] == ["compact"]
    summary = wait_for_summary(memory_home, first.session_id, "1 compaction(s)")
    assert "Check the refund totals" in summary["text"]
    assert "`/compact` ×1" in summary["text"]
    assert [m["key"] for m in summaries(memory_home)] == [f"session:{first.session_id}"]
    assert summary["count"] == 1


@pytest.mark.usefixtures("claude_bin")
def test_a_session_killed_after_an_automatic_compaction_still_leaves_its_summary(
    fake_api: FakeAnthropic,
    e2e_home: Path,
    e2e_project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memory_home = tmp_path / "memory"
    subprocess.run(["git", "init", "-q", str(e2e_project)], check=True)  # noqa: S603, S607 - git from PATH, fixed argv
    place = Place(e2e_home, e2e_project, memory_home)
    started = e2e_project / "hang.started"
    hang = f"python3 -c \"open('{started.name}', 'w'); import time; time.sleep(300)\""
    script: list[Turn] = [
        bash("echo migrated-ledger", "Migrate the ledger"),
        bash("echo verified-ledger", "Verify the ledger"),
        bash(hang, "Wait for the replica"),
        text("never reached"),
    ]
    real_usage = fake_anthropic._usage  # noqa: SLF001 - the fake has no knob for its usage

    def near_full(output_tokens: int) -> dict[str, int]:
        return {**real_usage(output_tokens), "input_tokens": NEAR_FULL_CONTEXT}

    with monkeypatch.context() as patch:
        patch.setattr(fake_anthropic, "_usage", near_full)
        killed = session(
            "Migrate the ledger tables",
            script,
            fake_api,
            place,
            env=WINDOW,
            timeout=KILL_AFTER_SECONDS,
        )

    assert killed.timed_out, killed.describe()
    assert started.exists(), "the session was killed before the step after its compaction"
    assert hook_lines(killed, "PreCompact:auto"), killed.describe()
    assert "compact" in [r.kind for r in fake_api.message_requests()]
    assert not hook_lines(killed, "SessionEnd:"), "the killed session ended normally"
    assert killed.session_id is not None

    later = session("What happened in the last session?", [text("Noted.")], fake_api, place).check()
    assert later.session_id != killed.session_id
    start = [r for r in fake_api.main_requests() if r.contains("SessionStart hook additional")]
    assert start, "no SessionStart context reached the model"
    context = "\n".join(s for s in start[0].strings() if "artibot-memory" in s)
    assert "## Last sessions in project\n- [" in context  # the killed session, in a line
    assert 'asked "Migrate the ledger tables"' in context
    summary = wait_for_summary(memory_home, killed.session_id, "Migrate the ledger tables")
    assert "`echo migrated-ledger` ×1" in summary["text"]
