"""Promotion proposals (api/proposals.py): candidates, accept, reject, auto-promotion, the verb."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory import lifecycle
from artibot_memory.api import memories, proposals
from artibot_memory.api.semantic import refresh
from artibot_memory.cli.app import main
from artibot_memory.core import clock
from artibot_memory.core.errors import UsageError
from artibot_memory.notes.candidates import core_projects
from artibot_memory.store import audit
from artibot_memory.store.model import Source

SHOP = "/src/shop"
NOW = "2026-11-26 15:00:00"  # the tests' local time is UTC
DECISION = "Chose argon2 over bcrypt because it is memory-hard"


def note(day: str, *, decisions: str = "", observations: str = "") -> str:
    """A daily note as notes/daily.py writes it (docs/NOTES.md)."""
    weekday = date.fromisoformat(day).strftime("%A")
    return (
        f"# {day} ({weekday})\n\n## Events\n\n## Decisions\n{decisions}\n"
        f"## Observations\n{observations}\n## Notes\n"
    )


def write_note(home: Path, day: str, text: str) -> None:
    folder = home / "daily"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{day}.md").write_text(text, encoding="utf-8")


def decided_in(
    home: Path, sessions: list[str], text: str = DECISION, project: str = "shop", first: int = 23
) -> None:
    """The same decision in the Decisions of one note a day, from the sessions given."""
    for n, session in enumerate(sessions):
        day = f"2026-11-{first + n:02d}"
        bullet = f"- 10:2{n} [{project}] {text} (session {session}:88)\n"
        write_note(home, day, note(day, decisions=bullet))


def summaries(project: str, count: int) -> None:
    """Session summaries of ``project``: what makes it a core project."""
    for n in range(count):
        memories.save(
            "context",
            f"Session {n} of {project}",
            key=f"session:{project}-{n}",
            project=project,
            tags=["session-summary"],
        )


def auto_promote_on(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("[promotion]\nauto_promote = true\n", encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_decision_stated_in_three_sessions_is_proposed_with_its_signals(
    memory_home: Path,
) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    with freeze_time(NOW):
        [found] = proposals.proposals()
    assert found.id.startswith("prop-")
    assert len(found.id) == len("prop-") + 8
    assert found.candidate.kind == "decision"
    assert found.candidate.project == "shop"
    assert [(s.name, s.evidence) for s in found.assessment.strong] == [
        ("referenced", "stated again in session 5e6f7a8b on 2026-11-24"),
        ("repeated", "seen in 3 sessions over 3 days"),
    ]
    assert [s.name for s in found.assessment.supporting] == ["useful"]
    assert found.sources == [f"daily/2026-11-{d}.md:6" for d in (23, 24, 25)]


def test_the_id_is_stable_across_runs_and_days(memory_home: Path) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    with freeze_time(NOW):
        first = proposals.proposals()[0].id
    with freeze_time("2026-11-28 09:00:00"):
        assert proposals.proposals()[0].id == first


def test_a_decision_of_two_sessions_is_neither_proposed_nor_reviewed(memory_home: Path) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b"])  # referenced, useful: 1 + 1
    with freeze_time(NOW):
        assert proposals.listed() == []


def test_one_session_goes_to_the_weekly_review_and_leaves_it_in_a_core_project(
    memory_home: Path,
) -> None:
    decided_in(memory_home, ["1a2b3c4d"])
    with freeze_time(NOW):
        assert [p.verdict for p in proposals.listed()] == ["review"]  # useful only
        summaries(SHOP, 2)  # core (strong) and useful: 1 + 1, neither proposed nor reviewed
        assert proposals.listed() == []


def test_core_projects_are_the_most_active_ones_of_the_window() -> None:
    with freeze_time("2026-10-01 10:00:00"):
        summaries("/src/old", 9)  # busy, but before the 30 days
    with freeze_time(NOW):
        summaries(SHOP, 3)
        summaries("/src/blog", 2)
        summaries("/src/wiki", 1)
        summaries("/src/docs", 1)
        records = memories.list_memories("context")
        core = core_projects(records, clock.now(), 3, 30)
    assert core == {"shop": 3, "blog": 2, "docs": 1}


def test_what_memory_md_already_holds_is_no_candidate(memory_home: Path) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    with freeze_time(NOW):
        memories.save("context", DECISION, project=SHOP, tags=["decision", "memory-md"])
        assert proposals.listed() == []


def test_accept_pins_a_notes_decision_in_memory_md_with_its_source(memory_home: Path) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    with freeze_time(NOW):
        memories.save("context", "The shop runs on Django", project=SHOP)  # names the project
        [found] = proposals.proposals()
        promoted = proposals.accept(found.id)
        saved = memories.get(promoted.memory_id)
        refresh()
        assert proposals.listed() == []
    assert "memory-md" in saved.tags
    assert "decision" in saved.tags
    assert saved.project == SHOP
    assert (saved.source.channel, saved.source.path, saved.source.line) == (
        "proposals",
        "daily/2026-11-23.md",
        6,
    )
    text = (memory_home / "MEMORY.md").read_text(encoding="utf-8")
    assert f"{DECISION} <!-- am:{saved.id} -->" in text
    [entry] = audit.read(memory_home)
    assert entry.type == "PROMOTE"
    assert entry.message == (
        f"daily/2026-11-23.md:6 → {saved.id} pinned in MEMORY.md, accepted by the user "
        "strong=referenced,repeated supporting=useful"
    )


def test_accept_makes_a_pending_preference_active_and_confirmed(memory_home: Path) -> None:
    with freeze_time(NOW):
        summaries(SHOP, 2)
        pending = memories.save(
            "preference",
            "Use pnpm in this repo",
            key="package-manager",
            project=SHOP,
            scope="project",
            state="pending",
            confidence=0.8,
            source=Source(channel="hook:UserPromptSubmit", session_id="1a2b3c4d5e"),
        )
        [found] = proposals.proposals()  # core + confident + useful: 1 strong, 2 supporting
        assert found.memory_id == pending.id
        promoted = proposals.accept(found.id)
    after = memories.get(pending.id)
    assert after.state.value == "active"
    assert getattr(after.evidence[-1], "kind", None) == "confirmed"
    assert promoted.outcome == "active"
    assert audit.read(memory_home)[0].message.startswith(f"{pending.id} → active, accepted by")


def test_a_rejected_proposal_stays_out_for_30_days(memory_home: Path) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    with freeze_time(NOW):
        [found] = proposals.proposals()
        proposals.reject(found.id)
        assert proposals.proposals() == []
    stored = json.loads((memory_home / "proposals.json").read_text(encoding="utf-8"))
    assert stored["rejected"][found.id]["at"].startswith("2026-11-26T15:00:00")
    with freeze_time("2026-12-25 15:00:00"):  # 29 days later
        assert proposals.proposals() == []
    with freeze_time("2026-12-26 15:00:01"):  # 30 days later
        assert [p.id for p in proposals.proposals()] == [found.id]


def test_reject_days_comes_from_the_settings(memory_home: Path) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    (memory_home / "config.toml").write_text("[promotion]\nreject_days = 3\n", encoding="utf-8")
    with freeze_time(NOW):
        proposals.reject(proposals.proposals()[0].id)
    with freeze_time("2026-11-30 15:00:00"):
        assert len(proposals.proposals()) == 1


def test_an_unknown_id_is_a_one_line_error() -> None:
    with pytest.raises(UsageError, match="no proposal 'prop-00000000'"):
        proposals.accept("prop-00000000")
    with pytest.raises(UsageError, match="`artibot-memory proposals` lists them"):
        proposals.reject("prop-00000000")


def test_auto_promote_off_changes_nothing(memory_home: Path) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    before = {p: p.read_bytes() for p in memory_home.rglob("*") if p.is_file()}
    with freeze_time(NOW):
        assert proposals.auto_promote() == []
    assert {p: p.read_bytes() for p in memory_home.rglob("*") if p.is_file()} == before


def test_auto_promote_on_promotes_what_is_proposed_and_says_so(memory_home: Path) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    auto_promote_on(memory_home)
    with freeze_time(NOW):
        [promoted] = proposals.auto_promote()
        assert proposals.auto_promote() == []  # once
    assert "memory-md" in memories.get(promoted.memory_id).tags
    [entry] = audit.read(memory_home)
    assert entry.message.endswith(
        "pinned in MEMORY.md (auto_promote) strong=referenced,repeated supporting=useful"
    )


def test_a_candidate_of_one_session_is_never_auto_promoted(memory_home: Path) -> None:
    # one session over three days, of a core project: repeated and core, proposed
    decided_in(memory_home, ["1a2b3c4d", "1a2b3c4d", "1a2b3c4d"])
    auto_promote_on(memory_home)
    with freeze_time(NOW):
        summaries(SHOP, 2)
        [found] = proposals.proposals()
        assert [s.name for s in found.assessment.strong] == ["repeated", "core"]
        assert proposals.auto_promote() == []
        assert [p.id for p in proposals.proposals()] == [found.id]  # still the user's to say
    assert audit.read(memory_home) == []


def test_an_observation_in_korean_related_to_an_active_preference(memory_home: Path) -> None:
    with freeze_time(NOW):
        memories.save("preference", "Use pnpm, not npm", key="package-manager")
        line = "- 10:05 [shop] 패키지 매니저는 pnpm을 쓴다 (session 1a2b3c4d:12)\n"
        write_note(memory_home, "2026-11-24", note("2026-11-24", observations=line))
        [found] = proposals.listed()
    assert found.verdict == "review"
    assert [s.name for s in found.assessment.supporting] == ["related"]
    assert found.assessment.supporting[0].evidence.endswith("(“Use pnpm, not npm”)")


def test_a_session_end_runs_auto_promote_and_a_failure_is_only_logged(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**_: object) -> list[object]:
        raise OSError("disk full")

    monkeypatch.setattr(proposals, "auto_promote", broken)
    lifecycle._auto_promote(SHOP)  # noqa: SLF001 - the wrapper save_summary ends with
    log = (memory_home / "logs" / "hooks.log").read_text(encoding="utf-8")
    assert "SessionEnd: auto_promote: OSError: disk full" in log


# ---- the verb


def test_the_verb_lists_proposals_then_the_weekly_review(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    write_note(
        memory_home,
        "2026-11-22",
        note("2026-11-22", decisions="- 09:00 [blog] Keep the v1 API (session 77777777:4)\n"),
    )
    with freeze_time(NOW):
        code, out, _ = run(capsys, "proposals")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "proposed for MEMORY.md (1):"
    assert f"[shop] decision: {DECISION}" in lines[1]
    assert lines[2] == (
        "    strong: referenced (stated again in session 5e6f7a8b on 2026-11-24); "
        "repeated (seen in 3 sessions over 3 days)"
    )
    assert lines[3] == "    supporting: useful (a decision)"
    assert "for the weekly review:" in lines
    assert "Keep the v1 API" in out.split("for the weekly review:")[1]


def test_the_verb_in_json_then_accept_and_reject(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"], "Keep the v1 API", "blog", 10)
    with freeze_time(NOW):
        code, out, _ = run(capsys, "proposals", "--json")
        listed = json.loads(out)
        assert code == 0
        assert listed["schema"] == "artibot-memory/1"
        first, second = (row["id"] for row in listed["proposals"])
        code, out, _ = run(capsys, "proposals", "accept", first)
        assert code == 0
        assert out.startswith(f"accepted {first}: daily/")
        code, out, _ = run(capsys, "proposals", "reject", second)
        assert code == 0
        assert out.startswith(f"rejected {second}")
        assert out.endswith("not proposed again before 2026-12-26\n")
        code, out, _ = run(capsys, "proposals", "--json")
    assert json.loads(out)["proposals"] == []
    assert (memory_home / "MEMORY.md").is_file()  # rendered after the accept


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        pytest.param(["accept", "prop-00000000"], "no proposal 'prop-00000000'", id="unknown id"),
        pytest.param(["accept"], "proposals accept needs the proposal's id", id="no id"),
    ],
)
def test_the_verb_says_what_is_wrong_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], error: str
) -> None:
    code, out, err = run(capsys, "proposals", *argv)
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1
    assert error in err


def test_nothing_to_propose_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "proposals")
    assert (code, out) == (0, "no proposals: nothing new deserves MEMORY.md yet\n")


def transcript(path: Path, session_id: str) -> Path:
    row = {
        "type": "user",
        "sessionId": session_id,
        "cwd": SHOP,
        "timestamp": "2026-11-26T14:00:00.000Z",
        "uuid": "u0",
        "message": {"role": "user", "content": "Add a checkout page"},
    }
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("event", "promoted"), [("SessionEnd", 1), ("PreCompact", 0)])
def test_the_session_end_worker_auto_promotes_once_a_checkpoint_does_not(
    memory_home: Path, tmp_path: Path, event: str, promoted: int
) -> None:
    decided_in(memory_home, ["1a2b3c4d", "5e6f7a8b", "9c0d1e2f"])
    auto_promote_on(memory_home)
    path = transcript(tmp_path / "s9.jsonl", "s9")
    with freeze_time(NOW):
        lifecycle.handle(event, {"session_id": "s9", "transcript_path": str(path), "cwd": SHOP})
    assert [e.type for e in audit.read(memory_home)] == ["PROMOTE"] * promoted


def test_a_month_of_sessions_proposes_what_a_person_would_keep(memory_home: Path) -> None:
    bullets: dict[str, dict[str, list[str]]] = {}

    def said(day: int, section: str, text: str, session: str) -> None:
        key = f"2026-11-{day:02d}"
        source = session if session.startswith("pref-") else f"session {session}:40"
        bullets.setdefault(key, {}).setdefault(section, []).append(
            f"- 10:{day:02d} {text} ({source})\n"
        )

    for day in (3, 10, 17):  # one decision, three weeks, three sessions: keep it
        said(day, "decisions", f"[shop] {DECISION}", f"5e55{day:04d}")
    said(5, "decisions", "[blog] Keep the v1 API until March", "b1090005")  # once, core: 1 + 1
    said(8, "decisions", "[wiki] Try the new linter on one page", "ee110008")  # once: review
    said(12, "decisions", "[shop] Rename the cart module", "5e550012")  # twice, one session
    said(12, "decisions", "[shop] Rename the cart module", "5e550012")
    with freeze_time(NOW):
        summaries(SHOP, 20)
        summaries("/src/blog", 3)
        pnpm = memories.save("preference", "Use pnpm, not npm", key="package-manager")
        said(9, "observations", "[global] Preference detected: Use pnpm, not npm", pnpm.id)
        memories.save(
            "preference",
            "Use tabs in Makefiles",
            state="pending",
            confidence=0.5,
            source=Source(channel="hook:UserPromptSubmit", session_id="c0ffee00"),
        )
        for name, sections in bullets.items():
            decided = "".join(sections.get("decisions", []))
            observed = "".join(sections.get("observations", []))
            write_note(memory_home, name, note(name, decisions=decided, observations=observed))
        proposed = proposals.proposals()
        reviewed = proposals.review()
    assert [p.candidate.text for p in proposed] == [DECISION]
    assert [s.name for s in proposed[0].assessment.strong] == ["referenced", "repeated", "core"]
    assert sorted(p.candidate.text for p in reviewed) == [
        "Try the new linter on one page",
        "Use tabs in Makefiles",
    ]


def test_a_decision_memory_memory_md_no_longer_lists_is_proposed_from_the_notes_citing_it(
    memory_home: Path,
) -> None:
    with freeze_time("2026-11-20 09:00:00"):
        old = memories.save("context", "Use argon2 for passwords", project=SHOP, tags=["decision"])
    with freeze_time("2026-11-21 09:00:00"):
        for n in range(5):  # MEMORY.md lists a project's 5 newest decisions
            memories.save("context", f"Decision number {n}", project=SHOP, tags=["decision"])
    for day in ("2026-11-20", "2026-11-22", "2026-11-24"):
        bullet = f"- 10:00 [shop] Use argon2 for passwords ({old.id})\n"
        write_note(memory_home, day, note(day, decisions=bullet))
    with freeze_time(NOW):
        summaries(SHOP, 2)
        [found] = proposals.proposals()
        assert found.memory_id == old.id
        assert [s.name for s in found.assessment.strong] == ["repeated", "core"]
        assert found.assessment.strong[0].evidence == "seen on 3 days"
        promoted = proposals.accept(found.id)
    assert promoted.outcome == "pinned in MEMORY.md"
    assert "memory-md" in memories.get(old.id).tags


@pytest.mark.usefixtures("memory_home")
def test_a_liking_asked_for_again_in_other_words_in_later_sessions_is_proposed() -> None:
    liking = "I prefer small, focused commits"
    with freeze_time("2026-11-02 10:00:00"):
        memories.save(
            "preference",
            liking,
            state="pending",
            source=Source(
                channel="hook:UserPromptSubmit", session_id="1a2b3c4d-0000-4000-8000-000000000001"
            ),
        )
    asks = {
        "1a2b3c4d-0000-4000-8000-000000000001": "We need an orders table.",
        "5e6f7a8b-0000-4000-8000-000000000002": "Commit the network split as small commits.",
        "9c0d1e2f-0000-4000-8000-000000000003": "Commit the refund fix as two small commits.",
        # shares no subject word with the liking: no reference
        "3a4b5c6d-0000-4000-8000-000000000004": "Show me the diff of the cart.",
    }
    for day, (session, ask) in enumerate(asks.items(), start=2):
        with freeze_time(f"2026-11-{day:02d} 11:00:00"):
            memories.save(
                "context",
                f"Session {session} 2026-11-{day:02d}\nAsked: {ask}",
                key=f"session:{session}",
                project="/src/api",
                tags=["session-summary"],
                source=Source(channel="hook:SessionEnd", session_id=session),
            )
    with freeze_time("2026-11-10 09:00:00"):
        [found] = proposals.proposals()
    assert found.candidate.text == liking
    strong = {s.name: s.evidence for s in found.assessment.strong}
    assert strong["referenced"] == "asked for again in session 5e6f7a8b on 2026-11-03"
    assert strong["core"].startswith("of api")  # the project it was stated in
    assert "repeated" in strong  # its own session and the two that asked for it
