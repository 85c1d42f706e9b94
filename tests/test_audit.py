"""evolution.log: the line format, redaction, rotation at 1 MB, and reading it back."""

from __future__ import annotations

import stat
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.core.errors import UsageError
from artibot_memory.store import audit

AT = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)


def test_a_line_is_the_time_two_spaces_the_type_two_spaces_the_message(memory_home: Path) -> None:
    line = audit.append(memory_home, "PROMOTE", "pref-1 → active (auto_promote)", at=AT)
    assert line == "2026-11-30T10:00:00+00:00  PROMOTE  pref-1 → active (auto_promote)"
    assert (memory_home / "evolution.log").read_text(encoding="utf-8") == line + "\n"


def test_the_time_is_written_in_utc_whatever_the_offset_it_was_given(memory_home: Path) -> None:
    seoul = timezone(timedelta(hours=9))
    line = audit.append(memory_home, "STALE", "ctx-1", at=datetime(2026, 12, 1, 9, tzinfo=seoul))
    assert line.startswith("2026-12-01T00:00:00+00:00  STALE  ")


def test_without_a_time_it_is_now_from_the_one_clock(memory_home: Path) -> None:
    with freeze_time("2026-11-30 08:15:00"):
        audit.append(memory_home, "REFLECT", "pref-1 conf 0.62→0.74 freshness=strengthening")
    [entry] = audit.read(memory_home)
    assert entry.at == datetime(2026, 11, 30, 8, 15, tzinfo=timezone.utc)
    assert entry.message == "pref-1 conf 0.62→0.74 freshness=strengthening"


@pytest.mark.parametrize("kind", audit.TYPES)
def test_every_type_of_both_issues_is_written_and_read_back(memory_home: Path, kind: str) -> None:
    audit.append(memory_home, kind, "ctx-1 something", at=AT)
    assert [(e.type, e.message) for e in audit.read(memory_home)] == [(kind, "ctx-1 something")]


def test_an_unknown_type_is_a_one_line_error_and_nothing_is_written(memory_home: Path) -> None:
    with pytest.raises(UsageError, match=r"unknown evolution\.log type 'PROMOTED'"):
        audit.append(memory_home, "PROMOTED", "pref-1", at=AT)
    assert not (memory_home / "evolution.log").exists()


def test_a_message_of_several_lines_is_one_line(memory_home: Path) -> None:
    audit.append(memory_home, "CONSOLIDATE", "shop\n  touches=+6\n", at=AT)
    text = (memory_home / "evolution.log").read_text(encoding="utf-8")
    assert text.count("\n") == 1
    assert text.endswith("CONSOLIDATE  shop touches=+6\n")


def test_a_secret_in_a_message_never_reaches_the_file(memory_home: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4
    audit.append(memory_home, "PROMOTE", f"ctx-1 → pinned: deploy with {token}", at=AT)
    text = (memory_home / "evolution.log").read_text(encoding="utf-8")
    assert token not in text
    assert "[REDACTED:github-token]" in text


def test_the_log_is_private(memory_home: Path) -> None:
    audit.append(memory_home, "PROMOTE", "pref-1", at=AT)
    assert stat.S_IMODE((memory_home / "evolution.log").stat().st_mode) == 0o600


def test_lines_are_appended_never_rewritten(memory_home: Path) -> None:
    audit.append(memory_home, "PROMOTE", "pref-1", at=AT)
    audit.append(memory_home, "DEMOTE", "pref-1 below threshold", at=AT + timedelta(days=1))
    assert [e.type for e in audit.read(memory_home)] == ["PROMOTE", "DEMOTE"]


def test_past_1_mb_the_log_moves_to_evolution_log_1_and_starts_again(memory_home: Path) -> None:
    memory_home.mkdir(parents=True)
    old = audit.format_line("PROMOTE", "pref-old " + "x" * 90, AT) + "\n"
    lines = old * (audit.MAX_BYTES // len(old))
    lines += audit.format_line("PROMOTE", "pref-old " + "x" * (audit.MAX_BYTES - len(lines)), AT)
    (memory_home / "evolution.log").write_text(lines[: audit.MAX_BYTES - 10] + "\n", "utf-8")
    audit.append(memory_home, "DEMOTE", "pref-new", at=AT + timedelta(days=1))
    assert (memory_home / "evolution.log").read_text(encoding="utf-8").count("\n") == 1
    assert (memory_home / "evolution.log.1").stat().st_size <= audit.MAX_BYTES
    entries = audit.read(memory_home)
    assert entries[0].message.startswith("pref-old")  # the rotated file first: oldest first
    assert entries[-1].message == "pref-new"


def test_lines_that_are_not_the_logs_own_are_skipped(memory_home: Path) -> None:
    audit.append(memory_home, "PROMOTE", "pref-1", at=AT)
    with (memory_home / "evolution.log").open("a", encoding="utf-8") as handle:
        handle.write("a line someone added\nnot-a-time  PROMOTE  x\n")
    assert [e.message for e in audit.read(memory_home)] == ["pref-1"]


def test_a_missing_log_reads_as_empty(memory_home: Path) -> None:
    assert audit.read(memory_home) == []
