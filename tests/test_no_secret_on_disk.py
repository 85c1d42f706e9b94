"""No secret of the corpus reaches disk, whichever way it comes in (DESIGN.md, non-negotiable 1).

The corpus is generated (``tests/secretcorpus.py``): several hundred fake secrets of the
providers' formats, each inside the text of a carrier an agent session produces. Every text
goes through the cheap capture paths (PostToolUse command and output, PostToolUseFailure,
prompts, CLI import, the hook log) and through a SessionEnd transcript that holds it in
every block type; the paths that save a memory per call (CLI save, deferred events) take
the texts of their carriers. Then the journal is ingested (SessionStart and
``artibot-memory ingest``) and exported, and everything the product wrote is searched: every
file under the test's folder except the inputs the test wrote (the memory home with its
stores, backups, journal, logs and locks; the plugin data folder; Claude Code's config
folder), what the hooks and the CLI printed, and the export. Each secret is looked for as
is, JSON-escaped, in base64 (standard and URL-safe), and as each 16-character piece of
those that no other secret shares (vendor constants such as the opening of every AWS
session token are not a leak), case-insensitively: a tag keeps a secret lower-cased.

Two levels: one secret per payload through ``entry.run_hook`` / ``cli.main`` in this
process (the code a hook process runs, minus interpreter start-up), so a redaction that
only fails alone is seen; and a few dozen real ``bin/artibot-memory`` processes with the
secrets batched per payload, for the process path itself. The rows are split in slices
so that no store reaches its cap: an evicted memory would hide its leak.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import secretcorpus
from workers import wait_for_workers

from artibot_memory import lifecycle
from artibot_memory.capture import hooklog, journal
from artibot_memory.cli.app import main
from artibot_memory.plugin import entry, fast

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "bin" / "artibot-memory"
SECRETS = secretcorpus.secrets()
SLICES = 4  # each slice stays under the error store's cap of 200
TYPES = ("preference", "context", "command", "error")
BATCH_CHARS = 1_800  # under the journal's 2,000-character field limit: no secret is cut away
CWD = "/src/shop"
INPUTS = "inputs"  # the folder of what the test feeds (transcripts, import files): not searched
TRANSCRIPT_CARRIERS = tuple(c for c in secretcorpus.CARRIERS if c.startswith("transcript-"))
# A memory per call: only the texts people save this way, and those of prompts.
SAVED_CARRIERS = ("cli-save", "import-record", "prompt-en", "prompt-ko", "transcript-user-text")
Row = dict[str, str]


@pytest.fixture(autouse=True)
def no_detached_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process SessionEnd only journals (the tests ingest); processes start the worker."""
    monkeypatch.setattr(fast, "start_worker", lambda: None)


# ---- the search --------------------------------------------------------------------------


class Needles:
    """Every form of every secret, indexed so that each file is read in one pass.

    A 16-byte piece is found by looking up the 8-byte gram at every 8th offset of the file
    (any occurrence of a piece covers one such offset with a gram of its own), then
    checking the 9 windows of 16 bytes around each gram that matched.
    """

    def __init__(self, rows: list[Row]) -> None:
        self.kinds = [row["kind"] for row in rows]
        self.pieces: dict[bytes, int] = {}
        self.short: list[tuple[bytes, int]] = []
        for number, row in enumerate(rows):
            for piece in secretcorpus.pieces(row["secret"]):
                self.pieces[piece.encode()] = number
            for form in secretcorpus.forms(row["secret"]):
                if len(form) < secretcorpus.FRAGMENT:
                    self.short.append((form.lower().encode(), number))
        self.grams = {piece[i : i + 8] for piece in self.pieces for i in range(9)}

    def found(self, data: bytes) -> set[int]:
        """The numbers of the rows whose secret ``data`` (lower-cased) holds a form of."""
        hits: set[int] = set()
        for start in range(0, len(data) - 7, 8):
            if data[start : start + 8] in self.grams:
                for left in range(max(0, start - 8), start + 1):
                    number = self.pieces.get(data[left : left + 16])
                    if number is not None:
                        hits.add(number)
        hits.update(number for needle, number in self.short if needle in data)
        return hits


NEEDLES = Needles(SECRETS)


def written_files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` but the test's inputs, by its path, lower-cased."""
    files = [p for p in root.rglob("*") if p.is_file() and not p.is_symlink()]
    kept = [p for p in files if p.relative_to(root).parts[0] != INPUTS]
    return {str(p.relative_to(root)): p.read_bytes().lower() for p in kept}


def leaks(root: Path, *outputs: str) -> dict[str, list[str]]:
    """Map each leaking kind to the files (or ``<output N>``) holding one of its secrets."""
    blobs = written_files(root)
    blobs.update({f"<output {i}>": text.lower().encode() for i, text in enumerate(outputs)})
    found: dict[str, set[str]] = {}
    for name, data in blobs.items():
        for number in NEEDLES.found(data):
            found.setdefault(NEEDLES.kinds[number], set()).add(name)
    return {kind: sorted(names) for kind, names in sorted(found.items())}


def assert_no_leak(root: Path, *outputs: str) -> None:
    found = leaks(root, *outputs)
    listing = "\n".join(f"  {kind}: {', '.join(names)}" for kind, names in found.items())
    assert not found, f"secrets of {len(found)} kinds reached disk or output:\n{listing}"


def test_the_search_finds_every_form_of_a_secret_and_nothing_else(tmp_path: Path) -> None:
    long, short = SECRETS[0], next(row for row in SECRETS if len(row["secret"]) < 16)
    samples = {
        "raw.txt": f"x {long['secret']} y",
        "piece.txt": "...." + secretcorpus.fragments(long["secret"])[-1].upper() + "....",
        "b64.txt": "k=" + base64.urlsafe_b64encode(long["secret"].encode()).decode(),
        "json.json": json.dumps({"t": short["text"]}),
        "short.txt": f"pw {short['secret']}",
        f"{INPUTS}/fed.txt": long["text"],
        "clean.txt": "\n".join(row["text"] for row in secretcorpus.benign()),
    }
    for name, text in samples.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    assert leaks(tmp_path, "nothing", f"<{short['secret']}>") == {
        long["kind"]: ["b64.txt", "piece.txt", "raw.txt"],
        short["kind"]: ["<output 1>", "json.json", "short.txt"],
    }


# ---- payloads ----------------------------------------------------------------------------


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


def _tool_use(use: str, name: str, tool_input: dict[str, str]) -> dict[str, Any]:
    return {"type": "tool_use", "id": use, "name": name, "input": tool_input}


def _result(use: str, content: object, *, failed: bool) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": use, "is_error": failed, "content": content}


def session_turns(prefix: str, i: int, text: str) -> Iterator[tuple[str, list[Any] | str, Any]]:
    """(role, content, toolUseResult) of one exchange holding ``text`` in every block type.

    The user asks with it (a string, or a list of text blocks); the assistant thinks it,
    says it, runs it and fails; after the failure it says it again (what fixed the error
    is read there), writes it to a file, reads a list result back, and runs it again.
    """
    failing, writing, fixing = (f"{prefix}_{i}_{step}" for step in ("fail", "write", "fix"))
    asked: list[Any] | str = text if i % 2 == 0 else [{"type": "text", "text": text}]
    thinking = {"type": "thinking", "thinking": text, "signature": "EqQBCkYIBxgCKkB"}
    said = {"type": "text", "text": text}
    yield "user", asked, None
    yield "assistant", [thinking, said, _tool_use(failing, "Bash", {"command": text})], None
    error = f"Exit code 1\n{text}"
    yield "user", [_result(failing, error, failed=True)], f"Error: {error}"
    write = _tool_use(writing, "Write", {"file_path": f"{CWD}/.env", "content": text})
    yield "assistant", [said, write], None
    listed = [{"type": "text", "text": text}]
    created = {"type": "create", "filePath": f"{CWD}/.env", "content": text}
    yield "user", [_result(writing, listed, failed=False)], created
    yield "assistant", [thinking, _tool_use(fixing, "Bash", {"command": text})], None
    yield "user", [_result(fixing, text, failed=False)], {"stdout": text, "stderr": ""}


def transcript_rows(number: int, texts: list[str]) -> Iterator[dict[str, Any]]:
    """A session that holds each text in every block type a transcript has."""
    envelope = {"sessionId": f"secret-session-{number}", "cwd": CWD, "gitBranch": "main"}
    for i, text in enumerate(texts):
        turns = session_turns(f"toolu_{number}", i, text)
        for step, (role, content, outcome) in enumerate(turns):
            row: dict[str, Any] = {
                **envelope,
                "timestamp": f"2026-01-01T10:{i % 60:02d}:{step:02d}.000Z",
                "type": role,
                "uuid": f"u{number}-{i}-{step}",
                "message": {"role": role, "content": content},
            }
            if outcome is not None:
                row["toolUseResult"] = outcome
            yield row


def session_end(folder: Path, number: int, texts: list[str]) -> tuple[str, dict[str, Any]]:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"secret-session-{number}.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in transcript_rows(number, texts)))
    return "SessionEnd", {**base(number), "transcript_path": str(path), "reason": "other"}


def import_lines(
    rows: list[Row], *, full_records: bool = False, project: bool = False
) -> list[str]:
    """One import line per secret in every field a short record has; full records put it
    in every free-text field of a memory too."""
    lines = []
    for number, row in enumerate(rows):
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


# ---- one secret per payload, in this process ---------------------------------------------
# Each feeder takes its slice of the corpus and the inputs folder, and returns how many
# memories its path should have stored at least (0: the path stores little on purpose).


def run_in_process(event: str, payload: dict[str, Any]) -> None:
    assert entry.run_hook(event, json.dumps(payload).encode()) == 0


def feed_tool_hooks(rows: list[Row], _inputs: Path) -> int:
    for number, row in enumerate(rows):
        run_in_process(*post_tool_use(number, row["text"]))
        run_in_process(*post_tool_use_failure(number, row["text"]))
    return len(rows)


def feed_prompts(rows: list[Row], _inputs: Path) -> int:
    """A prompt's sentence that held a secret is not kept at all (capture.prompts)."""
    for number, row in enumerate(rows):
        run_in_process(*prompt(number, row["text"], remember=True))
        run_in_process(*prompt(number, row["text"], remember=False))
        run_in_process(*prompt(number, f"/deploy {row['text']}", remember=False))
    return 0


def feed_deferred_events(rows: list[Row], inputs: Path) -> int:
    """What the fast path journals when the full path cannot run (no dependencies)."""
    sessions = 0
    for number, row in enumerate(rows):
        fast.defer(*prompt(number, row["text"], remember=True))
        if row["carrier"] in TRANSCRIPT_CARRIERS:
            fast.defer(*session_end(inputs, number, [row["text"]]))
            sessions += 1
    return sessions


def feed_transcripts(rows: list[Row], inputs: Path) -> int:
    for number, row in enumerate(rows):
        run_in_process(*session_end(inputs, number, [row["text"]]))
    return len(rows)


def feed_cli_save(rows: list[Row], _inputs: Path) -> int:
    saved = [row for row in rows if row["carrier"] in SAVED_CARRIERS]
    for number, row in enumerate(saved):
        text = row["text"]
        assert main(["save", TYPES[number % len(TYPES)], "--", text]) == 0
        assert (
            main(["save", "preference", f"setting {number}", f"--key={text}", f"--tag={text}"]) == 0
        )
    return len(saved)


def feed_cli_import(rows: list[Row], inputs: Path) -> int:
    inputs.mkdir(parents=True, exist_ok=True)
    path = inputs / "short.jsonl"
    path.write_text("\n".join(import_lines(rows)) + "\n")
    assert main(["import", str(path)]) == 0
    return len(rows)


def feed_cli_import_project(rows: list[Row], inputs: Path) -> int:
    inputs.mkdir(parents=True, exist_ok=True)
    path = inputs / "short-with-project.jsonl"
    path.write_text("\n".join(import_lines(rows, project=True)) + "\n")
    assert main(["import", str(path)]) == 0
    return len(rows)


def feed_cli_import_full_records(rows: list[Row], inputs: Path) -> int:
    inputs.mkdir(parents=True, exist_ok=True)
    path = inputs / "full.jsonl"
    path.write_text("\n".join(import_lines(rows, full_records=True)) + "\n")
    assert main(["import", str(path)]) == 0
    return len(rows)


def feed_failing_hooks(rows: list[Row], _inputs: Path) -> int:
    """A handler whose exception message carries the payload: the log must not."""

    def broken(payload: dict[str, Any]) -> None:
        raise ValueError(f"cannot handle {payload.get('prompt')}")

    saved = lifecycle.HANDLERS["UserPromptSubmit"]
    lifecycle.HANDLERS["UserPromptSubmit"] = broken
    try:
        for number, row in enumerate(rows):
            run_in_process(*prompt(number, row["text"], remember=False))
            hooklog.write_log(f"UserPromptSubmit: stderr: {row['text']}")
    finally:
        lifecycle.HANDLERS["UserPromptSubmit"] = saved
    return 0


FEEDERS: list[tuple[str, Callable[[list[Row], Path], int]]] = [
    ("PostToolUse-and-PostToolUseFailure", feed_tool_hooks),
    ("UserPromptSubmit", feed_prompts),
    ("deferred-prompt-and-session-end", feed_deferred_events),
    ("SessionEnd-transcript-every-block-type", feed_transcripts),
    ("cli-save", feed_cli_save),
    ("cli-import", feed_cli_import),
    ("cli-import-project-field", feed_cli_import_project),
    ("cli-import-full-records", feed_cli_import_full_records),
    ("hook-log", feed_failing_hooks),
]
CAPTURE_PATHS = [
    pytest.param(feed, part, id=f"{name}-{part + 1}of{SLICES}")
    for name, feed in FEEDERS
    for part in range(SLICES)
]


@pytest.mark.parametrize(("feed", "part"), CAPTURE_PATHS)
def test_no_secret_reaches_disk_one_payload_at_a_time(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    feed: Callable[[list[Row], Path], int],
    part: int,
) -> None:
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "plugin-data"))
    expected = feed(SECRETS[part::SLICES], tmp_path / INPUTS)
    run_in_process("SessionStart", {**base(0), "source": "startup"})
    assert main(["ingest"]) == 0
    printed = capsys.readouterr()
    assert main(["export"]) == 0
    exported, _ = capsys.readouterr()
    assert len(exported.splitlines()) >= 0.8 * expected
    assert_no_leak(tmp_path, printed.out, printed.err, exported)


# ---- batched, through real processes -----------------------------------------------------


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
    inputs = tmp_path / INPUTS
    packed = batches()
    fast = [hook_process(*post_tool_use(n, "\n".join(b))) for n, b in enumerate(packed)]
    fast += [hook_process(*post_tool_use_failure(n, "\n".join(b))) for n, b in enumerate(packed)]
    printed = finish(fast)
    small = batches(limit=400)
    full = [hook_process(*prompt(n, " ".join(b), remember=True)) for n, b in enumerate(small[:6])]
    full += [hook_process(*session_end(inputs, n, b)) for n, b in enumerate(batches(limit=600)[:6])]
    printed += finish(full)
    wait_for_workers(memory_home)
    import_file = inputs / "all.jsonl"  # half: with the failures above, under the error cap
    import_file.write_text("\n".join(import_lines(SECRETS[::2])) + "\n")
    printed += finish([spawn([sys.executable, str(ENTRY), "import", str(import_file)])])
    printed += finish([hook_process("SessionStart", {**base(0), "source": "startup"})])
    printed += finish([spawn([sys.executable, str(ENTRY), "ingest"])])
    exported = finish([spawn([sys.executable, str(ENTRY), "export"])])
    wait_for_workers(memory_home)  # the start's worker prunes old notes: read a settled home
    assert journal.JOURNAL_NAME not in os.listdir(memory_home)
    assert exported[0].count('"session-summary"') >= 6
    assert_no_leak(tmp_path, *printed, *exported)


def test_a_hook_failure_in_a_real_process_logs_no_secret(memory_home: Path, tmp_path: Path) -> None:
    memory_home.mkdir(mode=0o700)
    (memory_home / "user-preferences.json").write_bytes(b"{ broken")
    # The first sentence is a preference to save (into the broken store); the secrets follow.
    printed = finish(
        [
            hook_process(*prompt(n, "always use pnpm. " + " ".join(b), remember=False))
            for n, b in enumerate(batches(limit=400)[:4])
        ]
    )
    assert "CorruptStoreError" in (memory_home / "logs" / "hooks.log").read_text()
    assert_no_leak(tmp_path, *printed)
