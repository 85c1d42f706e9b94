"""The evolve skill (`/artibot-memory:evolve`) and the CLI agree: its command lines parse.

skills/evolve/SKILL.md is what Claude follows when the user types `/artibot-memory:evolve`:
it must pass the user's flags through ($ARGUMENTS), show commands the real parser accepts,
name every flag of the `evolve` verb, and allow only verbs the CLI has.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from test_skill import PROGRAM, block_commands, inline_commands, subparsers

from artibot_memory.cli.app import build_parser

SKILL = Path(__file__).resolve().parent.parent / "skills" / "evolve" / "SKILL.md"
_ALLOWED = re.compile(r"^\s*-\s*Bash\(artibot-memory (\S+) \*\)\s*$", re.MULTILINE)


def parts() -> tuple[str, str]:
    _, front, body = SKILL.read_text(encoding="utf-8").split("---\n", 2)
    return front, body


def commands() -> list[str]:
    _, body = parts()
    return block_commands(body) + inline_commands(body)


def test_the_skill_is_named_evolve_and_the_user_can_invoke_it() -> None:
    front, body = parts()
    assert re.search(r"^name: evolve$", front, re.MULTILINE)
    assert re.search(r"^user-invocable: true$", front, re.MULTILINE)
    assert "$ARGUMENTS" in body  # the user's flags, passed through


@pytest.mark.parametrize("command", commands())
def test_every_command_of_the_skill_parses(command: str) -> None:
    words = shlex.split(command, comments=True)
    assert words[0] == PROGRAM
    try:
        build_parser().parse_args(words[1:])
    except SystemExit as exc:
        pytest.fail(f"the skill shows a command the CLI refuses ({exc.code}): {command}")


def test_the_skill_names_every_flag_of_evolve() -> None:
    _, body = parts()
    flags = {f for f in subparsers()["evolve"]._option_string_actions if f.startswith("--")}  # noqa: SLF001
    assert flags - {"--help"} <= set(re.findall(r"--[a-z-]+", body))


def test_the_skill_runs_each_phase_and_profile_set() -> None:
    verbs = [shlex.split(c)[1:] for c in commands()]
    assert ["evolve"] in verbs
    assert ["evolve", "--dry-run"] in verbs
    assert any(v[:2] == ["profile", "set"] and "--file" in v for v in verbs)


def test_the_allowed_tools_are_verbs_of_the_cli() -> None:
    front, _ = parts()
    allowed = set(_ALLOWED.findall(front))
    assert allowed >= {"evolve", "profile"}
    assert allowed <= set(subparsers())


def test_the_skill_says_to_show_the_audit_log_and_the_warnings() -> None:
    _, body = parts()
    assert "evolution.log" in body
    assert "warning" in body.lower()
