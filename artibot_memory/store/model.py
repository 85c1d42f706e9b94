"""The records artibot-memory keeps, validated by pydantic on every load and save.

Every entry carries the metadata of seeds 001 and 002 from the first schema version on
(when, where, why, state, scope, confidence, related, source, evidence), so the later
layers (promotion, conflicts, belief evolution) need no migration.

The file around the entries, and the schema changelog, are in
:mod:`artibot_memory.store.envelope`; older files are upgraded by
:mod:`artibot_memory.store.migrations`.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from artibot_memory.store.envelope import SCHEMA_VERSION
from artibot_memory.store.table import MemoryType, Scope, State, spec_for

__all__ = [
    "SCHEMA_VERSION",
    "Evidence",
    "Memory",
    "MemoryType",
    "Scope",
    "Source",
    "State",
]

MAX_TEXT_CHARS = 16_000


class Source(BaseModel):
    """Where a memory came from: the channel, the session and a pointer for traceability.

    >>> Source(channel="cli").channel
    'cli'
    """

    model_config = ConfigDict(extra="allow")

    channel: str = "api"
    session_id: str | None = None
    path: str | None = None
    line: int | None = None
    command: str | None = None
    agent: str | None = None  # the agent whose hook saw it (claude-code, codex-cli ...)


class Evidence(BaseModel):
    """One observation for (or against) a memory: when, in which session, of what kind.

    ``kind`` is ``stated`` (a prompt or a save said it), ``used`` (behaviour matched it),
    ``confirmed`` (a recalled fix worked, a restatement, an accepted proposal, a MEMORY.md
    edit kept) or ``contradicted`` (counter-evidence). Added with a default: entries written
    before it read as ``stated``, with no migration.
    """

    model_config = ConfigDict(extra="allow")

    at: datetime
    session_id: str | None = None
    note: str | None = None
    kind: str = "stated"


def clean_tags(tags: list[str]) -> list[str]:
    """Return tags trimmed, lower-cased and unique, in their first order.

    Done when a memory is built, not by a validator: validation runs on every load of
    every entry, and a Python validator there costs more than the rest of it.

    >>> clean_tags([" Py ", "py", "", "DB"])
    ['py', 'db']
    """
    return list(dict.fromkeys(t.strip().lower() for t in tags if t.strip()))


def new_id(memory_type: MemoryType) -> str:
    """Return a short random id whose prefix names the type.

    >>> new_id(MemoryType.ERROR).startswith("err-")
    True
    """
    return f"{spec_for(memory_type).id_prefix}-{secrets.token_hex(5)}"


class Memory(BaseModel):
    """One remembered thing, in one of the four stores.

    ``count`` is how often it was observed (merged repeats); ``access_count`` how often it
    was handed back by search or context, which feeds the frequency part of the score.
    ``failures`` is how many of a command's ``count`` runs failed (added with a default,
    so files written before it read as they are: no schema version, no migration).

    An error's ``confidence`` is how sure its fix is, and ``details`` says how it is
    known (written by :mod:`artibot_memory.api.ingest`, read by the recall without
    pydantic, so plain JSON):

    - ``details["fix"]``: ``method`` (same-command, same-target, explained),
      ``confidence`` (as established), ``session_id``, ``at``, ``fixed_by`` (the command
      that then succeeded), ``explanation`` (the assistant's words), ``edits`` (``file
      (what changed)``), ``commands``, and ``confirmed`` / ``contradicted``: how often the
      fix, recalled, then worked or the error came back;
    - ``details["unresolved"]``: the latest sighting nobody closed: ``method``
      (unresolved), ``confidence`` (0), ``session_id``, ``at``, ``next`` (what happened next).

    Any memory that names files of its git project may carry ``details["anchors"]``:
    ``{"of", "at", "files": [{"path", "blob", "commit"}, …]}``, each file's blob and the
    HEAD when the session's worker saw it (:mod:`artibot_memory.api.anchors`, docs/CODE.md).
    """

    model_config = ConfigDict(extra="allow", validate_assignment=False)

    id: str
    type: MemoryType
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)
    key: str | None = None
    tags: list[str] = Field(default_factory=list)
    project: str | None = None
    scope: Scope = Scope.GLOBAL
    state: State = State.ACTIVE
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    why: str | None = None
    source: Source = Field(default_factory=Source)
    related: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    counter_evidence: list[Evidence] = Field(default_factory=list)
    created_at: datetime
    updated_at: datetime
    last_seen: datetime
    last_verified: datetime | None = None
    expires_at: datetime | None = None
    count: int = Field(default=1, ge=1)
    failures: int = Field(default=0, ge=0)
    access_count: int = Field(default=0, ge=0)
    last_accessed: datetime | None = None
    signature: str | None = None
    resolution: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)

    def is_expired(self, at: datetime) -> bool:
        """Tell whether the memory's TTL has run out at ``at`` (expiry instant included)."""
        return self.expires_at is not None and self.expires_at <= at
