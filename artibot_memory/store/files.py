"""Files of the memory home, written and set aside safely (standard library only).

- :func:`fingerprint`: (inode, size, mtime) of a file, how readers tell it changed;
- :func:`move_aside`: a file that cannot be used is renamed, never deleted or overwritten.

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "x.json"
>>> _ = target.write_bytes(b"{}")  # the package writes with core.disk
>>> target.read_bytes(), fingerprint(target)[1]
(b'{}', 2)
>>> fingerprint(target.with_name("missing")) is None
True
"""

from __future__ import annotations

import os

from artibot_memory.core import clock
from artibot_memory.core.paths import DIR_MODE, FILE_MODE

# The cached SessionStart reads fingerprints here: pathlib, datetime, tempfile and typing
# are imported only where a file is set aside or written, or for checkers.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime
    from pathlib import Path

Fingerprint = tuple[int, int, int]


def fingerprint(path: str | os.PathLike[str]) -> Fingerprint | None:
    """Return (inode, size, mtime in ns) of ``path``, or None when it cannot be read."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_ino, status.st_size, status.st_mtime_ns)


def move_aside(path: Path, at: datetime | None = None) -> Path:
    """Rename ``path`` to ``<name>.corrupt-<UTC time>`` and return the new path.

    Never replaces an earlier copy moved aside in the same second, and makes the copy
    owner-only. A symlink is renamed itself: what it points to is not touched.
    """
    from datetime import timedelta  # noqa: PLC0415 - see above

    moment = at or clock.now()
    while os.path.lexists(_aside_name(path, moment)):
        moment += timedelta(seconds=1)
    target = _aside_name(path, moment)
    path.replace(target)
    if not target.is_symlink():
        make_private(target)
    return target


def _aside_name(path: Path, at: datetime) -> Path:
    return path.with_name(f"{path.name}.corrupt-{at:%Y%m%dT%H%M%SZ}")


def make_private(path: Path) -> None:
    """Make a file 0600, a folder 0700."""
    os.chmod(path, DIR_MODE if path.is_dir() else FILE_MODE)
