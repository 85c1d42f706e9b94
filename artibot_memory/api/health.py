"""What a check of ``artibot-memory doctor`` says: a state, a problem in words, a line.

Every check (:mod:`artibot_memory.api.doctor`, :mod:`artibot_memory.api.codex_trust`) gives
one :class:`StoreHealth`; its ``state`` is one of the names below, and ``ok`` tells whether
what it checked can be used as it is.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from artibot_memory.capture import journal

OK = "ok"
MISSING = "missing"
CORRUPT = "corrupt"
NEWER_SCHEMA = "newer-schema"
UNSAFE_LINK = "unsafe-link"
LOOSE_MODE = "loose-mode"
UNTRUSTED = "untrusted"
UNREADABLE = "unreadable"
USABLE = frozenset({OK, MISSING})


@dataclass(frozen=True)
class FileHealth:
    """What one file is: its state, the problem in words, how many entries it holds."""

    state: str
    problem: str | None = None
    entries: int | None = None


@dataclass(frozen=True)
class StoreHealth:
    """One check of :func:`diagnose`: a store with its backup, the journal, or the modes.

    >>> StoreHealth("journal.jsonl", Path("/h/journal.jsonl"), MISSING).ok
    True
    """

    name: str
    path: Path
    state: str
    problem: str | None = None
    entries: int | None = None
    backup: str | None = None
    backup_entries: int | None = None
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Tell whether this can be used as it is (a missing file counts: it reads as empty)."""
        return self.state in USABLE

    def line(self) -> str:
        """One line for people: state, file, what is in it or what is wrong.

        >>> StoreHealth("x.json", Path("/h/x.json"), OK, entries=3, backup=MISSING).line()
        'ok            x.json: 3 entries; no backup yet'
        """
        where = self.name if self.ok else str(self.path)
        if not self.ok and self.path.name != self.name:  # a check of the whole home
            where = f"{self.name} in {self.path}"
        parts = [self.problem or self._contents(), *self._backup_part(), *self.notes]
        # No journal yet is the normal state of a quiet home, not a problem worth a word.
        state = OK if self.state == MISSING and self.name == journal.JOURNAL_NAME else self.state
        return f"{state:<13} {where}: {'; '.join(parts)}"

    def _contents(self) -> str:
        if self.state == MISSING:
            return "not created yet (reads as empty)"
        return counted(self.entries, "entry", "entries") if self.entries is not None else "fine"

    def _backup_part(self) -> list[str]:
        if self.backup is None:
            return []
        if self.backup == MISSING:
            return ["no backup yet"]
        if self.backup == OK:
            return [f"backup ok ({counted(self.backup_entries or 0, 'entry', 'entries')})"]
        return [f"backup {self.backup} (not usable)"]

    def as_dict(self) -> dict[str, Any]:
        """Return the check as JSON-ready data (``ok`` included)."""
        return {**asdict(self), "path": str(self.path), "notes": list(self.notes), "ok": self.ok}


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """Say how many, in words that agree.

    >>> counted(1, "entry", "entries"), counted(2, "record")
    ('1 entry', '2 records')
    """
    return f"{number} {singular if number == 1 else plural or singular + 's'}"
