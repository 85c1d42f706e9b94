"""Search's and context's filters: state, scope, confidence, when last seen, project."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.cli.app import main, since_arg, until_arg
from artibot_memory.recall import lookup
from artibot_memory.recall.context import get_relevant_context
from artibot_memory.recall.lookup import Filters
from artibot_memory.recall.search import candidates, search, search_layers
from artibot_memory.store import index

SHOP = "/src/shop"
NOW = "2026-11-30T12:00:00Z"
DAY = """\
# 2026-11-20 (Friday)

## Events

## Decisions
- 10:20 [shop] Chose argon2 over bcrypt for the login hashing (session 1a2b3c4d:88)

## Observations

## Notes
"""


def save(text: str, kind: str = "preference", at: str = NOW, **fields: Any) -> str:
    with freeze_time(at):
        return memories.save(kind, text, **fields).id


def ids(hits: list[Any]) -> list[str]:
    return [hit.source for hit in hits]


def found(query: str, **filters: Any) -> list[str]:
    with freeze_time(NOW):
        return ids(search(query, record=False, filters=Filters(**filters)))


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    with freeze_time(NOW):
        assert main([*argv, "--json"]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return rows


def write_day(home: Path, day: str, text: str) -> None:
    path = home / "daily" / f"{day}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# ---- state, scope, confidence


def test_the_default_states_are_todays_searchable_ones() -> None:
    active = save("Use pnpm for packages")
    pending = save("Use pnpm workspaces for packages", state="pending")
    assert found("pnpm packages") == [active]
    assert set(found("pnpm packages", states=frozenset({"pending", "active"}))) == {
        active,
        pending,
    }
    assert found("pnpm packages", states=frozenset({"pending"})) == [pending]


def test_scope_and_minimum_confidence_filter_the_hits() -> None:
    person = save("Sara reviews the pnpm lockfile changes", scope="person", confidence=0.9)
    weak = save("Maybe pnpm for the lockfile", scope="global", confidence=0.4)
    assert found("pnpm lockfile", scopes=frozenset({"person"})) == [person]
    assert found("pnpm lockfile", min_confidence=0.8) == [person]
    assert found("pnpm lockfile", min_confidence=0.4, scopes=frozenset({"global"})) == [weak]


def test_filters_apply_before_the_limit() -> None:
    best = save("The pnpm lockfile", "context", confidence=0.3)
    other = save(
        "The pnpm lockfile notes, from the long migration of the whole monorepo last spring",
        "context",
        confidence=0.9,
    )
    with freeze_time(NOW):
        assert ids(search("pnpm lockfile", limit=1, record=False)) == [best]
        kept = search("pnpm lockfile", limit=1, record=False, filters=Filters(min_confidence=0.8))
    assert ids(kept) == [other]


def test_a_korean_memory_is_filtered_the_same() -> None:
    sure = save("커밋 메시지는 한국어로 쓴다", confidence=0.9)
    save("커밋 메시지는 영어로 쓴다", confidence=0.3)
    assert found("커밋 메시지", min_confidence=0.8) == [sure]


# ---- since and until


def test_since_and_until_bound_when_a_memory_was_last_seen() -> None:
    october = save("Deploys go through the blue pipeline", at="2026-10-15T12:00:00Z")
    november = save("Deploys go through the green pipeline", at="2026-11-20T12:00:00Z")
    nov_1 = datetime(2026, 11, 1, tzinfo=timezone.utc)
    assert found("deploys pipeline", since=nov_1) == [november]
    assert found("deploys pipeline", until=nov_1) == [october]


def test_until_a_day_includes_that_whole_local_day() -> None:
    day_end = until_arg("2026-11-20")
    day_start = since_arg("2026-11-20")
    assert day_end.astimezone().strftime("%Y-%m-%d %H:%M:%S") == "2026-11-20 23:59:59"
    assert day_start.astimezone().strftime("%Y-%m-%d %H:%M") == "2026-11-20 00:00"
    late = datetime(2026, 11, 20, 23, 30).astimezone().isoformat()
    seen = save("Deploys go through the green pipeline", at=late)
    assert found("deploys pipeline", until=day_end) == [seen]
    assert found("deploys pipeline", since=since_arg("2026-11-21")) == []


def test_since_and_until_take_an_iso_time_too() -> None:
    assert since_arg("2026-11-30T08:00:00Z") == datetime(2026, 11, 30, 8, tzinfo=timezone.utc)
    assert until_arg("2026-11-30T08:00+09:00").utcoffset() is not None


# ---- the layers


def test_layer_lines_pass_on_their_date_and_are_left_out_by_a_metadata_filter(
    memory_home: Path,
) -> None:
    write_day(memory_home, "2026-11-20", DAY)
    with freeze_time(NOW):
        everything = search_layers("argon2 bcrypt", project=SHOP, record=False)
        later = search_layers(
            "argon2 bcrypt",
            project=SHOP,
            record=False,
            filters=Filters(since=since_arg("2026-11-21")),
        )
        that_day = search_layers(
            "argon2 bcrypt",
            project=SHOP,
            record=False,
            filters=Filters(until=until_arg("2026-11-20")),
        )
        by_state = search_layers(
            "argon2 bcrypt",
            project=SHOP,
            record=False,
            filters=Filters(states=frozenset({"active"})),
        )
    assert ids(everything) == ["daily/2026-11-20.md:6"]
    assert later == []
    assert ids(that_day) == ["daily/2026-11-20.md:6"]
    assert by_state == []


def test_layer_lines_are_kept_to_their_project(memory_home: Path) -> None:
    write_day(memory_home, "2026-11-20", DAY)
    with freeze_time(NOW):
        assert search_layers("argon2 bcrypt", project="/src/blog", record=False) == []


def test_layer_hits_carry_no_metadata_in_json(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_day(memory_home, "2026-11-20", DAY)
    [hit] = cli_json(capsys, "search", "argon2 bcrypt", "--project", SHOP)
    assert hit["origin"] == "daily/2026-11-20.md:6"
    assert hit["source"] == {
        "channel": "episodic",
        "session_id": None,
        "path": "daily/2026-11-20.md",
        "line": 6,
        "command": None,
    }
    assert (hit["state"], hit["confidence"], hit["flags"]) == (None, None, [])


# ---- the CLI


def test_the_cli_filters_search(capsys: pytest.CaptureFixture[str]) -> None:
    save("Use pnpm for packages", confidence=0.9)
    pending = save("Use pnpm workspaces for packages", state="pending")
    rows = cli_json(capsys, "search", "pnpm packages", "--all-projects", "--state", "pending")
    assert [row["id"] for row in rows] == [pending]
    assert rows[0]["flags"] == ["unverified"]
    rows = cli_json(
        capsys,
        "search",
        "pnpm packages",
        "--all-projects",
        "--state",
        "pending",
        "--state",
        "active",
    )
    assert len(rows) == 2
    rows = cli_json(capsys, "search", "pnpm", "--all-projects", "--min-confidence", "0.8")
    assert [row["confidence"] for row in rows] == [0.9]
    rows = cli_json(capsys, "search", "pnpm", "--all-projects", "--until", "2026-11-29")
    assert rows == []


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        pytest.param(["--min-confidence", "2"], "not a confidence: '2'", id="confidence-above-1"),
        pytest.param(["--min-confidence", "high"], "not a confidence", id="confidence-a-word"),
        pytest.param(["--since", "last week"], "not a date: 'last week'", id="since-not-a-date"),
        pytest.param(["--until", "2026-13-01"], "not a date", id="until-no-such-day"),
        pytest.param(["--state", "archived"], "invalid choice: 'archived'", id="unknown-state"),
        pytest.param(["--scope", "team"], "invalid choice: 'team'", id="unknown-scope"),
    ],
)
def test_bad_filter_values_are_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    for verb in (["search", "pnpm"], ["context"]):
        with pytest.raises(SystemExit) as exit_info:
            main([*verb, *argv])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert said in err.splitlines()[-1]


def test_the_cli_filters_context(capsys: pytest.CaptureFixture[str], memory_home: Path) -> None:
    save("Use pnpm for packages", confidence=0.9)
    pending = save("Keep the legacy app on its own branch", state="pending")
    weak = save("Prefer tabs in Makefiles", confidence=0.3)
    write_day(memory_home, "2026-11-20", DAY.replace("2026-11-20", "2026-11-29"))
    with freeze_time(NOW):
        assert main(["context", "--project", SHOP, "--json"]) == 0
        plain = json.loads(capsys.readouterr().out)["context"]
        assert main(["context", "--project", SHOP, "--min-confidence", "0.8", "--json"]) == 0
        sure = json.loads(capsys.readouterr().out)["context"]
        assert main(["context", "--project", SHOP, "--state", "pending", "--json"]) == 0
        pending_only = json.loads(capsys.readouterr().out)["context"]
    assert weak in plain
    assert pending not in plain
    assert "argon2" not in plain  # the notes are searched per prompt, not handed to a start
    assert weak not in sure
    assert pending in pending_only
    assert "Use pnpm" not in pending_only
    [line] = [line for line in pending_only.splitlines() if pending in line]
    assert line.endswith("(unverified: seen once)")


def test_context_filters_memories_by_when_they_were_last_seen() -> None:
    save("Use pnpm for packages", at="2026-11-20T10:00:00Z", confidence=0.9)
    save("Answer in English", at="2026-11-29T10:00:00Z", confidence=0.9)
    with freeze_time(NOW):
        recent = get_relevant_context(
            SHOP, record=False, filters=Filters(since=since_arg("2026-11-29"))
        )
    assert "Answer in English" in recent
    assert "pnpm" not in recent


# ---- the index and its fallback


def test_the_index_holds_scope_confidence_and_last_verified(memory_home: Path) -> None:
    saved = save("Sara reviews the lockfile", scope="person", confidence=0.9)
    connection = index.fresh(memory_home)
    try:
        row = connection.execute(
            "SELECT scope, confidence, last_verified_us FROM memories WHERE id = ?", (saved,)
        ).fetchone()
    finally:
        connection.close()
    assert row[:2] == ("person", 0.9)
    assert index.INDEX_VERSION >= 7  # the version that added them


def test_an_index_of_the_previous_version_is_rebuilt(memory_home: Path) -> None:
    saved = save("Use pnpm for packages")
    connection = index.fresh(memory_home)
    with connection:
        connection.execute("UPDATE meta SET value = '6' WHERE name = 'version'")
    connection.close()
    assert found("pnpm packages") == [saved]


def test_the_stores_fallback_applies_the_same_filters() -> None:
    sure = save("Use pnpm for packages", confidence=0.9, scope="global")
    save("Use pnpm workspaces for packages", state="pending", confidence=0.9)
    save("Maybe pnpm", confidence=0.3)
    with freeze_time(NOW):
        now = datetime.now(timezone.utc)
        kept = candidates(None, None, now, filters=Filters(min_confidence=0.8))
        pending = candidates(None, None, now, filters=Filters(states=frozenset({"pending"})))
        via_index = lookup.live(now=now, filters=Filters(min_confidence=0.8))
    assert [m.id for m in kept] == [sure] == [r.id for r in via_index]
    assert [m.state.value for m in pending] == ["pending"]
