"""`artibot-memory conflicts` and `conflicts resolve`: text, JSON, the one-line error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artibot_memory.api import memories
from artibot_memory.cli.app import main
from artibot_memory.store import ledger
from artibot_memory.store.model import State

RULE = {"why": "stated as a rule", "confidence": 0.8}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def conflicting() -> tuple[str, str]:
    old = memories.save("preference", "Always use pnpm", key="package-manager", **RULE)
    new = memories.save("preference", "Use npm", key="package-manager", **RULE)
    return new.id, old.id


def test_nothing_disagrees_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "conflicts") == (0, "no conflicts between memories\n", "")
    assert json.loads(run(capsys, "conflicts", "--json")[1]) == []


def test_each_open_conflict_shows_both_sides_its_proposal_and_the_resolve_command(
    capsys: pytest.CaptureFixture[str], memory_home: Path
) -> None:
    new, old = conflicting()
    [entry] = ledger.entries(memory_home)
    code, out, _ = run(capsys, "conflicts")
    assert code == 0
    assert f"{entry.id}  high  open  same-key (package-manager)" in out
    assert "new: Use npm" in out
    assert "old: Always use pnpm" in out
    assert new in out
    assert old in out
    assert "proposal: keep new" in out
    assert f"artibot-memory conflicts resolve {entry.id} --keep new|old|both" in out


def test_resolve_keeps_old_then_the_listing_shows_it_only_with_all(
    capsys: pytest.CaptureFixture[str], memory_home: Path
) -> None:
    new, old = conflicting()
    [entry] = ledger.entries(memory_home)
    code, out, _ = run(
        capsys, "conflicts", "resolve", entry.id, "--keep", "old", "--note", "back to pnpm"
    )
    assert code == 0
    assert out.startswith(f"resolved {entry.id}: kept old")
    assert memories.get(old).state is State.ACTIVE
    assert memories.get(new).state is State.SUPERSEDED
    assert run(capsys, "conflicts")[1] == "no conflicts between memories\n"
    [listed] = json.loads(run(capsys, "conflicts", "--all", "--json")[1])
    assert listed["status"] == "resolved"
    assert listed["resolutions"][0].endswith('— "back to pnpm"')
    assert "Always use pnpm" in (memory_home / "MEMORY.md").read_text()  # rendered again


def test_resolve_as_json_names_each_memory_state(capsys: pytest.CaptureFixture[str]) -> None:
    new, old = conflicting()
    [listed] = json.loads(run(capsys, "conflicts", "--json")[1])
    document = json.loads(
        run(capsys, "conflicts", "resolve", listed["id"], "--keep", "both", "--json")[1]
    )
    assert document["schema"] == "artibot-memory/1"
    assert document["states"] == {new: "active", old: "active"}


def test_an_unknown_id_is_one_line_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "conflicts", "resolve", "cf-00000000", "--keep", "new")
    assert (code, out) == (1, "")
    assert err == (
        "artibot-memory: no conflict 'cf-00000000'; `artibot-memory conflicts --all` lists them\n"
    )


def test_keep_takes_only_new_old_or_both(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["conflicts", "resolve", "cf-00000000", "--keep", "neither"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_a_save_that_contradicts_a_memory_says_so_and_how_to_settle_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "save", "preference", "Always use pnpm, never npm")
    assert (code, out.count("\n")) == (0, 1)
    first = out.split()[1]
    code, out, _ = run(capsys, "save", "preference", "Never use pnpm; use npm")
    assert code == 0
    said = out.splitlines()[1]
    assert said.startswith(f"conflicts with {first} (")
    assert "`conflicts resolve cf-" in said
    assert "--keep new|old|both` settles it" in said
