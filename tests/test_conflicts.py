"""Conflicts between memories: each kind in English and Korean, severity, the ledger,
resolution and the states after it, auto-resolution, the behaviour rule at its boundary,
and the SessionStart that names an open high conflict once (docs/METADATA.md §3)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import conflicts, memories
from artibot_memory.api.ingest import apply_records
from artibot_memory.cli.app import main
from artibot_memory.core.errors import UsageError
from artibot_memory.lifecycle import handle, ingest
from artibot_memory.notes import conflicts as rules
from artibot_memory.plugin import fast
from artibot_memory.recall.context import refresh_start_cache, start_session
from artibot_memory.recall.startcache import serve_cached_start
from artibot_memory.store import ledger
from artibot_memory.store.model import Evidence, Memory, MemoryType, Scope, Source, State

SHOP = "/src/shop"
RULE = {"why": "stated as a rule", "confidence": 0.8}
LIKING = {"why": "a liking", "confidence": 0.5, "state": "pending"}


def prompt(session: str, line: int = 3) -> Source:
    return Source(
        channel="hook:UserPromptSubmit", session_id=session, path="/t/transcript.jsonl", line=line
    )


def only_conflict(home: Path) -> ledger.Entry:
    [entry] = ledger.entries(home)
    return entry


def states(*ids: str) -> list[State]:
    return [memories.get(memory_id).state for memory_id in ids]


# --- each kind, in English and Korean ------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("Always use pnpm", "Always use npm", id="english"),
        pytest.param("항상 pnpm을 써", "항상 npm 써", id="korean"),
    ],
)
def test_a_new_value_of_a_key_supersedes_the_old_and_is_logged(
    memory_home: Path, old: str, new: str
) -> None:
    first = memories.save("preference", old, key="package-manager", source=prompt("s1"), **RULE)
    second = memories.save("preference", new, key="package-manager", source=prompt("s2"), **RULE)
    entry = only_conflict(memory_home)
    assert (entry.kind, entry.label, entry.status) == ("same-key", "package-manager", "open")
    assert entry.new is not None
    assert entry.old is not None
    assert (entry.new.id, entry.old.id) == (second.id, first.id)
    assert states(second.id, first.id) == [State.ACTIVE, State.SUPERSEDED]
    held = memories.get(first.id).details["conflicts"]
    assert held == [
        {
            "id": entry.id,
            "with": second.id,
            "kind": "same-key",
            "severity": "high",
            "status": "open",
            "found": held[0]["found"],
        }
    ]
    assert second.id in memories.get(first.id).related


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        pytest.param("Always use black", "Never use black", "polarity", id="polarity-english"),
        pytest.param("항상 black 써", "black 쓰지 마", "polarity", id="polarity-korean"),
        pytest.param("Use argon2 instead of bcrypt", "Use bcrypt", "instead", id="instead-english"),
        pytest.param("bcrypt 대신 argon2 써", "bcrypt 써", "instead", id="instead-korean"),
    ],
)
def test_preferences_without_a_key_that_disagree_are_logged(
    memory_home: Path, old: str, new: str, kind: str
) -> None:
    first = memories.save("preference", old, source=prompt("s1"))
    second = memories.save("preference", new, source=prompt("s2"))
    entry = only_conflict(memory_home)
    assert entry.kind == kind
    assert entry.id == rules.conflict_id(first.id, second.id)
    assert states(first.id, second.id) == [State.ACTIVE, State.ACTIVE]  # until resolved


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("Chose MySQL for the orders", "Decided: never use MySQL", id="english"),
        pytest.param("MySQL 대신 Postgres로 하자", "MySQL로 하자", id="korean"),
    ],
)
def test_two_decisions_of_one_project_that_disagree_are_logged(
    memory_home: Path, old: str, new: str
) -> None:
    memories.save("context", old, project=SHOP, tags=["decision"])
    memories.save("context", new, project="/src/blog", tags=["decision"])
    assert ledger.entries(memory_home) == []  # another project's decision is its own
    memories.save("context", new, project=SHOP, tags=["decision"])
    assert only_conflict(memory_home).kind == "decision"


def test_preferences_that_agree_or_concern_other_things_are_no_conflict(memory_home: Path) -> None:
    memories.save("preference", "Always use pnpm")
    memories.save("preference", "Use pnpm for the scripts too")
    memories.save("preference", "Never use yarn")
    memories.save("preference", "Should we never use pnpm?")
    assert ledger.entries(memory_home) == []


# --- severity -------------------------------------------------------------------------------


def memory(scope: Scope, state: State, confidence: float, sessions: int) -> Memory:
    at = datetime(2026, 11, 1, tzinfo=timezone.utc)
    return Memory(
        id=f"pref-{sessions}{confidence}",
        type=MemoryType.PREFERENCE,
        text="Use pnpm",
        scope=scope,
        state=state,
        confidence=confidence,
        evidence=[Evidence(at=at, session_id=f"s{i}") for i in range(sessions)],
        created_at=at,
        updated_at=at,
        last_seen=at,
    )


@pytest.mark.parametrize(
    ("new", "old", "level"),
    [
        pytest.param(
            memory(Scope.PROJECT, State.PENDING, 0.5, 1),
            memory(Scope.PROJECT, State.PENDING, 0.5, 2),
            "low",
            id="neither-established-project",
        ),
        pytest.param(
            memory(Scope.PROJECT, State.PENDING, 0.5, 1),
            memory(Scope.GLOBAL, State.PENDING, 0.5, 1),
            "medium",
            id="older-global",
        ),
        pytest.param(
            memory(Scope.PROJECT, State.PENDING, 0.5, 1),
            memory(Scope.PROJECT, State.PENDING, 0.5, 3),
            "medium",
            id="older-established-by-sessions",
        ),
        pytest.param(
            memory(Scope.GLOBAL, State.ACTIVE, 0.8, 1),
            memory(Scope.GLOBAL, State.PENDING, 0.5, 1),
            "high",
            id="newer-a-rule-older-global",
        ),
        pytest.param(
            memory(Scope.GLOBAL, State.ACTIVE, 0.8, 1),
            memory(Scope.GLOBAL, State.ACTIVE, 0.9, 4),
            "high",
            id="all-three-points",
        ),
    ],
)
def test_severity_counts_established_sides_and_a_global_older_one(
    new: Memory, old: Memory, level: str
) -> None:
    assert rules.severity(new, old, 3) == level


# --- the ledger -----------------------------------------------------------------------------


def test_the_ledger_reads_back_what_it_renders_and_a_resolution_keeps_the_other_lines() -> None:
    entry = ledger.Entry(
        id="cf-3f9a2c1b",
        severity="high",
        status="open",
        kind="same-key",
        label="package-manager",
        new=ledger.Side("Use npm", "pref-01", "2026-11-30", "transcript.jsonl:14", "hook:X"),
        old=ledger.Side("Use pnpm", "pref-02", "2026-11-02", "MEMORY.md:12", "MEMORY.md"),
        context="global; old stated in 4 sessions over 3 days, new stated in 1",
        proposal="keep new — the newer statement, stated as a rule",
    )
    text = rules.with_entry("", "2026-11-30", entry)
    assert text.splitlines()[:3] == ["# Conflicts 2026-11-30", "", "## cf-3f9a2c1b · high · open"]
    [read] = ledger.parse_ledger(text, "conflicts/2026-11-30.md")
    assert read == ledger.Entry(**{**entry.__dict__, "path": "conflicts/2026-11-30.md", "line": 3})
    resolved = rules.with_resolution(
        text, entry.id, "2026-12-01 kept new; pref-02 (old) superseded"
    )
    before, after = text.splitlines(), resolved.splitlines()
    assert after[2] == "## cf-3f9a2c1b · high · resolved"
    assert after[3:-1] == before[3:]
    assert after[-1] == "- resolution: 2026-12-01 kept new; pref-02 (old) superseded"
    [again] = ledger.parse_ledger(resolved, "x")
    assert again.status == "resolved"


def test_the_ledger_file_is_named_by_the_local_day_it_was_found(memory_home: Path) -> None:
    with freeze_time("2026-11-30T10:00:00Z"):
        memories.save("preference", "Always use black")
        memories.save("preference", "Never use black")
    assert [Path(p).name for p in ledger.ledger_files(memory_home)] == ["2026-11-30.md"]
    entry = only_conflict(memory_home)
    assert entry.new is not None
    assert entry.new.text == "Never use black"


def test_the_same_pair_is_logged_once(memory_home: Path) -> None:
    memories.save("preference", "Always use black")
    memories.save("preference", "Never use black")
    memories.save("preference", "Never use black")  # a repeat merges: the same pair again
    conflicts.scan(memory_home)
    assert len(ledger.entries(memory_home)) == 1


# --- resolution -----------------------------------------------------------------------------


def _high(home: Path) -> tuple[Memory, Memory, ledger.Entry]:
    old = memories.save("preference", "Always use pnpm", key="package-manager", **RULE)
    new = memories.save("preference", "Use npm", key="package-manager", **RULE)
    return new, old, only_conflict(home)


@pytest.mark.parametrize(
    ("keep", "new_state", "old_state"),
    [
        pytest.param("new", State.ACTIVE, State.SUPERSEDED, id="new"),
        pytest.param("old", State.SUPERSEDED, State.ACTIVE, id="old"),
        pytest.param("both", State.ACTIVE, State.ACTIVE, id="both"),
    ],
)
def test_a_resolution_sets_both_states_and_appends_to_the_ledger(
    memory_home: Path, keep: str, new_state: State, old_state: State
) -> None:
    new, old, entry = _high(memory_home)
    with freeze_time("2026-12-01T09:00:00Z"):
        done = conflicts.resolve(entry.id, keep, "we switched", memory_home)
    assert states(new.id, old.id) == [new_state, old_state]
    resolved = only_conflict(memory_home)
    assert resolved.status == "resolved"
    assert resolved.resolutions == [done.line]
    assert done.line.startswith(f"2026-12-01 kept {keep}; ")
    assert done.line.endswith(' — "we switched"')
    for side in (new.id, old.id):
        [held] = memories.get(side).details["conflicts"]
        assert (held["status"], held["resolution"]) == ("resolved", keep)
    assert len(memories.list_memories("preference")) == 2  # nothing is deleted


def test_an_unknown_or_resolved_conflict_is_a_one_line_error(memory_home: Path) -> None:
    _new, _old, entry = _high(memory_home)
    with pytest.raises(UsageError, match="no conflict 'cf-00000000'"):
        conflicts.resolve("cf-00000000", "new", home=memory_home)
    conflicts.resolve(entry.id, "new", home=memory_home)
    with pytest.raises(UsageError, match="resolved already"):
        conflicts.resolve(entry.id, "old", home=memory_home)


def test_a_low_conflict_resolves_itself_with_a_note(memory_home: Path) -> None:
    old = memories.save("preference", "Always use tabs", project=SHOP, scope="project", **LIKING)
    new = memories.save("preference", "Never use tabs", project=SHOP, scope="project", **LIKING)
    entry = only_conflict(memory_home)
    assert (entry.severity, entry.status) == ("low", "resolved")
    assert entry.resolutions[0].endswith(
        '— "Temporarily preferred Never use tabs over Always use tabs"'
    )
    assert states(new.id, old.id) == [State.PENDING, State.SUPERSEDED]


def test_a_low_conflict_stays_open_when_the_config_says_so(memory_home: Path) -> None:
    memory_home.mkdir(parents=True, exist_ok=True)
    (memory_home / "config.toml").write_text("[conflicts]\nauto_resolve_low = false\n")
    memories.save("preference", "Always use tabs", project=SHOP, scope="project", **LIKING)
    memories.save("preference", "Never use tabs", project=SHOP, scope="project", **LIKING)
    assert only_conflict(memory_home).status == "open"


# --- write time never loses a save; maintenance finds what write time missed ----------------


def test_a_failing_check_never_loses_the_save(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> list[rules.Found]:
        raise RuntimeError

    monkeypatch.setattr(rules, "detect", broken)
    memories.save("preference", "Always use black")
    saved = memories.save("preference", "Never use black")
    assert memories.get(saved.id).text == "Never use black"
    assert "conflicts: RuntimeError" in (memory_home / "logs" / "hooks.log").read_text()


def test_the_scan_logs_pairs_saved_before_conflicts_were_checked(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conflicts, "check", lambda *_a: [])
    memories.save("preference", "항상 black 써")
    memories.save("preference", "black 쓰지 마")
    memories.save("context", "MySQL 대신 Postgres로 하자", project=SHOP, tags=["decision"])
    memories.save("context", "MySQL로 하자", project=SHOP, tags=["decision"])
    monkeypatch.undo()
    found = conflicts.scan(memory_home)
    assert sorted(entry.kind for entry in found) == ["decision", "polarity"]


# --- behaviour ------------------------------------------------------------------------------


def npm_run(session: str, at: str) -> dict[str, Any]:
    return {
        "event": "PostToolUse",
        "at": at,
        "session_id": session,
        "cwd": SHOP,
        "tool_name": "Bash",
        "command": "npm install",
        "tool_use_id": f"tu-{session}-{at}",
    }


@pytest.mark.parametrize(
    "stated",
    [pytest.param("Always use pnpm", id="english"), pytest.param("항상 pnpm 써", id="korean")],
)
def test_contrary_commands_are_counter_evidence_then_a_conflict_at_the_boundary(
    memory_home: Path, stated: str
) -> None:
    preference = memories.save("preference", stated, key="package-manager", **RULE)
    apply_records([npm_run("s1", "2026-11-01T10:00:00Z"), npm_run("s1", "2026-11-01T10:05:00Z")])
    apply_records([npm_run("s2", "2026-11-02T10:00:00Z")])
    against = memories.get(preference.id).counter_evidence
    assert [(e.session_id, getattr(e, "kind", None)) for e in against] == [
        ("s1", "contradicted"),
        ("s2", "contradicted"),
    ]
    assert ledger.entries(memory_home) == []  # behaviour_sessions - 1: not yet a conflict
    apply_records([npm_run("s3", "2026-11-03T10:00:00Z")])
    entry = only_conflict(memory_home)
    assert entry.kind == "behaviour"
    assert entry.old is not None
    assert entry.new is not None
    assert entry.old.id == preference.id
    assert entry.new.id.startswith("cmd-")


def test_commands_that_follow_the_preference_are_no_counter_evidence() -> None:
    preference = memories.save("preference", "Always use pnpm", key="package-manager", **RULE)
    run = {**npm_run("s1", "2026-11-01T10:00:00Z"), "command": "pnpm install"}
    apply_records([run, {**npm_run("s2", "2026-11-02T10:00:00Z"), "command": "ls -la"}])
    assert memories.get(preference.id).counter_evidence == []


# --- SessionStart names an open high conflict once ------------------------------------------


def context_text(output: dict[str, Any] | None) -> str:
    return str((output or {}).get("hookSpecificOutput", {}).get("additionalContext", ""))


def test_session_start_names_an_open_high_conflict_once(memory_home: Path) -> None:
    _new, _old, entry = _high(memory_home)
    first = context_text(start_session({"cwd": SHOP}))
    assert entry.id in first
    assert f"artibot-memory conflicts resolve {entry.id} --keep new|old|both" in first
    assert entry.id not in context_text(start_session({"cwd": SHOP}))


def start_then_end(session: str) -> str:
    """A full SessionStart, then its session's end and the worker's ingest (which re-caches)."""
    text = context_text(start_session({"cwd": SHOP}))
    fast.defer("SessionEnd", {"session_id": session, "cwd": SHOP, "transcript_path": "/none"})
    ingest()
    return text


def test_a_cached_start_does_not_hide_a_new_conflict_nor_repeat_a_named_one(
    memory_home: Path,
) -> None:
    memories.save("preference", "Prefer small commits")
    start_then_end("s1")
    assert serve_cached_start({"cwd": SHOP})[0] is True
    _new, _old, entry = _high(memory_home)
    refresh_start_cache(SHOP)  # what the SessionEnd worker does once it stored the session
    assert serve_cached_start({"cwd": SHOP}) == (False, None)  # the full path must name it
    assert entry.id in start_then_end("s2")
    served, output = serve_cached_start({"cwd": SHOP})
    assert served
    assert entry.id not in context_text(output)


def test_a_resolved_or_low_conflict_is_not_named(memory_home: Path) -> None:
    _new, _old, entry = _high(memory_home)
    conflicts.resolve(entry.id, "new", home=memory_home)
    memories.save("preference", "Always use tabs", project=SHOP, scope="project", **LIKING)
    memories.save("preference", "Never use tabs", project=SHOP, scope="project", **LIKING)
    assert "disagree" not in context_text(start_session({"cwd": SHOP}))


def test_a_behaviour_conflict_kept_old_leaves_the_command_and_counts_afresh(
    memory_home: Path,
) -> None:
    preference = memories.save("preference", "Always use pnpm", key="package-manager", **RULE)
    for day, session in enumerate(["s1", "s2", "s3"], start=1):
        apply_records([npm_run(session, f"2026-11-0{day}T10:00:00Z")])
    entry = only_conflict(memory_home)
    assert entry.new is not None
    conflicts.resolve(entry.id, "old", "a one-off migration", memory_home)
    assert memories.get(entry.new.id).state is State.ACTIVE  # what ran stays what ran
    assert memories.get(preference.id).state is State.ACTIVE
    with freeze_time("2026-12-05T10:00:00Z"):
        apply_records([npm_run("s4", "2026-12-05T10:00:00Z")])
    assert len(ledger.entries(memory_home)) == 1  # one session since the answer: not again


def test_an_editor_or_shell_run_is_no_behaviour_against_a_preference() -> None:
    preference = memories.save("preference", "Always use zsh", key="shell", **RULE)
    run = {**npm_run("s1", "2026-11-01T10:00:00Z"), "command": "bash deploy.sh"}
    apply_records([run])
    assert memories.get(preference.id).counter_evidence == []


def test_the_scan_leaves_superseded_history_alone(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conflicts, "check", lambda *_a: [])
    memories.save("preference", "Use yarn", key="package-manager")
    memories.save("preference", "Use pnpm", key="package-manager")
    memories.save("preference", "Use npm", key="package-manager")
    monkeypatch.undo()
    found = conflicts.scan(memory_home)
    assert [(e.kind, e.new.text if e.new else "") for e in found] == [("same-key", "Use npm")]


def test_forgetting_a_memory_takes_its_text_out_of_the_ledger(memory_home: Path) -> None:
    old = memories.save("preference", "Always use black")
    memories.save("preference", "Never use black")
    memories.forget(old.id)
    text = "".join(Path(p).read_text() for p in ledger.ledger_files(memory_home))
    assert "Always use black" not in text
    assert f'"[forgotten]" ({old.id}, ' in text
    assert "Never use black" in text


def test_a_prompt_that_contradicts_an_earlier_one_is_named_at_the_next_start(
    memory_home: Path,
) -> None:
    handle("UserPromptSubmit", {"prompt": "From now on always use pnpm.", "session_id": "s1"})
    handle("UserPromptSubmit", {"prompt": "항상 npm 써줘.", "session_id": "s2"})
    entry = only_conflict(memory_home)
    assert (entry.kind, entry.severity) == ("same-key", "high")
    text = context_text(handle("SessionStart", {"cwd": SHOP, "session_id": "s3"}))
    assert f"artibot-memory conflicts resolve {entry.id} --keep new|old|both" in text
    assert '"항상 npm 써줘"' in text


# --- a reversal: the newer statement says which one wins ------------------------------------


def say(prompt_text: str, session: str, cwd: Path | None = None) -> None:
    payload = {"prompt": prompt_text, "session_id": session, "prompt_id": f"p-{session}"}
    handle("UserPromptSubmit", {**payload, **({"cwd": str(cwd)} if cwd else {})})


def preferences() -> dict[str, State]:
    return {m.text: m.state for m in memories.list_memories() if m.type is MemoryType.PREFERENCE}


@pytest.mark.parametrize(
    ("before", "reversal"),
    [
        pytest.param("Always use npm.", "From now on use pnpm instead of npm.", id="english"),
        pytest.param("항상 npm 써줘.", "이제부터 npm 대신 pnpm 써줘.", id="korean"),
    ],
)
def test_an_explicit_reversal_supersedes_without_a_conflict_through_the_hooks(
    memory_home: Path, capsys: pytest.CaptureFixture[str], before: str, reversal: str
) -> None:
    old_text, new_text = before.rstrip("."), reversal.rstrip(".")
    say(before, "s1")
    say(reversal, "s2")
    assert preferences() == {old_text: State.SUPERSEDED, new_text: State.ACTIVE}
    assert conflicts.open_conflicts(memory_home) == []
    assert ledger.entries(memory_home) == []
    conflicts.scan(memory_home)  # the session start's worker finds nothing either
    assert ledger.entries(memory_home) == []
    started = context_text(handle("SessionStart", {"cwd": SHOP, "session_id": "s3"}))
    assert main(["context", "--project", SHOP]) == 0
    shown = capsys.readouterr().out
    for text in (started, shown):
        assert new_text in text
        assert old_text not in text
        assert "conflicts with" not in text
        assert "disagree" not in text


@pytest.mark.parametrize(
    ("before", "plain"),
    [
        pytest.param("Always use npm.", "Always use pnpm.", id="english"),
        pytest.param("항상 npm 써줘.", "항상 pnpm 써줘.", id="korean"),
    ],
)
def test_two_plain_statements_are_still_a_conflict_to_ask_about(
    memory_home: Path, before: str, plain: str
) -> None:
    say(before, "s1")
    say(plain, "s2")
    [entry] = conflicts.open_conflicts(memory_home)
    assert (entry.kind, entry.severity) == ("same-key", "high")
    text = context_text(handle("SessionStart", {"cwd": SHOP, "session_id": "s3"}))
    assert "conflicts with" in text


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("Use bcrypt", "Use argon2 instead of bcrypt", id="instead"),
        pytest.param("Always use black", "Don't use black anymore", id="anymore"),
        pytest.param("Always use black", "We no longer use black", id="no-longer"),
        pytest.param("bcrypt 써", "bcrypt 대신 argon2 써", id="ko-instead"),
        pytest.param("항상 black 써", "이제 black 쓰지 마", id="ko-now"),
        pytest.param("항상 black 써", "더 이상 black 쓰지 마", id="ko-no-longer"),
    ],
)
def test_a_reversal_without_a_key_supersedes_the_older_preference(
    memory_home: Path, old: str, new: str
) -> None:
    first = memories.save("preference", old, source=prompt("s1"), **RULE)
    second = memories.save("preference", new, source=prompt("s2"), **RULE)
    assert ledger.entries(memory_home) == []
    assert states(first.id, second.id) == [State.SUPERSEDED, State.ACTIVE]
    assert memories.get(second.id).details["supersedes"] == first.id
    assert first.id in memories.get(second.id).related


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("Always use black", "Never use black", id="plain-dont"),
        pytest.param("항상 black 써", "black 쓰지 마", id="ko-plain-dont"),
        pytest.param("Use argon2 instead of bcrypt", "Use bcrypt", id="only-the-older-says"),
    ],
)
def test_a_statement_that_does_not_say_which_wins_is_no_reversal(
    memory_home: Path, old: str, new: str
) -> None:
    first = memories.save("preference", old, source=prompt("s1"))
    second = memories.save("preference", new, source=prompt("s2"))
    assert only_conflict(memory_home).is_open
    assert states(first.id, second.id) == [State.ACTIVE, State.ACTIVE]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "We'll go with MySQL for the orders database",
            "Switching to Postgres for the orders database instead of MySQL",
            id="english",
        ),
        pytest.param("MySQL로 하자", "MySQL 대신 Postgres로 하자", id="korean"),
    ],
)
def test_a_decision_that_replaces_an_earlier_one_supersedes_it(
    memory_home: Path, old: str, new: str
) -> None:
    first = memories.save("context", old, project=SHOP, tags=["decision"])
    second = memories.save("context", new, project=SHOP, tags=["decision"])
    assert ledger.entries(memory_home) == []
    assert states(first.id, second.id) == [State.SUPERSEDED, State.ACTIVE]


def test_a_projects_reversal_of_a_global_preference_is_its_exception(memory_home: Path) -> None:
    general = memories.save("preference", "Always use black", source=prompt("s1"), **RULE)
    here = memories.save(
        "preference",
        "In this repo use ruff instead of black",
        project=SHOP,
        scope="project",
        source=prompt("s2"),
        **RULE,
    )
    assert ledger.entries(memory_home) == []
    assert states(general.id, here.id) == [State.ACTIVE, State.ACTIVE]  # black elsewhere


def test_a_conflict_opened_for_a_reversal_before_is_resolved_by_the_scan(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patched:  # as every reversal was, before
        patched.setattr(rules, "reverses", lambda *_sides: False)
        old = memories.save("preference", "Always use npm", key="package-manager", **RULE)
        new = memories.save("preference", "From now on use pnpm", key="package-manager", **RULE)
    assert only_conflict(memory_home).is_open
    conflicts.scan(memory_home)
    entry = only_conflict(memory_home)
    assert not entry.is_open
    said = f'kept new; {old.id} (old) superseded — "{conflicts.REVERSAL_NOTE}"'
    assert entry.resolutions[-1].endswith(said)
    assert states(new.id, old.id) == [State.ACTIVE, State.SUPERSEDED]
    assert "conflicts with" not in context_text(start_session({"cwd": SHOP}))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param("From now on use pnpm", True, id="from-now-on"),
        pytest.param("Going forward, always use pnpm", True, id="going-forward"),
        pytest.param("We switched to pnpm", True, id="switched-to"),
        pytest.param("Use pnpm now", True, id="now"),
        pytest.param("Always use pnpm", False, id="plain"),
        pytest.param("Always use pnpm right now", False, id="right-now"),
        pytest.param("Don't add any more dependencies than pnpm needs", False, id="any-more-of"),
        pytest.param("앞으로 pnpm 써", True, id="ko-from-now-on"),
        pytest.param("pnpm으로 바꾸자", True, id="ko-change"),
        pytest.param("항상 pnpm 써", False, id="ko-plain"),
        pytest.param("대체로 pnpm을 써", False, id="ko-generally-is-no-replace"),
        pytest.param("변경 사항마다 pnpm으로 테스트해", False, id="ko-changes-is-no-change"),
    ],
)
def test_what_counts_as_saying_the_newer_one_wins(text: str, says: bool) -> None:
    at = datetime(2026, 11, 1, tzinfo=timezone.utc)
    old, new = (
        Memory(id=i, type=MemoryType.PREFERENCE, text=t, created_at=at, updated_at=at, last_seen=at)
        for i, t in (("p-old", "Always use yarn"), ("p-new", text))
    )
    assert rules.reverses(new, old) is says


# ---- a fact's update replaces it (issue 25: "staging is on Render" after the move)


def test_a_fact_that_says_it_changed_supersedes_the_old_one_without_a_conflict(
    memory_home: Path,
) -> None:
    with freeze_time("2026-10-07"):
        render = memories.save(
            "context", "staging is on Render, it deploys from render.yaml", project="/src/api"
        )
        database = memories.save("context", "the staging DB is Postgres 15", project="/src/api")
    with freeze_time("2026-10-12"):
        fly = memories.save("context", "스테이징은 이제 fly.io로 배포해", project="/src/api")
        assert memories.get(render.id).state is State.SUPERSEDED
        assert memories.get(database.id).state is State.ACTIVE  # only "staging" in common
        assert memories.get(fly.id).state is State.ACTIVE
    assert ledger.entries(memory_home) == []


def test_a_fact_said_again_without_a_change_replaces_nothing() -> None:
    with freeze_time("2026-10-07"):
        old = memories.save("context", "staging deploys from render.yaml", project="/src/api")
        memories.save(
            "context", "the staging deploy reads render.yaml at the root", project="/src/api"
        )
        assert memories.get(old.id).state is State.ACTIVE
