"""Evolve at full caps: `artibot-memory evolve` as a process, first run, again, and per session end.

A memory home at the stores' full caps (benchmarks/corpus.py: 1,000 preferences, 2,000
contexts over 10 projects with their session summaries, 500 commands, 200 errors), its index
and MEMORY.md as the sessions before left them. Each timed run gets a fresh copy of that home
(hook_latency's ``copy_home``), so every run does the same work:

- ``evolve`` (first): nothing reflected yet, every belief is reflected and written once, the
  entities due are consolidated, Top Beliefs written: what the first weekly evolve costs;
- ``evolve`` (again, at once): on the home the first run left; a second run must change
  nothing (checked: no belief changed, no entity consolidated, no log line added);
- ``evolve --promote-only``: what every session end's worker now adds;
- ``evolve --dry-run``: the first run's work, writing nothing (checked: every byte unchanged).

None of this is in a hook's own time (the weekly evolve runs in a session start's detached
worker, the promote in the SessionEnd worker), so there is no target beside Claude Code's
hook timeouts; the figures say what the workers pay.

    python benchmarks/evolve_latency.py [--runs 5] [--no-write]
"""

# Report prose makes long lines; fine here.

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import common
import corpus
from hook_latency import copy_home, real_python, render_memory_md

SECTION = "evolve_latency"
TITLE = "Evolve at full caps (benchmarks/evolve_latency.py)"
ENTRY = common.ROOT / "bin" / "artibot-memory"


def seed(root: Path) -> Path:
    """A home at full caps with its index and MEMORY.md."""
    from artibot_memory.core import clock  # noqa: PLC0415 - the product loads only to seed
    from artibot_memory.store import index  # noqa: PLC0415

    home = root / "seed"
    home.mkdir(mode=0o700)
    corpus.seed_full_home(home, clock.now())
    index.rebuild(home)
    render_memory_md(home)
    return home


def snapshot(home: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()
    }


def evolve(python: str, home: Path, env: dict[str, str], *flags: str) -> tuple[float, Any]:
    """Run ``artibot-memory evolve --json FLAGS`` on ``home``; return its time and report."""
    started = time.perf_counter()
    done = subprocess.run(
        [python, str(ENTRY), "evolve", "--json", *flags],
        capture_output=True,
        env={**env, "ARTIBOT_MEMORY_HOME": str(home)},
        check=True,
        timeout=600,
    )
    elapsed = time.perf_counter() - started
    return elapsed, json.loads(done.stdout)


def log_lines(home: Path) -> int:
    try:
        return len((home / "evolution.log").read_text().splitlines())
    except OSError:
        return 0


def changes(report: dict[str, Any]) -> int:
    """Everything a report says it changed: beliefs, entities, promotions, demotions."""
    reflect = report.get("reflect") or {}
    promote = report.get("promote") or {}
    entities = (report.get("consolidate") or {}).get("entities") or []
    return (
        len(reflect.get("changed") or [])
        + len(entities)
        + len(promote.get("promoted") or [])
        + len(promote.get("demoted") or [])
    )


def measure(
    python: str, seed_home: Path, root: Path, env: dict[str, str], runs: int
) -> dict[str, Any]:
    """Time each case ``runs`` times, each on a fresh copy; keep the last reports and checks."""
    times: dict[str, list[float]] = {"first": [], "again": [], "promote": [], "dry": []}
    found: dict[str, object] = {}
    for run in range(runs):
        home = root / f"run-{run}"
        copy_home(seed_home, home)
        before = snapshot(home)
        elapsed, dry = evolve(python, home, env, "--dry-run")
        times["dry"].append(elapsed)
        found["dry_unchanged"] = snapshot(home) == before
        elapsed, first = evolve(python, home, env)
        times["first"].append(elapsed)
        lines = log_lines(home)
        elapsed, again = evolve(python, home, env)
        times["again"].append(elapsed)
        found["again_changes"] = changes(again)
        found["again_log_lines"] = log_lines(home) - lines
        elapsed, _promote = evolve(python, home, env, "--promote-only")
        times["promote"].append(elapsed)
        found.update(first=first, dry=dry, log_lines=lines)
        shutil.rmtree(home)
    found["times"] = times
    return found


def report(found: dict[str, Any], runs: int) -> str:
    times = found["times"]
    first = found["first"]
    reflect, promote = first["reflect"], first["promote"]
    entities = first["consolidate"]["entities"]
    cases = (
        ("`evolve`, first run", "first"),
        ("`evolve`, again at once", "again"),
        ("`evolve --promote-only` (each session end)", "promote"),
        ("`evolve --dry-run`", "dry"),
    )
    rows = [
        [name, common.ms(common.median(times[key])), common.ms(common.p95(times[key]))]
        for name, key in cases
    ]
    idempotent = found["again_changes"] == 0 and found["again_log_lines"] == 0
    freshness = ", ".join(f"{n} {name}" for name, n in reflect["freshness"].items() if n)
    again = f"{found['again_changes']} changes, {found['again_log_lines']} log lines"
    dry = "every byte unchanged" if found["dry_unchanged"] else "a file changed"
    summary = (
        f"The first run reflected {reflect['evaluated']} beliefs "
        f"({len(reflect['changed'])} written), consolidated {len(entities)} entities, put "
        f"{len(promote['top'])} in Top Beliefs ({promote['mode']} mode) and wrote "
        f"{found['log_lines']} lines of evolution.log. Freshness after it: {freshness}."
    )
    return "\n".join(
        [
            common.machine_line(),
            "",
            (
                f"Each case {runs} times, each on a fresh copy of a home at full caps, as a "
                "process (`bin/artibot-memory evolve --json`)."
            ),
            "",
            common.table(["case", "median", "p95"], rows),
            "",
            summary,
            "",
            "- Again at once: " + common.verdict(idempotent, again),
            "- Dry run: " + common.verdict(bool(found["dry_unchanged"]), dry),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per case (default 5)")
    parser.add_argument("--python", help="the interpreter to run the CLI with")
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="artibot-evolve-bench-") as tmp:
        root = Path(tmp)
        python = real_python(args.python)
        env = {
            **os.environ,
            "PYTHONPYCACHEPREFIX": str(root / "pycache"),
            "ARTIBOT_MEMORY_VECTORS": "off",
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("CLAUDECODE", None)
        print("seeding full stores ...", flush=True)
        seed_home = seed(root)
        found = measure(python, seed_home, root, env, max(1, args.runs))
        body = report(found, max(1, args.runs))
    print(body)
    if not args.no_write:
        common.write_section(SECTION, TITLE, body, command=common.command_line(argv))
    ok = found["again_changes"] == 0 and found["dry_unchanged"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
