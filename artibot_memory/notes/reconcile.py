r"""Three versions of a Markdown layer or a log into one: the text merges of a sync (pure).

Git never merges our text (no conflict marker can ever be written): a sync hands each file
of the two machines, with the version both last agreed on (``base``), to one of these.

- :func:`merge_sections`: a Markdown file, section by section (a section is matched by its
  title, or by ``key`` of it: a ledger's conflict id), line by line: what the remote added
  since the base is inserted after the line it follows there, what it removed since the
  base goes, everything of the local file stays where it is. A ``skip`` test leaves lines
  to their owner (MEMORY.md's managed lines: the stores render them again).
- :func:`merge_daily`: a daily note, each section's bullets then in time order, each once.
- :func:`merge_lines`: an append-only log (``evolution.log``): every line of both, once,
  in time order (each starts with its ISO time).
- :func:`whole_file`: a file merged only whole (``config.toml``): the side that changed.

>>> base = "# d\n\n## Events\n- 09:00 [a] x\n"
>>> print(merge_daily(base, base + "- 11:00 [a] z\n", base + "- 10:00 [a] y\n"), end="")
# d
<BLANKLINE>
## Events
- 09:00 [a] x
- 10:00 [a] y
- 11:00 [a] z
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from artibot_memory.text.markdown import (
    BULLET,
    Document,
    Line,
    Section,
    parse,
    parse_daily_bullet,
    render,
)

Skip = Callable[[str, str], bool]  # (section title, line) -> leave the line to its owner
Key = Callable[[str], str]


def whole_file(base: str | None, local: str | None, remote: str | None) -> str | None:
    """Return the side that changed since the base (both did: local's); None: no file.

    >>> whole_file("a", "a", "b"), whole_file("a", "c", "b"), whole_file(None, None, "b")
    ('b', 'c', 'b')
    """
    if remote in {local, base}:
        return local
    if local == base:
        return remote
    return local if local is not None else remote


def merge_sections(
    base: str | None,
    local: str | None,
    remote: str | None,
    *,
    skip: Skip | None = None,
    key: Key | None = None,
) -> str | None:
    """Merge a Markdown file of two machines (see the module docstring); None: no file."""
    if remote in {local, base}:
        return local
    if local == base:
        return remote
    if local is None or remote is None:
        return local if local is not None else remote  # deleted on one side, changed on the other
    return render(_merged(parse(base or ""), parse(local), parse(remote), skip, key or _same))


def _same(title: str) -> str:
    return title


def _merged(
    base: Document, local: Document, remote: Document, skip: Skip | None, key: Key
) -> Document:
    by_base = {key(s.title): s for s in base.sections}
    by_local = {key(s.title): s for s in local.sections}
    _merge_body("", base.preamble, local.preamble, remote.preamble, skip)
    for theirs in remote.sections:
        slot = key(theirs.title)
        was = by_base.get(slot)
        ours = by_local.get(slot)
        if ours is None:
            if was is None:  # a section new on the remote: it comes whole
                local.sections.append(Section(theirs.title, theirs.heading, list(theirs.body)))
            continue  # deleted here since the base: stays deleted
        if was is not None and ours.heading.text == was.heading.text:
            ours.heading = theirs.heading  # only the remote changed the heading (a status)
            ours.title = theirs.title
        _merge_body(ours.title, was.body if was else [], ours.body, theirs.body, skip)
    return local


def _merge_body(
    title: str, base: list[Line], local: list[Line], remote: list[Line], skip: Skip | None
) -> None:
    """Change ``local`` in place: the remote's removals since the base, then its additions."""

    def counted(lines: list[Line]) -> Counter[str]:
        return Counter(
            line.text
            for line in lines
            if line.text.strip() and not (skip is not None and skip(title, line.text))
        )

    before, theirs = counted(base), counted(remote)
    removed, added = before - theirs, theirs - before
    for text, times in removed.items():
        for _ in range(times):
            index = next((i for i, line in enumerate(local) if line.text == text), None)
            if index is not None:
                del local[index]
    present = {line.text for line in local}
    known = {line.text for line in base} | {line.text for line in remote}
    previous: str | None = None
    for line in remote:
        if added.get(line.text) and line.text not in present:
            local.insert(_after(local, previous, known), Line(0, line.text))
            present.add(line.text)
        if line.text.strip() and line.text in present:
            previous = line.text


def _after(lines: list[Line], previous: str | None, known: set[str]) -> int:
    """Return where a remote line goes: after the line it follows there, else at the end.

    Lines added here after that one come first; with no line to follow, after the last text.
    """
    if previous is not None:
        for index in range(len(lines) - 1, -1, -1):
            if lines[index].text == previous:
                at = index + 1
                while at < len(lines) and lines[at].text.strip() and lines[at].text not in known:
                    at += 1
                return at
    end = len(lines)
    while end > 0 and not lines[end - 1].text.strip():
        end -= 1
    return end


def merge_daily(base: str | None, local: str | None, remote: str | None) -> str | None:
    """Merge a daily note: both machines' bullets, each once, each section in time order."""
    merged = merge_sections(base, local, remote)
    if merged is None or merged in (local, remote):
        return merged
    doc = parse(merged)
    for section in doc.sections:
        _in_time_order(section)
    return render(doc)


def _in_time_order(section: Section) -> None:
    places = [i for i, line in enumerate(section.body) if BULLET.match(line.text)]
    ordered = sorted((section.body[i] for i in places), key=_time_of)
    for place, line in zip(places, ordered, strict=True):
        section.body[place] = line


def _time_of(line: Line) -> str:
    match = BULLET.match(line.text)
    bullet = parse_daily_bullet(match.group("body")) if match else None
    return bullet.time if bullet is not None else ""


def merge_lines(base: str | None, local: str | None, remote: str | None) -> str | None:
    r"""Merge an append-only log: every line of both once, in the order of their times.

    >>> merge_lines("", "2026-01-02  A  x\n", "2026-01-01  B  y\n")
    '2026-01-01  B  y\n2026-01-02  A  x\n'
    """
    if remote in {local, base}:
        return local
    if local == base:
        return remote
    lines = dict.fromkeys(
        line for text in (local, remote) if text for line in text.split("\n") if line.strip()
    )
    ordered = sorted(lines, key=lambda line: line.split(" ", 1)[0])
    return "".join(f"{line}\n" for line in ordered)
