"""Whatever Claude Code (or anything else) sends, a hook exits 0, prints nothing or one JSON
object, writes nothing on stderr, and leaves the stores usable.

The bulk runs ``entry.run_hook`` in this process (the code of a hook process after it
read its stdin); a few real processes check the process contract itself: stdin capped at
1 MiB, odd transcript paths, interpreter shutdown.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from workers import wait_for_workers

from artibot_memory.api import doctor
from artibot_memory.api.memories import list_memories
from artibot_memory.lifecycle import ingest
from artibot_memory.plugin import entry, fast

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "bin" / "artibot-memory"
FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
# SPEC §2.1: every hook event Claude Code 2.1.332 knows.
SPEC_EVENTS = (  # the list as SPEC §2.1 prints it
    "PreToolUse PostToolUse PostToolUseFailure PostToolBatch Notification UserPromptSubmit "
    "UserPromptExpansion SessionStart SessionEnd Stop StopFailure SubagentStart "
    "SubagentStop PreCompact PostCompact PreModelSwitch PostModelSwitch PermissionRequest "
    "PermissionDenied Setup TeammateIdle TaskCreated TaskCompleted Elicitation "
    "ElicitationResult ConfigChange WorktreeCreate WorktreeRemove InstructionsLoaded "
    "CwdChanged FileChanged DirectoryAdded MessageDisplay PreSkillShellCommand"
).split()
# journaled by the hook, handled by the ingest
DEFERRED = ("UserPromptSubmit", "SessionEnd", "PreCompact")
REGISTERED = (
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "SessionEnd",
)


@pytest.fixture(autouse=True)
def no_detached_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process SessionEnd only journals (the tests ingest); processes start the worker."""
    monkeypatch.setattr(fast, "start_worker", lambda: None)


FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def captured_payloads() -> list[dict[str, Any]]:
    """Every payload of the captured Claude Code sessions (``stdin`` of each line)."""
    return [
        json.loads(line)["stdin"]
        for name in sorted(FIXTURES.glob("*.jsonl"))
        for line in name.read_text().splitlines()
        if line.strip()
    ]


CAPTURED = captured_payloads()
EVENTS = st.one_of(st.sampled_from(SPEC_EVENTS), st.text(max_size=30))
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),
    st.text(max_size=50),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


def field_paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path (keys and indexes) to a value inside a payload."""
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        yield (*prefix, key)
        yield from field_paths(child, (*prefix, key))


def replaced(payload: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(payload)
    parent = changed
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return changed


@st.composite
def payloads_with_wrong_types(draw: st.DrawFn) -> tuple[str, bytes]:
    """A captured payload with one to three fields set to a value of another type."""
    payload = draw(st.sampled_from(CAPTURED))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(field_paths(payload))
        payload = replaced(payload, draw(st.sampled_from(paths)), draw(JSON_VALUES))
    event = draw(
        st.one_of(st.sampled_from(REGISTERED), st.just(str(payload.get("hook_event_name"))))
    )
    return event, json.dumps(payload).encode()


def keeps_the_contract(capsys: pytest.CaptureFixture[str], event: str, raw: bytes) -> None:
    """Run one hook in this process: status 0, nothing on stderr, nothing or one JSON object."""
    capsys.readouterr()
    assert entry.run_hook(event, raw) == 0
    out, err = capsys.readouterr()
    assert err == ""
    if out.strip():
        assert out.count("\n") == 1
        assert isinstance(json.loads(out), dict)


def keeps_the_contract_and_the_ingest(
    capsys: pytest.CaptureFixture[str], event: str, raw: bytes
) -> None:
    """As :func:`keeps_the_contract`, then ingest what it journaled: a deferred prompt or
    session end that made the ingest raise would be retried, and fail, forever."""
    keeps_the_contract(capsys, event, raw)
    ingest()


def stores_still_usable(home: Path) -> bool:
    """Every store parses, and the journal can still be ingested."""
    ingest()
    return all(check.ok or check.state == "loose-mode" for check in doctor.diagnose(home))


@FUZZ
@given(event=EVENTS, raw=st.binary(max_size=4096))
def test_arbitrary_bytes_on_stdin_keep_the_hook_contract(
    capsys: pytest.CaptureFixture[str], event: str, raw: bytes
) -> None:
    keeps_the_contract(capsys, event, raw)


@FUZZ
@given(case=payloads_with_wrong_types())
def test_wrong_types_in_every_field_of_real_payloads_keep_the_hook_contract(
    capsys: pytest.CaptureFixture[str], case: tuple[str, bytes]
) -> None:
    keeps_the_contract_and_the_ingest(capsys, *case)


@FUZZ
@given(
    event=st.sampled_from(REGISTERED),
    payload=st.dictionaries(st.sampled_from(sorted({k for p in CAPTURED for k in p})), JSON_VALUES),
)
def test_objects_made_of_known_field_names_keep_the_hook_contract(
    capsys: pytest.CaptureFixture[str], event: str, payload: dict[str, Any]
) -> None:
    keeps_the_contract_and_the_ingest(capsys, event, json.dumps(payload).encode())


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(
        st.one_of(st.binary(max_size=200), JSON_VALUES.map(lambda v: json.dumps(v).encode())),
        max_size=30,
    )
)
def test_broken_transcripts_keep_the_session_end_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[bytes]
) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b"\n".join(lines))
    payload = {"session_id": "s", "transcript_path": str(path)}
    keeps_the_contract_and_the_ingest(capsys, "SessionEnd", json.dumps(payload).encode())


WRONG_TYPES = [None, True, -1, 2.5e300, "", "ab/" * 600, [], ["a", 1], {}, {"k": [None]}]


def every_field_of_every_event() -> list[Any]:
    """One case per (event, field path) of the captured payloads and per wrong-typed value."""
    seen: set[tuple[str, tuple[Any, ...]]] = set()
    cases = []
    for payload in CAPTURED:
        event = str(payload["hook_event_name"])
        for path in field_paths(payload):
            if (event, path) not in seen:
                seen.add((event, path))
                cases += [(event, replaced(payload, path, value)) for value in WRONG_TYPES]
    return cases


def test_every_field_of_every_captured_payload_with_a_wrong_type_keeps_the_contract(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for event, payload in every_field_of_every_event():
        run = keeps_the_contract_and_the_ingest if event in DEFERRED else keeps_the_contract
        run(capsys, event, json.dumps(payload).encode())
    assert stores_still_usable(memory_home)


def test_a_record_with_an_overlong_cwd_does_not_block_the_ingest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bash = {"tool_name": "Bash", "tool_input": {"command": "make all"}, "tool_response": {}}
    for cwd in ("/" + "x" * 300, "/src/shop"):
        keeps_the_contract(capsys, "PostToolUse", json.dumps({**bash, "cwd": cwd}).encode())
    later = datetime.now(timezone.utc) + timedelta(minutes=2)
    for moment in (None, later):
        with freeze_time(moment) if moment else contextlib.nullcontext():
            try:
                ingest()
            except OSError:
                continue
    assert sum(m.count for m in list_memories("command")) == 2


def test_after_the_fuzzing_the_stores_are_still_usable(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for payload in CAPTURED:
        keeps_the_contract(capsys, str(payload["hook_event_name"]), json.dumps(payload).encode())
        keeps_the_contract(
            capsys, "PostToolUse", json.dumps(replaced(payload, ("cwd",), [1])).encode()
        )
    assert stores_still_usable(memory_home)


@pytest.mark.parametrize("event", SPEC_EVENTS)
def test_every_event_of_the_spec_keeps_the_hook_contract(
    capsys: pytest.CaptureFixture[str], event: str
) -> None:
    for payload in CAPTURED:
        keeps_the_contract(
            capsys, event, json.dumps({**payload, "hook_event_name": event}).encode()
        )


def test_a_two_mib_payload_keeps_the_contract_in_process(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "echo " + "y" * (2 * 1024 * 1024)
    payload = {
        "session_id": "s",
        "cwd": "/src/shop",
        "tool_name": "Bash",
        "tool_input": {"command": text},
        "tool_response": {"stdout": text},
        "prompt": text,
        "error": "Exit code 1\n" + text,
    }
    for event in REGISTERED:
        keeps_the_contract(capsys, event, json.dumps(payload).encode())
    assert stores_still_usable(memory_home)


# ---- real processes, started together


def hook_processes(cases: list[tuple[str, bytes]]) -> list[subprocess.CompletedProcess[bytes]]:
    """Run ``bin/artibot-memory hook EVENT`` once per (event, stdin), all at once."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CLAUDE_PLUGIN_DATA", "ARTIBOT_MEMORY_RELAYED")
    }
    running = [
        subprocess.Popen(  # noqa: S603 - our own entry script
            [
                sys.executable,
                *(["-S"] if event in fast.FAST_EVENTS else []),
                str(ENTRY),
                "hook",
                event,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for event, _ in cases
    ]
    done = []
    for process, (event, stdin) in zip(running, cases, strict=True):
        out, err = process.communicate(stdin, timeout=120)
        done.append(subprocess.CompletedProcess(event, process.returncode, out, err))
    return done


def broken_contracts(
    done: list[subprocess.CompletedProcess[bytes]],
) -> list[tuple[str, int, bytes, bytes]]:
    """Return the runs that exited non-zero, wrote on stderr, or printed not one object."""
    broken = []
    for run in done:
        out = run.stdout
        one_object = not out.strip() or (
            out.count(b"\n") == 1 and isinstance(json.loads(out), dict)
        )
        if run.returncode != 0 or run.stderr or not one_object:
            broken.append((str(run.args), run.returncode, out[:200], run.stderr[-500:]))
    return broken


def sparse_garbage(path: Path, size: int) -> Path:
    """A ``size``-byte file that costs nothing to make: garbage at both ends, a hole between."""
    with path.open("wb") as handle:
        handle.write(b'{"type": "user", "message": {"content": "\xff\xfe broken\n' * 100)
        handle.truncate(size)
        handle.seek(size - 1000)
        handle.write(b"}\n{" * 333)
    return path


def odd_transcript_paths(folder: Path) -> list[Any]:
    """Return odd transcript paths: a folder, a missing file, 60 MB of garbage, a FIFO ..."""
    long_line = folder / "long-line.jsonl"
    row = {
        "type": "user",
        "sessionId": "s",
        "message": {"role": "user", "content": "x" * (5 * 1024 * 1024)},
    }
    long_line.write_text(
        json.dumps(row) + "\n" + json.dumps({**row, "message": {"content": "short"}}) + "\n"
    )
    fifo = folder / "fifo.jsonl"
    os.mkfifo(fifo)
    paths = [
        folder,
        folder / "missing.jsonl",
        sparse_garbage(folder / "garbage.jsonl", 60 * 1024 * 1024),
    ]
    return [
        *map(str, [*paths, long_line, fifo, "/dev/zero"]),
        ["not", "a", "path"],
        "\x00/nul/byte",
        42,
    ]


def test_odd_transcript_paths_keep_the_session_end_process_contract(
    memory_home: Path, tmp_path: Path
) -> None:
    cases = [
        (
            "SessionEnd",
            json.dumps({"session_id": "s", "cwd": str(tmp_path), "transcript_path": path}).encode(),
        )
        for path in odd_transcript_paths(tmp_path)
    ]
    assert broken_contracts(hook_processes(cases)) == []
    wait_for_workers(memory_home)
    assert stores_still_usable(memory_home)


def test_bad_and_huge_stdin_keep_the_process_contract_for_every_registered_event(
    memory_home: Path,
) -> None:
    command = "echo " + "y" * (2 * 1024 * 1024)
    huge = {
        "session_id": "s",
        "cwd": "/src/shop",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "prompt": command,
        "error": "Exit code 1\n" + command,
    }
    stdins = [
        b"\x00\xff\xfe garbage",
        b'{"tool_name": "Bash", "tool_input": ',
        json.dumps(huge).encode(),
    ]
    cases = [(event, stdin) for event in REGISTERED for stdin in stdins]
    cases += [("NoSuchEvent", b"{}"), ("", b"[" * 100_000)]
    assert broken_contracts(hook_processes(cases)) == []
    wait_for_workers(memory_home)
    assert stores_still_usable(memory_home)
