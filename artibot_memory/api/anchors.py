"""Memory that follows the code: anchors at capture, and their check against the working tree.

Runs git, so only in the detached workers (the session start's ``ingest --prune`` and the
session end's ``ingest``), never in a hook (docs/CODE.md):

- :func:`anchor_project` gives every fresh memory of a project that names files of it (a
  fix's edited files, the paths a decision, fact or lesson mentions, a session's created
  and edited files) ``details["anchors"]``: ``{"of": <what it was anchored for>, "at":
  <when>, "files": [{"path", "blob", "commit"}, …]}``, the path relative to the repository's
  top, the blob its working-tree content had (``git hash-object --stdin-paths``; ``None``
  for a folder) and the HEAD it was seen at (``None`` before the first commit). A memory
  is anchored again when what it says changes (a new fix, a new text), never because its
  files did.
- :func:`~artibot_memory.api.codecheck.check` (its own module) compares every anchored file
  with the working tree of the current branch: same, changed, deleted or renamed.
- :func:`refresh` does both for a project and writes the outcome for the hooks
  (:mod:`artibot_memory.recall.codestate`), once per HEAD and working-tree state.

Outside a git repository, or without git, nothing is anchored and nothing is flagged.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from artibot_memory.api.codecheck import (
    ANCHORS,
    anchors_in,
    as_dict,
    blobs,
    check,
    head,
    repo_root,
)
from artibot_memory.capture.sessions import read_session
from artibot_memory.core import clock
from artibot_memory.core.git import read as git
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import same_project
from artibot_memory.notes.consolidate import Change
from artibot_memory.recall import codestate
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Memory, MemoryType, State
from artibot_memory.store.table import STORES, specs_for_id

FRESH = timedelta(days=7)  # memories seen this recently are anchored (older ones stay as they are)
MAX_FILES = 12  # files anchored per memory
_BACKTICKED = re.compile(r"`([^`\n]{1,300})`")
_TOKEN = re.compile(r"[^\s\"'`()\[\]{}<>,;|]+")


# ---- what a memory names


def named_files(doc: Mapping[str, Any], root: str) -> list[str]:
    """Return the files and folders of ``root`` a memory names, relative, at most 12.

    A fix's edited files (``details["fix"]["edits"]``); a session summary's created and
    edited files; the paths any other memory's text mentions (tokens with a ``/`` or a
    ``.``, and backticked names, that exist under ``root``). Commands name none.
    """
    kind = doc.get("type")
    details = as_dict(doc.get("details"))
    if kind == MemoryType.COMMAND.value:
        return []
    if kind == MemoryType.ERROR.value:
        edits = as_dict(details.get("fix")).get("edits")
        edits = edits if isinstance(edits, list) else []
        found = [_edited(str(e), root) for e in edits]
    elif details.get("kind") == "session-summary":
        found = [_existing(p, root) for p in read_session(str(doc.get("text") or "")).changed]
    else:
        found = [_existing(t, root) for t in _mentions(str(doc.get("text") or ""))]
    return list(dict.fromkeys(p for p in found if p))[:MAX_FILES]


def _edited(edit: str, root: str) -> str | None:
    """Return the file of ``file (what changed)``: the longest head of it that exists."""
    cuts = [m.start() for m in re.finditer(r" \(", edit)]
    for candidate in [edit, *(edit[:i] for i in reversed(cuts))]:
        found = _existing(candidate, root)
        if found:
            return found
    return None


def _mentions(text: str) -> list[str]:
    said = _BACKTICKED.findall(text)
    said += [t for t in _TOKEN.findall(text) if "/" in t or "." in t.strip(".")]
    return [s.strip().rstrip(".:!?") for s in said]


def _existing(name: str, root: str) -> str | None:
    """Return ``name`` relative to ``root`` when it is a file or folder there, else None."""
    name = name.strip()
    if not name or "\n" in name or "\x00" in name:
        return None
    top = root.rstrip(os.sep) + os.sep
    if os.path.isabs(name):
        if not name.startswith(top):
            return None
        name = name[len(top) :]
    relative = os.path.normpath(name)
    if (
        relative in (".", "..")
        or relative.startswith(("..", ".git" + os.sep))
        or relative == ".git"
    ):
        return None
    try:
        exists = os.path.lexists(os.path.join(root, relative))
    except (OSError, ValueError):
        return None
    return relative.replace(os.sep, "/") if exists else None


def anchored_for(doc: Mapping[str, Any]) -> str:
    """Return what a memory's anchors hold for: its text, its fix, when the fix was found."""
    fix = as_dict(as_dict(doc.get("details")).get("fix"))
    said = "\x00".join(
        str(v or "") for v in (doc.get("text"), doc.get("resolution"), fix.get("at"))
    )
    return hashlib.blake2b(said.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def anchors_of(root: str, paths: Sequence[str], commit: str | None) -> list[dict[str, Any]]:
    """Anchor ``paths`` (relative to ``root``) now: each file's blob, and ``commit``."""
    found = blobs(root, paths)
    anchored = []
    for path in paths:
        if path in found:
            anchored.append({"path": path, "blob": found[path], "commit": commit})
        elif os.path.isdir(os.path.join(root, path)):
            anchored.append({"path": path, "blob": None, "commit": commit})
    return anchored


def anchor_project(
    project: str | None, *, home: Path | None = None, now: datetime | None = None
) -> int:
    """Anchor the fresh memories of ``project`` that name its files; return how many.

    Fresh: seen in the last 7 days (older memories, kept before anchors existed, stay
    without). A memory already anchored for what it says now is left alone.
    """
    root = repo_root(project)
    if root is None:
        return 0
    when = now or clock.now()
    home = home or memory_home()
    wanted = _to_anchor(root, home, when)
    if not wanted:
        return 0
    every = [p for _, paths in wanted.values() for p in paths]
    by_path = {a["path"]: a for a in anchors_of(root, list(dict.fromkeys(every)), head(root))}
    stamp = clock.utc_iso(when)
    done = 0
    touched = {spec for memory_id in wanted for spec in specs_for_id(memory_id)}
    for spec in [s for s in STORES if s in touched]:
        with Store(spec, home).transaction() as entries:
            for memory in entries:
                of, paths = wanted.get(memory.id, ("", []))
                files = [by_path[p] for p in paths if p in by_path]
                if files and anchored_for(memory.model_dump(mode="json")) == of:
                    anchors = {"of": of, "at": stamp, "files": files}
                    memory.details = {**memory.details, ANCHORS: anchors}
                    done += 1
    return done


def _to_anchor(root: str, home: Path, now: datetime) -> dict[str, tuple[str, list[str]]]:
    """Return ``{id: (what it is anchored for, its files)}`` of the memories to anchor now."""
    wanted: dict[str, tuple[str, list[str]]] = {}
    for spec in STORES:
        for memory in Store(spec, home).load():
            if _wants_anchor(memory, root, now):
                doc = memory.model_dump(mode="json")
                paths = named_files(doc, root)
                if paths:
                    wanted[memory.id] = (anchored_for(doc), paths)
    return wanted


def _wants_anchor(memory: Memory, root: str, now: datetime) -> bool:
    if memory.type is MemoryType.COMMAND or not same_project(memory.project, root):
        return False
    if memory.state is State.SUPERSEDED or memory.is_expired(now) or now - memory.last_seen > FRESH:
        return False
    if memory.type is MemoryType.ERROR and not memory.resolution:
        return False
    current = memory.details.get(ANCHORS)
    return not isinstance(current, dict) or current.get("of") != anchored_for(
        memory.model_dump(mode="json")
    )


# ---- the worker's step


def state_key(root: str, anchors: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """Return what the check depends on: HEAD, ``git status``, each anchored path's stat."""
    digest = hashlib.blake2b(digest_size=20)  # 40 hex digits: a git id, not a secret
    digest.update((head(root) or "-").encode())
    digest.update(git(root, "status", "--porcelain=v1", "-z", "--untracked-files=normal") or b"?")
    digest.update(json.dumps(anchors, sort_keys=True).encode())
    for path in sorted({str(f["path"]) for files in anchors.values() for f in files}):
        try:
            seen = os.stat(os.path.join(root, path))
            digest.update(f"{path}\0{seen.st_size}\0{seen.st_mtime_ns}\0".encode())
        except OSError:
            digest.update(f"{path}\0-\0".encode())
    return digest.hexdigest()


def refresh(project: str | None, *, home: Path | None = None, now: datetime | None = None) -> bool:
    """Anchor ``project``'s fresh memories, then check them all once per state; True if written."""
    root = repo_root(project)
    if root is None:
        return False
    home = home or memory_home()
    anchor_project(root, home=home, now=now)
    docs = [m.model_dump(mode="json") for spec in STORES for m in Store(spec, home).load()]
    anchors = anchors_in(d for d in docs if same_project(d.get("project"), root))
    key = state_key(root, anchors)
    if codestate.read_key(home, root) == key:
        return False
    checked = check(root, anchors)
    stamp = clock.utc_iso(now or clock.now())
    codestate.write(home, root, {**checked, "worktree": key, "at": stamp})
    return True


# ---- the stale lists


def stale_changes(records: Iterable[Memory], home: Path, now: datetime) -> list[Change]:
    """Propose as stale each live fact or decision whose every anchored path is gone.

    From the code state the workers computed: a file deleted since, not renamed. Nothing
    where no current check exists (outside git, HEAD moved since). Consolidation's and
    evolve's stale lists both take these, with this reason.
    """
    found = []
    for memory in records:
        paths = codestate.anchored_paths(memory)
        summary = memory.details.get("kind") == "session-summary"
        if not paths or summary or memory.type is not MemoryType.CONTEXT:
            continue
        if memory.state not in (State.ACTIVE, State.PENDING) or memory.is_expired(now):
            continue
        files = codestate.files_of(memory, codestate.load(memory.project, home))
        if codestate.all_deleted(memory, files):
            reason = f"{codestate.words(files)}: what it says is of code that is gone"
            change = Change(
                "stale", memory.text, reason, memory_id=memory.id, project=memory.project
            )
            found.append(change)
    return found
