"""The settings: defaults, the home's config.toml, a project's override, and what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artibot_memory.cli.app import main as cli_main
from artibot_memory.core import config


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_without_files_every_setting_is_its_default(tmp_path: Path) -> None:
    settings = config.load(tmp_path / "home", str(tmp_path / "shop"))
    assert {name: settings[name] for name in settings} == {
        s.name: s.default for s in config.SETTINGS
    }
    assert {settings.origin(name) for name in settings} == {"default"}
    assert settings.problems == []
    assert settings.files == []


def test_the_project_file_wins_over_the_home_file_which_wins_over_the_default(
    tmp_path: Path,
) -> None:
    home = _write(
        tmp_path / "home" / "config.toml",
        "[promotion]\nauto_promote = true\nreject_days = 10\n[evolve]\ntop_beliefs_n = 5\n",
    )
    project = tmp_path / "shop"
    override = _write(project / ".artibot-memory.toml", "[promotion]\nreject_days = 3\n")
    settings = config.load(home.parent, str(project))
    assert settings["promotion.auto_promote"] is True
    assert settings.origin("promotion.auto_promote") == str(home)
    assert (settings["promotion.reject_days"], settings.origin("promotion.reject_days")) == (
        3,
        str(override),
    )
    assert settings["evolve.top_beliefs_n"] == 5
    assert settings["conflicts.behaviour_sessions"] == 3
    assert settings.origin("conflicts.behaviour_sessions") == "default"
    elsewhere = config.load(home.parent, str(tmp_path / "api"))
    assert elsewhere["promotion.reject_days"] == 10  # another project: the home's value


def test_a_whole_number_is_taken_for_a_fraction_but_not_the_other_way(tmp_path: Path) -> None:
    _write(
        tmp_path / "config.toml",
        "[promotion]\nhigh_confidence = 1\nrepeat_min = 2.5\n",
    )
    settings = config.load(tmp_path, None)
    assert settings["promotion.high_confidence"] == 1.0
    assert isinstance(settings["promotion.high_confidence"], float)
    assert settings["promotion.repeat_min"] == 3
    expected = "promotion.repeat_min must be a whole number (got 2.5); default kept"
    assert settings.problems == [f"{tmp_path / 'config.toml'}: {expected}"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[promotion]\nauto_promote = 'yes'\n", "promotion.auto_promote must be true or false"),
        ("[promotion]\nhigh_confidence = 1.5\n", "promotion.high_confidence must be at most 1"),
        ("[evolve]\ntop_beliefs_n = 0\n", "evolve.top_beliefs_n must be at least 1"),
        ("[promotion]\nauto_promot = true\n", "unknown setting 'promotion.auto_promot'"),
        ("auto_promote = true\n", "unknown setting 'auto_promote'"),
        ("[promotion\nauto_promote = true\n", "not valid TOML"),
    ],
)
def test_a_bad_setting_is_left_out_with_one_line_and_the_rest_still_apply(
    tmp_path: Path, text: str, problem: str
) -> None:
    _write(tmp_path / "config.toml", text + "\n[recall]\nstale_days = 30\n")
    settings = config.load(tmp_path, None)
    assert len(settings.problems) == 1
    assert problem in settings.problems[0]
    assert "\n" not in settings.problems[0]
    broken = "not valid TOML" in problem
    assert settings["recall.stale_days"] == (90 if broken else 30)
    assert settings["promotion.auto_promote"] is False


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = _write(tmp_path / "config.toml", "[recall]\nstale_days = 30\n")
    assert config.load(tmp_path, None)["recall.stale_days"] == 30
    path.write_text("[recall]\nstale_days = 45\n# longer, so the size differs\n", "utf-8")
    assert config.load(tmp_path, None)["recall.stale_days"] == 45


def test_the_config_verb_prints_each_value_and_where_it_came_from(
    memory_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(memory_home / "config.toml", "[promotion]\nauto_promote = true\nbogus = 1\n")
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    _write(project / ".artibot-memory.toml", "[evolve]\ntop_beliefs_n = 4\n")
    assert cli_main(["config", "--project", str(project)]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.count(".") >= 1}
    assert rows["promotion.auto_promote"][1:] == ["true", "config.toml"]
    assert rows["evolve.top_beliefs_n"][1:] == ["4", ".artibot-memory.toml"]
    assert f"  {memory_home / 'config.toml'}\n" in out  # the files in full, in their order
    assert f"  {project / '.artibot-memory.toml'}\n" in out
    assert rows["recall.stale_days"][1:] == ["90", "default"]
    assert "unknown setting 'promotion.bogus'" in out
    assert cli_main(["config", "--project", str(project), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "artibot-memory/1"
    assert data["read"] == [str(memory_home / "config.toml"), str(project / ".artibot-memory.toml")]
    by_name = {row["name"]: row for row in data["settings"]}
    assert by_name["evolve.top_beliefs_n"]["value"] == 4
    assert by_name["evolve.top_beliefs_n"]["default"] == 10
    assert len(data["problems"]) == 1


def test_without_a_toml_parser_the_files_are_said_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path / "config.toml", "[recall]\nstale_days = 30\n")
    monkeypatch.setattr(config, "toml_parser", lambda: None)
    config._CACHE.clear()  # noqa: SLF001 - the file is unchanged, its reading is not
    settings = config.load(tmp_path, None)
    assert settings["recall.stale_days"] == 90
    assert settings.problems == [
        f"{tmp_path / 'config.toml'}: not read: this Python has neither tomllib nor tomli"
    ]
