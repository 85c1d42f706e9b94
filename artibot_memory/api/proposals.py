"""Promotion proposals (seed 001): what deserves MEMORY.md, proposed, accepted or rejected.

The candidates are what MEMORY.md does not hold yet: pending preferences, and the
decisions and observations of the daily notes that are not a live memory pinned there
(tag ``memory-md``) or listed there (a managed line's marker). Each one's signals are
computed from what is recorded (:mod:`artibot_memory.notes.promotion` has the rule):

- a memory's evidence (sessions, days, kinds), its access count (the search hits a session
  used, counted at each ingest), a superseded value of its key (a correction), a
  MEMORY.md edit (its source's channel);
- a note's item: every bullet of the same text in the same project, its session from the
  bullet's source (``session 1a2b3c4d:88``);
- the core projects: the ``promotion.core_projects`` projects with the most session
  summaries in the last ``promotion.core_window_days``;
- a named person: scope ``person`` or a ``person:`` tag; related: an active preference or
  decision sharing its key or subject, or linked in ``related``.

:func:`accept` makes a pending preference active, pins a memory with the ``memory-md``
tag, or saves a note's item as a pinned context whose source is the note's path and line;
either way a ``PROMOTE`` line goes to ``evolution.log``. :func:`reject` keeps the id and
the time in ``proposals.json`` in the memory home; a rejected candidate is not proposed
again for ``promotion.reject_days``. With ``promotion.auto_promote``,
:func:`auto_promote` (run once at each session end) accepts every proposed candidate
seen in 2 sessions or more: one session is never enough without the user (seed 003).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from artibot_memory.api import memories
from artibot_memory.api.consolidate import notes_dir, restate, shown_in_memory_md
from artibot_memory.core import clock, config, disk
from artibot_memory.core.errors import UsageError
from artibot_memory.core.paths import ensure_private_dir, memory_home
from artibot_memory.core.project import display_name
from artibot_memory.notes.consolidate import DECISION_TAG, PIN_TAG, Item, day_of, read_day
from artibot_memory.notes.promotion import (
    NONE,
    PROPOSE,
    REVIEW,
    Assessment,
    Candidate,
    Sighting,
    assess,
    names,
)
from artibot_memory.notes.semantic import lines_for
from artibot_memory.store import audit, layers
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Evidence, Memory, MemoryType, Scope, Source, State
from artibot_memory.store.table import spec_for
from artibot_memory.text import markdown
from artibot_memory.text.subjects import subject_key
from artibot_memory.text.tokens import normalize_text

FILE_NAME = "proposals.json"  # {"rejected": {"prop-…": {"at": "<ISO 8601>", "ref": "…"}}}
CHANNEL = "proposals"
SECTIONS = frozenset({"Decisions", "Observations"})
SESSION_SOURCE = re.compile(r"^session ([0-9A-Za-z]+):")
PREFERENCE_NOTE = re.compile(r"^(?:preference detected|선호 감지)\s*:", re.IGNORECASE)
MIN_SESSIONS_TO_AUTO_PROMOTE = 2  # seed 003: one occurrence never becomes a belief by itself
SUMMARY_TAG = "session-summary"


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


@dataclass
class Promoted:
    """What accepting a proposal did: the memory it made or changed, and the audit line."""

    proposal: str
    ref: str
    memory_id: str
    outcome: str
    audit: str

    def as_dict(self) -> dict[str, str]:
        """Return it as ``--json`` shows it."""
        return {
            "id": self.proposal,
            "ref": self.ref,
            "memory": self.memory_id,
            "outcome": self.outcome,
            "audit": self.audit,
        }


def proposal_id(what: str) -> str:
    """Return the stable id of a proposal from what it promotes (a memory id, a note's text).

    >>> proposal_id("pref-0a1b2c3d4e") == proposal_id("pref-0a1b2c3d4e")
    True
    >>> len(proposal_id("x"))
    13
    """
    return "prop-" + hashlib.blake2b(what.encode("utf-8"), digest_size=4).hexdigest()


# ---- the lists


def assess_all(
    home: Path | None = None, now: datetime | None = None, *, project: str | None = None
) -> list[Proposal]:
    """Return every candidate the rule proposes or keeps for review, rejected ones too."""
    home = home if home is not None else memory_home()
    now = now or clock.now()
    settings = config.load(home, project)
    records = [
        m
        for kind in (MemoryType.PREFERENCE, MemoryType.CONTEXT)
        for m in Store(spec_for(kind), home).load()
        if not m.is_expired(now)
    ]
    shown = _in_memory_md(records, home, now)
    core = core_projects(
        records,
        now,
        int(settings["promotion.core_projects"]),
        int(settings["promotion.core_window_days"]),
    )
    found = [_of_memory(m, records) for m in records if _is_pending_preference(m)]
    found += _of_notes(_read_notes(home), records, shown, {p.memory_id for p in found})
    for proposal in found:
        assessment = assess(proposal.candidate, core_projects=core, settings=settings)
        proposal.assessment = assessment
    return [p for p in found if p.verdict != NONE]


def proposals(
    home: Path | None = None, now: datetime | None = None, *, project: str | None = None
) -> list[Proposal]:
    """Return the candidates proposed for promotion, but those rejected lately."""
    return [p for p in listed(home, now, project=project) if p.verdict == PROPOSE]


def review(
    home: Path | None = None, now: datetime | None = None, *, project: str | None = None
) -> list[Proposal]:
    """Return the weekly review list: candidates with supporting signals only."""
    return [p for p in listed(home, now, project=project) if p.verdict == REVIEW]


def listed(
    home: Path | None = None, now: datetime | None = None, *, project: str | None = None
) -> list[Proposal]:
    """Return the proposals and the review list, rejected ones left out for their days."""
    home = home if home is not None else memory_home()
    now = now or clock.now()
    days = int(config.load(home, project)["promotion.reject_days"])
    refused = recently_rejected(home, now, days)
    return [p for p in assess_all(home, now, project=project) if p.id not in refused]


def _is_pending_preference(memory: Memory) -> bool:
    return memory.type is MemoryType.PREFERENCE and memory.state is State.PENDING


def _in_memory_md(records: Sequence[Memory], home: Path, now: datetime) -> set[str]:
    """Return the ids MEMORY.md holds: what its render lists from the stores, its markers.

    The render's choice (:func:`artibot_memory.notes.semantic.lines_for`: live memories,
    pinned ones always) holds even before the file is rendered again; the file's markers
    add what it shows now.
    """
    listed = {i for line in lines_for(records, now) for i in (line.memory_id, *line.sources)}
    live = {m.id for m in records if m.state is State.ACTIVE}
    return (listed | shown_in_memory_md(home)) & live


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
        if m.project and _is_summary(m) and m.last_seen >= since
    )
    ranked = sorted(sessions.items(), key=lambda pair: (-pair[1], pair[0]))
    return dict(ranked[:count])


def _is_summary(memory: Memory) -> bool:
    return SUMMARY_TAG in memory.tags or (memory.key or "").startswith(memories.SESSION_KEY)


# ---- candidates from the stores


def _of_memory(memory: Memory, records: Sequence[Memory]) -> Proposal:
    candidate = Candidate(
        ref=memory.id,
        text=memory.text,
        kind=_kind_of(memory),
        project=display_name(memory.project) if memory.project else None,
        person=_person_of(memory),
        confidence=memory.confidence,
        sightings=tuple(
            Sighting(e.at, e.session_id, getattr(e, "kind", None) or "stated", memory.id)
            for e in memory.evidence
        ),
        accessed=memory.last_accessed,
        access_count=memory.access_count,
        corrections=_corrections(memory, records),
        related=_related(memory.id, memory.key or subject_key(memory.text), memory, records),
    )
    return Proposal(proposal_id(memory.id), candidate, Assessment(), memory.id, [memory.id])


def _kind_of(memory: Memory) -> str:
    if memory.type is MemoryType.PREFERENCE:
        return "preference"
    if DECISION_TAG in memory.tags:
        return DECISION_TAG
    if "lesson" in memory.tags:
        return "lesson"
    return "event" if _is_summary(memory) else "fact"


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


def _read_notes(home: Path) -> list[Noted]:
    """Return the Decisions and Observations of every daily note, with their sessions."""
    folder = notes_dir(home)
    found: list[Noted] = []
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        if day_of(path.name) is None or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue  # removed meanwhile (a prune)
        sessions = _sessions_by_line(text)
        items = read_day(f"{layers.DAILY_DIR}/{path.name}", text)
        found += [Noted(i, sessions.get(i.line)) for i in items if i.section in SECTIONS]
    return found


def _sessions_by_line(text: str) -> dict[int, str]:
    """Return the session each bullet's source names, by line (``session 1a2b3c4d:88``)."""
    found = {}
    for section in markdown.parse(text).sections:
        for bullet in markdown.bullets(section):
            parsed = markdown.parse_daily_bullet(bullet.text)
            match = SESSION_SOURCE.match(parsed.source or "") if parsed else None
            if match:
                found[bullet.line] = match.group(1)
    return found


def _of_notes(
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
        if memory.state is State.ACTIVE or _is_pending_preference(memory):
            proposal = _of_memory(memory, records)
            proposal.sources = [e.item.where for e in entries]
            found.append(proposal)
    paths = {display_name(m.project): m.project for m in records if m.project}
    for (text, project), entries in groups.items():
        found.append(_of_items(text, project, entries, records, paths))
    return found


def _of_items(
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


# ---- accept, reject, auto-promote


def find(proposal_id: str, home: Path | None = None, now: datetime | None = None) -> Proposal:
    """Return the proposal (or review item) with this id; a one-line error when none has it."""
    for proposal in assess_all(home, now):
        if proposal.id == proposal_id:
            return proposal
    msg = f"no proposal {proposal_id!r}; `artibot-memory proposals` lists them"
    raise UsageError(msg)


def accept(proposal_id: str, *, home: Path | None = None) -> Promoted:
    """Promote the candidate of a proposal, by the user's word; the audit line says so."""
    home = home if home is not None else memory_home()
    now = clock.now()
    return promote(find(proposal_id, home, now), home=home, now=now, how=", accepted by the user")


def promote(proposal: Proposal, *, home: Path, now: datetime, how: str) -> Promoted:
    """Promote one proposal and write its ``PROMOTE`` line to ``evolution.log``.

    ``how`` ends the line's outcome: `` (auto_promote)`` or ``, accepted by the user``.
    """
    if proposal.memory_id is not None:
        memory_id, outcome = _promote_memory(proposal, home, now)
    else:
        memory_id, outcome = _save_item(proposal, home)
    signals = proposal.assessment
    message = (
        f"{proposal.candidate.ref} → {outcome}{how} "
        f"strong={names(signals.strong)} supporting={names(signals.supporting)}"
    )
    line = audit.append(home, "PROMOTE", message, at=now)
    return Promoted(proposal.id, proposal.candidate.ref, memory_id, outcome, line)


def _promote_memory(proposal: Proposal, home: Path, now: datetime) -> tuple[str, str]:
    memory_id = str(proposal.memory_id)
    preference = proposal.candidate.kind == "preference" and memory_id.startswith("pref-")

    def edit(memory: Memory) -> bool:
        memory.state = State.ACTIVE
        if not preference and PIN_TAG not in memory.tags:
            memory.tags = [*memory.tags, PIN_TAG]
        confirmed = Evidence.model_validate(  # kind: docs/METADATA.md §1
            {"at": now, "session_id": None, "note": f"proposal:{proposal.id}", "kind": "confirmed"}
        )
        memory.evidence = [*memory.evidence, confirmed]
        return True

    restate({memory_id: edit}, home=home)
    return memory_id, "active" if preference else "pinned in MEMORY.md"


def _save_item(proposal: Proposal, home: Path) -> tuple[str, str]:
    path, _, line = proposal.sources[0].rpartition(":")
    tags = [PIN_TAG, DECISION_TAG] if proposal.candidate.kind == DECISION_TAG else [PIN_TAG]
    saved = memories.save(
        MemoryType.CONTEXT,
        proposal.candidate.text,
        tags=tags,
        project=proposal.project_path,
        source=Source(channel=CHANNEL, path=path, line=int(line) if line.isdigit() else None),
        details={"days": proposal.candidate.days, "proposal": proposal.id},
        home=home,
    )
    return saved.id, f"{saved.id} pinned in MEMORY.md"


def reject(proposal_id: str, *, home: Path | None = None) -> dict[str, str]:
    """Keep a proposal out for ``promotion.reject_days``: its id and time in proposals.json.

    Returns the id, the time, what it would have promoted and until when it stays out.
    """
    home = home if home is not None else memory_home()
    now = clock.now()
    proposal = find(proposal_id, home, now)
    document = _load(home)
    entry = {"at": now.isoformat(), "ref": proposal.candidate.ref}
    document.setdefault("rejected", {})[proposal.id] = entry
    ensure_private_dir(home)
    disk.write_document(home / FILE_NAME, json.dumps(document, ensure_ascii=False).encode())
    days = int(config.load(home, None)["promotion.reject_days"])
    return {"id": proposal.id, **entry, "until": (now + timedelta(days=days)).isoformat()}


def recently_rejected(home: Path, now: datetime, days: int) -> set[str]:
    """Return the ids rejected less than ``days`` days before ``now``."""
    since = now - timedelta(days=days)
    found = set()
    for proposal_of, entry in _load(home).get("rejected", {}).items():
        at = clock.parse_time(entry.get("at")) if isinstance(entry, dict) else None
        if at is not None and at > since:
            found.add(proposal_of)
    return found


def _load(home: Path) -> dict[str, Any]:
    """Read proposals.json; a missing or unreadable one is empty (a rejection is not data)."""
    try:
        document = json.loads((home / FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(document, dict) or not isinstance(document.get("rejected", {}), dict):
        return {}
    return document


def auto_promote(home: Path | None = None, *, project: str | None = None) -> list[Promoted]:
    """With ``promotion.auto_promote``, promote each proposal seen in 2 sessions or more.

    Without it, nothing: proposals wait for the user. A candidate of one session stays
    proposed (seed 003). Returns what was promoted.
    """
    home = home if home is not None else memory_home()
    if not config.load(home, project)["promotion.auto_promote"]:
        return []
    now = clock.now()
    chosen = [
        p
        for p in proposals(home, now, project=project)
        if len(p.candidate.sessions) >= MIN_SESSIONS_TO_AUTO_PROMOTE
    ]
    return [promote(p, home=home, now=now, how=" (auto_promote)") for p in chosen]
