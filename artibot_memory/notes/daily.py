r"""The episodic layer: one Markdown note per local day, ``daily/YYYY-MM-DD.md``.

The format is docs/NOTES.md's contract: a ``# YYYY-MM-DD (Weekday)`` title, then the four
sections ``## Events``, ``## Decisions``, ``## Observations``, ``## Notes``, always
present, each item one bullet ``- HH:MM [project] text (source)``: local time, the
project's display name (``global`` without one), and its source, a memory id
(``ctx-0a1b2c3d4e``) or a span of a session's transcript (``session 1a2b3c4d:3-212``,
``session 1a2b3c4d:88``). :func:`artibot_memory.text.markdown.parse_daily_bullet` is the
one pattern that reads a bullet back (the index reads the notes with it too).

Never twice: an item sourced by a memory id is written once per file, and a session's
item only when its transcript lines start after the last line that session already has
in the file (:func:`covered_lines` tells the writer where to start reading). The file is
read, extended and written whole under its lock (``daily/YYYY-MM-DD.md.lock``), atomically
and redacted through :func:`artibot_memory.core.disk.write_text`; every line already in
it, and text outside the sections, stays byte for byte, and a section the user deleted
comes back at the end.

>>> read_bullet("- 10:20 [shop] Chose argon2 over bcrypt (session 1a2b3c4d:88)")
... # doctest: +NORMALIZE_WHITESPACE
DailyBullet(time='10:20', project='shop', text='Chose argon2 over bcrypt',
            source='session 1a2b3c4d:88')
>>> print(skeleton(date(2026, 11, 30)), end="")
# 2026-11-30 (Monday)
<BLANKLINE>
## Events
<BLANKLINE>
## Decisions
<BLANKLINE>
## Observations
<BLANKLINE>
## Notes
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

from artibot_memory.core import disk
from artibot_memory.core.paths import ensure_private_dir
from artibot_memory.store import layers
from artibot_memory.store.layers import DAILY_DIR, GLOBAL
from artibot_memory.store.lock import locked
from artibot_memory.text.markdown import (
    BULLET,
    DailyBullet,
    Document,
    Line,
    Section,
    bullets,
    parse,
    parse_daily_bullet,
    render,
)

__all__ = [
    "DAILY_DIR",
    "EVENTS",
    "GLOBAL",
    "SECTIONS",
    "Item",
    "append",
    "covered_lines",
    "day_of",
    "note_path",
    "read_bullet",
    "session_source",
    "skeleton",
]

SECTIONS = layers.DAILY_SECTIONS
EVENTS, DECISIONS, OBSERVATIONS, NOTES = SECTIONS
LOOKBACK_DAYS = 7  # days before a note's that a session's earlier items are looked for in
SESSION_PREFIX_CHARS = 8
_SESSION_SOURCE = re.compile(r"^session (?P<session>[^\s:()]+):(?P<first>\d+)(?:-(?P<last>\d+))?$")
_BLANKS = re.compile(r"\s+")


@dataclass(frozen=True)
class Item:
    """One thing to write in a day's note: its section, time, project, text and source.

    >>> Item(EVENTS, datetime(2026, 11, 30, 9, 2).astimezone(), "shop", "Asked: x",
    ...      "session 1a2b3c4d:3-9").bullet()
    '- 09:02 [shop] Asked: x (session 1a2b3c4d:3-9)'
    """

    section: str
    at: datetime
    project: str
    text: str
    source: str

    @property
    def day(self) -> date:
        """The local day this item belongs to (its own time's, not the session's start)."""
        return self.at.astimezone().date()

    def bullet(self) -> str:
        """Return the item's bullet line, on one line."""
        text = _BLANKS.sub(" ", self.text).strip()
        project = _BLANKS.sub(" ", self.project).replace("]", ")").strip() or GLOBAL
        return f"- {self.at.astimezone():%H:%M} [{project}] {text} ({self.source})"


def read_bullet(line: str) -> DailyBullet | None:
    """Read one line of a note back into its parts, or None when it is no item's bullet.

    >>> read_bullet("- 09:00 [global] Remember: x (ctx-0a1b2c3d4e)").source
    'ctx-0a1b2c3d4e'
    >>> read_bullet("- a bullet the user wrote") is None
    True
    """
    match = BULLET.match(line)
    found = parse_daily_bullet(match.group("body")) if match else None
    return found if found is not None and found.source is not None else None


def session_source(session_id: str, first: int, last: int | None = None) -> str:
    """Return the source of a session's item: one transcript line, or a span of them.

    >>> session_source("1a2b3c4d-5e6f", 3, 212), session_source("1a2b3c4d-5e6f", 88, 88)
    ('session 1a2b3c4d:3-212', 'session 1a2b3c4d:88')
    """
    head = f"session {_session_key(session_id)}:{first}"
    return head if last is None or last == first else f"{head}-{last}"


day_of = layers.today  # the local day of a moment (default now)


def note_path(home: Path, day: date) -> Path:
    """Return the path of ``day``'s note in the memory ``home``.

    >>> note_path(Path("/h"), date(2026, 11, 30)).as_posix()
    '/h/daily/2026-11-30.md'
    """
    return Path(layers.daily_path(home, day))


def skeleton(day: date) -> str:
    """Return the text of an empty note for ``day``: its title and the four sections."""
    parts = [f"# {day.isoformat()} ({day:%A})", ""]
    for title in SECTIONS:
        parts += [f"## {title}", ""]
    return "\n".join(parts[:-1]) + "\n"


def covered_lines(home: Path, session_id: str, day: date) -> int:
    """Return the last transcript line of this session already in the notes (0: none).

    Looked for in ``day``'s note and the :data:`LOOKBACK_DAYS` days before it: the
    session's next items start after it.
    """
    days = (day - timedelta(days=back) for back in range(LOOKBACK_DAYS + 1))
    key = _session_key(session_id)
    return max((_covered(_read(note_path(home, d)), key) for d in days), default=0)


def append(home: Path, day: date, items: list[Item]) -> list[Item]:
    """Add to ``day``'s note the items it does not hold yet; return those written.

    The note is created from :func:`skeleton` when missing. Read, extended and written
    whole under its lock, atomically: a crash leaves the old file or the new one.
    """
    path = note_path(home, day)
    ensure_private_dir(path.parent)
    with locked(path):
        text = _read(path)
        doc = parse(text or skeleton(day))
        fresh = _unwritten(doc, items)
        if not fresh:
            return []
        for title in SECTIONS:
            _add(doc, title, [item.bullet() for item in fresh if item.section == title])
        disk.write_text(path, render(doc))
    return fresh


def drop(home: Path, ids: set[str], sessions: set[str]) -> list[Path]:
    """Remove every bullet citing a forgotten memory (``ids``) or session; return the notes changed.

    A session is named as its sources name it (the first 8 characters of its id): a
    forgotten session summary takes the session's own bullets with it, since they tell the
    same transcript. Each note is rewritten under its lock, every other line as it was.
    """
    changed = []
    short = {session[:SESSION_PREFIX_CHARS] for session in sessions}
    for path in sorted((home / DAILY_DIR).glob("*.md")):
        with locked(path):
            text = _read(path)
            kept = [line for line in text.split("\n") if not _cites(line, ids, short)]
            if text and len(kept) != text.count("\n") + 1:
                disk.write_text(path, "\n".join(kept))
                changed.append(path)
    return changed


def _cites(line: str, ids: set[str], sessions: set[str]) -> bool:
    found = read_bullet(line)
    if found is None or found.source is None:
        return False
    span = _SESSION_SOURCE.match(found.source)
    return found.source in ids or (span is not None and span.group("session") in sessions)


def _unwritten(doc: Document, items: list[Item]) -> list[Item]:
    """Keep the items ``doc`` lacks: a memory id not yet cited, a session's newer lines."""
    told = _bullets(doc)
    sources = {found.source for found in told}
    covered: dict[str, int] = {}
    fresh = []
    for item in items:
        span = _SESSION_SOURCE.match(item.source)
        if span is None:
            if item.source in sources:
                continue
            sources.add(item.source)
        else:
            key = span.group("session")
            if key not in covered:
                covered[key] = _covered_in(told, key)
            if int(span.group("first")) <= covered[key]:
                continue
        fresh.append(item)
    return fresh


def _bullets(doc: Document) -> list[DailyBullet]:
    found = []
    for section in doc.sections:
        for bullet in bullets(section):
            parsed = read_bullet(bullet.raw)
            if parsed is not None:
                found.append(parsed)
    return found


def _covered(text: str, key: str) -> int:
    return _covered_in(_bullets(parse(text)), key) if text else 0


def _covered_in(told: list[DailyBullet], key: str) -> int:
    last = 0
    for found in told:
        span = _SESSION_SOURCE.match(found.source or "")
        if span is not None and span.group("session") == key:
            last = max(last, int(span.group("last") or span.group("first")))
    return last


def _add(doc: Document, title: str, lines: list[str]) -> None:
    """Append ``lines`` to section ``title``, after its last non-blank line.

    A section the user deleted is put back at the end, with or without lines: the four
    are always there.
    """
    new = [Line(0, line) for line in lines]
    section = doc.section(title)
    if section is None:
        _end_with_blank(doc)
        doc.sections.append(Section(title, Line(0, f"## {title}"), new))
        doc.trailing_newline = True
        return
    if not new:
        return
    filled = [i for i, line in enumerate(section.body) if line.text.strip()]
    at = filled[-1] + 1 if filled else 0
    section.body[at:at] = new


def _end_with_blank(doc: Document) -> None:
    """Make the document end with a blank line, so an added section stands apart."""
    last = doc.sections[-1].body if doc.sections else doc.preamble
    tail = last[-1].text if last else (doc.sections[-1].heading.text if doc.sections else "")
    if tail.strip():
        last.append(Line(0, ""))
    doc.trailing_newline = True


def _read(path: Path) -> str:
    """Return a note's text ('' when missing or unreadable: a new note starts)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _session_key(session_id: str) -> str:
    return (session_id or "unknown")[:SESSION_PREFIX_CHARS]
