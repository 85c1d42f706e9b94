r"""What a person reads: columns, colour, dates, excerpts, one record in full, versioned JSON.

The verbs (:mod:`artibot_memory.cli.verbs`) return data; this module draws it, and
:mod:`artibot_memory.cli.app` chooses between it and ``--json``.

- **Colour** only on a terminal: never when stdout is not a tty, when ``NO_COLOR`` is set
  to anything (https://no-color.org) or when ``TERM=dumb``; a pipe, a file or a test never
  receives an escape code. Stored text is printed without its control characters, so a
  memory cannot send escape sequences to the terminal either.
- **Columns** are aligned on the width people see (a Korean syllable takes two cells); the
  last column takes what is left of the terminal (``COLUMNS`` when set, else 120 off a
  terminal) and is cut with ``…``.
- **Excerpts** show where rows differ: a session summary loses its header (session id and
  times, which the id and date columns already give) and shows what was asked and done;
  a prefix every row shown shares (12 characters or more, cut at a space) is dropped.
- **Dates** are UTC, as stored: ``5 min ago``, ``3 h ago``, ``2 days ago`` within a week,
  then the date.

>>> rows = [[Cell("a-1"), Cell("one")], [Cell("b-22"), Cell("two")]]
>>> print("\n".join(table(["id", "text"], rows, Style(colour=False, width=60))))
id    text
a-1   one
b-22  two
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import textwrap
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from artibot_memory.core import agents
from artibot_memory.core.clock import parse_time
from artibot_memory.core.project import display_name
from artibot_memory.recall.flags import document
from artibot_memory.store.record import FIELDS
from artibot_memory.text.trim import ELLIPSIS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

    from artibot_memory.recall.lookup import Hit, LayerHit, StoreStats
    from artibot_memory.store.layers import NotesStats
    from artibot_memory.store.ledger import Entry
    from artibot_memory.store.record import Readable

JSON_SCHEMA = "artibot-memory/1"
DEFAULT_WIDTH = 120  # off a terminal (a pipe, a file) when COLUMNS is not set
MIN_LAST_COLUMN = 24
SHARED_PREFIX_MIN = 12  # shorter shared starts ("Asked: ", "pytest -q ") carry meaning
GAP = "  "
MINUTE, HOUR, DAY = 60, 3600, 86400  # seconds
WEEK, YEAR = 7 * DAY, 365 * DAY
SESSION_TAG = "session-summary"
_SESSION_HEADER = re.compile(r"Session \S+ (\d{4}-\d\d-\d\d|\(time unknown\))")
# C0 and C1 controls (ESC and CSI included), zero-width and bidi overrides.
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
_CODES = {
    "head": "1",
    "label": "2",
    "dim": "2",
    "id": "33",
    "project": "36",
    "score": "1",
    "preference": "35",
    "context": "34",
    "command": "32",
    "error": "31",
    "resolved": "32",
    "pending": "33",
    "stale": "33",
    "superseded": "2",
    "bad": "31",
}


@dataclass(frozen=True)
class Style:
    """Where the text goes: with colour or not, and how wide."""

    colour: bool = False
    width: int = DEFAULT_WIDTH

    @classmethod
    def for_stream(cls, stream: IO[str], environ: Mapping[str, str] | None = None) -> Style:
        """Return the style for ``stream``: colour only on a terminal without ``NO_COLOR``."""
        env = os.environ if environ is None else environ
        tty = _isatty(stream)
        colour = tty and not env.get("NO_COLOR") and env.get("TERM") != "dumb"
        return cls(colour=colour, width=_width(env, tty=tty))

    def paint(self, text: str, role: str | None) -> str:
        """Return ``text`` in the colour of ``role`` (unchanged without colour)."""
        code = _CODES.get(role or "")
        if not (self.colour and code and text):
            return text
        return f"\x1b[{code}m{text}\x1b[0m"


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or a fake stream
        return False


def _width(env: Mapping[str, str], *, tty: bool) -> int:
    given = env.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns if tty else DEFAULT_WIDTH


# --- text on screen -----------------------------------------------------------------------


def printable(text: str) -> str:
    r"""Return ``text`` on one line, without control characters (no escape reaches a terminal).

    >>> printable("a\x1b[31mb\n  c\td")
    'a[31mb c d'
    """
    return " ".join(_UNPRINTABLE.sub("", text.replace("\t", " ")).split())


def cells(text: str) -> int:
    """Return how many terminal cells ``text`` takes (wide characters take two).

    >>> cells("abc"), cells("배포"), cells("e\u0301")
    (3, 4, 1)
    """
    if text.isascii():  # no ASCII character is wide or combining: one cell each
        return len(text)
    return sum(_cell(char) for char in text)


def _cell(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def fit(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` cells, ending in ``…``; at a space when one is near the end.

    >>> fit("deploy the application", 14), fit("deployment", 8), fit("short", 10)
    ('deploy the…', 'deploym…', 'short')
    """
    if len(text) * 2 <= width or len(_first_cells(text, width)) == len(text):
        return text  # looked at no further than ``width`` cells: a memory may be long
    cut = _first_cells(text, width - 1)
    space = cut.rfind(" ")
    if space > len(cut) * 2 // 3:
        cut = cut[:space]
    return cut.rstrip(" ·,;:") + ELLIPSIS


def _first_cells(text: str, room: int) -> str:
    """Return the start of ``text`` that fits in ``room`` cells."""
    if text.isascii():
        return text[: max(room, 0)]
    kept, used = [], 0
    for char in text:
        used += _cell(char)
        if used > room:
            break
        kept.append(char)
    return "".join(kept)


@dataclass(frozen=True)
class Cell:
    """One cell of a table: its text and the role that colours it."""

    text: str
    role: str | None = None


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    style: Style,
    *,
    right: Iterable[int] = (),
) -> list[str]:
    """Return aligned lines: a header, then the rows; the last column takes the rest.

    Columns listed in ``right`` are aligned right (numbers).
    """
    right = set(right)
    count = len(header)
    widths = [
        max([cells(header[i])] + [cells(row[i].text) for row in rows]) for i in range(count - 1)
    ]
    room = max(style.width - sum(widths) - len(GAP) * (count - 1), MIN_LAST_COLUMN)
    # The last column is measured no further than it can show: a memory's text may be long.
    last = [cells(header[-1])] + [cells(_first_cells(row[-1].text, room + 1)) for row in rows]
    widths.append(min(max(last), room))

    def line(texts: Sequence[str], roles: Sequence[str | None]) -> str:
        parts = []
        for i, (text, role) in enumerate(zip(texts, roles, strict=True)):
            shown = fit(text, widths[i])
            pad = " " * (widths[i] - cells(shown))
            last = i == count - 1
            padded = pad + shown if i in right else shown + ("" if last else pad)
            parts.append(style.paint(padded, role) if text else padded)
        return GAP.join(parts).rstrip()

    lines = [line(header, ["head"] * count)]
    lines += [line([c.text for c in row], [c.role for c in row]) for row in rows]
    return lines


# --- dates --------------------------------------------------------------------------------


def when(moment: datetime, now: datetime) -> str:
    """Return a date as people say it: relative within a week, else the day.

    >>> now = datetime(2026, 3, 10, 12, tzinfo=timezone.utc)
    >>> days = [(10, 11), (9, 6), (1, 0)]
    >>> [when(datetime(2026, 3, d, h, tzinfo=timezone.utc), now) for d, h in days]
    ['1 h ago', '1 day ago', '2026-03-01']
    """
    seconds = (now - moment).total_seconds()
    if 0 <= seconds < WEEK:
        return _ago(seconds)
    return f"{_utc(moment):%Y-%m-%d}"


def full_date(moment: datetime, now: datetime) -> str:
    """Return a date and time in UTC with how far off it is.

    >>> now = datetime(2026, 3, 10, 12, tzinfo=timezone.utc)
    >>> full_date(datetime(2026, 3, 13, 12, tzinfo=timezone.utc), now)
    '2026-03-13 12:00 UTC (in 3 days)'
    >>> full_date(datetime(2026, 1, 9, 12, tzinfo=timezone.utc), now)
    '2026-01-09 12:00 UTC (60 days ago)'
    """
    seconds = (now - moment).total_seconds()
    off = _ago(seconds) if seconds >= 0 else _ahead(-seconds)
    return f"{_utc(moment):%Y-%m-%d %H:%M} UTC ({off})"


def _ago(seconds: float) -> str:
    if seconds < MINUTE:
        return "just now"
    if seconds < HOUR:
        return f"{int(seconds // MINUTE)} min ago"
    if seconds < DAY:
        return f"{int(seconds // HOUR)} h ago"
    if seconds >= 2 * YEAR:
        return f"{int(seconds // YEAR)} years ago"
    days = int(seconds // DAY)
    return f"{days} day{'s' if days > 1 else ''} ago"


def _ahead(seconds: float) -> str:
    if seconds < HOUR:
        return f"in {max(int(seconds // MINUTE), 1)} min"
    if seconds < 2 * DAY:
        return f"in {int(seconds // HOUR)} h"
    return f"in {int(seconds // DAY)} days"


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(timezone.utc) if moment.tzinfo else moment


# --- memories in rows ---------------------------------------------------------------------


def is_session_summary(memory: Readable) -> bool:
    """Tell whether ``memory`` is a session summary (by its tag, its details or its header)."""
    return (
        SESSION_TAG in memory.tags
        or memory.details.get("kind") == SESSION_TAG
        or _SESSION_HEADER.match(memory.text) is not None
    )


def gist(memory: Readable) -> str:
    r"""Return a memory's text on one line; a session summary without its header line.

    >>> from artibot_memory.store.record import Record
    >>> text = "Session 1a2b3c4d 2026-03-10 09:00–10:00 UTC\nAsked: fix login\nEdited: app.py"
    >>> gist(Record({"id": "ctx-1", "type": "context", "text": text}))
    'Asked: fix login · Edited: app.py'
    """
    lines = [printable(line) for line in memory.text.splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > 1 and is_session_summary(memory):
        lines = lines[1:]
    joined = ""
    for line in lines:
        if not joined:
            joined = line
        elif joined.endswith(":") or line.startswith("- "):
            joined += " " + line.removeprefix("- ")  # a list under its heading stays with it
        else:
            joined += " · " + line
    return joined


def without_shared_prefix(texts: Sequence[str], minimum: int = SHARED_PREFIX_MIN) -> list[str]:
    """Drop the start every text shares (cut at a space, at least ``minimum`` long).

    >>> without_shared_prefix(["Deploy with the blue pipeline", "Deploy with the red one"])
    ['…blue pipeline', '…red one']
    >>> without_shared_prefix(["pytest -q a", "pytest -q b"])
    ['pytest -q a', 'pytest -q b']
    """
    if len(texts) <= 1:  # one row has no neighbour to differ from
        return list(texts)
    shared = os.path.commonprefix(list(texts))  # noqa: RUF071 - text, not paths
    cut = shared.rfind(" ") + 1
    if cut < minimum or any(not text[cut:].strip() for text in texts):
        return list(texts)
    return [ELLIPSIS + text[cut:] for text in texts]


def project_cell(project: str | None) -> Cell:
    """Return the project column: its short name, or ``global`` for a memory of every project."""
    return Cell(display_name(project), "project") if project else Cell("global", "dim")


def state_cell(memory: Readable) -> Cell:
    """Return the state column: coloured when it is not ``active``."""
    state = memory.state.value
    return Cell(state, state if state != "active" else None)


def memory_rows(
    memories: Sequence[Readable], now: datetime, *, states: bool, agents: bool = False
) -> list[list[Cell]]:
    """One row per memory: id, type, (state,) project, (agent,) when last seen, what differs."""
    texts = without_shared_prefix([gist(m) for m in memories])
    rows = []
    for memory, text in zip(memories, texts, strict=True):
        row = [Cell(memory.id, "id"), Cell(memory.type.value, memory.type.value)]
        row += [state_cell(memory)] if states else []
        row += [project_cell(memory.project)]
        row += [Cell(agent_of(memory) or "-", "dim")] if agents else []
        row += [Cell(when(memory.last_seen, now), "dim"), Cell(text)]
        rows.append(row)
    return rows


def agent_of(memory: object) -> str | None:
    """Return the agent whose hook saw ``memory`` (``codex-cli`` …); None when none did.

    A hook's memory older than the field is Claude Code's: it was the only agent then.

    >>> from artibot_memory.store.record import Record
    >>> agent_of(Record({"id": "c", "type": "command", "text": "x",
    ...                  "source": {"channel": "hook:PostToolUse", "agent": "codex-cli"}}))
    'codex-cli'
    """
    source = document(memory).get("source")
    if not isinstance(source, dict):
        return None
    agent = source.get("agent")
    if isinstance(agent, str) and agent:
        return agent
    channel = source.get("channel")
    return "claude-code" if isinstance(channel, str) and channel.startswith("hook:") else None


def memory_table(
    memories: Sequence[Readable],
    now: datetime,
    style: Style,
    scores: Sequence[float] = (),
    notes: Sequence[Sequence[str]] = (),
) -> list[str]:
    """Return the table of ``list`` (and of ``search``, with a score column first).

    ``notes``: per row, what to say under it (:func:`noted`): its flags in words, its source.
    """
    states = any(m.state.value != "active" for m in memories)
    several = len({agent_of(m) for m in memories} - {None}) > 1  # which agent, when several
    header = ["id", "type", *(["state"] if states else []), "project"]
    header += [*(["agent"] if several else []), "seen", "text"]
    rows = memory_rows(memories, now, states=states, agents=several)
    if scores:
        header = ["score", *header]
        rows = [[Cell(f"{s:.2f}", "score"), *row] for s, row in zip(scores, rows, strict=True)]
    return noted(table(header, rows, style, right=[0] if scores else []), notes, style)


def one_line(memory: Readable, now: datetime, style: Style) -> str:
    """Return a memory on one line, for messages (forget, prune): id, type, project, date, text."""
    cells_shown = [
        Cell(memory.id, "id"),
        Cell(memory.type.value, memory.type.value),
        project_cell(memory.project),
        Cell(when(memory.last_seen, now), "dim"),
    ]
    plain = GAP.join(cell.text for cell in cells_shown)
    head = GAP.join(style.paint(cell.text, cell.role) for cell in cells_shown)
    return f"{head}{GAP}{fit(gist(memory), max(style.width - cells(plain) - 2, 30))}"


def footer(shown: int, where: str, style: Style, hint: str = "", *, noun: str | None = None) -> str:
    """Return the line under a listing: how many, from where, and how to see more.

    ``noun`` names what is counted when it is not memories (``hit``: lines of the notes too).
    """
    noun = ("memory" if shown == 1 else "memories") if noun is None else noun + "s" * (shown != 1)
    return style.paint(f"{shown} {noun} · {where}" + (f" · {hint}" if hint else ""), "dim")


def stats_table(rows: Sequence[StoreStats], style: Style) -> list[str]:
    """Return the table of ``stats``: per store entries, bytes, oldest, newest, expiring soon."""

    def day(moment: datetime | None) -> Cell:
        return Cell(f"{_utc(moment):%Y-%m-%d}" if moment else "-", "dim")

    cells_of = [
        [
            Cell(row.type, row.type),
            Cell(str(row.entries)),
            Cell(str(row.bytes)),
            day(row.oldest),
            day(row.newest),
            Cell(str(row.expiring_soon)),
        ]
        for row in rows
    ]
    header = ["type", "entries", "bytes", "oldest", "newest", "expiring<7d"]
    return table(header, cells_of, style, right=[1, 2, 5])


def hits_table(
    hits: Sequence[Hit | LayerHit],
    now: datetime,
    style: Style,
    notes: Sequence[Sequence[str]] = (),
) -> list[str]:
    """Return the table of a ``search`` that found layer lines too: each hit with its source.

    A store hit's source is its id and its kind its type; a layer line's source is
    ``path:line`` and its kind its layer (``episodic``, ``semantic``). ``notes``: as
    :func:`memory_table`'s.
    """
    rows = []
    for hit in hits:
        if hasattr(hit, "memory"):
            memory = hit.memory
            kind, project, seen, text = (
                memory.type.value,
                memory.project,
                memory.last_seen,
                gist(memory),
            )
        else:
            line = hit.line
            kind, project, seen, text = line.layer, line.project, line.date, line.text
        rows.append(
            [
                Cell(f"{hit.score:.2f}", "score"),
                Cell(hit.source, "id"),
                Cell(kind, kind),
                project_cell(project),
                Cell(when(seen, now), "dim"),
                Cell(printable(text)),
            ]
        )
    header = ["score", "source", "kind", "project", "seen", "text"]
    return noted(table(header, rows, style, right=[0]), notes, style)


def config_lines(data: Mapping[str, Any], style: Style) -> list[str]:
    """Return ``config``: each setting, its value and where it came from, then the files."""
    rows = [
        [
            Cell(row["name"]),
            Cell(_scalar(row["value"]), "id" if row["origin"] != "default" else None),
            Cell(os.path.basename(row["origin"]), "dim"),  # the files' full paths: below
        ]
        for row in data["settings"]
    ]
    lines = table(["SETTING", "VALUE", "FROM"], rows, style)
    read = set(data["read"])
    lines += ["", "files (later ones win):"]
    lines += [f"  {path}{'' if path in read else '  (absent)'}" for path in data["files"]]
    lines += [style.paint(f"problem: {problem}", "bad") for problem in data["problems"]]
    return lines


def notes_lines(notes: NotesStats, now: datetime) -> list[str]:
    """Return the lines of ``stats`` about the daily notes and MEMORY.md."""
    span = (
        f", {notes.first_day:%Y-%m-%d} to {notes.last_day:%Y-%m-%d}"
        if notes.first_day and notes.last_day
        else ""
    )
    covered = f"; {notes.days_last_30} of the last 30 days, {notes.days_last_90} of the last 90"
    sections = ", ".join(f"{title} {count}" for title, count in notes.memory_md_lines.items())
    last = notes.last_consolidated
    return [
        (
            f"daily notes   {notes.daily_files} file{'s' * (notes.daily_files != 1)}, "
            f"{notes.daily_bytes} bytes{span}{covered}"
        ),
        f"MEMORY.md     {notes.memory_md_bytes} bytes"
        + (f"; lines: {sections}" if sections else ""),
        f"consolidated  {when(last, now) if last else 'never'}",
    ]


# --- one memory in full -------------------------------------------------------------------

_LABELS = {
    "id": "id",
    "type": "type",
    "state": "state",
    "flags": "flags",
    "code": "code",
    "scope": "scope",
    "project": "project",
    "key": "key",
    "text": "text",
    "tags": "tags",
    "why": "why",
    "resolution": "fixed by",
    "signature": "signature",
    "confidence": "confidence",
    "belief": "belief",
    "where": "where",
    "source": "source",
    "evidence": "evidence",
    "counter_evidence": "against",
    "related": "related",
    "created_at": "created",
    "updated_at": "updated",
    "last_seen": "last seen",
    "last_verified": "verified",
    "expires_at": "expires",
    "count": "seen",
    "access_count": "accessed",
    "details": "details",
}
MAX_EVIDENCE_SHOWN = 5


def record(
    doc: Mapping[str, Any],
    now: datetime,
    style: Style,
    texts: Mapping[str, str] | None = None,
) -> list[str]:
    """Every field of one memory (its stored JSON) as aligned ``field: value`` lines (``show``).

    ``texts`` gives the related memories' texts by id; None reads them from the index.
    """
    related = [str(i) for i in doc.get("related") or []]
    fields = _fields(doc, now, texts if texts is not None else related_texts(related))
    width = max(cells(label) for label, _ in fields) + 2
    room = max(style.width - width, 30)
    lines = []
    for label, values in fields:
        first = True
        for value in values:
            for piece in _wrap(value, room):
                name = f"{label}:" if first else ""
                lines.append(style.paint(name.ljust(width), "label") + piece)
                first = False
    return lines


def _wrap(value: str, room: int) -> list[str]:
    return textwrap.wrap(
        value, room, break_long_words=False, break_on_hyphens=False, subsequent_indent="  "
    ) or [""]


def related_texts(ids: Sequence[str]) -> dict[str, str]:
    """Return the text of each of ``ids`` the index holds (through recall's lookup)."""
    import sqlite3  # noqa: PLC0415 - only ``show`` reads them

    from artibot_memory.recall import lookup  # noqa: PLC0415 - only ``show`` reads them

    found: dict[str, str] = {}
    try:
        for memory_id in ids:
            hit = lookup.by_id(memory_id)
            if hit is not None:
                found[memory_id] = hit.text
    except sqlite3.Error:
        return found  # the ids alone, then
    return found


def _fields(
    doc: Mapping[str, Any], now: datetime, texts: Mapping[str, str] | None = None
) -> list[tuple[str, list[str]]]:
    def date(name: str) -> list[str]:
        moment = parse_time(doc.get(name))
        return [full_date(moment, now)] if moment else []

    def text(name: str) -> list[str]:
        value = doc.get(name)
        return [printable(value)] if isinstance(value, str) and value else []

    def joined(name: str) -> list[str]:
        value = doc.get(name)
        return [", ".join(_scalar(v) for v in value)] if isinstance(value, list) and value else []

    stored = doc.get("project")
    project = (
        [f"{display_name(stored)} ({stored})"]
        if stored and display_name(stored) != stored
        else [stored or "none (global: seen from every project)"]
    )
    uses = doc.get("access_count") or 0
    last = date("last_accessed")
    accessed = [(_times(uses) if uses else "never") + (f", last {last[0]}" if last else "")]
    values: dict[str, list[str]] = {
        "id": [str(doc.get("id"))],
        "type": [str(doc.get("type"))],
        "state": [str(doc.get("state") or "active")],
        "flags": flag_words(doc, now),
        "code": code_words(doc),
        "scope": [str(doc.get("scope") or "global")],
        "project": project,
        "key": text("key"),
        "text": [
            printable(line) for line in str(doc.get("text") or "").splitlines() if line.strip()
        ],
        "tags": joined("tags"),
        "why": text("why"),
        "resolution": text("resolution"),
        "signature": text("signature"),
        "confidence": [_confidence(doc)],
        "belief": _belief((doc.get("details") or {}).get("belief")),
        "where": [_where(doc.get("source") or {})],
        "source": [_source(doc.get("source") or {})],
        "evidence": _evidence(doc.get("evidence") or []),
        "counter_evidence": _evidence(doc.get("counter_evidence") or []),
        "related": _related(doc.get("related") or [], texts or {}),
        "created_at": date("created_at"),
        "updated_at": date("updated_at"),
        "last_seen": date("last_seen"),
        "last_verified": date("last_verified"),
        "expires_at": date("expires_at") or ["never"],
        "count": [_times(int(doc.get("count") or 1))],
        "access_count": accessed,
        "details": _mapping({k: v for k, v in (doc.get("details") or {}).items() if k != "belief"}),
    }
    # issue 14's flags (recall/flags.py) go here, after state: ("flags", [...])
    fields = [(_LABELS[name], shown) for name, shown in values.items() if shown]
    extra = {name: value for name, value in doc.items() if name not in FIELDS}
    fields += [(name, _value(value)) for name, value in extra.items() if value not in (None, "")]
    return fields


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


_SOURCE_FIELDS = ("channel", "session_id", "path", "line", "command", "agent")

_EVIDENCE_FIELDS = ("at", "session_id", "note", "kind")
CHANNEL_WORDS = {
    "hook:UserPromptSubmit": "a prompt (UserPromptSubmit hook)",
    "hook:SessionStart": "the start of a session (SessionStart hook)",
    "hook:SessionEnd": "the end of a session (SessionEnd hook)",
    "hook:PreCompact": "a checkpoint before a compaction (PreCompact hook)",
    "hook:PostToolUse": "a command the agent ran (PostToolUse hook)",
    "hook:PostToolUseFailure": "a command that failed (PostToolUseFailure hook)",
    "hook": "a hook",
    "cli": "the CLI",
    "skill": "Claude, through the skill",
    "MEMORY.md": "an edit of MEMORY.md",
    "import": "an import",
    "claude-auto-memory": "Claude Code's auto memory",
    "consolidate": "a consolidation of the daily notes",
    "proposals": "an accepted proposal",
    "conflicts": "the resolution of a conflict",
    "api": "the Python API",
}


def where(channel: str) -> str:
    """Say a source's channel in words.

    >>> where("hook:UserPromptSubmit"), where("skill"), where("hook:Stop")
    ('a prompt (UserPromptSubmit hook)', 'Claude, through the skill', 'the Stop hook')
    """
    if channel in CHANNEL_WORDS:
        return CHANNEL_WORDS[channel]
    if channel.startswith("hook:"):
        return f"the {channel.removeprefix('hook:')} hook"
    return channel


def _where(source: Mapping[str, Any]) -> str:
    channel = str(source.get("channel") or "api")
    agent = source.get("agent")
    named = f" in {agents.NAMES.get(agent, agent)}" if isinstance(agent, str) and agent else ""
    session = f", session {source['session_id']}" if source.get("session_id") else ""
    return printable(where(channel) + named) + session


def _source(source: Mapping[str, Any]) -> str:
    """Return the source itself: ``path:line``, the command, or what else it holds."""
    parts = []
    if source.get("path"):
        line = source.get("line")
        parts.append(f"{source['path']}:{line}" if line else str(source["path"]))
    parts += [f"`{printable(str(source['command']))}`"] if source.get("command") else []
    parts += [
        f"{k} {_scalar(v)}" for k, v in source.items() if k not in _SOURCE_FIELDS and v is not None
    ]
    return ", ".join(printable(part) for part in parts) or "not recorded"


def _confidence(doc: Mapping[str, Any]) -> str:
    """Return the confidence and its grounds: sessions and days for, sessions against."""
    value = f"{float(doc.get('confidence', 0.7)):.2f}"
    support = _sightings(doc.get("evidence") or [])
    against = _sightings(doc.get("counter_evidence") or [])
    if not support[0] and not against[0]:
        return value
    sessions, days = support
    said = f"from {count(sessions, 'session')} over {count(days, 'day')}"
    return f"{value}, {said}, against {against[0]}"


def _belief(held: object) -> list[str]:
    """Return what evolve last concluded of a belief (docs/EVOLVE.md §1), in one line.

    >>> _belief({"confidence": 0.74, "freshness": "strengthening", "sources": 6, "counter": 1,
    ...          "last_reflected": "2026-12-01T09:00:00Z", "top": "2026-12-01T09:00:00Z",
    ...          "place": 2})
    ['0.74, strengthening, 6 sessions for, 1 against, reflected 2026-12-01 · Top Beliefs #2']
    """
    if not isinstance(held, Mapping):
        return []
    conf = held.get("confidence")
    parts = [f"{conf:.2f}" if isinstance(conf, int | float) else "?"]
    parts.append(str(held.get("freshness") or "stable"))
    if isinstance(held.get("sources"), int):
        parts.append(f"{count(held['sources'], 'session')} for, {held.get('counter') or 0} against")
    reflected = parse_time(held.get("last_reflected"))
    parts += [f"reflected {_utc(reflected).date()}"] if reflected else []
    line = ", ".join(parts)
    if held.get("top"):
        line += f" · Top Beliefs #{held['place']}" if held.get("place") else " · Top Beliefs"
    if held.get("archive_candidate"):
        line += " · archive candidate (no evidence for twice stale_days)"
    return [line]


def _sightings(items: Sequence[Any]) -> tuple[int, int]:
    """Distinct sessions (the day without a session id) and distinct days of ``items``."""
    moments = [
        (parse_time(item.get("at")), item.get("session_id"))
        for item in items
        if isinstance(item, Mapping)
    ]
    dated = [(moment, session) for moment, session in moments if moment is not None]
    sessions = {session or f"day:{_utc(moment).date()}" for moment, session in dated}
    return len(sessions), len({_utc(moment).date() for moment, _ in dated})


def count(number: int, noun: str, plural: str | None = None) -> str:
    """Return ``number`` with its noun, singular or plural, in English.

    >>> count(1, "memory", "memories"), count(2, "memory", "memories"), count(1_000, "line")
    ('1 memory', '2 memories', '1,000 lines')
    """
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"


def _related(ids: Sequence[Any], texts: Mapping[str, str]) -> list[str]:
    """One line per related memory: its id and, when known, its text's first line."""
    lines = []
    for memory_id in ids:
        text = texts.get(str(memory_id), "").strip().splitlines()
        said = f' "{printable(text[0])}"' if text else ""
        lines.append(f"- {printable(str(memory_id))}{said}")
    return lines


def _evidence(items: Sequence[Mapping[str, Any]]) -> list[str]:
    sightings = [(parse_time(item.get("at")), item) for item in items if isinstance(item, Mapping)]
    dated = [(moment, item) for moment, item in sightings if moment is not None]
    if not dated:
        return []
    latest = sorted(dated, key=lambda pair: pair[0], reverse=True)
    lines = [f"{len(dated)} sightings, latest first:" if len(dated) > 1 else "1 sighting:"]
    for moment, item in latest[:MAX_EVIDENCE_SHOWN]:
        parts = [f"{_utc(moment):%Y-%m-%d %H:%M} UTC"]
        parts += [f"session {item['session_id']}"] if item.get("session_id") else []
        parts += [printable(str(item["note"]))] if item.get("note") else []
        parts += [printable(str(item["kind"]))] if item.get("kind", "stated") != "stated" else []
        parts += [f"{k} {_scalar(v)}" for k, v in item.items() if k not in _EVIDENCE_FIELDS]
        lines.append("- " + ", ".join(parts))
    if len(latest) > MAX_EVIDENCE_SHOWN:
        lines.append(f"- … and {len(latest) - MAX_EVIDENCE_SHOWN} earlier")
    return lines


def _mapping(data: Mapping[str, Any]) -> list[str]:
    return [f"{key}: {_scalar(value)}" for key, value in data.items()]


def _value(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return _mapping(value)
    if isinstance(value, list | tuple):
        return [", ".join(_scalar(v) for v in value)] if value else []
    return [_scalar(value)]


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, datetime):
        return f"{_utc(value):%Y-%m-%d %H:%M} UTC"
    if isinstance(value, list | tuple):
        return ", ".join(_scalar(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_scalar(v)}" for k, v in value.items())
    return printable(json.dumps(value, ensure_ascii=False)) if value is not None else "-"


# --- what is said under a hit -------------------------------------------------------------

NOTE_MARK = "  ↳ "


def noted(lines: list[str], notes: Sequence[Sequence[str]], style: Style) -> list[str]:
    """Return a table's lines with, under each row that has one, its note on a dimmed line.

    ``lines`` is a header then one line per row; ``notes`` one list of phrases per row.

    >>> noted(["id", "pref-1", "pref-2"], [["not confirmed since 2026-08-02"], []], Style())
    ['id', 'pref-1', '  ↳ not confirmed since 2026-08-02', 'pref-2']
    """
    if not notes:
        return lines
    out = lines[:1]
    for line, said in zip(lines[1:], notes, strict=True):
        out.append(line)
        if said:
            text = fit(NOTE_MARK + " · ".join(printable(p) for p in said), style.width)
            out.append(style.paint(text, "dim"))
    return out


def flag_words(doc: Mapping[str, Any], now: datetime) -> list[str]:
    """Return the ``flags`` line of ``show``: what the memory's flags say, or ``none``.

    The settings are the memory home's and the memory's own project's.
    """
    from artibot_memory.core import config  # noqa: PLC0415 - show only
    from artibot_memory.recall import flags  # noqa: PLC0415

    project = doc.get("project")
    settings = config.load(None, project if isinstance(project, str) else None)
    return ["; ".join(flags.words(doc, now, settings)) or "none"]


def code_words(doc: Mapping[str, Any]) -> list[str]:
    """Return the ``code`` line of ``show``: what became of the files it names (docs/CODE.md).

    Nothing for a memory without anchors; ``unchanged since …`` when none moved; ``not
    checked`` when no current check of its project exists (outside git, HEAD moved since).
    """
    from artibot_memory.recall import codestate  # noqa: PLC0415 - show only

    state = codestate.memory_code_state(doc)
    if state is None:
        return []
    if not state["known"]:
        return [f"{len(state['files'])} file(s) anchored, not checked at this HEAD yet"]
    return [state["words"] or f"its {len(state['files'])} file(s) unchanged since"]


# --- JSON -----------------------------------------------------------------------------------


def versioned(data: Any) -> Any:
    """Mark a ``--json`` document with its version, changing nothing that was there.

    An object gains ``"schema"`` first; a list (``search``, ``list``, ``forget``, ``stats``)
    stays a list, and each object in it gains ``"schema"``: wrapping the list would break
    every reader of today's output. See :mod:`artibot_memory.cli.app`.

    >>> versioned({"a": 1}), versioned([{"a": 1}]), versioned([])
    ({'schema': 'artibot-memory/1', 'a': 1}, [{'schema': 'artibot-memory/1', 'a': 1}], [])
    """
    if isinstance(data, dict):
        return {"schema": JSON_SCHEMA, **data}
    if isinstance(data, list):
        return [versioned(item) if isinstance(item, dict) else item for item in data]
    return data


def json_document(data: Any) -> str:
    """Return ``data`` as the indented, versioned JSON text ``--json`` prints."""
    return json.dumps(versioned(data), indent=2, ensure_ascii=False, default=_plain) + "\n"


def _plain(value: Any) -> Any:
    """Return what JSON cannot hold as what it can: times as ISO 8601, records as objects."""
    if isinstance(value, datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    msg = f"{type(value).__name__} is not JSON"
    raise TypeError(msg)


# ---- proposals (promotion of candidates into MEMORY.md, docs/METADATA.md §4)


def proposals_lines(data: Mapping[str, Any], style: Style) -> list[str]:
    """Return ``proposals``: each with its signals in words, then the weekly review list."""
    proposed, review = data["proposals"], data["review"]
    if not proposed and not review:
        return ["no proposals: nothing new deserves MEMORY.md yet"]
    lines = []
    if proposed:
        lines.append(f"proposed for MEMORY.md ({len(proposed)}):")
        lines += [line for row in proposed for line in _proposal_lines(row, style)]
        lines.append(
            "accept with `artibot-memory proposals accept ID`, "
            "reject with `artibot-memory proposals reject ID`"
        )
    if review:
        lines += ["", "for the weekly review:"] if proposed else ["for the weekly review:"]
        lines += [line for row in review for line in _proposal_lines(row, style)]
    return lines


def _proposal_lines(row: Mapping[str, Any], style: Style) -> list[str]:
    where = f" [{row['project']}]" if row.get("project") else ""
    head = f"  {style.paint(row['id'], 'id')}{where} {row['kind']}: {printable(row['text'])}"
    lines = [head]
    for group in ("strong", "supporting"):
        if row[group]:
            said = "; ".join(f"{s['name']} ({printable(s['evidence'])})" for s in row[group])
            lines.append(f"    {group}: {said}")
    sources = row.get("sources") or []
    if sources:
        more = f" (+{len(sources) - 3})" if len(sources) > 3 else ""  # noqa: PLR2004 - shown
        lines.append(style.paint(f"    from {', '.join(sources[:3])}{more}", "dim"))
    return lines


def promoted_line(data: Mapping[str, Any]) -> str:
    """Return what ``proposals accept`` did, in one line."""
    return f"accepted {data['id']}: {data['ref']} → {data['outcome']}"


# --- conflicts ------------------------------------------------------------------------------


def conflict_data(entry: Entry) -> dict[str, Any]:
    """Return one ledger entry as ``conflicts --json`` prints it, with its resolve command."""
    data = dataclasses.asdict(entry)
    data["resolve"] = f"artibot-memory conflicts resolve {entry.id} --keep new|old|both"
    return data


def conflict_lines(found: Sequence[Mapping[str, Any]], style: Style) -> list[str]:
    """Return ``conflicts``: one block per conflict, both sides, then how to resolve it."""
    if not found:
        return ["no conflicts between memories"]
    lines: list[str] = []
    for item in found:
        role = "bad" if item["severity"] == "high" and item["status"] == "open" else None
        kind = f"{item['kind']} ({item['label']})" if item["label"] else item["kind"]
        heading = f"{item['id']}  {item['severity']}  {item['status']}  {kind}"
        lines += [""] if lines else []
        lines.append(style.paint(heading, role))
        for name in ("new", "old"):
            side = item.get(name)
            if side:
                lines.append(f"  {name}: {printable(side['text'])}")
                where = f"{side['id']} · {side['date']} · {side['source']} · {side['where']}"
                lines.append(style.paint(f"       {printable(where)}", "dim"))
        lines += [
            f"  context: {printable(item['context'])}",
            f"  proposal: {printable(item['proposal'])}",
        ]
        lines += [f"  resolution: {printable(line)}" for line in item["resolutions"]]
        if item["status"] == "open":
            lines.append(f"  resolve: {item['resolve']}")
    return lines


# --- evolve ---------------------------------------------------------------------------------


def evolve_lines(data: Mapping[str, Any], style: Style) -> list[str]:
    """Return ``evolve``'s report, seed 002's shape: each phase run, then the audit log."""
    dry = " (dry run: nothing written)" if data["dry_run"] else ""
    lines = [style.paint(f"Memory evolved ({data['date']}){dry}", "bold")]
    if data.get("consolidate") is not None:
        lines += ["", *_consolidate_lines(data["consolidate"], style)]
    if data.get("reflect") is not None:
        lines += ["", *_reflect_lines(data["reflect"], style)]
    if data.get("promote") is not None:
        lines += ["", *_promote_lines(data["promote"], style, dry=data["dry_run"])]
    if data.get("warnings"):
        lines += ["", f"Warnings ({len(data['warnings'])}):"]
        lines += [f"  - {printable(w)}" for w in data["warnings"]]
    return [*lines, "", f"Audit: {data['audit_log']}"]


def _consolidate_lines(phase: Mapping[str, Any], style: Style) -> list[str]:
    rows = phase["entities"]
    lines = ["Phase 1 — Consolidate", f"  Entities re-synthesised: {len(rows)}"]
    for row in rows:
        notes = [f"+{row['touches']} touches"]
        notes += ["new"] if row.get("created") else []
        notes += ["your profile kept: review, its facts changed"] if row.get("review") else []
        lines.append(f"  - {style.paint(row['path'], 'id')} ({', '.join(notes)})")
        lines += [f"      {printable(part)}" for part in _wrapped(row.get("profile") or "")]
        lines.append(
            style.paint(
                f"      better prose: artibot-memory profile set {row['entity']} --file F", "dim"
            )
        )
    return lines


def _wrapped(text: str, width: int = 88) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), width)


def _reflect_lines(phase: Mapping[str, Any], style: Style) -> list[str]:
    skipped = (
        f" ({phase['skipped']} skipped: reflected in the last 7 days)" if phase["skipped"] else ""
    )
    lines = ["Phase 2 — Reflect", f"  Beliefs re-evaluated: {phase['evaluated']}{skipped}"]
    notes = {"weakening": " (review recommended)"}
    lines += [
        f"  - {count} {name}{notes.get(name, '')}"
        for name, count in phase["freshness"].items()
        if count
    ]
    if phase["changed"]:
        lines.append(f"  Changed: {len(phase['changed'])}")
        for row in phase["changed"]:
            move = f"conf {row['old']:.2f}→{row['new']:.2f} {row['freshness']}"
            label = f"  {printable(row['label'])}" if row.get("label") else ""
            lines.append(f"  - {style.paint(row['id'], 'id')} {move}{label}")
    gone = phase.get("code_stale") or []
    if gone:
        lines.append(f"  Stale, their code is gone: {len(gone)}")
        lines += [f"  - {style.paint(r['id'], 'id')} {printable(r['reason'])}" for r in gone]
    return lines


def _promote_lines(phase: Mapping[str, Any], style: Style, *, dry: bool = False) -> list[str]:
    at = phase["thresholds"]
    mode = phase["mode"]
    active = f"{phase['beliefs']} active belief{'' if phase['beliefs'] == 1 else 's'}"
    why = (
        f" ({active}, fewer than {phase['bootstrap_below']})"
        if mode == "bootstrap"
        else f" ({active})"
    )
    lines = [
        "Phase 3 — Promote",
        f"  Mode: {mode}{why}",
        f"  Effective thresholds: conf>={at['confidence']:.2f} sources>={at['sources']}",
    ]
    if not phase["writable"]:
        where = "computed, not written (auto_promote is off, or MEMORY.md is missing)"
    elif dry:
        where = "in MEMORY.md once this runs without --dry-run"
    else:
        where = "in MEMORY.md" + ("" if phase["written"] else " (unchanged)")
    lines.append(f"  Top {len(phase['top'])} beliefs {where}.")
    lines.append(f"  Promoted: {len(phase['promoted'])}")
    lines += [
        f"  - {style.paint(r['id'], 'id')} conf={r['confidence']:.2f} sources={r['sources']}"
        for r in phase["promoted"]
    ]
    lines.append(f"  Demoted: {len(phase['demoted'])}")
    lines += [
        f"  - {style.paint(r['id'], 'id')} (now conf={r['confidence']:.2f}; {r['reason']})"
        for r in phase["demoted"]
    ]
    return lines


def profile_lines(found: Sequence[Mapping[str, Any]], style: Style) -> list[str]:
    """Return ``profile list``: one row per entity, its touches since it was consolidated."""
    if not found:
        return ["no entities yet: projects, people and tools appear as the notes name them"]
    rows = [
        [
            Cell(item["entity"]),
            Cell(str(item["touches"]), "bad" if item["due"] else None),
            Cell("due" if item["due"] else ""),
            Cell((item["last_consolidated"] or "never")[:10], "dim"),
            Cell(item["path"] + ("" if item["exists"] else " (not yet)")),
        ]
        for item in found
    ]
    return table(["ENTITY", "TOUCHES", "DUE", "CONSOLIDATED", "FILE"], rows, style, right=[1])
