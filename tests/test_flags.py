"""The flags of a memory (stale, conflicting, unverified), in words, and where they are said."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.cli.app import main
from artibot_memory.cli.reads import hit_note, origin_of
from artibot_memory.core import config
from artibot_memory.recall import flags, prompt_recall
from artibot_memory.recall.context import HEADER, get_relevant_context

NOW = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)
SETTINGS = {"recall.stale_days": 90, "recall.unverified_below": 0.5}
SHOP = "/src/shop"
OPEN = {"id": "cf-3f9a2c1b", "with": "pref-old", "kind": "same-key", "status": "open"}


def doc(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "pref-new",
        "type": "preference",
        "text": "Use npm",
        "state": "active",
        "confidence": 0.9,
        "last_seen": "2026-11-30T10:00:00Z",
    }
    return {**base, **fields}


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        pytest.param({}, [], id="a-sure-fresh-memory-has-none"),
        pytest.param({"state": "stale"}, ["stale"], id="marked-stale"),
        pytest.param(
            {"last_seen": "2026-08-02T09:00:00Z"}, ["stale"], id="no-evidence-for-90-days"
        ),
        pytest.param({"last_seen": "2026-09-02T12:00:00Z"}, [], id="exactly-90-days-is-fresh"),
        pytest.param(
            {"last_seen": "2026-09-02T11:59:59Z"}, ["stale"], id="a-second-past-90-days-is-stale"
        ),
        pytest.param(
            {"last_seen": "2026-01-01T00:00:00Z", "last_verified": "2026-11-20T00:00:00Z"},
            [],
            id="last-verified-wins-over-last-seen",
        ),
        pytest.param(
            {
                "last_seen": "2026-11-30T00:00:00Z",
                "last_verified": None,
                "evidence": [{"at": "2026-05-01T00:00:00Z"}],
            },
            ["stale"],
            id="newest-evidence-wins-over-last-seen",
        ),
        pytest.param({"details": {"conflicts": [OPEN]}}, ["conflicting"], id="open-conflict"),
        pytest.param(
            {"details": {"conflicts": [{**OPEN, "status": "resolved"}]}},
            [],
            id="resolved-conflict-is-no-flag",
        ),
        pytest.param(
            {"details": {"conflicts": ["garbage", {"status": 3}, None]}},
            [],
            id="malformed-conflicts-are-ignored",
        ),
        pytest.param({"details": {"conflicts": "open"}}, [], id="conflicts-not-a-list"),
        pytest.param({"state": "pending"}, ["unverified"], id="pending"),
        pytest.param({"confidence": 0.49}, ["unverified"], id="under-the-threshold"),
        pytest.param({"confidence": 0.5}, [], id="at-the-threshold-is-verified"),
        pytest.param({"confidence": "high"}, [], id="a-non-number-reads-as-the-default"),
    ],
)
def test_flags_follow_the_contract(fields: dict[str, Any], expected: list[str]) -> None:
    assert flags.flags(doc(**fields), NOW, SETTINGS) == expected


def test_the_thresholds_come_from_the_settings() -> None:
    old = doc(last_seen="2026-10-01T00:00:00Z", confidence=0.6)
    assert flags.flags(old, NOW, SETTINGS) == []
    strict = {"recall.stale_days": 30, "recall.unverified_below": 0.7}
    assert flags.flags(old, NOW, strict) == ["stale", "unverified"]


def test_the_settings_files_set_the_thresholds(memory_home: Path) -> None:
    memory_home.mkdir(parents=True, exist_ok=True)
    (memory_home / "config.toml").write_text("[recall]\nstale_days = 10\n", encoding="utf-8")
    settings = config.load(memory_home, None)
    assert flags.flags(doc(last_seen="2026-11-15T00:00:00Z"), NOW, settings) == ["stale"]


def test_words_say_each_flag() -> None:
    flagged = doc(
        state="pending",
        last_seen="2026-08-02T09:00:00Z",
        details={"conflicts": [OPEN]},
        evidence=[{"at": "2026-08-02T09:00:00Z", "session_id": "s1"}],
    )
    assert flags.words(flagged, NOW, SETTINGS) == [
        "conflicts with pref-old (open, cf-3f9a2c1b)",
        "not confirmed since 2026-08-02",
        "unverified: seen in 1 session",
    ]
    assert flags.suffix(flagged, NOW, SETTINGS) == (
        "(conflicts with pref-old: ask; not confirmed since 2026-08-02; unverified: seen once)"
    )


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        pytest.param(
            {"state": "pending", "evidence": []}, "unverified: not confirmed yet", id="no-evidence"
        ),
        pytest.param(
            {
                "state": "pending",
                "evidence": [
                    {"at": "2026-11-29T09:00:00Z", "session_id": "a"},
                    {"at": "2026-11-29T10:00:00Z", "session_id": "a"},
                    {"at": "2026-11-30T09:00:00Z"},
                ],
            },
            "unverified: seen in 2 sessions",
            id="sessions-then-days-counted-once",
        ),
        pytest.param({"confidence": 0.3}, "unverified: confidence 0.30", id="low-confidence"),
        pytest.param(
            {"details": {"conflicts": [{"status": "open"}]}},
            "conflicts with another memory (open, no id)",
            id="a-conflict-without-its-fields",
        ),
    ],
)
def test_words_in_each_case(fields: dict[str, Any], said: str) -> None:
    assert flags.words(doc(**fields), NOW, SETTINGS) == [said]


def test_a_memory_with_no_time_is_not_stale_unless_marked() -> None:
    timeless = {"id": "pref-1", "type": "preference", "text": "x"}
    assert flags.flags(timeless, NOW, SETTINGS) == []
    assert flags.words({**timeless, "state": "stale"}, NOW, SETTINGS) == ["marked stale"]


# ---- where they are said


def saved_stale_preference(text: str) -> str:
    with freeze_time("2026-03-01T09:00:00Z"):
        return memories.save("preference", text, confidence=0.9).id


def test_the_context_ends_a_flagged_line_with_its_words_and_says_how_to_use_them() -> None:
    stale = saved_stale_preference("Use pnpm, not npm, for JavaScript packages")
    with freeze_time("2026-11-30T09:00:00Z"):
        fresh = memories.save("preference", "커밋 메시지는 한국어로 쓴다", confidence=0.9).id
        doubtful = memories.save("preference", "Prefer tabs in Makefiles", confidence=0.3).id
        text = get_relevant_context(SHOP, record=False)
    lines = {
        line.split(" · ")[1].split("]")[0]: line for line in text.splitlines() if " · " in line
    }
    assert lines[stale].endswith("(not confirmed since 2026-03-01)")
    assert lines[doubtful].endswith("(unverified: confidence 0.30)")
    assert lines[fresh].endswith('"커밋 메시지는 한국어로 쓴다"')
    assert text.startswith(HEADER.format(where=" in shop"))
    assert "a flagged one may be stale or disputed (say so, and cite the id" in HEADER


def test_the_context_names_an_open_conflict_as_a_question() -> None:
    with freeze_time("2026-11-30T09:00:00Z"):
        saved = memories.save(
            "preference", "Use npm for JavaScript packages", details={"conflicts": [OPEN]}
        )
        text = get_relevant_context(SHOP, record=False)
    [line] = [line for line in text.splitlines() if saved.id in line]
    assert line.endswith("(conflicts with pref-old: ask)")


def test_the_flagged_context_stays_within_its_budget() -> None:
    for n in range(30):
        saved_stale_preference(f"Preference number {n} about the build tooling of every project")
    with freeze_time("2026-11-30T09:00:00Z"):
        text = get_relevant_context(SHOP, budget=1_000, record=False)
    assert 0 < len(text) <= 1_000
    assert "(not confirmed since 2026-03-01)" in text


def test_the_per_prompt_recall_ends_a_flagged_line_with_its_words() -> None:
    with freeze_time("2026-11-20T09:00:00Z"):
        saved = memories.save(
            "context",
            "Decision: deploys go through the blue pipeline; green lacks canary checks",
            project=SHOP,
            confidence=0.4,
        )
    with freeze_time("2026-11-30T09:00:00Z"):
        output = prompt_recall.prompt_output(
            {"prompt": "why do deploys go through the blue pipeline?", "cwd": SHOP}
        )
    assert output is not None
    text = output["hookSpecificOutput"]["additionalContext"]
    [line] = [line for line in text.splitlines() if saved.id in line]
    assert line.endswith("(unverified: confidence 0.40)")
    assert len(text) <= prompt_recall.MAX_CHARS


def test_show_has_a_flags_line(capsys: pytest.CaptureFixture[str]) -> None:
    stale = saved_stale_preference("Use pnpm, not npm")
    with freeze_time("2026-11-30T09:00:00Z"):
        fresh = memories.save("preference", "Use ruff for linting", confidence=0.9).id
        assert main(["show", stale]) == 0
        shown_stale = capsys.readouterr().out
        assert main(["show", fresh]) == 0
        shown_fresh = capsys.readouterr().out
    assert "flags:" in shown_stale
    assert "not confirmed since 2026-03-01" in shown_stale
    [flags_line] = [line for line in shown_fresh.splitlines() if line.startswith("flags:")]
    assert flags_line.endswith("none")


def test_search_json_says_how_sure_and_how_fresh_each_hit_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stale = saved_stale_preference("Use pnpm, not npm, for packages")
    with freeze_time("2026-11-30T09:00:00Z"):
        assert main(["search", "pnpm packages", "--all-projects", "--json"]) == 0
    [hit] = json.loads(capsys.readouterr().out)
    assert hit["id"] == stale
    assert hit["state"] == "active"
    assert hit["confidence"] == 0.9
    assert hit["flags"] == ["stale"]
    assert hit["flag_words"] == ["not confirmed since 2026-03-01"]
    assert hit["where"] == "api"
    assert "origin" in hit
    assert "last_verified" in hit


def test_search_text_says_the_flags_on_a_dimmed_line_under_the_hit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stale = saved_stale_preference("Use pnpm, not npm, for packages")
    with freeze_time("2026-11-30T09:00:00Z"):
        memories.save("preference", "pnpm workspaces hold the packages", confidence=0.9)
        assert main(["search", "pnpm packages", "--all-projects"]) == 0
    lines = capsys.readouterr().out.splitlines()
    [row] = [i for i, line in enumerate(lines) if stale in line]
    assert lines[row + 1] == "  ↳ not confirmed since 2026-03-01"
    assert sum(line.startswith("  ↳") for line in lines) == 1  # the fresh one says nothing


def test_origin_is_the_memorys_own_path_and_line_or_command() -> None:
    assert origin_of({"path": "transcript.jsonl", "line": 14}) == "transcript.jsonl:14"
    command = 'artibot-memory save preference "x"'
    assert origin_of({"command": command}) == command
    assert origin_of({"channel": "cli"}) is None
    row = {"flag_words": ["unverified: seen once"], "origin": "MEMORY.md:12", "source": "pref-1"}
    assert hit_note(row) == ["unverified: seen once", "source MEMORY.md:12"]
    assert hit_note({"origin": "npm test", "text": "npm test", "source": "cmd-1"}) == []
    unflagged = {"flag_words": [], "origin": "MEMORY.md:12", "source": "pref-1"}
    assert hit_note(unflagged) == []  # a source alone is for --json and show


def test_a_search_with_layer_lines_notes_only_the_flagged_memory(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = saved_stale_preference("Hash passwords with argon2, not bcrypt")
    note = memory_home / "daily" / "2026-11-29.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text(
        "# 2026-11-29 (Sunday)\n\n## Events\n\n## Decisions\n"
        "- 10:20 [shop] Chose argon2 over bcrypt (session 1a2b3c4d:88)\n\n"
        "## Observations\n\n## Notes\n",
        encoding="utf-8",
    )
    with freeze_time("2026-11-30T09:00:00Z"):
        assert main(["search", "argon2 bcrypt", "--project", SHOP]) == 0
    lines = capsys.readouterr().out.splitlines()
    [row] = [i for i, line in enumerate(lines) if stale in line]
    assert lines[row + 1] == "  ↳ not confirmed since 2026-03-01"
    assert any("daily/2026-11-29.md:6" in line for line in lines)
    assert sum(line.startswith("  ↳") for line in lines) == 1  # the note's line says nothing
