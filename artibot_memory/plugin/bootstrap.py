"""What a hook does when the full path cannot run here (standard library only, Python 3.8+).

The full path (pydantic and the stores) needs Python 3.10 and the runtime dependencies.
When the hooks' ``python3`` lacks either, :mod:`artibot_memory.plugin.entry` comes here:

- a ready plugin venv (:mod:`artibot_memory.core.venv`) runs the hook again, with the same
  stdin (:func:`relay`);
- otherwise SessionStart (:func:`session_start_output`) starts the one background build
  and says so, or says how it is going: still installing (a second session started while
  the first builds), failed (with the log's last line and how to retry at once), or, once
  per interpreter, that no Python 3.10+ and no ``uv`` is there to build with, and what to
  install. It serves the last context the start cache saved for the project, when there is
  one, rather than none;
- the first SessionStart after a build succeeded says "memory is ready", once
  (:func:`ready_message`);
- the command line without its dependencies names a command that works
  (:func:`missing_message`), and runs ``doctor --rebuild-venv`` itself
  (:func:`rebuild_from_cli`).

Like the entry, this module runs under any Python 3.8+ (the version guard is the entry's):
no ``X | Y`` at run time, no ``match``, str paths.

>>> is_dependency_failure(ModuleNotFoundError("x", name="orjson"))
True
"""

from __future__ import annotations

import os
import sys

from artibot_memory.core import venv

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from typing import Any

# The relay's environment (named here too: tests and callers of the entry read them here).
DATA_ENV = venv.DATA_ENV
RELAYED_ENV = venv.RELAYED_ENV
# Told once per interpreter: which one was told there is nothing to build the venv with.
NOTICE_NAME = "bootstrap.no-python"
INSTALLING_MESSAGE = (
    "artibot-memory: installing its Python dependencies once in the background; "
    "memory recall starts with your next session."
)
REBUILD_COMMAND = "artibot-memory doctor --rebuild-venv"


def is_dependency_failure(exc: ImportError) -> bool:
    """Tell whether ``exc`` comes from a missing (or too old) runtime dependency."""
    top = (exc.name or "").split(".")[0]
    return top in venv.RUNTIME_MODULES or bool(missing_modules())


def missing_modules() -> list[str]:
    """Return the runtime dependencies this interpreter cannot find."""
    import importlib.util  # noqa: PLC0415 - only when the full path failed

    return [name for name in venv.RUNTIME_MODULES if importlib.util.find_spec(name) is None]


def python_version() -> str:
    """Return this interpreter's version, as ``3.9.18``."""
    return ".".join(str(part) for part in sys.version_info[:3])


def missing_message(exc: ImportError | None) -> str:
    """One line for a person who runs the CLI where it cannot run (``exc`` None: too old)."""
    if exc is None:
        version = python_version()
        head = f"artibot-memory needs Python 3.10 or newer; {sys.executable} is Python {version}"
    else:
        top = (exc.name or "").split(".")[0]
        name = top if top in venv.RUNTIME_MODULES else next(iter(missing_modules()), top or "?")
        head = f"artibot-memory: the Python package {name!r} is missing for {sys.executable}"
    data_dirs = venv.plugin_data_dirs()
    if data_dirs:
        fix = f"build the plugin's own environment in {data_dirs[0]} with `{REBUILD_COMMAND}`"
    elif exc is None:
        fix = "install Python 3.10 or newer (python.org, `brew install python@3.12`) and use it"
    elif os.path.exists(os.path.join(venv.PLUGIN_ROOT, "pyproject.toml")):
        fix = f"install it with `{sys.executable} -m pip install -e {venv.PLUGIN_ROOT}`"
    else:
        fix = f"install it with `{sys.executable} -m pip install -r {venv.REQUIREMENTS}`"
    return f"{head}; {fix}"


def relay(
    python: str, event: str, raw: bytes, timeout: float
) -> subprocess.CompletedProcess[bytes]:
    """Run the hook again under ``python`` with the same stdin bytes, within ``timeout``."""
    import subprocess  # noqa: PLC0415 - only when relaying

    env = dict(os.environ)
    env[venv.RELAYED_ENV] = "1"
    command = [python, venv.ENTRY_SCRIPT, "hook", event]
    return subprocess.run(  # noqa: S603 - our own interpreter and script, no shell
        command, input=raw, capture_output=True, timeout=timeout, env=env, check=False
    )


def ready_message() -> str | None:
    """Say "memory is ready" at the first SessionStart after a build succeeded, once."""
    given = os.environ.get(venv.DATA_ENV, "")
    if not given or os.environ.get(venv.RELAYED_ENV) or not venv.take_ready_news(given):
        return None
    return (
        f"artibot-memory: memory is ready (its Python environment in {venv.venv_dir(given)} "
        "is built); recall starts with this session."
    )


def session_start_output(
    payload: dict[str, Any], *, captures: bool = True
) -> dict[str, Any] | None:
    """SessionStart without the full path: the build's news and the last saved context.

    ``captures`` says whether this interpreter runs the fast path (it journals and reads
    the start cache); under Python 3.8 it does not.
    """
    given = os.environ.get(venv.DATA_ENV, "")
    if not given:
        return None
    message = status_message(given, captures=captures)
    saved = saved_context(payload) if captures else None
    output: dict[str, Any] = {}
    if saved is not None:
        text, day = saved
        output["hookSpecificOutput"] = {
            "hookEventName": "SessionStart",
            "additionalContext": text,
        }
        if message:
            message += f" This session starts with the memory context saved on {day}."
    if message:
        output["systemMessage"] = message
    return output or None


def status_message(data_dir: str, *, captures: bool = True) -> str | None:
    """Start the background build if one is due; return what to tell the user, if anything."""
    log = venv.log_path(data_dir)
    age = venv.build_age(data_dir)
    if age is not None:
        return _still_installing(age, log)
    if venv.recently_failed(data_dir):
        last = venv.last_log_line(data_dir) or "no log"
        return (
            f"artibot-memory: installing its Python dependencies failed ({last}; details in "
            f"{log}); capture continues. Retry now with `{REBUILD_COMMAND}`, or it is retried "
            "at a session start an hour after the failure."
        )
    base = venv.find_base()
    if base is None:
        return _no_python_once(data_dir, captures=captures)
    if not venv.start_build(data_dir, base):
        return _still_installing(0.0, log)
    if sys.version_info >= venv.MIN_PYTHON:
        return INSTALLING_MESSAGE
    return (
        f"{INSTALLING_MESSAGE[:-1]}, with {venv.describe_base(base)} "
        f"(this python3, {sys.executable}, is {python_version()})."
    )


def _still_installing(age: float, log: str) -> str:
    minutes = int(age // 60)
    started = "just now" if minutes < 1 else f"{minutes} min ago"
    return (
        f"artibot-memory: still installing its Python dependencies (started {started}; "
        f"log: {log}); capture continues, and memory recall starts at the first session "
        "start after it finishes."
    )


def _no_python_once(data_dir: str, *, captures: bool) -> str | None:
    """Say what to install, once per interpreter; None when this one was told already."""
    told = f"{sys.executable} {python_version()}\n"
    notice = os.path.join(data_dir, NOTICE_NAME)
    try:
        with open(notice, encoding="utf-8") as handle:
            if handle.read() == told:
                return None
    except OSError:
        pass
    os.makedirs(data_dir, exist_ok=True)
    from artibot_memory.core import disk  # noqa: PLC0415 - only when telling

    disk.write_text(notice, told)
    until = (
        "memory is not recalled; tool calls and prompts are still captured, to be stored "
        "once it runs"
        if captures
        else "memory is neither recalled nor captured"
    )
    return (
        f"{venv.no_base_problem()}. Then start a new session (or run `{REBUILD_COMMAND}`); "
        f"until then {until}."
    )


def saved_context(payload: dict[str, Any]) -> tuple[str, str] | None:
    """Return the project's last saved SessionStart context and its day, even if stale.

    The start cache (:mod:`artibot_memory.recall.startcache`) is exact only while nothing
    changed; without the full path nothing can render a fresh one, and the last one beats
    none. A context holding a memory that has expired since is not shown.
    """
    import json  # noqa: PLC0415 - only without the full path

    from artibot_memory.capture import journal  # noqa: PLC0415
    from artibot_memory.core import clock  # noqa: PLC0415
    from artibot_memory.core.paths import home_dir  # noqa: PLC0415
    from artibot_memory.core.project import project_of  # noqa: PLC0415
    from artibot_memory.recall import startcache  # noqa: PLC0415

    cwd = payload.get("cwd")
    project = project_of(cwd if isinstance(cwd, str) else None)
    try:
        with open(startcache.cache_path(home_dir(create=False), project), "rb") as handle:
            document = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("v") != startcache.CACHE_VERSION:
        return None
    text = document.get("text")
    until = clock.parse_time(document.get("valid_until"))
    written = clock.parse_time(document.get("written_at"))
    if document.get("project") != project or not isinstance(text, str) or not text:
        return None
    if written is None or (until is not None and until <= clock.now()):
        return None
    ids = [str(i) for i in document.get("ids") or []]
    journal.note_access(ids)
    return text, f"{written:%Y-%m-%d}"


def rebuild_from_cli() -> int:
    """``doctor --rebuild-venv`` where the CLI cannot run: start the build in each data dir."""
    data_dirs = venv.plugin_data_dirs()
    if not data_dirs:
        sys.stderr.write(
            f"artibot-memory: no plugin data folder (${venv.DATA_ENV} is unset and "
            "~/.claude/plugins/data holds no artibot-memory folder): Claude Code creates it "
            "when the plugin is installed\n"
        )
        return 1
    status = 0
    for data_dir in data_dirs:
        started, lines = venv.rebuild(data_dir)
        sys.stdout.write("".join(f"rebuild-venv: {line}\n" for line in lines))
        status = status if started else 1
    return status
