"""Read a coding agent's session transcript (JSON Lines) into a small :class:`SessionDigest`.

The SessionEnd hook turns the digest into a session-summary memory inside Claude Code's 1.5 s
budget, so this module is fast (a 3 MB transcript digests in tens of milliseconds), bounded
(at most 50 MB read, lines over 4 MB skipped, every text trimmed, every list capped) and never
raises on bad input: a missing, unreadable or non-regular path gives ``readable=False``.

The rows read are Claude Code's. A transcript of Codex CLI, Gemini CLI or Cursor is told
apart by its first record and each of its records translated into the rows Claude Code
would have written (:mod:`artibot_memory.capture.foreign`), so one parser reads every
agent's sessions; the digest's ``agent`` says whose it was. Where such a transcript
carries no working directory or session id, the ones the caller passes stand in.

Each moment the daily note tells (a prompt, a file change, a test run, a failure, a stated
decision) keeps its transcript line (1-based, as an editor shows it) and time, and
``after_line`` reads only the lines after one already told: a transcript only grows, so a
resumed session or a checkpoint followed by the end digests only what is new.

What is kept out is never read (:mod:`artibot_memory.core.private`): a row whose line holds
the word "private" loses its ``<private>`` blocks, in every string (the user's text, the
assistant's, thinking, tool inputs, tool results), before any handler sees it; a row made
in a working directory where capture is off is skipped whole (a session that moved into
such a folder keeps nothing of what it did there).

>>> digest = read_transcript("/no/such/session.jsonl")
>>> digest.readable, digest.prompts, digest.is_empty
(False, (), True)
"""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from artibot_memory.capture import foreign, pairing
from artibot_memory.capture.agentrows import dict_of
from artibot_memory.capture.decisions import find_decisions
from artibot_memory.capture.pairing import Fix, Step
from artibot_memory.capture.prompts import MACHINE_PROMPTS
from artibot_memory.capture.todos import find_todos
from artibot_memory.core import private
from artibot_memory.core.agents import CLAUDE
from artibot_memory.core.clock import parse_time
from artibot_memory.text import trim
from artibot_memory.text.ask import ask_in_words
from artibot_memory.text.change import change_of
from artibot_memory.text.shell import CommandLine
from artibot_memory.text.signature import error_signature, exit_code

if TYPE_CHECKING:
    from collections.abc import Iterator
    from io import BufferedReader

try:  # orjson parses about three times faster; the bare-python3 fast path may lack it
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - depends on the environment
    from json import loads as _loads  # type: ignore[assignment]

__all__ = ["FailedCommand", "Mark", "SessionDigest", "TestRun", "clip", "read_transcript"]

MAX_BYTES = 50 * 1024 * 1024
MAX_LINE_BYTES = 4 * 1024 * 1024
TEXT_LIMIT = 200  # characters kept of any one text (prompt, command, error line, path)
MAX_ITEMS = 500  # entries kept per list or counter, so a runaway session stays small
MAX_ERRORS = 200  # failed commands kept (the error store itself caps at 200)
SAID_CHARS = 4_000  # of one text block of the assistant's, read for what fixed an error
MAX_DECISIONS = 50  # decisions kept per session
MAX_TODOS = 20  # things left to do, kept per session
MAX_STEPS = 20_000  # commands, edits, words and prompts kept for pairing
IDLE_GAP_SECONDS = 300.0  # gaps between rows longer than this are not "active" time
_FILE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
# row key, digest field, keep the first value (else the last: the branch may change mid-session)
_ENVELOPE = (
    ("sessionId", "session_id", True),
    ("cwd", "cwd", True),
    ("gitBranch", "git_branch", False),
    ("version", "version", False),
)
_DENIALS = (
    "doesn't want to proceed",
    "requires approval",
    "has been denied",
    "doesn't want to take this action",
    "[Request interrupted by user",
)
_TAG_RE = re.compile(r"<([a-z]+(?:-[a-z]+)+)>")
_COMMAND_RE = re.compile(r"<command-name>\s*/?([^<\s]+)\s*</command-name>")
_BACKGROUND_RE = re.compile(r"running in background with ID: (\w+)")
_NOTIFY_RE = re.compile(r"<task-id>(\w+)</task-id>.*?exit code (-?\d+)", re.DOTALL)
_TASK_EXIT_RE = re.compile(r"<exit_code>(-?\d+)</exit_code>")
_FAILED_RE = re.compile(
    r"\b[1-9]\d* (?:failed|failures?|errors?|failing)\b"
    r"|^FAIL(?:ED)?\b|--- FAIL|test result: FAILED",
    re.MULTILINE,
)
_PASSED_RE = re.compile(
    r"\b\d+ (?:passed|passing)\b|\b0 (?:failed|failures)\b|test result: ok|^ok\s|^PASS\b|^OK\b",
    re.MULTILINE,
)
_SUMMARY_RE = re.compile(
    r"\d+ (?:passed|failed|failures?|tests?|examples?|errors?|passing|failing)\b"
    r"|test result:|^(?:ok|FAIL|PASS|OK)\b",
)


@dataclass(frozen=True)
class FailedCommand:
    """A Bash call whose tool result was an error, and what the session did about it.

    ``fix`` is the whole pairing (:mod:`artibot_memory.capture.pairing`: how it was
    established, the assistant's words, the edits); ``fixed``, ``fixed_by``,
    ``fix_commands`` and ``fix_files`` are its retry view, which the session summary shows.

    >>> FailedCommand("git push", "fatal: no upstream", fixed=True, fixed_by="git push -u origin x")
    ... # doctest: +ELLIPSIS
    FailedCommand(command='git push', error_first_line='fatal: no upstream', fixed=True, ...)
    """

    command: str
    error_first_line: str
    fixed: bool = False  # a later retry of it succeeded
    exit_code: int | None = None
    fixed_by: str = ""  # the later command that succeeded
    fix_commands: tuple[str, ...] = ()  # commands run in between (what probably fixed it)
    fix_files: tuple[str, ...] = ()  # files changed in between
    ref: str = ""  # the tool call's id, as the hooks journaled it
    signature: str = ""  # of the error text (artibot_memory.text.signature)
    fix: Fix = field(default_factory=Fix)
    line: int = field(default=0, compare=False)  # the failed call's result, in the transcript
    at: datetime | None = field(default=None, compare=False)


@dataclass(frozen=True)
class TestRun:
    """A Bash call that ran tests; ``passed`` is None when the outcome cannot be told.

    >>> TestRun("pytest -q", passed=True, summary="3 passed in 0.1s").passed
    True
    """

    __test__ = False  # a class named Test* must not be collected by pytest

    command: str
    passed: bool | None
    summary: str = ""
    line: int = field(default=0, compare=False)  # the run's result, in the transcript
    at: datetime | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Mark:
    """One moment of a session the daily note tells: its transcript line, time and text.

    ``kind`` says what it is where a list holds several: a change is ``created`` or
    ``edited``, a decision was said by the ``user`` or the ``assistant``.

    >>> Mark(12, None, "src/app.py", "edited").line
    12
    """

    line: int
    at: datetime | None
    text: str
    kind: str = ""


@dataclass(frozen=True)
class SessionDigest:
    """What one session did, trimmed to what a session summary needs.

    >>> SessionDigest().is_empty
    True
    """

    path: str = ""
    readable: bool = False
    session_id: str = ""
    cwd: str = ""
    git_branch: str = ""
    version: str = ""  # the version of the agent that wrote the transcript, when it says
    agent: str = CLAUDE  # claude-code, codex-cli, gemini-cli or cursor
    started_at: datetime | None = None
    ended_at: datetime | None = None
    duration_seconds: float = 0.0
    active_seconds: float = 0.0  # the same span without idle gaps over five minutes
    prompts: tuple[str, ...] = ()  # each prompt's ask in words (artibot_memory.text.ask)
    slash_commands: Counter[str] = field(default_factory=Counter)
    files_created: tuple[str, ...] = ()
    files_edited: tuple[str, ...] = ()
    commands: Counter[str] = field(default_factory=Counter)
    errors: tuple[FailedCommand, ...] = ()
    tests: tuple[TestRun, ...] = ()
    tool_counts: Counter[str] = field(default_factory=Counter)
    denied: int = 0  # tool calls the user or a permission rule refused: not errors
    subagent_count: int = 0
    compactions: int = 0
    models: tuple[str, ...] = ()
    lines: int = 0
    skipped_lines: int = 0  # not JSON, not an object, over the line cap, or malformed
    truncated: bool = False  # the file was larger than the byte cap; only its start was read
    first_line: int = 0  # the first and last transcript lines read (1-based; 0: none)
    last_line: int = 0
    asks: tuple[Mark, ...] = ()  # the user's own prompts (not Claude Code's machine prompts)
    changes: tuple[Mark, ...] = ()  # each file's first change: created or edited
    decisions: tuple[Mark, ...] = ()  # decisions stated (artibot_memory.capture.decisions)
    todos: tuple[Mark, ...] = ()  # work left for later (artibot_memory.capture.todos)

    @property
    def is_empty(self) -> bool:
        """True when the transcript held no prompt and no tool call."""
        return not self.prompts and not self.tool_counts and not self.slash_commands


def read_transcript(
    path: str | os.PathLike[str] | None,
    *,
    max_bytes: int = MAX_BYTES,
    max_line_bytes: int = MAX_LINE_BYTES,
    after_line: int = 0,
    cwd: str | None = None,
    session_id: str | None = None,
) -> SessionDigest:
    """Digest the transcript at ``path``; never raises for a bad path or bad content.

    With ``after_line``, only the lines after it are digested (a tool call made before it
    and answered after it is not seen). ``cwd`` and ``session_id`` are used when the
    transcript does not say them (Gemini CLI's and Cursor's carry no working directory).

    >>> read_transcript(None).readable
    False
    """
    if not path:
        return SessionDigest()
    where = Path(path)
    parser = _Parser(after_line, _Fallback(cwd or "", session_id or "", where.stem))
    try:
        if not stat.S_ISREG(where.stat().st_mode):  # a FIFO would block the hook forever
            return SessionDigest(path=str(where))
        with where.open("rb") as handle:
            lines = _Lines(handle, max_bytes, max_line_bytes)
            for number, line in lines:
                parser.line = number
                if number > after_line:
                    parser.feed_line(line)
                else:
                    parser.replay_line(line)
    except (OSError, ValueError):  # ValueError: a NUL byte in the path
        return SessionDigest(path=str(where))
    parser.skipped += lines.skipped
    parser.finish()
    if parser.translator is None:  # Claude Code keeps its subagents' transcripts beside it
        parser.count_subagent_files(where)
    return parser.digest(str(where), truncated=lines.truncated)


@dataclass(frozen=True)
class _Fallback:
    """What the caller knows of a session, for a transcript that does not say it."""

    cwd: str = ""
    session_id: str = ""
    name: str = ""  # the transcript's file name without .jsonl (Cursor's conversation id)


class _Lines:
    """Iterates the complete lines of a binary file within the byte cap, skipping long ones."""

    def __init__(self, handle: BufferedReader, max_bytes: int, max_line: int) -> None:
        self.handle, self.remaining, self.max_line = handle, max_bytes, max_line
        self.truncated = False
        self.skipped = 0
        self.number = 0

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        """Yield each line with its number in the file (a skipped line keeps its number)."""
        while self.remaining > 0:
            line = self.handle.readline(min(self.max_line + 1, self.remaining))
            if not line:
                return
            self.remaining -= len(line)
            self.number += 1
            if line.endswith(b"\n"):
                yield self.number, line
            elif len(line) > self.max_line:
                self._skip_rest()
            elif self.remaining > 0 or not self.handle.peek(1)[:1]:
                yield self.number, line  # the last line, written without a newline
        # past the cap: the partial line (if any) was dropped above, and more data remains
        self.truncated = bool(self.handle.peek(1)[:1]) if self.remaining <= 0 else False

    def _skip_rest(self) -> None:
        self.skipped += 1
        while self.remaining > 0:
            chunk = self.handle.readline(min(1 << 20, self.remaining))
            self.remaining -= len(chunk)
            if not chunk or chunk.endswith(b"\n"):
                return


@dataclass
class _Use:
    """A tool call waiting for its result."""

    name: str
    command: str = ""
    attempt: frozenset[tuple[str, ...]] = frozenset()  # what a retry of it must offer
    offers: frozenset[tuple[str, ...]] = frozenset()  # what it offers as a retry
    test: bool = False
    piped: bool = False
    path: str = ""
    task_id: str = ""
    ref: str = ""
    given: dict[str, Any] = field(default_factory=dict)  # an edit's input: what it changed


class _Parser:
    """Accumulates rows; each handler reads one row kind and tolerates any shape.

    Another agent's records go through its :class:`~artibot_memory.capture.foreign.Translator`
    first, chosen by the first record read; a Claude Code transcript pays that one look.
    """

    def __init__(self, after_line: int = 0, fallback: _Fallback | None = None) -> None:
        self.after_line, self.fallback = after_line, fallback or _Fallback()
        self.agent = ""  # told by the first record (foreign.detect); claude-code until then
        self.translator: foreign.Translator | None = None
        self.lines = self.skipped = self.denied = self.compactions = 0
        self.line = self.first_line = self.last_line = 0  # the row being read; the span read
        self.asks: list[Mark] = []
        self.changes: list[Mark] = []
        self.decisions: list[Mark] = []
        self.todos: list[Mark] = []
        self.failure_lines: dict[int, int] = {}  # step -> transcript line of the failure
        self.meta: dict[str, str] = {}
        self.stamps: list[float] = []
        self.prompts: list[str] = []
        self.slash: Counter[str] = Counter()
        self.last_slash: tuple[str, str] | None = None
        self.commands: Counter[str] = Counter()
        self.tools: Counter[str] = Counter()
        self.models: dict[str, None] = {}
        self.seen_ids: set[str] = set()
        self.pending: dict[str, _Use] = {}
        self.read_paths: set[str] = set()
        self.file_kind: dict[str, str] = {}
        # what pairing reads (commands, edits, words, prompts), in result order
        self.steps: list[Step] = []
        self.failures: dict[int, tuple[str, int | None]] = {}  # step -> (error head, exit code)
        self.open_turn = False  # a command failed in this turn: the assistant's words count
        self.at = ""  # the timestamp of the row being read
        self.tests: list[list[Any]] = []  # [command, passed, summary], mutable until the end
        self.background: dict[str, int] = {}  # background task id -> index in tests
        self.agents: set[str] = set()
        self.unrecorded: dict[str, bool] = {}  # working directory -> capture is off there

    def feed_line(self, line: bytes) -> None:
        if not line.strip():
            return
        self.lines += 1
        self.first_line = self.first_line or self.line
        self.last_line = self.line
        row = _decode(line)
        if row is None:
            self.skipped += 1
            return
        if not self.agent:
            self._detect(row)
        translator = self.translator
        if not (self._translate(translator, row) if translator else self._feed_safely(row)):
            self.skipped += 1

    def replay_line(self, line: bytes) -> None:
        """Read a line before ``after_line`` for its format and a translator's state only."""
        if self.agent and self.translator is None:
            return  # a Claude Code row stands alone: the lines already told cost nothing
        row = _decode(line) if line.strip() else None
        if row is None:
            return
        if not self.agent:
            self._detect(row)
        if self.translator is not None:
            self._translate(self.translator, row)

    def _detect(self, row: dict[str, Any]) -> None:
        hints = self.fallback
        self.translator = foreign.translator_for(
            row, cwd=hints.cwd, session_id=hints.session_id, name=hints.name
        )
        self.agent = self.translator.agent if self.translator else CLAUDE

    def _translate(self, translator: foreign.Translator, record: dict[str, Any]) -> bool:
        """Feed the rows a foreign record stands for; False when the record was malformed."""
        try:
            rows = translator.translate(self.line, record)
        except (TypeError, AttributeError, KeyError, IndexError, ValueError):
            return False  # the translators check every shape (fuzzed); this net keeps hooks alive
        return self._feed_rows(rows)

    def _feed_rows(self, rows: list[tuple[int, dict[str, Any]]]) -> bool:
        fed = True
        for number, row in rows:
            if number > self.after_line:
                self.line = number
                fed = self._feed_safely(row) and fed
        return fed

    def finish(self) -> None:
        """Feed what a translator held back to the end (a Gemini chat may rewind)."""
        if self.translator is None:
            return
        try:
            rows = self.translator.finish()
        except (TypeError, AttributeError, KeyError, IndexError, ValueError):
            self.skipped += 1
            return
        self.skipped += sum(not self._feed_rows([row]) for row in rows)

    def _feed_safely(self, row: dict[str, Any]) -> bool:
        try:
            self.feed(row)
        except (TypeError, AttributeError, KeyError, IndexError, ValueError):
            return False  # the handlers check every shape (fuzzed); this net keeps hooks alive
        return True

    def feed(self, row: dict[str, Any]) -> None:
        if self._capture_off(row.get("cwd")):
            return
        self._envelope(row)
        if row.get("isSidechain") is True:  # a subagent's row: not the user's conversation
            self.agents.add(_text(row.get("agentId"), 100) or "sidechain")
            return
        kind = row.get("type")
        handler = {
            "user": self._user,
            "assistant": self._assistant,
            "system": self._system,
            "progress": self._progress,
        }.get(kind if isinstance(kind, str) else "")
        if handler is not None:
            handler(row)

    def _capture_off(self, cwd: object) -> bool:
        """Tell whether capture is off in the row's working directory (asked once per folder)."""
        if not isinstance(cwd, str) or not cwd:
            return False
        if cwd not in self.unrecorded:
            self.unrecorded[cwd] = private.capture_off(cwd) is not None
        return self.unrecorded[cwd]

    def _envelope(self, row: dict[str, Any]) -> None:
        self.at = _text(row.get("timestamp"), 40)
        stamp = _epoch(row.get("timestamp"))
        if stamp is not None:
            self.stamps.append(stamp)
        for key, name, keep_first in _ENVELOPE:
            value = row.get(key)
            if isinstance(value, str) and value and not (keep_first and name in self.meta):
                self.meta[name] = clip(value, 1000)

    def _system(self, row: dict[str, Any]) -> None:
        if row.get("subtype") == "compact_boundary":
            self.compactions += 1
        elif row.get("subtype") == "local_command" and isinstance(row.get("content"), str):
            self._slash(row["content"], "system")

    def _progress(self, row: dict[str, Any]) -> None:
        data = dict_of(row.get("data"))
        if data.get("type") == "agent_progress" and isinstance(data.get("agentId"), str):
            self.agents.add(data["agentId"][:100])

    def _user(self, row: dict[str, Any]) -> None:
        content = dict_of(row.get("message")).get("content")
        if isinstance(content, str):
            self._user_text(row, content)
            return
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        results = [b for b in blocks if b.get("type") == "tool_result"]
        extra = dict_of(row.get("toolUseResult")) if len(results) == 1 else {}
        for block in results:
            self._result(block, extra)
        texts = [
            b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
        if texts and not results:
            self._user_text(row, texts[0])

    def _user_text(self, row: dict[str, Any], text: str) -> None:
        if row.get("isMeta") or row.get("isCompactSummary") or row.get("isVisibleInTranscriptOnly"):
            return
        head = text.lstrip()
        tag = _TAG_RE.match(head)
        if tag and f"</{tag[1]}>" in head:  # a block Claude Code injected, not typed text
            self._injected(tag[1], head)
        elif head and not head.startswith(
            ("[Request interrupted", "This session is being continued")
        ):
            ask = ask_in_words(head, TEXT_LIMIT)  # no pasted log, code, image or data
            _append(self.prompts, ask)
            if row.get("promptSource") not in MACHINE_PROMPTS:
                _append(self.asks, self._mark(ask))
                self._decided(head, "user")
                self._planned(head, "user")
            self.last_slash = None
            self._step(Step(pairing.TURN, at=self.at))
            self.open_turn = False

    def _injected(self, tag: str, text: str) -> None:
        if tag.startswith("command-"):
            self._slash(text, "user")
        elif tag == "task-notification":
            found = _NOTIFY_RE.search(text)
            if found and self._open_background(found[1]) is not None:
                code = int(found[2])
                self._settle(found[1], (code == 0, f"exit code {code}"))
        elif tag == "bash-input":  # a command the user ran with `!` in the prompt box
            inner = text[len("<bash-input>") : text.find("</bash-input>")]
            _count(self.commands, _first_line(inner))

    def _slash(self, text: str, source: str) -> None:
        found = _COMMAND_RE.search(text)
        if not found:
            return
        name = "/" + found[1][:TEXT_LIMIT]
        if source == "system" and self.last_slash == (name, "user"):
            self.last_slash = None  # 2.1.3x logs one invocation as a user row then a system row
            return
        _count(self.slash, name)
        self.last_slash = (name, source)

    def _assistant(self, row: dict[str, Any]) -> None:
        message = dict_of(row.get("message"))
        model = message.get("model")
        if isinstance(model, str) and model and not model.startswith("<"):  # "<synthetic>"
            self.models.setdefault(model[:100])
        content = message.get("content")
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_use":
                self._tool_use(block)
            elif isinstance(block, dict) and block.get("type") == "text":
                said = _text(block.get("text"), SAID_CHARS)
                self._decided(said, "assistant")
                self._planned(said, "assistant")
                if self.open_turn and said.strip():  # only after a failure: kept small
                    self._step(Step(pairing.SAID, said, self.at))

    def _mark(self, text: str, kind: str = "") -> Mark:
        return Mark(self.line, parse_time(self.at), text, kind)

    def _decided(self, text: str, speaker: str) -> None:
        """Keep the decisions ``text`` states (:mod:`artibot_memory.capture.decisions`)."""
        if len(self.decisions) >= MAX_DECISIONS:
            return
        for found in find_decisions(text, assistant=speaker == "assistant"):
            self.decisions.append(self._mark(clip(found), speaker))

    def _planned(self, text: str, speaker: str) -> None:
        """Keep what ``text`` leaves to do (:mod:`artibot_memory.capture.todos`)."""
        if len(self.todos) < MAX_TODOS:
            self.todos += [self._mark(clip(todo), speaker) for todo in find_todos(text)]

    def _open_todos(self) -> tuple[Mark, ...]:
        """Return the user's todos, and the assistant's from its replies to the last prompt.

        The assistant plans aloud while it works ("later I'll …"); what it leaves over is
        what it says after the last prompt, when the session's work is done.
        """
        last_ask = self.asks[-1].line if self.asks else 0
        return tuple(t for t in self.todos if t.kind == "user" or t.line > last_ask)

    def _tool_use(self, block: dict[str, Any]) -> None:
        tool_id, name = block.get("id"), block.get("name")
        if not isinstance(name, str) or not isinstance(tool_id, str) or tool_id in self.seen_ids:
            return  # assistant rows may repeat a block; count each call once
        self.seen_ids.add(tool_id)
        _count(self.tools, name[:100])
        given = dict_of(block.get("input"))
        use = _Use(name, ref=tool_id[:200])
        if name == "Bash":
            self._bash_use(use, _text(given.get("command"), 100_000))
        elif name in _FILE_TOOLS:
            use.path = _text(given.get("file_path") or given.get("notebook_path"), 1000)
            use.given = given
        elif name == "Read":
            self.read_paths.add(_text(given.get("file_path"), 1000))
        elif name == "TaskOutput":
            use.task_id = _text(given.get("task_id"), 100)
        self.pending[tool_id] = use

    def _bash_use(self, use: _Use, command: str) -> None:
        use.command = _first_line(command.replace("\\\n", " "))
        _count(self.commands, use.command)
        line = CommandLine(command)  # every line of it, as ingest reads the journaled command
        use.attempt, use.offers = line.attempt_keys(), line.fix_keys()
        use.test, use.piped = line.test, line.piped

    def _result(self, block: dict[str, Any], extra: dict[str, Any]) -> None:
        use = self.pending.pop(_text(block.get("tool_use_id"), 200), None)
        if use is None:
            return
        failed = block.get("is_error") is True
        text = _block_text(block.get("content"))
        if failed and any(marker in text[:400] for marker in _DENIALS):
            self.denied += 1
            _uncount(self.commands, use.command)  # refused, so never run
        elif use.name == "Bash":
            self._bash_result(use, text, extra, failed=failed)
        elif use.path and not failed:
            self._changed(use, extra)
        elif use.task_id and self._open_background(use.task_id) is not None:
            self._task_output(use.task_id, text)
        if isinstance(extra.get("agentId"), str):
            self.agents.add(extra["agentId"][:100])

    def _bash_result(self, use: _Use, text: str, extra: dict[str, Any], *, failed: bool) -> None:
        found = _BACKGROUND_RE.search(text[:300])
        task = _text(extra.get("backgroundTaskId"), 100) or (found[1] if found else "")
        ok: bool | None = not failed
        if use.test:
            passed, summary = (
                (None, "running in background")
                if task
                else _outcome(text, failed=failed, piped=use.piped)
            )
            if task:
                self.background[task] = len(self.tests)
            _append(self.tests, [use.command, passed, summary, self.line, parse_time(self.at)])
            ok = passed if not failed else False
        self._ran(use, text if failed else "", ok=ok)

    def _ran(self, use: _Use, error: str, *, ok: bool | None) -> None:
        """Add a finished Bash call to the steps; a failure with an error text is an error."""
        code, head = _error_head(error) if error else (None, "")
        if ok is False and head:
            self.failures[len(self.steps)] = (head, code)
            self.failure_lines[len(self.steps)] = self.line
            self.open_turn = True
            kind, keys, signature = pairing.FAILED, use.attempt, error_signature(error[:10_000])
        elif ok:
            kind, keys, signature = pairing.SUCCEEDED, use.offers, ""
        else:  # in the background, or failing tests that exited 0: neither fixes nor fails
            kind, keys, signature = pairing.RAN, frozenset(), ""
        self._step(Step(kind, use.command, self.at, use.ref, signature, keys=keys))

    def _step(self, step: Step) -> None:
        if len(self.steps) < MAX_STEPS:
            self.steps.append(step)

    def _task_output(self, task_id: str, text: str) -> None:
        code = _TASK_EXIT_RE.search(text)
        if code is not None:
            passed, summary = _outcome(text, failed=int(code[1]) != 0, piped=False)
            self._settle(task_id, (passed, summary))

    def _open_background(self, task_id: str) -> int | None:
        index = self.background.get(task_id)
        return index if index is not None and self.tests[index][1] is None else None

    def _settle(self, task_id: str, outcome: tuple[bool | None, str]) -> None:
        self.tests[self.background[task_id]][1:] = list(outcome)

    def _changed(self, use: _Use, result: dict[str, Any]) -> None:
        if use.path not in self.file_kind and len(self.file_kind) < MAX_ITEMS:
            seen = use.path in self.read_paths
            self.file_kind[use.path] = _file_kind(
                use.name, _text(result.get("type"), 20), seen=seen
            )
            self.changes.append(self._mark(use.path, self.file_kind[use.path]))
        self.read_paths.add(use.path)
        change = change_of(use.name, use.given, result) if self.failures else ""
        self._step(Step(pairing.EDITED, use.path, self.at, use.ref, change=change))

    def _errors(self) -> tuple[FailedCommand, ...]:
        """Each failed command with its fix (capture.pairing, the rule ingest pairs by)."""
        paired = pairing.pair(self.steps, limit=MAX_ERRORS)
        return tuple(
            replace(
                _failed(self.steps[at], self.failures[at], fix),
                line=self.failure_lines.get(at, 0),
                at=parse_time(self.steps[at].at),
            )
            for at, fix in paired
        )

    def _meta(self) -> dict[str, str]:
        """Return the session's id, folder, branch, version: the caller's where rows said none."""
        given = {"cwd": self.fallback.cwd, "session_id": self.fallback.session_id}
        return {**{key: value for key, value in given.items() if value}, **self.meta}

    def count_subagent_files(self, transcript: Path) -> None:
        """Add subagents from ``<session>/subagents/agent-<id>.jsonl``; lists names, reads none."""
        try:
            with os.scandir(transcript.with_suffix("") / "subagents") as entries:
                for _, entry in zip(range(10_000), entries, strict=False):
                    name = entry.name
                    # agent-acompact-* is Claude Code's own compaction run, not a subagent
                    if (
                        name.startswith("agent-")
                        and name.endswith(".jsonl")
                        and "acompact" not in name
                    ):
                        self.agents.add(name[len("agent-") : -len(".jsonl")])
        except OSError:
            return

    def digest(self, path: str, *, truncated: bool) -> SessionDigest:
        for use in self.pending.values():  # the session ended before these results arrived
            if use.path:
                self._changed(use, {})
        started, ended, active = _span(self.stamps)
        return SessionDigest(
            path=path,
            readable=True,
            **self._meta(),
            agent=self.agent or CLAUDE,
            started_at=started,
            ended_at=ended,
            duration_seconds=(ended - started).total_seconds() if started and ended else 0.0,
            active_seconds=active,
            prompts=tuple(self.prompts),
            slash_commands=self.slash,
            files_created=tuple(p for p, k in self.file_kind.items() if k == "created"),
            files_edited=tuple(p for p, k in self.file_kind.items() if k == "edited"),
            commands=self.commands,
            errors=self._errors(),
            tests=tuple(TestRun(*test) for test in self.tests),
            tool_counts=self.tools,
            denied=self.denied,
            subagent_count=len(self.agents),
            compactions=self.compactions,
            models=tuple(self.models),
            lines=self.lines,
            skipped_lines=self.skipped,
            truncated=truncated,
            first_line=self.first_line,
            last_line=self.last_line,
            asks=tuple(self.asks),
            changes=tuple(self.changes),
            decisions=tuple(self.decisions),
            todos=self._open_todos(),
        )


def _failed(step: Step, error: tuple[str, int | None], fix: Fix) -> FailedCommand:
    """Return the digest's record of one failure, its retry view filled when a retry fixed it."""
    head, code = error
    failed = FailedCommand(
        step.text, head, exit_code=code, ref=step.ref, signature=step.signature, fix=fix
    )
    if not fix.verified:
        return failed
    commands = tuple(c for c in fix.commands() if c != step.text)
    return replace(
        failed,
        fixed=True,
        fixed_by=fix.fixed_by,
        fix_commands=commands[:5],
        fix_files=fix.files()[:5],
    )


def _outcome(text: str, *, failed: bool, piped: bool) -> tuple[bool | None, str]:
    """Tell a test run's outcome from its output, then its exit status.

    >>> _outcome("===== 2 failed, 5 passed in 0.3s =====", failed=False, piped=True)
    (False, '2 failed, 5 passed in 0.3s')
    """
    tail = text[-20_000:]  # runners print their summary last
    summary = next(
        (
            clip(line.strip(" =-*\t"))
            for line in reversed(tail.splitlines()[-60:])
            if _SUMMARY_RE.search(line)
        ),
        "",
    )
    if failed or _FAILED_RE.search(tail):
        return False, summary
    if _PASSED_RE.search(tail):
        return True, summary
    return (None if piped else True), summary  # `| tail` hides the runner's exit status


def _error_head(text: str) -> tuple[int | None, str]:
    r"""Split "Exit code N" from the first line that says what went wrong.

    >>> _error_head("Exit code 128\nfatal: no upstream branch")
    (128, 'fatal: no upstream branch')
    """
    code, rest = exit_code(text[:10_000].replace("\\n", "\n"))  # hook output: escaped newlines
    return code, _first_line(rest) or ("error" if code is None else f"exit code {code}")


def _file_kind(tool: str, result_type: str, *, seen: bool) -> str:
    """Write creates unless the file was read or edited first; the result type decides if given."""
    if tool != "Write":
        return "edited"
    if result_type in ("create", "update"):
        return "created" if result_type == "create" else "edited"
    return "edited" if seen else "created"


def _span(stamps: list[float]) -> tuple[datetime | None, datetime | None, float]:
    if not stamps:
        return None, None, 0.0
    stamps.sort()
    gaps = (b - a for a, b in pairwise(stamps))
    active = sum(gap for gap in gaps if gap <= IDLE_GAP_SECONDS)
    return (
        datetime.fromtimestamp(stamps[0], timezone.utc),
        datetime.fromtimestamp(stamps[-1], timezone.utc),
        active,
    )


def _epoch(value: object) -> float | None:
    moment = parse_time(value)
    return None if moment is None else moment.timestamp()


def _decode(line: bytes) -> dict[str, Any] | None:
    """Decode the JSON object on one line, its ``<private>`` blocks out; None for anything else.

    >>> _decode(b'{"text": "run <private>s3cr3t</private> now"}'), _decode(b"[1]")
    ({'text': 'run [REDACTED:private] now'}, None)
    """
    try:
        row = _loads(line)
    except (ValueError, RecursionError):  # orjson and json both raise ValueError subclasses
        return None
    if not isinstance(row, dict):
        return None
    if private.may_hold_private(line):
        private.scrub(row)
    return row


def _block_text(content: object) -> str:
    """Text of a tool_result's content: a string, or a list of {type: text} blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    return ""


def _first_line(text: str) -> str:
    r"""Return the first non-blank line, trimmed.

    >>> _first_line("\n  run the tests  \nthanks")
    'run the tests'
    """
    for line in text.splitlines():
        if line.strip():
            return clip(line.strip())
    return ""


def clip(text: str, limit: int = TEXT_LIMIT) -> str:
    """Trim to ``limit`` characters at a word boundary, so a secret is kept whole or dropped.

    >>> clip("alpha beta gamma", 12)
    'alpha beta…'
    """
    return trim.clip(text, limit)


def _text(value: object, limit: int = TEXT_LIMIT) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _append(items: list[Any], item: Any) -> None:
    if item and len(items) < MAX_ITEMS:
        items.append(item)


def _count(counter: Counter[str], key: str) -> None:
    if key and (key in counter or len(counter) < MAX_ITEMS):
        counter[key] += 1


def _uncount(counter: Counter[str], key: str) -> None:
    if counter.get(key, 0) > 1:
        counter[key] -= 1
    else:
        counter.pop(key, None)
