from __future__ import annotations

from pathlib import Path

import pytest

from artibot_memory.text.subjects import SUBJECTS, subject_key


@pytest.mark.parametrize(
    ("text", "key"),
    [
        pytest.param("use yarn", "package-manager", id="package-manager"),
        pytest.param("manage deps with poetry", "python-package-manager", id="python-packages"),
        pytest.param("format with ruff format", "formatter", id="ruff-format"),
        pytest.param("lint with ruff", "linter", id="ruff-lint"),
        pytest.param("run pyright", "type-checker", id="type-checker"),
        pytest.param("tests with jest", "test-runner", id="test-runner"),
        pytest.param("write commit messages in Korean", "commit-language", id="commit-language"),
        pytest.param("answer me in English", "reply-language", id="reply-language"),
        pytest.param("code comments in English", "comment-language", id="comment-language"),
        pytest.param("indent with 2 spaces", "indentation", id="indentation"),
        pytest.param("single quotes for strings", "quote-style", id="quote-style"),
        pytest.param("no semicolons", "semicolons", id="semicolons"),
        pytest.param("keep lines under 100 characters", "line-length", id="line-length"),
        pytest.param("snake_case names", "naming-style", id="naming-style"),
        pytest.param("use conventional commits", "commit-style", id="commit-style"),
        pytest.param("name branches feature/<ticket>", "branch-naming", id="branch-naming"),
        pytest.param("rebase instead of merge", "merge-strategy", id="merge-strategy"),
        pytest.param("target Python 3.12", "python-version", id="python-version"),
        pytest.param("use Node 20", "node-version", id="node-version"),
        pytest.param("scripts for zsh", "shell", id="shell"),
        pytest.param("open files in neovim", "editor", id="editor"),
        pytest.param("Google-style docstrings", "docstring-style", id="docstrings"),
        pytest.param("pnpm을 써", "package-manager", id="ko-particle"),
        pytest.param("들여쓰기는 탭으로", "indentation", id="ko-indentation"),
        pytest.param("답변은 한국어로", "reply-language", id="ko-reply"),
        pytest.param("영어 주석을 달아", "comment-language", id="ko-comments"),
        pytest.param("explain the plan before editing files", None, id="no-known-subject"),
        pytest.param("use pnpm and black", None, id="two-subjects"),
    ],
)
def test_a_subject_gives_its_key_and_nothing_else_does(text: str, key: str | None) -> None:
    assert subject_key(text) == key


def test_every_key_is_kebab_case_and_named_once() -> None:
    keys = [key for key, _english, _korean in SUBJECTS]
    assert len(keys) == len(set(keys))
    assert all(key == key.lower() and " " not in key and "_" not in key for key in keys)


def test_the_capture_reference_lists_every_key() -> None:
    readme = (Path(__file__).parent.parent / "docs" / "CAPTURE.md").read_text(encoding="utf-8")
    assert [key for key, _e, _k in SUBJECTS if f"`{key}`" not in readme] == []
