"""Decisions stated in a session, with their rationale, for the daily note (stdlib only).

A decision is a sentence that settles a choice, said by the user or the assistant:
"chose X over Y because Z", "we'll go with X", "decided to …", "let's use X instead of Y",
and in Korean "X 대신 Y로 하자", "Y로 결정했다", "…하기로 했다". What only weighs a
choice is not one: a question ("should we go with X?", "X로 할까?"), a hypothetical ("if
we went with X", "만약 X로 하면"), a choice left open ("haven't decided"), and text that is
not the speaker's own words (fenced or inline code, quotes, pasted lines, tagged blocks:
:func:`artibot_memory.capture.prompts.prose`).

The table below is the rule: each row a pattern and what it names, each negative a
pattern that vetoes the sentence. A text without any anchor word (most of them) costs one
lower-casing and a few ``in`` tests.

>>> find_decisions("Chose argon2 over bcrypt because it is memory-hard.")
['Chose argon2 over bcrypt because it is memory-hard']
>>> find_decisions("Should we go with argon2?")
[]
>>> find_decisions("bcrypt 대신 argon2로 하자")
['bcrypt 대신 argon2로 하자']
"""

from __future__ import annotations

import re

from artibot_memory.capture.prompts import prose, sentences

__all__ = ["MAX_DECISION_CHARS", "find_decisions", "is_decision"]

MAX_TEXT_CHARS = 8_000  # of one text read: a longer one is mostly pasted output
MAX_SENTENCE_CHARS = 400  # longer is not one stated decision
MIN_SENTENCE_CHARS = 8
MAX_DECISION_CHARS = 200
MAX_FOUND = 5  # per text
_ANCHORS = (
    "chose",
    "choose",
    "picked",
    "opted",
    "go with",
    "going with",
    "went with",
    "decid",
    "decision",
    "instead of",
    "settled on",
    "stick with",
    "대신",
    "결정",
    "기로 했",
    "기로 하",
    "로 하자",
    "로 가자",
    "로 갑시다",
    "로 합시다",
)
_I = re.IGNORECASE
_WHO = r"(?:(?:i|we|i've|we've|i have|we have|i'd|we'd)\s+)?"
_KO_LET = r"(?:하자|가자|쓰자|갑시다|합시다|씁시다|하죠|가죠)"
# (pattern, flags): a sentence matching one of these states a decision
_POSITIVE_SOURCES = (
    (rf"^{_WHO}(?:finally\s+)?(?:chose|picked|opted\s+for|selected)\s+\S.*?\s+over\s+\S", _I),
    (r"\b(?:we|i)(?:'ll| will| are going to|'re going to| shall)\s+(?:go|stick)\s+with\s", _I),
    (r"^(?:ok(?:ay)?[, ]+|so[, ]+|then[, ]+)?let'?s\s+(?:go|stick)\s+with\s+\S", _I),
    (r"^(?:ok(?:ay)?[, ]+|so[, ]+)?(?:going|went)\s+with\s+\S", _I),
    (r"\b(?:we|i)\s+(?:went|settled)\s+(?:with|on)\s+\S", _I),
    (rf"^{_WHO}(?:have\s+)?decided\s+(?:to|on|that|against)\s+\S", _I),
    (r"\b(?:we|i)\s+(?:have\s+|'ve\s+)?decided\s+(?:to|on|that|against)\s+\S", _I),
    (r"^decision\s*:\s*\S", _I),
    (r"\blet'?s\s+(?:use|go\s+with|switch\s+to|keep|do)\s+\S.*?\binstead\s+of\s+\S", _I),
    (r"\b(?:we|i)(?:'ll| will)\s+use\s+\S.*?\binstead\s+of\s+\S", _I),
    (rf"\S\s*대신(?:에)?\s+\S.*?(?:로|으로|를|을)\s*{_KO_LET}", 0),  # X 대신 Y로 하자
    (r"(?:로|으로)\s*(?:결정|확정)(?:했|하였|됐|되었|함|합니다|이다)", 0),  # Y로 결정했다
    (r"결정\s*(?:했|하였)", 0),
    (r"기로\s*(?:했|하였|함|결정|합의)", 0),  # …하기로 했다
    (rf"\S(?:로|으로)\s*{_KO_LET}(?:[.!。 ]|$)", 0),  # Y로 가자
)
_QUESTION_OPENINGS = (
    "should|shall|could|would|can|do|does|did|are|is|were|was|will|what|which|how|why"
    "|whether|when|where|who"
)
_OPEN_CHOICE = (
    "if|unless|suppose|supposing|assuming|in case|what if|whether|maybe|perhaps|might"
    "|may be|could|would|wonder|considering|consider|thinking about|not sure|unsure"
    "|undecided|haven'?t decided|not decided|not yet decided|yet to decide|can'?t decide"
    "|cannot decide|hard to decide|to be decided|tbd"
)
_KO_QUESTION = "할까|갈까|쓸까|될까|할지|갈지|쓸지|일까|인가요|나요|까요|을까"
_KO_OPEN = r"만약|만일|혹시|아마|고민|모르겠|미정|결정\s*못|결정하지\s*않|결정\s*안|정하지\s*못"
# a sentence matching one of these only weighs a choice, whatever else it says
_NEGATIVE_SOURCES = (
    (r"[?？]\s*$", 0),
    (rf"^(?:{_QUESTION_OPENINGS})\b", _I),
    (rf"\b(?:{_OPEN_CHOICE})\b", _I),
    (r"\b(?:should|shall)\s+(?:we|i)\b", _I),
    (r"\b(?:do|did|have|has)\s+(?:you|we|they)\s+decide", _I),
    (_KO_QUESTION, 0),
    (_KO_OPEN, 0),
    (r"면\s+(?:어때|어떨|좋겠)", 0),
)
_POSITIVE = tuple(re.compile(source, flags) for source, flags in _POSITIVE_SOURCES)
_NEGATIVE = tuple(re.compile(source, flags) for source, flags in _NEGATIVE_SOURCES)
_RATIONALE = re.compile(
    r"\b(?:because|since|so that|as it|rather than|instead of|over|go with|going with)\b"
    r"|때문|니까|므로|대신|위해",
    _I,
)
_INLINE_CODE = re.compile(r"`[^`\n]*`")


def find_decisions(text: str, *, assistant: bool = False) -> list[str]:
    r"""Return the decisions ``text`` states, each a tidied sentence, in their order.

    The assistant narrates its steps ("I decided to read the config first"): its
    sentences count only with a choice or a rationale in them (:data:`_RATIONALE`).

    >>> find_decisions("Let's use SQLite instead of Postgres: it is one file. Done.")
    ["Let's use SQLite instead of Postgres: it is one file"]
    >>> find_decisions("```\n# we decided to use yaml\n```")
    []
    """
    if not text or not _anchored(text):
        return []
    found = []
    for sentence in sentences(prose(text[:MAX_TEXT_CHARS])):
        if is_decision(sentence) and (not assistant or _RATIONALE.search(sentence)):
            found.append(_tidy(sentence))
    return found[:MAX_FOUND]


def is_decision(sentence: str) -> bool:
    """Tell whether one sentence states a decision (and is not a question or a hypothetical).

    >>> is_decision("We'll go with pnpm"), is_decision("What if we go with pnpm")
    (True, False)
    """
    if not MIN_SENTENCE_CHARS <= len(sentence) <= MAX_SENTENCE_CHARS:
        return False
    if "`" in sentence and not _INLINE_CODE.sub("", sentence).strip():
        return False  # only code
    plain = _INLINE_CODE.sub("code", sentence).strip()
    if not any(pattern.search(plain) for pattern in _POSITIVE):
        return False
    return not any(pattern.search(plain) for pattern in _NEGATIVE)


def _anchored(text: str) -> bool:
    low = text[:MAX_TEXT_CHARS].lower()
    return any(anchor in low for anchor in _ANCHORS)


def _tidy(sentence: str) -> str:
    text = sentence.strip().rstrip(".!。 ").strip()
    return text[:1].upper() + text[1:] if text.isascii() else text
