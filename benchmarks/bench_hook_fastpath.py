"""Wall time of the per-tool-call hook, as Claude Code runs it, against a bare interpreter.

Runs ``python3 [-S] bin/artibot-memory hook PostToolUse < payload`` (a Bash payload like
the captured ones) and ``python3 [-S] -c pass``, each as a fresh process, round-robin so
that machine load hits all four alike, and prints the median and p95 wall time, the
median CPU time (user + system) and the ratios to ``python3 -c pass``. The memory home
and the bytecode cache are temporary folders.

    python benchmarks/bench_hook_fastpath.py [--runs 30] [--python python3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRY = str(ROOT / "bin" / "artibot-memory")
WARM_UP_RUNS = 3
PAYLOAD = {
    "session_id": "bf94da03-d611-4290-9869-acf21951c67b",
    "transcript_path": "/home/dev/.claude/projects/-home-dev-proj/bf94da03.jsonl",
    "cwd": "/home/dev/proj",
    "hook_event_name": "PostToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "pytest -q tests/test_x.py", "description": "Run the tests"},
    "tool_response": {"stdout": "..\n2 passed in 0.01s", "stderr": "", "interrupted": False},
    "tool_use_id": "toolu_de1b0f0316954e65aa89c3b8",
    "duration_ms": 21,
}


def run_once(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float]:
    """Return (wall ms, CPU ms) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, input=stdin, capture_output=True, check=True, env=env)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def measure(cases: dict[str, tuple[list[str], bytes]], runs: int, env: dict[str, str]) -> dict:
    """Run every case ``runs`` times, round-robin, after warm-up runs."""
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for index in range(runs + WARM_UP_RUNS):
        for name, (argv, stdin) in cases.items():
            timing = run_once(argv, stdin, env)
            if index >= WARM_UP_RUNS:
                results[name].append(timing)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    payload = json.dumps(PAYLOAD).encode()
    hook = [ENTRY, "hook", "PostToolUse"]
    cases = {
        "python3 -c pass": ([args.python, "-c", "pass"], b""),
        "python3 -S -c pass": ([args.python, "-S", "-c", "pass"], b""),
        "python3 bin/artibot-memory hook PostToolUse": ([args.python, *hook], payload),
        "python3 -S bin/artibot-memory hook PostToolUse": ([args.python, "-S", *hook], payload),
    }
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as pycache:
        # Users have compiled bytecode; a PYTHONDONTWRITEBYTECODE=1 shell would time the
        # compiler instead. The cache goes to a temp folder, filled by the warm-up runs.
        env = {**os.environ, "ARTIBOT_MEMORY_HOME": home, "PYTHONPYCACHEPREFIX": pycache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        results = measure(cases, args.runs, env)
    base_wall = statistics.median(w for w, _ in results["python3 -c pass"])
    print(f"{args.runs} runs each, {sys.platform}, {args.python}")
    for name, timings in results.items():
        walls = [w for w, _ in timings]
        wall, p95 = statistics.median(walls), statistics.quantiles(walls, n=20)[-1]
        cpu = statistics.median(c for _, c in timings)
        print(
            f"{name:48} wall median {wall:6.1f} ms  p95 {p95:6.1f} ms  "
            f"cpu {cpu:5.1f} ms  {wall / base_wall:4.2f}x"
        )


if __name__ == "__main__":
    main()
