"""A coding-agent retrieval set of our own, generated from a seed (standard library only).

One developer, 90 days, six projects (a Node web app, a Python API, a Go CLI, a Rust crate,
Terraform infrastructure, a data pipeline) and three colleagues. The memories are what the
product keeps for such a developer, in its four types and with the fields its import takes
(short records): preferences (tooling, style, package managers, commit language, test
runners; global and per project), project contexts (decisions with their reasons, facts,
architecture notes, session summaries in the product's own layout), commands and errors
(real-looking outputs of Python, Node, pytest, tsc, cargo, go, docker, git and terraform,
each with the ``resolution`` that fixed it). About a fifth of them are Korean or mixed
Korean/English, as a Korean developer writes them.

The queries are written as a user asks, never copied from a memory: paraphrases, other
inflections, identifiers in another form (camelCase, snake_case, words, a path or a file
name), abbreviations, questions, Korean with particles and endings, Korean compounds joined
where the memory spaces them (or the reverse), and questions whose answer is in no memory
(some of them near misses that share words with memories but ask something else). Each
answerable query has graded labels, ``{memory_ref: grade}``: 2 is the answer, 1 related.

Why a generator and two seeds: the product is tuned on one variant ("tune") and checked on
another ("check") it was not tuned on. Both share the templates' kinds, and differ in the
projects, people, values, wording and which paraphrase is asked. Nothing here is random at
import time: ``generate(seed)`` always returns the same set for the same seed.

The set's clock is ``NOW``; every memory is dated in the 90 days before it (commands in the
last week: the command store keeps them 7 days, so older ones would expire on arrival).

    python benchmarks/agentset.py --seed tune [--write PATH]
"""

# Data tables make long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
SEEDS = ("tune", "check")
HOME = "/home/dev/src"
GRADE_ANSWER, GRADE_RELATED = 2, 1
UNANSWERABLE_COUNT = 36
MAX_DAYS = 89.0  # contexts and errors live 90 days: every memory must still be alive at NOW
COMMAND_DAYS = 6.5  # commands live 7 days
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
T = TypeVar("T")


# --- the set ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Memory:
    """One memory: the benchmark's own ``ref``, the import record, and its language."""

    ref: str
    record: dict[str, Any]
    lang: str  # "ko" when it holds Hangul, else "en"

    @property
    def text(self) -> str:
        """The memory's text, as imported."""
        return str(self.record["text"])


@dataclass(frozen=True)
class Query:
    """One question, its category and language, and its graded labels (empty: no answer)."""

    qid: str
    text: str
    category: str
    lang: str
    relevant: dict[str, int]

    @property
    def answerable(self) -> bool:
        """Whether some memory answers it."""
        return bool(self.relevant)


@dataclass(frozen=True)
class AgentSet:
    """A generated set: its seed and clock, who and what it is about, memories and queries."""

    seed: str
    now: datetime
    projects: tuple[str, ...]
    people: tuple[str, ...]
    memories: tuple[Memory, ...]
    queries: tuple[Query, ...]

    def records(self) -> list[dict[str, Any]]:
        """The import records (``transfer.import_file``'s short records), in set order."""
        return [dict(memory.record) for memory in self.memories]

    def to_json(self) -> dict[str, Any]:
        """The whole set as plain JSON data, for inspection."""
        return {
            "seed": self.seed,
            "now": iso(self.now),
            "projects": list(self.projects),
            "people": list(self.people),
            "memories": [{"ref": m.ref, "lang": m.lang, **m.record} for m in self.memories],
            "queries": [
                {
                    "id": q.qid,
                    "text": q.text,
                    "category": q.category,
                    "lang": q.lang,
                    "relevant": q.relevant,
                }
                for q in self.queries
            ],
        }


def iso(moment: datetime) -> str:
    """``2026-11-30T12:00:00Z``: the form the import reads."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def language(text: str) -> str:
    """``ko`` when the text holds Hangul, else ``en``."""
    return "ko" if _HANGUL.search(text) else "en"


# --- building ----------------------------------------------------------------------------------


@dataclass
class Project:
    """A project of the developer: its kind, name, path and the values its memories use."""

    kind: str
    name: str
    v: dict[str, str] = field(default_factory=dict)

    @property
    def path(self) -> str:
        """Where it is checked out: the ``project`` of its memories."""
        return f"{HOME}/{self.name}"


@dataclass
class Builder:
    """Collects memories and queries while the templates run; hands out refs and dates."""

    seed: str
    rng: random.Random
    memories: list[Memory] = field(default_factory=list)
    queries: list[tuple[str, str, dict[str, int]]] = field(default_factory=list)
    texts: set[str] = field(default_factory=set)
    named: dict[str, str] = field(default_factory=dict)  # refs that later templates relate to

    def pick(self, options: Sequence[T]) -> T:
        """One of ``options``, by the seed."""
        return options[self.rng.randrange(len(options))]

    def chance(self, p: float) -> bool:
        """True with probability ``p``, by the seed."""
        return self.rng.random() < p

    def when(self, low: float = 0.05, high: float = MAX_DAYS) -> datetime:
        """A moment between ``low`` and ``high`` days before NOW, to the minute."""
        minutes = int(self.rng.uniform(low, high) * 24 * 60)
        return NOW - timedelta(minutes=minutes)

    def mem(
        self,
        memory_type: str,
        text: str,
        *,
        project: Project | None = None,
        tags: Sequence[str] = (),
        key: str | None = None,
        scope: str | None = None,
        resolution: str | None = None,
        state: str | None = None,
        at: datetime | None = None,
    ) -> str:
        """Add one memory and return its ref; a text already in the set is an error."""
        text = text.strip()
        if at is None:
            at = self.when(high=COMMAND_DAYS) if memory_type == "command" else self.when()
        if memory_type == "command" and project is not None and project.name not in text:
            folder = self.pick((project.path, f"~/src/{project.name}"))
            text = f"cd {folder} && {text}"
        if text in self.texts:
            raise ValueError(f"duplicate memory text in seed {self.seed!r}: {text[:80]!r}")
        self.texts.add(text)
        record: dict[str, Any] = {"type": memory_type, "text": text}
        if key:
            record["key"] = key
        if tags:
            record["tags"] = list(tags)
        if project is not None:
            record["project"] = project.path
        if scope:
            record["scope"] = scope
        if state:
            record["state"] = state
        if resolution:
            record["resolution"] = resolution
        record["created_at"] = iso(at)
        ref = f"m{len(self.memories) + 1:04d}"
        self.memories.append(Memory(ref, record, language(text)))
        return ref

    def ask(self, relevant: dict[str, int], *variants: tuple[str, str], n: int = 1) -> None:
        """Ask ``n`` of the ``(category, text)`` variants (chosen by the seed) with these labels."""
        chosen = self.rng.sample(list(variants), k=min(n, len(variants)))
        for category, text in chosen:
            self.queries.append((category, text, dict(relevant)))

    def none(self, category: str, text: str) -> None:
        """A query whose answer is in no memory."""
        self.queries.append((category, text, {}))


def answer(ref: str, *related: str) -> dict[str, int]:
    """Labels: ``ref`` is the answer (grade 2), ``related`` partly useful (grade 1)."""
    labels = dict.fromkeys(related, GRADE_RELATED)
    labels[ref] = GRADE_ANSWER
    return labels


# --- projects and people -----------------------------------------------------------------------

# A project's name is a stem and an ending drawn apart: 60-100 names per kind.
PROJECT_NAMES = {
    "web": (
        (
            "store",
            "checkout",
            "helpdesk",
            "partner",
            "booking",
            "studio",
            "admin",
            "market",
            "tickets",
            "campus",
        ),
        ("-web", "-portal", "-ui", "-app"),
    ),
    "api": (
        (
            "billing",
            "orders",
            "ledger",
            "payments",
            "invoice",
            "accounts",
            "subscriptions",
            "refunds",
            "payroll",
            "quotes",
        ),
        ("-api", "-service", "-backend"),
    ),
    "cli": (
        ("deploy", "log", "env", "relay", "token", "stack", "snap", "key", "fleet", "ship"),
        ("ctl", "-cli", "kit"),
    ),
    "crate": (
        ("bloom", "ring", "span", "trie", "lz", "varint", "bitpack", "quick", "cbor", "frame"),
        ("set", "buf", "codec", "log", "-rs"),
    ),
    "infra": (
        ("infra", "platform", "cloud", "ops", "landing", "foundation"),
        ("-live", "-tf", "-stacks", "-core", "-terraform"),
    ),
    "data": (
        ("events", "clickstream", "warehouse", "metrics", "usage", "reporting", "ads", "finance"),
        ("-etl", "-pipeline", "-flows", "-ingest", "-marts"),
    ),
}
PEOPLE = (
    "Sara",
    "Minji",
    "Tom",
    "Jiho",
    "Priya",
    "Daniel",
    "Yuna",
    "Marco",
    "Hyunwoo",
    "Elena",
    "Seojin",
    "Lukas",
    "Ana",
    "Doyoon",
    "Kenji",
    "Fatima",
    "Eunbi",
    "Oliver",
    "Chaewon",
    "Mateo",
)
SUBJECTS = (
    "Fix refund rounding",
    "Add retry to webhook sender",
    "Drop unused cart fields",
    "Handle empty invoice list",
)
WORDS = ("Cart", "Invoice", "Checkout", "Order", "Ticket", "Booking", "Profile", "Coupon")


def make_projects(b: Builder) -> dict[str, Project]:
    """Draw the six projects of the set and the values their memories will use."""
    rng = b.rng
    p = {
        kind: Project(kind, b.pick(stems) + b.pick(ends))
        for kind, (stems, ends) in PROJECT_NAMES.items()
    }
    web, api, cli, crate, infra, data = (
        p["web"],
        p["api"],
        p["cli"],
        p["crate"],
        p["infra"],
        p["data"],
    )
    pm = b.pick(("pnpm", "yarn"))
    web.v = {
        "fw": b.pick(("Next.js", "Remix", "SvelteKit")),
        "pm": pm,
        "lock": {"pnpm": "pnpm-lock.yaml", "yarn": "yarn.lock"}[pm],
        "runner": b.pick(("vitest", "jest")),
        "port": b.pick(("3000", "3001", "5173", "4321")),
        "node": b.pick(("20", "22")),
        "host": b.pick(("Vercel", "Netlify", "Fly.io")),
        "state": b.pick(("Zustand", "Jotai", "TanStack Query")),
        "comp": b.pick(WORDS),
        "flag": b.pick(("new_checkout", "fast_search", "one_page_cart", "guest_mode")),
    }
    domain = api.name.split("-")[0]
    api.v = {
        "fw": b.pick(("FastAPI", "Flask", "Django")),
        "port": b.pick(("8000", "8080", "8001", "8010")),
        "queue": b.pick(("Celery", "RQ", "arq")),
        "domain": domain,
        "db": f"{domain}_{b.pick(('dev', 'local', 'app'))}",
        "pg": b.pick(("15", "16")),
        "py": b.pick(("3.11", "3.12")),
        "model": b.pick(("Refund", "Subscription", "LineItem", "Payout", "TaxRate")),
        "timeout": str(b.pick((5, 10, 15, 30))),
        "pool": str(b.pick((10, 20, 25, 40))),
        "vendor": b.pick(("Stripe", "Adyen", "Toss Payments", "PayPal")),
    }
    cli.v = {
        "lib": b.pick(("cobra", "urfave/cli", "kong")),
        "go": b.pick(("1.22", "1.23")),
        "env": cli.name.split("-")[0].upper().replace("CTL", "CTL_"),
        "sub": b.pick(("sync", "push", "tail", "rotate", "plan")),
    }
    crate.v = {
        "msrv": b.pick(("1.74", "1.75", "1.79", "1.80")),
        "feature": b.pick(("simd", "async", "rayon", "nightly")),
        "type": b.pick(("RingBuffer", "BloomFilter", "SpanReader", "HashTrie", "FrameDecoder")),
    }
    cloud = b.pick(("AWS", "GCP"))
    infra.v = {
        "cloud": cloud,
        "backend": "S3 bucket tf-state-"
        + str(rng.randrange(1000, 9999))
        + " with a DynamoDB lock table"
        if cloud == "AWS"
        else "GCS bucket tf-state-" + str(rng.randrange(1000, 9999)) + " (versioned)",
        "run": "ECS Fargate" if cloud == "AWS" else "Cloud Run",
        "tf": b.pick(("1.6", "1.7", "1.8", "1.9")),
        "region": b.pick(("ap-northeast-2", "eu-west-1", "us-east-1"))
        if cloud == "AWS"
        else b.pick(("asia-northeast3", "europe-west1", "us-central1")),
        "db": "RDS" if cloud == "AWS" else "Cloud SQL",
    }
    data.v = {
        "orch": b.pick(("Airflow", "Dagster", "Prefect")),
        "wh": b.pick(("BigQuery", "Snowflake", "DuckDB")),
        "cron": b.pick(("0 3 * * *", "30 2 * * *", "15 4 * * *")),
        "src": b.pick(
            (
                "an S3 bucket of gzipped JSON lines",
                "a Pub/Sub subscription",
                "the app's Postgres read replica",
            )
        ),
        "table": b.pick(("fct_orders", "fct_sessions", "fct_payments", "dim_customers")),
        "days": str(b.pick((30, 60, 400))),
        "stg": b.pick(("stg_events", "stg_clicks", "stg_pageviews", "stg_app_events")),
    }
    return p


def make_people(b: Builder) -> dict[str, str]:
    """Three colleagues, by role: the schema owner, the infra owner, the designer."""
    owner, ops, design = b.rng.sample(PEOPLE, 3)
    return {"owner": owner, "ops": ops, "design": design}


# --- global preferences ------------------------------------------------------------------------


def commit_preferences(b: Builder, p: dict[str, Project]) -> None:
    """How the developer writes commits, for every project."""
    api, web = p["api"], p["web"]
    subject = b.pick(SUBJECTS)
    commit = b.pick(
        (
            f'Commit messages in English, imperative mood ("{subject}" in {api.name}), subject line under 72 characters',
            f'커밋 메시지는 영어로, 명령형으로 쓴다 (예: {api.name}의 "{subject}"). 제목은 72자 이내',
        )
    )
    r = b.mem("preference", commit, key="commit-language", tags=["git"])
    b.ask(
        answer(r),
        ("paraphrase", "what language do I write commit messages in?"),
        ("korean", "커밋 메시지는 어떤 언어로 써야 돼?"),
        ("question", "should commit subjects be in Korean or English?"),
    )
    scope = b.pick((api.v["domain"], web.v["comp"].lower(), p["cli"].name, p["data"].name))
    r = b.mem(
        "preference",
        f"Conventional Commits prefixes: feat:, fix:, chore:, refactor:, with the scope in parentheses, e.g. fix({scope}): ...",
        key="commit-style",
        tags=["git"],
    )
    b.ask(
        answer(r),
        ("paraphrase", "which prefix format do my commits follow?"),
        ("abbreviation", "conv commits scope format"),
    )


def tool_preferences(b: Builder, p: dict[str, Project]) -> None:
    """Tools the developer uses everywhere: search, editor, shell, Python environments."""
    api = p["api"]
    editor = b.pick(("Neovim", "Helix", "VS Code", "Zed"))
    search = b.pick(
        (
            f"Search code with rg (ripgrep), never grep -r; find files with fd (both bound to keys in {editor})",
            f"코드 검색은 grep -r 말고 rg(ripgrep)로, 파일 찾기는 fd로 한다 ({editor}에도 단축키로 묶어 둠)",
        )
    )
    r = b.mem("preference", search, key="code-search", tags=["shell"])
    b.ask(
        answer(r),
        ("question", "what do I use instead of grep for searching code?"),
        ("korean", "코드 검색할 때 뭐 쓰지?"),
    )
    r = b.mem(
        "preference",
        b.pick(
            (
                f"Never force-push to main or release/*; on feature branches (feat/{api.v['domain']}-...) push with --force-with-lease",
                f"main이나 release/* 브랜치에는 절대 force push 하지 않는다. 기능 브랜치는 --force-with-lease로 푸시 (예: feat/{api.v['domain']}-retry)",
            )
        ),
        key="force-push",
        tags=["git"],
    )
    b.ask(
        answer(r),
        ("inflection", "is force pushing allowed on feature branches?"),
        ("korean", "강제 푸시해도 되는 브랜치는?"),
        ("identifier", "force with lease rule"),
    )
    r = b.mem(
        "preference",
        f"Update feature branches with `git pull --rebase origin main` (alias `git {b.pick(('up', 'sync', 'rb', 'pr-up'))}`); no merge commits from main into a feature branch",
        key="branch-update",
        tags=["git"],
    )
    b.ask(
        answer(r),
        ("question", "do we rebase or merge main into feature branches?"),
        ("inflection", "rebasing feature branch onto main"),
    )
    b.mem(
        "preference",
        f"Editor is {editor}; never commit .vscode/ or .idea/ folders (they are in ~/.config/git/ignore)",
        key="editor",
    )
    r = b.mem(
        "preference",
        b.pick(
            (
                "Bash scripts start with `set -euo pipefail` and must pass shellcheck",
                "쉘 스크립트는 항상 `set -euo pipefail`로 시작하고 shellcheck를 통과해야 한다",
            )
        ),
        key="shell-scripts",
        tags=["shell"],
    )
    b.ask(
        answer(r),
        ("paraphrase", "what should the first line of every bash script be after the shebang?"),
        ("korean", "쉘스크립트 첫 줄에 뭐 넣어야 돼?"),
    )
    r = b.mem(
        "preference",
        f"설명은 한국어로, 코드 주석과 변수 이름은 영어로 작성한다 (예: {api.v['model'][0].lower() + api.v['model'][1:]}Total 같은 이름)",
        key="answer-language",
        scope="global",
    )
    b.ask(
        answer(r),
        ("korean-compound", "변수이름은 영어로 써야 해?"),
        ("korean", "주석을 한국어로 달아도 돼?"),
    )
    py = api.v["py"]
    r = b.mem(
        "preference",
        f"Python projects use uv (`uv sync`, `uv run pytest`), not pip + virtualenv; target Python {py} (as in {api.name})",
        key="python-env",
        tags=["python"],
    )
    b.ask(
        answer(r),
        ("question", "how do I set up the virtualenv for a python project?"),
        ("abbreviation", "py env tool"),
        ("inflection", "which tool manages python environments"),
    )


def style_preferences(b: Builder, p: dict[str, Project]) -> None:
    """Code style, dependency and PR habits, secrets, naming."""
    api, web = p["api"], p["web"]
    subject = b.pick(SUBJECTS)
    length = b.pick(("88", "100", "120"))
    r = b.mem(
        "preference",
        f"Python line length {length} (ruff format), double quotes, magic trailing commas kept; the [tool.ruff] block of {api.name} is the reference",
        key="python-style",
        tags=["python", "ruff"],
    )
    b.ask(answer(r), ("paraphrase", "max line width for python code?"))
    b.mem(
        "preference",
        f"Timestamps in logs are UTC ISO-8601 with a Z suffix ({iso(b.when())}), never local time",
        key="log-time",
    )
    day = b.pick(("Monday", "Tuesday", "Thursday"))
    r = b.mem(
        "preference",
        f"Pin exact versions in applications, version ranges only in libraries; Renovate opens the bump PRs every {day} morning (see renovate.json in {web.name})",
        key="dependency-pinning",
    )
    b.ask(
        answer(r),
        ("inflection", "pinning dependency versions in apps vs libraries"),
        ("question", "when does renovate open its PRs?"),
    )
    loc = b.pick(("400", "500", "300"))
    b.mem(
        "preference",
        f"Keep PRs under ~{loc} changed lines; split a refactor from a behaviour change",
        key="pr-size",
    )
    r = b.mem(
        "preference",
        f"테스트 없이 main에 머지하지 말 것. 급해도 최소한 스모크 테스트(make smoke, {b.pick(('2', '3', '5'))}분 정도)는 돌린다",
        key="merge-rule",
    )
    b.ask(
        answer(r),
        ("korean", "급할 때 테스트 안 돌리고 머지해도 돼?"),
        ("korean-compound", "스모크테스트 꼭 돌려야 해?"),
    )
    r = b.mem(
        "preference",
        f'PR 제목은 영어로 (예: {api.name}의 "{subject}"), 설명은 한국어로 써도 된다',
        key="pr-language",
    )
    b.ask(answer(r), ("korean", "PR 설명을 한국어로 써도 되나?"))
    r = b.mem(
        "preference",
        f"Use `docker compose` (the v2 plugin), not the old docker-compose binary; compose files are named compose.yaml (see {api.name})",
        key="compose",
        tags=["docker"],
    )
    b.ask(answer(r), ("identifier", "docker-compose v1 or compose plugin?"))
    terminal = b.pick(("WezTerm", "kitty", "Alacritty", "iTerm2"))
    b.mem(
        "preference",
        f"터미널은 {terminal} + tmux, tmux 세션 이름은 프로젝트 이름으로 맞춘다 (예: tmux new -s {web.name})",
        key="terminal",
    )
    r = b.mem(
        "preference",
        f"Secrets live in 1Password (vault {b.pick(('Dev', 'Engineering', 'Platform', 'Backend'))}); load them with `op run --env-file=.env.tpl -- <cmd>`, never commit a .env file ({web.name} ships a .env.tpl)",
        key="secrets",
    )
    b.ask(
        answer(r),
        ("question", "where are the secrets kept and how do I load them locally?"),
        ("korean-mixed", "시크릿은 어디서 불러와? 1password?"),
    )
    b.mem(
        "preference",
        f'로그 메시지는 영어로 남긴다 (grep하기 쉽게). 예: logger.info("{api.v["model"].lower()} synced")',
        key="log-language",
    )
    shorts = b.rng.sample(
        [
            "usr → user",
            "cfg → config",
            "btn → button",
            "msg → message",
            "ctx → context",
            "idx → index",
            "cnt → count",
        ],
        3,
    )
    r = b.mem("preference", f"변수명에 줄임말 쓰지 말 것: {', '.join(shorts)}", key="naming")
    b.ask(
        answer(r),
        ("korean-compound", "변수 명에 약어 써도 돼?"),
        ("korean", "줄임말로 변수 이름 지어도 되나"),
    )


def review_and_people_preferences(b: Builder, p: dict[str, Project], who: dict[str, str]) -> None:
    """Typing, make targets, regression tests, and who to ask about what."""
    api, web = p["api"], p["web"]
    r = b.mem(
        "preference",
        b.pick(
            (
                f"Type hints everywhere in Python; `mypy --strict` must pass before merging ({api.name} and {p['data'].name} already do)",
                f"파이썬 코드는 전부 타입 힌트를 달고, 머지 전에 `mypy --strict`가 통과해야 한다 ({api.name}, {p['data'].name} 포함)",
            )
        ),
        key="typing",
        tags=["python"],
    )
    b.ask(
        answer(r),
        ("paraphrase", "does mypy need to be strict before I merge?"),
        ("korean", "타입 힌트 꼭 달아야 해?"),
    )
    b.mem(
        "preference",
        f"Every repo exposes {b.pick(('make test, make lint and make fmt', 'make test, make lint, make fmt and make dev', 'make check and make fmt'))} as its entry points; copy {api.name}/Makefile as the template",
        key="make-targets",
    )
    b.mem(
        "preference",
        f"New bug fixes come with a regression test that fails before the fix (in {api.name}: tests/regressions/)",
        key="regression-tests",
    )
    r = b.mem(
        "preference",
        f"Ask {who['owner']} before touching the {api.v['domain']} schema or anything under {api.name}/migrations",
        scope="person",
        project=api,
        tags=["people"],
    )
    b.named["api.schema-owner"] = r
    b.ask(
        answer(r),
        ("question", f"who do I check with before changing the {api.v['domain']} db schema?"),
        ("paraphrase", f"who owns the {api.v['domain']} database tables"),
    )
    r = b.mem(
        "preference",
        f"결제/스키마 관련 변경은 {who['owner']}에게 먼저 물어볼 것 (특히 {api.v['model']} 모델)",
        scope="person",
        project=api,
        tags=["people"],
    )
    b.ask(answer(r), ("korean", f"{api.v['model']} 모델을 바꾸려면 누구한테 물어봐야 돼?"))
    r = b.mem(
        "preference",
        f"{who['design']} reviews every change to design tokens and colours in {web.name}",
        scope="person",
        project=web,
        tags=["people", "design"],
    )
    b.ask(answer(r), ("paraphrase", f"who has to review a colour change in {web.name}?"))


# --- the web app ---------------------------------------------------------------------------------


def web_app(b: Builder, w: Project, api: Project, who: dict[str, str]) -> None:
    """A Node/TypeScript web app: package manager, dev server, deploys, typical errors."""
    n, pm, fw, runner, port = w.name, w.v["pm"], w.v["fw"], w.v["runner"], w.v["port"]
    host, flag = w.v["host"], w.v["flag"]
    pkg = b.mem(
        "preference",
        b.pick(
            (
                f"{n}: use {pm}, never npm install; the lockfile is {w.v['lock']} and CI fails on a changed lockfile",
                f"{n}는 {pm}만 쓴다. npm install 금지 (lockfile은 {w.v['lock']}, CI에서 lockfile 변경되면 실패)",
            )
        ),
        project=w,
        key="package-manager",
        tags=["node"],
    )
    b.named["web.package-manager"] = pkg
    b.ask(
        answer(pkg),
        ("question", f"which package manager does {n} use?"),
        ("korean-mixed", f"{n}에서 npm 써도 되나?"),
        ("paraphrase", f"can I npm-install packages in {n}"),
    )
    r = b.mem(
        "preference",
        f"TypeScript in {n} is strict; no `any` without an eslint-disable comment saying why",
        project=w,
        key="ts-strict",
        tags=["typescript"],
    )
    b.ask(answer(r), ("inflection", f"are any types allowed in {n} typescript?"))
    r = b.mem(
        "preference",
        f"{n} components: named exports only, no default exports; one component per file",
        project=w,
        key="exports",
    )
    b.ask(answer(r), ("question", "should react components use default export?"))
    dev = b.mem(
        "context",
        f"`{pm} dev` starts {fw} on http://localhost:{port}; /api/* is proxied to {api.name} on :{api.v['port']}",
        project=w,
    )
    b.ask(
        answer(dev),
        ("question", f"what port does the {n} dev server listen on?"),
        ("paraphrase", f"local url for {n} frontend"),
        ("inflection", "how are api requests proxied in development?"),
    )
    deploy = b.mem(
        "context",
        b.pick(
            (
                f"{n} deploys: every PR gets a preview on {host}; production deploys only from tags v* (git tag v1.x && git push --tags)",
                f"{n} 배포: PR마다 {host} 프리뷰가 뜨고, 운영 배포는 v* 태그를 푸시할 때만 된다",
            )
        ),
        project=w,
        tags=["deploy"],
    )
    b.ask(
        answer(deploy),
        ("question", f"how do we ship {n} to production?"),
        ("inflection", f"deploying {n} to prod"),
        ("korean", f"{n} 운영에 어떻게 배포해?"),
    )
    r = b.mem(
        "context",
        f"Decision: {w.v['state']} over Redux for client state in {n}: a tenth of the boilerplate, and server data already lives in the fetch cache",
        project=w,
        tags=["decision"],
    )
    b.ask(
        answer(r),
        ("question", f"why didn't we use redux in {n}?"),
        ("paraphrase", "what did we pick for frontend state management and why"),
    )
    faster = b.pick(("3x", "4x", "5x"))
    if runner == "vitest":
        text = f"Chose vitest over jest for {n}: it reuses the vite config and the suite runs {faster} faster"
    else:
        text = f"Stayed on jest instead of moving to vitest in {n}: too many jest.mock factories, and {faster} speed is not worth the rewrite yet"
    runner_ref = b.mem("context", text, project=w, tags=["decision", "testing"])
    b.named["web.runner"] = runner_ref
    b.ask(
        answer(runner_ref),
        ("question", f"why are we on {runner} in {n}?"),
        ("inflection", f"{n} test runner decision"),
    )
    client = b.mem(
        "context",
        f"All data fetching in {n} goes through src/lib/apiClient.ts (fetchJson with retries and the auth header); never call fetch() directly in components",
        project=w,
        tags=["architecture"],
    )
    b.ask(
        answer(client),
        ("identifier", "where is the api client wrapper defined?"),
        ("identifier", "api_client fetch_json retries"),
        ("paraphrase", "can I call fetch directly inside a component?"),
    )
    envs = b.mem(
        "context",
        f"{n} 환경 변수: .env.example을 .env.local로 복사해서 쓴다. NEXT_PUBLIC_ 로 시작하는 값만 브라우저에 노출된다",
        project=w,
    )
    b.ask(
        answer(envs),
        ("korean-compound", f"{n} 환경변수 파일은 어떻게 만들어?"),
        ("korean", "브라우저에 노출되는 환경 변수는 어떤 거야?"),
    )
    script = b.mem(
        "context",
        f"{n} 배포 스크립트는 `scripts/deploy.sh`에서 실행한다. 실행 전에 `{pm} build`를 먼저 돌릴 것",
        project=w,
        tags=["deploy"],
    )
    b.ask(
        answer(script, deploy),
        ("korean-compound", f"{n} 배포스크립트 어디 있어?"),
        ("korean", "배포 스크립트를 돌리기 전에 뭘 해야 하지?"),
        ("identifier", "deploy.sh location"),
    )
    r = b.mem(
        "context",
        f"{n} 이미지는 next/image 대신 직접 만든 <Img> 컴포넌트를 쓴다 (CDN에서 리사이즈하기 때문)",
        project=w,
    )
    b.ask(answer(r), ("korean", "이미지 컴포넌트는 왜 직접 만들었어?"))
    flag_ref = b.mem(
        "context",
        f"Feature flag {flag} gates the new flow in {n}; flip it in flags.json per environment, default off in production",
        project=w,
        tags=["flags"],
    )
    b.ask(
        answer(flag_ref),
        ("identifier", f"{''.join(part.title() for part in flag.split('_'))} feature flag"),
        ("paraphrase", "where do I toggle a feature flag per environment?"),
    )
    b.mem(
        "context",
        f"Design tokens for {n} live in src/styles/tokens.css; components use the CSS variables, not hex colours",
        project=w,
        tags=["design"],
    )
    freeze = b.mem(
        "context",
        f"Release freeze for {n} from Dec 10 to Jan 3: only hotfixes, each approved by {who['design']}",
        project=w,
        scope="temporary",
    )
    b.ask(
        answer(freeze),
        ("inflection", "when is the holiday code freeze?"),
        ("korean-mixed", f"{n} 코드 프리즈 언제부터야?"),
    )


def web_commands_and_errors(b: Builder, w: Project) -> None:
    """The web app's shell history and the errors it met."""
    n, pm, runner, port, comp = w.name, w.v["pm"], w.v["runner"], w.v["port"], w.v["comp"]
    cmd_test = b.mem(
        "command",
        f"{pm} {runner} run src/components/{comp}.test.tsx"
        if runner == "vitest"
        else f"{pm} jest src/components/{comp}.test.tsx --watch=false",
        project=w,
    )
    b.mem(
        "command",
        f"{pm} exec playwright test e2e/{comp.lower()}.spec.ts --project=chromium --headed",
        project=w,
    )
    b.mem("command", f"{pm} run build && {pm} run start -p {port}", project=w)
    b.mem("command", f"{pm} tsc --noEmit -p tsconfig.json", project=w)
    b.mem("command", f"{pm} eslint 'src/**/*.{{ts,tsx}}' --fix", project=w)
    b.mem("command", f"lsof -ti :{port} | xargs kill -9", project=w)
    b.ask(
        answer(cmd_test, b.named["web.runner"]),
        ("exact", f"run only the {comp} component test"),
        ("inflection", f"running a single {runner} test file"),
    )
    # errors
    esm = b.mem(
        "error",
        f"Error [ERR_MODULE_NOT_FOUND]: Cannot find module '{HOME}/{n}/src/lib/formatPrice' imported from {HOME}/{n}/src/components/{comp}Summary.tsx\n    at finalizeResolution (node:internal/modules/esm/resolve:265:11)\n    at moduleResolve (node:internal/modules/esm/resolve:933:10)\n\nNode.js v{w.v['node']}.11.0",
        project=w,
        resolution="ESM needs the extension: import from './formatPrice.js' (or set moduleResolution to bundler in tsconfig.json)",
    )
    b.ask(
        answer(esm),
        ("error", "ERR_MODULE_NOT_FOUND for formatPrice"),
        ("identifier", "cannot find module format_price"),
        ("korean-mixed", "formatPrice 모듈을 못 찾는 에러 어떻게 고쳤지?"),
    )
    ts = b.mem(
        "error",
        f"src/hooks/use{comp}.ts(42,17): error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.\n  Type 'undefined' is not assignable to type 'string'.",
        project=w,
        resolution="Guard before the call: if (!id) return; then addItem(id)",
    )
    b.ask(
        answer(ts),
        ("error", f"TS2345 string undefined in use{comp}"),
        ("identifier", f"use_{comp.lower()} hook type error undefined not assignable"),
    )
    cents = b.pick(("9.99", "19.99", "4.99"))
    unit = b.mem(
        "error",
        f" FAIL  src/components/{comp}.test.tsx > {comp} > shows the total\nAssertionError: expected '${float(cents) + 0.01:.2f}' to be '${cents}' // Object.is equality\n ❯ src/components/{comp}.test.tsx:31:42",
        project=w,
        resolution="Totals were rounded with Math.round on floats; sum integer cents and format with Intl.NumberFormat",
    )
    b.ask(
        answer(unit, cmd_test),
        ("paraphrase", f"{comp} total is off by one cent in the test"),
        ("inflection", "rounding errors in the totals test"),
    )
    inuse = b.mem(
        "error",
        f"Error: listen EADDRINUSE: address already in use :::{port}\n    at Server.setupListenHandle [as _listen2] (node:net:1872:16)\n  code: 'EADDRINUSE',\n  errno: -98,\n  syscall: 'listen',\n  port: {port}",
        project=w,
        resolution=f"A stale dev server held the port: lsof -ti :{port} | xargs kill -9",
    )
    b.ask(
        answer(inuse),
        ("question", "dev server says the address is already in use, what do I do?"),
        ("korean-mixed", f"{port} 포트가 이미 사용 중이라고 나와"),
    )
    day, hour = b.rng.randrange(1, 28), b.rng.randrange(1, 9)
    hyd = b.mem(
        "error",
        f'Error: Hydration failed because the initial UI does not match what was rendered on the server.\nWarning: Text content did not match. Server: "Nov {day}, 0{hour}:00" Client: "Nov {day}, {hour + 9}:00"\n    at {comp}Date (src/components/{comp}Date.tsx)',
        project=w,
        resolution="Dates were formatted in the server's UTC and the browser's zone; render them client-side in useEffect with the user's zone",
    )
    b.ask(
        answer(hyd),
        ("inflection", "hydration mismatch on dates"),
        ("korean-mixed", "hydration 에러 원인이 뭐였어?"),
    )
    b.mem(
        "error",
        f'npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree\nnpm error Found: react@19.0.0\nnpm error Could not resolve dependency:\nnpm error peer react@"^18.2.0" from react-{comp.lower()}-widget@2.4.1',
        project=w,
        resolution=f"Someone ran npm in a {pm} repo; deleted package-lock.json and ran {pm} install",
    )


# --- the Python API --------------------------------------------------------------------------


def python_api(b: Builder, a: Project, infra: Project) -> None:
    """A Python web API: framework, database, queue, migrations, typical tracebacks."""
    n, fw, port, queue, db, model = (
        a.name,
        a.v["fw"],
        a.v["port"],
        a.v["queue"],
        a.v["db"],
        a.v["model"],
    )
    domain, vendor = a.v["domain"], a.v["vendor"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    r = b.mem(
        "preference",
        f"{n}: run tests with `uv run pytest -x --ff -q`; the integration tests need `docker compose up -d postgres` first",
        project=a,
        key="test-runner",
        tags=["pytest"],
    )
    b.ask(
        answer(r),
        ("question", f"how do I run the {n} test suite?"),
        ("inflection", "integration tested against which database container"),
    )
    kr_pytest = b.mem(
        "preference",
        f"{n} 테스트는 항상 `pytest -x --ff` 옵션으로 돌린다. 느린 테스트는 `-m 'not slow'`로 뺀다",
        project=a,
        key="pytest-flags",
    )
    b.ask(
        answer(kr_pytest),
        ("korean", "느린 테스트는 어떻게 빼고 돌려?"),
        ("korean-mixed", "pytest 옵션 뭐로 돌리지?"),
    )
    run = b.mem(
        "context",
        b.pick(
            (
                f"Run {n} locally: `uv run uvicorn app.main:app --reload --port {port}` (or `make dev`); it needs DATABASE_URL=postgresql://localhost/{db}",
                f"{n} 로컬 실행: `make dev` (내부적으로 --reload로 {port} 포트에 뜬다). DATABASE_URL은 postgresql://localhost/{db}",
            )
        ),
        project=a,
    )
    b.ask(
        answer(run),
        ("question", f"how do I start {n} on my machine?"),
        ("identifier", "database url for local dev"),
        ("korean", f"{n} 로컬에서 어떻게 띄워?"),
    )
    stg = b.mem(
        "context",
        f"{n} staging is deployed with `make deploy-staging` from the repo root; it builds the image, pushes it and rolls the {infra.v['run']} service",
        project=a,
        tags=["deploy", "staging"],
    )
    b.ask(
        answer(stg),
        ("question", "how do we ship staging?"),
        ("inflection", f"deploying {n} to the staging environment"),
        ("exact", "deploy staging make target"),
    )
    mig_tool = "alembic" if fw != "Django" else "manage.py migrate"
    if fw == "Django":
        mig_text = f"Migrations in {n}: `uv run python manage.py makemigrations {domain}` then `migrate`; never edit a migration that reached main"
    else:
        mig_text = f"Migrations in {n}: `uv run alembic revision --autogenerate -m '...'` then `alembic upgrade head`; never edit a migration that reached main"
    mig = b.mem("context", mig_text, project=a, tags=["database"])
    b.ask(
        answer(mig, b.named["api.schema-owner"]),
        ("question", f"how do I create a new db migration in {n}?"),
        ("inflection", "migrating the schema after changing a model"),
    )
    kr_mig = b.mem(
        "context",
        f"{n}에서 `make migrate` 돌리기 전에 반드시 스테이징 DB 스냅샷을 먼저 뜰 것 ({mig_tool} 다운그레이드가 안 되는 마이그레이션이 있음)",
        project=a,
        tags=["database"],
    )
    b.ask(
        answer(kr_mig, mig),
        ("korean", "마이그레이션 돌리기 전에 뭘 해야 돼?"),
        ("korean-compound", "스테이징DB 스냅샷 언제 떠?"),
    )
    cache = b.mem(
        "context",
        b.pick(
            (
                f"Decision: cache {domain} lookups in Postgres (an UNLOGGED table with expires_at) instead of Redis: one less service to run, and the hit path is only 2 ms slower",
                f"결정: {domain} 조회 캐시는 Redis 대신 Postgres UNLOGGED 테이블로 했다. 운영할 서비스를 하나 줄이려고, 속도 차이는 2ms 정도",
            )
        ),
        project=a,
        tags=["decision", "cache"],
    )
    b.ask(
        answer(cache),
        ("question", "what did we decide about the cache?"),
        ("korean", "왜 Redis 대신 Postgres로 캐시했지?"),
        ("paraphrase", "why is there no redis for caching lookups"),
    )
    lock = b.mem(
        "context",
        f"Chose Postgres advisory locks over Redis locks for the {queue} job scheduler because Redis here is a single node and a restart dropped every lock",
        project=a,
        tags=["decision"],
    )
    b.ask(
        answer(lock),
        ("paraphrase", "why do scheduled jobs lock with postgres?"),
        ("inflection", "locking jobs so they do not run twice"),
    )
    arch = b.mem(
        "context",
        f"{n} request path: nginx → gunicorn ({b.pick(('4', '8'))} uvicorn workers) → {fw}; background work goes to {queue} workers through Redis; {vendor} webhooks land on /webhooks/{vendor.split()[0].lower()}",
        project=a,
        tags=["architecture"],
    )
    b.ask(
        answer(arch),
        ("question", f"how many gunicorn workers does {n} run?"),
        ("paraphrase", f"where do {vendor.split()[0]} webhooks arrive"),
    )
    to = a.v["timeout"]
    r = b.mem(
        "context",
        f"{vendor} API calls in {n} use a {to} s timeout and 3 retries with exponential backoff (app/clients/{vendor.split()[0].lower()}.py)",
        project=a,
    )
    b.ask(
        answer(r),
        ("paraphrase", f"what timeout do we use for the {vendor.split()[0]} client?"),
        ("inflection", "retrying payment provider requests"),
    )
    pool = b.mem(
        "context",
        f"DB pool for {n}: pool_size={a.v['pool']}, max_overflow=5, pool_pre_ping=True; raise it only together with the {infra.v['db']} max_connections",
        project=a,
    )
    b.ask(
        answer(pool),
        ("identifier", "PoolSize max overflow setting"),
        ("question", "can I raise the connection pool size?"),
    )
    money = b.named["api.money"] = b.mem(
        "context",
        f"금액은 전부 정수(원/센트 단위)로 저장한다. {model} 금액 계산에 float 쓰지 말 것 (Decimal 또는 int)",
        project=a,
    )
    b.ask(
        answer(money),
        ("korean", "금액을 float로 저장해도 돼?"),
        ("korean-compound", "금액계산할 때 타입 뭐 써?"),
    )
    b.mem(
        "context",
        f"{model} rows are soft-deleted (deleted_at); every query in app/repositories/{snake}.py must filter deleted_at IS NULL",
        project=a,
    )
    settings = b.named["api.settings"] = b.mem(
        "context",
        f"{n} settings are pydantic-settings classes in app/settings.py; env vars use the {domain.upper()}_ prefix",
        project=a,
    )
    b.ask(
        answer(settings),
        ("identifier", "where do the app settings live, settings py?"),
        ("abbreviation", "env var prefix for config"),
    )


def api_commands_and_errors(b: Builder, a: Project) -> None:
    """The API's shell history and the errors it met."""
    n, port, queue, model, fw, vendor = (
        a.name,
        a.v["port"],
        a.v["queue"],
        a.v["model"],
        a.v["fw"],
        a.v["vendor"],
    )
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    db = a.v["db"]
    b.mem("command", f"uv run pytest tests/test_{snake}.py -x -q -k 'refund or partial'", project=a)
    b.mem(
        "command",
        f"docker compose exec postgres psql -U postgres -d {db} -c '\\d+ {snake}s'",
        project=a,
    )
    b.mem(
        "command",
        "uv run alembic downgrade -1 && uv run alembic upgrade head"
        if fw != "Django"
        else "uv run python manage.py migrate --plan",
        project=a,
    )
    b.mem("command", f"curl -s localhost:{port}/healthz | jq .", project=a)
    b.mem("command", "uv run ruff check --fix app tests && uv run mypy app", project=a)
    cmd_worker = b.mem(
        "command",
        "uv run celery -A app.worker worker -l info -Q default,webhooks"
        if queue == "Celery"
        else f"uv run {queue.lower()} worker app.worker.WorkerSettings"
        if queue == "arq"
        else "uv run rq worker default webhooks --with-scheduler",
        project=a,
    )
    b.ask(
        answer(cmd_worker),
        ("question", f"how do I start a {queue} worker locally?"),
        ("inflection", "running background workers"),
    )
    # errors
    mod = b.mem(
        "error",
        f'Traceback (most recent call last):\n  File "{HOME}/{n}/app/main.py", line 3, in <module>\n    from app.settings import Settings\n  File "{HOME}/{n}/app/settings.py", line 1, in <module>\n    from pydantic_settings import BaseSettings\nModuleNotFoundError: No module named \'pydantic_settings\'',
        project=a,
        resolution="The venv was stale after the pydantic 2 bump: uv sync (pydantic-settings is its own package now)",
    )
    b.ask(
        answer(mod, b.named["api.settings"]),
        ("error", "no module named pydantic settings on startup"),
        ("identifier", "pydantic-settings import error BaseSettings"),
        ("korean-mixed", "pydantic_settings 모듈 없다고 나오는 거 어떻게 해결했지?"),
    )
    cents = b.pick(("10.0", "25.0", "7.5"))
    test_fail = b.mem(
        "error",
        f"FAILED tests/test_{snake}.py::test_partial_refund_rounds_half_up - assert {float(cents) - 0.01:.2f} == {cents}\nE   assert {float(cents) - 0.01:.2f} == {cents}\nE    +  where {float(cents) - 0.01:.2f} = compute_refund(amount=Decimal('{cents}0'), ratio=0.5)",
        project=a,
        resolution="compute_refund used float(); switched to Decimal with ROUND_HALF_UP",
    )
    b.ask(
        answer(test_fail, b.named["api.money"]),
        ("inflection", "partial refunds rounding test failing"),
        ("identifier", "computeRefund rounding assert"),
    )
    conn = b.mem(
        "error",
        f'  File "{HOME}/{n}/app/db.py", line {b.rng.randrange(12, 60)}, in connect\n    return engine.connect()\nsqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
        project=a,
        resolution="Postgres container was not up: docker compose up -d postgres",
    )
    b.ask(
        answer(conn),
        ("paraphrase", "tests can't connect to postgres, connection refused"),
        ("korean-mixed", "postgres 연결 거부 에러 나면 뭐부터 해?"),
    )
    dup = b.mem(
        "error",
        f'sqlalchemy.exc.IntegrityError: (psycopg.errors.UniqueViolation) duplicate key value violates unique constraint "{snake}s_idempotency_key_key"\nDETAIL:  Key (idempotency_key)=(evt_{b.rng.randrange(10**7, 10**8)}) already exists.',
        project=a,
        resolution=f"{vendor} retries webhooks; catch the UniqueViolation and return 200 for a replayed event",
    )
    b.ask(
        answer(dup),
        ("paraphrase", "duplicate webhook events break the unique constraint"),
        ("identifier", "idempotencyKey unique violation"),
    )
    pv = f"3.{b.rng.randrange(1, 3)}.{b.rng.randrange(2, 19)}"
    b.mem(
        "error",
        f"RuntimeError: Task <Task pending name='Task-12' coro=<{snake}_sync() running at {HOME}/{n}/app/jobs/{snake}_sync.py:58>> got Future attached to a different loop",
        project=a,
        resolution="The test created its own event loop; use the pytest-asyncio loop fixture (asyncio_mode = auto)",
    )
    b.mem(
        "error",
        f'ERROR: Cannot install psycopg[binary]=={pv} because these package versions have conflicting dependencies.\nThe conflict is caused by:\n    The user requested psycopg-binary=={pv[:-1]}{int(pv[-1]) - 1}\n    psycopg[binary] {pv} depends on psycopg-binary=={pv}; implementation_name != "pypy"',
        project=a,
        resolution="Dropped the separate psycopg-binary pin from requirements-dev.txt",
    )


# --- the Go CLI ------------------------------------------------------------------------------


def go_cli(b: Builder, c: Project) -> None:
    """A Go command-line tool: layout, release, flags, typical go and linter errors."""
    n, lib, go, env, sub = c.name, c.v["lib"], c.v["go"], c.v["env"], c.v["sub"]
    env = env.rstrip("_") + "_"
    r = b.mem(
        "preference",
        f'{n}: wrap errors with fmt.Errorf("...: %w", err), never log and return the same error',
        project=c,
        key="go-errors",
        tags=["go"],
    )
    b.ask(
        answer(r),
        ("paraphrase", "how should I wrap errors in go code?"),
        ("inflection", "wrapping go errors"),
    )
    lint = b.mem(
        "preference",
        f"{n} 린트는 golangci-lint로, CI와 같은 설정(.golangci.yml)을 로컬에서도 돌린다",
        project=c,
        key="go-lint",
    )
    b.ask(answer(lint), ("korean", "go 린트 뭘로 돌려?"))
    layout = b.mem(
        "context",
        f"{n} layout: one file per subcommand in cmd/ ({lib}), shared code in internal/; main.go only calls cmd.Execute()",
        project=c,
        tags=["architecture"],
    )
    b.ask(
        answer(layout),
        ("question", f"where do I add a new subcommand to {n}?"),
        ("inflection", "structuring subcommands in the go cli"),
    )
    rel = b.mem(
        "context",
        b.pick(
            (
                f"{n} releases: tag vX.Y.Z and push; goreleaser (.goreleaser.yaml) builds linux/darwin amd64+arm64 and updates the Homebrew tap",
                f"{n} 릴리스는 vX.Y.Z 태그를 푸시하면 goreleaser가 linux/darwin 바이너리를 만들고 Homebrew tap까지 올린다",
            )
        ),
        project=c,
        tags=["release"],
    )
    b.ask(
        answer(rel),
        ("question", f"how do we cut a release of {n}?"),
        ("inflection", "releasing new binaries to homebrew"),
        ("korean", f"{n} 새 버전은 어떻게 배포해?"),
    )
    cfg = b.mem(
        "context",
        f"{n} reads ~/.config/{n}/config.yaml, then {env}* env vars, then flags (flags win)",
        project=c,
    )
    b.ask(
        answer(cfg),
        ("question", f"what's the precedence between config file, env vars and flags in {n}?"),
        ("paraphrase", f"where does {n} look for its config"),
    )
    r = b.mem(
        "context",
        f"Decision: {lib} for {n} instead of the standard flag package: nested subcommands and generated shell completion",
        project=c,
        tags=["decision"],
    )
    b.ask(answer(r), ("question", f"why not use the stdlib flag package in {n}?"))
    golden = b.mem(
        "context",
        f"{n} 골든 파일 테스트: 출력이 바뀌면 `go test ./... -update`로 testdata/*.golden을 다시 만든다",
        project=c,
        tags=["testing"],
    )
    b.ask(
        answer(golden),
        ("korean-compound", "골든파일 갱신 어떻게 해?"),
        ("identifier", "regenerate testdata golden files"),
    )
    b.mem(
        "context", f"{n} supports Go {go}+ only (go.mod says go {go}); generics are fine", project=c
    )
    # commands
    race = b.mem("command", "go test ./... -race -count=1", project=c)
    b.mem("command", f"go run . {sub} --dry-run -v", project=c)
    b.mem("command", "golangci-lint run --timeout 5m ./...", project=c)
    b.mem("command", "goreleaser release --snapshot --clean", project=c)
    b.mem(
        "command",
        f'go build -ldflags "-X main.version=$(git describe --tags)" -o bin/{n} .',
        project=c,
    )
    b.ask(
        answer(race),
        ("abbreviation", "go tests w/ race detector"),
        ("question", "how do I run the go tests without the cache?"),
    )
    # errors
    vet = b.mem(
        "error",
        f"# {n}/internal/{sub}\ninternal/{sub}/{sub}.go:88:12: undefined: retryBackoff\ninternal/{sub}/{sub}.go:91:3: declared and not used: attempt",
        project=c,
        resolution="retryBackoff was moved to internal/netutil; import it and drop the unused counter",
    )
    b.ask(
        answer(vet),
        ("identifier", "undefined retry_backoff"),
        ("error", f"go build says undefined in the {sub} package"),
    )
    race_err = b.mem(
        "error",
        f"==================\nWARNING: DATA RACE\nWrite at 0x00c000124018 by goroutine 9:\n  {n}/internal/{sub}.(*Progress).Add()\n      {HOME}/{n}/internal/{sub}/progress.go:34 +0x44\n--- FAIL: Test{sub.title()}Parallel (0.02s)\n    testing.go:1398: race detected during execution of test",
        project=c,
        resolution="Progress.Add mutated a shared counter; use atomic.Int64",
    )
    b.ask(
        answer(race_err, race),
        ("paraphrase", f"data race in the progress counter during {sub} tests"),
        ("korean-mixed", "go 테스트에서 race detected 나왔던 거 어떻게 고쳤지?"),
    )
    b.mem(
        "error",
        f"go: {n} imports\n\tgithub.com/spf13/viper: github.com/spf13/viper@v1.18.0: verifying module: checksum mismatch\n\tdownloaded: h1:1UAg0aa7dTjg0iXKOd7U2mtHxZMgJqT8nNGMAnt6mQQ=\n\tgo.sum:     h1:ZR7o2+9ZJsQ7uxCV7YjJ6E4Bq3vT0sO4pX6Qf1LrV7E=",
        project=c,
        resolution="go.sum was edited by hand in a merge; go clean -modcache && go mod tidy",
    )
    b.mem(
        "error",
        f"internal/{sub}/client.go:{b.rng.randrange(30, 120)}:2: Error return value of `resp.Body.Close` is not checked (errcheck)",
        project=c,
        resolution="defer func() { _ = resp.Body.Close() }()",
    )


# --- the Rust crate --------------------------------------------------------------------------


def rust_crate(b: Builder, r_: Project) -> None:
    """A Rust library crate: MSRV, features, unsafe policy, cargo and borrow checker errors."""
    n, msrv, feat, ty = r_.name, r_.v["msrv"], r_.v["feature"], r_.v["type"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", ty).lower()
    clippy = b.mem(
        "preference",
        f"{n}: cargo clippy --all-targets --all-features -- -D warnings must be clean before a push",
        project=r_,
        key="clippy",
        tags=["rust"],
    )
    b.ask(
        answer(clippy),
        ("inflection", "clippy warnings treated as errors?"),
        ("abbreviation", "lint cfg for the crate"),
    )
    msrv_ref = b.mem(
        "context",
        b.pick(
            (
                f"{n} MSRV is {msrv} (rust-version in Cargo.toml); CI has a job that builds with exactly {msrv}",
                f"{n}의 최소 지원 러스트 버전(MSRV)은 {msrv}. Cargo.toml의 rust-version과 CI 잡을 같이 올려야 한다",
            )
        ),
        project=r_,
    )
    b.ask(
        answer(msrv_ref),
        ("abbreviation", f"{n} msrv?"),
        ("paraphrase", f"minimum rust version supported by {n}"),
        ("korean", "최소 러스트 버전 올리려면 뭘 바꿔야 해?"),
    )
    unsafe = b.mem(
        "context",
        f"unsafe in {n} only in src/raw.rs, each block with a // SAFETY: comment; miri runs in CI (cargo +nightly miri test)",
        project=r_,
    )
    b.ask(
        answer(unsafe),
        ("question", "where am I allowed to write unsafe code in the crate?"),
        ("identifier", "SAFETY comment rule raw rs"),
    )
    feats = b.mem(
        "context",
        f'{n} features: default = ["std"]; `{feat}` is opt-in; no_std builds are checked with cargo build --no-default-features',
        project=r_,
    )
    b.ask(
        answer(feats),
        ("inflection", "building without the default features"),
        ("korean-mixed", "no_std 빌드 어떻게 확인해?"),
    )
    dec = b.mem(
        "context",
        f"Decision: {ty} keeps its own Vec<u8> arena instead of using bytes::Bytes, to avoid the dependency and the refcount on the hot path",
        project=r_,
        tags=["decision"],
    )
    b.ask(
        answer(dec),
        ("question", f"why doesn't {ty} use the bytes crate?"),
        ("identifier", f"{snake} arena instead of Bytes"),
    )
    bench = b.mem(
        "context",
        f"{n} 벤치마크는 criterion으로 `cargo bench --bench {snake}` 실행. 비교할 때는 --save-baseline main 먼저",
        project=r_,
        tags=["bench"],
    )
    b.ask(
        answer(bench),
        ("korean", "벤치마크는 어떻게 돌려?"),
        ("korean-mixed", "criterion baseline 저장은?"),
    )
    b.mem(
        "context",
        f"{n} publishes to crates.io from CI on a v* tag (cargo publish --locked); docs.rs builds with all features",
        project=r_,
    )
    b.mem("command", "cargo nextest run --all-features", project=r_)
    b.mem("command", f"cargo +{msrv} check --all-features", project=r_)
    b.mem("command", "cargo +nightly miri test raw::", project=r_)
    b.mem("command", f"cargo bench --bench {snake} -- --save-baseline main", project=r_)
    borrow = b.mem(
        "error",
        f"error[E0502]: cannot borrow `self.buf` as mutable because it is also borrowed as immutable\n  --> src/{snake}.rs:118:9\n    |\n115 |         let head = &self.buf[..self.len];\n    |                     -------- immutable borrow occurs here\n118 |         self.buf.extend_from_slice(tail);\n    |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here",
        project=r_,
        resolution="Copy the head length into a local first and re-slice after the extend",
    )
    b.ask(
        answer(borrow),
        ("error", "E0502 borrow self.buf mutable and immutable"),
        ("paraphrase", "borrow checker complains when extending the buffer"),
    )
    b.mem(
        "error",
        f"     Locking {b.rng.randrange(40, 140)} packages to latest compatible versions\nerror: package `half v2.4.1` cannot be built because it requires rustc 1.81 or newer, while the currently active rustc version is {msrv}.0\nEither upgrade rustc or select compatible dependency versions with\n`cargo update <name>@<current-ver> --precise <compatible-ver>`",
        project=r_,
        resolution="cargo update half --precise 2.2.1 (keeps the MSRV)",
    )
    miri = b.mem(
        "error",
        f"error: Undefined Behavior: trying to retag from <{b.rng.randrange(1000, 9999)}> for SharedReadOnly permission at alloc{b.rng.randrange(100, 9999)}[0x8], but that tag does not exist in the borrow stack for this location\n   --> src/raw.rs:64:18",
        project=r_,
        resolution="A raw pointer outlived the &mut it came from; derive both pointers from one as_mut_ptr()",
    )
    b.ask(
        answer(miri, unsafe),
        ("inflection", "miri reported undefined behaviour in raw.rs"),
        ("korean-mixed", "miri UB 에러 고친 방법"),
    )


# --- infrastructure --------------------------------------------------------------------------


def infra_repo(b: Builder, i: Project, api: Project, who: dict[str, str]) -> None:
    """Terraform for the projects: state, workspaces, approvals, terraform and docker errors."""
    n, cloud, tf, region, run = i.name, i.v["cloud"], i.v["tf"], i.v["region"], i.v["run"]
    r = b.mem(
        "preference",
        f"{n}: terraform fmt -recursive and tflint before every plan; modules pinned by git tag (?ref=vX.Y.Z), never a branch",
        project=i,
        key="tf-hygiene",
        tags=["terraform"],
    )
    b.ask(
        answer(r),
        ("question", "how should terraform modules be pinned?"),
        ("inflection", "formatting and linting terraform"),
    )
    state = b.mem(
        "context",
        f"{n} state: {i.v['backend']}, one workspace per environment (staging, prod), region {region}",
        project=i,
        tags=["terraform"],
    )
    b.ask(
        answer(state),
        ("question", "where is the terraform state stored?"),
        ("paraphrase", "remote backend for tf state"),
        ("abbreviation", "tf state bucket"),
    )
    approve = b.mem(
        "context",
        b.pick(
            (
                f"Prod applies in {n} need {who['ops']}'s approval on the PR; the plan output goes in the PR description",
                f"{n} 운영(prod) apply는 {who['ops']} 승인 필요. plan 결과를 PR 설명에 붙일 것",
            )
        ),
        project=i,
        tags=["people"],
    )
    b.ask(
        answer(approve),
        ("question", "who approves a production terraform apply?"),
        ("korean", "프로드 apply는 누구한테 승인 받아?"),
    )
    kr_plan = b.mem(
        "context",
        f"{n} 테라폼 plan은 로컬 말고 CI에서만 apply 한다. 로컬 apply는 {who['ops']}만 가능 (긴급 상황)",
        project=i,
    )
    b.ask(answer(kr_plan, approve), ("korean", "로컬에서 테라폼 apply해도 돼?"))
    svc = b.mem(
        "context",
        f"{api.name} runs on {run} in {region}: 2 tasks in staging, {b.pick(('3', '4', '6'))} in prod behind the load balancer; the database is {i.v['db']} Postgres {api.v['pg']}",
        project=i,
        tags=["architecture"],
    )
    b.ask(
        answer(svc),
        ("question", f"how many instances of {api.name} run in prod?"),
        ("paraphrase", f"what postgres version is the managed db for {api.name}"),
    )
    r = b.mem(
        "context",
        f"Decision: {run} instead of Kubernetes for {api.name} and the other services: two engineers cannot run a cluster, and nothing here needs sidecars",
        project=i,
        tags=["decision"],
    )
    b.ask(
        answer(r),
        ("question", "why aren't we on kubernetes?"),
        ("korean-mixed", f"k8s 대신 {run} 쓰는 이유"),
    )
    dns = b.mem(
        "context",
        f"DNS records live in modules/dns; the staging domain is staging.{api.v['domain']}.example.dev, certificates are managed by the cloud's certificate service",
        project=i,
    )
    b.ask(answer(dns), ("inflection", "where are the dns records defined?"))
    tags_ref = b.mem(
        "context",
        f"{n} 리소스 태그 규칙: 모든 리소스에 owner, env, service 태그 필수 (default_tags로 넣는다)",
        project=i,
    )
    b.ask(
        answer(tags_ref),
        ("korean-compound", "리소스태그 필수 항목이 뭐야?"),
        ("korean", "리소스에 어떤 태그를 넣어야 해?"),
    )
    b.mem(
        "context",
        f"Terraform {tf}.x pinned with .terraform-version (tfenv); providers locked in .terraform.lock.hcl, commit it",
        project=i,
    )
    b.mem("command", "terraform -chdir=envs/staging plan -out=tfplan -lock-timeout=60s", project=i)
    b.mem(
        "command",
        "terraform workspace select prod && terraform plan -var-file=prod.tfvars",
        project=i,
    )
    b.mem("command", f"tflint --recursive --config {HOME}/{n}/.tflint.hcl", project=i)
    b.mem(
        "command",
        f"docker buildx build --platform linux/amd64 -t {api.name}:dev --load .",
        project=i,
    )
    line = b.rng.randrange(20, 90)
    if cloud == "AWS":
        resource, argument, value = "aws_ecs_service", "deployment_controller_type", "ECS"
    else:
        resource, argument, value = "google_cloud_run_v2_service", "scaling_min", "1"
    lockerr = b.mem(
        "error",
        f"Error: Error acquiring the state lock\n\nError message: ConditionalCheckFailedException: The conditional request failed\nLock Info:\n  ID:        {uuid.UUID(int=b.rng.getrandbits(128), version=4)}\n  Path:      tf-state/{n}/staging.tfstate\n  Operation: OperationTypePlan\n  Who:       dev@laptop",
        project=i,
        resolution="A killed plan left the lock; checked nobody was running one, then terraform force-unlock <ID>",
    )
    b.ask(
        answer(lockerr),
        ("inflection", "terraform state locked by an aborted plan"),
        ("korean-mixed", "terraform state lock 걸렸을 때 어떻게 풀어?"),
    )
    b.mem(
        "error",
        f'│ Error: Unsupported argument\n│\n│   on modules/service/main.tf line {line}, in resource "{resource}" "{api.name.replace("-", "_")}":\n│   {line}:   {argument} = "{value}"\n│\n│ An argument named "{argument}" is not expected here.',
        project=i,
        resolution=f'It is a nested block: {argument.rsplit("_", 1)[0]} {{ {argument.rsplit("_", 1)[1]} = "{value}" }}',
    )
    arch_err = b.mem(
        "error",
        f"{api.name}-1  | exec /app/.venv/bin/{b.pick(('gunicorn', 'uvicorn'))}: exec format error\n{api.name}-1 exited with code 1",
        project=i,
        resolution="The image was built on an arm64 laptop; build with docker buildx --platform linux/amd64",
    )
    b.ask(
        answer(arch_err),
        ("paraphrase", "container crashes with exec format error after deploy"),
        ("korean-mixed", "exec format error 원인이 뭐였지?"),
    )
    b.mem(
        "error",
        f'ERROR: failed to solve: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1\n#{b.rng.randrange(6, 19)} {b.rng.uniform(2, 30):.3f} error: externally-managed-environment\n(building {api.name} from python:{api.v["py"]}-slim-bookworm)',
        project=i,
        resolution="Base image moved to Debian bookworm; install into a venv (python -m venv /opt/venv) in the Dockerfile",
    )


# --- the data pipeline -----------------------------------------------------------------------


def data_pipeline(b: Builder, d: Project, who: dict[str, str]) -> None:
    """A data pipeline: orchestrator, warehouse, schedule, dbt, typical job failures."""
    n, orch, wh, cron, table = d.name, d.v["orch"], d.v["wh"], d.v["cron"], d.v["table"]
    sched = b.mem(
        "context",
        b.pick(
            (
                f"{n} runs on {orch}, daily at `{cron}` UTC; it loads {d.v['src']} into {wh}",
                f"{n}는 {orch}에서 매일 `{cron}` (UTC)에 돈다. 원천 데이터는 {d.v['src']}, 적재는 {wh}",
            )
        ),
        project=d,
    )
    b.ask(
        answer(sched),
        ("question", f"when does the {n} job run each day?"),
        ("paraphrase", f"schedule of the nightly {orch} load"),
        ("korean", f"{n} 배치는 몇 시에 돌아?"),
    )
    dbt = b.mem(
        "context",
        f"dbt models for {n} live in transform/models; `dbt build --select {table}+` rebuilds a model and everything downstream",
        project=d,
        tags=["dbt"],
    )
    b.ask(
        answer(dbt),
        ("question", f"how do I rebuild {table} and its downstream models?"),
        ("identifier", f"{table.replace('_', ' ')} model rebuild"),
    )
    back = b.mem(
        "context",
        f"Backfills in {n}: run one day at a time (`make backfill DAY=2026-10-01`); the job is idempotent because it overwrites the day's partition",
        project=d,
    )
    b.ask(
        answer(back),
        ("inflection", "backfilling a missed day"),
        ("question", "is it safe to rerun the load for a past day?"),
    )
    kr_back = b.mem(
        "context",
        f"{n} 백필은 하루씩 돌릴 것. 한 번에 여러 날 돌리면 {wh} { {'BigQuery': '쿼터가', 'Snowflake': '크레딧이', 'DuckDB': '메모리가'}[wh] } 터진다",
        project=d,
    )
    b.ask(answer(kr_back, back), ("korean", "백필을 한꺼번에 돌려도 돼?"))
    pii = b.mem(
        "context",
        f"{n}: email and phone columns are hashed (sha256 + salt) before loading; raw PII never reaches {wh}. {who['owner']} signs off new columns",
        project=d,
    )
    b.ask(
        answer(pii),
        ("paraphrase", "how is personal data handled in the warehouse?"),
        ("abbreviation", "pii columns hashing"),
    )
    r = b.mem(
        "context",
        f"Decision: {orch} over cron + scripts for {n}: retries, backfills and a UI for the analysts; the {wh} bill stays the same",
        project=d,
        tags=["decision"],
    )
    b.ask(answer(r), ("question", f"why did we move the jobs to {orch}?"))
    ret = b.mem(
        "context",
        f"{n} 원본(raw) 테이블 보관 기간은 {d.v['days']}일. 그 이후는 파티션 만료로 자동 삭제",
        project=d,
    )
    b.ask(
        answer(ret),
        ("korean", "raw 테이블은 며칠 동안 보관돼?"),
        ("korean-compound", "보관기간 지나면 어떻게 돼?"),
    )
    b.mem(
        "context",
        f"{n} 데이터 품질 체크: dbt test로 not_null, unique 검사. 실패하면 슬랙 #data-alerts 채널로 알림",
        project=d,
    )
    b.mem("command", f"dbt build --select {table}+ --target dev", project=d)
    b.mem("command", "make backfill DAY=2026-11-02", project=d)
    b.mem("command", f"uv run pytest tests/pipeline -q -m 'not {wh.lower()}'", project=d)
    b.mem("command", "dbt run-operation drop_dev_schemas --args '{days: 7}'", project=d)
    oom = b.mem(
        "error",
        f"Task exited with return code Negsignal.SIGKILL\n[{iso(NOW - timedelta(days=9))}] {{local_task_job_runner.py:234}} INFO - Task exited with return code -9\nMemoryError while reading events-{b.rng.randrange(100, 999)}.json.gz",
        project=d,
        resolution="The day's file did not fit in memory; stream it with ijson in 50k-row chunks",
    )
    b.ask(
        answer(oom),
        ("paraphrase", "the load task got killed for running out of memory"),
        ("korean-mixed", "SIGKILL로 죽은 태스크 어떻게 해결했지?"),
    )
    dbt_err = b.mem(
        "error",
        f"Database Error in model {table} (models/marts/{table}.sql)\n  Name customer_uuid not found inside s at [14:9]\n  compiled Code at target/run/{n}/models/marts/{table}.sql",
        project=d,
        resolution=f"The source renamed customer_uuid to customer_id; updated the staging model and reran dbt build --select {table}+",
    )
    b.ask(answer(dbt_err, dbt), ("error", f"dbt error column customer uuid not found in {table}"))
    quota = {
        "BigQuery": f"google.api_core.exceptions.Forbidden: 403 Quota exceeded: Your project:acme-{n} exceeded quota for free query bytes scanned. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas\n\nLocation: {b.pick(('US', 'EU', 'asia-northeast3'))}\nJob ID: {b.rng.getrandbits(64):016x}",
        "Snowflake": f"snowflake.connector.errors.ProgrammingError: 000630 (57014): Statement reached its statement or warehouse timeout of 3600 second(s) and was canceled.\n  query id {uuid.UUID(int=b.rng.getrandbits(128), version=4)} in warehouse {n.upper().replace('-', '_')}_WH",
        "DuckDB": f"duckdb.duckdb.OutOfMemoryException: Out of Memory Error: failed to allocate data of size 256.0 MiB ({b.rng.randrange(10, 15)}.4 GiB/{b.rng.randrange(10, 15)}.4 GiB used)\n  while loading {HOME}/{n}/warehouse.duckdb",
    }[wh]
    b.mem(
        "error",
        quota,
        project=d,
        resolution="A backfill of 30 days at once; ran them one per day and added a partition filter",
    )


# --- session summaries ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Story:
    """One session's story: the prompt, files, tests, an error and the commands run."""

    prompt: str
    edited: tuple[str, ...]
    commands: tuple[str, ...]
    tests: str = ""  # the last test command, passed at the end
    error: tuple[str, str, str] | None = None  # (command, first line, fixed by) of one failure
    branch: str = ""


def stories(p: dict[str, Project], who: dict[str, str]) -> dict[str, list[Story]]:
    """The sessions worth a summary, per project kind (values filled from the projects)."""
    web, api, cli, crate, data = p["web"], p["api"], p["cli"], p["crate"], p["data"]
    pm, comp = web.v["pm"], web.v["comp"]
    model = api.v["model"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    sub, ty = cli.v["sub"], crate.v["type"]
    tsnake = re.sub(r"(?<!^)(?=[A-Z])", "_", ty).lower()
    return {
        "web": [
            Story(
                f"add a loading skeleton to the {comp} page",
                (f"src/app/{comp.lower()}/page.tsx", f"src/components/{comp}Skeleton.tsx"),
                (f"{pm} dev", "git diff"),
                f"{pm} test -- {comp}Skeleton",
                branch=f"feat/{comp.lower()}-skeleton",
            ),
            Story(
                "upgrade eslint to v9 flat config",
                ("eslint.config.js", "package.json", ".eslintrc.cjs"),
                (f"{pm} add -D eslint@9", f"{pm} eslint ."),
                error=(
                    f"{pm} eslint .",
                    "ESLint couldn't find an eslint.config.(js|mjs|cjs) file.",
                    f"{pm} eslint . --config eslint.config.js",
                ),
                branch="chore/eslint-9",
            ),
            Story(
                f"{comp} 페이지 다크모드 색상 깨지는 거 고쳐줘",
                ("src/styles/tokens.css", f"src/components/{comp}Card.tsx"),
                (f"{pm} dev", "git stash", "git stash pop"),
                branch="fix/dark-mode",
            ),
            Story(
                "playwright e2e for the checkout is flaky on CI, make it stable",
                ("e2e/checkout.spec.ts", "playwright.config.ts"),
                (f"{pm} exec playwright test e2e/checkout.spec.ts --repeat-each=10",),
                error=(
                    f"{pm} exec playwright test e2e/checkout.spec.ts --repeat-each=10",
                    "TimeoutError: locator.click: Timeout 5000ms exceeded.",
                    f"{pm} exec playwright test e2e/checkout.spec.ts --repeat-each=10",
                ),
                branch="test/stable-checkout",
            ),
            Story(
                f"bump node to {int(web.v['node']) + 2} in CI and .nvmrc",
                (".nvmrc", ".github/workflows/ci.yml"),
                ("node --version", f"{pm} install --frozen-lockfile"),
                branch="chore/node-bump",
            ),
            Story(
                "번들 사이즈가 너무 커졌어, 원인 찾아줘",
                ("next.config.js", "src/lib/dates.ts"),
                (f"{pm} build", f"{pm} dlx source-map-explorer .next/static/chunks/*.js"),
                branch="perf/bundle-size",
            ),
        ],
        "api": [
            Story(
                f"fix the flaky test in tests/test_{snake}.py",
                (f"app/services/{snake}.py", f"tests/test_{snake}.py"),
                (f"uv run pytest tests/test_{snake}.py -x -q",),
                f"uv run pytest tests/test_{snake}.py -x -q",
                (
                    f"uv run pytest tests/test_{snake}.py -x -q",
                    f"FAILED tests/test_{snake}.py::test_{snake}_expires - AssertionError: assert None is not None",
                    f"uv run pytest tests/test_{snake}.py -x -q",
                ),
                branch=f"fix/{snake}-flaky",
            ),
            Story(
                f"add pagination to GET /{snake}s (cursor based)",
                (
                    f"app/api/{snake}s.py",
                    f"app/repositories/{snake}.py",
                    f"tests/api/test_{snake}s.py",
                ),
                (
                    "uv run pytest tests/api -q",
                    f"curl -s 'localhost:{api.v['port']}/{snake}s?limit=2'",
                ),
                "uv run pytest tests/api -q",
                branch=f"feat/{snake}-cursor",
            ),
            Story(
                f"{api.v['vendor']} 웹훅 서명 검증 추가해줘",
                ("app/webhooks.py", "tests/test_webhooks.py"),
                ("uv run pytest tests/test_webhooks.py -q",),
                "uv run pytest tests/test_webhooks.py -q",
                branch="feat/webhook-signature",
            ),
            Story(
                "upgrade to pydantic 2 and fix the deprecation warnings",
                ("app/settings.py", "app/schemas.py", "pyproject.toml"),
                (
                    "uv lock --upgrade-package pydantic",
                    "uv run pytest -q -W error::DeprecationWarning",
                ),
                "uv run pytest -q",
                (
                    "uv run python -m app.main",
                    "ModuleNotFoundError: No module named 'pydantic_settings'",
                    "uv sync",
                ),
                branch="chore/pydantic-2",
            ),
            Story(
                f"{model} 목록 API가 느려, 쿼리 좀 봐줘",
                (f"app/repositories/{snake}.py", "migrations/versions/add_created_at_index.py"),
                ("docker compose exec postgres psql -U postgres -c 'EXPLAIN ANALYZE ...'",),
                branch=f"perf/{snake}-index",
            ),
            Story(
                "write the runbook for rotating the webhook secret",
                ("docs/runbooks/webhook-secret.md",),
                ("git add docs", "git commit"),
                branch="docs/webhook-runbook",
            ),
        ],
        "cli": [
            Story(
                f"add a --json output flag to `{cli.name} {sub}`",
                (f"cmd/{sub}.go", "internal/output/json.go", f"cmd/{sub}_test.go"),
                ("go test ./cmd/...",),
                "go test ./cmd/... -run TestJSON",
                branch="feat/json-output",
            ),
            Story(
                "shell completion for zsh does not list subcommands",
                ("cmd/completion.go",),
                (f"go run . completion zsh > /tmp/_{cli.name}",),
                branch="fix/zsh-completion",
            ),
            Story(
                "goreleaser 설정에 arm64 리눅스 빌드 추가",
                (".goreleaser.yaml",),
                ("goreleaser check", "goreleaser release --snapshot --clean"),
                branch="build/linux-arm64",
            ),
            Story(
                f"the {sub} command hangs when the server never answers, add a timeout",
                (f"internal/{sub}/client.go", f"internal/{sub}/client_test.go"),
                ("go test ./internal/... -race",),
                "go test ./internal/... -race",
                branch="fix/client-timeout",
            ),
        ],
        "crate": [
            Story(
                f"make {ty}::push branch-free, benchmarks regressed",
                (f"src/{tsnake}.rs", f"benches/{tsnake}.rs"),
                (f"cargo bench --bench {tsnake} -- --baseline main",),
                "cargo nextest run",
                branch="perf/branch-free-push",
            ),
            Story(
                "serde 피처 추가해줘 (optional)",
                ("Cargo.toml", "src/serde_impl.rs"),
                ("cargo test --features serde", "cargo build --no-default-features"),
                "cargo test --features serde",
                branch="feat/serde",
            ),
            Story(
                "prepare the 0.4.0 release: changelog and semver check",
                ("CHANGELOG.md", "Cargo.toml"),
                ("cargo semver-checks", "cargo publish --dry-run"),
                branch="release/0.4.0",
            ),
            Story(
                f"fuzz the decoder for {ty}",
                ("fuzz/fuzz_targets/decode.rs",),
                ("cargo +nightly fuzz run decode -- -max_total_time=300",),
                error=(
                    "cargo +nightly fuzz run decode -- -max_total_time=300",
                    "thread '<unnamed>' panicked at src/raw.rs:71:9: index out of bounds",
                    "cargo +nightly fuzz run decode -- -max_total_time=300",
                ),
                branch="test/fuzz-decoder",
            ),
        ],
        "infra": [
            Story(
                f"add a read replica for {api.name} in prod",
                ("envs/prod/database.tf", "modules/db/replica.tf"),
                ("terraform -chdir=envs/prod plan",),
                branch="infra/read-replica",
            ),
            Story(
                "스테이징 비용 줄이기: 야간에 태스크 0개로",
                ("envs/staging/schedule.tf",),
                ("terraform -chdir=envs/staging plan",),
                branch="infra/staging-nightly-scale",
            ),
            Story(
                "upgrade the provider to the next major and fix the plan diff",
                ("versions.tf", ".terraform.lock.hcl", "modules/service/main.tf"),
                ("terraform init -upgrade", "terraform -chdir=envs/staging plan"),
                error=(
                    "terraform -chdir=envs/staging plan",
                    "Error: Unsupported argument",
                    "terraform -chdir=envs/staging plan",
                ),
                branch="infra/provider-upgrade",
            ),
            Story(
                f"give the {data.name} job read access to the replica",
                ("modules/iam/data_reader.tf",),
                ("terraform -chdir=envs/prod plan -target=module.iam",),
                branch="infra/data-reader",
            ),
        ],
        "data": [
            Story(
                f"backfill {data.v['table']} for the first week of October",
                (f"transform/models/marts/{data.v['table']}.sql",),
                ("make backfill DAY=2026-10-01", "make backfill DAY=2026-10-02"),
                branch="ops/backfill-october",
            ),
            Story(
                "데이터 품질 테스트 실패한 거 원인 찾아줘",
                (f"transform/models/staging/{data.v['stg']}.sql", "transform/models/schema.yml"),
                (f"dbt test --select {data.v['stg']}",),
                f"dbt test --select {data.v['stg']}",
                branch="fix/stg-events-nulls",
            ),
            Story(
                f"add a freshness check on the source so late files alert {who['owner']}",
                ("transform/models/sources.yml",),
                ("dbt source freshness",),
                branch="feat/freshness",
            ),
            Story(
                "speed up the daily load, it takes two hours now",
                ("pipeline/load.py", "pipeline/io.py"),
                ("uv run python -m pipeline.load --day 2026-11-20 --profile",),
                "uv run pytest tests/pipeline -q",
                branch="perf/daily-load",
            ),
        ],
    }


def session_summary(b: Builder, project: Project, story: Story, at: datetime) -> str:
    """A session summary laid out as the product's ``render_summary`` writes them."""
    sid = uuid.UUID(int=b.rng.getrandbits(128), version=4)
    length = b.rng.randrange(12, 140)
    end = at + timedelta(minutes=length)
    active = max(3, int(length * b.rng.uniform(0.3, 0.8)))
    hours, minutes = divmod(length, 60)
    took = f"{hours}h{minutes:02d}m" if hours else f"{minutes}m"
    head = f"Session {str(sid)[:8]} {at:%Y-%m-%d %H:%M}–{end:%H:%M} UTC ({took}, {active}m active)"
    branch = f", branch {story.branch}" if story.branch else ""
    lines = [f"{head}{branch}, in {project.path}", f"Asked: {story.prompt}"]
    if story.edited:
        count = f" ({len(story.edited)})" if len(story.edited) > 1 else ""
        lines.append(f"Edited{count}: {', '.join(story.edited)}")
    if story.tests:
        passed = b.rng.randrange(4, 180)
        lines += [
            "Tests (2 runs: 1 FAILED, 1 passed), last:"
            if story.error
            else "Tests (1 run: 1 passed), last:",
            f"- `{story.tests}` passed ({passed} passed in {b.rng.uniform(0.4, 40):.2f}s)",
        ]
    if story.error:
        command, first, fixed_by = story.error
        how = "fixed on retry" if fixed_by == command else f"fixed by `{fixed_by}`"
        lines += ["Errors (1, 1 fixed):", f"- `{command}` (exit 1: {first}) {how}"]
    counts = [b.rng.randrange(1, 5) for _ in story.commands]
    shown = "; ".join(f"`{c}` ×{k}" for c, k in zip(story.commands, counts, strict=True))
    lines.append(f"Commands ({sum(counts)} total, {len(story.commands)} distinct): {shown}")
    return "\n".join(lines)


def sessions(b: Builder, p: dict[str, Project], who: dict[str, str]) -> dict[str, list[str]]:
    """Write every story as a session summary (keyed by session, as the product keys them)."""
    refs: dict[str, list[str]] = {}
    for kind, kind_stories in stories(p, who).items():
        project = p[kind]
        refs[kind] = []
        for story in kind_stories:
            at = b.when(high=80.0)
            text = session_summary(b, project, story, at)
            sid = text.split()[1]
            refs[kind].append(b.mem("context", text, project=project, key=f"session:{sid}", at=at))
    return refs


def session_queries(b: Builder, p: dict[str, Project], refs: dict[str, list[str]]) -> None:
    """Questions a user asks about past sessions ("what did we do about ...")."""
    web, api, cli, crate = p["web"], p["api"], p["cli"], p["crate"]
    w, a, c, r, i, d = (refs[k] for k in ("web", "api", "cli", "crate", "infra", "data"))
    comp, model = web.v["comp"], api.v["model"]
    b.ask(
        answer(w[1]),
        ("question", "what happened when we moved eslint to the flat config?"),
        ("inflection", "upgrading eslint nine"),
    )
    b.ask(
        answer(w[2]),
        ("korean-compound", "다크 모드 색상 고친 세션"),
        ("korean", f"{comp} 페이지 다크모드 고쳤던 거 언제였지?"),
    )
    b.ask(
        answer(w[3]),
        ("inflection", "stabilizing the flaky playwright checkout spec"),
        ("question", "did we ever fix the flaky e2e checkout test?"),
    )
    b.ask(
        answer(w[5]),
        ("korean-compound", "번들사이즈 원인 찾은 거"),
        ("korean", "번들 크기 왜 커졌었지?"),
    )
    b.ask(
        answer(a[0]),
        ("question", f"what was wrong with the flaky {model} expiry test?"),
        ("identifier", f"test_{re.sub(r'(?<!^)(?=[A-Z])', '_', model).lower()}_expires flaky fix"),
    )
    b.ask(
        answer(a[1]),
        ("inflection", "cursor-based paginating of the list endpoint"),
        ("paraphrase", f"when did we add cursor pagination to {model} listing"),
    )
    b.ask(
        answer(a[2]),
        ("korean", "웹훅 서명 검증은 언제 넣었어?"),
        ("korean-compound", "웹훅서명 검증 작업"),
    )
    b.ask(answer(a[4]), ("korean", f"{model} 목록이 느렸던 거 어떻게 했어?"))
    b.ask(answer(a[5]), ("question", "is there a runbook for rotating the webhook secret?"))
    b.ask(
        answer(c[0]),
        ("identifier", f"--json flag for {cli.name} {cli.v['sub']}"),
        ("paraphrase", "machine readable output option for the cli"),
    )
    b.ask(answer(c[2]), ("korean-mixed", "arm64 리눅스 빌드 추가했던 작업"))
    b.ask(answer(c[3]), ("inflection", "the cli hanging forever on an unresponsive server"))
    b.ask(answer(r[0]), ("inflection", f"branchless push for {crate.v['type']}"))
    b.ask(
        answer(r[1]),
        ("korean-mixed", "serde feature 추가한 세션"),
        ("korean", "serde 피처는 언제 넣었지?"),
    )
    b.ask(answer(r[3]), ("question", "did fuzzing find a panic in the decoder?"))
    b.ask(answer(i[0]), ("question", f"did we add a read replica for {api.name}?"))
    b.ask(
        answer(i[1]),
        ("korean", "스테이징 비용 줄이려고 뭘 했지?"),
        ("korean-compound", "야간에 태스크0개로 줄이는 설정"),
    )
    b.ask(answer(d[0]), ("inflection", "backfilled october data"))
    b.ask(
        answer(d[1]),
        ("korean-compound", "데이터품질 테스트 실패 원인"),
        ("korean", "품질 테스트가 왜 실패했었어?"),
    )
    b.ask(answer(d[2]), ("paraphrase", "alert when source files arrive late"))


# --- background: more commands and notes nobody asks about -----------------------------------


def background(b: Builder, p: dict[str, Project]) -> None:
    """Everyday commands and notes that fill a real store around the answers (never labelled)."""
    web, api, cli, crate, infra, data = (
        p["web"],
        p["api"],
        p["cli"],
        p["crate"],
        p["infra"],
        p["data"],
    )
    pm = web.v["pm"]
    git_cmds = (
        "git log --oneline --graph -20",
        "git rebase -i HEAD~{k}",
        "git switch -c fix/{slug}",
        "git commit --amend --no-edit",
        "git push -u origin feat/{slug}",
        "git bisect start HEAD v0.{k}.0",
        "git worktree add ../{name}-review origin/main",
        "gh pr create --fill --draft",
        "gh pr checks --watch",
        "gh run view --log-failed",
        "git cherry-pick -x {sha}",
        "git restore --staged {path}",
    )
    slugs = (
        "timeout",
        "typo-docs",
        "null-total",
        "retry",
        "empty-state",
        "log-noise",
        "date-parse",
        "cache-key",
        "lint-ci",
    )
    projects = list(p.values())
    for template in git_cmds:
        project = b.pick(projects)
        text = template.format(
            k=b.rng.randrange(2, 9),
            slug=b.pick(slugs),
            name=project.name,
            sha=f"{b.rng.getrandbits(28):07x}",
            path=b.pick(("README.md", "pyproject.toml", "package.json", "Cargo.toml", "main.tf")),
        )
        b.mem("command", text, project=project)
    extra = (
        (web, f"{pm} outdated --long"),
        (web, f"{pm} why {b.pick(('react-dom', 'date-fns', 'zod', 'clsx'))}"),
        (web, f"{pm} storybook dev -p {b.rng.randrange(6000, 6100)}"),
        (api, "uv run python -m app.scripts.seed --users 50"),
        (api, f"uv add httpx=={b.pick(('0.27.2', '0.28.1'))}"),
        (api, "docker compose logs -f --tail=100 worker"),
        (api, "uv run pytest --cov=app --cov-report=term-missing -q"),
        (cli, "go mod tidy && go mod verify"),
        (cli, f"go test ./internal/{cli.v['sub']} -run Test -v -count=1"),
        (crate, "cargo doc --no-deps --all-features --open"),
        (crate, "cargo udeps --all-targets"),
        (infra, "aws sts get-caller-identity" if infra.v["cloud"] == "AWS" else "gcloud auth list"),
        (infra, "terraform state list | grep module.service"),
        (data, f"uv run python -m pipeline.load --day 2026-11-{b.rng.randrange(10, 28)} --dry-run"),
        (data, "dbt docs generate && dbt docs serve --port 8081"),
    )
    for project, text in extra:
        b.mem("command", text, project=project)
    notes = (
        (web, f"{web.name}: Storybook stories sit next to each component as *.stories.tsx"),
        (web, f"{web.name} 접근성 체크는 axe로, PR마다 Lighthouse 점수 90 이상 유지"),
        (web, f"{web.name} uses date-fns, not moment; locale files are imported per page"),
        (api, f"{api.name}: OpenAPI schema is served at /docs only outside production"),
        (api, f"{api.name} 로그는 structlog JSON 포맷, request_id를 모든 로그에 넣는다"),
        (api, f"{api.name}: the admin endpoints sit under /internal and need the ops role"),
        (cli, f"{cli.name} prints errors to stderr and exits 2 on bad usage, 1 on runtime failure"),
        (cli, f"{cli.name}의 사용자 문서는 docs/ 폴더의 markdown에서 생성한다"),
        (crate, f"{crate.name} keeps a CHANGELOG.md in keep-a-changelog format"),
        (
            crate,
            f"{crate.name}: public types implement Debug and Clone; Send + Sync are asserted in tests/auto_traits.rs",
        ),
        (infra, f"{infra.name}: CI runs terraform plan on every PR and posts it as a comment"),
        (infra, f"{infra.name} 모듈 변경은 staging에 먼저 apply하고 하루 지켜본 뒤 prod"),
        (data, f"{data.name}: analysts query the marts schema only; staging models are views"),
        (data, f"{data.name} 쿼리 비용은 매주 월요일에 리포트로 확인한다"),
    )
    for project, text in notes:
        b.mem("context", text, project=project)


# --- more of each project: the errors, facts and habits a longer history holds ------------------


def web_more(b: Builder, w: Project, who: dict[str, str]) -> None:
    """More of the web app: runtime errors, CI failures, analytics and styling notes."""
    n, pm, comp = w.name, w.v["pm"], w.v["comp"]
    undefined = b.mem(
        "error",
        f"TypeError: Cannot read properties of undefined (reading 'map')\n    at {comp}List ({HOME}/{n}/src/components/{comp}List.tsx:18:23)\n    at renderWithHooks (node_modules/react-dom/cjs/react-dom.development.js:15486:18)",
        project=w,
        resolution="The API returns items: null for an empty list; default to [] in the apiClient mapper",
    )
    b.ask(
        answer(undefined),
        ("paraphrase", f"{comp} list crashes reading map of undefined"),
        ("korean-mixed", f"{comp}List에서 undefined map 에러 났던 거"),
    )
    alias = b.mem(
        "error",
        f"Cannot find module '@/lib/utils' from 'src/components/{comp}Button.tsx'\n\n    at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)",
        project=w,
        resolution="jest does not read tsconfig paths: add moduleNameMapper {'^@/(.*)$': '<rootDir>/src/$1'}",
    )
    b.ask(
        answer(alias),
        ("paraphrase", "tests cannot resolve the @/ path alias"),
        ("identifier", "moduleNameMapper for tsconfig paths"),
    )
    rejected = b.mem(
        "error",
        f"To github.com:acme/{n}.git\n ! [rejected]        feat/{comp.lower()}-filters -> feat/{comp.lower()}-filters (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/{n}.git'\nhint: Updates were rejected because the tip of your current branch is behind",
        project=w,
        resolution="Someone pushed a fixup to the branch: git pull --rebase, then push",
    )
    b.ask(
        answer(rejected),
        ("inflection", "push got rejected, branch behind its remote"),
        ("korean-mixed", "git push rejected non-fast-forward 해결"),
    )
    if pm == "pnpm":
        lock_text = 'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/package.json'
    else:
        lock_text = "➤ YN0000: ┌ Resolution step\n➤ YN0028: │ The lockfile would have been modified by this install, which is explicitly forbidden.\n➤ YN0000: └ Completed"
    lock = b.mem(
        "error",
        lock_text,
        project=w,
        resolution=f"package.json was changed without the lockfile: ran {pm} install and committed {w.v['lock']}",
    )
    b.ask(
        answer(lock, b.named["web.package-manager"]),
        ("paraphrase", "CI install fails because the lockfile is out of date"),
        ("korean-mixed", "CI에서 frozen lockfile 에러 나는 이유"),
    )
    sentry = b.mem(
        "context",
        f"{n} frontend errors go to Sentry; source maps are uploaded in CI with `sentry-cli sourcemaps upload .next`, the DSN is in NEXT_PUBLIC_SENTRY_DSN",
        project=w,
    )
    b.ask(
        answer(sentry),
        ("question", "how do source maps get uploaded to sentry?"),
        ("inflection", "uploading sourcemaps"),
    )
    track = b.mem(
        "context",
        f"Analytics in {n} go through track() in src/lib/track.ts; event names are snake_case past tense, e.g. {comp.lower()}_item_added",
        project=w,
    )
    b.ask(
        answer(track),
        ("identifier", "trackEvent naming convention"),
        ("question", "how should analytics events be named?"),
    )
    tw = b.mem(
        "context",
        f"Decision: no Tailwind in {n}. The design tokens are CSS variables and {who['design']} prefers CSS modules; revisit after the redesign",
        project=w,
        tags=["decision", "design"],
    )
    b.ask(
        answer(tw),
        ("question", "why aren't we using tailwind?"),
        ("korean-mixed", "tailwind 안 쓰기로 한 이유"),
    )
    b.mem(
        "preference",
        f"{n}: CSS modules for component styles; inline styles only for values computed at run time",
        project=w,
        key="styling",
    )
    b.mem(
        "context",
        f"{n}의 폼 검증은 zod 스키마로 하고, 서버와 같은 스키마를 packages/schemas에서 공유한다",
        project=w,
    )
    b.mem(
        "context",
        f"{n} 에러 처리: API 에러는 전부 ErrorBoundary에서 받고, 토스트 메시지는 한국어로 보여준다",
        project=w,
    )


def api_more(b: Builder, a: Project, who: dict[str, str]) -> None:
    """More of the API: migration conflicts, validation, workers, idempotency, auth."""
    n, fw, model, queue = a.name, a.v["fw"], a.v["model"], a.v["queue"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    if fw == "Django":
        heads_text = f"CommandError: Conflicting migrations detected; multiple leaf nodes in the migration graph: (0042_{snake}_currency, 0042_{snake}_status in {a.v['domain']}).\nTo fix them run 'python manage.py makemigrations --merge'"
        fix = "python manage.py makemigrations --merge, then checked the merged order"
    else:
        heads_text = f"  File \"{HOME}/{n}/.venv/bin/alembic\", line 8, in <module>\n    sys.exit(main())\nalembic.util.exc.CommandError: Multiple head revisions are present for given argument 'head'; please specify a specific target revision, '<branchname>@head' to narrow to a specific head, or 'heads' for all heads"
        fix = "Two branches both added a migration: alembic merge heads -m 'merge heads', then upgrade"
    heads = b.mem("error", heads_text, project=a, resolution=fix)
    b.ask(
        answer(heads),
        ("paraphrase", "two migrations conflict after merging branches"),
        ("korean-mixed", "마이그레이션 head가 여러 개라고 나오면?"),
    )
    val = b.mem(
        "error",
        f"pydantic_core._pydantic_core.ValidationError: 1 validation error for {model}Create\namount\n  Input should be greater than 0 [type=greater_than, input_value=0, input_type=int]",
        project=a,
        resolution=f"Zero-amount {model}s are valid for trials: changed Field(gt=0) to Field(ge=0)",
    )
    b.ask(
        answer(val),
        ("inflection", f"validating a zero amount {model.lower()}"),
        ("identifier", f"{snake}_create validation greater than 0"),
    )
    redis = b.mem(
        "error",
        f'  File "{HOME}/{n}/app/worker.py", line {b.rng.randrange(10, 80)}, in <module>\n    broker.ping()\nredis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection refused.',
        project=a,
        resolution=f"The {queue} worker needs Redis: docker compose up -d redis",
    )
    b.ask(
        answer(redis),
        ("paraphrase", "worker cannot reach redis on startup"),
        ("korean-mixed", "redis 6379 연결 안 될 때"),
    )
    dead = b.mem(
        "error",
        f'psycopg.errors.DeadlockDetected: deadlock detected\nDETAIL:  Process 4121 waits for ShareLock on transaction 99812; blocked by process 4133.\nCONTEXT:  while updating tuple (12,7) in relation "{snake}s"',
        project=a,
        resolution="Two jobs updated the same rows in different orders; lock them in id order (ORDER BY id FOR UPDATE)",
    )
    b.ask(answer(dead), ("inflection", f"deadlocks when updating {snake}s in parallel"))
    idem = b.mem(
        "context",
        f"Every POST in {n} takes an Idempotency-Key header; the keys are kept 24 h in the idempotency_keys table",
        project=a,
    )
    b.ask(
        answer(idem),
        ("question", "how long do we keep idempotency keys?"),
        ("abbreviation", "idem key TTL"),
    )
    mail = b.mem(
        "context",
        f"{n} 이메일 발송은 요청 안에서 동기로 하지 말고 {queue} 태스크로 넘길 것 (SMTP가 가끔 10초 넘게 걸린다)",
        project=a,
    )
    b.ask(
        answer(mail),
        ("korean", "이메일은 어디서 보내야 해?"),
        ("korean-compound", "이메일발송 비동기로 해야 돼?"),
    )
    ver = b.mem(
        "context",
        f"결정: {n} API 버전은 헤더 대신 URL 경로(/v1, /v2)로 관리한다. 로그와 캐시에서 바로 보여서",
        project=a,
        tags=["decision"],
    )
    b.ask(
        answer(ver),
        ("korean", "API 버전은 어떻게 관리하기로 했지?"),
        ("korean-compound", "API버전 헤더로 안 하는 이유"),
    )
    auth = b.mem(
        "context",
        f"Auth in {n}: JWT access tokens (15 min) from the accounts service, verified against /.well-known/jwks.json, cached for an hour",
        project=a,
    )
    b.ask(
        answer(auth),
        ("question", "how are access tokens verified?"),
        ("abbreviation", "jwt ttl and jwks cache"),
    )
    b.mem(
        "preference",
        f'{n}: logging calls use lazy %-style arguments (logger.info("sent %s", id)), not f-strings',
        project=a,
        key="logging-style",
    )
    b.mem(
        "context",
        f"{model} CSV exports are built by a {queue} task and uploaded to object storage; the download link expires after an hour",
        project=a,
    )
    b.mem(
        "context",
        f"{n} 응답 시간 목표: p95 300ms 이내. 넘으면 {who['owner']}와 먼저 상의",
        project=a,
    )


def cli_more(b: Builder, c: Project) -> None:
    """More of the CLI: a nil panic, merge conflicts, telemetry, integration tests."""
    n, sub = c.name, c.v["sub"]
    nil = b.mem(
        "error",
        f"panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6f2a1c]\n\ngoroutine 1 [running]:\n{n}/cmd.run{sub.title()}(0xc0001b2000, {{0xc0000a4340, 0x0, 0x2}})\n\t{HOME}/{n}/cmd/{sub}.go:47 +0x5c",
        project=c,
        resolution="The config was nil when no config file existed; Load() now returns the defaults",
    )
    b.ask(
        answer(nil),
        ("paraphrase", "nil pointer panic when there is no config file"),
        ("korean-mixed", "config 파일 없을 때 nil pointer panic 났던 거"),
    )
    conflict = b.mem(
        "error",
        f"From github.com:acme/{n}\n * branch            main       -> FETCH_HEAD\nAuto-merging go.sum\nCONFLICT (content): Merge conflict in go.sum\nAutomatic merge failed; fix conflicts and then commit the result.",
        project=c,
        resolution="Take either side and regenerate: git checkout --theirs go.sum && go mod tidy",
    )
    b.ask(answer(conflict), ("question", "how do I resolve a merge conflict in go.sum?"))
    pkg = b.pick(
        (
            "github.com/charmbracelet/lipgloss",
            "github.com/fatih/color",
            "golang.org/x/sync/errgroup",
            "github.com/cenkalti/backoff/v4",
        )
    )
    b.mem(
        "error",
        f"cmd/{sub}.go:{b.rng.randrange(5, 14)}:2: no required module provides package {pkg}; to add it:\n\tgo get {pkg}",
        project=c,
        resolution="A new import without go get; ran go mod tidy",
    )
    tele = b.mem(
        "context",
        f"{n} collects no telemetry at all; crash reports are sent only when the user passes --report",
        project=c,
        tags=["decision"],
    )
    b.ask(answer(tele), ("question", f"does {n} phone home with usage data?"))
    integ = b.mem(
        "context",
        f"{n} integration tests are behind the integration build tag: go test -tags integration ./test/...",
        project=c,
    )
    b.ask(answer(integ), ("inflection", "running the integration tests of the cli"))
    msg = b.mem(
        "context",
        f"{n} 에러 메시지는 소문자로 시작하고 끝에 마침표를 붙이지 않는다 (Go 관례)",
        project=c,
    )
    b.ask(
        answer(msg),
        ("korean", "에러 메시지 끝에 마침표 붙여?"),
        ("korean-compound", "에러메시지 규칙"),
    )
    b.mem(
        "preference",
        f"{n}: table-driven tests with t.Run subtests; testify only for require",
        project=c,
        key="go-tests",
    )


def crate_more(b: Builder, r_: Project) -> None:
    """More of the crate: thread safety, MSRV-breaking methods, a failing unit test."""
    n, ty = r_.name, r_.v["type"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", ty).lower()
    send = b.mem(
        "error",
        f"error[E0277]: `Rc<RefCell<{ty}>>` cannot be sent between threads safely\n   --> examples/parallel.rs:22:19\n    |\n22  |     let handle = thread::spawn(move || {{\n    |                  ^^^^^^^^^^^^^ `Rc<RefCell<{ty}>>` cannot be sent between threads safely",
        project=r_,
        resolution="Use Arc<Mutex<...>> in the example; the type itself is Send",
    )
    b.ask(
        answer(send),
        ("paraphrase", "Rc can't be moved to another thread in the example"),
        ("error", "E0277 cannot be sent between threads"),
    )
    chunks = b.mem(
        "error",
        f"error[E0599]: no method named `as_chunks` found for reference `&[u8]` in the current scope\n  --> src/{snake}.rs:77:28\nerror: could not compile `{n}` (lib) due to 1 previous error",
        project=r_,
        resolution="as_chunks is newer than the MSRV; use chunks_exact(8) instead",
    )
    b.ask(answer(chunks), ("identifier", "as chunks method not found on slice"))
    wrap = b.mem(
        "error",
        f"thread '{snake}::tests::wraps_around' panicked at src/{snake}.rs:210:9:\nassertion `left == right` failed\n  left: 7\n right: 8",
        project=r_,
        resolution="Off by one at the wrap: the index is (head + 1) % capacity",
    )
    b.ask(
        answer(wrap),
        ("inflection", "wrap around unit test off by one"),
        ("korean-mixed", "wraps_around 테스트 실패 원인"),
    )
    err = b.mem(
        "preference",
        f"{n} 에러 타입은 thiserror로 정의하고, 라이브러리 코드에서는 anyhow를 쓰지 않는다",
        project=r_,
        key="rust-errors",
    )
    b.ask(answer(err), ("korean-mixed", "라이브러리에서 anyhow 써도 돼?"))
    b.mem(
        "context",
        f"Every public item of {n} has a doc example; `cargo test --doc` runs them in CI",
        project=r_,
    )
    b.mem(
        "preference",
        f"{n}: no new dependency without a line in the PR about its compile-time cost",
        project=r_,
        key="deps",
    )


def infra_more(b: Builder, i: Project, api: Project) -> None:
    """More of the infrastructure: cloud errors, docker daemon, secrets, the network."""
    n, cloud = i.name, i.v["cloud"]
    if cloud == "AWS":
        text = f"Error: creating ECS Service ({api.name}): InvalidParameterException: The target group with targetGroupArn arn:aws:elasticloadbalancing:{i.v['region']}:123456789012:targetgroup/{api.name}/6d0ecf831eec9f09 does not have an associated load balancer."
        fix = "The listener rule was created after the service; added depends_on = [aws_lb_listener_rule.api]"
        secrets = "AWS Secrets Manager"
    else:
        text = f"Error: Error creating Service: googleapi: Error 403: Permission 'run.services.create' denied on resource 'namespaces/acme-{api.name}/services/{api.name}' (or resource may not exist)."
        fix = "The deploy service account lacked roles/run.admin; granted it in modules/iam"
        secrets = "Secret Manager"
    cloud_err = b.mem("error", text, project=i, resolution=fix)
    b.ask(answer(cloud_err), ("paraphrase", f"creating the {api.name} service failed in terraform"))
    daemon = b.mem(
        "error",
        f"$ docker compose -p {api.name} up -d\nCannot connect to the Docker daemon at unix://{b.pick(('/var/run/docker.sock', '/home/dev/.colima/default/docker.sock', '/run/user/1000/docker.sock'))}. Is the docker daemon running?",
        project=i,
        resolution="Docker Desktop was uninstalled; colima start (and docker context use colima)",
    )
    b.ask(
        answer(daemon),
        ("inflection", "docker daemon not running"),
        ("korean", "도커 데몬 연결 안 될 때 어떻게 했지?"),
    )
    b.mem(
        "error",
        f"│ Error: Provider produced inconsistent final plan\n│\n│ When expanding the plan for module.{api.name.replace('-', '_')}.{'aws_ecs_task_definition' if cloud == 'AWS' else 'google_cloud_run_v2_service'}.this to include new values learned so far during apply, provider produced an invalid new value for .container_definitions.",
        project=i,
        resolution="A timestamp() in the container env changed between plan and apply; moved it to a variable",
    )
    sec = b.mem(
        "context",
        f"{api.name} and the other services get their secrets from {secrets}, injected as env vars when a task starts; to rotate one, update the secret and force a new deployment",
        project=i,
    )
    b.ask(
        answer(sec),
        ("question", "how do services get their secrets in prod?"),
        ("inflection", "rotating a service secret"),
    )
    snap = b.mem(
        "context",
        f"The staging {api.name} database is restored from a prod snapshot every {b.pick(('Sunday', 'Saturday'))} night, with emails and names scrambled by scripts/scrub.sql",
        project=i,
    )
    b.ask(
        answer(snap),
        ("question", "where does staging data come from?"),
        ("korean-mixed", "스테이징 DB 데이터는 prod에서 복사해?"),
    )
    b.mem(
        "context",
        f"{n} network: 3 private and 3 public subnets; staging has a single NAT gateway to save cost, prod one per AZ",
        project=i,
    )
    b.mem(
        "context",
        f"{n} 모듈 이름은 kebab-case 말고 snake_case로 (resource 이름과 맞춘다)",
        project=i,
    )


def data_more(b: Builder, d: Project, who: dict[str, str]) -> None:
    """More of the pipeline: timeouts, encodings, late events, partitions."""
    n, orch, wh = d.name, d.v["orch"], d.v["wh"]
    if orch == "Airflow":
        day = NOW - timedelta(days=b.rng.randrange(3, 40))
        text = f"[{day:%Y-%m-%d}, 04:{b.rng.randrange(10, 59)}:02 UTC] {{taskinstance.py:2905}} ERROR - Task failed with exception\nairflow.exceptions.AirflowTaskTimeout: Timeout, PID: {b.rng.randrange(1000, 9999)}\n  dag_id={n.replace('-', '_')}_daily, task_id=load_day"
    else:
        text = f"{orch} run {b.rng.getrandbits(32):08x} of {n} failed: TimeoutError: task 'load_day' exceeded its timeout of 3600 seconds"
    timeout = b.mem(
        "error",
        text,
        project=d,
        resolution="The volume doubled after the campaign; raised the timeout to 2 h and split the load by hour",
    )
    b.ask(
        answer(timeout),
        ("paraphrase", "the daily load task times out after an hour"),
        ("korean", "로드 태스크가 타임아웃 나는 이유"),
    )
    enc = b.mem(
        "error",
        f"  File \"{HOME}/{n}/pipeline/partners.py\", line {b.rng.randrange(20, 90)}, in read_partner_csv\nUnicodeDecodeError: 'utf-8' codec can't decode byte 0x{b.rng.randrange(0xB0, 0xC8):x} in position {b.rng.randrange(100, 5000)}: invalid start byte",
        project=d,
        resolution="The partner's CSV files are CP949 (Korean Windows); decode with encoding='cp949'",
    )
    b.ask(
        answer(enc),
        ("korean-mixed", "파트너 CSV 인코딩 에러 utf-8 decode"),
        ("inflection", "decoding the partner csv fails"),
    )
    b.mem(
        "error",
        f"Compilation Error in model {d.v['stg']} (models/staging/{d.v['stg']}.sql)\n  'source' is undefined. This can happen when calling a macro that does not exist.\n  > in macro source_events ({HOME}/{n}/transform/macros/sources.sql)",
        project=d,
        resolution="The sources.yml was not under models/; moved it",
    )
    late = b.mem(
        "context",
        f"{n}: events arriving more than 3 days late are dropped and counted in the late_events metric",
        project=d,
    )
    b.ask(answer(late), ("question", "what happens to events that show up days late?"))
    part = b.mem(
        "context",
        f"결정: {wh} 파티션은 event_date 기준 일 단위로 한다. 시간 단위 파티션은 비용만 늘고 이득이 없었다",
        project=d,
        tags=["decision"],
    )
    b.ask(
        answer(part),
        ("korean", "파티션을 왜 일 단위로 나눴어?"),
        ("korean-compound", "시간단위 파티션 안 쓰는 이유"),
    )
    b.mem(
        "preference",
        f"{n}: SQL in lowercase keywords, leading commas, CTEs instead of subqueries (sqlfluff checks it)",
        project=d,
        key="sql-style",
    )
    b.mem(
        "context",
        f"{n} 대시보드 숫자가 이상하면 먼저 {who['owner']}에게 원천 데이터 변경이 있었는지 확인",
        project=d,
    )


def more_stories(p: dict[str, Project]) -> dict[str, list[Story]]:
    """Sessions nobody asks about: the everyday work around the answers."""
    web, api, crate, data = p["web"], p["api"], p["crate"], p["data"]
    pm, comp = web.v["pm"], web.v["comp"]
    model = api.v["model"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    return {
        "web": [
            Story(
                f"rename {comp}Card props to match the API fields",
                (f"src/components/{comp}Card.tsx", f"src/components/{comp}Card.test.tsx"),
                (f"{pm} tsc --noEmit",),
                f"{pm} test -- {comp}Card",
            ),
            Story("README에 로컬 실행 방법 정리해줘", ("README.md",), ("git diff --stat",)),
            Story(
                "remove the unused lodash imports",
                ("src/lib/dates.ts", "src/lib/strings.ts", "package.json"),
                (f"{pm} remove lodash", f"{pm} build"),
            ),
            Story(
                f"{comp} 목록에 빈 상태 화면 추가",
                (f"src/components/{comp}Empty.tsx",),
                (f"{pm} dev",),
                branch=f"feat/{comp.lower()}-empty",
            ),
        ],
        "api": [
            Story(
                f"add an admin endpoint to resend a {model.lower()} receipt",
                (f"app/api/internal/{snake}s.py",),
                ("uv run pytest tests/api/test_internal.py -q",),
                "uv run pytest tests/api/test_internal.py -q",
            ),
            Story(
                "코드 리뷰 코멘트 반영해줘",
                (f"app/services/{snake}.py",),
                ("uv run ruff check app", "uv run pytest -q"),
                "uv run pytest -q",
            ),
            Story(
                "bump ruff and fix the new lint findings",
                ("pyproject.toml", "app/main.py", "app/settings.py"),
                ("uv lock --upgrade-package ruff", "uv run ruff check --fix app tests"),
            ),
            Story(
                f"{model} 상태값에 'paused' 추가",
                (f"app/models/{snake}.py", "migrations/versions/add_paused_status.py"),
                ("uv run pytest -q -k status",),
                "uv run pytest -q -k status",
            ),
        ],
        "cli": [
            Story(
                "update the README usage section for the new flags",
                ("README.md",),
                ("go run . --help",),
            ),
            Story(
                "cobra 버전 올리고 빌드 확인",
                ("go.mod", "go.sum"),
                ("go get -u ./...", "go build ./..."),
            ),
            Story(
                "print the version with the commit hash",
                ("cmd/version.go",),
                ("go build -o bin/tool .", "bin/tool version"),
            ),
        ],
        "crate": [
            Story(
                "fix the clippy lints that appeared with the new toolchain",
                (
                    "src/lib.rs",
                    f"src/{re.sub(r'(?<!^)(?=[A-Z])', '_', crate.v['type']).lower()}.rs",
                ),
                ("cargo clippy --all-targets --all-features -- -D warnings",),
            ),
            Story(
                "문서 예제 깨진 거 고쳐줘",
                ("src/lib.rs",),
                ("cargo test --doc",),
                "cargo test --doc",
            ),
            Story(
                "add a CI job for the minimal versions of the dependencies",
                (".github/workflows/ci.yml",),
                ("cargo +nightly update -Z minimal-versions", "cargo check"),
            ),
        ],
        "infra": [
            Story(
                "tag every resource with the service name",
                ("modules/service/main.tf", "providers.tf"),
                ("terraform fmt -recursive", "terraform -chdir=envs/staging plan"),
            ),
            Story(
                "로그 그룹 보관 기간 설정 정리",
                ("modules/service/logs.tf",),
                ("terraform -chdir=envs/staging plan",),
            ),
            Story(
                "move the shared variables into a common module",
                ("modules/common/variables.tf", "envs/prod/main.tf", "envs/staging/main.tf"),
                ("terraform validate",),
            ),
        ],
        "data": [
            Story(
                "add the campaign_id column to the events staging model",
                (f"transform/models/staging/{data.v['stg']}.sql", "transform/models/schema.yml"),
                (f"dbt build --select {data.v['stg']}+",),
                f"dbt test --select {data.v['stg']}",
            ),
            Story(
                "주간 리포트 쿼리 비용 줄여줘",
                ("transform/models/marts/weekly_report.sql",),
                ("dbt run --select weekly_report",),
            ),
            Story(
                "document the marts in the dbt docs",
                ("transform/models/marts/schema.yml",),
                ("dbt docs generate",),
            ),
        ],
    }


def more_sessions(b: Builder, p: dict[str, Project]) -> None:
    """Write the everyday sessions (unlabelled background)."""
    write_sessions(b, p, more_stories(p), within_days=85.0)


def write_sessions(
    b: Builder, p: dict[str, Project], stories: dict[str, list[Story]], within_days: float
) -> None:
    """Write each story as a session summary of its project, dated in the last days."""
    for kind, kind_stories in stories.items():
        for story in kind_stories:
            at = b.when(high=within_days)
            text = session_summary(b, p[kind], story, at)
            b.mem("context", text, project=p[kind], key=f"session:{text.split()[1]}", at=at)


def more_commands(b: Builder, p: dict[str, Project]) -> None:
    """A week of shell history beyond the ones asked about (unlabelled background)."""
    web, api, cli, crate, infra, data = (
        p["web"],
        p["api"],
        p["cli"],
        p["crate"],
        p["infra"],
        p["data"],
    )
    pm, model = web.v["pm"], api.v["model"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    rows = (
        (web, f"{pm} install --frozen-lockfile"),
        (web, f"{pm} test -- --coverage"),
        (web, f"{pm} exec playwright show-report"),
        (web, f"{pm} dlx npm-check-updates -i"),
        (web, "git diff main --stat -- src/"),
        (api, f"uv run pytest tests/api/test_{snake}s.py::test_list_paginates -vv"),
        (api, "uv run python -m app.scripts.backfill_currency --dry-run"),
        (api, "docker compose up -d postgres redis"),
        (
            api,
            "uv run alembic history --verbose | head -40"
            if api.v["fw"] != "Django"
            else "uv run python manage.py showmigrations",
        ),
        (api, f"http POST localhost:{api.v['port']}/v1/{snake}s amount:=1200 currency=KRW"),
        (cli, "go vet ./..."),
        (cli, f"go test ./cmd -run TestRoot{cli.v['sub'].title()} -v"),
        (cli, "staticcheck ./..."),
        (crate, "cargo fmt --all -- --check"),
        (crate, "cargo test --no-default-features"),
        (crate, "cargo semver-checks check-release"),
        (infra, "terraform -chdir=envs/prod plan -refresh-only"),
        (infra, "terraform fmt -recursive -check"),
        (infra, "docker compose -f docker-compose.ci.yml build --pull"),
        (data, f"dbt test --select {data.v['stg']}"),
        (data, "dbt ls --select state:modified+ --state target/prod"),
        (data, f'duckdb warehouse.duckdb "select count(*) from {data.v["table"]}"'),
    )
    for project, text in rows:
        b.mem("command", text, project=project)


def later_errors(b: Builder, p: dict[str, Project]) -> None:
    """Errors of the later weeks, one or two asked about in each project."""
    web, api, cli, crate, infra, data = (
        p["web"],
        p["api"],
        p["cli"],
        p["crate"],
        p["infra"],
        p["data"],
    )
    n, port, api_port = web.name, web.v["port"], api.v["port"]
    model = api.v["model"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    fs = b.mem(
        "error",
        f"Module not found: Can't resolve 'fs' in '{HOME}/{n}/node_modules/csv-writer/dist'\n\nImport trace for requested module:\n./src/components/{web.v['comp']}Export.tsx",
        project=web,
        resolution="A Node-only package was imported in a client component; build the CSV in a server action instead",
    )
    b.ask(answer(fs), ("paraphrase", "client bundle can't resolve the fs module"))
    cors = b.mem(
        "error",
        f"Access to fetch at 'http://localhost:{api_port}/v1/{snake}s' from origin 'http://localhost:{port}' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
        project=web,
        resolution="Call the API through the dev proxy (/api/...), never its port directly",
    )
    b.ask(
        answer(cors),
        ("inflection", "cors blocking requests from the frontend in local dev"),
        ("korean-mixed", "로컬에서 CORS 에러 나는 거 어떻게 해결했지?"),
    )
    dec = b.mem(
        "error",
        f'TypeError: Object of type Decimal is not JSON serializable\n  File "{HOME}/{api.name}/app/api/{snake}s.py", line 88, in export_{snake}s\n    return json.dumps(rows)',
        project=api,
        resolution="Serialise through the pydantic response model (amounts as strings) instead of json.dumps",
    )
    b.ask(answer(dec), ("error", "decimal is not json serializable in the export"))
    fixture = b.mem(
        "error",
        f"E       fixture 'db_session' not found\n>       available fixtures: anyio_backend, cache, capfd, capsys, client, monkeypatch, tmp_path\n>       use 'pytest --fixtures [testpath]' for help on them.\n\n{HOME}/{api.name}/tests/services/test_{snake}.py:14",
        project=api,
        resolution="db_session lived in tests/api/conftest.py; moved it to tests/conftest.py",
    )
    b.ask(
        answer(fixture),
        ("identifier", "dbSession fixture missing in service tests"),
        ("korean-mixed", "db_session fixture를 못 찾는다고 나와"),
    )
    circ = b.mem(
        "error",
        f"ImportError: cannot import name 'compute_{snake}_total' from partially initialized module 'app.services.{snake}' (most likely due to a circular import) ({HOME}/{api.name}/app/services/{snake}.py)",
        project=api,
        resolution="services and repositories imported each other; moved the shared types to app/domain/types.py",
    )
    b.ask(answer(circ), ("inflection", "circular imports between services and repositories"))
    x509 = b.mem(
        "error",
        f'Error: Get "https://api.github.com/repos/acme/{cli.name}/releases/latest": tls: failed to verify certificate: x509: certificate signed by unknown authority',
        project=cli,
        resolution="The office proxy re-signs TLS; export SSL_CERT_FILE=/etc/ssl/certs/acme-ca.pem",
    )
    b.ask(
        answer(x509),
        ("korean-mixed", "사내 프록시에서 x509 인증서 에러 날 때"),
        ("paraphrase", "tls verification fails behind the office proxy"),
    )
    b.mem(
        "error",
        f"flag provided but not defined: -output\nUsage of {cli.name} {cli.v['sub']}:\n  -out string",
        project=cli,
        resolution="The flag is --out since v0.9; --output was dropped",
    )
    b.mem(
        "error",
        f"   Compiling {crate.name} v0.{b.rng.randrange(1, 9)}.{b.rng.randrange(0, 12)} ({HOME}/{crate.name})\nerror: linker `cc` not found\n  |\n  = note: No such file or directory (os error 2)\n\nerror: could not compile `proc-macro2` (build script) due to 1 previous error",
        project=crate,
        resolution="The slim CI image has no C toolchain: apt-get install -y build-essential",
    )
    count = b.mem(
        "error",
        f'│ Error: Invalid count argument\n│\n│   on modules/{api.name}/alarms.tf line 3, in resource "{"aws_cloudwatch_metric_alarm" if infra.v["cloud"] == "AWS" else "google_monitoring_alert_policy"}" "cpu":\n│    3:   count = length(var.alarm_topics)\n│\n│ The "count" value depends on resource attributes that cannot be determined until apply',
        project=infra,
        resolution="Use for_each over a map with static keys instead of count over computed values",
    )
    b.ask(answer(count), ("paraphrase", "terraform count can't be determined until apply"))
    disk = b.mem(
        "error",
        f"ERROR: failed to solve: failed to copy files: write /var/lib/docker/overlay2/{b.rng.getrandbits(40):010x}/merged/app/node_modules/.cache: no space left on device",
        project=infra,
        resolution="docker system prune -af --volumes freed 38 GB; builder cache is now capped in daemon.json",
    )
    b.ask(
        answer(disk),
        ("korean-mixed", "도커 빌드할 때 no space left 에러"),
        ("inflection", "docker builds running out of disk"),
    )
    key = b.mem(
        "error",
        f'Traceback (most recent call last):\n  File "{HOME}/{data.name}/pipeline/transform.py", line 61, in normalize\n    row["campaign"] = row["campaign_id"]\nKeyError: \'campaign_id\'',
        project=data,
        resolution="Files before 2026-09 have no campaign_id; read it with row.get()",
    )
    b.ask(
        answer(key),
        ("identifier", "campaignId KeyError in transform"),
        ("paraphrase", "old event files missing the campaign column"),
    )
    b.mem(
        "error",
        f"Database Error in model {data.v['table']}\n  Access Denied: Table raw.events: User does not have permission to query table raw.events, or perhaps it does not exist.",
        project=data,
        resolution="The dev service account lost its viewer role after the IAM cleanup; re-granted in the infra repo",
    )


def korean_notes(b: Builder, p: dict[str, Project], who: dict[str, str]) -> None:
    """Notes a Korean developer leaves in Korean or mixed Korean/English."""
    web, api, cli, crate, infra, data = (
        p["web"],
        p["api"],
        p["cli"],
        p["crate"],
        p["infra"],
        p["data"],
    )
    pm, comp, model = web.v["pm"], web.v["comp"], api.v["model"]
    code = b.mem(
        "context",
        f"{web.name} 코드 리뷰는 {who['design']}가 UI 쪽, 나머지는 아무나 한 명 승인이면 머지 가능",
        project=web,
    )
    b.ask(
        answer(code),
        ("korean-compound", f"{web.name} 코드리뷰 승인 몇 명 필요해?"),
        ("korean", "UI 변경은 누가 리뷰해?"),
    )
    build = b.mem(
        "context",
        f"{web.name} 빌드 캐시는 CI에서 .next/cache를 저장해서 재사용한다. 캐시 키는 {web.v['lock']} 해시",
        project=web,
    )
    b.ask(answer(build), ("korean-compound", "빌드캐시 키는 뭘로 만들어?"))
    b.mem(
        "context",
        f"{web.name} 스토리북은 {pm} storybook으로 띄우고, 새 컴포넌트는 스토리부터 만든다",
        project=web,
    )
    b.mem("context", f"{comp} 화면 문구는 기획팀 시트가 원본이다. 임의로 바꾸지 말 것", project=web)
    log = b.mem(
        "context",
        f"{api.name} 로그 수집은 OpenTelemetry collector로 보내고, trace_id를 응답 헤더에도 넣는다",
        project=api,
    )
    b.ask(
        answer(log),
        ("korean-compound", "로그수집 어떻게 하고 있어?"),
        ("korean-mixed", "trace_id 응답 헤더에 넣어?"),
    )
    test_db = b.mem(
        "context",
        f"{api.name} 테스트 데이터베이스는 매 테스트마다 트랜잭션 롤백으로 초기화한다 (truncate 안 함)",
        project=api,
    )
    b.ask(
        answer(test_db),
        ("korean-compound", "테스트데이터베이스 초기화 방식"),
        ("korean", "테스트 DB는 어떻게 초기화해?"),
    )
    b.mem(
        "context",
        f"{model} 관련 버그는 {who['owner']}가 담당. 장애 나면 먼저 연락할 것",
        project=api,
        tags=["people"],
    )
    b.mem(
        "context",
        f"{api.name} 타임존은 DB에 전부 UTC로 저장하고, 화면에서만 Asia/Seoul로 바꾼다",
        project=api,
    )
    b.mem(
        "context",
        f"{cli.name} 설치 스크립트(install.sh)는 curl | sh 방식으로 배포. 체크섬 검증 포함",
        project=cli,
    )
    b.mem(
        "context",
        f"{cli.name} 자동 완성 스크립트는 {cli.name} completion zsh 로 생성한다",
        project=cli,
    )
    b.mem(
        "context",
        f"{crate.name} 공개 API 바꿀 때는 반드시 CHANGELOG에 Breaking 섹션 추가",
        project=crate,
    )
    rel = b.mem(
        "context",
        f"{crate.name} 릴리스 전에 cargo semver-checks 돌려서 호환성 깨지는지 확인",
        project=crate,
    )
    b.ask(answer(rel), ("korean", "릴리스하기 전에 호환성은 어떻게 확인해?"))
    b.mem(
        "context",
        f"{infra.name} 상태 파일은 절대 직접 수정하지 말 것. 필요하면 terraform state mv 사용",
        project=infra,
    )
    alarm = b.mem(
        "context",
        f"{infra.name} 알람 임계값: CPU 80% 5분 이상이면 {who['ops']}에게 호출",
        project=infra,
    )
    b.ask(answer(alarm), ("korean", "CPU 알람은 몇 퍼센트에서 울려?"))
    b.mem(
        "context",
        f"{data.name} 스키마 변경은 원천 팀과 협의 후에만. 컬럼 삭제는 2주 전에 공지",
        project=data,
    )
    b.mem("context", f"{data.name} 개발용 데이터는 운영 데이터의 1% 샘플로 만든다", project=data)
    b.mem(
        "preference",
        f"리뷰 코멘트에는 {b.pick(('nit:, question:, must:', 'nit:, q:, blocking:', 'nit:, suggestion:, must:'))} 같은 접두어를 붙인다 ({web.name}, {api.name} 리뷰 공통)",
        key="review-prefixes",
    )
    b.mem(
        "preference",
        f"새 파이썬 코드에서는 os.path 대신 pathlib.Path를 쓴다 ({api.name}, {data.name} 공통)",
        key="pathlib",
        tags=["python"],
    )
    b.mem(
        "preference",
        f"금요일 오후에는 운영 배포 하지 않는다 (특히 {api.name}, {web.name})",
        key="friday-deploys",
    )
    b.mem(
        "preference",
        f"Prefer small functions (split anything over ~{b.pick(('30', '40', '50', '60'))} lines) with a docstring that says why, over comments that say what",
        key="comments",
    )
    b.mem(
        "preference",
        f"Keep TODOs with an issue number, like TODO(#{b.rng.randrange(100, 999)}); a bare TODO fails review",
        key="todos",
    )


def later_stories(p: dict[str, Project]) -> dict[str, list[Story]]:
    """More sessions, many of them asked for in Korean (unlabelled background)."""
    web, api, data = p["web"], p["api"], p["data"]
    pm, comp, model = web.v["pm"], web.v["comp"], api.v["model"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    return {
        "web": [
            Story(
                f"{comp} 필터 URL 쿼리스트링에 저장되게 해줘",
                (f"src/hooks/use{comp}Filters.ts",),
                (f"{pm} test -- use{comp}Filters",),
                f"{pm} test -- use{comp}Filters",
            ),
            Story(
                "헤더 로고 SVG로 바꿔줘",
                ("src/components/Header.tsx", "public/logo.svg"),
                (f"{pm} dev",),
            ),
            Story(
                "add an og:image for the landing page",
                ("src/app/opengraph-image.tsx",),
                (f"{pm} build",),
            ),
            Story(
                "타입 에러 정리해줘",
                ("src/lib/apiClient.ts", f"src/hooks/use{comp}.ts"),
                (f"{pm} tsc --noEmit",),
            ),
        ],
        "api": [
            Story(
                f"{model} 삭제 API에 권한 체크 추가",
                (f"app/api/{snake}s.py", "app/auth/permissions.py"),
                ("uv run pytest tests/api -q -k delete",),
                "uv run pytest tests/api -q -k delete",
            ),
            Story(
                "느린 테스트 찾아서 slow 마커 붙여줘",
                ("tests/test_reports.py", "pyproject.toml"),
                ("uv run pytest --durations=15 -q",),
            ),
            Story(
                "add structured request logging",
                ("app/middleware/logging.py",),
                ("uv run pytest tests/test_middleware.py -q",),
                "uv run pytest tests/test_middleware.py -q",
            ),
            Story(
                "의존성 업데이트하고 테스트 돌려줘",
                ("uv.lock",),
                ("uv lock --upgrade", "uv run pytest -q"),
                "uv run pytest -q",
            ),
        ],
        "cli": [
            Story(
                "윈도우에서 경로 구분자 문제 확인",
                ("internal/paths/paths.go",),
                ("GOOS=windows go build ./...",),
            ),
            Story(
                "add retries with jitter to the uploader",
                ("internal/upload/retry.go",),
                ("go test ./internal/upload -race",),
                "go test ./internal/upload -race",
            ),
            Story(
                "에러 메시지 문구 다듬기",
                ("cmd/root.go",),
                ("go test ./cmd/...",),
                "go test ./cmd/...",
            ),
        ],
        "crate": [
            Story(
                "no_std 빌드 깨진 거 확인해줘",
                ("src/lib.rs",),
                ("cargo build --no-default-features",),
            ),
            Story(
                "benchmark the new hashing path against main",
                ("benches/hash.rs",),
                ("cargo bench -- --baseline main",),
            ),
            Story(
                "README 예제 코드 최신 API로 업데이트",
                ("README.md",),
                ("cargo test --doc",),
                "cargo test --doc",
            ),
        ],
        "infra": [
            Story(
                "prod 알람 임계값 조정",
                ("modules/service/alarms.tf",),
                ("terraform -chdir=envs/prod plan",),
            ),
            Story(
                "staging 인증서 만료 알림 설정",
                ("modules/dns/certs.tf",),
                ("terraform -chdir=envs/staging plan",),
            ),
            Story(
                "clean up the unused security groups",
                ("modules/network/security.tf",),
                ("terraform -chdir=envs/staging plan -destroy -target=module.legacy",),
            ),
        ],
        "data": [
            Story(
                "마트 테이블 컬럼 설명 추가",
                ("transform/models/marts/schema.yml",),
                ("dbt docs generate",),
            ),
            Story(
                "중복 이벤트 제거 로직 추가해줘",
                (f"transform/models/staging/{data.v['stg']}.sql",),
                (f"dbt build --select {data.v['stg']}",),
                f"dbt test --select {data.v['stg']}",
            ),
            Story(
                "speed up the dbt CI job with state:modified",
                (".github/workflows/dbt.yml",),
                ("dbt build --select state:modified+ --state target/prod",),
            ),
        ],
    }


def later_sessions(b: Builder, p: dict[str, Project]) -> None:
    """Write the later sessions (unlabelled background)."""
    write_sessions(b, p, later_stories(p), within_days=60.0)


def english_background(b: Builder, p: dict[str, Project]) -> None:
    """More English notes, commands and errors around the answers; a few asked word for word."""
    web, api, cli, crate, infra, data = (
        p["web"],
        p["api"],
        p["cli"],
        p["crate"],
        p["infra"],
        p["data"],
    )
    pm, comp, model = web.v["pm"], web.v["comp"], api.v["model"]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model).lower()
    ci = b.mem(
        "context",
        f"{web.name} CI: lint, typecheck, unit and e2e run in parallel jobs; e2e only on PRs that touch src/ or e2e/",
        project=web,
    )
    b.ask(
        answer(ci),
        ("exact", f"{web.name} CI e2e jobs only on PRs touching src"),
        ("question", "why didn't the e2e job run on my docs PR?"),
    )
    b.mem(
        "context",
        f"{web.name} supports the last two versions of evergreen browsers; no IE, Safari 16+",
        project=web,
    )
    b.mem(
        "context",
        f"{web.name} images are served from the CDN at cdn.{web.name}.example.dev with ?w= resizing",
        project=web,
    )
    seed = b.mem(
        "context",
        f"{api.name} seed data: `make seed` loads fixtures/dev.json with 3 users (admin, staff, customer), all with password 'dev'",
        project=api,
    )
    b.ask(
        answer(seed),
        ("exact", "make seed dev users fixtures"),
        ("question", "what are the local test accounts?"),
    )
    b.mem(
        "context",
        f"{api.name} rate limits live in app/middleware/ratelimit.py and read their numbers from settings",
        project=api,
    )
    b.mem(
        "context",
        f"{api.name} health: /healthz is liveness only, /readyz checks Postgres and Redis",
        project=api,
    )
    b.mem(
        "context",
        f"{model} status moves draft → active → paused → cancelled; cancelled is final",
        project=api,
    )
    b.mem(
        "context",
        f"{cli.name} writes its cache to ~/.cache/{cli.name}; `{cli.name} cache clear` empties it",
        project=cli,
    )
    exit_codes = b.mem(
        "context",
        f"{cli.name} exit codes: 0 ok, 1 runtime failure, 2 usage error, 3 partial success",
        project=cli,
    )
    b.ask(
        answer(exit_codes),
        ("exact", f"{cli.name} exit code 3 partial success"),
        ("question", f"what does exit status 2 mean for {cli.name}?"),
    )
    b.mem(
        "context",
        f"{crate.name} CI matrix: stable, beta and the MSRV on linux; stable only on macOS and windows",
        project=crate,
    )
    b.mem(
        "context",
        f"{crate.name} examples live in examples/ and are built by `cargo build --examples` in CI",
        project=crate,
    )
    b.mem(
        "context",
        f"{infra.name} environments: envs/staging and envs/prod share modules/, differ only in tfvars",
        project=infra,
    )
    b.mem(
        "context",
        f"{infra.name} the bastion host was removed; use the cloud's session manager to reach private hosts",
        project=infra,
    )
    b.mem(
        "context",
        f"{data.name} marts are rebuilt fully every Sunday to catch late corrections",
        project=data,
    )
    b.mem(
        "context",
        f"{data.name} keeps its dbt profiles in ~/.dbt/profiles.yml; the dev target writes to the dbt_dev schema",
        project=data,
    )
    rows = (
        (
            web,
            f"{pm} exec next lint --dir src"
            if web.v["fw"] == "Next.js"
            else f"{pm} exec svelte-check"
            if web.v["fw"] == "SvelteKit"
            else f"{pm} exec remix vite:build",
        ),
        (web, f"{pm} run analyze"),
        (web, "git log -p --follow src/lib/apiClient.ts"),
        (api, "uv run pytest -q -x --lf"),
        (api, "uv run python -m app.scripts.reindex --batch 500"),
        (api, "docker compose down -v && docker compose up -d"),
        (api, f"uv run pytest tests/services/test_{snake}.py -q --pdb"),
        (api, "pg_dump --schema-only -d $DATABASE_URL > /tmp/schema.sql"),
        (cli, "go install ./..."),
        (cli, "go test ./... -coverprofile=cover.out && go tool cover -html=cover.out"),
        (cli, "gofumpt -l -w ."),
        (crate, "cargo tree -e features -i serde"),
        (crate, "cargo +nightly fuzz run decode -- -max_total_time=60"),
        (crate, "cargo llvm-cov --html"),
        (infra, "terraform output -json | jq -r .service_url.value"),
        (infra, "terraform providers lock -platform=linux_amd64 -platform=darwin_arm64"),
        (infra, "ssh-keygen -t ed25519 -C dev@laptop -f ~/.ssh/id_deploy"),
        (
            data,
            f"dbt compile --select {data.v['stg']} && cat target/compiled/*/{data.v['stg']}.sql",
        ),
        (data, "dbt seed --select country_codes"),
        (data, "uv run python -m pipeline.replay --from 2026-11-01 --to 2026-11-03 --dry-run"),
        (web, "rsync -av --delete public/ /tmp/public-backup/"),
    )
    for project, text in rows:
        b.mem("command", text, project=project)
    b.mem(
        "error",
        f"✖ prettier --check:\nsrc/components/{comp}{b.pick(('Card', 'Row', 'Header', 'Modal'))}.tsx\nhusky - pre-commit hook exited with code 1 (error)",
        project=web,
        resolution="lint-staged found an unformatted file; ran prettier --write on it",
    )
    b.mem(
        "error",
        f"FAILED tests/api/test_{snake}s.py::test_list_paginates - AssertionError: assert 3 == 2\n +  where 3 = len([{{'id': 1}}, {{'id': 2}}, {{'id': 3}}])",
        project=api,
        resolution="The cursor was inclusive; use > instead of >= on the id",
    )
    b.mem(
        "error",
        f"warning: unused variable: `cap`\n  --> src/lib.rs:{b.rng.randrange(20, 200)}:9\nerror: this could be written as `let...else`\n  = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#manual_let_else",
        project=crate,
        resolution="Rewrote the match as let Some(x) = ... else { return None };",
    )
    b.mem(
        "error",
        f"From github.com:acme/{infra.name}\n * branch            main       -> FETCH_HEAD\nfatal: refusing to merge unrelated histories",
        project=infra,
        resolution="The repo was re-created on the server; git pull origin main --allow-unrelated-histories once",
    )
    b.mem(
        "error",
        f"go: downloading github.com/acme/{cli.name}-sdk v0.3.0\ngo: github.com/acme/{cli.name}-sdk@v0.3.0: reading https://proxy.golang.org/...: 404 Not Found",
        project=cli,
        resolution="The SDK is private: GOPRIVATE=github.com/acme/* go mod download",
    )
    b.mem(
        "error",
        f"sqlfluff: L: 12 | P: 5 | LT02 | Expected indent of 8 spaces. [layout.indent]\n== [models/marts/{data.v['table']}.sql] FAIL",
        project=data,
        resolution="sqlfluff fix models/marts",
    )


# --- queries without an answer -------------------------------------------------------------------


def unanswerable(b: Builder, p: dict[str, Project]) -> None:
    """Plausible questions no memory answers; near misses share words with memories."""
    web, api, cli, crate, data = p["web"], p["api"], p["cli"], p["crate"], p["data"]
    pool = [
        ("unanswerable", "how do I configure horizontal pod autoscaling for the workers?"),
        ("unanswerable", "what's the pagerduty escalation policy for weekends?"),
        ("unanswerable", "which graphql schema registry are we on?"),
        ("unanswerable", "how do we localize the ios app strings?"),
        ("unanswerable", "where are the grafana dashboards for memory usage?"),
        ("unanswerable", "how do I set up okta sso for the admin panel?"),
        ("unanswerable", "what's our launchdarkly flag cleanup policy?"),
        ("unanswerable", "elasticsearch index mapping for products"),
        ("near-miss", "how do we rotate the jwt signing keys?"),
        ("unanswerable", "which android sdk level do we target?"),
        ("unanswerable", "kafka consumer lag alert threshold"),
        ("unanswerable", "how is the mobile push notification service configured?"),
        ("unanswerable", "what's the SLA we promise enterprise customers?"),
        ("unanswerable", "how do I get access to the vpn?"),
        ("unanswerable", "what's the budget for the q3 offsite?"),
        ("unanswerable", "쿠버네티스 네임스페이스 이름이 뭐였지?"),
        ("unanswerable", "iOS 앱 서명 인증서는 어디 있어?"),
        ("unanswerable", "온콜 일정은 누가 짜?"),
        ("unanswerable", "엘라스틱서치 인덱스 설정 알려줘"),
        ("unanswerable", "다국어 번역 파일은 어디서 관리해?"),
        ("unanswerable", "사내 VPN 접속 방법이 뭐야?"),
        ("unanswerable", "그라파나 대시보드 주소 알려줘"),
        ("near-miss", f"how do we roll back a bad production deploy of {web.name}?"),
        ("near-miss", f"what port does the {api.name} metrics endpoint use?"),
        ("near-miss", "how long are staging database backups kept?"),
        ("near-miss", f"what's the rate limit on the {api.name} public endpoints?"),
        ("near-miss", f"why did we pick Postgres over MySQL for {api.name}?"),
        ("near-miss", f"how do I cross-compile {crate.name} to wasm?"),
        ("near-miss", f"does {cli.name} have a plugin system?"),
        ("near-miss", "what's the redis eviction policy in production?"),
        ("near-miss", f"who reviews changes to the {data.name} dashboards?"),
        ("near-miss", "what node version does the lambda runtime use?"),
        ("near-miss", "how do I run the terraform plan for the dev environment in azure?"),
        ("near-miss", f"how many retries does the {cli.name} http client do?"),
        ("near-miss", f"{api.name} 운영 DB 읽기 전용 계정은 누가 만들어?"),
        ("near-miss", "프로덕션 배포 롤백은 어떻게 해?"),
        ("near-miss", "스테이징 서버 로그 보관 기간은?"),
        ("near-miss", f"{web.name} 결제 페이지 A/B 테스트 결과는?"),
        ("near-miss", "테라폼 비용 알림은 누구한테 가?"),
    ]
    for category, text in b.rng.sample(pool, k=UNANSWERABLE_COUNT):
        b.none(category, text)


# --- the whole set -------------------------------------------------------------------------------


def generate(seed: str) -> AgentSet:
    """Generate the set for ``seed``: the same seed always gives the same set."""
    b = Builder(seed, random.Random(f"artibot-memory/agentset/{seed}"))
    p = make_projects(b)
    who = make_people(b)
    steps: list[Callable[[], None]] = [
        lambda: commit_preferences(b, p),
        lambda: tool_preferences(b, p),
        lambda: style_preferences(b, p),
        lambda: review_and_people_preferences(b, p, who),
        lambda: web_app(b, p["web"], p["api"], who),
        lambda: web_commands_and_errors(b, p["web"]),
        lambda: python_api(b, p["api"], p["infra"]),
        lambda: api_commands_and_errors(b, p["api"]),
        lambda: go_cli(b, p["cli"]),
        lambda: rust_crate(b, p["crate"]),
        lambda: infra_repo(b, p["infra"], p["api"], who),
        lambda: data_pipeline(b, p["data"], who),
        lambda: session_queries(b, p, sessions(b, p, who)),
        lambda: web_more(b, p["web"], who),
        lambda: api_more(b, p["api"], who),
        lambda: cli_more(b, p["cli"]),
        lambda: crate_more(b, p["crate"]),
        lambda: infra_more(b, p["infra"], p["api"]),
        lambda: data_more(b, p["data"], who),
        lambda: more_sessions(b, p),
        lambda: more_commands(b, p),
        lambda: later_errors(b, p),
        lambda: korean_notes(b, p, who),
        lambda: later_sessions(b, p),
        lambda: english_background(b, p),
        lambda: background(b, p),
        lambda: unanswerable(b, p),
    ]
    for step in steps:
        step()
    memories = sorted(b.memories, key=lambda m: (m.record["created_at"], m.ref))
    queries = tuple(
        Query(f"q{i:03d}", text, category, language(text), relevant)
        for i, (category, text, relevant) in enumerate(b.queries, start=1)
    )
    check(memories, queries)
    return AgentSet(
        seed,
        NOW,
        tuple(project.name for project in p.values()),
        tuple(who.values()),
        tuple(memories),
        queries,
    )


def check(memories: Sequence[Memory], queries: Sequence[Query]) -> None:
    """Refuse a set whose queries copy a memory or whose labels point nowhere."""
    refs = {m.ref for m in memories}
    lowered = [m.text.casefold() for m in memories]
    for query in queries:
        if any(query.text.casefold() in text for text in lowered):
            raise ValueError(f"query copied from a memory: {query.text!r}")
        missing = set(query.relevant) - refs
        if missing:
            raise ValueError(f"query {query.qid} labels unknown memories {sorted(missing)}")


def summary(agent_set: AgentSet) -> str:
    """Counts of a set: memories by type and language, queries by category and language."""
    types = Counter(m.record["type"] for m in agent_set.memories)
    mem_ko = sum(m.lang == "ko" for m in agent_set.memories)
    cats = Counter(q.category for q in agent_set.queries)
    q_ko = sum(q.lang == "ko" for q in agent_set.queries)
    none = sum(not q.answerable for q in agent_set.queries)
    total_m, total_q = len(agent_set.memories), len(agent_set.queries)
    return "\n".join(
        [
            f"seed {agent_set.seed}: projects {', '.join(agent_set.projects)}; people {', '.join(agent_set.people)}",
            f"memories {total_m} ({', '.join(f'{k} {v}' for k, v in sorted(types.items()))}); Korean {mem_ko} ({mem_ko / total_m:.0%})",
            f"queries {total_q}; Korean {q_ko} ({q_ko / total_q:.0%}); unanswerable {none}",
            "categories: " + ", ".join(f"{k} {v}" for k, v in sorted(cats.items())),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Print a seed's counts; with ``--write``, also write the set as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seed", default=SEEDS[0], help="any string; the benchmark uses 'tune' and 'check'"
    )
    parser.add_argument("--write", type=Path, help="write the generated set as JSON here")
    args = parser.parse_args(argv)
    agent_set = generate(args.seed)
    print(summary(agent_set))
    if args.write:
        args.write.write_text(
            json.dumps(agent_set.to_json(), ensure_ascii=False, indent=1), encoding="utf-8"
        )
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
