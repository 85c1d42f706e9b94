"""The hooks under a python3 older than 3.10 (macOS's is 3.9): never silent, never broken.

Three proofs: vermin reads the modules the entry loads there and finds nothing newer than
3.8 (3.9 for the fast path); the entry runs here under a faked old ``sys.version_info``;
and the real hook runs under a real Python 3.8 or 3.9 when this machine has one (on PATH
or under pyenv), with a PATH that offers no newer Python, then one that does.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from payloads import captured

from artibot_memory.capture import journal
from artibot_memory.core import venv
from artibot_memory.plugin import bootstrap, entry

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "bin" / "artibot-memory"
PACKAGE = ROOT / "artibot_memory"

# What the hook entry loads under any python3 before it knows what it can do: nothing in
# these may need more than Python 3.8.
PYTHON_38 = [
    ENTRY,
    PACKAGE / "__init__.py",
    PACKAGE / "plugin" / "entry.py",
    PACKAGE / "plugin" / "bootstrap.py",
    PACKAGE / "core" / "venv.py",
    PACKAGE / "core" / "clock.py",
    PACKAGE / "core" / "disk.py",
    PACKAGE / "capture" / "hooklog.py",
]
# The fast path, which the entry runs from Python 3.9: capture/journal.py subclasses
# ``list["..."]`` at run time, which 3.8 refuses (vermin cannot see that; the real-3.8
# test below does), so under 3.8 the entry relays to the plugin venv or skips.
PYTHON_39 = [
    PACKAGE / "plugin" / "fast.py",
    PACKAGE / "capture" / "journal.py",
    PACKAGE / "capture" / "prompts.py",
    PACKAGE / "recall" / "startcache.py",
    PACKAGE / "recall" / "known_errors.py",
    PACKAGE / "store" / "files.py",
    PACKAGE / "store" / "table.py",
    PACKAGE / "store" / "envelope.py",
    PACKAGE / "core" / "paths.py",
    PACKAGE / "core" / "project.py",
    PACKAGE / "core" / "redact.py",
    PACKAGE / "core" / "entropy.py",
    *(PACKAGE / "text" / f"{name}.py" for name in ("signature", "trim", "framing", "change")),
]


# ---- vermin

# vermin has a console script but no ``python -m vermin``: this is what the script runs.
VERMIN = "import sys; from vermin import main; sys.argv[0] = 'vermin'; sys.exit(main())"


@pytest.mark.parametrize(
    ("target", "files"),
    [pytest.param("3.8", PYTHON_38, id="entry-3.8"), pytest.param("3.9", PYTHON_39, id="fast-3.9")],
)
def test_vermin_finds_nothing_newer_than_the_python_each_part_runs_under(
    target: str, files: list[Path]
) -> None:
    if importlib.util.find_spec("vermin") is None:
        pytest.skip("vermin is not installed (pip install -e '.[test]')")
    done = subprocess.run(  # noqa: S603 - vermin on our own files
        [sys.executable, "-c", VERMIN, "--no-tips", f"-t={target}-", "--violations"]
        + [str(path) for path in files],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Minimum required versions" in done.stdout


# ---- a faked old sys.version_info, in process


@pytest.fixture
def plugin_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "plugin-data"
    monkeypatch.setenv(venv.DATA_ENV, str(data))
    monkeypatch.delenv(venv.RELAYED_ENV, raising=False)
    return data


@pytest.fixture
def empty_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH holding no Python and no uv."""
    folder = tmp_path / "path"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    return folder


def fake_version(monkeypatch: pytest.MonkeyPatch, minor: int) -> None:
    monkeypatch.setattr(sys, "version_info", (3, minor, 18, "final", 0))
    # Were the full path tried, it would fail like this and be logged: it never is.
    monkeypatch.setitem(sys.modules, "artibot_memory.lifecycle", None)
    monkeypatch.setitem(sys.modules, "artibot_memory.cli.app", None)


def hook(event: str, payload: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> Any:
    assert entry.run_hook(event, json.dumps(payload).encode()) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("\n") <= 1
    return json.loads(out) if out else None


@pytest.mark.parametrize("minor", [8, 9])
@pytest.mark.usefixtures("empty_path", "plugin_data")
def test_an_old_python_with_nothing_newer_says_what_to_install_once(
    minor: int,
    memory_home: Path,
    started: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fake_version(monkeypatch, minor)
    first = hook("SessionStart", captured("SessionStart"), capsys)
    message = first["systemMessage"]
    assert message.startswith("artibot-memory needs Python 3.10 or newer")
    assert f"is Python 3.{minor}.18" in message
    assert "brew install python@3.12" in message
    assert ("still captured" in message) == (minor == 9)
    assert hook("SessionStart", captured("SessionStart"), capsys) is None  # said once
    assert hook("PostToolUse", captured("PostToolUse"), capsys) is None
    assert started == []
    assert not (memory_home / "logs").exists()  # the full path was never tried
    events = [record["event"] for record in journal.drain()]
    # 3.9 runs the fast path (journal); 3.8 cannot import the journal and skips.
    assert events == (["SessionStart", "SessionStart", "PostToolUse"] if minor == 9 else [])


def test_an_old_python_builds_the_venv_with_a_newer_one_on_path(
    plugin_data: Path,
    empty_path: Path,
    started: list[list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    newer = empty_path / "python3.12"
    newer.write_text("#!/bin/sh\nexit 0\n")  # answers the probe: 3.10+, with venv
    newer.chmod(0o755)
    fake_version(monkeypatch, 9)
    output = hook("SessionStart", captured("SessionStart"), capsys)
    assert output["systemMessage"].startswith(bootstrap.INSTALLING_MESSAGE[:-1])
    assert f"with {newer}" in output["systemMessage"]
    [argv] = started
    assert argv[0] == str(newer)
    assert argv[-3:] == ["--python", str(newer), str(plugin_data)]


@pytest.mark.parametrize(
    ("event", "timeout"), [("PostToolUse", 4.0), ("SessionStart", 25.0), ("SessionEnd", 1.2)]
)
def test_python_38_relays_every_event_to_a_ready_venv(
    event: str,
    timeout: float,
    plugin_data: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    python = Path(venv.venv_python(plugin_data))
    python.parent.mkdir(parents=True)
    python.write_text("")
    (plugin_data / "venv" / venv.MARKER_NAME).write_text(f"{venv.requirements_digest()}\n")
    calls: list[tuple[list[str], float]] = []

    def run(argv: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append((argv, options["timeout"]))
        return subprocess.CompletedProcess(argv, 0, b"", b"")

    monkeypatch.setattr(subprocess, "run", run)
    fake_version(monkeypatch, 8)
    assert hook(event, captured(event), capsys) is None
    assert calls == [([str(python), str(ENTRY), "hook", event], timeout)]


@pytest.mark.usefixtures("empty_path")
def test_the_cli_under_an_old_python_names_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(venv.DATA_ENV, raising=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "no-claude"))
    fake_version(monkeypatch, 9)
    assert entry.main(["search", "pnpm"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("artibot-memory needs Python 3.10 or newer;")
    assert err.count("\n") == 1


# ---- a real Python 3.8 or 3.9


def old_interpreters() -> list[Any]:
    """Every real Python 3.8 / 3.9 found on PATH or under pyenv, by its real path."""
    candidates = [shutil.which(name) for name in ("python3.9", "python3.8")]
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    candidates += [str(p) for p in sorted(pyenv.glob("3.[89].*/bin/python3.[89]"))]
    found: dict[str, str] = {}
    for candidate in filter(None, candidates):
        try:
            done = subprocess.run(  # noqa: S603 - asking an interpreter its version
                [candidate, "-c", "import sys; print(sys.version_info[1], sys.executable)"],
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        minor, _, executable = done.stdout.strip().partition(" ")
        if done.returncode == 0 and minor in {"8", "9"} and executable:
            found.setdefault(f"3.{minor}", executable)
    params = [pytest.param(path, id=version) for version, path in sorted(found.items())]
    return params or [
        pytest.param(
            None, marks=pytest.mark.skip(reason="no Python 3.8 or 3.9 on PATH or under pyenv")
        )
    ]


OLD_PYTHONS = old_interpreters()


def run_hook_under(
    python: str, event: str, payload: dict[str, Any], env: dict[str, str]
) -> dict[str, Any] | None:
    """Run bin/artibot-memory as Claude Code does, under ``python``; check the contract."""
    done = subprocess.run(  # noqa: S603 - our own entry script
        [python, "-S", str(ENTRY), "hook", event],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert done.stderr == b""
    if not done.stdout.strip():
        return None
    assert done.stdout.count(b"\n") == 1
    output = json.loads(done.stdout)
    assert isinstance(output, dict)
    return output


def hook_env(tmp_path: Path, path: Path) -> dict[str, str]:
    return {
        "PATH": str(path),
        "HOME": str(tmp_path),
        venv.DATA_ENV: str(tmp_path / "plugin-data"),
        "ARTIBOT_MEMORY_HOME": str(tmp_path / "memory-home"),
        "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
        # bytecode out of the clone (tests/conftest.py): the 6 MB plugin-size test counts it
        **{k: v for k, v in os.environ.items() if k == "PYTHONPYCACHEPREFIX"},
    }


@pytest.mark.parametrize("python", OLD_PYTHONS)
def test_a_real_old_python_with_nothing_newer_on_path_says_what_to_install(
    python: str, tmp_path: Path
) -> None:
    path = tmp_path / "bin"
    path.mkdir()
    (path / "python3").symlink_to(python)  # the old python is python3, and nothing newer
    env = hook_env(tmp_path, path)
    start = {**captured("SessionStart"), "cwd": str(tmp_path)}
    output = run_hook_under(python, "SessionStart", start, env)
    assert output is not None
    assert set(output) == {"systemMessage"}
    assert output["systemMessage"].startswith("artibot-memory needs Python 3.10 or newer")
    assert "install Python 3.10 or newer" in output["systemMessage"]
    assert run_hook_under(python, "SessionStart", start, env) is None  # said once
    tool_call = {**captured("PostToolUse"), "cwd": str(tmp_path)}
    assert run_hook_under(python, "PostToolUse", tool_call, env) is None
    assert not (tmp_path / "plugin-data" / venv.LOCK_NAME).exists()  # no build started
    journaled = tmp_path / "memory-home" / journal.JOURNAL_NAME
    if "python3.8" in Path(python).name:
        assert not journaled.exists()  # 3.8 runs no fast path: nothing captured
    else:
        events = [json.loads(line)["event"] for line in journaled.read_text().splitlines()]
        assert events == ["SessionStart", "SessionStart", "PostToolUse"]


def write_script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


@pytest.mark.parametrize("python", OLD_PYTHONS)
def test_a_real_old_python_builds_with_a_newer_one_then_says_memory_is_ready(
    python: str, tmp_path: Path
) -> None:
    # A stand-in for a newer Python on PATH: its `-m venv` makes a venv whose python is
    # this test's interpreter (which has the packages) and whose pip installs nothing;
    # anything else it runs with this test's interpreter. No network, no real pip.
    path = tmp_path / "bin"
    path.mkdir()
    fake_venv_python = tmp_path / "venv-python"
    write_script(
        fake_venv_python,
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "fake pip: $*"; exit 0; fi\n'
        f'exec {sys.executable} "$@"\n',
    )
    write_script(
        path / "python3.12",
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then\n'
        "  for last; do :; done\n"
        '  /bin/mkdir -p "$last/bin" && /bin/cp '
        f'{fake_venv_python} "$last/bin/python" && exit 0\n'
        "fi\n"
        f'exec {sys.executable} "$@"\n',
    )
    env = hook_env(tmp_path, path)
    data = tmp_path / "plugin-data"
    start = {**captured("SessionStart"), "cwd": str(tmp_path)}
    output = run_hook_under(python, "SessionStart", start, env)
    assert output is not None
    assert output["systemMessage"].startswith(bootstrap.INSTALLING_MESSAGE[:-1])
    assert str(path / "python3.12") in output["systemMessage"]
    # The builder is detached: wait until it frees its lock (it runs only the fakes).
    deadline = time.monotonic() + 60
    while (data / venv.LOCK_NAME).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    log = (data / venv.LOG_NAME).read_text()
    assert not (data / venv.LOCK_NAME).exists(), log
    assert f"$ {path / 'python3.12'} -m venv --clear {data / 'venv'}" in log
    assert "fake pip: -m pip install" in log
    assert log.rstrip().endswith("holds the plugin's dependencies")
    # The next start relays to the venv (the full path, for real) and says it once.
    ready = run_hook_under(python, "SessionStart", start, env)
    assert ready is not None
    assert ready["systemMessage"].startswith("artibot-memory: memory is ready")
    again = run_hook_under(python, "SessionStart", start, env)
    assert again is None or "systemMessage" not in again


PRE_38 = [
    pytest.param(str(p), id=p.parent.parent.name)
    for p in sorted(
        (Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions").glob(
            "3.[67].*/bin/python3.[67]"
        )
    )
]


@pytest.mark.parametrize(
    "python",
    PRE_38 or [pytest.param(None, marks=pytest.mark.skip(reason="no Python 3.6 or 3.7 here"))],
)
def test_a_python_older_than_38_still_exits_0_and_says_why_at_session_start(
    python: str, tmp_path: Path
) -> None:
    env = hook_env(tmp_path, tmp_path)
    output = run_hook_under(python, "SessionStart", captured("SessionStart"), env)
    assert output is not None
    assert output["systemMessage"].startswith("artibot-memory needs Python 3.10 or newer")
    assert run_hook_under(python, "PostToolUse", captured("PostToolUse"), env) is None
