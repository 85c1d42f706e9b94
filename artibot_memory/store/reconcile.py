"""Three stores of one type into one: the merge of a sync, record by record (pure).

``base`` is what both machines last agreed on (the snapshot this machine last synced),
``local`` and ``remote`` what each has now. By id:

- forgotten on either side (``forgotten``, the union of both machines' tombstones): gone;
- on both sides: one record, field by field (:func:`merge_record`): evidence and
  counter-evidence are the union of both (each observation once), tags and links the
  union, counts are the base's plus each side's increase over it (a repeat seen on two
  machines counts twice, the base once), the latest of each time, the earliest creation,
  and any other field the side that changed it (both changed it: the newer record's);
- on one side only: new there (kept), or deleted on the other side (expired, pruned,
  over the cap) while unchanged here (left out); changed here meanwhile, it is kept.

Two preferences of the same key and project, each new on one machine, are both kept;
:func:`rivals` names them so the caller logs the conflict instead of choosing silently.

>>> from datetime import datetime, timezone
>>> t = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> def m(count):
...     return Memory(id="cmd-1", type="command", text="make", count=count,
...                   created_at=t, updated_at=t, last_seen=t)
>>> [e.count for e in merge_entries([m(3)], [m(5)], [m(4)], frozenset())]
[6]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import orjson

from artibot_memory.store.merge import MAX_EVIDENCE
from artibot_memory.store.model import Memory, MemoryType, State

COUNTERS = frozenset({"count", "failures", "access_count"})
EVIDENCE = frozenset({"evidence", "counter_evidence"})
UNIONS = frozenset({"tags", "related"})
LATEST = frozenset({"updated_at", "last_seen", "last_accessed", "last_verified"})
EARLIEST = frozenset({"created_at"})
_LIVE = frozenset({State.ACTIVE, State.PENDING})


def merge_entries(
    base: Sequence[Memory],
    local: Sequence[Memory],
    remote: Sequence[Memory],
    forgotten: frozenset[str],
) -> list[Memory]:
    """Return the merged entries, oldest first (by creation, then id).

    The order is the same on every machine whatever each had, so two machines that hold
    the same records publish the same bytes and a sync settles instead of sending them
    back and forth.
    """
    by_base = {m.id: m for m in base}
    by_local = {m.id: m for m in local}
    by_remote = {m.id: m for m in remote}
    merged = []
    for memory_id in dict.fromkeys([*by_local, *by_remote]):
        if memory_id in forgotten:
            continue
        kept = _one(by_base.get(memory_id), by_local.get(memory_id), by_remote.get(memory_id))
        if kept is not None:
            merged.append(kept)
    return sorted(merged, key=lambda memory: (memory.created_at, memory.id))


def _one(base: Memory | None, local: Memory | None, remote: Memory | None) -> Memory | None:
    if local is not None and remote is not None:
        return merge_record(base, local, remote)
    only = local if local is not None else remote
    if only is not None and base is not None and only == base:
        return None  # deleted on the other machine, untouched here
    return only


def merge_record(base: Memory | None, local: Memory, remote: Memory) -> Memory:
    """Return one record from the two sides of the same id (see the module docstring)."""
    if local == remote:
        return local
    ours, theirs = local.model_dump(), remote.model_dump()
    old = base.model_dump() if base is not None else None
    remote_newer = (remote.updated_at, remote.last_seen) > (local.updated_at, local.last_seen)
    out: dict[str, Any] = {}
    for name in dict.fromkeys([*ours, *theirs]):
        was = old.get(name) if old is not None else None
        out[name] = _field(
            name,
            was,
            ours.get(name),
            theirs.get(name),
            base=old is not None,
            remote_newer=remote_newer,
        )
    return Memory.model_validate(out)


def _field(  # noqa: PLR0911 - one rule per kind of field, a table
    name: str, was: Any, mine: Any, theirs: Any, *, base: bool, remote_newer: bool
) -> Any:
    if name in COUNTERS:
        mine, theirs = mine or 0, theirs or 0
        if not base:
            return max(mine, theirs)
        return (was or 0) + max(0, mine - (was or 0)) + max(0, theirs - (was or 0))
    if name in EVIDENCE:
        return _evidence_union(mine or [], theirs or [])
    if name in UNIONS:
        return _union(was or [], mine or [], theirs or [], base=base)
    if name in LATEST or name in EARLIEST:
        present = [value for value in (mine, theirs) if value is not None]
        if not present:
            return None
        return min(present) if name in EARLIEST else max(present)
    if name == "details" and isinstance(mine, dict) and isinstance(theirs, dict):
        keys = list(mine) if set(mine) == set(theirs) else sorted({*mine, *theirs})
        before = was if isinstance(was, dict) else {}
        return {
            key: three_way(
                before.get(key),
                mine.get(key),
                theirs.get(key),
                base=base,
                remote_newer=remote_newer,
            )
            for key in keys
        }
    return three_way(was, mine, theirs, base=base, remote_newer=remote_newer)


def three_way(was: Any, mine: Any, theirs: Any, *, base: bool, remote_newer: bool) -> Any:
    """Return the value of the side that changed it; both did: the newer record's.

    >>> three_way(1, 1, 2, base=True, remote_newer=False)
    2
    >>> three_way(1, 3, 2, base=True, remote_newer=False)
    3
    """
    if mine == theirs:
        return mine
    if base and mine == was:
        return theirs
    if base and theirs == was:
        return mine
    return theirs if remote_newer else mine


def _union(was: list[Any], mine: list[Any], theirs: list[Any], *, base: bool) -> list[Any]:
    """Both lists' items once: the side that changed it; both did, sorted (the same anywhere).

    >>> _union(["a"], ["a", "c"], ["a", "b"], base=True)
    ['a', 'b', 'c']
    """
    if mine == theirs or (base and theirs == was):
        return mine
    if base and mine == was:
        return theirs
    return sorted(set(mine) | set(theirs), key=str)


def _evidence_union(mine: list[Any], theirs: list[Any]) -> list[Any]:
    """Each observation once (same fields: the same one), oldest first, the newest kept."""
    seen: dict[bytes, Any] = {}
    for item in [*mine, *theirs]:
        seen.setdefault(orjson.dumps(item, option=orjson.OPT_SORT_KEYS), item)
    ordered = sorted(seen.items(), key=lambda pair: (str(pair[1].get("at", "")), pair[0]))
    return [item for _key, item in ordered][-MAX_EVIDENCE:]


def rivals(
    base: Iterable[Memory], local: Iterable[Memory], remote: Iterable[Memory]
) -> list[tuple[Memory, Memory]]:
    """Return pairs (newer, older) of live preferences of one key and project, one new per side.

    The same preference superseded differently on two machines: each side's new value
    supersedes the old one there, and after the merge both new values are live.
    """
    known = {m.id for m in base}
    mine = _new_values(local, known)
    theirs = _new_values(remote, known)
    pairs = []
    for slot, ours in mine.items():
        other = theirs.get(slot)
        if other is not None and other.id != ours.id and other.text != ours.text:
            pairs.append((ours, other) if ours.created_at >= other.created_at else (other, ours))
    return pairs


def _new_values(entries: Iterable[Memory], known: set[str]) -> dict[tuple[str, str | None], Memory]:
    found = {}
    for memory in entries:
        fresh = memory.id not in known and memory.state in _LIVE
        if fresh and memory.type == MemoryType.PREFERENCE and memory.key:
            found[(memory.key, memory.project)] = memory
    return found
