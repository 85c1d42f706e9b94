"""A SIGKILLed import never loses a memory or leaves a store that does not load.

A few trials of ``benchmarks/crash_safety.py`` (which runs 50 and prints the figures):
``artibot-memory import`` runs as a real process and is killed at a seeded random moment
after it takes its first store lock; then every store must load, keep every memory it held
before, and hold either none or all of its share of the import.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "crash_safety.py"

pytestmark = pytest.mark.slow


def load_benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("crash_safety", BENCHMARK)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # dataclasses look their module up there
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


def test_an_import_killed_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    crash_safety = load_benchmark()
    trials = crash_safety.run_trials(
        trials=4, seed=4, lines=400, per_store=10, max_delay_ms=150.0, workdir=tmp_path
    )
    assert [(t.number, t.failures) for t in trials] == [(n, []) for n in range(1, 5)]


def test_the_trial_checks_catch_a_lost_memory_and_a_half_import(tmp_path: Path) -> None:
    crash_safety = load_benchmark()
    home = tmp_path / "home"
    crash_safety.seed_home(home, per_store=3)
    before = crash_safety.snapshot(home)
    store = home / "error-patterns.json"
    store.write_text('{"schema_version": 1, "entries": []}')
    new = Counter({"preference": 5, "context": 5, "command": 5, "error": 5})
    _, failures = crash_safety.check_home(home, before, new)
    assert "error-patterns.json lost 3 memories stored before" in failures
    store.write_text("{")
    _, failures = crash_safety.check_home(home, before, new)
    assert any(f.startswith("error-patterns.json does not load") for f in failures)
