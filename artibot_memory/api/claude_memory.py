"""Claude Code's own auto memory of a project, imported into ours (read only).

Claude Code keeps what it learns of a project in ``<config>/projects/<encoded>/memory/``:
``MEMORY.md``, an index loaded into every session, and topic files (``debugging.md``…)
beside it. ``<config>`` is ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``; ``<encoded>`` is the
project's absolute path (its git top-level, which every worktree shares) with every
character that is not an ASCII letter or digit replaced by ``-``, one for one:
``/home/dev/my_app.v2`` is ``-home-dev-my-app-v2``, the folder its transcripts live in too.

Each bullet and each paragraph becomes a memory tagged ``claude-auto-memory``, sourced
``<file>:<line>``: a preference when it reads like one (the prompt reader's rules,
:func:`artibot_memory.capture.prompts.detect_preferences`, English and Korean), else a
context of the project. Headings, code blocks, a topic file's front matter and an index
line that only points at a topic file (``- [Debugging](debugging.md)``: the file is read
itself) are left out. A text already stored, in any state, is not added again, so an
import run twice adds nothing the second time; a superseded preference is not brought back.

Nothing is ever written under Claude Code's folder: it is only listed and read.

>>> encode_project("/home/dev/my_app.v2")
'-home-dev-my-app-v2'
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from artibot_memory.api import memories
from artibot_memory.capture.prompts import detect_preferences
from artibot_memory.core.errors import UsageError
from artibot_memory.core.project import project_of
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import Source
from artibot_memory.store.table import STORES, MemoryType
from artibot_memory.text import markdown
from artibot_memory.text.tokens import normalize_text

CONFIG_ENV = "CLAUDE_CONFIG_DIR"
TAG = "claude-auto-memory"
CHANNEL = "claude-auto-memory"
INDEX = "MEMORY.md"
NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")
LINK_ONLY = re.compile(r"^\[[^\]]*\]\((?P<target>[^)\s]+\.md)\)(?:\s*[-—–:]\s*.*)?$")
HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]")
FRONT_MATTER = "---"


@dataclass
class AutoMemoryReport:
    """What an import of Claude Code's auto memory did."""

    folder: str
    files: list[str] = field(default_factory=list)
    preferences: int = 0
    contexts: int = 0
    already: int = 0

    @property
    def imported(self) -> int:
        """How many memories were added."""
        return self.preferences + self.contexts


@dataclass(frozen=True)
class Entry:
    """One bullet or paragraph of an auto memory file, with its first line."""

    path: Path
    line: int
    text: str


def config_dir() -> Path:
    """Return Claude Code's config folder: ``$CLAUDE_CONFIG_DIR`` (empty: unset) or ~/.claude."""
    return Path(os.path.expanduser(os.environ.get(CONFIG_ENV) or "~/.claude"))


def encode_project(path: str) -> str:
    """Return the folder name Claude Code gives a project under ``projects/``."""
    return NOT_ALNUM.sub("-", path)


def memory_folder(project: str) -> Path:
    """Return the auto memory folder of ``project`` (an absolute path)."""
    return config_dir() / "projects" / encode_project(project) / "memory"


def resolve(project: str | None, cwd: str | None = None) -> str:
    """Return the project to read: ``project`` (a path) or the working directory's, top-level."""
    start = os.path.abspath(os.path.expanduser(project or cwd or os.getcwd()))
    return project_of(start) or start


def import_auto_memory(project: str | None = None, *, home: Path | None = None) -> AutoMemoryReport:
    """Import the auto memory of ``project`` (default: the working directory's project)."""
    root = resolve(project)
    folder = memory_folder(root)
    if not folder.is_dir():
        msg = f"no Claude Code auto memory for {root}: {folder} does not exist"
        raise UsageError(msg)
    report = AutoMemoryReport(str(folder))
    known = {normalize_text(m.text) for spec in STORES for m in Store(spec, home).load()}
    drafts = []
    for path in _files(folder):
        report.files.append(path.name)
        for entry in entries(path, _read(path)):
            text = normalize_text(entry.text)
            if text in known:
                report.already += 1
                continue
            known.add(text)
            drafts.append(_draft(entry, root))
    for saved in memories.save_many(drafts, home=home) if drafts else []:
        if saved.type is MemoryType.PREFERENCE:
            report.preferences += 1
        else:
            report.contexts += 1
    return report


def _files(folder: Path) -> list[Path]:
    """MEMORY.md first, then the topic files by name (links left out: read only what is there)."""
    found = [p for p in folder.glob("*.md") if p.is_file() and not p.is_symlink()]
    return sorted(found, key=lambda p: (p.name != INDEX, p.name))


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        msg = f"cannot read {path}: {exc.strerror or exc}"
        raise UsageError(msg) from exc


def entries(path: Path, text: str) -> list[Entry]:
    """Return the bullets and paragraphs of one file, each with its first line number."""
    doc = markdown.parse(text)
    lines = list(doc.preamble)
    for section in doc.sections:
        lines += [section.heading, *section.body]
    found: list[Entry] = []
    block: list[markdown.Line] = []
    fenced = False
    for line in _without_front_matter(lines):
        if markdown.FENCE.match(line.text):
            _close(path, block, found)
            fenced = not fenced
            continue
        if fenced:
            continue
        bullet = markdown.BULLET.match(line.text)
        if bullet or not line.text.strip() or HEADING.match(line.text):
            _close(path, block, found)
        if bullet:
            block.append(markdown.Line(line.number, bullet.group("body")))
        elif line.text.strip() and not HEADING.match(line.text):
            block.append(line)  # a paragraph, or a bullet's continuation
    _close(path, block, found)
    return [e for e in found if not _points_at_topic(e.text)]


def _without_front_matter(lines: list[markdown.Line]) -> list[markdown.Line]:
    if not lines or lines[0].text.strip() != FRONT_MATTER:
        return lines
    for index, line in enumerate(lines[1:], start=1):
        if line.text.strip() == FRONT_MATTER:
            return lines[index + 1 :]
    return lines


def _close(path: Path, block: list[markdown.Line], found: list[Entry]) -> None:
    if block:
        text = " ".join(line.text.strip() for line in block).strip()
        if text:
            found.append(Entry(path, block[0].number, text))
        block.clear()


def _points_at_topic(text: str) -> bool:
    return bool(LINK_ONLY.match(text))


def _draft(entry: Entry, project: str) -> memories.Draft:
    source = Source(channel=CHANNEL, path=str(entry.path), line=entry.line)
    stated = [d for d in detect_preferences(entry.text) if d.kind == "preference"]
    if stated:
        return memories.Draft(
            "preference",
            entry.text,
            key=stated[0].key,
            tags=[TAG],
            project=project if stated[0].scope == "project" else None,
            why=f"Claude Code's auto memory, {entry.path.name}:{entry.line}",
            source=source,
        )
    return memories.Draft("context", entry.text, tags=[TAG], project=project, source=source)
