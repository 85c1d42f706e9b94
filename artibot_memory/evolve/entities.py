r"""Entity profiles, pure (docs/EVOLVE.md §4): names, touches, the file's render and merge.

An entity is a project, a person or an area (a tool or technology), one Markdown file
each in the memory home: ``entities/projects/shop.md``, ``entities/people/sara.md``,
``entities/areas/pnpm.md``. Its id is the path without ``entities/`` and ``.md``
(``projects/shop``). This module holds no I/O: :mod:`artibot_memory.api.entities` reads
the stores and the notes, and writes what is rendered here.

- **Names**: :func:`slug` (lower case, anything but letters, digits, ``.``, ``_`` and
  ``-`` a ``-``), :func:`entity_id`, :func:`entity_path`; :func:`entities_of` says which
  entities a memory is about (its project, its ``person:`` tags, its tools).
- **Touches**: :func:`touches_of` (one daily-note bullet or session summary: its project,
  the people and tools it names), :func:`count_since`.
- **The file**: :func:`skeleton` for a new one, :func:`merge` of the managed sections
  (Profile, Active Facts, Active Beliefs: replaced; Log: appended to; everything else kept
  byte for byte), :func:`prose` from a :class:`Synopsis`, :func:`check` of the sections.

>>> entity_id("project", "Shop"), entity_path("people/sara")
('projects/shop', 'entities/people/sara.md')
>>> text = merge(skeleton("projects/shop", "shop"), {"Profile": ["New."]}, ["- 2026-12-01 x"])
>>> [s.title for s in parse(text).sections]
['Profile', 'Active Facts', 'Active Beliefs', 'Log']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from artibot_memory.core.project import display_name
from artibot_memory.evolve.beliefs import kind_of as kind_of_belief
from artibot_memory.store import evidence
from artibot_memory.store.model import Memory
from artibot_memory.text.markdown import (
    Document,
    Line,
    Section,
    fingerprint,
    parse,
    render,
    unmarked,
)
from artibot_memory.text.tags import code_spans, is_tool, is_wordlike
from artibot_memory.text.trim import clip

_TOOL_WORD = re.compile(r"[a-z0-9][\w.+-]*")
FOLDER = "entities"
FOLDERS = {"project": "projects", "person": "people", "tool": "areas", "area": "areas"}
KIND_OF = {"projects": "project", "people": "person", "areas": "area"}
PROFILE, FACTS, BELIEFS, LOG = "Profile", "Active Facts", "Active Beliefs", "Log"
MANAGED = (PROFILE, FACTS, BELIEFS)
SECTIONS = (*MANAGED, LOG)
MAX_FACTS = 12
LINE_CHARS = 140
REVIEW = "> Review:"


def slug(name: str) -> str:
    """Return the file name of an entity called ``name`` (empty: no usable name).

    Letters and digits of any script stay (a Korean name is its own file, not ``--``).

    >>> slug("Tom Lee"), slug("my_app.v2"), slug("지민"), slug("../x"), slug("  ")
    ('tom-lee', 'my_app.v2', '지민', 'x', '')
    """
    kept = "".join(ch if ch.isalnum() or ch in "._-" else "-" for ch in name.strip().lower())
    return kept.strip(".-")


def entity_id(kind: str, name: str) -> str:
    """Return the id of the entity of ``kind`` (project, person, tool or area) named ``name``."""
    return f"{FOLDERS[kind]}/{slug(name)}"


def entity_path(entity: str) -> str:
    """Return an entity's file, relative to the memory home."""
    return f"{FOLDER}/{entity}.md"


def kind_of(entity: str) -> str:
    """Return an entity's kind, from its folder: project, person or area.

    >>> kind_of("areas/pnpm")
    'area'
    """
    return KIND_OF.get(entity.split("/", 1)[0], "area")


def project_entity(project: str | None) -> str | None:
    """Return the entity of a stored project (a path or a name), None for no project."""
    if not project:
        return None
    name = slug(display_name(project))
    return f"projects/{name}" if name else None


def entities_of(memory: Memory, projects: Iterable[str] = ()) -> set[str]:
    """Return the entities ``memory`` is about: its project, the people and tools it names.

    ``projects`` are the short project names a memory's text may name
    (:func:`artibot_memory.store.evidence.entities`).
    """
    found = {project_entity(memory.project)}
    for name in evidence.entities(memory, projects):
        kind, _, value = name.partition(":")
        if kind in FOLDERS and slug(value):
            found.add(entity_id(kind, value))
    return {entity for entity in found if entity}


# ---- touches


@dataclass(frozen=True)
class Touch:
    """One mention of an entity: a daily-note bullet or a session summary, and when."""

    entity: str
    at: datetime
    project: str | None = None  # the entity of the project it was said in


def tools_in(text: str) -> list[str]:
    """Return the known tools ``text`` names: in its prose, and in its code.

    A word scan (the tagger's shell parse costs 1 ms a summary); a tool whose name is also
    an everyday word ("go with Postgres", "make sure") counts only in code.

    >>> tools_in("Tests: `pnpm test` FAILED, then vitest passed; let's go with it")
    ['pnpm', 'vitest']
    >>> tools_in("Ran `go test ./...` and `make lint`")
    ['go', 'make']
    """
    prose = [w for w in _TOOL_WORD.findall(text.lower()) if is_tool(w) and not is_wordlike(w)]
    code = [w for span in code_spans(text) for w in _TOOL_WORD.findall(span.lower()) if is_tool(w)]
    return list(dict.fromkeys([*prose, *code]))


def people_in(text: str, people: Iterable[str]) -> list[str]:
    """Return the people (``person:`` tag names) that ``text`` names.

    A Latin name is a whole word (``tom-lee`` as "Tom Lee" too); a Hangul one may carry
    its particle (지민에게).

    >>> people_in("Asked Tom Lee and 지민에게 about it; sarah", ["tom-lee", "지민", "sara"])
    ['tom-lee', '지민']
    """
    lowered = text.casefold()
    found = []
    for name in people:
        spoken = name.replace("-", " ")
        if not name.isascii():
            hit = name in lowered or spoken in lowered
        else:
            hit = any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", lowered) for w in {name, spoken})
        found += [name] if hit else []
    return found


def touches_of(
    text: str, project: str | None, at: datetime, people: Iterable[str] = ()
) -> list[Touch]:
    """Return the touches of one bullet or summary: its project, each person and tool named."""
    home = project_entity(project) if project else None
    named = [entity_id("person", p) for p in people_in(text, people)]
    named += [entity_id("tool", t) for t in tools_in(text)]
    entities = [home] if home else []
    entities += [e for e in dict.fromkeys(named) if e != home]
    return [Touch(entity, at, home) for entity in entities]


def count_since(
    touches: Iterable[Touch], since: dict[str, datetime | None], now: datetime
) -> Counter[str]:
    """Count each entity's touches after its ``since`` (None or absent: every one) up to now."""
    counted: Counter[str] = Counter()
    for touch in touches:
        last = since.get(touch.entity)
        if touch.at <= now and (last is None or touch.at > last):
            counted[touch.entity] += 1
    return counted


# ---- facts and beliefs


def is_belief(memory: Memory) -> bool:
    """Tell whether ``memory`` is a belief (docs/EVOLVE.md §1): :func:`beliefs.kind_of` says."""
    return kind_of_belief(memory) is not None


def first_line(memory: Memory, limit: int = LINE_CHARS) -> str:
    """Return a memory's first line, clipped: the label of its line in a profile."""
    head = (memory.text.strip().splitlines() or [memory.id])[0]
    return clip(" ".join(head.split()), limit)


def fact_line(memory: Memory, day: str) -> str:
    """Return the bullet of an active fact: its first line and its day, marked by its id."""
    return f"- {first_line(memory)} ({day}) <!-- am:{memory.id} -->"


def belief_line(memory: Memory, confidence: float, freshness: str) -> str:
    """Return the bullet of an active belief with its current confidence and freshness.

    >>> from datetime import datetime, timezone
    >>> t = datetime(2026, 11, 30, tzinfo=timezone.utc)
    >>> m = Memory(id="pref-1", type="preference", text="Use pnpm", created_at=t,
    ...            updated_at=t, last_seen=t)
    >>> belief_line(m, 0.914, "stable")
    '- Use pnpm · conf 0.91 · stable <!-- am:pref-1 -->'
    """
    return f"- {first_line(memory)} · conf {confidence:.2f} · {freshness} <!-- am:{memory.id} -->"


def ids_fingerprint(facts: Sequence[str], beliefs: Sequence[str]) -> str:
    """Return the fingerprint of the ids under a profile (order does not matter)."""
    return fingerprint("facts:" + ",".join(sorted(facts)) + ";beliefs:" + ",".join(sorted(beliefs)))


# ---- the Profile prose


@dataclass
class Synopsis:
    """What a profile says, gathered from the stores (each item an id, a name or a count)."""

    kind: str
    last_day: str | None = None
    branch: str | None = None
    sessions: int = 0  # in the last 90 days
    since_day: str | None = None
    tools: list[str] = field(default_factory=list)
    commands: list[tuple[str, int, str]] = field(default_factory=list)  # text, runs, id
    decisions: list[tuple[str, str]] = field(default_factory=list)  # id, day
    errors: list[str] = field(default_factory=list)
    projects: list[str] = field(default_factory=list)
    preferences: list[str] = field(default_factory=list)
    facts: int = 0
    beliefs: int = 0


def prose(synopsis: Synopsis) -> list[str]:
    """Return the Profile prose: a few plain sentences, one a line, linking ids.

    >>> prose(Synopsis("project", "2026-11-30", "fix/x", 3, "2026-10-02", ["pnpm"]))
    ['Active: last session 2026-11-30 (branch fix/x), 3 sessions since 2026-10-02.', \
'Main tools: pnpm.']
    >>> prose(Synopsis("person", projects=["shop"], preferences=["pref-1"]))
    ['Linked to projects: shop.', 'Preferences naming it: pref-1.']
    >>> prose(Synopsis("area", commands=[("pnpm test", 6, "cmd-1")]))
    ['Most run: `pnpm test` (6 runs, cmd-1).']
    """
    lines = _status(synopsis) if synopsis.kind == "project" else _links(synopsis)
    lines += _work(synopsis)
    if synopsis.decisions:
        lines.append(
            "Recent decisions: " + ", ".join(f"{i} ({d})" for i, d in synopsis.decisions) + "."
        )
    if synopsis.errors:
        lines.append("Open errors: " + ", ".join(synopsis.errors) + ".")
    return lines or [f"{synopsis.facts} facts, {synopsis.beliefs} beliefs; nothing more known yet."]


def _status(synopsis: Synopsis) -> list[str]:
    if synopsis.last_day is None:
        return ["No session summary yet."]
    branch = f" (branch {synopsis.branch})" if synopsis.branch else ""
    recent = (
        f", {synopsis.sessions} sessions since {synopsis.since_day}" if synopsis.sessions else ""
    )
    return [f"Active: last session {synopsis.last_day}{branch}{recent}."]


def _links(synopsis: Synopsis) -> list[str]:
    lines = [f"Linked to projects: {', '.join(synopsis.projects)}."] if synopsis.projects else []
    if synopsis.preferences:
        lines.append(f"Preferences naming it: {', '.join(synopsis.preferences)}.")
    return lines


def _work(synopsis: Synopsis) -> list[str]:
    parts = [f"Main tools: {', '.join(synopsis.tools)}"] if synopsis.tools else []
    if synopsis.commands:
        runs = ", ".join(
            f"`{clip(t, 60)}` ({n} run{'s' * (n != 1)}, {i})" for t, n, i in synopsis.commands
        )
        parts.append(f"most run: {runs}")
    line = "; ".join(parts)
    return [line[:1].upper() + line[1:] + "."] if parts else []


def review_line(set_day: str) -> str:
    """Return the line put first in a set Profile whose facts changed since ``set_day``."""
    return f"{REVIEW} the facts or beliefs below changed since this profile was set ({set_day})."


def kept_prose(text: str) -> list[str]:
    """Return the Profile prose of a file as written, without a review line and blank edges."""
    section = parse(text).section(PROFILE)
    lines = [line.text for line in section.body] if section else []
    lines = [line for line in lines if not line.startswith(REVIEW)]
    return _trimmed(lines)


def prose_lines(text: str) -> list[str]:
    r"""Return prose given by a person as Profile lines: its own lines, blank edges trimmed.

    A ``## `` heading in it would open a section of its own: it is kept as text, indented.

    >>> prose_lines("\n## Not a heading\nShop sells shoes.\n\n")
    [' ## Not a heading', 'Shop sells shoes.']
    """
    lines = [f" {line}" if line.startswith("#") else line.rstrip() for line in text.split("\n")]
    return _trimmed(lines)


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


# ---- the file


def header(entity: str, name: str) -> str:
    """Return the heading and comment a new entity file starts with."""
    return (
        f"# {name}\n\n<!-- Entity profile kept by artibot-memory ({kind_of(entity)}). Profile,"
        " Active Facts and Active\nBeliefs are rebuilt at each consolidation; Log is only"
        " appended to; other sections and\ntext outside them are yours. `artibot-memory"
        f" profile set {entity} --file F` replaces\nthe Profile prose. -->\n"
    )


def skeleton(entity: str, name: str) -> str:
    """Return a new entity file: the header and the four sections, empty."""
    return header(entity, name) + "".join(f"\n## {title}\n" for title in SECTIONS)


def merge(text: str, managed: dict[str, list[str]], log: Sequence[str] = ()) -> str:
    """Return ``text`` with the ``managed`` sections' bodies replaced and ``log`` appended.

    A managed section that is missing is added before ``## Log`` (or at the end); the Log
    gets the lines after its last one. Every other line is kept as it was.
    """
    doc = parse(text)
    for title, lines in managed.items():
        _replace(doc, title, lines)
    if log:
        _append(doc, LOG, list(log))
    return render(doc)


def _replace(doc: Document, title: str, lines: list[str]) -> None:
    section = doc.section(title)
    if section is None:
        section = _add_section(doc, title)
    last = doc.sections[-1] is section
    section.body = [Line(0, line) for line in lines] + ([] if last else [Line(0, "")])


def _append(doc: Document, title: str, lines: list[str]) -> None:
    section = doc.section(title) or _add_section(doc, title, at_end=True)
    body = section.body
    end = len(body)
    while end and not body[end - 1].text.strip():
        end -= 1
    body[end:end] = [Line(0, line) for line in lines]


def _add_section(doc: Document, title: str, *, at_end: bool = False) -> Section:
    log = doc.section(LOG)
    where = len(doc.sections) if at_end or log is None else doc.sections.index(log)
    before = doc.sections[where - 1].body if where else doc.preamble
    if before and before[-1].text.strip():
        before.append(Line(0, ""))
    section = Section(title, Line(0, f"## {title}"))
    doc.sections.insert(where, section)
    doc.trailing_newline = True
    return section


def check(text: str) -> list[str]:
    r"""Return what is wrong with an entity file's text: a missing section, an unmarked line.

    >>> for problem in check("# x\n## Profile\nHi\n## Active Facts\n- loose\n"):
    ...     print(problem)
    no ## Active Beliefs section
    no ## Log section
    Active Facts: a line without its <!-- am:ID --> marker (line 5)
    """
    doc = parse(text)
    problems = [f"no ## {title} section" for title in SECTIONS if doc.section(title) is None]
    for title in (FACTS, BELIEFS):
        section = doc.section(title)
        for line in section.body if section else []:
            if line.text.startswith("- ") and unmarked(line.text)[1] is None:
                problems.append(
                    f"{title}: a line without its <!-- am:ID --> marker (line {line.number})"
                )
    profile = doc.section(PROFILE)
    if profile is not None and not any(line.text.strip() for line in profile.body):
        problems.append("Profile is empty")
    return problems
