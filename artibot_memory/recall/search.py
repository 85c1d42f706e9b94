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

from artibot_memory.capture import journal
from artibot_memory.core import clock
from artibot_memory.recall.lookup import SEARCHABLE_STATES, Hit, rank, ranked

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from datetime import datetime
    from pathlib import Path

    from artibot_memory.core.errors import StoreError
    from artibot_memory.store.model import Memory
    from artibot_memory.store.table import MemoryType

__all__ = ["Hit", "candidates", "search"]


def search(
    query: str,
    *,
    types: Iterable[MemoryType | str] | None = None,
    project: str | None = None,
    limit: int = 10,
    record: bool = True,
    home: Path | None = None,
) -> list[Hit]:
    """Return up to ``limit`` memories relevant to ``query``, best first; none if unrelated.

    ``project`` keeps global memories and that project's own (``None``: every project);
    ``record`` counts the returned hits as accessed, which feeds their frequency score:
    pass ``False`` for a read that is not the agent's (a person browsing).
    """
    now = clock.now()
    try:
        hits = ranked(query, now=now, types=types, project=project, home=home, limit=limit)
    except sqlite3.Error:  # an SQLite without FTS5, or a disk that refuses the index
        hits = rank(query, candidates(types, project, now, home), now)[: max(limit, 0)]
    if record:
        journal.note_access([hit.memory.id for hit in hits], home)
    return hits


def candidates(
    types: Iterable[MemoryType | str] | None,
    project: str | None,
    now: datetime,
    home: Path | None = None,
    *,
    on_unusable: Callable[[StoreError], None] | None = None,
) -> list[Memory]:
    """Return the live memories of the stores themselves, validated: the index's fallback.

    What :func:`artibot_memory.recall.lookup.live` returns, read from the stores where
    SQLite cannot serve the index. An unusable store raises, unless ``on_unusable`` is
    given: then it is reported there and the other stores still count (a hook must not
    lose all memory to one bad file).
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
        if m.state in SEARCHABLE_STATES and not m.is_expired(now) and in_project(m.project, project)
    ]
