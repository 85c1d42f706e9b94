"""The generated sets of issue 24 (tests/capture_sets.py): facts said in passing or plainly,
and decisions with the reason said after them, held to the prompt hook's targets on each
half, English and Korean alike."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from capture_sets import HELD_OUT, TUNED, Row, decision_rows, fact_rows, found_facts, score

from artibot_memory.capture.decisions import find_decisions

TARGET_PRECISION, TARGET_RECALL = 0.95, 0.85
SETS: dict[str, tuple[Callable[[], list[Row]], Callable[[str], list[str]]]] = {
    "facts": (fact_rows, found_facts),
    "decisions": (decision_rows, find_decisions),
}


@pytest.mark.parametrize("name", list(SETS))
@pytest.mark.parametrize("half", [TUNED, HELD_OUT])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_each_half_of_each_set_meets_the_targets(name: str, half: str, lang: str) -> None:
    rows, reader = SETS[name]
    figures = score(rows(), reader)[(half, lang)]
    assert figures.precision >= TARGET_PRECISION, figures.misses
    assert figures.recall >= TARGET_RECALL, figures.misses


@pytest.mark.parametrize("name", list(SETS))
def test_the_sets_are_the_same_on_every_run_and_hold_negatives_and_korean(name: str) -> None:
    rows = SETS[name][0]()
    assert rows == SETS[name][0]()
    for half in (TUNED, HELD_OUT):
        part = [row for row in rows if row.half == half]
        assert sum(row.expect is None for row in part) >= 0.2 * len(part)
        assert sum(row.lang == "ko" for row in part) >= 0.3 * len(part)
