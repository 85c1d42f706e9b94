"""Decisions stated in a session: English and Korean, and what only weighs a choice."""

from __future__ import annotations

import pytest

from artibot_memory.capture.decisions import find_decisions, is_decision

POSITIVES = [
    pytest.param("Chose argon2 over bcrypt because it is memory-hard.", id="chose-over"),
    pytest.param("We'll go with pnpm for the monorepo.", id="well-go-with"),
    pytest.param("OK, let's go with the second option.", id="lets-go-with"),
    pytest.param("We decided to keep the v1 API until March.", id="decided-to"),
    pytest.param("Decided to drop Python 3.8 support.", id="bare-decided"),
    pytest.param("Let's use SQLite instead of Postgres: it is one file.", id="instead-of"),
    pytest.param("Decision: the cache lives in Redis", id="decision-colon"),
    pytest.param("bcrypt 대신 argon2로 하자", id="ko-instead"),
    pytest.param("인증은 argon2로 결정했다.", id="ko-decided"),
    pytest.param("v1 API는 3월까지 유지하기로 했다", id="ko-giro"),
    pytest.param("배포는 fly.io로 가자.", id="ko-lets-go"),
]
NEGATIVES = [
    pytest.param("Should we go with pnpm?", id="question"),
    pytest.param("should we go with argon2 or bcrypt", id="question-without-mark"),
    pytest.param("If we decided to drop 3.8, CI would be faster.", id="hypothetical"),
    pytest.param("What if we go with Redis instead of memcached", id="what-if"),
    pytest.param("Maybe we'll go with yarn.", id="maybe"),
    pytest.param("We haven't decided to go with anything yet.", id="undecided"),
    pytest.param("```\n# we decided to use yaml\n```", id="fenced-code"),
    pytest.param("> We'll go with yarn, said the old README", id="blockquote"),
    pytest.param('The doc says "we decided to use tabs everywhere" somewhere.', id="quoted"),
    pytest.param("argon2로 할까?", id="ko-question"),
    pytest.param("만약 argon2로 하면 어때", id="ko-hypothetical"),
    pytest.param("아직 결정 못 했어", id="ko-undecided"),
    pytest.param("Fix the failing login test", id="plain-task"),
]


@pytest.mark.parametrize("text", POSITIVES)
def test_a_stated_decision_is_found(text: str) -> None:
    [found] = find_decisions(text)
    assert found.rstrip(".") in text


@pytest.mark.parametrize("text", NEGATIVES)
def test_what_only_weighs_a_choice_is_no_decision(text: str) -> None:
    assert find_decisions(text) == []


def test_the_assistant_needs_a_choice_or_a_reason() -> None:
    narrated = "I decided to read the config first."
    assert find_decisions(narrated) == ["I decided to read the config first"]
    assert find_decisions(narrated, assistant=True) == []
    assert find_decisions("I chose uv over pip because it is faster.", assistant=True)


def test_inline_code_alone_is_not_a_sentence() -> None:
    assert not is_decision("`we decided to use yaml`")


def test_a_long_text_yields_a_bounded_list() -> None:
    text = " ".join(f"We decided to do step {n}." for n in range(50))
    assert len(find_decisions(text)) == 5
