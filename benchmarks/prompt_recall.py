"""Per-prompt recall on UserPromptSubmit (recall/prompt_recall.py): what it injects, and its cost.

The memories are the agent set's (benchmarks/agentset.py), imported into a fresh home per seed.
The prompts are written as a user types them mid-session, never copied from a memory:

- with a relevant memory: every agent-set query whose answer (grade 2) is a context or an
  error, wrapped in a mid-session phrase ("ok, ...", "잠깐, ...") chosen by the seed, asked
  from the answer's project; right = a grade-2 memory among the items injected;
- without one: the set's unanswerable and near-miss questions (wrapped the same way) and
  ordinary mid-session requests ("run the tests again and show me only the failures",
  "린트 경고 고쳐줘"), from a project of the seed; right = nothing injected;
- from another project: a sample of the relevant prompts asked from another project's
  folder; counted apart: the answer (a project memory) must never be injected there.

Each prompt is a fresh session (nothing shown before it). Clock frozen at the set's now.
``tune`` is the seed the constants were tuned on, ``check`` the held-out one.

Latency: the UserPromptSubmit hook process as hooks/hooks.json runs it, round-robin with
``python3 -c pass``: this branch on a matching prompt (it injects), on an unrelated prompt
(a lookup, nothing injected), and the hook without recall (:data:`BEFORE_RECALL`, the
commit before per-prompt recall landed, exported with ``git archive``) on the matching
prompt. Every case runs keyword-only (``ARTIBOT_MEMORY_VECTORS=off``), as the rule was tuned.

    python benchmarks/prompt_recall.py [--seeds tune,check] [--runs 20] [--show] [--smoke] [--no-write]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import agentset
import common
from hook_latency import Case, Check, hook_argv, measure, prints_context
from quality import frozen, import_memories, text_map

BEFORE_RECALL = "a33d039"  # the last commit whose UserPromptSubmit hook recalls nothing
SECTION = "prompt_recall"
TITLE = "Per-prompt recall on UserPromptSubmit (benchmarks/prompt_recall.py)"
RECALLED_TYPES = frozenset({"context", "error"})
CROSS_PROJECT = 20
TASKS_PER_SEED = 44
TARGET_QUIET, TARGET_RIGHT = 0.95, 0.80
_ID = re.compile(r"· ([\w-]+)\]")

EN_FRAMES = (
    "{q}",
    "ok, {q}",
    "quick question: {q}",
    "before I change anything — {q}",
    "hmm, {q}",
    "{q} I think we dealt with this before",
)
KO_FRAMES = ("{q}", "잠깐, {q}", "근데 {q}", "{q} 예전에 정리한 거 있지?", "아 맞다, {q}")
TASKS = (
    "run the tests again and show me only the failures",
    "rename this helper to something clearer",
    "add a docstring to the function you just wrote",
    "can you split this file into two modules?",
    "looks good, commit it with a short message",
    "now write a unit test for the empty input case",
    "explain what this regex does",
    "make the error message friendlier",
    "remove the debug prints you added",
    "format the code and fix the lint warnings",
    "why is this loop quadratic? make it linear",
    "add type hints to the new functions",
    "undo the last change to the config loader",
    "show me the diff before you commit",
    "can you make this function async?",
    "write a README section for the new flag",
    "that's wrong, the list should be sorted descending",
    "add logging around the retry loop",
    "convert these callbacks to promises",
    "extract the magic numbers into named constants",
    "the variable names here are confusing, clean them up",
    "add a --verbose flag to the script",
    "what does this function return when the input is empty?",
    "simplify this nested if statement",
    "please review the changes in this branch for obvious bugs",
    "write the migration for the new column and a test for it",
    "테스트 다시 돌려서 실패한 것만 보여줘",
    "이 함수 이름 좀 더 명확하게 바꿔줘",
    "방금 만든 함수에 주석 달아줘",
    "이 파일 두 개로 나눠줄래?",
    "좋아, 짧은 메시지로 커밋해",
    "빈 입력 케이스 테스트 하나 추가해줘",
    "이 정규식이 뭘 하는지 설명해줘",
    "에러 메시지 좀 친절하게 바꿔",
    "디버그 출력 지워줘",
    "린트 경고 고쳐줘",
    "이 루프 왜 느려? 개선해줘",
    "새 함수들에 타입 힌트 붙여줘",
    "커밋하기 전에 diff 보여줘",
    "이거 비동기로 바꿀 수 있어?",
    "새 옵션 설명을 README에 추가해줘",
    "정렬 순서가 반대야, 내림차순이어야 해",
    "재시도 루프에 로그 추가해줘",
    "매직 넘버를 상수로 빼줘",
    "변수 이름이 헷갈려, 정리해줘",
    "중첩된 if 문 좀 단순하게 만들어줘",
    "이 브랜치 변경사항 리뷰해줘",
    "입력이 비어 있으면 이 함수는 뭘 돌려줘?",
)


@dataclass(frozen=True)
class Prompt:
    """One prompt: its text, language, kind (relevant, none, cross), folder and answers."""

    text: str
    lang: str
    kind: str
    cwd: str
    answers: frozenset[str]
    category: str


def frame(rng: random.Random, text: str) -> str:
    """Wrap a question in a mid-session phrase of its language."""
    frames = KO_FRAMES if agentset.language(text) == "ko" else EN_FRAMES
    chosen = frames[rng.randrange(len(frames))]
    if chosen.startswith("{q}"):
        return chosen.format(q=text)
    return chosen.format(q=text[:1].lower() + text[1:])


def build_prompts(a: agentset.AgentSet) -> list[Prompt]:
    """The seed's prompt set: relevant, without a relevant memory, from another project."""
    rng = random.Random(f"artibot-memory/prompt-recall/{a.seed}")
    by_ref = {m.ref: m for m in a.memories}
    paths = [f"{agentset.HOME}/{name}" for name in a.projects]
    prompts: list[Prompt] = []
    relevant: list[Prompt] = []
    for query in a.queries:
        answers = frozenset(r for r, g in query.relevant.items() if g >= agentset.GRADE_ANSWER)
        text = frame(rng, query.text)
        if not query.answerable:
            cwd = paths[rng.randrange(len(paths))]
            prompts.append(Prompt(text, query.lang, "none", cwd, frozenset(), query.category))
            continue
        kinds = {by_ref[r].record["type"] for r in answers}
        if not kinds <= RECALLED_TYPES:
            continue  # a preference or a command: SessionStart shows those
        home = next((by_ref[r].record.get("project") for r in sorted(answers)), None)
        cwd = home or paths[rng.randrange(len(paths))]
        relevant.append(Prompt(text, query.lang, "relevant", cwd, answers, query.category))
    prompts += relevant
    for task in rng.sample(list(TASKS), k=min(TASKS_PER_SEED, len(TASKS))):
        cwd = paths[rng.randrange(len(paths))]
        prompts.append(Prompt(task, agentset.language(task), "none", cwd, frozenset(), "task"))
    local = [p for p in relevant if all(by_ref[r].record.get("project") for r in p.answers)]
    for p in rng.sample(local, k=min(CROSS_PROJECT, len(local))):
        other = [path for path in paths if path != p.cwd]
        cwd = other[rng.randrange(len(other))]
        prompts.append(Prompt(p.text, p.lang, "cross", cwd, p.answers, p.category))
    return prompts


# --- one seed ----------------------------------------------------------------------------------


@dataclass
class Tally:
    """Right / asked, per group."""

    right: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    asked: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, groups: list[str], ok: bool) -> None:  # noqa: FBT001
        for group in groups:
            self.asked[group] += 1
            self.right[group] += int(ok)

    def share(self, group: str) -> str:
        n = self.asked.get(group, 0)
        if not n:
            return "-"
        return f"{self.right[group] / n:.3f} ({self.right[group]}/{n})"

    def value(self, group: str) -> float:
        n = self.asked.get(group, 0)
        return self.right[group] / n if n else 0.0


@dataclass
class SeedResult:
    seed: str
    prompts: list[Prompt]
    tally: Tally
    misses: list[str]
    items: list[int]
    chars: list[int]


def run_seed(seed: str, every: int = 1) -> SeedResult:
    """Import the seed's memories into a fresh home and hand every prompt to the recall."""
    from artibot_memory.recall import lookup  # noqa: PLC0415
    from artibot_memory.recall.prompt_recall import prompt_output  # noqa: PLC0415

    a = agentset.generate(seed)
    prompts = build_prompts(a)[::every]
    by_text = text_map([(m.text, m.ref) for m in a.memories])
    by_ref = {m.ref: m for m in a.memories}
    tally, misses, items, chars = Tally(), [], [], []
    with tempfile.TemporaryDirectory(prefix="artibot-prompt-recall-") as tmp, frozen(a.now):
        home = Path(tmp)
        import_memories(home, a.records())
        for n, prompt in enumerate(prompts):
            payload = {"prompt": prompt.text, "cwd": prompt.cwd, "session_id": f"{seed}-{n}"}
            output = prompt_output(payload, home=str(home))
            text = output["hookSpecificOutput"]["additionalContext"] if output else ""
            ids = _ID.findall(text)
            refs: set[str] = set()
            for memory_id in ids:
                record = lookup.by_id(memory_id, home=home)
                refs |= by_text.get(record.text, {f"?{memory_id}"}) if record else set()
            if output:
                items.append(len(ids))
                chars.append(len(text))
            ok = _judge(prompt, refs)
            groups = [
                prompt.kind,
                f"{prompt.kind}:{prompt.lang}",
                f"{prompt.kind}:{prompt.category}",
            ]
            tally.add(groups, ok)
            if not ok:
                got = "; ".join(agentset_short(by_ref, r) for r in sorted(refs)) or "nothing"
                want = agentset_short(by_ref, min(prompt.answers)) if prompt.answers else "nothing"
                misses.append(
                    f"[{prompt.kind} {prompt.category}] {prompt.text!r}: wants {want}; got {got}"
                )
    return SeedResult(seed, prompts, tally, misses, items, chars)


def _judge(prompt: Prompt, refs: set[str]) -> bool:
    if prompt.kind == "relevant":
        return bool(refs & prompt.answers)
    if prompt.kind == "cross":
        return not refs & prompt.answers
    return not refs


def agentset_short(by_ref: dict[str, agentset.Memory], ref: str, width: int = 60) -> str:
    memory = by_ref.get(ref)
    line = memory.text.splitlines()[0] if memory else ref
    return repr(line if len(line) <= width else line[: width - 1] + "…")


# --- latency -----------------------------------------------------------------------------------


def latency(runs: int, warmup: int) -> list[str]:
    """The hook process with and without recall, against ``python3 -c pass``, round-robin."""
    a = agentset.generate(agentset.SEEDS[0])
    shift = datetime.now(timezone.utc) - a.now
    records = []
    for record in a.records():  # dated from today, so nothing has expired on the real clock
        moment = datetime.strptime(record["created_at"], "%Y-%m-%dT%H:%M:%SZ").replace(
            tzinfo=timezone.utc
        )
        records.append({**record, "created_at": agentset.iso(moment + shift)})
    prompts = build_prompts(a)
    matching = next(p for p in prompts if p.kind == "relevant" and p.lang == "en")
    unrelated = next(p for p in prompts if p.category == "task" and p.lang == "en")
    with tempfile.TemporaryDirectory(prefix="artibot-prompt-latency-") as tmp:
        root = Path(tmp)
        home = root / "seed-home"
        home.mkdir()
        import_memories(home, records)
        before = root / "before-recall"
        before.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(common.ROOT), "archive", BEFORE_RECALL],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
        argv = hook_argv("UserPromptSubmit", sys.executable)
        old_argv = [
            sys.executable,
            "-S",
            str(before / "bin" / "artibot-memory"),
            "hook",
            "UserPromptSubmit",
        ]

        def stdin(p: Prompt) -> bytes:
            payload = {
                "session_id": "bench",
                "cwd": p.cwd,
                "hook_event_name": "UserPromptSubmit",
                "prompt": p.text,
            }
            return json.dumps(payload).encode()

        # One home, kept (a copy per run would make every run re-read the index: new inodes);
        # the session's record of what it was shown is cleared before each run, untimed.
        def forget_session(folder: Path) -> None:
            shutil.rmtree(folder / "sessions", ignore_errors=True)

        def timed(name: str, command: list[str], p: Prompt, check: Check | None = None) -> Case:
            return Case(
                name, command, stdin(p), home, check, persistent=True, prepare=forget_session
            )

        cases = [
            Case("python3 -c pass", [sys.executable, "-c", "pass"]),
            timed(
                "hook, recall, matching prompt (injects)",
                argv,
                matching,
                prints_context("UserPromptSubmit"),
            ),
            timed("hook, recall, unrelated prompt (nothing)", argv, unrelated),
            timed(f"hook without recall ({BEFORE_RECALL}), matching prompt", old_argv, matching),
        ]
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
        }
        env["ARTIBOT_MEMORY_VECTORS"] = "off"
        measure(cases, env, runs, warmup, root / "scratch")
    base = statistics.median(cases[0].walls) if cases[0].walls else 0.0
    rows = []
    for case in cases:
        wall = statistics.median(case.walls) if case.walls else float("nan")
        rows.append(
            [
                case.name,
                f"{wall * 1000:.1f}",
                f"{(wall / base if base else 0):.2f}×",
                f"{statistics.median(case.cpus) * 1000:.1f}" if case.cpus else "-",
                f"{len(case.walls)}",
                "; ".join(case.problems) or "-",
            ]
        )
    table = common.table(
        ["process", "median wall ms", "× python3 -c pass", "median CPU ms", "runs", "problems"],
        rows,
    )
    return [
        (
            f"Hook latency ({runs} round-robin runs after {warmup} warm-up; `{' '.join(['python3', *argv[1:]]).replace(str(common.ROOT) + '/', '')}`, "
            f"the {agentset.SEEDS[0]} seed's {len(records)} memories re-dated to today; matching prompt {matching.text!r}, unrelated {unrelated.text!r}):"
        ),
        "",
        table,
        "",
    ]


# --- report ------------------------------------------------------------------------------------


def mark(value: float, target: float) -> str:
    return "" if value >= target else " **MISSED**"


def seed_lines(r: SeedResult, held_out: bool, misses: int) -> list[str]:  # noqa: FBT001
    t = r.tally
    ko = sum(p.lang == "ko" for p in r.prompts)
    count = {k: sum(p.kind == k for p in r.prompts) for k in ("relevant", "none", "cross")}
    quiet, right = t.value("none"), t.value("relevant")
    rows = [
        [
            "no relevant memory: nothing injected",
            t.share("none") + mark(quiet, TARGET_QUIET),
            t.share("none:en"),
            t.share("none:ko"),
        ],
        [
            "relevant: the right memory injected",
            t.share("relevant") + mark(right, TARGET_RIGHT),
            t.share("relevant:en"),
            t.share("relevant:ko"),
        ],
        [
            "another project: its memory not injected",
            t.share("cross"),
            t.share("cross:en"),
            t.share("cross:ko"),
        ],
    ]
    cats = sorted({p.category for p in r.prompts if p.kind == "relevant"})
    cat_rows = [[c, t.share(f"relevant:{c}")] for c in cats]
    cat_rows += [
        [f"(none) {c}", t.share(f"none:{c}")] for c in ("task", "unanswerable", "near-miss")
    ]
    mean_items = statistics.mean(r.items) if r.items else 0
    shown = r.misses[:misses]
    return [
        f"### Seed `{r.seed}` ({'held out: not tuned on' if held_out else 'tuned on'})",
        "",
        (
            f"{len(r.prompts)} prompts ({ko} Korean, {ko / max(len(r.prompts), 1):.0%}): {count['relevant']} with a relevant memory, "
            f"{count['none']} without, {count['cross']} from another project. Injections: {len(r.items)}, "
            f"{mean_items:.2f} items on average, longest {max(r.chars, default=0)} characters."
        ),
        "",
        common.table(["figure", "all", "English", "Korean"], rows),
        "",
        common.table(["category", "right"], cat_rows),
        "",
        f"Misses: {len(r.misses)}" + (f"; first {len(shown)}:" if shown else "."),
        "",
        *[f"- {line}" for line in shown],
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds",
        default=",".join(agentset.SEEDS),
        help="comma-separated seeds; the first is the tuned one",
    )
    parser.add_argument("--runs", type=int, default=20, help="timed latency rounds")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--no-latency", action="store_true", help="quality only")
    parser.add_argument("--show", action="store_true", help="print every miss")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="first seed, every 4th prompt, 2 latency runs; writes nothing",
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    os.environ["ARTIBOT_MEMORY_VECTORS"] = "off"  # the rule was tuned keyword-only
    os.environ["ARTIBOT_MEMORY_HOME"] = tempfile.mkdtemp(prefix="artibot-prompt-recall-home-")
    seeds = [s for s in args.seeds.split(",") if s]
    plan = [(seeds[0], 4)] if args.smoke else [(s, 1) for s in seeds]
    results = []
    for seed, every in plan:
        print(f"seed {seed} ...", flush=True)
        results.append(run_seed(seed, every))
    intro = (
        "Prompts written as a user types them mid-session, over the agent set's memories (`benchmarks/agentset.py`); "
        "each prompt a fresh session, clock frozen at the set's now. Targets: nothing injected for at least 95% of the "
        "prompts without a relevant memory; a right (grade-2) memory injected for at least 80% of those with one. "
        "The rule's constants (`recall/prompt_recall.py`) were tuned on `tune` only."
    )
    parts = [intro, ""]
    for i, r in enumerate(results):
        parts += seed_lines(
            r,
            held_out=i > 0 and r.seed != agentset.SEEDS[0],
            misses=len(r.misses) if args.show else 10,
        )
    if not args.no_latency:
        runs, warmup = (2, 0) if args.smoke else (args.runs, args.warmup)
        parts += latency(runs, warmup)
    body = "\n".join(parts)
    print(body)
    if not (args.no_write or args.smoke):
        common.write_section(SECTION, TITLE, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
