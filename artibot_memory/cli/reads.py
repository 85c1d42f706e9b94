"""The CLI's read verbs (search, list, show, get, stats, context), and what every verb returns.

Each verb takes parsed arguments and returns an :class:`Output`; :mod:`artibot_memory.cli.app`
prints it as JSON or, drawn by :mod:`artibot_memory.cli.render`, as text for people.

The reads go through the index (:mod:`artibot_memory.recall.lookup`) and import neither
pydantic nor the writers: a read costs the start of Python and a few milliseconds of
SQLite, and works under an interpreter that lacks the dependencies. Where SQLite cannot
serve the index (no FTS5), each read falls back to the stores, validated, as before there
was an index. The writing verbs are in :mod:`artibot_memory.cli.verbs`.

Where ``search`` and ``list`` look: the project of the working directory (its git
top-level) and the global memories (those of no project); ``--project`` picks another
project, ``--all-projects`` every one, and a working directory in no git repository looks
at every project.

What counts as an access (the frequency part of ranking): only the agent's reads. The hooks
count what they hand to a session; ``search`` counts its hits when it runs inside Claude
Code (``CLAUDECODE=1``, set in the Bash tool's environment: the skill's searches) or with
``--record``; a person's ``search`` at a terminal, ``list`` and ``show`` never count.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from artibot_memory.cli import render
from artibot_memory.core import clock, config
from artibot_memory.core.errors import UnknownMemoryError, UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.core.project import display_name, git_root, resolve_project
from artibot_memory.recall import flags, lookup
from artibot_memory.recall.briefing import explain
from artibot_memory.recall.context import brief_project
from artibot_memory.recall.search import search_layers
from artibot_memory.store import layers
from artibot_memory.store.record import FIELDS as RECORD_FIELDS
from artibot_memory.store.record import Record, full_record
from artibot_memory.text import markdown

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Mapping
    from typing import Any

    from artibot_memory.cli.render import Style
    from artibot_memory.recall.lookup import Hit, LayerHit
    from artibot_memory.store.record import Readable

    View = Callable[[Style], list[str]]

AGENT_ENV = "CLAUDECODE"  # "1" in the environment of Claude Code's Bash tool and hooks


@dataclass
class Output:
    """What a command produced: data for ``--json``, and lines (or a view) for people.

    ``view`` draws the lines when the style of the output is known (colour, width).
    ``wrote`` is false for a writing verb that, this time, changed nothing (a checkpoint
    answered no): then MEMORY.md is not rendered after it. ``warnings`` go to stderr, one
    line each, with ``--json`` too: what a command did not do as asked (an import's cut
    text, its refused lines).
    """

    data: Any = None
    lines: list[str] = field(default_factory=list)
    exit_code: int = 0
    view: View | None = None
    wrote: bool = True
    warnings: list[str] = field(default_factory=list)

    def text(self, style: Style) -> list[str]:
        """Return the lines a person reads, drawn in ``style``."""
        return self.view(style) if self.view is not None else self.lines


@dataclass(frozen=True)
class Where:
    """Which memories a listing looks at: one project and the global ones, or all."""

    project: str | None  # None: every project
    label: str
    hint: str = ""


def where_to_look(args: argparse.Namespace) -> Where:
    """Return the projects ``search`` or ``list`` looks at (see the module docstring)."""
    if args.all_projects:
        return Where(None, "every project")
    if args.project is not None:
        project = resolve_project(args.project)
        return Where(project, f"{display_name(project)} and global")
    project = git_root(_cwd())
    if project is None:
        return Where(None, "every project (the working directory is in no git repository)")
    return Where(project, f"{display_name(project)} and global", "--all-projects for every project")


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the working directory was deleted
        return None


def agent_is_asking(args: argparse.Namespace) -> bool:
    """Tell whether this search is the agent's (it counts as an access) or a person's."""
    explicit: bool | None = args.record
    return explicit if explicit is not None else os.environ.get(AGENT_ENV) == "1"


def brief(memory: Readable) -> dict[str, Any]:
    """Return a memory as every verb's ``--json`` gives it: the record ``export`` writes.

    One schema for ``list``, ``search`` (which adds its score parts), ``show``, ``save``,
    ``forget`` and ``prune``: a script that reads one reads them all (docs/RECORDS.md).
    """
    return full_record(memory)


def filters_of(args: argparse.Namespace) -> lookup.Filters:
    """Return the metadata filters of ``search`` and ``context`` (``--state`` …) as given."""
    states, scopes = getattr(args, "state", None), getattr(args, "scope", None)
    return lookup.Filters(
        states=frozenset(states) if states else None,
        scopes=frozenset(scopes) if scopes else None,
        min_confidence=getattr(args, "min_confidence", None),
        since=getattr(args, "since", None),
        until=getattr(args, "until", None),
    )


def cmd_search(args: argparse.Namespace) -> Output:
    """``search QUERY``: the relevant memories, best first; nothing when nothing matches."""
    where = where_to_look(args)
    hits = search_layers(
        args.query,
        layers=getattr(args, "layer", None),
        types=args.type and [args.type],
        project=where.project,
        limit=args.limit,
        record=agent_is_asking(args),
        filters=filters_of(args),
    )
    now = clock.now()
    settings = config.load(memory_home(create=False), where.project)
    data = [hit_data(h, now, settings) for h in hits]

    def view(style: Style) -> list[str]:
        if not hits:
            return []  # nothing relevant prints nothing
        found = [hit.memory for hit in hits if isinstance(hit, lookup.Hit)]
        notes = [hit_note(row) for row in data]
        if len(found) == len(hits):  # memories only: the table of list, with scores
            lines = render.memory_table(found, now, style, [hit.score for hit in hits], notes)
        else:
            lines = render.hits_table(hits, now, style, notes)
        noun = None if len(found) == len(hits) else "hit"
        return [*lines, render.footer(len(hits), where.label, style, where.hint, noun=noun)]

    return Output(data, view=view)


def hit_data(
    hit: Hit | LayerHit, now: datetime | None = None, settings: flags.Settings | None = None
) -> dict[str, Any]:
    """Return one search hit as ``--json`` gives it: its ``source``, ``layer`` and flags.

    A memory's hit is its record (:func:`brief`) with the hit's ``score``, ``parts`` and
    ``layer`` (``store``), ``also`` (its lines in the notes), ``origin`` (its own source
    as one cite-able string: ``path:line`` or the command), ``where`` (the channel) and
    ``flags`` (:mod:`artibot_memory.recall.flags`). A layer line has the same keys, null
    where a line has no such field, its ``source`` the file and line, and its ``section``.
    """
    scored = {"score": round(hit.score, 4), "parts": asdict(hit.parts), "layer": hit.layer}
    if isinstance(hit, lookup.Hit):
        also = {"also": list(hit.also)} if hit.also else {}
        sure = _sureness(hit.memory, now or clock.now(), settings)
        return {**brief(hit.memory), **scored, **sure, **also}
    return {**line_record(hit.line), **scored, **_NO_SURENESS, "origin": hit.source}


_NO_SURENESS: dict[str, Any] = {
    "origin": None,
    "where": None,
    "flags": [],
    "flag_words": [],
    "code": None,
}


def _code(doc: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return what became of the files a memory names (docs/CODE.md), None without anchors."""
    from artibot_memory.recall import codestate  # noqa: PLC0415 - anchored hits only

    return codestate.memory_code_state(doc) if codestate.anchored_paths(doc) else None


def line_record(line: lookup.LayerLine) -> dict[str, Any]:
    """Return a line of the notes in the shape of a record: null where a line has no field."""
    moment = line.date.isoformat()
    source = {"channel": line.layer, "session_id": None, "path": line.path, "line": line.line}
    return {
        **dict.fromkeys(RECORD_FIELDS),
        "text": line.text,
        "project": line.project,
        "tags": [],
        "related": [],
        "evidence": [],
        "counter_evidence": [],
        "details": {},
        "source": {**source, "command": None},
        "created_at": moment,
        "updated_at": moment,
        "last_seen": moment,
        "section": line.section,
        "date": moment,
    }


def _sureness(memory: Readable, now: datetime, settings: flags.Settings | None) -> dict[str, Any]:
    """Return how fresh a memory is, and where it came from (``hit_data``)."""
    doc = flags.document(memory)
    chosen = (
        settings if settings is not None else config.load(memory_home(create=False), memory.project)
    )
    source = doc.get("source")
    source = source if isinstance(source, dict) else {}
    return {
        "origin": origin_of(source),
        "where": source.get("channel") if isinstance(source.get("channel"), str) else None,
        "flags": flags.flags(doc, now, chosen),
        "flag_words": flags.words(doc, now, chosen),
        "code": _code(doc),
    }


def origin_of(source: dict[str, Any]) -> str | None:
    """Return a memory's own source as one cite-able string: ``path:line``, or the command.

    >>> origin_of({"path": "MEMORY.md", "line": 12}), origin_of({"command": "npm test"})
    ('MEMORY.md:12', 'npm test')
    """
    path, line, command = source.get("path"), source.get("line"), source.get("command")
    if isinstance(path, str) and path:
        return f"{path}:{line}" if isinstance(line, int) and not isinstance(line, bool) else path
    return command if isinstance(command, str) and command else None


def hit_note(row: dict[str, Any]) -> list[str]:
    """Return what the text output says under a flagged hit: its flags in words, its source.

    Nothing for a hit without a flag: every memory has a source now, and a line under every
    hit would double the output (``--json`` and ``show`` always give it). The source is left
    out where it only repeats the hit (a layer line's own ``path:line``, a command's text).
    """
    said = list(row.get("flag_words") or [])
    code = row.get("code")
    if isinstance(code, dict) and code.get("words"):
        said.append(f"code: {code['words']}")
    if not said:
        return []
    origin = row.get("origin")
    a_line = row.get("layer") in {layers.EPISODIC, layers.SEMANTIC}  # its origin is itself
    if origin and not a_line and origin != row.get("text"):
        said.append(f"source {origin}")
    return said


def cmd_get(args: argparse.Namespace) -> Output:
    """``get DAY|MEMORY.md``: a day's note (``2026-11-30``, ``today``, ``yesterday``), MEMORY.md."""
    home = memory_home()
    relative, day = layer_file_of(args.what, clock.now())
    path = os.path.join(home, *relative.split("/"))
    if not os.path.isfile(path):
        what = f"daily note for {day:%Y-%m-%d}" if day else "MEMORY.md"
        msg = f"no {what} ({relative}); `artibot-memory stats` shows the days kept"
        raise UsageError(msg)
    text = layers.read_layer(path)
    stamp = day.isoformat() if day else _mtime(path)
    sections: dict[str, list[dict[str, Any]]] = {}
    for item in markdown.items(markdown.parse(text)):
        if item.section is not None:
            entry = {"line": item.line, "text": item.text, "source": f"{relative}:{item.line}"}
            sections.setdefault(item.section, []).append(entry)
    data = {"path": relative, "date": stamp, "sections": sections, "text": text}
    return Output(data, [render.printable(line) for line in text.splitlines()])


def layer_file_of(what: str, now: datetime) -> tuple[str, date | None]:
    """Return the layer file ``get`` names (relative to the home) and its day (None: MEMORY.md).

    >>> from datetime import datetime, timezone
    >>> layer_file_of("2026-11-30", datetime(2026, 12, 1, tzinfo=timezone.utc))
    ('daily/2026-11-30.md', datetime.date(2026, 11, 30))
    """
    word = what.strip()
    if word.lower() in {"memory.md", "memory", "semantic"}:
        return layers.MEMORY_MD, None
    shifts = {"today": 0, "yesterday": 1}
    day: date | None
    if word.lower() in shifts:
        day = layers.today(now) - timedelta(days=shifts[word.lower()])
    else:
        day = layers.day_of(f"{word.removeprefix('daily/').removesuffix('.md')}.md")
    if day is None:
        msg = f"not a day: {what!r}; give YYYY-MM-DD, today, yesterday or MEMORY.md"
        raise UsageError(msg)
    return f"{layers.DAILY_DIR}/{day:%Y-%m-%d}.md", day


def _mtime(path: str) -> str:
    return datetime.fromtimestamp(os.path.getmtime(path), timezone.utc).isoformat()


def cmd_list(args: argparse.Namespace) -> Output:
    """``list``: stored memories, newest first (never counted as accessed)."""
    where = where_to_look(args)
    now = clock.now()
    types = [args.type] if args.type else None
    found: list[Readable]
    try:
        found = list(lookup.listing(now=now, types=types, project=where.project))
    except sqlite3.Error:
        from artibot_memory.api import memories  # noqa: PLC0415 - the fallback: the stores

        found = list(memories.list_memories(args.type, project=where.project))

    def view(style: Style) -> list[str]:
        lines = render.memory_table(found, now, style) if found else []
        return [*lines, render.footer(len(found), where.label, style, where.hint)]

    return Output([brief(m) for m in found], view=view)


def cmd_show(args: argparse.Namespace) -> Output:
    """``show ID``: one memory, every field (never counted as accessed)."""
    try:
        found = lookup.by_id(args.id)
    except sqlite3.Error:
        from artibot_memory.api import memories  # noqa: PLC0415 - the fallback: the stores

        found = Record(memories.get(args.id).model_dump(mode="json"))
    if found is None:
        raise UnknownMemoryError(f"id {args.id!r}")
    doc = found.full()
    now = clock.now()
    return Output(doc, view=lambda s: render.record(doc, now, s))


def cmd_context(args: argparse.Namespace) -> Output:
    """``context``: the text SessionStart would inject for this project (``--explain``: why)."""
    project = resolve_project(args.project, Path.cwd())
    found = brief_project(project, args.query, args.budget, filters=filters_of(args))
    data = {
        "project": project,
        "context": found.text,
        "chars": len(found.text),
        "lines": [
            {"section": name, "text": item.text, "why": item.why} for name, item in found.kept
        ],
        "left_out": [
            {"section": name, "text": item.text, "why": item.why, "reason": reason}
            for name, item, reason in found.left_out
        ],
    }
    if getattr(args, "explain", False):
        said = (
            f"{len(found.text):,} characters; {len(found.kept)} lines,"
            f" {len(found.left_out)} left out"
        )
        return Output(data, [said, *explain(found)])
    return Output(data, [found.text] if found.text else [])


def cmd_config(args: argparse.Namespace) -> Output:
    """``config``: every setting's effective value and where it came from (core/config.py)."""
    project = resolve_project(args.project, Path.cwd())
    settings = config.load(memory_home(), project)
    rows = [
        {
            "name": name,
            "value": settings[name],
            "default": config.SETTINGS_BY_NAME[name].default,
            "origin": settings.origin(name),
            "help": config.SETTINGS_BY_NAME[name].help,
        }
        for name in settings
    ]
    data = {
        "project": project,
        "files": config.paths(memory_home(), project),
        "read": settings.files,
        "settings": rows,
        "problems": settings.problems,
    }
    return Output(data, view=lambda s: render.config_lines(data, s))


def cmd_stats(_args: argparse.Namespace) -> Output:
    """``stats``: per store entries, bytes, oldest, newest, expiring within 7 days."""
    now = clock.now()
    try:
        rows = lookup.store_stats(now=now)
    except sqlite3.Error:
        from artibot_memory.api.stats import store_stats  # noqa: PLC0415 - the fallback

        rows = store_stats()
    notes = layers.notes_stats(memory_home(), now)
    data = [
        {
            **asdict(r),
            "oldest": r.oldest and r.oldest.isoformat(),
            "newest": r.newest and r.newest.isoformat(),
            "layer": layers.STORE,
        }
        for r in rows
    ]
    return Output(
        [*data, *notes_data(notes)],
        view=lambda s: [*render.stats_table(rows, s), "", *render.notes_lines(notes, now)],
    )


def notes_data(notes: layers.NotesStats) -> list[dict[str, Any]]:
    """Return the rows ``stats --json`` adds for the daily notes and MEMORY.md.

    They keep the stores' row shape (type, file, entries, bytes, oldest, newest) and add
    ``layer`` and their own figures, so a reader of the store rows reads them too.
    """
    last = notes.last_consolidated.isoformat() if notes.last_consolidated else None
    first, latest = notes.first_day, notes.last_day
    return [
        {
            "type": "daily",
            "file": f"{layers.DAILY_DIR}/",
            "entries": notes.daily_files,
            "bytes": notes.daily_bytes,
            "oldest": first.isoformat() if first else None,
            "newest": latest.isoformat() if latest else None,
            "expiring_soon": 0,
            "layer": layers.EPISODIC,
            "days_last_30": notes.days_last_30,
            "days_last_90": notes.days_last_90,
            "last_consolidated": last,
        },
        {
            "type": "memory-md",
            "file": layers.MEMORY_MD,
            "entries": sum(notes.memory_md_lines.values()),
            "bytes": notes.memory_md_bytes,
            "oldest": None,
            "newest": None,
            "expiring_soon": 0,
            "layer": layers.SEMANTIC,
            "sections": notes.memory_md_lines,
            "last_consolidated": last,
        },
    ]
