"""Run every benchmark, one after the other, and rewrite benchmarks/RESULTS.md from scratch.

Each benchmark runs as its own process (``python benchmarks/NAME.py``) and writes its own section;
this script only starts RESULTS.md afresh and runs them in order. Options are passed on:

    python benchmarks/run_all.py [--quick | --smoke] [--skip NAME ...]

``--quick``: fewer runs and smaller sizes, to check that everything works (hook_latency 5 runs,
scale 1k and 10k only, LoCoMo 2 conversations); the figures of a quick run are not the reference
ones. ``--smoke``: every benchmark, the crash-safety one and the side-by-side hook comparison
(against this very checkout) included, at the smallest sizes, writing no figures: what
``.ci/run`` runs so that no benchmark can rot unnoticed (a few minutes).

Without the shared material (../shared or $ARTIBOT_SHARED) the benchmarks that need it say so
in their section and the others still run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import common

FULL = {
    "hook_latency": [],
    "hook_latency_clean_venv": ["--clean-venv"],
    "context_budget": [],
    "scale": [],
    "quality": [],
    "preference_detection": [],
    "people_detection": [],
    "redaction": [],
    "agent_retrieval": [],
    "cli_latency": [],
    "prompt_recall": [],
    "context_quality": [],
    "prompt_recall_lived": [],
    "concurrent_saves": [],
    "evolve_latency": [],
    "agent_latency": [],
    "report_build": [],
    "code_staleness": ["--write"],
    "sync_latency": [],
}
# Each at its smallest, with --no-write where the benchmark writes RESULTS.md.
SMOKE = {
    "hook_latency": ["--runs", "2", "--warmup", "0", "--no-write"],
    "hook_compare": ["--against", str(common.ROOT), "--runs", "2", "--warmup", "0", "--no-write"],
    "prompt_latency": ["--against", str(common.ROOT), "--runs", "1", "--no-write"],
    "context_budget": ["--no-write"],
    "scale": ["--sizes", "1000", "--no-prototypes", "--no-write"],
    "quality": ["--conversations", "1", "--no-write"],
    "retrieval_quality": [],
    "crash_safety": ["--trials", "2", "--lines", "200", "--seed-entries", "10"],
    "preference_detection": ["--no-write"],
    "people_detection": ["--smoke"],
    "redaction": ["--seeds", "1,2", "--no-write"],
    "agent_retrieval": ["--smoke", "--no-write"],
    "cli_latency": ["--runs", "2", "--warmup", "0", "--no-write"],
    "prompt_recall": ["--smoke", "--no-write"],
    "context_quality": ["--smoke", "--no-write"],
    "prompt_recall_lived": ["--smoke", "--no-write"],
    "concurrent_saves": ["--smoke", "--no-write"],
    "evolve_latency": ["--runs", "1", "--no-write"],
    "agent_latency": ["--smoke"],
    "report_build": ["--smoke", "--no-write"],
    "code_staleness": ["--smoke"],
    "sync_latency": ["--smoke", "--no-write"],
}
QUICK = {
    "hook_latency": ["--runs", "5", "--warmup", "1"],
    "hook_latency_clean_venv": ["--clean-venv", "--runs", "5", "--warmup", "1"],
    "context_budget": [],
    "scale": ["--sizes", "1000,10000"],
    "quality": ["--conversations", "2"],
    "preference_detection": [],
    "people_detection": ["--hook-runs", "5"],
    "redaction": ["--seeds", "1,2,3"],
    "agent_retrieval": [],
    "cli_latency": ["--runs", "5", "--warmup", "1"],
    "prompt_recall": ["--runs", "5", "--warmup", "1"],
    "context_quality": [],
    "prompt_recall_lived": [],
    "concurrent_saves": ["--rounds", "1", "--saves", "5"],
    "evolve_latency": ["--runs", "2"],
    "agent_latency": ["--runs", "5", "--warmup", "1"],
    "report_build": ["--runs", "2"],
    "code_staleness": ["--files", "2000", "--memories", "300", "--runs", "2", "--write"],
    "sync_latency": ["--runs", "3", "--warmup", "0"],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="a fast check, not reference figures")
    size.add_argument(
        "--smoke", action="store_true", help="every benchmark at its smallest, no figures"
    )
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=sorted(SMOKE), help="benchmarks to leave out"
    )
    args = parser.parse_args(argv)
    plan = SMOKE if args.smoke else QUICK if args.quick else FULL
    if not args.smoke:
        common.reset_results()
    failed = []
    for name, extra in plan.items():
        if name in args.skip:
            continue
        script = common.BENCH_DIR / f"{name.removesuffix('_clean_venv')}.py"
        print(
            f"\n=== {name}: python {script.relative_to(common.ROOT).as_posix()} {' '.join(extra)}",
            flush=True,
        )
        started = time.perf_counter()
        done = subprocess.run([sys.executable, str(script), *extra], check=False)
        print(
            f"=== {name}: exit {done.returncode} after {time.perf_counter() - started:.0f} s",
            flush=True,
        )
        if done.returncode:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
