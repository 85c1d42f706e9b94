"""Confidence, confirmation and last_verified come from evidence (docs/METADATA.md §1)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.store import evidence
from artibot_memory.store.model import Evidence, Memory, MemoryType, Source, State

T0 = datetime(2026, 11, 2, 9, tzinfo=timezone.utc)


def memory(kind: MemoryType = MemoryType.PREFERENCE, **fields: object) -> Memory:
    return Memory.model_validate(
        {
            "id": "pref-1",
            "type": kind,
            "text": "Use pnpm",
            "created_at": T0,
            "updated_at": T0,
            "last_seen": T0,
            **fields,
        }
    )


@pytest.mark.parametrize(
    ("base", "support", "against", "expected"),
    [
        pytest.param(0.5, 1, 0, 0.5, id="one-session-is-the-base"),
        pytest.param(0.5, 2, 0, 0.75, id="two-sessions-close-half-the-gap"),
        pytest.param(0.8, 3, 0, 0.93, id="a-rule-in-three-sessions"),
        pytest.param(0.9, 1000, 0, 0.99, id="never-certain"),
        pytest.param(0.8, 2, 2, 0.45, id="as-many-against-halves-it"),
        pytest.param(0.7, 0, 0, 0.7, id="no-evidence-leaves-the-base"),
        pytest.param(0.7, 0, 1, 0.0, id="only-against-is-nothing"),
    ],
)
def test_confidence_is_the_formula_of_the_contract(
    base: float, support: int, against: int, expected: float
) -> None:
    assert evidence.confidence(base, support, against) == expected


def test_support_counts_sessions_and_a_day_for_each_sighting_without_one() -> None:
    seen = [
        Evidence(at=T0, session_id="s1"),
        Evidence(at=T0 + timedelta(hours=1), session_id="s1"),
        Evidence(at=T0),
        Evidence(at=T0 + timedelta(hours=2)),
        Evidence(at=T0 + timedelta(days=1)),
    ]
    m = memory(evidence=seen, counter_evidence=[Evidence(at=T0, session_id="s9")])
    assert evidence.support(m) == 3
    assert evidence.against(m) == 1


def test_an_entry_without_kind_reads_as_stated() -> None:
    m = memory(evidence=[{"at": T0.isoformat(), "session_id": "s1"}])
    assert m.evidence[0].kind == "stated"


def test_confirmed_needs_two_distinct_sessions() -> None:
    once = memory(evidence=[Evidence(at=T0, session_id="s1"), Evidence(at=T0, session_id="s1")])
    assert not evidence.confirmed(once)
    twice = memory(evidence=[Evidence(at=T0, session_id="s1"), Evidence(at=T0, session_id="s2")])
    assert evidence.confirmed(twice)
    days_only = memory(evidence=[Evidence(at=T0), Evidence(at=T0 + timedelta(days=3))])
    assert not evidence.confirmed(days_only)


def test_refresh_computes_a_preference_and_leaves_an_error_its_own() -> None:
    two = [Evidence(at=T0, session_id="s1"), Evidence(at=T0 + timedelta(days=2), session_id="s2")]
    pref = evidence.refresh(memory(confidence=0.5, evidence=two))
    assert pref.confidence == 0.75
    assert pref.details["base_confidence"] == 0.5
    assert pref.last_verified == T0 + timedelta(days=2)
    error = evidence.refresh(memory(MemoryType.ERROR, confidence=0.6, evidence=two))
    assert error.confidence == 0.6
    assert error.last_verified == T0 + timedelta(days=2)
    assert evidence.refresh(evidence.refresh(pref)).confidence == 0.75  # no drift


def test_a_preference_grows_surer_with_each_session_and_verified_is_the_last_sighting() -> None:
    for day, session in enumerate(["s1", "s2", "s3"]):
        with freeze_time(T0 + timedelta(days=day)):
            saved = memories.save(
                "preference",
                "I like tabs",
                confidence=0.5,
                source=Source(channel="hook:UserPromptSubmit", session_id=session),
            )
    assert saved.confidence == 0.83
    assert saved.details["base_confidence"] == 0.5
    assert saved.last_verified == T0 + timedelta(days=2)


def test_last_verified_is_the_evidence_not_the_time_of_the_write() -> None:
    with freeze_time(T0 + timedelta(days=10)):
        saved = memories.save(
            "preference", "Use pnpm", created_at=T0, source=Source(session_id="s1")
        )
    assert saved.last_verified == T0


@pytest.mark.parametrize(
    ("second_state", "sessions", "expected"),
    [
        pytest.param(State.PENDING, ["s1", "s1"], State.PENDING, id="one-session-stays-pending"),
        pytest.param(State.PENDING, ["s1", "s2"], State.ACTIVE, id="two-sessions-confirm"),
        pytest.param(State.ACTIVE, ["s1", "s1"], State.ACTIVE, id="stated-as-a-rule"),
    ],
)
def test_seed_003_a_pending_preference_is_active_only_when_confirmed_or_a_rule(
    second_state: State, sessions: list[str], expected: State
) -> None:
    first, second = sessions
    with freeze_time(T0):
        memories.save(
            "preference",
            "I prefer short commits",
            state=State.PENDING,
            source=Source(session_id=first),
            observation="a",
        )
    with freeze_time(T0 + timedelta(hours=1)):
        saved = memories.save(
            "preference",
            "I prefer short commits",
            state=second_state,
            source=Source(session_id=second),
            observation="b",
        )
    assert saved.state is expected


def test_entities_name_key_people_tools_and_projects_named() -> None:
    m = memory(
        text="Deploy blog with docker",
        key="deploy",
        tags=["person:jimin", "docker"],
        project="/src/shop",
    )
    assert evidence.entities(m, ["shop", "blog"]) == {
        "key:deploy",
        "person:jimin",
        "tool:docker",
        "project:blog",
    }
    command = memory(MemoryType.COMMAND, id="cmd-1", text="sudo FOO=1 terraform apply")
    assert "tool:terraform" in evidence.entities(command)


def test_korean_text_names_a_project_too() -> None:
    m = memory(text="shop 프로젝트에서는 pnpm을 써")
    assert "project:shop" in evidence.entities(m, ["shop"])
