from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.cli import app
from artibot_memory.cli.app import main
from artibot_memory.recall.known_errors import find_fix
from artibot_memory.text.signature import error_signature


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


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
    rows = {row["type"]: row for row in json.loads(out)}
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
    code, out, _ = run(capsys, "import", str(path))
    assert (code, out.strip()) == (0, "imported 1 memories")


def test_python_dash_m_runs_the_cli(memory_home: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "artibot_memory", "search", "nothing"],
        capture_output=True,
        text=True,
        check=False,
        env={"ARTIBOT_MEMORY_HOME": str(memory_home), "PATH": ""},
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
