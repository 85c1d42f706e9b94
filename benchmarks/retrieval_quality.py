"""Retrieval quality of artibot-memory's keyword scoring against plain BM25.

Two benchmarks from the shared material (never shipped with the package):

- devbench: 30 coding-agent memories with tags, 20 queries of which 5 have no right answer and
  must return nothing. recall@5 and MRR@10 over the 15 answerable ones.
- LoCoMo (evidence-corrected): each dialogue turn is one memory (``speaker: text`` plus the
  image caption), searched within its own conversation; questions of categories 1-4 with
  evidence. hit@5 (any evidence turn in the top 5) and MRR@10.

For now this drives ``text.tokenize`` and ``scoring.KeywordIndex`` directly, with recency and
frequency neutral (every memory equally old and equally used), so the ranking is the keyword
part alone. "ours, ranked" is the full ranking; "ours, relevant" keeps only memories that pass
``scoring.is_relevant`` (what search returns), so a question can come back empty.

Run: ``python benchmarks/retrieval_quality.py [--sweep] [--speed]``; ``--sweep`` shows what the
relevance threshold costs, ``--speed`` times tokenising and a 100k-document index. The shared
directory is found through ``$ARTIBOT_SHARED``, else ``../shared`` beside the repository. With
the rank-bm25 package importable, its BM25Okapi is added as a cross-check.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import common

from artibot_memory.recall import scoring
from artibot_memory.text import stemmer
from artibot_memory.text import tokens as text_module
from artibot_memory.text.tokens import tokenize

TAG_REPEAT = 2  # a tag is a deliberate label: it counts as two mentions in the text
BM25_K1, BM25_B = 1.5, 0.75  # rank-bm25's defaults, for the baseline
BASELINE_STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        "a an the is are was were be been being do does did have has had i me my we our you your "
        "what which who how why when where this that of at by for with about to from in on and or",
    )
)

Tokens = Callable[[str], list[str]]
Ranking = Callable[[str], list[tuple[int, float]]]  # query -> (document, score), best first
Builder = Callable[[list[str]], Ranking]  # document texts -> ranking function


# --- rankers: each takes token lists of the documents and returns a query -> ranking function


class PlainBM25:
    """Okapi BM25 with the idf of rank-bm25 (negative idf floored at 0.25 x the mean idf)."""

    def __init__(self, docs: list[list[str]], k1: float = BM25_K1, b: float = BM25_B) -> None:
        self.k1, self.b, self.docs = k1, b, [Counter(d) for d in docs]
        self.lengths = [len(d) for d in docs]
        self.avg = sum(self.lengths) / max(len(docs), 1)
        df = Counter(t for d in docs for t in set(d))
        n = len(docs)
        idf = {t: math.log((n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        floor = 0.25 * sum(idf.values()) / max(len(idf), 1)
        self.idf = {t: (v if v >= 0 else floor) for t, v in idf.items()}
        self.holders: dict[str, list[int]] = {}
        for i, doc in enumerate(self.docs):
            for term in doc:
                self.holders.setdefault(term, []).append(i)

    def rank(self, query: list[str]) -> list[tuple[int, float]]:
        """Documents holding a query term, best first (a document with no term is not found)."""
        scores: dict[int, float] = {}
        for term in query:
            for i in self.holders.get(term, ()):
                tf = self.docs[i][term]
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
                scores[i] = scores.get(i, 0.0) + self.idf[term] * tf * (self.k1 + 1) / (tf + norm)
        return sorted(scores.items(), key=lambda p: (-p[1], p[0]))


def rank_bm25_ranker(tokens: Tokens) -> Builder | None:
    """The same baseline through the rank-bm25 package, when it is installed (cross-check)."""
    try:
        from rank_bm25 import BM25Okapi  # noqa: PLC0415 - optional, never a dependency
    except ImportError:
        return None

    def build(texts: list[str]) -> Ranking:
        index = BM25Okapi([tokens(t) for t in texts])

        def rank(query: str) -> list[tuple[int, float]]:
            scores = index.get_scores(tokens(query))
            found = [(i, s) for i, s in enumerate(scores) if s != 0.0]
            return sorted(found, key=lambda p: (-p[1], p[0]))

        return rank

    return build


def whitespace_tokens(text: str) -> list[str]:
    return text.lower().split()


def word_tokens(text: str) -> list[str]:
    return [w for w in re.findall(r"\w+", text.lower()) if w not in BASELINE_STOPWORDS]


@dataclass
class Ranker:
    name: str
    build: Builder


def bm25_ranker(tokens: Tokens, k1: float = BM25_K1, b: float = BM25_B) -> Builder:
    def build(texts: list[str]) -> Ranking:
        index = PlainBM25([tokens(t) for t in texts], k1, b)
        return lambda q: index.rank(tokens(q))

    return build


def ours_ranker(*, relevant_only: bool) -> Builder:
    def build(texts: list[str]) -> Ranking:
        index = scoring.KeywordIndex([tokenize(t) for t in texts])

        def rank(query: str) -> list[tuple[int, float]]:
            tokens = tokenize(query)
            if relevant_only:
                found = index.scores(tokens)
            else:
                found = {i: m.keyword for i, m in index.matches(tokens).items()}
            # recency and frequency neutral: relevance order is keyword order
            return sorted(found.items(), key=lambda p: (-p[1], p[0]))

        return rank

    return build


RANKERS = [
    Ranker("BM25 whitespace (k1 1.5, b .75)", bm25_ranker(whitespace_tokens)),
    Ranker("BM25 words + stopwords", bm25_ranker(word_tokens)),
    Ranker("BM25 words + stopwords (k1 .9, b .4)", bm25_ranker(word_tokens, k1=0.9, b=0.4)),
    Ranker("ours, ranked", ours_ranker(relevant_only=False)),
    Ranker("ours, relevant (search)", ours_ranker(relevant_only=True)),
]
_CROSS_CHECK = rank_bm25_ranker(whitespace_tokens)
if _CROSS_CHECK:
    RANKERS.insert(1, Ranker("rank-bm25 BM25Okapi whitespace", _CROSS_CHECK))


# --- metrics


@dataclass
class Tally:
    recall5: list[float] = field(default_factory=list)
    hit5: list[float] = field(default_factory=list)
    rr10: list[float] = field(default_factory=list)
    empty_answerable: int = 0
    empty_negative: int = 0
    negatives: int = 0

    def add(self, ranked_ids: list[str], expected: set[str]) -> None:
        if not expected:
            self.negatives += 1
            self.empty_negative += not ranked_ids
            return
        self.empty_answerable += not ranked_ids
        top5 = set(ranked_ids[:5])
        self.recall5.append(len(top5 & expected) / len(expected))
        self.hit5.append(float(bool(top5 & expected)))
        rank = next((k for k, x in enumerate(ranked_ids[:10]) if x in expected), None)
        self.rr10.append(0.0 if rank is None else 1 / (rank + 1))

    @staticmethod
    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0


# --- benchmarks


def devbench_documents(memories: list[dict[str, Any]]) -> list[str]:
    """Content plus tags; the memory's own id tag and the dataset tag are bookkeeping, not text."""
    texts = []
    for memory in memories:
        tags = [t for t in memory["tags"] if t not in (memory["id"], "devbench")]
        texts.append(" ".join([memory["content"], *(tags * TAG_REPEAT)]))
    return texts


def run_devbench(path: Path, ranker: Ranker) -> Tally:
    data = json.loads(path.read_text(encoding="utf-8"))
    memories = data["memories"]
    rank = ranker.build(devbench_documents(memories))
    tally = Tally()
    for query in data["queries"]:
        ids = [memories[i]["id"] for i, _ in rank(query["question"])]
        tally.add(ids, set(query["expected_tags"]))
    return tally


def locomo_turns(conversation: dict[str, Any]) -> list[tuple[str, str]]:
    turns, number = [], 1
    while f"session_{number}_date_time" in conversation:
        for turn in conversation.get(f"session_{number}", []):
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" {turn['blip_caption']}"
            turns.append((turn["dia_id"], text))
        number += 1
    return turns


def run_locomo(shared: Path, ranker: Ranker) -> Tally:
    tally = Tally()
    for sample in _locomo(shared):
        turns = locomo_turns(sample["conversation"])
        rank = ranker.build([text for _, text in turns])
        for qa in sample["qa"]:
            if qa.get("category") not in (1, 2, 3, 4) or not qa.get("evidence"):
                continue
            ids = [turns[i][0] for i, _ in rank(qa["question"])]
            # a few labels hold several ids in one string ("D9:1 D4:4")
            tally.add(
                ids, {e for label in qa["evidence"] for e in re.split(r"[\s;,]+", label) if e}
            )
    return tally


def print_table(title: str, columns: list[str], rows: list[list[str]]) -> None:
    print(f"\n{title}")
    widths = [max(len(c), *(len(r[k]) for r in rows)) for k, c in enumerate(columns)]
    for row in [columns, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


def report_quality(shared: Path) -> None:
    dev_rows, loc_rows = [], []
    for ranker in RANKERS:
        dev = run_devbench(shared / "bench" / "devbench.json", ranker)
        dev_rows.append([
            ranker.name, f"{dev.mean(dev.recall5):.3f}", f"{dev.mean(dev.rr10):.3f}",
            f"{dev.empty_negative}/{dev.negatives}", f"{dev.empty_answerable}/{len(dev.recall5)}",
        ])  # fmt: skip
        loc = run_locomo(shared, ranker)
        loc_rows.append([
            ranker.name, f"{loc.mean(loc.hit5):.3f}", f"{loc.mean(loc.rr10):.3f}",
            f"{loc.empty_answerable}/{len(loc.hit5)}",
        ])  # fmt: skip
    columns = ["ranker", "recall@5", "MRR@10", "negatives empty", "answerable empty"]
    print_table("devbench (15 answerable, 5 negative)", columns, dev_rows)
    print("  reference (shared/README, plain BM25): recall@5 0.922, MRR 0.883")
    columns = ["ranker", "hit@5", "MRR@10", "answerable empty"]
    print_table("LoCoMo, one turn per memory (categories 1-4)", columns, loc_rows)
    print("  reference (shared/README, plain BM25): hit@5 0.578, MRR 0.455")


def report_threshold_sweep(shared: Path) -> None:
    """How the "nothing relevant" gate trades negatives against lost answerable questions."""
    ranker = Ranker("ours, relevant", ours_ranker(relevant_only=True))
    rows, kept = [], scoring.MIN_COVERAGE
    try:
        for gate in (0.0, 0.25, 0.30, 0.35, 0.40, 0.45):
            scoring.MIN_COVERAGE = gate
            dev = run_devbench(shared / "bench" / "devbench.json", ranker)
            loc = run_locomo(shared, ranker)
            rows.append([
                f"{gate:.2f}" + (" (default)" if gate == kept else ""),
                f"{dev.empty_negative}/{dev.negatives}", f"{dev.mean(dev.recall5):.3f}",
                f"{dev.empty_answerable}", f"{loc.mean(loc.hit5):.3f}", f"{loc.mean(loc.rr10):.3f}",
                f"{loc.empty_answerable}",
            ])  # fmt: skip
    finally:
        scoring.MIN_COVERAGE = kept
    columns = ["MIN_COVERAGE", "dev neg empty", "dev recall@5", "dev lost",
               "LoCoMo hit@5", "LoCoMo MRR", "LoCoMo lost"]  # fmt: skip
    print_table("threshold sweep (ours, relevant)", columns, rows)


# --- speed


def synthetic_documents(count: int, seed: int = 7) -> list[list[str]]:
    """Zipf-like vocabulary of 50k words, 8-40 tokens a document: shaped like memories."""
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(50_000)]
    weights = [1 / (k + 1) for k in range(len(vocabulary))]
    sample = rng.choices(vocabulary, weights, k=count * 24)
    docs, at = [], 0
    for _ in range(count):
        size = rng.randint(8, 40)
        docs.append(sample[at : at + size] if at + size <= len(sample) else sample[:size])
        at += size
    return docs


def report_speed(shared: Path, count: int = 100_000, queries: int = 50) -> None:
    """Tokenising real text, then one-shot searches (fresh index, one query) over *count* docs."""
    texts = [text for sample in _locomo(shared) for _, text in locomo_turns(sample["conversation"])]
    words = sum(len(text.split()) for text in texts)
    text_module._chunk_tokens.cache_clear()  # noqa: SLF001 - measure a cold cache
    text_module._chunk_search_tokens.cache_clear()  # noqa: SLF001
    text_module._word_tokens_cached.cache_clear()  # noqa: SLF001
    stemmer.porter_stem.cache_clear()
    cold = _timed(lambda: [tokenize(text) for text in texts])
    warm = _timed(lambda: [tokenize(text) for text in texts])
    print(f"\ntokenize {len(texts):,} LoCoMo turns ({words:,} words): {cold:.2f} s cold cache, "
          f"{warm:.2f} s warm (per 100k words: {cold / words * 1e5:.2f} s / "
          f"{warm / words * 1e5:.2f} s)")  # fmt: skip
    docs = synthetic_documents(count)
    rng = random.Random(11)
    asks = [rng.sample(docs[rng.randrange(count)], 3) for _ in range(queries)]

    def fresh_index_search(ask: list[str]) -> object:
        return scoring.KeywordIndex(docs).scores(ask)

    one_shot = sorted(_timed(partial(fresh_index_search, ask)) for ask in asks)
    index = scoring.KeywordIndex(docs)
    for ask in asks:
        index.scores(ask)
    again = sorted(_timed(partial(index.scores, ask)) for ask in asks)
    print(f"search {count:,} synthetic documents ({sum(map(len, docs)):,} tokens, Zipf over "
          f"50k words), {queries} queries of 3 words from a document: fresh index + query "
          f"median {_ms(one_shot, 0.5)}, p90 {_ms(one_shot, 0.9)}, max {_ms(one_shot, 1.0)}; "
          f"same query on a warm index median {_ms(again, 0.5)}")  # fmt: skip
    print(f"calibration: 10M empty loop iterations take {_timed(_spin):.2f} s on this machine")


def _ms(sorted_timings: list[float], quantile: float) -> str:
    at = min(int(len(sorted_timings) * quantile), len(sorted_timings) - 1)
    return f"{sorted_timings[at] * 1000:.0f} ms"


def _timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _spin() -> None:
    for _ in range(10_000_000):
        pass


def _locomo(shared: Path) -> list[dict[str, Any]]:
    path = shared / "bench" / "locomo10_evidence_corrected.json"
    samples: list[dict[str, Any]] = json.loads(path.read_text("utf-8"))
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", action="store_true", help="also time 100k synthetic documents")
    parser.add_argument("--sweep", action="store_true", help="also sweep the relevance threshold")
    args = parser.parse_args(argv)
    shared = common.shared_dir()
    if not (shared / "bench").is_dir():
        print(common.missing_shared_message("bench/"))  # a newcomer has no shared/: not an error
        return 0
    report_quality(shared)
    if args.sweep:
        report_threshold_sweep(shared)
    if args.speed:
        report_speed(shared)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
