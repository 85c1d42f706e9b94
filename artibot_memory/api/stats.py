"""Per-store figures for ``artibot-memory stats``, from the stores themselves.

``stats`` reads its figures from the index (:func:`artibot_memory.recall.lookup.store_stats`);
this is what it reads where SQLite cannot serve the index (no FTS5).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from artibot_memory.core import clock
from artibot_memory.recall.lookup import EXPIRING_WINDOW, StoreStats
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.table import STORES


def store_stats(home: Path | None = None) -> list[StoreStats]:
    """Return one row per store; ``expiring_soon`` counts entries due within 7 days."""
    now = clock.now()
    return [_stats_of(Store(spec, home), now) for spec in STORES]


def _stats_of(store: Store, now: datetime) -> StoreStats:
    entries = store.load()
    created = [entry.created_at for entry in entries]
    soon = now + EXPIRING_WINDOW
    return StoreStats(
        type=store.spec.type.value,
        file=store.path.name,
        entries=len(entries),
        bytes=store.path.stat().st_size if store.path.exists() else 0,
        oldest=min(created, default=None),
        newest=max(created, default=None),
        expiring_soon=sum(1 for e in entries if e.expires_at is not None and e.expires_at <= soon),
    )
