r"""The Markdown layers as rows: what the index and ``stats`` read of them (standard library only).

The two layers of docs/NOTES.md live in the memory home: ``daily/YYYY-MM-DD.md`` (the
episodic layer, one file per local day) and ``MEMORY.md`` (the semantic layer). Each
bullet and each line of prose is a :class:`LayerRow`, read through
:mod:`artibot_memory.text.markdown` (the one parser) and pointed at by its ``source``,
``daily/2026-11-30.md:14`` or ``MEMORY.md:22``:

- a daily row's date is its file's day, at the bullet's time when it has one; its project
  the ``[project]`` of the bullet (``[global]``: none); ``ref`` the memory id the bullet
  names as its source, when it names one;
- a MEMORY.md row's date is the file's mtime (the index dates a managed row by its
  memory's last sighting); its project the ``### project`` it sits under, or in a section
  but Project Context the ``[project]`` it opens with (neither: global); ``marker``
  the memory id of a managed line (the index keeps those rows out of the ranking: they are
  the memory itself, which the stores already hand back).

>>> rows = rows_of("daily/2026-11-30.md", "## Events\n- 10:02 [shop] Login (ctx-0a1b2c3d4e)\n", 0)
>>> [(r.source, r.project, r.text, r.ref) for r in rows]
[('daily/2026-11-30.md:2', 'shop', 'Login', 'ctx-0a1b2c3d4e')]
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from artibot_memory.core import clock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from artibot_memory.text.markdown import Item

DAILY_DIR = "daily"
MEMORY_MD = "MEMORY.md"
CONSOLIDATED = "daily/.consolidated.json"  # {"last_run": "<ISO-8601>"}, the consolidation's
EPISODIC, SEMANTIC, STORE = "episodic", "semantic", "store"
LAYERS = (STORE, EPISODIC, SEMANTIC)
DAILY_SECTIONS = ("Events", "Decisions", "Observations", "Notes")
SEMANTIC_SECTIONS = (
    "User Preferences",
    "Project Context",
    "Relationships & People",
    "Technical Environment",
    "Lessons Learned",
)
GLOBAL = "global"  # the project of a daily bullet that belongs to none
# Project Context groups its lines by ``### project``; the other sections open a line ``[project]``
PROJECT_CONTEXT = "Project Context"
_DAY_FILE = re.compile(r"^(\d{4})-(\d\d)-(\d\d)\.md$")
_MEMORY_ID = re.compile(r"^[a-z]+-[0-9a-f]{6,}$")


@dataclass(frozen=True)
class LayerRow:
    """One searchable line of a layer file."""

    source: str  # path:line
    layer: str  # episodic or semantic
    path: str  # relative to the memory home, with forward slashes
    line: int
    date_us: int
    project: str | None  # a display name (a folder name), None: global
    section: str | None
    text: str
    marker: str | None = None  # MEMORY.md: the memory a managed line was rendered from
    ref: str | None = None  # daily: the memory id the bullet names as its source


def day_of(name: str) -> date | None:
    """Return the day a daily file's name gives (``2026-11-30.md``), None for another name.

    >>> day_of("2026-11-30.md"), day_of("2026-13-01.md"), day_of("notes.md")
    (datetime.date(2026, 11, 30), None, None)
    """
    match = _DAY_FILE.match(name)
    if match is None:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def layer_files(home: str | os.PathLike[str]) -> dict[str, str]:
    """Return every layer file of the home: its relative path → its path on disk."""
    found: dict[str, str] = {}
    folder = os.path.join(home, DAILY_DIR)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in names:
        if day_of(name) is not None:
            found[f"{DAILY_DIR}/{name}"] = os.path.join(folder, name)
    memory_md = os.path.join(home, MEMORY_MD)
    if os.path.isfile(memory_md):
        found[MEMORY_MD] = memory_md
    return found


def rows_of(path: str, text: str, mtime_us: int) -> list[LayerRow]:
    """Return the rows of one layer file (``path`` relative to the home) read as ``text``."""
    from artibot_memory.text.markdown import items, parse  # noqa: PLC0415 - a file's readers only: a lookup never parses one

    found = items(parse(text))
    if path == MEMORY_MD:
        return [_semantic_row(item, mtime_us) for item in found]
    day = day_of(path.rsplit("/", 1)[-1])
    return [] if day is None else [_episodic_row(path, day, item) for item in found]


def _episodic_row(path: str, day: date, item: Item) -> LayerRow:
    from artibot_memory.text.markdown import parse_daily_bullet  # noqa: PLC0415

    bullet = parse_daily_bullet(item.text) if item.bullet else None
    source = f"{path}:{item.line}"
    if bullet is None:
        at = local_micros(day)
        return LayerRow(source, EPISODIC, path, item.line, at, None, item.section, item.text)
    project = None if bullet.project.strip().lower() == GLOBAL else bullet.project.strip()
    ref = bullet.source if bullet.source and _MEMORY_ID.match(bullet.source) else None
    at = local_micros(day, bullet.time)
    section, text = item.section, bullet.text
    return LayerRow(source, EPISODIC, path, item.line, at, project, section, text, ref=ref)


def _semantic_row(item: Item, mtime_us: int) -> LayerRow:
    source = f"{MEMORY_MD}:{item.line}"
    section = item.section
    from artibot_memory.text.markdown import scoped  # noqa: PLC0415

    project = item.group or (None if section == PROJECT_CONTEXT else scoped(item.text)[0])
    return LayerRow(
        source, SEMANTIC, MEMORY_MD, item.line, mtime_us, project, section, item.text, item.marker
    )


def local_micros(day: date, at: str = "00:00") -> int:
    """Return a local day (and ``HH:MM`` on it) as microseconds since the epoch."""
    hours, _, minutes = at.partition(":")
    try:
        moment = datetime.combine(day, time(int(hours) % 24, int(minutes or 0) % 60))
    except ValueError:
        moment = datetime.combine(day, time())
    return int(moment.astimezone().timestamp() * 1_000_000)


def today(now: datetime | None = None) -> date:
    """Return the user's local day (docs/NOTES.md: notes are kept by local day)."""
    return (now or clock.now()).astimezone().date()


def local_day(moment: datetime | None = None) -> str:
    """Return the user's local day of ``moment`` (default: now) as YYYY-MM-DD."""
    return today(moment).isoformat()


def daily_path(home: str | os.PathLike[str], day: date) -> str:
    """Return where the note of ``day`` lives."""
    return os.path.join(home, DAILY_DIR, f"{day:%Y-%m-%d}.md")


def last_consolidated(home: str | os.PathLike[str]) -> datetime | None:
    """Return when consolidation last ran (``daily/.consolidated.json``), None: never."""
    return last_run(os.path.join(home, CONSOLIDATED))


def last_run(path: str | os.PathLike[str]) -> datetime | None:
    """Read a ``{"last_run": "<ISO 8601>"}`` record (consolidation's, evolve's); None: never."""
    try:
        with open(path, "rb") as handle:
            document = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    return clock.parse_time(document.get("last_run")) if isinstance(document, dict) else None


def record_run(path: str | os.PathLike[str], stamp: str) -> None:
    """Write a ``{"last_run": stamp}`` record through the one write path (its folder made)."""
    from artibot_memory.core import disk  # noqa: PLC0415 - the readers of layers never write
    from artibot_memory.core.paths import ensure_private_dir  # noqa: PLC0415

    ensure_private_dir(os.path.dirname(path))
    disk.write_document(path, json.dumps({"last_run": stamp}).encode())


@dataclass(frozen=True)
class NotesStats:
    """What the Markdown layers hold right now (``stats``)."""

    daily_files: int
    daily_bytes: int
    first_day: date | None
    last_day: date | None
    days_last_30: int
    days_last_90: int
    memory_md_bytes: int
    memory_md_lines: dict[str, int]  # section title → bullets under it
    last_consolidated: datetime | None


def notes_stats(home: str | os.PathLike[str], now: datetime) -> NotesStats:
    """Return the figures of the daily notes and MEMORY.md, read from the files."""
    files = layer_files(home)
    days = sorted(d for d in (day_of(p.rsplit("/", 1)[-1]) for p in files) if d is not None)
    sizes = [_size(disk) for rel, disk in files.items() if rel != MEMORY_MD]
    local = today(now)
    memory_md = files.get(MEMORY_MD)
    return NotesStats(
        daily_files=len(days),
        daily_bytes=sum(sizes),
        first_day=days[0] if days else None,
        last_day=days[-1] if days else None,
        days_last_30=sum(1 for d in days if timedelta(0) <= local - d < timedelta(days=30)),
        days_last_90=sum(1 for d in days if timedelta(0) <= local - d < timedelta(days=90)),
        memory_md_bytes=_size(memory_md) if memory_md else 0,
        memory_md_lines=_section_lines(memory_md) if memory_md else {},
        last_consolidated=last_consolidated(home),
    )


def _section_lines(path: str) -> dict[str, int]:
    counts = dict.fromkeys(SEMANTIC_SECTIONS, 0)
    from artibot_memory.text.markdown import items, parse  # noqa: PLC0415

    for item in items(parse(_read(path))):
        if item.section is not None and item.bullet:
            counts[item.section] = counts.get(item.section, 0) + 1
    return counts


def read_layer(path: str) -> str:
    """Return a layer file's text; bytes that are not UTF-8 read as replacement characters."""
    return _read(path)


def _read(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
