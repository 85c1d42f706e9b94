"""The Python API: save, list, get, forget (seed 003's saveMemory and friends).

Search lives in :mod:`artibot_memory.recall.search`, the SessionStart text in
:mod:`artibot_memory.recall.context` and pruning in :mod:`artibot_memory.api.prune`; all of them are
re-exported by :mod:`artibot_memory` for callers who want one import.

>>> import os, tempfile
>>> os.environ["ARTIBOT_MEMORY_HOME"] = tempfile.mkdtemp()
>>> saved = save("preference", "Use pnpm, not npm", key="package-manager")
>>> get(saved.id).text
'Use pnpm, not npm'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from artibot_memory.core import clock
from artibot_memory.core.errors import UnknownMemoryError, UsageError
from artibot_memory.core.project import same_project
from artibot_memory.store.jsonfile import Store, change_each_store, group_by_store
from artibot_memory.store.merge import join, new_evidence
from artibot_memory.store.model import (
    MAX_TEXT_CHARS,
    Memory,
    MemoryType,
    Scope,
    Source,
    State,
    clean_tags,
    new_id,
)
from artibot_memory.store.table import STORES, StoreSpec, spec_for, specs_for_id
from artibot_memory.text.redact import redact, redact_value
from artibot_memory.text.shell import command_signature
from artibot_memory.text.signature import error_signature
from artibot_memory.text.tags import auto_tags

TRUNCATION_MARK = " … [truncated]"


@dataclass
class Draft:
    """What a caller wants remembered, before ids, dates and TTLs are filled in."""

    type: MemoryType | str
    text: str
    key: str | None = None
    tags: Sequence[str] = ()
    project: str | None = None
    scope: Scope | str | None = None
    state: State | str = State.ACTIVE
    confidence: float = 0.7
    why: str | None = None
    source: Source = field(default_factory=Source)
    resolution: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    created_at: datetime | None = None
    signature: str | None = None
    observation: str | None = None  # names one sighting (a tool_use_id): replays count once


def clean_text(text: str) -> str:
    """Redact secrets, trim, and cap ``text`` at the per-entry limit (16,000 characters).

    >>> clean_text("  hello  ")
    'hello'
    """
    if not isinstance(text, str) or not text.strip():
        msg = "the memory text is empty; give the thing to remember"
        raise UsageError(msg)
    cleaned = redact(text.strip())
    if len(cleaned) > MAX_TEXT_CHARS:
        cleaned = cleaned[: MAX_TEXT_CHARS - len(TRUNCATION_MARK)] + TRUNCATION_MARK
    return cleaned


def build(draft: Draft, now: datetime) -> Memory:
    """Turn a draft into a complete record: id, dates, TTL, tags, signature, redaction."""
    spec = spec_for(draft.type)
    text = clean_text(draft.text)
    created = draft.created_at or now
    scope = (
        Scope(draft.scope) if draft.scope else (Scope.PROJECT if draft.project else Scope.GLOBAL)
    )
    tags = clean_tags([redact(t) for t in draft.tags] + auto_tags(text))
    return Memory(
        id=new_id(spec.type),
        type=spec.type,
        text=text,
        key=redact(draft.key) if draft.key else None,
        tags=tags,
        project=redact(draft.project) if draft.project else None,
        scope=scope,
        state=State.RESOLVED
        if spec.type is MemoryType.ERROR and draft.resolution
        else State(draft.state),
        confidence=draft.confidence,
        why=redact(draft.why) if draft.why else None,
        source=Source.model_validate(redact_value(draft.source.model_dump())),
        signature=draft.signature or _signature(spec.type, text),
        resolution=redact(draft.resolution) if draft.resolution else None,
        details=redact_value(draft.details),
        evidence=new_evidence(created, draft.source.session_id, draft.observation),
        created_at=created,
        updated_at=now,
        last_seen=created,
        expires_at=None if spec.ttl is None else created + spec.ttl,
    )


def _signature(memory_type: MemoryType, text: str) -> str | None:
    if memory_type is MemoryType.COMMAND:
        return command_signature(text)
    if memory_type is MemoryType.ERROR:
        return error_signature(text)
    return None


def save(memory_type: MemoryType | str, text: str, **fields: Any) -> Memory:
    """Remember one thing and return the stored record (merged into its twin if repeated).

    ``fields`` are those of :class:`Draft` (key, tags, project, scope, state, ...).
    """
    home = fields.pop("home", None)
    return save_many([Draft(memory_type, text, **fields)], home=home)[0]


def save_many(drafts: Iterable[Draft], *, home: Path | None = None) -> list[Memory]:
    """Save many drafts with one lock and one write per store; return the stored records."""
    now = clock.now()
    built = [build(draft, now) for draft in drafts]
    stored: list[Memory] = list(built)

    def store_group(spec: StoreSpec, entries: list[Memory], indexes: list[int]) -> None:
        arrivals = [built[index] for index in indexes]
        for index, record in zip(indexes, join(entries, arrivals, spec, now), strict=True):
            stored[index] = record

    groups = group_by_store(range(len(built)), lambda index: [spec_for(built[index].type)])
    change_each_store(groups, store_group, home)
    return stored


def list_memories(
    memory_type: MemoryType | str | None = None,
    *,
    project: str | None = None,
    include_expired: bool = False,
    home: Path | None = None,
) -> list[Memory]:
    """Return stored memories, newest first, optionally of one type and one project."""
    now = clock.now()
    specs = [spec_for(memory_type)] if memory_type else list(STORES)
    found = [m for spec in specs for m in Store(spec, home).load()]
    found = [m for m in found if include_expired or not m.is_expired(now)]
    if project is not None:
        found = [m for m in found if m.project is None or same_project(m.project, project)]
    return sorted(found, key=lambda m: m.last_seen, reverse=True)


def get(memory_id: str, *, home: Path | None = None) -> Memory:
    """Return the memory with this id, or raise :class:`UnknownMemoryError`."""
    for spec in specs_for_id(memory_id):
        for memory in Store(spec, home).load():
            if memory.id == memory_id:
                return memory
    raise UnknownMemoryError(f"id {memory_id!r}")


def forget(
    memory_id: str | None = None, *, key: str | None = None, home: Path | None = None
) -> list[Memory]:
    """Delete the memory with this id, or every memory with this key; return what went."""
    if (memory_id is None) == (key is None):
        msg = "forget takes an id or --key, not both or neither"
        raise UsageError(msg)
    specs = specs_for_id(memory_id) if memory_id else list(STORES)
    removed: list[Memory] = []
    for spec in specs:
        removed += _remove_where(spec, home, memory_id, key)
    if not removed:
        raise UnknownMemoryError(f"id {memory_id!r}" if memory_id else f"key {key!r}")
    return removed


def _remove_where(
    spec: StoreSpec, home: Path | None, memory_id: str | None, key: str | None
) -> list[Memory]:
    store = Store(spec, home)
    if not any(_matches(m, memory_id, key) for m in store.load()):
        return []
    with store.transaction() as entries:
        gone = [m for m in entries if _matches(m, memory_id, key)]
        entries[:] = [m for m in entries if not _matches(m, memory_id, key)]
    return gone


def _matches(memory: Memory, memory_id: str | None, key: str | None) -> bool:
    return memory.id == memory_id if memory_id else memory.key == key
