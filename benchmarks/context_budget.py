"""Context budget: how big the SessionStart injection is on full stores, and whose memories fill it.

Full stores as in hook_latency (benchmarks/corpus.py): 500 commands, 200 errors with fixes, 300
preferences (a fifth scoped to a project), 2,000 contexts spread over 10 projects (5% global).
For each of the 10 projects, ``artibot_memory.recall.context.get_relevant_context(project, record=False)``
is rendered (what the SessionStart hook injects, default budget) and measured:

- characters, and estimated tokens = characters / 4 (a rule of thumb for English text, not a
  tokenizer; code, paths and Korean take more tokens per character);
- each injected item (found by the ``[date · id]`` stamp every item carries) is classed as this
  project's own, a global preference, or another global memory; an item of another project
  would be a leak.

Target: <= 8,000 characters.

    python benchmarks/context_budget.py [--no-write]
"""

# Report prose and data tables make long lines and multi-line strings in lists; fine here.
# ruff: noqa: E501, ISC004

from __future__ import annotations

import argparse
import os
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import common
import corpus

if TYPE_CHECKING:
    from artibot_memory.store.model import Memory

TARGET_CHARS = 8_000
_STAMP = re.compile(r"\[\d{4}-\d{2}-\d{2} · ([a-z]+-[0-9a-f]+)\]")


def classify(memory: Memory, project: str) -> str:
    from artibot_memory.core.project import same_project  # noqa: PLC0415

    if memory.project is not None:
        return "this project" if same_project(memory.project, project) else "another project (leak)"
    if memory.type.value == "preference":
        return "global preference"
    return f"global {memory.type.value}"


def measure(home: Path) -> list[dict[str, Any]]:
    from artibot_memory.api.memories import list_memories  # noqa: PLC0415
    from artibot_memory.recall.context import get_relevant_context  # noqa: PLC0415

    by_id = {m.id: m for m in list_memories(home=home, include_expired=True)}
    available = Counter(m.project for m in by_id.values() if m.project)
    rows = []
    for project in corpus.PROJECTS:
        text = get_relevant_context(project, record=False, home=home)
        ids = _STAMP.findall(text)
        classes = Counter(classify(by_id[i], project) for i in ids if i in by_id)
        types = Counter(by_id[i].type.value for i in ids if i in by_id)
        sections = re.findall(r"^## (.+)$", text, re.MULTILINE)
        rows.append(
            {
                "project": project,
                "chars": len(text),
                "items": len(ids),
                "classes": classes,
                "types": types,
                "sections": sections,
                "own_available": available[project],
                "unknown": sum(i not in by_id for i in ids),
                "text": text,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave RESULTS.md alone"
    )
    parser.add_argument(
        "--show", action="store_true", help="also print the first project's injection"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="artibot-budget-") as tmp:
        home = Path(tmp)
        os.environ["ARTIBOT_MEMORY_HOME"] = tmp  # never a real home, whatever resolves it
        from artibot_memory.core import clock  # noqa: PLC0415

        counts = corpus.seed_full_home(home, clock.now())
        rows = measure(home)
    if args.show:
        print(rows[0]["text"])
    body = report(rows, counts)
    print(body)
    if not args.no_write:
        common.write_section(
            "context_budget", "Context budget of SessionStart (benchmarks/context_budget.py)", body
        )
    return 0


def report(rows: list[dict[str, Any]], counts: dict[str, int]) -> str:
    classes = [
        "this project",
        "global preference",
        "global context",
        "global command",
        "global error",
        "another project (leak)",
    ]
    table_rows = []
    for row in rows:
        total = max(row["items"], 1)
        shares = [f"{row['classes'][c]} ({row['classes'][c] / total:.0%})" for c in classes]
        types = ", ".join(f"{n} {t}" for t, n in sorted(row["types"].items()))
        table_rows.append(
            [
                row["project"].rsplit("/", 1)[-1],
                f"{row['chars']:,}",
                f"{row['chars'] / 4:,.0f}",
                str(row["items"]),
                *shares,
                types,
            ]
        )
    biggest = max(row["chars"] for row in rows)
    all_items = sum(row["items"] for row in rows)
    totals: Counter[str] = Counter()
    for row in rows:
        totals.update(row["classes"])
    leaks = totals["another project (leak)"]
    sections = rows[0]["sections"]
    return "\n".join(
        [
            f"Full stores: {counts['command']} commands, {counts['error']} errors with fixes, {counts['preference']} "
            f"preferences (about a fifth scoped to a project, a tenth superseded, some pending), {counts['context']} "
            f"contexts over {len(corpus.PROJECTS)} projects (5% global). `get_relevant_context(project, "
            "record=False)` for each project, default budget. Tokens are estimated as characters / 4 (a rule of "
            "thumb, not a tokenizer).",
            "",
            common.table(
                ["project", "chars", "≈ tokens", "items", *classes, "by type"], table_rows
            ),
            "",
            f"Over all {len(rows)} projects: {all_items} items, "
            + ", ".join(f"{c} {totals[c] / max(all_items, 1):.0%}" for c in classes if totals[c])
            + ".",
            f"Sections (first project): {', '.join(sections)}.",
            "",
            f"- target <= {TARGET_CHARS:,} characters: largest {biggest:,} (≈ {biggest / 4:,.0f} tokens) — "
            + common.verdict(biggest <= TARGET_CHARS, "over the budget"),
            f"- items of another project injected: {leaks} — "
            + common.verdict(leaks == 0, "project filter leaks"),
        ]
    )


if __name__ == "__main__":
    raise SystemExit(main())
