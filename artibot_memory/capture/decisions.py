"""Decisions stated in a session, with their rationale, for the daily note (stdlib only).

A decision is a sentence that settles a choice, said by the user or the assistant:
"chose X over Y because Z", "we'll go with X", "decided to …", "let's use X instead of Y",
and in Korean "X 대신 Y로 하자", "Y로 결정했다", "…하기로 했다". What only weighs a
choice is not one: a question ("should we go with X?", "X로 할까?"), a hypothetical ("if
we went with X", "만약 X로 하면"), a choice left open ("haven't decided"), and text that is
not the speaker's own words (fenced or inline code, quotes, pasted lines, tagged blocks:
:func:`artibot_memory.capture.prompts.prose`).

A decision keeps its reason. Said in the same sentence ("… because Z"), it is part of it;
said in the sentence right after ("We'll go with Postgres. The reason is we need JSONB.",
"argon2로 하자. 왜냐하면 bcrypt는 72바이트에서 잘리거든."), that sentence is joined to the
decision when it gives a reason (:data:`_REASON`: opening with "because", "the reason is",
"since", "왜냐하면", "이유는", or a Korean sentence ending in "때문이야", "…거든", "…니까",
"…해서야"); "Because of that, …" tells a consequence, not a reason. A weaker choice, "let's
use X" or "X를 쓰자", is a decision only with its reason (in the sentence, or the next)
and only from the user: the assistant says "let's use grep" of its next step.

The table below is the rule: each row a pattern and what it names, each negative a
pattern that vetoes the sentence. A text without any anchor word (most of them) costs one
lower-casing and a few ``in`` tests.

>>> find_decisions("Chose argon2 over bcrypt because it is memory-hard.")
['Chose argon2 over bcrypt because it is memory-hard']
>>> find_decisions("We'll go with Postgres. The reason is we need JSONB.")
["We'll go with Postgres. The reason is we need JSONB"]
>>> find_decisions("Should we go with argon2?")
[]
>>> find_decisions("bcrypt 대신 argon2로 하자")
['bcrypt 대신 argon2로 하자']
"""

from __future__ import annotations

import re

from artibot_memory.capture.prompts import prose, sentences
from artibot_memory.text.ask import data_as_markers

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
    "말고",
    "'ll keep",
    "will keep",
    "결정",
    "기로 했",
    "기로 하",
    "로 하자",
    "로 가자",
    "로 갑시다",
    "로 합시다",
    # a weaker choice, a decision only with its reason (_WEAK)
    "let's use",
    "lets use",
    "let us use",
    "let's pick",
    "lets pick",
    "let us pick",
    "let's adopt",
    "lets adopt",
    "let us adopt",
    "we'll use",
    "we will use",
    "쓰자",
    "씁시다",
    "사용하자",
    "사용합시다",
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
    (rf"\S\s*(?:대신(?:에)?|말고)\s+\S.*?(?:로|으로|를|을)\s*{_KO_LET}", 0),  # X 대신 Y로 하자
    (r"\b(?:we|i)(?:'ll| will| are going to|'re going to)\s+keep\s+\S.*\bbecause\b", _I),
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
    # a choice with nothing in it: "팀에서 그렇게 하기로 했어", "we decided to do that"
    (r"^\S*\s*(?:그렇게|이렇게|저렇게)\s*하기로", 0),
    (r"\bdecided\s+to\s+do\s+(?:it|that|this|so)\b", _I),
)
# a weaker choice: a decision with its reason only, said by the user only
_WEAK_SOURCES = (
    (r"^(?:ok(?:ay)?[, ]+|so[, ]+|then[, ]+)?let'?s\s+(?:use|pick|adopt)\s+\S", _I),
    (r"^(?:ok(?:ay)?[, ]+|so[, ]+|then[, ]+)?let\s+us\s+(?:use|pick|adopt)\s+\S", _I),
    (r"^(?:ok(?:ay)?[, ]+|so[, ]+|then[, ]+)?we(?:'ll| will)\s+use\s+\S", _I),
    (r"\S(?:를|을|로|으로)?\s*(?:쓰자|씁시다|사용하자|사용합시다)(?:[.!。 ]|$)", 0),
)
_STEP = re.compile(r"^\S+(?:\s+\S+){0,3}?\s+(?:to|for\s+\w+ing)\s+\w", _I)  # "use grep to find"
# the sentence after a decision that gives its reason; "because of that" tells what follows
_REASON = re.compile(
    r"^(?:(?:and|that's|that\s+is|it's|it\s+is|this\s+is|mainly|mostly|partly|simply|just)\s+)?"
    r"because\b(?!\s+of\s+(?:that|this|it)\b)"
    r"|^(?:the\s+|our\s+|my\s+)?(?:main\s+|only\s+)?(?:reason|rationale|motivation)"
    r"(?:\s+(?:is|was|being|here\s+is))?\b|^(?:why|reason|rationale)\s*:|^since\s+\S"
    r"|^(?:왜냐하면|왜냐면|왜냐\s|이유는|그\s*이유는|이유\s*:|근거는)"
    r"|(?:때문|거든|니까|니깐|므로|(?<!에)서)(?:이야|이에요|입니다|이다|야|요)?\s*[.!。]?$",
    _I,
)
MAX_REASON_CHARS = 300  # longer is a paragraph, not the reason of one decision
_POSITIVE = tuple(re.compile(source, flags) for source, flags in _POSITIVE_SOURCES)
_WEAK = tuple(re.compile(source, flags) for source, flags in _WEAK_SOURCES)
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
    found: list[str] = []
    said = sentences(prose(data_as_markers(text[:MAX_TEXT_CHARS])))
    at = 0
    while at < len(said) and len(found) < MAX_FOUND:
        sentence, after = said[at], said[at + 1] if at + 1 < len(said) else ""
        reason = after if _gives_reason(after) else ""
        if _decided(sentence, reason, assistant=assistant):
            found.append(_tidy(sentence) + (f". {_tidy(reason)}" if reason else ""))
            at += 1 if reason else 0  # the reason is this decision's, not a sentence of its own
        at += 1
    return found


def _decided(sentence: str, reason: str, *, assistant: bool) -> bool:
    """Tell whether a sentence (with the reason said after it, if any) is a decision."""
    if is_decision(sentence):
        return not assistant or bool(reason) or bool(_RATIONALE.search(sentence))
    if assistant or not (reason or _RATIONALE.search(sentence)):
        return False
    return _states(sentence, _WEAK) and not _STEP.search(sentence)


def is_decision(sentence: str) -> bool:
    """Tell whether one sentence states a decision (and is not a question or a hypothetical).

    >>> is_decision("We'll go with pnpm"), is_decision("What if we go with pnpm")
    (True, False)
    """
    return _states(sentence, _POSITIVE)


def _states(sentence: str, patterns: tuple[re.Pattern[str], ...]) -> bool:
    """Tell whether a sentence matches one of ``patterns`` and none of the negatives."""
    if not MIN_SENTENCE_CHARS <= len(sentence) <= MAX_SENTENCE_CHARS:
        return False
    if "`" in sentence and not _INLINE_CODE.sub("", sentence).strip():
        return False  # only code
    plain = _INLINE_CODE.sub("code", sentence).strip()
    if not any(pattern.search(plain) for pattern in patterns):
        return False
    return not any(pattern.search(plain) for pattern in _NEGATIVE)


def _gives_reason(sentence: str) -> bool:
    """Tell whether a sentence gives the reason of the one before it (:data:`_REASON`).

    >>> _gives_reason("The reason is we need JSONB."), _gives_reason("Because of that, migrate.")
    (True, False)
    >>> _gives_reason("왜냐하면 bcrypt는 72바이트에서 잘리거든."), _gives_reason("왜 그래?")
    (True, False)
    """
    if not MIN_SENTENCE_CHARS // 2 <= len(sentence) <= MAX_REASON_CHARS:
        return False
    if sentence.rstrip().endswith(("?", "？")):
        return False
    return bool(_REASON.search(sentence.strip()))


def _anchored(text: str) -> bool:
    low = text[:MAX_TEXT_CHARS].lower()
    return any(anchor in low for anchor in _ANCHORS)


def _tidy(sentence: str) -> str:
    text = sentence.strip().rstrip(".!。 ").strip()
    return text[:1].upper() + text[1:] if text.isascii() else text
