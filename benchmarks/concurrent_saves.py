"""Concurrent writers: 16 processes saving at once into a home at full caps, nothing lost.

Two ways of writing, each on a fresh copy of the same home (the stores at their caps:
benchmarks/corpus.py; the index built before the timed runs, so every save updates it
incrementally):

- (a) CLI: each round starts 16 ``bin/artibot-memory save context TEXT`` processes at
  once and waits for all of them (the baseline of the issue: "16 concurrent ``save``
  processes manage about 5 saves a second in all"); a process start and its imports are
  part of every save;
- (b) API: 16 processes, each importing the package once and then calling
  ``memories.save`` K times in a loop, released together (each writes a ready file, the
  parent then creates the go file).

Aggregate saves per second = saves / wall time, from the release to the last exit. Then it
checks that nothing was lost: every saved text is in the context store (the JSON, parsed
here without the package), and the index is in step without catching up (every store's
recorded fingerprint is the file's on disk, the index holds exactly the stores' ids, and
every saved text is in its rows). Texts are spelled in letters (the signatures that merge
repeats replace numbers), so no two saves merge.

With ``--against PATH`` the same runs are made with another checkout of the package,
interleaved mode by mode, so the two are compared under the same load (a shared machine).
Target (issue 12): 16 concurrent writers at least 10x today's aggregate saves per second.

    python benchmarks/concurrent_saves.py [--writers 16] [--rounds 4] [--saves 25]
        [--against PATH] [--smoke] [--no-write]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import common
import corpus

SECTION = "concurrent_saves"
TITLE = "Concurrent writers at full caps (benchmarks/concurrent_saves.py)"
TARGET = 10.0
BASELINE_SAVES_PER_SECOND = 5.0  # the figure for 16 `save` processes, today
STORE = "project-contexts.json"
PROJECT = corpus.PROJECTS[0]
READY_TIMEOUT = 300.0
CAPS_ENV = "ARTIBOT_MEMORY_CAPS"


def word(number: int) -> str:
    """Spell a number with letters (signatures keep letters): ``word(907) == 'mbk'``."""
    return "".join("bcdfghjklm"[int(digit)] for digit in str(number))


def text_for(mode: str, writer: int, number: int) -> str:
    return (
        f"Writer {word(writer)} {mode} note {word(number)}: the refund queue drains into the ledger"
    )


# --- the home ------------------------------------------------------------------------------


def seed(root: Path) -> Path:
    """A home at full caps, written once; each run copies it."""
    from artibot_memory.core import clock  # noqa: PLC0415 - the product loads only to seed

    home = root / "seed"
    home.mkdir(mode=0o700)
    corpus.seed_full_home(home, clock.now())
    return home


def fresh_copy(seeded: Path, where: Path, package: Path) -> Path:
    """Copy the seeded home and build its index with ``package``'s own code."""
    shutil.copytree(seeded, where)
    subprocess.run(
        [
            sys.executable,
            str(package / "bin" / "artibot-memory"),
            "list",
            "--all-projects",
            "--json",
        ],
        env=_env(where),
        capture_output=True,
        check=True,
    )
    return where


def _env(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["ARTIBOT_MEMORY_HOME"] = str(home)
    env.setdefault(CAPS_ENV, "")
    return env


# --- (a) CLI processes ---------------------------------------------------------------------


def run_cli(package: Path, home: Path, writers: int, rounds: int) -> dict[str, Any]:
    entry = str(package / "bin" / "artibot-memory")
    texts, seconds, failed = [], 0.0, 0
    for number in range(rounds):
        batch = [text_for("cli", writer, number) for writer in range(writers)]
        started = time.perf_counter()
        processes = [
            subprocess.Popen(
                [sys.executable, entry, "save", "context", text, "--project", PROJECT],
                env=_env(home),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            for text in batch
        ]
        for process in processes:
            _, error = process.communicate()
            if process.returncode:
                failed += 1
                sys.stderr.write(error.decode(errors="replace")[-500:])
        seconds += time.perf_counter() - started
        texts += batch
    return {"saves": len(texts), "seconds": seconds, "failed": failed, "texts": texts}


# --- (b) API loops -------------------------------------------------------------------------


def worker(package: str, home: str, writer: int, saves: int, signals: str) -> int:
    """One writer process: import, say ready, wait for go, save ``saves`` memories."""
    sys.path.insert(0, package)
    os.environ["ARTIBOT_MEMORY_HOME"] = home
    from artibot_memory.api import memories  # noqa: PLC0415 - the checkout under test
    from artibot_memory.core.errors import StoreBusyError  # noqa: PLC0415

    folder = Path(signals)
    (folder / f"ready-{writer}").touch()
    deadline = time.monotonic() + READY_TIMEOUT
    while not (folder / "go").exists():
        if time.monotonic() > deadline:
            return 1
        time.sleep(0.005)
    busy = 0
    for number in range(saves):
        while True:  # the lock stayed busy past its timeout: the error says try again
            try:
                memories.save("context", text_for("api", writer, number), project=PROJECT)
                break
            except StoreBusyError:
                busy += 1
    (folder / f"busy-{writer}").write_text(str(busy), encoding="ascii")
    return 0


def run_api(package: Path, home: Path, writers: int, saves: int, signals: Path) -> dict[str, Any]:
    signals.mkdir()
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                str(package),
                str(home),
                str(writer),
                str(saves),
                str(signals),
            ],
            env=_env(home),
            stderr=subprocess.PIPE,
        )
        for writer in range(writers)
    ]
    deadline = time.monotonic() + READY_TIMEOUT
    while len(list(signals.glob("ready-*"))) < writers and time.monotonic() < deadline:
        time.sleep(0.01)
    started = time.perf_counter()
    (signals / "go").touch()
    failed = 0
    for process in processes:
        _, error = process.communicate()
        if process.returncode:
            failed += 1
            sys.stderr.write(error.decode(errors="replace")[-500:])
    seconds = time.perf_counter() - started
    texts = [
        text_for("api", writer, number) for writer in range(writers) for number in range(saves)
    ]
    busy = sum(int(path.read_text(encoding="ascii")) for path in signals.glob("busy-*"))
    return {"saves": len(texts), "seconds": seconds, "failed": failed, "texts": texts, "busy": busy}


# --- nothing lost --------------------------------------------------------------------------


def lost(home: Path, texts: list[str]) -> dict[str, Any]:
    """What the stores and the index miss of ``texts``, read without the package's readers."""
    from artibot_memory.store.files import fingerprint  # noqa: PLC0415 - how the index stamps

    store_ids: set[str] = set()
    stored_texts: set[str] = set()
    stamps_on_disk = {}
    for path in sorted(home.glob("*.json")):
        entries = json.loads(path.read_bytes())["entries"]
        store_ids |= {entry["id"] for entry in entries}
        if path.name == STORE:
            stored_texts = {entry["text"] for entry in entries}
        found = fingerprint(path)
        stamps_on_disk[path.name] = "missing" if found is None else "%d:%d:%d" % found  # noqa: UP031
    connection = sqlite3.connect(f"file:{home / 'index.sqlite'}?mode=ro", uri=True)
    try:
        recorded = dict(connection.execute("SELECT file, fingerprint FROM stores"))
        index_ids = {row[0] for row in connection.execute("SELECT id FROM memories")}
        index_texts = {
            json.loads(doc)["text"] for (doc,) in connection.execute("SELECT doc FROM docs")
        }
    finally:
        connection.close()
    behind = sorted(name for name, stamp in stamps_on_disk.items() if recorded.get(name) != stamp)
    return {
        "missing_in_store": sum(text not in stored_texts for text in texts),
        "missing_in_index": sum(text not in index_texts for text in texts),
        "index_behind": behind,
        "index_ids_differ": index_ids != store_ids,
    }


# --- the run -------------------------------------------------------------------------------


def measure(
    packages: dict[str, Path], seeded: Path, root: Path, *, writers: int, rounds: int, saves: int
) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    for mode in ("cli", "api"):  # every package in one mode before the next: load drifts alike
        for label, package in packages.items():
            print(f"{mode} with {label} ...", flush=True)
            home = fresh_copy(seeded, root / f"{mode}-{label}", package)
            if mode == "cli":
                run = run_cli(package, home, writers, rounds)
            else:
                run = run_api(package, home, writers, saves, root / f"signals-{label}")
            run["lost"] = lost(home, run.pop("texts"))
            results.setdefault(label, {})[mode] = run
    return results


def report(results: dict[str, dict[str, Any]], writers: int, rounds: int, saves: int) -> str:
    rows = []
    for label, modes in results.items():
        for mode, run in modes.items():
            rate = run["saves"] / run["seconds"] if run["seconds"] else 0.0
            gone = run["lost"]
            nothing_lost = not (
                gone["missing_in_store"]
                or gone["missing_in_index"]
                or gone["index_behind"]
                or gone["index_ids_differ"]
                or run["failed"]
            )
            rows.append(
                [
                    label,
                    "(a) 16 `save` CLI processes a round"
                    if mode == "cli"
                    else "(b) 16 processes, `memories.save` in a loop",
                    f"{run['saves']:,}",
                    f"{run['seconds']:.1f} s",
                    f"{rate:.1f}",
                    f"{rate / BASELINE_SAVES_PER_SECOND:.1f}x",
                    str(run.get("busy", "-")),
                    "yes" if nothing_lost else f"**NO** {gone}, {run['failed']} failed",
                ]
            )
    ours = results["this checkout"]
    best = max(run["saves"] / run["seconds"] for run in ours.values() if run["seconds"])
    intro = (
        f"{writers} writers at once on a home at full caps (500 commands, 200 errors, 300 preferences, "
        f"2,000 contexts; the context cap raised by the saves to come with ARTIBOT_MEMORY_CAPS, so that "
        "the cap's eviction is not counted as a loss: a checkout without the setting evicts the new "
        f"memories, used least, and its lost column counts those), each saving distinct contexts: (a) {rounds} rounds of {writers} "
        f"`bin/artibot-memory save` processes, (b) {writers} processes calling `memories.save` "
        f"{saves} times each (a save whose lock stays busy past its 10 s timeout raises "
        "`StoreBusyError`, which says try again: the writer does, and the retries are counted). Wall time from the release to the last exit; a fresh copy of the "
        "home for each run, its index built first. Nothing lost: every text in the store, every "
        "store's fingerprint recorded by the index (in step with no catch-up), the index's ids "
        "the stores' ids, every text in its rows. Absolute times on a shared, loaded machine "
        f"(1-minute load average {os.getloadavg()[0]:.2f} at the end)."
    )
    parts = [
        intro,
        "",
        common.table(
            [
                "package",
                "writers",
                "saves",
                "wall time",
                "saves/s",
                "vs 5/s (the issue's baseline)",
                "lock timeouts, retried",
                "nothing lost",
            ],
            rows,
        ),
        "",
        f"- target at least {TARGET:.0f}x the issue's {BASELINE_SAVES_PER_SECOND:.0f} saves/s: best "
        f"{best:.1f} saves/s ({best / BASELINE_SAVES_PER_SECOND:.1f}x) — "
        + common.verdict(
            best >= TARGET * BASELINE_SAVES_PER_SECOND,
            "every save holds the store's lock while it reads, validates and rewrites the "
            "whole store file, so the writers take turns",
        ),
    ]
    if "against" in results:
        for mode in ("cli", "api"):
            ours_rate = ours[mode]["saves"] / ours[mode]["seconds"]
            theirs = results["against"][mode]
            parts.append(
                f"- ({'a' if mode == 'cli' else 'b'}) this checkout against the other, same run: "
                f"{ours_rate / (theirs['saves'] / theirs['seconds']):.2f}x"
            )
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=4, help="(a) rounds of CLI processes")
    parser.add_argument("--saves", type=int, default=25, help="(b) saves per API process")
    parser.add_argument("--against", type=Path, help="another checkout, measured alike")
    parser.add_argument("--smoke", action="store_true", help="4 writers, 1 round, 3 saves")
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        package, home, writer, saves, signals = args.worker
        return worker(package, home, int(writer), int(saves), signals)
    writers, rounds, saves = (4, 1, 3) if args.smoke else (args.writers, args.rounds, args.saves)
    # The home starts at full caps; the context cap is raised by the saves to come, so that
    # the cap's eviction (by design: the least valuable go first, and a new memory is used
    # least) is not counted as a loss. A checkout without the setting keeps 2,000 and
    # evicts: its "lost" column then counts evictions.
    os.environ[CAPS_ENV] = f"context={2_000 + writers * (rounds + saves)}"
    packages = {"this checkout": common.ROOT}
    if args.against:
        packages["against"] = args.against.resolve()
    with tempfile.TemporaryDirectory(prefix="artibot-writers-") as tmp:
        os.environ["ARTIBOT_MEMORY_HOME"] = tmp  # never a real home, whatever resolves it
        seeded = seed(Path(tmp))
        results = measure(packages, seeded, Path(tmp), writers=writers, rounds=rounds, saves=saves)
    body = report(results, writers, rounds, saves)
    print(body)
    failed = any(
        run["failed"]
        or any(
            run["lost"][k]
            for k in ("missing_in_store", "missing_in_index", "index_behind", "index_ids_differ")
        )
        for modes in results.values()
        for run in modes.values()
    )
    if not (args.no_write or args.smoke):
        common.write_section(SECTION, TITLE, body)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
