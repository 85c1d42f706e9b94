"""What every benchmark here shares: the shared data, the machine, timing statistics, RESULTS.md.

Not a benchmark itself. The benchmarks import it as a sibling module (they are run as
``python benchmarks/NAME.py``, so this folder is first on ``sys.path``).

- ``shared_dir``: the ``shared/`` material (datasets, transcripts) is NOT part of the product and
  not in a fresh clone. Default ``<repo>/../shared``, overridden by ``$ARTIBOT_SHARED``. A benchmark
  that needs it and does not find it prints how to get it, writes "skipped" in its section and
  exits 0.
- ``write_section``: each benchmark owns one section of ``benchmarks/RESULTS.md`` (between
  ``<!-- section:NAME -->`` markers) and rewrites only that one, with the date, the machine and
  the exact command line.
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import contextlib
import datetime as dt
import math
import os
import platform
import re
import shlex
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = ROOT / "benchmarks"
RESULTS = BENCH_DIR / "RESULTS.md"
SHARED_ENV = "ARTIBOT_SHARED"
# Kept by hand, never rewritten by a benchmark: today's figures, one row per promise (the
# README's Results show the same table, tests/test_readme.py compares them), and the
# figures of earlier stops that the README used to list.
CURRENT, HISTORY = "current", "history"
SECTION_ORDER = (
    CURRENT,
    "hook_latency",
    "hook_latency_clean_venv",
    "hook_compare",
    "context_budget",
    "scale",
    "quality",
    "preference_detection",
    "redaction",
    "agent_retrieval",
    "cli_latency",
    "prompt_recall",
    "concurrent_saves",
)
RESULTS_HEADER = """# Benchmark results

Written by the benchmarks in this folder (how to run them: [README.md](README.md)). It opens with
today's figures, one row per promise (the README's Results are the same table); then each
benchmark's own section, dated, rewritten by the benchmark it names (`python
benchmarks/run_all.py` rewrites them all); the figures of earlier stops close the file.
Timings are taken on a shared machine, so every process timing is shown beside a baseline
(`python3 -c pass`) measured in the same run, interleaved run by run, and judged as a ratio.
A missed target is marked **MISSED** next to its figure, with the reason.
"""

GET_SHARED = (
    "The shared benchmark material (bench/devbench.json, bench/locomo10_evidence_corrected.json, "
    "transcripts/) was not found at {where}. It is not part of the product: put the project's "
    "shared/ folder beside the repository (../shared) or point ARTIBOT_SHARED at it. Sources: "
    "devbench from doobidoo/mcp-memory-service (scripts/benchmarks/devbench_dataset.json), LoCoMo "
    "from snap-research/LoCoMo (data/locomo10.json, evidence corrections from dial481/locomo-audit), "
    "transcripts from marot/spotter (test/fixtures/transcripts)."
)


# --- shared material -------------------------------------------------------------------------


def shared_dir() -> Path:
    """Where the shared material is expected: ``$ARTIBOT_SHARED``, else ``<repo>/../shared``."""
    override = os.environ.get(SHARED_ENV, "")
    return Path(override).expanduser() if override else ROOT.parent / "shared"


def shared_file(relative: str) -> Path | None:
    """The shared file, or None when it is not there."""
    path = shared_dir() / relative
    return path if path.is_file() else None


def missing_shared_message(relative: str) -> str:
    where = f"{SHARED_ENV}={os.environ[SHARED_ENV]}" if os.environ.get(SHARED_ENV) else "../shared"
    return f"skipped: {relative} not found. " + GET_SHARED.format(where=where)


# --- the machine -----------------------------------------------------------------------------


def memory_bytes() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def machine_line() -> str:
    """``2 cores, 23.5 GiB, Linux x86_64, CPython 3.11.7, load 1.93`` (load: 1-minute average)."""
    memory = memory_bytes()
    parts = [f"{os.cpu_count()} cores"]
    parts.append(f"{memory / 2**30:.1f} GiB RAM" if memory else "RAM unknown")
    parts.append(f"{platform.system()} {platform.machine()}")
    parts.append(f"{platform.python_implementation()} {platform.python_version()}")
    with contextlib.suppress(OSError):
        parts.append(f"load average {os.getloadavg()[0]:.2f} at start (shared machine)")
    return ", ".join(parts)


def today() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def command_line(argv: list[str] | None = None) -> str:
    """The command that was run, relative to the repository (no path of this machine)."""
    argv = sys.argv if argv is None else argv
    script = Path(argv[0]).resolve()
    try:
        shown = script.relative_to(ROOT).as_posix()
    except ValueError:
        shown = script.name
    return shlex.join(["python", shown, *argv[1:]])


# --- statistics ------------------------------------------------------------------------------


def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    """Nearest-rank 95th percentile (of 20 values: the 19th smallest)."""
    ordered = sorted(values)
    return ordered[max(math.ceil(0.95 * len(ordered)) - 1, 0)]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def verdict(ok: bool, reason: str = "") -> str:  # noqa: FBT001 - reads as verdict(x <= target, why)
    """``ok`` or ``**MISSED**`` with the reason."""
    if ok:
        return "ok"
    return "**MISSED**" + (f" ({reason})" if reason else "")


def table(columns: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# --- RESULTS.md ------------------------------------------------------------------------------


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- section:{name} -->", f"<!-- /section:{name} -->"


def write_section(name: str, title: str, body: str, *, command: str | None = None) -> None:
    """Replace (or add) section ``name`` of RESULTS.md; other sections are kept as they are."""
    begin, end = _markers(name)
    block = "\n".join(
        [
            begin,
            f"## {title}",
            "",
            f"- date: {today()}",
            f"- machine: {machine_line()}",
            f"- command: `{command or command_line()}`",
            "",
            body.strip(),
            end,
        ]
    )
    sections = read_sections()
    sections[name] = block
    _write_results(sections)
    print(f"\nwrote section '{name}' of {RESULTS.relative_to(ROOT).as_posix()}")


def _write_results(sections: dict[str, str]) -> None:
    rest = sorted(set(sections) - set(SECTION_ORDER) - {HISTORY})
    names = [n for n in SECTION_ORDER if n in sections] + rest
    names += [HISTORY] if HISTORY in sections else []
    text = RESULTS_HEADER + "\n" + "\n\n".join(sections[n] for n in names) + "\n"
    tmp = RESULTS.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, RESULTS)


def read_sections() -> dict[str, str]:
    try:
        text = RESULTS.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    found = {}
    for match in re.finditer(r"<!-- section:([\w-]+) -->.*?<!-- /section:\1 -->", text, re.DOTALL):
        found[match.group(1)] = match.group(0)
    return found


def reset_results() -> None:
    """Start RESULTS.md afresh (run_all does this before running every benchmark).

    The two sections kept by hand stay: today's table and the history.
    """
    kept = {n: block for n, block in read_sections().items() if n in (CURRENT, HISTORY)}
    _write_results(kept)


def skip_section(name: str, title: str, message: str) -> int:
    """Print why a benchmark cannot run, record it in its section, and return exit status 0."""
    print(message)
    write_section(name, title, message)
    return 0
