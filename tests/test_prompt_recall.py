"""Per-prompt recall: what a prompt clearly asks about, once a session, never another project's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory import lifecycle
from artibot_memory.api import memories
from artibot_memory.capture import journal
from artibot_memory.plugin import fast
from artibot_memory.recall import prompt_recall, shown
from artibot_memory.store.model import Memory

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "/src/shop"
BLOG = "/src/blog"
SAVED_AT = "2026-05-01T09:00:00Z"
ASKED_AT = "2026-05-03T10:00:00Z"
DEPLOY = "why do our deploys go through the blue pipeline again?"


def save(kind: str, text: str, project: str | None = PROJECT, **fields: Any) -> Memory:
    with freeze_time(SAVED_AT):
        return memories.save(kind, text, project=project, **fields)


def seed() -> dict[str, Memory]:
    return {
        "decision": save(
            "context", "Decision: deploys go through the blue pipeline; green lacks canary checks"
        ),
        "error": save(
            "error",
            "ModuleNotFoundError: No module named 'yaml' when the importer starts",
            resolution="pip install pyyaml into the project venv",
        ),
        "other": save("context", "The blog deploys through the blue pipeline on Netlify", BLOG),
        "pref": save("preference", "Deploys through the blue pipeline only, never by hand", None),
    }


def ask(prompt: str, session: str = "s1", cwd: str | None = PROJECT, **extra: Any) -> str:
    payload = {"prompt": prompt, "cwd": cwd, "session_id": session, **extra}
    with freeze_time(ASKED_AT):
        output = prompt_recall.prompt_output(payload)
    if output is None:
        return ""
    assert output["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    text = output["hookSpecificOutput"]["additionalContext"]
    assert isinstance(text, str)
    return text


def test_a_matching_decision_is_injected_once_per_session() -> None:
    saved = seed()
    first = ask(DEPLOY)
    assert saved["decision"].id in first
    assert first.startswith(prompt_recall.HEADER)
    assert f"[2026-05-01 · {saved['decision'].id}]" in first
    assert ask(DEPLOY) == ""  # the same session: already shown
    assert saved["decision"].id in ask(DEPLOY, session="s2")


def test_an_error_comes_with_its_fix() -> None:
    saved = seed()
    text = ask("the importer crashes again with No module named yaml, how did we fix it?")
    assert saved["error"].id in text
    assert "pip install pyyaml" in text


def test_an_unrelated_prompt_gets_nothing() -> None:
    seed()
    assert ask("rename this helper to something clearer") == ""
    assert ask("how do I configure kubernetes autoscaling for the workers?") == ""


@pytest.mark.parametrize(
    ("prompt", "extra"),
    [
        ("blue deploy", {}),  # too short: under 12 characters
        ("/deploy blue pipeline deploys again", {}),  # a slash command
        (DEPLOY, {"source": "loop_wakeup"}),  # Claude Code's own prompt
    ],
)
def test_short_slash_and_machine_prompts_get_nothing(prompt: str, extra: dict[str, Any]) -> None:
    seed()
    assert ask(prompt, **extra) == ""


def test_another_projects_memory_is_never_injected() -> None:
    saved = seed()
    for cwd in (PROJECT, "/src/other", None):
        assert saved["other"].id not in ask(DEPLOY, session=f"s-{cwd}", cwd=cwd)
    assert saved["decision"].id not in ask(DEPLOY, session="blog", cwd="/src/blog")


def test_preferences_are_left_to_session_start() -> None:
    saved = seed()
    assert saved["pref"].id not in ask(DEPLOY)


def test_at_most_three_items_in_1500_characters() -> None:
    for n in range(6):
        save("context", f"Decision {n}: the blue pipeline deploys with canary checks. " + "x" * 900)
    text = ask("do the blue pipeline deploys run canary checks?")
    assert text
    assert len(text) <= prompt_recall.MAX_CHARS
    assert text.count("\n- [") <= prompt_recall.MAX_ITEMS


def test_what_session_start_showed_is_not_shown_again() -> None:
    saved = seed()
    shown.note_session_start({"session_id": "s1", "source": "startup"}, [saved["decision"].id])
    assert saved["decision"].id not in ask(DEPLOY)
    # after a compaction the conversation no longer holds it: it may come back
    shown.note_session_start({"session_id": "s1", "source": "compact"}, [])
    assert saved["decision"].id in ask(DEPLOY)


def test_a_resume_adds_to_what_was_shown_and_a_torn_line_costs_only_itself(
    memory_home: Path,
) -> None:
    home = str(memory_home)
    shown.note_session_start({"session_id": "s1", "source": "startup"}, ["ctx-a"])
    with open(shown.session_path(home, "s1"), "ab") as handle:
        handle.write(b'\n{"v": 1, "session_id": "s1", "ids": ["ctx-b"')  # cut short
    shown.note_session_start({"session_id": "s1", "source": "resume"}, ["ctx-c"])
    shown.remember_shown(home, "s1", ["ctx-d"])
    assert shown.shown_ids(home, "s1") == {"ctx-a", "ctx-c", "ctx-d"}
    mode = os.stat(shown.session_path(home, "s1")).st_mode & 0o777
    assert mode == 0o600


def test_the_ids_injected_are_journaled_as_accessed() -> None:
    saved = seed()
    ask(DEPLOY)
    lines = Path(journal.journal_path()).read_text(encoding="utf-8").splitlines()
    records = [r for r in map(json.loads, lines) if r.get("event") == journal.ACCESS_EVENT]
    assert [saved["decision"].id] in [r["ids"] for r in records]


def test_a_secret_in_the_prompt_is_written_nowhere(memory_home: Path) -> None:
    seed()
    secret = "ghp_" + "a1B2c3D4e5" * 4
    ask(f"{DEPLOY} my token is {secret}")
    for folder, _, files in os.walk(memory_home):
        for name in files:
            assert secret.encode() not in (Path(folder) / name).read_bytes(), name


def test_old_sessions_are_cleaned_up(memory_home: Path) -> None:
    seed()
    with freeze_time("2026-04-01T00:00:00Z"):
        shown.remember_shown(str(memory_home), "old", ["x"])
    for n in range(shown.MAX_SESSIONS + 5):
        with freeze_time(ASKED_AT):
            shown.remember_shown(str(memory_home), f"s{n}", ["x"])
    names = os.listdir(memory_home / shown.SESSIONS_DIR)
    assert len(names) <= shown.MAX_SESSIONS
    assert shown.shown_ids(str(memory_home), "old") == set()


def test_the_fast_path_returns_the_recall() -> None:
    saved = seed()
    payload = {"prompt": DEPLOY, "cwd": PROJECT, "session_id": "s1"}
    with freeze_time(ASKED_AT):
        done, output = fast.route("UserPromptSubmit", payload)
    assert done
    assert output is not None
    assert saved["decision"].id in output["hookSpecificOutput"]["additionalContext"]


def test_a_stated_preference_is_kept_and_the_recall_returned_by_the_full_path() -> None:
    saved = seed()
    prompt = "I prefer small commits. Why do our deploys go through the blue pipeline again?"
    payload = {"prompt": prompt, "cwd": PROJECT, "session_id": "s1"}
    with freeze_time(ASKED_AT):
        assert fast.route("UserPromptSubmit", payload) == (False, None)
        output = lifecycle.handle("UserPromptSubmit", payload)
    assert output is not None
    assert saved["decision"].id in output["hookSpecificOutput"]["additionalContext"]
    assert any("small commits" in m.text for m in memories.list_memories("preference"))


def test_a_deferred_prompt_is_kept_but_recalls_nothing() -> None:
    seed()
    payload = {"prompt": DEPLOY, "cwd": PROJECT, "session_id": "s1"}
    assert lifecycle.DEFERRED["UserPromptSubmit"](payload) is None


def test_the_hook_process_imports_no_pydantic(memory_home: Path) -> None:
    saved = seed()
    payload = json.dumps({"prompt": DEPLOY, "cwd": PROJECT, "session_id": "s9"})
    code = f"""
import sys
from freezegun import freeze_time
from artibot_memory.plugin.entry import run_hook
with freeze_time({ASKED_AT!r}):
    assert run_hook("UserPromptSubmit", {payload.encode()!r}) == 0
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "orjson", "filelock"))
assert not heavy, heavy
"""
    env = {**os.environ, "ARTIBOT_MEMORY_HOME": str(memory_home), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(  # noqa: S603 - this interpreter, our own code
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert saved["decision"].id in output["hookSpecificOutput"]["additionalContext"]


# ---- a prompt read as concepts, in either language (issue 25)


def test_a_korean_question_finds_the_english_preference_it_asks_about() -> None:
    saved = save(
        "preference", "Always write commit messages in English", None, key="commit-language"
    )
    text = ask("커밋 메시지 규칙 뭐였지?")
    assert saved.id in text


def test_who_does_what_is_answered_by_the_person_whatever_the_language() -> None:
    saved = save("context", "릴리스는 민수 님이 승인해요", scope="person")
    save("context", "Release notes are written in docs/releases", tags=["decision"])
    text = ask("who approves the releases here?")
    [first, *_] = [line for line in text.splitlines() if line.startswith("- [")]
    assert saved.id in first


def test_an_error_nobody_fixed_is_recalled_as_not_fixed_yet() -> None:
    saved = save(
        "error", "`terraform plan` failed: Error: Unsupported argument acl on the assets bucket"
    )
    text = ask("what was that acl error on the assets bucket again?")
    assert saved.id in text
    assert "not fixed yet" in text


def test_a_summary_that_shares_a_word_is_not_an_answer() -> None:
    save(
        "context",
        "Session 1a2b3c4d 2026-05-01 10:00–10:30 UTC, branch main, in /src/shop\n"
        "Asked: add a monthly budget alarm test\nEdited: modules/billing/main.tf",
        key="session:1a2b3c4d",
        tags=["session-summary"],
    )
    assert ask("add one more test for the empty input case") == ""


@pytest.mark.parametrize(
    "prompt",
    ["run the tests again and show me only the failures", "테스트 다시 돌려서 실패한 것만 보여줘"],
)
def test_a_request_about_failures_is_not_a_question_about_a_fix(prompt: str) -> None:
    for area in ("cart", "coupon", "wishlist", "checkout", "search"):  # a home's usual errors
        save("error", f"`pnpm test` failed: FAIL src/{area}.test.ts", resolution=f"fixed {area}")
    seed()
    assert ask(prompt) == ""
