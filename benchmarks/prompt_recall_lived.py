"""Per-prompt recall on a lived month: is the memory that answers injected? (issue 25, item 3).

``prompt_recall.py`` measures the recall on the agent set's memories, imported; this one
measures it where the memories come from: the month of ``benchmarks/livedmonth.py`` lived
through the real hooks (session summaries, daily notes and MEMORY.md beside the atomic
records, as a user's home holds them). The prompts are ``benchmarks/livedprompts.py``'s
(264, half of them Korean), each asked from a project folder at one of the month's starts,
in a fresh session: ``artibot_memory.recall.prompt_recall.prompt_output`` with the payload
Claude Code sends (``tests/payloads.py``'s captured UserPromptSubmit, its session, cwd and
prompt replaced), the clock frozen at that start, on a copy of the home lived to then.

An injected item is what one line names (a memory id, or a ``path:line`` of a Markdown
layer, read back from the home; a line that names nothing is judged by its own words):

- **right**, for a prompt with an answer, when an injected item is the gold memory: a record
  (not a session summary, not a command; active or resolved) whose text and resolution the
  gold's matcher finds (:mod:`livedprompts`), or a layer line that says it; for a prompt
  without one, when nothing is injected;
- **items** and **characters** of each injection (max and mean);
- **instead**: what the wrong injections held, by kind (session summary, daily bullet,
  MEMORY.md line, error, preference, decision, fact, person, command).

Targets: the right memory for >= 85 % of the prompts with an answer (Korean >= 80 %),
nothing for >= 97 % of those without, at most 3 items and 1,500 characters. The figures
that count are the held-out half's (``check``); ``tune`` is the half one may look at.

    python benchmarks/prompt_recall_lived.py [--show] [--smoke] [--no-write]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import common
import livedmonth
import livedprompts
from livedprompts import CHECK, TUNE, Prompt, Target

from artibot_memory.store.record import Record

SECTION = "prompt_recall_lived"
TITLE = "Per-prompt recall on a lived month (benchmarks/prompt_recall_lived.py)"
TARGET_RIGHT, TARGET_RIGHT_KO, TARGET_QUIET = 0.85, 0.80, 0.97
MAX_ITEMS, MAX_CHARS = 3, 1_500
SMOKE_STARTS = 3
MEMORY_ID = re.compile(r"\b(?:pref|ctx|cmd|err)-[0-9a-f]{6,}\b")
LAYER_REF = re.compile(r"\b((?:daily/\d{4}-\d{2}-\d{2}\.md|MEMORY\.md)):(\d+)")
MARKER = re.compile(r"<!-- am:([\w-]+) -->")
BULLET = re.compile(r"^\s*[-*•]\s")
_HEAD = re.compile(r"^\s*(?:[-*•]\s+)?(?:\[[^\]]*\]\s*)?")


# --- one injection -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One injected line: what it is (a kind), its words, and the record it names, if any."""

    kind: str
    text: str
    record: Record | None = None


def items_of(text: str, home: Path) -> list[Item]:
    """The items of an injection: each line naming a memory or a layer line, or a bullet."""
    found = []
    for line in text.splitlines():
        memory_id = MEMORY_ID.search(line)
        layer = LAYER_REF.search(line)
        if memory_id:
            found.append(_record_item(memory_id.group(0), line, home))
        elif layer:
            found.append(_layer_item(layer.group(1), int(layer.group(2)), line, home))
        elif BULLET.match(line):
            found.append(Item("unnamed line", line))
    return found


def _record_item(memory_id: str, line: str, home: Path) -> Item:
    from artibot_memory.recall import lookup  # noqa: PLC0415 - the product, once lived

    record = lookup.by_id(memory_id, home=home)
    if record is None:
        return Item("unknown id", line)
    return Item(record_kind(record), line, record)


def _layer_item(path: str, number: int, line: str, home: Path) -> Item:
    kind = "daily bullet" if path.startswith("daily/") else "MEMORY.md line"
    try:
        source = (home / path).read_text(encoding="utf-8").splitlines()[number - 1]
    except (OSError, IndexError):
        return Item(kind, line)
    marked = MARKER.search(source) or MEMORY_ID.search(source)
    if marked:
        named = _record_item(
            marked.group(1) if marked.re is MARKER else marked.group(0), line, home
        )
        if named.record is not None:
            return Item(kind, source, named.record)
    return Item(kind, source)


def record_kind(record: Record) -> str:
    """What a record is, in the words of the report."""
    tags = set(record.tags)
    if record.details.get("kind") == "session-summary" or "session-summary" in tags:
        return "session summary"
    kind = str(record.type.value)
    if kind == "context":
        if any(tag.startswith("person:") for tag in tags) or record.scope.value == "person":
            return "person"
        return "decision" if "decision" in tags else "fact"
    return kind


def answers(item: Item, target: Target) -> bool:
    """Tell whether ``item`` is the memory ``target`` names."""
    record = item.record
    if record is None:
        return item.kind != "session summary" and target.match.found_in(item.text) is not None
    kind = record_kind(record)
    if kind == "command" or (kind == "session summary" and not target.summaries):
        return False
    if record.state.value not in ("active", "resolved"):
        return False
    said = " ".join(f"{record.text} {record.resolution or ''}".split())
    if kind == "session summary":
        return target.match.found_in(record.text) is not None
    return target.match.matches(said)


# --- the run ------------------------------------------------------------------------------------


@dataclass
class Asked:
    """One prompt asked: what came back, and whether it was right."""

    prompt: Prompt
    text: str
    items: list[Item]
    right: bool


def payload_for(prompt: Prompt, root: Path, number: int) -> dict[str, Any]:
    """The UserPromptSubmit payload Claude Code sends, for ``prompt`` in a fresh session."""
    from payloads import captured  # noqa: PLC0415 - tests/ is on the path (livedmonth)

    session = f"{number:08x}-7e57-4c0d-8b1a-{number:012x}"
    cwd = livedmonth.project_dir(root, prompt.start.project)
    return {
        **captured("UserPromptSubmit"),
        "session_id": session,
        "transcript_path": str(root / "transcripts" / f"{session}.jsonl"),
        "cwd": str(cwd),
        "prompt_id": f"prompt-{number}",
        "prompt": prompt.text,
    }


def ask_all(chosen: list[Prompt]) -> list[Asked]:
    """Live the month to each start and ask its prompts there, each in a fresh session."""
    from freezegun import freeze_time  # noqa: PLC0415 - only once the month is lived

    from artibot_memory.recall.prompt_recall import prompt_output  # noqa: PLC0415

    asked: list[Asked] = []
    by_start = defaultdict(list)
    for prompt in chosen:
        by_start[prompt.start].append(prompt)
    with tempfile.TemporaryDirectory(prefix="artibot-prompt-recall-lived-") as scratch:
        root = Path(scratch)
        for moment in livedmonth.lived(root, {s.at for s in by_start}):
            for start in (s for s in by_start if s.at == moment):
                with livedmonth.snapshot(root) as home, freeze_time(moment):
                    for prompt in by_start[start]:
                        payload = payload_for(prompt, root, len(asked) + 1)
                        output = prompt_output(payload, home=str(home))
                        text = output["hookSpecificOutput"]["additionalContext"] if output else ""
                        items = items_of(text, home)
                        asked.append(Asked(prompt, text, items, judge(prompt, text, items)))
                print(f"  {start.name}: {len(by_start[start])} prompts", flush=True)
    return asked


def judge(prompt: Prompt, text: str, items: list[Item]) -> bool:
    if not prompt.gold:
        return not text.strip()
    targets = [livedprompts.TARGETS[key] for key in prompt.gold]
    return any(answers(item, target) for item in items for target in targets)


# --- report ------------------------------------------------------------------------------------


@dataclass
class Tally:
    right: Counter[str] = field(default_factory=Counter)
    asked: Counter[str] = field(default_factory=Counter)

    def add(self, groups: list[str], ok: bool) -> None:  # noqa: FBT001
        for group in groups:
            self.asked[group] += 1
            self.right[group] += int(ok)

    def value(self, group: str) -> float:
        return self.right[group] / self.asked[group] if self.asked[group] else 0.0

    def share(self, group: str) -> str:
        n = self.asked[group]
        return f"{self.right[group] / n:.3f} ({self.right[group]}/{n})" if n else "-"


def tally(asked: list[Asked]) -> Tally:
    t = Tally()
    for a in asked:
        p = a.prompt
        side = "answer" if p.gold else "none"
        t.add([side, f"{side}:{p.lang}", f"{side}:{p.kind if p.gold else p.category}"], a.right)
    return t


def mark(value: float, target: float) -> str:
    return "" if value >= target else " **MISSED**"


def half_lines(name: str, asked: list[Asked], held_out: bool) -> list[str]:  # noqa: FBT001
    t = tally(asked)
    ko = sum(a.prompt.lang == "ko" for a in asked)
    with_answer = sum(bool(a.prompt.gold) for a in asked)
    rows = [
        [
            "with an answer: the right memory injected",
            t.share("answer") + mark(t.value("answer"), TARGET_RIGHT),
            t.share("answer:en"),
            t.share("answer:ko") + mark(t.value("answer:ko"), TARGET_RIGHT_KO),
        ],
        [
            "without one: nothing injected",
            t.share("none") + mark(t.value("none"), TARGET_QUIET),
            t.share("none:en"),
            t.share("none:ko"),
        ],
    ]
    kinds = ["preference", "decision", "fact", "person", "error", "todo"]
    kind_rows = [[k, t.share(f"answer:{k}")] for k in kinds]
    kind_rows += [
        [f"(none) {c}", t.share(f"none:{c}")] for c in ("task", "unanswerable", "near-miss")
    ]
    return [
        f"### Half `{name}` ({'held out: the figures that count' if held_out else 'may be looked at while tuning'})",
        "",
        f"{len(asked)} prompts ({ko} Korean, {ko / max(len(asked), 1):.0%}): {with_answer} with an answer, {len(asked) - with_answer} without.",
        "",
        common.table(["figure", "all", "English", "Korean"], rows),
        "",
        common.table(["kind", "right"], kind_rows),
        "",
        *size_lines(asked),
        "",
    ]


def size_lines(asked: list[Asked]) -> list[str]:
    injected = [a for a in asked if a.text.strip()]
    if not injected:
        return ["Nothing was injected for any prompt."]
    counts = [len(a.items) for a in injected]
    chars = [len(a.text) for a in injected]
    return [
        (
            f"Injections: {len(injected)} of {len(asked)} prompts; items max {max(counts)} (target <= {MAX_ITEMS}{'' if max(counts) <= MAX_ITEMS else ': **MISSED**'}), "
            f"mean {statistics.mean(counts):.2f}; characters max {max(chars):,} (target <= {MAX_CHARS:,}{'' if max(chars) <= MAX_CHARS else ': **MISSED**'}), mean {statistics.mean(chars):,.0f}."
        )
    ]


def instead_lines(asked: list[Asked]) -> list[str]:
    """What the wrong injections held, by kind, and how many misses injected nothing."""
    wrong = [a for a in asked if not a.right]
    kinds = Counter(item.kind for a in wrong for item in a.items)
    silent = sum(1 for a in wrong if a.prompt.gold and not a.items)
    noisy = sum(1 for a in wrong if not a.prompt.gold)
    listed = ", ".join(f"{kind} {n}" for kind, n in kinds.most_common()) or "none"
    return [
        f"Wrong answers, both halves: {len(wrong)} ({silent} prompts with an answer got nothing, {len(wrong) - silent - noisy} got something else, {noisy} prompts without one got something).",
        f"What the wrong injections held, by item: {listed}.",
    ]


def miss_line(a: Asked) -> str:
    p = a.prompt
    got = "; ".join(f"{item.kind}: {_short(item)}" for item in a.items) or "nothing"
    want = ", ".join(p.gold) or "nothing"
    return f"[{p.half} {p.kind} {p.start.name}] {p.text!r}: wants {want}; got {got}"


def _short(item: Item, width: int = 90) -> str:
    """The injected line, without its bullet and ``[date · id]`` (what the agent read)."""
    line = " ".join(_HEAD.sub("", item.text).split())
    return repr(line if len(line) <= width else line[: width - 1] + "…")


def report(asked: list[Asked], show: bool) -> str:  # noqa: FBT001
    halves = {name: [a for a in asked if a.prompt.half == name] for name in (CHECK, TUNE)}
    misses = [miss_line(a) for a in asked if not a.right and a.prompt.half == CHECK]
    shown = misses if show else misses[:15]
    starts = len({a.prompt.start for a in asked})
    return "\n".join(
        [
            (
                f"The month of `benchmarks/livedmonth.py` lived through the hooks; {len(asked)} prompts of `benchmarks/livedprompts.py` asked at {starts} of its starts, "
                "each from its project's folder in a fresh session (`prompt_output` with Claude Code's payload, clock frozen, on a copy of the home lived to then). "
                "Right: a prompt with an answer gets its gold memory (an atomic record the gold's matcher finds; a session summary counts only for a TODO); one without gets nothing. "
                f"Targets: right >= {TARGET_RIGHT:.0%} (Korean >= {TARGET_RIGHT_KO:.0%}), quiet >= {TARGET_QUIET:.0%}, <= {MAX_ITEMS} items and <= {MAX_CHARS:,} characters."
            ),
            "",
            *half_lines(CHECK, halves[CHECK], held_out=True),
            *half_lines(TUNE, halves[TUNE], held_out=False),
            *instead_lines(asked),
            "",
            f"Misses of the held-out half: {len(misses)}"
            + (f"; first {len(shown)}:" if shown and not show else ":" if shown else "."),
            "",
            *[f"- {line}" for line in shown],
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="list every miss of both halves")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"the prompts of the first {SMOKE_STARTS} starts only; writes nothing",
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    os.environ["ARTIBOT_MEMORY_VECTORS"] = "off"
    chosen = list(livedprompts.prompts())
    if args.smoke:
        first = set(livedmonth.starts()[:SMOKE_STARTS])
        chosen = [p for p in chosen if p.start in first]
    print(f"asking {len(chosen)} prompts over the lived month ...", flush=True)
    asked = ask_all(chosen)
    body = report(asked, args.show)
    print(body)
    if args.show:
        print("\nMisses of the tuned half:")
        for a in asked:
            if not a.right and a.prompt.half == TUNE:
                print(f"- {miss_line(a)}")
    if not (args.no_write or args.smoke):
        common.write_section(SECTION, TITLE, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
