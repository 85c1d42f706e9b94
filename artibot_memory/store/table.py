"""The four stores of seed 003 as data rows, with the kinds, states and scopes of a memory.

=========== ======================== ========= ===== ======
type        file                     TTL       cap   id
=========== ======================== ========= ===== ======
preference  user-preferences.json    permanent 1,000 pref-…
context     project-contexts.json    90 days   2,000 ctx-…
command     command-history.json     7 days    500   cmd-…
error       error-patterns.json      90 days   200   err-…
=========== ======================== ========= ===== ======

This one table is what every part of the product knows about the stores: the hook fast
path finds the error store's file here, :mod:`artibot_memory.store.model` the id prefixes,
pruning the TTLs and caps. Standard library only (and no ``dataclasses``: the cached
SessionStart imports this module and pays for every import, so even the error tree is
imported only when an unknown type is asked for).

The seed leaves preferences and contexts uncapped; the original code let contexts grow
without bound, so both get a documented cap. Preferences are deduplicated by key, so
1,000 is far above real use and evicts superseded history before anything active.

>>> spec_for("command").cap, spec_for("error").filename
(500, 'error-patterns.json')

The caps can be raised (or lowered) with ``ARTIBOT_MEMORY_CAPS``, a comma-separated list of
``type=count`` (``context=200000,preference=5000``): for a long-lived memory, a memory a
team shares, or a benchmark that needs a real home of 100k entries. Unset, or for a type it
does not name, the cap is the table's. A value that is not a positive whole number is
ignored. It is read on each use, so a process that sets it sees it at once:

>>> import os
>>> os.environ[CAPS_ENV] = "context=100000, command=oops"
>>> spec_for("context").cap, spec_for("command").cap
(100000, 500)
>>> del os.environ[CAPS_ENV]
"""

from __future__ import annotations

import os
from enum import Enum

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from datetime import timedelta


CAPS_ENV = "ARTIBOT_MEMORY_CAPS"


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


class StoreSpec:
    """One store: its type, file name, id prefix, days to live (None: permanent), size cap.

    >>> StoreSpec(MemoryType.COMMAND, "c.json", "cmd", 7, 500)
    StoreSpec(command, 'c.json', cap 500)
    """

    __slots__ = ("default_cap", "filename", "id_prefix", "ttl_days", "type")

    def __init__(
        self,
        memory_type: MemoryType,
        filename: str,
        id_prefix: str,
        ttl_days: int | None,
        cap: int,
    ) -> None:
        """Describe one store."""
        self.type = memory_type
        self.filename = filename
        self.id_prefix = id_prefix
        self.ttl_days = ttl_days
        self.default_cap = cap

    @property
    def cap(self) -> int:
        """How many entries the store keeps: the table's, unless ``ARTIBOT_MEMORY_CAPS`` says."""
        return _cap_overrides(os.environ.get(CAPS_ENV, "")).get(self.type.value, self.default_cap)

    @property
    def ttl(self) -> timedelta | None:
        """The time to live, None when permanent (``datetime`` is loaded only for it).

        >>> spec_for("command").ttl
        datetime.timedelta(days=7)
        """
        from datetime import timedelta  # noqa: PLC0415 - about 3 ms, not for the error hook

        return None if self.ttl_days is None else timedelta(days=self.ttl_days)

    def __repr__(self) -> str:
        """Show the row as a person reads the table."""
        return f"StoreSpec({self.type.value}, {self.filename!r}, cap {self.cap})"


_PARSED_CAPS: dict[str, dict[str, int]] = {}


def _cap_overrides(setting: str) -> dict[str, int]:
    """Return ``type: cap`` from an ``ARTIBOT_MEMORY_CAPS`` value (parsed once per value)."""
    found = _PARSED_CAPS.get(setting)
    if found is None:
        found = {}
        for item in setting.split(","):
            name, _, value = item.partition("=")
            if value.strip().isdigit() and int(value) > 0:
                found[name.strip().lower()] = int(value)
        _PARSED_CAPS[setting] = found
    return found


STORES: tuple[StoreSpec, ...] = (
    StoreSpec(MemoryType.PREFERENCE, "user-preferences.json", "pref", None, 1_000),
    StoreSpec(MemoryType.CONTEXT, "project-contexts.json", "ctx", 90, 2_000),
    StoreSpec(MemoryType.COMMAND, "command-history.json", "cmd", 7, 500),
    StoreSpec(MemoryType.ERROR, "error-patterns.json", "err", 90, 200),
)
_BY_TYPE = {spec.type: spec for spec in STORES}
_BY_PREFIX = {spec.id_prefix: spec for spec in STORES}


def spec_for(memory_type: MemoryType | str) -> StoreSpec:
    """Return the store row for a type, given as the enum or its name.

    >>> spec_for(MemoryType.PREFERENCE).ttl is None
    True
    """
    try:
        wanted = MemoryType(memory_type)
    except ValueError:
        from artibot_memory.core.errors import UsageError  # noqa: PLC0415 - see the docstring

        names = ", ".join(t.value for t in MemoryType)
        msg = f"unknown memory type {memory_type!r}; use one of: {names}"
        raise UsageError(msg) from None
    return _BY_TYPE[wanted]


def specs_for_id(memory_id: str | None) -> list[StoreSpec]:
    """Return the store an id belongs to (by its prefix), or all stores for a foreign id.

    >>> [s.filename for s in specs_for_id("err-0a1b2c3d4e")]
    ['error-patterns.json']
    >>> len(specs_for_id("imported-7"))
    4
    """
    spec = _BY_PREFIX.get((memory_id or "").split("-", 1)[0])
    return [spec] if spec is not None else list(STORES)
