"""Search across the stores (seed 003's searchMemory) and the access counts it feeds.

A memory is a hit only when the query's words match its text or tags (the keyword part
of :mod:`artibot_memory.recall.scoring` is above zero and passes its relevance floor); recency
and frequency then order the hits. With ``record`` (the default), every hit handed back
has its ``access_count`` and ``last_accessed`` updated, batched per store under the
store's lock, so frequency really counts. Only the agent's reads should count: the hooks
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

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from artibot_memory.core import clock
from artibot_memory.core.errors import StoreError
from artibot_memory.core.project import in_project
from artibot_memory.recall.scoring import KeywordIndex, ScoreParts, frequency, recency, relevance
from artibot_memory.store.jsonfile import Store, change_each_store, group_by_store
from artibot_memory.store.model import Memory, MemoryType, State
from artibot_memory.store.table import STORES, StoreSpec, spec_for, specs_for_id
from artibot_memory.text.tokens import tokenize

SEARCHABLE_STATES = frozenset({State.ACTIVE, State.RESOLVED, State.STALE})
ACCESS_LOCK_TIMEOUT = 2.0  # seconds; an access count is not worth a slow hook
TAG_WEIGHT = 2  # a tag is a curated word: it counts as twice the same word in the text


@dataclass(frozen=True)
class Hit:
    """A memory that matched, with the parts of its score."""

    memory: Memory
    parts: ScoreParts

    @property
    def score(self) -> float:
        """The relevance, 0..1."""
        return self.parts.total


def document_tokens(memory: Memory) -> list[str]:
    """Return the words a memory is found by: its text, key and (weighted) tags."""
    tag_words = tokenize(" ".join(memory.tags))
    return tokenize(memory.text) + tokenize(memory.key or "") + tag_words * TAG_WEIGHT


def rank(query: str, memories: Sequence[Memory], now: datetime) -> list[Hit]:
    """Score ``memories`` against ``query``; return only matches, best first."""
    query_tokens = tokenize(query)
    if not query_tokens or not memories:
        return []
    index = KeywordIndex([document_tokens(m) for m in memories])
    hits = [
        Hit(memories[i], _parts(keyword, memories[i], now))
        for i, keyword in index.scores(query_tokens).items()
    ]
    return sorted(hits, key=lambda hit: (hit.score, hit.memory.last_seen), reverse=True)


def _parts(keyword: float, memory: Memory, now: datetime) -> ScoreParts:
    fresh = recency(memory.last_seen, now)
    used = frequency(memory.access_count)
    return ScoreParts(keyword, fresh, used, relevance(keyword, fresh, used))


def candidates(
    types: Iterable[MemoryType | str] | None,
    project: str | None,
    now: datetime,
    home: Path | None = None,
    *,
    on_unusable: Callable[[StoreError], None] | None = None,
) -> list[Memory]:
    """Return the live memories a search may return: not expired, not superseded.

    An unusable store raises, unless ``on_unusable`` is given: then it is reported there
    and the other stores still count (a hook must not lose all memory to one bad file).
    """
    specs = [spec_for(t) for t in types] if types else list(STORES)
    found = [m for spec in specs for m in _load(Store(spec, home), on_unusable)]
    return [
        m
        for m in found
        if m.state in SEARCHABLE_STATES and not m.is_expired(now) and in_project(m.project, project)
    ]


def _load(store: Store, on_unusable: Callable[[StoreError], None] | None) -> list[Memory]:
    try:
        return store.load()
    except StoreError as exc:
        if on_unusable is None:
            raise
        on_unusable(exc)
        return []


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
    hits = rank(query, candidates(types, project, now, home), now)[: max(limit, 0)]
    if record and hits:
        record_access([hit.memory for hit in hits], now, home)
    return hits


def record_access(memories: Iterable[Memory], now: datetime, home: Path | None = None) -> None:
    """Add one access to each memory, one locked write per store touched."""
    counts: dict[str, int] = defaultdict(int)
    for memory in memories:
        counts[memory.id] += 1
    record_access_counts(counts, now, home)


def record_access_counts(counts: dict[str, int], at: datetime, home: Path | None = None) -> None:
    """Add ``counts[id]`` accesses to each memory, one locked write per store touched.

    A store whose lock is busy is skipped: a lost access count is better than a slow hook.
    """

    def bump(_spec: StoreSpec, entries: list[Memory], ids: list[str]) -> None:
        _bump(entries, {memory_id: counts[memory_id] for memory_id in ids}, at)

    groups = group_by_store(counts, specs_for_id)
    change_each_store(groups, bump, home, timeout=ACCESS_LOCK_TIMEOUT, skip_busy=True)


def _bump(entries: list[Memory], counts: dict[str, int], at: datetime) -> None:
    for entry in entries:
        if entry.id in counts:
            entry.access_count += counts[entry.id]
            entry.last_accessed = max(at, entry.last_accessed) if entry.last_accessed else at
