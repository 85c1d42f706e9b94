from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from platformdirs import user_data_dir

from artibot_memory.capture import hooklog, journal
from artibot_memory.core import venv
from artibot_memory.core.paths import fallback_data_dir
from artibot_memory.plugin import bootstrap, entry, fast
from artibot_memory.recall import known_errors
from artibot_memory.text.signature import error_signature

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "bin" / "artibot-memory"
FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
HOOK_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "SessionEnd",
)


def captured_payloads() -> list[Any]:
    """Every payload Claude Code 2.1.332 sent in the captured sessions, by event."""
    params = []
    for name in ("hook_payloads_run1.jsonl", "hook_payloads_resume_compact.jsonl"):
        for number, line in enumerate((FIXTURES / name).read_text().splitlines()):
            payload = json.loads(line)["stdin"]
            event = payload["hook_event_name"]
            params.append(pytest.param(event, payload, id=f"{name.split('.')[0]}-{number}-{event}"))
    return params


def run_entry(event: str, stdin: bytes, *flags: str) -> subprocess.CompletedProcess[bytes]:
    """Run bin/artibot-memory as Claude Code does: a fresh process, payload on stdin."""
    env = {k: v for k, v in os.environ.items() if k not in (venv.DATA_ENV, venv.RELAYED_ENV)}
    argv = [sys.executable, *flags, str(ENTRY), "hook", event]
    return subprocess.run(  # noqa: S603 - our own entry script
        argv, input=stdin, capture_output=True, env=env, timeout=60, check=False
    )


def assert_hook_contract(done: subprocess.CompletedProcess[bytes]) -> dict[str, Any] | None:
    """Exit 0, nothing on stderr, and nothing or exactly one JSON object on stdout."""
    assert done.returncode == 0
    assert done.stderr == b""
    if not done.stdout.strip():
        return None
    output = json.loads(done.stdout)
    assert isinstance(output, dict)
    assert done.stdout.count(b"\n") == 1
    return output


@pytest.mark.parametrize(("event", "payload"), captured_payloads())
def test_every_captured_payload_keeps_the_hook_contract(
    event: str, payload: dict[str, Any]
) -> None:
    flags = ("-S",) if event in fast.FAST_EVENTS else ()
    assert_hook_contract(run_entry(event, json.dumps(payload).encode(), *flags))


@pytest.mark.parametrize(
    ("event", "stdin"),
    [
        pytest.param("PostToolUse", b"", id="empty"),
        pytest.param("PostToolUse", b"\x00\xff garbage {", id="garbage"),
        pytest.param("PostToolUseFailure", b"[1, 2, 3]", id="json-not-an-object"),
        pytest.param("PostToolUse", b"[" * 200_000, id="deeply-nested"),
        pytest.param(
            "PostToolUse",
            b'{"tool_name": "Bash", "x": "' + b"a" * 2 * 1024 * 1024 + b'"}',
            id="2-MiB",
        ),
        pytest.param("NoSuchEvent", b"{}", id="unknown-event"),
        pytest.param("", b"{}", id="no-event"),
        pytest.param("SessionEnd", b"not json", id="full-event-garbage"),
    ],
)
def test_bad_input_never_breaks_the_hook_contract(event: str, stdin: bytes) -> None:
    assert_hook_contract(run_entry(event, stdin))


def test_a_known_error_comes_back_as_one_json_object(memory_home: Path) -> None:
    error = "Exit code 1\nModuleNotFoundError: No module named 'yaml'"
    entry = {
        "id": "err-1",
        "type": "error",
        "signature": error_signature(error),
        "resolution": "pip install pyyaml",
        "last_seen": "2026-11-12T10:00:00Z",
    }
    memory_home.mkdir(parents=True)
    document = {"schema_version": 1, "entries": [entry]}
    (memory_home / known_errors.ERROR_STORE).write_text(json.dumps(document))
    payload = {"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "error": error}
    output = assert_hook_contract(
        run_entry("PostToolUseFailure", json.dumps(payload).encode(), "-S")
    )
    assert output is not None
    assert "pip install pyyaml" in output["hookSpecificOutput"]["additionalContext"]


def test_a_failing_handler_is_logged_redacted_and_silent(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"

    def broken(*_: object) -> None:
        sys.stderr.write("noise on stderr\n")
        message = f"token {secret} rejected"
        raise ValueError(message)

    monkeypatch.setattr(fast, "handle", broken)
    assert entry.run_hook("PostToolUse", b"{}") == 0
    out, err = capsys.readouterr()
    assert (out, err) == ("", "")
    log = (memory_home / "logs" / hooklog.LOG_NAME).read_text()
    assert "ValueError: token" in log
    assert "noise on stderr" in log
    assert "Traceback" in log
    assert secret not in log


@pytest.mark.parametrize("output", [["a list"], "text", 42, {"bad": {1, 2}}])
def test_an_output_that_is_not_a_json_object_prints_nothing(
    output: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(fast, "handle", lambda *_: output)
    assert entry.run_hook("PostToolUse", b"{}") == 0
    assert capsys.readouterr() == ("", "")


def test_the_hook_log_rotates_when_it_grows_too_big(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hooklog, "LOG_MAX_BYTES", 1_000)
    for number in range(40):
        hooklog.write_log(f"entry {number} " + "x" * 100)
    logs = memory_home / "logs"
    assert (logs / "hooks.log.1").exists()
    assert (logs / "hooks.log").stat().st_size < 1_000 + hooklog.LOG_ENTRY_CHARS


def test_stdin_is_capped_at_one_mib_and_the_rest_drained() -> None:
    class Pipe(io.TextIOWrapper):
        def isatty(self) -> bool:
            return False

    raw = io.BytesIO(b"x" * (3 * entry.MAX_STDIN_BYTES))
    stdin = Pipe(raw)
    data = entry.read_stdin(stdin)
    assert len(data) == entry.MAX_STDIN_BYTES
    assert raw.tell() == 3 * entry.MAX_STDIN_BYTES


# ---- without the runtime dependencies: venv relay, background install, deferred capture


@pytest.fixture
def no_dependencies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``artibot_memory.lifecycle`` and ``.cli`` fail to import as if pydantic were missing."""
    monkeypatch.setitem(sys.modules, "artibot_memory.lifecycle", None)
    monkeypatch.setitem(sys.modules, "artibot_memory.cli.app", None)
    monkeypatch.setattr(bootstrap, "missing_modules", lambda: ["pydantic"])
    monkeypatch.delenv(venv.RELAYED_ENV, raising=False)


@pytest.fixture
def plugin_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "plugin-data"
    monkeypatch.setenv(venv.DATA_ENV, str(data))
    return data


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record the detached builds started instead of starting them."""
    calls: list[list[str]] = []

    def fake_popen(argv: list[str], **options: Any) -> None:
        assert options["start_new_session"] is True
        assert options["stdout"] == options["stderr"] == subprocess.DEVNULL
        calls.append(argv)

    monkeypatch.setattr(subprocess, "Popen", fake_popen)
    return calls


def make_ready(data: Path, digest: str | None = None) -> str:
    python = Path(venv.venv_python(data))
    python.parent.mkdir(parents=True)
    python.write_text("")
    marker = data / "venv" / venv.MARKER_NAME
    marker.write_text((digest or venv.requirements_digest() or "") + "\n")
    return str(python)


def run_event(
    event: str, payload: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> dict[str, Any] | None:
    assert entry.run_hook(event, json.dumps(payload).encode()) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out) if out else None


@pytest.mark.usefixtures("no_dependencies")
def test_session_start_without_dependencies_starts_one_background_install(
    plugin_data: Path, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    first = run_event("SessionStart", {"session_id": "s1", "source": "startup"}, capsys)
    second = run_event("SessionStart", {"session_id": "s2", "source": "startup"}, capsys)
    # The second session, started while the first one's build runs, is told so (issue 11).
    assert first == {"systemMessage": bootstrap.INSTALLING_MESSAGE}
    assert second is not None
    assert second["systemMessage"].startswith("artibot-memory: still installing")
    assert len(started) == 1
    assert started[0][-1] == str(plugin_data)
    assert [r["session_id"] for r in journal.drain()] == ["s1", "s2"]


@pytest.mark.usefixtures("no_dependencies")
def test_a_dead_installers_lock_does_not_block_a_new_install(
    plugin_data: Path, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    plugin_data.mkdir()
    lock = plugin_data / venv.LOCK_NAME
    lock.write_text("12345\n")
    old = lock.stat().st_mtime - venv.LOCK_STALE_SECONDS - 60
    os.utime(lock, (old, old))
    run_event("SessionStart", {}, capsys)
    assert len(started) == 1


@pytest.mark.usefixtures("no_dependencies")
def test_a_recent_failed_install_is_reported_not_retried(
    plugin_data: Path, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    plugin_data.mkdir()
    (plugin_data / venv.FAILED_NAME).write_text(venv.stamped("no network"))
    output = run_event("SessionStart", {}, capsys)
    assert output is not None
    assert "failed" in output["systemMessage"]
    assert started == []


@pytest.mark.parametrize(
    ("event", "payload", "kept"),
    [
        pytest.param("UserPromptSubmit", {"prompt": "always use pnpm"}, "prompt", id="prompt"),
        pytest.param(
            "SessionEnd",
            {"transcript_path": "/t.jsonl", "reason": "other"},
            "transcript_path",
            id="session-end",
        ),
    ],
)
@pytest.mark.usefixtures("no_dependencies", "plugin_data")
def test_other_events_without_dependencies_are_journaled_for_later(
    event: str,
    payload: dict[str, Any],
    kept: str,
    started: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_event(event, payload, capsys) is None
    [record] = journal.drain()
    assert record["deferred"] is True
    assert record[kept] == payload[kept]
    # A session end always starts the detached ingest worker (which, without the
    # dependencies, leaves the journal for the next session); a prompt starts nothing.
    workers = [argv for argv in started if argv[-1:] == ["ingest"]]
    assert len(workers) == (1 if event == "SessionEnd" else 0)
    assert [argv for argv in started if argv not in workers] == []


@pytest.mark.usefixtures("no_dependencies")
def test_without_plugin_data_session_start_says_nothing(
    monkeypatch: pytest.MonkeyPatch, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    assert run_event("SessionStart", {}, capsys) is None
    assert started == []


@pytest.mark.usefixtures("no_dependencies")
def test_a_ready_venv_reruns_the_hook_with_the_same_payload(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    python = make_ready(plugin_data)
    calls: list[tuple[Any, ...]] = []

    def fake_run(argv: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append((argv, options["input"], options["timeout"], options["env"][venv.RELAYED_ENV]))
        return subprocess.CompletedProcess(argv, 0, b'{"systemMessage": "from the venv"}\n', b"")

    monkeypatch.setattr(subprocess, "run", fake_run)
    raw = json.dumps({"session_id": "s1", "prompt": "I prefer pnpm over npm"}).encode()
    assert entry.run_hook("UserPromptSubmit", raw) == 0
    assert json.loads(capsys.readouterr().out) == {"systemMessage": "from the venv"}
    [(argv, stdin, timeout, relayed)] = calls
    assert argv == [str(python), str(ENTRY), "hook", "UserPromptSubmit"]
    assert json.loads(stdin) == {**json.loads(raw), "agent": "claude-code"}
    assert timeout < 10
    assert relayed == "1"
    assert journal.drain() == []


@pytest.mark.usefixtures("no_dependencies")
def test_a_venv_built_from_other_requirements_is_rebuilt(
    plugin_data: Path, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    make_ready(plugin_data, digest="0" * 64)
    assert not venv.is_ready(plugin_data)
    run_event("SessionStart", {}, capsys)
    assert len(started) == 1


@pytest.mark.usefixtures("no_dependencies")
def test_a_hook_already_running_in_the_venv_never_relays_again(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_ready(plugin_data)
    assert venv.ready_python() == venv.venv_python(plugin_data)
    monkeypatch.setenv(venv.RELAYED_ENV, "1")
    assert venv.ready_python() is None


@pytest.mark.usefixtures("plugin_data")
def test_a_broken_module_of_ours_is_logged_not_mistaken_for_missing_dependencies(
    memory_home: Path,
    started: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, "artibot_memory.lifecycle", None)
    prompt = {"session_id": "s1", "prompt": "From now on, always use pnpm instead of npm."}
    assert run_event("UserPromptSubmit", prompt, capsys) is None  # a preference: the full path
    assert started == []
    assert "artibot_memory.lifecycle" in (memory_home / "logs" / hooklog.LOG_NAME).read_text()
    assert [r["event"] for r in journal.drain()] == ["UserPromptSubmit"]


@pytest.mark.usefixtures("no_dependencies")
def test_the_cli_without_dependencies_names_the_missing_package(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/nonexistent")
    assert entry.main(["search", "pnpm"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert "'pydantic'" in err
    # Not `pip install artibot-memory`, which no index has (issue 11): a command that works.
    assert f"-m pip install -e {ROOT}" in err


def test_without_the_writers_a_read_runs_here_and_a_write_names_the_missing_package(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import artibot_memory.cli  # noqa: PLC0415

    monkeypatch.setitem(sys.modules, "artibot_memory.cli.verbs", None)  # as if orjson were missing
    monkeypatch.delattr(artibot_memory.cli, "verbs")
    monkeypatch.setattr(bootstrap, "missing_modules", lambda: ["orjson"])
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    monkeypatch.delenv(venv.RELAYED_ENV, raising=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/nonexistent")
    assert entry.main(["search", "pnpm"]) == 0  # reads need no dependency
    assert capsys.readouterr() == ("", "")
    assert entry.main(["save", "preference", "Use pnpm"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert "orjson" in err


@pytest.mark.usefixtures("no_dependencies")
def test_the_cli_finds_the_plugin_venv_from_the_bash_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    python = make_ready(tmp_path / "claude" / "plugins" / "data" / "artibot-memory-market")
    execs: list[tuple[object, ...]] = []
    monkeypatch.setattr("artibot_memory.plugin.entry.os.execv", lambda *call: execs.append(call))
    entry.main(["list", "--json"])
    assert execs == [(python, [str(python), str(ENTRY), "list", "--json"])]
    assert os.environ[venv.RELAYED_ENV] == "1"


def test_a_successful_build_writes_the_ready_marker_and_frees_the_lock(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[list[str]] = []

    def step(command: list[str], _log: object) -> None:
        steps.append(command)
        (plugin_data / "venv").mkdir(exist_ok=True)

    monkeypatch.setattr(venv, "_runs", lambda _python: False)
    monkeypatch.setattr(venv, "_step", step)
    plugin_data.mkdir()
    (plugin_data / venv.LOCK_NAME).write_text("1\n")
    assert venv.main([str(plugin_data)]) == 0
    assert [step[1:3] for step in steps] == [["-m", "venv"], ["-m", "pip"]]
    assert (
        plugin_data / "venv" / venv.MARKER_NAME
    ).read_text().strip() == venv.requirements_digest()
    assert not (plugin_data / venv.LOCK_NAME).exists()


def test_a_failed_build_leaves_no_marker_and_records_the_failure(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(command: list[str], _log: object) -> None:
        raise subprocess.CalledProcessError(1, command)

    monkeypatch.setattr(venv, "_runs", lambda _python: True)
    monkeypatch.setattr(venv, "_step", failing)
    plugin_data.mkdir()
    assert venv.main([str(plugin_data)]) == 1
    assert not (plugin_data / "venv" / venv.MARKER_NAME).exists()
    assert (plugin_data / venv.FAILED_NAME).exists()
    assert "failed" in (plugin_data / venv.LOG_NAME).read_text()


@pytest.mark.slow
def test_a_real_build_makes_a_venv_the_launcher_accepts(
    tmp_path: Path, plugin_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("# nothing to download: pip and venv run for real, offline\n")
    monkeypatch.setattr(venv, "REQUIREMENTS", str(requirements))
    plugin_data.mkdir()
    assert venv.build(plugin_data), (plugin_data / venv.LOG_NAME).read_text()
    assert venv.is_ready(plugin_data)


# ---- the plugin files


def load_json(relative: str) -> Any:
    return json.loads((ROOT / relative).read_text())


def project_table() -> dict[str, Any]:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project


def test_hooks_json_runs_the_entry_in_exec_form_with_timeouts_in_seconds() -> None:
    hooks = load_json("hooks/hooks.json")["hooks"]
    assert set(hooks) == set(HOOK_EVENTS)
    for event, groups in hooks.items():
        [group] = groups
        [hook] = group["hooks"]
        assert hook["type"] == "command"
        assert hook["command"] == "python3"
        assert hook["args"][-3:] == ["${CLAUDE_PLUGIN_ROOT}/bin/artibot-memory", "hook", event]
        assert hook["args"][0] == "-S"  # every hook starts without site; full paths add it
        assert 1 <= hook["timeout"] <= 30


def test_the_entry_script_is_executable_by_any_python3() -> None:
    assert os.access(ENTRY, os.X_OK)
    assert ENTRY.read_text().startswith("#!/usr/bin/env python3\n")


def test_the_manifests_agree_on_name_and_version() -> None:
    plugin = load_json(".claude-plugin/plugin.json")
    market = load_json(".claude-plugin/marketplace.json")
    project = project_table()
    assert isinstance(plugin["author"], dict)
    assert isinstance(plugin["keywords"], list)
    assert "hooks" not in plugin
    [entry] = market["plugins"]
    assert entry["source"] == "./"
    assert plugin["name"] == entry["name"] == market["name"] == project["name"]
    assert plugin["version"] == entry["version"] == project["version"]


def test_the_console_script_is_the_same_entry_as_bin_artibot_memory() -> None:
    assert project_table()["scripts"] == {"artibot-memory": "artibot_memory.plugin.entry:main"}
    assert (
        "from artibot_memory.plugin.entry import main" in (ROOT / "bin/artibot-memory").read_text()
    )


def test_the_plugin_files_the_package_names_are_where_it_says() -> None:
    # A module moved one folder deeper must not lose its way back to the plugin root.
    assert Path(venv.PLUGIN_ROOT) == ROOT
    assert Path(venv.REQUIREMENTS).is_file()
    assert Path(fast.entry_script()) == Path(venv.ENTRY_SCRIPT) == ROOT / "bin" / "artibot-memory"


def test_requirements_txt_lists_the_runtime_dependencies_of_pyproject() -> None:
    project = project_table()
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    assert [line for line in lines if line and not line.startswith("#")] == project["dependencies"]


@pytest.mark.parametrize(
    "xdg_data_home",
    [
        pytest.param(None, id="unset"),
        pytest.param("/data", id="absolute"),
        pytest.param("rel", id="relative"),
    ],
)
def test_the_home_without_platformdirs_is_the_one_platformdirs_gives(
    xdg_data_home: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if xdg_data_home is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg_data_home)
    assert fallback_data_dir() == user_data_dir("artibot-memory", appauthor=False)


@pytest.mark.parametrize("linked", ["logs", "logs/hooks.log"])
def test_the_hook_log_is_never_written_through_a_symlink(
    linked: str, memory_home: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (memory_home / "logs").mkdir(parents=True)
    link = memory_home / linked
    if link.exists():
        link.rmdir()
    link.symlink_to(outside if linked == "logs" else outside / "hooks.log")
    hooklog.write_log("a failure")
    assert list(outside.iterdir()) == []


@pytest.mark.usefixtures("no_dependencies")
def test_another_agents_event_reaches_the_venv_as_ours_and_its_answer_comes_back_as_theirs(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    make_ready(plugin_data)
    calls: list[tuple[list[str], bytes]] = []
    answer = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "m"}}

    def fake_run(argv: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append((argv, options["input"]))
        return subprocess.CompletedProcess(argv, 0, json.dumps(answer).encode(), b"")

    monkeypatch.setattr(subprocess, "run", fake_run)
    raw = json.dumps({"session_id": "g1", "prompt": "I prefer pnpm over npm"}).encode()
    assert entry.run_hook("BeforeAgent", raw, "gemini-cli") == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "m"}}
    [(argv, stdin)] = calls
    assert argv[-2:] == ["hook", "UserPromptSubmit"]
    assert json.loads(stdin)["agent"] == "gemini-cli"
