"""A ready-made SessionStart context per project, so a session starts on the stdlib alone.

Rendering the context needs pydantic and every store validated: a few hundred
milliseconds at each session start. So whenever the full path renders a project's
context (at SessionStart, and in the SessionEnd worker after it has stored the session),
it also writes ``cache/context-<hash>.json`` with the text, the ids shown and the
fingerprints (inode, size, mtime) of the four store files. The next SessionStart of that
project serves the cached text with the standard library only, if and only if:

- no store file changed since (same fingerprints),
- the journal holds nothing waiting to be stored but access records (what starts and
  prompts showed, counted at the next ingest: they change no line of a context),
- no memory shown has expired since, and the cache is under a day old (recency drifts).

Otherwise the hook takes the full path, which renders afresh and rewrites the cache.
Showing a cached context journals an access record, exactly as a fresh one does.

>>> import tempfile
>>> home = tempfile.mkdtemp()
>>> from datetime import datetime, timezone
>>> now = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> write_cache(home, "/src/shop", "the text", ["pref-1"], None, now)
>>> read_cache(home, "/src/shop", micros(now))
('the text', ['pref-1'])
>>> read_cache(home, "/src/shop", micros(now) + MAX_AGE_US + 1) is None
True
"""

from __future__ import annotations

import json
import os
import zlib

from artibot_memory.capture import journal
from artibot_memory.core import clock
from artibot_memory.core.paths import home_dir
from artibot_memory.core.project import git_root, project_of
from artibot_memory.recall.codestate import head_of
from artibot_memory.store.files import fingerprint
from artibot_memory.store.table import STORES

# os.path and str, typing for checkers only, atomic imported where written: this module
# serves SessionStart with the standard library, and every import is paid at each start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime
    from pathlib import Path
    from typing import Any

# 2: errors say how sure their fix is, commands how many runs failed;
# 3: the times a start reads are whole microseconds too (no datetime on the cached start);
# 4: the conflict ledger's folder is fingerprinted, and a cache written while an open
#    high-severity conflict was still to be named is never served (the full path names it).
CACHE_VERSION = 4
MAX_AGE_US = 24 * 3600 * 1_000_000  # a day: recency drifts
MAX_ACCESS_ONLY_BYTES = 16 * 1024  # a journal this small is read to see if it only counts uses


def micros(moment: datetime) -> int:
    """Return an aware datetime as whole microseconds since the epoch."""
    return int(moment.timestamp() * 1_000_000)


def cache_path(home: str | Path, project: str | None) -> str:
    """Return the cache file of a project (``None``: sessions outside any project).

    The name only spreads projects over files; the document inside names its project,
    so two projects that share a name never share a context.
    """
    tag = zlib.crc32((project or "").encode("utf-8", "surrogatepass"))
    return os.path.join(home, "cache", f"context-{tag:08x}.json")


def drop_caches(home: str | Path) -> int:
    """Delete every cached context (they are derived); return how many went.

    Called when memories are forgotten or pruned: a cache may quote them, and the next
    SessionStart renders afresh. A symlink is removed itself, never followed.

    >>> import tempfile
    >>> drop_caches(tempfile.mkdtemp())
    0
    """
    folder = os.path.join(home, "cache")
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    dropped = 0
    for name in names:
        if name.lstrip(".").startswith("context-"):  # the caches and their temp files
            try:
                os.unlink(os.path.join(folder, name))
            except FileNotFoundError:
                continue  # another forget or prune was first
            dropped += 1
    return dropped


def fingerprints(home: str | Path) -> dict[str, list[int] | None]:
    """Return (inode, size, mtime) of each store file, None for a missing one.

    And of the Markdown layers the context quotes: ``MEMORY.md``, and the ``daily``
    folder (a note written whole replaces its file, which changes the folder's mtime);
    and of the ``conflicts`` folder: a conflict found since must be named at the start.
    """
    found: dict[str, list[int] | None] = {}
    for name in [*(spec.filename for spec in STORES), "MEMORY.md", "daily", "conflicts"]:
        seen = fingerprint(os.path.join(home, name))
        found[name] = None if seen is None else list(seen)
    return found


def write_cache(  # noqa: PLR0917 - the cache's fields, each named at the one call site
    home: str | Path,
    project: str | None,
    text: str,
    ids: list[str],
    valid_until: datetime | None,
    now: datetime,
    *,
    unnamed_conflicts: bool = False,
) -> None:
    """Record the context just rendered for ``project`` (after the stores were written).

    ``unnamed_conflicts``: an open high-severity conflict is still to be named to a
    session; such a cache is never served, so the next start takes the full path and
    names it (:func:`artibot_memory.recall.context.conflict_reminder`).
    """
    document = {
        "v": CACHE_VERSION,
        "project": project,
        "text": text,
        "ids": ids,
        "stores": fingerprints(home),
        "written_at": now.isoformat(),  # for people; the start reads the *_us twins
        "valid_until": valid_until.isoformat() if valid_until else None,
        "written_us": micros(now),
        "valid_until_us": micros(valid_until) if valid_until else None,
        "unnamed_conflicts": unnamed_conflicts,
        "head": head_of(project),  # a new HEAD: rendered again, with what changed since
    }
    from pathlib import Path  # noqa: PLC0415 - the full path has it loaded anyway

    from artibot_memory.core.disk import write_document  # noqa: PLC0415
    from artibot_memory.core.paths import ensure_private_dir  # noqa: PLC0415

    ensure_private_dir(os.path.join(home, "cache"))
    write_document(Path(cache_path(home, project)), json.dumps(document).encode("utf-8"))


def read_cache(home: str | Path, project: str | None, now_us: int) -> tuple[str, list[str]] | None:
    """Return the cached (text, ids) when still exactly what a fresh render would give.

    ``now_us`` is the time in microseconds (:func:`~artibot_memory.core.clock.micros_now`).
    """
    try:
        with open(cache_path(home, project), "rb") as handle:
            document = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or not _still_valid(document, home, project, now_us):
        return None
    return str(document.get("text") or ""), [str(i) for i in document.get("ids") or []]


def _still_valid(
    document: dict[str, Any], home: str | Path, project: str | None, now_us: int
) -> bool:
    if document.get("v") != CACHE_VERSION or document.get("project") != project:
        return False
    if document.get("unnamed_conflicts") or document.get("head") != head_of(project):
        return False
    if _journal_waiting(home) or document.get("stores") != fingerprints(home):
        return False
    written, until = document.get("written_us"), document.get("valid_until_us")
    if not isinstance(written, int) or now_us - written > MAX_AGE_US or written > now_us:
        return False
    return until is None or (isinstance(until, int) and now_us < until)


def _journal_waiting(home: str | Path) -> bool:
    """Tell whether the journal holds what could change a context: anything but accesses.

    Serving a cached start journals what it showed (an access record), and so does a
    prompt's recall; counted at the next ingest, accesses change no line of a context, so
    back-to-back starts of one project (a resume, ``/clear``, a second terminal) are all
    served from the cache instead of every other one rendering afresh.
    """
    path = os.path.join(home, journal.JOURNAL_NAME)
    try:
        size = os.stat(path).st_size
        if size == 0:
            return False
        if size > MAX_ACCESS_ONLY_BYTES:
            return True
        with open(path, "rb") as file:
            data = file.read(MAX_ACCESS_ONLY_BYTES + 1)
    except OSError:
        return False
    return not all(_is_access(line) for line in data.splitlines() if line.strip())


def _is_access(line: bytes) -> bool:
    try:
        record = json.loads(line)
    except ValueError:
        return False
    return isinstance(record, dict) and record.get("event") == journal.ACCESS_EVENT


def session_start_output(text: str) -> dict[str, Any] | None:
    """Return the SessionStart hook's JSON for ``text``, or None when there is nothing to say."""
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}


def serve_cached_start(payload: dict[str, Any]) -> tuple[bool, dict[str, Any] | None]:
    """Serve SessionStart from the cache: ``(True, output)``, or ``(False, None)`` if stale.

    On ``False`` the caller takes the full path, which renders afresh.
    """
    cwd = payload.get("cwd")
    project = project_of(cwd if isinstance(cwd, str) else None)
    cached = read_cache(home_dir(), project, clock.micros_now())
    if cached is None:
        return False, None
    text, ids = cached
    journal.note_access(ids)
    from artibot_memory.recall.shown import note_session_start  # noqa: PLC0415

    note_session_start(payload, ids)
    from artibot_memory.recall.team import with_team  # noqa: PLC0415 - session starts only

    root = git_root(cwd if isinstance(cwd, str) else None)
    return True, session_start_output(with_team(text, root, home_dir()))
