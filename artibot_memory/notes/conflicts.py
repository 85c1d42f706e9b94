r"""Conflicts between memories, pure: which pairs disagree, how badly, the ledger's sections.

docs/METADATA.md §3 is the contract. Two memories conflict when (:func:`kind_of`):

- **same-key**: a preference took the key of another with a new value (the store
  superseded the old one: ``details["supersedes"]``);
- **polarity**: two preferences on the same subject, one do and one don't ("always use
  pnpm" / "don't use pnpm", "항상 pnpm 써" / "pnpm 쓰지 마"; :mod:`artibot_memory.text.polarity`);
- **instead**: "use Y instead of X" against "use X", or two preferences choosing different
  things for one purpose ("always use date-fns for dates" / "always use luxon for dates");
- **decision**: two decisions of one project that disagree (opposed stances, the same
  subject key settled on different things, or different choices for one purpose: "go with
  Postgres for the orders database" / "go with SQLite for the orders database");
- **behaviour**: a stated preference and a command that keeps contradicting it (found by
  :mod:`artibot_memory.api.conflicts` from the counter-evidence).

A conflict is for two statements neither of which says which one wins. When the newer
one says so itself, it is a **reversal** (:data:`REVERSED`, :func:`reverses`): the older
is superseded and no conflict is opened. The newer says so when it:

- marks a change over time: "from now on", "going forward", "henceforth", "starting
  today", "no longer", "anymore", "now" (not "right now", "for now": those are one-offs,
  never kept), "switch to", "move to", "migrate to", "replace", "in favour of", "changed
  my mind", a bare "instead" ("go with SQLite instead": instead of what was said);
  "이제부터", "지금부터", "앞으로", "다음부터", "이제", "더 이상", "더는", "바꾸자/바꿔",
  "변경해", "전환해", "갈아타", "옮기자", "대체해", a bare "대신" opening a clause
  (:data:`_CHANGE`);
- or names the older side's choice as what it replaces: "use Y instead of X", "Y rather
  than X", "Y over X", "Y, not X", "X 대신 Y", "X 말고 Y", where X is the older side's
  subject (:func:`artibot_memory.text.polarity.stance`'s ``instead_of``).

Only the newer side counts (an older "Y instead of X" against a newer plain "use X" is a
conflict: the newer contradicts what was settled, without saying it means to), and only
where the newer applies wherever the older did: a project's reversal of a global
preference ("in this repo use pnpm instead of npm") is that project's exception, which
supersedes nothing and opens no conflict. Two plain statements ("always use npm", later
"always use pnpm"; "항상 npm 써", later "항상 pnpm 써") are a conflict, to be asked.

Severity (:func:`severity`): one point per established side, one when the older side is
global; 0 low, 1 medium, 2 or 3 high. The ledger's sections are drawn here
(:func:`render_entry`) and read by :func:`artibot_memory.store.ledger.parse_ledger`, the one
reader; :func:`with_resolution` appends a resolution to one section of a ledger file.

>>> conflict_id("pref-b", "pref-a") == conflict_id("pref-a", "pref-b")
True
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from artibot_memory.core import clock
from artibot_memory.core.project import display_name
from artibot_memory.store import evidence, layers
from artibot_memory.store.ledger import OPEN, RESOLVED, Entry, Side, read_side
from artibot_memory.store.model import Memory, MemoryType, Scope, State
from artibot_memory.text.glossary import concept_of
from artibot_memory.text.markdown import Line, parse, render
from artibot_memory.text.polarity import Stance, opposed, other_choice, same_subject, stance
from artibot_memory.text.tokens import tokenize
from artibot_memory.text.trim import clip

SAME_KEY, POLARITY, INSTEAD, DECISION, BEHAVIOUR = (
    "same-key",
    "polarity",
    "instead",
    "decision",
    "behaviour",
)
KINDS = (SAME_KEY, POLARITY, INSTEAD, DECISION, BEHAVIOUR)
REVERSED = "reversed"  # the newer side says it wins: a supersede, never a ledger entry
DECISION_TAG = "decision"
SIDE_CHARS = 200
CONFIDENT = 0.8  # an active side this sure is established
LIVE = frozenset({State.ACTIVE, State.PENDING})
RULES = frozenset({"stated as a rule", "asked to remember"})
NOT_FACTS = frozenset({DECISION_TAG, "session-summary", "todo", "lesson", "environment"})
MIN_SHARED_CONCEPTS = 2  # what a fact and its update both speak of
FORGOTTEN = "[forgotten]"
# The newer statement marks a change over time (the module docstring): it says it wins.
_CHANGE = re.compile(
    r"\b(?:from\s+now\s+on|from\s+here\s+on|going\s+forward|moving\s+forward|henceforth"
    r"|hereafter|from\s+this\s+point\s+on|starting\s+(?:now|today)|no\s+longer|anymore"
    r"|any\s+more(?=\s*(?:[.,;!]|$))"
    r"|switch(?:ed|ing)?\s+(?:to|over|from)|mov(?:e|ed|ing)\s+(?:to|over\s+to|from)"
    r"|migrat(?:e|ed|ing)\s+(?:to|from)|replac(?:e|ed|ing)\b|in\s+place\s+of|in\s+favou?r\s+of"
    r"|changed\s+(?:my|our)\s+minds?|instead(?!\s+of\b))\b"
    r"|(?<!right\s)(?<!for\s)\bnow\b|(?:^|[.,;:]\s*)대신(?:에)?\s"
    r"|이제부터|지금부터|앞으로(?!\s*(?:가기|이동|나가|당겨))|다음부터|이제|더\s*이상|더는"
    r"|바꾸(?:자|기로|어|었)|바꿔|바꿨|(?:변경|전환|대체)(?:해|하자|했|하기로|할게)|갈아타|갈아탔"
    r"|옮기(?:자|기로)|옮겨|옮겼",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Found:
    """One conflict found: its kind, what it is about, the newer side and the older."""

    kind: str
    label: str
    new: Memory
    old: Memory

    @property
    def id(self) -> str:
        """The conflict's id (:func:`conflict_id`)."""
        return conflict_id(self.new.id, self.old.id)


def conflict_id(a: str, b: str) -> str:
    """Return ``cf-`` and 8 hex digits of a hash of the two ids, sorted: one id per pair.

    >>> conflict_id("pref-1", "pref-2")
    'cf-a606cfae'
    """
    pair = "\n".join(sorted((a, b))).encode("utf-8")
    return "cf-" + hashlib.blake2b(pair, digest_size=4).hexdigest()


def is_decision(memory: Memory) -> bool:
    """Tell whether a memory is a decision (a context tagged ``decision``)."""
    return memory.type is MemoryType.CONTEXT and DECISION_TAG in memory.tags


def comparable(memory: Memory) -> bool:
    """Tell whether a memory may conflict by its words: a preference, a decision, a fact.

    A fact only ever gives way to a newer fact that says it changed (:func:`updates`).
    """
    return memory.type is MemoryType.PREFERENCE or is_decision(memory) or is_fact(memory)


def is_fact(memory: Memory) -> bool:
    """Tell whether a memory is a project's plain fact.

    A context of a project that is no session summary, decision, person, lesson or todo.
    """
    return (
        memory.type is MemoryType.CONTEXT
        and memory.project is not None
        and memory.scope is not Scope.PERSON
        and not set(memory.tags) & NOT_FACTS
        and not (memory.key or "").startswith("session:")
    )


def updates(new: Memory, old: Memory) -> bool:
    """Tell whether a newer fact of a project replaces an older one: it says it changed.

    The newer marks a change (:data:`_CHANGE`: "now", "moved to", "이제", "옮겼") and the two
    speak of the same things: two concepts in common at least (:mod:`artibot_memory.text.
    glossary`: "staging is on Render, it deploys from render.yaml" and "스테이징은 이제 fly.io로
    배포해" share staging and deploy; "the staging DB is Postgres 15" only staging).

    >>> from datetime import datetime, timezone
    >>> def fact(text: str, day: int) -> Memory:
    ...     t = datetime(2026, 11, day, tzinfo=timezone.utc)
    ...     return Memory(id=f"ctx-{day}", type="context", text=text, project="/src/api",
    ...                   created_at=t, updated_at=t, last_seen=t)
    >>> render = fact("staging is on Render, it deploys from render.yaml", 1)
    >>> updates(fact("스테이징은 이제 fly.io로 배포해", 9), render)
    True
    >>> updates(fact("the staging DB is now Postgres 15", 9), render)
    False
    """
    if new.project != old.project or not _CHANGE.search(new.text):
        return False
    return len(_concepts(new.text) & _concepts(old.text)) >= MIN_SHARED_CONCEPTS


def _concepts(text: str) -> set[str]:
    return {concept_of(token) for token in tokenize(text)}


def detect(new: Memory, others: Iterable[Memory]) -> list[Found]:
    """Return the conflicts of ``new`` with ``others`` (a pair already logged included).

    A reversal comes back as a :class:`Found` of kind :data:`REVERSED`: no conflict, the
    older side to supersede.
    """
    found = []
    for other in others:
        if other.id == new.id:
            continue
        kind = kind_of(new, other)
        if kind is not None:
            found.append(Found(kind[0], kind[1], *ordered(new, other)))
    return found


def ordered(a: Memory, b: Memory) -> tuple[Memory, Memory]:
    """Return (newer, older) by creation (the one that supersedes is the newer)."""
    if a.details.get("supersedes") == b.id:
        return a, b
    if b.details.get("supersedes") == a.id:
        return b, a
    return (a, b) if a.created_at >= b.created_at else (b, a)


def kind_of(a: Memory, b: Memory) -> tuple[str, str] | None:
    """Return (kind, label) when ``a`` and ``b`` disagree, else None (see the module docstring).

    The kind is :data:`REVERSED` when the newer of the two says it wins (:func:`reverses`);
    two facts never conflict, the newer replaces the older when it says so (:func:`updates`).
    """
    if is_fact(a) or is_fact(b):
        new, old = ordered(a, b)
        both = is_fact(a) and is_fact(b) and old.state in LIVE and new.state in LIVE
        return (REVERSED, "an updated fact") if both and updates(new, old) else None
    found = _disagreement(a, b)
    if found is None:
        return None
    new, old = ordered(a, b)
    if not reverses(new, old):
        return found
    return (REVERSED, found[1]) if covers(new, old) else None  # a project's exception


def reverses(new: Memory, old: Memory) -> bool:
    """Tell whether the newer statement says it wins over the older (the module docstring).

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 11, 30, tzinfo=timezone.utc)
    >>> def said(text: str) -> Memory:
    ...     return Memory(id=text, type="preference", text=text, created_at=t,
    ...                   updated_at=t, last_seen=t)
    >>> reverses(said("From now on use pnpm"), said("Always use npm"))
    True
    >>> reverses(said("pnpm 대신 npm 써"), said("항상 pnpm 써"))
    True
    >>> reverses(said("Always use pnpm"), said("Always use npm"))
    False
    """
    if _CHANGE.search(new.text):
        return True
    said, before = stance(new.text), stance(old.text)
    if said is None or before is None or not said.instead_of:
        return False
    return same_subject(said.instead_of, before.subject)


def covers(new: Memory, old: Memory) -> bool:
    """Tell whether ``new`` applies wherever ``old`` does (global, or the same project)."""
    return new.project is None or new.project == old.project


def _disagreement(a: Memory, b: Memory) -> tuple[str, str] | None:
    """Return (kind, label) when ``a`` and ``b`` disagree, whoever says which one wins."""
    if b.id == a.details.get("supersedes") or a.id == b.details.get("supersedes"):
        newer = ordered(a, b)[0]  # history: only a live value's change is a conflict
        keyed = a.type is MemoryType.PREFERENCE and newer.state in LIVE
        return (SAME_KEY, a.key or b.key or "") if keyed else None
    if a.state not in LIVE or b.state not in LIVE or not _may_meet(a, b):
        return None
    both_decisions = is_decision(a) and is_decision(b)
    if not both_decisions and not (
        a.type is MemoryType.PREFERENCE and b.type is MemoryType.PREFERENCE
    ):
        return None
    left, right = stance(a.text), stance(b.text)
    if left is None or right is None:
        return None
    kind = _stance_kind(left, right)
    if kind is None and (_settled_apart(left, right) or other_choice(left, right)):
        kind = DECISION if both_decisions else INSTEAD  # another choice for one purpose
    if kind is None:
        return None
    return (DECISION if both_decisions else kind), _label(left, right)


def _may_meet(a: Memory, b: Memory) -> bool:
    """Tell whether two memories apply in one place: the same project, or one is global."""
    if is_decision(a) or is_decision(b):
        return a.project == b.project and a.project is not None
    return a.project is None or b.project is None or a.project == b.project


def _stance_kind(a: Stance, b: Stance) -> str | None:
    if not opposed(a, b):
        return None
    instead = bool(a.instead_of or b.instead_of) and not same_subject(a.subject, b.subject)
    return INSTEAD if instead else POLARITY


def _settled_apart(a: Stance, b: Stance) -> bool:
    """Two decisions for different things of one subject key (SQLite, then Postgres)."""
    return (
        a.key is not None
        and a.key == b.key
        and a.polarity > 0
        and b.polarity > 0
        and not set(a.subject) & set(b.subject)
    )


def _label(a: Stance, b: Stance) -> str:
    """Return the subject's key, when it has one: a stance's words are stems, no label."""
    return a.key or b.key or ""


def sessions_of(memory: Memory) -> int:
    """How many sessions (a day where there is no session id) its evidence spans."""
    return evidence.support(memory) or 1


def days_of(memory: Memory) -> int:
    """How many local days its evidence spans."""
    return len({layers.today(e.at) for e in memory.evidence}) or 1


def established(memory: Memory, sessions: int) -> bool:
    """Tell whether a side is established: evidence over ``sessions`` sessions, or sure."""
    if sessions_of(memory) >= sessions:
        return True
    return memory.state is State.ACTIVE and memory.confidence >= CONFIDENT


def severity(new: Memory, old: Memory, sessions: int) -> str:
    """Return low, medium or high: one point per established side, one for a global older side.

    ``sessions`` is ``conflicts.established_sessions``.
    """
    points = sum(established(side, sessions) for side in (new, old))
    points += old.scope in {Scope.GLOBAL, Scope.PERSON}
    return "low" if points == 0 else "medium" if points == 1 else "high"


def proposal(found: Found, sessions: int) -> tuple[str, str]:
    """Return what to keep (new or old) and why, in a few words."""
    new, old = found.new, found.old
    if found.kind == BEHAVIOUR:
        if old.why in RULES:
            return "old", f"{old.why}; ask whether the habit changed"
        return "new", f"what was done in {sessions_of(new)} sessions"
    if new.why in RULES or established(new, sessions) or not established(old, sessions):
        why = f", {new.why}" if new.why else ""
        return "new", f"the newer statement{why}"
    return (
        "old",
        f"established over {sessions_of(old)} sessions; the new one seen in {sessions_of(new)}",
    )


def side_of(memory: Memory) -> Side:
    """Return a memory as the ledger shows it: text, id, date, source, channel."""
    text = clip(" ".join(memory.text.split()).replace('"', "'"), SIDE_CHARS)
    when = layers.today(memory.created_at).isoformat()
    return Side(text, memory.id, when, source_of(memory), memory.source.channel or "-")


def source_of(memory: Memory) -> str:
    """Return where a memory came from: ``file:line``, the command, or ``-``."""
    source = memory.source
    if source.path:
        name = os.path.basename(source.path)
        return f"{name}:{source.line}" if source.line else name
    if source.command:
        return clip(" ".join(source.command.split()), 80)
    return "-"


def context_of(found: Found) -> str:
    """Return the conflict's context: where the older side applies and how often each was seen."""
    old, new = found.old, found.new
    where = display_name(old.project) if old.project else old.scope.value
    verb = "run" if found.kind == BEHAVIOUR else "stated"
    return (
        f"{where}; old stated in {_count(sessions_of(old), 'session')} over"
        f" {_count(days_of(old), 'day')}, new {verb} in {sessions_of(new)}"
    )


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def entry_of(found: Found, level: str, sessions: int) -> Entry:
    """Return the ledger entry of a conflict just found (open)."""
    keep, why = proposal(found, sessions)
    return Entry(
        id=found.id,
        severity=level,
        status=OPEN,
        kind=found.kind,
        label=found.label,
        new=side_of(found.new),
        old=side_of(found.old),
        context=context_of(found),
        proposal=f"keep {keep} — {why}",
    )


def render_entry(entry: Entry) -> list[str]:
    """Return the lines of one conflict's section (docs/METADATA.md §3), resolutions last."""
    kind = f"{entry.kind} ({entry.label})" if entry.label else entry.kind
    lines = [f"## {entry.id} · {entry.severity} · {entry.status}", f"- kind: {kind}"]
    lines += [
        f"- {name}: {side.line()}"
        for name, side in (("new", entry.new), ("old", entry.old))
        if side
    ]
    lines += [f"- context: {entry.context}", f"- proposal: {entry.proposal}"]
    return lines + [f"- resolution: {line}" for line in entry.resolutions]


def day_header(day: str) -> str:
    """Return the first line of a day's ledger file."""
    return f"# Conflicts {day}"


def with_entry(text: str, day: str, entry: Entry) -> str:
    """Return a ledger file's text with ``entry``'s section added at its end."""
    start = text if text.strip() else day_header(day) + "\n"
    return start.rstrip("\n") + "\n\n" + "\n".join(render_entry(entry)) + "\n"


def resolution_line(keep: str, day: str, found: Entry, note: str | None) -> str:
    """Return what a resolution appends: the day, what was kept, what was superseded, why."""
    said = f' — "{" ".join(note.split())}"' if note and note.strip() else ""
    if keep == "both":
        return f"{day} kept both; both active{said}"
    lost, side = (found.old, "old") if keep == "new" else (found.new, "new")
    loser = lost.id if lost else "?"
    return f"{day} kept {keep}; {loser} ({side}) superseded{said}"


def with_resolution(text: str, conflict: str, line: str) -> str:
    """Return a ledger file's text with ``line`` appended to one section, its status resolved.

    Nothing else of the file changes: the other lines are kept byte for byte.
    """
    doc = parse(text)
    for section in doc.sections:
        if section.title.startswith(conflict + " "):
            heading = section.heading.text.rsplit("·", 1)[0].rstrip()
            section.heading = Line(section.heading.number, f"{heading} · {RESOLVED}")
            last = max((i for i, ln in enumerate(section.body) if ln.text.strip()), default=-1)
            section.body.insert(last + 1, Line(0, f"- resolution: {line}"))
            break
    return render(doc)


def without_sides(text: str, ids: set[str]) -> str:
    """Return a ledger file's text with the sides of ``ids`` (forgotten memories) blanked.

    Forgetting leaves nothing of a memory's text in any file; the conflict stays, its
    side reads ``"[forgotten]"`` with its id, date and channel. Other lines are kept.
    """
    doc = parse(text)
    for section in doc.sections:
        for at, line in enumerate(section.body):
            name, _, value = line.text.removeprefix("- ").partition(": ")
            side = read_side(value) if name in {"new", "old"} else None
            if side is not None and side.id in ids:
                blank = Side(FORGOTTEN, side.id, side.date, "-", side.where)
                section.body[at] = Line(line.number, f"- {name}: {blank.line()}")
    return render(doc)


def record_of(found: Found, other: str, level: str, at: datetime) -> dict[str, str]:
    """Return what one side keeps of a conflict in ``details["conflicts"]``."""
    return {
        "id": found.id,
        "with": other,
        "kind": found.kind,
        "severity": level,
        "status": OPEN,
        "found": clock.utc_iso(at),
    }
