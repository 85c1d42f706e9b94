"""People detection: who does what, said in prompts, against labelled sets (issue 24).

Two labelled sets under ``tests/fixtures/people/`` (English and about 40 % Korean, each about a
third negatives: questions, hypotheticals, quoted and pasted text, pronouns, tasks that name a
person, the past, what lasts less than a month, tools and teams, negations), both written by
the seeded ``generate_people.py`` there from two separate banks (other names, areas, phrasings and
frames):

- ``labelled.jsonl``: the tuning set;
- ``heldout.jsonl``: never tuned on; its first run is recorded below (:data:`FIRST_RUNS`);
- ``blind.jsonl``: 64 prompts written by hand after the detector was frozen, in messier
  phrasings, and run once (its first run is recorded below too).

Each prompt lists the standing facts it states: ``{name, role, does, then, everywhere}``. The
prompt hook's own reader (``artibot_memory.capture.prompts.detect_preferences``) is run on every
prompt; a fact it keeps (scope ``person``) matches an expected one of the same person. Figures:

- detection: precision and recall, per set, language and kind of prompt;
- of the matched facts: the role (``people.find`` on the sentence), whether the kept text holds
  the statement's words (``does``) and what it means for the work (``then``), and whether it
  was read as holding everywhere;
- through the hook: each prompt sent to ``lifecycle.handle("UserPromptSubmit")`` in a fresh
  memory home with a git project as cwd; a stored fact is right when it names the person, has
  scope ``person`` and is that project's (or no project's when it says it holds everywhere);
- speed: ``detect_preferences`` on everyday requests and questions (benchmarks/prompt_recall.py's
  tasks, benchmarks/agentset.py's queries), the preference sets (tests/fixtures/prompts) and
  these sets, warm (patterns compiled) and cold (as in the hook's new process: every compiled
  pattern forgotten before each prompt), for this checkout, this checkout with people detection
  off, and the reader of :data:`BEFORE_PEOPLE` (its ``capture/prompts.py``, read with ``git
  show``), in one run; then the UserPromptSubmit hook process of this checkout, of a copy of it
  whose ``capture/people.py`` finds no one, and of :data:`BEFORE_PEOPLE` (``git archive``),
  round-robin with ``python3 -c pass``.

Targets: precision >= 0.95, recall >= 0.85 on the held-out set.

    python benchmarks/people_detection.py [--smoke] [--no-write] [--no-hook] [--show-errors]
        [--hook-runs N] [--only SET]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import agentset
import common
from hook_latency import Case, hook_argv, measure
from preference_detection import hook_section, load, ratio, value
from prompt_recall import TASKS

from artibot_memory.capture import people, prompts
from artibot_memory.capture.prompts import Detected, detect_preferences, prose, sentences

SECTION = "people_detection"
TITLE = "People detection (issue 24)"
FIXTURES = common.ROOT / "tests/fixtures/people"
SETS = {
    "tuning": FIXTURES / "labelled.jsonl",
    "held-out": FIXTURES / "heldout.jsonl",
    "blind": FIXTURES / "blind.jsonl",
}
PROMPT_SETS = sorted((common.ROOT / "tests/fixtures/prompts").glob("*.jsonl"))
TARGET_PRECISION, TARGET_RECALL = 0.95, 0.85
# The last commit whose prompt reader knew people by its short table ("X owns …", "ask X before").
BEFORE_PEOPLE = "53c4188"
# Recorded once, when the held-out set was first run; not recomputed (a set looked at says less).
FIRST_RUNS = """How far to trust these figures. All three sets were written by the person who wrote the detector. `held-out` came from its own bank (other names, areas, phrasings, frames), written before the detector existed, which was then tuned on `tuning` until it was clean. The held-out set's first run: precision 1.000, recall 0.971 (132 of 136; role 129 of 132, kept text 132 of 132); its misses came from three general faults, then fixed in general: a Korean name split at its first syllable ("다은 씨가" read as 다 + 은), 비 missing from the syllables of given names ("은비"), and "leads" read as the role noun "lead". Taking out of the list of non-names the tools the held-out set happens to name (Kafka, Envoy, Airflow, Renovate: a rule keeps them out, not a list) then showed a fourth fault on it ("takes care of" not seen as a verb a program shares), also fixed in general. `blind` was written by hand after that, in messier phrasings neither bank has, and run once: precision 1.000 (no false positive on its 26 negatives), recall 0.868 (33 of 38; English 23 of 24, Korean 10 of 14; role 32 of 33). Its misses were then fixed in general too (a passive after a modal, "has to be reviewed by"; an adverb before a Korean name, "리뷰는 보통 재민이가 해"; "관련해선"; "결제 쪽은 지민 님이 다 봐요"; a role noun in a Korean sentence, "DBA는 정우 님이에요"), so no row below is blind any more. The first blind run is the least biased figure here: expect real prompts to score nearer it than the tables."""
Item = dict[str, Any]


def tag_name(name: str) -> str:
    return prompts.person_tag(name).removeprefix("person:")


def person_facts(prompt: str) -> list[Detected]:
    return [d for d in detect_preferences(prompt) if d.scope == "person"]


def roles_of(prompt: str) -> dict[str, str]:
    """What ``people.find`` says each person named in ``prompt`` does (by tag)."""
    found = (people.find(s) for s in sentences(prose(prompt)))
    return {tag_name(f.name): f.role for f in found if f is not None}


@dataclass
class Score:
    """Counts over one set (or one slice of it)."""

    prompts: int = 0
    expected: int = 0
    found: int = 0
    matched: int = 0
    role_ok: int = 0
    does_ok: int = 0
    then_wanted: int = 0
    then_ok: int = 0
    everywhere_ok: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, row: dict[str, Any], found: list[Detected], roles: dict[str, str]) -> None:
        left = list(row["expect"])
        self.prompts += 1
        self.expected += len(left)
        self.found += len(found)
        for fact in found:
            name = fact.tags[0].removeprefix("person:")
            want = next((e for e in left if tag_name(e["name"]) == name), None)
            if want is None:
                self.misses.append(f"EXTRA  {row['prompt']!r} -> {fact.text!r}")
                continue
            left.remove(want)
            self.matched += 1
            self.judge(row, want, fact, roles.get(name))
        self.misses += [f"MISSED {row['prompt']!r} -> {e['name']} ({e['role']})" for e in left]

    def judge(self, row: dict[str, Any], want: Item, fact: Detected, role: str | None) -> None:
        text = fact.text.lower()
        self.role_ok += role == want["role"]
        self.does_ok += want["does"].lower() in text
        self.then_wanted += want["then"] is not None
        self.then_ok += want["then"] is not None and want["then"].lower() in text
        self.everywhere_ok += people.everywhere(fact.text) == want["everywhere"]
        if role != want["role"] or want["does"].lower() not in text:
            self.misses.append(
                f"WRONG  {row['prompt']!r}\n       want {want['role']}: {want['does']!r}\n       got  {role}: {fact.text!r}"
            )


def score_set(rows: list[dict[str, Any]]) -> tuple[Score, dict[str, Score], dict[str, Score]]:
    total, by_lang, by_tag = Score(), dict[str, Score](), dict[str, Score]()
    for row in rows:
        found, roles = person_facts(row["prompt"]), roles_of(row["prompt"])
        for score in (
            total,
            by_lang.setdefault(row["lang"], Score()),
            by_tag.setdefault(row["tag"], Score()),
        ):
            score.add(row, found, roles)
    return total, by_lang, by_tag


COLUMNS = [
    "set",
    "prompts",
    "facts",
    "precision",
    "recall",
    "role acc.",
    "statement kept",
    "meaning kept",
    "everywhere acc.",
]


def summary_row(name: str, score: Score, *, judged: bool) -> list[str]:
    precision, recall = value(score.matched, score.found), value(score.matched, score.expected)
    verdicts = (
        (
            f" {common.verdict(precision >= TARGET_PRECISION)}",
            f" {common.verdict(recall >= TARGET_RECALL)}",
        )
        if judged
        else ("", "")
    )
    return [
        name,
        str(score.prompts),
        str(score.expected),
        ratio(score.matched, score.found) + verdicts[0],
        ratio(score.matched, score.expected) + verdicts[1],
        ratio(score.role_ok, score.matched),
        ratio(score.does_ok, score.matched),
        f"{ratio(score.then_ok, score.then_wanted)} ({score.then_wanted})",
        ratio(score.everywhere_ok, score.matched),
    ]


def slice_table(scores: dict[str, dict[str, Score]]) -> str:
    rows = [
        [
            name,
            tag,
            str(s.prompts),
            str(s.expected),
            str(s.found - s.matched),
            str(s.expected - s.matched),
        ]
        for name, by_tag in scores.items()
        for tag, s in sorted(by_tag.items())
    ]
    return common.table(
        ["set", "kind of prompt", "prompts", "facts", "false positives", "missed"], rows
    )


# --- through the hook -----------------------------------------------------------------------


def through_the_hook(rows: list[dict[str, Any]]) -> tuple[int, int, int]:
    """Send each prompt to the full hook in a fresh home; count stored facts exactly right.

    Returns (expected facts, stored person facts, stored facts naming an expected person with
    scope ``person`` and the project as labelled: the cwd's, or none when it holds everywhere).
    """
    from artibot_memory.api.memories import list_memories  # noqa: PLC0415
    from artibot_memory.lifecycle import handle  # noqa: PLC0415

    expected = stored = exact = 0
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch, "shop")
        (project / ".git").mkdir(parents=True)
        for number, row in enumerate(rows):
            os.environ["ARTIBOT_MEMORY_HOME"] = str(Path(scratch, f"home-{number}"))
            payload = {
                "session_id": f"s{number}",
                "cwd": str(project / "src"),
                "prompt": row["prompt"],
            }
            handle("UserPromptSubmit", payload)
            kept = [m for m in list_memories("context") if m.scope.value == "person"]
            expected += len(row["expect"])
            stored += len(kept)
            left = list(row["expect"])
            for memory in kept:
                name = next(
                    (t.removeprefix("person:") for t in memory.tags if t.startswith("person:")), ""
                )
                want = next((e for e in left if tag_name(e["name"]) == name), None)
                if want is not None:
                    left.remove(want)
                    exact += memory.project == (None if want["everywhere"] else str(project))
    return expected, stored, exact


# --- speed -----------------------------------------------------------------------------------


def reader_before(commit: str) -> types.ModuleType | None:
    """The prompt reader of ``commit`` (its capture/prompts.py), as a module of its own."""
    shown = subprocess.run(
        ["git", "-C", str(common.ROOT), "show", f"{commit}:artibot_memory/capture/prompts.py"],
        capture_output=True,
        text=True,
        check=False,
    )
    if shown.returncode:
        return None
    module = types.ModuleType("artibot_memory.capture._prompts_before")
    sys.modules[module.__name__] = module  # its dataclasses look their module up
    exec(
        compile(shown.stdout, f"{commit}:capture/prompts.py", "exec"), module.__dict__
    )  # our own file, of an earlier commit
    return module


def forget_patterns(*modules: types.ModuleType) -> None:
    """Forget every compiled pattern, as a new hook process starts without them."""
    for module in modules:
        for thing in vars(module).values():
            if type(thing).__name__ == "_Lazy":
                thing._compiled = None  # noqa: SLF001 - the benchmark resets the cache
    people._COMPILED.clear()  # noqa: SLF001
    re.purge()


def timed(
    reader: Callable[[str], object], texts: Iterable[str], reset: Callable[[], None] | None
) -> list[float]:
    times = []
    for text in texts:
        if reset is not None:
            reset()
        started = time.perf_counter()
        reader(text)
        times.append(time.perf_counter() - started)
    return times


@dataclass
class Variant:
    name: str
    reader: Callable[[str], object]
    module: types.ModuleType
    warm: dict[str, list[float]] = field(default_factory=dict)
    cold: dict[str, list[float]] = field(default_factory=dict)


def prompt_groups() -> dict[str, list[str]]:
    """The prompts timed, by kind: everyday requests, the preference sets, the people sets."""
    everyday = [
        *TASKS,
        *(q.text for seed in agentset.SEEDS for q in agentset.generate(seed).queries),
    ]
    return {
        "everyday requests and questions": everyday,
        "the preference sets": [row["prompt"] for path in PROMPT_SETS for row in load(path)],
        "the people sets": [row["prompt"] for path in SETS.values() for row in load(path)],
    }


def fastest(kept: dict[str, list[float]], group: str, times: list[float]) -> None:
    """Keep each prompt's fastest time over the rounds (a shared machine's load only adds)."""
    kept[group] = (
        [min(pair) for pair in zip(kept[group], times, strict=True)] if group in kept else times
    )


def speed(groups: dict[str, list[str]], rounds: int) -> list[Variant]:
    """Time the readers in one run, interleaved round by round."""
    before = reader_before(BEFORE_PEOPLE)
    variants = [Variant("this checkout", detect_preferences, prompts)]
    off = Variant("this checkout, people detection off", detect_preferences, prompts)
    variants.append(off)
    if before is not None:
        variants.append(Variant(f"{BEFORE_PEOPLE} (before)", before.detect_preferences, before))
    real_find, real_mentions = people.find, people.mentions
    for _ in range(rounds):
        for group, texts in groups.items():
            for variant in variants:
                if variant is off:
                    people.find, people.mentions = (lambda _s: None), (lambda _s: False)  # type: ignore[assignment]
                try:
                    warm = timed(variant.reader, texts, None)
                    reset = lambda v=variant: forget_patterns(v.module)  # noqa: E731
                    cold = timed(variant.reader, texts, reset)
                    fastest(variant.warm, group, warm)
                    fastest(variant.cold, group, cold)
                finally:
                    people.find, people.mentions = real_find, real_mentions
    return variants


def speed_table(variants: list[Variant], groups: dict[str, list[str]]) -> str:
    rows = []
    for group, texts in groups.items():
        gated = sum(prompts.may_hold(t) for t in texts)
        people_only = sum(prompts.may_hold(t) and not prompts.names_a_trigger(t) for t in texts)
        base = sum(variants[0].cold[group])
        for variant in variants:
            warm, cold = variant.warm[group], variant.cold[group]
            rows.append(
                [
                    f"{group} ({len(texts)}; {gated} past the gate, {people_only} by a person's words only)",
                    variant.name,
                    f"{statistics.median(warm) * 1e6:.0f}",
                    f"{statistics.mean(warm) * 1e6:.0f}",
                    f"{statistics.median(cold) * 1e6:.0f}",
                    f"{statistics.mean(cold) * 1e6:.0f}",
                    f"{base / sum(cold):.2f}",
                ]
            )
    return common.table(
        [
            "prompts",
            "reader",
            "warm median µs",
            "warm mean µs",
            "cold median µs",
            "cold mean µs",
            "this checkout's cold time ÷ this one's",
        ],
        rows,
    )


PEOPLE_OFF = '''"""People detection off: what the benchmark puts in place of capture/people.py."""

from __future__ import annotations

ANCHORS: tuple[str, ...] = ()
FORMS: tuple[str, ...] = ()


class Person: ...


def mentions(_sentence: str) -> bool:
    return False


def find(_sentence: str) -> None:
    return None


def person_of(_sentence: str) -> None:
    return None


def everywhere(_text: str) -> bool:
    return False
'''
HOOK_PROMPTS = {
    "a task, no anchor word": "Refactor the checkout page and add tests for the coupon total.",
    "a task naming a reviewer, no fact": "Can you review the retry logic in the webhook handler and fix the flaky test?",
}


def hook_trees(root: Path) -> dict[str, list[str]]:
    """The hook commands compared: this checkout, a copy of it with people detection off, and
    :data:`BEFORE_PEOPLE` (``git archive``)."""
    before, off = root / "before", root / "people-off"
    before.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(common.ROOT), "archive", BEFORE_PEOPLE], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
    for part in ("bin", "artibot_memory", "hooks"):
        shutil.copytree(
            common.ROOT / part, off / part, ignore=shutil.ignore_patterns("__pycache__")
        )
    (off / "artibot_memory" / "capture" / "people.py").write_text(PEOPLE_OFF, encoding="utf-8")

    def entry(tree: Path) -> list[str]:
        return [
            sys.executable,
            "-S",
            str(tree / "bin" / "artibot-memory"),
            "hook",
            "UserPromptSubmit",
        ]

    return {
        "this checkout": hook_argv("UserPromptSubmit", sys.executable),
        "this checkout, people detection off": entry(off),
        BEFORE_PEOPLE: entry(before),
    }


def hook_process(runs: int) -> str:
    """The UserPromptSubmit hook process of each tree of :func:`hook_trees`, side by side."""
    with tempfile.TemporaryDirectory(prefix="artibot-people-") as tmp:
        root = Path(tmp)
        trees = hook_trees(root)
        home = root / "home"
        home.mkdir()
        project = root / "shop"
        (project / ".git").mkdir(parents=True)
        cases = [Case("python3 -c pass", [sys.executable, "-c", "pass"])]
        for label, text in HOOK_PROMPTS.items():
            payload = {"session_id": "bench", "cwd": str(project), "prompt": text}
            payload["hook_event_name"] = "UserPromptSubmit"
            for who, command in trees.items():
                cases.append(
                    Case(
                        f"{who}: {label}",
                        command,
                        json.dumps(payload).encode(),
                        home,
                        persistent=True,
                        prepare=lambda h: shutil.rmtree(h / "sessions", ignore_errors=True),
                    )
                )
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
        }
        env["ARTIBOT_MEMORY_VECTORS"] = "off"
        measure(cases, env, runs, 2, root / "scratch")
    base = statistics.median(cases[0].walls)
    rows = [
        [
            case.name,
            f"{statistics.median(case.walls) * 1000:.1f}" if case.walls else "-",
            f"{statistics.median(case.walls) / base:.2f}×" if case.walls else "-",
            str(len(case.walls)),
            "; ".join(case.problems) or "-",
        ]
        for case in cases
    ]
    return common.table(
        ["process", "median wall ms", "× python3 -c pass", "runs", "problems"], rows
    )


# --- the report ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-write", action="store_true", help="print only, leave RESULTS.md alone"
    )
    parser.add_argument("--no-hook", action="store_true", help="skip the pass through the hook")
    parser.add_argument(
        "--smoke", action="store_true", help="one speed pass, two hook runs, no write"
    )
    parser.add_argument(
        "--hook-runs", type=int, default=20, help="round-robin runs of the hook process (0: none)"
    )
    parser.add_argument(
        "--show-errors", action="store_true", help="print every wrong, extra and missed fact"
    )
    parser.add_argument("--only", choices=sorted(SETS), help="one set (tune on 'tuning' alone)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.no_write, args.hook_runs = True, min(args.hook_runs, 2)
    data = {name: load(path) for name, path in SETS.items() if args.only in (None, name)}
    summary, langs, slices = [], [], {}
    for name, rows in data.items():
        total, by_lang, by_tag = score_set(rows)
        judged = name != "tuning"
        summary.append(summary_row(name, total, judged=judged))
        langs += [
            summary_row(f"{name}, {lang}", s, judged=False) for lang, s in sorted(by_lang.items())
        ]
        slices[name] = by_tag
        if args.show_errors:
            print(f"\n--- {name}: {len(total.misses)} differences\n" + "\n".join(total.misses))
    korean = {name: sum(r["lang"] == "ko" for r in rows) for name, rows in data.items()}
    negatives = {name: sum(not r["expect"] for r in rows) for name, rows in data.items()}
    parts = [
        "Sets: "
        + "; ".join(
            f"`{name}` {len(rows)} prompts ({korean[name]} Korean, {negatives[name]} stating no one)"
            for name, rows in data.items()
        )
        + ".",
        "Detection (in-process, `detect_preferences`; a fact kept with scope `person` matches an expected one naming the same person; targets judged on the held-out and blind sets):",
        common.table(COLUMNS, summary + langs),
        "Per kind of prompt (false positives: facts kept where none was stated):",
        slice_table(slices),
    ]
    if not args.no_hook:
        parts += hook_section(
            data,
            through_the_hook,
            "Through the hook (`lifecycle.handle(\"UserPromptSubmit\")`, a fresh home per prompt, a git project as cwd; a stored fact is exactly right when it names the expected person with scope `person` and is the project's, or no project's when it says it holds everywhere):",
        )
    rounds = 1 if args.smoke else 5
    groups = prompt_groups()
    variants = speed(groups, rounds)
    parts += [
        f"Speed of the prompt reader (`detect_preferences`), in one run, {rounds} passes interleaved: everyday requests and questions (benchmarks/prompt_recall.py's tasks and benchmarks/agentset.py's queries, both seeds), the preference sets (tests/fixtures/prompts) and these sets; warm: patterns compiled; cold: every compiled pattern forgotten before each prompt, as in the hook's new process (where each prompt is read once); each prompt's fastest time of the passes. The last column is this checkout's total cold time over the reader's (below 1: this checkout is slower):",
        speed_table(variants, groups),
    ]
    if args.hook_runs:
        parts += [
            f"The UserPromptSubmit hook process ({args.hook_runs} round-robin runs after 2 warm-ups, an empty memory home, a git project as cwd): this checkout, a copy of it whose capture/people.py finds no one (what people detection costs, alone), and {BEFORE_PEOPLE} from `git archive` (which differs from this checkout by all the work in it since, not only this change):",
            hook_process(args.hook_runs),
        ]
    parts.append(FIRST_RUNS)
    body = "\n\n".join(parts)
    print(body)
    if not args.no_write:
        common.write_section(SECTION, TITLE, body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
