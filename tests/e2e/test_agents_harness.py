"""Prove the Codex CLI and Gemini CLI harness: the fakes alone, then each real CLI with a probe.

The probe hook (``agents.write_probe``), installed at user level for every event we map,
appends each hook's stdin payload to a log and answers SessionStart, the prompt event and
the after-tool event with an ``additionalContext`` marker. One session per agent runs a
failing, a silently failing and a succeeding shell command, writes a file, edits it, fails
an edit of a missing file and says text; the tests check that the hooks fired, that the
markers reached the model, that the run exited 0, and how a failure shows.

The same sessions give the fixtures in ``tests/fixtures/agents/`` (hook payloads, one
Codex rollout, one Gemini chat transcript; paths rewritten to ``/home/dev/...``). With
``ARTIBOT_CAPTURE_AGENT_FIXTURES=1`` they are written anew; otherwise the test checks that
the committed ones still have the shape the pinned CLIs produce.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import tempfile
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .agents import (
    agent_dir,
    agent_version,
    codex_sessions,
    codex_user_hooks,
    gemini_sessions,
    gemini_user_hooks,
    install_codex_plugin,
    install_gemini_extension,
    pinned_version,
    probe_command,
    probe_hooks,
    read_probe_log,
    require_agent,
    run_codex,
    run_gemini,
    wait_for_event,
    write_probe,
)
from .fake_gemini import NEXT_SPEAKER, FakeGemini
from .fake_openai import FakeOpenAI
from .scripted import DONE, EditFile, RecordedRequest, Say, Shell, Turn, WriteFile, run, say, steps

if TYPE_CHECKING:
    from collections.abc import Iterable

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "agents"
CAPTURE_ENV = "ARTIBOT_CAPTURE_AGENT_FIXTURES"
MARKER = "PROBE-CTX"
PROMPT = "Check the tools and tidy the notes"
DEV_HOME = "/home/dev"
ELIDE_OVER = 1500  # longer strings in a transcript are the agent's own instructions

FAILING = "ls /no/such/dir"
SILENT_FAILING = "python3 -c 'import sys; sys.exit(3)'"
PASSING = "echo hello-out"
FINAL = "All done."
SCRIPT: list[Turn] = [
    run(FAILING),
    run(SILENT_FAILING),
    run(PASSING),
    WriteFile("notes.txt", "alpha\nbeta\n"),
    EditFile("notes.txt", "beta", "gamma"),
    EditFile("missing.txt", "x", "y"),
    say(FINAL),
]

CODEX_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PreCompact",
    "Stop",
    "SessionEnd",
)
GEMINI_EVENTS = (
    "SessionStart",
    "BeforeAgent",
    "BeforeTool",
    "AfterTool",
    "PreCompress",
    "AfterAgent",
    "SessionEnd",
)
# Left out of the captured payloads: nothing of ours runs on them.
NOT_CAPTURED = frozenset({"PreToolUse", "BeforeTool"})


# -- the fakes alone (no CLI needed) ----------------------------------------------------


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> str:
    """POST JSON to a fake; the response body as text."""
    request = urllib.request.Request(  # noqa: S310 - loopback fake only
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return str(response.read().decode())


def sse_data(stream: str) -> list[dict[str, Any]]:
    """The decoded ``data:`` payloads of an SSE body."""
    return [json.loads(line[5:]) for line in stream.splitlines() if line.startswith("data:")]


def test_then_say_expands_into_a_call_and_a_reply() -> None:
    expanded = steps([run("make", then_say="Built."), EditFile("a", "b", "c"), say("Bye.")])
    assert expanded == [
        Shell("make", "Built."),
        Say("Built."),
        EditFile("a", "b", "c"),
        Say("Bye."),
    ]


def test_fake_openai_plays_the_script_per_conversation() -> None:
    tools = [
        {"type": "function", "name": "exec_command"},
        {"type": "custom", "name": "apply_patch"},
    ]
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}
    body: dict[str, Any] = {"model": "m", "stream": True, "tools": tools, "input": [user]}
    with FakeOpenAI([run("exit 3", then_say="It failed."), WriteFile("a.txt", "x\n")]) as fake:
        url = f"{fake.base_url}/responses"
        first = sse_data(post(url, body, {"Authorization": "Bearer secret"}))
        call = first[1]["item"]
        output = {"type": "function_call_output", "call_id": call["call_id"], "output": "code 3"}
        body["input"] += [call, output]
        said = sse_data(post(url, body))[1]["item"]
        body["input"].append(said)
        patch = sse_data(post(url, body))[1]["item"]
        body["input"] += [patch, {"type": "custom_tool_call_output", "call_id": "x", "output": ""}]
        last = sse_data(post(url, body))[1]["item"]
        other = post(f"{fake.origin}/v1/unknown", {})

    assert [e["type"] for e in first] == [
        "response.created",
        "response.output_item.done",
        "response.completed",
    ]
    assert (call["name"], json.loads(call["arguments"])) == ("exec_command", {"cmd": "exit 3"})
    assert said["content"][0]["text"] == "It failed."
    assert patch["type"] == "custom_tool_call"
    assert patch["input"] == "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"
    assert last["content"][0]["text"] == DONE
    assert json.loads(other) == {}
    assert [r.step for r in fake.main_requests()] == [0, 1, 2, 3]
    assert "authorization" not in fake.requests[0].headers
    assert not fake.errors


def test_fake_gemini_plays_the_script_and_answers_side_calls() -> None:
    user = {"role": "user", "parts": [{"text": "go"}]}
    body: dict[str, Any] = {"contents": [user]}
    with FakeGemini([run("exit 3"), EditFile("a.txt", "x", "y"), say("Fixed.")]) as fake:
        url = f"{fake.base_url}/v1beta/models/gemini-2.5-flash"
        stream = f"{url}:streamGenerateContent?alt=sse"
        call = sse_data(post(stream, body, {"x-goog-api-key": "secret"}))[0]
        part = call["candidates"][0]["content"]["parts"][0]
        answer = {"functionResponse": {"name": "run_shell_command", "response": {"output": "3"}}}
        body["contents"] += [call["candidates"][0]["content"], {"role": "user", "parts": [answer]}]
        side = dict(body, generationConfig={"responseJsonSchema": {"type": "object"}})
        speaker = json.loads(post(f"{url}:generateContent", side))
        edit = sse_data(post(stream, body))[0]["candidates"][0]["content"]["parts"][0]
        tokens = json.loads(post(f"{url}:countTokens", body))

    assert part["functionCall"]["name"] == "run_shell_command"
    assert part["functionCall"]["args"]["command"] == "exit 3"
    assert json.loads(speaker["candidates"][0]["content"]["parts"][0]["text"]) == NEXT_SPEAKER
    assert edit["functionCall"]["name"] == "replace"
    assert {"file_path", "old_string", "new_string", "instruction"} <= set(
        edit["functionCall"]["args"]
    )
    assert tokens == {"totalTokens": 100}
    assert [(r.kind, r.step) for r in fake.requests] == [
        ("main", 0),
        ("side", None),
        ("main", 1),
        ("other", None),
    ]
    assert "x-goog-api-key" not in fake.requests[0].headers
    assert not fake.errors


# -- one real session per agent ---------------------------------------------------------


@dataclass
class World:
    """An isolated world under one temporary folder: HOME, project, memory home, probe."""

    base: Path

    @property
    def home(self) -> Path:
        return self.base / "home"

    @property
    def project(self) -> Path:
        return self.base / "project"

    @property
    def log(self) -> Path:
        return self.base / "probe.jsonl"

    @property
    def env(self) -> dict[str, str]:
        """What every run gets on top of the isolated environment."""
        return {"ARTIBOT_MEMORY_HOME": str(self.base / "memory-home")}

    def probe(self) -> str:
        """Write the probe script; the hook command that runs it."""
        return probe_command(write_probe(self.base / "probe.py"), self.log, MARKER)

    def rewrites(self) -> list[tuple[str, str]]:
        """(this machine's text, what the fixtures say instead), longest first."""
        pairs: dict[str, str] = {}
        for real, shown in (
            (self.home, DEV_HOME),
            (self.project, f"{DEV_HOME}/project"),
            (self.base, f"{DEV_HOME}/world"),
        ):
            for variant in {str(real), os.path.realpath(real)}:
                pairs[variant] = shown
                # Gemini CLI names a project by the SHA-256 of its folder.
                pairs[sha256(variant)] = sha256(shown)
        return sorted(pairs.items(), key=lambda pair: -len(pair[0]))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Session:
    """What one probe session left: the run, the requests, the hook records, the transcript."""

    world: World
    ok: bool
    describe: str
    stdout: str
    duration: float
    requests: list[RecordedRequest]
    records: list[dict[str, Any]]
    transcripts: list[Path] = field(default_factory=list)

    def payloads(self, event: str, tool: str | None = None) -> list[dict[str, Any]]:
        """The payloads of one event (of one tool), in order."""
        return [
            r["payload"]
            for r in self.records
            if r["event"] == event and (tool is None or r["payload"].get("tool_name") == tool)
        ]

    def events(self) -> set[str]:
        return {str(r["event"]) for r in self.records}

    def tool_payload(self, event: str, command: str) -> dict[str, Any]:
        """The one payload of ``event`` for the shell command ``command``."""
        found = [
            p for p in self.payloads(event) if p.get("tool_input", {}).get("command") == command
        ]
        assert len(found) == 1, found
        return found[0]


@pytest.fixture(scope="module")
def codex_session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    """One Codex session of SCRIPT with the probe on every event (run once per module)."""
    binary = require_agent("codex")
    world = World(tmp_path_factory.mktemp("codex-world"))
    codex_home = world.home / ".codex"
    codex_user_hooks(codex_home, probe_hooks(world.probe(), CODEX_EVENTS, timeout=10))
    with FakeOpenAI(SCRIPT) as fake:
        result = run_codex(
            PROMPT,
            world.project,
            codex_home=codex_home,
            env=world.env,
            server=fake,
            home=world.home,
            codex_bin=binary,
        )
    assert not fake.errors, fake.errors
    return Session(
        world=world,
        ok=result.ok,
        describe=result.describe(),
        stdout=result.stdout,
        duration=result.duration,
        requests=fake.main_requests(),
        records=wait_for_event(world.log, "SessionEnd"),
        transcripts=codex_sessions(codex_home),
    )


@pytest.fixture(scope="module")
def gemini_session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    """One Gemini CLI session of SCRIPT with the probe on every event (run once per module)."""
    binary = require_agent("gemini")
    world = World(tmp_path_factory.mktemp("gemini-world"))
    gemini_user_hooks(world.home, probe_hooks(world.probe(), GEMINI_EVENTS, timeout=10000))
    with FakeGemini(SCRIPT) as fake:
        result = run_gemini(
            PROMPT,
            world.project,
            gemini_cli_home=world.home,
            env=world.env,
            server=fake,
            gemini_bin=binary,
        )
    assert not fake.errors, fake.errors
    return Session(
        world=world,
        ok=result.ok,
        describe=result.describe(),
        stdout=result.stdout,
        duration=result.duration,
        requests=fake.main_requests(),
        records=wait_for_event(world.log, "SessionEnd"),
        transcripts=gemini_sessions(world.home),
    )


def check_ran_the_script(session: Session) -> None:
    """The run exited 0, asked for every step once, said FINAL and edited the file."""
    assert session.ok, session.describe
    assert [r.step for r in session.requests] == list(range(len(steps(SCRIPT)))), session.describe
    assert FINAL in session.stdout
    assert (session.world.project / "notes.txt").read_text(encoding="utf-8") == "alpha\ngamma\n"
    assert len({r["payload"]["session_id"] for r in session.records}) == 1
    assert all(
        r["env"].get("ARTIBOT_MEMORY_HOME") == session.world.env["ARTIBOT_MEMORY_HOME"]
        for r in session.records
    )


def test_agents_are_the_pinned_versions() -> None:
    for tool in ("codex", "gemini"):
        binary = require_agent(tool)
        installed = agent_dir(tool)
        if installed is None or not binary.is_relative_to(installed):
            continue  # $ARTIBOT_<TOOL>_BIN or PATH: whatever the developer chose
        assert agent_version(binary) == pinned_version(tool), binary


# -- Codex CLI ---------------------------------------------------------------------------


def test_codex_session_runs_the_script(codex_session: Session) -> None:
    check_ran_the_script(codex_session)


def test_codex_hooks_fire_on_every_mapped_event(codex_session: Session) -> None:
    session = codex_session
    assert {"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"} <= (
        session.events()
    ), session.describe
    assert [p["prompt"] for p in session.payloads("UserPromptSubmit")] == [PROMPT]
    assert [p["tool_name"] for p in session.payloads("PostToolUse")] == [
        "Bash",
        "Bash",
        "Bash",
        "apply_patch",
        "apply_patch",  # the failed patch of missing.txt fires no PostToolUse
    ]
    assert session.payloads("SessionEnd")[0]["reason"] == "other"


def test_codex_sends_hook_context_as_developer_messages(codex_session: Session) -> None:
    last = codex_session.requests[-1].body
    developer = [
        part.get("text")
        for item in last["input"]
        if item.get("role") == "developer"
        for part in item["content"]
    ]
    for event in ("SessionStart", "UserPromptSubmit", "PostToolUse"):
        assert f"{MARKER}-{event}" in developer, event


def test_codex_tells_a_failed_command_only_by_its_output(codex_session: Session) -> None:
    failed = codex_session.tool_payload("PostToolUse", FAILING)
    silent = codex_session.tool_payload("PostToolUse", SILENT_FAILING)
    passed = codex_session.tool_payload("PostToolUse", PASSING)
    assert (
        failed["tool_response"] == f"ls: cannot access '{FAILING[3:]}': No such file or directory\n"
    )
    assert silent["tool_response"] == ""
    assert passed["tool_response"] == "hello-out\n"
    assert set(failed) == set(passed)  # no exit code, no error field
    # The exit code is in the rollout (transcript_path), keyed by tool_use_id.
    exits = rollout_exit_codes(Path(failed["transcript_path"]))
    assert exits[failed["tool_use_id"]] == 2
    assert exits[silent["tool_use_id"]] == 3
    assert exits[passed["tool_use_id"]] == 0


def rollout_exit_codes(rollout: Path) -> dict[str, int]:
    """``{call id: exit code}`` of the commands a Codex rollout records."""
    codes: dict[str, int] = {}
    for line in rollout.read_text(encoding="utf-8").splitlines():
        item = json.loads(line).get("payload", {}).get("item")
        if isinstance(item, dict) and item.get("type") == "CommandExecution":
            codes[str(item["id"])] = int(item["exit_code"])
    return codes


def test_codex_captures(codex_session: Session) -> None:
    check_or_write_captures(codex_session, "codex", "captured-codex-rollout.jsonl")


# -- Gemini CLI --------------------------------------------------------------------------


def test_gemini_session_runs_the_script(gemini_session: Session) -> None:
    check_ran_the_script(gemini_session)


def test_gemini_hooks_fire_on_every_mapped_event(gemini_session: Session) -> None:
    session = gemini_session
    assert {"SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "SessionEnd"} <= (
        session.events()
    ), session.describe
    prompts = [p["prompt"] for p in session.payloads("BeforeAgent")]
    assert prompts == [f"<hook_context>{MARKER}-SessionStart</hook_context>\n\n{PROMPT}"]
    assert [p["tool_name"] for p in session.payloads("AfterTool")] == [
        "run_shell_command",
        "run_shell_command",
        "run_shell_command",
        "write_file",
        "replace",
        "replace",
    ]
    assert session.payloads("SessionEnd")[0]["reason"] == "exit"


def test_gemini_sends_hook_context_in_the_user_turn(gemini_session: Session) -> None:
    first, last = gemini_session.requests[0].body, gemini_session.requests[-1].body
    texts = [part.get("text") for part in first["contents"][-1]["parts"]]
    assert f"<hook_context>{MARKER}-SessionStart</hook_context>\n\n{PROMPT}" in texts
    assert f"<hook_context>{MARKER}-BeforeAgent</hook_context>" in texts
    answers = [
        json.dumps(part["functionResponse"])
        for content in last["contents"]
        for part in content["parts"]
        if "functionResponse" in part
    ]
    assert f"{MARKER}-AfterTool" in answers[0]


def test_gemini_tells_a_failed_command_by_its_exit_code_line(gemini_session: Session) -> None:
    failed = gemini_session.tool_payload("AfterTool", FAILING)["tool_response"]
    silent = gemini_session.tool_payload("AfterTool", SILENT_FAILING)["tool_response"]
    passed = gemini_session.tool_payload("AfterTool", PASSING)["tool_response"]
    assert "\nExit Code: 2\n" in failed["llmContent"]
    assert "No such file or directory" in failed["returnDisplay"]
    assert "Output: (empty)\nExit Code: 3\n" in silent["llmContent"]
    assert silent["returnDisplay"] == "Command exited with code: 3"
    assert "Exit Code" not in passed["llmContent"]
    assert passed["returnDisplay"] == "hello-out"
    assert "error" not in failed  # a failed command is no tool error
    missing = gemini_session.payloads("AfterTool", "replace")[-1]["tool_response"]
    assert missing["error"]["type"] == "file_not_found"


def test_gemini_captures(gemini_session: Session) -> None:
    check_or_write_captures(gemini_session, "gemini", "captured-gemini-session.jsonl")


# -- installing a plugin (a throwaway one named like ours) ---------------------------------


def write_throwaway_plugin(root: Path, command: str) -> Path:
    """A folder that is both a Codex marketplace + plugin and a Gemini extension.

    Named ``artibot-memory`` like ours, so the install helpers run their real commands;
    its only hook (SessionStart) runs ``command``.
    """
    manifest = {"name": "artibot-memory", "version": "0.0.1", "description": "Throwaway."}
    entry = {
        "name": "artibot-memory",
        "source": {"source": "local", "path": "./"},
        "policy": {"installation": "AVAILABLE"},
    }
    files: dict[str, Any] = {
        ".codex-plugin/plugin.json": {**manifest, "hooks": "./hooks/codex.json"},
        ".agents/plugins/marketplace.json": {"name": "artibot-memory", "plugins": [entry]},
        "hooks/codex.json": {"hooks": probe_hooks(command, ["SessionStart"], timeout=10)},
        "gemini-extension.json": manifest,
        "hooks/hooks.json": {"hooks": probe_hooks(command, ["SessionStart"], timeout=10000)},
    }
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(json.dumps(content), encoding="utf-8")
    return root


def test_install_codex_plugin_installs_a_plugin_whose_hooks_run(tmp_path: Path) -> None:
    binary = require_agent("codex")
    world = World(tmp_path)
    plugin = write_throwaway_plugin(tmp_path / "plugin", world.probe())
    codex_home = world.home / ".codex"
    for step in install_codex_plugin(codex_home, plugin, home=world.home, codex_bin=binary):
        step.check()
    with FakeOpenAI([say(FINAL)]) as fake:
        run_codex(
            PROMPT,
            world.project,
            codex_home=codex_home,
            env=world.env,
            server=fake,
            home=world.home,
            codex_bin=binary,
        ).check()
    assert fake.was_sent(f"{MARKER}-SessionStart")
    (record,) = read_probe_log(world.log)
    assert Path(record["env"]["PLUGIN_ROOT"]).is_relative_to(codex_home / "plugins" / "cache")


def test_install_gemini_extension_installs_an_extension_whose_hooks_run(tmp_path: Path) -> None:
    binary = require_agent("gemini")
    world = World(tmp_path)
    extension = write_throwaway_plugin(tmp_path / "extension", world.probe())
    for step in install_gemini_extension(world.home, extension, gemini_bin=binary):
        step.check()
    assert (world.home / ".gemini" / "extensions" / "artibot-memory").is_dir()
    with FakeGemini([say(FINAL)]) as fake:
        run_gemini(
            PROMPT,
            world.project,
            gemini_cli_home=world.home,
            env=world.env,
            server=fake,
            gemini_bin=binary,
        ).check()
    assert fake.was_sent(f"{MARKER}-SessionStart")
    assert [r["event"] for r in read_probe_log(world.log)] == ["SessionStart"]


# -- the captured fixtures -----------------------------------------------------------------


def scrub(value: Any, rewrites: list[tuple[str, str]]) -> Any:
    """``value`` with this machine's paths rewritten and the agents' long texts elided."""
    if isinstance(value, str):
        if len(value) > ELIDE_OVER:
            return f"[elided: {len(value)} characters of the agent's own instructions]"
        for real, shown in rewrites:
            value = value.replace(real, shown)
        return value
    if isinstance(value, dict):
        return {scrub(k, rewrites): scrub(v, rewrites) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, rewrites) for v in value]
    return value


def captured_payloads(session: Session) -> list[dict[str, Any]]:
    """The probe's records as fixture lines: ``{"event", "payload"}``, one PreCompress."""
    lines: list[dict[str, Any]] = []
    for record in session.records:
        event = record["event"]
        repeated = any(line["event"] == event == "PreCompress" for line in lines)
        if event in NOT_CAPTURED or repeated:
            continue
        payload = scrub(record["payload"], session.world.rewrites())
        lines.append({"event": event, "payload": payload})
    return lines


def captured_transcript(session: Session) -> list[Any]:
    """The session's one transcript, scrubbed, one JSON value per line."""
    assert len(session.transcripts) == 1, session.transcripts
    text = session.transcripts[0].read_text(encoding="utf-8")
    return [scrub(json.loads(line), session.world.rewrites()) for line in text.splitlines() if line]


def payload_shape(lines: Iterable[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What must not drift: per line, the event, tool and keys of payload and response."""
    shape = []
    for line in lines:
        payload = line["payload"]
        response = payload.get("tool_response")
        kind = sorted(response) if isinstance(response, dict) else type(response).__name__
        shape.append((line["event"], payload.get("tool_name"), sorted(payload), kind))
    return shape


def transcript_kinds(lines: Iterable[Any]) -> set[str]:
    """The kinds of record a transcript holds (rollout ``type/payload.type``, chat ``type``)."""
    kinds = set()
    for line in lines:
        payload = line.get("payload") if isinstance(line.get("payload"), dict) else {}
        kinds.add(f"{line.get('type', next(iter(line)))}/{payload.get('type', '')}")
    return kinds


def leftovers(text: str, world: World) -> list[str]:
    """Anything of this machine still in a fixture's text: its paths, its host name."""
    paths = {str(world.base), os.path.realpath(world.base), str(Path.home()), tempfile.gettempdir()}
    found = re.findall(rf"\b{re.escape(socket.gethostname())}\b", text)
    for path in sorted(paths):
        # A path, not a word that ends like one ("</root>", Gemini's own ".gemini/tmp/").
        found += re.findall(rf"(?<![\w.<-]){re.escape(path)}(?![\w.-])\S*", text)
    return found


def check_or_write_captures(session: Session, agent: str, transcript_name: str) -> None:
    """Write the fixtures (``ARTIBOT_CAPTURE_AGENT_FIXTURES=1``) or check they still fit."""
    assert session.ok, session.describe
    payloads = captured_payloads(session)
    transcript = captured_transcript(session)
    payload_file = FIXTURES / f"captured-{agent}-hook-payloads.jsonl"
    transcript_file = FIXTURES / transcript_name
    for lines, path in ((payloads, payload_file), (transcript, transcript_file)):
        text = "".join(json.dumps(line) + "\n" for line in lines)
        assert not leftovers(text, session.world), leftovers(text, session.world)
        if os.environ.get(CAPTURE_ENV) == "1":
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    committed = read_jsonl(payload_file)
    assert payload_shape(committed) == payload_shape(payloads), (
        f"{payload_file.name} no longer matches the pinned {agent}; rewrite it with {CAPTURE_ENV}=1"
    )
    assert transcript_kinds(read_jsonl(transcript_file)) == transcript_kinds(transcript), (
        f"{transcript_name} no longer matches the pinned {agent}; rewrite it with {CAPTURE_ENV}=1"
    )


def read_jsonl(path: Path) -> list[Any]:
    """The JSON values of a fixture, one per line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
