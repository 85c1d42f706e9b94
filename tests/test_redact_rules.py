"""The redaction rules of issue 9, one class at a time, in English and Korean carriers.

Secrets are drawn from a seeded generator here (no literal token in git); every case
checks that the secret is gone and that the words around it are kept. The look-alikes of
``core/entropy.py``'s keep-rules must come out byte for byte. The corpus-wide figures live
in ``test_secret_corpus.py`` and ``test_no_secret_on_disk.py``.
"""

from __future__ import annotations

import base64
import random
import string

import pytest
import secretcorpus

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


# ---- issue 24: a value told beside a secret's name, whatever punctuation it holds


def punctuated() -> list[str]:
    """Passwords people make up, with a dot, a slash, an at sign, a bang, a hash, a percent."""
    words = ["falcon", "juniper", "harbor", "quill", "ember", "sable"]
    first, second = RNG.choice(words), RNG.choice(words)
    number = RNG.randint(10, 9999)
    return [
        f"{first.title()}.{second.title()}{number}",
        f"{first}{RNG.randint(1, 9)}.{second}",
        f"{first}/{second.title()}!{number}",
        f"{first.title()}@{second}.{number}!",
        f"{first}#{second}%{number}.x",
        draw(ALNUM, 6) + "." + draw(ALNUM + "!@#%/", 10),
    ]


TOLD = [
    "use {s} as REDIS_PASSWORD when you run the tests",
    "use '{s}' as STAGING_DB_PASSWORD when you run the migrations",
    'Use "{s}" as the SMTP_PASSWORD.',
    "use `{s}` as API_TOKEN for the e2e suite",
    "take {s} for LDAP_BIND_PASSWORD",
    "{s} goes into DB_PASS for the staging compose file",
    "set DB_PASSWORD to {s} before you seed",
    "set the RABBITMQ_DEFAULT_PASS to '{s}' and restart",
    "the ADMIN_PASSWORD is {s} on the staging box",
    "DB_PASSWORD로 {s} 써",
    "{s}를 DB_PASSWORD로 사용해",
    "{s} 을 STAGING_DB_PASSWORD 로 넣고 마이그레이션 돌려 줘",
    "테스트 돌릴 때 REDIS_PASSWORD로 {s}를 써",
    "SMTP_PASSWORD는 {s} 야",
    "KEYCLOAK_ADMIN_PASSWORD 값으로 {s} 넣어 줘",
    "'{s}'를 VPN_PASSWORD로 쓰면 됨",
    "earlier line\\n{s} as REDIS_PASSWORD, escaped as a JSON string holds it",
    "set DB_PASSWORD to {s}\\nnext line of the JSON string",
]


@pytest.mark.parametrize("template", TOLD)
def test_a_value_told_beside_its_name_is_redacted_whatever_its_punctuation(template: str) -> None:
    for secret in punctuated():
        out = gone(template.format(s=secret), secret)
        assert "PASS" in out or "TOKEN" in out  # the name stays: it says what was there


@pytest.mark.parametrize(
    "template",
    [
        "use '{s}' as the GPG_PASSPHRASE when you sign the release",
        'set SSH_KEY_PASSPHRASE to "{s}" in the env',
        "'{s}'를 GPG_PASSPHRASE로 써 줘",
        'RESTIC_PASSWORD는 "{s}" 야',
    ],
)
def test_a_quoted_passphrase_with_blanks_is_redacted_whole(template: str) -> None:
    secret = f"ember sable quill {RNG.randint(100, 999)}!"
    out = redact(template.format(s=secret))
    assert "ember sable" not in out
    assert "quill" not in out


@pytest.mark.parametrize(
    "text",
    [
        "use settings.DB_PASSWORD as DB_PASSWORD in the test config",
        "use os.environ['DB_PASSWORD'] as PGPASSWORD",
        "set API_KEY to $STAGING_API_KEY before you run the e2e suite",
        "use creds.json as GOOGLE_APPLICATION_CREDENTIALS in CI",
        "the REDIS_PASSWORD is in .env.local, don't print it",
        "DB_PASSWORD is required; read it from the environment",
        "GITHUB_TOKEN is provided by Actions",
        "the JWT_SECRET is too short, make it 64 bytes",
        "SECRET_KEY is read from process.env.SECRET_KEY",
        "if API_KEY is None:\n    raise RuntimeError('set API_KEY')",
        "API_KEY는 .env에서 읽어",
        "DB_PASSWORD는 1Password에 있어. 코드에 넣지 마",
        "STRIPE_SECRET_KEY 값은 os.environ으로 읽게 해 줘",
        "pytest 돌릴 때 DB_PASSWORD는 환경 변수로 넘겨 줘",
    ],
)
def test_a_secret_name_beside_a_reference_or_a_word_is_kept(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "template",
    [
        "my password is {s}",
        "pw for the vpn is {s} btw",
        "비밀번호는 {s} 입니다",
        "{s} is the webhook secret",
    ],
)
def test_a_password_with_a_dot_told_in_prose_is_redacted(template: str) -> None:
    for secret in punctuated()[:2]:
        gone(template.format(s=secret), secret)


def test_a_bearer_token_with_an_at_sign_is_redacted() -> None:
    secret = RNG.choice(string.ascii_uppercase) + "@" + draw(ALNUM, 18)  # no run of 20
    gone(f'    Expected: "Bearer {secret}"\n    Received: undefined', secret)


# ---- issue 24: images pasted as data URLs are data, never a secret


def _image(kind: str, size: int) -> bytes:
    rng = random.Random(f"{kind}-{size}")  # noqa: S311 - pixels
    if kind == "png":
        return secretcorpus.png_image(rng, "photo", size, size)
    if kind == "gif":
        return secretcorpus.gif_image(rng, size, size, 3)
    header = {"jpeg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "webp": b"RIFF\x00\x10\x00\x00WEBPVP8 "}
    return header[kind] + bytes(rng.randrange(256) for _ in range(size * size * 3))


IMAGES = [(kind, size) for kind in ("png", "gif", "jpeg", "webp") for size in (2, 24, 180)]


@pytest.mark.parametrize(("kind", "size"), IMAGES)
@pytest.mark.parametrize(
    "carrier",
    [
        '<img alt="login form" src="{url}">',
        "here's the screenshot: {url} the password field overlaps the token banner",
        "![화면](data-url-placeholder)\n비밀번호 입력칸이 버튼이랑 겹쳐",
        '{{"avatar": "{escaped}", "api_key_hint": "last 4: 9f3a"}}',
        "{wrapped}",
    ],
)
def test_an_image_data_url_is_kept_byte_for_byte(kind: str, size: int, carrier: str) -> None:
    body = base64.b64encode(_image(kind, size)).decode()
    url = f"data:image/{kind};base64,{body}"
    text = carrier.format(
        url=url,
        escaped=url.replace("/", "\\/"),
        wrapped=f"data:image/{kind};base64," + base64.encodebytes(_image(kind, size)).decode(),
    ).replace("data-url-placeholder", url)
    assert redact(text) == text


def test_an_svg_icon_data_url_is_kept() -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M4 4h16"/></svg>'
    body = base64.b64encode(svg.encode()).decode()
    text = f'<link rel="icon" href="data:image/svg+xml;base64,{body}">'
    assert redact(text) == text


def test_a_secret_beside_an_image_is_still_redacted() -> None:
    body = base64.b64encode(_image("png", 24)).decode()
    wrapped = base64.encodebytes(_image("png", 24)).decode()
    for text, image in (
        (f"![shot](data:image/png;base64,{body}) and the db password is {PW}", body),
        (f"data:image/png;base64,{wrapped}export GITHUB_TOKEN={TOKEN_40}\n", wrapped),
        (f"PHOTO_PASSWORD={PW} avatar=data:image/png;base64,{body}", body),
    ):
        out = redact(text)
        assert PW not in out
        assert TOKEN_40 not in out
        assert image in out  # the image itself comes back whole


@pytest.mark.parametrize(
    ("media_type", "payload"),
    [
        ("font/otf", b"OTTO\x00\x0b\x00\x80" + bytes(range(256)) * 8),
        ("application/octet-stream", bytes(RNG.randrange(256) for _ in range(2000))),
        ("application/pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" + bytes(range(256)) * 4),
        ("application/json", b'{"theme":"dark","locale":"ko-KR","pageSize":50}'),
        ("text/csv", b"id,user,total\n4821,minji,120.00\n4822,jkim,31.50\n"),
    ],
)
def test_a_data_url_of_another_type_is_kept_unless_it_carries_a_secret(
    media_type: str, payload: bytes
) -> None:
    text = f'<a href="data:{media_type};base64,{base64.b64encode(payload).decode()}">file</a>'
    assert redact(text) == text


@pytest.mark.parametrize("media_type", ["text/plain", "application/octet-stream", "text/x-env"])
def test_a_data_url_whose_text_holds_a_secret_is_redacted_whole(media_type: str) -> None:
    payload = f"DEBUG=false\nDATABASE_PASSWORD={PW}\nSECRET_KEY={TOKEN_40}\n".encode()
    body = base64.b64encode(payload).decode()
    out = redact(f'<a download=".env" href="data:{media_type};base64,{body}">.env</a>')
    assert body[:16] not in out
    assert f"data:{media_type};base64,[REDACTED:" in out


def test_an_image_data_url_never_calls_its_text_a_secret() -> None:
    # an SVG is text: a word in it is a drawing's, not a credential
    svg = f'<svg xmlns="http://www.w3.org/2000/svg"><desc>password={PW}</desc></svg>'
    text = f"data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}"
    assert redact(text) == text


# ---- issue 24: a git SHA is a commit's name, never a secret


def _sha(length: int) -> str:
    return "".join(RNG.choice(HEX) for _ in range(length))


SHA_CARRIERS = [
    "commit {40}\nAuthor: Minji Kim <minji@acme.io>\n\n    fix(auth): refresh the token",
    "HEAD is now at {7} fix(auth): refresh the API key before it expires",
    "HEAD is now at {40} fix(auth): refresh the API key before it expires",
    "https://github.com/acme/api/commit/{40}",
    "See https://github.com/acme/api/commit/{40} for the token fix",
    "{40}\n",
    "{64}\n",
    "{40} refs/heads/main\n{40} refs/tags/v2.4.0",
    "{40} is the first bad commit\ncommit {40}\n\n    refactor: load the API key lazily",
    "I compared {40} with {40} to see where the password validation changed.",
    "The key loader changed in {40}; I should diff it against main.",
    "Let me look at {40} to see what changed in the API key loader.",
    "Then I checked out {40} and the login test passed.",
    "Reverting {40} fixed the login test; the token refresh runs once.",
    "cherry-pick {40} onto release/2.4, it has the api key fix",
    "Deployed {40} to production; the token endpoint answers 200 again.",
    '{{"stdout": "commit {40}\\nAuthor: Dev <d@acme.io>\\n\\n    keep the token out\\n\\n"}}',
    '{{"stdout": "fix(auth): rotate the api key\\ncommit {40}\\nAuthor: Dev <d@acme.io>"}}',
    "Checking out {40} (refs/remotes/pull/42/merge)",
    "{40} 커밋에서 토큰 검증 로직이 바뀌었어. 이전 커밋이랑 비교해 줘",
    "{7} 이후로 로그인 테스트가 깨져. 원인 찾아 줘",
    "[main {7}] fix: rotate the signing key loader",
]


@pytest.mark.parametrize("carrier", SHA_CARRIERS)
def test_a_git_sha_is_kept_wherever_git_or_a_person_names_a_commit(carrier: str) -> None:
    text = carrier
    for length in ("40", "64", "7"):
        while "{" + length + "}" in text:
            text = text.replace("{" + length + "}", _sha(int(length)), 1)
    text = text.replace("{{", "{").replace("}}", "}")
    assert redact(text) == text


# ---- issue 24: a URL's user name is kept, its password is not


@pytest.mark.parametrize(
    "text",
    [
        "git clone https://minji@bitbucket.org/acme/api.git",
        "git clone ssh://git@gitlab.acme.io:2222/platform/infra.git",
        "git remote set-url origin git@github.com:acme/api.git",
        "origin\thttps://jkim@dev.azure.com/acme/Platform/_git/api (fetch)",
        "Cloning into 'api'...\nPassword for 'https://minji@bitbucket.org': ",
        "Username for 'https://github.com': jkim\nPassword for 'https://jkim@github.com': ",
        "deploy@10.0.3.17's password: ",
        "fatal: Authentication failed for 'https://gitlab+deploy-token-4821@gitlab.com/acme/api.git/'",
        "fatal: Authentication failed for 'gitlab+deploy-token-4821@gitlab.com:acme/api.git/'",
        "ssh login git@github.com:acme2/api.git works again",
        "https://minji@bitbucket.org 로 클론해 줘",
        "pip install git+https://ci-bot@git.acme.io/platform/acme-sdk.git@v1.4.2",
    ],
)
def test_a_user_name_in_a_url_without_a_password_is_kept(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "template",
    ["git clone https://minji:{s}@bitbucket.org/acme/api.git", "ssh://git:{s}@gitlab.acme.io/x"],
)
def test_a_password_in_a_url_is_still_redacted(template: str) -> None:
    out = gone(template.format(s=PW), PW)
    assert "[REDACTED:url-password]@" in out


# ---- a UUID printed alone is what a token command prints; one named in a record is an id


def test_a_uuid_printed_alone_is_redacted_and_one_named_in_a_record_is_kept() -> None:
    value = f"{_sha(8)}-{_sha(4)}-4{_sha(3)}-a{_sha(3)}-{_sha(12)}"
    assert value not in redact(f"$ heroku auth:token\n{value}\n")
    for text in (value, f"  uid: {value}\n", f"session {value} crashed twice"):
        assert redact(text) == text


def test_a_session_key_is_an_id_even_under_the_name_key() -> None:
    key = f"session:{_sha(8)}-{_sha(4)}-4{_sha(3)}-a{_sha(3)}-{_sha(12)}"
    assert redact_value({"key": key, "session_id": key[8:]}) == {"key": key, "session_id": key[8:]}


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("We&#x27;ll go with Postgres, said u_22302@2026-09-22T", id="hex-reference"),
        pytest.param("Don&#39;t rename Cart2&amp;Checkout exports", id="decimal-and-named"),
        pytest.param("<p>Sara&#x27;s module: keep it</p>", id="in-markup"),
    ],
)
def test_html_escaped_text_is_not_taken_for_a_made_up_password(text: str) -> None:
    assert redact(text) == text


def test_a_made_up_password_next_to_an_ampersand_is_still_redacted() -> None:
    assert redact("my pw Amber&Pixel7414;") == "my pw [REDACTED:password];"
