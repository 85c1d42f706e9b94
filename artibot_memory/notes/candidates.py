"""Promotion candidates, pure: the stores' records and the daily notes' items in, proposals out.

What :mod:`artibot_memory.api.proposals` reads from the memory home becomes here the
:class:`~artibot_memory.notes.promotion.Candidate` of each thing MEMORY.md does not hold
yet, with everything recorded of it:

- a memory (a pending preference; a live one a note cites that MEMORY.md does not list):
  its evidence (sessions, days, kinds: ``stated`` when an entry has none), its access count
  and last access, the value of its key it superseded and a MEMORY.md edit (corrections), a
  named person (a ``person:`` tag, or scope ``person``);
- a note's item without a memory: every bullet of the same text in the same project, each
  a sighting in the session its source names (``session 1a2b3c4d:88``);
- for both, the active preferences and decisions it goes with (same key or subject, or
  linked in ``related``), and the core projects: the N projects with the most session
  summaries in the window.

Nothing here reads a file or the clock.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from artibot_memory.capture.sessions import asks_of
from artibot_memory.core.project import display_name
from artibot_memory.notes.consolidate import DECISION_TAG, Item
from artibot_memory.notes.promotion import Assessment, Candidate, Sighting
from artibot_memory.notes.semantic import SESSION_KEY, is_summary
from artibot_memory.store import layers
from artibot_memory.store.model import Memory, MemoryType, Scope, State
from artibot_memory.text import markdown
from artibot_memory.text.polarity import stance
from artibot_memory.text.subjects import subject_key
from artibot_memory.text.tokens import normalize_text, tokenize

MIN_ASKED_WORDS = 2  # subject words a later prompt shares with a candidate to refer to it
SESSION_SOURCE = re.compile(r"^session ([0-9A-Za-z]+):")
PREFERENCE_NOTE = re.compile(r"^(?:preference detected|선호 감지)\s*:", re.IGNORECASE)


@dataclass
class Proposal:
    """One candidate with its signals: what it promotes, where it is written, the verdict."""

    id: str
    candidate: Candidate
    assessment: Assessment
    memory_id: str | None = None  # the memory it promotes; None: a note's item
    sources: list[str] = field(default_factory=list)  # daily/…md:14, or the memory's id
    project_path: str | None = None  # the project a created context belongs to

    @property
    def verdict(self) -> str:
        """``propose`` or ``review``."""
        return self.assessment.verdict

    def as_dict(self) -> dict[str, Any]:
        """Return the proposal as ``--json`` shows it."""
        candidate = self.candidate
        return {
            "id": self.id,
            "verdict": self.verdict,
            "ref": candidate.ref,
            "memory": self.memory_id,
            "kind": candidate.kind,
            "text": candidate.text,
            "project": candidate.project,
            "sessions": len(candidate.sessions),
            "days": candidate.days,
            "sources": self.sources,
            "strong": [s.as_dict() for s in self.assessment.strong],
            "supporting": [s.as_dict() for s in self.assessment.supporting],
        }


def proposal_id(what: str) -> str:
    """Return the stable id of a proposal from what it promotes (a memory id, a note's text).

    >>> proposal_id("pref-0a1b2c3d4e") == proposal_id("pref-0a1b2c3d4e")
    True
    >>> len(proposal_id("x"))
    13
    """
    return "prop-" + hashlib.blake2b(what.encode("utf-8"), digest_size=4).hexdigest()


def is_pending_preference(memory: Memory) -> bool:
    """Tell whether a memory is a preference waiting for confirmation."""
    return memory.type is MemoryType.PREFERENCE and memory.state is State.PENDING


def core_projects(
    records: Iterable[Memory], now: datetime, count: int, window_days: int
) -> dict[str, int]:
    """Return the ``count`` projects with the most session summaries in the window.

    Keyed by display name, each with its number of sessions; ties go to the name first.
    """
    since = now - timedelta(days=window_days)
    sessions = Counter(
        display_name(m.project)
        for m in records
        if m.project and is_summary(m) and m.last_seen >= since
    )
    ranked = sorted(sessions.items(), key=lambda pair: (-pair[1], pair[0]))
    return dict(ranked[:count])


# ---- candidates from the stores


def from_memory(memory: Memory, records: Sequence[Memory]) -> Proposal:
    """Return the (not yet assessed) proposal of a memory, with all that is recorded of it."""
    candidate = Candidate(
        ref=memory.id,
        text=memory.text,
        kind=_kind_of(memory),
        project=_project_of(memory, records),
        person=_person_of(memory),
        confidence=memory.confidence,
        sightings=(
            *(
                Sighting(e.at, e.session_id, getattr(e, "kind", None) or "stated", memory.id)
                for e in memory.evidence
            ),
            *asked_again(memory, records),
        ),
        accessed=memory.last_accessed,
        access_count=memory.access_count,
        corrections=_corrections(memory, records),
        related=_related(memory.id, memory.key or subject_key(memory.text), memory, records),
    )
    return Proposal(proposal_id(memory.id), candidate, Assessment(), memory.id, [memory.id])


def _project_of(memory: Memory, records: Sequence[Memory]) -> str | None:
    """Return a memory's project, or for a global one the project it was first stated in."""
    if memory.project:
        return display_name(memory.project)
    first = min(memory.evidence, key=lambda e: e.at, default=None)
    session = first.session_id if first is not None else memory.source.session_id
    summary = next((m for m in records if m.key == f"{SESSION_KEY}{session}"), None)
    return display_name(summary.project) if summary and summary.project else None


def asked_again(memory: Memory, records: Sequence[Memory]) -> tuple[Sighting, ...]:
    """Return the later sessions whose prompts asked for what ``memory`` says, in other words.

    A prompt of another, later session (read from its summary's ``Asked`` line) that holds
    at least :data:`MIN_ASKED_WORDS` of the memory's subject words, and half of them, refers
    to it ("Commit the network split as small commits" after "I prefer small, focused
    commits"): a sighting of kind ``asked``, where the summary's id.
    """
    words = _subject_words(memory.text)
    if len(words) < MIN_ASKED_WORDS:
        return ()
    own = {e.session_id for e in memory.evidence} | {memory.source.session_id}
    first = min((e.at for e in memory.evidence), default=memory.created_at)
    found = []
    for summary in records:
        session = summary.source.session_id
        if not is_summary(summary) or session in own or summary.created_at <= first:
            continue
        for ask in asks_of(summary.text):
            shared = words & set(tokenize(ask))
            if len(shared) >= max(MIN_ASKED_WORDS, len(words) / 2):
                found.append(Sighting(summary.created_at, session, "asked", summary.id))
                break
    return tuple(found)


def _subject_words(text: str) -> set[str]:
    said = stance(text)
    return set(said.subject) if said is not None else set(tokenize(text))


def _kind_of(memory: Memory) -> str:
    if memory.type is MemoryType.PREFERENCE:
        return "preference"
    if DECISION_TAG in memory.tags:
        return DECISION_TAG
    if "lesson" in memory.tags:
        return "lesson"
    return "event" if is_summary(memory) else "fact"


def _person_of(memory: Memory) -> str | None:
    named = [t.removeprefix("person:") for t in memory.tags if t.startswith("person:")]
    if named:
        return named[0]
    return "a named person" if memory.scope is Scope.PERSON else None


def _corrections(memory: Memory, records: Sequence[Memory]) -> tuple[str, ...]:
    found = []
    old_id = str(memory.details.get("supersedes") or "")
    old = next((m for m in records if m.id == old_id), None)
    if old is not None:
        found.append(f"corrects {old.id} (“{old.text}”)")
    if memory.source.channel == layers.MEMORY_MD:
        found.append(f"written in MEMORY.md by the user (line {memory.source.line})")
    return tuple(found)


def _related(
    own: str | None, subject: str | None, memory: Memory | None, records: Sequence[Memory]
) -> tuple[str, ...]:
    """Return the active preferences and decisions this goes with: ``pref-… (“its text”)``."""
    links = set(memory.related) if memory is not None else set()
    found = []
    for other in records:
        if other.id == own or other.state is not State.ACTIVE:
            continue
        if other.type is not MemoryType.PREFERENCE and DECISION_TAG not in other.tags:
            continue
        same_subject = subject is not None and subject in {other.key, subject_key(other.text)}
        if same_subject or other.id in links or (own is not None and own in other.related):
            found.append(f"{other.id} (“{other.text}”)")
    return tuple(found)


# ---- candidates from the daily notes


@dataclass(frozen=True)
class Noted:
    """A daily note's item, with the session its source names (None: a memory or none)."""

    item: Item
    session: str | None


def sessions_by_line(text: str) -> dict[int, str]:
    """Return the session each bullet's source names, by line (``session 1a2b3c4d:88``)."""
    found = {}
    for section in markdown.parse(text).sections:
        for bullet in markdown.bullets(section):
            parsed = markdown.parse_daily_bullet(bullet.text)
            match = SESSION_SOURCE.match(parsed.source or "") if parsed else None
            if match:
                found[bullet.line] = match.group(1)
    return found


def from_notes(
    noted: Sequence[Noted], records: Sequence[Memory], shown: set[str], taken: set[str | None]
) -> list[Proposal]:
    """Return the candidates of the notes' items that MEMORY.md does not hold yet."""
    by_id = {m.id: m for m in records}
    shown_texts = {normalize_text(m.text) for m in records if m.id in shown}
    cited: dict[str, list[Noted]] = {}
    groups: dict[tuple[str, str | None], list[Noted]] = {}
    for entry in noted:
        memory_id = entry.item.memory_id
        if memory_id is not None:
            cited.setdefault(memory_id, []).append(entry)
            continue
        text = normalize_text(entry.item.text)
        if text and text not in shown_texts:
            groups.setdefault((text, entry.item.project), []).append(entry)
    found = []
    for memory_id, entries in cited.items():
        memory = by_id.get(memory_id)
        if memory is None or memory_id in shown or memory_id in taken:
            continue
        if memory.state is State.ACTIVE or is_pending_preference(memory):
            proposal = from_memory(memory, records)
            proposal.candidate = _noted_days(proposal.candidate, entries)
            proposal.sources = [e.item.where for e in entries]
            found.append(proposal)
    paths = {display_name(m.project): m.project for m in records if m.project}
    for (text, project), entries in groups.items():
        found.append(_from_items(text, project, entries, records, paths))
    return found


def _noted_days(candidate: Candidate, entries: Sequence[Noted]) -> Candidate:
    """Add the days the notes cite a memory on that its evidence lacks (no session known)."""
    days = set(candidate.days)
    more = [
        Sighting(e.item.moment, None, "stated", e.item.where)
        for e in entries
        if e.item.day.isoformat() not in days
    ]
    return replace(candidate, sightings=(*candidate.sightings, *more)) if more else candidate


def _from_items(
    text: str,
    project: str | None,
    entries: Sequence[Noted],
    records: Sequence[Memory],
    paths: dict[str, str],
) -> Proposal:
    first = entries[0].item
    decision = any(e.item.section == "Decisions" for e in entries)
    kind = (
        DECISION_TAG
        if decision
        else ("preference" if PREFERENCE_NOTE.match(first.text) else "observation")
    )
    candidate = Candidate(
        ref=first.where,
        text=first.text,
        kind=kind,
        project=project,
        sightings=tuple(
            Sighting(e.item.moment, e.session, "stated", e.item.where) for e in entries
        ),
        related=_related(None, subject_key(first.text), None, records),
    )
    proposal_of = proposal_id(f"note:{project or ''}:{text}")
    sources = list(dict.fromkeys(e.item.where for e in entries))
    project_path = paths.get(project, project) if project else None
    return Proposal(proposal_of, candidate, Assessment(), None, sources, project_path)
