"""The derived search index (artibot_memory.store.index): always the stores' copy, never more.

Each write path keeps it in step with the entries it changed; a reader re-reads any store
whose file is not the one the rows came from (a hand edit, a restore, a write killed between
the store and the index), so a forgotten memory never comes back; an unusable index file is
built again.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.api.prune import prune
from artibot_memory.core.errors import CorruptStoreError
from artibot_memory.recall.search import search
from artibot_memory.store import index
from artibot_memory.store.table import STORES


def rows(home: Path) -> dict[str, dict[str, object]]:
    """Every memory the index holds (after catching up), by id, as stored."""
    connection = index.fresh(home)
    try:
        found = connection.execute(
            "SELECT m.id, d.doc FROM memories AS m JOIN docs AS d ON d.rowid = m.rowid"
        ).fetchall()
    finally:
        connection.close()
    return {memory_id: json.loads(doc) for memory_id, doc in found}


def stored(home: Path) -> dict[str, dict[str, object]]:
    """Every memory of the four store files, by id."""
    found: dict[str, dict[str, object]] = {}
    for spec in STORES:
        path = home / spec.filename
        if path.exists():
            found.update({e["id"]: e for e in json.loads(path.read_bytes())["entries"]})
    return found


def recorded_stamps(home: Path) -> dict[str, str]:
    connection = sqlite3.connect(index.index_path(home))
    try:
        return dict(connection.execute("SELECT file, fingerprint FROM stores").fetchall())
    finally:
        connection.close()


def test_the_index_holds_exactly_what_the_stores_hold_after_each_write_path(
    memory_home: Path,
) -> None:
    assert rows(memory_home) == {}  # built empty on first read
    pnpm = memories.save("preference", "Always use pnpm, never npm", key="package-manager")
    yarn = memories.save("preference", "Use yarn", key="package-manager")  # supersedes pnpm
    fact = memories.save("context", "Staging is deployed with make deploy-staging")
    memories.save("command", "pytest -q tests/test_orders.py")
    assert rows(memory_home) == stored(memory_home)
    assert rows(memory_home)[pnpm.id]["state"] == "superseded"
    memories.forget(memory_id=fact.id)
    assert fact.id not in rows(memory_home)
    assert rows(memory_home) == stored(memory_home)
    assert yarn.id in rows(memory_home)


def test_a_write_updates_only_the_entries_it_changed(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(30):
        memories.save("context", f"Fact number {number} about the billing service")
    rows(memory_home)  # the index exists and is in step
    inserted: list[str] = []
    real_insert = index._insert  # noqa: SLF001

    def counting(connection: sqlite3.Connection, spec: object, entries: list[Any]) -> None:
        inserted.extend(str(entry["id"]) for entry, _doc in entries)
        real_insert(connection, spec, entries)  # type: ignore[arg-type]

    monkeypatch.setattr(index, "_insert", counting)
    added = memories.save("context", "The invoices are sent on the first of the month")
    assert inserted == [added.id]
    assert rows(memory_home) == stored(memory_home)
    assert inserted == [added.id]  # the reader found the index in step: nothing re-read


def test_a_hand_edit_of_a_store_file_is_read_again(memory_home: Path) -> None:
    saved = memories.save("context", "The cache is Redis")
    assert rows(memory_home)[saved.id]["text"] == "The cache is Redis"
    path = memory_home / "project-contexts.json"
    path.write_text(path.read_text().replace("The cache is Redis", "The cache is Valkey"))
    assert rows(memory_home)[saved.id]["text"] == "The cache is Valkey"
    assert [h.memory.id for h in search("valkey", record=False)] == [saved.id]
    assert search("redis", record=False) == []


@pytest.mark.parametrize(
    "damage",
    [b"not a database at all", b"SQLite format 3\x00" + b"\x00" * 200, b""],
    ids=["garbage", "truncated", "empty"],
)
def test_an_unusable_index_file_is_built_again(memory_home: Path, damage: bytes) -> None:
    saved = memories.save("preference", "Commit messages in English")
    rows(memory_home)
    index.remove(memory_home)
    Path(index.index_path(memory_home)).write_bytes(damage)
    assert list(rows(memory_home)) == [saved.id]


def test_an_index_of_another_version_is_built_again(memory_home: Path) -> None:
    saved = memories.save("preference", "Commit messages in English")
    rows(memory_home)
    connection = sqlite3.connect(index.index_path(memory_home))
    with connection:
        connection.execute("UPDATE meta SET value = '0' WHERE name = 'version'")
        connection.execute("DELETE FROM memories")
        connection.execute("DELETE FROM docs")
    connection.close()
    assert list(rows(memory_home)) == [saved.id]


def test_an_index_missing_a_table_is_built_again(memory_home: Path) -> None:
    saved = memories.save("preference", "Commit messages in English")
    rows(memory_home)
    connection = sqlite3.connect(index.index_path(memory_home))
    with connection:
        connection.execute("DROP TABLE docs")
        connection.execute("DELETE FROM stores")
    connection.close()
    assert list(rows(memory_home)) == [saved.id]


def test_a_write_finding_the_index_behind_leaves_it_to_the_reader(memory_home: Path) -> None:
    first = memories.save("context", "The deploy runs on Fridays")
    rows(memory_home)
    path = memory_home / "project-contexts.json"
    path.write_text(path.read_text().replace("Fridays", "Mondays"))  # the index is now behind
    second = memories.save("context", "Releases are tagged vX.Y.Z")
    assert "project-contexts.json" not in recorded_stamps(memory_home)
    found = rows(memory_home)
    assert found[first.id]["text"] == "The deploy runs on Mondays"
    assert second.id in found


def test_prune_and_expiry_never_return_an_expired_memory(memory_home: Path) -> None:
    with freeze_time("2026-09-01T10:00:00Z"):
        old = memories.save("command", "make release-candidate")
    with freeze_time("2026-09-20T10:00:00Z"):
        assert search("release candidate", record=False) == []  # 7-day TTL: expired, unpruned
        assert old.id in rows(memory_home)
        prune()
        assert old.id not in rows(memory_home)


def test_a_corrupt_store_file_is_reported_not_indexed(memory_home: Path) -> None:
    memories.save("context", "The cache is Redis")
    (memory_home / "project-contexts.json").write_text("{broken")
    with pytest.raises(CorruptStoreError, match=r"project-contexts\.json"):
        index.fresh(memory_home)


def test_the_index_and_its_wal_are_private(memory_home: Path) -> None:
    os.umask(0o022)
    memories.save("preference", "Use tabs")
    connection = index.fresh(memory_home)
    try:
        files = sorted(memory_home.glob("index.sqlite*"))
        assert files
        assert {oct(f.stat().st_mode & 0o777) for f in files} == {"0o600"}
    finally:
        connection.close()


def test_doctor_reindex_builds_it_from_scratch(memory_home: Path) -> None:
    saved = memories.save("preference", "Use tabs")
    assert index.rebuild(memory_home) == 1
    assert list(rows(memory_home)) == [saved.id]


def test_a_forgotten_memory_leaves_no_byte_in_the_index_files(memory_home: Path) -> None:
    gone = memories.save("context", "The acquisition of Quokkazz closes in March")
    kept = memories.save("context", "The office moves in June")
    assert [h.memory.id for h in search("quokkazz acquisition", record=False)] == [gone.id]
    memories.forget(memory_id=gone.id)
    for path in memory_home.rglob("*"):
        if path.is_file():
            assert b"quokkazz" not in path.read_bytes().lower(), path
    assert [h.memory.id for h in search("office moves", record=False)] == [kept.id]
    assert search("quokkazz acquisition", record=False) == []


KILLED_FORGET = """
import os, signal, sys
from artibot_memory.api import memories
from artibot_memory.store import index
def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)  # after the store file, before the index
index.after_write = killed
memories.forget(memory_id=sys.argv[1])
"""


def test_a_forget_killed_between_the_store_and_the_index_never_comes_back(
    memory_home: Path,
) -> None:
    secret_plan = memories.save("context", "The acquisition of Quokka closes in March")
    memories.save("context", "The office moves in June")
    assert secret_plan.id in rows(memory_home)
    done = subprocess.run(  # noqa: S603 - this interpreter, our own package
        [sys.executable, "-c", KILLED_FORGET, secret_plan.id],
        env={**os.environ, "ARTIBOT_MEMORY_HOME": str(memory_home)},
        check=False,
        capture_output=True,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert secret_plan.id not in stored(memory_home)
    assert secret_plan.id not in rows(memory_home)
    assert search("acquisition quokka", record=False) == []


def test_without_fts5_search_falls_back_to_the_stores(monkeypatch: pytest.MonkeyPatch) -> None:
    saved = memories.save("context", "The cache is Redis")

    def no_fts5(*_args: object, **_kwargs: object) -> object:
        raise sqlite3.OperationalError("no such module: fts5")

    monkeypatch.setattr(index, "fresh", no_fts5)
    assert [h.memory.id for h in search("redis cache", record=False)] == [saved.id]


def test_a_write_over_a_store_laid_out_by_hand_leaves_the_index_exact(memory_home: Path) -> None:
    first = memories.save("context", "The deploy runs on Fridays")
    path = memory_home / "project-contexts.json"
    path.write_text(json.dumps(json.loads(path.read_text()), indent=2))  # pretty, one field a line
    assert list(rows(memory_home)) == [first.id]  # the reader takes it as it is
    second = memories.save("context", "Releases are tagged vX.Y.Z")  # rewritten one per line
    assert rows(memory_home) == stored(memory_home)
    assert set(rows(memory_home)) == {first.id, second.id}


def totals(home: Path) -> tuple[tuple[int, int], tuple[int, int]]:
    """The totals row, and the same figures counted from the memories."""
    connection = index.fresh(home)
    try:
        kept = connection.execute("SELECT count, length FROM totals").fetchone()
        counted = connection.execute("SELECT count(*), coalesce(sum(length), 0) FROM memories")
        return tuple(kept), tuple(counted.fetchone())
    finally:
        connection.close()


def test_the_totals_row_stays_in_step_with_every_write_and_re_read(memory_home: Path) -> None:
    kept, counted = totals(memory_home)
    assert kept == counted == (0, 0)
    saved = [memories.save("context", f"Fact {n} about the billing service") for n in range(5)]
    memories.save("preference", "Always use pnpm", key="package-manager")
    memories.save("preference", "Use yarn", key="package-manager")  # supersedes: a rewrite
    kept, counted = totals(memory_home)
    assert kept == counted
    assert kept[0] == 7
    memories.forget(memory_id=saved[0].id)
    path = memory_home / "project-contexts.json"  # a hand edit: the store is read again
    path.write_text(path.read_text(encoding="utf-8").replace("Fact 1", "Fact one"), "utf-8")
    kept, counted = totals(memory_home)
    assert kept == counted
    assert kept[0] == 6
    index.rebuild(memory_home)
    assert totals(memory_home)[0] == counted


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\n",
        b"\n\n\n",
        b'{"schema_version":1,"entries":[]}',
        b'{"schema_version":1,"entries":[\n{"a":1}\n]}',
        b'{"schema_version":1,"entries":[\n{"a":1},\n{"b":2},\n\n{"c":3}\n]}',
        b"x\n\n",
    ],
)
def test_the_entry_lines_read_one_at_a_time_are_the_lines_split_whole(raw: bytes) -> None:
    assert list(index._each_entry_line(raw)) == index._entry_lines(raw)  # noqa: SLF001
