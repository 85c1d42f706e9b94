"""Per-store figures for ``artibot-memory stats``: entries, bytes, oldest, newest, expiring."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from artibot_memory.core import clock
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.table import STORES

EXPIRING_WINDOW = timedelta(days=7)


@dataclass(frozen=True)
class StoreStats:
    """What one store holds right now."""

    type: str
    file: str
    entries: int
    bytes: int
    oldest: datetime | None
    newest: datetime | None
    expiring_soon: int


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
