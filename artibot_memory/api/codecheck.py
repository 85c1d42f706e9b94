"""Memory that follows the code, the check: what became of each anchored file (docs/CODE.md).

Runs git (:func:`artibot_memory.core.git.read`), so only in the detached workers. :func:`check`
compares every anchored file with the working tree of the current branch: ``same``,
``changed`` (with the commits of the branch that touched it since the anchor), ``deleted``,
``renamed`` or ``renamed-changed`` (git's rename detection between the anchor commit and HEAD,
staged renames, and the same content found under another path). :mod:`artibot_memory.api.anchors`
records the anchors and calls it once per HEAD and working-tree state.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from artibot_memory.core.git import read as git
from artibot_memory.recall import codestate

ANCHORS = "anchors"  # the key of ``details`` that holds them
MAX_UNTRACKED = 2_000  # untracked files hashed to find a file moved without git
MAX_RENAME_DIFFS = 64  # anchor commits whose renames are looked for, most used first
_SHA = re.compile(r"^[0-9a-f]{40,64}$")


# ---- git


def repo_root(project: str | None) -> str | None:
    """Return ``project`` when it is the top of a git working tree git can read, else None."""
    if not project or not os.path.isdir(project):
        return None
    prefix = git(project, "rev-parse", "--show-prefix")
    return project if prefix is not None and not prefix.strip() else None


def head(root: str) -> str | None:
    """Return the commit HEAD names, or None (no commit yet)."""
    out = git(root, "rev-parse", "--verify", "-q", "HEAD")
    sha = out.decode().strip() if out else ""
    return sha if _SHA.match(sha) else None


def blobs(root: str, paths: Iterable[str]) -> dict[str, str]:
    """Return the blob each existing file's working-tree content has, in one git process."""
    files = [p for p in dict.fromkeys(paths) if "\n" not in p and is_file(root, p)]
    if not files:
        return {}
    out = git(root, "hash-object", "--stdin-paths", stdin="\n".join(files).encode() + b"\n")
    shas = out.decode().split() if out else []
    return dict(zip(files, shas, strict=False)) if len(shas) == len(files) else {}


def as_dict(value: object) -> dict[str, Any]:
    """Return ``value`` when it is a dict, else an empty one (details may hold anything)."""
    return value if isinstance(value, dict) else {}


def is_file(root: str, path: str) -> bool:
    """Tell whether ``path`` under ``root`` is a regular file (a symlink is not followed)."""
    full = os.path.join(root, path)
    return os.path.isfile(full) and not os.path.islink(full)


# ---- the check


def anchors_in(docs: Iterable[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Return ``{id: [anchored file, …]}`` of the memories that have anchors."""
    found: dict[str, list[dict[str, Any]]] = {}
    for doc in docs:
        anchors = as_dict(as_dict(doc.get("details")).get(ANCHORS))
        files = [f for f in anchors.get("files") or [] if isinstance(f, dict) and f.get("path")]
        if files:
            found[str(doc.get("id"))] = files
    return found


class _History:
    """HEAD's history since the common ancestor of the anchor commits: one ``git log -M``.

    Each commit's parents, the paths it touched and the renames git found in it; from them,
    per anchor commit A, the commits of ``A..HEAD``, how many touched a path, and where a
    path went (its renames replayed, oldest first). An anchor commit HEAD does not reach
    (another branch, a commit a rebase rewrote) takes its own ``rev-list`` and ``diff -M``,
    at most :data:`MAX_RENAME_DIFFS` of them.
    """

    def __init__(self, root: str, current: str | None, commits: Iterable[str]) -> None:
        self.root, self.head = root, current
        wanted = set(commits)
        self.valid = _valid_commits(root, wanted) if current and wanted else set()
        base = (
            git(root, "merge-base", "--octopus", current, *sorted(self.valid))
            if current and self.valid
            else None
        )
        self.base = base.decode().strip() if base else ""
        bound = ["--not", self.base] if self.base else []
        out = None
        if current and self.valid:
            fields = ["-M", "--name-status", "-z", "--format=%x01%H %P", "--topo-order"]
            out = git(root, "log", *fields, current, *bound)
        self.order, self.parents, self.files, self.moves = _log(out or b"")
        self._ranges: dict[str, set[str]] = {}
        self._renames: dict[str, dict[str, str]] = {}
        self._diffs = 0

    def since(self, commit: str) -> set[str] | None:
        """Return the commits of ``commit..HEAD``, or None for a commit git does not know."""
        if self.head is None or commit not in self.valid:
            return None
        if commit not in self._ranges:
            self._ranges[commit] = self._range(commit)
        return self._ranges[commit]

    def _range(self, commit: str) -> set[str]:
        if commit == self.base:
            return set(self.parents)
        if commit not in self.parents:
            out = git(self.root, "rev-list", f"{commit}..{self.head}")
            return set((out or b"").decode().split())
        seen: set[str] = set()
        stack = [commit]
        while stack:
            sha = stack.pop()
            if sha in seen or sha not in self.parents:
                continue
            seen.add(sha)
            stack.extend(self.parents[sha])
        return set(self.parents) - seen

    def count(self, path: str, commit: str | None) -> int | None:
        """Return how many commits of ``commit..HEAD`` touched ``path`` (None: unknown)."""
        if commit is None:
            return 0 if self.head is None else None
        since = self.since(commit)
        if since is None:
            return None
        return sum(1 for sha in since if path in self.files.get(sha, ()))

    def renames(self, commit: str | None) -> dict[str, str]:
        """Return old path → path now for the renames of ``commit..HEAD``."""
        if commit is None or commit == self.head or commit not in self.valid:
            return {}
        if commit not in self._renames:
            self._renames[commit] = self._replayed(commit)
        return self._renames[commit]

    def _replayed(self, commit: str) -> dict[str, str]:
        if commit != self.base and commit not in self.parents:  # not on HEAD's line
            if self._diffs >= MAX_RENAME_DIFFS:
                return {}
            self._diffs += 1
            out = git(
                self.root, "diff", "-M", "--name-status", "-z", "--diff-filter=R", commit, "HEAD"
            )
            return _renames(out or b"")
        since = self.since(commit) or set()
        forward: dict[str, str] = {}
        back: dict[str, str] = {}
        for sha in reversed(self.order):  # oldest first
            if sha not in since:
                continue
            for old, new in self.moves.get(sha, ()):
                first = back.pop(old, old)
                forward[first] = new
                back[new] = first
        return forward


class _Tree:
    """The working tree of one repository, as the check needs it (each git call at most once)."""

    def __init__(self, root: str, current: str | None) -> None:
        self.root = root
        self.head = current
        self.history: _History | None = None
        self._staged: dict[str, str] | None = None
        self._by_blob: dict[str, list[str]] | None = None

    def staged(self) -> dict[str, str]:
        """Old path → new path for the renames of the index and working tree (``git status``)."""
        if self._staged is None:
            out = git(self.root, "status", "--porcelain=v1", "-z", "--untracked-files=no")
            parts = (out or b"").split(b"\0")
            found: dict[str, str] = {}
            for i, entry in enumerate(parts):
                if len(entry) > 3 and entry[:1] in (b"R", b"C") and i + 1 < len(parts):  # noqa: PLR2004
                    found[parts[i + 1].decode("utf-8", "surrogateescape")] = entry[3:].decode(
                        "utf-8", "surrogateescape"
                    )
            self._staged = found
        return self._staged

    def with_blob(self, blob: str | None) -> str | None:
        """Return a file whose content is ``blob`` (an exact move, tracked or not), or None."""
        if blob is None:
            return None
        if self._by_blob is None:
            out = git(self.root, "ls-files", "-s", "-z")
            found: dict[str, list[str]] = {}
            for entry in (out or b"").split(b"\0"):
                meta, _, path = entry.partition(b"\t")
                fields = meta.split()
                if len(fields) == 3:  # noqa: PLR2004 - mode, blob, stage
                    name = path.decode("utf-8", "surrogateescape")
                    found.setdefault(fields[1].decode(), []).append(name)
            untracked = git(self.root, "ls-files", "-o", "--exclude-standard", "-z") or b""
            names = [n.decode("utf-8", "surrogateescape") for n in untracked.split(b"\0") if n]
            for name, sha in blobs(self.root, names[:MAX_UNTRACKED]).items():
                found.setdefault(sha, []).append(name)  # moved without git mv: untracked now
            self._by_blob = found
        return next((p for p in self._by_blob.get(blob, ()) if is_file(self.root, p)), None)


def _decoded(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _renames(out: bytes) -> dict[str, str]:
    parts = out.split(b"\0")
    found = {}
    i = 0
    while i + 2 < len(parts):
        if parts[i][:1] == b"R":
            found[_decoded(parts[i + 1])] = _decoded(parts[i + 2])
            i += 3
        else:
            i += 2
    return found


def _log(
    out: bytes,
) -> tuple[list[str], dict[str, list[str]], dict[str, set[str]], dict[str, list[tuple[str, str]]]]:
    """Read ``git log -M --name-status -z``: the order, parents, paths touched, renames."""
    order: list[str] = []
    parents: dict[str, list[str]] = {}
    files: dict[str, set[str]] = {}
    moves: dict[str, list[tuple[str, str]]] = {}
    for block in out.split(b"\x01")[1:]:
        head_line, _, rest = block.partition(b"\0")
        shas = head_line.decode().split()
        if not shas:
            continue
        sha = shas[0]
        order.append(sha)
        parents[sha] = shas[1:]
        touched: set[str] = set()
        tokens = rest.lstrip(b"\n").split(b"\0")
        i = 0
        while i < len(tokens):
            status = tokens[i]
            if not status:
                i += 1
                continue
            if status[:1] in (b"R", b"C") and i + 2 < len(tokens):
                old, new = _decoded(tokens[i + 1]), _decoded(tokens[i + 2])
                touched.update((old, new))
                if status[:1] == b"R":
                    moves.setdefault(sha, []).append((old, new))
                i += 3
            else:
                if i + 1 < len(tokens):
                    touched.add(_decoded(tokens[i + 1]))
                i += 2
        files[sha] = touched
    return order, parents, files, moves


def check(root: str, anchors: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, Any]:
    """Compare every anchored file with the working tree; ``{"head", "memories"}``.

    ``memories`` lists, per memory with a file not ``same``, each file's state (see
    :mod:`artibot_memory.recall.codestate`).
    """
    tree = _Tree(root, head(root))
    commits = {c for files in anchors.values() for f in files if (c := _commit(f.get("commit")))}
    tree.history = _History(root, tree.head, commits)
    paths = {str(f["path"]) for files in anchors.values() for f in files}
    current = blobs(root, paths)
    where = _followed(tree, anchors, current)
    moved = [p for p in {w[0] for w in where.values() if w[0]} if p not in current]
    current.update(blobs(root, moved))
    states: dict[str, list[dict[str, Any]]] = {}
    for memory_id, files in anchors.items():
        said = []
        for file in files:
            path, blob = str(file["path"]), file.get("blob")
            now, renamed = where[(path, file.get("commit"), blob)]
            state = _state(now, blob, current, renamed=renamed)
            entry: dict[str, Any] = {"path": path, "state": state, "now": now if renamed else None}
            if state in (codestate.CHANGED, codestate.RENAMED_CHANGED) and now is not None:
                entry["commits"] = tree.history.count(now, _commit(file.get("commit")))
            said.append(entry)
        if any(s["state"] != codestate.SAME for s in said):
            states[memory_id] = said
    return {"head": tree.head, "memories": states}


def _commit(value: object) -> str | None:
    return value if isinstance(value, str) and _SHA.match(value) else None


def _followed(
    tree: _Tree, anchors: Mapping[str, Sequence[Mapping[str, Any]]], current: Mapping[str, str]
) -> dict[tuple[str, Any, Any], tuple[str | None, bool]]:
    """Where each anchored file is now: ``(path or None, renamed)``, keyed by its anchor."""
    found: dict[tuple[str, Any, Any], tuple[str | None, bool]] = {}
    for files in anchors.values():
        for file in files:
            key = (str(file["path"]), file.get("commit"), file.get("blob"))
            if key in found:
                continue
            path = key[0]
            if path in current or (key[2] is None and os.path.isdir(os.path.join(tree.root, path))):
                found[key] = (path, False)
            else:
                found[key] = _renamed(tree, key)
    return found


def _renamed(tree: _Tree, key: tuple[str, Any, Any]) -> tuple[str | None, bool]:
    path, commit, blob = key
    renames = tree.history.renames(_commit(commit)) if tree.history else {}
    now = renames.get(path) if blob is not None else _moved_folder(path, renames)
    if now is not None and not os.path.lexists(os.path.join(tree.root, now)):
        now = tree.staged().get(now)
    if now is None:
        now = tree.staged().get(path) if blob is not None else _moved_folder(path, tree.staged())
    if now is None:
        now = tree.with_blob(blob)
    if now is not None and os.path.lexists(os.path.join(tree.root, now)):
        return now, True
    return None, False


def _moved_folder(folder: str, renames: Mapping[str, str]) -> str | None:
    """Where a folder went: the one new folder every rename of a file in it points into."""
    top = folder.rstrip("/") + "/"
    targets = set()
    for old, new in renames.items():
        if old.startswith(top):
            tail = old[len(top) :]
            if not new.endswith("/" + tail):
                return None
            targets.add(new[: -len(tail) - 1])
    return targets.pop() if len(targets) == 1 else None


def _state(now: str | None, blob: object, current: Mapping[str, str], *, renamed: bool) -> str:
    if now is None:
        return codestate.DELETED
    if blob is None:  # a folder: there or not
        return codestate.RENAMED if renamed else codestate.SAME
    same = current.get(now) == blob
    if renamed:
        return codestate.RENAMED if same else codestate.RENAMED_CHANGED
    return codestate.SAME if same else codestate.CHANGED


def _valid_commits(root: str, commits: Iterable[str]) -> set[str]:
    listed = sorted(commits)
    out = git(root, "cat-file", "--batch-check", stdin="".join(f"{c}\n" for c in listed).encode())
    lines = (out or b"").decode().splitlines()
    return {c for c, line in zip(listed, lines, strict=False) if line.split()[1:2] == ["commit"]}
