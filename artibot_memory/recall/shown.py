"""What each session was already shown: one small file per session (standard library only).

SessionStart records the ids of the context it handed over (:func:`note_session_start`, on
every path: its cache, the index, the full path), and per-prompt recall
(:mod:`artibot_memory.recall.prompt_recall`) what it injected, so no memory is shown to a
session twice. ``sessions/shown-<crc32>.jsonl`` in the memory home holds the session id, when
it was last written and at most :data:`MAX_SHOWN_IDS` ids: ids only, never a text. Sessions
not touched for :data:`SESSION_DAYS` days, and all but the :data:`MAX_SESSIONS` newest, are
removed when a new session's file is created. Kept apart from the recall so that the cached
SessionStart, which only records, imports nothing of the index.

The file is JSON Lines, appended with one write each (``core/disk.py``, redacted like every
line): what a start or a prompt showed, and whether a start began the record again. It is
derived and disposable, so it is neither fsynced nor rewritten: a start served from its
cache pays one append, not an atomic replace.
"""

from __future__ import annotations

import json
import os
import zlib

from artibot_memory.core import clock
from artibot_memory.core.paths import home_dir

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

SESSIONS_DIR = "sessions"
SESSION_VERSION = 1
MAX_SHOWN_IDS = 300
MAX_SESSIONS = 64
SESSION_DAYS = 7
FRESH_START_SOURCES = frozenset({"startup", "clear", "compact"})  # earlier context is gone


def session_path(home: str, session_id: str) -> str:
    """Return the file of one session's shown ids (each of its lines names the session)."""
    tag = zlib.crc32(session_id.encode("utf-8", "surrogatepass"))
    return os.path.join(home, SESSIONS_DIR, f"shown-{tag:08x}.jsonl")


def shown_ids(home: str, session_id: str) -> set[str]:
    """Return the ids this session was shown (at its start and by earlier prompts)."""
    ids: list[str] = []
    for line in _lines(session_path(home, session_id)):
        if line.get("session_id") != session_id:
            continue  # another session whose id shares the checksum
        if line.get("reset"):
            ids = []
        ids += [str(i) for i in line.get("ids") or []]
    return set(ids[-MAX_SHOWN_IDS:])


def note_session_start(
    payload: dict[str, Any], ids: Sequence[str], home: str | None = None
) -> None:
    """Record what SessionStart showed, so no prompt shows it again.

    A fresh start, a clear or a compaction starts the record over (what was injected
    before is no longer in the conversation); a resume adds to it.
    """
    session = _text(payload, "session_id")
    if not session:
        return
    folder = home if home is not None else home_dir()
    _append(folder, session, list(ids), reset=payload.get("source") in FRESH_START_SOURCES)


def remember_shown(home: str, session_id: str, ids: Sequence[str]) -> None:
    """Add ``ids`` to what this session was shown."""
    _append(home, session_id, list(ids), reset=False)


def _append(home: str, session_id: str, ids: list[str], *, reset: bool) -> None:
    from artibot_memory.core import disk  # noqa: PLC0415 - only when written

    path = session_path(home, session_id)
    if not os.path.exists(path):
        from artibot_memory.core.paths import ensure_private_dir  # noqa: PLC0415

        ensure_private_dir(os.path.dirname(path))
        prune_sessions(home, clock.micros_now())
    line = {"v": SESSION_VERSION, "session_id": session_id, "reset": reset, "ids": ids}
    # The newline goes first: a line a crash cut short is ended by the next, and costs only itself.
    disk.append_text(path, "\n" + json.dumps(line, ensure_ascii=False))


def prune_sessions(home: str, now_us: int) -> int:
    """Remove old sessions' records, keep the :data:`MAX_SESSIONS` newest; return how many went.

    >>> import tempfile
    >>> prune_sessions(tempfile.mkdtemp(), 0)
    0
    """
    folder = os.path.join(home, SESSIONS_DIR)
    try:
        names = [n for n in os.listdir(folder) if n.startswith("shown-")]
    except OSError:
        return 0
    oldest = now_us - SESSION_DAYS * 86_400 * 1_000_000
    ages = []
    for name in names:
        try:
            ages.append((os.stat(os.path.join(folder, name)).st_mtime_ns // 1_000, name))
        except OSError:
            continue
    ages.sort(reverse=True)
    doomed = [
        name for i, (stamp, name) in enumerate(ages) if stamp < oldest or i >= MAX_SESSIONS - 1
    ]
    for name in doomed:
        try:
            os.unlink(os.path.join(folder, name))
        except FileNotFoundError:
            continue
    return len(doomed)


def _lines(path: str) -> list[dict[str, Any]]:
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError:
        return []
    found = []
    for line in raw.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue  # a line cut by a crash: the others stand
        if isinstance(value, dict):
            found.append(value)
    return found


def _text(payload: dict[str, Any], name: str) -> str | None:
    value = payload.get(name)
    return value if isinstance(value, str) and value else None
