"""Prove the e2e harness: the fake API on its own, then the real CLI with a throwaway plugin.

The throwaway plugin (written into tmp_path, not our real plugin) has exec-form
python3 hooks: SessionStart injects MARKER-123 as additionalContext, and every
hook appends its stdin payload to a log named by an environment variable that
the harness passes through ``env_extra``.
"""

from __future__ import annotations

import json
import textwrap
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .fake_anthropic import FakeAnthropic, Turn, bash, text
from .harness import (
    ClaudeRun,
    claude_code_dir,
    claude_version,
    pinned_version,
    run_claude,
    validate_plugin,
)

pytestmark = pytest.mark.e2e

MARKER = "MARKER-123"
PAYLOAD_LOG_ENV = "E2E_PAYLOAD_LOG"

HOOK_SCRIPT = textwrap.dedent(
    f"""\
    import json, os, sys

    raw = sys.stdin.read()
    with open(os.environ["{PAYLOAD_LOG_ENV}"], "a", encoding="utf-8") as log:
        log.write(json.dumps(json.loads(raw)) + "\\n")
    if json.loads(raw).get("hook_event_name") == "SessionStart":
        print(json.dumps({{"hookSpecificOutput": {{
            "hookEventName": "SessionStart", "additionalContext": "{MARKER}"}}}}))
    """
)


# -- helpers ----------------------------------------------------------------------


def _exec_hook() -> dict[str, Any]:
    """An exec-form command hook running the recorder script with python3."""
    return {
        "type": "command",
        "command": "python3",
        "args": ["${CLAUDE_PLUGIN_ROOT}/hooks/record.py"],
        "timeout": 30,
    }


def write_throwaway_plugin(root: Path) -> Path:
    """Write a minimal plugin with SessionStart, PostToolUse and PostToolUseFailure hooks."""
    (root / ".claude-plugin").mkdir(parents=True)
    (root / "hooks").mkdir()
    manifest = {
        "name": "e2e-throwaway",
        "version": "0.0.1",
        "description": "Throwaway plugin that proves the end-to-end harness.",
        "author": {"name": "artibot-memory tests"},
        "license": "MIT",
    }
    hooks = {
        "SessionStart": [{"hooks": [_exec_hook()]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [_exec_hook()]}],
        "PostToolUseFailure": [{"matcher": "Bash", "hooks": [_exec_hook()]}],
    }
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest), encoding="utf-8")
    (root / "hooks" / "hooks.json").write_text(json.dumps({"hooks": hooks}), encoding="utf-8")
    (root / "hooks" / "record.py").write_text(HOOK_SCRIPT, encoding="utf-8")
    return root


def read_payloads(path: Path) -> list[dict[str, Any]]:
    """The hook payloads the recorder appended, in order."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def events_named(payloads: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The payloads of one hook event."""
    return [p for p in payloads if p.get("hook_event_name") == name]


def post(url: str, body: dict[str, Any]) -> tuple[str, str]:
    """POST JSON to the fake; return (content type, body text)."""
    request = urllib.request.Request(  # noqa: S310 - loopback fake only
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return response.headers.get("Content-Type", ""), response.read().decode()


def sse_data(stream: str) -> list[dict[str, Any]]:
    """The decoded ``data:`` payloads of an SSE body."""
    return [json.loads(line[5:]) for line in stream.splitlines() if line.startswith("data:")]


MAIN_BODY: dict[str, Any] = {
    "model": "claude-test",
    "max_tokens": 32000,
    "stream": True,
    "tools": [{"name": "Bash", "input_schema": {"type": "object"}}],
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "system", "content": [{"type": "text", "text": "a system entry"}]},
    ],
}


# -- the fake API alone (no CLI needed) ------------------------------------------------


def test_fake_streams_the_script_and_ignores_side_requests() -> None:
    script: list[Turn] = [bash("exit 3", "fail"), text("all good")]
    with FakeAnthropic(script) as fake:
        url = f"{fake.base_url}/v1/messages?beta=true"
        content_type, stream = post(url, MAIN_BODY)
        title = post(url, {"model": "m", "max_tokens": 100, "messages": MAIN_BODY["messages"]})
        _, other = post(f"{fake.base_url}/api/unknown", {})
        result = {"type": "tool_result", "tool_use_id": "toolu_x", "content": "Exit code 3"}
        answered = [*MAIN_BODY["messages"], {"role": "user", "content": [result]}]
        _, second = post(url, dict(MAIN_BODY, messages=answered))

    assert content_type.startswith("text/event-stream")
    events = sse_data(stream)
    assert [e["type"] for e in events] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert events[0]["message"]["model"] == "claude-test"
    assert events[1]["content_block"]["name"] == "Bash"
    tool_input = json.loads(events[2]["delta"]["partial_json"])
    assert tool_input == {"command": "exit 3", "description": "fail"}
    assert events[4]["delta"]["stop_reason"] == "tool_use"
    # A side request gets plain JSON and does not move the script on.
    assert title[0].startswith("application/json")
    assert json.loads(title[1])["content"] == [{"type": "text", "text": "Fake reply."}]
    assert json.loads(other) == {}
    assert sse_data(second)[2]["delta"] == {"type": "text_delta", "text": "all good"}
    assert [r.kind for r in fake.requests] == ["main", "side", "other", "main"]
    assert [r.step for r in fake.main_requests()] == [0, 1]
    assert fake.main_requests()[0].query == {"beta": ["true"]}
    assert fake.was_sent("a system entry")
    assert not fake.errors


def test_fake_answers_compaction_with_a_summary_that_keeps_the_step() -> None:
    instruction = {
        "type": "text",
        "text": "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.",
    }
    result = {"type": "tool_result", "tool_use_id": "toolu_x", "content": "a"}
    compact = dict(
        MAIN_BODY,
        stream=False,
        messages=[
            {"role": "user", "content": "run a"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_x", "name": "Bash", "input": {}}],
            },
            {"role": "user", "content": [result, instruction]},
        ],
    )
    with FakeAnthropic([bash("echo a"), bash("echo b")]) as fake:
        url = f"{fake.base_url}/v1/messages"
        summary = json.loads(post(url, compact)[1])["content"][0]["text"]
        after = [
            {"role": "user", "content": f"Continued. {summary}"},
            {"role": "user", "content": "go"},
        ]
        reply = json.loads(post(url, dict(MAIN_BODY, stream=False, messages=after))[1])

    assert summary.startswith("<summary>")
    assert "[fake-anthropic step 1]" in summary
    assert reply["content"][0]["input"]["command"] == "echo b"
    assert [r.kind for r in fake.requests] == ["compact", "main"]


# -- the real CLI --------------------------------------------------------------------


@dataclass
class ThrowawaySession:
    """Everything one test needs to run the CLI with the throwaway plugin."""

    claude_bin: Path
    fake: FakeAnthropic
    plugin: Path
    home: Path
    project: Path
    payload_log: Path

    def run(self, prompt: str, *extra_args: str) -> ClaudeRun:
        """Run ``claude -p`` and fail the test with diagnostics unless it exits 0."""
        return run_claude(
            prompt,
            plugin_dir=self.plugin,
            home=self.home,
            cwd=self.project,
            api_url=self.fake.base_url,
            env_extra={PAYLOAD_LOG_ENV: str(self.payload_log)},
            extra_args=extra_args,
            timeout=90,
            claude_bin=self.claude_bin,
        ).check()

    def payloads(self, event: str) -> list[dict[str, Any]]:
        """The recorded stdin payloads of one hook event."""
        return events_named(read_payloads(self.payload_log), event)


@pytest.fixture
def session(
    claude_bin: Path, fake_api: FakeAnthropic, tmp_path: Path, e2e_home: Path, e2e_project: Path
) -> ThrowawaySession:
    """A throwaway plugin, HOME and project wired to the fake API."""
    return ThrowawaySession(
        claude_bin=claude_bin,
        fake=fake_api,
        plugin=write_throwaway_plugin(tmp_path / "plugin"),
        home=e2e_home,
        project=e2e_project,
        payload_log=tmp_path / "payloads.jsonl",
    )


def test_claude_is_the_pinned_version(claude_bin: Path) -> None:
    installed = claude_code_dir()
    if installed is None or not claude_bin.is_relative_to(installed.resolve()):
        pytest.skip(f"{claude_bin} is not the copy pinned in tests/e2e/package.json")
    version = claude_version(claude_bin)
    assert version is not None
    assert version.split()[0] == pinned_version(), f"{claude_bin} reports {version}"


def test_plugin_validate_strict_passes(claude_bin: Path, tmp_path: Path, e2e_home: Path) -> None:
    plugin = write_throwaway_plugin(tmp_path / "plugin")
    done = validate_plugin(plugin, e2e_home, claude_bin=claude_bin)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Validation passed" in done.stdout


def test_session_runs_hooks_and_sends_their_context(session: ThrowawaySession) -> None:
    fake = session.fake
    fake.set_script(
        [
            bash("echo partial-out; echo oops >&2; exit 3", "Run a failing command"),
            bash("echo hello-out", "Run a passing command"),
            text("Both commands ran."),
        ]
    )
    run = session.run("Run the commands")

    # The SessionStart additionalContext reached the model.
    assert fake.was_sent(MARKER), fake.sent_text()[:2000]
    assert [r.step for r in fake.main_requests()] == [0, 1, 2]

    failures = session.payloads("PostToolUseFailure")
    successes = session.payloads("PostToolUse")
    assert len(failures) == 1, failures
    assert failures[0]["error"].startswith("Exit code 3"), failures[0]
    assert len(successes) == 1, successes
    assert "hello-out" in json.dumps(successes[0]["tool_response"])

    assert run.session_id is not None
    assert [p["session_id"] for p in session.payloads("SessionStart")] == [run.session_id]
    transcript = run.transcript_path()
    assert transcript is not None, run.describe()
    assert transcript.is_relative_to(session.home / ".claude" / "projects")
    assert run.result is not None
    assert run.result["result"] == "Both commands ran."


def test_resume_continues_the_script(session: ThrowawaySession) -> None:
    session.fake.set_script(
        [
            bash("echo first", "First"),
            text("First prompt done."),
            bash("echo second", "Second"),
            text("Second prompt done."),
        ]
    )
    first = session.run("one")
    assert first.session_id is not None
    second = session.run("two", "--resume", first.session_id)

    assert first.result is not None
    assert first.result["result"] == "First prompt done."
    assert second.result is not None
    assert second.result["result"] == "Second prompt done."
    assert [s["source"] for s in session.payloads("SessionStart")] == ["startup", "resume"]


def _alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_timeout_kills_claude_and_its_commands(session: ThrowawaySession) -> None:
    pid_file = session.project / "sleeper.pid"
    sleeper = (
        f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    )
    session.fake.set_script([bash(f'python3 -c "{sleeper}"', "Hang")])
    run = run_claude(
        "hang",
        plugin_dir=session.plugin,
        home=session.home,
        cwd=session.project,
        api_url=session.fake.base_url,
        env_extra={PAYLOAD_LOG_ENV: str(session.payload_log)},
        timeout=8,
        claude_bin=session.claude_bin,
    )
    assert run.timed_out
    assert not run.ok
    assert "timed out" in run.describe()
    if pid_file.exists():  # the command had started: it must be gone too
        pid = int(pid_file.read_text(encoding="utf-8"))
        deadline = time.monotonic() + 5
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid), f"sleeper {pid} survived the timeout"
