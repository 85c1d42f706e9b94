"""Step-by-step upgrades of store files to the current ``SCHEMA_VERSION``.

Each step takes the raw document of version N and returns version N + 1. A file newer
than this code is refused (never downgraded or overwritten).

- 0 → 1: version 0 is a bare JSON list of entries, as the JavaScript original wrote
  (``data``, ``createdAt``, ``expiresAt``, ``accessCount``, ``lastAccessed`` in camelCase).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from artibot_memory.store.envelope import SCHEMA_VERSION
from artibot_memory.store.model import clean_tags

Document = dict[str, Any]

_RENAMES = {
    "createdAt": "created_at",
    "updatedAt": "updated_at",
    "expiresAt": "expires_at",
    "accessCount": "access_count",
    "lastAccessed": "last_accessed",
}


def _entry_0_to_1(entry: dict[str, Any]) -> dict[str, Any]:
    upgraded = {_RENAMES.get(name, name): value for name, value in entry.items()}
    if "text" not in upgraded and "data" in upgraded:
        data = upgraded.pop("data")
        upgraded["text"] = data if isinstance(data, str) else str(data)
    tags = upgraded.get("tags")
    if isinstance(tags, list):
        upgraded["tags"] = clean_tags([str(tag) for tag in tags])
    created = upgraded.get("created_at")
    upgraded.setdefault("updated_at", created)
    upgraded.setdefault("last_seen", upgraded.get("updated_at"))
    return upgraded


def _version_0_to_1(document: Document) -> Document:
    entries = document.get("entries", [])
    return {"schema_version": 1, "entries": [_entry_0_to_1(e) for e in entries]}


STEPS: dict[int, Callable[[Document], Document]] = {0: _version_0_to_1}


def schema_version_of(raw: object) -> int:
    """Return the schema version of a parsed store file (0 for the original bare list).

    >>> schema_version_of([])
    0
    >>> schema_version_of({"schema_version": 1, "entries": []})
    1
    """
    if isinstance(raw, list):
        return 0
    if isinstance(raw, dict) and isinstance(raw.get("schema_version"), int):
        return int(raw["schema_version"])
    return -1


def migrate(raw: object) -> Document:
    """Upgrade a parsed store file to the current version; the caller checks the shape."""
    version = schema_version_of(raw)
    document: Document = {"entries": raw} if isinstance(raw, list) else dict(raw)  # type: ignore[call-overload]
    while version < SCHEMA_VERSION:
        document = STEPS[version](document)
        version += 1
    return document
