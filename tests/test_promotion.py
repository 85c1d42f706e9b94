"""Seed 001's promotion signals and rule (notes/promotion.py): each signal, each boundary."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from artibot_memory.core import config
from artibot_memory.notes import promotion
from artibot_memory.notes.promotion import Candidate, Sighting, assess

DAY = datetime(2026, 11, 20, 12, tzinfo=timezone.utc)


def seen(*sessions: str | None, kind: str = "stated", days_apart: int = 1) -> tuple[Sighting, ...]:
    return tuple(
        Sighting(DAY + timedelta(days=n * days_apart), session, kind)
        for n, session in enumerate(sessions)
    )


def candidate(**fields: object) -> Candidate:
    values: dict[str, object] = {
        "ref": "ctx-1",
        "text": "Deploys go out on Tuesdays",
        "kind": "fact",
    }
    values.update(fields)
    return Candidate(**values)  # type: ignore[arg-type]


# ---- the rule


@pytest.mark.parametrize(
    ("strong", "supporting", "verdict"),
    [
        pytest.param(2, 0, "propose", id="exactly 2 strong"),
        pytest.param(4, 3, "propose", id="every signal"),
        pytest.param(1, 2, "propose", id="1 strong and 2 supporting"),
        pytest.param(1, 3, "propose", id="1 strong and 3 supporting"),
        pytest.param(1, 1, "none", id="1 strong and 1 supporting: not proposed"),
        pytest.param(1, 0, "none", id="1 strong alone"),
        pytest.param(0, 1, "review", id="only supporting: the weekly review"),
        pytest.param(0, 3, "review", id="only supporting, all three"),
        pytest.param(0, 0, "none", id="nothing"),
    ],
)
def test_the_rule_at_each_boundary(strong: int, supporting: int, verdict: str) -> None:
    assert promotion.verdict(strong, supporting) == verdict


def test_two_strong_signals_are_proposed() -> None:
    found = assess(candidate(sightings=seen("a", "b", "c")))
    assert [s.name for s in found.strong] == ["referenced", "repeated"]
    assert found.supporting == []
    assert found.verdict == "propose"


def test_one_strong_and_two_supporting_are_proposed() -> None:
    found = assess(candidate(kind="preference", confidence=0.9, sightings=seen("a", "b")))
    assert [s.name for s in found.strong] == ["referenced"]
    assert [s.name for s in found.supporting] == ["confident", "useful"]
    assert found.verdict == "propose"


def test_one_strong_and_one_supporting_are_not_proposed() -> None:
    found = assess(candidate(kind="decision", sightings=seen("a", "b")))
    assert ([s.name for s in found.strong], [s.name for s in found.supporting]) == (
        ["referenced"],
        ["useful"],
    )
    assert found.verdict == "none"


def test_supporting_signals_only_go_to_the_weekly_review() -> None:
    found = assess(candidate(kind="lesson", confidence=0.85, sightings=seen("a")))
    assert found.strong == []
    assert found.verdict == "review"


def test_no_signal_is_nothing() -> None:
    assert assess(candidate(sightings=seen("a"))).verdict == "none"


# ---- strong signals


def test_referenced_when_a_later_session_states_it_again() -> None:
    signal = promotion.referenced(candidate(sightings=seen("1a2b3c4d5e6f", "5e6f7a8b9c0d")))
    assert signal is not None
    assert signal.evidence == "stated again in session 5e6f7a8b on 2026-11-21"


def test_referenced_when_a_later_session_follows_it() -> None:
    sightings = (Sighting(DAY, "a"), Sighting(DAY + timedelta(days=2), "b", "used"))
    signal = promotion.referenced(candidate(sightings=sightings))
    assert signal is not None
    assert signal.evidence == "followed in session b on 2026-11-22"


def test_the_same_session_again_is_no_reference() -> None:
    assert promotion.referenced(candidate(sightings=seen("a", "a", "a"))) is None


def test_referenced_when_a_search_handed_it_back_on_a_later_day() -> None:
    later = candidate(sightings=seen("a"), accessed=DAY + timedelta(days=3), access_count=2)
    signal = promotion.referenced(later)
    assert signal is not None
    assert signal.evidence == "handed back by a search on 2026-11-23, 2 times in all"


def test_a_search_the_same_day_it_was_seen_is_no_reference() -> None:
    same_day = candidate(sightings=seen("a"), accessed=DAY + timedelta(hours=1), access_count=1)
    assert promotion.referenced(same_day) is None


def test_repeated_at_repeat_min_days_or_sessions_not_below() -> None:
    assert promotion.repeated(candidate(sightings=seen("a", "b")), 3) is None
    three = promotion.repeated(candidate(sightings=seen("a", "b", "c")), 3)
    assert three is not None
    assert three.evidence == "seen in 3 sessions over 3 days"
    one_session = promotion.repeated(candidate(sightings=seen("a", "a", "a")), 3)
    assert one_session is not None
    assert one_session.evidence == "seen in 1 session over 3 days"


def test_repeat_min_comes_from_the_settings(memory_home: Path) -> None:
    memory_home.mkdir(parents=True)
    (memory_home / "config.toml").write_text("[promotion]\nrepeat_min = 2\n", encoding="utf-8")
    settings = config.load(memory_home)
    found = assess(candidate(sightings=seen("a", "b")), settings=settings)
    assert [s.name for s in found.strong] == ["referenced", "repeated"]


def test_core_for_one_of_the_most_active_projects() -> None:
    signal = promotion.core_signal(candidate(project="shop"), {"shop": 12, "blog": 3})
    assert signal is not None
    assert signal.evidence == "of shop, a core project (12 sessions lately)"
    assert promotion.core_signal(candidate(project="wiki"), {"shop": 12}) is None


def test_core_for_a_named_person() -> None:
    signal = promotion.core_signal(candidate(person="sara"), {})
    assert signal is not None
    assert signal.evidence == "about sara"


def test_reinforced_by_a_correction_or_a_confirmation() -> None:
    corrected = promotion.reinforced(candidate(corrections=("corrects pref-1 (“Use npm”)",)))
    assert corrected is not None
    assert corrected.evidence == "corrects pref-1 (“Use npm”)"
    confirmed = (
        Sighting(DAY, "a"),
        Sighting(DAY + timedelta(days=1), None, "confirmed", "MEMORY.md:7"),
    )
    signal = promotion.reinforced(candidate(sightings=confirmed))
    assert signal is not None
    assert signal.evidence == "confirmed on 2026-11-21 (MEMORY.md:7)"
    assert promotion.reinforced(candidate(sightings=seen("a", "b"))) is None


# ---- supporting signals


def test_confident_from_the_threshold_on() -> None:
    assert promotion.confident(candidate(confidence=0.79), 0.8) is None
    signal = promotion.confident(candidate(confidence=0.8), 0.8)
    assert signal is not None
    assert signal.evidence == "confidence 0.80"
    assert promotion.confident(candidate(confidence=None), 0.8) is None


@pytest.mark.parametrize(
    ("kind", "useful"),
    [("preference", True), ("decision", True), ("lesson", True), ("event", False), ("fact", False)],
)
def test_useful_for_a_preference_decision_or_lesson_not_an_event(kind: str, useful: bool) -> None:
    assert (promotion.useful(candidate(kind=kind)) is not None) is useful


def test_related_to_an_active_decision_or_preference() -> None:
    links = ("pref-1 (“Use pnpm”)", "ctx-2 (“Decided: pnpm workspaces”)")
    signal = promotion.related(candidate(related=links))
    assert signal is not None
    assert signal.evidence == "pref-1 (“Use pnpm”) (+1)"
    assert promotion.related(candidate()) is None


def test_sessions_and_days_are_distinct_and_in_order() -> None:
    found = candidate(sightings=(*seen("b", "a"), Sighting(DAY, "b"), Sighting(DAY, None)))
    assert found.sessions == ["b", "a"]
    assert found.days == ["2026-11-20", "2026-11-21"]
