"""A whole agent session with things kept out, replayed through the hooks (privacy tests).

One session, in English and Korean, as people type it: prompts that state a preference
next to a ``<private>`` block, a preference stated only inside one, a Bash call, a failure,
an edit, a compaction and the end, whose transcript holds a private block in every block
type (the user's text, the assistant's, thinking, a tool_use input, a tool_result). Each
block holds its own canary, generated from a seed, so a test can tell which path leaked.

Two ways to replay it: :func:`in_process` (``entry.run_hook`` in the test's process, the
code a hook process runs) and :func:`in_processes` (real ``bin/artibot-memory`` processes,
the per-tool-call ones under ``python3 -S`` as hooks/hooks.json runs them, SessionEnd's
detached worker waited for).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from test_entry import run_entry
from workers import wait_for_workers

from artibot_memory.plugin import entry, fast

PLACES = ("harbor", "lantern", "meadow", "quarry", "orchard", "summit", "delta", "cobalt")
CLIENTS = ("Hanbit Logistics", "Norrland Freight", "Seoyeon Bio", "Alder & Finch", "Mirae Card")
Event = tuple[str, dict[str, Any]]


def canaries(count: int = 14, seed: str = "private-canaries") -> list[str]:
    """Distinct tokens that look like what people keep private (a client's code name, a ref)."""
    chooser = random.Random(seed)  # noqa: S311 - test data, not a secret
    found: list[str] = []
    while len(found) < count:
        token = f"{chooser.choice(PLACES)}-{chooser.randrange(1000, 9999)}"
        if token not in found:
            found.append(token)
    return found


@dataclass(frozen=True)
class Session:
    """The session's payloads and transcript, for one project folder."""

    cwd: str
    secrets: list[str]  # every canary, each inside a <private> block somewhere
    events: list[Event]
    transcript: Path


def build(cwd: Path, transcripts: Path, session_id: str = "private-session-1") -> Session:
    """The session in ``cwd``, its transcript written under ``transcripts``."""
    c = canaries()
    client = random.Random(session_id).choice(CLIENTS)  # noqa: S311 - test data
    transcript = transcripts / f"{session_id}.jsonl"
    base = {"session_id": session_id, "cwd": str(cwd), "transcript_path": str(transcript)}
    said_about = f"The client is {client}, code name {c[0]}; never name them in commits."
    pnpm = "From now on always use pnpm to install packages."
    prompts = [
        f"{pnpm} <private>{said_about}</private> Now fix the failing billing test.",
        f"앞으로 커밋 메시지는 영어로 써줘. <PRIVATE>고객사 코드는 {c[1]}이야</PRIVATE> 그리고",
        f"<Private>From now on always use yarn, the registry token is {c[2]}</Private>",
    ]
    events: list[Event] = [("SessionStart", {**base, "source": "startup"})]
    events += [
        ("UserPromptSubmit", {**base, "prompt": text, "prompt_id": f"p{number}"})
        for number, text in enumerate(prompts)
    ]
    events += tool_calls(base, cwd, c)
    events += [
        ("PreCompact", {**base, "trigger": "auto"}),
        ("SessionEnd", {**base, "reason": "other"}),
    ]
    write_transcript(transcript, cwd, session_id, prompts, c[7:])
    return Session(str(cwd), c, events, transcript)


def tool_calls(base: dict[str, Any], cwd: Path, c: list[str]) -> list[Event]:
    """A Bash call, a failed one and an edit, each with a private block (canaries 3 to 6)."""
    curl = f"curl -s -H 'X-Client: <private>{c[3]}</private>' https://api.example.com/health"
    bash = {
        **base,
        "tool_name": "Bash",
        "tool_use_id": "toolu_01",
        "tool_input": {"command": curl, "description": "Check the API"},
        "tool_response": {"stdout": f"ok <private>tenant {c[4]}</private>", "stderr": ""},
    }
    failure = {
        **base,
        "tool_name": "Bash",
        "tool_use_id": "toolu_02",
        "tool_input": {"command": "pytest -q tests/test_billing.py"},
        "error": f"Exit code 1\nAssertionError: invoice owner <private>{c[5]}</private> != None",
        "is_interrupt": False,
    }
    edit = {
        **base,
        "tool_name": "Edit",
        "tool_use_id": "toolu_03",
        "tool_input": {
            "file_path": f"{cwd}/src/billing.py",
            "old_string": "OWNER = None",
            "new_string": f"OWNER = '<private>{c[6]}</private>'",
        },
        "tool_response": {"filePath": f"{cwd}/src/billing.py"},
    }
    return [("PostToolUse", bash), ("PostToolUseFailure", failure), ("PostToolUse", edit)]


def write_transcript(
    path: Path, cwd: Path, session_id: str, prompts: list[str], c: list[str]
) -> None:
    """The transcript Claude Code would have written: a private block in every block type."""
    rows: list[tuple[str, Any, Any]] = [("user", text, None) for text in prompts]
    thinking = {"type": "thinking", "thinking": f"<private>{c[0]}</private> is the tenant"}
    said = {"type": "text", "text": f"I won't name <private>{c[1]}</private>. We'll go with pnpm."}
    grep = f"grep -rn '<private>{c[2]}</private>' src"
    use = {"type": "tool_use", "id": "toolu_11", "name": "Bash", "input": {"command": grep}}
    rows.append(("assistant", [thinking, said, use], None))
    found = f"src/billing.py:3: OWNER = '<private>{c[3]}</private>'"
    result = {"type": "tool_result", "tool_use_id": "toolu_11", "is_error": False, "content": found}
    rows.append(("user", [result], {"stdout": found, "stderr": ""}))
    decided = f"결정: 빌링은 <private>{c[4]}</private> 없이 가기로 했다"
    rows.append(("user", [{"type": "text", "text": decided}], None))
    rows.append(("user", f"<private>{c[5]} and {c[6]}", None))  # never closed: hidden to the end
    lines = []
    for step, (role, content, outcome) in enumerate(rows):
        row: dict[str, Any] = {
            "sessionId": session_id,
            "cwd": str(cwd),
            "gitBranch": "main",
            "timestamp": f"2026-01-05T09:{step:02d}:00.000Z",
            "type": role,
            "uuid": f"u{step}",
            "message": {"role": role, "content": content},
        }
        if outcome is not None:
            row["toolUseResult"] = outcome
        lines.append(json.dumps(row, ensure_ascii=False))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def in_process(session: Session) -> None:
    """Run every event through ``entry.run_hook`` here (read what they printed with capsys).

    SessionEnd and PreCompact only journal here (their worker is the caller's ``ingest``):
    ``fast.start_worker`` must be stubbed by the caller.
    """
    for event, payload in session.events:
        assert entry.run_hook(event, json.dumps(payload).encode()) == 0


def in_processes(session: Session, home: Path) -> list[str]:
    """Run every event as a real hook process (fast events under -S); wait for the worker."""
    printed = []
    for event, payload in session.events:
        flags = ["-S"] if event in fast.FAST_EVENTS else []
        done = run_entry(event, json.dumps(payload).encode(), *flags)
        assert (done.returncode, done.stderr) == (0, b"")
        printed.append(done.stdout.decode())
    wait_for_workers(home)
    return printed


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes, by its path relative to ``folder``."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def holding(files: dict[str, bytes], needles: list[str], *outputs: str) -> dict[str, list[str]]:
    """Map each needle found (case-insensitively) to the files or outputs that hold it."""
    blobs = {name: data.lower() for name, data in files.items()}
    blobs.update({f"<output {i}>": text.lower().encode() for i, text in enumerate(outputs)})
    found: dict[str, list[str]] = {}
    for needle in needles:
        names = [name for name, data in blobs.items() if needle.lower().encode() in data]
        if names:
            found[needle] = names
    return found
