"""The daily note: one file per local day, only new items, user text kept, no secret."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory import lifecycle
from artibot_memory.api import daily as api_daily
from artibot_memory.api import memories
from artibot_memory.capture.transcript import read_transcript
from artibot_memory.cli.app import main
from artibot_memory.notes import daily
from artibot_memory.notes.daily import SECTIONS, Item, read_bullet
from artibot_memory.text.markdown import DailyBullet

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
SESSION = "1a2b3c4d-0000-4000-8000-000000000001"
CWD = "/home/dev/shop"
PROMPT = "From now on always use pnpm. Remember that the staging db is reset every Sunday."
SECRET = "ghp_" + "a1B2c3D4e5" * 4


@pytest.fixture(autouse=True)
def utc() -> Iterator[None]:
    """Local time is UTC in these tests, so a note's day is the timestamps' day."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


class Transcript:
    """A small synthetic Claude Code transcript, written row by row as a session would."""

    def __init__(self, path: Path, session: str = SESSION, branch: str = "fix/redirect") -> None:
        self.path, self.session, self.branch, self.calls = path, session, branch, 0

    def _row(self, kind: str, at: datetime, message: dict[str, Any], **extra: Any) -> None:
        row = {
            "type": kind,
            "sessionId": self.session,
            "cwd": CWD,
            "gitBranch": self.branch,
            "timestamp": at.isoformat().replace("+00:00", "Z"),
            "message": message,
            **extra,
        }
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")

    def ask(self, text: str, at: datetime, **extra: Any) -> None:
        self._row("user", at, {"role": "user", "content": text}, **extra)

    def say(self, text: str, at: datetime) -> None:
        self._row(
            "assistant", at, {"role": "assistant", "content": [{"type": "text", "text": text}]}
        )

    def tool(
        self, name: str, given: dict[str, Any], output: str, at: datetime, *, error: bool = False
    ) -> None:
        self.calls += 1
        ref = f"toolu_{self.calls:04d}"
        use = {"type": "tool_use", "id": ref, "name": name, "input": given}
        self._row("assistant", at, {"role": "assistant", "content": [use]})
        result = {"type": "tool_result", "tool_use_id": ref, "content": output, "is_error": error}
        self._row("user", at + timedelta(seconds=5), {"role": "user", "content": [result]})

    def bash(self, command: str, output: str, at: datetime, *, error: bool = False) -> None:
        self.tool("Bash", {"command": command}, output, at, error=error)

    def edit(self, path: str, at: datetime) -> None:
        self.tool("Edit", {"file_path": path, "old_string": "a", "new_string": "b"}, "ok", at)

    def write(self, path: str, at: datetime) -> None:
        self.tool("Write", {"file_path": path, "content": "x"}, "ok", at)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=timezone.utc)


def end(transcript: Transcript, event: str = "SessionEnd") -> None:
    payload = {"transcript_path": str(transcript.path), "session_id": transcript.session}
    lifecycle.save_summary(payload, event)


def note(home: Path, day: date) -> str:
    return daily.note_path(home, day).read_text(encoding="utf-8")


def items_of(text: str) -> list[DailyBullet]:
    return [b for line in text.splitlines() if (b := read_bullet(line)) is not None]


def a_working_session(t: Transcript, day: int = 30, start: int = 10) -> None:
    t.ask("fix the login redirect after sign-in", at(day, start, 2))
    t.edit(f"{CWD}/auth/views.py", at(day, start, 10))
    t.write(f"{CWD}/tests/test_redirect.py", at(day, start, 12))
    t.bash("pytest -q", "1 failed, 3 passed in 0.2s", at(day, start, 20), error=True)
    t.edit(f"{CWD}/auth/urls.py", at(day, start, 25))
    t.bash("pytest -q", "4 passed in 0.2s", at(day, start, 30))
    t.say("I chose argon2 over bcrypt because it is memory-hard.", at(day, start, 31))


def test_a_session_writes_each_section_with_sources(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    a_working_session(t)
    with freeze_time(at(30, 11)):
        end(t)
    text = note(memory_home, date(2026, 11, 30))
    assert text.startswith("# 2026-11-30 (Monday)\n")
    assert [line[3:] for line in text.splitlines() if line.startswith("## ")] == list(SECTIONS)
    found = items_of(text)
    said = [b.text for b in found]
    assert 'Asked: "fix the login redirect after sign-in"' in said
    assert "Edited auth/views.py, auth/urls.py; created tests/test_redirect.py" in said
    assert "Tests: `pytest -q` FAILED, then passed" in said
    assert "Session on branch fix/redirect, 29m" in said
    assert "I chose argon2 over bcrypt because it is memory-hard" in said
    assert {b.project for b in found} == {"shop"}
    assert found[0].time == "10:02"
    events = [b for b in found if not b.text.startswith("I chose")]
    assert all(str(b.source).startswith("session 1a2b3c4d:") for b in events)
    # a decision is kept as a memory too (MEMORY.md lists it), and the note cites it
    (decision,) = [b for b in found if b.text.startswith("I chose")]
    kept = memories.get(str(decision.source))
    assert "decision" in kept.tags
    assert kept.source.session_id == SESSION
    assert kept.source.line is not None


def test_a_week_of_sessions_leaves_one_note_per_day(tmp_path: Path, memory_home: Path) -> None:
    for day in range(23, 30):
        t = Transcript(tmp_path / f"{day}.jsonl", session=f"{day:08d}-session")
        a_working_session(t, day)
        with freeze_time(at(day, 18)):
            end(t)
    notes = sorted(p.name for p in (memory_home / "daily").glob("*.md"))
    assert notes == [f"2026-11-{day}.md" for day in range(23, 30)]
    for day in range(23, 30):
        found = items_of(note(memory_home, date(2026, 11, day)))
        assert {str(b.source).split(":")[0] for b in found} == {f"session {day:08d}"}


def test_a_session_past_midnight_writes_each_item_on_its_own_day(
    tmp_path: Path, memory_home: Path
) -> None:
    t = Transcript(tmp_path / "late.jsonl")
    t.ask("migrate the orders table", at(29, 23, 40))
    t.edit(f"{CWD}/db/orders.sql", at(29, 23, 50))
    t.edit(f"{CWD}/db/customers.sql", at(30, 0, 20))
    t.bash("make migrate", "done", at(30, 0, 25))
    with freeze_time(at(30, 1)):
        end(t)
    before = [b.text for b in items_of(note(memory_home, date(2026, 11, 29)))]
    after = [b.text for b in items_of(note(memory_home, date(2026, 11, 30)))]
    assert before == ['Asked: "migrate the orders table"', "Edited db/orders.sql"]
    assert "Edited db/customers.sql" in after
    assert any(text.startswith("Session on branch") for text in after)


def test_a_resumed_session_adds_only_its_new_lines(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    a_working_session(t)
    with freeze_time(at(30, 11)):
        end(t)
    first = note(memory_home, date(2026, 11, 30))
    t.ask("now add a test for the logout page", at(30, 14))
    t.write(f"{CWD}/tests/test_logout.py", at(30, 14, 5))
    with freeze_time(at(30, 15)):
        end(t)
    second = note(memory_home, date(2026, 11, 30))
    added = [b for b in items_of(second) if b not in items_of(first)]
    assert [b.text for b in added][:2] == [
        'Asked: "now add a test for the logout page"',
        "Created tests/test_logout.py",
    ]
    assert all(str(b.source).startswith("session 1a2b3c4d:") for b in added)
    assert second.startswith(first.split("\n## Decisions")[0].rsplit("\n\n", 1)[0])
    texts = [b.text for b in items_of(second)]
    assert texts.count("I chose argon2 over bcrypt because it is memory-hard") == 1


def test_a_checkpoint_then_the_end_writes_nothing_twice(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    a_working_session(t)
    with freeze_time(at(30, 11)):
        end(t, "PreCompact")
        end(t, "SessionEnd")  # nothing happened in between
    lines = note(memory_home, date(2026, 11, 30)).splitlines()
    bullets = [line for line in lines if read_bullet(line)]
    assert len(bullets) == len(set(bullets))
    assert len(items_of("\n".join(lines))) == 6


def test_a_retried_worker_leaves_the_note_as_it_was(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    a_working_session(t)
    with freeze_time(at(30, 11)):
        end(t)
        written = note(memory_home, date(2026, 11, 30))
        digest = read_transcript(t.path)
        assert api_daily.note_session(digest, SESSION, CWD) == []
        end(t)
    assert note(memory_home, date(2026, 11, 30)) == written


def test_a_crash_mid_write_leaves_the_old_note(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    day = date(2026, 11, 30)
    first = Item("Notes", at(30, 9), "shop", "first", "ctx-0000000001")
    daily.append(memory_home, day, [first])
    before = note(memory_home, day)

    def crash(*_: object) -> None:
        raise OSError("disk full")

    second = Item("Notes", at(30, 10), "shop", "x", "ctx-0000000002")
    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", crash)  # the text is built, the replace fails
        with pytest.raises(OSError, match="disk full"):
            daily.append(memory_home, day, [second])
    assert note(memory_home, day) == before
    assert [p.name for p in (memory_home / "daily").iterdir() if p.suffix == ".tmp"] == []


def test_user_edits_and_prose_survive_the_next_append(memory_home: Path) -> None:
    day = date(2026, 11, 30)
    daily.append(
        memory_home, day, [Item("Events", at(30, 9), "shop", "Asked: x", "session aaaaaaaa:1-9")]
    )
    path = daily.note_path(memory_home, day)
    edited = (
        path.read_text(encoding="utf-8")
        .replace("Asked: x", "Asked: x, and it was about the redirect (my words)")
        .replace("## Decisions\n", "My own paragraph, kept as it is.\n\n## Decisions\n", 1)
        .replace("\n## Observations\n", "\n", 1)  # the user deleted a section heading
        + "\n## Scratch\n* my list\n"
    )
    path.write_text(edited, encoding="utf-8")
    daily.append(memory_home, day, [Item("Notes", at(30, 12), "shop", "new", "ctx-0000000003")])
    after = path.read_text(encoding="utf-8")
    for line in edited.splitlines():
        assert line in after.splitlines()
    assert after.startswith(edited.split("## Notes")[0])
    assert after.endswith("## Scratch\n* my list\n\n## Observations\n")  # put back, at the end
    assert "- 12:00 [shop] new (ctx-0000000003)" in after
    daily.append(
        memory_home, day, [Item("Events", at(30, 9), "shop", "Asked: x", "session aaaaaaaa:1-9")]
    )
    assert path.read_text(encoding="utf-8") == after  # the edited bullet is not written again


def test_a_memory_is_written_once_per_file(memory_home: Path) -> None:
    day = date(2026, 11, 30)
    item = Item("Decisions", at(30, 9), "shop", "Decided: keep v1", "ctx-0a1b2c3d4e")
    assert daily.append(memory_home, day, [item, item]) == [item]
    assert daily.append(memory_home, day, [item]) == []


def test_a_secret_in_a_prompt_never_reaches_the_note(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    t.ask(f"use token {SECRET} to push, then fix the build " + "and more words " * 20, at(30, 9))
    t.edit(f"{CWD}/build.sh", at(30, 9, 5))
    t.say(f"We'll go with the token {SECRET} because it has push rights.", at(30, 9, 6))
    with freeze_time(at(30, 10)):
        end(t)
    text = note(memory_home, date(2026, 11, 30))
    assert "ghp_" not in text
    assert "[REDACTED:github-token]" in text


def test_a_routine_session_gives_at_most_one_line(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    t.ask("where are we?", at(30, 9))
    t.bash("git status", "clean", at(30, 9, 1))
    t.bash("ls -la", "a b", at(30, 9, 2))
    t.bash("git log --oneline -3", "abc", at(30, 9, 3))
    with freeze_time(at(30, 10)):
        end(t)
    assert [b.text for b in items_of(note(memory_home, date(2026, 11, 30)))] == [
        'Asked: "where are we?"'
    ]


def test_machine_prompts_are_not_the_ask(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    t.ask("wake up and poll the queue", at(30, 9), promptSource="loop_wakeup")
    t.ask("deploy the site", at(30, 9, 1))
    t.bash("make deploy", "ok", at(30, 9, 2))
    with freeze_time(at(30, 10)):
        end(t)
    said = [b.text for b in items_of(note(memory_home, date(2026, 11, 30)))]
    assert said[0] == 'Asked: "deploy the site"'


def test_a_command_run_often_is_an_observation(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    t.ask("make the build green", at(30, 9))
    for n in range(6):
        t.bash("make build", "ok", at(30, 9, 1 + n))
    with freeze_time(at(30, 10)):
        end(t)
    text = note(memory_home, date(2026, 11, 30))
    observations = text.split("## Observations")[1].split("## Notes")[0]
    assert "Ran `make build` 6 times" in observations


def test_the_sessions_memories_fill_observations_and_notes(
    tmp_path: Path, memory_home: Path
) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    t.ask(PROMPT, at(30, 9))
    t.edit(f"{CWD}/package.json", at(30, 9, 5))
    payload = {
        "prompt": PROMPT,
        "session_id": SESSION,
        "cwd": CWD,
    }
    with freeze_time(at(30, 9)):
        lifecycle.keep_prompt(payload)
    with freeze_time(at(30, 10)):
        end(t)
    text = note(memory_home, date(2026, 11, 30))
    observations = text.split("## Observations")[1].split("## Notes")[0]
    notes = text.split("## Notes")[1]
    assert "Preference detected: From now on always use pnpm (pref-" in observations
    assert "Remember: the staging db is reset every Sunday (ctx-" in notes


def test_the_cli_writes_a_decision_and_a_note(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with freeze_time(at(30, 11, 2)):
        assert main(["save", "context", "keep the v1 API until March", "--tag", "decision"]) == 0
        assert main(["save", "context", "the staging db resets on Sundays", "--note"]) == 0
    out = capsys.readouterr().out
    assert "noted in daily/2026-11-30.md (Decisions)" in out
    text = note(memory_home, date(2026, 11, 30))
    decisions = text.split("## Decisions")[1].split("## Observations")[0]
    assert "- 11:02 [" in decisions
    assert "Decided: keep the v1 API until March (ctx-" in decisions
    assert "the staging db resets on Sundays (ctx-" in text.split("## Notes")[1]


def test_a_real_transcript_gives_its_error_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bf94da03.jsonl"
    shutil.copy(FIXTURES / "bf94da03-d611-4290-9869-acf21951c67b.jsonl", path)
    digest = read_transcript(path)
    items = api_daily.session_items(digest, digest.session_id, "/home/dev/demo")
    errors = [i for i in items if i.text.startswith("Error `")]
    assert errors
    assert errors[0].source == f"session {digest.session_id[:8]}:32"
    assert items[0].text == 'Asked: "Please run the test commands" (+1 more)'
    with freeze_time(digest.ended_at):
        written = api_daily.note_session(digest, digest.session_id, "/home/dev/demo")
        assert written
        assert api_daily.note_session(digest, digest.session_id, "/home/dev/demo") == []


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.jsonl")))
def test_every_fixture_resumes_after_any_line(name: str) -> None:
    whole = read_transcript(FIXTURES / name)
    half = read_transcript(FIXTURES / name, after_line=whole.last_line // 2)
    assert half.first_line > whole.last_line // 2
    assert half.last_line == whole.last_line
    assert all(m.line > whole.last_line // 2 for m in half.asks + half.changes)


def test_a_checkpoint_then_more_work_then_the_end_adds_only_the_new_part(
    tmp_path: Path, memory_home: Path
) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    a_working_session(t)
    with freeze_time(at(30, 11)):
        end(t, "PreCompact")
    checkpoint = items_of(note(memory_home, date(2026, 11, 30)))
    t.ask("bcrypt 대신 argon2로 하자", at(30, 11, 5))
    t.edit(f"{CWD}/auth/hash.py", at(30, 11, 10))
    with freeze_time(at(30, 12)):
        end(t, "SessionEnd")
    final = items_of(note(memory_home, date(2026, 11, 30)))
    assert set(checkpoint) <= set(final)
    new = [b for b in final if b not in checkpoint]
    assert [b.text for b in new if b.text.startswith(("Asked", "Edited"))] == [
        'Asked: "bcrypt 대신 argon2로 하자"',
        "Edited auth/hash.py",
    ]
    decisions = note(memory_home, date(2026, 11, 30)).split("## Decisions")[1]
    assert re.search(r"bcrypt 대신 argon2로 하자 \(ctx-[0-9a-f]+\)", decisions)
    first_span = {b.source for b in checkpoint if b.text.startswith("Asked")}
    assert all(b.source not in first_span for b in new)


def test_an_error_and_its_fix_make_one_event(tmp_path: Path, memory_home: Path) -> None:
    t = Transcript(tmp_path / "s.jsonl")
    t.ask("run the app", at(30, 9))
    t.bash(
        "python app.py",
        "Exit code 1\nModuleNotFoundError: No module named 'yaml'",
        at(30, 9, 1),
        error=True,
    )
    t.bash("pip install pyyaml", "ok", at(30, 9, 2))
    t.bash("python app.py", "running", at(30, 9, 3))
    with freeze_time(at(30, 10)):
        end(t)
    errors = [b for b in items_of(note(memory_home, date(2026, 11, 30))) if "Error" in b.text]
    assert len(errors) == 1
    assert errors[0].text.startswith("Error `python app.py` (ModuleNotFoundError")
    assert "fixed" in errors[0].text
    assert str(errors[0].source).startswith("session 1a2b3c4d:")
    assert "-" not in str(errors[0].source)


def test_appends_from_two_threads_lose_nothing(memory_home: Path) -> None:
    import threading  # noqa: PLC0415 - this test only

    day = date(2026, 11, 30)
    batches = [
        [Item("Notes", at(30, 9), "shop", f"item {w}-{n}", f"ctx-{w}{n:09d}") for n in range(10)]
        for w in range(2)
    ]
    threads = [threading.Thread(target=daily.append, args=(memory_home, day, b)) for b in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(items_of(note(memory_home, day))) == 20
