r"""Who does what, said in a prompt: a standing fact about a person (standard library only).

A user names the people around the code in passing, while asking for something else: "Can
you fix the coupon total? Sara owns the cart module, so keep her API stable." This module
reads one sentence (of the user's own words: :func:`artibot_memory.capture.prompts.prose`
has taken quotes, code and pasted lines out) and returns the person and what they do, or
None. It runs on the per-prompt hook's path: a sentence is first read without a pattern (one
of a single clause that asks is passed over; each form is tried only when the sentence holds
the words it needs, :data:`ANCHORS` the first of them), so most sentences cost a lower-casing
and a few hundred ``in`` tests; a form's pattern is compiled the first time it is tried, and
the vetoes below only once a form has found someone.

What is a standing fact, by its form (the role it is kept as in brackets):

- a person doing something for the code, in the present: "Sara owns the cart module"
  (owns), "Mina maintains the design system" (maintains), "Sara reviews every change to
  billing", "billing reviews go through Noor" (reviews), "Tom approves schema migrations",
  "Priya signs off on releases", "migrations need sign-off from Tom", "any change to auth
  needs Dave's approval" (approves), "Jin is on call for payments this quarter" (on-call),
  "Alex is the contact for the Stripe integration", "billing questions go to Sara", "for
  anything about payments, ping Chloe" (contact), "ask Tom before touching the schema",
  "run it by Sven first" (consult), "Omar leads the work on search" (leads), "Mina is our
  designer" (role), "Jin has the final say on pricing" (decides), "Raj knows billing
  best" (expert); passives ("billing is owned by Alex") and possessives ("the auth service
  is Dave's", "infra is Tariq's area");
- in Korean: "지민 님이 결제 담당이에요", "릴리스는 민수 님이 승인해요", "디자인 관련 문의는
  수진 님한테", "코드 리뷰는 현우가 해요", "결제 오너는 Sara예요", "배포 전에 민수에게 물어봐",
  "주문 API 변경은 하은 님 승인 받아야 돼요".

What is not: a question ("who owns billing?", "지민 님이 담당 맞나요?"); a hypothetical
("if Sara owned…", "suppose Tom approves…", "만약 …", "…라면", "…해 주면"); a pronoun, a
team, a title or a tool doing it ("he owns it", "QA signs off", "팀장님이 승인해요",
"Redis owns the lock", "게이트웨이가 인증을 담당해요"); a task that names someone ("ask Sara
to review this PR", "민수한테 이 PR 리뷰 부탁해"); the past or what has ended ("Tom approved
the migration", "Sara used to own billing", "no longer", "예전에 담당이었어요"); a negation
("Sara doesn't own billing anymore", "이제 담당 아니에요"); hearsay ("according to the wiki,
Sara owns billing", "…라고 들었어요"); whether, not that ("지민 님이 담당인지 확인해 줘"); a
fact of one work item ("Sara reviews this PR").

**Time-limited facts.** One that lasts a month or more is kept, its limit in its text ("Jin
is on call for payments this quarter", "이번 분기 온콜"): a context lives 90 days unless seen
again, about as long. One that is shorter is left out ("this week", "today", "tonight",
"until Friday", "for now", "이번 주", "오늘", "내일", "당분간"): kept, it would be wrong for
most of its life.

**Names.** An English name is a capitalised word or two ("Sara", "Tom Lee"), or a lower-case
first name of :data:`FIRST_NAMES` in casual text ("sara owns billing"); never a pronoun, a
team ("Security", "the platform team"), a bot ("Dependabot"), an all-capital word ("QA") or
an assistant. A verb a program also does (owns, maintains, handles, manages, leads, takes
care of, is in charge of) needs the name to be a known first name, a full name, or "her",
"his", "him", "she" or "he" nearby: "Kafka owns the event log" is not a person. A Korean
name is one to four syllables before 님 or 씨 (or a title: 선배, 매니저님, …), or, bare, two to
four syllables that given names use ("현우가", "지민이") and not a common word (서버, 함수).

**What is kept** (:attr:`Person.text`): the sentence from the statement on, with what it
means for the work when the same sentence says it ("…, so keep her API stable",
"…담당이니까 API는 바꾸지 마"); a leading request or filler ("Fix the coupon total,", "btw",
"fyi", "아 그리고", "참고로") and a trailing "just so you know" are taken off.

**Where it applies** (:func:`everywhere`): a statement that says so holds in every project
("across all our repos", "in every project", "company-wide", "모든 프로젝트에서", "회사
전체에서"); any other is the project's it was said in.

>>> found = find("Can you fix it, Sara owns the cart module, so keep her API stable")
>>> found.name, found.role, found.text
('Sara', 'owns', 'Sara owns the cart module, so keep her API stable')
>>> find("릴리스는 민수 님이 승인해요").role, find("ask Sara to review this PR")
('approves', None)
"""

from __future__ import annotations

import re

__all__ = [
    "ANCHORS",
    "FIRST_NAMES",
    "FORMS",
    "ROLES",
    "Person",
    "everywhere",
    "find",
    "mentions",
    "person_of",
]

MAX_TEXT_CHARS = 300
BARE_NAME_SYLLABLES = (2, 4)  # a Korean name without 님 or 씨: "현우", "김민수", "남궁민수"
# What each form needs in the (lower-cased) sentence, between spaces: one word of every
# group, the most telling group first. A sentence that no form's groups all meet (most)
# names no one doing anything and compiles no pattern; tests/test_people.py checks that
# the forms find nothing else.
_IS = tuple(  # "is our …", "is usually the …", "'s the …"
    f"{verb}{adverb}{word} "
    for verb in (" is ", "'s ")
    for adverb in (
        *("", "also ", "usually ", "basically ", "currently ", "now ", "still "),
        *("actually ", "officially ", "effectively ", "really ", "pretty much "),
    )
    for word in (
        *("our", "the", "their", "my", "one of", "on call", "on-call", "responsible"),
        *("accountable", "in charge"),
    )
)
_ROLE_WORDS = (
    "contact|point person|go-to|goto|person to |one to ask|owner|maintainer|reviewer|approver"
    "|gatekeeper|expert|on call|on-call|oncall|lead|manager| em | pm| po |designer|architect"
    "| dba| sre|admin| cto| ceo| vp|head|engineer|developer| dev|champion|steward| dri"
    "|responsible|accountable|in charge|the one who"
).split("|")
_KO_ROLE_VERBS = tuple(
    "담당|책임|관리|유지보수|유지 보수|오너|맡|리뷰|승인|결정|온콜|당번|컨택|잘 알|잘알".split("|")
)
_GATES: dict[str, tuple[tuple[str, ...], ...]] = {
    "subject-verb": (
        tuple(
            "owns|maintains|leads|manages|handles|oversees|reviews|review for|review on"
            "|review of|approves|signs off|okays| oks |looks after|takes care|decides on"
            "|gatekeeps|has the final|has the last|has the say|has the call|has the word"
            "|makes the call|makes the final|knows ".split("|")
        ),
    ),
    "subject-modal": (
        tuple(
            " own | maintain| lead | manage | handle | oversee| review| approve| sign off"
            "| look after| take care| decide on".split("|")
        ),
        tuple(
            "has to |needs to | must | should | can |gets to |will always |supposed to "
            "|required to ".split("|")
        ),
    ),
    "subject-role": (
        tuple(_ROLE_WORDS),
        (" is ",),
        tuple(word for word in _IS if word.startswith(" is")),
    ),
    "subject-is": (
        tuple(_ROLE_WORDS),
        ("'s ",),
        tuple(word for word in _IS if word.startswith("'s")),
    ),
    "passive": (
        tuple(
            "owned by|maintained by|reviewed by|approved by|handled by|managed by|led by"
            "|overseen by|signed off by|looked after by|taken care of by|belong".split("|")
        ),
    ),
    "possessive": (
        ("'s",),
        tuple(
            "'s area|'s domain|'s call|'s code|'s baby|'s turf|'s thing|'s territory|'s module"
            "|'s service|'s project|'s stuff|'s job|'s show|'s department|'s world|'s realm"
            "|'s responsibility|'s. |'s, |'s; |'s! |'s) |'s so |'s and |'s now |'s btw |'s fyi "
            "|'s too |'s though |'s anyway |'s \0".split("|")
        ),
    ),
    "approval": (
        tuple(
            "approval|sign-off|signoff|sign off|'s review|'s ok|blessing|go-ahead"
            "|green light|thumbs|'s ack|review from|review by| ok from| ok by|okay from"
            "|ack from".split("|")
        ),
    ),
    "routed-go": (
        tuple(
            " go to| goes to| go through| goes through| go via| goes via| go straight"
            "| goes straight| go directly| goes directly|routed|get sent|should go".split("|")
        ),
        tuple(
            "question|request|issue|ticket|anything|everything|stuff|bugs|problem| prs"
            "|changes|reviews|migrations".split("|")
        ),
    ),
    "routed-for": (
        tuple(
            "for any|with any|for all |with all |for question|with question|for help"
            "|with help|for issue|with issue|for problem|with problem|for stuff|with stuff"
            "|if you have|if you've got|if you get|if you need".split("|")
        ),
        tuple(" ask |ping |talk to|go to|reach out|contact|message| dm |slack|email".split("|")),
    ),
    "routed-send": (
        ("questions", "requests", "issues", "tickets", "bugs", "problems"),
        (" send ", "direct", "route", "forward", " take ", "bring"),
    ),
    "ask-first": (
        tuple(
            " ask |check with|talk to|consult|run it |run that |run things |run changes "
            "|sync with|clear it with".split("|")
        ),
        ("before", "first", "prior to", "about any", "about all", "about every"),
    ),
    "cc-on-any": (
        (" cc ", "loop in", " tag ", "ping ", "notify", "reviewer"),
        (" any", " all ", " every"),
    ),
    "role-first": (
        tuple(
            "contact|point person|go-to person|owner|maintainer|reviewer|approver|gatekeeper"
            "|expert|on-call|oncall|on call|lead| pm |designer|manager| dba | sre |admin".split("|")
        ),
        (" is ",),
        (" of ", " for ", " on "),
    ),
    "ko-subject": (_KO_ROLE_VERBS,),
    "ko-topic": ((*_KO_ROLE_VERBS, "컨펌", "사인오프", "오케이", "문의", "질문", "연락", "쪽은"),),
    "ko-role-is": (
        tuple(
            "담당자는|담당은|오너는|책임자는|온콜은|당번은|리뷰어는|승인권자는|포인트는|창구는|리드는"
            "|매니저는|디자이너는|기획자는|아키텍트는|팀장은|pm은|po는|dba는|sre는|qa는".split("|")
        ),
    ),
    "ko-owned": (("담당이", "담당임", "담당입", "소관", "관할", "책임이", "영역"),),
    "ko-routed": (("문의", "질문", "요청", "연락", "컨택", "물어", "여쭤"), ("한테", "에게", "께")),
    "ko-ask-first": (("전에",), ("에게", "한테", "께")),
    "ko-approval": (
        ("승인", "리뷰", "컨펌", "오케이", "사인오프"),
        ("받아야", "받고", "없이", "필요", "거쳐야"),
    ),
}
_GATES = {  # and each "'" word with a curly apostrophe too
    form: tuple((*words, *(w.replace("'", "’") for w in words if "'" in w)) for words in gate)
    for form, gate in _GATES.items()
}
ANCHORS = tuple(dict.fromkeys(word for gate in _GATES.values() for word in gate[0]))
ROLES = frozenset(
    "owns maintains reviews approves on-call contact consult leads role decides expert".split()
)


class Person:
    """A standing fact about a person.

    ``name`` as typed; ``role``, what they do, one of :data:`ROLES`; ``text``, the statement
    kept; ``everywhere``, whether it says it holds in every project. (A plain class: the hook
    imports this module for every prompt, and a dataclass costs more to make than to read.)
    """

    __slots__ = ("everywhere", "name", "role", "text")

    def __init__(self, name: str, role: str, text: str, *, everywhere: bool) -> None:
        self.name, self.role, self.text, self.everywhere = name, role, text, everywhere

    def __repr__(self) -> str:
        """Return the fact as the call that makes it (what a failing test shows)."""
        return f"Person({self.name!r}, {self.role!r}, {self.text!r}, everywhere={self.everywhere})"


def mentions(sentence: str) -> bool:
    """Tell whether any form could match ``sentence`` (else it states no one's role).

    >>> mentions("Fix the failing test"), mentions("Sara reviews billing")
    (False, True)
    """
    return not _plainly_asks(sentence) and bool(_forms_for(_spaced(sentence)))


_QUESTION_WORDS = frozenset(
    "what who whom whose which where when why how is are was were does do did can could should"
    " would will shall has have am".split()
)


def _plainly_asks(sentence: str) -> bool:
    """Tell, without a pattern, whether one sentence of one clause asks ("who reviews auth?").

    More clauses or sentences are left to :func:`_asks`: "Sara owns auth, can you …?" states.
    """
    text = sentence.strip()
    marks = (",", ";", ":", " - ", "—", "–", ". ", "! ", "? ", "\n", "。", "줄래", "주실래")
    if any(mark in text for mark in marks):
        return False
    first = text.split(maxsplit=1)[0].lower() if text else ""
    return text.endswith(("?", "？")) or first in _QUESTION_WORDS


def _spaced(sentence: str) -> str:
    """Return what the gates read: ``sentence`` lower-cased between spaces, then a NUL.

    The NUL marks its end, so "the auth service is Dave's" meets the possessive's gate.
    """
    return " " + sentence.lower().replace("\n", " ") + " \0"


def _forms_for(low: str) -> list[str]:
    """Return the forms whose gates ``low`` meets, Korean first."""
    if not any(word in low for word in ANCHORS):  # most sentences: one pass, no form
        return []
    return [
        form for form in FORMS if all(any(word in low for word in words) for words in _GATES[form])
    ]


def person_of(sentence: str) -> str | None:
    """Return the person ``sentence`` states a standing fact about, or None.

    >>> person_of("Sara owns the billing service"), person_of("It owns the lock")
    ('Sara', None)
    """
    found = find(sentence)
    return found.name if found else None


def find(sentence: str) -> Person | None:
    """Return the standing fact about a person ``sentence`` states, or None.

    >>> find("Tom approves schema migrations").role
    'approves'
    >>> find("Who owns billing?"), find("If Sara owned billing, we'd have tests")
    (None, None)
    """
    forms = _forms_for(_spaced(sentence)) if sentence and not _plainly_asks(sentence) else []
    candidates = _candidates(sentence, forms) if forms else []
    if not candidates or _vetoed(sentence):
        return None
    korean = any("가" <= char <= "힣" for char in sentence)
    for match, role, name in candidates:
        if not _asks(sentence, match, korean=korean):
            text = _kept(sentence, _opening(match))
            return Person(name, role, text, everywhere=everywhere(text))
    return None


def consequence(sentence: str) -> bool:
    """Tell whether a sentence goes on about the person just named: what it means for the work.

    "Sara owns the cart module. So keep her API stable." and "릴리스는 민수 님이 승인해요.
    태그 달기 전에 꼭 확인받아 주세요." are one fact each; a new task in the next sentence
    ("Fix the login bug.") is not part of it.

    >>> consequence("So keep her API stable."), consequence("태그 달기 전에 꼭 확인받아 주세요")
    (True, True)
    >>> consequence("Fix the login bug."), consequence("Why is the build red?")
    (False, False)
    """
    return "?" not in sentence and _pattern("consequence").search(sentence) is not None


def everywhere(text: str) -> bool:
    """Tell whether a statement says it holds beyond this project.

    >>> everywhere("Sara reviews auth changes across all our repos")
    True
    >>> everywhere("모든 프로젝트에서 승인은 동현 님이 해요"), everywhere("Sara owns billing")
    (True, False)
    """
    return _pattern("everywhere").search(text) is not None


# ---- the patterns (compiled on first use, once per process) ---------------------------------

_COMPILED: dict[str, re.Pattern[str]] = {}


def _pattern(name: str) -> re.Pattern[str]:
    """Return the pattern ``name`` of :data:`_SOURCES`, compiled the first time it is asked for.

    The hook's fast path reads every prompt in a new process: a prompt with no anchor word
    compiles none, one that names a person compiles only the forms it gets to.
    """
    compiled = _COMPILED.get(name)
    if compiled is None:
        source, flags = _SOURCES[name]
        compiled = _COMPILED[name] = re.compile(source, flags)
    return compiled


_I = re.IGNORECASE
_EN_NAME = r"(?P<name>[A-Z][a-z'’]+(?:[ -][A-Z][a-z]+)?|[a-z][a-z'’-]+)"
_NAMED = r"[A-Z][a-z]+(?:\s[A-Z][a-z]+)?|[a-z]+"  # a name after a verb: "by Sara", "to Tom Lee"
_ADVERBS = (
    r"(?:(?i:usually|always|typically|normally|generally|basically|mostly|currently|now|still"
    r"|also|actually|officially|technically|effectively|ultimately|really|kind\s+of|kinda"
    r"|sort\s+of|pretty\s+much|more\s+or\s+less|alone|personally)\s+){0,2}"
)
_LEADS = (
    r"(?i:and|but|btw|fyi|also|since|because|as|so|plus|ps|oh|now|though|note|only|whereas"
    r"|and\s+only)"
)
_CLAUSE_START = (  # where a subject may open a clause: "Sara owns …", "…, so Sara owns …"
    rf"(?:(?:^|(?<=[,;:(—–]))\s*(?:{_LEADS}\s+)*|(?<=\s-\s)|(?<=\s){_LEADS}\s+(?:{_LEADS}\s+)*)"
)
# "is our designer", "is the PM for checkout": the words a role ends with
_ROLE_NOUNS = (
    r"contact(?:\s+person)?|point\s+of\s+contact|point\s+person|go-?to(?:\s+(?:person|guy|gal))?"
    r"|person\s+to\s+(?:ask|talk\s+to|ping)|one\s+to\s+(?:ask|talk\s+to)|owner|codeowner"
    r"|code\s+owner|dri|maintainer|reviewer|approver|gatekeeper|expert|on-?call(?:\s+engineer)?"
    r"|lead|manager|em|pm|product\s+manager|product\s+owner|po|designer|architect|dba|sre"
    r"|admin|administrator|cto|ceo|vp|head|engineer|developer|dev|champion|steward"
)
_FIRST_ROLE_NOUNS = (  # "the contact for Stripe is Alex": fewer, each an anchor word
    r"contact|point\s+of\s+contact|point\s+person|go-?to\s+person|owner|codeowner|code\s+owner"
    r"|maintainer|reviewer|approver|gatekeeper|expert|on-?call|(?:tech\s+)?lead|pm|designer"
    r"|manager|dba|sre|admin"
)
_S_VERBS = (  # a present-tense verb after the subject; what follows is its object
    r"owns|maintains|leads|manages|handles|oversees|reviews|approves|signs\s+off(?:\s+on)?"
    r"|okays|oks|looks\s+after|takes\s+care\s+of|decides\s+on|gatekeeps"
    r"|does\s+(?:all\s+)?(?:the\s+|our\s+)?(?:code\s+|pr\s+)?reviews?\s+(?:for|on|of)"
    r"|has\s+the\s+(?:final\s+|last\s+)?(?:say|call|word)\s+(?:on|over|in|for|about)"
    r"|makes\s+the\s+(?:final\s+)?calls?\s+(?:on|about|for)"
    r"|knows\s+.{1,60}?\s+(?:best|inside\s+out|better\s+than\s+anyone)"
)
_MODAL_VERBS = (  # after "has to", "needs to", "must", "should", "can", "will always"
    r"own|maintain|lead|manage|handle|oversee|review|approve|sign\s+off(?:\s+on)?"
    r"|look\s+after|take\s+care\s+of|decide\s+on"
)
_IS_FORMS = (  # after "is" / "'s"
    r"(?i:(?:the\s+)?on[- ]?call(?:\s+(?:person|engineer))?"
    r"(?=\s+(?:for|on)\s+\S|\s+this\s+(?:quarter|month|year))"
    r"|responsible\s+for|accountable\s+for|in\s+charge\s+of"
    r"|the\s+(?:main\s+|resident\s+)?expert\s+on|the\s+one\s+who\s+(?:owns|maintains|reviews"
    r"|approves|signs\s+off(?:\s+on)?|decides|handles|leads)"
    r"|(?:(?:our|the|the\s+team['’]s|their|my|one\s+of\s+(?:the|our))\s+)(?:[\w-]+\s+){0,3}?"
    rf"(?:{_ROLE_NOUNS})s?\b)"
)
_SUBJECT_VERB = rf"{_CLAUSE_START}{_EN_NAME}\s+{_ADVERBS}(?P<verb>(?i:{_S_VERBS}))"
_SUBJECT_MODAL = (  # "Diego needs to approve migrations", "only Sara can approve releases"
    rf"{_CLAUSE_START}{_EN_NAME}\s+{_ADVERBS}(?P<verb>(?i:has\s+to|needs\s+to|must|should|can"
    rf"|gets\s+to|will\s+always|is\s+(?:supposed|required)\s+to)\s+(?i:{_MODAL_VERBS})\b)"
)
_SUBJECT_ROLE = (  # "Mina is our designer", "Jin is on call for payments"
    rf"{_CLAUSE_START}{_EN_NAME}\s+{_ADVERBS}(?P<verb>(?i:is)\s+{_ADVERBS}{_IS_FORMS})"
)
_SUBJECT_IS = (  # "Jin's on call …", "Sara's the contact …": the name holds the "'s"
    rf"{_CLAUSE_START}(?P<name>[A-Z][a-z]+|[a-z]+)['’]s\s+{_ADVERBS}(?P<verb>{_IS_FORMS})"
)
_PASSIVE = (  # "billing is owned by Alex", "the cart belongs to Sara"
    r"(?P<verb>\b(?i:is|are|gets|get|(?:has|have|needs?)\s+to\s+be|must\s+be|should\s+be)"
    r"\s+(?:(?i:usually|always|mostly|all|currently"
    r"|officially)\s+)?(?i:owned|maintained|reviewed|approved|handled|managed|led|overseen"
    r"|signed\s+off|looked\s+after|taken\s+care\s+of)\s+by|\b(?i:belongs?)\s+to)\s+"
    r"(?P<name>[A-Z][a-z'’]+(?:\s[A-Z][a-z]+)?|[a-z]+)\b"
)
_POSSESSIVE = (  # "the auth service is Dave's", "infra is Tariq's area"
    r"(?P<verb>\b(?i:is|are)|['’]s)\s+(?:(?i:all|basically|really|mostly|entirely)\s+)?"
    rf"(?P<name>{_NAMED})['’]s"
    r"(?:\s+(?P<what>(?i:area|domain|call|code|baby|turf|thing|responsibility|territory"
    r"|module|service|project|stuff|job|show|department|world|realm)))?"
    r"(?=\s*(?:[,.;!)]|$)|\s+(?i:so|and|now|btw|fyi|too|though|anyway)\b)"
)
_APPROVAL = (  # "any change to auth needs Dave's approval", "hotfixes need sign-off from Noor"
    r"(?P<verb>\b(?i:needs?|requires?|without|gets?|must\s+have|has\s+to\s+have"
    rf"|have\s+to\s+have)\s+(?P<name>{_NAMED})['’]s\s+"
    r"(?P<what>(?i:approval|sign-?off|sign\s+off|ok|okay|review|blessing|go-ahead"
    r"|green\s+light|thumbs[\s-]up|ack))\b"
    r"|\b(?i:needs?|requires?)\s+(?:(?i:an?)\s+)?(?P<what2>(?i:approval|sign-?off|sign\s+off"
    rf"|review|ok|okay|ack))\s+(?i:from|by)\s+(?P<name2>{_NAMED})\b)"
)
_ROUTED_GO = (  # "billing questions go to Sara", "migrations go through Tom"
    r"(?P<verb>\b(?P<what>(?i:questions?|requests?|issues?|tickets?|anything|everything|stuff"
    r"|bugs|problems?|prs|changes|reviews|migrations))\b[^,.;?!]{0,60}?\s+(?i:go(?:es)?"
    r"|should\s+go|get\s+(?:routed|sent)|are\s+routed)\s+(?:(?i:straight|directly)\s+)?"
    rf"(?P<prep>(?i:to|through|via))\s+)(?P<name>{_NAMED})\b"
)
_ROUTED_FOR = (  # "for anything about payments, ping Chloe", "if you have questions, ask Lena"
    r"(?P<verb>\b(?:(?i:for|with)\s+(?i:any(?:thing)?|all|questions?|help|issues?|problems?"
    r"|stuff)|(?i:if\s+you\s+(?:have|'ve\s+got|get|need)\s+(?:any\s+)?(?:questions?|doubts?"
    r"|issues?|problems?|help)))\b[^.;?!]{0,60}?,?\s*(?:(?i:just)\s+)?(?i:ask|ping|talk\s+to"
    rf"|go\s+to|reach\s+out\s+to|contact|message|dm|slack|email)\s+)(?P<name>{_NAMED})\b"
)
_ROUTED_SEND = (  # "send design questions to Mina"
    r"(?P<verb>\b(?i:send|direct|route|forward|take|bring)\s+(?:(?i:all|any)\s+)?"
    r"(?:\S+\s+){0,3}?(?i:questions|requests|issues|tickets|bugs|problems)\s+"
    rf"(?:(?i:about|on|for)\s+[^,.;]{{1,40}}?\s+)?(?i:to)\s+)(?P<name>{_NAMED})\b"
)
_ASK_FIRST = (  # "ask Tom before touching the schema", "run it by Sven first"
    r"(?P<verb>\b(?i:ask|check\s+with|talk\s+to|consult|run\s+(?:it|that|things|changes)\s+"
    rf"(?:by|past)|sync\s+with|clear\s+it\s+with)\s+)(?P<name>{_NAMED})\s+"
    r"(?:(?i:before|first\b|prior\s+to)|(?i:about)\s+(?i:any(?:thing)?|all|every)\b)"
)
_CC_ON_ANY = (  # "loop in Sara on any billing change", "add Tom as a reviewer on all PRs"
    r"(?P<verb>\b(?:(?i:cc|loop\s+in|tag|ping|notify)\s+(?=\S+\s+(?i:in\s+)?(?i:on|in|for)\s)"
    r"|(?i:add)\s+(?=\S+\s+(?i:as\s+(?:a\s+)?reviewer)))"
    rf")(?P<name>{_NAMED})\s+(?:(?i:in\s+)?(?i:on|in|for)|(?i:as\s+(?:a\s+)?reviewer\s+"
    r"(?:on|for)))\s+(?i:any|all|every|anything|everything)\b"
)
_ROLE_FIRST = (  # "the contact for Stripe is Alex", "the owner of auth is Dave"
    rf"(?P<verb>\b(?P<what>(?i:{_FIRST_ROLE_NOUNS}))\s+(?i:of|for|on)\s+[^,.;?!]{{1,50}}?"
    rf"\s+(?i:is)\s+)(?P<name>{_NAMED})\b(?!['’])"
)

# Korean: a name, its honorific or title, its particle.
_KO_NAME = r"(?P<name>[가-힣]{1,4}?|[A-Z][a-z]+)"
_KO_HON = r"(?P<hon>\s?(?:님|씨|선배님?|매니저님?|팀장님|리드님?|프로님?|책임님|수석님|님께서))?"
_KO_BEFORE = r"(?:^|(?<=[\s,(]))"
_KO_ADVERB = r"(?:다|주로|보통|항상|전부|대부분|최종|거의|원래|지금)"
_KO_PARTICLE = r"(?:이|가|은|는|께서)(?!\s?(?:님|씨))"  # "다은 씨가": 다은, not 다 + 은
_KO_SUBJECT = (  # "지민 님이 결제 담당이에요", "현우가 릴리스 최종 승인해요"
    rf"{_KO_BEFORE}{_KO_NAME}{_KO_HON}{_KO_PARTICLE}\s+(?P<obj>[^,.?!]{{0,40}}?)\s*"
    r"(?P<verb>담당(?:자|이|하|해|입니다|이에요|예요|이야)?|책임(?:자|지|을|져|집니다)"
    r"|관리(?:해|하|를|자|합)|유지\s*보수|오너|맡(?:고|아|습니|는)"
    r"|리뷰(?:어|해|하|를|\s*봐|\s*담당|합)|승인(?:해|하|권자|자|합)|최종\s*(?:승인|결정)"
    r"|결정(?:해|하|합)|온콜|당번|컨택\s*포인트|연락\s*담당|제일\s*잘\s*알|잘\s*알아)"
)
_KO_TOPIC = (  # "릴리스는 민수 님이 승인해요", "코드 리뷰는 현우가 해요"
    rf"(?P<obj>[^,.?!]{{1,40}}?)(?:은|는)\s+(?:{_KO_ADVERB}\s+)?{_KO_NAME}{_KO_HON}{_KO_PARTICLE}"
    rf"\s+(?:{_KO_ADVERB}\s*)?"
    r"(?P<verb>(?P<plain>해요|해|합니다|한다|하고\s*있|봐요|봐|봅니다|보니까|보고)"
    r"|맡|승인|리뷰|담당|관리|결정|유지\s*보수|제일\s*잘\s*알|잘\s*알아)"
)
_KO_ROLE_IS = (  # "결제 오너는 Sara예요", "어드민 페이지 담당자는 박서준 님이에요"
    r"(?P<obj>[^,.?!]{0,40}?)(?P<verb>담당자?|오너|책임자|온콜|당번|리뷰어|승인권자"
    r"|컨택\s*포인트|연락\s*창구|(?P<role>리드|테크\s*리드|매니저|디자이너|기획자|아키텍트"
    rf"|팀장|PM|PO|DBA|SRE|QA))(?:은|는)\s*{_KO_NAME}{_KO_HON}\s*"
    r"(?:이에요|예요|입니다|이야|야|임|이다|이죠|죠|이고|고|$)"
)
_KO_OWNED = (  # "결제는 지민 님 담당이니까"
    rf"(?P<obj>[^,.?!]{{1,40}}?)(?:은|는)\s+{_KO_NAME}{_KO_HON}\s*"
    r"(?P<verb>담당|소관|관할|책임|영역)(?:이에요|이야|입니다|이니까|이라서|이라|이고|임|이죠)"
)
_KO_ROUTED = (  # "디자인 관련 문의는 수진 님한테", "정산 쪽은 Sara한테 물어보면 돼요"
    r"(?P<obj>[^,.?!]{0,40}?)(?:(?P<verb>문의|질문|요청|연락|컨택)(?:은|는|사항은)"
    rf"\s*{_KO_NAME}{_KO_HON}\s*(?:한테|에게|께|쪽으로)"
    r"(?:\s*(?:물어보|문의|여쭤|연락|확인|해\s*주|하면|하시면|주시면|보내|부탁|가|와)|\s*$|[,.])"
    rf"|(?:쪽|관련|건)(?:은|는|해서는|해선)\s*(?P<name2>[가-힣]{{1,4}}?|[A-Z][a-z]+)"
    r"(?P<hon2>\s?(?:님|씨))?\s*(?:한테|에게|께)\s*(?:물어보|문의|여쭤|연락))"
)
_KO_ASK_FIRST = (  # "배포 전에 민수에게 물어봐", "건드리기 전에 하은 씨한테 먼저 물어봐 주세요"
    r"(?P<verb>전에(?:는)?)\s*(?:꼭\s*|먼저\s*|반드시\s*|항상\s*|무조건\s*)?"
    rf"{_KO_NAME}{_KO_HON}\s*(?:에게|한테|께)\s*(?:먼저\s*|꼭\s*|반드시\s*)?"
    r"(?:물어|확인|허락|얘기|말|여쭤|공유|리뷰|승인|컨펌|알려)"
)
_KO_APPROVAL = (  # "주문 API 변경은 하은 님 승인 받아야 돼요", "…리뷰 없이는 머지 안 돼요"
    rf"{_KO_BEFORE}{_KO_NAME}{_KO_HON}\s*(?:의\s*)?(?P<verb>승인|리뷰|컨펌|오케이|사인오프)"
    r"\s*(?:을|를|이|가)?\s*(?:꼭\s*|반드시\s*|먼저\s*)?(?:받아야|받고|없이는|없이|필요|거쳐야)"
)
_EVERYWHERE = (
    r"\b(?:across|in|for|on|throughout)\s+(?:all|every|each|any)\s+"
    r"(?:(?:of\s+)?(?:our|my|the)\s+)?(?:repos?|repositories|projects?|codebases?|services"
    r"|products|teams)\b|\b(?:company|org|organi[sz]ation|team)[- ]wide\b"
    r"|\bacross\s+the\s+(?:company|org|board|organi[sz]ation)\b|\bglobally\b"
    r"|\beverywhere\s+(?:in|at|across)\s+the\s+(?:company|org)\b"
    r"|모든\s*(?:프로젝트|레포|리포|저장소|서비스)|회사\s*전체|전사(?:적으로)?|전체\s*프로젝트"
    r"|프로젝트\s*전체|어느\s*(?:프로젝트|레포|저장소)(?:에서)?(?:든|나)"
)
# ---- what makes a sentence no standing fact
_ENDED = (  # the past, what has ended, a negation
    r"\b(?:used\s+to|no\s+longer|any\s*more|previously|formerly|yesterday|last\s+(?:week|month"
    r"|year|quarter|sprint|time)|ago|before\s+the\s+reorg|until\s+(?:recently|last))\b"
    r"|어제|그저께|지난\s*(?:주|달|번|해|분기)|예전에|작년|이제\s*(?:안|아니)|더\s*이상"
    r"|(?:었|았|였|했|줬|봤)(?:어|었|습니다|다|죠|는데)|이었|였었|아니(?:에요|야|다|라|고|죠)"
    r"|아닙니다|안\s*(?:맡|해|하|봐|봅|합)|못\s*(?:해|하)"
)
_HEARSAY = (  # someone else's word for it: "according to the wiki, …", "…라고 들었는데"
    r"\b(?:according\s+to|apparently|supposedly|allegedly|i\s+heard|rumou?red)\b"
    r"|\b(?:wiki|docs?|readme|confluence|notion|spec)\s+(?:says|said)\b"
    r"|(?:라고|다고)\s*(?:들었|하던데|하더라)|라던데|다던데|라더라|다더라"
)
_SHORT = (  # true for less than a month: not kept (the module's docstring)
    r"\b(?:today|tonight|tomorrow|this\s+(?:week|weekend|sprint|morning|afternoon|evening"
    r"|time)|for\s+now|right\s+now|for\s+the\s+(?:time\s+being|moment)|temporarily"
    r"|at\s+the\s+moment|until\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|tomorrow|next\s+week|eod|eow|the\s+end\s+of\s+(?:the\s+)?(?:day|week))"
    r"|while\s+(?:i|she|he|they|we)(?:['’]m|['’]s|['’]re|\s+am|\s+is|\s+are)\s+(?:out|away"
    r"|off|on\s+leave|on\s+vacation|on\s+holiday))\b"
    r"|오늘|내일|이번\s*주|주말|당분간|일단|임시로|지금은|이번\s*스프린트|휴가\s*(?:동안|중)"
)
_WHAT_IF = (
    r"\b(?:if|suppose|supposing|assuming|imagine|unless|whether|in\s+case|what\s+if|once"
    r"|when|whenever|until|wish|hope)\b|만약|만일|혹시"
    r"|(?:라면|다면|이면|으면|하면|주면|되면|보면)(?!\s*(?:돼|됩|안\s*돼|안\s*됩))|좋겠"
    r"|(?:인지|는지|은지|을지|할지)(?=\s|$)"  # "…담당인지 확인해 줘": whether, not that
)
_ONE_OFF = (  # the object is one work item, or a pronoun
    r"^\s*(?:(?:it|them|this|that|these|those)\b(?!\s+(?:repo|repository|project|codebase"
    r"|service|module|package|library|component|area|part|code|folder|directory|team|app"
    r"|system|stack|pipeline|integration|domain|product))"
    r"|the\s+(?:pr|diff|commit|patch|fix|branch|ticket|issue|bug|migration|release|deploy"
    r"|one)(?=\s*(?:$|[,.;!?]|(?:for|of|on|in|from|to|before|after|today|now|please)\b)))"
    r"|\b(?:this|that|my|your)\s+(?:pr|pull\s+request|mr|commit|diff|patch|fix|branch|ticket"
    r"|issue|bug|one|release|deploy|migration|change|rollout)\b"
)
_QUESTION_START = (
    r"^\W*(?:what|who|whom|whose|which|where|when|why|how|is|are|was|were|does|do|did|can"
    r"|could|should|would|will|shall|has|have|am)\b"
)
_ASK_AFTER = (  # ", can you …?", "…바꾸지 말아 줄래?": a request after the statement
    r"[,;:—–-]\s*(?:(?:and|so|but|then|now)\s+)?(?:can|could|would|will)\s+(?:you|u)\b"
    r"|[,;:—–-]\s*(?:(?:and|so|but|then|now)\s+)?(?:please|pls)\b"
    r"|(?:줄래|줄래요|주실래요|주시겠어요|줄\s*수\s*있어)\s*[?？]\s*$"
)
_KO_QUESTION = (
    r"(?:까요?|나요|니|냐|는지|을까|습니까|인가요?|맞지|맞죠|맞나요?|뭐야|어때|건가요?)\s*[?？]?\s*$"
    r"|(?:^|\s)(?:누가|누구|누군|뭐|왜|어떻게|어디)(?:\s|$|가|예요|야|를|한테)"
)
_LEAD_FILLER = (
    r"^\s*(?:(?:btw|fyi|also|oh|ah|and|so|plus|ps|p\.s\.|heads\s+up|note|one\s+more\s+thing"
    r"|by\s+the\s+way|just\s+so\s+you\s+know|for\s+context|for\s+reference|quick\s+note"
    r"|for\s+the\s+record|small\s+thing(?:\s+before\s+you\s+start)?|ok(?:ay)?|thanks"
    r"|anyway|참고로|아|참|그리고|근데|아\s*맞다|그리고\s*참|덧붙여|하나\s*더)\b[\s,:;—–-]*)+"
)
_LEAD_REQUEST = (
    r"^\s*(?:please|pls|can\s+you|could\s+you|would\s+you|will\s+you|let['’]s|fix|add|update"
    r"|rename|refactor|write|make|run|change|remove|delete|look|help|implement|create|move"
    r"|clean|bump|revert|merge|ship|deploy|test|debug|investigate|check\s+out|ok|okay"
    r"|thanks|small\s+thing|one\s+thing)\b"
    r"|(?:줘|줘요|주세요|줄래|줄래요|하자|해\s*봐|봐\s*줘|하나만|하나\s*더|부탁해|부탁해요)\s*$"
)
_TRAIL = r"(?:[,;]?\s*(?:just\s+so\s+you\s+know|fyi|btw|thanks|thx|ty|thank\s+you)|[.!。\s]+)+$"

# What the next sentence says when it goes on about the person: a consequence, a pronoun
# that names them again, or asking them first.
_CONSEQUENCE = (
    r"^(?:so|therefore|thus|hence|that\s+means|which\s+means|meaning)\b"
    r"|\b(?:her|him|his|their|them)\b"
    r"|\b(?:ask|check\s+with|ping)\s+(?:her|him|them)\b"
    r"|^(?:그러니(?:까)?|그래서|따라서|그러므로)\b|그분|그\s*사람"
    r"|전에\s*(?:꼭\s*|먼저\s*|반드시\s*)?(?:\S+\s*)?(?:확인|승인|허락|물어|리뷰)"
)
_SOURCES: dict[str, tuple[str, int]] = {
    "subject-verb": (_SUBJECT_VERB, 0),
    "subject-modal": (_SUBJECT_MODAL, 0),
    "subject-role": (_SUBJECT_ROLE, 0),
    "subject-is": (_SUBJECT_IS, 0),
    "passive": (_PASSIVE, 0),
    "possessive": (_POSSESSIVE, 0),
    "approval": (_APPROVAL, 0),
    "routed-go": (_ROUTED_GO, 0),
    "routed-for": (_ROUTED_FOR, 0),
    "routed-send": (_ROUTED_SEND, 0),
    "ask-first": (_ASK_FIRST, 0),
    "cc-on-any": (_CC_ON_ANY, 0),
    "role-first": (_ROLE_FIRST, 0),
    "ko-subject": (_KO_SUBJECT, 0),
    "ko-topic": (_KO_TOPIC, 0),
    "ko-role-is": (_KO_ROLE_IS, 0),
    "ko-owned": (_KO_OWNED, 0),
    "ko-routed": (_KO_ROUTED, 0),
    "ko-ask-first": (_KO_ASK_FIRST, 0),
    "ko-approval": (_KO_APPROVAL, 0),
    "everywhere": (_EVERYWHERE, _I),
    "consequence": (_CONSEQUENCE, _I),
    "ended": (_ENDED, _I),
    "hearsay": (_HEARSAY, _I),
    "short": (_SHORT, _I),
    "what-if": (_WHAT_IF, _I),
    "one-off": (_ONE_OFF, _I),
    "one-off-end": (r"\b(?:it|them|this|that)\s*$", _I),
    "ko-one-off": (
        r"이\s*(?:PR|pr|브랜치|커밋|변경|건|파일)|이번\s*(?:PR|커밋|배포|건|작업)|이거",
        0,
    ),
    "question-start": (_QUESTION_START, _I),
    "ask-after": (_ASK_AFTER, _I),
    "ko-question": (_KO_QUESTION, 0),
    "lead-filler": (_LEAD_FILLER, _I),
    "lead-request": (_LEAD_REQUEST, _I),
    "trail": (_TRAIL, _I),
    "clause": (r"[,;:]\s+|\s[—–-]\s|(?<=[,;:])(?=\S)", 0),
    "object-end": (r"[,.;:!?—]|\s+(?:so|but)\s+", 0),
    "human": (r"\b(?:she|he|her|his|him|hers)\b", _I),  # "…, so keep her API stable"
    "go-to-person": (r"go-?to\s+(?:person|guy|gal)", 0),
    "casual-i": (r"^(?P<stem>[가-힣]{2,3})이$", 0),  # "지민이", "수진이": a name and its 이
    "verb-ending": (r"[가-힣]*(?:\s*(?:주|줘|줄|좋)[가-힣]*)?", 0),
}

# ---- which form names what --------------------------------------------------------------

FORMS = (  # in the order they are tried: the first that names someone wins
    "ko-subject",
    "ko-topic",
    "ko-role-is",
    "ko-owned",
    "ko-routed",
    "ko-ask-first",
    "ko-approval",
    "subject-verb",
    "subject-modal",
    "subject-role",
    "subject-is",
    "passive",
    "possessive",
    "approval",
    "routed-go",
    "routed-for",
    "routed-send",
    "ask-first",
    "cc-on-any",
    "role-first",
)
_SUBJECT_FORMS = frozenset({"subject-verb", "subject-modal", "subject-role", "subject-is"})
_RoleWords = tuple[tuple[str, tuple[str, ...]], ...]
# What a form's words say the person does: the first row whose word they hold.
_EN_ROLE_WORDS: _RoleWords = (
    ("on-call", ("on call", "on-call", "oncall")),
    ("approves", ("approv", "sign", "ok", "blessing", "go-ahead", "green light", "thumbs")),
    ("reviews", ("review",)),
    ("decides", ("say", "call", "decide", "word")),
    ("expert", ("know", "expert")),
    ("maintains", ("maintain", "look", "care")),
    ("leads", ("lead", "led", "manage", "oversee")),
)
_KO_ROLE_WORDS: _RoleWords = (
    ("on-call", ("온콜", "당번")),
    ("approves", ("승인", "컨펌", "사인오프", "오케이")),
    ("reviews", ("리뷰",)),
    ("decides", ("결정",)),
    ("contact", ("문의", "질문", "연락", "컨택")),
    ("expert", ("잘",)),
    ("maintains", ("관리", "유지")),
)
_ROLE_NOUN_ROLES: _RoleWords = (  # "is our X": a contact, an owner, … or just a role ("designer")
    ("on-call", ("on call", "on-call", "oncall")),
    ("contact", ("contact", "go-to", "goto", "point person", "person to", "one to ask")),
    ("owns", ("owner", "dri", "responsible", "accountable", "in charge")),
    ("maintains", ("maintainer", "steward")),
    ("reviews", ("reviewer", "the one who reviews")),
    ("approves", ("approver", "gatekeeper", "the one who approves", "signs off")),
    ("expert", ("expert",)),
)
# A verb a program does as well as a person: "Kafka owns the event log", "게이트웨이가 담당".
# With one, an English name must be a known first name, a full name, or cued by "her", "his".
_SHARED_VERBS = (  # stems, found in the form's verb
    "go-to",
    "goto",
    "own",
    "maintain",
    "handle",
    "manag",
    "lead",
    "led",
    "oversee",
    "care",
    "look",
    "charge",
    "responsib",
    "accountab",
    "belong",
    "through",
    "via",
    "담당",
    "관리",
    "맡",
    "책임",
    "유지",
    "오너",
    "소관",
    "관할",
    "영역",
)


def _candidates(sentence: str, forms: list[str]) -> list[tuple[re.Match[str], str, str]]:
    """Return every (match, role, name) the ``forms`` find, in their order."""
    found = []
    for form in forms:
        for match in _pattern(form).finditer(sentence):
            name = _name_of(match, sentence)
            if name is not None and _standing(sentence, match, form):
                found.append((match, _role(match, form), name))
    return found


def _group(match: re.Match[str], *names: str) -> str:
    """Return the first of the groups ``names`` that matched ('' when none did)."""
    groups = match.groupdict()
    return next((groups[name] for name in names if groups.get(name)), "")


def _role(match: re.Match[str], form: str) -> str:
    """Return what the person does, from the words of the form that found them."""
    fixed = _role_of_form(match, form)
    if fixed is not None:
        return fixed
    verb = _group(match, "verb").lower()
    what = _group(match, "what", "what2").lower()
    if form.startswith("routed"):
        return _routed_role(what, verb)
    if form.startswith("ko-"):
        words = f"{_group(match, 'obj')} {verb}"
        return next((role for role, keys in _KO_ROLE_WORDS if _holds(words, keys)), "owns")
    words = f"{verb} {what}"
    if form in {"role-first", "subject-role", "subject-is"}:
        rows = _ROLE_NOUN_ROLES
        default = "owns" if "the one who" in words else "role"
    else:
        rows, default = _EN_ROLE_WORDS, "owns"
    return next((role for role, keys in rows if _holds(words, keys, start=True)), default)


def _role_of_form(match: re.Match[str], form: str) -> str | None:
    """Return the role a form says by itself ("ask Tom before …": consult), or None."""
    said = match.group(0).lower()
    if form == "cc-on-any" and "reviewer" in said:
        return "reviews"  # "add Tom as a reviewer on all schema PRs"
    if form == "cc-on-any" and said.startswith("ping") and " for " in said:
        return "contact"  # "ping Lena for anything search related"
    if form == "ko-role-is" and match.group("role"):
        return "role"  # "우리 팀 DBA는 정우 님이에요"
    if form in {"ask-first", "cc-on-any", "ko-ask-first"}:
        return "consult"
    return "contact" if form == "ko-routed" else None


def _holds(words: str, keys: tuple[str, ...], *, start: bool = False) -> bool:
    """Tell whether ``words`` hold one of ``keys`` (with ``start``: at a word's start)."""
    if not start:
        return any(key in words for key in keys)
    return any(re.search(rf"\b{re.escape(key)}", words) for key in keys)


def _routed_role(what: str, verb: str) -> str:
    """Return who is routed to: a contact, a reviewer or an approver ("changes go through")."""
    if what.startswith("review"):
        return "reviews"
    if re.search(r"\b(?:through|via)\b", verb) and what.startswith(("change", "pr", "migration")):
        return "approves"
    return "contact"


def _name_of(match: re.Match[str], sentence: str) -> str | None:
    """Return the person ``match`` names, if it is a person's name (the module's Names)."""
    name = _group(match, "name", "name2")
    if not name:
        return None
    verb = _group(match, "verb", "prep").lower()
    if not name.isascii():
        return _korean_name(name, honorific=bool(_group(match, "hon", "hon2")))
    shared = any(word in verb for word in _SHARED_VERBS)
    return _english_name(
        name, sentence, shared=shared and not _pattern("go-to-person").search(verb)
    )


def _english_name(name: str, sentence: str, *, shared: bool) -> str | None:
    words = name.replace("-", " ").split()
    if len(words) > 1 and words[0].lower() in _NOT_A_NAME:  # "Then Sara", "Also Tom"
        words = words[1:]
    first = words[0].rstrip("'’").lower()
    if first in _NOT_A_NAME or first.endswith("bot") or len(first) == 1:
        return None
    if words[0].islower():  # in casual text, only a known first name
        return words[0] if first in FIRST_NAMES and first not in _WORDLIKE_NAMES else None
    known = first in FIRST_NAMES or len(words) > 1 or _pattern("human").search(sentence)
    return " ".join(words) if known or not shared else None


def _korean_name(name: str, *, honorific: bool) -> str | None:
    if not honorific:
        casual = _pattern("casual-i").match(name)
        if casual and _has_final(casual.group("stem")):
            name = casual.group("stem")
    if name in _KO_NOT_A_NAME or name.endswith(_KO_TITLES):
        return None
    if honorific:
        return name
    shortest, longest = BARE_NAME_SYLLABLES
    if not shortest <= len(name) <= longest or name in _KO_WORDS:
        return None
    family = name[: len(name) - shortest]  # "김" of "김민수"; "" of "민수"
    given = name[len(family) :]
    if family and family not in _KO_FAMILY and family[0] not in _KO_FAMILY:
        return None
    return name if all(syllable in _KO_GIVEN for syllable in given) else None


def _has_final(word: str) -> bool:
    """Tell whether the last syllable of ``word`` ends in a consonant ("민", not "수")."""
    return (ord(word[-1]) - 0xAC00) % 28 != 0


def _standing(sentence: str, match: re.Match[str], form: str) -> bool:
    """Tell whether the fact outlasts the task: no work item, not only for a short while."""
    if _pattern("short").search(sentence):
        return False
    if form.startswith("ko-"):
        obj = _group(match, "obj")  # "테스트는 민수가 해요": does what? "결제 쪽은 …": the area
        if form == "ko-topic" and match.group("plain") and not (_holds_a_role(obj) or "쪽" in obj):
            return False
        return _pattern("ko-one-off").search(sentence) is None
    rest = _pattern("object-end").split(sentence[match.end() :], maxsplit=1)[0]
    if form in _SUBJECT_FORMS:
        verb = match.group("verb").lower()
        if not rest.strip() and form in {"subject-verb", "subject-modal"} and "know" not in verb:
            return False  # "Sara approves": approves what?
        return _pattern("one-off").search(rest) is None
    subject = re.split(r"[,;:]", sentence[: match.start()])[-1]
    one_off = _pattern("one-off").search(subject + match.group(0))
    return one_off is None and _pattern("one-off-end").search(rest) is None


def _holds_a_role(words: str) -> bool:
    return any(_holds(words, keys) for _role_name, keys in _KO_ROLE_WORDS)


# ---- the sentence as a whole: vetoes, questions, what is kept -------------------------------


def _vetoed(sentence: str) -> bool:
    """Tell whether ``sentence`` holds a secret marker, the past, an end, a negation or hearsay."""
    if "[REDACTED:" in sentence or _pattern("ended").search(sentence):
        return True
    return _pattern("hearsay").search(sentence) is not None


def _asks(sentence: str, match: re.Match[str], *, korean: bool) -> bool:
    """Tell whether the statement ``match`` found is asked or supposed, not stated."""
    clause = _clause_before(sentence, _opening(match))
    if _pattern("what-if").search(clause) or _pattern("question-start").match(clause):
        return True
    if korean and _supposed_in_korean(sentence, match):
        return True
    asked = sentence.rstrip().endswith(("?", "？"))
    if asked or (korean and _pattern("ko-question").search(sentence)):
        return not _pattern("ask-after").search(sentence[match.end() :])
    return False


def _opening(match: re.Match[str]) -> int:
    """Return where the statement opens: at its subject's name, or where its form starts."""
    named = match.groupdict().get("name") and match.re.pattern.startswith(_CLAUSE_START)
    return match.start("name") if named else match.start()


def _supposed_in_korean(sentence: str, match: re.Match[str]) -> bool:
    """Tell whether the statement's own verb ends in a condition or a wish ("…담당이라면")."""
    ending = _pattern("verb-ending").match(sentence, match.end())
    said_end = ending.end() if ending else match.end()
    found = _pattern("what-if").search(sentence, match.start())
    return found is not None and found.start() < said_end


def _clause_before(sentence: str, start: int) -> str:
    """Return the clause that holds ``start``, up to it ("if Sara owned" of "…, if Sara owned")."""
    head = sentence[:start]
    cut = max(head.rfind(mark) for mark in ",;:—?")
    return head[cut + 1 :]


def _kept(sentence: str, start: int) -> str:
    """Return the statement as kept: from its first own clause on, fillers and requests off."""
    cut = 0
    start += len(sentence[start:]) - len(sentence[start:].lstrip())
    for boundary in _pattern("clause").finditer(sentence, 0, start):
        lead = sentence[cut : boundary.start()].strip()
        if lead and not (
            _pattern("lead-request").search(lead) or _pattern("lead-filler").fullmatch(lead)
        ):
            break
        cut = boundary.end()
    text = _pattern("lead-filler").sub("", sentence[cut:], count=1)
    return _pattern("trail").sub("", text).strip()[:MAX_TEXT_CHARS]


# ---- names ---------------------------------------------------------------------------

_NOT_A_NAME = frozenset(  # what opens a clause like a name: pronouns, teams, bots, places
    """i me my we us our you your he him his she her they them their it its this that these
    those the a an there here who whom whose what which where when why how everyone everybody
    nobody someone somebody anyone anybody noone each every all both none either neither one
    other team teams folks people person guys group then also and but so or btw fyi plus ps
    oh ok okay now just please pls only still even if suppose assuming imagine whether
    because since as though while once until ask check talk tell ping loop cc tag add send
    get have let make go see note remember yes no not never always usually maybe sometimes
    today tomorrow yesterday tonight claude copilot chatgpt gpt gemini cursor assistant ai
    bot bots qa ci cd ops devops sre security legal design product platform infra
    infrastructure finance marketing sales support engineering management leadership
    compliance data frontend backend mobile web it hr billing payments payment auth admin
    admins github gitlab bitbucket jenkins circleci sentry datadog pagerduty snyk sonar
    codecov mergify bors main master staging prod production dev development release
    releases""".split()
)
# First names that are also everyday words: only capitalised are they read as names.
_WORDLIKE_NAMES = frozenset(
    """will mark bill rose grace max ray dawn june may art rich pat sue jack frank hope faith
    joy ken dean gene chase drew page lane reed wade ivy sky sunny summer autumn river
    rain hunter rob bob guy amber ruby jade pearl van nick sage""".split()
)
FIRST_NAMES = frozenset(
    """aaron abby abdul abdullah abigail abraham ada adam adebayo adil adrian adriana agnes ahmad
    ahmed aidan aiden aisha akira akash alan albert alberto aleksandr alex alexa alexander
    alexandra alexei alexis alfie ali alice alicia alina alisha allison alvaro amanda amara
    amber amelia amir amit amy ana anders andre andrea andreas andrei andres andrew andy
    angela angelo anika anil anita ann anna anne annie anton antonio anya aria ariana ariel
    arjun armando arnav arthur arturo arun asha ashley astrid aubrey audrey ava avery axel
    ayesha aylin bart beatriz beatrice becca bella ben benjamin bernard beth bethany bianca
    bilal bjorn blake bo boris brad bradley brandon brenda brendan brian brittany brooke bruce
    bruno bryan caleb cameron camila carl carla carlos carmen carol caroline carolyn carter
    casey cassie catherine cecilia cesar chad chandra charlie charles charlotte chen chiara
    chloe chris christian christina christine christopher chuck claire clara claudia cody
    colin connor conor craig cristina dan dana daniel daniela danielle danny dario darius
    dave david dawn debbie deepak deepika denis dennis derek devon diana diane diego dima
    dimitri dina divya dmitri dmitry dominic don donna doug douglas duc dylan ed eddie edgar
    eduardo edward eileen elena eli elias elif elijah elisa elizabeth ella ellen ellie emily
    emma emre enrique eric erica erik erin ernesto esther ethan eugene eva evan eve fabian
    faisal farah fatima felix fernando finn fiona florian francesca francesco francisco
    franz freya gabe gabriel gabriela gary gaurav gemma george georgia gerald gina giorgio
    giovanni giulia glen gloria gonzalo gordon greg gregory greta gustavo hamza hana hannah
    hans harold harper harry harvey hassan hector heidi helen helena henrik henry hiro hiroshi
    holly hugo hui ian ibrahim igor ilya imran ines ingrid irene iris isaac isabel isabella
    isla ismail ivan jacob jake james jamie jan jana jane janet jasmine jason javier jay
    jayden jean jeff jeffrey jenna jennifer jenny jeremy jerry jess jessica jesus jia jiho
    jill jim jimin jimmy jin jing jiwon joan joanna joao joe joel johan johanna john johnny
    jon jonas jonathan jordan jorge jose josef joseph josh joshua joy juan julia julian
    julie jun juno justin kai kamal karan karen karim karina karl kate katie katherine
    kathy katrin kavya kayla keiko keith kelly ken kenji kevin khalid kim kimberly kiran
    kirsten klaus kofi kristen kumar kyle lakshmi lara larry laura lauren lea leah lee lei
    lena leo leon leonardo levi lewis li liam lily lina linda lisa liu logan lorenzo louis
    lucas lucia lucy luis luka lukas luke lydia mads magnus mai maja malik mandy manuel
    mara marc marcel marco marcus margaret maria mariam marie marina mario marta martin mary
    mason mateo matias matt matteo matthew maya megan mehmet mei melissa mia michael michelle
    miguel mika mike mila milan miles min mina minh minsu miriam mohamed mohammed mohan
    molly monica morgan muhammad nadia naomi natalia natalie nathan neha neil nico nicolas
    nicole nikhil nikita nina noah noor nora oleg olga oliver olivia omar oscar owen pablo
    paolo parker patricia patrick paul paula pavel pedro peter petra phil philip pierre
    pooja prakash pranav preeti priya priyanka rachel rafael rahul raj rajesh ram ramon
    randy raphael raquel rashid raul ravi rebecca reza ricardo richard rick riley rita rob
    robert roberto robin rohan roman ron rosa ross ruby rui ryan sabrina sachin sadie sahil
    sai sakura salma sam samantha samir samuel sana sandeep sandra sanjay santiago sara
    sarah sasha scott sean sebastian sergei sergey seth shanti sharon shawn shirin shreya
    simon simone siddharth sofia sonia sophia sophie soren stefan stella stephanie stephen
    steve steven sunil susan suresh sven takeshi tamara tanvir tara tariq ted teresa thomas
    tiago tim timothy tina tobias todd tom tomas tommy tony tracy travis trevor tyler uma
    valentina valeria vanessa varun vera veronica victor victoria vijay vikram vincent
    vivek vladimir walter wei wendy will william xavier xin yan yara yasmin yi yoshi yuki
    yusuf yuna yuri zach zain zara zeynep zhang zoe zoey""".split()
)
_KO_NOT_A_NAME = frozenset(
    """나 저 너 우리 저희 당신 제가 내가 누구 누가 그 그분 그쪽 그사람 사람 걔 얘 쟤
    이분 저분 본인 자기 팀 팀장 대표 실장 부장 과장 차장 대리 사원 선배 후배 동료
    고객 사용자 유저 개발자 디자이너 기획자 모두 다들 전부 누군가 아무 아무나
    담당 담당자 리뷰어 관리자 오너""".split()
)
_KO_TITLES = ("팀", "팀장", "실장", "부장", "과장", "대리", "대표", "봇")
# Common words made only of syllables that given names use: never a bare name.
_KO_WORDS = frozenset(
    """지원 정보 수정 현재 진행 성공 상태 연동 운영 보안 환경 설정 인증 주문 회원
    민감 성능 영상 은행 준비 하나 우리 지금 이제 다음 동안 요청 승인 리뷰 담당
    관리 유지 보수 검색 정리 시간 주말 오늘 내일 어제 이번 모두 전부 혹시 만약
    정산 결제 지난 예전 예정 기존 신규 수동 자동 전체 일부 주로 보통 항상 전에
    먼저 이후 이전 다시 정말 진짜 아주 조금 많이 혼자 같이 함께 서로 미리 나중
    예비 경비 설비 수비 비용 비교 비상 여기 여유 여러 여부 이유 이상 이하""".split()
)
_KO_FAMILY = frozenset(
    """김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 유 전 홍 고 문 양 손
    배 백 허 남 심 노 하 곽 성 차 주 우 구 민 진 나 지 엄 채 원 천 방 공 현 함 변
    염 여 추 도 소 석 선 설 마 길 연 위 표 명 기 반 왕 금 옥 육 인 맹 제 모 탁 국
    어 은 편 용 예 경 봉 사 부 남궁 황보 제갈 선우 독고""".split()
)
_KO_GIVEN = frozenset(  # syllables Korean given names are made of
    """가 경 건 겸 결 규 균 근 기 길 나 남 다 단 담 대 도 동 두 라 란 람 랑 래 려 련
    렬 령 로 록 론 루 류 률 리 린 림 마 만 명 모 목 무 문 미 민 바 범 별 병 보 복
    봄 봉 비 빈 빛 사 상 새 샘 서 석 선 설 섭 성 세 소 솔 솜 송 수 숙 순 슬 승 시
    식 신 실 아 안 애 양 언 여 엽 연 열 영 예 오 옥 온 완 요 용 우 욱 운 웅 원 월
    위 유 윤 율 은 을 음 의 이 익 인 일 임 자 재 정 제 조 종 주 준 중 지 진 찬 창
    채 철 청 초 춘 충 치 태 택 평 표 필 하 한 해 향 혁 현 협 형 혜 호 홍 화 환 효
    후 훈 휘 희 흥""".split()
)
