"""The derived search index, ``index.sqlite``: every memory of the four stores, one row each.

The JSON stores are the source of truth; the index is a copy made for reading, in SQLite
(standard library ``sqlite3``, WAL, 0600) with an FTS5 table of each memory's search tokens
(:func:`artibot_memory.text.tokens.memory_tokens`, our own tokenising, fed in as words). It
is disposable: delete it and the next read builds it again.

How it stays exact:

- the index records, per store, the fingerprint (inode, size, mtime) of the store file its
  rows were read from; a reader (:func:`fresh`) compares it with the file on disk and
  re-reads every store that changed, whoever changed it (a save, a hand edit, a restored
  backup, a write killed between the store and the index);
- a write of the package (:meth:`artibot_memory.store.jsonfile.Store.transaction`) updates
  the index right after the store file, under the store's lock, with only the entries that
  changed (:func:`after_write`: the store file holds one entry per line, so the changed
  lines are the changed entries), and only when the index was in step with the file it
  replaced; otherwise the reader's check rebuilds that store;
- so a forgotten memory cannot come back: its store file is written first, and an index
  that still holds it carries the old file's fingerprint, which no longer matches. Expired
  memories are kept out by the reader (``expires_us``), until the next prune drops them.
- a file that is not a usable index (corrupt, another version, not SQLite) is deleted and
  built again; ``artibot-memory doctor --reindex`` does the same on demand.

What a row holds: the fields a read filters and ranks on (``memories``: type, state, project
and its folder name, key, scope, confidence, times as microseconds since the epoch (created,
last seen, last verified, expiry), access count, token count),
the search tokens (``terms``), and the memory's JSON exactly as stored (``docs``, read only
for what is handed back: kept apart so a scan of ``memories`` stays small). ``totals`` holds
how many rows ``memories`` has and their summed token count, kept by triggers in the same
transaction as every insert and delete, so a search of a large index does not scan for them.

>>> import tempfile
>>> from pathlib import Path
>>> home = Path(tempfile.mkdtemp())
>>> connection = fresh(home)
>>> connection.execute("SELECT count(*) FROM memories").fetchone()
(0,)
>>> connection.close()
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3

from artibot_memory.core import clock, disk
from artibot_memory.core.errors import CorruptStoreError, StoreError, UnsafeStoreError
from artibot_memory.core.paths import is_inside
from artibot_memory.store import envelope, layers
from artibot_memory.store.files import fingerprint
from artibot_memory.store.table import STORES, StoreSpec
from artibot_memory.text.tokens import memory_tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import Any

    Entry = tuple[dict[str, Any], str]  # an entry parsed, and its JSON text as stored

INDEX_NAME = "index.sqlite"
# 2: the JSON apart (docs), a vocabulary of the terms (terms_vocab); 3: created_us (stats);
# 4: Korean question words as stopwords (the stored tokens changed); 5: totals, kept by
# triggers (a search of a large index reads its size and average length in one row);
# 6: the Markdown layers' lines (layer_files, layer_lines, layer_terms); 7: scope,
# confidence and last_verified_us (search's and context's filters)
INDEX_VERSION = 7
BUSY_TIMEOUT_MS = 5_000
BATCH = 1_000  # entries parsed and written at a time when a store is read in
# The characters our tokens hold besides letters and digits (file names, versions): FTS5
# must keep them inside a token, as our tokeniser did.
WORD_CHARS = "._-+#"

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stores (file TEXT PRIMARY KEY, fingerprint TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS memories (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    store TEXT NOT NULL,
    type TEXT NOT NULL,
    state TEXT NOT NULL,
    project TEXT,
    project_name TEXT,
    key TEXT,
    scope TEXT,
    confidence REAL,
    last_verified_us INTEGER,
    created_us INTEGER,
    last_seen_us INTEGER,
    expires_us INTEGER,
    access_count INTEGER NOT NULL DEFAULT 0,
    length INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS docs (rowid INTEGER PRIMARY KEY, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS memories_store ON memories (store);
CREATE VIRTUAL TABLE IF NOT EXISTS terms USING fts5(
    tokens, tokenize = "unicode61 remove_diacritics 0 tokenchars '{WORD_CHARS}'"
);
CREATE VIRTUAL TABLE IF NOT EXISTS terms_vocab USING fts5vocab(terms, 'row');
CREATE TABLE IF NOT EXISTS totals (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    count INTEGER NOT NULL,
    length INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS memories_added AFTER INSERT ON memories BEGIN
    UPDATE totals SET count = count + 1, length = length + new.length;
END;
CREATE TRIGGER IF NOT EXISTS memories_removed AFTER DELETE ON memories BEGIN
    UPDATE totals SET count = count - 1, length = length - old.length;
END;
CREATE TABLE IF NOT EXISTS layer_files (path TEXT PRIMARY KEY, fingerprint TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS layer_lines (
    rowid INTEGER PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,
    layer TEXT NOT NULL,
    path TEXT NOT NULL,
    line INTEGER NOT NULL,
    date_us INTEGER NOT NULL,
    project TEXT,
    section TEXT,
    text TEXT NOT NULL,
    marker TEXT,
    ref TEXT,
    length INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS layer_lines_path ON layer_lines (path);
CREATE VIRTUAL TABLE IF NOT EXISTS layer_terms USING fts5(
    tokens, tokenize = "unicode61 remove_diacritics 0 tokenchars '{WORD_CHARS}'"
);
"""  # noqa: S608 - our own schema, no value in it


def index_path(home: str | os.PathLike[str]) -> str:
    """Return where the index of a memory home lives."""
    return os.path.join(home, INDEX_NAME)


# ---- opening


def fresh(
    home: str | os.PathLike[str], on_unusable: Callable[[StoreError], None] | None = None
) -> sqlite3.Connection:
    """Return a connection to the home's index, in step with every store file on disk.

    Builds the index when it is missing or unusable, and re-reads each store whose file
    changed since its rows were written. A store file that cannot be read raises its
    :class:`~artibot_memory.core.errors.StoreError`, as loading the store would, unless
    ``on_unusable`` is given: then it is reported there and the store's rows are left out
    of the index until its file can be read again (a hook must not lose all memory to one
    bad file, nor serve what a broken file may no longer hold).
    """
    for attempt in (1, 2):
        connection = _open(os.fspath(home))
        try:
            for spec in STORES:
                _catch_up_or_drop(connection, os.fspath(home), spec, on_unusable)
        except sqlite3.DatabaseError:
            connection.close()
            if attempt == 2:  # noqa: PLR2004 - a new index that still fails: say so
                raise
            remove(home)  # damaged past what opening it shows: build it again
        except BaseException:
            connection.close()
            raise
        else:
            return connection
    msg = "unreachable"
    raise AssertionError(msg)


def rebuild(home: str | os.PathLike[str]) -> int:
    """Delete the index and build it again from the stores; return how many rows it holds."""
    remove(home)
    connection = fresh(home)
    try:
        return int(connection.execute("SELECT count(*) FROM memories").fetchone()[0])
    finally:
        connection.close()


def remove(home: str | os.PathLike[str]) -> None:
    """Delete the index and its WAL files (the next read builds it again)."""
    path = index_path(home)
    for name in (path, f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(name)


def _open(home: str) -> sqlite3.Connection:
    """Open the index, creating it; an unusable file is deleted and created again.

    A memory home that does not exist yet holds nothing, and a read does not create it:
    its index is an empty one in memory.
    """
    if not os.path.isdir(home):
        connection = disk.connect_sqlite(":memory:", BUSY_TIMEOUT_MS)
        _prepare(connection)
        return connection
    for attempt in (1, 2):
        try:
            connection = disk.connect_sqlite(index_path(home), BUSY_TIMEOUT_MS)
        except sqlite3.DatabaseError:
            if attempt == 2:  # noqa: PLR2004 - a fresh file that still fails: give up loudly
                raise
            remove(home)
            continue
        try:
            _prepare(connection)
        except sqlite3.DatabaseError:
            connection.close()
            if attempt == 2:  # noqa: PLR2004
                raise
            remove(home)
            continue
        return connection
    msg = "unreachable"
    raise AssertionError(msg)


def _prepare(connection: sqlite3.Connection) -> None:
    """Create the tables, or check that the file is an index of this version."""
    found = connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    if found is None:
        with connection:
            connection.executescript(_SCHEMA)
            connection.execute("INSERT INTO totals VALUES (1, 0, 0)")
            connection.execute("INSERT INTO meta VALUES ('version', ?)", (str(INDEX_VERSION),))
        return
    version = connection.execute("SELECT value FROM meta WHERE name = 'version'").fetchone()
    if version is None or version[0] != str(INDEX_VERSION):
        msg = f"index version {version[0] if version else None}, not {INDEX_VERSION}"
        raise sqlite3.DatabaseError(msg)


# ---- reading the stores in


def _catch_up_or_drop(
    connection: sqlite3.Connection,
    home: str,
    spec: StoreSpec,
    on_unusable: Callable[[StoreError], None] | None,
) -> None:
    try:
        _catch_up(connection, home, spec)
    except StoreError as exc:
        if on_unusable is None:
            raise
        on_unusable(exc)
        with _writing(connection):  # re-read once the file can be: no stamp is kept
            _delete_store_rows(connection, spec)
            connection.execute("DELETE FROM stores WHERE file = ?", (spec.filename,))


def _delete_store_rows(connection: sqlite3.Connection, spec: StoreSpec) -> None:
    for table in ("terms", "docs"):
        connection.execute(
            f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM memories WHERE store = ?)",  # noqa: S608 - our table names
            (spec.filename,),
        )
    connection.execute("DELETE FROM memories WHERE store = ?", (spec.filename,))


def _catch_up(connection: sqlite3.Connection, home: str, spec: StoreSpec) -> None:
    """Re-read one store into the index when its file is not the one the rows came from."""
    path = os.path.join(home, spec.filename)
    if os.path.islink(path) and not _stays_inside(path, home):
        raise UnsafeStoreError(path, "is a symlink leading out of the memory home")
    recorded = _recorded(connection, spec)
    if recorded == stamp(fingerprint(path)):
        return
    raw, read_from = _read_store(path)
    with _writing(connection):
        _delete_store_rows(connection, spec)
        batch: list[Entry] = []
        for entry in _entries_of(path, raw) if raw is not None else ():
            batch.append(entry)
            if len(batch) == BATCH:
                _insert(connection, spec, batch)
                batch = []
        _insert(connection, spec, batch)
        _record(connection, spec, read_from)


def _stays_inside(path: str, home: str) -> bool:
    from pathlib import Path  # noqa: PLC0415 - a symlinked store only: the read path has none

    return is_inside(Path(path), Path(home))


def _read_store(path: str) -> tuple[bytes | None, str]:
    """Return a store file's bytes (None: no file) and the stamp of the very file read."""
    for _ in range(3):  # a writer may replace the file while it is read: read it again
        before = fingerprint(path)
        if before is None:
            return None, stamp(None)
        try:
            with open(path, "rb") as file:
                raw = file.read()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise CorruptStoreError(path, f"cannot be read ({exc.strerror})") from exc
        if fingerprint(path) == before:
            return raw, stamp(before)
    raise CorruptStoreError(path, "kept changing while the index read it")


def _entries_of(path: str, raw: bytes) -> Iterator[Entry]:
    """Parse a store file without pydantic: each entry with its JSON text, as stored.

    A file framed as the package writes it is read line by line (each line is the
    entry's own JSON, kept as the row's ``doc``), so a large store is never held parsed
    whole; any other layout is parsed whole, and an older version is migrated in memory,
    as a load does. A store that is not valid JSON raises, saying why.
    """
    if not raw.strip():
        raise CorruptStoreError(path, "is empty (0 bytes of JSON)")
    if raw.startswith(_FRAMED_HEAD) and raw.rstrip().endswith(b"]}"):
        try:
            for line in _each_entry_line(raw):
                entry = json.loads(line)
                if _usable(entry):
                    yield entry, line.decode("utf-8")
        except ValueError:
            pass  # not what it looked like: parsed whole below, which says what is wrong
        else:
            return
    yield from ((e, _dumped(e)) for e in _whole_entries(path, raw) if _usable(e))


def _whole_entries(path: str, raw: bytes) -> list[Any]:
    """Return the entries of a store file parsed whole (migrated when older)."""
    try:
        document = json.loads(raw)
    except ValueError as exc:
        raise CorruptStoreError(path, f"is not valid JSON ({exc})") from exc
    if not _is_current_envelope(document):
        document = _migrated(path, document)
    return envelope.current_entries(document)


_FRAMED_HEAD = b'{"schema_version":%d,"entries":[\n' % envelope.SCHEMA_VERSION


def _dumped(entry: dict[str, Any]) -> str:
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


def _migrated(path: str, document: object) -> dict[str, Any]:
    """Return an older store file migrated in memory, as a load does (a save writes it)."""
    from artibot_memory.core.errors import NewerSchemaError  # noqa: PLC0415 - rare
    from artibot_memory.store.migrations import migrate, schema_version_of  # noqa: PLC0415

    version = schema_version_of(document)
    if version > envelope.SCHEMA_VERSION:
        msg = f"has schema_version {version}, newer than {envelope.SCHEMA_VERSION}"
        raise NewerSchemaError(path, msg)
    migrated = migrate(document) if version >= 0 else None
    if migrated is None or not isinstance(migrated.get("entries"), list):
        raise CorruptStoreError(path, 'is not a store ({"schema_version": N, "entries": [...]})')
    return {"schema_version": envelope.SCHEMA_VERSION, "entries": migrated["entries"]}


def _is_current_envelope(document: object) -> bool:
    return (
        isinstance(document, dict)
        and document.get("schema_version") == envelope.SCHEMA_VERSION
        and isinstance(document.get("entries"), list)
    )


def _usable(entry: object) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("id"), str)
        and isinstance(entry.get("text"), str)
        and isinstance(entry.get("type"), str)
    )


# ---- the Markdown layers


def catch_up_layers(connection: sqlite3.Connection, home: str | os.PathLike[str]) -> None:
    """Bring the layers' rows in step with ``daily/*.md`` and ``MEMORY.md`` on disk.

    Cheap when nothing changed: one ``stat`` per file, compared with the fingerprint
    (inode, size, mtime) its rows were read from. A changed file is read again, a deleted
    one's rows dropped. A managed MEMORY.md line is kept with its marker but not in
    ``layer_terms``: it is the memory it names, which the stores' rows already return.
    """
    on_disk = layers.layer_files(home)
    recorded = dict(connection.execute("SELECT path, fingerprint FROM layer_files"))
    changed = {
        rel: found
        for rel, disk_path in on_disk.items()
        if (found := fingerprint(disk_path)) is not None and recorded.get(rel) != stamp(found)
    }
    gone = [rel for rel in recorded if rel not in on_disk]
    if not changed and not gone:
        return
    with _writing(connection):
        for rel in [*gone, *changed]:
            _delete_layer_rows(connection, rel)
        for rel, found in changed.items():
            text = layers.read_layer(on_disk[rel])
            _insert_layer_rows(connection, layers.rows_of(rel, text, found[2] // 1_000))
            connection.execute("INSERT INTO layer_files VALUES (?, ?)", (rel, stamp(found)))


def _delete_layer_rows(connection: sqlite3.Connection, rel: str) -> None:
    connection.execute(
        "DELETE FROM layer_terms WHERE rowid IN (SELECT rowid FROM layer_lines WHERE path = ?)",
        (rel,),
    )
    connection.execute("DELETE FROM layer_lines WHERE path = ?", (rel,))
    connection.execute("DELETE FROM layer_files WHERE path = ?", (rel,))


def _insert_layer_rows(connection: sqlite3.Connection, rows: Sequence[layers.LayerRow]) -> None:
    start = connection.execute("SELECT coalesce(max(rowid), 0) FROM layer_lines").fetchone()[0]
    lines, terms = [], []
    for offset, row in enumerate(rows, start=1):
        tokens = [] if row.marker else memory_tokens(row.text, None, [])
        lines.append(
            (
                start + offset,
                row.source,
                row.layer,
                row.path,
                row.line,
                row.date_us,
                row.project,
                row.section,
                row.text,
                row.marker,
                row.ref,
                len(tokens),
            )
        )
        if tokens:
            terms.append((start + offset, " ".join(tokens)))
    connection.executemany(
        "INSERT INTO layer_lines VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", lines
    )
    connection.executemany("INSERT INTO layer_terms (rowid, tokens) VALUES (?, ?)", terms)


# ---- the write path


def after_write(
    home: str | os.PathLike[str],
    spec: StoreSpec,
    before: tuple[bytes, tuple[int, int, int] | None],
    written: bytes,
) -> None:
    """Bring the index in step with a store file just written (call under the store's lock).

    ``before`` is the bytes and fingerprint of the file the write replaced, ``written``
    the bytes now on disk. Only the changed entries are written to the index, and only when
    it held exactly the replaced file; otherwise nothing is done here and the next reader
    re-reads the store. Never raises: a store write must not fail for its index.
    """
    path = index_path(home)
    if not os.path.exists(path):
        return  # no index yet: the first read builds it whole
    try:
        connection = disk.connect_sqlite(path, BUSY_TIMEOUT_MS)
    except sqlite3.Error:
        return
    try:
        _apply_write(connection, os.fspath(home), spec, before, written)
    except Exception:  # noqa: BLE001 - whatever went wrong, the next reader re-reads the store
        _forget_stamp(connection, spec)
    finally:
        connection.close()


def _apply_write(
    connection: sqlite3.Connection,
    home: str,
    spec: StoreSpec,
    before: tuple[bytes, tuple[int, int, int] | None],
    written: bytes,
) -> None:
    old_raw, old_fingerprint = before
    now = fingerprint(os.path.join(home, spec.filename))
    recorded = _recorded(connection, spec)
    if now is not None and recorded == stamp(now):
        return  # a reader caught up already, from the file now on disk
    framed = not old_raw or old_raw.startswith(_FRAMED_HEAD)
    if (
        now is None
        or recorded != stamp(old_fingerprint)
        or not framed
        or not written.startswith(_FRAMED_HEAD[:-1])
    ):
        _forget_stamp(connection, spec)  # the index was behind, or the lines are not entries
        return
    old_lines, new_lines = set(_entry_lines(old_raw)), _entry_lines(written)
    changed = [
        (json.loads(line), line.decode("utf-8")) for line in new_lines if line not in old_lines
    ]
    usable = [(entry, doc) for entry, doc in changed if _usable(entry)]
    kept_ids = {entry["id"] for entry, _ in usable}
    gone = {json.loads(line)["id"] for line in old_lines - set(new_lines)} - kept_ids
    with _writing(connection):
        if _recorded(connection, spec) != stamp(old_fingerprint):
            return  # a reader caught up meanwhile, from the file now on disk
        _delete(connection, [*gone, *kept_ids])
        _insert(connection, spec, usable)
        _record(connection, spec, stamp(now))


def _each_entry_line(raw: bytes) -> Iterator[bytes]:
    """Yield :func:`_entry_lines` one at a time: a large store is not held twice, as lines."""
    start, end = raw.find(b"\n") + 1, raw.rfind(b"\n")
    if start <= 0 or end < start:
        return  # fewer than two newlines: no line between the head and the tail
    while True:
        stop = raw.find(b"\n", start, end)
        if stop < 0:
            yield raw[start:end].rstrip(b",")
            return
        yield raw[start:stop].rstrip(b",")
        start = stop + 1


def _entry_lines(raw: bytes) -> list[bytes]:
    """Return the entries of a store file as :func:`envelope.encode` frames them, one a line."""
    lines = raw.split(b"\n")
    return [line.rstrip(b",") for line in lines[1:-1]] if len(lines) > 2 else []  # noqa: PLR2004


# ---- rows


def _insert(connection: sqlite3.Connection, spec: StoreSpec, entries: Sequence[Entry]) -> None:
    """Add rows for ``entries`` (an id already held, or twice in them, is left out)."""
    held = _held_ids(connection, [entry["id"] for entry, _ in entries])
    start = connection.execute("SELECT coalesce(max(rowid), 0) FROM memories").fetchone()[0]
    rows: list[tuple[object, ...]] = []
    terms: list[tuple[int, str]] = []
    for entry, doc in entries:
        if entry["id"] in held:
            continue
        held.add(entry["id"])
        tags = entry.get("tags")
        tokens = memory_tokens(
            str(entry.get("text") or ""),
            _text_or_none(entry.get("key")),
            [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else [],
        )
        rowid = start + len(rows) + 1
        rows.append(
            (
                rowid,
                entry["id"],
                spec.filename,
                entry["type"],
                str(entry.get("state") or "active"),
                _text_or_none(entry.get("project")),
                _project_name(entry.get("project")),
                _text_or_none(entry.get("key")),
                _text_or_none(entry.get("scope")) or "global",
                _number(entry.get("confidence")),
                _micros(entry.get("last_verified")),
                _micros(entry.get("created_at")),
                _micros(entry.get("last_seen")),
                _micros(entry.get("expires_at")),
                _count(entry.get("access_count")),
                len(tokens),
                doc,
            )
        )
        terms.append((rowid, " ".join(tokens)))
    connection.executemany(
        "INSERT INTO memories (rowid, id, store, type, state, project, project_name, key, "
        "scope, confidence, last_verified_us, created_us, last_seen_us, expires_us, "
        "access_count, length) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [row[:-1] for row in rows],
    )
    connection.executemany(
        "INSERT INTO docs (rowid, doc) VALUES (?, ?)", [(r[0], r[-1]) for r in rows]
    )
    connection.executemany("INSERT INTO terms (rowid, tokens) VALUES (?, ?)", terms)


def _held_ids(connection: sqlite3.Connection, ids: Sequence[str]) -> set[str]:
    held: set[str] = set()
    for at in range(0, len(ids), 500):
        batch = ids[at : at + 500]
        marks = ", ".join("?" * len(batch))
        sql = f"SELECT id FROM memories WHERE id IN ({marks})"  # noqa: S608 - placeholders only
        held.update(row[0] for row in connection.execute(sql, batch))
    return held


@contextlib.contextmanager
def _writing(connection: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, holding SQLite's write lock from its first statement.

    Rows get their rowids from ``max(rowid)``: two writers (two stores, or a writer and a
    reader catching up) must not read the same maximum.
    """
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        connection.rollback()
        raise
    connection.commit()


def _delete(connection: sqlite3.Connection, ids: Sequence[str]) -> None:
    for memory_id in ids:
        row = connection.execute("SELECT rowid FROM memories WHERE id = ?", (memory_id,)).fetchone()
        if row is not None:
            connection.execute("DELETE FROM terms WHERE rowid = ?", row)
            connection.execute("DELETE FROM docs WHERE rowid = ?", row)
            connection.execute("DELETE FROM memories WHERE rowid = ?", row)


def _recorded(connection: sqlite3.Connection, spec: StoreSpec) -> str | None:
    row = connection.execute(
        "SELECT fingerprint FROM stores WHERE file = ?", (spec.filename,)
    ).fetchone()
    return None if row is None else str(row[0])


def _record(connection: sqlite3.Connection, spec: StoreSpec, stamp: str) -> None:
    connection.execute("INSERT OR REPLACE INTO stores VALUES (?, ?)", (spec.filename, stamp))


def _forget_stamp(connection: sqlite3.Connection, spec: StoreSpec) -> None:
    """Mark a store's rows stale, so the next reader re-reads it (best effort)."""
    try:
        with connection:
            connection.execute("DELETE FROM stores WHERE file = ?", (spec.filename,))
    except sqlite3.Error:
        pass


def stamp(found: tuple[int, int, int] | None) -> str:
    """Return how the index records a store file's fingerprint (``missing``: no file)."""
    return "missing" if found is None else "%d:%d:%d" % found  # noqa: UP031


def _micros(value: object) -> int | None:
    moment = clock.parse_time(value)
    return None if moment is None else int(moment.timestamp() * 1_000_000)


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _project_name(value: object) -> str | None:
    return os.path.basename(value) if isinstance(value, str) else None


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None
