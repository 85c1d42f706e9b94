"""What a session start's context is worth, on a lived month (issue 25, item 4).

The month of ``benchmarks/livedmonth.py`` (57 sessions, four projects, English and Korean)
is lived through the real hooks. At each of its next-session starts (19: every project
several times, every week, and the Monday after the month in each project) the benchmark
runs what a session start receives, ``artibot-memory context`` in that project's folder
(in process, ``artibot_memory.cli.app.main`` under freezegun, on a copy of the home so
that looking changes nothing), and two baselines built from the same home:

- **memsearch**: the last 30 lines of the two newest daily notes, newest first, under
  ``## <file name>`` headings (what memsearch's SessionStart hook injects);
- **MEMORY.md**: its first 200 lines (what Claude Code's auto memory loads).

Each text is scored against the start's gold facts and anti-facts (``livedmonth.gold``,
``livedmonth.anti``: a fact is a matcher of words that must all appear in one clause of one
line; see :class:`livedmonth.Matcher`):

- **gold found** (recall), also within the first 3,600 characters;
- **characters**, and characters per gold fact found;
- **duplicate lines**: a content line (not blank, not a heading, at least 3 words once
  normalised) that repeats an earlier one: the same normalised words, a word-set Jaccard
  of 0.8 or more, or one holding the other whole (the shorter at least 4 words).
  Normalised: the leading bullet and ``[date · id]`` bracket, ids, source refs, clock
  times and punctuation taken out, lower-cased;
- **bookkeeping**: the share of characters in session ids, clock times and ranges,
  durations (``(16m, 11m active)``), absolute paths, model names and counts (``×3``,
  ``(2 total, 1 distinct)``, ``(2 runs: …)``, ``(seen 3×)``); memory ids and source refs
  (``ctx-…``, ``MEMORY.md:12``, ``<!-- am:… -->``) are counted apart, as **refs**;
- **anti-facts shown**: a stale preference, fact or open error, or another project's own
  fact, found as a line that says it;
- **contradictions**: two claims of one topic both shown as current (an error fixed and
  still open; commit messages in English and in Korean; staging on Render and on fly.io).

Then gold recall at the same number of characters: each baseline cut to our context's
length, and our context cut to each baseline's. Targets: recall >= 0.90 within 3,600
characters, duplicate lines <= 5 %, no anti-fact, no contradiction, and a higher recall than
either baseline at the same characters.

    python benchmarks/context_quality.py [--show] [--smoke] [--no-write]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import common
import livedmonth
from livedmonth import Fact, Start

SECTION = "context_quality"
TITLE = "What a session start's context is worth, on a lived month (benchmarks/context_quality.py)"
BUDGET = 3_600
TARGET_RECALL, TARGET_DUPLICATES = 0.90, 0.05
MEMSEARCH_FILES, MEMSEARCH_LINES = 2, 30
MEMORY_MD_LINES = 200
SMOKE_STARTS = 3

BOOKKEEPING: dict[str, re.Pattern[str]] = {
    "session ids": re.compile(
        r"\b[Ss]ession [0-9a-f]{8}\b(?::[\d,-]+)?"
        r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    ),
    "clock times": re.compile(
        r"(?<![:\w])\d{1,2}:\d{2}(?::\d{2})?(?:\s*[–-]\s*\d{1,2}:\d{2}(?::\d{2})?)?(?:\s*UTC)?(?![:\w])"
    ),
    "durations": re.compile(
        r"\(\s*(?:\d+h)?(?:\d+m)?(?:\d+s)?,\s*(?:\d+h)?(?:\d+m)?(?:\d+s)? active\)"
        r"|(?<=, )(?:\d+h)?\d+m(?:\d+s)?\b"
    ),
    "absolute paths": re.compile(r"(?<![\w.:/~-])/(?:[\w.@+-]+/){2,}[\w.@+-]*"),
    "model names": re.compile(r"\bmodel:? [\w.-]+|\bclaude-[\w.-]+"),
    "counts": re.compile(
        r"\(\d+ total, \d+ distinct\)|\(\d+ runs?:[^)]*\)|\(\d+, \d+ fixed\)|\(seen \d+×\)|×\d+"
    ),
}
REFS = re.compile(
    r"\b(?:pref|ctx|cmd|err)-[0-9a-f]{6,}\b"
    r"|(?:daily/\d{4}-\d{2}-\d{2}\.md|MEMORY\.md):\d+(?:-\d+)?"
    r"|<!-- am:[\w-]+ -->"
)
_BRACKET_HEAD = re.compile(r"^\s*(?:[-*•]\s+)?(?:\[[^\]]*\]\s*)?")
_WORDS = re.compile(r"\w+")
MIN_LINE_WORDS, MIN_CONTAINED_WORDS, NEAR = 3, 4, 0.8


# --- scoring one text -----------------------------------------------------------------------


@dataclass
class Score:
    """What one text shows at one start."""

    chars: int
    found: list[str]
    missed: list[str]
    anti: list[str]
    contradictions: list[str]
    lines: int
    duplicates: int
    bookkeeping: int
    refs: int
    kinds: dict[str, int] = field(default_factory=dict)

    @property
    def recall(self) -> float:
        total = len(self.found) + len(self.missed)
        return len(self.found) / total if total else 1.0


def score(text: str, gold: list[Fact], anti: list[Fact]) -> Score:
    """Score ``text`` against the start's ``gold`` and ``anti`` facts."""
    kinds = {name: _covered(pattern, text) for name, pattern in BOOKKEEPING.items()}
    lines, duplicates = duplicate_lines(text)
    return Score(
        chars=len(text),
        found=[f.key for f in gold if f.match.found_in(text)],
        missed=[f.key for f in gold if not f.match.found_in(text)],
        anti=[f.key for f in anti if f.match.found_in(text)],
        contradictions=[
            t.name for t in livedmonth.TOPICS if t.first.found_in(text) and t.second.found_in(text)
        ],
        lines=lines,
        duplicates=duplicates,
        bookkeeping=_union_covered(list(BOOKKEEPING.values()), text),
        refs=_covered(REFS, text),
        kinds=kinds,
    )


def _covered(pattern: re.Pattern[str], text: str) -> int:
    return _union_covered([pattern], text)


def _union_covered(patterns: list[re.Pattern[str]], text: str) -> int:
    """Characters of ``text`` inside a match of any of ``patterns`` (each counted once)."""
    marked = bytearray(len(text))
    for pattern in patterns:
        for match in pattern.finditer(text):
            marked[match.start() : match.end()] = b"\x01" * (match.end() - match.start())
    return sum(marked)


def normalised(line: str) -> list[str]:
    """The words of a line once its bullet, bracket, ids, refs and clock times are out.

    >>> normalised('- [2026-10-05 · ctx-0a1b2c3d4e] "Use pnpm, never npm" (10:02)')
    ['use', 'pnpm', 'never', 'npm']
    """
    text = _BRACKET_HEAD.sub("", line)
    text = REFS.sub(" ", text)
    for pattern in (BOOKKEEPING["session ids"], BOOKKEEPING["clock times"]):
        text = pattern.sub(" ", text)
    return [word.lower() for word in _WORDS.findall(text)]


def duplicate_lines(text: str) -> tuple[int, int]:
    """``(content lines, duplicate lines)`` of ``text`` (see the module docstring).

    >>> duplicate_lines("## A\\n- Sara owns the cart module\\n- Asked: Sara owns the cart module / Edited x")
    (2, 1)
    """
    seen: list[tuple[str, frozenset[str], int]] = []
    lines = duplicates = 0
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        words = normalised(line)
        if len(words) < MIN_LINE_WORDS:
            continue
        lines += 1
        joined, bag = " ".join(words), frozenset(words)
        if any(_repeats(joined, bag, len(words), other) for other in seen):
            duplicates += 1
        seen.append((joined, bag, len(words)))
    return lines, duplicates


def _repeats(
    joined: str, bag: frozenset[str], size: int, other: tuple[str, frozenset[str], int]
) -> bool:
    other_joined, other_bag, other_size = other
    if joined == other_joined or len(bag & other_bag) / len(bag | other_bag) >= NEAR:
        return True
    shorter, longer = (joined, other_joined) if size <= other_size else (other_joined, joined)
    return min(size, other_size) >= MIN_CONTAINED_WORDS and f" {shorter} " in f" {longer} "


# --- the texts --------------------------------------------------------------------------------


def session_context(root: Path, start: Start) -> str:
    """What ``artibot-memory context`` prints in the start's project folder at its moment."""
    from freezegun import freeze_time  # noqa: PLC0415 - only when the month is lived

    from artibot_memory.cli.app import main  # noqa: PLC0415

    out = io.StringIO()
    folder = livedmonth.project_dir(root, start.project)
    with _cwd(folder), freeze_time(start.at), contextlib.redirect_stdout(out):
        status = main(["context"])
    if status:
        raise RuntimeError(f"artibot-memory context exited {status} at {start.name}")
    return out.getvalue().rstrip("\n")


@contextlib.contextmanager
def _cwd(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def memsearch_text(home: Path) -> str:
    """The last 30 lines of the two newest daily notes, as memsearch's SessionStart builds it."""
    files = sorted((home / "daily").glob("*.md"), reverse=True)[:MEMSEARCH_FILES]
    parts = ["# Recent Memory", ""]
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()[-MEMSEARCH_LINES:]
        if lines:
            parts += [f"## {path.name}", *lines, ""]
    return "\n".join(parts).rstrip("\n") if files else ""


def memory_md_text(home: Path) -> str:
    """The first 200 lines of MEMORY.md (what Claude Code's auto memory loads)."""
    path = home / "MEMORY.md"
    if not path.is_file():
        return ""
    return "\n".join(path.read_text(encoding="utf-8").splitlines()[:MEMORY_MD_LINES])


BASELINES: dict[str, Callable[[Path], str]] = {
    "memsearch": memsearch_text,
    "MEMORY.md": memory_md_text,
}


@dataclass
class Look:
    """One start: its gold and anti facts, and each text shown there."""

    start: Start
    gold: list[Fact]
    anti: list[Fact]
    texts: dict[str, str]

    def score(self, name: str, chars: int | None = None) -> Score:
        text = self.texts[name]
        return score(text if chars is None else text[:chars], self.gold, self.anti)


OURS = "artibot-memory"


def look_at_starts(starts: list[Start]) -> list[Look]:
    """Live the month up to each start and take what it is shown there."""
    looks = []
    with tempfile.TemporaryDirectory(prefix="artibot-context-quality-") as scratch:
        root = Path(scratch)
        for moment in livedmonth.lived(root, {s.at for s in starts}):
            for start in (s for s in starts if s.at == moment):
                with livedmonth.snapshot(root) as home:
                    texts = {OURS: session_context(root, start)}
                    texts.update({name: build(home) for name, build in BASELINES.items()})
                looks.append(Look(start, livedmonth.gold(start), livedmonth.anti(start), texts))
                print(f"  {start.name}: {len(texts[OURS])} characters", flush=True)
    return looks


# --- report ------------------------------------------------------------------------------------


def _pct(part: float, whole: float) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def _recall(found: int, total: int) -> str:
    return f"{found}/{total} ({found / total:.2f})" if total else "-"


def _per_gold(s: Score) -> str:
    return f"{s.chars / len(s.found):.0f}" if s.found else "-"


def per_start_rows(looks: list[Look], name: str) -> list[list[str]]:
    rows = []
    for look in looks:
        s, cut = look.score(name), look.score(name, BUDGET)
        rows.append(
            [
                look.start.name,
                _recall(len(s.found), len(look.gold)),
                _recall(len(cut.found), len(look.gold)),
                f"{s.chars:,}",
                _per_gold(s),
                f"{s.duplicates}/{s.lines}",
                _pct(s.bookkeeping, s.chars),
                _pct(s.refs, s.chars),
                str(len(s.anti)),
                str(len(s.contradictions)),
            ]
        )
    return rows


COLUMNS = [
    "start",
    "gold found",
    f"in first {BUDGET:,} chars",
    "chars",
    "chars / gold found",
    "duplicate lines",
    "bookkeeping",
    "refs",
    "anti-facts",
    "contradictions",
]


@dataclass
class Totals:
    """The figures over every start, for one text."""

    found: int = 0
    found_cut: int = 0
    gold: int = 0
    chars: int = 0
    lines: int = 0
    duplicates: int = 0
    bookkeeping: int = 0
    refs: int = 0
    anti: int = 0
    contradictions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)


def totals(looks: list[Look], name: str) -> Totals:
    t = Totals()
    for look in looks:
        s, cut = look.score(name), look.score(name, BUDGET)
        t.found += len(s.found)
        t.found_cut += len(cut.found)
        t.gold += len(look.gold)
        t.chars += s.chars
        t.lines += s.lines
        t.duplicates += s.duplicates
        t.bookkeeping += s.bookkeeping
        t.refs += s.refs
        t.anti += len(s.anti)
        t.contradictions += len(s.contradictions)
        for kind, chars in s.kinds.items():
            t.kinds[kind] = t.kinds.get(kind, 0) + chars
    return t


def total_row(label: str, t: Totals, starts: int) -> list[str]:
    return [
        label,
        _recall(t.found, t.gold),
        _recall(t.found_cut, t.gold),
        f"{t.chars:,} (mean {t.chars / max(starts, 1):,.0f})",
        f"{t.chars / t.found:.0f}" if t.found else "-",
        f"{t.duplicates}/{t.lines} ({_pct(t.duplicates, t.lines)})",
        _pct(t.bookkeeping, t.chars),
        _pct(t.refs, t.chars),
        str(t.anti),
        str(t.contradictions),
    ]


def same_chars_rows(looks: list[Look]) -> tuple[list[list[str]], dict[str, list[int]]]:
    """Gold found by each text cut to our length, and by ours cut to each baseline's."""
    rows, sums = [], {key: [0, 0, 0, 0] for key in BASELINES}
    for look in looks:
        ours = len(look.texts[OURS])
        row = [look.start.name, f"{ours:,}", str(len(look.score(OURS).found))]
        for name in BASELINES:
            theirs = len(look.texts[name])
            at_ours = len(look.score(name, ours).found)
            ours_at_theirs = len(look.score(OURS, theirs).found)
            at_theirs = len(look.score(name).found)
            row += [str(at_ours), f"{theirs:,}", f"{ours_at_theirs} vs {at_theirs}"]
            sum_row = sums[name]
            sum_row[0] += at_ours
            sum_row[1] += ours_at_theirs
            sum_row[2] += at_theirs
            sum_row[3] += len(look.score(OURS).found)
        rows.append(row)
    return rows, sums


def details(looks: list[Look]) -> list[str]:
    """What each start missed, and what it showed that it must not."""
    lines = []
    for look in looks:
        s = look.score(OURS)
        parts = []
        if s.missed:
            parts.append("missed " + ", ".join(f"`{k}`" for k in s.missed))
        if s.anti:
            parts.append("anti-facts " + ", ".join(f"`{k}`" for k in s.anti))
        if s.contradictions:
            parts.append("contradictions: " + "; ".join(s.contradictions))
        lines.append(
            f"- {look.start.name}: " + ("; ".join(parts) or "nothing missed, nothing wrong")
        )
    return lines


def verdicts(t: Totals, sums: dict[str, list[int]]) -> list[str]:
    recall_cut = t.found_cut / t.gold if t.gold else 0.0
    dup = t.duplicates / t.lines if t.lines else 0.0
    lines = [
        f"- gold recall within the first {BUDGET:,} characters: {recall_cut:.3f} (target >= {TARGET_RECALL:.2f}): {common.verdict(recall_cut >= TARGET_RECALL)}",
        f"- duplicate lines: {dup:.1%} (target <= {TARGET_DUPLICATES:.0%}): {common.verdict(dup <= TARGET_DUPLICATES)}",
        f"- anti-facts shown: {t.anti} (target 0): {common.verdict(t.anti == 0)}",
        f"- contradictions: {t.contradictions} (target 0): {common.verdict(t.contradictions == 0)}",
    ]
    for name, (at_ours, ours_at_theirs, at_theirs, ours) in sums.items():
        better = ours > at_ours and ours_at_theirs > at_theirs
        lines.append(
            f"- against {name} at the same characters: ours {ours} vs {at_ours} at our length; ours {ours_at_theirs} vs {at_theirs} at its length: {common.verdict(better)}"
        )
    return lines


def report(looks: list[Look]) -> str:
    n = len(looks)
    ours = totals(looks, OURS)
    base_rows = [total_row(OURS, ours, n)]
    for name in BASELINES:
        base_rows.append(total_row(name, totals(looks, name), n))
    same_rows, sums = same_chars_rows(looks)
    same_columns = ["start", "our chars", "ours: gold found"]
    for name in BASELINES:
        same_columns += [f"{name} at our chars", f"{name} chars", f"ours vs {name} at its chars"]
    gold_total = sum(len(look.gold) for look in looks)
    kinds = ", ".join(f"{kind} {_pct(chars, ours.chars)}" for kind, chars in ours.kinds.items())
    return "\n".join(
        [
            (
                f"The month of `benchmarks/livedmonth.py` ({len(livedmonth.month())} sessions, 4 projects, English and Korean) lived through the hooks; "
                f"at each of {n} next-session starts, `artibot-memory context` in the project's folder (default budget, what a session start receives) "
                f"against {gold_total} gold facts in all (per start: open errors and TODOs, decisions with reasons, facts, preferences in force, fixes, people, the last session's ask) "
                "and the anti-facts of that moment (a superseded preference or fact, a fixed error shown as open, another project's own fact). "
                "A fact counts only when one clause of one line says it (its matcher's words all there). Definitions: the module docstring."
            ),
            "",
            "Targets:",
            "",
            *verdicts(ours, sums),
            "",
            "### Per start: artibot-memory",
            "",
            common.table(COLUMNS, per_start_rows(looks, OURS)),
            "",
            f"Bookkeeping by kind (share of all our characters): {kinds}.",
            "",
            "### Totals, and the baselines built from the same home",
            "",
            (
                "memsearch: the last 30 lines of the two newest daily notes (ours hold every project's bullets, one file a day; memsearch keeps a folder per project, "
                "so the other projects' lines it shows here are our layout's, not its own); MEMORY.md: its first 200 lines (one file for every project)."
            ),
            "",
            common.table(COLUMNS, base_rows),
            "",
            "### Gold found at the same number of characters",
            "",
            common.table(same_columns, same_rows),
            "",
            "### What each start missed or showed wrongly (artibot-memory)",
            "",
            *details(looks),
            "",
            *[
                f"#### {name}, per start\n\n{common.table(COLUMNS, per_start_rows(looks, name))}\n"
                for name in BASELINES
            ],
        ]
    )


def show(looks: list[Look]) -> None:
    for look in looks:
        s = look.score(OURS)
        print(f"\n===== {look.start.name}: {s.chars} characters")
        print(look.texts[OURS])
        print(f"----- gold found: {', '.join(s.found) or '-'}")
        print(f"----- gold missed: {', '.join(s.missed) or '-'}")
        print(f"----- anti-facts shown: {', '.join(s.anti) or '-'}")
        print(f"----- contradictions: {'; '.join(s.contradictions) or '-'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--show", action="store_true", help="print each start's context and findings"
    )
    parser.add_argument(
        "--smoke", action="store_true", help=f"the first {SMOKE_STARTS} starts only; writes nothing"
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    os.environ["ARTIBOT_MEMORY_VECTORS"] = "off"
    starts = list(livedmonth.starts())
    if args.smoke:
        starts = starts[:SMOKE_STARTS]
    print(f"living the month to {len(starts)} starts ...", flush=True)
    looks = look_at_starts(starts)
    if args.show:
        show(looks)
    body = report(looks)
    print(body)
    if not (args.no_write or args.smoke):
        common.write_section(SECTION, TITLE, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
