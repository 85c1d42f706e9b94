"""The text SessionStart injects (seed 003's getRelevantContext), under a hard budget.

What it holds and in which order is :mod:`artibot_memory.recall.briefing`: what is still
open in the project, its decisions and facts, the preferences in force, fixes of its
errors, its people, its last sessions in a line each, its most-run commands; each fact
once, each line dated and carrying its id, framed as recorded data (see
:mod:`artibot_memory.text.framing`). The whole text never exceeds the budget: the
``context.budget`` setting (3,600 characters, about 900 tokens). Nothing stored means an
empty string, so the hook prints nothing.

When consolidation is overdue (:func:`consolidation_reminder`), the session start that
is not served from its cache says so once, in one line. Each open high-severity conflict
of the ledger (docs/METADATA.md §3) is named once too, with the command that resolves it
(:func:`conflict_reminder`); a cache written while one is still to be named is not served.
Both come out of the same budget.

With a ``query``, items within each section are ordered by relevance to it instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from dataclasses import dataclass, replace
from datetime import timedelta

from artibot_memory.capture import journal
from artibot_memory.capture.hooklog import write_log
from artibot_memory.core import clock, config
from artibot_memory.core.errors import StoreError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import git_root, project_of
from artibot_memory.recall import briefing, lookup
from artibot_memory.recall.lookup import NO_FILTERS, Filters
from artibot_memory.recall.shown import note_session_start
from artibot_memory.recall.startcache import session_start_output, write_cache
from artibot_memory.recall.team import with_team
from artibot_memory.store import layers, ledger
from artibot_memory.text.framing import quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from datetime import datetime
    from pathlib import Path
    from typing import Any

    from artibot_memory.store.record import Readable


BUDGET_SETTING = "context.budget"
HEADER = briefing.HEADER
OVERDUE = timedelta(days=7)
REMINDER_FILE = "cache/consolidation-reminder.json"
CONFLICTS_NAMED_FILE = "cache/conflicts-named.json"  # {"named": [cf-…], "at": …}
MAX_NAMED = 500  # ids remembered as named; the oldest go first
CONFLICT_TEXT_CHARS = 160
NAMED_PER_START = 3  # a start names at most these; the cache stays stale until all are


@dataclass(frozen=True)
class RenderedContext:
    """The context text and the memories it shows."""

    text: str
    shown: list[Readable]

    @property
    def valid_until(self) -> datetime | None:
        """The first instant a memory shown here expires (None: none of them expires)."""
        return min((m.expires_at for m in self.shown if m.expires_at), default=None)


def render_context(
    project: str | None,
    query: str | None = None,
    budget: int | None = None,
    *,
    home: Path | None = None,
    on_unusable: Callable[[StoreError], None] | None = None,
    filters: Filters = NO_FILTERS,
) -> RenderedContext:
    """Render the context of ``project`` without counting anything as accessed.

    The memories are read through the index; where SQLite cannot serve it, from the
    stores (``on_unusable``: see :func:`artibot_memory.recall.search.candidates`).
    ``filters``: what a memory must pass to be shown; ``budget``: characters, the
    ``context.budget`` setting when not given; ``query``: what is relevant to it first in
    each section.
    """
    briefing_ = brief_project(
        project, query, budget, home=home, on_unusable=on_unusable, filters=filters
    )
    return RenderedContext(briefing_.text, briefing_.shown)


def brief_project(
    project: str | None,
    query: str | None = None,
    budget: int | None = None,
    *,
    home: Path | None = None,
    on_unusable: Callable[[StoreError], None] | None = None,
    filters: Filters = NO_FILTERS,
) -> briefing.Briefing:
    """Return the briefing of ``project`` (:mod:`artibot_memory.recall.briefing`), reasons kept."""
    now = clock.now()
    pool: list[Readable]
    try:
        pool = list(
            lookup.live(
                now=now, project=project, home=home, on_unusable=on_unusable, filters=filters
            )
        )
    except sqlite3.Error:
        from artibot_memory.recall.search import candidates  # noqa: PLC0415 - the fallback

        found = candidates(None, project, now, home, on_unusable=on_unusable, filters=filters)
        pool = list(found)
    settings = config.load(home if home is not None else memory_home(create=False), project)
    chosen = budget if budget is not None else int(settings[BUDGET_SETTING])
    sections = briefing.sections_of(pool, project, now, settings, filters.states)
    if query:
        sections = [_by_relevance(section, query, now) for section in sections]
    return briefing.render(sections, project, chosen)


def _by_relevance(section: briefing.Section, query: str, now: datetime) -> briefing.Section:
    """Return the section with the items whose memory is relevant to ``query`` first."""
    memories = [item.memory for item in section.items if item.memory is not None]
    ranked = [hit.memory.id for hit in lookup.rank(query, memories, now)]
    place = {memory_id: at for at, memory_id in enumerate(ranked)}
    items = sorted(
        section.items,
        key=lambda item: place.get(item.memory.id if item.memory else "", len(place)),
    )
    return replace(section, items=tuple(items))


def refresh_start_cache(project: str | None, budget: int | None = None) -> RenderedContext:
    """Render a project's SessionStart context and keep it for the next start's fast path.

    A store that cannot be read is logged and left out: the others still reach the session.
    """
    rendered = render_context(project, budget=budget, on_unusable=_log_unusable)
    ids = [memory.id for memory in rendered.shown]
    home = memory_home()
    unnamed = bool(_unnamed_conflicts(home))
    write_cache(
        home,
        project,
        rendered.text,
        ids,
        rendered.valid_until,
        clock.now(),
        unnamed_conflicts=unnamed,
    )
    return rendered


def _log_unusable(exc: StoreError) -> None:
    write_log(f"SessionStart: context: {exc}")


def start_session(payload: dict[str, Any]) -> dict[str, Any] | None:
    """Render the SessionStart context of the payload's project, cache it, record what it shows.

    What every SessionStart that is not served from its cache returns: the hook's (from the
    index, its ingest left to a worker) and the full path's (after ingesting). What it shows
    counts as accessed, and this session will not be shown it again by a prompt.
    """
    cwd = payload.get("cwd")
    home = memory_home()
    project = project_of(cwd if isinstance(cwd, str) and cwd else None)
    parts = start_parts(home, project)
    if parts.named:
        with contextlib.suppress(OSError):  # first: the cache written next counts them named
            note_conflicts_named(home, parts.named)
    rendered = refresh_start_cache(project, parts.budget)  # the cache holds no reminder
    note_shown(rendered.shown)
    note_session_start(payload, [memory.id for memory in rendered.shown])
    if parts.reminder:
        with contextlib.suppress(OSError):  # a start must not fail for its reminder
            note_reminded(home)
    root = git_root(cwd if isinstance(cwd, str) and cwd else None)  # its team memory, marked
    return session_start_output(with_team(parts.text(rendered.text), root, str(home)))


@dataclass(frozen=True)
class StartParts:
    """What a session start adds to the context, and the budget the context is left with."""

    reminder: str | None
    disagree: str | None
    named: list[str]
    budget: int

    def text(self, context: str) -> str:
        """Return the whole text a session start injects around ``context``."""
        return "\n\n".join(part for part in (context, self.disagree, self.reminder) if part)


def start_parts(home: Path, project: str | None) -> StartParts:
    """Return a session start's reminders and budget for ``project``, writing nothing.

    :func:`start_session` uses it, and so does the report's "next session start" (which
    renders the context with :func:`render_context` at this budget, counting nothing).
    """
    reminder = consolidation_reminder(home)
    disagree, named = conflict_reminder(home)
    whole = int(config.load(home, project)[BUDGET_SETTING])
    budget = whole - sum(len(part) + 2 for part in (reminder, disagree) if part)
    return StartParts(reminder, disagree, named, budget)


def conflict_reminder(home: Path) -> tuple[str | None, list[str]]:
    """Return the lines naming each open high-severity conflict not named yet, and their ids.

    Named once (:func:`note_conflicts_named` records it), with the command that resolves
    it: Claude asks the user which memory holds (the skill says how), then runs it.
    """
    unnamed = _unnamed_conflicts(home)[:NAMED_PER_START]  # the rest at the next start
    if not unnamed:
        return None, []
    return "\n".join(_conflict_line(entry) for entry in unnamed), [e.id for e in unnamed]


def _conflict_line(entry: ledger.Entry) -> str:
    sides = [
        f"{name} {quote(side.text, CONFLICT_TEXT_CHARS)} ({side.id}, {side.date})"
        for name, side in (("new", entry.new), ("old", entry.old))
        if side is not None
    ]
    return (
        f"artibot-memory: two memories disagree ({entry.id}, {entry.kind}, high): "
        f"{' against '.join(sides)}; proposal: {entry.proposal}. Ask the user which holds, then"
        f" run `artibot-memory conflicts resolve {entry.id} --keep new|old|both`."
    )


def _unnamed_conflicts(home: Path) -> list[ledger.Entry]:
    named = set(_named_conflicts(home))
    return [entry for entry in ledger.open_high(home) if entry.id not in named]


def note_conflicts_named(home: Path, ids: Sequence[str]) -> None:
    """Record that these conflicts were named to a session: they are not named again."""
    from artibot_memory.core.disk import write_document  # noqa: PLC0415 - only when named
    from artibot_memory.core.paths import ensure_private_dir  # noqa: PLC0415

    named = [*dict.fromkeys([*_named_conflicts(home), *ids])][-MAX_NAMED:]
    path = home / CONFLICTS_NAMED_FILE
    ensure_private_dir(path.parent)
    document = {"named": named, "at": clock.now().isoformat()}
    write_document(path, json.dumps(document).encode("utf-8"))


def _named_conflicts(home: Path) -> list[str]:
    try:
        document = json.loads((home / CONFLICTS_NAMED_FILE).read_bytes())
    except (OSError, ValueError):
        return []
    named = document.get("named") if isinstance(document, dict) else None
    return [str(i) for i in named] if isinstance(named, list) else []


def consolidation_reminder(home: Path, now: datetime | None = None) -> str | None:
    """Return the line saying consolidation is overdue, unless it was said already.

    Overdue: its last run (``daily/.consolidated.json``) is more than 7 days old, or it
    never ran while daily notes go back more than 7 days. Said once per last run
    (:func:`note_reminded` records it), not at every session start.
    """
    moment = now or clock.now()
    last = layers.last_consolidated(home)
    if last is not None:
        due = moment - last > OVERDUE
    else:
        days = [d for d in map(layers.day_of, _daily_names(home)) if d is not None]
        due = bool(days) and layers.today(moment) - min(days) > OVERDUE
    if not due or _reminded_for(home) == _reminder_key(last):
        return None
    since = f"last run {last:%Y-%m-%d}" if last else "never run"
    return (
        f"artibot-memory: consolidating the daily notes into MEMORY.md is overdue ({since}); "
        "offer the user to run `artibot-memory consolidate` (it proposes, then asks)."
    )


def note_reminded(home: Path) -> None:
    """Record that the overdue consolidation was mentioned for its current last run."""
    from artibot_memory.core.disk import write_document  # noqa: PLC0415 - only when said
    from artibot_memory.core.paths import ensure_private_dir  # noqa: PLC0415

    key = _reminder_key(layers.last_consolidated(home))
    document = {"said_for": key, "at": clock.now().isoformat()}
    path = home / REMINDER_FILE
    ensure_private_dir(path.parent)
    write_document(path, json.dumps(document).encode("utf-8"))


def _reminder_key(last: datetime | None) -> str:
    return last.isoformat() if last else "never"


def _reminded_for(home: Path) -> str | None:
    try:
        document = json.loads((home / REMINDER_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    said = document.get("said_for") if isinstance(document, dict) else None
    return said if isinstance(said, str) else None


def _daily_names(home: Path) -> list[str]:
    try:
        return os.listdir(home / layers.DAILY_DIR)
    except OSError:
        return []


def note_shown(shown: list[Readable], home: Path | None = None) -> None:
    """Count memories handed to a session as accessed.

    Journaled, not written now: SessionStart must not rewrite four stores to count what
    it showed; the next ingest applies the counts in one write per store.
    """
    journal.note_access([memory.id for memory in shown], home)


def get_relevant_context(
    project: str | None,
    query: str | None = None,
    budget: int | None = None,
    *,
    record: bool = True,
    home: Path | None = None,
    filters: Filters = NO_FILTERS,
) -> str:
    """Return the SessionStart text for ``project`` within ``budget`` characters ('' if none)."""
    rendered = render_context(project, query, budget, home=home, filters=filters)
    if record:
        note_shown(rendered.shown, home)
    return rendered.text
