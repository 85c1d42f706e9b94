"""Consolidation: a week of daily notes and the stores in, a proposal out, applied on a yes.

The daily notes are written here as fixtures in docs/NOTES.md's format (the writer is
notes/daily.py); MEMORY.md's markers stand for what the renderer last showed.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.api import consolidate, memories
from artibot_memory.cli import app
from artibot_memory.cli.app import main
from artibot_memory.core import clock
from artibot_memory.core.errors import UsageError
from artibot_memory.notes.consolidate import PIN_TAG, Item, Proposal, propose, read_day
from artibot_memory.store.model import Memory, State

SHOP = "/src/shop"
BLOG = "/src/blog"
WEEK = "2026-11-23 09:00:00"  # a Monday, UTC (the tests' local time)


def note(
    day: str, *, events: str = "", decisions: str = "", observations: str = "", notes: str = ""
) -> str:
    """A daily note as notes/daily.py writes it (docs/NOTES.md)."""
    weekday = date.fromisoformat(day).strftime("%A")
    return (
        f"# {day} ({weekday})\n\n## Events\n{events}\n## Decisions\n{decisions}\n"
        f"## Observations\n{observations}\n## Notes\n{notes}"
    )


def write_note(home: Path, day: str, text: str) -> Path:
    folder = home / "daily"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{day}.md"
    path.write_text(text, encoding="utf-8")
    return path


def write_memory_md(home: Path, *ids: str) -> None:
    lines = "".join(f"- shown <!-- am:{memory_id} -->\n" for memory_id in ids)
    (home / "MEMORY.md").write_text(f"# MEMORY\n\n## User Preferences\n{lines}", encoding="utf-8")


def snapshot(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in home.rglob("*") if p.is_file()}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def by_action(proposal: Proposal) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for change in proposal.changes:
        found.setdefault(change.action, []).append(change.text)
    return found


def a_week(home: Path) -> dict[str, Memory]:
    """Seven days of sessions in shop, in English and Korean; one old preference; a done blog.

    Returns the memories the notes point at, by role.
    """
    with freeze_time("2026-07-20 10:00:00"):  # four months before the week
        old = memories.save("preference", "Use tabs for indentation", key="indentation")
        deploy = "Deploy the blog from the gh-pages branch"
        memories.save("preference", deploy, project=BLOG, scope="project", tags=[PIN_TAG])
    with freeze_time(WEEK) as clock:
        decided = memories.save(
            "context", "Decided: keep the v1 API until March", project=SHOP, tags=["decision"]
        )
        pnpm = memories.save("preference", "Use pnpm, not npm", key="package-manager")
        archived = memories.save(
            "context", "The blog project is archived", project=BLOG, tags=[PIN_TAG]
        )
        argon = "Chose argon2 over bcrypt because it is memory-hard"
        v1 = f"Decided: keep the v1 API until March ({decided.id})"
        monday = note(
            "2026-11-23",
            events='- 09:10 [shop] Asked: "fix the login redirect" (session 1a2b3c4d:3-212)\n',
            decisions=f"- 10:20 [shop] {argon} (session 1a2b3c4d:88)\n- 11:02 [shop] {v1}\n",
            observations=f"- 10:05 [global] Preference detected: use pnpm, not npm ({pnpm.id})\n",
        )
        write_note(home, "2026-11-23", monday)
        for offset in range(1, 6):
            day = (date(2026, 11, 23) + timedelta(days=offset)).isoformat()
            tests = f"- 09:00 [shop] Tests: `pytest -q` passed (session 2b3c4d5e:{offset})\n"
            write_note(home, day, note(day, events=tests))
        korean = "기억: 스테이징 DB는 매주 일요일 초기화된다"
        thursday = note(
            "2026-11-26",
            decisions=f"- 15:00 [shop] {argon} (session 3c4d5e6f:12)\n- 15:30 [shop] {v1}\n",
            notes=f"- 16:00 [shop] {korean} (session 3c4d5e6f:40)\n",
        )
        write_note(home, "2026-11-26", thursday)
        clock.tick(timedelta(days=6))
    write_memory_md(home, old.id, pnpm.id)
    return {"old": old, "decided": decided, "pnpm": pnpm, "archived": archived}


def test_a_week_of_notes_is_proposed_as_pins_new_contexts_and_stale_entries(
    memory_home: Path,
) -> None:
    roles = a_week(memory_home)
    with freeze_time("2026-11-29 20:00:00"):
        proposal = consolidate.plan()
    changes = {(c.action, c.text): c for c in proposal.changes}
    pin = changes["pin", "Decided: keep the v1 API until March"]
    assert pin.memory_id == roles["decided"].id
    assert pin.days == ["2026-11-23", "2026-11-26"]  # one change, with its two days
    assert pin.sources == ["daily/2026-11-23.md:8", "daily/2026-11-26.md:7"]
    argon = changes["create", "Chose argon2 over bcrypt because it is memory-hard"]
    assert (argon.project, argon.tags, argon.days) == (
        SHOP,
        [PIN_TAG, "decision"],
        ["2026-11-23", "2026-11-26"],
    )
    korean = changes["create", "기억: 스테이징 DB는 매주 일요일 초기화된다"]
    assert korean.tags == [PIN_TAG]
    assert "fix the login redirect" not in str(proposal.changes)  # Events stay in the note
    assert "pytest" not in str(proposal.changes)
    stale = {c.memory_id: c.reason for c in proposal.changes if c.action == "stale"}
    assert "no reference since 2026-07-20" in stale[roles["old"].id]
    assert "blog is done" in stale[roles["archived"].id]
    assert roles["pnpm"].id not in stale  # mentioned this week
    assert not any(c.action == "update" for c in proposal.changes)


def test_dry_run_shows_the_proposal_and_writes_nothing(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_week(memory_home)
    before = snapshot(memory_home)
    with freeze_time("2026-11-29 20:00:00"):
        code, out, _ = run(capsys, "consolidate", "--dry-run")
    assert code == 0
    assert snapshot(memory_home) == before
    assert "Add to MEMORY.md (3):" in out
    assert "Remove as stale (3):" in out
    assert "daily/2026-11-23.md:8, daily/2026-11-26.md:7" in out
    assert "Apply these" not in out


def test_without_a_terminal_it_only_reports_and_says_how_to_apply(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_week(memory_home)
    before = snapshot(memory_home)
    with freeze_time("2026-11-29 20:00:00"):
        code, out, _ = run(capsys, "consolidate")  # pytest's stdin is no terminal
    assert code == 0
    assert "nothing applied (run `artibot-memory consolidate --yes` to apply)" in out
    assert snapshot(memory_home) == before


def test_yes_applies_records_the_run_and_a_second_run_proposes_nothing(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles = a_week(memory_home)
    with freeze_time("2026-11-29 20:00:00"):
        code, out, _ = run(capsys, "consolidate", "--yes", "--json")
        assert code == 0
        done = json.loads(out)
        assert done["applied"] is True
        assert len(done["changes"]) == len(done["proposal"]) == 6
        assert PIN_TAG in memories.get(roles["decided"].id).tags
        assert memories.get(roles["old"].id).state is State.STALE
        assert memories.get(roles["archived"].id).state is State.STALE
        created = [m for m in memories.list_memories("context") if "argon2" in m.text]
        assert [(m.project, m.source.path, m.source.line) for m in created] == [
            (SHOP, "daily/2026-11-23.md", 7)
        ]
        assert {PIN_TAG, "decision"} <= set(created[0].tags)
        recorded = json.loads((memory_home / "daily" / ".consolidated.json").read_text())
        assert recorded == {"last_run": "2026-11-29T20:00:00+00:00"}
        assert consolidate.plan().changes == []
    with freeze_time("2026-11-29 20:05:00"):
        code, out, _ = run(capsys, "consolidate")
    assert (code, out.splitlines()[-1]) == (0, "nothing to change in MEMORY.md")


def test_a_yes_at_the_terminal_applies(
    memory_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    a_week(memory_home)
    questions: list[str] = []

    def yes(question: str) -> bool:
        questions.append(question)
        return True

    monkeypatch.setattr(app, "ask", yes)
    with freeze_time("2026-11-29 20:00:00"):
        code, out, _ = run(capsys, "consolidate")
    assert (code, questions) == (0, ["Apply these 6 changes? [y/N] "])
    assert "applied 6 changes" in out
    assert consolidate.last_run() is not None


def test_the_next_run_reads_only_what_was_written_after_the_last(memory_home: Path) -> None:
    a_week(memory_home)
    with freeze_time("2026-11-29 20:00:00"):
        consolidate.apply(consolidate.plan())
    with freeze_time("2026-11-30 18:00:00"):
        jwt = "- 17:00 [shop] 로그인은 세션 쿠키 대신 JWT로 하자 (session 4d5e6f70:9)\n"
        write_note(memory_home, "2026-11-30", note("2026-11-30", decisions=jwt))
        proposal = consolidate.plan()
    assert by_action(proposal) == {"create": ["로그인은 세션 쿠키 대신 JWT로 하자"]}
    assert proposal.files == ["daily/2026-11-30.md"]


def test_a_reversed_preference_is_proposed_as_removal_with_what_replaced_it() -> None:
    with freeze_time("2026-11-02 09:00:00") as clock:
        old = memories.save("preference", "Use pnpm, not npm", key="package-manager")
        consolidate.record_run(clock.time_to_freeze.astimezone())
        clock.tick(timedelta(days=3))
        new = memories.save("preference", "Use npm again, not pnpm", key="package-manager")
        clock.tick(timedelta(days=1))
        proposal = consolidate.plan()
        [change] = proposal.group("remove")
        assert (change.action, change.memory_id) == ("reversed", old.id)
        assert change.reason == f"reversed on 2026-11-05: now “Use npm again, not pnpm” ({new.id})"
        consolidate.apply(proposal)
        assert consolidate.plan().changes == []


def test_a_preference_edited_in_the_daily_note_is_proposed_as_an_update(memory_home: Path) -> None:
    with freeze_time("2026-11-20 09:00:00") as clock:
        pnpm = memories.save("preference", "Use pnpm, not npm", key="package-manager")
        edited = f"- 09:00 [global] Preference detected: use bun, not pnpm ({pnpm.id})\n"
        write_note(memory_home, "2026-11-20", note("2026-11-20", observations=edited))
        clock.tick(timedelta(hours=2))
        proposal = consolidate.plan()
        [change] = proposal.changes
        assert (change.action, change.key, change.text) == (
            "update",
            "package-manager",
            "use bun, not pnpm",
        )
        assert change.memory_id == pnpm.id
        consolidate.apply(proposal)
    current = [m for m in memories.list_memories("preference") if m.state is State.ACTIVE]
    assert [(m.text, m.key) for m in current] == [("use bun, not pnpm", "package-manager")]
    assert memories.get(pnpm.id).state is State.SUPERSEDED


@pytest.mark.parametrize(
    "said",
    [
        pytest.param("Archived the project: the client moved on", id="english"),
        pytest.param("shop 프로젝트 완료, 더 이상 작업 없음", id="korean"),
    ],
)
def test_a_project_said_to_be_done_has_its_memory_md_entries_proposed_stale(
    memory_home: Path, said: str
) -> None:
    with freeze_time("2026-11-20 09:00:00") as clock:
        shown = memories.save(
            "context", "Status: branch fix/redirect", project=SHOP, tags=[PIN_TAG]
        )
        done = f"- 10:00 [shop] {said} (session 1a2b3c4d:7)\n"
        write_note(memory_home, "2026-11-20", note("2026-11-20", notes=done))
        clock.tick(timedelta(hours=3))
        proposal = consolidate.plan()
    [change] = proposal.changes  # no new context for a done project
    assert (change.action, change.memory_id) == ("stale", shown.id)
    assert change.reason.startswith("the project shop is done: daily/2026-11-20.md:10 says")


def test_a_project_with_no_session_for_90_days_is_done() -> None:
    with freeze_time("2026-07-01 09:00:00") as clock:
        shown = memories.save(
            "preference",
            "Deploy shop with make ship",
            project=SHOP,
            scope="project",
            tags=[PIN_TAG],
        )
        clock.tick(timedelta(days=91))
        proposal = consolidate.plan()
    [change] = proposal.changes
    assert (change.memory_id, change.reason) == (
        shown.id,
        "the project shop is done: no session since 2026-07-01",
    )


def test_a_recent_access_keeps_an_old_entry_from_being_stale(memory_home: Path) -> None:
    with freeze_time("2026-07-01 09:00:00") as clock:
        kept = memories.save("preference", "Always answer in English")
        clock.tick(timedelta(days=120))

        def accessed(memory: Memory) -> bool:
            memory.last_accessed = clock.time_to_freeze.astimezone()
            return True

        consolidate.restate({kept.id: accessed})
        write_memory_md(memory_home, kept.id)
        assert consolidate.plan().changes == []


@pytest.mark.parametrize("days", [0, 31, -2])
def test_days_out_of_bounds_is_a_one_line_error(
    days: int, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "consolidate", "--days", str(days))
    assert (code, out) == (1, "")
    assert err.startswith("artibot-memory: --days takes 1 to 30: consolidation reads at most")
    assert err.count("\n") == 1


def test_days_reads_that_many_local_days_whatever_the_last_run(memory_home: Path) -> None:
    with freeze_time("2026-11-30 12:00:00"):
        consolidate.record_run(clock.now())
        for day in ("2026-10-31", "2026-11-01", "2026-11-29"):
            write_note(
                memory_home,
                day,
                note(day, notes=f"- 08:00 [global] Note of {day} (session 1a2b3c4d:1)\n"),
            )
        assert consolidate.plan().files == []  # everything was written before the last run
        assert consolidate.plan(30).files == ["daily/2026-11-01.md", "daily/2026-11-29.md"]
        assert by_action(consolidate.plan(2)) == {"create": ["Note of 2026-11-29"]}
        with pytest.raises(UsageError):
            consolidate.plan(31)


def test_a_last_run_long_ago_reads_at_most_30_days(memory_home: Path) -> None:
    with freeze_time("2026-09-01 12:00:00"):
        consolidate.record_run(clock.now())
    with freeze_time("2026-11-30 12:00:00"):
        write_note(memory_home, "2026-10-15", note("2026-10-15"))
        write_note(memory_home, "2026-11-15", note("2026-11-15"))
        assert consolidate.plan().files == ["daily/2026-11-15.md"]


def test_the_proposal_is_pure_and_reads_lines_the_user_wrote_without_a_format() -> None:
    text = note("2026-11-30", notes="- 운영 DB 비밀번호는 1Password에 있다\n- \n")
    items = read_day("daily/2026-11-30.md", text)
    assert [(i.line, i.project, i.at, i.text) for i in items] == [
        (10, None, None, "운영 DB 비밀번호는 1Password에 있다"),
        (11, None, None, ""),
    ]
    with freeze_time("2026-11-30 20:00:00"):
        now = clock.now()
        proposal = propose(items, [], now=now, since=now - timedelta(days=2))
    assert by_action(proposal) == {"create": ["운영 DB 비밀번호는 1Password에 있다"]}


def test_an_unreadable_run_record_counts_as_never(memory_home: Path) -> None:
    (memory_home / "daily").mkdir(parents=True)
    (memory_home / "daily" / ".consolidated.json").write_text("{oops")
    assert consolidate.last_run() is None


def test_items_know_their_source() -> None:
    line = "- 11:02 [shop] Decided: keep the v1 API (ctx-0a1b2c3d4e)"
    [item] = read_day("daily/2026-11-30.md", f"## Decisions\n{line}\n")
    assert isinstance(item, Item)
    assert (item.memory_id, item.project, item.where) == (
        "ctx-0a1b2c3d4e",
        "shop",
        "daily/2026-11-30.md:2",
    )


def test_a_preference_the_note_only_clipped_is_not_an_update(memory_home: Path) -> None:
    with freeze_time("2026-11-20 09:00:00") as clock:
        long = memories.save(
            "preference", "Use pnpm, not npm, in every JavaScript project", key="package-manager"
        )
        clipped = (
            f"- 09:00 [global] Preference detected: Use pnpm, not npm, in every… ({long.id})\n"
        )
        write_note(memory_home, "2026-11-20", note("2026-11-20", observations=clipped))
        clock.tick(timedelta(hours=1))
        assert consolidate.plan().changes == []
