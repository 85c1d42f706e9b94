"""``artibot-memory evolve``: consolidate, reflect, promote (docs/EVOLVE.md), and its report.

:func:`run` runs the phases in order, each skippable; with ``dry_run`` it writes nothing at
all and reports what would change. Every change is one line of ``evolution.log``
(:mod:`artibot_memory.store.audit`); after each phase that writes, what it wrote is read
back and checked, and what is wrong is a warning of the report. A store that cannot be read
is left out with a warning (and never written); a belief record that makes no sense is
skipped with one. :func:`promote_quietly` is the session end's promote; :func:`run_if_due`
the weekly evolve of a session start's worker.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from artibot_memory.api.anchors import stale_changes
from artibot_memory.core import clock, config
from artibot_memory.core.errors import ArtibotMemoryError, StoreError
from artibot_memory.core.paths import memory_home
from artibot_memory.evolve import beliefs as belief_rules
from artibot_memory.evolve import promote as promote_rules
from artibot_memory.evolve.beliefs import FIELD, FRESHNESS, Reflection
from artibot_memory.notes import semantic
from artibot_memory.store import audit, layers
from artibot_memory.store.jsonfile import Store, change_each_store, group_by_store
from artibot_memory.store.model import Memory, State
from artibot_memory.store.table import STORES, StoreSpec, specs_for_id
from artibot_memory.text import markdown

CONSOLIDATE, REFLECT, PROMOTE = PHASES = ("consolidate", "reflect", "promote")
LAST_RUN = ("cache", "evolve.json")  # {"last_run": ISO}: when the last full evolve ran


@dataclass
class Report:
    """What one evolve did (or, dry, would do), phase by phase, and its warnings."""

    date: str
    dry_run: bool
    phases: list[str]
    audit_log: str
    consolidate: dict[str, Any] | None = None
    reflect: dict[str, Any] | None = None
    promote: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Return the report as docs/EVOLVE.md's JSON."""
        return {
            "date": self.date,
            "dry_run": self.dry_run,
            "phases": self.phases,
            "consolidate": self.consolidate,
            "reflect": self.reflect,
            "promote": self.promote,
            "warnings": self.warnings,
            "audit_log": self.audit_log,
        }


@dataclass
class _Home:
    """The memories of one run, read once, and the stores that could not be read."""

    path: Path
    memories: list[Memory]
    unreadable: set[StoreSpec]
    now: datetime
    project: str | None
    wrote: bool = False  # a belief record was written: MEMORY.md's Top Beliefs may show it

    @functools.cached_property
    def pool(self) -> belief_rules.Pool:
        """Every memory by id and who superseded whom: built once a run (the same records)."""
        return belief_rules.Pool(self.memories)

    def settings(self, project: str | None = None) -> config.Config:
        return config.load(self.path, project if project is not None else self.project)


def run(
    home: Path | None = None,
    *,
    phases: Sequence[str] = PHASES,
    dry_run: bool = False,
    now: datetime | None = None,
    project: str | None = None,
) -> Report:
    """Run ``phases`` of evolve over the memory home (see the module docstring).

    ``--reflect-only`` (``phases == ("reflect",)``) reflects every belief, even one
    reflected in the last 7 days.
    """
    folder = home if home is not None else memory_home()
    now = now or clock.now()
    report = Report(layers.local_day(now), dry_run, list(phases), audit.log_path(folder))
    state = _read(folder, now, project, report)
    if CONSOLIDATE in phases:
        report.consolidate = _consolidate(state, report)
    if REFLECT in phases:
        report.reflect = _reflect(state, report, forced=tuple(phases) == (REFLECT,))
    if PROMOTE in phases:
        report.promote = _promote(state, report)
    if state.wrote and (folder / semantic.FILE_NAME).exists():
        _render(state, report)
    if not dry_run and tuple(phases) == PHASES and state.memories:
        _mark_run(folder, now)  # an empty memory is a clean no-op: not even this
    return report


def _read(folder: Path, now: datetime, project: str | None, report: Report) -> _Home:
    found: list[Memory] = []
    unreadable: set[StoreSpec] = set()
    for spec in STORES:
        try:
            found += Store(spec, folder).load()
        except StoreError as exc:
            unreadable.add(spec)
            report.warnings.append(f"{spec.filename}: {exc} — left out, nothing written to it")
    return _Home(folder, found, unreadable, now, project)


def _log(state: _Home, report: Report, events: Iterable[tuple[str, str]]) -> None:
    if report.dry_run:
        return
    for kind, message in events:
        audit.append(state.path, kind, message, at=state.now)


# ---- phase 1: consolidate


def _consolidate(state: _Home, report: Report) -> dict[str, Any]:
    from artibot_memory.api import entities  # noqa: PLC0415 - the phase's own module

    if not state.memories and not state.unreadable:
        return {"entities": []}  # nothing to consolidate, and no folder made for it
    pool = state.pool
    settings = state.settings()
    stale_days = int(settings["evolve.stale_days"])

    def belief_of(memory: Memory) -> tuple[float, str] | None:
        if belief_rules.kind_of(memory) is None:
            return None
        seen = _belief(memory, pool, state.now, stale_days)
        return (seen.confidence, seen.freshness) if seen is not None else None

    try:
        done = entities.consolidate(
            state.path, now=state.now, dry_run=report.dry_run, belief_of=belief_of
        )
    except (ArtibotMemoryError, OSError) as exc:  # the other phases still run
        report.warnings.append(f"consolidate: {exc} — no profile consolidated")
        return {"entities": []}
    rows = []
    for item in done:
        report.warnings += [f"{item.path}: {w}" for w in item.warnings]
        rows.append(
            {
                "entity": item.entity,
                "path": item.path,
                "touches": item.touches,
                "created": item.created,
                "review": item.review,
                "facts": item.facts,
                "beliefs": item.beliefs,
                "profile": item.profile,
            }
        )
    return {"entities": rows}


# ---- phase 2: reflect


def _reflect(state: _Home, report: Report, *, forced: bool) -> dict[str, Any]:
    pool = state.pool
    counts: Counter[str] = Counter()
    changed: list[Reflection] = []
    labels: dict[str, str] = {}
    skipped = 0
    for memory in belief_rules.beliefs_of(state.memories):
        before = belief_rules.stored(memory)
        report.warnings += before.warnings
        if before.invalid or not belief_rules.due(before, state.now, forced=forced):
            skipped += 1
            continue
        stale_days = int(state.settings(memory.project)["evolve.stale_days"])
        reflection = belief_rules.reflect(memory, pool, state.now, stale_days, before)
        counts[reflection.freshness] += 1
        if reflection.changed:
            changed.append(reflection)
            labels[memory.id] = belief_rules.label(memory)
    if not report.dry_run and changed:
        _write_beliefs(state, {r.id: r.record for r in changed}, report)
        _log(state, report, (event for r in changed for event in r.events))
    gone = [  # facts whose every anchored path is gone (docs/CODE.md)
        {"id": c.memory_id, "reason": c.reason}
        for c in stale_changes(state.memories, state.path, state.now)
    ]
    return {
        "evaluated": sum(counts.values()),
        "skipped": skipped,
        "changed": [{**_change_row(r), "label": labels[r.id]} for r in changed],
        "freshness": {name: counts[name] for name in FRESHNESS},
        **({"code_stale": gone} if gone else {}),
    }


def _change_row(reflection: Reflection) -> dict[str, Any]:
    return {
        "id": reflection.id,
        "kind": reflection.kind,
        "old": round(reflection.old, 2),
        "new": reflection.new,
        "was": reflection.was,
        "freshness": reflection.freshness,
        "sources": reflection.counted.sources,
        "counter": reflection.counted.counter,
    }


def _write_beliefs(state: _Home, records: Mapping[str, dict[str, object]], report: Report) -> None:
    """Write each memory's ``details["belief"]``, then read them back and check them."""
    wanted = {i: r for i, r in records.items() if not set(specs_for_id(i)) & state.unreadable}

    def change(_spec: object, entries: list[Memory], ids: list[str]) -> None:
        for memory in entries:
            if memory.id in ids:
                memory.details = {**memory.details, FIELD: wanted[memory.id]}

    change_each_store(group_by_store(wanted, specs_for_id), change, state.path)
    state.wrote = True
    for memory in state.memories:
        if memory.id in wanted:
            memory.details = {**memory.details, FIELD: wanted[memory.id]}
    report.warnings += _validate_records(state.path, set(wanted))


def _validate_records(folder: Path, ids: set[str]) -> list[str]:
    """Read the written records back: every one there, its belief record whole."""
    warnings: list[str] = []
    seen: set[str] = set()
    for spec in {spec for i in ids for spec in specs_for_id(i)}:
        try:
            entries = Store(spec, folder).load()
        except StoreError as exc:
            warnings.append(f"{spec.filename}: unreadable after the write: {exc}")
            continue
        for memory in entries:
            if memory.id in ids:
                seen.add(memory.id)
                warnings += belief_rules.stored(memory).warnings
    warnings += [f"{i}: not found after the write" for i in sorted(ids - seen)]
    return warnings


# ---- phase 3: promote


def _belief(
    memory: Memory, pool: belief_rules.Pool, now: datetime, stale_days: int
) -> promote_rules.Belief | None:
    """Return ``memory`` as promote sees it: as last reflected, or reflected now if never.

    Its confidence and freshness are reflect's judgement (written weekly); its sources are
    counted now, a fact that a reflection too small to write leaves behind.
    """
    kind = belief_rules.kind_of(memory)
    before = belief_rules.stored(memory)
    if kind is None or before.invalid:
        return None
    if before.last_reflected is None:
        seen = belief_rules.reflect(memory, pool, now, stale_days, before)
        counted, confidence, freshness = seen.counted, seen.new, seen.freshness
    else:
        counted = belief_rules.tally(memory, pool)
        confidence = before.confidence if before.confidence is not None else 0.5
        freshness = before.freshness or belief_rules.STABLE
    sources, newest = counted.sources, counted.newest
    return promote_rules.Belief(
        memory.id,
        kind,
        belief_rules.label(memory),
        confidence,
        sources,
        freshness,
        memory.state is State.ACTIVE and not memory.is_expired(now),
        newest,
        top=before.top is not None,
        state=memory.state.value,
    )


def _promote(state: _Home, report: Report) -> dict[str, Any]:
    settings = state.settings()
    stale_days = int(settings["evolve.stale_days"])
    pool = state.pool
    seen = [
        _belief(m, pool, state.now, stale_days) for m in belief_rules.beliefs_of(state.memories)
    ]
    outcome = promote_rules.promote([b for b in seen if b is not None], settings.values)
    memory_md = state.path / semantic.FILE_NAME
    writable = bool(settings["evolve.auto_promote"]) and memory_md.exists()
    if not memory_md.exists() and seen:
        report.warnings.append("MEMORY.md is missing: Top Beliefs computed, not written")
    written = False
    if writable and not report.dry_run:
        written = _write_top(state, outcome, report)
    suffix = " [bootstrap]" if outcome.thresholds.mode == promote_rules.BOOTSTRAP else ""
    _log(state, report, _promote_events(outcome, suffix) if written else ())
    return _promote_row(outcome, written=written, writable=writable)


def _promote_events(outcome: promote_rules.Outcome, suffix: str) -> Iterable[tuple[str, str]]:
    for b in outcome.promoted:
        yield "PROMOTE", f"{b.id} → Top Beliefs conf={b.confidence:.2f} sources={b.sources}{suffix}"
    for b, why in outcome.demoted:
        yield "DEMOTE", f"{b.id} ← Top Beliefs conf={b.confidence:.2f} sources={b.sources} ({why})"


def _promote_row(
    outcome: promote_rules.Outcome, *, written: bool, writable: bool
) -> dict[str, Any]:
    def row(b: promote_rules.Belief) -> dict[str, Any]:
        return {"id": b.id, "kind": b.kind, "confidence": b.confidence, "sources": b.sources}

    at = outcome.thresholds
    return {
        "mode": at.mode,
        "thresholds": {"confidence": at.confidence, "sources": at.sources, "limit": at.limit},
        "bootstrap_below": at.bootstrap_below,
        "beliefs": outcome.beliefs,
        "written": written,
        "writable": writable,
        "top": [{**row(b), "freshness": b.freshness, "label": b.label} for b in outcome.top],
        "promoted": [row(b) for b in outcome.promoted],
        "demoted": [{**row(b), "reason": why} for b, why in outcome.demoted],
    }


def _write_top(state: _Home, outcome: promote_rules.Outcome, report: Report) -> bool:
    """Mark the top beliefs (``top``, ``place``, their sources now) and unmark the rest.

    Return whether anything was written (who is in Top Beliefs, in which order, with how
    many sources).
    """
    top = {b.id: (at, b) for at, b in enumerate(outcome.top, 1)}
    stamp = clock.utc_iso(state.now, belief_rules.SECONDS)
    records: dict[str, dict[str, object]] = {}
    for memory in state.memories:
        held = memory.details.get(FIELD)
        held = dict(held) if isinstance(held, dict) else {}
        place, seen = top.get(memory.id, (None, None))
        if seen is not None:
            wanted = {
                **held,
                "top": held.get("top") or stamp,
                "place": place,
                "sources": seen.sources,
            }
            wanted.setdefault("confidence", seen.confidence)
            wanted.setdefault("freshness", seen.freshness)
            if wanted != held:
                records[memory.id] = wanted
        elif "top" in held:
            held.pop("top")
            held.pop("place", None)
            records[memory.id] = held
    if not records:
        return False
    _write_beliefs(state, records, report)
    return True


def _render(state: _Home, report: Report) -> None:
    """Render MEMORY.md again (its Top Beliefs), then read it back and check the section."""
    from artibot_memory.api.semantic import refresh  # noqa: PLC0415 - only after a write

    refresh(state.path)
    text = (state.path / semantic.FILE_NAME).read_text(encoding="utf-8", errors="replace")
    section = markdown.parse(text).section(semantic.TOP_BELIEFS)
    listed = [b.marker for b in markdown.bullets(section) if b.marker]
    wanted = [memory_id for memory_id, _line in semantic.top_lines(state.memories)]
    if listed != wanted:
        report.warnings.append(
            f"MEMORY.md: Top Beliefs lists {len(listed)} beliefs, the stores {len(wanted)} — review"
        )


# ---- cadence


def last_run(home: Path) -> datetime | None:
    """Return when the last full evolve ran (None: never)."""
    return layers.last_run(home.joinpath(*LAST_RUN))


def _mark_run(home: Path, now: datetime) -> None:
    layers.record_run(home.joinpath(*LAST_RUN), clock.utc_iso(now, "seconds"))


def is_due(home: Path, now: datetime, every_days: int) -> bool:
    """Tell whether the weekly evolve is due: never run, or last run ``every_days`` ago."""
    last = last_run(home)
    return last is None or now - last >= timedelta(days=every_days)


def run_if_due(home: Path | None = None, *, project: str | None = None) -> Report | None:
    """Run the session start worker's evolve: a full one when the last is ``every_days`` old."""
    folder = home if home is not None else memory_home()
    now = clock.now()
    if not _has_memories(folder) or not is_due(
        folder, now, int(config.load(folder, project)["evolve.every_days"])
    ):
        return None
    return run(folder, now=now, project=project)


def _has_memories(folder: Path) -> bool:
    return any((folder / spec.filename).exists() for spec in STORES)


def promote_quietly(home: Path | None = None, *, project: str | None = None) -> Report:
    """Run the session end's promote: the promote phase alone (usually it changes nothing)."""
    return run(home, phases=(PROMOTE,), project=project)
