"""The Porter (1980) stemmer, for English search tokens (standard library only).

>>> porter_stem("errors"), porter_stem("configuration")
('error', 'configur')
"""

from __future__ import annotations

import functools

# The original algorithm, step by step; rules are (suffix, replacement, minimum measure).

_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ("logi", "log"),
)  # fmt: skip
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
    ("ful", ""), ("ness", ""),
)  # fmt: skip
# Longest first, so "ement" is tried before "ment" and "ent", as in Porter's own program.
_STEP4 = tuple(
    sorted(
        "al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize".split(),
        key=lambda suffix: (-len(suffix), suffix),
    )
)


MAX_WORD_CHARS = 64  # longer than "pneumonoultramicroscopicsilicovolcanoconiosis" (45)


@functools.lru_cache(maxsize=1 << 15)
def porter_stem(word: str) -> str:
    """Porter-stem a lowercase ASCII word; words of one or two letters are returned as is.

    So is a run of letters longer than any English word (:data:`MAX_WORD_CHARS`: a blob, a
    hash pasted into a memory): stemming it means nothing, and Porter's look-back over a
    long run of ``y`` would recurse once per letter.

    >>> [porter_stem(w) for w in ("errors", "configured", "configuration", "caching")]
    ['error', 'configur', 'configur', 'cach']
    >>> porter_stem("y" * 5_000) == "y" * 5_000
    True
    """
    if len(word) <= 2 or len(word) > MAX_WORD_CHARS:  # noqa: PLR2004 - left alone
        return word
    for step in _STEPS:
        word = step(word)
    return word


def _consonant(word: str, i: int) -> bool:
    if word[i] in "aeiou":
        return False
    return word[i] != "y" or i == 0 or not _consonant(word, i - 1)


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant sequences in *stem*."""
    measure, after_vowel = 0, False
    for i in range(len(stem)):
        consonant = _consonant(stem, i)
        measure += consonant and after_vowel
        after_vowel = not consonant
    return measure


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) > 1 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    """Tell whether *word* ends consonant-vowel-consonant, the last not w, x or y (hop, not box)."""
    if len(word) < 3 or word[-1] in "wxy":  # noqa: PLR2004 - three letters: c, v, c
        return False
    n = len(word)
    return _consonant(word, n - 1) and not _consonant(word, n - 2) and _consonant(word, n - 3)


def _step1a(word: str) -> str:
    for suffix, repl in (("sses", "ss"), ("ies", "i"), ("ss", "ss"), ("s", "")):
        if word.endswith(suffix):
            return word[: -len(suffix)] + repl
    return word


def _step1b(word: str) -> str:
    if word.endswith("eed"):
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            return _step1b_tidy(word[: -len(suffix)])
    return word


def _step1b_tidy(stem: str) -> str:
    """After -ed/-ing: hopp → hop, conflat → conflate, fil → file."""
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if _double_consonant(stem) and stem[-1] not in "lsz":
        return stem[:-1]
    if _measure(stem) == 1 and _cvc(stem):
        return stem + "e"
    return stem


def _step1c(word: str) -> str:
    """Turn y into i after a consonant (happy → happi); Porter2's rule: deploy stays deploy."""
    if word.endswith("y") and len(word) > 2 and _consonant(word, len(word) - 2):  # noqa: PLR2004
        return word[:-1] + "i"
    return word


def _replace_suffix(word: str, rules: tuple[tuple[str, str], ...], ends: tuple[str, ...]) -> str:
    """Replace the first suffix that fits if the stem's measure is > 0 (steps 2 and 3)."""
    if not word.endswith(ends):
        return word  # the common case, decided in one C call
    for suffix, repl in rules:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            return stem + repl if _measure(stem) > 0 else word
    return word


def _step4(word: str) -> str:
    if not word.endswith(_STEP4):
        return word
    for suffix in _STEP4:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            if suffix == "ion" and not stem.endswith(("s", "t")):
                return word
            return stem if _measure(stem) > 1 else word
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        m = _measure(word[:-1])
        if m > 1 or (m == 1 and not _cvc(word[:-1])):
            word = word[:-1]
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


_STEPS = (_step1a, _step1b, _step1c,
          functools.partial(_replace_suffix, rules=_STEP2, ends=tuple(s for s, _ in _STEP2)),
          functools.partial(_replace_suffix, rules=_STEP3, ends=tuple(s for s, _ in _STEP3)),
          _step4, _step5)  # fmt: skip
