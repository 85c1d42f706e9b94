"""A lived month: four projects' sessions through the real hooks, and what a memory must know.

Not a benchmark itself: ``context_quality.py`` (what a session start receives) and
``prompt_recall_lived.py`` (what each prompt gets) read it. Run as a script it builds a
home for a person to look at::

    python benchmarks/livedmonth.py --home DIR [--until SESSION]

The month: Monday 2026-10-05 to Sunday 2026-11-01, 57 sessions (:func:`month`) in four
projects: ``shop`` (TypeScript on pnpm, a web shop), ``api`` (Python on uv, FastAPI and
pytest), ``infra`` (Terraform on AWS) and ``docs`` (a MkDocs site), asked in English and
Korean as people type them. Besides the everyday work (edits, test runs that pass or fail,
"run the tests and fix whatever fails" and "커밋해줘" asked again and again), it holds:

- decisions with their reasons, said by the user or the assistant, in several shapes
  ("We'll go with Postgres for orders because we need JSONB", "argon2로 하자. bcrypt는
  72바이트에서 잘리거든.", "Decided to verify webhook signatures against the raw body …",
  "We'll keep the Terraform state in S3 with a DynamoDB lock table, because …");
- project facts said plainly and in passing ("FYI the Stripe webhook handler lives in
  src/server/webhooks", "참고로 문서는 main에 push하면 Cloudflare Pages로 자동 배포돼",
  "remember that prod is in eu-central-1 …"), one of them replaced later (staging moves
  from Render to fly.io);
- global preferences (pnpm; commit messages in English, reversed in week 3 to Korean;
  short Korean answers) and one preference per project but docs ("In this repo …");
- people ("Sara owns the cart module …", "릴리스는 민수 님이 승인해요", Priya, 지은);
- errors: a TypeScript error fixed on day 1 that comes back on day 15 (the same
  signature), a database error fixed twice, a Terraform error left open at a session's end
  and fixed a week later, a failing test left with a "TODO" and fixed the next day, a test
  left failing at a session's end;
- "next time …" said by the assistant, "다음에 …" said by the user.

Each session is lived through the hooks as Claude Code sends them (``tests/week.py``'s
machinery: its transcripts and hook payloads), with two additions a real session has:
an edit carries what it changed (``_change``: its ``old_string`` and ``new_string``), and
a session start's worker runs the weekly evolve when it is due (``evolve_if_due``).

What a memory must know, and when, is declared here too, as :class:`Fact` rows with a
:class:`Matcher` each (tokens that must all appear in one clause of one line, English and
Korean, robust to wording), the session that says it (``since``) and the session from
which it no longer holds (``until``: superseded, fixed, done). :data:`STARTS` are the
next-session starts the context benchmark looks at; :func:`gold` and :func:`anti` derive
what each must show and must not show from the facts, by the rule in their docstrings.
"""

# Statements are written as people type them: long lines.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from week import (  # noqa: E402 - tests/ is put on the path above
    PNPM_PASS,
    PYTEST_PASS,
    Session,
    Step,
    _edit,
    _p,
    _run,
    _say,
    _write,
    hook_payloads,
    lived_home,
    transcript_rows,
)

DAY_ZERO = datetime(2026, 10, 5, 9, 0, tzinfo=timezone.utc)  # a Monday
DAYS = 28
FIRST_NUMBER = 301
PROJECTS = ("shop", "api", "infra", "docs")

# --- what the tools print ------------------------------------------------------------------

TS2322 = (
    "Exit code 2\nsrc/cart/discount.ts(31,9): error TS2322: Type 'string | undefined' is not "
    "assignable to type 'string'.\n  Type 'undefined' is not assignable to type 'string'."
)
PG_REFUSED = (
    "Exit code 1\nE   psycopg.OperationalError: connection failed: connection to server at "
    '"127.0.0.1", port 5432 failed: Connection refused\n\tIs the server running on that host '
    "and accepting TCP/IP connections?\nERROR tests/test_orders.py - psycopg.OperationalError\n"
    "1 error in 0.62s"
)
ROUNDING = (
    "Exit code 1\nFAILED tests/test_refunds.py::test_partial_refund_rounding - AssertionError: "
    "assert Decimal('3.33') == Decimal('3.34')\n1 failed, 57 passed in 2.41s"
)
TF_ACL = (
    "Exit code 1\n╷\n│ Error: Unsupported argument\n│\n│   on modules/assets/main.tf line 12, "
    'in resource "aws_s3_bucket" "assets":\n│   12:   acl    = "private"\n│\n│ An argument '
    'named "acl" is not expected here.\n╵'
)
MKDOCS_LINK = (
    "Exit code 1\nWARNING -  Doc file 'auth.md' contains a link 'tokens.md', but the target is "
    "not found among documentation files.\nAborted with 1 warnings in strict mode!"
)
COUPON_COPY = (
    "Exit code 1\n FAIL  src/cart/CouponInput.test.tsx > CouponInput > renders the error state\n"
    "AssertionError: expected 'Invalid code' to be 'Invalid coupon code'\n Test Files  1 failed "
    "| 13 passed (14)"
)
WISHLIST = (
    "Exit code 1\n FAIL  src/wishlist/page.test.tsx > WishlistPage > shows the empty state\n"
    "TypeError: Cannot read properties of undefined (reading 'length')\n ❯ src/wishlist/page.tsx:"
    "18:22\n Test Files  1 failed | 14 passed (15)\n      Tests  1 failed | 118 passed (119)"
)
TF_INIT = "Terraform has been successfully initialized!"
TF_NO_CHANGES = "No changes. Your infrastructure matches the configuration."
MKDOCS_OK = "INFO    -  Documentation built in 0.48 seconds"
RUFF_OK = "All checks passed!"
MYPY_OK = "Success: no issues found in 23 source files"
LINT_OK = "✔ No problems"
FLY_OK = "Visit your newly deployed app at https://orders-api-staging.fly.dev/"
PG_URL = "DATABASE_URL=postgresql://orders@localhost:{port}/orders_test"


def _change(path: str, old: str, new: str) -> Step:
    """An edit of ``path`` that replaces ``old`` by ``new`` (what the Edit tool is given)."""
    return Step("edit", path, json.dumps({"old_string": old, "new_string": new}))


def _plan(command: str, summary: str) -> Step:
    return _run(command, f"Plan: {summary}.")


def _commit(message: str, branch: str = "main") -> Step:
    return _run(f"git commit -am '{message}'", f"[{branch} 4e1f0a2] {message}")


def _lint_and_types() -> tuple[Step, ...]:
    return (
        _run("uv run ruff check .", RUFF_OK),
        _run("uv run mypy app", MYPY_OK),
        _run("uv run pytest -q", PYTEST_PASS),
    )


# --- the statements the facts are about (said once each, word for word) --------------------

PNPM = "hey, from now on always use pnpm, never npm — in every repo."
COMMIT_EN = "Also always write commit messages in English please."
COMMIT_KO = "앞으로 커밋 메시지는 영어 대신 한국어로 써줘. 팀에서 그렇게 하기로 했어."
REPLY_KO = "앞으로 답변은 한국어로 짧게 해줘. 코드랑 식별자는 영어 그대로 두고."
API_LINT = "In this repo always run ruff and mypy before you tell me you're done."
SHOP_EXPORTS = "btw in this project we only use named exports, no default exports please"
INFRA_APPLY = "In this repo never run terraform apply locally, only CI applies."
POSTGRES = "We need an orders table. We'll go with Postgres for orders because we need JSONB for the line items."
ARGON2 = "비밀번호 해시는 argon2로 하자. bcrypt는 72바이트에서 잘리거든."
MKDOCS = "문서 사이트 세팅하자. Docusaurus 말고 MkDocs Material로 가자, 검색이 기본으로 들어 있어서 편해."
TF_STATE = "let's bootstrap the infra repo. We'll keep the Terraform state in S3 with a DynamoDB lock table, because two of us apply from CI."
WEBHOOK_RAW = "Stripe webhooks for refunds next. Decided to verify webhook signatures against the raw body, not the parsed JSON, because re-serialising changes the bytes."
ZUSTAND = "the coupon input lags like crazy. we'll go with Zustand for the cart state instead of React context, because re-renders on every keystroke are killing it"
PORT = "yep. FYI the local Postgres is on 5433, my other stuff already uses 5432."
RENDER = "add the GET /orders/{id} endpoint. btw staging is on Render, it deploys from render.yaml in the repo root"
FLY = "참고로 스테이징은 이제 fly.io로 배포해. Render는 이번 주에 내렸어."
WEBHOOK_PATH = "FYI the Stripe webhook handler lives in src/server/webhooks, not in the api repo."
CF_PAGES = "참고로 문서는 main에 push하면 Cloudflare Pages로 자동 배포돼."
REGIONS = "remember that prod is in eu-central-1 and staging in eu-west-1"
SARA = "Sara owns the cart module, keep her API stable — don't rename anything exported from src/cart/index.ts"
PRIYA = "Ask Priya before changing anything in the VPC module, she's mid-migration."
MINSU = "릴리스는 민수 님이 승인해요. 태그 달기 전에 꼭 확인받아 주세요."
JIEUN = "문서 리뷰는 지은 님이 해 주세요. PR 올리면 지은 님을 리뷰어로 넣어줘."
TS_FIX = "The coupon code can be undefined when the cart is empty, so I default it to an empty string with `?? ''`."
TS_FIX_AGAIN = "Same as last time: coupon.code can be undefined when the cart is empty, so I default it with `?? ''`."
PG_FIX = "The tests try Postgres on 5432, but the docker-compose database listens on 5433. I pointed DATABASE_URL in .env.test at port 5433."
PG_FIX_AGAIN = "Same as before: .env.test was reset to port 5432 by the template update; the local Postgres is on 5433. Fixed DATABASE_URL again."
ACL_NEXT = "AWS provider v5 doesn't accept `acl` on aws_s3_bucket anymore; it has to move into a separate aws_s3_bucket_acl resource. Next time I can do that split."
ACL_LEAVE = "ugh, leave it for now, I have a meeting. we'll pick it up tomorrow"
ACL_FIX = "Moved the ACL into its own aws_s3_bucket_acl resource with bucket ownership controls; the plan is clean now."
ROUNDING_TODO = "ok stop here, I need to go. TODO: fix the refund rounding test tomorrow, it should round half-up to the cent."
ROUNDING_FIX = "Rounding now uses quantize(Decimal('0.01'), rounding=ROUND_HALF_UP); test_partial_refund_rounding passes."
TOKENS_FIX = "auth.md linked to tokens.md, which didn't exist yet; I added docs/tokens.md and the strict build passes."
COPY_FIX = "The error message changed in the copy update; I aligned the component with the test."
WISHLIST_LEAVE = "out of time, leave it. I'll look at the wishlist test tomorrow"
WISHLIST_FIX = "items was undefined until the fetch resolved; it now starts as an empty array."
E2E_NEXT = "Disabled the button for an empty cart and added a unit test. Next time we should add an e2e test for the empty-cart checkout; I only covered it with a unit test."
ROLLBACK_NEXT = "다음에 배포 가이드에 롤백 절차도 추가하자."
TESTS = "run the tests and fix whatever fails"
LINT = "pnpm lint 돌려줘"
COMMIT_IT = "커밋해줘"
OPENAPI = "regenerate the openapi spec"


# --- the month -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Matcher:
    """Tokens that must all appear in one clause: each group one of its words, none of ``unless``.

    A word is matched case-insensitively; an ASCII word only as a whole word (``npm`` is not
    found in ``pnpm``), a word ending in ``*`` as a prefix (``commit*``: commits,
    committing); a Korean word anywhere (particles attach to it: ``argon2로``).

    >>> M("postgres*", "jsonb").matches("Orders DB: PostgreSQL (we need JSONB)")
    True
    >>> M("pnpm", "npm").matches("`pnpm test` ×6")
    False
    >>> M("커밋|commit*", "한국어|korean").matches("커밋 메시지는 한국어로")
    True
    """

    groups: tuple[tuple[str, ...], ...]
    unless: tuple[str, ...] = ()

    def matches(self, clause: str) -> bool:
        """Tell whether ``clause`` holds a word of every group and no word of ``unless``."""
        return all(_any_word(group, clause) for group in self.groups) and not _any_word(
            self.unless, clause
        )

    def found_in(self, text: str) -> str | None:
        """Return the first clause of ``text`` that matches, or None."""
        return next((c for c in clauses(text) if self.matches(c)), None)

    def words(self) -> list[str]:
        """Every word of every group (for the tests: each must come from the month)."""
        return [word for group in self.groups for word in group]


def M(*groups: str, unless: str = "") -> Matcher:  # noqa: N802 - reads as a table cell
    """A :class:`Matcher` from ``"a|b|c"`` groups."""
    return Matcher(
        tuple(tuple(group.split("|")) for group in groups),
        tuple(unless.split("|")) if unless else (),
    )


@cache
def _pattern(word: str) -> re.Pattern[str]:
    prefix = word.endswith("*")
    core = word.removesuffix("*")
    source = re.escape(core)
    if core[:1].isascii() and core[:1].isalnum():
        source = r"(?<![A-Za-z0-9])" + source
    if not prefix and core[-1:].isascii() and core[-1:].isalnum():
        source += r"(?![A-Za-z0-9])"
    return re.compile(source, re.IGNORECASE)


def _any_word(words: tuple[str, ...], clause: str) -> bool:
    return any(_pattern(word).search(clause) for word in words)


_CLAUSE_BREAK = re.compile(r" / ")


def clauses(text: str) -> list[str]:
    """The clauses of ``text``: each line, cut at `` / `` (the parts of a one-line summary).

    A fact counts as said only when one clause says it: a session summary that holds every
    word of its session on one line would otherwise find facts in words that sit apart.
    Not cut at `` | ``, which code holds (``string | undefined``), nor at ``;``, which
    joins a cause to its fix.

    >>> clauses("Asked: fix the cart / Edited: a.ts\\nnext")
    ['Asked: fix the cart', 'Edited: a.ts', 'next']
    """
    return [part for line in text.splitlines() for part in _CLAUSE_BREAK.split(line) if part]


# Status words: an error said to be still open, or fixed. Exempt from the check that every
# word of a matcher comes from the month (they describe, they do not quote).
OPEN = (
    "not fixed|unfixed|unresolved|no fix|still fail*|still open|still broken|still red"
    "|left open|open|failing|fails|미해결|해결되지|해결 안|아직|깨져|실패 중|todo|tomorrow"
    "|next time|내일|다음에"
)
FIXED = "fix|fixed|fixes|resolved|succeeded|solved|worked|해결|고쳤|고침|수정"
NOT_FIXED = "not fixed|unfixed|unresolved|no fix|미해결|해결되지|해결 안|todo|tomorrow|내일"
# A request to fix ("let's fix it", "고쳐줘") claims neither: it is an ask, not a status.
REQUEST = "let's fix|fix it|can you fix|please fix|고쳐줘|고쳐"
STATUS_WORDS = frozenset(OPEN.split("|")) | frozenset(FIXED.split("|"))


@dataclass(frozen=True)
class Planned:
    """One session as written: day, minutes after 09:00 UTC, project, branch, length, steps.

    ``gist``: what the session was about, as a matcher (the "last session" a start shows).
    """

    day: int
    minute: int
    project: str
    minutes: int
    steps: tuple[Step, ...]
    gist: Matcher
    branch: str = "main"


PLAN: tuple[Planned, ...] = (
    # --- week 1 ---------------------------------------------------------------------------
    Planned(
        0,
        10,
        "shop",
        40,
        (
            _p(PNPM),
            _p(COMMIT_EN),
            _p("set up the coupon input on the cart page"),
            _write("src/cart/CouponInput.tsx"),
            _write("src/cart/CouponInput.test.tsx"),
            _run("pnpm test", PNPM_PASS),
            _say("Added CouponInput with its test; the suite passes."),
        ),
        M("coupon*", "input*"),
    ),
    Planned(
        0,
        120,
        "api",
        60,
        (
            _p(POSTGRES),
            _write("app/models/order.py"),
            _write("migrations/0001_orders.sql"),
            _run("uv run pytest -q", PG_REFUSED, failed=True),
            _say(PG_FIX),
            _change(".env.test", PG_URL.format(port=5432), PG_URL.format(port=5433)),
            _run("uv run pytest -q", PYTEST_PASS),
            _p(PORT),
        ),
        M("orders", "table|postgres*"),
    ),
    Planned(
        0,
        360,
        "infra",
        30,
        (
            _p(TF_STATE),
            _write("backend.tf"),
            _write("versions.tf"),
            _run("terraform init", TF_INIT),
            _say("Backend configured: S3 bucket acme-tf-state with the tf-locks DynamoDB table."),
        ),
        M("bootstrap*|backend*"),
    ),
    Planned(
        1,
        30,
        "shop",
        45,
        (
            _p(SARA),
            _p("add a percent-off coupon type"),
            _change(
                "src/cart/discount.ts",
                "export type CouponKind = 'fixed'",
                "export type CouponKind = 'fixed' | 'percent'",
            ),
            _run("pnpm exec tsc --noEmit", TS2322, failed=True),
            _say(TS_FIX),
            _change(
                "src/cart/discount.ts",
                "const code: string = coupon.code",
                "const code: string = coupon.code ?? ''",
            ),
            _run("pnpm exec tsc --noEmit"),
            _run("pnpm test", PNPM_PASS),
        ),
        M("percent*", "coupon*"),
    ),
    Planned(
        1,
        240,
        "api",
        40,
        (
            _p(ARGON2),
            _write("app/auth/hashing.py"),
            _write("tests/test_hashing.py"),
            _run("uv run pytest -q", PYTEST_PASS),
            _p("좋아 " + COMMIT_IT),
            _commit("Add argon2 password hashing", "feature/auth"),
        ),
        M("argon2|hash*|해시"),
        branch="feature/auth",
    ),
    Planned(
        1,
        450,
        "docs",
        30,
        (
            _p(MKDOCS),
            _write("mkdocs.yml"),
            _write("docs/index.md"),
            _run("mkdocs build --strict", MKDOCS_OK),
            _p(CF_PAGES),
            _say("알겠습니다. mkdocs.yml에 site_url도 맞춰 뒀어요."),
        ),
        M("mkdocs|문서 사이트"),
    ),
    Planned(
        2,
        20,
        "api",
        40,
        (
            _p(API_LINT),
            _p(RENDER),
            _change(
                "app/routes/orders.py",
                "router = APIRouter()",
                'router = APIRouter()\n\n@router.get("/orders/{order_id}")',
            ),
            *_lint_and_types(),
        ),
        M("orders/{id}|endpoint*", "get|orders*"),
    ),
    Planned(
        2,
        300,
        "infra",
        35,
        (
            _p(PRIYA),
            _p("add an S3 bucket for the shop's product images"),
            _write("modules/assets/main.tf"),
            _run("terraform plan", TF_ACL, failed=True),
            _say(ACL_NEXT),
            _p(ACL_LEAVE),
        ),
        M("bucket*|s3", "image*|asset*"),
    ),
    Planned(
        2,
        420,
        "shop",
        15,
        (_p(TESTS), _run("pnpm test", PNPM_PASS), _say("All green, nothing to fix.")),
        M("test*|테스트", "fix*|fail*|run*"),
    ),
    Planned(
        3,
        60,
        "shop",
        50,
        (
            _p(WEBHOOK_PATH),
            _p("handle payment_intent.succeeded there and mark the order paid"),
            _change(
                "src/server/webhooks/stripe.ts",
                "switch (event.type) {",
                "switch (event.type) {\n    case 'payment_intent.succeeded': return markPaid(event.data.object)",
            ),
            _write("src/server/webhooks/stripe.test.ts"),
            _run("pnpm test", PNPM_PASS),
            _p(SHOP_EXPORTS),
            _say("Switched the handler to a named export."),
        ),
        M("payment_intent*|paid|webhook*"),
        branch="feature/webhooks",
    ),
    Planned(
        3,
        270,
        "api",
        60,
        (
            _p("add partial refunds to the orders API"),
            _write("app/refunds.py"),
            _run("uv run pytest -q", ROUNDING, failed=True),
            _change(
                "app/refunds.py",
                "amount = total * share",
                "amount = (total * share).quantize(Decimal('0.01'))",
            ),
            _run("uv run pytest -q", ROUNDING, failed=True),
            _p(ROUNDING_TODO),
        ),
        M("refund*", "partial|rounding"),
    ),
    Planned(
        3,
        420,
        "docs",
        25,
        (
            _p("배포 가이드 페이지 추가해줘"),
            _write("docs/deploy.md"),
            _run("mkdocs build --strict", MKDOCS_OK),
        ),
        M("배포 가이드|deploy"),
    ),
    Planned(
        4,
        30,
        "infra",
        30,
        (
            _p(REGIONS),
            _p("bump the aws provider to 5.70"),
            _change("versions.tf", 'version = "~> 5.40"', 'version = "~> 5.70"'),
            _run("terraform init -upgrade", TF_INIT),
        ),
        M("provider*", "5.70|bump*"),
    ),
    Planned(
        4,
        150,
        "api",
        30,
        (
            _p("refund rounding test is still red, let's fix it. round half up to the cent"),
            _run("uv run pytest -q tests/test_refunds.py", ROUNDING, failed=True),
            _change(
                "app/refunds.py",
                "(total * share).quantize(Decimal('0.01'))",
                "(total * share).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)",
            ),
            _run("uv run pytest -q tests/test_refunds.py", "3 passed in 0.41s"),
            _run("uv run pytest -q", PYTEST_PASS),
            _say(ROUNDING_FIX),
        ),
        M("rounding|round*", "refund*|half*|test*"),
    ),
    Planned(
        4,
        360,
        "shop",
        20,
        (_p(TESTS), _run("pnpm test", PNPM_PASS), _p(LINT), _run("pnpm lint", LINT_OK)),
        M("test*|lint", "fix*|fail*|run*|돌려"),
    ),
    Planned(
        5, 120, "docs", 10, (_p("README 오타 좀 고쳐줘"), _edit("README.md")), M("readme", "오타")
    ),
    # --- week 2 ---------------------------------------------------------------------------
    Planned(
        7,
        15,
        "shop",
        30,
        (
            _p(REPLY_KO),
            _p("장바구니 합계에 배송비 추가해줘"),
            _change(
                "src/cart/total.ts",
                "return subtotal - discount",
                "return subtotal - discount + shipping",
            ),
            _run("pnpm test", PNPM_PASS),
            _say("배송비를 합계에 더했어요. 테스트 통과."),
        ),
        M("배송비|shipping"),
    ),
    Planned(
        7,
        120,
        "api",
        30,
        (
            _p(FLY),
            _p("환불 브랜치 스테이징에 올려줘"),
            _run("fly deploy -c fly.staging.toml", FLY_OK),
        ),
        M("스테이징|staging", "환불|refund*|올려|deploy*"),
    ),
    Planned(
        7,
        300,
        "infra",
        40,
        (
            _p("let's fix the acl error on the assets bucket from last week"),
            _run("terraform plan", TF_ACL, failed=True),
            _change("modules/assets/main.tf", '  acl    = "private"\n', ""),
            _write("modules/assets/acl.tf"),
            _plan("terraform plan", "3 to add, 0 to change, 0 to destroy"),
            _say(ACL_FIX),
        ),
        M("acl", "bucket*|asset*|fix*"),
    ),
    Planned(
        8,
        60,
        "shop",
        40,
        (
            _p("checkout 버튼 비활성화 조건 좀 고쳐줘. 장바구니 비었을 때도 눌려"),
            _change(
                "src/checkout/CheckoutButton.tsx",
                "disabled={loading}",
                "disabled={loading || items.length === 0}",
            ),
            _write("src/checkout/CheckoutButton.test.tsx"),
            _run("pnpm test", PNPM_PASS),
            _say(E2E_NEXT),
        ),
        M("checkout*", "버튼|button|비활성|disable*"),
        branch="feature/checkout",
    ),
    Planned(
        8,
        240,
        "api",
        25,
        (_p(MINSU), _p("v0.3.0 릴리스 노트 초안 써줘"), _write("docs/releases/0.3.0.md")),
        M("릴리스 노트|release notes|0.3.0"),
    ),
    Planned(
        8,
        420,
        "docs",
        40,
        (
            _p(JIEUN),
            _p("API 인증 문서 추가해줘"),
            _write("docs/auth.md"),
            _run("mkdocs build --strict", MKDOCS_LINK, failed=True),
            _write("docs/tokens.md"),
            _run("mkdocs build --strict", MKDOCS_OK),
            _say(TOKENS_FIX),
        ),
        M("인증|auth*", "문서|doc*|page"),
    ),
    Planned(
        9,
        30,
        "shop",
        25,
        (
            _p(TESTS),
            _run("pnpm test", COUPON_COPY, failed=True),
            _change("src/cart/CouponInput.tsx", "'Invalid code'", "'Invalid coupon code'"),
            _run("pnpm test", PNPM_PASS),
            _say(COPY_FIX),
        ),
        M("test*|테스트", "fix*|fail*|run*"),
    ),
    Planned(
        9,
        120,
        "infra",
        30,
        (
            _p("add a CloudFront distribution in front of the assets bucket"),
            _write("modules/cdn/main.tf"),
            _plan("terraform plan", "2 to add, 0 to change, 0 to destroy"),
            _p(COMMIT_IT),
            _commit("Add CloudFront for the assets bucket"),
        ),
        M("cloudfront|cdn"),
    ),
    Planned(
        9,
        360,
        "api",
        30,
        (
            _p("add a GET /refunds list endpoint"),
            _write("app/routes/refunds.py"),
            *_lint_and_types(),
            _p("and " + OPENAPI),
            _run("uv run python -m app.openapi > openapi.json"),
        ),
        M("refunds", "list|endpoint*"),
    ),
    Planned(
        10,
        60,
        "shop",
        15,
        (
            _p(LINT),
            _run("pnpm lint", LINT_OK),
            _p("coupon 컴포넌트 주석 좀 정리해줘"),
            _edit("src/cart/CouponInput.tsx"),
        ),
        M("lint|주석|coupon*"),
    ),
    Planned(
        10,
        300,
        "api",
        45,
        (_p(WEBHOOK_RAW), _write("app/webhooks.py"), _run("uv run pytest -q", PYTEST_PASS)),
        M("webhook*|웹훅"),
        branch="feature/webhooks",
    ),
    Planned(
        11,
        30,
        "infra",
        20,
        (
            _p(INFRA_APPLY),
            _p("plan the cdn change again and show me the diff"),
            _plan("terraform plan", "2 to add, 0 to change, 0 to destroy"),
        ),
        M("cdn|plan", "change*|diff|plan"),
    ),
    Planned(
        11,
        240,
        "docs",
        30,
        (
            _p("배포 가이드 다듬어줘"),
            _edit("docs/deploy.md"),
            _run("mkdocs build --strict", MKDOCS_OK),
            _p(ROLLBACK_NEXT),
        ),
        M("배포 가이드|deploy"),
    ),
    Planned(
        11,
        420,
        "shop",
        20,
        (_p(TESTS), _run("pnpm test", PNPM_PASS)),
        M("test*|테스트", "fix*|fail*|run*"),
    ),
    Planned(
        12,
        120,
        "shop",
        15,
        (
            _p("small thing: rename formatPrice to formatMoney everywhere"),
            _change(
                "src/lib/money.ts", "export function formatPrice", "export function formatMoney"
            ),
            _run("pnpm test", PNPM_PASS),
        ),
        M("formatmoney|formatprice"),
    ),
    # --- week 3 ---------------------------------------------------------------------------
    Planned(
        14,
        15,
        "api",
        40,
        (
            _p(COMMIT_KO),
            _p("환불 목록 엔드포인트에 페이지네이션 추가해줘"),
            _change(
                "app/routes/refunds.py",
                "def list_refunds():",
                "def list_refunds(page: int = 1, size: int = 50):",
            ),
            *_lint_and_types(),
            _p(COMMIT_IT),
            _commit("환불 목록에 페이지네이션 추가"),
        ),
        M("페이지네이션|paginat*"),
    ),
    Planned(
        14,
        150,
        "shop",
        35,
        (
            _p("Add the wishlist page"),
            _write("src/wishlist/page.tsx"),
            _write("src/wishlist/page.test.tsx"),
            _run("pnpm test", PNPM_PASS),
        ),
        M("wishlist|위시리스트"),
    ),
    Planned(
        14,
        360,
        "infra",
        15,
        (
            _p("Bump the provider versions"),
            _edit("versions.tf"),
            _run("terraform plan", TF_NO_CHANGES),
        ),
        M("provider*", "bump*|version*"),
    ),
    Planned(
        15,
        60,
        "shop",
        30,
        (
            _p("the discount type error is back after merging main, can you fix it"),
            _run("pnpm exec tsc --noEmit", TS2322, failed=True),
            _change(
                "src/cart/discount.ts",
                "const code: string = coupon.code",
                "const code: string = coupon.code ?? ''",
            ),
            _say(TS_FIX_AGAIN),
            _run("pnpm exec tsc --noEmit"),
            _run("pnpm test", PNPM_PASS),
        ),
        M("discount*|ts2322", "error*|fix*|back"),
    ),
    Planned(
        15,
        240,
        "api",
        20,
        (
            _p(OPENAPI),
            _run("uv run python -m app.openapi > openapi.json"),
            _p(COMMIT_IT),
            _commit("openapi 스펙 갱신"),
        ),
        M("openapi"),
    ),
    Planned(
        15,
        420,
        "docs",
        30,
        (
            _p("롤백 절차 문서 추가해줘"),
            _write("docs/rollback.md"),
            _edit("mkdocs.yml"),
            _run("mkdocs build --strict", MKDOCS_OK),
        ),
        M("롤백|rollback"),
    ),
    Planned(
        16,
        30,
        "api",
        20,
        (_p("deploy main to staging"), _run("fly deploy -c fly.staging.toml", FLY_OK)),
        M("deploy*|배포", "staging|스테이징"),
    ),
    Planned(
        16,
        300,
        "infra",
        30,
        (
            _p("월 예산 알람 추가해줘. 200달러 넘으면 메일로"),
            _write("modules/billing/main.tf"),
            _plan("terraform plan", "1 to add, 0 to change, 0 to destroy"),
        ),
        M("예산|budget*", "알람|alarm*|alert*"),
    ),
    Planned(
        17,
        60,
        "shop",
        20,
        (_p(TESTS), _run("pnpm test", PNPM_PASS), _p(LINT), _run("pnpm lint", LINT_OK)),
        M("test*|lint", "fix*|fail*|run*|돌려"),
    ),
    Planned(
        17,
        300,
        "api",
        30,
        (
            _p("환불 웹훅 서명 검증 테스트 추가해줘"),
            _write("tests/test_webhooks.py"),
            _run("uv run pytest -q", PYTEST_PASS),
            _p(COMMIT_IT),
            _commit("웹훅 서명 검증 테스트 추가"),
        ),
        M("웹훅|webhook*", "테스트|test*"),
    ),
    Planned(
        18, 30, "docs", 10, (_p("홈 페이지 오타 수정해줘"), _edit("docs/index.md")), M("오타|typo*")
    ),
    Planned(
        18,
        120,
        "infra",
        25,
        (
            _p("rename the assets module outputs to bucket_name and bucket_arn"),
            _change("modules/assets/outputs.tf", 'output "name"', 'output "bucket_name"'),
            _run("terraform validate", "Success! The configuration is valid."),
        ),
        M("output*", "rename*|bucket_name"),
    ),
    Planned(
        18,
        360,
        "shop",
        40,
        (
            _p(ZUSTAND),
            _write("src/cart/store.ts"),
            _edit("src/cart/CouponInput.tsx"),
            _run("pnpm test", PNPM_PASS),
        ),
        M("zustand|cart state"),
    ),
    # --- week 4 ---------------------------------------------------------------------------
    Planned(
        21,
        15,
        "api",
        20,
        (_p(OPENAPI + " pls"), _run("uv run python -m app.openapi > openapi.json")),
        M("openapi"),
    ),
    Planned(
        21,
        120,
        "shop",
        25,
        (
            _p("위시리스트에 로딩 상태 추가해줘"),
            _edit("src/wishlist/page.tsx"),
            _run("pnpm test", PNPM_PASS),
        ),
        M("위시리스트|wishlist", "로딩|loading"),
    ),
    Planned(
        21,
        300,
        "infra",
        20,
        (
            _p("스테이징 DNS 레코드 fly.io로 돌려줘"),
            _change(
                "dns.tf",
                'records = ["staging-orders.onrender.com"]',
                'records = ["orders-api-staging.fly.dev"]',
            ),
            _plan("terraform plan", "0 to add, 1 to change, 0 to destroy"),
        ),
        M("dns", "fly*|스테이징|staging"),
    ),
    Planned(
        22,
        30,
        "api",
        30,
        (
            _p("tests can't connect to the db again??"),
            _run("uv run pytest -q", PG_REFUSED, failed=True),
            _say(PG_FIX_AGAIN),
            _change(".env.test", PG_URL.format(port=5432), PG_URL.format(port=5433)),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
        M("db|database|connect*"),
    ),
    Planned(
        22,
        240,
        "docs",
        20,
        (
            _p("API 인증 문서에 토큰 갱신 설명 추가해줘"),
            _edit("docs/auth.md"),
            _run("mkdocs build --strict", MKDOCS_OK),
        ),
        M("토큰|token*", "갱신|refresh*"),
    ),
    Planned(
        22,
        420,
        "shop",
        40,
        (
            _p(TESTS),
            _run("pnpm test", WISHLIST, failed=True),
            _change("src/wishlist/page.tsx", "items.length", "items?.length"),
            _run("pnpm test", WISHLIST, failed=True),
            _p(WISHLIST_LEAVE),
        ),
        M("test*|테스트", "fix*|fail*|run*|wishlist"),
    ),
    Planned(
        23,
        60,
        "shop",
        25,
        (
            _p("wishlist 테스트 아직 깨져 있지? 고쳐줘"),
            _run("pnpm test -- wishlist", WISHLIST, failed=True),
            _change(
                "src/wishlist/page.tsx",
                "const [items, setItems] = useState<Item[]>()",
                "const [items, setItems] = useState<Item[]>([])",
            ),
            _run("pnpm test -- wishlist", PNPM_PASS),
            _say(WISHLIST_FIX),
        ),
        M("wishlist|위시리스트", "테스트|test*|고쳐|fix*"),
    ),
    Planned(
        23,
        300,
        "api",
        15,
        (_p("v0.4.0 태그 달아줘. 민수 님 승인 받았어."), _run("git tag v0.4.0 && git push --tags")),
        M("v0.4.0|태그|tag*"),
    ),
    Planned(
        24,
        30,
        "infra",
        20,
        (
            _p("terraform fmt 돌리고 plan 봐줘"),
            _run("terraform fmt -recursive", "modules/cdn/main.tf"),
            _run("terraform plan", TF_NO_CHANGES),
        ),
        M("fmt|plan"),
    ),
    Planned(
        24,
        240,
        "shop",
        15,
        (_p(LINT), _run("pnpm lint", LINT_OK), _p(COMMIT_IT), _commit("위시리스트 빈 상태 수정")),
        M("lint|커밋|commit*"),
    ),
    Planned(
        25,
        60,
        "api",
        20,
        (
            _p("로그에 request id 넣어줘"),
            _change("app/logging.py", "fmt = '%(message)s'", "fmt = '%(request_id)s %(message)s'"),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
        M("request id|request_id"),
    ),
    Planned(
        25,
        300,
        "docs",
        20,
        (
            _p("사이드바 순서 정리해줘"),
            _edit("mkdocs.yml"),
            _run("mkdocs build --strict", MKDOCS_OK),
        ),
        M("사이드바|sidebar|nav"),
    ),
    Planned(
        26,
        120,
        "shop",
        15,
        (_p("update the README with the new pnpm scripts"), _edit("README.md")),
        M("readme", "script*|update*"),
    ),
)


@cache
def month() -> tuple[Session, ...]:
    """The month's sessions, in time order (numbers from 301)."""
    return tuple(
        Session(
            number,
            p.day,
            p.minute,
            p.project,
            p.branch,
            p.steps,
            minutes=p.minutes,
            epoch=DAY_ZERO,
        )
        for number, p in enumerate(_ordered(), start=FIRST_NUMBER)
    )


def planned(number: int) -> Planned:
    """The :class:`Planned` row of session ``number``."""
    return _ordered()[number - FIRST_NUMBER]


@cache
def _ordered() -> tuple[Planned, ...]:
    return tuple(sorted(PLAN, key=lambda p: (p.day, p.minute)))


def said_in(text: str) -> int:
    """The number of the (first) session in which ``text`` is said, printed or written."""
    for session in month():
        if any(text in _step_texts(step) for step in session.steps):
            return session.number
    raise LookupError(text)


def _step_texts(step: Step) -> str:
    return f"{step.text}\n{step.output}"


# --- what a memory must know ---------------------------------------------------------------

GOLD_KINDS = ("open", "todo", "decision", "fact", "preference", "fix", "person", "recent")
# A fact of these kinds that stopped holding must not be shown as current.
STALE_KINDS = ("open", "preference", "fact")


@dataclass(frozen=True)
class Fact:
    """One thing a helpful memory knows, when it holds, and how a line that says it reads.

    ``said``: the words of the month it comes from (each must be in the month; the first
    one dates it unless ``since`` is given). ``example``: a line that says it, as a memory
    might put it (the matcher must find it). ``until``: the session from whose end it no
    longer holds (superseded, fixed, done). ``elsewhere``: it belongs to its project only,
    so another project's start must not show it.
    """

    key: str
    kind: str
    project: str | None
    match: Matcher
    said: tuple[str, ...]
    example: str = ""
    until_said: str | None = None
    elsewhere: bool = False

    @property
    def since(self) -> int:
        """The session that says it (it holds from that session's end)."""
        return said_in(self.said[0])

    @property
    def until(self) -> int | None:
        """The session from which it no longer holds, or None."""
        return said_in(self.until_said) if self.until_said else None

    def holds_before(self, number: int) -> bool:
        """Tell whether it holds at the start of session ``number``."""
        until = self.until
        return self.since < number and (until is None or number <= until)

    @property
    def line(self) -> str:
        """The line the matcher must find: ``example``, else the first statement."""
        return self.example or self.said[0]


def _error(
    key: str,
    project: str,
    *,
    identity: str,
    substance: str,
    said: tuple[str, ...],
    fixed_by: str,
    example: str,
    left_open: tuple[str, ...] = (),
    open_example: str = "",
    command: str = "",
) -> tuple[Fact, ...]:
    """An error's facts: how it was fixed, and, when it was left open, that it was open.

    ``identity``: words that name the error itself; ``substance``: words of its fix.
    ``left_open``: what said it was left open (the first dates it); it no longer holds
    from the session that says ``fixed_by``. ``command``: the command that failed, enough
    to say that it is open ("`terraform plan` failed, not fixed yet"), not to name its fix.
    """
    fix = Fact(
        f"fix-{key}",
        "fix",
        project,
        M(identity, FIXED, substance, unless=f"{NOT_FIXED}|{REQUEST}"),
        (fixed_by, *said),
        example,
    )
    if not left_open:
        return (fix,)
    still_open = Fact(
        f"open-{key}",
        "open",
        project,
        M(f"{identity}|{command}" if command else identity, OPEN, unless=REQUEST),
        left_open,
        open_example,
        until_said=fixed_by,
    )
    return (fix, still_open)


FACTS: tuple[Fact, ...] = (
    # preferences
    Fact(
        "pref-pnpm", "preference", None, M("pnpm", "npm|never|always|package*|패키지|항상"), (PNPM,)
    ),
    Fact(
        "pref-commit-en",
        "preference",
        None,
        M("commit*|커밋", "english|영어", unless="korean|한국어"),
        (COMMIT_EN,),
        until_said=COMMIT_KO,
    ),
    Fact("pref-commit-ko", "preference", None, M("commit*|커밋", "korean|한국어"), (COMMIT_KO,)),
    Fact(
        "pref-reply-ko",
        "preference",
        None,
        M("답변|answer*|repl*|respond*", "한국어|korean"),
        (REPLY_KO,),
    ),
    Fact(
        "pref-api-lint",
        "preference",
        "api",
        M("ruff", "mypy", "before|always|done|finish*|완료|전에|끝"),
        (API_LINT,),
        elsewhere=True,
    ),
    Fact(
        "pref-shop-exports",
        "preference",
        "shop",
        M("export*", "named|default"),
        (SHOP_EXPORTS,),
        elsewhere=True,
    ),
    Fact(
        "pref-infra-apply",
        "preference",
        "infra",
        M("apply", "locally|local|laptop|로컬"),
        (INFRA_APPLY,),
        elsewhere=True,
    ),
    # decisions, with their reasons
    Fact("dec-postgres", "decision", "api", M("postgres*", "jsonb"), (POSTGRES,)),
    Fact("dec-argon2", "decision", "api", M("argon2", "bcrypt|72"), (ARGON2,)),
    Fact("dec-mkdocs", "decision", "docs", M("mkdocs", "docusaurus|검색|search"), (MKDOCS,)),
    Fact(
        "dec-tf-state", "decision", "infra", M("dynamodb", "two of us|ci|both|둘|동시"), (TF_STATE,)
    ),
    Fact(
        "dec-webhook-raw",
        "decision",
        "api",
        M("raw", "signature*|서명", "bytes|re-serialis*|re-serializ*|parsed|바이트"),
        (WEBHOOK_RAW,),
    ),
    Fact(
        "dec-zustand",
        "decision",
        "shop",
        M("zustand", "re-render*|keystroke*|리렌더|context"),
        (ZUSTAND,),
    ),
    # facts of a project
    Fact(
        "fact-port",
        "fact",
        "api",
        M("5433", "postgres*|db|database|디비|port|포트"),
        (PORT,),
        elsewhere=True,
    ),
    Fact(
        "fact-render",
        "fact",
        "api",
        M("staging|스테이징", "render", unless="fly*"),
        (RENDER,),
        until_said=FLY,
    ),
    Fact("fact-fly", "fact", "api", M("staging|스테이징", "fly*"), (FLY,)),
    Fact(
        "fact-webhook-path",
        "fact",
        "shop",
        M("webhook*|웹훅", "src/server/webhooks"),
        (WEBHOOK_PATH,),
        elsewhere=True,
    ),
    Fact("fact-pages", "fact", "docs", M("cloudflare", "pages|deploy*|배포"), (CF_PAGES,)),
    Fact("fact-regions", "fact", "infra", M("eu-central-1", "eu-west-1"), (REGIONS,)),
    # people
    Fact("person-sara", "person", "shop", M("sara", "cart|장바구니"), (SARA,)),
    Fact("person-priya", "person", "infra", M("priya", "vpc"), (PRIYA,)),
    Fact(
        "person-minsu",
        "person",
        "api",
        M("민수|minsu", "릴리스|release*|승인|approv*|태그|tag*"),
        (MINSU,),
    ),
    Fact("person-jieun", "person", "docs", M("지은|jieun", "리뷰|review*"), (JIEUN,)),
    # errors: the fix, and "still open" while it was
    *_error(
        "ts2322",
        "shop",
        identity="ts2322|'undefined' is not assignable",
        substance="??|default*|empty string|빈 문자열|fallback",
        said=(TS2322,),
        fixed_by=TS_FIX,
        example="error TS2322 in src/cart/discount.ts: fixed by defaulting coupon.code with ?? ''",
    ),
    *_error(
        "pg",
        "api",
        identity="5432|connection refused|operationalerror",
        substance="5433|database_url|.env.test",
        said=(PG_REFUSED,),
        fixed_by=PG_FIX,
        example="uv run pytest: psycopg OperationalError, connection refused on 5432: fixed by pointing DATABASE_URL at 5433",
    ),
    *_error(
        "acl",
        "infra",
        identity="acl|unsupported argument",
        substance="aws_s3_bucket_acl|acl.tf|ownership|own resource|separate resource|별도",
        said=(TF_ACL,),
        fixed_by=ACL_FIX,
        example="terraform plan: Unsupported argument acl: fixed by moving it into an aws_s3_bucket_acl resource",
        left_open=(ACL_NEXT, TF_ACL, ACL_LEAVE),
        command="terraform plan",
        open_example="terraform plan fails: Unsupported argument `acl` on aws_s3_bucket (not fixed)",
    ),
    *_error(
        "rounding",
        "api",
        identity="rounding|test_partial_refund_rounding|3.34|반올림",
        substance="round_half_up|half-up|half up",
        said=(ROUNDING,),
        fixed_by=ROUNDING_FIX,
        example="test_partial_refund_rounding: fixed with quantize(..., rounding=ROUND_HALF_UP)",
        left_open=(ROUNDING_TODO, ROUNDING),
        command="uv run pytest",
        open_example="TODO: test_partial_refund_rounding still failing at the last session's end",
    ),
    *_error(
        "tokens",
        "docs",
        identity="tokens.md",
        substance="added|created|wrote|추가|docs/tokens.md",
        said=(MKDOCS_LINK,),
        fixed_by=TOKENS_FIX,
        example="mkdocs build --strict: link to tokens.md not found: fixed, added docs/tokens.md",
    ),
    *_error(
        "coupon-copy",
        "shop",
        identity="invalid coupon code|invalid code|couponinput*",
        substance="couponinput.tsx|aligned|message|copy|문구",
        said=(COUPON_COPY,),
        fixed_by=COPY_FIX,
        example="CouponInput renders 'Invalid coupon code': fixed, the component's message aligned with the test",
    ),
    *_error(
        "wishlist",
        "shop",
        identity="wishlist|reading 'length'",
        substance="empty array|([])|빈 배열|default*",
        said=(WISHLIST,),
        fixed_by=WISHLIST_FIX,
        example="src/wishlist/page.test.tsx TypeError reading 'length': fixed, items starts as an empty array",
        left_open=(WISHLIST_LEAVE, WISHLIST),
        command="pnpm test",
        open_example="pnpm test fails at the end: wishlist page test, TypeError reading 'length' (not fixed)",
    ),
    # "next time …" / "다음에 …"
    Fact("todo-e2e", "todo", "shop", M("e2e|end-to-end", "empty*|빈"), (E2E_NEXT,)),
    Fact(
        "todo-rollback",
        "todo",
        "docs",
        M("롤백|rollback*", "다음|next|todo|추가|add*"),
        (ROLLBACK_NEXT,),
        until_said="롤백 절차 문서 추가해줘",
    ),
)
FACTS_BY_KEY = {fact.key: fact for fact in FACTS}


@dataclass(frozen=True)
class Topic:
    """Two claims that cannot both be current; shown together, the layers contradict."""

    name: str
    first: Matcher
    second: Matcher


def _error_topic(key: str) -> Topic:
    identity = "|".join(FACTS_BY_KEY[f"fix-{key}"].match.groups[0])
    fixed = M(identity, FIXED, unless=f"{NOT_FIXED}|{REQUEST}")
    return Topic(f"error {key}: fixed / still open", fixed, M(identity, OPEN, unless=REQUEST))


TOPICS: tuple[Topic, ...] = (
    Topic(
        "commit language: English / Korean",
        FACTS_BY_KEY["pref-commit-en"].match,
        M("commit*|커밋", "korean|한국어", unless="english|영어"),
    ),
    Topic(
        "staging: Render / fly.io",
        FACTS_BY_KEY["fact-render"].match,
        M("staging|스테이징", "fly*", unless="render"),
    ),
    *(
        _error_topic(key)
        for key in ("ts2322", "pg", "acl", "rounding", "wishlist", "tokens", "coupon-copy")
    ),
)


@dataclass(frozen=True)
class Start:
    """A next-session start: in ``project``, just before session ``before`` (or at ``at``)."""

    project: str
    before: int
    at: datetime

    @property
    def name(self) -> str:
        return f"{self.project} day {(self.at - DAY_ZERO).days} (before #{self.before})"


def _start_of(number: int) -> Start:
    session = month()[number - FIRST_NUMBER]
    return Start(session.project, number, session.started_at)


def _final_start(project: str, index: int) -> Start:
    return Start(
        project, FIRST_NUMBER + len(month()), DAY_ZERO + timedelta(days=DAYS, minutes=index)
    )


# The session starts the context benchmark looks at: each project several times, every
# week, some right after a session left something open or changed a preference, and the
# Monday after the month in every project.
START_SESSIONS = (304, 307, 313, 314, 319, 320, 322, 328, 332, 335, 337, 347, 348, 351, 356)


@cache
def starts() -> tuple[Start, ...]:
    """The starts, in time order."""
    return (
        *(_start_of(number) for number in START_SESSIONS),
        *(_final_start(project, index) for index, project in enumerate(PROJECTS)),
    )


def _last_session(start: Start) -> Session | None:
    earlier = [s for s in month() if s.project == start.project and s.number < start.before]
    return earlier[-1] if earlier else None


def recent_fact(start: Start) -> Fact | None:
    """What the project's last session was about, as a fact (None: no session yet)."""
    last = _last_session(start)
    if last is None:
        return None
    asks = tuple(step.text for step in last.steps if step.kind == "prompt")
    gist = planned(last.number).gist
    return Fact(f"recent-{last.number}", "recent", start.project, gist, asks)


def gold(start: Start) -> list[Fact]:
    """What a helpful memory must show at ``start``.

    The facts that hold then (said in a session before it, not yet superseded, fixed or
    done) and are global or of the start's project, in every kind a session start is for
    (open errors and TODOs, decisions with reasons, facts, preferences, fixes, people),
    and what the project's last session was about.
    """
    found = [
        fact
        for fact in FACTS
        if fact.holds_before(start.before) and fact.project in (None, start.project)
    ]
    recent = recent_fact(start)
    return [*found, *([recent] if recent else [])]


def anti(start: Start) -> list[Fact]:
    """What ``start`` must not show as current.

    A preference, fact or open error of this project or global that no longer holds
    (superseded, fixed), and a fact said before the start that belongs to another project
    only (its own preference, a path, a port).
    """
    stale = [
        fact
        for fact in FACTS
        if fact.kind in STALE_KINDS
        and fact.until is not None
        and fact.until < start.before
        and fact.project in (None, start.project)
    ]
    foreign = [
        fact
        for fact in FACTS
        if fact.elsewhere and fact.project != start.project and fact.since < start.before
    ]
    return [*stale, *foreign]


# --- living it -----------------------------------------------------------------------------


def _changes(session: Session) -> dict[str, dict[str, str]]:
    """The tool-use ids of ``session``'s edits that say what they changed, and what."""
    return {
        f"toolu_{session.number:02d}{index:02d}": json.loads(step.output)
        for index, step in enumerate(session.steps)
        if step.kind == "edit" and step.output
    }


def _with_changes(given: Any, changes: dict[str, str]) -> Any:
    return {**given, **changes} if isinstance(given, dict) else given


def write_transcript(session: Session, root: Path) -> Path:
    """Write ``session``'s transcript (tests/week.py's rows, edits with their change)."""
    changes = _changes(session)
    rows = transcript_rows(session, root)
    for row in rows:
        content = row["message"]["content"]
        for block in content if isinstance(content, list) else ():
            if block.get("type") == "tool_use" and block["id"] in changes:
                block["input"] = _with_changes(block["input"], changes[block["id"]])
    folder = root / "transcripts"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session.session_id}.jsonl"
    path.write_text(
        "\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + "\n", encoding="utf-8"
    )
    return path


def payloads(
    session: Session, root: Path, transcript: Path
) -> list[tuple[datetime, str, dict[str, Any]]]:
    """The hook events of ``session`` (tests/week.py's), edits with what they changed."""
    changes = _changes(session)
    events = hook_payloads(session, root, transcript)
    for _, _, payload in events:
        if payload.get("tool_use_id") in changes:
            payload["tool_input"] = _with_changes(
                payload["tool_input"], changes[payload["tool_use_id"]]
            )
    return events


def live_session(session: Session, root: Path) -> None:
    """Send ``session``'s hook events as tests/week.py's ``live`` does, each at its time.

    The per-tool-call events go to the fast path, a SessionEnd is journaled and its
    worker's ingest runs in process, the others take the full path; after the
    SessionStart, its worker's weekly evolve runs when it is due.
    """
    from freezegun import freeze_time  # noqa: PLC0415 - the month itself needs none of these

    from artibot_memory import lifecycle  # noqa: PLC0415
    from artibot_memory.plugin import fast  # noqa: PLC0415

    (root / session.project / ".git").mkdir(parents=True, exist_ok=True)
    transcript = write_transcript(session, root)
    for at, event, payload in payloads(session, root, transcript):
        with freeze_time(at):
            if event in ("PostToolUse", "PostToolUseFailure"):
                fast.handle(event, payload)
            elif event == "SessionEnd":
                fast.defer(event, payload)
                lifecycle.ingest()
            else:
                lifecycle.handle(event, payload)
                if event == "SessionStart":
                    lifecycle.evolve_if_due()


def project_dir(root: Path, project: str) -> Path:
    """The folder of ``project`` (a git top-level) under the month's work root."""
    return root / "work" / project


def lived(root: Path, moments: Iterable[datetime]) -> Iterator[datetime]:
    """Live the month into ``root`` (home ``root/memory``), pausing at each of ``moments``.

    Yields each moment once every session that ended before it is lived (in time order),
    with ``ARTIBOT_MEMORY_HOME`` set to the home; what the caller does there must not
    change the home (read a copy: :func:`snapshot`). Sessions after the last moment are
    not lived.
    """
    import artibot_memory.cli.verbs  # noqa: PLC0415 - pydantic schemas before freezegun
    import artibot_memory.lifecycle  # noqa: F401, PLC0415

    sessions = list(month())
    work = root / "work"
    with lived_home(root / "memory"):
        for moment in sorted(moments):
            while sessions and sessions[0].ended_at <= moment:
                live_session(sessions.pop(0), work)
            yield moment


@contextlib.contextmanager
def snapshot(root: Path) -> Iterator[Path]:
    """A copy of the lived home for one look (the home's own path set for the block).

    Whatever the look writes (access counts, the per-session "shown" file, a start cache)
    stays in the copy, so the month lived on is the same whatever was looked at.
    """
    with tempfile.TemporaryDirectory(prefix="artibot-lived-look-") as scratch:
        copy = Path(scratch) / "memory"
        shutil.copytree(root / "memory", copy, ignore=shutil.ignore_patterns("*.lock"))
        with lived_home(copy):
            yield copy


def build_home(folder: Path, until: int | None = None) -> Path:
    """Live the month (up to session ``until``, excluded) into ``folder``; return the home."""
    last = month()[-1].ended_at + timedelta(minutes=1)
    end = month()[until - FIRST_NUMBER].started_at if until else last
    for _ in lived(folder, [end]):
        pass
    return folder / "memory"


def check() -> list[str]:
    """Problems with the month's own declarations (empty: none); what the tests assert."""
    problems = []
    for fact in FACTS:
        for text in fact.said:
            try:
                said_in(text)
            except LookupError:
                problems.append(f"{fact.key}: not said in the month: {text[:60]!r}")
        if not fact.match.matches(fact.line):
            problems.append(f"{fact.key}: its matcher misses its own line {fact.line!r}")
        said = "\n".join(fact.said).lower()
        for group in fact.match.groups:
            if not any(w.removesuffix("*").lower() in said or w in STATUS_WORDS for w in group):
                problems.append(f"{fact.key}: no word of {group} comes from what was said")
    for number in {s.number for s in month()}:
        session = month()[number - FIRST_NUMBER]
        asks = "\n".join(step.text for step in session.steps if step.kind == "prompt")
        if not planned(number).gist.found_in(asks):
            problems.append(f"session {number}: its gist is not in its prompts")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", required=True, type=Path, help="an empty folder to live into")
    parser.add_argument("--until", type=int, help="stop before this session number")
    args = parser.parse_args(argv)
    folder = args.home.resolve()
    if folder.exists() and any(folder.iterdir()):
        parser.error(f"{folder} is not empty")
    home = build_home(folder, args.until)
    last = [s for s in month() if not args.until or s.number < args.until][-1]
    moment = (last.ended_at + timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M:%S")
    print(f"lived {last.number - FIRST_NUMBER + 1} sessions into {home}")
    print("look at it with the clock of the month, e.g.:")
    print(
        f"  TZ=UTC ARTIBOT_MEMORY_HOME={home} faketime '{moment}' "
        f"artibot-memory context --project {project_dir(folder, 'shop')}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
