"""Entity profiles as files (docs/EVOLVE.md §4): gather, consolidate, set a profile, drop.

The consolidate phase of ``artibot-memory evolve``. What an entity is, how a file is
rendered and merged, is :mod:`artibot_memory.evolve.entities` (pure); this module reads
the stores and the daily notes, and writes through :mod:`artibot_memory.core.disk`:

- ``entities/<folder>/<name>.md``, one file per entity (projects, people, areas);
- ``entities/.state.json``, each entity's ``last_consolidated``, the touches then counted,
  and a set profile's time and the fingerprint of the facts and beliefs under it::

      {"entities": {"projects/shop": {"last_consolidated": "2026-12-01T09:00:00+00:00",
       "touches": 6, "profile_set": null, "fingerprint": null, "review": false}}}

- a ``CONSOLIDATE`` line in ``evolution.log`` for every file written.

:func:`due` says which entities have ``evolve.consolidate_touches`` touches since their
last consolidation; :func:`consolidate` rebuilds them (``dry_run``: the same report, no
byte written); :func:`profile_set` replaces one Profile's prose (the ``profile set``
verb), which later consolidations keep, marking it for review when what is under it
changed; :func:`drop` takes a forgotten memory's lines out of every file (``forget``).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from artibot_memory.capture.sessions import branch_of
from artibot_memory.core import clock, config, disk
from artibot_memory.core.errors import UsageError
from artibot_memory.core.paths import ensure_private_dir
from artibot_memory.core.project import display_name
from artibot_memory.evolve import entities as rules
from artibot_memory.evolve.entities import BELIEFS, FACTS, PROFILE, Synopsis, Touch
from artibot_memory.notes.semantic import is_live, is_summary
from artibot_memory.store import audit, layers
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.lock import locked
from artibot_memory.store.model import Memory, MemoryType, State
from artibot_memory.store.table import STORES
from artibot_memory.text.markdown import parse, render, unmarked

STATE_FILE = f"{rules.FOLDER}/.state.json"
SESSION_WINDOW = timedelta(days=90)
MAX_BELIEFS = 20
MAX_TOOLS, MAX_COMMANDS, MAX_DECISIONS, MAX_ERRORS, MAX_LINKS = 3, 2, 3, 5, 5

BeliefOf = Callable[[Memory], "tuple[float, str] | None"]


@dataclass
class Consolidated:
    """One entity re-synthesised (or, in a dry run, that would be)."""

    entity: str  # "projects/shop", "people/sara", "areas/pnpm"
    path: str  # relative to the home: "entities/projects/shop.md"
    touches: int  # touches since last_consolidated that made it due
    created: bool  # the file did not exist
    review: bool  # a set Profile's facts changed: marked for review
    facts: list[str]  # memory ids under Active Facts
    beliefs: list[str]  # memory ids under Active Beliefs
    profile: str  # the Profile prose written (or kept)
    warnings: list[str]  # validation of the written file (empty when fine)


@dataclass
class World:
    """What the stores and the notes hold of every entity, read once."""

    memories: list[Memory]
    about: dict[str, set[str]]  # memory id → the entities it is about
    touches: list[Touch]


def _no_belief(_memory: Memory) -> tuple[float, str] | None:
    return None


# ---- reading


def gather(home: Path, now: datetime) -> World:
    """Read the live stores and every daily note: the memories, what each is about, touches."""
    memories = [m for spec in STORES for m in Store(spec, home).load() if not m.is_expired(now)]
    projects = {display_name(m.project).lower() for m in memories if m.project}
    about = {m.id: rules.entities_of(m, projects) for m in memories}
    people = sorted(
        {e.split("/", 1)[1] for ids in about.values() for e in ids if e.startswith("people/")}
    )
    touches = [touch for m in memories if is_summary(m) for touch in _summary_touches(m)]
    for relative, path in layers.layer_files(home).items():
        if relative != layers.MEMORY_MD:
            touches += _note_touches(relative, layers.read_layer(path), people)
    return World(memories, about, touches)


def _summary_touches(summary: Memory) -> list[Touch]:
    return rules.touches_of(summary.text, summary.project, summary.created_at)


def _note_touches(relative: str, text: str, people: list[str]) -> list[Touch]:
    found = []
    for row in layers.rows_of(relative, text, 0):
        if row.section is not None:  # a bullet (or a line) of a section, not the title
            at = datetime.fromtimestamp(row.date_us / 1_000_000, timezone.utc)
            found += rules.touches_of(row.text, row.project, at, people)
    return found


def _state_path(home: Path) -> Path:
    return home / STATE_FILE


def read_state(home: Path) -> dict[str, dict[str, Any]]:
    """Return ``entities/.state.json``'s entities (empty when missing or unreadable)."""
    try:
        document = json.loads(_state_path(home).read_bytes())
    except (OSError, ValueError):
        return {}
    found = document.get("entities") if isinstance(document, dict) else None
    return (
        {k: v for k, v in found.items() if isinstance(v, dict)} if isinstance(found, dict) else {}
    )


def _write_state(home: Path, state: dict[str, dict[str, Any]]) -> None:
    data = json.dumps({"entities": state}, ensure_ascii=False, indent=1, sort_keys=True)
    disk.write_document(_state_path(home), (data + "\n").encode("utf-8"))


def _since(state: dict[str, dict[str, Any]]) -> dict[str, datetime | None]:
    return {
        entity: clock.parse_time(entry.get("last_consolidated")) for entity, entry in state.items()
    }


def _threshold(home: Path) -> int:
    return int(config.load(home, None)["evolve.consolidate_touches"])


@contextlib.contextmanager
def _held(home: Path, *, writing: bool = True) -> Iterator[None]:
    """Hold the entities' one lock while writing (a dry run takes none: it creates nothing)."""
    if not writing:
        yield
        return
    ensure_private_dir(home / rules.FOLDER)
    with locked(_state_path(home)):
        yield


# ---- due and consolidate


def due(home: Path, *, now: datetime | None = None) -> list[tuple[str, int]]:
    """(entity, touches) for every entity with touches >= evolve.consolidate_touches."""
    now = now or clock.now()
    return _due(gather(home, now), read_state(home), _threshold(home), now)


def _due(
    world: World, state: dict[str, dict[str, Any]], threshold: int, now: datetime
) -> list[tuple[str, int]]:
    counted = rules.count_since(world.touches, _since(state), now)
    ready = [(entity, n) for entity, n in counted.items() if n >= threshold]
    return sorted(ready, key=lambda pair: (-pair[1], pair[0]))


def consolidate(
    home: Path,
    *,
    now: datetime | None = None,
    dry_run: bool = False,
    belief_of: BeliefOf = _no_belief,
) -> list[Consolidated]:
    """Re-synthesise every due entity; dry_run computes the same list and writes nothing."""
    now = now or clock.now()
    with _held(home, writing=not dry_run):
        run = _Run(home, gather(home, now), read_state(home), now, belief_of, dry_run=dry_run)
        done = [
            _consolidate_one(run, entity, touches)
            for entity, touches in _due(run.world, run.state, _threshold(home), now)
        ]
        if done and not dry_run:
            _write_state(home, run.state)
    return done


@dataclass
class _Run:
    """One consolidation: what it read, the state it updates, and whether it writes."""

    home: Path
    world: World
    state: dict[str, dict[str, Any]]
    now: datetime
    belief_of: BeliefOf
    dry_run: bool


def _consolidate_one(run: _Run, entity: str, touches: int) -> Consolidated:
    relative = rules.entity_path(entity)
    old = _read(run.home / relative)
    facts, beliefs = members(run.world, entity)
    entry = run.state.get(entity, {})
    profile, review = _profile(run, entity, old, (facts, beliefs))
    day = layers.local_day(run.now)
    log = [f"- {day} consolidated: touches=+{touches}, {len(facts)} facts, {len(beliefs)} beliefs"]
    if review and not entry.get("review"):
        log.append(f"- {day} facts changed under the set profile: review")
    text = _merged(
        old, entity, profile=profile, facts=facts, beliefs=beliefs, belief_of=run.belief_of, log=log
    )
    run.state[entity] = {
        **entry,
        "last_consolidated": run.now.isoformat(timespec="seconds"),
        "touches": touches,
        "review": review,
        **({} if entry.get("profile_set") and old is not None else _UNSET),
    }
    warnings = [f"{relative}: {problem}" for problem in rules.check(text)]
    if not run.dry_run:
        message = f"{relative} touches=+{touches}" + " (review)" * review
        _write(run.home, relative, text, message, run.now)
        warnings = validate(run.home / relative)
    return Consolidated(
        entity,
        relative,
        touches,
        old is None,
        review,
        [m.id for m in facts],
        [m.id for m in beliefs],
        "\n".join(profile),
        warnings,
    )


_UNSET = {"profile_set": None, "fingerprint": None}


def _profile(
    run: _Run, entity: str, old: str | None, under: tuple[list[Memory], list[Memory]]
) -> tuple[list[str], bool]:
    """Return the Profile's lines and whether it is marked for review.

    A set profile's prose is kept (``> Review: …`` first when the ids under it changed);
    otherwise the prose is rebuilt from the synopsis.
    """
    facts, beliefs = under
    entry = run.state.get(entity, {})
    kept = rules.kept_prose(old) if old is not None and entry.get("profile_set") else []
    if not kept:
        return rules.prose(synopsis(run.world, entity, facts, beliefs, run.now)), False
    fingerprint = rules.ids_fingerprint([m.id for m in facts], [m.id for m in beliefs])
    if entry.get("fingerprint") == fingerprint:
        return kept, False
    return [rules.review_line(_day_of(entry["profile_set"])), *kept], True


def _merged(
    old: str | None,
    entity: str,
    *,
    profile: list[str],
    facts: list[Memory],
    beliefs: list[Memory],
    belief_of: BeliefOf,
    log: list[str],
) -> str:
    base = old if old is not None else rules.skeleton(entity, entity.split("/", 1)[1])
    managed = {
        PROFILE: profile,
        FACTS: [rules.fact_line(m, layers.local_day(m.created_at)) for m in facts],
        BELIEFS: [rules.belief_line(m, *_belief_view(m, belief_of)) for m in beliefs],
    }
    return rules.merge(base, managed, log)


def _belief_view(memory: Memory, belief_of: BeliefOf) -> tuple[float, str]:
    """Return a belief's confidence and freshness: reflect's, its record's, else its own."""
    given = belief_of(memory)
    if given is not None:
        return given
    record = memory.details.get("belief")
    if isinstance(record, dict) and isinstance(record.get("confidence"), (int, float)):
        return float(record["confidence"]), str(record.get("freshness") or "stable")
    return memory.confidence, "stable"


def members(world: World, entity: str) -> tuple[list[Memory], list[Memory]]:
    """Return an entity's active facts (at most 12) and active beliefs, newest first."""
    about = _newest(m for m in world.memories if entity in world.about[m.id] and is_live(m))
    facts = [
        m
        for m in about
        if m.type is MemoryType.CONTEXT and not is_summary(m) and not rules.is_belief(m)
    ]
    beliefs = [m for m in about if rules.is_belief(m)]
    return facts[: rules.MAX_FACTS], beliefs[:MAX_BELIEFS]


def _newest(memories: Any) -> list[Memory]:
    return sorted(memories, key=lambda m: (m.last_seen, m.id), reverse=True)


# ---- the Profile's synopsis


def synopsis(
    world: World, entity: str, facts: list[Memory], beliefs: list[Memory], now: datetime
) -> Synopsis:
    """Return what an entity's Profile says, from its memories and touches."""
    about = [m for m in world.memories if entity in world.about[m.id]]
    found = Synopsis(rules.kind_of(entity), facts=len(facts), beliefs=len(beliefs))
    if found.kind == "project":
        _status(found, [m for m in about if is_summary(m)], now)
    else:
        found.projects = _linked_projects(world, entity, about)
        found.preferences = [m.id for m in beliefs if m.type is MemoryType.PREFERENCE][:MAX_LINKS]
    _commands(found, [m for m in about if m.type is MemoryType.COMMAND and is_live(m)], entity)
    decisions = [m for m in beliefs if "decision" in m.tags][:MAX_DECISIONS]
    found.decisions = [(m.id, layers.local_day(m.created_at)) for m in decisions]
    errors = [m for m in about if m.type is MemoryType.ERROR and m.state is State.ACTIVE]
    found.errors = [m.id for m in _newest(errors) if not m.details.get("fix")][:MAX_ERRORS]
    return found


def _status(found: Synopsis, summaries: list[Memory], now: datetime) -> None:
    if not summaries:
        return
    newest = max(summaries, key=lambda m: m.last_seen)
    found.last_day = layers.local_day(newest.last_seen)
    found.branch = branch_of(newest.text)
    recent = [m.last_seen for m in summaries if now - m.last_seen <= SESSION_WINDOW]
    found.sessions = len(recent)
    found.since_day = layers.local_day(min(recent)) if recent else None


def _commands(found: Synopsis, commands: list[Memory], entity: str) -> None:
    ranked = sorted(commands, key=lambda m: (-m.count, m.id))
    found.commands = [(m.text, m.count, m.id) for m in ranked[:MAX_COMMANDS]]
    tools: Counter[str] = Counter()
    for command in ranked:
        for tool in rules.tools_in(f"`{command.text}`"):
            tools[tool] += command.count
    own = entity.split("/", 1)[1] if found.kind == "area" else None
    found.tools = [tool for tool, _ in tools.most_common() if tool != own][:MAX_TOOLS]


def _linked_projects(world: World, entity: str, about: list[Memory]) -> list[str]:
    named = Counter(rules.project_entity(m.project) for m in about if m.project)
    named.update(touch.project for touch in world.touches if touch.entity == entity)
    return [e.split("/", 1)[1] for e, _ in named.most_common() if e and e != entity][:MAX_LINKS]


# ---- profile set, validate, drop


def profile_set(home: Path, entity: str, text: str, *, now: datetime | None = None) -> Path:
    """Replace the entity's Profile prose (redacted); create the file when missing."""
    now = now or clock.now()
    lines = rules.prose_lines(text)
    if not any(line.strip() for line in lines):
        raise UsageError(f"the profile for {entity} is empty: nothing written")
    _check_entity(entity)
    relative = rules.entity_path(entity)
    with _held(home):
        world, state = gather(home, now), read_state(home)
        facts, beliefs = members(world, entity)
        old = _read(home / relative)
        day = layers.local_day(now)
        if old is None:
            merged = _merged(
                None,
                entity,
                profile=lines,
                facts=facts,
                beliefs=beliefs,
                belief_of=_no_belief,
                log=[f"- {day} profile set"],
            )
        else:
            merged = rules.merge(old, {PROFILE: lines}, [f"- {day} profile set"])
        state[entity] = {
            **state.get(entity, {}),
            "profile_set": now.isoformat(timespec="seconds"),
            "fingerprint": rules.ids_fingerprint([m.id for m in facts], [m.id for m in beliefs]),
            "review": False,
        }
        _write(home, relative, merged, f"{relative} profile set", now)
        _write_state(home, state)
    return home / relative


def _check_entity(entity: str) -> None:
    folder, _, name = entity.partition("/")
    if folder not in rules.KIND_OF or not name or rules.slug(name) != name:
        raise UsageError(
            f"{entity!r} is not an entity: use projects/NAME, people/NAME or areas/NAME"
        )


def validate(path: Path) -> list[str]:
    """Warnings of one entity file: a missing managed section, an unreadable file, ..."""
    label = f"{rules.FOLDER}/{path.parent.name}/{path.name}"
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        return [f"{label}: cannot be read ({exc.strerror})"]
    except UnicodeDecodeError:
        return [f"{label}: not UTF-8 text"]
    return [f"{label}: {problem}" for problem in rules.check(text)]


def drop(home: Path, memory_ids: set[str]) -> None:
    """Remove managed lines (<!-- am:ID -->) of forgotten memories from every entity file.

    A rebuilt Profile's sentence that names one of them goes too (it may quote its text);
    a Profile set by a person keeps their words.
    """
    files = sorted((home / rules.FOLDER).glob("*/*.md"))
    if not memory_ids or not files:
        return
    with _held(home):
        state = read_state(home)
        for path in files:
            entity = f"{path.parent.name}/{path.stem}"
            text = _read(path)
            kept = _without(
                text or "", memory_ids, prose=not state.get(entity, {}).get("profile_set")
            )
            if text is not None and kept != text:
                disk.write_text(path, kept)


def _without(text: str, ids: set[str], *, prose: bool) -> str:
    doc = parse(text)
    names = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(ids))) + r")(?![\w-])")
    for section in doc.sections:
        section.body = [
            line
            for line in section.body
            if unmarked(line.text)[1] not in ids
            and not (prose and section.title == PROFILE and names.search(line.text))
        ]
    return render(doc)


# ---- listing and naming (the profile verb)


def known(home: Path, world: World | None = None) -> set[str]:
    """Return every entity the home knows: touched, named by a memory, with a file or a state."""
    world = world or gather(home, clock.now())
    found = {touch.entity for touch in world.touches}
    found |= {entity for ids in world.about.values() for entity in ids}
    found |= {f"{p.parent.name}/{p.stem}" for p in (home / rules.FOLDER).glob("*/*.md")}
    return found | set(read_state(home))


def resolve(home: Path, given: str) -> str:
    """Return the entity ``given`` names: ``projects/shop``, ``project:shop`` or a bare name.

    A bare name must be the name of exactly one known entity.
    """
    folder, slash, name = given.partition("/")
    if slash and folder in rules.KIND_OF:
        return _named(folder, name, given)
    kind, colon, name = given.partition(":")
    if colon and kind in rules.FOLDERS:
        return _named(rules.FOLDERS[kind], name, given)
    wanted = rules.slug(given)
    matches = sorted(e for e in known(home) if e.split("/", 1)[1] == wanted)
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise UsageError(f"no entity is named {given!r}; `artibot-memory profile list` shows them")
    raise UsageError(f"{given!r} names {len(matches)} entities ({', '.join(matches)}): say which")


def _named(folder: str, name: str, given: str) -> str:
    if not rules.slug(name):
        raise UsageError(f"{given!r} has no name: use {folder}/NAME")
    return f"{folder}/{rules.slug(name)}"


def listing(home: Path, *, now: datetime | None = None) -> list[dict[str, Any]]:
    """Return every known entity: its path, last consolidation, touches since, due or not."""
    now = now or clock.now()
    world, state = gather(home, now), read_state(home)
    counted = rules.count_since(world.touches, _since(state), now)
    threshold = _threshold(home)
    return [
        {
            "entity": entity,
            "path": rules.entity_path(entity),
            "exists": (home / rules.entity_path(entity)).is_file(),
            "last_consolidated": state.get(entity, {}).get("last_consolidated"),
            "touches": counted[entity],
            "due": counted[entity] >= threshold,
            "profile_set": state.get(entity, {}).get("profile_set"),
        }
        for entity in sorted(known(home, world))
    ]


# ---- files


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None


def _write(home: Path, relative: str, text: str, message: str, now: datetime) -> None:
    path = home / relative
    ensure_private_dir(path.parent)
    disk.write_text(path, text)
    audit.append(home, "CONSOLIDATE", message, at=now)


def _day_of(stamp: str) -> str:
    moment = clock.parse_time(stamp)
    return layers.local_day(moment) if moment else stamp


def file_of(entity: str) -> str:
    """Return an entity's file relative to the home: ``entities/projects/shop.md``."""
    return rules.entity_path(entity)


def path_of(home: Path, entity: str) -> Path:
    """Return an entity file's path in the home (it may not exist)."""
    return home / rules.entity_path(entity)
