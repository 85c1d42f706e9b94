"""Each agent's hooks side by side: Claude Code, Codex CLI, Gemini CLI and Cursor, in one run.

The same work sent by each agent in its own shape (its captured or documented payloads,
``tests/fixtures/agents/``, Claude Code's ``tests/payloads.py``), each hook started as that
agent's hook configuration says (``hooks/hooks.json``, ``hooks/codex.json``,
``gemini/hooks/hooks.json``, ``hooks/cursor.json``: ``python3 -S bin/artibot-memory hook
EVENT [--agent NAME]``), interleaved round-robin with the floor ``python3 -S -c 'import
json'`` (what any hook that reads its JSON payload pays), ``python3 -c pass`` (the
baseline of ``hook_latency.py``'s targets) and Claude Code's hook a second time (its ratio
to the first is the run's noise), the first case rotating each round:

- per tool call: a successful shell command (``pytest``), a failed one whose error is known
  (its fix must come back, in the field that agent reads) and a file edit. Codex tells a
  failure only in its rollout: its payload names a copy of the captured rollout, padded to
  2 MB, whose last line is the command's ``item_completed``; Gemini's ``AfterTool`` carries
  an ``Exit Code: 1`` line; Cursor sends ``postToolUseFailure``;
- SessionStart served from its start cache (the home used in place, its journal and this
  session's shown-file removed before each run: each run is a session's first start);
- one per-prompt hook that injects nothing (Gemini's prompt carries the start's context in
  a ``<hook_context>`` block, as Gemini CLI sends it).

Each hook run gets a fresh copy of a seeded home at full caps (``hook_latency.seed_homes``:
500 commands, 200 errors with fixes, 300 preferences, 2,000 contexts; stores hard-linked, so
its index stays in step, as a home in use). Every run is checked and the benchmark fails
loudly (exit 1) when one is wrong: exit 0, nothing on stderr, nothing logged, stdout empty
or one JSON object, the tool call journaled with its agent, the fix answered, the start
served from its cache. Bytecode is compiled first (into a temporary ``PYTHONPYCACHEPREFIX``).

Targets, the ones Claude Code's hooks have: at most 1.05x Claude Code's median measured in
the same run (``hook_compare.py``'s "no slower" ratio, Claude Code standing as the other
side), and ``hook_latency.py``'s per-tool-call 1.5x ``python3 -c pass``, 4x for the cached
SessionStart, ``prompt_latency.py``'s 1.6x the floor for a prompt that injects nothing.

    python benchmarks/agent_latency.py [--runs 40] [--warmup 3] [--smoke] [--no-write]
"""

# Report prose makes long lines and multi-line strings in lists; fine here.
# ruff: noqa: E501, ISC004, PLR2004

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import common
import hook_compare
import hook_latency as latency

SECTION = "agent_latency"
TITLE = "Each agent's hooks side by side (benchmarks/agent_latency.py)"
CLAUDE, CODEX, GEMINI, CURSOR = "claude-code", "codex-cli", "gemini-cli", "cursor"
AGENT_NAMES = {CLAUDE: "Claude Code", CODEX: "Codex CLI", GEMINI: "Gemini CLI", CURSOR: "Cursor"}
# Claude Code's hook a second time, as its own case: its ratio to the first is this run's noise.
AGAIN = "claude-code-again"
ROWS = {CLAUDE: "Claude Code", AGAIN: "Claude Code again (A/A)", **AGENT_NAMES}
FIXTURES = common.ROOT / "tests" / "fixtures" / "agents"
# Each agent's hook configuration and what stands for the plugin's root in its commands.
CONFIGS = {
    CODEX: (common.ROOT / "hooks" / "codex.json", "${PLUGIN_ROOT}", common.ROOT),
    GEMINI: (
        common.ROOT / "gemini" / "hooks" / "hooks.json",
        "${extensionPath}",
        common.ROOT / "gemini",
    ),
    CURSOR: (common.ROOT / "hooks" / "cursor.json", "${CURSOR_PLUGIN_ROOT}", common.ROOT),
}

SHELL, FAILED, EDIT = "shell command", "shell command failed, known error", "file edit"
START, PROMPT = "SessionStart, start cache ready", "prompt, nothing injected"
KINDS = (SHELL, FAILED, EDIT, START, PROMPT)
EVENTS = {
    SHELL: {
        CLAUDE: "PostToolUse",
        CODEX: "PostToolUse",
        GEMINI: "AfterTool",
        CURSOR: "postToolUse",
    },
    FAILED: {
        CLAUDE: "PostToolUseFailure",
        CODEX: "PostToolUse",
        GEMINI: "AfterTool",
        CURSOR: "postToolUseFailure",
    },
    EDIT: {CLAUDE: "PostToolUse", CODEX: "PostToolUse", GEMINI: "AfterTool", CURSOR: "postToolUse"},
    START: {
        CLAUDE: "SessionStart",
        CODEX: "SessionStart",
        GEMINI: "SessionStart",
        CURSOR: "sessionStart",
    },
    PROMPT: {
        CLAUDE: "UserPromptSubmit",
        CODEX: "UserPromptSubmit",
        GEMINI: "BeforeAgent",
        CURSOR: "beforeSubmitPrompt",
    },
}
# (what the target is a ratio to, its value): hook_latency's and prompt_latency's targets.
BASE, FLOOR = "python3 -c pass", hook_compare.FLOOR
TARGETS = {
    SHELL: (BASE, 1.5),
    FAILED: (BASE, 1.5),
    EDIT: (BASE, 1.5),
    START: (BASE, 4.0),
    PROMPT: (FLOOR, 1.6),
}
CLAUDE_RATIO = hook_compare.TARGET_RATIO  # no slower than Claude Code's hook (1.05x)

SHELL_COMMAND = "pytest tests/orders/test_refund.py -q"
EDITED = "src/orders/refund.py"
ORIGINAL = "from decimal import Decimal\n" * 40 + latency.EDIT_OLD
ROLLOUT_BYTES = 2 * 1024 * 1024  # padded to 2 MB: the hook reads only its last ROLLOUT_TAIL bytes
ROLLOUT_CALLS = {SHELL: ("call_bench_shell", 0), FAILED: ("call_bench_failed", 1)}
AGENT_ENV = {  # what each agent puts in its hooks' environment (``{data}``: a temporary folder)
    CLAUDE: {
        "CLAUDE_PLUGIN_ROOT": "{root}",
        "CLAUDE_PLUGIN_DATA": "{data}",
        "CLAUDE_PROJECT_DIR": "{project}",
    },
    CODEX: {
        "PLUGIN_ROOT": "{root}",
        "PLUGIN_DATA": "{data}",
        "CLAUDE_PLUGIN_ROOT": "{root}",
        "CLAUDE_PLUGIN_DATA": "{data}",
    },
    GEMINI: {"GEMINI_PROJECT_DIR": "{project}"},
    CURSOR: {
        "CURSOR_PLUGIN_ROOT": "{root}",
        "CURSOR_PROJECT_DIR": "{project}",
        "CLAUDE_PROJECT_DIR": "{project}",
    },
}
# Left out of the hooks' environment: the agents set their own, and none may point at this
# machine's real memory home or plugin data.
DROPPED_ENV = (
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONPYCACHEPREFIX",
    "ARTIBOT_MEMORY_HOME",
    "XDG_DATA_HOME",
    *{name for names in AGENT_ENV.values() for name in names},
)


# --- each agent's command -------------------------------------------------------------------


def hook_argv(agent: str, event: str, python: str) -> list[str]:
    """The command of ``event`` in ``agent``'s hook configuration, ``python3`` replaced."""
    if agent == CLAUDE:
        argv = hook_compare.argv_of(common.ROOT, event, python)
    else:
        config, variable, root = CONFIGS[agent]
        entries = json.loads(config.read_text(encoding="utf-8"))["hooks"][event]
        entry = entries[0]["hooks"][0] if "hooks" in entries[0] else entries[0]
        words = shlex.split(entry["command"].replace(variable, str(root)))
        if words[0] != "python3":
            msg = f"{config.name} runs {words[0]!r} for {event}; this benchmark expects python3"
            raise SystemExit(msg)
        argv = [python, *words[1:]]
    expected = ["-S", "hook", event] + ([] if agent == CLAUDE else ["--agent", agent])
    if [argv[1], *argv[3:]] != expected or not argv[2].endswith("bin/artibot-memory"):
        msg = f"{agent}'s {event} hook is {argv[1:]}, not python3 -S bin/artibot-memory {' '.join(expected[1:])}"
        raise SystemExit(msg)
    return argv


def shown_command(argv: list[str]) -> str:
    return shlex.join(["python3", argv[1], "bin/artibot-memory", *argv[3:]])


# --- the payloads: each agent's own shape, the same work ------------------------------------


def captured(agent: str, event: str, **fields: Any) -> dict[str, Any]:
    """A copy of the first captured (Cursor: documented) payload of ``event`` matching ``fields``."""
    if agent == CLAUDE:
        sys.path.insert(0, str(common.ROOT / "tests"))
        try:
            from payloads import captured as claude_captured  # noqa: PLC0415 - tests/payloads.py
        finally:
            sys.path.pop(0)
        return json.loads(json.dumps(claude_captured(event)))  # type: ignore[no-any-return]
    if agent == CURSOR:
        rows = [json.loads(line) for line in lines_of("cursor-documented-payloads.jsonl")]
        found = [(row["hook_event_name"], row) for row in rows]
    else:
        name = {CODEX: "codex", GEMINI: "gemini"}[agent]
        rows = [json.loads(line) for line in lines_of(f"captured-{name}-hook-payloads.jsonl")]
        found = [(row["event"], row["payload"]) for row in rows]
    for theirs, payload in found:
        if theirs == event and all(
            payload.get("tool_input", {}).get(k) == v for k, v in fields.items()
        ):
            payload.pop("_source", None)
            return dict(payload)
    msg = f"no {agent} {event} payload with {fields}"
    raise LookupError(msg)


def lines_of(fixture: str) -> list[str]:
    return (FIXTURES / fixture).read_text(encoding="utf-8").splitlines()


def in_project(agent: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload in the seeded project (Cursor names it by its workspace root)."""
    if agent == CURSOR:
        payload["workspace_roots"] = [latency.PROJECT]
    else:
        payload["cwd"] = latency.PROJECT
    return payload


def shell_work(known: dict[str, str], *, failed: bool) -> tuple[str, str]:
    """The command and what it printed (Claude Code's error is "Exit code 1" and then this)."""
    if failed:
        return known["command"], known["error"].split("\n", 1)[1] + "\n"
    return SHELL_COMMAND, latency.PYTEST_OUTPUT


def shell_payload(
    agent: str, known: dict[str, str], rollouts: dict[str, Path], *, failed: bool
) -> dict[str, Any]:
    """A shell command of ``agent``: ``pytest`` that passed, or the known error's command."""
    command, output = shell_work(known, failed=failed)
    code = 1 if failed else 0
    if agent == CLAUDE:
        if failed:
            payload = captured(CLAUDE, "PostToolUseFailure")
            payload["tool_input"] = {"command": command, "description": "Run it"}
            payload["error"] = known["error"]
        else:
            payload = captured(CLAUDE, "PostToolUse")
            payload["tool_input"] = {"command": command, "description": "Run the refund tests"}
            payload["tool_response"] = {**payload["tool_response"], "stdout": output, "stderr": ""}
    elif agent == CODEX:
        payload = captured(CODEX, "PostToolUse", command="echo hello-out")
        call_id = ROLLOUT_CALLS[FAILED if failed else SHELL][0]
        payload.update(tool_input={"command": command}, tool_response=output, tool_use_id=call_id)
        payload["transcript_path"] = str(rollouts[FAILED if failed else SHELL])
    elif agent == GEMINI:
        model = "ls /no/such/dir" if failed else "echo hello-out"
        payload = captured(GEMINI, "AfterTool", command=model)
        exit_line = f"Exit Code: {code}\n" if code else ""
        payload["tool_input"] = {"command": command, "description": "Run a command"}
        payload["tool_response"] = {
            "llmContent": f"<untrusted_context>\nOutput: {output.rstrip()}\n{exit_line}Process Group PGID: 12404\n</untrusted_context>",
            "returnDisplay": output.rstrip(),
        }
    elif failed:  # Cursor's failure event, error_message the error's text (as the tests send it)
        payload = captured(CURSOR, "postToolUseFailure")
        payload.update(tool_input={"command": command}, error_message=known["error"])
    else:  # Cursor's postToolUse of its Shell tool: tool_output a JSON string (shape assumed)
        payload = captured(CURSOR, "postToolUse")
        payload.update(
            tool_name="Shell",
            tool_input={"command": command},
            tool_output=json.dumps({"output": output, "exitCode": 0}),
        )
    return in_project(agent, payload)


def edit_payload(agent: str) -> dict[str, Any]:
    """The same one-line edit of src/orders/refund.py, as each agent's edit tool reports it."""
    path = f"{latency.PROJECT}/{EDITED}"
    new_file = ORIGINAL.replace(latency.EDIT_OLD, latency.EDIT_NEW)
    if agent == CLAUDE:
        payload = latency.edit_success()  # Claude Code's Edit (tests/fixtures/hooks shapes)
    elif agent == CODEX:
        payload = captured(
            CODEX,
            "PostToolUse",
            command="*** Begin Patch\n*** Update File: notes.txt\n@@\n-beta\n+gamma\n*** End Patch\n",
        )
        patch = f"*** Begin Patch\n*** Update File: {EDITED}\n@@\n-{latency.EDIT_OLD}+{latency.EDIT_NEW}*** End Patch\n"
        payload.update(
            tool_input={"command": patch},
            tool_response=f"Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM {EDITED}\n",
            tool_use_id="call_bench_edit",
        )
    elif agent == GEMINI:
        payload = captured(GEMINI, "AfterTool", file_path="notes.txt", old_string="beta")
        payload["tool_input"] = {
            "file_path": EDITED,
            "instruction": "Round the refund to cents.",
            "old_string": latency.EDIT_OLD,
            "new_string": latency.EDIT_NEW,
        }
        display = payload["tool_response"]["returnDisplay"]
        display.update(
            fileDiff=f"Index: {EDITED}\n===\n--- {EDITED}\tCurrent\n+++ {EDITED}\tProposed\n@@ -41,1 +41,1 @@\n-{latency.EDIT_OLD}+{latency.EDIT_NEW}",
            fileName="refund.py",
            filePath=path,
            originalContent=ORIGINAL,
            newContent=new_file,
        )
        payload["tool_response"]["llmContent"] = (
            f"Successfully modified file: {path} (1 replacements). Here is the updated code:\n{new_file}"
        )
    else:  # Cursor's documented postToolUse is a Write
        payload = captured(CURSOR, "postToolUse")
        payload["tool_input"] = {"file_path": path, "content": new_file}
    return in_project(agent, payload)


def start_payload(agent: str) -> dict[str, Any]:
    return in_project(agent, captured(agent, EVENTS[START][agent]))


def prompt_payload(agent: str, start_context: str) -> dict[str, Any]:
    payload = in_project(agent, captured(agent, EVENTS[PROMPT][agent]))
    payload["prompt"] = hook_compare.NOTHING
    if agent == GEMINI:  # Gemini hands the start's context back inside the prompt
        payload["prompt"] = (
            f"<hook_context>{start_context}</hook_context>\n\n{hook_compare.NOTHING}"
        )
    return payload


def codex_rollout(path: Path, call_id: str, command: str, output: str, code: int) -> None:
    """A copy of the captured Codex rollout padded to ROLLOUT_BYTES, ending with this call.

    The captured session's turns are repeated (their call ids renamed) until the file is 2 MB;
    then the command's ``function_call`` and, last, its ``item_completed`` with ``exit_code``,
    as Codex has written them when it runs the PostToolUse hook.
    """
    lines = (FIXTURES / "captured-codex-rollout.jsonl").read_text(encoding="utf-8").splitlines()
    call = next(
        json.loads(line) for line in lines if '"function_call"' in line and "call_fake0001" in line
    )
    done = next(
        json.loads(line) for line in lines if "item_completed" in line and "call_fake0001" in line
    )
    out = [lines[0]]
    size, turn = len(lines[0]) + 1, 0
    while size < ROLLOUT_BYTES:
        turn += 1
        for line in lines[1:]:
            renamed = line.replace("call_fake", f"call_t{turn:04d}_")
            out.append(renamed)
            size += len(renamed.encode()) + 1
    call["payload"].update(arguments=json.dumps({"cmd": command}), call_id=call_id)
    done["payload"]["item"].update(
        id=call_id,
        command=["/bin/bash", "-lc", command],
        status="failed" if code else "completed",
        aggregated_output=output,
        exit_code=code,
    )
    out += [json.dumps(call), json.dumps(done)]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


# --- checks: every run, loudly ---------------------------------------------------------------


def context_of(agent: str, output: dict[str, Any] | None) -> str:
    """The context ``output`` hands ``agent`` (in the field that agent reads), or ""."""
    if not output:
        return ""
    if agent == CURSOR:
        return str(output.get("additional_context") or "")
    specific = output.get("hookSpecificOutput")
    return str(specific.get("additionalContext") or "") if isinstance(specific, dict) else ""


def one_object(stdout: bytes) -> tuple[str, dict[str, Any] | None]:
    """(problem, the object): stdout must be empty or exactly one JSON object."""
    text = stdout.decode("utf-8", "replace")
    if not text.strip():
        return "", None
    try:
        output = json.loads(text)
    except ValueError:
        return f"stdout is not one JSON object: {text[:120]!r}", None
    if not isinstance(output, dict) or len(text.strip().splitlines()) != 1:
        return f"stdout is not one JSON object on one line: {text[:120]!r}", None
    return "", output


def journaled(home: Path) -> list[dict[str, Any]]:
    journal = home / "journal.jsonl"
    if not journal.exists():
        return []
    return [json.loads(line) for line in journal.read_bytes().splitlines() if line.strip()]


def tool_check(agent: str, event: str, tool: str, want: str = "") -> latency.Check:
    """The call is journaled as ours (``event``, ``tool``) with its agent; ``want`` answered."""

    def check(home: Path, stdout: bytes) -> str:
        problem, output = one_object(stdout)
        if problem:
            return problem
        records = [r for r in journaled(home) if r.get("event") == event]
        if not any(r.get("agent") == agent and r.get("tool_name") == tool for r in records):
            seen = [(r.get("event"), r.get("agent"), r.get("tool_name")) for r in journaled(home)]
            return f"no {event} of {tool} by {agent} journaled (journal: {seen[:4]})"
        context = context_of(agent, output)
        if want and want not in context:
            return f"the known error's fix {want} was not answered: {stdout[:160]!r}"
        if not want and context:
            return f"a {event} with nothing to recall answered {stdout[:120]!r}"
        return ""

    return check


def start_hooks(agent: str, session_id: str) -> tuple[Callable[[Path], None], latency.Check]:
    """prepare + check of the cached start: served from the cache, which is left as it was."""
    seen: dict[str, dict[str, int]] = {}

    def prepare(home: Path) -> None:
        latency.empty_journal(home)
        shown_file(home, session_id).unlink(missing_ok=True)  # a session's first start
        seen["before"] = latency.cache_snapshot(home)

    def check(home: Path, stdout: bytes) -> str:
        problem, output = one_object(stdout)
        if problem:
            return problem
        if not context_of(agent, output):
            return f"SessionStart gave {agent} no context: {stdout[:120]!r}"
        if not seen["before"]:
            return "no start cache was written by the seeding SessionStart"
        if latency.cache_snapshot(home) != seen["before"]:
            return "the start cache was re-rendered (full path taken)"
        return ""

    return prepare, check


def shown_file(home: Path, session_id: str) -> Path:
    from artibot_memory.recall.shown import session_path  # noqa: PLC0415

    return Path(session_path(str(home), session_id))


def prompt_check(agent: str) -> latency.Check:
    def check(_home: Path, stdout: bytes) -> str:
        problem, output = one_object(stdout)
        if problem:
            return problem
        context = context_of(agent, output)
        return f"the prompt that recalls nothing injected: {context[:120]!r}" if context else ""

    return check


# --- the run ---------------------------------------------------------------------------------


def p90(values: list[float]) -> float:
    """Nearest-rank 90th percentile."""
    ordered = sorted(values)
    return ordered[max(math.ceil(0.9 * len(ordered)) - 1, 0)]


def build_cases(
    python: str,
    *,
    homes: tuple[Path, Path],
    known: dict[str, str],
    rollouts: dict[str, Path],
    start_context: str,
    agent_env: dict[str, dict[str, str]],
) -> tuple[list[latency.Case], dict[tuple[str, str], latency.Case]]:
    full, cached = homes
    cases = [
        latency.Case(BASE, [python, "-c", "pass"]),
        latency.Case(FLOOR, [python, "-S", "-c", "import json"]),
    ]
    by_key: dict[tuple[str, str], latency.Case] = {}
    for kind in KINDS:
        for row in ROWS:
            agent = CLAUDE if row == AGAIN else row
            event = EVENTS[kind][agent]
            ours = "PostToolUseFailure" if kind == FAILED else "PostToolUse"
            case = latency.Case(
                f"{kind} [{row}]",
                hook_argv(agent, event, python),
                home=full,
                env=agent_env[agent],
            )
            if kind in (SHELL, FAILED):
                payload = shell_payload(agent, known, rollouts, failed=kind == FAILED)
                case.check = tool_check(agent, ours, "Bash", known["id"] if kind == FAILED else "")
            elif kind == EDIT:
                payload = edit_payload(agent)
                case.check = tool_check(agent, ours, "Write" if agent == CURSOR else "Edit")
            elif kind == START:
                payload = start_payload(agent)
                session = str(payload.get("session_id") or payload.get("conversation_id"))
                case.prepare, case.check = start_hooks(agent, session)
                case.home, case.persistent = cached, True
            else:
                payload = prompt_payload(agent, start_context)
                case.check = prompt_check(agent)
            case.stdin = json.dumps(payload).encode()
            cases.append(case)
            by_key[kind, row] = case
    return cases, by_key


def start_context_of(cached: Path, python: str, env: dict[str, str]) -> str:
    """The context a cached start hands over (what Gemini's prompts then carry back)."""
    done = subprocess.run(
        hook_argv(CLAUDE, "SessionStart", python),
        input=json.dumps(start_payload(CLAUDE)).encode(),
        capture_output=True,
        env={**env, "ARTIBOT_MEMORY_HOME": str(cached)},
        check=False,
    )
    latency.empty_journal(cached)
    _problem, output = one_object(done.stdout)
    return context_of(CLAUDE, output)


def import_times(
    case: latency.Case, env: dict[str, str], scratch: Path, runs: int
) -> dict[str, tuple[int, int]]:
    """``-X importtime`` of one hook run: module -> (cumulative us, depth), best of ``runs``."""
    best: dict[str, tuple[int, int]] = {}
    home = scratch / "home-importtime"
    for _ in range(runs):
        shutil.rmtree(home, ignore_errors=True)
        if case.home is not None:
            latency.copy_home(case.home, home)
        done = subprocess.run(
            [case.argv[0], "-X", "importtime", *case.argv[1:]],
            input=case.stdin,
            capture_output=True,
            env={**env, **case.env, "ARTIBOT_MEMORY_HOME": str(home)},
            check=False,
        )
        for line in done.stderr.decode(errors="replace").splitlines():
            parts = line.split("|")
            if len(parts) != 3 or not parts[1].strip().isdigit():
                continue
            name = parts[2].rstrip()
            depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
            cumulative = int(parts[1])
            best[name.strip()] = (
                min(best.get(name.strip(), (cumulative, 0))[0], cumulative),
                depth,
            )
    return best


ADAPTER = "artibot_memory.plugin.agents"


def us(times: list[float]) -> str:
    return f"{statistics.median(times) * 1e6:.0f} µs"


def in_process(
    rollouts: dict[str, Path],
    by_key: dict[tuple[str, str], latency.Case],
    env: dict[str, str],
    scratch: Path,
    loops: int,
) -> list[str]:
    """Where an agent's hook may spend more than Claude Code's: the adapter, the rollout read.

    Per case: ``agents.normalize`` in this warm process, and what the hook process imports
    (``-X importtime``, best of a few runs, each on a fresh copy of the home; not for the
    cached start, whose home is used in place).
    """
    from artibot_memory.plugin import agents  # noqa: PLC0415 - the product, in this process

    rows = []
    profile_runs = 2 if loops < 100 else 8
    for kind in KINDS:
        claude_imports: set[str] = set()
        for agent, name in AGENT_NAMES.items():
            case = by_key[kind, agent]
            event = EVENTS[kind][agent]
            times = []
            for _ in range(loops):
                payload = json.loads(case.stdin)
                started = time.perf_counter()
                agents.normalize(agent, event, payload)
                times.append(time.perf_counter() - started)
            if case.persistent:
                rows.append(
                    [
                        kind,
                        name,
                        f"{len(case.stdin):,}",
                        us(times),
                        "-",
                        "-",
                        "(home used in place)",
                    ]
                )
                continue
            imported = import_times(case, env, scratch, profile_runs)
            if agent == CLAUDE:
                claude_imports = set(imported)
            total = sum(cumulative for cumulative, depth in imported.values() if depth == 0)
            beyond = sorted(set(imported) - claude_imports)
            rows.append(
                [
                    kind,
                    name,
                    f"{len(case.stdin):,}",
                    us(times),
                    f"{total / 1000:.1f} ms",
                    f"{imported.get(ADAPTER, (0, 0))[0] / 1000:.2f} ms",
                    ", ".join(f"`{n}`" for n in beyond[:4]) or "none",
                ]
            )
    times = []
    call_id = ROLLOUT_CALLS[FAILED][0]
    for _ in range(loops):
        started = time.perf_counter()
        code = agents.codex_exit_code(str(rollouts[FAILED]), call_id)
        times.append(time.perf_counter() - started)
    size = rollouts[FAILED].stat().st_size
    return [
        "Where an agent's hook could spend more than Claude Code's: `agents.normalize` in one warm "
        f"process (median of {loops} calls, the payload parsed outside the timing), and what the hook "
        f"process imports (`-X importtime`, best of {profile_runs} runs per module, cumulative; the "
        "adapter module is imported by every hook, Claude Code's too: `entry.hook_args` takes "
        "`agent_of` from it):",
        "",
        common.table(
            [
                "case",
                "agent",
                "stdin bytes",
                "normalize",
                "imports, all",
                f"`{ADAPTER}`",
                "modules Claude Code's hook does not import",
            ],
            rows,
        ),
        "",
        f"`agents.codex_exit_code` on the {size / 2**20:.1f} MB rollout (its last "
        f"{agents.ROLLOUT_TAIL // 1024} KiB read, the call's `item_completed` the last line): median "
        f"{statistics.median(times) * 1e6:.0f} µs, p90 {p90(times) * 1e6:.0f} µs (exit code {code}).",
    ]


def spread(by_key: dict[tuple[str, str], latency.Case], rows: tuple[str, ...]) -> str:
    """The lowest and highest median / Claude Code's median of ``rows``, per tool-call case."""
    ratios = [
        common.median(by_key[kind, row].walls) / common.median(by_key[kind, CLAUDE].walls)
        for kind in (SHELL, FAILED, EDIT)
        for row in rows
        if by_key[kind, row].walls and by_key[kind, CLAUDE].walls
    ]
    return f"{min(ratios):.3f}–{max(ratios):.3f}" if ratios else "n/a"


def noise_note(by_key: dict[tuple[str, str], latency.Case], kind: str, ratio: float) -> str:
    """Say so when Claude Code's own second run strays from its first at least as far."""
    again, first = by_key[kind, AGAIN].walls, by_key[kind, CLAUDE].walls
    if not again or not first:
        return ""
    noise = common.median(again) / common.median(first)
    if max(noise, 1 / noise) >= ratio:
        return f"within this run's noise: Claude Code against itself {noise:.3f}"
    return ""


def report(
    cases: list[latency.Case],
    by_key: dict[tuple[str, str], latency.Case],
    args: argparse.Namespace,
    notes: list[str],
    site: str,
) -> tuple[str, bool]:
    base, floor = (common.median(c.walls) if c.walls else math.nan for c in cases[:2])
    rows, failed = [], False
    for kind in KINDS:
        claude = by_key[kind, CLAUDE]
        claude_median = common.median(claude.walls) if claude.walls else math.nan
        against, limit = TARGETS[kind]
        for row, name in ROWS.items():
            case = by_key[kind, row]
            if case.problems:
                failed = True
            if not case.walls:
                rows.append(
                    [
                        kind,
                        name,
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        f"**FAILED**: {'; '.join(case.problems)}",
                    ]
                )
                continue
            wall, high = common.median(case.walls), p90(case.walls)
            reference = base if against == BASE else floor
            ratio = wall / reference
            shown_against = "`python3 -c pass`" if against == BASE else "the floor"
            target = f"<= {limit}x {shown_against}: " + common.verdict(ratio <= limit)
            to_claude = wall / claude_median
            if row == AGAIN:
                target += "; its ratio to Claude Code's median is this run's noise"
            elif row != CLAUDE:
                target += f"; <= {CLAUDE_RATIO}x Claude Code: " + common.verdict(
                    to_claude <= CLAUDE_RATIO, noise_note(by_key, kind, to_claude)
                )
            if case.problems:
                target += f" — **{case.failures} runs FAILED**: {'; '.join(case.problems)}"
            rows.append(
                [
                    kind,
                    name,
                    common.ms(wall),
                    common.ms(high),
                    f"{wall / floor:.2f}x",
                    f"{high / floor:.2f}x",
                    f"{wall / base:.2f}x",
                    f"{to_claude:.3f}",
                    target,
                ]
            )
    commands = "; ".join(
        f"{AGENT_NAMES[agent]} `{shown_command(by_key[SHELL, agent].argv)}`"
        for agent in AGENT_NAMES
    )
    body = [
        f"Interpreter: the CPython {sys.version.split()[0]} running the benchmark (its real binary). "
        f"{args.runs} timed runs per case after {args.warmup} warm-up runs, all {len(cases)} cases round-robin in one loop "
        "(the first case rotating each round); wall = the whole hook process as the agent sees it (spawn to exit), "
        "p90 nearest-rank. Every run but the cached start's on a fresh copy of the seeded home (500 commands, 200 errors "
        "with fixes, 300 preferences, 2,000 contexts over 10 projects; stores hard-linked so the index stays in step). "
        f"Floor `{FLOOR}`: {common.ms(floor)} median; `python3 -c pass`: {common.ms(base)}. {site}: "
        "hook_latency.py's 1.5x `python3 -c pass` is only as hard to meet as that baseline is slow; the "
        "floor is the figure to compare.",
        "",
        f"Commands, from each agent's hook configuration (the per-tool-call one shown): {commands}.",
        "",
        common.table(
            [
                "case",
                "agent",
                "median",
                "p90",
                "median / floor",
                "p90 / floor median",
                "median / `python3 -c pass`",
                "/ Claude Code's median",
                "target",
            ],
            rows,
        ),
        "",
        f"Per tool call, the other agents' medians are {spread(by_key, (CODEX, GEMINI, CURSOR))} of Claude Code's; "
        f"Claude Code's own hook run again, {spread(by_key, (AGAIN,))} (the noise of this run). The prompt runs on a "
        "fresh copy of the home each time, as in hook_compare.py (prompt_latency.py times it on a home used in place).",
        "",
        "Cases: shell command = `pytest` that passed (Codex: `Bash`, its exit code read from the rollout; Gemini: "
        "`run_shell_command`; Cursor: `Shell`, its `tool_output` shape assumed: `{output, exitCode}`); failed = the "
        "seeded known error's command, its fix answered in the agent's field (Codex: `PostToolUse` + the rollout's "
        "`exit_code` 1; Gemini: `AfterTool` with `Exit Code: 1`; Cursor: `postToolUseFailure` whose `error_message` holds "
        "the error text, as the tests send it: the documented example says only `Command failed with exit code 1`, "
        "which would match no stored fix); file edit = the same one-line edit (Claude Code `Edit`, Codex `apply_patch`, "
        "Gemini `replace`, Cursor `Write`, its one documented edit). Every run was checked: exit 0, nothing on stderr "
        "or in hooks.log, stdout empty or one JSON object, the call journaled with its agent, the fix answered, "
        "the start served from its cache unchanged.",
        "",
        *notes,
    ]
    return "\n".join(body), failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="timed runs per case (default 40)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds first (default 3)")
    parser.add_argument(
        "--smoke", action="store_true", help="one round, no warm-up, nothing written"
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.runs, args.warmup = 1, 0
    python = latency.real_python(None)
    # Seed and time in process with this checkout's package, not whichever one is installed.
    sys.path.insert(0, str(common.ROOT))
    latency.become_subreaper()
    with tempfile.TemporaryDirectory(prefix="agent-latency-") as scratch_name:
        scratch = Path(scratch_name)
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env["HOME"] = str(scratch / "user")  # Gemini's and Cursor's plugin data: not this machine's
        env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
        (scratch / "user").mkdir()
        agent_env = {}
        for agent, names in AGENT_ENV.items():
            data = scratch / f"plugin-data-{agent}"
            data.mkdir()
            agent_env[agent] = {
                name: value.format(root=common.ROOT, data=data, project=latency.PROJECT)
                for name, value in names.items()
            }
        subprocess.run(
            [python, "-m", "compileall", "-q", str(common.ROOT / "artibot_memory")],
            env=env,
            check=True,
        )
        print("seeding a home at full caps ...", flush=True)
        full, _journal, _counts, known = latency.seed_homes(scratch)
        cached_root = scratch / "cached"
        cached_root.mkdir()
        start_env = {**env, **agent_env[CLAUDE]}
        cached = latency.seed_cached_home(
            full, cached_root, hook_argv(CLAUDE, "SessionStart", python), start_env
        )
        start_context = start_context_of(cached, python, start_env)
        rollouts = {}
        for kind, (call_id, code) in ROLLOUT_CALLS.items():
            rollouts[kind] = scratch / f"rollout-{call_id}.jsonl"
            codex_rollout(rollouts[kind], call_id, *shell_work(known, failed=code != 0), code)
        cases, by_key = build_cases(
            python,
            homes=(full, cached),
            known=known,
            rollouts=rollouts,
            start_context=start_context,
            agent_env=agent_env,
        )
        print(
            f"{len(cases)} cases x ({args.warmup} warm-up + {args.runs} timed runs), round-robin ...",
            flush=True,
        )
        site = latency.site_cost(python, env)
        latency.measure(cases, env, args.runs, args.warmup, scratch)
        try:
            notes = in_process(rollouts, by_key, env, scratch, 20 if args.smoke else 500)
        except Exception as exc:  # noqa: BLE001 - the product may be mid-edit; keep the timings
            notes = [
                f"The in-process timings failed ({type(exc).__name__}: {exc}): the product was being edited?"
            ]
        latency.wait_for_detached(latency.WORKER_TIMEOUT)
    body, failed = report(cases, by_key, args, notes, site)
    print(body)
    if failed:
        broken = [f"{c.name}: {'; '.join(c.problems)}" for c in cases if c.problems]
        print(
            "\nFAILED: hook runs did not do their work:\n  " + "\n  ".join(broken), file=sys.stderr
        )
    if not (args.no_write or args.smoke):
        common.write_section(SECTION, TITLE, body)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
