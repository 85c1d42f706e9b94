"""What a session asked, in words: pasted logs, code, images and data URLs as short markers,
in every place an ask is written (the summary's Asked line, MEMORY.md's Status line, the day's
note), English and Korean, and none of the pasted data on disk through the real hooks."""

from __future__ import annotations

import base64
import json
import random
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artibot_memory import lifecycle
from artibot_memory.capture.sessions import asks_of
from artibot_memory.capture.summary import render_summary
from artibot_memory.capture.transcript import SessionDigest, read_transcript
from artibot_memory.notes.semantic import status_of
from artibot_memory.plugin import entry, fast
from artibot_memory.store.model import Memory, MemoryType
from artibot_memory.text.ask import MAX_READ, ask_in_words

PNG = base64.b64encode(
    b"\x89PNG\r\n\x1a\n" + random.Random("ask: a pasted favicon").randbytes(900)  # noqa: S311
).decode()
FAVICON = f"data:image/png;base64,{PNG}"
PIECES = [PNG[at : at + 20] for at in range(0, len(PNG) - 20, 20)]  # any of them is a leak
LOG = "\n".join(f"2026-11-30 10:{n:02d}:00 ERROR payment webhook timed out" for n in range(40))
CODE = "\n".join(["def handler(event):", *(f"    step_{n}(event)" for n in range(11))])
FAVICON_ASKS = [
    pytest.param(
        f"use this as the favicon: {FAVICON}", "use this as the favicon: [image]", id="english"
    ),
    pytest.param(
        f"이걸 파비콘으로 써 줘: {FAVICON}", "이걸 파비콘으로 써 줘: [image]", id="korean"
    ),
]


# --- the function, English and Korean --------------------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "ask"),
    [
        *FAVICON_ASKS,
        pytest.param(
            "load data:application/json;base64,eyJhIjogMX0= as the fixture",
            "load [data] as the fixture",
            id="data-url",
        ),
        pytest.param(f"decode {PNG[:300]} for me", "decode [data] for me", id="bare-base64"),
        pytest.param(
            f"why does the webhook time out?\n{LOG}\nit started after the deploy",
            "why does the webhook time out? [log, 40 lines] it started after the deploy",
            id="log",
        ),
        pytest.param(
            f"웹훅이 왜 타임아웃 나?\n\n{LOG}",
            "웹훅이 왜 타임아웃 나? [log, 40 lines]",
            id="ko-log",
        ),
        pytest.param(
            f"refactor this:\n```python\n{CODE}\n```\nkeep the names",
            "refactor this: [code, 12 lines] keep the names",
            id="fenced-code",
        ),
        pytest.param(
            f"이 함수 정리해 줘\n{CODE}", "이 함수 정리해 줘 [code, 12 lines]", id="ko-pasted-code"
        ),
        pytest.param(
            "```\nTraceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'\n```",
            "[log, 3 lines]",
            id="only-a-fenced-log",
        ),
        pytest.param(
            "> always use yarn\n> never npm\nis that still true?",
            "[quote, 2 lines] is that still true?",
            id="quote",
        ),
        pytest.param(
            "[Image #1] 이 버튼 왜 깨져?", "[image] 이 버튼 왜 깨져?", id="ko-placeholder"
        ),
        pytest.param(
            "Please update the docs,\nthen run the tests.\n  - and the changelog",
            "Please update the docs, then run the tests. - and the changelog",
            id="prose-on-lines",
        ),
        pytest.param(
            "TypeError: x is undefined", "TypeError: x is undefined", id="one-typed-line-is-words"
        ),
    ],
)
def test_a_prompt_becomes_its_ask_in_words(prompt: str, ask: str) -> None:
    assert ask_in_words(prompt) == ask


@pytest.mark.parametrize(
    "prompt",
    [
        pytest.param(f"fix the layout {'and the footer ' * 8}\n{CODE}", id="english"),
        pytest.param(f"레이아웃 고쳐 줘 {'그리고 푸터도 ' * 12}\n{CODE}", id="korean"),
    ],
)
def test_the_cut_falls_at_a_word_and_never_inside_a_marker(prompt: str) -> None:
    full = ask_in_words(prompt)
    for limit in range(10, len(full) + 5):
        cut = ask_in_words(prompt, limit)
        assert len(cut) <= limit
        assert "[code" not in cut or "[code, 12 lines]" in cut
        assert cut == full or cut.endswith("…")


@given(st.text(alphabet=st.sampled_from("ab 가나\n`>-:;{}[]#=09/+_.,"), max_size=300))
def test_reading_an_ask_again_changes_nothing(prompt: str) -> None:
    once = ask_in_words(prompt, 120)
    assert ask_in_words(once, 120) == once
    assert "\n" not in once


def test_a_huge_paste_is_read_only_up_to_its_bound() -> None:
    prompt = "why is this slow?\n" + "2026-11-30 10:00:00 INFO tick\n" * 100_000
    assert len(prompt) > MAX_READ
    assert ask_in_words(prompt) == "why is this slow? [log, 100000 lines]"  # counted, not read
    assert ask_in_words("fix it\n" + "more words here\n" * 5_000).endswith("here …")


# --- every writer of an ask --------------------------------------------------------------------


def test_the_summary_asked_line_holds_the_ask_in_words() -> None:
    digest = SessionDigest(
        readable=True,
        session_id="abc",
        prompts=(f"use this as the favicon: {FAVICON}", f"로그 봐 줘\n{LOG}"),
    )
    text = render_summary(digest)
    assert asks_of(text) == ["use this as the favicon: [image]", "로그 봐 줘 [log, 40 lines]"]
    assert not any(piece in text for piece in PIECES)


@pytest.mark.parametrize(
    ("asked", "status"),
    [
        pytest.param(
            f"use this as the favicon: {PNG[:160]}", "use this as the favicon: [data]", id="english"
        ),
        pytest.param(f"파비콘: data:image/png;base64,{PNG[:150]}", "파비콘: [image]", id="korean"),
    ],
)
def test_the_status_line_puts_an_old_summarys_ask_in_words(asked: str, status: str) -> None:
    at = datetime(2026, 11, 30, 10, tzinfo=timezone.utc)
    summary = Memory(
        id="ctx-1",
        type=MemoryType.CONTEXT,
        created_at=at,
        updated_at=at,
        last_seen=at,
        text=f"Session 1a2b3c4d 2026-11-30 10:02–10:45 UTC, branch main\nAsked: {asked}",
    )
    assert status_of(summary).endswith(f"; asked: {status}")


# --- through the real hooks: nothing pasted reaches the home -----------------------------------


def write_transcript(path: Path, prompt: str, cwd: Path) -> None:
    """A session that asks with a pasted image, edits a file and ends."""

    def row(kind: str, second: int, content: Any, **extra: Any) -> str:
        return json.dumps(
            {
                "type": kind,
                "sessionId": "5e55-ask",
                "cwd": str(cwd),
                "gitBranch": "main",
                "timestamp": f"2026-11-30T10:00:{second:02d}Z",
                "message": {"role": kind, "content": content},
                **extra,
            }
        )

    edit = {"file_path": str(cwd / "index.html"), "old_string": "a", "new_string": "b"}
    use = {"type": "tool_use", "id": "toolu_1", "name": "Edit", "input": edit}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}
    rows = [
        row("user", 1, prompt, promptId="p-1"),
        row("assistant", 2, [use]),
        row("user", 3, [result], toolUseResult={"type": "update"}),
        row("assistant", 4, [{"type": "text", "text": "The favicon is set."}]),
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def hook(event: str, payload: dict[str, Any]) -> None:
    assert entry.run_hook(event, json.dumps(payload).encode()) == 0


@pytest.mark.parametrize(("prompt", "ask"), FAVICON_ASKS)
def test_no_pasted_image_reaches_any_file_of_the_home_through_the_hooks(
    tmp_path: Path, memory_home: Path, monkeypatch: pytest.MonkeyPatch, prompt: str, ask: str
) -> None:
    monkeypatch.setattr(fast, "start_worker", lambda *_verb: None)  # the test is the worker
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    transcript = tmp_path / "inputs" / "session.jsonl"
    transcript.parent.mkdir()
    write_transcript(transcript, prompt, project)
    base = {"session_id": "5e55-ask", "cwd": str(project), "transcript_path": str(transcript)}
    hook("SessionStart", {**base, "source": "startup"})
    hook("UserPromptSubmit", {**base, "prompt": prompt, "prompt_id": "p-1"})
    hook("SessionEnd", {**base, "reason": "other"})
    lifecycle.ingest()  # the SessionEnd worker: summary, daily note, MEMORY.md, start cache
    hook("SessionStart", {**base, "source": "startup"})

    assert read_transcript(transcript).prompts == (ask,)
    files = {p: p.read_bytes() for p in memory_home.rglob("*") if p.is_file()}
    leaked = [str(p) for p, data in files.items() if any(s.encode() in data for s in PIECES)]
    assert leaked == []
    written = b"\n".join(files.values()).decode("utf-8", "replace")
    assert f"Asked: {ask}" in written  # the summary
    assert f'Asked: \\"{ask}\\"' in written or f'Asked: "{ask}"' in written  # the day's note
    assert f"asked: {ask}" in written  # MEMORY.md's Status line
