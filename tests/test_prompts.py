from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from artibot_memory.api import memories
from artibot_memory.capture import prompts
from artibot_memory.capture.prompts import (
    Detected,
    detect_preferences,
    may_hold,
    prose,
    slash_command,
)
from artibot_memory.plugin import entry
from artibot_memory.store.model import MemoryType, Scope, State

PROMPTS = Path(__file__).parent / "fixtures" / "prompts"


def found(prompt: str) -> list[tuple[str, str, str, str | None]]:
    return [(d.kind, d.strength, d.scope, d.key) for d in detect_preferences(prompt)]


def rule(key: str | None = None, scope: str = "global") -> tuple[str, str, str, str | None]:
    return ("preference", "active", scope, key)


def liking(key: str | None = None, scope: str = "global") -> tuple[str, str, str, str | None]:
    return ("preference", "pending", scope, key)


FACT = ("context", "active", "project", None)


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        pytest.param(
            "From now on always use pnpm, never npm", [rule("package-manager")], id="from-now-on"
        ),
        pytest.param("Always run the tests before committing.", [rule()], id="always"),
        pytest.param("never commit to main directly", [rule()], id="never"),
        pytest.param("Don't ever add new dependencies without asking.", [rule()], id="dont-ever"),
        pytest.param(
            "You should always add type hints.", [rule("type-hints")], id="you-should-always"
        ),
        pytest.param(
            "Remember to always reply in Korean.", [rule("reply-language")], id="remember-to-always"
        ),
        pytest.param(
            "Commit messages in English from now on.", [rule("commit-language")], id="no-verb"
        ),
        pytest.param("I always use tabs, never spaces.", [rule("indentation")], id="i-always"),
        pytest.param("I'd like to always see the diff first.", [rule()], id="id-like-to-always"),
        pytest.param("I told you to always use pnpm!", [rule("package-manager")], id="told-you"),
        pytest.param("코드 설명은 항상 짧게 해 줘", [rule()], id="ko-adverb-not-a-spec"),
        pytest.param(
            "앞으로 커밋 메시지는 영어로 써줘", [rule("commit-language")], id="ko-from-now-on"
        ),
        pytest.param("항상 pytest로 테스트해", [rule("test-runner")], id="ko-always"),
        pytest.param("절대 main 브랜치에 직접 푸시하지 마", [rule()], id="ko-never"),
        pytest.param("I prefer pnpm over npm", [liking("package-manager")], id="i-prefer"),
        pytest.param("I'd rather use black than yapf.", [liking("formatter")], id="id-rather"),
        pytest.param("I like small commits.", [liking("commit-style")], id="i-like"),
        pytest.param("나는 탭보다 스페이스를 선호해", [liking("indentation")], id="ko-prefer"),
        pytest.param("저는 vitest가 더 좋아요.", [liking("test-runner")], id="ko-like"),
        pytest.param("My go-to test runner is pytest.", [liking("test-runner")], id="go-to"),
        pytest.param("I usually work in neovim.", [liking("editor")], id="usually"),
        pytest.param("탭 대신 스페이스 쓰는 게 좋겠어", [liking("indentation")], id="ko-wish"),
    ],
)
def test_rules_are_active_and_likings_pending(prompt: str, expected: list[Any]) -> None:
    assert found(prompt) == expected


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        pytest.param(
            "In this repo, always use yarn.",
            [rule("package-manager", "project")],
            id="in-this-repo",
        ),
        pytest.param(
            "in this repo always use yarn", [rule("package-manager", "project")], id="opening-place"
        ),
        pytest.param("Always use tabs here.", [rule("indentation", "project")], id="here"),
        pytest.param(
            "For this project I prefer uv.",
            [liking("python-package-manager", "project")],
            id="for-this-project",
        ),
        pytest.param(
            "이 프로젝트에서는 항상 poetry를 써줘.",
            [rule("python-package-manager", "project")],
            id="ko-project",
        ),
        pytest.param(
            "Always use ruff everywhere, not just this repo.", [rule("linter")], id="not-just-here"
        ),
        pytest.param(
            "전역으로: 항상 zsh 기준으로 명령어 작성해 줘.", [rule("shell")], id="ko-global"
        ),
        pytest.param(
            "From here on, answer in English.", [rule("reply-language")], id="from-here-on-is-time"
        ),
    ],
)
def test_a_preference_naming_this_repository_is_scoped_to_the_project(
    prompt: str, expected: list[Any]
) -> None:
    assert found(prompt) == expected


@pytest.mark.parametrize(
    "prompt",
    [
        pytest.param(
            "Remember that staging is deployed with `make deploy-staging`", id="remember-that"
        ),
        pytest.param("Keep in mind that the API lives in services/api.", id="keep-in-mind"),
        pytest.param("remember that the db is on port 5433", id="port"),
        pytest.param("The admin panel lives under packages/admin/.", id="lives-in-a-folder"),
        pytest.param("기억해 줘: 스테이징은 make deploy-staging으로 배포해.", id="ko-remember"),
        pytest.param("DB는 5433 포트를 써, 기억해 둬.", id="ko-remember-last"),
        pytest.param("The docs are hosted on Netlify. Remember this.", id="remember-this"),
        pytest.param("API 문서는 docs/api 폴더에 있어. 기억해 둬", id="ko-remember-that-one"),
        pytest.param("Staging gets deployed automatically on every push.", id="adverb"),
    ],
)
def test_a_fact_about_the_project_is_a_context(prompt: str) -> None:
    assert found(prompt) == [FACT]


@pytest.mark.parametrize(
    "prompt",
    [
        pytest.param("Don't change the public API, just fix the bug in parser.py", id="task"),
        pytest.param("don't touch the tests in this PR", id="this-pr"),
        pytest.param("use the v2 endpoint for this call", id="this-call"),
        pytest.param("For now, always use npm.", id="for-now"),
        pytest.param("Use pnpm to install the deps and run the build.", id="bare-order"),
        pytest.param("이번 PR에서는 항상 테스트 파일 건드리지 마.", id="ko-this-pr"),
        pytest.param("Do you always use pnpm?", id="question"),
        pytest.param("what does --frozen-lockfile do", id="question-without-mark"),
        pytest.param("앞으로도 이 방식이 맞을까요", id="ko-question"),
        pytest.param(
            'The wiki says "always use yarn for installs", summarise the rest.', id="quoted"
        ),
        pytest.param(
            "> From now on always use pnpm\nThat is the old README, update it.", id="blockquote"
        ),
        pytest.param("```\n# always use pnpm\npnpm i\n```\nFix this script.", id="code-block"),
        pytest.param("[2026-03-02 10:11:12] WARN never retrying\nwhy?", id="log-line"),
        pytest.param(
            "  3:7  error  'x' is never reassigned  prefer-const\nfix it", id="lint-output"
        ),
        pytest.param("From now on use the token [REDACTED:github-pat].", id="secret"),
        pytest.param("Remember that the key is [REDACTED:env-secret]", id="remembered-secret"),
        pytest.param("Never mind, revert that.", id="never-mind"),
        pytest.param("It always crashes on startup.", id="description"),
        pytest.param("I always forget how the release works, explain it.", id="not-a-habit"),
        pytest.param("I like it, ship it.", id="feedback"),
        pytest.param("I remember this worked last week.", id="i-remember"),
        pytest.param("Make sure the endpoint always returns JSON.", id="a-spec"),
        pytest.param("The failing test lives in tests/test_api.py.", id="a-file-not-a-folder"),
        pytest.param("빌드가 항상 실패해, 로그 좀 봐줘.", id="ko-description"),
        pytest.param("좋아, 그렇게 진행해.", id="ko-approval"),
        pytest.param("절대경로로 바꿔 줘.", id="ko-absolute-path"),
        pytest.param("Fix the failing test in checkout", id="plain-request"),
        pytest.param("Always the same error, see below.", id="always-the-same"),
        pytest.param("앞으로 어떻게 할지 정리해 줘", id="ko-question-word"),
        pytest.param("항상" + "가나다라마바사" * 1_000, id="a-long-run-is-pasted-text"),
        pytest.param("", id="empty"),
        pytest.param("/compact", id="slash-command"),
    ],
)
def test_tasks_questions_quotes_pastes_and_secrets_hold_nothing(prompt: str) -> None:
    assert detect_preferences(prompt) == []


@pytest.mark.parametrize(
    ("prompt", "text"),
    [
        pytest.param(
            "Remember that the staging db is read-only",
            "the staging db is read-only",
            id="remember-that",
        ),
        pytest.param(
            "please remember: deploys happen on Tuesday",
            "deploys happen on Tuesday",
            id="please-remember",
        ),
        pytest.param("Remember to always run mypy.", "always run mypy", id="remember-to"),
        pytest.param(
            "배포는 금요일에 안 한다는 걸 기억해", "배포는 금요일에 안 한다", id="ko-remember"
        ),
        pytest.param(
            "Fix the login bug. I prefer small commits. Thanks",
            "I prefer small commits",
            id="one-sentence",
        ),
    ],
)
def test_the_text_kept_is_the_statement_without_the_request(prompt: str, text: str) -> None:
    [detected] = detect_preferences(prompt)
    assert detected.text == text


def test_each_statement_of_a_prompt_is_kept_on_its_own() -> None:
    prompt = (
        "From now on use pnpm. Also remember that staging is deployed with `make deploy-staging`."
    )
    assert found(prompt) == [rule("package-manager"), FACT]


def test_why_says_what_made_it_a_memory() -> None:
    whys = [d.why for d in detect_preferences("Always use uv. I prefer ruff. Remember: use zsh.")]
    assert whys == ["stated as a rule", "stated as a liking", "asked to remember"]


def test_prose_keeps_short_quoted_names_and_drops_quoted_sentences() -> None:
    assert prose('use "pnpm" here') == 'use "pnpm" here'
    assert prose("the guide says 'never use eval at all' there") == "the guide says … there"
    assert prose("it's what I'd do") == "it's what I'd do"


def test_prose_drops_tagged_blocks_written_by_claude_code() -> None:
    text = "<system-reminder>always use pnpm</system-reminder>\nhi"
    assert detect_preferences(text) == []
    assert "pnpm" not in prose(text)


def test_a_long_prompt_is_read_only_up_to_its_first_8000_characters() -> None:
    assert detect_preferences("x. " * 4_000 + "Always use pnpm.") == []


def test_a_pasted_list_of_rules_gives_at_most_ten_memories() -> None:
    assert len(detect_preferences("Always use pnpm.\n" * 50)) == 10


def test_a_prompt_without_a_trigger_word_is_not_read_further() -> None:
    assert not may_hold("Refactor the auth module and add tests for the login flow.")
    assert may_hold("항상 pnpm을 써")


@pytest.mark.parametrize("name", ["labelled.jsonl", "heldout.jsonl", "blind.jsonl"])
def test_the_trigger_words_miss_nothing_the_patterns_find(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts_ = [row["prompt"] for row in labelled(name)]
    gated = [detect_preferences(p) for p in prompts_]
    monkeypatch.setattr(prompts, "may_hold", lambda _prompt: True)
    monkeypatch.setattr(prompts, "names_a_trigger", lambda _prompt: True)
    assert [detect_preferences(p) for p in prompts_] == gated


def labelled(name: str) -> list[dict[str, Any]]:
    lines = (PROMPTS / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def as_item(detected: Detected) -> dict[str, Any]:
    return {
        "kind": detected.kind,
        "strength": detected.strength,
        "scope": detected.scope,
        "key": detected.key,
    }


@pytest.mark.parametrize("name", ["labelled.jsonl", "heldout.jsonl", "blind.jsonl"])
def test_the_labelled_sets_are_detected_with_the_target_precision_and_recall(name: str) -> None:
    rows = labelled(name)
    expected = found_count = matched = 0
    for row in rows:
        left = list(row["expect"])
        got = [as_item(d) for d in detect_preferences(row["prompt"])]
        found_count += len(got)
        expected += len(left)
        for item in got:
            same = next((e for e in left if e["kind"] == item["kind"]), None)
            if same is not None:
                left.remove(same)
                matched += 1
    assert matched / found_count >= 0.95
    assert matched / expected >= 0.85


@pytest.mark.parametrize("name", ["labelled.jsonl", "heldout.jsonl", "blind.jsonl"])
def test_the_labelled_sets_are_large_and_about_a_third_korean(name: str) -> None:
    rows = labelled(name)
    assert len(rows) >= 120
    assert sum(row["lang"] == "ko" for row in rows) >= 0.3 * len(rows)
    assert sum(not row["expect"] for row in rows) >= 0.3 * len(rows)  # enough that hold nothing


def test_the_tuning_set_is_what_its_generator_writes() -> None:
    spec = importlib.util.spec_from_file_location("generate", PROMPTS / "generate.py")
    assert spec is not None
    assert spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    assert generate.Builder(generate.SEED).build() == labelled("labelled.jsonl")


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


# --- project facts said in passing, and said plainly ----------------------------------------


@pytest.mark.parametrize(
    ("prompt", "fact"),
    [
        pytest.param(
            "FYI, the payments webhook lives in services/hooks",
            "the payments webhook lives in services/hooks",
            id="fyi",
        ),
        pytest.param("btw staging runs on port 8443", "staging runs on port 8443", id="btw"),
        pytest.param(
            "Add a retry to the handler, btw the payments webhook lives in services/hooks",
            "the payments webhook lives in services/hooks",
            id="after-a-task",
        ),
        pytest.param(
            "by the way the cron job runs at 3am UTC", "the cron job runs at 3am UTC", id="a-verb"
        ),
        pytest.param("the staging DB is Postgres 15", "the staging DB is Postgres 15", id="plain"),
        pytest.param("we deploy on Fridays only", "we deploy on Fridays only", id="schedule"),
        pytest.param("staging runs on fly.io", "staging runs on fly.io", id="platform"),
        pytest.param(
            "참고로 결제 웹훅은 services/hooks에 있어",
            "결제 웹훅은 services/hooks에 있어",
            id="ko-fyi",
        ),
        pytest.param(
            "참고로 스테이징은 fly.io로 배포해", "스테이징은 fly.io로 배포해", id="ko-deploy"
        ),
        pytest.param(
            "로그인 테스트 고쳐줘. 참고로 API 서버는 Go로 짜여 있어",
            "API 서버는 Go로 짜여 있어",
            id="ko-after-a-task",
        ),
        pytest.param("스테이징 DB는 Postgres 15야", "스테이징 DB는 Postgres 15야", id="ko-plain"),
        pytest.param("배포는 금요일에만 해", "배포는 금요일에만 해", id="ko-schedule"),
    ],
)
def test_a_fact_said_in_passing_or_plainly_is_kept_without_its_aside(
    prompt: str, fact: str
) -> None:
    [detected] = detect_preferences(prompt)
    assert (detected.kind, detected.scope, detected.why) == ("context", "project", "a project fact")
    assert detected.text == fact


@pytest.mark.parametrize(
    "prompt",
    [
        pytest.param("btw does staging run on port 8443?", id="question"),
        pytest.param("FYI what port is staging on", id="question-without-mark"),
        pytest.param("if the staging DB were Postgres 15, could we use JSONB", id="hypothetical"),
        pytest.param("for now staging runs on port 8443", id="one-off"),
        pytest.param(
            'the wiki says "the webhook lives in services/hooks" but it is old', id="quoted"
        ),
        pytest.param("> btw staging runs on port 8443\nis that still true", id="pasted"),
        pytest.param("btw it's failing again on staging", id="a-pronouns-state"),
        pytest.param("FYI the staging DB is down", id="the-moments-news"),
        pytest.param("btw the payments webhook needs a retry", id="a-task-in-passing"),
        pytest.param("btw I moved the webhook to services/hooks", id="what-i-did"),
        pytest.param("The failing test is in tests/api/", id="a-failing-test"),
        pytest.param("The API is OK now", id="not-a-name"),
        pytest.param("스테이징은 몇 번 포트야?", id="ko-question"),
        pytest.param("만약 스테이징 DB가 Postgres 15라면 JSONB 쓸 수 있어", id="ko-hypothetical"),
        pytest.param("오늘은 스테이징이 8443 포트에서 돌아", id="ko-one-off"),
        pytest.param("참고로 스테이징 어제 배포 실패했어", id="ko-the-moments-news"),
        pytest.param("참고로 결제 웹훅 좀 봐줘", id="ko-a-request"),
        pytest.param("README에는 항상 pnpm을 쓰라고 되어 있는데 CI는 npm을 써.", id="ko-reported"),
    ],
)
def test_what_only_looks_like_a_fact_is_not_kept(prompt: str) -> None:
    assert detect_preferences(prompt) == []


@pytest.mark.parametrize(
    ("prompt", "fact"),
    [
        pytest.param(
            "Add a retry to the handler. FYI, the payments webhook lives in services/hooks.",
            "the payments webhook lives in services/hooks",
            id="english",
        ),
        pytest.param(
            "결제 핸들러에 재시도 추가해줘. 참고로 스테이징은 fly.io로 배포해",
            "스테이징은 fly.io로 배포해",
            id="korean",
        ),
    ],
)
def test_a_fact_in_passing_is_stored_as_a_context_of_the_project_through_the_hook(
    tmp_path: Path, prompt: str, fact: str
) -> None:
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    payload = {"prompt": prompt, "cwd": str(project), "session_id": "s1", "prompt_id": "p1"}
    assert entry.run_hook("UserPromptSubmit", json.dumps(payload).encode()) == 0
    [kept] = memories.list_memories(MemoryType.CONTEXT)
    assert (kept.text, kept.project, kept.scope, kept.state) == (
        fact,
        str(project),
        Scope.PROJECT,
        State.ACTIVE,
    )
    assert "session-summary" not in kept.tags  # its own memory, not a line of a summary
