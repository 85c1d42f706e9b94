"""Which project a memory belongs to: the git top-level of a working directory.

Projects are stored as absolute paths; people may name them by their folder name, so
matching accepts either. Standard library and ``os.path`` only: the cached SessionStart
calls :func:`project_of` and cannot afford importing pathlib.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


def project_of(cwd: str | Path | None) -> str | None:
    """Return the git top-level above ``cwd`` (or ``cwd`` itself outside git).

    >>> project_of(None) is None
    True
    """
    if not cwd:
        return None
    return git_root(cwd) or os.path.expanduser(os.fspath(cwd))


def git_root(cwd: str | Path | None) -> str | None:
    """Return the git top-level above ``cwd``, or None when no folder above it is in git.

    The CLI's ``search`` and ``list`` look at this project (and global memories) by
    default; a working directory in no project looks at every project.

    >>> git_root(None) is None
    True
    """
    if not cwd:
        return None
    folder = os.path.expanduser(os.fspath(cwd))
    while True:
        if _has_git(folder):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _has_git(folder: str) -> bool:
    try:
        return os.path.exists(os.path.join(folder, ".git"))
    except (OSError, ValueError):  # a name too long, a NUL byte: not a usable project root
        return False


def same_project(stored: str | None, wanted: str | None) -> bool:
    """Tell whether a stored project is the wanted one; either may be a bare folder name.

    >>> same_project("/src/shop", "shop"), same_project("shop", "/src/shop")
    (True, True)
    >>> same_project("/src/shop", "/old/shop")
    False
    """
    if stored is None or wanted is None:
        return False
    if stored == wanted:
        return True
    if "/" in stored and "/" in wanted:
        return False
    return os.path.basename(stored) == os.path.basename(wanted)


def in_project(stored: str | None, wanted: str | None) -> bool:
    """Tell whether a memory stored for ``stored`` is seen from project ``wanted``.

    A memory of no project is global and seen from every project; no ``wanted`` project
    means every project.

    >>> in_project(None, "/src/shop"), in_project("/src/shop", None)
    (True, True)
    >>> in_project("/src/shop", "/src/blog")
    False
    """
    return wanted is None or stored is None or same_project(stored, wanted)


def display_name(project: str | None) -> str:
    """Return the short name people know a project by (its folder name)."""
    return os.path.basename(project) if project else "(no project)"


def resolve_project(given: str | None, cwd: str | Path | None = None) -> str | None:
    """Turn a ``--project`` value into what is stored.

    A bare name stays a name, a path (or ``.``) becomes its git top-level, and nothing
    given means the project of ``cwd``.

    >>> resolve_project("shop")
    'shop'
    """
    if given is None:
        return project_of(cwd) if cwd is not None else None
    if given == "." or "/" in given:
        return project_of(os.path.abspath(os.path.expanduser(given)))
    return given
