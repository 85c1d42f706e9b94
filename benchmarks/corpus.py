"""Generated, realistic memories for the speed and budget benchmarks (deterministic per seed).

Nothing here is real user data: developer notes, session summaries, shell commands, error
messages and preferences are assembled from word lists, in the shapes the product itself writes
(``transcript.render_summary`` for session summaries, ``ingest.error_text`` /
``ingest.resolution_text`` for errors and their fixes). Records are built with the product's own
``memory.build`` (so ids, tags, signatures, TTLs and redaction are the product's) and written with
``Store.transaction`` (one locked, atomic write per store).

``seed_full_home`` fills a memory home to the caps: 500 commands, 200 errors with resolutions,
300 preferences, 2,000 project contexts over 10 projects.
"""

# Report prose and data tables make long lines and multi-line strings in lists; fine here.
# ruff: noqa: E501, ISC004, PLR2004

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from artibot_memory.store.model import Memory

T = TypeVar("T")

# Projects are stored as absolute paths (git top-level); these are invented ones.
PROJECT_NAMES = (
    "shop",
    "billing-api",
    "infra",
    "mobile-app",
    "data-pipeline",
    "docs-site",
    "auth-service",
    "cli-tool",
    "ml-training",
    "game-engine",
)
PROJECTS = tuple(f"/home/dev/src/{name}" for name in PROJECT_NAMES)

MODULES = (
    "auth",
    "billing",
    "orders",
    "search",
    "users",
    "payments",
    "notifications",
    "reports",
    "inventory",
    "scheduler",
    "checkout",
    "cart",
    "webhooks",
    "exports",
    "importer",
    "sessions",
    "profiles",
    "catalog",
    "pricing",
    "shipping",
    "analytics",
    "audit",
    "feature_flags",
    "i18n",
    "uploads",
    "thumbnails",
    "mailer",
    "rate_limit",
    "cache",
    "migrations",
    "admin",
    "graphql",
)
WORDS = (
    "retry",
    "timeout",
    "backoff",
    "cursor",
    "pagination",
    "token",
    "refresh",
    "cookie",
    "header",
    "schema",
    "index",
    "constraint",
    "transaction",
    "deadlock",
    "queue",
    "worker",
    "cron",
    "batch",
    "stream",
    "buffer",
    "encoding",
    "locale",
    "timezone",
    "fixture",
    "mock",
    "snapshot",
    "flaky",
    "race",
    "lock",
    "cache",
    "ttl",
    "eviction",
    "shard",
    "replica",
    "failover",
    "healthcheck",
    "probe",
    "sidecar",
    "ingress",
    "certificate",
    "redirect",
    "callback",
    "webhook",
    "signature",
    "idempotency",
    "dedupe",
    "checksum",
    "compression",
    "thumbnail",
    "upload",
    "presigned",
    "bucket",
    "migration",
    "rollback",
    "seed",
    "backfill",
    "invoice",
    "refund",
    "coupon",
    "discount",
    "tax",
    "currency",
    "rounding",
    "decimal",
    "float",
    "serializer",
    "validator",
    "middleware",
    "router",
    "handler",
    "endpoint",
    "latency",
    "throughput",
    "p99",
    "memory",
    "leak",
    "profiler",
    "flamegraph",
    "benchmark",
    "regression",
    "bisect",
    "changelog",
    "release",
    "tag",
    "hotfix",
    "feature",
    "flag",
    "rollout",
    "canary",
    "dashboard",
    "alert",
    "pager",
    "incident",
    "postmortem",
    "runbook",
    "oncall",
    "quota",
    "limit",
    "burst",
)
SERVICES = ("api", "worker", "web", "postgres", "redis", "rabbitmq", "minio", "nginx", "scheduler")
BRANCHES = ("main", "develop", "feature/{w}-{m}", "fix/{m}-{w}", "chore/bump-{d}", "spike/{w}")
DEPS = (
    "requests",
    "httpx",
    "pydantic",
    "sqlalchemy",
    "alembic",
    "celery",
    "redis",
    "boto3",
    "fastapi",
    "django",
    "flask",
    "pytest-asyncio",
    "freezegun",
    "orjson",
    "structlog",
    "react",
    "vite",
    "typescript",
    "eslint",
    "prettier",
    "zod",
    "prisma",
    "tokio",
    "serde",
    "clap",
    "anyhow",
    "cobra",
    "viper",
    "numpy",
    "pandas",
    "torch",
    "lightning",
)
LANGS = ("python", "typescript", "rust", "go", "shell", "sql", "terraform", "kotlin")
EXT = {
    "python": "py",
    "typescript": "ts",
    "rust": "rs",
    "go": "go",
    "shell": "sh",
    "sql": "sql",
    "terraform": "tf",
    "kotlin": "kt",
}
PROMPTS = (
    "fix the {w} bug in {m}",
    "why does {m} {w} fail on CI",
    "add a test for {m} {w}",
    "refactor {m} so the {w} logic lives in one place",
    "make {m} handle {w} errors",
    "the {w} in {m} is slow, profile it",
    "write a migration for the {m} {w} column",
    "review my changes to {m}",
    "update the docs for {m} {w}",
    "bump {d} and fix what breaks",
    "{m} 모듈의 {w} 문제를 고쳐줘",
    "explain how {m} uses {w}",
)


def _pick(rng: random.Random, items: Sequence[T]) -> T:
    return items[rng.randrange(len(items))]


def _fill(rng: random.Random, template: str) -> str:
    return template.format(
        w=_pick(rng, WORDS),
        m=_pick(rng, MODULES),
        d=_pick(rng, DEPS),
        s=_pick(rng, SERVICES),
        n=rng.randint(2, 400),
        l=_pick(rng, LANGS),
    )


def source_file(rng: random.Random, lang: str | None = None) -> str:
    lang = lang or _pick(rng, LANGS[:4])
    module = _pick(rng, MODULES)
    stem = _pick(rng, WORDS)
    folder = {
        "python": f"src/{module}",
        "typescript": f"web/src/{module}",
        "rust": "src",
        "go": f"internal/{module}",
    }.get(lang, module)
    return f"{folder}/{stem}.{EXT[lang]}"


def test_file(rng: random.Random) -> str:
    return f"tests/{_pick(rng, MODULES)}/test_{_pick(rng, WORDS)}.py"


# --- commands --------------------------------------------------------------------------------

COMMAND_TEMPLATES = (
    "git status",
    "git diff --stat",
    "git log --oneline -{n}",
    "git checkout -b feature/{w}-{m}",
    'git commit -m "fix({m}): handle {w} on retry"',
    "git push origin feature/{w}-{m}",
    "git rebase -i HEAD~{n}",
    "git stash pop",
    "git fetch --prune",
    "git bisect start",
    "pytest tests/{m}/test_{w}.py -x -q",
    "pytest -k {w} -q",
    "pytest --lf",
    "uv run pytest -n 4",
    "python -m {m}.cli --dry-run",
    "uv sync",
    "uv pip install {d}",
    "ruff check src/{m} --fix",
    "ruff format .",
    "mypy src/{m}",
    "pnpm install",
    "pnpm test -- {m}",
    "pnpm run build",
    "pnpm tsc --noEmit",
    "npm run lint",
    "npx vitest run web/src/{m}",
    "yarn dev",
    "docker compose up -d {s}",
    "docker compose logs -f {s}",
    "docker build -t {m}:{n} .",
    "kubectl get pods -n {m}",
    "kubectl logs deploy/{s} -n {m} --tail=200",
    "kubectl rollout restart deploy/{s} -n {m}",
    "cargo test {w}",
    "cargo build --release",
    "cargo clippy -- -D warnings",
    "go test ./internal/{m}/...",
    "go build ./cmd/{m}",
    "make {w}",
    "make test",
    "terraform plan -var-file=env/{w}.tfvars",
    "terraform fmt -recursive",
    'psql -h localhost -U dev -d {m} -c "select count(*) from {w}s"',
    "redis-cli monitor",
    "curl -s localhost:8000/{m}/{w} | jq .",
    "rg -n {w} src/{m}",
    "ls -la src/{m}",
    "tail -n {n} logs/{s}.log",
    "alembic upgrade head",
    "alembic revision -m 'add {w} to {m}'",
    "gh pr create --fill",
    "gh pr checks",
    "gh run view --log-failed",
)


def command_texts(rng: random.Random, count: int) -> list[str]:
    seen: dict[str, None] = {}
    while len(seen) < count:
        seen[_fill(rng, _pick(rng, COMMAND_TEMPLATES))] = None
    return list(seen)


# --- errors ----------------------------------------------------------------------------------

ERROR_TEMPLATES: tuple[tuple[str, str, str], ...] = (
    (
        "pytest tests/{m}/test_{w}.py -x",
        "Exit code 1\nFAILED tests/{m}/test_{w}.py::test_{w}_{m} - AssertionError: assert {n} == {n2}\n"
        "1 failed, {n3} passed in 3.{n2}s",
        "edited src/{m}/{w}.py; then `pytest tests/{m}/test_{w}.py -x` succeeded",
    ),
    (
        "python -m {m}.cli sync",
        'Exit code 1\nTraceback (most recent call last):\n  File "src/{m}/cli.py", line {n}, in <module>\n'
        "ModuleNotFoundError: No module named '{d}'",
        "ran `uv pip install {d}`; then `python -m {m}.cli sync` succeeded",
    ),
    (
        "pnpm run build",
        "Exit code 1\nweb/src/{m}/{w}.ts({n},{n2}): error TS2345: Argument of type 'string | undefined' "
        "is not assignable to parameter of type 'string'.",
        "edited web/src/{m}/{w}.ts; then `pnpm run build` succeeded",
    ),
    (
        "npm install",
        "Exit code 1\nnpm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n"
        'npm ERR! peer {d}@"^{n}.0.0" from {m}-ui@{n2}.1.0',
        "ran `npm install --legacy-peer-deps`; then `npm install` succeeded",
    ),
    (
        "cargo build",
        "Exit code 101\nerror[E0382]: borrow of moved value: `{w}`\n  --> src/{m}.rs:{n}:{n2}",
        "edited src/{m}.rs; then `cargo build` succeeded",
    ),
    (
        "git push",
        "Exit code 128\nfatal: The current branch fix/{m}-{w} has no upstream branch.",
        "`git push --set-upstream origin fix/{m}-{w}` succeeded",
    ),
    (
        "docker compose up -d {s}",
        "Exit code 1\nError response from daemon: driver failed programming external connectivity on "
        "endpoint {m}-{s}-1: Bind for 0.0.0.0:{port} failed: port is already allocated",
        "ran `docker compose down`; then `docker compose up -d {s}` succeeded",
    ),
    (
        'psql -h localhost -U dev -d {m} -c "select 1"',
        'Exit code 2\npsql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: '
        "Connection refused",
        'ran `docker compose up -d postgres`; then `psql -h localhost -U dev -d {m} -c "select 1"` succeeded',
    ),
    (
        "go test ./internal/{m}/...",
        "Exit code 1\n# example.com/app/internal/{m}\ninternal/{m}/{w}.go:{n}:{n2}: undefined: {W}Handler",
        "edited internal/{m}/{w}.go; then `go test ./internal/{m}/...` succeeded",
    ),
    (
        "mypy src/{m}",
        'Exit code 1\nsrc/{m}/{w}.py:{n}: error: Incompatible return value type (got "Optional[{W}]", '
        'expected "{W}")  [return-value]\nFound 1 error in 1 file (checked {n2} source files)',
        "edited src/{m}/{w}.py; then `mypy src/{m}` succeeded",
    ),
    (
        "kubectl rollout status deploy/{s} -n {m}",
        'Exit code 1\nerror: deployment "{s}" exceeded its progress deadline',
        "ran `kubectl describe pod -l app={s} -n {m}`; edited deploy/{m}/values.yaml; then "
        "`kubectl rollout status deploy/{s} -n {m}` succeeded",
    ),
    (
        "ruff check src/{m}",
        "Exit code 1\nsrc/{m}/{w}.py:{n}:{n2}: F401 [*] `{d}` imported but unused\nFound 1 error.",
        "ran `ruff check src/{m} --fix`; then `ruff check src/{m}` succeeded",
    ),
    (
        "terraform apply -var-file=env/{w}.tfvars",
        "Exit code 1\nError: Error acquiring the state lock\nLock Info:\n  ID: {hex}\n  Operation: OperationTypeApply",
        "ran `terraform force-unlock {hex}`; then `terraform apply -var-file=env/{w}.tfvars` succeeded",
    ),
    (
        "python scripts/{w}_{m}.py",
        "Exit code 1\nPermissionError: [Errno 13] Permission denied: 'data/{m}/{w}.csv'",
        "ran `chmod u+w data/{m}/{w}.csv`; then `python scripts/{w}_{m}.py` succeeded",
    ),
    (
        "alembic upgrade head",
        'Exit code 1\nsqlalchemy.exc.ProgrammingError: (psycopg.errors.DuplicateColumn) column "{w}_id" '
        'of relation "{m}" already exists',
        "edited migrations/versions/{hex}_{w}.py; then `alembic upgrade head` succeeded",
    ),
)


def error_records(rng: random.Random, count: int) -> list[tuple[str, str, str]]:
    """(command, error output, resolution) triples, all distinct."""
    seen: dict[tuple[str, str, str], None] = {}
    while len(seen) < count:
        command, error, fix = _pick(rng, ERROR_TEMPLATES)
        word = _pick(rng, WORDS)
        values = {
            "w": word,
            "m": _pick(rng, MODULES),
            "d": _pick(rng, DEPS),
            "s": _pick(rng, SERVICES),
            "n": rng.randint(2, 400),
            "n2": rng.randint(1, 80),
            "n3": rng.randint(3, 300),
            "port": rng.choice((5432, 6379, 8000, 8080, 3000, 9000)),
            "hex": f"{rng.getrandbits(32):08x}",
            "W": word.title().replace("_", ""),
        }
        seen[(command.format(**values), error.format(**values), fix.format(**values))] = None
    return list(seen)


def error_text(command: str, error: str) -> str:
    """The stored text of a failure, as ``ingest.error_text`` writes it."""
    return f"`{command}` failed: {error}"


# --- preferences -----------------------------------------------------------------------------

PREFERENCE_TEMPLATES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "package-manager:{l}",
        "Use {a} for {l} projects, not {b}",
        ("pnpm", "npm", "yarn", "bun", "uv", "pip", "poetry"),
    ),
    (
        "test-runner:{l}",
        "Run {l} tests with {a}; do not use {b}",
        ("pytest", "unittest", "vitest", "jest", "cargo nextest", "go test"),
    ),
    (
        "formatter:{l}",
        "Format {l} code with {a} before committing",
        ("ruff format", "black", "prettier", "rustfmt", "gofmt", "shfmt"),
    ),
    ("indent:{l}", "Indent {l} with {a}", ("2 spaces", "4 spaces", "tabs")),
    (
        "commit-style:{l}",
        "Commit messages for {l} changes: {a}",
        (
            "imperative mood under 72 characters",
            "conventional commits (feat:, fix:, chore:)",
            "a ticket id first, then the summary",
        ),
    ),
    (
        "logging:{l}",
        "Log with {a} in {l} services, never print()",
        ("structlog", "the logging module", "tracing", "zap", "pino"),
    ),
    (
        "http-client:{l}",
        "Prefer {a} over {b} for HTTP calls in {l}",
        ("httpx", "requests", "fetch", "axios", "reqwest", "net/http"),
    ),
    (
        "db-local:{l}",
        "For local development of {l} services use {a}",
        ("postgres in docker compose", "sqlite", "a shared staging database"),
    ),
    (
        "review:{l}",
        "Before changing {l} code, {a}",
        (
            "explain the plan first",
            "show the diff before applying it",
            "run the tests and say which ones cover it",
        ),
    ),
    (
        "docs:{l}",
        "Docstrings in {l}: {a}",
        (
            "Google style",
            "NumPy style",
            "one summary line, then details",
            "doctest examples for public functions",
        ),
    ),
    (
        "types:{l}",
        "{a} in {l}",
        (
            "Type hints on every public function",
            "Strict mode on",
            "No `any` types",
            "Prefer dataclasses to dicts",
        ),
    ),
    (
        "errors:{l}",
        "In {l}, {a}",
        (
            "raise specific exceptions, never bare except",
            "return errors, do not panic",
            "wrap errors with context",
        ),
    ),
)
GENERAL_PREFERENCES = (
    (
        "answer-language",
        "Answer in Korean when I write in Korean (한국어로 물어보면 한국어로 답하기)",
    ),
    ("git-main", "Never push directly to main; open a pull request"),
    ("dates", "Write dates as ISO 8601 (2026-01-31), times in UTC"),
    ("line-length", "Keep lines under 100 characters"),
    ("secrets", "Never paste tokens or .env values into chat or commits"),
    ("editor", "I use neovim; give vim keybindings when relevant"),
    ("shell", "My shell is zsh on macOS; use BSD sed flags (sed -i '')"),
    ("tone", "Be brief: code first, then at most three sentences"),
)


def preference_records(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """(key, text) pairs, keys distinct."""
    found: dict[str, str] = dict(GENERAL_PREFERENCES)
    while len(found) < count:
        key, template, choices = _pick(rng, PREFERENCE_TEMPLATES)
        a, b = rng.sample(choices, 2)
        lang = _pick(rng, LANGS)
        scope = rng.choice(("", "", f" in {_pick(rng, MODULES)}"))
        full_key = key.format(l=lang) + scope.replace(" in ", "/")
        found.setdefault(full_key, template.format(a=a, b=b, l=lang) + scope)
    return list(found.items())[:count]


# --- project contexts ------------------------------------------------------------------------

DECISIONS = (
    "Decided to move {m} {w} handling from cron to the {s} queue because retries and backoff come "
    "for free; considered a {w2} table but it needs its own poller.",
    "Chose {d} over {d2} for {m}: it already handles {w} and {w2}, and the team knows it.",
    "Agreed to keep {m} {w} synchronous for now; the async rewrite waits until {w2} is measured "
    "(p99 is {n} ms today).",
    "We store {m} amounts as integer cents, never floats; rounding happens once, at {w}.",
    "The {m} API is versioned in the URL (/v{n2}/{m}); breaking {w} changes need a new version.",
    "Feature flag `{m}_{w}` gates the new {w2} flow; remove it after the {n2}-week rollout.",
    "Rejected caching {m} responses in {s}: {w} invalidation was wrong twice; query tuning instead.",
    "Migrations for {m} must be backward compatible: add the {w} column, backfill, then drop "
    "the old one in a later release.",
)
FACTS = (
    "The {m} service reads its config from config/{m}.toml; {M}_{W} overrides the {w} setting in "
    "staging.",
    "Integration tests for {m} need {s} running on port {port} (docker compose up -d {s}).",
    "{m}: the {w} job runs every {n2} minutes and takes about {n} s; it locks the {w2} table.",
    "Known flaky test: tests/{m}/test_{w}.py::test_{w2} fails when the clock crosses midnight UTC.",
    "Deploys of {m} go through the {w} pipeline; the canary gets {n2}% of traffic for 30 minutes.",
    "The {w} endpoint of {m} is called by the mobile app version {n2}.x; keep the {w2} field.",
    "Local setup for {m}: uv sync, then make seed-{w}; the admin login is in the team vault.",
    "{m} talks to {s} through the client in src/{m}/clients/{s}.py; timeouts are {n2} s.",
    "On-call runbook for {m}: if {w} alerts fire, check the {s} dashboard and the {w2} queue depth.",
    "Performance budget for {m} {w}: under {n} ms at p95 on the staging dataset.",
)


def session_summary(rng: random.Random, project: str, when: datetime) -> str:
    """A session summary shaped like ``transcript.render_summary`` output (400-1,900 chars)."""
    minutes = rng.randint(4, 300)
    active = max(1, minutes // rng.randint(1, 6))
    end = when + timedelta(minutes=minutes)
    branch = _fill(rng, _pick(rng, BRANCHES))
    lines = [
        f"Session {rng.getrandbits(32):08x} {when:%Y-%m-%d %H:%M}–{end:%H:%M} UTC "
        f"({minutes // 60}h{minutes % 60:02d}m, {active}m active), branch {branch}, in {project}",
    ]
    prompts = [_fill(rng, _pick(rng, PROMPTS)) for _ in range(rng.randint(1, 4))]
    lines.append(f"Asked ({len(prompts)}): " + " | ".join(prompts))
    edited = list(dict.fromkeys(source_file(rng) for _ in range(rng.randint(1, 9))))
    lines.append(f"Edited ({len(edited)}): " + ", ".join(edited[:8]))
    if rng.random() < 0.7:
        runs = rng.randint(1, 12)
        test = test_file(rng)
        lines.append(f"Tests ({runs} runs: {runs} passed), last:")
        lines.append(f"- `pytest {test} -q` passed ({rng.randint(3, 400)} passed in 2.1s)")
    if rng.random() < 0.5:
        failures = error_records(rng, rng.randint(1, 3))
        lines.append(f"Errors ({len(failures)}, {len(failures)} fixed):")
        for command, error, fix in failures:
            first = error.splitlines()[-1][:90]
            lines.append(f"- `{command}` ({first}) fixed by `{fix.rsplit('`', 2)[-2]}`")
    commands = command_texts(rng, rng.randint(2, 6))
    shown = "; ".join(f"`{c}` ×{rng.randint(1, 9)}" for c in commands)
    lines.append(f"Commands ({len(commands) * 3} total, {len(commands)} distinct): {shown}")
    return "\n".join(lines)[:1_900]


def context_text(rng: random.Random, project: str | None, when: datetime) -> str:
    roll = rng.random()
    if roll < 0.55 and project:
        return session_summary(rng, project, when)
    template = _pick(rng, DECISIONS if roll < 0.75 else FACTS)
    w, w2 = rng.sample(WORDS, 2)
    m = _pick(rng, MODULES)
    d, d2 = rng.sample(DEPS, 2)
    return template.format(
        m=m,
        M=m.upper(),
        w=w,
        W=w.upper(),
        w2=w2,
        s=_pick(rng, SERVICES),
        d=d,
        d2=d2,
        n=rng.randint(20, 900),
        n2=rng.randint(1, 30),
        port=rng.choice((5432, 6379, 8000, 9000)),
    )


def note_text(rng: random.Random, project: str | None, when: datetime) -> str:
    """A context memory of any kind, with an entry-specific detail so 100k texts stay distinct."""
    text = context_text(rng, project, when)
    detail = rng.choice(
        (
            f" See {source_file(rng)}.",
            f" Ticket {_pick(rng, MODULES).upper()[:4]}-{rng.randint(10, 9999)}.",
            f" Commit {rng.getrandbits(28):07x}.",
            "",
            f" Run `{command_texts(rng, 1)[0]}` to check.",
        )
    )
    return text + detail


# --- building stores -------------------------------------------------------------------------


def _ago(rng: random.Random, now: datetime, max_days: float, min_days: float = 0.0) -> datetime:
    return now - timedelta(seconds=rng.uniform(min_days * 86400, max_days * 86400))


def build_full_memories(
    now: datetime, seed: int = 20260101, *, sizes: dict[str, int] | None = None
) -> dict[str, list[Memory]]:
    """The records of a memory home filled to the caps, by type (the product's ``build``)."""
    from artibot_memory.api.memories import Draft, build  # noqa: PLC0415 - after the caller set up paths
    from artibot_memory.store.model import MemoryType, Source, State  # noqa: PLC0415
    from artibot_memory.text.signature import error_signature  # noqa: PLC0415

    sizes = {"command": 500, "error": 200, "preference": 300, "context": 2000, **(sizes or {})}
    rng = random.Random(seed)
    out: dict[str, list[Memory]] = {t: [] for t in sizes}

    def made(
        draft: Draft, *, last_seen: datetime | None = None, count: int = 1, used: int = 0
    ) -> Memory:
        memory = build(draft, now)
        memory.count = count
        memory.access_count = used
        if last_seen is not None:
            memory.last_seen = last_seen
            memory.updated_at = last_seen
            if memory.expires_at is not None:
                memory.expires_at = last_seen + (memory.expires_at - memory.created_at)
        return memory

    for text in command_texts(rng, sizes["command"]):
        created = _ago(rng, now, 6.5)
        out["command"].append(
            made(
                Draft(
                    MemoryType.COMMAND,
                    text,
                    project=_pick(rng, PROJECTS),
                    created_at=created,
                    source=Source(channel="hook:PostToolUse", command=text),
                ),
                last_seen=_ago(rng, now, (now - created).total_seconds() / 86400),
                count=min(int(rng.paretovariate(1.2)), 60),
                used=rng.randint(0, 3),
            )
        )
    for command, error, fix in error_records(rng, sizes["error"]):
        created = _ago(rng, now, 85)
        # As ingest stores a failure: the signature is the fast hook's, made from the raw output.
        out["error"].append(
            made(
                Draft(
                    MemoryType.ERROR,
                    error_text(command, error),
                    project=_pick(rng, PROJECTS),
                    created_at=created,
                    resolution=fix,
                    source=Source(channel="hook:PostToolUseFailure"),
                    signature=error_signature(error),
                    details={"command": command},
                ),
                count=min(int(rng.paretovariate(1.5)), 12),
                used=rng.randint(0, 4),
            )
        )
    prefs = preference_records(rng, sizes["preference"])
    for index, (key, text) in enumerate(prefs):
        project = _pick(rng, PROJECTS) if rng.random() < 0.2 else None
        state = (
            State.SUPERSEDED
            if index % 10 == 9
            else State.PENDING
            if index % 15 == 14
            else State.ACTIVE
        )
        out["preference"].append(
            made(
                Draft(
                    MemoryType.PREFERENCE,
                    text,
                    key=key,
                    project=project,
                    state=state,
                    created_at=_ago(rng, now, 300),
                    source=Source(channel="hook:UserPromptSubmit"),
                ),
                count=rng.randint(1, 5),
                used=rng.randint(0, 30),
            )
        )
    for _ in range(sizes["context"]):
        project = None if rng.random() < 0.05 else _pick(rng, PROJECTS)
        created = _ago(rng, now, 85)
        text = context_text(rng, project, created)
        kind = "session-summary" if text.startswith("Session ") else "note"
        out["context"].append(
            made(
                Draft(
                    MemoryType.CONTEXT,
                    text,
                    project=project,
                    created_at=created,
                    key=f"session:{rng.getrandbits(64):016x}"
                    if kind == "session-summary"
                    else None,
                    tags=["session-summary"] if kind == "session-summary" else (),
                    details={"kind": kind},
                    source=Source(channel="hook:SessionEnd"),
                ),
                used=rng.randint(0, 6),
            )
        )
    return out


def write_store(home: Path, memory_type: str, memories: list[Memory]) -> None:
    """Replace one store's entries with ``memories`` (one locked, atomic write)."""
    from artibot_memory.store.jsonfile import Store  # noqa: PLC0415
    from artibot_memory.store.table import spec_for  # noqa: PLC0415

    with Store(spec_for(memory_type), home).transaction() as entries:
        entries[:] = memories


def seed_full_home(home: Path, now: datetime, seed: int = 20260101) -> dict[str, int]:
    """Fill ``home`` to the caps; return the number of entries written per type."""
    built = build_full_memories(now, seed)
    for memory_type, memories in built.items():
        write_store(home, memory_type, memories)
    return {t: len(m) for t, m in built.items()}
