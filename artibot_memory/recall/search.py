"""Search across the stores (seed 003's searchMemory) and the access counts it feeds.

A memory is a hit only when the query's words match its text or tags (the keyword part
of :mod:`artibot_memory.recall.scoring` is above zero and passes its relevance floor); recency
and frequency then order the hits. The memories are read through the index
(:mod:`artibot_memory.recall.lookup`): no store is loaded and nothing imports pydantic,
unless SQLite cannot serve the index (no FTS5), when the stores are ranked instead.

With ``record`` (the default), every hit handed back is journaled as accessed, and the next
ingest adds it to the memory's ``access_count`` (one write per store), so frequency really
counts and a search takes no store lock. Only the agent's reads should count: the hooks
and the skill's searches inside Claude Code. The CLI passes ``record=False`` for a person
browsing at a terminal (see :mod:`artibot_memory.cli.verbs`).

``project`` keeps that project's memories and the global ones (those of no project);
``None`` keeps every project.

>>> import os, tempfile
>>> os.environ["ARTIBOT_MEMORY_HOME"] = tempfile.mkdtemp()
>>> search("anything at all")
[]
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace

from artibot_memory.capture import journal
from artibot_memory.core import clock
from artibot_memory.recall.lookup import (
    NO_FILTERS,
    Filters,
    Hit,
    LayerHit,
    noted_in,
    rank,
    ranked,
    ranked_layers,
)
from artibot_memory.store.layers import EPISODIC, LAYERS, STORE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from datetime import datetime
    from pathlib import Path

    from artibot_memory.core.errors import StoreError
    from artibot_memory.store.model import Memory
    from artibot_memory.store.table import MemoryType

__all__ = ["Filters", "Hit", "LayerHit", "candidates", "search", "search_layers"]


def search(
    query: str,
    *,
    types: Iterable[MemoryType | str] | None = None,
    project: str | None = None,
    limit: int = 10,
    record: bool = True,
    home: Path | None = None,
    filters: Filters = NO_FILTERS,
) -> list[Hit]:
    """Return up to ``limit`` memories relevant to ``query``, best first; none if unrelated.

    ``project`` keeps global memories and that project's own (``None``: every project);
    ``record`` counts the returned hits as accessed, which feeds their frequency score:
    pass ``False`` for a read that is not the agent's (a person browsing). ``filters``
    (states, scopes, confidence, when last seen) apply before the limit.
    """
    now = clock.now()
    try:
        hits = ranked(
            query, now=now, types=types, project=project, home=home, limit=limit, filters=filters
        )
    except sqlite3.Error:  # an SQLite without FTS5, or a disk that refuses the index
        found = candidates(types, project, now, home, filters=filters)
        hits = rank(query, found, now)[: max(limit, 0)]
    if record:
        journal.note_access([hit.memory.id for hit in hits], home)
    return hits


def search_layers(
    query: str,
    *,
    layers: Iterable[str] | None = None,
    types: Iterable[MemoryType | str] | None = None,
    project: str | None = None,
    limit: int = 10,
    record: bool = True,
    home: Path | None = None,
    filters: Filters = NO_FILTERS,
) -> list[Hit | LayerHit]:
    """Search the stores, the daily notes and MEMORY.md in one ranking, best first.

    ``layers``: any of ``store``, ``episodic``, ``semantic`` (default: all three; with
    ``types``, which name stores, only ``store`` unless ``layers`` says more). The store
    hits are :func:`search`'s, scores and filters alike. A layer line that is a memory hit
    too (a managed MEMORY.md line, a daily bullet sourced by the memory's id) is not
    returned again: the memory's hit notes it in ``also``. ``filters``: a layer line
    passes on its date (and project); one asking for a state, scope or confidence leaves
    every layer line out.
    """
    chosen = set(layers) if layers else ({STORE} if types else set(LAYERS))
    stored = (
        search(
            query,
            types=types,
            project=project,
            limit=limit,
            record=False,
            home=home,
            filters=filters,
        )
        if STORE in chosen
        else []
    )
    found: list[LayerHit] = []
    if chosen - {STORE}:
        try:
            found = ranked_layers(
                query,
                now=clock.now(),
                layers=chosen,
                project=project,
                home=home,
                limit=limit,
                filters=filters,
            )
            stored = _noting_layers(stored, home)
        except sqlite3.Error:  # no FTS5: the layers are searched through the index only
            found = []
    held = {hit.memory.id for hit in stored}
    again = [h for h in found if h.layer == EPISODIC and h.line.ref in held]
    hits: list[Hit | LayerHit] = [*stored, *(h for h in found if h not in again)]
    hits.sort(key=lambda hit: hit.score, reverse=True)
    hits = hits[: max(limit, 0)]
    if record:  # what is handed back counts as accessed; only memories have a count
        journal.note_access([hit.memory.id for hit in hits if isinstance(hit, Hit)], home)
    return hits


def _noting_layers(hits: list[Hit], home: Path | None) -> list[Hit]:
    """Return the store hits with the layer lines that are those memories noted in ``also``."""
    noted = noted_in([hit.memory.id for hit in hits], home=home)
    return [replace(hit, also=tuple(noted.get(hit.memory.id, ()))) for hit in hits]


def candidates(
    types: Iterable[MemoryType | str] | None,
    project: str | None,
    now: datetime,
    home: Path | None = None,
    *,
    on_unusable: Callable[[StoreError], None] | None = None,
    filters: Filters = NO_FILTERS,
) -> list[Memory]:
    """Return the live memories of the stores themselves, validated: the index's fallback.

    What :func:`artibot_memory.recall.lookup.live` returns, read from the stores where
    SQLite cannot serve the index. An unusable store raises, unless ``on_unusable`` is
    given: then it is reported there and the other stores still count (a hook must not
    lose all memory to one bad file). ``filters``: as the index applies them.
    """
    # The full path: pydantic, only where the index cannot be used.
    from artibot_memory.core.errors import StoreError  # noqa: PLC0415
    from artibot_memory.core.project import in_project  # noqa: PLC0415
    from artibot_memory.store.jsonfile import Store  # noqa: PLC0415
    from artibot_memory.store.table import STORES, spec_for  # noqa: PLC0415

    found: list[Memory] = []
    for spec in [spec_for(t) for t in types] if types else list(STORES):
        try:
            found += Store(spec, home).load()
        except StoreError as exc:
            if on_unusable is None:
                raise
            on_unusable(exc)
    return [
        m
        for m in found
        if filters.keeps(m) and not m.is_expired(now) and in_project(m.project, project)
    ]
