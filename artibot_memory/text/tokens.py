"""Turning memory text into search tokens (English and Korean) and dedup keys.

Auto-tags live in :mod:`artibot_memory.text.tags`, the stemmer in
:mod:`artibot_memory.text.stemmer`.

Standard library only: the hooks' fast path may import this module.

>>> tokenize("Fixed HTTPServer errors in src/app/main.py")
['fix', 'http', 'server', 'httpserver', 'error', 'src', 'app', 'main', 'py', 'main.py']
>>> tokenize("배포를 pytest를 실행했다")
['배포', 'pytest', '실행']

Choices, and why:

- Identifiers are split (snake_case, kebab-case, camelCase, dotted names, paths) so prose and
  code meet: ``retrieve_memories`` matches "retrieve memories". A camelCase word also keeps its
  whole lowercased form (``GitHub`` gives git, hub and github) because people type brand names
  in lowercase. An acronym is split off only when it has three or more capitals
  (``HTTPServer``), so ``SQLite``, ``IPv6`` and ``OAuth`` stay whole.
- A file name (``main.py``, ``package.json``, ``.env``) is kept whole beside its parts: the exact
  name is a far sharper match than "main" and "py".
- English words go through the Porter (1980) stemmer: errors/error, configured/configuration/
  configure all meet. Tokens are match keys, not display text ("memories" becomes "memori").
- Korean: particles (josa) and the endings of 하다/되다 verbs and the copula are stripped, longest
  first, so 배포를, 배포가, 배포에서, 배포했다 all give 배포. One-syllable suffixes that also end
  common nouns (이, 가, 도, 의, 로: 추가, 경로, 회의) are stripped only when two syllables remain.
  Auxiliary verbs and question endings that carry no topic (돼, 해, 했지, 뭐야) are stopwords,
  and the endings of a conjugated verb (돌리고, 올리려면) are stripped from words of three
  syllables or more. Character bigrams were not used: they multiply tokens and blur the
  "nothing relevant" threshold. Compounds written without a space (배포스크립트) are split
  for search by :func:`search_tokens`.
- Numbers are tokens; single Latin letters and a small stopword list are dropped.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata

from artibot_memory.text.stemmer import porter_stem

TYPE_CHECKING = False  # typing costs an import on every read
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = [
    "EDGE_PUNCTUATION",
    "KEY_WEIGHT",
    "STOPWORDS_EN",
    "TAG_WEIGHT",
    "file_name",
    "memory_tokens",
    "normalize_text",
    "search_tokens",
    "tokenize",
    "words",
]

TAG_WEIGHT = 2  # a tag is a curated word: it counts as twice the same word in the text
# A key's words count once, as the text's do: 1, 2 and 3 rank the agent set alike, 0 loses
# 0.012 recall@5 (docs/RANKING.md); tags at 1 lose 0.012, at 3 lose 0.010 nDCG.
KEY_WEIGHT = 1


def words(text: str) -> frozenset[str]:
    """Read a word list written as one string (the long tables below)."""
    return frozenset(text.split())


STOPWORDS_EN = words(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each etc
    few for from further had has have having he her here hers herself him himself his how i if
    in into is it its itself just let me more most my myself no nor not now of off on once only
    or other ought our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    yourself yourselves dont doesnt didnt isnt arent wasnt werent cant couldnt wouldnt shouldnt
    wont im ive id ill youre youve weve theyre hes shes thats theres whats lets eg ie via
    may might must shall us get gets got getting gotten use uses used using tell tells told know
    knows knew known happen happens happened happening many much thing things something
    anything everything someone anyone way ways want wants wanted please really actually maybe
    perhaps sure likely yes yeah ok okay oh hey hi hello thanks thank even ever yet still"""
)
_STOPWORDS_KO = words(
    """것 수 등 및 그 이 저 그리고 하지만 그러나 또는 또 그런데 그래서 어떻게 무엇 뭐 뭘 왜 언제
    어디 어디서 누구 누가 어느 어떤 무슨 이것 그것 저것 여기 거기 저기 우리 저희 나 너 제 내 제가
    내가 좀 잘 더 다 안 못 너무 정말 진짜 있다 있어 있어요 있습니다 있는 있고 없다 없어 없는
    없습니다 하다 했다 한다 합니다 해요 되다 됐다 이다 입니다 아니다 같다 같은 위해 위한 통해
    대해 대한 때 경우 중 후 전 다시 이번 지금 방법
    돼 돼요 됐어 됐지 될 될까 해 해요 해도 했어 했지 했나 했더라 할 할까 하나 하지 말 몇 꼭 뭘
    무엇을 뭐야 뭐지 뭐였지 뭐였어 어떡해 거 건 게 걸 있나 있지 있을까 없나 되나 되지 돼야
    뭘로 뭐로 무엇으로 이유 써 써도 써야 쓰는 쓰기 쓰고 쓸 썼어 썼지 썼나 알려줘 알려주세요 알려
    나와 나와요 나오는 나오면 나온 나오고 한 된"""
)
# Endings of a verb or adjective that are also the last syllable of many nouns (최고, 표면,
# 의지): stripped only from a word of three syllables or more (돌리고, 올리려면, 바꾸려고).
_KO_VERB_ENDINGS = words("고 면 려면 으려면 려고 으려고 지만 는데 니까 어서 아서 어야 아야 야")
# Korean suffixes, stripped longest first. A one-syllable suffix in _KO_WEAK also ends common
# nouns (추가, 경로, 회의, 제한, 역할), so it needs two syllables left in front of it.
_KO_SUFFIXES = words(
    """은 는 이 가 을 를 의 에 도 만 로 와 과 나 랑 요 께 에서 에게 한테 으로 까지 부터 마다
        보다 처럼 하고 이랑 이나 에는 에도 에서는 에서도 에서의 으로는 으로도 로는 로도 에게는
        까지는 부터는 와는 과는 만을 만이 이라도 이라고 라고 이라는 라는 이다 입니다 이었다 였다
        이에요 예요 이고 이며 했습니다 했었다 했어요 했는데 했지만 했으며 했다가 했다 했어 했고
        했던 했을 했음 했지 했나 했니 했냐 했더라 했었지 했었어 됐지 됐나 할까
        합니다 합시다 한다 하다 하고 하는 하면 하여 하며 하기 하지 하게 하려면
        하려고 해서 해야 해요 해줘 해주세요 해라 됩니다 되었다 되었습니다 되었고 됐다 됐어
        됐습니다 된다 되다 되는 되면 되어 되지 되고 돼서 돼요 시켜 시키다 시켰다 한 할 해 된 될
        돼 함 됨"""
)
_KO_LONGEST_SUFFIX = max(map(len, _KO_SUFFIXES))
_KO_WEAK = words("이 가 도 의 로 와 과 나 만 랑 요 께 한 할 해 된 될 돼 함 됨")
_HANGUL = re.compile(r"[\uac00-\ud7a3]+")
_SCRIPT_RUN = re.compile(r"[\uac00-\ud7a3]+|[^\W_\uac00-\ud7a3]+")
_APOSTROPHE_S = re.compile(r"['\u2019]s\b", re.IGNORECASE)
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z]{2})(?=[A-Z])|(?<=[A-Z]{3})(?=[A-Z][a-z])")
_FILE_EXTENSIONS = words(
    """py pyi pyx ipynb js mjs cjs jsx ts tsx mts vue svelte json jsonl toml yaml yml ini cfg
    conf env lock md rst txt csv tsv log html htm css scss sass less xml sql sh bash zsh fish
    ps1 bat go rs java kt kts scala swift c h cc cpp cxx hpp m mm cs rb php pl lua r dart ex
    exs erl hs ml clj gradle tf tfvars proto graphql gql mk cmake db sqlite pem crt png jpg jpeg
    gif svg pdf zip gz tgz whl"""
)
_FILE_NAME = re.compile(r"(?:\.?[\w-]+(?:\.[\w-]+)*\.([A-Za-z0-9]+)|\.[A-Za-z][\w-]*(?:\.[\w-]+)*)")
EDGE_PUNCTUATION = "\"'`()[]{}<>,;:!?*"
_NON_WORD = re.compile(r"[\W_]+")
_LINE_NUMBER = re.compile(r"(?::\d+)+$")  # app.py:12:5 in a traceback or compiler message


def tokenize(text: str) -> list[str]:
    """Split *text* into lowercase match tokens, in order, repeats kept (they count as tf).

    >>> tokenize("retrieve_memories() and os.path.join")
    ['retriev', 'memori', 'os', 'path', 'join']
    >>> tokenize("메모리를 설정했다")
    ['메모리', '설정']
    """
    return list(itertools.chain.from_iterable(map(_chunk_tokens, _nfkc(text).split())))


def _nfkc(text: str) -> str:
    """Return ``text`` in NFKC (ASCII already is: most memory text skips the call)."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def normalize_text(text: str) -> str:
    """Return the form two texts share when they say the same thing (for deduplication).

    >>> normalize_text("  Use   PNPM here!! ")
    'use pnpm here'
    """
    folded = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return folded.rstrip(".!?,;:。… ")


@functools.lru_cache(maxsize=1 << 16)
def _chunk_tokens(chunk: str) -> tuple[str, ...]:
    """Tokens of one whitespace-free chunk, plus its file name when it names a file.

    Cached: words repeat (Zipf), and this turns tokenising a large store from stemming every
    word into mostly dictionary look-ups.
    """
    joined = _APOSTROPHE_S.sub("", chunk).replace("'", "").replace("\u2019", "")
    tokens = [token for word in _NON_WORD.split(joined) for token in _word_tokens_cached(word)]
    name = file_name(chunk)
    return (*tokens, name) if name else tuple(tokens)


@functools.lru_cache(maxsize=1 << 15)
def _word_tokens_cached(word: str) -> tuple[str, ...]:
    """Return :func:`_word_tokens` of one word, cached.

    A chunk seen for the first time (``midnight.``, ``(port``) is mostly words seen before.
    """
    return tuple(_word_tokens(word))


def _word_tokens(word: str) -> Iterator[str]:
    """Split a run of letters and digits by script, then by case, and normalise each part."""
    after_latin = False
    for run in _SCRIPT_RUN.findall(word):
        if _HANGUL.fullmatch(run):
            stem = _strip_korean(run, min_stem=0 if after_latin else 1)
            if stem and stem not in _STOPWORDS_KO:
                yield stem
        else:
            yield from _latin_tokens(run)
        after_latin = not _HANGUL.fullmatch(run)


def _latin_tokens(run: str) -> Iterator[str]:
    """Case-split a non-Hangul run; a camelCase word also yields its whole lowercased form."""
    parts = _CAMEL_BOUNDARY.sub(" ", run).split()
    for part in parts:
        token = _english_token(part.casefold())
        if token:
            yield token
    if len(parts) > 1:
        yield run.casefold()


def _english_token(word: str) -> str:
    """Drop stopwords and single letters, stem ASCII words; numbers pass through."""
    if word in STOPWORDS_EN or (len(word) == 1 and not word.isdigit()):
        return ""
    if word.isascii() and word.isalpha():
        return porter_stem(word)
    return word


def _strip_korean(word: str, min_stem: int) -> str:
    """Strip up to two particles/endings from a Hangul word (배포에서는 → 배포)."""
    if word in _STOPWORDS_KO:
        return word
    for _ in range(2):
        size = next(
            (n for n in range(_KO_LONGEST_SUFFIX, 0, -1) if _may_strip(word, n, min_stem)), 0
        )
        if not size:
            break
        word = word[:-size]
    ending = next((n for n in (3, 2, 1) if word[-n:] in _KO_VERB_ENDINGS), 0)
    if ending and len(word) - ending >= 2:  # noqa: PLR2004 - two syllables of stem left
        word = word[:-ending]
    return word


def _may_strip(word: str, size: int, min_stem: int) -> bool:
    """Whether the last *size* syllables are a suffix that leaves enough stem in front."""
    suffix = word[-size:]
    keep = max(min_stem, 2) if suffix in _KO_WEAK and min_stem else min_stem
    return suffix in _KO_SUFFIXES and len(word) - size >= keep


def file_name(chunk: str) -> str:
    """Return the lowercased file name a chunk ends with, or "" (``(src/Main.py,`` → main.py).

    >>> file_name("src/app/Main.py,"), file_name(".env"), file_name("os.path.join")
    ('main.py', '.env', '')
    """
    if "." not in chunk:
        return ""
    path = _LINE_NUMBER.sub("", chunk.strip(EDGE_PUNCTUATION)).rstrip(".").replace("\\", "/")
    base = path.rsplit("/", 1)[-1]
    match = _FILE_NAME.fullmatch(base)
    if not match or (match.group(1) and match.group(1).lower() not in _FILE_EXTENSIONS):
        return ""
    return base.casefold()


def memory_tokens(text: str, key: str | None, tags: Iterable[str]) -> list[str]:
    """Return the words a memory is found by: its text, its key and its tags, tags twice.

    >>> memory_tokens("Use pnpm", "package-manager", ["js"])
    ['pnpm', 'packag', 'manag', 'js', 'js']
    """
    tag_words = search_tokens(" ".join(tags))
    return search_tokens(text) + search_tokens(key or "") * KEY_WEIGHT + tag_words * TAG_WEIGHT


def search_tokens(text: str) -> list[str]:
    """Return :func:`tokenize`'s tokens, each Korean compound followed by its two halves.

    Korean writes compounds with or without a space (배포스크립트, 배포 스크립트), and
    without a dictionary the halves are not known; most are two-syllable nouns, so a Hangul
    word of four syllables or more also yields its split after the first two syllables and
    before the last two. Memories and queries are split alike, so either spelling finds the
    other; a wrong split (스크 + 립트) only ever meets the same wrong split.

    >>> search_tokens("배포스크립트 실행")
    ['배포스크립트', '배포', '스크립트', '배포스크', '립트', '실행']
    >>> search_tokens("환경변수")
    ['환경변수', '환경', '변수']
    """
    return list(itertools.chain.from_iterable(map(_chunk_search_tokens, _nfkc(text).split())))


@functools.lru_cache(maxsize=1 << 16)
def _chunk_search_tokens(chunk: str) -> tuple[str, ...]:
    """:func:`search_tokens` of one whitespace-free chunk (cached, as its tokens are)."""
    tokens = _chunk_tokens(chunk)
    if chunk.isascii():
        return tokens  # no Hangul compound to split
    found: list[str] = []
    for token in tokens:
        found.append(token)
        if len(token) >= 4 and _HANGUL.fullmatch(token):  # noqa: PLR2004 - two syllables a half
            found.extend(dict.fromkeys((token[:2], token[2:], token[:-2], token[-2:])))
    return tuple(found)
