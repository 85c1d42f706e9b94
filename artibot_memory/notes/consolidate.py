r"""The consolidation proposal (seed 000's workflow): daily notes and the stores in, changes out.

Pure: it reads the daily notes' items and the stores' records it is handed, and returns
what to add to MEMORY.md, update and remove as stale, each change with its reason and its
sources (``daily/2026-11-30.md:14``). Nothing is written here; :mod:`artibot_memory.api.consolidate`
shows the proposal, asks, and applies it.

MEMORY.md is rendered from the stores (:mod:`artibot_memory.notes.semantic`), so every
change is a change of a memory:

- **add**: a memory the notes name that MEMORY.md does not show gets the ``memory-md`` tag
  (*pin*); a decision or a note written from a session, with no memory behind it, becomes a
  context tagged ``memory-md`` (and ``decision`` from Decisions) (*create*). Events are
  transient and stay in the daily note. An item repeated across days is one change, with
  its days;
- **update**: a preference whose value in the notes differs from the stored one (the user
  edited the bullet) is saved again under its key, which supersedes the old value;
- **remove as stale**: a memory MEMORY.md shows that nothing referenced for more than 3
  months (its ``last_seen``, ``last_accessed``, and no mention in the notes read), every
  shown memory of a project that is done (no session for 90 days, or a note or a context
  saying it was finished, archived or done) (*stale*: its state becomes ``stale``), and a
  preference reversed since the last consolidation (*reversed*: superseded by a newer value).

>>> note = "## Decisions\n- 10:20 [shop] Chose argon2 over bcrypt (session 1a2b3c4d:88)\n"
>>> [(i.where, i.section, i.project, i.text) for i in read_day("daily/2026-11-30.md", note)]
[('daily/2026-11-30.md:2', 'Decisions', 'shop', 'Chose argon2 over bcrypt')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from artibot_memory.core.project import display_name
from artibot_memory.store import layers
from artibot_memory.store.layers import GLOBAL, day_of
from artibot_memory.store.model import Memory, MemoryType, State
from artibot_memory.text import markdown
from artibot_memory.text.tokens import normalize_text

__all__ = [
    "PIN_TAG",
    "Change",
    "Item",
    "Proposal",
    "day_of",
    "propose",
    "read_day",
]

PIN_TAG = "memory-md"
DECISION_TAG = "decision"
SECTIONS = layers.DAILY_SECTIONS
KEPT = frozenset({"Decisions", "Observations", "Notes"})  # Events are transient
CREATED_FROM = frozenset({"Decisions", "Notes"})
STALE_AFTER = timedelta(days=90)  # seed 000: "stale for >3 months without reference"
DONE_AFTER = timedelta(days=90)
LIVE = frozenset({State.ACTIVE, State.RESOLVED})
PINNED_TYPES = frozenset({MemoryType.CONTEXT, MemoryType.ERROR})

MEMORY_ID = re.compile(r"^(?:pref|ctx|err|cmd)-")
NOTED_PREFIX = re.compile(r"^(?:preference detected|선호 감지)\s*:\s*", re.IGNORECASE)
KEY_SUFFIX = re.compile(r"\s*\([a-z0-9-]+\)$")
DONE = re.compile(
    r"\b(?:project|repo|repository)\b[^.;\n]{0,40}?\b(?:is|was|now)?\s*"
    r"(?:done|finished|archived|completed|wrapped up|shut down|retired)\b"
    r"|\b(?:archived|finished|completed|wrapped up|retired)\s+(?:the\s+)?(?:project|repo)\b"
    r"|(?:프로젝트|저장소|레포)[^.\n]{0,20}?(?:완료|종료|마무리|보관|끝났|끝냄|아카이브)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Item:
    """One bullet of a daily note, read back: where it is, when, whose, what, from what."""

    path: str  # daily/2026-11-30.md, as a hit or a proposal names it
    line: int
    day: date
    section: str
    at: datetime | None  # local time; None for a line the user wrote without one
    project: str | None  # the display name; None for [global]
    text: str
    memory_id: str | None  # the source when it is a memory, else None

    @property
    def where(self) -> str:
        """``daily/2026-11-30.md:14``."""
        return f"{self.path}:{self.line}"

    @property
    def moment(self) -> datetime:
        """When it happened: its time, or the start of its day for a line without one."""
        return self.at or datetime.combine(self.day, time()).astimezone()


@dataclass
class Change:
    """One proposed change of MEMORY.md, as a change of a memory.

    ``action``: ``pin``, ``create`` (add), ``update``, ``stale``, ``reversed`` (remove).
    """

    action: str
    text: str
    reason: str
    memory_id: str | None = None
    project: str | None = None
    key: str | None = None
    tags: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    days: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        """``add``, ``update`` or ``remove``: the group it is shown in."""
        return {"pin": "add", "create": "add", "update": "update"}.get(self.action, "remove")

    def as_dict(self) -> dict[str, object]:
        """Return the change as ``--json`` shows it."""
        return {
            "kind": self.kind,
            "action": self.action,
            "id": self.memory_id,
            "text": self.text,
            "project": self.project,
            "key": self.key,
            "tags": self.tags,
            "reason": self.reason,
            "sources": self.sources,
            "days": self.days,
        }


@dataclass
class Proposal:
    """What a consolidation would change, and what it read to decide."""

    since: datetime
    until: datetime
    files: list[str]
    changes: list[Change] = field(default_factory=list)

    def group(self, kind: str) -> list[Change]:
        """Return the changes of one kind (add, update, remove), in their order."""
        return [change for change in self.changes if change.kind == kind]


# ---- reading the notes


def read_day(path: str, text: str) -> list[Item]:
    """Return the items of one daily note's four sections (``path`` names it in sources)."""
    day = day_of(path.rsplit("/", 1)[-1])
    if day is None:
        return []
    doc = markdown.parse(text)
    items = []
    for title in SECTIONS:
        for bullet in markdown.bullets(doc.section(title)):
            items.append(_item(path, day, title, bullet))
    return items


def _item(path: str, day: date, section: str, bullet: markdown.Bullet) -> Item:
    found = markdown.parse_daily_bullet(bullet.text)  # the one reader of a daily bullet
    if found is None:  # a line the user wrote: its text, of no project, at no time
        return Item(path, bullet.line, day, section, None, None, bullet.text, None)
    hour, minute = (int(part) for part in found.time.split(":"))
    at = datetime.combine(day, time(min(hour, 23), min(minute, 59))).astimezone()
    project = found.project.strip()
    source = found.source or ""
    return Item(
        path,
        bullet.line,
        day,
        section,
        at,
        None if project == GLOBAL else project,
        found.text,
        source if MEMORY_ID.match(source) else None,
    )


# ---- the proposal


def propose(
    items: Sequence[Item],
    records: Sequence[Memory],
    *,
    now: datetime,
    since: datetime,
    shown_ids: Iterable[str] = (),
    files: Sequence[str] = (),
) -> Proposal:
    """Return the changes the notes written from ``since`` on and the stores call for.

    ``shown_ids``: the memories MEMORY.md shows now (its markers); with the active ones
    tagged ``memory-md``, they are what "in MEMORY.md" means.
    """
    window = [item for item in items if item.moment >= since]
    live = {m.id: m for m in records if not m.is_expired(now)}
    shown = {m.id for m in live.values() if m.state in LIVE and PIN_TAG in m.tags}
    shown |= {i for i in shown_ids if i in live and live[i].state in LIVE}
    done = _done_projects(window, list(live.values()), shown, now)
    changes = _pins(window, live, shown, done) + _creations(window, live, done)
    changes += _updates(window, live)
    changes += _stale(window, live, shown, done, now) + _reversed(live, since)
    return Proposal(since, now, list(files), changes)


def _project_name(memory: Memory) -> str | None:
    return display_name(memory.project) if memory.project else None


def _sources_and_days(found: Sequence[Item]) -> tuple[list[str], list[str]]:
    sources = list(dict.fromkeys(item.where for item in found))
    days = sorted({item.day.isoformat() for item in found})
    return sources, days


def _days_phrase(days: Sequence[str]) -> str:
    return days[0] if len(days) == 1 else f"{len(days)} days: {', '.join(days)}"


def _pins(
    window: Sequence[Item], live: dict[str, Memory], shown: set[str], done: dict[str, str]
) -> list[Change]:
    by_id: dict[str, list[Item]] = {}
    for item in window:
        memory = live.get(item.memory_id or "")
        if item.section not in KEPT or memory is None or memory.id in shown:
            continue
        if (
            memory.type in PINNED_TYPES
            and memory.state in LIVE
            and _project_name(memory) not in done
        ):
            by_id.setdefault(memory.id, []).append(item)
    changes = []
    for memory_id, found in by_id.items():
        memory = live[memory_id]
        sources, days = _sources_and_days(found)
        what = found[0].section.lower().removesuffix("s")
        changes.append(
            Change(
                "pin",
                memory.text,
                f"a {what} in the daily notes ({_days_phrase(days)}), not in MEMORY.md",
                memory_id=memory_id,
                project=memory.project,
                tags=[PIN_TAG],
                sources=sources,
                days=days,
            )
        )
    return changes


def _creations(
    window: Sequence[Item], live: dict[str, Memory], done: dict[str, str]
) -> list[Change]:
    known = {normalize_text(m.text) for m in live.values()}
    groups: dict[tuple[str, str | None], list[Item]] = {}
    for item in window:
        if item.section not in CREATED_FROM or item.memory_id is not None:
            continue
        text = normalize_text(item.text)
        if text and text not in known and item.project not in done:
            groups.setdefault((text, item.project), []).append(item)
    paths = {display_name(m.project): m.project for m in live.values() if m.project}
    changes = []
    for (_text, project), found in groups.items():
        sources, days = _sources_and_days(found)
        decision = any(item.section == "Decisions" for item in found)
        tags = [PIN_TAG, DECISION_TAG] if decision else [PIN_TAG]
        what = "decision" if decision else "note"
        changes.append(
            Change(
                "create",
                found[0].text,
                f"a {what} in the daily notes ({_days_phrase(days)}), not yet a memory",
                project=paths.get(project, project) if project else None,
                tags=tags,
                sources=sources,
                days=days,
            )
        )
    return changes


def _noted_value(text: str) -> str:
    """Return a preference as a note shows it, without the writer's prefix and key."""
    return KEY_SUFFIX.sub("", NOTED_PREFIX.sub("", text)).strip()


def _edited(noted: str, stored: str) -> bool:
    """Tell whether a note's value says something else than its memory (not merely shorter).

    >>> _edited("use bun, not pnpm", "Use pnpm, not npm")
    True
    >>> _edited("use pnpm, not npm", "Use pnpm, not npm"), _edited("Use pn…", "Use pnpm, not npm")
    (False, False)
    """
    clipped = noted.rstrip().endswith(("…", "..."))  # the writer cut it: a shorter, same text
    noted, stored = normalize_text(noted), normalize_text(stored)
    return stored not in noted and not (clipped and stored.startswith(noted))


def _updates(window: Sequence[Item], live: dict[str, Memory]) -> list[Change]:
    latest: dict[str, tuple[Item, Memory]] = {}
    for item in window:
        memory = live.get(item.memory_id or "")
        if memory is None or memory.type is not MemoryType.PREFERENCE or not memory.key:
            continue
        held = latest.get(memory.key)
        if held is None or item.moment >= held[0].moment:
            latest[memory.key] = (item, memory)
    current = {
        m.key: m
        for m in live.values()
        if m.type is MemoryType.PREFERENCE and m.key and m.state is State.ACTIVE
    }
    changes = []
    for key, (item, source) in latest.items():
        value = _noted_value(item.text)
        now_held = current.get(key)
        if not _edited(value, source.text) or (
            now_held and normalize_text(now_held.text) == normalize_text(value)
        ):
            continue
        was = now_held.text if now_held else source.text
        changes.append(
            Change(
                "update",
                value,
                f"the note of {item.day} says “{value}”; the store has “{was}”",
                memory_id=now_held.id if now_held else source.id,
                project=source.project,
                key=key,
                sources=[item.where],
                days=[item.day.isoformat()],
            )
        )
    return changes


def _stale(
    window: Sequence[Item],
    live: dict[str, Memory],
    shown: set[str],
    done: dict[str, str],
    now: datetime,
) -> list[Change]:
    mentioned = {item.memory_id for item in window if item.memory_id}
    changes = []
    for memory_id in sorted(shown):
        memory = live[memory_id]
        project = _project_name(memory)
        if project in done:
            reason = f"the project {project} is done: {done[project]}"
        else:
            seen = max(memory.last_seen, memory.last_accessed or memory.last_seen)
            if memory_id in mentioned or now - seen <= STALE_AFTER:
                continue
            reason = f"no reference since {seen.astimezone():%Y-%m-%d} (over 3 months)"
        changes.append(
            Change("stale", memory.text, reason, memory_id=memory_id, project=memory.project)
        )
    return changes


def _reversed(live: dict[str, Memory], since: datetime) -> list[Change]:
    successors = {
        str(m.details.get("supersedes")): m for m in live.values() if m.details.get("supersedes")
    }
    changes = []
    for memory in live.values():
        if memory.type is not MemoryType.PREFERENCE or memory.state is not State.SUPERSEDED:
            continue
        if memory.updated_at <= since:
            continue
        after = successors.get(memory.id)
        by = f": now “{after.text}” ({after.id})" if after else ""
        changes.append(
            Change(
                "reversed",
                memory.text,
                f"reversed on {memory.updated_at.astimezone():%Y-%m-%d}{by}",
                memory_id=memory.id,
                project=memory.project,
                key=memory.key,
            )
        )
    return changes


def _done_projects(
    window: Sequence[Item], live: Sequence[Memory], shown: set[str], now: datetime
) -> dict[str, str]:
    """Return the projects MEMORY.md shows that are done, each with why (by display name)."""
    names = {_project_name(m) for m in live if m.id in shown} - {None}
    done: dict[str, str] = {}
    for name in sorted(n for n in names if n):
        said = _said_done(name, window, live)
        if said:
            done[name] = said
            continue
        last = _last_activity(name, window, live)
        if last is not None and now - last > DONE_AFTER:
            done[name] = f"no session since {last.astimezone():%Y-%m-%d}"
    return done


def _said_done(name: str, window: Sequence[Item], live: Sequence[Memory]) -> str | None:
    for item in window:
        if item.project == name and DONE.search(item.text):
            return f"{item.where} says “{item.text}”"
    contexts = [m for m in live if m.type is MemoryType.CONTEXT and m.state in LIVE]
    for memory in contexts:
        if _project_name(memory) == name and DONE.search(memory.text):
            return f"{memory.id} says “{memory.text}”"
    return None


def _last_activity(name: str, window: Sequence[Item], live: Sequence[Memory]) -> datetime | None:
    moments = [m.last_seen for m in live if _project_name(m) == name]
    moments += [item.moment for item in window if item.project == name]
    return max(moments) if moments else None
