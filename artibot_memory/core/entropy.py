r"""Bare secrets: machine-made tokens with no name near them, and what only looks like one.

A token pasted into prose ("why does <40 random characters> return 401?") has no key name,
no prefix and no assignment: the rules of :mod:`artibot_memory.core.redact` cannot see it.
What gives it away is its shape, as in detect-secrets' and gitleaks' entropy rules:

* length: at least :data:`MIN_LENGTH` characters of one base64 / base64url / base62 run;
* character classes: upper case, lower case and digits mixed (a token of two classes must
  be longer, :data:`MIN_TWO_CLASS_LENGTH`), pure hex never (see below);
* Shannon entropy per character close to that of random text of the same length and
  alphabet (:func:`expected_entropy`), which English words, identifiers and paths are not;
* class flips: in random base62 two neighbours differ in class about 6 times in 10; in
  ``CamelCaseNames`` and ``snake_case_words`` rarely (:data:`FLIP_RATIO` of the rate that
  random text of the same classes shows).

Kept byte for byte, because they are random but not secret, or not random at all:

* hex of any length (git SHAs and ``git log``, sha256/md5 digests and ``sha256sum``
  output, docker digests, pip ``--hash`` values, GPG fingerprints, memory addresses
  ``0x7ffd…``, build chunk hashes) and UUIDs: hex secrets are caught by their names, or
  by words that hand one over; a SHA named as a commit in a sentence ("the bug came in
  with <sha>", "<sha> is the first bad commit", "<sha> 커밋에서") stays, on a line of its
  own or on a line of a JSON string (a transcript escapes its line breaks as ``\n``);
* a user name before ``@`` (``gitlab+deploy-token-4821@gitlab.com``): only a token random
  by itself goes, no cue lowers the bar;
* checksums in base64: npm ``integrity`` (``sha512-…``), Go sums (``h1:…``), SRI hashes;
* data: URLs (``;base64,…``) and the base64 of images (PNG, JPEG, GIF, WebP magic);
* SSH public keys (``ssh-ed25519 AAAAC3…``) and PEM blocks of public keys and certificates;
* provider object ids (``cus_…``, ``ch_…``, ``msg_01…``, ``toolu_01…``, ``chatcmpl-…``,
  ``req_…``, ``file-…``): ids name objects, they do not open them;
* anything inside a URL's host or path (document ids, commit links), an ARN, a variable
  reference (``$VAR``, ``${{ secrets.X }}``), a placeholder (``YOUR_API_KEY``, ``xxxx``) or
  a marker of ours (``[REDACTED:…]``);
* slugs of short parts (``web-7d9f8b6c5d-x2k4p``, a k8s pod), words and identifiers.

Standard library only, and cheap: one compiled pattern finds the runs of 20+ token
characters (C speed), and only those are weighed in Python.

>>> bare_tokens("why does qTzK9pWmR3bXvLsN7cYdHgF2aE5 return 401?")
[(9, 36)]
>>> bare_tokens("HEAD is now at 3f786850e387550fdab836ed7e6dc881de23001b fix: parser")
[]
>>> bare_tokens("getUserAccountSettingsForCurrentTenant() failed")
[]
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from typing import Any

MIN_LENGTH = 20
MIN_TWO_CLASS_LENGTH = 32
LONG_TWO_CLASS = 40
# A token must reach these shares of what random text of its length and classes shows.
ENTROPY_RATIO = 0.88
FLIP_RATIO = 0.55
WORD_COVER = 0.7  # share of a token covered by words from which it reads as an identifier
# How far before a token its context is read (a URL, "arn:", a PEM header...).
CONTEXT_CHARS = 160
PEM_LOOKBACK = 12_000


class _Lazy:
    """A pattern compiled on first use: a text with no candidate token compiles only _RUN."""

    __slots__ = ("pattern", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self.pattern: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self.pattern is None:
            self.pattern = re.compile(self.source)
        return getattr(self.pattern, name)


_RUN = re.compile(r"[A-Za-z0-9+/_-]{" + str(MIN_LENGTH) + r",}={0,2}")
# Mailgun's private keys are hex, but no digest has their 32-8-8 shape.
_MAILGUN = _Lazy(r"[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}")
# "<time> UserPromptSubmit: stderr: " before a value: a log's labels, not words about it.
_LOG_PREFIX = _Lazy(r"^[ \t]*(?:[\w.:+-]{1,40}[ \t]+)?(?:[\w.-]{1,40}:[ \t]*)+$")
_DISCORD = _Lazy(r"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![\w-])")
_WORDS = _Lazy(r"[A-Z]?[a-z]{2,}")
_DOT_PART = _Lazy(r"\.([A-Za-z0-9_-]{4,})")
_HEX = frozenset("0123456789abcdefABCDEF-")
_UUID = _Lazy(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_NAME_BEFORE = _Lazy(r"([A-Za-z][A-Za-z0-9_.-]{0,40})[\"']?[ \t]*[:=]?[ \t]*[\"'`(]?[ \t]*$")
_DIGEST_AFTER = _Lazy(r" [ *][^\s]|\)|\.\.\.")  # "<md5>  file", "<sha> *file"
CUE_CHARS = 120
_SEPARATORS = "+/_=-"

# fmt: off
# Object ids of providers: a prefix, then a random body. An id names an object; it opens
# nothing (the keys of the same providers have prefixes of their own, caught earlier).
_ID_PREFIXES = (
    # Stripe objects
    "cus_", "ch_", "pi_", "pm_", "py_", "in_", "ii_", "il_", "sub_", "si_", "price_",
    "prod_", "evt_", "txn_", "tr_", "po_", "re_", "cs_test_", "cs_live_", "seti_", "src_",
    "card_", "ba_", "acct_", "tok_", "plink_", "prom_", "promo_", "coupon_", "dp_", "du_",
    "cn_", "ipi_", "pyr_", "sched_", "qt_", "ich_", "req_", "fee_", "iauth_",
    # Anthropic, OpenAI and other API objects
    "msg_", "agent_msg_", "toolu_", "srvtoolu_", "chatcmpl-", "cmpl-", "asst_", "thread_", "run_",
    "step_", "call_", "file-", "file_", "batch_", "resp_", "vs_", "ftjob-", "ft:", "org-",
    "user-", "proj_", "modr-", "embd-", "compl_",
    # Cloud and platform resource ids
    "ami-", "vpc-", "subnet-", "sg-", "vol-", "snap-", "eni-", "igw-", "rtb-", "acl-",
    "i-", "lt-", "nat-", "pcx-", "tgw-", "eipalloc-", "fs-", "dopt-", "pl-",
    # Content addresses (IPFS) and keys that are public by design
    "bafy", "bafk", "bafz", "pk_live_", "pk_test_",
)
# Base64 of binary formats that is data, not a credential.
# PNG, JPEG, GIF, WebP, PDF, XML, zlib (eJ…), gzip (H4sI).
_DATA_MAGIC = (
    "iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "JVBERi0", "PD94bWwg", "eJz", "eJy", "eJw",
    "eJx", "H4sI",
)
_CHECKSUM_PREFIXES = ("sha1-", "sha256-", "sha384-", "sha512-", "md5-")
_CHECKSUM_BEFORE = ("h1:", "sha256:", "sha512:", "sha1:", "md5:", "sha384:", "base64,")
_PUBLIC_PEM = ("PUBLIC KEY", "CERTIFICATE", "CERTIFICATE REQUEST", "PGP PUBLIC KEY", "X509 CRL")
# Words before a hex token that make it a key, and words that make it a digest or an id.
_SECRET_CUES = (
    "key", "token", "secret", "passw", "pw", "pwd", "credential", "creds", "auth", "api", "seed",
    "2fa", "totp", "otp", "mfa",
    "login", "rotat", "pasted", "value", "값", "키", "토큰", "비밀", "비번", "암호", "재발급",
    "발급", "인증",
)
_SECRET_PHRASES = (
    "new one", "current one", "now it's", "it's now", "it is now", "새 값", "새 키", "새로 발급",
)
# Words anywhere on a hex token's line that say where a key came from or goes.
_LINE_CUES = (
    "401", "403", "unauthorized", "forbidden", "rotation", "rotated", "dashboard", "console",
    "portal", " env", "paste", "issued", "generated", "gave me",
    "재발급", "발급", "대시보드", "콘솔", "환경", "붙여", "비밀번호", "비번", "토큰", "암호",
)
_DIGEST_CUES = (
    "sha", "md5", "hash", "digest", "checksum", "commit", "merg", "revert", "cherry",
    "rebas", "head", "tree", "blob", "oid", "object", "etag", "integrity", "fingerprint",
    "image", "layer", "container", "build", "id", "uuid", "request", "trace", "span",
    "session", "git", "signature", "signed", "nonce", "sum", "cache", "version", "gpg",
    "pgp", "keyserver", "recv", "eddsa", "rsa", "dsa", "ecdsa", "ed25519", "fpr", "regress",
    "bisect", "introduc", "landed", "broke", "branch", "tag", "pull", "diff", "blame", "patch",
    "log", "checkout", "reset", "push", "upstream", "compar", "amend", "squash", "stash",
    "parent", "ancestor", "culprit", "onto",
    "커밋", "해시", "아이디", "서명", "브랜치", "리베이스", "체리픽", "리버트", "머지",
)
# What a sentence says right before a commit's name ("the bug came in with <sha>").
_DIGEST_LEADS = (
    "changed in", "changes in", "change in", "changed by", "fixed in", "fixed by", "fix in",
    "came in with", "came with", "landed as", "since", "between", "last good", "first bad",
    "good one was", "checked out", "check out", "checking out",
    "switched to", "switch to", "바뀐 건", "고친 건",
)
# What right after a hex token makes it a commit, whatever else its line says.
_DIGEST_NEXT = ("commit", "is the first bad", "is the last good", "커밋")
# Words after a hex token that make it a commit ("<sha> is the first bad commit",
# "<sha> to see what changed"), read over the next few words of its line.
_DIGEST_FOLLOWERS = (
    "commit", "branch", "merg", "rebas", "revert", "cherry", "diff", "changed", "broke",
    "introduc", "regress", "landed", "bisect", "커밋", "브랜치", "머지", "이후로",
)
_FOLLOWER_WORDS = 6
_CUE_WORDS = _Lazy(r"[a-z0-9']+|[\uac00-\ud7a3]+")
_CUE_BEFORE_UUID = _Lazy(
    r"(?:token|key|secret|password|passwd|credential|api[ _-]?key|토큰|키|비밀번호)[\"'`]?"
    r"[ \t]*(?:[:=]|is|was|는|은|:)[ \t]*[\"'`]?$"
)
_VENDORS = (
    "snyk", "heroku", "launchdarkly", "datadog", "algolia", "twilio", "mailgun", "new relic",
    "newrelic", "sendgrid", "circleci", "pagerduty", "bugsnag", "rollbar", "honeycomb",
    "mapbox", "segment write", "mixpanel", "amplitude", "intercom", "zendesk", "okta",
)
_BENIGN_NAMES = frozenset({
    "id", "ids", "uuid", "guid", "ksuid", "ulid", "oid", "etag", "cursor", "continuation",
    "nextpagetoken", "pagetoken", "page_token", "next_page_token", "nexttoken", "next_token",
    "nextcursor", "next_cursor", "marker", "nextmarker", "checksum", "digest", "hash", "sha",
    "commit", "revision", "rev", "segment", "trace", "span", "request", "job", "run", "build",
    "nonce", "state", "integrity", "fingerprint", "version", "cid",
})
_BENIGN_NAME_ENDINGS = (
    "_id", "_ids", "_uuid", "hash", "digest", "checksum", "etag", "cursor", "pagetoken",
    "page_token", "_sha", "_commit", "_revision",
)
# Result lines of test runners (go test, jest, vitest, mocha, pytest -v): their ids stay.
_TEST_RESULT_PREFIXES = (
    "--- PASS", "--- FAIL", "--- SKIP", "=== RUN", "=== PAUSE", "=== CONT", "PASS ", "FAIL ",
    "ok  ", "ok\t", "\u2713", "\u2714", "\u2715", "\u2716", "\u221a", "\u00d7", "PASSED", "FAILED",
)
_SSH_KEY_BEFORE = _Lazy(
    r"(?:^|[\s=:\"'])(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-ssh-\S+|sk-ecdsa-\S+)[ \t]+$"
)
_SECRET_IN_BASE64 = (b"PRIVATE KEY", b"-----BEGIN", b"password", b"secret", b"token", b"Bearer ")
_PATH_STARTS = ("/", "~/", "./", "../")
_PLACEHOLDER_PARTS = ("YOUR", "EXAMPLE", "REDACTED", "PLACEHOLDER", "XXXX", "xxxx", "CHANGEME")
# fmt: on


def bare_tokens(text: str) -> list[tuple[int, int]]:
    """Return the (start, end) of every bare secret token of ``text``, in order."""
    found: list[tuple[int, int]] = []
    if _HEX.issuperset(text) and len(text) != 32:  # noqa: PLR2004 - a lone md5-length key is one
        return found  # a whole text that is one id or digest (a session id): nothing to weigh
    for match in _RUN.finditer(text):
        start, token = match.start(), match.group()
        if token[0] in "MNO" and text[match.end() : match.end() + 1] == ".":
            discord = _DISCORD.match(text, start)
            if discord is not None:  # a bot token: base64 of an id, a time, an HMAC
                found.append(discord.span())
                continue
        if _kept_in_context(text, start) or _is_kept_token(token.rstrip("=")):
            continue
        for begin, end in _candidates(token, start):
            if begin != start and _kept_in_context(text, begin):
                continue  # a part of a path: what precedes it may say what it is
            if _is_bare_secret(text, begin, end):
                span = _dotted(text, *_trimmed(text, begin, end))
                if not found or span[0] >= found[-1][1]:
                    found.append(span)
    return found


def _candidates(token: str, start: int) -> list[tuple[int, int]]:
    """Return the spans to weigh: the whole run, or the parts of a path (``home/dev/<id>``).

    A run with ``/`` is a path when one of its parts is a lower-case word or hex; random
    base64 (``wJalr…/K7MD…/bPxR…``) has mixed-case parts and is weighed whole.
    """
    if "/" not in token:
        return [(start, start + len(token))]
    parts = token.split("/")
    if not any(len(p) >= 3 and (p.islower() or _HEX.issuperset(p)) for p in parts):  # noqa: PLR2004
        return [(start, start + len(token))]
    spans, position = [], start
    for part in parts:
        if len(part) >= MIN_LENGTH:
            spans.append((position, position + len(part)))
        position += len(part) + 1
    return spans


def _is_bare_secret(text: str, start: int, end: int) -> bool:
    """Tell whether ``text[start:end]`` is a secret: random, or hex or a UUID named so."""
    token = text[start:end].strip("/_-")
    if _named_benign(text, start) or _decodes_to_text(token):
        return False
    if is_random_token(token) or _MAILGUN.fullmatch(token):
        return True
    if text.startswith("@", end):
        return False  # a user name ("gitlab+deploy-token-4821@gitlab.com"): no cue lowers the bar
    if _cued(text, start) and _mixed_enough(token):
        return True  # "I rotated it, it's <token> now": a cue lowers the bar
    if _HEX.issuperset(token) and (len(token) >= 32 or _UUID.fullmatch(token)):  # noqa: PLR2004
        return _hex_is_secret(text, start, end, token)
    return False


def _hex_is_secret(text: str, start: int, end: int, token: str) -> bool:  # noqa: PLR0911
    """Tell whether a hex token or UUID is a key (a cue says so) rather than a digest or id.

    Hex is what git, checksums, GPG and ids print, so it is kept unless a word before it on
    its line (or a vendor's name around it) calls it a key, a token, a password, the new
    value..., and no word on that line calls it a commit, a hash, a digest, a key id. A
    UUID needs the cue right before it (``token: <uuid>``), or a vendor whose keys are
    UUIDs. A lone 32-digit hex line (``cat config/master.key``) is a key: digests of that
    length (md5) are printed with their file name. So is a lone UUID line below other text,
    as a command prints a token (``heroku auth:token``): ids come in records, and a text
    that is only an id (a hook's ``session_id``, a store's value: core/disk.py leaves those
    out of what it checks) is kept whole. A git SHA (40 or 64 digits) alone on its line is
    ``git rev-parse``'s and stays.
    """
    if text[start - 1 : start] == "/":
        return False  # a path's component: a session file, an object in a bucket
    above, line = _split_line(text[max(0, start - CUE_CHARS) : start])
    after = text[end : end + 48]
    words = _CUE_WORDS.findall(line.lower())
    if _names_a_digest(words, line, after):
        return False
    around = (above[-80:] + " " + line + " " + after).lower()
    if any(vendor in around for vendor in _VENDORS):
        return True
    line_after = _first_line(after).lower()
    alone = not _LOG_PREFIX.sub("", line).strip() and not line_after.strip()
    if _UUID.fullmatch(token):
        return (
            (alone and not line.strip())  # "uid: <uuid>" names it
            or bool(_CUE_BEFORE_UUID.search(line.lower()))
            or any(phrase in line.lower() for phrase in _SECRET_PHRASES)
        )
    if any(word.startswith(_SECRET_CUES) for word in words) or any(
        phrase in line.lower() for phrase in _SECRET_PHRASES
    ):
        return True
    if any(cue in line.lower() + " " + line_after for cue in _LINE_CUES):
        return True
    followers = _CUE_WORDS.findall(line_after)[:_FOLLOWER_WORDS]
    if any(word.startswith(_DIGEST_FOLLOWERS) for word in followers):
        return False  # "<sha> is the first bad commit", "<sha> to see what changed"
    if _in_a_sentence(line, line_after):
        return True  # told in prose, and no word says commit or hash: a value being handed over
    return alone and len(token) == 32  # noqa: PLR2004


def _names_a_digest(words: list[str], line: str, after: str) -> bool:
    """Tell whether the words around a hex token call it a commit, a hash, a digest, an id.

    ``words`` and ``line`` are its line before it, ``after`` what follows it.

    >>> _names_a_digest(["the", "bug", "came", "in", "with"], "the bug came in with ", " ok")
    True
    >>> _names_a_digest(["the", "new", "key", "is"], "the new key is ", " ok")
    False
    """
    if any(word.startswith(_DIGEST_CUES) for word in words) or _DIGEST_AFTER.match(after):
        return True
    if line.lower().rstrip(" \t'`\"(").endswith(_DIGEST_LEADS):
        return True  # "the bug came in with <sha>": a commit named in a sentence
    # "<sha> 커밋에서 토큰 검증이 바뀌었어": the commit where the token check changed
    return after.lower().lstrip(" \t'`\")").startswith(_DIGEST_NEXT)


def _split_line(before: str) -> tuple[str, str]:
    r"""Return (the lines above, the line so far) of ``before``.

    A line ends at a line break, or at one escaped in a JSON string (``\n``: a transcript
    line holds a whole ``git log`` that way).

    >>> _split_line("fix: token\\ncommit "), _split_line("a\nb")
    (('fix: token', 'commit '), ('a', 'b'))
    """
    real, escaped = before.rfind("\n"), before.rfind("\\n")
    if escaped > real:
        return before[:escaped], before[escaped + 2 :]
    return before[: max(real, 0)], before[real + 1 :]


def _first_line(after: str) -> str:
    r"""Return ``after`` up to its first line break, real or escaped (``\n``)."""
    return after.split("\n", 1)[0].split("\\n", 1)[0]


def _in_a_sentence(before: str, after: str) -> bool:
    """Tell whether words of prose stand on both sides of a token (not a log's columns)."""
    if any(char in before or char in after for char in '={}()[];"'):
        return False  # code or data, not a sentence
    words_before = _CUE_WORDS.findall(before.lower())
    words_after = _CUE_WORDS.findall(after)
    prose = [w for w in words_before + words_after if w.isalpha() or not w.isascii()]
    return bool(words_before) and bool(words_after) and len(prose) >= 3  # noqa: PLR2004


def _cued(text: str, start: int) -> bool:
    """Tell whether the words before ``start`` on its line say a secret follows."""
    line = _split_line(text[max(0, start - CUE_CHARS) : start])[1].lower()
    words = _CUE_WORDS.findall(line)
    if any(word.startswith(_DIGEST_CUES) for word in words):
        return False
    after = _first_line(text[start : start + CUE_CHARS]).lower()
    return (
        any(word.startswith(_SECRET_CUES) for word in words)
        or any(phrase in line for phrase in _SECRET_PHRASES)
        or any(cue in after for cue in _LINE_CUES)
    )


def _mixed_enough(token: str) -> bool:
    """Tell whether ``token`` mixes upper case, lower case and digits with high entropy."""
    body = token.rstrip("=")
    classes = [any(c.isupper() for c in body), any(c.islower() for c in body)]
    classes.append(any(c.isdigit() for c in body))
    if len(body) < MIN_LENGTH or _is_slug(body) or _HEX.issuperset(body):
        return False
    if not all(classes) and (sum(classes) < 2 or len(body) < 24):  # noqa: PLR2004
        return False  # two classes only for long ones (a base32 TOTP seed)
    return shannon(body) >= 0.8 * expected_entropy(len(body), 64)


def _named_benign(text: str, start: int) -> bool:
    """Tell whether the name just before a token says it is an id, a cursor or a digest.

    ``nextPageToken: "…"``, ``"etag": "…"``, ``segment id 2MAR…``, ``request_id=…``.
    """
    before = text[max(0, start - 48) : start]
    match = _NAME_BEFORE.search(before)
    if match is None:
        return False
    name = match.group(1).replace("-", "_").replace(".", "_")
    folded = name.lower()
    if folded in _BENIGN_NAMES or folded.endswith(_BENIGN_NAME_ENDINGS):
        return True
    return name.endswith(("Id", "ID", "Ids", "IDs")) and len(name) > 2  # noqa: PLR2004 - requestId


def _decodes_to_text(token: str) -> bool:
    """Tell whether ``token`` is base64 of ordinary text (``echo SGVsbG8g… | base64 -d``).

    Keys are random bytes; base64 of a sentence decodes to printable words and spaces.
    """
    import binascii  # noqa: PLC0415 - built in, and only for base64-looking tokens

    body = token.replace("-", "+").replace("_", "/")
    try:
        data = binascii.a2b_base64(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        return False
    printable = sum(1 for byte in data if 32 <= byte < 127 or byte in (9, 10, 13))  # noqa: PLR2004
    if any(word in data for word in _SECRET_IN_BASE64):
        return False  # base64 of a private key or a credential file is the secret itself
    return len(data) >= 12 and b" " in data and printable >= 0.95 * len(data)  # noqa: PLR2004


def _dotted(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a token over the dot-separated parts around it (``M…x.GaBcDe.Zq…``: Discord).

    A part that is one lowercase word (``.js``, ``.com``) is a file's or a host's, kept.
    """
    while True:
        part = _DOT_PART.match(text, end)
        if part is None or (part.group(1).islower() and part.group(1).isalpha()):
            break
        end = part.end()
    while start > 1 and text[start - 1] == ".":
        begin = start - 1
        while begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] in "_-"):
            begin -= 1
        word = text[begin : start - 1]
        if len(word) < 4 or (word.islower() and word.isalpha()):  # noqa: PLR2004
            break
        start = begin
    return start, end


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop separators around a token (a trailing ``-`` or ``/`` is punctuation)."""
    while start < end and text[start] in "/_-":
        start += 1
    while end > start and text[end - 1] in "/_-":
        end -= 1
    return start, end


def is_random_token(token: str) -> bool:  # noqa: PLR0911 - one answer per test
    """Tell whether ``token`` (no spaces) looks machine-made: long, mixed, high entropy.

    >>> is_random_token("qTzK9pWmR3bXvLsN7cYdHgF2"), is_random_token("TestLoginWithValid42")
    (True, False)
    >>> is_random_token("3f786850e387550fdab836ed7e6dc881"), is_random_token("YOUR_API_KEY_1234")
    (False, False)
    """
    body = token.rstrip("=")
    if len(body) < MIN_LENGTH or _HEX.issuperset(body) or _is_kept_token(body):
        return False
    upper = sum(1 for c in body if "A" <= c <= "Z")
    lower = sum(1 for c in body if "a" <= c <= "z")
    digits = sum(1 for c in body if c.isdigit())
    classes = (upper > 0) + (lower > 0) + (digits > 0)
    if classes < 2 or (classes == 2 and digits and len(body) < MIN_TWO_CLASS_LENGTH):  # noqa: PLR2004
        return False  # lower case and digits only: a word with a number, or base32, if short
    if _is_slug(body):
        return False
    alphabet = 10 * (digits > 0) + 26 * (upper > 0) + 26 * (lower > 0) + 2
    if shannon(body) < ENTROPY_RATIO * expected_entropy(len(body), alphabet):
        return False
    shares = [n / alphabet for n in (26 * (upper > 0), 26 * (lower > 0), 10 * (digits > 0))]
    expected_flips = 1 - sum(share * share for share in shares) / sum(shares) ** 2
    if classes == 2 and len(body) >= LONG_TWO_CLASS and shannon(body) >= ENTROPY_RATIO * 4.5:  # noqa: PLR2004
        return True  # long base32 (Azure DevOps PATs): few digits, so few flips
    if flip_rate(body) < FLIP_RATIO * expected_flips:
        return False
    base64_marks = any(c in token for c in "+/") or token.endswith("=")
    return base64_marks or not (upper and lower and _has_words(body))


def _has_words(token: str) -> bool:
    """Tell whether ``token`` is made of words: ``CamelCase``, ``snake_case``, ``ACRONYMS``.

    Words (a capital and two or more lower-case letters, or an acronym before a word) cover
    most letters of an identifier; in random base62 a small share.

    >>> _has_words("GetDownloadUrlForLayer"), _has_words("TestLoginWithValid42")
    (True, True)
    >>> _has_words("qTzK9pWmR3bXvLsN7cYdHgF2")
    False
    """
    letters = sum(1 for char in token if char.isalpha())
    covered = sum(len(word) for word in _WORDS.findall(token))
    return letters > 0 and covered >= WORD_COVER * letters


def shannon(text: str) -> float:
    """Return the Shannon entropy of ``text`` in bits per character.

    >>> round(shannon("aaaa"), 2), round(shannon("abcd"), 2)
    (0.0, 2.0)
    """
    import math  # noqa: PLC0415 - a shared library on some builds: loaded when a token is weighed

    counts: dict[str, int] = {}
    for char in text:
        counts[char] = counts.get(char, 0) + 1
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in counts.values()) + 0.0


def expected_entropy(length: int, alphabet: int) -> float:
    """Return about the entropy of ``length`` random draws from ``alphabet`` symbols.

    The entropy of a short sample falls short of ``log2(alphabet)``: fewer draws than
    symbols can show at most ``length`` of them, and repeats cost the rest (the
    Miller-Madow bias, ``(m - 1) / (2 n ln 2)``). Both sides meet at ``length == alphabet``.

    >>> round(expected_entropy(20, 64), 2), round(expected_entropy(88, 64), 2)
    (4.1, 5.48)
    """
    import math  # noqa: PLC0415 - see shannon

    if length < alphabet:
        return math.log2(length) - length / (2 * alphabet * math.log(2))
    return math.log2(alphabet) - (alphabet - 1) / (2 * length * math.log(2))


def flip_rate(token: str) -> float:
    """Return how often two neighbouring letters or digits differ in class (upper/lower/digit).

    >>> flip_rate("aB3dE5"), round(flip_rate("camelCaseWord"), 2)
    (1.0, 0.33)
    """
    classes = [_class_of(c) for c in token if c.isalnum()]
    if len(classes) < 2:  # noqa: PLR2004
        return 0.0
    flips = sum(1 for i in range(1, len(classes)) if classes[i] != classes[i - 1])
    return flips / (len(classes) - 1)


def _class_of(char: str) -> int:
    if char.isdigit():
        return 0
    return 1 if char.isupper() else 2


def _is_slug(token: str) -> bool:
    """Tell whether ``token`` is short one-case parts joined by ``-`` or ``_`` (a name, a pod).

    Random base64url has dashes too, but its parts mix upper and lower case.

    >>> _is_slug("web-7d9f8b6c5d-x2k4p"), _is_slug("qTzK9-pWmR3bX-vLsN7cYdHgF2aE5")
    (True, False)
    """
    parts = re.split(r"[-_.]", token)
    return len(parts) >= 3 and all(  # noqa: PLR2004 - three parts make a slug
        len(part) <= 12 and not (part.lower() != part and part.upper() != part)  # noqa: PLR2004
        for part in parts
    )


def _is_kept_token(token: str) -> bool:
    """Tell whether a token is an id, a checksum, data or a placeholder by its own shape."""
    if token.startswith(_ID_PREFIXES) or token.startswith(_CHECKSUM_PREFIXES):
        return True
    if token.startswith(_DATA_MAGIC):
        return True
    if token.startswith("0x") and _HEX.issuperset(token[2:]):
        return True
    if token.startswith("Qm") and len(token) == 46:  # noqa: PLR2004 - an IPFS CIDv0
        return True
    return any(part in token for part in _PLACEHOLDER_PARTS)


def _kept_in_context(text: str, start: int) -> bool:
    """Tell whether what precedes ``text[start]`` makes a token an id, a hash, a URL part..."""
    before = text[max(0, start - CONTEXT_CHARS) : start]
    word = before[len(before.rstrip("".join(_WORD_CHARS))) :] if before else ""
    folded = word.lower()
    if before.endswith(("$", "${", "%", "{{", "${{")) or folded.endswith(_CHECKSUM_BEFORE):
        return True
    if "://" in word or word.startswith(("arn:", "www.")) or "arn:" in word:
        return True  # a URL's host or path, an ARN
    if "/nix/store/" in word or "/gnu/store/" in word or word.startswith(_PATH_STARTS):
        return True  # a file's path (a session's transcript, a temp dir), a Nix store path
    line = before[before.rfind("\n") + 1 :]
    if "|1|" in line or line.lstrip().startswith(_TEST_RESULT_PREFIXES):
        return True  # a hashed known_hosts entry; a test id on a test runner's result line
    if _after_ssh_key_type(before):
        return True
    return _inside_public_pem(text, start)


# Characters that stay inside one "word" around a token: a URL, an ARN, a path.
_WORD_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.:~%?&#;,@!*'()[]"
)


def _after_ssh_key_type(before: str) -> bool:
    """Tell whether a token follows an SSH key type (``ssh-ed25519 AAAA…``): a public key."""
    tail = before[-64:]
    return ("ssh-" in tail or "ecdsa-" in tail) and bool(_SSH_KEY_BEFORE.search(tail))


def _inside_public_pem(text: str, start: int) -> bool:
    """Tell whether ``start`` is inside a PEM block of a public key or a certificate."""
    window = text[max(0, start - PEM_LOOKBACK) : start]
    begin = window.rfind("-----BEGIN ")
    if begin < 0 or "-----END " in window[begin:]:
        return False
    label = window[begin + len("-----BEGIN ") : begin + 60]
    return label.startswith(_PUBLIC_PEM)
