"""Behaviour of artibot_memory.capture.transcript: real transcripts, then synthetic edge cases."""

from __future__ import annotations

import json
import os
import sys
import types
from collections import Counter
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artibot_memory.capture.pairing import SAME_COMMAND, UNRESOLVED, Fix
from artibot_memory.capture.summary import render_summary
from artibot_memory.capture.transcript import (
    FailedCommand,
    SessionDigest,
    TestRun,
    read_transcript,
)
from artibot_memory.text.signature import error_signature

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
COMPACTED = FIXTURES / "bf94da03-d611-4290-9869-acf21951c67b.jsonl"
REFUSED = FIXTURES / "e477f1b0-f365-47e2-bcc6-fa5e12ac41b2.jsonl"
HELLO = FIXTURES / "ba1b0fe1-1819-4a4d-b995-e79e9936c3ca.jsonl"


# --- row builders for synthetic transcripts -------------------------------------------------

_clock = iter(range(10_000))


def _stamp(seconds: int | None = None) -> str:
    at = next(_clock) if seconds is None else seconds
    return (
        datetime.fromtimestamp(1_770_000_000 + at, timezone.utc).isoformat().replace("+00:00", "Z")
    )


def prompt(content: Any, **flags: Any) -> dict[str, Any]:
    return {
        "type": "user",
        "message": {"role": "user", "content": content},
        "sessionId": "s-1",
        "cwd": "/home/dev/app",
        "gitBranch": "main",
        "timestamp": _stamp(),
        **flags,
    }


def call(
    tool_id: str, name: str, given: dict[str, Any], message_id: str = "msg_1"
) -> dict[str, Any]:
    block = {"type": "tool_use", "id": tool_id, "name": name, "input": given}
    return {
        "type": "assistant",
        "timestamp": _stamp(),
        "message": {
            "id": message_id,
            "model": "claude-test-1",
            "role": "assistant",
            "content": [block],
        },
    }


def result(tool_id: str, content: Any, *, error: bool = False, extra: Any = None) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": tool_id, "content": content, "is_error": error}
    row = prompt([block])
    if extra is not None:
        row["toolUseResult"] = extra
    return row


def bash(
    tool_id: str, command: str, output: str = "", *, error: bool = False
) -> list[dict[str, Any]]:
    return [call(tool_id, "Bash", {"command": command}), result(tool_id, output, error=error)]


def write(tmp_path: Path, rows: list[Any], name: str = "session.jsonl") -> Path:
    path = tmp_path / name
    lines = [row if isinstance(row, (str, bytes)) else json.dumps(row) for row in rows]
    path.write_bytes(b"\n".join(x if isinstance(x, bytes) else x.encode() for x in lines) + b"\n")
    return path


def digest_of(tmp_path: Path, rows: list[Any], **options: Any) -> SessionDigest:
    return read_transcript(write(tmp_path, rows), **options)


# --- real transcripts -----------------------------------------------------------------------


def test_short_spotter_session_has_one_prompt_two_refusals_and_a_slash_command() -> None:
    d = read_transcript(FIXTURES / "short.jsonl")
    assert d.readable
    assert d.session_id == "55604662-cf2a-4331-851a-ec234028f8ca"
    assert (d.cwd, d.git_branch, d.version) == ("/home/marco/projects/spotter", "master", "2.1.38")
    assert d.prompts == ("mix phx.server doesnt seem to start",)  # not "[Request interrupted…]"
    assert d.commands == Counter()  # its one command was refused, so never run
    assert d.tool_counts == Counter({"Bash": 1, "Glob": 1})
    assert d.denied == 2
    assert d.errors == ()  # the user refused both calls: nothing failed
    assert d.slash_commands == Counter({"/model": 1})
    assert d.models == ("claude-opus-4-6",)
    assert (d.lines, d.skipped_lines, d.truncated) == (15, 0, False)


def test_short_spotter_session_times_come_from_its_rows() -> None:
    d = read_transcript(FIXTURES / "short.jsonl")
    assert d.started_at == datetime(2026, 2, 10, 21, 11, 52, 438000, tzinfo=timezone.utc)
    assert d.ended_at == datetime(2026, 2, 10, 21, 16, 12, 381000, tzinfo=timezone.utc)
    assert d.duration_seconds == pytest.approx(259.943)


def test_tool_heavy_session_counts_each_tool_call_once() -> None:
    d = read_transcript(FIXTURES / "tool_heavy.jsonl")
    assert d.tool_counts == Counter(
        {"Bash": 2, "WebSearch": 1, "Glob": 1, "Read": 1, "WebFetch": 1}
    )
    assert d.prompts == (
        "start phoenix in background",
        (
            "scrolling back in xterm.js still does not work (maybe because outer web catches it)? "
            "websearch xterm.js tmux interactions"
        ),
    )
    assert d.commands["mix phx.server"] == 1
    assert (d.files_created, d.files_edited, d.errors, d.tests) == ((), (), (), ())


def test_one_slash_command_logged_as_a_user_row_and_a_system_row_counts_once() -> None:
    d = read_transcript(FIXTURES / "tool_heavy.jsonl")
    assert d.slash_commands == Counter({"/mcp": 1})


def test_compacted_session_counts_the_boundary_and_ignores_the_summary_as_a_prompt() -> None:
    d = read_transcript(COMPACTED)
    assert d.compactions == 1
    assert d.prompts == ("Please run the test commands", "again")
    assert d.slash_commands == Counter({"/compact": 1})
    assert d.version == "2.1.332"
    assert d.models == ("claude-opus-5-5",)


def test_compacted_session_records_its_failed_command_as_unfixed() -> None:
    d = read_transcript(COMPACTED)
    unfixed = Fix(UNRESOLVED, at="2026-11-29T23:40:52.753Z")  # "All done." explains nothing
    assert d.errors == (
        FailedCommand(
            "echo partial-out; echo oops >&2; exit 3",
            "partial-out",
            fixed=False,
            exit_code=3,
            ref="toolu_dab432805efa40808db12f96",  # the id the failure hook journaled
            signature=error_signature("Exit code 3\npartial-out\noops"),
            fix=unfixed,
        ),
    )
    assert d.commands == Counter(
        {"echo hello-out; echo hello-err >&2": 1, "echo partial-out; echo oops >&2; exit 3": 1}
    )


def test_a_call_refused_by_the_permission_check_is_denied_not_failed() -> None:
    d = read_transcript(REFUSED)
    assert (d.denied, d.errors) == (1, ())
    assert d.commands == Counter({"echo hello-out; echo hello-err >&2": 1})
    assert d.prompts == ("hi",)


def test_2_1_332_rows_of_unknown_types_are_skipped_quietly() -> None:
    d = read_transcript(HELLO)
    assert d.commands == Counter({"echo hi": 1})
    assert (d.prompts, d.skipped_lines) == (("hi",), 0)


# --- paths that cannot be read ---------------------------------------------------------------


def test_missing_path_gives_an_unreadable_empty_digest(tmp_path: Path) -> None:
    d = read_transcript(tmp_path / "gone.jsonl")
    assert (d.readable, d.is_empty) == (False, True)


def test_directory_path_gives_an_unreadable_empty_digest(tmp_path: Path) -> None:
    assert read_transcript(tmp_path).readable is False


def test_no_path_at_all_gives_an_unreadable_empty_digest() -> None:
    assert read_transcript(None).readable is False
    assert read_transcript("").readable is False


def test_a_path_with_a_nul_byte_gives_an_unreadable_digest() -> None:
    assert read_transcript("bad\0path.jsonl").readable is False


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_not_opened_so_the_hook_cannot_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert read_transcript(fifo).readable is False


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission_gives_an_unreadable_digest(tmp_path: Path) -> None:
    path = write(tmp_path, [prompt("hello")])
    path.chmod(0)
    assert read_transcript(path).readable is False


def test_empty_file_is_readable_and_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    d = read_transcript(path)
    assert (d.readable, d.is_empty, d.lines) == (True, True, 0)


# --- malformed content -----------------------------------------------------------------------


def test_lines_that_are_not_json_objects_are_skipped_and_counted(tmp_path: Path) -> None:
    rows = [
        "not json",
        "[1, 2]",
        "42",
        '"text"',
        "{broken",
        b"\xff\xfe\x00",
        "null",
        "",
        prompt("real prompt"),
    ]
    d = digest_of(tmp_path, rows)
    assert d.prompts == ("real prompt",)
    assert (d.lines, d.skipped_lines) == (8, 7)  # the blank line is not a line of data


def test_rows_of_the_wrong_shape_never_break_the_digest(tmp_path: Path) -> None:
    rows = [
        {"type": "user", "message": ["not", "a", "dict"]},
        {"type": "user", "message": {"content": 42}},
        {"type": "assistant", "message": {"content": "plain text"}},
        {"type": "assistant", "message": {"content": [{"type": "tool_use", "name": "Bash"}]}},
        {
            "type": "assistant",
            "message": {
                "content": [{"type": "tool_use", "id": "t", "name": "Bash", "input": "ls"}]
            },
        },
        result("unknown-id", "orphan result", error=True),
        result("t", None, extra="a string toolUseResult"),
        {"type": "system", "subtype": "local_command", "content": None},
        {"type": "progress", "data": "not a dict"},
        {"type": "user", "timestamp": "yesterday", "message": {"content": "late prompt"}},
    ]
    d = digest_of(tmp_path, rows)
    assert d.prompts == ("late prompt",)
    assert d.tool_counts == Counter({"Bash": 1})
    assert d.skipped_lines == 0


def test_unknown_row_types_are_skipped(tmp_path: Path) -> None:
    rows = [
        {"type": "future-thing", "payload": {"x": 1}},
        {"type": "summary", "summary": "t"},
        {"no": "type"},
        prompt("hello"),
    ]
    d = digest_of(tmp_path, rows)
    assert (d.prompts, d.skipped_lines) == (("hello",), 0)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers()
            | st.text(max_size=20)
            | st.sampled_from(
                ["user", "assistant", "system", "tool_use", "tool_result", "Bash", "Write"]
            ),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(
                        [
                            "type",
                            "message",
                            "content",
                            "id",
                            "name",
                            "input",
                            "command",
                            "text",
                            "tool_use_id",
                            "is_error",
                            "subtype",
                            "toolUseResult",
                            "timestamp",
                            "isSidechain",
                            "data",
                            "file_path",
                        ]
                    ),
                    inner,
                    max_size=5,
                )
            ),
            max_leaves=12,
        ),
        max_size=8,
    )
)
def test_any_json_rows_give_a_digest_and_a_summary_without_raising(
    tmp_path: Path, rows: list[Any]
) -> None:
    d = digest_of(tmp_path, rows)
    assert d.readable
    assert isinstance(render_summary(d), str)


# --- prompts and slash commands ---------------------------------------------------------------


def test_prompts_exclude_tool_results_compaction_summaries_and_injected_blocks(
    tmp_path: Path,
) -> None:
    rows = [
        prompt("  \n  first line of the real prompt  \nsecond line"),
        *bash("t1", "ls", "a\nb"),
        prompt(
            "This session is being continued from a previous conversation…",
            isCompactSummary=True,
            isVisibleInTranscriptOnly=True,
        ),
        prompt("<system-reminder>be nice</system-reminder>"),
        prompt("<local-command-stdout>done</local-command-stdout>"),
        prompt("<local-command-caveat>Caveat: …</local-command-caveat>", isMeta=True),
        prompt("<task-notification><task-id>x</task-id></task-notification>"),
        prompt([{"type": "text", "text": "[Request interrupted by user]"}]),
        prompt([{"type": "image", "source": {}}, {"type": "text", "text": "list form prompt"}]),
        prompt("<div> is not centred"),  # typed markup is still a prompt
    ]
    d = digest_of(tmp_path, rows)
    assert d.prompts == (
        "first line of the real prompt second line",  # in words, on one line
        "list form prompt",
        "<div> is not centred",
    )


def test_a_typed_slash_command_is_counted_and_is_not_a_prompt(tmp_path: Path) -> None:
    typed = (
        "<command-name>/review</command-name>\n<command-message>review</command-message>\n"
        "<command-args>42</command-args>"
    )
    rows = [
        prompt(typed),
        prompt("<command-message>init</command-message>\n<command-name>/init</command-name>"),
        prompt(typed),
    ]
    d = digest_of(tmp_path, rows)
    assert d.slash_commands == Counter({"/review": 2, "/init": 1})
    assert d.prompts == ()


def test_a_slash_command_logged_only_as_a_system_row_is_counted(tmp_path: Path) -> None:
    row = {
        "type": "system",
        "subtype": "local_command",
        "content": "<command-name>/model</command-name>\n<command-args></command-args>",
    }
    assert digest_of(tmp_path, [row, dict(row)]).slash_commands == Counter({"/model": 2})


def test_a_command_typed_in_bash_mode_counts_as_a_command(tmp_path: Path) -> None:
    d = digest_of(tmp_path, [prompt("<bash-input>git status</bash-input>")])
    assert (d.commands, d.prompts) == (Counter({"git status": 1}), ())


# --- tool calls, files, commands ---------------------------------------------------------------


def test_assistant_rows_sharing_a_message_id_count_each_tool_call_once(tmp_path: Path) -> None:
    use = call("t1", "Bash", {"command": "make build"})
    rows = [call("t0", "Read", {"file_path": "/a"}), use, dict(use), result("t1", "ok")]
    d = digest_of(tmp_path, rows)
    assert d.tool_counts == Counter({"Read": 1, "Bash": 1})
    assert d.commands == Counter({"make build": 1})
    assert d.models == ("claude-test-1",)


def test_commands_are_counted_by_their_first_line(tmp_path: Path) -> None:
    rows = [
        *bash("t1", "git commit -m \"$(cat <<'EOF'\nmessage\nEOF\n)\""),
        *bash("t2", "git commit -m \"$(cat <<'EOF'\nother\nEOF\n)\""),
        *bash("t3", "  ls -la  "),
    ]
    d = digest_of(tmp_path, rows)
    assert d.commands == Counter({"git commit -m \"$(cat <<'EOF'": 2, "ls -la": 1})


def test_write_after_read_or_edit_is_an_edit_and_a_fresh_write_is_a_creation(
    tmp_path: Path,
) -> None:
    rows = [
        call("r1", "Read", {"file_path": "/p/old.py"}),
        result("r1", "1 x"),
        call("w1", "Write", {"file_path": "/p/old.py", "content": "y"}),
        result("w1", "ok"),
        call("w2", "Write", {"file_path": "/p/new.py", "content": "z"}),
        result("w2", "ok"),
        call("e1", "Edit", {"file_path": "/p/new.py"}),
        result("e1", "ok"),
        call("e2", "MultiEdit", {"file_path": "/p/cfg.toml"}),
        result("e2", "ok"),
        call("w3", "Write", {"file_path": "/p/cfg.toml"}),
        result("w3", "ok"),
        call("n1", "NotebookEdit", {"notebook_path": "/p/nb.ipynb"}),
        result("n1", "ok"),
    ]
    d = digest_of(tmp_path, rows)
    assert d.files_created == ("/p/new.py",)  # its later Edit does not make it "edited"
    assert d.files_edited == ("/p/old.py", "/p/cfg.toml", "/p/nb.ipynb")


def test_the_write_result_type_overrides_the_read_heuristic(tmp_path: Path) -> None:
    rows = [
        call("w1", "Write", {"file_path": "/p/existing.py"}),
        result("w1", "The file has been updated.", extra={"type": "update"}),
    ]
    assert digest_of(tmp_path, rows).files_edited == ("/p/existing.py",)


def test_a_failed_or_refused_edit_changes_no_file(tmp_path: Path) -> None:
    rows = [
        call("e1", "Edit", {"file_path": "/p/a.py"}),
        result("e1", "String not found", error=True),
        call("e2", "Edit", {"file_path": "/p/b.py"}),
        result("e2", "The user doesn't want to proceed with this tool use.", error=True),
    ]
    d = digest_of(tmp_path, rows)
    assert (d.files_edited, d.denied) == ((), 1)


def test_a_write_whose_result_never_came_still_counts(tmp_path: Path) -> None:
    rows = [call("w1", "Write", {"file_path": "/p/last.py"})]
    assert digest_of(tmp_path, rows).files_created == ("/p/last.py",)


# --- errors and their fixes --------------------------------------------------------------------


def test_a_failed_command_is_fixed_when_the_same_command_later_succeeds(tmp_path: Path) -> None:
    rows = [
        *bash("t1", "npm run build", "Exit code 2\n\nsrc/a.ts(3,1): error TS1005", error=True),
        call("e1", "Edit", {"file_path": "/home/dev/app/src/a.ts"}),
        result("e1", "ok"),
        *bash("t2", "npm install"),
        *bash("t3", "npm run build", "built"),
    ]
    (failed,) = digest_of(tmp_path, rows).errors
    assert replace(failed, fix=Fix()) == FailedCommand(
        "npm run build",
        "src/a.ts(3,1): error TS1005",
        fixed=True,
        exit_code=2,
        fixed_by="npm run build",
        fix_commands=("npm install",),
        fix_files=("/home/dev/app/src/a.ts",),
        ref="t1",
        signature=error_signature("Exit code 2\n\nsrc/a.ts(3,1): error TS1005"),
    )
    assert (failed.fix.method, failed.fix.fixed_by) == (SAME_COMMAND, "npm run build")
    assert failed.fix.describe("/home/dev/app") == (
        "edited src/a.ts; ran `npm install`; then `npm run build` succeeded"
    )


def test_a_failed_command_is_fixed_by_the_same_program_on_the_same_target(tmp_path: Path) -> None:
    rows = [
        *bash(
            "t1", "cd app && git add src/x.py dist/y.js", "Exit code 1\nignored path", error=True
        ),
        *bash("t2", "git add src/x.py"),
    ]
    assert digest_of(tmp_path, rows).errors[0].fixed_by == "git add src/x.py"


def test_a_push_without_upstream_is_fixed_by_a_push_that_sets_it(tmp_path: Path) -> None:
    rows = [
        *bash("t1", "git push 2>&1", "Exit code 128\nfatal: no upstream branch", error=True),
        *bash("t2", "git push --set-upstream origin feature 2>&1"),
    ]
    (failed,) = digest_of(tmp_path, rows).errors
    assert (failed.fixed, failed.exit_code, failed.error_first_line) == (
        True,
        128,
        "fatal: no upstream branch",
    )


def test_a_success_on_another_target_does_not_fix_a_failure(tmp_path: Path) -> None:
    rows = [
        *bash("t1", "rm build/a.o", "Exit code 1\nrm: cannot remove", error=True),
        *bash("t2", "rm build/b.o"),
    ]
    assert digest_of(tmp_path, rows).errors[0].fixed is False


def test_a_success_before_the_failure_does_not_fix_it(tmp_path: Path) -> None:
    rows = [
        *bash("t1", "make"),
        *bash("t2", "make", "Exit code 2\nmake: *** [all] Error 1", error=True),
    ]
    assert digest_of(tmp_path, rows).errors[0].fixed is False


def test_a_narrower_test_run_passing_does_not_fix_a_failing_suite(tmp_path: Path) -> None:
    rows = [
        *bash("t1", "pytest", "Exit code 1\n1 failed, 9 passed", error=True),
        *bash("t2", "pytest tests/test_one.py", "3 passed"),
        *bash("t3", "pytest -q", "10 passed"),
    ]
    (failed,) = digest_of(tmp_path, rows).errors
    assert (failed.fixed, failed.fixed_by) == (True, "pytest -q")
    assert failed.fix_commands == ("pytest tests/test_one.py",)


def test_an_error_given_as_a_list_of_text_blocks_is_read(tmp_path: Path) -> None:
    blocks = [
        {"type": "text", "text": "Exit code 127"},
        {"type": "text", "text": "bash: foo: command not found"},
    ]
    rows = [call("t1", "Bash", {"command": "foo --bar"}), result("t1", blocks, error=True)]
    (failed,) = digest_of(tmp_path, rows).errors
    assert (failed.exit_code, failed.error_first_line) == (127, "bash: foo: command not found")


# --- test runs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "output", "error", "passed"),
    [
        ("python -m pytest -q", "F..\n1 failed, 2 passed in 0.1s", True, False),
        ("uv run pytest tests", "==== 12 passed in 0.5s ====", False, True),
        ("npm test", "Tests:       5 passed, 5 total", False, True),
        ("go test ./...", "ok  \texample.com/pkg\t0.01s", False, True),
        ("cargo test", "test result: FAILED. 1 passed; 1 failed", False, False),
        ("mix test 2>&1 | tail -3", "14 doctests, 410 tests, 0 failures", False, True),
        ("mix test 2>&1 | tail -3", "3 tests, 1 failure", False, False),
        ("pytest 2>&1 | tail -1", "collected", False, None),  # a pipe hides the exit status
        ("bundle exec rspec", "5 examples, 0 failures", False, True),
        ("make test", "", False, True),
        ("CI=1 npx vitest run", "Test Files  1 failed (1)", True, False),
    ],
)
def test_a_test_run_gets_its_outcome_from_output_then_exit_status(
    tmp_path: Path,
    command: str,
    output: str,
    *,
    error: bool,
    passed: bool | None,
) -> None:
    (run,) = digest_of(tmp_path, bash("t1", command, output, error=error)).tests
    assert (run.command, run.passed) == (command, passed)


def test_commands_that_only_mention_a_test_runner_are_not_test_runs(tmp_path: Path) -> None:
    rows = [*bash("t1", "pip install pytest"), *bash("t2", "grep -r jest package.json")]
    assert digest_of(tmp_path, rows).tests == ()


def test_a_test_summary_line_is_kept(tmp_path: Path) -> None:
    rows = bash("t1", "pytest", "....\n===== 4 passed, 1 skipped in 0.20s =====\n")
    assert digest_of(tmp_path, rows).tests == (
        TestRun("pytest", passed=True, summary="4 passed, 1 skipped in 0.20s"),
    )


def test_a_background_test_run_is_settled_by_its_task_output(tmp_path: Path) -> None:
    rows = [
        call("t1", "Bash", {"command": "mix test", "run_in_background": True}),
        result(
            "t1",
            "Command running in background with ID: b42. Output is being written to: x",
            extra={"stdout": "", "backgroundTaskId": "b42"},
        ),
        call("t2", "TaskOutput", {"task_id": "b42", "block": True}),
        result(
            "t2",
            "<status>completed</status>\n<exit_code>0</exit_code>\n"
            "<output>\n7 tests, 0 failures\n</output>",
        ),
    ]
    assert digest_of(tmp_path, rows).tests == (
        TestRun("mix test", passed=True, summary="7 tests, 0 failures"),
    )


def test_a_background_test_run_is_settled_by_its_completion_notice(tmp_path: Path) -> None:
    notice = (
        "<task-notification>\n<task-id>b7</task-id>\n<status>completed</status>\n"
        '<summary>Background command "tests" completed (exit code 1)</summary>\n'
        "</task-notification>"
    )
    rows = [
        call("t1", "Bash", {"command": "pytest"}),
        result("t1", "Command running in background with ID: b7. Output is being written to: x"),
        prompt(notice),
    ]
    d = digest_of(tmp_path, rows)
    assert d.tests == (TestRun("pytest", passed=False, summary="exit code 1"),)
    assert d.prompts == ()


def test_a_background_test_run_never_settled_has_an_unknown_outcome(tmp_path: Path) -> None:
    rows = [
        call("t1", "Bash", {"command": "pytest"}),
        result(
            "t1", "Command running in background with ID: b9.", extra={"backgroundTaskId": "b9"}
        ),
    ]
    assert digest_of(tmp_path, rows).tests[0].passed is None


# --- session envelope ----------------------------------------------------------------------------


def test_duration_spans_all_rows_and_active_time_skips_idle_gaps(tmp_path: Path) -> None:
    rows = [
        prompt("start") | {"timestamp": _stamp(0)},
        prompt("later") | {"timestamp": _stamp(120)},
        prompt("next day") | {"timestamp": _stamp(86_520)},
    ]
    d = digest_of(tmp_path, rows)
    assert (d.duration_seconds, d.active_seconds) == (86_520.0, 120.0)
    assert d.started_at == datetime(2026, 2, 2, 2, 40, tzinfo=timezone.utc)


def test_the_last_branch_and_the_first_directory_are_kept(tmp_path: Path) -> None:
    rows = [prompt("a"), prompt("b") | {"gitBranch": "feature", "cwd": "/elsewhere"}]
    d = digest_of(tmp_path, rows)
    assert (d.git_branch, d.cwd, d.session_id) == ("feature", "/home/dev/app", "s-1")


def test_sidechain_rows_and_subagent_files_count_as_subagents_but_not_as_prompts(
    tmp_path: Path,
) -> None:
    rows = [
        prompt("main prompt"),
        prompt("subagent task", isSidechain=True, agentId="a1"),
        {"type": "progress", "data": {"type": "agent_progress", "agentId": "a2"}},
    ]
    path = write(tmp_path, rows, "abc.jsonl")
    subagents = tmp_path / "abc" / "subagents"
    subagents.mkdir(parents=True)
    for name in ("agent-a2.jsonl", "agent-a3.jsonl", "agent-acompact-e1.jsonl", "notes.txt"):
        (subagents / name).write_text("{}\n")
    d = read_transcript(path)
    assert d.prompts == ("main prompt",)
    assert d.subagent_count == 3  # a1, a2, a3; the compaction agent is not a subagent


def test_every_text_in_the_digest_is_trimmed(tmp_path: Path) -> None:
    words = " ".join(["word"] * 5000)
    rows = [
        prompt(words),
        *bash("t1", f"echo {words}", f"Exit code 1\n{words}", error=True),
        call("w1", "Write", {"file_path": "/p/" + "d" * 5000}),
        result("w1", "ok"),
    ]
    d = digest_of(tmp_path, rows)
    texts = [
        *d.prompts,
        *d.commands,
        d.errors[0].command,
        d.errors[0].error_first_line,
        *d.files_created,
    ]
    assert all(len(text) <= 1000 for text in texts)
    assert all(len(text) <= 200 for text in texts[:-1])
    assert d.prompts[0].endswith("word…")


# --- size caps -----------------------------------------------------------------------------------


def test_an_overlong_line_is_skipped_and_the_next_line_is_still_read(tmp_path: Path) -> None:
    rows = [prompt("x" * 500), prompt("after the long line")]
    d = digest_of(tmp_path, rows, max_line_bytes=300)
    assert d.prompts == ("after the long line",)
    assert (d.skipped_lines, d.truncated) == (1, False)


def test_reading_stops_at_the_byte_cap_and_marks_the_digest_truncated(tmp_path: Path) -> None:
    rows = [prompt(f"prompt number {n}") for n in range(50)]
    path = write(tmp_path, rows)
    cap = len(path.read_bytes().split(b"\n")[0]) * 3 + 10  # three lines and a bit of the fourth
    d = read_transcript(path, max_bytes=cap)
    assert d.prompts == ("prompt number 0", "prompt number 1", "prompt number 2")
    assert (d.truncated, d.skipped_lines) == (True, 0)


def test_a_file_exactly_at_the_byte_cap_is_not_truncated(tmp_path: Path) -> None:
    path = write(tmp_path, [prompt("only")])
    d = read_transcript(path, max_bytes=path.stat().st_size)
    assert (d.prompts, d.truncated) == (("only",), False)


def test_a_last_line_without_a_newline_is_read(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(prompt("one")) + "\n" + json.dumps(prompt("two")))
    assert read_transcript(path).prompts == ("one", "two")


# --- render_summary -----------------------------------------------------------------------------


def _worked_session(tmp_path: Path) -> SessionDigest:
    rows = [
        prompt("add a login page"),
        call("w1", "Write", {"file_path": "/home/dev/app/src/login.py"}),
        result("w1", "ok"),
        *bash(
            "t1",
            "pytest -q",
            "Exit code 1\nE   ImportError: no module named flask\n1 error",
            error=True,
        ),
        *bash("t2", "pip install flask"),
        *bash("t3", "pytest -q", "5 passed in 0.3s"),
        prompt("<command-name>/clear</command-name>"),
    ]
    for minute, row in enumerate(rows):  # a minute apart, then 34 idle minutes before /clear
        row["timestamp"] = f"2026-03-01T09:{minute if row is not rows[-1] else 42:02d}:00Z"
    return digest_of(tmp_path, rows)


def test_the_summary_is_dated_and_tells_what_was_asked_changed_run_and_fixed(
    tmp_path: Path,
) -> None:
    text = render_summary(_worked_session(tmp_path))
    assert text.splitlines()[0] == (
        "Session s-1 2026-03-01 09:00–09:42 UTC (42m, 8m active), branch main, in /home/dev/app"
    )
    assert "Asked: add a login page" in text
    assert "Created: src/login.py" in text
    assert "Tests (2 runs: 1 FAILED, 1 passed), last:" in text
    assert (
        "- `pytest -q` (exit 1: E   ImportError: no module named flask) fixed on retry"
        " after `pip install flask`" in text
    )
    assert "Commands (3 total, 2 distinct): `pytest -q` ×2; `pip install flask` ×1" in text
    assert "Slash commands (1 total, 1 distinct): `/clear` ×1" in text


def test_the_summary_never_exceeds_max_chars(tmp_path: Path) -> None:
    digest = _worked_session(tmp_path)
    for limit in (0, 1, 40, 150, 400):
        assert len(render_summary(digest, max_chars=limit)) <= max(limit, 1)
    assert render_summary(digest, max_chars=150).endswith("…")


def test_the_summary_of_an_empty_digest_is_one_line() -> None:
    assert render_summary(SessionDigest()) == "Session ? (time unknown)"


def test_the_summary_passes_transcript_text_through_redact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = types.ModuleType("artibot_memory.core.redact")
    fake.redact_value = lambda text: text.replace("hunter2", "[REDACTED]")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "artibot_memory.core.redact", fake)
    rows = [prompt("log in with hunter2 please"), *bash("t1", "login --password hunter2")]
    text = render_summary(digest_of(tmp_path, rows))
    assert "hunter2" not in text
    assert "login --password [REDACTED]" in text


def test_the_summary_withholds_transcript_text_while_the_redact_module_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "artibot_memory.core.redact", None)  # makes the import fail
    text = render_summary(digest_of(tmp_path, [prompt("log in with hunter2 please")]))
    assert "hunter2" not in text
    assert "Asked: [REDACTED:redaction-unavailable]" in text


def test_the_summary_of_a_real_compacted_session_mentions_its_error_and_compaction() -> None:
    text = render_summary(read_transcript(COMPACTED))
    assert "Errors (1, 0 fixed):" in text
    assert "1 compaction(s)" in text
    assert text.startswith("Session bf94da03 2026-11-29 23:40–23:44 UTC")
