"""Crash safety: SIGKILL ``artibot-memory import`` while it writes, then check the home.

Each trial copies a memory home seeded with ``--seed-entries`` memories per store, runs
``artibot-memory import big.jsonl`` (``--lines`` short records across the four types) as
a real process, and SIGKILLs it a random 0 to ``--max-delay-ms`` milliseconds (seeded
RNG) after it starts writing store k: the moment the k-th store lock file appears, k
cycling 1, 2, 3, 4 over the trials (the import locks, merges and replaces one store
after the other, in the order their records first appear in the file). Killing it while
it still parses would only prove that reading writes nothing. Then:

- every store loads (``Store.load()``) and every backup parses;
- every memory stored before the import is still there, by id;
- each store holds either what it held before or that plus every new record of its type
  (one store is one atomic write: never half an import);
- ``doctor`` finds every store usable, and a save into each store then succeeds (the lock
  of the killed process is not left held).

Leftover temp files (a kill inside ``disk.write_bytes``) are counted: the store loader
never reads them, so they are litter, not corruption.

    python benchmarks/crash_safety.py --trials 50 --seed 20261130
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from artibot_memory.api import doctor, health, memories  # noqa: E402
from artibot_memory.api.transfer import import_file  # noqa: E402
from artibot_memory.store.jsonfile import Store  # noqa: E402
from artibot_memory.store.table import STORES  # noqa: E402

BIN = ROOT / "bin" / "artibot-memory"
# Small stores first in the file: the import writes the stores in order of first appearance.
SHARES = {"error": 0.075, "command": 0.175, "preference": 0.35, "context": 0.40}
POLL_SECONDS = 0.0005
START_TIMEOUT = 300.0


def word(number: int) -> str:
    """Spell a number with letters: signatures replace digits, letters stay distinct."""
    return "".join("bcdfghjklm"[int(digit)] for digit in str(number))


def record_text(memory_type: str, label: str) -> str:
    return {
        "preference": f"Prefer the {label} style for widgets",
        "context": f"Project fact {label}: the service talks to the queue",
        "command": f"make target-{label}",
        "error": f"RuntimeError: step {label} exploded",
    }[memory_type]


def write_import_file(path: Path, lines: int) -> Counter[str]:
    """Write ``lines`` short records, the small stores' records first; return counts per type."""
    counts: Counter[str] = Counter()
    with path.open("w", encoding="utf-8") as out:
        for memory_type, share in SHARES.items():
            for _ in range(max(1, round(lines * share))):
                counts[memory_type] += 1
                text = record_text(memory_type, f"new {word(sum(counts.values()))}")
                out.write(json.dumps({"type": memory_type, "text": text}) + "\n")
    return counts


def seed_home(home: Path, per_store: int) -> None:
    """Store ``per_store`` memories in each store, then drop the lock files."""
    lines = [
        json.dumps(
            {"type": spec.type.value, "text": record_text(spec.type.value, f"seed {word(i)}")}
        )
        for spec in STORES
        for i in range(per_store)
    ]
    import_file(lines, "seed", home=home)
    for lock in home.glob("*.lock"):
        lock.unlink()


@dataclass
class Trial:
    """What one trial did and found."""

    number: int
    store: int
    delay_ms: float
    killed: bool = False
    replaced: int = 0
    temp_files: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def outcome(self) -> str:
        """Where the kill landed, seen from the files."""
        if not self.killed:
            return "finished before the kill"
        return f"killed with {self.replaced} of {len(STORES)} stores replaced"


def snapshot(home: Path) -> dict[str, tuple[int, set[str]]]:
    """Each store's inode and ids."""
    return {
        spec.filename: (
            (home / spec.filename).stat().st_ino,
            {m.id for m in Store(spec, home).load()},
        )
        for spec in STORES
    }


def wait_for_locks(home: Path, process: subprocess.Popen[bytes], count: int) -> None:
    """Return once ``count`` store lock files exist (the template has none) or the import ended."""
    deadline = time.monotonic() + START_TIMEOUT
    while process.poll() is None and time.monotonic() < deadline:
        if sum(name.endswith(".lock") for name in os.listdir(home)) >= count:
            return
        time.sleep(POLL_SECONDS)


def run_import(home: Path, big: Path, store: int, delay: float) -> bool:
    """Start the import; SIGKILL it ``delay`` s after it locks store number ``store``."""
    env = {**os.environ, "ARTIBOT_MEMORY_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, str(BIN), "import", str(big)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    wait_for_locks(home, process, store)
    time.sleep(delay)
    killed = process.poll() is None
    if killed:
        process.send_signal(signal.SIGKILL)
    _, err = process.communicate()
    if not killed and process.returncode != 0:
        msg = f"the import failed on its own (exit {process.returncode}): {err.decode()[-300:]}"
        raise RuntimeError(msg)
    return killed


def check_home(
    home: Path, before: dict[str, tuple[int, set[str]]], new: Counter[str]
) -> tuple[int, list[str]]:
    """Return how many stores the import replaced and every broken promise found."""
    failures: list[str] = []
    replaced = 0
    for spec in STORES:
        path = home / spec.filename
        inode, old_ids = before[spec.filename]
        try:
            ids = {m.id for m in Store(spec, home).load()}
        except Exception as exc:  # noqa: BLE001 - a failure to report, whatever it is
            failures.append(f"{spec.filename} does not load: {exc}")
            continue
        replaced += path.stat().st_ino != inode
        if not old_ids <= ids:
            failures.append(f"{spec.filename} lost {len(old_ids - ids)} memories stored before")
        if len(ids) not in (len(old_ids), len(old_ids) + new[spec.type.value]):
            failures.append(f"{spec.filename} holds part of the import ({len(ids) - len(old_ids)})")
    failures += [check.line() for check in doctor.diagnose(home) if not check.ok]
    failures += _backups_and_saves(home)
    return replaced, failures


def _backups_and_saves(home: Path) -> list[str]:
    failures = []
    for spec in STORES:
        backup = doctor.check_store_file(home / "backups" / spec.filename, home)
        if backup.state not in health.USABLE:
            failures.append(f"backups/{spec.filename} is {backup.state}")
        try:
            memories.save(
                spec.type.value, record_text(spec.type.value, "after the crash"), home=home
            )
        except Exception as exc:  # noqa: BLE001 - a failure to report, whatever it is
            failures.append(f"saving into {spec.filename} after the crash failed: {exc}")
    return failures


def temp_files(home: Path) -> int:
    return len(list(home.glob(".*.tmp")) + list(home.glob("backups/*.tmp")))


def run_trial(
    *, number: int, template: Path, big: Path, new: Counter[str], delay: float, workdir: Path
) -> Trial:
    """Copy the seeded home, kill an import into it, and check what is left."""
    home = workdir / f"trial-{number}"
    shutil.copytree(template, home)
    before = snapshot(home)
    trial = Trial(number, (number - 1) % len(STORES) + 1, round(delay * 1000, 1))
    trial.killed = run_import(home, big, trial.store, delay)
    trial.temp_files = temp_files(home)
    trial.replaced, trial.failures = check_home(home, before, new)
    shutil.rmtree(home)
    return trial


def run_trials(
    *, trials: int, seed: int, lines: int, per_store: int, max_delay_ms: float, workdir: Path
) -> list[Trial]:
    """Run the benchmark in ``workdir`` and return every trial."""
    rng = random.Random(seed)
    template = workdir / "template"
    seed_home(template, per_store)
    big = workdir / "big.jsonl"
    new = write_import_file(big, lines)
    results = []
    for number in range(1, trials + 1):
        delay = rng.uniform(0, max_delay_ms) / 1000
        trial = run_trial(
            number=number, template=template, big=big, new=new, delay=delay, workdir=workdir
        )
        results.append(trial)
    return results


def summary(results: list[Trial]) -> list[str]:
    """The table printed at the end (Markdown)."""
    outcomes = Counter(trial.outcome for trial in results)
    rows = [
        ("trials", len(results)),
        *sorted(outcomes.items()),
        ("killed inside a write (temp file left)", sum(1 for t in results if t.temp_files)),
        ("failures", sum(1 for t in results if t.failures)),
    ]
    return ["| what | trials |", "|---|---:|", *(f"| {name} | {count} |" for name, count in rows)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--lines", type=int, default=2000, help="records in the import file")
    parser.add_argument("--seed-entries", type=int, default=50, help="memories per store before")
    parser.add_argument("--max-delay-ms", type=float, default=300.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="crash-safety-") as folder:
        results = run_trials(
            trials=args.trials,
            seed=args.seed,
            lines=args.lines,
            per_store=args.seed_entries,
            max_delay_ms=args.max_delay_ms,
            workdir=Path(folder),
        )
    for trial in results:
        print(
            f"trial {trial.number:>3}  store {trial.store} +{trial.delay_ms:5.1f} ms  "
            f"{trial.outcome:<38} temp files {trial.temp_files}  "
            f"{'; '.join(trial.failures) or 'ok'}"
        )
    print("\n".join(summary(results)))
    return 1 if any(trial.failures for trial in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
