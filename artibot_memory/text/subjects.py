r"""The subject of a stated preference, as the stable key it is stored under.

A preference detected in a prompt gets the key of its subject, so a later statement on the
same subject supersedes it ("use yarn", then "always use pnpm": one active, pnpm), and so
does ``artibot-memory save preference "…" --key package-manager``. The keys are a contract
(docs/CAPTURE.md lists them): renaming one orphans every preference stored under it.

Each row is a key, its English words (space-separated regular expressions, each matched as
whole words, case-insensitively) and its Korean words. A text about no subject, or about
two (``use pnpm and black``), gets no key: a key is never made up from other words.

>>> subject_key("From now on always use pnpm, never npm")
'package-manager'
>>> subject_key("앞으로 커밋 메시지는 영어로 써줘")
'commit-language'
>>> subject_key("explain the plan first") is None
True
"""

from __future__ import annotations

import functools
import re

_LANG = r"(?:english|korean|japanese|chinese|german|french|spanish)"
_KO_LANG = r"(?:영어|한국어|한글|영문|english|korean)"  # mixed: "커밋 메시지는 English로"

SUBJECTS: tuple[tuple[str, str, str], ...] = (
    ("package-manager", r"npm pnpm yarn bun npx package\s+manager", r"패키지\s*매니저"),
    ("python-package-manager", "pip3? uv poetry pipenv conda mamba pdm rye hatch", ""),
    (
        "formatter",
        (
            r"black prettier yapf autopep8 gofmt rustfmt clang-format ruff\s+format formatter"
            r" auto-?format\w*"
        ),
        "포매터 포맷터 포맷",
    ),
    (
        "linter",
        (
            r"ruff(?!\s+format) eslint flake8 pylint golangci-lint clippy rubocop biome stylelint"
            " shellcheck linter linting lint"
        ),
        "린터 린트",
    ),
    ("type-checker", r"mypy pyright pytype type[\s-]?check(?:er|ing)?", r"타입\s*(?:검사|체크)"),
    (
        "test-runner",
        r"pytest unittest nose2? jest vitest mocha jasmine rspec minitest test\s+runner",
        r"테스트\s*러너",
    ),
    (
        "commit-language",
        rf"commit(?:s|\s+messages?|\s+logs?)?\b.*\b{_LANG} {_LANG}\b.*\bcommit",
        f"커밋.*{_KO_LANG} {_KO_LANG}.*커밋",
    ),
    (
        "reply-language",
        (
            r"(?:repl(?:y|ies)|respon(?:d|ses?)|answer(?:s|\s+me)?|talk|speak|chat|explain"
            rf"|explanations?)\b.*\b{_LANG}"
        ),
        (
            rf"(?:답변|대답|답해|응답|설명|말해|답장).*{_KO_LANG}"
            rf" {_KO_LANG}(?:로)?\s*(?:답|대답|말|설명|응답)"
        ),
    ),
    ("comment-language", rf"comments?\b.*\b{_LANG}", rf"주석.*{_KO_LANG} {_KO_LANG}\s*주석"),
    (
        "indentation",
        (
            r"indent\w* tabs tab\s+characters \d+[\s-]*spaces?"
            r" spaces\s+(?:over|not|instead\s+of|rather\s+than|to)\s+tabs"
        ),
        "들여쓰기 (?<![가-힣])탭 스페이스",
    ),
    ("quote-style", r"(?:single|double)[\s-]+quot\w* quote\s+style", "따옴표"),
    ("semicolons", "semi-?colons?", "세미콜론"),
    (
        "line-length",
        (
            r"line[\s-]+length lines?\s+(?:under|below|at|to|shorter\s+than|longer\s+than"
            r"|over)\s+\d+ \d+\s+(?:columns|chars|characters) max(?:imum)?\s+line"
        ),
        r"줄\s*길이 한\s*줄 \d+\s*자\s*(?:이내|까지|제한|로)",
    ),
    (
        "naming-style",
        r"snake[_\s]case camel\s?case pascal\s?case kebab-case naming\s+convention",
        "",
    ),
    (
        "commit-style",
        (
            r"conventional[\s-]+commits? commit\s+(?:message\s+)?(?:style|format|convention)"
            r" (?:small|smaller|atomic|focused|tiny|giant|huge|big|large|separate|granular|logical)"
            r"\b[\w\s,]{0,20}\bcommits commits?\s+(?:small|atomic|focused|granular) gitmoji"
            r" emojis?\b.*\bcommit\w* commit\w*\b.*\bemojis? sign[\s-]?off prefix\s+commit\w*"
        ),
        r"커밋.*(?:작게|작은|잘게|나눠|나누|형식|스타일|컨벤션) (?:작은|잘게)\s*커밋",
    ),
    (
        "branch-naming",
        r"branch(?:es)?\b.*\bnam(?:e|es|ed|ing) nam(?:e|ing)\b.*\bbranch(?:es)?",
        r"브랜치\s*(?:이름|명) 브랜치.*(?:지어|짓|형식)",
    ),
    (
        "merge-strategy",
        (
            r"rebase rebasing squash[\s-]+(?:and[\s-]+)?merg\w* merge\s+commits? fast[\s-]forward"
            " ff-only"
        ),
        r"리베이스 스쿼시 머지\s*커밋",
    ),
    ("python-version", r"python\s*[23](?:\.\d+)? py3\d+", r"파이썬\s*(?:은|는)?\s*[23]"),
    (
        "node-version",
        r"node(?:\.?js)?\s*(?:v?\d+|version|lts)",
        r"노드\s*(?:은|는)?\s*(?:\d+|버전)",
    ),
    ("shell", "bash zsh fish powershell pwsh sh shell", "(?<![가-힣])셸 (?<![가-힣])쉘"),
    (
        "editor",
        r"vim neovim nvim emacs vs\s*code vscode sublime intellij pycharm helix editor",
        "에디터 편집기",
    ),
    ("type-hints", r"type[\s-]+(?:hints?|annotations?|annotated)", r"타입\s*(?:힌트|어노테이션)"),
    ("docstring-style", "docstrings?", "독스트링"),
)
_COMPILED: list[tuple[str, re.Pattern[str]]] = []  # on first use: most prompts name no subject


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Return the compiled rows (ASCII word boundaries: "pnpm을" ends the word at 을)."""
    if not _COMPILED:
        for key, english, korean in SUBJECTS:
            source = "|".join([rf"\b(?:{'|'.join(english.split())})\b", *korean.split()])
            _COMPILED.append((key, re.compile(source, re.IGNORECASE | re.ASCII)))
    return _COMPILED


@functools.lru_cache(maxsize=4096)  # pure; proposals ask it of every record per candidate
def subject_key(text: str) -> str | None:
    """Return the key of the one subject ``text`` is about, or None (none, or several).

    >>> subject_key("format with ruff format"), subject_key("lint with ruff")
    ('formatter', 'linter')
    >>> subject_key("use pnpm and black") is None
    True
    """
    keys = [key for key, pattern in _patterns() if pattern.search(text)]
    return keys[0] if len(keys) == 1 else None
