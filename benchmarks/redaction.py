"""Secret redaction on the seeded corpus, on seeds the rules were not tuned on (issue 9).

``tests/secretcorpus.py`` draws 700 fake secrets of 200 kinds in 14 carriers and 350
look-alikes from a seed. The rules were tuned while seed 1 (the one the tests use) was
visible, so the figure that says most is the sweep over other seeds: same templates,
other tokens, other passwords, other word choices. For each seed: secrets whose text
survives ``redact`` (exact), look-alikes that change, and the time of one ``redact`` call
(median over the corpus, in this process). The on-disk figure (every capture path, every
file, exact, JSON-escaped, base64 and 16-character fragments) is the test
``tests/test_no_secret_on_disk.py``; this benchmark measures the redactor alone.

    python benchmarks/redaction.py [--seeds 1,2,...] [--show] [--no-write]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import statistics
import sys
import time

import common

sys.path.insert(0, str(common.ROOT / "tests"))
import secretcorpus

from artibot_memory.core.redact import redact

DEFAULT_SEEDS = "1,2,3,4,5,6,7,8,9,10"
SECTION = "redaction"
TITLE = "Secret redaction on unseen seeds (issue 9)"


def run_seed(seed: str) -> dict[str, object]:
    secretcorpus.SEED = f"artibot-memory/secret-corpus/{seed}"
    secretcorpus._secrets.cache_clear()  # noqa: SLF001 - the corpus caches per seed
    secretcorpus._benign.cache_clear()  # noqa: SLF001
    secrets, benign = secretcorpus.secrets(), secretcorpus.benign()
    times, missed = [], []
    for row in secrets:
        start = time.perf_counter()
        out = redact(row["text"])
        times.append(time.perf_counter() - start)
        if row["secret"] in out:
            missed.append(row)
    changed = [row for row in benign if redact(row["text"]) != row["text"]]
    return {
        "seed": seed,
        "secrets": len(secrets),
        "kinds": len({row["kind"] for row in secrets}),
        "missed": missed,
        "benign": len(benign),
        "changed": changed,
        "median_us": statistics.median(times) * 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=DEFAULT_SEEDS)
    parser.add_argument("--show", action="store_true", help="print every miss and change")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args(argv)
    results = [run_seed(seed) for seed in args.seeds.split(",")]
    lines = [
        "Seed 1 is the corpus the tests use and the rules were tuned on; the others are unseen draws of the same templates.",
        "",
        "| seed | secrets (kinds) | missed | look-alikes | changed | median redact |",
        "|---|---|---|---|---|---|",
    ]
    total_secrets = total_missed = total_benign = total_changed = 0
    for r in results:
        missed, changed = r["missed"], r["changed"]
        assert isinstance(missed, list)
        assert isinstance(changed, list)
        lines.append(
            f"| {r['seed']} | {r['secrets']} ({r['kinds']}) | {len(missed)} | {r['benign']} | {len(changed)} | {r['median_us']:.0f} µs |"
        )
        if r["seed"] != "1":
            total_secrets += int(str(r["secrets"]))
            total_missed += len(missed)
            total_benign += int(str(r["benign"]))
            total_changed += len(changed)
    if total_secrets:
        lines += [
            "",
            (
                f"Unseen seeds together: {total_missed} of {total_secrets} secrets missed ({total_missed / total_secrets:.2%}), "
                f"{total_changed} of {total_benign} look-alikes changed ({1 - total_changed / total_benign:.2%} kept)."
            ),
        ]
    misses = [row for r in results for row in r["missed"]]  # type: ignore[attr-defined]
    if misses:
        kinds = sorted({row["kind"] for row in misses})
        lines += ["", "Kinds missed on some seed: " + ", ".join(f"`{k}`" for k in kinds) + "."]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.show:
        for r in results:
            for row in r["missed"]:  # type: ignore[attr-defined]
                print(
                    f"MISS seed {r['seed']} {row['kind']} {row['carrier']}: {redact(row['text'])[:160]!r}"
                )
            for row in r["changed"]:  # type: ignore[attr-defined]
                print(
                    f"CHANGED seed {r['seed']} {row['kind']}: {row['text'][:120]!r} -> {redact(row['text'])[:120]!r}"
                )
    if not args.no_write:
        common.write_section(SECTION, TITLE, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
