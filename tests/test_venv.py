"""The plugin venv (core/venv.py): its build, its news, its retry, and what doctor says of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import doctor
from artibot_memory.capture import journal
from artibot_memory.cli.app import main as cli_main
from artibot_memory.core import paths, venv
from artibot_memory.core.project import project_of
from artibot_memory.plugin import bootstrap, entry
from artibot_memory.recall import startcache

# The moment the tests' failed build happened, and the file time that says so.
FAILED_AT = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def plugin_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "plugin-data"
    data.mkdir()
    monkeypatch.setenv(venv.DATA_ENV, str(data))
    monkeypatch.delenv(venv.RELAYED_ENV, raising=False)
    return data


@pytest.fixture
def no_dependencies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the full path fail to import as if pydantic were missing."""
    monkeypatch.setitem(sys.modules, "artibot_memory.lifecycle", None)
    monkeypatch.setitem(sys.modules, "artibot_memory.cli.app", None)
    monkeypatch.setattr(bootstrap, "missing_modules", lambda: ["pydantic"])


def make_ready(data: Path, python_target: str | None = None) -> Path:
    """A venv the launcher accepts; its python is a link to ``python_target`` when given."""
    python = Path(venv.venv_python(data))
    python.parent.mkdir(parents=True)
    if python_target is None:
        python.write_text("")
    else:
        python.symlink_to(python_target)
    (data / "venv" / venv.MARKER_NAME).write_text(f"{venv.requirements_digest()}\n")
    return python


def hook(event: str, payload: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> Any:
    assert entry.run_hook(event, json.dumps(payload).encode()) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("\n") <= 1
    return json.loads(out) if out else None


def fake_relay(monkeypatch: pytest.MonkeyPatch, output: dict[str, Any]) -> list[list[str]]:
    calls: list[list[str]] = []

    def run(argv: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(argv)
        assert options["env"][venv.RELAYED_ENV] == "1"
        return subprocess.CompletedProcess(argv, 0, json.dumps(output).encode() + b"\n", b"")

    monkeypatch.setattr(subprocess, "run", run)
    return calls


def write_start_cache(
    cwd: Path, text: str, ids: list[str], *, valid_until: datetime | None
) -> None:
    home = os.environ["ARTIBOT_MEMORY_HOME"]
    now = datetime.now(timezone.utc)
    startcache.write_cache(home, project_of(str(cwd)), text, ids, valid_until, now)


# ---- "memory is ready", once


def test_a_build_leaves_news_that_only_one_session_start_takes(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(venv, "_runs", lambda _python: False)
    monkeypatch.setattr(
        venv, "_step", lambda _command, _log: (plugin_data / "venv").mkdir(exist_ok=True)
    )
    assert venv.build(plugin_data, ("python", "/usr/bin/python3.12"))
    assert venv.take_ready_news(plugin_data) is True
    assert venv.take_ready_news(plugin_data) is False
    assert venv.last_log_line(plugin_data) == (
        f"ready: {venv.venv_dir(plugin_data)} holds the plugin's dependencies"
    )


@pytest.mark.usefixtures("no_dependencies")
def test_the_first_session_start_after_the_build_says_memory_is_ready_once(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    python = make_ready(plugin_data)
    (plugin_data / venv.NEWS_NAME).write_text("/usr/bin/python3.12\n")
    context = {"hookEventName": "SessionStart", "additionalContext": "recorded data"}
    calls = fake_relay(monkeypatch, {"hookSpecificOutput": context})
    first = hook("SessionStart", {"session_id": "s1"}, capsys)
    second = hook("SessionStart", {"session_id": "s2"}, capsys)
    assert first["systemMessage"].startswith("artibot-memory: memory is ready")
    assert str(plugin_data / "venv") in first["systemMessage"]
    assert first["hookSpecificOutput"] == second["hookSpecificOutput"] == context
    assert "systemMessage" not in second
    assert [argv[0] for argv in calls] == [str(python)] * 2


def test_memory_is_ready_is_said_even_when_the_start_cache_serves_the_session(
    plugin_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The SessionEnd worker (run in the venv) may have written the cache before the next
    # start: that start takes the fast path and must still say it.
    (plugin_data / venv.NEWS_NAME).write_text("/usr/bin/python3.12\n")
    write_start_cache(tmp_path, "the cached context", [], valid_until=None)
    output = hook("SessionStart", {"cwd": str(tmp_path)}, capsys)
    assert output["hookSpecificOutput"]["additionalContext"] == "the cached context"
    assert output["systemMessage"].startswith("artibot-memory: memory is ready")
    assert hook("SessionStart", {"cwd": str(tmp_path)}, capsys) == {
        "hookSpecificOutput": output["hookSpecificOutput"]
    }


def test_a_relayed_hook_leaves_the_news_to_the_hook_that_relayed_it(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (plugin_data / venv.NEWS_NAME).write_text("x\n")
    monkeypatch.setenv(venv.RELAYED_ENV, "1")
    assert bootstrap.ready_message() is None
    assert (plugin_data / venv.NEWS_NAME).exists()


# ---- a second session start while the first one's build runs


@pytest.mark.usefixtures("no_dependencies")
def test_a_start_while_installing_says_so_and_serves_the_last_saved_context(
    plugin_data: Path,
    tmp_path: Path,
    started: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    write_start_cache(tmp_path, "the last context", ["pref-1"], valid_until=None)
    journal.append({"event": "PostToolUse", "command": "ls"})  # the cache is stale now
    (plugin_data / venv.LOCK_NAME).write_text(venv.stamped("123"))  # a build is running
    output = hook("SessionStart", {"session_id": "s2", "cwd": str(tmp_path)}, capsys)
    message = output["systemMessage"]
    assert message.startswith("artibot-memory: still installing its Python dependencies")
    assert str(plugin_data / venv.LOG_NAME) in message
    assert f"saved on {datetime.now(timezone.utc):%Y-%m-%d}" in message
    assert output["hookSpecificOutput"]["additionalContext"] == "the last context"
    assert started == []
    records = {record["event"]: record for record in journal.drain()}
    assert records[journal.ACCESS_EVENT]["ids"] == ["pref-1"]  # shown: an access, as fresh
    assert records["SessionStart"]["deferred"] is True  # for the full path, later


@pytest.mark.usefixtures("no_dependencies")
def test_a_saved_context_holding_an_expired_memory_is_not_served(
    plugin_data: Path,
    tmp_path: Path,
    started: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    expired = datetime.now(timezone.utc) - timedelta(hours=1)
    write_start_cache(tmp_path, "an expired context", ["cmd-1"], valid_until=expired)
    (plugin_data / venv.LOCK_NAME).write_text(venv.stamped("123"))
    output = hook("SessionStart", {"cwd": str(tmp_path)}, capsys)
    assert "hookSpecificOutput" not in output
    assert "saved on" not in output["systemMessage"]
    assert started == []


# ---- a failed build: reported, retried after an hour, or at once on request


def fail_at(data: Path, line: str = "failed: no network") -> None:
    with freeze_time(FAILED_AT):
        (data / venv.FAILED_NAME).write_text(venv.stamped("no network"))
    (data / venv.LOG_NAME).write_text(f"$ pip install\nERROR: offline\n\n{line}\n")


@pytest.mark.parametrize(
    ("minutes_later", "retried"),
    [pytest.param(59, False, id="within-the-hour"), pytest.param(61, True, id="after-an-hour")],
)
@pytest.mark.usefixtures("no_dependencies")
def test_a_failed_build_is_retried_an_hour_later_not_before(
    minutes_later: int,
    retried: bool,
    plugin_data: Path,
    started: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    fail_at(plugin_data)
    with freeze_time(FAILED_AT + timedelta(minutes=minutes_later)):
        output = hook("SessionStart", {}, capsys)
    assert len(started) == (1 if retried else 0)
    if retried:
        assert output["systemMessage"] == bootstrap.INSTALLING_MESSAGE
    else:
        message = output["systemMessage"]
        assert "failed (failed: no network;" in message
        assert "`artibot-memory doctor --rebuild-venv`" in message


def test_rebuild_clears_the_failure_and_starts_the_build_at_once(
    plugin_data: Path, started: list[list[str]]
) -> None:
    fail_at(plugin_data)
    building, lines = venv.rebuild(plugin_data)
    assert building
    assert not (plugin_data / venv.FAILED_NAME).exists()
    assert (plugin_data / venv.LOCK_NAME).exists()
    [argv] = started
    assert argv[-1] == str(plugin_data)
    [line] = lines
    assert line.startswith(f"started building {plugin_data / 'venv'} with ")
    assert line.endswith(f"follow it in {plugin_data / venv.LOG_NAME}")
    again, [said] = venv.rebuild(plugin_data)
    assert again
    assert "already running" in said
    assert len(started) == 1


def test_a_rebuild_starts_afresh_when_the_venvs_packages_do_not_import(
    plugin_data: Path, started: list[list[str]]
) -> None:
    python = make_ready(plugin_data)
    python.write_text("#!/bin/sh\necho 3.12.1\necho 'ModuleNotFoundError: orjson' >&2\nexit 1\n")
    python.chmod(0o755)
    building, lines = venv.rebuild(plugin_data)
    assert building
    assert lines[0] == f"removed {plugin_data / 'venv'}: its packages did not import"
    assert not python.exists()
    assert len(started) == 1


@pytest.mark.usefixtures("no_dependencies")
def test_the_cli_without_its_dependencies_still_rebuilds_the_venv(
    plugin_data: Path, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    fail_at(plugin_data)
    assert entry.main(["doctor", "--rebuild-venv"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith(f"rebuild-venv: started building {plugin_data / 'venv'}")
    assert len(started) == 1


@pytest.mark.usefixtures("no_dependencies")
def test_the_missing_dependency_message_names_the_rebuild_when_there_is_plugin_data(
    plugin_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert entry.main(["search", "pnpm"]) == 1
    _, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert f"in {plugin_data} with `artibot-memory doctor --rebuild-venv`" in err


# ---- doctor


def test_doctor_rebuild_venv_starts_the_build_and_reports_it(
    plugin_data: Path, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    fail_at(plugin_data)
    assert cli_main(["doctor", "--rebuild-venv", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    [line] = report["rebuild_venv"]
    assert str(plugin_data / venv.LOG_NAME) in line
    [check] = [c for c in report["checks"] if c["name"] == doctor.VENV_CHECK]
    assert check["state"] == "missing"
    assert "a build is running (started 0 min ago)" in check["notes"]
    assert len(started) == 1


def test_doctor_rebuild_venv_without_any_plugin_data_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "no-claude"))
    assert cli_main(["doctor", "--rebuild-venv"]) == 1
    assert "rebuild-venv: no plugin data folder" in capsys.readouterr().out


def test_doctor_reports_a_ready_venv_its_python_and_the_logs_last_line(
    plugin_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_ready(plugin_data, python_target=sys.executable)  # a Python that has the packages
    (plugin_data / venv.LOG_NAME).write_text("$ pip install\nSuccessfully installed orjson\n")
    check = doctor.check_venv(plugin_data)
    version = ".".join(str(part) for part in sys.version_info[:3])
    assert (check.state, check.ok, check.path) == ("ok", True, plugin_data / "venv")
    assert check.problem == (
        f"{plugin_data / 'venv'}: Python {version}, its packages import, "
        "built from today's requirements"
    )
    assert check.notes == (
        f"last line of {plugin_data / venv.LOG_NAME}: Successfully installed orjson",
    )
    assert cli_main(["doctor"]) == 0
    assert f"plugin venv: {plugin_data / 'venv'}: Python {version}" in capsys.readouterr().out


def test_doctor_reports_a_failed_build_with_the_remedy_and_exits_1(
    plugin_data: Path, memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fail_at(plugin_data, line="failed: token ghp_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8 refused")
    check = doctor.check_venv(plugin_data)
    assert (check.state, check.ok) == ("failed", False)
    assert "run artibot-memory doctor --rebuild-venv" in (check.problem or "")
    [note] = check.notes
    assert "failed: token" in note
    assert "ghp_Q1w2" not in note  # the log's line is redacted
    # The venv's line comes before the home's hints: the repair hint stays the last line.
    memory_home.mkdir(mode=0o700)
    (memory_home / "user-preferences.json").write_bytes(b"garbage")
    assert cli_main(["doctor"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "run artibot-memory doctor --repair"
    assert lines[-2].startswith(f"failed        plugin venv in {plugin_data / 'venv'}: not built")


def test_doctor_reports_a_venv_whose_packages_do_not_import(plugin_data: Path) -> None:
    python = make_ready(plugin_data)
    python.write_text(
        "#!/bin/sh\necho 3.12.1\necho \"ModuleNotFoundError: No module named 'orjson'\" >&2\n"
        "exit 1\n"
    )
    python.chmod(0o755)
    check = doctor.check_venv(plugin_data)
    assert (check.state, check.ok) == ("broken", False)
    assert check.problem == (
        f"{python} cannot import its packages (ModuleNotFoundError: No module named 'orjson'); "
        "run artibot-memory doctor --rebuild-venv"
    )


def test_doctor_reports_a_venv_not_built_yet_as_usable(plugin_data: Path) -> None:
    [check] = doctor.diagnose(plugin_data=[plugin_data])[-1:]
    assert (check.name, check.state, check.ok) == (doctor.VENV_CHECK, "missing", True)
    assert "is not built" in (check.problem or "")


def test_without_a_plugin_data_folder_doctor_has_no_venv_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "no-claude"))
    assert doctor.check_venvs() == []
    assert doctor.VENV_CHECK not in {check.name for check in doctor.diagnose()}


# ---- what the venv is built with


def fake_python(folder: Path, name: str, status: int) -> str:
    path = folder / name
    path.write_text(f"#!/bin/sh\nexit {status}\n")
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def old_python(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """This interpreter as Python 3.9, with a PATH of nothing but an empty folder."""
    monkeypatch.setattr(sys, "version_info", (3, 9, 18, "final", 0))
    folder = tmp_path / "path"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    return folder


def test_an_interpreter_new_enough_is_its_own_base() -> None:
    kind, python = venv.find_base() or ("", "")
    assert kind == "python"
    assert Path(python).exists()


def test_an_old_interpreter_looks_for_the_newest_python_on_path(old_python: Path) -> None:
    fake_python(old_python, "python3.13", 1)  # a shim for a Python not installed
    newer = fake_python(old_python, "python3.11", 0)
    fake_python(old_python, "uv", 0)
    assert venv.find_base() == ("python", newer)


def test_an_old_interpreter_with_only_uv_builds_with_uv(old_python: Path) -> None:
    uv = fake_python(old_python, "uv", 0)
    assert venv.find_base() == ("uv", uv)


def test_an_old_interpreter_with_nothing_newer_has_no_base(old_python: Path) -> None:
    fake_python(old_python, "python3.10", 1)
    assert venv.find_base() is None
    assert "Python 3.9.18" in venv.no_base_problem()


def test_uv_makes_the_venv_with_pip_and_installs_into_it(
    plugin_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[list[str]] = []
    monkeypatch.setattr(venv, "_runs", lambda _python: False)

    def step(command: list[str], _log: object) -> None:
        steps.append(command)
        (plugin_data / "venv").mkdir(exist_ok=True)

    monkeypatch.setattr(venv, "_step", step)
    assert venv.build(plugin_data, ("uv", "/bin/uv"))
    python, folder = venv.venv_python(plugin_data), venv.venv_dir(plugin_data)
    assert steps == [
        ["/bin/uv", "venv", "--seed", "--python", ">=3.10", folder],
        ["/bin/uv", "pip", "install", "--python", python, "-r", venv.REQUIREMENTS],
    ]


@pytest.mark.usefixtures("old_python")
def test_a_build_with_nothing_to_build_with_fails_and_says_why(plugin_data: Path) -> None:
    assert venv.main([str(plugin_data)]) == 1
    assert "needs Python 3.10 or newer" in (venv.last_log_line(plugin_data) or "")
    assert venv.has_failed(plugin_data)


def test_the_builder_is_run_by_the_base_it_builds_with(
    plugin_data: Path, started: list[list[str]]
) -> None:
    assert venv.start_build(plugin_data, ("python", "/opt/python3.12"))
    assert not venv.start_build(plugin_data, ("python", "/opt/python3.12"))
    [argv] = started
    assert argv[0] == "/opt/python3.12"
    assert argv[-3:] == ["--python", "/opt/python3.12", str(plugin_data)]


def test_an_agent_uses_the_venv_another_agent_built_from_the_same_requirements(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    monkeypatch.delenv(venv.RELAYED_ENV, raising=False)
    codex_data = tmp_path / "codex-home" / "plugins" / "data" / "artibot-memory-artibot-memory"
    assert venv.ready_python() is None
    python = make_ready(codex_data)
    assert venv.known_data_dirs() == [str(codex_data)]
    monkeypatch.setenv(venv.DATA_ENV, str(tmp_path / "gemini-data"))  # not built there
    assert venv.ready_python() == str(python)


def test_a_venv_of_other_requirements_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(venv.RELAYED_ENV, raising=False)
    claude_data = tmp_path / "claude-config" / "plugins" / "data" / "artibot-memory-x"
    make_ready(claude_data)
    (claude_data / "venv" / venv.MARKER_NAME).write_text("0" * 64 + "\n")
    monkeypatch.setenv(venv.DATA_ENV, str(tmp_path / "mine"))
    assert venv.ready_python() is None


@pytest.mark.parametrize(
    ("agent", "given", "expected"),
    [
        ("gemini-cli", {}, "runtime"),
        ("cursor", {}, "runtime"),
        ("codex-cli", {"PLUGIN_DATA": "/data/codex"}, "/data/codex"),
        ("codex-cli", {"CLAUDE_PLUGIN_DATA": "/data/claude"}, "/data/claude"),
        ("claude-code", {}, None),
    ],
)
def test_an_agent_that_gives_no_data_folder_gets_the_shared_one(
    monkeypatch: pytest.MonkeyPatch, agent: str, given: dict[str, str], expected: str | None
) -> None:
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    for name, value in given.items():
        monkeypatch.setenv(name, value)
    entry.give_data_dir(agent)
    if expected == "runtime":
        assert os.environ[venv.DATA_ENV] == paths.runtime_dir()
        assert paths.runtime_dir().endswith("artibot-memory-runtime")
    else:
        assert os.environ.get(venv.DATA_ENV) == expected
