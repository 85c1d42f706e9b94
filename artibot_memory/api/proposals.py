"""Promotion proposals (seed 001): what deserves MEMORY.md, proposed, accepted or rejected.

The candidates are what MEMORY.md does not hold yet: pending preferences, and the
decisions and observations of the daily notes that are not a live memory pinned there
(tag ``memory-md``) or listed there (what :func:`artibot_memory.notes.semantic.lines_for`
renders, and the file's markers). This module reads them from the memory home (the
preference and context stores, every daily note); :mod:`artibot_memory.notes.candidates`
turns them into candidates with what is recorded of each (evidence, accesses, corrections,
related memories, the core projects), and :mod:`artibot_memory.notes.promotion` weighs
their signals by the rule.

:func:`accept` makes a pending preference active, pins a memory with the ``memory-md``
tag, or saves a note's item as a pinned context whose source is the note's path and line;
either way a ``PROMOTE`` line goes to ``evolution.log``. :func:`reject` keeps the id and
the time in ``proposals.json`` in the memory home; a rejected candidate is not proposed
again for ``promotion.reject_days``. With ``promotion.auto_promote``,
:func:`auto_promote` (run once at each session end) accepts every proposed candidate
seen in 2 sessions or more: one session is never enough without the user (seed 003).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from artibot_memory.api import memories
from artibot_memory.api.consolidate import notes_dir, restate, shown_in_memory_md
from artibot_memory.core import clock, config, disk
from artibot_memory.core.errors import UsageError
from artibot_memory.core.paths import ensure_private_dir, memory_home
from artibot_memory.notes.candidates import (
    Noted,
    Proposal,
    core_projects,
    from_memory,
    from_notes,
    is_pending_preference,
    sessions_by_line,
)
from artibot_memory.notes.consolidate import DECISION_TAG, PIN_TAG, day_of, read_day
from artibot_memory.notes.promotion import (
    NONE,
    PROPOSE,
    REVIEW,
    assess,
    names,
)
from artibot_memory.notes.semantic import lines_for
from artibot_memory.store import audit, layers
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Evidence, Memory, MemoryType, Source, State
from artibot_memory.store.table import spec_for

FILE_NAME = "proposals.json"  # {"rejected": {"prop-…": {"at": "<ISO 8601>", "ref": "…"}}}
CHANNEL = "proposals"
SECTIONS = frozenset({"Decisions", "Observations"})
MIN_SESSIONS_TO_AUTO_PROMOTE = 2  # seed 003: one occurrence never becomes a belief by itself


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
    found = [from_memory(m, records) for m in records if is_pending_preference(m)]
    found += from_notes(_read_notes(home), records, shown, {p.memory_id for p in found})
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


def _in_memory_md(records: Sequence[Memory], home: Path, now: datetime) -> set[str]:
    """Return the ids MEMORY.md holds: what its render lists from the stores, its markers.

    The render's choice (:func:`artibot_memory.notes.semantic.lines_for`: live memories,
    pinned ones always) holds even before the file is rendered again; the file's markers
    add what it shows now.
    """
    listed = {i for line in lines_for(records, now) for i in (line.memory_id, *line.sources)}
    live = {m.id for m in records if m.state is State.ACTIVE}
    return (listed | shown_in_memory_md(home)) & live


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
        sessions = sessions_by_line(text)
        items = read_day(f"{layers.DAILY_DIR}/{path.name}", text)
        found += [Noted(i, sessions.get(i.line)) for i in items if i.section in SECTIONS]
    return found


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
