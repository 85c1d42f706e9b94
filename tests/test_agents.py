"""The adapters of Codex CLI, Gemini CLI and Cursor (plugin/agents.py), on their real payloads.

The payloads are the ones each agent sent to a hook here (``tests/fixtures/agents/captured-*``,
recorded by ``tests/e2e/test_agents_harness.py`` from the pinned CLIs) and, for Cursor, which
cannot run here, the documented ones (``cursor-documented-payloads.jsonl``).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot_memory.capture import journal
from artibot_memory.core.agents import AGENTS, CLAUDE
from artibot_memory.plugin import agents, entry
from artibot_memory.recall import known_errors
from artibot_memory.text.signature import error_signature

FIXTURES = Path(__file__).parent / "fixtures" / "agents"


def captured(agent: str) -> list[tuple[str, dict[str, Any]]]:
    """Return ``(event, payload)`` of every payload an agent's hooks received, in order."""
    if agent == "cursor":
        text = (FIXTURES / "cursor-documented-payloads.jsonl").read_text(encoding="utf-8")
        rows = [json.loads(line) for line in text.splitlines()]
        return [(row["hook_event_name"], row) for row in rows]
    path = FIXTURES / f"captured-{agent}-hook-payloads.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(row["event"], row["payload"]) for row in map(json.loads, lines)]


def first(agent: str, event: str, **matching: Any) -> dict[str, Any]:
    """Return a copy of the first captured payload of ``event`` whose fields match."""
    for name, payload in captured(agent):
        if name == event and all(_get(payload, k) == v for k, v in matching.items()):
            return dict(json.loads(json.dumps(payload)))
    raise LookupError(f"no {agent} {event} payload with {matching}")


def _get(payload: dict[str, Any], dotted: str) -> Any:
    value: Any = payload
    for part in dotted.split("__"):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def journaled() -> list[dict[str, Any]]:
    with journal.drain() as batch:
        return list(batch)


def run(agent: str, event: str, payload: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> Any:
    """Run the hook as the agent runs it; return what it printed (None: nothing)."""
    assert entry.run_hook(event, json.dumps(payload).encode(), agent) == 0
    out = capsys.readouterr().out
    return json.loads(out) if out else None


# ---- the events


@pytest.mark.parametrize(
    ("agent", "theirs", "ours"),
    [
        ("codex-cli", "SessionStart", "SessionStart"),
        ("codex-cli", "UserPromptSubmit", "UserPromptSubmit"),
        ("codex-cli", "PreCompact", "PreCompact"),
        ("codex-cli", "SessionEnd", "SessionEnd"),
        ("codex-cli", "Stop", ""),
        ("gemini-cli", "SessionStart", "SessionStart"),
        ("gemini-cli", "BeforeAgent", "UserPromptSubmit"),
        ("gemini-cli", "PreCompress", "PreCompact"),
        ("gemini-cli", "SessionEnd", "SessionEnd"),
        ("gemini-cli", "AfterAgent", ""),
        ("cursor", "sessionStart", "SessionStart"),
        ("cursor", "beforeSubmitPrompt", "UserPromptSubmit"),
        ("cursor", "preCompact", "PreCompact"),
        ("cursor", "sessionEnd", "SessionEnd"),
        ("cursor", "stop", ""),
        ("claude-code", "SessionStart", "SessionStart"),
    ],
)
def test_each_agents_event_is_one_of_ours_or_none(agent: str, theirs: str, ours: str) -> None:
    event, payload = agents.normalize(agent, theirs, {"session_id": "s"})
    assert event == ours
    assert payload["agent"] == agent


def test_every_captured_payload_of_each_agent_normalizes_without_error() -> None:
    for agent in ("codex", "gemini", "cursor"):
        name = agents.agent_of(agent)
        for event, payload in captured(agent):
            ours, normalized = agents.normalize(name, event, payload)
            assert ours in {"", *agents.EVENTS[CLAUDE].values()}
            assert normalized["agent"] == name


# ---- shell commands: success, failure


def test_a_codex_command_that_failed_is_a_failure_by_the_exit_code_in_its_rollout(
    tmp_path: Path,
) -> None:
    payload = first("codex", "PostToolUse", tool_input__command="ls /no/such/dir")
    rollout = tmp_path / "rollout.jsonl"
    shutil.copy(FIXTURES / "captured-codex-rollout.jsonl", rollout)
    payload["transcript_path"] = str(rollout)
    event, normalized = agents.normalize("codex-cli", "PostToolUse", payload)
    assert event == "PostToolUseFailure"
    assert normalized["tool_name"] == "Bash"
    assert normalized["error"].splitlines()[0] == "Exit code 2"
    assert "No such file or directory" in normalized["error"]


def test_a_silent_codex_failure_is_a_failure_too(tmp_path: Path) -> None:
    payload = first(
        "codex", "PostToolUse", tool_input__command="python3 -c 'import sys; sys.exit(3)'"
    )
    rollout = tmp_path / "rollout.jsonl"
    shutil.copy(FIXTURES / "captured-codex-rollout.jsonl", rollout)
    payload["transcript_path"] = str(rollout)
    event, normalized = agents.normalize("codex-cli", "PostToolUse", payload)
    assert (event, normalized["error"]) == ("PostToolUseFailure", "Exit code 3")


def test_a_codex_command_that_succeeded_keeps_its_output(tmp_path: Path) -> None:
    payload = first("codex", "PostToolUse", tool_input__command="echo hello-out")
    rollout = tmp_path / "rollout.jsonl"
    shutil.copy(FIXTURES / "captured-codex-rollout.jsonl", rollout)
    payload["transcript_path"] = str(rollout)
    event, normalized = agents.normalize("codex-cli", "PostToolUse", payload)
    assert event == "PostToolUse"
    assert normalized["tool_response"]["stdout"] == "hello-out\n"


def test_without_its_rollout_a_codex_command_is_not_called_a_failure() -> None:
    payload = first("codex", "PostToolUse", tool_input__command="ls /no/such/dir")
    payload["transcript_path"] = "/no/such/rollout.jsonl"
    assert agents.normalize("codex-cli", "PostToolUse", payload)[0] == "PostToolUse"


def test_the_rollout_is_read_from_its_end_only(tmp_path: Path) -> None:
    rollout = tmp_path / "rollout.jsonl"
    old = {"payload": {"item": {"id": "call_1", "exit_code": 9}}}
    rollout.write_text(json.dumps(old) + "\n" + "x" * (agents.ROLLOUT_TAIL + 10) + "\n")
    assert agents.codex_exit_code(str(rollout), "call_1") is None
    rollout.write_text(json.dumps(old) + "\n")
    assert agents.codex_exit_code(str(rollout), "call_1") == 9


@pytest.mark.parametrize(
    ("command", "code"),
    [("ls /no/such/dir", 2), ("python3 -c 'import sys; sys.exit(3)'", 3)],
)
def test_a_gemini_command_that_failed_is_a_failure_by_its_exit_code_line(
    command: str, code: int
) -> None:
    payload = first("gemini", "AfterTool", tool_input__command=command)
    event, normalized = agents.normalize("gemini-cli", "AfterTool", payload)
    assert event == "PostToolUseFailure"
    assert normalized["error"].splitlines()[0] == f"Exit code {code}"
    assert "PGID" not in normalized["error"]  # what the user saw, not Gemini's wrapper


def test_a_gemini_command_that_succeeded_keeps_what_it_printed() -> None:
    payload = first("gemini", "AfterTool", tool_input__command="echo hello-out")
    event, normalized = agents.normalize("gemini-cli", "AfterTool", payload)
    assert event == "PostToolUse"
    assert normalized["tool_response"] == {
        "stdout": "hello-out",
        "stderr": "",
        "interrupted": False,
    }


def test_a_cursor_failure_keeps_its_error_message() -> None:
    payload = first("cursor", "postToolUseFailure")
    event, normalized = agents.normalize("cursor", "postToolUseFailure", payload)
    assert event == "PostToolUseFailure"
    assert (normalized["tool_name"], normalized["error"]) == (
        "Bash",
        "Exit code 1\nCommand failed with exit code 1",
    )


# ---- edits


def test_a_codex_patch_is_an_edit_of_its_file_from_the_sessions_folder() -> None:
    added = first("codex", "PostToolUse", tool_name="apply_patch")
    event, normalized = agents.normalize("codex-cli", "PostToolUse", added)
    assert event == "PostToolUse"
    assert normalized["tool_name"] == "Write"
    assert normalized["tool_input"] == {
        "file_path": f"{added['cwd']}/notes.txt",
        "content": "alpha\nbeta",
    }
    updates = [p for e, p in captured("codex") if "Update File" in str(p.get("tool_input"))]
    event, normalized = agents.normalize("codex-cli", "PostToolUse", dict(updates[0]))
    assert normalized["tool_name"] == "Edit"
    assert (normalized["tool_input"]["old_string"], normalized["tool_input"]["new_string"]) == (
        "beta",
        "gamma",
    )


@pytest.mark.parametrize(("tool", "claude"), [("write_file", "Write"), ("replace", "Edit")])
def test_a_gemini_edit_is_claude_codes_edit(tool: str, claude: str) -> None:
    payload = first("gemini", "AfterTool", tool_name=tool, tool_input__file_path="notes.txt")
    event, normalized = agents.normalize("gemini-cli", "AfterTool", payload)
    assert (event, normalized["tool_name"]) == ("PostToolUse", claude)
    assert normalized["tool_input"]["file_path"] == f"{payload['cwd']}/notes.txt"


def test_a_gemini_edit_that_failed_is_nothing_to_keep() -> None:
    payload = first("gemini", "AfterTool", tool_input__file_path="missing.txt")
    assert agents.normalize("gemini-cli", "AfterTool", payload)[0] == ""


def test_a_cursor_write_is_a_write() -> None:
    payload = first("cursor", "postToolUse")
    event, normalized = agents.normalize("cursor", "postToolUse", payload)
    assert (event, normalized["tool_name"], normalized["cwd"]) == (
        "PostToolUse",
        "Write",
        "/path/to/repo",
    )
    assert normalized["session_id"] == payload["conversation_id"]


# ---- prompts, sessions


def test_our_own_context_is_not_taken_for_what_the_user_typed_in_gemini() -> None:
    payload = first("gemini", "BeforeAgent")
    assert payload["prompt"].startswith("<hook_context>")
    _, normalized = agents.normalize("gemini-cli", "BeforeAgent", payload)
    assert not normalized["prompt"].startswith("<hook_context>")
    assert normalized["prompt"].strip()


def test_cursors_transcript_is_found_from_its_workspace_and_conversation() -> None:
    payload = first("cursor", "sessionEnd")
    assert payload["transcript_path"] is None
    _, normalized = agents.normalize("cursor", "sessionEnd", payload)
    assert normalized["transcript_path"].endswith(
        "/.cursor/projects/path-to-repo/agent-transcripts/11111111-1111-4111-8111-111111111111.jsonl"
    )


# ---- answers


@pytest.mark.parametrize(
    ("agent", "event", "expected"),
    [
        (
            "codex-cli",
            "PostToolUse",
            {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "fix"}},
        ),
        (
            "gemini-cli",
            "AfterTool",
            {"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "fix"}},
        ),
        ("cursor", "postToolUseFailure", {"additional_context": "fix"}),
        (
            "claude-code",
            "PostToolUseFailure",
            {
                "hookSpecificOutput": {
                    "hookEventName": "PostToolUseFailure",
                    "additionalContext": "fix",
                }
            },
        ),
    ],
)
def test_what_we_say_goes_back_in_the_field_each_agent_reads(
    agent: str, event: str, expected: dict[str, Any]
) -> None:
    ours = {
        "hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "fix"}
    }
    assert agents.answer(agent, event, ours) == expected


def test_nothing_to_say_is_nothing_printed_for_every_agent() -> None:
    for agent in AGENTS:
        assert agents.answer(agent, "x", None) is None


# ---- through the hook, as each agent runs it


YAML_ERROR = (
    "Exit code 1\nTraceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'"
)


def known_yaml_error(home: Path) -> None:
    entry_doc = {
        "id": "err-0a1b2c3d4e",
        "type": "error",
        "text": "ModuleNotFoundError: No module named 'yaml'",
        "signature": error_signature(YAML_ERROR),
        "resolution": "pip install pyyaml (the package is PyYAML)",
        "state": "resolved",
        "last_seen": "2026-11-12T10:00:00Z",
        "expires_at": "2099-01-01T00:00:00Z",
    }
    home.mkdir(parents=True, exist_ok=True)
    document = {"schema_version": 1, "entries": [entry_doc]}
    (home / known_errors.ERROR_STORE).write_text(json.dumps(document))


def test_an_error_fixed_anywhere_comes_back_with_its_fix_in_gemini(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    known_yaml_error(memory_home)
    payload = first("gemini", "AfterTool", tool_input__command="ls /no/such/dir")
    payload["tool_input"]["command"] = "python3 app.py"
    payload["tool_response"]["llmContent"] = (
        "<untrusted_context>\nOutput: Traceback (most recent call last):\n"
        "ModuleNotFoundError: No module named 'yaml'\nExit Code: 1\n</untrusted_context>"
    )
    payload["tool_response"]["returnDisplay"] = (
        "Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'"
    )
    out = run("gemini-cli", "AfterTool", payload, capsys)
    assert out["hookSpecificOutput"]["hookEventName"] == "AfterTool"
    assert "pip install pyyaml" in out["hookSpecificOutput"]["additionalContext"]
    [failure, recalled] = journaled()
    assert (failure["event"], failure["agent"], failure["exit_code"]) == (
        "PostToolUseFailure",
        "gemini-cli",
        1,
    )
    assert recalled["ids"] == ["err-0a1b2c3d4e"]


def test_an_error_fixed_anywhere_comes_back_with_its_fix_in_codex_and_cursor(
    memory_home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    known_yaml_error(memory_home)
    rollout = tmp_path / "rollout.jsonl"
    done = {
        "type": "event_msg",
        "payload": {
            "type": "item_completed",
            "item": {"type": "CommandExecution", "id": "call_9", "exit_code": 1},
        },
    }
    rollout.write_text(json.dumps(done) + "\n")
    codex = first("codex", "PostToolUse", tool_input__command="ls /no/such/dir")
    codex.update(tool_use_id="call_9", transcript_path=str(rollout))
    codex["tool_response"] = (
        "Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'\n"
    )
    out = run("codex-cli", "PostToolUse", codex, capsys)
    assert out["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert "pip install pyyaml" in out["hookSpecificOutput"]["additionalContext"]
    cursor = first("cursor", "postToolUseFailure")
    cursor["error_message"] = YAML_ERROR
    out = run("cursor", "postToolUseFailure", cursor, capsys)
    assert "pip install pyyaml" in out["additional_context"]
    assert {r["agent"] for r in journaled() if r["event"] == "PostToolUseFailure"} == {
        "codex-cli",
        "cursor",
    }


def test_a_session_end_of_each_agent_is_journaled_with_its_agent_and_handed_to_a_worker(
    capsys: pytest.CaptureFixture[str], started: list[list[str]]
) -> None:
    for agent, event in (
        ("codex", "SessionEnd"),
        ("gemini", "SessionEnd"),
        ("cursor", "sessionEnd"),
    ):
        assert run(agents.agent_of(agent), event, first(agent, event), capsys) is None
    ends = journaled()
    assert [(r["event"], r["agent"]) for r in ends] == [
        ("SessionEnd", "codex-cli"),
        ("SessionEnd", "gemini-cli"),
        ("SessionEnd", "cursor"),
    ]
    assert all(r["transcript_path"] for r in ends)
    assert len(started) == 3


def test_an_unknown_event_prints_nothing_and_keeps_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("gemini-cli", "BeforeToolSelection", {"session_id": "s"}, capsys) is None
    assert journaled() == []


def test_the_hook_takes_its_agent_from_the_command_line() -> None:
    assert entry.hook_args(["PostToolUse", "--agent", "codex-cli"]) == ("PostToolUse", "codex-cli")
    assert entry.hook_args(["--agent=cursor", "sessionEnd"]) == ("sessionEnd", "cursor")
    assert entry.hook_args(["PostToolUse"]) == ("PostToolUse", "claude-code")


AGENT_EVENTS = [(agent, event) for agent, events in agents.EVENTS.items() for event in events]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=20,
)
FIELDS = st.sampled_from(
    [
        "tool_name",
        "tool_input",
        "tool_response",
        "tool_output",
        "error_message",
        "prompt",
        "workspace_roots",
        "conversation_id",
        "transcript_path",
        "tool_use_id",
        "cwd",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(AGENT_EVENTS), st.dictionaries(FIELDS, JSON, max_size=8))
def test_any_payload_of_any_agent_exits_zero_and_prints_at_most_one_object(
    agent_event: tuple[str, str], payload: dict[str, Any]
) -> None:
    agent, event = agent_event
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", out)
        patch.setattr("artibot_memory.plugin.fast.start_worker", lambda *_: None)
        assert entry.run_hook(event, json.dumps(payload).encode(), agent) == 0
    printed = out.getvalue()
    if printed:
        assert printed.count("\n") == 1
        assert isinstance(json.loads(printed), dict)


# ---- the hooks files and manifests each agent reads

REPO = Path(__file__).resolve().parent.parent
CURSOR_EVENTS = frozenset(
    "sessionStart sessionEnd beforeSubmitPrompt preToolUse postToolUse postToolUseFailure"
    " subagentStart subagentStop beforeShellExecution afterShellExecution beforeMCPExecution"
    " afterMCPExecution beforeReadFile afterFileEdit afterAgentResponse afterAgentThought"
    " preCompact stop beforeTabFileRead afterTabFileEdit workspaceOpen".split()
)
CODEX_EVENTS = frozenset(
    "SessionStart UserPromptSubmit PreToolUse PermissionRequest PostToolUse PreCompact"
    " PostCompact Stop SubagentStart SubagentStop SessionEnd Interrupt".split()
)
GEMINI_EVENTS = frozenset(
    "SessionStart SessionEnd BeforeAgent AfterAgent BeforeModel AfterModel"
    " BeforeToolSelection BeforeTool AfterTool PreCompress Notification".split()
)


def hooks_of(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8"))["hooks"])


def commands(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The command hooks of one event (Claude Code's nested shape, or Cursor's flat one)."""
    return [hook for entry in entries for hook in entry.get("hooks", [entry])]


@pytest.mark.parametrize(
    ("path", "known", "agent", "unit"),
    [
        ("hooks/codex.json", CODEX_EVENTS, "codex-cli", 1),
        ("gemini/hooks/hooks.json", GEMINI_EVENTS, "gemini-cli", 1000),
        ("hooks/cursor.json", CURSOR_EVENTS, "cursor", 1),
    ],
)
def test_each_agents_hooks_file_names_only_its_events_and_runs_our_entry_for_them(
    path: str, known: frozenset[str], agent: str, unit: int
) -> None:
    hooks = hooks_of(REPO / path)
    assert set(hooks) <= known, set(hooks) - known  # Cursor voids the file for one unknown name
    assert {agents.EVENTS[agent][event] for event in hooks} >= {
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "SessionEnd",
    }
    for event, entries in hooks.items():
        for hook in commands(entries):
            assert hook["command"].startswith("python3 -S ")
            assert f'/bin/artibot-memory" hook {event} --agent {agent}' in hook["command"]
            seconds = hook["timeout"] / unit
            assert 1 <= seconds <= 30, (event, hook["timeout"])  # milliseconds in Gemini CLI
            if agents.EVENTS[agent][event] == "SessionEnd":
                assert seconds <= 3  # Codex clamps it to 3 s; Gemini CLI does not wait


def test_claude_codes_hooks_file_names_none_of_the_others_events() -> None:
    hooks = hooks_of(REPO / "hooks" / "hooks.json")
    assert set(hooks) == set(agents.EVENTS[CLAUDE].values())


def test_the_codex_marketplace_and_plugin_name_what_exists() -> None:
    market = json.loads((REPO / ".agents" / "plugins" / "marketplace.json").read_text())
    [plugin] = market["plugins"]
    assert (market["name"], plugin["name"]) == ("artibot-memory", "artibot-memory")
    assert plugin["source"] == {"source": "local", "path": "./"}
    manifest = json.loads((REPO / ".codex-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "artibot-memory"
    for key in ("skills", "hooks"):
        assert manifest[key].startswith("./")
        assert (REPO / manifest[key]).exists(), manifest[key]


def test_the_cursor_plugin_names_its_own_hooks_file() -> None:
    manifest = json.loads((REPO / ".cursor-plugin" / "plugin.json").read_text())
    assert manifest["hooks"] == "./hooks/cursor.json"
    assert (REPO / manifest["skills"]).is_dir()


def test_the_gemini_extension_folder_holds_the_package_through_its_links() -> None:
    folder = REPO / "gemini"
    manifest = json.loads((folder / "gemini-extension.json").read_text())
    assert manifest["name"] == "artibot-memory"
    assert (folder / manifest["contextFileName"]).is_file()
    assert (folder / "bin" / "artibot-memory").resolve() == REPO / "bin" / "artibot-memory"
    assert (folder / "artibot_memory" / "plugin" / "agents.py").is_file()
    assert (folder / "skills" / "memory-management" / "SKILL.md").is_file()
    assert "hooks" not in manifest  # Gemini CLI reads hooks/hooks.json only


def test_the_readmes_cursor_lines_make_a_hooks_file_that_runs_our_hooks(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    [line] = re.findall(r"`(sed \"s#.*?hooks\.json)`", readme.replace("\n  ", " "))
    command = line.replace("/path/to/artibot-memory", str(REPO)).replace(
        "~/.cursor", str(tmp_path / ".cursor")
    )
    (tmp_path / ".cursor").mkdir()
    subprocess.run(command, shell=True, check=True)  # noqa: S602 - the README's line as written
    written = json.loads((tmp_path / ".cursor" / "hooks.json").read_text())
    assert written["version"] == 1
    [start] = written["hooks"]["sessionStart"]
    assert f'"{REPO}/bin/artibot-memory"' in start["command"]
    payload = json.dumps(first("cursor", "sessionStart")).encode()
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run(  # noqa: S602 - Cursor runs the command through a shell
        start["command"], shell=True, input=payload, capture_output=True, env=env, check=False
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.count(b"\n") <= 1


@pytest.mark.parametrize("agent", ["codex", "gemini", "cursor"])
def test_every_captured_payload_run_as_the_agent_runs_the_hook_exits_0_with_one_object_at_most(
    agent: str, tmp_path: Path
) -> None:
    name = agents.agent_of(agent)
    env = {**os.environ, "ARTIBOT_MEMORY_HOME": str(tmp_path / "memory"), "HOME": str(tmp_path)}
    for event, payload in captured(agent):
        done = subprocess.run(  # noqa: S603 - as the hooks files run it
            # python3 from PATH, as every agent runs it
            ["python3", "-S", str(REPO / "bin" / "artibot-memory"), "hook", event, "--agent", name],  # noqa: S607
            input=json.dumps(payload).encode(),
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert (done.returncode, done.stderr) == (0, b""), (event, done.stderr)
        out = done.stdout.decode()
        assert out.count("\n") <= 1, out
        assert not out or isinstance(json.loads(out), dict), out
