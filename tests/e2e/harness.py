"""Run the real Claude Code CLI, offline, for end-to-end tests.

:func:`find_claude` locates a working ``claude`` binary (installed by
``.ci/install-claude-code`` into :func:`claude_code_dir`, a cache folder of the
user's outside the repository), :func:`run_claude`
runs one non-interactive session with a plugin against a fake API (see
``fake_anthropic.py``), and :func:`validate_plugin` runs
``claude plugin validate --strict``.

Every run gets a clean environment: only ``PATH`` is inherited, so neither the
developer's Claude Code settings nor a surrounding Claude Code session leak in.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

E2E_DIR = Path(__file__).resolve().parent
INSTALL_COMMAND = "bash .ci/install-claude-code"
DUMMY_API_KEY = "sk-ant-fake-e2e-key"
VERSION_TIMEOUT = 30


# -- where the tests keep their caches -----------------------------------------


def cache_root() -> Path:
    """The folder the tests keep their caches in, outside the repository.

    ``$ARTIBOT_TEST_CACHE`` when set and non-empty, else
    ``$XDG_CACHE_HOME/artibot-memory``, else ``~/.cache/artibot-memory`` (a relative
    value is taken from the current directory). ``.ci/install-claude-code`` computes
    the same folder. It holds ``claude-code/<version>/`` (the pinned CLI) and
    ``hypothesis/`` (hypothesis' database, see ``tests/conftest.py``); pytest's own
    cache is ``~/.cache/artibot-memory/pytest`` (pyproject.toml). Outside the clone
    because Claude Code copies a local-directory plugin whole into its plugin cache.
    """
    explicit = os.environ.get("ARTIBOT_TEST_CACHE")
    if explicit:
        return Path(explicit).absolute()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return (Path(xdg) / "artibot-memory").absolute()
    return Path.home() / ".cache" / "artibot-memory"


def claude_code_dir(version: str | None = None) -> Path | None:
    """Where ``.ci/install-claude-code`` puts the pinned CLI (None without a pin)."""
    version = version or pinned_version()
    return cache_root() / "claude-code" / version if version else None


# -- finding the binary ---------------------------------------------------------


def pinned_version() -> str | None:
    """The Claude Code version pinned in ``tests/e2e/package.json``."""
    try:
        manifest = json.loads((E2E_DIR / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = manifest.get("dependencies", {}).get("@anthropic-ai/claude-code")
    return str(version) if version else None


def _platform_packages() -> list[str]:
    """Names of the npm packages that may hold this platform's native binary."""
    system = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform)
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine().lower()
    )
    if system is None or arch is None:
        return []
    base = f"@anthropic-ai/claude-code-{system}-{arch}"
    # glibc first; the musl build is the fallback on Alpine-like systems.
    return [base, f"{base}-musl"] if system == "linux" else [base]


def candidate_paths() -> list[Path]:
    """Where to look for ``claude``, most specific first."""
    candidates: list[Path] = []
    explicit = os.environ.get("ARTIBOT_CLAUDE_BIN")
    if explicit:
        candidates.append(Path(explicit))
    installed = claude_code_dir()
    if installed is not None:
        node_modules = installed / "node_modules"
        exe = ".exe" if sys.platform == "win32" else ""
        candidates.append(node_modules / ".bin" / f"claude{'.cmd' if exe else ''}")
        candidates.extend(node_modules / pkg / f"claude{exe}" for pkg in _platform_packages())
    on_path = shutil.which("claude")
    if on_path:
        candidates.append(Path(on_path))
    return candidates


def claude_version(binary: Path) -> str | None:
    """``claude --version`` output (e.g. ``2.1.332 (Claude Code)``), or None if it fails."""
    # A throwaway HOME: nothing of the developer's config is read or written.
    with tempfile.TemporaryDirectory(prefix="claude-version-") as home:
        try:
            done = subprocess.run(  # noqa: S603 - a binary we located ourselves
                [str(binary), "--version"],
                capture_output=True,
                text=True,
                timeout=VERSION_TIMEOUT,
                stdin=subprocess.DEVNULL,
                env=_base_env(Path(home)),
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
    output = done.stdout.strip()
    return output if done.returncode == 0 and output else None


@lru_cache(maxsize=1)
def find_claude() -> Path | None:
    """The first candidate ``claude`` whose ``--version`` runs, or None.

    Order: ``$ARTIBOT_CLAUDE_BIN``, ``node_modules/.bin/claude`` in
    :func:`claude_code_dir`, the platform package's native binary beside it (in
    case npm's postinstall did not put it in place), then ``claude`` on PATH.
    """
    for candidate in candidate_paths():
        if candidate.is_file() and claude_version(candidate) is not None:
            return candidate.resolve()
    return None


# -- running it -----------------------------------------------------------------


@dataclass
class ClaudeRun:
    """The outcome of one ``claude -p`` session."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    debug_log: str
    duration: float
    home: Path
    cwd: Path
    timed_out: bool = False
    events: list[Any] = field(default_factory=list)  # stdout lines, JSON-decoded where possible

    @property
    def ok(self) -> bool:
        """Whether claude exited 0 in time."""
        return self.returncode == 0 and not self.timed_out

    @property
    def session_id(self) -> str | None:
        """The session id announced by the stream-json ``init`` message."""
        for event in self.json_events("system", "init"):
            session_id = event.get("session_id")
            if isinstance(session_id, str):
                return session_id
        # Fall back to any event that names the session (e.g. a hook event).
        for event in self.json_events():
            session_id = event.get("session_id")
            if isinstance(session_id, str):
                return session_id
        return None

    @property
    def result(self) -> dict[str, Any] | None:
        """The final stream-json ``result`` message, if any."""
        results = self.json_events("result")
        return results[-1] if results else None

    def json_events(
        self, type_: str | None = None, subtype: str | None = None
    ) -> list[dict[str, Any]]:
        """The JSON stdout events, optionally only those of a type (and subtype)."""
        return [
            e
            for e in self.events
            if isinstance(e, dict)
            and (type_ is None or e.get("type") == type_)
            and (subtype is None or e.get("subtype") == subtype)
        ]

    def transcript_path(self) -> Path | None:
        """The session transcript, ``HOME/.claude/projects/<project>/<session>.jsonl``."""
        session_id = self.session_id
        if session_id is None:
            return None
        # Globbed rather than computed: the project folder name mangles the cwd.
        matches = sorted((self.home / ".claude" / "projects").glob(f"*/{session_id}.jsonl"))
        return matches[0] if matches else None

    def describe(self, tail: int = 4000) -> str:
        """A failure message with the ends of stdout, stderr and the debug log."""
        return "\n".join(
            [
                f"claude exited {self.returncode} after {self.duration:.1f}s"
                + (" (timed out)" if self.timed_out else ""),
                "args: " + " ".join(self.args),
                "--- stdout (tail) ---",
                self.stdout[-tail:],
                "--- stderr (tail) ---",
                self.stderr[-tail:],
                "--- debug log (tail) ---",
                self.debug_log[-tail:],
            ]
        )

    def check(self) -> ClaudeRun:
        """Raise AssertionError with diagnostics unless the run succeeded."""
        if not self.ok:
            raise AssertionError(self.describe())
        return self


def _base_env(home: Path, api_url: str | None = None) -> dict[str, str]:
    """A minimal environment: PATH inherited, everything else ours."""
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", os.defpath),
        "ANTHROPIC_API_KEY": DUMMY_API_KEY,
        "DISABLE_TELEMETRY": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "NO_COLOR": "1",
    }
    # Bytecode of the hooks (run from this clone as the plugin) goes where the tests' goes,
    # not into the clone, whose size tests/test_plugin_size.py holds under 6 MB.
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        env["PYTHONPYCACHEPREFIX"] = os.environ["PYTHONPYCACHEPREFIX"]
    # Windows needs these to start anything at all.
    for name in ("SYSTEMROOT", "SystemRoot", "COMSPEC", "PATHEXT", "TEMP", "TMP"):
        if sys.platform == "win32" and name in os.environ:
            env[name] = os.environ[name]
    if api_url is not None:
        env["ANTHROPIC_BASE_URL"] = api_url
    return env


def claude_env(
    home: Path, api_url: str | None = None, env_extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment :func:`run_claude` gives the CLI (and so the hooks)."""
    env = _base_env(home, api_url)
    env.update(env_extra or {})
    return env


def parse_events(stdout: str) -> list[Any]:
    """Decode stream-json output: one JSON value per line, raw text otherwise."""
    events: list[Any] = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        try:
            events.append(json.loads(line))
        except ValueError:
            events.append(line)
    return events


def _require_claude(claude_bin: Path | None) -> Path:
    """The binary to run, or a clear error telling how to install one."""
    binary = claude_bin or find_claude()
    if binary is None:
        msg = f"Claude Code CLI not found; install it with `{INSTALL_COMMAND}`"
        raise FileNotFoundError(msg)
    return binary


def _communicate(
    args: Sequence[str], *, env: Mapping[str, str], cwd: Path, timeout: float
) -> tuple[int, str, str, bool]:
    """Run a process to completion; on timeout, kill its whole process group."""
    with subprocess.Popen(  # noqa: S603 - args built by this module
        list(args),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,  # -p must not wait for piped input
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        # Own process group, so a timeout also ends the shells and hooks it spawned.
        start_new_session=True,
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_tree(process)
            try:
                stdout, stderr = process.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                # A process outside the group still holds our pipes open.
                stdout, stderr = "", "(output lost: pipes held open after the kill)"
            return process.wait(), stdout, stderr, True
    return process.returncode, stdout, stderr, False


def _parent_pid(stat: Path) -> int | None:
    """The parent id in a ``/proc/<pid>/stat`` file, or None if it vanished."""
    try:
        text = stat.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None  # the process ended while we looked
    # The command name may hold spaces or parentheses: split after the last ")".
    fields = text.rsplit(")", 1)[-1].split()
    return int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else None


def _descendants(pid: int) -> list[int]:
    """Ids of all processes below ``pid`` (Linux /proc; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        parent = _parent_pid(stat)
        if parent is not None:
            children.setdefault(parent, []).append(int(stat.parent.name))
    found: list[int] = []
    pending = [pid]
    while pending:
        kids = children.get(pending.pop(), [])
        found.extend(kids)
        pending.extend(kids)
    return found


def _kill_tree(process: subprocess.Popen[str]) -> None:
    """Kill ``process`` (which we started), its process group and its descendants.

    Claude Code runs each Bash tool command in a session of its own, so killing
    the group alone would leave e.g. a hanging test command behind.
    """
    # Collected first: once claude dies, its children are re-parented and lost.
    descendants = _descendants(process.pid)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (AttributeError, ProcessLookupError, PermissionError):
        process.kill()  # no process groups (Windows) or already gone
    for pid in descendants:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def run_claude(  # its options mirror the CLI's
    prompt: str,
    *,
    plugin_dir: Path | Iterable[Path] | None,
    home: Path,
    cwd: Path,
    api_url: str,
    env_extra: Mapping[str, str] | None = None,
    allowed_tools: Sequence[str] = ("Bash",),
    timeout: float = 120,
    extra_args: Sequence[str] = (),
    claude_bin: Path | None = None,
) -> ClaudeRun:
    """Run ``claude -p PROMPT`` with a plugin against a (fake) API at ``api_url``.

    ``home`` becomes ``$HOME`` (Claude Code keeps its config, transcripts and
    plugin data there); ``extra_args`` go before the prompt's options, e.g.
    ``("--resume", session_id)``. Never raises on a failed run: inspect
    :attr:`ClaudeRun.ok` or call :meth:`ClaudeRun.check`.
    """
    binary = _require_claude(claude_bin)
    plugin_dirs = [plugin_dir] if isinstance(plugin_dir, (str, Path)) else list(plugin_dir or ())
    home.mkdir(parents=True, exist_ok=True)
    cwd.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="claude-e2e-") as scratch:
        debug_file = Path(scratch) / "debug.log"
        args = [str(binary), "-p", prompt, *extra_args]
        for directory in plugin_dirs:
            args += ["--plugin-dir", str(directory)]
        if allowed_tools:
            args += ["--allowedTools", ",".join(allowed_tools)]
        args += ["--output-format", "stream-json", "--verbose", "--debug-file", str(debug_file)]
        started = time.monotonic()
        returncode, stdout, stderr, timed_out = _communicate(
            args, env=claude_env(home, api_url, env_extra), cwd=cwd, timeout=timeout
        )
        duration = time.monotonic() - started
        debug_log = _read_text(debug_file)
    return ClaudeRun(
        args=args,
        returncode=returncode,
        stdout=stdout,
        stderr=stderr,
        debug_log=debug_log,
        duration=duration,
        home=home,
        cwd=cwd,
        timed_out=timed_out,
        events=parse_events(stdout),
    )


def _read_text(path: Path) -> str:
    """A file's text, or empty when it was never written."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def validate_plugin(
    plugin_dir: Path,
    home: Path,
    *,
    strict: bool = True,
    claude_bin: Path | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """Run ``claude plugin validate [--strict] <dir>`` (offline, about 0.2 s)."""
    binary = _require_claude(claude_bin)
    home.mkdir(parents=True, exist_ok=True)
    args = [str(binary), "plugin", "validate", *(["--strict"] if strict else []), str(plugin_dir)]
    # validate writes ~/.claude.json, hence the throwaway HOME.
    return subprocess.run(  # noqa: S603 - args built by this module
        args,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env=claude_env(home),
        cwd=home,
        check=False,
    )
