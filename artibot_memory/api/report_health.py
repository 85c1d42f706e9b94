"""The report's health figures, conflicts and proposals, measured without an LLM.

Each figure names the command that acts on it, for a person to copy:

- **near-duplicates**: live preferences and contexts of one project with the same words in
  any order or form (the same set of tokens, :func:`artibot_memory.text.tokens.tokenize`:
  stems, Korean particles); the stores' own merge (:func:`artibot_memory.store.merge.identity`)
  already joins exact repeats, so these are what it let through;
- **stale**: the ``stale`` flag search and the context show (:mod:`artibot_memory.recall.flags`:
  marked stale, or no evidence for ``recall.stale_days``, 90 by default);
- **never recalled**: ``access_count`` 0, i.e. never handed to a session (the hooks journal
  what they show; ingest counts it);
- **superseded**, **pending preferences**, **expiring within 7 days** (``expires_at``);
- **open conflicts** (the ledger) and **proposals waiting** (:mod:`artibot_memory.api.proposals`);
- **secrets redacted**: the ``[REDACTED:kind]`` markers in the store files, counted by kind
  (never the text: the text was never written).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Generic, TypeVar

from artibot_memory.api import proposals as proposal_rules
from artibot_memory.api.conflicts import open_conflicts
from artibot_memory.core import config
from artibot_memory.core.project import display_name
from artibot_memory.recall import codestate, flags
from artibot_memory.store import ledger
from artibot_memory.store.model import Memory, MemoryType, State
from artibot_memory.store.table import STORES
from artibot_memory.text.tokens import tokenize

T = TypeVar("T")
MAX_EXAMPLES = 12  # of one figure's examples
MAX_RESOLVED = 30  # resolved conflicts shown after the open ones
EXPIRING = timedelta(days=7)
TEXT_CHARS = 600  # of a memory's text on the page; `show ID` prints it whole
ATTENTION = frozenset({"conflicts", "stale", "expiring"})  # a non-zero count asks to act
_MARKER = re.compile(rb"\[REDACTED:([\w-]+)\]")
_FIX_WORDS = {
    "same-command": "verified: the same command then succeeded",
    "same-target": "the same program on the same target then succeeded",
    "explained": "explained by the assistant, not re-verified",
}


@dataclass
class Item:
    """One memory as the report shows it (its text cut at :data:`TEXT_CHARS`)."""

    id: str
    type: str
    text: str
    project: str
    state: str
    confidence: float
    created: str
    last_seen: str
    agent: str
    why: str | None = None
    fix: str | None = None
    verified: str | None = None
    expires: str | None = None
    code: str | None = (
        None  # what became of the files it names: "src/a.ts changed since, 3 commits"
    )


def item_of(memory: Memory) -> Item:
    """Return the report's view of one memory."""
    text = memory.text if len(memory.text) <= TEXT_CHARS else memory.text[:TEXT_CHARS] + " …"
    held = memory.details.get("fix")
    method = str(held.get("method") or "") if isinstance(held, dict) else ""
    return Item(
        id=memory.id,
        type=memory.type.value,
        text=text,
        project=display_name(memory.project) if memory.project else "global",
        state=memory.state.value,
        confidence=memory.confidence,
        created=memory.created_at.date().isoformat(),
        last_seen=memory.last_seen.date().isoformat(),
        agent=memory.source.agent or "claude-code",
        why=memory.why,
        fix=memory.resolution,
        verified=_FIX_WORDS.get(method, method or None),
        expires=memory.expires_at.date().isoformat() if memory.expires_at else None,
        code=code_words(memory),
    )


def code_words(memory: Memory) -> str | None:
    """Say what became of the files a memory names since it was anchored (docs/CODE.md).

    None when it names none, none changed, or no current check says (outside git, HEAD
    moved since the last one): the report, as the hooks, flags only what is known.
    """
    state = codestate.memory_code_state(memory)
    if state is None or not state["known"] or not state["words"]:
        return None
    words = str(state["words"])
    return (
        f"{words}: a fix whose every file changed is offered less sure"
        if (memory.type is MemoryType.ERROR and state["all_changed"])
        else words
    )


@dataclass
class Capped(Generic[T]):
    """The first items of a list, its total, and the command that shows all of it."""

    items: list[T]
    total: int
    command: str

    @classmethod
    def of(cls, rows: list[T], limit: int, command: str) -> Capped[T]:
        """Keep the first ``limit`` of ``rows``."""
        return cls(rows[:limit], len(rows), command)

    @property
    def more(self) -> int:
        """How many were left out."""
        return self.total - len(self.items)


@dataclass
class Figure:
    """One health figure: its name, count, the command that acts, a few examples."""

    name: str
    count: int
    command: str
    examples: list[tuple[Item, str]] = field(default_factory=list)  # memory, its command
    by_kind: dict[str, int] = field(default_factory=dict)
    key: str = ""  # a short name for the page's ids: ``stale``, ``conflicts``, …

    @property
    def needs_attention(self) -> bool:
        """Whether a person should act on it now: an open conflict, a stale or expiring memory."""
        return self.count > 0 and self.key in ATTENTION


@dataclass
class Health:
    """Every figure, in the order the page shows them."""

    figures: list[Figure]


@dataclass
class Conflict:
    """One conflict of the ledger: both sides, its resolution, the commands that settle it."""

    id: str
    severity: str
    open: bool
    kind: str
    sides: list[tuple[str, str, str, str]]  # new/old, memory id, date, text
    proposal: str
    resolutions: list[str]


@dataclass
class Waiting:
    """One promotion proposal waiting for an answer."""

    id: str
    verdict: str
    text: str
    project: str
    sessions: int


def measure(
    pool: list[Memory],
    home: Path,
    now: datetime,
    *,
    project: str | None,
    disagreements: list[Conflict],
    proposals: list[Waiting],
) -> Health:
    """Return the health figures of ``pool`` (already filtered to ``project``)."""
    live = [m for m in pool if m.state is not State.SUPERSEDED]
    settings = config.load(home, project)
    waiting_count = len(proposals)
    open_count = sum(1 for c in disagreements if c.open)
    return Health(
        [
            _near_duplicates(live),
            _figure(
                "stale",
                "stale (no evidence in recall.stale_days)",
                [m for m in live if flags.is_stale(flags.document(m), now, settings)],
                "artibot-memory consolidate --dry-run",
                "artibot-memory forget {id}",
            ),
            _figure(
                "never-recalled",
                "never recalled (never handed to a session)",
                [m for m in live if m.access_count == 0 and m.type is not MemoryType.COMMAND],
                "artibot-memory list --all-projects",
                "artibot-memory forget {id}",
            ),
            _figure(
                "superseded",
                "superseded",
                [m for m in pool if m.state is State.SUPERSEDED],
                "artibot-memory prune --dry-run",
                "artibot-memory forget {id}",
            ),
            Figure("open conflicts", open_count, "artibot-memory conflicts", key="conflicts"),
            Figure("proposals waiting", waiting_count, "artibot-memory proposals", key="proposals"),
            _figure(
                "pending",
                "pending preferences",
                [m for m in live if m.type is MemoryType.PREFERENCE and m.state is State.PENDING],
                "artibot-memory proposals",
                "artibot-memory show {id}",
            ),
            _figure(
                "expiring",
                "expiring within 7 days (commands aside: they live 7 days)",
                [
                    m
                    for m in live
                    if m.type is not MemoryType.COMMAND
                    and m.expires_at
                    and now <= m.expires_at <= now + EXPIRING
                ],
                "artibot-memory prune --dry-run",
                "artibot-memory prune --extend-ttl {id} 30",
            ),
            _redactions(home, project),
        ]
    )


def _figure(key: str, name: str, found: list[Memory], command: str, each: str) -> Figure:
    oldest = sorted(found, key=lambda m: m.last_seen)[:MAX_EXAMPLES]
    examples = [(item_of(m), each.format(id=m.id)) for m in oldest]
    return Figure(name, len(found), command, examples, key=key)


def _near_duplicates(live: list[Memory]) -> Figure:
    """Group live preferences and contexts by project, type and their set of tokens."""
    groups: dict[tuple[object, ...], list[Memory]] = defaultdict(list)
    for memory in live:
        if memory.type in {MemoryType.PREFERENCE, MemoryType.CONTEXT}:
            words = frozenset(tokenize(memory.text))
            if words:
                groups[(memory.type, memory.project, words)].append(memory)
    extra: list[Memory] = []
    for group in groups.values():
        extra += sorted(group, key=lambda m: m.last_seen)[:-1]  # keep the newest of each
    return _figure(
        "duplicates",
        "near-duplicates (same words, another order or form)",
        extra,
        "artibot-memory list --all-projects",
        "artibot-memory forget {id}",
    )


def _redactions(home: Path, project: str | None) -> Figure:
    """Count the ``[REDACTED:kind]`` markers in the store files, by kind (the whole home)."""
    kinds: Counter[str] = Counter()
    for spec in STORES:
        try:
            data = (home / spec.filename).read_bytes()
        except OSError:
            continue
        kinds.update(match.decode("ascii", "replace") for match in _MARKER.findall(data))
    name = "secrets redacted (in every store" + (", all projects)" if project else ")")
    command = "artibot-memory export | grep -o '\\[REDACTED:[a-z-]*\\]' | sort | uniq -c"
    by_kind = dict(sorted(kinds.items()))
    return Figure(name, sum(kinds.values()), command, by_kind=by_kind, key="secrets")


def conflicts(home: Path, ids: set[str] | None) -> list[Conflict]:
    """Return the ledger's conflicts, the open ones then the latest resolved ones.

    ``ids``: only those with a side among these memories (None: every one).
    """
    rows = [_conflict(entry) for entry in open_conflicts(home, every=True)]
    if ids is not None:
        rows = [row for row in rows if any(side[1] in ids for side in row.sides)]
    open_rows = [row for row in rows if row.open]
    resolved = [row for row in rows if not row.open][-MAX_RESOLVED:]
    return open_rows + resolved[::-1]


def _conflict(entry: ledger.Entry) -> Conflict:
    sides = [
        (name, side.id, side.date, side.text)
        for name, side in (("new", entry.new), ("old", entry.old))
        if side is not None
    ]
    return Conflict(
        id=entry.id,
        severity=entry.severity,
        open=entry.is_open,
        kind=entry.label or entry.kind,
        sides=sides,
        proposal=entry.proposal,
        resolutions=list(entry.resolutions),
    )


def waiting(home: Path, now: datetime, project: str | None) -> list[Waiting]:
    """Return the promotion proposals and the review list, as ``proposals`` shows them."""
    found = proposal_rules.listed(home, now, project=project)
    rows = [
        Waiting(
            p.id,
            p.verdict,
            p.candidate.text,
            display_name(p.candidate.project) if p.candidate.project else "global",
            len(p.candidate.sessions),
        )
        for p in found
    ]
    if project is None:
        return rows
    wanted = display_name(project)
    return [row for row in rows if row.project in {wanted, "global"}]
