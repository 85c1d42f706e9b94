"""Known errors and their fixes, read by the hook fast path (standard library only).

When a Bash call fails with an error whose signature is already in
``error-patterns.json`` with a recorded fix, PostToolUseFailure hands that fix back to
Claude at once, as quoted, dated, attributed data. The store is read without pydantic
and without the lock (stores are replaced atomically); a missing, unreadable, corrupt or
newer file means no match.

>>> recall_fix("", "/src/shop") is None
True
"""

from __future__ import annotations

import json
import os
import re

from artibot_memory.core import clock
from artibot_memory.core.paths import home_dir
from artibot_memory.store.envelope import current_entries
from artibot_memory.store.table import MemoryType, spec_for

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

ERROR_STORE = spec_for(MemoryType.ERROR).filename
MAX_STORE_BYTES = 8 * 1024 * 1024
CONTEXT_CHARS = 1_500
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def recall_fix(signature: str, cwd: str | None, home: str | None = None) -> dict[str, Any] | None:
    """Return the PostToolUseFailure output that recalls a known fix, or None."""
    fix = find_fix(signature, cwd, home)
    return None if fix is None else _fix_output(fix)


def find_fix(signature: str, cwd: str | None, home: str | None = None) -> dict[str, Any] | None:
    """Return the stored error with this signature and a fix, newest (this project first).

    Reads ``error-patterns.json`` read-only and without the lock (stores are replaced
    atomically); a missing, unreadable, corrupt or newer file means no match.
    """
    if not signature:
        return None
    now = clock.now()
    matches = [
        entry
        for entry in _error_entries(os.path.join(home or home_dir(create=False), ERROR_STORE))
        if _usable(entry, signature, now)
    ]
    if not matches:
        return None
    best: dict[str, Any] = max(
        matches, key=lambda e: (_in_project(e.get("project"), cwd), str(e.get("last_seen")))
    )
    return best


def _error_entries(path: str) -> list[Any]:
    try:
        if os.stat(path).st_size > MAX_STORE_BYTES:
            return []
        with open(path, "rb") as handle:
            document = json.loads(handle.read())
    except (OSError, ValueError, RecursionError):
        return []
    return current_entries(document)


def _usable(entry: object, signature: str, now: datetime) -> bool:
    if not isinstance(entry, dict) or entry.get("signature") != signature:
        return False
    resolution = entry.get("resolution")
    return (
        entry.get("type") == "error"
        and isinstance(resolution, str)
        and bool(resolution.strip())
        and entry.get("state") != "superseded"
        and not _expired(entry.get("expires_at"), now)
    )


def _expired(expires_at: object, now: datetime) -> bool:
    when = clock.parse_time(expires_at)
    return when is not None and when <= now


def _in_project(project: object, cwd: str | None) -> bool:
    if not isinstance(project, str) or not project or not cwd:
        return False
    return cwd == project or cwd.startswith(project.rstrip("/") + "/")


def _fix_output(entry: dict[str, Any]) -> dict[str, Any]:
    """Return the hook answer: the stored fix as quoted, dated, attributed data."""
    from artibot_memory.text.framing import quote  # noqa: PLC0415 - known failures only

    text = f"{_attribution(entry)}: this error was fixed before by: "
    text += quote(entry["resolution"], CONTEXT_CHARS - len(text) - 2)
    return {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUseFailure",
            "additionalContext": text[:CONTEXT_CHARS],
        }
    }


def _attribution(entry: dict[str, Any]) -> str:
    """``artibot-memory record err-1 (last seen 2026-11-12 in project shop, seen 3 times)``."""
    from artibot_memory.text.framing import clean  # noqa: PLC0415 - known failures only

    last_seen = str(entry.get("last_seen") or "")
    parts = [f"last seen {last_seen[:10]}" if _DATE.match(last_seen) else "date unknown"]
    project = entry.get("project")
    if isinstance(project, str) and project.strip("/"):
        parts.append(f"in project {clean(os.path.basename(project.rstrip('/')), 80)}")
    count = entry.get("count")
    seen = f", seen {count} times" if isinstance(count, int) and count > 1 else ""
    return (
        f"artibot-memory record {clean(str(entry.get('id') or '?'), 40)} ({' '.join(parts)}{seen})"
    )
