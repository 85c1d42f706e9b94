"""The coding-agent retrieval set of benchmarks/agentset.py: deterministic, big enough, honest.

benchmarks/ is not a package and no other test imports from it, so its folder is put on
``sys.path`` here, for this module only (the benchmarks run as scripts from that folder).
"""

from __future__ import annotations

import json
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.api.memories import clean_text, list_memories
from artibot_memory.api.transfer import import_file

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import agentset  # noqa: E402 - needs the path above

TUNE, CHECK = agentset.SEEDS


@pytest.fixture(scope="module")
def sets() -> dict[str, agentset.AgentSet]:
    return {seed: agentset.generate(seed) for seed in agentset.SEEDS}


def test_the_same_seed_gives_the_same_set(sets: dict[str, agentset.AgentSet]) -> None:
    again = agentset.generate(TUNE)
    assert again.to_json() == sets[TUNE].to_json()


def test_the_two_seeds_share_no_memory_text_and_no_project(
    sets: dict[str, agentset.AgentSet],
) -> None:
    tune, check = sets[TUNE], sets[CHECK]
    assert tune.to_json() != check.to_json()
    assert not {m.text for m in tune.memories} & {m.text for m in check.memories}
    assert not set(tune.projects) & set(check.projects)


@pytest.mark.parametrize("seed", agentset.SEEDS)
def test_the_set_meets_the_minimums(sets: dict[str, agentset.AgentSet], seed: str) -> None:
    agent_set = sets[seed]
    queries = agent_set.queries
    assert len(agent_set.memories) >= 300
    assert len(queries) >= 120
    assert sum(q.lang == "ko" for q in queries) >= 0.2 * len(queries)
    assert sum(not q.answerable for q in queries) >= 25
    korean_memories = sum(m.lang == "ko" for m in agent_set.memories)
    assert 0.18 * len(agent_set.memories) <= korean_memories <= 0.3 * len(agent_set.memories)
    assert {m.record["type"] for m in agent_set.memories} == {
        "preference",
        "context",
        "command",
        "error",
    }


@pytest.mark.parametrize("seed", agentset.SEEDS)
def test_every_answerable_query_has_an_answer_among_the_memories(
    sets: dict[str, agentset.AgentSet], seed: str
) -> None:
    refs = {m.ref for m in sets[seed].memories}
    for query in sets[seed].queries:
        assert set(query.relevant) <= refs, query.qid
        assert set(query.relevant.values()) <= {agentset.GRADE_RELATED, agentset.GRADE_ANSWER}
        if query.answerable:
            assert agentset.GRADE_ANSWER in query.relevant.values(), query.qid
        assert query.category, query.qid


@pytest.mark.parametrize("seed", agentset.SEEDS)
def test_memory_texts_are_unique_and_no_query_is_copied_from_one(
    sets: dict[str, agentset.AgentSet], seed: str
) -> None:
    texts = [m.text for m in sets[seed].memories]
    assert len(set(texts)) == len(texts)
    assert len({clean_text(t) for t in texts}) == len(texts)  # still unique once stored
    lowered = [t.casefold() for t in texts]
    for query in sets[seed].queries:
        assert not any(query.text.casefold() in text for text in lowered), query.text


@pytest.mark.parametrize("seed", agentset.SEEDS)
def test_every_memory_is_dated_in_the_90_days_before_now(
    sets: dict[str, agentset.AgentSet], seed: str
) -> None:
    now = agentset.iso(sets[seed].now)
    earliest = agentset.iso(sets[seed].now - timedelta(days=90))
    for memory in sets[seed].memories:
        assert earliest <= memory.record["created_at"] <= now


def test_every_memory_imports_as_its_own_memory(
    sets: dict[str, agentset.AgentSet], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All of them through the product's import: none invalid, merged, or expired on arrival."""
    home = tmp_path / "agentset-home"
    monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(home))
    agent_set = sets[TUNE]
    lines = [json.dumps(record, ensure_ascii=False) for record in agent_set.records()]
    with freeze_time(agent_set.now):
        report = import_file(lines, "agentset.jsonl")
        stored = list_memories()
    assert report.skipped == []
    assert report.expired_on_arrival == 0
    assert report.imported == len(lines)
    assert {m.text for m in stored} == {clean_text(m.text) for m in agent_set.memories}
    assert len(stored) == len(agent_set.memories)
