"""MEMORY.md as a file: the merge that keeps the user's text, the diff of hand edits, the state.

What goes in the file is :mod:`artibot_memory.notes.semantic`; here is how it gets there
without losing a byte of the user's: :func:`merge` changes only managed lines inside the
five sections (``- text <!-- am:ID -->``), everything else stays where it is; what the
renderer wrote is remembered in ``cache/memory-md.json`` (:class:`FileState`: the file's
fingerprint, each managed line's text, section, how it maps back to its memory and what it
was made from), so that :func:`edits` can tell what the user added, changed and deleted.

A file with none of the five sections (not ours, or emptied) yields no deletion: nothing
of the stores is forgotten because a file was replaced.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from artibot_memory.core import disk
from artibot_memory.core.paths import ensure_private_dir
from artibot_memory.core.project import display_name
from artibot_memory.notes.semantic import (
    HEADER,
    PROJECTS,
    SECTIONS,
    TOP_BELIEFS,
    Line,
)
from artibot_memory.text import markdown

STATE_FILE = ("cache", "memory-md.json")


# ---- what the renderer last wrote


@dataclass
class FileState:
    """``cache/memory-md.json``: the fingerprint of what was written, and each line's text."""

    fingerprint: str | None = None
    lines: dict[str, dict[str, Any]] = field(default_factory=dict)
    groups: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def load(cls, home: Path) -> FileState:
        """Read the state (an empty one when missing or unreadable: nothing is known)."""
        try:
            raw = json.loads(home.joinpath(*STATE_FILE).read_text(encoding="utf-8"))
            return cls(raw.get("fingerprint"), dict(raw["lines"]), dict(raw.get("groups", {})))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return cls()

    @classmethod
    def of(cls, written: str, lines: Sequence[Line]) -> FileState:
        """Return the state of a file just written with ``lines``."""
        return cls(
            markdown.fingerprint(written),
            {
                line.memory_id: {
                    "text": line.text,
                    "section": line.section,
                    "parts": list(line.parts) if line.parts is not None else None,
                    "sources": list(line.sources),
                }
                for line in lines
            },
            {display_name(line.project): line.project for line in lines if line.project},
        )

    def save(self, home: Path) -> None:
        """Write the state through the one write path."""
        path = home.joinpath(*STATE_FILE)
        ensure_private_dir(path.parent)
        data = {"fingerprint": self.fingerprint, "lines": self.lines, "groups": self.groups}
        disk.write_document(path, json.dumps(data, ensure_ascii=False, indent=1).encode())


# ---- the merge: only managed lines inside the five sections change


class _Text:
    """A layer file as a list of lines, edited in place, parsed again after each change."""

    def __init__(self, text: str) -> None:
        self.trailing = text.endswith("\n") or not text
        self.lines = text.split("\n")
        if text.endswith("\n"):
            self.lines.pop()

    def text(self) -> str:
        joined = "\n".join(self.lines)
        return joined + "\n" if self.trailing else joined

    def doc(self) -> markdown.Document:
        return markdown.parse(self.text())

    def insert(self, at: int, new: Sequence[str]) -> None:
        self.lines[at:at] = list(new)


def managed(doc: markdown.Document) -> list[tuple[str, str | None, markdown.Bullet]]:
    """Every bullet of the five sections (first of each title): (section, ### title, bullet)."""
    found = []
    for title in SECTIONS:
        for heading, body in markdown.subsections(doc.section(title)):
            group = markdown.subheading_title(heading) if heading else None
            fake = markdown.Section(title, markdown.Line(0, ""), body)
            found += [(title, group, bullet) for bullet in markdown.bullets(fake)]
    return found


def merge(text: str | None, lines: Sequence[Line], top: Sequence[tuple[str, str]] = ()) -> str:
    """Return MEMORY.md with ``lines`` rendered into ``text`` (None: a new file).

    A managed line still wanted in its section and group keeps its place (its text
    rendered again); one no longer wanted there goes; a new one is inserted in its
    section and group, before the next wanted line already there. Every other line stays
    as it is. ``top`` (memory id, text) is ``## Top Beliefs``, see :func:`with_top`.
    """
    out = _Text(HEADER + "".join(f"\n## {title}\n" for title in SECTIONS) if text is None else text)
    wanted = {line.memory_id: line for line in lines}
    _rewrite_managed(out, wanted)
    _ensure_sections(out)
    present = {b.marker for _s, _g, b in managed(out.doc()) if b.marker}
    for line in lines:
        if line.memory_id not in present:
            _insert_line(out, line, lines)
            present.add(line.memory_id)
    return with_top(out.text(), top)


def with_top(text: str, top: Sequence[tuple[str, str]]) -> str:
    """Return ``text`` with ``## Top Beliefs`` holding exactly the lines ``top``, in order.

    The section comes first, before the five; its marked lines are replaced as a block
    (where the first of them was), the lines a person wrote there stay. No top and no
    section: the text as it is. A hand edit of a marked line is not read back: the next
    render writes it again from the memory.
    """
    out = _Text(text)
    section = out.doc().section(TOP_BELIEFS)
    if section is None and not top:
        return text
    new = [markdown.marked(line, memory_id) for memory_id, line in top]
    if section is None:
        out.insert(_before_next(out, out.doc(), -1), [f"## {TOP_BELIEFS}", *new, ""])
        return out.text()
    ours = [b.line - 1 for b in markdown.bullets(section) if b.marker]
    at = ours[0] if ours else section.heading.number
    for index in sorted(ours, reverse=True):
        del out.lines[index]
    out.insert(at, new)
    return out.text()


def _rewrite_managed(out: _Text, wanted: dict[str, Line]) -> None:
    seen: set[str] = set()
    doomed = []
    for section, group, bullet in managed(out.doc()):
        if bullet.marker is None:
            continue
        line = wanted.get(bullet.marker)
        if line is None or bullet.marker in seen or (line.section, line.group) != (section, group):
            doomed.append(bullet.line - 1)
        elif bullet.text != line.text:
            out.lines[bullet.line - 1] = markdown.marked(line.text, line.memory_id)
        seen.add(bullet.marker)
    for index in sorted(doomed, reverse=True):
        del out.lines[index]


def _ensure_sections(out: _Text) -> None:
    for at, title in enumerate(SECTIONS):
        doc = out.doc()
        if doc.section(title) is not None:
            continue
        before = [doc.section(t) for t in SECTIONS[:at]]
        previous = next((s for s in reversed(before) if s is not None), None)
        index = _section_end(previous) if previous else _before_next(out, doc, at)
        fence = "```" if _inside_fence(out.lines[:index]) else None  # else it hides the heading
        new = [fence, "" if index and out.lines[index - 1].strip() else None, f"## {title}", ""]
        out.insert(index, [line for line in new if line is not None])


def _inside_fence(lines: Sequence[str]) -> bool:
    """Tell whether a code fence these lines open is left open (an unfinished file)."""
    return sum(1 for line in lines if markdown.FENCE.match(line)) % 2 == 1


def _section_end(section: markdown.Section) -> int:
    """Return the index just after a section's last line."""
    return section.body[-1].number if section.body else section.heading.number


def _before_next(out: _Text, doc: markdown.Document, at: int) -> int:
    """Return the index of the next of our sections' heading, else the end of the file."""
    after = [doc.section(t) for t in SECTIONS[at + 1 :]]
    following = next((s for s in after if s is not None), None)
    return following.heading.number - 1 if following is not None else len(out.lines)


def _insert_line(out: _Text, line: Line, lines: Sequence[Line]) -> None:
    heading, body = _region(out, line)
    order = [x.memory_id for x in lines if (x.section, x.group) == (line.section, line.group)]
    later = set(order[order.index(line.memory_id) + 1 :])
    bullets = markdown.bullets(markdown.Section("", markdown.Line(0, ""), body))
    next_one = next((b for b in bullets if b.marker in later), None)
    if next_one is not None:
        index = next_one.line - 1
    else:
        marked = [b.line for b in bullets if b.marker]
        filled = [x.number for x in body if x.text.strip()]
        index = (marked or filled or [heading.number])[-1]
    if _inside_fence(out.lines[:index]):  # after an unclosed fence: before it, or it is code
        index = max(i for i in range(index) if markdown.FENCE.match(out.lines[i]))
    out.insert(index, [markdown.marked(line.text, line.memory_id)])


def _region(
    out: _Text, line: Line, *, added: bool = False
) -> tuple[markdown.Line, list[markdown.Line]]:
    """Return the heading and lines a new line goes under: its section, or its ``###`` group.

    A group not there yet is added once; a group whose heading does not read back as its
    name (a name the parser reads otherwise) puts the line under its section instead.
    """
    section = out.doc().section(line.section)
    assert section is not None  # noqa: S101 - _ensure_sections made it
    parts = markdown.subsections(section)
    if line.group is None:
        return section.heading, parts[0][1]
    name = " ".join(line.group.split()).strip("# ") or "(no name)"  # one line, a title
    wanted = f"### {name}"
    title = markdown.subheading_title(markdown.Line(0, wanted))  # as the parser reads it back
    for heading, body in parts[1:]:
        if heading is not None and markdown.subheading_title(heading) == title:
            return heading, body
    if added:
        return section.heading, parts[0][1]
    filled = [x.number for x in section.body if x.text.strip()]
    index = filled[-1] if filled else section.heading.number
    out.insert(index, ["", wanted] if filled else [wanted])
    return _region(out, line, added=True)


# ---- the diff: what the user changed since the last render


@dataclass(frozen=True)
class Edit:
    """One hand edit of MEMORY.md: ``added``, ``changed`` or ``deleted``."""

    kind: str
    section: str
    text: str = ""
    line: int = 0
    memory_id: str | None = None
    project: str | None = None
    before: dict[str, Any] = field(default_factory=dict)


def is_ours(doc: markdown.Document) -> bool:
    """Tell whether a file has one of our sections (else no line of it can be a deletion)."""
    return any(doc.section(title) is not None for title in SECTIONS)


def edits(text: str, state: FileState) -> list[Edit]:
    """Return what the user added, changed and deleted in ``text`` since ``state``."""
    doc = markdown.parse(text)
    found: list[Edit] = []
    seen: set[str] = set()
    for section, group, bullet in managed(doc):
        if bullet.marker is None:
            if bullet.text.strip():
                name = _named_project(section, group, bullet.text)
                project = state.groups.get(name, name) if name else None
                found.append(Edit("added", section, bullet.text, bullet.line, project=project))
            continue
        before = state.lines.get(bullet.marker)
        if before is not None and bullet.marker not in seen and bullet.text != before["text"]:
            found.append(
                Edit("changed", section, bullet.text, bullet.line, bullet.marker, before=before)
            )
        seen.add(bullet.marker)
    everywhere = {marker for line in text.split("\n") for marker in [markdown.unmarked(line)[1]]}
    if is_ours(doc):
        found += [
            Edit(
                "deleted",
                str(before["section"]),
                str(before["text"]),
                memory_id=memory_id,
                before=before,
            )
            for memory_id, before in state.lines.items()
            if memory_id not in everywhere
        ]
    return found


def _named_project(section: str, group: str | None, text: str) -> str | None:
    """Return the project an added line names: its ``###``, or elsewhere its ``[shop] …``."""
    if section == PROJECTS:
        return group
    return markdown.scoped(text)[0]


def new_core(edit: Edit) -> str:
    """Return the memory text a changed plain line now says: its prefix and suffix taken off.

    >>> new_core(Edit("changed", "x", "Decided: use v2", before={"parts": ["Decided: ", ""]}))
    'use v2'
    """
    prefix, suffix = edit.before.get("parts") or ("", "")
    text = edit.text
    if prefix and text.startswith(prefix):
        text = text[len(prefix) :]
    if suffix and text.endswith(suffix):
        text = text[: -len(suffix)]
    return text.strip()


def adopt(text: str, adopted: dict[int, str]) -> str:
    """Give the lines the user added (by line number) the marker of the memory they became."""
    out = _Text(text)
    for number, memory_id in adopted.items():
        body, marker = markdown.unmarked(out.lines[number - 1])
        if marker is None:
            out.lines[number - 1] = f"{body} <!-- am:{memory_id} -->"
    return out.text()
