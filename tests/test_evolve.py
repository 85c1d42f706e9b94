"""Belief evolution (docs/EVOLVE.md): reflect's formula and freshness, promote, the verb, the log.

Memories are placed in the stores with the evidence each test needs (sessions on given
days), then evolved under freezegun, weeks and months apart, as a person would run it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time
from test_entities import snapshot  # every path, folders too

from artibot_memory import lifecycle
from artibot_memory.api import evolve
from artibot_memory.api.semantic import refresh
from artibot_memory.cli.app import main
from artibot_memory.evolve import beliefs, promote
from artibot_memory.evolve.beliefs import Tally
from artibot_memory.store import audit
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Evidence, Memory, MemoryType, State
from artibot_memory.store.table import spec_for

DAY = datetime(2026, 9, 1, 9, tzinfo=timezone.utc)
REFLECT_ONLY = ("reflect",)
LOG_LINE = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00  "
    r"(PROMOTE|DEMOTE|CONSOLIDATE|REFLECT|STALE|CONTRADICT|ARCHIVE_CANDIDATE)  \S.*$"
)
NO_CONSOLIDATE = ("reflect", "promote")


def at(days: float) -> datetime:
    return DAY + timedelta(days=days)


def place(
    home: Path,
    memory_id: str,
    text: str,
    days: Sequence[float],
    *,
    against: Sequence[float] = (),
    kind: MemoryType = MemoryType.PREFERENCE,
    tags: Sequence[str] = (),
    details: Mapping[str, object] | None = None,
    state: State = State.ACTIVE,
) -> Memory:
    """Put one memory in its store, with one session of evidence on each of ``days``."""
    evidence = [Evidence(at=at(d), session_id=f"s-{memory_id}-{d}") for d in days]
    counter = [
        Evidence(at=at(d), session_id=f"c-{memory_id}-{d}", kind="contradicted") for d in against
    ]
    first, last = at(min(days)), at(max(days))
    memory = Memory(
        id=memory_id,
        type=kind,
        text=text,
        tags=list(tags),
        state=state,
        confidence=0.8,
        evidence=evidence,
        counter_evidence=counter,
        created_at=first,
        updated_at=last,
        last_seen=last,
        details=dict(details or {}),
    )
    with Store(spec_for(kind), home).transaction() as entries:
        entries.append(memory)
    return memory


def record(home: Path, memory_id: str) -> dict[str, object]:
    """Return the memory's ``details["belief"]`` as stored."""
    for spec in (spec_for(t) for t in MemoryType):
        for memory in Store(spec, home).load():
            if memory.id == memory_id:
                return dict(memory.details.get("belief") or {})
    raise AssertionError(memory_id)


def run(home: Path, days: float, phases: Sequence[str] = NO_CONSOLIDATE, **kw: Any) -> Any:
    with freeze_time(at(days)):
        return evolve.run(home, phases=phases, **kw).to_json()


def log_types(home: Path) -> list[tuple[str, str]]:
    return [(entry.type, entry.message) for entry in audit.read(home)]


def make_memory_md(home: Path) -> None:
    refresh(home)
    assert (home / "MEMORY.md").exists()


# ---- the formula, at its edges


@pytest.mark.parametrize(
    ("age", "expected"),
    [(0, 1.0), (29.99, 1.0), (30, 1.0), (45, 0.75), (60, 0.5), (89.99, 0.0), (90, 0.0), (900, 0.0)],
)
def test_recency_is_whole_for_30_days_then_falls_linearly_to_zero_at_stale_days(
    age: float, expected: float
) -> None:
    assert beliefs.recency(age, 90) == pytest.approx(expected, abs=0.001)


@pytest.mark.parametrize(
    ("sources", "counter", "age", "expected"),
    [
        (0, 0, 0, 0.0),  # no evidence: nothing
        (1, 0, 0, 0.2),  # volume 1/5
        (5, 0, 0, 1.0),
        (50, 0, 0, 1.0),  # volume caps at 1
        (4, 1, 0, 0.6),  # 0.8 - 0.2
        (1, 1, 0, 0.0),  # 0.2 - 0.5, clipped
        (5, 0, 60, 0.5),  # half as recent
        (5, 5, 200, 0.0),
    ],
)
def test_confidence_is_recency_times_volume_minus_the_counter_share(
    sources: int, counter: int, age: float, expected: float
) -> None:
    now = at(0)
    newest = now - timedelta(days=age) if sources else None
    assert beliefs.score(Tally(sources, counter, newest), now, 90) == expected


def test_stale_days_from_the_settings_moves_where_recency_reaches_zero() -> None:
    assert beliefs.recency(100, 180) == pytest.approx((180 - 100) / 150)
    assert beliefs.recency(100, 90) == 0.0


# ---- freshness, each transition and its boundary


def test_a_first_reflection_is_stable_and_written_with_its_log_line(memory_home: Path) -> None:
    place(memory_home, "pref-aaaa000001", "Always use pnpm, never npm", [0, 1])
    report = run(memory_home, 2, REFLECT_ONLY)
    assert report["reflect"]["changed"][0]["freshness"] == "stable"
    held = record(memory_home, "pref-aaaa000001")
    assert held["confidence"] == 0.4
    assert held["sources"] == 2
    assert held["last_reflected"] == "2026-09-03T09:00:00Z"
    assert log_types(memory_home) == [
        ("REFLECT", "pref-aaaa000001 conf 0.80→0.40 freshness=stable")
    ]


def test_evidence_gained_strengthens_a_belief_and_a_small_move_is_not_written(
    memory_home: Path,
) -> None:
    place(memory_home, "pref-aaaa000002", "Always use pnpm, never npm", [0, 1])
    run(memory_home, 2, REFLECT_ONLY)
    with Store(spec_for("preference"), memory_home).transaction() as entries:
        entries[0].evidence += [Evidence(at=at(8), session_id="later-1")]
    report = run(memory_home, 9, REFLECT_ONLY)  # 0.4 → 0.6
    assert report["reflect"]["changed"][0]["freshness"] == "strengthening"
    assert record(memory_home, "pref-aaaa000002")["freshness"] == "strengthening"
    before = log_types(memory_home)
    report = run(memory_home, 10, REFLECT_ONLY)  # nothing new: unchanged, nothing written
    assert report["reflect"]["changed"] == []
    assert record(memory_home, "pref-aaaa000002")["freshness"] == "strengthening"
    assert log_types(memory_home) == before


def test_a_rise_just_under_a_tenth_is_no_trend() -> None:
    now = at(0)
    assert beliefs.freshness(0.51, 0.6, Tally(3, 0, now), 0, now, 90) == "stable"
    assert beliefs.freshness(0.5, 0.6, Tally(3, 0, now), 0, now, 90) == "strengthening"


def test_a_fall_of_a_tenth_weakens_and_so_does_new_counter_evidence_alone() -> None:
    now = at(0)
    assert beliefs.freshness(0.7, 0.6, Tally(5, 1, now), 1, now, 90) == "weakening"
    assert beliefs.freshness(0.7, 0.61, Tally(5, 1, now), 1, now, 90) == "stable"
    assert beliefs.freshness(0.7, 0.65, Tally(5, 2, now), 1, now, 90) == "weakening"


def test_a_trend_that_stops_is_stable_a_week_later_and_logged(memory_home: Path) -> None:
    place(memory_home, "pref-aaaa000009", "Always use pnpm, never npm", [0, 1])
    run(memory_home, 2, REFLECT_ONLY)
    with Store(spec_for("preference"), memory_home).transaction() as entries:
        entries[0].evidence += [Evidence(at=at(8), session_id="later-1")]
    run(memory_home, 9, REFLECT_ONLY)
    assert record(memory_home, "pref-aaaa000009")["freshness"] == "strengthening"
    report = run(memory_home, 16)  # a week on, nothing new: the rise is over
    assert report["reflect"]["changed"][0]["freshness"] == "stable"
    assert log_types(memory_home)[-1] == (
        "REFLECT",
        "pref-aaaa000009 conf 0.60→0.60 freshness=stable",
    )


def test_ageing_evidence_weakens_then_goes_stale_at_exactly_stale_days(memory_home: Path) -> None:
    place(memory_home, "pref-aaaa000003", "Always run the linter before a commit", range(5))
    run(memory_home, 5, REFLECT_ONLY)  # 1.0, stable
    report = run(memory_home, 4 + 50, REFLECT_ONLY)  # age 50: recency 2/3
    assert report["reflect"]["changed"][0]["freshness"] == "weakening"
    report = run(memory_home, 4 + 89.9, REFLECT_ONLY)
    assert report["reflect"]["changed"][0]["freshness"] != "stale"
    report = run(memory_home, 4 + 90, REFLECT_ONLY)
    assert report["reflect"]["changed"][0]["freshness"] == "stale"
    assert ("STALE", "pref-aaaa000003 no evidence since 2026-09-05") in log_types(memory_home)


def test_a_stale_belief_stated_again_is_no_longer_stale(memory_home: Path) -> None:
    place(memory_home, "pref-aaaa000004", "Always run the linter before a commit", range(5))
    run(memory_home, 100, REFLECT_ONLY)
    assert record(memory_home, "pref-aaaa000004")["freshness"] == "stale"
    with Store(spec_for("preference"), memory_home).transaction() as entries:
        entries[0].evidence += [Evidence(at=at(101 + i), session_id=f"back-{i}") for i in range(5)]
    report = run(memory_home, 106, REFLECT_ONLY)
    assert report["reflect"]["changed"][0]["freshness"] == "strengthening"


def test_more_sessions_against_than_for_is_contradicted_and_logged_once(memory_home: Path) -> None:
    place(memory_home, "pref-aaaa000005", "Always use tabs", [0, 1], against=[2, 3])
    run(memory_home, 4, REFLECT_ONLY)
    assert record(memory_home, "pref-aaaa000005")["freshness"] == "stable"  # 2 against 2
    with Store(spec_for("preference"), memory_home).transaction() as entries:
        entries[0].counter_evidence += [Evidence(at=at(5), session_id="x", kind="contradicted")]
    run(memory_home, 6, REFLECT_ONLY)
    assert record(memory_home, "pref-aaaa000005")["freshness"] == "contradicted"
    run(memory_home, 7, REFLECT_ONLY)
    contradictions = [m for t, m in log_types(memory_home) if t == "CONTRADICT"]
    assert contradictions == ["pref-aaaa000005 3 sessions against, 2 for"]


def test_the_successor_of_a_reversed_preference_counts_against_it(memory_home: Path) -> None:
    place(memory_home, "pref-old0000001", "Always use npm", [0, 1, 2], state=State.SUPERSEDED)
    place(
        memory_home,
        "pref-new0000001",
        "Always use pnpm, never npm",
        [10, 11, 12, 13],
        details={"supersedes": "pref-old0000001"},
    )
    run(memory_home, 14, REFLECT_ONLY)
    old = record(memory_home, "pref-old0000001")
    assert (old["sources"], old["counter"], old["freshness"]) == (3, 4, "contradicted")
    assert record(memory_home, "pref-new0000001")["counter"] == 0


def test_an_open_conflict_counts_the_other_sides_sessions_from_the_day_they_met(
    memory_home: Path,
) -> None:
    conflict = {
        "id": "cf-1",
        "with": "pref-bbbb000002",
        "status": "open",
        "found": at(10).isoformat(),
    }
    place(
        memory_home,
        "pref-bbbb000001",
        "Always squash merge",
        [0, 1, 2],
        details={"conflicts": [conflict]},
    )
    other = {**conflict, "with": "pref-bbbb000001"}
    place(
        memory_home,
        "pref-bbbb000002",
        "Never squash merge",
        [5, 10, 11],
        details={"conflicts": [other]},
    )
    run(memory_home, 12, REFLECT_ONLY)
    assert record(memory_home, "pref-bbbb000001")["counter"] == 2  # days 10 and 11, not 5
    assert record(memory_home, "pref-bbbb000002")["counter"] == 0  # day 0-2 came before


def test_a_belief_reflected_in_the_last_seven_days_is_skipped_unless_reflect_only(
    memory_home: Path,
) -> None:
    place(memory_home, "pref-aaaa000006", "Always use pnpm", [0, 1])
    run(memory_home, 2, REFLECT_ONLY)
    with Store(spec_for("preference"), memory_home).transaction() as entries:
        entries[0].evidence += [
            Evidence(at=at(3), session_id="n1"),
            Evidence(at=at(4), session_id="n2"),
        ]
    report = run(memory_home, 8.9)  # 6.9 days: skipped
    assert (report["reflect"]["skipped"], report["reflect"]["evaluated"]) == (1, 0)
    assert run(memory_home, 9)["reflect"]["evaluated"] == 1  # 7 days
    place(memory_home, "pref-aaaa000007", "Always use ruff", [0])
    run(memory_home, 9.5, REFLECT_ONLY)
    assert run(memory_home, 9.6, REFLECT_ONLY)["reflect"]["skipped"] == 0


def test_the_other_belief_kinds_are_reflected_and_plain_facts_are_not(memory_home: Path) -> None:
    ctx = MemoryType.CONTEXT
    place(
        memory_home,
        "ctx-dec0000001",
        "Postgres for the orders database",
        [0, 3],
        kind=ctx,
        tags=["decision"],
    )
    place(
        memory_home, "ctx-les0000001", "Mock the clock, never sleep", [0], kind=ctx, tags=["lesson"]
    )
    place(memory_home, "ctx-fact000001", "The API runs on port 8080", [0, 1], kind=ctx)
    fix = {"fix": {"method": "same-command", "confidence": 0.9}}
    place(
        memory_home,
        "err-fix0000001",
        "TypeError: x is undefined",
        [0, 2, 4],
        kind=MemoryType.ERROR,
        details=fix,
    )
    place(memory_home, "err-open000001", "KeyError: 'id'", [0], kind=MemoryType.ERROR)
    kinds = {r["id"]: r["kind"] for r in run(memory_home, 5, REFLECT_ONLY)["reflect"]["changed"]}
    assert kinds == {
        "ctx-dec0000001": "decision",
        "ctx-les0000001": "lesson",
        "err-fix0000001": "fix",
    }


# ---- promote


def settings(**over: object) -> dict[str, object]:
    base: dict[str, object] = {
        "evolve.promotion_confidence": 0.85,
        "evolve.promotion_sources": 5,
        "evolve.top_beliefs_n": 10,
        "evolve.bootstrap": True,
        "evolve.bootstrap_below": 20,
    }
    return {**base, **{f"evolve.{k}": v for k, v in over.items()}}


def belief(
    name: str, conf: float, sources: int, fresh: str = "stable", **kw: Any
) -> promote.Belief:
    return promote.Belief(name, "preference", name, conf, sources, fresh, active=True, **kw)


def test_bootstrap_holds_below_twenty_active_beliefs_and_can_be_turned_off() -> None:
    weak = belief("pref-w", 0.72, 1)
    few = [weak, *(belief(f"pref-{i}", 0.1, 1) for i in range(18))]
    assert [b.id for b in promote.promote(few, settings()).top] == ["pref-w"]
    twenty = [*few, belief("pref-last", 0.1, 1)]
    outcome = promote.promote(twenty, settings())
    assert (outcome.thresholds.mode, outcome.top) == ("normal", ())
    off = promote.promote(few, settings(bootstrap=False))
    assert (off.thresholds.mode, off.top) == ("normal", ())
    inactive = [*few, promote.Belief("pref-old", "preference", "", 0.1, 1, "stable", active=False)]
    assert promote.promote(inactive, settings()).thresholds.mode == "bootstrap"


def test_bootstrap_never_raises_a_configured_threshold() -> None:
    at = promote.thresholds(settings(promotion_confidence=0.5, promotion_sources=1), 3)
    assert (at.mode, at.confidence, at.sources) == ("bootstrap", 0.5, 1)


def test_the_rank_is_confidence_times_ln_sources_and_ties_go_to_sources_then_newest_then_id() -> (
    None
):
    old, new = at(0), at(5)
    ranked = promote.order(
        [
            belief("pref-b", 0.9, 4, newest=old),
            belief("pref-a", 0.9, 4, newest=old),
            belief("pref-c", 0.9, 4, newest=new),
            belief("pref-d", 0.8, 9),  # 0.8 × ln 10 = 1.84 > 0.9 × ln 5 = 1.45
        ]
    )
    assert [b.id for b in ranked] == ["pref-d", "pref-c", "pref-a", "pref-b"]


def test_only_stable_or_strengthening_active_beliefs_qualify() -> None:
    at = promote.thresholds(settings(), 30)
    assert promote.qualifies(belief("p", 0.9, 5), at)
    assert promote.qualifies(belief("p", 0.9, 5, "strengthening"), at)
    assert not promote.qualifies(belief("p", 0.9, 5, "weakening"), at)
    assert not promote.qualifies(belief("p", 0.84, 5), at)
    assert not promote.qualifies(belief("p", 0.9, 4), at)


def test_each_demotion_says_why() -> None:
    every = [
        belief("pref-1", 0.95, 9, top=True),
        belief("pref-2", 0.9, 8, top=True),  # pushed out: the limit is 1
        belief("pref-3", 0.3, 8, "contradicted", top=True),
        belief("pref-4", 0.0, 8, "stale", top=True),
        belief("pref-5", 0.5, 8, top=True),
        belief("pref-6", 0.9, 8, "weakening", top=True),
        promote.Belief(
            "pref-7", "preference", "", 0.9, 8, "stable", active=False, top=True, state="superseded"
        ),
        *(belief(f"pref-x{i}", 0.1, 1) for i in range(20)),
    ]
    outcome = promote.promote(every, settings(top_beliefs_n=1))
    assert [b.id for b in outcome.top] == ["pref-1"]
    assert {b.id: why for b, why in outcome.demoted} == {
        "pref-2": "pushed out by the limit",
        "pref-3": "contradicted",
        "pref-4": "stale",
        "pref-5": "below threshold: conf 0.50 < 0.85",
        "pref-6": "below threshold: freshness weakening",
        "pref-7": "below threshold: superseded",
    }


def test_promote_writes_top_beliefs_into_memory_md_and_logs_it(memory_home: Path) -> None:
    place(memory_home, "pref-top0000001", "Always use pnpm, never npm", range(6))
    place(memory_home, "pref-top0000002", "Answer me in English", [0])
    make_memory_md(memory_home)
    report = run(memory_home, 6)
    assert [r["id"] for r in report["promote"]["promoted"]] == ["pref-top0000001"]
    text = (memory_home / "MEMORY.md").read_text()
    section = text.split("## Top Beliefs\n", 1)[1].split("\n\n", 1)[0]
    assert section == (
        "- Always use pnpm, never npm → pref-top0000001 · conf 1.00 · 6 sources · stable"
        " <!-- am:pref-top0000001 -->"
    )
    assert text.index("## Top Beliefs") < text.index("## User Preferences")
    assert (
        "PROMOTE",
        "pref-top0000001 → Top Beliefs conf=1.00 sources=6 [bootstrap]",
    ) in log_types(memory_home)


def test_a_top_belief_that_goes_stale_is_demoted_and_leaves_memory_md(memory_home: Path) -> None:
    place(memory_home, "pref-top0000003", "Always use pnpm, never npm", range(6))
    make_memory_md(memory_home)
    run(memory_home, 6)
    report = run(memory_home, 5 + 90)
    assert report["promote"]["demoted"] == [
        {
            "id": "pref-top0000003",
            "kind": "preference",
            "confidence": 0.0,
            "sources": 6,
            "reason": "stale",
        }
    ]
    assert "am:pref-top0000003 -->" in (memory_home / "MEMORY.md").read_text()  # its own line
    top = (memory_home / "MEMORY.md").read_text().split("## Top Beliefs\n", 1)[1].split("##", 1)[0]
    assert "pref-top0000003" not in top
    assert any(t == "DEMOTE" and "(stale)" in m for t, m in log_types(memory_home))


def test_lines_a_person_adds_to_top_beliefs_stay_and_a_deleted_one_forgets_nothing(
    memory_home: Path,
) -> None:
    place(memory_home, "pref-top0000004", "Always use pnpm, never npm", range(6))
    make_memory_md(memory_home)
    run(memory_home, 6)
    path = memory_home / "MEMORY.md"
    text = path.read_text()
    ours = next(
        line for line in text.splitlines() if line.startswith("- Always use pnpm, never npm →")
    )
    path.write_text(text.replace(ours + "\n", "- my own belief: tests first\n"))
    refresh(memory_home)
    after = path.read_text()
    assert "- my own belief: tests first" in after
    assert ours in after  # rendered again from the memory
    assert record(memory_home, "pref-top0000004")["top"]


def test_with_auto_promote_off_promote_reports_and_writes_nothing(memory_home: Path) -> None:
    place(memory_home, "pref-top0000005", "Always use pnpm, never npm", range(6))
    make_memory_md(memory_home)
    (memory_home / "config.toml").write_text("[evolve]\nauto_promote = false\n")
    before = snapshot(memory_home)
    report = run(memory_home, 6, ("promote",))
    assert [r["id"] for r in report["promote"]["top"]] == ["pref-top0000005"]
    assert (report["promote"]["written"], report["promote"]["writable"]) == (False, False)
    assert snapshot(memory_home) == before


def test_without_memory_md_promote_computes_and_warns(memory_home: Path) -> None:
    place(memory_home, "pref-top0000006", "Always use pnpm, never npm", range(6))
    report = run(memory_home, 6, ("promote",))
    assert report["promote"]["top"][0]["id"] == "pref-top0000006"
    assert not (memory_home / "MEMORY.md").exists()
    assert "MEMORY.md is missing: Top Beliefs computed, not written" in report["warnings"]


# ---- the run: dry, idempotent, partial failure, empty


def test_a_dry_run_leaves_every_byte_and_reports_the_same_changes(memory_home: Path) -> None:
    place(memory_home, "pref-dry0000001", "Always use pnpm, never npm", range(6))
    place(memory_home, "pref-dry0000002", "Always use tabs", [0], against=[1, 2])
    make_memory_md(memory_home)
    before = snapshot(memory_home)
    dry = run(memory_home, 6, dry_run=True)
    assert snapshot(memory_home) == before
    real = run(memory_home, 6)
    assert dry["reflect"]["changed"] == real["reflect"]["changed"]
    assert dry["promote"]["promoted"] == real["promote"]["promoted"]
    assert dry["dry_run"]
    assert not real["dry_run"]


def test_cli_dry_run_writes_nothing_not_even_memory_md(memory_home: Path) -> None:
    place(memory_home, "pref-dry0000003", "Always use pnpm, never npm", range(6))
    before = snapshot(memory_home)
    with freeze_time(at(6)):
        assert main(["evolve", "--dry-run", "--reflect-only"]) == 0
    assert snapshot(memory_home) == before


def test_a_second_run_right_after_the_first_changes_nothing(memory_home: Path) -> None:
    place(memory_home, "pref-idem000001", "Always use pnpm, never npm", range(6))
    place(memory_home, "pref-idem000002", "Always use tabs", [0], against=[1, 2])
    make_memory_md(memory_home)
    run(memory_home, 6)
    stores_and_files = snapshot(memory_home)
    second = run(memory_home, 6)
    assert second["reflect"]["changed"] == []
    assert (second["promote"]["promoted"], second["promote"]["demoted"]) == ([], [])
    assert snapshot(memory_home) == stores_and_files
    third = run(memory_home, 6.01, REFLECT_ONLY)  # forced, minutes later: still nothing
    assert third["reflect"]["changed"] == []


def test_an_invalid_belief_record_is_skipped_and_a_partial_one_defaulted(memory_home: Path) -> None:
    place(
        memory_home, "pref-bad0000001", "Always use pnpm", range(3), details={"belief": "garbage"}
    )
    partial = {"belief": {"freshness": "stable", "last_reflected": at(0).isoformat()}}
    place(memory_home, "pref-bad0000002", "Always use tabs", range(3), details=partial)
    place(memory_home, "pref-ok00000001", "Always use ruff", range(3))
    report = run(memory_home, 10)
    assert "pref-bad0000001: belief record is not an object — skipped" in report["warnings"]
    assert (
        "pref-bad0000002: belief confidence missing, defaulted to 0.5 — review"
        in report["warnings"]
    )
    changed = {r["id"]: r for r in report["reflect"]["changed"]}
    assert "pref-bad0000001" not in changed
    assert changed["pref-bad0000002"]["old"] == 0.5
    assert "pref-ok00000001" in changed


def test_an_unreadable_store_is_left_out_and_the_rest_evolves(memory_home: Path) -> None:
    place(memory_home, "pref-ok00000002", "Always use pnpm", range(3))
    place(
        memory_home,
        "ctx-dec0000002",
        "Postgres for orders",
        [0],
        kind=MemoryType.CONTEXT,
        tags=["decision"],
    )
    broken = memory_home / spec_for("context").filename
    broken.write_text("{ not json")
    report = run(memory_home, 4)
    assert any(w.startswith("project-contexts.json:") for w in report["warnings"])
    assert [r["id"] for r in report["reflect"]["changed"]] == ["pref-ok00000002"]
    assert broken.read_text() == "{ not json"
    every = run(memory_home, 12, evolve.PHASES)  # the consolidate phase fails, the rest goes on
    assert any(w.startswith("consolidate: ") for w in every["warnings"])
    assert every["reflect"]["evaluated"] == 1
    assert every["promote"] is not None


def test_an_empty_memory_is_a_clean_no_op(memory_home: Path) -> None:
    report = run(memory_home, 0, evolve.PHASES)
    assert report["reflect"] == {
        "evaluated": 0,
        "skipped": 0,
        "changed": [],
        "freshness": dict.fromkeys(beliefs.FRESHNESS, 0),
    }
    assert report["promote"]["top"] == []
    assert report["consolidate"] == {"entities": []}
    assert report["warnings"] == []
    assert not memory_home.exists() or snapshot(memory_home) == {}  # not a byte written
    assert evolve.run_if_due(memory_home) is None


def test_every_line_of_the_log_has_the_format(memory_home: Path) -> None:
    place(memory_home, "pref-log0000001", "Always use pnpm, never npm", range(6))
    place(memory_home, "pref-log0000002", "Always use tabs", [0], against=[1, 2])
    make_memory_md(memory_home)
    run(memory_home, 6)
    run(memory_home, 300)
    lines = (memory_home / "evolution.log").read_text().splitlines()
    assert {line.split("  ")[1] for line in lines} >= {
        "REFLECT",
        "PROMOTE",
        "DEMOTE",
        "STALE",
        "CONTRADICT",
        "ARCHIVE_CANDIDATE",
    }
    assert all(LOG_LINE.match(line) for line in lines), lines


# ---- cadence


def test_the_weekly_evolve_runs_when_the_last_is_seven_days_old(memory_home: Path) -> None:
    place(memory_home, "pref-week000001", "Always use pnpm", range(3))
    with freeze_time(at(3)):
        assert evolve.run_if_due(memory_home) is not None
    with freeze_time(at(9.9)):
        assert evolve.run_if_due(memory_home) is None
    with freeze_time(at(10)):
        assert evolve.run_if_due(memory_home) is not None
    assert evolve.last_run(memory_home) == at(10)


def test_the_session_start_worker_evolves_and_the_hook_itself_does_not(memory_home: Path) -> None:
    place(memory_home, "pref-week000002", "Always use pnpm", range(3))
    with freeze_time(at(3)):
        lifecycle.on_session_start({"hook_event_name": "SessionStart", "cwd": str(memory_home)})
        assert evolve.last_run(memory_home) is None
        lifecycle.ingest(then_prune=True)  # the worker
    assert evolve.last_run(memory_home) == at(3)
    assert record(memory_home, "pref-week000002")["confidence"] == 0.6


def test_the_session_end_promote_updates_top_beliefs(memory_home: Path) -> None:
    place(memory_home, "pref-end0000001", "Always use pnpm, never npm", range(6))
    make_memory_md(memory_home)
    with freeze_time(at(6)):
        report = evolve.promote_quietly(memory_home)
    assert report.phases == ["promote"]
    assert "→ pref-end0000001 ·" in (memory_home / "MEMORY.md").read_text()


# ---- the verb


def test_the_verb_prints_seed_002s_report_ending_with_the_audit_log(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    place(memory_home, "pref-cli0000001", "Always use pnpm, never npm", range(6))
    make_memory_md(memory_home)
    with freeze_time(at(6)):
        assert main(["evolve", "--reflect-only"]) == 0
        assert main(["evolve", "--promote-only"]) == 0
    out = capsys.readouterr().out
    assert "Phase 2 — Reflect" in out
    assert "Phase 1 — Consolidate" not in out
    assert "Mode: bootstrap (1 active belief, fewer than 20)" in out
    assert "Effective thresholds: conf>=0.70 sources>=1" in out
    assert "  - pref-cli0000001 conf=1.00 sources=6" in out
    assert out.rstrip().endswith(f"Audit: {memory_home / 'evolution.log'}")


def test_the_verb_as_json_and_its_exclusive_flags(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    place(memory_home, "pref-cli0000002", "Always use pnpm", range(2))
    with freeze_time(at(2)):
        assert main(["evolve", "--promote-only", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["phases"] == ["promote"]
    assert data["audit_log"] == str(memory_home / "evolution.log")
    with pytest.raises(SystemExit):
        main(["evolve", "--reflect-only", "--promote-only"])
    assert "not allowed with argument" in capsys.readouterr().err
