r"""The one way bytes reach disk: every writer of the package goes through here, redacted.

Whatever the product writes (stores and their backups, start caches, tombstones, the
journal, logs, the plugin venv's build files, and every file later layers add: index,
notes, MEMORY.md, ledger, audit log) is written by a function of this module, and each one
redacts what it is handed before a byte leaves the process. ``tests/test_disk.py`` reads
every module of the package with ``ast`` and fails on a write anywhere else (``open`` for
writing, ``os.write``, ``os.open`` with write flags, ``Path.write_text``, ``tempfile``,
``shutil.copy``, ``sqlite3.connect``, a subprocess writing into a file), so a new file
cannot forget it.

Two kinds of input, two ways of redacting, each done once:

* values (a record, a line, a text): :func:`clean` walks them and redacts every string
  (:func:`artibot_memory.core.redact.redact_value`) before they are encoded, so the
  encoding never hides a secret from the rules;
* finished JSON documents (a store serialised by pydantic, a cache): the bytes are checked
  as a whole, on a view where JSON escapes are blanked out (so ``\\n`` before a token reads
  as a space, not as the letter n); only when that check finds something is the document
  parsed, cleaned value by value and encoded again. A document built from clean values,
  the usual case, costs one pass and is written as it came.

Failing closed: should the redactor not load, every string becomes :data:`WITHHELD`;
should it fail on a text, that text becomes its error marker. Nothing unredacted is
written. This module runs under Python 3.8 (the venv builder and the hook log use it) and
imports the redactor on first use, so a hook that writes nothing pays nothing.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text(folder / "note.md", "token ghp_" + "a1B2c3D4e5" * 4)
>>> (folder / "note.md").read_text()
'token [REDACTED:github-token]'
>>> _ = write_document(folder / "x.json", b'{"a": "sk-ant-api03-' + b"x7Y" * 30 + b'"}')
>>> (folder / "x.json").read_text()
'{"a": "[REDACTED:anthropic-key]"}'
"""

from __future__ import annotations

import os

from artibot_memory.core.paths import FILE_MODE

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    import re
    import sqlite3
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

WITHHELD = "[REDACTED:redaction-unavailable]"
APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


# ---- redaction, failing closed


def clean(value: T) -> T:
    """Return ``value`` with secrets replaced (strings inside dicts, lists and tuples too)."""
    try:
        from artibot_memory.core.redact import redact_value  # noqa: PLC0415 - first use
    except ImportError:
        return _withheld(value)  # type: ignore[no-any-return] # same shape, strings dropped
    return redact_value(value)  # type: ignore[return-value] # same shape, strings redacted


def _withheld(value: Any) -> Any:
    if isinstance(value, str):
        return WITHHELD
    if isinstance(value, dict):
        return {key: _withheld(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_withheld(item) for item in value)
    return value


def checked_document(data: bytes, trusted: frozenset[str] = frozenset()) -> bytes:
    r"""Return JSON (or JSON Lines) ``data`` with any secret left in it redacted.

    Lines in ``trusted`` (those of the file being replaced, written through here) are not
    read again; the string values of the others are checked in one pass, on a view where
    keys are left out and escapes blanked. Only when that finds something is the document
    parsed and cleaned value by value (then re-encoded on one line: correct, and rare).

    >>> checked_document(b'{"n": 1}')
    b'{"n": 1}'
    >>> checked_document(b'{"line": "a\\nghp_' + b"a1B2c3D4e5" * 4 + b'"}')
    b'{"line": "a\\n[REDACTED:github-token]"}'
    """
    text = data.decode("utf-8", "replace")
    fresh = [line for line in text.split("\n") if line not in trusted]
    view = _values_view("\n".join(fresh))
    if clean(view) == view:
        return data
    return _cleaned_json(text)


def _values_view(text: str) -> str:
    r"""Return the string values of JSON ``text``, one per line, escapes blanked to spaces.

    Keys are left out (``"key": "session:…"`` is a field, not a name before a secret), and
    so is a value that is only a UUID (an id: on a line of its own here, it would read as a
    token a command printed); an escape becomes spaces so that ``\n`` before a token reads
    as a break, not a letter.
    Text with no JSON string in it comes out as it is.
    """
    if '"' not in text:
        return text
    import re  # noqa: PLC0415 - documents only

    strings = _PATTERNS.get("string") or _PATTERNS.setdefault(
        "string", re.compile(r'"((?:[^"\\\n]|\\.)*)"(\s*:)?')
    )
    escapes = _PATTERNS.get("escape") or _PATTERNS.setdefault(
        "escape", re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)")
    )
    uuid = _PATTERNS.get("uuid") or _PATTERNS.setdefault(
        "uuid", re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
    )
    values = [
        escapes.sub(_blank, match.group(1))
        for match in strings.finditer(text)
        if match.group(2) is None  # a value, not a key
        and not uuid.fullmatch(match.group(1))  # an id: a session's, a tool call's
    ]
    return "\n".join(values)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _cleaned_json(text: str) -> bytes:
    """Parse, clean every value and key, encode again; lines one by one for JSON Lines."""
    import json  # noqa: PLC0415

    try:
        return json.dumps(clean(json.loads(text)), ensure_ascii=False).encode("utf-8")
    except ValueError:
        pass
    lines = []
    for line in text.split("\n"):
        try:
            lines.append(json.dumps(clean(json.loads(line)), ensure_ascii=False) if line else "")
        except ValueError:
            lines.append(clean(line))  # not JSON: redacted as text
    return "\n".join(lines).encode("utf-8")


# ---- whole files, atomically


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text``, redacted, to ``path`` atomically (a reader sees old or new)."""
    write_bytes(path, clean(text).encode("utf-8"))


def write_document(path: str | os.PathLike[str], data: bytes) -> bytes:
    """Write the JSON document ``data`` to ``path`` atomically, after :func:`checked_document`.

    The lines of the file it replaces were checked when they were written: only new lines
    are read (a store of 2,000 entries, one per line, changed by one, costs one entry).
    Returns the bytes written (``data`` itself unless a secret had to be taken out).
    """
    checked = checked_document(data, _lines_of(path))
    write_bytes(path, checked)
    return checked


def write_matrix(path: str | os.PathLike[str], head: bytes, body: bytes) -> bytes:
    """Write a derived binary file atomically: ``magic``, the JSON ``head`` checked whole, ``body``.

    For the vector layer's ``vectors.bin`` (:mod:`artibot_memory.recall.vectors`): ``head``
    is a JSON document (ids and text hashes, never a text), checked by
    :func:`checked_document` like any document; ``body`` is numbers computed from texts of
    the stores, which this module wrote (and so checked), written as they are. The layout:
    the 8 bytes ``MATRIX_MAGIC``, the head's length (8 bytes, little-endian), the head, the
    body. Returns the head as written.
    """
    checked = checked_document(head)
    write_bytes(path, MATRIX_MAGIC + len(checked).to_bytes(8, "little") + checked + body)
    return checked


MATRIX_MAGIC = b"ABMVEC1\n"


def connect_sqlite(path: str | os.PathLike[str], busy_timeout_ms: int) -> sqlite3.Connection:
    """Open (creating it private) the SQLite database at ``path``, in WAL mode.

    The one database the package writes is the search index, a copy of the stores: every
    row it gets is read from a store file this module wrote (and so checked), never from
    raw input, which is why its rows are not redacted again here. The file and its WAL
    and shared-memory files are created 0600 (the umask is narrowed while SQLite creates
    them).
    """
    import sqlite3  # noqa: PLC0415 - only the index pays for it

    previous = os.umask(0o077)
    try:
        connection = sqlite3.connect(os.fspath(path), timeout=busy_timeout_ms / 1000)
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError:
            connection.close()
            raise
    finally:
        os.umask(previous)
    for name in (os.fspath(path), f"{os.fspath(path)}-wal", f"{os.fspath(path)}-shm"):
        if os.path.exists(name) and not os.path.islink(name):
            os.chmod(name, FILE_MODE)
    return connection


def _lines_of(path: str | os.PathLike[str]) -> frozenset[str]:
    """Return the lines of the regular file at ``path`` (none if missing, a link, not ours)."""
    import stat  # noqa: PLC0415 - writes only

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC)
    except OSError:
        return frozenset()
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_uid != os.getuid():
            return frozenset()
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return frozenset(b"".join(chunks).decode("utf-8", "replace").split("\n"))
    finally:
        os.close(fd)


def write_bytes(path: str | os.PathLike[str], payload: bytes) -> None:
    """Write redacted ``payload`` via a fsynced temp file and ``os.replace`` (private mode).

    Private to this module's callers above: every public writer redacts first.
    """
    import contextlib  # noqa: PLC0415 - only a write pays for it
    import tempfile  # noqa: PLC0415

    target = os.fspath(path)
    folder, name = os.path.split(target)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, FILE_MODE)
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    fsync_dir(folder or ".")


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make a rename in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def create_exclusive(path: str, text: str) -> bool:
    """Create ``path`` holding redacted ``text``; False when it exists already (a lock)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, FILE_MODE)
    except FileExistsError:
        return False
    try:
        _write_all(fd, clean(text).encode("utf-8"))
    finally:
        os.close(fd)
    return True


# ---- appends and rewrites of line files


def open_append(path: str) -> int:
    """Open ``path`` for appending (created 0600, never through a symlink); the caller closes."""
    return os.open(path, APPEND_FLAGS | _CLOEXEC, FILE_MODE)


def open_rewrite(path: str) -> int:
    """Open the line file ``path`` to edit in place (never through a symlink); caller closes."""
    return os.open(path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC)


def append_line(fd: int, value: T, encode: Callable[[T], bytes]) -> None:
    """Append ``encode(clean(value))`` to ``fd`` with one ``os.write`` (one line, whole)."""
    os.write(fd, encode(clean(value)))


def append_text(path: str, text: str) -> None:
    """Append redacted ``text`` to the file at ``path`` (a log), as one write."""
    fd = open_append(path)
    try:
        os.write(fd, clean(text).encode("utf-8", "replace"))
    finally:
        os.close(fd)


def rewrite_lines(fd: int, data: bytes) -> None:
    """Replace the whole content of the open JSON Lines file ``fd`` by checked ``data``."""
    _rewrite(fd, checked_document(data))


def _rewrite(fd: int, data: bytes) -> None:
    os.lseek(fd, 0, os.SEEK_SET)
    _write_all(fd, data)
    os.ftruncate(fd, len(data))
    os.fsync(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class Log:
    """A log file that redacts each chunk written to it, and the pipe of a child process.

    ``run(argv)`` runs a command with its output read through a pipe and written here,
    redacted line by line: a child never writes into one of our files itself.
    """

    def __init__(self, path: str) -> None:
        """Open ``path`` for appending (truncated first: one build, one log)."""
        self.path = path
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _CLOEXEC, FILE_MODE)
        os.close(fd)

    def write(self, text: str) -> None:
        """Append redacted ``text``."""
        append_text(self.path, text)

    def run(self, command: list[str], timeout: float) -> None:
        """Run ``command``, logging its output line by line as it comes.

        A person can follow the log while it runs. Raise ``CalledProcessError`` on failure,
        ``TimeoutExpired`` after ``timeout``.
        """
        import subprocess  # noqa: PLC0415 - only the venv builder runs commands
        import threading  # noqa: PLC0415

        process = subprocess.Popen(  # noqa: S603 - the caller's fixed argv, no shell
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        watchdog = threading.Timer(timeout, process.kill)
        watchdog.start()
        try:
            with process:  # closes the pipe and waits
                for line in process.stdout or ():  # a pipe, as opened above
                    self.write(line.decode("utf-8", "replace"))
            code = process.returncode
        finally:
            expired = not watchdog.is_alive()
            watchdog.cancel()
        if expired and code:
            raise subprocess.TimeoutExpired(command, timeout)
        if code:
            raise subprocess.CalledProcessError(code, command)
