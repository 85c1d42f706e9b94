"""Secret redaction on the seeded corpus, on seeds the rules were not tuned on (issues 9, 24).

``tests/secretcorpus.py`` draws 734 fake secrets of 211 kinds in 14 carriers and 427
look-alikes from a seed. The rules were tuned while seed 1 (the one the tests use) was
visible, so the figure that says most is the sweep over other seeds: same templates,
other tokens, other passwords, other word choices, other images. For each seed: secrets
whose text survives ``redact`` (exact), look-alikes that change, and the time of one
``redact`` call (median over the secrets' texts and over the look-alikes', in this
process). The kinds issue 24 added (a value told beside its name whatever its
punctuation, a data URL that carries a file of secrets; images pasted as data URLs, git
SHAs, URLs with a user name only, secret names beside a reference) get a table of their
own. The on-disk figure (every capture path, every file, exact, JSON-escaped, base64 and
16-character fragments) is the test ``tests/test_no_secret_on_disk.py``; this benchmark
measures the redactor alone.

    python benchmarks/redaction.py [--seeds 1,2,...] [--show] [--no-write]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

import common

sys.path.insert(0, str(common.ROOT / "tests"))
import secretcorpus

from artibot_memory.core.redact import redact

DEFAULT_SEEDS = "1,2,3,4,5,6,7,8,9,10"
SECTION = "redaction"
TITLE = "Secret redaction on unseen seeds (issues 9 and 24)"
# The kinds issue 24 added: secrets first, then look-alikes.
ISSUE_24 = (
    "use-value-as-name-punctuated-en",
    "use-value-as-name-punctuated-ko",
    "quoted-passphrase-as-name",
    "secret-file-as-data-url",
    "image-data-url",
    "non-image-data-url",
    "git-sha-in-transcript",
    "url-with-user-name-only",
    "secret-name-with-a-reference",
)


def run_seed(seed: str) -> dict[str, Any]:
    secretcorpus.SEED = f"artibot-memory/secret-corpus/{seed}"
    secretcorpus._secrets.cache_clear()  # noqa: SLF001 - the corpus caches per seed
    secretcorpus._benign.cache_clear()  # noqa: SLF001
    secrets, benign = secretcorpus.secrets(), secretcorpus.benign()
    times, missed = [], []
    for row in secrets:
        out, took = timed(row["text"])
        times.append(took)
        if row["secret"] in out:
            missed.append(row)
    benign_times, changed = [], []
    for row in benign:
        out, took = timed(row["text"])
        benign_times.append(took)
        if out != row["text"]:
            changed.append(row)
    return {
        "seed": seed,
        "secrets": len(secrets),
        "kinds": len({row["kind"] for row in secrets}),
        "missed": missed,
        "benign": len(benign),
        "changed": changed,
        "median_us": statistics.median(times) * 1e6,
        "benign_median_us": statistics.median(benign_times) * 1e6,
        "counts": Counter(row["kind"] for row in [*secrets, *benign]),
    }


# Templates written after the rules of issue 24 were tuned, and run once as they were
# written: the same kinds in sentences the corpus does not hold. Their figures are the
# held-out half; the corpus's kinds above are the tuned half, even on unseen seeds.
# fmt: off
HELD_OUT_SECRETS = (
    ("prompt-en", "for the staging box use {s} as the ROOT_DB_PASSWORD, not the prod one"),
    ("prompt-en", "pls use {s} as ELASTIC_PASSWORD when you bring up the cluster"),
    ("transcript-user-text", "Use {s} as your SFTP_PASSWORD in the deploy script."),
    ("prompt-en", 'you can use "{s}" as VAULT_UNSEAL_KEY for the dev vault'),
    ("prompt-en", "change SMTP_PASSWORD to {s} in the .env and restart the worker"),
    ("transcript-user-text", "update the JENKINS_ADMIN_PASSWORD to `{s}` please"),
    ("import-record", "NEXUS_PASSWORD is now {s}"),
    ("prompt-en", "the new MONGO_INITDB_ROOT_PASSWORD should be {s}"),
    ("transcript-assistant-text", "I've set REDIS_AUTH_PASSWORD to {s} on the box."),
    ("cli-save", "{s} is the ARTIFACTORY_PASSWORD for ci"),
    ("prompt-en", "just use {s} for the OPENVPN_PASSWORD"),
    ("prompt-ko", "NEXUS_PASSWORD 를 {s} 로 바꿔 줘"),
    ("prompt-ko", "ELASTIC_PASSWORD에다가 {s} 넣어"),
    ("prompt-ko", "ROOT_DB_PASSWORD 는 {s} 로 해 줘"),
    ("prompt-ko", "{s} 이걸 SFTP_PASSWORD 로 써 줘"),
    ("transcript-user-text", "이번엔 {s}을 JENKINS_ADMIN_PASSWORD로 쓰자"),
    ("prompt-ko", '"{s}" 를 MONGO_INITDB_ROOT_PASSWORD 로 설정해'),
    ("import-record", "REDIS_AUTH_PASSWORD 값은 {s} 입니다"),
    ("transcript-thinking", "사용자가 OPENVPN_PASSWORD를 `{s}`로 바꿨다고 했다."),
)
HELD_OUT_LOOKALIKES = (
    ("transcript-assistant-text", '<img src="data:image/png;base64,{png_photo}" alt="profile"/>'),
    ("transcript-user-text", "Pasted image: data:image/jpeg;base64,{jpeg_photo}"),
    ("command-output", ('{"data":{"qr":"data:image/png;base64,{png_icon}","otp_enabled":true,'
                        '"backup_codes_left":8}}')),
    ("transcript-tool-use-write", (".empty { background: url(data:image/svg+xml;base64,{svg_icon}) "
                                   "no-repeat; }\n")),
    ("prompt-ko", "에러 화면: ![](data:image/png;base64,{png_shot}) 토큰 만료라고 뜨는데 왜 그래?"),
    ("command-output", "data:image/gif;base64,{gif_spinner}\n"),
    ("error-output", ("Content-Type: text/html\n\n<p>Your login code</p><img "
                      'src="data:image/png;base64,{png_chart}">')),
    ("transcript-tool-use-write", "const hero = 'data:image/webp;base64,{webp_img}';\n"),
    ("transcript-tool-use-bash", "git rebase --onto main {sha40}"),
    ("command-output", ("Your branch is behind 'origin/main' by 2 commits\n{sha7} fix token "
                        "expiry\n{sha7} rotate keys")),
    ("transcript-assistant-text", "The culprit is {sha12}: it dropped the auth header."),
    ("command-output", "{sha40}\trefs/pull/{num}/head\n{sha40}\trefs/heads/main"),
    ("prompt-en", "merged via {sha40}, can you check the api key tests still pass"),
    ("command-output", "GITHUB_SHA={sha40}\nGITHUB_REF=refs/heads/main"),
    ("transcript-user-text", "checked {sha40} against the key rotation PR, it's fine"),
    ("command-output", "Revision: {sha40}\nBuilt: 2025-06-10T05:02:11Z"),
    ("prompt-ko", "커밋 {sha7} 에서 API 키 로딩이 깨졌어"),
    ("prompt-ko", "{sha7}..{sha7} 사이에 뭐가 바뀌었는지 보여 줘"),
    ("command-output", ("remote: Create pull request for fix-token:\nremote:   "
                        "https://{user}@bitbucket.org/acme/api/pull-requests/new?source=fix-token")),
    ("transcript-tool-use-write", "Host github.com\n  User git\n  IdentityFile ~/.ssh/id_ed25519\n"),
    ("shell-command", "git clone git@ssh.dev.azure.com:v3/acme/Platform/api"),
    ("error-output", ("fatal: could not read Password for 'https://{user}@github.com': terminal "
                      "prompts disabled")),
    ("shell-command", "ssh -J {user}@bastion.acme.io {user}@{ip}"),
    ("prompt-en", "API_KEY is stored in AWS Secrets Manager under prod/api"),
    ("prompt-ko", "DB_PASSWORD는 vault에서 가져와"),
    ("prompt-en", "set SENTRY_AUTH_TOKEN to the value from 1Password"),
)
# fmt: on


# What the first run of the held-out templates gave, and what was changed after it.
HELD_OUT_HISTORY = (
    "Their first run (2026-12-06, seeds 1 to 10) missed 4 of 190 secrets and changed 10 of 260 "
    "look-alikes; one change followed it ('your' or 'their' between a verb and the name: "
    '"use X as your SFTP_PASSWORD"). The look-alike still changed is '
    '"checked <sha> against the key rotation PR": the words after the SHA speak of a key.'
)


def held_out(seed: str) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The held-out rows of ``seed``: secrets (punctuated passwords) and look-alikes."""
    secrets, benign = [], []
    for number, (carrier, template) in enumerate(HELD_OUT_SECRETS):
        rng = random.Random(f"{secretcorpus.SEED}/held-out/secret/{seed}/{number}")
        value = secretcorpus.punctuated_password(rng)
        text = secretcorpus.expand(template, rng, value)
        secrets.append({"kind": "held-out", "carrier": carrier, "text": text, "secret": value})
    for number, (carrier, template) in enumerate(HELD_OUT_LOOKALIKES):
        rng = random.Random(f"{secretcorpus.SEED}/held-out/benign/{seed}/{number}")
        benign.append(
            {"kind": "held-out", "carrier": carrier, "text": secretcorpus.expand(template, rng)}
        )
    return secrets, benign


def held_out_lines(seeds: list[str], *, show: bool) -> list[str]:
    """The held-out templates over ``seeds``: how many secrets survive, look-alikes change."""
    missed = changed = total_secrets = total_benign = 0
    for seed in seeds:
        secrets, benign = held_out(seed)
        total_secrets, total_benign = total_secrets + len(secrets), total_benign + len(benign)
        for row in secrets:
            if row["secret"] in redact(row["text"]):
                missed += 1
                if show:
                    print(f"HELD-OUT MISS seed {seed}: {redact(row['text'])[:160]!r}")
        for row in benign:
            if redact(row["text"]) != row["text"]:
                changed += 1
                if show:
                    print(f"HELD-OUT CHANGED seed {seed}: {redact(row['text'])[:160]!r}")
    return [
        "",
        (
            f"Held-out templates of issue 24 (written after the rules were tuned, {len(HELD_OUT_SECRETS)} "
            f"secret and {len(HELD_OUT_LOOKALIKES)} look-alike sentences, over the same seeds): "
            f"{missed} of {total_secrets} secrets missed, {changed} of {total_benign} look-alikes changed. "
            + HELD_OUT_HISTORY
        ),
    ]


def timed(text: str) -> tuple[str, float]:
    """Redact ``text`` once; return the result and the seconds it took (no memo: texts differ)."""
    start = time.perf_counter()
    out = redact(text)
    return out, time.perf_counter() - start


def issue_24_lines(unseen: list[dict[str, Any]]) -> list[str]:
    """One row per kind issue 24 added: rows over the unseen seeds, and how many failed."""
    lines = [
        "",
        (
            "The kinds issue 24 added, over the unseen seeds (a secret kind fails when its secret "
            "survives; a look-alike kind when its text changes):"
        ),
        "",
        "| kind | set | rows | failed |",
        "|---|---|---|---|",
    ]
    for kind in ISSUE_24:
        rows = sum(r["counts"][kind] for r in unseen)
        failed = sum(row["kind"] == kind for r in unseen for row in r["missed"] + r["changed"])
        secret = any(row["kind"] == kind for row in secretcorpus.secrets())
        lines.append(f"| `{kind}` | {'secret' if secret else 'look-alike'} | {rows} | {failed} |")
    return lines


def seed_lines(results: list[dict[str, Any]]) -> list[str]:
    """The table of seeds, the unseen seeds' totals and the table of issue 24's kinds."""
    lines = [
        "Seed 1 is the corpus the tests use and the rules were tuned on; the others are unseen draws of the same templates.",
        "",
        "| seed | secrets (kinds) | missed | look-alikes | changed | median redact, secrets | median redact, look-alikes |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['seed']} | {r['secrets']} ({r['kinds']}) | {len(r['missed'])} | {r['benign']} | {len(r['changed'])} | {r['median_us']:.0f} µs | {r['benign_median_us']:.0f} µs |"
        )
    unseen = [r for r in results if r["seed"] != "1"]
    if not unseen:
        return lines
    secrets = sum(r["secrets"] for r in unseen)
    missed = sum(len(r["missed"]) for r in unseen)
    benign = sum(r["benign"] for r in unseen)
    changed = sum(len(r["changed"]) for r in unseen)
    lines += [
        "",
        (
            f"Unseen seeds together: {missed} of {secrets} secrets missed ({missed / secrets:.2%}), "
            f"{changed} of {benign} look-alikes changed ({1 - changed / benign:.2%} kept)."
        ),
    ]
    return lines + issue_24_lines(unseen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=DEFAULT_SEEDS)
    parser.add_argument("--show", action="store_true", help="print every miss and change")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args(argv)
    results = [run_seed(seed) for seed in args.seeds.split(",")]
    lines = seed_lines(results)
    lines += held_out_lines(args.seeds.split(","), show=args.show)
    misses = [row for r in results for row in r["missed"]]
    if misses:
        kinds = sorted({row["kind"] for row in misses})
        lines += ["", "Kinds missed on some seed: " + ", ".join(f"`{k}`" for k in kinds) + "."]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.show:
        for r in results:
            for row in r["missed"]:
                print(
                    f"MISS seed {r['seed']} {row['kind']} {row['carrier']}: {redact(row['text'])[:160]!r}"
                )
            for row in r["changed"]:
                print(
                    f"CHANGED seed {r['seed']} {row['kind']}: {row['text'][:120]!r} -> {redact(row['text'])[:120]!r}"
                )
    if not args.no_write:
        common.write_section(SECTION, TITLE, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
