"""Conflicts between memories: found at write time and in maintenance, logged, resolved.

docs/METADATA.md §3 is the contract; the rules are :mod:`artibot_memory.notes.conflicts`.

- :func:`check`, after every save (:func:`artibot_memory.api.memories.save_many`): the
  preferences and decisions just stored against the others; never raises (a failure is
  logged, the save is kept);
- :func:`scan`, once per session start's worker (``lifecycle.maintain``): every live
  preference and decision pair;
- :func:`contradicted`, after an ingest stored commands: a command against a stated
  preference of its subject (``npm install`` against "use pnpm") is counter-evidence, one
  per session; over ``conflicts.behaviour_sessions`` sessions it is a conflict;
- :func:`open_conflicts` and :func:`resolve`: the ``conflicts`` verbs.

A conflict found goes to the ledger (``conflicts/YYYY-MM-DD.md``, the local day) first,
then to both memories (``details["conflicts"]``, ``related``). A low-severity one is
resolved at once when ``conflicts.auto_resolve_low`` says so, the newer side kept.
Nothing is ever deleted: a resolution changes states and appends a line.

A reversal (the newer statement says it wins: "from now on use pnpm instead of npm";
:func:`artibot_memory.notes.conflicts.reverses`) is no conflict: the older side is
superseded (``details["supersedes"]`` on the newer, as the store does for a key's new
value) and nothing goes to the ledger; a conflict of the pair still open from before
(logged when every reversal was one) is resolved, the newer kept (:func:`settle`).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from artibot_memory.capture.hooklog import log_failure
from artibot_memory.core import clock, config
from artibot_memory.core.disk import write_text
from artibot_memory.core.errors import UsageError
from artibot_memory.core.paths import ensure_private_dir, memory_home
from artibot_memory.notes import conflicts as rules
from artibot_memory.store import layers, ledger
from artibot_memory.store.jsonfile import Store, change_each_store, group_by_store
from artibot_memory.store.lock import locked
from artibot_memory.store.merge import MAX_EVIDENCE
from artibot_memory.store.model import Evidence, Memory, MemoryType, State
from artibot_memory.store.table import spec_for, specs_for_id
from artibot_memory.text.glossary import concept_of
from artibot_memory.text.polarity import stance
from artibot_memory.text.shell import program_and_target
from artibot_memory.text.subjects import subject_key
from artibot_memory.text.tokens import tokenize

KEEPS = ("new", "old", "both")
# The subjects a command's program shows (npm against "use pnpm"); a shell or an editor
# run is no statement about the one the user prefers to type in.
BEHAVIOUR_KEYS = frozenset(
    {
        "package-manager",
        "python-package-manager",
        "formatter",
        "linter",
        "type-checker",
        "test-runner",
    }
)
MAX_RELATED = 10
CONTRADICTED = "contradicted"
AUTO_NOTE = "Temporarily preferred {new} over {old}"
REVERSAL_NOTE = "the newer statement says it wins"


@dataclass(frozen=True)
class Resolution:
    """What a resolution did: the conflict, what was kept, each memory's state after it."""

    id: str
    keep: str
    states: dict[str, str]
    line: str


def check(stored: Sequence[Memory], home: Path | None = None) -> list[ledger.Entry]:
    """Log the conflicts of memories just saved; never raises (a failure is only logged)."""
    try:
        candidates = [memory for memory in stored if rules.comparable(memory)]
        if not candidates:
            return []
        contexts = any(rules.is_decision(m) or rules.is_fact(m) for m in candidates)
        pool = _pool(home, decisions=contexts)
        near = Nearby(pool)
        return settle([f for memory in candidates for f in near.conflicts_of(memory)], home)
    except Exception as exc:  # noqa: BLE001 - a conflict must never cost a save
        log_failure("conflicts", exc)
        return []


def scan(home: Path | None = None) -> list[ledger.Entry]:
    """Log every conflict among the live preferences and decisions (maintenance)."""
    pool = _pool(home, decisions=True)
    near = Nearby(pool)
    return settle([f for memory in pool for f in near.conflicts_of(memory)], home)


def settle(found: Iterable[rules.Found], home: Path | None = None) -> list[ledger.Entry]:
    """Supersede what a newer statement reversed; log the rest as conflicts (:func:`record`)."""
    found = list(found)
    reversals = [f for f in found if f.kind == rules.REVERSED]
    if reversals:
        _supersede(reversals, home)
        _resolve_reversed(reversals, home if home is not None else memory_home())
    return record([f for f in found if f.kind != rules.REVERSED], home)


def _supersede(reversals: list[rules.Found], home: Path | None) -> None:
    """Mark each reversed older side superseded and link it from the newer; write if needed."""
    todo = [f for f in reversals if not _superseded_by(f.old, f.new)]
    if not todo:
        return  # the usual case on a scan: the store or an earlier check did it already
    now = clock.now()
    olds = {f.old.id: f for f in todo}
    news: dict[str, list[rules.Found]] = defaultdict(list)
    for reversal in todo:
        news[reversal.new.id].append(reversal)

    def change(_spec: object, entries: list[Memory], _ids: object) -> None:
        by_id = {memory.id: memory for memory in entries}
        for memory in entries:
            if memory.id in olds and memory.state in rules.LIVE:
                memory.state, memory.updated_at = State.SUPERSEDED, now
                memory.related = _linked(memory.related, olds[memory.id].new.id)
            for reversal in news.get(memory.id, []):
                _take_over(memory, reversal.old, by_id.get(reversal.old.id), now)

    change_each_store(group_by_store([*olds, *news], specs_for_id), change, home)


def _superseded_by(old: Memory, new: Memory) -> bool:
    linked = new.details.get("supersedes") == old.id or old.id in new.related
    return old.state not in rules.LIVE and linked


def _take_over(new: Memory, old: Memory, stored_old: Memory | None, now: datetime) -> None:
    """Link the newer side to the older it reverses, as the store's supersede does."""
    if "supersedes" not in new.details:
        new.details = {**new.details, "supersedes": old.id}
    new.related = _linked(new.related, old.id)
    was = stored_old.state if stored_old is not None else old.state
    if new.state is State.PENDING and was is State.ACTIVE:
        new.state = State.ACTIVE  # a change of a confirmed preference is confirmed too
    new.updated_at = now


def _linked(related: list[str], other: str) -> list[str]:
    return [*dict.fromkeys([*related, other])][:MAX_RELATED]


def _resolve_reversed(reversals: list[rules.Found], home: Path) -> None:
    """Resolve a reversal's conflict still open from before, the newer side kept."""
    for reversal in reversals:
        held = {c.get("id"): c for c in _conflicts_of(reversal.new) if isinstance(c, dict)}
        if held.get(reversal.id, {}).get("status") == ledger.OPEN:
            try:
                resolve(reversal.id, "new", REVERSAL_NOTE, home)
            except UsageError:  # its ledger section is gone: the memories keep their states
                continue


def _conflicts_of(memory: Memory) -> list[Any]:
    """Return a memory's ``details["conflicts"]`` (nothing when it is not a list)."""
    held = memory.details.get("conflicts")
    return held if isinstance(held, list) else []


class Nearby:
    """The memories of a pool by the words of their stance, so a pair shares one at least.

    Comparing only those keeps a scan (and a bulk import's check) far from every pair.
    """

    def __init__(self, pool: list[Memory]) -> None:
        self.by_id = {memory.id: memory for memory in pool}
        self.by_word: dict[str, list[Memory]] = defaultdict(list)
        for memory in pool:
            for word in _words_of(memory):
                self.by_word[word].append(memory)

    def conflicts_of(self, memory: Memory) -> list[rules.Found]:
        """Return the conflicts of ``memory`` with the pool (a pair may come twice)."""
        if not rules.comparable(memory):
            return []
        near = {m.id: m for word in _words_of(memory) for m in self.by_word[word]}
        superseded = self.by_id.get(str(memory.details.get("supersedes")))
        if superseded is not None:
            near[superseded.id] = superseded
        return rules.detect(memory, near.values())


def _words_of(memory: Memory) -> set[str]:
    if rules.is_fact(memory):  # a fact meets its update by what both speak of
        return {f"fact:{concept_of(token)}" for token in tokenize(memory.text)}
    said = stance(memory.text)
    if said is None:
        return set()
    return {*said.subject, *said.instead_of, *([f"key:{said.key}"] if said.key else [])}


def scan_logged(home: Path | None = None) -> None:
    """Run :func:`scan`; a failure is logged, never raised (a session start's worker calls it)."""
    try:
        scan(home)
    except Exception as exc:  # noqa: BLE001 - maintenance must never break a session's end
        log_failure("SessionStart: conflicts", exc)


def _pool(home: Path | None, *, decisions: bool) -> list[Memory]:
    """Return the preferences (and the decisions and facts) as stored now, expired ones out."""
    now = clock.now()
    found = Store(spec_for(MemoryType.PREFERENCE), home).load()
    if decisions:
        contexts = Store(spec_for(MemoryType.CONTEXT), home).load()
        found = [*found, *(m for m in contexts if rules.is_decision(m) or rules.is_fact(m))]
    return [m for m in found if not m.is_expired(now)]


def record(found: Iterable[rules.Found], home: Path | None = None) -> list[ledger.Entry]:
    """Log conflicts not logged yet: the ledger first, then both memories; return the entries."""
    home = home if home is not None else memory_home()
    now = clock.now()
    fresh: dict[str, tuple[rules.Found, ledger.Entry]] = {}
    for conflict in found:
        if conflict.id in fresh or _logged(conflict):
            continue
        fresh[conflict.id] = (conflict, _entry(conflict, home))
    if not fresh:
        return []
    _write_entries([entry for _, entry in fresh.values()], home, now)
    _mark(list(fresh.values()), home, now)
    return [entry for _, entry in fresh.values()]


def _logged(conflict: rules.Found) -> bool:
    return any(conflict.id in _conflict_ids(side) for side in (conflict.new, conflict.old))


def _conflict_ids(memory: Memory) -> set[str]:
    return {str(c.get("id")) for c in _conflicts_of(memory) if isinstance(c, dict)}


def _entry(conflict: rules.Found, home: Path) -> ledger.Entry:
    settings = config.load(home, conflict.new.project or conflict.old.project)
    sessions = int(settings["conflicts.established_sessions"])
    level = rules.severity(conflict.new, conflict.old, sessions)
    entry = rules.entry_of(conflict, level, sessions)
    if level == "low" and settings["conflicts.auto_resolve_low"]:
        note = AUTO_NOTE.format(new=_short(conflict.new), old=_short(conflict.old))
        entry.resolutions.append(
            rules.resolution_line("new", layers.local_day(clock.now()), entry, note)
        )
        entry.status = ledger.RESOLVED
    return entry


def _short(memory: Memory) -> str:
    return rules.side_of(memory).text


def _write_entries(entries: list[ledger.Entry], home: Path, now: datetime) -> None:
    """Add the sections to the day's ledger file, under the ledger's lock (a section once)."""
    day = layers.local_day(now)
    path = Path(ledger.ledger_path(home, day))
    ensure_private_dir(path.parent)
    with locked(path.parent / "ledger"):
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        known = {entry.id for entry in ledger.parse_ledger(text, "")}
        for entry in entries:
            if entry.id not in known:
                text = rules.with_entry(text, day, entry)
        write_text(path, text)


def _mark(logged: list[tuple[rules.Found, ledger.Entry]], home: Path, now: datetime) -> None:
    """Give both sides of each conflict its record and the other's id; apply auto-resolutions."""
    changes: dict[str, list[tuple[dict[str, str], str, State | None]]] = defaultdict(list)
    for conflict, entry in logged:
        resolved = entry.status == ledger.RESOLVED
        for side, other, wins in (
            (conflict.new, conflict.old, True),
            (conflict.old, conflict.new, False),
        ):
            held = rules.record_of(conflict, other.id, entry.severity, now)
            if resolved:
                held = {**held, "status": ledger.RESOLVED, "resolution": "new"}
            state = State.SUPERSEDED if resolved and not wins else None  # the newer stays as it is
            changes[side.id].append((held, other.id, state))

    def change(_spec: object, entries: list[Memory], ids: list[str]) -> None:
        for memory in entries:
            for held, other, state in changes.get(memory.id, []) if memory.id in ids else []:
                _hold(memory, held, other, now)
                if state is not None:
                    memory.state = state

    change_each_store(group_by_store(changes, specs_for_id), change, home)


def _hold(memory: Memory, held: dict[str, Any], other: str, now: datetime) -> None:
    kept = [
        c
        for c in memory.details.get("conflicts") or []
        if isinstance(c, dict) and c.get("id") != held["id"]
    ]
    memory.details = {**memory.details, "conflicts": [*kept, held]}
    memory.related = [*dict.fromkeys([*memory.related, other])][:MAX_RELATED]
    memory.updated_at = now


def forget_sides(ids: set[str], home: Path) -> None:
    """Blank the texts of forgotten memories in the ledger (their conflicts stay, as ids)."""
    files = ledger.ledger_files(home)
    if not files:
        return
    with locked(Path(files[0]).parent / "ledger"):
        for name in files:
            path = Path(name)
            text = path.read_text(encoding="utf-8")
            kept = rules.without_sides(text, ids)
            if kept != text:
                write_text(path, kept)


def open_conflicts(home: Path | None = None, *, every: bool = False) -> list[ledger.Entry]:
    """Return the ledger's open conflicts (``every``: all of them), oldest first."""
    found = ledger.entries(home if home is not None else memory_home())
    return found if every else [entry for entry in found if entry.is_open]


def resolve(
    conflict: str, keep: str, note: str | None = None, home: Path | None = None
) -> Resolution:
    """Resolve a conflict: set both memories' states, append the decision to its ledger entry.

    ``keep``: ``new`` (new active, old superseded), ``old`` (old active, new superseded) or
    ``both`` (both active). An unknown id, or one resolved already, is a :class:`UsageError`.
    """
    if keep not in KEEPS:
        msg = f"--keep takes new, old or both, not {keep!r}"
        raise UsageError(msg)
    home = home if home is not None else memory_home()
    entry = _find(conflict, home)
    now = clock.now()
    line = rules.resolution_line(keep, layers.local_day(now), entry, note)
    states = _states(entry, keep)
    _append_resolution(entry, line, home)
    _set_states(entry.id, states, keep, home, now)
    return Resolution(entry.id, keep, {k: v.value for k, v in states.items()}, line)


def _find(conflict: str, home: Path) -> ledger.Entry:
    for entry in ledger.entries(home):
        if entry.id == conflict:
            if not entry.is_open:
                msg = f"{conflict} is resolved already: {entry.resolutions[-1]}"
                raise UsageError(msg)
            return entry
    msg = f"no conflict {conflict!r}; `artibot-memory conflicts --all` lists them"
    raise UsageError(msg)


def _states(entry: ledger.Entry, keep: str) -> dict[str, State]:
    new = entry.new.id if entry.new else ""
    old = entry.old.id if entry.old else ""
    if keep == "both":
        return {new: State.ACTIVE, old: State.ACTIVE}
    winner, loser = (new, old) if keep == "new" else (old, new)
    return {winner: State.ACTIVE, loser: State.SUPERSEDED}


def _append_resolution(entry: ledger.Entry, line: str, home: Path) -> None:
    path = home / entry.path
    with locked(path.parent / "ledger"):
        text = path.read_text(encoding="utf-8")
        write_text(path, rules.with_resolution(text, entry.id, line))


def _set_states(
    conflict: str, states: dict[str, State], keep: str, home: Path, now: datetime
) -> None:
    def change(_spec: object, entries: list[Memory], ids: list[str]) -> None:
        for memory in entries:
            if memory.id in ids:
                if memory.type is not MemoryType.COMMAND:  # what ran stays what ran
                    memory.state = states[memory.id]
                memory.updated_at = now
                resolved = _resolved(memory, conflict, keep, now)
                memory.details = {**memory.details, "conflicts": resolved}

    change_each_store(group_by_store([i for i in states if i], specs_for_id), change, home)


def _resolved(memory: Memory, conflict: str, keep: str, now: datetime) -> list[Any]:
    held = memory.details.get("conflicts") or []
    done = {"status": ledger.RESOLVED, "resolution": keep, "resolved": clock.utc_iso(now)}
    return [{**c, **done} if isinstance(c, dict) and c.get("id") == conflict else c for c in held]


def contradicted(
    commands: Iterable[tuple[Memory, str | None]], home: Path | None = None
) -> list[ledger.Entry]:
    """Count commands that go against a stated preference; log the ones that persist.

    ``commands``: each stored command with the session it was run in. A command whose
    program belongs to a preference's subject (``npm`` for ``package-manager``) and is not
    the tool the preference names (or is the one it says not to use) adds counter-evidence
    (kind ``contradicted``, one per session) to the preference; once that spans
    ``conflicts.behaviour_sessions`` sessions, the pair is a conflict (kind behaviour, the
    command the new side). Never raises: a failure is logged.
    """
    try:
        runs = [(cmd, session, tool) for cmd, session in commands if (tool := _tool(cmd.text))]
        return _contradicted(runs, home) if runs else []
    except Exception as exc:  # noqa: BLE001 - the ingest's commands are stored already
        log_failure("conflicts: behaviour", exc)
        return []


_tool_key = functools.lru_cache(maxsize=256)(subject_key)  # a tool's key, once per name


def _tool(command: str) -> str | None:
    """Return the program of a command line when it is a tool of a preference (npm, pip)."""
    program = (program_and_target(command)[0] or "").split(" ")[0]
    return program if program and subject_key(program) in BEHAVIOUR_KEYS else None


def _contradicted(
    runs: list[tuple[Memory, str | None, str]], home: Path | None
) -> list[ledger.Entry]:
    now = clock.now()
    pairs: list[tuple[str, Memory]] = []
    stored = [p for p in Store(spec_for(MemoryType.PREFERENCE), home).load() if _of_tools(p)]
    if not any(_new_against(p, c, s, t) for p in stored for c, s, t in runs):
        return []  # the usual case: nothing written
    wanted = {p.id for p in stored}

    def change(_spec: object, entries: list[Memory], _ids: object) -> None:
        for preference in (p for p in entries if p.id in wanted):
            for command, session, tool in runs:
                if _against(preference, command, tool) and _count_against(
                    preference, command, session, now
                ):
                    pairs.append((preference.id, command))

    change_each_store({spec_for(MemoryType.PREFERENCE): None}, change, home)
    if not pairs:
        return []
    preferences = {m.id: m for m in Store(spec_for(MemoryType.PREFERENCE), home).load()}
    found = []
    for pref_id, command in pairs:
        preference = preferences.get(pref_id)
        if preference is not None and _persists(preference, home):
            label = preference.key or subject_key(command.text) or ""
            found.append(rules.Found(rules.BEHAVIOUR, label, command, preference))
    return record(found, home)


def _of_tools(preference: Memory) -> bool:
    """Tell whether a preference is an active one about tools a command shows (the few)."""
    if preference.state is not State.ACTIVE:
        return False
    said = stance(preference.text)
    return (preference.key or (said.key if said else None)) in BEHAVIOUR_KEYS


def _against(preference: Memory, command: Memory, tool: str) -> bool:
    if preference.state is not State.ACTIVE or (
        preference.project and preference.project != command.project
    ):
        return False
    said = stance(preference.text)
    key = _tool_key(tool)
    if said is None or key is None or (said.key or preference.key) != key:
        return False
    name = tokenize(tool)
    if said.polarity < 0:
        return bool(set(name) & set(said.subject))
    return not set(name) & set(said.subject)


def _new_against(preference: Memory, command: Memory, session: str | None, tool: str) -> bool:
    return (
        session is not None
        and session not in _contradicting_sessions(preference)
        and _against(preference, command, tool)
    )


def _contradicting_sessions(preference: Memory, since: str = "") -> set[str | None]:
    return {
        e.session_id
        for e in preference.counter_evidence
        if getattr(e, "kind", None) == CONTRADICTED and clock.utc_iso(e.at) > since
    }


def _count_against(preference: Memory, command: Memory, session: str | None, now: datetime) -> bool:
    """Add one ``contradicted`` evidence per session; tell whether this session's is new."""
    if session is None:
        return False
    if session in _contradicting_sessions(preference):
        return False
    evidence = Evidence(
        at=now, session_id=session, note=f"{CONTRADICTED}:{command.id}", kind=CONTRADICTED
    )
    preference.counter_evidence = [*preference.counter_evidence, evidence][-MAX_EVIDENCE:]
    preference.updated_at = now
    return True


def _persists(preference: Memory, home: Path | None) -> bool:
    settings = config.load(home if home is not None else memory_home(), preference.project)
    needed = int(settings["conflicts.behaviour_sessions"])
    return len(_contradicting_sessions(preference, _last_settled(preference))) >= needed


def _last_settled(preference: Memory) -> str:
    """When a behaviour conflict of this preference was last resolved ('' never).

    The sessions counted before it were weighed by the user: only later ones count again.
    """
    held = preference.details.get("conflicts")
    times = [
        str(c.get("resolved") or "")
        for c in (held if isinstance(held, list) else [])
        if isinstance(c, dict) and c.get("kind") == rules.BEHAVIOUR
    ]
    return max(times, default="")
