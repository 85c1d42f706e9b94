"""The one place that reads the time, so freezegun can move it in tests.

>>> now().tzinfo is not None
True
"""

from __future__ import annotations

from datetime import datetime, timezone


def now() -> datetime:
    """Return the current time, timezone-aware in UTC."""
    return datetime.now(timezone.utc)
