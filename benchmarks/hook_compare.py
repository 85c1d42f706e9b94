"""The hooks of this checkout against another checkout, side by side in one run.

A change must not slow the hooks people feel. This runs, for both checkouts and the floors
``python3 -c pass`` and ``python3 -S -c 'import json'`` (what any hook that reads its JSON
payload pays), round-robin, the first case rotating each round, each run on a fresh copy
of the same seeded memory home: the four per-tool-call cases of ``hook_latency.py``
(PostToolUse Bash and Edit, PostToolUseFailure with an unknown error and with a known
error whose fix is injected); UserPromptSubmit with a prompt that recalls nothing and with
one about the known error (recall runs and injects); SessionStart served from its start
cache (on the seeded home itself, its journal emptied before each run, as
``hook_latency.py`` does) and without one (the full path, from the index); and
``artibot-memory context`` as a process. Each checkout runs its own ``hooks/hooks.json``
command with its own ``bin/artibot-memory``.
Both packages are byte-compiled first (``compileall``), as a user's are after the first
call: a checkout with ``__pycache__`` against one without would measure the compiler.

    python benchmarks/hook_compare.py --against PATH [--runs 40] [--clean-venv] [--no-write]

``PATH`` is the other checkout (for example ``git worktree add /tmp/main-before main``).
Target: the median of each case at most 1.05x the other checkout's (5 % is the spread of
repeated runs of one checkout on this machine); the figures go to ``RESULTS.md``
(section ``hook_compare``) unless ``--no-write``. Like every benchmark, it reports a missed
target and exits 0; it exits 1 only when a hook run failed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import common
import hook_latency as latency

TARGET_RATIO = 1.05
EVENTS = ("PostToolUse", "PostToolUseFailure")


def argv_of(root: Path, event: str, python: str) -> list[str]:
    """The command of ``event`` in ``root``'s hooks/hooks.json, run in ``root``."""
    config = json.loads((root / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    hook = config["hooks"][event][0]["hooks"][0]
    return [python, *(a.replace("${CLAUDE_PLUGIN_ROOT}", str(root)) for a in hook["args"])]


def payloads(home: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """(name, event, payload) of the per-tool-call cases, as hook_latency builds them."""
    known = latency.known_error(home)
    return [
        ("PostToolUse, Bash", "PostToolUse", latency.bash_success()),
        ("PostToolUse, Edit", "PostToolUse", latency.edit_success()),
        (
            "PostToolUseFailure, new error",
            "PostToolUseFailure",
            latency.bash_failure("python -m app.cli", latency.UNKNOWN_ERROR),
        ),
        (
            "PostToolUseFailure, known error",
            "PostToolUseFailure",
            latency.bash_failure(known["command"], known["error"]),
        ),
    ]


def compile_package(root: Path, python: str) -> None:
    """Byte-compile ``root``'s package, so neither side pays for compiling on every call."""
    subprocess.run([python, "-m", "compileall", "-q", str(root / "artibot_memory")], check=True)


CACHED_START = "SessionStart, start cache ready"
FLOOR = "python3 -S -c 'import json'"
NOTHING = "rename this helper to something clearer and keep the tests green"


def prompt_payload(prompt: str) -> dict[str, Any]:
    """A UserPromptSubmit payload of the seeded project, in a session that was shown nothing."""
    return {
        **latency.base_payload("UserPromptSubmit"),
        "session_id": f"prompt-{abs(hash(prompt)) % 10**8}",
        "prompt": prompt,
    }


def later_cases(home: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """(name, event, payload) of the prompt and the uncached start, after the tool calls."""
    known = latency.known_error(home)
    asked = f"`{known['command']}` failed again with {known['error'][:80]}; how did we fix it?"
    return [
        ("UserPromptSubmit, nothing injected", "UserPromptSubmit", prompt_payload(NOTHING)),
        ("UserPromptSubmit, recall injects", "UserPromptSubmit", prompt_payload(asked)),
        ("SessionStart, no start cache", "SessionStart", latency.session_start()),
    ]


def cases_for(
    roots: dict[str, Path],
    homes: tuple[Path, dict[str, Path]],
    python: str,
    names: list[tuple[str, str, dict[str, Any]]],
) -> list[latency.Case]:
    """The baseline, each per-tool-call case and the cached start, once per checkout.

    Each checkout starts from a home whose start cache it rendered itself: a cache of
    another format (the CACHE_VERSION of the other checkout) is re-rendered, on every run.
    """
    full, cached = homes
    cases = [
        latency.Case("python3 -c pass", [python, "-c", "pass"]),
        latency.Case(FLOOR, [python, "-S", "-c", "import json"]),
    ]
    for name, event, payload in names:
        for label, root in roots.items():
            cases.append(
                latency.Case(
                    f"{name} [{label}]",
                    argv_of(root, event, python),
                    json.dumps(payload).encode(),
                    home=full,
                    # an uncached start leaves its ingest to a worker: waited for, untimed
                    detached_timeout=latency.WORKER_TIMEOUT if event == "SessionStart" else 0.0,
                )
            )
    for label, root in roots.items():
        prepare, check = latency.served_from_cache()
        cases.append(
            latency.Case(
                f"{CACHED_START} [{label}]",
                argv_of(root, "SessionStart", python),
                json.dumps(latency.session_start()).encode(),
                home=cached[label],
                check=check,
                persistent=True,
                prepare=prepare,
            )
        )
        cases.append(
            latency.Case(
                f"context (CLI) [{label}]",
                [
                    python,
                    str(root / "bin" / "artibot-memory"),
                    "context",
                    "--project",
                    latency.PROJECT,
                ],
                home=full,
            )
        )
    return cases


def report(cases: list[latency.Case], roots: dict[str, Path], names: list[str]) -> tuple[str, bool]:
    base = common.median(cases[0].walls)
    floor = common.median(cases[1].walls)
    by_name = {case.name: case for case in cases}
    rows, met = [], True
    for name in names:
        this, other = (by_name[f"{name} [{label}]"] for label in roots)
        if not this.walls or not other.walls:  # every run failed: said below, not measured
            met = False
            rows.append([name, "failed", "failed", "", "", "", "**FAILED**"])
            continue
        ratio = common.median(this.walls) / common.median(other.walls)
        met &= ratio <= TARGET_RATIO
        rows.append(
            [
                name,
                common.ms(common.median(this.walls)),
                common.ms(common.median(other.walls)),
                f"{ratio:.3f}",
                f"{common.median(this.walls) / floor:.2f}x",
                f"{common.median(other.walls) / floor:.2f}x",
                common.verdict(ratio <= TARGET_RATIO),
            ]
        )
    failures = [f"{c.name}: {c.failures} failed runs ({c.problems})" for c in cases if c.failures]
    table = common.table(
        [
            "case",
            "this checkout",
            "other checkout",
            "this / other",
            "this / floor",
            "other / floor",
            f"<= {TARGET_RATIO}x",
        ],
        rows,
    )
    lines = [
        f"`python3 -c pass`: {common.ms(base)} median; the floor, `{FLOOR}`: {common.ms(floor)}.",
        "",
        table,
    ]
    return "\n".join([*lines, *(["", *failures] if failures else [])]), met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, type=Path, help="the other checkout")
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--clean-venv", action="store_true", help="see hook_latency.py")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    other = args.against.resolve()
    if not (other / "bin" / "artibot-memory").is_file():
        parser.error(f"{other} is not a checkout of artibot-memory (no bin/artibot-memory)")
    latency.become_subreaper()  # an uncached start's worker is waited for, not slept on
    with tempfile.TemporaryDirectory(prefix="hook-compare-") as scratch_name:
        scratch = Path(scratch_name)
        python = latency.clean_venv(scratch) if args.clean_venv else latency.real_python(None)
        seeded, _journal, _counts, _known = latency.seed_homes(scratch)
        roots = {"this": common.ROOT, "other": other}
        for root in roots.values():
            compile_package(root, python)
        named = payloads(seeded) + later_cases(seeded)
        env = {k: v for k, v in os.environ.items() if k != "ARTIBOT_MEMORY_HOME"}
        cached = {}
        for label, root in roots.items():
            (scratch / label).mkdir()
            start = argv_of(root, "SessionStart", python)
            cached[label] = latency.seed_cached_home(seeded, scratch / label, start, env)
        cases = cases_for(roots, (seeded, cached), python, named)
        latency.measure(cases, env, args.runs, args.warmup, scratch)
        names = [name for name, _event, _payload in named] + [CACHED_START, "context (CLI)"]
        body, _met = report(cases, roots, names)
    commit = subprocess.run(
        ["git", "-C", str(other), "log", "-1", "--format=%h %s"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    body = (
        f"Other checkout: `{commit or other.name}` (made with `git worktree add PATH COMMIT`)."
        f" {args.runs} timed runs per case.\n\n{body}"
    )
    print(body)
    if not args.no_write:
        common.write_section("hook_compare", "Per-tool-call hooks against another checkout", body)
    return 0 if not any(case.failures for case in cases) else 1


if __name__ == "__main__":
    raise SystemExit(main())
