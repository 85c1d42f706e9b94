"""The rooms of the package and the one direction imports go (docs/ARCHITECTURE.md).

Read from the source with ``ast``, so every import counts: at the top of a module, inside
a function, under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "artibot_memory"

# Top first. A module may import its own room and any room below it; rooms of the same
# rank are siblings and may not import each other.
RANKS = {
    "__main__": 0,
    "plugin": 1,
    "cli": 2,
    "lifecycle": 3,
    "api": 4,
    "recall": 5,
    "notes": 5,  # the Markdown layers (docs/NOTES.md), a sibling of recall
    "evolve": 5,  # belief evolution and entity profiles (docs/EVOLVE.md), a sibling too
    "store": 6,
    "capture": 6,
    "text": 7,
    "core": 8,
    "__init__": 9,  # the package's own docstring and version, nothing else
}

# What the hooks load under a bare ``python3 -S`` before they know whether pydantic and
# the rest are there: these import nothing outside the standard library and this set
# (the bootstrap builds the venv that provides the rest).
STDLIB_ONLY = {
    "artibot_memory.__init__",
    "artibot_memory.plugin.entry",
    "artibot_memory.plugin.fast",
    "artibot_memory.plugin.bootstrap",
    "artibot_memory.plugin.agents",
    "artibot_memory.core.agents",
    "artibot_memory.capture.journal",
    "artibot_memory.capture.hooklog",
    "artibot_memory.capture.prompts",
    "artibot_memory.capture.people",
    "artibot_memory.capture.decisions",
    "artibot_memory.capture.transcript",
    "artibot_memory.capture.foreign",
    "artibot_memory.capture.agentrows",
    "artibot_memory.capture.foreign_codex",
    "artibot_memory.capture.foreign_gemini",
    "artibot_memory.capture.foreign_cursor",
    "artibot_memory.capture.pairing",
    "artibot_memory.capture.sessions",
    "artibot_memory.capture.todos",
    "artibot_memory.text.glossary",
    "artibot_memory.capture.summary",
    "artibot_memory.recall.startcache",
    "artibot_memory.recall.known_errors",
    "artibot_memory.store.table",
    "artibot_memory.store.envelope",
    "artibot_memory.store.files",
    "artibot_memory.store.audit",
    "artibot_memory.store.tombstones",
    # The read path: every read verb, the SessionStart context and the search, through the
    # index, without pydantic (the writers are imported only where a read falls back).
    "artibot_memory.cli.app",
    "artibot_memory.cli.reads",
    "artibot_memory.cli.render",
    *(
        f"artibot_memory.recall.{n}"
        for n in (
            "lookup search context briefing scoring vectors prompt_recall shown flags codestate"
            " team"
        ).split()
    ),
    "artibot_memory.store.index",
    "artibot_memory.store.layers",
    "artibot_memory.store.ledger",
    "artibot_memory.store.record",
    *(
        f"artibot_memory.text.{n}"
        for n in (
            "signature trim framing shell change subjects tokens stemmer markdown polarity ask"
        ).split()
    ),
    *(
        f"artibot_memory.core.{n}"
        for n in "errors clock config disk entropy paths private project redact venv".split()
    ),
}
# The entry turns ``site`` back on before it goes beyond the fast path, and a few
# imports are optional by design (caught ImportError): these are the only exceptions.
ALLOWED_BEYOND_STDLIB = {
    ("artibot_memory.plugin.entry", "artibot_memory.lifecycle"),
    ("artibot_memory.plugin.entry", "artibot_memory.cli.app"),
    # A read falls back to the stores (pydantic) only where SQLite cannot serve the index;
    # a writing verb imports the writers when it runs.
    ("artibot_memory.recall.search", "artibot_memory.store.jsonfile"),
    ("artibot_memory.recall.search", "artibot_memory.store.model"),
    # A store file of an older schema is migrated as a load does: pydantic's job.
    ("artibot_memory.store.index", "artibot_memory.store.migrations"),
    ("artibot_memory.cli.reads", "artibot_memory.api.memories"),
    ("artibot_memory.cli.reads", "artibot_memory.api.stats"),
    ("artibot_memory.cli.app", "artibot_memory.cli.verbs"),
    ("artibot_memory.cli.app", "artibot_memory.cli.report_html"),
    # Reading the forgotten ids is the hook's (team memory); recording them takes the lock.
    ("artibot_memory.store.tombstones", "artibot_memory.store.lock"),
    # The vectors extra, imported only where vectors are on (pip install '.[vectors]').
    ("artibot_memory.recall.vectors", "numpy"),
    ("artibot_memory.recall.vectors", "tokenizers"),
    ("artibot_memory.capture.transcript", "orjson"),
    ("artibot_memory.core.paths", "platformdirs"),
    # tomllib's own package, for Python 3.10 only; without it config.toml is said unread.
    ("artibot_memory.core.config", "tomli"),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts)


def room_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute names, ``from x import y`` as ``x.y`` if a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    ours = {module_name(p) for p in MODULES}
    return {name for name in found if name in ours or not name.startswith("artibot_memory")}


MODULES = sorted(PACKAGE.rglob("*.py"))
GRAPH = {module_name(p): imports_of(p) for p in MODULES}


def own(names: set[str]) -> set[str]:
    return {name for name in names if name.startswith("artibot_memory.")}


@pytest.mark.parametrize("name", sorted(GRAPH), ids=str)
def test_imports_only_go_down_and_never_between_siblings(name: str) -> None:
    room = room_of(name)
    assert room in RANKS, f"{name} is in no room of docs/ARCHITECTURE.md"
    for imported in own(GRAPH[name]):
        target = room_of(imported)
        if imported.endswith("__init__") or imported == "artibot_memory":
            continue
        assert target == room or RANKS[target] > RANKS[room], (
            f"{name} ({room}) imports {imported} ({target}): imports go down only"
        )


def test_the_import_graph_has_no_cycle() -> None:
    graph = {name: own(deps) & set(GRAPH) for name, deps in GRAPH.items()}
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for dep in sorted(graph[name]):
            assert state.get(dep) != 1, "import cycle: " + " -> ".join([*path, name, dep])
            if dep not in state:
                visit(dep, [*path, name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


@pytest.mark.parametrize("name", sorted(STDLIB_ONLY), ids=str)
def test_the_hook_fast_path_needs_the_standard_library_only(name: str) -> None:
    for imported in GRAPH[name]:
        if imported.startswith("artibot_memory."):
            ok = imported in STDLIB_ONLY or (name, imported) in ALLOWED_BEYOND_STDLIB
        else:
            top = imported.split(".")[0]
            ok = top in sys.stdlib_module_names or top == "__future__"
            ok = ok or (name, top) in ALLOWED_BEYOND_STDLIB
        assert ok, f"{name} imports {imported}, which is not standard-library only"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("__init__.py")), ids=str)
def test_every_package_init_is_empty(path: Path) -> None:
    # They sit on the hook's import path: whatever they import, every hook pays for.
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = [node for node in tree.body if not isinstance(node, ast.Expr)]  # the docstring
    if path.parent == PACKAGE:
        assert [ast.unparse(node) for node in body] == [
            "from __future__ import annotations",
            "__version__ = '0.1.0'",
        ]
    else:
        assert path.read_text(encoding="utf-8") == ""


def test_every_room_is_described_in_the_architecture_document() -> None:
    text = (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    for room in RANKS:
        if room.startswith("__"):
            continue
        assert f"`{room}" in text, f"docs/ARCHITECTURE.md does not describe {room}"
    for name in GRAPH:
        short = name.removeprefix("artibot_memory.").replace(".", "/")
        if not short.endswith("__init__") and short != "__main__":
            assert f"{short}.py" in text or f"{short.split('/')[-1]}.py" in text, name
