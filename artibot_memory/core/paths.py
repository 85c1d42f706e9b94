"""Where memories live: the memory home, resolved at call time.

``ARTIBOT_MEMORY_HOME`` wins when set and non-empty; otherwise platformdirs' user data
directory for ``artibot-memory`` (``~/.local/share/artibot-memory`` on Linux). The CLI
in a terminal and the hooks inside Claude Code resolve the same home, and it is never
inside the plugin's own folder, which Claude Code replaces on every update.

This module imports platformdirs only when the variable is unset, and falls back to the
same path computed by hand when platformdirs is missing (the hooks may run under a bare
``python3``). The hook fast path calls :func:`home_dir`, which returns a string and so
spares it the import of pathlib.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # pathlib costs milliseconds at import, paid on every tool call
if TYPE_CHECKING:
    from pathlib import Path

APP_NAME = "artibot-memory"
HOME_ENV = "ARTIBOT_MEMORY_HOME"
DIR_MODE = 0o700
FILE_MODE = 0o600
# In the plugin's data folder: left by a successful venv build until a SessionStart says
# "memory is ready". Named here, where the hook entry can test it without importing the
# venv module (core.venv), on every session start.
PLUGIN_DATA_ENV = "CLAUDE_PLUGIN_DATA"
READY_NEWS_NAME = "bootstrap.ready"
# The plugin's data folder where the agent gives none (Gemini CLI, Cursor, hooks installed
# by hand): beside the default memory home, never inside any home (a synced home would
# carry a venv).
RUNTIME_NAME = "artibot-memory-runtime"


def memory_home(*, create: bool = True) -> Path:
    """Return the memory home, created with mode 0700 unless ``create`` is false.

    >>> import os
    >>> os.environ["ARTIBOT_MEMORY_HOME"] = "/tmp/am-doc"
    >>> str(memory_home(create=False))
    '/tmp/am-doc'
    """
    from pathlib import Path  # noqa: PLC0415 - see home_dir

    return Path(home_dir(create=create))


def home_dir(*, create: bool = True) -> str:
    """Return the memory home as a string, for the hook fast path (no pathlib import).

    >>> home_dir(create=False) == str(memory_home(create=False))
    True
    """
    override = os.environ.get(HOME_ENV, "")
    home = os.path.expanduser(override) if override else _platform_data_dir()
    if create:
        ensure_private_dir(home)
    return home


def _platform_data_dir() -> str:
    try:
        from platformdirs import user_data_dir  # noqa: PLC0415 - keeps the fast path stdlib-only
    except ImportError:
        return fallback_data_dir()
    return user_data_dir(APP_NAME, appauthor=False)


def fallback_data_dir(platform: str = sys.platform) -> str:
    """Return what platformdirs 4 gives for our data dir, computed without it.

    Hooks may run under a bare ``python3`` without platformdirs; they must still find
    the same home as the CLI. ``$XDG_DATA_HOME`` counts only when absolute (as in
    platformdirs), on macOS too; Windows uses ``%LOCALAPPDATA%``.

    >>> fallback_data_dir("darwin").endswith("Library/Application Support/artibot-memory")
    True
    """
    if platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, APP_NAME)
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg.startswith("/"):
        return os.path.join(xdg, APP_NAME)
    default = "~/Library/Application Support" if platform == "darwin" else "~/.local/share"
    return os.path.join(os.path.expanduser(default), APP_NAME)


def runtime_dir() -> str:
    """Return the plugin data folder of the agents that give none (``…/artibot-memory-runtime``).

    >>> runtime_dir().endswith("artibot-memory-runtime")
    True
    """
    return os.path.join(os.path.dirname(fallback_data_dir()), RUNTIME_NAME)


def ensure_private_dir(path: str | os.PathLike[str]) -> None:
    """Create ``path`` (and parents) and make it readable by its owner only."""
    os.makedirs(path, mode=DIR_MODE, exist_ok=True)
    if os.stat(path).st_mode & 0o777 != DIR_MODE:
        os.chmod(path, DIR_MODE)


def is_inside(path: Path, home: Path) -> bool:
    """Tell whether ``path``, with links resolved, stays inside ``home``."""
    try:
        path.resolve().relative_to(home.resolve())
    except ValueError:
        return False
    return True
