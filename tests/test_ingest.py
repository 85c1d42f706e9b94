from __future__ import annotations

from typing import Any

from artibot_memory.api import memories
from artibot_memory.api.ingest import apply_records
from artibot_memory.store.model import State
from artibot_memory.text.shell import same_attempt

CWD = "/src/shop"


def bash_ok(command: str, at: str, session: str = "s1") -> dict[str, Any]:
    return {
        "event": "PostToolUse",
        "at": at,
        "session_id": session,
        "cwd": CWD,
        "tool_name": "Bash",
        "command": command,
    }


def bash_failed(command: str, error: str, at: str, session: str = "s1") -> dict[str, Any]:
    return {
        "event": "PostToolUseFailure",
        "at": at,
        "session_id": session,
        "cwd": CWD,
        "tool_name": "Bash",
        "command": command,
        "error": f"Exit code 1\n{error}",
    }


def edited(path: str, at: str, session: str = "s1") -> dict[str, Any]:
    return {
        "event": "PostToolUse",
        "at": at,
        "session_id": session,
        "cwd": CWD,
        "tool_name": "Edit",
        "file_path": path,
    }


MISSING = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'requests'"


def test_a_failure_then_its_fix_in_the_same_session_becomes_a_resolved_error() -> None:
    apply_records(
        [
            bash_failed("python app.py", MISSING, "2026-01-01T10:00:00"),
            bash_ok("pip install requests", "2026-01-01T10:01:00"),
            edited("/src/shop/settings.py", "2026-01-01T10:02:00"),
            bash_ok("python app.py", "2026-01-01T10:03:00"),
        ]
    )
    [error] = memories.list_memories("error")
    assert error.state is State.RESOLVED
    assert error.resolution == (  # paths inside the project are shown from its root
        "ran `pip install requests`; edited settings.py; then `python app.py` succeeded"
    )
    assert error.project == CWD
    assert "ModuleNotFoundError" in error.text
    fix = error.details["fix"]
    assert (fix["method"], fix["confidence"], fix["session_id"]) == ("same-command", 0.9, "s1")
    assert fix["at"] == "2026-01-01T10:03:00"
    assert (fix["fixed_by"], fix["commands"], fix["edits"]) == (
        "python app.py",
        ["pip install requests"],
        ["settings.py"],
    )
    assert error.confidence == 0.9


def test_commands_are_counted_per_project() -> None:
    apply_records([bash_ok("pytest -q", f"2026-01-01T10:0{i}:00") for i in range(3)])
    [command] = memories.list_memories("command")
    assert (command.text, command.count, command.project) == ("pytest -q", 3, CWD)


def test_a_failure_without_a_later_success_stays_open() -> None:
    apply_records([bash_failed("make deploy", "permission denied", "2026-01-01T10:00:00")])
    [error] = memories.list_memories("error")
    assert (error.state, error.resolution) == (State.ACTIVE, None)


def test_a_success_in_another_session_does_not_close_the_error() -> None:
    apply_records(
        [
            bash_failed("make deploy", "permission denied", "2026-01-01T10:00:00", session="a"),
            bash_ok("make deploy", "2026-01-01T10:05:00", session="b"),
        ]
    )
    [error] = memories.list_memories("error")
    assert error.resolution is None


def test_a_success_in_a_later_batch_closes_the_stored_error() -> None:
    apply_records([bash_failed("npm test", "npm ERR! missing script: test", "2026-01-01T10:00:00")])
    apply_records([bash_ok("npm test", "2026-01-01T10:05:00")])
    [error] = memories.list_memories("error")
    assert error.state is State.RESOLVED
    assert "npm test" in (error.resolution or "")


def test_the_same_error_twice_is_one_pattern_seen_twice() -> None:
    apply_records(
        [
            bash_failed("python app.py", MISSING.replace("app", "x"), "2026-01-01T10:00:00"),
            bash_failed("python other.py", MISSING, "2026-01-01T11:00:00"),
        ]
    )
    [error] = memories.list_memories("error")
    assert error.count == 2


def test_retries_of_the_same_program_on_the_same_target_pair_up() -> None:
    assert same_attempt("pytest tests/test_a.py -x", "pytest tests/test_a.py -q")
    assert not same_attempt("pytest tests/test_a.py", "pytest tests/test_b.py")


def test_a_replayed_journal_batch_counts_each_command_once() -> None:
    batch = [
        dict(bash_ok("pytest -q", f"2026-01-01T10:0{i}:00"), tool_use_id=f"toolu_{i}")
        for i in range(3)
    ]
    apply_records(batch)
    apply_records(batch)  # a crashed ingest's take, applied again
    [command] = memories.list_memories("command")
    assert command.count == 3
