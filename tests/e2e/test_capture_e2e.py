"""What the hooks capture, recalled where it belongs, in a real Claude Code.

- **An explained fix**: session 1's import fails, a different command succeeds, the
  assistant writes the module and says what the problem was; no retry of the failing
  command ever succeeds. In session 2 the same failure is told what fixed it, in the
  assistant's words, and how sure that is ("explained by the assistant").
- **Another project**: a fix made in project alpha is offered in project beta only for
  the same, specific error, said to come from alpha and without alpha's paths; an
  unrelated failure in beta (Node's assert, whose output ends with the same runtime
  banner) gets nothing.
- **Preferences and their scope**: "from now on always use pnpm" is recalled in the next
  session and in another project; "in this repo, always run ruff" and "staging is
  deployed with …" (a fact, kept as the project's context) only in their own; "just fix
  the bug in parser.py", said twice, nowhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .fake_anthropic import Turn, bash, text, tool_use
from .sessions import (
    Place,
    failure_contexts,
    git_project,
    memories,
    section,
    session,
    show,
    start_context,
    wait_for_ingest,
)

if TYPE_CHECKING:
    from pathlib import Path

    from .fake_anthropic import FakeAnthropic

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("claude_bin")]

IMPORT = 'python3 -c "import settings_loader"'
PROBE = "python3 -c \"import json; print(json.dumps({'debug': True}))\""
LOADER = (
    "import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n"
)
PROBLEM = "That module does not exist; the loader only needs the standard json module."
FIXED = "Fixed: settings_loader.py now reads settings.json with json.load."


def test_a_fix_the_assistant_explained_is_recalled_in_a_new_session(
    fake_api: FakeAnthropic, e2e_home: Path, tmp_path: Path
) -> None:
    project = git_project(tmp_path / "quokka-app")
    place = Place(e2e_home, project, tmp_path / "memory")
    loader = project / "settings_loader.py"
    first: list[Turn] = [
        bash(IMPORT, "Load the settings"),
        bash(PROBE, "Check the json module"),
        tool_use("Write", {"file_path": str(loader), "content": LOADER}, preamble=PROBLEM),
        text(FIXED),
    ]
    one = session("Load the app settings", first, fake_api, place, tools=("Bash", "Write"))
    one.check()
    assert loader.exists(), "the Write tool did not run"
    assert not failure_contexts(fake_api), "a first failure was told of a fix"
    wait_for_ingest(one, place.memory_home)
    [listed] = [e for e in memories(place.memory_home, "error") if "settings_loader" in e["text"]]
    error = show(place.memory_home, listed["id"])
    assert error["details"]["fix"]["method"] == "explained"
    assert "standard json module" in error["resolution"]

    loader.unlink()
    again: list[Turn] = [bash(IMPORT, "Load the settings"), text("It failed again.")]
    session("Load the settings once more", again, fake_api, place).check()

    [told] = failure_contexts(fake_api)
    assert "fixed on " in told and " in quokka-app" in told  # noqa: PT018 - when and where
    assert "the loader only needs the standard json module" in told
    assert "settings_loader.py" in told
    assert "explained by the assistant, not re-verified" in told


ASSERT_ADD = "node add.test.js"
ADD_TEST = (
    "const assert = require('assert');\n"
    "const { add } = require('./add');\n"
    "assert.strictEqual(add(2, 2), 4);\n"
)
MISSING = "node -e \"require('quokka-config')\""
PARSE_TEST = (
    "const assert = require('assert');\n"
    "const parse = (s) => s.trim();\n"
    "assert.deepStrictEqual(parse(' a,b '), ['a', 'b']);\n"
)


def _write(path: Path, content: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    return path


def test_another_projects_fix_only_for_the_same_specific_error_and_without_its_paths(
    fake_api: FakeAnthropic, e2e_home: Path, tmp_path: Path
) -> None:
    alpha = git_project(tmp_path / "alpha")
    _write(alpha / "add.js", "exports.add = (a, b) => a - b;\n")
    _write(alpha / "add.test.js", ADD_TEST)
    place = Place(e2e_home, alpha, tmp_path / "memory")
    module = alpha / "node_modules" / "quokka-config" / "index.js"
    fix_add = "sed -i 's/a - b/a + b/' add.js"
    fix_module = f"mkdir -p {module.parent} && echo 'module.exports = {{}};' > {module}"
    in_alpha: list[Turn] = [
        bash(ASSERT_ADD, "Run the add test"),
        bash(fix_add, "Fix the operator"),
        bash(ASSERT_ADD, "Run the add test again"),
        bash(MISSING, "Load the config"),
        bash(fix_module, "Create the config module"),
        bash(MISSING, "Load the config again"),
        text("Both pass now."),
    ]
    one = session("Make the add test and the config load pass", in_alpha, fake_api, place)
    one.check()
    wait_for_ingest(one, place.memory_home)
    fixed = [e for e in memories(place.memory_home, "error") if e["state"] == "resolved"]
    assert len(fixed) == 2, fixed

    beta = git_project(tmp_path / "beta")
    _write(beta / "parse.test.js", PARSE_TEST)
    in_beta: list[Turn] = [
        bash("node parse.test.js", "Run the parse test"),
        bash(MISSING, "Load the config"),
        text("Two failures."),
    ]
    session("Run the parse test and load the config", in_beta, fake_api, place.elsewhere(beta))

    told = failure_contexts(fake_api)
    assert len(told) == 1, told  # the unrelated assert got nothing
    assert "quokka-config" in fake_api.sent_text()
    assert "in another project, alpha: fixed on " in told[0]
    assert "mkdir" in told[0]
    assert str(alpha) not in fake_api.sent_text(), "alpha's path reached beta's session"
    assert "add.js" not in told[0]


GLOBAL = "From now on always use pnpm, never npm."
LOCAL = "In this repo, always run `ruff check --fix` before committing."
FACT = "Remember that staging is deployed with `make deploy-staging`."
TASK = "Don't change the public API, just fix the bug in parser.py."


def test_a_stated_preference_is_recalled_next_session_and_elsewhere_only_when_it_named_no_place(
    fake_api: FakeAnthropic, e2e_home: Path, tmp_path: Path
) -> None:
    alpha = git_project(tmp_path / "alpha")
    place = Place(e2e_home, alpha, tmp_path / "memory")
    noted: list[Turn] = [text("Noted.")]
    for prompt in (GLOBAL, LOCAL, FACT, TASK, TASK):
        run = session(prompt, noted, fake_api, place).check()
        wait_for_ingest(run, place.memory_home)
    preferences = {m["key"]: m for m in memories(place.memory_home, "preference")}
    assert sorted(preferences) == ["linter", "package-manager"], preferences
    assert preferences["package-manager"]["project"] is None  # global: it named no place
    assert preferences["linter"]["project"] == str(alpha)
    assert {p["state"] for p in preferences.values()} == {"active"}  # said once, yet active
    facts = [m for m in memories(place.memory_home, "context") if m["key"] is None]
    [fact] = [m for m in facts if "deploy-staging" in m["text"]]
    assert fact["project"] == str(alpha)  # a fact about alpha, not a preference

    session("What should I keep in mind here?", noted, fake_api, place).check()
    here = start_context(fake_api)
    assert "always use pnpm, never npm" in here
    assert "ruff check --fix" in here
    assert fact["id"] in here
    # a one-off task instruction, said twice, is no preference (only the sessions name it)
    assert "public API" not in section(here, "Preferences in force")

    beta = git_project(tmp_path / "beta")
    session("What should I keep in mind here?", noted, fake_api, place.elsewhere(beta)).check()
    there = start_context(fake_api)
    assert "always use pnpm, never npm" in there
    assert "ruff check --fix" not in there
    assert "deploy-staging" not in there
