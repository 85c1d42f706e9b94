"""The ids of forgotten memories, so that nothing brings one back: ``tombstones.json``.

``forget`` records the id of every memory it deletes here, before it deletes it. The two
ways an old copy of a memory could return consult the file: doctor's restore from
``backups/`` leaves a tombstoned entry out, and an import skips a full record whose id is
tombstoned (the user asked to forget it; an old export does not overrule that).

- Ids only, never text: ``{"v": 1, "ids": ["pref-3f9a2c1b0d", ...]}``, oldest first.
- Written atomically (temp file, fsync, rename), mode 0600, under its own lock
  (``tombstones.json.lock``), so two forgets at once both stay recorded.
- Bounded: the newest :data:`MAX_TOMBSTONES` ids are kept (about 200 KB). An id older than
  that could only come back from an export made before thousands of later forgets.
- A damaged file is read for every id still legible in it (each quoted string), and the
  next forget rewrites it whole: a broken tombstone file never lets an id back.

Expired entries get no tombstone: their expiry travels in the record, so an import drops
them on arrival and a restore leaves them out.

>>> import tempfile
>>> home = Path(tempfile.mkdtemp())
>>> record_forgotten(["pref-3f9a2c1b0d"], home)
>>> sorted(forgotten_ids(home))
['pref-3f9a2c1b0d']
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from artibot_memory.core.disk import write_document
from artibot_memory.core.paths import ensure_private_dir, memory_home

TOMBSTONES_NAME = "tombstones.json"
TOMBSTONES_VERSION = 1
MAX_TOMBSTONES = 10_000
_QUOTED = re.compile(r'"((?:[^"\\\n]|\\.){1,300})"')
_FRAME_WORDS = frozenset({"v", "ids"})


def tombstones_path(home: Path | None = None) -> Path:
    """Return the tombstone file of ``home`` (default: the memory home).

    >>> tombstones_path(Path("/h")).name
    'tombstones.json'
    """
    return (home if home is not None else memory_home()) / TOMBSTONES_NAME


def forgotten_ids(home: Path | None = None) -> frozenset[str]:
    """Return every tombstoned id (none when there is no file yet).

    >>> import tempfile
    >>> forgotten_ids(Path(tempfile.mkdtemp()))
    frozenset()
    """
    return frozenset(_read(tombstones_path(home)))


def record_forgotten(ids: Iterable[str], home: Path | None = None) -> None:
    """Add ``ids`` to the tombstones (kept once each, the newest last), under the lock."""
    from artibot_memory.store.lock import locked  # noqa: PLC0415 - filelock: writers only

    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return
    path = tombstones_path(home)
    ensure_private_dir(path.parent)
    with locked(path):
        again = set(wanted)
        kept = [i for i in _read(path) if i not in again] + wanted
        document = {"v": TOMBSTONES_VERSION, "ids": kept[-MAX_TOMBSTONES:]}
        write_document(path, json.dumps(document, ensure_ascii=False).encode("utf-8"))


def _read(path: Path) -> list[str]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    return ids_in(data)


def ids_in(data: bytes) -> list[str]:
    """Return the ids a tombstone file's ``data`` holds, in its order (a damaged one's too).

    Sync reads another machine's file with it, and team memory this person's: a file that
    does not parse still forgets what it can be read to forget.

    >>> ids_in(b'{"v": 1, "ids": ["pref-1", "ctx-2"]}'), ids_in(b""), ids_in(b'{"ids": ["x-1"')
    (['pref-1', 'ctx-2'], [], ['x-1'])
    """
    text = data.decode("utf-8", "replace")
    try:
        document = json.loads(text)
    except ValueError:
        return _legible_ids(text)
    ids = document.get("ids") if isinstance(document, dict) else None
    if not isinstance(ids, list):
        return _legible_ids(text)
    return [str(i) for i in ids if isinstance(i, str)]


def _legible_ids(text: str) -> list[str]:
    """Every quoted string of a damaged file but the frame's own words, in their order.

    >>> _legible_ids('{"v": 1, "ids": ["pref-1", "ctx-2", "err-')
    ['pref-1', 'ctx-2']
    """
    found = []
    for match in _QUOTED.finditer(text):
        try:
            value = json.loads(match.group(0))
        except ValueError:
            continue
        if value not in _FRAME_WORDS:
            found.append(value)
    return list(dict.fromkeys(found))
