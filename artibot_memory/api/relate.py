"""``related``: links between memories that share a key, an entity or a conflict.

Run once per SessionEnd worker (from :func:`artibot_memory.lifecycle.save_summary`) and at
the end of an ingest. Each memory gets at most :data:`MAX_RELATED` links: first those it
already has (a supersede's), then the memories it is in a conflict with, then those that
share one of its entities, the rarest entity first; an entity shared by more than
:data:`MAX_SHARED` memories (``tool:git``) says nothing and links none. A store is written
only when one of its memories' links changed.

>>> import os, tempfile
>>> from pathlib import Path
>>> from artibot_memory.api import memories
>>> home = Path(tempfile.mkdtemp())
>>> a = memories.save("preference", "Use pnpm in every repo", home=home)
>>> b = memories.save("command", "pnpm install", home=home)
>>> relate(home)
2
>>> memories.get(a.id, home=home).related == [b.id]
True
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import display_name
from artibot_memory.store.evidence import entities
from artibot_memory.store.jsonfile import Store, change_each_store, group_by_store
from artibot_memory.store.model import Memory, State
from artibot_memory.store.table import STORES, spec_for

MAX_RELATED = 10
MAX_SHARED = 20  # an entity of more memories than this is too common to relate by


def relate(home: Path | None = None) -> int:
    """Link every memory to those it shares something with; return how many changed."""
    home = home if home is not None else memory_home()
    everything = [memory for spec in STORES for memory in Store(spec, home).load()]
    links = links_of(everything)
    changed = {m.id: links[m.id] for m in everything if links.get(m.id, m.related) != m.related}
    if changed:
        types = {m.id: m.type for m in everything}
        by_store = group_by_store(changed, lambda memory_id: [spec_for(types[memory_id])])
        change_each_store(by_store, lambda _spec, entries, _ids: _apply(entries, changed), home)
    return len(changed)


def links_of(memories: list[Memory]) -> dict[str, list[str]]:
    """Return the ``related`` list each memory should have (see the module docstring)."""
    projects = {display_name(p).lower() for p in {m.project for m in memories} if p}
    order = sorted(memories, key=lambda m: (m.last_seen, m.id), reverse=True)
    holders: dict[str, list[str]] = {}
    about: dict[str, set[str]] = {}
    for memory in order:
        about[memory.id] = entities(memory, projects)
        for entity in about[memory.id]:
            holders.setdefault(entity, []).append(memory.id)
    known = {memory.id for memory in memories}
    links = {}
    for memory in memories:
        if memory.state is State.SUPERSEDED:
            continue  # history: it keeps the links it had
        shared = [holders[e] for e in about[memory.id] if 1 < len(holders[e]) <= MAX_SHARED]
        if not shared and not memory.related and "conflicts" not in memory.details:
            continue  # nothing to link: the common case, kept cheap
        shared.sort(key=lambda ids: (len(ids), ids))
        candidates = [*memory.related, *_conflicting(memory), *(i for ids in shared for i in ids)]
        links[memory.id] = _first(memory, candidates, known)
    return links


def _conflicting(memory: Memory) -> list[str]:
    conflicts = memory.details.get("conflicts")
    if not isinstance(conflicts, list):
        return []
    return [str(c["with"]) for c in conflicts if isinstance(c, dict) and c.get("with")]


def _first(memory: Memory, candidates: Iterable[str], known: set[str]) -> list[str]:
    """Return the first distinct candidates, the memory's own links always kept."""
    kept = list(dict.fromkeys(memory.related))
    for candidate in candidates:
        if len(kept) >= MAX_RELATED:
            break
        if candidate != memory.id and candidate in known and candidate not in kept:
            kept.append(candidate)
    return kept


def _apply(entries: list[Memory], changed: dict[str, list[str]]) -> None:
    for entry in entries:
        if entry.id in changed:
            entry.related = changed[entry.id]
