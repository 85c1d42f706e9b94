"""The relevance of a memory to a query, as pure arithmetic (standard library only).

The formula (seed 003), every part in [0, 1]::

    relevance = 0.60 * keyword + 0.25 * recency + 0.15 * frequency

    keyword   = 1 - exp(-2 * bm25 / reference)                        (KeywordIndex)
      bm25      = sum over query terms t the memory holds of
                  idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / average_length))
      reference = sum over all query terms of idf(t): the bm25 of an average-length memory
                  holding every query term once, so bm25 / reference is absolute, not relative
                  to the best hit; a perfect match scores about 0.86, half the query's weight 0.63
      idf(t)    = ln(1 + (N - n_t + 0.5) / (n_t + 0.5)), highest for a word no memory holds
    recency   = 1 - age_days / 90, clamped to [0, 1]                  (linear)
    frequency = ln(1 + uses) / ln(1 + 50), clamped to [0, 1]          (log, 1 at 50 uses)

A memory that shares no term with the query is never scored, so recency and frequency alone can
never make a hit. "Nothing relevant" is decided on coverage, the share of the query's idf mass a
memory holds: when even the best memory covers less than ``MIN_COVERAGE`` of it the query is not
about anything stored (a question about Kubernetes matching only "deployment" and "configuration"
returns nothing) and when a memory covers less than ``MIN_DOC_COVERAGE`` it is noise. A number no
memory holds is left out of the query: dates and versions qualify a question more often than they
name its topic. ``benchmarks/retrieval_quality.py --sweep`` shows what MIN_COVERAGE trades;
docs/RANKING.md gives every constant with what it was measured against.

>>> index = KeywordIndex([["pnpm", "instal"], ["pytest", "fail", "import"], ["pnpm", "lock"]])
>>> list(index.scores(["pytest", "import"]))
[1]
>>> index.scores(["kubernet", "pnpm"])
{}
>>> round(relevance(keyword=1.0, recency=1.0, frequency=0.0), 2)
0.85
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from dataclasses import dataclass

TYPE_CHECKING = False  # typing costs an import on every read
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from datetime import datetime

__all__ = [
    "FREQUENCY_WEIGHT",
    "KEYWORD_WEIGHT",
    "MIN_COVERAGE",
    "MIN_DOC_COVERAGE",
    "RECENCY_WEIGHT",
    "KeywordIndex",
    "Match",
    "ScoreParts",
    "frequency",
    "is_relevant",
    "recency",
    "relevance",
]

KEYWORD_WEIGHT = 0.60
RECENCY_WEIGHT = 0.25
FREQUENCY_WEIGHT = 0.15
MIN_COVERAGE = 0.35  # the best memory must hold this share of the query's idf mass ...
MIN_DOC_COVERAGE = 0.10  # ... and every memory returned at least this share
SATURATION = 2.0  # keyword = 1 - exp(-SATURATION * bm25 / reference)
K1, B = 0.9, 0.4  # Anserini's BM25 defaults, better than 1.2/0.75 on short texts like memories


@dataclass(frozen=True)
class Match:
    """How one memory matches a query: its keyword score and the idf share it covers."""

    keyword: float
    coverage: float


class KeywordIndex:
    """BM25 over tokenised memories; a query touches only the postings of its own terms.

    Documents are token lists (text and tags, already through ``text.tokenize``; repeat a tag to
    weigh it more); a document's id is its position. The index keeps a reference to them, so
    they must not change afterwards.

    The postings of a term (document → term frequency, so also its document frequency) are
    found the first time a query asks for the term, by ``str.find`` over the documents joined
    into one string, and kept. Search runs in short-lived processes that build an index for one
    query: filing every token of every document up front costs far more than the few terms a
    query has, and a C-level string search is ten times quicker than a Python loop.

    >>> index = KeywordIndex([["git", "rebas"], ["git", "commit", "hook"], ["docker", "build"]])
    >>> scores = index.scores(["commit", "hook"])
    >>> list(scores), 0.0 < scores[1] <= 1.0
    ([1], True)
    """

    def __init__(
        self,
        documents: Sequence[Sequence[str]],
        *,
        k1: float = K1,
        b: float = B,
        held_only: bool = False,
    ) -> None:
        self.size = len(documents)
        self.held_only = held_only  # a query word no document holds is left out, not only a number
        self._documents = documents
        self._k1 = k1
        self._postings: dict[str, dict[int, int]] = {}
        self._corpus: str | None = None
        self._starts: list[int] = []
        self._lengths = lengths = [len(doc) for doc in documents]
        average = (sum(lengths) / self.size or 1.0) if self.size else 1.0
        # k1 * (1 - b + b * length / average), once per document rather than once per posting
        self._length_norms = [k1 * (1 - b + b * n / average) for n in lengths]

    def postings(self, token: str) -> dict[int, int]:
        """Document id → term frequency for *token*, found on first use and kept.

        >>> KeywordIndex([["a", "b", "a"], ["c"], ["a"]]).postings("a")
        {0: 2, 2: 1}
        """
        found = self._postings.get(token)
        if found is None:
            found = self._postings[token] = self._find(token)
        return found

    def postings_among(self, token: str, documents: Sequence[int]) -> dict[int, int]:
        """Return the postings of *token* in *documents* only (an index that can reads no more)."""
        del documents
        return self.postings(token)

    def _find(self, token: str) -> dict[int, int]:
        """Search the documents joined into one string: str.find runs in C, a loop would not."""
        if self._corpus is None:
            self._corpus, self._starts = _joined(self._documents, self._lengths)
        if not self._corpus or not token or any(char.isspace() for char in token):
            docs = self._documents  # a token holds a space: the joined string would lie
            return {i: operator.countOf(doc, token) for i, doc in enumerate(docs) if token in doc}
        corpus, starts, needle = self._corpus, self._starts, f" {token} "
        found: dict[int, int] = {}
        at = corpus.find(needle)
        while at >= 0:
            doc_id = bisect.bisect_right(starts, at) - 1
            found[doc_id] = found.get(doc_id, 0) + 1
            at = corpus.find(needle, at + len(needle) - 1)  # the next token shares the space
        return found

    def idf(self, token: str) -> float:
        """Inverse document frequency; highest for a token no document holds.

        >>> index = KeywordIndex([["a"], ["a", "b"]])
        >>> index.idf("a") < index.idf("b") < index.idf("zzz")
        True
        """
        holders = self.holders(token)
        return math.log(1 + (self.size - holders + 0.5) / (holders + 0.5))

    def holders(self, token: str) -> int:
        """Return how many documents hold *token* (its document frequency)."""
        return len(self.postings(token))

    def matches(self, query_tokens: Iterable[str]) -> dict[int, Match]:
        """Every document holding at least one query term, with its keyword score and coverage.

        The full picture, for explaining and benchmarking; ``scores`` is the fast path.

        >>> found = KeywordIndex([["pytest", "fixtur"], ["billing"]]).matches(["pytest", "mobil"])
        >>> list(found), round(found[0].keyword, 2), round(found[0].coverage, 2)
        ([0], 0.41, 0.28)
        """
        terms = self._weighted_terms(query_tokens)
        reference = sum(weight for _, weight in terms)
        raw: dict[int, float] = {}
        covered: dict[int, float] = {}
        for token, weight in terms:
            self._accumulate(token, weight, raw, covered)
        return {i: Match(_keyword(raw[i], reference), c / reference) for i, c in covered.items()}

    def scores(self, query_tokens: Iterable[str]) -> dict[int, float]:
        """Keyword score in (0, 1] of each relevant document; empty when nothing is relevant.

        >>> index = KeywordIndex([["billing", "invoic"], ["pytest", "fixtur"]])
        >>> {i: round(s, 2) for i, s in index.scores(["pytest", "fixtur"]).items()}
        {1: 0.86}
        >>> index.scores(["kubernet", "helm", "fixtur"])
        {}
        """
        terms = self._weighted_terms(query_tokens)
        reference = sum(weight for _, weight in terms)
        raw: dict[int, float] = {}
        covered: dict[int, float] = {}
        unseen = reference  # idf mass of the terms not yet added
        for token, weight in terms:  # rarest first
            # Once the terms left cannot lift a new document to MIN_DOC_COVERAGE, they only
            # add to documents already found: a common word's long postings are not walked.
            known_only = unseen < MIN_DOC_COVERAGE * reference
            self._accumulate(token, weight, raw, covered, known_only=known_only)
            unseen -= weight
        best = max(covered.values(), default=0.0) / (reference or 1.0)
        return {
            doc_id: _keyword(raw[doc_id], reference)
            for doc_id, mass in covered.items()
            if is_relevant(mass / reference, best)
        }

    def _weighted_terms(self, query_tokens: Iterable[str]) -> list[tuple[str, float]]:
        """Return the unique query terms with their idf, rarest first, minus unheld numbers.

        A date or version in a question usually qualifies it rather than names its topic.
        """
        unique = dict.fromkeys(query_tokens)
        kept = [t for t in unique if not ((self.held_only or t.isdigit()) and not self.holders(t))]
        return sorted(((t, self.idf(t)) for t in kept), key=lambda term: -term[1])

    def _accumulate(
        self,
        token: str,
        weight: float,
        raw: dict[int, float],
        covered: dict[int, float],
        *,
        known_only: bool = False,
    ) -> None:
        """Add one query term's BM25 share and idf weight to the documents holding it."""
        gain = weight * (self._k1 + 1)
        postings = self.postings_among(token, list(raw)) if known_only else self.postings(token)
        candidates = [i for i in raw if i in postings] if known_only else list(postings)
        for doc_id in candidates:
            tf = postings[doc_id]
            raw[doc_id] = raw.get(doc_id, 0.0) + gain * tf / (tf + self._norm(doc_id))
            covered[doc_id] = covered.get(doc_id, 0.0) + weight

    def _norm(self, doc_id: int) -> float:
        """Return ``k1 * (1 - b + b * length / average)`` for a document."""
        return self._length_norms[doc_id]


def _joined(documents: Sequence[Sequence[str]], lengths: list[int]) -> tuple[str, list[int]]:
    r"""All documents in one string, each token between spaces, and where each document starts.

    Returns ("", []) when a token itself holds a space, which would make false matches.

    >>> _joined([["a", "b"], [], ["c"]], [2, 0, 1])
    (' a b \n  \n c ', [0, 6, 9])
    >>> _joined([["a b"]], [1])
    ('', [])
    """
    lines = [" ".join(doc) for doc in documents]
    corpus = " " + " \n ".join(lines) + " "
    separators = 2 * len(lines) + sum(max(n - 1, 0) for n in lengths)
    if corpus.count(" ") != separators:
        return "", []
    starts = list(itertools.accumulate((len(line) + 3 for line in lines[:-1]), initial=0))
    return corpus, starts


def _keyword(bm25: float, reference: float) -> float:
    """Map BM25 onto [0, 1] against the query's reference score, keeping the order."""
    return 1.0 - math.exp(-SATURATION * bm25 / reference) if reference > 0 else 0.0


def is_relevant(coverage: float, best_coverage: float) -> bool:
    """Whether a matching memory is worth returning, given the best coverage of the query.

    >>> is_relevant(0.9, 0.9), is_relevant(0.2, 0.9), is_relevant(0.3, 0.3), is_relevant(0.05, 0.9)
    (True, True, False, False)
    """
    return best_coverage >= MIN_COVERAGE and coverage >= MIN_DOC_COVERAGE


def recency(created_or_last_seen: datetime, now: datetime, horizon_days: float = 90) -> float:
    """Linear decay from 1.0 now to 0.0 at *horizon_days*; a future date counts as now.

    Linear rather than exponential so recency reaches zero where the 90-day TTL of contexts and
    errors ends, and a memory loses the same amount every day.

    >>> from datetime import datetime, timedelta
    >>> t = datetime(2025, 1, 1)
    >>> recency(t, t), recency(t - timedelta(days=45), t), recency(t - timedelta(days=200), t)
    (1.0, 0.5, 0.0)
    """
    age_days = (now - created_or_last_seen).total_seconds() / 86400
    if horizon_days <= 0:
        return 1.0 if age_days <= 0 else 0.0
    return min(1.0, max(0.0, 1.0 - age_days / horizon_days))


def frequency(access_count: int, saturation: int = 50) -> float:
    """Log-scaled use count: 0 for never used, 1 from *saturation* uses on.

    >>> frequency(0), round(frequency(7), 2), frequency(50), frequency(500)
    (0.0, 0.53, 1.0, 1.0)
    """
    if access_count <= 0:
        return 0.0
    return min(1.0, math.log1p(access_count) / math.log1p(max(saturation, 1)))


def relevance(keyword: float, recency: float, frequency: float) -> float:
    """Return the weighted sum 0.60 keyword + 0.25 recency + 0.15 frequency.

    >>> relevance(1.0, 1.0, 1.0), relevance(0.0, 0.0, 0.0)
    (1.0, 0.0)
    """
    return KEYWORD_WEIGHT * keyword + RECENCY_WEIGHT * recency + FREQUENCY_WEIGHT * frequency


@dataclass(frozen=True)
class ScoreParts:
    """One memory's score, part by part, to explain why it ranked where it did.

    >>> ScoreParts.of(keyword=0.5, recency=1.0, frequency=0.0)
    ScoreParts(keyword=0.5, recency=1.0, frequency=0.0, total=0.55)
    """

    keyword: float
    recency: float
    frequency: float
    total: float

    @classmethod
    def of(cls, keyword: float, recency: float, frequency: float) -> ScoreParts:
        """Bundle the three parts with their relevance."""
        return cls(keyword, recency, frequency, round(relevance(keyword, recency, frequency), 10))
