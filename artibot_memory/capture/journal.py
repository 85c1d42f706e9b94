"""The capture journal: ``<home>/journal.jsonl``, one redacted JSON record per line.

The per-tool-call hooks cannot afford pydantic, a store lock and a rewrite of a JSON
file, so they only append here (standard library only); the full path (SessionStart,
the CLI) later drains the journal into the four stores.

Appending: one ``os.write`` of one line to a file opened ``O_APPEND``. Every line is
kept under 64 KiB, so concurrent appends from parallel hooks never interleave on POSIX
local filesystems (the kernel positions and writes an ``O_APPEND`` write as one unit);
a torn or glued line is skipped (or recovered) when read. Each record is redacted
before it is encoded, and every string in it is trimmed (head and tail kept).

Draining is crash-safe: :func:`drain` renames the journal to
``journal.<us>.<pid>.<rand>.ingesting`` and reads it; the file is deleted only by
:meth:`Batch.finish` (or when a ``with drain() as batch:`` block ends without an
exception), after the caller has stored the records. A drain that dies before that
leaves the file, and any drain more than a minute later takes it again (so an ingest
must finish within a minute, or its records may be delivered twice). A shared/exclusive
``flock`` closes the last gap: a hook that opened the journal just before the rename
finishes its write before the drainer reads, and a hook that got the lock after the
rename notices the file moved and appends to the new journal.

>>> import os, tempfile
>>> os.environ["ARTIBOT_MEMORY_HOME"] = tempfile.mkdtemp()
>>> append({"event": "PostToolUse", "command": "pytest -q"})
>>> with drain() as batch:
...     [(r["v"], r["event"], r["command"]) for r in batch]
[(1, 'PostToolUse', 'pytest -q')]
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from artibot_memory.core import clock, disk
from artibot_memory.core.paths import home_dir
from artibot_memory.text.trim import cut_middle

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: appends stay atomic, the drain race stays open
    fcntl = None  # type: ignore[assignment]

# Paths are str and os.path, and typing is for checkers only: importing pathlib or typing
# costs milliseconds, paid on every tool call.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from types import TracebackType
    from typing import Any, TypeVar

    T = TypeVar("T")

RECORD_VERSION = 1
JOURNAL_NAME = "journal.jsonl"
# What a text becomes when it cannot be redacted: dropped, with a marker saying why.
WITHHELD = disk.WITHHELD
# The event of a record that counts memories a SessionStart context showed as accessed.
ACCESS_EVENT = "Accessed"
TAKEN_SUFFIX = ".ingesting"
MAX_LINE_BYTES = 64 * 1024
MAX_JOURNAL_BYTES = 20 * 1024 * 1024
MAX_DRAIN_BYTES = 20 * 1024 * 1024
STALE_TAKE_SECONDS = 60.0
OPEN_ATTEMPTS = 64
_TAKE_NAME_PARTS = 5  # journal.<micros>.<pid>.<random>.ingesting
FIELD_LIMITS = {"command": 2_000, "output": 2_000, "error": 4_000, "prompt": 4_000}
DEFAULT_LIMIT = 2_000
MAX_LIST_ITEMS = 100
# Strings are cut to 8x their limit before redaction (redacting megabytes costs time)
# and to 1x after, so a secret cut by the first pass is dropped by the second.
PRECUT_FACTOR = 8
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


class Batch(list["dict[str, Any]"]):
    """The records of one drain, plus the taken files to delete once they are stored.

    As a context manager it calls :meth:`finish` only when the ``with`` body succeeds.
    """

    def __init__(self) -> None:
        """Start empty; :func:`drain` fills it."""
        super().__init__()
        self.files: list[str] = []

    def finish(self) -> None:
        """Delete the taken files: call only after the records are safely stored."""
        for path in self.files:
            try:  # noqa: SIM105 - contextlib stays out of the hook's imports
                os.unlink(path)
            except FileNotFoundError:
                pass
        self.files.clear()

    def __enter__(self) -> Batch:  # noqa: PYI034 - typing.Self needs Python 3.11
        """Hand the batch to the ``with`` body."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Delete the takes if the body stored the records; keep them for the next drain if not."""
        if exc_type is None:
            self.finish()


def journal_path(home: str | os.PathLike[str] | None = None) -> str:
    """Return the journal file of ``home`` (default: the memory home, created if needed)."""
    return os.path.join(_home(home), JOURNAL_NAME)


def _home(home: str | os.PathLike[str] | None) -> str:
    return os.fspath(home) if home is not None else home_dir()


def append(record: Mapping[str, Any], home: str | os.PathLike[str] | None = None) -> None:
    """Redact, trim and append one record; dropped silently when the journal is full.

    The line gains ``"v": 1`` and ``"at"`` (ISO time, UTC) in front of the record's own
    fields. The journal stops growing at 20 MiB until the next drain (bounded by default).
    """
    stamped = _precut(record)
    fd = _open_current(journal_path(home))
    try:
        if os.fstat(fd).st_size < MAX_JOURNAL_BYTES:
            disk.append_line(fd, stamped, _finish)
    finally:
        os.close(fd)


def note_access(ids: Sequence[str], home: str | os.PathLike[str] | None = None) -> None:
    """Journal that these memories were handed to the agent (the next ingest counts them).

    Reads count what they hand back this way, not by rewriting the stores: a search or a
    session start takes no store lock and writes one line.
    """
    if ids:
        append({"event": ACCESS_EVENT, "ids": list(ids)}, home)


def encode(record: Mapping[str, Any]) -> bytes:
    """Return the journal line for ``record``: redacted, trimmed, under 64 KiB.

    >>> encode({"event": "X"}).startswith(b'{"v":1,"at":"')
    True
    """
    return _finish(redacted(_precut(record)))


def _precut(record: Mapping[str, Any]) -> dict[str, Any]:
    """Stamp ``record`` and cut its strings to a few times their limits, before redaction."""
    stamped: dict[str, Any] = {
        "v": RECORD_VERSION,
        "at": clock.stamp("milliseconds"),
    }
    stamped.update((key, value) for key, value in record.items() if key not in stamped)
    return _trim(stamped, PRECUT_FACTOR)  # type: ignore[no-any-return] # a dict stays one


def _finish(safe: dict[str, Any]) -> bytes:
    """Cut a redacted record to its limits and encode it as one line."""
    return _fit(_trim(safe, 1.0))


def kept_text(text: str, field: str) -> str:
    """Return ``text`` as a record's ``field`` keeps it in the journal: redacted, trimmed.

    >>> len(kept_text("x" * 10_000, "command")) <= FIELD_LIMITS["command"]
    True
    """
    return str(_trim(redacted(_trim(text, PRECUT_FACTOR, field)), 1.0, field))


def drain(
    home: str | os.PathLike[str] | None = None,
    *,
    max_bytes: int = MAX_DRAIN_BYTES,
    stale_after: float = STALE_TAKE_SECONDS,
) -> Batch:
    """Take the journal (and takes left by crashed drains) and return their records.

    Oldest records come first; unparseable lines are skipped. Takes stop once
    ``max_bytes`` are read; what is left stays for the next drain. Call
    :meth:`Batch.finish` after storing the records, or drain in a ``with`` block:

    >>> with drain() as batch:
    ...     len(batch)
    0
    """
    folder = _home(home)
    batch = Batch()
    used = 0
    for candidate in [*_stale_takes(folder, stale_after), journal_path(folder)]:
        if batch.files and used >= max_bytes:
            break
        taken = _claim(candidate, folder)
        if taken is not None:
            batch.files.append(taken)
            data = _read_locked(taken)
            used += len(data)
            batch.extend(_parse_lines(data))
    return batch


def _open_current(path: str) -> int:
    """Open the journal for appending, under a shared lock, making sure it was not taken.

    Each retry means a drain took the file between our open and our lock; drains are rare
    (a session start or end), so a few tries suffice, and the many here cover a drain loop.
    """
    for _attempt in range(OPEN_ATTEMPTS):
        fd = disk.open_append(path)
        if fcntl is None:
            return fd
        fcntl.flock(fd, fcntl.LOCK_SH)
        if _is_current(fd, path):
            return fd
        os.close(fd)
    return disk.open_append(path)


def _is_current(fd: int, path: str) -> bool:
    """Tell whether ``fd`` is still the journal: the file at ``path``, and not deleted.

    The link count matters: a take that a drain has read and deleted frees its inode
    number, and the next journal created may get the same number, so an appender holding
    the deleted take would otherwise see "the same file" and write where no one reads.
    """
    try:
        mine = os.fstat(fd)
        return mine.st_nlink > 0 and os.stat(path).st_ino == mine.st_ino
    except FileNotFoundError:
        return False


# The one redaction of everything written (core/disk.py), failing closed; it takes the
# <private> blocks out too (core/private.py), before any secret rule.
redacted = disk.clean


def _trim(value: Any, scale: float, key: str | None = None) -> Any:
    """Cut every string to its field's limit times ``scale`` (head and tail kept)."""
    if isinstance(value, str):
        return cut_middle(value, int(FIELD_LIMITS.get(key or "", DEFAULT_LIMIT) * scale))
    if isinstance(value, Mapping):
        return {str(k): _trim(v, scale, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_trim(item, scale, key) for item in value[:MAX_LIST_ITEMS]]
    return value


def _fit(record: dict[str, Any]) -> bytes:
    """Encode ``record``, shrinking its strings until the line fits in 64 KiB."""
    scale = 1.0
    line = _dumps(record)
    while len(line) > MAX_LINE_BYTES and scale > 1 / 64:
        scale /= 2
        line = _dumps(_trim(record, scale))
    if len(line) > MAX_LINE_BYTES:
        keep = ("v", "at", "event", "session_id", "tool_use_id")
        line = _dumps({**{k: record[k] for k in keep if k in record}, "oversized": True})
    return line


def _dumps(record: Mapping[str, Any]) -> bytes:
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    return text.encode("utf-8", "replace") + b"\n"


def _stale_takes(home: str, stale_after: float) -> list[str]:
    """Return takes older than ``stale_after`` seconds (their drain died), oldest first."""
    cutoff = clock.micros_now() - int(stale_after * 1_000_000)
    found: list[tuple[int, str]] = []
    for name in _names(home):
        taken_at = _taken_at(name)
        if taken_at is not None and taken_at <= cutoff:
            found.append((taken_at, os.path.join(home, name)))
    return [path for _, path in sorted(found)]


def _names(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except FileNotFoundError:
        return []


def _taken_at(name: str) -> int | None:
    parts = name.split(".")
    if len(parts) != _TAKE_NAME_PARTS or parts[0] != "journal" or "." + parts[-1] != TAKEN_SUFFIX:
        return None
    return int(parts[1]) if parts[1].isdigit() else None


def _claim(path: str, home: str) -> str | None:
    """Rename ``path`` to a fresh take name; ``None`` when another drain got it first."""
    name = f"journal.{clock.micros_now()}.{os.getpid()}.{os.urandom(3).hex()}{TAKEN_SUFFIX}"
    taken = os.path.join(home, name)
    try:
        os.rename(path, taken)
    except FileNotFoundError:
        return None
    return taken


def _read_locked(path: str) -> bytes:
    """Read a take once every append that had it open is done (newest bytes if huge).

    A take that is a symlink (a journal.jsonl planted as a link) reads as empty: the
    drain never feeds a file from outside the memory home into the stores.
    """
    limit = MAX_JOURNAL_BYTES + MAX_LINE_BYTES
    try:
        fd = os.open(path, os.O_RDONLY | _NO_FOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        size = os.fstat(handle.fileno()).st_size
        if size <= limit:
            return handle.read()
        handle.seek(size - limit)
        return handle.read().partition(b"\n")[2]


def drop_lines(matches: Callable[[bytes], bool], home: str | os.PathLike[str] | None = None) -> int:
    """Remove every line ``matches`` accepts from the journal and its takes; return how many.

    For ``forget``: a record may quote what is forgotten. Each file is edited in place
    under an exclusive ``flock``, so appends wait and a drain that has taken the file
    reads the edited lines. Not crash-atomic: a kill in the middle leaves a torn line
    (skipped when read) or a line twice (a replay, counted once).

    >>> import tempfile
    >>> home = tempfile.mkdtemp()
    >>> append({"event": "PostToolUse", "command": "ls"}, home)
    >>> append({"event": "PostToolUse", "command": "pwd"}, home)
    >>> drop_lines(lambda line: b'"ls"' in line, home)
    1
    >>> with drain(home) as batch:
    ...     [r["command"] for r in batch]
    ['pwd']
    """
    folder = _home(home)
    names = [n for n in _names(folder) if n == JOURNAL_NAME or _taken_at(n) is not None]
    return sum(_drop_in(os.path.join(folder, name), matches) for name in names)


def _drop_in(path: str, matches: Callable[[bytes], bool]) -> int:
    try:
        fd = disk.open_rewrite(path)
    except OSError:
        return 0  # gone (a drain finished it) or a symlink: nothing of ours to edit
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        data = b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
        lines = data.split(b"\n")
        kept = [line for line in lines if not (line.strip() and matches(line))]
        if len(kept) == len(lines):
            return 0
        disk.rewrite_lines(fd, b"\n".join(kept))
        return len(lines) - len(kept)
    finally:
        os.close(fd)


def _parse_lines(data: bytes) -> list[dict[str, Any]]:
    return [record for line in data.split(b"\n") if (record := parse_line(line)) is not None]


def parse_line(line: bytes) -> dict[str, Any] | None:
    """Parse one journal line; a torn line glued to the next yields the next record.

    >>> parse_line(b'{"v":1,"event":"Po{"v":1,"event":"X"}')
    {'v': 1, 'event': 'X'}
    """
    if not line.strip():
        return None
    for start in (0, line.rfind(b'{"v":', 1)):
        if start < 0:
            break
        try:
            record = json.loads(line[start:])
        except (ValueError, RecursionError):
            continue
        if isinstance(record, dict):
            return record
    return None
