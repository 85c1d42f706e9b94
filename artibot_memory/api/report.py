"""The report's data: one plain object gathered from the home, for ``artibot-memory report``.

Everything a person may want to look at in one page, read without an LLM and without
writing a byte: the stores (through :class:`~artibot_memory.store.jsonfile.Store`), the
conflict ledger, the promotion proposals, the beliefs and ``evolution.log``, the session
summaries, and what each project's next session start receives (the function the
SessionStart hook uses, :func:`artibot_memory.recall.context.start_parts`, then the same
render, counting nothing as accessed). The health figures are in
:mod:`artibot_memory.api.report_health`; the HTML is drawn by
:mod:`artibot_memory.cli.report_html` from :class:`Report` alone.

Lists are capped (:data:`MAX_ITEMS` a list) so that a home at its stores' caps stays a
page a browser opens at once; each capped list keeps its total and the command that shows
the rest.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from artibot_memory.api import report_health
from artibot_memory.api.memories import SESSION_KEY, list_memories
from artibot_memory.api.report_health import Capped, Health, Item, item_of
from artibot_memory.capture.sessions import asks_of
from artibot_memory.core import clock, config
from artibot_memory.core.errors import StoreError, UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import display_name, in_project
from artibot_memory.evolve import beliefs as belief_rules
from artibot_memory.recall import briefing, lookup
from artibot_memory.recall.context import render_context, start_parts
from artibot_memory.recall.lookup import NO_FILTERS
from artibot_memory.store import audit
from artibot_memory.store.model import Evidence, Memory, MemoryType, Scope, State

MAX_ITEMS = 40  # of one list on a project's page
MAX_BELIEFS = 60
MAX_SESSIONS = 5  # the last sessions shown per project
MAX_EVIDENCE = 4  # of a belief's evidence lines, each way
MAX_WEEKS = 26  # of the growth chart
TYPES = tuple(t.value for t in MemoryType)
# What the overview counts: the stored types, a session summary apart from the other contexts
# (a context whose key is ``session:<id>``), each under a name a person reads.
KINDS = {
    "preference": "preferences",
    "context": "decisions & facts",
    "session": "sessions",
    "command": "commands",
    "error": "errors",
}
RECENT = timedelta(days=30)  # "sessions in the last 30 days"
_REFLECT = re.compile(r"^(?P<id>[a-z]+-[0-9a-f]+) conf (?P<old>[\d.]+)→(?P<new>[\d.]+)")
_PROMOTED = re.compile(r"^(?P<id>[a-z]+-[0-9a-f]+) [→←].* conf=(?P<conf>[\d.]+)")


@dataclass
class Session:
    """One stored session summary, as a line of the report."""

    id: str
    day: str
    project: str
    text: str
    asks: list[str]


@dataclass
class ProjectPage:
    """One project: its memories by kind, its last sessions, its next session start."""

    name: str
    slug: str
    path: str
    decisions: Capped[Item]
    facts: Capped[Item]
    people: Capped[Item]
    errors: Capped[Item]
    preferences: Capped[Item]
    sessions: list[Session]
    next_start: str


@dataclass
class Belief:
    """One belief: what reflect concluded, its confidence over time, its evidence."""

    item: Item
    kind: str
    confidence: float
    freshness: str
    sources: int
    counter: int
    place: int | None
    series: list[tuple[str, float]]
    evidence_for: list[str]
    evidence_against: list[str]


@dataclass
class Overview:
    """The home at a glance."""

    counts: dict[str, dict[str, int]]  # project name ("global" for none) → kind → memories
    weeks: list[tuple[str, dict[str, int]]]  # Monday of the week → kind → created that week
    agents: dict[str, dict[str, int]]  # agent → kind → memories
    sessions: dict[str, list[Session]]  # project name → its last sessions
    recent_sessions: int = 0  # session summaries of the last :data:`RECENT`


@dataclass
class Report:
    """Everything the page shows; built by :func:`build`, drawn by the CLI."""

    generated_at: datetime
    home: str
    project: str | None  # the --project asked for, by name
    memories: int
    overview: Overview
    health: Health
    projects: list[ProjectPage]
    beliefs: Capped[Belief]
    top: list[Belief]
    conflicts: list[report_health.Conflict]
    proposals: list[report_health.Waiting]
    warnings: list[str] = field(default_factory=list)


def slug(name: str) -> str:
    """Return a project's name as an HTML id part: lower-case words joined by ``-``.

    >>> slug("My Shop.v2"), slug("가게 앱")
    ('my-shop-v2', '가게-앱')
    """
    text = unicodedata.normalize("NFC", name).lower()
    return re.sub(r"[^\w]+", "-", text).strip("-_") or "project"


def build(
    home: Path | None = None, *, project: str | None = None, now: datetime | None = None
) -> Report:
    """Gather the report of ``home`` (every project, or only ``project``: a name or a path)."""
    home = home if home is not None else memory_home()
    now = now or clock.now()
    every = list_memories(home=home)
    paths = _projects(every)
    chosen = _choose(paths, project) if project is not None else None
    pool = every if chosen is None else [m for m in every if m.project in {None, chosen}]
    shown = [p for p in paths if chosen is None or p == chosen]
    belief_rows = _beliefs(pool, every, home, now)
    disagreements = report_health.conflicts(home, None if chosen is None else {m.id for m in pool})
    proposals = report_health.waiting(home, now, chosen)
    own = _by_project(pool)
    sessions = {p: _sessions(own.get(p, []), p) for p in shown}
    starts = next_starts(home, shown)
    return Report(
        generated_at=now,
        home=str(home),
        project=display_name(chosen) if chosen else None,
        memories=len(pool),
        overview=_overview(pool, sessions, now),
        health=report_health.measure(
            pool, home, now, project=chosen, disagreements=disagreements, proposals=proposals
        ),
        projects=[_page(p, own.get(p, []), pool, sessions[p], starts[p]) for p in shown],
        beliefs=Capped.of(belief_rows, MAX_BELIEFS, "artibot-memory evolve --dry-run"),
        top=sorted((b for b in belief_rows if b.place), key=lambda b: b.place or 0),
        conflicts=disagreements,
        proposals=proposals,
    )


def _projects(memories: list[Memory]) -> list[str]:
    return sorted({m.project for m in memories if m.project}, key=display_name)


def _choose(paths: list[str], given: str) -> str:
    """Return the stored project ``given`` names (its name or its path), or say there is none."""
    for path in paths:
        if given in {path, display_name(path)} or display_name(given) == display_name(path):
            return path
    known = ", ".join(display_name(p) for p in paths) or "none yet"
    msg = f"no memories of project {given!r}; the projects are: {known}"
    raise UsageError(msg)


# ---- overview


def kind_of(memory: Memory) -> str:
    """Return the overview's kind of ``memory``: its type, or ``session`` for a summary."""
    return "session" if _is_session(memory) else memory.type.value


def _by_project(pool: list[Memory]) -> dict[str | None, list[Memory]]:
    found: dict[str | None, list[Memory]] = {}
    for memory in pool:
        found.setdefault(memory.project, []).append(memory)
    return found


def _overview(pool: list[Memory], sessions: dict[str, list[Session]], now: datetime) -> Overview:
    counts: dict[str, dict[str, int]] = {}
    agents: dict[str, dict[str, int]] = {}
    created: dict[date, Counter[str]] = {}
    recent = 0
    for memory in pool:
        kind = kind_of(memory)
        where = display_name(memory.project) if memory.project else "global"
        row = counts.setdefault(where, dict.fromkeys(KINDS, 0))
        row[kind] += 1
        agent = memory.source.agent or "claude-code"  # older records name none
        by_agent = agents.setdefault(agent, dict.fromkeys(KINDS, 0))
        by_agent[kind] += 1
        created.setdefault(_monday(memory.created_at), Counter())[kind] += 1
        if kind == "session" and memory.created_at >= now - RECENT:
            recent += 1
    return Overview(
        counts=dict(sorted(counts.items(), key=lambda kv: (kv[0] == "global", kv[0]))),
        weeks=_weeks(created),
        agents=dict(sorted(agents.items())),
        sessions={display_name(p): found for p, found in sessions.items()},
        recent_sessions=recent,
    )


def _weeks(created: dict[date, Counter[str]]) -> list[tuple[str, dict[str, int]]]:
    """Return memories created per week (Monday's date) and kind, the last :data:`MAX_WEEKS`."""
    if not created:
        return []
    last = max(created)
    first = max(min(created), last - timedelta(weeks=MAX_WEEKS - 1))
    weeks = []
    day = first
    while day <= last:
        counted = created.get(day, Counter())
        weeks.append((day.isoformat(), {kind: counted[kind] for kind in KINDS}))
        day += timedelta(weeks=1)
    return weeks


def _monday(moment: datetime) -> date:
    day = moment.date()
    return day - timedelta(days=day.weekday())


def _sessions(own: list[Memory], project: str) -> list[Session]:
    """Return the last :data:`MAX_SESSIONS` summaries among ``own`` (the project's memories)."""
    found = [m for m in own if _is_session(m)]
    found.sort(key=lambda m: m.created_at, reverse=True)
    return [
        Session(
            m.id, m.created_at.date().isoformat(), display_name(project), m.text, asks_of(m.text)
        )
        for m in found[:MAX_SESSIONS]
    ]


# ---- a project's page


def _page(
    project: str, own: list[Memory], pool: list[Memory], sessions: list[Session], start: str
) -> ProjectPage:
    live = [m for m in own if m.state is not State.SUPERSEDED and not _is_session(m)]
    contexts = [m for m in live if m.type is MemoryType.CONTEXT]
    decisions = [m for m in contexts if belief_rules.DECISION in m.tags]
    people = [m for m in live if m.scope is Scope.PERSON]
    apart = {m.id for m in decisions} | {m.id for m in people}
    facts = [m for m in contexts if m.id not in apart]
    preferences = [
        m
        for m in pool
        if m.type is MemoryType.PREFERENCE
        and m.state is State.ACTIVE
        and m.project in {None, project}
    ]
    name = display_name(project)

    def capped(memories: list[Memory], kind: str) -> Capped[Item]:
        newest = sorted(memories, key=lambda m: m.last_seen, reverse=True)[:MAX_ITEMS]
        command = f"artibot-memory list --type {kind} --project {name}"
        return Capped([item_of(m) for m in newest], len(memories), command)

    return ProjectPage(
        name=name,
        slug=slug(name),
        path=project,
        decisions=capped(decisions, "context"),
        facts=capped(facts, "context"),
        people=capped(people, "context"),
        errors=capped([m for m in live if m.type is MemoryType.ERROR], "error"),
        preferences=capped(preferences, "preference"),
        sessions=sessions,
        next_start=start,
    )


def _is_session(memory: Memory) -> bool:
    return (memory.key or "").startswith(SESSION_KEY)


def next_start(home: Path, project: str | None) -> str:
    """Return exactly what the next session start of ``project`` receives (counting nothing)."""
    parts = start_parts(home, project)
    rendered = render_context(project, budget=parts.budget, home=home)
    return parts.text(rendered.text)


def next_starts(home: Path, projects: list[str]) -> dict[str, str]:
    """Return :func:`next_start` of each of ``projects``, the index's live memories read once.

    Each project's pool is narrowed from them as the index narrows it (``in_project``), then
    sorted and rendered by the hook's own functions; where the index cannot serve, each is
    rendered as :func:`next_start` does.
    """
    if not projects:
        return {}
    now = clock.now()
    try:
        every = lookup.live(now=now, home=home)
    except (sqlite3.Error, StoreError):
        return {project: next_start(home, project) for project in projects}
    found = {}
    for project in projects:
        parts = start_parts(home, project)
        pool = [record for record in every if in_project(record.project, project)]
        settings = config.load(home, project)
        sections = briefing.sections_of(pool, project, now, settings, NO_FILTERS.states)
        found[project] = parts.text(briefing.render(sections, project, parts.budget).text)
    return found


# ---- beliefs


def _beliefs(pool: list[Memory], every: list[Memory], home: Path, now: datetime) -> list[Belief]:
    series = _series(audit.read(home))
    tally_pool = belief_rules.Pool(every)
    found = []
    for memory in pool:
        kind = belief_rules.kind_of(memory)
        if kind is None:
            continue
        found.append(_belief(memory, kind, tally_pool, series.get(memory.id, []), now))
    found.sort(key=lambda b: (b.place is None, b.place or 0, -b.confidence, b.item.id))
    return found


def _belief(
    memory: Memory,
    kind: str,
    pool: belief_rules.Pool,
    series: list[tuple[str, float]],
    now: datetime,
) -> Belief:
    held = belief_rules.stored(memory)
    counted = belief_rules.tally(memory, pool)
    details = memory.details.get("belief")
    place = details.get("place") if isinstance(details, dict) else None
    confidence = held.confidence if held.confidence is not None else memory.confidence
    return Belief(
        item=item_of(memory),
        kind=kind,
        confidence=confidence,
        freshness=held.freshness or "stable",
        sources=counted.sources,
        counter=counted.counter,
        place=place if isinstance(place, int) else None,
        series=[*series, (now.date().isoformat(), confidence)],
        evidence_for=_evidence_lines(memory.evidence),
        evidence_against=_evidence_lines(memory.counter_evidence),
    )


def _evidence_lines(items: list[Evidence]) -> list[str]:
    newest = sorted(items, key=lambda e: e.at, reverse=True)[:MAX_EVIDENCE]
    return [
        f"{seen.at.date().isoformat()} {seen.kind}" + (f": {seen.note}" if seen.note else "")
        for seen in newest
    ]


def _series(entries: list[audit.Entry]) -> dict[str, list[tuple[str, float]]]:
    """Return each belief's confidence over time from ``evolution.log``, oldest first."""
    found: dict[str, list[tuple[str, float]]] = {}
    for entry in entries:
        day = entry.at.date().isoformat()
        reflected = _REFLECT.match(entry.message) if entry.type == "REFLECT" else None
        if reflected:
            points = found.setdefault(reflected["id"], [])
            if not points:
                points.append((day, float(reflected["old"])))
            points.append((day, float(reflected["new"])))
            continue
        moved = _PROMOTED.match(entry.message) if entry.type in {"PROMOTE", "DEMOTE"} else None
        if moved:
            found.setdefault(moved["id"], []).append((day, float(moved["conf"])))
    return found
