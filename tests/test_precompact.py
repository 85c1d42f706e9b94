"""PreCompact: a checkpoint of the session so far, in the one summary SessionEnd completes.

Replayed with what Claude Code 2.1.332 really sent and wrote: the PreCompact payload of a
manual ``/compact`` (tests/fixtures/hooks/hook_payloads_resume_compact.jsonl) and the
transcript of that session (tests/fixtures/transcripts/bf94da03-….jsonl), which holds a
first run, a resumed run and the compaction. The transcript "as it stood at PreCompact"
is that file up to its ``compact_boundary`` row.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from payloads import FIXTURES, captured
from workers import wait_for_workers

from artibot_memory import lifecycle
from artibot_memory.api import memories
from artibot_memory.capture import journal
from artibot_memory.core import venv
from artibot_memory.plugin import fast
from artibot_memory.store.model import Memory

ROOT = Path(__file__).resolve().parent.parent
SESSION_ID = "bf94da03-d611-4290-9869-acf21951c67b"
TRANSCRIPT = Path(__file__).parent / "fixtures" / "transcripts" / f"{SESSION_ID}.jsonl"
CWD = "/home/dev/proj"  # the session's working directory, in the payloads and the transcript


def compact_payload(**fields: Any) -> dict[str, Any]:
    """The PreCompact payload Claude Code sent on a manual ``/compact``, with ``fields``."""
    for line in (FIXTURES / "hook_payloads_resume_compact.jsonl").read_text().splitlines():
        payload: dict[str, Any] = json.loads(line)["stdin"]
        if payload["hook_event_name"] == "PreCompact":
            return {**payload, **fields}
    raise LookupError("PreCompact")


def transcript_lines() -> list[str]:
    return TRANSCRIPT.read_text().splitlines(keepends=True)


def index_of(subtype: str) -> int:
    """The line number of the first row with this ``subtype`` (compact_boundary)."""
    for number, line in enumerate(transcript_lines()):
        if json.loads(line).get("subtype") == subtype:
            return number
    raise LookupError(subtype)


def run_starts() -> list[int]:
    """Where each run of the session starts: at its prompt's ``enqueue`` row (0, resumes)."""
    return [
        number
        for number, line in enumerate(transcript_lines())
        if json.loads(line).get("operation") == "enqueue"
    ]


def write(path: Path, lines: int) -> str:
    """Write the first ``lines`` lines of the session's transcript to ``path``."""
    path.write_text("".join(transcript_lines()[:lines]))
    return str(path)


def before_compaction(path: Path) -> str:
    """The transcript as it stood when PreCompact fired: every row before the boundary."""
    return write(path, index_of("compact_boundary"))


def after_compaction(path: Path) -> str:
    """The whole transcript: the compaction and what came after it."""
    return write(path, len(transcript_lines()))


def summaries() -> list[Memory]:
    return memories.list_memories("context")


def journaled() -> list[dict[str, Any]]:
    with journal.drain() as batch:
        return list(batch)


# ---- the hook as Claude Code runs it


def test_hooks_json_runs_pre_compact_on_both_triggers_on_the_fast_path() -> None:
    [group] = json.loads((ROOT / "hooks" / "hooks.json").read_text())["hooks"]["PreCompact"]
    [hook] = group["hooks"]
    assert set(group["matcher"].split("|")) == {"auto", "manual"}
    assert hook["command"] == "python3"
    assert hook["args"] == ["-S", "${CLAUDE_PLUGIN_ROOT}/bin/artibot-memory", "hook", "PreCompact"]
    assert 1 <= hook["timeout"] <= 10  # the compaction waits for it


@pytest.mark.parametrize(
    ("trigger", "instructions"),
    [
        pytest.param("manual", None, id="manual-captured"),
        pytest.param("manual", "", id="manual-empty-as-in-the-docs"),
        pytest.param("auto", None, id="auto"),
        pytest.param("manual", "Keep the API decisions; token sk-ant-api03-" + "x" * 40, id="text"),
    ],
)
def test_pre_compact_is_journaled_and_handed_to_the_worker(
    started: list[list[str]], trigger: str, instructions: str | None
) -> None:
    payload = compact_payload(trigger=trigger, custom_instructions=instructions)
    assert fast.route("PreCompact", payload) == (True, None)
    [record] = journaled()
    assert record["event"] == "PreCompact"
    assert record["deferred"] is True
    assert record["session_id"] == SESSION_ID
    assert record["cwd"] == CWD
    assert record["transcript_path"] == payload["transcript_path"]
    assert record["trigger"] == trigger
    assert "custom_instructions" not in record  # the summary needs none of it
    [worker] = started
    assert worker[1:] == [fast.entry_script(), "ingest"]


def test_a_real_hook_process_exits_at_once_and_its_worker_stores_the_checkpoint(
    tmp_path: Path, memory_home: Path
) -> None:
    payload = compact_payload(transcript_path=before_compaction(tmp_path / "t.jsonl"))
    env = {k: v for k, v in os.environ.items() if k not in (venv.DATA_ENV, venv.RELAYED_ENV)}
    code = (  # the hook entry, as bin/artibot-memory runs it, then what it loaded
        "import sys, json; sys.path.insert(0, sys.argv[1]);"
        "from artibot_memory.plugin import entry;"
        "status = entry.run_hook('PreCompact', sys.stdin.buffer.read());"
        "sys.stderr.write(json.dumps([status, sorted(sys.modules)]))"
    )
    done = subprocess.run(  # noqa: S603 - this interpreter, fixed code
        [sys.executable, "-S", "-c", code, str(ROOT)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    status, loaded = json.loads(done.stderr)
    assert (done.returncode, status, done.stdout) == (0, 0, b"")
    assert set(loaded).isdisjoint({"pydantic", "orjson", "artibot_memory.lifecycle"})
    wait_for_workers(memory_home)
    [summary] = summaries()
    assert summary.key == f"session:{SESSION_ID}"
    assert summary.source.channel == "hook:PreCompact"
    assert summary.project == CWD
    assert "Please run the test commands | again" in summary.text
    assert "compaction" not in summary.text  # made before it
    assert journal.JOURNAL_NAME not in os.listdir(memory_home)


# ---- one summary per session


def test_session_end_completes_the_checkpoint_instead_of_adding_a_second(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION_ID}.jsonl"
    lifecycle.handle("PreCompact", compact_payload(transcript_path=before_compaction(path)))
    [checkpoint] = summaries()
    assert checkpoint.source.channel == "hook:PreCompact"
    end = {**captured("SessionEnd"), "transcript_path": after_compaction(path)}
    lifecycle.handle("SessionEnd", end)
    [summary] = summaries()
    assert summary.id == checkpoint.id
    assert summary.source.channel == "hook:SessionEnd"
    assert "1 compaction(s)" in summary.text
    assert "`/compact` ×1" in summary.text
    assert summary.count == 1


def test_a_session_killed_after_a_compaction_is_summarised_at_the_next_start(
    started: list[list[str]], tmp_path: Path
) -> None:
    path = tmp_path / f"{SESSION_ID}.jsonl"
    payload = compact_payload(transcript_path=before_compaction(path))
    fast.route("PreCompact", payload)  # the worker never ran: killed with the session
    after_compaction(path)  # the session went on after the compaction, then was killed
    assert started
    assert summaries() == []
    output = lifecycle.handle("SessionStart", {"cwd": CWD, "source": "startup"})
    [summary] = summaries()
    assert summary.key == f"session:{SESSION_ID}"
    assert "1 compaction(s)" in summary.text  # read from the transcript as it is now
    assert output is not None
    context = output["hookSpecificOutput"]["additionalContext"]
    assert 'asked "Please run the test commands" (+1 more)' in context  # the session's line


def test_a_checkpoint_finishing_after_the_session_end_leaves_the_end_summary(
    tmp_path: Path,
) -> None:
    end = {**captured("SessionEnd"), "transcript_path": after_compaction(tmp_path / "end.jsonl")}
    lifecycle.handle("SessionEnd", end)
    [complete] = summaries()
    # The checkpoint's worker read the transcript before the compaction, and stores last.
    late = compact_payload(transcript_path=before_compaction(tmp_path / "early.jsonl"))
    lifecycle.handle("PreCompact", late)
    [summary] = summaries()
    assert summary.text == complete.text
    assert summary.source.channel == "hook:SessionEnd"


def test_a_resumed_and_compacted_session_counts_nothing_twice(
    started: list[list[str]], tmp_path: Path
) -> None:
    """First run, its end; resumed run, its end; /compact; the end of that run.

    Every stage goes through the journal and the worker's ingest, as in Claude Code.
    """
    path = tmp_path / f"{SESSION_ID}.jsonl"
    end = captured("SessionEnd")
    for call in ("PostToolUse", "PostToolUseFailure"):
        fast.handle(call, captured(call))
    first, resumed, compacted = run_starts()
    assert first == 0
    assert resumed < compacted < index_of("compact_boundary")
    stages = [
        ("SessionEnd", end, resumed),  # the first run's end
        ("SessionEnd", end, compacted),  # the resumed run's end
        ("PreCompact", compact_payload(), index_of("compact_boundary")),  # its /compact
        ("SessionEnd", end, len(transcript_lines())),  # and its end
    ]
    seen = []
    for event, payload, lines in stages:
        write(path, lines)
        fast.route(event, {**payload, "transcript_path": str(path)})
        lifecycle.ingest()
        [summary] = summaries()
        seen.append((summary.id, summary.count))
    assert len(started) == len(stages)
    assert {memory_id for memory_id, _ in seen} == {seen[0][0]}
    assert [count for _, count in seen] == [1, 1, 1, 1]
    assert "Commands (2 total, 2 distinct)" in summary.text
    assert "Errors (1, 0 fixed)" in summary.text
    commands = memories.list_memories("command")
    [error] = memories.list_memories("error")
    assert commands
    assert [m.count for m in [*commands, error]] == [1] * (len(commands) + 1)


def test_the_same_checkpoint_processed_twice_is_one_sighting(tmp_path: Path) -> None:
    payload = compact_payload(transcript_path=before_compaction(tmp_path / "t.jsonl"))
    lifecycle.handle("PreCompact", payload)
    [first] = summaries()
    lifecycle.handle("PreCompact", payload)  # a retried journal batch
    [again] = summaries()
    assert (again.id, again.count, len(again.evidence)) == (first.id, 1, len(first.evidence))


def test_a_checkpoint_without_a_readable_transcript_stores_nothing(tmp_path: Path) -> None:
    for transcript in (str(tmp_path / "gone.jsonl"), None, ["not", "a", "path"]):
        assert lifecycle.handle("PreCompact", compact_payload(transcript_path=transcript)) is None
    assert summaries() == []
