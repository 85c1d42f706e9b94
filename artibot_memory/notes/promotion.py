"""What deserves MEMORY.md: seed 001's promotion signals and its rule, pure.

A :class:`Candidate` is something not yet in MEMORY.md (a pending preference, a decision or
an observation of the daily notes) with what was recorded of it: each sighting (when, in
which session, how: stated, used, confirmed), the searches that handed it back, whether the
user corrected it. :func:`assess` reads the signals off it, each with the evidence that
made it, and applies the rule:

- strong: ``referenced`` (a later session stated or used it again, or a search handed it
  back after the day it was first seen), ``repeated`` (``promotion.repeat_min`` days or
  sessions), ``core`` (of one of the most active projects, or about a named person),
  ``reinforced`` (confirmed, corrected, or written into MEMORY.md by the user);
- supporting: ``confident`` (confidence of at least ``promotion.high_confidence``),
  ``useful`` (a preference, decision or lesson rather than an event), ``related`` (to an
  active decision or preference);
- 2 strong or more, or 1 strong and 2 supporting or more: **propose**; supporting ones
  only: **review** (the weekly review list); anything else: **none**.

Nothing here reads a file or the clock: :mod:`artibot_memory.api.proposals` gathers the
candidates and promotes. Seed 003's rule is :attr:`Candidate.sessions`: a candidate seen in
one session only is never promoted without the user.

>>> from datetime import datetime, timezone
>>> day = datetime(2026, 11, 20, 10, tzinfo=timezone.utc)
>>> seen = tuple(Sighting(day.replace(day=20 + n), f"session{n}") for n in range(3))
>>> found = assess(Candidate("pref-1", "Use pnpm", "preference", sightings=seen))
>>> found.verdict, [s.name for s in found.strong], [s.name for s in found.supporting]
('propose', ['referenced', 'repeated'], ['useful'])
>>> found.strong[0].evidence
'stated again in session session1 on 2026-11-21'
>>> assess(Candidate("pref-1", "Use pnpm", "preference", sightings=seen[:2])).verdict
'none'

"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from artibot_memory.core.config import Config
from artibot_memory.store import layers

PROPOSE, REVIEW, NONE = "propose", "review", "none"
REFERRING = frozenset({"stated", "used", "asked"})  # a later session's reference to it
_REFERRED = {"stated": "stated again", "used": "followed", "asked": "asked for again"}
USEFUL_KINDS = frozenset({"preference", "decision", "lesson"})
DEFAULTS: Mapping[str, float] = {
    "promotion.repeat_min": 3,
    "promotion.high_confidence": 0.8,
}
STRONG_FOR_PROPOSAL = 2
SUPPORTING_WITH_ONE_STRONG = 2


@dataclass(frozen=True)
class Sighting:
    """One time a candidate was seen.

    When, in which session, how (``stated``, ``used``, ``confirmed``), and where it is
    written (a note's path:line, a memory's id).
    """

    at: datetime
    session: str | None = None
    kind: str = "stated"
    where: str | None = None

    @property
    def day(self) -> str:
        """The local day of the sighting, ``YYYY-MM-DD``."""
        return layers.local_day(self.at)


@dataclass(frozen=True)
class Candidate:
    """Something that could go into MEMORY.md, and what is recorded of it.

    ``ref`` is what it promotes (a memory id, or a note's ``daily/…md:14``); ``kind`` is
    ``preference``, ``decision``, ``lesson``, ``observation``, ``fact`` or ``event``;
    ``accessed`` the last time a search handed it back, ``access_count`` how often; ``corrections``
    and ``related`` are sentences of evidence the caller found (a superseded value, an
    active preference it goes with).
    """

    ref: str
    text: str
    kind: str
    project: str | None = None  # a display name
    person: str | None = None  # the named person it is about
    confidence: float | None = None
    sightings: tuple[Sighting, ...] = ()
    accessed: datetime | None = None
    access_count: int = 0
    corrections: tuple[str, ...] = ()
    related: tuple[str, ...] = ()

    @property
    def sessions(self) -> list[str]:
        """The distinct sessions it was seen in, first seen first."""
        ordered = sorted(self.sightings, key=lambda s: s.at)
        return list(dict.fromkeys(s.session for s in ordered if s.session))

    @property
    def days(self) -> list[str]:
        """The distinct local days it was seen on, in order."""
        return sorted({s.day for s in self.sightings})


@dataclass(frozen=True)
class Signal:
    """One signal and the evidence that made it ("stated again in session 5e6f7a8b on …")."""

    name: str
    evidence: str

    def as_dict(self) -> dict[str, str]:
        """Return the signal as ``--json`` shows it."""
        return {"name": self.name, "evidence": self.evidence}


@dataclass(frozen=True)
class Assessment:
    """A candidate's signals and what the rule makes of them."""

    strong: list[Signal] = field(default_factory=list)
    supporting: list[Signal] = field(default_factory=list)
    verdict: str = NONE


def verdict(strong: int, supporting: int) -> str:
    """Return the rule's verdict for this many strong and supporting signals.

    >>> verdict(2, 0), verdict(1, 2), verdict(1, 1), verdict(0, 3), verdict(0, 0)
    ('propose', 'propose', 'none', 'review', 'none')
    """
    if strong >= STRONG_FOR_PROPOSAL:
        return PROPOSE
    if strong == 1 and supporting >= SUPPORTING_WITH_ONE_STRONG:
        return PROPOSE
    if strong == 0 and supporting:
        return REVIEW
    return NONE


def assess(
    candidate: Candidate,
    *,
    core_projects: Mapping[str, int] | None = None,
    settings: Mapping[str, float] | Config = DEFAULTS,
) -> Assessment:
    """Return the candidate's signals and verdict.

    ``core_projects`` maps each core project's display name to its sessions in the window;
    ``settings`` holds ``promotion.repeat_min`` and ``promotion.high_confidence`` (a
    :class:`~artibot_memory.core.config.Config` will do).
    """
    core = core_projects or {}
    strong = [
        signal
        for signal in (
            referenced(candidate),
            repeated(candidate, int(settings["promotion.repeat_min"])),
            core_signal(candidate, core),
            reinforced(candidate),
        )
        if signal is not None
    ]
    supporting = [
        signal
        for signal in (
            confident(candidate, float(settings["promotion.high_confidence"])),
            useful(candidate),
            related(candidate),
        )
        if signal is not None
    ]
    return Assessment(strong, supporting, verdict(len(strong), len(supporting)))


# ---- strong signals


def referenced(candidate: Candidate) -> Signal | None:
    """Return ``referenced``: a later session stated or used it, or a later search found it."""
    ordered = sorted(candidate.sightings, key=lambda s: s.at)
    first = ordered[0] if ordered else None
    later = [
        s
        for s in ordered[1:]
        if first and s.session and s.session != first.session and s.kind in REFERRING
    ]
    if later:
        again = later[0]
        how = _REFERRED[again.kind]
        return Signal("referenced", f"{how} in session {str(again.session)[:8]} on {again.day}")
    last = candidate.accessed
    if (
        last is not None
        and candidate.access_count
        and (first is None or layers.local_day(last) > first.day)
    ):
        times = f", {candidate.access_count} times in all" if candidate.access_count > 1 else ""
        return Signal("referenced", f"handed back by a search on {layers.local_day(last)}{times}")
    return None


def repeated(candidate: Candidate, minimum: int) -> Signal | None:
    """Return ``repeated``: seen on ``minimum`` days or more, or in as many sessions."""
    sessions, days = len(candidate.sessions), len(candidate.days)
    if max(sessions, days) < minimum:
        return None
    if not sessions:
        return Signal("repeated", f"seen on {_count(days, 'day')}")
    return Signal("repeated", f"seen in {_count(sessions, 'session')} over {_count(days, 'day')}")


def core_signal(candidate: Candidate, core_projects: Mapping[str, int]) -> Signal | None:
    """Return ``core``: of a core project (one of the most active), or about a named person."""
    if candidate.person:
        return Signal("core", f"about {candidate.person}")
    if candidate.project and candidate.project in core_projects:
        sessions = _count(core_projects[candidate.project], "session")
        return Signal("core", f"of {candidate.project}, a core project ({sessions} lately)")
    return None


def reinforced(candidate: Candidate) -> Signal | None:
    """Return ``reinforced``: the user confirmed it, corrected a value with it, or wrote it."""
    if candidate.corrections:
        return Signal("reinforced", candidate.corrections[0])
    confirmed = [s for s in candidate.sightings if s.kind == "confirmed"]
    if confirmed:
        last = max(confirmed, key=lambda s: s.at)
        where = f" ({last.where})" if last.where else ""
        return Signal("reinforced", f"confirmed on {last.day}{where}")
    return None


# ---- supporting signals


def confident(candidate: Candidate, threshold: float) -> Signal | None:
    """Return ``confident``: its confidence is at least ``threshold``."""
    if candidate.confidence is None or candidate.confidence < threshold:
        return None
    return Signal("confident", f"confidence {candidate.confidence:.2f}")


def useful(candidate: Candidate) -> Signal | None:
    """Return ``useful``: a preference, a decision or a lesson, not an event."""
    if candidate.kind not in USEFUL_KINDS:
        return None
    return Signal("useful", f"a {candidate.kind}")


def related(candidate: Candidate) -> Signal | None:
    """Return ``related``: it goes with an active decision or preference."""
    if not candidate.related:
        return None
    more = f" (+{len(candidate.related) - 1})" if len(candidate.related) > 1 else ""
    return Signal("related", f"{candidate.related[0]}{more}")


def _count(number: int, noun: str) -> str:
    """``1 session``, ``3 days``.

    >>> _count(1, "session"), _count(3, "day")
    ('1 session', '3 days')
    """
    return f"{number} {noun}{'' if number == 1 else 's'}"


def names(signals: Sequence[Signal]) -> str:
    """Return the signals' names, comma-separated, as the audit line shows them.

    >>> names([Signal("referenced", ""), Signal("repeated", "")])
    'referenced,repeated'
    """
    return ",".join(signal.name for signal in signals) or "-"
