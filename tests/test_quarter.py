"""A quarter of sessions (tests/quarter.py) through the real hooks, evolved every week.

Issue 15's "done when": confidence rises with evidence, a reversed preference weakens then
is contradicted, an unused belief goes stale, Top Beliefs are the ones a person would agree
with, and every change of them is in evolution.log. The quarter is lived once per module,
week by week; after each week the evolve runs at the Monday 09:00 UTC that follows (the
last one on 2026-11-30, 91 days after the first session), and its report and every
belief's state are kept for the tests, which read MEMORY.md and ``show`` as a person would.

Before the numbers: reflect's formula (docs/EVOLVE.md §2) gives, for a belief whose newest
evidence is under 30 days old, ``min(1, sources / 5) - counter / (sources + counter)``; so
a rule stated in one more session each week goes 0.2, 0.4, 0.6, 0.8, 1.0, and bootstrap
(under 20 beliefs: confidence 0.7, 1 source) promotes what 4 recent sessions back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time
from quarter import (
    DAY_ZERO,
    DIFF_FIRST,
    ENGLISH_COMMITS,
    ENGLISH_REPLIES,
    KOREAN_COMMITS,
    PNPM,
    POSTGRES,
    PYTEST,
    STORIES,
    TYPE_HINTS,
    WEEKS,
    YAML_INDENT,
    evolve_times,
    quarter,
    week_of,
)
from week import Session, live, lived_home

from artibot_memory.api import evolve
from artibot_memory.api.memories import list_memories
from artibot_memory.cli.app import main as cli_main
from artibot_memory.recall.prompt_recall import prompt_output
from artibot_memory.store import audit
from artibot_memory.store.model import Memory, MemoryType
from artibot_memory.text import markdown

FINAL = evolve_times()[-1]  # Monday 2026-11-30 09:00 UTC: the evolve after the quarter
STALE_DAYS = 90
TOP_LINE = re.compile(
    r"^- (?P<label>.+) → (?P<id>[a-z]+-[0-9a-f]+) · conf (?P<conf>[01](?:\.\d+)?)"
    r" · (?P<sources>\d+) sources? · (?P<freshness>[a-z]+) <!-- am:(?P=id) -->$"
)
REFLECT_MESSAGE = re.compile(
    r"^(?P<id>\S+) conf (?P<old>\S+)→(?P<new>[\d.]+) freshness=(?P<freshness>[a-z]+)$"
)


@dataclass
class Lived:
    """The memory home after the quarter, and what each weekly evolve reported and left."""

    home: Path
    sessions: tuple[Session, ...]
    reports: list[dict[str, Any]] = field(default_factory=list)  # week 1 first
    beliefs: list[dict[str, dict[str, Any]]] = field(default_factory=list)  # id → belief


def _belief_states(home: Path) -> dict[str, dict[str, Any]]:
    """Every memory's ``details["belief"]`` (what reflect last concluded), by id."""
    memories = list_memories(include_expired=True, home=home)
    return {
        m.id: dict(m.details["belief"])
        for m in memories
        if isinstance(m.details.get("belief"), dict)
    }


@pytest.fixture(scope="module")
def lived(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lived]:
    """The quarter, lived week by week, each week followed by its evolve (once per module)."""
    root = tmp_path_factory.mktemp("quarter")
    with lived_home(root / "memory") as home:
        result = Lived(home, quarter())
        for week, when in enumerate(evolve_times(), start=1):
            live(root / "work", [s for s in result.sessions if week_of(s) == week])
            with freeze_time(when):
                result.reports.append(evolve.run(home, now=when).to_json())
            result.beliefs.append(_belief_states(home))
        yield result


@pytest.fixture
def home(lived: Lived, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The lived quarter's home, for this test (conftest gives each test an empty one)."""
    monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(lived.home))
    monkeypatch.setenv("ARTIBOT_MEMORY_VECTORS", "off")
    return lived.home


@pytest.fixture
def evolved(lived: Lived, home: Path) -> Lived:
    """The lived quarter with its thirteen weekly evolves."""
    assert home == lived.home
    assert len(lived.reports) == WEEKS
    return lived


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    with freeze_time(FINAL + timedelta(minutes=5)):
        assert cli_main(list(argv)) == 0
    return capsys.readouterr().out


def _memories(home: Path) -> list[Memory]:
    with freeze_time(FINAL):
        return list_memories(include_expired=True, home=home)


def _one(home: Path, text: str, memory_type: MemoryType = MemoryType.PREFERENCE) -> Memory:
    """The one memory of ``memory_type`` whose text is ``text`` (as stored: the end trimmed)."""
    wanted = text.rstrip(".!")
    found = [m for m in _memories(home) if m.type is memory_type and m.text == wanted]
    assert len(found) == 1, (text, [m.text for m in _memories(home) if m.type is memory_type])
    return found[0]


def _fix(home: Path) -> Memory:
    found = [m for m in _memories(home) if m.type is MemoryType.ERROR and "TS2345" in m.text]
    assert len(found) == 1, [m.text for m in _memories(home) if m.type is MemoryType.ERROR]
    return found[0]


def _session_ids(story: str) -> set[str]:
    return {s.session_id for s in quarter() if s.number in STORIES[story]}


def _evidence_sessions(memory: Memory) -> set[str]:
    return {e.session_id for e in memory.evidence if e.session_id}


def _series(lived: Lived, memory_id: str, name: str) -> list[Any]:
    """One field of a belief after each week's evolve (None: not reflected yet)."""
    return [week.get(memory_id, {}).get(name) for week in lived.beliefs]


def _top_ids(report: dict[str, Any]) -> list[str]:
    return [item["id"] for item in report["promote"]["top"]]


def _log(home: Path) -> list[audit.Entry]:
    return audit.read(home)


def _top_beliefs_lines(capsys: pytest.CaptureFixture[str]) -> tuple[str, list[str]]:
    """MEMORY.md's first section's title and its lines, as ``get MEMORY.md`` prints them."""
    doc = markdown.parse(_cli(capsys, "get", "MEMORY.md"))
    first = doc.sections[0]
    return first.title, [line.text for line in first.body if line.text.startswith("- ")]


# --- the quarter itself --------------------------------------------------------------


def test_the_quarter_is_sixty_sessions_over_thirteen_weeks_in_four_projects() -> None:
    sessions = quarter()
    assert 55 <= len(sessions) <= 65
    assert sessions == quarter()  # nothing random
    assert sessions[0].started_at == DAY_ZERO + timedelta(hours=1)
    assert sessions[-1].ended_at < DAY_ZERO + timedelta(days=91)  # Sunday 2026-11-29
    assert {s.project for s in sessions} == {"shop", "api", "infra", "docs"}
    assert {week_of(s) for s in sessions} == set(range(1, WEEKS + 1))
    prompts = [step.text for s in sessions for step in s.steps if step.kind == "prompt"]
    assert any(re.search("[가-힣]", text) for text in prompts)
    assert [s.started_at for s in sessions] == sorted(s.started_at for s in sessions)
    assert len({s.session_id for s in sessions}) == len(sessions)


@pytest.mark.parametrize(
    ("story", "at_least", "weeks"),
    [
        ("rising", 7, range(1, 14)),
        ("reversed-old", 4, range(1, 6)),
        ("reversed-new", 6, range(7, 14)),
        ("unused", 2, range(1, 3)),
        ("fix", 3, range(1, 14)),
        ("decision", 2, range(1, 14)),
    ],
)
def test_each_story_is_told_in_the_weeks_it_needs(story: str, at_least: int, weeks: range) -> None:
    told = [s for s in quarter() if s.number in STORIES[story]]
    assert len(told) >= at_least
    assert {week_of(s) for s in told} <= set(weeks)


def test_the_reversal_comes_in_week_seven_and_the_one_off_is_said_once() -> None:
    reversal = [s for s in quarter() if s.number in STORIES["reversed-new"]]
    assert week_of(reversal[0]) == 7
    assert len(STORIES["one-off"]) == 1


# --- what the stores hold after the quarter (no evolve needed) ---------------------------


def test_the_rising_rule_has_the_evidence_of_every_session_that_restated_it(home: Path) -> None:
    rule = _one(home, PNPM)
    assert rule.state.value == "active"
    assert _evidence_sessions(rule) == _session_ids("rising")
    assert len(_evidence_sessions(rule)) >= 5  # volume 1 in reflect's formula


def test_the_reversal_supersedes_the_old_preference_without_a_conflict(home: Path) -> None:
    old, new = _one(home, ENGLISH_COMMITS), _one(home, KOREAN_COMMITS)
    assert old.key == new.key == "commit-language"
    assert old.state.value == "superseded"
    assert new.state.value == "active"
    assert new.details["supersedes"] == old.id
    assert _evidence_sessions(old) == _session_ids("reversed-old")
    assert _evidence_sessions(new) == _session_ids("reversed-new")
    assert len(_evidence_sessions(new)) > len(_evidence_sessions(old))  # contradicted, at last
    # "앞으로 …" says the new one wins: nothing to ask (notes/conflicts.py, a reversal)
    assert not [c for c in old.details.get("conflicts", []) if c["with"] == new.id]
    assert not [c for c in new.details.get("conflicts", []) if c["with"] == old.id]


def test_the_unused_preference_was_last_seen_over_ninety_days_before_the_last_evolve(
    home: Path,
) -> None:
    unused = _one(home, YAML_INDENT)
    assert _evidence_sessions(unused) == _session_ids("unused")
    assert unused.last_verified is not None
    assert unused.last_verified.date() == DAY_ZERO.date()
    assert FINAL - unused.last_verified >= timedelta(days=STALE_DAYS)
    the_week_before = evolve_times()[-2]
    assert the_week_before - unused.last_verified < timedelta(days=STALE_DAYS)


@pytest.mark.parametrize(
    "text", [PYTEST, ENGLISH_REPLIES, TYPE_HINTS], ids=["pytest", "replies", "type-hints"]
)
def test_the_steady_preferences_are_active_and_stated_to_the_end(home: Path, text: str) -> None:
    steady = _one(home, text)
    assert steady.state.value == "active"
    assert len(_evidence_sessions(steady)) >= 5
    assert steady.last_verified is not None
    assert FINAL - steady.last_verified < timedelta(days=30)


def test_the_one_off_liking_stays_pending_with_one_session(home: Path) -> None:
    liking = _one(home, DIFF_FIRST)
    assert liking.state.value == "pending"
    assert len(_evidence_sessions(liking)) == 1


def test_the_decision_is_referenced_again_and_the_fix_repeated(home: Path) -> None:
    decision = _one(home, POSTGRES, MemoryType.CONTEXT)
    assert "decision" in decision.tags
    assert _evidence_sessions(decision) == _session_ids("decision")
    fix = _fix(home)
    assert fix.state.value == "resolved"
    assert "fix" in fix.details
    assert _evidence_sessions(fix) == _session_ids("fix")
    assert "src/cart/total.ts" in (fix.resolution or "")  # the same edit each time
    assert fix.details["fix"]["confirmed"] >= len(STORIES["fix"]) - 1  # the fix held


# --- the weekly evolves --------------------------------------------------------------


def test_every_weekly_report_has_the_contracts_shape_and_no_warning(evolved: Lived) -> None:
    for when, report in zip(evolve_times(), evolved.reports, strict=True):
        assert report["date"] == when.date().isoformat()
        assert report["dry_run"] is False
        assert report["phases"] == ["consolidate", "reflect", "promote"]
        assert report["warnings"] == [], (when, report["warnings"])
        assert report["audit_log"] == str(evolved.home / "evolution.log")
        promote = report["promote"]
        assert promote["mode"] == "bootstrap"  # the quarter holds fewer than 20 beliefs
        assert promote["thresholds"] == {"confidence": 0.7, "sources": 1, "limit": 10}
        assert isinstance(promote["written"], bool)
        reflect = report["reflect"]
        assert sum(reflect["freshness"].values()) <= reflect["evaluated"] + reflect["skipped"]


def test_the_rising_rule_grows_more_confident_run_after_run(evolved: Lived) -> None:
    rule = _one(evolved.home, PNPM)
    confidence = _series(evolved, rule.id, "confidence")
    sources = _series(evolved, rule.id, "sources")
    assert None not in confidence, confidence
    assert confidence == sorted(confidence), confidence  # never falls
    assert confidence[0] <= 0.4, confidence  # one session: volume 1/5
    assert len(set(confidence[:5])) >= 3, confidence  # it rose, week after week
    assert confidence[4] >= 0.9, confidence  # 5 sources by week 5
    assert confidence[-1] >= 0.9
    assert sources == sorted(sources), sources
    assert sources[-1] >= 5
    assert "strengthening" in _series(evolved, rule.id, "freshness")
    rose = [e for e in _log(evolved.home) if e.type == "REFLECT" and e.message.startswith(rule.id)]
    assert any("freshness=strengthening" in e.message for e in rose), rose
    assert all(rule.id in _top_ids(report) for report in evolved.reports[4:])


def test_the_reversed_preference_weakens_then_is_contradicted(evolved: Lived) -> None:
    old, new = _one(evolved.home, ENGLISH_COMMITS), _one(evolved.home, KOREAN_COMMITS)
    freshness = _series(evolved, old.id, "freshness")
    assert not {"weakening", "contradicted"} & set(freshness[:6]), freshness  # weeks 1-6
    assert "weakening" in freshness[6:10], freshness  # weeks 7-10: the reversal's sessions
    first_weak = freshness.index("weakening")
    assert "contradicted" not in freshness[:first_weak]
    assert freshness[10:] == ["contradicted"] * 3, freshness  # weeks 11-13: 5+ against 4
    final = evolved.beliefs[-1][old.id]
    assert final["counter"] > final["sources"] == 4
    confidence = _series(evolved, old.id, "confidence")
    assert confidence[-1] < confidence[5], confidence  # below what week 6 thought of it
    log = _log(evolved.home)
    assert any(e.type == "CONTRADICT" and e.message.startswith(old.id) for e in log)
    assert old.id in _top_ids(evolved.reports[4])  # week 5: four sessions, recent: top
    assert not any(old.id in _top_ids(report) for report in evolved.reports[6:])
    assert any(e.type == "DEMOTE" and e.message.startswith(old.id) for e in log)
    assert new.id in _top_ids(evolved.reports[-1])


def test_the_unused_belief_goes_stale_at_the_quarters_end(evolved: Lived) -> None:
    unused = _one(evolved.home, YAML_INDENT)
    freshness = _series(evolved, unused.id, "freshness")
    assert "stale" not in freshness[:-1], freshness  # under 90 days until the last Monday
    assert freshness[-1] == "stale", freshness
    confidence = _series(evolved, unused.id, "confidence")
    assert confidence[-1] == 0.0
    assert confidence[-1] < confidence[0]
    stale = [e for e in _log(evolved.home) if e.type == "STALE" and unused.id in e.message]
    assert len(stale) == 1
    assert stale[0].at == FINAL
    assert not any(unused.id in _top_ids(report) for report in evolved.reports)
    assert evolved.reports[-1]["reflect"]["freshness"].get("stale", 0) >= 1


def test_top_beliefs_are_the_ones_a_person_would_agree_with(
    evolved: Lived, capsys: pytest.CaptureFixture[str]
) -> None:
    home = evolved.home
    title, lines = _top_beliefs_lines(capsys)
    assert title == "Top Beliefs"  # MEMORY.md's first section
    parsed = [TOP_LINE.match(line) for line in lines]
    assert all(parsed), lines
    ids = [match["id"] for match in parsed if match]
    kept = {PNPM, KOREAN_COMMITS, PYTEST, ENGLISH_REPLIES, TYPE_HINTS}
    assert set(ids) == {_one(home, text).id for text in kept}, lines
    assert ids[:2] == [_one(home, PNPM).id, _one(home, PYTEST).id]  # the most sessions first
    never = [ENGLISH_COMMITS, YAML_INDENT, DIFF_FIRST]
    assert not {_one(home, text).id for text in never} & set(ids)
    assert _fix(home).id not in ids  # three sessions, two months ago
    assert ids == _top_ids(evolved.reports[-1])
    for match in parsed:
        assert match is not None
        memory = next(m for m in _memories(home) if m.id == match["id"])
        assert memory.text.startswith(match["label"].rstrip("…"))  # a link, not a copy
        assert float(match["conf"]) >= 0.7
        assert int(match["sources"]) >= 5
        assert match["freshness"] in {"stable", "strengthening"}


@pytest.mark.parametrize(
    "text", [PYTEST, ENGLISH_REPLIES, TYPE_HINTS], ids=["pytest", "replies", "type-hints"]
)
def test_a_steady_preference_stays_in_top_beliefs_from_week_six_on(
    evolved: Lived, text: str
) -> None:
    steady = _one(evolved.home, text)
    assert all(steady.id in _top_ids(report) for report in evolved.reports[5:])
    assert evolved.beliefs[-1][steady.id]["freshness"] in {"stable", "strengthening"}


def test_the_one_off_liking_and_the_old_decision_are_never_top_beliefs(evolved: Lived) -> None:
    liking = _one(evolved.home, DIFF_FIRST)
    decision = _one(evolved.home, POSTGRES, MemoryType.CONTEXT)
    for report in evolved.reports:
        assert liking.id not in _top_ids(report)
        assert decision.id not in _top_ids(report)  # three sessions: confidence 0.6 at most
    assert not any(liking.id in e.message for e in _log(evolved.home) if e.type == "PROMOTE")
    assert evolved.beliefs[-1][decision.id]["sources"] == 3
    assert evolved.beliefs[-1][_fix(evolved.home).id]["sources"] == 3


def _replayed_top(log: list[audit.Entry], until: datetime) -> set[str]:
    """Top Beliefs as the log's PROMOTE and DEMOTE lines make it, up to ``until``."""
    top: set[str] = set()
    for entry in log:
        if entry.at > until or "Top Beliefs" not in entry.message:
            continue
        memory_id = entry.message.split(" ", 1)[0]
        if entry.type == "PROMOTE":
            top.add(memory_id)
        elif entry.type == "DEMOTE":
            top.discard(memory_id)
    return top


def test_every_change_of_top_beliefs_is_in_the_evolution_log(
    evolved: Lived, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _log(evolved.home)
    assert log == sorted(log, key=lambda e: e.at)
    assert {e.type for e in log} <= set(audit.TYPES)
    for when, report in zip(evolve_times(), evolved.reports, strict=True):
        assert _replayed_top(log, when) == set(_top_ids(report)), when
        this_run = [e for e in log if e.at == when]
        for item in report["promote"]["promoted"]:
            line = f"{item['id']} → Top Beliefs"
            assert any(e.type == "PROMOTE" and e.message.startswith(line) for e in this_run)
        for item in report["promote"]["demoted"]:
            demoted = [e for e in this_run if e.type == "DEMOTE" and item["id"] in e.message]
            assert demoted, (when, item)
            assert f"({item['reason']})" in demoted[0].message
    title, lines = _top_beliefs_lines(capsys)
    assert title == "Top Beliefs"
    shown = {match["id"] for match in map(TOP_LINE.match, lines) if match}
    assert _replayed_top(log, FINAL + timedelta(minutes=5)) == shown


def test_every_reflected_change_is_a_reflect_line_of_its_run(evolved: Lived) -> None:
    log = _log(evolved.home)
    for when, report in zip(evolve_times(), evolved.reports, strict=True):
        lines = [REFLECT_MESSAGE.match(e.message) for e in log if e.at == when]
        reflected = {(m["id"], float(m["new"]), m["freshness"]) for m in lines if m}
        for change in report["reflect"]["changed"]:
            assert (change["id"], change["new"], change["freshness"]) in reflected, (when, change)
    assert any(e.type == "REFLECT" for e in log)


def test_a_beliefs_state_is_on_its_memory_for_show_to_tell(
    evolved: Lived, capsys: pytest.CaptureFixture[str]
) -> None:
    rule = _one(evolved.home, PNPM)
    shown = json.loads(_cli(capsys, "show", rule.id, "--json"))
    belief = shown["details"]["belief"]
    expected = {"confidence", "freshness", "last_reflected", "sources", "counter", "newest", "top"}
    assert expected <= set(belief), belief
    assert belief["sources"] == len(_session_ids("rising"))  # a top belief's: counted now
    assert belief["counter"] == 0
    # The newest evidence as of its last written reflection (a move under 0.05 is not
    # written): within the quarter, never after its last session.
    newest = max(e["at"] for e in shown["evidence"])
    assert "2026-08-31" <= belief["newest"][:10] <= newest[:10] == "2026-11-26"
    assert len(shown["evidence"]) >= belief["sources"]  # evolve deletes no evidence
    text = _cli(capsys, "show", rule.id)
    assert f"belief:     {belief['confidence']:.2f}, {belief['freshness']}" in text


# ---- what a session of shop is handed after the quarter (issue 25)

BOOKKEEPING = re.compile(
    r"Session [0-9a-f]{8}|\d\d:\d\d–\d\d:\d\d|UTC|claude-test|/work/|distinct\)|active\)"
)


def _in_shop(lived: Lived) -> str:
    return str(lived.home.parent / "work" / "shop")


def test_a_shop_session_starts_with_what_it_needs_and_no_bookkeeping(
    evolved: Lived, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _cli(capsys, "context", "--project", _in_shop(evolved))
    assert len(text) <= 3_600
    assert not BOOKKEEPING.search(text), BOOKKEEPING.search(text)
    assert "always use pnpm, never npm" in text
    assert "커밋 메시지는 한국어로" in text
    assert "Always write commit messages in English" not in text  # superseded
    assert "TS2345" in text  # the coupon's error ...
    assert "fixed by" in text  # ... with its fix
    assert '"Tidy the cart styles." (asked 4×' in text  # the routine ask, folded
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == len(set(lines))


@pytest.mark.parametrize(
    ("prompt", "wanted"),
    [
        pytest.param(
            "The coupon total is wrong again on main, can you look?", "err-", id="coupon-en"
        ),
        pytest.param("what fixed it last time? the coupon total again", "err-", id="fixed-it"),
        pytest.param("커밋 메시지는 어떤 언어로 써야 해?", "pref-", id="commit-language-ko"),
    ],
)
def test_a_prompt_gets_the_record_that_answers_not_a_summary(
    evolved: Lived, prompt: str, wanted: str
) -> None:
    payload = {"prompt": prompt, "cwd": _in_shop(evolved), "session_id": f"fresh-{prompt[:8]}"}
    with freeze_time(FINAL + timedelta(minutes=5)):
        output = prompt_output(payload, home=str(evolved.home))
    assert output is not None
    text = output["hookSpecificOutput"]["additionalContext"]
    [first, *_] = [line for line in text.splitlines() if line.startswith("- [")]
    assert f"· {wanted}" in first
    assert "session:" not in text
    assert len(text) <= 1_500
