"""The memory home is the owner's alone, and nothing is written outside it.

Modes are checked under two umasks: the usual 022, and 000, where a writer that relies
on the umask (``open()``, ``Path.write_text``, ``mkdir()``) would leave files readable by
everyone. Hooks run as real processes, so the umask they inherit is tested too.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from workers import wait_for_workers

from artibot_memory.api import doctor, memories
from artibot_memory.capture import hooklog, journal
from artibot_memory.cli.app import main
from artibot_memory.core.errors import UnsafeStoreError
from artibot_memory.core.paths import HOME_ENV
from artibot_memory.lifecycle import handle, ingest
from artibot_memory.plugin import entry, fast
from artibot_memory.store.table import STORES, spec_for

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "bin" / "artibot-memory"
CWD = "/src/shop"
OUTSIDE_CONTENT = b'{"schema_version": 1, "entries": []}'


@pytest.fixture(params=[0o022, 0o000], ids=["umask-022", "umask-000"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    yield request.param
    os.umask(old)


def hook_process(event: str, payload: dict[str, Any]) -> subprocess.CompletedProcess[bytes]:
    """Run ``bin/artibot-memory hook EVENT`` as Claude Code does (``-S`` for the fast events)."""
    flags = ["-S"] if event in fast.FAST_EVENTS else []
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CLAUDE_PLUGIN_DATA", "ARTIBOT_MEMORY_RELAYED")
    }
    done = subprocess.run(  # noqa: S603 - our own entry script
        [sys.executable, *flags, str(ENTRY), "hook", event],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    return done


def bash_payload(command: str, error: str | None = None) -> dict[str, Any]:
    payload = {
        "session_id": "s1",
        "cwd": CWD,
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    if error is None:
        return {**payload, "tool_response": {"stdout": "ok", "stderr": ""}}
    return {**payload, "error": error}


def transcript(folder: Path) -> Path:
    path = folder / "s1.jsonl"
    row = {
        "type": "user",
        "sessionId": "s1",
        "cwd": CWD,
        "uuid": "u1",
        "timestamp": "2026-01-01T10:00:00Z",
        "message": {"role": "user", "content": "Add a checkout page"},
    }
    path.write_text(json.dumps(row) + "\n")
    return path


def exercise_every_writer(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Write through every path that writes: hooks (as processes first), CLI, logs, rotation."""
    hook_process("PostToolUse", bash_payload("pnpm test"))
    hook_process("PostToolUseFailure", bash_payload("pnpm lint", "Exit code 1\nESLint: 3 problems"))
    hook_process("SessionStart", {"session_id": "s1", "cwd": CWD, "source": "startup"})
    hook_process(
        "UserPromptSubmit", {"session_id": "s1", "cwd": CWD, "prompt": "Remember that we use pnpm"}
    )
    session = {"session_id": "s1", "cwd": CWD, "transcript_path": str(transcript(folder))}
    hook_process("SessionEnd", session)  # its detached worker ingests and stores the summary
    wait_for_workers(Path(os.environ[HOME_ENV]))
    handle("SessionEnd", session)
    for spec in STORES:
        assert main(["save", spec.type.value, f"first {spec.type.value}"]) == 0
        assert main(["save", spec.type.value, f"second {spec.type.value}"]) == 0
    (folder / "in.jsonl").write_text(
        json.dumps({"type": "context", "text": "imported fact"}) + "\n"
    )
    assert main(["import", str(folder / "in.jsonl")]) == 0
    assert main(["search", "pnpm"]) == 0
    assert main(["prune", "--yes"]) == 0
    assert main(["forget", memories.list_memories("context")[0].id]) == 0
    hook_process("PostToolUse", bash_payload("pnpm build"))
    assert journal.drain()  # not finished: the take stays, as after a failed ingest
    hook_process("PostToolUse", bash_payload("pnpm dev"))
    monkeypatch.setattr(hooklog, "LOG_MAX_BYTES", 10)
    monkeypatch.setattr(fast, "handle", lambda *_: 1 / 0)
    for _ in range(2):
        assert entry.run_hook("PostToolUse", b"{}") == 0


def modes_not_private(home: Path) -> list[tuple[str, str]]:
    """Every folder that is not 0700 and every file that is not 0600, under ``home``."""
    found = []
    for path in [home, *home.rglob("*")]:
        mode = path.lstat().st_mode
        wanted = 0o700 if stat.S_ISDIR(mode) else 0o600
        if not stat.S_ISLNK(mode) and stat.S_IMODE(mode) != wanted:
            found.append((str(path.relative_to(home)), oct(stat.S_IMODE(mode))))
    return found


@pytest.mark.usefixtures("umask")
def test_every_file_any_writer_creates_is_owner_only(
    memory_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    exercise_every_writer(tmp_path, monkeypatch)
    capsys.readouterr()
    names = {p.name for p in memory_home.rglob("*")}
    assert {
        "journal.jsonl",
        "backups",
        "hooks.log",
        "hooks.log.1",
        "user-preferences.json.lock",
    } <= names
    assert {spec.filename for spec in STORES} <= names
    assert any(name.endswith(".ingesting") for name in names)
    assert modes_not_private(memory_home) == []


@pytest.mark.usefixtures("umask")
def test_the_copies_doctor_moves_aside_are_owner_only(memory_home: Path) -> None:
    memory_home.mkdir(mode=0o700)
    for spec in STORES:
        (memory_home / spec.filename).write_bytes(b"{ not json")
        (memory_home / spec.filename).chmod(0o644)
    doctor.repair()
    copies = list(memory_home.glob("*.corrupt-*"))
    assert len(copies) == len(STORES)
    assert modes_not_private(memory_home) == []


# ---- symlinks leading out of the memory home


def link_out(home: Path, name: str, folder: Path) -> Path:
    """Make ``home/name`` a symlink to a file in ``folder``; return the target."""
    home.mkdir(mode=0o700, exist_ok=True)
    target = folder / f"outside-{name.replace('/', '-')}"
    target.write_bytes(OUTSIDE_CONTENT)
    (home / name).symlink_to(target)
    return target


def untouched(target: Path) -> bool:
    """The target still holds what it held, and nothing new appeared beside it."""
    beside = sorted(p.name for p in target.parent.iterdir() if p.name.startswith("outside-"))
    return target.read_bytes() == OUTSIDE_CONTENT and all(
        name.startswith("outside-") for name in beside
    )


@pytest.mark.parametrize(
    "memory_type", [pytest.param(s.type.value, id=s.type.value) for s in STORES]
)
def test_save_refuses_a_store_symlinked_out_of_the_home(
    memory_home: Path, tmp_path: Path, memory_type: str
) -> None:
    target = link_out(memory_home, spec_for(memory_type).filename, tmp_path)
    with pytest.raises(UnsafeStoreError, match="symlink leading out of the memory home"):
        memories.save(memory_type, "anything at all")
    assert untouched(target)
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize(
    ("store", "events"),
    [
        pytest.param(
            "user-preferences.json",
            [("UserPromptSubmit", {"prompt": "Remember that we use pnpm"})],
            id="prompt",
        ),
        pytest.param(
            "command-history.json",
            [("PostToolUse", bash_payload("pnpm test")), ("SessionStart", {"source": "startup"})],
            id="ingest-commands",
        ),
        pytest.param(
            "error-patterns.json",
            [
                ("PostToolUseFailure", bash_payload("pnpm lint", "Exit code 1\nTypeError: x")),
                ("SessionStart", {"source": "startup"}),
            ],
            id="ingest-errors",
        ),
    ],
)
def test_hooks_refuse_a_store_symlinked_out_of_the_home(
    memory_home: Path, tmp_path: Path, store: str, events: list[tuple[str, dict[str, Any]]]
) -> None:
    target = link_out(memory_home, store, tmp_path)
    base = {"session_id": "s1", "cwd": CWD, "transcript_path": str(transcript(tmp_path))}
    for event, payload in events:
        hook_process(event, {**base, **payload})
    wait_for_workers(memory_home)  # SessionStart's worker ingests and prunes
    assert untouched(target)
    assert "UnsafeStoreError" in (memory_home / "logs" / "hooks.log").read_text()


def test_the_session_end_worker_refuses_a_store_symlinked_out_of_the_home(
    memory_home: Path, tmp_path: Path
) -> None:
    target = link_out(memory_home, "project-contexts.json", tmp_path)
    session = {"session_id": "s1", "cwd": CWD, "transcript_path": str(transcript(tmp_path))}
    hook_process("SessionEnd", {**session, "reason": "other"})
    wait_for_workers(memory_home)
    assert untouched(target)
    kept = [p.read_text() for p in memory_home.glob("journal*")]
    assert any('"SessionEnd"' in text for text in kept)


def test_the_fast_hook_refuses_a_journal_symlinked_out_of_the_home(
    memory_home: Path, tmp_path: Path
) -> None:
    target = link_out(memory_home, "journal.jsonl", tmp_path)
    hook_process("PostToolUse", bash_payload("pnpm test"))
    assert untouched(target)
    assert "Too many levels of symbolic links" in (memory_home / "logs" / "hooks.log").read_text()


def test_backups_are_never_written_through_a_symlink_out_of_the_home(
    memory_home: Path, tmp_path: Path
) -> None:
    memories.save("preference", "first")
    outside = tmp_path / "outside-backups"
    outside.mkdir()
    (memory_home / "backups").symlink_to(outside)
    memories.save("preference", "second")
    assert list(outside.iterdir()) == []


def test_the_hook_log_is_never_written_through_a_logs_symlink_out_of_the_home(
    memory_home: Path, tmp_path: Path
) -> None:
    target = link_out(memory_home, "logs", tmp_path)
    target.unlink()
    target.mkdir()
    hooklog.write_log("a failure")
    assert list(target.iterdir()) == []


def test_the_hook_log_is_never_appended_through_a_hooks_log_symlink(
    memory_home: Path, tmp_path: Path
) -> None:
    (memory_home / "logs").mkdir(parents=True, mode=0o700)
    target = link_out(memory_home, "logs/hooks.log", tmp_path)
    hooklog.write_log("a failure")
    assert untouched(target)


def test_a_journal_symlink_never_feeds_an_outside_file_into_the_stores(
    memory_home: Path, tmp_path: Path
) -> None:
    target = link_out(memory_home, "journal.jsonl", tmp_path)
    record = {
        "v": 1,
        "event": "PostToolUse",
        "session_id": "s",
        "tool_name": "Bash",
        "command": "cat outside",
    }
    target.write_text(json.dumps(record) + "\n")
    ingest()
    assert memories.list_memories("command") == []
