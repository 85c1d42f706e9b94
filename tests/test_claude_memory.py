"""``import --claude-auto-memory``: Claude Code's own auto memory into ours, read only."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from artibot_memory.api import memories
from artibot_memory.api.claude_memory import encode_project, entries, import_auto_memory
from artibot_memory.cli.app import main
from artibot_memory.core.errors import UsageError
from artibot_memory.store.table import MemoryType

INDEX = """\
# Project memory

- [Debugging](debugging.md) — how the flaky tests were fixed
- Always use pnpm, not npm, in this repository
- The staging database is reset every Sunday
- 앞으로 커밋 메시지는 한국어로 써줘

The API server listens on port 8080 in development;
the worker on 8081.

```bash
make dev   # not a memory: code
```
"""

TOPIC = """\
---
name: debugging
description: how the flaky tests were fixed
type: project
---

## Flaky tests

- `test_checkout` fails when Redis is down: start it with `make redis` first
- 결제 테스트는 샌드박스 키가 있어야 통과한다
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "src" / "my_shop.v2"
    (folder / ".git").mkdir(parents=True)
    return folder


@pytest.fixture
def auto_memory(tmp_path: Path, project: Path) -> Iterator[Path]:
    """The auto memory folder of ``project``, read-only like a folder we must not touch."""
    folder = tmp_path / "claude-config" / "projects" / encode_project(str(project)) / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    (folder / "debugging.md").write_text(TOPIC, encoding="utf-8")
    for path in folder.iterdir():
        path.chmod(stat.S_IRUSR)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    yield folder
    folder.chmod(stat.S_IRWXU)


def state_of(folder: Path) -> dict[str, tuple[bytes, int, float]]:
    return {p.name: (p.read_bytes(), p.stat().st_mode, p.stat().st_mtime) for p in folder.iterdir()}


def test_claude_code_encodes_every_character_but_letters_and_digits() -> None:
    assert encode_project("/home/dev/proj") == "-home-dev-proj"  # as captured (SPEC.md)
    assert encode_project("/Users/me/.config/my_app v2") == "-Users-me--config-my-app-v2"
    assert encode_project("/home/dev/프로젝트") == "-home-dev-----"


def test_every_bullet_and_paragraph_becomes_a_memory_with_its_source(
    auto_memory: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = state_of(auto_memory)
    monkeypatch.chdir(project)
    report = import_auto_memory()  # the working directory's project
    assert (report.preferences, report.contexts, report.already) == (2, 4, 0)
    assert report.files == ["MEMORY.md", "debugging.md"]
    stored = {m.text: m for m in memories.list_memories()}
    pnpm = stored["Always use pnpm, not npm, in this repository"]
    assert pnpm.type is MemoryType.PREFERENCE
    assert (pnpm.source.path, pnpm.source.line) == (str(auto_memory / "MEMORY.md"), 4)
    assert stored["앞으로 커밋 메시지는 한국어로 써줘"].type is MemoryType.PREFERENCE
    ports = stored["The API server listens on port 8080 in development; the worker on 8081."]
    assert (ports.type, ports.project, ports.source.line) == (MemoryType.CONTEXT, str(project), 8)
    redis = stored["`test_checkout` fails when Redis is down: start it with `make redis` first"]
    assert (redis.source.path, redis.source.line) == (str(auto_memory / "debugging.md"), 9)
    assert "결제 테스트는 샌드박스 키가 있어야 통과한다" in stored
    assert all("claude-auto-memory" in m.tags for m in stored.values())
    assert not any("make dev" in text or "Debugging" in text for text in stored)
    assert state_of(auto_memory) == before  # read only: not a byte, mode or time changed


@pytest.mark.usefixtures("auto_memory")
def test_importing_twice_adds_nothing_the_second_time(project: Path) -> None:
    first = import_auto_memory(str(project))
    again = import_auto_memory(str(project))
    assert (first.imported, again.imported, again.already) == (6, 0, 6)
    assert len(memories.list_memories()) == 6


@pytest.mark.usefixtures("auto_memory")
def test_a_preference_changed_since_is_not_brought_back(project: Path) -> None:
    import_auto_memory(str(project))
    memories.save("preference", "Always use bun in this repository", key="package-manager")
    import_auto_memory(str(project))
    active = [m.text for m in memories.list_memories("preference") if m.state.value == "active"]
    assert "Always use bun in this repository" in active


@pytest.mark.usefixtures("auto_memory")
def test_a_subfolder_of_the_project_reads_the_top_level_memory(project: Path) -> None:
    (project / "web" / "src").mkdir(parents=True)
    assert import_auto_memory(str(project / "web" / "src")).imported == 6


@pytest.mark.usefixtures("auto_memory")
def test_the_cli_imports_and_reports_in_json(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", "--claude-auto-memory", str(project), "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert (done["imported"], done["files"]) == (6, ["MEMORY.md", "debugging.md"])
    assert main(["import", "--claude-auto-memory", str(project)]) == 0
    assert "6 were there already" in capsys.readouterr().out


def test_a_missing_folder_is_a_one_line_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", "--claude-auto-memory", str(project)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"artibot-memory: no Claude Code auto memory for {project}: ")
    assert err.count("\n") == 1
    with pytest.raises(UsageError, match="does not exist"):
        import_auto_memory(str(project))


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        pytest.param(["import"], "needs a FILE", id="nothing"),
        pytest.param(["import", "x.jsonl", "--claude-auto-memory"], "not both", id="both"),
    ],
)
def test_import_takes_a_file_or_the_auto_memory(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 1
    assert says in capsys.readouterr().err


def test_claude_config_dir_is_where_it_looks(
    tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "elsewhere"
    folder = other / "projects" / encode_project(str(project)) / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- The shop ships on Fridays\n", encoding="utf-8")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(other))
    assert import_auto_memory(str(project)).contexts == 1
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "")  # empty means unset: ~/.claude
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    with pytest.raises(UsageError, match=os.path.join("home", ".claude", "projects")):
        import_auto_memory(str(project))


def test_entries_skip_front_matter_headings_and_code() -> None:
    found = entries(Path("t.md"), TOPIC)
    assert [(e.line, e.text[:12]) for e in found] == [
        (9, "`test_checko"),
        (10, "결제 테스트는 샌드박스"),
    ]
