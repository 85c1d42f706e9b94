"""The CLI's writing verbs: each takes parsed arguments and returns an :class:`Output`.

``save``, ``forget``, ``export``, ``import``, ``prune``, ``consolidate``, ``ingest``,
``doctor`` and ``edit``: the verbs that write, or read the stores whole, and so import
pydantic and the writers. After a verb that writes, MEMORY.md is rendered again, in one place
(:func:`after_write`). The read verbs, and :class:`Output` itself, are in
:mod:`artibot_memory.cli.reads`. None of them prints, except ``prune`` and ``consolidate``,
which ask their confirmation question through ``confirm``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

from artibot_memory.api import consolidate, doctor, memories
from artibot_memory.api.prune import (
    NOTES_DAYS_ENV,
    PruneReport,
    extend_ttl,
    notes_days,
    plan_prune,
    prune,
)
from artibot_memory.api.transfer import export_lines, import_file
from artibot_memory.cli import render
from artibot_memory.cli.reads import Output, brief
from artibot_memory.cli.render import Style
from artibot_memory.core import clock
from artibot_memory.core.errors import UnknownMemoryError, UsageError
from artibot_memory.core.project import display_name, project_of, resolve_project
from artibot_memory.core.redact import redact
from artibot_memory.notes.consolidate import Change, Proposal
from artibot_memory.store.model import Memory, MemoryType, Source

Confirm = Callable[[str], bool]
PROJECT_TYPES = {MemoryType.CONTEXT.value, MemoryType.COMMAND.value, MemoryType.ERROR.value}

MAX_IDS_SHOWN = 5
MAX_SOURCES_SHOWN = 3
CONSOLIDATION_GROUPS = (  # kind, title, mark: how a proposal is shown
    ("add", "Add to MEMORY.md", "+"),
    ("update", "Update", "~"),
    ("remove", "Remove as stale", "-"),
)


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
        source=typed_source(args),
    )
    verb = "merged into" if saved.count > 1 else "saved"
    where = f", {display_name(saved.project)}" if saved.project else ", global"
    lines = [f"{verb} {saved.id} ({saved.type.value}{where}, seen {saved.count}×)"]
    lines += _disagreements(saved.id)
    return Output(brief(saved), lines + _noted(saved, note=bool(getattr(args, "note", False))))


def _disagreements(memory_id: str) -> list[str]:
    """Say the open conflicts a save just made: with which memory, and how to settle it."""
    try:
        held = memories.get(memory_id).details.get("conflicts") or []
    except UnknownMemoryError:  # forgotten meanwhile
        return []
    return [
        f"conflicts with {c.get('with')} ({c.get('severity')}): `artibot-memory conflicts` "
        f"shows both, `conflicts resolve {c.get('id')} --keep new|old|both` settles it"
        for c in held
        if isinstance(c, dict) and c.get("status") == "open"
    ]


def typed_source(args: argparse.Namespace) -> Source:
    """Return the source of a CLI save: the command line as typed, and who typed it.

    ``skill`` when Claude ran it (Claude Code sets ``CLAUDECODE=1`` in its shell), else
    ``cli``. The words are those :func:`artibot_memory.cli.app.main` parsed (``argv``),
    each redacted as the memory's text is: quoted and joined, a bare token in the text's
    prose would no longer read as prose to the redactor.
    """
    channel = "skill" if os.environ.get("CLAUDECODE") == "1" else "cli"
    typed = getattr(args, "argv", None)
    words = [_redacted_word(word) for word in (typed if typed is not None else sys.argv[1:])]
    return Source(channel=channel, command=shlex.join(["artibot-memory", *words]))


def _redacted_word(word: str) -> str:
    """Redact one word of a command line; of ``--option=value``, the value as a word."""
    option, equals, value = word.partition("=")
    if word.startswith("--") and equals:
        return f"{option}={redact(value)}"
    return redact(word)


def _noted(saved: Memory, *, note: bool) -> list[str]:
    """Write a decision, or a save with ``--note``, in today's daily note; say where."""
    from artibot_memory.api.daily import DECISIONS, NOTES, note_memory  # noqa: PLC0415 - noted only

    section = DECISIONS if "decision" in saved.tags else NOTES if note else None
    if section is None:
        return []
    written = note_memory(saved, section)
    return [f"noted in daily/{written[0].day.isoformat()}.md ({section})"] if written else []


def cmd_forget(args: argparse.Namespace) -> Output:
    """``forget ID`` or ``forget --key K``: delete for good (a team line: hidden for you)."""
    try:
        gone = memories.forget(args.id, key=args.key)
    except UnknownMemoryError:
        if args.id and _hid_team_line(args.id):
            line = f"hid team memory {args.id} for you (`share --remove` takes it out for all)"
            return Output({"hidden": args.id}, [line])
        raise
    now = clock.now()
    return Output(
        [brief(m) for m in gone],
        view=lambda s: [f"forgot {render.one_line(m, now, s)}" for m in gone],
    )


def _hid_team_line(memory_id: str) -> bool:
    from artibot_memory.api import share  # noqa: PLC0415 - only for an id no store holds

    if not share.is_shared(memory_id):
        return False
    share.hide(memory_id)
    return True


def cmd_share(args: argparse.Namespace, ask: Callable[[str], bool]) -> Output:
    """``share [--project PATH] [--yes|--dry-run] [--remove ID]``: team memory in the repo."""
    from artibot_memory.api import share  # noqa: PLC0415 - only this verb writes a repository
    from artibot_memory.recall.team import team_path  # noqa: PLC0415

    root = share.repository_of(args.project)
    path = team_path(root)
    if args.remove:
        share.remove(root, args.remove)
        said = f"removed {args.remove} from {path}: commit it, and it is gone for everyone"
        return Output({"removed": args.remove, "file": path}, [said])
    offered = share.proposals(root)
    if args.dry_run or not offered:
        lines = [f"[{section}] {share.line_of(m, section)} ({m.id})" for section, m in offered]
        lines = lines or [f"nothing of {root} to share that {path} lacks"]
        data = [{"id": m.id, "section": section} for section, m in offered]
        return Output({"proposed": data, "file": path}, lines, wrote=False)

    def accept(section: str, memory: Memory) -> bool:
        line = share.line_of(memory, section)
        return bool(args.yes) or ask(f"share [{section}] {line} ({memory.id})? [y/N] ")

    chosen = share.share(root, accept)
    lines = [f"shared {len(chosen)} of {len(offered)} in {path}: review it, then commit it"]
    return Output({"shared": [m.id for m in chosen], "file": path}, lines, wrote=False)


def cmd_export(args: argparse.Namespace) -> Output:
    """``export``: every record as JSON Lines on stdout."""
    return Output(None, list(export_lines(args.type)))


def cmd_import(args: argparse.Namespace) -> Output:
    """``import FILE``: JSON Lines in; all or nothing unless ``--skip-invalid``."""
    if args.claude_auto_memory is not None:
        if args.file is not None:
            msg = "import reads a FILE or --claude-auto-memory, not both"
            raise UsageError(msg)
        return _import_claude(args.claude_auto_memory or None)
    if args.file is None:
        msg = "import needs a FILE (- for stdin), or --claude-auto-memory [PROJECT]"
        raise UsageError(msg)
    lines, source = _read_lines(args.file)
    report = import_file(lines, source, skip_invalid=args.skip_invalid)
    text = [f"imported {render.count(report.imported, 'memory', 'memories')}"]
    if report.expired_on_arrival:
        text.append(f"{report.expired_on_arrival:,} had expired already, not kept")
    if report.already:
        text.append(f"{report.already:,} stored already (same id), left unchanged")
    if report.forgotten:
        text.append(
            f"{len(report.forgotten):,} forgotten by you, not imported again: "
            + ", ".join(report.forgotten[:MAX_IDS_SHOWN])
            + (" …" if len(report.forgotten) > MAX_IDS_SHOWN else "")
        )
    refused = [f"refused {line}" for line in report.skipped]
    return Output(
        asdict(report), text, exit_code=1 if refused else 0, warnings=[*report.cut, *refused]
    )


def _import_claude(project: str | None) -> Output:
    """``import --claude-auto-memory [PROJECT]``: Claude Code's auto memory, read only."""
    from artibot_memory.api.claude_memory import import_auto_memory  # noqa: PLC0415

    report = import_auto_memory(project)
    counts = f"{report.preferences} preferences, {report.contexts} contexts"
    where = f"{len(report.files)} files in {report.folder}"
    text = [
        f"imported {report.imported} memories from Claude Code's auto memory ({counts}; {where})"
    ]
    if report.already:
        text.append(f"{report.already} were there already and were not added again")
    return Output({**asdict(report), "imported": report.imported}, text)


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
            wrote=done,
        )

    if not (plan.removed or plan.notes) or args.dry_run:
        return output(plan, done=False, after=[])
    if not (args.yes or confirm(f"Delete these {_what_goes(plan)}? [y/N] ")):
        return output(
            plan, done=False, after=["nothing deleted (run with --yes to prune without a terminal)"]
        )
    done = prune()
    return output(done, done=True, after=[f"deleted {_what_goes(done)}"])


def _what_goes(plan: PruneReport) -> str:
    """``3 memories``, ``2 daily notes``, or ``3 memories and 2 daily notes``."""
    parts = [f"{len(plan.removed)} memories"] if plan.removed or not plan.notes else []
    parts += [f"{len(plan.notes)} daily notes"] if plan.notes else []
    return " and ".join(parts)


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
    if not (plan.removed or plan.notes):
        return ["nothing to prune"]
    lines = []
    if plan.removed:
        lines = [f"{len(plan.expired)} expired, {len(plan.over_cap)} over their store's cap:"]
        lines += [f"  expired   {render.one_line(m, now, style)}" for m in plan.expired]
        lines += [f"  over cap  {render.one_line(m, now, style)}" for m in plan.over_cap]
        lines.append("keep one with: artibot-memory prune --extend-ttl ID DAYS")
    if plan.notes:
        noun = "daily note" if len(plan.notes) == 1 else "daily notes"
        lines.append(f"{len(plan.notes)} {noun} older than {notes_days()} days:")
        lines += [f"  old note  {name}" for name in plan.notes]
        lines.append(f"keep them longer with {NOTES_DAYS_ENV}=DAYS")
    return lines


def _prune_data(plan: PruneReport, *, done: bool) -> dict[str, Any]:
    return {
        "deleted": done,
        "expired": [brief(m) for m in plan.expired],
        "over_cap": [brief(m) for m in plan.over_cap],
        "notes": plan.notes,
        "skipped_busy": plan.skipped_busy,
    }


def cmd_ingest(args: argparse.Namespace) -> Output:
    """``ingest [--prune]``: drain the capture journal into the stores (the hooks' worker)."""
    from artibot_memory.capture.hooklog import log_failure  # noqa: PLC0415
    from artibot_memory.lifecycle import ingest  # noqa: PLC0415 - only this verb needs it

    try:
        report = ingest(then_prune=args.prune)
    except Exception as exc:
        # The SessionEnd worker runs detached with no stderr: the log is where it is seen.
        log_failure("ingest", exc)
        raise
    return Output(
        {"records": report.records, "stored": len(report.stored)},
        [f"ingested {report.records} journal records"],
    )


def cmd_sync(args: argparse.Namespace) -> Output:
    """``sync [--remote URL]``: pull, merge, push through git; exit 1 when a file was held back."""
    from artibot_memory.api import sync  # noqa: PLC0415 - only this verb drives git

    report = sync.sync(url=args.remote)
    short = (report.commit or "")[:7]
    received, sent = len(report.received), len(report.sent)
    lines = [
        f"synced with {report.remote}: {received} {'file' if received == 1 else 'files'} "
        f"merged in, {sent} sent" + (f" (snapshot {short})" if short else "")
    ]
    lines += [
        f"conflict {cid} logged: `artibot-memory conflicts` to resolve it"
        for cid in report.conflicts
    ]
    lines += report.notes
    warnings = [f"not synced: {where}; remove it and sync again" for where in report.blocked]
    data = {
        "remote": report.remote,
        "commit": report.commit,
        "received": report.received,
        "sent": report.sent,
        "blocked": report.blocked,
        "conflicts": report.conflicts,
        "notes": report.notes,
        "attempts": report.attempts,
    }
    return Output(data, lines, exit_code=1 if report.blocked else 0, warnings=warnings)


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


# Verbs that write nothing a MEMORY.md line comes from, or that render it themselves.
# evolve and sync: their own render
NO_REFRESH = frozenset({"export", "ingest", "edit", "hook", "home", "evolve", "sync"})


def after_write(args: argparse.Namespace, output: Output) -> Output:
    """Render MEMORY.md again after a writing verb (every one but :data:`NO_REFRESH`).

    A ``--dry-run``, or a checkpoint answered no, writes nothing: nothing is rendered either.

    The verb's own write is done: a failure here is logged (``logs/hooks.log``) and does not
    turn the verb into an error; the next refresh tries again.
    """
    verb = args.verb
    if verb in NO_REFRESH or getattr(args, "dry_run", False) or not output.wrote:
        return output
    from artibot_memory.api.semantic import refresh  # noqa: PLC0415 - the writers' verbs only
    from artibot_memory.capture.hooklog import log_failure  # noqa: PLC0415

    try:
        refresh()
    except Exception as exc:  # noqa: BLE001 - the verb's write is done; the file can wait
        log_failure(f"MEMORY.md after {verb}", exc)
    return output


def cmd_edit(args: argparse.Namespace) -> Output:
    """``edit``: open MEMORY.md in $VISUAL or $EDITOR, then apply what changed in it."""
    from artibot_memory.api.semantic import edit  # noqa: PLC0415 - only this verb needs it

    report = edit(args.editor)
    lines = [
        f"{label} {len(ids)}: "
        + ", ".join(ids[:MAX_IDS_SHOWN])
        + (" …" * (len(ids) > MAX_IDS_SHOWN))
        for label, ids in (
            ("added", report.added),
            ("updated", report.updated),
            ("forgotten", report.forgotten),
        )
        if ids
    ]
    return Output(asdict(report), lines or [f"no change to {report.path}"])


def cmd_consolidate(args: argparse.Namespace, confirm: Confirm) -> Output:
    """``consolidate``: show what the daily notes add and what is stale, ask, then apply.

    ``--dry-run`` only shows; ``--yes`` applies without asking; without a terminal (and
    without ``--yes``) the question is answered no: it only reports. Applying (even
    nothing) records the run, so the next one reads only newer notes.
    """
    proposal = consolidate.plan(args.days)
    shown = _describe_proposal(proposal)
    count = len(proposal.changes)

    def output(*, applied: consolidate.Applied | None, after: list[str]) -> Output:
        data = {
            "since": proposal.since.isoformat(),
            "files": proposal.files,
            "proposal": [change.as_dict() for change in proposal.changes],
            "applied": applied is not None,
            "changes": applied.changes if applied else [],
            "last_run": applied.last_run if applied else None,
        }
        return Output(data, [*shown, *after], wrote=applied is not None)

    if args.dry_run:
        return output(applied=None, after=["dry run: nothing changed"] if count else [])
    asked = f"Apply these {count} changes? [y/N] "
    if count and not (args.yes or confirm(asked)):
        return output(
            applied=None,
            after=["nothing applied (run `artibot-memory consolidate --yes` to apply)"],
        )
    if not count and not (args.yes or _interactive()):
        return output(applied=None, after=[])
    applied = consolidate.apply(proposal)
    return output(applied=applied, after=[f"applied {count} changes; recorded this run"])


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stderr.isatty()


def _describe_proposal(proposal: Proposal) -> list[str]:
    first = proposal.since.astimezone()
    head = (
        f"read {len(proposal.files)} daily notes, from {first:%Y-%m-%d %H:%M} "
        f"to {proposal.until.astimezone():%Y-%m-%d %H:%M}"
    )
    if not proposal.changes:
        return [head, "nothing to change in MEMORY.md"]
    lines = [head]
    for kind, title, mark in CONSOLIDATION_GROUPS:
        group = proposal.group(kind)
        if group:
            lines.append(f"{title} ({len(group)}):")
            lines += [line for change in group for line in _change_lines(change, mark)]
    return lines


def _change_lines(change: Change, mark: str) -> list[str]:
    what = change.memory_id or ("new context" if change.action == "create" else change.action)
    where = f" [{display_name(change.project)}]" if change.project else ""
    tags = f" #{' #'.join(change.tags)}" if change.action == "create" else ""
    reason = f"    {change.reason}"
    if change.sources:
        shown = change.sources[:MAX_SOURCES_SHOWN]
        more = len(change.sources) - len(shown)
        reason += f"; from {', '.join(shown)}" + (f" (+{more})" if more else "")
    return [f"  {mark} {what}{where}: {render.printable(change.text)}{tags}", reason]


def cmd_proposals(args: argparse.Namespace) -> Output:
    """``proposals [accept|reject ID]``: what deserves MEMORY.md, and the user's answer."""
    from artibot_memory.api import proposals  # noqa: PLC0415 - only this verb needs it

    if args.action is None:
        if args.id is not None:
            msg = f"proposals takes `accept {args.id}` or `reject {args.id}`"
            raise UsageError(msg)
        listed = proposals.listed(project=project_of(str(Path.cwd())))
        data = {
            "proposals": [p.as_dict() for p in listed if p.verdict == "propose"],
            "review": [p.as_dict() for p in listed if p.verdict == "review"],
        }
        return Output(data, view=lambda style: render.proposals_lines(data, style), wrote=False)
    if not args.id:
        msg = f"proposals {args.action} needs the proposal's id (prop-…); `proposals` lists them"
        raise UsageError(msg)
    if args.action == "accept":
        promoted = proposals.accept(args.id).as_dict()
        return Output(promoted, [render.promoted_line(promoted)])
    rejected = proposals.reject(args.id)
    until = clock.parse_time(rejected["until"]) or clock.now()
    line = (
        f"rejected {rejected['id']} ({rejected['ref']}): not proposed again before {until:%Y-%m-%d}"
    )
    return Output(rejected, [line])


def cmd_conflicts(args: argparse.Namespace) -> Output:
    """``conflicts [--all]``: the memories that disagree; ``conflicts resolve ID --keep …``."""
    from artibot_memory.api import conflicts  # noqa: PLC0415 - this verb only

    if getattr(args, "action", None) == "resolve":
        done = conflicts.resolve(args.id, args.keep, args.note)
        said = ", ".join(f"{memory_id} {state}" for memory_id, state in done.states.items())
        return Output(asdict(done), [f"resolved {done.id}: kept {done.keep} ({said})"])
    found = [render.conflict_data(entry) for entry in conflicts.open_conflicts(every=args.all)]
    return Output(found, view=lambda style: render.conflict_lines(found, style), wrote=False)


def cmd_evolve(args: argparse.Namespace) -> Output:
    """``evolve [--dry-run] [--consolidate-only|--reflect-only|--promote-only]``: seed 002."""
    from artibot_memory.api import evolve  # noqa: PLC0415 - this verb only

    only = [p for p in evolve.PHASES if getattr(args, f"{p}_only", False)]
    report = evolve.run(
        phases=only or evolve.PHASES,
        dry_run=args.dry_run,
        project=project_of(str(Path.cwd())),
    )
    data = report.to_json()
    return Output(data, view=lambda style: render.evolve_lines(data, style), wrote=False)


def cmd_profile(args: argparse.Namespace) -> Output:
    """``profile list|show ENTITY|set ENTITY --file F``: the entity profiles of evolve."""
    from artibot_memory.api import entities  # noqa: PLC0415 - this verb only
    from artibot_memory.core.paths import memory_home  # noqa: PLC0415

    home = memory_home()
    if args.action == "list":
        found = entities.listing(home)
        return Output(found, view=lambda style: render.profile_lines(found, style), wrote=False)
    entity = entities.resolve(home, args.entity)
    relative = entities.file_of(entity)
    if args.action == "show":
        path = entities.path_of(home, entity)
        if not path.is_file():
            msg = f"{entity} has no profile yet ({relative}): `artibot-memory evolve` writes it"
            raise UsageError(msg)
        text = path.read_text(encoding="utf-8", errors="replace")
        return Output(
            {"entity": entity, "path": relative, "text": text}, text.splitlines(), wrote=False
        )
    lines, _source = _read_lines(args.file)
    entities.profile_set(home, entity, "\n".join(lines))
    done = {"entity": entity, "path": relative}
    return Output(done, [f"set the Profile of {entity} ({relative})"], wrote=False)
