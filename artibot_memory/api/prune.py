"""Pruning (seed 003's pruneOldMemories) and its human checkpoint.

Every save already drops expired entries and enforces the caps; ``prune`` does it for all
four stores at once, and ``plan_prune`` lists what would go without touching anything, so
the CLI can show the list and ask first (seed 003, checkpoint 3). ``extend_ttl`` keeps a
memory the user wants to save from expiry.

What ``prune`` deletes leaves ``backups/`` too (each store's backup is rewritten without
it, under the store's lock) and every start cache is deleted, so ``doctor --repair`` cannot
restore it and no SessionStart shows it. It gets no tombstone: an expired entry cannot
come back (its expiry travels in the record, so an import drops it on arrival and a
restore leaves it out), and an entry evicted over the cap was dropped for room, not at the
user's request, so an import may bring it back. The journal is not searched: a record
waiting there is newer than anything that expired.

The daily notes follow the same rule (docs/NOTES.md, the forgetting curve): a note older
than ``ARTIBOT_MEMORY_NOTES_DAYS`` local days (default 90) is listed by ``plan_prune`` and
removed by ``prune``. Like an expired memory, it goes without a question when SessionStart
prunes (an expiry the user set by the setting, not a choice to make each time), and the
``prune`` verb lists it and asks first, as it does for the stores.

>>> import os
>>> os.environ[NOTES_DAYS_ENV] = "30"
>>> notes_days()
30
>>> os.environ[NOTES_DAYS_ENV] = "forever"
>>> notes_days()
90
>>> del os.environ[NOTES_DAYS_ENV]
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from artibot_memory.api.consolidate import DAILY, notes_dir
from artibot_memory.core import clock
from artibot_memory.core.errors import StoreBusyError, StoreError, UnknownMemoryError, UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.recall.startcache import drop_caches
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.layers import day_of
from artibot_memory.store.merge import drop_expired, enforce_cap
from artibot_memory.store.model import Memory
from artibot_memory.store.table import STORES, specs_for_id

MAX_EXTENSION_DAYS = 3_650
NOTES_DAYS_ENV = "ARTIBOT_MEMORY_NOTES_DAYS"
DEFAULT_NOTES_DAYS = 90


@dataclass
class PruneReport:
    """What a prune removed (or, dry, would remove): expired and over-cap entries, old notes.

    ``notes`` names the daily notes past their days (``daily/2026-08-01.md``).
    """

    expired: list[Memory] = field(default_factory=list)
    over_cap: list[Memory] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped_busy: list[str] = field(default_factory=list)
    unusable: list[str] = field(default_factory=list)

    @property
    def removed(self) -> list[Memory]:
        """Everything that goes, expired first."""
        return self.expired + self.over_cap


def plan_prune(home: Path | None = None) -> PruneReport:
    """Return what :func:`prune` would remove now, changing nothing."""
    now = clock.now()
    report = PruneReport()
    for spec in STORES:
        entries = Store(spec, home).load()
        report.expired += drop_expired(entries, now)
        report.over_cap += enforce_cap(entries, spec.cap)
    report.notes = [f"{DAILY}/{path.name}" for path in old_notes(home or memory_home(), now)]
    return report


def notes_days() -> int:
    """How many local days a daily note is kept: ``ARTIBOT_MEMORY_NOTES_DAYS``, default 90."""
    value = os.environ.get(NOTES_DAYS_ENV, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else DEFAULT_NOTES_DAYS


def old_notes(home: Path, now: datetime) -> list[Path]:
    """Return the daily notes older than :func:`notes_days` local days, oldest first.

    A note of day D goes when today (local) is more than that many days after D: with the
    default 90, the note of 2026-09-01 is kept through 2026-11-30 and goes on 2026-12-01.
    """
    folder = notes_dir(home)
    if not folder.is_dir():
        return []
    today = now.astimezone().date()
    keep = timedelta(days=notes_days())
    old = []
    for path in sorted(folder.glob("*.md")):
        day = day_of(path.name)
        if day is not None and today - day > keep and path.is_file() and not path.is_symlink():
            old.append(path)
    return old


def _remove_notes(home: Path, now: datetime) -> list[str]:
    removed = []
    for path in old_notes(home, now):
        try:
            path.unlink()
        except FileNotFoundError:
            continue  # another prune was first
        removed.append(f"{DAILY}/{path.name}")
    return removed


def prune(home: Path | None = None, *, lock_timeout: float = 10.0) -> PruneReport:
    """Remove expired and over-cap entries from every store, its backup and the start caches.

    Busy stores are skipped. Daily notes past their days are removed too.
    """
    home = home if home is not None else memory_home()
    now = clock.now()
    report = PruneReport()
    for spec in STORES:
        store = Store(spec, home)
        try:
            if not _needs_pruning(store.load(), spec.cap, now):
                continue  # the common case at session start: no lock, no rewrite
            with store.transaction(timeout=lock_timeout, purge_backup=True) as entries:
                report.expired += drop_expired(entries, now)
                report.over_cap += enforce_cap(entries, spec.cap)
        except StoreBusyError:
            report.skipped_busy.append(spec.filename)
        except StoreError as exc:
            report.unusable.append(str(exc))  # the others are still pruned
    if report.removed:
        drop_caches(home)
    report.notes = _remove_notes(home, now)
    return report


def _needs_pruning(entries: list[Memory], cap: int, now: datetime) -> bool:
    return len(entries) > cap or any(entry.is_expired(now) for entry in entries)


def extend_ttl(memory_id: str, days: float, home: Path | None = None) -> Memory:
    """Push a memory's expiry ``days`` further (from now if it has already passed)."""
    if not 0 < days <= MAX_EXTENSION_DAYS:
        msg = f"--extend-ttl takes a number of days from 1 to {MAX_EXTENSION_DAYS}"
        raise UsageError(msg)
    now = clock.now()
    for spec in specs_for_id(memory_id):
        with Store(spec, home).transaction() as entries:
            for entry in entries:
                if entry.id == memory_id:
                    return _extend(entry, days, now)
    raise UnknownMemoryError(f"id {memory_id!r}")


def _extend(entry: Memory, days: float, now: datetime) -> Memory:
    if entry.expires_at is None:
        msg = f"{entry.id} is permanent ({entry.type.value}s do not expire)"
        raise UsageError(msg)
    start = max(entry.expires_at, now)
    entry.expires_at = start + timedelta(days=days)
    return entry
