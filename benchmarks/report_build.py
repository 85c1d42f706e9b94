"""The HTML report at full caps: `artibot-memory report`, its size and its build time.

A memory home at the stores' full caps (benchmarks/corpus.py: 1,000 preferences, 2,000
contexts over 10 projects with their session summaries, 500 commands, 200 errors), its index
built, one `evolve` run (beliefs reflected, Top Beliefs, evolution.log) and one conflict
(two values of one key). Measured:

- in one process, ``--runs`` times: the report gathered (``api/report.build``), drawn
  (``cli/report_html.render``) and written through the redacting writer, as the verb does;
- as a process, ``--runs`` times: ``bin/artibot-memory report --json``, interpreter and
  imports included, what a person waits for.

Targets (issue 27): the file at most 2 MB, built in at most 2 s.

    python benchmarks/report_build.py [--runs 5] [--smoke] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import common
import corpus

SECTION = "report_build"
TITLE = "HTML report at full caps (benchmarks/report_build.py)"
ENTRY = common.ROOT / "bin" / "artibot-memory"
TARGET_BYTES, TARGET_SECONDS = 2_000_000, 2.0
FULL = {"preference": 1000, "context": 2000, "command": 500, "error": 200}
SMOKE = {"preference": 60, "context": 120, "command": 40, "error": 20}


def seed(home: Path, sizes: dict[str, int]) -> dict[str, int]:
    """Fill ``home`` to ``sizes``, build its index, evolve once, make one conflict."""
    from artibot_memory.api import evolve, memories  # noqa: PLC0415 - after the home is set
    from artibot_memory.core import clock  # noqa: PLC0415
    from artibot_memory.store import index  # noqa: PLC0415

    home.mkdir(mode=0o700, parents=True)
    built = corpus.build_full_memories(clock.now(), sizes=sizes)
    for memory_type, records in built.items():
        corpus.write_store(home, memory_type, records)
    index.rebuild(home)
    evolve.run(home)
    rule = {"why": "stated as a rule", "confidence": 0.8}
    memories.save("preference", "Always use pnpm", key="bench-manager", home=home, **rule)
    memories.save("preference", "Use npm", key="bench-manager", home=home, **rule)
    return {t: len(m) for t, m in built.items()}


def in_process(home: Path, runs: int) -> tuple[list[float], int]:
    """Time what the verb does, in this process: gather, draw, write (redacted, 0600)."""
    from artibot_memory.api import report  # noqa: PLC0415
    from artibot_memory.cli import report_html  # noqa: PLC0415
    from artibot_memory.core import disk  # noqa: PLC0415

    times, size = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        page = report_html.render(report.build(home))
        disk.write_text(home / "report.html", page)
        times.append(time.perf_counter() - started)
        size = (home / "report.html").stat().st_size
    return times, size


def as_process(home: Path, runs: int) -> tuple[list[float], dict[str, Any]]:
    """Time ``bin/artibot-memory report --json`` as a person runs it."""
    env = {**os.environ, "ARTIBOT_MEMORY_HOME": str(home), "ARTIBOT_MEMORY_VECTORS": "off"}
    times, data = [], {}
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(ENTRY), "report", "--json"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(time.perf_counter() - started)
        data = json.loads(done.stdout)
    return times, data


def report(counts: dict[str, int], found: dict[str, Any], runs: int) -> str:
    size, inner, outer = found["bytes"], found["in_process"], found["process"]
    size_ok = size <= TARGET_BYTES
    time_ok = common.median(inner) <= TARGET_SECONDS
    rows = [
        ["gather + draw + write, in one process", common.ms(common.median(inner)),
         common.ms(max(inner)), common.verdict(time_ok, "over 2 s")],
        ["`bin/artibot-memory report --json`, a process", common.ms(common.median(outer)),
         common.ms(max(outer)), common.verdict(common.median(outer) <= TARGET_SECONDS,
                                               "over 2 s")],
    ]  # fmt: skip
    stores = ", ".join(f"{n:,} {t}s" for t, n in counts.items())
    return "\n".join(
        [
            f"A home of {stores}, evolved once, with one open conflict; {runs} runs each.",
            "",
            common.table(["case", "median", "max", "target ≤ 2 s"], rows),
            "",
            f"- Size: {size:,} bytes ({size / 1e6:.2f} MB), "
            + common.verdict(size_ok, "over 2 MB")
            + f"; {len(found['sections'])} sections ({', '.join(found['sections'][:3])}, …).",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per case (default 5)")
    parser.add_argument("--smoke", action="store_true", help="a small home, one run each")
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    runs = 1 if args.smoke else max(1, args.runs)
    with tempfile.TemporaryDirectory(prefix="artibot-report-bench-") as tmp:
        home = Path(tmp) / "home"
        os.environ["ARTIBOT_MEMORY_HOME"] = str(home)
        os.environ["ARTIBOT_MEMORY_VECTORS"] = "off"
        print("seeding the stores ...", flush=True)
        counts = seed(home, SMOKE if args.smoke else FULL)
        inner, size = in_process(home, runs)
        outer, data = as_process(home, runs)
        found = {"bytes": size, "in_process": inner, "process": outer, **data}
        body = report(counts, found, runs)
    print(common.machine_line())
    print(body)
    if not args.no_write:
        common.write_section(SECTION, TITLE, body, command=common.command_line(argv))
    ok = size <= TARGET_BYTES and common.median(inner) <= TARGET_SECONDS
    return 0 if ok or args.smoke else 1


if __name__ == "__main__":
    sys.exit(main())
