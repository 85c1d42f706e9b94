"""What a session leaves to do is open at the next session start of its project."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from freezegun import freeze_time
from week import PNPM_PASS, Session, _edit, _p, _run, _say, live

from artibot_memory.capture.prompts import detect_preferences
from artibot_memory.capture.todos import find_todos
from artibot_memory.recall.context import get_relevant_context


@pytest.mark.parametrize(
    ("text", "todo"),
    [
        pytest.param(
            "Looks good. Next time let's add a test for the coupon expiry.",
            "let's add a test for the coupon expiry",
            id="next-time",
        ),
        pytest.param(
            "TODO: wire the refund webhook to the ledger",
            "wire the refund webhook to the ledger",
            id="todo",
        ),
        pytest.param(
            "follow-up: add pagination to /orders", "add pagination to /orders", id="follow-up"
        ),
        pytest.param(
            "We still need to migrate the old orders table.",
            "We still need to migrate the old orders table",
            id="still-need",
        ),
        pytest.param(
            "Later we should split the cart module.", "we should split the cart module", id="later"
        ),
        pytest.param(
            "I haven't updated the changelog yet.",
            "I haven't updated the changelog yet",
            id="not-yet",
        ),
        pytest.param(
            "다음에 쿠폰 만료 테스트 추가하자.", "쿠폰 만료 테스트 추가하자", id="ko-next-time"
        ),
        pytest.param("내일은 환불 API 문서 정리하자", "환불 API 문서 정리하자", id="ko-tomorrow"),
        pytest.param(
            "아직 결제 웹훅 재시도 로직은 안 했어",
            "아직 결제 웹훅 재시도 로직은 안 했어",
            id="ko-not-yet",
        ),
        pytest.param(
            "남은 작업: 주문 목록 페이지네이션", "주문 목록 페이지네이션", id="ko-remaining"
        ),
    ],
)
def test_work_left_for_later_is_found(text: str, todo: str) -> None:
    assert find_todos(text) == [todo]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Next, I'll run the tests.", id="a-step-of-the-work"),
        pytest.param("Should we add it next time?", id="question"),
        pytest.param("Next time, always run the tests first.", id="a-rule-every-time"),
        pytest.param("Next time use pnpm.", id="a-rule-with-a-subject"),
        pytest.param("If we have time later, maybe refactor it.", id="hypothetical"),
        pytest.param("the later part of the file works", id="a-word-only"),
        pytest.param("```\n# TODO: remove this hack\n```", id="code"),
        pytest.param("다음에 뭐 하면 좋을까?", id="ko-question"),
        pytest.param("앞으로 항상 테스트 먼저 돌려줘", id="ko-rule"),
    ],
)
def test_what_is_not_work_left_is_not_taken_for_it(text: str) -> None:
    assert find_todos(text) == []


def test_a_task_for_next_time_is_not_kept_as_a_preference() -> None:
    assert detect_preferences("Next time, add a test for the coupon expiry.") == []
    assert [d.key for d in detect_preferences("Next time use pnpm.")] == ["package-manager"]


SAID = Session(
    1,
    0,
    0,
    "shop",
    "main",
    (
        _p("Fix the coupon rounding. Next time let's add a test for the coupon expiry."),
        _edit("src/coupon/round.ts"),
        _run("pnpm test", PNPM_PASS),
        _say("Done: rounding fixed. Remaining work: the expiry date is not validated yet."),
    ),
)
THEN = Session(2, 1, 0, "shop", "main", (_p("Rename the checkout button"), _edit("src/b.tsx")))
LATER = [
    Session(n, n, 0, "shop", "main", (_p(f"Tidy the styles of page {n}"), _edit(f"p{n}.css")))
    for n in (3, 4)
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "work"


def lines_of(text: str, section: str) -> list[str]:
    found = re.search(rf"\n## {re.escape(section)}\n(?P<body>(?:- .*\n?)+)", text)
    return found.group("body").strip().splitlines() if found else []


def test_the_next_two_sessions_start_with_what_was_left_to_do(root: Path) -> None:
    live(root, [SAID])
    with freeze_time(SAID.ended_at):
        first = lines_of(get_relevant_context(str(root / "shop")), "Open in shop")
    assert sorted(line.split("] ", 1)[1] for line in first) == [
        'left to do: "let\'s add a test for the coupon expiry"',
        'left to do: "the expiry date is not validated yet"',
    ]
    live(root, [THEN])
    with freeze_time(THEN.ended_at):
        assert len(lines_of(get_relevant_context(str(root / "shop")), "Open in shop")) == 2
    live(root, LATER)
    with freeze_time(LATER[-1].ended_at):
        assert lines_of(get_relevant_context(str(root / "shop")), "Open in shop") == []
