r"""A stored session summary read back as parts: what was asked, changed, how it ended.

The summary is plain text (:mod:`artibot_memory.capture.summary` writes it, ``show``
prints it whole); what a session start hands over is a short line made from these parts,
so the bookkeeping (session id, clock range, paths, model, counts) stays in the record.
This module is the one reader of the summary's lines (standard library only, and light:
the read path imports it, so it imports nothing of the writer's).

>>> view = read_session(
...     "Session 1a2b3c4d 2026-11-30 10:02–10:45 UTC (43m, 40m active), branch fix/cart, in /src\n"
...     "Asked: fix the cart total\nEdited: src/cart/total.ts\n"
...     "Tests (2 runs: 1 FAILED, 1 passed), last:\n- `pnpm test` FAILED\n"
...     "- `pnpm test` passed (Tests 87 passed (87))\n"
...     "Errors (1, 0 fixed):\n- `pnpm test` (exit 1: TS2345: bad type) not fixed")
>>> view.asks, view.edited, view.branch, view.tests_passed
(('fix the cart total',), ('src/cart/total.ts',), 'fix/cart', True)
>>> [(e.command, e.first_line, e.fixed) for e in view.errors]
[('pnpm test', 'TS2345: bad type', False)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ASKED", "SessionError", "SessionView", "asks_of", "branch_of", "read_session"]

ASKED = "Asked"
_BRANCH = re.compile(r", branch (?P<branch>[^,\n]+)")  # in the first line, the header

_LIST = re.compile(r"^(?P<label>Created|Edited)(?: \(\d+\))?: (?P<rest>.+)$")
_TEST_RUN = re.compile(r"^- `(?P<command>.+)` (?P<word>passed|FAILED|outcome unknown)(?: \(|$)")
_ERROR = re.compile(
    r"^- `(?P<command>.+?)`(?: ×\d+)? \((?:exit -?\d+: )?(?P<first>.*)\) "
    r"(?P<how>not fixed|fixed\b.*)$"
)


@dataclass(frozen=True)
class SessionError:
    """One failed command of a session as its summary tells it."""

    command: str
    first_line: str
    fixed: bool


@dataclass(frozen=True)
class SessionView:
    """A session summary's parts; ``tests_passed`` is the last test run's (None: no run)."""

    asks: tuple[str, ...] = ()
    created: tuple[str, ...] = ()
    edited: tuple[str, ...] = ()
    tests_passed: bool | None = None
    last_test: str | None = None
    errors: tuple[SessionError, ...] = ()
    branch: str | None = None

    @property
    def changed(self) -> tuple[str, ...]:
        """The files the session created or edited, created first, each once."""
        return tuple(dict.fromkeys((*self.created, *self.edited)))


def asks_of(text: str) -> list[str]:
    r"""Return the prompts a session summary lists (its ``Asked`` line), the one reader of it.

    >>> asks_of("Session 1a2b 2026-11-30\nAsked (2): fix the cart | add a test\nEdited: a.ts")
    ['fix the cart', 'add a test']
    >>> asks_of("Session 1a2b 2026-11-30\nAsked: fix it")
    ['fix it']
    """
    for line in text.splitlines()[1:]:
        label, colon, rest = line.partition(": ")
        if colon and (label == ASKED or label.startswith(f"{ASKED} (")):
            return [ask for ask in rest.split(" | ") if ask and not ask.startswith("+")]
    return []


def branch_of(text: str) -> str | None:
    r"""Return the git branch a session summary's first line names, the one reader of it.

    >>> branch_of("Session 1a2b3c4d 2026-11-30 10:02–10:45 UTC, branch fix/login, in /src\nx")
    'fix/login'
    >>> branch_of("Session 1a2b3c4d 2026-11-30 10:02–10:45 UTC\nAsked: a, branch b") is None
    True
    """
    found = _BRANCH.search((text.splitlines() or [""])[0])
    return found.group("branch").strip() if found else None


def read_session(text: str) -> SessionView:
    """Read a session summary's text into its parts (lines it does not know are skipped)."""
    lists: dict[str, tuple[str, ...]] = {}
    tests: list[tuple[str, bool | None]] = []
    errors: list[SessionError] = []
    for line in text.splitlines()[1:]:
        listed = _LIST.match(line)
        if listed:
            items = [i for i in listed.group("rest").split(", ") if not i.startswith("+")]
            lists[listed.group("label")] = tuple(items)
            continue
        run = _TEST_RUN.match(line)
        if run:
            word = run.group("word")
            tests.append(
                (run.group("command"), None if word == "outcome unknown" else word == "passed")
            )
            continue
        failed = _ERROR.match(line)
        if failed:
            fixed = failed.group("how") != "not fixed"
            errors.append(SessionError(failed.group("command"), failed.group("first"), fixed))
    last = tests[-1] if tests else (None, None)
    return SessionView(
        asks=tuple(asks_of(text)),
        created=lists.get("Created", ()),
        edited=lists.get("Edited", ()),
        tests_passed=last[1],
        last_test=last[0],
        errors=tuple(errors),
        branch=branch_of(text),
    )
