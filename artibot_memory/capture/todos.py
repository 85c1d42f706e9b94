"""What a session leaves to do: "next time …", "TODO: …", "다음에 …" (standard library only).

A session start names what is still open in a project first; besides an error nobody
fixed and tests left failing, that is what the user or the assistant said was left for
later. A sentence says so when it:

- opens with a marker of work left: "TODO", "FIXME", "follow-up", "next time", "next
  session", "later", "tomorrow", "remaining", "left to do", "still to do"; in Korean
  "다음에", "다음 세션에", "나중에", "내일", "남은 작업", "할 일", "TODO";
- or says work remains: "we still need to …", "still have to …", "haven't … yet", "is
  left to …"; "아직 …해야", "…는 다음에 하자", "…는 나중에".

Not one: a question ("should we … next time?"), a rule for every time ("next time, always
run the tests first" is a preference, which :mod:`artibot_memory.capture.prompts` keeps),
a step of the work at hand ("next, I'll run the tests"), and text that is not the
speaker's own words (code, quotes, pasted lines: :func:`artibot_memory.capture.prompts.prose`).

>>> find_todos("Looks good. Next time let's add a test for the coupon expiry.")
["let's add a test for the coupon expiry"]
>>> find_todos("다음에 쿠폰 만료 테스트 추가하자.")
['쿠폰 만료 테스트 추가하자']
>>> find_todos("Next, I'll run the tests."), find_todos("Should we add it next time?")
([], [])
"""

from __future__ import annotations

import re

from artibot_memory.capture.prompts import detect_preferences, prose, sentences
from artibot_memory.text.ask import data_as_markers

__all__ = ["MAX_TODO_CHARS", "find_todos"]

MAX_TEXT_CHARS = 8_000
MAX_SENTENCE_CHARS = 300
MIN_TODO_CHARS = 8
MAX_TODO_CHARS = 200
MAX_FOUND = 5
_ANCHORS = (
    "todo",
    "fixme",
    "follow-up",
    "follow up",
    "next time",
    "next session",
    "later",
    "tomorrow",
    "remaining",
    "left to",
    "still to do",
    "still need",
    "still have to",
    "yet",
    "다음에",
    "다음 세션",
    "나중에",
    "내일",
    "남은",
    "할 일",
    "아직",
)
_I = re.IGNORECASE
_LEAD = r"^(?:(?:ok(?:ay)?|so|and|also|then|oh|btw|but)[,\s]+)*"
_OPENING = re.compile(
    _LEAD + r"(?:(?:todo|fixme|follow[- ]?up|next\s+(?:time|session)|later(?:\s+on)?"
    r"|tomorrow|remaining(?:\s+work)?|left\s+to\s+do|still\s+to\s+do)\b\s*(?:[:,-]\s*|\s+))"
    r"(?P<rest>.+)$",
    _I,
)
_REMAINS = re.compile(
    r"\b(?:we|i|you)\s+(?:still\s+(?:need|have)\s+to|(?:will\s+)?need\s+to\s+\S+.*\blater\b)\s+"
    r"|\b(?:still|yet)\s+to\s+be\s+(?:done|written|added|fixed)\b"
    r"|\bhaven'?t\s+\w+\s+.*\byet\b|\bis\s+left\s+(?:to|for)\b",
    _I,
)
_KO_OPENING = re.compile(
    r"^(?:(?:그리고|아|참|일단)\s*,?\s*)*(?:다음\s*세션에(?:는|서)?|다음에(?:는)?|나중에(?:는)?|내일(?:은)?"
    r"|남은\s*작업\s*[:은는]?|할\s*일\s*[:은는]?|TODO\s*:?)\s*(?P<rest>.+)$",
    _I,
)
_KO_REMAINS = re.compile(
    r"아직\s*\S+.*(?:해야|안\s*했|못\s*했)|(?:은|는)\s*(?:다음에|나중에)\s*(?:하자|해야|할게|합시다)"
)
_NOT_A_TODO = re.compile(
    r"[?？]\s*$|\b(?:should|shall|could|would)\s+(?:we|i)\b|\bwhat\s+if\b|\bif\b"
    r"|\b(?:always|never|every\s+time|whenever)\b|할까|까요|나요|만약|항상|절대|매번",
    _I,
)


def find_todos(text: str) -> list[str]:
    """Return what ``text`` leaves to do, each a tidied sentence, in their order."""
    if not text:
        return []
    low = text[:MAX_TEXT_CHARS].lower()
    if not any(anchor in low for anchor in _ANCHORS):
        return []
    found: list[str] = []
    for sentence in sentences(prose(data_as_markers(text[:MAX_TEXT_CHARS]))):
        todo = _todo_of(sentence)
        if todo is not None and todo not in found:
            found.append(todo)
            if len(found) == MAX_FOUND:
                break
    return found


def _todo_of(sentence: str) -> str | None:
    if not MIN_TODO_CHARS <= len(sentence) <= MAX_SENTENCE_CHARS or _NOT_A_TODO.search(sentence):
        return None
    opened = _OPENING.match(sentence) or _KO_OPENING.match(sentence)
    todo = opened.group("rest") if opened else None
    if todo is None and (_REMAINS.search(sentence) or _KO_REMAINS.search(sentence)):
        todo = sentence
    if todo is None or detect_preferences(sentence):
        return None  # a rule for every time is a preference, kept as one
    tidy = todo.strip().rstrip(".!。 ")
    return tidy[:MAX_TODO_CHARS] if len(tidy) >= MIN_TODO_CHARS else None
