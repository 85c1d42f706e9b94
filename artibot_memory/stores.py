"""The four stores of seed 003, as data rows rather than four modules.

=========== ======================== ========= =====
type        file                     TTL       cap
=========== ======================== ========= =====
preference  user-preferences.json    permanent 1,000
context     project-contexts.json    90 days   2,000
command     command-history.json     7 days    500
error       error-patterns.json      90 days   200
=========== ======================== ========= =====

Standard library only, so the hook fast path can find the files.

The seed leaves preferences and contexts uncapped; the original code let contexts grow
without bound, so both get a documented cap. Preferences are deduplicated by key, so
1,000 is far above real use and evicts superseded history before anything active.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from artibot_memory.errors import UsageError
from artibot_memory.kinds import ID_PREFIX, STORE_FILES, MemoryType


@dataclass(frozen=True)
class StoreSpec:
    """One store: its type, file name, time to live (None: permanent) and size cap."""

    type: MemoryType
    filename: str
    ttl: timedelta | None
    cap: int


STORES: tuple[StoreSpec, ...] = (
    StoreSpec(MemoryType.PREFERENCE, STORE_FILES[MemoryType.PREFERENCE], None, 1_000),
    StoreSpec(MemoryType.CONTEXT, STORE_FILES[MemoryType.CONTEXT], timedelta(days=90), 2_000),
    StoreSpec(MemoryType.COMMAND, STORE_FILES[MemoryType.COMMAND], timedelta(days=7), 500),
    StoreSpec(MemoryType.ERROR, STORE_FILES[MemoryType.ERROR], timedelta(days=90), 200),
)


def spec_for(memory_type: MemoryType | str) -> StoreSpec:
    """Return the store row for a type, given as the enum or its name.

    >>> spec_for("command").cap
    500
    """
    try:
        wanted = MemoryType(memory_type)
    except ValueError:
        names = ", ".join(t.value for t in MemoryType)
        msg = f"unknown memory type {memory_type!r}; use one of: {names}"
        raise UsageError(msg) from None
    return next(spec for spec in STORES if spec.type is wanted)


ID_PREFIXES = {prefix: memory_type for memory_type, prefix in ID_PREFIX.items()}


def specs_for_id(memory_id: str | None) -> list[StoreSpec]:
    """Return the store an id belongs to (by its prefix), or all stores for a foreign id.

    >>> [s.filename for s in specs_for_id("err-0a1b2c3d4e")]
    ['error-patterns.json']
    """
    prefix = (memory_id or "").split("-", 1)[0]
    return [spec_for(ID_PREFIXES[prefix])] if prefix in ID_PREFIXES else list(STORES)
