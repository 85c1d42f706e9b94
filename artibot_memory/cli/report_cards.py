"""The report's figures as cards, its memories and sessions as items (for :mod:`report_html`).

The first screen is a strip of key figures (:func:`glance`), each a link to the section
that explains it; the Health section is a grid of cards (:func:`health`): the figure large,
what it counts, the command that acts on it in a ``<code>`` to copy, and the memories it
counts in a ``<details>``. A figure that asks to be acted on
(:attr:`~artibot_memory.api.report_health.Figure.needs_attention`) is marked by a border
*and* the words "needs attention", never by colour alone. Every piece of memory text is
escaped (:func:`html.escape`).
"""

from __future__ import annotations

from artibot_memory.api.report import Report, Session
from artibot_memory.api.report_health import Capped, Figure, Item
from artibot_memory.cli.report_page import escape

FLAG = '<span class="flag"><span aria-hidden="true">▲ </span>needs attention</span>'


def code(command: str) -> str:
    """Return ``command`` as a block of code to copy."""
    return f'<code class="cmd">{escape(command)}</code>'


def figure_id(figure: Figure) -> str:
    """Return the id of ``figure``'s card in the Health section."""
    return f"fig-{figure.key}"


# ---- the strip of key figures


def glance(built: Report) -> str:
    """Return the strip of key figures under the title, each a link to its section."""
    figures = {figure.key: figure for figure in built.health.figures}
    tiles = [
        _tile(built.memories, "memories", "overview"),
        _tile(len(built.projects), "projects", "counts"),
        _tile(built.overview.recent_sessions, "sessions in the last 30 days", "last-sessions"),
    ]
    for key, label, target in (
        ("conflicts", "open conflicts", "conflicts"),
        ("proposals", "proposals waiting", "proposals"),
        ("stale", "stale", None),
        ("never-recalled", "never recalled", None),
        ("expiring", "expiring within 7 days", None),
    ):
        figure = figures.get(key)
        if figure is None or (key == "expiring" and not figure.count):
            continue  # expiring: only when some do
        tiles.append(
            _tile(figure.count, label, target or figure_id(figure), warn=figure.needs_attention)
        )
    return '<ul class="glance" aria-label="At a glance">' + "".join(tiles) + "</ul>"


def _tile(count: int, label: str, target: str, *, warn: bool = False) -> str:
    return (
        f'<li><a class="tile{" warn" if warn else ""}" href="#{escape(target)}">'
        f'<span class="big">{count:,}</span> <span class="label">{escape(label)}</span>'
        + (FLAG if warn else "")
        + "</a></li>"
    )


# ---- the Health section


def health(built: Report) -> list[str]:
    """Return the Health section's parts: a sentence, then a grid of one card per figure."""
    return [
        (
            '<p class="meta">Measured from the files, without an LLM. On each card, the command'
            " that acts on it; open the list under it for each memory it counts.</p>"
        ),
        '<div class="cards">' + "\n".join(_card(f) for f in built.health.figures) + "</div>",
    ]


def _card(figure: Figure) -> str:
    label, _, note = figure.name.partition(" (")
    warn = figure.needs_attention
    ident = escape(figure_id(figure))
    parts = [
        f'<article class="card{" warn" if warn else ""}" id="{ident}" aria-labelledby="{ident}-h">',
        (
            f'<h3 id="{ident}-h"><span class="big">{figure.count:,}</span>'
            f' <span class="label">{escape(label)}</span></h3>'
        ),
    ]
    if note:
        parts.append(f'<p class="meta">{escape(note.rstrip(")"))}</p>')
    if warn:
        parts.append(FLAG)
    parts.append(code(figure.command))
    if figure.by_kind:
        kinds = ", ".join(f"{escape(k)}: {n:,}" for k, n in figure.by_kind.items())
        parts.append(f'<p class="meta">by kind: {kinds}</p>')
    if figure.examples:
        more = figure.count - len(figure.examples)
        listed = "\n".join(item(each, command) for each, command in figure.examples)
        tail = f'<p class="meta">and {more:,} more</p>' if more > 0 else ""
        parts.append(
            f"<details><summary>{_which(len(figure.examples), figure.count)}</summary>"
            f'<ul class="items">{listed}</ul>{tail}</details>'
        )
    return "\n".join(parts) + "</article>"


def _which(shown: int, count: int) -> str:
    return (
        f"the {shown} oldest, each with its command" if count > shown else "each, with its command"
    )


# ---- memories


def item(memory: Item, command: str | None = None) -> str:
    """Return one memory as an item the search box filters, with the command that acts on it."""
    meta = [memory.id, memory.type, memory.project, memory.state]
    meta += [f"confidence {memory.confidence:.2f}", f"created {memory.created}"]
    meta += [f"seen {memory.last_seen}", memory.agent]
    if memory.expires:
        meta.append(f"expires {memory.expires}")
    lines = [
        f'<li class="item"><span class="meta">{escape(" · ".join(meta))}</span>',
        f'<div class="text">{escape(memory.text)}</div>',
    ]
    if memory.why:
        lines.append(f'<div class="meta">why: {escape(memory.why)}</div>')
    if memory.fix:
        lines.append(f"<div>fix: {escape(memory.fix)}</div>")
    if memory.verified:
        lines.append(f'<div class="meta">how it is known: {escape(memory.verified)}</div>')
    if memory.code:
        lines.append(f'<div class="flag">▲ code: {escape(memory.code)}</div>')
    lines.append(code(command or f"artibot-memory forget {memory.id}") + "</li>")
    return "\n".join(lines)


def items(title: str, found: Capped[Item], ident: str = "") -> str:
    """Return a titled list of memories, capped, with the command that lists the rest."""
    head = f'<h3 id="{escape(ident)}">' if ident else "<h3>"
    if not found.total:
        return f'{head}{escape(title)}</h3><p class="muted">None.</p>'
    more = (
        f'<p class="meta">and {found.more:,} more: {code(found.command)}</p>' if found.more else ""
    )
    body = "\n".join(item(each) for each in found.items)
    return f'{head}{escape(title)} ({found.total:,})</h3><ul class="items">{body}</ul>{more}'


# ---- sessions


def session_lines(found: list[Session]) -> str:
    """Return each session in a line: its day and what was asked."""
    if not found:
        return '<p class="muted">None.</p>'
    return (
        '<ul class="items">'
        + "\n".join(
            f'<li class="item"><span class="meta">{escape(s.day)} · {escape(s.id)}</span> '
            + escape(" | ".join(s.asks) or s.text.partition("\n")[0])
            + "</li>"
            for s in found
        )
        + "</ul>"
    )


def sessions(found: list[Session]) -> str:
    """Return each session whole: its day, its id and its summary."""
    if not found:
        return '<p class="muted">None.</p>'
    return (
        '<ul class="items">'
        + "\n".join(
            f'<li class="item"><span class="meta">{escape(s.day)} · {escape(s.id)}</span>'
            f'<div class="text">{escape(s.text)}</div></li>'
            for s in found
        )
        + "</ul>"
    )
