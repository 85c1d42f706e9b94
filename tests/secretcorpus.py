"""A seeded corpus of fake secrets, and of look-alikes that must be kept (issue 9).

The corpus measures the redactor; it is not tuned to it. Every secret follows a provider's
published format (prefix, alphabet, length, checksum) and sits in a carrier an agent
session really produces: a shell command, its output or error, a prompt in English or
Korean, a transcript block of each type, a CLI save, an import record. Nothing is stored:
every run draws the same rows from :class:`random.Random` seeded per kind with a string,
so no token sits in git (push protection and secret scanners would flag them) and adding
a kind never changes the rows of another.

Issue 24 added what a wider check found: passwords told beside their names whatever
punctuation they hold ("use <value> as DB_PASSWORD", "<value>를 DB_PASSWORD로 사용해"),
and look-alikes of images pasted as data URLs (real PNG and GIF files, built here with
``struct`` and ``zlib``; other formats open with their real header), git SHAs in
transcripts and logs, URLs with a user name only, and secret names beside a reference.

>>> rows = secrets()
>>> all(row["secret"] in row["text"] for row in rows)
True
>>> rows == secrets()
True
>>> checksum_ok(github_token(random.Random(1), "ghp"))
True

``python tests/secretcorpus.py --write DIR`` dumps both sets as JSON Lines for a person to
read; ``--stats`` prints the counts per kind and per carrier.

Determinism across Python 3.10 to 3.13: only ``Random(str)``, ``choice`` and
``randrange`` are used (their algorithms are fixed since 3.2), and no set or dict is
iterated in an order that depends on string hashing.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import functools
import json
import random
import re
import struct
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

SEED = "artibot-memory/secret-corpus/1"
FIXTURES = Path(__file__).parent / "fixtures" / "secrets"
HAND_WRITTEN_BENIGN = FIXTURES / "benign.jsonl"
FRAGMENT = 16  # a leaked piece this long is a leak (tests/test_no_secret_on_disk.py)

# Where a text comes from, and so which capture path the disk test feeds it through.
CARRIERS = (
    "shell-command",  # a Bash tool call's command (PostToolUse tool_input)
    "command-output",  # its stdout
    "error-output",  # PostToolUseFailure's error, a stderr
    "prompt-en",  # UserPromptSubmit, in English
    "prompt-ko",  # UserPromptSubmit, in Korean
    "transcript-user-text",  # a user row's text in a SessionEnd transcript
    "transcript-assistant-text",  # an assistant text block
    "transcript-thinking",  # an assistant thinking block
    "transcript-tool-use-bash",  # a tool_use block's input.command
    "transcript-tool-use-write",  # a Write tool_use block's input.content
    "transcript-tool-result-string",  # a tool_result whose content is a string
    "transcript-tool-result-list",  # a tool_result whose content is a list of text blocks
    "cli-save",  # artibot-memory save TEXT
    "import-record",  # a line of artibot-memory import
)

DIGITS = "0123456789"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
HEX = DIGITS + "abcdef"
HEX_UPPER = DIGITS + "ABCDEF"
BASE62 = DIGITS + UPPER + LOWER  # this order is the one GitHub's checksum encoding uses
ALNUM = BASE62
ALPHA = UPPER + LOWER
B64 = UPPER + LOWER + DIGITS + "+/"
URLSAFE = UPPER + LOWER + DIGITS + "-_"
B32 = UPPER + "234567"  # AWS key ids
B32_LOWER = LOWER + "234567"  # Azure DevOps PATs
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"  # age secret keys
LOWER_DIGITS = LOWER + DIGITS


def pick(rng: random.Random, alphabet: str, length: int) -> str:
    """Return ``length`` characters drawn from ``alphabet``."""
    return "".join(rng.choice(alphabet) for _ in range(length))


def random_bytes(rng: random.Random, length: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(length))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64url(data: bytes) -> str:
    """URL-safe base64 without padding, as JWTs and many tokens carry it."""
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def uuid4(rng: random.Random) -> str:
    h = pick(rng, HEX, 32)
    variant = rng.choice("89ab")
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{variant}{h[17:20]}-{h[20:]}"


# ---- GitHub's and npm's checksummed tokens -----------------------------------------------
# https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/ and
# https://github.blog/2021-09-23-announcing-npms-new-access-token-format/: a prefix, 30
# random base62 characters, then the CRC32 of those 30 characters in base62, padded to 6.


def base62(number: int, width: int) -> str:
    """Write ``number`` in base62 (0-9, A-Z, a-z), left-padded with ``0`` to ``width``.

    >>> base62(0, 6), base62(61, 1), base62(62, 2), base62(2**32 - 1, 6)
    ('000000', 'z', '10', '4gfFC3')
    """
    digits = ""
    while number:
        number, rest = divmod(number, 62)
        digits = BASE62[rest] + digits
    return digits.rjust(width, "0")


def github_token(rng: random.Random, prefix: str) -> str:
    """A token of GitHub's format (``ghp``, ``gho``, ``ghu``, ``ghs``, ``ghr``) or npm's."""
    body = pick(rng, BASE62, 30)
    return f"{prefix}_{body}{base62(binascii.crc32(body.encode()), 6)}"


CHECKSUMMED = re.compile(r"\b(?:gh[pousr]|npm)_[A-Za-z0-9]{36}\b")


def checksum_ok(token: str) -> bool:
    """Tell whether a ``ghp_``/``npm_``-style token's last 6 characters match its CRC32."""
    body, check = token[4:-6], token[-6:]
    return len(token) == 40 and base62(binascii.crc32(body.encode()), 6) == check


# ---- filling templates -------------------------------------------------------------------

_USERS = ("deploy", "ci-bot", "admin", "jkim", "minji", "svc_app", "appuser", "release",
          "hyunwoo", "alice", "ops", "backend")  # fmt: skip
_HOSTS = ("db.internal", "10.0.3.17", "prod-db-1.c9xk2pq7ab.ap-northeast-2.rds.amazonaws.com",
          "cache.acme.local", "staging.acme.io", "192.168.0.24", "ldap.corp.acme.com",
          "pg-primary.svc.cluster.local")  # fmt: skip
_REPOS = ("acme/api", "acme/web", "shop/backend", "minji/dotfiles", "platform/infra")
_APPS = ("acme-api", "shop-web", "billing-worker", "acme-staging", "notify-svc")
_DBS = ("app", "shop", "billing", "analytics", "orders")
_ENVS = ("production", "staging", "preview", "development")
_REGIONS = ("us-east-1", "ap-northeast-2", "eu-west-1", "us-west-2")
_WORDS = ("maple", "harbor", "falcon", "orbit", "cedar", "tiger", "winter", "copper", "velvet",
          "rocket", "lemon", "pixel", "nova", "amber", "coral", "lunar", "quartz", "saffron",
          "thunder", "willow")  # fmt: skip


def password(rng: random.Random) -> str:
    """A password a person chose or a manager generated: 10 to 24 characters."""
    style = rng.randrange(4)
    if style == 0:
        first, second = rng.choice(_WORDS), rng.choice(_WORDS)
        return f"{first.title()}{rng.choice('!@#$%-_.')}{second.title()}{rng.randrange(10, 9999)}"
    if style == 1:
        return pick(rng, ALNUM + "!@#%^*_-+=", rng.randrange(14, 25))
    if style == 2:
        return f"{rng.choice(_WORDS).title()}{rng.choice('#!@')}{rng.randrange(1000, 99999)}x"
    return pick(rng, ALNUM, rng.randrange(16, 24))


def _date(rng: random.Random) -> str:
    return f"2025-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"


FILLERS: dict[str, Callable[[random.Random], str]] = {
    "user": lambda rng: rng.choice(_USERS),
    "host": lambda rng: rng.choice(_HOSTS),
    "repo": lambda rng: rng.choice(_REPOS),
    "app": lambda rng: rng.choice(_APPS),
    "db": lambda rng: rng.choice(_DBS),
    "env": lambda rng: rng.choice(_ENVS),
    "region": lambda rng: rng.choice(_REGIONS),
    "num": lambda rng: str(rng.randrange(2, 400)),
    "port": lambda rng: rng.choice(("5432", "3306", "6379", "5672", "27017", "8080", "8443")),
    "account": lambda rng: pick(rng, DIGITS, 12),
    "date": _date,
    "clock": lambda rng: f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}",
    "email": lambda rng: f"{rng.choice(_USERS).replace('_', '.')}@acme.io",
    "ip": lambda rng: f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
    "pid": lambda rng: str(rng.randrange(1000, 60000)),
    "ms": lambda rng: str(rng.randrange(12, 2400)),
    "sha7": lambda rng: pick(rng, HEX, 7),
    "sha40": lambda rng: pick(rng, HEX, 40),
    "sha64": lambda rng: pick(rng, HEX, 64),
    "md5": lambda rng: pick(rng, HEX, 32),
    "uuid": uuid4,
    "aws_id": lambda rng: "AKIA" + pick(rng, B32, 16),
    "pw2": password,
    "ghu": lambda rng: github_token(rng, "ghu"),
}

FIELD = re.compile(r"\{([a-z][a-z0-9_]*)\}")


def expand(template: str, rng: random.Random, secret: str = "", vendor: str = "") -> str:
    """Fill ``template``: ``{s}`` is the secret, ``{sj}`` the secret as written inside a JSON
    string, ``{vendor}``/``{slug}`` name its provider, other known names draw fillers.

    Unknown names (``${{ secrets.X }}``, ``{.data.password}``, JSON) are left as they are.
    """
    values = {"s": secret, "sj": json.dumps(secret)[1:-1], "vendor": vendor,
              "slug": vendor.lower().replace(" ", "-")}  # fmt: skip

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in values:
            return values[name]
        maker = FILLERS.get(name)
        return maker(rng) if maker else match.group(0)

    return FIELD.sub(fill, template)


# ---- the two sets ------------------------------------------------------------------------

Template = tuple[str, str]  # (carrier, text with {s} or {sj} once)


@dataclass(frozen=True)
class Kind:
    """One kind of secret: how to make one, how people name it, where it shows up."""

    name: str
    make: Callable[[random.Random], str]
    templates: tuple[Template, ...]
    vendor: str = ""  # set: the shared prose templates name it and add two rows


@dataclass(frozen=True)
class Lookalike:
    """One kind of benign text that resembles a secret."""

    name: str
    templates: tuple[Template, ...]


def _secret_rows(kinds: Iterable[Kind], shared: tuple[Template, ...]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for kind in kinds:
        rng = random.Random(f"{SEED}/secret/{kind.name}")  # noqa: S311 - fakes, not keys
        first = rng.randrange(len(shared))
        second = (first + 1 + rng.randrange(len(shared) - 1)) % len(shared)
        extra = (shared[first], shared[second]) if kind.vendor else ()
        for carrier, template in kind.templates + extra:
            value = kind.make(rng)
            text = expand(template, rng, value, kind.vendor)
            secret = json.dumps(value)[1:-1] if "{sj}" in template else value
            rows.append({"kind": kind.name, "carrier": carrier, "text": text, "secret": secret})
    return rows


def _benign_rows(lookalikes: Iterable[Lookalike]) -> list[dict[str, str]]:
    rows = [json.loads(line) for line in HAND_WRITTEN_BENIGN.read_text("utf-8").splitlines()]
    for kind in lookalikes:
        rng = random.Random(f"{SEED}/benign/{kind.name}")  # noqa: S311 - look-alikes
        for carrier, template in kind.templates:
            rows.append({"kind": kind.name, "carrier": carrier, "text": expand(template, rng)})
    return rows


@functools.cache
def _secrets() -> tuple[dict[str, str], ...]:
    return tuple(_secret_rows(KINDS, SHARED))


@functools.cache
def _benign() -> tuple[dict[str, str], ...]:
    return tuple(_benign_rows(LOOKALIKES))


def secrets() -> list[dict[str, str]]:
    """Every fake secret: ``{"kind", "carrier", "text", "secret"}``, the same on every run."""
    return [dict(row) for row in _secrets()]


def benign() -> list[dict[str, str]]:
    """Every look-alike that must survive byte for byte: ``{"kind", "carrier", "text"}``."""
    return [dict(row) for row in _benign()]


# ---- what counts as a leaked piece -------------------------------------------------------


def forms(secret: str) -> list[str]:
    """How ``secret`` can be written down: as is, inside a JSON string, in base64 (standard
    and URL-safe, unpadded: it may sit inside a longer base64 text)."""
    raw = secret.encode()
    written = [
        secret,
        json.dumps(secret)[1:-1],
        base64.b64encode(raw).decode().rstrip("="),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
    ]
    return list(dict.fromkeys(written))


def _windows(text: str, size: int = FRAGMENT) -> list[str]:
    return [text[i : i + size] for i in range(len(text) - size + 1)]


@functools.cache
def _shared_pieces() -> frozenset[str]:
    """Lower-cased 16-character pieces that the forms of two rows' secrets or more hold: a
    vendor's constant (``IQoJb3JpZ2luX2Vj`` opens every AWS session token, a DER header
    every RSA key, a JWT header most JWTs), which a kept prefix may show without a leak."""
    seen: Counter[str] = Counter()
    for row in _secrets():
        seen.update({piece.lower() for form in forms(row["secret"]) for piece in _windows(form)})
    return frozenset(piece for piece, count in seen.items() if count > 1)


def fragments(secret: str) -> list[str]:
    """Every 16-character piece of ``secret`` that no other corpus secret shares, in order."""
    shared = _shared_pieces()
    return [piece for piece in _windows(secret) if piece.lower() not in shared]


def pieces(secret: str) -> list[str]:
    """The lower-cased pieces of every form of ``secret`` that only it holds, for searching
    lower-cased files (a tag keeps a secret lower-cased)."""
    shared = _shared_pieces()
    own = (piece.lower() for form in forms(secret) for piece in _windows(form))
    return list(dict.fromkeys(piece for piece in own if piece not in shared))


# ---- the command line --------------------------------------------------------------------


def _write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in (("secrets.jsonl", secrets()), ("benign.jsonl", benign())):
        lines = [json.dumps(row, ensure_ascii=False) + "\n" for row in rows]
        (folder / name).write_text("".join(lines), encoding="utf-8")
        print(f"{folder / name}: {len(lines)} rows")


def _stats() -> None:
    for label, rows in (("secrets", secrets()), ("benign", benign())):
        kinds = Counter(row["kind"] for row in rows)
        carriers = Counter(row["carrier"] for row in rows)
        print(f"{label}: {len(rows)} rows, {len(kinds)} kinds, {len(carriers)} carriers")
        for name, count in sorted(carriers.items()):
            print(f"  carrier {name:32} {count:4}")
        for name, count in sorted(kinds.items()):
            print(f"  kind    {name:32} {count:4}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--write", metavar="DIR", type=Path, help="dump both sets as JSON Lines")
    parser.add_argument("--stats", action="store_true", help="print counts per kind and carrier")
    args = parser.parse_args(argv)
    if args.write is None and not args.stats:
        parser.error("give --write DIR, --stats, or both")
    if args.write is not None:
        _write(args.write)
    if args.stats:
        _stats()
    return 0


# =========================================================================================
# The tables. Formats are the providers' published ones (and gitleaks' and detect-secrets'
# rule sets, which document them); the carriers are what Claude Code sessions hold.
# =========================================================================================

Maker = Callable[[random.Random], str]


def token(prefix: str, alphabet: str, length: int, suffix: str = "") -> Maker:
    """A maker of ``prefix`` + ``length`` random characters of ``alphabet`` + ``suffix``."""
    return lambda rng: prefix + pick(rng, alphabet, length) + suffix


def checksummed(prefix: str) -> Maker:
    return lambda rng: github_token(rng, prefix)


def one_of(*makers: Maker) -> Maker:
    """A maker that draws from one of ``makers`` (the variants of one kind)."""
    return lambda rng: rng.choice(makers)(rng)


def _github_fine_grained(rng: random.Random) -> str:
    return f"github_pat_11{pick(rng, UPPER + DIGITS, 20)}_{pick(rng, ALNUM, 59)}"


def _openai_legacy(rng: random.Random) -> str:
    return f"sk-{pick(rng, ALNUM, 20)}T3BlbkFJ{pick(rng, ALNUM, 20)}"


def _terraform_cloud(rng: random.Random) -> str:
    return f"{pick(rng, ALNUM, 14)}.atlasv1.{pick(rng, ALNUM, 67)}"


def _doppler_service(rng: random.Random) -> str:
    return f"dp.st.{rng.choice(('prd', 'dev', 'stg'))}.{pick(rng, ALNUM, 40)}"


def _grafana_service_account(rng: random.Random) -> str:
    return f"glsa_{pick(rng, ALNUM, 32)}_{pick(rng, HEX, 8)}"


def _notion(rng: random.Random) -> str:
    return f"ntn_{pick(rng, DIGITS, 11)}{pick(rng, ALNUM, 35)}"


def _slack_bot(rng: random.Random) -> str:
    return f"xoxb-{pick(rng, DIGITS, 11)}-{pick(rng, DIGITS, 13)}-{pick(rng, ALNUM, 24)}"


def _slack_user(rng: random.Random) -> str:
    return (
        f"xoxp-{pick(rng, DIGITS, 11)}-{pick(rng, DIGITS, 11)}-{pick(rng, DIGITS, 13)}-"
        f"{pick(rng, HEX, 32)}"
    )


def _slack_app(rng: random.Random) -> str:
    return f"xapp-1-A{pick(rng, UPPER + DIGITS, 10)}-{pick(rng, DIGITS, 13)}-{pick(rng, HEX, 64)}"


def _openai(kind: str) -> Maker:
    """``sk-proj-``, ``sk-svcacct-``, ``sk-admin-``: 74 + ``T3BlbkFJ`` ("OpenAI") + 74."""
    return lambda rng: f"sk-{kind}-{pick(rng, URLSAFE, 74)}T3BlbkFJ{pick(rng, URLSAFE, 74)}"


def _aws_session(rng: random.Random) -> str:
    if rng.randrange(4) == 0:  # the older STS format
        return "FwoGZXIvYXdzE" + pick(rng, B64, rng.randrange(300, 380))
    return "IQoJb3JpZ2luX2VjE" + pick(rng, B64, rng.randrange(360, 620))


def _azure_client_secret(rng: random.Random) -> str:
    return pick(rng, ALNUM + "_~.", 3) + rng.choice(DIGITS) + "Q~" + pick(rng, ALNUM + "_~.-", 34)


def _azure_sas_signature(rng: random.Random) -> str:
    sig = b64(random_bytes(rng, 32))
    return sig.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def _atlassian(rng: random.Random) -> str:
    return "ATATT3xFfGF0" + pick(rng, URLSAFE, 171) + "=" + pick(rng, HEX_UPPER, 8)


def _discord_bot(rng: random.Random) -> str:
    user_id = str(rng.randrange(10**17, 10**18 * 2))
    return f"{b64url(user_id.encode())}.{pick(rng, URLSAFE, 6)}.{pick(rng, URLSAFE, 38)}"


def _mailgun(rng: random.Random) -> str:
    return f"{pick(rng, HEX, 32)}-{pick(rng, HEX, 8)}-{pick(rng, HEX, 8)}"


def _sendgrid(rng: random.Random) -> str:
    return f"SG.{pick(rng, URLSAFE, 22)}.{pick(rng, URLSAFE, 43)}"


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def _jwt_with(rng: random.Random, claims: dict[str, object], alg: str) -> str:
    header: dict[str, str] = {"alg": alg, "typ": "JWT"}
    if alg != "HS256" and rng.randrange(2):
        header = {"alg": alg, "kid": pick(rng, URLSAFE, 27), "typ": "JWT"}
    signature = random_bytes(rng, 32 if alg == "HS256" else 256)
    parts = (_compact(header).encode(), _compact(claims).encode())
    return ".".join([*(b64url(part) for part in parts), b64url(signature)])


def jwt(rng: random.Random) -> str:
    issued = 1_740_000_000 + rng.randrange(20_000_000)
    claims: dict[str, object] = rng.choice(
        [
            {"sub": str(rng.randrange(10**6, 10**9)), "name": rng.choice(_USERS), "iat": issued},
            {"iss": "https://auth.acme.io/", "sub": f"auth0|{pick(rng, HEX, 24)}",
             "aud": "https://api.acme.io", "iat": issued, "exp": issued + 86400,
             "scope": "read:orders write:orders"},
            {"user_id": uuid4(rng), "role": "admin", "iat": issued, "exp": issued + 3600},
            {"aud": "authenticated", "exp": issued + 3600, "sub": uuid4(rng),
             "email": f"{rng.choice(_USERS)}@acme.io", "role": "authenticated"},
        ]
    )  # fmt: skip
    return _jwt_with(rng, claims, rng.choice(("HS256", "HS256", "RS256", "ES256")))


def _supabase_service_role(rng: random.Random) -> str:
    issued = 1_700_000_000 + rng.randrange(50_000_000)
    claims = {"iss": "supabase", "ref": pick(rng, LOWER, 20), "role": "service_role",
              "iat": issued, "exp": issued + 315_360_000}  # fmt: skip
    return _jwt_with(rng, claims, "HS256")


def _lines(text: str, width: int) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


def pem_body(der_header: str, length: int, width: int = 64) -> Maker:
    """The base64 lines of a key block: its DER header, random bytes after it."""
    return lambda rng: _lines(der_header + pick(rng, B64, length - len(der_header)), width)


RSA_PKCS1 = pem_body("MIIEowIBAAKCAQEA", 1588)
RSA_PKCS8 = pem_body("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 1624)
EC_SEC1 = pem_body("MHcCAQEEI", 164)
ENCRYPTED_PKCS8 = pem_body("MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 1752)
OPENSSH_ED25519 = pem_body(
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACA",
    399,
    70,
)
PGP_SECRET = pem_body("lQdGBGZ", 620)


def _ec_pem(rng: random.Random) -> str:
    body = EC_SEC1(rng)
    return f"-----BEGIN EC PRIVATE KEY-----\n{body}\n-----END EC PRIVATE KEY-----\n"


def _kube_client_key(rng: random.Random) -> str:
    return b64(_ec_pem(rng).encode())


def _basic(rng: random.Random) -> str:
    return b64(f"{rng.choice(_USERS)}:{password(rng)}".encode())


def _docker_auth(rng: random.Random) -> str:
    secret = rng.choice((password, checksummed("ghp"), token("dckr_pat_", URLSAFE, 27)))(rng)
    return b64(f"{rng.choice(_USERS)}:{secret}".encode())


def _wireguard(rng: random.Random) -> str:
    return b64(random_bytes(rng, 32))


def _django(rng: random.Random) -> str:
    chars = LOWER + DIGITS + "!@#%^&*(-_=+)"
    return rng.choice(("django-insecure-", "")) + pick(rng, chars, 50)


_MNEMONIC = ("abandon", "canyon", "garden", "ocean", "ribbon", "wolf", "zebra", "velvet", "tiger",
             "orbit", "cereal", "drift", "elbow", "fossil", "glory", "harvest", "inmate", "jungle",
             "kitten", "lava", "marble", "noble", "oxygen", "pepper", "quiz", "raven", "salad",
             "tunnel", "unfold", "vessel", "walnut", "yellow", "acid", "bronze", "cactus",
             "dolphin", "embark", "frozen", "gossip", "hockey")  # fmt: skip


def _mnemonic(rng: random.Random) -> str:
    return " ".join(rng.choice(_MNEMONIC) for _ in range(12))


def _bare(rng: random.Random) -> str:
    """A token with nothing to say what it is: base64, hex or URL-safe, 32 to 64 chars."""
    return rng.choice(
        (token("", B64, 40), token("", HEX, 40), token("", URLSAFE, 43), token("", ALNUM, 32),
         token("", HEX, 64))
    )(rng)  # fmt: skip


def _any_value(rng: random.Random) -> str:
    return rng.choice((password, _bare, token("", ALNUM, 24)))(rng)


def _dash_password(rng: random.Random) -> str:
    return "-" + pick(rng, ALNUM, 3) + pick(rng, ALNUM + "_!%.", 13)


def _sentry_org(rng: random.Random) -> str:
    claims = {
        "iat": 1_720_000_000 + rng.randrange(10**7),
        "url": "https://sentry.io",
        "region_url": "https://us.sentry.io",
        "org": rng.choice(("acme", "shop")),
    }
    return f"sntrys_{b64url(_compact(claims).encode())}_{pick(rng, URLSAFE, 43)}"


def _grafana_cloud(rng: random.Random) -> str:
    claims = {
        "o": str(rng.randrange(10**5, 10**6)),
        "n": f"stack-{rng.randrange(10**5)}-hm-read",
        "k": pick(rng, ALNUM, 24),
        "m": {"r": rng.choice(("us", "eu", "prod-ap-south-0"))},
    }
    return "glc_" + b64(_compact(claims).encode())


def _mapbox(rng: random.Random) -> str:
    claims = {"u": rng.choice(_USERS), "a": pick(rng, LOWER_DIGITS, 25)}
    return f"sk.{b64url(_compact(claims).encode())}.{pick(rng, URLSAFE, 22)}"


def _jfrog_identity(rng: random.Random) -> str:
    return b64(f"reftkn:01:{1_760_000_000 + rng.randrange(10**7)}:{pick(rng, ALNUM, 32)}".encode())


def _telegram(rng: random.Random) -> str:
    return f"{rng.randrange(10**8, 10**10)}:AA{pick(rng, URLSAFE, 33)}"


def _salesforce(rng: random.Random) -> str:
    return f"00D{pick(rng, ALNUM, 12)}!{pick(rng, ALNUM + '._', 96)}"


def _firebase_server(rng: random.Random) -> str:
    return f"AAAA{pick(rng, URLSAFE, 7)}:APA91b{pick(rng, URLSAFE, 134)}"


def _vault(rng: random.Random) -> str:
    return rng.choice((token("hvs.", URLSAFE, 24), token("hvs.CAESI", URLSAFE, 86)))(rng)


def _k8s_b64_password(rng: random.Random) -> str:
    return b64(password(rng).encode())


def _heroku(rng: random.Random) -> str:
    return rng.choice((token("HRKU-AA", URLSAFE, 58), uuid4))(rng)


def _netrc_password(rng: random.Random) -> str:
    return rng.choice((password, checksummed("ghp"), token("glpat-", ALNUM + "-_", 20)))(rng)


def _twilio_auth(rng: random.Random) -> str:
    return pick(rng, HEX, 32)


# ---- issue 24: passwords whose punctuation once let them through -------------------------
_PUNCTUATION = ".!@#%^&*/+=?~-_"
_NOT_A_PASSWORD = ("...", "**", "${", "{{", "$(", "//", "__")  # what reads as a mask or a path


def punctuated_password(rng: random.Random) -> str:
    """A password a person makes up or a manager prints, with dots, slashes, ``@``, ``!``, ``#``
    or ``%`` inside (``Copper.Maple42``, ``harbor7.prod19``, ``tiger/Lunar#4821``)."""
    first, second = rng.choice(_WORDS), rng.choice(_WORDS)
    number, mark = rng.randrange(10, 99999), rng.choice("!@#%")
    makers = (
        lambda: f"{first.title()}.{second.title()}{number}",
        lambda: f"{first}{rng.randrange(1, 10)}.{second}{rng.randrange(10, 99)}",
        lambda: f"{first}/{second.title()}{mark}{number}",
        lambda: f"{first.title()}@{second}.{number}!",
        lambda: f"{first}.{second}.{number}{mark}{rng.choice(UPPER)}",
        lambda: f"{first.title()}%{second}{number}.",
        lambda: rng.choice(ALNUM) + pick(rng, ALNUM + _PUNCTUATION, rng.randrange(11, 24)),
    )
    while True:
        value = rng.choice(makers)()
        mixed = any(c in _PUNCTUATION for c in value) and any(c.isalnum() for c in value[-3:])
        if mixed and not any(bad in value for bad in _NOT_A_PASSWORD):
            return value


def passphrase(rng: random.Random) -> str:
    """Words with blanks between them and a number or a mark: only ever written in quotes."""
    words = [rng.choice(_WORDS) for _ in range(rng.randrange(3, 5))]
    return f"{' '.join(words)} {rng.randrange(10, 999)}{rng.choice('!#%.')}"


def _env_file_data(rng: random.Random) -> str:
    """The base64 body of a data URL that carries a ``.env`` file (a download link, an upload)."""
    url = f"postgres://{rng.choice(_USERS)}:{password(rng)}@{rng.choice(_HOSTS)}:5432/app"
    lines = f"DATABASE_URL={url}\nSECRET_KEY={pick(rng, ALNUM, 40)}\nDEBUG=false\n"
    return b64(lines.encode())


# Rows every kind with a vendor adds, two drawn from the kind's own seed: the value with no
# key name beside it, as people paste it ("here's the new one: ..."), in every carrier.
# fmt: off
SHARED: tuple[Template, ...] = (
    ("prompt-en", "why does {s} return 401 when CI calls the {vendor} API?"),
    ("prompt-ko", "{vendor} 키 {s} 로 바꿨는데 CI에서 계속 401이 떠. 왜 그런지 봐 줘"),
    ("prompt-en", "the new one is {s}. Update .env.local and restart the dev server"),
    ("transcript-user-text", "{s} 이거 {vendor} 거야. 배포 스크립트에 넣어 줘"),
    ("prompt-en", "here's the {vendor} credential: {s} — can you wire it in?"),
    ("transcript-thinking", ("The user pasted {s} for {vendor}. I should keep it out of "
                             "config.ts: write it to .env, reference the variable, then rerun "
                             "the failing test.")),
    ("prompt-ko", "새 값은 {s} 이야. .env.local 업데이트하고 서버 다시 띄워 줘"),
    ("transcript-assistant-text", ("I'll put `{s}` into `.env` as the {vendor} credential and "
                                   "rerun the request that failed with 401.")),
    ("transcript-user-text", ("ok I rotated it in the {vendor} dashboard, it's {s} now. try the "
                              "deploy again")),
    ("transcript-tool-result-list", ("Found it in the old runbook (docs/ops/{slug}.md, line "
                                     "{num}):\n\n> {vendor}: {s}\n\nThe staging workflow still "
                                     "reads that value.")),
    ("prompt-ko", "{vendor} 대시보드에서 받은 값이 {s} 인데 이걸로 연결해 줄래?"),
    ("command-output", "{s}\n"),
    ("cli-save", "{vendor} credential for {app} ({env}): {s}"),
    ("transcript-thinking", ("사용자가 {vendor} 값으로 {s} 를 줬다. 코드에 직접 넣지 말고 .env에 "
                             "넣은 뒤 변수로 읽자.")),
    ("import-record", "Rotated the {vendor} credential on {date}; the current one is {s}"),
    ("error-output", ("Error: request to {vendor} failed: 401 Unauthorized\n  credential: {s}\n  "
                      "hint: check that it has not been revoked")),
    ("transcript-tool-result-string", "     1→# {vendor} ({env})\n     2→{s}\n     3→\n"),
    ("prompt-en", "it worked with {s} yesterday but the {vendor} calls fail since this morning"),
    ("transcript-tool-result-list", ("Findings:\n- the {vendor} credential is hard-coded in "
                                     "src/config/{slug}.ts:{num}\n- value: {s}\n- .env.example, "
                                     "which is committed, has it too")),
    ("transcript-assistant-text", ("The failing call sends `{s}`, which the {vendor} console "
                                   "lists as revoked. Once you create a new one I'll update the "
                                   "secret store.")),
    ("import-record", "{vendor} ({env}): {s}"),
    ("cli-save", "{vendor} {env} = {s}"),
    ("error-output", "[{clock}] ERROR {slug}.client: auth failed (401) for {s}; retrying in 30s"),
    ("transcript-tool-result-list", ("{vendor} 설정을 찾았습니다: deploy/{env}.env 의 {num}번째 "
                                     "줄에 {s} 가 그대로 들어 있습니다.")),
)
# fmt: on

# fmt: off
KINDS: tuple[Kind, ...] = (
    # ---- GitHub ---------------------------------------------------------------------------
    Kind("github-pat-classic", checksummed("ghp"), (
        ("shell-command", ("git remote set-url origin https://{user}:{s}@github.com/{repo}.git "
                           "&& git push -u origin main")),
        ("shell-command", ('curl -sS -H "Authorization: token {s}" '
                           '"https://api.github.com/repos/{repo}/actions/runs?per_page=5" | jq '
                           '".workflow_runs[].conclusion"')),
        ("error-output", ("remote: Invalid username or token. Password authentication is not "
                          "supported for Git operations.\nfatal: Authentication failed for "
                          "'https://{user}:{s}@github.com/{repo}.git/'")),
        ("transcript-tool-use-write", "GITHUB_TOKEN={s}\nGITHUB_OWNER=acme\nGITHUB_REPO=api\n"),
        ("transcript-tool-result-string", ("     1→[credential]\n     2→\thelper = store\n     "
                                           '3→[url "https://{s}@github.com/"]\n     '
                                           "4→\tinsteadOf = https://github.com/\n")),
    ), vendor="GitHub"),
    Kind("github-oauth-token", checksummed("gho"), (
        ("command-output", ("github.com:\n    users:\n        {user}:\n            oauth_token: "
                            "{s}\n    user: {user}\n    oauth_token: {s}\n    git_protocol: "
                            "https\n")),
        ("shell-command", ("GH_TOKEN={s} gh pr list --repo {repo} --state open --json "
                           "number,title")),
        ("transcript-tool-use-write", ('{\n    "github-oauth": {\n        "github.com": "{s}"\n  '
                                       "  }\n}\n")),
        ("transcript-tool-use-bash", "gh auth status && echo {s} | gh auth login --with-token"),
    ), vendor="GitHub"),
    Kind("github-user-to-server-token", checksummed("ghu"), (
        ("error-output", ("HttpError: Bad credentials - https://docs.github.com/rest\n    at "
                          "/app/node_modules/@octokit/request/dist-node/index.js:86:21 {\n  "
                          "status: 401,\n  request: {\n    method: 'GET',\n    url: "
                          "'https://api.github.com/user/installations',\n    headers: {\n      "
                          "accept: 'application/vnd.github.v3+json',\n      authorization: "
                          "'token {s}'\n    }\n  }\n}")),
        ("transcript-tool-result-string", ('{"access_token":"{s}","expires_in":28800,"token_type'
                                           '":"bearer","scope":""}')),
        ("shell-command", ("curl -sS https://api.github.com/user -H 'Authorization: Bearer {s}' "
                           "| jq .login")),
    ), vendor="GitHub App"),
    Kind("github-server-to-server-token", checksummed("ghs"), (
        ("shell-command", "git clone https://x-access-token:{s}@github.com/{repo}.git /tmp/build"),
        ("command-output", ('{\n  "token": "{s}",\n  "expires_at": "2025-06-11T11:00:00Z",\n  '
                            '"permissions": {\n    "contents": "read",\n    "metadata": "read"\n'
                            '  },\n  "repository_selection": "selected"\n}\n')),
        ("transcript-tool-use-bash", "GITHUB_TOKEN={s} npx semantic-release --dry-run"),
    ), vendor="GitHub Actions"),
    Kind("github-refresh-token", checksummed("ghr"), (
        ("command-output", ("access_token={ghu}&expires_in=28800&refresh_token={s}&refresh_token"
                            "_expires_in=15811200&scope=&token_type=bearer")),
        ("transcript-tool-use-write", "GITHUB_APP_REFRESH_TOKEN={s}\n"),
    ), vendor="GitHub App"),
    Kind("github-fine-grained-pat", _github_fine_grained, (
        ("shell-command", "echo {s} | gh auth login --hostname github.com --with-token"),
        ("command-output", ("HTTP/2 401\nx-github-request-id: C3F2:1B2A:4D5E6F:7A8B9C:66680000\n"
                            '\n{"message":"Bad '
                            'credentials","documentation_url":"https://docs.github.com/rest","st'
                            'atus":"401"}\n# sent: Authorization: Bearer {s}')),
        ("transcript-tool-use-write", '[github]\ntoken = "{s}"\nowner = "acme"\n'),
        ("prompt-en", ("I made a fine-grained PAT with contents:write only: {s} — push the tag "
                       "with it")),
    ), vendor="GitHub"),
    # ---- GitLab ---------------------------------------------------------------------------
    Kind("gitlab-pat", token("glpat-", ALNUM + "-_", 20), (
        ("shell-command", ('curl --header "PRIVATE-TOKEN: {s}" '
                           '"https://gitlab.com/api/v4/projects/{num}/pipelines?status=failed"')),
        ("shell-command", "git push https://oauth2:{s}@gitlab.com/{repo}.git HEAD:refs/heads/fix"),
        ("transcript-tool-use-write", ('variables:\n  GITLAB_TOKEN: "{s}"\n  DOCKER_DRIVER: '
                                       "overlay2\n")),
    ), vendor="GitLab"),
    Kind("gitlab-pipeline-trigger-token", token("glptt-", HEX, 40), (
        ("shell-command", ("curl -X POST --fail -F token={s} -F ref=main "
                           "https://gitlab.com/api/v4/projects/{num}/trigger/pipeline")),
        ("error-output", ("curl: (22) The requested URL returned error: 404\n+ curl -X POST -F "
                          "token={s} -F ref=release "
                          "https://gitlab.example.com/api/v4/projects/12/trigger/pipeline")),
    ), vendor="GitLab"),
    Kind("gitlab-runner-token", token("glrt-", ALNUM + "-_", 20), (
        ("shell-command", ("gitlab-runner register --non-interactive --url https://gitlab.com "
                           "--token {s} --executor docker --docker-image alpine:3.20")),
        ("command-output", ('concurrent = 4\n\n[[runners]]\n  name = "build-01"\n  url = '
                            '"https://gitlab.com"\n  token = "{s}"\n  executor = "docker"\n')),
    ), vendor="GitLab Runner"),
    Kind("gitlab-deploy-token", token("gldt-", ALNUM + "-_", 20), (
        ("shell-command", "docker login registry.gitlab.com -u gitlab+deploy-token-{num} -p {s}"),
        ("transcript-tool-use-write", ("registry_user: gitlab+deploy-token-{num}\n"
                                       "registry_password: {s}\n")),
    ), vendor="GitLab"),
    # ---- Slack ----------------------------------------------------------------------------
    Kind("slack-bot-token", _slack_bot, (
        ("shell-command", ("curl -sS -X POST https://slack.com/api/chat.postMessage -H "
                           '"Authorization: Bearer {s}" -H "Content-type: application/json" '
                           "--data '{\"channel\":\"#deploys\",\"text\":\"release done\"}'")),
        ("transcript-tool-use-write", "SLACK_BOT_TOKEN={s}\nSLACK_SIGNING_SECRET={md5}\n"),
        ("error-output", ("slack_sdk.errors.SlackApiError: The request to the Slack API failed. "
                          "(url: https://www.slack.com/api/chat.postMessage)\nThe server "
                          "responded with: {'ok': False, 'error': 'not_in_channel'}\n  "
                          "token='{s}'")),
    ), vendor="Slack"),
    Kind("slack-user-token", _slack_user, (
        ("shell-command", ("curl -s "
                           "'https://slack.com/api/conversations.history?channel=C0{num}' -H "
                           "'Authorization: Bearer {s}'")),
        ("transcript-tool-result-string", ("     1→slack:\n     2→  user_token: {s}\n     3→  "
                                           "channel: C04ABCDEF12\n")),
    ), vendor="Slack"),
    Kind("slack-app-token", _slack_app, (
        ("shell-command", "SLACK_APP_TOKEN={s} SLACK_BOT_TOKEN=$BOT python -m bolt_app"),
        ("transcript-tool-use-write", "export SLACK_APP_TOKEN={s}\n"),
    ), vendor="Slack"),
    Kind("slack-webhook-url", token("", ALNUM, 24), (
        ("shell-command", ("curl -X POST -H 'Content-type: application/json' --data "
                           "'{\"text\":\"deploy finished\"}' "
                           "https://hooks.slack.com/services/T0{sha7}/B0{sha7}/{s}")),
        ("transcript-tool-use-write", ("notifications:\n  slack:\n    webhook: "
                                       "https://hooks.slack.com/services/T04A1B2C3D4/B06Z9Y8X7W6"
                                       "/{s}\n")),
        ("prompt-ko", ("슬랙 웹훅 https://hooks.slack.com/services/T04A1B2C3D4/B06Z9Y8X7W6/{s} "
                       "로 배포 알림 보내게 해 줘")),
    )),
    Kind("slack-config-token", token("xoxe.xoxp-1-", ALNUM, 140), (
        ("shell-command", "slack auth login --token {s}"),
        ("command-output", '{"ok":true,"token":"{s}","refresh_token":"xoxe-1-{md5}","exp":43200}'),
    ), vendor="Slack"),
    # ---- Stripe ---------------------------------------------------------------------------
    Kind("stripe-live-secret-key", token("sk_live_51", ALNUM, 96), (
        ("shell-command", ("curl https://api.stripe.com/v1/charges -u {s}: -d amount=2000 -d "
                           "currency=krw -d source=tok_visa")),
        ("transcript-tool-use-write", ("STRIPE_SECRET_KEY={s}\n"
                                       "STRIPE_PUBLISHABLE_KEY=pk_live_51{md5}\n")),
        ("error-output", ("stripe.error.AuthenticationError: Request req_{sha7}: Expired API Key "
                          "provided: {s}")),
        ("transcript-tool-use-bash", ("stripe listen --api-key {s} --forward-to "
                                      "localhost:3000/api/webhooks")),
    ), vendor="Stripe"),
    Kind("stripe-test-secret-key", token("sk_test_51", ALNUM, 96), (
        ("transcript-tool-use-write", "STRIPE_SECRET_KEY={s}\n"),
        ("shell-command", "stripe products list --limit 3 --api-key {s}"),
    ), vendor="Stripe"),
    Kind("stripe-restricted-key", token("rk_live_51", ALNUM, 96), (
        ("shell-command", "export STRIPE_RK={s} && node scripts/reconcile.js --since 2025-05-01"),
        ("transcript-tool-result-string", ("     8→const stripe = new Stripe('{s}', {\n     9→  "
                                           "apiVersion: '2024-06-20',\n    10→});\n")),
    ), vendor="Stripe"),
    Kind("stripe-webhook-secret", token("whsec_", ALNUM, 32), (
        ("command-output", ("> Ready! You are using Stripe API Version [2024-06-20]. Your "
                            "webhook signing secret is {s} (^C to quit)")),
        ("transcript-tool-use-write", "STRIPE_WEBHOOK_SECRET={s}\n"),
        ("prompt-ko", "웹훅 서명 시크릿은 {s} 야. 서명 검증 코드 고쳐 줘"),
    ), vendor="Stripe"),
    # ---- OpenAI, Anthropic and other model APIs -------------------------------------------
    Kind("openai-project-key", _openai("proj"), (
        ("shell-command", 'curl https://api.openai.com/v1/models -H "Authorization: Bearer {s}"'),
        ("transcript-tool-use-write", "OPENAI_API_KEY={s}\nOPENAI_MODEL=gpt-4o-mini\n"),
        ("error-output", ('Traceback (most recent call last):\n  File "eval.py", line 12, in '
                          '<module>\n    client = OpenAI(api_key="{s}")\n'
                          "openai.AuthenticationError: Error code: 401")),
        ("transcript-tool-use-bash", "OPENAI_API_KEY={s} python scripts/eval.py --limit 20"),
    ), vendor="OpenAI"),
    Kind("openai-legacy-key", _openai_legacy, (
        ("transcript-tool-result-string", '     3→openai.api_key = "{s}"\n'),
        ("shell-command", "export OPENAI_API_KEY={s}"),
    ), vendor="OpenAI"),
    Kind("openai-service-account-key", _openai("svcacct"), (
        ("transcript-tool-use-write", '[openai]\napi_key = "{s}"\norganization = "org-{md5}"\n'),
        ("command-output", "OPENAI_API_KEY={s}\nOPENAI_ORG_ID=org-{md5}\n"),
    ), vendor="OpenAI"),
    Kind("openai-admin-key", _openai("admin"), (
        ("shell-command", ('curl https://api.openai.com/v1/organization/users -H "Authorization: '
                           "Bearer {s}\" -H 'Content-Type: application/json'")),
    ), vendor="OpenAI"),
    Kind("anthropic-api-key", token("sk-ant-api03-", URLSAFE, 93, "AA"), (
        ("shell-command", ('curl https://api.anthropic.com/v1/messages -H "x-api-key: {s}" -H '
                           '"anthropic-version: 2023-06-01" -H "content-type: application/json" '
                           "-d @req.json")),
        ("transcript-tool-use-write", "ANTHROPIC_API_KEY={s}\n"),
        ("error-output", ("anthropic.AuthenticationError: Error code: 401 - {'type': 'error', "
                          "'error': {'type': 'authentication_error', 'message': 'invalid "
                          "x-api-key'}}\n  headers sent: {'x-api-key': '{s}', "
                          "'anthropic-version': '2023-06-01'}")),
        ("transcript-tool-use-bash", "ANTHROPIC_API_KEY={s} claude -p 'summarise CHANGELOG.md'"),
    ), vendor="Anthropic"),
    Kind("anthropic-admin-key", token("sk-ant-admin01-", URLSAFE, 93, "AA"), (
        ("shell-command", ("curl https://api.anthropic.com/v1/organizations/api_keys -H "
                           '"x-api-key: {s}" -H "anthropic-version: 2023-06-01"')),
    ), vendor="Anthropic"),
    Kind("anthropic-oauth-token", token("sk-ant-oat01-", URLSAFE, 93, "AA"), (
        ("shell-command", "export CLAUDE_CODE_OAUTH_TOKEN={s}"),
        ("command-output", ('{"claudeAiOauth":{"accessToken":"{s}","refreshToken":"sk-ant-ort01-'
                            '{md5}","expiresAt":1767225600000,"scopes":["user:inference"]}}')),
    ), vendor="Claude"),
    Kind("openrouter-api-key", token("sk-or-v1-", HEX, 64), (
        ("transcript-tool-use-write", "OPENROUTER_API_KEY={s}\n"),
        ("shell-command", ("curl https://openrouter.ai/api/v1/chat/completions -H "
                           '"Authorization: Bearer {s}" -d @prompt.json')),
    ), vendor="OpenRouter"),
    Kind("deepseek-api-key", token("sk-", HEX, 32), (
        ("transcript-tool-use-write", "DEEPSEEK_API_KEY={s}\n"),
    ), vendor="DeepSeek"),
    Kind("groq-api-key", token("gsk_", ALNUM, 52), (
        ("shell-command", "GROQ_API_KEY={s} uv run bench.py --model llama-3.3-70b"),
    ), vendor="Groq"),
    Kind("xai-api-key", token("xai-", ALNUM, 80), (
        ("transcript-tool-use-write", "XAI_API_KEY={s}\n"),
    ), vendor="xAI"),
    Kind("perplexity-api-key", token("pplx-", ALNUM, 48), (
        ("shell-command", ("curl https://api.perplexity.ai/chat/completions -H 'Authorization: "
                           "Bearer {s}'")),
    ), vendor="Perplexity"),
    Kind("replicate-api-token", token("r8_", ALNUM, 37), (
        ("shell-command", "export REPLICATE_API_TOKEN={s} && python predict.py"),
    ), vendor="Replicate"),
    Kind("huggingface-token", token("hf_", ALPHA, 34), (
        ("shell-command", "huggingface-cli login --token {s} --add-to-git-credential"),
        ("command-output", ("Token is valid (permission: write).\nYour token has been saved in "
                            "your configured git credential helpers (store).\n{s}")),
        ("transcript-tool-use-bash", "HF_TOKEN={s} python train.py --push-to-hub"),
    ), vendor="Hugging Face"),
    Kind("huggingface-org-token", token("api_org_", ALPHA, 34), (
        ("transcript-tool-use-write", "HUGGINGFACEHUB_API_TOKEN={s}\n"),
    ), vendor="Hugging Face"),
    Kind("langsmith-api-key", lambda rng: f"lsv2_pt_{pick(rng, HEX, 32)}_{pick(rng, HEX, 10)}", (
        ("transcript-tool-use-write", "LANGCHAIN_TRACING_V2=true\nLANGSMITH_API_KEY={s}\n"),
    ), vendor="LangSmith"),
    Kind("pinecone-api-key", lambda rng: f"pcsk_{pick(rng, ALNUM, 5)}_{pick(rng, ALNUM, 63)}", (
        ("shell-command", "PINECONE_API_KEY={s} python ingest.py --index docs"),
    ), vendor="Pinecone"),
    # ---- Google ---------------------------------------------------------------------------
    Kind("google-api-key", token("AIzaSy", URLSAFE, 33), (
        ("shell-command", ("curl "
                           "'https://maps.googleapis.com/maps/api/geocode/json?address=Seoul&key"
                           "={s}'")),
        ("transcript-tool-use-write", ('const firebaseConfig = {\n  apiKey: "{s}",\n  '
                                       'authDomain: "acme-prod.firebaseapp.com",\n  projectId: '
                                       '"acme-prod",\n};\n')),
        ("error-output", ("googleapiclient.errors.HttpError: <HttpError 400 when requesting "
                          "https://www.googleapis.com/youtube/v3/search?part=snippet&q=test&key="
                          '{s}&alt=json returned "API key not valid. Please pass a valid API '
                          'key.">')),
    ), vendor="Google Cloud"),
    Kind("gcp-service-account-private-key", RSA_PKCS8, (
        ("transcript-tool-use-write", ('{\n  "type": "service_account",\n  "project_id": '
                                       '"acme-prod",\n  "private_key_id": "{sha40}",\n  '
                                       '"private_key": "-----BEGIN PRIVATE '
                                       'KEY-----\\n{sj}\\n-----END PRIVATE KEY-----\\n",\n  '
                                       '"client_email": '
                                       '"deployer@acme-prod.iam.gserviceaccount.com",\n  '
                                       '"client_id": "1{account}"\n}\n')),
        ("command-output", ('{"type":"service_account","project_id":"acme-prod","private_key_id"'
                            ':"{sha40}","private_key":"-----BEGIN PRIVATE '
                            "KEY-----\\n{sj}\\n-----END PRIVATE "
                            'KEY-----\\n","client_email":"ci@acme-prod.iam.gserviceaccount.com"}')),
        ("transcript-tool-result-list", ("The key file is checked in at infra/keys/ci.json. Its "
                                         "private_key field:\n-----BEGIN PRIVATE KEY-----\n{s}\n"
                                         "-----END PRIVATE KEY-----")),
    )),
    Kind("google-oauth-client-secret", token("GOCSPX-", URLSAFE, 28), (
        ("transcript-tool-use-write", ('{"installed":{"client_id":"{account}-{md5}.apps.googleus'
                                       'ercontent.com","client_secret":"{s}","redirect_uris":["h'
                                       'ttp://localhost"]}}')),
        ("shell-command", "export GOOGLE_CLIENT_SECRET={s} && npm run dev"),
    ), vendor="Google OAuth"),
    Kind("google-oauth-refresh-token", token("1//0g", URLSAFE, 98), (
        ("command-output", ('{\n  "access_token": "ya29.a0{md5}",\n  "expires_in": 3599,\n  '
                            '"refresh_token": "{s}",\n  "scope": '
                            '"https://www.googleapis.com/auth/drive.readonly",\n  "token_type": '
                            '"Bearer"\n}\n')),
    ), vendor="Google OAuth"),
    Kind("google-oauth-access-token", token("ya29.a0", URLSAFE, 170), (
        ("command-output", "{s}\n"),
        ("shell-command", ('curl -H "Authorization: Bearer {s}" '
                           "https://storage.googleapis.com/storage/v1/b/acme-backups/o")),
    ), vendor="gcloud"),
    Kind("firebase-cloud-messaging-server-key", _firebase_server, (
        ("shell-command", ("curl -X POST -H 'Authorization: key={s}' -H 'Content-Type: "
                           "application/json' https://fcm.googleapis.com/fcm/send -d @push.json")),
    ), vendor="Firebase"),
    # ---- AWS ------------------------------------------------------------------------------
    Kind("aws-access-key-id", token("AKIA", B32, 16), (
        ("shell-command", ("AWS_ACCESS_KEY_ID={s} AWS_SECRET_ACCESS_KEY=$SECRET aws s3 ls "
                           "s3://acme-backups")),
        ("command-output", ('{\n    "AccessKey": {\n        "UserName": "{user}",\n        '
                            '"AccessKeyId": "{s}",\n        "Status": "Active"\n    }\n}')),
        ("error-output", ("botocore.exceptions.ClientError: An error occurred "
                          "(InvalidClientTokenId) when calling the GetCallerIdentity operation: "
                          "The security token included in the request is invalid.\n  access "
                          "key: {s}")),
    ), vendor="AWS"),
    Kind("aws-temporary-access-key-id", token("ASIA", B32, 16), (
        ("command-output", ('{"Credentials": {"AccessKeyId": "{s}", "Expiration": '
                            '"2025-07-01T00:00:00Z"}}')),
        ("transcript-tool-use-bash", "export AWS_ACCESS_KEY_ID={s}"),
    )),
    Kind("aws-secret-access-key", token("", B64, 40), (
        ("shell-command", "aws configure set aws_secret_access_key {s} --profile {user}"),
        ("transcript-tool-use-write", ("AWS_ACCESS_KEY_ID={aws_id}\nAWS_SECRET_ACCESS_KEY={s}\n"
                                       "AWS_DEFAULT_REGION={region}\n")),
        ("command-output", ("User name,Password,Access key ID,Secret access key,Console login "
                            "link\n"
                            "{user},,{aws_id},{s},https://{account}.signin.aws.amazon.com/consol"
                            "e\n")),
        ("transcript-tool-use-bash", ("printf '[default]\\naws_access_key_id = "
                                      "{aws_id}\\naws_secret_access_key = {s}\\n' > "
                                      "~/.aws/credentials")),
        ("prompt-en", ("use {s} as AWS_SECRET_ACCESS_KEY when you run the integration tests, the "
                       "key id is {aws_id}")),
    ), vendor="AWS"),
    Kind("aws-session-token", _aws_session, (
        ("command-output", ('{\n    "Credentials": {\n        "AccessKeyId": "ASIA{md5}",\n      '
                            '  "SecretAccessKey": "{pw2}",\n        "SessionToken": "{s}",\n    '
                            '    "Expiration": "2025-06-11T12:00:00+00:00"\n    }\n}\n')),
        ("shell-command", "export AWS_SESSION_TOKEN={s}"),
        ("transcript-tool-use-write", ("[dev]\naws_access_key_id = ASIA{md5}\n"
                                       "aws_secret_access_key = {pw2}\naws_session_token = {s}\n")),
        ("prompt-en", "the SSO session token is {s}, use it for the s3 sync"),
    )),
    # ---- Azure ----------------------------------------------------------------------------
    Kind("azure-client-secret", _azure_client_secret, (
        ("prompt-en", "here's the Azure client secret: {s} — can you wire it in?"),
        ("shell-command", "az login --service-principal -u {uuid} -p {s} --tenant {uuid}"),
        ("command-output", ('{\n  "appId": "{uuid}",\n  "displayName": "github-deployer",\n  '
                            '"password": "{s}",\n  "tenant": "{uuid}"\n}\n')),
        ("transcript-tool-use-write", ("AZURE_CLIENT_ID={uuid}\nAZURE_TENANT_ID={uuid}\n"
                                       "AZURE_CLIENT_SECRET={s}\n")),
        ("prompt-ko", ("애저 앱 등록에서 새로 만든 클라이언트 시크릿이 {s} 야. 이걸로 로그인 "
                       "설정해 줘")),
    ), vendor="Azure"),
    Kind("azure-storage-account-key", lambda rng: b64(random_bytes(rng, 64)), (
        ("prompt-ko", "스토리지 계정 키를 새로 발급받았어: {s} 이걸로 blob 업로드 다시 해 볼래?"),
        ("prompt-ko", "Azure 스토리지 키가 {s} 인데 계속 AuthenticationFailed 가 나와"),
        ("shell-command", ("az storage blob upload --account-name acmebackups --account-key {s} "
                           "-c dumps -f dump.sql.gz -n {date}.sql.gz")),
        ("command-output", ('[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    '
                            '"value": "{s}"\n  }\n]')),
    ), vendor="Azure Storage"),
    Kind("azure-storage-connection-string", lambda rng: b64(random_bytes(rng, 64)), (
        ("transcript-tool-use-write", ("AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol"
                                       "=https;AccountName=acmebackups;AccountKey={s};EndpointSu"
                                       "ffix=core.windows.net\n")),
        ("transcript-tool-result-string", ('     4→  "Values": {\n     5→    '
                                           '"AzureWebJobsStorage": '
                                           '"DefaultEndpointsProtocol=https;AccountName=acmefunc'
                                           ';AccountKey={s};EndpointSuffix=core.windows.net",\n '
                                           '    6→    "FUNCTIONS_WORKER_RUNTIME": "python"\n')),
    )),
    Kind("azure-sas-signature", _azure_sas_signature, (
        ("shell-command", ("azcopy copy ./dist "
                           "'https://acmeweb.blob.core.windows.net/$web?sv=2022-11-02&ss=b&srt=s"
                           "co&sp=rwdlac&se=2025-12-31T00:00:00Z&st=2025-06-01T00:00:00Z&spr=htt"
                           "ps&sig={s}' --recursive")),
        ("error-output", ("AuthenticationFailed: Server failed to authenticate the request.\n"
                          "RequestId:{uuid}\nURL: "
                          "https://acme.blob.core.windows.net/logs?sp=r&st=2025-06-01&se=2025-06"
                          "-02&spr=https&sv=2022-11-02&sr=c&sig={s}")),
    )),
    Kind("azure-devops-pat", token("", B32_LOWER, 52), (
        ("shell-command", "echo {s} | az devops login --organization https://dev.azure.com/acme"),
        ("transcript-tool-use-bash", ("git clone "
                                      "https://{user}:{s}@dev.azure.com/acme/Platform/_git/api")),
    ), vendor="Azure DevOps"),
    Kind("azure-cosmos-db-key", lambda rng: b64(random_bytes(rng, 64)), (
        ("error-output", ("Microsoft.Azure.Cosmos.CosmosException: Response status code does not "
                          "indicate success: Unauthorized (401)\n  at Program.Main() with key "
                          "{s}")),
        ("transcript-tool-use-write", ("COSMOS_CONNECTION=AccountEndpoint=https://acme-cosmos.do"
                                       "cuments.azure.com:443/;AccountKey={s};\n")),
    )),
    Kind("azure-service-bus-key", lambda rng: b64(random_bytes(rng, 32)), (
        ("transcript-tool-use-write", ("SERVICEBUS_CONNECTION=Endpoint=sb://acme-bus.servicebus."
                                       "windows.net/;SharedAccessKeyName=RootManageSharedAccessK"
                                       "ey;SharedAccessKey={s}\n")),
        ("command-output", ("Endpoint=sb://acme-events.servicebus.windows.net/;SharedAccessKeyNa"
                            "me=send;SharedAccessKey={s};EntityPath=orders\n")),
    )),
    # ---- Atlassian, HashiCorp ---------------------------------------------------------------
    Kind("atlassian-api-token", _atlassian, (
        ("shell-command", ("curl -u {email}:{s} -H 'Accept: application/json' "
                           "'https://acme.atlassian.net/rest/api/3/search?jql=project=OPS'")),
        ("transcript-tool-use-write", ("JIRA_URL=https://acme.atlassian.net\nJIRA_EMAIL={email}\n"
                                       "JIRA_API_TOKEN={s}\n")),
        ("prompt-en", ("jira token: {s} (email {email}) — make the script open a ticket per "
                       "failed job")),
    ), vendor="Atlassian"),
    Kind("bitbucket-app-password", token("ATBB", ALNUM, 32), (
        ("shell-command", "git clone https://{user}:{s}@bitbucket.org/acme/legacy-api.git"),
    ), vendor="Bitbucket"),
    Kind("terraform-cloud-token", _terraform_cloud, (
        ("transcript-tool-use-write", 'credentials "app.terraform.io" {\n  token = "{s}"\n}\n'),
        ("command-output", ('{\n  "credentials": {\n    "app.terraform.io": {\n      "token": '
                            '"{s}"\n    }\n  }\n}\n')),
        ("shell-command", "export TF_TOKEN_app_terraform_io={s} && terraform init"),
    ), vendor="Terraform Cloud"),
    Kind("vault-token", _vault, (
        ("shell-command", ("VAULT_ADDR=https://vault.acme.io:8200 VAULT_TOKEN={s} vault kv get "
                           "-field=password secret/{app}/db")),
        ("command-output", ("Key                  Value\n---                  -----\ntoken       "
                            "         {s}\ntoken_accessor       {md5}\ntoken_duration       "
                            '768h\ntoken_renewable      true\ntoken_policies       ["default" '
                            '"deploy"]')),
    ), vendor="Vault"),
    Kind("vault-batch-token", token("hvb.", URLSAFE, 138), (
        ("transcript-tool-use-bash", "export VAULT_TOKEN={s}"),
    ), vendor="Vault"),
    # ---- chat, mail, messaging ------------------------------------------------------------
    Kind("discord-bot-token", _discord_bot, (
        ("transcript-tool-use-write", "DISCORD_TOKEN={s}\nDISCORD_GUILD_ID=1{account}\n"),
        ("transcript-tool-result-string", "    14→client.run('{s}')\n"),
        ("prompt-en", "bot won't log in, token is {s}, intents are enabled in the portal"),
        ("error-output", ("discord.errors.LoginFailure: Improper token has been passed.\n  "
                          "token: {s}")),
    ), vendor="Discord"),
    Kind("discord-webhook-url", token("", URLSAFE, 68), (
        ("transcript-tool-use-write", ("DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/1{a"
                                       "ccount}12/{s}\n")),
        ("shell-command", ("curl -H 'Content-Type: application/json' -d '{\"content\": \"build "
                           "ok\"}' https://discord.com/api/webhooks/1{account}345678/{s}")),
    )),
    Kind("telegram-bot-token", _telegram, (
        ("shell-command", "curl -s https://api.telegram.org/bot{s}/getUpdates | jq '.result[-1]'"),
        ("transcript-tool-use-write", "TELEGRAM_BOT_TOKEN={s}\nTELEGRAM_CHAT_ID=-100{account}\n"),
    ), vendor="Telegram"),
    Kind("mailgun-api-key", _mailgun, (
        ("shell-command", ("curl -s --user 'api:{s}' "
                           "https://api.mailgun.net/v3/mg.acme.io/messages -F from='Acme "
                           "<noreply@mg.acme.io>' -F to={email} -F subject='test' -F "
                           "text='hello'")),
        ("transcript-tool-use-write", "MAILGUN_API_KEY={s}\nMAILGUN_DOMAIN=mg.acme.io\n"),
    ), vendor="Mailgun"),
    Kind("mailgun-legacy-key", token("key-", HEX, 32), (
        ("transcript-tool-result-string", '    22→    auth=("api", "{s}"),\n'),
    ), vendor="Mailgun"),
    Kind("sendgrid-api-key", _sendgrid, (
        ("shell-command", ("curl --request POST --url https://api.sendgrid.com/v3/mail/send "
                           "--header 'Authorization: Bearer {s}' --header 'Content-Type: "
                           "application/json' --data @mail.json")),
        ("transcript-tool-use-write", "EMAIL_BACKEND=sendgrid\nSENDGRID_API_KEY={s}\n"),
        ("error-output", ("python_http_client.exceptions.UnauthorizedError: HTTP Error 401: "
                          "Unauthorized\n  api_key='{s}'")),
    ), vendor="SendGrid"),
    Kind("twilio-api-key", token("SK", HEX, 32), (
        ("transcript-tool-use-write", ("TWILIO_ACCOUNT_SID=AC{md5}\nTWILIO_API_KEY={s}\n"
                                       "TWILIO_API_SECRET={pw2}\n")),
    ), vendor="Twilio"),
    Kind("twilio-auth-token", _twilio_auth, (
        ("shell-command", ("curl -X POST "
                           "https://api.twilio.com/2010-04-01/Accounts/AC{md5}/Messages.json "
                           "--data-urlencode 'Body=hi' -d To=+821012345678 -d From=+15005550006 "
                           "-u AC{md5}:{s}")),
        ("transcript-tool-use-write", "TWILIO_ACCOUNT_SID=AC{md5}\nTWILIO_AUTH_TOKEN={s}\n"),
    ), vendor="Twilio"),
    # ---- commerce, hosting, infrastructure ------------------------------------------------
    Kind("shopify-admin-access-token", token("shpat_", HEX, 32), (
        ("shell-command", ("curl -X GET "
                           "'https://acme-store.myshopify.com/admin/api/2024-07/orders.json?stat"
                           "us=any' -H 'X-Shopify-Access-Token: {s}'")),
        ("transcript-tool-use-write", ("SHOPIFY_STORE=acme-store.myshopify.com\n"
                                       "SHOPIFY_ADMIN_TOKEN={s}\n")),
    ), vendor="Shopify"),
    Kind("shopify-shared-secret", token("shpss_", HEX, 32), (
        ("transcript-tool-use-write", "SHOPIFY_API_SECRET={s}\n"),
    ), vendor="Shopify"),
    Kind("shopify-custom-app-token", token("shpca_", HEX, 32), (
        ("prompt-en", "custom app installed, token {s}. sync the products"),
    ), vendor="Shopify"),
    Kind("shopify-private-app-password", token("shppa_", HEX, 32), (
        ("shell-command", "theme pull --store acme-store --password {s}"),
    ), vendor="Shopify"),
    Kind("square-access-token", token("EAAA", URLSAFE, 60), (
        ("shell-command", ("curl https://connect.squareup.com/v2/locations -H 'Square-Version: "
                           "2024-06-04' -H 'Authorization: Bearer {s}'")),
    ), vendor="Square"),
    Kind("square-oauth-secret", token("sq0csp-", URLSAFE, 43), (
        ("transcript-tool-use-write", "SQUARE_APP_ID=sq0idp-{md5}\nSQUARE_APP_SECRET={s}\n"),
    ), vendor="Square"),
    Kind("digitalocean-pat", token("dop_v1_", HEX, 64), (
        ("shell-command", "doctl auth init --access-token {s} --context acme"),
        ("transcript-tool-use-write", 'provider "digitalocean" {\n  token = "{s}"\n}\n'),
    ), vendor="DigitalOcean"),
    Kind("digitalocean-oauth-token", token("doo_v1_", HEX, 64), (
        ("command-output", "access-token: {s}\ncontext: default\n"),
    ), vendor="DigitalOcean"),
    Kind("digitalocean-refresh-token", token("dor_v1_", HEX, 64), (
        ("transcript-tool-use-write", "DO_REFRESH_TOKEN={s}\n"),
    ), vendor="DigitalOcean"),
    Kind("heroku-api-key", _heroku, (
        ("shell-command", "HEROKU_API_KEY={s} heroku releases -a {app}"),
        ("command-output", "{s}\n"),
    ), vendor="Heroku"),
    Kind("cloudflare-api-token", token("", URLSAFE, 40), (
        ("shell-command", ("curl https://api.cloudflare.com/client/v4/user/tokens/verify -H "
                           '"Authorization: Bearer {s}"')),
        ("transcript-tool-use-write", "CLOUDFLARE_API_TOKEN={s}\nCLOUDFLARE_ACCOUNT_ID={md5}\n"),
    ), vendor="Cloudflare"),
    Kind("netlify-pat", token("nfp_", ALNUM, 36), (
        ("shell-command", "NETLIFY_AUTH_TOKEN={s} netlify deploy --prod --dir dist"),
    ), vendor="Netlify"),
    Kind("fly-access-token", token("fo1_", URLSAFE, 43), (
        ("shell-command", "FLY_API_TOKEN={s} flyctl deploy --remote-only"),
    ), vendor="Fly.io"),
    Kind("dockerhub-pat", token("dckr_pat_", URLSAFE, 27), (
        ("shell-command", "echo {s} | docker login -u {user} --password-stdin"),
        ("transcript-tool-use-write", "DOCKERHUB_USERNAME={user}\nDOCKERHUB_TOKEN={s}\n"),
    ), vendor="Docker Hub"),
    Kind("databricks-token", one_of(token("dapi", HEX, 32), token("dapi", HEX, 32, "-2")), (
        ("transcript-tool-use-write", ("[DEFAULT]\nhost  = "
                                       "https://adb-{account}.7.azuredatabricks.net\ntoken = "
                                       "{s}\n")),
        ("shell-command", ("curl -H 'Authorization: Bearer {s}' "
                           "https://adb-{account}.7.azuredatabricks.net/api/2.0/clusters/list")),
    ), vendor="Databricks"),
    Kind("supabase-management-token", token("sbp_", HEX, 40), (
        ("shell-command", "SUPABASE_ACCESS_TOKEN={s} supabase link --project-ref {md5}"),
    ), vendor="Supabase"),
    Kind("supabase-service-role-key", _supabase_service_role, (
        ("transcript-tool-use-write", ("NEXT_PUBLIC_SUPABASE_URL=https://abcd.supabase.co\n"
                                       "SUPABASE_SERVICE_ROLE_KEY={s}\n")),
    ), vendor="Supabase"),
    Kind("planetscale-password", token("pscale_pw_", URLSAFE, 43), (
        ("command-output", ("Password production-app was successfully created.\nUSERNAME: {md5}\n"
                            "PASSWORD: {s}\n")),
        ("transcript-tool-use-write", ("DATABASE_URL=mysql://{user}:{s}@aws.connect.psdb.cloud/{"
                                       "db}?sslaccept=strict\n")),
    )),
    Kind("planetscale-service-token", token("pscale_tkn_", URLSAFE, 43), (
        ("shell-command", ("pscale deploy-request create {db} fix-index --service-token {s} "
                           "--service-token-id {md5}")),
    ), vendor="PlanetScale"),
    Kind("pulumi-access-token", token("pul-", HEX, 40), (
        ("shell-command", "PULUMI_ACCESS_TOKEN={s} pulumi up --yes --stack prod"),
    ), vendor="Pulumi"),
    Kind("doppler-service-token", _doppler_service, (
        ("shell-command", "DOPPLER_TOKEN={s} doppler run -- npm start"),
        ("transcript-tool-use-write", "DOPPLER_TOKEN={s}\n"),
    ), vendor="Doppler"),
    Kind("doppler-personal-token", token("dp.pt.", ALNUM, 43), (
        ("shell-command", "doppler configure set token {s} --scope /"),
    ), vendor="Doppler"),
    Kind("age-secret-key", token("AGE-SECRET-KEY-1", BECH32, 58), (
        ("shell-command", "echo '{s}' > ~/.config/sops/age/keys.txt && sops -d secrets.enc.yaml"),
        ("command-output", ("# created: 2025-06-11T10:00:00+09:00\n# public key: age1{md5}{md5}\n"
                            "{s}\n")),
    )),
    # ---- developer tools and observability ------------------------------------------------
    Kind("linear-api-key", token("lin_api_", ALNUM, 40), (
        ("shell-command", ("curl -X POST https://api.linear.app/graphql -H 'Content-Type: "
                           "application/json' -H 'Authorization: {s}' --data '{ \"query\": \"{ "
                           "viewer { id name } }\" }'")),
        ("transcript-tool-use-write", "LINEAR_API_KEY={s}\n"),
    ), vendor="Linear"),
    Kind("sentry-org-auth-token", _sentry_org, (
        ("shell-command", "SENTRY_AUTH_TOKEN={s} npx @sentry/wizard@latest -i sourcemaps"),
        ("transcript-tool-use-write", "[auth]\ntoken={s}\n"),
    ), vendor="Sentry"),
    Kind("sentry-user-auth-token", token("sntryu_", HEX, 64), (
        ("shell-command", "sentry-cli --auth-token {s} releases new {sha7}"),
    ), vendor="Sentry"),
    Kind("postman-api-key", lambda rng: f"PMAK-{pick(rng, HEX, 24)}-{pick(rng, HEX, 34)}", (
        ("shell-command", "postman login --with-api-key {s}"),
        ("transcript-tool-use-bash", ("newman run "
                                      "https://api.getpostman.com/collections/{uuid}?apikey={s}")),
    ), vendor="Postman"),
    Kind("grafana-cloud-token", _grafana_cloud, (
        ("transcript-tool-use-write", "GRAFANA_CLOUD_TOKEN={s}\n"),
    ), vendor="Grafana Cloud"),
    Kind("grafana-service-account-token", _grafana_service_account, (
        ("shell-command", ("curl -H 'Authorization: Bearer {s}' "
                           "https://grafana.acme.io/api/dashboards/uid/{sha7}")),
        ("transcript-tool-use-write", "grafana:\n  url: https://grafana.acme.io\n  token: {s}\n"),
    ), vendor="Grafana"),
    Kind("new-relic-user-api-key", token("NRAK-", UPPER + DIGITS, 27), (
        ("shell-command", ("curl https://api.newrelic.com/graphql -H 'API-Key: {s}' -d "
                           "@query.json")),
    ), vendor="New Relic"),
    Kind("new-relic-insert-key", token("NRII-", URLSAFE, 32), (
        ("transcript-tool-use-write", "NEW_RELIC_INSERT_KEY={s}\n"),
    ), vendor="New Relic"),
    Kind("new-relic-license-key", token("", HEX, 36, "NRAL"), (
        ("transcript-tool-use-write", ("common: &default_settings\n  license_key: '{s}'\n  "
                                       "app_name: {app}\n")),
    ), vendor="New Relic"),
    Kind("datadog-api-key", token("", HEX, 32), (
        ("shell-command", ("docker run -d --name dd-agent -e DD_API_KEY={s} -e "
                           "DD_SITE=datadoghq.com gcr.io/datadoghq/agent:7")),
        ("transcript-tool-use-write", "DD_API_KEY={s}\nDD_APP_KEY={sha40}\n"),
    ), vendor="Datadog"),
    Kind("sonarqube-token", one_of(token("squ_", HEX, 40), token("sqp_", HEX, 40)), (
        ("shell-command", ("sonar-scanner -Dsonar.projectKey=api "
                           "-Dsonar.host.url=https://sonar.acme.io -Dsonar.token={s}")),
    ), vendor="SonarQube"),
    Kind("circleci-token", lambda rng: f"CCIPAT_{pick(rng, ALNUM, 22)}_{pick(rng, HEX, 40)}", (
        ("shell-command", "curl -H 'Circle-Token: {s}' https://circleci.com/api/v2/me"),
    ), vendor="CircleCI"),
    Kind("buildkite-token", token("bkua_", HEX, 40), (
        ("transcript-tool-use-bash", "BUILDKITE_API_TOKEN={s} bk build view"),
    ), vendor="Buildkite"),
    Kind("figma-pat", token("figd_", URLSAFE, 40), (
        ("shell-command", "curl -H 'X-Figma-Token: {s}' https://api.figma.com/v1/files/{md5}"),
    ), vendor="Figma"),
    Kind("notion-integration-token", _notion, (
        ("transcript-tool-use-write", "NOTION_TOKEN={s}\nNOTION_DATABASE_ID={md5}\n"),
    ), vendor="Notion"),
    Kind("airtable-pat", lambda rng: f"pat{pick(rng, ALNUM, 14)}.{pick(rng, HEX, 64)}", (
        ("shell-command", ("curl 'https://api.airtable.com/v0/app{sha7}/Tasks' -H "
                           "'Authorization: Bearer {s}'")),
    ), vendor="Airtable"),
    Kind("contentful-pat", token("CFPAT-", URLSAFE, 43), (
        ("shell-command", "contentful space export --space-id {sha7} --management-token {s}"),
    ), vendor="Contentful"),
    Kind("launchdarkly-sdk-key", lambda rng: "sdk-" + uuid4(rng), (
        ("transcript-tool-use-write", "LAUNCHDARKLY_SDK_KEY={s}\n"),
    ), vendor="LaunchDarkly"),
    Kind("salesforce-access-token", _salesforce, (
        ("command-output", ("Access Token     {s}\nInstance Url     "
                            "https://acme.my.salesforce.com\nUsername         {email}")),
    ), vendor="Salesforce"),
    Kind("okta-api-token", token("00", URLSAFE, 40), (
        ("shell-command", ("curl -H 'Authorization: SSWS {s}' "
                           "https://acme.okta.com/api/v1/users?limit=5")),
    ), vendor="Okta"),
    Kind("jfrog-api-key", token("AKCp", ALNUM, 69), (
        ("shell-command", ("curl -H 'X-JFrog-Art-Api: {s}' -T build.tgz "
                           "https://acme.jfrog.io/artifactory/generic-local/build.tgz")),
    ), vendor="JFrog"),
    Kind("jfrog-identity-token", _jfrog_identity, (
        ("transcript-tool-use-write", "ARTIFACTORY_TOKEN={s}\n"),
    ), vendor="JFrog"),
    Kind("dropbox-access-token", token("sl.B", URLSAFE, 135), (
        ("shell-command", ("curl -X POST https://api.dropboxapi.com/2/files/list_folder --header "
                           "\"Authorization: Bearer {s}\" --header 'Content-Type: "
                           "application/json' --data '{\"path\": \"\"}'")),
    ), vendor="Dropbox"),
    Kind("mapbox-secret-token", _mapbox, (
        ("transcript-tool-use-write", "MAPBOX_DOWNLOADS_TOKEN={s}\n"),
    ), vendor="Mapbox"),
    Kind("twitch-oauth-token", token("oauth:", LOWER_DIGITS, 30), (
        ("transcript-tool-use-write", "TWITCH_OAUTH={s}\nTWITCH_CHANNEL=acme\n"),
    ), vendor="Twitch"),
    Kind("ngrok-authtoken", lambda rng: f"2{pick(rng, ALNUM, 26)}_{pick(rng, ALNUM, 21)}", (
        ("shell-command", "ngrok config add-authtoken {s}"),
        ("command-output", 'version: "2"\nauthtoken: {s}\n'),
    ), vendor="ngrok"),
    Kind("algolia-admin-key", token("", HEX, 32), (
        ("transcript-tool-use-write", "ALGOLIA_APP_ID={sha7}\nALGOLIA_ADMIN_KEY={s}\n"),
    ), vendor="Algolia"),
    Kind("snyk-token", uuid4, (
        ("shell-command", "SNYK_TOKEN={s} snyk test --severity-threshold=high"),
    ), vendor="Snyk"),
    # ---- package registries ---------------------------------------------------------------
    Kind("npm-access-token", checksummed("npm"), (
        ("shell-command", "npm config set //registry.npmjs.org/:_authToken {s}"),
        ("transcript-tool-use-write", ("//registry.npmjs.org/:_authToken={s}\n"
                                       "@acme:registry=https://registry.npmjs.org/\n")),
        ("error-output", ("npm ERR! code E401\nnpm ERR! 401 Unauthorized - PUT "
                          "https://registry.npmjs.org/@acme%2fui - You must be logged in to "
                          "publish packages.\nnpm verb token {s}")),
        ("transcript-tool-use-bash", "NPM_TOKEN={s} npm publish --access public"),
    ), vendor="npm"),
    Kind("pypi-api-token", token("pypi-AgEIcHlwaS5vcmc", URLSAFE, 160), (
        ("shell-command", "twine upload -u __token__ -p {s} dist/*"),
        ("transcript-tool-use-write", ("[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = "
                                       "__token__\npassword = {s}\n")),
        ("shell-command", "uv publish --token {s}"),
    ), vendor="PyPI"),
    Kind("test-pypi-api-token", token("pypi-AgENdGVzdC5weXBpLm9yZw", URLSAFE, 150), (
        ("transcript-tool-use-bash", ("TWINE_PASSWORD={s} twine upload --repository testpypi "
                                      "dist/*")),
    ), vendor="TestPyPI"),
    Kind("rubygems-api-key", token("rubygems_", HEX, 48), (
        ("transcript-tool-use-write", "---\n:rubygems_api_key: {s}\n"),
    ), vendor="RubyGems"),
    Kind("cargo-registry-token", token("cio", ALNUM, 32), (
        ("shell-command", "cargo login {s}"),
        ("transcript-tool-use-write", '[registry]\ntoken = "{s}"\n'),
    ), vendor="crates.io"),
    Kind("nuget-api-key", token("oy2", LOWER_DIGITS, 43), (
        ("shell-command", ("dotnet nuget push bin/Release/Acme.Core.2.1.0.nupkg --api-key {s} "
                           "--source https://api.nuget.org/v3/index.json")),
    ), vendor="NuGet"),
    Kind("clojars-token", token("CLOJARS_", HEX, 60), (
        ("transcript-tool-use-write", ('{:deploy-repositories [["clojars" {:url '
                                       '"https://repo.clojars.org" :username "{user}" :password '
                                       '"{s}"}]]}\n')),
    ), vendor="Clojars"),
    Kind("yarnrc-npm-auth-token", checksummed("npm"), (
        ("shell-command", "yarn config set npmAuthToken {s}"),
        ("transcript-tool-use-write", ("nodeLinker: node-modules\nnpmScopes:\n  acme:\n    "
                                       'npmRegistryServer: "https://registry.npmjs.org"\n    '
                                       'npmAuthToken: "{s}"\n')),
    )),
    # ---- tokens and keys of no one vendor -------------------------------------------------
    Kind("jwt", jwt, (
        ("shell-command", ("curl -s https://api.acme.io/v1/orders -H 'Authorization: Bearer {s}' "
                           "| jq length")),
        ("command-output", '{"access_token":"{s}","token_type":"Bearer","expires_in":86400}'),
        ("error-output", ("jwt.exceptions.ExpiredSignatureError: Signature has expired\n  File "
                          '"auth.py", line 31, in decode\n    payload = jwt.decode("{s}", key, '
                          'algorithms=["HS256"])')),
        ("prompt-en", "decode this and tell me why the role claim is missing: {s}"),
        ("prompt-ko", "이 토큰 디코드해서 만료 시간 확인해 줘 {s}"),
        ("transcript-tool-result-string", ("     1→### login\n     2→POST "
                                           "http://localhost:3000/auth/login\n     3→\n     "
                                           "4→### me\n     5→GET http://localhost:3000/me\n     "
                                           "6→Authorization: Bearer {s}\n")),
        ("transcript-thinking", ("The 403 comes from the gateway: the JWT {s} has aud "
                                 "https://api.acme.io but the route expects the internal "
                                 "audience. I'll check the gateway config next.")),
    )),
    Kind("kubernetes-service-account-token", jwt, (
        ("command-output", "{s}\n"),
        ("shell-command", "kubectl --server https://10.0.0.1:6443 --token {s} get pods -A"),
        ("transcript-tool-use-write", "users:\n- name: ci\n  user:\n    token: {s}\n"),
    )),
    Kind("rsa-private-key", RSA_PKCS1, (
        ("command-output", ("-----BEGIN RSA PRIVATE KEY-----\n{s}\n-----END RSA PRIVATE "
                            "KEY-----\n")),
        ("transcript-tool-use-write", ("-----BEGIN RSA PRIVATE KEY-----\n{s}\n-----END RSA "
                                       "PRIVATE KEY-----\n")),
        ("transcript-tool-result-string", ("-----BEGIN RSA PRIVATE KEY-----\n{s}\n-----END RSA "
                                           "PRIVATE KEY-----")),
    )),
    Kind("pkcs8-private-key", RSA_PKCS8, (
        ("command-output", "-----BEGIN PRIVATE KEY-----\n{s}\n-----END PRIVATE KEY-----\n"),
        ("prompt-en", ("nginx says the key doesn't match the cert, here's the key:\n-----BEGIN "
                       "PRIVATE KEY-----\n{s}\n-----END PRIVATE KEY-----")),
    )),
    Kind("ec-private-key", EC_SEC1, (
        ("command-output", "-----BEGIN EC PRIVATE KEY-----\n{s}\n-----END EC PRIVATE KEY-----\n"),
        ("transcript-tool-use-write", ('APPLE_PRIVATE_KEY="-----BEGIN EC PRIVATE KEY-----\n{s}\n'
                                       '-----END EC PRIVATE KEY-----"\n')),
        ("cli-save", ("APNs signing key for the iOS build:\n-----BEGIN EC PRIVATE KEY-----\n{s}\n"
                      "-----END EC PRIVATE KEY-----")),
    )),
    Kind("encrypted-private-key", ENCRYPTED_PKCS8, (
        ("transcript-tool-result-string", ("-----BEGIN ENCRYPTED PRIVATE KEY-----\n{s}\n-----END "
                                           "ENCRYPTED PRIVATE KEY-----")),
        ("command-output", ("-----BEGIN ENCRYPTED PRIVATE KEY-----\n{s}\n-----END ENCRYPTED "
                            "PRIVATE KEY-----\n")),
    )),
    Kind("openssh-private-key", OPENSSH_ED25519, (
        ("command-output", ("-----BEGIN OPENSSH PRIVATE KEY-----\n{s}\n-----END OPENSSH PRIVATE "
                            "KEY-----\n")),
        ("transcript-tool-use-bash", ("cat > ~/.ssh/deploy_key <<'EOF'\n-----BEGIN OPENSSH "
                                      "PRIVATE KEY-----\n{s}\n-----END OPENSSH PRIVATE "
                                      "KEY-----\nEOF\nchmod 600 ~/.ssh/deploy_key")),
        ("transcript-tool-result-list", ("The deploy key the workflow uses (secrets.DEPLOY_KEY) "
                                         "is also committed at .github/deploy_key:\n-----BEGIN "
                                         "OPENSSH PRIVATE KEY-----\n{s}\n-----END OPENSSH "
                                         "PRIVATE KEY-----")),
        ("command-output", ("$ cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n{s}\n"
                            "... (output truncated)")),
    )),
    Kind("pgp-private-key-block", PGP_SECRET, (
        ("transcript-tool-use-bash", ("gpg --batch --import <<'EOF'\n-----BEGIN PGP PRIVATE KEY "
                                      "BLOCK-----\n\n{s}\n-----END PGP PRIVATE KEY BLOCK-----\n"
                                      "EOF")),
        ("command-output", ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{s}\n=x7Qa\n-----END PGP "
                            "PRIVATE KEY BLOCK-----\n")),
    )),
    Kind("putty-private-key", token("AAAAI", B64, 39, "="), (
        ("transcript-tool-use-write", ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n"
                                       "Comment: deploy\nPublic-Lines: 2\n"
                                       "AAAAC3NzaC1lZDI1NTE5AAAAI{md5}\n{md5}\nPrivate-Lines: "
                                       "1\n{s}\nPrivate-MAC: {sha64}\n")),
        ("command-output", ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: "
                            "{user}@laptop\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI{md5}\n"
                            "{md5}\nPrivate-Lines: 1\n{s}\nPrivate-MAC: {sha64}\n")),
    )),
    Kind("kubeconfig-client-key-data", _kube_client_key, (
        ("transcript-tool-use-write", ("apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  "
                                       "user:\n    client-key-data: {s}\n")),
        ("command-output", ("users:\n- name: kind-dev\n  user:\n    client-certificate-data: "
                            "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURJVENDQWdtZ0F3SUJBZ0lJ\n "
                            "   client-key-data: {s}\n")),
    )),
    Kind("wireguard-private-key", _wireguard, (
        ("transcript-tool-use-write", ("[Interface]\nPrivateKey = {s}\nAddress = 10.8.0.2/24\n"
                                       "DNS = 1.1.1.1\n\n[Peer]\nPublicKey = {md5}{sha7}=\n"
                                       "Endpoint = vpn.acme.io:51820\n")),
        ("command-output", "{s}\n"),
    )),
    Kind("django-secret-key", _django, (
        ("transcript-tool-result-string", ("    23→# SECURITY WARNING: keep the secret key used "
                                           "in production secret!\n    24→SECRET_KEY = '{s}'\n  "
                                           "  25→\n    26→DEBUG = True\n")),
        ("transcript-tool-use-write", "DJANGO_SECRET_KEY='{s}'\nDJANGO_DEBUG=0\n"),
    )),
    Kind("rails-master-key", token("", HEX, 32), (
        ("shell-command", "RAILS_MASTER_KEY={s} bin/rails credentials:show"),
        ("command-output", "{s}\n"),
    )),
    Kind("laravel-app-key", lambda rng: b64(random_bytes(rng, 32)), (
        ("shell-command", "APP_KEY=base64:{s} php artisan config:cache"),
        ("command-output", ("APP_NAME=Acme\nAPP_ENV=production\nAPP_KEY=base64:{s}\n"
                            "APP_DEBUG=false\n")),
    )),
    Kind("nextauth-secret", lambda rng: b64(random_bytes(rng, 32)), (
        ("command-output", "{s}\n"),
        ("transcript-tool-use-write", "NEXTAUTH_URL=http://localhost:3000\nNEXTAUTH_SECRET={s}\n"),
    )),
    Kind("totp-seed", token("", B32, 32), (
        ("command-output", ("otpauth://totp/Acme:{email}?secret={s}&issuer=Acme&algorithm=SHA1&d"
                            "igits=6&period=30")),
        ("prompt-en", "my 2fa seed is {s}, write me a script that prints the current code"),
    )),
    Kind("ethereum-private-key", token("", HEX, 64), (
        ("transcript-tool-use-write", ("PRIVATE_KEY=0x{s}\n"
                                       "RPC_URL=https://sepolia.infura.io/v3/{md5}\n")),
        ("shell-command", ("forge script script/Deploy.s.sol --rpc-url $RPC_URL --private-key "
                           "0x{s} --broadcast")),
    )),
    Kind("mnemonic-seed-phrase", _mnemonic, (
        ("transcript-tool-use-write", 'MNEMONIC="{s}"\n'),
        ("prompt-ko", "테스트 지갑 니모닉은 {s} 야. hardhat 설정에 넣어 줘"),
    )),
    # ---- URLs, headers, cookies -----------------------------------------------------------
    Kind("database-url-password", password, (
        ("shell-command", ("psql 'postgresql://{user}:{s}@{host}:5432/{db}?sslmode=require' -c "
                           "'\\dt'")),
        ("transcript-tool-use-write", ("DATABASE_URL=postgres://{user}:{s}@{host}:5432/{db}\n"
                                       "REDIS_URL=redis://localhost:6379/0\n")),
        ("error-output", ("sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) "
                          'connection to server at "{host}", port 5432 failed: FATAL:  password '
                          'authentication failed for user "{user}"\n(Background on this error '
                          "at: https://sqlalche.me/e/20/e3q8)\n  url: "
                          "postgresql://{user}:{s}@{host}/{db}")),
        ("shell-command", ("mongosh "
                           "'mongodb+srv://{user}:{s}@cluster0.ab1cd.mongodb.net/{db}?retryWrite"
                           "s=true'")),
        ("transcript-tool-use-write", ("spring.datasource.url=jdbc:mysql://{host}:3306/{db}?user"
                                       "={user}&password={s}\n")),
        ("command-output", "CELERY_BROKER_URL=amqp://{user}:{s}@rabbitmq:5672//\n"),
    )),
    Kind("redis-url-password", password, (
        ("shell-command", ("redis-cli -u "
                           "'redis://default:{s}@redis-12345.c1.us-east-1-2.ec2.cloud.redislabs."
                           "com:12345' ping")),
        ("transcript-tool-use-write", "REDIS_URL=rediss://:{s}@cache.acme.local:6380/0\n"),
    )),
    Kind("git-remote-url-password", _netrc_password, (
        ("command-output", ("origin\thttps://{user}:{s}@github.com/{repo}.git (fetch)\n"
                            "origin\thttps://{user}:{s}@github.com/{repo}.git (push)\n")),
        ("transcript-tool-use-bash", ("git clone "
                                      "https://{user}:{s}@git.acme.io/platform/infra.git")),
    )),
    Kind("proxy-url-password", password, (
        ("shell-command", ("export https_proxy=http://{user}:{s}@proxy.corp.acme.com:3128 && pip "
                           "install -r requirements.txt")),
        ("command-output", ("HTTP_PROXY=http://{user}:{s}@10.0.0.5:8080\n"
                            "NO_PROXY=localhost,127.0.0.1\n")),
    )),
    Kind("http-bearer-token", one_of(token("", ALNUM, 40), token("", URLSAFE, 64)), (
        ("shell-command", ("curl -s -H 'Authorization: Bearer {s}' "
                           "https://internal.acme.io/api/v2/jobs?state=failed")),
        ("error-output", ("AxiosError: Request failed with status code 403\n    at settle "
                          "(node_modules/axios/lib/core/settle.js:19:12)\n  config: {\n    url: "
                          "'https://api.acme.io/v1/invoices',\n    method: 'get',\n    headers: "
                          "AxiosHeaders {\n      Accept: 'application/json',\n      "
                          "Authorization: 'Bearer {s}'\n    }\n  }")),
        ("command-output", ("> GET /v1/me HTTP/2\n> Host: api.acme.io\n> user-agent: curl/8.5.0\n"
                            "> authorization: Bearer {s}\n>\n< HTTP/2 200\n")),
        ("transcript-tool-result-list", ("The request the client sends (captured with "
                                         "mitmproxy):\n\nGET /graphql HTTP/1.1\nAuthorization: "
                                         "Bearer {s}\nContent-Type: application/json")),
    )),
    Kind("http-basic-auth-header", _basic, (
        ("shell-command", ("curl -H 'Authorization: Basic {s}' "
                           "https://registry.acme.io/v2/_catalog")),
        ("command-output", "< HTTP/1.1 401 Unauthorized\n> Authorization: Basic {s}\n"),
        ("transcript-tool-use-write", ('[[headers]]\n  for = "/admin/*"\n  [headers.values]\n    '
                                       'Authorization = "Basic {s}"\n')),
    )),
    Kind("api-key-header", token("", ALNUM, 32), (
        ("shell-command", "curl https://api.acme.io/v1/reports -H 'X-API-Key: {s}'"),
        ("command-output", "x-api-key: {s}\naccept: */*\n"),
    )),
    Kind("session-cookie", one_of(token("", LOWER_DIGITS, 32), token("s%3A", URLSAFE, 60)), (
        ("shell-command", ("curl -b 'sessionid={s}; csrftoken={md5}' "
                           "https://admin.acme.io/admin/orders/")),
        ("command-output", ("HTTP/2 302\nset-cookie: connect.sid={s}; Path=/; HttpOnly; Secure\n"
                            "location: /dashboard\n")),
        ("prompt-en", ("here's my cookie from devtools: _session_id={s} — replay the request "
                       "with it")),
    )),
    Kind("docker-config-auth", _docker_auth, (
        ("command-output", ('{\n\t"auths": {\n\t\t"ghcr.io": {\n\t\t\t"auth": "{s}"\n\t\t}\n\t}\n'
                            "}")),
        ("transcript-tool-use-write", '{"auths":{"registry.acme.io":{"auth":"{s}"}}}\n'),
    )),
    Kind("kubernetes-secret-data", _k8s_b64_password, (
        ("command-output", ("apiVersion: v1\ndata:\n  password: {s}\n  username: YWRtaW4=\nkind: "
                            "Secret\nmetadata:\n  name: db-credentials\n  namespace: {env}\n"
                            "type: Opaque\n")),
        ("transcript-tool-use-write", ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\n"
                                       "data:\n  DB_PASSWORD: {s}\n")),
    )),
    # ---- a value with no key name near it -------------------------------------------------
    Kind("bare-token-in-prose-en", _bare, (
        ("prompt-en", "why does {s} return 401 when CI calls the API?"),
        ("prompt-en", "the new one is {s}. Update .env.local"),
        ("prompt-en", "{s} <- that's what the dashboard gave me, does it look right?"),
        ("prompt-en", "ok rotated, now it's {s}, rerun the e2e suite"),
        ("transcript-user-text", "paste this into the workflow env please: {s}"),
        ("transcript-assistant-text", ("The 401 happens because the worker still sends the old "
                                       "value; I replaced it with {s} in `deploy/staging.env`.")),
        ("transcript-thinking", ("They gave me {s}. That's probably the new key from the admin "
                                 "console. I'll put it in the secret store, not in the repo.")),
        ("cli-save", "staging uses {s} since the rotation on friday"),
        ("import-record", "ci value: {s}"),
    )),
    Kind("bare-token-in-prose-ko", _bare, (
        ("prompt-ko", "{s} 이걸로 CI에서 API 호출하면 왜 401이 나와?"),
        ("prompt-ko", "새로 받은 건 {s} 이야. .env.local 업데이트해 줘"),
        ("prompt-ko", "어제는 {s} 로 잘 됐는데 오늘은 안 돼"),
        ("transcript-user-text", "관리 콘솔에서 재발급했어: {s}"),
        ("transcript-thinking", ("사용자가 준 값 {s} 는 새 키인 것 같다. 저장소에 커밋하지 말고 "
                                 "시크릿으로 등록하자.")),
        ("cli-save", "스테이징 키 {s} (금요일에 교체)"),
    )),
    Kind("value-before-its-name-en", _any_value, (
        ("prompt-en", "use {s} as REDIS_PASSWORD when you run the tests"),
        ("prompt-en", "use {s} as ENCRYPTION_KEY when you run the tests"),
        ("prompt-en", "{s} goes into DB_PASS for the staging compose file"),
        ("prompt-en", "take {s} for SMTP_PASSWORD, the user is {email}"),
        ("transcript-user-text", "{s} is the webhook secret, put it in the github settings"),
        ("transcript-assistant-text", ("I'll pass {s} as `JWT_SIGNING_KEY` in the test "
                                       "environment so the fixtures can mint tokens.")),
        ("cli-save", "{s} = ADMIN_PASSWORD on the {env} box"),
    )),
    Kind("value-before-its-name-ko", _any_value, (
        ("prompt-ko", "{s} 를 REDIS_PASSWORD 로 써서 테스트 돌려 줘"),
        ("prompt-ko", "{s} 이게 ENCRYPTION_KEY 야"),
        ("prompt-ko", "테스트 돌릴 때 {s} 값을 AWS_SECRET_ACCESS_KEY 로 넣어"),
        ("transcript-user-text", "{s} 를 DB_PASSWORD 환경 변수로 설정해 줘"),
        ("import-record", "{s} 는 스테이징 SMTP 비밀번호"),
    )),
    Kind("password-in-prose-en", password, (
        ("prompt-en", "my password is {s}"),
        ("prompt-en", "the staging db password is {s}, user {user}"),
        ("prompt-en", "login with {user} / {s} and check the admin page"),
        ("transcript-user-text", "try {s} — that's what IT reset it to this morning"),
        ("prompt-en", "pw for the vpn is {s} btw"),
        ("transcript-user-text", "creds are {user}:{s}"),
        ("cli-save", "router admin login: admin / {s}"),
        ("transcript-assistant-text", ("Logged in as `{user}` with the password you gave "
                                       "(`{s}`); the migration ran and 42 rows were updated.")),
    )),
    Kind("password-in-prose-ko", password, (
        ("prompt-ko", "DB 비밀번호는 {s} 이고 사용자는 {user} 야"),
        ("prompt-ko", "관리자 비번 {s} 로 바꿨어. 로그인 테스트 다시 해 줘"),
        ("prompt-ko", "스테이징 서버 암호: {s}"),
        ("prompt-ko", "{user} 계정 패스워드가 {s} 인데 ssh 접속이 안 돼"),
        ("transcript-user-text", "와이파이 비밀번호 {s} 이걸로 라즈베리파이 설정해 줘"),
        ("prompt-ko", "비밀번호 {s} 로 로그인하니까 403이 나와"),
        ("cli-save", "사내 위키 계정 {user} / 비번 {s}"),
        ("import-record", "NAS 관리자 암호는 {s}입니다"),
    )),
    # ---- commands that set a secret -------------------------------------------------------
    Kind("gh-secret-set", _any_value, (
        ("shell-command", "gh secret set DEPLOY_TOKEN --body '{s}' --repo {repo}"),
        ("shell-command", 'gh secret set SENTRY_AUTH_TOKEN -b"{s}" --env production'),
        ("transcript-tool-use-bash", "gh secret set NPM_TOKEN --body {s}"),
        ("shell-command", ("gh variable set API_BASE --body https://api.acme.io && gh secret set "
                           'API_KEY --body "{s}"')),
    )),
    Kind("docker-login-password-stdin", password, (
        ("shell-command", "echo '{s}' | docker login registry.acme.io -u {user} --password-stdin"),
        ("shell-command", ("printf '%s' '{s}' | docker login ghcr.io --username {user} "
                           "--password-stdin")),
        ("transcript-tool-use-bash", ('echo "{s}" | podman login quay.io -u {user} '
                                      "--password-stdin")),
    )),
    Kind("docker-login-password-flag", password, (
        ("shell-command", "docker login -u {user} -p '{s}' registry.acme.io"),
        ("error-output", ("WARNING! Using --password via the CLI is insecure. Use "
                          "--password-stdin.\nError response from daemon: Get "
                          '"https://registry.acme.io/v2/": unauthorized\n+ docker login -u '
                          "{user} --password {s} registry.acme.io")),
    )),
    Kind("ldap-bind-password", password, (
        ("shell-command", ("ldapsearch -x -H ldaps://ldap.corp.acme.com -D "
                           '"cn=admin,dc=acme,dc=com" -w {s} -b "ou=people,dc=acme,dc=com" '
                           '"(uid={user})"')),
        ("shell-command", "ldapmodify -x -D cn=admin,dc=acme,dc=com -w '{s}' -f add-user.ldif"),
    )),
    Kind("sql-alter-user-password", password, (
        ("shell-command", "psql -U postgres -c \"ALTER USER {user} WITH PASSWORD '{s}';\""),
        ("transcript-tool-use-write", ("-- rotate the app role\nALTER ROLE app_rw WITH LOGIN "
                                       "PASSWORD '{s}';\n")),
        ("shell-command", ("mysql -u root -e \"SET PASSWORD FOR '{user}'@'%' = '{s}'; FLUSH "
                           'PRIVILEGES;"')),
        ("command-output", "postgres=# ALTER USER {user} PASSWORD '{s}';\nALTER ROLE\n"),
    )),
    Kind("sql-create-user-identified-by", password, (
        ("shell-command", ("mysql -uroot -e \"CREATE USER '{user}'@'%' IDENTIFIED BY '{s}'; "
                           "GRANT ALL ON {db}.* TO '{user}'@'%';\"")),
        ("transcript-tool-use-write", ("CREATE USER IF NOT EXISTS 'reporting'@'10.%' IDENTIFIED "
                                       "BY '{s}';\nGRANT SELECT ON analytics.* TO "
                                       "'reporting'@'10.%';\n")),
        ("shell-command", 'sqlplus / as sysdba <<< "CREATE USER app IDENTIFIED BY {s};"'),
    )),
    Kind("password-flag-leading-dash", _dash_password, (
        ("shell-command", ("mysqldump --user={user} --password={s} --single-transaction {db} > "
                           "dump.sql")),
        ("shell-command", ("./bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter "
                           "--add-config 'SCRAM-SHA-512=[password={s}]' --entity-type users "
                           "--entity-name {user}")),
        ("shell-command", ("pgbench --host {host} --username {user} --password={s} -c 10 -T 60 "
                           "{db}")),
    )),
    Kind("yq-set-password", password, (
        ("shell-command", "yq -i '.smtp.passwd = \"{s}\"' config/mail.yml"),
        ("shell-command", ("jq '.database.password = \"{s}\"' appsettings.json > tmp.json && mv "
                           "tmp.json appsettings.json")),
        ("transcript-tool-use-bash", "yq e '.auth.adminPassword = \"{s}\"' -i values.yaml"),
    )),
    Kind("redis-cli-auth", password, (
        ("shell-command", "redis-cli -h {host} -p 6379 -a '{s}' INFO replication"),
        ("shell-command", "redis-cli --user default --pass {s} --tls -h cache.acme.local"),
        ("command-output", ("127.0.0.1:6379> AUTH {s}\nOK\n127.0.0.1:6379> DBSIZE\n(integer) "
                            "1841\n")),
    )),
    Kind("htpasswd-batch", password, (
        ("shell-command", "htpasswd -b -c /etc/nginx/.htpasswd {user} '{s}'"),
        ("shell-command", "htpasswd -bnB admin {s} | tee -a auth/htpasswd"),
    )),
    Kind("archive-password", password, (
        ("shell-command", "zip -P '{s}' -r backup-{date}.zip ./exports"),
        ("shell-command", "7z a -p{s} -mhe=on secrets.7z ./keys"),
        ("shell-command", "unzip -P {s} customer-data.zip -d /tmp/import"),
    )),
    Kind("openssl-pass-argument", password, (
        ("shell-command", ("openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 "
                           "-passout pass:{s}")),
        ("shell-command", "openssl rsa -in encrypted.key -out server.key -passin 'pass:{s}'"),
        ("shell-command", ("openssl enc -aes-256-cbc -pbkdf2 -salt -in db.sql -out db.sql.enc -k "
                           "{s}")),
    )),
    Kind("keytool-storepass", password, (
        ("shell-command", ("keytool -importcert -alias acme-ca -file ca.crt -keystore "
                           "truststore.jks -storepass {s} -noprompt")),
        ("shell-command", ("keytool -genkeypair -alias release -keyalg RSA -keystore release.jks "
                           "-storepass '{s}' -keypass '{s}' -dname 'CN=Acme'")),
        ("transcript-tool-use-write", ("storePassword={s}\nkeyPassword={pw2}\nkeyAlias=release\n"
                                       "storeFile=../release.jks\n")),
    )),
    Kind("smb-credentials", password, (
        ("shell-command", "smbclient //fileserver/finance -U {user}%{s} -c 'ls'"),
        ("shell-command", ("sudo mount -t cifs //nas/media /mnt/media -o "
                           "username={user},password={s},uid=1000")),
    )),
    Kind("kubectl-secret-from-literal", _any_value, (
        ("shell-command", ("kubectl create secret generic db-credentials "
                           "--from-literal=username={user} --from-literal=password='{s}' -n "
                           "{env}")),
        ("shell-command", ("kubectl create secret generic api --from-literal=API_KEY={s} "
                           "--dry-run=client -o yaml | kubectl apply -f -")),
        ("transcript-tool-use-bash", ("kubectl -n {env} create secret docker-registry regcred "
                                      "--docker-server=ghcr.io --docker-username={user} "
                                      "--docker-password={s}")),
    )),
    Kind("heroku-config-set", _any_value, (
        ("shell-command", "heroku config:set STRIPE_SECRET_KEY={s} -a {app}"),
        ("shell-command", "heroku config:set SESSION_SECRET='{s}' --app {app}"),
    )),
    Kind("vercel-env-add", _any_value, (
        ("shell-command", "echo -n '{s}' | vercel env add DATABASE_PASSWORD production"),
        ("shell-command", "printf '{s}' | vercel env add AUTH_SECRET preview"),
    )),
    Kind("platform-secrets-set", _any_value, (
        ("shell-command", "fly secrets set SECRET_KEY_BASE={s} --app {app}"),
        ("shell-command", "netlify env:set API_TOKEN {s} --context production"),
        ("shell-command", 'railway variables --set "JWT_SECRET={s}"'),
        ("shell-command", ("firebase functions:secrets:set STRIPE_KEY --data-file <(echo -n "
                           "'{s}')")),
    )),
    Kind("mysql-password-attached", password, (
        ("shell-command", ("mysql -h {host} -u {user} -p'{s}' {db} -e 'SELECT COUNT(*) FROM "
                           "orders'")),
        ("shell-command", "mysqladmin -uroot -p{s} status"),
    )),
    Kind("pgpassword-environment", password, (
        ("shell-command", "PGPASSWORD='{s}' psql -h {host} -U {user} -d {db} -c 'select 1'"),
        ("transcript-tool-use-bash", ("PGPASSWORD={s} pg_dump -h {host} -U {user} {db} | gzip > "
                                      "{db}.sql.gz")),
    )),
    Kind("libpq-keyword-password", password, (
        ("shell-command", ('psql "host={host} port=5432 dbname={db} user={user} password={s} '
                           'sslmode=require"')),
        ("transcript-tool-use-write", ('DSN = "host={host} dbname={db} user={user} '
                                       'password={s}"\n')),
    )),
    Kind("sqlserver-connection-string", password, (
        ("transcript-tool-use-write", ('{\n  "ConnectionStrings": {\n    "Default": '
                                       '"Server=tcp:acme.database.windows.net,1433;Database={db}'
                                       ';User ID={user};Password={s};Encrypt=True;"\n  }\n}\n')),
        ("shell-command", "sqlcmd -S localhost -U sa -P '{s}' -Q 'SELECT @@VERSION'"),
    )),
    Kind("sshpass-password", password, (
        ("shell-command", ("sshpass -p '{s}' ssh -o StrictHostKeyChecking=no {user}@{ip} 'sudo "
                           "systemctl restart app'")),
        ("shell-command", "sshpass -p {s} rsync -avz ./dist/ {user}@{ip}:/var/www/html/"),
    )),
    Kind("curl-user-password", password, (
        ("shell-command", "curl -u {user}:'{s}' https://jenkins.acme.io/job/api/build -X POST"),
        ("shell-command", ("curl --user '{user}:{s}' -X PUT "
                           "https://nexus.acme.io/repository/raw/app.tgz -T app.tgz")),
        ("transcript-tool-use-bash", ("curl -u elastic:{s} -k "
                                      "https://localhost:9200/_cat/indices?v")),
    )),
    Kind("wget-password", password, (
        ("shell-command", ("wget --user={user} --password='{s}' "
                           "https://files.acme.io/exports/orders.csv")),
        ("shell-command", ("wget --http-user={user} --http-password={s} -O release.tgz "
                           "https://ci.acme.io/artifacts/latest")),
    )),
    Kind("git-credential-approve", _netrc_password, (
        ("command-output", "protocol=https\nhost=github.com\nusername={user}\npassword={s}\n"),
        ("shell-command", ("printf "
                           "'protocol=https\\nhost=github.com\\nusername={user}\\npassword={s}\\"
                           "n' | git credential approve")),
    )),
    Kind("helm-registry-password", password, (
        ("shell-command", ("helm repo add acme https://charts.acme.io --username {user} "
                           "--password '{s}'")),
        ("shell-command", "helm registry login registry.acme.io -u {user} -p {s}"),
    )),
    Kind("docker-run-env-password", password, (
        ("shell-command", ("docker run -d --name pg -e POSTGRES_PASSWORD={s} -p 5432:5432 "
                           "postgres:16")),
        ("shell-command", "docker run -e MYSQL_ROOT_PASSWORD='{s}' -d mysql:8.4"),
        ("transcript-tool-use-write", ("services:\n  db:\n    image: postgres:16\n    "
                                       "environment:\n      POSTGRES_USER: {user}\n      "
                                       "POSTGRES_PASSWORD: {s}\n")),
    )),
    Kind("ansible-extra-vars-password", password, (
        ("shell-command", ("ansible-playbook site.yml -i inventory/prod -e "
                           '"ansible_become_password={s}"')),
        ("shell-command", "ansible all -i hosts -m ping -e ansible_password='{s}'"),
    )),
    Kind("terraform-var-secret", _any_value, (
        ("shell-command", 'terraform apply -var "db_password={s}" -auto-approve'),
        ("shell-command", "TF_VAR_api_token={s} terraform plan -out tfplan"),
        ("transcript-tool-use-write", 'db_password = "{s}"\nregion      = "{region}"\n'),
    )),
    Kind("rabbitmq-user-password", password, (
        ("shell-command", ("rabbitmqctl add_user {user} '{s}' && rabbitmqctl set_permissions -p "
                           "/ {user} '.*' '.*' '.*'")),
        ("shell-command", "rabbitmqctl change_password {user} {s}"),
    )),
    Kind("vault-kv-put", password, (
        ("shell-command", "vault kv put secret/{app}/db username={user} password='{s}'"),
        ("shell-command", ("aws secretsmanager put-secret-value --secret-id prod/{app}/db "
                           "--secret-string '{\"username\":\"{user}\",\"password\":\"{s}\"}'")),
    )),
    # ---- credential files written from the shell, and read back ---------------------------
    Kind("netrc-password", _netrc_password, (
        ("shell-command", ("printf 'machine api.heroku.com\\nlogin {email}\\npassword {s}\\n' >> "
                           "~/.netrc")),
        ("command-output", ("machine github.com\nlogin {user}\npassword {s}\nmachine api.acme.io "
                            "login ci password {pw2}\n")),
        ("transcript-tool-use-write", ("machine artifacts.acme.io\n  login {user}\n  password "
                                       "{s}\n")),
    )),
    Kind("pgpass-password", password, (
        ("shell-command", "echo '{host}:5432:*:{user}:{s}' >> ~/.pgpass && chmod 600 ~/.pgpass"),
        ("command-output", "localhost:5432:{db}:{user}:{s}\n*:*:*:replicator:{pw2}\n"),
    )),
    Kind("npmrc-auth-token", checksummed("npm"), (
        ("shell-command", "echo '//registry.npmjs.org/:_authToken={s}' >> ~/.npmrc"),
        ("command-output", ("; userconfig /home/{user}/.npmrc\n//registry.npmjs.org/:_authToken "
                            '= {s}\n@acme:registry = "https://npm.pkg.github.com"\n')),
    )),
    Kind("npmrc-legacy-auth", _basic, (
        ("shell-command", "npm config set _auth {s}"),
        ("transcript-tool-use-write", ("registry=https://nexus.acme.io/repository/npm/\n"
                                       "_auth={s}\nalways-auth=true\n")),
    )),
    Kind("pypirc-password", password, (
        ("command-output", ("[distutils]\nindex-servers =\n    internal\n\n[internal]\n"
                            "repository = https://pypi.acme.io/\nusername = {user}\npassword = "
                            "{s}\n")),
        ("shell-command", ("printf '[pypi]\\nrepository = https://pypi.acme.io/simple\\nusername "
                           "= {user}\\npassword = {s}\\n' > ~/.pypirc")),
    )),
    Kind("git-credentials-file", _netrc_password, (
        ("shell-command", "echo 'https://{user}:{s}@github.com' >> ~/.git-credentials"),
        ("command-output", "https://{user}:{s}@github.com\nhttps://oauth2:{pw2}@gitlab.com\n"),
    )),
    Kind("aws-credentials-file", token("", B64, 40), (
        ("command-output", ("[default]\naws_access_key_id = {aws_id}\naws_secret_access_key = "
                            "{s}\n\n[prod]\nregion = {region}\n")),
        ("transcript-tool-result-string", ("     1→[default]\n     2→aws_access_key_id={aws_id}\n"
                                           "     3→aws_secret_access_key={s}\n")),
    )),
    Kind("mysql-option-file-password", password, (
        ("command-output", "[client]\nuser=root\npassword={s}\nhost=127.0.0.1\n"),
        ("shell-command", "printf '[client]\\nuser={user}\\npassword=\"{s}\"\\n' > ~/.my.cnf"),
    )),
    Kind("maven-settings-password", password, (
        ("error-output", ("[ERROR] Failed to deploy artifacts: Could not transfer artifact "
                          "com.acme:core:jar:2.1.0 from/to acme-releases: status code: 401\n"
                          "[DEBUG] server acme-releases: username={user}, password={s}")),
        ("transcript-tool-use-write", ("<settings>\n  <servers>\n    <server>\n      "
                                       "<id>acme-releases</id>\n      "
                                       "<username>{user}</username>\n      "
                                       "<password>{s}</password>\n    </server>\n  </servers>\n"
                                       "</settings>\n")),
    )),
    Kind("gradle-properties-password", password, (
        ("shell-command", "./gradlew publish -PossrhUsername={user} -PossrhPassword='{s}'"),
        ("transcript-tool-use-write", ("org.gradle.jvmargs=-Xmx2g\nossrhUsername={user}\n"
                                       "ossrhPassword={s}\nsigning.keyId=24875D73\n"
                                       "signing.password={pw2}\n")),
    )),
    # ---- secrets read back from a manager, and environment dumps --------------------------
    Kind("secret-manager-output", _any_value, (
        ("command-output", ('{\n    "ARN": '
                            '"arn:aws:secretsmanager:{region}:{account}:secret:prod/{app}/db-AbC'
                            '123",\n    "Name": "prod/{app}/db",\n    "SecretString": '
                            '"{\\"username\\":\\"{user}\\",\\"password\\":\\"{s}\\"}",\n    '
                            '"VersionStages": ["AWSCURRENT"]\n}')),
        ("command-output", ("====== Data ======\nKey         Value\n---         -----\npassword  "
                            "  {s}\nusername    {user}\n")),
        ("command-output", "{s}"),
        ("transcript-tool-result-list", ("Retrieved the value with `op read "
                                         "op://Engineering/{app}/credential`:\n\n{s}")),
    )),
    Kind("environment-dump", _any_value, (
        ("command-output", ("HOSTNAME=web-7d9f8c6b5-x2k9p\nHOME=/root\nDATABASE_PASSWORD={s}\n"
                            "PATH=/usr/local/bin:/usr/bin:/bin\n")),
        ("command-output", ('declare -x LANG="C.UTF-8"\ndeclare -x SERVICE_TOKEN="{s}"\ndeclare '
                            '-x SHLVL="1"\n')),
        ("error-output", ("KeyError: 'DATABASE_URL'\n\nenviron({'PATH': '/usr/bin', "
                          "'API_SECRET': '{s}', 'HOME': '/app'})")),
    )),
    Kind("dotenv-secret", _any_value, (
        ("command-output", "NODE_ENV=production\nPORT=3000\nSESSION_SECRET={s}\nLOG_LEVEL=info\n"),
        ("transcript-tool-use-write", ('APP_ENV=staging\nJWT_SECRET="{s}"\n'
                                       "CORS_ORIGIN=https://staging.acme.io\n")),
        ("transcript-tool-result-string", ("     1→DB_HOST=localhost\n     2→DB_USER={user}\n    "
                                           " 3→DB_PASS={s}\n")),
        ("cli-save", "the .env for {app} needs ENCRYPTION_KEY={s} or startup fails"),
    )),
    Kind("config-file-secret", _any_value, (
        ("transcript-tool-use-write", ("database:\n  host: {host}\n  user: {user}\n  password: "
                                       '"{s}"\n')),
        ("transcript-tool-result-string", ("    12→[smtp]\n    13→host = smtp.mailgun.org\n    "
                                           "14→user = postmaster@mg.acme.io\n    15→password = "
                                           "{s}\n")),
        ("transcript-tool-use-write", ('{\n  "auth": {\n    "clientId": "web",\n    '
                                       '"clientSecret": "{s}"\n  }\n}\n')),
        ("command-output", "spring:\n  datasource:\n    username: {user}\n    password: {s}\n"),
    )),
    Kind("test-output-secret", _any_value, (
        ("error-output", ('    def test_login(client):\n>       assert client.login("{user}", '
                          '"{s}")\nE       AssertionError: assert False\n\n'
                          "tests/test_auth.py:14: AssertionError")),
        ("error-output", ("___________ test_signature ___________\n\nsecret = '{s}'\n\n    def "
                          "test_signature(secret):\n>       assert sign(b'x', secret) == "
                          "EXPECTED\nE       AssertionError")),
        ("transcript-tool-result-string", ("FAIL src/api.test.ts\n  ● client › sends the key\n\n "
                                           '   Expected: "Bearer {s}"\n    Received: undefined\n')),
    )),
    Kind("shell-trace-secret", _any_value, (
        ("error-output", ("+ set -x\n+ curl -fsS -H 'Authorization: Bearer {s}' "
                          "https://deploy.acme.io/hooks/release\ncurl: (22) The requested URL "
                          "returned error: 403")),
        ("error-output", ("+ export API_TOKEN={s}\n+ API_TOKEN={s}\n+ ./scripts/sync.sh\n"
                          "./scripts/sync.sh: line 9: jq: command not found")),
    )),
    # ---- issue 24: a value told beside its name, whatever punctuation it holds -----------
    Kind("use-value-as-name-punctuated-en", punctuated_password, (
        ("prompt-en", "use {s} as STAGING_DB_PASSWORD when you run the migrations"),
        ("prompt-en", "use '{s}' as REDIS_PASSWORD when you start the cache container"),
        ("prompt-en", 'Use "{s}" as the SMTP_PASSWORD for the mailer tests.'),
        ("transcript-user-text", ("use `{s}` as KEYCLOAK_ADMIN_PASSWORD when you bring the "
                                  "stack up, the realm import needs it")),
        ("prompt-en", "ok use {s} as MYSQL_ROOT_PASSWORD for now, I'll rotate it after the demo"),
        ("prompt-en", "take {s} for LDAP_BIND_PASSWORD, the bind dn is cn=admin,dc=acme,dc=com"),
        ("prompt-en", "set DB_PASSWORD to {s} before you run the seed script"),
        ("prompt-en", "set the RABBITMQ_DEFAULT_PASS to '{s}' and restart the broker"),
        ("transcript-user-text", "the ADMIN_PASSWORD is {s} on the staging box"),
        ("transcript-assistant-text", ("I'll use {s} as POSTGRES_PASSWORD in "
                                       "docker-compose.override.yml, as you asked, and keep it "
                                       "out of the committed compose file.")),
        ("transcript-thinking", ("The user wants {s} as the GRAFANA_ADMIN_PASSWORD. I'll put it "
                                 "in .env, not in the compose file.")),
        ("cli-save", "staging: use {s} as MINIO_ROOT_PASSWORD when you reset the bucket"),
        ("import-record", "VPN_PASSWORD is {s} (rotated monthly by IT)"),
        ("transcript-tool-use-bash", "echo 'use {s} as DB_PASSWORD when you connect' >> NOTES.md"),
    )),
    Kind("use-value-as-name-punctuated-ko", punctuated_password, (
        ("prompt-ko", "DB_PASSWORD로 {s} 써 줘"),
        ("prompt-ko", "{s}를 DB_PASSWORD로 사용해"),
        ("prompt-ko", "테스트 돌릴 때 REDIS_PASSWORD로 {s} 써"),
        ("prompt-ko", "{s} 을 STAGING_DB_PASSWORD 로 넣고 마이그레이션 돌려 줘"),
        ("prompt-ko", "KEYCLOAK_ADMIN_PASSWORD 값으로 {s} 넣어 줘"),
        ("prompt-ko", "RABBITMQ_DEFAULT_PASS에 {s} 넣고 브로커 재시작해 줘"),
        ("transcript-user-text", "SMTP_PASSWORD는 {s} 야. 메일 테스트 다시 해 줘"),
        ("transcript-user-text", "스테이징에서는 MINIO_ROOT_PASSWORD를 {s}로 바꿨어"),
        ("transcript-thinking", ("사용자가 {s} 를 POSTGRES_PASSWORD 로 쓰라고 했다. compose "
                                 "파일이 아니라 .env 에 넣자.")),
        ("import-record", "'{s}'를 VPN_PASSWORD로 쓰면 됨"),
        ("cli-save", '사내 깃랩 GITLAB_ROOT_PASSWORD는 "{s}" 입니다'),
    )),
    Kind("quoted-passphrase-as-name", passphrase, (
        ("prompt-en", "use '{s}' as the GPG_PASSPHRASE when you sign the release"),
        ("prompt-en", 'use "{s}" as BACKUP_ENCRYPTION_PASSPHRASE for restic'),
        ("transcript-user-text", "set SSH_KEY_PASSPHRASE to \"{s}\" in the runner's env"),
        ("prompt-ko", "'{s}'를 GPG_PASSPHRASE로 써 줘"),
        ("prompt-ko", 'RESTIC_PASSWORD는 "{s}" 야. 백업 다시 돌려 줘'),
    )),
    Kind("secret-file-as-data-url", _env_file_data, (
        ("transcript-tool-result-string", ('<a download="staging.env" '
                                           'href="data:text/plain;base64,{s}">staging.env</a>')),
        ("command-output", ('{"attachment": "data:text/plain;charset=utf-8;base64,{s}", "name": '
                            '"staging.env"}')),
        ("prompt-en", ("why does the browser save data:application/octet-stream;base64,{s} as a "
                       "file instead of showing it?")),
    )),
)
# fmt: on


# ---- look-alikes: what they are made of --------------------------------------------------


def _data_url(mime: str, magic: bytes) -> Maker:
    """A base64 data URL whose bytes start as the format's real header does."""
    return lambda rng: (
        f"data:{mime};base64,{b64(magic + random_bytes(rng, rng.randrange(90, 420)))}"
    )


def _ssh_rsa_public(rng: random.Random) -> str:
    return "AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + pick(rng, B64, 514)


_STRIPE_OBJECTS = ("cus_", "ch_3", "pi_3", "evt_1", "in_1", "sub_1", "price_1", "prod_", "pm_1",
                   "seti_1", "acct_1", "txn_3", "re_3", "cs_live_a1")  # fmt: skip


def _stripe_object(rng: random.Random) -> str:
    prefix = rng.choice(_STRIPE_OBJECTS)
    return prefix + pick(rng, ALNUM, 14 if prefix in ("cus_", "prod_") else 24)


def _svg(rng: random.Random) -> str:
    path = f"M{rng.randrange(99)} {rng.randrange(99)}h{rng.randrange(9)}v{rng.randrange(9)}z"
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="{path}"/></svg>'
    return "data:image/svg+xml;base64," + b64(svg.encode())


FILLERS.update(
    {
        "sha1": lambda rng: pick(rng, HEX, 40),
        "sha12": lambda rng: pick(rng, HEX, 12),
        "sha8": lambda rng: pick(rng, HEX, 8),
        "sha9": lambda rng: pick(rng, HEX, 9),
        "hex16": lambda rng: pick(rng, HEX, 16),
        "hex20": lambda rng: pick(rng, HEX, 20),
        "b64_20": lambda rng: b64(random_bytes(rng, 20)),
        "sri512": lambda rng: "sha512-" + b64(random_bytes(rng, 64)),
        "sri384": lambda rng: "sha384-" + b64(random_bytes(rng, 48)),
        "sri256": lambda rng: "sha256-" + b64(random_bytes(rng, 32)),
        "h1": lambda rng: "h1:" + b64(random_bytes(rng, 32)),
        "png": _data_url("image/png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
        "jpeg": _data_url("image/jpeg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00"),
        "gif": _data_url("image/gif", b"GIF89a"),
        "woff2": _data_url("font/woff2", b"wOF2\x00\x01\x00\x00"),
        "svg": _svg,
        "nix": lambda rng: pick(rng, "0123456789abcdfghijklmnpqrsvwxyz", 32),
        "cid": lambda rng: "bafybei" + pick(rng, B32_LOWER, 52),
        "qm": lambda rng: (
            "Qm" + pick(rng, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 44)
        ),
        "ulid": lambda rng: "01J" + pick(rng, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23),
        "ksuid": lambda rng: "2" + pick(rng, ALNUM, 26),
        "nanoid": lambda rng: pick(rng, URLSAFE, 21),
        "objectid": lambda rng: "66" + pick(rng, HEX, 22),
        "docid": lambda rng: "1" + pick(rng, URLSAFE, 43),
        "driveid": lambda rng: "1" + pick(rng, URLSAFE, 32),
        "ytid": lambda rng: pick(rng, URLSAFE, 11),
        "stripe_id": _stripe_object,
        "msg_id": lambda rng: "msg_01" + pick(rng, ALNUM, 22),
        "toolu_id": lambda rng: "toolu_01" + pick(rng, ALNUM, 22),
        "req_id": lambda rng: "req_011C" + pick(rng, ALNUM, 20),
        "chatcmpl": lambda rng: "chatcmpl-" + pick(rng, ALNUM, 29),
        "call_id": lambda rng: "call_" + pick(rng, ALNUM, 24),
        "file_id": lambda rng: "file-" + pick(rng, ALNUM, 22),
        "resp_id": lambda rng: "resp_" + pick(rng, HEX, 48),
        "thread_id": lambda rng: "thread_" + pick(rng, ALNUM, 24),
        "addr": lambda rng: "0x7f" + pick(rng, HEX, 10),
        "addr16": lambda rng: "0x00007f" + pick(rng, HEX, 10),
        "goaddr": lambda rng: "0x" + pick(rng, HEX, 6),
        "ed25519_pub": lambda rng: "AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(rng, B64, 43),
        "rsa_pub": _ssh_rsa_public,
        "ecdsa_pub": lambda rng: (
            "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB" + pick(rng, B64, 86) + "="
        ),
        "ssh_fp": lambda rng: "SHA256:" + b64(random_bytes(rng, 32)).rstrip("="),
        "gpg_fp": lambda rng: pick(rng, HEX_UPPER, 40),
        "gpg_id": lambda rng: pick(rng, HEX_UPPER, 16),
        "ec2": lambda rng: "i-0" + pick(rng, HEX, 16),
        "sg": lambda rng: "sg-0" + pick(rng, HEX, 16),
        "vpc": lambda rng: "vpc-0" + pick(rng, HEX, 16),
        "ami": lambda rng: "ami-0" + pick(rng, HEX, 16),
        "aida": lambda rng: "AIDA" + pick(rng, UPPER + DIGITS, 17),
        "aroa": lambda rng: "AROA" + pick(rng, UPPER + DIGITS, 17),
        "suffix6": lambda rng: pick(rng, ALPHA, 6),
        "pod": lambda rng: f"{rng.choice(_APPS)}-{pick(rng, HEX, 9)}-{pick(rng, LOWER_DIGITS, 5)}",
        "semver": lambda rng: (
            f"{rng.randrange(0, 20)}.{rng.randrange(0, 40)}.{rng.randrange(0, 30)}"
        ),
        "epoch": lambda rng: str(1_700_000_000 + rng.randrange(80_000_000)),
        "epoch_ms": lambda rng: str(1_700_000_000_000 + rng.randrange(80_000_000_000)),
        "eth_addr": lambda rng: "0x" + pick(rng, HEX, 40),
        "cert_body": lambda rng: _lines("MIID" + pick(rng, B64, 1200), 64),
        "pubkey_body": lambda rng: _lines(
            "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + pick(rng, B64, 348), 64
        ),
        "base64_words": lambda rng: b64(" ".join(rng.choice(_WORDS) for _ in range(8)).encode()),
        "hypothesis": lambda rng: b64(b"x\x9c" + random_bytes(rng, rng.randrange(8, 30))),
        "k8s_uid": uuid4,
        "trace": lambda rng: pick(rng, HEX, 32),
        "span": lambda rng: pick(rng, HEX, 16),
        "pk_live": lambda rng: "pk_live_51" + pick(rng, ALNUM, 96),
        "pk_test": lambda rng: "pk_test_51" + pick(rng, ALNUM, 96),
        "masked": lambda rng: (
            rng.choice(("sk-...", "sk-proj-...", "ghp_...", "xoxb-...", "AKIA..."))
            + pick(rng, ALNUM, 4)
        ),
        "stars": lambda rng: "*" * rng.randrange(8, 41),
        "vercel": lambda rng: f"{rng.choice(_APPS)}-{pick(rng, LOWER_DIGITS, 9)}-acme.vercel.app",
        "netlify": lambda rng: f"{pick(rng, HEX, 24)}--acme-docs.netlify.app",
    }
)

# ---- issue 24: images pasted as data URLs, real bytes ------------------------------------
# PNG and GIF files are built whole (chunks, CRCs, a zlib stream, LZW codes); the other
# formats open with their real header and go on with random bytes, as a compressed body
# does. The zlib stream is written with stored blocks, so its bytes do not depend on the
# zlib build (``zlib.compress`` may differ between builds; CRC-32 and Adler-32 do not).


def _stored_zlib(data: bytes) -> bytes:
    """``data`` as a zlib stream of stored (uncompressed) deflate blocks."""
    blocks = [data[i : i + 65535] for i in range(0, len(data), 65535)] or [b""]
    out = bytearray(b"\x78\x01")
    for number, block in enumerate(blocks):
        out.append(1 if number == len(blocks) - 1 else 0)
        out += struct.pack("<HH", len(block), len(block) ^ 0xFFFF) + block
    return bytes(out + struct.pack(">I", zlib.adler32(data)))


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _pixel(rng: random.Random, style: str, x: int, y: int, width: int) -> bytes:
    """One RGB pixel: flat bands and a frame (an icon, a UI), a ramp (a chart), noise (a photo)."""
    if style == "photo" or (style == "shot" and rng.randrange(9) == 0):
        return bytes(rng.randrange(256) for _ in range(3))  # detail that does not compress
    if style == "chart":
        return bytes(((x * 255) // width, 96 + y % 64, 200 if (x // 6) % 2 else 60))
    band = 245 if (y // 12) % 3 else 31
    edge = x in (0, width - 1) or y == 0
    return bytes((40, 90, 200) if edge else (band, band, band + 4 if band < 250 else 250))


def png_image(rng: random.Random, style: str, width: int, height: int) -> bytes:
    """A real PNG (8-bit RGB, no filter), its pixels drawn in ``style``."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows += _pixel(rng, style, x, y, width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = _png_chunk(b"IDAT", _stored_zlib(bytes(rows)))
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + pixels + _png_chunk(b"IEND", b"")


def _lzw_literals(pixels: bytes) -> bytes:
    """GIF image data whose codes are all literals (a clear code every 250 keeps them 9 bits)."""
    codes = [256]
    for number, pixel in enumerate(pixels):
        if number and number % 250 == 0:
            codes.append(256)
        codes.append(pixel)
    codes.append(257)
    packed, bits, width = bytearray(), 0, 0
    for code in codes:
        bits |= code << width
        width += 9
        while width >= 8:
            packed.append(bits & 0xFF)
            bits, width = bits >> 8, width - 8
    if width:
        packed.append(bits)
    blocks = b"".join(bytes([len(part)]) + part for part in
                      (bytes(packed[i : i + 255]) for i in range(0, len(packed), 255)))  # fmt: skip
    return b"\x08" + blocks + b"\x00"


def gif_image(rng: random.Random, width: int, height: int, frames: int) -> bytes:
    """A real GIF89a with a 256-colour table, looping over ``frames`` frames (a spinner)."""
    palette = bytes(rng.randrange(256) for _ in range(768))
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0) + palette)
    if frames > 1:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for frame in range(frames):
        out += b"\x21\xf9\x04\x04" + struct.pack("<H", 8) + b"\x00\x00"  # 80 ms, no transparency
        out += b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0)
        pixels = bytes((x + y + frame * 7) % 256 if rng.randrange(4) else rng.randrange(256)
                       for y in range(height) for x in range(width))  # fmt: skip
        out += _lzw_literals(pixels)
    return bytes(out + b"\x3b")


def _headed(header: bytes, low: int, high: int) -> Maker:
    """A file that opens with its format's real ``header`` and goes on with random bytes."""
    return lambda rng: b64(header + random_bytes(rng, rng.randrange(low, high)))


def _svg_icon(rng: random.Random) -> str:
    shapes = "".join(
        f'<rect x="{rng.randrange(20)}" y="{rng.randrange(20)}" width="{rng.randrange(2, 9)}" '
        f'height="{rng.randrange(2, 9)}" rx="1" fill="#{pick(rng, HEX, 6)}"/>'
        for _ in range(rng.randrange(2, 7))
    )
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
           f"{shapes}</svg>")  # fmt: skip
    return b64(svg.encode())


def _png_maker(style: str, low: int, high: int) -> Maker:
    def make(rng: random.Random) -> str:
        width = rng.randrange(low, high)
        return b64(png_image(rng, style, width, max(8, width * rng.randrange(5, 9) // 10)))

    return make


def _wrapped(make: Maker) -> Maker:
    """A body as ``base64.encodebytes`` writes it: lines of 76 characters, each ended."""
    return lambda rng: "\n".join(_lines(make(rng), 76).splitlines()) + "\n"


def _json_escaped(make: Maker) -> Maker:
    """A body as PHP's ``json_encode`` writes it: every slash escaped."""
    return lambda rng: make(rng).replace("/", "\\/")


def _csv_export(rng: random.Random) -> str:
    rows = (f"{rng.randrange(1000, 9999)},{rng.choice(_USERS)},{rng.randrange(1, 500)}.00\n"
            for _ in range(rng.randrange(3, 12)))  # fmt: skip
    return b64("".join(rows).encode())


_JSON_SETTINGS = ('{"theme":"dark","locale":"ko-KR","features":["search","export"],'
                  '"pageSize":50}')  # fmt: skip

FILLERS.update(
    {
        "png_icon": _png_maker("icon", 16, 48),
        "png_chart": _png_maker("chart", 40, 96),
        "png_shot": _png_maker("shot", 80, 160),
        "png_photo": _png_maker("photo", 24, 64),
        "png_icon_json": _json_escaped(_png_maker("icon", 16, 40)),
        "png_wrapped": _wrapped(_png_maker("shot", 40, 90)),
        "gif_spinner": lambda rng: b64(gif_image(rng, 16, 16, rng.randrange(3, 7))),
        "gif_pixel": lambda rng: b64(gif_image(rng, rng.randrange(1, 4), rng.randrange(1, 4), 1)),
        "jpeg_photo": _headed(
            b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x48\x00\x48", 600, 9000
        ),
        "webp_img": _headed(
            b"RIFF\x00\x10\x00\x00WEBPVP8 \xf4\x0f\x00\x00\x30\x47\x00\x9d\x01\x2a", 400, 6000
        ),
        "avif_img": _headed(b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf", 300, 4000),
        "svg_icon": _svg_icon,
        "otf": _headed(b"OTTO\x00\x0b\x00\x80\x00\x03\x00\x30CFF ", 2000, 12000),
        "octet": _headed(b"\x0a\x0c\x08\x01\x12\x08", 200, 3000),
        "pdf": _headed(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", 800, 6000),
        "wav": _headed(b"RIFF\x24\x08\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00", 400, 4000),
        "json_b64": lambda _rng: b64(_JSON_SETTINGS.encode()),
        "csv_b64": _csv_export,
    }
)


# fmt: off
LOOKALIKES: tuple[Lookalike, ...] = (
    Lookalike("git-log-output", (
        ("command-output", ("commit {sha40}\nAuthor: Minji Kim <minji@acme.io>\nDate:   Tue Jun "
                            "10 14:02:11 2025 +0900\n\n    fix(auth): refresh the token before "
                            "it expires\n\ncommit {sha40}\nMerge: {sha7} {sha7}\nAuthor: Dev "
                            "Bot <bot@acme.io>\nDate:   Mon Jun 9 09:00:00 2025 +0000\n\n    "
                            "Merge pull request #{num} from acme/rotate-keys")),
        ("command-output", ("{sha7} (HEAD -> main, origin/main) chore: bump ruff\n{sha7} fix: "
                            "keep git shas in the journal\n{sha7} feat(redact): azure client "
                            "secrets\n{sha7} test: secret corpus\n{sha7} Initial commit")),
        ("command-output", ("{sha9} HEAD@{0}: commit: wip\n{sha9} HEAD@{1}: rebase (finish): "
                            "returning to refs/heads/main\n{sha9} HEAD@{2}: checkout: moving "
                            "from feature/tokens to main")),
        ("command-output", ("pick {sha7} add token refresh\nsquash {sha7} fixup token refresh\n"
                            "pick {sha7} docs: rotate secrets\n\n# Rebase {sha7}..{sha7} onto "
                            "{sha7} (3 commands)")),
        ("command-output", ("diff --git a/src/auth.ts b/src/auth.ts\nindex {sha7}..{sha7} "
                            "100644\n--- a/src/auth.ts\n+++ b/src/auth.ts")),
        ("command-output", ("^{sha8} (Minji Kim 2025-06-10 14:02:11 +0900  41)     const token = "
                            "await refresh();\n{sha8} (Dev Bot   2025-06-09 09:00:00 +0000  42) "
                            "    return token;")),
        ("command-output", ("* main                {sha7} [origin/main] fix: handle expired "
                            "tokens\n  feature/rotate-keys {sha7} [origin/feature/rotate-keys: "
                            "ahead 2] wip")),
        ("command-output", "To github.com:acme/api.git\n   {sha7}..{sha7}  main -> main"),
    )),
    Lookalike("git-sha-in-command", (
        ("shell-command", "git show {sha40} --stat"),
        ("shell-command", "git bisect good {sha12} && git bisect bad HEAD"),
        ("shell-command", "git diff {sha7}...{sha7} -- src/"),
        ("prompt-en", "the regression came in with {sha40}, can you revert just the auth part?"),
        ("prompt-ko", "{sha7} 커밋 이후로 테스트가 깨졌어. 원인 찾아 줘"),
        ("transcript-tool-use-bash", ("gh run view --log-failed --job {num}{num} --repo acme/api "
                                      "| grep {sha7}")),
        ("transcript-tool-result-string", ("https://github.com/acme/api/commit/{sha40}\n"
                                           "https://github.com/acme/api/compare/{sha7}...{sha7}")),
    )),
    Lookalike("uuid", (
        ("command-output", ('{"level":"info","ts":"2025-06-10T05:02:11Z","request_id":"{uuid}","'
                            'user_id":"{uuid}","msg":"order created"}')),
        ("command-output", "x-request-id: {uuid}\nx-amzn-trace-id: Root=1-{sha8}-{hex20}{sha8}"),
        ("shell-command", "docker rm -f {uuid}"),
        ("command-output", ("metadata:\n  name: {pod}\n  uid: {uuid}\n  resourceVersion: "
                            '"{num}{num}{num}"')),
        ("prompt-en", "session {uuid} crashed twice, check the logs for that id"),
        ("transcript-tool-result-string", ("/home/dev/.claude/projects/-home-dev-acme-api/{uuid}"
                                           ".jsonl")),
        ("command-output", ("X-GitHub-Delivery: {uuid}\nX-GitHub-Event: push\n"
                            "X-Hub-Signature-256: sha256={sha64}")),
    )),
    Lookalike("digest-and-checksum", (
        ("command-output", ("{sha64}  dist/acme-2.4.0.tar.gz\n{sha64}  "
                            "dist/acme-2.4.0-py3-none-any.whl")),
        ("command-output", "{md5}  README.md\n{md5}  setup.cfg"),
        ("command-output", "{sha1}  node-v20.11.1-linux-x64.tar.xz"),
        ("shell-command", "echo '{sha64}  terraform_1.9.0_linux_amd64.zip' | sha256sum -c -"),
        ("command-output", "SHA512 (app.dmg) = {sha64}{sha64}"),
        ("command-output", 'ETag: "{md5}"\nLast-Modified: Tue, 10 Jun 2025 05:02:11 GMT'),
        ("transcript-tool-result-string", ('Cargo.lock:\n[[package]]\nname = "serde"\nversion = '
                                           '"1.0.203"\nsource = '
                                           '"registry+https://github.com/rust-lang/crates.io-ind'
                                           'ex"\nchecksum = "{sha64}"')),
    )),
    Lookalike("npm-integrity", (
        ("transcript-tool-result-string", ('    "node_modules/lodash": {\n      "version": '
                                           '"4.17.21",\n      "resolved": '
                                           '"https://registry.npmjs.org/lodash/-/lodash-4.17.21.'
                                           'tgz",\n      "integrity": "{sri512}"\n    },')),
        ("command-output", ('typescript@^5.4.0:\n  version "5.4.5"\n  resolved '
                            '"https://registry.yarnpkg.com/typescript/-/typescript-5.4.5.tgz#{sh'
                            'a40}"\n  integrity {sri512}')),
        ("transcript-tool-result-string", ("  /react@18.3.1:\n    resolution: {integrity: "
                                           "{sri512}}\n    engines: {node: '>=0.10.0'}")),
        ("command-output", ("npm notice shasum: {sha40}\nnpm notice integrity: {sri512}\nnpm "
                            "notice total files: 42")),
    )),
    Lookalike("pip-hash", (
        ("transcript-tool-use-write", ("requests==2.32.3 \\\n    --hash=sha256:{sha64} \\\n    "
                                       "--hash=sha256:{sha64}\n")),
        ("transcript-tool-result-string", ("files = [\n    {file = "
                                           '"pydantic-2.7.1-py3-none-any.whl", hash = '
                                           '"sha256:{sha64}"},\n]')),
        ("error-output", ("ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS "
                          "FILE.\n    urllib3==2.2.1 from "
                          "https://files.pythonhosted.org/packages/a2/73/urllib3-2.2.1-py3-none-"
                          "any.whl:\n        Expected sha256 {sha64}\n             Got        "
                          "{sha64}")),
        ("command-output", ("Created wheel for acme: filename=acme-0.1.0-py3-none-any.whl "
                            "size=4821 sha256={sha64}\n  Stored in directory: "
                            "/root/.cache/pip/wheels/{sha8}/{sha64}")),
    )),
    Lookalike("go-sum-line", (
        ("transcript-tool-result-string", ("github.com/google/uuid v1.6.0 {h1}\n"
                                           "github.com/google/uuid v1.6.0/go.mod {h1}")),
        ("error-output", ("verifying golang.org/x/net@v0.26.0: checksum mismatch\n\tdownloaded: "
                          "{h1}\n\tgo.sum:     {h1}")),
    )),
    Lookalike("docker-digest", (
        ("command-output", ("REPOSITORY   TAG         DIGEST                                     "
                            "                               IMAGE ID       SIZE\npython       "
                            "3.12-slim   sha256:{sha64}   {sha12}   130MB")),
        ("command-output", ("3.12-slim: Pulling from library/python\nDigest: sha256:{sha64}\n"
                            "Status: Downloaded newer image for python:3.12-slim")),
        ("transcript-tool-use-write", ("FROM node:20-alpine@sha256:{sha64} AS build\nWORKDIR "
                                       "/app\n")),
        ("command-output", ("CONTAINER ID   IMAGE          COMMAND                  STATUS\n"
                            '{sha12}   postgres:16    "docker-entrypoint.s…"   Up 2 hours')),
        ("command-output", ('[\n    {\n        "Id": "{sha64}",\n        "Created": '
                            '"2025-06-10T05:02:11.123Z"\n    }\n]')),
    )),
    Lookalike("base64-data-url", (
        ("transcript-tool-result-string", '<img alt="logo" src="{png}" />'),
        ("transcript-tool-use-write", ".icon-search {\n  background-image: url({svg});\n}\n"),
        ("command-output", ("@font-face { font-family: Inter; src: url({woff2}) format('woff2'); "
                            "}")),
        ("transcript-tool-result-string", '{"avatar": "{jpeg}", "name": "minji"}'),
        ("transcript-tool-use-write", 'export const spinner = "{gif}";\n'),
    )),
    Lookalike("provider-object-id", (
        ("command-output", ('{\n  "id": "{stripe_id}",\n  "object": "charge",\n  "customer": '
                            '"{stripe_id}",\n  "payment_intent": "{stripe_id}",\n  "amount": '
                            "2000\n}")),
        ("shell-command", "stripe customers retrieve {stripe_id}"),
        ("command-output", ('{"id":"{msg_id}","type":"message","role":"assistant","model":"claud'
                            'e-sonnet-4-5-20250929","content":[{"type":"tool_use","id":"{toolu_i'
                            'd}","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_us'
                            'e"}')),
        ("error-output", ("anthropic.RateLimitError: Error code: 429 - {'type': 'error', "
                          "'error': {'type': 'rate_limit_error'}, 'request_id': '{req_id}'}")),
        ("command-output", ('{"id": "{chatcmpl}", "object": "chat.completion", "created": '
                            '{epoch}, "model": "gpt-4o-2024-08-06", "choices": [{"message": '
                            '{"tool_calls": [{"id": "{call_id}"}]}}]}')),
        ("command-output", ('{"id": "{resp_id}", "object": "response"}\n{"id": "{file_id}", '
                            '"purpose": "batch"}\n{"id": "{thread_id}"}')),
        ("transcript-tool-result-string", ("stripe trigger payment_intent.succeeded\nSetting up "
                                           "fixture for: payment_intent\nRunning fixture for: "
                                           "payment_intent\nTrigger succeeded! Check dashboard "
                                           "for event details.\n  evt id: {stripe_id}")),
    )),
    Lookalike("memory-address", (
        ("error-output", ("TypeError: Object of type Session is not JSON serializable: "
                          "<app.db.Session object at {addr}>")),
        ("error-output", ("Program received signal SIGSEGV, Segmentation fault.\n{addr16} in "
                          "__strlen_avx2 () from /lib/x86_64-linux-gnu/libc.so.6\n#1  {addr16} "
                          "in main () at main.c:42")),
        ("error-output", ("panic: runtime error: invalid memory address or nil pointer "
                          "dereference\n[signal SIGSEGV: segmentation violation code=0x1 "
                          "addr=0x18 pc={goaddr}]\n\ngoroutine 1 [running]:\nmain.main()\n"
                          "\t/app/main.go:12 +0x1d")),
        ("command-output", "<function handler at {addr}>\n<coroutine object fetch at {addr}>"),
    )),
    Lookalike("build-chunk-hash", (
        ("command-output", ("dist/index.html                   0.46 kB │ gzip:  0.30 kB\n"
                            "dist/assets/index-{sha8}.css    12.31 kB │ gzip:  3.02 kB\n"
                            "dist/assets/index-{sha8}.js    142.31 kB │ gzip: 45.12 kB\n✓ built "
                            "in 2.41s")),
        ("command-output", ("Route (app)                              Size     First Load JS\n┌ "
                            "○ /                                    5.2 kB         92 kB\n  "
                            "chunks/framework-{hex16}.js  45.2 kB\n  chunks/main-{hex16}.js     "
                            "  32.1 kB\n  chunks/pages/_app-{hex16}.js  1.2 kB")),
        ("command-output", ("File sizes after gzip:\n\n  52.3 kB  "
                            "build/static/js/main.{sha8}.js\n  1.8 kB   "
                            "build/static/css/main.{sha8}.css")),
        ("command-output", ("asset vendors.{hex20}.bundle.js 1.2 MiB [emitted] [immutable] "
                            "(name: vendors)")),
    )),
    Lookalike("semver-and-versions", (
        ("command-output", ("Successfully installed anyio-{semver} httpx-{semver} "
                            "pydantic-{semver} pydantic-core-{semver}")),
        ("command-output", ("acme-web@{semver} /app\n├── next@{semver}\n├── react@{semver}\n└── "
                            "typescript@{semver}")),
        ("command-output", "v{semver}-beta.4+exp.sha.{sha7}"),
        ("prompt-en", "upgrade from {semver} to {semver} broke the build"),
    )),
    Lookalike("long-test-id", (
        ("command-output", ("PASSED "
                            "tests/test_redact.py::test_no_corpus_secret_survives[{num}-github-p"
                            "at-classic]\nFAILED "
                            "tests/test_api.py::test_roundtrip[payload7-utf8-{sha8}] - "
                            "AssertionError")),
        ("command-output", ("--- PASS: TestHandler/case_{nanoid} (0.00s)\n--- FAIL: "
                            "TestRotate/expired_{sha8} (0.01s)")),
        ("error-output", ("You can reproduce this example by temporarily adding "
                          "@reproduce_failure('6.100.1', b'{hypothesis}') as a decorator on "
                          "your test case")),
        ("command-output", ("  ✓ renders the masked token (12 ms)\n  ✕ rotates the key {uuid} "
                            "(31 ms)")),
        ("command-output", ("tests/e2e/test_session.py::test_full_session[claude-2.1.332-{sha12}"
                            "] SKIPPED (claude not installed)")),
    )),
    Lookalike("arn", (
        ("command-output", ('{\n    "UserId": "{aroa}:botocore-session-{epoch}",\n    "Account": '
                            '"{account}",\n    "Arn": '
                            '"arn:aws:sts::{account}:assumed-role/Deploy/botocore-session-{epoch'
                            '}"\n}')),
        ("command-output", ('{"UserId": "{aida}", "Account": "{account}", "Arn": '
                            '"arn:aws:iam::{account}:user/{user}"}')),
        ("shell-command", ("aws secretsmanager describe-secret --secret-id "
                           "arn:aws:secretsmanager:{region}:{account}:secret:prod/api/db-{suffix"
                           "6}")),
        ("transcript-tool-use-write", ('resource "aws_kms_alias" "app" {\n  target_key_id = '
                                       '"arn:aws:kms:{region}:{account}:key/{uuid}"\n}\n')),
        ("command-output", ("arn:aws:lambda:{region}:{account}:function:acme-resize\n"
                            "arn:aws:s3:::acme-backups/{date}/dump.sql.gz")),
        ("command-output", "INSTANCE  {ec2}  running  t3.small  {sg}  {vpc}\nIMAGE     {ami}"),
    )),
    Lookalike("ssh-public-key", (
        ("command-output", "ssh-ed25519 {ed25519_pub} {user}@laptop"),
        ("transcript-tool-use-write", ("ssh-rsa {rsa_pub} ci@acme\nssh-ed25519 {ed25519_pub} "
                                       "minji@acme\n")),
        ("command-output", "github.com ecdsa-sha2-nistp256 {ecdsa_pub}"),
        ("command-output", "256 {ssh_fp} {user}@laptop (ED25519)"),
        ("error-output", ("The authenticity of host 'git.acme.io (10.0.0.8)' can't be "
                          "established.\nED25519 key fingerprint is {ssh_fp}.\nThis key is not "
                          "known by any other names.")),
        ("transcript-tool-result-string", "|1|{b64_20}|{b64_20} ssh-ed25519 {ed25519_pub}"),
    )),
    Lookalike("gpg-fingerprint", (
        ("command-output", ("sec   rsa4096/{gpg_id} 2024-01-01 [SC]\n      {gpg_fp}\nuid         "
                            "        [ultimate] Minji Kim <minji@acme.io>\nssb   "
                            "rsa4096/{gpg_id} 2024-01-01 [E]")),
        ("shell-command", "git config --global user.signingkey {gpg_id}"),
        ("command-output", ("gpg: Signature made Tue Jun 10 14:02:11 2025 KST\ngpg:              "
                            '  using EDDSA key {gpg_fp}\ngpg: Good signature from "Release Bot '
                            '<release@acme.io>" [full]')),
        ("shell-command", "gpg --keyserver keys.openpgp.org --recv-keys {gpg_fp}"),
    )),
    Lookalike("public-certificate", (
        ("command-output", "-----BEGIN CERTIFICATE-----\n{cert_body}\n-----END CERTIFICATE-----"),
        ("transcript-tool-result-string", ("-----BEGIN PUBLIC KEY-----\n{pubkey_body}\n-----END "
                                           "PUBLIC KEY-----")),
    )),
    Lookalike("placeholder-and-reference", (
        ("transcript-tool-use-write", ("OPENAI_API_KEY=YOUR_API_KEY\n"
                                       "ANTHROPIC_API_KEY=<your-anthropic-key>\n"
                                       "STRIPE_SECRET_KEY=sk_test_...\n")),
        ("transcript-tool-use-write", ("env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  GH_TOKEN: "
                                       "${{ github.token }}\n")),
        ("shell-command", 'curl -H "Authorization: Bearer $API_TOKEN" https://api.acme.io/v1/me'),
        ("transcript-tool-use-write", ("password: {{ .Values.db.password | quote }}\napiKey: {{ "
                                       'required "apiKey" .Values.apiKey }}\n')),
        ("command-output", ("DATABASE_URL=postgres://user:password@localhost:5432/db\n"
                            "SECRET_KEY=replace-me\nAPI_TOKEN=<token>")),
        ("prompt-en", ("the docs say to run `export GITHUB_TOKEN=<your token>` but where do I "
                       "get one?")),
        ("transcript-tool-use-write", ("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n"
                                       "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAM"
                                       "PLEKEY\n")),
        ("transcript-tool-use-write", ('api_key = os.environ["ACME_API_KEY"]  # never hard-code '
                                       "it\n")),
        ("shell-command", 'export DB_PASSWORD="$(op read op://Engineering/db/password)"'),
        ("shell-command", ("aws ssm get-parameter --name /prod/db/password --with-decryption "
                           "--query Parameter.Value --output text")),
        ("prompt-ko", "토큰은 ${GITHUB_TOKEN} 으로 읽게 해 줘. 값은 절대 코드에 넣지 마"),
    )),
    Lookalike("masked-value", (
        ("command-output", ("github.com\n  ✓ Logged in to github.com account {user} (keyring)\n  "
                            "- Active account: true\n  - Git operations protocol: https\n  - "
                            "Token: gho_************************************\n  - Token scopes: "
                            "'gist', 'read:org', 'repo'")),
        ("command-output", ("NAME            VALUE\nSTRIPE_KEY      "
                            "sk_live_****************************4242\nOPENAI_API_KEY  {masked}")),
        ("command-output", ("Run ./deploy.sh\n  env:\n    API_TOKEN: ***\n    NPM_TOKEN: ***\n"
                            "deploying with token ***")),
        ("command-output", ("  + password = (sensitive value)\n  + api_key  = (sensitive value)\n"
                            "\nPlan: 3 to add, 0 to change, 0 to destroy.")),
        ("command-output", ("Name:         db-credentials\nNamespace:    {env}\nType:  Opaque\n\n"
                            "Data\n====\npassword:  16 bytes\nusername:  5 bytes")),
        ("prompt-en", "the key in the dashboard shows as {masked}, is that the one CI uses?"),
        ("command-output", "password={stars}\ntoken={stars}"),
        ("prompt-ko", "대시보드에는 {masked} 처럼 마지막 네 글자만 보여"),
    )),
    Lookalike("resource-and-record-id", (
        ("command-output", ('db.orders.find({ _id: ObjectId("{objectid}") })\n{ _id: '
                            'ObjectId("{objectid}"), status: "paid" }')),
        ("command-output", "{ulid} order.created\n{ulid} order.paid"),
        ("command-output", "segment id {ksuid} processed in {ms}ms"),
        ("transcript-tool-result-string", ("https://acme.io/share/{nanoid}\n"
                                           "https://acme.io/invite/{nanoid}")),
        ("command-output", "/nix/store/{nix}-python3-3.12.4\n/nix/store/{nix}-openssl-3.0.14"),
        ("command-output", "added to IPFS: {cid}\npinned {qm}"),
        ("prompt-en", ("the spec is in https://docs.google.com/document/d/{docid}/edit, follow "
                       "section 3")),
        ("transcript-tool-result-string", ("https://drive.google.com/file/d/{driveid}/view?usp=s"
                                           "haring")),
        ("prompt-en", "watch https://www.youtube.com/watch?v={ytid} and summarise the setup"),
        ("command-output", "Deployed to https://{vercel}\nPreview: https://{netlify}"),
        ("command-output", "trace_id={trace} span_id={span} parent_id={span} sampled=true"),
        ("command-output", "  wallet 0: {eth_addr} (balance 0.25 ETH)"),
    )),
    Lookalike("base64-that-is-not-a-secret", (
        ("shell-command", "echo {base64_words} | base64 -d"),
        ("command-output", "data:\n  config.yaml: {base64_words}\n"),
        ("transcript-tool-result-string", ("Content-Security-Policy: script-src 'self' "
                                           "'{sri256}' 'strict-dynamic'")),
        ("transcript-tool-use-write", ('<script src="https://cdn.acme.io/app.js" '
                                       'integrity="{sri384}" crossorigin="anonymous"></script>\n')),
        ("command-output", 'nextPageToken: "{b64_20}"\ntotalItems: 204'),
    )),
    Lookalike("public-by-design", (
        ("transcript-tool-use-write", "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={pk_live}\n"),
        ("transcript-tool-use-write", "const stripe = Stripe('{pk_test}');\n"),
    )),
    Lookalike("prose-about-secrets", (
        ("prompt-en", ("rotate every API key older than 90 days and tell me which services need "
                       "a redeploy")),
        ("prompt-en", "why does the token refresh loop run twice after login?"),
        ("transcript-assistant-text", ("The password field is hashed with argon2id before it is "
                                       "stored; the test only checks the hash.")),
        ("transcript-thinking", ("The 401 is about the token audience, not its value. I should "
                                 "compare the aud claim with the route's expected audience.")),
        ("prompt-ko", "비밀번호 재설정 메일이 두 번 가는 문제 고쳐 줘"),
        ("prompt-ko", "API 키는 .env 파일에 있으니까 그거 읽어서 써"),
        ("transcript-thinking", ("토큰이 만료되면 refresh 를 한 번만 호출해야 한다. 지금은 두 "
                                 "군데서 호출하고 있다.")),
        ("cli-save", ("secrets live in 1Password (vault Engineering); CI reads them through "
                      "OIDC, never from .env")),
        ("import-record", "API keys are rotated by the platform team every quarter"),
        ("transcript-tool-result-list", ("Summary: the token is read from process.env.ACME_TOKEN "
                                         "in src/client.ts:12 and never logged.")),
    )),
    Lookalike("flags-that-are-not-passwords", (
        ("shell-command", ("docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust "
                           "postgres:16")),
        ("shell-command", "ssh -p 2222 -i ~/.ssh/id_ed25519 deploy@{ip} 'uptime'"),
        ("shell-command", ("openssl req -new -nodes -newkey rsa:2048 -keyout server.key -out "
                           "server.csr -subj '/CN=acme.io'")),
        ("shell-command", ("openssl rand -hex 32 > .secrets/session_key && chmod 600 "
                           ".secrets/session_key")),
        ("shell-command", "pg_dump --no-password -h {host} -U {user} {db} > {db}.sql"),
        ("shell-command", ("kubectl create secret generic db "
                           "--from-file=password=./secrets/db_password.txt -n {env}")),
        ("shell-command", "gh secret set DEPLOY_KEY < ~/.ssh/deploy_key"),
        ("shell-command", ("docker login ghcr.io -u {user} --password-stdin < "
                           "~/.config/ghcr_token")),
        ("shell-command", ("printf '%s' \"$REGISTRY_PASSWORD\" | docker login registry.acme.io "
                           "-u {user} --password-stdin")),
        ("shell-command", "vault login -method=oidc role=dev && aws sso login --profile dev"),
        ("shell-command", ("vercel env pull .env.local && heroku config:get DATABASE_URL -a "
                           "{app} > /dev/null")),
        ("shell-command", "zip -e backup.zip exports/*.csv"),
        ("shell-command", "keytool -list -v -keystore truststore.jks -storepass:env STOREPASS"),
        ("shell-command", "gh secret list --repo {repo}"),
        ("command-output", ("NAME                  UPDATED\nAPI_KEY               about 2 days "
                            "ago\nDEPLOY_TOKEN          about 1 month ago\nNPM_TOKEN            "
                            " about 3 months ago")),
        ("command-output", ("NAME                  TYPE                             DATA   AGE\n"
                            "db-credentials        Opaque                           2      41d\n"
                            "regcred               kubernetes.io/dockerconfigjson   1      41d\n"
                            "tls-acme              kubernetes.io/tls                2      12d")),
    )),
    Lookalike("url-without-credentials", (
        ("shell-command", "git clone git@github.com:{repo}.git && cd api"),
        ("transcript-tool-use-write", ("DATABASE_URL=postgres://{user}@{host}:5432/{db}?sslmode="
                                       "require\nREDIS_URL=redis://localhost:6379/0\n")),
        ("shell-command", "git remote add upstream https://{user}@bitbucket.org/acme/api.git"),
        ("command-output", ("origin\thttps://github.com/{repo}.git (fetch)\n"
                            "origin\thttps://github.com/{repo}.git (push)")),
        ("transcript-tool-use-write", ("MONGO_URL=mongodb://localhost:27017/{db}\n"
                                       "AMQP_URL=amqp://rabbitmq:5672/%2f\n")),
        ("prompt-en", "open https://acme.atlassian.net/browse/OPS-{num} and list what's left"),
        ("command-output", ("Listening on http://127.0.0.1:{port}\nProxy: "
                            "http://proxy.corp.acme.com:3128 (no auth)")),
    )),
    Lookalike("plain-session-noise", (
        ("prompt-en", "run the tests and fix whatever fails"),
        ("prompt-ko", "테스트 돌리고 실패하는 거 고쳐 줘"),
        ("prompt-ko", "로그인 페이지에서 토큰 만료되면 자동으로 다시 로그인하게 해 줘"),
        ("prompt-ko", "키보드 단축키 설정 화면 만들어 줘"),
        ("prompt-ko", "비밀번호 입력칸에 보기 버튼 추가해 줘"),
        ("transcript-assistant-text", ("All 214 tests pass. I also removed the unused "
                                       "`legacy_token` helper.")),
        ("transcript-thinking", ("The migration failed because the column already exists. I'll "
                                 "make it idempotent with IF NOT EXISTS.")),
        ("command-output", "===== 214 passed, 3 skipped in 12.41s ====="),
        ("error-output", "error[E0382]: borrow of moved value: `token`\n  --> src/auth.rs:41:20"),
        ("command-output", "color: #1f2937; background: #f9fafb; border: 1px solid #e5e7eb;"),
        ("cli-save", "use pnpm, not npm, in the web repo"),
        ("import-record", "the deploy script reads its token from the CI secret store"),
    )),
    Lookalike("code-handling-secrets", (
        ("transcript-tool-use-write", ("def get_token() -> str:\n    token = "
                                       'os.environ.get("ACME_TOKEN")\n    if not token:\n       '
                                       ' raise RuntimeError("set ACME_TOKEN")\n    return '
                                       "token\n")),
        ("transcript-tool-result-string", ("    31→  const apiKey = process.env.OPENAI_API_KEY "
                                           "?? '';\n    32→  if (!apiKey) throw new "
                                           "Error('missing key');\n")),
        ("transcript-tool-use-write", ("password_hash = bcrypt.hashpw(password.encode(), "
                                       "bcrypt.gensalt(rounds=12))\n")),
        ("transcript-tool-use-write", ("func (c *Client) SetToken(token string) { c.token = "
                                       "token }\n")),
    )),
    # ---- issue 24: what a wider check saw rewritten ---------------------------------------
    Lookalike("image-data-url", (
        ("transcript-tool-result-string", ('<img alt="weekly signups" '
                                           'src="data:image/png;base64,{png_chart}" width="320">')),
        ("prompt-en", ("here's the screenshot of the broken login form: "
                       "data:image/png;base64,{png_shot} the password field overlaps the button")),
        ("transcript-user-text", ("![token refresh spinner](data:image/png;base64,{png_shot})\n"
                                  "the spinner never stops after the API key rotation")),
        ("transcript-tool-use-write", (".logo {\n  background-image: "
                                       "url('data:image/png;base64,{png_icon}');\n  width: "
                                       "32px;\n}\n")),
        ("command-output", ('{"id":42,"name":"minji","avatar":"data:image\\/png;base64,'
                            '{png_icon_json}","token_expires_in":3600}')),
        ("command-output", "data:image/png;base64,{png_wrapped}"),
        ("transcript-tool-use-write", ('export const SPINNER = '
                                       '"data:image/gif;base64,{gif_spinner}";\n')),
        ("transcript-tool-result-string", ('{"id": 7, "user": "hyunwoo", "photo": '
                                           '"data:image/jpeg;base64,{jpeg_photo}"}')),
        ("prompt-ko", ("이 이미지 data:image/webp;base64,{webp_img} 가 사파리에서 안 보여. 왜 "
                       "그래?")),
        ("transcript-tool-use-write", ('<link rel="icon" type="image/svg+xml" '
                                       'href="data:image/svg+xml;base64,{svg_icon}">\n')),
        ("command-output", ('<picture><source type="image/avif" '
                            'srcset="data:image/avif;base64,{avif_img}"><img src="/hero.jpg" '
                            'alt=""></picture>')),
        ("cli-save", "the default avatar is data:image/png;base64,{png_icon}"),
        ("import-record", "tracking pixel: data:image/gif;base64,{gif_pixel}"),
        ("transcript-tool-result-list", ("Rendered the diagram of the login flow:\n\n"
                                         "![login flow](data:image/png;name=login-flow.png;base64,"
                                         "{png_chart})\n\nThe refresh token is sent once.")),
        ("prompt-ko", ("로그인 화면 캡처야 data:image/png;base64,{png_shot} 비밀번호 입력칸이 "
                       "버튼이랑 겹쳐")),
        ("transcript-thinking", ("The user pasted a photo (data:image/png;base64,{png_photo}); it "
                                 "shows the error toast saying the session token expired.")),
    )),
    Lookalike("non-image-data-url", (
        ("transcript-tool-use-write", ('@font-face {\n  font-family: "Acme Sans";\n  src: '
                                       'url(data:font/otf;base64,{otf}) format("opentype");\n}\n')),
        ("command-output", ('{"file": "data:application/octet-stream;base64,{octet}", "name": '
                            '"weights.bin"}')),
        ("transcript-tool-result-string", ('<embed type="application/pdf" '
                                           'src="data:application/pdf;base64,{pdf}">')),
        ("transcript-tool-use-write", ('const settings = await fetch("data:application/json;'
                                       'base64,{json_b64}").then((r) => r.json());\n')),
        ("prompt-en", "the export link is data:text/csv;base64,{csv_b64} but Excel opens it empty"),
        ("transcript-tool-result-string", ('<audio controls '
                                           'src="data:audio/wav;base64,{wav}"></audio>')),
    )),
    Lookalike("git-sha-in-transcript", (
        ("command-output", "{sha40}\n"),
        ("transcript-tool-result-string", ("HEAD is now at {sha7} fix(auth): refresh the token "
                                           "before it expires")),
        ("command-output", ("{sha40} refs/heads/main\n{sha40} refs/heads/feature/rotate-api-keys\n"
                            "{sha40} refs/tags/v2.4.0")),
        ("command-output", ("{sha40} is the first bad commit\ncommit {sha40}\nAuthor: Minji Kim "
                            "<minji@acme.io>\nDate:   Tue Jun 10 14:02:11 2025 +0900\n\n    "
                            "refactor: load the API key lazily")),
        ("transcript-assistant-text", ("Bisect says {sha40} is the first bad commit: it moved the "
                                       "token check into the middleware.")),
        ("transcript-assistant-text", ("The regression came in with {sha12}, which changed how the "
                                       "session token is read.")),
        ("transcript-assistant-text", ("I compared {sha40} with {sha40} to see where the password "
                                       "validation changed.")),
        ("transcript-thinking", ("The key loader changed in {sha40}; I should diff it against main "
                                 "before touching the secrets code.")),
        ("transcript-tool-use-bash", "git revert --no-edit {sha40} && pytest tests/test_auth.py"),
        ("transcript-tool-result-list", ("Reverting {sha40} fixed the login test; the token "
                                         "refresh now runs once.")),
        ("transcript-user-text", "cherry-pick {sha40} onto release/2.4, it has the api key fix"),
        ("prompt-en", "what changed between {sha7} and {sha7} in the auth module?"),
        ("prompt-ko", "{sha40} 커밋에서 토큰 검증 로직이 바뀌었어. 이전 커밋이랑 비교해 줘"),
        ("prompt-ko", "{sha7} 이후로 로그인 테스트가 깨져. 원인 찾아 줘"),
        ("transcript-tool-result-string", ("[main {sha7}] fix: rotate the signing key loader\n 2 "
                                           "files changed, 14 insertions(+), 3 deletions(-)")),
        ("transcript-tool-result-string", ("https://github.com/acme/api/commit/{sha40}\n"
                                           "https://github.com/acme/api/pull/{num}/commits/{sha40}\n"
                                           "https://github.com/acme/api/blob/{sha40}/src/auth/token.ts#L42")),
        ("command-output", ('{"stdout": "commit {sha40}\\nAuthor: Dev Bot <bot@acme.io>\\n\\n    '
                            'fix(auth): keep the token out of the logs\\n\\ncommit {sha40}\\n'
                            'Author: Minji Kim <minji@acme.io>\\n\\n    feat: rotate api keys '
                            'weekly", "stderr": ""}')),
        ("error-output", ("error: could not apply {sha7}... fix: api key rotation\nhint: Resolve "
                          'all conflicts manually, mark them as resolved with "git add"')),
        ("command-output", "stash@{0}: WIP on main: {sha7} fix: token refresh race"),
        ("command-output", ("commit {sha64}\nAuthor: Minji Kim <minji@acme.io>\n\n    chore: move "
                            "the repo to sha256 object names")),
        ("transcript-tool-result-string", ("Run actions/checkout@v4\nSyncing repository: acme/api\n"
                                           "Checking out {sha40} (refs/remotes/pull/{num}/merge)\n"
                                           "HEAD is now at {sha7} Merge {sha40} into {sha40}")),
        ("transcript-assistant-text", ("Deployed {sha40} to production; the token endpoint "
                                       "answers 200 again.")),
        ("import-record", "the last good build was {sha40}, before the secrets loader refactor"),
        ("cli-save", "auth regression fixed in {sha12} (token check moved back into the handler)"),
    )),
    Lookalike("url-with-user-name-only", (
        ("error-output", "Cloning into 'api'...\nPassword for 'https://{user}@bitbucket.org': "),
        ("command-output", ("origin\thttps://{user}@bitbucket.org/acme/api.git (fetch)\n"
                            "origin\thttps://{user}@bitbucket.org/acme/api.git (push)")),
        ("error-output", ("remote: Invalid username or password.\nfatal: Authentication failed "
                          "for 'https://{user}@git.acme.io/platform/infra.git/'")),
        ("shell-command", "git clone ssh://git@gitlab.acme.io:2222/platform/infra.git"),
        ("transcript-tool-use-write", ('[remote "origin"]\n\turl = '
                                       "https://{user}@dev.azure.com/acme/Platform/_git/api\n\t"
                                       "fetch = +refs/heads/*:refs/remotes/origin/*\n")),
        ("shell-command", ("git remote set-url origin git@github.com:{repo}.git && git push -u "
                           "origin main")),
        ("command-output", "{user}@{ip}'s password: "),
        ("prompt-en", ("clone https://{user}@bitbucket.org/acme/legacy-api.git and check the CI "
                       "config")),
        ("prompt-ko", "https://{user}@dev.azure.com/acme/Platform/_git/api 로 클론해서 빌드해 줘"),
        ("transcript-tool-result-string", ('    "repository": {\n      "type": "git",\n      '
                                           '"url": "git+ssh://git@github.com/{repo}.git"\n    },')),
        ("shell-command", "pip install git+https://{user}@git.acme.io/platform/acme-sdk.git@v1.4.2"),
        ("command-output", ("Username for 'https://github.com': {user}\nPassword for "
                            "'https://{user}@github.com': ")),
        ("error-output", ("fatal: Authentication failed for "
                          "'https://gitlab+deploy-token-{num}@gitlab.com/acme/api.git/'")),
        ("command-output", "Connected to sftp://{user}@files.acme.io/exports/ (login ok)"),
        ("prompt-ko", "ssh {user}@{ip} 로 접속해서 로그 확인해 줘"),
        ("transcript-tool-use-bash", "rsync -avz ./dist/ {user}@{ip}:/var/www/html/"),
        ("transcript-tool-result-string", ("ssh: connect to host gitlab.acme.io port 2222: "
                                           "Connection refused\nfatal: Could not read from remote "
                                           "repository.\n\nremote: ssh://git@gitlab.acme.io:2222/"
                                           "platform/infra.git")),
    )),
    Lookalike("secret-name-with-a-reference", (
        ("prompt-en", "use settings.DB_PASSWORD as DB_PASSWORD in the test config"),
        ("prompt-en", "set API_KEY to $STAGING_API_KEY before you run the e2e suite"),
        ("prompt-en", "the REDIS_PASSWORD is in .env.local, don't print it"),
        ("prompt-en", "DB_PASSWORD is required; read it from the environment"),
        ("transcript-assistant-text", ("GITHUB_TOKEN is provided by Actions, so the workflow does "
                                       "not need a new secret.")),
        ("prompt-ko", "API_KEY는 .env에서 읽어"),
        ("prompt-ko", "DB_PASSWORD는 1Password에 있어. 코드에 넣지 마"),
        ("prompt-ko", "SMTP_PASSWORD를 환경 변수로 넘겨 줘"),
        ("transcript-tool-use-write", ("if API_KEY is None:\n    raise RuntimeError('set "
                                       "API_KEY')\n")),
        ("prompt-en", "use creds.json as GOOGLE_APPLICATION_CREDENTIALS in CI"),
        ("prompt-en", "the JWT_SECRET is too short, make it 64 bytes"),
        ("transcript-user-text", "API_TOKEN was rotated yesterday, pull the new one from vault"),
        ("prompt-ko", "STRIPE_SECRET_KEY 값은 os.environ으로 읽게 해 줘"),
        ("transcript-thinking", ("SECRET_KEY is read from process.env.SECRET_KEY, so the test has "
                                 "to set it.")),
    )),
)
# fmt: on


if __name__ == "__main__":
    raise SystemExit(main())
