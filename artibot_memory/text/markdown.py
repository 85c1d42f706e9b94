r"""The one reader of the Markdown layers: daily notes, MEMORY.md (standard library only).

A layer file is a preamble, then ``## `` sections. A section's body is kept line by line,
with each line's number in the file (1-based, as an editor shows it), so a hit, an edit
or a proposal can point at ``daily/2026-11-30.md:14`` or ``MEMORY.md:22``.

Two line shapes matter to the product:

- a **bullet**, ``- text``: one item of a section (``* text`` reads the same);
- a **managed bullet**, a bullet that ends with a hidden marker naming the memory it
  was rendered from, ``- Use pnpm, not npm <!-- am:pref-1a2b3c4d5e -->``. The marker is
  an HTML comment, so an editor's preview and GitHub show the line without it.

Everything else (prose, sub-headings ``###``, blank lines, fenced code) is kept as it is.
Parsing never fails: any text is a document, and :func:`render` of what :func:`parse`
read gives the same text back, byte for byte.

>>> doc = parse("# MEMORY\n\n## User Preferences\n- Use pnpm <!-- am:pref-1 -->\n- tabs\n")
>>> [s.title for s in doc.sections]
['User Preferences']
>>> [(b.line, b.text, b.marker) for b in bullets(doc.section("User Preferences"))]
[(4, 'Use pnpm', 'pref-1'), (5, 'tabs', None)]
>>> render(doc) == "# MEMORY\n\n## User Preferences\n- Use pnpm <!-- am:pref-1 -->\n- tabs\n"
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = [
    "Bullet",
    "DailyBullet",
    "Document",
    "Item",
    "Line",
    "Section",
    "bullets",
    "fingerprint",
    "items",
    "marked",
    "parse",
    "parse_daily_bullet",
    "render",
    "scoped",
    "subheading_title",
    "subsections",
    "unmarked",
]

HEADING = re.compile(r"^##[ \t]+(?P<title>.+?)[ \t]*#*[ \t]*$")
BULLET = re.compile(r"^[ \t]{0,3}[-*][ \t]+(?P<body>.*?)[ \t]*$")
MARKER = re.compile(r"[ \t]*<!--[ \t]*am:(?P<id>[A-Za-z0-9:_.-]+)[ \t]*-->[ \t]*$")
FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)")
SUBHEADING = re.compile(r"^###[ \t]+(?P<title>.+?)[ \t]*#*[ \t]*$")


@dataclass(frozen=True)
class Line:
    """One line of a layer file: its number (1-based) and its text, without the newline."""

    number: int
    text: str


@dataclass
class Section:
    """A ``## `` heading and the lines under it, up to the next ``## `` heading."""

    title: str
    heading: Line
    body: list[Line] = field(default_factory=list)


@dataclass
class Document:
    """A parsed layer file: the lines before the first section, then the sections."""

    preamble: list[Line] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    trailing_newline: bool = True

    def section(self, title: str) -> Section | None:
        """Return the first section titled ``title`` (case and spacing as written), or None."""
        return next((s for s in self.sections if s.title == title), None)


@dataclass(frozen=True)
class Bullet:
    """One bullet of a section: its line number, visible text and marker (None: unmanaged)."""

    line: int
    text: str
    marker: str | None
    raw: str


def parse(text: str) -> Document:
    """Read ``text`` into a :class:`Document`; a ``##`` inside a code fence is not a heading."""
    lines = text.split("\n") if text else []
    trailing = text.endswith("\n")
    if trailing:
        lines.pop()
    doc = Document(trailing_newline=trailing)
    current: Section | None = None
    fenced = False
    for number, raw in enumerate(lines, start=1):
        line = Line(number, raw)
        if FENCE.match(raw):
            fenced = not fenced
        heading = None if fenced else HEADING.match(raw)
        if heading:
            current = Section(heading.group("title"), line)
            doc.sections.append(current)
        elif current is None:
            doc.preamble.append(line)
        else:
            current.body.append(line)
    return doc


def render(doc: Document) -> str:
    """Write a :class:`Document` back as text (the inverse of :func:`parse`)."""
    out = [line.text for line in doc.preamble]
    for section in doc.sections:
        out.append(section.heading.text)
        out.extend(line.text for line in section.body)
    text = "\n".join(out)
    return text + "\n" if doc.trailing_newline else text


def bullets(section: Section | None) -> list[Bullet]:
    """Return the bullets of ``section`` (none for None), markers split off their text."""
    if section is None:
        return []
    found = []
    fenced = False
    for line in section.body:
        if FENCE.match(line.text):
            fenced = not fenced
        match = None if fenced else BULLET.match(line.text)
        if match:
            body, marker = unmarked(match.group("body"))
            found.append(Bullet(line.number, body, marker, line.text))
    return found


def unmarked(text: str) -> tuple[str, str | None]:
    """Split a trailing ``<!-- am:ID -->`` off ``text``: (visible text, id or None).

    >>> unmarked("Use pnpm <!-- am:pref-1 -->")
    ('Use pnpm', 'pref-1')
    >>> unmarked("no marker")
    ('no marker', None)
    """
    match = MARKER.search(text)
    if not match:
        return text.rstrip(), None
    return text[: match.start()].rstrip(), match.group("id")


def marked(text: str, memory_id: str) -> str:
    """Return the managed bullet line for ``text`` rendered from ``memory_id``.

    >>> marked("Use pnpm", "pref-1")
    '- Use pnpm <!-- am:pref-1 -->'
    """
    return f"- {text} <!-- am:{memory_id} -->"


def fingerprint(text: str | bytes) -> str:
    """Return a short digest of a file's content, which a writer compares before replacing it.

    >>> fingerprint("a") == fingerprint(b"a") != fingerprint("b")
    True
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    import hashlib  # noqa: PLC0415 - only a fingerprint needs it, not every reader

    return hashlib.blake2b(data, digest_size=12).hexdigest()


def subsections(section: Section | None) -> list[tuple[Line | None, list[Line]]]:
    r"""Split a section's body at its ``### `` headings: (heading or None, lines under it).

    The first part holds the lines before any ``###`` (its heading is None; it may be
    empty); a ``###`` inside a code fence is not a heading.

    >>> doc = parse("## P\n- a\n### shop\n- b\n")
    >>> [(h and h.text, [x.text for x in body]) for h, body in subsections(doc.sections[0])]
    [(None, ['- a']), ('### shop', ['- b'])]
    """
    if section is None:
        return []
    parts: list[tuple[Line | None, list[Line]]] = [(None, [])]
    fenced = False
    for line in section.body:
        if FENCE.match(line.text):
            fenced = not fenced
        if not fenced and SUBHEADING.match(line.text):
            parts.append((line, []))
        else:
            parts[-1][1].append(line)
    return parts


def subheading_title(line: Line) -> str:
    """Return the title of a ``### `` heading line (its text when it is not one).

    >>> subheading_title(Line(3, "### shop ##"))
    'shop'
    """
    match = SUBHEADING.match(line.text)
    return match.group("title") if match else line.text


# ---- the lines a reader searches, and the daily bullet

COMMENT_OPEN, COMMENT_CLOSE = "<!--", "-->"
DAILY_BULLET = re.compile(
    r"^(?P<time>[0-2]\d:[0-5]\d)[ \t]+\[(?P<project>[^\]\n]+)\][ \t]+(?P<text>.*?)"
    r"(?:[ \t]+\((?P<source>session [^\s:()]+:\d+(?:-\d+)?|[a-z]+-[0-9a-f]{6,})\))?[ \t]*$"
)


@dataclass(frozen=True)
class Item:
    """One searchable line: a bullet or a line of prose, where it sits, its visible text.

    ``section`` is the ``## `` title above it (None: the preamble), ``group`` the ``### ``
    title above it within that section (None: none), ``marker`` a managed bullet's id.
    """

    line: int
    text: str
    section: str | None
    group: str | None
    bullet: bool
    marker: str | None = None


@dataclass(frozen=True)
class DailyBullet:
    """A daily-note bullet read back: ``- HH:MM [project] text (source)`` (docs/NOTES.md)."""

    time: str
    project: str
    text: str
    source: str | None


def parse_daily_bullet(body: str) -> DailyBullet | None:
    """Read a daily bullet's body (the text after ``- ``); None when it has not that shape.

    The source is optional, so a bullet a person wrote with a time and a project reads too.

    >>> parse_daily_bullet("10:20 [shop] Chose argon2 (session 1a2b3c4d:88)")
    DailyBullet(time='10:20', project='shop', text='Chose argon2', source='session 1a2b3c4d:88')
    >>> parse_daily_bullet("07:05 [global] Remember: backups run at 3 (ctx-9f8e7d6c5b)").source
    'ctx-9f8e7d6c5b'
    >>> parse_daily_bullet("just a thought") is None
    True
    """
    match = DAILY_BULLET.match(body.strip())
    if match is None:
        return None
    return DailyBullet(
        match.group("time"), match.group("project"), match.group("text"), match.group("source")
    )


def scoped(text: str) -> tuple[str | None, str]:
    """Split a MEMORY.md line into the project it names and its text: ``[shop] Use tabs``.

    A line of a project's memory outside ``## Project Context`` (which groups by ``### ``)
    opens with its project's name in brackets; a global line names none.

    >>> scoped("[shop] Use tabs"), scoped("Use tabs"), scoped("[] x")
    (('shop', 'Use tabs'), (None, 'Use tabs'), (None, '[] x'))
    """
    if text.startswith("[") and "] " in text:
        name, rest = text[1:].split("] ", 1)
        if name.strip() and rest.strip() and "[" not in name:
            return name.strip(), rest.strip()
    return None, text


def items(doc: Document) -> list[Item]:
    r"""Return every bullet and prose line of ``doc``, in file order, with where it sits.

    Headings, blank lines, code fences' own lines and HTML comments are not items.

    >>> doc = parse("# M\n<!-- note -->\nIntro\n## A\n### shop\n- x <!-- am:c-1 -->\ny\n")
    >>> [(i.line, i.text, i.section, i.group, i.marker) for i in items(doc)]
    [(3, 'Intro', None, None, None), (6, 'x', 'A', 'shop', 'c-1'), (7, 'y', 'A', 'shop', None)]
    """
    found = _items_of(doc.preamble, None)
    for section in doc.sections:
        found += _items_of(section.body, section.title)
    return found


def _items_of(lines: list[Line], section: str | None) -> list[Item]:
    found: list[Item] = []
    group: str | None = None
    fenced = commented = False
    for line in lines:
        text = line.text.strip()
        if FENCE.match(line.text):
            fenced = not fenced
            continue
        if commented or (not fenced and text.startswith(COMMENT_OPEN)):
            commented = COMMENT_CLOSE not in text
            continue
        sub = None if fenced else SUBHEADING.match(line.text)
        if sub:
            group = sub.group("title")
        elif text and not (text.startswith("#") and not fenced):
            found.append(_item(line, text, section, group, fenced=fenced))
    return found


def _item(line: Line, text: str, section: str | None, group: str | None, *, fenced: bool) -> Item:
    match = None if fenced else BULLET.match(line.text)
    if match is None:
        return Item(line.number, text, section, group, bullet=False)
    body, marker = unmarked(match.group("body"))
    return Item(line.number, body, section, group, bullet=True, marker=marker)
