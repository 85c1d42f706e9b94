"""The plugin's own Python environment, built once in the background (standard library only).

Claude Code installs no Python packages; hooks start from the user's ``python3``. When
pydantic, orjson, filelock or platformdirs cannot be imported there, the launcher uses
a virtual environment in ``$CLAUDE_PLUGIN_DATA/venv`` (which survives plugin updates):

- *ready* means ``venv/.artibot-memory-requirements.sha256`` holds the sha256 of the
  plugin's ``requirements.txt``; a changed requirements file means not ready, and the
  next SessionStart rebuilds (pip upgrades the existing venv in place);
- when it is not ready, SessionStart starts ONE detached builder
  (:func:`main`, run detached by the same ``python3``, guarded by ``bootstrap.lock``)
  that runs ``python3 -m venv`` and ``pip install -r requirements.txt``, logs to
  ``bootstrap.log`` and writes the marker only on success. A failed build is retried
  after an hour, not at every session start.

>>> venv_python(Path("/data")).name in ("python", "python.exe")
True
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import BinaryIO

from artibot_memory.core import clock

RUNTIME_MODULES = ("pydantic", "orjson", "filelock", "platformdirs")
PLUGIN_ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = PLUGIN_ROOT / "requirements.txt"
ENTRY_SCRIPT = PLUGIN_ROOT / "bin" / "artibot-memory"
DATA_ENV = "CLAUDE_PLUGIN_DATA"
RELAYED_ENV = "ARTIBOT_MEMORY_RELAYED"
MARKER_NAME = ".artibot-memory-requirements.sha256"
LOCK_NAME = "bootstrap.lock"
LOG_NAME = "bootstrap.log"
FAILED_NAME = "bootstrap.failed"
LOCK_STALE_SECONDS = 20 * 60
RETRY_AFTER_SECONDS = 60 * 60
STEP_TIMEOUT_SECONDS = 15 * 60
# The builder puts the plugin root on sys.path itself: `-m` would rely on the current
# directory being importable, which PYTHONSAFEPATH turns off.
_BUILDER = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from artibot_memory.plugin.bootstrap import main; raise SystemExit(main(sys.argv[2:]))"
)
INSTALLING_MESSAGE = (
    "artibot-memory: installing its Python dependencies once in the background; "
    "memory recall starts with your next session."
)


def is_dependency_failure(exc: ImportError) -> bool:
    """Tell whether ``exc`` comes from a missing (or too old) runtime dependency.

    >>> is_dependency_failure(ModuleNotFoundError("x", name="orjson"))
    True
    """
    top = (exc.name or "").split(".")[0]
    return top in RUNTIME_MODULES or bool(missing_modules())


def missing_modules() -> list[str]:
    """Return the runtime dependencies this interpreter cannot find."""
    return [name for name in RUNTIME_MODULES if importlib.util.find_spec(name) is None]


def missing_message(exc: ImportError) -> str:
    """One line for a terminal user who runs the CLI without its dependencies."""
    top = (exc.name or "").split(".")[0]
    name = top if top in RUNTIME_MODULES else next(iter(missing_modules()), top or "?")
    return (
        f"artibot-memory: the Python package {name!r} is missing for {sys.executable}; "
        "install artibot-memory with `pip install artibot-memory` (or run it inside Claude Code, "
        "which builds its own environment)"
    )


def requirements_digest(path: Path = REQUIREMENTS) -> str | None:
    """Return the sha256 of the requirements file, or None when there is none."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def venv_python(data_dir: Path) -> Path:
    """Return the interpreter of the plugin venv inside ``data_dir``."""
    if sys.platform == "win32":
        return data_dir / "venv" / "Scripts" / "python.exe"
    return data_dir / "venv" / "bin" / "python"


def is_ready(data_dir: Path) -> bool:
    """Tell whether the venv in ``data_dir`` was built from today's requirements file."""
    digest = requirements_digest()
    try:
        marker = (data_dir / "venv" / MARKER_NAME).read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return False
    return digest is not None and marker == digest and venv_python(data_dir).exists()


def plugin_data_dirs() -> list[Path]:
    """Where the plugin venv may be: ``$CLAUDE_PLUGIN_DATA``, else Claude Code's data dirs.

    Hooks always get the variable; the Bash tool (where the skill runs the CLI) does not,
    so the CLI looks in ``~/.claude/plugins/data/artibot-memory-*`` as well.
    """
    given = os.environ.get(DATA_ENV, "")
    if given:
        return [Path(given)]
    config = Path(os.environ.get("CLAUDE_CONFIG_DIR") or "~/.claude").expanduser()
    with contextlib.suppress(OSError):
        return sorted((config / "plugins" / "data").glob("artibot-memory*"))
    return []


def ready_python() -> Path | None:
    """Return the interpreter of a ready plugin venv, unless we already run under it."""
    if os.environ.get(RELAYED_ENV):
        return None
    return next((venv_python(d) for d in plugin_data_dirs() if is_ready(d)), None)


def relay(
    python: Path, event: str, raw: bytes, timeout: float
) -> subprocess.CompletedProcess[bytes]:
    """Run the hook again under ``python`` with the same stdin bytes, within ``timeout``."""
    env = {**os.environ, RELAYED_ENV: "1"}
    command = [str(python), str(ENTRY_SCRIPT), "hook", event]
    return subprocess.run(  # noqa: S603 - our own interpreter and script, no shell
        command, input=raw, capture_output=True, timeout=timeout, env=env, check=False
    )


def session_start_message() -> str | None:
    """Start the background build if needed; return what to tell the user, if anything."""
    given = os.environ.get(DATA_ENV, "")
    if not given:
        return None
    data_dir = Path(given)
    if _recently_failed(data_dir):
        log = data_dir / LOG_NAME
        return (
            f"artibot-memory: installing its Python dependencies failed (details in {log}); "
            "capture continues, and the install is retried at a later session start."
        )
    start_build(data_dir)
    return INSTALLING_MESSAGE


def start_build(data_dir: Path) -> bool:
    """Start the detached builder unless one is running; True when this call started it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    if not _take_lock(data_dir / LOCK_NAME):
        return False
    try:
        subprocess.Popen(  # noqa: S603 - our own interpreter and module, no shell
            [sys.executable, "-c", _BUILDER, str(PLUGIN_ROOT), str(data_dir)],
            cwd=data_dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        (data_dir / LOCK_NAME).unlink(missing_ok=True)
        raise
    return True


def _take_lock(lock: Path) -> bool:
    """Create the lock file exclusively; a lock older than 20 minutes is a dead builder's."""
    with contextlib.suppress(FileNotFoundError):
        if _age_seconds(lock) > LOCK_STALE_SECONDS:
            lock.unlink()
    try:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    os.write(fd, f"{os.getpid()}\n".encode())
    os.close(fd)
    return True


def _age_seconds(path: Path) -> float:
    return clock.now().timestamp() - path.stat().st_mtime


def _recently_failed(data_dir: Path) -> bool:
    try:
        return _age_seconds(data_dir / FAILED_NAME) < RETRY_AFTER_SECONDS
    except OSError:
        return False


def build(data_dir: Path) -> bool:
    """Create or update the venv and write the ready marker; log to ``bootstrap.log``."""
    venv = data_dir / "venv"
    python = venv_python(data_dir)
    digest = requirements_digest()
    with (data_dir / LOG_NAME).open("wb") as log:
        try:
            if not _runs(python):
                _step([sys.executable, "-m", "venv", "--clear", str(venv)], log)
            pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check"]
            _step([*pip, "--no-input", "-r", str(REQUIREMENTS)], log)
        except (OSError, subprocess.SubprocessError) as exc:
            log.write(f"\nfailed: {exc}\n".encode())
            (data_dir / FAILED_NAME).write_text(f"{exc}\n", encoding="utf-8")
            return False
    (venv / MARKER_NAME).write_text(f"{digest}\n", encoding="ascii")
    (data_dir / FAILED_NAME).unlink(missing_ok=True)
    return True


def _runs(python: Path) -> bool:
    try:
        done = subprocess.run(  # noqa: S603 - our venv's interpreter, fixed argv
            [str(python), "-c", "pass"], capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _step(command: list[str], log: BinaryIO) -> None:
    log.write(f"$ {' '.join(command)}\n".encode())
    log.flush()
    subprocess.run(  # noqa: S603 - fixed argv, no shell
        command,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        timeout=STEP_TIMEOUT_SECONDS,
        check=True,
    )


def main(argv: list[str]) -> int:
    """Entry of the detached builder: ``main([DATA_DIR])`` builds, then frees the lock."""
    data_dir = Path(argv[0])
    try:
        return 0 if build(data_dir) else 1
    finally:
        (data_dir / LOCK_NAME).unlink(missing_ok=True)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
