"""The one clock, and the one reader of the times it writes (standard library only).

Every part of the product reads the time through :func:`now`, so freezegun can move it in
tests, and reads a stored ISO 8601 time back through :func:`parse_time`.

>>> now().tzinfo is not None
True
>>> parse_time("2026-11-30T08:00:00Z")
datetime.datetime(2026, 11, 30, 8, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

import time

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from datetime import datetime

# ``datetime`` is imported where it is used: in Python 3.11 it costs about 3 ms (the whole
# pure-Python module runs before its C twin replaces it), and the hook after every tool
# call needs nothing from it but a time stamp, which :func:`stamp` writes from ``time``.
_PRECISION = {"seconds": 0, "milliseconds": 3, "microseconds": 6}


def now() -> datetime:
    """Return the current time, timezone-aware in UTC."""
    from datetime import datetime, timezone  # noqa: PLC0415 - see above

    return datetime.now(timezone.utc)


def stamp(timespec: str = "milliseconds") -> str:
    r"""Return the current UTC time as ``now().isoformat(timespec=timespec)`` would.

    The same clock (``time.time``, which freezegun moves too), without ``datetime``.

    >>> import re
    >>> bool(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", stamp()))
    True
    >>> stamp("seconds").endswith("+00:00") and "." not in stamp("seconds")
    True
    """
    digits = _PRECISION[timespec]
    micros = micros_now()
    seconds, fraction = divmod(micros, 1_000_000)
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    if digits:
        text += "." + f"{fraction:06d}"[:digits]
    return text + "+00:00"


def micros_now() -> int:
    """Return the current time in whole microseconds since the epoch (UTC)."""
    return int(time.time() * 1_000_000)


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
    from datetime import datetime, timezone  # noqa: PLC0415 - see above

    try:
        moment = datetime.fromisoformat(value[:-1] + "+00:00" if value[-1] in "Zz" else value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def utc_iso(moment: datetime, timespec: str = "auto") -> str:
    """Return ``moment`` as UTC ISO 8601 with a ``Z``: how belief and conflict records keep it.

    >>> from datetime import datetime, timedelta, timezone
    >>> t = datetime(2026, 11, 30, 17, 0, 5, 250000, tzinfo=timezone(timedelta(hours=9)))
    >>> utc_iso(t), utc_iso(t, "seconds")
    ('2026-11-30T08:00:05.250000Z', '2026-11-30T08:00:05Z')
    """
    from datetime import timezone  # noqa: PLC0415 - see above

    return moment.astimezone(timezone.utc).isoformat(timespec=timespec).replace("+00:00", "Z")
