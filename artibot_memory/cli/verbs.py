"""The CLI's verbs: each takes parsed arguments and returns an :class:`Output`.

Commands return data; :mod:`artibot_memory.cli.app` prints it as JSON or, drawn by
:mod:`artibot_memory.cli.render`, as text for people. None of them prints, except
``prune``, which asks its confirmation question through ``confirm``.

Where ``search`` and ``list`` look: the project of the working directory (its git
top-level) and the global memories (those of no project); ``--project`` picks another
project, ``--all-projects`` every one, and a working directory in no git repository looks
at every project.

What counts as an access (the frequency part of ranking): only the agent's reads. The hooks
count what they hand to a session; ``search`` counts its hits when it runs inside Claude
Code (``CLAUDECODE=1``, set in the Bash tool's environment: the skill's searches) or with
``--record``; a person's ``search`` at a terminal, ``list`` and ``show`` never count.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from artibot_memory.api import doctor, memories
from artibot_memory.api.prune import PruneReport, extend_ttl, plan_prune, prune
from artibot_memory.api.stats import store_stats
from artibot_memory.api.transfer import export_lines, import_file
from artibot_memory.cli import render
from artibot_memory.cli.render import Style
from artibot_memory.core import clock
from artibot_memory.core.errors import UsageError
from artibot_memory.core.project import display_name, git_root, resolve_project
from artibot_memory.recall.context import get_relevant_context
from artibot_memory.recall.search import search
from artibot_memory.store.model import Memory, MemoryType, Source

Confirm = Callable[[str], bool]
View = Callable[[Style], list[str]]
PROJECT_TYPES = {MemoryType.CONTEXT.value, MemoryType.COMMAND.value, MemoryType.ERROR.value}
AGENT_ENV = "CLAUDECODE"  # "1" in the environment of Claude Code's Bash tool and hooks

MAX_IDS_SHOWN = 5


@dataclass
class Output:
    """What a command produced: data for ``--json``, and lines (or a view) for people.

    ``view`` draws the lines when the style of the output is known (colour, width).
    """

    data: Any = None
    lines: list[str] = field(default_factory=list)
    exit_code: int = 0
    view: View | None = None

    def text(self, style: Style) -> list[str]:
        """Return the lines a person reads, drawn in ``style``."""
        return self.view(style) if self.view is not None else self.lines


@dataclass(frozen=True)
class Where:
    """Which memories a listing looks at: one project and the global ones, or all."""

    project: str | None  # None: every project
    label: str
    hint: str = ""


def where_to_look(args: argparse.Namespace) -> Where:
    """Return the projects ``search`` or ``list`` looks at (see the module docstring)."""
    if args.all_projects:
        return Where(None, "every project")
    if args.project is not None:
        project = resolve_project(args.project)
        return Where(project, f"{display_name(project)} and global")
    project = git_root(_cwd())
    if project is None:
        return Where(None, "every project (the working directory is in no git repository)")
    return Where(project, f"{display_name(project)} and global", "--all-projects for every project")


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the working directory was deleted
        return None


def agent_is_asking(args: argparse.Namespace) -> bool:
    """Tell whether this search is the agent's (it counts as an access) or a person's."""
    explicit: bool | None = args.record
    return explicit if explicit is not None else os.environ.get(AGENT_ENV) == "1"


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
    where = f", {display_name(saved.project)}" if saved.project else ", global"
    return Output(
        brief(saved), [f"{verb} {saved.id} ({saved.type.value}{where}, seen {saved.count}×)"]
    )


def cmd_search(args: argparse.Namespace) -> Output:
    """``search QUERY``: the relevant memories, best first; nothing when nothing matches."""
    where = where_to_look(args)
    hits = search(
        args.query,
        types=args.type and [args.type],
        project=where.project,
        limit=args.limit,
        record=agent_is_asking(args),
    )
    data = [{**brief(h.memory), "score": round(h.score, 4), "parts": asdict(h.parts)} for h in hits]
    now = clock.now()

    def view(style: Style) -> list[str]:
        if not hits:
            return []  # nothing relevant prints nothing
        found = [hit.memory for hit in hits]
        lines = render.memory_table(found, now, style, [hit.score for hit in hits])
        return [*lines, render.footer(len(hits), where.label, style, where.hint)]

    return Output(data, view=view)


def cmd_list(args: argparse.Namespace) -> Output:
    """``list``: stored memories, newest first (never counted as accessed)."""
    where = where_to_look(args)
    found = memories.list_memories(args.type, project=where.project)
    now = clock.now()

    def view(style: Style) -> list[str]:
        lines = render.memory_table(found, now, style) if found else []
        return [*lines, render.footer(len(found), where.label, style, where.hint)]

    return Output([brief(m) for m in found], view=view)


def cmd_show(args: argparse.Namespace) -> Output:
    """``show ID``: one memory, every field (never counted as accessed)."""
    memory = memories.get(args.id)
    now = clock.now()
    return Output(memory.model_dump(mode="json"), view=lambda s: render.record(memory, now, s))


def cmd_forget(args: argparse.Namespace) -> Output:
    """``forget ID`` or ``forget --key K``: delete for good."""
    gone = memories.forget(args.id, key=args.key)
    now = clock.now()
    return Output(
        [brief(m) for m in gone],
        view=lambda s: [f"forgot {render.one_line(m, now, s)}" for m in gone],
    )


def cmd_context(args: argparse.Namespace) -> Output:
    """``context``: the text SessionStart would inject for this project."""
    project = resolve_project(args.project, Path.cwd())
    text = get_relevant_context(project, args.query, args.budget, record=False)
    return Output({"project": project, "context": text, "chars": len(text)}, [text] if text else [])


def cmd_stats(_args: argparse.Namespace) -> Output:
    """``stats``: per store entries, bytes, oldest, newest, expiring within 7 days."""
    rows = store_stats()
    return Output(
        [
            {
                **asdict(r),
                "oldest": r.oldest and r.oldest.isoformat(),
                "newest": r.newest and r.newest.isoformat(),
            }
            for r in rows
        ],
        view=lambda s: render.stats_table(rows, s),
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
    if report.forgotten:
        text.append(
            f"{len(report.forgotten)} you had forgotten were not imported again: "
            + ", ".join(report.forgotten[:MAX_IDS_SHOWN])
            + (" …" if len(report.forgotten) > MAX_IDS_SHOWN else "")
        )
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
    before = [f"extended {m.id} to {m.expires_at:%Y-%m-%d}" for m in _extend_all(args.extend_ttl)]
    plan = plan_prune()
    now = clock.now()

    def output(report: PruneReport, *, done: bool, after: list[str]) -> Output:
        return Output(
            _prune_data(report, done=done),
            view=lambda s: [*before, *_describe_plan(plan, now, s), *after],
        )

    if not plan.removed or args.dry_run:
        return output(plan, done=False, after=[])
    if not (args.yes or confirm(f"Delete these {len(plan.removed)} memories? [y/N] ")):
        return output(
            plan, done=False, after=["nothing deleted (run with --yes to prune without a terminal)"]
        )
    done = prune()
    return output(done, done=True, after=[f"deleted {len(done.removed)} memories"])


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


def _describe_plan(plan: PruneReport, now: datetime, style: Style) -> list[str]:
    if not plan.removed:
        return ["nothing to prune"]
    lines = [f"{len(plan.expired)} expired, {len(plan.over_cap)} over their store's cap:"]
    lines += [f"  expired   {render.one_line(m, now, style)}" for m in plan.expired]
    lines += [f"  over cap  {render.one_line(m, now, style)}" for m in plan.over_cap]
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
    """``doctor [--repair] [--reindex] [--rebuild-venv]``: check the home and the plugin venv.

    ``--rebuild-venv`` starts the venv's build now (a failed one waits an hour otherwise)
    and says where its log is; the checks after it show the build running.
    """
    from artibot_memory.core import venv  # noqa: PLC0415 - only doctor touches the venv

    rebuilt: list[str] = []
    building = True
    if args.rebuild_venv:
        folders = venv.plugin_data_dirs()
        if not folders:
            building = False
            rebuilt.append(
                f"no plugin data folder (${venv.DATA_ENV} is unset and ~/.claude/plugins/data "
                "holds no artibot-memory folder): Claude Code creates it when the plugin is "
                "installed"
            )
        for folder in folders:
            started, said = venv.rebuild(folder)
            building = building and started
            rebuilt += said
    actions = doctor.repair() if args.repair else []
    reindexed = [doctor.reindex()] if args.reindex else []
    checks = doctor.diagnose()
    healthy = all(check.ok for check in checks)
    # The venv's lines go after the home's and before the home's hints (the last lines);
    # a venv's problem names its own remedy, --rebuild-venv.
    home_checks = [check for check in checks if check.name != doctor.VENV_CHECK]
    report = doctor.report_lines(home_checks)
    venv_lines = [check.line() for check in checks if check.name == doctor.VENV_CHECK]
    lines = (
        (doctor.format_actions(actions) if args.repair else [])
        + reindexed
        + [f"rebuild-venv: {line}" for line in rebuilt]
    )
    lines += report[: len(home_checks)] + venv_lines + report[len(home_checks) :]
    data = {
        "healthy": healthy,
        "repaired": actions,
        "reindexed": reindexed,
        "rebuild_venv": rebuilt,
        "checks": [c.as_dict() for c in checks],
    }
    return Output(data, lines, exit_code=0 if healthy and building else 1)
