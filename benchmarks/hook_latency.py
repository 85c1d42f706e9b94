"""Hook latency: wall time of whole hook processes, as Claude Code starts them, against `python3 -c pass`.

Every hook is run exactly as ``hooks/hooks.json`` says (command and args read from the file,
``${CLAUDE_PLUGIN_ROOT}`` replaced by this checkout), as a fresh process with the payload on
stdin, round-robin with the baseline ``python3 -c pass`` so that the load of a shared machine
hits all of them alike. Each hook run gets a fresh copy of a seeded memory home (copied before
the run, outside the timed region), so every run starts from the same state.

(a) PostToolUse (Bash, Edit) and PostToolUseFailure (an unknown error; a known error whose fix
    is injected): target median <= 1.5x ``python3 -c pass``.
(b) SessionStart on full stores (500 commands, 200 errors with fixes, 300 preferences, 2,000
    contexts over 10 projects), with and without a journal of 40 tool calls to ingest:
    target <= 4x ``python3 -c pass``.
(c) SessionEnd on the 3.1 MB transcript of ../shared/transcripts (skipped without it): the hook
    process, and in-process the summarise work (read_transcript, render_summary, save), against
    Claude Code's 1.5 s SessionEnd budget: target <= 1/3 of it (500 ms).

Then, in this process, where SessionStart and SessionEnd spend their time (imports, each step).

    python benchmarks/hook_latency.py [--runs 20] [--warmup 3] [--python PATH | --clean-venv] [--no-write]

Which interpreter stands for hooks.json's ``python3``:

- default: the one running this script, resolved to its real binary (a pyenv/asdf shim would add
  its own start-up, tens of milliseconds, to both sides of the ratio);
- ``--python PATH``: that one;
- ``--clean-venv``: a temporary virtual environment with only the plugin's requirements.txt
  installed (pip, from your configured index or cache), i.e. what the plugin's own bootstrap
  builds. Use it when the system interpreter's ``site`` does extra work (``.pth`` files that
  import packages): that work inflates the baseline and flatters every ratio. The benchmark
  prints what ``site`` costs on the interpreter it uses.

With ``--clean-venv`` the results go to their own section (``hook_latency_clean_venv``).
"""

# Report prose and data tables make long lines and multi-line strings in lists; fine here.
# ruff: noqa: E501, ISC004, PLR2004

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import common
import corpus

P = ParamSpec("P")
R = TypeVar("R")
# What a case checks after a run: (home, stdout) -> the problem, or "" when the hook did its work.
Check = Callable[[Path, bytes], str]

HOOKS_JSON = common.ROOT / "hooks" / "hooks.json"
STORE_FILES = (
    "user-preferences.json",
    "project-contexts.json",
    "command-history.json",
    "error-patterns.json",
)
TRANSCRIPT = "transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"
SESSION_END_BUDGET = 1.5  # seconds: Claude Code cancels SessionEnd hooks after this
WORKER_TIMEOUT = 120.0  # seconds to wait for the detached worker SessionEnd starts
TARGET_FAST, TARGET_START, TARGET_END_SHARE = 1.5, 4.0, 1 / 3
SESSION_ID = "bf94da03-d611-4290-9869-acf21951c67b"
PROJECT = corpus.PROJECTS[0]

PYTEST_OUTPUT = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0\n"
    "rootdir: /home/dev/src/shop\nconfigfile: pyproject.toml\nplugins: freezegun-1.5.1\n"
    "collected 47 items\n\n"
    "tests/orders/test_refund.py ..............................................  [ 97%]\n"
    "tests/orders/test_refund.py .                                            [100%]\n\n"
    "============================== 47 passed in 1.84s ==============================\n"
)
EDIT_OLD = "    return amount * rate\n"
EDIT_NEW = "    return (amount * rate).quantize(Decimal('0.01'), rounding=ROUND_HALF_EVEN)\n"
UNKNOWN_ERROR = (
    "Exit code 1\n"
    "Traceback (most recent call last):\n"
    '  File "/home/dev/src/shop/src/orders/refund.py", line 88, in apply_refund\n'
    "    ledger.post(entry)\n"
    '  File "/home/dev/src/shop/src/orders/ledger.py", line 41, in post\n'
    '    raise LedgerClosedError(f"period {entry.period} is closed")\n'
    "orders.ledger.LedgerClosedError: period 2026-10 is closed"
)


def base_payload(event: str) -> dict[str, Any]:
    """The envelope of the captured payloads (tests/fixtures/hooks/*.jsonl)."""
    return {
        "session_id": SESSION_ID,
        "transcript_path": f"/home/dev/.claude/projects/-home-dev-src-shop/{SESSION_ID}.jsonl",
        "cwd": PROJECT,
        "prompt_id": "68c4314e-1552-4f67-a9e9-85023129526c",
        "permission_mode": "default",
        "effort": {"level": "medium"},
        "hook_event_name": event,
    }


def bash_success() -> dict[str, Any]:
    return {
        **base_payload("PostToolUse"),
        "tool_name": "Bash",
        "tool_input": {
            "command": "pytest tests/orders/test_refund.py -q",
            "description": "Run the refund tests",
        },
        "tool_response": {
            "stdout": PYTEST_OUTPUT,
            "stderr": "",
            "interrupted": False,
            "isImage": False,
            "noOutputExpected": False,
        },
        "tool_use_id": "toolu_de1b0f0316954e65aa89c3b8",
        "duration_ms": 2140,
    }


def edit_success() -> dict[str, Any]:
    path = f"{PROJECT}/src/orders/refund.py"
    return {
        **base_payload("PostToolUse"),
        "tool_name": "Edit",
        "tool_input": {
            "file_path": path,
            "old_string": EDIT_OLD,
            "new_string": EDIT_NEW,
            "replace_all": False,
        },
        "tool_response": {
            "filePath": path,
            "oldString": EDIT_OLD,
            "newString": EDIT_NEW,
            "originalFile": "from decimal import Decimal\n" * 40,
            "replaceAll": False,
            "structuredPatch": [
                {
                    "oldStart": 87,
                    "oldLines": 1,
                    "newStart": 87,
                    "newLines": 1,
                    "lines": ["-" + EDIT_OLD.rstrip(), "+" + EDIT_NEW.rstrip()],
                }
            ],
            "userModified": False,
        },
        "tool_use_id": "toolu_0a4c3a2d5e6f47b8a9c0d1e2",
        "duration_ms": 12,
    }


def bash_failure(command: str, error: str, cwd: str = PROJECT) -> dict[str, Any]:
    return {
        **base_payload("PostToolUseFailure"),
        "cwd": cwd,
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it"},
        "tool_use_id": "toolu_dab432805efa40808db12f96",
        "error": error,
        "is_interrupt": False,
        "duration_ms": 830,
    }


def session_start() -> dict[str, Any]:
    payload = base_payload("SessionStart")
    for name in ("prompt_id", "permission_mode", "effort"):
        payload.pop(name)
    return {**payload, "source": "startup"}


def session_end(transcript: Path) -> dict[str, Any]:
    return {
        "session_id": "4d5611e5-241a-462a-8d15-5122611a9569",
        "transcript_path": str(transcript),
        "cwd": "/home/dev/src/spotter",
        "hook_event_name": "SessionEnd",
        "reason": "other",
    }


# --- running ---------------------------------------------------------------------------------


def hook_argv(event: str, python: str) -> list[str]:
    """The command of ``event`` in hooks/hooks.json, ready to run in this checkout."""
    config = json.loads(HOOKS_JSON.read_text(encoding="utf-8"))
    hook = config["hooks"][event][0]["hooks"][0]
    args = [a.replace("${CLAUDE_PLUGIN_ROOT}", str(common.ROOT)) for a in hook.get("args", [])]
    command = hook["command"]
    if command not in ("python3", "python"):
        msg = f"hooks.json runs {command!r} for {event}; this benchmark expects python3"
        raise SystemExit(msg)
    return [python, *args]


def shown_argv(event: str) -> str:
    config = json.loads(HOOKS_JSON.read_text(encoding="utf-8"))
    hook = config["hooks"][event][0]["hooks"][0]
    return " ".join([hook["command"], *hook.get("args", [])]).replace("${CLAUDE_PLUGIN_ROOT}/", "")


@dataclass
class Case:
    name: str
    argv: list[str]
    stdin: bytes = b""
    home: Path | None = None  # seeded home copied fresh before every run
    check: Check | None = None  # (home, stdout) -> problem or ""
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    outputs: list[bytes] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)  # extra variables for this case
    persistent: bool = False  # use ``home`` itself (after ``prepare``) instead of a fresh copy
    prepare: Callable[[Path], None] | None = None  # before each run, outside the timed region
    detached_timeout: float = 0.0  # > 0: wait for the detached worker the hook starts
    worker_walls: list[float] = field(default_factory=list)  # hook start -> worker exit
    failures: int = 0  # timed runs that did not do their work (left out of the timings)


def run_case(case: Case, env: dict[str, str], scratch: Path, *, keep: bool) -> None:
    """One run of one case; a run that failed is counted, and left out of the timings."""
    home = None
    run_env = {**env, **case.env}
    if case.home is not None:
        if case.persistent:
            home = case.home
        else:
            home = scratch / "home"
            shutil.rmtree(home, ignore_errors=True)
            copy_home(case.home, home)
        if case.prepare is not None:
            case.prepare(home)
        run_env["ARTIBOT_MEMORY_HOME"] = str(home)
    logged = log_size(home)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        case.argv, input=case.stdin, capture_output=True, env=run_env, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    worker = wait_for_detached(case.detached_timeout) if case.detached_timeout else None
    finished = time.perf_counter()
    problem = run_problem(case, home, done, worker, logged)
    if problem:
        if len(case.problems) < 3 and problem not in case.problems:
            case.problems.append(problem)
        case.failures += keep
        return
    if keep:
        case.walls.append(wall)
        case.cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if worker is not None:
            case.worker_walls.append(finished - start)
        if len(case.outputs) < 1:
            case.outputs.append(done.stdout)


def copy_home(seed: Path, home: Path) -> None:
    """Copy a seeded home for one run, its store files hard-linked, everything else copied.

    A home in use keeps its search index in step with its store files, which the index knows
    by inode, size and mtime: a plain copy gives every store a new inode, and each run would
    pay a rebuild of the index no real session pays. A store is only ever replaced by a
    rename, never written in place, so a run cannot change the seed through the link; the
    journal, the index and the caches, which are written in place, are copied.
    """
    stores = set(STORE_FILES)

    def link_or_copy(source: str, target: str) -> object:
        if os.path.basename(source) in stores and os.path.dirname(source) == str(seed):
            os.link(source, target)
            return target
        return shutil.copy2(source, target)

    shutil.copytree(seed, home, copy_function=link_or_copy)


def log_size(home: Path | None) -> int:
    try:
        return (home / "logs" / "hooks.log").stat().st_size if home is not None else 0
    except OSError:
        return 0


def run_problem(
    case: Case,
    home: Path | None,
    done: subprocess.CompletedProcess[bytes],
    worker: float | None,
    logged: int,
) -> str:
    """Why a run does not count ("" when it did its work): exit, stderr, log, missing effect."""
    if done.returncode != 0 or done.stderr:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        return f"exit {done.returncode}: {lines[-1] if lines else ''}"[:200]
    if worker is not None and worker < 0:
        return "the detached worker did not finish in time"
    if home is None:
        return ""
    if log_size(home) > logged:
        with (home / "logs" / "hooks.log").open("rb") as handle:
            handle.seek(logged)
            new = handle.read().decode(errors="replace")
        line = next((t.strip() for t in new.splitlines() if t.strip()), "")
        return f"the hook logged a failure: {line}"[:200]
    return case.check(home, done.stdout) if case.check is not None else ""


# --- detached workers (SessionEnd starts one and returns) ------------------------------------

SUBREAPER = False


def become_subreaper() -> bool:
    """Linux: adopt orphaned descendants, so a hook's detached worker can be waited for."""
    global SUBREAPER  # noqa: PLW0603
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # noqa: PLC0415

        libc = ctypes.CDLL(None, use_errno=True)
        SUBREAPER = libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        SUBREAPER = False
    return SUBREAPER


def wait_for_detached(timeout: float) -> float:
    """Wait until every adopted descendant has exited; return the seconds waited (-1: timed out).

    Without the subreaper (not Linux) there is nothing to wait on: sleep ``timeout`` instead.
    """
    started = time.perf_counter()
    if not SUBREAPER:
        time.sleep(timeout)
        return timeout
    while time.perf_counter() - started < timeout:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return time.perf_counter() - started
        if pid == 0:
            time.sleep(0.005)
    return -1.0


def measure(cases: list[Case], env: dict[str, str], runs: int, warmup: int, scratch: Path) -> None:
    """Round-robin over the cases, the starting case rotating each round."""
    for round_no in range(warmup + runs):
        shift = round_no % len(cases)
        for case in cases[shift:] + cases[:shift]:
            run_case(case, env, scratch, keep=round_no >= warmup)
        print(f"\r  round {round_no + 1}/{warmup + runs}", end="", flush=True)
    print()


# --- checks: the hook really did its work ----------------------------------------------------


def journal_grew(lines_before: int) -> Check:
    def check(home: Path, _stdout: bytes) -> str:
        journal = home / "journal.jsonl"
        count = len(journal.read_bytes().splitlines()) if journal.exists() else 0
        return (
            ""
            if count == lines_before + 1
            else f"journal has {count} lines, expected {lines_before + 1}"
        )

    return check


def prints_context(event: str, want: str = "") -> Check:
    def check(_home: Path, stdout: bytes) -> str:
        try:
            output = json.loads(stdout)
            text = output["hookSpecificOutput"]["additionalContext"]
        except (ValueError, KeyError, TypeError):
            return f"{event} printed no additionalContext: {stdout[:120]!r}"
        return f"additionalContext lacks {want!r}" if want and want not in text else ""

    return check


def summary_stored(session_id: str) -> Check:
    def check(home: Path, _stdout: bytes) -> str:
        data = (home / "project-contexts.json").read_bytes()
        return "" if f"session:{session_id}".encode() in data else "no session summary was stored"

    return check


def context_chars(stdout: bytes) -> int:
    try:
        return len(json.loads(stdout)["hookSpecificOutput"]["additionalContext"])
    except (ValueError, KeyError, TypeError):
        return 0


# --- seeding ---------------------------------------------------------------------------------


def seed_cached_home(full: Path, root: Path, argv: list[str], env: dict[str, str]) -> Path:
    """A full home where a SessionStart already rendered this project's context cache.

    The start cache is exact only while the store files keep their inode, size and mtime, so
    this home is used in place (not copied); before each run its journal is emptied (a served
    cache journals one access record, which would send the next start to the full path).
    """
    home = root / "seed-cached"
    copy_home(full, home)
    subprocess.run(
        argv,
        input=json.dumps(session_start()).encode(),
        capture_output=True,
        check=True,
        env={**env, "ARTIBOT_MEMORY_HOME": str(home)},
    )
    wait_for_workers_of(home)  # its worker counts what was shown, then renders the cache again
    empty_journal(home)
    return home


def wait_for_workers_of(home: Path, timeout: float = WORKER_TIMEOUT) -> None:
    """Linux: wait until no process whose environment names ``home`` runs (a detached worker)."""
    if not os.path.isdir("/proc"):
        time.sleep(5.0)
        return
    marker = f"ARTIBOT_MEMORY_HOME={home}\0".encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = False
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                running = marker in Path("/proc", pid, "environ").read_bytes()
            except OSError:
                continue
            if running:
                break
        if not running:
            return
        time.sleep(0.05)


def empty_journal(home: Path) -> None:
    (home / "journal.jsonl").unlink(missing_ok=True)


def cache_snapshot(home: Path) -> dict[str, int]:
    return (
        {p.name: p.stat().st_mtime_ns for p in (home / "cache").glob("*")}
        if (home / "cache").is_dir()
        else {}
    )


def served_from_cache() -> tuple[Callable[[Path], None], Check]:
    """prepare + check of the cached case: the cache files must not be rewritten by the run."""
    seen: dict[str, dict[str, int]] = {}

    def prepare(home: Path) -> None:
        empty_journal(home)
        seen["before"] = cache_snapshot(home)

    def check(home: Path, stdout: bytes) -> str:
        problem = prints_context("SessionStart")(home, stdout)
        if problem:
            return problem
        if not seen["before"]:
            return "no start cache was written by the seeding SessionStart"
        return (
            ""
            if cache_snapshot(home) == seen["before"]
            else "the start cache was re-rendered (full path taken)"
        )

    return prepare, check


def seed_homes(root: Path) -> tuple[Path, Path, dict[str, int], dict[str, str]]:
    """A full home, the same with a journal of 40 tool calls, and the known error to replay."""
    from artibot_memory.core import clock  # noqa: PLC0415
    from artibot_memory.plugin import fast  # noqa: PLC0415 - the product loads only to seed
    from artibot_memory.store import index  # noqa: PLC0415

    full = root / "seed-full"
    full.mkdir(mode=0o700)
    counts = corpus.seed_full_home(full, clock.now())
    index.rebuild(full)  # a home in use has its index in step (copy_home keeps it so)
    render_memory_md(full)  # and its MEMORY.md, rendered by every session before this one
    maintained(full)  # and its links and conflicts, as the session starts before left them
    known = known_error(full)
    with_journal = root / "seed-journal"
    copy_home(full, with_journal)
    os.environ["ARTIBOT_MEMORY_HOME"] = str(with_journal)
    try:
        for payload in previous_session_calls():
            fast.handle(payload["hook_event_name"], payload)
    finally:
        del os.environ["ARTIBOT_MEMORY_HOME"]
    return full, with_journal, counts, known


def render_memory_md(home: Path) -> None:
    """Render ``home``'s MEMORY.md, as the sessions before the timed one left it (issue 13).

    A checkout from before the layers has no MEMORY.md: nothing to do there.
    """
    try:
        from artibot_memory.api.semantic import refresh  # noqa: PLC0415
    except ImportError:
        return
    refresh(home)


def maintained(home: Path) -> None:
    """Run a session start's maintenance on ``home`` (issue 14): its links, its conflicts.

    A home in use has had both from every session start before the timed one, and an evolve
    in the last week (issue 15: the weekly one is timed by evolve_latency.py, not here); a
    checkout from before them has no ``lifecycle.maintain`` or evolve: nothing to do there.
    """
    from artibot_memory import lifecycle  # noqa: PLC0415

    maintain = getattr(lifecycle, "maintain", None)
    if maintain is None:
        return
    os.environ["ARTIBOT_MEMORY_HOME"] = str(home)
    try:
        maintain()
        _evolved(home)
    finally:
        del os.environ["ARTIBOT_MEMORY_HOME"]


def _evolved(home: Path) -> None:
    try:
        from artibot_memory.api import evolve  # noqa: PLC0415 - issue 15's checkouts on
    except ImportError:
        return
    evolve.run(home)


def known_error(home: Path) -> dict[str, str]:
    """A stored, resolved error of the session's project, to replay as a failure."""
    entries = json.loads((home / "error-patterns.json").read_bytes())["entries"]
    entry = next(e for e in entries if e["project"] == PROJECT and e.get("resolution"))
    command = entry["details"]["command"]
    output = entry["text"].split(" failed: ", 1)[1]
    return {"id": entry["id"], "command": command, "error": output}


def previous_session_calls() -> list[dict[str, Any]]:
    """40 tool calls of a previous session: commands, edits, failures and their fixes."""
    calls = []
    for index in range(40):
        if index % 10 == 3:
            calls.append(
                bash_failure(f"pytest tests/orders/test_case_{index}.py -x", UNKNOWN_ERROR)
            )
        elif index % 10 == 5:
            payload = bash_success()
            payload["tool_input"] = {"command": f"pytest tests/orders/test_case_{index - 2}.py -x"}
            calls.append(payload)
        elif index % 3 == 0:
            calls.append(edit_success())
        else:
            payload = bash_success()
            payload["tool_input"] = {"command": f"git diff --stat HEAD~{index}"}
            calls.append(payload)
    return calls


# --- where the time goes: imports of the fast paths ------------------------------------------


def import_profile(case: Case, env: dict[str, str], scratch: Path, runs: int = 8) -> str:
    """``-X importtime`` of one case, best of ``runs`` per module: what the process imports.

    Returns the top-level imports (cumulative ms) with their largest children, e.g.
    ``artibot_memory.plugin.entry 12.1 (json 9.8)``, and their sum.
    """
    best: dict[tuple[int, str], int] = {}
    parents: dict[tuple[int, str], tuple[int, str] | None] = {}
    for _ in range(runs):
        home = scratch / "home-importtime"
        run_env = {**env, **case.env}
        if case.home is not None:
            shutil.rmtree(home, ignore_errors=True)
            if case.persistent:
                home = case.home
            else:
                copy_home(case.home, home)
            if case.prepare is not None:
                case.prepare(home)
            run_env["ARTIBOT_MEMORY_HOME"] = str(home)
        argv = [case.argv[0], "-X", "importtime", *case.argv[1:]]
        done = subprocess.run(argv, input=case.stdin, capture_output=True, env=run_env, check=False)
        if case.detached_timeout:
            wait_for_detached(case.detached_timeout)
        stack: list[tuple[int, str]] = []
        for line in reversed(
            done.stderr.decode(errors="replace").splitlines()
        ):  # parents come last
            parts = line.split("|")
            if len(parts) != 3 or not parts[1].strip().isdigit():
                continue
            name = parts[2].rstrip()
            depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
            while stack and stack[-1][0] >= depth:
                stack.pop()
            key = (depth, name.strip())
            parents.setdefault(key, stack[-1] if stack else None)
            best[key] = min(best.get(key, 10**12), int(parts[1]))
            stack.append(key)
    tops = sorted((k for k in best if k[0] == 0), key=lambda k: -best[k])
    shown = []
    for key in tops[:6]:
        kids = sorted(
            (k for k, parent in parents.items() if parent == key), key=lambda k: -best[k]
        )[:2]
        inner = ", ".join(f"{k[1]} {best[k] / 1000:.1f}" for k in kids if best[k] >= 1000)
        shown.append(f"{key[1]} {best[key] / 1000:.1f}" + (f" ({inner})" if inner else ""))
    total = sum(best[k] for k in tops)
    return f"{total / 1000:.1f} ms of imports: " + "; ".join(shown)


# --- in process: where the time goes ---------------------------------------------------------


def in_process_breakdown(
    full: Path, with_journal: Path, transcript: Path | None, runs: int, scratch: Path
) -> dict[str, list[float]]:
    """Time each step of the full-path SessionStart and of the SessionEnd worker, in this process.

    The steps are the calls ``lifecycle.on_session_start`` and ``lifecycle.on_session_end`` make (looked up
    by name, so a renamed step shows up as missing rather than silently wrong), each run on a
    fresh copy of the seeded home.
    """
    # render_summary and read_transcript: what lifecycle.on_session_end calls, imported from
    # the rooms they live in (lifecycle does not re-export them).
    from artibot_memory import lifecycle  # noqa: PLC0415
    from artibot_memory.api.memories import save  # noqa: PLC0415
    from artibot_memory.api.prune import prune  # noqa: PLC0415
    from artibot_memory.capture.summary import render_summary  # noqa: PLC0415
    from artibot_memory.capture.transcript import read_transcript  # noqa: PLC0415
    from artibot_memory.core.project import project_of  # noqa: PLC0415
    from artibot_memory.store.model import MemoryType, Source  # noqa: PLC0415

    steps: dict[str, list[float]] = {}

    def timed(name: str, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        steps.setdefault(name, []).append(time.perf_counter() - start)
        return result

    from artibot_memory.store import jsonfile  # noqa: PLC0415

    def forget_parsed_stores() -> None:
        # A copied file may get the inode, size and mtime of the previous copy: the product's
        # in-process read cache would then serve the old parse. A hook is a new process anyway.
        cache = getattr(jsonfile, "_READ_CACHE", None)
        if cache is not None:
            cache.clear()

    render = getattr(lifecycle, "refresh_start_cache", None)
    home = scratch / "inproc"
    for _ in range(runs):
        forget_parsed_stores()
        shutil.rmtree(home, ignore_errors=True)
        copy_home(with_journal, home)
        os.environ["ARTIBOT_MEMORY_HOME"] = str(home)
        start = time.perf_counter()
        timed("SessionStart worker: ingest the journal (40 tool calls)", lifecycle.ingest)
        timed("SessionStart worker: prune", prune, lock_timeout=lifecycle.START_LOCK_TIMEOUT)
        if render is not None:
            timed(
                "SessionStart (the hook, or its worker after writing): render the context from the index and write the start cache",
                render,
                project_of(PROJECT),
            )
        else:
            from artibot_memory.recall.context import get_relevant_context  # noqa: PLC0415

            timed("SessionStart: get_relevant_context", get_relevant_context, project_of(PROJECT))
        steps.setdefault("SessionStart worker: all steps", []).append(time.perf_counter() - start)
        if transcript is None:
            continue
        forget_parsed_stores()
        shutil.rmtree(home, ignore_errors=True)
        copy_home(full, home)
        os.environ["ARTIBOT_MEMORY_HOME"] = str(home)
        start = time.perf_counter()
        digest = timed(
            "SessionEnd worker: read_transcript (3.1 MB)", read_transcript, str(transcript)
        )
        text = timed(
            "SessionEnd worker: render_summary",
            render_summary,
            digest,
            max_chars=lifecycle.SUMMARY_CHARS,
        )
        session_id = digest.session_id
        project = project_of(digest.cwd)
        timed(
            "SessionEnd worker: save (into 2,000 contexts)",
            save,
            MemoryType.CONTEXT,
            text,
            key=lifecycle.SESSION_KEY_PREFIX + session_id,
            project=project,
            tags=["session-summary"],
            why="session summary",
            source=Source(channel="hook:SessionEnd", session_id=session_id, path=digest.path),
            details={"kind": "session-summary"},
        )
        steps.setdefault("SessionEnd worker: summarise (read + render + save)", []).append(
            time.perf_counter() - start
        )
        for name, step, args in layer_steps(lifecycle, digest, session_id, project):
            timed(name, step, *args)
        if render is not None:
            timed("SessionEnd worker: then render the project's start cache", render, project)
    os.environ.pop("ARTIBOT_MEMORY_HOME", None)
    return steps


def layer_steps(
    lifecycle: Any, digest: Any, session_id: str, project: str | None
) -> list[tuple[str, Callable[..., object], tuple[object, ...]]]:
    """The SessionEnd worker's steps after the summary: the daily note, then MEMORY.md.

    Issue 13's layers; a baseline from before them has neither, and times nothing here.
    """
    steps: list[tuple[str, Callable[..., object], tuple[object, ...]]] = []
    try:
        from artibot_memory.api.daily import note_session  # noqa: PLC0415
    except ImportError:
        return steps
    steps.append(("SessionEnd worker: the daily note", note_session, (digest, session_id, project)))
    promote = getattr(lifecycle, "promote_beliefs", None)  # issue 15's checkouts on
    if promote is not None:
        steps.append(
            ("SessionEnd worker: evolve's promote phase (Top Beliefs)", promote, (project,))
        )
    refresh = getattr(lifecycle, "refresh_memory_md", None)
    if refresh is not None:
        steps.append(("SessionEnd worker: render MEMORY.md from the stores", refresh, ()))
    return steps


# --- report ----------------------------------------------------------------------------------


def real_python(given: str | None) -> str:
    """The interpreter to time: a shim resolved to its binary, but a venv's own python kept.

    A venv's ``bin/python`` is a link to the base binary; resolving it would leave the venv
    and its packages behind (the hooks would then find no pydantic and start the plugin's
    bootstrap in the middle of the benchmark).
    """
    if given:
        return shutil.which(given) or given
    if sys.prefix != sys.base_prefix:
        return sys.executable
    return os.path.realpath(sys.executable)


def clean_venv(root: Path) -> str:
    """A venv with only the plugin's requirements, as the plugin's bootstrap builds it."""
    venv = root / "venv"
    print(
        "building a clean virtual environment (python -m venv + pip install -r requirements.txt) ..."
    )
    subprocess.run([os.path.realpath(sys.executable), "-m", "venv", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    done = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "-r",
            str(common.ROOT / "requirements.txt"),
        ],
        capture_output=True,
        check=False,
    )
    if done.returncode:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise SystemExit(
            "pip could not install requirements.txt into the clean venv: " + " / ".join(tail)
        )
    return str(python)


def site_cost(python: str, env: dict[str, str]) -> str:
    """What ``import site`` costs on ``python`` and its largest import (from -X importtime)."""
    done = subprocess.run(
        [python, "-X", "importtime", "-c", "pass"], capture_output=True, env=env, check=False
    )
    total, largest = 0, ("", 0)
    for line in done.stderr.decode(errors="replace").splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        name = parts[2].rstrip()
        depth = len(name) - len(name.lstrip(" "))
        cumulative = int(parts[1])
        if name.strip() == "site" and depth == 1:
            total = cumulative
        elif depth == 3 and cumulative > largest[1]:
            largest = (name.strip(), cumulative)
    if not total:
        return "site: not imported"
    return (
        f"`import site` takes {total / 1000:.1f} ms on this interpreter (-X importtime, this run); "
        f"its largest import: `{largest[0]}` {largest[1] / 1000:.1f} ms"
    )


# As bin/artibot-memory does: the plugin root first on sys.path (a clean venv has no install).
IMPORT_HOOKS = (
    f"import sys; sys.path.insert(0, {str(common.ROOT)!r}); import artibot_memory.lifecycle"
)


def interpreter_label(args: argparse.Namespace) -> str:
    if args.clean_venv:
        return "a temporary venv with only requirements.txt installed (--clean-venv)"
    if args.python:
        return "given with --python"
    return f"the CPython {sys.version.split()[0]} running the benchmark (its real binary, no shim)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed runs per case (default 20)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs first (default 3)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--python", help="interpreter standing for hooks.json's python3")
    choice.add_argument(
        "--clean-venv",
        action="store_true",
        help="use a temporary venv with only requirements.txt installed",
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    transcript = common.shared_file(TRANSCRIPT)
    if transcript is None:
        print(
            common.missing_shared_message(TRANSCRIPT)
            + "\n(c) SessionEnd is skipped; (a) and (b) run."
        )

    with tempfile.TemporaryDirectory(prefix="artibot-bench-") as tmp:
        root = Path(tmp)
        python = clean_venv(root) if args.clean_venv else real_python(args.python)
        print("seeding full stores ...", flush=True)
        full, with_journal, counts, known = seed_homes(root)
        journal_lines = len((with_journal / "journal.jsonl").read_bytes().splitlines())
        env = {
            **os.environ,
            "PYTHONPYCACHEPREFIX": str(root / "pycache"),
            "CLAUDE_PLUGIN_ROOT": str(common.ROOT),
            "CLAUDE_PLUGIN_DATA": str(root / "plugin-data"),
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("ARTIBOT_MEMORY_HOME", None)
        site = site_cost(python, env)
        cached = seed_cached_home(full, root, hook_argv("SessionStart", python), env)
        prepare_cached, check_cached = served_from_cache()
        become_subreaper()

        def dumps(payload: dict[str, Any]) -> bytes:
            return json.dumps(payload).encode()

        cases = [
            Case("python3 -c pass (baseline)", [python, "-c", "pass"]),
            Case("python3 -S -c pass", [python, "-S", "-c", "pass"]),
            Case(
                "python3 -S -c 'import json' (floor: any hook that reads its JSON payload)",
                [python, "-S", "-c", "import json"],
            ),
            Case(
                "PostToolUse, Bash",
                hook_argv("PostToolUse", python),
                dumps(bash_success()),
                full,
                journal_grew(0),
            ),
            Case(
                "PostToolUse, Edit",
                hook_argv("PostToolUse", python),
                dumps(edit_success()),
                full,
                journal_grew(0),
            ),
            Case(
                "PostToolUseFailure, new error",
                hook_argv("PostToolUseFailure", python),
                dumps(bash_failure("pytest tests/orders -x", UNKNOWN_ERROR)),
                full,
                journal_grew(0),
            ),
            Case(
                "PostToolUseFailure, known error: fix injected",
                hook_argv("PostToolUseFailure", python),
                dumps(bash_failure(known["command"], known["error"])),
                full,
                prints_context("PostToolUseFailure", known["id"]),
            ),
            Case(
                "SessionStart, full stores, start cache ready (after a normal SessionEnd)",
                hook_argv("SessionStart", python),
                dumps(session_start()),
                cached,
                check_cached,
                persistent=True,
                prepare=prepare_cached,
            ),
            Case(
                "SessionStart, full stores, no start cache, empty journal (from the index)",
                hook_argv("SessionStart", python),
                dumps(session_start()),
                full,
                prints_context("SessionStart"),
                detached_timeout=WORKER_TIMEOUT,
            ),
            Case(
                f"SessionStart, full stores, no start cache, {journal_lines} tool calls journaled (from the index)",
                hook_argv("SessionStart", python),
                dumps(session_start()),
                with_journal,
                prints_context("SessionStart"),
                detached_timeout=WORKER_TIMEOUT,
            ),
            Case(
                "python3 -c 'import artibot_memory.lifecycle' (import cost only)",
                [python, "-c", IMPORT_HOOKS],
            ),
            Case(
                "  same, PYDANTIC_DISABLE_PLUGINS=__all__ (proposal)",
                [python, "-c", IMPORT_HOOKS],
                env={"PYDANTIC_DISABLE_PLUGINS": "__all__"},
            ),
        ]
        if transcript is not None:
            cases.append(
                Case(
                    "SessionEnd, 3.1 MB transcript",
                    hook_argv("SessionEnd", python),
                    dumps(session_end(transcript)),
                    full,
                    summary_stored("4d5611e5-241a-462a-8d15-5122611a9569"),
                    detached_timeout=WORKER_TIMEOUT,
                )
            )
        print(
            f"{len(cases)} cases x ({args.warmup} warm-up + {args.runs} timed runs), round-robin ..."
        )
        measure(cases, env, args.runs, args.warmup, root)
        print("import profiles (-X importtime, best of 8) ...", flush=True)
        profiles = {
            case.name: import_profile(case, env, root)
            for case in cases
            if case.name.startswith(
                ("PostToolUse", "SessionStart, full stores, start cache", "SessionEnd")
            )
            or "baseline" in case.name
            or "floor" in case.name
        }
        try:
            breakdown = in_process_breakdown(
                full, with_journal, transcript, max(args.runs // 2, 5), root
            )
        except Exception as exc:  # noqa: BLE001 - the product may be mid-edit; keep the timings
            breakdown = {}
            breakdown_error = f"{type(exc).__name__}: {exc}"
            print(f"in-process breakdown failed: {breakdown_error}")
        else:
            breakdown_error = ""
        # A hook may have left a detached worker behind (SessionEnd's ingest, a bootstrap):
        # the temporary folder goes only once they are done.
        wait_for_detached(WORKER_TIMEOUT)

    body = report(cases, breakdown, counts, site, transcript is not None, args, profiles)
    if breakdown_error:
        body += f"\n\nThe in-process breakdown failed ({breakdown_error}): the product was being edited?"
    print(body)
    if not args.no_write:
        if args.clean_venv:
            common.write_section(
                "hook_latency_clean_venv",
                "Hook latency, clean venv (benchmarks/hook_latency.py --clean-venv)",
                body,
            )
        else:
            common.write_section("hook_latency", "Hook latency (benchmarks/hook_latency.py)", body)
    return 0


def report(  # noqa: C901, PLR0917
    cases: list[Case],
    breakdown: dict[str, list[float]],
    counts: dict[str, int],
    site: str,
    with_end: bool,  # noqa: FBT001
    args: argparse.Namespace,
    profiles: dict[str, str],
) -> str:
    base = common.median(cases[0].walls)
    base_s = common.median(cases[1].walls)
    rows = []
    verdicts: dict[str, str] = {}
    for case in cases:
        if not case.walls:
            rows.append([case.name, "-", "-", "-", "-", "-", "-",
                         f"**no run did its work**: {'; '.join(case.problems)}"])  # fmt: skip
            continue
        wall, p95 = common.median(case.walls), common.p95(case.walls)
        ratio = wall / base
        target = ""
        if case.name.startswith("PostToolUse"):
            target = f"<= {TARGET_FAST}x: " + common.verdict(
                ratio <= TARGET_FAST, "see where the time goes"
            )
        elif case.name.startswith("SessionStart"):
            target = f"<= {TARGET_START:.0f}x: " + common.verdict(
                ratio <= TARGET_START, "see where the time goes"
            )
        elif case.name.startswith("SessionEnd"):
            share = wall / SESSION_END_BUDGET
            target = (
                f"{share:.0%} of the 1.5 s budget (p95 {p95 / SESSION_END_BUDGET:.0%}); <= 33%: "
                + common.verdict(share <= TARGET_END_SHARE, "see where the time goes")
            )
        if case.failures:
            target += (
                f" — {case.failures} of {case.failures + len(case.walls)} runs did not do their work "
                f"and are left out (the product was being edited during the run?): "
                + "; ".join(case.problems)
            )
        verdicts[case.name] = target
        rows.append(
            [
                case.name,
                common.ms(wall),
                common.ms(p95),
                common.ms(common.median(case.cpus)),
                f"{ratio:.2f}x",
                f"{p95 / base:.2f}x",
                f"{wall / base_s:.2f}x",
                target,
            ]
        )
    parts = [
        f"Interpreter standing for hooks.json's `python3`: {interpreter_label(args)}. {site}. "
        f"{args.runs} timed runs per case after {args.warmup} warm-up runs, all cases round-robin in one "
        "loop; wall = the whole process as seen by the parent (spawn to exit), cpu = user + system of "
        "the child; p95 is nearest-rank. Every hook run starts from a fresh copy of the seeded memory "
        "home (copied outside the timed region), except the start-cache case: the cache is exact only for "
        "the very store files it was made from, so that home is used in place with its journal emptied "
        "before each run; bytecode cached in a temporary folder.",
        "",
        f"Seeded stores: {counts['command']} commands, {counts['error']} errors with resolutions, "
        f"{counts['preference']} preferences, {counts['context']} contexts over {len(corpus.PROJECTS)} "
        "projects (benchmarks/corpus.py, built with `memory.build` and written with `Store.transaction`). "
        "The hook commands are read from hooks/hooks.json: "
        + ", ".join(f"`{shown_argv(e)}`" for e in ("PostToolUse", "SessionStart"))
        + ".",
        "",
        common.table(
            [
                "case",
                "median wall",
                "p95 wall",
                "median cpu",
                "median / baseline",
                "p95 / baseline median",
                "median / `-S -c pass`",
                "target",
            ],
            rows,
        ),
    ]
    starts = [c for c in cases if c.name.startswith("SessionStart") and c.outputs]
    if starts:
        parts += [
            "",
            f"SessionStart injected {context_chars(starts[0].outputs[0]):,} characters of additionalContext.",
        ]
    for case in cases:
        if case.worker_walls:
            wall = common.median(case.worker_walls)
            parts += [
                "",
                f"{case.name}: the hook returns after journaling the session end and starting a "
                f"detached worker (`artibot-memory ingest`), which stores the summary: from the hook's "
                f"start to the worker's exit, median {common.ms(wall)}, p95 {common.ms(common.p95(case.worker_walls))} "
                f"({wall / SESSION_END_BUDGET:.0%} of the 1.5 s budget, which no longer applies to it; "
                "waited for as an adopted orphan, outside the hook's timing).",
            ]
    if profiles:
        parts += [
            "",
            "Where the time of the short processes goes: what they import (`-X importtime`, best of 8 "
            "runs per module, cumulative ms; the interpreter's own start-up is the baseline row):",
            "",
        ]
        parts += [f"- {name}: {line}" for name, line in profiles.items()]
    if breakdown:
        parts += [
            "",
            "Where the time goes (in one warm process: imports already paid; median of "
            f"{len(next(iter(breakdown.values())))} runs, each on a fresh copy of the home):",
            "",
        ]
        rows = [
            [name, common.ms(common.median(v)), common.ms(common.p95(v))]
            for name, v in breakdown.items()
        ]
        imports = next(c for c in cases if "import cost" in c.name)
        rows.append(
            [
                "import artibot_memory.lifecycle (process above minus baseline)",
                common.ms(common.median(imports.walls) - base),
                "",
            ]
        )
        parts.append(common.table(["step", "median", "p95"], rows))
    if not with_end:
        parts += ["", common.missing_shared_message(TRANSCRIPT) + " (SessionEnd not measured)"]
    return "\n".join(parts)


if __name__ == "__main__":
    raise SystemExit(main())
