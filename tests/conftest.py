"""Every test gets its own empty memory home."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def memory_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "memory-home"
    monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(home))
    return home
