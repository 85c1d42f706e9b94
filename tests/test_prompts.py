from __future__ import annotations

import pytest

from artibot_memory.capture.prompts import detect_preferences, slash_command


@pytest.mark.parametrize(
    ("prompt", "text", "explicit"),
    [
        pytest.param("I prefer pnpm over npm", "I prefer pnpm over npm", False, id="i-prefer"),
        pytest.param("Always use type hints.", "Always use type hints", False, id="always-use"),
        pytest.param(
            "never commit to main directly", "never commit to main directly", False, id="never"
        ),
        pytest.param(
            "Don't use mocks for the database", "Don't use mocks for the database", False, id="dont"
        ),
        pytest.param(
            "Remember that the staging db is read-only",
            "the staging db is read-only",
            True,
            id="remember-that",
        ),
        pytest.param(
            "please remember: deploys happen on Tuesday",
            "deploys happen on Tuesday",
            True,
            id="please-remember",
        ),
        pytest.param(
            "나는 탭보다 스페이스를 선호해", "나는 탭보다 스페이스를 선호해", False, id="ko-prefer"
        ),
        pytest.param("항상 pytest로 테스트해", "항상 pytest로 테스트해", False, id="ko-always"),
        pytest.param(
            "main 브랜치에 직접 푸시하지 마", "main 브랜치에 직접 푸시하지 마", False, id="ko-dont"
        ),
        pytest.param(
            "배포는 금요일에 안 한다는 걸 기억해",
            "배포는 금요일에 안 한다는 걸",
            True,
            id="ko-remember",
        ),
    ],
)
def test_stated_preferences_are_detected(prompt: str, text: str, explicit: bool) -> None:
    [found] = detect_preferences(prompt)
    assert (found.text, found.explicit) == (text, explicit)


@pytest.mark.parametrize(
    "prompt",
    [
        pytest.param("Fix the failing test in checkout", id="plain-request"),
        pytest.param("Do you always use pnpm?", id="question"),
        pytest.param("I don't know why the build fails", id="dont-know"),
        pytest.param("", id="empty"),
        pytest.param("/compact", id="slash-command"),
    ],
)
def test_ordinary_prompts_hold_no_preference(prompt: str) -> None:
    assert detect_preferences(prompt) == []


def test_only_the_preference_sentence_is_kept_from_a_longer_prompt() -> None:
    found = detect_preferences("Fix the login bug. I prefer small commits. Thanks")
    assert [d.text for d in found] == ["I prefer small commits"]


@pytest.mark.parametrize(
    ("prompt", "command"),
    [
        pytest.param("/compact", "/compact", id="bare"),
        pytest.param("/review-pr 12", "/review-pr", id="with-args"),
        pytest.param(
            "  /artibot-memory:memory-management",
            "/artibot-memory:memory-management",
            id="plugin-skill",
        ),
        pytest.param("use /tmp for scratch", None, id="path-in-prose"),
        pytest.param("/", None, id="lone-slash"),
    ],
)
def test_slash_commands_are_recognised(prompt: str, command: str | None) -> None:
    assert slash_command(prompt) == command
