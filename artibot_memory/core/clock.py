"""The one clock, and the one reader of the times it writes (standard library only).

Every part of the product reads the time through :func:`now`, so freezegun can move it in
tests, and reads a stored ISO 8601 time back through :func:`parse_time`.

>>> now().tzinfo is not None
True
>>> parse_time("2026-11-30T08:00:00Z")
datetime.datetime(2026, 11, 30, 8, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from datetime import datetime, timezone


def now() -> datetime:
    """Return the current time, timezone-aware in UTC."""
    return datetime.now(timezone.utc)


def parse_time(value: object) -> datetime | None:
    """Return an ISO 8601 time as an aware datetime, or None when ``value`` is not one.

    A trailing ``Z`` is read as UTC (Python 3.10's ``fromisoformat`` refuses it), and a
    time without an offset is taken as UTC: every time the product writes is UTC.

    >>> parse_time("2026-11-30 08:00:00.5+09:00").utcoffset().total_seconds()
    32400.0
    >>> parse_time("2026-11-30T08:00:00").tzinfo
    datetime.timezone.utc
    >>> parse_time("yesterday"), parse_time(None), parse_time("")
    (None, None, None)
    """
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value[:-1] + "+00:00" if value[-1] in "Zz" else value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
