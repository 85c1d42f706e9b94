"""A store file's envelope: ``{"schema_version": N, "entries": [...]}`` (standard library only).

The one place that knows the current schema version and how a store file is framed:
:class:`~artibot_memory.store.jsonfile.Store` writes through :func:`encode`, doctor starts
an empty store with :data:`EMPTY`, and the hook fast path, which reads the error store
without pydantic, takes its entries with :func:`current_entries`.

Schema changelog (``SCHEMA_VERSION``):

- 1: first version. ``{"schema_version": 1, "entries": [Memory, ...]}``.
  Within it, optional keys added with no version step (a record without them loads as
  before, an older reader keeps them as they are): ``details["anchors"]``, the git blob
  and HEAD of each file a memory names (docs/CODE.md).

Files without ``schema_version`` (a bare list of entries, as the JavaScript original
wrote) are version 0 and migrated by :mod:`artibot_memory.store.migrations`.

>>> encode(b"[]") == EMPTY
True
>>> current_entries({"schema_version": SCHEMA_VERSION, "entries": [{"id": "err-1"}]})
[{'id': 'err-1'}]
>>> current_entries({"schema_version": SCHEMA_VERSION + 1, "entries": [{"id": "err-1"}]})
[]
"""

from __future__ import annotations

import re

SCHEMA_VERSION = 1

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from typing import Any


# Where the next entry starts: `},{"id":"…","type":"`, the id a JSON string (escapes kept).
_ENTRY_START = re.compile(rb'\},\{"id":"(?=(?:[^"\\]|\\.)*","type":")')


def encode(entries_json: bytes) -> bytes:
    r"""Frame the JSON array of a store's entries as the store file's bytes, one per line.

    One entry per line: a person reading the file sees one memory a line, and the write
    path (core/disk.py) re-reads only the lines a write changed. The break goes where one
    entry ends and the next starts: an object whose first fields are ``id`` then ``type``,
    as every memory is written. Within a string a quote is always escaped, so no string is
    ever cut, and a list of objects inside an entry (a memory's conflicts, each with its own
    ``id``) stays on its entry's line.

    >>> encode(b'[{"id":"a","type":"t","x":[{"id":"n","w":1},{"id":"m"}]},{"id":"b","type":"t"}]')
    b'{"schema_version":1,"entries":[\n{"id":"a","type":"t","x":[{"id":"n","w":1},{"id":"m"}]},\n{"id":"b","type":"t"}\n]}'
    """
    if entries_json.strip() == b"[]":
        return b'{"schema_version":%d,"entries":[]}' % SCHEMA_VERSION
    rows = _ENTRY_START.sub(b'},\n{"id":"', entries_json.strip()[1:-1])
    return b'{"schema_version":%d,"entries":[\n%s\n]}' % (SCHEMA_VERSION, rows)


EMPTY = encode(b"[]")


def entries_holding(raw: bytes, text: str) -> list[Any] | None:
    r"""Return the entries of a store file's bytes whose line holds ``text`` as a JSON string.

    For a reader after one value (the error hook, one signature): a line without it is
    never parsed. None when the file is not framed as :func:`encode` frames it, or when
    ``text`` may be escaped in more than one way (non-ASCII, control characters): then
    parse it whole, with :func:`current_entries`.

    >>> raw = encode(b'[{"id":"e1","type":"error","signature":"a \\"b\\""},'
    ...              b'{"id":"e2","type":"error","signature":"c"}]')
    >>> entries_holding(raw, 'a "b"'), entries_holding(raw, "zzz")
    ([{'id': 'e1', 'type': 'error', 'signature': 'a "b"'}], [])
    >>> entries_holding(b'{"entries": []}', "c") is None
    True
    """
    import json  # noqa: PLC0415 - the error hook has it loaded; the cached start needs none

    if not raw.startswith(_HEAD) or not text.isascii() or not text.isprintable():
        return None
    needle = json.dumps(text)[1:-1].encode("ascii")
    if needle not in raw:
        return []
    try:
        return [
            json.loads(line.rstrip(b",\r"))
            for line in raw[len(_HEAD) :].split(b"\n")
            if needle in line and line.startswith(b"{")
        ]
    except ValueError:
        return None


_HEAD = b'{"schema_version":%d,"entries":[\n' % SCHEMA_VERSION


def current_entries(document: object) -> list[Any]:
    """Return the entries of a parsed store file of the current version, else ``[]``.

    For readers without pydantic: a file of another version (older, so not migrated yet,
    or newer, so not understood) or of another shape holds nothing they may use.
    """
    if not isinstance(document, dict) or document.get("schema_version") != SCHEMA_VERSION:
        return []
    entries = document.get("entries")
    return entries if isinstance(entries, list) else []
