"""The skill and the product agree: every command it shows parses, every verb it names runs.

skills/memory-management/SKILL.md is what Claude reads to use the CLI. Each
``artibot-memory …`` line of its ``bash`` blocks and each inline ```artibot-memory …```
span goes through the real parser (:func:`artibot_memory.cli.app.build_parser`), each verb
it names prints its ``--help`` from the real entry, and what it says the hooks keep is
checked against hooks/hooks.json.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from artibot_memory.cli.app import build_parser

ROOT = Path(__file__).resolve().parent.parent
SKILL = ROOT / "skills" / "memory-management" / "SKILL.md"
ENTRY = ROOT / "bin" / "artibot-memory"
PROGRAM = "artibot-memory"

_FENCE = re.compile(r"^[ \t]*```bash\n(.*?)^[ \t]*```", re.MULTILINE | re.DOTALL)
_INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_ALLOWED = re.compile(r"^\s*-\s*Bash\(artibot-memory (\S+) \*\)\s*$", re.MULTILINE)
_NAMED = re.compile(rf"`{PROGRAM} ([a-z][a-z-]*)")

# Verbs of issue 13 that other branches add (get: recall across layers; edit: MEMORY.md):
# until they are merged, a command of theirs is skipped, not failed; once the parser has
# them, they are checked like every other verb.
ARRIVING = {"get", "edit"}


def skill_text() -> str:
    return SKILL.read_text(encoding="utf-8")


def frontmatter_and_body() -> tuple[str, str]:
    _, front, body = skill_text().split("---\n", 2)
    return front, body


def block_commands(body: str) -> list[str]:
    """The ``artibot-memory`` lines of the ``bash`` blocks, continuation lines joined."""
    commands = []
    for block in _FENCE.findall(body):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip().startswith(f"{PROGRAM} "):
                commands.append(line.strip())
    return commands


def inline_spans(body: str) -> list[str]:
    """Every inline code span of the prose (fenced blocks left out)."""
    return _INLINE.findall(_FENCE.sub("", body))


def inline_commands(body: str) -> list[str]:
    return [span for span in inline_spans(body) if span.startswith(f"{PROGRAM} ")]


def argv_of(command: str) -> list[str]:
    """What the shell would pass: quotes undone, ``# comments`` dropped, the program left out."""
    words = shlex.split(command, comments=True)
    assert words[0] == PROGRAM, command
    return words[1:]


def all_commands() -> list[str]:
    _, body = frontmatter_and_body()
    return block_commands(body) + inline_commands(body)


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    [verbs] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]  # noqa: SLF001
    return dict(verbs.choices)


def test_the_skill_shows_enough_commands_to_check() -> None:
    _, body = frontmatter_and_body()
    assert len(block_commands(body)) >= 15
    assert len(inline_commands(body)) >= 4
    assert {argv_of(c)[0] for c in all_commands()} >= {"search", "save", "list", "forget", "prune"}


def skip_if_arriving(verb: str) -> None:
    if verb in ARRIVING and verb not in subparsers():
        pytest.skip(f"`{verb}` arrives with another branch of issue 13")


@pytest.mark.parametrize("command", all_commands())
def test_every_command_in_the_skill_parses(command: str) -> None:
    skip_if_arriving(argv_of(command)[0])
    try:
        build_parser().parse_args(argv_of(command))
    except SystemExit as exc:  # argparse's way of refusing, after printing why
        pytest.fail(f"the skill shows a command the CLI refuses ({exc.code}): {command}")


def test_every_flag_the_prose_names_is_an_option_of_a_verb() -> None:
    _, body = frontmatter_and_body()
    named = {span.split()[0] for span in inline_spans(body) if span.startswith("--")}
    known = {flag for verb in subparsers().values() for flag in verb._option_string_actions}  # noqa: SLF001
    assert named, "the prose names no flag: the pattern no longer finds them"
    assert named <= known, f"flags the CLI lacks: {sorted(named - known)}"


def test_the_allowed_tools_are_verbs_of_the_cli() -> None:
    front, _ = frontmatter_and_body()
    allowed = _ALLOWED.findall(front)
    assert len(allowed) >= 5
    assert set(allowed) <= set(subparsers())


def run_entry(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - our own entry script
        [sys.executable, str(ENTRY), *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_real_command_line_prints_help_for_every_verb_the_skill_uses() -> None:
    verbs = sorted({argv_of(c)[0] for c in all_commands()})
    overview = run_entry("--help")
    assert overview.returncode == 0, overview.stderr
    for verb in verbs:
        if verb in ARRIVING and verb not in subparsers():
            continue
        assert verb in overview.stdout
        done = run_entry(verb, "--help")
        assert done.returncode == 0, (verb, done.stderr)
        assert done.stdout.startswith(f"usage: {PROGRAM} {verb}"), verb


def test_the_save_examples_use_only_options_save_has() -> None:
    save = subparsers()["save"]
    for command in all_commands():
        argv = argv_of(command)
        if argv[0] != "save":
            continue
        flags = {word.split("=")[0] for word in argv if word.startswith("--")}
        assert flags <= set(save._option_string_actions), command  # noqa: SLF001


def test_project_facts_are_saved_with_a_project() -> None:
    saves = [argv_of(c) for c in all_commands() if argv_of(c)[0] == "save"]
    facts = [argv for argv in saves if argv[1] in {"context", "error"}]
    assert facts
    for argv in facts:
        assert "--project" in argv, argv


def test_the_skill_never_saves_what_the_hooks_keep() -> None:
    for command in all_commands():
        argv = argv_of(command)
        if argv[0] != "save":
            continue
        namespace = build_parser().parse_args(argv)
        assert namespace.type != "command", command  # every Bash call is journaled
        assert "session-summary" not in (namespace.tag or []), command
        assert not (namespace.key or "").startswith("session:"), command


def test_the_skill_names_every_hook_the_plugin_declares() -> None:
    events = json.loads((ROOT / "hooks" / "hooks.json").read_text())["hooks"]
    _, body = frontmatter_and_body()
    section = body.split("## What the hooks already keep", 1)[1].split("\n## ", 1)[0]
    missing = [event for event in events if event not in section]
    assert not missing, f"the skill does not say what these hooks keep: {missing}"


def test_every_verb_the_skill_names_is_a_verb_of_the_cli() -> None:
    _, body = frontmatter_and_body()
    named = set(_NAMED.findall(body)) | {argv_of(c)[0] for c in all_commands()}
    assert {"consolidate", "get", "edit", "prune", "save"} <= named
    missing = named - set(subparsers()) - ARRIVING
    assert not missing, f"the skill names verbs the CLI lacks: {sorted(missing)}"


def test_the_skill_says_how_to_consolidate_with_the_user_first() -> None:
    _, body = frontmatter_and_body()
    commands = [argv_of(c) for c in all_commands() if argv_of(c)[0] == "consolidate"]
    assert ["consolidate", "--dry-run"] in commands
    section = body.split("### Consolidating", 1)[1].split("\n## ", 1)[0]
    assert section.index("--dry-run") < section.index("consolidate --yes")
    assert "checkpoint 1" in section


def test_decisions_are_saved_with_the_decision_tag_in_english_and_korean() -> None:
    saves = [build_parser().parse_args(argv_of(c)) for c in all_commands() if " save " in f" {c} "]
    decisions = [ns.text for ns in saves if "decision" in (ns.tag or [])]
    assert any(text.isascii() for text in decisions)
    assert any(re.search("[가-힣]", text) for text in decisions)
