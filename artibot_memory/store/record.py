"""A memory as the reads see it: the stored JSON, read without pydantic (standard library only).

The read verbs (``search``, ``list``, ``show``, ``stats``, ``context``) and the
SessionStart context read memories out of the index (:mod:`artibot_memory.store.index`),
where each is kept as the JSON its store holds. Validating that JSON with pydantic would
cost the import of pydantic (about 0.3 s) on every read; a :class:`Record` instead reads
the fields a reader asks for, when it asks, with the defaults of
:class:`artibot_memory.store.model.Memory` (a test holds the two to the same defaults).

:class:`Readable` is what the readers (rendering, ranking, the context) need of a memory;
a :class:`Record` and a validated ``Memory`` both are one, so one renderer serves the
reads and the writes.

>>> r = Record({"id": "pref-1", "type": "preference", "text": "Use pnpm",
...             "last_seen": "2026-11-30T08:00:00Z"})
>>> r.type, r.state.value, r.count, r.last_seen.day
(<MemoryType.PREFERENCE: 'preference'>, 'active', 1, 30)
"""

from __future__ import annotations

from artibot_memory.core import clock
from artibot_memory.store.table import MemoryType, Scope, State

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime
    from typing import Any, Protocol

    class Readable(Protocol):
        """The fields a reader of memories uses; a Record and a Memory both have them."""

        id: str
        type: MemoryType
        text: str
        key: str | None
        tags: list[str]
        project: str | None
        scope: Scope
        state: State
        confidence: float
        created_at: datetime
        last_seen: datetime
        expires_at: datetime | None
        count: int
        failures: int
        access_count: int
        resolution: str | None
        related: list[str]
        details: dict[str, Any]

        def is_expired(self, at: datetime) -> bool:
            """Tell whether the memory's TTL has run out at ``at``."""


# What a stored entry holds when a field is absent: Memory's defaults (tests/test_record.py).
DEFAULTS: dict[str, object] = {
    "key": None,
    "tags": [],
    "project": None,
    "scope": Scope.GLOBAL.value,
    "state": State.ACTIVE.value,
    "confidence": 0.7,
    "why": None,
    "source": {
        "channel": "api",
        "session_id": None,
        "path": None,
        "line": None,
        "command": None,
        "agent": None,
    },
    "related": [],
    "evidence": [],
    "counter_evidence": [],
    "last_verified": None,
    "expires_at": None,
    "count": 1,
    "failures": 0,
    "access_count": 0,
    "last_accessed": None,
    "signature": None,
    "resolution": None,
    "details": {},
}

# Every field a Memory has; any other name in a stored entry is an extra (``show`` lists it).
FIELDS = frozenset({"id", "type", "text", "created_at", "updated_at", "last_seen", *DEFAULTS})


class Record:
    """One stored memory: the fields of its JSON, read once, with Memory's defaults.

    Unknown values read as their defaults (a state this version does not know reads as
    active), but a type that names no store raises ``ValueError``: such an entry is not a
    memory of any store.
    """

    __slots__ = (
        "access_count",
        "confidence",
        "count",
        "created_at",
        "details",
        "doc",
        "expires_at",
        "failures",
        "id",
        "key",
        "last_accessed",
        "last_seen",
        "project",
        "related",
        "resolution",
        "scope",
        "state",
        "tags",
        "text",
        "type",
    )

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.doc = doc
        self.id = str(doc["id"])
        self.type = MemoryType(doc["type"])
        self.text = str(doc.get("text") or "")
        self.key = _str_or_none(doc.get("key"))
        tags = doc.get("tags")
        self.tags = [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []
        self.project = _str_or_none(doc.get("project"))
        self.scope = _known(Scope, doc.get("scope"), Scope.GLOBAL)
        self.state = _known(State, doc.get("state"), State.ACTIVE)
        self.confidence = _number(doc.get("confidence"), 0.7)
        self.created_at = _time(doc.get("created_at"))
        self.last_seen = _time(doc.get("last_seen") or doc.get("created_at"))
        self.expires_at = clock.parse_time(doc.get("expires_at"))
        self.last_accessed = clock.parse_time(doc.get("last_accessed"))
        self.count = int(_number(doc.get("count"), 1))
        self.failures = int(_number(doc.get("failures"), 0))
        self.access_count = int(_number(doc.get("access_count"), 0))
        self.resolution = _str_or_none(doc.get("resolution"))
        related = doc.get("related")
        listed = related if isinstance(related, list) else []
        self.related = [r for r in listed if isinstance(r, str)]
        details = doc.get("details")
        self.details: dict[str, Any] = details if isinstance(details, dict) else {}

    def __repr__(self) -> str:
        """Name the record by its id."""
        return f"Record({self.id!r})"

    def full(self) -> dict[str, Any]:
        """Return every field, the absent ones with their defaults (what ``show --json`` prints)."""
        return {**_copy(DEFAULTS), **self.doc}

    def is_expired(self, at: datetime) -> bool:
        """Tell whether the memory's TTL has run out at ``at`` (expiry instant included)."""
        return self.expires_at is not None and self.expires_at <= at


def full_record(memory: object) -> dict[str, Any]:
    """Return a memory as every read verb's ``--json`` and ``export`` give it: every field.

    A :class:`Record`'s stored JSON with the defaults of the fields it lacks, or a validated
    ``Memory`` dumped (where SQLite cannot serve the index); the same keys either way, so a
    script reads ``list``, ``search``, ``show`` and ``export`` with one schema.

    >>> sorted(full_record(Record({"id": "pref-1", "type": "preference", "text": "x"})))[:4]
    ['access_count', 'confidence', 'count', 'counter_evidence']
    """
    if isinstance(memory, Record):
        return memory.full()
    dump = getattr(memory, "model_dump", None)
    doc = dump(mode="json") if callable(dump) else {}
    return {**_copy(DEFAULTS), **doc}


def _known(kind: Any, value: object, default: Any) -> Any:
    """Return ``kind(value)``, or ``default`` for a value this version does not know."""
    try:
        return kind(value)
    except ValueError:
        return default


def _number(value: object, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return value


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _time(value: object) -> datetime:
    moment = clock.parse_time(value)
    if moment is None:  # the index keeps only entries with an id, a type and a text
        from datetime import datetime, timezone  # noqa: PLC0415 - see core.clock

        return datetime.fromtimestamp(0, timezone.utc)
    return moment


def _copy(defaults: dict[str, object]) -> dict[str, object]:
    return {k: (v.copy() if isinstance(v, (dict, list)) else v) for k, v in defaults.items()}


# What a memory is, as every reader asks it (the start's briefing, the per-prompt recall).

SESSION_TAG = "session-summary"
SESSION_KEY = "session:"


def is_summary(memory: Readable) -> bool:
    """Tell whether a memory is a session summary (its tag, its kind or its key).

    >>> is_summary(Record({"id": "ctx-1", "type": "context", "text": "x", "key": "session:a"}))
    True
    """
    return (
        SESSION_TAG in memory.tags
        or memory.details.get("kind") == SESSION_TAG
        or (memory.key or "").startswith(SESSION_KEY)
    )


def is_open(error: Readable) -> bool:
    """Tell whether an error's latest sighting is unresolved (no fix found after it).

    >>> is_open(Record({"id": "err-1", "type": "error", "text": "x"}))
    True
    """
    unresolved = error.details.get("unresolved")
    if not isinstance(unresolved, dict):
        return not error.resolution and error.state is not State.RESOLVED
    fix = error.details.get("fix")
    if not isinstance(fix, dict):
        return True
    return str(unresolved.get("at") or "") > str(fix.get("at") or "")
