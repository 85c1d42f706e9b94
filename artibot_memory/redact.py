"""Secret redaction: every secret is replaced by a typed marker before anything is written.

>>> redact("export GITHUB_TOKEN=hunter2hunter2 && mysql -u root -pHunter2")
'export GITHUB_TOKEN=[REDACTED:env-secret] && mysql -u root -p[REDACTED:password]'
>>> redact("git clone https://bob:s3cr3t@example.com/x.git")
'git clone https://bob:[REDACTED:url-password]@example.com/x.git'

Public API: :func:`redact` (one string), :func:`redact_value` (hook payloads: dicts,
lists, tuples and strings, walked recursively) and :data:`SECRET_KINDS`.

Where the formats come from. The token shapes (prefixes, alphabets, lengths) follow the
published rule sets of gitleaks (``config/gitleaks.toml``: aws-access-token, github-pat,
github-fine-grained-pat, gitlab-*, slack-*, stripe-access-token, openai-api-key,
anthropic-api-key, gcp-api-key, sendgrid-api-token, npm-access-token, pypi-upload-token,
huggingface-*, jwt, private-key, curl-auth-user, generic-api-key and its allowlists) and
Yelp's detect-secrets plugins (aws, azure_storage_key, basic_auth, keyword, private_key,
twilio, slack, jwt, openai, sendgrid, npm, gitlab_token). They are re-expressed here, not
copied: this module needs different boundaries (it rewrites text instead of reporting it),
linear-time patterns and a typed marker per kind.

How it runs. This module is imported by the hook that runs after every tool call under a
bare ``python3``, so it uses the standard library only, and it compiles a pattern only
when a cheap literal trigger for it occurs in the text (the gitleaks "keywords" idea): a
command line without secrets costs a few substring checks and no compilation. ``re`` is
the only import, and the hook already pays for it through ``json``. Every pattern starts
behind a look-behind that excludes its own body alphabet, so a pattern is tried at most
once per run of characters, and every open-ended part is bounded: the work stays linear
in the input (1 MB of adversarial text finishes).

Judgement calls (what is kept, what is redacted):

* Kept: placeholders and references, i.e. ``$VAR``, ``${VAR}``, ``$(cmd)``, ``%VAR%``,
  ``{{ x }}``, ``<token>``, ``{token}``, runs of one character (``xxxx``, ``****``),
  values starting with ``your`` or ending in ``here``, values containing ``example``,
  ``placeholder`` or ``dummy``, and the well-known dummies ``changeme``, ``changeit``,
  ``password``, ``secret``, ``token``, ``test``, ``none``, ``null``, ``true``...
  (``changeme`` is a published default, not a secret). Token shapes containing the
  literal ``EXAMPLE`` (AWS documentation keys) are kept too.
* Kept: code whose value is not a literal: ``password = getpass()``,
  ``token = os.environ["TOKEN"]``, ``api_key = settings.API_KEY`` (a call, a subscript
  or a dotted name), a name that itself looks secret (``password=DEFAULT_PASSWORD``),
  type annotations (``token: str``) and comparisons with a variable
  (``if token == expected``). A bare word is still redacted (``password = hunter2``):
  an ini file and a Python file look the same.
* Names: ``KEY``, ``SECRET``, ``TOKEN``, ``PASSWORD``, ``PASSWD``, ``PWD``,
  ``CREDENTIAL(S)``, ``AUTH`` count as word parts (split on ``_ - .`` and camelCase):
  ``API_KEY``, ``apiKey``, ``SECRET_KEY``, ``PGPASSWORD`` are secret; ``KEYBOARD``,
  ``MONKEY``, ``TOKENIZER``, ``max_tokens``, ``KEYS_DIR``, ``primary_key``,
  ``next_page_token``, ``public_key`` are not. A name ending in a descriptive part
  (``_FILE``, ``_PATH``, ``_DIR``, ``_URL``, ``_ID``, ``_NAME``, ``_TYPE``, ``-stdin``...)
  names something about the secret, not the secret: ``--password-file PATH`` and
  ``--password-stdin`` are kept. A bare ``key`` or ``auth`` (``{"Key": "Name"}`` in AWS
  tags) only counts when its value looks random.
* ``PWD=/home/me`` (the shell variable) is kept because path values are kept.
* Flags: ``--key`` alone is not a secret flag (``--key path/to/object``); ``--password``
  with a separate value is redacted even for mysql, where ``--password mydb`` means
  "prompt" and ``mydb`` is a database: over-redacting a database name is the cheap error.
  ``-p`` is only a password for mysql-like clients (attached, ``-pHunter2``), ``sshpass``,
  ``mongo*`` and the ``login`` verb of container tools; ``docker run -p 80:80`` is kept.
* Prose: "my password is hunter2", "비밀번호는 hunter2" are redacted; a common word after
  the verb ("the token is expired", "the password is incorrect") is kept.
* Whole blocks: a private key block is replaced from BEGIN to END, or to the end of the
  text when END is missing (a truncated block is still a key).
* Failure: if redaction itself fails, :func:`redact` returns ``[REDACTED:redaction-error]``
  instead of the original text; nothing unredacted is ever handed back.
"""

from __future__ import annotations

import re

__all__ = ["SECRET_KINDS", "redact", "redact_value"]

_MARK = "[REDACTED:"


def _marker(kind: str) -> str:
    """Return the typed marker for ``kind``.

    >>> _marker("jwt")
    '[REDACTED:jwt]'
    """
    return f"{_MARK}{kind}]"


# ---------------------------------------------------------------------------------------
# Token shapes: (kind, literal triggers, pattern). The whole match is the secret.
# Each pattern opens with a look-behind excluding its own alphabet (one try per run).
# ---------------------------------------------------------------------------------------

_SHAPES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("anthropic-key", ("sk-ant-",), r"(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,300}"),
    (
        "openai-key",
        ("sk-",),
        r"(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300}",
    ),
    (
        "stripe-key",
        ("_live_", "_test_", "_prod_", "whsec_"),
        r"(?<![\w-])(?:(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}|whsec_[A-Za-z0-9]{20,99})(?!\w)",
    ),
    (
        "github-token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_\w{40,255})(?!\w)",
    ),
    (
        "gitlab-token",
        ("glpat-", "gldt-", "glft-", "glrt-", "glcbt-", "glptt-", "glimt-", "glagent-", "gloas-",
         "glsoat-", "glffct-", "glwt-", "GR1348941"),
        r"(?<![\w-])(?:gl(?:pat|dt|ft|rt|cbt|ptt|imt|agent|oas|soat|ffct|wt)-[\w-]{20,300}"
        r"(?:\.[0-9a-z]{9})?|GR1348941[\w-]{20,64})(?![\w-])",
    ),
    (
        "slack-webhook",
        ("hooks.slack.com",),
        r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{8,300}",
    ),
    (
        "slack-token",
        ("xox", "xapp-"),
        r"(?<![\w-])(?:xox[abposre](?:\.xox[bp])?-[A-Za-z0-9-]{10,300}|xapp-\d-[A-Za-z0-9-]{10,300})",
    ),
    ("google-api-key", ("AIza",), r"(?<![\w-])AIza[A-Za-z0-9_-]{35}(?![\w-])"),
    ("twilio-key", ("SK", "AC"), r"(?<![A-Za-z0-9])(?:SK|AC)[0-9a-f]{32}(?![A-Za-z0-9])"),
    (
        "sendgrid-key",
        ("SG.",),
        r"(?<![\w.-])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}(?![\w-])",
    ),
    ("mailgun-key", ("key-",), r"(?<![\w-])key-[0-9a-zA-Z]{32}(?![\w-])"),
    ("mailchimp-key", ("-us",), r"(?<![0-9a-f])[0-9a-f]{32}-us\d{1,2}(?!\w)"),
    ("npm-token", ("npm_",), r"(?<!\w)npm_[A-Za-z0-9]{36}(?!\w)"),
    ("pypi-token", ("pypi-AgE",), r"(?<![\w-])pypi-AgE[A-Za-z0-9_-]{50,1000}"),
    ("docker-token", ("dckr_",), r"(?<![\w-])dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,200}"),
    ("huggingface-token", ("hf_", "api_org_"), r"(?<!\w)(?:hf_|api_org_)[A-Za-z0-9]{30,40}(?!\w)"),
    (
        "jwt",
        ("eyJ",),
        r"(?<![\w.-])eyJ[A-Za-z0-9_-]{5,8192}={0,2}\.eyJ[A-Za-z0-9_-]{5,8192}={0,2}\.[A-Za-z0-9_-]{0,8192}={0,2}",
    ),
    ("digitalocean-token", ("_v1_",), r"(?<!\w)do[opr]_v1_[a-f0-9]{64}(?!\w)"),
    ("shopify-token", ("shp",), r"(?<!\w)shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?!\w)"),
    ("vault-token", ("hvs.", "hvb.", "hvr."), r"(?<![\w.])hv[sbr]\.[\w-]{24,300}"),
    ("databricks-token", ("dapi",), r"(?<!\w)dapi[a-f0-9]{32}(?:-\d)?(?!\w)"),
    (
        "age-secret-key",
        ("AGE-SECRET-KEY-1",),
        r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
    ),
    ("telegram-bot-token", (":AA",), r"(?:(?<=bot)|(?<![\w:]))\d{8,10}:AA[A-Za-z0-9_-]{33}(?![\w-])"),
    ("linear-key", ("lin_api_",), r"(?<!\w)lin_api_[A-Za-z0-9]{40}(?!\w)"),
    ("square-token", ("sq0",), r"(?<![\w-])sq0(?:atp|csp)-[\w-]{22,60}"),
    ("sentry-token", ("sntry",), r"(?<!\w)sntry[us]_[A-Za-z0-9+/=_]{40,400}"),
    ("postman-key", ("PMAK-",), r"(?<!\w)PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?!\w)"),
    (
        "grafana-token",
        ("glsa_", "glc_"),
        r"(?<!\w)(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,3})(?!\w)",
    ),
    ("newrelic-key", ("NRAK-", "NRII-", "NRJS-"), r"(?<!\w)NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}(?!\w)"),
    ("rubygems-token", ("rubygems_",), r"(?<!\w)rubygems_[a-f0-9]{48}(?!\w)"),
    ("pulumi-token", ("pul-",), r"(?<![\w-])pul-[a-f0-9]{40}(?![\w-])"),
    ("doppler-token", ("dp.",), r"(?<![\w.])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}(?!\w)"),
    ("planetscale-token", ("pscale_",), r"(?<!\w)pscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}"),
    ("perplexity-key", ("pplx-",), r"(?<![\w-])pplx-[A-Za-z0-9]{48}(?!\w)"),
    ("heroku-key", ("HRKU-",), r"(?<![\w-])HRKU-AA[0-9a-zA-Z_-]{58}"),
)

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
    return has_digit + has_upper + has_lower >= 2 and (has_digit or (has_upper and has_lower))


# ---------------------------------------------------------------------------------------
# Names: which identifiers name a secret.
# ---------------------------------------------------------------------------------------

_SECRET_PARTS = frozenset(
    {"password", "passwd", "pwd", "passphrase", "passcode", "secret", "secrets", "token",
     "credential", "credentials", "creds", "apikey", "apikeys", "privkey", "privatekey"},
)
_PASS_PARTS = frozenset({"password", "passwd", "pwd", "passphrase", "passcode", "pass"})
_GLUED_ENDINGS = ("password", "passwd", "secret", "token", "apikey", "passphrase")
_GLUED_KEYS = frozenset(
    {"secretkey", "accesskey", "authkey", "appkey", "masterkey", "clientkey", "servicekey",
     "accountkey", "encryptionkey", "enckey", "signingkey", "licensekey", "sessionkey",
     "dbkey", "storagekey", "sharedkey", "hmackey", "webhookkey", "storepass", "keypass",
     "srcstorepass", "deststorepass", "srckeypass", "destkeypass", "dbpass", "rootpass",
     "adminpass", "userpass", "passin", "passout"},
)
# The last word part that makes a name describe a secret rather than hold it.
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
     "rounds", "iterations", "dialog", "modal", "screen", "view", "component", "icon",
     "class", "step", "action", "event", "handler", "callback", "hook", "reset", "update",
     "rate", "interval", "retries", "attempts", "charset", "chars", "mask", "masked", "spec",
     "settings", "setting", "config", "usage", "param", "params", "arg", "args", "description",
     "validity", "duration", "outfile", "infile", "identifier", "identifiers", "re", "pattern"},
)
_KEY_BENIGN_BEFORE = frozenset(
    {"primary", "foreign", "sort", "partition", "hash", "range", "public", "pub", "cache",
     "idempotency", "lookup", "dict", "map", "hot", "shortcut", "bucket", "idx", "index",
     "natural", "schema", "sequence", "unique", "composite", "candidate", "row", "column",
     "group", "object", "tracking", "dedup", "dedupe", "routing", "message", "i18n",
     "translation", "react", "list", "sorting", "order", "join", "cluster", "distribution",
     "shard", "grouping", "cursor", "pagination", "registry", "surrogate", "secondary", "meta",
     "metadata", "attribute", "attr", "entity", "record", "item", "field", "query", "search",
     "host", "known", "gpg", "pgp", "dynamo", "s3", "tag", "tags", "limit", "result", "subset",
     "xml", "json", "dict", "sort", "input", "output", "more", "next", "marker", "paging"},
)
_TOKEN_BENIGN_BEFORE = frozenset(
    {"max", "num", "total", "prompt", "completion", "input", "output", "pad", "eos", "bos",
     "unk", "sep", "cls", "mask", "special", "start", "end", "stop", "page", "next",
     "continuation", "cursor", "sync", "pagination", "resume", "sentence", "word", "bpe",
     "idempotency", "client", "request", "lexer", "parser", "first", "last", "current", "csrf",
     "lock", "action", "invalid", "unexpected", "eof"},
)
_NEGATING_FIRST = frozenset(
    {"no", "without", "skip", "disable", "ask", "prompt", "forgot", "forget", "reset", "change",
     "show", "hide", "has", "is", "require", "requires", "use"},
)
_PUBLIC_PARTS = frozenset({"public", "publishable", "pub"})
_WEAK_ALONE = frozenset({"key", "keys", "auth"})


def _name_parts(name: str) -> list[str]:
    """Split an identifier into lowercase word parts (``_ - .`` and camelCase).

    >>> _name_parts("AWS_SECRET_ACCESS_KEY"), _name_parts("x-apiKey.v2")
    (['aws', 'secret', 'access', 'key'], ['x', 'api', 'key', 'v', '2'])
    """
    return [p.lower() for p in _rx("parts", r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+").findall(name)]


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
    parts = _name_parts(name)
    while parts and parts[-1].isdigit():
        parts.pop()
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
    if strength == GENERATED and len(value) >= 8 and any(c.isdigit() for c in value):
        return any(c.isalpha() for c in value) or len(value) >= 12
    return _looks_random(value, 16 if strength == GENERATED else 12)


def _is_filename(value: str) -> bool:
    """Tell whether ``value`` is a file name (``myCore.private.key``, ``Map_2024.mp4``)."""
    return _rx("filename", r"[\w.-]{1,200}\.(?:[a-z][a-z0-9]{0,4})").fullmatch(value) is not None


def _part_kind(part: str, before: str, *, last: bool) -> str | None:
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

_PLACEHOLDER_WORDS = frozenset(
    {"none", "null", "nil", "true", "false", "undefined", "changeme", "change_me", "change-me",
     "changeit", "password", "passwd", "secret", "token", "example", "placeholder", "dummy",
     "redacted", "hidden", "test", "testing", "fake", "todo", "tbd", "n/a", "na", "str",
     "string", "bytes", "int", "bool", "any", "number", "secretstr", "optional", "bearer",
     "basic", "digest", "required", "optional", "empty", "unset", "default", "prompt", "stdin",
     "env", "file", "yes", "no", "on", "off", "value", "val", "data", "result", "raw", "self",
     "args", "kwargs", "params", "param", "input", "text", "new", "old", "pass", "none."},
)
_STOPWORDS = frozenset(
    {"is", "was", "not", "no", "wrong", "incorrect", "invalid", "expired", "expiring",
     "missing", "required", "empty", "blank", "correct", "valid", "set", "unset", "stored",
     "saved", "encrypted", "hashed", "hidden", "masked", "too", "the", "a", "an", "in", "on",
     "at", "of", "for", "to", "now", "still", "also", "being", "been", "revoked", "rotated",
     "changed", "reset", "updated", "different", "same", "weak", "strong", "long", "short",
     "ok", "okay", "fine", "good", "bad", "right", "here", "there", "this", "that", "it",
     "unknown", "needed", "necessary", "sensitive", "case-sensitive", "only", "used", "ready",
     "generated", "created", "deleted", "removed", "available", "unavailable", "shown",
     "displayed", "printed", "logged", "visible", "secure", "insecure", "safe", "unsafe",
     "compromised", "leaked", "exposed", "public", "private", "optional", "mandatory",
     "disabled", "enabled", "active", "inactive", "locked", "unlocked", "verified",
     "accepted", "rejected", "denied", "refreshed", "renewed", "issued", "granted",
     "provided", "passed", "sent", "received", "configured", "defined", "specified", "given",
     "present", "absent", "known", "unchanged", "like", "as", "and", "or", "but", "if", "when",
     "then", "with", "without", "from", "by", "into", "your", "my", "our", "their", "his",
     "her", "its", "what", "which", "who", "how", "why", "where", "stale", "old", "new",
     "current", "latest", "temporary", "permanent", "all", "any", "some", "every", "each",
     "very", "really", "just", "probably", "likely", "usually", "always", "never", "exactly",
     "least", "more", "less", "than", "about", "around", "over", "under", "kept", "located",
     "found", "typed", "entered", "working", "broken", "failing", "above", "below",
     "following", "next", "previous", "jwt", "oauth", "base64", "hex", "json", "yaml",
     "utf-8", "ascii", "sha256", "bcrypt", "argon2", "not-set", "gone", "lost", "read", "sent",
     "put", "got", "done", "stolen", "forgotten", "written", "given", "taken", "shown", "known",
     "chosen", "reused", "unique", "random", "static", "dynamic", "fixed", "ignored", "one",
     "two", "three", "first", "second", "either", "both", "neither", "whitespace", "expected"},
)
_QUOTE_PAIRS = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019"}


def _is_placeholder(value: str) -> bool:
    """Tell whether ``value`` stands for a secret instead of being one.

    >>> [_is_placeholder(v) for v in ("${TOKEN}", "<token>", "****", "YOUR_API_KEY", "s3cr3t")]
    [True, True, True, True, False]
    """
    v = value.strip()
    if not v or _MARK in v or len(set(v)) == 1:
        return True
    low = v.lower()
    if v[0] in "$%" or "${" in v or "{{" in v or "$(" in v:
        return True
    if (v[0], v[-1]) in (("<", ">"), ("{", "}"), ("[", "]")):
        return True
    if set(low) <= set("x*-_.\u2022"):
        return True
    if _rx("word-ident", r"[A-Za-z][A-Za-z_-]{2,40}").fullmatch(v) and _name_kind(v) is not None:
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
    return value.count("/") >= 2 or "." in value or len(value) < 12


def _looks_random(value: str, minimum: int = 12) -> bool:
    """Tell whether ``value`` looks machine-generated: long, no spaces, many distinct
    characters, and digits among letters or case flipping as often as in random text.

    >>> _looks_random("neverExpires"), _looks_random("3f786850e387550fdab836ed7e6dc881")
    (False, True)
    >>> _looks_random("EmrManagedMasterSecurityGroup"), _looks_random("qTzKpWmRbXvLsNcYdHgF")
    (False, True)
    """
    if len(value) < minimum or len(set(value)) < min(10, len(value) // 2):
        return False
    if any(c.isspace() for c in value):
        return False
    if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
        return True
    # Letters only: random text has short lowercase runs, CamelCase words long ones.
    runs = "".join(c if c.islower() else " " for c in value).split()
    return len(value) >= 16 and len(runs) >= 4 and sum(map(len, runs)) < 3 * len(runs)


def _is_code(value: str, following: str) -> bool:
    """Tell whether an unquoted value is code (call, subscript, attribute, secret name).

    >>> _is_code("getpass", "("), _is_code("settings.API_KEY", ""), _is_code("hunter2", "")
    (True, True, False)
    """
    if not _rx("ident", r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*").fullmatch(value):
        return False
    if following in ("(", "[") or _rx("snake", r"[a-z]+(?:_[a-z]+)+").fullmatch(value):
        return True
    if "." in value:
        return not any(_is_generated_part(part) for part in value.split("."))
    return _name_kind(value) is not None


def _is_generated_part(part: str) -> bool:
    """Tell whether one dotted part looks generated (a token segment, not an attribute).

    >>> _is_generated_part("SECRET_KEY_BASE"), _is_generated_part("LzeqPDg3x8hKuGaGDqYO9gW6")
    (False, True)
    """
    return (
        len(part) >= 16
        and not any(c.isspace() or c in ",;" for c in part)
        and any(c.isdigit() for c in part)
        and any(c.isupper() for c in part)
        and any(c.islower() for c in part)
    )


# ---------------------------------------------------------------------------------------
# Machinery: lazily compiled patterns, a scanner that resumes after declined matches.
# ---------------------------------------------------------------------------------------

_COMPILED: dict[str, re.Pattern[str]] = {}


def _rx(key: str, source: str, flags: int = 0) -> re.Pattern[str]:
    """Compile ``source`` once per process, on first use (compiling is the costly part)."""
    pattern = _COMPILED.get(key)
    if pattern is None:
        pattern = _COMPILED[key] = re.compile(source, flags)
    return pattern


def _scan(text: str, pattern: re.Pattern[str], decide) -> str:  # noqa: ANN001 - internal
    """Apply ``decide(match) -> (start, end, replacement) | None`` to each match.

    Values are captured inside look-aheads, so a declined match resumes right after the
    name and separator: a secret nested in a declined value is still seen.
    """
    pieces: list[str] = []
    last = pos = 0
    while True:
        match = pattern.search(text, pos)
        if match is None:
            break
        edit = decide(match)
        if edit is None:
            pos = max(match.end(), match.start() + 1)
            continue
        start, end, replacement = edit
        pieces += (text[last:start], replacement)
        last, pos = end, max(end, match.end(), start + 1)
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


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
# The rules, in the order they run.
# ---------------------------------------------------------------------------------------


def _apply_private_keys(text: str) -> str:
    """Replace private key blocks, BEGIN to END (or to the end of a truncated text).

    >>> _apply_private_keys("a -----BEGIN RSA PRIVATE KEY-----\\nMIIBOgIBAAJBAKj34GkxFhD9\\n-----END RSA PRIVATE KEY----- b")
    'a [REDACTED:private-key] b'
    """
    if "PRIVATE KEY" in text:
        begin = _rx("pem-begin", r"-----BEGIN[ A-Z0-9_]{0,40}PRIVATE KEY(?: BLOCK)?-----")
        end = _rx("pem-end", r"-----END[ A-Z0-9_]{0,40}PRIVATE KEY(?: BLOCK)?-----")
        pieces: list[str] = []
        pos = 0
        body = _rx("pem-body", r"(?:\s|\\[nr])*(?:[A-Za-z0-9+/=]{16}|Proc-Type:|Version:|Comment:|Hash:)")
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


def _apply_shapes(text: str) -> str:
    """Replace every shaped token (prefix + alphabet + length) whose trigger occurs."""
    for kind, triggers, source in _SHAPES:
        if any(trigger in text for trigger in triggers):
            text = _rx(kind, source).sub(_shape_replacer(kind), text)
    if any(prefix in text for prefix in ("AKIA", "ASIA", "ABIA", "ACCA", "A3T")):
        text = _scan(text, _rx("aws-id", _AWS_ID), _decide_aws)
    return text


def _shape_replacer(kind: str):  # noqa: ANN202 - returns a re.sub callback
    """Build the ``re.sub`` callback for one shape: keep documentation examples."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if "EXAMPLE" in token or (kind in _NEEDS_MIXED and not _looks_generated(token[3:])):
            return token
        return _marker(kind)

    return replace


# An AWS key id, optionally followed on the same line by its 40-character secret key.
_AWS_ID = (
    r"(?<![A-Za-z0-9])(?P<id>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})(?![A-Za-z0-9])"
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


_AZURE = (
    r"(?<![\w-])(?P<name>AccountKey|SharedAccessKey|SharedAccessSignature)=(?=(?P<value>[^;\s\"'<>]{8,4096}))"
    r"|[?&](?P<qname>sig|X-Amz-Signature|X-Goog-Signature|Signature)=(?=(?P<qvalue>[^&\s\"'#<>]{8,1024}))"
)


def _decide_azure(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace an Azure account key / SAS value, or a signed URL's signature."""
    group = "value" if match.group("value") is not None else "qvalue"
    value = match.group(group)
    if _is_placeholder(value):
        return None
    name = match.group("name") or match.group("qname")
    if name in ("AccountKey", "SharedAccessKey"):
        kind = "azure-storage-key"
    elif name in ("SharedAccessSignature", "sig"):
        kind = "azure-sas-token"
    else:
        kind = "signed-url"
    return match.start(group), match.end(group), _marker(kind)


_URL = (
    r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}://"
    r"(?P<user>[^\s:/?#@'\"<>\[\]]{0,256}):(?P<pw>[^\s/'\"<>]{1,512})@"
)


def _decide_url(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the password of ``scheme://user:password@host``."""
    password = match.group("pw")
    if _is_placeholder(password) or password.lower() in ("pass", "pwd"):
        return None
    return match.start("pw"), match.end("pw"), _marker("url-password")


_HEADER = (
    r"(?i)(?<![\w-])(?:proxy-)?authorization(?:\\?[\"'])?[ \t]*[:=][ \t]*(?:\\?[\"'])?"
    r"(?P<scheme>(?:bearer|basic|token|digest|negotiate|ntlm|apikey|api-key|sso-key|hmac|"
    r"aws4-hmac-sha256|otp|jwt|key|oauth)[ \t]+)?(?=(?P<value>[^\r\n\"'\\]{1,2048}))"
)
_MULTI_PART_SCHEMES = ("digest", "hmac", "aws4-hmac-sha256")


def _decide_header(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the credential of an ``Authorization:`` header, keeping the scheme."""
    value = match.group("value")
    scheme = (match.group("scheme") or "").strip().lower()
    if scheme not in _MULTI_PART_SCHEMES:
        token = _rx("token68", r"[A-Za-z0-9._~+/=:$%{}\[\]-]*").match(value.lstrip())
        value = token.group(0).rstrip(",;:") if token else ""
    else:
        value = value.rstrip()
    if not value:
        return None
    if _is_placeholder(value):
        return None
    following = match.string[match.start("value") + len(value) :][:1]
    if not scheme and (not _value_counts(value, GENERATED) or _is_code(value, following)):
        return None  # "authorization = authorization.split()" is code, not a header
    if scheme and _is_code(value, following):
        return None
    start = match.start("value") + (len(match.group("value")) - len(match.group("value").lstrip()))
    return start, start + len(value), _marker("authorization")


_BEARER = r"(?<![\w-])Bearer[ \t]+(?=(?P<value>[A-Za-z0-9._~+/=-]{16,2048}))"


def _decide_bearer(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace a bare ``Bearer <credential>`` outside an Authorization header."""
    if _is_placeholder(match.group("value")):
        return None
    return match.start("value"), match.end("value"), _marker("authorization")


_COOKIE = (
    r"(?m)(?:^|(?<=[\s\"'<>]))(?:set-cookie|cookie|Set-Cookie|Cookie)(?:\\?[\"'])?[ \t]*:"
    r"[ \t]*(?:\\?[\"'])?(?=(?P<value>[^\r\n\"'\\]{1,4096}))"
)


_SESSION_COOKIE_WORDS = (
    "sess", "sid", "token", "auth", "jwt", "key", "secret", "login", "remember", "csrf", "xsrf",
    "sso", "saml", "oidc", "access", "refresh",
)


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
        generated = _is_generated_part(cookie) or (len(cookie) >= 24 and set(cookie.lower()) <= set("0123456789abcdef"))
        if any(word in lowered for word in _SESSION_COOKIE_WORDS) or generated:
            pairs[index] = f"{name}={pair[len(name) + 1 :].replace(cookie, _marker('cookie'))}"
            changed = True
    if not changed:
        return None
    return match.start("value"), match.start("value") + len(value), ";".join(pairs)


_SHORT_FLAG = (
    r"(?<![\w-])(?:-(?P<flag>[pau])|--(?P<long>user)(?=[= \t]))(?P<gap>[ \t]*=?[ \t]*)"
    r"(?=(?P<value>\"[^\"\n]{1,512}\"|'[^'\n]{1,512}'|(?!-)[^\s\"'`;&|<>()]{1,512}))"
)
_MYSQL_LIKE = ("mysql", "mariadb")
_LOGIN_TOOLS = ("docker", "podman", "buildah", "skopeo", "helm", "oras", "nerdctl", "crane")


def _segment_before(text: str, index: int) -> str:
    """Return the shell command segment that ends at ``index`` (bounded look-back)."""
    start = max(0, index - 512)
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


_SECRET_WORD = r"(?i:pass|pwd|secret|token|key|cred|auth|pin)"
_FLAG = (
    r"(?<![\w-])(?P<dash>--?)(?=[\w.-]{0,80}?" + _SECRET_WORD + r")(?P<name>[A-Za-z][\w.-]{0,127})"
    r"(?P<sep>=|[ \t]+)"
    r"(?=(?P<value>\"(?:[^\"\\\n]|\\.){1,1024}\"|'[^'\n]{1,1024}'|(?!-)[^\s\"'`;&|<>()]{1,512}))"
)
_OPENSSL_REFERENCES = ("env:", "file:", "fd:", "stdin")


def _decide_flag(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the value of ``--password X``, ``--token=X``, ``-storepass X``..."""
    classified = _name_kind(match.group("name"))
    if classified is None:
        return None
    offset, inner = _quoted(match.group("value"))
    if classified[1] == RANDOM and not (_looks_random(inner, 16) and any(c.isdigit() for c in inner)):
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
    r"(?<![\w$.-])(?P<q>\\?[\"']|)(?=[\w.-]{0,80}?" + _SECRET_WORD + r")"
    r"(?P<name>[A-Za-z_][\w.-]{0,127})(?P=q)"
    r"(?:[ \t]*:[ \t]*(?:str|string|bytes|SecretStr|Optional\[str\]|str[ \t]*\|[ \t]*None)"
    r"(?=[ \t]*=(?!=)))?"
    r"(?P<sep>[ \t]*(?:=>|:=|==|!=|=|:)[ \t]*)"
    r"(?=(?P<value>(?P<pre>[fbrFBRuU]{1,2}(?=[\"']))?(?:"
    r"\\\"(?P<edq>(?:[^\"\\\n]|\\[^\"\n]){0,4096})(?:\\\")?"
    r"|\"(?P<dq>(?:[^\"\\\n]|\\.){0,4096})\"?"
    r"|'(?P<sq>[^'\n]{0,4096})'?"
    r"|`(?P<bq>[^`\n]{0,4096})`?"
    r"|(?P<bare>[^\s\"'`,;&|<>()\[\]{}]{1,512}))))"
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
    if _is_doc_field(match):
        return None  # ":param password: the password to use" documents, it does not assign
    if _keep_assigned(match, group, value, strength=classified[1]):
        return None
    return match.start(group), match.end(group), _marker(classified[0])


_DOC_TAGS = frozenset(
    {"param", "type", "ivar", "var", "cvar", "arg", "keyword", "kwarg", "returns", "raises", "rtype"},
)


def _is_doc_field(match: re.Match[str]) -> bool:
    """Tell whether the name follows a docstring tag (``:param``, ``@param``)."""
    words = match.string[max(0, match.start() - 40) : match.start()].split()
    return bool(words) and words[-1][:1] in ":@" and words[-1].strip(":@") in _DOC_TAGS


def _word_before(match: re.Match[str]) -> str:
    """Return the lowercase word just before the match ("cache" in "cache key: x")."""
    head = match.string[max(0, match.start() - 40) : match.start()].rstrip(" \t\"'")
    words = head.replace("_", " ").replace("-", " ").split()
    return words[-1].strip(":@,.;()[]{}").lower() if words else ""


def _keep_assigned(match: re.Match[str], group: str, value: str, *, strength: int) -> bool:
    """Tell whether an assigned value is not a literal secret (see module docstring)."""
    if _is_placeholder(value) or _is_path(value):
        return True
    if len(value) < 3 or not _value_counts(value, strength):
        return True
    if strength != ANY and match.group("sep").strip() in ("==", "!="):
        return True  # key == "accept_mode": comparing dictionary keys
    if strength == RANDOM and _word_before(match) in _KEY_BENIGN_BEFORE:
        return True  # "cache key: <sha>"
    if group != "bare":
        return "{" in value and "}" in value and match.group("pre") is not None  # f-string
    if match.group("sep").strip() in ("==", "!="):
        return True  # comparison with a variable, not a literal
    rest = match.string[match.end(group) : match.end(group) + 3].lstrip(" \t")
    if rest.startswith("=") and not rest.startswith("=="):
        return True  # chained assignment: "userid = passwd = acct = ''"
    following = match.string[match.end(group) : match.end(group) + 1]
    if value.isdigit() and len(value) <= 3:
        return True
    return _is_code(value, following) or _is_prose_word(value)


_XML = (
    r"<(?=[\w.:-]{0,80}?" + _SECRET_WORD + r")(?P<name>[A-Za-z_][\w.:-]{0,63})>"
    r"(?=(?P<value>[^<\n]{1,1024})</(?P=name)>)"
)


def _decide_xml(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace ``<password>x</password>`` style elements (Maven, NuGet, app configs)."""
    classified = _name_kind(match.group("name").rsplit(":", 1)[-1])
    value = match.group("value")
    if classified is None or _is_placeholder(value) or not _value_counts(value, classified[1]):
        return None
    return match.start("value"), match.end("value"), _marker(classified[0])


_NETRC = r"(?<![\w-])login\s+\S{1,256}\s+password\s+(?=(?P<value>\S{1,512}))"


def _decide_netrc(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the password of a ``.netrc`` entry (``login u password p``)."""
    if _is_placeholder(match.group("value")):
        return None
    return match.start("value"), match.end("value"), _marker("password")


_SPACED = (
    r"(?<![\w$.-])(?=[\w.-]{0,80}?" + _SECRET_WORD + r")(?P<name>[A-Za-z_][\w.-]{0,127})[ \t]+"
    r"(?=(?P<value>[A-Za-z0-9+/=_.~-]{16,512})(?![^\s\"'`,;)]))"
)


def _decide_spaced(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace a random-looking value that follows a secret name after a space.

    ``aws configure set aws_secret_access_key wJalr...`` has no ``=``.
    """
    classified = _name_kind(match.group("name"))
    value = match.group("value")
    if classified is None or classified[1] == RANDOM or _is_placeholder(value) or _is_path(value):
        return None
    if not (_looks_random(value, 16) and any(c.isdigit() for c in value)):
        return None
    return match.start("value"), match.end("value"), _marker(classified[0])


# Prose values: ASCII-ish words, stopping at whitespace, quotes and Hangul.
_PROSE_VALUE = (
    r"(?=(?P<value>[\"'`\u201c\u2018][^\"'`\u201d\u2019\n]{1,256}[\"'`\u201d\u2019]?"
    r"|[^\s\"'`<\u201c\u201d\u2018\u2019\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]{1,256}))"
)
_PROSE_EN = (
    r"(?i)(?<![\w-])(?P<subject>pass(?:word|phrase|code)|passwd|pwd|pin(?:[ _-]?code)?"
    r"|api[ _-]?(?:key|token|secret)|access[ _-]?(?:key|token)|secret(?:[ _-]?key)?"
    r"|client[ _-]secret|(?:auth|bearer|refresh|session|personal[ _-]access|github|gitlab"
    r"|npm|pypi|slack|openai|anthropic)[ _-]?token|token|credentials?)"
    r"(?:[ \t]+(?:for|of|on|to)(?:[ \t]+[\w.@:/-]{1,60}){1,3}?)?"
    r"(?:[ \t]+(?P<verb>is|was|are|will[ \t]+be|would[ \t]+be|should[ \t]+be|is[ \t]+now|is[ \t]+still"
    r"|has[ \t]+been[ \t]+(?:set|changed|reset)[ \t]+to|(?:is[ \t]+)?(?:set|changed|reset|updated)"
    r"[ \t]+to)(?![\w-])|[ \t]*[:=])[ \t]*[:=]?[ \t]*" + _PROSE_VALUE
)
_PROSE_KO = (
    r"(?P<subject>비밀[ \t]?번호|패스워드|비번|암호|패스[ \t]?프레이즈|토큰"
    r"|(?:API|Api|api|에이피아이)[ \t]?키|(?:액세스|엑세스|접근|인증|시크릿|비밀|개인|프라이빗)[ \t]?(?:키|토큰)"
    r"|시크릿|(?:PIN|핀)[ \t]?번호)(?:\\?[\"'])?"
    r"(?:[ \t]*(?:은|는|이|가|을|를|도|값은|값이)[ \t]*[:=]?|[ \t]*[:=])[ \t]*(?:\\?[\"'])?"
    + _PROSE_VALUE
)


_WORD_ENDINGS = (
    "ed", "en", "ing", "ly", "able", "ible", "ive", "ous", "ful", "less", "ment", "tion", "sion",
    "ness", "ize", "ise",
)


def _is_prose_word(value: str) -> bool:
    """Tell whether a value after "is" is an ordinary word ("expired", "suppressed").

    >>> _is_prose_word("suppressed"), _is_prose_word("hunter2"), _is_prose_word("swordfish")
    (True, False, False)
    """
    lowered = value.lower()
    if lowered in _STOPWORDS:
        return True
    return value.isalpha() and value.islower() and lowered.endswith(_WORD_ENDINGS)


_CODE_WORDS = frozenset({"if", "elif", "assert", "while", "and", "or", "not", "return", "lambda"})
_PASSWORD_SUBJECTS = ("pass", "pwd", "pin", "비밀번호", "비번", "패스", "암호", "핀번호")


def _decide_prose(match: re.Match[str]) -> tuple[int, int, str] | None:
    """Replace the value in "my password is X" / "비밀번호는 X" unless it is a common word."""
    raw = match.group("value")
    offset, inner = _quoted(raw)
    if _is_placeholder(inner) or _word_before(match) in _CODE_WORDS:
        return None  # "if token is Name:" compares objects
    value = inner if offset else _strip_value(inner)
    if len(value) < 3 or _is_placeholder(value) or _is_path(value) or _is_prose_word(value.strip("*_")):
        return None
    following = match.string[match.start("value") + offset + len(value) :][:1]
    if not offset and _is_code(value, following):
        return None
    subject = match.group("subject").lower()
    if "verb" in match.re.groupindex and match.group("verb") is None and not any(c in subject for c in " \t"):
        return None  # "password = x" is the assignment rule's, which knows code from literals
    subject = subject.replace(" ", "").replace("\t", "")
    kind = "password" if subject.startswith(_PASSWORD_SUBJECTS) else "secret"
    if kind == "secret" and not _value_counts(value, GENERATED):
        return None  # keys and tokens are generated; "the last token was whitespace" is not one
    start = match.start("value") + offset
    return start, start + len(value), _marker(kind)


# (name, case-insensitive triggers, pattern key, pattern source, decide)
_CONTEXT_RULES = (
    (("accountkey", "sharedaccess", "sig=", "signature="), "azure", _AZURE, _decide_azure),
    (("://",), "url", _URL, _decide_url),
    (("authorization",), "header", _HEADER, _decide_header),
    (("bearer",), "bearer", _BEARER, _decide_bearer),
    (("cookie",), "cookie", _COOKIE, _decide_cookie),
    (
        ("mysql", "mariadb", "sshpass", "redis-cli", "mongo", "login", "curl"),
        "short-flag",
        _SHORT_FLAG,
        _decide_short_flag,
    ),
    (("pass", "pwd", "secret", "token", "key", "cred", "auth", "pin"), "flag", _FLAG, _decide_flag),
    (
        ("pass", "pwd", "secret", "token", "key", "cred", "auth", "pin"),
        "assign",
        _ASSIGN,
        _decide_assign,
    ),
    (("pass", "pwd", "secret", "token", "key", "cred", "auth", "pin"), "xml", _XML, _decide_xml),
    (("login",), "netrc", _NETRC, _decide_netrc),
    (
        ("pass", "pwd", "secret", "token", "key", "cred", "auth", "pin"),
        "spaced",
        _SPACED,
        _decide_spaced,
    ),
    (
        ("pass", "pwd", "pin", "key", "secret", "token", "credential"),
        "prose-en",
        _PROSE_EN,
        _decide_prose,
    ),
    (
        ("비밀", "비번", "암호", "패스", "토큰", "키", "시크릿", "번호"),
        "prose-ko",
        _PROSE_KO,
        _decide_prose,
    ),
)

SECRET_KINDS: tuple[str, ...] = (
    "private-key",
    *(kind for kind, _, _ in _SHAPES),
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
    try:
        return _redact(str.__str__(text))  # a str subclass cannot override what we scan
    except Exception:  # noqa: BLE001 - handing back unredacted text is the one thing not to do
        return _marker("redaction-error")


def _redact(text: str) -> str:
    """Run the rules in order; a rule runs only when one of its triggers occurs."""
    if len(text) < 6:
        return text
    text = _apply_private_keys(text)
    text = _apply_shapes(text)
    lower = text.lower()
    for triggers, key, source, decide in _CONTEXT_RULES:
        if any(trigger in lower for trigger in triggers):
            text = _scan(text, _rx(key, source), decide)
    return text


_MAX_DEPTH = 100


def redact_value(obj: object, _depth: int = 0) -> object:
    """Return a redacted copy of ``obj``: dicts (keys too), lists, tuples and strings.

    A dict entry whose key names a secret has its string value replaced whole.

    >>> redact_value({"tool_input": {"command": "export API_KEY=abc123xyz"}, "password": "pw1"})
    {'tool_input': {'command': 'export API_KEY=[REDACTED:env-secret]'}, 'password': '[REDACTED:password]'}
    """
    if _depth > _MAX_DEPTH:
        return _marker("too-deep")  # never hand back a subtree we did not look at
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, dict):
        return {
            redact_value(key, _depth + 1): _redact_entry(key, value, _depth + 1)
            for key, value in obj.items()
        }
    if isinstance(obj, list):
        return [redact_value(item, _depth + 1) for item in obj]
    if isinstance(obj, tuple):
        return tuple(redact_value(item, _depth + 1) for item in obj)
    return obj


def _redact_entry(key: object, value: object, depth: int) -> object:
    """Redact one dict value, replacing it whole when its key names a secret."""
    if isinstance(key, str) and isinstance(value, (str, int, float)) and not isinstance(value, bool):
        kind = _entry_kind(key, value)
        if kind is not None:
            return _marker(kind)
    return redact_value(value, depth)


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
    if isinstance(value, str) and (_is_path(text) or "\n" in text.strip()):
        return None  # a multi-line text under a secret-ish key is redacted line by line
    return classified[0]
