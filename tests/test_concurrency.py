"""Many processes at once: no lost update, no torn file, no lost hook record.

Real processes (``multiprocessing`` with spawn, as Claude Code starts one process per
hook), released together by a barrier. Texts are built from letters only, so the
signatures that merge repeats (which replace numbers) keep every text distinct.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from artibot_memory.lifecycle import ingest

pytestmark = pytest.mark.slow

TYPES = ("preference", "context", "command", "error")
WORKERS = 16
SAVES_PER_WORKER = 25
PAYLOADS_PER_WORKER = 25
FAILURE_EVERY = 5
BARRIER_TIMEOUT = 120.0
_barrier: Any = None
_stop: Any = None


def word(number: int) -> str:
    """Spell a number with letters: ``word(907) == 'mbk'`` (signatures keep letters)."""
    return "".join("bcdfghjklm"[int(digit)] for digit in str(number))


def text_for(memory_type: str, worker: int, index: int) -> str:
    tag = f"{word(worker)} {word(index)}"
    return {
        "preference": f"Prefer the {tag} style for widgets",
        "context": f"Project fact {tag}: the queue is backed by redis",
        "command": f"make target-{word(worker)}-{word(index)}",
        "error": f"RuntimeError: worker {tag} exploded",
    }[memory_type]


def hook_payload(worker: int, index: int) -> tuple[str, dict[str, Any]]:
    base = {
        "session_id": f"session-{word(worker)}",
        "cwd": "/src/shop",
        "tool_name": "Bash",
        "tool_use_id": f"toolu_{word(worker)}_{word(index)}",
    }
    if index % FAILURE_EVERY == FAILURE_EVERY - 1:
        command = f"pnpm run check-{word(worker)}-{word(index)}"
        error = f"Exit code 1\nValueError: check {word(worker)} {word(index)} failed"
        return "PostToolUseFailure", {**base, "tool_input": {"command": command}, "error": error}
    command = f"pnpm run task-{word(worker)}-{word(index % 3)}"
    response = {"stdout": "done", "stderr": "", "interrupted": False}
    return "PostToolUse", {**base, "tool_input": {"command": command}, "tool_response": response}


def _init(home: str, barrier: Any, stop: Any = None) -> None:
    global _barrier, _stop  # per-process state handed over by the pool
    os.environ["ARTIBOT_MEMORY_HOME"] = home
    _barrier, _stop = barrier, stop


def save_batch(worker: int) -> list[str]:
    """Wait for every worker, then save 25 distinct memories across the four types."""
    from artibot_memory.api import memories  # noqa: PLC0415 - imported in the child

    _barrier.wait(BARRIER_TIMEOUT)
    saved = []
    for index in range(SAVES_PER_WORKER):
        memory_type = TYPES[index % len(TYPES)]
        saved.append(memories.save(memory_type, text_for(memory_type, worker, index)).id)
    return saved


def feed_hooks(worker: int) -> tuple[int, int]:
    """Wait for every worker, then run 25 tool-call hooks; return (successes, failures)."""
    import io  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from artibot_memory.plugin.entry import run_hook  # noqa: PLC0415

    _barrier.wait(BARRIER_TIMEOUT)
    counts = {"PostToolUse": 0, "PostToolUseFailure": 0}
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    for index in range(PAYLOADS_PER_WORKER):
        event, payload = hook_payload(worker, index)
        assert run_hook(event, json.dumps(payload).encode()) == 0
        counts[event] += 1
    return counts["PostToolUse"], counts["PostToolUseFailure"]


def keep_ingesting(_worker: int) -> int:
    """Ingest the journal again and again until told to stop; return how many times."""
    from artibot_memory.lifecycle import ingest  # noqa: PLC0415

    _barrier.wait(BARRIER_TIMEOUT)
    rounds = 0
    while not _stop.is_set() or rounds == 0:
        ingest()
        rounds += 1
    return rounds


def keep_pruning(_worker: int) -> int:
    """Prune every store again and again until told to stop; return how many times."""
    from artibot_memory.api.prune import prune  # noqa: PLC0415

    _barrier.wait(BARRIER_TIMEOUT)
    rounds = 0
    while not _stop.is_set() or rounds == 0:
        prune()
        rounds += 1
    return rounds


def run_together(home: Path, jobs: list[tuple[Callable[[int], Any], int]]) -> list[Any]:
    """Run every (function, worker) in its own spawned process, released at once.

    The last jobs may be loops (ingest, prune) that run until the others are done.
    """
    context = multiprocessing.get_context("spawn")
    barrier, stop = context.Barrier(len(jobs)), context.Event()
    with ProcessPoolExecutor(len(jobs), context, _init, (str(home), barrier, stop)) as pool:
        futures = [pool.submit(function, worker) for function, worker in jobs]
        loops = [
            f
            for (function, _), f in zip(jobs, futures, strict=True)
            if function in (keep_ingesting, keep_pruning)
        ]
        finite = [f for f in futures if f not in loops]
        results = [f.result(timeout=300) for f in finite]
        stop.set()
        results += [f.result(timeout=300) for f in loops]
    return results


def stored(memory_type: str) -> list[dict[str, Any]]:
    from artibot_memory.store.table import spec_for  # noqa: PLC0415

    path = Path(os.environ["ARTIBOT_MEMORY_HOME"]) / spec_for(memory_type).filename
    entries: list[dict[str, Any]] = json.loads(path.read_bytes())["entries"]
    return entries


def every_json_file_parses(home: Path) -> bool:
    for path in home.rglob("*.json"):
        document = json.loads(path.read_bytes())
        is_cache = path.parent.name == "cache"  # derived (MEMORY.md's state): parses, no entries
        if not is_cache and not isinstance(document.get("entries"), list):
            return False
    return True


def test_sixteen_processes_saving_at_once_lose_nothing(memory_home: Path) -> None:
    batches = run_together(memory_home, [(save_batch, worker) for worker in range(WORKERS)])
    ids = {memory_id for batch in batches for memory_id in batch}
    assert len(ids) == WORKERS * SAVES_PER_WORKER
    per_type = {t: {e["id"] for e in stored(t)} for t in TYPES}
    expected = Counter(TYPES[index % len(TYPES)] for index in range(SAVES_PER_WORKER))
    assert {t: len(found) for t, found in per_type.items()} == {
        t: n * WORKERS for t, n in expected.items()
    }
    assert set().union(*per_type.values()) == ids
    assert every_json_file_parses(memory_home)
    assert not list(memory_home.glob("*.tmp")) + list(memory_home.glob("backups/*.tmp"))


def test_sixteen_processes_of_hooks_at_once_lose_no_record(memory_home: Path) -> None:
    counts = run_together(memory_home, [(feed_hooks, worker) for worker in range(WORKERS)])
    successes, failures = (sum(c[i] for c in counts) for i in (0, 1))
    report = ingest()
    assert report.records == successes + failures == WORKERS * PAYLOADS_PER_WORKER
    commands = stored("command")  # every run counts, failed or not
    assert sum(entry["count"] for entry in commands) == successes + failures
    assert sum(entry["failures"] for entry in commands) == failures
    errors = [e for e in stored("error") if "ValueError: check" in e["text"]]
    assert len(errors) == failures
    assert every_json_file_parses(memory_home)
    assert not list(memory_home.glob("journal*"))


def test_saves_racing_with_hooks_ingest_and_prune_lose_nothing(memory_home: Path) -> None:
    savers = [(save_batch, worker) for worker in range(8)]
    feeders = [(feed_hooks, worker) for worker in range(8, 14)]
    results = run_together(memory_home, [*savers, *feeders, (keep_ingesting, 0), (keep_pruning, 0)])
    ingest()
    saved = {memory_id for batch in results[: len(savers)] for memory_id in batch}
    successes = sum(c[0] for c in results[len(savers) : len(savers) + len(feeders)])
    failures = sum(c[1] for c in results[len(savers) : len(savers) + len(feeders)])
    on_disk = {entry["id"] for t in TYPES for entry in stored(t)}
    assert saved <= on_disk
    assert len(saved) == len(savers) * SAVES_PER_WORKER
    hook_commands = [e for e in stored("command") if e["text"].startswith("pnpm run task-")]
    assert sum(e["count"] for e in hook_commands) == successes
    assert len([e for e in stored("error") if "ValueError: check" in e["text"]]) == failures
    assert all(rounds >= 1 for rounds in results[-2:])
    assert every_json_file_parses(memory_home)


def test_sixteen_writers_keep_the_search_index_in_step(memory_home: Path) -> None:
    from artibot_memory.core import disk  # noqa: PLC0415
    from artibot_memory.store import index  # noqa: PLC0415
    from artibot_memory.store.files import fingerprint  # noqa: PLC0415
    from artibot_memory.store.table import STORES  # noqa: PLC0415

    memory_home.mkdir(parents=True, exist_ok=True)
    index.fresh(memory_home).close()  # the index exists: each write updates it in place
    run_together(memory_home, [(save_batch, worker) for worker in range(WORKERS)])
    connection = disk.connect_sqlite(index.index_path(memory_home), 5_000)
    try:
        stamps = dict(connection.execute("SELECT file, fingerprint FROM stores").fetchall())
        held = {row[0] for row in connection.execute("SELECT id FROM memories")}
    finally:
        connection.close()
    # Read before any catch-up: the writers themselves kept it exact.
    assert stamps == {
        spec.filename: index.stamp(fingerprint(memory_home / spec.filename)) for spec in STORES
    }
    assert held == {entry["id"] for t in TYPES for entry in stored(t)}
    assert len(held) == WORKERS * SAVES_PER_WORKER
