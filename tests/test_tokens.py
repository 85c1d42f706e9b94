from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artibot_memory.api import memories
from artibot_memory.recall.search import search
from artibot_memory.text.stemmer import porter_stem
from artibot_memory.text.tags import auto_tags
from artibot_memory.text.tokens import (
    KEY_WEIGHT,
    TAG_WEIGHT,
    memory_tokens,
    normalize_text,
    search_tokens,
    tokenize,
)


def meets(a: str, b: str) -> bool:
    """Two texts share a token: a search for one finds the other."""
    return bool(set(tokenize(a)) & set(tokenize(b)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("retrieve_memories", ["retriev", "memori"], id="snake_case"),
        pytest.param("MCP_INIT_TIMEOUT", ["mcp", "init", "timeout"], id="screaming-snake"),
        pytest.param("parseUserName", ["pars", "user", "name", "parseusername"], id="camelCase"),
        pytest.param("HTTPServer", ["http", "server", "httpserver"], id="acronym-then-word"),
        pytest.param("SQLite IPv6 OAuth", ["sqlite", "ipv6", "oauth"], id="brand-case-stays-whole"),
        pytest.param("sqlite-vec", ["sqlite", "vec"], id="kebab-case"),
        pytest.param("os.path.join", ["os", "path", "join"], id="dotted-name"),
        pytest.param(
            "src/app/main.py", ["src", "app", "main", "py", "main.py"], id="path-keeps-file-name"
        ),
        pytest.param("(see package.json)", ["see", "packag", "json", "package.json"], id="file"),
        pytest.param("Error 401 on port 8080", ["error", "401", "port", "8080"], id="numbers"),
        pytest.param("Caroline's dog", ["carolin", "dog"], id="possessive"),
        pytest.param("How do we do it?", [], id="stopwords-only"),
        pytest.param("", [], id="empty"),
    ],
)
def test_english_text_splits_into_lowercase_match_tokens(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


@pytest.mark.parametrize(
    ("word", "form"),
    [
        pytest.param("error", "errors", id="plural-s"),
        pytest.param("process", "processes", id="plural-es"),
        pytest.param("memory", "memories", id="plural-ies"),
        pytest.param("configure", "configured", id="past-ed"),
        pytest.param("configure", "configuring", id="gerund-ing"),
        pytest.param("configure", "configuration", id="derived-ation"),
        pytest.param("deploy", "deploying", id="y-after-vowel-stays"),
        pytest.param("deploy", "deployment", id="derived-ment"),
        pytest.param("cache", "caching", id="e-dropped"),
        pytest.param("run", "running", id="double-consonant"),
    ],
)
def test_an_inflected_form_matches_its_base_word(word: str, form: str) -> None:
    assert tokenize(word) == tokenize(form)


@pytest.mark.parametrize(
    ("korean", "stem"),
    [
        pytest.param("배포를", "배포", id="object-particle"),
        pytest.param("배포가", "배포", id="subject-particle"),
        pytest.param("배포는", "배포", id="topic-particle"),
        pytest.param("배포에서", "배포", id="locative-particle"),
        pytest.param("배포에서는", "배포", id="stacked-particles"),
        pytest.param("배포했다", "배포", id="hada-past"),
        pytest.param("메모리를", "메모리", id="loanword-with-particle"),
        pytest.param("설정했다", "설정", id="hada-verb"),
        pytest.param("설정되었습니다", "설정", id="doeda-polite"),
        pytest.param("추가", "추가", id="noun-ending-like-a-particle-kept"),
        pytest.param("경로를", "경로", id="noun-ending-in-ro-kept"),
        pytest.param("회의에서", "회의", id="noun-ending-in-ui-kept"),
    ],
)
def test_a_korean_word_with_a_particle_or_ending_gives_its_stem(korean: str, stem: str) -> None:
    assert tokenize(korean) == [stem]


@pytest.mark.parametrize(
    ("query", "memory"),
    [
        pytest.param("배포", "어제 배포를 했는데 실패했다", id="stem-finds-inflected"),
        pytest.param("메모리", "메모리를 비웠다", id="memory-particle"),
        pytest.param("설정", "프록시를 설정했다", id="hada-verb"),
    ],
)
def test_a_korean_query_finds_a_memory_written_with_particles(query: str, memory: str) -> None:
    assert meets(query, memory)


def test_mixed_korean_and_english_keeps_the_english_word() -> None:
    assert tokenize("pytest를 실행했다") == ["pytest", "실행"]
    assert tokenize("Docker로는 API를 호출") == ["docker", "api", "호출"]


def test_korean_question_words_are_dropped_like_stopwords() -> None:
    assert tokenize("어떻게 배포를 설정했다") == ["배포", "설정"]


def test_tokenizing_is_deterministic() -> None:
    text = "Fixed flaky tests in src/app/main.py; 배포를 다시 했다"
    assert tokenize(text) == tokenize(text)


@given(st.text(max_size=200))
def test_any_text_tokenizes_to_nonempty_lowercase_strings(text: str) -> None:
    tokens = tokenize(text)
    assert all(token and token == token.casefold() and " " not in token for token in tokens)


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        pytest.param("caresses", "caress", id="sses"),
        pytest.param("ponies", "poni", id="ies"),
        pytest.param("hopping", "hop", id="undouble"),
        pytest.param("relational", "relat", id="ational"),
        pytest.param("generalization", "gener", id="steps-2-to-4"),
        pytest.param("is", "is", id="short-words-untouched"),
    ],
)
def test_porter_stemmer_follows_the_published_examples(word: str, stem: str) -> None:
    assert porter_stem(word) == stem


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("  Use   PNPM here!! ", "use pnpm here", id="case-space-punctuation"),
        pytest.param("Use pnpm here.", "use pnpm here", id="trailing-period"),
        pytest.param("ｐｎｐｍ", "pnpm", id="full-width"),
        pytest.param("배포는  main에서 한다.", "배포는 main에서 한다", id="korean"),
    ],
)
def test_normalized_text_is_the_same_for_texts_that_say_the_same(text: str, expected: str) -> None:
    assert normalize_text(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("npm run build", ["npm", "npm run"], id="command-and-subcommand"),
        pytest.param(
            "git commit -m 'wip' && git push", ["git", "git commit", "git push"], id="chain"
        ),
        pytest.param("python -m pytest -q", ["python", "pytest"], id="python-module"),
        pytest.param("always use pnpm here, not npm", ["pnpm", "npm"], id="programs-in-prose"),
        pytest.param("Make sure you go home", [], id="wordlike-programs-in-prose-ignored"),
        pytest.param("git is slow today", ["git"], id="no-stopword-subcommand"),
        pytest.param("Run `ruff check .` first", ["ruff"], id="backticks"),
        pytest.param(
            "ModuleNotFoundError: No module named 'yaml'", ["modulenotfounderror"], id="py-error"
        ),
        pytest.param("ENOENT: open package.json", ["enoent", "package.json"], id="errno-and-file"),
        pytest.param("error[E0425]: cannot find value", ["e0425"], id="compiler-code"),
        pytest.param("ERROR: EXAMPLE failed", [], id="shouting-is-not-an-errno"),
        pytest.param("Edit the Dockerfile and .env", ["dockerfile", ".env"], id="special-files"),
        pytest.param("at render (src/App.tsx:12:5)", ["app.tsx"], id="file-with-line-number"),
        pytest.param(
            "memory.metadata.get in retrieve_memories of BaseStorage",
            ["memory.metadata.get", "retrieve_memories", "basestorage"],
            id="identifiers",
        ),
        pytest.param("e.g. it works", [], id="abbreviation-is-not-a-dotted-name"),
        pytest.param("pytest를 실행했다", ["pytest"], id="program-with-korean-particle"),
    ],
)
def test_auto_tags_pick_errors_commands_files_and_identifiers(
    text: str, expected: list[str]
) -> None:
    assert auto_tags(text) == expected


def test_auto_tags_put_errors_first_and_respect_the_limit() -> None:
    text = "TypeError in utils.py after `npm test`: fooBar, baz_qux, a.b_c"
    assert auto_tags(text)[:4] == ["typeerror", "npm", "npm test", "utils.py"]
    assert auto_tags(text, limit=2) == ["typeerror", "npm"]


def test_auto_tags_are_unique_and_lowercase() -> None:
    tags = auto_tags("TypeError TypeError typeerror `git status` git")
    assert tags == ["typeerror", "git", "git status"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("급할 때 테스트 안 돌리고 머지해도 돼?", ["급할", "테스트", "돌리", "머지"]),
        ("최소 버전 올리려면 뭘 바꿔야 해?", ["최소", "버전", "올리", "바꿔"]),
        ("도커 데몬 연결 안 될 때 어떻게 했지?", ["도커", "데몬", "연결"]),
        ("최고 표면 의지", ["최고", "표면", "의지"]),  # nouns that end like a verb keep it
    ],
)
def test_korean_auxiliaries_and_verb_endings_do_not_become_words(
    text: str, expected: list[str]
) -> None:
    assert tokenize(text) == expected


def test_a_korean_compound_and_its_spaced_spelling_share_their_halves() -> None:
    joined, spaced = search_tokens("배포스크립트"), search_tokens("배포 스크립트")
    assert {"배포", "스크립트"} <= set(joined) & set(spaced)
    assert search_tokens("리소스태그")[-2:] == ["리소스", "태그"]
    assert search_tokens("스크립트") == ["스크립트", "스크", "립트"]  # a wrong split meets itself
    assert search_tokens("배포 script") == ["배포", "script"]  # short and Latin words stay whole


def found(query: str) -> list[str]:
    return [hit.memory.id for hit in search(query, record=False)]


def test_search_finds_a_compound_however_it_is_spaced() -> None:
    joined = memories.save("context", "배포스크립트는 scripts/deploy.sh에 있다")
    spaced = memories.save("context", "환경 변수 파일은 .env.local로 복사해서 쓴다")
    assert found("배포 스크립트 어디 있어?") == [joined.id]
    assert found("환경변수 파일 어떻게 만들어?") == [spaced.id]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("태스크 어떻게 해결했지?", ["태스크", "해결"]),  # 했지: a past question ending
        ("약어 써도 돼?", ["약어"]),  # 쓰다 is "use": a stopword in English too
        ("대시보드 주소 알려줘", ["대시보드", "주소"]),  # 알려줘 is "tell me"
        ("린트 뭘로 돌려?", ["린트", "돌려"]),
        ("tailwind 안 쓰기로 한 이유", ["tailwind"]),  # 이유 asks why, like 왜
    ],
)
def test_korean_question_words_that_name_no_topic_are_dropped(
    text: str, expected: list[str]
) -> None:
    assert tokenize(text) == expected


def test_a_memory_counts_its_key_once_and_its_tags_twice() -> None:
    found = memory_tokens("Use pnpm", "package-manager", ["js"])
    assert found.count("packag") == KEY_WEIGHT == 1
    assert found.count("js") == TAG_WEIGHT == 2
