"""How a new memory joins its store: expiry, deduplication, merging, the cap.

On every save, in this order (DESIGN.md, non-negotiable 3):

1. expired entries are dropped (an entry expires at ``expires_at``, that instant included);
2. the new memory is matched against its twin:

   - same ``key`` in the same project (any type; a project's value of a key leaves the
     global one alone): for a preference with new text, the new value wins and the
     old entry becomes ``superseded`` (kept as history, linked in ``related``), unless the
     new text says the same value again in other words (:func:`_restated`: merged as a
     repeat, below); for a
     context (a session summary keyed by session id) the entry is updated in place;
   - no key: same ``signature`` (commands, errors) or same normalised text (preferences,
     contexts), in the same project: the repeat is merged (count and failures, last seen,
     evidence, TTL refreshed from the last sighting); an error's fix is replaced by the
     repeat's only when that one is at least as sure (:func:`adopt_fix`);

3. anything new is appended;
4. the cap is enforced, least valuable out first: superseded and stale history, then
   pending candidates, then the least used and longest unseen.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from artibot_memory.store import evidence
from artibot_memory.store.model import Evidence, Memory, MemoryType, State, clean_tags
from artibot_memory.store.table import StoreSpec
from artibot_memory.text.polarity import restates, stance
from artibot_memory.text.tokens import normalize_text

MAX_EVIDENCE = 20
_LIVE = {State.ACTIVE, State.PENDING, State.RESOLVED, State.STALE}
_EVICTION_RANK = {
    State.SUPERSEDED: 0,
    State.STALE: 1,
    State.PENDING: 2,
    State.ACTIVE: 3,
    State.RESOLVED: 3,
}


def drop_expired(entries: list[Memory], now: datetime) -> list[Memory]:
    """Remove expired entries in place and return them."""
    expired = [entry for entry in entries if entry.is_expired(now)]
    if expired:
        entries[:] = [entry for entry in entries if not entry.is_expired(now)]
    return expired


def identity(memory: Memory) -> tuple[str, str | None]:
    """Return what makes two memories without a key the same memory.

    >>> from artibot_memory.store.model import MemoryType
    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    >>> m = Memory(id="pref-1", type=MemoryType.PREFERENCE, text="Use  pnpm.",
    ...            created_at=t, updated_at=t, last_seen=t)
    >>> identity(m)
    ('use pnpm', None)
    """
    if memory.type in {MemoryType.COMMAND, MemoryType.ERROR} and memory.signature:
        return (memory.signature, memory.project)
    return (normalize_text(memory.text), memory.project)


class Twins:
    """The live entries of one store by key and by identity, built once per transaction.

    Looking a new memory's twin up here instead of scanning the store keeps a bulk
    import linear: a 3,000-line import took 27 s with one scan per line.
    """

    def __init__(self, entries: list[Memory]) -> None:
        self.by_key: dict[tuple[str, str | None], Memory] = {}
        self.by_identity: dict[tuple[str, str | None], Memory] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: Memory) -> None:
        """Index one entry; a later entry with the same key or identity wins."""
        if entry.state not in _LIVE:
            return
        if entry.key is not None:
            self.by_key[(entry.key, entry.project)] = entry
        else:
            self.by_identity[identity(entry)] = entry

    def find(self, new: Memory) -> Memory | None:
        """Return the live entry that ``new`` repeats or replaces, if any."""
        if new.key is not None:
            return self.by_key.get((new.key, new.project))
        return self.by_identity.get(identity(new))


def join(
    entries: list[Memory], arrivals: Iterable[Memory], spec: StoreSpec, now: datetime
) -> list[Memory]:
    """Add ``arrivals`` to a store's ``entries`` in the order of the module docstring.

    Expired entries go, each arrival is merged into its twin or appended, then the cap is
    enforced. Returns the stored record of each arrival (its twin when it merged).
    """
    drop_expired(entries, now)
    twins = Twins(entries)
    stored = [absorb(entries, memory, spec, now, twins) for memory in arrivals]
    enforce_cap(entries, spec.cap)
    return stored


def absorb(
    entries: list[Memory], new: Memory, spec: StoreSpec, now: datetime, twins: Twins
) -> Memory:
    """Add ``new`` to ``entries`` (merging or superseding) and return the stored record.

    ``twins`` indexes ``entries`` and is kept up to date.
    """
    twin = twins.find(new)
    if twin is None:
        entries.append(new)
        twins.add(new)
        return new
    if new.key is not None and normalize_text(twin.text) != normalize_text(new.text):
        if new.type is MemoryType.PREFERENCE and _restated(twin, new):
            return _merge(twin, new, spec, now)  # the same value in other words: evidence
        if new.type is MemoryType.PREFERENCE:
            stored = _supersede(entries, twin, new, now)
            twins.add(stored)
            return stored
        return _replace_in_place(twin, new, spec, now)
    return _merge(twin, new, spec, now)


def _restated(old: Memory, new: Memory) -> bool:
    """Tell whether a preference's new text says its key's value again, in other words.

    "Remember, we use pnpm everywhere" after "always use pnpm, never npm" confirms the old
    memory (its text kept, the sighting added to its evidence); "use yarn" replaces it.
    """
    before, after = stance(old.text), stance(new.text)
    return before is not None and after is not None and restates(before, after)


def _supersede(entries: list[Memory], old: Memory, new: Memory, now: datetime) -> Memory:
    if new.state is State.PENDING and old.state is State.ACTIVE:
        new.state = State.ACTIVE  # a change of a confirmed preference is confirmed too
    old.state = State.SUPERSEDED
    old.updated_at = now
    new.related = [*dict.fromkeys([*new.related, old.id])]
    new.details = {**new.details, "supersedes": old.id}
    entries.append(evidence.refresh(new))
    return new


def _replace_in_place(old: Memory, new: Memory, spec: StoreSpec, now: datetime) -> Memory:
    old.text = new.text
    old.tags = new.tags
    old.details = {**old.details, **new.details}
    old.source = new.source
    old.state = new.state
    _touch(old, new, spec, now)
    return old


def _merge(old: Memory, new: Memory, spec: StoreSpec, now: datetime) -> Memory:
    if _replayed(old, new):
        return old  # the same observation again (a retried journal batch): count it once
    old.count += new.count
    old.failures += new.failures
    old.tags = clean_tags([*old.tags, *new.tags])
    fix = new.details.get("fix")
    adopted = bool(new.resolution) and adopt_fix(old, str(new.resolution), new.confidence, fix)
    details = new.details if adopted else {k: v for k, v in new.details.items() if k != "fix"}
    old.details = {**old.details, **details, **_base(old)}
    _touch(old, new, spec, now)
    if old.state is State.PENDING and (new.state is State.ACTIVE or evidence.confirmed(old)):
        old.state = State.ACTIVE
    return old


def _base(old: Memory) -> dict[str, object]:
    """Return the base to keep: a repeat updates the details, the base stays the first's."""
    return {evidence.BASE: old.details[evidence.BASE]} if evidence.BASE in old.details else {}


def adopt_fix(entry: Memory, resolution: str, confidence: float, provenance: object) -> bool:
    """Give ``entry`` this fix unless the one it has is surer; tell whether it was taken.

    The newer fix wins a tie: it says more of the same (a transcript's pairing adds the
    assistant's words to the journal's). ``provenance`` is ``details["fix"]``, how the fix
    is known (see :class:`~artibot_memory.store.model.Memory`); None leaves none.
    """
    if entry.resolution and confidence < entry.confidence:
        return False
    entry.resolution = resolution
    entry.confidence = confidence
    details = {k: v for k, v in entry.details.items() if k != "fix"}
    entry.details = details if provenance is None else {**details, "fix": provenance}
    if entry.type is MemoryType.ERROR:
        entry.state = State.RESOLVED
    return True


def _replayed(old: Memory, new: Memory) -> bool:
    seen = {e.note for e in old.evidence if e.note}
    notes = [e.note for e in new.evidence]
    return bool(notes) and all(note in seen for note in notes)


def _touch(old: Memory, new: Memory, spec: StoreSpec, now: datetime) -> None:
    old.evidence = [*old.evidence, *new.evidence][-MAX_EVIDENCE:]
    old.last_seen = max(old.last_seen, new.last_seen)
    old.updated_at = now
    old.expires_at = None if spec.ttl is None else old.last_seen + spec.ttl
    evidence.refresh(old)


def enforce_cap(entries: list[Memory], cap: int) -> list[Memory]:
    """Remove the least valuable entries beyond ``cap`` in place and return them."""
    excess = len(entries) - cap
    if excess <= 0:
        return []
    ranked = sorted(range(len(entries)), key=lambda i: _value(entries[i]))
    doomed = set(ranked[:excess])
    removed = [entries[i] for i in sorted(doomed)]
    entries[:] = [entry for i, entry in enumerate(entries) if i not in doomed]
    return removed


def _value(entry: Memory) -> tuple[int, int, datetime]:
    return (_EVICTION_RANK[entry.state], entry.count + entry.access_count, entry.last_seen)


def new_evidence(
    at: datetime, session_id: str | None, note: str | None = None, kind: str = "stated"
) -> list[Evidence]:
    """Return the evidence list of a fresh observation.

    ``note`` names the observation (a hook's tool_use_id), so a replay is recognised.
    """
    return [Evidence(at=at, session_id=session_id, note=note, kind=kind)]
