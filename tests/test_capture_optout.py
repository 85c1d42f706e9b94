"""Where capture is off, a session leaves nothing but a count in the hook log (core/private.py).

A project opts out with ``capture = false`` in its ``.artibot-memory.toml``; a person opts a
folder out with ``[capture] ignore_paths`` in ``config.toml``. A whole session there (start,
prompts, tool calls, a failure, compaction, end with a transcript) changes no file of the
memory home but ``logs/hooks.log``, and what was remembered before still reaches it, read
only. A folder no pattern names is captured as usual. The settings fail closed, and the
hooks' quick reader of them agrees with tomllib.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import privatesession
import pytest

from artibot_memory.api import doctor, memories
from artibot_memory.capture import hooklog, journal
from artibot_memory.capture.transcript import read_transcript
from artibot_memory.cli.app import main
from artibot_memory.core import config, private
from artibot_memory.plugin import fast

PNPM = "From now on always use pnpm to install packages"
YAML_ERROR = (
    "Exit code 1\nTraceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'"
)


@pytest.fixture(autouse=True)
def no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """SessionEnd and PreCompact only journal in this process; the tests ingest."""
    monkeypatch.setattr(fast, "start_worker", lambda *_verb: None)


@pytest.fixture
def home_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's home folder, for ``~`` in ignore_paths."""
    user = tmp_path / "user"
    user.mkdir()
    monkeypatch.setenv("HOME", str(user))
    return user


def repo(folder: Path) -> Path:
    (folder / ".git").mkdir(parents=True)
    return folder


def remember_before(memory_home: Path, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What earlier sessions kept: a global preference, and a fix of this project's error."""
    memories.save("preference", PNPM, key="package-manager")
    memories.save("error", YAML_ERROR, resolution="pip install pyyaml", project=str(project))
    assert main(["search", "pnpm"]) == 0  # the index is built before the session looks
    capsys.readouterr()
    assert (memory_home / "index.sqlite").is_file()


def run_session(
    cwd: Path, inputs: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[privatesession.Session, str]:
    session = privatesession.build(cwd, inputs)
    privatesession.in_process(session)
    return session, capsys.readouterr().out


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def only_a_count_was_left(before: dict[str, bytes], memory_home: Path) -> None:
    after = privatesession.files_of(memory_home)
    assert changed(before, after) == {"logs/hooks.log"}
    [line] = after["logs/hooks.log"].decode().splitlines()  # nothing failed, nothing else said
    assert hooklog.UNRECORDED in line
    assert hooklog.unrecorded_count(str(memory_home)) == 1


def opted_out(
    project: Path, memory_home: Path, capsys: pytest.CaptureFixture[str], settings: str
) -> dict[str, bytes]:
    """A project that says ``settings`` in a home that remembers things; the home's files."""
    repo(project)
    remember_before(memory_home, project, capsys)
    (project / ".artibot-memory.toml").write_text(settings)
    return privatesession.files_of(memory_home)


def test_a_project_that_says_capture_false_leaves_only_a_count_in_the_hook_log(
    memory_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "acme-billing"
    before = opted_out(project, memory_home, capsys, "capture = false  # client work\n")
    _session, printed = run_session(project / "services" / "api", tmp_path / "inputs", capsys)
    only_a_count_was_left(before, memory_home)
    assert PNPM in printed  # recall of what was kept before still works there, read only
    assert "(capture = false)" in (memory_home / "logs" / "hooks.log").read_text()
    assert str(project) not in (memory_home / "logs" / "hooks.log").read_text()


def test_an_ignore_paths_glob_in_config_toml_leaves_only_a_count_too(
    memory_home: Path, tmp_path: Path, home_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client = repo(home_dir / "work" / "고객사-한빛")
    remember_before(memory_home, client, capsys)
    settings = "[promotion]\nauto_promote = true\n\n[capture]\nignore_paths = [\n"
    settings += '  "~/work/고객사-*/**",  # 한빛, 미래\n]\n'
    (memory_home / "config.toml").write_text(settings)
    before = privatesession.files_of(memory_home)
    run_session(client / "src", tmp_path / "inputs", capsys)
    only_a_count_was_left(before, memory_home)
    assert "(ignore_paths)" in (memory_home / "logs" / "hooks.log").read_text()


def test_a_folder_no_pattern_names_is_captured_as_usual(
    memory_home: Path, tmp_path: Path, home_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory_home.mkdir(mode=0o700)
    (memory_home / "config.toml").write_text('[capture]\nignore_paths = ["~/work/고객사-*/**"]\n')
    oss = repo(home_dir / "work" / "oss-고객사-tools")  # the pattern names folders that start so
    session, _printed = run_session(oss, tmp_path / "inputs", capsys)
    records = [
        json.loads(line) for line in (memory_home / journal.JOURNAL_NAME).read_text().splitlines()
    ]
    assert {r["event"] for r in records} >= {"PostToolUse", "PostToolUseFailure", "SessionEnd"}
    assert main(["ingest"]) == 0
    assert PNPM in [m.text for m in memories.list_memories("preference")]
    assert hooklog.unrecorded_count(str(memory_home)) == 0
    assert session.cwd == str(oss)


def test_a_failure_where_capture_is_off_gets_its_known_fix_and_journals_nothing(
    memory_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = repo(tmp_path / "shop")
    remember_before(memory_home, project, capsys)
    (project / ".artibot-memory.toml").write_text("capture = false\n")
    payload = {"session_id": "s", "cwd": str(project), "tool_name": "Bash", "error": YAML_ERROR}
    done, output = fast.route("PostToolUseFailure", {**payload, "tool_input": {"command": "x"}})
    assert done
    assert output is not None
    assert "pip install pyyaml" in output["hookSpecificOutput"]["additionalContext"]
    assert not (memory_home / journal.JOURNAL_NAME).exists()


def test_doctor_says_where_capture_is_off_why_and_how_many_sessions_went_unrecorded(
    memory_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = repo(tmp_path / "acme")
    (project / ".artibot-memory.toml").write_text("capture = false\n")
    assert doctor.check_capture(memory_home, str(tmp_path)).problem == f"on in {tmp_path}"
    run_session(project, tmp_path / "inputs", capsys)
    check = doctor.check_capture(memory_home, str(project / "src"))
    assert check.ok
    assert check.problem == (
        f"off in {project / 'src'}: capture = false in {project / '.artibot-memory.toml'}"
    )
    assert check.notes == ("1 session ended unrecorded where capture is off (logs/hooks.log)",)
    assert check in doctor.diagnose(memory_home, plugin_data=[], cwd=str(project / "src"))


@pytest.mark.parametrize(
    ("home_text", "project_text", "capture", "patterns"),
    [
        pytest.param("", "capture = false\n", False, (), id="project-off"),
        pytest.param("capture = false\n", "capture = true\n", False, (), id="home-off-wins"),
        pytest.param("capture = true\n", "capture = false\n", False, (), id="project-off-wins"),
        pytest.param(
            '[capture]\nignore_paths = ["~/a"]\n',
            '[capture]\nignore_paths = "~/b"\n',
            True,
            ("~/a", "~/b"),
            id="patterns-add-up",
        ),
        pytest.param("[capture]\nignore_paths = [1]\n", "", False, (), id="wrong-type-off"),
        pytest.param("[capture]\nenabled = false\n", "", False, (), id="unknown-name-off"),
        pytest.param('ignore_paths = ["~/a"]\n', "", False, (), id="forgotten-table-off"),
        pytest.param('[capture]\nignore_paths = ["~/a"\n', "", False, (), id="broken-toml-off"),
        pytest.param("[recall]\nstale_days = \n", "", True, (), id="broken-without-capture-on"),
    ],
)
def test_an_opt_out_adds_up_and_a_capture_setting_that_cannot_be_read_turns_capture_off(
    tmp_path: Path, home_text: str, project_text: str, capture: bool, patterns: tuple[str, ...]
) -> None:
    home, project = tmp_path / "home", repo(tmp_path / "shop")
    home.mkdir()
    (home / "config.toml").write_text(home_text)
    (project / ".artibot-memory.toml").write_text(project_text)
    settings = config.load(home, str(project))
    assert (settings["capture"], settings["capture.ignore_paths"]) == (capture, patterns)
    off = private.capture_off(str(project), str(home))
    assert (off is None) == capture
    if not capture:
        assert off is not None
        assert off.why in {f"capture = false in {p}" for p in config.paths(home, str(project))} or (
            settings.capture_faults and off.kind == private.UNREADABLE
        )


def test_a_settings_file_that_cannot_be_opened_turns_capture_off(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "config.toml").mkdir(parents=True)  # there, and not a file anyone can read
    off = private.capture_off(str(tmp_path / "shop"), str(home))
    assert off is not None
    assert off.kind == private.UNREADABLE
    assert "cannot be read" in off.why


def test_without_a_toml_parser_the_documented_forms_still_work_and_others_fail_closed(
    tmp_path: Path, home_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        config, "toml_parser", lambda: None
    )  # a hook under python3 -S on 3.9 or 3.10
    home, project = tmp_path / "home", repo(home_dir / "src" / "shop")
    home.mkdir()
    (home / "config.toml").write_text('[capture]\nignore_paths = ["~/clients/**"]\n')
    assert private.capture_off(str(project), str(home)) is None
    assert private.capture_off(str(home_dir / "clients" / "x"), str(home)) is not None
    (project / ".artibot-memory.toml").write_text("capture = false\n")
    assert private.capture_off(str(project), str(home)) is not None
    (project / ".artibot-memory.toml").write_text('capture = true\n"quoted key" = 1\n')
    off = private.capture_off(str(project), str(home))
    assert off is not None
    assert off.kind == private.UNREADABLE  # not sure what it says: off until it can be read


@pytest.mark.parametrize(
    ("pattern", "place", "ignored"),
    [
        ("~/work/acme", "~/work/acme", True),
        ("~/work/acme", "~/work/acme/api/src", True),
        ("~/work/acme/**", "~/work/acme", True),
        ("~/work/acme/", "~/work/acme/x", True),
        ("~/work/acme", "~/work/acme-tools", False),
        ("~/work/*-client", "~/work/hanbit-client/api", True),
        ("~/work/*-client", "~/work/a/hanbit-client", False),
        ("~/work/**/secret", "~/work/a/b/secret/c", True),
        ("~/work/**/secret", "~/work/secret", True),
        ("scratch", "/srv/x/scratch/y", True),
        ("scratch", "/srv/x/scratchpad", False),
        ("~/Work/ACME", "~/work/acme", True),
        ("~/work/acme-[0-9]", "~/work/acme-7", True),
        ("~/work/acme-[!0-9]", "~/work/acme-7", False),
        ("~/작업/고객사-*", "~/작업/고객사-한빛/앱", True),
        ("~/작업/고객사-*", "~/작업/사내-도구", False),
        ("", "/anything", False),
        ("/", "/anything", True),
    ],
)
def test_an_ignore_paths_pattern_names_a_folder_and_everything_under_it(
    pattern: str, place: str, ignored: bool, home_dir: Path
) -> None:
    assert home_dir.is_dir()  # what ~ is, in the patterns and the places
    assert private.matches(pattern, [str(Path(place).expanduser())]) is ignored


@pytest.mark.parametrize("cwd", ["/" + "x" * 300, "/src/a\x00b", "/etc/hostname/sub"])
def test_a_working_directory_that_cannot_be_a_folder_is_captured_as_usual(
    tmp_path: Path, cwd: str
) -> None:
    (tmp_path / "config.toml").write_text('[capture]\nignore_paths = ["~/clients/**"]\n')
    assert private.capture_off(cwd, str(tmp_path)) is None  # no settings file can be there


def test_a_working_directory_reached_through_a_symlink_is_matched_where_it_really_is(
    tmp_path: Path, home_dir: Path
) -> None:
    client = home_dir / "clients" / "acme"
    client.mkdir(parents=True)
    (home_dir / "shortcut").symlink_to(client)
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('[capture]\nignore_paths = ["~/clients/**"]\n')
    assert private.capture_off(str(home_dir / "shortcut"), str(home)) is not None


def test_rows_made_in_a_folder_where_capture_is_off_are_not_read_from_the_transcript(
    memory_home: Path, tmp_path: Path, home_dir: Path
) -> None:
    memory_home.mkdir(mode=0o700)
    (memory_home / "config.toml").write_text('[capture]\nignore_paths = ["~/clients"]\n')
    path = tmp_path / "moved.jsonl"
    rows = []
    for step, cwd in enumerate([home_dir / "oss", home_dir / "clients" / "acme", home_dir / "oss"]):
        command = f"make step-{step}"
        use = {"type": "tool_use", "id": f"t{step}", "name": "Bash", "input": {"command": command}}
        rows.append(
            {"type": "assistant", "cwd": str(cwd), "sessionId": "s", "message": {"content": [use]}}
        )
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    digest = read_transcript(path)
    assert digest.commands == {"make step-0": 1, "make step-2": 1}
    assert digest.cwd == str(home_dir / "oss")


def test_what_was_journaled_before_capture_was_turned_off_there_is_not_kept(
    tmp_path: Path,
) -> None:
    project = repo(tmp_path / "acme")
    fast.defer("UserPromptSubmit", {"session_id": "s", "cwd": str(project), "prompt": f"{PNPM}."})
    (project / ".artibot-memory.toml").write_text("capture = false\n")
    assert main(["ingest"]) == 0
    assert memories.list_memories("preference") == []


def test_a_session_in_a_project_that_opted_out_through_real_hook_processes_writes_nothing_else(
    memory_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "acme"
    before = opted_out(project, memory_home, capsys, "# a client's code\ncapture = false\n")
    session = privatesession.build(project, tmp_path / "inputs")
    printed = privatesession.in_processes(session, memory_home)
    only_a_count_was_left(before, memory_home)
    assert PNPM in printed[0]


# ---- the hooks' quick reader of the settings, against tomllib --------------------------

WORDS = ("auto_promote", "stale_days", "top_beliefs_n", "reject_days", "repeat_min")
TABLES = ("promotion", "recall", "evolve", "conflicts", "capture")
FOLDERS = ("~/work/acme/**", "~/clients", "scratch", "~/작업/고객사-*", "/srv/data/**", "~/w/[ab]")


def generated_files(count: int, seed: str) -> list[str]:
    """Settings files as people write them: tables, comments, blank lines, typos, odd forms."""
    chooser = random.Random(seed)  # noqa: S311 - test data
    files = []
    for _ in range(count):
        lines = []
        if chooser.random() < 0.4:
            lines.append(chooser.choice(["capture = false", "capture = true", "capture=false # x"]))
        if chooser.random() < 0.2:
            lines.append(f'capture.ignore_paths = ["{chooser.choice(FOLDERS)}"]')
        for table in chooser.sample(TABLES, chooser.randrange(0, 4)):
            lines.append(chooser.choice([f"[{table}]", f"[ {table} ]  # group", f"[{table}"]))
            lines += [_line(chooser, table) for _ in range(chooser.randrange(0, 3))]
            lines.append(chooser.choice(["", "# note", "   "]))
        files.append("\n".join(lines) + chooser.choice(["\n", "", "\r\n"]))
    return files


def _line(chooser: random.Random, table: str) -> str:
    if table == "capture" and chooser.random() < 0.7:
        items = [
            f'"{f}"' if chooser.random() < 0.7 else f"'{f}'" for f in chooser.sample(FOLDERS, 2)
        ]
        joiner = chooser.choice([", ", ",\n  ", " ,# c\n "])
        odd = chooser.choice(["", "", ",", " # end", "\\"])
        return f"ignore_paths = [{joiner.join(items)}{odd}]"
    value = chooser.choice(
        ["true", "false", "3", "0.85", "07", "1_000", '"x"', "[1, 2]", "{a = 1}"]
    )
    return f"{chooser.choice(WORDS)} = {value}"


@pytest.mark.parametrize("seed", ["capture-config-tuned", "capture-config-held-out"])
def test_the_quick_reader_agrees_with_tomllib_whenever_it_answers(seed: str) -> None:
    files = generated_files(400, seed)
    answered = 0
    for text in files:
        quick = private.quick_read(text)
        if quick is None:
            continue
        answered += 1
        assert quick == private._parsed("/h/config.toml", text.encode()), text  # noqa: SLF001
    assert answered >= len(files) // 4  # the documented forms, at least, need no tomllib


def test_a_hook_in_a_folder_without_settings_files_parses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_parsing(*_args: Any) -> None:
        raise AssertionError

    monkeypatch.setattr(private, "_parsed", no_parsing)
    (tmp_path / "config.toml").write_text("[recall]\nstale_days = 30\n")  # no word "capture"
    assert private.capture_off(str(repo(tmp_path / "shop")), str(tmp_path)) is None
    (tmp_path / "config.toml").write_text('[capture]\nignore_paths = ["~/clients/**"]\n')
    assert private.capture_off(str(tmp_path / "shop"), str(tmp_path)) is None
