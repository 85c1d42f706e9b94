"""What became of the files a memory names: the cached code state, read by the hooks (stdlib).

A memory that names files of its project carries ``details["anchors"]``: per file, the git
blob it had and the HEAD it was seen at (:mod:`artibot_memory.api.anchors` records them, in
the detached workers). The same module compares them with the project's working tree once
per HEAD and working-tree state, in the workers, and writes the outcome here:
``cache/code-<crc32 of the project>.json`` in the memory home::

    {"v": 1, "project": "/src/shop", "head": "<sha or null>", "worktree": "…",
     "memories": {"err-…": [{"path": "src/cart/total.ts", "state": "changed",
                            "now": null, "commits": 3}, …]}}

Only memories with at least one file not ``same`` are listed. A file's ``state`` is
``changed`` (its content differs from the anchored blob), ``deleted``, ``renamed`` (found
under ``now``, same content) or ``renamed-changed``. ``commits``: how many commits of the
current branch touched it since the anchor (None when unknown, 0 for edits not committed).

The hooks only read this file, never run git: a missing cache, one of another project or
one written at another HEAD than the one ``.git`` names now (read from the files, no
process) means no flag at all. docs/CODE.md has the semantics.

>>> words([{"path": "src/a.ts", "state": "changed", "commits": 3}])
'src/a.ts changed since, 3 commits'
>>> words([{"path": "a.py", "state": "renamed", "now": "lib/a.py"},
...        {"path": "b.py", "state": "deleted"}])
'a.py is now lib/a.py; b.py deleted since'
"""

from __future__ import annotations

import json
import os
import zlib

from artibot_memory.core.paths import home_dir

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

CACHE_VERSION = 1
SAME, CHANGED, DELETED = "same", "changed", "deleted"
RENAMED, RENAMED_CHANGED = "renamed", "renamed-changed"
MOVED_STATES = frozenset({CHANGED, DELETED, RENAMED_CHANGED})  # the content is not the anchored
LOWER_BY = 0.6  # a fix whose every edited file changed since is offered at 60% of its confidence
MAX_FILES_SAID = 2  # files named in a flag; the rest as "+N more"

_LOADED: dict[str, tuple[tuple[int, int, int], dict[str, Any]]] = {}


def cache_path(home: str | os.PathLike[str], project: str | None) -> str:
    """Return the code-state cache of ``project`` in the memory home."""
    tag = zlib.crc32((project or "").encode("utf-8", "surrogatepass"))
    return os.path.join(os.fspath(home), "cache", f"code-{tag:08x}.json")


def head_of(root: str | None) -> str | None:
    """Return the commit ``root``'s HEAD names, read from ``.git``'s files (no git process).

    None outside git, for a repository with no commit, or when the files cannot be read
    (then the cached state is taken as it is). Follows a ``.git`` file (worktrees,
    submodules), a symbolic ref, the common dir of a worktree and ``packed-refs``.
    """
    if not root:
        return None
    gitdir = _gitdir(root)
    if gitdir is None:
        return None
    head = _read(os.path.join(gitdir, "HEAD"))
    if head is None:
        return None
    if not head.startswith("ref:"):
        return head or None
    return _ref(gitdir, head[4:].strip())


def _ref(gitdir: str, ref: str) -> str | None:
    """Return the commit a ref names: its loose file, else its line of ``packed-refs``."""
    common = _read(os.path.join(gitdir, "commondir"))
    places = [gitdir]
    if common:
        places.append(os.path.normpath(os.path.join(gitdir, common)))
    for place in places:
        found = _read(os.path.join(place, ref))
        if found:
            return found
    for place in places:
        packed = _read(os.path.join(place, "packed-refs"), whole=True)
        for line in (packed or "").splitlines():
            sha, _, name = line.partition(" ")
            if name.strip() == ref:
                return sha
    return None


def _gitdir(root: str) -> str | None:
    dot = os.path.join(root, ".git")
    if os.path.isdir(dot):
        return dot
    text = _read(dot)
    if text and text.startswith("gitdir:"):
        return os.path.normpath(os.path.join(root, text[7:].strip()))
    return None


def _read(path: str, *, whole: bool = False) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return None
    return text if whole else text.strip()


def load(project: str | None, home: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Return ``{memory id: [file state, …]}`` of ``project``, or {} when nothing can be said.

    {} for no project, a missing or unreadable cache, another version, and a cache written
    at another HEAD than the one the repository names now.
    """
    document = current(project, home)
    found = document.get("memories") if document is not None else None
    return found if isinstance(found, dict) else {}


def current(
    project: str | None, home: str | os.PathLike[str] | None = None
) -> dict[str, Any] | None:
    """Return the cached document of ``project`` when it holds for its HEAD now, else None."""
    if not project:
        return None
    path = cache_path(home if home is not None else home_dir(create=False), project)
    try:
        stat = os.stat(path)
        stamp = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        cached = _LOADED.get(path)
        if cached is not None and cached[0] == stamp:
            document = cached[1]
        else:
            with open(path, "rb") as handle:
                document = json.loads(handle.read())
            _LOADED[path] = (stamp, document)
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("v") != CACHE_VERSION:
        return None
    if document.get("project") != project:
        return None
    now = head_of(project)
    if now is not None and document.get("head") != now:
        return None
    return document


def write(home: str | os.PathLike[str], project: str, document: dict[str, Any]) -> None:
    """Write ``project``'s code state (the workers' job; see the module docstring)."""
    from pathlib import Path  # noqa: PLC0415 - the workers only

    from artibot_memory.core.disk import write_document  # noqa: PLC0415
    from artibot_memory.core.paths import ensure_private_dir  # noqa: PLC0415

    ensure_private_dir(os.path.join(os.fspath(home), "cache"))
    body = {"v": CACHE_VERSION, "project": project, **document}
    write_document(Path(cache_path(home, project)), json.dumps(body).encode("utf-8"))


def read_key(home: str | os.PathLike[str], project: str) -> str | None:
    """Return the working-tree key the cache of ``project`` was computed for, or None."""
    try:
        with open(cache_path(home, project), "rb") as handle:
            document = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("v") != CACHE_VERSION:
        return None
    key = document.get("worktree")
    return key if isinstance(key, str) else None


def files_of(memory: object, states: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return the file states of ``memory`` (a record, a Memory, or its JSON) in ``states``."""
    ident = memory.get("id") if isinstance(memory, dict) else getattr(memory, "id", None)
    found = states.get(str(ident)) if ident else None
    return [f for f in found if isinstance(f, dict)] if isinstance(found, list) else []


def anchored_paths(memory: object) -> list[str]:
    """Return the paths ``memory``'s anchors name (its stored ``details["anchors"]``)."""
    details = (
        memory.get("details") if isinstance(memory, dict) else getattr(memory, "details", None)
    )
    anchors = details.get("anchors") if isinstance(details, dict) else None
    files = anchors.get("files") if isinstance(anchors, dict) else None
    if not isinstance(files, list):
        return []
    return [str(f["path"]) for f in files if isinstance(f, dict) and f.get("path")]


def all_moved(memory: object, files: Sequence[Mapping[str, Any]]) -> bool:
    """Tell whether every anchored file of ``memory`` changed, moved with changes, or went."""
    paths = anchored_paths(memory)
    gone = {str(f.get("path")) for f in files if f.get("state") in MOVED_STATES}
    return bool(paths) and all(p in gone for p in paths)


def all_deleted(memory: object, files: Sequence[Mapping[str, Any]]) -> bool:
    """Tell whether every anchored file of ``memory`` no longer exists (and was not renamed)."""
    paths = anchored_paths(memory)
    gone = {str(f.get("path")) for f in files if f.get("state") == DELETED}
    return bool(paths) and all(p in gone for p in paths)


def words(files: Sequence[Mapping[str, Any]]) -> str:
    """Say what became of the files in a few words; '' when nothing did."""
    said = [_one(f) for f in files if f.get("state") != SAME]
    said = [s for s in said if s]
    if len(said) > MAX_FILES_SAID:
        return "; ".join(said[:MAX_FILES_SAID]) + f"; +{len(said) - MAX_FILES_SAID} more"
    return "; ".join(said)


def _one(file: Mapping[str, Any]) -> str:
    path, state, now = str(file.get("path") or "?"), file.get("state"), file.get("now")
    commits = file.get("commits")
    if state == DELETED:
        return f"{path} deleted since"
    if state == RENAMED:
        return f"{path} is now {now}"
    since = "changed since"
    if isinstance(commits, int) and commits > 0:
        since += f", {commits} commit{'s' if commits > 1 else ''}"
    elif commits == 0:
        since += ", not committed"
    if state == RENAMED_CHANGED:
        return f"{path} is now {now}, {since}"
    return f"{path} {since}" if state == CHANGED else ""


def mark(memory: object, states: Mapping[str, Any], confidence: float | None = None) -> str:
    """Return the bracketed words a recalled memory ends with, or ''.

    A fix (``confidence`` given) whose every file changed says its confidence lowered for
    this recall: ``[src/a.ts changed since, 3 commits: confidence 0.58, was 0.96]``.
    """
    files = files_of(memory, states)
    said = words(files)
    if not said:
        return ""
    if confidence is not None and all_moved(memory, files):
        return f"[{said}: confidence {lowered(confidence):.2f}, was {confidence:.2f}]"
    return f"[{said}]"


def lowered(confidence: float) -> float:
    """Return the confidence a fix is offered at when all its files changed since."""
    return round(confidence * LOWER_BY, 2)


def memory_code_state(
    memory: object, home: str | os.PathLike[str] | None = None
) -> dict[str, Any] | None:
    """Return a memory's code state for a report: None when it has no anchors.

    ``{"files": [{"path", "state", "now", "commits"}, …], "words": "…", "all_changed":
    bool, "all_deleted": bool, "known": bool}``; ``known`` is False when no current cache
    says anything of its project (outside git, never computed, HEAD moved since).
    """
    paths = anchored_paths(memory)
    if not paths:
        return None
    project = (
        memory.get("project") if isinstance(memory, dict) else getattr(memory, "project", None)
    )
    document = current(project if isinstance(project, str) else None, home)
    found = document.get("memories") if document is not None else None
    states = found if isinstance(found, dict) else {}
    listed = {str(f.get("path")): f for f in files_of(memory, states)}
    files = [listed.get(p) or {"path": p, "state": SAME, "now": None, "commits": 0} for p in paths]
    return {
        "files": files,
        "words": words(files),
        "all_changed": all_moved(memory, files),
        "all_deleted": all_deleted(memory, files),
        "known": document is not None,
    }
