"""CLI read latency: whole `artibot-memory` processes at full caps, against `python3 -c pass`.

Every read verb is run as the skill and a person run it (``bin/artibot-memory VERB``, a fresh
process, ``site`` on), round-robin with the baseline ``python3 -c pass`` so that the load of
a shared machine hits all of them alike, on a memory home at the stores' full caps (500
commands, 200 errors, 300 preferences, 2,000 contexts over 10 projects: benchmarks/corpus.py).
The index is built once before the timed runs (the first read after a write catches up only
the store that changed). Target (issue 12): ``search`` and ``context`` at most 4x the baseline.

Every case runs keyword-only (``ARTIBOT_MEMORY_VECTORS=off``) except one search row, added
when the vectors extra is installed, which loads the model as such a search does.

Beside them, the import floor: ``python3 -c 'import argparse, dataclasses, json, re, sqlite3'``,
what any CLI of this shape imports before it does anything.

    python benchmarks/cli_latency.py [--runs 20] [--warmup 3] [--python PATH] [--no-write]
"""

# Report prose makes long lines; fine here.

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import common
import corpus
from hook_latency import Case, measure, real_python

SECTION = "cli_latency"
TITLE = "CLI read latency at full caps (benchmarks/cli_latency.py)"
TARGET = 4.0
ENTRY = common.ROOT / "bin" / "artibot-memory"
PROJECT = corpus.PROJECTS[0]
VECTORS_ENV = "ARTIBOT_MEMORY_VECTORS"


def printed_something(_home: Path, stdout: bytes) -> str:
    return "" if stdout.strip() else "printed nothing"


def seed(root: Path, python: str, env: dict[str, str]) -> tuple[Path, str]:
    """A home at full caps, its index built; return it and the id of one memory."""
    from artibot_memory.core import clock  # noqa: PLC0415 - the product loads only to seed

    home = root / "home"
    home.mkdir(mode=0o700)
    corpus.seed_full_home(home, clock.now())
    run_env = {**env, "ARTIBOT_MEMORY_HOME": str(home)}
    listed = subprocess.run(
        [python, str(ENTRY), "list", "--all-projects", "--json"],
        capture_output=True,
        env=run_env,
        check=True,
    )
    first = listed.stdout.split(b'"id": "', 1)[1].split(b'"', 1)[0].decode()
    return home, first


def vectors_installed() -> bool:
    from artibot_memory.recall import vectors  # noqa: PLC0415

    return vectors.installed()


def cases(python: str, home: Path, memory_id: str) -> list[Case]:
    def verb(name: str, *argv: str, check: bool = True) -> Case:
        return Case(
            name,
            [python, str(ENTRY), *argv],
            home=home,
            persistent=True,
            check=printed_something if check else None,
        )

    return [
        Case("python3 -c pass (baseline)", [python, "-c", "pass"]),
        Case(
            "python3 -c 'import argparse, dataclasses, json, re, sqlite3' (import floor)",
            [python, "-c", "import argparse, dataclasses, json, re, sqlite3"],
        ),
        verb("search 'deploy pipeline' (hits)", "search", "deploy pipeline", "--project", PROJECT),
        verb(
            "search 'kubernetes helm chart' (nothing relevant)",
            "search",
            "kubernetes helm chart",
            "--project",
            PROJECT,
            check=False,
        ),
        verb(
            "search --json --all-projects", "search", "migration failed", "--all-projects", "--json"
        ),
        *(
            [
                Case(
                    "search, the vectors extra on (the process loads the model)",
                    [python, str(ENTRY), "search", "deploy pipeline", "--project", PROJECT],
                    home=home,
                    persistent=True,
                    check=printed_something,
                    env={VECTORS_ENV: "on"},
                )
            ]
            if vectors_installed()
            else []
        ),
        verb("context (a project's SessionStart text)", "context", "--project", PROJECT),
        verb("list (one project and global)", "list", "--project", PROJECT),
        verb("show ID", "show", memory_id),
        verb("stats", "stats"),
    ]


def report(found: list[Case], python: str, runs: int) -> str:
    base = common.median(found[0].walls)
    rows = []
    for case in found:
        median = common.median(case.walls)
        ratio = median / base
        targeted = case.name.startswith(("search", "context")) and "vectors" not in case.name
        verdict = common.verdict(ratio <= TARGET) if targeted else "-"
        failed = f" ({case.failures} failed: {case.problems[0]})" if case.failures else ""
        rows.append(
            [
                case.name + failed,
                common.ms(median),
                common.ms(common.p95(case.walls)),
                f"{ratio:.2f}x",
                f"<= {TARGET:g}x: {verdict}" if targeted else "-",
            ]
        )
    table = common.table(["case", "median", "p95", "median / baseline", "target"], rows)
    return (
        f"{common.machine_line()}\n\nInterpreter: `{python}`; {runs} timed runs per case, "
        "round-robin. Home: 500 commands, 200 errors, 300 preferences, 2,000 contexts over 10 "
        "projects (benchmarks/corpus.py), its index built before the timed runs.\n\n" + table
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed runs per case (default 20)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs first (default 3)")
    parser.add_argument("--python", help="the interpreter standing for python3")
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="artibot-cli-bench-") as tmp:
        root = Path(tmp)
        python = real_python(args.python)
        env = {**os.environ, "PYTHONPYCACHEPREFIX": str(root / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("CLAUDECODE", None)  # a person's read: nothing is counted as accessed
        env.pop("ARTIBOT_MEMORY_HOME", None)
        env[VECTORS_ENV] = "off"  # keyword-only, as without the extra; one row turns them on
        print("seeding full stores ...", flush=True)
        home, memory_id = seed(root, python, env)
        found = cases(python, home, memory_id)
        measure(found, env, args.runs, args.warmup, root)
        body = report(found, python, args.runs)
    print(body)
    if not args.no_write:
        common.write_section(SECTION, TITLE, body, command=common.command_line(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
