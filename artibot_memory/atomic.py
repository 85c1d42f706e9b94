"""Atomic file replacement (standard library only): a reader sees the old file or the new.

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "x.json"
>>> write_atomically(target, b"{}")
>>> target.read_bytes()
b'{}'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from artibot_memory.paths import FILE_MODE


def write_atomically(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` via a fsynced temp file and ``os.replace``."""
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, FILE_MODE)
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
