"""Sync at full caps: `artibot-memory sync` as a process, with nothing new and with 100 new a side.

Two memory homes, A and B, and a bare repository on disk as their remote. A is filled to the
stores' full caps (benchmarks/corpus.py: 500 commands, 200 errors, 300 preferences, 2,000
contexts over 10 projects; its index built, MEMORY.md rendered) and syncs first (``sync
--remote``); B starts empty and its first sync takes all of it, then each syncs once more:
two machines whose memory is one, at full caps. Each timed run starts from a fresh copy of
those three (copied outside the timed region) and times, as whole processes
(``bin/artibot-memory sync --json``), interpreter and imports included:

- **nothing new**: A syncs, then B: fetch, nothing to merge, nothing to push;
- **100 new memories on each side** (40 contexts, 30 preferences, 20 commands, 10 errors,
  imported into each home before, untimed): A syncs (pushes its 100), B syncs (merges A's
  100 and pushes its own: the three-way merge and a push), then A syncs (pulls B's 100).

Every run is checked (exit 0; nothing sent or received when nothing is new; after the three
syncs both homes hold the same memories, both sides' 200 new ones among them) and a failed
run makes the benchmark exit 1. Each timed sync is preceded by a run of the baseline
``python3 -c pass``, interleaved, so that the load of a shared machine hits both alike.
Then one run of each kind in this process under cProfile: where the time goes (the git runs
by subcommand, and the top functions by cumulative time).

No target was set (issue 28): sync runs when a person asks, or in the session-end worker,
never in a hook's own time.

    python benchmarks/sync_latency.py [--runs 7] [--warmup 1] [--smoke] [--no-write]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import common
import corpus
from hook_latency import copy_home, real_python, render_memory_md

SECTION = "sync_latency"
TITLE = "Sync at full caps (benchmarks/sync_latency.py)"
ENTRY = common.ROOT / "bin" / "artibot-memory"
NEW_MIX = {"context": 40, "preference": 30, "command": 20, "error": 10}
SMOKE_SIZES = {"preference": 60, "context": 120, "command": 40, "error": 20}
CASES = (
    ("nothing", "a", "A, nothing new"),
    ("nothing", "b", "B, nothing new"),
    ("new", "a", "A pushes its 100 new"),
    ("new", "b", "B merges A's 100, pushes its 100"),
    ("new", "a2", "A pulls B's 100"),
)
PROFILE_TOP = 6
OWN_TOP = 4
FULL_CONTEXTS = 2000


def word(number: int) -> str:
    """Spell a number with letters (a text's signature would fold digits together)."""
    return "".join("bcdfghjklm"[int(digit)] for digit in str(number))


def new_records(side: str, run: int) -> list[str]:
    """The import lines of one side's 100 new memories, distinct from every other run's."""
    rng = random.Random(f"{side}-{run}")
    lines = []
    for memory_type, count in NEW_MIX.items():
        for number in range(count):
            tag = f"{side}{word(run)}x{word(number)}"
            module, dep = rng.choice(corpus.MODULES), rng.choice(corpus.DEPS)
            project = rng.choice(corpus.PROJECTS)
            record: dict[str, Any] = {
                "context": {
                    "text": f"Decided on machine {tag}: the {module} service retries {dep} calls",
                    "project": project,
                },
                "preference": {
                    "text": f"Prefer small {module} modules named {tag}",
                    "key": f"sync-bench/{tag}",
                },
                "command": {"text": f"make sync-{tag} MODULE={module}", "project": project},
                "error": {
                    "text": f"`pytest tests/{module}/test_{tag}.py` failed: AssertionError",
                    "resolution": f"pin {dep} in the {module} lock file",
                    "project": project,
                },
            }[memory_type]
            lines.append(json.dumps({"type": memory_type, **record}))
    return lines


@contextmanager
def home_set(home: Path) -> Iterator[None]:
    before = os.environ.get("ARTIBOT_MEMORY_HOME")
    os.environ["ARTIBOT_MEMORY_HOME"] = str(home)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("ARTIBOT_MEMORY_HOME", None)
        else:
            os.environ["ARTIBOT_MEMORY_HOME"] = before


def ids_of(home: Path) -> set[str]:
    from artibot_memory.store.jsonfile import Store  # noqa: PLC0415
    from artibot_memory.store.table import STORES  # noqa: PLC0415

    return {m.id for spec in STORES for m in Store(spec, home).load()}


def add_new(home: Path, side: str, run: int) -> set[str]:
    """Import one side's 100 new memories (untimed); return their ids."""
    from artibot_memory.api.transfer import import_file  # noqa: PLC0415

    before = ids_of(home)
    with home_set(home):
        import_file(new_records(side, run), f"sync-bench-{side}", home=home)
    return ids_of(home) - before


def sync(python: str, home: Path, env: dict[str, str], *flags: str) -> dict[str, Any]:
    """Run ``bin/artibot-memory sync --json FLAGS`` on ``home``; its report, or a problem."""
    done = subprocess.run(
        [python, str(ENTRY), "sync", "--json", *flags],
        capture_output=True,
        env={**env, "ARTIBOT_MEMORY_HOME": str(home)},
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        return {"problem": f"exit {done.returncode}: {done.stderr.decode()[-300:].strip()}"}
    return dict(json.loads(done.stdout))


def seed(root: Path, python: str, env: dict[str, str], *, smoke: bool) -> dict[str, int]:
    """Build A at full caps, B from its first sync, the remote; keep them as the template."""
    from artibot_memory.core import clock  # noqa: PLC0415 - the product loads only to seed
    from artibot_memory.store import index  # noqa: PLC0415

    live = root / "live"
    a, b, remote = live / "a", live / "b", live / "remote.git"
    a.mkdir(mode=0o700, parents=True)
    b.mkdir(mode=0o700)
    built = corpus.build_full_memories(clock.now(), sizes=SMOKE_SIZES if smoke else None)
    for memory_type, records in built.items():
        corpus.write_store(a, memory_type, records)
    with home_set(a):
        index.rebuild(a)
        render_memory_md(a)
    subprocess.run(["git", "init", "--quiet", "--bare", str(remote)], check=True)
    for home, flags in ((a, ("--remote", str(remote))), (b, ("--remote", str(remote))), (a, ())):
        report = sync(python, home, env, *flags)
        if "problem" in report:
            raise RuntimeError(f"seeding sync failed: {report['problem']}")
    reset(root, template=True)
    return {t: len(m) for t, m in built.items()}


def reset(root: Path, *, template: bool = False) -> None:
    """Copy live -> template (``template``), or a fresh live from the template."""
    source, target = (
        (root / "live", root / "template")
        if template
        else (
            root / "template",
            root / "live",
        )
    )
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    for name in ("a", "b"):
        copy_home(source / name, target / name)  # stores hard-linked: the index stays valid
    shutil.copytree(source / "remote.git", target / "remote.git")


def baseline(python: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([python, "-c", "pass"], env=env, check=True)
    return time.perf_counter() - started


def timed_sync(
    python: str, home: Path, env: dict[str, str], found: dict[str, Any], name: str, *, keep: bool
) -> dict[str, Any]:
    """The baseline, then one sync, both timed and kept under ``name`` (when ``keep``)."""
    base = baseline(python, env)
    started = time.perf_counter()
    report = sync(python, home, env)
    elapsed = time.perf_counter() - started
    if keep and "problem" not in report:
        found["base"].append(base)
        found["times"][name].append(elapsed)
    return report


def one_run(
    root: Path, python: str, env: dict[str, str], found: dict[str, Any], run: int, *, keep: bool
) -> list[str]:
    """One fresh copy, the five timed syncs; return the problems found."""
    reset(root)
    live = root / "live"
    homes = {"a": live / "a", "b": live / "b", "a2": live / "a"}
    problems: list[str] = []
    new: set[str] = set()
    for kind, who, name in CASES:
        if kind == "new" and who == "a":
            new = add_new(homes["a"], "a", run) | add_new(homes["b"], "b", run)
        report = timed_sync(python, homes[who], env, found, name, keep=keep)
        if "problem" in report:
            problems.append(f"{name}: {report['problem']}")
        elif kind == "nothing" and (report["sent"] or report["received"]):
            problems.append(f"{name}: sent {report['sent']}, received {report['received']}")
        elif kind == "new" and not report["sent" if who != "a2" else "received"]:
            problems.append(f"{name}: nothing went")
    a_ids, b_ids = ids_of(homes["a"]), ids_of(homes["b"])
    if a_ids != b_ids:
        problems.append(f"A and B differ by {len(a_ids ^ b_ids)} memories after the syncs")
    if len(new) != 2 * sum(NEW_MIX.values()) or not new <= a_ids:
        problems.append(f"{len(new & a_ids)} of the new memories are in both homes")
    found["counts"] = {"a": len(a_ids), "new": len(new)}
    return problems


def measure(root: Path, python: str, env: dict[str, str], runs: int, warmup: int) -> dict[str, Any]:
    found: dict[str, Any] = {"base": [], "times": defaultdict(list), "problems": []}
    for run in range(warmup + runs):
        problems = one_run(root, python, env, found, run, keep=run >= warmup)
        found["problems"] += [f"run {run + 1}: {p}" for p in problems]
        print(f"\r  run {run + 1}/{warmup + runs}", end="", flush=True)
    print()
    return found


# --- where the time goes ---------------------------------------------------------------------


def profiled(home: Path) -> dict[str, Any]:
    """Sync ``home`` in this process under cProfile: wall, git time by subcommand, top functions.

    Also the time of the secret check of every travelling file (``api.sync.secret_line``).
    """
    from artibot_memory.api import sync as syncing  # noqa: PLC0415
    from artibot_memory.core import git  # noqa: PLC0415

    by_command: dict[str, list[float]] = defaultdict(list)
    real_run = git.run

    def timed_run(git_dir: Any, *args: str, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return real_run(git_dir, *args, **kwargs)
        finally:
            by_command[args[0]].append(time.perf_counter() - started)

    git.run = timed_run
    profile = cProfile.Profile()
    try:
        with home_set(home):
            started = time.perf_counter()
            profile.runcall(syncing.sync, home)
            wall = time.perf_counter() - started
    finally:
        git.run = real_run
    stats = pstats.Stats(profile)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats.stats  # type: ignore[attr-defined]
    rows: list[list[str]] = []
    last = (0, 0.0)
    secret = sum(
        cumtime
        for (filename, _line, function), (_cc, _n, _tt, cumtime, _c) in raw.items()
        if function == "secret_line" and filename.endswith("sync.py")
    )
    ranked = sorted(raw.items(), key=lambda item: item[1][3], reverse=True)
    for (filename, _line, function), (_cc, calls, tottime, cumtime, _callers) in ranked:
        if "artibot_memory" not in filename or function == "sync":
            continue
        if calls == last[0] and cumtime >= 0.97 * last[1]:
            continue  # one call chain (a wrapper of the row above): said once
        last = (calls, cumtime)
        rows.append([f"`{name_of(filename, function)}`", f"{calls:,}", common.ms(cumtime),
                     common.ms(tottime)])  # fmt: skip
        if len(rows) == PROFILE_TOP:
            break
    own = sorted(raw.items(), key=lambda item: item[1][2], reverse=True)[:OWN_TOP]
    rows.append(["own time, any function:", "", "", ""])
    for (filename, _line, function), (_cc, calls, tottime, cumtime, _c) in own:
        rows.append([f"`{name_of(filename, function)}`", f"{calls:,}", common.ms(cumtime),
                     common.ms(tottime)])  # fmt: skip
    return {"wall": wall, "git": by_command, "rows": rows, "secret": secret}


def name_of(filename: str, function: str) -> str:
    """``api.sync._rounds`` for the package's functions, ``re.py:sub`` or ``~:<built-in>`` else."""
    if "artibot_memory" in filename:
        module = filename.split("artibot_memory", 1)[1].strip("/").removesuffix(".py")
        return f"{module.replace('/', '.')}.{function}"
    return f"{Path(filename).name}:{function}" if filename != "~" else function


def where_time_goes(root: Path, python: str, env: dict[str, str], run: int) -> dict[str, Any]:
    """Profile A's nothing-new sync and B's merge-and-push sync, each on a fresh copy."""
    reset(root)
    live = root / "live"
    out = {"nothing": profiled(live / "a")}
    add_new(live / "a", "a", run)
    add_new(live / "b", "b", run)
    sync(python, live / "a", env)
    out["merge"] = profiled(live / "b")
    return out


def profile_section(label: str, profile: dict[str, Any]) -> str:
    wall, by_command, rows, secret = (profile[k] for k in ("wall", "git", "rows", "secret"))
    git_total = sum(sum(times) for times in by_command.values())
    ranked = sorted(by_command.items(), key=lambda item: sum(item[1]), reverse=True)
    gits = ", ".join(
        f"{name} {common.ms(sum(times))}" + (f" ({len(times)}x)" if len(times) > 1 else "")
        for name, times in ranked[:6]
    )
    return "\n".join(
        [
            (
                f"{label}: {common.ms(wall)} in this process (imports done), of which "
                f"{common.ms(git_total)} ({git_total / wall:.0%}) waiting for "
                f"{sum(len(t) for t in by_command.values())} git runs: {gits}. "
                f"The secret check of every travelling file (`api.sync.secret_line`): "
                f"{common.ms(secret)} ({secret / wall:.0%})."
            ),
            "",
            common.table(
                ["function (cumulative, by cProfile)", "calls", "cumulative", "own"], rows
            ),
        ]
    )


def report(
    found: dict[str, Any], profiles: dict[str, Any], counts: dict[str, int], runs: int
) -> str:
    base = common.median(found["base"])
    rows = [["`python3 -c pass` (baseline, before each sync)", common.ms(base),
             common.ms(common.p95(found["base"])), "1.00x"]]  # fmt: skip
    for _kind, _who, name in CASES:
        times = found["times"][name]
        if not times:
            rows.append([name, "-", "-", "-"])
            continue
        median = common.median(times)
        rows.append([f"`sync`: {name}", common.ms(median), common.ms(common.p95(times)),
                     f"{median / base:.1f}x"])  # fmt: skip
    stores = ", ".join(f"{n:,} {t}s" for t, n in counts.items())
    caps = ": the stores' caps" if counts.get("context", 0) >= FULL_CONTEXTS else ", small: --smoke"
    problems = found["problems"]
    return "\n".join(
        [
            common.machine_line(),
            "",
            (
                f"Two homes of {stores} (benchmarks/corpus.py{caps}), one memory through a bare "
                f"repository on disk; {runs} timed run{'s' if runs > 1 else ''}, each on a fresh "
                "copy of the three, "
                "each sync a whole process (`bin/artibot-memory sync --json`) after a run of the "
                f"baseline. The new memories: {', '.join(f'{n} {t}s' for t, n in NEW_MIX.items())} "
                f"on each side; after the run both homes hold the same {found['counts']['a']:,} "
                "memories."
            ),
            "",
            common.table(["case", "median", "p95", "median / baseline"], rows),
            "",
            "- Checks: "
            + common.verdict(not problems, f"{len(problems)} failed: {'; '.join(problems[:3])}"),
            "",
            (
                "Where the time goes: one run of each in this process, under cProfile (its "
                "own overhead makes them slower than the processes above):"
            ),
            "",
            profile_section("A, nothing new", profiles["nothing"]),
            "",
            profile_section("B merges A's 100 and pushes its 100", profiles["merge"]),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs (default 7)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first (default 1)")
    parser.add_argument("--python", help="the interpreter to run the CLI with")
    parser.add_argument("--smoke", action="store_true", help="small homes, one run, no warm-up")
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    if shutil.which("git") is None:
        return common.skip_section(SECTION, TITLE, "skipped: sync drives the git binary")
    runs, warmup = (1, 0) if args.smoke else (max(1, args.runs), max(0, args.warmup))
    with tempfile.TemporaryDirectory(prefix="artibot-sync-bench-") as tmp:
        root = Path(tmp)
        python = real_python(args.python)
        env = {
            **os.environ,
            "PYTHONPYCACHEPREFIX": str(root / "pycache"),
            "ARTIBOT_MEMORY_VECTORS": "off",
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("CLAUDECODE", None)
        os.environ["ARTIBOT_MEMORY_VECTORS"] = "off"
        print("seeding two homes at full caps and their remote ...", flush=True)
        counts = seed(root, python, env, smoke=args.smoke)
        found = measure(root, python, env, runs, warmup)
        profiles = where_time_goes(root, python, env, warmup + runs)
        body = report(found, profiles, counts, runs)
    print(body)
    if not args.no_write and not args.smoke:
        common.write_section(SECTION, TITLE, body, command=common.command_line(argv))
    return 1 if found["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
