"""How sure and how fresh a memory is, in flags and in words (standard library only).

A stored memory's JSON (the index's ``doc``, a record's ``doc``) in, what a reader should
know before relying on it out (docs/METADATA.md §2):

- ``stale``: its state is ``stale``, or nothing confirmed it for ``recall.stale_days``
  (its ``last_verified``, else its newest evidence, else when it was last seen);
- ``conflicting``: one of its ``details["conflicts"]`` is ``open``;
- ``unverified``: its state is ``pending``, or its confidence is under
  ``recall.unverified_below``.

:func:`flags` gives the names (``search --json``), :func:`words` the same said for people
and for Claude (``conflicts with pref-1 (open, cf-3f9a2c1b)``, ``not confirmed since
2026-08-02``, ``unverified: seen in 1 session``), and :func:`suffix` the short form the
session context and the per-prompt recall add to a line (``(unverified: seen once)``).
``settings`` is :func:`artibot_memory.core.config.load`'s result, or any mapping of the
same names. A conflict entry is written by the conflicts' code: it is read defensively,
and one that is not a mapping with an ``open`` status counts for nothing.

>>> from datetime import datetime, timezone
>>> now = datetime(2026, 12, 1, tzinfo=timezone.utc)
>>> settings = {"recall.stale_days": 90, "recall.unverified_below": 0.5}
>>> doc = {"id": "pref-2", "state": "active", "confidence": 0.4,
...        "last_seen": "2026-08-02T09:00:00Z",
...        "details": {"conflicts": [{"id": "cf-3f9a2c1b", "with": "pref-1",
...                                   "status": "open"}]}}
>>> flags(doc, now, settings)
['stale', 'conflicting', 'unverified']
>>> for phrase in words(doc, now, settings):
...     print(phrase)
conflicts with pref-1 (open, cf-3f9a2c1b)
not confirmed since 2026-08-02
unverified: confidence 0.40
>>> suffix(doc, now, settings)
'(conflicts with pref-1: ask; not confirmed since 2026-08-02; unverified: confidence 0.40)'
"""

from __future__ import annotations

# datetime at the top: every reader of flags (search, the context, a prompt that qualified
# for recall) has it loaded already, and an import inside a function called per memory
# costs as much as the flag itself.
from datetime import datetime, timedelta, timezone

from artibot_memory.core import clock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Protocol

    class Settings(Protocol):
        """What the flags read of the settings: a value by its dotted name."""

        def __getitem__(self, name: str) -> Any:
            """Return the effective value of a setting."""


STALE = "stale"
CONFLICTING = "conflicting"
UNVERIFIED = "unverified"
OPEN = "open"
STALE_DAYS = "recall.stale_days"
UNVERIFIED_BELOW = "recall.unverified_below"
DEFAULT_CONFIDENCE = 0.7  # a stored entry without one: Memory's default (store/record.py)


def flags(doc: Mapping[str, Any], now: datetime, settings: Settings) -> list[str]:
    """Return the flags of a stored memory: any of ``stale``, ``conflicting``, ``unverified``.

    >>> from datetime import datetime, timezone
    >>> settings = {"recall.stale_days": 90, "recall.unverified_below": 0.5}
    >>> flags({"state": "pending", "last_seen": "2026-11-30T00:00:00Z"},
    ...       datetime(2026, 12, 1, tzinfo=timezone.utc), settings)
    ['unverified']
    """
    found = []
    if is_stale(doc, now, settings):
        found.append(STALE)
    if open_conflicts(doc):
        found.append(CONFLICTING)
    if is_unverified(doc, settings):
        found.append(UNVERIFIED)
    return found


def words(doc: Mapping[str, Any], now: datetime, settings: Settings) -> list[str]:
    """Return what the flags say, in words: one phrase per conflict, staleness, doubt.

    >>> from datetime import datetime, timezone
    >>> settings = {"recall.stale_days": 90, "recall.unverified_below": 0.5}
    >>> words({"state": "pending", "confidence": 0.8, "last_seen": "2026-11-30T00:00:00Z",
    ...        "evidence": [{"at": "2026-11-30T00:00:00Z", "session_id": "s1"}]},
    ...       datetime(2026, 12, 1, tzinfo=timezone.utc), settings)
    ['unverified: seen in 1 session']
    """
    said = [f"conflicts with {_other(c)} (open, {_id(c)})" for c in open_conflicts(doc)]
    if is_stale(doc, now, settings):
        said.append(_staleness(doc))
    if is_unverified(doc, settings):
        said.append(f"unverified: {_doubt(doc, settings, once='seen in 1 session')}")
    return said


def suffix(doc: Mapping[str, Any], now: datetime, settings: Settings) -> str:
    """Return the short note a context line ends with (``""`` for a memory with no flag).

    >>> from datetime import datetime, timezone
    >>> settings = {"recall.stale_days": 90, "recall.unverified_below": 0.5}
    >>> suffix({"state": "pending", "last_seen": "2026-11-30T00:00:00Z",
    ...         "evidence": [{"at": "2026-11-30T00:00:00Z", "session_id": "s1"}]},
    ...        datetime(2026, 12, 1, tzinfo=timezone.utc), settings)
    '(unverified: seen once)'
    >>> suffix({"last_seen": "2026-11-30T00:00:00Z"}, datetime(2026, 12, 1, tzinfo=timezone.utc),
    ...        settings)
    ''
    """
    said = [f"conflicts with {_other(c)}: ask" for c in open_conflicts(doc)]
    if is_stale(doc, now, settings):
        said.append(_staleness(doc))
    if is_unverified(doc, settings):
        said.append(f"unverified: {_doubt(doc, settings, once='seen once')}")
    return f"({'; '.join(said)})" if said else ""


def document(memory: object) -> Mapping[str, Any]:
    """Return a memory's stored JSON: a record's own ``doc``, a validated memory dumped.

    >>> from artibot_memory.store.record import Record
    >>> document(Record({"id": "pref-1", "type": "preference", "text": "x"}))["id"]
    'pref-1'
    """
    doc = getattr(memory, "doc", None)
    if isinstance(doc, dict):
        return doc
    dump = getattr(memory, "model_dump", None)  # a Memory, where the index cannot serve
    return dump(mode="json") if callable(dump) else {}


# ---- each flag


def is_stale(doc: Mapping[str, Any], now: datetime, settings: Settings) -> bool:
    """Tell whether a memory is stale: marked so, or unconfirmed for ``recall.stale_days``."""
    if doc.get("state") == STALE:
        return True
    confirmed = last_confirmed(doc)
    return confirmed is not None and confirmed < now - timedelta(days=settings[STALE_DAYS])


def is_unverified(doc: Mapping[str, Any], settings: Settings) -> bool:
    """Tell whether a memory is unverified: pending, or less sure than the setting wants."""
    return doc.get("state") == "pending" or confidence(doc) < float(settings[UNVERIFIED_BELOW])


def open_conflicts(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Return the memory's conflicts still ``open`` (an entry of any other shape: none).

    >>> open_conflicts({"details": {"conflicts": [{"status": "open", "with": "pref-1"},
    ...     {"status": "resolved"}, "garbage"]}})
    [{'status': 'open', 'with': 'pref-1'}]
    """
    details = doc.get("details")
    found = details.get("conflicts") if isinstance(details, dict) else None
    if not isinstance(found, list):
        return []
    return [c for c in found if isinstance(c, dict) and c.get("status") == OPEN]


def last_confirmed(doc: Mapping[str, Any]) -> datetime | None:
    """Return when a memory was last confirmed (None: it holds no time at all).

    Its ``last_verified``, else its newest evidence, else when it was last seen.

    >>> last_confirmed({"last_seen": "2026-01-01T00:00:00Z",
    ...                 "evidence": [{"at": "2026-03-01T00:00:00Z"}, {"at": "junk"}]}).month
    3
    """
    verified = clock.parse_time(doc.get("last_verified"))
    if verified is not None:
        return verified
    seen = [moment for moment in map(clock.parse_time, _evidence_times(doc)) if moment]
    if seen:
        return max(seen)
    return clock.parse_time(doc.get("last_seen")) or clock.parse_time(doc.get("created_at"))


def confidence(doc: Mapping[str, Any]) -> float:
    """Return a memory's stored confidence (Memory's default when absent or not a number)."""
    value = doc.get("confidence")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return DEFAULT_CONFIDENCE
    return float(value)


def sessions(doc: Mapping[str, Any]) -> int:
    """Return how many distinct sessions (a day, for evidence without one) support a memory.

    >>> sessions({"evidence": [{"at": "2026-11-30T01:00:00Z", "session_id": "a"},
    ...                        {"at": "2026-11-30T02:00:00Z", "session_id": "a"},
    ...                        {"at": "2026-11-29T02:00:00Z"}]})
    2
    """
    found = set()
    for item in _evidence(doc):
        session = item.get("session_id")
        if isinstance(session, str) and session:
            found.add(session)
        elif isinstance(item.get("at"), str):
            found.add("day:" + item["at"][:10])
    return len(found)


# ---- the words


def _staleness(doc: Mapping[str, Any]) -> str:
    confirmed = last_confirmed(doc)
    if confirmed is None:
        return "marked stale"
    return f"not confirmed since {_day(confirmed)}"


def _doubt(doc: Mapping[str, Any], settings: Settings, *, once: str) -> str:
    sure = confidence(doc)
    if sure < float(settings[UNVERIFIED_BELOW]):
        return f"confidence {sure:.2f}"
    count = sessions(doc)
    if count == 0:
        return "not confirmed yet"
    return once if count == 1 else f"seen in {count} sessions"


def _other(conflict: Mapping[str, Any]) -> str:
    other = conflict.get("with")
    return other if isinstance(other, str) and other else "another memory"


def _id(conflict: Mapping[str, Any]) -> str:
    found = conflict.get("id")
    return found if isinstance(found, str) and found else "no id"


def _day(moment: datetime) -> str:
    return f"{moment.astimezone(timezone.utc):%Y-%m-%d}"


def _evidence(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = doc.get("evidence")
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


def _evidence_times(doc: Mapping[str, Any]) -> list[object]:
    return [item.get("at") for item in _evidence(doc)]
