"""The kinds of memory, their states and scopes (standard library only).

Kept apart from :mod:`artibot_memory.model` so the hook fast path can name stores and
states without importing pydantic.
"""

from __future__ import annotations

from enum import Enum


class MemoryType(str, Enum):
    """The four stores of seed 003."""

    PREFERENCE = "preference"
    CONTEXT = "context"
    COMMAND = "command"
    ERROR = "error"


class State(str, Enum):
    """Where a memory stands (seed 001), plus ``pending`` for unconfirmed candidates."""

    PENDING = "pending"
    ACTIVE = "active"
    STALE = "stale"
    SUPERSEDED = "superseded"
    RESOLVED = "resolved"


class Scope(str, Enum):
    """How far a memory applies (seed 001)."""

    GLOBAL = "global"
    PROJECT = "project"
    PERSON = "person"
    TEMPORARY = "temporary"


ID_PREFIX = {
    MemoryType.PREFERENCE: "pref",
    MemoryType.CONTEXT: "ctx",
    MemoryType.COMMAND: "cmd",
    MemoryType.ERROR: "err",
}

# The journal event that counts memories shown by a SessionStart context as accessed.
ACCESS_EVENT = "Accessed"

# The store file of each type (the rest of each store's row is in stores.py).
STORE_FILES = {
    MemoryType.PREFERENCE: "user-preferences.json",
    MemoryType.CONTEXT: "project-contexts.json",
    MemoryType.COMMAND: "command-history.json",
    MemoryType.ERROR: "error-patterns.json",
}
