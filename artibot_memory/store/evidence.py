"""How sure a memory is, and since when: confidence, confirmation and entities from evidence.

One place for what docs/METADATA.md §1 says of a memory's metadata, so every writer (the
merge, an import, a resolution) computes it the same way:

- :func:`confidence`, the formula: more sessions for a memory make it surer, sessions
  against it make it less so;
- :func:`support` and :func:`against`: distinct sessions of evidence and of
  counter-evidence (the day stands for the session when an observation has none);
- :func:`confirmed`, seed 003's one rule: evidence from 2 or more distinct sessions;
- :func:`last_verified`: the newest evidence, not the time of the write;
- :func:`refresh`: both written onto a memory;
- :func:`entities`: what a memory is about (its key, people, tools, projects), which
  :mod:`artibot_memory.api.relate` links memories by.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from artibot_memory.store.model import Evidence, Memory, MemoryType
from artibot_memory.text.shell import program_and_target
from artibot_memory.text.tags import is_tool

SESSIONS_TO_CONFIRM = 2  # seed 003: 2+ occurrences before a pattern becomes a preference
CEILING = 0.99  # no amount of repetition makes a memory certain
COMPUTED = frozenset({MemoryType.PREFERENCE, MemoryType.CONTEXT})  # errors, commands: their own
BASE = "base_confidence"  # details[BASE]: the confidence the first observation was stated with
KINDS = ("stated", "used", "confirmed", "contradicted")
_WORD = re.compile(r"[\w.-]+")


def confidence(base: float, support: int, against: int) -> float:
    """Return the confidence of a memory stated with ``base``, for and against by sessions.

    ``min(0.99, base + (1 - base) * (1 - 1 / support)) * support / (support + against)``,
    rounded to 2 places. One session is the base; each more closes part of the gap to 1;
    sessions against scale it down by their share. No evidence at all leaves the base.

    >>> confidence(0.5, 1, 0), confidence(0.5, 2, 0), confidence(0.5, 4, 0)
    (0.5, 0.75, 0.88)
    >>> confidence(0.8, 2, 2), confidence(0.9, 100, 0)
    (0.45, 0.99)
    >>> confidence(0.7, 0, 0), confidence(0.7, 0, 3)
    (0.7, 0.0)
    """
    if support <= 0:
        return round(base, 2) if against <= 0 else 0.0
    grown = min(CEILING, base + (1 - base) * (1 - 1 / support))
    return round(grown * support / (support + against), 2)


def sessions(items: Iterable[Evidence]) -> set[str]:
    """Return the distinct sessions of ``items``: the session id, else the observation's day.

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 11, 30, 9, tzinfo=timezone.utc)
    >>> sorted(sessions([Evidence(at=t, session_id="s1"), Evidence(at=t), Evidence(at=t)]))
    ['day:2026-11-30', 'session:s1']
    """
    return {
        f"session:{item.session_id}" if item.session_id else f"day:{item.at.date().isoformat()}"
        for item in items
    }


def support(memory: Memory) -> int:
    """How many distinct sessions (or days, without a session id) stated, used or confirmed it."""
    return len(sessions(memory.evidence))


def against(memory: Memory) -> int:
    """How many distinct sessions (or days) contradicted it."""
    return len(sessions(memory.counter_evidence))


def days(items: Iterable[Evidence]) -> int:
    """How many distinct days (UTC) ``items`` span."""
    return len({item.at.date() for item in items})


def confirmed(memory: Memory) -> bool:
    """Seed 003's rule: evidence from 2 or more distinct sessions (session ids, not days)."""
    ids = {item.session_id for item in memory.evidence if item.session_id}
    return len(ids) >= SESSIONS_TO_CONFIRM


def last_verified(memory: Memory) -> datetime | None:
    """Return the newest ``at`` of the memory's evidence (None without any)."""
    return max((item.at for item in memory.evidence), default=None)


def base_of(memory: Memory) -> float:
    """Return the confidence the memory's first observation was stated with."""
    base = memory.details.get(BASE)
    return float(base) if isinstance(base, int | float) else memory.confidence


def refresh(memory: Memory) -> Memory:
    """Set ``last_verified`` (and a preference's or context's confidence) from the evidence.

    Errors and commands keep their confidence: an error's is how sure its fix is.
    """
    verified = last_verified(memory)
    if verified is not None:
        memory.last_verified = verified
    if memory.type in COMPUTED:
        base = base_of(memory)
        memory.details = {**memory.details, BASE: base}  # an older entry's: pinned, no drift
        memory.confidence = confidence(base, support(memory), against(memory))
    return memory


def entities(memory: Memory, projects: Iterable[str] = ()) -> set[str]:
    """Return what ``memory`` is about: ``key:…``, ``person:…``, ``tool:…``, ``project:…``.

    The tools are a command's program and the known tool words of its tags; a project is
    one of ``projects`` (short names) named in the text, its own project left out (every
    memory of a project would otherwise be about it).

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 11, 30, tzinfo=timezone.utc)
    >>> m = Memory(id="pref-1", type=MemoryType.PREFERENCE, text="Use pnpm in shop",
    ...            key="package-manager", tags=["pnpm", "person:jimin"],
    ...            created_at=t, updated_at=t, last_seen=t)
    >>> sorted(entities(m, ["shop", "blog"]))
    ['key:package-manager', 'person:jimin', 'project:shop', 'tool:pnpm']
    """
    found = {f"key:{memory.key}"} if memory.key else set()
    found |= {tag for tag in memory.tags if tag.startswith("person:")}
    found |= {f"tool:{tag}" for tag in memory.tags if is_tool(tag)}
    if memory.type is MemoryType.COMMAND:
        program = program_and_target(memory.text)[0].split()
        found |= {f"tool:{program[0].lower()}"} if program else set()
    return found | {f"project:{name}" for name in _named(memory, projects)}


def _named(memory: Memory, projects: Iterable[str]) -> set[str]:
    """Return the ``projects`` (lower-case short names) named as words in the memory's text."""
    text = memory.text.lower()
    present = [name for name in projects if name in text]  # cheap first: most name none
    if not present:
        return set()
    own = (memory.project or "").rstrip("/").rsplit("/", 1)[-1].lower()
    words = set(_WORD.findall(text))
    return {name for name in present if name in words and name != own}
