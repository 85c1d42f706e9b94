"""Known errors and their fixes, read by the hook fast path (standard library only).

When a Bash call fails with an error whose signature is already in ``error-patterns.json``,
PostToolUseFailure tells Claude at once, as quoted, dated, attributed data:

- a recorded fix: what fixed it, when, where and how sure (how the fix was established,
  its confidence, what became of it when recalled before), e.g. ``fixed on 2026-11-30 in
  quokka-app: "…"; explained by the assistant, not re-verified (confidence 0.60)``;
- else, an earlier sighting in this project that nobody closed: one line (``seen 3× since
  2026-11-02, never resolved``);
- nothing for an error never seen.

A fix is offered only for the same signature: this project's first; another project's
only when the signature is specific enough (:func:`~artibot_memory.text.signature.is_specific`)
to be the same error there, said so in words, and with that project's absolute paths
reduced to file names. The fast hook journals what it offered (:data:`RECALL_EVENT`), so
the ingest can learn from what the session did next.

The store is read without pydantic and without the lock (stores are replaced atomically);
a missing, unreadable, corrupt or newer file means no match.

>>> recall_fix("", "/src/shop") is None
True
"""

from __future__ import annotations

import json
import os
import re

from artibot_memory.core import clock
from artibot_memory.core.paths import home_dir
from artibot_memory.store.envelope import current_entries, entries_holding
from artibot_memory.store.table import MemoryType, spec_for

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime
    from typing import Any

ERROR_STORE = spec_for(MemoryType.ERROR).filename
RECALL_EVENT = "Recalled"  # the journal record of a fix offered to a failing call
MAX_STORE_BYTES = 8 * 1024 * 1024
CONTEXT_CHARS = 1_500
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
# An absolute path (POSIX, home-relative or Windows), reduced to its last part elsewhere.
_ABSOLUTE_PATH = re.compile(r"(?<![\w.~/:-])(?:~|[A-Za-z]:)?[/\\][^\s'\"`:;,()\[\]{}<>]*")
_HOW = {
    "same-command": "verified: the same command then succeeded",
    "same-target": "the same program on the same target then succeeded",
    "explained": "explained by the assistant, not re-verified",
}


def recall_fix(signature: str, cwd: str | None, home: str | None = None) -> dict[str, Any] | None:
    """Return the PostToolUseFailure output for this error, or None (see :func:`recall`)."""
    return recall(signature, cwd, home)[0]


def recall(
    signature: str, cwd: str | None, home: str | None = None
) -> tuple[dict[str, Any] | None, str | None]:
    """Return the hook output for this error, and the id of the fix offered (if one was)."""
    if not signature:
        return None, None
    entries = _matching(signature, home)
    fix = _best_fix(entries, signature, cwd)
    if fix is not None:
        return _output(_fix_text(fix, cwd, home)), str(fix.get("id") or "") or None
    seen = [e for e in entries if _same_place(e.get("project"), cwd)]
    if seen:
        return _output(_unresolved_text(max(seen, key=lambda e: _int(e.get("count"))))), None
    return None, None


def find_fix(signature: str, cwd: str | None, home: str | None = None) -> dict[str, Any] | None:
    """Return the stored error with this signature whose fix would be offered, or None.

    This project's first, then the surest and newest; another project's only for a
    specific signature.
    """
    if not signature:
        return None
    return _best_fix(_matching(signature, home), signature, cwd)


def _matching(signature: str, home: str | None) -> list[dict[str, Any]]:
    path = os.path.join(home or home_dir(create=False), ERROR_STORE)
    same = [e for e in _error_entries(path, signature) if _same_error(e, signature)]
    if not same:
        return []  # a new error: no time is read (datetime costs about 3 ms)
    now = clock.now()
    return [e for e in same if not _expired(e.get("expires_at"), now)]


def _best_fix(
    entries: list[dict[str, Any]], signature: str, cwd: str | None
) -> dict[str, Any] | None:
    fixed = [e for e in entries if _has_fix(e)]
    here = [e for e in fixed if _same_place(e.get("project"), cwd)]
    if not here and fixed and _specific(signature):
        here = fixed
    if not here:
        return None
    best: dict[str, Any] = max(here, key=lambda e: (_sureness(e), str(e.get("last_seen"))))
    return best


def _specific(signature: str) -> bool:
    from artibot_memory.text.signature import is_specific  # noqa: PLC0415 - loaded on failures

    return is_specific(signature)


def _error_entries(path: str, signature: str) -> list[Any]:
    """Return the stored entries that may have this signature (only their lines are parsed)."""
    try:
        if os.stat(path).st_size > MAX_STORE_BYTES:
            return []
        with open(path, "rb") as handle:
            raw = handle.read()
        found = entries_holding(raw, signature)
        return current_entries(json.loads(raw)) if found is None else found
    except (OSError, ValueError, RecursionError):
        return []


def _same_error(entry: object, signature: str) -> bool:
    return (
        isinstance(entry, dict)
        and entry.get("signature") == signature
        and entry.get("type") == "error"
        and entry.get("state") != "superseded"
    )


def _has_fix(entry: dict[str, Any]) -> bool:
    resolution = entry.get("resolution")
    return isinstance(resolution, str) and bool(resolution.strip())


def _sureness(entry: dict[str, Any]) -> float:
    value = entry.get("confidence")
    return float(value) if isinstance(value, (int, float)) else 0.0


def _int(value: object) -> int:
    return value if isinstance(value, int) else 1


def _expired(expires_at: object, now: datetime) -> bool:
    when = clock.parse_time(expires_at)
    return when is not None and when <= now


def _same_place(project: object, cwd: str | None) -> bool:
    """Tell whether a stored error's project is where the call failed (both none: the same)."""
    if not isinstance(project, str) or not project:
        return not cwd
    if not cwd:
        return False
    return cwd == project or cwd.startswith(project.rstrip("/") + "/")


def _output(text: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUseFailure",
            "additionalContext": text[:CONTEXT_CHARS],
        }
    }


def _fix_text(entry: dict[str, Any], cwd: str | None, home: str | None = None) -> str:
    """Say what fixed it, when, where, how sure: ``…: fixed on 2026-11-30 in shop: "…"; …``."""
    from artibot_memory.text.framing import quote  # noqa: PLC0415 - known failures only

    details = _mapping(entry.get("details"))
    fix = _mapping(details.get("fix"))
    name = _project_name(entry.get("project"))
    when = _day(fix.get("at")) or _day(entry.get("updated_at")) or _day(entry.get("last_seen"))
    on = f" on {when}" if when else ""
    if _same_place(entry.get("project"), cwd):
        where = f"fixed{on} in {name}" if name else f"fixed{on}"
        resolution = _relative(str(entry["resolution"]), entry.get("project"))
    else:
        where = f"in another project, {name or 'unnamed'}: fixed{on}"
        resolution = _file_names(str(entry["resolution"]))
    head = f"{_record(entry)}: {where}: "
    tail = f"; {how_sure(details, entry.get('confidence'))}."
    code = _code_mark(entry, home) if _same_place(entry.get("project"), cwd) else ""
    tail = f"{tail[:-1]} {code}." if code else tail
    return head + quote(resolution, max(CONTEXT_CHARS - len(head) - len(tail) - 2, 80)) + tail


def _code_mark(entry: dict[str, Any], home: str | None) -> str:
    """Say which files the fix edited changed since, and its confidence lowered if all did."""
    details = _mapping(entry.get("details"))
    if not details.get("anchors"):
        return ""
    from artibot_memory.recall import codestate  # noqa: PLC0415 - anchored fixes only

    project = entry.get("project")
    states = codestate.load(project if isinstance(project, str) else None, home)
    sure = entry.get("confidence")
    confidence = float(sure) if isinstance(sure, (int, float)) else None
    return codestate.mark(entry, states, confidence)


def _unresolved_text(entry: dict[str, Any]) -> str:
    """Say in one line that it was seen before: ``…: this error was seen 3× since …``."""
    since = _day(entry.get("created_at")) or _day(entry.get("last_seen"))
    name = _project_name(entry.get("project"))
    count = _int(entry.get("count"))
    seen = f"seen {count}× since {since}" if count > 1 else f"seen once, on {since}"
    if not since:
        seen = f"seen {count}×" if count > 1 else "seen once"
    return (
        f"{_record(entry)}: this error was {seen}{f' in {name}' if name else ''}, never resolved."
    )


def how_sure(details: Mapping[str, Any], confidence: object) -> str:
    """Say how a fix is known and how sure it is, from the error's ``details`` (plain JSON).

    >>> how_sure({"fix": {"method": "explained", "confirmed": 1}}, 0.73)
    'explained by the assistant, not re-verified; worked once when recalled (confidence 0.73)'
    >>> how_sure({}, None)
    'how it was established is not recorded'
    """
    fix = _mapping(details.get("fix"))
    parts = [_HOW.get(str(fix.get("method")), "how it was established is not recorded")]
    confirmed, contradicted = fix.get("confirmed"), fix.get("contradicted")
    if isinstance(confirmed, int) and confirmed > 0:
        parts.append(f"worked {_times(confirmed)} when recalled")
    if isinstance(contradicted, int) and contradicted > 0:
        parts.append(f"the error came back {_times(contradicted)} after it was recalled")
    text = "; ".join(parts)
    if isinstance(confidence, (int, float)) and not isinstance(confidence, bool) and fix:
        text += f" (confidence {confidence:.2f})"
    return text


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count}×"


def _record(entry: dict[str, Any]) -> str:
    from artibot_memory.text.framing import clean  # noqa: PLC0415 - known failures only

    return f"artibot-memory record {clean(str(entry.get('id') or '?'), 40)}"


def _project_name(project: object) -> str:
    from artibot_memory.text.framing import clean  # noqa: PLC0415 - known failures only

    if not isinstance(project, str) or not project.strip("/"):
        return ""
    return clean(os.path.basename(project.rstrip("/")), 80)


def _day(value: object) -> str:
    text = str(value or "")
    return text[:10] if _DATE.match(text) else ""


def _relative(text: str, project: object) -> str:
    """Show this project's paths in a fix relative to the project."""
    if isinstance(project, str) and project.strip("/"):
        return text.replace(project.rstrip("/") + "/", "")
    return text


def _file_names(text: str) -> str:
    r"""Another project's fix, every absolute path in it reduced to its file name.

    >>> _file_names("edited /home/ana/quokka/src/loader.py and C:\\work\\a.txt")
    'edited loader.py and a.txt'
    """
    return _ABSOLUTE_PATH.sub(lambda m: re.split(r"[/\\]", m[0].rstrip("/\\"))[-1] or "/", text)
