"""Decisions stated in a session, with their reason: English and Korean, and what only
weighs a choice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artibot_memory.capture.decisions import find_decisions, is_decision
from artibot_memory.capture.transcript import read_transcript

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
    pytest.param(
        "We'll keep the Terraform state in S3 with a lock table, because two of us apply.",
        id="well-keep-because",
    ),
    pytest.param("Docusaurus 말고 MkDocs로 가자, 검색이 기본이라 편해.", id="ko-not-this-but"),
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
    pytest.param("We'll keep going with the migration.", id="well-keep-no-reason"),
    pytest.param("팀에서 그렇게 하기로 했어", id="ko-nothing-chosen"),
    pytest.param("We decided to do that.", id="nothing-chosen"),
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


# --- the reason said in the sentence after the decision ------------------------------------


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        pytest.param(
            "We'll go with Postgres. The reason is we need JSONB.",
            "We'll go with Postgres. The reason is we need JSONB",
            id="the-reason-is",
        ),
        pytest.param(
            "Decided to drop Python 3.8. Because nobody runs it in CI anymore.",
            "Decided to drop Python 3.8. Because nobody runs it in CI anymore",
            id="because",
        ),
        pytest.param(
            "Let's go with Redis for the queue. Mainly because we already run it.",
            "Let's go with Redis for the queue. Mainly because we already run it",
            id="mainly-because",
        ),
        pytest.param(
            "argon2로 하자. 왜냐하면 bcrypt는 72바이트에서 잘리거든.",
            "argon2로 하자. 왜냐하면 bcrypt는 72바이트에서 잘리거든",
            id="ko-because",
        ),
        pytest.param(
            "Postgres로 결정했어. 이유는 JSONB가 필요해서야.",
            "Postgres로 결정했어. 이유는 JSONB가 필요해서야",
            id="ko-the-reason-is",
        ),
        pytest.param(
            "배포는 fly.io로 가자. 서울 리전이 있으니까.",
            "배포는 fly.io로 가자. 서울 리전이 있으니까",
            id="ko-ending",
        ),
    ],
)
def test_a_reason_in_the_next_sentence_stays_with_its_decision(text: str, decision: str) -> None:
    assert find_decisions(text) == [decision]


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        pytest.param(
            "We'll go with Postgres. Because of that, update the compose file.",
            "We'll go with Postgres",
            id="a-consequence",
        ),
        pytest.param(
            "We'll go with Postgres. Also fix the login bug.", "We'll go with Postgres", id="a-task"
        ),
        pytest.param(
            "We'll go with Postgres. Why not MySQL?", "We'll go with Postgres", id="a-question"
        ),
        pytest.param(
            "Postgres로 하자. 그리고 로그인 버그도 고쳐 줘.", "Postgres로 하자", id="ko-a-task"
        ),
        pytest.param("argon2로 하자. 왜?", "argon2로 하자", id="ko-a-question"),
    ],
)
def test_a_next_sentence_that_gives_no_reason_is_left_alone(text: str, decision: str) -> None:
    assert find_decisions(text) == [decision]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Let's use argon2. Because bcrypt truncates at 72 bytes.", id="english"),
        pytest.param("Let's use argon2 because bcrypt truncates at 72 bytes.", id="same-sentence"),
        pytest.param("argon2를 쓰자. bcrypt는 72바이트에서 잘리니까.", id="korean"),
    ],
)
def test_a_weaker_choice_with_its_reason_is_a_users_decision(text: str) -> None:
    [found] = find_decisions(text)
    assert found.startswith(("Let's use argon2", "argon2를 쓰자"))
    assert "72" in found
    assert find_decisions(text, assistant=True) == []  # the assistant's next step, not a choice


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Let's use argon2.", id="without-a-reason"),
        pytest.param("argon2를 쓰자.", id="ko-without-a-reason"),
        pytest.param(
            "Let's use grep to find the callers. Because the index is stale.", id="a-step"
        ),
        pytest.param("Should we use argon2? Because bcrypt truncates.", id="a-question"),
    ],
)
def test_a_weaker_choice_without_a_reason_or_as_a_step_is_none(text: str) -> None:
    assert find_decisions(text) == []


def test_a_pasted_data_url_is_not_kept_in_a_decision() -> None:
    text = (
        "We'll go with this logo: data:image/png;base64," + "iVBORw0KGgo" * 12 + " for the header."
    )
    assert find_decisions(text) == ["We'll go with this logo: [image] for the header"]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        pytest.param(
            "We'll go with Postgres.\nThe reason is we need JSONB.",
            "We'll go with Postgres. The reason is we need JSONB",
            id="english",
        ),
        pytest.param(
            "argon2로 하자. 왜냐하면 bcrypt는 72바이트에서 잘리거든.",
            "argon2로 하자. 왜냐하면 bcrypt는 72바이트에서 잘리거든",
            id="korean",
        ),
    ],
)
def test_the_transcript_keeps_a_decision_with_its_reason(
    tmp_path: Path, said: str, kept: str
) -> None:
    row = {
        "type": "user",
        "sessionId": "s-1",
        "timestamp": "2026-11-30T10:00:00Z",
        "message": {"role": "user", "content": said},
    }
    path = tmp_path / "session.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    [decision] = read_transcript(path).decisions
    assert (decision.text, decision.kind, decision.line) == (kept, "user", 1)
