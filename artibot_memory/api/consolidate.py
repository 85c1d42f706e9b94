"""Consolidation, the operation: read the daily notes and the stores, propose, apply.

The proposal itself is :mod:`artibot_memory.notes.consolidate` (pure); this module reads
what it needs from the memory home, and applies a proposal the user accepted through the
stores' writers, under each store's lock:

- *create* and *update* are saves (:func:`artibot_memory.api.memories.save_many`; an update
  supersedes the preference of its key, as a new save would);
- *pin* adds the ``memory-md`` tag, *stale* sets the state ``stale``, *reversed* drops the
  tag of a superseded preference: :func:`restate`, one lock and one write per store.

MEMORY.md is rendered from the stores afterwards, like after every CLI change. When it
last ran is ``daily/.consolidated.json``, ``{"last_run": "<ISO 8601>"}``: the next run reads
the notes written after it (at most the last 30 days; the last 7 when it never ran).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from artibot_memory.api import memories
from artibot_memory.api.anchors import stale_changes
from artibot_memory.core import clock
from artibot_memory.core.errors import UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.notes.consolidate import (
    PIN_TAG,
    Change,
    Item,
    Proposal,
    day_of,
    propose,
    read_day,
)
from artibot_memory.recall.startcache import drop_caches
from artibot_memory.store import layers
from artibot_memory.store.jsonfile import Store, change_each_store, group_by_store
from artibot_memory.store.model import Memory, Source, State
from artibot_memory.store.table import STORES, StoreSpec, specs_for_id
from artibot_memory.text import markdown

DEFAULT_DAYS = 7
MAX_DAYS = 30
DAILY = layers.DAILY_DIR
MEMORY_MD = layers.MEMORY_MD
CHANNEL = "consolidate"
SAVED = frozenset({"create", "update"})  # the actions applied by a save

Edit = Callable[[Memory], bool]  # changes a memory in place; True when it changed


@dataclass
class Applied:
    """What applying a proposal did: each change and the memory it made or changed."""

    changes: list[dict[str, object]] = field(default_factory=list)
    last_run: str | None = None


def notes_dir(home: Path) -> Path:
    """Return the folder of the daily notes (``<home>/daily``)."""
    return home / DAILY


def last_run(home: Path | None = None) -> datetime | None:
    """When consolidation last ran, or None (never, or an unreadable record)."""
    return layers.last_consolidated(home or memory_home())


def record_run(at: datetime, home: Path | None = None) -> str:
    """Record ``at`` as the last consolidation; return it as written."""
    stamp = at.isoformat()
    layers.record_run((home or memory_home()) / layers.CONSOLIDATED, stamp)
    return stamp


def window_start(days: int | None, now: datetime, home: Path | None = None) -> datetime:
    """Where the notes to read start: ``days`` back, else the last run, at most 30 days back."""
    if days is not None and not 1 <= days <= MAX_DAYS:
        msg = f"--days takes 1 to {MAX_DAYS}: consolidation reads at most the last {MAX_DAYS} days"
        raise UsageError(msg)
    if days is not None:
        return _local_midnight(now - timedelta(days=days - 1))
    earliest = _local_midnight(now - timedelta(days=MAX_DAYS - 1))
    ran = last_run(home)
    if ran is None:
        return _local_midnight(now - timedelta(days=DEFAULT_DAYS - 1))
    return max(ran, earliest)


def _local_midnight(moment: datetime) -> datetime:
    return moment.astimezone().replace(hour=0, minute=0, second=0, microsecond=0)


def plan(days: int | None = None, *, home: Path | None = None) -> Proposal:
    """Return the proposal for the notes since the last run (or the last ``days`` days)."""
    home = home if home is not None else memory_home()
    now = clock.now()
    since = window_start(days, now, home)
    items, files = read_notes(home, since)
    records = [m for spec in STORES for m in Store(spec, home).load()]
    proposal = propose(
        items, records, now=now, since=since, shown_ids=shown_in_memory_md(home), files=files
    )
    already = {c.memory_id for c in proposal.changes if c.action == "stale"}
    proposal.changes += [c for c in stale_changes(records, home, now) if c.memory_id not in already]
    return proposal


def read_notes(home: Path, since: datetime) -> tuple[list[Item], list[str]]:
    """Return the items of the daily notes of ``since``'s local day and later, and their files."""
    first = since.astimezone().date()
    items: list[Item] = []
    files: list[str] = []
    folder = notes_dir(home)
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        day = day_of(path.name)
        if day is None or day < first or not path.is_file():
            continue
        name = f"{DAILY}/{path.name}"
        items += read_day(name, _read(path))
        files.append(name)
    return items, files


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""  # removed meanwhile (a prune): nothing to read


def shown_in_memory_md(home: Path) -> set[str]:
    """Return the ids MEMORY.md shows now: the markers of its managed lines."""
    path = home / MEMORY_MD
    if not path.is_file():
        return set()
    doc = markdown.parse(_read(path))
    return {b.marker for s in doc.sections for b in markdown.bullets(s) if b.marker}


# ---- applying


def apply(proposal: Proposal, *, home: Path | None = None) -> Applied:
    """Apply every change of ``proposal``, then record the run; return what was done."""
    home = home if home is not None else memory_home()
    applied = Applied()
    saves = [c for c in proposal.changes if c.action in SAVED]
    stored = memories.save_many([_draft(c) for c in saves], home=home) if saves else []
    for change, memory in zip(saves, stored, strict=True):
        applied.changes.append({**change.as_dict(), "result": memory.id})
    others = [c for c in proposal.changes if c.action not in SAVED and c.memory_id]
    changed = restate({str(c.memory_id): _edit_of(c) for c in others}, home=home)
    for change in others:
        result = change.memory_id if change.memory_id in changed else None
        applied.changes.append({**change.as_dict(), "result": result})
    applied.last_run = record_run(proposal.until, home)
    return applied


def _draft(change: Change) -> memories.Draft:
    path, _, line = change.sources[0].rpartition(":") if change.sources else ("", "", "")
    source = Source(channel=CHANNEL, path=path or None, line=int(line) if line.isdigit() else None)
    if change.action == "update":
        return memories.Draft("preference", change.text, key=change.key, source=source)
    return memories.Draft(
        "context",
        change.text,
        tags=change.tags,
        project=change.project,
        source=source,
        details={"days": change.days},
    )


def _edit_of(change: Change) -> Edit:
    if change.action == "pin":
        return _tag
    if change.action == "stale":
        return _make_stale
    return _untag


def _tag(memory: Memory) -> bool:
    if PIN_TAG in memory.tags:
        return False
    memory.tags = [*memory.tags, PIN_TAG]
    return True


def _untag(memory: Memory) -> bool:
    if PIN_TAG not in memory.tags:
        return False
    memory.tags = [t for t in memory.tags if t != PIN_TAG]
    return True


def _make_stale(memory: Memory) -> bool:
    if memory.state is State.STALE:
        return False
    memory.state = State.STALE
    return True


def restate(edits: Mapping[str, Edit], *, home: Path | None = None) -> set[str]:
    """Apply each edit to the memory of its id, under the stores' locks; return what changed.

    An edit changes tags or state in place and says whether it did; the changed ones get
    ``updated_at`` now, and the start caches are dropped (they showed the old state).
    """
    home = home if home is not None else memory_home()
    now = clock.now()
    changed: set[str] = set()

    def change(_spec: StoreSpec, entries: list[Memory], ids: list[str]) -> None:
        wanted = set(ids)
        for entry in entries:
            if entry.id in wanted and edits[entry.id](entry):
                entry.updated_at = now
                changed.add(entry.id)

    change_each_store(group_by_store(edits, specs_for_id), change, home)
    if changed:
        drop_caches(home)
    return changed
