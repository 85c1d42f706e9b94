"""A store that cannot be used stops the CLI with one clear line and never stops the hooks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, cast

import pytest
from freezegun import freeze_time
from workers import wait_for_workers

from artibot_memory.api import doctor
from artibot_memory.api.memories import list_memories
from artibot_memory.cli.app import main
from artibot_memory.lifecycle import ingest
from artibot_memory.plugin.bootstrap import DATA_ENV, RELAYED_ENV
from artibot_memory.store.table import STORES

ROOT = Path(__file__).resolve().parent.parent
HOOKS_JSON = ROOT / "hooks" / "hooks.json"
CORRUPTIONS = [
    pytest.param(
        b'{"schema_version": 1, "entries": [{"id": "cmd-1", "ty', "not valid JSON", id="truncated"
    ),
    pytest.param(b"\x89PNG\r\n\x1a\n\x00\xff garbage", "not valid JSON", id="garbage"),
    pytest.param(b'{"schema_version": 1, "items": []}', "is not a store", id="wrong-shape"),
    pytest.param(b"", "is empty", id="zero-bytes"),
    pytest.param(b'{"schema_version": 2, "entries": []}', "newer than", id="newer-schema"),
]
STORE_FILES = [pytest.param(spec.type.value, id=spec.type.value) for spec in STORES]
SESSION = "0c0ffee0-0000-4000-8000-000000000001"


def verbs_touching(memory_type: str, import_file: Path) -> dict[str, list[str]]:
    """Every verb that reads or writes the store of ``memory_type``."""
    return {
        "list": ["list"],
        "list-type": ["list", "--type", memory_type],
        "search": ["search", "pnpm test"],
        "save": ["save", memory_type, "a new thing to remember"],
        "import": ["import", str(import_file)],
        "prune": ["prune", "--yes"],
        "prune-dry-run": ["prune", "--dry-run"],
        "stats": ["stats"],
        "context": ["context", "--project", "shop"],
        "export": ["export"],
    }


def corrupt_store(home: Path, memory_type: str, content: bytes) -> Path:
    home.mkdir(mode=0o700, exist_ok=True)
    path = home / next(s.filename for s in STORES if s.type.value == memory_type)
    path.write_bytes(content)
    return path


def is_one_clear_line(err: str, path: Path) -> bool:
    lines = err.splitlines()
    advice = ("artibot-memory doctor", "upgrade artibot-memory")
    return (
        len(lines) == 1
        and str(path) in lines[0]
        and any(word in lines[0] for word in advice)
        and "Traceback" not in err
    )


@pytest.mark.parametrize("memory_type", STORE_FILES)
@pytest.mark.parametrize("corruption", [pytest.param(p.values, id=p.id) for p in CORRUPTIONS])
def test_every_verb_touching_a_broken_store_fails_with_one_line_and_leaves_it_alone(
    memory_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    memory_type: str,
    corruption: tuple[bytes, str],
) -> None:
    content, problem = corruption
    path = corrupt_store(memory_home, memory_type, content)
    import_file = tmp_path / "in.jsonl"
    import_file.write_text(json.dumps({"type": memory_type, "text": "imported thing"}) + "\n")
    failures = {}
    for name, argv in verbs_touching(memory_type, import_file).items():
        code = main(argv)
        out, err = capsys.readouterr()
        if not (code == 1 and out == "" and is_one_clear_line(err, path) and problem in err):
            failures[name] = (code, out, err)
    assert failures == {}
    assert path.read_bytes() == content
    assert not [p.name for p in memory_home.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(("content", "problem"), CORRUPTIONS)
def test_after_repair_the_original_bytes_are_kept_in_the_timestamped_file(
    memory_home: Path, capsys: pytest.CaptureFixture[str], content: bytes, problem: str
) -> None:
    path = corrupt_store(memory_home, "error", content)
    main(["doctor", "--repair"])
    capsys.readouterr()
    if problem == "newer than":
        assert path.read_bytes() == content
        return
    [aside] = memory_home.glob("error-patterns.json.corrupt-*")
    assert aside.read_bytes() == content
    assert main(["list"]) == 0


def test_the_real_command_prints_one_line_and_no_traceback(tmp_path: Path) -> None:
    homes = [tmp_path / f"home-{p.id}" for p in CORRUPTIONS]
    paths = [
        corrupt_store(home, "preference", cast("bytes", p.values[0]))
        for home, p in zip(homes, CORRUPTIONS, strict=True)
    ]
    running = [
        subprocess.Popen(  # noqa: S603 - our own entry script
            [sys.executable, str(ROOT / "bin" / "artibot-memory"), "list"],
            env={**os.environ, "ARTIBOT_MEMORY_HOME": str(home)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for home in homes
    ]
    for process, path, param in zip(running, paths, CORRUPTIONS, strict=True):
        out, err = process.communicate(timeout=120)
        assert (param.id, process.returncode, out) == (param.id, 1, "")
        assert is_one_clear_line(err, path)
        assert isinstance(param.values[1], str)  # for mypy: the table's second value is the problem
        assert param.values[1] in err


def hook_argv(event: str) -> list[str]:
    """The command hooks/hooks.json registers for ``event``, run by this interpreter."""
    [group] = json.loads(HOOKS_JSON.read_text())["hooks"][event]
    [hook] = group["hooks"]
    args = [a.replace("${CLAUDE_PLUGIN_ROOT}", str(ROOT)) for a in hook["args"]]
    return [sys.executable, *args]


def hook_env() -> dict[str, str]:
    """This environment without the plugin-data variables, as in tests/test_entry.py."""
    return {k: v for k, v in os.environ.items() if k not in (DATA_ENV, RELAYED_ENV)}


def run_hook_process(event: str, payload: dict[str, Any]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(  # noqa: S603 - our own entry script
        hook_argv(event),
        env=hook_env(),
        input=json.dumps(payload).encode(),
        capture_output=True,
        check=False,
        timeout=60,
    )


def run_hooks_at_once(
    events: list[tuple[str, dict[str, Any]]],
) -> dict[str, subprocess.CompletedProcess[bytes]]:
    """Run one hook process per (event, payload) concurrently, as Claude Code may."""
    running = {
        event: subprocess.Popen(  # noqa: S603 - our own entry script
            hook_argv(event),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=hook_env(),
        )
        for event, _ in events
    }
    done = {}
    for event, payload in events:
        out, err = running[event].communicate(json.dumps(payload).encode(), timeout=120)
        done[event] = subprocess.CompletedProcess(event, running[event].returncode, out, err)
    return done


def is_hook_contract(done: subprocess.CompletedProcess[bytes]) -> bool:
    if done.returncode != 0 or done.stderr:
        return False
    if not done.stdout.strip():
        return True
    return isinstance(json.loads(done.stdout), dict) and done.stdout.count(b"\n") == 1


def transcript(tmp_path: Path) -> Path:
    path = tmp_path / f"{SESSION}.jsonl"
    row = {
        "type": "user",
        "sessionId": SESSION,
        "cwd": str(tmp_path),
        "uuid": "u1",
        "timestamp": "2026-01-01T10:00:00.000Z",
        "message": {"role": "user", "content": "Add a checkout page"},
    }
    path.write_text(json.dumps(row) + "\n")
    return path


def hook_payloads(tmp_path: Path) -> list[tuple[str, dict[str, Any]]]:
    base = {
        "session_id": SESSION,
        "cwd": str(tmp_path),
        "transcript_path": str(transcript(tmp_path)),
    }
    bash = {
        "tool_name": "Bash",
        "tool_use_id": "toolu_1",
        "tool_input": {"command": "pnpm test --run"},
    }
    return [
        ("PostToolUse", {**base, **bash, "tool_response": {"stdout": "ok", "stderr": ""}}),
        ("PostToolUseFailure", {**base, **bash, "error": "Exit code 1\nFAIL src/a.test.ts"}),
        ("SessionStart", {**base, "source": "startup"}),
        ("UserPromptSubmit", {**base, "prompt": "Remember that we deploy with fly.io"}),
        ("SessionEnd", {**base, "reason": "other"}),
    ]


def journal_records(home: Path) -> list[dict[str, Any]]:
    """Every record waiting in the journal or in takes kept by failed ingests."""
    files = [home / "journal.jsonl", *home.glob("journal.*.ingesting")]
    lines = [line for f in files if f.exists() for line in f.read_text().splitlines()]
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize(("content", "problem"), CORRUPTIONS)
def test_hooks_exit_0_silently_keep_capturing_and_log_the_failure(
    memory_home: Path, tmp_path: Path, content: bytes, problem: str
) -> None:
    paths = [corrupt_store(memory_home, spec.type.value, content) for spec in STORES]
    done = run_hooks_at_once(hook_payloads(tmp_path))
    broken = {
        event: (d.returncode, d.stdout, d.stderr)
        for event, d in done.items()
        if not is_hook_contract(d)
    }
    assert broken == {}
    wait_for_workers(memory_home)
    records = journal_records(memory_home)
    assert [r.get("command") for r in records].count("pnpm test --run") == 2
    # Kept for the ingest that can store them: the session end, and the start (whose worker
    # renders its project's cache again once the stores are written).
    assert sorted(r["event"] for r in records if r.get("deferred")) == [
        "SessionEnd",
        "SessionStart",
    ]
    log = (memory_home / "logs" / "hooks.log").read_text()
    for event in ("SessionStart", "UserPromptSubmit"):
        assert f"{event}: " in log
    assert problem in log
    assert [p.read_bytes() for p in paths] == [content] * len(paths)


def test_a_failing_session_end_worker_is_logged(memory_home: Path, tmp_path: Path) -> None:
    corrupt_store(memory_home, "context", b"{")
    assert is_hook_contract(run_hook_process(*hook_payloads(tmp_path)[-1]))
    wait_for_workers(memory_home)
    log = memory_home / "logs" / "hooks.log"
    assert "CorruptStoreError" in (log.read_text() if log.exists() else "")


def ingest_after_the_retry_delay() -> None:
    """Ingest as SessionStart would two minutes later, when a failed ingest's take is retried."""
    later = datetime.now(timezone.utc) + timedelta(minutes=2)
    with freeze_time(later):
        ingest()


def test_captured_commands_survive_a_broken_store_and_arrive_after_repair(
    memory_home: Path, tmp_path: Path
) -> None:
    corrupt_store(memory_home, "command", b"{")
    payloads = dict(hook_payloads(tmp_path))
    assert is_hook_contract(run_hook_process("PostToolUse", payloads["PostToolUse"]))
    assert is_hook_contract(run_hook_process("SessionStart", payloads["SessionStart"]))
    wait_for_workers(memory_home)  # SessionStart's worker tried the ingest, and kept its take
    assert list(memory_home.glob("journal.*.ingesting"))
    assert doctor.repair()
    ingest_after_the_retry_delay()
    assert [m.text for m in list_memories("command")] == ["pnpm test --run"]
    assert not list(memory_home.glob("journal*"))


def test_a_partly_failed_ingest_does_not_count_a_command_twice(
    memory_home: Path, tmp_path: Path
) -> None:
    corrupt_store(memory_home, "error", b"{")
    payloads = hook_payloads(tmp_path)
    for event, payload in payloads[:3]:
        assert is_hook_contract(run_hook_process(event, payload))
    doctor.repair()
    ingest_after_the_retry_delay()
    [command] = list_memories("command")
    assert (command.count, command.failures) == (2, 1)  # the success and the failure, once each
