"""The plugin's own Python environment: where it is, whether it is ready, how it is built.

Standard library only, and Python 3.8+: the hook entry imports this module under whatever
``python3`` the user has (macOS's is 3.9), so there is no ``X | Y`` at run time, no
``match``, no ``removeprefix``, and paths are ``str`` (importing pathlib costs a hook
milliseconds). The CLI and ``doctor`` use it too: it sits below both.

Claude Code installs no Python packages. When the hooks' ``python3`` lacks pydantic,
orjson, filelock or platformdirs, or is older than 3.10, the plugin uses a virtual
environment in ``$CLAUDE_PLUGIN_DATA/venv`` (which survives plugin updates):

- *ready* means ``venv/.artibot-memory-requirements.sha256`` holds the sha256 of the
  plugin's ``requirements.txt`` and the venv's interpreter exists; a changed requirements
  file means not ready, and the next SessionStart rebuilds (in place);
- a build is ONE detached builder (:func:`start_build` runs :func:`main` with the same
  interpreter, guarded by ``bootstrap.lock``; a lock older than 20 minutes is a dead
  builder's). It makes the venv with the first *base* :func:`find_base` finds: this
  interpreter when it is 3.10+ and has ``venv``; else ``python3.14`` ... ``python3.10``,
  ``python3`` or ``python`` on PATH that is; else ``uv``, which downloads a Python when none
  is installed. Then it installs ``requirements.txt``, logging every step to
  ``bootstrap.log``;
- on success it writes the ready marker and ``bootstrap.ready``, which the next
  SessionStart takes (:func:`take_ready_news`, so "memory is ready" is said once); on
  failure ``bootstrap.failed``, which holds new builds off for an hour
  (:func:`recently_failed`) unless ``artibot-memory doctor --rebuild-venv``
  (:func:`rebuild`) clears it.

>>> venv_python("/data").startswith(os.path.join("/data", "venv"))
True
"""

from __future__ import annotations

import os
import sys

from artibot_memory.core import clock, disk
from artibot_memory.core.paths import PLUGIN_DATA_ENV, READY_NEWS_NAME, runtime_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess

    Base = tuple[str, str]  # ("python", path) or ("uv", path)

RUNTIME_MODULES = ("pydantic", "orjson", "filelock", "platformdirs")
MIN_PYTHON = (3, 10)  # what the package beyond the hook entry needs
PLUGIN_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
REQUIREMENTS = os.path.join(PLUGIN_ROOT, "requirements.txt")
ENTRY_SCRIPT = os.path.join(PLUGIN_ROOT, "bin", "artibot-memory")
DATA_ENV = PLUGIN_DATA_ENV
RELAYED_ENV = "ARTIBOT_MEMORY_RELAYED"
MARKER_NAME = ".artibot-memory-requirements.sha256"
LOCK_NAME = "bootstrap.lock"
LOG_NAME = "bootstrap.log"
FAILED_NAME = "bootstrap.failed"
NEWS_NAME = READY_NEWS_NAME
LOCK_STALE_SECONDS = 20 * 60
_AT = "at="
RETRY_AFTER_SECONDS = 60 * 60
STEP_TIMEOUT_SECONDS = 15 * 60
PROBE_TIMEOUT_SECONDS = 20.0
# Newest first: the first that runs and can make a venv is the base.
PYTHON_NAMES = (
    "python3.14",
    "python3.13",
    "python3.12",
    "python3.11",
    "python3.10",
    "python3",
    "python",
)
UV_PYTHON_REQUEST = ">=3.10"
MAX_LOG_LINE = 300
# Exit 0 when the interpreter can be a base: new enough, with venv and ensurepip.
_BASE_PROBE = (
    "import sys, importlib.util as u; "
    "ok = sys.version_info >= (3, 10) and u.find_spec('venv') and u.find_spec('ensurepip'); "
    "sys.exit(0 if ok else 1)"
)
# The version first, so a venv whose packages do not import still says what it runs.
_VENV_PROBE = (
    "import sys; print('%d.%d.%d' % sys.version_info[:3], flush=True); import "
    + ", ".join(RUNTIME_MODULES)
)
# The builder puts the plugin root on sys.path itself: `-m` would rely on the current
# directory being importable, which PYTHONSAFEPATH turns off.
_BUILDER = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from artibot_memory.core.venv import main; raise SystemExit(main(sys.argv[2:]))"
)


def venv_dir(data_dir: str | os.PathLike[str]) -> str:
    """Return the plugin venv's folder inside ``data_dir``."""
    return os.path.join(os.fspath(data_dir), "venv")


def venv_python(data_dir: str | os.PathLike[str]) -> str:
    """Return the interpreter of the plugin venv inside ``data_dir``."""
    if sys.platform == "win32":
        return os.path.join(venv_dir(data_dir), "Scripts", "python.exe")
    return os.path.join(venv_dir(data_dir), "bin", "python")


def requirements_digest(path: str | None = None) -> str | None:
    """Return the sha256 of the requirements file, or None when there is none."""
    import hashlib  # noqa: PLC0415 - only when readiness is asked

    try:
        with open(REQUIREMENTS if path is None else path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def is_ready(data_dir: str | os.PathLike[str]) -> bool:
    """Tell whether the venv in ``data_dir`` was built from today's requirements file."""
    digest = requirements_digest()
    try:
        with open(os.path.join(venv_dir(data_dir), MARKER_NAME), encoding="ascii") as handle:
            marker = handle.read().strip()
    except (OSError, ValueError):
        return False
    return digest is not None and marker == digest and os.path.exists(venv_python(data_dir))


def plugin_data_dirs() -> list[str]:
    """Where this plugin's venv is, or is built: ``$CLAUDE_PLUGIN_DATA``, else every known one.

    Hooks always get the variable (Claude Code and Codex set it; the hook entry sets it
    for Gemini CLI and Cursor, which give none: :func:`artibot_memory.core.paths.runtime_dir`);
    the Bash tool (where the skill runs the CLI) does not, so the CLI looks in every
    agent's data folders (:func:`known_data_dirs`).
    """
    given = os.environ.get(DATA_ENV, "")
    if given:
        return [given]
    return known_data_dirs()


def known_data_dirs() -> list[str]:
    """Every plugin data folder of ours an agent made: Claude Code's, Codex's, the shared one.

    ``~/.claude/plugins/data/artibot-memory*`` (``$CLAUDE_CONFIG_DIR``),
    ``~/.codex/plugins/data/artibot-memory*`` (``$CODEX_HOME``) and the runtime folder of
    the agents that give none, where it exists.
    """
    claude = os.path.expanduser(os.environ.get("CLAUDE_CONFIG_DIR") or "~/.claude")
    codex = os.path.expanduser(os.environ.get("CODEX_HOME") or "~/.codex")
    found = []
    for config in (claude, codex):
        data = os.path.join(config, "plugins", "data")
        try:
            names = sorted(os.listdir(data))
        except OSError:
            continue
        found += [os.path.join(data, name) for name in names if name.startswith("artibot-memory")]
    shared = runtime_dir()
    return [*found, shared] if os.path.isdir(shared) else found


def ready_python() -> str | None:
    """Return the interpreter of a ready plugin venv, unless we already run under it.

    This plugin's own first; else one another agent's copy of the plugin built from the
    same requirements (a second agent reuses what the first built).
    """
    if os.environ.get(RELAYED_ENV):
        return None
    folders = dict.fromkeys([*plugin_data_dirs(), *known_data_dirs()])
    return next((venv_python(d) for d in folders if is_ready(d)), None)


def stamped(text: str) -> str:
    """Return a lock's or a failure's line with the time it was written: ``… at=<epoch>``.

    Its age is read from there, by the clock that wrote it (:func:`_age_seconds`), not from
    the file's mtime: the kernel's clock, which freezegun and faketime do not move.

    >>> stamped("123").startswith("123 at=")
    True
    """
    return f"{text} {_AT}{clock.now().timestamp():.3f}\n"


def _age_seconds(path: str) -> float:
    """Return how long ago ``path`` was written: its ``at=`` stamp, else its mtime."""
    with open(path, encoding="utf-8", errors="replace") as file:
        words = file.readline(512).split()
    written = _stamp_of(words[-1]) if words else None
    return clock.now().timestamp() - (os.stat(path).st_mtime if written is None else written)


def _stamp_of(word: str) -> float | None:
    if not word.startswith(_AT):
        return None
    try:
        return float(word[len(_AT) :])
    except ValueError:
        return None


def build_age(data_dir: str | os.PathLike[str]) -> float | None:
    """Seconds since the running build started, or None when no live builder holds the lock."""
    try:
        age = _age_seconds(os.path.join(os.fspath(data_dir), LOCK_NAME))
    except OSError:
        return None
    return max(age, 0.0) if age <= LOCK_STALE_SECONDS else None


def recently_failed(data_dir: str | os.PathLike[str]) -> bool:
    """Tell whether the last build failed less than an hour ago (no new build until then)."""
    try:
        return _age_seconds(os.path.join(os.fspath(data_dir), FAILED_NAME)) < RETRY_AFTER_SECONDS
    except OSError:
        return False


def has_failed(data_dir: str | os.PathLike[str]) -> bool:
    """Tell whether the last build failed (however long ago)."""
    return os.path.exists(os.path.join(os.fspath(data_dir), FAILED_NAME))


def log_path(data_dir: str | os.PathLike[str]) -> str:
    """Return the build log of ``data_dir``."""
    return os.path.join(os.fspath(data_dir), LOG_NAME)


def last_log_line(data_dir: str | os.PathLike[str]) -> str | None:
    """Return the last non-empty line of the build log (at most 300 characters), if any."""
    try:
        with open(log_path(data_dir), "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(handle.tell() - 4096, 0))
            tail = handle.read().decode("utf-8", "replace")
    except OSError:
        return None
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    return lines[-1][:MAX_LOG_LINE] if lines else None


def take_ready_news(data_dir: str | os.PathLike[str]) -> bool:
    """Tell whether a build finished since the last SessionStart, and forget it: True once.

    Two sessions starting together cannot both be told: only one removes the file.
    """
    try:
        os.unlink(os.path.join(os.fspath(data_dir), NEWS_NAME))
    except OSError:
        return False
    return True


def _run(argv: list[str], timeout: float) -> subprocess.CompletedProcess[bytes] | None:
    import subprocess  # noqa: PLC0415 - only when an interpreter is asked

    try:
        return subprocess.run(  # noqa: S603 - an interpreter and a fixed probe, no shell
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None


def can_be_base(python: str) -> bool:
    """Tell whether ``python`` runs, is 3.10 or newer, and can make a venv."""
    done = _run([python, "-c", _BASE_PROBE], PROBE_TIMEOUT_SECONDS)
    return done is not None and done.returncode == 0


def find_base() -> Base | None:
    """Return what the venv is made with: ``("python", path)``, ``("uv", path)`` or None.

    This interpreter when it is new enough (asked without a process); else the first of
    :data:`PYTHON_NAMES` on PATH that :func:`can_be_base`; else ``uv`` on PATH.
    """
    import importlib.util  # noqa: PLC0415 - only when a build is due
    import shutil  # noqa: PLC0415

    this = _this_base()
    if this is not None and all(importlib.util.find_spec(n) for n in ("venv", "ensurepip")):
        return ("python", this)
    seen = {os.path.realpath(sys.executable)}
    for name in PYTHON_NAMES:
        found = shutil.which(name)
        if found is None or os.path.realpath(found) in seen:
            continue
        seen.add(os.path.realpath(found))
        if can_be_base(found):
            return ("python", found)
    uv = shutil.which("uv")
    return ("uv", uv) if uv else None


def _this_base() -> str | None:
    """Return this interpreter (outside any venv it runs in) when it is 3.10 or newer."""
    if sys.version_info < MIN_PYTHON:
        return None
    if sys.prefix == sys.base_prefix:
        return sys.executable
    inside = os.path.realpath(sys.prefix) + os.sep
    for candidate in (getattr(sys, "_base_executable", ""), os.path.realpath(sys.executable)):
        if candidate and os.path.exists(candidate) and not candidate.startswith(inside):
            return candidate
    return None


def describe_base(base: Base) -> str:
    """Say in words what a build uses.

    >>> describe_base(("uv", "/bin/uv"))
    'uv (/bin/uv), which downloads a Python 3.10+ when none is installed'
    """
    kind, tool = base
    if kind == "uv":
        return f"uv ({tool}), which downloads a Python 3.10+ when none is installed"
    return tool


def start_build(data_dir: str | os.PathLike[str], base: Base | None = None) -> bool:
    """Start the detached builder unless one is running; True when this call started it."""
    import subprocess  # noqa: PLC0415 - only a build starts a process

    data = os.fspath(data_dir)
    os.makedirs(data, exist_ok=True)
    lock = os.path.join(data, LOCK_NAME)
    if not _take_lock(lock):
        return False
    options = [f"--{base[0]}", base[1]] if base is not None else []
    # A base interpreter runs its own build: never one inside the venv being rebuilt.
    builder = base[1] if base is not None and base[0] == "python" else sys.executable
    try:
        subprocess.Popen(  # noqa: S603 - our own interpreter and module, no shell
            [builder, "-c", _BUILDER, PLUGIN_ROOT, *options, data],
            cwd=data,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        _unlink(lock)
        raise
    return True


def rebuild(data_dir: str | os.PathLike[str]) -> tuple[bool, list[str]]:
    """Retry the build now (``doctor --rebuild-venv``): clear the failure, start the builder.

    Return whether a build is now running, and what to tell the person.
    """
    data = os.fspath(data_dir)
    log = log_path(data)
    _unlink(os.path.join(data, FAILED_NAME))
    if build_age(data) is not None:
        return True, [f"a build of {venv_dir(data)} is already running; follow it in {log}"]
    base = find_base()
    if base is None:
        return False, [no_base_problem()]
    said = []
    python = venv_python(data)
    if os.path.exists(python) and probe_venv(python)[1] is not None and not _inside(data):
        # Its packages do not import: pip would call them installed. Start afresh.
        import shutil  # noqa: PLC0415

        shutil.rmtree(venv_dir(data), ignore_errors=True)
        said.append(f"removed {venv_dir(data)}: its packages did not import")
    if not start_build(data, base):
        return True, [f"a build of {venv_dir(data)} is already running; follow it in {log}"]
    return True, [
        *said,
        f"started building {venv_dir(data)} with {describe_base(base)}; follow it in {log}",
    ]


def _inside(data_dir: str) -> bool:
    """Tell whether this interpreter runs in the venv of ``data_dir``."""
    return os.path.realpath(sys.prefix) == os.path.realpath(venv_dir(data_dir))


def no_base_problem() -> str:
    """Say why no venv can be built here, and what to install."""
    version = ".".join(str(part) for part in sys.version_info[:3])
    if sys.version_info >= MIN_PYTHON:
        found = f"{sys.executable} (Python {version}) cannot create a virtual environment"
        fix = f"install its venv module (Debian, Ubuntu: python{version[:4]}-venv) or uv"
    else:
        found = f"{sys.executable} is Python {version}"
        fix = "install Python 3.10 or newer (python.org, `brew install python@3.12`) or uv"
    return (
        f"artibot-memory needs Python 3.10 or newer: {found}, and no python3.10 ... "
        f"python3.14 or uv on PATH can make its environment; {fix}"
    )


def _take_lock(lock: str) -> bool:
    """Create the lock file exclusively; a lock older than 20 minutes is a dead builder's."""
    try:
        if _age_seconds(lock) > LOCK_STALE_SECONDS:
            os.unlink(lock)
    except OSError:
        pass
    return disk.create_exclusive(lock, stamped(str(os.getpid())))


def _unlink(path: str) -> None:
    import contextlib  # noqa: PLC0415 - the hooks' SessionStart rarely unlinks

    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def build(data_dir: str | os.PathLike[str], base: Base | None = None) -> bool:
    """Create or update the venv and write the ready marker; log to ``bootstrap.log``.

    ``base`` (see :func:`find_base`) is looked for when not given.
    """
    import subprocess  # noqa: PLC0415 - the builder's own process only

    data = os.fspath(data_dir)
    venv = venv_dir(data)
    python = venv_python(data)
    digest = requirements_digest()
    log = disk.Log(log_path(data))
    try:
        base = base if base is not None else _found_base()
        _make_venv(base, venv, python, log)
        _install(base, python, log)
        disk.write_text(os.path.join(venv, MARKER_NAME), f"{digest}\n")
    except (OSError, subprocess.SubprocessError) as exc:
        log.write(f"\nfailed: {exc}\n")
        disk.write_text(os.path.join(data, FAILED_NAME), stamped(str(exc).replace("\n", " ")))
        return False
    log.write(f"\nready: {venv} holds the plugin's dependencies\n")
    _unlink(os.path.join(data, FAILED_NAME))
    disk.write_text(os.path.join(data, NEWS_NAME), f"{describe_base(base)}\n")
    return True


def _found_base() -> Base:
    base = find_base()
    if base is None:
        raise OSError(no_base_problem())
    return base


def _make_venv(base: Base, venv: str, python: str, log: disk.Log) -> None:
    """Create the venv unless a working one (3.10+) is there already."""
    if _runs(python):
        return
    kind, tool = base
    if kind == "uv":
        import shutil  # noqa: PLC0415

        shutil.rmtree(venv, ignore_errors=True)
        # --seed: pip inside, so a later rebuild with a plain interpreter can use it.
        _step([tool, "venv", "--seed", "--python", UV_PYTHON_REQUEST, venv], log)
    else:
        _step([tool, "-m", "venv", "--clear", venv], log)


def _install(base: Base, python: str, log: disk.Log) -> None:
    if base[0] == "uv":
        _step([base[1], "pip", "install", "--python", python, "-r", REQUIREMENTS], log)
        return
    pip = [python, "-m", "pip", "install", "--disable-pip-version-check"]
    _step([*pip, "--no-input", "-r", REQUIREMENTS], log)


def _runs(python: str) -> bool:
    check = "import sys; sys.exit(sys.version_info < (3, 10))"
    done = _run([python, "-c", check], 30.0)
    return done is not None and done.returncode == 0


def _step(command: list[str], log: disk.Log) -> None:
    log.write(f"$ {' '.join(command)}\n")
    log.run(command, STEP_TIMEOUT_SECONDS)


def probe_venv(python: str) -> tuple[str | None, str | None]:
    """Run the venv's interpreter: ``(version, None)`` when the packages import, else a problem."""
    done = _run([python, "-c", _VENV_PROBE], PROBE_TIMEOUT_SECONDS)
    if done is None:
        return None, "does not run"
    version = done.stdout.decode("utf-8", "replace").strip() or None
    if done.returncode == 0:
        return version, None
    errors = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    why = errors[-1].strip()[:MAX_LOG_LINE] if errors else f"exit status {done.returncode}"
    return version, (f"cannot import its packages ({why})" if version else f"does not run ({why})")


def main(argv: list[str]) -> int:
    """Entry of the detached builder: ``main([--python PATH | --uv PATH,] DATA_DIR)``.

    Builds, then frees the lock.
    """
    data_dir = argv[-1]
    options = argv[:-1]
    base = (options[0][2:], options[1]) if len(options) == 2 else None  # noqa: PLR2004
    try:
        return 0 if build(data_dir, base) else 1
    finally:
        _unlink(os.path.join(data_dir, LOCK_NAME))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
