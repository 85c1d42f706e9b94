"""The CLI's verbs: each takes parsed arguments and returns an :class:`Output`.

Commands return data; :mod:`artibot_memory.cli.app` prints it as text or JSON. None of them
prints, except ``prune``, which asks its confirmation question through ``confirm``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from artibot_memory.api import doctor, memories
from artibot_memory.api.prune import PruneReport, extend_ttl, plan_prune, prune
from artibot_memory.api.stats import store_stats
from artibot_memory.api.transfer import export_lines, import_file
from artibot_memory.core.errors import UsageError
from artibot_memory.core.project import resolve_project
from artibot_memory.recall.context import get_relevant_context
from artibot_memory.recall.search import search
from artibot_memory.store.model import Memory, MemoryType, Source
from artibot_memory.text.framing import clean

Confirm = Callable[[str], bool]
PROJECT_TYPES = {MemoryType.CONTEXT.value, MemoryType.COMMAND.value, MemoryType.ERROR.value}


@dataclass
class Output:
    """What a command produced: data for ``--json`` and lines for people."""

    data: Any = None
    lines: list[str] = field(default_factory=list)
    exit_code: int = 0


def brief(memory: Memory) -> dict[str, Any]:
    """Return the fields a listing shows; ``show`` and ``export`` give the full record."""
    return {
        "id": memory.id,
        "type": memory.type.value,
        "state": memory.state.value,
        "text": memory.text,
        "key": memory.key,
        "project": memory.project,
        "count": memory.count,
        "last_seen": memory.last_seen.isoformat(),
        "expires_at": memory.expires_at.isoformat() if memory.expires_at else None,
    }


def one_line(memory: Memory, width: int = 90) -> str:
    """Return a memory on one line: id, type, date, text."""
    day = f"{memory.last_seen:%Y-%m-%d}"
    return f"{memory.id:<15} {memory.type.value:<10} {day}  {clean(memory.text, width)}"


def cmd_save(args: argparse.Namespace) -> Output:
    """``save TYPE TEXT``: remember one thing."""
    if args.fix and args.type != MemoryType.ERROR.value:
        msg = "--fix goes with `save error`: it records what resolved the error"
        raise UsageError(msg)
    project = resolve_project(args.project, Path.cwd() if args.type in PROJECT_TYPES else None)
    saved = memories.save(
        args.type,
        args.text,
        key=args.key,
        tags=args.tag or (),
        project=project,
        scope=args.scope,
        resolution=args.fix,
        source=Source(channel="cli"),
    )
    verb = "merged into" if saved.count > 1 else "saved"
    return Output(brief(saved), [f"{verb} {saved.id} ({saved.type.value}, seen {saved.count}×)"])


def cmd_search(args: argparse.Namespace) -> Output:
    """``search QUERY``: the relevant memories, best first; nothing when nothing matches."""
    project = resolve_project(args.project)
    hits = search(args.query, types=args.type and [args.type], project=project, limit=args.limit)
    data = [{**brief(h.memory), "score": round(h.score, 4), "parts": asdict(h.parts)} for h in hits]
    lines = [f"{h.score:.2f}  {one_line(h.memory)}" for h in hits]
    return Output(data, lines)


def cmd_list(args: argparse.Namespace) -> Output:
    """``list``: stored memories, newest first."""
    found = memories.list_memories(args.type, project=resolve_project(args.project))
    return Output([brief(m) for m in found], [f"{one_line(m)}  [{m.state.value}]" for m in found])


def cmd_show(args: argparse.Namespace) -> Output:
    """``show ID``: one memory, every field."""
    record = memories.get(args.id).model_dump(mode="json")
    return Output(
        record,
        [f"{name}: {value}" for name, value in record.items() if value not in (None, [], {})],
    )


def cmd_forget(args: argparse.Namespace) -> Output:
    """``forget ID`` or ``forget --key K``: delete for good."""
    gone = memories.forget(args.id, key=args.key)
    return Output([brief(m) for m in gone], [f"forgot {one_line(m)}" for m in gone])


def cmd_context(args: argparse.Namespace) -> Output:
    """``context``: the text SessionStart would inject for this project."""
    project = resolve_project(args.project, Path.cwd())
    text = get_relevant_context(project, args.query, args.budget, record=False)
    return Output({"project": project, "context": text, "chars": len(text)}, [text] if text else [])


def cmd_stats(_args: argparse.Namespace) -> Output:
    """``stats``: per store entries, bytes, oldest, newest, expiring within 7 days."""
    rows = store_stats()
    lines = [f"{'type':<11}{'entries':>8}{'bytes':>11}  {'oldest':<11} {'newest':<11} expiring<7d"]
    for row in rows:
        oldest = f"{row.oldest:%Y-%m-%d}" if row.oldest else "-"
        newest = f"{row.newest:%Y-%m-%d}" if row.newest else "-"
        sizes = f"{row.type:<11}{row.entries:>8}{row.bytes:>11}"
        lines.append(f"{sizes}  {oldest:<11} {newest:<11} {row.expiring_soon}")
    return Output(
        [
            {
                **asdict(r),
                "oldest": r.oldest and r.oldest.isoformat(),
                "newest": r.newest and r.newest.isoformat(),
            }
            for r in rows
        ],
        lines,
    )


def cmd_export(args: argparse.Namespace) -> Output:
    """``export``: every record as JSON Lines on stdout."""
    return Output(None, list(export_lines(args.type)))


def cmd_import(args: argparse.Namespace) -> Output:
    """``import FILE``: JSON Lines in; all or nothing unless ``--skip-invalid``."""
    lines, source = _read_lines(args.file)
    report = import_file(lines, source, skip_invalid=args.skip_invalid)
    text = [f"imported {report.imported} memories"]
    text += (
        [f"skipped {len(report.skipped)} invalid lines:", *report.skipped] if report.skipped else []
    )
    if report.expired_on_arrival:
        text.append(f"{report.expired_on_arrival} had already expired and were not kept")
    return Output(asdict(report), text)


def _read_lines(name: str) -> tuple[Iterable[str], str]:
    if name == "-":
        return sys.stdin.read().splitlines(), "<stdin>"
    try:
        return Path(name).read_text(encoding="utf-8").splitlines(), name
    except (OSError, UnicodeDecodeError) as exc:
        msg = f"cannot read {name}: {getattr(exc, 'strerror', None) or exc}"
        raise UsageError(msg) from exc


def cmd_prune(args: argparse.Namespace, confirm: Confirm) -> Output:
    """``prune``: list what would go, ask (or ``--yes``), then delete; ``--extend-ttl`` first."""
    lines = [f"extended {m.id} to {m.expires_at:%Y-%m-%d}" for m in _extend_all(args.extend_ttl)]
    plan = plan_prune()
    lines += _describe_plan(plan)
    if not plan.removed or args.dry_run:
        return Output(_prune_data(plan, done=False), lines)
    if not (args.yes or confirm(f"Delete these {len(plan.removed)} memories? [y/N] ")):
        lines.append("nothing deleted (run with --yes to prune without a terminal)")
        return Output(_prune_data(plan, done=False), lines)
    done = prune()
    lines.append(f"deleted {len(done.removed)} memories")
    return Output(_prune_data(done, done=True), lines)


def _extend_all(requests: list[list[str]] | None) -> list[Memory]:
    extended = []
    for memory_id, days in requests or []:
        try:
            amount = float(days)
        except ValueError:
            msg = f"--extend-ttl {memory_id} {days}: DAYS must be a number"
            raise UsageError(msg) from None
        extended.append(extend_ttl(memory_id, amount))
    return extended


def _describe_plan(plan: PruneReport) -> list[str]:
    if not plan.removed:
        return ["nothing to prune"]
    lines = [f"{len(plan.expired)} expired, {len(plan.over_cap)} over their store's cap:"]
    lines += [f"  expired   {one_line(m)}" for m in plan.expired]
    lines += [f"  over cap  {one_line(m)}" for m in plan.over_cap]
    lines.append("keep one with: artibot-memory prune --extend-ttl ID DAYS")
    return lines


def _prune_data(plan: PruneReport, *, done: bool) -> dict[str, Any]:
    return {
        "deleted": done,
        "expired": [brief(m) for m in plan.expired],
        "over_cap": [brief(m) for m in plan.over_cap],
        "skipped_busy": plan.skipped_busy,
    }


def cmd_ingest(_args: argparse.Namespace) -> Output:
    """``ingest``: drain the capture journal into the stores (the SessionEnd worker)."""
    from artibot_memory.capture.hooklog import log_failure  # noqa: PLC0415
    from artibot_memory.lifecycle import ingest  # noqa: PLC0415 - only this verb needs it

    try:
        report = ingest()
    except Exception as exc:
        # The SessionEnd worker runs detached with no stderr: the log is where it is seen.
        log_failure("ingest", exc)
        raise
    return Output(
        {"records": report.records, "stored": len(report.stored)},
        [f"ingested {report.records} journal records"],
    )


def cmd_doctor(args: argparse.Namespace) -> Output:
    """``doctor [--repair]``: check every store, its backup, the journal and file modes."""
    actions = doctor.repair() if args.repair else []
    checks = doctor.diagnose()
    healthy = all(check.ok for check in checks)
    lines = (doctor.format_actions(actions) if args.repair else []) + doctor.report_lines(checks)
    data = {"healthy": healthy, "repaired": actions, "checks": [c.as_dict() for c in checks]}
    return Output(data, lines, exit_code=0 if healthy else 1)
