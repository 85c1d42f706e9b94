"""``artibot-memory sync``: one memory on every machine, through a git remote (docs/SYNC.md).

One round, under ``sync/repo.lock``:

1. every travelling file of the home is read and checked with the redactor; a file where
   it finds a secret is left out of this sync (not merged, not committed) and named with
   its line (:func:`secret_line`);
2. the remote's snapshot is fetched (:mod:`artibot_memory.api.snapshots`); a remote that
   cannot be reached, or a snapshot that cannot be read, ends the sync here: the home is
   as it was, and one line says why;
3. MEMORY.md's hand edits go into the stores (the refresh every write does), then each
   file is merged three-way with the base, the snapshot both machines last agreed on:
   stores record by record (:mod:`artibot_memory.store.reconcile`), tombstones as a union
   (forgotten on one machine, forgotten on every one), Markdown by section and line
   (:mod:`artibot_memory.notes.reconcile`); git never merges a line, so no conflict marker
   is ever written. Forgotten ids that arrived take their traces with them as a forget's
   do; the same preference superseded differently on two machines goes to the ledger;
   MEMORY.md is rendered again, the start caches dropped;
4. the merged files are published as one parentless commit with a lease on the commit
   fetched; refused (another machine pushed meanwhile), the round starts again at 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from artibot_memory.api import conflicts, entities, snapshots
from artibot_memory.api.memories import SESSION_KEY, journal_matcher
from artibot_memory.capture import journal
from artibot_memory.capture.hooklog import log_failure
from artibot_memory.core import clock, config, disk
from artibot_memory.core.errors import ArtibotMemoryError, StoreError, SyncError, UsageError
from artibot_memory.core.paths import ensure_private_dir, is_inside, memory_home
from artibot_memory.notes import daily, reconcile
from artibot_memory.notes.conflicts import SAME_KEY, Found
from artibot_memory.notes.semantic import SECTIONS, TOP_BELIEFS
from artibot_memory.recall.startcache import drop_caches
from artibot_memory.recall.vectors import remove as remove_vectors
from artibot_memory.store import reconcile as records
from artibot_memory.store.index import remove as remove_index
from artibot_memory.store.jsonfile import Store, encode_entries, parse_store_bytes
from artibot_memory.store.lock import locked
from artibot_memory.store.model import Memory
from artibot_memory.store.table import STORES
from artibot_memory.store.tombstones import (
    TOMBSTONES_NAME,
    forgotten_ids,
    ids_in,
    record_forgotten,
)
from artibot_memory.text.markdown import BULLET, MARKER

ATTEMPTS = 4
LOCK_TIMEOUT_SECONDS = 30.0
STORE_FILES = {spec.filename: spec for spec in STORES}
SINGLE_FILES = ("MEMORY.md", "evolution.log", "config.toml", TOMBSTONES_NAME)
_TRAVELLING = re.compile(
    r"^(?:daily/\d{4}-\d\d-\d\d\.md|conflicts/\d{4}-\d\d-\d\d\.md"
    r"|entities/(?:projects|people|areas)/[^/]+\.md)$"
)
_REDACTED = re.compile(r"\[REDACTED:([\w.-]+)\]")
_MANAGED_TITLES = frozenset({*SECTIONS, TOP_BELIEFS})


@dataclass
class Report:
    """What a sync did: the remote, the files received and sent, what it left out, and why."""

    remote: str
    commit: str | None = None
    received: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    attempts: int = 0


def is_travelling(name: str) -> bool:
    """Tell whether a home-relative path travels with a sync.

    >>> is_travelling("daily/2026-12-01.md"), is_travelling("index.sqlite")
    (True, False)
    """
    return name in STORE_FILES or name in SINGLE_FILES or bool(_TRAVELLING.match(name))


def local_files(home: Path) -> snapshots.Snapshot:
    """Return every travelling file of ``home`` (links leading out of it left out)."""
    names = [*STORE_FILES, *SINGLE_FILES]
    for pattern in ("daily/*.md", "conflicts/*.md", "entities/*/*.md"):
        names += [p.relative_to(home).as_posix() for p in home.glob(pattern)]
    found = {}
    for name in names:
        path = home / name
        if is_travelling(name) and path.is_file() and is_inside(path, home):
            found[name] = path.read_bytes()
    return found


def secret_line(name: str, data: bytes, known: Iterable[bytes | None] = ()) -> str | None:
    r"""Return ``name:line: …`` where the redactor finds a secret in ``data``, else None.

    The lines of ``known`` versions of the file (published, so checked already: the merge
    base, the remote's snapshot) are not read again: a sync checks what changed.

    >>> secret_line("MEMORY.md", b"- ok\n- token ghp_" + b"a1B2c3D4e5" * 4 + b"\n")
    'MEMORY.md:2: a secret (github-token)'
    """
    text = data.decode("utf-8", "replace")
    trusted = frozenset(
        line
        for version in known
        if version
        for line in version.decode("utf-8", "replace").split("\n")
    )
    if name.endswith(".json"):
        if disk.checked_document(data, trusted) == data:
            return None
        lines = [(line, disk.checked_document(line.encode()).decode()) for line in text.split("\n")]
    else:
        fresh = "\n".join(line for line in text.split("\n") if line not in trusted)
        if disk.clean(fresh) == fresh:
            return None
        cleaned = disk.clean(text)
        lines = list(zip(text.split("\n"), cleaned.split("\n"), strict=False))
    for number, (before, after) in enumerate(lines, start=1):
        if before != after:
            kinds = [k for k in _REDACTED.findall(after) if f"[REDACTED:{k}]" not in before]
            return f"{name}:{number}: a secret ({kinds[0] if kinds else 'secret'})"
    return f"{name}:1: a secret"


def sync(home: Path | None = None, url: str | None = None, *, attempts: int = ATTEMPTS) -> Report:
    """Pull, merge and push (see the module docstring); ``url`` sets the remote first."""
    home = home if home is not None else memory_home()
    if not url and snapshots.remote_url(home) is None:
        msg = "no remote yet: run `artibot-memory sync --remote URL` once"
        raise UsageError(msg)
    repo = snapshots.ensure_repo(home)
    try:
        remote = snapshots.set_remote(repo, url) if url else snapshots.remote_url(home)
    except SyncError as exc:  # a --remote that cannot be reached: a failed attempt, recorded
        snapshots.record_state(home, snapshots.remote_url(home) or url or "", str(exc))
        raise
    if remote is None:  # the repository's config lost it meanwhile
        msg = "no remote yet: run `artibot-memory sync --remote URL` once"
        raise UsageError(msg)
    with locked(repo, LOCK_TIMEOUT_SECONDS):
        try:
            report = _rounds(home, repo, remote, attempts)
        except ArtibotMemoryError as exc:
            snapshots.record_state(home, remote, str(exc))
            raise
        snapshots.record_state(home, remote, None, report.commit)
    return report


def sync_if_asked(home: Path | None = None) -> None:
    """Sync when ``sync.auto`` is on and a remote is set (the SessionEnd worker); log a failure."""
    home = home if home is not None else memory_home()
    try:
        if config.load(home)["sync.auto"] and snapshots.remote_url(home):
            sync(home)
    except Exception as exc:  # noqa: BLE001 - offline is normal; the next session end retries
        log_failure("sync", exc)


def _rounds(home: Path, repo: Path, remote: str, attempts: int) -> Report:
    report = Report(remote)
    blocked = {}
    checked = local_files(home)
    agreed = snapshots.read_snapshot(repo, snapshots.BASE_REF)  # checked when it was published
    for name, data in checked.items():
        where = None if data == agreed.get(name) else secret_line(name, data, [agreed.get(name)])
        if where is not None:
            blocked[name] = where
    report.blocked = sorted(blocked.values())
    for attempt in range(1, attempts + 1):
        report.attempts = attempt
        fetched = snapshots.fetch(repo, remote)
        published = snapshots.read_snapshot(repo, snapshots.FETCHED_REF) if fetched else {}
        _check_readable(home, published)
        # Tombstones win in every version: nothing forgotten on either side comes back.
        forgotten = forgotten_ids(home) | set(ids_in(published.get(TOMBSTONES_NAME) or b""))
        base = snapshots.scrub(agreed, forgotten)
        theirs = snapshots.scrub(published, forgotten)
        if attempt == 1 and "MEMORY.md" not in blocked:
            _refresh(home)  # this machine's hand edits into its stores, before the merge
        _merge_into_home(home, base, theirs, set(blocked), report)
        if fetched:
            snapshots.set_base(repo, fetched)  # the home now holds all of it
            agreed = published  # what the base names now, without reading it again
        publish = _publishable(home, theirs, base, set(blocked), checked)
        if fetched and publish == published:
            report.commit = fetched
            break
        changed = publish.keys() | published.keys()
        report.sent = sorted(n for n in changed if publish.get(n) != published.get(n))
        commit = snapshots.commit_snapshot(repo, publish, clock.now())
        if snapshots.push(repo, remote, commit, fetched):
            snapshots.set_base(repo, commit)
            report.commit = commit
            break
    else:
        msg = f"the remote changed during each of {attempts} attempts; run sync again"
        raise SyncError(msg)
    snapshots.forget_old(repo)
    return report


def _check_readable(home: Path, theirs: snapshots.Snapshot) -> None:
    """Raise before any write when a store here or on the remote cannot be merged."""
    for name, spec in STORE_FILES.items():
        try:
            Store(spec, home).load()
            if name in theirs:
                parse_store_bytes(Path(name), theirs[name])
        except StoreError as exc:
            side = "the remote's" if name in theirs else "this home's"
            raise SyncError(f"{side} {exc}; nothing was changed") from exc


def _refresh(home: Path) -> None:
    from artibot_memory.api.semantic import refresh  # noqa: PLC0415 - it imports the writers

    refresh(home)


def _merge_into_home(
    home: Path,
    base: snapshots.Snapshot,
    theirs: snapshots.Snapshot,
    blocked: set[str],
    report: Report,
) -> None:
    remote_ids = ids_in(theirs.get(TOMBSTONES_NAME) or b"")
    arrived = set(remote_ids) - forgotten_ids(home)
    path = home / TOMBSTONES_NAME
    mine = ids_in(path.read_bytes() if path.is_file() else b"")
    if TOMBSTONES_NAME not in blocked and mine != [
        *(i for i in mine if i not in set(remote_ids)),
        *remote_ids,
    ]:
        # This machine's own ids first, then the remote's in its order: once both hold the
        # same ids, both files are the same bytes and the sync stops sending them.
        record_forgotten(remote_ids, home)
    forgotten = forgotten_ids(home)
    gone: list[Memory] = []
    rivals: list[tuple[Memory, Memory]] = []
    for name, spec in STORE_FILES.items():
        if name in blocked or (theirs.get(name) == base.get(name) and not arrived):
            continue
        with Store(spec, home).transaction(purge_backup=bool(arrived)) as entries:
            old, new = _entries(base.get(name)), _entries(theirs.get(name))
            gone += [m for m in entries if m.id in forgotten]
            before = encode_entries(entries)
            rivals += records.rivals(old, entries, new)
            entries[:] = records.merge_entries(old, entries, new, forgotten)
            if encode_entries(entries) != before and name not in report.received:
                report.received.append(name)
    for name in sorted(theirs.keys() | base.keys()):
        if name not in blocked and name not in STORE_FILES and name != TOMBSTONES_NAME:
            _merge_text(home, name, base.get(name), theirs.get(name), report)
    _after_merge(home, arrived=arrived, gone=gone, rivals=rivals, report=report, blocked=blocked)


def _entries(data: bytes | None) -> list[Memory]:
    if not data:
        return []
    try:
        return parse_store_bytes(Path("snapshot"), data)
    except StoreError:
        return []  # an unreadable base: merged as if there were none


def _merger(name: str) -> Callable[[str | None, str | None, str | None], str | None]:
    if name.startswith("daily/"):
        return reconcile.merge_daily
    if name == "evolution.log":
        return reconcile.merge_lines
    if name == "config.toml":
        return reconcile.whole_file
    if name == "MEMORY.md":
        return lambda b, l, r: reconcile.merge_sections(b, l, r, skip=_managed)  # noqa: E741
    if name.startswith("conflicts/"):
        return lambda b, l, r: reconcile.merge_sections(b, l, r, key=_first_word)  # noqa: E741
    return reconcile.merge_sections


def _managed(title: str, line: str) -> bool:
    """MEMORY.md's lines the stores render: left to the render after the merge."""
    return bool(MARKER.search(line)) or (title in _MANAGED_TITLES and bool(BULLET.match(line)))


def _first_word(title: str) -> str:
    return title.split(" ", 1)[0]


def _merge_text(
    home: Path, name: str, was: bytes | None, theirs: bytes | None, report: Report
) -> None:
    if theirs == was:
        return
    path = home / name
    if not is_inside(path, home):
        return
    ensure_private_dir(path.parent)
    with locked(path):
        mine = path.read_bytes() if path.is_file() else None
        texts = [None if d is None else d.decode("utf-8", "replace") for d in (was, mine, theirs)]
        merged = _merger(name)(*texts)
        if name == "config.toml" and texts[1] not in (texts[0], texts[2]) and texts[2] != texts[0]:
            report.notes.append("config.toml changed on both machines: this machine's is kept")
        if merged == texts[1]:
            return
        if merged is None:
            path.unlink(missing_ok=True)
        else:
            disk.write_text(path, merged)
        if name not in report.received:
            report.received.append(name)


def _after_merge(
    home: Path,
    *,
    arrived: set[str],
    gone: list[Memory],
    rivals: list[tuple[Memory, Memory]],
    report: Report,
    blocked: set[str],
) -> None:
    """Do what a forget and a write do after them: traces, the ledger, MEMORY.md, caches."""
    if arrived:
        if gone:
            journal.drop_lines(journal_matcher(gone), home)
        sessions = {
            m.key.removeprefix(SESSION_KEY) for m in gone if m.key and m.key.startswith(SESSION_KEY)
        }
        daily.drop(home, arrived, sessions)
        conflicts.forget_sides(arrived, home)
        entities.drop(home, arrived)
        remove_index(home)
        remove_vectors(home)
    if rivals:
        current = {m.id: m for spec in STORES for m in Store(spec, home).load()}
        found = [
            Found(SAME_KEY, new.key or "", current[new.id], current[old.id])
            for new, old in rivals
            if new.id in current and old.id in current
        ]
        report.conflicts = [entry.id for entry in conflicts.record(found, home)]
    if report.received or arrived:
        if "MEMORY.md" not in blocked:
            _refresh(home)
        drop_caches(home)


def _publishable(
    home: Path,
    theirs: snapshots.Snapshot,
    base: snapshots.Snapshot,
    blocked: set[str],
    checked: snapshots.Snapshot,
) -> snapshots.Snapshot:
    """Return the files to publish: the home's; one with a secret as the remote (or base) has it."""
    files = local_files(home)
    for name in list(files):
        # The merge changed it: read it again, unless it is what one side published (checked).
        again = files[name] not in (checked.get(name), theirs.get(name), base.get(name))
        published = (checked.get(name), theirs.get(name), base.get(name))
        if name in blocked or (again and secret_line(name, files[name], published) is not None):
            del files[name]
            kept = theirs.get(name, base.get(name))
            if kept is not None:
                files[name] = kept
    return files
