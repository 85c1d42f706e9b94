"""Codex CLI, Gemini CLI and Cursor transcripts read into the same digest as Claude Code's.

The fixtures are the agents' captured samples (tests/fixtures/agents/*.jsonl) and richer
sessions written by tests/fixtures/agents/generate_transcripts.py; synthetic records below
pin one behaviour each.
"""

from __future__ import annotations

import importlib.util
import json
import time
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artibot_memory.capture.foreign import cursor_transcript_path, detect
from artibot_memory.capture.summary import render_summary
from artibot_memory.capture.transcript import SessionDigest, read_transcript
from artibot_memory.core.agents import AGENTS

AGENT_FIXTURES = Path(__file__).parent / "fixtures" / "agents"
CLAUDE_FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
CODEX = AGENT_FIXTURES / "generated-codex-rollout.jsonl"
GEMINI = AGENT_FIXTURES / "generated-gemini-session.jsonl"
CURSOR = AGENT_FIXTURES / "generated-cursor-transcript.jsonl"
DECISION = "Let's use Postgres instead of SQLite because we need concurrent writes"
TODO = "add a rollback section to the deploy doc"


def load_generator() -> ModuleType:
    where = AGENT_FIXTURES / "generate_transcripts.py"
    spec = importlib.util.spec_from_file_location("generate_transcripts", where)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write(tmp_path: Path, records: list[Any], name: str = "session.jsonl") -> Path:
    path = tmp_path / name
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


# --- codex records -------------------------------------------------------------------------


def codex(kind: str, payload: dict[str, Any], stamp: str = "2026-12-06T09:30:00.000Z") -> Any:
    return {"timestamp": stamp, "type": kind, "payload": payload}


def codex_meta(**extra: Any) -> Any:
    return codex("session_meta", {"id": "s-codex", "cwd": "/home/dev/app", **extra})


def codex_user(text: str) -> Any:
    content = [{"type": "input_text", "text": text}]
    return codex("response_item", {"type": "message", "role": "user", "content": content})


def codex_run(call_id: str, command: str, output: Any) -> list[Any]:
    arguments = json.dumps({"cmd": command})
    call = {"type": "function_call", "name": "exec_command", "arguments": arguments}
    return [
        codex("response_item", {**call, "call_id": call_id}),
        codex(
            "response_item", {"type": "function_call_output", "call_id": call_id, "output": output}
        ),
    ]


# --- gemini records ------------------------------------------------------------------------


def gemini_meta() -> Any:
    return {"sessionId": "s-gemini", "projectHash": "ab" * 32, "startTime": "2026-12-06T09:30:00Z"}


def gemini_user(message_id: str, text: str) -> Any:
    return {"id": message_id, "timestamp": "2026-12-06T09:30:01Z", "type": "user", "content": text}


def gemini_shell(message_id: str, command: str, output: str, status: str = "success") -> Any:
    response = {"functionResponse": {"id": "c", "response": {"output": output}}}
    call = {"id": f"{message_id}-c", "name": "run_shell_command", "args": {"command": command}}
    tool = {**call, "result": [response], "status": status}
    return {"id": message_id, "type": "gemini", "content": "", "toolCalls": [tool]}


# --- the generated sessions ----------------------------------------------------------------


def test_the_generator_reproduces_the_committed_transcripts_byte_for_byte() -> None:
    for name, text in load_generator().build().items():
        assert (AGENT_FIXTURES / name).read_text(encoding="utf-8") == text, name


def test_a_codex_rollout_gives_prompts_commands_and_each_failure_with_its_fix() -> None:
    d = read_transcript(CODEX)
    assert (d.agent, d.session_id, d.cwd) == (
        "codex-cli",
        "0199b0c4-5e1a-7c3d-9f21-3a4b5c6d7e8f",
        "/home/dev/shop",
    )
    assert (d.git_branch, d.version, d.models) == ("main", "0.171.0", ("gpt-5-codex",))
    assert len(d.prompts) == 3  # no AGENTS.md, no <environment_context>, the echoed event once
    assert d.prompts[1:] == (
        "Now make the frontend build pass.",
        "Thanks. Next time, add a rollback section to the deploy doc.",
    )
    assert d.commands == {"pytest -q": 2, "npm run build": 2}  # the shell's apply_patch is an edit
    pytest_error, build_error = d.errors
    assert (pytest_error.command, pytest_error.exit_code, pytest_error.line) == ("pytest -q", 2, 12)
    assert pytest_error.signature == "modulenotfounderror: no module named 'shop.db'"
    assert (pytest_error.fixed, pytest_error.fixed_by) == (True, "pytest -q")
    assert pytest_error.fix_files == ("shop/db.py", "shop/cart.py")
    assert "does not exist" in pytest_error.fix.explanation
    # npm run build ran on in the background; the poll that saw it exit tells the failure
    assert (build_error.command, build_error.exit_code, build_error.line) == (
        "npm run build",
        2,
        31,
    )
    assert "error ts2322" in build_error.signature
    assert (build_error.fixed, build_error.fix_files) == (True, ("src/cart.ts",))


def test_a_codex_rollout_gives_changes_tests_decisions_todos_and_its_span() -> None:
    d = read_transcript(CODEX)
    assert (d.files_created, d.files_edited) == (("shop/db.py",), ("shop/cart.py", "src/cart.ts"))
    assert [(t.command, t.passed, t.summary) for t in d.tests] == [
        ("pytest -q", False, "1 error in 0.12s"),
        ("pytest -q", True, "3 passed in 0.05s"),
    ]
    assert [(m.line, m.text, m.kind) for m in d.decisions] == [(7, DECISION, "user")]
    assert [(m.line, m.text) for m in d.todos] == [(39, TODO)]
    assert [a.line for a in d.asks] == [7, 26, 39]  # the file's own lines
    assert (d.started_at, d.ended_at) == (at("2026-12-06T09:30:01"), at("2026-12-06T09:31:28.500"))
    assert (d.lines, d.skipped_lines, d.compactions) == (41, 1, 1)  # the cut line is skipped


def test_a_gemini_chat_strips_hook_context_and_forgets_what_was_rewound() -> None:
    d = read_transcript(GEMINI)
    assert (d.agent, d.session_id, d.models) == (
        "gemini-cli",
        "5f3c2b1a-9e8d-4c7b-a6f5-e4d3c2b1a098",
        ("gemini-2.5-pro",),
    )
    assert d.prompts == (
        f"The build is broken, please fix it. {DECISION}.",
        "Thanks. Next time, add a rollback section to the deploy doc. Also write docs/deploy.md.",
    )  # not the <session_context> checkpoint, nor the rewound "delete the whole src folder"
    assert d.commands == {"npm run build": 2}  # "rm -rf src" was rewound
    (error,) = d.errors
    assert (error.command, error.exit_code, error.line, error.fixed) == (
        "npm run build",
        2,
        7,
        True,
    )
    assert error.fix_files == ("/home/dev/shop/src/cart.ts",)
    assert d.files_edited == ("/home/dev/shop/src/cart.ts",)
    assert d.files_created == ("/home/dev/shop/docs/deploy.md",)
    assert [(m.line, m.text) for m in d.decisions] == [(3, DECISION)]
    assert [(m.line, m.text) for m in d.todos] == [(33, TODO)]
    assert (d.started_at, d.ended_at) == (at("2026-12-06T09:30:00"), at("2026-12-06T09:30:32.400"))
    assert (d.lines, d.skipped_lines) == (41, 1)


def test_a_gemini_chat_takes_its_folder_from_the_caller_else_from_its_directories() -> None:
    assert read_transcript(GEMINI).cwd == "/home/dev/shop"  # the $set directories
    assert read_transcript(GEMINI, cwd="/home/dev/elsewhere").cwd == "/home/dev/elsewhere"


def test_a_cursor_transcript_is_named_after_its_file_and_never_fails() -> None:
    d = read_transcript(CURSOR, cwd="/home/dev/shop")
    assert (d.agent, d.session_id, d.cwd) == (
        "cursor",
        "generated-cursor-transcript",
        "/home/dev/shop",
    )
    assert d.prompts == (
        f"The tests fail with an ImportError, please fix them. {DECISION}.",
        f"Thanks. Next time, {TODO}.",
    )
    assert (d.commands, d.errors, d.tests) == ({"pytest -q": 2}, (), ())
    assert d.files_edited == ("/home/dev/shop/shop/cart.py",)  # read first, then replaced
    assert d.files_created == ("/home/dev/shop/shop/db.py",)
    assert [(m.line, m.text) for m in d.decisions] == [(1, DECISION)]
    assert [(m.line, m.text) for m in d.todos] == [(9, TODO)]
    assert (d.started_at, d.skipped_lines) == (None, 1)
    assert read_transcript(CURSOR, session_id="c-9").session_id == "c-9"


# --- the captured samples ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "agent", "session_id", "cwd"),
    [
        (
            "codex-rollout.jsonl",
            "codex-cli",
            "01a248f0-dcf6-7910-b332-a3f1f8f24935",
            "/home/dev/cproj",
        ),
        (
            "gemini-transcript-session.jsonl",
            "gemini-cli",
            "78f0a728-3def-4370-bf5c-a1ddf7d09ad4",
            "/home/dev/fallback",
        ),
        (
            "cursor-documented-transcript.jsonl",
            "cursor",
            "cursor-documented-transcript",
            "/home/dev/fallback",
        ),
    ],
)
def test_each_captured_sample_is_read_as_its_agent_wrote_it(
    name: str, agent: str, session_id: str, cwd: str
) -> None:
    d = read_transcript(AGENT_FIXTURES / name, cwd="/home/dev/fallback")
    assert (d.agent, d.session_id, d.cwd, d.skipped_lines) == (agent, session_id, cwd, 0)
    assert len(d.prompts) == 1
    assert d.prompts[0] in ("Run a command", "create a file")
    assert d.errors == ()
    assert d.commands == ({} if agent == "cursor" else {"echo hello-from-tool": 1})


# --- Claude Code transcripts ---------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(CLAUDE_FIXTURES.glob("*.jsonl")), ids=lambda p: p.name)
def test_a_claude_code_transcript_reads_as_before_whatever_the_fallbacks(path: Path) -> None:
    d = read_transcript(path)
    assert d.agent == "claude-code"
    if d.cwd and d.session_id:  # its own folder and id win over the caller's
        assert read_transcript(path, cwd="/elsewhere", session_id="other") == d


def test_a_claude_code_transcript_without_a_folder_takes_the_callers(tmp_path: Path) -> None:
    row = {"type": "user", "message": {"content": "hello"}}
    d = read_transcript(write(tmp_path, [row]), cwd="/home/dev/app", session_id="s-1")
    assert (d.agent, d.cwd, d.session_id, d.prompts) == (
        "claude-code",
        "/home/dev/app",
        "s-1",
        ("hello",),
    )


@pytest.mark.parametrize(
    ("record", "agent"),
    [
        pytest.param(
            {"type": "future-thing", "payload": {"x": 1}}, "claude-code", id="claude-unknown-row"
        ),
        pytest.param(
            {"type": "user", "message": {"content": "x"}, "sessionId": "s"},
            "claude-code",
            id="claude",
        ),
        pytest.param({"type": "turn_context", "payload": {}}, "codex-cli", id="codex"),
        pytest.param({"sessionId": "s", "projectHash": "h"}, "gemini-cli", id="gemini-meta"),
        pytest.param({"$rewindTo": "m-1"}, "gemini-cli", id="gemini-rewind"),
        pytest.param(
            {"id": "m", "type": "gemini", "content": ""}, "gemini-cli", id="gemini-message"
        ),
        pytest.param({"role": "assistant", "message": {"content": []}}, "cursor", id="cursor"),
    ],
)
def test_the_first_record_tells_the_agent(record: dict[str, Any], agent: str) -> None:
    assert detect(record) == agent


# --- codex details -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "code"),
    [
        pytest.param(
            "Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 1\n"
            "Original token count: 2\nOutput:\nboom\n",
            1,
            id="unified-exec",
        ),
        pytest.param(
            "Exit code: 127\nWall time: 0 seconds\nOutput:\nbash: nope: command not found\n",
            127,
            id="freeform",
        ),
        pytest.param(
            json.dumps({"output": "boom", "metadata": {"exit_code": 3, "duration_seconds": 0.1}}),
            3,
            id="structured",
        ),
        pytest.param({"content": "sandbox denied", "success": False}, None, id="success-false"),
    ],
)
def test_each_codex_output_shape_tells_a_failure(
    tmp_path: Path, output: Any, code: int | None
) -> None:
    d = read_transcript(
        write(tmp_path, [codex_meta(), codex_user("go"), *codex_run("c1", "make", output)])
    )
    (error,) = d.errors
    assert (error.command, error.exit_code) == ("make", code)


def test_a_codex_command_that_exits_zero_is_no_failure(tmp_path: Path) -> None:
    ok = "Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nfine\n"
    d = read_transcript(write(tmp_path, [codex_meta(), *codex_run("c1", "make", ok)]))
    assert (d.errors, d.commands) == ((), {"make": 1})


def test_a_codex_patch_that_failed_changes_no_file(tmp_path: Path) -> None:
    patch = "*** Begin Patch\n*** Update File: missing.txt\n@@\n-x\n+y\n*** End Patch\n"
    call = {"type": "custom_tool_call", "call_id": "p1", "name": "apply_patch", "input": patch}
    failed = "apply_patch verification failed: Failed to read file to update missing.txt"
    output = {"type": "custom_tool_call_output", "call_id": "p1", "output": failed}
    d = read_transcript(
        write(
            tmp_path, [codex_meta(), codex("response_item", call), codex("response_item", output)]
        )
    )
    assert (d.files_edited, d.files_created, d.tool_counts) == ((), (), {"Edit": 1})


def test_codex_context_the_harness_wrote_is_no_prompt(tmp_path: Path) -> None:
    meta = {
        "content_item_metadata": [
            {"provenance": {"type": "harness"}},
            {"provenance": {"type": "user"}},
        ]
    }
    content = [
        {"type": "input_text", "text": "Skill body: always lint."},
        {"type": "input_text", "text": "lint it"},
    ]
    message = {"type": "message", "role": "user", "content": content}
    records = [
        codex_meta(),
        codex("response_item", {**message, "internal_chat_message_metadata_passthrough": meta}),
        codex_user("<user_instructions>\nbe brief\n</user_instructions>"),
        codex(
            "response_item",
            {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "hook ctx"}],
            },
        ),
    ]
    assert read_transcript(write(tmp_path, records)).prompts == ("lint it",)


def test_a_codex_prompt_said_twice_in_a_row_counts_twice(tmp_path: Path) -> None:
    event = codex("event_msg", {"type": "user_message", "message": "continue", "kind": "plain"})
    records = [codex_meta(), codex_user("continue"), event, codex_user("continue"), event]
    assert read_transcript(write(tmp_path, records)).prompts == ("continue", "continue")


def test_codex_private_blocks_never_reach_the_digest(tmp_path: Path) -> None:
    records = [codex_meta(), codex_user("deploy with <private>hunter2</private> now")]
    d = read_transcript(write(tmp_path, records))
    assert "hunter2" not in repr(d)
    assert d.prompts


def test_codex_lines_before_after_line_keep_the_session_but_are_not_told_again(
    tmp_path: Path,
) -> None:
    records = [codex_meta(), codex_user("first"), codex_user("second")]
    d = read_transcript(write(tmp_path, records), after_line=2)
    assert (d.prompts, d.session_id, d.cwd, d.first_line) == (
        ("second",),
        "s-codex",
        "/home/dev/app",
        3,
    )


def test_unknown_codex_records_are_skipped_and_malformed_lines_counted(tmp_path: Path) -> None:
    records = [
        '{"timestamp": "2026-12-06T09:30:00Z", "type": "session_meta", "pay',
        codex_meta(),
        codex("brand_new_record", {"x": [1]}),
        codex("response_item", {"type": "brand_new_item"}),
        "[1, 2]",
        codex_user("hello"),
    ]
    d = read_transcript(write(tmp_path, records))
    assert (d.agent, d.prompts, d.skipped_lines, d.lines) == ("codex-cli", ("hello",), 2, 6)


def test_a_3_mb_codex_rollout_digests_in_well_under_a_second(tmp_path: Path) -> None:
    story = CODEX.read_text(encoding="utf-8").splitlines()
    lines, size = story[:6], 0
    while size < 3_000_000:  # the story again and again, each time with its own call ids
        turn = [line.replace(':"call_', f':"call{len(lines)}_') for line in story[6:38]]
        lines, size = lines + turn, size + sum(map(len, turn))
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    started = time.process_time()  # CPU time: other tests running beside it do not count
    d = read_transcript(path)
    assert time.process_time() - started < 1.0
    assert d.commands["pytest -q"] > 100


# --- gemini details ------------------------------------------------------------------------


def test_a_gemini_rewind_drops_the_message_and_all_after_it(tmp_path: Path) -> None:
    records = [
        gemini_meta(),
        gemini_user("u1", "keep me"),
        gemini_user("u2", "drop me"),
        gemini_shell("g2", "rm -rf build", "Output: (empty)"),
        {"$rewindTo": "u2"},
        gemini_user("u3", "after the rewind"),
    ]
    d = read_transcript(write(tmp_path, records))
    assert (d.prompts, d.commands) == (("keep me", "after the rewind"), {})
    assert [a.line for a in d.asks] == [2, 6]


def test_a_gemini_rewind_to_an_unknown_message_forgets_everything_before(tmp_path: Path) -> None:
    records = [
        gemini_meta(),
        gemini_user("u1", "gone"),
        {"$rewindTo": "nobody"},
        gemini_user("u2", "kept"),
    ]
    assert read_transcript(write(tmp_path, records)).prompts == ("kept",)


def test_a_gemini_message_written_again_replaces_the_first_in_place(tmp_path: Path) -> None:
    first = gemini_shell("g1", "npm test", "Output: ok")
    first["toolCalls"][0]["status"] = "executing"
    records = [
        gemini_meta(),
        gemini_user("u1", "test it"),
        first,
        gemini_user("u2", "thanks"),
        gemini_shell("g1", "npm test", "Output: boom\nExit Code: 1"),
    ]
    d = read_transcript(write(tmp_path, records))
    (error,) = d.errors
    assert (d.prompts, error.exit_code, error.line) == (("test it", "thanks"), 1, 5)
    assert [a.line for a in d.asks] == [2, 4]


def test_a_gemini_checkpoint_replaces_the_whole_message_list(tmp_path: Path) -> None:
    kept = gemini_user("u1", "kept")
    records = [gemini_meta(), gemini_user("u0", "dropped"), kept, {"$set": {"messages": [kept]}}]
    assert read_transcript(write(tmp_path, records)).prompts == ("kept",)


@pytest.mark.parametrize(
    ("output", "status", "code"),
    [
        pytest.param(
            "<untrusted_context>\nOutput: boom\nExit Code: 2\nProcess Group PGID: 7\n"
            "</untrusted_context>",
            "success",
            2,
            id="exit-code",
        ),
        pytest.param(
            "Output: (empty)\nSignal: 9\nProcess Group PGID: 7", "success", None, id="signal"
        ),
        pytest.param("Output: \nError: spawn /bin/bash ENOENT", "error", None, id="status-error"),
    ],
)
def test_each_gemini_shell_failure_is_an_error(
    tmp_path: Path, output: str, status: str, code: int | None
) -> None:
    records = [gemini_meta(), gemini_user("u1", "go"), gemini_shell("g1", "make", output, status)]
    (error,) = read_transcript(write(tmp_path, records)).errors
    assert (error.command, error.exit_code) == ("make", code)


def test_a_gemini_tool_call_the_user_cancelled_is_a_refusal_not_an_error(tmp_path: Path) -> None:
    records = [gemini_meta(), gemini_shell("g1", "rm -rf /", "", "cancelled")]
    d = read_transcript(write(tmp_path, records))
    assert (d.errors, d.denied, d.commands) == ((), 1, {})


def test_gemini_lines_before_after_line_are_not_told_again(tmp_path: Path) -> None:
    records = [gemini_meta(), gemini_user("u1", "first"), gemini_user("u2", "second")]
    d = read_transcript(write(tmp_path, records), after_line=2)
    assert (d.prompts, d.session_id) == (("second",), "s-gemini")


# --- cursor path ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("root", "slug"),
    [
        ("/home/dev/shop", "home-dev-shop"),
        ("/Users/ana/My Projects/web.app/", "Users-ana-My-Projects-web-app"),
        ("C:\\work\\api", "C-work-api"),
    ],
)
def test_the_cursor_transcript_path_slugs_the_workspace(root: str, slug: str) -> None:
    expected = f"/home/dev/.cursor/projects/{slug}/agent-transcripts/c-1.jsonl"
    assert cursor_transcript_path(root, "c-1", home="/home/dev") == expected


def test_the_cursor_transcript_path_defaults_to_the_users_home(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HOME", "/home/ana")
    assert (
        cursor_transcript_path("/srv/x", "c")
        == "/home/ana/.cursor/projects/srv-x/agent-transcripts/c.jsonl"
    )


# --- garbage -------------------------------------------------------------------------------

_KEYS = {
    "codex-cli": [
        "timestamp",
        "type",
        "payload",
        "role",
        "content",
        "text",
        "name",
        "arguments",
        "call_id",
        "output",
        "cmd",
        "input",
        "item",
        "exit_code",
        "message",
        "kind",
    ],
    "gemini-cli": [
        "id",
        "type",
        "content",
        "toolCalls",
        "name",
        "args",
        "result",
        "status",
        "$set",
        "$rewindTo",
        "messages",
        "functionResponse",
        "response",
        "output",
        "text",
        "command",
    ],
    "cursor": [
        "role",
        "message",
        "content",
        "type",
        "text",
        "name",
        "input",
        "command",
        "path",
        "contents",
    ],
}
_WORDS = [
    "user",
    "assistant",
    "gemini",
    "message",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "apply_patch",
    "exec_command",
    "write_stdin",
    "run_shell_command",
    "write_file",
    "replace",
    "Shell",
    "StrReplace",
    "Write",
    "success",
    "error",
    "cancelled",
    "*** Begin Patch\n*** Add File: a\n+x",
    "Exit Code: 1",
    "Process running with session ID 1",
    "<hook_context>x</hook_context>",
    "u1",
]
_OPENERS = {
    "codex-cli": {
        "timestamp": "2026-12-06T09:30:00Z",
        "type": "session_meta",
        "payload": {"id": "s"},
    },
    "gemini-cli": {"sessionId": "s", "projectHash": "h"},
    "cursor": {"role": "user", "message": {"content": []}},
}


def _json(keys: list[str] | None = None) -> st.SearchStrategy[Any]:
    leaves = (
        st.none() | st.booleans() | st.integers() | st.text(max_size=20) | st.sampled_from(_WORDS)
    )
    names = st.sampled_from(keys) if keys else st.text(max_size=8)
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(names, inner, max_size=5),
        max_leaves=16,
    )


def _records(agent: str) -> st.SearchStrategy[list[Any]]:
    return st.lists(_json(_KEYS[agent]), max_size=10)


_FIRST_KEYS = [*_KEYS["codex-cli"], *_KEYS["gemini-cli"], "sessionId", "projectHash"]


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(_FIRST_KEYS), _json()))
def test_any_first_record_tells_some_agent_without_raising(record: dict[str, Any]) -> None:
    assert detect(record) in AGENTS


@pytest.mark.parametrize("agent", ["codex-cli", "gemini-cli", "cursor"])
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_json_records_of_each_format_give_a_digest_without_raising(
    tmp_path: Path, agent: str, data: st.DataObject
) -> None:
    records = data.draw(_records(agent))
    d = read_transcript(write(tmp_path, [_OPENERS[agent], *records]), cwd="/home/dev/app")
    assert isinstance(d, SessionDigest)
    assert (d.readable, d.agent) == (True, agent)
    assert d.agent in AGENTS
    assert isinstance(render_summary(d), str)
