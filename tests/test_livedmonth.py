"""The lived month of benchmarks/livedmonth.py and its prompt set: deterministic and honest.

The benchmarks that judge the session start and the per-prompt recall
(``context_quality.py``, ``prompt_recall_lived.py``) are only as fair as their gold. These
tests pin that the month is the same bytes on every build, that every gold matcher finds
the statement it was written for and nothing that merely shares a keyword, that every word
it asks for comes from what was said in the month, and that the prompts are not the
memories' own words. benchmarks/ is put on ``sys.path`` here, for this module only.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import context_quality  # noqa: E402 - needs the path above
import livedmonth  # noqa: E402
import livedprompts  # noqa: E402
from livedmonth import FACTS, M, month  # noqa: E402

ROOT = Path("/work-root")


def _everything(root: Path) -> str:
    """Every transcript row and hook payload of the month, as one text."""
    parts = []
    for session in month():
        transcript = root / "transcripts" / f"{session.session_id}.jsonl"
        parts.append(json.dumps(livedmonth.payloads(session, root, transcript), default=str))
    return "\n".join(parts)


def test_the_month_is_the_same_on_every_build() -> None:
    again = livedmonth.month.__wrapped__()
    assert again == month()
    assert _everything(ROOT) == _everything(ROOT)
    assert livedprompts.prompts.__wrapped__() == livedprompts.prompts()
    assert livedprompts.half.__wrapped__() == livedprompts.half()


def test_the_month_spans_four_projects_two_languages_and_four_weeks() -> None:
    sessions = month()
    assert {s.project for s in sessions} == set(livedmonth.PROJECTS)
    assert [s.started_at for s in sessions] == sorted(s.started_at for s in sessions)
    assert all(a.ended_at <= b.started_at for a, b in itertools.pairwise(sessions))
    assert {s.day // 7 for s in sessions} == {0, 1, 2, 3}
    prompts = [step.text for s in sessions for step in s.steps if step.kind == "prompt"]
    assert any(re.search("[가-힣]", text) for text in prompts)
    assert any(not re.search("[가-힣]", text) for text in prompts)


def test_an_edit_carries_what_it_changed_to_the_hook_and_the_transcript(tmp_path: Path) -> None:
    session = next(s for s in month() if "src/cart/discount.ts" in str(s.steps))
    transcript = livedmonth.write_transcript(session, tmp_path)
    edits = [
        p for _, e, p in livedmonth.payloads(session, tmp_path, transcript) if e == "PostToolUse"
    ]
    changed = [p["tool_input"]["new_string"] for p in edits if p["tool_name"] == "Edit"]
    assert "const code: string = coupon.code ?? ''" in changed
    assert "coupon.code ?? ''" in transcript.read_text(encoding="utf-8")


def test_the_month_declares_nothing_it_does_not_hold() -> None:
    assert livedmonth.check() == []


@pytest.mark.parametrize("fact", FACTS, ids=lambda f: f.key)
def test_each_gold_matcher_finds_the_line_it_was_written_for(fact: livedmonth.Fact) -> None:
    assert fact.match.found_in(fact.line)
    assert all(livedmonth.said_in(text) for text in fact.said)
    assert fact.since < (fact.until or 10_000)


@pytest.mark.parametrize(
    ("key", "bare"),
    [
        ("pref-pnpm", "- `pnpm test` ×6, `pnpm lint` ×1"),
        ("fix-ts2322", "- `pnpm exec tsc --noEmit` failed: error TS2322: Type 'string' (seen 2×)"),
        ("fix-acl", "- [2026-10-12] `terraform plan` failed: Unsupported argument acl"),
        ("open-acl", '- asked "let\'s fix the acl error on the assets bucket from last week"'),
        ("dec-postgres", "- Package managers: uv; databases: postgres"),
        ("fact-port", "- `uv run pytest -q` ×9 (3 failed)"),
        ("pref-api-lint", "- Tests and checks: pytest, mypy, ruff (seen in 14 commands)"),
        ("person-sara", '- asked "set up the coupon input on the cart page"'),
        ("pref-commit-en", "Changed: commit messages in English → now in Korean (한국어)"),
    ],
)
def test_a_gold_matcher_does_not_count_a_bare_keyword(key: str, bare: str) -> None:
    assert livedmonth.FACTS_BY_KEY[key].match.found_in(bare) is None


def test_a_fact_counts_only_when_one_clause_of_a_summary_says_it() -> None:
    sara = livedmonth.FACTS_BY_KEY["person-sara"].match
    assert sara.found_in("Session 1 / Asked: ask Sara about it / Edited: src/cart/total.ts") is None
    assert sara.found_in("Asked: Sara owns the cart module / Edited: src/cart/total.ts")


def test_a_fix_line_whose_code_holds_a_pipe_is_still_one_clause() -> None:
    line = (
        "- `pnpm exec tsc --noEmit` failed: error TS2322: Type 'string | undefined' is not"
        " assignable → fixed by edited src/cart/discount.ts (+coupon.code ?? '')"
    )
    assert livedmonth.FACTS_BY_KEY["fix-ts2322"].match.found_in(line) == line


def test_an_ascii_word_is_matched_whole_and_a_korean_word_with_its_particle() -> None:
    assert M("npm").matches("never npm")
    assert not M("npm").matches("use pnpm")
    assert M("commit*").matches("Committing")
    assert not M("commit").matches("commits")
    assert M("argon2").matches("비밀번호 해시는 argon2로 하자")


def test_every_start_has_gold_and_starts_cover_every_project_and_week() -> None:
    starts = livedmonth.starts()
    assert len(starts) >= 12
    assert {s.project for s in starts} == set(livedmonth.PROJECTS)
    assert {(s.at - livedmonth.DAY_ZERO).days // 7 for s in starts} >= {0, 1, 2, 3}
    for start in starts:
        assert livedmonth.gold(start), start.name
        assert not {f.key for f in livedmonth.gold(start)} & {f.key for f in livedmonth.anti(start)}


def test_a_reversed_preference_is_gold_before_and_anti_after_its_reversal() -> None:
    before = [
        s for s in livedmonth.starts() if s.before <= livedmonth.said_in(livedmonth.COMMIT_KO)
    ]
    after = [s for s in livedmonth.starts() if s.before > livedmonth.said_in(livedmonth.COMMIT_KO)]
    assert before
    assert after
    assert all("pref-commit-en" in {f.key for f in livedmonth.gold(s)} for s in before)
    assert all("pref-commit-en" in {f.key for f in livedmonth.anti(s)} for s in after)
    assert all("pref-commit-ko" in {f.key for f in livedmonth.gold(s)} for s in after)


def test_an_error_left_open_is_gold_until_its_fix_then_anti() -> None:
    fixed = livedmonth.said_in(livedmonth.ACL_FIX)
    infra = [s for s in livedmonth.starts() if s.project == "infra"]
    assert any(
        "open-acl" in {f.key for f in livedmonth.gold(s)} for s in infra if s.before <= fixed
    )
    assert all("open-acl" in {f.key for f in livedmonth.anti(s)} for s in infra if s.before > fixed)


@pytest.mark.parametrize("target", livedprompts.TARGETS.values(), ids=lambda t: t.key)
def test_each_prompt_target_matches_the_record_a_careful_memory_would_keep(
    target: livedprompts.Target,
) -> None:
    fact = livedmonth.FACTS_BY_KEY[target.fact]
    if fact.kind in ("fix", "open"):
        stored = " ".join(" ".join(fact.said[::-1]).split())  # the error, then what fixed it
    else:
        stored = fact.said[0]
    assert target.match.matches(stored)


def test_the_prompt_set_is_big_enough_korean_enough_and_split_by_question() -> None:
    prompts = livedprompts.prompts()
    assert len(prompts) >= 250
    assert sum(p.lang == "ko" for p in prompts) >= 0.3 * len(prompts)
    assert {p.half for p in prompts} == {livedprompts.TUNE, livedprompts.CHECK}
    for question in livedprompts.QUESTIONS:
        assert len({p.half for p in prompts if p.category == question.targets[0]}) == 1
    assert all(p.gold for p in prompts if p.kind != "none")
    assert all(
        p.start.project == q.project
        for q in livedprompts.QUESTIONS
        if q.project
        for p in prompts
        if p.category == q.targets[0]
    )


def test_no_prompt_copies_the_words_it_asks_about() -> None:
    statements = [text.lower() for fact in FACTS for text in fact.said]
    for prompt in livedprompts.prompts():
        words = prompt.text.lower().split()
        runs = {" ".join(words[i : i + 5]) for i in range(len(words) - 4)}
        assert not any(run in said for run in runs for said in statements), prompt.text


def test_a_summary_line_that_holds_a_fact_again_is_a_duplicate() -> None:
    text = (
        "## People\n"
        '- [2026-10-06 · ctx-0a1b2c3d4e] "Sara owns the cart module, keep her API stable"\n'
        "- Session 0000012e 10:03–10:52 UTC / Asked: Sara owns the cart module, keep her API"
        " stable\n"
        "- Tests: `pnpm test` passed"
    )
    assert context_quality.duplicate_lines(text) == (3, 1)


def test_bookkeeping_counts_session_ids_clock_ranges_paths_and_counts_not_the_facts() -> None:
    line = "Session 0000012e 2026-10-05 11:03–11:52 UTC (49m, 8m active), in /home/me/work/api"
    parts = ("Session 0000012e", "11:03–11:52 UTC", "(49m, 8m active)", "/home/me/work/api")
    assert context_quality.score(line, [], []).bookkeeping == sum(len(part) for part in parts)
    assert context_quality.score("the local Postgres is on 5433", [], []).bookkeeping == 0
