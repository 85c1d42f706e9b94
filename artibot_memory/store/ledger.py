r"""The conflict ledger as the reads see it: ``conflicts/YYYY-MM-DD.md`` (standard library only).

One file per local day a conflict was found, one ``## `` section per conflict
(docs/METADATA.md §3), read through :mod:`artibot_memory.text.markdown` (the one parser).
Its writer is :mod:`artibot_memory.api.conflicts`, its sections are drawn by
:func:`artibot_memory.notes.conflicts.render_entry`; this is the one reader, here so the
SessionStart (which may not import ``notes/``) names open conflicts from it too.

A conflict is ``resolved`` once its section holds a ``- resolution:`` line, whatever its
heading says (a resolution appends its line; the heading's status follows it).

>>> text = '''# Conflicts 2026-11-30
...
... ## cf-3f9a2c1b · high · open
... - kind: same-key (package-manager)
... - new: "Use npm" (pref-01, 2026-11-30, transcript.jsonl:14, hook:UserPromptSubmit)
... - old: "Use pnpm" (pref-02, 2026-11-02, MEMORY.md:12, MEMORY.md)
... - proposal: keep new — the newer statement
... '''
>>> [entry] = parse_ledger(text, "conflicts/2026-11-30.md")
>>> entry.id, entry.severity, entry.status, entry.kind, entry.label, entry.new.id
('cf-3f9a2c1b', 'high', 'open', 'same-key', 'package-manager', 'pref-01')
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from artibot_memory.text.markdown import bullets, parse

LEDGER_DIR = "conflicts"
OPEN, RESOLVED = "open", "resolved"
SEVERITIES = ("low", "medium", "high")
_HEADING = re.compile(r"^(?P<id>cf-[0-9a-f]{8})\s*·\s*(?P<severity>\w+)\s*·\s*(?P<status>\w+)$")
_FIELD = re.compile(r"^(?P<name>[a-z]+):\s*(?P<value>.*)$")
_KIND = re.compile(r"^(?P<kind>[\w-]+)(?:\s+\((?P<label>.*)\))?$")
_SIDE = re.compile(
    r'^"(?P<text>.*)"\s+\((?P<id>[^,\s]+),\s*(?P<date>[^,]*),\s*(?P<source>.*),\s*(?P<where>[^,]*)\)$'
)
_DAY_FILE = re.compile(r"^\d{4}-\d\d-\d\d\.md$")


@dataclass(frozen=True)
class Side:
    """One memory of a conflict as the ledger shows it: its text, id, date, source, channel."""

    text: str
    id: str
    date: str
    source: str
    where: str

    def line(self) -> str:
        """Write the side as its ledger line's value.

        >>> Side("Use pnpm", "pref-1", "2026-11-02", "MEMORY.md:12", "MEMORY.md").line()
        '"Use pnpm" (pref-1, 2026-11-02, MEMORY.md:12, MEMORY.md)'
        """
        return f'"{self.text}" ({self.id}, {self.date}, {self.source}, {self.where})'


@dataclass
class Entry:
    """One conflict of the ledger: its heading, its fields, where it is written."""

    id: str
    severity: str
    status: str
    kind: str = ""
    label: str = ""
    new: Side | None = None
    old: Side | None = None
    context: str = ""
    proposal: str = ""
    resolutions: list[str] = field(default_factory=list)
    path: str = ""  # relative to the memory home
    line: int = 0  # the heading's

    @property
    def is_open(self) -> bool:
        """Tell whether nobody has resolved it yet."""
        return self.status == OPEN


def read_side(value: str) -> Side | None:
    """Read a ``new:`` or ``old:`` value back (None: not in the shape :meth:`Side.line` writes)."""
    match = _SIDE.match(value.strip())
    if match is None:
        return None
    return Side(match["text"], match["id"], match["date"], match["source"], match["where"])


def parse_ledger(text: str, path: str, *, severity: str | None = None) -> list[Entry]:
    """Return the conflicts of one ledger file (sections whose heading is not one are skipped).

    ``severity``: only the open conflicts of that severity, told from their headings (the
    others' lines are not read).
    """
    found = []
    for section in parse(text).sections:
        heading = _HEADING.match(section.title.strip())
        if heading is None:
            continue
        if severity is not None and (heading["severity"], heading["status"]) != (severity, OPEN):
            continue
        entry = Entry(heading["id"], heading["severity"], heading["status"], path=path)
        entry.line = section.heading.number
        for bullet in bullets(section):
            _take(entry, bullet.text)
        if entry.resolutions:
            entry.status = RESOLVED
        found.append(entry)
    return found


def _take(entry: Entry, text: str) -> None:
    match = _FIELD.match(text)
    if match is None:
        return
    name, value = match["name"], match["value"]
    if name == "kind":
        kind = _KIND.match(value.strip())
        entry.kind, entry.label = (kind["kind"], kind["label"] or "") if kind else (value, "")
    elif name in {"new", "old"}:
        setattr(entry, name, read_side(value))
    elif name in {"context", "proposal"}:
        setattr(entry, name, value)
    elif name == "resolution":
        entry.resolutions.append(value)


def ledger_path(home: str | os.PathLike[str], day: str) -> str:
    """Return the ledger file of a local day (``YYYY-MM-DD``)."""
    return os.path.join(home, LEDGER_DIR, f"{day}.md")


def ledger_files(home: str | os.PathLike[str]) -> list[str]:
    """Return the ledger's day files, oldest first (none when the folder is missing)."""
    folder = os.path.join(home, LEDGER_DIR)
    try:
        names = sorted(name for name in os.listdir(folder) if _DAY_FILE.match(name))
    except OSError:
        return []
    return [os.path.join(folder, name) for name in names]


def entries(home: str | os.PathLike[str], *, severity: str | None = None) -> list[Entry]:
    """Return every conflict of the ledger, oldest day first (an unreadable file is skipped).

    ``severity``: only the open ones of that severity (a file with none is not parsed).
    """
    found: list[Entry] = []
    for path in ledger_files(home):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        if severity is not None and f"· {severity} · {OPEN}" not in text:
            continue
        name = f"{LEDGER_DIR}/{os.path.basename(path)}"
        found += parse_ledger(text, name, severity=severity)
    return found


def open_high(home: str | os.PathLike[str]) -> list[Entry]:
    """Return the open conflicts of high severity, oldest first: the ones a session is told."""
    return [entry for entry in entries(home, severity="high") if entry.is_open]
