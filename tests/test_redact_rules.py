"""The redaction rules of issue 9, one class at a time, in English and Korean carriers.

Secrets are drawn from a seeded generator here (no literal token in git); every case
checks that the secret is gone and that the words around it are kept. The look-alikes of
``core/entropy.py``'s keep-rules must come out byte for byte. The corpus-wide figures live
in ``test_secret_corpus.py`` and ``test_no_secret_on_disk.py``.
"""

from __future__ import annotations

import random
import string

import pytest

from artibot_memory.core import entropy
from artibot_memory.core.redact import reads_secret, redact, redact_value

RNG = random.Random(20261201)  # noqa: S311 - fake secrets, seeded
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"


def draw(alphabet: str, n: int) -> str:
    """A random token that mixes every class its alphabet has (as real keys do)."""
    needs = [test for test in (str.isupper, str.islower, str.isdigit) if any(map(test, alphabet))]
    while True:
        token = "".join(RNG.choice(alphabet) for _ in range(n))
        if all(any(test(c) for c in token) for test in needs):
            return token


def password() -> str:
    words = ["Copper", "Maple", "Tiger", "Amber", "Cedar", "Velvet", "Orbit"]
    return f"{RNG.choice(words)}{RNG.choice('!#$%*')}{RNG.choice(words)}{RNG.randint(10, 9999)}"


TOKEN_40 = draw(ALNUM, 40)
STORAGE_KEY = draw(B64, 86) + "=="
HEX_40 = draw(HEX, 40)
HEX_64 = draw(HEX, 64)
PW = password()


def gone(text: str, secret: str) -> str:
    out = redact(text)
    assert secret not in out, out
    for fragment in (secret[i : i + 16] for i in range(max(1, len(secret) - 15))):
        assert len(secret) < 16 or fragment not in out, out
    return out


# ---- bare tokens in prose


@pytest.mark.parametrize(
    "template",
    [
        "why does {s} return 401 when CI calls the API?",
        "the new one is {s}. Update .env.local",
        "ok I rotated it in the dashboard, it's {s} now. try the deploy again",
        "{s}",
        "스토리지 계정 키는 {s} 입니다. 배포 설정에 넣어 주세요",
        "관리 콘솔에서 재발급했어: {s}",
    ],
)
def test_a_bare_token_in_prose_is_redacted(template: str) -> None:
    for secret in (TOKEN_40, STORAGE_KEY):
        out = gone(template.format(s=secret), secret)
        assert out.count("[REDACTED:") == 1


@pytest.mark.parametrize(
    "template",
    [
        "ok rotated, now it's {s}, rerun the e2e suite",
        "Rotated the Algolia credential today; the current one is {s}",
        "paste this into the workflow env please: {s}",
        "새 키는 {s} 이야. 서버 다시 띄워 줘",
    ],
)
def test_hex_named_as_a_key_is_redacted(template: str) -> None:
    for secret in (HEX_40, HEX_64):
        gone(template.format(s=secret), secret)


# ---- the name after the value


@pytest.mark.parametrize(
    "template",
    [
        "use {s} as REDIS_PASSWORD when you run the tests",
        "use '{s}' as ENCRYPTION_KEY when you run the tests",
        "take {s} for SMTP_PASSWORD, the user is ops",
        "{s} goes into DB_PASS for the staging compose file",
        "set API_TOKEN to {s} and rerun",
        "{s}를 REDIS_PASSWORD로 설정해서 테스트 돌려줘",
        "테스트 돌릴 때 {s} 값을 AWS_SECRET_ACCESS_KEY 로 넣어",
        "{s} 이게 ENCRYPTION_KEY 야",
    ],
)
def test_a_value_named_after_it_is_redacted(template: str) -> None:
    for secret in (PW, TOKEN_40):
        out = gone(template.format(s=secret), secret)
        assert "REDIS_PASSWORD" in out or "KEY" in out or "PASS" in out or "TOKEN" in out


def test_a_name_after_a_word_is_kept() -> None:
    for text in ("treat this as FOO_KEY", "use the default as PASSWORD", "labels as keys"):
        assert redact(text) == text


# ---- commands that set or read a secret


@pytest.mark.parametrize(
    "template",
    [
        "gh secret set DEPLOY_KEY --body '{s}'",
        "gh secret set NPM_TOKEN -b {s}",
        "echo '{s}' | docker login registry.example.com -u bot --password-stdin",
        "printf '%s' '{s}' | wrangler secret put API_TOKEN",
        "echo {s} | sudo -S apt-get update",
        "ldapsearch -x -H ldap://ldap.example.com -D cn=admin,dc=example -w {s} -b dc=example",
        "psql -c \"ALTER USER app WITH PASSWORD '{s}';\"",
        "mysql -e \"CREATE USER 'app'@'%' IDENTIFIED BY '{s}';\"",
        "mysql -u root -e \"SET PASSWORD FOR 'release'@'%' = '{s}';\"",
        'sqlplus / as sysdba <<< "CREATE USER app IDENTIFIED BY {s};"',
        "./deploy --password=-{s}",
        "yq -i '.smtp.passwd = \"{s}\"' config.yml",
        "zip -P {s} archive.zip file.txt",
        "smbclient //server/share -U admin%{s}",
        "htpasswd -b .htpasswd admin {s}",
        "rabbitmqctl add_user app {s}",
        "curl -u svc_app:'{s}' https://jenkins.example.com/job/api/build -X POST",
        "fly secrets set STRIPE_WEBHOOK={s}",
        "firebase functions:secrets:set STRIPE_KEY --data-file <(echo -n '{s}')",
        "kubectl create secret generic db --from-literal=password={s}",
    ],
)
def test_a_secret_setting_command_loses_its_value(template: str) -> None:
    out = gone(template.format(s=PW), PW)
    assert out.split()[0] == template.split(maxsplit=1)[0]  # the command itself is kept


def test_a_variable_piped_into_a_login_is_kept() -> None:
    text = 'echo "$PASSWORD" | docker login --password-stdin'
    assert redact(text) == text


@pytest.mark.parametrize(
    "command",
    [
        "op read op://Engineering/notify/credential",
        "vault kv get -field=password secret/app",
        "aws secretsmanager get-secret-value --secret-id prod/db",
        "gcloud secrets versions access latest --secret=api",
        "security find-generic-password -s deploy -w",
    ],
)
def test_what_a_secret_reading_command_prints_is_redacted(command: str) -> None:
    assert reads_secret(command)
    record = {"command": command, "output": f"{PW}\n", "exit_code": 0}
    cleaned = redact_value(record)
    assert isinstance(cleaned, dict)
    assert cleaned["output"] == "[REDACTED:secret-output]"
    gone(f"$ {command}\n\n{PW}\n", PW)


def test_an_ordinary_command_output_is_not_a_secret() -> None:
    record = {"command": "op --version", "output": "2.30.0\n"}
    assert redact_value(record) == record


# ---- credential files written from the shell


@pytest.mark.parametrize(
    "template",
    [
        "printf 'machine api.example.com\\nlogin deploy\\npassword {s}\\n' >> ~/.netrc",
        "echo 'db.example.com:5432:*:app:{s}' >> ~/.pgpass",
        "localhost:5432:analytics:appuser:{s}\n*:*:*:replicator:{s}",
    ],
)
def test_a_credential_file_line_loses_its_password(template: str) -> None:
    gone(template.format(s=PW), PW)


def test_times_that_look_like_pgpass_lines_are_kept() -> None:
    for text in ('else "Mon:03:00-Mon:03:30"', "12:30:45:123:456 frame", "10:00:00:00:01"):
        assert redact(text) == text


# ---- passwords told in prose


@pytest.mark.parametrize(
    "template",
    [
        "login with hyunwoo / {s} and check the admin page",
        "router admin login: admin / {s}",
        "creds are ops:{s}",
        "pw for the vpn is {s} btw",
        "try {s} — that's what IT reset it to this morning",
        "Logged in as `admin` with the password you gave (`{s}`)",
        "관리자 비번 {s} 로 바꿨어. 로그인 테스트 다시 해 줘",
        "스테이징 서버 암호: {s}",
        "사내 위키 계정 jkim / 비번 {s}",
    ],
)
def test_a_password_told_in_prose_is_redacted(template: str) -> None:
    gone(template.format(s=PW), PW)


@pytest.mark.parametrize(
    "text",
    [
        "for i in range(January, January+12):",
        "x.date_time = ((d>>9)+1980, (d>>5)&0xF, d&0x1F)",
        "'sr_RS.UTF-8@latin'",
        "mail bob@acme.io about pkg@1.2.3",
        "raise ValueError('Non-Ascii85 digit found')",
        "the password is incorrect",
    ],
)
def test_code_and_addresses_are_not_passwords(text: str) -> None:
    assert redact(text) == text


# ---- vendor formats


def _vendor_tokens() -> list[tuple[str, str]]:
    azure = draw(ALNUM, 3) + "8Q~" + draw(ALNUM + "_~.-", 34)
    atlassian = "ATATT3" + draw(ALNUM + "_-", 180) + "=" + draw("0123456789ABCDEF", 8)
    terraform = draw(ALNUM, 14) + ".atlasv1." + draw(ALNUM, 67)
    discord = "M" + draw(ALNUM, 25) + "." + draw(ALNUM, 6) + "." + draw(ALNUM + "_-", 38)
    mailgun = draw(HEX, 32) + "-" + draw(HEX, 8) + "-" + draw(HEX, 8)
    session = "IQoJb3JpZ2luX2VjE" + draw(B64, 300)
    return [
        ("azure-client-secret", azure),
        ("atlassian-token", atlassian),
        ("terraform-token", terraform),
        ("discord-bot-token", discord),
        ("mailgun-key", mailgun),
        ("aws-session-token", session),
    ]


@pytest.mark.parametrize(("kind", "secret"), _vendor_tokens(), ids=lambda v: v[:24])
def test_vendor_formats_without_a_generic_shape_are_redacted(kind: str, secret: str) -> None:
    del kind  # the id of the case
    for template in ("here's the secret: {s} — can you wire it in?", "{s}\n", "값은 {s} 입니다"):
        gone(template.format(s=secret), secret)


# ---- what only looks random stays byte for byte


KEPT = [
    f"HEAD is now at {draw(HEX, 40)} fix: parser",
    f"commit {draw(HEX, 40)}\nAuthor: Dev <dev@example.com>",
    f"{draw(HEX, 64)}  dist/app.tar.gz",
    f"the regression came in with {draw(HEX, 40)}, bisect says",
    f"request_id={draw(HEX, 8)}-{draw(HEX, 4)}-4{draw(HEX, 3)}-a{draw(HEX, 3)}-{draw(HEX, 12)}",
    f'"integrity": "sha512-{draw(B64, 86)}=="',
    f"--hash=sha256:{draw(HEX, 64)}",
    f"image@sha256:{draw(HEX, 64)}",
    f'<img src="data:image/png;base64,iVBORw0KGgo{draw(B64, 120)}">',
    f"cus_{draw(ALNUM, 14)} ch_{draw(ALNUM, 24)} msg_01{draw(ALNUM, 22)}",
    f"toolu_01{draw(ALNUM, 22)} chatcmpl-{draw(ALNUM, 29)}",
    f"segfault at 0x7ffd{draw(HEX, 8)} in libc",
    "arn:aws:iam::123456789012:role/service-role/MyLambdaExecutionRole42",
    f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{draw(B64, 43)} dev@laptop",
    f"public_key=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{draw(B64, 43)}",
    f"ED25519 key fingerprint is SHA256:{draw(B64, 43)}.",
    "OPENAI_API_KEY=YOUR_API_KEY\nTOKEN=${{ secrets.DEPLOY_TOKEN }}\nKEY=$API_KEY",
    "STRIPE_SECRET_KEY=sk_test_...\nGITHUB_TOKEN=gho_****",
    f"--- PASS: TestHandler/case_{draw(ALNUM, 21)} (0.00s)",
    "getUserAccountSettingsForCurrentTenant() failed",
    f"/nix/store/{draw('0123456789abcdfghijklmnpqrsvwxyz', 32)}-python3-3.12.4",
    f"nextPageToken: {draw(B64, 28)}=",
    "echo Y2VkYXIgbHVuYXIgcXVhcnR6IHdpbGxvdyBjb3JhbCBoYXJib3Igd2lsbG93 | base64 -d",
    f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_{draw(ALNUM, 40)}",
    "semver 1.2.3-beta.4+build.5 and tests/test_api.py::TestUsers::test_create_returns_201",
]


@pytest.mark.parametrize("text", KEPT, ids=lambda t: t[:32])
def test_look_alikes_are_kept_byte_for_byte(text: str) -> None:
    assert redact(text) == text


def test_the_entropy_detector_tells_random_from_words() -> None:
    assert entropy.is_random_token(TOKEN_40)
    for word in ("TestLoginWithValidCredentials42", "GetDownloadUrlForLayer", "x" * 40):
        assert not entropy.is_random_token(word)


def test_a_marker_is_never_cut_by_a_later_rule() -> None:
    out = redact(f"curl https://api.stripe.com -u sk_live_{draw(ALNUM, 24)}: -d x=1")
    assert out.count("[REDACTED:") == out.count("]")
    assert "[REDACTED:[" not in out


@pytest.mark.parametrize(
    "row",
    [
        " " * 80 + "password    Hunter2Secret99",  # deep indentation
        "naïve_password    Hunter2Secret99",  # a name in another script
    ],
)
def test_a_table_row_is_seen_however_deep_and_in_any_script(row: str) -> None:
    assert redact(row).endswith("[REDACTED:password]")
