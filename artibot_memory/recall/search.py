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

import json
import os
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from artibot_memory.core import clock
from artibot_memory.core.errors import StoreError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import in_project
from artibot_memory.recall.scoring import B, KeywordIndex, ScoreParts, frequency, recency, relevance
from artibot_memory.store import index
from artibot_memory.store.jsonfile import Store, change_each_store, group_by_store
from artibot_memory.store.model import Memory, MemoryType, State
from artibot_memory.store.table import STORES, StoreSpec, spec_for, specs_for_id
from artibot_memory.text.tokens import memory_tokens, search_tokens

SEARCHABLE_STATES = frozenset({State.ACTIVE, State.RESOLVED, State.STALE})
ACCESS_LOCK_TIMEOUT = 2.0  # seconds; an access count is not worth a slow hook


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
    return memory_tokens(memory.text, memory.key, memory.tags)


def rank(query: str, memories: Sequence[Memory], now: datetime) -> list[Hit]:
    """Score ``memories`` against ``query``; return only matches, best first."""
    query_tokens = search_tokens(query)
    if not query_tokens or not memories:
        return []
    index = KeywordIndex([document_tokens(m) for m in memories])
    hits = [
        Hit(memories[i], _parts(keyword, memories[i], now))
        for i, keyword in index.scores(query_tokens).items()
    ]
    return sorted(hits, key=lambda hit: (hit.score, hit.memory.last_seen), reverse=True)


def _parts(keyword: float, memory: Memory, now: datetime) -> ScoreParts:
    return _score(keyword, memory.last_seen, memory.access_count, now)


def _score(keyword: float, last_seen: datetime, uses: int, now: datetime) -> ScoreParts:
    fresh = recency(last_seen, now)
    used = frequency(uses)
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
    try:
        found = indexed_search(query, now=now, types=types, project=project, home=home, limit=limit)
        hits = [Hit(Memory.model_validate(doc), parts) for doc, parts in found]
    except sqlite3.Error:  # an SQLite without FTS5, or a disk that refuses the index
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


# ---- through the index (artibot_memory.store.index): no store is loaded or validated


class _IndexedKeywords(KeywordIndex):
    """BM25 over the live memories of the index, the postings of a term read from FTS5.

    The arithmetic of :class:`KeywordIndex` over the same documents (the memories a search
    may return), so the scores are the same; only the query's own terms are read: how many
    memories hold each (counted by SQLite), and the postings of the rare ones in full, of
    the common ones only among the memories the rare ones found.
    """

    def __init__(self, connection: sqlite3.Connection, where: str, params: list[object]) -> None:
        super().__init__([])
        count, total = connection.execute(
            f"SELECT count(*), total(m.length) FROM memories AS m WHERE {where}",  # noqa: S608 - our own condition, values bound
            params,
        ).fetchone()
        self.size = int(count)
        average = (float(total) / self.size or 1.0) if self.size else 1.0
        self._base_norm, self._norm_slope = self._k1 * (1 - B), self._k1 * B / average
        self._connection, self._where, self._params = connection, where, params
        self._norms: dict[int, float] = {}
        self._holders: dict[str, int] = {}
        self._among: list[int] | None = None
        self.rows: dict[int, tuple[int | None, int]] = {}  # rowid: (last seen, uses)

    def holders(self, token: str) -> int:
        found = self._holders.get(token)
        if found is None:
            found = self._holders[token] = self._count_holders(token)
        return found

    def _count_holders(self, token: str) -> int:
        if self._among is not None:  # a large index: every memory's word, from the vocabulary
            row = self._connection.execute(
                "SELECT doc FROM terms_vocab WHERE term = ?", (token,)
            ).fetchone()
            return int(row[0]) if row else 0
        sql = _MATCHING.format(columns="count(*)", where=self._where)
        row = self._connection.execute(sql, [_fts_phrase(token), *self._params]).fetchone()
        return int(row[0])

    def preselect(self, query_tokens: Sequence[str]) -> None:
        """Above :data:`EXHAUSTIVE_LIMIT` memories, score only FTS5's best candidates.

        FTS5's own BM25 (over every memory holding any query word, in C) picks the
        :data:`CANDIDATES` best; ours then scores exactly those, with the exact document
        frequencies. Below the limit (every store at its real caps) every memory holding a
        query word is scored, as a search over the stores did.
        """
        if self.size <= EXHAUSTIVE_LIMIT:
            return
        # Document frequencies then come from FTS5's vocabulary, over every memory indexed
        # (not only the live ones of these types and project): an approximation that large
        # numbers make small, and a lookup instead of a count.
        self.size = int(self._connection.execute("SELECT count(*) FROM memories").fetchone()[0])
        words = " OR ".join(_fts_phrase(t) for t in dict.fromkeys(query_tokens))
        sql = _MATCHING.format(columns="m.rowid", where=self._where) + (
            f" ORDER BY bm25(terms) LIMIT {CANDIDATES}"
        )
        self._among = [row[0] for row in self._connection.execute(sql, [words, *self._params])]

    def _find(self, token: str) -> dict[int, int]:
        if self._among is not None:
            return self.postings_among(token, self._among)
        return self._read(token, "")

    def postings_among(self, token: str, documents: Sequence[int]) -> dict[int, int]:
        if token in self._postings:
            return self._postings[token]
        if not documents:
            return {}
        return self._read(token, f" AND m.rowid IN ({', '.join(str(int(d)) for d in documents)})")

    def _read(self, token: str, among: str) -> dict[int, int]:
        found: dict[int, int] = {}
        columns = "m.rowid, t.tokens, m.length, m.last_seen_us, m.access_count"
        sql = _MATCHING.format(columns=columns, where=self._where + among)
        for rowid, tokens, length, seen, uses in self._connection.execute(
            sql, [_fts_phrase(token), *self._params]
        ):
            tf = tokens.split(" ").count(token)  # FTS5 found the word: count it exactly
            if tf:
                found[rowid] = tf
                self._norms[rowid] = self._base_norm + self._norm_slope * length
                self.rows[rowid] = (seen, uses)
        return found

    def _norm(self, doc_id: int) -> float:
        return self._norms[doc_id]


EXHAUSTIVE_LIMIT = 5_000  # memories a search scores all of (the stores' caps total 3,700)
CANDIDATES = 400  # above it, the candidates FTS5's own BM25 picks for ours to score
_MATCHING = (
    "SELECT {columns} FROM terms AS t JOIN memories AS m ON m.rowid = t.rowid "
    "WHERE terms MATCH ? AND {where}"
)


def _fts_phrase(token: str) -> str:
    """Return a token as an FTS5 string: quoted, its quotes doubled."""
    return '"' + token.replace('"', '""') + '"'


def _live_filter(
    types: Iterable[MemoryType | str] | None, project: str | None, now: datetime
) -> tuple[str, list[object]]:
    """Return the SQL condition (and its parameters) a memory must meet to be returned."""
    kinds = [spec_for(t).type.value for t in types] if types else [s.type.value for s in STORES]
    states = sorted(state.value for state in SEARCHABLE_STATES)
    where = [
        f"m.type IN ({', '.join('?' * len(kinds))})",
        f"m.state IN ({', '.join('?' * len(states))})",
        "(m.expires_us IS NULL OR m.expires_us > ?)",
    ]
    params: list[object] = [*kinds, *states, int(now.timestamp() * 1_000_000)]
    if project is not None:
        # in_project: global, the same path, or the same folder name when either is bare
        where.append(
            "(m.project IS NULL OR m.project = ? OR "
            "((instr(m.project, '/') = 0 OR ?) AND m.project_name = ?))"
        )
        params += [project, int("/" not in project), os.path.basename(project)]
    return " AND ".join(where), params


def indexed_search(
    query: str,
    *,
    now: datetime,
    types: Iterable[MemoryType | str] | None = None,
    project: str | None = None,
    home: Path | None = None,
    limit: int = 10,
) -> list[tuple[dict[str, Any], ScoreParts]]:
    """Rank the live memories of the index against ``query``: (stored JSON, score parts).

    What :func:`rank` gives over :func:`candidates`, best first, the first ``limit``, with
    no store loaded.
    """
    query_tokens = search_tokens(query)
    if not query_tokens:
        return []
    connection = index.fresh(home if home is not None else memory_home())
    try:
        keywords = _IndexedKeywords(connection, *_live_filter(types, project, now))
        keywords.preselect(query_tokens)
        ranked = []
        for rowid, keyword in keywords.scores(query_tokens).items():
            seen_us, uses = keywords.rows[rowid]
            seen = now if seen_us is None else datetime.fromtimestamp(seen_us / 1e6, timezone.utc)
            ranked.append((rowid, _score(keyword, seen, uses, now), seen))
        ranked.sort(key=lambda item: (item[1].total, item[2]), reverse=True)
        top = ranked[: max(limit, 0)]
        docs = _docs(connection, [rowid for rowid, _, _ in top])
    finally:
        connection.close()
    return [(docs[rowid], parts) for rowid, parts, _ in top]


def _docs(connection: sqlite3.Connection, rowids: list[int]) -> dict[int, dict[str, Any]]:
    """Return the stored JSON of the memories ranked high enough to be handed back."""
    if not rowids:
        return {}
    marks = ", ".join("?" * len(rowids))
    sql = f"SELECT rowid, doc FROM docs WHERE rowid IN ({marks})"  # noqa: S608 - placeholders only
    return {rowid: json.loads(doc) for rowid, doc in connection.execute(sql, rowids)}
