"""Export to and import from JSON Lines, one memory a line.

Export writes full records. Import takes either full records (as exported: ids, counts
and dates are kept) or short ones with at least ``type`` and ``text`` (and optionally
``key``, ``tags``, ``project``, ``scope``, ``state``, ``resolution``, ``created_at``). A
malformed line is reported with its number and nothing is imported, unless
``skip_invalid`` is set. Each store is locked and written once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from artibot_memory.api.memories import Draft, build, clean_text, list_memories
from artibot_memory.core import clock
from artibot_memory.core.errors import ImportFileError, UsageError
from artibot_memory.store.jsonfile import change_each_store, group_by_store
from artibot_memory.store.merge import drop_expired, join
from artibot_memory.store.model import Memory, MemoryType, Scope, Source, State, clean_tags
from artibot_memory.store.table import StoreSpec, spec_for
from artibot_memory.text.redact import redact_value


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
    """How an import went."""

    imported: int = 0
    expired_on_arrival: int = 0
    skipped: list[str] = field(default_factory=list)


def export_lines(memory_type: str | None = None, home: Path | None = None) -> Iterator[str]:
    """Yield every stored memory (expired ones included) as one JSON line."""
    for memory in list_memories(memory_type, include_expired=True, home=home):
        yield memory.model_dump_json()


def parse_line(line: str, now: datetime) -> Memory:
    """Turn one import line into a complete, redacted record (raises ValueError)."""
    raw = orjson.loads(line)
    if not isinstance(raw, dict):
        msg = "a line must be a JSON object"
        raise TypeError(msg)
    if "id" in raw:
        # Every string of a full record is redacted: ids and dates come through unchanged.
        memory = Memory.model_validate(redact_value(raw))
        memory.text = clean_text(memory.text)
        memory.tags = clean_tags(memory.tags)
        return memory
    short = ShortRecord.model_validate(raw)
    fields = short.model_dump(exclude={"type", "text"})
    return build(Draft(short.type, short.text, source=Source(channel="import"), **fields), now)


def read_records(
    lines: Iterable[str], source: str, *, skip_invalid: bool = False
) -> tuple[list[Memory], list[str]]:
    """Parse every non-blank line; return the records and the problems skipped."""
    now = clock.now()
    records: list[Memory] = []
    skipped: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(parse_line(line, now))
        except (ValueError, TypeError, UsageError, ValidationError) as exc:
            problem = _describe(exc)
            if not skip_invalid:
                raise ImportFileError(source, number, problem) from exc
            skipped.append(f"{source}:{number}: {problem}")
    return records, skipped


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "line"
        return f"{where}: {first['msg']}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def import_records(records: list[Memory], home: Path | None = None) -> ImportReport:
    """Store parsed records: one lock and one write per store."""
    now = clock.now()
    report = ImportReport()

    def store_group(spec: StoreSpec, entries: list[Memory], group: list[Memory]) -> None:
        drop_expired(entries, now)  # first, so an expired entry does not hide its own id
        fresh = [m for m in group if not m.is_expired(now)]
        existing_ids = {e.id for e in entries}
        join(entries, [m for m in fresh if m.id not in existing_ids], spec, now)
        report.expired_on_arrival += len(group) - len(fresh)
        report.imported += len(fresh)

    change_each_store(group_by_store(records, lambda m: [spec_for(m.type)]), store_group, home)
    return report


def import_file(
    lines: Iterable[str], source: str, *, skip_invalid: bool = False, home: Path | None = None
) -> ImportReport:
    """Parse and store an import file; see the module docstring for the rules."""
    records, skipped = read_records(lines, source, skip_invalid=skip_invalid)
    report = import_records(records, home)
    report.skipped = skipped
    return report
