r"""A statement's stance: what it is about, and whether it says do or don't (stdlib, pure).

Conflict detection (:mod:`artibot_memory.notes.conflicts`) compares two memories by their
stance: "always use pnpm" and "don't use pnpm" are about the same subject with opposite
polarity; "use pnpm instead of npm" is for pnpm and against npm (its ``instead_of``).

The rule, in this order, on the text with what is not the speaker's own words taken out
(inline code and quotes of three words or more; shorter ones are names and stay):

- nothing for a question, a hypothetical ("if we used …", "만약 …라면") or a text with
  no stance marker at all;
- **instead**: "use Y instead of X", "Y rather than X", "Y over X", "use Y, not X",
  "instead of X, use Y", "X 대신 Y", "X 말고 Y": for Y, ``instead_of`` X;
- **don't** (-1): never, don't, do not, avoid, stop using, no longer, must not; "… 하지
  마", "… 쓰지 마", "… 사용하지 않", "… 금지";
- **do** (+1): always, prefer, use, stick with, switch to, go with, chose, decided;
  "항상 …", "… 써", "… 사용해", "…로 하자".

The subject is the statement's words (:func:`artibot_memory.text.tokens.tokenize`: stems,
Korean particles off) without the markers and what follows "because"; ``key`` is its
stable key (:func:`artibot_memory.text.subjects.subject_key`) when it has one.

>>> stance("From now on always use pnpm")
Stance(subject=('pnpm',), polarity=1, instead_of=(), key='package-manager')
>>> stance("npm 쓰지 마").polarity
-1
>>> stance("use pnpm instead of npm").instead_of
('npm',)
>>> stance("Should we always use pnpm?") is None
True
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from artibot_memory.text.subjects import subject_key
from artibot_memory.text.tokens import tokenize

__all__ = ["Stance", "opposed", "other_choice", "other_keys", "restates", "same_subject", "stance"]

MIN_QUOTED_WORDS = 3  # as capture/prompts: a quote this long is someone's words, not a name
MIN_SHARED = 2  # words two subjects share, at the least, to be one without one holding the other
MIN_SHARE = 0.4  # ... and that share of the shorter subject
_I = re.IGNORECASE

_QUOTED = re.compile(r"`([^`]*)`|\"([^\"]*)\"|“([^”]*)”")
_QUESTION = re.compile(
    r"[?？]\s*$|^(?:why|what|how|which)\b"
    r"|^(?:should|shall|do|does|did|can|could|would|will|is|are)\s+(?:we|you|i|it|they|there|this)\b"
    r"|(?:까|나요|니|냐|는지)\s*[?？.]?\s*$",
    _I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|suppose|supposing|imagine|unless|whether|maybe|perhaps)\b|만약|만일|(?:라|다)면\b",
    _I,
)
_BECAUSE = re.compile(
    r"\b(?:because|since|so that|as it|for it)\b.*|(?:때문|왜냐하면|해서는).*", _I
)

_INSTEAD = (  # (pattern, which group is Y, which is X)
    re.compile(r"^instead\s+of\s+(?P<x>.+?)\s*,?\s+(?:use|prefer|go\s+with|pick)\s+(?P<y>.+)$", _I),
    re.compile(r"^(?P<y>.+?)\s+(?:instead\s+of|rather\s+than|over)\s+(?P<x>.+)$", _I),
    re.compile(r"^(?P<y>.+?)\s*,\s*(?:not|never|and\s+not|but\s+not|no)\s+(?P<x>.+)$", _I),
    re.compile(r"^(?P<x>.+?)\s*(?:대신(?:에)?|말고|보다는?)\s+(?P<y>.+)$"),
)
_CLAUSE_END = re.compile(r"\s*[;:.!]\s+|\s*,\s+|\s+-+\s+")  # "instead of X; it is smaller"
_DONT = (
    re.compile(
        r"\b(?:never|don'?t|dont|do\s+not|avoid|stop(?:\s+using)?|no\s+longer|must\s+not|mustn'?t"
        r"|should\s+not|shouldn'?t|quit)\b\s+(?P<s>.+)",
        _I,
    ),
    re.compile(
        r"(?P<s>.+?)\s*[가-힣]+지\s*(?:마|말|않)|(?P<t>.+?)\s*(?:(?:쓰|사용하)면\s*안|금지)"
    ),
)
_DO = (
    re.compile(
        r"\b(?:always|prefer|please\s+use|use|using|stick\s+(?:with|to)|switch\s+to|go\s+with"
        r"|chose|choose|decided\s+(?:on|to\s+use)|we'?ll\s+use|pick)\b\s+(?P<s>.+)",
        _I,
    ),
    re.compile(r"(?:항상|언제나|무조건|앞으로|늘)\s+(?P<s>.+)"),
    re.compile(
        r"(?P<s>.+?)\s*(?:써|쓰자|쓰기로|사용해|사용하자|사용하기로|(?:으로|로)\s*(?:하자|가자|결정|정했))"
    ),
)
_MARKERS = """always never dont don't do not avoid stop using use no longer must should prefer
    instead rather over please from now on remember default stick with switch go chose choose
    decided decide pick we'll will it's anymore
    항상 언제나 무조건 앞으로 늘 절대 쓰지 마 말고 대신 사용 사용해 사용하지 않 않는다 않아
    이제 이제부터 지금부터 다음부터 더 이상 더는
    써 써줘 쓰자 해 해줘 하자 하지 금지 하기로 결정 정했다 로 으로"""
# A Korean request's verb ("넣어줘", "써줘", "해라") is no part of what it is about: the don't
# side's verb ("넣지 마") is left out by its pattern, the do side's here.
_KO_VERB = re.compile(r"^[가-힣]+(?:어줘|아줘|해줘|여줘|줘|어라|아라|해라)$")
_HANGUL = re.compile(r"[가-힣]")
_GENERIC: set[str] = set()  # the markers' tokens, made on first use


@dataclass(frozen=True)
class Stance:
    """What a statement is about (its words, and its key) and whether it says do or don't."""

    subject: tuple[str, ...]
    polarity: int  # +1 do, -1 don't
    instead_of: tuple[str, ...] = ()
    key: str | None = None


@functools.lru_cache(maxsize=4096)  # a scan reads each stored text once per pair it meets
def stance(text: str) -> Stance | None:
    """Return the stance of ``text``, or None when it takes none (see the module docstring).

    >>> stance("bcrypt 대신 argon2로 하자").subject, stance("bcrypt 대신 argon2로 하자").instead_of
    (('argon2',), ('bcrypt',))
    >>> stance("If we never used npm, would it build?") is None
    True
    """
    said = _own_words(text)
    if not said or _QUESTION.search(said) or _HYPOTHETICAL.search(said):
        return None
    for read in (_instead, _dont, _do):
        found = read(said)
        if found is not None:
            return found
    return None


def same_subject(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Tell whether two subjects are one: one holds the other, or they share a core.

    The core is at least :data:`MIN_SHARED` words, and at least :data:`MIN_SHARE` of the
    shorter subject ("add a changelog entry for every change" / "add changelog entries by
    hand").

    >>> same_subject(("pnpm",), ("pnpm", "script")), same_subject(("pnpm",), ("npm",))
    (True, False)
    >>> entry = ("add", "changelog", "entri")
    >>> same_subject((*entry, "everi", "chang"), (*entry, "hand"))
    True
    >>> same_subject(("run", "test", "push"), ("push", "main"))
    False
    >>> same_subject(("request",), ("push", "main", "pull", "request"))  # a passer-by
    False
    """
    left, right = set(a), set(b)
    if not (left and right):
        return False
    if left == right:
        return True
    small, large = (a, b) if len(left) <= len(right) else (b, a)
    if set(small) <= set(large):  # one word alone must be the other's head, not a passer-by
        return len(set(small)) >= MIN_SHARED or small[0] in _heads(large)
    shared = len(left & right)
    return shared >= MIN_SHARED and shared >= MIN_SHARE * min(len(left), len(right))


def _heads(subject: tuple[str, ...]) -> set[str]:
    """Return what a subject is mainly about: its first word, and its last Korean one.

    English names the thing first ("pnpm for scripts"); Korean puts it last before the verb
    ("PR 설명에 스크린샷").
    """
    korean = [word for word in subject if _HANGUL.search(word)]
    return {subject[0], *korean[-1:]}


def other_choice(a: Stance, b: Stance) -> bool:
    """Tell whether two stances choose different things for one purpose, both for it.

    A choice is the first word of the subject, its purpose the rest: "go with Postgres for
    the orders database" and "go with SQLite for the orders database" (the same purpose,
    one within the other: equal, or the smaller of at least two words) disagree; "... for
    the orders cache" is another purpose.

    >>> other_choice(stance("We'll go with Postgres for the orders database"),
    ...              stance("Let's go with SQLite for the orders database instead"))
    True
    >>> other_choice(stance("Use Redis for the orders cache"),
    ...              stance("use Postgres for the orders database"))
    False
    """
    if a.polarity < 0 or b.polarity < 0 or len(a.subject) < 2 or len(b.subject) < 2:  # noqa: PLR2004 - a choice and a purpose
        return False
    if other_keys(a, b):
        return False
    if a.subject[0] == b.subject[0] or a.subject[0] in b.subject or b.subject[0] in a.subject:
        return False
    left, right = set(a.subject[1:]), set(b.subject[1:])
    if left == right:
        return True
    small = min(left, right, key=len)
    return len(small) >= MIN_SHARED and (left <= right or right <= left)


def restates(a: Stance, b: Stance) -> bool:
    """Tell whether ``b`` says what ``a`` says again: the same choice, the same way.

    >>> restates(stance("From now on always use pnpm, never npm"),
    ...          stance("we use pnpm everywhere, never npm"))
    True
    >>> restates(stance("always use pnpm"), stance("use yarn instead of pnpm"))
    False
    >>> restates(stance("Always use moment for dates"), stance("Always use luxon for dates"))
    False
    """
    if a.polarity != b.polarity or not (a.subject and b.subject):
        return False
    if set(a.instead_of) & set(b.subject) or set(b.instead_of) & set(a.subject):
        return False
    left, right = set(a.subject), set(b.subject)
    return a.subject[0] == b.subject[0] or left <= right or right <= left


def other_keys(a: Stance, b: Stance) -> bool:
    """Tell whether two stances are about subjects of two different keys (never one).

    >>> other_keys(stance("use poetry, not pip"), stance("use pnpm, not yarn"))
    True
    """
    return a.key is not None and b.key is not None and a.key != b.key


def opposed(a: Stance, b: Stance) -> bool:
    """Tell whether two stances disagree: one's do is the other's don't, or its instead.

    >>> opposed(stance("always use pnpm"), stance("never use pnpm"))
    True
    >>> opposed(stance("use pnpm instead of npm"), stance("use npm"))
    True
    """
    if other_keys(a, b):
        return False
    if same_subject(a.subject, b.subject) and a.polarity != b.polarity:
        return True
    return _against(a, b) or _against(b, a)


def _against(a: Stance, b: Stance) -> bool:
    """Tell whether ``a`` is for Y instead of X while ``b`` is for X."""
    return bool(a.instead_of) and b.polarity > 0 and same_subject(a.instead_of, b.subject)


def _own_words(text: str) -> str:
    """Return ``text`` without long quotes and code; short ones are names, kept unquoted."""

    def unquote(match: re.Match[str]) -> str:
        inner = next(group for group in match.groups() if group is not None)
        return " " if len(inner.split()) >= MIN_QUOTED_WORDS else inner

    return " ".join(_QUOTED.sub(unquote, text).split()).strip(" .!")


def _instead(said: str) -> Stance | None:
    for pattern in _INSTEAD:
        match = pattern.search(said)
        if match is None:
            continue
        subject, instead = _words(match["y"]), _words(_CLAUSE_END.split(match["x"], 1)[0])
        if subject and instead:
            return _made(subject, 1, instead, match["y"])
    return None


def _dont(said: str) -> Stance | None:
    for pattern in _DONT:
        match = pattern.search(said)
        part = match and next((g for g in match.groups() if g), None)
        if part and _words(part):
            return _made(_words(part), -1, (), part)
    return None


def _do(said: str) -> Stance | None:
    for pattern in _DO:
        match = pattern.search(said)
        if match is not None and _words(match["s"]):
            return _made(_words(match["s"]), 1, (), match["s"])
    return None


def _made(subject: tuple[str, ...], polarity: int, instead: tuple[str, ...], text: str) -> Stance:
    return Stance(subject, polarity, instead, subject_key(text))


def _words(text: str) -> tuple[str, ...]:
    """Return the subject words of a part of a statement: its tokens without the markers."""
    if not _GENERIC:
        _GENERIC.update(tokenize(_MARKERS))
        _GENERIC.update(_MARKERS.split())
    kept = _BECAUSE.sub("", text)
    words = (t for t in tokenize(kept) if not _KO_VERB.match(t))
    return tuple(dict.fromkeys(t for t in words if t not in _GENERIC))
