"""Errors paired with what fixed them, and told back: issue 10, items 2 to 4.

The sessions here are played through the real hooks (captured 2.1.332 payloads, reshaped)
and written as real 2.1.332 transcript rows (the fixture's rows, reshaped), then ingested
as the SessionEnd worker does; what a later failure hears back is read from the hook.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time
from payloads import captured

from artibot_memory import lifecycle
from artibot_memory.api import memories
from artibot_memory.api.ingest import apply_records
from artibot_memory.capture import pairing
from artibot_memory.capture.pairing import Step, command_step, explanation, pair
from artibot_memory.plugin import fast
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.merge import adopt_fix
from artibot_memory.store.model import Memory, State
from artibot_memory.store.table import spec_for

TRANSCRIPT = (
    Path(__file__).parent
    / "fixtures"
    / "transcripts"
    / "bf94da03-d611-4290-9869-acf21951c67b.jsonl"
)
_ROWS: list[dict[str, Any]] = [json.loads(line) for line in TRANSCRIPT.read_text().splitlines()]
# The fixture's rows of each kind: a prompt, the assistant's words, a tool call, a result.
TEMPLATES = {"prompt": _ROWS[4], "said": _ROWS[19], "call": _ROWS[20], "result": _ROWS[31]}

LOADER_ERROR = (
    "Exit code 1\nTraceback (most recent call last):\n"
    '  File "<string>", line 1, in <module>\n'
    "ModuleNotFoundError: No module named 'yaml'"
)
IMPORT = 'python -c "import settings_loader"'


def make_project(root: Path, name: str) -> str:
    folder = root / name
    (folder / ".git").mkdir(parents=True)
    return str(folder)


@dataclass
class Session:
    """One Claude Code session, told to the hooks and written to its transcript as it goes."""

    session_id: str
    cwd: str
    transcript: Path
    day: str = "2026-11-30"
    rows: list[dict[str, Any]] = field(default_factory=list)
    outputs: list[dict[str, Any] | None] = field(default_factory=list)
    ids: Iterator[int] = field(default_factory=lambda: count(1))

    def _row(self, kind: str, content: Any) -> dict[str, Any]:
        row: dict[str, Any] = copy.deepcopy(TEMPLATES[kind])
        minute = len(self.rows)
        row.update(
            sessionId=self.session_id,
            cwd=self.cwd,
            timestamp=f"{self.day}T10:{minute // 60:02d}:{minute % 60:02d}.000Z",
        )
        row["message"]["content"] = content
        self.rows.append(row)
        return row

    def prompt(self, text: str) -> None:
        self._row("prompt", text)

    def say(self, text: str) -> None:
        self._row("said", [{"type": "text", "text": text}])

    def _call(self, tool: str, given: dict[str, Any]) -> str:
        tool_id = f"toolu_{self.session_id}_{next(self.ids)}"
        self._row("call", [{"type": "tool_use", "id": tool_id, "name": tool, "input": given}])
        return tool_id

    def _result(self, tool_id: str, text: str, extra: Any, *, error: bool) -> None:
        block = {"tool_use_id": tool_id, "type": "tool_result", "content": text, "is_error": error}
        self._row("result", [block])["toolUseResult"] = extra

    def _hook(self, event: str, tool: str, tool_id: str, **fields: Any) -> None:
        payload = {**captured(event), "session_id": self.session_id, "cwd": self.cwd}
        payload.update(tool_name=tool, tool_use_id=tool_id, **fields)
        self.outputs.append(fast.handle(event, payload))

    def run(self, command: str, output: str = "", *, error: bool = False) -> dict[str, Any] | None:
        """Run a Bash command; return what the failure hook answered (None on success)."""
        given = {"command": command, "description": "run"}
        tool_id = self._call("Bash", given)
        if error:
            self._result(tool_id, output, f"Error: {output}", error=True)
            self._hook("PostToolUseFailure", "Bash", tool_id, tool_input=given, error=output)
        else:
            response = {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}
            self._result(tool_id, output, response, error=False)
            self._hook("PostToolUse", "Bash", tool_id, tool_input=given, tool_response=response)
        return self.outputs[-1]

    def write(self, name: str, old: str, new: str) -> None:
        """Rewrite a file of the project with Write (a result that carries its patch)."""
        path = f"{self.cwd}/{name}"
        given = {"file_path": path, "content": new}
        tool_id = self._call("Write", given)
        lines = [f"-{x}" for x in old.splitlines()] + [f"+{x}" for x in new.splitlines()]
        patch = [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": lines}]
        response = {"type": "update", "filePath": path, "content": new, "structuredPatch": patch}
        self._result(
            tool_id, f"The file {path} has been updated successfully.", response, error=False
        )
        self._hook("PostToolUse", "Write", tool_id, tool_input=given, tool_response=response)

    def end(self) -> None:
        """End the session as Claude Code does, then run the worker SessionEnd starts."""
        self.transcript.write_text("".join(json.dumps(row) + "\n" for row in self.rows))
        payload = {**captured("SessionEnd"), "session_id": self.session_id, "cwd": self.cwd}
        payload["transcript_path"] = str(self.transcript)
        fast.route("SessionEnd", payload)
        lifecycle.ingest()


def quokka_session(tmp_path: Path, quokka: str) -> Session:
    """The session users saw: the import fails, another command works, Claude says the fix."""
    session = Session("q1", quokka, tmp_path / "q1.jsonl")
    session.prompt("Load the settings through settings_loader.py")
    session.run(IMPORT, LOADER_ERROR, error=True)
    session.say("That module does not exist; the loader only needs the standard json module.")
    session.run('python -c "import json; print(json.__name__)"', "json")
    session.write("settings_loader.py", "import yaml", "import json")
    session.say(
        f"**Fixed:** {quokka}/settings_loader.py now uses the standard json module, not yaml."
    )
    return session


def errors() -> list[Memory]:
    return Store(spec_for("error")).load()


def context_of(output: dict[str, Any] | None) -> str:
    assert output is not None
    return str(output["hookSpecificOutput"]["additionalContext"])


# --- the session users saw, end to end ---------------------------------------------------------


def test_a_fix_the_assistant_explained_is_stored_with_its_words_and_its_edit(
    tmp_path: Path, started: list[list[str]]
) -> None:
    quokka = make_project(tmp_path, "quokka-app")
    with freeze_time("2026-11-30T10:05:00Z"):
        quokka_session(tmp_path, quokka).end()
    [error] = errors()
    fix = error.details["fix"]
    assert (fix["method"], fix["confidence"], fix["session_id"]) == ("explained", 0.6, "q1")
    assert fix["at"].startswith("2026-11-30T10:")
    assert fix["edits"] == ["settings_loader.py (-import yaml +import json)"]
    assert fix["explanation"] == (
        "That module does not exist; the loader only needs the standard json module. "
        f"Fixed: {quokka}/settings_loader.py now uses the standard json module, not yaml."
    )
    assert (error.state, error.confidence) == (State.RESOLVED, 0.6)
    assert "edited settings_loader.py (-import yaml +import json)" in (error.resolution or "")
    assert len(started) == 1  # the worker SessionEnd starts, run in process here


@pytest.mark.usefixtures("started")  # the worker SessionEnd starts
def test_the_next_failure_of_the_same_command_hears_what_fixed_it_when_where_how_sure(
    tmp_path: Path,
) -> None:
    quokka = make_project(tmp_path, "quokka-app")
    with freeze_time("2026-11-30T10:05:00Z"):
        quokka_session(tmp_path, quokka).end()
    [error] = errors()
    with freeze_time("2026-12-02T09:00:00Z"):
        later = Session("q2", quokka, tmp_path / "q2.jsonl", day="2026-12-02")
        text = context_of(later.run(IMPORT, LOADER_ERROR, error=True))
    assert text == (
        f"artibot-memory record {error.id}: fixed on 2026-11-30 in quokka-app: "
        '"That module does not exist; the loader only needs the standard json module. '
        "Fixed: settings_loader.py now uses the standard json module, not yaml; "
        'ran `python -c \\"import json; print(json.__name__)\\"`; '
        'edited settings_loader.py (-import yaml +import json)"; '
        "explained by the assistant, not re-verified (confidence 0.60)."
    )
    assert quokka not in text


@pytest.mark.usefixtures("started")  # the worker SessionEnd starts
def test_another_project_hears_the_fix_of_a_specific_error_without_its_paths(
    tmp_path: Path,
) -> None:
    quokka = make_project(tmp_path, "quokka-app")
    otter = make_project(tmp_path, "otter-api")
    with freeze_time("2026-11-30T10:05:00Z"):
        quokka_session(tmp_path, quokka).end()
    elsewhere = Session("o1", otter, tmp_path / "o1.jsonl")
    with freeze_time("2026-11-30T11:00:00Z"):
        text = context_of(elsewhere.run("python manage.py check", LOADER_ERROR, error=True))
    assert text.startswith(f"artibot-memory record {errors()[0].id}: in another project,")
    assert "in another project, quokka-app: fixed on 2026-11-30:" in text
    assert "settings_loader.py now uses the standard json module" in text
    assert str(tmp_path) not in text


def test_a_fix_for_a_vague_error_stays_in_its_project(tmp_path: Path) -> None:
    quokka = make_project(tmp_path, "quokka-app")
    otter = make_project(tmp_path, "otter-api")
    vague = "Exit code 1\nTraceback (most recent call last):\nAssertionError"
    here = Session("q1", quokka, tmp_path / "q1.jsonl")
    here.run("python check.py", vague, error=True)
    here.run("python check.py", "ok")
    apply_records(drained())
    assert errors()[0].resolution  # fixed in quokka-app
    assert here.run("python check.py", vague, error=True) is not None
    elsewhere = Session("o1", otter, tmp_path / "o1.jsonl")
    assert elsewhere.run("python check.py", vague, error=True) is None


def test_an_error_never_seen_gets_nothing(tmp_path: Path) -> None:
    session = Session("q1", make_project(tmp_path, "quokka-app"), tmp_path / "q1.jsonl")
    assert session.run(IMPORT, LOADER_ERROR, error=True) is None


def test_an_error_seen_and_never_resolved_is_one_line_with_what_happened_next_stored(
    tmp_path: Path,
) -> None:
    quokka = make_project(tmp_path, "quokka-app")
    for day in ("2026-11-02", "2026-11-09", "2026-11-16"):
        with freeze_time(f"{day}T10:00:00Z"):
            session = Session(f"s-{day}", quokka, tmp_path / "s.jsonl", day=day)
            session.run(IMPORT, LOADER_ERROR, error=True)
            session.run("git status", "clean")
            apply_records(drained())
    [error] = errors()
    assert error.resolution is None
    assert error.confidence == 0.0
    assert error.details["unresolved"]["next"] == "ran `git status`"
    with freeze_time("2026-11-20T10:00:00Z"):
        session = Session("s4", quokka, tmp_path / "s4.jsonl", day="2026-11-20")
        text = context_of(session.run(IMPORT, LOADER_ERROR, error=True))
    assert text == (
        f"artibot-memory record {error.id}: this error was seen 3× since 2026-11-02"
        " in quokka-app, never resolved."
    )


def drained() -> list[dict[str, Any]]:
    from artibot_memory.capture import journal  # noqa: PLC0415

    with journal.drain() as batch:
        return list(batch)


# --- how each pairing is established ------------------------------------------------------------


def failed(command: str, signature: str = "boom", at: str = "") -> Step:
    return command_step(pairing.FAILED, command, signature=signature, at=at)


def succeeded(command: str, at: str = "") -> Step:
    return command_step(pairing.SUCCEEDED, command, at=at)


def said(text: str, at: str = "") -> Step:
    return Step(pairing.SAID, text, at)


def edited(path: str, change: str = "") -> Step:
    return Step(pairing.EDITED, path, change=change)


@pytest.mark.parametrize(
    ("steps", "method", "confidence"),
    [
        pytest.param([failed("npm test"), succeeded("npm test")], "same-command", 0.9, id="same"),
        pytest.param(
            [failed("pytest tests/a.py -x"), succeeded("uv run pytest tests/a.py -q")],
            "same-target",
            0.7,
            id="same-target",
        ),
        pytest.param(
            [failed("git push"), succeeded("git push --set-upstream origin main")],
            "same-target",
            0.7,
            id="same-program",
        ),
        pytest.param(
            [failed("make"), said("The problem was a missing header.")],
            "explained",
            0.6,
            id="explained",
        ),
        pytest.param([failed("make"), succeeded("ls")], "unresolved", 0.0, id="unresolved"),
        pytest.param(
            [failed("pytest"), succeeded("pytest tests/test_one.py")],
            "unresolved",
            0.0,
            id="narrower-run",
        ),
    ],
)
def test_each_pairing_says_how_it_was_established_and_how_sure(
    steps: list[Step], method: str, confidence: float
) -> None:
    [(at, fix)] = pair(steps)
    assert (at, fix.method, fix.confidence) == (0, method, confidence)


def test_a_verified_fix_keeps_the_assistants_words_said_right_after_the_success() -> None:
    steps = [
        failed("npm test"),
        edited("/src/app/add.js", "-return a - b +return a + b"),
        succeeded("npm test", at="t3"),
        said("Tests pass. The bug was a minus sign: add.js subtracted instead of adding."),
        succeeded("git diff"),
        said("The fix was also worth a test."),  # after the next call: not about this fix
    ]
    [(_, fix)] = pair(steps)
    assert (fix.method, fix.at) == ("same-command", "t3")
    assert fix.describe("/src/app") == (
        "The bug was a minus sign: add.js subtracted instead of adding; "
        "edited add.js (-return a - b +return a + b); then `npm test` succeeded"
    )


def test_the_assistants_words_after_the_turn_ended_do_not_explain_it() -> None:
    steps = [failed("make"), Step(pairing.TURN), said("The fix was to install gcc.")]
    [(_, fix)] = pair(steps)
    assert fix.method == "unresolved"


def test_of_many_cue_sentences_the_two_nearest_the_failure_are_kept() -> None:
    words = said(
        "Let me look. The problem was the lock file. I changed the pin.\nFixed: it builds now."
    )
    assert explanation([words])[0] == "The problem was the lock file. I changed the pin."


@pytest.mark.parametrize(
    "text",
    [
        "The fix was to pin the version.",
        "Fixed it by pinning the version.",
        "The problem was an unpinned version.",
        "I changed the pin in requirements.txt.",
        "Fixed: the version is pinned.",
        "Root cause: an unpinned version.",
        "원인은 버전이 고정되지 않은 것이었습니다.",
        "requirements.txt의 버전을 수정했습니다.",
        "버전을 고정해서 고쳤습니다.",
        "해결: 버전을 고정했습니다.",
        "That module does not exist.",
        "The loader only needs the standard json module.",
        "pytest-cov is not installed in this venv.",
        "DATABASE_URL isn't set in CI.",
        "There was a typo in the import.",
        "The build failed because the cache was stale.",
        "settings 모듈이 존재하지 않습니다.",
    ],
)
def test_each_cue_in_english_and_korean_makes_an_explanation(text: str) -> None:
    [(_, fix)] = pair([failed("pip install -r requirements.txt"), said(f"Hmm. {text}")])
    assert (fix.method, fix.explanation) == ("explained", text)


def test_a_diagnosis_and_the_fix_are_kept_together() -> None:
    words = said(
        "That module does not exist; the loader only needs the standard json module.\n"
        "Fixed: settings_loader.py now reads settings.json with json.load."
    )
    assert explanation([words])[0] == (
        "That module does not exist; the loader only needs the standard json module. "
        "Fixed: settings_loader.py now reads settings.json with json.load."
    )


@pytest.mark.parametrize(
    "text",
    [
        "Let me look at the error.",
        "I'll change the version next.",
        "다시 실행해 보겠습니다.",
        "Let me check whether the module is missing.",
        "Is DATABASE_URL not set?",
        "I'll see if the file does not exist.",
        "One more on line 40 (adjusted with the extra lines I added).",  # an aside, not the fix
    ],
)
def test_words_that_say_nothing_about_the_cause_or_fix_are_no_explanation(text: str) -> None:
    [(_, fix)] = pair([failed("make"), said(text)])
    assert fix.method == "unresolved"


@pytest.mark.usefixtures("started")  # the worker SessionEnd starts
def test_a_secret_in_the_assistants_words_never_reaches_the_store(tmp_path: Path) -> None:
    secret = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"
    quokka = make_project(tmp_path, "quokka-app")
    session = Session("q1", quokka, tmp_path / "q1.jsonl")
    session.prompt("deploy")
    session.run("make deploy", "Exit code 2\nerror: bad credentials", error=True)
    session.say(f"The problem was the token: I changed GITHUB_TOKEN={secret} in .env.")
    session.end()
    [error] = errors()
    assert error.details["fix"]["method"] == "explained"
    assert secret not in (tmp_path / "memory-home" / "error-patterns.json").read_text()


# --- errors stored open, and a surer fix --------------------------------------------------------


def test_an_error_stored_by_an_earlier_batch_is_closed_by_a_later_success(tmp_path: Path) -> None:
    session = Session("s1", make_project(tmp_path, "shop"), tmp_path / "s1.jsonl")
    session.run("npm test", "Exit code 1\nnpm error missing script: test", error=True)
    apply_records(drained())  # a SessionStart elsewhere drained the journal meanwhile
    session.run("npm test", "ok")
    apply_records(drained())
    [error] = errors()
    assert (error.state, error.details["fix"]["method"]) == (State.RESOLVED, "same-command")
    assert error.resolution == "re-running `npm test` unchanged succeeded"


def test_a_weaker_fix_does_not_replace_a_surer_one_and_a_tie_goes_to_the_newer() -> None:
    saved = memories.save("error", "boom", resolution="verified fix", confidence=0.9)
    assert not adopt_fix(saved, "a guess", 0.6, {"method": "explained"})
    assert (saved.resolution, saved.confidence) == ("verified fix", 0.9)
    assert adopt_fix(saved, "verified again", 0.9, {"method": "same-command"})
    assert (saved.resolution, saved.details["fix"]) == (
        "verified again",
        {"method": "same-command"},
    )


# --- what became of a recalled fix ----------------------------------------------------------------


def recalled_session(tmp_path: Path, *, works: bool) -> Session:
    """A fix stored in one session, recalled in the next, which then works or does not."""
    project = make_project(tmp_path, "shop")
    first = Session("s1", project, tmp_path / "s1.jsonl")
    first.run("python app.py", LOADER_ERROR, error=True)
    first.run("pip install pyyaml", "installed")
    first.run("python app.py", "ok")
    apply_records(drained())
    second = Session("s2", project, tmp_path / "s2.jsonl")
    assert second.run("python app.py", LOADER_ERROR, error=True) is not None
    second.run("pip install pyyaml", "already satisfied")
    second.run("python app.py", "ok" if works else LOADER_ERROR, error=not works)
    return second


def test_a_recalled_fix_that_works_again_gains_evidence_and_confidence(tmp_path: Path) -> None:
    second = recalled_session(tmp_path, works=True)
    apply_records(drained())
    [error] = errors()
    assert error.details["fix"]["confirmed"] == 1
    assert error.confidence == pairing.fix_confidence(0.9, 1, 0) == 0.93
    assert any((e.note or "").startswith("recall:") for e in error.evidence)
    text = context_of(second.run("python app.py", LOADER_ERROR, error=True))
    assert text.endswith(
        "verified: the same command then succeeded; worked once when recalled (confidence 0.93)."
    )


def test_a_recalled_fix_after_which_the_error_came_back_loses_confidence(tmp_path: Path) -> None:
    second = recalled_session(tmp_path, works=False)
    apply_records(drained())
    [error] = errors()
    assert error.details["fix"]["contradicted"] == 1
    assert error.confidence == 0.45
    assert [e.session_id for e in error.counter_evidence] == ["s2"]
    text = context_of(second.run("python app.py", LOADER_ERROR, error=True))
    assert "the error came back once after it was recalled (confidence 0.45)" in text


def test_a_replayed_batch_counts_an_outcome_once(tmp_path: Path) -> None:
    recalled_session(tmp_path, works=True)
    batch = drained()
    apply_records(batch)
    apply_records(batch)  # a crashed ingest's take, applied again
    [error] = errors()
    assert (error.details["fix"]["confirmed"], error.confidence) == (1, 0.93)
