"""Labelled sets for what issue 24 widened: project facts said in passing or plainly, and
decisions whose reason comes in the next sentence, English and Korean, generated.

Each row is a text as a user types it, with what must be kept: the fact's words (the aside
left out), the decision with its reason, or nothing (a question, a hypothetical, a one-off,
quoted or pasted text, a task, the moment's news). The rows come from templates filled by
``random.Random`` seeded with a string, so the sets are the same on every run. Every
template belongs to one half: ``tuned`` (the rules were written against it) or
``held-out`` (other phrasings, written apart and run once the rules were frozen); the
held-out figures are the ones to trust.

    python tests/capture_sets.py     # precision and recall per set, half and language
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from artibot_memory.capture.decisions import find_decisions
from artibot_memory.capture.prompts import detect_preferences

PER_TEMPLATE = 6  # rows drawn from each template
TUNED, HELD_OUT = "tuned", "held-out"


@dataclass(frozen=True)
class Row:
    """One labelled text: what must be kept of it (None: nothing), its half and language."""

    text: str
    expect: str | None
    half: str
    lang: str
    kind: str


# --- the words the templates are filled with ---------------------------------------------------

SLOTS: dict[str, tuple[str, ...]] = {
    "comp": (
        "the payments webhook",
        "the billing worker",
        "the admin panel",
        "the search indexer",
        "the auth service",
        "the email sender",
        "the image resizer",
        "the cron jobs",
    ),
    "dir": (
        "services/hooks",
        "apps/admin",
        "packages/search",
        "infra/cron",
        "services/auth",
        "workers/email",
        "libs/images",
    ),
    "env": ("staging", "prod", "the preview env", "the dev box", "the sandbox"),
    "port": ("8443", "5433", "6380", "9200", "3001", "8080"),
    "platform": ("fly.io", "Render", "Kubernetes", "Heroku", "Cloud Run", "ECS"),
    "db": ("Postgres 15", "MySQL 8", "Redis 7", "MongoDB 6", "SQLite", "ClickHouse"),
    "part": ("staging DB", "prod database", "job queue", "session cache", "search cluster", "CI"),
    "sched": ("on Fridays only", "every other Tuesday", "twice a week", "every Monday morning"),
    "tool": ("ArgoCD", "Helm", "GitHub Actions", "a Makefile target", "Terraform"),
    "task": (
        "Add a retry to the handler",
        "Fix the flaky login test",
        "Bump the SDK version",
        "Tidy up the error messages",
    ),
    "comp_ko": (
        "결제 웹훅",
        "정산 워커",
        "관리자 페이지",
        "검색 인덱서",
        "인증 서비스",
        "메일 발송기",
    ),
    "env_ko": ("스테이징", "운영 서버", "프리뷰 환경", "개발 서버"),
    "part_ko": ("스테이징 DB", "운영 DB", "작업 큐", "세션 캐시", "검색 클러스터"),
    "sched_ko": ("금요일에만", "격주 화요일에", "매주 월요일 아침에", "일주일에 두 번"),
    "task_ko": (
        "핸들러에 재시도 넣어줘.",
        "로그인 테스트 고쳐줘.",
        "SDK 버전 올려줘.",
        "에러 메시지 다듬어줘.",
    ),
}

# (template, what must be kept: a template of it, or None) per half, per language.
FACTS: dict[str, dict[str, tuple[tuple[str, str | None], ...]]] = {
    TUNED: {
        "en": (
            ("FYI, {comp} lives in {dir}", "{comp} lives in {dir}"),
            ("btw {env} runs on port {port}", "{env} runs on port {port}"),
            ("{task}, btw {comp} lives in {dir}", "{comp} lives in {dir}"),
            ("the {part} is {db}", "the {part} is {db}"),
            ("we deploy {sched}", "we deploy {sched}"),
            ("heads up: {comp} is deployed with {tool}", "{comp} is deployed with {tool}"),
            ("FYI {env} runs on {platform}", "{env} runs on {platform}"),
            ("btw does {env} run on port {port}?", None),
            ("FYI what port is {env} on", None),
            ("if the {part} were {db}, could we use JSONB", None),
            ("for now {env} runs on port {port}", None),
            ('the wiki says "{comp} lives in {dir}" but that is old', None),
            ("btw it's failing again on {env}", None),
            ("FYI the {part} is down", None),
            ("btw {comp} needs a retry", None),
            ("btw I moved {comp} to {dir}", None),
        ),
        "ko": (
            ("참고로 {comp_ko}은 {dir}에 있어", "{comp_ko}은 {dir}에 있어"),
            ("참고로 {env_ko}는 {platform}로 배포해", "{env_ko}는 {platform}로 배포해"),
            ("{task_ko} 참고로 {env_ko} 포트는 {port}야", "{env_ko} 포트는 {port}야"),
            ("{part_ko}는 {db}야", "{part_ko}는 {db}야"),
            ("배포는 {sched_ko} 해", "배포는 {sched_ko} 해"),
            ("{env_ko}는 몇 번 포트야?", None),
            ("참고로 {comp_ko}은 어디에 있어?", None),
            ("만약 {part_ko}가 {db}라면 JSONB 쓸 수 있어", None),
            ("오늘은 {env_ko}가 {port} 포트에서 돌아", None),
            ("참고로 {env_ko} 어제 배포 실패했어", None),
            ("참고로 {comp_ko} 좀 봐줘", None),
        ),
    },
    HELD_OUT: {
        "en": (
            ("By the way, {comp} sits under {dir}/.", "{comp} sits under {dir}/"),
            ("for context, our {part} uses {db}", "our {part} uses {db}"),
            ("Just so you know, {env} is hosted on {platform}.", "{env} is hosted on {platform}"),
            ("{task}. Note that {comp} is in {dir}.", "{comp} is in {dir}"),
            ("jsyk the {part} runs on {db}", "the {part} runs on {db}"),
            ("We ship {sched}, fyi.", "We ship {sched}, fyi"),
            ("{env} listens on port {port} btw", "{env} listens on port {port} btw"),
            (
                "FYI: {comp} talks to the {part} through {tool}",
                "{comp} talks to the {part} through {tool}",
            ),
            ("btw, is {comp} still in {dir}?", None),
            ("what if {env} ran on {platform} instead", None),
            ("FYI I think {comp} might live in {dir}, can you check", None),
            ("just for this task, {env} runs on port {port}", None),
            ("> btw {env} runs on port {port}\nis that still true", None),
            ("```\n# FYI {comp} lives in {dir}\n```\nclean this file up", None),
            ("heads up, the {part} is timing out again", None),
            ("by the way, {comp} broke after the deploy", None),
            ("fyi you forgot to update {dir}", None),
        ),
        "ko": (
            (
                "덧붙이자면 {comp_ko}은 {dir} 폴더에 들어 있어요",
                "{comp_ko}은 {dir} 폴더에 들어 있어요",
            ),
            ("참고: {env_ko} DB는 {db}입니다", "{env_ko} DB는 {db}입니다"),
            ("{task_ko} 참고로 우리 {part_ko}는 {db} 써", "우리 {part_ko}는 {db} 써"),
            ("{env_ko}는 {platform}에서 돌아가요", "{env_ko}는 {platform}에서 돌아가요"),
            ("릴리스는 {sched_ko} 나가요", "릴리스는 {sched_ko} 나가요"),
            ("참고로 {comp_ko} 코드는 {dir}에 있습니다", "{comp_ko} 코드는 {dir}에 있습니다"),
            ("혹시 {env_ko} 포트가 {port}였나?", None),
            ("만약 {env_ko}를 {platform}로 옮기면 비용이 얼마나 들까", None),
            ("일단 {comp_ko}은 {dir}에 둬", None),
            ("참고로 {part_ko} 지금 죽었어", None),
            ("참고로 {comp_ko} 로그 좀 확인해 줘", None),
            ('위키에는 "{comp_ko}은 {dir}에 있다"고 적혀 있는데 맞아?', None),
        ),
    },
}

DECISIONS: dict[str, dict[str, tuple[tuple[str, str | None], ...]]] = {
    TUNED: {
        "en": (
            (
                "We'll go with {db}. The reason is we need {need}.",
                "We'll go with {db}. The reason is we need {need}",
            ),
            ("Let's use {db}. Because {why}.", "Let's use {db}. Because {why}"),
            (
                "Decided to move {comp} to {platform}. Since {why}.",
                "Decided to move {comp} to {platform}. Since {why}",
            ),
            ("We'll go with {db}. Also {task_lc}.", "We'll go with {db}"),
            ("We'll go with {db}. Because of that, update the compose file.", "We'll go with {db}"),
            ("Let's use {db}.", None),
            ("Should we go with {db}? Because {why}.", None),
        ),
        "ko": (
            ("{db}로 하자. 왜냐하면 {why_ko}.", "{db}로 하자. 왜냐하면 {why_ko}"),
            (
                "{db}로 결정했어. 이유는 {need_ko}가 필요해서야.",
                "{db}로 결정했어. 이유는 {need_ko}가 필요해서야",
            ),
            ("{db}로 하자. 그리고 {task_ko}", "{db}로 하자"),
            ("{db}로 할까?", None),
        ),
    },
    HELD_OUT: {
        "en": (
            (
                "OK, we'll go with {db} for {comp}. Mainly because {why}.",
                "OK, we'll go with {db} for {comp}. Mainly because {why}",
            ),
            (
                "We decided on {platform} for {env}. The main reason: {why}.",
                "We decided on {platform} for {env}. The main reason: {why}",
            ),
            (
                "Going with {tool} for deploys. That's because {why}.",
                "Going with {tool} for deploys. That's because {why}",
            ),
            ("Let's pick {db}. Reason: we need {need}.", "Let's pick {db}. Reason: we need {need}"),
            ("We'll stick with {db}. Can you also {task_lc}?", "We'll stick with {db}"),
            ("We'll use {db} to store the sessions.", None),
            ("If we went with {db}, it would be faster. Because {why}.", None),
        ),
        "ko": (
            ("{platform}로 가자. {why_ko}니까.", "{platform}로 가자. {why_ko}니까"),
            (
                "{comp_ko}은 {db}를 쓰기로 했어. 왜냐면 {need_ko}가 필요하거든.",
                "{comp_ko}은 {db}를 쓰기로 했어. 왜냐면 {need_ko}가 필요하거든",
            ),
            ("{db}를 쓰자. 이유는 {need_ko} 때문이야.", "{db}를 쓰자. 이유는 {need_ko} 때문이야"),
            ("{db}로 가자. 근데 {task_ko}", "{db}로 가자"),
            ("{db}로 할지 아직 모르겠어. 왜냐하면 {why_ko}.", None),
        ),
    },
}
DECISION_SLOTS: dict[str, tuple[str, ...]] = {
    "need": ("JSONB", "row-level locks", "full-text search", "streaming replication"),
    "why": ("bcrypt truncates at 72 bytes", "the service is single-node", "the team knows it well"),
    "task_lc": ("fix the login redirect", "bump the SDK", "update the docs"),
    "why_ko": ("bcrypt는 72바이트에서 잘리거든", "서비스가 단일 노드야", "팀이 이미 잘 알아"),
    "need_ko": ("JSONB", "행 잠금", "전문 검색"),
}


def _fill(template: str, expect: str | None, rng: random.Random) -> tuple[str, str | None]:
    chosen = {name: rng.choice(words) for name, words in {**SLOTS, **DECISION_SLOTS}.items()}
    return template.format(**chosen), expect.format(**chosen) if expect else None


def _rows(table: dict[str, dict[str, tuple[tuple[str, str | None], ...]]], seed: str) -> list[Row]:
    rng = random.Random(seed)  # noqa: S311 - test data, not a secret
    rows = []
    for half, by_lang in table.items():
        for lang, templates in by_lang.items():
            for template, expect in templates:
                kind = "positive" if expect else "negative"
                for _ in range(PER_TEMPLATE):
                    text, kept = _fill(template, expect, rng)
                    rows.append(Row(text, kept, half, lang, kind))
    return list(dict.fromkeys(rows))  # a repeated draw is one row


def fact_rows() -> list[Row]:
    """The facts set: each row's expected fact (the aside left out), or None."""
    return _rows(FACTS, "issue 24: facts said in passing")


def decision_rows() -> list[Row]:
    """The decisions set: each row's expected decision with its reason, or None."""
    return _rows(DECISIONS, "issue 24: decisions and their reasons")


def found_facts(text: str) -> list[str]:
    """The facts (contexts of the project) the prompt hook keeps of a text."""
    return [d.text for d in detect_preferences(text) if d.kind == "context"]


@dataclass
class Score:
    """Found, expected and right items of a set."""

    found: int = 0
    expected: int = 0
    right: int = 0
    misses: list[str] | None = None

    def add(self, row: Row, got: list[str]) -> None:
        self.found += len(got)
        self.expected += row.expect is not None
        hit = row.expect is not None and row.expect in got
        self.right += hit
        if (row.expect is not None and not hit) or len(got) > hit:
            self.misses = [*(self.misses or []), f"{row.text!r}: want {row.expect!r}, got {got}"]

    @property
    def precision(self) -> float:
        return self.right / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.expected if self.expected else 1.0


def score(rows: list[Row], reader: Callable[[str], list[str]]) -> dict[tuple[str, str], Score]:
    """Score every (half, language) and (half, "all") of a set with ``reader``."""
    scores: dict[tuple[str, str], Score] = {}
    for row in rows:
        got = reader(row.text)
        for key in ((row.half, row.lang), (row.half, "all")):
            scores.setdefault(key, Score()).add(row, got)
    return scores


def main() -> int:
    """Print the figures of both sets (and, with ``--show-errors``, every miss)."""
    for name, rows, reader in (
        ("facts", fact_rows(), found_facts),
        ("decisions", decision_rows(), find_decisions),
    ):
        print(f"\n{name}: {len(rows)} rows")
        print("| half | lang | rows expected | found | precision | recall |")
        print("|---|---|---|---|---|---|")
        for (half, lang), figures in sorted(score(rows, reader).items()):
            print(
                f"| {half} | {lang} | {figures.expected} | {figures.found} "
                f"| {figures.precision:.3f} | {figures.recall:.3f} |"
            )
            if "--show-errors" in sys.argv and lang == "all":
                for miss in figures.misses or []:
                    print("   ", miss)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
