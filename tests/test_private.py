"""<private> blocks are kept out of every file, whichever way they come in (core/private.py).

The rules of a block (case, nesting, several, unclosed, a stray closing tag, a mention),
the one place every write passes (redact), and a whole session in English and Korean
through the real hooks and the transcript reader: no canary written inside a block is in
any file of the memory home afterwards, and what was said around the blocks is kept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import privatesession
import pytest
from hypothesis import given
from hypothesis import strategies as st

from artibot_memory.capture import journal
from artibot_memory.capture.transcript import read_transcript
from artibot_memory.cli.app import main
from artibot_memory.core import disk
from artibot_memory.core.private import MARKER, scrub, strip_private
from artibot_memory.core.redact import redact, redact_value
from artibot_memory.plugin import fast

M = MARKER


@pytest.fixture
def no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """SessionEnd and PreCompact only journal in this process; the test ingests."""
    monkeypatch.setattr(fast, "start_worker", lambda *_verb: None)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        pytest.param(
            "deploy with <private>hunter2</private> on staging",
            f"deploy with {M} on staging",
            id="one-block",
        ),
        pytest.param("tags are <PRIVATE>x</Private> any case", f"tags are {M} any case", id="case"),
        pytest.param('<private reason="client">acme</private> done', f"{M} done", id="attributes"),
        pytest.param("a <private>b</private> c <private>d</private> e", f"a {M} c {M} e", id="two"),
        pytest.param("a <private>b <private>c</private> d</private> e", f"a {M} e", id="nested"),
        pytest.param("keep this <private>but not this\nnor this", f"keep this {M}", id="unclosed"),
        pytest.param("cut off</private> and the rest", f"{M} and the rest", id="stray-closing"),
        pytest.param("a truncated tail <private", f"a truncated tail {M}", id="cut-opening-tag"),
        pytest.param(
            "multi\nline <private>one\ntwo</private>\nend", f"multi\nline {M}\nend", id="lines"
        ),
        pytest.param(
            "서버 주소는 <private>10.0.0.7</private>이고 포트는 5433",
            f"서버 주소는 {M}이고 포트는 5433",
            id="korean",
        ),
        pytest.param(
            "고객사 <Private>한빛물류</PRIVATE>와 <private>미래카드",
            f"고객사 {M}와 {M}",
            id="korean-two",
        ),
    ],
)
def test_a_private_block_is_replaced_by_one_marker_and_the_rest_is_kept(
    text: str, kept: str
) -> None:
    assert strip_private(text) == kept
    assert strip_private(kept) == kept  # the marker holds no tag: stripping again is a no-op


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("wrap it in `<private>` and `</private>` tags", id="mention-in-backticks"),
        pytest.param("the <private-key> element and privateKey", id="another-tag"),
        pytest.param("-----BEGIN PRIVATE KEY----- is the redactor's", id="no-tag"),
        pytest.param("if a < b and private > c", id="comparison"),
        pytest.param("`<private>` 태그로 감싸면 저장되지 않아요", id="korean-mention"),
    ],
)
def test_text_without_a_real_tag_comes_back_unchanged(text: str) -> None:
    assert strip_private(text) is text


@given(
    before=st.text(st.characters(blacklist_characters="<`")),
    inside=st.text(min_size=1),
    after=st.text(st.characters(blacklist_characters="<`")),
    tag=st.sampled_from(["private", "PRIVATE", "Private", 'private id="1"']),
)
def test_nothing_inside_a_block_survives_and_nothing_around_it_is_lost(
    before: str, inside: str, after: str, tag: str
) -> None:
    closing = tag.split(maxsplit=1)[0]
    kept = strip_private(f"{before}<{tag}>{inside}</{closing}>{after}")
    assert kept.startswith(before)
    assert kept.endswith(after)
    assert M in kept
    assert kept.count(M) == 1 or "private" in inside.lower()  # a tag inside nests or closes
    marked = kept[len(before) : len(kept) - len(after)]
    assert marked == M or "private" in inside.lower()
    assert strip_private(kept) == kept


def test_every_string_of_a_payload_is_stripped_keys_too_and_the_payload_is_kept() -> None:
    payload: dict[str, Any] = {
        "prompt": "use <private>x1</private> here",
        "tool_input": {"edits": [{"new_string": "a <private>x2</private>"}], "n": 3},
        "tags": ("<private>x3</private>", "kept"),
        "<private>x4</private>": "value",
    }
    assert scrub(payload) is payload
    assert payload == {
        "prompt": f"use {M} here",
        "tool_input": {"edits": [{"new_string": f"a {M}"}], "n": 3},
        "tags": (M, "kept"),
        M: "value",
    }


def test_the_redactor_every_write_passes_through_takes_blocks_out_before_its_rules() -> None:
    text = "export API_KEY=abc123xyz789 <private>meadow-4412</private> done"
    assert redact(text) == f"export API_KEY=[REDACTED:env-secret] {M} done"
    assert redact_value({"cmd": ["<PRIVATE>meadow-4412</PRIVATE>"]}) == {"cmd": [M]}


def test_the_one_write_path_writes_no_private_block(tmp_path: Path) -> None:
    disk.write_text(tmp_path / "note.md", "- decided <private>quarry-1177</private> today\n")
    disk.write_document(tmp_path / "doc.json", b'{"text": "<private>quarry-1177</private>"}')
    disk.append_text(str(tmp_path / "log.txt"), "failed on <private>quarry-1177</private>\n")
    written = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    assert b"quarry-1177" not in written
    assert written.count(M.encode()) == 3


def test_a_block_whose_opening_tag_the_journal_cut_away_is_still_hidden(
    memory_home: Path,
) -> None:
    # The journal cuts a long output in the middle before redacting it: here the cut takes
    # the opening tag and keeps the canary and the closing tag in the tail.
    output = "log line\n" * 600 + "<private>" + "x" * 30_000 + " cobalt-9031</private> tail"
    journal.append({"event": "PostToolUse", "output": output})
    [line] = (memory_home / journal.JOURNAL_NAME).read_text().splitlines()
    assert "cobalt-9031" not in line
    assert json.loads(line)["output"].endswith(" tail")


def test_a_preference_stated_only_inside_a_block_is_not_detected_on_the_fast_path() -> None:
    payload = {"prompt": "<private>From now on always use yarn</private>", "cwd": "/src/shop"}
    done, _output = fast.route("UserPromptSubmit", payload)
    assert done  # no preference found: the full path, which saves one, is not needed
    assert payload["prompt"] == M
    stated = {"prompt": "From now on always use yarn. <private>x</private>", "cwd": "/src/shop"}
    assert fast.route("UserPromptSubmit", stated) == (False, None)  # this one goes on to be kept
    # A sentence that held a block is left out whole, as one that held a secret is.
    mixed = {"prompt": "From now on always use <private>yarn</private>", "cwd": "/src/shop"}
    assert fast.route("UserPromptSubmit", mixed)[0]


def test_the_transcript_reader_sees_no_private_block_in_any_row(tmp_path: Path) -> None:
    session = privatesession.build(tmp_path / "shop", tmp_path / "inputs")
    digest = read_transcript(session.transcript)
    told = repr(digest).lower()
    assert [c for c in session.secrets if c in told] == []
    assert digest.prompts[0].startswith("From now on always use pnpm")
    assert any(f"빌링은 {M} 없이" in mark.text for mark in digest.decisions)
    assert digest.commands == {f"grep -rn '{M}' src": 1}


@pytest.mark.usefixtures("no_worker")
def test_a_whole_session_through_the_hooks_leaves_no_private_text_in_the_memory_home(
    memory_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    session = privatesession.build(project, tmp_path / "inputs")
    privatesession.in_process(session)
    printed = capsys.readouterr().out
    assert main(["ingest"]) == 0
    privatesession.in_process(privatesession.Session(session.cwd, [], session.events[:1], Path()))
    printed += capsys.readouterr().out  # the next session's start, rendered from what was kept
    assert main(["export"]) == 0
    exported = capsys.readouterr().out
    files = privatesession.files_of(memory_home)
    assert privatesession.holding(files, session.secrets, printed, exported) == {}
    _the_rest_was_kept(files, exported)


def _the_rest_was_kept(files: dict[str, bytes], exported: str) -> None:
    """What was said around the blocks is in the memory, as for any session."""
    records = [json.loads(line) for line in exported.splitlines()]
    texts: dict[str, list[str]] = {}
    for record in records:
        texts.setdefault(record["type"], []).append(record["text"])
    assert "From now on always use pnpm to install packages" in texts["preference"]
    assert "앞으로 커밋 메시지는 영어로 써줘" in texts["preference"]
    assert "pytest -q tests/test_billing.py" in texts["command"]
    assert f"curl -s -H 'X-Client: {M}' https://api.example.com/health" in texts["command"]
    [summary] = [text for text in texts["context"] if text.startswith("Session ")]
    assert f"{M} Now fix the failing billing test" in summary
    notes = [data.decode() for name, data in files.items() if name.startswith("daily/")]
    assert any("Now fix the failing billing test" in note for note in notes)
    assert privatesession.holding(files, ["yarn"]) == {}  # stated only inside a block


def test_a_whole_session_through_real_hook_processes_leaves_no_private_text(
    memory_home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    session = privatesession.build(project, tmp_path / "inputs")
    printed = privatesession.in_processes(session, memory_home)
    assert main(["ingest"]) == 0
    printed += privatesession.in_processes(
        privatesession.Session(session.cwd, [], session.events[:1], Path()), memory_home
    )
    files = privatesession.files_of(memory_home)
    assert privatesession.holding(files, session.secrets, *printed) == {}
    assert b"pnpm" in files["user-preferences.json"]
