"""A week of a developer's sessions, generated deterministically, as Claude Code writes them.

Three projects (``shop``, a TypeScript web shop on pnpm; ``api``, a Python service on uv and
pytest; ``infra``, Terraform and Docker), sixteen sessions from Monday 2026-11-23 to Sunday
2026-11-29: asks in English and Korean, files created and edited, test runs that fail then
pass, errors fixed (one of them three times on three days), decisions stated with their
reasons by the user and by the assistant, a "remember" request, people named, a
preference stated on Monday and reversed on Friday, a session that only looks around.

:func:`week` returns the sessions in time order; :func:`transcript_rows` gives a session's
transcript as Claude Code 2.1 writes it (user, assistant and tool-result rows, each with its
``timestamp``, ``sessionId``, ``cwd`` and ``gitBranch``). Nothing is random: the same call
gives the same bytes, so a test can pin what the notes and MEMORY.md must say.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Step:
    """One thing that happens in a session, in order.

    ``kind``: ``prompt`` (the user types ``text``), ``say`` (the assistant writes ``text``),
    ``bash`` (``text`` is the command, ``output`` what it printed, ``failed`` whether it
    exited non-zero), ``edit`` / ``write`` (``text`` is the file, relative to the project).
    """

    kind: str
    text: str
    output: str = ""
    failed: bool = False


@dataclass(frozen=True)
class Session:
    """One session: when it starts (minutes after Monday 09:00 UTC), where, and its steps."""

    number: int
    day: int
    start_minute: int
    project: str
    branch: str
    steps: tuple[Step, ...]
    minutes: int = 40
    extra: dict[str, Any] = field(default_factory=dict)
    epoch: datetime = MONDAY  # day 0 at 09:00 UTC (tests/month.py starts earlier)

    @property
    def session_id(self) -> str:
        return f"{self.number:08x}-5e55-4d0c-9a1b-{self.number:012x}"

    @property
    def started_at(self) -> datetime:
        return self.epoch + timedelta(days=self.day, minutes=self.start_minute)

    @property
    def ended_at(self) -> datetime:
        return self.started_at + timedelta(minutes=self.minutes)

    def cwd(self, root: Path) -> str:
        return str(root / self.project)


def _p(text: str) -> Step:
    return Step("prompt", text)


def _say(text: str) -> Step:
    return Step("say", text)


def _run(command: str, output: str = "", *, failed: bool = False) -> Step:
    return Step("bash", command, output, failed)


def _edit(path: str) -> Step:
    return Step("edit", path)


def _write(path: str) -> Step:
    return Step("write", path)


PNPM_TYPE_ERROR = (
    "Exit code 1\nsrc/cart/total.ts(14,22): error TS2345: Argument of type 'string' is not "
    "assignable to parameter of type 'number'."
)
PYTEST_FAIL = (
    "Exit code 1\nFAILED tests/test_orders.py::test_refund - KeyError: 'currency'\n"
    "1 failed, 41 passed"
)
PYTEST_PASS = "42 passed in 1.91s"  # noqa: S105 - test output, not a password
PNPM_PASS = "Test Files  12 passed (12)\n     Tests  87 passed (87)"  # noqa: S105 - output
TF_LOCK = (
    "Exit code 1\nError: Error acquiring the state lock\nLock Info:\n  ID: 6f1c\n  Operation: "
    "OperationTypeApply"
)

SESSIONS: tuple[Session, ...] = (
    Session(
        1,
        0,
        0,
        "shop",
        "main",
        (
            _p("From now on always use pnpm, never npm, in every project."),
            _p("The cart total is wrong when a coupon is applied twice. Please fix it."),
            _run("pnpm test -- cart", PNPM_TYPE_ERROR, failed=True),
            _edit("src/cart/total.ts"),
            _say("The coupon amount was read as a string; I parse it with Number() before adding."),
            _run("pnpm test -- cart", PNPM_PASS),
        ),
        minutes=35,
    ),
    Session(
        2,
        0,
        180,
        "api",
        "feature/refunds",
        (
            _p(
                "From now on always use uv for Python packages. "
                "Add partial refunds to the orders API."
            ),
            _write("app/refunds.py"),
            _edit("app/orders.py"),
            _run("uv run pytest -q", PYTEST_FAIL, failed=True),
            _edit("app/refunds.py"),
            _run("uv run pytest -q", PYTEST_PASS),
            _say(
                "We'll go with storing refunds as negative line items because it keeps the "
                "ledger append-only."
            ),
        ),
        minutes=70,
    ),
    Session(
        3,
        0,
        420,
        "shop",
        "main",
        (
            _p("Sara owns the billing service, so ask her before changing the invoice format."),
            _p("remember that the staging shop resets its database every Sunday night"),
            _run("git status"),
            _run("ls"),
        ),
        minutes=6,
    ),
    Session(
        4,
        1,
        30,
        "infra",
        "main",
        (
            _p("terraform apply가 state lock 때문에 실패해. 고쳐줘."),
            _run("terraform apply -auto-approve", TF_LOCK, failed=True),
            _run(
                "terraform force-unlock -force 6f1c",
                "Terraform state has been successfully unlocked!",
            ),
            _run(
                "terraform apply -auto-approve",
                "Apply complete! Resources: 0 added, 2 changed, 0 destroyed.",
            ),
            _say(
                "The lock was left by a cancelled CI run; I released it and the apply went through."
            ),
        ),
        minutes=25,
    ),
    Session(
        5,
        1,
        200,
        "api",
        "feature/refunds",
        (
            _p(
                "Refunds need a currency check. Chose to reject mixed currencies over converting "
                "them because conversion rates change between order and refund."
            ),
            _edit("app/refunds.py"),
            _write("tests/test_refund_currency.py"),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
        minutes=50,
    ),
    Session(
        6,
        2,
        60,
        "shop",
        "feature/checkout-v2",
        (
            _p("Start the checkout v2 page."),
            _write("src/checkout/v2/page.tsx"),
            _write("src/checkout/v2/summary.tsx"),
            _run("pnpm test -- checkout", PNPM_PASS),
            _p("결제 모듈은 Stripe 대신 Toss Payments로 하자. 국내 카드 수수료가 더 낮아서."),
            _say("Understood: checkout v2 will use Toss Payments."),
        ),
        minutes=90,
    ),
    Session(
        7,
        2,
        300,
        "api",
        "main",
        (
            _p("Ask Tom before touching the payments schema. He is migrating it this month."),
            _run("uv run pytest -q", PYTEST_PASS),
            _run("uv run pytest -q", PYTEST_PASS),
            _run("uv run pytest -q", PYTEST_PASS),
            _run("uv run pytest -q", PYTEST_PASS),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
        minutes=20,
    ),
    Session(
        8,
        3,
        0,
        "shop",
        "feature/checkout-v2",
        (
            _p("The cart total type error is back after the merge."),
            _run("pnpm test -- cart", PNPM_TYPE_ERROR, failed=True),
            _edit("src/cart/total.ts"),
            _run("pnpm test -- cart", PNPM_PASS),
        ),
        minutes=15,
    ),
    Session(
        9,
        3,
        240,
        "infra",
        "main",
        (
            _p("Move the shop's Docker image to the slim base."),
            _edit("docker/shop.Dockerfile"),
            _run(
                "docker build -f docker/shop.Dockerfile -t shop:slim .",
                "Successfully tagged shop:slim",
            ),
            _say(
                "Decided to pin node:22-slim rather than latest because latest broke the "
                "build last month."
            ),
        ),
        minutes=30,
    ),
    Session(
        10,
        4,
        0,
        "api",
        "main",
        (
            _p("Actually, use pip instead of uv in the api project from now on; CI only has pip."),
            _run("pip install -r requirements.txt", "Successfully installed fastapi-0.115.0"),
            _run("python -m pytest -q", PYTEST_PASS),
        ),
        minutes=20,
    ),
    Session(
        11,
        4,
        200,
        "shop",
        "feature/checkout-v2",
        (
            _p("결제 요약 컴포넌트에 테스트를 추가해줘."),
            _write("src/checkout/v2/summary.test.tsx"),
            _run("pnpm test -- summary", PNPM_PASS),
        ),
        minutes=25,
    ),
    Session(
        12,
        4,
        420,
        "shop",
        "main",
        (
            _p("The coupon total is wrong again on main."),
            _run("pnpm test -- cart", PNPM_TYPE_ERROR, failed=True),
            _edit("src/cart/total.ts"),
            _run("pnpm test -- cart", PNPM_PASS),
            _say("Same cause as before: the coupon amount arrives as a string."),
        ),
        minutes=12,
    ),
    Session(
        13,
        5,
        120,
        "infra",
        "main",
        (
            _p(
                "Let's use OpenTofu instead of Terraform for the new modules, the licence "
                "is the reason."
            ),
            _run("tofu init", "OpenTofu has been successfully initialized!"),
        ),
        minutes=18,
    ),
    Session(
        14,
        5,
        300,
        "api",
        "main",
        (
            _p("Write the release notes for refunds."),
            _write("docs/releases/refunds.md"),
        ),
        minutes=22,
    ),
    Session(
        15,
        6,
        60,
        "shop",
        "feature/checkout-v2",
        (
            _p("Wire the Toss Payments widget into checkout v2."),
            _edit("src/checkout/v2/page.tsx"),
            _write("src/checkout/v2/toss.ts"),
            _run("pnpm test -- checkout", PNPM_PASS),
            _run("pnpm lint", "✔ No problems"),
        ),
        minutes=65,
    ),
    Session(
        16,
        6,
        600,
        "api",
        "main",
        (_p("What did we decide about refunds in different currencies?"),),
        minutes=4,
    ),
)


def week() -> tuple[Session, ...]:
    """The sixteen sessions, in time order."""
    return SESSIONS


def _stamp(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def transcript_rows(session: Session, root: Path) -> list[dict[str, Any]]:
    """``session`` as the rows of its Claude Code transcript, evenly spread over its minutes."""
    cwd = session.cwd(root)
    base = {
        "sessionId": session.session_id,
        "cwd": cwd,
        "gitBranch": session.branch,
        "version": "2.1.332",
        "userType": "external",
        "isSidechain": False,
    }
    rows: list[dict[str, Any]] = []
    tick = timedelta(minutes=session.minutes) / (2 * len(session.steps) + 1)
    at = session.started_at
    for index, step in enumerate(session.steps):
        at += tick
        rows.extend(_rows_of(step, index, at, tick, base, cwd, session.number))
        at += tick
    return rows


def _rows_of(  # noqa: PLR0917 - one row builder, every part of the row named
    step: Step,
    index: int,
    at: datetime,
    tick: timedelta,
    base: dict[str, Any],
    cwd: str,
    number: int,
) -> list[dict[str, Any]]:
    if step.kind == "prompt":
        return [_user(base, at, step.text)]
    message = f"msg_{number:02d}_{index:02d}"
    if step.kind == "say":
        return [_assistant(base, at, message, [{"type": "text", "text": step.text}])]
    tool_id = f"toolu_{number:02d}{index:02d}"
    name, given, content = _tool(step, cwd)
    use = {"type": "tool_use", "id": tool_id, "name": name, "input": given}
    block = {
        "type": "tool_result",
        "tool_use_id": tool_id,
        "content": content,
        "is_error": step.failed,
    }
    return [_assistant(base, at, message, [use]), _user(base, at + tick / 2, [block])]


def _tool(step: Step, cwd: str) -> tuple[str, dict[str, Any], str]:
    if step.kind == "bash":
        return "Bash", {"command": step.text, "description": "Run a command"}, step.output
    path = f"{cwd}/{step.text}"
    if step.kind == "write":
        return (
            "Write",
            {"file_path": path, "content": "// new file\n"},
            f"File created successfully at: {path}",
        )
    return (
        "Edit",
        {"file_path": path, "old_string": "a", "new_string": "b"},
        f"The file {path} has been updated.",
    )


def _user(base: dict[str, Any], at: datetime, content: Any) -> dict[str, Any]:
    return {
        **base,
        "type": "user",
        "timestamp": _stamp(at),
        "message": {"role": "user", "content": content},
    }


def _assistant(
    base: dict[str, Any], at: datetime, message: str, content: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        **base,
        "type": "assistant",
        "timestamp": _stamp(at),
        "message": {
            "id": message,
            "model": "claude-test-1",
            "role": "assistant",
            "content": content,
        },
    }


def write_transcript(session: Session, root: Path, folder: Path) -> Path:
    """Write ``session``'s transcript as JSON Lines under ``folder``; return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session.session_id}.jsonl"
    lines = [json.dumps(row, ensure_ascii=False) for row in transcript_rows(session, root)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def hook_payloads(
    session: Session, root: Path, transcript: Path
) -> list[tuple[datetime, str, dict[str, Any]]]:
    """The hook events Claude Code sends for ``session``, each with the time it is sent."""
    cwd = session.cwd(root)
    common = {"session_id": session.session_id, "transcript_path": str(transcript), "cwd": cwd}
    events: list[tuple[datetime, str, dict[str, Any]]] = [
        (
            session.started_at,
            "SessionStart",
            {**common, "hook_event_name": "SessionStart", "source": "startup"},
        )
    ]
    tick = timedelta(minutes=session.minutes) / (2 * len(session.steps) + 1)
    at = session.started_at
    for index, step in enumerate(session.steps):
        at += tick
        if step.kind == "prompt":
            events.append(
                (
                    at,
                    "UserPromptSubmit",
                    {
                        **common,
                        "hook_event_name": "UserPromptSubmit",
                        "prompt": step.text,
                        "prompt_id": f"p-{session.number}-{index}",
                    },
                )
            )
        elif step.kind in ("bash", "edit", "write"):
            name, given, content = _tool(step, cwd)
            event = "PostToolUseFailure" if step.failed else "PostToolUse"
            payload = {
                **common,
                "hook_event_name": event,
                "tool_name": name,
                "tool_input": given,
                "tool_use_id": f"toolu_{session.number:02d}{index:02d}",
            }
            if step.failed:
                payload["error"] = content
            else:
                payload["tool_response"] = {"stdout": content, "stderr": "", "interrupted": False}
            events.append((at + tick / 2, event, payload))
        at += tick
    events.append(
        (
            session.ended_at,
            "SessionEnd",
            {**common, "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"},
        )
    )
    return events


def live(root: Path, sessions: Iterable[Session]) -> None:
    """Run ``sessions`` through the real hooks under ``root``, each event at its own time.

    The per-tool-call events go to the fast path; a SessionEnd is deferred as its hook does,
    and its worker's ingest runs in process; the others take the full path.
    """
    from freezegun import freeze_time  # noqa: PLC0415 - the generator above needs neither

    from artibot_memory import lifecycle  # noqa: PLC0415
    from artibot_memory.plugin import fast  # noqa: PLC0415

    for session in sessions:
        (root / session.project / ".git").mkdir(parents=True, exist_ok=True)
        transcript = write_transcript(session, root, root / "transcripts")
        for at, event, payload in hook_payloads(session, root, transcript):
            with freeze_time(at):
                if event in ("PostToolUse", "PostToolUseFailure"):
                    fast.handle(event, payload)
                elif event == "SessionEnd":
                    fast.defer(event, payload)  # what the hook does; its worker, in process:
                    lifecycle.ingest()
                else:
                    lifecycle.handle(event, payload)


@contextlib.contextmanager
def lived_home(home: Path) -> Iterator[Path]:
    """Live sessions into ``home`` as a module fixture does: keyword-only, UTC, not in Claude.

    The variables are set for the block and put back after it (a module-scoped fixture has no
    ``monkeypatch``).
    """
    wanted = {"ARTIBOT_MEMORY_HOME": str(home), "ARTIBOT_MEMORY_VECTORS": "off", "TZ": "UTC"}
    saved = {name: os.environ.get(name) for name in [*wanted, "CLAUDECODE"]}
    os.environ.update(wanted)
    os.environ.pop("CLAUDECODE", None)
    time.tzset()
    try:
        yield home
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        time.tzset()
