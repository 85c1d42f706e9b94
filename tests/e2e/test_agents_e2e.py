"""Four agents, one memory: Codex CLI, Gemini CLI and Claude Code share what each learns.

The plugin is installed the README's way into each real CLI (``codex plugin marketplace
add`` + ``codex plugin add``; ``gemini extensions install <repo>/gemini --consent``;
Claude Code with ``--plugin-dir``), each world with its own HOME, all on one memory home,
each model a fake on 127.0.0.1. What a user would see:

- a preference stated in a Codex session is in the next Gemini session's first model
  request, and in the next Claude Code session's start;
- an error fixed in Gemini comes back with its fix when it recurs in Codex, in the request
  the model gets after the failed command;
- each agent's session leaves its summary and its daily note, made from its own
  transcript, and every memory says which agent's hook saw it;
- no hook of ours failed or printed more than one JSON object (the CLIs say so on stderr;
  our hooks log their own failures to ``logs/hooks.log``).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .agents import install_codex_plugin, install_gemini_extension, run_codex, run_gemini
from .fake_anthropic import text
from .fake_gemini import FakeGemini
from .fake_openai import FakeOpenAI, developer_texts
from .scripted import Turn, WriteFile, run, say
from .sessions import Place, memories, memory_cli, session, start_context

if TYPE_CHECKING:
    from .agents import Result
    from .fake_anthropic import FakeAnthropic

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 30
PREFERENCE = "Always use pnpm instead of npm"
APP = "import helpers\nprint(helpers.greet())\n"
HELPERS = "def greet():\n    return 'hi'\n"
FIX_MARK = "artibot-memory record err-"
HOOK_FAILED = re.compile(r"hook.*(fail|error)", re.IGNORECASE)  # Codex: "hook: X Failed"


@dataclass(frozen=True)
class World:
    """One user's machine: a HOME holding every agent's config, a project, one memory home."""

    home: Path
    project: Path
    memory_home: Path

    @property
    def env(self) -> dict[str, str]:
        return {"ARTIBOT_MEMORY_HOME": str(self.memory_home)}

    @property
    def codex_home(self) -> Path:
        return self.home / ".codex"

    def codex(self, prompt: str, fake: FakeOpenAI) -> Result:
        result = run_codex(
            prompt,
            self.project,
            codex_home=self.codex_home,
            env=self.env,
            server=fake,
            home=self.home,
        )
        return checked(result)

    def gemini(self, prompt: str, fake: FakeGemini) -> Result:
        result = run_gemini(
            prompt,
            self.project,
            gemini_cli_home=self.home,
            env=self.env,
            server=fake,
            home=self.home,
        )
        return checked(result)


def checked(result: Result) -> Result:
    """The run succeeded and no hook of ours failed in it."""
    result.check()
    failed = [line for line in result.stderr.splitlines() if HOOK_FAILED.search(line)]
    assert not failed, "\n".join(failed)
    return result


@pytest.fixture
def world(tmp_path: Path) -> World:
    """A machine with our plugin installed in Codex CLI and Gemini CLI, from this repository."""
    project = tmp_path / "shop"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # noqa: S603, S607
    place = World(tmp_path / "home", project, tmp_path / "memory")
    for step in install_codex_plugin(place.codex_home, REPO, env=place.env, home=place.home):
        step.check()
    for step in install_gemini_extension(
        place.home, REPO / "gemini", env=place.env, home=place.home
    ):
        step.check()
    return place


def wait_for(what: str, found: Any, seconds: float = WAIT_SECONDS) -> Any:
    """Poll ``found()`` until it is truthy (a detached worker stores a session's end)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"{what}: not there after {seconds} s")


def summaries(world: World, agent: str) -> list[dict[str, Any]]:
    """The session summaries the agent's sessions left (their source names the agent)."""
    return [
        m
        for m in memories(world.memory_home, "context")
        if "session-summary" in m["tags"] and (m["source"] or {}).get("agent") == agent
    ]


def daily_notes(world: World) -> str:
    return "\n".join(
        p.read_text(encoding="utf-8") for p in sorted((world.memory_home / "daily").glob("*.md"))
    )


def no_hook_failures(world: World) -> None:
    log = world.memory_home / "logs" / "hooks.log"
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    failures = [line for line in lines if "Traceback" in line or "Error" in line]
    assert not failures, "\n".join(failures)


@pytest.mark.usefixtures("claude_bin")
def test_a_preference_stated_in_codex_is_in_the_first_request_of_gemini_and_claude_code(
    world: World, fake_api: FakeAnthropic
) -> None:
    with FakeOpenAI([say("Noted: pnpm from now on.")]) as codex:
        world.codex(f"{PREFERENCE}. Set up the project.", codex)
    [preference] = [m for m in memories(world.memory_home, "preference") if m["text"] == PREFERENCE]
    assert preference["source"]["agent"] == "codex-cli"
    assert preference["state"] == "active"

    with FakeGemini([say("Sure.")]) as gemini:
        world.gemini("Add a lint script to package.json.", gemini)
    first = json.dumps(gemini.requests[0].body) if gemini.requests else ""
    assert PREFERENCE in first, "the preference is not in Gemini's first model request"

    place = Place(world.home, world.project, world.memory_home)
    session("Add a test script.", [text("Done.")], fake_api, place)
    assert PREFERENCE in start_context(fake_api), "the preference is not in Claude Code's start"
    context = memory_cli(world.memory_home, "context", "--project", str(world.project))
    assert PREFERENCE in context
    shown = memory_cli(world.memory_home, "show", preference["id"])
    assert "in Codex CLI" in shown
    no_hook_failures(world)


def test_an_error_fixed_in_gemini_comes_back_with_its_fix_when_it_recurs_in_codex(
    world: World,
) -> None:
    (world.project / "app.py").write_text(APP, encoding="utf-8")
    fixing: list[Turn] = [
        run("python3 app.py"),
        WriteFile("helpers.py", HELPERS),
        run("python3 app.py", then_say="Fixed: helpers.py was missing."),
    ]
    with FakeGemini(fixing) as gemini:
        world.gemini("Run the app and fix it.", gemini)
    errors = wait_for(
        "the error fixed in Gemini",
        lambda: [e for e in memories(world.memory_home, "error") if e.get("resolution")],
    )
    assert "helpers" in errors[0]["text"]
    assert errors[0]["source"]["agent"] == "gemini-cli"

    (world.project / "helpers.py").unlink()
    with FakeOpenAI([run("python3 app.py", then_say="It failed."), say("ok")]) as codex:
        world.codex("Run the app.", codex)
    told = [t for r in codex.requests for t in developer_texts(r.body) if t.startswith(FIX_MARK)]
    assert told, "Codex's model was not told the recorded fix after the failure"
    assert errors[0]["id"] in told[0]
    assert "helpers.py" in told[0]
    no_hook_failures(world)


@pytest.mark.parametrize("agent", ["codex-cli", "gemini-cli"])
def test_each_agents_session_leaves_its_summary_and_daily_note_from_its_own_transcript(
    world: World, agent: str
) -> None:
    (world.project / "app.py").write_text(APP, encoding="utf-8")
    script: list[Turn] = [
        run("python3 app.py"),
        WriteFile("helpers.py", HELPERS),
        run("python3 app.py", then_say="Works now."),
    ]
    ask = "Let's use SQLite for the cart because it needs no server. Run the app."
    if agent == "codex-cli":
        with FakeOpenAI(script) as fake:
            world.codex(ask, fake)
    else:
        with FakeGemini(script) as fake_gemini:
            world.gemini(ask, fake_gemini)
    [summary] = wait_for(f"the summary of the {agent} session", lambda: summaries(world, agent))
    assert "Let's use SQLite for the cart" in summary["text"]
    assert "helpers.py" in summary["text"]
    note = wait_for(
        "its daily note", lambda: "helpers.py" in daily_notes(world) and daily_notes(world)
    )
    assert "Asked: \"Let's use SQLite" in note
    assert "fixed by editing helpers.py" in note
    decisions = [m for m in memories(world.memory_home, "context") if "decision" in m["tags"]]
    assert any("SQLite" in m["text"] for m in decisions), decisions
    no_hook_failures(world)
