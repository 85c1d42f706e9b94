from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory import lifecycle
from artibot_memory.api import memories
from artibot_memory.cli import app
from artibot_memory.cli.app import main
from artibot_memory.cli.render import cells
from artibot_memory.core.project import git_root
from artibot_memory.recall.known_errors import find_fix
from artibot_memory.text.signature import error_signature


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run every test from a folder in no project, as a person at a terminal.

    ``search`` and ``list`` look at the working directory's project by default, so a test
    must not depend on where pytest was started; nor on whether it runs inside Claude Code.
    """
    folder = tmp_path / "nowhere"
    folder.mkdir()
    assert git_root(folder) is None, "the temporary folder must be in no git repository"
    monkeypatch.chdir(folder)
    monkeypatch.delenv("CLAUDECODE", raising=False)
    return folder


def test_search_for_something_never_stored_prints_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "search", "anything") == (0, "", "")


def test_save_then_search_round_trip_in_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "save", "preference", "Use pnpm, not npm", "--key", "pm")
    assert code == 0
    assert out.startswith("saved pref-")
    code, out, _ = run(capsys, "search", "pnpm", "--json")
    [hit] = json.loads(out)
    assert {"id", "type", "score", "text"} <= hit.keys()
    assert (hit["type"], hit["text"]) == ("preference", "Use pnpm, not npm")
    code, out, _ = run(capsys, "search", "pnpm")
    assert "Use pnpm, not npm" in out


def test_list_show_forget_round_trip(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "save", "context", "The shop uses Postgres", "--project", "shop", "--tag", "db")
    _, out, _ = run(capsys, "list", "--json")
    [entry] = json.loads(out)
    _, out, _ = run(capsys, "show", entry["id"], "--json")
    assert json.loads(out)["tags"][0] == "db"
    code, out, _ = run(capsys, "forget", entry["id"])
    assert code == 0
    assert "forgot" in out
    assert run(capsys, "list", "--json")[1].strip() == "[]"


def test_forget_by_key(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "save", "preference", "tabs", "--key", "indent")
    code, out, _ = run(capsys, "forget", "--key", "indent", "--json")
    assert code == 0
    assert json.loads(out)[0]["key"] == "indent"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["show", "pref-0000000000"], "no memory with id", id="unknown-id"),
        pytest.param(["forget", "ctx-0000000000"], "no memory with id", id="forget-unknown"),
        pytest.param(["save", "preference", "  "], "empty", id="empty-text"),
        pytest.param(["import", "/nonexistent/file.jsonl"], "cannot read", id="missing-import"),
        pytest.param(["prune", "--extend-ttl", "cmd-1", "soon"], "must be a number", id="bad-days"),
    ],
)
def test_user_errors_exit_1_with_one_line_and_no_traceback(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1
    assert message in err
    assert "Traceback" not in err


@pytest.mark.usefixtures("capsys")  # argparse prints its usage: keep it out of the run's output
def test_an_unknown_type_is_a_usage_error_with_exit_2() -> None:
    with pytest.raises(SystemExit) as caught:
        main(["save", "recipe", "x"])
    assert caught.value.code == 2


def test_a_corrupt_store_makes_verbs_fail_naming_the_file(
    capsys: pytest.CaptureFixture[str], memory_home: Path
) -> None:
    memory_home.mkdir(parents=True)
    (memory_home / "project-contexts.json").write_text("{oops")
    code, _, err = run(capsys, "list")
    assert code == 1
    assert "project-contexts.json" in err
    assert "doctor" in err
    assert (memory_home / "project-contexts.json").read_text() == "{oops"


def test_prune_without_a_terminal_and_without_yes_only_reports(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with freeze_time("2026-01-01") as clock:
        run(capsys, "save", "command", "ls", "--project", "p")
        clock.tick(timedelta(days=8))
        code, out, _ = run(capsys, "prune")
        assert code == 0
        assert "1 expired" in out
        assert "nothing deleted" in out
        assert len(json.loads(run(capsys, "prune", "--dry-run", "--json")[1])["expired"]) == 1
        code, out, _ = run(capsys, "prune", "--yes")
        assert "deleted 1 memories" in out
        assert "nothing to prune" in run(capsys, "prune")[1]


def test_prune_asks_and_deletes_on_yes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app, "ask", lambda question: "Delete these 1" in question)
    with freeze_time("2026-01-01") as clock:
        run(capsys, "save", "command", "ls", "--project", "p")
        clock.tick(timedelta(days=8))
        assert "deleted 1 memories" in run(capsys, "prune")[1]


def test_stats_reports_every_store(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "save", "command", "make", "--project", "p")
    _, out, _ = run(capsys, "stats", "--json")
    rows = {row["type"]: row for row in json.loads(out) if row["layer"] == "store"}
    assert set(rows) == {"preference", "context", "command", "error"}
    assert rows["command"]["entries"] == 1
    assert rows["command"]["expiring_soon"] == 1
    assert rows["command"]["bytes"] > 0


def test_context_prints_the_session_start_text(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "save", "preference", "Answer in Korean")
    _, out, _ = run(capsys, "context", "--project", "anything")
    assert "Answer in Korean" in out
    _, out, _ = run(capsys, "context", "--json")
    assert json.loads(out)["chars"] > 0


def test_export_and_import_through_the_cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys, "save", "preference", "tabs", "--key", "indent")
    _, out, _ = run(capsys, "export")
    path = tmp_path / "dump.jsonl"
    path.write_text(out)
    monkeypatch.setenv("ARTIBOT_MEMORY_HOME", str(tmp_path / "fresh"))
    code, out, err = run(capsys, "import", str(path))
    assert (code, out.strip(), err) == (0, "imported 1 memory", "")


def test_an_import_that_cuts_a_text_says_so_per_record_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    huge = "x" * 10_485_760
    rows = [{"type": "context", "text": "short one"}, {"type": "context", "text": huge}]
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    code, out, err = run(capsys, "import", str(path))
    assert (code, out.strip()) == (0, "imported 2 memories")
    assert err == (
        f"artibot-memory: {path}:2: text cut from 10,485,760 to 16,000 characters"
        " (the most one memory holds)\n"
    )
    [stored] = [m for m in memories.list_memories("context") if m.text.startswith("xxx")]
    assert len(stored.text) == 16_000
    assert stored.text.endswith("[truncated]")


def test_an_import_that_refuses_a_line_names_it_imports_the_rest_and_exits_non_zero(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text('{"type": "preference", "text": "Use tabs"}\n{"type": "nope", "text": "x"}\n')
    code, out, err = run(capsys, "import", str(path), "--skip-invalid")
    assert (code, out.strip()) == (1, "imported 1 memory")
    assert err.startswith(f"artibot-memory: refused {path}:2: type: ")
    assert err.count("\n") == 1
    assert [m.text for m in memories.list_memories("preference")] == ["Use tabs"]


def test_an_import_says_how_many_records_were_stored_already(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run(capsys, "save", "preference", "tabs", "--key", "indent")
    _, out, _ = run(capsys, "export")
    path = tmp_path / "dump.jsonl"
    path.write_text(out)
    code, out, err = run(capsys, "import", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "imported 0 memories",
        "1 stored already (same id), left unchanged",
    ]


def test_python_dash_m_runs_the_cli(memory_home: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "artibot_memory", "search", "nothing"],
        capture_output=True,
        text=True,
        check=False,
        env={
            "ARTIBOT_MEMORY_HOME": str(memory_home),
            "PATH": "",
            "PYTHONPYCACHEPREFIX": os.environ["PYTHONPYCACHEPREFIX"],  # tests/conftest.py
        },
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_save_error_with_a_fix_is_offered_by_the_fast_hook(
    capsys: pytest.CaptureFixture[str],
) -> None:
    error = "ModuleNotFoundError: No module named 'yaml'"
    code, _, _ = run(
        capsys, "save", "error", error, "--fix", "pip install pyyaml", "--project", "shop"
    )
    assert code == 0
    _, out, _ = run(capsys, "list", "--type", "error", "--json")
    [entry] = json.loads(out)
    assert entry["state"] == "resolved"

    fix = find_fix(error_signature("Exit code 1\n" + error), None)
    assert fix is not None
    assert fix["resolution"] == "pip install pyyaml"


def test_a_fix_on_anything_but_an_error_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "save", "preference", "tabs", "--fix", "x")
    assert code == 1
    assert "--fix goes with" in err


def test_a_hook_given_to_the_command_line_itself_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hook", "SessionStart"]) == 1
    assert "run by Claude Code through bin/artibot-memory" in capsys.readouterr().err


def test_python_dash_m_runs_hooks_and_verbs_through_the_one_entry(memory_home: Path) -> None:
    payload = {
        "session_id": "s",
        "cwd": "/src/shop",
        "tool_name": "Edit",
        "tool_input": {"file_path": "/src/shop/app.py"},
    }
    hook = subprocess.run(
        [sys.executable, "-m", "artibot_memory", "hook", "PostToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        check=False,
    )
    assert (hook.returncode, hook.stdout, hook.stderr) == (0, b"", b"")
    assert "/src/shop/app.py" in (memory_home / "journal.jsonl").read_text()
    home = subprocess.run(
        [sys.executable, "-m", "artibot_memory", "home"], capture_output=True, check=True
    )
    assert home.stdout.decode().strip() == str(memory_home)


# --- issue 11, item 6: the CLI a person reads ---------------------------------------------

SUMMARY = (
    "Session {sid} 2026-03-0{day} 10:00–11:00 UTC (1h00m, 50m active), branch main, in {cwd}\n"
    "Asked: {asked}\nEdited: app/{file}.py"
)


def project(tmp_path: Path, name: str) -> Path:
    """A folder that is a git top-level (a ``.git`` inside is what makes one)."""
    folder = tmp_path / name
    (folder / ".git").mkdir(parents=True)
    return folder


def two_projects(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    shop, blog = project(tmp_path, "shop"), project(tmp_path, "blog")
    monkeypatch.chdir(shop)
    run(capsys, "save", "context", "The shop deploys with the blue pipeline")
    monkeypatch.chdir(blog)
    run(capsys, "save", "context", "The blog deploys to Netlify on every push")
    run(capsys, "save", "preference", "Always deploy on a weekday")  # global: seen everywhere
    monkeypatch.chdir(shop)
    return shop, blog


def texts_of(out: str) -> list[str]:
    return [row["text"] for row in json.loads(out)]


def test_search_from_a_project_shows_its_memories_and_the_global_ones_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    two_projects(capsys, tmp_path, monkeypatch)
    _, out, _ = run(capsys, "search", "deploy", "--json")
    assert sorted(texts_of(out)) == [
        "Always deploy on a weekday",
        "The shop deploys with the blue pipeline",
    ]
    _, out, _ = run(capsys, "search", "deploy")
    assert "Netlify" not in out
    assert "--all-projects" in out  # says how to widen
    _, out, _ = run(capsys, "search", "deploy", "--all-projects", "--json")
    assert len(texts_of(out)) == 3
    _, out, _ = run(capsys, "search", "deploy", "--project", "blog", "--json")
    assert "The shop deploys with the blue pipeline" not in texts_of(out)
    assert "The blog deploys to Netlify on every push" in texts_of(out)


def test_list_from_a_project_shows_its_memories_and_the_global_ones_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, blog = two_projects(capsys, tmp_path, monkeypatch)
    (blog / "src").mkdir()
    monkeypatch.chdir(blog / "src")  # below the top-level: the same project
    assert "The shop deploys" not in "".join(texts_of(run(capsys, "list", "--json")[1]))
    assert len(texts_of(run(capsys, "list", "--json")[1])) == 2
    assert len(texts_of(run(capsys, "list", "--all-projects", "--json")[1])) == 3


def test_outside_any_project_search_and_list_cover_every_project(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    nowhere: Path,
) -> None:
    two_projects(capsys, tmp_path, monkeypatch)
    monkeypatch.chdir(nowhere)
    assert len(texts_of(run(capsys, "search", "deploy", "--json")[1])) == 3
    assert len(texts_of(run(capsys, "list", "--json")[1])) == 3
    assert "every project" in run(capsys, "list")[1]


def test_two_session_summaries_show_what_differs_with_project_and_date(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = [
        {"type": "context", "project": "/src/shop", "tags": ["session-summary"],
         "created_at": f"2026-03-0{day}T11:00:00Z",
         "text": SUMMARY.format(sid=sid, day=day, cwd="/src/shop", asked=asked, file=file)}
        for sid, day, asked, file in [
            ("1a2b3c4d", 1, "fix the login redirect loop", "login"),
            ("5e6f7a8b", 2, "add a CSV export to the orders page", "export"),
        ]
    ]  # fmt: skip
    path = tmp_path / "sessions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with freeze_time("2026-03-20"):
        assert run(capsys, "import", str(path))[0] == 0
        _, out, _ = run(capsys, "list")
        _, found, _ = run(capsys, "search", "login")
    assert "Session 1a2b3c4d" not in out
    assert "Asked: fix the login redirect loop · Edited: app/login.py" in out
    assert "Asked: add a CSV export to the orders page · Edited: app/export.py" in out
    [login] = [line for line in out.splitlines() if "login" in line]
    assert "shop" in login.split()
    assert "2026-03-01" in login.split()
    assert "Asked: fix the login redirect loop" in found


def cell_starts(line: str) -> list[int]:
    """Where each cell of a table line starts, in terminal cells (cells part at 2+ spaces)."""
    return [cells(line[: found.start()]) for found in re.finditer(r"\S+(?: \S+)*", line)]


def test_list_and_search_columns_are_aligned(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "save", "preference", "Use pnpm, not npm", "--key", "pm")
    run(capsys, "save", "context", "pnpm workspaces hold the 배포 scripts", "--project", "shop")
    run(capsys, "save", "context", "배포는 pnpm으로", "--project", "한국어-프로젝트")
    for argv in (["list"], ["search", "pnpm"]):
        lines = run(capsys, *argv)[1].splitlines()
        header, rows = lines[0], lines[1:-1]
        assert len(rows) == 3
        left = [
            start
            for name, start in zip(header.split(), cell_starts(header), strict=True)
            if name != "score"
        ]
        for row in rows:
            assert set(left) <= set(cell_starts(row)), (argv, lines)


def test_show_is_readable_fields_with_no_python_reprs(capsys: pytest.CaptureFixture[str]) -> None:
    with freeze_time("2026-03-01 10:00"):
        run(
            capsys, "save", "context", "line one\nline two", "--project", "/src/shop", "--tag", "db"
        )
        [entry] = json.loads(run(capsys, "list", "--json")[1])
        code, out, _ = run(capsys, "show", entry["id"])
    assert code == 0
    for repr_mark in ("datetime.datetime(", "Memory(", "Source(", "Evidence(", "{'", "[]", "None"):
        assert repr_mark not in out
    lines = out.splitlines()
    fields = dict(line.split(":", 1) for line in lines if not line.startswith(" "))
    assert {
        "id",
        "type",
        "project",
        "text",
        "tags",
        "created",
        "expires",
        "source",
    } <= fields.keys()
    column = {len(line) - len(line.split(":", 1)[1].lstrip()) for line in lines if ":" in line[:14]}
    assert len(column) == 1  # every value starts in the same column
    assert fields["created"].strip() == "2026-03-01 10:00 UTC (just now)"
    assert fields["project"].strip() == "shop (/src/shop)"
    assert fields["tags"].strip() == "db"
    assert "line two" in lines[lines.index(next(x for x in lines if "line one" in x)) + 1]


def test_every_verb_has_a_description_an_example_and_help_for_every_option() -> None:
    parser = app.build_parser()
    assert parser.description
    assert "artibot-memory" not in (parser.description or "").split("\n")[0]
    assert "examples:" in (parser.epilog or "")
    verbs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001 - argparse's tree
    assert {"search", "list", "show", "doctor", "context"} <= verbs.choices.keys()
    for name, verb in verbs.choices.items():
        assert verb.description, name
        assert f"artibot-memory {name}" in (verb.epilog or ""), f"{name} has no example"
        for action in verb._actions:  # noqa: SLF001 - every option argparse knows
            assert action.help, (name, action.dest)
            assert action.help != argparse.SUPPRESS, (name, action.dest)
        help_text = verb.format_help()
        assert "examples:" in help_text, name


def test_top_level_help_is_written_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "one error boundary" not in out  # no longer the module's docstring
    assert "--all-projects" in out
    assert "NO_COLOR" in out


class Terminal(io.StringIO):
    """What stdout is on a terminal, as far as the CLI can tell."""

    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys, "save", "preference", "Use pnpm, not npm \x1b[31mred\x1b[0m")
    for argv in (["list"], ["search", "pnpm"], ["stats"]):
        assert "\x1b" not in run(capsys, *argv)[1]  # a pipe (capsys) never gets colour
    show_id = json.loads(run(capsys, "list", "--json")[1])[0]["id"]
    assert "\x1b" not in run(capsys, "show", show_id)[1]  # nor a stored escape code
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys, "stdout", terminal := Terminal())
    main(["list"])
    assert "\x1b[" in terminal.getvalue()  # a terminal does: the test can tell
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdout", terminal := Terminal())
    main(["list"])
    assert "\x1b" not in terminal.getvalue()
    assert "Use pnpm" in terminal.getvalue()


def access_count(memory_id: str) -> int:
    """The memory's access count once the journaled accesses are counted (the next ingest)."""
    lifecycle.ingest()
    return memories.get(memory_id).access_count


def test_only_the_agents_searches_count_as_accesses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys, "save", "preference", "Use pnpm, not npm")
    [entry] = json.loads(run(capsys, "list", "--json")[1])
    run(capsys, "search", "pnpm")
    run(capsys, "search", "pnpm", "--json")
    run(capsys, "list")
    run(capsys, "show", entry["id"])
    assert access_count(entry["id"]) == 0  # a person at a terminal
    monkeypatch.setenv("CLAUDECODE", "1")  # what Claude Code's Bash tool has
    run(capsys, "search", "pnpm", "--json")
    assert access_count(entry["id"]) == 1
    run(capsys, "list")
    run(capsys, "show", entry["id"])
    run(capsys, "search", "pnpm", "--no-record")
    assert access_count(entry["id"]) == 1
    monkeypatch.delenv("CLAUDECODE")
    run(capsys, "search", "pnpm", "--record")
    assert access_count(entry["id"]) == 2


def test_json_keeps_its_shape_and_gains_a_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert json.loads(run(capsys, "list", "--json")[1]) == []
    saved = json.loads(run(capsys, "save", "preference", "Use pnpm", "--json")[1])
    assert saved["schema"] == "artibot-memory/1"
    assert {"id", "type", "state", "text", "key", "project", "count", "last_seen"} <= saved.keys()
    [hit] = json.loads(run(capsys, "search", "pnpm", "--json")[1])
    assert hit["schema"] == "artibot-memory/1"
    assert {"id", "type", "text", "score", "parts", "last_seen", "expires_at"} <= hit.keys()
    [row] = json.loads(run(capsys, "list", "--json")[1])
    assert row == {**{k: hit[k] for k in row if k not in ("score", "parts")}}
    shown = json.loads(run(capsys, "show", hit["id"], "--json")[1])
    assert shown["schema"] == "artibot-memory/1"
    assert shown["created_at"].startswith("20")
    assert set(shown) - {"schema"} == set(memories.get(hit["id"]).model_dump())
    stats = json.loads(run(capsys, "stats", "--json")[1])
    assert isinstance(stats, list)
    assert all(r["schema"] == "artibot-memory/1" for r in stats)
    context = json.loads(run(capsys, "context", "--json")[1])
    assert {"schema", "project", "context", "chars", "lines", "left_out"} == context.keys()


def test_doctor_calls_a_home_with_no_journal_yet_ok(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "save", "preference", "tabs")
    _, out, _ = run(capsys, "doctor")
    [line] = [line for line in out.splitlines() if "journal.jsonl" in line]
    assert line.split()[0] == "ok"
    assert line.endswith("journal.jsonl: empty (nothing waiting to be stored)")
