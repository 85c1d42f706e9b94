"""The UserPromptSubmit hook as a user runs it: on a home in use, its index warm (issue 25).

``hook_compare.py`` copies the seeded home before every run, so every reading hook first
re-reads each store into its index (a copied file is a new inode): right for the hooks that
write, a worst case for the ones that read. A user's prompt finds an index that is up to
date. This runs the prompt hook of this checkout and of another one (``--against``) on one
seeded home at full caps, in place, interleaved with the floor ``python3 -S -c 'import
json'`` (what any hook that reads its JSON payload pays): a prompt that recalls nothing and
one about a stored error (recall runs and injects), each run in a new session, bytecode
compiled first. Targets (issue 25): at most 1.6x the floor when nothing is injected, 2.5x
when recall runs.

    python benchmarks/prompt_latency.py --against PATH [--runs 20] [--no-write]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import common
import hook_compare
import hook_latency as latency

TARGET_NOTHING, TARGET_RECALL = 1.6, 2.5
WARMUP = 2  # rounds that warm each home's index and the bytecode, not timed
SECTION = "prompt_latency"
TITLE = "The per-prompt hook on a home in use (benchmarks/prompt_latency.py)"


def timed(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=stdin, env=env, capture_output=True, check=False, cwd="/")
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, type=Path, help="the other checkout")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    roots = {"this": common.ROOT, "other": args.against.resolve()}
    python = latency.real_python(None)
    with tempfile.TemporaryDirectory(prefix="prompt-latency-") as scratch_name:
        scratch = Path(scratch_name)
        seeded, *_ = latency.seed_homes(scratch)
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONDONTWRITEBYTECODE", "ARTIBOT_MEMORY_HOME")
        }
        env["ARTIBOT_MEMORY_VECTORS"] = "off"
        homes = {}
        for label, root in roots.items():
            hook_compare.compile_package(root, python)
            homes[label] = scratch / f"home-{label}"
            shutil.copytree(seeded, homes[label])  # each its own home, its index kept warm
        asked = [
            p for name, _e, p in hook_compare.later_cases(seeded) if "UserPromptSubmit" in name
        ]
        cases: dict[str, tuple[list[str], dict[str, Any] | None, Path | None]] = {
            hook_compare.FLOOR: ([python, "-S", "-c", "import json"], None, None)
        }
        for label, root in roots.items():
            for kind, prompt in zip(("nothing injected", "recall injects"), asked, strict=True):
                command = hook_compare.argv_of(root, "UserPromptSubmit", python)
                cases[f"UserPromptSubmit, {kind} [{label}]"] = (command, prompt, homes[label])
        walls: dict[str, list[float]] = {name: [] for name in cases}
        for round_no in range(args.runs + WARMUP):
            for name, (command, payload, home) in cases.items():
                stdin = b""
                if payload is not None:
                    stdin = json.dumps({**payload, "session_id": f"s{round_no}"}).encode()
                run_env = {**env, "ARTIBOT_MEMORY_HOME": str(home)} if home else env
                wall = timed(command, stdin, run_env)
                if round_no >= WARMUP:
                    walls[name].append(wall)
    floor = common.median(walls[hook_compare.FLOOR])
    rows = []
    for kind, target in (("nothing injected", TARGET_NOTHING), ("recall injects", TARGET_RECALL)):
        this = common.median(walls[f"UserPromptSubmit, {kind} [this]"])
        other = common.median(walls[f"UserPromptSubmit, {kind} [other]"])
        rows.append(
            [
                kind,
                common.ms(this),
                common.ms(other),
                f"{this / other:.3f}",
                f"{this / floor:.2f}x",
                f"{other / floor:.2f}x",
                f"<= {target}x: {common.verdict(this / floor <= target)}",
            ]
        )
    commit = subprocess.run(
        ["git", "-C", str(roots["other"]), "log", "-1", "--format=%h"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    body = "\n".join(
        [
            f"Other checkout: `{commit}`. {args.runs} timed runs per case, interleaved; the floor `{hook_compare.FLOOR}`: {common.ms(floor)}. Each checkout on its own copy of the seeded home (full caps), used in place, so its index is up to date as a user's is.",
            "",
            common.table(
                [
                    "prompt",
                    "this checkout",
                    "other checkout",
                    "this / other",
                    "this / floor",
                    "other / floor",
                    "target",
                ],
                rows,
            ),
        ]
    )
    print(body)
    if not args.no_write:
        common.write_section(SECTION, TITLE, body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
