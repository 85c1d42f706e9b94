"""Preferences and project facts stated in prompts, end to end through the hooks.

Each test speaks as a user would, through ``lifecycle.handle`` with a memory home, and
checks what a later session receives at SessionStart (the recall that matters), in this
project and in another one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from artibot_memory.api import memories
from artibot_memory.cli.app import main
from artibot_memory.lifecycle import handle
from artibot_memory.plugin import fast
from artibot_memory.store.model import Memory, MemoryType, Scope, State


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return project(tmp_path, "shop")


@pytest.fixture
def blog(tmp_path: Path) -> Path:
    return project(tmp_path, "blog")


def project(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    return root


def say(prompt: str, where: Path, session: str = "s1", **extra: str) -> None:
    payload = {"session_id": session, "cwd": str(where / "src"), "prompt": prompt, **extra}
    assert handle("UserPromptSubmit", payload) is None


def next_session(where: Path, session: str = "s9") -> str:
    """The context a new session in ``where`` starts with ('' when nothing is said)."""
    output = handle("SessionStart", {"session_id": session, "cwd": str(where), "source": "startup"})
    return "" if output is None else str(output["hookSpecificOutput"]["additionalContext"])


def stored(memory_type: MemoryType) -> list[Memory]:
    return memories.list_memories(memory_type)


def test_a_rule_is_active_at_once_and_recalled_in_the_next_session_of_any_project(
    shop: Path, blog: Path
) -> None:
    say("From now on always use pnpm, never npm", shop)
    [pref] = stored(MemoryType.PREFERENCE)
    assert (pref.state, pref.scope, pref.project, pref.key) == (
        State.ACTIVE,
        Scope.GLOBAL,
        None,
        "package-manager",
    )
    assert "always use pnpm, never npm" in next_session(shop)
    assert "always use pnpm, never npm" in next_session(blog)


def test_a_korean_rule_is_recalled_too(shop: Path) -> None:
    say("앞으로 커밋 메시지는 영어로 써줘", shop)
    [pref] = stored(MemoryType.PREFERENCE)
    assert (pref.state, pref.key) == (State.ACTIVE, "commit-language")
    assert "커밋 메시지는 영어로" in next_session(shop)


def test_a_liking_waits_for_a_second_session_before_it_is_recalled(shop: Path) -> None:
    say("I prefer black over yapf", shop, session="s1")
    say("I prefer black over yapf.", shop, session="s1")
    [pref] = stored(MemoryType.PREFERENCE)
    assert (pref.state, pref.key) == (State.PENDING, "formatter")
    assert "black" not in next_session(shop)
    say("i prefer black over yapf", shop, session="s2")
    [pref] = stored(MemoryType.PREFERENCE)
    assert pref.state is State.ACTIVE
    assert "black over yapf" in next_session(shop)


def test_a_preference_for_this_repository_stays_in_it(shop: Path, blog: Path) -> None:
    say("In this repo, always indent with tabs.", shop)
    [pref] = stored(MemoryType.PREFERENCE)
    assert (pref.scope, pref.project, pref.key) == (Scope.PROJECT, str(shop), "indentation")
    assert "indent with tabs" in next_session(shop)
    assert "indent with tabs" not in next_session(blog)


def test_a_fact_about_the_project_is_its_context_not_a_preference(shop: Path, blog: Path) -> None:
    say("Remember that staging is deployed with `make deploy-staging`", shop)
    assert stored(MemoryType.PREFERENCE) == []
    [fact] = stored(MemoryType.CONTEXT)
    assert (fact.project, fact.scope, fact.state) == (str(shop), Scope.PROJECT, State.ACTIVE)
    assert fact.expires_at is not None  # a context ages out; preferences are permanent
    assert "make deploy-staging" in next_session(shop)
    assert "make deploy-staging" not in next_session(blog)


def test_a_task_instruction_said_in_two_sessions_is_never_a_preference(shop: Path) -> None:
    for session in ("s1", "s2", "s3"):
        say("Don't change the public API, just fix the bug in parser.py", shop, session=session)
    assert memories.list_memories() == []


def test_a_sentence_holding_a_secret_is_not_kept_and_the_secret_reaches_no_file(
    shop: Path, memory_home: Path
) -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    say(f"From now on use the token {secret} for the registry. Always use pnpm.", shop)
    [pref] = stored(MemoryType.PREFERENCE)
    assert pref.text == "Always use pnpm"
    assert all(secret.encode() not in f.read_bytes() for f in memory_home.rglob("*") if f.is_file())


def test_a_later_statement_on_the_same_subject_supersedes_the_earlier(shop: Path) -> None:
    say("From now on use yarn.", shop, session="s1")
    say("Always use pnpm.", shop, session="s2")
    states = {m.text: m.state for m in stored(MemoryType.PREFERENCE)}
    assert states == {"From now on use yarn": State.SUPERSEDED, "Always use pnpm": State.ACTIVE}
    context = next_session(shop)
    listed, _, named = context.partition("artibot-memory: two memories disagree")
    assert "Always use pnpm" in listed
    assert "yarn" not in listed
    assert "yarn" in named  # the change is a conflict too, named once (docs/METADATA.md §3)


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("From now on always use pnpm, never npm.", "Remember, we use pnpm everywhere, never npm."),
        ("앞으로 답변은 영어로 해줘.", "답변은 항상 영어로 해줘."),
    ],
)
def test_the_same_value_said_again_in_other_words_confirms_the_first(
    shop: Path, memory_home: Path, first: str, again: str
) -> None:
    say(first, shop, session="s1")
    [before] = stored(MemoryType.PREFERENCE)
    say(again, shop, session="s2")
    [after] = stored(MemoryType.PREFERENCE)  # one memory: no supersede, no conflict
    assert (after.id, after.text, after.state) == (before.id, before.text, State.ACTIVE)
    assert after.count == 2
    assert after.confidence > before.confidence
    assert not (memory_home / "conflicts").exists()


def test_a_keyed_save_from_the_cli_supersedes_a_detected_preference(
    shop: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    say("Always use yarn.", shop)
    monkeypatch.chdir(shop)
    assert main(["save", "preference", "Use pnpm, not npm", "--key", "package-manager"]) == 0
    capsys.readouterr()
    states = {m.text: m.state for m in stored(MemoryType.PREFERENCE)}
    assert states == {"Always use yarn": State.SUPERSEDED, "Use pnpm, not npm": State.ACTIVE}


def test_a_project_value_of_a_subject_leaves_the_global_one_alone(shop: Path, blog: Path) -> None:
    say("Always use pnpm.", blog)
    say("In this repo always use yarn.", shop)
    assert {m.state for m in stored(MemoryType.PREFERENCE)} == {State.ACTIVE}
    in_shop, in_blog = next_session(shop), next_session(blog)
    assert "use yarn" in in_shop
    assert "use pnpm" in in_shop
    assert "use pnpm" in in_blog
    assert "yarn" not in in_blog


def test_a_prompt_deferred_by_the_fast_path_is_kept_at_the_next_session_start(shop: Path) -> None:
    fast.defer(
        "UserPromptSubmit", {"session_id": "s1", "cwd": str(shop), "prompt": "Always use uv."}
    )
    assert stored(MemoryType.PREFERENCE) == []
    assert "Always use uv" in next_session(shop)


def test_a_prompt_claude_code_wrote_itself_is_not_the_users(shop: Path) -> None:
    say("Always use pnpm.", shop, source="system")
    assert memories.list_memories() == []


def test_without_a_project_only_global_preferences_are_kept() -> None:
    prompt = "In this repo always use tabs. Remember that the db is on port 5433. Always use uv."
    handle("UserPromptSubmit", {"session_id": "s1", "prompt": prompt})
    assert [(m.text, m.project) for m in memories.list_memories()] == [("Always use uv", None)]
