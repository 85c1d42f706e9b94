"""Entity profiles (docs/EVOLVE.md §4): touches, due, the merge, profile set, forget, the verb."""

from __future__ import annotations

import io
import json
from datetime import date
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.api import entities, memories
from artibot_memory.cli.app import main
from artibot_memory.core import clock
from artibot_memory.core.errors import UsageError
from artibot_memory.evolve import entities as rules
from artibot_memory.store import audit
from artibot_memory.store.model import Memory

SHOP = "/src/shop"
SHOP_FILE = "entities/projects/shop.md"


def note(home: Path, day: str, *bullets: str) -> None:
    """Write a daily note as notes/daily.py does, the bullets under Events."""
    weekday = date.fromisoformat(day).strftime("%A")
    body = "".join(f"- {bullet}\n" for bullet in bullets)
    folder = home / "daily"
    folder.mkdir(parents=True, exist_ok=True)
    text = (
        f"# {day} ({weekday})\n\n## Events\n{body}\n## Decisions\n\n## Observations\n\n## Notes\n"
    )
    (folder / f"{day}.md").write_text(text, encoding="utf-8")


def shop_bullets(count: int, project: str = "shop") -> list[str]:
    return [
        f"10:{n:02d} [{project}] Edited src/cart{n}.ts (session 1a2b3c4d:{n})" for n in range(count)
    ]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(home: Path) -> dict[str, bytes | None]:
    """Every path under the home (folders too), with a file's bytes."""
    return {
        str(p.relative_to(home)): p.read_bytes() if p.is_file() else None
        for p in sorted(home.rglob("*"))
    }


# ---- touches and due


def test_touches_are_counted_across_days_per_project_person_and_tool(memory_home: Path) -> None:
    with freeze_time("2026-11-20 09:00"):
        memories.save("context", "Sara owns the billing service", tags=["person:sara"])
    note(memory_home, "2026-11-28", "09:00 [shop] Asked Sara about `pnpm test` (session a:1)")
    note(memory_home, "2026-11-29", "09:00 [shop] Ran pnpm install (session b:1)")
    note(memory_home, "2026-11-30", "09:00 [blog] Sara reviewed the post (session c:1)")
    with freeze_time("2026-12-01 09:00"):
        world = entities.gather(memory_home, clock.now())
        counted = rules.count_since(world.touches, {}, clock.now())
    assert counted["projects/shop"] == 2
    assert counted["projects/blog"] == 1
    assert counted["people/sara"] == 2
    assert counted["areas/pnpm"] == 2


@pytest.mark.parametrize(
    ("bullets", "is_due"),
    [pytest.param(4, False, id="one below"), pytest.param(5, True, id="at the threshold")],
)
def test_an_entity_is_due_at_the_threshold_and_not_one_below(
    memory_home: Path, bullets: int, is_due: bool
) -> None:
    note(memory_home, "2026-11-30", *shop_bullets(bullets))
    with freeze_time("2026-12-01 09:00"):
        found = dict(entities.due(memory_home))
    assert ("projects/shop" in found) is is_due
    assert found.get("projects/shop", bullets) == bullets


def test_only_touches_after_the_last_consolidation_count(memory_home: Path) -> None:
    note(memory_home, "2026-11-30", *shop_bullets(5))
    with freeze_time("2026-12-01 09:00"):
        [done] = entities.consolidate(memory_home)
        assert done.touches == 5
        assert entities.consolidate(memory_home) == []  # idempotent: nothing due right after
    note(memory_home, "2026-12-02", *shop_bullets(4))
    with freeze_time("2026-12-02 18:00"):
        assert dict(entities.due(memory_home)).get("projects/shop") is None  # 4 since: below
    note(memory_home, "2026-12-03", *shop_bullets(1))
    with freeze_time("2026-12-03 18:00"):
        assert dict(entities.due(memory_home))["projects/shop"] == 5


def test_a_session_summary_touches_its_project_and_the_tools_of_its_commands(
    memory_home: Path,
) -> None:
    with freeze_time("2026-11-30 10:00"):
        for n in range(5):
            memories.save(
                "context",
                f"Session 1a2b3c{n:02d} 2026-11-30 10:02–10:45 UTC, branch fix/redirect\n"
                "Commands (3 total, 1 distinct): `pnpm test` ×3",
                key=f"session:1a2b3c{n:02d}",
                project=SHOP,
                tags=["session-summary"],
            )
    with freeze_time("2026-12-01 09:00"):
        found = dict(entities.due(memory_home))
    assert found == {"projects/shop": 5, "areas/pnpm": 5}


def test_korean_names_and_text_in_a_bullet_touch_their_own_entities(memory_home: Path) -> None:
    with freeze_time("2026-11-20 09:00"):
        memories.save("context", "지민 님이 결제 서비스 담당이야", tags=["person:지민"])
    bullets = [
        f"10:0{n} [쇼핑몰] 지민에게 pnpm 설정을 물어봤다 (session 1a2b3c4d:{n})" for n in range(5)
    ]
    note(memory_home, "2026-11-30", *bullets)
    with freeze_time("2026-12-01 09:00"):
        done = {c.entity: c for c in entities.consolidate(memory_home)}
    assert set(done) == {"projects/쇼핑몰", "people/지민", "areas/pnpm"}
    person = (memory_home / "entities/people/지민.md").read_text(encoding="utf-8")
    assert person.startswith("# 지민\n")
    assert "Linked to projects: 쇼핑몰." in person
    assert done["people/지민"].facts  # the fact about 지민


# ---- the file


def test_a_consolidation_writes_the_four_sections_the_log_and_the_audit_line(
    memory_home: Path,
) -> None:
    with freeze_time("2026-11-28 09:00"):
        fact = memories.save("context", "The staging database resets every Sunday", project=SHOP)
        decision = memories.save(
            "context", "Decided: Postgres for the orders database", project=SHOP, tags=["decision"]
        )
        pref = memories.save("preference", "Use pnpm, not npm", project=SHOP, scope="project")
        error = memories.save("error", "TypeError: x is undefined", project=SHOP)
        memories.save("command", "pnpm test", project=SHOP)
    note(memory_home, "2026-11-30", *shop_bullets(6))
    with freeze_time("2026-12-01 09:00"):
        [done] = entities.consolidate(
            memory_home, belief_of=lambda m: (0.91, "stable") if m.id == pref.id else None
        )
    text = (memory_home / SHOP_FILE).read_text(encoding="utf-8")
    assert done.created
    assert done.path == SHOP_FILE
    assert done.warnings == []
    assert done.facts == [fact.id]
    assert set(done.beliefs) == {decision.id, pref.id}
    assert f"- Use pnpm, not npm · conf 0.91 · stable <!-- am:{pref.id} -->" in text
    assert f"<!-- am:{fact.id} -->" in text
    assert f"Recent decisions: {decision.id} (2026-11-28)." in text
    assert f"Open errors: {error.id}." in text
    assert "Main tools: pnpm; most run: `pnpm test` (1 run, cmd-" in text
    assert text.rstrip().endswith("- 2026-12-01 consolidated: touches=+6, 1 facts, 2 beliefs")
    [line] = [e for e in audit.read(memory_home) if e.type == "CONSOLIDATE"]
    assert line.message == f"{SHOP_FILE} touches=+6"
    state = json.loads((memory_home / "entities/.state.json").read_text(encoding="utf-8"))
    assert state["entities"]["projects/shop"]["touches"] == 6


def test_a_project_profile_says_when_it_was_last_active_and_on_which_branch(
    memory_home: Path,
) -> None:
    for day in ("2026-10-02", "2026-11-30"):
        with freeze_time(f"{day} 10:45"):
            memories.save(
                "context",
                f"Session {day[-2:]}1a2b3c {day} 10:02–10:45 UTC, branch fix/redirect\nAsked: x",
                key=f"session:{day}",
                project=SHOP,
                tags=["session-summary"],
            )
    note(memory_home, "2026-11-30", *shop_bullets(5))
    with freeze_time("2026-12-01 09:00"):
        [done] = entities.consolidate(memory_home)
    assert done.profile.startswith(
        "Active: last session 2026-11-30 (branch fix/redirect), 2 sessions since 2026-10-02."
    )
    assert done.facts == []  # a session summary is no fact


def test_the_merge_keeps_hand_edits_outside_the_managed_sections_and_every_log_line(
    memory_home: Path,
) -> None:
    note(memory_home, "2026-11-30", *shop_bullets(5))
    with freeze_time("2026-12-01 09:00"):
        entities.consolidate(memory_home)
    path = memory_home / SHOP_FILE
    edited = path.read_text(encoding="utf-8").replace(
        "## Profile", "My own words above.\n\n## Profile", 1
    )
    edited = edited.replace("## Log\n", "## Log\n- 2026-12-01 a line of my own\n", 1)
    edited += "\n## Links\n- https://example.com/shop  (mine)\n"
    path.write_text(edited, encoding="utf-8")
    note(memory_home, "2026-12-02", *shop_bullets(5))
    with freeze_time("2026-12-02 18:00"):
        memories.save("context", "Orders ship from Busan", project=SHOP)
        [done] = entities.consolidate(memory_home)
    text = path.read_text(encoding="utf-8")
    assert "My own words above.\n\n## Profile" in text
    assert text.endswith("\n## Links\n- https://example.com/shop  (mine)\n")
    log = text.split("## Log\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert log == [
        "- 2026-12-01 a line of my own",
        "- 2026-12-01 consolidated: touches=+5, 0 facts, 0 beliefs",
        "- 2026-12-02 consolidated: touches=+5, 1 facts, 0 beliefs",
    ]
    assert "Orders ship from Busan" in text
    assert done.warnings == []


def test_merge_adds_a_missing_managed_section_before_the_log() -> None:
    text = "# shop\n\nmine\n\n## Log\n- 2026-12-01 x\n"
    merged = rules.merge(text, {"Profile": ["P."], "Active Facts": []}, ["- 2026-12-02 y"])
    assert merged == (
        "# shop\n\nmine\n\n## Profile\nP.\n\n## Active Facts\n\n"
        "## Log\n- 2026-12-01 x\n- 2026-12-02 y\n"
    )


def test_a_set_profile_is_kept_then_marked_for_review_when_its_facts_change(
    memory_home: Path,
) -> None:
    note(memory_home, "2026-11-30", *shop_bullets(5))
    with freeze_time("2026-12-01 09:00"):
        entities.consolidate(memory_home)
        entities.profile_set(memory_home, "projects/shop", "Shop sells shoes online.\n")
    note(memory_home, "2026-12-02", *shop_bullets(5))
    with freeze_time("2026-12-02 18:00"):
        [kept] = entities.consolidate(memory_home)
    assert (kept.profile, kept.review) == ("Shop sells shoes online.", False)
    note(memory_home, "2026-12-03", *shop_bullets(5))
    with freeze_time("2026-12-03 18:00"):
        memories.save("context", "Checkout moved to Stripe", project=SHOP)
        [marked] = entities.consolidate(memory_home)
    text = (memory_home / SHOP_FILE).read_text(encoding="utf-8")
    assert marked.review
    assert (
        "## Profile\n> Review: the facts or beliefs below changed since this profile was set"
        in text
    )
    assert "(2026-12-01).\nShop sells shoes online.\n" in text
    assert "- 2026-12-01 profile set\n" in text
    assert "- 2026-12-03 facts changed under the set profile: review\n" in text
    assert [e.message for e in audit.read(memory_home)][-1] == f"{SHOP_FILE} touches=+5 (review)"


def test_a_dry_run_writes_nothing_at_all(memory_home: Path) -> None:
    note(memory_home, "2026-11-30", *shop_bullets(5))
    first = snapshot(memory_home)
    with freeze_time("2026-12-01 09:00"):
        assert [c.entity for c in entities.consolidate(memory_home, dry_run=True)] == [
            "projects/shop"
        ]
        assert snapshot(memory_home) == first  # no entities/ folder, no lock, no log
        entities.consolidate(memory_home)
    note(memory_home, "2026-12-02", *shop_bullets(6))
    before = snapshot(memory_home)
    with freeze_time("2026-12-02 18:00"):
        [dry] = entities.consolidate(memory_home, dry_run=True)
        assert snapshot(memory_home) == before
        [real] = entities.consolidate(memory_home)
    assert dry == real
    assert snapshot(memory_home) != before


def test_a_forgotten_memory_leaves_every_entity_file(memory_home: Path) -> None:
    with freeze_time("2026-11-29 09:00"):
        secret = memories.save(
            "context", "The vault door code is taped under the desk", project=SHOP
        )
        memories.save("command", "make deploy-vault", project=SHOP)
    note(memory_home, "2026-11-30", *shop_bullets(5))
    with freeze_time("2026-12-01 09:00"):
        entities.consolidate(memory_home)
        [command] = list(memories.list_memories("command"))
        memories.forget(secret.id)
        memories.forget(command.id)
    text = (memory_home / SHOP_FILE).read_text(encoding="utf-8")
    assert "vault" not in text
    assert secret.id not in text
    assert command.id not in text
    assert "## Active Facts\n\n## Active Beliefs" in text


def test_validate_names_a_missing_section_and_an_unreadable_file(memory_home: Path) -> None:
    folder = memory_home / "entities/projects"
    folder.mkdir(parents=True)
    (folder / "shop.md").write_text("# shop\n\n## Profile\nP.\n", encoding="utf-8")
    (folder / "blog.md").write_bytes(b"\xff\xfe")
    assert entities.validate(folder / "shop.md") == [
        "entities/projects/shop.md: no ## Active Facts section",
        "entities/projects/shop.md: no ## Active Beliefs section",
        "entities/projects/shop.md: no ## Log section",
    ]
    assert entities.validate(folder / "blog.md") == ["entities/projects/blog.md: not UTF-8 text"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("Tom Lee", "tom-lee", id="spaces"),
        pytest.param("지민", "지민", id="hangul"),
        pytest.param("../../etc", "etc", id="no way out"),
        pytest.param("Node.js", "node.js", id="dots"),
    ],
)
def test_an_entity_name_is_a_safe_file_name(name: str, expected: str) -> None:
    assert rules.slug(name) == expected


# ---- the verb


def shop_due(home: Path) -> None:
    note(home, "2026-11-30", *shop_bullets(5))


def test_profile_set_from_stdin_by_a_bare_name_then_show_and_list(
    memory_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shop_due(memory_home)
    monkeypatch.setattr("sys.stdin", io.StringIO("Shop sells shoes.\n"))
    with freeze_time("2026-12-01 09:00"):
        code, out, err = run(capsys, "profile", "set", "shop", "--file", "-")
        assert (code, err) == (0, "")
        assert out == f"set the Profile of projects/shop ({SHOP_FILE})\n"
        code, out, _ = run(capsys, "profile", "show", "project:shop")
        assert code == 0
        assert "## Profile\nShop sells shoes.\n" in out
        code, out, _ = run(capsys, "profile", "list", "--json")
    [row] = [r for r in json.loads(out) if r["entity"] == "projects/shop"]
    assert (row["path"], row["touches"], row["due"]) == (SHOP_FILE, 5, True)


@pytest.mark.parametrize(
    ("entity", "content", "message"),
    [
        pytest.param("nobody", "x", "no entity is named 'nobody'", id="unknown"),
        pytest.param("pnpm", "x", "'pnpm' names 2 entities (areas/pnpm, projects/pnpm)", id="two"),
        pytest.param("shop", "  \n\n", "the profile for projects/shop is empty", id="empty file"),
        pytest.param("teams/x", "x", "no entity is named 'teams/x'", id="no such folder"),
    ],
)
def test_profile_set_refuses_in_one_line_and_writes_nothing(  # noqa: PLR0917 - fixtures
    memory_home: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    entity: str,
    content: str,
    message: str,
) -> None:
    shop_due(memory_home)
    note(memory_home, "2026-11-29", "09:00 [pnpm] Ran pnpm build (session 9f8e7d6c:1)")
    prose = tmp_path / "profile.md"
    prose.write_text(content, encoding="utf-8")
    before = snapshot(memory_home)
    code, out, err = run(capsys, "profile", "set", entity, "--file", str(prose))
    assert (code, out) == (1, "")
    assert err.startswith(f"artibot-memory: {message}")
    assert err.count("\n") == 1
    assert snapshot(memory_home) == before


def test_profile_show_of_an_entity_without_a_file_says_so(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shop_due(memory_home)
    code, _, err = run(capsys, "profile", "show", "projects/shop")
    assert code == 1
    assert "projects/shop has no profile yet" in err


def test_profile_set_refuses_an_unreadable_file(
    memory_home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    shop_due(memory_home)
    code, _, err = run(capsys, "profile", "set", "shop", "--file", str(tmp_path / "missing.md"))
    assert code == 1
    assert err.startswith("artibot-memory: cannot read")
    assert not (memory_home / "entities").exists()


def test_profile_set_alone_rejects_a_name_that_is_no_entity(memory_home: Path) -> None:
    with pytest.raises(UsageError, match="is not an entity"):
        entities.profile_set(memory_home, "projects/../x", "text")


def test_a_belief_never_reflected_shows_its_record_or_its_own_confidence() -> None:
    from datetime import datetime, timezone  # noqa: PLC0415

    t = datetime(2026, 11, 30, tzinfo=timezone.utc)
    memory = Memory(
        id="pref-1", type="preference", text="Use pnpm", confidence=0.8,
        created_at=t, updated_at=t, last_seen=t,
    )  # fmt: skip
    assert entities._belief_view(memory, lambda _m: None) == (0.8, "stable")  # noqa: SLF001
    memory.details["belief"] = {"confidence": 0.62, "freshness": "weakening"}
    assert entities._belief_view(memory, lambda _m: None) == (0.62, "weakening")  # noqa: SLF001


def test_a_set_profile_is_redacted_and_logged(memory_home: Path) -> None:
    shop_due(memory_home)
    token = "ghp_" + "a1B2c3D4e5" * 4
    with freeze_time("2026-12-01 09:00"):
        path = entities.profile_set(memory_home, "projects/shop", f"Deploys with {token}.")
    text = path.read_text(encoding="utf-8")
    assert token not in text
    assert "## Profile\nDeploys with [REDACTED:github-token].\n" in text
    assert [e.message for e in audit.read(memory_home)] == [f"{SHOP_FILE} profile set"]


def test_profile_list_shows_each_entity_with_its_touches_and_whether_it_is_due(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shop_due(memory_home)
    note(memory_home, "2026-11-29", "09:00 [blog] Ran pnpm build (session 9f8e7d6c:1)")
    with freeze_time("2026-12-01 09:00"):
        code, out, _ = run(capsys, "profile", "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["ENTITY", "TOUCHES", "DUE", "CONSOLIDATED", "FILE"]
    assert lines[3].split() == ["projects/shop", "5", "due", "never", SHOP_FILE, "(not", "yet)"]
