"""``artibot-memory report``: the home as one self-contained HTML page, written 0600.

The data is one :class:`artibot_memory.api.report.Report`; this module only draws it (the
frame, the style, the charts and the policy are :mod:`artibot_memory.cli.report_page`).
Every piece of memory text is escaped (:func:`html.escape`): it is user data, and a memory
saying ``<script>`` is shown as those characters. The page is written through
:func:`artibot_memory.core.disk.write_text`, which redacts it whole and writes it
atomically, private to its owner. Sections and ids (a contract: a browser test relies on
them): ``overview``, ``health``, ``project-<slug>`` per project, ``beliefs``, ``conflicts``;
the search box is ``<input id="q">`` and each item it filters has the class ``item``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from artibot_memory.api import report as report_data
from artibot_memory.api.report import Belief, ProjectPage, Report
from artibot_memory.api.report_health import Conflict, Waiting
from artibot_memory.cli import report_cards, report_page
from artibot_memory.cli.reads import Output
from artibot_memory.cli.report_cards import code
from artibot_memory.cli.report_page import escape
from artibot_memory.core import disk
from artibot_memory.core.errors import UsageError
from artibot_memory.core.paths import ensure_private_dir, memory_home
from artibot_memory.core.project import resolve_project

FILE_NAME = "report.html"
KINDS = report_data.KINDS
OVERVIEW_SESSIONS = 3  # of each project, in a line each (its page has them whole)


def cmd_report(args: argparse.Namespace) -> Output:
    """``report``: build the page, write it 0600, print its path (``--open``: show it)."""
    home = memory_home()
    project = resolve_project(args.project) if args.project else None  # a path: its git top
    built = report_data.build(home, project=project)
    page = render(built)
    path = _target(args.out, home)
    disk.write_text(path, page)
    size = path.stat().st_size
    if args.open:
        import webbrowser  # noqa: PLC0415 - only to open it

        webbrowser.open_new_tab(path.resolve().as_uri())
    data = {
        "path": str(path),
        "bytes": size,
        "project": built.project,
        "memories": built.memories,
        "projects": [page_.name for page_ in built.projects],
        "sections": section_ids(built),
        "generated_at": built.generated_at.isoformat(),
    }
    return Output(data, [str(path)])


def _target(out: str | None, home: Path) -> Path:
    if out is None:
        ensure_private_dir(home)
        return home / FILE_NAME
    path = Path(out).expanduser()
    if not path.parent.is_dir():
        msg = f"--out {out}: no such folder {str(path.parent)!r}"
        raise UsageError(msg)
    if path.is_dir():
        msg = f"--out {out} is a folder; give a file name (e.g. {path / FILE_NAME})"
        raise UsageError(msg)
    return path


def section_ids(built: Report) -> list[str]:
    """Return the ids of the page's sections, in order."""
    pages = [f"project-{page.slug}" for page in built.projects]
    return ["overview", "health", *pages, "beliefs", "conflicts"]


def render(built: Report) -> str:
    """Return the whole page of ``built``."""
    title = "artibot-memory report" + (f": {built.project}" if built.project else "")
    body = [
        '<a class="skip" href="#main">Skip to the report</a>',
        _header(built, title),
        '<div class="layout">',
        _side(built),
        '<main id="main">',
        _overview(built),
        _health(built),
        *(_project(page) for page in built.projects),
        _beliefs(built),
        _conflicts(built),
        "</main></div>",
        (
            f'<footer><p class="meta">Built from {escape(built.home)}; nothing on this page is'
            " fetched from anywhere.</p></footer>"
        ),
        f"<script>{report_page.SCRIPT}</script>",
    ]
    return (
        f'<!doctype html>\n<html lang="en">{report_page.head(title)}<body>'
        + "\n".join(body)
        + "</body></html>\n"
    )


def _header(built: Report, title: str) -> str:
    when = built.generated_at.strftime("%Y-%m-%d %H:%M %Z").strip()
    return (
        f"<header><h1>{escape(title)}</h1>"
        f'<p class="meta">{built.memories:,} memories · built {escape(when)}'
        " · a snapshot: build it again to see what changed</p>"
        f"{_first_steps(built)}{report_cards.glance(built)}</header>"
    )


def _first_steps(built: Report) -> str:
    """Return, for a memory still empty, what fills it (nothing once it holds one memory)."""
    if built.memories:
        return ""
    return (
        "<p>Nothing is remembered yet. Install the plugin in your agent (the"
        " README's table: Claude Code, Codex CLI, Gemini CLI or Cursor) and work one session;"
        " or save one thing by hand: <code>artibot-memory save preference"
        ' "Use pnpm, not npm"</code>. Then build this page again.</p>'
    )


def _side(built: Report) -> str:
    """Return the search box and the section links (a column when wide, wrapped on a phone)."""
    links = [("overview", "Overview"), ("health", "Health")]
    projects = "".join(
        f'<li><a href="#project-{escape(page.slug)}">{escape(page.name)}</a></li>'
        for page in built.projects
    )
    nav = "".join(f'<li><a href="#{i}">{name}</a></li>' for i, name in links)
    if projects:
        nav += f'<li class="group"><span class="meta">Projects</span><ul>{projects}</ul></li>'
    nav += '<li><a href="#beliefs">Beliefs</a></li><li><a href="#conflicts">Conflicts</a></li>'
    return (
        f'<aside class="side">{report_page.search_box()}'
        f'<nav aria-label="Sections"><ul>{nav}</ul></nav></aside>'
    )


def _section(ident: str, title: str, parts: list[str]) -> str:
    return (
        f'<section id="{escape(ident)}" aria-labelledby="{escape(ident)}-h">'
        f'<h2 id="{escape(ident)}-h">{escape(title)}</h2>' + "\n".join(parts) + "</section>"
    )


# ---- overview


def _overview(built: Report) -> str:
    view = built.overview
    head = "".join(f'<th scope="col" class="n">{escape(label)}</th>' for label in KINDS.values())
    rows = [
        f'<tr><th scope="row">{escape(where)}</th>'
        + "".join(f'<td class="n">{counts[k]:,}</td>' for k in KINDS)
        + f'<td class="n">{sum(counts.values()):,}</td></tr>'
        for where, counts in view.counts.items()
    ]
    totals = {k: sum(counts[k] for counts in view.counts.values()) for k in KINDS}
    if len(rows) > 1:
        rows.append(
            '<tr class="total"><th scope="row">all</th>'
            + "".join(f'<td class="n">{totals[k]:,}</td>' for k in KINDS)
            + f'<td class="n">{sum(totals.values()):,}</td></tr>'
        )
    agents = [
        f'<tr><th scope="row">{escape(agent)}</th>'
        + "".join(f'<td class="n">{counts[k]:,}</td>' for k in KINDS)
        + "</tr>"
        for agent, counts in view.agents.items()
    ]
    sessions = [
        f"<div><h4>{escape(name)}</h4>\n"
        + report_cards.session_lines(found[:OVERVIEW_SESSIONS])
        + "</div>"
        for name, found in view.sessions.items()
    ]
    return _section(
        "overview",
        "Overview",
        [
            '<h3 id="counts">Memories per project and kind</h3>',
            (
                '<p class="meta">Sessions are the summaries of past sessions; decisions &amp;'
                " facts, the other project notes.</p>"
            ),
            _table(f'<th scope="col">project</th>{head}<th scope="col" class="n">all</th>', rows),
            "<h3>How the memory grew</h3>",
            report_page.weekly_chart(view.weeks, KINDS),
            "<h3>Which agent wrote what</h3>",
            (
                '<p class="meta">Records that name no agent are from before there were others:'
                " Claude Code's.</p>"
            ),
            _table(f'<th scope="col">agent</th>{head}', agents),
            '<h3 id="last-sessions">Last sessions</h3>',
            f'<div class="sessions">{"".join(sessions)}</div>'
            if sessions
            else '<p class="muted">No session summaries yet.</p>',
        ],
    )


def _table(head: str, rows: list[str]) -> str:
    return (
        '<div class="scroll" tabindex="0"><table><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + "\n".join(rows)
        + "</tbody></table></div>"
    )


# ---- health


def _health(built: Report) -> str:
    scope = f" of {built.project}" if built.project else ""
    return _section("health", f"Health{scope}", report_cards.health(built))


# ---- a project


def _project(page: ProjectPage) -> str:
    ident = f"project-{page.slug}"
    lists = [
        ("decisions", "Decisions, with their reasons", page.decisions),
        ("facts", "Facts", page.facts),
        ("people", "People", page.people),
        ("errors", "Errors and their fixes", page.errors),
        (
            "preferences",
            "Preferences in force (this project's and the global ones)",
            page.preferences,
        ),
    ]
    jumps = [
        f'<a href="#{escape(ident)}-{part}">{found.total:,} {_said(part, found.total)}</a>'
        for part, _, found in lists
    ]
    jumps.append(f'<a href="#{escape(ident)}-start">its next session start</a>')
    return _section(
        ident,
        f"Project {page.name}",
        [
            f'<p class="meta">{escape(page.path)}</p>',
            f'<p class="jumps">{" · ".join(jumps)}</p>',
            *(report_cards.items(title, found, f"{ident}-{part}") for part, title, found in lists),
            "<h3>Last sessions</h3>",
            report_cards.sessions(page.sessions),
            f'<h3 id="{escape(ident)}-start">What its next session start receives</h3>',
            (
                f'<p class="meta">Exactly: the text of {code(_context_command(page.name))}'
                " with the reminders a start adds.</p>"
            ),
            f"<pre>{escape(page.next_start)}</pre>"
            if page.next_start
            else '<p class="muted">Nothing: no memory of it is live.</p>',
        ],
    )


_ONE = {"decisions": "decision", "facts": "fact", "people": "person", "errors": "error"}
_ONE["preferences"] = "preference"


def _said(part: str, count: int) -> str:
    return _ONE[part] if count == 1 else part


def _context_command(name: str) -> str:
    return f"artibot-memory context --project {name}"


# ---- beliefs


def _beliefs(built: Report) -> str:
    top = (
        "<ol>"
        + "\n".join(
            f'<li>{escape(b.item.text)} <span class="meta">{escape(b.item.id)}'
            f" · {b.confidence:.2f}</span></li>"
            for b in built.top
        )
        + "</ol>"
        if built.top
        else '<p class="muted">None yet: <code>artibot-memory evolve</code> promotes them.</p>'
    )
    rows = "\n".join(_belief(b) for b in built.beliefs.items)
    more = (
        f'<p class="meta">and {built.beliefs.more:,} more: {code(built.beliefs.command)}</p>'
        if built.beliefs.more
        else ""
    )
    return _section(
        "beliefs",
        "Beliefs",
        [
            "<h3>Top Beliefs</h3>",
            top,
            f"<h3>Every belief ({built.beliefs.total:,})</h3>",
            f'<ul class="items">{rows}</ul>{more}'
            if rows
            else '<p class="muted">No beliefs yet.</p>',
        ],
    )


def _belief(belief: Belief) -> str:
    item = belief.item
    place = f" · Top Beliefs #{belief.place}" if belief.place else ""
    meta = (
        f"{item.id} · {belief.kind} · {item.project} · {belief.freshness}"
        f" · {belief.sources} for, {belief.counter} against{place}"
    )
    evidence = "\n".join(
        f"<li>{escape(word)} {escape(line)}</li>"
        for word, lines in (("for:", belief.evidence_for), ("against:", belief.evidence_against))
        for line in lines
    )
    return (
        f'<li class="item"><span class="meta">{escape(meta)}</span>'
        f'<div class="figure"><span class="count">{belief.confidence:.2f}</span>'
        f"{report_page.sparkline(belief.series)}</div>"
        f'<div class="text">{escape(item.text)}</div>'
        + (f'<ul class="meta">{evidence}</ul>' if evidence else "")
        + code(f"artibot-memory forget {item.id}")
        + "</li>"
    )


# ---- conflicts and proposals


def _conflicts(built: Report) -> str:
    rows = "\n".join(_conflict(c) for c in built.conflicts)
    waiting = "\n".join(_waiting(w) for w in built.proposals)
    return _section(
        "conflicts",
        "Conflicts and proposals",
        [
            "<h3>Conflicts</h3>",
            f'<ul class="items">{rows}</ul>'
            if rows
            else '<p class="muted">No memory disagrees with another.</p>',
            '<h3 id="proposals">Proposals waiting</h3>',
            f'<ul class="items">{waiting}</ul>'
            if waiting
            else '<p class="muted">Nothing waits for an answer.</p>',
        ],
    )


def _conflict(row: Conflict) -> str:
    status = "open" if row.open else "resolved"
    sides = "\n".join(
        f'<li><strong>{name}</strong> {escape(text)} <span class="meta">{escape(ident)},'
        f" {escape(day)}</span>{code(f'artibot-memory forget {ident}')}</li>"
        for name, ident, day, text in row.sides
    )
    settled = "\n".join(f"<li>resolution: {escape(line)}</li>" for line in row.resolutions)
    act = code(f"artibot-memory conflicts resolve {row.id} --keep new|old|both") if row.open else ""
    return (
        f'<li class="item"><span class="meta">{escape(row.id)} · {escape(row.kind)} ·'
        f' {escape(row.severity)}</span> <span class="badge {status}">{status}</span>'
        f"<ul>{sides}{settled}</ul>"
        + (f'<div class="meta">proposal: {escape(row.proposal)}</div>' if row.proposal else "")
        + act
        + "</li>"
    )


def _waiting(row: Waiting) -> str:
    return (
        f'<li class="item"><span class="meta">{escape(row.id)} · {escape(row.verdict)} ·'
        f" {escape(row.project)} · {row.sessions} sessions</span>"
        f'<div class="text">{escape(row.text)}</div>'
        + code(f"artibot-memory proposals accept {row.id}")
        + code(f"artibot-memory proposals reject {row.id}")
        + "</li>"
    )
