"""What a person reads from the CLI (artibot_memory/cli/render.py), one rule at a time."""

from __future__ import annotations

import io
from datetime import datetime, timedelta, timezone

import pytest

from artibot_memory.cli import render
from artibot_memory.cli.render import Cell, Style
from artibot_memory.store.model import Evidence, Memory, MemoryType, Source

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


def memory(text: str, **fields: object) -> Memory:
    base: dict[str, object] = {
        "id": "ctx-0000000001",
        "type": MemoryType.CONTEXT,
        "text": text,
        "created_at": NOW,
        "updated_at": NOW,
        "last_seen": NOW,
    }
    return Memory.model_validate({**base, **fields})


def summary(session: str, asked: str) -> Memory:
    text = (
        f"Session {session} 2026-03-09 10:00–11:00 UTC (1h00m, 50m active), branch main, "
        f"in /src/shop\nAsked: {asked}\nTests (1 runs: 1 passed), last:\n- `pytest` passed"
    )
    return memory(text, project="/src/shop", tags=["session-summary"])


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stream", "env", "colour"),
    [
        pytest.param(Terminal(), {}, True, id="terminal"),
        pytest.param(Terminal(), {"NO_COLOR": "1"}, False, id="no-color"),
        pytest.param(Terminal(), {"NO_COLOR": ""}, True, id="no-color-empty-is-unset"),
        pytest.param(Terminal(), {"TERM": "dumb"}, False, id="dumb-terminal"),
        pytest.param(io.StringIO(), {}, False, id="pipe"),
    ],
)
def test_colour_only_on_a_terminal(stream: io.StringIO, env: dict[str, str], colour: bool) -> None:
    style = Style.for_stream(stream, env)
    assert style.colour is colour
    assert ("\x1b[" in style.paint("x", "id")) is colour


def test_the_width_is_the_terminals_or_columns_or_a_fixed_one_off_a_terminal() -> None:
    assert Style.for_stream(io.StringIO(), {}).width == render.DEFAULT_WIDTH
    assert Style.for_stream(io.StringIO(), {"COLUMNS": "70"}).width == 70


def test_stored_escape_codes_never_reach_the_terminal() -> None:
    shown = render.record(memory("a\x1b]0;owned\x07b\x9b31m").model_dump(mode="json"), NOW, Style())
    assert not any(ch in line for line in shown for ch in "\x1b\x07\x9b")


def test_two_session_summaries_show_what_was_asked_not_their_common_header() -> None:
    rows = render.memory_rows(
        [summary("1a2b3c4d", "fix login"), summary("5e6f7a8b", "add CSV export")], NOW, states=False
    )
    texts = [row[-1].text for row in rows]
    assert texts == [
        "Asked: fix login · Tests (1 runs: 1 passed), last: `pytest` passed",
        "Asked: add CSV export · Tests (1 runs: 1 passed), last: `pytest` passed",
    ]
    assert [row[2].text for row in rows] == ["shop", "shop"]  # the project's short name


def test_a_summary_found_by_its_header_alone_loses_it_too() -> None:
    untagged = memory("Session abc (time unknown)\nAsked: fix login")
    assert render.gist(untagged) == "Asked: fix login"
    assert render.gist(memory("Session abc (time unknown)")) == "Session abc (time unknown)"
    assert render.gist(memory("Sessions are stored in Redis\nfor a day")) == (
        "Sessions are stored in Redis · for a day"
    )


@pytest.mark.parametrize(
    ("texts", "shown"),
    [
        pytest.param(
            ["Deployment notes for the shop: use blue", "Deployment notes for the shop: red"],
            ["…use blue", "…red"],
            id="shared-sentence",
        ),
        pytest.param(["pytest -q tests/a", "pytest -q tests/b"], None, id="short-prefix-kept"),
        pytest.param(["Deployment notes for the shop"], None, id="one-row"),
    ],
)
def test_a_prefix_every_row_shares_is_dropped(texts: list[str], shown: list[str] | None) -> None:
    assert render.without_shared_prefix(texts) == (texts if shown is None else shown)


def test_columns_align_on_what_people_see_wide_characters_included() -> None:
    rows = [[Cell("배포"), Cell("x")], [Cell("ab"), Cell("y")]]
    lines = render.table(["name", "v"], rows, Style())
    assert [render.cells(line[: line.rindex(" ") + 1]) for line in lines] == [6, 6, 6]


def test_colour_does_not_move_the_columns() -> None:
    rows = [[Cell("ctx-1", "id"), Cell("context", "context"), Cell("text")]]
    plain = render.table(["id", "type", "text"], rows, Style())
    painted = render.table(["id", "type", "text"], rows, Style(colour=True))
    strip = __import__("re").compile(r"\x1b\[[0-9;]*m")
    assert [strip.sub("", line) for line in painted] == plain


def test_the_last_column_is_cut_to_the_width() -> None:
    rows = [[Cell("id-1"), Cell("word " * 40)]]
    [_, line] = render.table(["id", "text"], rows, Style(width=50))
    assert render.cells(line) <= 50
    assert line.endswith("…")


@pytest.mark.parametrize(
    ("ago", "said"),
    [
        pytest.param(timedelta(seconds=5), "just now", id="seconds"),
        pytest.param(timedelta(minutes=12), "12 min ago", id="minutes"),
        pytest.param(timedelta(hours=5), "5 h ago", id="hours"),
        pytest.param(timedelta(days=1, hours=2), "1 day ago", id="a-day"),
        pytest.param(timedelta(days=6), "6 days ago", id="days"),
        pytest.param(timedelta(days=9), "2026-03-01", id="a-date"),
        pytest.param(timedelta(days=-3), "2026-03-13", id="future"),
    ],
)
def test_dates_are_relative_within_a_week(ago: timedelta, said: str) -> None:
    assert render.when(NOW - ago, NOW) == said


def test_a_record_in_full_is_aligned_fields_with_dates_lists_and_nested_parts() -> None:
    record = memory(
        "line one\nline two",
        project="/src/shop",
        tags=["db", "postgres"],
        source=Source(channel="hook", session_id="s-1", path="/t.jsonl", line=12),
        evidence=[Evidence(at=NOW - timedelta(days=2), session_id="s-0", note="first")],
        expires_at=NOW + timedelta(days=30),
        details={"kind": "note", "duration_seconds": 60},
        extra_field=["x", "y"],
    )
    lines = render.record(record.model_dump(mode="json"), NOW, Style())
    text = "\n".join(lines)
    for forbidden in ("datetime.datetime(", "Source(", "Evidence(", "{'", "['", "None"):
        assert forbidden not in text
    column = len(lines[0]) - len(record.id)
    assert all(line[column - 1] == " " and line[column] != " " for line in lines)
    values = {line[:column].strip(): line[column:] for line in lines}
    assert values["tags:"] == "db, postgres"
    assert values["project:"] == "shop (/src/shop)"
    assert values["source:"] == "/t.jsonl:12"
    assert values["where:"] == "a hook, session s-1"
    assert values["expires:"] == "2026-04-09 12:00 UTC (in 30 days)"
    assert values["created:"] == "2026-03-10 12:00 UTC (just now)"
    assert values["extra_field:"] == "x, y"
    assert values["text:"] == "line one"
    continued = [line[column:] for line in lines if not line[:column].strip()]
    assert "line two" in continued
    assert "- 2026-03-08 12:00 UTC, session s-0, first" in continued
    assert "duration_seconds: 60" in continued


def test_json_documents_are_versioned_without_changing_their_shape() -> None:
    assert render.versioned({"a": 1}) == {"schema": render.JSON_SCHEMA, "a": 1}
    assert render.versioned([{"a": 1}, {"b": 2}]) == [
        {"schema": render.JSON_SCHEMA, "a": 1},
        {"schema": render.JSON_SCHEMA, "b": 2},
    ]
    assert render.versioned([]) == []
    assert render.versioned(None) is None
    assert next(iter(render.versioned({"a": 1}))) == "schema"
