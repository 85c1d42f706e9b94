"""The glossary's token table is what its words become, and a concept spans both languages."""

from __future__ import annotations

import pytest

from artibot_memory.text import glossary
from artibot_memory.text.tokens import search_tokens, tokenize


def test_the_token_table_is_what_the_groups_words_become() -> None:
    assert glossary.tokens_of(glossary.GROUPS) == glossary.TOKENS


@pytest.mark.parametrize(
    ("english", "korean"),
    [
        ("commit messages", "커밋 메시지는"),
        ("the database", "디비"),
        ("who approves releases", "릴리스 승인"),
        ("staging region", "스테이징 리전"),
        ("password hashing", "비밀번호 해시"),
    ],
)
def test_an_english_and_a_korean_wording_meet_in_their_concepts(english: str, korean: str) -> None:
    def concepts(text: str) -> set[str]:
        return {glossary.concept_of(token) for token in tokenize(text)}

    assert concepts(english) & concepts(korean)


def test_a_word_outside_the_glossary_is_its_own_concept() -> None:
    [token] = search_tokens("zebra")
    assert glossary.alternates(token) == frozenset({token})
    assert glossary.concept_of(token) == token
