"""The git repository of a sync: ``<home>/sync/repo.git``, its snapshots, the remote, the state.

A bare repository (no work tree: nothing of the home is ever checked out or committed by
git itself), 0700 and every file in it 0600 (git runs with a umask of 077). Its refs:

- ``refs/artibot/base``: the snapshot this machine last synced, the base of the next
  three-way merge (local only, never pushed);
- ``refs/artibot/remote``: the remote's snapshot, as fetched for this sync;
- ``refs/artibot/outgoing``: the snapshot being published.

The remote holds one branch, ``memory``, and it is always ONE commit with no parent: each
sync publishes a fresh root commit of the merged files with ``--force-with-lease`` against
the commit it fetched, so the remote never keeps an older version (a forgotten memory's
text is unreachable there after the next sync; deleting unreachable objects is the host's
garbage collection). After every sync the local repository drops what no ref reaches
(``git gc --prune=now``).

``sync/state.json``: the remote, the last attempt, its result and error, the last success
(what ``doctor`` shows). The remote's URL is kept in the repository's own config
(``remote.origin.url``); a URL with a password in it is refused: credentials are git's.
"""

from __future__ import annotations

import json
import re
import socket
from datetime import datetime
from pathlib import Path
from typing import Any

from artibot_memory.capture.hooklog import log_failure
from artibot_memory.core import clock, git
from artibot_memory.core.disk import write_document
from artibot_memory.core.errors import StoreError, SyncError, UsageError
from artibot_memory.core.paths import ensure_private_dir
from artibot_memory.notes.conflicts import without_sides
from artibot_memory.store.jsonfile import encode_entries, parse_store_bytes
from artibot_memory.store.table import STORES

SYNC_DIR = "sync"
REPO_NAME = "repo.git"
STATE_NAME = "state.json"
BRANCH = "refs/heads/memory"
BASE_REF = "refs/artibot/base"
FETCHED_REF = "refs/artibot/remote"
OUTGOING_REF = "refs/artibot/outgoing"
REMOTE = "origin"
_HOST_CHARS = re.compile(r"[^A-Za-z0-9.-]")
_MEMORY_ID = re.compile(r"(?<![\w-])[a-z]+-[0-9a-f]{10}(?![\w-])")
_SCRUBBED = ("daily/", "conflicts/", "entities/", "MEMORY.md")
_STORE_FILES = frozenset(spec.filename for spec in STORES)
# What git says when the branch moved under the push: another machine synced meanwhile.
_MOVED = (
    "stale info",
    "[rejected]",
    "fetch first",
    "cannot lock ref",
    "failed to update ref",
    "incorrect old value",
    "but expected",
)
_PASSWORD_IN_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/@]*:[^/@]*@")
Snapshot = dict[str, bytes]


def sync_dir(home: Path) -> Path:
    """Return the sync folder of ``home``.

    >>> sync_dir(Path("/h")).as_posix()
    '/h/sync'
    """
    return home / SYNC_DIR


def repo_path(home: Path) -> Path:
    """Return the bare repository of ``home``'s sync."""
    return sync_dir(home) / REPO_NAME


def ensure_repo(home: Path) -> Path:
    """Create the repository (0700) when there is none; return it."""
    repo = repo_path(home)
    ensure_private_dir(sync_dir(home))
    if not (repo / "HEAD").is_file():
        git.run(None, "init", "--quiet", "--bare", str(repo))
    ensure_private_dir(repo)
    return repo


def remote_url(home: Path) -> str | None:
    """Return the remote's URL set by ``sync --remote``, None before that."""
    repo = repo_path(home)
    if not (repo / "HEAD").is_file():
        return None
    done = git.run(repo, "config", "--get", f"remote.{REMOTE}.url", check=False)
    url = done.stdout.decode("utf-8", "replace").strip()
    return url or None


def set_remote(repo: Path, url: str) -> str:
    """Point the repository at ``url``; refuse one that carries a password or cannot be reached.

    A new remote drops the merge base: the first sync with it merges without one (records
    by id, every line of both sides kept).
    """
    url = url.strip()
    if not url:
        msg = "--remote needs a URL or a path (a repository you can push to)"
        raise UsageError(msg)
    if _PASSWORD_IN_URL.match(url):
        msg = "the URL holds a password; remove it and let git's credential helper keep it"
        raise UsageError(msg)
    before = git.run(repo, "config", "--get", f"remote.{REMOTE}.url", check=False).stdout
    reached = git.run(repo, "ls-remote", url, BRANCH, check=False)
    if reached.returncode != 0:  # a typo must not replace a remote that works
        kept = before.decode("utf-8", "replace").strip()
        still = f"; the remote stays {kept}" if kept and kept != url else ""
        raise SyncError(f"cannot reach {url}: {git.last_line(reached)}{still}")
    if before.decode("utf-8", "replace").strip() not in ("", url):
        # Another remote: what this machine last agreed on with the old one is no base here.
        git.run(repo, "update-ref", "-d", BASE_REF, check=False)
    git.run(repo, "config", f"remote.{REMOTE}.url", url)
    return url


def fetch(repo: Path, url: str) -> str | None:
    """Fetch the remote's snapshot into ``refs/artibot/remote``; return its commit (None: empty)."""
    listed = git.run(repo, "ls-remote", REMOTE, BRANCH, check=False)
    if listed.returncode != 0:
        raise SyncError(f"cannot reach {url}: {git.last_line(listed)}")
    words = listed.stdout.decode("ascii", "replace").split()
    if not words:
        git.run(repo, "update-ref", "-d", FETCHED_REF, check=False)
        return None
    done = git.run(
        repo, "fetch", "--quiet", "--no-tags", REMOTE, f"+{BRANCH}:{FETCHED_REF}", check=False
    )
    if done.returncode != 0:
        raise SyncError(f"cannot fetch from {url}: {git.last_line(done)}")
    return resolve(repo, FETCHED_REF)


def resolve(repo: Path, ref: str) -> str | None:
    """Return the commit ``ref`` names, None when it does not exist."""
    done = git.run(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    return done.stdout.decode("ascii").strip() or None if done.returncode == 0 else None


def read_snapshot(repo: Path, ref: str) -> Snapshot:
    """Return every file of the snapshot ``ref`` names (none when the ref does not exist)."""
    commit = resolve(repo, ref)
    if commit is None:
        return {}
    listing = git.run(repo, "ls-tree", "-r", "-z", "--full-tree", commit).stdout
    blobs: list[tuple[str, str]] = []
    for item in listing.split(b"\0"):
        if not item:
            continue
        meta, _tab, path = item.partition(b"\t")
        _mode, kind, oid = meta.decode("ascii").split()
        if kind == "blob":
            blobs.append((path.decode("utf-8", "replace"), oid))
    if not blobs:
        return {}
    stdin = "".join(f"{oid}\n" for _name, oid in blobs).encode("ascii")
    out = git.run(repo, "cat-file", "--batch", stdin=stdin).stdout
    files: Snapshot = {}
    at = 0
    for name, _oid in blobs:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        files[name] = out[header_end + 1 : header_end + 1 + size]
        at = header_end + 1 + size + 1
    return files


def commit_snapshot(repo: Path, files: Snapshot, when: datetime) -> str:
    """Write ``files`` as one commit with no parent (``refs/artibot/outgoing``); return it."""
    git.run(repo, "update-ref", "-d", OUTGOING_REF, check=False)
    machine = _HOST_CHARS.sub("", socket.gethostname()) or "localhost"
    who = f"artibot-memory on {machine} <artibot-memory@{machine}>"
    message = f"artibot-memory snapshot from {machine}\n".encode()
    stream = [
        f"commit {OUTGOING_REF}\n".encode(),
        f"committer {who} {int(when.timestamp())} +0000\n".encode(),
        f"data {len(message)}\n".encode(),
        message,
    ]
    for name in sorted(files):
        data = files[name]
        stream += [
            f"M 100644 inline {name}\n".encode(),
            f"data {len(data)}\n".encode(),
            data,
            b"\n",
        ]
    stream.append(b"done\n")
    git.run(repo, "fast-import", "--quiet", "--force", "--done", stdin=b"".join(stream))
    commit = resolve(repo, OUTGOING_REF)
    if commit is None:
        msg = "git fast-import wrote no snapshot"
        raise SyncError(msg)
    return commit


def push(repo: Path, url: str, commit: str, expected: str | None) -> bool:
    """Publish ``commit`` as the remote's branch if it still is ``expected``; False: it moved."""
    lease = f"--force-with-lease={BRANCH}:{expected or ''}"
    done = git.run(
        repo, "push", "--porcelain", "--quiet", lease, REMOTE, f"{commit}:{BRANCH}", check=False
    )
    if done.returncode == 0:
        return True
    said = (done.stdout + done.stderr).decode("utf-8", "replace")
    if any(sign in said for sign in _MOVED):
        return False
    raise SyncError(f"cannot push to {url}: {_refused(said) or git.last_line(done)}")


def _refused(said: str) -> str | None:
    """Return the reason of a porcelain ``!`` line (what the remote refused, and why)."""
    for line in said.splitlines():
        if line.startswith("!"):
            return line.split("\t")[-1].strip()
    return None


def set_base(repo: Path, commit: str) -> None:
    """Remember ``commit`` as the snapshot both sides now hold."""
    git.run(repo, "update-ref", BASE_REF, commit)


def forget_old(repo: Path) -> None:
    """Drop the working refs and every object no ref reaches (older snapshots' text)."""
    for ref in (OUTGOING_REF, FETCHED_REF):
        git.run(repo, "update-ref", "-d", ref, check=False)
    git.run(repo, "reflog", "expire", "--expire=now", "--all", check=False)
    git.run(repo, "gc", "--quiet", "--prune=now", check=False)


# ---- forgotten memories out of every version


def scrub_text(name: str, text: str, ids: set[str] | frozenset[str]) -> str:
    r"""Return a layer's ``text`` without the lines of forgotten memories, as forget leaves it.

    Daily bullets citing them, MEMORY.md's and entity profiles' lines marked with them go;
    a ledger keeps the conflict with the side's text blanked. Other files come back as
    they are.

    >>> scrub_text("daily/2026-12-01.md", "- x (pref-0123456789)\n- y\n", {"pref-0123456789"})
    '- y\n'
    """
    if not ids or not name.startswith(_SCRUBBED):
        return text
    if name.startswith("conflicts/"):
        return without_sides(text, set(ids))
    lines = text.split("\n")
    return "\n".join(line for line in lines if not ids.intersection(_MEMORY_ID.findall(line)))


def scrub(files: Snapshot, ids: set[str] | frozenset[str]) -> Snapshot:
    """Return a snapshot with forgotten memories out of its stores and layers."""
    if not ids:
        return files
    out: Snapshot = {}
    for name, data in files.items():
        if name in _STORE_FILES:
            try:
                entries = parse_store_bytes(Path(name), data)
            except StoreError:
                out[name] = data  # unreadable: the merge refuses it before any write
                continue
            kept = [entry for entry in entries if entry.id not in ids]
            out[name] = data if len(kept) == len(entries) else encode_entries(kept)
        else:
            text = data.decode("utf-8", "replace")
            scrubbed = scrub_text(name, text, ids)
            out[name] = data if scrubbed == text else scrubbed.encode("utf-8")
    return out


def forget_in_base(home: Path, ids: set[str]) -> None:
    """Take forgotten memories out of the local merge base and drop the old objects.

    Called by forget: the base is the one copy of the home the sync keeps in its
    repository, and what a forget removes from the home must leave it too (the remote
    loses it at the next sync).
    """
    repo = repo_path(home)
    if not ids or not (repo / "HEAD").is_file() or resolve(repo, BASE_REF) is None:
        return
    try:
        base = read_snapshot(repo, BASE_REF)
        cleaned = scrub(base, ids)
        if cleaned != base:
            set_base(repo, commit_snapshot(repo, cleaned, clock.now()))
            forget_old(repo)
    except SyncError as exc:  # git gone or broken: the forget itself stands; the log says it
        log_failure("forget: the sync base", exc)


# ---- the state doctor reads


def state_path(home: Path) -> Path:
    """Return ``sync/state.json`` of ``home``."""
    return sync_dir(home) / STATE_NAME


def read_state(home: Path) -> dict[str, Any]:
    """Return the last sync's record (empty before the first)."""
    try:
        raw = json.loads(state_path(home).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


def record_state(home: Path, url: str, error: str | None, commit: str | None = None) -> None:
    """Record an attempt: when, against which remote, and how it ended."""
    state = read_state(home)
    now = clock.utc_iso(clock.now())
    state.update({"remote": url, "last_attempt": now, "result": "failed" if error else "ok"})
    state["error"] = error
    if error is None:
        state["last_success"] = now
        state["commit"] = commit or state.get("commit")
    ensure_private_dir(sync_dir(home))
    write_document(state_path(home), json.dumps(state, ensure_ascii=False).encode("utf-8"))
