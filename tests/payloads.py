"""The hook payloads Claude Code 2.1.332 really sent, as the tests replay them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"


def captured(event: str) -> dict[str, Any]:
    """The first payload Claude Code 2.1.332 sent for ``event`` in the captured session."""
    for line in (FIXTURES / "hook_payloads_run1.jsonl").read_text().splitlines():
        payload: dict[str, Any] = json.loads(line)["stdin"]
        if payload["hook_event_name"] == event:
            return payload
    raise LookupError(event)
