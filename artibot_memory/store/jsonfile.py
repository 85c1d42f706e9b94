"""One JSON store file: load, validate, migrate, lock, atomic save, backup.

Rules that hold for every write (DESIGN.md, non-negotiable 2):

- one ``filelock`` per store (``<file>.lock``), taken for the whole read-modify-write;
- the new content goes to a temp file in the same folder, is fsynced, then replaces the
  file (``os.replace``), and the folder is fsynced: a reader sees the old or the new file,
  never half of one;
- the previous good file is kept as ``backups/<file>`` (a hard link, so it costs nothing);
  a forget or a prune rewrites it without what they removed (:meth:`Store.purge_backup`);
- a file that fails to parse, has the wrong shape or a newer ``schema_version`` raises a
  :class:`~artibot_memory.core.errors.StoreError` and is never overwritten;
- the search index (:mod:`artibot_memory.store.index`) is brought in step right after the
  file, under the same lock, with the entries that changed.

Readers do not take the lock: atomic replacement makes a plain read consistent.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TypeVar

import orjson
from pydantic import TypeAdapter, ValidationError

from artibot_memory.core.disk import write_document
from artibot_memory.core.errors import (
    CorruptStoreError,
    NewerSchemaError,
    StoreBusyError,
    StoreError,
    UnsafeStoreError,
)
from artibot_memory.core.paths import ensure_private_dir, is_inside, memory_home
from artibot_memory.store import envelope, index
from artibot_memory.store.files import Fingerprint, fingerprint
from artibot_memory.store.lock import LOCK_TIMEOUT_SECONDS, locked
from artibot_memory.store.migrations import migrate, schema_version_of
from artibot_memory.store.model import Memory
from artibot_memory.store.table import StoreSpec

_ENTRIES = TypeAdapter(list[Memory])
_READ_CACHE: dict[Path, tuple[Fingerprint, list[Memory]]] = {}
T = TypeVar("T")


class Store:
    """The store of one memory type inside a memory home.

    >>> from artibot_memory.store.table import spec_for
    >>> Store(spec_for("error"), Path("/tmp/home")).path.name
    'error-patterns.json'
    """

    def __init__(self, spec: StoreSpec, home: Path | None = None) -> None:
        """Bind the store to ``home`` (default: the memory home, resolved now)."""
        self.spec = spec
        self.home = home if home is not None else memory_home()
        self.path = self.home / spec.filename
        self.backup_path = self.home / "backups" / spec.filename

    def load(self) -> list[Memory]:
        """Return the entries on disk, to read and not to change (none if no file yet).

        Parsed files are kept per process and reused while the file's inode, size and
        mtime are unchanged: one hook reads the same store several times, and
        validation is most of the cost. Change entries only inside :meth:`transaction`,
        which always reads the file afresh.
        """
        self._refuse_unsafe_link()
        seen = fingerprint(self.path)
        if seen is None:
            return []
        cached = _READ_CACHE.get(self.path)
        if cached is not None and cached[0] == seen:
            return list(cached[1])
        entries = self._read()
        _READ_CACHE[self.path] = (seen, entries)
        return list(entries)

    def _read(self) -> list[Memory]:
        data = self._read_bytes()
        return parse_store_bytes(self.path, data) if data is not None else []

    def _read_bytes(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CorruptStoreError(self.path, f"cannot be read ({exc.strerror})") from exc

    @contextlib.contextmanager
    def transaction(
        self, timeout: float = LOCK_TIMEOUT_SECONDS, *, purge_backup: bool = False
    ) -> Iterator[list[Memory]]:
        """Lock the store, yield its entries to change in place, then save them atomically.

        Nothing is written when the body raises. With ``purge_backup`` (forget, prune) the
        entries the body removed leave ``backups/<file>`` too, under the same lock, and
        temp files of killed writes (which may hold them) are deleted: see
        :meth:`purge_backup`.
        """
        ensure_private_dir(self.home)
        with locked(self.path, timeout):
            self._refuse_unsafe_link()
            seen = fingerprint(self.path)
            data = self._read_bytes()
            entries = parse_store_bytes(self.path, data) if data is not None else []
            before = {entry.id for entry in entries}
            yield entries
            payload = encode_entries(entries)
            written = self._write(entries, payload)
            if written == payload:  # the file holds exactly these: the next load needs no parse
                stamp = fingerprint(self.path)
                if stamp is not None:
                    _READ_CACHE[self.path] = (stamp, list(entries))
            index.after_write(self.home, self.spec, (data or b"", seen), written)
            if purge_backup:
                self.purge_backup(before - {entry.id for entry in entries})

    def purge_backup(self, gone: Collection[str]) -> None:
        """Remove the entries whose id is in ``gone`` from the backup; call under the lock.

        The backup is rewritten atomically without them. A backup that does not parse
        cannot be edited entry by entry and may hold them: it is deleted (doctor would not
        restore it anyway). Temp files left by killed writes of this store are deleted.
        """
        if not gone:
            return
        self._delete_litter()
        if not self.backup_path.exists() or not is_inside(self.backup_path, self.home):
            return  # nothing there, or a link out of the home: not ours to read or write
        try:
            kept = parse_store_bytes(self.backup_path, self.backup_path.read_bytes())
        except (StoreError, OSError):
            self.backup_path.unlink(missing_ok=True)
            return
        remaining = [entry for entry in kept if entry.id not in gone]
        if len(remaining) < len(kept):
            write_document(self.backup_path, encode_entries(remaining))

    def temp_files(self) -> list[Path]:
        """Temp files of writes of this store: of the store, of its backup and its staging.

        Left over when a write was killed; loading never reads them. Only meaningful under
        the store's lock, or as a report: a running write has one too.
        """
        name, backups = self.path.name, self.backup_path.parent
        patterns = [
            (self.home, f".{name}.*.tmp"),
            (backups, f".{name}.*.tmp"),
            (backups, f"{name}.*.tmp"),
        ]
        return [path for folder, pattern in patterns for path in folder.glob(pattern)]

    def _delete_litter(self) -> None:
        """Delete the temp files of killed writes (call under the lock)."""
        for path in self.temp_files():
            path.unlink(missing_ok=True)

    def _refuse_unsafe_link(self) -> None:
        if self.path.is_symlink() and not is_inside(self.path, self.home):
            raise UnsafeStoreError(self.path, "is a symlink leading out of the memory home")

    def _write(self, entries: list[Memory], payload: bytes | None = None) -> bytes:
        self._refuse_unsafe_link()
        payload = encode_entries(entries) if payload is None else payload
        self._keep_backup()
        return write_document(self.path, payload)

    def _keep_backup(self) -> None:
        if not self.path.exists():
            return
        if not is_inside(self.backup_path.parent, self.home):
            return  # backups/ is a link out of the home: write nothing there
        ensure_private_dir(self.backup_path.parent)
        staging = self.backup_path.with_name(self.backup_path.name + f".{os.getpid()}.tmp")
        try:
            os.link(self.path, staging)
        except OSError:
            return  # a filesystem without hard links: the store write still goes ahead
        staging.replace(self.backup_path)


def encode_entries(entries: list[Memory]) -> bytes:
    """Return the bytes of a store file holding ``entries``, exactly as a save writes them.

    >>> encode_entries([])
    b'{"schema_version":1,"entries":[]}'
    """
    return envelope.encode(_ENTRIES.dump_json(entries))


def group_by_store(
    items: Iterable[T], stores_of: Callable[[T], Iterable[StoreSpec]]
) -> dict[StoreSpec, list[T]]:
    """Sort ``items`` by the store (or stores) each belongs to, keeping their order.

    >>> from artibot_memory.store.table import specs_for_id
    >>> groups = group_by_store(["cmd-1", "err-2", "cmd-3"], specs_for_id)
    >>> [(spec.type.value, ids) for spec, ids in groups.items()]
    [('command', ['cmd-1', 'cmd-3']), ('error', ['err-2'])]
    """
    groups: dict[StoreSpec, list[T]] = {}
    for item in items:
        for spec in stores_of(item):
            groups.setdefault(spec, []).append(item)
    return groups


def change_each_store(
    groups: Mapping[StoreSpec, T],
    change: Callable[[StoreSpec, list[Memory], T], None],
    home: Path | None = None,
    *,
    timeout: float = LOCK_TIMEOUT_SECONDS,
    skip_busy: bool = False,
) -> list[StoreSpec]:
    """Apply ``change`` to every store in ``groups``: one lock and one write per store.

    ``change(spec, entries, group)`` edits the entries in place (see
    :meth:`Store.transaction`). With ``skip_busy`` a store whose lock stays busy past
    ``timeout`` is left out and named in the list returned; otherwise it raises.
    """
    skipped: list[StoreSpec] = []
    for spec, group in groups.items():
        try:
            with Store(spec, home).transaction(timeout) as entries:
                change(spec, entries, group)
        except StoreBusyError:
            if not skip_busy:
                raise
            skipped.append(spec)
    return skipped


def parse_store_bytes(path: Path, data: bytes) -> list[Memory]:
    """Parse, migrate and validate a store file's bytes; ``path`` names it in errors."""
    if not data.strip():
        raise CorruptStoreError(path, "is empty (0 bytes of JSON)")
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise CorruptStoreError(path, f"is not valid JSON ({exc})") from exc
    version = schema_version_of(raw)
    current = envelope.SCHEMA_VERSION
    if version > current:
        raise NewerSchemaError(path, f"has schema_version {version}, newer than {current}")
    document = migrate(raw) if version >= 0 else None
    if document is None or not isinstance(document.get("entries"), list):
        raise CorruptStoreError(path, 'is not a store ({"schema_version": N, "entries": [...]})')
    try:
        return _ENTRIES.validate_python(document["entries"])
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        problem = f"has an invalid entry at entries.{where} ({first['msg']})"
        raise CorruptStoreError(path, problem) from exc
