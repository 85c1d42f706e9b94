r"""``evolution.log``: one line per change of what the memory believes (standard library only).

Every promotion, demotion, consolidation, reflection, stale or contradicted belief and
archive candidate is appended here, in the memory home, as one line (docs/METADATA.md §5)::

    2026-11-30T10:00:00+00:00  PROMOTE  pref-5e6f7a8b9c → active (auto_promote) strong=referenced

the time in ISO 8601 (UTC, seconds), two spaces, the type, two spaces, the message (its
line breaks folded into spaces). Written through :mod:`artibot_memory.core.disk` (redacted,
0600, one write per line), never rewritten; rotated to ``evolution.log.1`` once it passes
1 MB, so it stays bounded. Promotion proposals (issue 14) and belief evolution (issue 15)
both write it.

>>> import tempfile
>>> from datetime import datetime, timezone
>>> home = tempfile.mkdtemp()
>>> append(home, "PROMOTE", "pref-1 → active", at=datetime(2026, 11, 30, 10, tzinfo=timezone.utc))
'2026-11-30T10:00:00+00:00  PROMOTE  pref-1 → active'
>>> [(e.type, e.message) for e in read(home)]
[('PROMOTE', 'pref-1 → active')]
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from artibot_memory.core import clock, disk
from artibot_memory.core.errors import UsageError
from artibot_memory.core.paths import ensure_private_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

FILE_NAME = "evolution.log"
MAX_BYTES = 1_000_000  # then the file becomes evolution.log.1 (the older one goes)
SEPARATOR = "  "
TYPES = (
    "PROMOTE",
    "DEMOTE",
    "CONSOLIDATE",
    "REFLECT",
    "STALE",
    "CONTRADICT",
    "ARCHIVE_CANDIDATE",
)


@dataclass(frozen=True)
class Entry:
    """One line of the log, read back."""

    at: datetime
    type: str
    message: str


def log_path(home: str | os.PathLike[str]) -> str:
    """Return the log's path in the memory home ``home``.

    >>> log_path("/h")
    '/h/evolution.log'
    """
    return os.path.join(os.fspath(home), FILE_NAME)


def format_line(kind: str, message: str, at: datetime) -> str:
    r"""Return the line for one change, without its line break.

    >>> from datetime import datetime, timedelta, timezone
    >>> seoul = timezone(timedelta(hours=9))
    >>> format_line("STALE", "ctx-1\nnot seen", datetime(2026, 12, 1, 9, tzinfo=seoul))
    '2026-12-01T00:00:00+00:00  STALE  ctx-1 not seen'
    """
    if kind not in TYPES:
        msg = f"unknown evolution.log type {kind!r}; use one of: {', '.join(TYPES)}"
        raise UsageError(msg)
    from datetime import timezone  # noqa: PLC0415 - datetime only when a line is written

    stamp = at.astimezone(timezone.utc).isoformat(timespec="seconds")
    return SEPARATOR.join([stamp, kind, " ".join(message.split())])


def append(
    home: str | os.PathLike[str], kind: str, message: str, at: datetime | None = None
) -> str:
    """Append one change to ``evolution.log`` (redacted, rotated at 1 MB); return the line.

    ``kind`` is one of :data:`TYPES` (anything else is a :class:`UsageError`); ``at`` is
    the time of the change, now by default.
    """
    line = format_line(kind, message, at or clock.now())
    path = log_path(home)
    ensure_private_dir(os.fspath(home))
    _rotate(path, len(line.encode("utf-8")) + 1)
    disk.append_text(path, line + "\n")
    return line


def _rotate(path: str, adding: int) -> None:
    """Move the log to ``evolution.log.1`` when ``adding`` bytes would take it past the bound."""
    try:
        size = os.lstat(path).st_size
    except FileNotFoundError:
        return
    if size + adding > MAX_BYTES:
        os.replace(path, f"{path}.1")


def parse_line(line: str) -> Entry | None:
    """Read one line back; None when it is not one the log writes.

    >>> parse_line("2026-11-30T10:00:00+00:00  DEMOTE  pref-1 below threshold").type
    'DEMOTE'
    >>> parse_line("garbage") is None
    True
    """
    parts = line.rstrip("\n").split(SEPARATOR, 2)
    if len(parts) != 3 or parts[1] not in TYPES:  # noqa: PLR2004 - time, type, message
        return None
    at = clock.parse_time(parts[0])
    return None if at is None else Entry(at, parts[1], parts[2])


def read(home: str | os.PathLike[str]) -> list[Entry]:
    """Return the log's entries, oldest first: the rotated file's, then the current one's.

    Lines that are not the log's own are skipped; a missing log reads as empty.
    """
    path = log_path(home)
    found: list[Entry] = []
    for name in (f"{path}.1", path):
        try:
            with open(name, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        except FileNotFoundError:
            continue
        found += [entry for entry in map(parse_line, lines) if entry is not None]
    return found
