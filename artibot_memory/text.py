"""Turning memory text into search tokens (English and Korean), dedup keys and auto-tags.

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
  Character bigrams were not used: they multiply tokens and blur the "nothing relevant"
  threshold; the cost is that a compound written without spaces (배포환경) does not match its
  parts.
- Numbers are tokens; single Latin letters and a small stopword list are dropped.
"""

from __future__ import annotations

import errno
import functools
import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["auto_tags", "normalize_text", "porter_stem", "tokenize"]


def _words(text: str) -> frozenset[str]:
    """Read a word list written as one string (the long tables below)."""
    return frozenset(text.split())


_STOPWORDS_EN = _words(
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
_STOPWORDS_KO = _words(
    """것 수 등 및 그 이 저 그리고 하지만 그러나 또는 또 그런데 그래서 어떻게 무엇 뭐 뭘 왜 언제
    어디 어디서 누구 누가 어느 어떤 무슨 이것 그것 저것 여기 거기 저기 우리 저희 나 너 제 내 제가
    내가 좀 잘 더 다 안 못 너무 정말 진짜 있다 있어 있어요 있습니다 있는 있고 없다 없어 없는
    없습니다 하다 했다 한다 합니다 해요 되다 됐다 이다 입니다 아니다 같다 같은 위해 위한 통해
    대해 대한 때 경우 중 후 전 다시 이번 지금 방법"""
)
# Korean suffixes, stripped longest first. A one-syllable suffix in _KO_WEAK also ends common
# nouns (추가, 경로, 회의, 제한, 역할), so it needs two syllables left in front of it.
_KO_SUFFIXES = sorted(
    _words(
        """은 는 이 가 을 를 의 에 도 만 로 와 과 나 랑 요 께 에서 에게 한테 으로 까지 부터 마다
        보다 처럼 하고 이랑 이나 에는 에도 에서는 에서도 에서의 으로는 으로도 로는 로도 에게는
        까지는 부터는 와는 과는 만을 만이 이라도 이라고 라고 이라는 라는 이다 입니다 이었다 였다
        이에요 예요 이고 이며 했습니다 했었다 했어요 했는데 했지만 했으며 했다가 했다 했어 했고
        했던 했을 했음 합니다 합시다 한다 하다 하고 하는 하면 하여 하며 하기 하지 하게 하려면
        하려고 해서 해야 해요 해줘 해주세요 해라 됩니다 되었다 되었습니다 되었고 됐다 됐어
        됐습니다 된다 되다 되는 되면 되어 되지 되고 돼서 돼요 시켜 시키다 시켰다 한 할 해 된 될
        돼 함 됨"""
    ),
    key=lambda suffix: (-len(suffix), suffix),
)
_KO_WEAK = _words("이 가 도 의 로 와 과 나 만 랑 요 께 한 할 해 된 될 돼 함 됨")
_HANGUL = re.compile(r"[\uac00-\ud7a3]+")
_SCRIPT_RUN = re.compile(r"[\uac00-\ud7a3]+|[^\W_\uac00-\ud7a3]+")
_APOSTROPHE_S = re.compile(r"['\u2019]s\b", re.IGNORECASE)
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z]{2})(?=[A-Z])|(?<=[A-Z]{3})(?=[A-Z][a-z])")
_FILE_EXTENSIONS = _words(
    """py pyi pyx ipynb js mjs cjs jsx ts tsx mts vue svelte json jsonl toml yaml yml ini cfg
    conf env lock md rst txt csv tsv log html htm css scss sass less xml sql sh bash zsh fish
    ps1 bat go rs java kt kts scala swift c h cc cpp cxx hpp m mm cs rb php pl lua r dart ex
    exs erl hs ml clj gradle tf tfvars proto graphql gql mk cmake db sqlite pem crt png jpg jpeg
    gif svg pdf zip gz tgz whl"""
)
_FILE_NAME = re.compile(r"(?:\.?[\w-]+(?:\.[\w-]+)*\.([A-Za-z0-9]+)|\.[A-Za-z][\w-]*(?:\.[\w-]+)*)")
_EDGE_PUNCTUATION = "\"'`()[]{}<>,;:!?*"
_LINE_NUMBER = re.compile(r"(?::\d+)+$")  # app.py:12:5 in a traceback or compiler message


def tokenize(text: str) -> list[str]:
    """Split *text* into lowercase match tokens, in order, repeats kept (they count as tf).

    >>> tokenize("retrieve_memories() and os.path.join")
    ['retriev', 'memori', 'os', 'path', 'join']
    >>> tokenize("메모리를 설정했다")
    ['메모리', '설정']
    """
    tokens: list[str] = []
    for chunk in unicodedata.normalize("NFKC", text).split():
        tokens.extend(_chunk_tokens(chunk))
    return tokens


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
    tokens = [token for word in re.split(r"[\W_]+", joined) for token in _word_tokens(word)]
    name = _file_name(chunk)
    return (*tokens, name) if name else tuple(tokens)


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
    if word in _STOPWORDS_EN or (len(word) == 1 and not word.isdigit()):
        return ""
    if word.isascii() and word.isalpha():
        return porter_stem(word)
    return word


def _strip_korean(word: str, min_stem: int) -> str:
    """Strip up to two particles/endings from a Hangul word (배포에서는 → 배포)."""
    if word in _STOPWORDS_KO:
        return word
    for _ in range(2):
        suffix = next((s for s in _KO_SUFFIXES if _may_strip(word, s, min_stem)), "")
        if not suffix:
            break
        word = word[: -len(suffix)]
    return word


def _may_strip(word: str, suffix: str, min_stem: int) -> bool:
    keep = max(min_stem, 2) if suffix in _KO_WEAK and min_stem else min_stem
    return word.endswith(suffix) and len(word) - len(suffix) >= keep


def _file_name(chunk: str) -> str:
    """Return the lowercased file name a chunk ends with, or "" (``(src/Main.py,`` → main.py).

    >>> _file_name("src/app/Main.py,"), _file_name(".env"), _file_name("os.path.join")
    ('main.py', '.env', '')
    """
    path = _LINE_NUMBER.sub("", chunk.strip(_EDGE_PUNCTUATION)).rstrip(".").replace("\\", "/")
    base = path.rsplit("/", 1)[-1]
    match = _FILE_NAME.fullmatch(base)
    if not match or (match.group(1) and match.group(1).lower() not in _FILE_EXTENSIONS):
        return ""
    return base.casefold()


# --- auto-tags ---------------------------------------------------------------------------------

_PROGRAMS = _words(
    """git npm pnpm yarn npx pip pip3 pipx pytest docker podman kubectl helm cargo rustc rustup uv
    uvx poetry hatch ruff mypy eslint prettier tsc jest vitest terraform gcloud aws az brew apt
    apt-get curl wget ssh scp rsync gh conda tox nox pre-commit webpack vite deno gradle mvn dotnet
    cmake psql mysql sqlite3 redis-cli jq ffmpeg minikube ansible uvicorn gunicorn alembic prisma
    isort flake8 pylint black python python3 node bun go make java ruby php perl bash zsh sh
    claude"""
)
# Programs whose name is also an everyday word: tagged only where a command is certain.
_WORDLIKE_PROGRAMS = _words("go make black bun node claude java ruby sh az")
_SUBCOMMAND_PROGRAMS = _words("""git npm pnpm yarn npx docker podman kubectl helm cargo go uv
    poetry gh terraform brew apt apt-get conda pip pip3 pipx dotnet bun deno hatch""")
_SPECIAL_FILES = _words("""Dockerfile Containerfile Makefile Procfile Gemfile Rakefile
    Jenkinsfile Vagrantfile Pipfile Justfile Brewfile CODEOWNERS""")
_ERRNO_NAMES = frozenset(errno.errorcode.values())
_ERROR_WORD = re.compile(
    r"\b(?:[A-Za-z_]\w*(?:Error|Exception|Warning)|ERR_[A-Z0-9_]+|[A-Z]{1,2}\d{3,5}|E[A-Z]{2,}"
    r"|KeyboardInterrupt|StopIteration|SystemExit|GeneratorExit)\b"
)
_CODE_SPAN = re.compile(r"`([^`\n]+)`|^\s*\$\s+(.+)$", re.MULTILINE)
_SEGMENT_SPLIT = re.compile(r"&&|\|\||[;|]")
_COMMAND_WORD = re.compile(r"[a-z][a-z0-9._+-]*")
_SNAKE = re.compile(r"(?<![\w./])_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*(?!\.?\w)", re.ASCII)
_CAMEL = re.compile(r"\b(?:[a-z]+[A-Z]|[A-Z][a-z0-9]+[A-Z])[A-Za-z0-9]*\b", re.ASCII)
_DOTTED = re.compile(r"(?<![\w./:@-])[A-Za-z_]\w+(?:\.[A-Za-z_]\w*)+", re.ASCII)


def auto_tags(text: str, limit: int = 12) -> list[str]:
    """Tags worth saving with *text*: error names, commands, file names, then identifiers.

    Lowercase, unique, in that order of kinds (so *limit* keeps the sharpest), each kind in
    order of appearance. A subcommand pair is one tag with a space ("git commit").

    >>> auto_tags("`git commit -m x` failed: ModuleNotFoundError in src/app/main.py")
    ['modulenotfounderror', 'git', 'git commit', 'main.py']
    >>> auto_tags("memory.metadata.get returned [] in retrieve_memories (BaseStorage)")
    ['memory.metadata.get', 'retrieve_memories', 'basestorage']
    """
    found = [*_error_names(text), *_command_names(text), *_file_names(text), *_identifiers(text)]
    return list(dict.fromkeys(tag.casefold() for tag in found if tag))[: max(limit, 0)]


def _error_names(text: str) -> Iterator[str]:
    for name in _ERROR_WORD.findall(text):
        if not re.fullmatch(r"E[A-Z]{2,}", name) or name in _ERRNO_NAMES:
            yield name


def _command_names(text: str) -> Iterator[str]:
    """Programs (and subcommand pairs) where a command is certain; known programs in prose."""
    spans = [a or b for a, b in _CODE_SPAN.findall(text)]
    first = text.split(maxsplit=1)[:1]
    if first and first[0] in _PROGRAMS:
        spans.insert(0, text.splitlines()[0])
    for span in spans:
        for segment in _SEGMENT_SPLIT.split(span):
            yield from _segment_commands(segment.split())
    for word in re.findall(r"[A-Za-z][A-Za-z0-9.+-]*[A-Za-z0-9+]", text):
        if word.lower() in _PROGRAMS - _WORDLIKE_PROGRAMS:
            yield word


def _segment_commands(words: list[str]) -> Iterator[str]:
    """``sudo FOO=1 python -m pytest -q`` → python, pytest; ``git commit -m`` → git commit."""
    while words and ("=" in words[0] or words[0] == "sudo"):
        words = words[1:]
    if not words:
        return
    program = words[0].rsplit("/", 1)[-1].lower()
    if not _COMMAND_WORD.fullmatch(program) or (len(words) == 1 and program not in _PROGRAMS):
        return
    yield program
    rest = words[1:3]
    if program.startswith("python") and rest[:1] == ["-m"] and len(rest) > 1:
        yield rest[1]
    elif program in _SUBCOMMAND_PROGRAMS and rest and _is_subcommand(rest[0]):
        yield f"{program} {rest[0]}"


def _is_subcommand(word: str) -> bool:
    return re.fullmatch(r"[a-z][a-z0-9-]*", word) is not None and word not in _STOPWORDS_EN


def _file_names(text: str) -> Iterator[str]:
    for chunk in text.split():
        base = chunk.strip(_EDGE_PUNCTUATION).rsplit("/", 1)[-1]
        yield _file_name(chunk) or (base if base in _SPECIAL_FILES else "")


def _identifiers(text: str) -> Iterator[str]:
    """snake_case, camelCase/PascalCase and dotted names, in order of appearance."""
    matches = [*_SNAKE.finditer(text), *_CAMEL.finditer(text), *_DOTTED.finditer(text)]
    for match in sorted(matches, key=lambda m: m.start()):
        name = match.group()
        if "." not in name or not _file_name(name):
            yield name


# --- Porter (1980) stemmer -------------------------------------------------------------------
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
_STEP4 = sorted(
    _words("al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize"),
    key=lambda suffix: (-len(suffix), suffix),
)


@functools.lru_cache(maxsize=1 << 15)
def porter_stem(word: str) -> str:
    """Porter-stem a lowercase ASCII word; words of one or two letters are returned as is.

    >>> [porter_stem(w) for w in ("errors", "configured", "configuration", "caching")]
    ['error', 'configur', 'configur', 'cach']
    """
    if len(word) <= 2:  # noqa: PLR2004 - the algorithm leaves these alone
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
    shape = "".join("c" if _consonant(stem, i) else "v" for i in range(len(stem)))
    return re.sub(r"(.)\1+", r"\1", shape).count("vc")


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


def _replace_suffix(word: str, rules: tuple[tuple[str, str], ...]) -> str:
    """Replace the first suffix that fits if the stem's measure is > 0 (steps 2 and 3)."""
    for suffix, repl in rules:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            return stem + repl if _measure(stem) > 0 else word
    return word


def _step4(word: str) -> str:
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


_STEPS = (_step1a, _step1b, _step1c, functools.partial(_replace_suffix, rules=_STEP2),
          functools.partial(_replace_suffix, rules=_STEP3), _step4, _step5)  # fmt: skip
