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

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from artibot_memory.api import conflicts, entities, snapshots
from artibot_memory.capture import journal
from artibot_memory.core import clock
from artibot_memory.core.errors import UnknownMemoryError, UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import project_of, same_project
from artibot_memory.core.redact import redact, redact_value
from artibot_memory.notes import daily
from artibot_memory.recall.startcache import drop_caches
from artibot_memory.recall.vectors import remove as remove_vectors
from artibot_memory.store import evidence
from artibot_memory.store.index import remove as remove_index
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
from artibot_memory.store.tombstones import record_forgotten
from artibot_memory.text.shell import command_signature
from artibot_memory.text.signature import error_signature
from artibot_memory.text.tags import auto_tags

TRUNCATION_MARK = " … [truncated]"
MIN_QUOTED_CHARS = 8  # shorter texts are matched whole, never as a part of a longer string
SESSION_KEY = "session:"  # a session summary's key: this prefix, then the session id


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
    failures: int = 0  # of a command's sightings, how many failed


def clean_text(text: str) -> str:
    """Redact secrets, trim, and cap ``text`` at the per-entry limit (16,000 characters).

    >>> clean_text("  hello  ")
    'hello'
    """
    return fit_text(text)[0]


def fit_text(text: str) -> tuple[str, int]:
    """Return ``text`` as :func:`clean_text` does, and its length before it was cut.

    The length is the redacted, trimmed text's: more than the limit means the text was cut
    (import says so, per record).

    >>> fitted, length = fit_text("x" * 20_000)
    >>> len(fitted), length, fitted.endswith(TRUNCATION_MARK)
    (16000, 20000, True)
    """
    if not isinstance(text, str) or not text.strip():
        msg = "the memory text is empty; give the thing to remember"
        raise UsageError(msg)
    cleaned = redact(text.strip())
    if len(cleaned) > MAX_TEXT_CHARS:
        return cleaned[: MAX_TEXT_CHARS - len(TRUNCATION_MARK)] + TRUNCATION_MARK, len(cleaned)
    return cleaned, len(cleaned)


def build(draft: Draft, now: datetime) -> Memory:
    """Turn a draft into a complete record: id, dates, TTL, tags, signature, redaction.

    A preference or context keeps the confidence it was stated with as
    ``details["base_confidence"]``; its confidence and ``last_verified`` come from its
    evidence from then on (:mod:`artibot_memory.store.evidence`).
    """
    spec = spec_for(draft.type)
    text = clean_text(draft.text)
    created = draft.created_at or now
    scope = (
        Scope(draft.scope) if draft.scope else (Scope.PROJECT if draft.project else Scope.GLOBAL)
    )
    tags = clean_tags([redact(t) for t in draft.tags] + auto_tags(text))
    details = cast("dict[str, Any]", redact_value(draft.details))
    if spec.type in evidence.COMPUTED:
        details = {evidence.BASE: draft.confidence, **details}
    memory = Memory(
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
        details=details,
        evidence=new_evidence(created, draft.source.session_id, draft.observation),
        created_at=created,
        updated_at=now,
        last_seen=created,
        expires_at=None if spec.ttl is None else created + spec.ttl,
        failures=draft.failures,
    )
    return evidence.refresh(memory)


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
    conflicts.check(stored, home)  # never raises: a conflict is logged, the save is kept
    return stored


def list_memories(
    memory_type: MemoryType | str | None = None,
    *,
    project: str | None = None,
    include_expired: bool = False,
    home: Path | None = None,
) -> list[Memory]:
    """Return stored memories, newest first, optionally of one type and one project.

    ``project`` keeps that project's memories and the global ones (of no project), as
    search does; ``None`` keeps every project. Listing never counts as an access.
    """
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
    """Delete the memory with this id, or every memory with this key, everywhere; return them.

    When it returns, what went is in no file of the memory home:

    - its store, and ``backups/<file>``, rewritten without it under the store's lock (with
      the temp files of killed writes, which may hold it);
    - the capture journal and its takes: every line that produced it or quotes it
      (:func:`journal_matcher`; its limits are there);
    - copies doctor set aside (``*.corrupt-*``) that name its id or quote its text: they
      are not valid JSON and cannot be edited entry by entry, so they are deleted;
    - the start caches (``cache/context-*.json``), all deleted: they are derived, and the
      next SessionStart renders afresh;
    - the search index (``index.sqlite`` and its WAL), deleted: SQLite keeps a deleted row's
      bytes in free pages, its WAL and FTS5's segments until they are reused, so only a
      file built again without the memory holds none of it; the next read builds it.

    Its id is tombstoned first (:mod:`artibot_memory.store.tombstones`), so neither doctor's
    restore nor an import brings it back. Forgetting is not a block list: the same command
    run again later is a new observation, and a new memory.
    """
    if (memory_id is None) == (key is None):
        msg = "forget takes an id or --key, not both or neither"
        raise UsageError(msg)
    home = home if home is not None else memory_home()
    specs = specs_for_id(memory_id) if memory_id else list(STORES)
    found = {
        m.id for spec in specs for m in Store(spec, home).load() if _matches(m, memory_id, key)
    }
    record_forgotten(sorted(found), home)  # first: no restore may bring them back meanwhile
    removed: list[Memory] = []
    for spec in specs:
        removed += _remove_where(spec, home, memory_id, key)
    if not removed:
        raise UnknownMemoryError(f"id {memory_id!r}" if memory_id else f"key {key!r}")
    record_forgotten([m.id for m in removed if m.id not in found], home)  # saved meanwhile
    _erase_traces(removed, home)
    return removed


def _remove_where(
    spec: StoreSpec, home: Path | None, memory_id: str | None, key: str | None
) -> list[Memory]:
    store = Store(spec, home)
    if not any(_matches(m, memory_id, key) for m in store.load()):
        return []
    with store.transaction(purge_backup=True) as entries:
        gone = [m for m in entries if _matches(m, memory_id, key)]
        entries[:] = [m for m in entries if not _matches(m, memory_id, key)]
    return gone


def _matches(memory: Memory, memory_id: str | None, key: str | None) -> bool:
    return memory.id == memory_id if memory_id else memory.key == key


def _erase_traces(gone: Sequence[Memory], home: Path) -> None:
    """Remove what the journal, set-aside copies, daily notes, caches and index hold of ``gone``."""
    journal.drop_lines(journal_matcher(gone), home)
    needles = [
        spelling.encode("utf-8")
        for memory in gone
        for spelling in [f'"{memory.id}"', *_spellings(memory.text, MIN_QUOTED_CHARS)]
    ]
    for copy in _set_aside_copies(home):
        if any(needle in copy.read_bytes() for needle in needles):
            copy.unlink(missing_ok=True)
    sessions = {
        m.key.removeprefix(SESSION_KEY) for m in gone if m.key and m.key.startswith(SESSION_KEY)
    }
    daily.drop(home, {m.id for m in gone}, sessions)  # MEMORY.md: at its next render
    conflicts.forget_sides({m.id for m in gone}, home)  # the ledger keeps their ids only
    entities.drop(home, {m.id for m in gone})  # their lines in the entity profiles
    drop_caches(home)
    remove_index(home)
    remove_vectors(home)  # derived from the texts too: the forgotten one's vector goes with it
    snapshots.forget_in_base(home, {m.id for m in gone})  # the sync's merge base (docs/SYNC.md)


def _set_aside_copies(home: Path) -> list[Path]:
    """Return the files doctor moved aside (``<name>.corrupt-<time>``), links left out."""
    found = []
    for folder, _dirs, files in os.walk(home):
        found += [Path(folder, n) for n in files if ".corrupt-" in n]
    return [path for path in found if path.is_file() and not path.is_symlink()]


def journal_matcher(gone: Sequence[Memory]) -> Callable[[bytes], bool]:
    """Return a test of one journal line: did it produce, or does it quote, one of ``gone``.

    A line *produced* a memory when its observation (``tool_use_id@at``) is in the
    memory's evidence, when it is a command or a failure of the memory's signature in the
    memory's project (it would merge into it), or when it is the deferred end of the
    session a forgotten summary describes. A line *quotes* a memory when one of its
    strings is the memory's text, or holds the text (of 8 characters or more), plain or
    JSON-escaped.

    The limit: a record is raw captured text, not a memory. A text the memory was built
    from but does not contain whole (an error's text is the command and the head of its
    output; a long text is cut differently in the journal) is matched through the
    signature and the evidence only; a prompt that stated a forgotten preference in other
    words is not found.

    >>> gone = [build(Draft("command", "make deploy"), clock.now())]
    >>> matches = journal_matcher(gone)
    >>> matches(b'{"v":1,"event":"PostToolUse","command":"make deploy"}')
    True
    >>> matches(b'{"v":1,"event":"PostToolUse","command":"make test"}')
    False
    """
    texts = {memory.text for memory in gone}
    needles = [s for text in texts for s in _spellings(text, MIN_QUOTED_CHARS)]
    notes = {e.note for m in gone for e in [*m.evidence, *m.counter_evidence] if e.note}
    identities = {(m.type, m.signature, m.project) for m in gone if m.signature}
    summaries = {m.source.session_id for m in gone if m.details.get("kind") == "session-summary"}

    def produced(record: dict[str, Any]) -> bool:
        if record.get("tool_use_id") and f"{record['tool_use_id']}@{record.get('at')}" in notes:
            return True
        if record.get("event") == "SessionEnd":
            return record.get("session_id") in summaries - {None}  # its summary, made again
        identity = _identity_of(record)
        return identity is not None and identity in identities

    def matches(line: bytes) -> bool:
        raw = line.decode("utf-8", "replace")
        if any(needle in raw for needle in needles):
            return True
        record = journal.parse_line(line)
        if record is None:
            return False
        return bool(texts & {s.strip() for s in _strings(record)}) or produced(record)

    return matches


def _identity_of(record: dict[str, Any]) -> tuple[MemoryType, str, str | None] | None:
    """Return the (type, signature, project) a command or failure record is stored under."""
    command = record.get("command")
    if record.get("event") == "PostToolUse" and isinstance(command, str) and command:
        return (MemoryType.COMMAND, command_signature(command), project_of(record.get("cwd")))
    if record.get("event") == "PostToolUseFailure":
        signature = record.get("signature") or error_signature(str(record.get("error") or ""))
        return (MemoryType.ERROR, str(signature), project_of(record.get("cwd")))
    return None


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _spellings(text: str, minimum: int = 1) -> list[str]:
    r"""``text`` as it reads plainly and inside a JSON string (ASCII-escaped or not).

    >>> _spellings('say "hi"')
    ['say "hi"', 'say \\"hi\\"']
    >>> _spellings("ls", minimum=8)
    []
    """
    if len(text) < minimum:
        return []
    escaped = [json.dumps(text, ensure_ascii=ascii_only)[1:-1] for ascii_only in (False, True)]
    return list(dict.fromkeys([text, *escaped]))
