"""Memories read back through the index, without pydantic (standard library only).

Every read of the product goes through here: ``search``, ``list``, ``show``, ``stats``,
``context``, the SessionStart context and the per-prompt recall. Each asks the index
(:mod:`artibot_memory.store.index`, kept in step with the stores, caught up by fingerprint
when a store changed behind its back) and gets :class:`~artibot_memory.store.record.Record`
objects: the stored JSON, read field by field. No store is loaded whole and nothing is
validated: pydantic stays on the write path.

Ranking is :mod:`artibot_memory.recall.scoring`'s arithmetic; :func:`rank` scores any
memories in memory (a context ordered by a query, the stores when SQLite has no FTS5) and
:func:`ranked` the index's, with the same scores for the same memories.

>>> import tempfile
>>> from datetime import datetime, timezone
>>> ranked("anything", now=datetime.now(timezone.utc), home=tempfile.mkdtemp())
[]
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from artibot_memory.core.paths import memory_home
from artibot_memory.recall import vectors
from artibot_memory.recall.scoring import (
    MIN_DOC_COVERAGE,
    B,
    KeywordIndex,
    ScoreParts,
    frequency,
    recency,
    relevance,
)
from artibot_memory.store import index
from artibot_memory.store.layers import EPISODIC, SEMANTIC, STORE
from artibot_memory.store.record import Record
from artibot_memory.store.table import STORES, MemoryType, State, spec_for
from artibot_memory.text.tokens import memory_tokens, search_tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from pathlib import Path
    from typing import Any

    from artibot_memory.core.errors import StoreError
    from artibot_memory.store.record import Readable

    Home = str | os.PathLike[str] | None

SEARCHABLE_STATES = frozenset({State.ACTIVE, State.RESOLVED, State.STALE})
EXPIRING_WINDOW = timedelta(days=7)  # what stats counts as expiring soon
DEFAULT_CONFIDENCE = 0.7  # a stored entry without one: Memory's default (store/record.py)
EXHAUSTIVE_LIMIT = 5_000  # memories a search scores all of (the stores' caps total 3,700)
CANDIDATES = 400  # above it, the candidates FTS5's own BM25 picks for ours to score
WIDE = 4 * CANDIDATES  # how deep FTS5 ranks before the live ones are picked from its best


@dataclass(frozen=True)
class Filters:
    """What a search or a context keeps, besides its types and project (``--state`` …).

    ``states``: None keeps today's searchable ones (:data:`SEARCHABLE_STATES`);
    ``scopes``: None keeps every scope; ``since`` and ``until`` bound when a memory was
    last seen, both included. A layer line (a daily bullet, a MEMORY.md line) has a date
    and a project but no state, scope or confidence: :attr:`by_metadata` filters leave
    every layer line out.

    >>> Filters(min_confidence=0.8).by_metadata, Filters().by_metadata
    (True, False)
    """

    states: frozenset[str] | None = None
    scopes: frozenset[str] | None = None
    min_confidence: float | None = None
    since: datetime | None = None
    until: datetime | None = None

    @property
    def by_metadata(self) -> bool:
        """Whether a filter asks for what only a memory has (state, scope, confidence)."""
        return self.states is not None or self.scopes is not None or self.min_confidence is not None

    def state_values(self) -> list[str]:
        """Return the states kept, sorted."""
        return sorted(self.states or {state.value for state in SEARCHABLE_STATES})

    def keeps(self, memory: Readable) -> bool:
        """Tell whether a memory in hand passes (the stores' fallback; the index uses SQL)."""
        seen = memory.last_seen
        return (
            memory.state.value in self.state_values()
            and (self.scopes is None or memory.scope.value in self.scopes)
            and (self.min_confidence is None or memory.confidence >= self.min_confidence)
            and (self.since is None or seen >= self.since)
            and (self.until is None or seen <= self.until)
        )

    def keeps_date(self, moment: datetime) -> bool:
        """Tell whether a layer line of this date passes ``since`` and ``until``."""
        return (self.since is None or moment >= self.since) and (
            self.until is None or moment <= self.until
        )

    def sql(self) -> tuple[str, list[object]]:
        """Return the condition on ``memories AS m`` (and its parameters), states included."""
        states = self.state_values()
        where = f"m.state IN ({', '.join('?' * len(states))})"
        params: list[object] = [*states]
        if self.scopes is not None:
            scopes = sorted(self.scopes)
            where += f" AND coalesce(m.scope, 'global') IN ({', '.join('?' * len(scopes))})"
            params += scopes
        if self.min_confidence is not None:
            where += f" AND coalesce(m.confidence, {DEFAULT_CONFIDENCE}) >= ?"
            params.append(self.min_confidence)
        for bound, operator in ((self.since, ">="), (self.until, "<=")):
            if bound is not None:
                where += f" AND coalesce(m.last_seen_us, m.created_us) {operator} ?"
                params.append(_micros(bound))
        return where, params


NO_FILTERS = Filters()


@dataclass(frozen=True)
class Hit:
    """A memory that matched, with the parts of its score.

    ``also``: the layer lines that are this memory too (its managed MEMORY.md line, a
    daily bullet sourced by its id), noted here rather than returned a second time.
    """

    memory: Readable
    parts: ScoreParts
    also: tuple[str, ...] = ()

    @property
    def score(self) -> float:
        """The relevance, 0..1."""
        return self.parts.total

    @property
    def source(self) -> str:
        """Where the hit comes from: a memory's id."""
        return self.memory.id

    @property
    def layer(self) -> str:
        """The layer it was found in: ``store``."""
        return STORE


@dataclass(frozen=True)
class LayerLine:
    """One line of a daily note or of MEMORY.md, as the index holds it."""

    source: str  # daily/2026-11-30.md:14, MEMORY.md:22
    layer: str  # episodic or semantic
    path: str
    line: int
    date: datetime
    project: str | None  # a display name; None: global
    section: str | None
    text: str
    marker: str | None  # a managed MEMORY.md line's memory id
    ref: str | None  # a daily bullet's memory id source


@dataclass(frozen=True)
class LayerHit:
    """A layer line that matched, with the parts of its score (no uses: frequency 0)."""

    line: LayerLine
    parts: ScoreParts

    @property
    def score(self) -> float:
        """The relevance, 0..1."""
        return self.parts.total

    @property
    def source(self) -> str:
        """Where the hit comes from: ``path:line``."""
        return self.line.source

    @property
    def layer(self) -> str:
        """The layer it was found in: ``episodic`` or ``semantic``."""
        return self.line.layer


def document_tokens(memory: Readable) -> list[str]:
    """Return the words a memory is found by: its text, key and (weighted) tags."""
    return memory_tokens(memory.text, memory.key, memory.tags)


def rank(query: str, memories: Sequence[Readable], now: datetime) -> list[Hit]:
    """Score ``memories`` against ``query``; return only matches, best first."""
    query_tokens = search_tokens(query)
    if not query_tokens or not memories:
        return []
    keywords = KeywordIndex([document_tokens(m) for m in memories])
    hits = [
        Hit(memories[i], score_parts(keyword, memories[i].last_seen, memories[i].access_count, now))
        for i, keyword in keywords.scores(query_tokens).items()
    ]
    return sorted(hits, key=lambda hit: (hit.score, hit.memory.last_seen), reverse=True)


def score_parts(keyword: float, last_seen: datetime, uses: int, now: datetime) -> ScoreParts:
    """Return a matching memory's score: its keyword part, then recency and use."""
    fresh = recency(last_seen, now)
    used = frequency(uses)
    return ScoreParts(keyword, fresh, used, relevance(keyword, fresh, used))


# ---- through the index


def ranked(
    query: str,
    *,
    now: datetime,
    types: Iterable[MemoryType | str] | None = None,
    project: str | None = None,
    home: Home = None,
    limit: int = 10,
    held_only: bool = False,
    filters: Filters = NO_FILTERS,
) -> list[Hit]:
    """Rank the live memories of the index against ``query``; the first ``limit``, best first.

    What :func:`rank` gives over :func:`live`, with no store loaded. Raises
    ``sqlite3.Error`` where the index cannot be used (an SQLite without FTS5).
    ``held_only``: leave out every query word no such memory holds (a prompt's chatter),
    not only numbers; the caller then judges how much of its text matched. ``filters``
    are applied in the index's query, before the limit.
    """
    return ranked_with_weights(
        query,
        now=now,
        types=types,
        project=project,
        home=home,
        limit=limit,
        held_only=held_only,
        filters=filters,
    )[0]


def ranked_with_weights(
    query: str,
    *,
    now: datetime,
    types: Iterable[MemoryType | str] | None = None,
    project: str | None = None,
    home: Home = None,
    limit: int = 10,
    held_only: bool = False,
    filters: Filters = NO_FILTERS,
) -> tuple[list[Hit], dict[str, float]]:
    """Return :func:`ranked`'s hits and how rare each query word is among the live memories.

    The weights (inverse document frequency, the BM25 part's own) of the query's words some
    live memory holds: per-prompt recall judges how much of a prompt a memory covers by
    them, so a rare shared word counts for more than a common one.
    """
    query_tokens = search_tokens(query)
    if not query_tokens:
        return [], {}
    folder = _home(home)
    connection = index.fresh(folder)
    try:
        live = live_filter(types, project, now, filters)
        keywords = _IndexedKeywords(connection, *live, held_only=held_only)
        keywords.preselect(query_tokens)
        found = keywords.scores(query_tokens)
        weights = {t: keywords.idf(t) for t in set(query_tokens) if keywords.holders(t)}
        # The optional vector layer: blends semantic similarity into the keyword part and
        # may add near neighbours; keyword-only without the extra.
        found = vectors.fuse(connection, folder, query, found, keywords.rows, *live)
        scored = []
        for rowid, keyword in found.items():
            seen_us, uses = keywords.rows[rowid]
            seen = now if seen_us is None else _moment(seen_us)
            scored.append((rowid, score_parts(keyword, seen, uses, now), seen))
        scored.sort(key=lambda item: (item[1].total, item[2]), reverse=True)
        top = scored[: max(limit, 0)]
        docs = _docs(connection, [rowid for rowid, _, _ in top])
    finally:
        connection.close()
    kept = [(_record(docs[rowid]), parts) for rowid, parts, _ in top]
    return [Hit(record, parts) for record, parts in kept if record is not None], weights


def live(
    *,
    now: datetime,
    types: Iterable[MemoryType | str] | None = None,
    project: str | None = None,
    home: Home = None,
    on_unusable: Callable[[StoreError], None] | None = None,
    filters: Filters = NO_FILTERS,
) -> list[Record]:
    """Return the memories a search may return: searchable, unexpired, seen from ``project``.

    ``on_unusable``: see :func:`artibot_memory.store.index.fresh`; ``filters``: what
    else a memory must pass (:class:`Filters`).
    """
    where, params = live_filter(types, project, now, filters)
    return _select(home, where, params, on_unusable)


def naming(
    needle: str, *, types: Iterable[MemoryType | str] | None = None, home: Home = None
) -> list[dict[str, Any]]:
    """Return the stored JSON of every memory whose document holds ``needle``, newest first.

    A session's id names what the session touched (its preferences and decisions as their
    source, the errors it saw again in their evidence): the SessionEnd worker reads these
    few through the index instead of validating every store. The caller checks each.
    """
    where, params = _kinds(types)
    pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    connection = index.fresh(_home(home))
    try:
        rows = connection.execute(
            "SELECT d.doc FROM memories AS m JOIN docs AS d ON d.rowid = m.rowid "  # noqa: S608 - our own condition, values bound
            f"WHERE {where} AND d.doc LIKE ? ESCAPE '\\' ORDER BY m.last_seen_us DESC, m.rowid",
            [*params, pattern],
        ).fetchall()
    finally:
        connection.close()
    return [json.loads(doc) for (doc,) in rows]


def listing(
    *,
    now: datetime,
    types: Iterable[MemoryType | str] | None = None,
    project: str | None = None,
    home: Home = None,
    include_expired: bool = False,
) -> list[Record]:
    """Return the stored memories of every state, newest first (what ``list`` shows)."""
    where, params = _kinds(types)
    if not include_expired:
        where, params = f"{where} AND {_UNEXPIRED}", [*params, _micros(now)]
    if project is not None:
        where, params = f"{where} AND {_SEEN_FROM}", [*params, *_seen_from(project)]
    return _select(home, where, params)


def by_id(memory_id: str, *, home: Home = None) -> Record | None:
    """Return the memory with this id, whatever its state or age; None when none has it."""
    return next(iter(_select(home, "m.id = ?", [memory_id])), None)


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


def store_stats(*, now: datetime, home: Home = None) -> list[StoreStats]:
    """Return one row per store; ``expiring_soon`` counts entries due within 7 days."""
    folder = _home(home)
    soon = _micros(now + EXPIRING_WINDOW)
    connection = index.fresh(folder)
    try:
        figures = {
            store: (count, first, last, expiring)
            for store, count, first, last, expiring in connection.execute(
                "SELECT store, count(*), min(created_us), max(created_us), "
                "sum(expires_us IS NOT NULL AND expires_us <= ?) FROM memories GROUP BY store",
                (soon,),
            )
        }
    finally:
        connection.close()
    rows = []
    for spec in STORES:
        count, first, last, expiring = figures.get(spec.filename, (0, None, None, 0))
        path = os.path.join(folder, spec.filename)
        rows.append(
            StoreStats(
                type=spec.type.value,
                file=spec.filename,
                entries=int(count),
                bytes=os.path.getsize(path) if os.path.isfile(path) else 0,
                oldest=None if first is None else _moment(first),
                newest=None if last is None else _moment(last),
                expiring_soon=int(expiring or 0),
            )
        )
    return rows


# ---- the Markdown layers through the index

# A managed MEMORY.md line is dated by its memory's last sighting, not by the file's mtime
# (the file is rewritten whenever any line changes); the join finds that memory by marker.
_LINE_DATE = "coalesce(m.last_seen_us, l.date_us)"
_LAYER_COLUMNS = (
    f"l.source, l.layer, l.path, l.line, {_LINE_DATE}, l.project, l.section, l.text, l.marker,"
    " l.ref"
)
_LAYER_FROM = "layer_lines AS l LEFT JOIN memories AS m ON m.id = l.marker"


def ranked_layers(
    query: str,
    *,
    now: datetime,
    layers: Iterable[str] = (EPISODIC, SEMANTIC),
    project: str | None = None,
    home: Home = None,
    limit: int = 10,
    filters: Filters = NO_FILTERS,
) -> list[LayerHit]:
    """Rank the daily notes' and MEMORY.md's lines against ``query``, best first.

    The same tokens, BM25 and relevance floor as the memories (:func:`ranked`), over the
    layers' own lines; managed MEMORY.md lines are left out (they are memories). The
    lines of ``project`` (a path or a name: its folder name counts) and global ones,
    dated within ``filters``' since and until; none at all when ``filters`` ask for a
    state, a scope or a confidence, which a line has not.
    """
    query_tokens = search_tokens(query)
    kinds = [layer for layer in layers if layer in {EPISODIC, SEMANTIC}]
    if not query_tokens or not kinds or filters.by_metadata:
        return []
    where, params = _layer_filter(kinds, project, filters)
    connection = layer_connection(home)
    try:
        keywords = _LayerKeywords(connection, where, params)
        found = keywords.scores(query_tokens)
        rows = _layer_rows(connection, list(found))
    finally:
        connection.close()
    hits = [
        LayerHit(rows[rowid], score_parts(keyword, rows[rowid].date, 0, now))
        for rowid, keyword in found.items()
    ]
    hits.sort(key=lambda hit: (hit.score, hit.line.date), reverse=True)
    return hits[: max(limit, 0)]


def layer_lines(
    *,
    layers: Iterable[str] = (EPISODIC, SEMANTIC),
    home: Home = None,
    since: datetime | None = None,
    on_unusable: Callable[[StoreError], None] | None = None,
) -> list[LayerLine]:
    """Return every line of these layers (managed ones too), newest file first, in file order.

    ``since``: only lines dated at or after it (daily notes: their day and time);
    ``on_unusable``: see :func:`artibot_memory.store.index.fresh`.
    """
    kinds = list(layers)
    where = f"l.layer IN ({', '.join('?' * len(kinds))})"
    params: list[object] = list(kinds)
    if since is not None:
        where, params = f"{where} AND {_LINE_DATE} >= ?", [*params, _micros(since)]
    connection = layer_connection(home, on_unusable)
    try:
        found = connection.execute(
            f"SELECT {_LAYER_COLUMNS} FROM {_LAYER_FROM} WHERE {where} "  # noqa: S608 - our own condition, values bound
            "ORDER BY l.path DESC, l.line",
            params,
        ).fetchall()
    finally:
        connection.close()
    return [_layer_line(row) for row in found]


def noted_in(ids: Iterable[str], *, home: Home = None) -> dict[str, list[str]]:
    """Return, per memory id, the layer lines that are that memory (managed or sourced by it)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    connection = layer_connection(home)
    try:
        rows = connection.execute(
            "SELECT coalesce(marker, ref), source FROM layer_lines "  # noqa: S608 - placeholders only
            f"WHERE marker IN ({marks}) OR ref IN ({marks}) ORDER BY path, line",
            [*wanted, *wanted],
        ).fetchall()
    finally:
        connection.close()
    found: dict[str, list[str]] = {}
    for memory_id, source in rows:
        found.setdefault(memory_id, []).append(source)
    return found


def layer_connection(
    home: Home = None, on_unusable: Callable[[StoreError], None] | None = None
) -> sqlite3.Connection:
    """Return the index in step with the stores and with the layer files on disk."""
    folder = _home(home)
    connection = index.fresh(folder, on_unusable)
    try:
        index.catch_up_layers(connection, folder)
    except BaseException:
        connection.close()
        raise
    return connection


def _layer_filter(
    kinds: list[str], project: str | None, filters: Filters = NO_FILTERS
) -> tuple[str, list[object]]:
    where = f"l.marker IS NULL AND l.layer IN ({', '.join('?' * len(kinds))})"
    params: list[object] = list(kinds)
    if project is not None:
        where += " AND (l.project IS NULL OR l.project = ?)"
        params.append(os.path.basename(project.rstrip("/")) or project)
    for bound, operator in ((filters.since, ">="), (filters.until, "<=")):
        if bound is not None:
            where += f" AND l.date_us {operator} ?"
            params.append(_micros(bound))
    return where, params


def _layer_rows(connection: sqlite3.Connection, rowids: list[int]) -> dict[int, LayerLine]:
    if not rowids:
        return {}
    marks = ", ".join(str(int(rowid)) for rowid in rowids)
    sql = f"SELECT l.rowid, {_LAYER_COLUMNS} FROM {_LAYER_FROM} WHERE l.rowid IN ({marks})"  # noqa: S608 - integers only
    return {row[0]: _layer_line(row[1:]) for row in connection.execute(sql)}


def _layer_line(row: Sequence[Any]) -> LayerLine:
    source, layer, path, line, date_us, project, section, text, marker, ref = row
    return LayerLine(
        source, layer, path, line, _moment(date_us), project, section, text, marker, ref
    )


class _LayerKeywords(KeywordIndex):
    """BM25 over the layers' lines: :class:`KeywordIndex`'s arithmetic, FTS5's postings.

    The layers are small (a day's note, MEMORY.md: tens of lines each, kept 90 days), so
    every line holding a query word is scored, as the memories are below the large limit.
    """

    def __init__(self, connection: sqlite3.Connection, where: str, params: list[object]) -> None:
        super().__init__([])
        count, total = connection.execute(
            f"SELECT count(*), total(l.length) FROM layer_lines AS l WHERE {where}",  # noqa: S608 - our own condition, values bound
            params,
        ).fetchone()
        self.size = int(count)
        average = (float(total) / self.size or 1.0) if self.size else 1.0
        self._base_norm, self._norm_slope = self._k1 * (1 - B), self._k1 * B / average
        self._connection, self._where, self._params = connection, where, params
        self._norms: dict[int, float] = {}

    def _find(self, token: str) -> dict[int, int]:
        found: dict[int, int] = {}
        for rowid, tokens, length in self._connection.execute(
            "SELECT l.rowid, t.tokens, l.length FROM layer_terms AS t "  # noqa: S608 - our own condition, values bound
            "JOIN layer_lines AS l ON l.rowid = t.rowid "
            f"WHERE layer_terms MATCH ? AND {self._where}",
            [_fts_phrase(token), *self._params],
        ):
            tf = tokens.split(" ").count(token)
            if tf:
                found[rowid] = tf
                self._norms[rowid] = self._base_norm + self._norm_slope * length
        return found

    def _norm(self, doc_id: int) -> float:
        return self._norms[doc_id]


class _IndexedKeywords(KeywordIndex):
    """BM25 over the live memories of the index, the postings of a term read from FTS5.

    The arithmetic of :class:`KeywordIndex` over the same documents (the memories a search
    may return), so the scores are the same; only the query's own terms are read: how many
    memories hold each (counted by SQLite), and the postings of the rare ones in full, of
    the common ones only among the memories the rare ones found.
    """

    def __init__(
        self,
        connection: sqlite3.Connection,
        where: str,
        params: list[object],
        *,
        held_only: bool = False,
    ) -> None:
        super().__init__([], held_only=held_only)
        indexed, indexed_length = connection.execute("SELECT count, length FROM totals").fetchone()
        # Above the limit the whole index's size and average length stand in for the live
        # memories' (kept in one row by triggers: no scan); at or below it they are counted.
        self._large = int(indexed) > EXHAUSTIVE_LIMIT
        if self._large:
            count, total = indexed, indexed_length
        else:
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
        self._among: dict[int, list[str]] | None = None  # the candidates' tokens, once chosen
        self.rows: dict[int, tuple[int | None, int]] = {}  # rowid: (last seen, uses)

    def holders(self, token: str) -> int:
        found = self._holders.get(token)
        if found is None:
            found = self._holders[token] = self._count_holders(token)
        return found

    def _count_holders(self, token: str) -> int:
        if self._large:  # a large index: every memory's word, from the vocabulary
            row = self._connection.execute(
                "SELECT doc FROM terms_vocab WHERE term = ?", (token,)
            ).fetchone()
            return int(row[0]) if row else 0
        sql = _MATCHING.format(columns="count(*)", where=self._where)
        row = self._connection.execute(sql, [_fts_phrase(token), *self._params]).fetchone()
        return int(row[0])

    def preselect(self, query_tokens: Sequence[str]) -> None:
        """Above :data:`EXHAUSTIVE_LIMIT` memories, score only FTS5's best candidates.

        FTS5's own BM25 (in C) picks the :data:`CANDIDATES` best of the live memories
        holding an *opening* term of the query: one that can bring a memory into the
        results. The terms our scoring adds only to memories already found (the common
        ones, holding less than ``MIN_DOC_COVERAGE`` of the query's idf mass between them,
        see :meth:`KeywordIndex.scores`) are left out of that match, since their long
        postings are most of its cost and they cannot make a hit. Ours then scores every
        query term over exactly those candidates, whose tokens are read once. Below the
        limit (every store at its real caps) every memory holding a query word is scored,
        as a search over the stores did.
        """
        if not self._large:
            return
        # Document frequencies then come from FTS5's vocabulary, over every memory indexed
        # (not only the live ones of these types and project): an approximation that large
        # numbers make small, and a lookup instead of a count.
        terms = self._weighted_terms(query_tokens)
        reference = sum(weight for _, weight in terms)
        opening, unseen = [], reference
        for token, weight in terms:  # rarest first, as scores() adds them
            if unseen >= MIN_DOC_COVERAGE * reference:
                opening.append(token)
            unseen -= weight
        self._among = {}
        if not opening:
            return
        words = " OR ".join(_fts_phrase(t) for t in opening)
        chosen = self._best_live(words)
        if not chosen:
            return
        marks = ", ".join(str(int(rowid)) for rowid in chosen)
        for rowid, tokens, length, seen, uses in self._connection.execute(
            "SELECT m.rowid, t.tokens, m.length, m.last_seen_us, m.access_count "  # noqa: S608 - integers only
            f"FROM memories AS m JOIN terms AS t ON t.rowid = m.rowid WHERE m.rowid IN ({marks})"
        ):
            self._among[rowid] = tokens.split(" ")
            self._norms[rowid] = self._base_norm + self._norm_slope * length
            self.rows[rowid] = (seen, uses)

    def _best_live(self, words: str) -> list[int]:
        """Return the :data:`CANDIDATES` live memories FTS5's BM25 ranks best for ``words``.

        FTS5 ranks alone first (joining every match to ``memories`` to filter it costs as
        much again), :data:`WIDE` deep, and the live ones of those are kept in its order:
        the same memories as ranking only the live ones, whenever enough of them are live.
        When not (a narrow filter: one project, one type), the live ones are ranked.
        """
        ranked = [
            row[0]
            for row in self._connection.execute(
                _RANKED.format(limit=WIDE),
                (words,),
            )
        ]
        if not ranked:
            return []
        marks = ", ".join(str(int(rowid)) for rowid in ranked)
        live = {
            row[0]
            for row in self._connection.execute(
                f"SELECT m.rowid FROM memories AS m WHERE m.rowid IN ({marks}) AND {self._where}",  # noqa: S608 - our own condition, values bound
                self._params,
            )
        }
        if len(live) >= CANDIDATES or len(ranked) < WIDE:  # every match was ranked
            return [rowid for rowid in ranked if rowid in live][:CANDIDATES]
        sql = _MATCHING.format(columns="m.rowid", where=self._where) + (
            f" ORDER BY bm25(terms) LIMIT {CANDIDATES}"
        )
        return [row[0] for row in self._connection.execute(sql, [words, *self._params])]

    def _find(self, token: str) -> dict[int, int]:
        if self._among is not None:
            return self._counted(token, self._among)
        return self._read(token, "")

    def postings_among(self, token: str, documents: Sequence[int]) -> dict[int, int]:
        if token in self._postings:
            return self._postings[token]
        if not documents:
            return {}
        if self._among is not None:  # the candidates' tokens are at hand: count them there
            among = self._among
            return self._counted(token, {d: among[d] for d in documents if d in among})
        return self._read(token, f" AND m.rowid IN ({', '.join(str(int(d)) for d in documents)})")

    @staticmethod
    def _counted(token: str, documents: dict[int, list[str]]) -> dict[int, int]:
        found: dict[int, int] = {}
        for rowid, tokens in documents.items():
            tf = tokens.count(token)
            if tf:
                found[rowid] = tf
        return found

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


_MATCHING = (
    "SELECT {columns} FROM terms AS t JOIN memories AS m ON m.rowid = t.rowid "
    "WHERE terms MATCH ? AND {where}"
)
_RANKED = "SELECT rowid FROM terms WHERE terms MATCH ? ORDER BY bm25(terms) LIMIT {limit}"
_UNEXPIRED = "(m.expires_us IS NULL OR m.expires_us > ?)"
# in_project: global, the same path, or the same folder name when either is bare
_SEEN_FROM = (
    "(m.project IS NULL OR m.project = ? OR "
    "((instr(m.project, '/') = 0 OR ?) AND m.project_name = ?))"
)


def _fts_phrase(token: str) -> str:
    """Return a token as an FTS5 string: quoted, its quotes doubled."""
    return '"' + token.replace('"', '""') + '"'


def live_filter(
    types: Iterable[MemoryType | str] | None,
    project: str | None,
    now: datetime,
    filters: Filters = NO_FILTERS,
) -> tuple[str, list[object]]:
    """Return the SQL condition (and its parameters) a memory must meet to be returned."""
    where, params = _kinds(types)
    kept, kept_params = filters.sql()
    where += f" AND {kept} AND {_UNEXPIRED}"
    params += [*kept_params, _micros(now)]
    if project is not None:
        where += f" AND {_SEEN_FROM}"
        params += _seen_from(project)
    return where, params


def _kinds(types: Iterable[MemoryType | str] | None) -> tuple[str, list[object]]:
    kinds = [spec_for(t).type.value for t in types] if types else [s.type.value for s in STORES]
    return f"m.type IN ({', '.join('?' * len(kinds))})", list(kinds)


def _seen_from(project: str) -> list[object]:
    return [project, int("/" not in project), os.path.basename(project)]


def _select(
    home: Home,
    where: str,
    params: list[object],
    on_unusable: Callable[[StoreError], None] | None = None,
) -> list[Record]:
    """Return the memories meeting ``where``, newest first."""
    connection = index.fresh(_home(home), on_unusable)
    try:
        rows = connection.execute(
            "SELECT d.doc FROM memories AS m JOIN docs AS d ON d.rowid = m.rowid "  # noqa: S608 - our own condition, values bound
            f"WHERE {where} ORDER BY m.last_seen_us DESC, m.rowid",
            params,
        ).fetchall()
    finally:
        connection.close()
    return [r for r in (_record(json.loads(doc)) for (doc,) in rows) if r is not None]


def _record(doc: dict[str, Any]) -> Record | None:
    """Return a stored entry as a Record; None for one whose type names no store."""
    try:
        return Record(doc)
    except (ValueError, KeyError):  # a hand edit: doctor says what is wrong with it
        return None


def _docs(connection: sqlite3.Connection, rowids: list[int]) -> dict[int, dict[str, Any]]:
    """Return the stored JSON of the memories ranked high enough to be handed back."""
    if not rowids:
        return {}
    marks = ", ".join("?" * len(rowids))
    sql = f"SELECT rowid, doc FROM docs WHERE rowid IN ({marks})"  # noqa: S608 - placeholders only
    return {rowid: json.loads(doc) for rowid, doc in connection.execute(sql, rowids)}


def _home(home: Home) -> str | os.PathLike[str] | Path:
    return home if home is not None else memory_home()


def _micros(moment: datetime) -> int:
    return int(moment.timestamp() * 1_000_000)


def _moment(micros: int) -> datetime:
    return datetime.fromtimestamp(micros / 1e6, timezone.utc)
