"""Four weeks of a developer's sessions, generated deterministically: what seed 001 is for.

Four projects (``shop``, TypeScript on pnpm; ``api``, a Python service; ``docs``, a docs
site whose README says ``npm install``; ``infra``, Terraform), from Monday 2026-11-02 to
Sunday 2026-11-29, one to three sessions a day. Besides the everyday work (filler sessions
made from a few templates, in a fixed rotation), the month holds stories whose outcome a
person can tell at a glance:

- **kept**: "always use pnpm, never npm", stated on day 0 and restated on day 8, used in
  every shop session;
- **a liking referenced again**: "I prefer small, focused commits", said once (pending: seed
  003 wants a second statement) in ``api``, then asked for in two later sessions in other
  words ("commit … as small commits"): a proposal a person would accept;
- **one-off liking**: "I'd rather you show me the diff before committing", said once and
  never again: not proposed;
- **contradictions**, each of which must reach the ledger with both sides: two plain
  statements, neither saying which one wins (a newer one that says so, "from now on",
  "instead", "앞으로", is a reversal: it supersedes, no conflict; notes/conflicts.py):

  ========== =========================================================== ==============
  kind       the two statements                                          days
  ========== =========================================================== ==============
  same-key   "Always answer me in English." / "답변은 항상 한국어로 해줘."    1 (5) / 19
  polarity   "Always add a changelog entry …" / "Never add changelog …"  3 / 22
  polarity   "PR 설명에는 항상 스크린샷을 넣어줘." / "… 절대 넣지 마."          6 / 23
  instead    "Always use dayjs instead of date-fns …" / "Always use      4 / 21
             date-fns …" (the newer goes back on what the older settled)
  decision   "We'll go with Postgres for the orders database …" /        2 / 24
             "Let's go with SQLite for the orders database, …"
  behaviour  "always use pnpm" / ``npm install`` in docs sessions        0 / 10, 13, 17
  ========== =========================================================== ==============

:data:`STORIES` names each story's sessions, so a test can say what it expects of each.
"""

from __future__ import annotations

from datetime import datetime, timezone

from week import PNPM_PASS, PYTEST_PASS, Session, Step, _edit, _p, _run, _say, _write

DAY_ZERO = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)  # a Monday
DAYS = 28

PNPM = "From now on always use pnpm, never npm, in every project."
PNPM_AGAIN = "Remember, we use pnpm everywhere, never npm."
ENGLISH = "Always answer me in English."
ENGLISH_AGAIN = "Please keep answering me in English."
KOREAN = "답변은 항상 한국어로 해줘."
CHANGELOG = "Always add a changelog entry for every user-facing change."
NO_CHANGELOG = "Never add changelog entries by hand; the release tool writes them."
SCREENSHOTS = "PR 설명에는 항상 스크린샷을 넣어줘."
NO_SCREENSHOTS = "PR 설명에 스크린샷은 절대 넣지 마."
DAYJS = "Always use dayjs instead of date-fns for date formatting; it is smaller."
DATE_FNS = "Always use date-fns for date formatting."
POSTGRES = "We'll go with Postgres for the orders database because we need row-level locks."
SQLITE = "Let's go with SQLite for the orders database, because the service is single-node."
SMALL_COMMITS = "I prefer small, focused commits."
SMALL_COMMITS_LATER = (
    "Commit the network split as small commits, one per module.",
    "Commit the refund fix as two small commits: the model, then the endpoint.",
)
DIFF_FIRST = "I'd rather you show me the diff before committing."
NPM_INSTALL = "added 312 packages, and audited 313 packages in 9s"
DOCS_BUILD = "Build complete: 48 pages in 3.2s"

# Which sessions carry each story (by their number): what the tests pin.
STORIES: dict[str, tuple[str, ...]] = {
    "kept": (PNPM, PNPM_AGAIN),
    "referenced-liking": (SMALL_COMMITS, *SMALL_COMMITS_LATER),
    "one-off-liking": (DIFF_FIRST,),
    "same-key": (ENGLISH, KOREAN),
    "polarity": (CHANGELOG, NO_CHANGELOG),
    "polarity-ko": (SCREENSHOTS, NO_SCREENSHOTS),
    "instead": (DAYJS, DATE_FNS),
    "decision": (POSTGRES, SQLITE),
}

# (day, project, prompts and steps): the stories, in time order.
_STORY_SESSIONS: tuple[tuple[int, str, tuple[Step, ...]], ...] = (
    (0, "shop", (_p(PNPM), _p("Set up the coupon page."), _run("pnpm test", PNPM_PASS))),
    (1, "api", (_p(ENGLISH), _p("Add a health check endpoint."), _write("app/health.py"))),
    (
        2,
        "api",
        (
            _p("We need an orders table. " + POSTGRES),
            _write("app/db.py"),
            _p(SMALL_COMMITS),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
    ),
    (3, "shop", (_p(CHANGELOG), _edit("CHANGELOG.md"), _run("pnpm test", PNPM_PASS))),
    (4, "shop", (_p(DAYJS + " Format the order dates on the receipt."), _edit("src/date.ts"))),
    (5, "api", (_p(ENGLISH_AGAIN), _p("Document the health endpoint."), _edit("README.md"))),
    (6, "shop", (_p(SCREENSHOTS), _p("Open a PR for the coupon page."), _run("git push"))),
    (
        8,
        "shop",
        (_p(PNPM_AGAIN), _run("pnpm install", "Done in 2.1s"), _run("pnpm test", PNPM_PASS)),
    ),
    (
        9,
        "infra",
        (_p("Split the network module."), _edit("network/main.tf"), _p(SMALL_COMMITS_LATER[0])),
    ),
    (
        10,
        "docs",
        (
            _p("Build the docs site."),
            _run("npm install", NPM_INSTALL),
            _run("npm run build", DOCS_BUILD),
        ),
    ),
    (11, "shop", (_p(DIFF_FIRST), _edit("src/cart/total.ts"), _run("pnpm test", PNPM_PASS))),
    (
        13,
        "docs",
        (
            _p("Add the API page to the docs."),
            _write("docs/api.md"),
            _run("npm install", NPM_INSTALL),
        ),
    ),
    (
        16,
        "api",
        (
            _p(SMALL_COMMITS_LATER[1]),
            _run("git commit -m 'refunds: model'"),
        ),
    ),
    (
        17,
        "docs",
        (
            _p("Fix the broken links."),
            _run("npm install", NPM_INSTALL),
            _run("npm run build", DOCS_BUILD),
        ),
    ),
    (19, "shop", (_p(KOREAN), _p("쿠폰 페이지 문구를 다듬어줘."), _edit("src/coupon/copy.ts"))),
    (21, "shop", (_p(DATE_FNS), _edit("src/date.ts"), _run("pnpm test", PNPM_PASS))),
    (22, "infra", (_p(NO_CHANGELOG), _p("Release the network module."), _run("git tag v1.4.0"))),
    (23, "shop", (_p(NO_SCREENSHOTS), _p("PR 올려줘."), _run("git push"))),
    (24, "api", (_p(SQLITE), _edit("app/db.py"), _run("uv run pytest -q", PYTEST_PASS))),
)

# The everyday work: one template per project, each a few steps, taken in rotation.
_FILLER: dict[str, tuple[tuple[Step, ...], ...]] = {
    "shop": (
        (_p("Tidy the cart styles."), _edit("src/cart/cart.css"), _run("pnpm test", PNPM_PASS)),
        (
            _p("Add a test for the coupon total."),
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
            _p("Add pagination to the orders list."),
            _edit("app/orders.py"),
            _run("uv run pytest -q", PYTEST_PASS),
        ),
        (_p("Log the request id."), _edit("app/logging.py"), _run("uv run pytest -q", PYTEST_PASS)),
    ),
    "infra": (
        (
            _p("Bump the provider versions."),
            _edit("versions.tf"),
            _run("terraform plan", "No changes."),
        ),
    ),
    "docs": ((_p("Fix a typo on the home page."), _edit("docs/index.md")),),
}
_FILLER_DAYS = (0, 1, 2, 4, 5, 7, 8, 9, 11, 12, 14, 15, 16, 18, 19, 20, 22, 23, 25, 26, 27)
_FILLER_PROJECTS = ("shop", "api", "shop", "infra", "api", "shop", "docs")


def month() -> tuple[Session, ...]:
    """The month's sessions, in time order: the stories at 10:00, the everyday work after."""
    planned: list[tuple[int, int, str, tuple[Step, ...]]] = [
        (day, 60, project, steps) for day, project, steps in _STORY_SESSIONS
    ]
    turns: dict[str, int] = {}
    for index, day in enumerate(_FILLER_DAYS):
        project = _FILLER_PROJECTS[index % len(_FILLER_PROJECTS)]
        templates = _FILLER[project]
        turn = turns.get(project, 0)
        turns[project] = turn + 1
        steps = templates[turn % len(templates)]
        planned.append((day, 240 + 30 * (index % 3), project, (*steps, _say("Done."))))
    planned.sort(key=lambda item: (item[0], item[1]))
    return tuple(
        Session(
            number,
            day,
            minute,
            project,
            "main",
            steps,
            minutes=25,
            epoch=DAY_ZERO,
        )
        for number, (day, minute, project, steps) in enumerate(planned, start=101)
    )
