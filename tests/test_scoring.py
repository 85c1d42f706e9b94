from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artibot_memory.recall import scoring
from artibot_memory.recall.scoring import (
    KeywordIndex,
    ScoreParts,
    frequency,
    is_relevant,
    recency,
    relevance,
)
from artibot_memory.text.tokens import tokenize

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc)

MEMORIES = [
    "Use pnpm, not npm, in this repository",
    "Deployment runs from the main branch through GitHub Actions",
    "The storage configuration lives in config/settings.toml",
    "pytest fails with ModuleNotFoundError: run pip install -e . first",
    "Database locked errors: set journal_mode=WAL for concurrent access",
    "배포는 main 브랜치에서 GitHub Actions로 한다",
    "The storage backend is SQLite; the storage layer is in store.py",
]


@pytest.fixture
def index() -> KeywordIndex:
    return KeywordIndex([tokenize(text) for text in MEMORIES])


def search(index: KeywordIndex, query: str) -> list[int]:
    found = index.scores(tokenize(query))
    return sorted(found, key=lambda doc: -found[doc])


@pytest.mark.parametrize(
    ("query", "best"),
    [
        pytest.param("which package manager, pnpm or npm?", 0, id="preference"),
        pytest.param("why does pytest fail with ModuleNotFoundError", 3, id="error"),
        pytest.param("database is locked", 4, id="error-words-inflected"),
        pytest.param("how do we deploy?", 1, id="stemmed-verb"),
        pytest.param("배포를 어떻게 해?", 5, id="korean-particle"),
        pytest.param("where is settings.toml", 2, id="file-name"),
    ],
)
def test_a_related_query_ranks_the_right_memory_first(
    index: KeywordIndex, query: str, best: int
) -> None:
    assert search(index, query)[0] == best


@pytest.mark.parametrize(
    "query",
    [
        pytest.param("How does the billing system handle payments?", id="unknown-topic"),
        pytest.param("What Kubernetes deployment configuration do we use?", id="shares-weak-words"),
        pytest.param("mobile app release checklist", id="no-shared-word"),
    ],
)
def test_an_unrelated_query_returns_nothing(index: KeywordIndex, query: str) -> None:
    assert index.scores(tokenize(query)) == {}


@pytest.mark.parametrize(
    "query",
    [
        pytest.param("", id="empty"),
        pytest.param("   ", id="blank"),
        pytest.param("how do we do it, and why?", id="stopwords-only"),
        pytest.param("2023 10 31", id="numbers-no-memory-holds"),
    ],
)
def test_a_query_without_searchable_words_returns_nothing(index: KeywordIndex, query: str) -> None:
    assert index.scores(tokenize(query)) == {}


def test_an_empty_index_returns_nothing() -> None:
    assert KeywordIndex([]).scores(["pnpm"]) == {}
    assert KeywordIndex([[], []]).scores(["pnpm"]) == {}


def test_a_number_no_memory_holds_does_not_sink_a_match(index: KeywordIndex) -> None:
    assert search(index, "pnpm in 2024") == search(index, "pnpm")


def test_scores_only_documents_holding_a_query_term(index: KeywordIndex) -> None:
    query = tokenize("storage configuration")
    holders = {i for i, text in enumerate(MEMORIES) if set(tokenize(text)) & set(query)}
    assert set(index.scores(query)) <= holders
    assert set(index.matches(query)) == holders


def test_a_memory_with_no_keyword_match_is_never_a_hit_however_fresh_or_used() -> None:
    index = KeywordIndex([["pnpm", "instal"], ["docker", "build"]])
    hits = index.scores(["pnpm"])
    assert list(hits) == [0]
    # the caller ranks only what the index returned: memory 1 never gets its recency counted
    assert 1 not in hits
    assert all(keyword > 0.0 for keyword in hits.values())


def test_a_rarer_term_outranks_a_common_term() -> None:
    docs = [["storag", "backend"], ["storag", "layer"], ["storag", "wal"], ["storag", "cach"]]
    found = KeywordIndex(docs).scores(["storag", "wal"])
    assert max(found, key=lambda doc: found[doc]) == 2  # the doc holding "wal"


def test_more_of_the_query_covered_scores_higher(index: KeywordIndex) -> None:
    found = index.matches(tokenize("storage backend SQLite"))
    assert found[6].keyword > found[2].keyword
    assert found[6].coverage > found[2].coverage


@given(
    st.lists(st.lists(st.sampled_from("abcdefghij"), max_size=12), min_size=1, max_size=30),
    st.lists(st.sampled_from("abcdefghijxyz"), max_size=6),
)
def test_keyword_scores_stay_within_zero_and_one(docs: list[list[str]], query: list[str]) -> None:
    index = KeywordIndex(docs)
    for match in index.matches(query).values():
        assert 0.0 < match.keyword <= 1.0
        assert 0.0 < match.coverage <= 1.0 + 1e-9
    assert all(0.0 < keyword <= 1.0 for keyword in index.scores(query).values())


@given(
    st.lists(st.lists(st.sampled_from("abcdefghij"), max_size=12), min_size=1, max_size=30),
    st.lists(st.sampled_from("abcdefghijxyz"), max_size=6),
)
def test_the_fast_path_agrees_with_filtering_every_match(
    docs: list[list[str]], query: list[str]
) -> None:
    index = KeywordIndex(docs)
    matches = index.matches(query)
    best = max((m.coverage for m in matches.values()), default=0.0)
    expected = {i: m.keyword for i, m in matches.items() if is_relevant(m.coverage, best)}
    assert index.scores(query) == pytest.approx(expected)


@given(
    st.lists(
        st.lists(st.sampled_from(["a", "ab", "abc", "b", "ba", "a b", "", "x\ny"]), max_size=8),
        max_size=20,
    ),
    st.sampled_from(["a", "ab", "abc", "b", "ba", "a b", "", "x\ny", "zz"]),
)
def test_postings_count_every_occurrence_of_exactly_that_token(
    docs: list[list[str]], token: str
) -> None:
    expected = {i: doc.count(token) for i, doc in enumerate(docs) if token in doc}
    assert KeywordIndex(docs).postings(token) == expected


def test_relevance_puts_a_newer_memory_above_an_older_one_with_the_same_text() -> None:
    keyword = KeywordIndex([["pnpm"], ["pnpm"]]).scores(["pnpm"])
    newer = relevance(keyword[0], recency(NOW - timedelta(days=1), NOW), frequency(0))
    older = relevance(keyword[1], recency(NOW - timedelta(days=60), NOW), frequency(0))
    assert keyword[0] == keyword[1]
    assert newer > older


def test_relevance_puts_a_used_memory_above_an_unused_one_with_the_same_text() -> None:
    keyword = KeywordIndex([["pnpm"], ["pnpm"]]).scores(["pnpm"])[0]
    fresh = recency(NOW, NOW)
    assert relevance(keyword, fresh, frequency(12)) > relevance(keyword, fresh, frequency(0))


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        pytest.param(timedelta(0), 1.0, id="now"),
        pytest.param(timedelta(days=45), 0.5, id="half-way"),
        pytest.param(timedelta(days=90), 0.0, id="horizon"),
        pytest.param(timedelta(days=400), 0.0, id="long-ago"),
        pytest.param(-timedelta(days=3), 1.0, id="future-clamps"),
    ],
)
def test_recency_decays_linearly_over_ninety_days(age: timedelta, expected: float) -> None:
    assert recency(NOW - age, NOW) == pytest.approx(expected)


def test_recency_never_rises_with_age() -> None:
    values = [recency(NOW - timedelta(hours=h), NOW) for h in range(0, 24 * 120, 7)]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize(
    ("uses", "expected"),
    [
        pytest.param(0, 0.0, id="never"),
        pytest.param(-1, 0.0, id="negative"),
        pytest.param(50, 1.0, id="saturation"),
        pytest.param(10_000, 1.0, id="beyond"),
    ],
)
def test_frequency_is_zero_unused_and_one_at_saturation(uses: int, expected: float) -> None:
    assert frequency(uses) == pytest.approx(expected)


def test_frequency_rises_with_each_use_and_fastest_at_first() -> None:
    values = [frequency(n) for n in range(60)]
    assert values == sorted(values)
    assert values[1] - values[0] > values[11] - values[10] > 0


def test_relevance_weighs_keyword_recency_frequency_sixty_twenty_five_fifteen() -> None:
    assert relevance(1, 0, 0) == pytest.approx(0.60)
    assert relevance(0, 1, 0) == pytest.approx(0.25)
    assert relevance(0, 0, 1) == pytest.approx(0.15)


def test_score_parts_explain_a_total() -> None:
    parts = ScoreParts.of(keyword=0.5, recency=1.0, frequency=0.0)
    assert parts.total == pytest.approx(0.55)
    with pytest.raises(AttributeError):
        parts.total = 1.0  # type: ignore[misc]


def test_the_relevance_gate_needs_both_a_covered_query_and_a_covered_memory() -> None:
    assert is_relevant(scoring.MIN_COVERAGE, scoring.MIN_COVERAGE)
    assert not is_relevant(0.9, scoring.MIN_COVERAGE - 0.01)
    assert not is_relevant(scoring.MIN_DOC_COVERAGE - 0.01, 0.9)
