"""Auto-tags for a memory: error names, commands, file names, identifiers (stdlib only).

>>> auto_tags("ModuleNotFoundError in app/main.py after `pip install requests`")
['modulenotfounderror', 'pip', 'pip install', 'main.py']
"""

from __future__ import annotations

import errno
import re
from typing import TYPE_CHECKING

from artibot_memory.text.shell import Statement, statements
from artibot_memory.text.tokens import EDGE_PUNCTUATION, STOPWORDS_EN, file_name, words

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["auto_tags", "is_tool"]


_PROGRAMS = words(
    """git npm pnpm yarn npx pip pip3 pipx pytest docker podman kubectl helm cargo rustc rustup uv
    uvx poetry hatch ruff mypy eslint prettier tsc jest vitest terraform gcloud aws az brew apt
    apt-get curl wget ssh scp rsync gh conda tox nox pre-commit webpack vite deno gradle mvn dotnet
    cmake psql mysql sqlite3 redis-cli jq ffmpeg minikube ansible uvicorn gunicorn alembic prisma
    isort flake8 pylint black python python3 node bun go make java ruby php perl bash zsh sh
    claude"""
)
# Programs whose name is also an everyday word: tagged only where a command is certain.
_WORDLIKE_PROGRAMS = words("go make black bun node claude java ruby sh az")
_SPECIAL_FILES = words("""Dockerfile Containerfile Makefile Procfile Gemfile Rakefile
    Jenkinsfile Vagrantfile Pipfile Justfile Brewfile CODEOWNERS""")
_ERRNO_NAMES = frozenset(errno.errorcode.values())
_ERROR_WORD = re.compile(
    r"\b(?:[A-Za-z_]\w*(?:Error|Exception|Warning)|ERR_[A-Z0-9_]+|[A-Z]{1,2}\d{3,5}|E[A-Z]{2,}"
    r"|KeyboardInterrupt|StopIteration|SystemExit|GeneratorExit)\b"
)
_CODE_SPAN = re.compile(r"`([^`\n]+)`|^\s*\$\s+(.+)$", re.MULTILINE)
_COMMAND_WORD = re.compile(r"[a-z][a-z0-9._+-]*")
_SNAKE = re.compile(r"(?<![\w./])_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*(?!\.?\w)", re.ASCII)
_CAMEL = re.compile(r"\b(?:[a-z]+[A-Z]|[A-Z][a-z0-9]+[A-Z])[A-Za-z0-9]*\b", re.ASCII)
_DOTTED = re.compile(r"(?<![\w./:@-])[A-Za-z_]\w+(?:\.[A-Za-z_]\w*)+", re.ASCII)


def auto_tags(text: str, limit: int = 12) -> list[str]:
    """Tags worth saving with *text*: error names, commands, file names, then identifiers.

    Lowercase, unique, in that order of kinds (so *limit* keeps the sharpest), each kind in
    order of appearance. A subcommand pair is one tag with a space ("git commit").

    >>> auto_tags("`git commit -m x` failed: ModuleNotFoundError in src/app/main.py")
    ['modulenotfounderror', 'git', 'git commit', 'main.py']
    >>> auto_tags("memory.metadata.get returned [] in retrieve_memories (BaseStorage)")
    ['memory.metadata.get', 'retrieve_memories', 'basestorage']
    """
    found = [*_error_names(text), *_command_names(text), *_file_names(text), *_identifiers(text)]
    return list(dict.fromkeys(tag.casefold() for tag in found if tag))[: max(limit, 0)]


def is_tool(word: str) -> bool:
    """Tell whether ``word`` (lower case) names a known program, a tool a memory is about.

    >>> is_tool("pnpm"), is_tool("main.py")
    (True, False)
    """
    return word in _PROGRAMS


def is_wordlike(word: str) -> bool:
    """Tell whether a program's name is also an everyday word (``go``, ``make``, ``black``).

    >>> is_wordlike("go"), is_wordlike("pnpm")
    (True, False)
    """
    return word in _WORDLIKE_PROGRAMS


def code_spans(text: str) -> list[str]:
    r"""Return the code of ``text``: its inline `spans` and its ``$ command`` lines.

    >>> code_spans("ran `go test ./...`, then:\n$ make build")
    ['go test ./...', 'make build']
    """
    return [span or line for span, line in _CODE_SPAN.findall(text)]


def _error_names(text: str) -> Iterator[str]:
    for name in _ERROR_WORD.findall(text):
        if not re.fullmatch(r"E[A-Z]{2,}", name) or name in _ERRNO_NAMES:
            yield name


def _command_names(text: str) -> Iterator[str]:
    """Programs (and subcommand pairs) where a command is certain; known programs in prose."""
    spans = [a or b for a, b in _CODE_SPAN.findall(text)]
    first = text.split(maxsplit=1)[:1]
    if first and first[0] in _PROGRAMS:
        spans.insert(0, text.splitlines()[0])
    for span in spans:
        for statement in statements(span):
            yield from _statement_names(statement)
    for word in re.findall(r"[A-Za-z][A-Za-z0-9.+-]*[A-Za-z0-9+]", text):
        if word.lower() in _PROGRAMS - _WORDLIKE_PROGRAMS:
            yield word


def _statement_names(statement: Statement) -> Iterator[str]:
    """``sudo FOO=1 python -m pytest -q`` → python, pytest; ``git commit -m`` → git commit.

    The statement is read by :mod:`artibot_memory.text.shell` (wrappers dropped, runners
    looked through, subcommands found); a lone word that is no known program is taken
    for a name in backticks, not a command.
    """
    program = statement.program.lower()
    lone = not (statement.runners or statement.subcommand or statement.arguments)
    if not _COMMAND_WORD.fullmatch(program) or (lone and program not in _PROGRAMS):
        return
    yield from (r for r in map(str.lower, statement.runners) if _COMMAND_WORD.fullmatch(r))
    yield program
    if statement.subcommand and _is_subcommand(statement.subcommand):
        yield f"{program} {statement.subcommand}"


def _is_subcommand(word: str) -> bool:
    return re.fullmatch(r"[a-z][a-z0-9-]*", word) is not None and word not in STOPWORDS_EN


def _file_names(text: str) -> Iterator[str]:
    for chunk in text.split():
        base = chunk.strip(EDGE_PUNCTUATION).rsplit("/", 1)[-1]
        yield file_name(chunk) or (base if base in _SPECIAL_FILES else "")


def _identifiers(text: str) -> Iterator[str]:
    """snake_case, camelCase/PascalCase and dotted names, in order of appearance."""
    matches = [*_SNAKE.finditer(text), *_CAMEL.finditer(text), *_DOTTED.finditer(text)]
    for match in sorted(matches, key=lambda m: m.start()):
        name = match.group()
        if "." not in name or not file_name(name):
            yield name
