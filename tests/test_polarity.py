"""A statement's stance, table-driven: English and Korean, do, don't, instead, and none."""

from __future__ import annotations

import pytest

from artibot_memory.text.polarity import (
    Stance,
    opposed,
    other_choice,
    restates,
    same_subject,
    stance,
)

DO, DONT = 1, -1

# (text, subject, polarity, instead_of); polarity None: the text takes no stance.
CASES = [
    # English, do.
    ("From now on always use pnpm", ("pnpm",), DO, ()),
    ("Use pnpm", ("pnpm",), DO, ()),
    ("I prefer yarn", ("yarn",), DO, ()),
    ("Please use poetry for this repo", ("poetri", "repo"), DO, ()),
    ("stick with poetry", ("poetri",), DO, ()),
    ("Switch to uv", ("uv",), DO, ()),
    ("We decided to use Postgres", ("postgr",), DO, ()),
    ("Go with Redis for caching", ("redi", "cach"), DO, ()),
    ("Always run tests before committing", ("run", "test", "commit"), DO, ()),
    # English, do.n't
    ("never use npm", ("npm",), DONT, ()),
    ("Don't use pnpm", ("pnpm",), DONT, ()),
    ("do not use black", ("black",), DONT, ()),
    ("Stop using black", ("black",), DONT, ()),
    ("avoid mocking the database", ("mock", "databas"), DONT, ()),
    ("No longer use yarn", ("yarn",), DONT, ()),
    ("You must not use eval", ("eval",), DONT, ()),
    # English, instead.
    ("use pnpm instead of npm", ("pnpm",), DO, ("npm",)),
    ("Use pnpm, not npm", ("pnpm",), DO, ("npm",)),
    ("prefer tabs over spaces", ("tab",), DO, ("space",)),
    ("Chose argon2 over bcrypt because it is memory-hard", ("argon2",), DO, ("bcrypt",)),
    ("Instead of pip, use uv", ("uv",), DO, ("pip",)),
    ("ruff rather than flake8", ("ruff",), DO, ("flake8",)),
    # Korean, do.
    ("항상 pnpm을 써", ("pnpm",), DO, ()),
    ("앞으로 pnpm 사용해", ("pnpm",), DO, ()),
    ("무조건 pytest 써줘", ("pytest",), DO, ()),
    ("pytest로 하자", ("pytest",), DO, ()),
    # Korean, do.n't
    ("npm 쓰지 마", ("npm",), DONT, ()),
    ("절대 pnpm 쓰지 마", ("pnpm",), DONT, ()),
    ("npm은 사용하지 않는다", ("npm",), DONT, ()),
    ("uv 쓰지 말자", ("uv",), DONT, ()),
    ("ruff format 금지", ("ruff", "format"), DONT, ()),
    ("yarn 사용하면 안 돼", ("yarn",), DONT, ()),
    # Korean, instead.
    ("npm 대신 pnpm을 사용해", ("pnpm",), DO, ("npm",)),
    ("bcrypt 대신 argon2로 하자", ("argon2",), DO, ("bcrypt",)),
    ("yarn 말고 pnpm 써줘", ("pnpm",), DO, ("yarn",)),
    ("pip 말고 uv 써", ("uv",), DO, ("pip",)),
    ("black 대신 ruff format으로 하자", ("ruff", "format"), DO, ("black",)),
    # Korean, don't, with any verb; a request's verb is no part of the subject.
    ("앞으로 PR 설명에 스크린샷은 넣지 마", ("pr", "설명", "스크린샷"), DONT, ()),
    ("PR 설명에는 항상 스크린샷을 넣어줘", ("스크린샷",), DO, ()),
    # Instead's X ends with its clause.
    ("Use dayjs instead of date-fns from now on; it is smaller", ("dayj",), DO, ("date", "fn")),
    ("From now on always use pnpm, never npm, in every project", ("pnpm",), DO, ("npm",)),
    # No stance at all: questions, hypotheticals, quoted code, plain statements
    ("Should we always use pnpm?", (), None, ()),
    ("Why does npm fail?", (), None, ()),
    ("npm으로 할까?", (), None, ()),
    ("pnpm 써도 되나요", (), None, ()),
    ("If we used yarn it would break", (), None, ()),
    ("만약 npm을 쓰면 어떨까", (), None, ()),
    ("the `never use eval in this code` rule fired", (), None, ()),
    ('He wrote "do not use pnpm here" in the doc', (), None, ()),
    ("the build is green", (), None, ()),
    ("", (), None, ()),
]


@pytest.mark.parametrize(
    ("text", "subject", "polarity", "instead"), CASES, ids=[c[0] or "empty" for c in CASES]
)
def test_a_statement_has_its_subject_polarity_and_instead(
    text: str, subject: tuple[str, ...], polarity: int | None, instead: tuple[str, ...]
) -> None:
    found = stance(text)
    if polarity is None:
        assert found is None
        return
    assert found is not None
    assert (found.subject, found.polarity, found.instead_of) == (subject, polarity, instead)


def test_the_table_holds_forty_cases_and_both_languages() -> None:
    assert len(CASES) >= 40
    assert any("대신" in c[0] for c in CASES)
    assert any(c[2] is None for c in CASES)


def test_a_stance_carries_the_subject_key_of_what_it_is_about() -> None:
    assert stance("항상 pnpm을 써") == Stance(("pnpm",), DO, (), "package-manager")
    assert stance("avoid mocking the database") == Stance(("mock", "databas"), DONT, (), None)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param("always use pnpm", "never use pnpm", True, id="do-dont"),
        pytest.param("항상 pnpm 써", "pnpm 쓰지 마", True, id="korean-do-dont"),
        pytest.param("use pnpm instead of npm", "use npm", True, id="instead"),
        pytest.param("npm 대신 pnpm 써", "npm 써", True, id="korean-instead"),
        pytest.param("always use pnpm", "use pnpm for scripts", False, id="agree"),
        pytest.param("never use npm", "never use yarn", False, id="other-subject"),
        pytest.param(
            "Always add a changelog entry for every user-facing change",
            "Never add changelog entries by hand; the release tool writes them now",
            True,
            id="a-shared-core",
        ),
        pytest.param(
            "PR 설명에는 항상 스크린샷을 넣어줘",
            "앞으로 PR 설명에 스크린샷은 넣지 마",
            True,
            id="ko-any-verb",
        ),
        pytest.param(
            "Always use date-fns for date formatting",
            "Use dayjs instead of date-fns from now on; it is smaller",
            True,
            id="instead-with-a-clause",
        ),
        pytest.param(
            "Always run the tests before pushing", "Never push to main", False, id="one-word-only"
        ),
    ],
)
def test_two_stances_are_opposed_when_one_does_what_the_other_does_not(
    a: str, b: str, *, expected: bool
) -> None:
    left, right = stance(a), stance(b)
    assert left is not None
    assert right is not None
    assert opposed(left, right) is expected


def test_a_subject_is_the_same_when_one_holds_every_word_of_the_other() -> None:
    assert same_subject(("pnpm",), ("pnpm", "script"))
    assert not same_subject(("pnpm",), ("npm",))
    assert not same_subject((), ("npm",))


def test_a_subject_is_the_same_when_it_shares_a_core_of_two_words_and_two_fifths() -> None:
    assert same_subject(
        ("add", "changelog", "entri", "everi", "chang"), ("add", "changelog", "hand")
    )
    assert not same_subject(
        ("add", "changelog", "a", "b", "c", "d"), ("add", "changelog", "e", "f", "g", "h")
    )
    assert not same_subject(("run", "test", "push"), ("push", "main"))


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param(
            "We'll go with Postgres for the orders database because we need row locks",
            "Let's go with SQLite for the orders database instead, because it is single-node",
            True,
            id="decision",
        ),
        pytest.param(
            "Always use moment for date formatting",
            "Always use luxon for date formatting",
            True,
            id="pref",
        ),
        pytest.param(
            "Use Redis for the orders cache",
            "Use Postgres for the orders database",
            False,
            id="two-purposes",
        ),
        pytest.param(
            "Use Postgres for the orders database", "Postgres 쓰지 마", False, id="a-dont"
        ),
        pytest.param(
            "Use Postgres for the orders database",
            "Use Postgres for orders",
            False,
            id="same-choice",
        ),
    ],
)
def test_two_choices_for_one_purpose_are_other_choices(a: str, b: str, *, expected: bool) -> None:
    left, right = stance(a), stance(b)
    assert left is not None
    assert right is not None
    assert other_choice(left, right) is expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (
            "From now on always use pnpm, never npm",
            "Remember, we use pnpm everywhere, never npm",
            True,
        ),
        ("앞으로 답변은 영어로 해줘", "답변은 항상 영어로 해줘", True),
        ("always use pnpm", "use yarn instead of pnpm", False),
        ("always use pnpm", "never use pnpm", False),
        ("Always answer me in English", "앞으로 답변은 한국어로 해줘", False),
    ],
)
def test_a_restatement_is_the_same_choice_the_same_way(a: str, b: str, *, expected: bool) -> None:
    left, right = stance(a), stance(b)
    assert left is not None
    assert right is not None
    assert restates(left, right) is expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # one shared word that is not what the other is about
        ("Never push directly to main; open a pull request", "Prefer requests over axios"),
        # two keys: two subjects, whatever the words
        (
            "Use poetry for terraform projects, not yarn",
            "Use pnpm for terraform projects, not yarn",
        ),
        # another choice, but for a purpose of one word the other merely mentions
        ("Prefer dataclasses to dicts in reports", "For local development use sqlite in reports"),
    ],
)
def test_statements_that_only_brush_each_other_are_not_opposed(a: str, b: str) -> None:
    left, right = stance(a), stance(b)
    assert left is not None
    assert right is not None
    assert not opposed(left, right)
    assert not other_choice(left, right)
