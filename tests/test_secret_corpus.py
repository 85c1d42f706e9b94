"""The generated secret corpus is sound, and the redactor removes its secrets and keeps its
look-alikes (issue 9: no secret on disk).

The first half checks the corpus itself (size, variety, shapes, checksums, determinism, no
token in git); the second half measures :func:`artibot_memory.core.redact.redact` on it:
one test per kind lists that kind's rows that keep their secret, and one test lists the
look-alikes that changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import secretcorpus
from secretcorpus import CARRIERS, benign, checksum_ok, fragments, secrets

from artibot_memory.core.redact import redact

TESTS = Path(__file__).parent
SECRETS = secrets()
BENIGN = benign()
KINDS = sorted({row["kind"] for row in SECRETS})


# ---- the corpus --------------------------------------------------------------------------


def test_the_corpus_is_large_and_varied() -> None:
    kinds = Counter(row["kind"] for row in SECRETS)
    assert len(SECRETS) >= 400
    assert len(kinds) >= 80
    assert min(kinds.values()) >= 2
    assert len(BENIGN) >= 250
    assert {row["carrier"] for row in SECRETS} == set(CARRIERS)
    assert {row["carrier"] for row in BENIGN} <= set(CARRIERS)


def test_every_row_has_its_shape_and_its_secret_inside_its_text() -> None:
    assert all(set(row) == {"kind", "carrier", "text", "secret"} for row in SECRETS)
    assert all(set(row) == {"kind", "carrier", "text"} for row in BENIGN)
    misplaced = [
        row for row in SECRETS if len(row["secret"]) < 8 or row["secret"] not in row["text"]
    ]
    assert misplaced == []


def test_no_template_field_is_left_unfilled() -> None:
    hand_written = secretcorpus.HAND_WRITTEN_BENIGN.read_text(encoding="utf-8").splitlines()
    generated = BENIGN[len(hand_written) :]  # a hand-written line may hold code with {braces}
    holes = [
        row["text"] for row in [*SECRETS, *generated] if secretcorpus.FIELD.search(row["text"])
    ]
    assert holes == []


def test_every_secret_is_distinct_and_no_benign_text_holds_one() -> None:
    values = [row["secret"] for row in SECRETS]
    assert len(set(values)) == len(values)
    benign_text = "\n".join(row["text"] for row in BENIGN)
    assert [value for value in values if value in benign_text] == []


def test_the_base62_encoding_is_the_one_of_github_token_checksums() -> None:
    assert secretcorpus.base62(0, 6) == "000000"
    assert secretcorpus.base62(61, 1) == "z"
    assert secretcorpus.base62(62 * 62 + 10, 6) == "00010A"
    assert secretcorpus.base62(2**32 - 1, 6) == "4gfFC3"  # CRC32's largest value fits in 6


def test_github_and_npm_tokens_carry_valid_checksums() -> None:
    found = [match for row in SECRETS for match in secretcorpus.CHECKSUMMED.findall(row["text"])]
    kinds = {row["kind"] for row in SECRETS if secretcorpus.CHECKSUMMED.fullmatch(row["secret"])}
    assert len(found) >= 30
    assert {"github-pat-classic", "github-oauth-token", "npm-access-token"} <= kinds
    assert [token for token in found if not checksum_ok(token)] == []


def test_a_token_with_one_character_changed_fails_its_checksum() -> None:
    token = next(row["secret"] for row in SECRETS if row["kind"] == "github-pat-classic")
    body = token[4:-6]
    changed = body[:-1] + ("a" if body[-1] != "a" else "b")
    assert checksum_ok(token)
    assert not checksum_ok(f"ghp_{changed}{token[-6:]}")


def test_fragments_leave_out_the_pieces_every_token_of_a_vendor_shares() -> None:
    session = next(row["secret"] for row in SECRETS if row["secret"].startswith("IQoJb3JpZ2luX2Vj"))
    key = next(row["secret"] for row in SECRETS if row["kind"] == "rsa-private-key")
    assert session[:16] not in fragments(session)
    assert session[-16:] in fragments(session)
    assert key[:16] not in fragments(key)  # the DER header of every RSA key
    assert len(fragments(key)) > len(key) - 64
    assert [
        row["kind"] for row in SECRETS if len(row["secret"]) >= 16 and not fragments(row["secret"])
    ] == []


def _digest_in_a_fresh_interpreter(hash_seed: str) -> str:
    script = (
        "import hashlib, json, secretcorpus\n"
        "data = json.dumps([secretcorpus.secrets(), secretcorpus.benign()], sort_keys=True)\n"
        "print(hashlib.sha256(data.encode()).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(TESTS)}
    result = subprocess.run(  # noqa: S603 - our own interpreter, our own script
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
    )
    return result.stdout.strip()


def test_the_corpus_is_the_same_on_every_run_whatever_the_hash_seed() -> None:
    data = json.dumps([SECRETS, BENIGN], sort_keys=True)
    here = hashlib.sha256(data.encode()).hexdigest()
    assert secrets() == SECRETS
    assert {_digest_in_a_fresh_interpreter(seed) for seed in ("0", "1", "4242")} == {here}


def test_no_corpus_secret_sits_in_a_file_of_the_tests() -> None:
    files = [p for p in TESTS.rglob("*") if p.is_file() and "node_modules" not in p.parts]
    text = "\n".join(p.read_bytes().decode("utf-8", "replace") for p in files)
    assert [row["kind"] for row in SECRETS if row["secret"] in text] == []


def test_write_dumps_both_sets_as_json_lines(tmp_path: Path) -> None:
    assert secretcorpus.main(["--write", str(tmp_path)]) == 0
    written = {
        name: [json.loads(line) for line in (tmp_path / name).read_text("utf-8").splitlines()]
        for name in ("secrets.jsonl", "benign.jsonl")
    }
    assert written == {"secrets.jsonl": SECRETS, "benign.jsonl": BENIGN}


def test_stats_counts_every_kind_and_carrier(capsys: pytest.CaptureFixture[str]) -> None:
    assert secretcorpus.main(["--stats"]) == 0
    out = capsys.readouterr().out
    assert f"secrets: {len(SECRETS)} rows, {len(KINDS)} kinds, {len(CARRIERS)} carriers" in out
    assert all(f"kind    {kind} " in out for kind in KINDS)


# ---- the redactor on the corpus ----------------------------------------------------------


def _survivor(row: dict[str, str]) -> str | None:
    """What of ``row``'s secret is still in ``redact(text)``: the secret or a 16-char piece."""
    out = redact(row["text"])
    if row["secret"] in out:
        return row["secret"]
    return next((piece for piece in fragments(row["secret"]) if piece in out), None)


@pytest.mark.parametrize("kind", KINDS)
def test_no_secret_of_the_kind_survives_redaction(kind: str) -> None:
    rows = [row for row in SECRETS if row["kind"] == kind]
    kept = [(row, piece) for row in rows if (piece := _survivor(row)) is not None]
    listing = "\n".join(
        f"  [{row['carrier']}] {row['text'].replace(row['secret'], '<S>')!r}\n"
        f"    kept {piece!r} in {redact(row['text'])!r}"
        for row, piece in kept
    )
    assert not kept, f"{len(kept)} of {len(rows)} {kind} rows keep their secret:\n{listing}"


def test_at_least_98_percent_of_look_alikes_come_out_byte_identical() -> None:
    changed = [(row, redact(row["text"])) for row in BENIGN if redact(row["text"]) != row["text"]]
    kept = 1 - len(changed) / len(BENIGN)
    listing = "\n".join(
        f"  {row['kind']} [{row['carrier']}]\n    {row['text']!r}\n -> {after!r}"
        for row, after in changed
    )
    assert kept >= 0.98, f"kept {kept:.1%} of {len(BENIGN)} look-alikes; changed:\n{listing}"
