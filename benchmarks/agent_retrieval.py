"""Retrieval on our own coding-agent set (benchmarks/agentset.py): the product against plain BM25.

The set is generated, not read from ``../shared``: one developer's 90 days over six projects,
about 400 memories (a fifth of them Korean or mixed) and about 200 queries written as a user
asks (paraphrases, inflections, identifiers in another form, abbreviations, Korean with
particles and compounds, and 36 questions no memory answers). Two variants from two seeds:
"tune" (what the product may be tuned on) and "check" (what it was not tuned on); they share
the templates' kinds and no memory text.

For each seed, the memories are imported into a fresh temporary home with
``transfer.import_file`` and every query is asked with ``search(q, limit=10, record=False)``,
exactly as ``benchmarks/quality.py`` does for devbench (its helpers are reused), the clock
frozen at the set's "now". A hit is mapped back to the set's memory ref by its text. Beside
it, in the same run, plain BM25 (whitespace tokens lowercased, no stemming, k1 1.5, b 0.75)
over the same texts and their explicit tags; for BM25 "returns nothing" means no memory
scores above 0.

Figures, per seed and ranker: recall@5 (a grade-2 memory in the top 5), nDCG@10 on the graded
labels (gain 2^grade - 1), MRR@10 (first grade-2 memory), the share of unanswerable queries
that come back empty; and the same by query category and by query language.

    python benchmarks/agent_retrieval.py [--seeds tune,check] [--show] [--smoke] [--no-write]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import agentset
import common
from quality import (
    BM25,
    VECTORS_SKIPPED,
    Latency,
    Tally,
    frozen,
    import_memories,
    text_map,
    vectors_installed,
    whitespace,
)

SECTION = "agent_retrieval"
TITLE = "Coding-agent retrieval set, product vs plain BM25 (benchmarks/agent_retrieval.py)"
TOP = 10
SMOKE_EVERY = 5  # --smoke asks every 5th query of the first seed
VECTORS = "product + vectors"  # the optional vector layer; skipped when its extra is missing
RANKERS = ("product", VECTORS, "BM25")
# Queries whose answer is in no memory: scored on "came back empty", not on ranks.
NEGATIVE_CATEGORIES = frozenset({"unanswerable", "near-miss"})

Ranked = list[set[str]]  # for each returned memory, the refs it stands for, best first


# --- metrics ---------------------------------------------------------------------------------


@dataclass
class Scores:
    """One ranker on one group of queries: quality.Tally's figures plus nDCG@10."""

    tally: Tally = field(default_factory=Tally)
    ndcg: list[float] = field(default_factory=list)

    def add(self, ranked: Ranked, relevant: dict[str, int]) -> None:
        """Count one query: grade-2 refs are the expected answer, all grades feed nDCG."""
        answers = {ref for ref, grade in relevant.items() if grade >= agentset.GRADE_ANSWER}
        self.tally.add(ranked[:TOP], answers)
        if relevant:
            self.ndcg.append(ndcg_at(ranked, relevant, TOP))

    @property
    def answerable(self) -> int:
        """How many answerable queries were counted."""
        return len(self.tally.hit5)

    def recall5(self) -> float:
        """Share of answerable queries with a grade-2 memory in the top 5."""
        return Tally.mean(self.tally.hit5)

    def mrr(self) -> float:
        """Mean reciprocal rank of the first grade-2 memory in the top 10."""
        return Tally.mean(self.tally.rr10)

    def mean_ndcg(self) -> float:
        """Mean nDCG@10 over the answerable queries."""
        return Tally.mean(self.ndcg)

    def empty_share(self) -> str:
        """``k/n`` unanswerable queries that came back empty."""
        return f"{self.tally.negatives_empty}/{self.tally.negatives}"


def ndcg_at(ranked: Ranked, relevant: dict[str, int], k: int) -> float:
    """nDCG@k with gain 2^grade - 1; a ref counts once, at its best rank.

    >>> ndcg_at([{"a"}, {"b"}], {"a": 2, "b": 1}, 10)
    1.0
    >>> round(ndcg_at([{"b"}, {"a"}], {"a": 2, "b": 1}, 10), 3)
    0.797
    """
    seen: set[str] = set()
    dcg = 0.0
    for rank, refs in enumerate(ranked[:k]):
        fresh = refs - seen
        seen |= refs
        grade = max((relevant.get(ref, 0) for ref in fresh), default=0)
        dcg += (2**grade - 1) / math.log2(rank + 2)
    ideal = sorted(relevant.values(), reverse=True)[:k]
    best = sum((2**grade - 1) / math.log2(rank + 2) for rank, grade in enumerate(ideal))
    return dcg / best if best else 0.0


def groups_of(query: agentset.Query, answer_langs: set[str]) -> list[str]:
    """The report rows a query counts in: all, its category, its language, cross-language."""
    groups = ["all", f"category:{query.category}", f"language:{query.lang}"]
    if query.answerable and query.lang not in answer_langs:
        groups.append("cross-language")
    return groups


# --- one seed ----------------------------------------------------------------------------------


@dataclass
class SeedResult:
    """What one seed gave: per ranker and group the scores, the misses, the set's counts."""

    agent_set: agentset.AgentSet
    asked: list[agentset.Query]
    scores: dict[str, dict[str, Scores]]
    imported: int
    expired: int
    unmapped: int
    misses: dict[str, list[str]]
    latency: Latency


def run_seed(seed: str, every: int = 1) -> SeedResult:
    """Import the seed's set into a fresh home and ask every ``every``-th query of it."""
    agent_set = agentset.generate(seed)
    memories = agent_set.memories
    by_ref = {m.ref: m for m in memories}
    by_text = text_map([(m.text, m.ref) for m in memories])
    docs = [" ".join([m.text, *m.record.get("tags", [])]) for m in memories]
    index = BM25([whitespace(doc) for doc in docs])
    refs = [m.ref for m in memories]
    asked = list(agent_set.queries[::every])
    scores: dict[str, dict[str, Scores]] = {r: defaultdict(Scores) for r in RANKERS}
    misses: dict[str, list[str]] = {r: [] for r in RANKERS}
    unmapped = 0
    latency = Latency()
    with_vectors = vectors_installed()
    with tempfile.TemporaryDirectory(prefix="artibot-agentset-") as tmp, frozen(agent_set.now):
        home = Path(tmp)
        imported, expired = import_memories(home, agent_set.records())
        for query in asked:
            ranked = {
                "product": latency.timed(home, query.text, by_text, with_vectors=False),
                "BM25": [{refs[i]} for i in index.rank(whitespace(query.text))[:TOP]],
            }
            if with_vectors:
                ranked[VECTORS] = latency.timed(home, query.text, by_text, with_vectors=True)
            unmapped += sum(1 for ids in ranked["product"] for ref in ids if ref.startswith("?"))
            langs = {
                by_ref[r].lang for r, g in query.relevant.items() if g >= agentset.GRADE_ANSWER
            }
            for ranker, result in ranked.items():
                for group in groups_of(query, langs):
                    scores[ranker][group].add(result, query.relevant)
                miss = describe_miss(query, result, by_ref)
                if miss:
                    misses[ranker].append(miss)
    return SeedResult(agent_set, asked, scores, imported, expired, unmapped, misses, latency)


def describe_miss(query: agentset.Query, ranked: Ranked, by_ref: dict[str, agentset.Memory]) -> str:
    """One line for a query answered wrongly (no answer in the top 5, or a result when none)."""
    top5 = set().union(*ranked[:5]) if ranked else set()
    answers = {ref for ref, grade in query.relevant.items() if grade >= agentset.GRADE_ANSWER}
    if query.answerable and not top5 & answers:
        first = next(iter(sorted(ranked[0]))) if ranked else ""
        got = short(by_ref[first].text) if first in by_ref else "nothing"
        want = short(by_ref[min(answers)].text)
        return f"{query.qid} [{query.category}] {query.text!r}: wants {want!r}; first: {got!r}"
    if not query.answerable and ranked:
        first = next(iter(sorted(ranked[0])))
        got = short(by_ref[first].text) if first in by_ref else first
        return f"{query.qid} [{query.category}] {query.text!r}: no answer exists; first: {got!r}"
    return ""


def short(text: str, width: int = 70) -> str:
    """The first line of a memory, cut to ``width`` characters."""
    line = text.splitlines()[0]
    return line if len(line) <= width else line[: width - 1] + "…"


# --- report ----------------------------------------------------------------------------------


def f3(value: float) -> str:
    return f"{value:.3f}"


def seed_report(result: SeedResult, smoke: bool) -> list[str]:  # noqa: FBT001 - one flag
    """The tables of one seed: overall, by category, by language."""
    a = result.agent_set
    ko_mem = sum(m.lang == "ko" for m in a.memories)
    ko_q = sum(q.lang == "ko" for q in result.asked)
    negatives = sum(not q.answerable for q in result.asked)
    counts = (
        f"Projects {', '.join(a.projects)}; people {', '.join(a.people)}. "
        f"{len(a.memories)} memories ({ko_mem} Korean or mixed, {ko_mem / len(a.memories):.0%}), "
        f"{result.imported} imported, {result.expired} expired on arrival; {len(result.asked)} queries asked "
        f"({ko_q} Korean, {ko_q / max(len(result.asked), 1):.0%}; {negatives} without an answer). "
        f"Hits not mapped back to a memory by text: {result.unmapped}."
    )
    return [
        f"### Seed `{a.seed}`" + (" (smoke: a subset of the queries)" if smoke else ""),
        "",
        counts,
        "",
        overall_table(result),
        "",
        "By query category (answerable: recall@5 / nDCG@10 / MRR@10; without an answer: empty results):",
        "",
        category_table(result),
        "",
        "By query language (answerable queries; cross-language: the query's language differs from every answer's):",
        "",
        language_table(result),
        "",
    ]


def skipped(ranker: str) -> bool:
    """Whether ``ranker`` was not run: the vector row without the ``vectors`` extra."""
    return ranker == VECTORS and not vectors_installed()


def overall_table(result: SeedResult) -> str:
    rows = []
    for ranker in RANKERS:
        s = result.scores[ranker]["all"]
        if skipped(ranker):
            rows.append([ranker, VECTORS_SKIPPED, "", "", "", ""])
            continue
        rows.append(
            [
                ranker,
                f3(s.recall5()),
                f3(s.mean_ndcg()),
                f3(s.mrr()),
                s.empty_share(),
                f"{s.tally.answerable_empty}/{s.answerable}",
            ]
        )
    return common.table(
        ["ranker", "recall@5", "nDCG@10", "MRR@10", "unanswerable empty", "answerable empty"],
        rows,
    )


def categories(result: SeedResult) -> list[str]:
    found = {q.category for q in result.asked}
    return sorted(found, key=lambda c: (c in NEGATIVE_CATEGORIES, c))


def category_table(result: SeedResult) -> str:
    rows = []
    for category in categories(result):
        group = f"category:{category}"
        row = [category, str(sum(q.category == category for q in result.asked))]
        for ranker in RANKERS:
            s = result.scores[ranker][group]
            if skipped(ranker):
                row.append(VECTORS_SKIPPED)
            elif category in NEGATIVE_CATEGORIES:
                row.append(s.empty_share() + " empty")
            else:
                row.append(f"{f3(s.recall5())} / {f3(s.mean_ndcg())} / {f3(s.mrr())}")
        rows.append(row)
    return common.table(["category", "queries", *RANKERS], rows)


def language_table(result: SeedResult) -> str:
    rows = []
    for group, name in (
        ("language:en", "English"),
        ("language:ko", "Korean"),
        ("cross-language", "cross-language"),
    ):
        s0 = result.scores["product"][group]
        row = [name, str(s0.answerable)]
        for ranker in RANKERS:
            s = result.scores[ranker][group]
            row.append(
                VECTORS_SKIPPED
                if skipped(ranker)
                else f"{f3(s.recall5())} / {f3(s.mean_ndcg())} / {f3(s.mrr())}"
            )
        rows.append(row)
    return common.table(
        ["queries", "answerable", *(f"{r}: R@5 / nDCG / MRR" for r in RANKERS)], rows
    )


def worst(result: SeedResult, ranker: str, n: int = 3) -> list[tuple[str, float]]:
    """The ``n`` answerable categories with the lowest recall@5 for ``ranker``."""
    found = [
        (c, result.scores[ranker][f"category:{c}"].recall5())
        for c in categories(result)
        if c not in NEGATIVE_CATEGORIES
    ]
    return sorted(found, key=lambda item: item[1])[:n]


def summary_lines(results: list[SeedResult]) -> list[str]:
    """The figures side by side for every seed, and the weakest categories."""
    rows = []
    for r in results:
        for ranker in RANKERS:
            s = r.scores[ranker]
            if skipped(ranker):
                rows.append([r.agent_set.seed, ranker, VECTORS_SKIPPED, "", "", "", "", ""])
                continue
            rows.append(
                [
                    r.agent_set.seed,
                    ranker,
                    f3(s["all"].recall5()),
                    f3(s["all"].mean_ndcg()),
                    f3(s["all"].mrr()),
                    s["all"].empty_share(),
                    f3(s["language:en"].recall5()),
                    f3(s["language:ko"].recall5()),
                ]
            )
    lines = [
        common.table(
            [
                "seed",
                "ranker",
                "recall@5",
                "nDCG@10",
                "MRR@10",
                "unanswerable empty",
                "English R@5",
                "Korean R@5",
            ],
            rows,
        ),
        "",
    ]
    for r in results:
        weakest = ", ".join(f"{c} {f3(v)}" for c, v in worst(r, "product"))
        lines.append(
            f"- `{r.agent_set.seed}`: the product's weakest categories (recall@5): {weakest}."
        )
        lines.append(f"- `{r.agent_set.seed}`: {r.latency.line()}")
    return [*lines, ""]


def miss_lines(result: SeedResult, limit: int) -> list[str]:
    """A few of the product's misses, to show what it fails on."""
    misses = result.misses["product"]
    shown = misses[:limit]
    more = (
        f" (and {len(misses) - limit} more; `--show` prints them all)"
        if len(misses) > limit
        else ""
    )
    return [
        f"Product misses on `{result.agent_set.seed}`: {len(misses)}{more}. First {len(shown)}:",
        "",
        *[f"- {line}" for line in shown],
        "",
    ]


def build_report(results: list[SeedResult], smoke: bool) -> str:  # noqa: FBT001 - one flag
    intro = (
        "Our own set, generated by `benchmarks/agentset.py` (standard library, seeded; nothing read from ../shared): "
        "one developer's 90 days over six projects, the four memory types with realistic texts "
        "(decisions, facts, session summaries in the product's layout, shell commands, error outputs with fixes), "
        "about a fifth Korean or mixed. Queries are written as a user asks and never copied from a memory; labels are "
        "graded (2 the answer, 1 related). `tune` is the variant the product may be tuned on, `check` one it was not "
        "(same template kinds, no memory text in common). Product: `transfer.import_file` into a fresh home, "
        "`search(q, limit=10, record=False)`, clock frozen at the set's now (2026-11-30 12:00 UTC). BM25: whitespace "
        "tokens lowercased, no stemming, k1 1.5, b 0.75, over text + explicit tags, in the same run."
    )
    parts = [intro, "", *summary_lines(results)]
    for result in results:
        parts += seed_report(result, smoke)
        parts += miss_lines(result, 8)
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=",".join(agentset.SEEDS), help="comma-separated seeds")
    parser.add_argument("--show", action="store_true", help="print every miss of both rankers")
    parser.add_argument(
        "--smoke", action="store_true", help="first seed, every 5th query; writes nothing"
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    args = parser.parse_args(argv)
    # Never touch a real memory home, whatever a code path resolves on its own.
    os.environ["ARTIBOT_MEMORY_HOME"] = tempfile.mkdtemp(prefix="artibot-agentset-home-")
    seeds = [s for s in args.seeds.split(",") if s]
    plan: list[tuple[str, int]] = (
        [(seeds[0], SMOKE_EVERY)] if args.smoke else [(seed, 1) for seed in seeds]
    )
    results = []
    for seed, every in plan:
        print(f"seed {seed} ...", flush=True)
        results.append(run_seed(seed, every))
    body = build_report(results, args.smoke)
    print(body)
    if args.show:
        show: Callable[[str], None] = print
        for result in results:
            for ranker in RANKERS:
                for line in result.misses[ranker]:
                    show(f"MISS {result.agent_set.seed} {ranker}: {line}")
    if not (args.no_write or args.smoke):
        common.write_section(SECTION, TITLE, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
