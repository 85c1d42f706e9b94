from __future__ import annotations

import json
import multiprocessing
import os
import stat
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from artibot_memory.capture import journal
from artibot_memory.text.trim import cut_middle  # what the journal trims its fields with

if TYPE_CHECKING:
    from pathlib import Path

APPENDERS = 16
RECORDS_EACH = 40


def lines_of(home: Path) -> list[bytes]:
    return (home / journal.JOURNAL_NAME).read_bytes().splitlines()


# Run by exec in the child processes, so they need not import this test module. The
# home is passed in: a forkserver child has the environment of an earlier test.
APPEND_MANY = """
import os
os.environ["ARTIBOT_MEMORY_HOME"] = home
from artibot_memory.capture import journal
start.wait()
for index in range(count):
    journal.append({"event": "PostToolUse", "worker": worker, "index": index, "output": "x" * 500})
"""


def start_appenders(counts: list[int]) -> list[multiprocessing.process.BaseProcess]:
    """Start real processes that begin appending at the same moment.

    Each process holds the start event, so it lives until the children have read it.
    """
    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    start = context.Event()
    shared = {"start": start, "home": os.environ["ARTIBOT_MEMORY_HOME"]}
    processes = [
        context.Process(target=exec, args=(APPEND_MANY, {**shared, "worker": w, "count": n}))
        for w, n in enumerate(counts)
    ]
    for process in processes:
        process.start()
        process.start_event = start
    start.set()
    return processes


def test_a_record_becomes_one_versioned_timestamped_line(memory_home: Path) -> None:
    journal.append({"event": "PostToolUse", "command": "pytest -q"})
    [line] = lines_of(memory_home)
    record = json.loads(line)
    assert list(record)[:2] == ["v", "at"]
    assert record["v"] == 1
    assert record["at"].endswith("+00:00")
    assert record["command"] == "pytest -q"


def test_the_journal_is_private_to_its_owner(memory_home: Path) -> None:
    journal.append({"event": "X"})
    mode = stat.S_IMODE((memory_home / journal.JOURNAL_NAME).stat().st_mode)
    assert mode & 0o077 == 0


def test_a_record_cannot_override_the_version_or_time(memory_home: Path) -> None:
    journal.append({"v": 99, "at": "yesterday", "event": "X"})
    record = json.loads(lines_of(memory_home)[0])
    assert record["v"] == 1
    assert record["at"] != "yesterday"


def test_secrets_are_redacted_before_the_line_is_written(memory_home: Path) -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    journal.append(
        {
            "event": "PostToolUse",
            "command": f"GITHUB_TOKEN={secret} gh pr list",
            "nested": {"output": [f"token: {secret}"]},
        }
    )
    assert secret.encode() not in (memory_home / journal.JOURNAL_NAME).read_bytes()


def test_without_the_redact_module_every_text_is_withheld_never_written(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    monkeypatch.setitem(sys.modules, "artibot_memory.core.redact", None)  # the import fails
    journal.append({"event": "PostToolUse", "command": f"GITHUB_TOKEN={secret} gh pr list"})
    [record] = [json.loads(line) for line in lines_of(memory_home)]
    assert secret.encode() not in (memory_home / journal.JOURNAL_NAME).read_bytes()
    assert record["command"] == journal.WITHHELD
    assert record["v"] == journal.RECORD_VERSION


def test_a_home_given_is_the_home_appended_to_and_drained(
    memory_home: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other-home"
    other.mkdir(mode=0o700)
    journal.append({"event": "X", "where": "other"}, other)
    journal.append({"event": "X", "where": "environment"})
    with journal.drain(other) as batch:
        assert [r["where"] for r in batch] == ["other"]
    with journal.drain() as batch:
        assert [r["where"] for r in batch] == ["environment"]
    assert not list(other.glob("journal*"))
    assert not list(memory_home.glob("journal*"))


@pytest.mark.parametrize(
    ("field", "limit"),
    [
        pytest.param("command", 2_000, id="command"),
        pytest.param("output", 2_000, id="output"),
        pytest.param("error", 4_000, id="error"),
        pytest.param("prompt", 4_000, id="prompt"),
        pytest.param("anything", journal.DEFAULT_LIMIT, id="other"),
    ],
)
def test_each_string_is_trimmed_keeping_head_and_tail(field: str, limit: int) -> None:
    text = "HEAD" + "m" * 50_000 + "TAIL"
    record = json.loads(journal.encode({field: text}))
    assert len(record[field]) <= limit
    assert record[field].startswith("HEAD")
    assert record[field].endswith("TAIL")
    assert "chars trimmed" in record[field]


@pytest.mark.parametrize(
    "record",
    [
        pytest.param({f"field{i}": "한" * 2_000 for i in range(60)}, id="many-wide-strings"),
        pytest.param({"items": ["🙂" * 1_000] * 500}, id="long-list"),
        pytest.param({"deep": {"deeper": {"deepest": ["x" * 9_000] * 90}}}, id="nested"),
        pytest.param({f"k{i}": i for i in range(6_000)}, id="many-keys"),
    ],
)
def test_a_line_never_exceeds_64_kib(record: dict[str, object]) -> None:
    line = journal.encode(record)
    assert len(line) <= journal.MAX_LINE_BYTES
    assert line.endswith(b"\n")
    assert line.count(b"\n") == 1
    json.loads(line)


def test_trimming_twice_changes_nothing() -> None:
    once = cut_middle("z" * 100_000, 4_000)
    assert cut_middle(once, 4_000) == once


def test_the_journal_stops_growing_at_its_cap(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "MAX_JOURNAL_BYTES", 1_000)
    for index in range(100):
        journal.append({"event": "X", "index": index})
    assert (memory_home / journal.JOURNAL_NAME).stat().st_size < 1_000 + journal.MAX_LINE_BYTES


def test_a_drain_returns_the_records_in_order_and_empties_the_journal(memory_home: Path) -> None:
    for index in range(5):
        journal.append({"event": "X", "index": index})
    with journal.drain() as batch:
        assert [r["index"] for r in batch] == [0, 1, 2, 3, 4]
    assert not list(memory_home.glob("journal*"))
    assert journal.drain() == []


def test_a_failed_ingest_leaves_the_take_for_a_later_drain() -> None:
    journal.append({"event": "X"})
    with pytest.raises(RuntimeError), journal.drain():
        raise RuntimeError
    assert journal.drain() == [], "a take is not re-read while its drain may still run"
    assert [r["event"] for r in journal.drain(stale_after=0)] == ["X"]


def test_a_drain_that_crashes_re_delivers_its_records(memory_home: Path) -> None:
    for index in range(3):
        journal.append({"event": "X", "index": index})
    crash = "from artibot_memory.capture import journal; import os; journal.drain(); os._exit(1)"
    done = subprocess.run([sys.executable, "-c", crash], check=False)  # noqa: S603
    assert done.returncode == 1
    assert not (memory_home / journal.JOURNAL_NAME).exists()
    batch = journal.drain(stale_after=0)
    assert [r["index"] for r in batch] == [0, 1, 2]
    batch.finish()
    assert not list(memory_home.glob("journal*"))


def test_a_drain_takes_leftovers_first_and_stops_at_its_budget() -> None:
    journal.append({"event": "old"})
    journal.drain()
    journal.append({"event": "new"})
    first = journal.drain(stale_after=0, max_bytes=1)
    assert [r["event"] for r in first] == ["old"]
    first.finish()
    assert [r["event"] for r in journal.drain(stale_after=0)] == ["new"]


def test_a_torn_last_line_is_skipped(memory_home: Path) -> None:
    journal.append({"event": "kept"})
    with (memory_home / journal.JOURNAL_NAME).open("ab") as handle:
        handle.write(b'{"v":1,"event":"torn","outp')
    assert [r["event"] for r in journal.drain()] == ["kept"]


def test_a_record_glued_to_a_torn_line_is_recovered(memory_home: Path) -> None:
    memory_home.mkdir(parents=True)
    with (memory_home / journal.JOURNAL_NAME).open("ab") as handle:
        handle.write(b'{"v":1,"event":"torn","ou')
    journal.append({"event": "whole"})
    assert [r["event"] for r in journal.drain()] == ["whole"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(b'{"v":1,"a":2}', {"v": 1, "a": 2}, id="whole"),
        pytest.param(b"", None, id="empty"),
        pytest.param(b"[1, 2]", None, id="not-an-object"),
        pytest.param(b"\xff\xfe garbage", None, id="garbage"),
        pytest.param(b"[" * 100_000, None, id="too-deep"),
    ],
)
def test_a_journal_line_parses_to_a_record_or_nothing(
    line: bytes, expected: dict[str, int] | None
) -> None:
    assert journal.parse_line(line) == expected


def test_concurrent_appends_from_16_processes_lose_nothing(memory_home: Path) -> None:
    for process in start_appenders([RECORDS_EACH] * APPENDERS):
        process.join(120)
        assert process.exitcode == 0
    records = [json.loads(line) for line in lines_of(memory_home)]
    assert len(records) == APPENDERS * RECORDS_EACH
    assert {(r["worker"], r["index"]) for r in records} == {
        (w, i) for w in range(APPENDERS) for i in range(RECORDS_EACH)
    }


def test_an_append_never_goes_to_a_take_deleted_under_a_reused_inode_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    journal.append({"event": "first"})  # the home and a journal exist
    path = journal.journal_path()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.unlink(path)  # a drain took this file, read it and deleted it
        real_stat = os.stat
        reused = os.fstat(fd).st_ino

        class Reused:  # the next journal, created with the freed inode number
            st_ino = reused

        def stat(name: str, **options: bool) -> object:
            return Reused() if name == path else real_stat(name, **options)

        monkeypatch.setattr(os, "stat", stat)
        assert not journal._is_current(fd, path)  # noqa: SLF001 - the check itself
    finally:
        os.close(fd)


def test_draining_while_processes_append_loses_nothing() -> None:
    workers = start_appenders([150] * 4)
    seen: list[dict[str, object]] = []
    while any(process.is_alive() for process in workers):
        with journal.drain() as batch:
            seen.extend(batch)
    with journal.drain() as batch:
        seen.extend(batch)
    assert all(process.exitcode == 0 for process in workers)
    assert sorted((r["worker"], r["index"]) for r in seen) == [
        (w, i) for w in range(4) for i in range(150)
    ]


def test_appending_needs_no_write_access_beyond_the_home(memory_home: Path) -> None:
    journal.append({"event": "X"})
    assert [path.name for path in memory_home.iterdir()] == [journal.JOURNAL_NAME]


def test_a_journal_planted_as_a_symlink_is_never_read(memory_home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.jsonl"
    outside.write_text(json.dumps({"v": 1, "event": "PostToolUse", "command": "cat x"}) + "\n")
    memory_home.mkdir(parents=True)
    (memory_home / journal.JOURNAL_NAME).symlink_to(outside)
    with journal.drain() as batch:
        assert list(batch) == []
    assert outside.exists()
    journal.append({"event": "X"})
    assert outside.read_text().count("\n") == 1
