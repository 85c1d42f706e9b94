"""No secret of the corpus reaches disk, whichever way it comes in (DESIGN.md, non-negotiable 1).

Every secret of ``fixtures/secrets/secrets.jsonl`` goes through each capture path, then
the journal is ingested (SessionStart and ``artibot-memory ingest``) and exported; then
every byte of every file under the memory home (stores, backups, journal and its takes,
logs, locks) is searched for every ``secret``, raw and as JSON escapes it.

Two levels: one secret per payload through ``entry.run_hook`` / ``cli.main`` in this
process (the code a hook process runs, minus interpreter start-up), so a redaction that
only fails alone is seen; and a few dozen real ``bin/artibot-memory`` processes with the
secrets batched per payload, for the process path itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from workers import wait_for_workers

from artibot_memory import lifecycle
from artibot_memory.capture import hooklog, journal
from artibot_memory.cli.app import main
from artibot_memory.plugin import entry, fast

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "bin" / "artibot-memory"
CORPUS = Path(__file__).parent / "fixtures" / "secrets" / "secrets.jsonl"
SECRETS: list[dict[str, str]] = [
    json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()
]
TYPES = ("preference", "context", "command", "error")
BATCH_CHARS = 1_800  # under the journal's 2,000-character field limit: no secret is cut away
CWD = "/src/shop"


@pytest.fixture(autouse=True)
def no_detached_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process SessionEnd only journals (the tests ingest); processes start the worker."""
    monkeypatch.setattr(fast, "start_worker", lambda: None)


def needles(secret: str) -> set[bytes]:
    """The byte strings a leaked ``secret`` could appear as in a UTF-8 or JSON file.

    Lower-cased, and searched in lower-cased files: a tag keeps a secret lower-cased.
    """
    forms = {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}
    return {form.lower().encode("utf-8") for form in forms}


def leaks(home: Path, *outputs: str) -> dict[str, list[str]]:
    """Map each leaking kind to the files (or ``<output>``) holding one of its secrets."""
    files = [p for p in home.rglob("*") if p.is_file() and not p.is_symlink()]
    blobs = {str(p.relative_to(home)): p.read_bytes().lower() for p in files}
    blobs.update({f"<output {i}>": text.lower().encode() for i, text in enumerate(outputs)})
    found: dict[str, set[str]] = {}
    for row in SECRETS:
        forms = needles(row["secret"])
        for name, data in blobs.items():
            if any(form in data for form in forms):
                found.setdefault(row["kind"], set()).add(name)
    return {kind: sorted(names) for kind, names in sorted(found.items())}


def base(number: int) -> dict[str, Any]:
    return {"session_id": f"secret-session-{number}", "cwd": CWD, "transcript_path": "/nonexistent"}


def bash(number: int, command: str) -> dict[str, Any]:
    return {
        **base(number),
        "tool_name": "Bash",
        "tool_use_id": f"toolu_{number}",
        "tool_input": {"command": command},
    }


def post_tool_use(number: int, text: str) -> tuple[str, dict[str, Any]]:
    response = {"stdout": f"output:\n{text}", "stderr": "", "interrupted": False}
    return "PostToolUse", {**bash(number, text), "tool_response": response}


def post_tool_use_failure(number: int, text: str) -> tuple[str, dict[str, Any]]:
    return "PostToolUseFailure", {
        **bash(number, text),
        "error": f"Exit code 1\n{text}",
        "is_interrupt": False,
    }


def prompt(number: int, text: str, *, remember: bool) -> tuple[str, dict[str, Any]]:
    words = f"Remember that {text}" if remember else text
    return "UserPromptSubmit", {**base(number), "prompt": words}


def transcript_rows(number: int, texts: list[str]) -> Iterator[dict[str, Any]]:
    """A session that asks with each text, runs it in Bash, fails with it, then succeeds."""
    envelope = {"sessionId": f"secret-session-{number}", "cwd": CWD, "gitBranch": "main"}
    for i, text in enumerate(texts):
        row = {**envelope, "timestamp": f"2026-01-01T10:{i % 60:02d}:00.000Z"}
        yield {**row, "type": "user", "uuid": f"p{i}", "message": {"role": "user", "content": text}}
        for attempt, (failed, output) in enumerate([(True, f"Exit code 1\n{text}"), (False, text)]):
            use = f"toolu_{number}_{i}_{attempt}"
            call = {"type": "tool_use", "id": use, "name": "Bash", "input": {"command": text}}
            result = {
                "type": "tool_result",
                "tool_use_id": use,
                "is_error": failed,
                "content": output,
            }
            outcome = f"Error: {output}" if failed else {"stdout": output, "stderr": ""}
            yield {**row, "type": "assistant", "message": {"role": "assistant", "content": [call]}}
            yield {
                **row,
                "type": "user",
                "message": {"role": "user", "content": [result]},
                "toolUseResult": outcome,
            }


def session_end(folder: Path, number: int, texts: list[str]) -> tuple[str, dict[str, Any]]:
    path = folder / f"secret-session-{number}.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in transcript_rows(number, texts)))
    return "SessionEnd", {**base(number), "transcript_path": str(path), "reason": "other"}


def import_lines(*, full_records: bool = False, project: bool = False) -> list[str]:
    """One import line per secret in every field a short record has; full records put it
    in every free-text field of a memory too."""
    lines = []
    for number, row in enumerate(SECRETS):
        memory_type, text = TYPES[number % len(TYPES)], row["text"]
        record: dict[str, Any] = {
            "type": memory_type,
            "text": text,
            "key": text,
            "tags": [text],
            "resolution": text,
        }
        if project:
            record["project"] = text
        if full_records:
            stamp = "2026-11-01T00:00:00Z"
            record |= {
                "id": f"imp-{number}",
                "why": text,
                "project": text,
                "details": {"note": text},
                "source": {"channel": "import", "command": text},
                "related": [text],
                "evidence": [{"at": stamp, "note": text}],
                "created_at": stamp,
                "updated_at": stamp,
                "last_seen": stamp,
            }
        lines.append(json.dumps(record))
    return lines


# ---- one secret per payload, in this process


def run_in_process(event: str, payload: dict[str, Any]) -> None:
    assert entry.run_hook(event, json.dumps(payload).encode()) == 0


def feed_fast_hooks(_folder: Path) -> None:
    for number, row in enumerate(SECRETS):
        run_in_process(*post_tool_use(number, row["text"]))
        run_in_process(*post_tool_use_failure(number, row["text"]))


def feed_prompts(_folder: Path) -> None:
    for number, row in enumerate(SECRETS):
        run_in_process(*prompt(number, row["text"], remember=True))
        run_in_process(*prompt(number, row["text"], remember=False))
        run_in_process(*prompt(number, f"/deploy {row['text']}", remember=False))


def feed_deferred_events(folder: Path) -> None:
    """What the fast path journals when the full path cannot run (no dependencies)."""
    for number, row in enumerate(SECRETS):
        fast.defer(*prompt(number, row["text"], remember=True))
        fast.defer(*session_end(folder, number, [row["text"]]))


def feed_transcripts(folder: Path) -> None:
    for number, row in enumerate(SECRETS):
        run_in_process(*session_end(folder, number, [row["text"]]))


def feed_cli_save(_folder: Path) -> None:
    for number, row in enumerate(SECRETS):
        text = row["text"]
        assert main(["save", TYPES[number % len(TYPES)], text]) == 0
        assert main(["save", "preference", f"setting {number}", "--key", text, "--tag", text]) == 0


def feed_cli_import(folder: Path) -> None:
    path = folder / "short.jsonl"
    path.write_text("\n".join(import_lines()) + "\n")
    assert main(["import", str(path)]) == 0


def feed_cli_import_project(folder: Path) -> None:
    path = folder / "short-with-project.jsonl"
    path.write_text("\n".join(import_lines(project=True)) + "\n")
    assert main(["import", str(path)]) == 0


def feed_cli_import_full_records(folder: Path) -> None:
    path = folder / "full.jsonl"
    path.write_text("\n".join(import_lines(full_records=True)) + "\n")
    assert main(["import", str(path)]) == 0


def feed_failing_hooks(_folder: Path) -> None:
    """A handler whose exception message carries the payload: the log must not."""

    def broken(payload: dict[str, Any]) -> None:
        raise ValueError(f"cannot handle {payload.get('prompt')}")

    saved = lifecycle.HANDLERS["UserPromptSubmit"]
    lifecycle.HANDLERS["UserPromptSubmit"] = broken
    try:
        for number, row in enumerate(SECRETS):
            run_in_process(*prompt(number, row["text"], remember=False))
            hooklog.write_log(f"UserPromptSubmit: stderr: {row['text']}")
    finally:
        lifecycle.HANDLERS["UserPromptSubmit"] = saved


CAPTURE_PATHS: list[Any] = [
    pytest.param(feed_fast_hooks, id="PostToolUse-and-PostToolUseFailure"),
    pytest.param(feed_prompts, id="UserPromptSubmit"),
    pytest.param(feed_deferred_events, id="deferred-prompt-and-session-end"),
    pytest.param(feed_transcripts, id="SessionEnd-transcript"),
    pytest.param(feed_cli_save, id="cli-save"),
    pytest.param(feed_cli_import, id="cli-import"),
    pytest.param(
        feed_cli_import_project,
        id="cli-import-project-field",
    ),
    pytest.param(
        feed_cli_import_full_records,
        id="cli-import-full-records",
    ),
    pytest.param(feed_failing_hooks, id="hook-log"),
]


@pytest.mark.parametrize("feed", CAPTURE_PATHS)
def test_no_secret_reaches_disk_one_payload_at_a_time(
    memory_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    feed: Callable[[Path], None],
) -> None:
    feed(tmp_path)
    run_in_process("SessionStart", {**base(0), "source": "startup"})
    assert main(["ingest"]) == 0
    capsys.readouterr()
    assert main(["export"]) == 0
    exported, _ = capsys.readouterr()
    assert len(exported.splitlines()) >= 0.8 * len(SECRETS) or feed is feed_failing_hooks
    assert leaks(memory_home, exported) == {}


# ---- batched, through real processes


def batches(limit: int = BATCH_CHARS) -> list[list[str]]:
    """Every secret's text, packed into lists whose joined length stays under ``limit``."""
    packed: list[list[str]] = [[]]
    for row in SECRETS:
        if packed[-1] and len("\n".join([*packed[-1], row["text"]])) > limit:
            packed.append([])
        packed[-1].append(row["text"])
    return packed


def spawn(argv: list[str], stdin: bytes = b"") -> subprocess.Popen[bytes]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CLAUDE_PLUGIN_DATA", "ARTIBOT_MEMORY_RELAYED")
    }
    process = subprocess.Popen(  # noqa: S603 - our own entry script
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert process.stdin is not None  # for mypy: it is a pipe
    process.stdin.write(stdin)
    process.stdin.close()
    return process


def hook_process(event: str, payload: dict[str, Any]) -> subprocess.Popen[bytes]:
    flags = ["-S"] if event in fast.FAST_EVENTS else []
    return spawn([sys.executable, *flags, str(ENTRY), "hook", event], json.dumps(payload).encode())


def finish(processes: list[subprocess.Popen[bytes]]) -> list[str]:
    """Wait for every process; return their stdouts; each must have exited 0, silent on stderr."""
    outputs = []
    for process in processes:
        assert process.stdout is not None  # for mypy: pipes, as spawn opens them
        assert process.stderr is not None
        with process.stdout, process.stderr:
            out, err = process.stdout.read(), process.stderr.read()
        assert (process.wait(timeout=120), err) == (0, b"")
        outputs.append(out.decode())
    return outputs


def test_no_secret_reaches_disk_through_real_hook_and_cli_processes(
    memory_home: Path, tmp_path: Path
) -> None:
    packed = batches()
    fast = [hook_process(*post_tool_use(n, "\n".join(b))) for n, b in enumerate(packed)]
    fast += [hook_process(*post_tool_use_failure(n, "\n".join(b))) for n, b in enumerate(packed)]
    finish(fast)
    small = batches(limit=400)
    full = [hook_process(*prompt(n, " ".join(b), remember=True)) for n, b in enumerate(small[:6])]
    full += [
        hook_process(*session_end(tmp_path, n, b)) for n, b in enumerate(batches(limit=600)[:6])
    ]
    finish(full)
    wait_for_workers(memory_home)
    import_file = tmp_path / "all.jsonl"
    import_file.write_text("\n".join(import_lines()) + "\n")
    finish([spawn([sys.executable, str(ENTRY), "import", str(import_file)])])
    finish([hook_process("SessionStart", {**base(0), "source": "startup"})])
    finish([spawn([sys.executable, str(ENTRY), "ingest"])])
    exported = finish([spawn([sys.executable, str(ENTRY), "export"])])
    assert journal.JOURNAL_NAME not in os.listdir(memory_home)
    assert exported[0].count('"session-summary"') >= 6
    assert leaks(memory_home, *exported) == {}


def test_a_hook_failure_in_a_real_process_logs_no_secret(memory_home: Path) -> None:
    memory_home.mkdir(mode=0o700)
    (memory_home / "user-preferences.json").write_bytes(b"{ broken")
    finish(
        [
            hook_process(*prompt(n, " ".join(b), remember=True))
            for n, b in enumerate(batches(limit=400)[:4])
        ]
    )
    assert "CorruptStoreError" in (memory_home / "logs" / "hooks.log").read_text()
    assert leaks(memory_home) == {}
