"""A quarter of a developer's sessions, generated deterministically: what seed 002 is for.

Thirteen weeks, from Monday 2026-08-31 to Sunday 2026-11-29, in four projects (``shop``,
TypeScript on pnpm; ``api``, a Python service; ``infra``, Terraform and CI; ``docs``, a
MkDocs site), asked in English and Korean. Besides the everyday work (filler sessions made
from a few templates, in a fixed rotation), the quarter holds stories whose outcome a person
can tell at a glance once the weekly evolves have run:

- **rising**: "always use pnpm, never npm", stated on day 0 and restated in eight later
  sessions, one every week or two: its belief's volume grows to 5 sources and beyond;
- **reversed**: "Always write commit messages in English.", stated in four sessions of weeks
  1-5, reversed in week 7 ("앞으로 커밋 메시지는 한국어로 써줘.", the same key: it says the
  new one wins, so it supersedes with no conflict to ask about) and the reversal restated
  in six later sessions: the old belief weakens, then is contradicted (more sessions
  against it than for) from the evolve after week 11;
- **unused**: "Always use 2 spaces for indentation in YAML files.", stated in two sessions
  of day 0 and never again: its newest evidence is more than 90 days (``stale_days``) old at
  the evolve of Monday 2026-11-30, the one after the quarter;
- **steady**: pytest before a commit, replies in English, type hints in Python, each stated
  then restated every few weeks to the end;
- **one-off**: "I'd rather you show me the diff before committing.", a liking said once;
- **decision**: "We'll go with Postgres for the orders database …", said again in two later
  sessions;
- **fix**: the coupon total's type error, fixed the same way (``Number()`` on the coupon
  amount) in three sessions.

:data:`STORIES` names each story's sessions (their numbers), :data:`STATEMENTS` its words;
:func:`evolve_times` gives the Monday 09:00 UTC after each week, when the weekly evolve runs.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from week import (
    PNPM_PASS,
    PNPM_TYPE_ERROR,
    PYTEST_PASS,
    Session,
    Step,
    _edit,
    _p,
    _run,
    _say,
    _write,
)

DAY_ZERO = datetime(2026, 8, 31, 9, 0, tzinfo=timezone.utc)  # a Monday
WEEKS = 13
DAYS = 7 * WEEKS  # the last day, 90, is Sunday 2026-11-29
FIRST_NUMBER = 201

PNPM = "From now on always use pnpm, never npm, in every project."
PNPM_AGAIN = "Remember, we use pnpm everywhere, never npm."
ENGLISH_COMMITS = "Always write commit messages in English."
KOREAN_COMMITS = "앞으로 커밋 메시지는 한국어로 써줘."
YAML_INDENT = "Always use 2 spaces for indentation in YAML files."
PYTEST = "Always run the tests with pytest before you commit."
ENGLISH_REPLIES = "Always answer me in English."
TYPE_HINTS = "Always use type hints in Python code."
DIFF_FIRST = "I'd rather you show me the diff before committing."
POSTGRES = "We'll go with Postgres for the orders database because we need row-level locks."
COUPON_FIX = "The coupon amount arrives as a string; I parse it with Number() before adding."

# The words of each story, as the user (or the assistant, for the decision) says them.
STATEMENTS: dict[str, tuple[str, ...]] = {
    "rising": (PNPM, PNPM_AGAIN),
    "reversed": (ENGLISH_COMMITS, KOREAN_COMMITS),
    "unused": (YAML_INDENT,),
    "steady": (PYTEST, ENGLISH_REPLIES, TYPE_HINTS),
    "one-off": (DIFF_FIRST,),
    "decision": (POSTGRES,),
    "fix": (COUPON_FIX,),
}


def _coupon_fix(ask: str) -> tuple[Step, ...]:
    return (
        _p(ask),
        _run("pnpm test -- cart", PNPM_TYPE_ERROR, failed=True),
        _edit("src/cart/total.ts"),
        _say(COUPON_FIX),
        _run("pnpm test -- cart", PNPM_PASS),
    )


def _commit(message: str) -> Step:
    return _run(f"git commit -m '{message}'", "[main 1a2b3c4] " + message)


# (day, minutes after 09:00, project, steps): the stories, in time order.
_STORY_SESSIONS: tuple[tuple[int, int, str, tuple[Step, ...]], ...] = (
    # week 1
    (0, 60, "shop", (_p(PNPM), _p("Set up the coupon page."), _run("pnpm test", PNPM_PASS))),
    (0, 240, "infra", (_p(YAML_INDENT), _p("Add the CI workflow."), _write(".github/ci.yml"))),
    (
        0,
        420,
        "infra",
        (_p("Add the deploy workflow. " + YAML_INDENT), _write(".github/deploy.yml")),
    ),
    (
        1,
        60,
        "api",
        (
            _p(ENGLISH_REPLIES),
            _p(ENGLISH_COMMITS + " Add a health check endpoint."),
            _write("app/health.py"),
            _run("uv run pytest -q", PYTEST_PASS),
            _commit("Add the health check endpoint"),
        ),
    ),
    (
        2,
        60,
        "api",
        (
            _p(PYTEST),
            _p(TYPE_HINTS),
            _p("We need an orders table. " + POSTGRES),
            _write("app/db.py"),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
    ),
    (3, 60, "shop", _coupon_fix("The cart total is wrong when a coupon is applied twice.")),
    (4, 60, "shop", (_p(DIFF_FIRST), _edit("src/cart/cart.css"), _run("pnpm test", PNPM_PASS))),
    # week 2
    (8, 60, "shop", (_p(PNPM_AGAIN), _run("pnpm install", "Done in 2.1s"))),
    (
        9,
        60,
        "api",
        (
            _p(ENGLISH_COMMITS),
            _p(PYTEST + " Add the orders list endpoint."),
            _edit("app/orders.py"),
            _run("uv run pytest -q", PYTEST_PASS),
            _commit("Add the orders list endpoint"),
        ),
    ),
    (11, 60, "api", (_p(ENGLISH_REPLIES), _p(TYPE_HINTS), _edit("app/orders.py"))),
    (12, 60, "shop", _coupon_fix("The coupon total type error is back after the merge.")),
    # week 3
    (15, 60, "shop", (_p(PNPM), _p("Add the wishlist page."), _write("src/wishlist/page.tsx"))),
    (
        16,
        60,
        "api",
        (
            _p(PYTEST),
            _p("Add the orders migration."),
            _say(POSTGRES),
            _write("migrations/0001_orders.sql"),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
    ),
    (
        18,
        60,
        "api",
        (_p(ENGLISH_COMMITS), _p(ENGLISH_REPLIES), _commit("Add the orders migration")),
    ),
    # week 4
    (22, 60, "shop", (_p(PNPM_AGAIN), *_coupon_fix("The coupon total is wrong again on main."))),
    (24, 60, "api", (_p(TYPE_HINTS), _p(PYTEST), _run("uv run pytest -q", PYTEST_PASS))),
    # week 5
    (29, 60, "shop", (_p(PNPM), _run("pnpm install", "Done in 1.8s"))),
    (
        30,
        60,
        "api",
        (_p(ENGLISH_COMMITS), _p(ENGLISH_REPLIES), _commit("Add refunds to the orders API")),
    ),
    # week 6
    (37, 60, "api", (_p(PYTEST), _p(TYPE_HINTS), _run("uv run pytest -q", PYTEST_PASS))),
    # week 7
    (43, 60, "shop", (_p(PNPM_AGAIN), _run("pnpm test", PNPM_PASS))),
    (44, 60, "api", (_p(KOREAN_COMMITS), _commit("주문 목록에 페이지네이션 추가"))),
    # week 8
    (50, 60, "api", (_p(KOREAN_COMMITS), _p(ENGLISH_REPLIES), _commit("환불 로그 추가"))),
    (52, 60, "shop", (_p(PNPM), _run("pnpm install", "Done in 2.0s"))),
    # week 9
    (
        57,
        60,
        "api",
        (
            _p(KOREAN_COMMITS),
            _p(PYTEST),
            _p(TYPE_HINTS),
            _run("uv run pytest -q", PYTEST_PASS),
            _commit("주문 스키마 정리"),
        ),
    ),
    (
        59,
        60,
        "api",
        (
            _p("Add an index on the orders table."),
            _say(POSTGRES),
            _write("migrations/0002_orders_index.sql"),
        ),
    ),
    # week 10
    (
        64,
        60,
        "infra",
        (_p(KOREAN_COMMITS), _edit("network/main.tf"), _commit("네트워크 모듈 분리")),
    ),
    (66, 60, "shop", (_p(PNPM_AGAIN), _run("pnpm test", PNPM_PASS))),
    # week 11
    (
        71,
        60,
        "api",
        (
            _p(KOREAN_COMMITS),
            _p(PYTEST),
            _p(ENGLISH_REPLIES),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
    ),
    # week 12
    (78, 60, "shop", (_p(KOREAN_COMMITS), _p(PNPM), _commit("쿠폰 문구 수정"))),
    (80, 60, "api", (_p(TYPE_HINTS), _edit("app/refunds.py"))),
    # week 13
    (
        85,
        60,
        "api",
        (
            _p(KOREAN_COMMITS),
            _p(PYTEST),
            _p(ENGLISH_REPLIES),
            _p(TYPE_HINTS),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
    ),
    (87, 60, "shop", (_p(PNPM_AGAIN), _run("pnpm test", PNPM_PASS))),
)

# The everyday work: a few templates per project, taken in rotation.
_FILLER: dict[str, tuple[tuple[Step, ...], ...]] = {
    "shop": (
        (_p("Tidy the cart styles."), _edit("src/cart/cart.css"), _run("pnpm test", PNPM_PASS)),
        (
            _p("쿠폰 총액 테스트를 추가해줘."),
            _write("src/coupon/total.test.ts"),
            _run("pnpm test", PNPM_PASS),
        ),
        (
            _p("Rename the checkout button."),
            _edit("src/checkout/button.tsx"),
            _run("pnpm lint", "✔ No problems"),
        ),
    ),
    "api": (
        (
            _p("Log the request id."),
            _edit("app/logging.py"),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
        (
            _p("주문 API 응답에 통화 필드를 넣어줘."),
            _edit("app/orders.py"),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
    ),
    "infra": (
        (
            _p("Bump the provider versions."),
            _edit("versions.tf"),
            _run("terraform plan", "No changes."),
        ),
    ),
    "docs": (
        (_p("Fix a typo on the home page."), _edit("docs/index.md")),
        (_p("배포 문서를 정리해줘."), _edit("docs/deploy.md"), _run("mkdocs build", "Built")),
    ),
}
_FILLER_DAYS = (
    *(1, 3, 5, 7, 10, 14, 17, 20, 23, 26, 28, 32, 35, 38, 41, 45, 48, 53, 55, 60, 62),
    *(65, 68, 72, 75, 79, 82, 84, 88, 90),
)
_FILLER_PROJECTS = ("shop", "api", "docs", "infra", "shop", "api")


def quarter() -> tuple[Session, ...]:
    """The quarter's sessions, in time order: the stories at 10:00, the everyday work after."""
    planned = list(_STORY_SESSIONS)
    turns: dict[str, int] = {}
    for index, day in enumerate(_FILLER_DAYS):
        project = _FILLER_PROJECTS[index % len(_FILLER_PROJECTS)]
        templates = _FILLER[project]
        turn = turns.get(project, 0)
        turns[project] = turn + 1
        steps = templates[turn % len(templates)]
        planned.append((day, 300 + 30 * (index % 3), project, (*steps, _say("Done."))))
    planned.sort(key=lambda item: (item[0], item[1]))
    return tuple(
        Session(number, day, minute, project, "main", steps, minutes=25, epoch=DAY_ZERO)
        for number, (day, minute, project, steps) in enumerate(planned, start=FIRST_NUMBER)
    )


def _numbers_saying(*texts: str) -> tuple[int, ...]:
    """The numbers of the sessions in which one of ``texts`` is said (prompt or reply)."""
    return tuple(
        session.number
        for session in quarter()
        if any(text in step.text for step in session.steps for text in texts)
    )


# Which sessions carry each story (by their number): what the tests pin.
STORIES: dict[str, tuple[int, ...]] = {
    "rising": _numbers_saying(PNPM, PNPM_AGAIN),
    "reversed-old": _numbers_saying(ENGLISH_COMMITS),
    "reversed-new": _numbers_saying(KOREAN_COMMITS),
    "unused": _numbers_saying(YAML_INDENT),
    "steady-pytest": _numbers_saying(PYTEST),
    "steady-replies": _numbers_saying(ENGLISH_REPLIES),
    "steady-type-hints": _numbers_saying(TYPE_HINTS),
    "one-off": _numbers_saying(DIFF_FIRST),
    "decision": _numbers_saying(POSTGRES),
    "fix": _numbers_saying(COUPON_FIX),
}


def evolve_times() -> tuple[datetime, ...]:
    """The Monday 09:00 UTC after each week: when the weekly evolve runs (the last, 11-30)."""
    return tuple(DAY_ZERO + timedelta(days=7 * week) for week in range(1, WEEKS + 1))


def week_of(session: Session) -> int:
    """The week (1 to 13) a session falls in."""
    return session.day // 7 + 1
