"""The read path: every read verb and the SessionStart context through the index, no pydantic."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.api.stats import store_stats
from artibot_memory.api.transfer import export_lines
from artibot_memory.cli.app import main
from artibot_memory.core import clock
from artibot_memory.recall import lookup
from artibot_memory.recall.context import render_context
from artibot_memory.recall.search import candidates
from artibot_memory.recall.startcache import serve_cached_start
from artibot_memory.store import index
from artibot_memory.store.model import Memory, MemoryType
from artibot_memory.store.record import DEFAULTS, FIELDS, Record
from artibot_memory.store.table import spec_for

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "/src/shop"


def seed() -> dict[str, Memory]:
    """A few memories of every type, one expired, one superseded, one of another project."""
    with freeze_time("2026-03-01T09:00:00Z"):
        old = memories.save("preference", "Indent with tabs", key="indent")
        memories.save("command", "make release", project=PROJECT)
    with freeze_time("2026-05-01T09:00:00Z"):
        return {
            "old": old,
            "pref": memories.save("preference", "Indent with four spaces", key="indent"),
            "ctx": memories.save(
                "context", "Deploys go through the blue pipeline", project=PROJECT
            ),
            "other": memories.save("context", "The blog deploys from Netlify", project="/src/blog"),
            "err": memories.save(
                "error",
                "ModuleNotFoundError: No module named 'yaml'",
                project=PROJECT,
                resolution="pip install pyyaml",
            ),
        }


def test_a_record_has_the_defaults_of_a_memory() -> None:
    fields = Memory.model_fields
    assert set(fields) == FIELDS
    for name, default in DEFAULTS.items():
        expected: Any = fields[name].get_default(call_default_factory=True)
        if hasattr(expected, "model_dump"):
            expected = expected.model_dump()
        assert default == getattr(expected, "value", expected), name


def test_a_record_reads_what_the_memory_holds() -> None:
    saved = seed()["err"]
    record = Record(saved.model_dump(mode="json"))
    for name in ("id", "type", "text", "key", "tags", "project", "scope", "state", "count"):
        assert getattr(record, name) == getattr(saved, name), name
    assert record.last_seen == saved.last_seen
    assert record.expires_at == saved.expires_at
    assert record.resolution == saved.resolution
    assert record.full() == saved.model_dump(mode="json")


def test_a_record_of_an_unknown_state_reads_as_active_and_of_no_type_is_refused() -> None:
    doc = {"id": "ctx-1", "type": "context", "text": "x", "state": "from-the-future"}
    assert Record(doc).state.value == "active"
    with pytest.raises(ValueError, match="nonsense"):
        Record({**doc, "type": "nonsense"})


@freeze_time("2026-05-02T09:00:00Z")
def test_the_index_reads_give_what_the_stores_give() -> None:
    seed()
    now = clock.now()
    for project in (None, PROJECT, "shop"):
        from_index = [r.id for r in lookup.live(now=now, project=project)]
        from_stores = [m.id for m in candidates(None, project, now)]
        assert sorted(from_index) == sorted(from_stores), project
        listed = [r.id for r in lookup.listing(now=now, project=project)]
        assert listed == [m.id for m in memories.list_memories(project=project)], project
    stats = lookup.store_stats(now=now)
    assert stats == store_stats()


@freeze_time("2026-05-02T09:00:00Z")
def test_an_expired_memory_is_listed_by_no_read(memory_home: Path) -> None:
    seed()
    with freeze_time("2026-06-01T09:00:00Z"):  # the command (7 days) has expired
        now = clock.now()
        listed = {r.type for r in lookup.listing(now=now)}
        assert MemoryType.COMMAND not in listed
        assert lookup.by_id(next(iter(_ids(memory_home, "command")))) is not None  # show: kept


def _ids(home: Path, kind: str) -> list[str]:
    document = json.loads((home / spec_for(kind).filename).read_text())
    return [entry["id"] for entry in document["entries"]]


def test_show_prints_the_stored_record_with_its_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved = seed()["ctx"]
    assert main(["show", saved.id, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown.pop("schema") == "artibot-memory/1"
    assert shown == saved.model_dump(mode="json")
    assert main(["show", "ctx-0000000000"]) == 1
    assert capsys.readouterr().err.startswith("artibot-memory: no memory with id 'ctx-0000000000'")


def _without_index(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> sqlite3.Connection:
        raise sqlite3.OperationalError("no such module: fts5")

    monkeypatch.setattr(index, "fresh", broken)


@pytest.mark.parametrize(
    "verb", [["list", "--all-projects"], ["stats"], ["search", "deploy pipeline", "--all-projects"]]
)
def test_every_read_falls_back_to_the_stores_where_sqlite_cannot_serve_the_index(
    verb: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed()
    assert main([*verb, "--json"]) == 0
    with_index = json.loads(capsys.readouterr().out)
    _without_index(monkeypatch)
    assert main([*verb, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == with_index


def test_show_and_context_fall_back_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = seed()
    before = render_context(PROJECT).text
    _without_index(monkeypatch)
    assert render_context(PROJECT).text == before
    assert main(["show", saved["pref"].id, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == saved["pref"].id


def run_python(
    code: str, home: Path, *, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARTIBOT_MEMORY_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return subprocess.run(  # noqa: S603 - this interpreter, our own code
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False, cwd=cwd
    )


def test_no_read_verb_imports_pydantic(memory_home: Path, tmp_path: Path) -> None:
    saved = seed()
    code = f"""
import sys
from artibot_memory.cli.app import main
for argv in (["search", "deploy"], ["list"], ["show", {saved["ctx"].id!r}], ["stats"],
             ["context", "--project", {PROJECT!r}], ["search", "pipeline", "--json", "--record"]):
    assert main(argv) == 0, argv
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "orjson", "filelock"))
assert not heavy, heavy
print("ok")
"""
    done = run_python(code, memory_home, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("ok\n")


def test_a_session_start_without_its_cache_is_served_from_the_index_and_leaves_the_rest_to_a_worker(
    memory_home: Path, tmp_path: Path
) -> None:
    seed()
    expected = render_context(PROJECT).text
    assert expected
    payload = json.dumps({"hook_event_name": "SessionStart", "cwd": PROJECT, "session_id": "s1"})
    code = f"""
import subprocess, sys
started = []
subprocess.Popen = lambda argv, **kw: started.append(argv[2:])
from artibot_memory.plugin.entry import run_hook
run_hook("SessionStart", {payload.encode()!r})
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "orjson", "filelock"))
assert not heavy, heavy
sys.stderr.write(repr(started))
"""
    done = run_python(code, memory_home, cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr == "[['ingest', '--prune']]"
    output = json.loads(done.stdout)
    assert output["hookSpecificOutput"]["additionalContext"] == expected
    journaled = (memory_home / "journal.jsonl").read_text()
    assert '"event":"Accessed"' in journaled  # what it showed counts, at the worker's ingest
    # The worker counts them (the stores change) and renders the cache again, so the next
    # start is served from it.
    assert main(["ingest", "--prune"]) == 0
    served, again = serve_cached_start({"cwd": PROJECT})
    assert served
    assert again is not None
    assert again["hookSpecificOutput"]["additionalContext"] == render_context(PROJECT).text


def test_ingest_prune_is_what_the_start_worker_runs(capsys: pytest.CaptureFixture[str]) -> None:
    seed()
    with freeze_time("2026-06-01T09:00:00Z"):
        assert main(["ingest", "--prune"]) == 0
        assert "ingested" in capsys.readouterr().out
        assert not [
            m for m in memories.list_memories(include_expired=True) if m.type is MemoryType.COMMAND
        ]


def _large(monkeypatch: pytest.MonkeyPatch, limit: int, candidates: int) -> None:
    """Make a small home take the path of a large one (preselected candidates)."""
    monkeypatch.setattr(lookup, "EXHAUSTIVE_LIMIT", limit)
    monkeypatch.setattr(lookup, "CANDIDATES", candidates)
    monkeypatch.setattr(lookup, "WIDE", 4 * candidates)


@freeze_time("2026-11-30 12:00:00")
def test_a_large_index_scores_its_candidates_as_the_exhaustive_search_does(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(40):
        memories.save("context", f"Note {number}: the billing service deploys on friday")
    memories.save("context", "The flaky timezone test fails at midnight in billing")
    memories.save("context", "A midnight cron job rotates the logs")
    now = clock.now()
    exhaustive = lookup.ranked("flaky midnight billing", now=now, home=memory_home)
    _large(monkeypatch, limit=10, candidates=100)  # every match a candidate
    large = lookup.ranked("flaky midnight billing", now=now, home=memory_home)
    assert [h.memory.text for h in large][:2] == [h.memory.text for h in exhaustive][:2]
    assert large[0].memory.text.startswith("The flaky timezone test")
    # the common word alone is not an opening term: the memories holding only it are
    # not candidates, so not hits (the exhaustive search drops them by coverage too)
    assert {h.memory.text for h in large} <= {h.memory.text for h in exhaustive}


@freeze_time("2026-11-30 12:00:00")
def test_a_large_index_with_a_narrow_filter_ranks_only_the_live_memories(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(30):
        memories.save("context", f"Deploy note {number} for the shop", project="/src/shop")
    wanted = memories.save(
        "context",
        "Deploy the billing service once the invoices ran, the ledger closed and finance "
        "received every monthly report of the quarter",  # long: FTS5 ranks it last
        project="/src/billing",
    )
    _large(monkeypatch, limit=5, candidates=2)  # FTS5's best 8 are all the shop's
    found = lookup.ranked("deploy", now=clock.now(), home=memory_home, project="/src/billing")
    assert [h.memory.id for h in found] == [wanted.id]


# ---- one record schema for every read verb (issue 24)


def test_list_search_show_and_export_give_one_memory_with_the_same_fields(
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved = memories.save(
        "error",
        "`pnpm test` failed: TypeError: total is not a number",
        project="/src/shop",
        resolution="wrapped the coupon amount in Number()",
    )
    [exported] = [json.loads(line) for line in export_lines()]
    assert main(["list", "--all-projects", "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert main(["search", "pnpm test total number", "--all-projects", "--json"]) == 0
    [hit] = json.loads(capsys.readouterr().out)
    assert main(["show", saved.id, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert listed == {"schema": "artibot-memory/1", **exported}
    assert shown == {"schema": "artibot-memory/1", **exported}
    extra = set(hit) - set(listed)
    assert extra == {"score", "parts", "layer", "origin", "where", "flags", "flag_words", "code"}
    assert {key: hit[key] for key in listed} == listed
    assert listed["resolution"] == "wrapped the coupon amount in Number()"
