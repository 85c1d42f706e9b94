"""Export to and import from JSON Lines, one memory a line; a round trip loses nothing.

Export writes full records, every stored memory (expired ones included), newest
``last_seen`` first and ties by id: the same stores always export the same bytes.

Import takes either full records (as exported: ids, counts, dates, evidence and history
are kept) or short ones with at least ``type`` and ``text`` (and optionally ``key``,
``tags``, ``project``, ``scope``, ``state``, ``resolution``, ``created_at``), which are
built like saves. A malformed line is reported with its number and nothing is imported,
unless ``skip_invalid`` is set. Each store is locked and written once.

Nothing is lost without a line that says so (:attr:`ImportReport.notes`): a text longer
than a memory holds (16,000 characters) is kept cut, and the report names the record, its
length and where it was cut; a record whose id is already stored is left out and counted;
a record that had expired, or that the user had forgotten, is left out and counted.

How a full record joins its store. It is compared only with what the home held before the
import: a twin there absorbs it as a save would (merged, or superseded by it). Full
records never merge with one another, because an export already is one home's state
(superseded history beside its successor, a pending candidate beside nothing), so an
export imported into an empty home gives back the same stores, and exporting them again
gives the same bytes. A record whose id is already stored is skipped. A record whose id
is tombstoned (:mod:`artibot_memory.store.tombstones`) is skipped and named in
:attr:`ImportReport.forgotten`: the user asked to forget it, and an old export does not
overrule that. A record already expired is not kept (its expiry travels in the record).

Redaction, field by field. An import file may come from anywhere, so every free text is
redacted; but what artibot-memory generated must come back byte for byte. Redacting
every string of the record by its field's name did not: ``"key": "session:<uuid>"``
reads as a secret named *key*, every session summary got the same key, and they all
merged into one.

================================== =====================================================
field                              on import
================================== =====================================================
``text``                           redacted, trimmed and capped, as a save does
``key``, ``why``, ``resolution``,  redacted as plain text, as a save does (a session key
``project``                        ``session:<uuid>`` passes unchanged)
``tags``                           each redacted, then cleaned, as a save does
``details``, ``source.command``,   redacted, keys too; a value under a name that says
extra fields (at any level)        secret is replaced whole (``redact_value``)
``id``, ``related``,               identifiers: redacted as plain strings only, never
``signature``, ``source.channel``, replaced for their field's name. What the product
``source.session_id``,             writes there (hex ids, UUIDs, tool_use ids, ISO
``source.path``, evidence and      times, paths, signatures of redacted text) passes
counter-evidence ``session_id``    unchanged; a secret pasted there by hand is still
and ``note``                       caught
``type``, ``scope``, ``state``,    validated by the model: no free text in them
times, counts, ``confidence``,
``source.line``
================================== =====================================================

>>> import os, tempfile
>>> os.environ["ARTIBOT_MEMORY_HOME"] = tempfile.mkdtemp()
>>> import_file(['{"type": "preference", "text": "Use tabs"}'], "in.jsonl").imported
1
>>> [line[:12] for line in export_lines()]
['{"id":"pref-']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from artibot_memory.api.memories import Draft, build, clean_text, fit_text, list_memories
from artibot_memory.core import clock
from artibot_memory.core.errors import ImportFileError, UsageError
from artibot_memory.core.redact import redact, redact_value
from artibot_memory.store.jsonfile import change_each_store, group_by_store
from artibot_memory.store.merge import Twins, absorb, drop_expired, join
from artibot_memory.store.model import (
    MAX_TEXT_CHARS,
    Evidence,
    Memory,
    MemoryType,
    Scope,
    Source,
    State,
    clean_tags,
)
from artibot_memory.store.table import StoreSpec, spec_for
from artibot_memory.store.tombstones import forgotten_ids

Arrival = tuple[Memory, bool]  # a parsed record, and whether it was a full one


class ShortRecord(BaseModel):
    """The least an import line must hold."""

    model_config = ConfigDict(extra="forbid")

    type: MemoryType
    text: str = Field(min_length=1)
    key: str | None = None
    tags: list[str] = Field(default_factory=list)
    project: str | None = None
    scope: Scope | None = None
    state: State = State.ACTIVE
    resolution: str | None = None
    created_at: datetime | None = None


@dataclass
class ImportReport:
    """How an import went: stored, expired on arrival, invalid lines, forgotten ids left out.

    ``cut``: one ``source:line: …`` note per record whose text was cut to fit;
    ``already``: full records left out because their id was stored already.
    """

    imported: int = 0
    expired_on_arrival: int = 0
    skipped: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)
    already: int = 0


@dataclass
class ImportBatch:
    """The parsed lines of an import file: full records, short ones built, what was said."""

    full: list[Memory] = field(default_factory=list)
    short: list[Memory] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Parsed:
    """One import line as a record: whether it was a full one, and its text's length.

    ``length`` is the redacted text's before it was cut to :data:`MAX_TEXT_CHARS`; more
    than that means the stored text was cut.
    """

    memory: Memory
    full: bool
    length: int

    @property
    def was_cut(self) -> bool:
        """Tell whether the stored text is shorter than the record's."""
        return self.length > MAX_TEXT_CHARS


def export_lines(memory_type: str | None = None, home: Path | None = None) -> Iterator[str]:
    """Yield every stored memory (expired ones included) as one JSON line, in a fixed order.

    Newest ``last_seen`` first, ties by id: whatever order the store files hold them in.
    """
    found = sorted(list_memories(memory_type, include_expired=True, home=home), key=_by_id)
    for memory in sorted(found, key=_by_last_seen, reverse=True):  # stable: ties stay by id
        yield memory.model_dump_json()


def _by_id(memory: Memory) -> str:
    return memory.id


def _by_last_seen(memory: Memory) -> datetime:
    return memory.last_seen


def parse_line(line: str, now: datetime, origin: Source | None = None) -> Parsed:
    """Turn one import line into a complete, redacted record, and say if it was a full one.

    A short record's source is ``origin`` (the import file and the line); a full record
    keeps its own. A ``schema`` field (what ``list``, ``search`` and ``show`` print with
    ``--json``) is the output's version, not part of the record. Raises ValueError,
    TypeError, UsageError or a pydantic ValidationError.

    >>> parsed = parse_line('{"type": "command", "text": "make"}', clock.now())
    >>> parsed.memory.text, parsed.full, parsed.was_cut
    ('make', False, False)
    """
    raw = orjson.loads(line)
    if not isinstance(raw, dict):
        msg = "a line must be a JSON object"
        raise TypeError(msg)
    raw.pop("schema", None)
    length = 0
    if isinstance(raw.get("text"), str):
        raw["text"], length = fit_text(raw["text"])
    if "id" in raw:
        return Parsed(redact_full_record(Memory.model_validate(raw)), full=True, length=length)
    short = ShortRecord.model_validate(raw)
    fields = short.model_dump(exclude={"type", "text"})
    draft = Draft(short.type, short.text, source=origin or Source(channel="import"), **fields)
    return Parsed(build(draft, now), full=False, length=length)


def redact_full_record(memory: Memory) -> Memory:
    """Redact a full record field by field (the table of the module docstring), in place.

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    >>> m = Memory(id="ctx-0a1b2c3d4e", type="context", text="export API_KEY=abc123xyz",
    ...            key="session:3f1c2a9e-1b2c-4d5e-8f9a-0b1c2d3e4f5a",
    ...            created_at=t, updated_at=t, last_seen=t)
    >>> redacted = redact_full_record(m)
    >>> redacted.text, redacted.key
    ('export API_KEY=[REDACTED:env-secret]', 'session:3f1c2a9e-1b2c-4d5e-8f9a-0b1c2d3e4f5a')
    """
    memory.text = clean_text(memory.text)
    memory.key, memory.why = _plain(memory.key), _plain(memory.why)
    memory.resolution, memory.project = _plain(memory.resolution), _plain(memory.project)
    memory.tags = clean_tags([redact(tag) for tag in memory.tags])
    memory.details = cast("dict[str, Any]", redact_value(memory.details))
    memory.id = redact(memory.id)
    memory.related = [redact(related) for related in memory.related]
    memory.signature = _plain(memory.signature)
    memory.source = _redact_source(memory.source)
    memory.evidence = [_redact_evidence(e) for e in memory.evidence]
    memory.counter_evidence = [_redact_evidence(e) for e in memory.counter_evidence]
    _redact_extra(memory)
    return memory


def _plain(value: str | None) -> str | None:
    return redact(value) if value else value


def _redact_source(source: Source) -> Source:
    source.channel = redact(source.channel)
    source.session_id, source.path = _plain(source.session_id), _plain(source.path)
    source.command = _plain(source.command)
    _redact_extra(source)
    return source


def _redact_evidence(evidence: Evidence) -> Evidence:
    evidence.session_id, evidence.note = _plain(evidence.session_id), _plain(evidence.note)
    _redact_extra(evidence)
    return evidence


def _redact_extra(model: BaseModel) -> None:
    """Redact the fields a record carries beyond the model's own (names included)."""
    if model.__pydantic_extra__:
        model.__pydantic_extra__ = cast("dict[str, Any]", redact_value(model.__pydantic_extra__))


def read_records(lines: Iterable[str], source: str, *, skip_invalid: bool = False) -> ImportBatch:
    """Parse every non-blank line; return the records and the problems skipped."""
    now = clock.now()
    batch = ImportBatch()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            parsed = parse_line(line, now, Source(channel="import", path=source, line=number))
        except (ValueError, TypeError, UsageError, ValidationError) as exc:
            problem = _describe(exc)
            if not skip_invalid:
                raise ImportFileError(source, number, problem) from exc
            batch.skipped.append(f"{source}:{number}: {problem}")
            continue
        if parsed.was_cut:
            batch.cut.append(
                f"{source}:{number}: text cut from {parsed.length:,} to {MAX_TEXT_CHARS:,}"
                " characters (the most one memory holds)"
            )
        (batch.full if parsed.full else batch.short).append(parsed.memory)
    return batch


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "line"
        return f"{where}: {first['msg']}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def import_records(batch: ImportBatch, home: Path | None = None) -> ImportReport:
    """Store parsed records (see the module docstring): one lock and one write per store."""
    now = clock.now()
    forgotten = forgotten_ids(home)
    report = ImportReport(skipped=list(batch.skipped), cut=list(batch.cut))
    report.forgotten = [m.id for m in batch.full if m.id in forgotten]
    arrivals: list[Arrival] = [(m, True) for m in batch.full if m.id not in forgotten]
    arrivals += [(m, False) for m in batch.short]

    def store_group(spec: StoreSpec, entries: list[Memory], group: list[Arrival]) -> None:
        drop_expired(entries, now)  # first, so an expired entry does not hide its own id
        fresh = [(memory, full) for memory, full in group if not memory.is_expired(now)]
        report.expired_on_arrival += len(group) - len(fresh)
        full = [memory for memory, full in fresh if full]
        placed = place_full_records(entries, full, spec, now)
        report.imported += placed
        report.already += len(full) - placed
        short = [memory for memory, full in fresh if not full]
        join(entries, short, spec, now)  # and the cap, for both kinds
        report.imported += len(short)

    groups = group_by_store(arrivals, lambda arrival: [spec_for(arrival[0].type)])
    change_each_store(groups, store_group, home)
    return report


def place_full_records(
    entries: list[Memory], records: list[Memory], spec: StoreSpec, now: datetime
) -> int:
    """Add full records to a store's entries as they are; return how many were stored.

    A record whose id is there already is skipped; one with a live twin among the entries
    held before (superseded history has none) is absorbed into it, as a save would be.
    """
    present = {entry.id for entry in entries}
    twins = Twins(entries)
    placed = 0
    for record in records:
        if record.id in present:
            continue
        present.add(record.id)
        twin = None if record.state is State.SUPERSEDED else twins.find(record)
        if twin is None:
            entries.append(record)  # not indexed: full records never merge with each other
        else:
            absorb(entries, record, spec, now, twins)
        placed += 1
    return placed


def import_file(
    lines: Iterable[str], source: str, *, skip_invalid: bool = False, home: Path | None = None
) -> ImportReport:
    """Parse and store an import file; see the module docstring for the rules."""
    return import_records(read_records(lines, source, skip_invalid=skip_invalid), home)
