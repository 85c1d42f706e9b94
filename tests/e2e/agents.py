"""Run the real Codex CLI and Gemini CLI, offline, for end-to-end tests.

:func:`find_agent` locates the pinned binaries (installed by ``.ci/install-agents`` into
:func:`agent_dir`, a cache folder outside the repository) and :func:`require_agent` turns
a missing one into a skip, or a failure when ``ARTIBOT_REQUIRE_AGENTS=1``.
:func:`run_codex` and :func:`run_gemini` run one headless session in an isolated world
(its own HOME and agent home, only ``PATH`` inherited, the model a fake on 127.0.0.1:
``fake_openai.py``, ``fake_gemini.py``). :func:`codex_user_hooks` and
:func:`gemini_user_hooks` install hooks at user level, and :func:`write_probe` writes a
hook script that records what it receives. :func:`install_codex_plugin` and
:func:`install_gemini_extension` install our plugin into such a world.

Example::

    with FakeOpenAI([run("ls /no/such/dir", then_say="It failed.")]) as fake:
        result = run_codex("list it", project, codex_home=tmp / "codex", env={}, server=fake)
    result.check()
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .harness import _communicate, cache_root

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from .fake_gemini import FakeGemini
    from .fake_openai import FakeOpenAI

E2E_DIR = Path(__file__).resolve().parent
PINS_DIR = E2E_DIR / "agents"
INSTALL_COMMAND = "bash .ci/install-agents codex gemini"
REQUIRE_ENV = "ARTIBOT_REQUIRE_AGENTS"

# The npm package of each agent, and the variable that may name another binary.
PACKAGES = {"codex": "@openai/codex", "gemini": "@google/gemini-cli"}
BIN_ENV = {"codex": "ARTIBOT_CODEX_BIN", "gemini": "ARTIBOT_GEMINI_BIN"}

DUMMY_KEY = "fake-e2e-key"
# A model of Codex's own catalog, so Codex offers the tools it offers a real user
# (apply_patch among them); an unknown name gets fallback metadata and no apply_patch.
CODEX_MODEL = "gpt-5.5"
GEMINI_MODEL = "gemini-2.5-flash"  # named, so no router call precedes the agent loop
RUN_TIMEOUT = 90.0
VERSION_TIMEOUT = 30.0

# Our plugin, as the manifests of this repository name it.
CODEX_PLUGIN = "artibot-memory@artibot-memory"


# -- finding the binaries ------------------------------------------------------------


def pinned_version(tool: str) -> str | None:
    """The version of ``tool`` pinned in ``tests/e2e/agents/<tool>/package.json``."""
    try:
        manifest = json.loads((PINS_DIR / tool / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = manifest.get("dependencies", {}).get(PACKAGES[tool])
    return str(version) if version else None


def agent_dir(tool: str) -> Path | None:
    """Where ``.ci/install-agents`` installs ``tool``: ``<cache root>/<tool>/<version>``."""
    version = pinned_version(tool)
    return cache_root() / tool / version if version else None


def agent_version(binary: Path) -> str | None:
    """The version ``binary --version`` reports (last word of its last line), or None."""
    with tempfile.TemporaryDirectory(prefix="agent-version-") as home:
        env = base_env(Path(home))
        env.update(
            CODEX_HOME=str(Path(home) / ".codex"),
            GEMINI_CLI_HOME=home,
            GEMINI_CLI_NO_RELAUNCH="true",
        )
        try:
            done = subprocess.run(  # noqa: S603 - a binary we located ourselves
                [str(binary), "--version"],
                capture_output=True,
                text=True,
                timeout=VERSION_TIMEOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
    lines = done.stdout.strip().splitlines()
    return lines[-1].split()[-1] if done.returncode == 0 and lines and lines[-1].split() else None


def _candidates(tool: str) -> list[tuple[Path, bool]]:
    """Where to look for ``tool``, each with whether any version will do."""
    found: list[tuple[Path, bool]] = []
    explicit = os.environ.get(BIN_ENV[tool])
    if explicit:
        found.append((Path(explicit), True))
    installed = agent_dir(tool)
    if installed is not None:
        found.append((installed / "node_modules" / ".bin" / tool, False))
    on_path = shutil.which(tool)
    if on_path:
        found.append((Path(on_path), False))
    return found


@cache
def find_agent(tool: str) -> Path | None:
    """A runnable ``codex`` or ``gemini``, or None.

    Order: ``$ARTIBOT_CODEX_BIN`` / ``$ARTIBOT_GEMINI_BIN`` (any version), the copy
    ``.ci/install-agents`` installed, then one on PATH reporting the pinned version.
    Both CLIs are Node scripts, so without ``node`` on PATH there is none.
    """
    if shutil.which("node") is None:
        return None
    pinned = pinned_version(tool)
    for candidate, any_version in _candidates(tool):
        if not candidate.is_file():
            continue
        version = agent_version(candidate)
        if version is not None and (any_version or version == pinned):
            return candidate.absolute()
    return None


def agents_required() -> bool:
    """Whether a missing agent must fail the run instead of skipping (CI sets it)."""
    return os.environ.get(REQUIRE_ENV) == "1"


def require_agent(tool: str) -> Path:
    """The binary of ``tool``, or a skip (a failure when ``ARTIBOT_REQUIRE_AGENTS=1``)."""
    binary = find_agent(tool)
    if binary is not None:
        return binary
    if shutil.which("node") is None:
        reason = f"{tool}: Node.js not found on PATH (the {PACKAGES[tool]} CLI needs it)"
    else:
        reason = (
            f"{PACKAGES[tool]} {pinned_version(tool)} not found or not runnable (checked "
            f"${BIN_ENV[tool]}, {agent_dir(tool)} and PATH); install it with `{INSTALL_COMMAND}`"
        )
    if agents_required():
        pytest.fail(f"{reason} [{REQUIRE_ENV}=1]", pytrace=False)
    pytest.skip(reason)


# -- the isolated world ---------------------------------------------------------------


@dataclass
class Result:
    """The outcome of one headless agent session (or one agent command)."""

    returncode: int
    stdout: str
    stderr: str
    duration: float
    args: list[str] = field(default_factory=list)
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        """Whether the agent exited 0 in time."""
        return self.returncode == 0 and not self.timed_out

    def describe(self, tail: int = 4000) -> str:
        """A failure message with the ends of stdout and stderr."""
        return "\n".join(
            [
                f"exited {self.returncode} after {self.duration:.1f}s"
                + (" (timed out)" if self.timed_out else ""),
                "args: " + shlex.join(self.args),
                "--- stdout (tail) ---",
                self.stdout[-tail:],
                "--- stderr (tail) ---",
                self.stderr[-tail:],
            ]
        )

    def check(self) -> Result:
        """Raise AssertionError with diagnostics unless the run succeeded."""
        if not self.ok:
            raise AssertionError(self.describe())
        return self


def base_env(home: Path, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """An isolated environment: ``PATH`` inherited, ``HOME`` ours, then ``env`` on top.

    ``ARTIBOT_MEMORY_HOME`` (the memory home our plugin uses) comes from ``env``, else
    from this process (the tests' autouse fixture sets it), so a session never writes
    the developer's memory.
    """
    result = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", os.defpath),
        "NO_COLOR": "1",
        "LANG": "C.UTF-8",
        "TERM": "dumb",
    }
    for name in ("ARTIBOT_MEMORY_HOME", "PYTHONPYCACHEPREFIX"):
        if os.environ.get(name):
            result[name] = os.environ[name]
    for name in ("SYSTEMROOT", "SystemRoot", "COMSPEC", "PATHEXT", "TEMP", "TMP"):
        if sys.platform == "win32" and name in os.environ:
            result[name] = os.environ[name]
    result.update(env or {})
    return result


def _run(args: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float) -> Result:
    """Run one agent process to completion (its whole process group killed on timeout)."""
    cwd.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    returncode, stdout, stderr, timed_out = _communicate(args, env=env, cwd=cwd, timeout=timeout)
    return Result(
        args=list(args),
        returncode=returncode,
        stdout=stdout,
        stderr=stderr,
        duration=time.monotonic() - started,
        timed_out=timed_out,
    )


# -- Codex CLI ------------------------------------------------------------------------


def codex_env(
    codex_home: Path, env: Mapping[str, str] | None = None, home: Path | None = None
) -> dict[str, str]:
    """The environment of a Codex world: ``CODEX_HOME``, an isolated HOME, the dummy key."""
    codex_home.mkdir(parents=True, exist_ok=True)
    result = base_env(home or codex_home, env)
    result.update(CODEX_HOME=str(codex_home), FAKE_OPENAI_KEY=DUMMY_KEY)
    return result


def codex_provider_args(base_url: str) -> list[str]:
    """``-c`` options that point Codex at a Responses API at ``base_url`` (no config file)."""
    settings = {
        "model_provider": "fake",
        "model_providers.fake.name": "fake",
        "model_providers.fake.base_url": base_url,
        "model_providers.fake.env_key": "FAKE_OPENAI_KEY",
        "model_providers.fake.wire_api": "responses",
        # A fake that fails must fail the run at once, not after retries.
        "model_providers.fake.request_max_retries": 0,
        "model_providers.fake.stream_max_retries": 0,
        "check_for_update_on_startup": False,
    }
    args: list[str] = []
    for key, value in settings.items():
        args += ["-c", f"{key}={json.dumps(value)}"]
    return args


def run_codex(
    prompt: str,
    cwd: Path,
    *,
    codex_home: Path,
    env: Mapping[str, str] | None,
    server: FakeOpenAI,
    home: Path | None = None,
    model: str = CODEX_MODEL,
    extra_args: Sequence[str] = (),
    timeout: float = RUN_TIMEOUT,
    codex_bin: Path | None = None,
) -> Result:
    """Run ``codex exec PROMPT`` headless in ``cwd`` against ``server``.

    Hooks run without being trusted first (``--dangerously-bypass-hook-trust``), commands
    without approval or sandbox; stdin is /dev/null. ``home`` (default ``codex_home``)
    becomes ``$HOME``; ``env`` is laid over the isolated environment; ``extra_args`` go
    before the prompt. Never raises on a failed run: see :attr:`Result.ok`.
    """
    binary = codex_bin or require_agent("codex")
    args = [
        str(binary),
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-hook-trust",
        "--dangerously-bypass-approvals-and-sandbox",
        "-m",
        model,
        *codex_provider_args(server.base_url),
        *extra_args,
        prompt,
    ]
    return _run(args, cwd=cwd, env=codex_env(codex_home, env, home), timeout=timeout)


def codex_user_hooks(codex_home: Path, hooks_json: Mapping[str, Any]) -> Path:
    """Write ``$CODEX_HOME/hooks.json`` (``{"hooks": {...}}``; a bare event map is wrapped)."""
    document = dict(hooks_json) if "hooks" in hooks_json else {"hooks": dict(hooks_json)}
    codex_home.mkdir(parents=True, exist_ok=True)
    path = codex_home / "hooks.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def codex_sessions(codex_home: Path) -> list[Path]:
    """The rollout files (transcripts) of a Codex world, oldest first."""
    return sorted((codex_home / "sessions").glob("*/*/*/rollout-*.jsonl"))


# -- Gemini CLI -----------------------------------------------------------------------


GEMINI_SETTINGS: dict[str, Any] = {
    "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
    "privacy": {"usageStatisticsEnabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
}


def gemini_settings_path(gemini_cli_home: Path) -> Path:
    """``$GEMINI_CLI_HOME/.gemini/settings.json``."""
    return gemini_cli_home / ".gemini" / "settings.json"


def _merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` merged in, recursively for objects."""
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def update_gemini_settings(gemini_cli_home: Path, extra: Mapping[str, Any]) -> Path:
    """Merge ``extra`` into the world's settings.json (written with our offline defaults)."""
    path = gemini_settings_path(gemini_cli_home)
    path.parent.mkdir(parents=True, exist_ok=True)
    current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    settings = _merge(_merge(GEMINI_SETTINGS, current), extra)
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    return path


def gemini_env(
    gemini_cli_home: Path,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    base_url: str | None = None,
) -> dict[str, str]:
    """The environment of a Gemini world: ``GEMINI_CLI_HOME``, HOME, the dummy key."""
    gemini_cli_home.mkdir(parents=True, exist_ok=True)
    result = base_env(home or gemini_cli_home, env)
    result.update(
        GEMINI_CLI_HOME=str(gemini_cli_home),
        GEMINI_API_KEY=DUMMY_KEY,
        GEMINI_CLI_TRUST_WORKSPACE="true",
        # The CLI otherwise starts itself again in a child Node with a larger heap, which
        # doubles the run time (3 s instead of 6 s here).
        GEMINI_CLI_NO_RELAUNCH="true",
    )
    if base_url is not None:
        result["GOOGLE_GEMINI_BASE_URL"] = base_url
    return result


def run_gemini(
    prompt: str,
    cwd: Path,
    *,
    gemini_cli_home: Path,
    env: Mapping[str, str] | None,
    server: FakeGemini,
    home: Path | None = None,
    extra_args: Sequence[str] = (),
    timeout: float = RUN_TIMEOUT,
    gemini_bin: Path | None = None,
) -> Result:
    """Run ``gemini -p PROMPT`` headless in ``cwd`` against ``server``.

    Writes the offline settings (API-key auth, no folder trust, no telemetry or update
    check) unless present, runs in yolo mode with ``-m gemini-2.5-flash``, stdin
    /dev/null. ``home`` (default ``gemini_cli_home``) becomes ``$HOME``; ``env`` is laid
    over the isolated environment; ``extra_args`` go after the options. Never raises on a
    failed run: see :attr:`Result.ok`.
    """
    binary = gemini_bin or require_agent("gemini")
    update_gemini_settings(gemini_cli_home, {})
    args = [
        str(binary),
        "-p",
        prompt,
        "--approval-mode=yolo",
        "-m",
        GEMINI_MODEL,
        *extra_args,
    ]
    world = gemini_env(gemini_cli_home, env, home, server.base_url)
    return _run(args, cwd=cwd, env=world, timeout=timeout)


def gemini_user_hooks(gemini_cli_home: Path, hooks: Mapping[str, Any]) -> Path:
    """Put ``hooks`` (an event map, timeouts in milliseconds) into the world's settings.json."""
    return update_gemini_settings(gemini_cli_home, {"hooks": dict(hooks)})


def gemini_sessions(gemini_cli_home: Path) -> list[Path]:
    """The chat transcripts of a Gemini world, oldest first."""
    return sorted((gemini_cli_home / ".gemini" / "tmp").glob("*/chats/session-*.jsonl"))


# -- our plugin (filled in with the manifests) -----------------------------------------


def install_codex_plugin(
    codex_home: Path,
    repo: Path,
    *,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    codex_bin: Path | None = None,
) -> list[Result]:
    """Install our plugin from the clone ``repo`` into a Codex world.

    ``codex plugin marketplace add <repo>`` then ``codex plugin add
    artibot-memory@artibot-memory``, in the world's environment; stops at the first
    failure. Works once ``.agents/plugins/marketplace.json`` and
    ``.codex-plugin/plugin.json`` exist. Check every result with :meth:`Result.check`.
    """
    binary = codex_bin or require_agent("codex")
    world = codex_env(codex_home, env, home)
    steps = [
        [str(binary), "plugin", "marketplace", "add", str(repo)],
        [str(binary), "plugin", "add", CODEX_PLUGIN],
    ]
    return _run_steps(steps, cwd=codex_home, env=world)


def install_gemini_extension(
    gemini_cli_home: Path,
    folder: Path,
    *,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    gemini_bin: Path | None = None,
) -> list[Result]:
    """Install our extension from ``folder`` into a Gemini world.

    ``gemini extensions install <folder> --consent``, in the world's environment (it
    copies the folder to ``$GEMINI_CLI_HOME/.gemini/extensions/<name>/``). Works once
    ``gemini-extension.json`` exists. Check the result with :meth:`Result.check`.
    """
    binary = gemini_bin or require_agent("gemini")
    update_gemini_settings(gemini_cli_home, {})
    world = gemini_env(gemini_cli_home, env, home)
    steps = [[str(binary), "extensions", "install", str(folder), "--consent"]]
    return _run_steps(steps, cwd=gemini_cli_home, env=world)


def _run_steps(
    steps: Sequence[Sequence[str]], *, cwd: Path, env: Mapping[str, str]
) -> list[Result]:
    """Run commands in order until one fails; their results."""
    results: list[Result] = []
    for args in steps:
        results.append(_run(args, cwd=cwd, env=env, timeout=RUN_TIMEOUT))
        if not results[-1].ok:
            break
    return results


# -- a probe hook ---------------------------------------------------------------------

PROBE_SCRIPT = textwrap.dedent(
    '''\
    """Append this hook's stdin payload and environment to a log; answer with a context."""
    import json, os, sys

    log, marker = sys.argv[1], sys.argv[2]
    raw = sys.stdin.read()
    try:
        payload = json.loads(raw)
    except ValueError:
        payload = raw
    event = payload.get("hook_event_name") if isinstance(payload, dict) else None
    record = {"event": event, "payload": payload, "env": dict(os.environ), "cwd": os.getcwd()}
    with open(log, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\\n")
    if event in CONTEXT_EVENTS:
        print(json.dumps({"hookSpecificOutput": {
            "hookEventName": event, "additionalContext": marker + "-" + event}}))
    '''
)

# The events whose additionalContext reaches the model (Codex, Gemini CLI).
CONTEXT_EVENTS = ("SessionStart", "UserPromptSubmit", "BeforeAgent", "PostToolUse", "AfterTool")


def write_probe(path: Path) -> Path:
    """Write the probe hook script to ``path``.

    Run as ``python3 <path> <log> <marker>`` (see :func:`probe_command`), it appends
    ``{"event", "payload", "env", "cwd"}`` to ``<log>`` and, on the events in
    :data:`CONTEXT_EVENTS`, prints ``hookSpecificOutput.additionalContext`` =
    ``<marker>-<event>``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(PROBE_SCRIPT.replace("CONTEXT_EVENTS", repr(CONTEXT_EVENTS)), encoding="utf-8")
    return path


def probe_command(script: Path, log: Path, marker: str) -> str:
    """The shell command of a probe hook (python3 from PATH)."""
    return shlex.join(["python3", str(script), str(log), marker])


def probe_hooks(command: str, events: Sequence[str], *, timeout: int) -> dict[str, Any]:
    """An event map running ``command`` on every event (``timeout`` in the agent's unit)."""
    return {
        event: [{"hooks": [{"type": "command", "command": command, "timeout": timeout}]}]
        for event in events
    }


def read_probe_log(log: Path) -> list[dict[str, Any]]:
    """The records the probe appended, in order."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]


def wait_for_event(log: Path, event: str, timeout: float = 5.0) -> list[dict[str, Any]]:
    """The probe's records once ``event`` is among them (or ``timeout`` passed).

    For SessionEnd: Gemini CLI does not wait for its hooks, so the last one may still be
    writing when the CLI has exited.
    """
    deadline = time.monotonic() + timeout
    records = read_probe_log(log)
    while not any(r.get("event") == event for r in records) and time.monotonic() < deadline:
        time.sleep(0.05)
        records = read_probe_log(log)
    return records
