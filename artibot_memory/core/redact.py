"""Secret redaction: every secret is replaced by a typed marker before anything is written.

>>> redact("export GITHUB_TOKEN=hunter2hunter2 && mysql -u root -pHunter2")
'export GITHUB_TOKEN=[REDACTED:env-secret] && mysql -u root -p[REDACTED:password]'
>>> redact("git clone https://bob:s3cr3t@example.com/x.git")
'git clone https://bob:[REDACTED:url-password]@example.com/x.git'

Public API: :func:`redact` (one string), :func:`redact_value` (hook payloads: dicts,
lists, tuples and strings, walked recursively) and :data:`SECRET_KINDS`.

Where the formats come from. The token shapes (prefixes, alphabets, lengths) follow the
published rule sets of gitleaks (``config/gitleaks.toml``: aws-access-token, github-pat,
github-fine-grained-pat, github-oauth, github-app-token, github-refresh-token, gitlab-*,
slack-*, stripe-access-token, openai-api-key, anthropic-api-key, gcp-api-key,
sendgrid-api-token, mailgun-*, npm-access-token, pypi-upload-token, huggingface-*, jwt,
private-key, curl-auth-user, curl-auth-header, digitalocean-*, shopify-*, vault-*,
databricks, age, telegram, linear, square, sentry, postman, grafana, new-relic, rubygems,
pulumi, doppler, planetscale, perplexity, heroku, and the generic-api-key rule with its
allowlists) and Yelp's detect-secrets plugins (aws, azure_storage_key, basic_auth,
keyword, private_key, twilio, slack, jwt, openai, sendgrid, npm, gitlab_token). They are
re-expressed here, not copied: this module rewrites text instead of reporting findings,
so it needs its own boundaries, linear-time matching and a typed marker per kind.

How it runs. The hook that runs after every tool call imports this module under a bare
``python3``, so it uses the standard library only (``re``, which the hook already pays
for through ``json``). Every rule has literal anchors (``ghp_``, ``://``, ``password``...)
found with ``str.find``; a rule's pattern is compiled on first use and only matched where
an anchor says a secret may start, so a text without anchors costs a few substring
searches and no compilation. Every open-ended part of a pattern is bounded, so the work
stays linear in the input (1 MB of adversarial text finishes).

Judgement calls (what is kept, what is redacted):

* Kept: placeholders and references, i.e. ``$VAR``, ``${VAR}``, ``$(cmd)``, ``%VAR%``,
  ``{{ x }}``, ``<token>``, ``{token}``, runs of one character (``xxxx``, ``****``),
  values starting with ``your`` or ending in ``here``, values containing ``example``,
  ``placeholder`` or ``dummy``, names used as values (``'secret_key'``), and the
  well-known dummies ``changeme``, ``changeit``, ``password``, ``secret``, ``token``,
  ``test``, ``none``, ``null``, ``true``... (``changeme`` is a published default, not a
  secret). Token shapes containing the literal ``EXAMPLE`` (AWS documentation keys) too.
* Kept: code whose value is not a literal: ``password = getpass()``,
  ``token = os.environ["TOKEN"]``, ``api_key = settings.API_KEY`` (a call, a subscript,
  a dotted name), ``password = user_password`` (a snake_case identifier), a name that
  itself looks secret (``password=DEFAULT_PASSWORD``), type annotations (``token: str``),
  comparisons with a variable (``if token == expected``), chained assignments and
  docstring fields (``:param password: ...``). A bare word is still redacted
  (``password = hunter2``): an ini file and a Python file look the same.
* Names: ``KEY``, ``SECRET``, ``TOKEN``, ``PASSWORD``, ``PASSWD``, ``PWD``,
  ``CREDENTIAL(S)``, ``AUTH`` count as word parts (split on ``_ - .`` and camelCase):
  ``API_KEY``, ``apiKey``, ``SECRET_KEY``, ``PGPASSWORD`` are secret; ``KEYBOARD``,
  ``MONKEY``, ``TOKENIZER``, ``max_tokens``, ``KEYS_DIR``, ``primary_key``,
  ``next_page_token``, ``public_key`` are not. A name ending in a descriptive part
  (``_FILE``, ``_PATH``, ``_DIR``, ``_URL``, ``_ID``, ``_NAME``, ``_TYPE``, ``-stdin``...)
  names something about the secret, not the secret: ``--password-file PATH`` and
  ``--password-stdin`` are kept.
* How literal a value must be depends on the name. Password and secret names: any
  literal. Names that only say key or token (``"limit_key": "max_results"``,
  ``"input_token": "NextToken"`` are dictionary keys): a generated-looking value (letters
  and digits, or random). A bare ``key`` / ``auth`` (``{"Key": "Name"}`` in AWS tags): a
  random value of 16+ characters.
* ``PWD=/home/me`` (the shell variable) is kept because path values are kept.
* Flags: ``--password`` with a separate value is redacted even for mysql, where
  ``--password mydb`` means "prompt" and ``mydb`` is a database: over-redacting a
  database name is the cheap error. ``-p`` is only a password for mysql-like clients
  (attached, ``-pHunter2``), ``sshpass``, ``mongo*`` and the ``login`` verb of container
  tools; ``docker run -p 80:80`` is kept. ``--key`` alone needs a random value.
* Prose: "my password is hunter2", "my password is swordfish", "비밀번호는 hunter2" are
  redacted; a common word after the verb ("the token is expired", "the password is
  incorrect", "the token was suppressed") is kept; after "token is" / "API key is" the
  value must look generated (lexers talk about tokens a lot).
* A value told beside a secret's name, in either order, English or Korean ("use <value>
  as REDIS_PASSWORD", "set DB_PASSWORD to <value>", "ADMIN_PASSWORD is <value>",
  "<value>를 DB_PASSWORD로", "DB_PASSWORD로 <value> 써"), is redacted whatever punctuation
  it holds (``Copper.Maple42``, ``tiger/Lunar#4821``, a quoted passphrase with blanks).
  A reference is kept: ``settings.DB_PASSWORD``, ``os.environ["X"]``, ``$VAR``,
  ``.env.local``, ``creds.json``, a URL; a dotted value is a reference only without digits
  and with a known root or a secret-naming last part. After "NAME is" the value must look
  made up ("API_KEY is required" is no secret); before a Korean place particle
  ("API_KEY는 .env에서") it is where the secret is kept.
* Whole blocks: a private key block is replaced from BEGIN to END, or to the end of the
  text when END is missing (a truncated block is still a key); a BEGIN line with no key
  material after it (a mention in code or prose) is kept. A key's body without its BEGIN
  line is recognised by its DER opening (PKCS#8, PKCS#1, SEC1, OpenSSH).
* Data URLs (``data:image/png;base64,...``): an image's body is set aside before any rule
  runs and comes back byte for byte (one line, wrapped at 76, or with JSON's escaped
  slashes); another type's body too, unless it decodes to text that holds a secret, then
  it goes whole under that secret's marker.
* A URL's user name without a password is kept (``https://minji@host``,
  ``git@github.com:org/repo.git``, git's "Password for 'https://minji@host':" prompt); the
  password of ``https://user:pass@host`` goes.
* Cookies: only session-like cookies (``sessionid``, ``auth``, ``token``...) or generated
  values are redacted; ``theme=dark`` stays.
* Failure: if redaction itself fails, :func:`redact` returns ``[REDACTED:redaction-error]``
  instead of the original text; nothing unredacted is ever handed back.
"""

from __future__ import annotations

import re

from artibot_memory.core.entropy import MIN_LENGTH, bare_tokens
from artibot_memory.core.private import strip_private

__all__ = ["SECRET_KINDS", "redact", "redact_value"]

_MARK = "[REDACTED:"


def _marker(kind: str) -> str:
    """Return the typed marker for ``kind``.

    >>> _marker("jwt")
    '[REDACTED:jwt]'
    """
    return f"{_MARK}{kind}]"


_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def _is_word(char: str) -> bool:
    r"""Tell whether ``char`` is a regex word character (``\w``)."""
    return char.isalnum() or char == "_"


def _free_before(text: str, index: int, extra: str = "") -> bool:
    """Tell whether ``text[index]`` starts a token: no word char (or ``extra``) before it.

    >>> _free_before("x ghp_", 2), _free_before("xghp_", 1), _free_before("-sk-", 1, "-")
    (True, False, False)
    """
    if index <= 0:
        return True
    char = text[index - 1]
    return not (_is_word(char) or char in extra)


# Shapes whose prefix alone is too weak: the body must also look generated.
_NEEDS_MIXED = frozenset({"openai-key", "anthropic-key", "stripe-key", "huggingface-token"})


def _looks_generated(body: str) -> bool:
    """Tell whether a token body mixes digits and letters, as generated keys do.

    >>> _looks_generated("proj-4fG7hK2mQ9"), _looks_generated("some-long-kebab-name")
    (True, False)
    """
    has_digit = any(c.isdigit() for c in body)
    has_upper = any(c.isupper() for c in body)
    has_lower = any(c.islower() for c in body)
    return has_digit + has_upper + has_lower > 1 and (has_digit or (has_upper and has_lower))


# ---------------------------------------------------------------------------------------
# Names: which identifiers name a secret.
# ---------------------------------------------------------------------------------------

# fmt: off
_SECRET_PARTS = frozenset(
    {"password", "passwd", "pwd", "passphrase", "passcode", "secret", "secrets", "token",
     "credential", "credentials", "creds", "apikey", "apikeys", "privkey", "privatekey"},
)
# fmt: on
_PASS_PARTS = frozenset({"password", "passwd", "pwd", "passphrase", "passcode", "pass"})
_GLUED_ENDINGS = ("password", "passwd", "secret", "token", "apikey", "passphrase")
# fmt: off
_GLUED_KEYS = frozenset(
    {"secretkey", "accesskey", "authkey", "appkey", "masterkey", "clientkey", "servicekey",
     "accountkey", "encryptionkey", "enckey", "licensekey", "sessionkey", "dbkey",
     "storagekey", "sharedkey", "hmackey", "webhookkey", "storepass", "keypass", "srcstorepass",
     "deststorepass", "srckeypass", "destkeypass", "dbpass", "rootpass", "adminpass", "userpass",
     "passin", "passout"},
)
# fmt: on
# The last word part that makes a name describe a secret rather than hold it.
# fmt: off
_BENIGN_LAST = frozenset(
    {"file", "files", "path", "paths", "dir", "directory", "folder", "url", "uri", "urls",
     "endpoint", "host", "hostname", "port", "id", "ids", "name", "names", "type", "types",
     "length", "len", "size", "env", "var", "prefix", "suffix", "header", "headers", "field",
     "fields", "format", "fmt", "algorithm", "algo", "alg", "expiry", "expires", "expiration",
     "exp", "ttl", "timeout", "lifetime", "age", "count", "limit", "limits", "version", "region",
     "arn", "hint", "policy", "mode", "rotation", "helper", "command", "cmd", "index", "label",
     "location", "source", "provider", "manager", "backend", "kind", "stdin", "fd", "template",
     "pattern", "regex", "validator", "strength", "link", "page", "form", "button", "text",
     "message", "msg", "error", "prompt", "title", "placeholder", "help", "min", "max",
     "enabled", "disabled", "required", "visible", "sock", "socket", "ref", "selector", "level",
     "scope", "scopes", "usage", "method", "option", "options", "flag", "flags", "store",
     "storetype", "alias", "status", "state", "display", "column", "check", "schema", "bits",
     "rounds", "iterations", "dialog", "modal", "screen", "view", "component", "icon", "class",
     "step", "action", "event", "handler", "callback", "hook", "reset", "update", "rate",
     "interval", "retries", "attempts", "charset", "chars", "mask", "masked", "spec", "settings",
     "setting", "config", "param", "params", "arg", "args", "description", "validity",
     "duration", "outfile", "infile", "identifier", "identifiers", "re", "tag", "node",
     "expression", "attributes", "list", "cryptogram"},
)
# fmt: on
# fmt: off
_KEY_BENIGN_BEFORE = frozenset(
    {"primary", "foreign", "sort", "partition", "hash", "range", "public", "pub", "cache",
     "idempotency", "lookup", "dict", "map", "hot", "shortcut", "bucket", "idx", "index",
     "natural", "schema", "sequence", "unique", "composite", "candidate", "row", "column",
     "group", "object", "tracking", "dedup", "dedupe", "routing", "message", "i18n",
     "translation", "react", "list", "sorting", "order", "join", "cluster", "distribution",
     "shard", "grouping", "cursor", "pagination", "registry", "surrogate", "secondary", "meta",
     "metadata", "attribute", "attr", "entity", "record", "item", "field", "query", "search",
     "host", "known", "gpg", "pgp", "dynamo", "s3", "tag", "tags", "limit", "result", "subset",
     "xml", "json", "input", "output", "more", "next", "marker", "paging", "recv", "send",
     "import", "export", "refresh", "sign", "delete", "edit", "fetch", "locate", "trusted",
     "authorized", "signing", "host_key", "hostkey"},
)
# fmt: on
# fmt: off
_TOKEN_BENIGN_BEFORE = frozenset(
    {"max", "num", "total", "prompt", "completion", "input", "output", "pad", "eos", "bos",
     "unk", "sep", "cls", "mask", "special", "start", "end", "stop", "page", "next",
     "continuation", "cursor", "sync", "pagination", "resume", "sentence", "word", "bpe",
     "idempotency", "client", "request", "lexer", "parser", "first", "last", "current", "csrf",
     "lock", "action", "invalid", "unexpected", "eof"},
)
# fmt: on
# fmt: off
_NEGATING_FIRST = frozenset(
    {"no", "without", "skip", "disable", "ask", "prompt", "forgot", "forget", "reset", "change",
     "show", "hide", "has", "is", "require", "requires", "use"},
)
# fmt: on
_PUBLIC_PARTS = frozenset({"public", "publishable", "pub"})
_WEAK_ALONE = frozenset({"key", "keys", "auth"})


def _name_parts(name: str) -> list[str]:
    """Split an identifier into lowercase word parts (``_ - .`` and camelCase).

    >>> _name_parts("AWS_SECRET_ACCESS_KEY"), _name_parts("x-apiKey.v2")
    (['aws', 'secret', 'access', 'key'], ['x', 'api', 'key', 'v', '2'])
    """
    parts: list[str] = []
    word = ""
    for index, char in enumerate(name):
        if not char.isascii() or not char.isalnum():
            parts.append(word)
            word = ""
            continue
        previous = word[-1:]
        following = name[index + 1 : index + 2]
        boundary = (
            (char.isdigit() != previous.isdigit())
            or (char.isupper() and previous.islower())
            or (char.isupper() and previous.isupper() and following.islower())
        )
        if word and boundary:
            parts.append(word)
            word = ""
        word += char
    parts.append(word)
    return [part.lower() for part in parts if part]


# Length thresholds (characters), named once.
_SHORTEST_SECRET = 3  # "ab" is a flag or a typo, not a credential
_GENERATED_MIN = 8  # a generated token with digits is at least this long
_RANDOM_MIN = 16  # a random-looking value with no other evidence is at least this long
_PROSE_VALUE_MAX = 256  # longest value read after "my password is"

# How much a value must look generated before a name's value is redacted.
ANY, GENERATED, RANDOM = 0, 1, 2


def _name_kind(name: str) -> tuple[str, int] | None:
    """Classify a name: ``(kind, strength)`` when it names a secret, else ``None``.

    ``strength`` says what value counts: ``ANY`` literal for password / secret names,
    a ``GENERATED`` one (a digit, or random) for names that only say key or token
    (``"limit_key": "max_results"`` is a dictionary key), a ``RANDOM`` one for a bare
    ``key`` / ``auth`` (``{"Key": "Name"}``).

    >>> _name_kind("DB_PASSWORD"), _name_kind("CLIENT_SECRET"), _name_kind("KEYBOARD")
    (('password', 0), ('env-secret', 0), None)
    >>> _name_kind("password_file"), _name_kind("GITHUB_TOKEN"), _name_kind("Key")
    (None, ('env-secret', 1), ('env-secret', 2))
    """
    try:
        return _NAME_CACHE[name]
    except KeyError:
        pass
    if len(_NAME_CACHE) > _NAME_CACHE_SIZE:
        _NAME_CACHE.clear()  # names repeat within a text; a bound keeps memory flat
    result = _NAME_CACHE[name] = _classify_name(name)
    return result


_NAME_CACHE: dict[str, tuple[str, int] | None] = {}
_NAME_CACHE_SIZE = 4096


def _classify_name(name: str) -> tuple[str, int] | None:  # noqa: PLR0911 - a table
    """Classify a name without the cache (see :func:`_name_kind`)."""
    parts = _name_parts(name)
    while parts and parts[-1].isdigit():
        parts.pop()
    if parts and _is_session_cookie(parts):
        return ("cookie", GENERATED)
    if not parts or parts[-1] in _BENIGN_LAST or parts[0] in _NEGATING_FIRST:
        return None
    if _PUBLIC_PARTS.intersection(parts):
        return None
    if len(parts) == 1 and parts[0] in _WEAK_ALONE:
        return ("env-secret", RANDOM)
    found = None
    strength = GENERATED
    for index, part in enumerate(parts):
        before = parts[index - 1] if index else ""
        kind = _part_kind(part, before, last=index == len(parts) - 1)
        if kind == "password":
            return ("password", GENERATED if parts == ["pass"] else ANY)  # "First pass: x"
        if kind and part not in _LOOSE_PARTS:
            strength = ANY
        found = found or kind
    if found and "aws" in parts and "secret" in parts:
        return ("aws-secret-access-key", ANY)
    return (found, strength) if found else None


def _is_uuid(value: str) -> bool:
    """Tell whether ``value`` is a UUID (8-4-4-4-12 hex digits).

    >>> _is_uuid("4d5611e5-241a-462a-8d15-5122611a9569"), _is_uuid("f0ibzaazg16azmj9")
    (True, False)
    """
    parts = value.split("-")
    return [len(p) for p in parts] == [8, 4, 4, 4, 12] and all(
        c in "0123456789abcdefABCDEF" for p in parts for c in p
    )


def _is_session_cookie(parts: list[str]) -> bool:
    """Tell whether name parts spell a session cookie (``_session_id``, ``PHPSESSID``...).

    A session id is a credential: whoever holds it is logged in.
    """
    joined = "".join(parts)
    return joined in _SESSION_COOKIE_NAMES or (
        "session" in parts and parts[-1] in ("id", "key", "token")
    )


# fmt: off
_SESSION_COOKIE_NAMES = frozenset({
    "sessionid", "phpsessid", "jsessionid", "aspnetsessionid", "connectsid", "laravelsession",
    "sessid", "cfsession", "ghsess", "railssession", "djangosessionid",
})
# fmt: on


# Parts that also name non-secret things (dictionary keys, lexer tokens, auth methods).
_LOOSE_PARTS = frozenset({"key", "keys", "token", "auth", "authorization", "pass"})


def _value_counts(value: str, strength: int) -> bool:
    """Tell whether ``value`` is strong enough a secret for a name of ``strength``.

    >>> _value_counts("max_results", GENERATED), _value_counts("tok3n-abc", GENERATED)
    (False, True)
    """
    if strength == ANY:
        return True
    if _is_filename(value):
        return False
    if value.startswith("arn:"):
        return False  # an AWS resource name identifies, it does not authenticate
    if strength == GENERATED and len(value) >= _GENERATED_MIN and any(c.isdigit() for c in value):
        return any(c.isalpha() for c in value)  # "1.3.6.1.5.5.7.3.2" is an OID
    return _looks_random(value, 16)


def _is_filename(value: str) -> bool:
    """Tell whether ``value`` is a file name (``myCore.private.key``, ``Map_2024.mp4``)."""
    stem, dot, extension = value.rpartition(".")
    return bool(
        dot
        and stem
        and len(value) <= 206  # noqa: PLR2004 - a 200-character stem and an extension
        and 1 <= len(extension) <= 5  # noqa: PLR2004 - ".py" to ".jsonl"
        and extension[0].isalpha()
        and all(c.isascii() and (c.islower() or c.isdigit()) for c in extension)
        and all(_is_word(c) or c in "./-" for c in stem)
    )


def _part_kind(part: str, before: str, *, last: bool) -> str | None:  # noqa: PLR0911 - a table
    """Classify one word part given the part before it (``sort`` + ``key`` is benign)."""
    if part in _PASS_PARTS:
        # "pass" alone is a verb too often (pass_rate, pass_through): only as the last part.
        return "password" if part != "pass" or last else None
    if part in _GLUED_KEYS:
        return "password" if "pass" in part else "env-secret"
    if part.endswith(("password", "passwd", "passphrase")):
        return "password"
    if part in ("key", "keys"):
        return None if before in _KEY_BENIGN_BEFORE else "env-secret"
    if part == "token":
        return None if before in _TOKEN_BENIGN_BEFORE else "env-secret"
    if part in ("auth", "authorization", "authtoken"):
        return "env-secret"
    if part == "pin":
        return "password" if last else None
    if part in _SECRET_PARTS or part.endswith(_GLUED_ENDINGS):
        return "env-secret"
    return None


# ---------------------------------------------------------------------------------------
# Values: what is a placeholder, a reference, code, a path, or random.
# ---------------------------------------------------------------------------------------

# fmt: off
_PLACEHOLDER_WORDS = frozenset(
    {"none", "null", "nil", "true", "false", "undefined", "changeme", "change_me", "change-me",
     "changeit", "password", "passwd", "secret", "token", "example", "placeholder", "dummy",
     "redacted", "hidden", "test", "testing", "fake", "todo", "tbd", "n/a", "na", "str",
     "string", "bytes", "int", "bool", "any", "number", "secretstr", "optional", "bearer",
     "basic", "digest", "required", "empty", "unset", "default", "prompt", "stdin", "env",
     "file", "yes", "no", "on", "off", "value", "val", "data", "result", "raw", "self", "args",
     "kwargs", "params", "param", "input", "text", "new", "old", "pass", "none."},
)
# fmt: on
# fmt: off
_STOPWORDS = frozenset(
    {"is", "was", "not", "no", "wrong", "incorrect", "invalid", "expired", "expiring", "missing",
     "required", "empty", "blank", "correct", "valid", "set", "unset", "stored", "saved",
     "encrypted", "hashed", "hidden", "masked", "too", "the", "a", "an", "in", "on", "at", "of",
     "for", "to", "now", "still", "also", "being", "been", "revoked", "rotated", "changed",
     "reset", "updated", "different", "same", "weak", "strong", "long", "short", "ok", "okay",
     "fine", "good", "bad", "right", "here", "there", "this", "that", "it", "unknown", "needed",
     "necessary", "sensitive", "case-sensitive", "only", "used", "ready", "generated", "created",
     "deleted", "removed", "available", "unavailable", "shown", "displayed", "printed", "logged",
     "visible", "secure", "insecure", "safe", "unsafe", "compromised", "leaked", "exposed",
     "public", "private", "optional", "mandatory", "disabled", "enabled", "active", "inactive",
     "locked", "unlocked", "verified", "accepted", "rejected", "denied", "refreshed", "renewed",
     "issued", "granted", "provided", "passed", "sent", "received", "configured", "defined",
     "specified", "given", "present", "absent", "known", "unchanged", "like", "as", "and", "or",
     "but", "if", "when", "then", "with", "without", "from", "by", "into", "your", "my", "our",
     "their", "his", "her", "its", "what", "which", "who", "how", "why", "where", "stale", "old",
     "new", "current", "latest", "temporary", "permanent", "all", "any", "some", "every", "each",
     "very", "really", "just", "probably", "likely", "usually", "always", "never", "exactly",
     "least", "more", "less", "than", "about", "around", "over", "under", "kept", "located",
     "found", "typed", "entered", "working", "broken", "failing", "above", "below", "following",
     "next", "previous", "jwt", "oauth", "base64", "hex", "json", "yaml", "utf-8", "ascii",
     "sha256", "bcrypt", "argon2", "not-set", "gone", "lost", "read", "put", "got", "done",
     "stolen", "forgotten", "written", "taken", "chosen", "reused", "unique", "random", "static",
     "dynamic", "fixed", "ignored", "one", "two", "three", "first", "second", "either", "both",
     "neither", "whitespace", "expected"},
)
# fmt: on
_QUOTE_PAIRS = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019"}


def _is_placeholder(value: str) -> bool:  # noqa: PLR0911 - one answer per kind
    """Tell whether ``value`` stands for a secret instead of being one.

    >>> [_is_placeholder(v) for v in ("${TOKEN}", "<token>", "****", "YOUR_API_KEY", "s3cr3t")]
    [True, True, True, True, False]
    """
    v = value.strip()
    if not v or _MARK in v or len(set(v)) == 1:
        return True
    low = v.lower()
    if v[0] == "$" or "${" in v or "{{" in v or "$(" in v:
        return True
    if v[0] == "%" and (v.endswith("%") or v[1:2] in ("s", "d", "(")):
        return True  # %VAR% (Windows), %s (a format); "%ctfo2Mp…" is a password
    if (v[0], v[-1]) in (("<", ">"), ("{", "}"), ("[", "]")):
        return True
    if set(low) <= set("x*-_./: \u2022"):
        return True
    if "..." in v or "\u2026" in v or "****" in v or "\u2022\u2022" in v:
        return True  # masked: "sk_test_...", "gho_****abcd"
    if (
        3 <= len(v) <= 41  # noqa: PLR2004 - identifier-sized
        and _is_ascii_word(v, "_-")
        and v[0].isalpha()
        and _name_kind(v) is not None
    ):
        return True  # 'AWS_SECRET_ACCESS_KEY': 'secret_key' names a secret, it is not one
    return (
        low in _PLACEHOLDER_WORDS
        or low.startswith(("your", "my_", "insert", "replace", "enter"))
        or low.endswith(("here", "_here", "-here"))
        or any(word in low for word in ("example", "placeholder", "dummy", "changeme"))
    )


def _is_path(value: str) -> bool:
    """Tell whether ``value`` is a file path (kept: it names where a secret is, at most).

    >>> _is_path("/home/me/project"), _is_path("~/.ssh/id_rsa"), _is_path("/Zm9vYmFy8K2")
    (True, True, False)
    """
    if value.startswith(("~/", "./", "../")) or value[1:3] in (":\\", ":/"):
        return True
    if not value.startswith("/"):
        return False
    return value.count("/") >= 2 or "." in value or len(value) < 12  # noqa: PLR2004


def _looks_random(value: str, minimum: int = 12) -> bool:
    """Tell whether ``value`` looks machine-generated.

    Long, no spaces, many distinct characters, and digits among letters or case
    flipping as often as in random text.

    >>> _looks_random("neverExpires"), _looks_random("3f786850e387550fdab836ed7e6dc881")
    (False, True)
    >>> _looks_random("EmrManagedMasterSecurityGroup"), _looks_random("qTzKpWmRbXvLsNcYdHgF")
    (False, True)
    """
    if len(value) < minimum or len(set(value)) < min(10, len(value) // 2):
        return False
    if any(c.isspace() for c in value) or _is_word_chain(value):
        return False
    if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
        return True
    # Letters only: random text has short lowercase runs, CamelCase words long ones.
    runs = "".join(c if c.islower() else " " for c in value).split()
    return len(value) >= _RANDOM_MIN and len(runs) >= 4 and sum(map(len, runs)) < 3 * len(runs)  # noqa: PLR2004


def _is_ascii_word(value: str, extra: str = "") -> bool:
    """Tell whether ``value`` is ASCII letters (and ``extra`` characters) only."""
    return value.isascii() and all(c.isalpha() or c in extra for c in value)


def _is_word_chain(value: str) -> bool:
    """Tell whether ``value`` is lowercase words joined by ``. _ - /`` (a setting name).

    >>> _is_word_chain("access_logs.s3.prefix"), _is_word_chain("k3j4-h5g6-f7d8")
    (True, False)
    """
    parts = value.replace("_", ".").replace("-", ".").replace("/", ".").split(".")
    return len(parts) >= 3 and all(  # noqa: PLR2004 - three words make a chain
        p and len(p) <= 12 and p.isascii() and p.islower() and (p.isalpha() or len(p) <= 2)  # noqa: PLR2004
        for p in parts
    )


def _is_code(value: str, following: str) -> bool:
    """Tell whether an unquoted value is code (call, subscript, attribute, secret name).

    >>> _is_code("getpass", "("), _is_code("settings.API_KEY", ""), _is_code("hunter2", "")
    (True, True, False)
    """
    if not _is_dotted_name(value):
        return False
    snake = "_" in value and all(p and _is_ascii_word(p) and p.islower() for p in value.split("_"))
    if following in ("(", "[") or snake:
        return True
    if "." in value:
        parts = value.split(".")
        if any(part[-3:].isdigit() and part[:1].isupper() for part in parts):
            return False  # "Copper.Coral1228": a password, not settings.API_KEY
        return not any(_is_generated_part(part) for part in parts)
    return _name_kind(value) is not None


# fmt: off
# The objects a reference to a secret starts from: settings.API_KEY, process.env.TOKEN.
_REFERENCE_ROOTS = frozenset(
    {"self", "this", "cls", "settings", "config", "conf", "cfg", "os", "process", "env",
     "environ", "options", "opts", "args", "argv", "secrets", "vars", "ctx", "context", "app",
     "request", "req", "res", "response", "params", "props", "window", "globals", "values",
     "inputs", "steps", "needs", "matrix", "form", "data", "user", "payload", "body", "input",
     "event", "credentials", "creds", "auth", "account", "client", "session", "state", "store",
     "vault", "keyring", "import", "module", "exports", "system", "dotenv", "flags"},
)
# Extensions that make a dotted value a file's name (``creds.json``), not a password.
_FILE_EXTENSIONS = frozenset(
    {"json", "yaml", "yml", "toml", "env", "txt", "pem", "key", "crt", "cer", "csr", "p12",
     "pfx", "jks", "keystore", "ini", "cfg", "conf", "xml", "csv", "sh", "py", "js", "ts",
     "md", "sql", "gpg", "asc", "der", "pub", "zip", "gz", "tgz", "tar", "log", "lock", "db",
     "sqlite", "properties", "plist", "kdbx", "ovpn", "rb", "go", "rs", "java", "kt", "php",
     "tf", "tfvars", "hcl", "dat", "bin", "enc", "age", "sops", "html", "cjs", "mjs", "jsx",
     "tsx", "vue", "cs", "swift", "git"},
)
# fmt: on


def _is_reference(value: str) -> bool:
    """Tell whether ``value`` names where a secret is (code, a file, a URL), not the secret.

    A dotted value is a reference only when it reads as one: no digit, and an object it
    starts from (``settings``, ``os``) or a last part that names a secret; a made-up
    password holds dots too (``Copper.Maple42``, ``hunter2.prod``).

    >>> [_is_reference(v) for v in ("settings.DB_PASSWORD", "os.getenv('X')", ".env.local")]
    [True, True, True]
    >>> [_is_reference(v) for v in ("Copper.Maple42", "hunter2.prod", "tiger.lily", "a.b.9")]
    [False, False, False, False]
    """
    if "://" in value or _is_dotfile(value) or _is_named_file(value):
        return True
    for opener, closer in (("(", ")"), ("[", "]")):
        head, found, _ = value.partition(opener)
        if found and head and value.endswith(closer) and _is_dotted_name(head):
            return True  # a call or a subscript: getpass(), os.environ["TOKEN"]
    if any(char.isdigit() for char in value) or not _is_dotted_name(value):
        return False
    parts = value.split(".")
    if len(parts) == 1:
        return "_" in value and (value.isupper() or value.islower())  # ANOTHER_NAME, a_name
    return (
        parts[0].lower() in _REFERENCE_ROOTS
        or parts[-1].isupper()
        or _name_kind(parts[-1]) is not None
    )


def _is_dotted_name(value: str) -> bool:
    """Tell whether ``value`` is identifiers joined by dots (``os.environ``, ``API_KEY``)."""
    return all(part.isidentifier() for part in value.split("."))


def _is_dotfile(value: str) -> bool:
    """Tell whether ``value`` is a dotfile's name (``.env``, ``.env.local``, ``.npmrc``)."""
    return len(value) > 1 and value[0] == "." and all(c.islower() or c in "._-" for c in value[1:])


def _is_named_file(value: str) -> bool:
    """Tell whether ``value`` is a file's name by its extension (``creds.json``, ``ca.pem``)."""
    stem, dot, extension = value.rpartition(".")
    return bool(
        dot
        and stem
        and extension.lower() in _FILE_EXTENSIONS
        and all(_is_word(c) or c in "./-" for c in stem)
    )


def _is_address(value: str) -> bool:
    """Tell whether ``value`` is an address: a URL, ``user@host:path``, an e-mail address.

    >>> [_is_address(v) for v in ("https://minji@github.com/a.git", "git@github.com:a/b.git")]
    [True, True]
    >>> _is_address("Tiger@2024.x"), _is_address("Maple@Harbor42")
    (False, False)
    """
    if "://" in value:
        return True
    user, at, rest = value.partition("@")
    host, colon, path = rest.partition(":")
    labels = host.split("/", 1)[0].split(".")
    named = all(label and all(c.isalnum() or c == "-" for c in label) for label in labels)
    return bool(
        at
        and user
        and named
        and (
            (colon and "/" in path)  # git@gitlab:acme/api.git, deploy@10.0.0.8:/srv
            or (len(labels) == 4 and all(label.isdigit() for label in labels))  # noqa: PLR2004
            or (len(labels) >= 2 and labels[-1].isalpha() and len(labels[-1]) >= 2)  # noqa: PLR2004
        )
    )


def _is_generated_part(part: str) -> bool:
    """Tell whether one dotted part looks generated (a token segment, not an attribute).

    >>> _is_generated_part("SECRET_KEY_BASE"), _is_generated_part("LzeqPDg3x8hKuGaGDqYO9gW6")
    (False, True)
    """
    return (
        len(part) >= _RANDOM_MIN
        and not any(c.isspace() or c in ",;" for c in part)
        and any(c.isdigit() for c in part)
        and any(c.isupper() for c in part)
        and any(c.islower() for c in part)
    )


# ---------------------------------------------------------------------------------------
# Engine: literal anchors found with str.find, patterns matched only where one starts.
# ---------------------------------------------------------------------------------------

_COMPILED: dict[str, re.Pattern[str]] = {}


def _rx(key: str, source: str, flags: int = 0) -> re.Pattern[str]:
    """Compile ``source`` once per process, on first use (compiling is the costly part)."""
    pattern = _COMPILED.get(key)
    if pattern is None:
        pattern = _COMPILED[key] = re.compile(source, flags)
    return pattern


TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    Edit = tuple[int, int, str]
    Locate = Callable[[str, int], tuple[int, ...]]
    Decide = Callable[[re.Match[str]], Edit | None]
    Scan = Callable[[str, int], tuple[Edit | None, int] | None]
    Span = tuple[int, int, str]  # start, end, marker kind


class _Rule:
    """One rule: where to look (anchors), where a match starts, what to replace.

    ``locate(text, anchor_index)`` returns the candidate start positions for the pattern
    (usually the anchor itself, or the start of the name that contains it);
    ``decide(match)`` returns ``(start, end, replacement)`` or ``None`` to keep the text.
    A rule with ``scan`` instead (and no pattern) parses in Python: ``scan(text, start)``
    returns ``None`` (nothing there) or ``(edit or None, end of what it read)``.
    """

    __slots__ = (
        "anchors",
        "decide",
        "fold",
        "grams",
        "key",
        "locate",
        "requires",
        "scan",
        "source",
    )

    def __init__(
        self,
        key: str,
        anchors: tuple[str, ...],
        source: str,
        locate: Locate,
        decide: Decide | None = None,
        *,
        scan: Scan | None = None,
        fold: bool = False,
        requires: tuple[str, ...] = (),
    ) -> None:
        self.key, self.anchors, self.source = key, anchors, source
        self.locate, self.decide, self.scan = locate, decide, scan
        self.fold, self.requires = fold, requires
        # The first two characters of each anchor: a short text holding none of them is
        # skipped without a single find (None: an anchor too short to say).
        pairs = [anchor[:2] for anchor in anchors]
        self.grams = (
            None
            if any(len(pair) < len("ab") for pair in pairs)
            else frozenset((pair[0], pair[1]) for pair in pairs)
        )


_ASCII_FOLD = {code: code + 32 for code in range(65, 91)}


def _folded(text: str) -> str:
    r"""Lowercase ``text`` keeping every index in place (anchors found in it map back).

    >>> _folded("PassWord"), len(_folded("\u0130x")) == 2
    ('password', True)
    """
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_FOLD)


def _hits(haystack: str, anchors: tuple[str, ...]) -> list[int]:
    """Return the sorted start indexes of every anchor occurrence."""
    found: list[int] = []
    for anchor in anchors:
        index = haystack.find(anchor)
        while index >= 0:
            found.append(index)
            index = haystack.find(anchor, index + 1)
    if len(anchors) > 1:
        found.sort()
    return found


def _run(rule: _Rule, text: str, folded: str) -> str:
    """Apply one rule to ``text`` (``folded`` is its lowercase twin, for folded rules).

    A declined match resumes right after its name and separator (values are captured in
    look-aheads), so a secret nested in a declined value is still seen; edits never
    overlap and never go backwards.
    """
    haystack = folded if rule.fold else text
    if rule.requires and not any(word in haystack for word in rule.requires):
        return text
    hits = _hits(haystack, rule.anchors)
    if not hits:
        return text
    pieces: list[str] = []
    last = resume = 0
    tried = -1
    for anchor in hits:
        if anchor < resume:
            continue
        for start in rule.locate(text, anchor):
            if start < resume or start == tried:
                continue
            tried = start
            found = _try_at(rule, text, start)
            if found is None:
                continue
            edit, read = found
            if edit is None:
                resume = max(read, start + 1)
            else:
                begin, end, replacement = edit
                pieces += (text[last:begin], replacement)
                last, resume = end, max(end, read, begin + 1)
            break
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def _try_at(rule: _Rule, text: str, start: int) -> tuple[Edit | None, int] | None:
    """Match one rule at ``start``: ``None`` if nothing is there, else (edit, end read).

    The pattern is compiled here, at the first candidate a locator let through, not when
    an anchor merely occurs ("the token expired" compiles nothing).
    """
    if rule.scan is not None:
        return rule.scan(text, start)
    match = _rx(rule.key, rule.source).match(text, start)
    if match is None or rule.decide is None:
        return None
    return rule.decide(match), match.end()


_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")


def _at(extra: str = "-", follow: frozenset[str] | None = None, need: int = 0) -> Locate:
    """Build a locator: the match starts at the anchor, which must start a token.

    With ``follow``, the ``need`` characters from the anchor on must all be in it: a
    cheap test that spares compiling a pattern for "sk-learn" or "ACCEPT".
    """

    def locate(text: str, index: int) -> tuple[int, ...]:
        if not _free_before(text, index, extra):
            return ()
        if follow is not None and not _all_in(text, index, need, follow):
            return ()
        return (index,)

    return locate


def _all_in(text: str, start: int, count: int, chars: frozenset[str]) -> bool:
    """Tell whether the ``count`` characters from ``start`` all belong to ``chars``."""
    window = text[start : start + count]
    return len(window) == count and all(char in chars for char in window)


def _name_end(text: str, start: int) -> int:
    """Return where the identifier that starts at ``start`` ends."""
    end = start
    stop = min(len(text), start + 128)
    while end < stop and text[end] in _NAME_CHARS:
        end += 1
    return end


def _blank_end(text: str, pos: int) -> int:
    """Skip spaces and tabs."""
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def _name_start(text: str, index: int, chars: frozenset[str] = _NAME_CHARS) -> int:
    """Walk back from ``index`` to the start of the identifier holding it (-1: too long)."""
    start = index
    stop = max(0, index - 128)
    while start > stop and text[start - 1] in chars:
        start -= 1
    if start == stop and start > 0 and text[start - 1] in chars:
        return -1
    return start


def _locate_assign(text: str, index: int) -> tuple[int, ...]:
    r"""Find where ``NAME=``, ``"NAME":`` or ``\"NAME\":`` starts around an anchor."""
    start = _name_start(text, index)
    while 0 <= start < index and text[start] == ".":
        start += 1  # a jq / yq path: ".smtp.passwd = ..."
    if start < 0 or not (text[start].isascii() and (text[start].isalpha() or text[start] == "_")):
        return ()
    before = text[start - 1] if start else ""
    if before == "$" or not _separator_follows(text, _name_end(text, start)):
        return ()  # $TOKEN is a reference; "the token expired" assigns nothing
    if before in ("'", '"'):
        quote = start - 1
        if quote and text[quote - 1] == "\\":
            quote -= 1
        if _free_before(text, quote, "$.-"):
            return (quote, start)  # quoted name first, then the bare name inside quotes
    return (start,)


def _separator_follows(text: str, end: int) -> bool:
    """Tell whether ``= : == != => :=`` (or a type annotation) follows a name ending here."""
    if text.startswith("\\", end):
        end += 1
    if end < len(text) and text[end] in "\"'":
        end += 1
    end = _blank_end(text, end)
    return end < len(text) and text[end] in "=:!"


def _locate_spaced(text: str, index: int) -> tuple[int, ...]:
    """Find where ``NAME value`` starts around an anchor."""
    start = _name_start(text, index)
    if start < 0 or not (text[start].isascii() and (text[start].isalpha() or text[start] == "_")):
        return ()
    end = _name_end(text, start)
    value = _blank_end(text, end)
    if value == end or not _all_in(text, value, _RANDOM_MIN, _SPACED_VALUE_CHARS):
        return ()  # "the token expired": no long value after a blank
    return (start,) if not start or text[start - 1] != "$" else ()


_SPACED_VALUE_CHARS = _TOKEN_CHARS | frozenset("+/=~")


def _locate_flag(text: str, index: int) -> tuple[int, ...]:
    """Find where ``--name`` / ``-name`` starts around an anchor."""
    start = _name_start(text, index)
    if start < 0:
        return ()
    dashes = 2 if text.startswith("--", start) else 1 if text.startswith("-", start) else 0
    if not dashes or text.startswith("---", start):
        return ()
    first = text[start + dashes : start + dashes + 1]
    if not (first.isascii() and first.isalpha()):
        return ()
    end = _name_end(text, start)
    attached = text.startswith("=", end)
    value = _blank_end(text, end + 1 if attached else end)
    if value == end or value >= len(text) or text[value] == "\n":
        return ()  # "--token" at the end: no value follows
    if text[value] == "-" and not attached:
        return ()  # "--password-stdin", "--token --next": a flag, not a value
    return (start,)


def _locate_xml(text: str, index: int) -> tuple[int, ...]:
    """Find the ``<`` of an element whose name holds the anchor."""
    start = _name_start(text, index, _NAME_CHARS | {":"})
    return (start - 1,) if start > 0 and text[start - 1] == "<" else ()


def _strip_value(value: str) -> str:
    """Drop sentence punctuation that trails an unquoted value in prose."""
    return value.rstrip(".,;:!?)]}")


def _quoted(value: str) -> tuple[int, str]:
    """Return (offset, inner text) of a value that may open with a quote character."""
    if value and value[0] in _QUOTE_PAIRS:
        close = value.find(_QUOTE_PAIRS[value[0]], 1)
        while close > 0 and value[close - 1] == "\\":
            close = value.find(_QUOTE_PAIRS[value[0]], close + 1)
        return 1, value[1:close] if close > 0 else value[1:]
    return 0, value


# ---------------------------------------------------------------------------------------
# Private key blocks (PEM, OpenSSH, PGP, PuTTY): replaced whole.
# ---------------------------------------------------------------------------------------


def _apply_private_keys(text: str) -> str:
    r"""Replace private key blocks, BEGIN to END (or to the end of a truncated text).

    >>> head, tail = "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----"
    >>> _apply_private_keys(f"a {head}\nMIIBOgIBAAJBAKj34GkxFhD9\n{tail} b")
    'a [REDACTED:private-key] b'
    """
    if "PRIVATE KEY" in text:
        begin = _rx("pem-begin", r"-----BEGIN[ A-Z0-9_]{0,40}PRIVATE KEY(?: BLOCK)?-----")
        end = _rx("pem-end", r"-----END[ A-Z0-9_]{0,40}PRIVATE KEY(?: BLOCK)?-----")
        body = _rx(
            "pem-body", r"(?:\s|\\[nr])*(?:[A-Za-z0-9+/=]{16}|Proc-Type:|Version:|Comment:|Hash:)"
        )
        pieces: list[str] = []
        pos = 0
        while (found := begin.search(text, pos)) is not None:
            if not body.match(text, found.end()):
                pieces.append(text[pos : found.end()])  # a header mentioned in code or prose
                pos = found.end()
                continue
            closing = end.search(text, found.end())
            pieces += (text[pos : found.start()], _marker("private-key"))
            pos = closing.end() if closing else len(text)
        text = "".join(pieces) + text[pos:] if pieces else text
    if "PuTTY-User-Key-File" in text:
        putty = _rx(
            "putty",
            r"Private-Lines:[ \t]*\d+[\s\S]*?(?:Private-MAC:[ \t]*[0-9a-fA-F]*|\Z)",
        )
        text = putty.sub(_marker("private-key"), text)
    return text


# ---------------------------------------------------------------------------------------
# Data URLs (``data:image/png;base64,...``): set aside before any rule runs.
# ---------------------------------------------------------------------------------------

# A data URL's head: its media type (its slash escaped in some JSON) and parameters
# (``;charset=utf-8``, ``;name=a.png``).
_DATA_HEAD = (
    r"data:(?P<type>[A-Za-z]{1,20}\\?/[A-Za-z0-9.+-]{1,80})"
    r"(?:;[A-Za-z0-9.+-]{1,40}=[^;,\s\"'()<>\\]{0,200}){0,8};base64,"
)
_HEAD_REACH = 400  # how far before ";base64," its "data:" may start
# A line break inside a wrapped body, real or escaped in a JSON string (longest first).
_BODY_BREAKS = ("\r\n", "\\r\\n", "\n", "\\n")
_WRAP_MIN = 40  # the lines of a wrapped body are this long at least (MIME wraps at 76)
# What may follow the last line of a wrapped body: the end of an attribute, a call, a line.
_BODY_CLOSERS = frozenset("\"'`)>]},; \t\r\n\\")
# Set aside: a body's place while the rules run (no rule matches a NUL, and no pattern
# spans one); a text that holds a NUL already is redacted without setting anything aside.
_SET_ASIDE = "\x00"


def _data_bodies(text: str) -> list[tuple[int, int, str | None]]:
    """Return ``(start, end, kind)`` of the base64 body of every data URL of ``text``.

    ``kind`` is ``None`` for a body kept byte for byte: an image always (its bytes are
    pixels, never a credential), any other type (a font, ``application/octet-stream``)
    unless it decodes to text that holds a secret; then it is that secret's kind and the
    body goes whole.

    >>> text = "<img src='data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB'>"
    >>> _data_bodies(text)
    [(32, 64, None)]
    """
    bodies: list[tuple[int, int, str | None]] = []
    index = text.find(";base64,")
    while index >= 0:
        start = index + len(";base64,")
        head = text.rfind("data:", max(0, index - _HEAD_REACH), index)
        found = _rx("data-head", _DATA_HEAD).fullmatch(text, head, start) if head >= 0 else None
        end = _body_end(text, start) if found is not None else start
        if found is not None and end > start:
            bodies.append((start, end, _data_kind(found.group("type"), text[start:end])))
        index = text.find(";base64,", max(end, start))
    return bodies


def _body_end(text: str, start: int) -> int:
    r"""Return where the base64 body that starts at ``start`` ends.

    A body may be wrapped (MIME lines of 76, each line of a JSON string ending in an
    escaped ``\n``) and its slashes escaped (``\/``, as PHP's ``json_encode`` writes
    them). A line continues the body only after a full line of the same width, and only
    if it is base64 to its end: the line after an image is not swallowed.

    >>> _body_end("AAAA" * 12 + "\n" + "BBBB" * 12 + "\n" + "CC==" + "\nnext line", 0)
    102
    """
    pos = _past_break(text, start)  # "base64,\n": some tools break the line before the body
    end, width = _base64_line(text, pos)
    if width == 0 or (pos > start and not (width >= _WRAP_MIN and _closes(text, end))):
        return start
    while width >= _WRAP_MIN and text[end - 1] != "=":
        after = _past_break(text, end)
        if after == end:
            break
        following, length = _base64_line(text, after)
        full = length == width or length % 4 == 0
        if not (0 < length <= width and full and _closes(text, following)):
            break
        end = following
        if length < width:
            break
    return end


def _closes(text: str, pos: int) -> bool:
    """Tell whether a line of base64 may end at ``pos`` (a break, a quote, the text's end)."""
    return pos >= len(text) or text[pos] in _BODY_CLOSERS


def _past_break(text: str, pos: int) -> int:
    """Skip one line break (real or escaped) at ``pos``."""
    for line_break in _BODY_BREAKS:
        if text.startswith(line_break, pos):
            return pos + len(line_break)
    return pos


def _base64_line(text: str, pos: int) -> tuple[int, int]:
    r"""Read base64 characters (and escaped slashes, ``\/``) from ``pos``, then its padding.

    Return where the line stops and how many base64 characters it holds.

    >>> _base64_line("ab\\/cd=, x", 0)
    (7, 6)
    """
    run = _rx("base64-line", r"[A-Za-z0-9+/]*")
    end = pos
    while True:
        found = run.match(text, end)
        end = found.end() if found is not None else end  # it matches empty: never None
        if not text.startswith("\\/", end):
            break
        end += 2
    count = end - pos - text.count("\\/", pos, end)
    while end < len(text) and text[end] == "=" and count % 4:
        end += 1
        count += 1
    return end, count


def _data_kind(media_type: str, body: str) -> str | None:
    """Return ``None`` to keep a data URL's body, or the kind of the secret it holds.

    >>> import base64
    >>> _data_kind("text/plain", base64.b64encode(b"hello world").decode()) is None
    True
    >>> _data_kind("text/plain", base64.b64encode(b"DB_PASSWORD=Tr0ub4dor&3x").decode())
    'password'
    >>> _data_kind("image/svg+xml", base64.b64encode(b"DB_PASSWORD=Tr0ub4dor&3x").decode())
    """
    if media_type.lower().startswith(("image/", "image\\/")):
        return None  # pixels (or an icon's paths): never a credential
    import binascii  # noqa: PLC0415 - built in, and only for a data URL that is not an image

    for line_break in _BODY_BREAKS:
        body = body.replace(line_break, "")
    try:
        body = body.replace("\\/", "/")
        decoded = binascii.a2b_base64(body + "=" * (-len(body) % 4)).decode()
    except (binascii.Error, ValueError):
        return None  # binary (a font, an archive, a wasm module), or not base64 at all
    if not decoded.translate(_WHITESPACE_OUT).isprintable():
        return None
    cleaned = redact(decoded)
    if cleaned == decoded:
        return None
    found = cleaned.find(_MARK)
    return cleaned[found + len(_MARK) : cleaned.find("]", found)] if found >= 0 else "secret"


_WHITESPACE_OUT = dict.fromkeys(map(ord, "\t\r\n"))


def _redact_around(text: str, bodies: list[tuple[int, int, str | None]]) -> str:
    """Redact ``text`` with its data URLs' bodies set aside, then put them back.

    A kept body comes back byte for byte; one that holds a secret comes back as its
    marker. A body inside what a rule replaced (``PASSWORD=data:...``) stays replaced.
    """
    pieces: list[str] = []
    last = 0
    for number, (start, end, _kind) in enumerate(bodies):
        pieces += (text[last:start], f"{_SET_ASIDE}{number}{_SET_ASIDE}")
        last = end
    pieces.append(text[last:])
    out = _redact_text("".join(pieces))

    def put_back(place: re.Match[str]) -> str:
        start, end, kind = bodies[int(place.group(1))]
        return text[start:end] if kind is None else _marker(kind)

    out = _rx("set-aside", f"{_SET_ASIDE}(\\d+){_SET_ASIDE}").sub(put_back, out)
    return out.replace(_SET_ASIDE, "")  # half a place a rule's marker swallowed


# ---------------------------------------------------------------------------------------
# Token shapes: the whole match is the secret.
# (kind, anchors, pattern matched at the anchor, characters that may not precede it)
# ---------------------------------------------------------------------------------------

_SHAPES: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("anthropic-key", ("sk-ant-",), r"sk-ant-[A-Za-z0-9_-]{20,300}", "-"),
    ("openai-key", ("sk-",), r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300}", "-"),
    (
        "stripe-key",
        (
            "sk_live_",
            "sk_test_",
            "sk_prod_",
            "rk_live_",
            "rk_test_",
            "rk_prod_",
            "whsec_",
        ),
        r"(?:(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}|whsec_[A-Za-z0-9]{20,99})(?!\w)",
        "-",
    ),
    (
        "github-token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_\w{40,255})(?!\w)",
        "",
    ),
    (
        "gitlab-token",
        (
            "glpat-",
            "gldt-",
            "glft-",
            "glrt-",
            "glcbt-",
            "glptt-",
            "glimt-",
            "glagent-",
            "gloas-",
            "glsoat-",
            "glffct-",
            "glwt-",
            "GR1348941",
        ),
        (
            r"(?:gl(?:pat|dt|ft|rt|cbt|ptt|imt|agent|oas|soat|ffct|wt)-[\w-]{20,300}"
            r"(?:\.[0-9a-z]{9})?|GR1348941[\w-]{20,64})(?![\w-])"
        ),
        "-",
    ),
    (
        "slack-webhook",
        ("https://hooks.slack.com/", "http://hooks.slack.com/", "hooks.slack.com/"),
        r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{8,300}",
        "/",
    ),
    (
        "slack-token",
        ("xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe", "xapp-"),
        r"(?:xox[abposre](?:\.xox[bp])?-[A-Za-z0-9-]{10,300}|xapp-\d-[A-Za-z0-9-]{10,300})",
        "-",
    ),
    ("google-api-key", ("AIza",), r"AIza[A-Za-z0-9_-]{35}(?![\w-])", "-"),
    ("twilio-key", ("SK", "AC"), r"(?:SK|AC)[0-9a-f]{32}(?![A-Za-z0-9])", ""),
    (
        "sendgrid-key",
        ("SG.",),
        r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}(?![\w-])",
        ".-",
    ),
    ("mailgun-key", ("key-",), r"key-[0-9a-zA-Z]{32}(?![\w-])", "-"),
    ("npm-token", ("npm_",), r"npm_[A-Za-z0-9]{36}(?!\w)", ""),
    ("pypi-token", ("pypi-AgE",), r"pypi-AgE[A-Za-z0-9_-]{50,1000}", "-"),
    ("docker-token", ("dckr_pat_", "dckr_oat_"), r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,200}", "-"),
    ("huggingface-token", ("hf_", "api_org_"), r"(?:hf_|api_org_)[A-Za-z0-9]{30,40}(?!\w)", ""),
    (
        "jwt",
        ("eyJ",),
        r"eyJ[A-Za-z0-9_-]{5,8192}={0,2}\.eyJ[A-Za-z0-9_-]{5,8192}={0,2}\.[A-Za-z0-9_-]{0,8192}={0,2}",
        ".-",
    ),
    ("digitalocean-token", ("dop_v1_", "doo_v1_", "dor_v1_"), r"do[opr]_v1_[a-f0-9]{64}(?!\w)", ""),
    (
        "shopify-token",
        ("shpat_", "shpca_", "shppa_", "shpss_"),
        r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?!\w)",
        "",
    ),
    ("vault-token", ("hvs.", "hvb.", "hvr."), r"hv[sbr]\.[\w-]{24,300}", "."),
    ("databricks-token", ("dapi",), r"dapi[a-f0-9]{32}(?:-\d)?(?!\w)", ""),
    (
        "age-secret-key",
        ("AGE-SECRET-KEY-1",),
        r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        "",
    ),
    ("linear-key", ("lin_api_",), r"lin_api_[A-Za-z0-9]{40}(?!\w)", ""),
    ("square-token", ("sq0atp-", "sq0csp-"), r"sq0(?:atp|csp)-[\w-]{22,60}", "-"),
    ("sentry-token", ("sntryu_", "sntrys_"), r"sntry[us]_[A-Za-z0-9+/=_]{40,400}", ""),
    ("postman-key", ("PMAK-",), r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?!\w)", ""),
    (
        "grafana-token",
        ("glsa_", "glc_"),
        r"(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,3})(?!\w)",
        "",
    ),
    ("newrelic-key", ("NRAK-", "NRII-", "NRJS-"), r"NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}(?!\w)", ""),
    ("rubygems-token", ("rubygems_",), r"rubygems_[a-f0-9]{48}(?!\w)", ""),
    ("pulumi-token", ("pul-",), r"pul-[a-f0-9]{40}(?![\w-])", "-"),
    (
        "doppler-token",
        ("dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."),
        r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,30}\.)?[A-Za-z0-9]{40,44}(?!\w)",
        ".",
    ),
    (
        "planetscale-token",
        ("pscale_tkn_", "pscale_oauth_", "pscale_pw_"),
        r"pscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}",
        "",
    ),
    ("perplexity-key", ("pplx-",), r"pplx-[A-Za-z0-9]{48}(?!\w)", "-"),
    ("heroku-key", ("HRKU-AA",), r"HRKU-AA[0-9a-zA-Z_-]{58}", "-"),
    # Atlassian API tokens (Jira, Confluence) and Bitbucket app passwords.
    ("atlassian-token", ("ATATT3", "ATCTT3"), r"AT[AC]TT3[A-Za-z0-9_=-]{100,400}", "-"),
    ("bitbucket-token", ("ATBB",), r"ATBB[A-Za-z0-9_=.-]{28,64}(?![\w-])", "-"),
    # AWS STS session tokens: base64 of a protobuf whose first bytes never change.
    (
        "aws-session-token",
        ("IQoJb3JpZ2luX2Vj", "FwoGZXIvYXdzE", "FQoGZXIvYXdzE"),
        r"(?:IQoJb3JpZ2luX2Vj|F[wQ]oGZXIvYXdzE)[A-Za-z0-9+/=]{40,4000}",
        "",
    ),
    ("xai-key", ("xai-",), r"xai-[A-Za-z0-9]{60,100}(?!\w)", "-"),
    ("groq-key", ("gsk_",), r"gsk_[A-Za-z0-9]{48,56}(?!\w)", ""),
    ("supabase-token", ("sbp_",), r"sbp_[a-f0-9]{40}(?!\w)", ""),
    ("netlify-token", ("nfp_",), r"nfp_[A-Za-z0-9]{36,40}(?!\w)", ""),
    (
        "notion-token",
        ("secret_", "ntn_"),
        r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46})(?!\w)",
        "",
    ),
    ("figma-token", ("figd_",), r"figd_[A-Za-z0-9_-]{40,48}(?![\w-])", ""),
    ("airtable-token", ("pat",), r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?!\w)", ""),
    (
        "fly-token",
        ("FlyV1 ", "fm2_", "fo1_"),
        r"(?:FlyV1 )?f[mo][12]_[A-Za-z0-9+/=_-]{40,2000}",
        "",
    ),
    ("resend-key", ("re_",), r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}(?!\w)", ""),
    ("facebook-token", ("EAAC", "EAAG", "EAAB"), r"EAA[BCG][A-Za-z0-9]{80,300}(?!\w)", ""),
    ("google-oauth-token", ("ya29.",), r"ya29\.[A-Za-z0-9_-]{30,2000}", ""),
    ("mapbox-token", ("sk.eyJ",), r"sk\.eyJ[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{10,100}", ""),
    ("dropbox-token", ("sl.",), r"sl\.[A-Za-z0-9_-]{120,1400}", "."),
    ("onepassword-token", ("ops_eyJ",), r"ops_eyJ[A-Za-z0-9+/=_-]{100,2000}", ""),
    ("render-key", ("rnd_",), r"rnd_[A-Za-z0-9]{28,40}(?!\w)", ""),
    ("sendinblue-key", ("xkeysib-",), r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}(?!\w)", ""),
    ("contentful-token", ("CFPAT-",), r"CFPAT-[A-Za-z0-9_-]{43}(?![\w-])", ""),
    ("flutterwave-key", ("FLWSECK-", "FLWSECK_TEST-"), r"FLWSECK(?:_TEST)?-[a-f0-9]{32}-X", ""),
    ("shippo-token", ("shippo_live_", "shippo_test_"), r"shippo_(?:live|test)_[a-f0-9]{40}", ""),
    ("easypost-key", ("EZAK", "EZTK"), r"EZ[AT]K[a-f0-9]{54}(?!\w)", ""),
    ("lob-key", ("live_", "test_"), r"(?:live|test)_[a-f0-9]{35}(?!\w)", ""),
    (
        "discord-webhook",
        ("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"),
        r"discord(?:app)?\.com/api/webhooks/\d{5,30}/[\w-]{40,100}",
        "",
    ),
    ("sonarqube-token", ("sqp_", "squ_", "sqa_"), r"sq[pua]_[a-f0-9]{40}(?!\w)", ""),
    (
        "circleci-token",
        ("CCIPAT_", "CCIPRJ_"),
        r"CCIP(?:AT|RJ)_[A-Za-z0-9]{16,40}_[a-f0-9]{40}",
        "",
    ),
    ("buildkite-token", ("bkua_",), r"bkua_[a-f0-9]{40}(?!\w)", ""),
    ("clojars-token", ("CLOJARS_",), r"CLOJARS_[a-z0-9]{60}(?!\w)", ""),
    ("crates-token", ("cio",), r"cio[A-Za-z0-9]{32}(?!\w)", ""),
    ("twitch-token", ("oauth:",), r"oauth:[a-z0-9]{30}(?!\w)", ""),
    (
        "launchdarkly-key",
        ("sdk-", "mob-", "api-"),
        r"(?:sdk|mob|api)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?!\w)",
        "-",
    ),
    ("dynatrace-token", ("dt0c01.",), r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}", ""),
    ("hubspot-token", ("pat-na1-", "pat-eu1-"), r"pat-(?:na|eu)1-[0-9a-f-]{36}", ""),
    ("prefect-key", ("pnu_",), r"pnu_[A-Za-z0-9]{36}(?!\w)", ""),
    ("readme-key", ("rdme_",), r"rdme_[a-z0-9]{70}(?!\w)", ""),
    ("typeform-token", ("tfp_",), r"tfp_[A-Za-z0-9_.=-]{59,70}", ""),
    ("infracost-key", ("ico-",), r"ico-[A-Za-z0-9]{32}(?!\w)", "-"),
    ("duffel-token", ("duffel_test_", "duffel_live_"), r"duffel_(?:test|live)_[\w=-]{43}", ""),
    (
        "plaid-token",
        ("access-sandbox-", "access-development-", "access-production-"),
        r"access-(?:sandbox|development|production)-[0-9a-f-]{36}",
        "",
    ),
    ("openshift-token", ("sha256~",), r"sha256~[\w-]{43}(?![\w-])", ""),
    ("nebula-key", ("dnkey-",), r"dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}", ""),
    ("adobe-key", ("p8e-",), r"p8e-[a-zA-Z0-9]{32}(?!\w)", "-"),
    ("alibaba-key-id", ("LTAI",), r"LTAI[a-zA-Z0-9]{20}(?!\w)", ""),
    ("jfrog-token", ("AKCp", "cmVmdGtu"), r"(?:AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56})", ""),
    ("scalingo-token", ("tk-us-",), r"tk-us-[\w-]{48}", ""),
    ("frameio-token", ("fio-u-",), r"fio-u-[\w=-]{64}", ""),
    ("salesforce-token", ("00D",), r"00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{60,200}", ""),
    ("langsmith-key", ("lsv2_pt_", "lsv2_sk_"), r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", ""),
)

# Shapes whose anchor sits inside the token: (kind, anchors, pattern, locate).
_MAILCHIMP = r"[0-9a-f]{32}-us\d{1,2}(?!\w)"
_TERRAFORM = r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![\w=-])"
_AZURE_CLIENT_SECRET = r"[A-Za-z0-9_~.-]{3}\d?Q~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])"
_FCM = r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{134,140}"
_NEW_RELIC_LICENSE = r"[a-f0-9]{36}NRAL(?!\w)"


def _locate_back(distance: int, extra: str = "") -> Locate:
    """Build a locator that starts ``distance`` characters before the anchor."""

    def locate(text: str, index: int) -> tuple[int, ...]:
        start = index - distance
        return (start,) if start >= 0 and _free_before(text, start, extra) else ()

    return locate


def _locate_azure_client_secret(text: str, index: int) -> tuple[int, ...]:
    """Start 3 or 4 characters before ``Q~``, where an Azure client secret starts."""
    return tuple(
        start for start in (index - 4, index - 3) if start >= 0 and _free_before(text, start, "~.-")
    )


_TELEGRAM = r"\d{8,10}:AA[A-Za-z0-9_-]{33}(?![\w-])"


# A private key's body without its BEGIN line (a head cut off, ``tail -n +2 key.pem``, lines
# quoted one by one): its DER opening says what it is. PKCS#8 (RSA, EC, Ed25519), PKCS#1,
# encrypted PKCS#8, SEC1 EC and OpenSSH; public keys and certificates open otherwise.
_KEY_BODY = (
    r"(?:MII[A-Za-z0-9+/]{3}(?:IBADANBgkqhkiG9w0BAQEFAAS|IBAAKC[A-Za-z0-9+/]{2}EA"
    r"|BOBgkqhkiG9w0BBQ0w)|M[A-Za-z0-9+/]{3}AgEAMBMGByqGSM49AgEGCCqGSM49"
    r"|MHcCAQEEI|MIGkAgEBBDA|MIHcAgEBBEI|MC4CAQAwBQYDK2VwBCIEI|b3BlbnNzaC1rZXktdjE)"
    r"[A-Za-z0-9+/]{16,4000}={0,2}"
)
_KEY_BODY_ANCHORS = (
    "IBADANBgkqhkiG9w0BAQEFAAS", "IBAAKC", "BOBgkqhkiG9w0BBQ0w", "AgEAMBMGByqGSM49",
    "MHcCAQEEI", "MIGkAgEBBDA", "MIHcAgEBBEI", "MC4CAQAwBQYDK2VwBCIEI", "b3BlbnNzaC1rZXktdjE",
)  # fmt: skip


def _locate_key_body(text: str, index: int) -> tuple[int, ...]:
    r"""Start where the DER opening holding the anchor starts (6, 4 or 0 characters back).

    The body starts a token, or a line escaped in a JSON string (after a literal ``\n``).
    """
    return tuple(
        start
        for start in (index - 6, index - 4, index)
        if start >= 0 and (_free_before(text, start, "+/") or text[start - 2 : start] == "\\n")
    )


def _decide_key_body(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace a key's body of a full line or more; its DER opening alone is a constant."""
    if match.end() - match.start() < _KEY_LINE:
        return None  # "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ" opens every RSA key
    return match.start(), match.end(), _marker("private-key")


_KEY_LINE = 60  # a PEM line holds 64 characters; every DER opening is shorter


def _locate_mailchimp(text: str, index: int) -> tuple[int, ...]:
    """Start 32 characters back: a Mailchimp key is 32 hex digits then ``-usNN``."""
    start = index - 32
    return (start,) if start >= 0 and _free_before(text, start) else ()


def _locate_telegram(text: str, index: int) -> tuple[int, ...]:
    """Walk back over the bot id of ``<8-10 digits>:AA...`` (often right after ``/bot``)."""
    start = index
    while start > index - 10 and start > 0 and text[start - 1].isdigit():
        start -= 1
    if index - start < 8:  # noqa: PLR2004 - bot ids have 8 to 10 digits
        return ()
    if _free_before(text, start, ":") or text[max(0, start - 3) : start] == "bot":
        return (start,)
    return ()


def _shape_decide(kind: str) -> Decide:
    """Build the decision for one shape: keep documentation examples and plain words."""

    def decide(match: re.Match[str]) -> tuple[int, int, str] | None:
        token = match.group(0)
        if "EXAMPLE" in token or (kind in _NEEDS_MIXED and not _looks_generated(token[3:])):
            return None
        return match.start(), match.end(), _marker(kind)

    return decide


# An AWS key id, optionally followed on the same line by its 40-character secret key.
_AWS_ID = (
    r"(?P<id>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})(?![A-Za-z0-9])"
    r"(?:(?P<gap>[ \t,;:|'\"=]{1,8})(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=]))?"
)


def _decide_aws(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the key id, and the secret key when it sits right after it."""
    if "EXAMPLE" in match.group("id"):
        return None
    replacement = _marker("aws-access-key-id")
    if match.group("secret") and _looks_random(match.group("secret")):
        replacement += match.group("gap") + _marker("aws-secret-access-key")
    return match.start(), match.end(), replacement


# ---------------------------------------------------------------------------------------
# Context rules: credentials recognised by what surrounds them.
# ---------------------------------------------------------------------------------------

_AZURE = (
    r"(?P<name>AccountKey|SharedAccessKey|SharedAccessSignature|sig|X-Amz-Signature"
    r"|X-Goog-Signature|Signature)=(?=(?P<value>[^;\s\"'<>]{8,4096}))"
)
_QUERY_SIGNATURES = frozenset({"sig", "X-Amz-Signature", "X-Goog-Signature", "Signature"})


def _locate_azure(text: str, index: int) -> tuple[int, ...]:
    """Connection-string names start a token; signatures follow ``?`` or ``&``."""
    name = text[index : index + 22].split("=", 1)[0]
    if name in _QUERY_SIGNATURES:
        return (index,) if index and text[index - 1] in "?&" else ()
    return (index,) if _free_before(text, index, "-") else ()


def _decide_azure(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace an Azure account key / SAS value, or a signed URL's signature."""
    name, value = match.group("name"), match.group("value")
    if name in _QUERY_SIGNATURES:
        value = value.split("&", 1)[0].split("#", 1)[0]
    if _is_placeholder(value):
        return None
    if name in ("AccountKey", "SharedAccessKey"):
        kind = "azure-storage-key"
    elif name in ("SharedAccessSignature", "sig"):
        kind = "azure-sas-token"
    else:
        kind = "signed-url"
    return match.start("value"), match.start("value") + len(value), _marker(kind)


_URL = r"://(?P<user>[^\s:/?#@'\"<>\[\]]{0,256}):(?P<pw>[^\s/'\"<>]{1,512})@"


def _locate_url(text: str, index: int) -> tuple[int, ...]:
    """``://`` must follow a scheme and reach an ``@`` before the next blank."""
    if not (index and text[index - 1].isalnum()):
        return ()
    at = text.find("@", index + 3, index + 800)
    if at < 0 or any(char.isspace() for char in text[index:at]):
        return ()
    return (index,)


def _decide_url(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the password of ``scheme://user:password@host``."""
    password = match.group("pw")
    if _is_placeholder(password) or password.lower() in ("pass", "pwd"):
        return None
    return match.start("pw"), match.end("pw"), _marker("url-password")


_HEADER = (
    r"(?i)authorization(?:\\?[\"'])?[ \t]*[:=][ \t]*(?:\\?[\"'])?"
    r"(?P<scheme>(?:bearer|basic|token|digest|negotiate|ntlm|apikey|api-key|sso-key|hmac|"
    r"aws4-hmac-sha256|otp|jwt|key|oauth|ssws|splunk|genieKey|klaviyo-api-key|dsn)[ \t]+)?"
    r"(?=(?P<value>[^\r\n\"'\\]{1,2048}))"
)
_MULTI_PART_SCHEMES = ("digest", "hmac", "aws4-hmac-sha256")


def _locate_header(text: str, index: int) -> tuple[int, ...]:
    """Accept ``Authorization`` (or ``Proxy-Authorization``) only at the start of a word."""
    if not _separator_follows(text, index + len("authorization")):
        return ()
    if _free_before(text, index, "-"):
        return (index,)
    proxy = index - 6
    if proxy >= 0 and text[proxy:index].lower() == "proxy-" and _free_before(text, proxy, "-"):
        return (index,)
    return ()


def _decide_header(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the credential of an ``Authorization:`` header, keeping the scheme."""
    raw = match.group("value")
    scheme = (match.group("scheme") or "").strip().lower()
    if scheme in _MULTI_PART_SCHEMES:
        value = raw.rstrip()
    else:
        stripped = raw.lstrip()
        end = 0
        while (
            end < len(stripped)
            and stripped[end].isascii()
            and (stripped[end].isalnum() or stripped[end] in "._~+/=:$%{}@!#^&*-")
        ):
            end += 1
        value = stripped[:end].rstrip(",;:")
    if not value or _is_placeholder(value):
        return None
    start = match.start("value") + len(raw) - len(raw.lstrip())
    following = match.string[start + len(value) : start + len(value) + 1]
    if not scheme and (not _value_counts(value, GENERATED) or _is_code(value, following)):
        return None  # "authorization = authorization.split()" is code, not a header
    if scheme and _is_code(value, following):
        return None
    return start, start + len(value), _marker("authorization")


_BEARER = r"Bearer[ \t]+(?=(?P<value>[A-Za-z0-9._~+/=@!#%^&*-]{8,2048}))"


def _decide_bearer(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace a bare ``Bearer <credential>`` outside an Authorization header."""
    value = match.group("value")
    if _is_placeholder(value):
        return None
    if len(value) < 16 and not (_looks_generated(value) and any(c.isdigit() for c in value)):  # noqa: PLR2004
        return None  # "Bearer tokens", "Bearer auth": words
    return match.start("value"), match.end("value"), _marker("authorization")


_COOKIE = (
    r"(?i)(?:set-)?cookie(?:\\?[\"'])?[ \t]*:[ \t]*(?:\\?[\"'])?"
    r"(?=(?P<value>[^\r\n\"'\\]{1,4096}))"
)
# fmt: off
_SESSION_COOKIE_WORDS = (
    "sess", "sid", "token", "auth", "jwt", "key", "secret", "login", "remember", "csrf", "xsrf",
    "sso", "saml", "oidc", "access", "refresh",
)
# fmt: on


def _locate_cookie(text: str, index: int) -> tuple[int, ...]:
    """Accept a Cookie / Set-Cookie header at a line start, or after a space, quote or ``<>``."""
    set_ = len("set-")
    start = (
        index - set_ if index >= set_ and text[index - set_ : index].lower() == "set-" else index
    )
    if not _separator_follows(text, index + len("cookie")):
        return ()
    return (start,) if not start or text[start - 1] in " \t\r\n\"'<>" else ()


def _decide_cookie(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace session-like cookie values; ``theme=dark`` and ``Path=/`` stay."""
    value = match.group("value").rstrip()
    pairs = value.split(";")
    changed = False
    for index, pair in enumerate(pairs):
        name, equals, cookie = pair.partition("=")
        cookie = cookie.strip()
        if not equals or _is_placeholder(cookie):
            continue
        lowered = name.strip().lower()
        hexadecimal = len(cookie) >= _RANDOM_MIN and set(cookie.lower()) <= set("0123456789abcdef")
        if (
            any(word in lowered for word in _SESSION_COOKIE_WORDS)
            or hexadecimal
            or _is_generated_part(cookie)
        ):
            pairs[index] = f"{name}={pair[len(name) + 1 :].replace(cookie, _marker('cookie'))}"
            changed = True
    end = match.start("value") + len(value)
    if not changed:
        return end, end, ""  # nothing to hide; no other Cookie header hides inside this one
    return match.start("value"), end, ";".join(pairs)


_SHORT_FLAG = (
    r"-(?:(?P<flag>[pau])|-(?P<long>user)(?=[= \t]))(?P<gap>[ \t]*=?[ \t]*)"
    r"(?=(?P<value>\"[^\"\n]{1,512}\"|'[^'\n]{1,512}'|(?!-)[^\s\"'`;&|<>()]{1,512}))"
)
_MYSQL_LIKE = ("mysql", "mariadb")
# fmt: off
_LOGIN_TOOLS = (
    "docker", "podman", "buildah", "skopeo", "helm", "oras", "nerdctl", "crane",
)
# fmt: on


def _segment_before(text: str, index: int) -> str:
    """Return the shell command segment that ends at ``index`` (bounded look-back)."""
    start = max(0, index - 256)
    segment = text[start:index]
    cut = max(segment.rfind(sep) for sep in ("\n", ";", "|", "&"))
    return segment[cut + 1 :]


def _decide_short_flag(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace ``-pX`` / ``-p X`` / ``-a X`` / ``-u user:pw`` when the command takes it."""
    words = _segment_before(match.string, match.start()).split()
    programs = {word.rsplit("/", 1)[-1] for word in words}
    flag = "u" if match.group("long") else match.group("flag")
    gap, value = match.group("gap"), match.group("value")
    offset, inner = _quoted(value)
    start = match.start("value") + offset
    if _MARK in inner:
        return None
    if flag == "u":
        if "curl" not in programs or ":" not in inner:
            return None
        user, _, password = inner.partition(":")
        if not password or _is_placeholder(password):
            return None
        start += len(user) + 1
        return start, start + len(password), _marker("basic-auth")
    if _is_placeholder(inner) or not _takes_password(programs, flag, gap):
        return None
    return start, start + len(inner), _marker("password")


def _takes_password(programs: set[str], flag: str, gap: str) -> bool:
    """Tell whether ``-<flag>`` carries a password for the programs in the segment."""
    if flag == "a":
        return "redis-cli" in programs
    if any(p.startswith(_MYSQL_LIKE) for p in programs):
        return not gap  # "mysql -p db" prompts; only "-pSECRET" carries the password
    if "sshpass" in programs or any(p.startswith("mongo") for p in programs):
        return True
    return "login" in programs and any(tool in programs for tool in _LOGIN_TOOLS)


# Lowercase words whose presence in a name may make it secret (the anchors of name rules).
# fmt: off
_SECRET_ANCHORS = (
    "pass", "pwd", "secret", "token", "key", "cred", "auth", "pin", "sess", "mnemonic",
)
# fmt: on

_FLAG = (
    r"(?P<dash>--?)(?P<name>[A-Za-z][\w.-]{0,127})(?P<sep>=|[ \t]+)"
    r"(?=(?P<value>\"(?:[^\"\\\n]|\\.){1,1024}\"|'[^'\n]{1,1024}'"
    r"|(?:(?<==)|(?!-))[^\s\"'`;&|<>()]{1,512}))"
)
_OPENSSL_REFERENCES = ("env:", "file:", "fd:", "stdin")


def _decide_flag(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the value of ``--password X``, ``--token=X``, ``-storepass X``..."""
    classified = _name_kind(match.group("name"))
    if classified is None:
        return None
    offset, inner = _quoted(match.group("value"))
    if classified[1] == RANDOM and not (
        _looks_random(inner, 16) and any(c.isdigit() for c in inner)
    ):
        return None  # a bare --key / --auth takes paths and names too: only generated values
    if not _value_counts(inner, classified[1]):
        return None
    start = match.start("value") + offset
    if inner.startswith("pass:"):
        start, inner = start + 5, inner[5:]  # openssl -passin pass:SECRET
    elif inner.startswith(_OPENSSL_REFERENCES):
        return None
    if _is_placeholder(inner) or _is_path(inner):
        return None
    kind = "password" if classified[0] == "password" else "cli-secret"
    return start, start + len(inner), _marker(kind)


_ASSIGN = (
    r"(?P<q>\\?[\"']|)(?P<name>[A-Za-z_][\w.-]{0,127})(?P=q)"
    r"(?:[ \t]*:[ \t]*(?:str|string|bytes|SecretStr|Optional\[str\]|str[ \t]*\|[ \t]*None)"
    r"(?=[ \t]*=(?!=)))?"
    r"(?P<sep>[ \t]*(?:=>|:=|==|!=|=|:)[ \t]*)"
    r"(?=(?P<value>(?P<pre>[fbrFBRuU]{1,2}(?=[\"']))?(?:"
    r"\\\"(?P<edq>(?:[^\"\\\n]|\\[^\"\n]){0,4096})(?:\\\")?"
    r"|\"(?P<dq>(?:[^\"\\\n]|\\.){0,4096})\"?"
    r"|'(?P<sq>[^'\n]{0,4096})'?"
    r"|`(?P<bq>[^`\n]{0,4096})`?"
    r"|(?P<bare>[^\s\"'`,;&|<>()\[\]{}]{1,4096}))))"
)
_VALUE_GROUPS = ("edq", "dq", "sq", "bq", "bare")


def _decide_assign(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the value of ``NAME=value``, ``NAME: value``, ``"NAME": "value"``..."""
    name = match.group("name")
    classified = _name_kind(name)
    if classified is None or name.lower() in ("authorization", "proxy-authorization"):
        return None
    group = next(g for g in _VALUE_GROUPS if match.group(g) is not None)
    value = match.group(group)
    sep = match.group("sep")
    if group == "bare" and sep.strip() == ":" and not match.group("q") and sep[-1:] not in " \t":
        return None  # "secret:eks-local", "passwd:gecos": YAML needs a space after the colon
    if len(value) < _SHORTEST_SECRET or not _value_counts(value, classified[1]):
        return None  # cheap tests first: most names met in code hold ordinary values
    if classified[0] == "cookie" and _is_uuid(value):
        return None  # "sessionId": "<uuid>" in a transcript names a session, it opens none
    if _keep_assigned(match, group, value, strength=classified[1]) or _is_doc_field(name, match):
        return None  # ":param password: the password to use" documents, it does not assign
    return match.start(group), match.end(group), _marker(classified[0])


# fmt: off
_DOC_TAGS = frozenset(
    {"param", "type", "ivar", "var", "cvar", "arg", "keyword", "kwarg", "returns", "raises",
     "rtype"},
)
# fmt: on


def _is_doc_field(_name: str, match: re.Match[str]) -> bool:
    """Tell whether the name follows a docstring tag (``:param``, ``@param``)."""
    words = match.string[max(0, match.start() - 40) : match.start()].split()
    return bool(words) and words[-1][:1] in ":@" and words[-1].strip(":@") in _DOC_TAGS


def _word_before(text: str, start: int) -> str:
    """Return the lowercase word just before ``start`` ("cache" in "cache key: x").

    >>> _word_before("the cache key: x", 10)
    'cache'
    """
    head = text[max(0, start - 40) : start].rstrip(" \t\"'")
    words = head.replace("_", " ").replace("-", " ").split()
    return words[-1].strip(":@,.;()[]{}").lower() if words else ""


def _keep_assigned(  # noqa: PLR0911 - one early answer per kind of non-secret
    match: re.Match[str], group: str, value: str, *, strength: int
) -> bool:
    """Tell whether an assigned value is not a literal secret (see module docstring)."""
    if _is_placeholder(value) or _is_path(value):
        return True
    if match.group("name") in ("PASS", "FAIL", "SKIP") and value.startswith(("Test", "test")):
        return True  # a test runner's result line: "--- PASS: TestHandler/case_1"
    sep = match.group("sep").strip()
    if strength != ANY and sep in ("==", "!="):
        return True  # key == "accept_mode": comparing dictionary keys
    if strength == RANDOM and _word_before(match.string, match.start()) in _KEY_BENIGN_BEFORE:
        return True  # "cache key: <sha>"
    if group != "bare":
        return "{" in value and "}" in value and match.group("pre") is not None  # f-string
    if sep in ("==", "!="):
        return True  # comparison with a variable, not a literal
    rest = match.string[match.end(group) : match.end(group) + 3].lstrip(" \t")
    if rest.startswith("=") and not rest.startswith("=="):
        return True  # chained assignment: "userid = passwd = acct = ''"
    if value.isdigit() and len(value) <= _SHORTEST_SECRET:
        return True
    following = match.string[match.end(group) : match.end(group) + 1]
    return _is_code(value, following) or _is_prose_word(value)


_XML = r"<(?P<name>[A-Za-z_][\w.:-]{0,63})>(?=(?P<value>[^<\n]{1,1024})</(?P=name)>)"


def _decide_xml(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace ``<password>x</password>`` style elements (Maven, NuGet, app configs)."""
    classified = _name_kind(match.group("name").rsplit(":", 1)[-1])
    value = match.group("value")
    if classified is None or _is_placeholder(value) or not _value_counts(value, classified[1]):
        return None
    return match.start("value"), match.end("value"), _marker(classified[0])


# A .netrc entry, also as printf writes one (``login u\\npassword p\\n``: literal escapes).
_NETRC = (
    r"(?:login|user)(?:\s|\\[nt]){1,8}[^\s\\]{1,256}(?:\s|\\[nt]){1,8}password"
    r"(?:\s|\\[nt]){1,8}(?=(?P<value>[^\s\\'\"]{1,512}))"
)


def _locate_netrc(text: str, index: int) -> tuple[int, ...]:
    r"""Start at ``login`` after a blank, or after a literal ``\n`` (``printf '...\nlogin u'``)."""
    if _free_before(text, index, "-") or text[max(0, index - 2) : index] in ("\\n", "\\t"):
        return (index,)
    return ()


def _decide_netrc(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the password of a ``.netrc`` entry (``login u password p``)."""
    if _is_placeholder(match.group("value")):
        return None
    return match.start("value"), match.end("value"), _marker("password")


_SPACED = (
    r"(?P<name>[A-Za-z_][\w.-]{0,127})[ \t]+"
    r"(?=(?P<value>[A-Za-z0-9+/=_.~-]{16,512})(?![^\s\"'`,;)]))"
)


def _decide_spaced(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace a random-looking value that follows a secret name after a space.

    ``aws configure set aws_secret_access_key wJalr...`` has no ``=``.
    """
    value = match.group("value")
    if not (_looks_random(value, 16) and any(c.isdigit() for c in value)):
        return None
    classified = _name_kind(match.group("name"))
    if classified is None or classified[1] == RANDOM or _is_placeholder(value) or _is_path(value):
        return None
    return match.start("value"), match.end("value"), _marker(classified[0])


def _variants(*words: str) -> tuple[str, ...]:
    """Spell multi-word subjects every way people do: ``api key``, ``api_key``, ``apikey``.

    >>> _variants("api key")
    ('api key', 'api_key', 'api-key', 'apikey')
    """
    out: list[str] = []
    for word in words:
        for sep in (" ", "_", "-", ""):
            spelled = word.replace(" ", sep)
            if spelled not in out:
                out.append(spelled)
    return tuple(out)


# English subjects, longest first so "api key" wins over "api".
_EN_SUBJECTS = tuple(
    sorted(
        {
            "password",
            "passphrase",
            "passcode",
            "passwd",
            "pwd",
            "token",
            "credential",
            "credentials",
            "secret",
            *_variants(
                "pin code",
                "api key",
                "api token",
                "api secret",
                "access key",
                "access token",
                "secret key",
                "client secret",
            ),
            *(
                spelled + sep + "token"
                for kind in (
                    "auth",
                    "bearer",
                    "refresh",
                    "session",
                    "personal access",
                    "github",
                    "gitlab",
                    "npm",
                    "pypi",
                    "slack",
                    "openai",
                    "anthropic",
                )
                for spelled in _variants(kind)
                for sep in (" ", "_", "-", "")
            ),
        },
        key=len,
        reverse=True,
    ),
)
# fmt: off
_EN_VERBS = (
    "has been set to", "has been changed to", "has been reset to", "is set to", "is changed to",
    "is reset to", "is updated to", "set to", "changed to", "reset to", "updated to", "will be",
    "would be", "should be", "is now", "is still", "is", "was", "are",
)
# fmt: on
_KO_SUBJECTS = tuple(
    sorted(
        {
            "비밀번호",
            "비밀 번호",
            "패스워드",
            "비번",
            "암호",
            "패스프레이즈",
            "패스 프레이즈",
            "토큰",
            "시크릿",
            "api키",
            "api 키",
            "에이피아이키",
            "에이피아이 키",
            "pin번호",
            "pin 번호",
            "핀번호",
            "핀 번호",
            *(
                who + sep + what
                for who in (
                    "액세스",
                    "엑세스",
                    "접근",
                    "인증",
                    "시크릿",
                    "비밀",
                    "개인",
                    "프라이빗",
                )
                for sep in ("", " ")
                for what in ("키", "토큰")
            ),
        },
        key=len,
        reverse=True,
    ),
)
# fmt: off
_KO_PARTICLES = (
    "값은", "값이", "은", "는", "이", "가", "을", "를", "도",
)
# fmt: on
# fmt: off
_PROSE_EN_ANCHORS = (
    "pass", "pwd", "pin", "api", "access", "secret", "client", "auth", "bearer", "refresh",
    "session", "personal", "github", "gitlab", "npm", "pypi", "slack", "openai", "anthropic",
    "token", "credential",
)
# fmt: on
# fmt: off
_PROSE_KO_ANCHORS = (
    "비밀", "패스", "비번", "암호", "토큰", "api", "에이피아이", "액세스",
    "엑세스", "접근", "인증", "시크릿", "개인", "프라이빗", "pin", "핀",
)
# fmt: on
_OPEN_QUOTES = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019"}
_VALUE_STOP = frozenset(" \t\r\n\f\v\"'`<\u201c\u201d\u2018\u2019")


def _is_hangul(char: str) -> bool:
    """Tell whether ``char`` is Hangul (a Korean particle right after a value ends it)."""
    return (
        "\uac00" <= char <= "\ud7a3" or "\u1100" <= char <= "\u11ff" or "\u3130" <= char <= "\u318f"
    )


def _by_head(subjects: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Index subjects by their first two characters (each anchor then tries a handful)."""
    index: dict[str, list[str]] = {}
    for subject in subjects:
        index.setdefault(subject[:2], []).append(subject)
    return {head: tuple(group) for head, group in index.items()}


_EN_BY_HEAD = _by_head(_EN_SUBJECTS)
_KO_BY_HEAD = _by_head(_KO_SUBJECTS)


def _subject_at(text: str, start: int, subjects: dict[str, tuple[str, ...]]) -> str | None:
    """Return the longest subject spelled at ``start`` (case-insensitively), if any."""
    head = text[start : start + 24].lower()
    return next(
        (subject for subject in subjects.get(head[:2], ()) if head.startswith(subject)), None
    )


def _skip_blanks(text: str, pos: int) -> int:
    """Skip spaces and tabs."""
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def _verb_at(text: str, pos: int) -> tuple[int, str | None] | None:
    """After a subject: a verb ("is", "was set to") or ``:`` / ``=``; return (after, verb)."""
    after = _skip_blanks(text, pos)
    if after > pos:
        head = text[after : after + 20].lower()
        for verb in _EN_VERBS:
            end = after + len(verb)
            if head.startswith(verb) and not (
                end < len(text) and (_is_word(text[end]) or text[end] == "-")
            ):
                return _past_separator(text, end), verb
    if after < len(text) and text[after] in ":=":
        return _past_separator(text, after), None
    return None


def _past_separator(text: str, pos: int) -> int:
    r"""Skip ``[ \t]*[:=]?[ \t]*`` (as in "is: x")."""
    pos = _skip_blanks(text, pos)
    if pos < len(text) and text[pos] in ":=":
        pos += 1
    return _skip_blanks(text, pos)


def _for_clause(text: str, pos: int, words: int) -> int | None:
    """Skip " for the staging db" (the preposition and ``words`` words after it)."""
    after = _skip_blanks(text, pos)
    head = text[after : after + 3].lower()
    preposition = next((p for p in ("for", "of", "on", "to") if head.startswith(p)), None)
    if after == pos or preposition is None:
        return None
    pos = after + len(preposition)
    for _ in range(words):
        after = _skip_blanks(text, pos)
        end = after
        while (
            end < len(text)
            and end - after < 60  # noqa: PLR2004 - one word
            and (_is_word(text[end]) or text[end] in ".@:/-")
        ):
            end += 1
        if after in (pos, end):
            return None
        pos = end
    return pos


def _prose_value(text: str, pos: int) -> tuple[int, str, bool] | None:
    """Read the value of a sentence: a quoted string, or a run up to a blank or Hangul."""
    if pos >= len(text):
        return None
    closing = _OPEN_QUOTES.get(text[pos])
    if closing is not None:
        end = pos + 1
        stop = "\"'`\u201d\u2019\n"
        while end < len(text) and end - pos <= _PROSE_VALUE_MAX and text[end] not in stop:
            end += 1
        return (pos + 1, text[pos + 1 : end], True) if end > pos + 1 else None
    end = pos
    while (
        end < len(text)
        and end - pos < _PROSE_VALUE_MAX
        and text[end] not in _VALUE_STOP
        and not _is_hangul(text[end])
    ):
        end += 1
    return (pos, text[pos:end], False) if end > pos else None


def _scan_prose_en(text: str, start: int) -> tuple[Edit | None, int] | None:
    """Read "my password is X" / "the API key for prod was set to X" at a subject."""
    subject = _subject_at(text, start, _EN_BY_HEAD)
    if subject is None:
        return None
    pos = start + len(subject)
    if pos < len(text) and (_is_word(text[pos]) or text[pos] == "-"):
        return None  # "tokens", "passwords", "tokenizer"
    found = _verb_at(text, pos)
    for words in (1, 2, 3):
        if found is not None:
            break
        clause = _for_clause(text, pos, words)
        found = _verb_at(text, clause) if clause is not None else None
    if found is None:
        return None
    value_at, verb = found
    if verb is None and " " not in subject:
        return None, value_at  # "password = x" is the assignment rule's: it knows code
    return _prose_edit(text, start, subject, value_at)


def _scan_prose_ko(text: str, start: int) -> tuple[Edit | None, int] | None:
    """Read "비밀번호는 X" / "API 키: X" at a subject (a particle or ``:`` / ``=`` follows)."""
    subject = _subject_at(text, start, _KO_BY_HEAD)
    if subject is None:
        return None
    pos = start + len(subject)
    if text.startswith(('\\"', "\\'"), pos):
        pos += 2
    elif text.startswith(('"', "'"), pos):
        pos += 1
    after = _skip_blanks(text, pos)
    particle = next((p for p in _KO_PARTICLES if text.startswith(p, after)), None)
    if particle is not None:
        pos = _skip_blanks(text, after + len(particle))
        if pos < len(text) and text[pos] in ":=":
            pos += 1
    elif after < len(text) and text[after] in ":=":
        pos = after + 1
    else:
        return None  # "암호화", "토큰이" + Korean: no value follows
    pos = _skip_blanks(text, pos)
    if text.startswith(('\\"', "\\'"), pos):
        pos += 1  # an escaped quote: the quote itself opens the value
    return _prose_edit(text, start, subject, pos)


def _locate_ko(text: str, index: int) -> tuple[int, ...]:
    """Korean subjects may follow any syllable; ``API`` / ``PIN`` must start a word."""
    return (index,) if not text[index].isascii() or _free_before(text, index, "-") else ()


def _prose_edit(text: str, start: int, subject: str, value_at: int) -> tuple[Edit | None, int]:
    """Decide on the value of a sentence; return (edit or None, where reading stopped)."""
    read = _prose_value(text, value_at)
    if read is None:
        return None, value_at
    offset, inner, quoted = read
    end = offset + len(inner)
    if _is_placeholder(inner) or _word_before(text, start) in _CODE_WORDS:
        return None, end  # "if token is Name:" compares objects
    value = inner if quoted else _strip_value(inner)
    if (
        len(value) < _SHORTEST_SECRET
        or _is_placeholder(value)
        or _is_path(value)
        or _is_prose_word(value.strip("*_"))
    ):
        return None, end
    following = text[offset + len(value) : offset + len(value) + 1]
    if not quoted and (following in ("(", "[") or _is_reference(value)):
        return None, end  # "the token is self.token", "the password is getpass()"
    kind = "password" if subject.replace(" ", "").startswith(_PASSWORD_SUBJECTS) else "secret"
    if kind == "secret" and not _value_counts(value, GENERATED):
        return None, end  # keys and tokens are generated; "the last token was whitespace" is not
    return (offset, offset + len(value), _marker(kind)), end


# fmt: off
_WORD_ENDINGS = (
    "ed", "en", "ing", "ly", "able", "ible", "ive", "ous", "ful", "less", "ment", "tion",
    "sion", "ness", "ize", "ise",
)
# fmt: on


def _is_prose_word(value: str) -> bool:
    """Tell whether a value after "is" is an ordinary word ("expired", "suppressed").

    >>> _is_prose_word("suppressed"), _is_prose_word("hunter2"), _is_prose_word("swordfish")
    (True, False, False)
    """
    lowered = value.lower()
    if lowered in _STOPWORDS:
        return True
    return value.isalpha() and value.islower() and lowered.endswith(_WORD_ENDINGS)


# fmt: off
_CODE_WORDS = frozenset(
    {"if", "elif", "assert", "while", "and", "or", "not", "return", "lambda"},
)
# fmt: on
# fmt: off
_PASSWORD_SUBJECTS = (
    "pass", "pwd", "pin", "비밀번호", "비번", "패스", "암호", "핀번호",
)
# fmt: on


# ---------------------------------------------------------------------------------------
# Commands that carry a secret in an argument or read one from a pipe, and secret-setting
# statements (SQL, .pgpass lines, "use X as NAME"). Each pass has a cheap guard; the shell
# words of a line are read only on lines where a guard word occurs.
# ---------------------------------------------------------------------------------------

# fmt: off
# Programs whose flags carry a password: {program: {flag: how the value is written}}.
# "next": the next word; "glued": right after the flag (-pX); "either": both;
# "after%": the part after % of the next word (user%password); "after,": after a comma.
_LDAP = {"-w": "either"}
_FLAG_SECRETS: dict[str, dict[str, str]] = {
    **dict.fromkeys((
        "ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldapcompare",
        "ldapmodrdn", "ldapexop", "ldapurl",
    ), _LDAP),
    "ldappasswd": {"-w": "either", "-s": "either", "-a": "either"},
    "zip": {"-P": "next"}, "zipcloak": {"-P": "next"}, "unzip": {"-P": "next"},
    "7z": {"-p": "glued"}, "7za": {"-p": "glued"}, "7zr": {"-p": "glued"},
    "rar": {"-p": "glued"}, "unrar": {"-p": "glued"},
    "sqlcmd": {"-P": "either"}, "bcp": {"-P": "either"}, "isql": {"-P": "either"},
    "mosquitto_pub": {"-P": "next"}, "mosquitto_sub": {"-P": "next"},
    "mosquitto_rr": {"-P": "next"},
    "ssh-keygen": {"-N": "next", "-P": "next"},
    "rdesktop": {"-p": "next"},
    "smbclient": {"-U": "after%"}, "rpcclient": {"-U": "after%"}, "smbmap": {"-p": "next"},
    "smbget": {"-U": "after%"}, "smbcacls": {"-U": "after%"}, "net": {"-U": "after%"},
    "lftp": {"-u": "after,"},
    "openssl": {"-k": "next", "-K": "next"},
    "az": {"-p": "next"},
    "mongosh": {"-p": "either"}, "mongodump": {"-p": "either"}, "mongorestore": {"-p": "either"},
    "mongoexport": {"-p": "either"}, "mongoimport": {"-p": "either"},
    "influx": {"-p": "next"},
    "sshpass": {"-p": "either"},
    "wget": {"--password": "next", "--http-password": "next", "--ftp-password": "next"},
    "curl": {"-u": "after:", "--user": "after:", "--proxy-user": "after:", "-U": "after:"},
}
# Commands that store a secret: the values of their NAME=VALUE words and of these flags.
_SECRET_STORES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("gh", "secret", "set"): ("--body", "-b"),
    ("fly", "secrets", "set"): (),
    ("flyctl", "secrets", "set"): (),
    ("doppler", "secrets", "set"): (),
    ("supabase", "secrets", "set"): (),
    ("vault", "kv", "put"): (),
    ("vault", "kv", "patch"): (),
    ("kubectl", "create", "secret"): ("--from-literal",),
    ("oc", "create", "secret"): ("--from-literal",),
    ("aws", "ssm", "put-parameter"): ("--value",),
    ("aws", "secretsmanager"): ("--secret-string", "--secret-binary"),
    ("az", "keyvault", "secret", "set"): ("--value",),
    ("netlify", "env:set"): (),
    ("redis-cli", "auth"): (),
}
# Programs recognised anywhere in a stage, not only first (positional ones included).
_NAMED_PROGRAMS = frozenset(head[0] for head in _SECRET_STORES) | {"htpasswd", "rabbitmqctl", "mc"}
# What reads a secret from its stdin, so that whatever is echoed into it is one.
_STDIN_FLAGS = ("--password-stdin", "--stdin", "--passphrase-stdin", "--token-stdin")
_STDIN_SINKS = (
    ("chpasswd",), ("passwd",), ("gh", "secret", "set"), ("gh", "auth", "login"),
    ("wrangler", "secret", "put"), ("vercel", "env", "add"), ("docker", "secret", "create"),
    ("fly", "secrets", "import"), ("flyctl", "secrets", "import"), ("kubectl", "create", "secret"),
    ("gcloud", "secrets"), ("vault", "login"), ("npx", "wrangler", "secret", "put"),
    ("netlify", "env:set"), ("doppler", "secrets", "set"), ("htpasswd", "-i"),
    ("cryptsetup",), ("security", "add-generic-password"),
)
_WRAPPERS = frozenset({"sudo", "env", "time", "nohup", "exec", "command", "doas", "npx", "pnpx"})
_ECHOES = frozenset({"echo", "printf"})
_COMMAND_GUARDS = (
    "ldap", "zip", "7z", "rar", "sqlcmd", "bcp", "isql", "mosquitto", "ssh-keygen", "rdesktop",
    "smb", "rpcclient", "net ", "lftp", "openssl", "az ", "mongo", "influx", "sshpass", "wget",
    "secret", "stdin", "chpasswd", "passwd", "sudo -s", "vault", "ssm", "env:set", "htpasswd",
    "rabbitmqctl", "redis-cli", "env add", "mc alias", "mcli alias", "curl",
)
# fmt: on


def _apply_spans(text: str, spans: list[Span]) -> str:
    """Replace each (start, end, kind) of ``spans`` by its marker; overlaps keep the first."""
    if not spans:
        return text
    markers = _marker_spans(text)
    pieces: list[str] = []
    last = 0
    for start, end, kind in sorted(spans):
        if start < last or start >= end or any(a < end and start < b for a, b in markers):
            continue  # overlapping an edit made already, or a marker of an earlier rule
        pieces += (text[last:start], _marker(kind))
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _marker_spans(text: str) -> list[tuple[int, int]]:
    """Return where the markers already in ``text`` are (no later pass may cut into one)."""
    spans = []
    index = text.find(_MARK)
    while index >= 0:
        end = text.find("]", index)
        end = len(text) if end < 0 else end + 1
        spans.append((index, end))
        index = text.find(_MARK, end)
    return spans


def _apply_commands(text: str, folded: str) -> str:
    """Redact what the commands of the tables above carry (flags, stores, stdin sinks).

    Only the lines where one of their names occurs are read as shell words.
    """
    lines: set[tuple[int, int]] = set()
    for guard in _COMMAND_GUARDS:
        index = folded.find(guard)
        while index >= 0:
            lines.add(_line_around(text, index))
            index = folded.find(guard, index + 1)
    spans: list[Span] = []
    for start, end in sorted(lines):
        for statement in _statements(text, start, end):
            spans += _statement_spans(text, statement)
    return _apply_spans(text, spans)


def _line_around(text: str, index: int) -> tuple[int, int]:
    """Return the line holding ``index``, continued over trailing backslashes (bounded)."""
    start = text.rfind("\n", max(0, index - 4096), index) + 1
    end = text.find("\n", index)
    while 0 < end < len(text) and text[end - 1] == "\\" and end - start < 16384:  # noqa: PLR2004
        end = text.find("\n", end + 1)
    return start, (len(text) if end < 0 else end)


def _statements(text: str, start: int, end: int) -> list[list[list[Span]]]:
    """Split ``text[start:end]`` into statements of pipeline stages of shell words.

    A word is ``(start, end, unquoted text)``; ``;``, ``&&`` and ``||`` end a statement,
    ``|`` a stage.
    """
    statements: list[list[list[Span]]] = [[[]]]
    for token in _shell_tokens(text, start, end):
        if token[2] in ("\x00;", "\x00&&", "\x00||"):
            statements.append([[]])
        elif token[2] == "\x00|":
            statements[-1].append([])
        else:
            statements[-1][-1].append(token)
    return [[stage for stage in stmt if stage] for stmt in statements if any(stmt)]


_OPERATORS = ("&&", "||", ";", "|")


def _shell_tokens(text: str, start: int, end: int) -> list[Span]:
    r"""Return the words of ``text[start:end]`` (quotes honoured) and its operators.

    Operators come as ``(start, end, "\\x00" + operator)``, words as their unquoted text.
    """
    tokens: list[Span] = []
    word: list[str] = []
    i, begun, quote = start, -1, ""
    while i < end:
        char = text[i]
        if quote:
            quote, i = _in_quotes(text, i, end, quote, word)
            continue
        if char.isspace() or char in ";&|<>()":
            if begun >= 0:
                tokens.append((begun, i, "".join(word)))
                word, begun = [], -1
            operator = next((o for o in _OPERATORS if text.startswith(o, i)), "")
            if operator:
                tokens.append((i, i + len(operator), "\x00" + operator))
                i += len(operator)
                continue
        elif char in "'\"":
            quote, begun = char, (i if begun < 0 else begun)
        else:
            if char == "\\" and i + 1 < end:
                i += 1
            word.append(text[i])
            begun = i if begun < 0 else begun
        i += 1
    if begun >= 0:
        tokens.append((begun, end, "".join(word)))
    return tokens


def _in_quotes(text: str, i: int, end: int, quote: str, word: list[str]) -> tuple[str, int]:
    """Read one character inside quotes into ``word``; return the quote still open and next i."""
    char = text[i]
    if char == quote:
        return "", i + 1
    if char == "\\" and quote == '"' and i + 1 < end:
        word.append(text[i + 1])
        return quote, i + 2
    word.append(char)
    return quote, i + 1


def _command_of(stage: list[Span]) -> list[Span]:
    """Drop leading ``VAR=value`` words and wrappers (``sudo -E``, ``env``, ``npx``).

    When a known program appears later in the stage (text before a command: a log line,
    an error message, a sentence), the command starts there.
    """
    for at, token in enumerate(stage[:32]):
        name = token[2].rsplit("/", 1)[-1]
        if at and (name in _FLAG_SECRETS or name in _ECHOES or name in _NAMED_PROGRAMS):
            return stage[at:]
    index = 0
    while index < len(stage):
        word = stage[index][2]
        if "=" in word and word.split("=", 1)[0].isidentifier():
            index += 1
        elif word.rsplit("/", 1)[-1] in _WRAPPERS:
            index += 1
            while index < len(stage) and stage[index][2].startswith("-"):
                index += 1
        else:
            break
    return stage[index:]


def _program(words: list[Span]) -> str:
    return words[0][2].rsplit("/", 1)[-1] if words else ""


def _statement_spans(text: str, stages: list[list[Span]]) -> list[Span]:
    spans: list[Span] = []
    commands = [_command_of(stage) for stage in stages]
    for number, words in enumerate(commands):
        spans += _flag_spans(text, words) + _store_spans(text, words)
        spans += _positional_spans(text, words)
        following = commands[number + 1] if number + 1 < len(commands) else []
        if _program(words) in _ECHOES and _reads_secret_from_stdin(following, stages[number + 1 :]):
            spans += _echoed_spans(text, words)
        if "<<<" in text[stages[number][0][0] : stages[number][-1][1] + 8] and _is_sink(words):
            spans += _here_string_spans(text, stages[number])
    return spans


def _flag_spans(text: str, words: list[Span]) -> list[Span]:
    flags = _FLAG_SECRETS.get(_program(words))
    if not flags:
        return []
    spans: list[Span] = []
    for index, (start, end, word) in enumerate(words[1:], 1):
        for flag, form in flags.items():
            glued = word.startswith(flag) and len(word) > len(flag) and form in ("glued", "either")
            nxt = words[index + 1] if index + 1 < len(words) else None
            if glued:
                skip = len(flag) + (1 if word[len(flag) :].startswith("=") else 0)
                spans += _unquoted(text, (start, end, word), skip)
            elif word == flag and nxt is not None and form in ("next", "either"):
                spans += _unquoted(text, nxt)
            elif word == flag and nxt is not None and form in ("after%", "after,", "after:"):
                cut = nxt[2].find(form[-1])
                if cut > 0:
                    spans += _unquoted(text, nxt, cut + 1)
            elif word.startswith(flag + "=") and form == "next":
                spans += _unquoted(text, (start, end, word), len(flag) + 1)
    return spans


def _unquoted(text: str, word: Span, skip: int = 0, kind: str = "password") -> list[Span]:
    """Return the span of ``word``'s unquoted text past ``skip`` characters, quotes left out."""
    start, end, inner = word
    value = inner[skip:]
    if not value or _is_placeholder(value) or _MARK in value:
        return []
    raw = text[start:end]
    at = raw.rfind(value) if value in raw else -1
    if at < 0:
        return [(start, end, kind)]  # escapes inside: the whole word goes
    return [(start + at, start + at + len(value), kind)]


def _matches_head(words: list[Span], head: tuple[str, ...]) -> bool:
    names = [w[2].rsplit("/", 1)[-1] if i == 0 else w[2].lower() for i, w in enumerate(words)]
    return len(names) >= len(head) and tuple(names[: len(head)]) == head


def _store_spans(text: str, words: list[Span]) -> list[Span]:
    for head, flags in _SECRET_STORES.items():
        if not _matches_head(words, head):
            continue
        spans: list[Span] = []
        rest = words[len(head) :]
        for index, word in enumerate(rest):
            value_flag = next((f for f in flags if word[2] == f or word[2].startswith(f + "=")), "")
            glued = next((f for f in flags if _glued_short(f, word[2])), "")
            if glued and not value_flag:
                spans += _unquoted(text, word, len(glued), kind="cli-secret")
            elif value_flag and word[2] == value_flag and index + 1 < len(rest):
                spans += _unquoted(text, rest[index + 1], kind="cli-secret")
            elif value_flag:
                inner = word[2][len(value_flag) + 1 :]
                cut = inner.find("=") + 1 if value_flag == "--from-literal" else 0
                spans += _unquoted(text, word, len(value_flag) + 1 + cut, kind="cli-secret")
            elif "=" in word[2] and not word[2].startswith("-"):
                name = word[2].split("=", 1)[0]
                if name.replace("-", "_").replace(".", "_").isidentifier():
                    spans += _unquoted(text, word, len(name) + 1, kind="cli-secret")
        if head == ("redis-cli", "auth") and rest:
            spans += _unquoted(text, rest[-1])
        return spans
    return []


def _glued_short(flag: str, word: str) -> bool:
    """Tell whether ``word`` is the short ``flag`` with its value glued on (``-bVALUE``)."""
    return len(flag) == len("-b") and word.startswith(flag) and len(word) > len(flag)


def _positional_spans(text: str, words: list[Span]) -> list[Span]:
    """Passwords given as plain arguments: htpasswd -b, rabbitmqctl, net user, mc alias."""
    program, args = _program(words), words[1:]
    names = [w[2] for w in args]
    if program == "htpasswd" and any(n.startswith("-") and "b" in n for n in names):
        plain = [w for w in args if not w[2].startswith("-")]
        return _unquoted(text, plain[-1]) if len(plain) >= 2 else []  # noqa: PLR2004 - user, pw
    if program == "rabbitmqctl" and names[:1] in (["add_user"], ["change_password"]):
        return _unquoted(text, args[2]) if len(args) >= 3 else []  # noqa: PLR2004
    if program == "net" and names[:1] == ["user"] and len(args) >= 3:  # noqa: PLR2004
        return [] if args[2][2].startswith(("/", "*")) else _unquoted(text, args[2])
    if program in ("mc", "mcli") and names[:2] == ["alias", "set"] and len(args) >= 6:  # noqa: PLR2004
        return _unquoted(text, args[5], kind="cli-secret")
    return []


def _is_sink(words: list[Span]) -> bool:
    names = [w[2] for w in words]
    if any(name in _STDIN_FLAGS for name in names) or ("-S" in names and _program(words) == "sudo"):
        return True
    if any(n in ("-pass", "-passin", "-passout") for n in names) and "stdin" in names:
        return True
    return any(_matches_head(words, head) for head in _STDIN_SINKS)


def _reads_secret_from_stdin(words: list[Span], stages: list[list[Span]]) -> bool:
    """Tell whether the stage after an echo reads a secret on stdin (``sudo -S`` too)."""
    if stages and any(w[2] == "-S" for w in stages[0][:3]) and _program(stages[0]) == "sudo":
        return True
    return bool(words) and _is_sink(words)


def _echoed_spans(text: str, words: list[Span]) -> list[Span]:
    """Return the arguments of ``echo``/``printf`` piped into a sink (``%s`` formats kept)."""
    args = [w for w in words[1:] if not (w[2].startswith("-") and len(w[2]) <= 3)]  # noqa: PLR2004
    if _program(words) == "printf" and len(args) > 1:
        args = args[1:]  # the first is the format
    spans: list[Span] = []
    for word in args:
        value = word[2].replace("\\n", "").strip()
        if value and value not in ("%s", "%s\\n"):
            spans += _unquoted(text, word)
    return spans


def _here_string_spans(text: str, stage: list[Span]) -> list[Span]:
    end = stage[-1][1]
    at = text.find("<<<", stage[0][0], end + 8)
    after = [w for w in stage if w[0] > at]
    return _unquoted(text, after[0]) if at >= 0 and after else []


# SQL that sets a password: ALTER/CREATE USER|ROLE|LOGIN ... [WITH] [ENCRYPTED] PASSWORD
# 'x', IDENTIFIED [WITH plugin] BY 'x', SET PASSWORD [FOR u] = [PASSWORD(]'x'.
_SQL = (
    r"(?:\bpassword\b(?:[ \t]+for[ \t]+[^\s=;]{1,128})?(?:[ \t]*=[ \t]*|[ \t]+)"
    r"(?:password[ \t]*\([ \t]*)?"
    r"|\bidentified(?:[ \t]+with[ \t]+\w{1,64})?[ \t]+by[ \t]+(?:password[ \t]+)?)"
    r"(?:(?P<q>\\?['\"])(?P<value>(?:(?!(?P=q)).){1,256}?)(?P=q)"
    r"|(?<=by )(?P<bare>[^\s;'\"]*[\d!@#$%^&*=_-][^\s;'\"]*))"
)


_SQL_USER = r"\b(?:create|alter)[ \t]+(?:user|role|login)\b"


def _apply_sql(text: str, folded: str) -> str:
    if "password" not in folded and "identified" not in folded:
        return text
    spans = []
    for match in _rx("sql", _SQL, re.IGNORECASE).finditer(text):
        group = "value" if match.group("value") is not None else "bare"
        if group == "bare" and not _rx("sql-user", _SQL_USER, re.IGNORECASE).search(
            text, max(0, match.start() - 200), match.start()
        ):
            continue  # "identified by the next token": prose, not a CREATE USER
        if not _is_placeholder(match.group(group)):
            spans.append((match.start(group), match.end(group), "password"))
    return _apply_spans(text, spans)


# A line of ~/.pgpass: host:port:database:user:password.
_PGPASS = (
    r"(?m)(?:^|(?<=[\s'\"]))"
    r"(?:localhost|\*|[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}|\[[0-9a-fA-F:]{2,45}\]|/[\w/.-]{1,200}):"
    r"(?:\d{3,5}|\*):"
    r"[^\s:'\"]{1,63}:[^\s:'\"]{1,63}:(?P<value>(?:\\:|[^\s'\"\\:]){1,512})(?=[\s'\"]|$)"
)


def _has_pgpass_line(text: str) -> bool:
    """Tell cheaply whether a line reads ``host:port:db:user:password`` (before any regex)."""
    if text.count(":") < 4:  # noqa: PLR2004 - five fields
        return False
    for line in text.splitlines():
        fields = line.strip(" \t'\"").split(":")
        if len(fields) >= 5 and (fields[1].isdigit() or fields[1] == "*") and all(fields[:4]):  # noqa: PLR2004
            return True
    return False


def _apply_pgpass(text: str, folded: str) -> str:
    if "pgpass" not in folded and ":*:" not in text and not _has_pgpass_line(text):
        return text
    spans = [
        (m.start("value"), m.end("value"), "password")
        for m in _rx("pgpass", _PGPASS).finditer(text)
        if not _is_placeholder(m.group("value"))
    ]
    return _apply_spans(text, spans)


# A value told beside a secret's name: quoted (then it may hold blanks, and an apostrophe
# inside a word), or a run of anything but blanks: a made-up password holds any punctuation.
_TOLD_QUOTED = (
    r"\"(?P<dq>[^\"\n]{1,256})\""
    r"|'(?P<sq>(?:[^'\n]|'(?=[A-Za-z])){1,256})'(?![A-Za-z0-9])"
    r"|`(?P<bq>[^`\n]{1,256})`"
    r"|\u201c(?P<cq>[^\u201d\n]{1,256})\u201d"
)
_TOLD_GROUPS = ("dq", "sq", "bq", "cq", "bare")
_SECRET_NAME = r"[A-Z][A-Z0-9]*_[A-Z0-9_]{1,120}|[A-Z]{3,40}"
_DETERMINER = r"(?i:the|our|my|your|their|an?)[ \t]+"
# "use <value> as REDIS_PASSWORD", "take <value> for SMTP_PASSWORD", "<value> = ADMIN_PASSWORD".
# A value starts a word (after a blank, or the text's start): never inside a run of quotes
# or brackets, whose every character could start one and cost a 512-character read.
_NAMED_AFTER = (
    r"(?:^|(?<=\s))(?:" + _TOLD_QUOTED + r"|(?P<bare>\S{3,512}))"
    r"[ \t]+(?i:as|for|into|goes?[ \t]+(?:in|into|to)|is[ \t]+(?:the|our|my)|=)"
    r"[ \t]+(?:" + _DETERMINER + r")?`?"
    r"(?P<name>" + _SECRET_NAME + r")\b"
)
# "<value> is the webhook secret", "<value> is our staging API key".
_VALUE_IS_THE_SECRET = (
    r"(?<![^\s\"'`(])(?P<q>[\"'`]?)(?P<value>[^\s\"'`]{6,512})(?P=q)[ \t]+(?:is|was|=)[ \t]+"
    r"(?:(?:the|our|my|your|a|an)[ \t]+)?(?:[\w-]{1,24}[ \t]+){0,3}"
    r"(?:secret|password|passphrase|passcode|token|api[ \t_-]?key|key|credential|pw)\b"
)
# "set REDIS_PASSWORD to <value>", "change the API_KEY to <value>"; and "REDIS_PASSWORD is
# <value>" (a sentence: the value must look made up, "API_KEY is required" is no secret).
_NAMED_BEFORE = (
    r"(?:\b(?i:set|put|change|update|make|reset|rotate)[ \t]+(?:" + _DETERMINER + r")?"
    r"`?(?P<name>" + _SECRET_NAME + r")`?[ \t]+(?i:to|=)"
    r"|(?<![\w$.-])`?(?P<subject>" + _SECRET_NAME + r")`?[ \t]+"
    r"(?i:is[ \t]+(?:now|set[ \t]+to|still)|was[ \t]+(?:set[ \t]+to|changed[ \t]+to)"
    r"|(?:should|will|must)[ \t]+be|is|was))"
    r"[ \t]+(?:" + _TOLD_QUOTED + r"|(?P<bare>\S{3,512}))"
)
# "<value>를 DB_PASSWORD로 써", "<value> 값을 AWS_SECRET_ACCESS_KEY 로", "<value> 이게 API_KEY 야".
_NAMED_AFTER_KO = (
    r"(?:^|(?<=[\s\uac00-\ud7a3]))"
    r"(?:" + _TOLD_QUOTED + r"|(?P<bare>[^\s\uac00-\ud7a3]{3,512}))"
    r"(?:[ \t]*(?:[을를은는이가도]|으로|로)(?![\uac00-\ud7a3]))?"
    r"(?:[ \t]+(?:값(?:을|은|이|으로)?|이게|이건|이걸|이거|그게|그건|그걸|그거))?[ \t]*"
    r"`?(?P<name>" + _SECRET_NAME + r")`?(?=[ \t]*[\uac00-\ud7a3])"
)
# "DB_PASSWORD로 <value> 써", "DB_PASSWORD는 <value> 야", "DB_PASSWORD 값으로 <value> 넣어".
_NAMED_BEFORE_KO = (
    r"(?<![\w$.-])`?(?P<subject>" + _SECRET_NAME + r")`?[ \t]*(?:값[ \t]*)?"
    r"(?:으로|로|은|는|을|를|이|가|에다가|에다|에는|에)[ \t]*[:=]?[ \t]*"
    r"(?:" + _TOLD_QUOTED + r"|(?P<bare>[^\s\uac00-\ud7a3]{3,512}))"
)
# A value followed by these is a place, not the secret ("API_KEY는 .env에서 읽어").
_KO_PLACE = ("에서", "에게", "에는", "에", "으로부터", "안에", "속에")


# An echo in a process substitution fed to a command: "--data-file <(echo -n 'x')".
_ECHO_SUBSTITUTION = (
    r"<\([ \t]*(?:echo|printf)(?:[ \t]+-[a-zA-Z]{1,3})*[ \t]+"
    r"(?:(?P<q>['\"])(?P<value>[^'\"\n]{1,512})(?P=q)|(?P<bare>[^\s)'\"]{1,512}))[ \t]*\)"
)


def _apply_echo_substitution(text: str, folded: str) -> str:
    if "<(" not in text or not any(w in folded for w in ("secret", "pass", "token", "key")):
        return text
    spans = []
    for match in _rx("echo-substitution", _ECHO_SUBSTITUTION).finditer(text):
        group = "value" if match.group("value") is not None else "bare"
        if not _is_placeholder(match.group(group)):
            spans.append((match.start(group), match.end(group), "cli-secret"))
    return _apply_spans(text, spans)


# A wallet's recovery phrase: 12 to 24 lower-case words after its name.
_MNEMONIC = (
    r"(?:mnemonic|seed[ \t_-]?phrase|recovery[ \t_-]?phrase|secret[ \t_-]?phrase"
    r"|니모닉|시드[ \t]?(?:문구|구문))"
    r"[^\n\w]{0,12}(?:[은는이가]?[ \t]*)?[\"'`]?(?P<value>(?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})"
)


# A row of a key/value table (vault kv get, op item get): "password    <value>".
_TABLE_ROW = r"(?m)^[ \t]*(?P<name>[A-Za-z_][\w.-]{0,63})[ \t]{2,}(?P<value>\S{3,512})[ \t]*$"


def _apply_table_rows(text: str, folded: str) -> str:
    if "  " not in text or not _occurs(
        folded, _SECRET_ANCHORS, lambda i, _: _in_leading_name(folded, i)
    ):
        return text
    spans: list[Span] = []
    for match in _rx("table-row", _TABLE_ROW).finditer(text):
        classified = _name_kind(match.group("name"))
        value = match.group("value")
        if classified is None or _is_placeholder(value) or _is_path(value):
            continue
        if classified[1] == ANY or _value_counts(value, classified[1]):
            spans.append((match.start("value"), match.end("value"), classified[0]))
    return _apply_spans(text, spans)


def _in_leading_name(text: str, index: int) -> bool:
    """Tell whether ``index`` is in the first word of its line (a table row's name).

    As loose as ``_TABLE_ROW`` or looser: any indentation, a name of word characters (of
    any script), ``.`` and ``-``, at most 64 long.
    """
    start = text.rfind("\n", max(0, index - 4096), index) + 1  # minified text: one long line
    head = text[start:index].lstrip(" \t")
    return len(head) < 64 and all(char.isalnum() or char in "_.-" for char in head)  # noqa: PLR2004


def _apply_mnemonic(text: str, folded: str) -> str:
    if not any(w in folded for w in ("mnemonic", "phrase", "니모닉", "시드")):
        return text
    spans = [
        (m.start("value"), m.end("value"), "mnemonic")
        for m in _rx("mnemonic", _MNEMONIC, re.IGNORECASE).finditer(text)
    ]
    return _apply_spans(text, spans)


# Credentials told in prose: "login with bob / <pw>", "admin login: admin / <pw>",
# "pw for the vpn is <pw>", "the password you gave (`<pw>`)", "비번 <pw> 로", "암호: <pw>".
_USER_SLASH_PASSWORD = (
    r"(?:log(?:ged)?[ \t-]?in|sign(?:ed)?[ \t-]?in|credentials?|creds|account|계정|로그인)"
    r"[^\n]{0,40}?(?<![\w/.:@-])(?P<user>[\w.@+-]{2,64})[ \t]*/[ \t]*(?:비번[ \t]*|pw[ \t]*)?"
    r"(?P<value>[^\s/'\"`,;)]{4,128})"
)
_SHORT_PASSWORD_NAME = (
    r"\b(?:pw|pwd|pass|passwd)\b(?:[ \t]+for[ \t]+[^\n]{1,40}?)?[ \t]+(?:is|was|=|:)[ \t]+"
    r"(?P<q>[\"'`]?)(?P<value>[^\s\"'`]{4,128})(?P=q)"
)
_PASSWORD_THEN_QUOTED = r"\bpassword\b[^\n`\"']{0,48}?[(\s][`\"'](?P<value>[^`\"'\s]{4,128})[`\"']"
_KO_PASSWORD_BARE = (
    r"(?:비밀[ \t]?번호|비번|암호|패스워드)[ \t]*[:：]?[ \t]+"
    r"(?P<value>[A-Za-z0-9!@#$%^&*()_+=.~-]{4,128})"
)
# A password people make up: letters, digits and a symbol inside, mixed case, no spaces.
_PASSWORD_SHAPE = (
    r"(?<![\w!#$%^&*+?~.@/=:-])"
    r"(?=[^\s]{0,31}[A-Z])(?=[^\s]{0,31}[a-z])(?=[^\s]{0,31}\d)"
    r"(?P<value>[A-Za-z0-9][A-Za-z0-9._-]{0,30}[!#$%^&*+?~@][A-Za-z0-9!#$%^&*+?~._-]{1,30}"
    r"|[A-Z][a-z]{2,11}[._][A-Z][a-z]{2,11}\d{2,6})"
    r"(?![\w!#$%^&*+?~.@/=:-])"
)
# "creds are ops:Amber!Saffron9943", "login: bob:hunter22" (not "git@github.com:acme/api").
_USER_COLON_PASSWORD = (
    r"(?:creds|credentials?|login|계정)[ \t]*(?:are|is|:|=)?[ \t]*"
    r"(?<![\w/.-])[\w.@+-]{2,64}:(?P<value>[^\s/'\"`,;)]{4,128})(?![/\w])"
)


_LOGIN_WORDS = (
    "login",
    "log in",
    "logged in",
    "log-in",
    "sign in",
    "signin",
    "signed in",
    "credential",
    "creds",
    "account",
    "계정",
    "로그인",
)


# redis-cli's interactive AUTH: "127.0.0.1:6379> AUTH <pw>", "AUTH user <pw>".
_REDIS_AUTH = r"(?m)(?:^|>[ \t]?)AUTH[ \t]+(?:[\w.-]{1,64}[ \t]+)?(?P<value>\S{3,256})[ \t]*$"
# A password passed to a login call: login("bob", "pw"), authenticate(user="bob", password=…).
_CREDENTIAL_CALL = (
    r"\b(?:log_?in|sign_?in|authenticate|auth|connect|basic_auth|set_password)\([ \t]*"
    r"[\"'][^\"'\n]{1,64}[\"'][ \t]*,[ \t]*[\"'](?P<value>[^\"'\n]{4,128})[\"']"
)


def _apply_prose_credentials(text: str, folded: str) -> str:
    spans: list[Span] = []
    patterns = [
        (
            "user-slash",
            _USER_SLASH_PASSWORD,
            _LOGIN_WORDS if " / " in text or "/비번" in text else (),
        ),
        ("short-name", _SHORT_PASSWORD_NAME, ("pw ", "pwd", "pass ", "pass:", "passwd")),
        ("redis-auth", _REDIS_AUTH, ("auth ",)),
        ("password-quoted", _PASSWORD_THEN_QUOTED, ("password",)),
        ("ko-password", _KO_PASSWORD_BARE, ("비밀", "비번", "암호", "패스워드")),
        ("user-colon", _USER_COLON_PASSWORD, ("creds", "credential", "login", "계정")),
        (
            "credential-call",
            _CREDENTIAL_CALL,
            (
                "login(",
                "log_in(",
                "signin(",
                "sign_in(",
                "auth(",
                "authenticate(",
                "connect(",
                "set_password(",
            ),
        ),
    ]
    for key, source, guards in patterns:
        if any(guard in folded for guard in guards):
            for match in _rx(key, source, re.IGNORECASE).finditer(text):
                value = _strip_value(match.group("value"))
                if _prose_password(value):
                    start = match.start("value")
                    spans.append((start, start + len(value), "password"))
    if _has_inner_symbol(text) or _has_word_join(text):
        for match in _rx("password-shape", _PASSWORD_SHAPE).finditer(text):
            value = match.group("value")
            if _MARK not in value and _made_up(value) and not _ends_in_reference(text, match):
                spans.append((match.start("value"), match.end("value"), "password"))
    return _apply_spans(text, spans)


_CHAR_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos|nbsp)\Z")


def _ends_in_reference(text: str, match: re.Match[str]) -> bool:
    """Tell whether a password-shaped token ends in an HTML character reference.

    ``We&#x27;ll`` is "We'll" escaped for a page, not a made-up password: its symbol and
    digits are the reference's (``&#x27;``, ``&#39;``, ``&amp;``), closed by the ``;`` after it.

    >>> text = "We&#x27;ll go"
    >>> _ends_in_reference(text, re.search(r"(?P<value>We&#x27)", text))
    True
    """
    end = match.end("value")
    return text[end : end + 1] == ";" and bool(_CHAR_REFERENCE.search(match.group("value")))


def _made_up(value: str) -> bool:
    """Tell whether a password-shaped token is made up, not code, an address or a locale.

    After its first symbol a password goes on with digits or capitals (``Amber$Pixel7414``);
    ``January+12``, ``sr_RS.UTF-8@latin`` and ``bob@acme.io`` do not.
    """
    _, at, domain = value.partition("@")
    if at and "." in domain:
        return False  # an address: bob@acme.io, pkg@1.2.3
    cut = next((i for i, c in enumerate(value) if c in "!#$%^&*+?~@"), -1)
    if cut < 0:
        return True  # the Word.Word1234 shape
    head, tail = value[:cut], value[cut + 1 :]
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    return (
        letters >= 3  # noqa: PLR2004
        and digits >= 2  # noqa: PLR2004
        and sum(c.isalpha() for c in head) >= 2  # noqa: PLR2004 - "d&0x1F" is code
        and any(c.isalpha() for c in tail)
        and any(c.isdigit() or c.isupper() for c in tail)
    )


def _has_inner_symbol(text: str) -> bool:
    """Tell whether a symbol of a made-up password sits between a letter or digit and another.

    A cheap test (``str.find`` per symbol) before the password pattern is compiled.
    """
    return _occurs(text, "!#$%^&*+?~@", lambda i, _: _mixed_around(text, i), 1)


def _mixed_around(text: str, index: int) -> bool:
    """Tell whether the word around a symbol at ``index`` mixes upper, lower and digits.

    What the password pattern's look-aheads ask for, tested before it is compiled.
    """
    if not (text[index - 1].isalnum() and text[index + 1].isalnum()):
        return False
    start = index
    while start > max(0, index - 31) and not text[start - 1].isspace():
        start -= 1
    end = index
    while end < min(len(text), index + 32) and not text[end].isspace():
        end += 1
    word = text[start:end]
    return (
        any(c.isupper() for c in word)
        and any(c.islower() for c in word)
        and any(c.isdigit() for c in word)
    )


def _has_word_join(text: str) -> bool:
    """Tell whether capitalised words are joined by ``.`` or ``_`` (``Copper.Willow42``)."""
    return _occurs(text, "._", lambda i, _: _joins_words(text, i), 1)


def _joins_words(text: str, index: int) -> bool:
    """Tell whether ``Word`` + the joiner at ``index`` + ``Word`` + digits stand there."""
    start = index
    while start > max(0, index - 12) and text[start - 1].islower():
        start -= 1
    if index - start < 2 or start == 0 or not text[start - 1].isupper():  # noqa: PLR2004
        return False
    end = index + 2
    while end < min(len(text), index + 14) and text[end].islower():
        end += 1
    return text[index + 1].isupper() and end - index > 3 and end < len(text) and text[end].isdigit()  # noqa: PLR2004


def _occurs(
    text: str, needles: Iterable[str], test: Callable[[int, str], bool], start: int = 0
) -> bool:
    """Tell whether ``test(index, needle)`` holds at one of the first 64 places of a needle.

    The cheap look (``str.find``) the passes take before compiling a pattern; an index
    whose needle ends the text is never handed to ``test``.
    """
    for needle in needles:
        index = text.find(needle, start)
        tries = 0
        while 0 <= index < len(text) - len(needle) and tries < _OCCURRENCES:
            if test(index, needle):
                return True
            index = text.find(needle, index + 1)
            tries += 1
    return False


_OCCURRENCES = 64


# Commands whose output is a secret: whatever they print on their own line is one.
_SECRET_READ = (
    r"\bop[ \t]+(?:read|item[ \t]+get[^\n]{0,120}(?:--reveal|--fields))"
    r"|\bvault[ \t]+(?:kv[ \t]+get|read)[^\n]{0,120}-field"
    r"|\baws[ \t]+secretsmanager[ \t]+get-secret-value"
    r"|\baws[ \t]+ssm[ \t]+get-parameters?\b[^\n]{0,200}--with-decryption"
    r"|\bgcloud[ \t]+secrets[ \t]+versions[ \t]+access|\baz[ \t]+keyvault[ \t]+secret[ \t]+show"
    r"|\bsecurity[ \t]+find-(?:generic|internet)-password[^\n]{0,200}-w\b"
    r"|\b(?:gopass|pass)[ \t]+show\b|\bdoppler[ \t]+secrets[ \t]+get|\bheroku[ \t]+config:get"
    r"|\bkubectl[ \t]+get[ \t]+secrets?\b[^\n]{0,200}jsonpath"
    r"|\bbw[ \t]+get[ \t]+password|\blpass[ \t]+show[^\n]{0,120}--password"
)
_SECRET_READ_GUARDS = (
    "op read",
    "op item",
    "vault ",
    "secretsmanager",
    "ssm get",
    "gcloud secrets",
    "keyvault",
    "find-generic",
    "find-internet",
    "pass show",
    "doppler",
    "config:get",
    "kubectl get secret",
    "bw get",
    "lpass",
)


def reads_secret(command: str) -> bool:
    """Tell whether ``command`` prints a secret (``op read``, ``vault kv get -field``...).

    >>> reads_secret("op read op://Eng/api/credential"), reads_secret("op --version")
    (True, False)
    """
    folded = command.lower()
    if not any(guard in folded for guard in _SECRET_READ_GUARDS):
        return False
    return bool(_rx("secret-read", _SECRET_READ, re.IGNORECASE).search(command))


def _apply_secret_reads(text: str, folded: str) -> str:
    """Redact the one-word lines printed right after a command that reads a secret."""
    if not any(guard in folded for guard in _SECRET_READ_GUARDS):
        return text
    spans: list[Span] = []
    for match in _rx("secret-read", _SECRET_READ, re.IGNORECASE).finditer(text):
        position = text.find("\n", match.end())
        for _line in range(4):  # the value, perhaps after a blank line or two
            if position < 0:
                break
            end = text.find("\n", position + 1)
            end = len(text) if end < 0 else end
            line = text[position + 1 : end]
            value = line.strip().strip("`")
            if value and " " not in value and not _is_placeholder(value):
                start = position + 1 + line.find(value)
                spans.append((start, start + len(value), "secret-output"))
                break
            position = end if end < len(text) else -1
    return _apply_spans(text, spans)


def _prose_password(value: str) -> bool:
    """Tell whether a value told in prose is a password, not a word, a path or code."""
    if _MARK in value or _is_placeholder(value) or _is_path(value) or _is_prose_word(value):
        return False
    if any(c in value for c in "()[]{},;") or _is_reference(value):
        return False  # "passwd = _raw_input(prompt, …)": code
    return _made_up_value(value)


def _made_up_value(value: str) -> bool:
    """Tell whether a value looks made up: a digit or a symbol in it, or mixed case.

    Not a word, an assignment (``sslmode=require``) or an address (``git@github.com:a/b``).

    >>> [_made_up_value(v) for v in ("Expired", "hunter2", "Q=^-G1k!8Q", "sslmode=require")]
    [False, True, True, False]
    """
    name, equals, _ = value.partition("=")
    if (
        equals
        and len(name) > 1
        and name.isidentifier()
        and (name.islower() or name.isupper() or "_" in name)
    ):
        return False  # "key=value": an assignment, read by the assignment rule
    if _is_address(value) or (value.isalpha() and (value.islower() or value.istitle())):
        return False  # "Password for 'https://minji@github.com'": git asks; "reset": a word
    if any(c.isdigit() for c in value) or any(not c.isalnum() for c in value):
        return True
    return len(value) >= 8 and value != value.lower() and value != value.upper()  # noqa: PLR2004


def _anchor_follows(folded: str, words: tuple[str, ...], within: int) -> bool:
    """Tell whether a secret's name may follow one of ``words`` (cheap, before any regex)."""

    def followed(index: int, word: str) -> bool:
        window = folded[index + len(word) : index + len(word) + within]
        return any(anchor in window for anchor in _SECRET_ANCHORS)

    return _occurs(folded, words, followed)


def _apply_named_after(text: str, folded: str) -> str:
    """Redact values told beside a secret's name, in either order, in English and Korean."""
    spans: list[Span] = []
    if _anchor_follows(folded, (" is ", " was ", " = "), 48):
        for match in _rx("value-is-the-secret", _VALUE_IS_THE_SECRET, re.IGNORECASE).finditer(text):
            value = _strip_value(match.group("value"))
            if _prose_password(value) and (_looks_generated(value) or len(value) >= 12):  # noqa: PLR2004
                spans.append((match.start("value"), match.start("value") + len(value), "secret"))
    if not any(anchor in text for anchor in _UPPER_ANCHORS):
        return _apply_spans(text, spans)  # every name these forms read is written in capitals
    if _anchor_follows(folded, (" as ", " for ", " into ", " is ", " = "), 40):
        spans += _told_spans(_rx("named-after", _NAMED_AFTER), text)
    if any(word in folded for word in _NAMED_BEFORE_WORDS):
        spans += _told_spans(_rx("named-before", _NAMED_BEFORE), text, name_first=True)
    if not text.isascii() and any("\uac00" <= char <= "\ud7a3" for char in text):
        spans += _told_spans(_rx("named-after-ko", _NAMED_AFTER_KO), text)
        before_ko = _rx("named-before-ko", _NAMED_BEFORE_KO)
        spans += _told_spans(before_ko, text, name_first=True, korean=True)
    return _apply_spans(text, spans)


_UPPER_ANCHORS = tuple(anchor.upper() for anchor in _SECRET_ANCHORS)
_NAMED_BEFORE_WORDS = ("set ", "put ", "change ", "update ", "make ", "reset ", "rotate ", " is ",
                       " was ", " be ")  # fmt: skip


def _told_spans(
    pattern: re.Pattern[str], text: str, *, name_first: bool = False, korean: bool = False
) -> list[Span]:
    """Return the spans of the secrets told by ``pattern``'s matches (a name and a value).

    A ``subject`` (``API_KEY is <value>``, ``API_KEY는 <value>``) is a sentence about the
    name, so its value must look made up; a ``name`` (``use <value> as API_KEY``,
    ``set API_KEY to <value>``) assigns, so any literal counts.
    """
    spans: list[Span] = []
    for match in pattern.finditer(text):
        subject = match.groupdict().get("subject")
        classified = _name_kind(subject or match.group("name"))
        if classified is None:
            continue
        start, value = _told_value(match, name_first=name_first)
        end = start + len(value)
        if korean and text.startswith(_KO_PLACE, end):
            continue  # "API_KEY는 1Password에 있어": where it is kept, not what it is
        if _is_told_secret(value, classified[1], sentence=subject is not None):
            spans.append((start, end, classified[0]))
    return spans


def _told_value(match: re.Match[str], *, name_first: bool) -> tuple[int, str]:
    r"""Return where a told value starts and the value (quotes and sentence marks left out).

    A line break escaped in a JSON string (``\n``) bounds it: before the name, the value
    is what follows the last one; after the name, what precedes the first.
    """
    group = next(name for name in _TOLD_GROUPS if match.group(name) is not None)
    start, value = match.start(group), match.group(group)
    if group != "bare":
        return start, value
    for escape in ("\\n", "\\t", "\\r"):
        if name_first:
            value = value.split(escape, 1)[0]
        elif escape in value:
            cut = value.rindex(escape) + len(escape)
            start, value = start + cut, value[cut:]
    return _unwrapped(start, value)


_BRACKETS = {"(": ")", "[": "]", "{": "}"}


def _unwrapped(start: int, value: str) -> tuple[int, str]:
    """Drop what wraps a bare value; return its new start and the value.

    A pair of quotes goes, sentence marks too, and a quote or bracket with no partner
    (``"<value>``, ``<value>``),``).

    >>> _unwrapped(0, "'Tr0ub4dor&3'"), _unwrapped(0, '"<value>'), _unwrapped(0, "x9.y).")
    ((1, 'Tr0ub4dor&3'), (1, '<value>'), (0, 'x9.y'))
    >>> _unwrapped(0, "<value>``,"), _unwrapped(0, "(Paren9)x")
    ((0, '<value>'), (0, '(Paren9)x'))
    """
    while True:
        before = value
        value = value.rstrip(".,;:")
        first, last = value[:1], value[-1:]
        if first in _QUOTE_PAIRS and last == _QUOTE_PAIRS[first] and len(value) > 2:  # noqa: PLR2004
            start, value = start + 1, value[1:-1]
        elif first in _QUOTE_PAIRS and last != _QUOTE_PAIRS[first]:
            start, value = start + 1, value[1:]
        elif last in _QUOTE_PAIRS.values() and first != last:
            value = value[:-1]
        elif first in _BRACKETS and value.count(first) > value.count(_BRACKETS[first]):
            start, value = start + 1, value[1:]
        elif last in ")]}" and value.count(last) > value.count("([{"[")]}".index(last)]):
            value = value[:-1]
        if value == before:
            return start, value


def _is_told_secret(value: str, strength: int, *, sentence: bool) -> bool:
    """Tell whether a value told beside a secret's name is the secret, not a name for it.

    >>> _is_told_secret("hunter2.prod", ANY, sentence=False)
    True
    >>> [_is_told_secret(v, ANY, sentence=True) for v in ("required", "settings.DB_PASSWORD")]
    [False, False]
    """
    if len(value) < _SHORTEST_SECRET + 3 or _MARK in value or _SET_ASIDE in value:
        return False  # "use the default as PASSWORD"
    if value != value.strip():
        return False  # quotes that open on a blank close one string and open the next
    if _is_placeholder(value) or _is_path(value) or _is_reference(value):
        return False
    if _is_prose_word(value) or (strength == RANDOM and not _looks_random(value, _RANDOM_MIN)):
        return False  # "treat this as FOO_KEY"; "use shift as KEY"
    return not sentence or _made_up_value(value)


# ---------------------------------------------------------------------------------------
# The pipeline, in the order the rules run: private keys, token shapes (most specific
# kinds first), then context rules; each later rule sees the markers of earlier ones and
# leaves them alone.
# ---------------------------------------------------------------------------------------

# What must follow a shape's anchor before its pattern is worth compiling.
_FOLLOW = (_TOKEN_CHARS, 12)
_SHAPE_FOLLOW: dict[str, tuple[frozenset[str] | None, int]] = {
    "lob-key": (frozenset("0123456789abcdef_listv"), 40),  # "test_refund…" compiles nothing
    "twilio-key": (frozenset("SKAC0123456789abcdef"), 34),
    "slack-webhook": (None, 0),
    "discord-webhook": (None, 0),
    "twitch-token": (None, 0),
    "sentry-token": (_TOKEN_CHARS | frozenset("+/="), 12),
    "grafana-token": (_TOKEN_CHARS | frozenset("+/="), 12),
}
_AWS_FOLLOW = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

_RULES: tuple[_Rule, ...] = (
    *(
        _Rule(
            kind,
            anchors,
            source,
            _at(extra, *_SHAPE_FOLLOW.get(kind, _FOLLOW)),
            _shape_decide(kind),
        )
        for kind, anchors, source, extra in _SHAPES
    ),
    _Rule("mailchimp-key", ("-us",), _MAILCHIMP, _locate_mailchimp, _shape_decide("mailchimp-key")),
    _Rule(
        "terraform-token",
        (".atlasv1.",),
        _TERRAFORM,
        _locate_back(14),
        _shape_decide("terraform-token"),
    ),
    _Rule(
        "azure-client-secret",
        ("Q~",),
        _AZURE_CLIENT_SECRET,
        _locate_azure_client_secret,
        _shape_decide("azure-client-secret"),
    ),
    _Rule("fcm-server-key", (":APA91b",), _FCM, _locate_back(11), _shape_decide("fcm-server-key")),
    _Rule(
        "newrelic-license-key",
        ("NRAL",),
        _NEW_RELIC_LICENSE,
        _locate_back(36),
        _shape_decide("newrelic-license-key"),
    ),
    _Rule(
        "telegram-bot-token",
        (":AA",),
        _TELEGRAM,
        _locate_telegram,
        _shape_decide("telegram-bot-token"),
    ),
    _Rule("private-key-body", _KEY_BODY_ANCHORS, _KEY_BODY, _locate_key_body, _decide_key_body),
    _Rule(
        "aws-access-key-id",
        ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        _AWS_ID,
        _at("", _AWS_FOLLOW, 20),
        _decide_aws,
    ),
    _Rule(
        "azure",
        (
            "AccountKey=",
            "SharedAccessKey=",
            "SharedAccessSignature=",
            "sig=",
            "X-Amz-Signature=",
            "X-Goog-Signature=",
            "Signature=",
        ),
        _AZURE,
        _locate_azure,
        _decide_azure,
    ),
    _Rule("url", ("://",), _URL, _locate_url, _decide_url),
    _Rule("header", ("authorization",), _HEADER, _locate_header, _decide_header, fold=True),
    _Rule("bearer", ("Bearer",), _BEARER, _at("-"), _decide_bearer),
    _Rule("cookie", ("cookie",), _COOKIE, _locate_cookie, _decide_cookie, fold=True),
    _Rule(
        "short-flag",
        ("-p", "-a", "-u", "--user"),
        _SHORT_FLAG,
        _at("-"),
        _decide_short_flag,
        fold=True,
        requires=("mysql", "mariadb", "sshpass", "redis-cli", "mongo", "login", "curl"),
    ),
    _Rule("flag", _SECRET_ANCHORS, _FLAG, _locate_flag, _decide_flag, fold=True, requires=("-",)),
    _Rule("assign", _SECRET_ANCHORS, _ASSIGN, _locate_assign, _decide_assign, fold=True),
    _Rule("xml", _SECRET_ANCHORS, _XML, _locate_xml, _decide_xml, fold=True, requires=("</",)),
    _Rule("netrc", ("login",), _NETRC, _locate_netrc, _decide_netrc, requires=("password",)),
    _Rule("spaced", _SECRET_ANCHORS, _SPACED, _locate_spaced, _decide_spaced, fold=True),
    _Rule("prose-en", _PROSE_EN_ANCHORS, "", _at("-"), scan=_scan_prose_en, fold=True),
    _Rule("prose-ko", _PROSE_KO_ANCHORS, "", _locate_ko, scan=_scan_prose_ko, fold=True),
)
_ALL_RULES = (1 << len(_RULES)) - 1
_UNGATED = sum(1 << index for index, rule in enumerate(_RULES) if rule.grams is None)

# Passes over the whole text after the rules: each sees the markers of those before it.
_PASSES = (
    _apply_commands,
    _apply_secret_reads,
    _apply_echo_substitution,
    _apply_sql,
    _apply_pgpass,
    _apply_named_after,
    _apply_table_rows,
    _apply_mnemonic,
    _apply_prose_credentials,
)

SECRET_KINDS: tuple[str, ...] = (
    "private-key",
    *(kind for kind, _, _, _ in _SHAPES),
    "mailchimp-key",
    "terraform-token",
    "azure-client-secret",
    "fcm-server-key",
    "newrelic-license-key",
    "telegram-bot-token",
    "aws-access-key-id",
    "aws-secret-access-key",
    "azure-storage-key",
    "azure-sas-token",
    "signed-url",
    "url-password",
    "authorization",
    "cookie",
    "basic-auth",
    "password",
    "cli-secret",
    "env-secret",
    "secret",
    "mnemonic",
    "secret-output",
    "high-entropy-token",
    "too-deep",
    "redaction-error",
)


def redact(text: str) -> str:
    """Return ``text`` with every secret replaced by ``[REDACTED:<kind>]``.

    Idempotent, never raises on a ``str``; anything that is not a ``str`` comes back
    unchanged.

    >>> redact("curl -H 'Authorization: Bearer abc123def456' https://api.example.com")
    "curl -H 'Authorization: Bearer [REDACTED:authorization]' https://api.example.com"
    >>> redact("비밀번호는 hunter2입니다"), redact(42)
    ('비밀번호는 [REDACTED:password]입니다', 42)
    """
    if not isinstance(text, str):
        return text
    text = str.__str__(text)  # a str subclass cannot override what we scan
    known = _MEMO.get(text)
    if known is not None:
        return known
    try:
        clean = _redact(_without_private(text))
    except Exception:  # noqa: BLE001 - handing back unredacted text is the one thing not to do
        return _marker("redaction-error")
    if len(text) <= MEMO_CHARS and len(_MEMO) < MEMO_ENTRIES:
        _MEMO[text] = clean
    return clean


def _without_private(text: str) -> str:
    """Take out ``<private>`` blocks first (core/private.py): whatever is written comes here.

    >>> _without_private("use <private>acme-registry</private> for npm")
    'use [REDACTED:private] for npm'
    """
    return strip_private(text) if "<" in text else text


# Redaction is a pure function of the text, so a process remembers what it redacted: a hook
# writes the same ids, paths and keys in each of its records. Bounded (about 1 MB at most).
MEMO_CHARS = 4_096
MEMO_ENTRIES = 256
_MEMO: dict[str, str] = {}


def _redact(text: str) -> str:
    """Run the rules in order; a rule costs a few ``str.find`` calls when it has no anchor."""
    if len(text) < len("pwd=xy"):  # nothing shorter can hold a name and a value
        return text
    if ";base64," in text and _SET_ASIDE not in text:
        bodies = _data_bodies(text)
        if bodies:
            return _redact_around(text, bodies)
    return _redact_text(text)


def _redact_text(text: str) -> str:
    """Run the rules, the passes and the bare-token test on ``text``."""
    text = _apply_rules(_apply_private_keys(text))
    folded = _folded(text)
    for apply in _PASSES:
        changed = apply(text, folded)
        if changed is not text:
            text, folded = changed, _folded(changed)
    return _apply_bare_tokens(text)


GATE_CHARS = 256  # longer texts: listing their pairs costs more than the finds it saves


def _candidates(text: str, folded: str) -> int:
    """Return the rules that may match ``text``, as a bit mask over ``_RULES`` (bit i: rule i).

    A rule whose anchors all begin with a pair of characters the text lacks cannot match,
    so a short text (most strings of a hook payload: ids, paths, names, descriptions) is
    tested against a handful of rules, not every one, without a single find.
    """
    if len(text) > GATE_CHARS:
        return _ALL_RULES
    plain, fold = _GATES
    mask = _UNGATED
    # zip, not itertools.pairwise: this module also runs under Python 3.8 (core/venv.py)
    for pair in zip(text, text[1:]):  # noqa: B905, RUF007
        mask |= plain.get(pair, 0)
    for pair in zip(folded, folded[1:]):  # noqa: B905, RUF007
        mask |= fold.get(pair, 0)
    return mask


def _gates() -> tuple[dict[tuple[str, str], int], dict[tuple[str, str], int]]:
    """For each pair of characters, the rules (bit mask) with an anchor starting with it."""
    plain: dict[tuple[str, str], int] = {}
    fold: dict[tuple[str, str], int] = {}
    for index, rule in enumerate(_RULES):
        table = fold if rule.fold else plain
        for pair in rule.grams or ():
            table[pair] = table.get(pair, 0) | 1 << index
    return plain, fold


_GATES = _gates()


def _apply_rules(text: str) -> str:
    """Run the rules in order, each on the text the one before left.

    A rule that cannot match the text as it then is (:func:`_candidates`) is skipped.
    """
    folded = _folded(text)
    pending = _candidates(text, folded)
    while pending:
        lowest = pending & -pending
        pending ^= lowest
        changed = _run(_RULES[lowest.bit_length() - 1], text, folded)
        if changed is not text:  # the rules after it look at the new text, as it now is
            text, folded = changed, _folded(changed)
            later = ~((lowest << 1) - 1)  # every rule after this one
            pending = _candidates(text, folded) & later
    return text


def _apply_bare_tokens(text: str) -> str:
    """Last, what no rule named: machine-made tokens standing alone (core/entropy.py)."""
    if len(text) < MIN_LENGTH:
        return text
    spans = bare_tokens(text)
    if not spans:
        return text
    return _apply_spans(text, [(start, end, "high-entropy-token") for start, end in spans])


_MAX_DEPTH = 100
# The fields of a tool call that hold what a command printed.
_OUTPUT_KEYS = frozenset({"output", "stdout", "stderr", "content", "result", "error"})


def redact_value(obj: object, _depth: int = 0) -> object:
    """Return a redacted copy of ``obj``: dicts (keys too), lists, tuples and strings.

    A dict entry whose key names a secret has its string value replaced whole.

    >>> redact_value({"input": {"cmd": "export API_KEY=abc123xyz"}, "pin": 123456})
    {'input': {'cmd': 'export API_KEY=[REDACTED:env-secret]'}, 'pin': '[REDACTED:password]'}
    """
    if _depth > _MAX_DEPTH:
        return _marker("too-deep")  # never hand back a subtree we did not look at
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, dict):
        secret_output = isinstance(obj.get("command"), str) and reads_secret(obj["command"])
        return {
            redact_value(key, _depth + 1): (
                _marker("secret-output")
                if secret_output
                and key in _OUTPUT_KEYS
                and isinstance(value, str)
                and value.strip()
                else _redact_entry(key, value, _depth + 1)
            )
            for key, value in obj.items()
        }
    if isinstance(obj, list):
        return [redact_value(item, _depth + 1) for item in obj]
    if isinstance(obj, tuple):
        return tuple(redact_value(item, _depth + 1) for item in obj)
    return obj


def _redact_entry(key: object, value: object, depth: int) -> object:
    """Redact one dict value, replacing it whole when its key names a secret."""
    if (
        isinstance(key, str)
        and isinstance(value, (str, int, float))
        and not isinstance(value, bool)
    ):
        kind = _entry_kind(key, value)
        if kind is not None:
            return _marker(kind)
    return redact_value(value, depth)


_SESSION_KEY = "session:"


def _entry_kind(key: str, value: str | float) -> str | None:
    """Return the marker kind for ``{key: value}`` when the value must go whole."""
    if key.lower() in ("authorization", "proxy-authorization"):
        classified: tuple[str, int] | None = ("authorization", ANY)
    elif key.lower() in ("cookie", "set-cookie"):
        classified = ("cookie", ANY)
    else:
        classified = _name_kind(key)
    if classified is None:
        return None
    text = value if isinstance(value, str) else str(value)
    if _is_placeholder(text) or not _value_counts(text, classified[1]):
        return None
    if classified[0] == "cookie" and _is_uuid(text):
        return None  # a session's UUID (Claude Code's session_id), not a cookie's value
    if text.startswith(_SESSION_KEY) and _is_uuid(text[len(_SESSION_KEY) :]):
        return None  # a session summary's own key (``"key": "session:<uuid>"``): an id
    if isinstance(value, str) and (_is_path(text) or "\n" in text.strip()):
        return None  # a multi-line text under a secret-ish key is redacted line by line
    return classified[0]
