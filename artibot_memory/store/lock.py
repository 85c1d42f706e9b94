"""The lock of one store file: ``<file>.lock``, taken for a whole read-modify-write.

Every writer of a store (a save, a prune, doctor's repair) takes it through
:func:`locked`, so a busy lock and an unusable lock file read the same everywhere.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from artibot_memory.core.errors import StoreBusyError, UnsafeStoreError
from artibot_memory.core.paths import FILE_MODE

LOCK_TIMEOUT_SECONDS = 10.0


@contextlib.contextmanager
def locked(path: Path, timeout: float = LOCK_TIMEOUT_SECONDS) -> Iterator[None]:
    """Hold the lock of the store at ``path`` for the body of a ``with`` block.

    Raises :class:`StoreBusyError` when another process holds it past ``timeout``, and
    :class:`UnsafeStoreError` when the lock file cannot be used (a symlink loop).
    """
    lock = FileLock(str(path) + ".lock", timeout=timeout, mode=FILE_MODE)
    try:
        lock.acquire()
    except Timeout as exc:
        raise StoreBusyError(path, timeout) from exc
    except OSError as exc:
        raise UnsafeStoreError(path, f"its lock cannot be taken ({exc.strerror})") from exc
    try:
        yield
    finally:
        lock.release()
