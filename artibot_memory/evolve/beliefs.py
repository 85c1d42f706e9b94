"""Beliefs and reflect (docs/EVOLVE.md §1–2): how sure, how fresh, from what really happened.

A belief is a memory of one of four kinds (:func:`kind_of`): a preference, a decision or a
lesson (contexts so tagged), or a fix pattern (an error with a fix). Its evidence and
counter-evidence are counted in distinct sessions (:func:`tally`): its own, plus, against
it, the sessions of a memory that superseded it and of the other side of an open conflict
from the day they met. Nothing here writes; :mod:`artibot_memory.api.evolve` does.

Reflect's formula (:func:`score`)::

    recency    = 1.0 while the newest evidence is under 30 days old, then linearly down to
                 0 at stale_days: max(0, (stale_days - age) / (stale_days - 30))
    volume     = min(1, sources / 5)
    penalty    = counter / (sources + counter)
    confidence = clip(recency * volume - penalty, 0, 1)

and its freshness (:func:`freshness`), the first that holds: contradicted (more sessions
against than for), stale (no evidence for stale_days), weakening (fell by 0.1 or more, or new
counter-evidence), strengthening (rose by 0.1 or more), else stable.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from artibot_memory.core import clock
from artibot_memory.store.evidence import sessions
from artibot_memory.store.model import Evidence, Memory, MemoryType, State
from artibot_memory.text.trim import clip

PREFERENCE, DECISION, LESSON, FIX = "preference", "decision", "lesson", "fix"
KINDS = (PREFERENCE, DECISION, LESSON, FIX)
STABLE, STRENGTHENING, WEAKENING, STALE, CONTRADICTED = FRESHNESS = (
    "stable",
    "strengthening",
    "weakening",
    "stale",
    "contradicted",
)
FIELD = "belief"  # details[FIELD]: what reflect last concluded
FRESH_DAYS = 30  # evidence younger than this is fully recent
VOLUME_SOURCES = 5  # sources at which volume reaches 1
TREND = 0.1  # a move of this much is a trend (strengthening, weakening)
WORTH_WRITING = 0.05  # a smaller move, freshness unchanged, is not written
REFLECT_EVERY = timedelta(days=7)  # a belief reflected more recently is skipped
ARCHIVE_AFTER = 2  # no evidence for this many times stale_days: an archive candidate
ARCHIVE = "archive_candidate"  # details[FIELD][ARCHIVE]: when it became one
DEFAULT_CONFIDENCE = 0.5  # what a stored belief missing its confidence is read as
LABEL_CHARS = 60
SECONDS = "seconds"  # a belief record's times: UTC, whole seconds, ``Z``
MET_MARGIN = timedelta(minutes=5)  # the statement that made a conflict is seen as it is found
LIVE = (State.ACTIVE, State.PENDING, State.STALE, State.SUPERSEDED, State.RESOLVED)


def kind_of(memory: Memory) -> str | None:
    """Return the belief kind of ``memory``, or None when it is not a belief.

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 12, 1, tzinfo=timezone.utc)
    >>> ctx = Memory(id="ctx-1", type="context", text="Postgres", tags=["decision"],
    ...              created_at=t, updated_at=t, last_seen=t)
    >>> kind_of(ctx), kind_of(ctx.model_copy(update={"tags": []}))
    ('decision', None)
    """
    if memory.type is MemoryType.PREFERENCE:
        return PREFERENCE
    if memory.type is MemoryType.CONTEXT:
        return DECISION if DECISION in memory.tags else LESSON if LESSON in memory.tags else None
    if memory.type is MemoryType.ERROR and isinstance(memory.details.get("fix"), dict):
        return FIX
    return None


# ---- evidence, counted


@dataclass(frozen=True)
class Tally:
    """A belief's evidence: distinct sessions for and against, and the newest sighting for it."""

    sources: int
    counter: int
    newest: datetime | None


class Pool:
    """Every memory of the home by id, and who superseded whom: what a belief is weighed against."""

    def __init__(self, memories: Iterable[Memory]) -> None:
        self.by_id = {memory.id: memory for memory in memories}
        self.successors: dict[str, list[Memory]] = {}
        for memory in self.by_id.values():
            old = memory.details.get("supersedes")
            if isinstance(old, str):
                self.successors.setdefault(old, []).append(memory)


def tally(memory: Memory, pool: Pool) -> Tally:
    """Count ``memory``'s evidence and counter-evidence (against: see :func:`_opposed_evidence`).

    A memory with no evidence at all (written before evidence was kept) counts its last
    sighting as one.
    """
    evidence = memory.evidence or [
        Evidence(at=memory.last_seen, session_id=memory.source.session_id)
    ]
    against = sessions(memory.counter_evidence) | sessions(_opposed_evidence(memory, pool))
    return Tally(len(sessions(evidence)), len(against), max(e.at for e in evidence))


def _opposed_evidence(memory: Memory, pool: Pool) -> list[Evidence]:
    """Return the evidence of what overturned ``memory``: its successor, a conflict's other side."""
    found: list[Evidence] = []
    if memory.state is State.SUPERSEDED:
        for other in pool.successors.get(memory.id, ()):
            found += other.evidence
    for conflict in _conflicts(memory):
        side = pool.by_id.get(str(conflict.get("with")))
        if side is None or not _holds_against(memory, conflict):
            continue
        met = clock.parse_time(conflict.get("found"))
        found += [e for e in side.evidence if met is None or e.at >= met - MET_MARGIN]
    return found


def _conflicts(memory: Memory) -> list[dict[str, object]]:
    held = memory.details.get("conflicts")
    return [c for c in held if isinstance(c, dict)] if isinstance(held, list) else []


def _holds_against(memory: Memory, conflict: Mapping[str, object]) -> bool:
    """Tell whether a conflict counts: an open one against both sides, a resolved one the loser."""
    if conflict.get("status") == "open":
        return True
    return memory.state is State.SUPERSEDED and conflict.get("resolution") != "both"


# ---- reflect's formula


def recency(age_days: float, stale_days: int) -> float:
    """Return 1.0 under 30 days, falling linearly to 0 at ``stale_days``.

    >>> recency(0, 90), recency(29.9, 90), recency(60, 90), recency(90, 90), recency(400, 90)
    (1.0, 1.0, 0.5, 0.0, 0.0)
    """
    if age_days < FRESH_DAYS:
        return 1.0
    return max(0.0, (stale_days - age_days) / max(1, stale_days - FRESH_DAYS))


def score(counted: Tally, now: datetime, stale_days: int) -> float:
    """Return reflect's confidence: clip(recency × volume − penalty, 0, 1), to 2 places.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 12, 1, tzinfo=timezone.utc)
    >>> score(Tally(5, 0, now), now, 90), score(Tally(2, 0, now), now, 90)
    (1.0, 0.4)
    >>> score(Tally(4, 1, now), now, 90), score(Tally(10, 10, now), now, 90)
    (0.6, 0.5)
    >>> score(Tally(8, 0, now - timedelta(days=60)), now, 90), score(Tally(1, 3, now), now, 90)
    (0.5, 0.0)
    """
    age = _age_days(counted.newest, now)
    volume = min(1.0, counted.sources / VOLUME_SOURCES)
    total = counted.sources + counted.counter
    penalty = counted.counter / total if total else 0.0
    return round(min(1.0, max(0.0, recency(age, stale_days) * volume - penalty)), 2)


def _age_days(newest: datetime | None, now: datetime) -> float:
    return math.inf if newest is None else max(0.0, (now - newest).total_seconds() / 86_400)


def freshness(  # noqa: PLR0917 - the state machine's inputs, each named
    old: float | None,
    new: float,
    counted: Tally,
    counter_before: int | None,
    now: datetime,
    stale_days: int,
) -> str:
    """Return the freshness after a reflection (``old`` None: the first, with no trend).

    The first that holds: contradicted, stale, weakening (fell by 0.1 or more, or more
    counter-evidence than at the last reflection), strengthening (rose by 0.1 or more);
    otherwise stable.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 12, 1, tzinfo=timezone.utc)
    >>> freshness(0.4, 0.6, Tally(3, 0, now), 0, now, 90)
    'strengthening'
    >>> freshness(0.6, 0.55, Tally(3, 1, now), 0, now, 90)  # a new session against it
    'weakening'
    >>> freshness(0.6, 0.55, Tally(3, 0, now), 0, now, 90)  # no trend
    'stable'
    >>> freshness(0.2, 0.0, Tally(2, 3, now), 3, now, 90)
    'contradicted'
    >>> freshness(None, 0.2, Tally(1, 0, now), None, now, 90)
    'stable'
    """
    if counted.counter > counted.sources:
        return CONTRADICTED
    if _age_days(counted.newest, now) >= stale_days:
        return STALE
    if old is None:
        return STABLE
    if new <= old - TREND + 1e-9 or counted.counter > (counter_before or 0):
        return WEAKENING
    if new >= old + TREND - 1e-9:
        return STRENGTHENING
    return STABLE


# ---- what reflect last concluded, on the memory


@dataclass
class Stored:
    """``details["belief"]`` read back, with what was wrong with it."""

    confidence: float | None = None
    freshness: str | None = None
    last_reflected: datetime | None = None
    counter: int | None = None
    top: datetime | None = None
    previous: float | None = None  # the confidence before the last written reflection
    previous_counter: int | None = None
    warnings: list[str] = field(default_factory=list)
    invalid: bool = False


def stored(memory: Memory) -> Stored:
    """Read ``details["belief"]``: a missing field defaulted with a warning, garbage invalid."""
    raw = memory.details.get(FIELD)
    if raw is None:
        return Stored()
    if not isinstance(raw, dict):
        return Stored(
            warnings=[f"{memory.id}: belief record is not an object — skipped"], invalid=True
        )
    found = Stored()
    value = raw.get("confidence")
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1:
        found.confidence = float(value)
    else:
        found.confidence = DEFAULT_CONFIDENCE
        what = "missing" if value is None else f"invalid ({value!r})"
        found.warnings.append(f"{memory.id}: belief confidence {what}, defaulted to 0.5 — review")
    value = raw.get("freshness")
    if value in FRESHNESS:
        found.freshness = str(value)
    elif value is not None:
        found.warnings.append(
            f"{memory.id}: belief freshness {value!r} unknown, read as none — review"
        )
    found.last_reflected = clock.parse_time(raw.get("last_reflected"))
    found.top = clock.parse_time(raw.get("top"))
    found.counter = _count(raw.get("counter"))
    found.previous_counter = _count(raw.get("previous_counter"))
    previous = raw.get("previous")
    found.previous = float(previous) if isinstance(previous, int | float) else None
    return found


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def baseline(before: Stored, now: datetime) -> tuple[float | None, int | None]:
    """Return what a trend is measured from: the last reflection's confidence and counter.

    A reflection again within the last one's 7 days (``--reflect-only``) measures from the
    one before it, as the last one did: run twice, it concludes the same, and writes nothing.
    """
    if before.last_reflected is None:
        return None, None
    if now - before.last_reflected < REFLECT_EVERY and before.previous is not None:
        return before.previous, before.previous_counter
    return before.confidence, before.counter


def label(memory: Memory) -> str:
    r"""Return the belief's text on one line, clipped to 60 characters (a label, not a copy).

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 12, 1, tzinfo=timezone.utc)
    >>> label(Memory(id="p", type="preference", text="Use pnpm,\nnot npm", created_at=t,
    ...              updated_at=t, last_seen=t))
    'Use pnpm, not npm'
    """
    return clip(" ".join(memory.text.split()), LABEL_CHARS, at=None)


# ---- one reflection


@dataclass(frozen=True)
class Reflection:
    """What reflecting one belief concluded: the move, the record to keep, the log lines.

    ``old`` is the confidence before (the memory's own at a first reflection); ``was`` the
    freshness before (None at a first one). ``changed`` says whether it is worth writing:
    the freshness changed or the confidence moved by 0.05 or more.
    """

    id: str
    kind: str
    old: float
    new: float
    was: str | None
    freshness: str
    counted: Tally
    changed: bool
    record: dict[str, object]
    events: tuple[tuple[str, str], ...]


def reflect(
    memory: Memory, pool: Pool, now: datetime, stale_days: int, before: Stored | None = None
) -> Reflection:
    """Reflect one belief at ``now`` (``pool``: every memory, for what stands against it).

    ``before`` is its record as :func:`stored` reads it, when the caller has read it already.
    """
    before = before if before is not None else stored(memory)
    counted = tally(memory, pool)
    new = score(counted, now, stale_days)
    first = before.last_reflected is None
    old = memory.confidence if first or before.confidence is None else before.confidence
    trend, counter_before = baseline(before, now)
    fresh = freshness(trend, new, counted, counter_before, now, stale_days)
    was = None if first else before.freshness
    changed = first or fresh != was or abs(new - old) >= WORTH_WRITING - 1e-9
    record = _record(memory, new, fresh, counted, now, stale_days)
    record.update(previous=trend, previous_counter=counter_before)
    events = _events(memory, was, (old, new, fresh), counted, record) if changed else []
    kind = kind_of(memory) or PREFERENCE
    return Reflection(
        memory.id, kind, old, new, was, fresh, counted, changed, record, tuple(events)
    )


def _record(  # noqa: PLR0917 - the record's parts, each named
    memory: Memory, new: float, fresh: str, counted: Tally, now: datetime, stale_days: int
) -> dict[str, object]:
    """Return ``details["belief"]`` after the reflection (its other fields, ``top``, kept)."""
    raw = memory.details.get(FIELD)
    record: dict[str, object] = dict(raw) if isinstance(raw, dict) else {}
    record.update(
        confidence=new,
        freshness=fresh,
        last_reflected=clock.utc_iso(now, SECONDS),
        sources=counted.sources,
        counter=counted.counter,
        newest=clock.utc_iso(counted.newest, SECONDS) if counted.newest else None,
    )
    if fresh == STALE and _age_days(counted.newest, now) >= ARCHIVE_AFTER * stale_days:
        record.setdefault(ARCHIVE, clock.utc_iso(now, SECONDS))
    else:
        record.pop(ARCHIVE, None)
    return record


def _events(
    memory: Memory,
    was: str | None,
    move: tuple[float, float, str],
    counted: Tally,
    record: Mapping[str, object],
) -> list[tuple[str, str]]:
    """Return the log lines of a reflection worth writing: REFLECT, and a state entered."""
    old, new, fresh = move
    events = [("REFLECT", f"{memory.id} conf {old:.2f}→{new:.2f} freshness={fresh}")]
    if fresh == STALE and was != STALE:
        since = counted.newest.date().isoformat() if counted.newest else "ever"
        events.append(("STALE", f"{memory.id} no evidence since {since}"))
    if fresh == CONTRADICTED and was != CONTRADICTED:
        against = f"{counted.counter} sessions against, {counted.sources} for"
        events.append(("CONTRADICT", f"{memory.id} {against}"))
    held = memory.details.get(FIELD)
    if ARCHIVE in record and not (isinstance(held, dict) and ARCHIVE in held):
        since = counted.newest.date().isoformat() if counted.newest else "ever"
        events.append(("ARCHIVE_CANDIDATE", f"{memory.id} no evidence since {since}"))
    return events


def due(before: Stored, now: datetime, *, forced: bool) -> bool:
    """Tell whether a belief (its record ``before``) is due a reflection: not in the last 7 days.

    ``forced`` (``--reflect-only``): always.
    """
    last = before.last_reflected
    return forced or last is None or now - last >= REFLECT_EVERY


def beliefs_of(memories: Iterable[Memory]) -> list[Memory]:
    """Every belief among ``memories`` (any state: what is stored was not forgotten)."""
    return [m for m in memories if m.state in LIVE and kind_of(m) is not None]
