"""Secret redaction: no fake secret survives, look-alikes are kept, and nothing hangs."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import secretcorpus
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot_memory.core import redact as redact_module
from artibot_memory.core.redact import SECRET_KINDS, redact, redact_value

MARKER = re.compile(r"\[REDACTED:([a-z0-9-]+)\]")
# The seeded corpus (tests/secretcorpus.py); its kinds are descriptive labels, not marker
# kinds. Its figures (every secret gone, look-alikes kept) are tests/test_secret_corpus.py's.
SECRETS = secretcorpus.secrets()
BENIGN = secretcorpus.benign()


def _rows(rows: list[dict[str, str]]) -> list[object]:
    return [pytest.param(row, id=f"{index:03d}-{row['kind']}") for index, row in enumerate(rows)]


# --- the corpus itself -------------------------------------------------------------------


def test_secret_kinds_is_a_tuple_of_unique_names() -> None:
    assert isinstance(SECRET_KINDS, tuple)
    assert len(set(SECRET_KINDS)) == len(SECRET_KINDS)
    assert all(re.fullmatch(r"[a-z0-9-]+", kind) for kind in SECRET_KINDS)


# --- secrets go, look-alikes stay ----------------------------------------------------------


def test_at_least_98_percent_of_benign_lines_come_out_byte_identical() -> None:
    changed = [
        (row["text"], redact(row["text"])) for row in BENIGN if redact(row["text"]) != row["text"]
    ]
    kept = 1 - len(changed) / len(BENIGN)
    listing = "\n".join(f"  {before!r}\n    -> {after!r}" for before, after in changed)
    assert kept >= 0.98, f"kept {kept:.1%} of benign lines; changed:\n{listing}"


@pytest.mark.parametrize("row", _rows(SECRETS) + _rows(BENIGN))
def test_redacting_twice_changes_nothing_more(row: dict[str, str]) -> None:
    once = redact(row["text"])
    assert redact(once) == once


def test_every_marker_emitted_on_the_corpus_is_a_declared_kind() -> None:
    emitted = {kind for row in SECRETS for kind in MARKER.findall(redact(row["text"]))}
    assert emitted <= set(SECRET_KINDS)


# --- the forms that must be handled ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "export GITHUB_TOKEN=abc123def456ghi789",
            "export GITHUB_TOKEN=[REDACTED:env-secret]",
            id="export-keeps-the-name",
        ),
        pytest.param(
            "export GITHUB_TOKEN=ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
            "export GITHUB_TOKEN=[REDACTED:github-token]",
            id="a-known-shape-wins-over-the-generic-kind",
        ),
        pytest.param(
            "db --password Hunter2x", "db --password [REDACTED:password]", id="flag-space"
        ),
        pytest.param(
            "db --password=Hunter2x", "db --password=[REDACTED:password]", id="flag-equals"
        ),
        pytest.param(
            "mysql -u root -pHunter2", "mysql -u root -p[REDACTED:password]", id="mysql-attached-p"
        ),
        pytest.param(
            "docker login -u bob -p Hunter2x ghcr.io",
            "docker login -u bob -p [REDACTED:password] ghcr.io",
            id="docker-login-p",
        ),
        pytest.param(
            "https://user:pa55word@example.com/x",
            "https://user:[REDACTED:url-password]@example.com/x",
            id="url-password",
        ),
        pytest.param(
            "curl -u admin:Hunter2x http://localhost:9200",
            "curl -u admin:[REDACTED:basic-auth] http://localhost:9200",
            id="curl-user-colon-password",
        ),
        pytest.param(
            'curl -H "Authorization: Bearer abc123def456" https://api.example.com',
            'curl -H "Authorization: Bearer [REDACTED:authorization]" https://api.example.com',
            id="authorization-bearer",
        ),
        pytest.param(
            "Authorization: Basic dXNlcjpwYXNzd29yZA==",
            "Authorization: Basic [REDACTED:authorization]",
            id="authorization-basic",
        ),
        pytest.param('{"password": "Hunter2x"}', '{"password": "[REDACTED:password]"}', id="json"),
        pytest.param("api_key: abc123def456ghi", "api_key: [REDACTED:env-secret]", id="yaml"),
        pytest.param("password=x7Qz", "password=[REDACTED:password]", id="password-equals"),
        pytest.param("my password is hunter2", "my password is [REDACTED:password]", id="english"),
        pytest.param(
            "비밀번호는 hunter2입니다", "비밀번호는 [REDACTED:password]입니다", id="korean-particle"
        ),
        pytest.param("비밀번호: hunter2", "비밀번호: [REDACTED:password]", id="korean-colon"),
        pytest.param(
            "암호는 Tiger77 로 바꿨어요", "암호는 [REDACTED:password] 로 바꿨어요", id="korean-amho"
        ),
        pytest.param(
            "토큰은 abc123def456ghi 입니다", "토큰은 [REDACTED:secret] 입니다", id="korean-token"
        ),
        pytest.param("API 키는 abc123def456ghi", "API 키는 [REDACTED:secret]", id="korean-api-key"),
    ],
)
def test_a_secret_is_replaced_and_its_name_is_kept(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_a_private_key_block_is_replaced_whole_from_begin_to_end() -> None:
    block = [
        "-----BEGIN RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEAqKpRgnn6yq26",
        "Zm9vYmFy",
        "-----END RSA PRIVATE KEY-----",
    ]
    text = "\n".join(["before", *block, "after"])
    assert redact(text) == "before\n[REDACTED:private-key]\nafter"


def test_a_truncated_private_key_block_is_redacted_to_the_end_of_the_text() -> None:
    lines = [
        "$ head -3 id_ed25519",
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE",
        "bm9uZQAAAAAAAAABAAAAMwAAAAtz",
    ]
    assert redact("\n".join(lines)) == "$ head -3 id_ed25519\n[REDACTED:private-key]"


# --- judgement calls: what is kept on purpose -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("password = getpass()", id="code-call"),
        pytest.param('token = os.environ["TOKEN"]', id="code-subscript"),
        pytest.param("api_key = settings.API_KEY", id="code-attribute"),
        pytest.param("password = user_password", id="code-snake-case-variable"),
        pytest.param("def login(password: str) -> None:", id="type-annotation"),
        pytest.param("if token == expected_token:", id="comparison-with-a-variable"),
        pytest.param("pg_dump --password-file /run/secrets/pg mydb", id="password-file"),
        pytest.param("docker login -u bob --password-stdin", id="password-stdin"),
        pytest.param("PWD=/home/dev/project", id="shell-pwd-is-a-path"),
        pytest.param("keyboard=us", id="keyboard-is-not-key"),
        pytest.param("KEYS_DIR=/etc/app/keys", id="keys-dir"),
        pytest.param("monkey=banana", id="monkey"),
        pytest.param("password: changeme", id="changeme-is-a-published-default"),
        pytest.param("export OPENAI_API_KEY=YOUR_API_KEY", id="placeholder-your"),
        pytest.param("API_KEY=<your-api-key>", id="placeholder-angle"),
        pytest.param("GITHUB_TOKEN=${GITHUB_TOKEN}", id="reference-braces"),
        pytest.param('curl -H "Authorization: token $GITHUB_TOKEN" x', id="reference-in-header"),
        pytest.param("password=********", id="placeholder-stars"),
        pytest.param("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", id="aws-documentation-example"),
        pytest.param("reset your password", id="prose-without-value"),
        pytest.param("the token expired", id="prose-token-expired"),
        pytest.param("the password is incorrect", id="prose-common-word"),
        pytest.param("docker run -p 8080:80 nginx", id="docker-run-port"),
        pytest.param("mysql -u root -p mydb", id="mysql-p-prompts"),
        pytest.param('{"Tags": [{"Key": "Name", "Value": "web"}]}', id="aws-tags-bare-key"),
        pytest.param('{"prompt_tokens": 57, "total_tokens": 74}', id="llm-usage-counts"),
        pytest.param("git checkout 3f786850e387550fdab836ed7e6dc881de23001b", id="git-sha"),
        pytest.param("sha256:" + "ab" * 32, id="digest"),
        pytest.param('_SK_START = b"-----BEGIN OPENSSH PRIVATE KEY-----"', id="pem-header-mention"),
        pytest.param("Set-Cookie: theme=dark; Path=/", id="cookie-that-is-not-a-session"),
    ],
)
def test_a_look_alike_is_kept_byte_for_byte(text: str) -> None:
    assert redact(text) == text


# --- redact_value on hook payloads ---------------------------------------------------------------

GITHUB_TOKEN = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8"


def _post_tool_use() -> dict[str, object]:
    return {
        "session_id": "4f9d2c1e-8b7a-4c3d-9e2f-1a0b9c8d7e6f",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "export API_KEY=abc123def456ghi && ./deploy.sh", "timeout": 120},
        "tool_response": {
            "stdout": f"pushed with {GITHUB_TOKEN}\ndone",
            "stderr": "",
            "interrupted": False,
        },
    }


def test_redact_value_cleans_a_post_tool_use_payload_and_keeps_its_shape() -> None:
    payload = _post_tool_use()
    original = copy.deepcopy(payload)
    out = redact_value(payload)
    assert isinstance(out, dict)
    assert payload == original  # a copy, not an in-place edit
    assert out["tool_input"] == {
        "command": "export API_KEY=[REDACTED:env-secret] && ./deploy.sh",
        "timeout": 120,
    }
    assert out["tool_response"] == {
        "stdout": "pushed with [REDACTED:github-token]\ndone",
        "stderr": "",
        "interrupted": False,
    }
    assert out["session_id"] == payload["session_id"]
    assert GITHUB_TOKEN not in json.dumps(out)


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param(
            {"password": "correct horse battery staple"},
            {"password": "[REDACTED:password]"},
            id="secret-key-replaces-the-whole-value",
        ),
        pytest.param(
            {"api_key": "abc123def456"}, {"api_key": "[REDACTED:env-secret]"}, id="api-key"
        ),
        pytest.param(
            {"headers": {"Authorization": "Bearer abc123def456"}},
            {"headers": {"Authorization": "[REDACTED:authorization]"}},
            id="authorization-header-dict",
        ),
        pytest.param(
            {"pin": 123456}, {"pin": "[REDACTED:password]"}, id="number-under-a-secret-key"
        ),
        pytest.param({"password": ""}, {"password": ""}, id="empty-stays-empty"),
        pytest.param({"token": None}, {"token": None}, id="none-stays-none"),
        pytest.param(
            {"token_type": "bearer"}, {"token_type": "bearer"}, id="descriptive-name-kept"
        ),
        pytest.param({"Key": "Name"}, {"Key": "Name"}, id="bare-key-with-a-word-kept"),
        pytest.param(
            {GITHUB_TOKEN: 1},
            {"[REDACTED:github-token]": 1},
            id="dict-keys-are-redacted-too",
        ),
        pytest.param(
            ("password=Hunter2x", ["ok", {"secret": "s3cr3t!"}]),
            ("password=[REDACTED:password]", ["ok", {"secret": "[REDACTED:env-secret]"}]),
            id="tuples-and-lists-keep-their-types",
        ),
    ],
)
def test_redact_value_walks_nested_payloads(payload: object, expected: object) -> None:
    assert redact_value(payload) == expected


def test_redact_value_stops_at_a_depth_limit_instead_of_recursing_forever() -> None:
    deep: list[object] = ["password=Hunter2x"]
    for _ in range(500):
        deep = [deep]
    cyclic: list[object] = []
    cyclic.append(cyclic)
    assert "[REDACTED:too-deep]" in json.dumps(redact_value(deep))
    assert "Hunter2x" not in json.dumps(redact_value(deep))
    assert "[REDACTED:too-deep]" in repr(redact_value(cyclic))


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(None, id="none"),
        pytest.param(42, id="int"),
        pytest.param(3.5, id="float"),
        pytest.param(True, id="bool"),
        pytest.param(b"password=Hunter2x", id="bytes"),
        pytest.param(["password=Hunter2x"], id="list"),
    ],
)
def test_redact_returns_anything_that_is_not_a_str_unchanged(value: object) -> None:
    assert redact(value) is value  # type: ignore[arg-type]


# --- robustness -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        pytest.param("\ud800 password=Hunter2x \udfff", "Hunter2x", id="lone-surrogates"),
        pytest.param("\x00password=Hunter2x\x00", "Hunter2x", id="nul-bytes"),
        pytest.param("\u0130\u0130 password=Hunter2x", "Hunter2x", id="lowercase-changes-length"),
        pytest.param("\u202epassword=Hunter2x", "Hunter2x", id="bidi-override"),
    ],
)
def test_odd_strings_are_still_redacted(text: str, secret: str) -> None:
    assert secret not in redact(text)


def test_a_str_subclass_is_redacted_as_a_plain_str() -> None:
    class Shouty(str):
        __slots__ = ()

        def __str__(self) -> str:
            return "nothing to see"

    out = redact(Shouty("password=Hunter2x"))
    assert out == "password=[REDACTED:password]"
    assert type(out) is str


def test_a_failure_inside_redaction_returns_a_marker_not_the_original(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def explode(text: str) -> str:
        raise RuntimeError(text)

    monkeypatch.setattr(redact_module, "_redact", explode)
    monkeypatch.setattr(redact_module, "_MEMO", {})  # what this process redacted before
    assert redact("password=Hunter2x") == "[REDACTED:redaction-error]"


def test_a_text_redacted_before_comes_back_the_same_and_the_memory_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(redact_module, "_MEMO", {})
    calls: list[str] = []
    real = redact_module._redact  # noqa: SLF001

    def counted(text: str) -> str:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(redact_module, "_redact", counted)
    first = redact("export API_KEY=abc123xyz789")
    assert redact("export API_KEY=abc123xyz789") == first == "export API_KEY=[REDACTED:env-secret]"
    assert calls == ["export API_KEY=abc123xyz789"]
    for number in range(redact_module.MEMO_ENTRIES * 2):
        redact(f"line {number} of a long log")
    assert len(redact_module._MEMO) == redact_module.MEMO_ENTRIES  # noqa: SLF001
    long_text = "x " * redact_module.MEMO_CHARS
    redact(long_text)
    assert long_text not in redact_module._MEMO  # noqa: SLF001


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_comes_back_as_a_str_and_a_second_pass_changes_nothing(text: str) -> None:
    once = redact(text)
    assert isinstance(once, str)
    assert redact(once) == once


_WORDS = st.sampled_from(
    [
        "password",
        "token",
        "key",
        "=",
        ":",
        " ",
        '"',
        "'",
        "-",
        "--",
        "://",
        "@",
        "is",
        "Bearer",
        "Authorization",
        "비밀번호는",
        "eyJ",
        "ghp_",
        "sk-",
        "AKIA",
        "-p",
        "mysql",
        "\n",
        "x9Q",
        "abc",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=40).map("".join))
def test_secret_flavoured_noise_is_stable_under_a_second_pass(text: str) -> None:
    once = redact(text)
    assert redact(once) == once


_ADVERSARIAL = [
    pytest.param("a" * 100_000, id="a-100k"),
    pytest.param("=" * 100_000, id="equals-100k"),
    pytest.param("eyJ" * 30_000, id="eyJ-30k"),
    pytest.param("key=" * 25_000, id="key-equals"),
    pytest.param("password: x " * 8_000, id="password-colon"),
    pytest.param("://a:" * 20_000, id="scheme-colon"),
    pytest.param("-----BEGIN RSA PRIVATE KEY-----\n" * 3_000, id="pem-headers"),
    pytest.param("-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 100_000, id="pem-without-end"),
    pytest.param("Authorization: " * 7_000, id="authorization"),
    pytest.param("mysql -p" * 12_000, id="mysql-p"),
    pytest.param("the token is " * 8_000, id="prose"),
    pytest.param("비밀번호는 " * 15_000, id="korean"),
    pytest.param('token="\\' * 20_000, id="escaped-quotes"),
    pytest.param("Cookie: a=b; " * 8_000, id="cookies"),
    pytest.param("SKAC" * 25_000, id="twilio-prefixes"),
    pytest.param("data:image/png;base64,AAAA " * 10_000, id="data-urls"),
    pytest.param("data:text/plain;base64," + "QUFB" * 25_000, id="text-data-url"),
    pytest.param("data:image/png;base64," + ("A" * 76 + "\n") * 1_300, id="wrapped-data-url"),
    pytest.param("'" * 100_000 + " as API_KEY", id="quotes-before-a-name"),
    pytest.param("API_KEY is " * 10_000, id="name-is"),
    pytest.param("DB_PASSWORD는 " * 10_000, id="korean-name-first"),
    pytest.param("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" * 3_000, id="key-bodies"),
]


@pytest.mark.parametrize("text", _ADVERSARIAL)
def test_adversarial_input_finishes(text: str) -> None:
    assert isinstance(redact(text), str)


def test_a_one_megabyte_mixed_input_finishes_and_loses_its_secrets() -> None:
    rows = "\n".join(row["text"] for row in SECRETS + BENIGN)
    text = (rows + "\n") * (1_000_000 // len(rows) + 1)
    out = redact(text)
    assert len(text) >= 1_000_000
    assert not any(row["secret"] in out for row in SECRETS)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("a" * 1_000_000, id="a"),
        pytest.param("=" * 1_000_000, id="equals"),
        pytest.param("eyJ" * 333_334, id="eyJ"),
    ],
)
def test_one_megabyte_of_a_repeated_prefix_finishes(text: str) -> None:
    assert isinstance(redact(text), str)


# --- the fast path's constraints ------------------------------------------------------------


def test_the_module_imports_nothing_outside_the_standard_library() -> None:
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import artibot_memory.core.redact as module\n"
        "module.redact('export API_KEY=abc123def456 && mysql -pHunter2 ' * 50)\n"
        "new = {name for name in set(sys.modules) - before}\n"
        "print(sorted(name for name in new if name.split('.')[0] not in sys.stdlib_module_names))\n"
    )
    result = subprocess.run(  # noqa: S603 - our own interpreter, our own script
        [sys.executable, "-S", "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(redact_module.__file__).parents[2],
    )
    own = ["artibot_memory", "artibot_memory.core", "artibot_memory.core.entropy"]
    own += ["artibot_memory.core.private"]  # <private> blocks go first (core/private.py)
    assert result.stdout.strip() == str([*own, "artibot_memory.core.redact"])


def test_a_text_without_anchors_compiles_no_pattern() -> None:
    script = (
        "import artibot_memory.core.redact as r\n"
        "r.redact('ls -la /tmp && echo done\\n' * 80)\n"
        "print(sorted(r._COMPILED))\n"
    )
    result = subprocess.run(  # noqa: S603 - our own interpreter, our own script
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def _every_rule_in_order(text: str) -> str:
    """The rules as they ran before they were gated: each on the text the last one left."""
    rules = redact_module._RULES  # noqa: SLF001
    folded_from, folded = None, ""
    for rule in rules:
        if rule.fold and folded_from is not text:
            folded_from, folded = text, redact_module._folded(text)  # noqa: SLF001
        text = redact_module._run(rule, text, folded)  # noqa: SLF001
    return text


def test_the_rule_gate_skips_only_rules_that_could_not_match_the_corpus() -> None:
    texts = [row["text"] for row in [*secretcorpus.secrets(), *secretcorpus.benign()]]
    for text in texts:
        assert redact_module._apply_rules(text) == _every_rule_in_order(text), text  # noqa: SLF001


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aeiksptwdnor_-=:/. \nAKIAghp0123456789\"'", max_size=120))
def test_the_rule_gate_skips_only_rules_that_could_not_match_any_text(text: str) -> None:
    assert redact_module._apply_rules(text) == _every_rule_in_order(text)  # noqa: SLF001
