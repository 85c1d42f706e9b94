"""MEMORY.md: rendered from the stores, hand edits learned from and never overwritten."""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from freezegun import freeze_time
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot_memory.api import memories, semantic
from artibot_memory.capture.prompts import detect_preferences, person_of
from artibot_memory.cli.app import main
from artibot_memory.core.errors import UsageError
from artibot_memory.lifecycle import handle
from artibot_memory.notes import memory_md
from artibot_memory.notes.semantic import SECTIONS, Line, tools_of
from artibot_memory.store.model import Memory, Scope, Source, State
from artibot_memory.text import markdown

SHOP = "/src/shop"
SUMMARY = (
    "Session 1a2b3c4d 2026-11-30 10:02–10:45 UTC (43m, 40m active), branch fix/redirect, "
    f"in {SHOP}\nAsked: fix the login redirect after sign-in | add a test\nEdited: auth/views.py"
)


pytestmark = pytest.mark.usefixtures("utc_days")  # local days are UTC days here


def path(home: Path) -> Path:
    return home / "MEMORY.md"


def text(home: Path) -> str:
    return path(home).read_text(encoding="utf-8")


def section_lines(home: Path, title: str) -> list[str]:
    """The visible text of a section's bullets, markers off."""
    return [b.text for b in markdown.bullets(markdown.parse(text(home)).section(title))]


def marker_of(home: Path, visible: str) -> str:
    for line in text(home).splitlines():
        body, marker = markdown.unmarked(line)
        if marker and body.removeprefix("- ") == visible:
            return marker
    raise AssertionError(f"no managed line {visible!r} in\n{text(home)}")


def by_id(memory_id: str) -> Memory:
    return memories.get(memory_id)


def edit_file(home: Path, old: str, new: str) -> None:
    current = text(home)
    assert old in current, f"{old!r} not in\n{current}"
    path(home).write_text(current.replace(old, new, 1), encoding="utf-8")


def stocked_home() -> None:
    """A week of a real-looking home: preferences, a project, people, commands, errors."""
    with freeze_time("2026-11-24 09:00:00"):
        memories.save("preference", "Use yarn", key="package-manager")
        memories.save("context", "the old admin lives in legacy/admin", project="/src/blog")
    with freeze_time("2026-11-28 09:00:00"):
        memories.save("preference", "Use pnpm, not npm", key="package-manager")
        memories.save("preference", "Use tabs here", project=SHOP, key="indentation")
        memories.save("preference", "Maybe squash merges", state=State.PENDING)
        memories.save("context", "Sara owns the billing service", scope=Scope.PERSON)
        memories.save("context", "keep the v1 API until March", project=SHOP, tags=["decision"])
        memories.save("context", "the staging database is reset every Sunday", project=SHOP)
        memories.save("context", "an old guess", project=SHOP, state=State.STALE)
        for command in ["uv run pytest -q"] * 3 + ["python3.12 -m pip install -e ."] * 2:
            memories.save("command", command, project=SHOP)
        memories.save("command", "pnpm install", project=SHOP)
        memories.save("command", "pnpm install", project=SHOP)
        memories.save("command", "ls -la", project=SHOP)
        error = "`npm test` failed: Exit code 1\nTypeError: x is undefined"
        for _ in range(3):
            memories.save("error", error, project=SHOP, resolution="editing src/a.ts")
        memories.save("error", "`make` failed: no rule", project=SHOP, resolution="ran configure")
    with freeze_time("2026-11-30 10:45:00"):
        memories.save(
            "context",
            SUMMARY,
            project=SHOP,
            key="session:1a2b3c4d",
            tags=["session-summary"],
            details={"kind": "session-summary"},
        )


@pytest.fixture
def stocked(memory_home: Path) -> Iterator[Path]:
    """The stocked home, and the test run on its clock: its 7-day commands live."""
    stocked_home()
    with freeze_time("2026-11-30 11:00:00"):
        semantic.refresh()
        yield memory_home


# ---- the render


def test_a_missing_file_is_created_with_the_header_and_the_five_sections(memory_home: Path) -> None:
    report = semantic.refresh()
    assert report.written
    doc = markdown.parse(text(memory_home))
    assert [s.title for s in doc.sections] == list(SECTIONS)
    assert doc.preamble[0].text == "# MEMORY"
    assert "a line you delete forgets it" in text(memory_home)
    assert stat.S_IMODE(path(memory_home).stat().st_mode) == 0o600


def test_user_preferences_global_first_then_project_ones_with_key_and_project(
    stocked: Path,
) -> None:
    assert section_lines(stocked, "User Preferences") == [
        "Use pnpm, not npm (package-manager)",
        "[shop] Use tabs here (indentation)",
    ]


def test_project_context_has_a_status_line_decisions_and_facts_per_project(stocked: Path) -> None:
    doc = markdown.parse(text(stocked))
    groups = markdown.subsections(doc.section("Project Context"))
    titles = [markdown.subheading_title(h) for h, _ in groups if h is not None]
    assert titles == ["shop", "blog"]  # most recently active first
    shop = [line.text for line in groups[1][1] if line.text.startswith("- ")]
    assert [markdown.unmarked(line)[0] for line in shop] == [
        (
            "- Status: last session 2026-11-30, branch fix/redirect; "
            "asked: fix the login redirect after sign-in"
        ),
        "- Decided: keep the v1 API until March",
        "- the staging database is reset every Sunday",
    ]


def test_people_environment_and_lessons_are_rendered_from_the_stores(stocked: Path) -> None:
    assert section_lines(stocked, "Relationships & People") == ["Sara owns the billing service"]
    assert section_lines(stocked, "Technical Environment") == [
        "Runtimes: python 3.12 (seen in 2 commands)",
        "Package managers: uv, pip, pnpm (preferred) (seen in 7 commands)",
        "Tests and checks: pytest (seen in 3 commands)",
    ]
    assert section_lines(stocked, "Lessons Learned") == [
        "[shop] `npm test` TypeError: x is undefined — fixed by editing src/a.ts (seen 3 times)",
        "Changed: was Use yarn, now Use pnpm, not npm",
    ]


def test_only_live_memories_are_rendered_and_no_id_is_visible(stocked: Path) -> None:
    body = "\n".join(markdown.unmarked(line)[0] for line in text(stocked).splitlines())
    assert "an old guess" not in body  # stale
    assert "squash" not in body  # pending
    assert "no rule" not in body  # an error seen once taught nothing yet
    for hidden in ("ls -la", "ctx-", "pref-"):
        assert hidden not in body
    for line in text(stocked).splitlines():
        if line.startswith("- "):
            assert markdown.unmarked(line)[1] is not None
            assert len(markdown.unmarked(line)[0]) <= 162


def test_every_managed_id_is_a_stored_memory_and_appears_once(stocked: Path) -> None:
    found = [markdown.unmarked(line)[1] for line in text(stocked).splitlines()]
    ids = [i for i in found if i is not None]
    assert len(ids) == len(set(ids))
    for memory_id in ids:
        assert memories.get(memory_id).id == memory_id


def test_a_pinned_memory_is_rendered_beyond_the_limits(memory_home: Path) -> None:
    with freeze_time("2026-11-01"):
        old = memories.save("context", "the CDN is Fastly", project=SHOP, tags=["memory-md"])
    with freeze_time("2026-11-20"):
        for n in range(7):
            memories.save("context", f"fact number {n} of the shop", project=SHOP)
        semantic.refresh()
    facts = section_lines(memory_home, "Project Context")
    assert "the CDN is Fastly" in facts
    assert sum(line.startswith("fact number") for line in facts) == 5
    assert marker_of(memory_home, "the CDN is Fastly") == old.id


def test_at_most_eight_projects_most_recently_active_first(memory_home: Path) -> None:
    for day in range(1, 11):
        with freeze_time(f"2026-11-{day:02d}"):
            memories.save("context", f"project {day} uses Postgres", project=f"/src/p{day}")
    with freeze_time("2026-11-11"):
        semantic.refresh()
    groups = markdown.subsections(markdown.parse(text(memory_home)).section("Project Context"))
    titles = [markdown.subheading_title(h) for h, _ in groups if h is not None]
    assert titles == [f"p{day}" for day in range(10, 2, -1)]


def test_a_stale_memory_leaves_the_file_at_the_next_refresh(stocked: Path) -> None:
    fact = marker_of(stocked, "the staging database is reset every Sunday")
    semantic.update(fact, lambda m: setattr(m, "state", State.STALE))  # as consolidation does
    semantic.refresh()
    assert fact not in text(stocked)
    assert memories.get(fact).state is State.STALE  # only its line went


def test_a_second_refresh_with_nothing_new_writes_nothing(stocked: Path) -> None:
    before = text(stocked)
    report = semantic.refresh()
    assert not report.written
    assert text(stocked) == before


def test_tools_are_read_by_the_one_shell_reader() -> None:
    assert tools_of("cd app && uv run pytest -q 2>&1 | tail") == ["uv", "pytest"]
    assert tools_of("sudo python3.11 -m pip install x") == ["python 3.11", "pip"]


# ---- hand edits


@pytest.mark.parametrize(
    ("where", "line", "expected"),
    [
        pytest.param(
            "## User Preferences\n",
            "- Reply in Korean",
            {"type": "preference", "key": "reply-language", "project": None},
            id="preference",
        ),
        pytest.param(
            "### shop\n",
            "- Decided: move to Postgres 16",
            {"type": "context", "project": SHOP, "tags": "decision", "text": "move to Postgres 16"},
            id="context-of-the-group",
        ),
        pytest.param(
            "## Project Context\n",
            "- our CI runs on Buildkite",
            {"type": "context", "project": None, "scope": "global"},
            id="global-context",
        ),
        pytest.param(
            "## Relationships & People\n",
            "- Ask Tom before touching the payments schema",
            {"type": "context", "scope": "person", "tags": "person:tom"},
            id="person",
        ),
        pytest.param(
            "## Technical Environment\n",
            "- macOS 15 on an M3",
            {"type": "context", "tags": "environment"},
            id="environment",
        ),
        pytest.param(
            "## Lessons Learned\n",
            "- never run migrations on Friday",
            {"type": "context", "tags": "lesson"},
            id="lesson",
        ),
    ],
)
def test_a_line_added_in_a_section_becomes_a_memory_then_a_managed_line(
    stocked: Path, where: str, line: str, expected: dict[str, str | None]
) -> None:
    edit_file(stocked, where, f"{where}{line}\n")
    number = text(stocked).splitlines().index(line) + 1
    report = semantic.refresh()
    [added] = report.added
    memory = memories.get(added)
    assert memory.source == Source(channel="MEMORY.md", path="MEMORY.md", line=number)
    assert "memory-md" in memory.tags
    for field, value in expected.items():
        actual = getattr(memory, field)
        if field == "tags":
            assert value in actual
        else:
            assert (actual.value if hasattr(actual, "value") else actual) == value
    at_its_place = text(stocked).splitlines()[number - 1]  # the key shown once it has one
    assert at_its_place.startswith(line)
    assert at_its_place.endswith(f" <!-- am:{added} -->")
    assert not semantic.refresh().added  # learned once


def test_changing_a_preference_supersedes_the_old_value(stocked: Path) -> None:
    old = marker_of(stocked, "Use pnpm, not npm (package-manager)")
    edit_file(stocked, "Use pnpm, not npm (package-manager)", "Use bun (package-manager)")
    report = semantic.refresh()
    assert report.updated == [old]
    assert memories.get(old).state is State.SUPERSEDED
    new = marker_of(stocked, "Use bun (package-manager)")
    assert memories.get(new).key == "package-manager"
    assert memories.get(new).details["supersedes"] == old
    assert "Changed: was Use pnpm, not npm, now Use bun" in section_lines(
        stocked, "Lessons Learned"
    )
    assert old not in "\n".join(section_lines(stocked, "User Preferences"))


def test_a_project_preference_added_by_name_supersedes_that_projects_value(stocked: Path) -> None:
    old = marker_of(stocked, "[shop] Use tabs here (indentation)")
    added_line = "- [shop] Use 4 spaces (indentation)"
    edit_file(stocked, "## User Preferences\n", f"## User Preferences\n{added_line}\n")
    [added] = semantic.refresh().added
    assert (memories.get(added).project, memories.get(added).key) == (SHOP, "indentation")
    assert memories.get(old).state is State.SUPERSEDED
    assert "[shop] Use 4 spaces (indentation)" in section_lines(stocked, "User Preferences")


def test_changing_a_context_replaces_its_text_in_place(stocked: Path) -> None:
    fact = marker_of(stocked, "the staging database is reset every Sunday")
    edit_file(stocked, "reset every Sunday", "reset every Saturday night")
    assert semantic.refresh().updated == [fact]
    assert memories.get(fact).text == "the staging database is reset every Saturday night"
    assert marker_of(stocked, "the staging database is reset every Saturday night") == fact


def test_changing_a_decision_keeps_its_prefix_out_of_the_memory(stocked: Path) -> None:
    decision = marker_of(stocked, "Decided: keep the v1 API until March")
    edit_file(stocked, "until March", "until June")
    semantic.refresh()
    assert memories.get(decision).text == "keep the v1 API until June"


def test_changing_a_derived_line_keeps_the_users_wording(stocked: Path) -> None:
    lesson = "`npm test` TypeError: x is undefined — fixed by editing src/a.ts (seen 3 times)"
    error = marker_of(stocked, f"[shop] {lesson}")
    edit_file(stocked, lesson, "npm test: x is undefined means a.ts imports too early")
    semantic.refresh()
    assert memories.get(error).text.startswith("`npm test` failed")  # the record is intact
    mine = "[shop] npm test: x is undefined means a.ts imports too early"
    assert marker_of(stocked, mine) == error
    edit_file(stocked, "[shop] npm test:", "npm test:")  # its project stays the memory's
    semantic.refresh()
    assert marker_of(stocked, mine) == error


def test_deleting_a_line_forgets_its_memory(stocked: Path) -> None:
    person = marker_of(stocked, "Sara owns the billing service")
    edit_file(stocked, f"- Sara owns the billing service <!-- am:{person} -->\n", "")
    assert semantic.refresh().forgotten == [person]
    with pytest.raises(Exception, match=person):
        memories.get(person)
    assert "Sara" not in text(stocked)


def test_deleting_a_tool_line_forgets_the_commands_it_came_from(stocked: Path) -> None:
    line = "Tests and checks: pytest (seen in 3 commands)"
    owner = marker_of(stocked, line)
    edit_file(stocked, f"- {line} <!-- am:{owner} -->\n", "")
    report = semantic.refresh()
    assert owner in report.forgotten
    assert not any("pytest" in m.text for m in memories.list_memories("command"))
    assert "pytest" not in text(stocked)


def test_prose_a_users_own_section_and_heading_order_are_kept_byte_for_byte(stocked: Path) -> None:
    doc = markdown.parse(text(stocked))
    lessons = doc.section("Lessons Learned")
    people = doc.section("Relationships & People")
    assert lessons is not None
    assert people is not None
    lines = text(stocked).splitlines()
    # The user moves Lessons Learned above People, writes prose, and a section of their own.
    lesson_block = lines[lessons.heading.number - 1 :]
    rest = lines[: lessons.heading.number - 1]
    at = people.heading.number - 1
    mine = ["## My own notes", "* keep *this* as is  ", "", "free text, `code`", ""]
    edited = [
        "# MEMORY (mine)",
        "Some words of my own before everything.",
        *rest[1:at],
        *lesson_block,
        "A paragraph I wrote under lessons.",
        "",
        *rest[at:],
        *mine,
    ]
    path(stocked).write_text("\n".join(edited) + "\n", encoding="utf-8")
    with freeze_time("2026-12-01 09:00:00"):
        memories.save("context", "Mina is our designer", scope=Scope.PERSON)
        semantic.refresh()
    after = text(stocked).splitlines()
    assert after[:2] == ["# MEMORY (mine)", "Some words of my own before everything."]
    assert after[-len(mine) :] == mine
    assert "A paragraph I wrote under lessons." in after
    titles = [s.title for s in markdown.parse(text(stocked)).sections]
    assert titles.index("Lessons Learned") < titles.index("Relationships & People")
    assert "Mina is our designer" in section_lines(stocked, "Relationships & People")


def test_a_file_that_is_not_ours_loses_nothing(memory_home: Path) -> None:
    memories.save("preference", "Use pnpm, not npm", key="package-manager")
    foreign = (
        "# Team wiki\n\nSome *markdown* with a [link](https://example.com).\n\n"
        "## Random\n- a bullet of theirs\n\n```\n## not a heading\n- nor a bullet\n```\n"
        "no trailing newline"
    )
    path(memory_home).write_text(foreign, encoding="utf-8")
    report = semantic.refresh()
    assert (report.forgotten, report.added) == ([], [])
    result = text(memory_home)
    assert result.startswith(foreign)
    assert [s.title for s in markdown.parse(result).sections][-5:] == list(SECTIONS)
    assert "Use pnpm, not npm (package-manager)" in section_lines(memory_home, "User Preferences")


def test_an_emptied_file_forgets_nothing(stocked: Path) -> None:
    path(stocked).write_text("", encoding="utf-8")
    assert semantic.refresh().forgotten == []
    assert "Sara owns the billing service" in section_lines(stocked, "Relationships & People")


def test_a_secret_typed_into_memory_md_is_redacted_in_the_store_and_the_file(
    stocked: Path,
) -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4
    edit_file(
        stocked, "## Technical Environment\n", f"## Technical Environment\n- CI token {token}\n"
    )
    edit_file(stocked, "## Lessons Learned\n", f"## Lessons Learned\nprose with {token}\n")
    [added] = semantic.refresh().added
    assert token not in memories.get(added).text
    assert "[REDACTED:github-token]" in memories.get(added).text
    assert token not in text(stocked)
    assert token not in (stocked / "cache" / "memory-md.json").read_text()


def test_a_line_the_renderer_took_out_before_a_crash_forgets_nothing(stocked: Path) -> None:
    fact = marker_of(stocked, "the staging database is reset every Sunday")
    semantic.update(fact, lambda m: setattr(m, "state", State.STALE))
    # The render took the stale line out, then died before it saved its state.
    edit_file(stocked, f"- the staging database is reset every Sunday <!-- am:{fact} -->\n", "")
    assert semantic.refresh().forgotten == []
    assert memories.get(fact).state is State.STALE


def test_a_missing_state_treats_every_marked_line_as_unchanged(stocked: Path) -> None:
    (stocked / "cache" / "memory-md.json").write_text("{not json")
    report = semantic.refresh()
    assert (report.added, report.updated, report.forgotten) == ([], [], [])


# ---- an edit while a render runs


def test_a_user_saving_while_the_render_runs_wins_then_is_rendered(
    stocked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = semantic.read_before_replace
    saves = iter([True])

    def user_saves_meanwhile(target: Path) -> str | None:
        if next(saves, False):  # between our read and our replace, the user saves
            current = text(stocked)
            target.write_text(
                current.replace("## Lessons Learned\n", "## Lessons Learned\n- pin deps\n")
            )
        return real(target)

    monkeypatch.setattr(semantic, "read_before_replace", user_saves_meanwhile)
    with freeze_time("2026-12-01 09:00:00"):
        memories.save("context", "Mina is our designer", scope=Scope.PERSON)
        report = semantic.refresh()
    assert (report.retries, report.written) == (1, True)
    [added] = report.added
    assert memories.get(added).text == "pin deps"
    lines = text(stocked).splitlines()
    assert f"- pin deps <!-- am:{added} -->" in lines  # the user's line, now managed
    assert "Mina is our designer" in section_lines(stocked, "Relationships & People")


def test_a_file_that_never_stops_changing_is_left_alone(
    stocked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = iter(range(100))

    def always_moving(target: Path) -> str | None:
        target.write_text(text(stocked) + f"\nuser typing {next(counter)}\n")
        return semantic.read_file(target)

    monkeypatch.setattr(semantic, "read_before_replace", always_moving)
    report = semantic.refresh()
    assert (report.left_alone, report.written) == (True, False)
    assert text(stocked).endswith(f"user typing {semantic.MAX_ATTEMPTS - 1}\n")
    log = (stocked / "logs" / "hooks.log").read_text()
    assert "kept changing" in log


# ---- people in prompts


@pytest.mark.parametrize(
    ("prompt", "name"),
    [
        pytest.param("Sara owns the billing service", "Sara", id="owns"),
        pytest.param("Ask Tom before touching the payments schema.", "Tom", id="ask-before"),
        pytest.param("Please check with Priya first", "Priya", id="check-with-first"),
        pytest.param("Mina is our lead designer", "Mina", id="is-our-role"),
        pytest.param("Sara is the PM for checkout", "Sara", id="is-the-role"),
        pytest.param("Always ask Tom before touching the payments schema", "Tom", id="rule"),
        pytest.param("Remember that Jon maintains the deploy scripts", "Jon", id="remember"),
        pytest.param("지민 님이 결제 서비스 담당이야", "지민", id="ko-owns"),
        pytest.param("배포 전에 민수에게 물어봐", "민수", id="ko-ask-before"),
        pytest.param("스키마 바꾸기 전에 꼭 지훈님께 확인해", "지훈", id="ko-check-before"),
        pytest.param("결제 담당자는 수진 님이야", "수진", id="ko-the-owner-is"),
    ],
)
def test_a_fact_about_a_person_is_detected(prompt: str, name: str) -> None:
    [found] = detect_preferences(prompt)
    assert (found.kind, found.scope, found.tags) == (
        "context",
        "person",
        (f"person:{name.lower()}",),
    )


@pytest.mark.parametrize(
    "prompt",
    [
        pytest.param("It owns the lock until the job ends", id="pronoun"),
        pytest.param("Who owns the billing service?", id="question"),
        pytest.param("ask me before deleting anything", id="me"),
        pytest.param("Docker is the default runtime", id="not-a-role"),
        pytest.param("The Redis cache is our go-to", id="a-thing"),
        pytest.param("ask Claude before committing", id="the-assistant"),
        pytest.param("I finished the task before lunch", id="task-is-not-ask"),
        pytest.param("이 함수는 결제를 담당해", id="ko-a-function"),
        pytest.param("우리 함께 확인해 보자", id="ko-together"),
        pytest.param("배포 전에 나한테 물어봐", id="ko-me"),
        pytest.param("Sara owns the billing service for now", id="one-off"),
    ],
)
def test_what_is_not_a_fact_about_a_person_is_left_out(prompt: str) -> None:
    assert all(found.scope != "person" for found in detect_preferences(prompt))


def test_the_name_is_what_the_tag_is_made_of() -> None:
    assert person_of("Tom Lee owns the release train") == "Tom Lee"
    [found] = detect_preferences("Tom Lee owns the release train")
    assert found.tags == ("person:tom-lee",)


def test_a_person_stated_in_a_prompt_is_kept_with_scope_and_tag_then_listed(
    memory_home: Path,
) -> None:
    handle("UserPromptSubmit", {"prompt": "Sara owns the billing service", "cwd": SHOP})
    [kept] = memories.list_memories("context")
    assert (kept.scope, kept.project) == (Scope.PERSON, SHOP)  # the project it was said in
    assert "person:sara" in kept.tags
    semantic.refresh()
    lines = section_lines(memory_home, "Relationships & People")
    assert lines == ["[shop] Sara owns the billing service"]


# ---- when it is refreshed, and the edit verb


def test_a_writing_verb_refreshes_memory_md(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["save", "preference", "Use pnpm, not npm", "--key", "package-manager"]) == 0
    assert "Use pnpm, not npm (package-manager)" in section_lines(memory_home, "User Preferences")
    pref = marker_of(memory_home, "Use pnpm, not npm (package-manager)")
    assert main(["forget", pref]) == 0
    assert section_lines(memory_home, "User Preferences") == []
    capsys.readouterr()


def test_a_session_summary_refreshes_memory_md(memory_home: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "s1.jsonl"
    row = {
        "type": "user",
        "sessionId": "s1",
        "cwd": SHOP,
        "gitBranch": "fix/redirect",
        "timestamp": "2026-11-30T10:00:00.000Z",
        "uuid": "u1",
        "message": {"role": "user", "content": "fix the login redirect"},
    }
    transcript.write_text(json.dumps(row) + "\n")
    handle("SessionEnd", {"session_id": "s1", "transcript_path": str(transcript), "cwd": SHOP})
    [status] = section_lines(memory_home, "Project Context")
    assert status.startswith("Status: last session ")
    assert "branch fix/redirect; asked: fix the login redirect" in status


@pytest.fixture
def fake_editor(tmp_path: Path) -> Path:
    script = tmp_path / "fake-editor"
    script.write_text(
        f"#!{sys.executable}\nimport sys\n"
        "path = sys.argv[1]\ntext = open(path).read()\n"
        "text = text.replace('## Relationships & People\\n',"
        " '## Relationships & People\\n- Ask Tom before touching the payments schema\\n')\n"
        "open(path, 'w').write(text)\n"
    )
    script.chmod(0o755)
    return script


def test_edit_opens_the_editor_then_applies_and_prints_the_changes(
    stocked: Path,
    fake_editor: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(fake_editor))
    capsys.readouterr()
    assert main(["edit"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("added 1: ctx-")
    assert "Ask Tom before touching the payments schema" in section_lines(
        stocked, "Relationships & People"
    )
    assert main(["edit", "--json", "--editor", "true"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["added"], data["updated"], data["forgotten"]) == ([], [], [])


def test_edit_without_an_editor_fails_with_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EDITOR", "no-such-editor-anywhere")
    monkeypatch.delenv("VISUAL", raising=False)
    assert main(["edit"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "no-such-editor-anywhere" in err
    assert "$EDITOR" in err


def test_edit_does_not_start_vi_without_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    with pytest.raises(UsageError, match="no terminal"):
        semantic.editor_command()


def test_an_editor_that_fails_leaves_the_file_for_the_next_refresh(
    stocked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "failing-editor"
    script.write_text("#!/bin/sh\necho '- a line kept for later' >> \"$1\"\nexit 3\n")
    script.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(script))
    with pytest.raises(UsageError, match="exited with status 3"):
        semantic.edit()
    assert text(stocked).endswith("- a line kept for later\n")
    assert semantic.refresh().added  # applied by the next refresh


def test_the_state_file_remembers_what_was_written(stocked: Path) -> None:
    state = memory_md.FileState.load(stocked)
    assert state.fingerprint == markdown.fingerprint(text(stocked))
    person = marker_of(stocked, "Sara owns the billing service")
    assert state.lines[person]["text"] == "Sara owns the billing service"
    assert state.groups["shop"] == SHOP
    assert os.stat(stocked / "cache" / "memory-md.json").st_mode & 0o077 == 0


# ---- the merge, on any text


def memory_md_line(section: str, group: str | None, memory_id: str, text: str) -> Line:
    return Line(section, group, memory_id, text, None, (memory_id,))


_LINES = st.sampled_from(
    [
        "",
        "# MEMORY",
        "## User Preferences",
        "## Project Context",
        "### shop",
        "## Lessons Learned",
        "## Mine",
        "- a bullet",
        "* another",
        "```",
        "prose",
        "<!-- a comment -->",
        "- Use pnpm <!-- am:pref-1 -->",
    ]
)
_WANTED = [
    memory_md_line("User Preferences", None, "pref-1", "Use pnpm (package-manager)"),
    memory_md_line("Project Context", "shop", "ctx-1", "Decided: v2"),
    memory_md_line("Lessons Learned", None, "err-1", "npm test — fixed (seen 2 times)"),
]


@settings(deadline=None)
@given(st.lists(_LINES, max_size=25), st.booleans())
def test_the_merge_keeps_every_unmanaged_line_in_order_and_is_idempotent(
    lines: list[str], trailing: bool
) -> None:
    original = "\n".join(lines) + ("\n" if trailing else "")
    merged = memory_md.merge(original, _WANTED)
    kept = [line for line in original.split("\n") if markdown.unmarked(line)[1] is None]
    out = iter(merged.split("\n"))
    assert all(any(line == seen for seen in out) for line in kept)  # a subsequence
    assert memory_md.merge(merged, _WANTED) == merged
    inside = [b.marker for _s, _g, b in memory_md.managed(markdown.parse(merged)) if b.marker]
    assert sorted(inside) == ["ctx-1", "err-1", "pref-1"]  # once each in our sections


@pytest.mark.parametrize("name", ["shop ##", "we ird\nname", "  ", "#"])
def test_a_project_of_any_name_gets_one_group_and_a_render_again_changes_nothing(
    memory_home: Path, name: str
) -> None:
    memories.save(
        "context", "We'll go with Postgres for orders", project=f"/src/{name}", tags=["decision"]
    )
    memories.save("context", "We'll go with Redis for carts", project="/src/ok", tags=["decision"])
    semantic.refresh()
    once = (memory_home / "MEMORY.md").read_text(encoding="utf-8")
    semantic.refresh()
    assert (memory_home / "MEMORY.md").read_text(encoding="utf-8") == once
    assert once.count("Postgres for orders") == 1
    assert "### ok\n" in once
