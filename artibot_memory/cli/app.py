"""The ``artibot-memory`` command line: one parser, one error boundary, one way out.

Exit status: 0 done, 1 an error with one clear line on stderr (no traceback), 2 a usage
error from the parser. Text for people is drawn by :mod:`artibot_memory.cli.render`
(aligned columns; colour only on a terminal without ``NO_COLOR``). Every read verb takes
``--json``.

The ``--json`` documents are versioned without changing a shape readers already parse:

- a document that is an object (``show``, ``save``, ``context``, ``prune``, ``import``,
  ``ingest``, ``doctor``) gains ``"schema": "artibot-memory/1"`` as its first key;
- a document that is a list (``search``, ``list``, ``forget``, ``stats``) stays a bare
  list: wrapping it in an object would break every ``json.loads(out)[0]`` and ``jq '.[]'``
  written against it. Each object in the list gains the same ``"schema"`` key instead (an
  empty list has nothing to mark, and nothing to misread either).

Version 1 is what these documents were before the marker. Fields may be added within it
(readers ignore what they do not know); removing, renaming or retyping a field, or
wrapping a list, makes ``artibot-memory/2``, and a reader refuses a version it does not
know. ``export`` writes records, not a ``--json`` document, and is not marked: its lines are
what ``import`` reads.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from datetime import date, datetime, time, timedelta

from artibot_memory import __version__
from artibot_memory.cli import reads, render
from artibot_memory.cli.reads import Output
from artibot_memory.core.clock import parse_time
from artibot_memory.core.errors import ArtibotMemoryError, UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.store.table import MemoryType

TYPES = [t.value for t in MemoryType]
DESCRIPTION = """\
Long-term memory for Claude Code, kept in local JSON files: your preferences, each
project's facts and session summaries, the commands you run and how errors were fixed.
Claude Code's hooks fill it and hand it back; these verbs let you look at it, search it,
add to it and forget it."""
EPILOG = """\
examples:
  artibot-memory list                      this project's memories and the global ones
  artibot-memory search "deploy"           the relevant ones, best first
  artibot-memory show ctx-1a2b3c4d5e       one memory, every field
  artibot-memory save preference "Use pnpm, not npm" --key package-manager
  artibot-memory forget pref-3f9a2c1b0d
  artibot-memory VERB --help               what one verb does, its options, examples

projects:
  search and list look at the project of the working directory (its git top-level) and
  at global memories (those of no project). --project NAME picks another project,
  --all-projects looks at every one; outside any git repository they look at everything.

environment:
  ARTIBOT_MEMORY_HOME  where the memories live (default: your user data folder; see `home`)
  NO_COLOR             no colour, even on a terminal (a pipe or a file never gets colour)
  CLAUDECODE=1         set by Claude Code: a search run there counts its hits as accessed,
                       which ranks them higher later; a search at your terminal does not

exit status: 0 done, 1 an error (one line on stderr), 2 a usage error.
--json output carries "schema": "artibot-memory/1" (on each row of a list)."""

_PROJECT_HELP = (
    "a project's memories and the global ones: its folder name or a path"
    " (default: the git top-level of the working directory)"
)
_TYPE_HELP = "only this kind of memory: preference, context, command or error"
EXAMPLE_COLUMN = 46  # where the comments of the examples start

# Every verb's examples: its --help epilog. Kept apart from the parsers so that a verb
# added elsewhere (doctor) gets its examples here too, and a test can check each has some.
EXAMPLES: dict[str, list[tuple[str, str]]] = {
    "save": [
        ('save preference "Use pnpm, not npm" --key package-manager', "global, replaceable"),
        ('save context "Chose SQLite: single-user desktop app" --tag decision', "this project"),
        (
            "save error \"ModuleNotFoundError: No module named 'yaml'\" --fix 'pip install pyyaml'",
            "",
        ),
        ('save command "make release" --project shop', ""),
    ],
    "search": [
        ('search "deploy"', "this project and global memories"),
        ('search "package manager" --type preference', ""),
        ('search "migration" --all-projects --limit 20', "every project"),
        ('search "argon2" --layer episodic', "only the daily notes"),
        ('search "login bug" --project shop --json', "another project, as JSON"),
    ],
    "list": [
        ("list", "this project and global memories, newest first"),
        ("list --type preference", ""),
        ("list --all-projects", "every project"),
        ("list --project shop --json", ""),
    ],
    "show": [
        ("show pref-3f9a2c1b0d", "every field, for people"),
        ("show ctx-1a2b3c4d5e --json", "the full record"),
    ],
    "forget": [
        ("forget pref-3f9a2c1b0d", "one memory, by id"),
        ("forget --key package-manager", "every memory with that key (its history too)"),
    ],
    "stats": [("stats", ""), ("stats --json", "")],
    "get": [
        ("get 2026-11-30", "that day's note"),
        ("get yesterday", ""),
        ("get MEMORY.md --json", "its sections, each line with its source"),
    ],
    "context": [
        ("context", "what a new session of this project receives, exactly"),
        ("context --explain", "why each line is there, and what was left out"),
        ('context --project shop --query "deploy" --budget 2000', ""),
    ],
    "prune": [
        ("prune --dry-run", "what would go, deleting nothing"),
        ("prune", "lists, then asks"),
        ("prune --yes", "without asking"),
        ("prune --extend-ttl ctx-1a2b3c4d5e 30", "keep one 30 days more, then prune"),
    ],
    "export": [
        ("export > memories.jsonl", "every record, expired ones included"),
        ("export --type preference", ""),
    ],
    "import": [
        ("import memories.jsonl", "all or nothing"),
        ("import --skip-invalid old.jsonl", ""),
        ("""echo '{"type": "preference", "text": "Use tabs"}' | artibot-memory import -""", ""),
        ("import --claude-auto-memory", "Claude Code's auto memory of this project"),
        ("import --claude-auto-memory ~/src/shop", ""),
    ],
    "consolidate": [
        ("consolidate", "the notes since the last run: shows, then asks"),
        ("consolidate --dry-run --days 30", "the last 30 days, changing nothing"),
        ("consolidate --yes --json", "apply without asking"),
    ],
    "doctor": [
        ("doctor", "checks every file; exit 1 when one needs mending"),
        ("doctor --repair", "mends it, keeping the originals aside"),
    ],
    "config": [
        ("config", "every setting, its value and where it came from"),
        ("config --project shop --json", "as a session of that project sees them"),
    ],
    "hook": [
        ('echo \'{"cwd": "."}\' | artibot-memory hook SessionStart', "what Claude Code runs"),
    ],
    "home": [("home", ""), ('ls -l "$(artibot-memory home)"', "")],
    "sync": [
        ("sync --remote git@github.com:me/memory.git", "once: where your memory travels"),
        ("sync", "pull, merge, push (sync.auto = true: at every session end)"),
        ("sync --remote /mnt/usb/memory.git", "a bare repository on a disk works too"),
    ],
    "ingest": [
        ("ingest", "what the SessionEnd worker does"),
        ("ingest --prune", "what a SessionStart's worker does"),
    ],
}


def examples(verb: str) -> str:
    """Return the ``--help`` epilog of ``verb``: its examples, comments aligned like a shell's.

    >>> examples("stats").splitlines()[1:]
    ['  artibot-memory stats', '  artibot-memory stats --json']
    """
    commands = [
        (command if command.startswith(("echo ", "ls ")) else f"artibot-memory {command}", comment)
        for command, comment in EXAMPLES[verb]
    ]
    column = min(max(len(command) for command, _ in commands), EXAMPLE_COLUMN)
    lines = []
    for command, comment in commands:
        if comment and len(command) > column:  # too long to share its line: the comment above
            lines += [f"  # {comment}", f"  {command}"]
        else:
            lines.append(f"  {command.ljust(column)}  # {comment}" if comment else f"  {command}")
    return "examples:\n" + "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of every verb."""
    parser = argparse.ArgumentParser(
        prog="artibot-memory",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"artibot-memory {__version__}")
    subparsers = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    _add_save(subparsers)
    _add_search(subparsers)
    _add_read_verbs(subparsers)
    _add_get(subparsers)
    _add_prune(subparsers)
    _add_transfer(subparsers)
    _add_consolidate(subparsers)
    _add_doctor(subparsers)
    _add_edit(subparsers)
    _add_config(subparsers)
    _add_proposals(subparsers)
    _add_conflicts(subparsers)
    _add_evolve(subparsers)
    _add_profile(subparsers)
    _add_sync(subparsers)
    _add_share(subparsers)
    _add_report(subparsers)
    hook = subparsers.add_parser(
        "hook", help="run a Claude Code hook (payload on stdin; always exits 0)"
    )
    hook.add_argument(
        "event",
        help="the hook event: SessionStart, UserPromptSubmit, PostToolUse, "
        "PostToolUseFailure, PreCompact or SessionEnd",
    )
    subparsers.add_parser("home", help="print the memory home (the folder of every file)")
    ingest = subparsers.add_parser(
        "ingest", help="store what the hooks captured in the journal now"
    )
    ingest.add_argument(
        "--prune",
        action="store_true",
        help="then delete what expired and what is over its store's cap, without asking "
        "(what a SessionStart's worker does)",
    )
    _describe_verbs(subparsers)
    return parser


def _describe_verbs(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Give every verb's --help a description (its one-line help) and its examples."""
    # argparse keeps a verb's one-line help only there; it has no public accessor.
    helps = {action.dest: action.help for action in subparsers._choices_actions}  # noqa: SLF001
    for name, verb in subparsers.choices.items():
        verb.formatter_class = argparse.RawDescriptionHelpFormatter
        summary = helps.get(name)
        if verb.description is None and summary:
            verb.description = f"{summary[0].upper()}{summary[1:]}."
        verb.epilog = examples(name) if name in EXAMPLES else verb.epilog


def _json_flag(parser: argparse.ArgumentParser, what: str = "the result") -> None:
    parser.add_argument("--json", action="store_true", help=f"print {what} as JSON")


def _where_flags(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--project", metavar="NAME|PATH", help=_PROJECT_HELP)
    where.add_argument(
        "--all-projects", action="store_true", help="look at every project's memories"
    )


def _add_save(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    save = subparsers.add_parser("save", help="remember one thing")
    save.add_argument(
        "type",
        choices=TYPES,
        help="preference (how you like things done), context (a fact or decision of a "
        "project), command, or error",
    )
    save.add_argument("text", help="what to remember (secrets are redacted before it is written)")
    save.add_argument("--key", help="a stable name; saving the same key again replaces the value")
    save.add_argument("--tag", action="append", help="a tag (repeatable)")
    save.add_argument(
        "--project",
        metavar="NAME|PATH",
        help="the project it belongs to (context, command, error: default this one; "
        "preference: none, so it applies everywhere)",
    )
    save.add_argument(
        "--scope",
        choices=["global", "project", "person", "temporary"],
        help="how far it applies (default: project when it has one, else global)",
    )
    save.add_argument("--fix", help="with an error: what resolved it (offered when it recurs)")
    save.add_argument(
        "--note",
        action="store_true",
        help="also write it in today's daily note, under Notes (a save tagged decision "
        "goes under Decisions anyway)",
    )
    _json_flag(save, "the stored record")


def _add_search(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    search = subparsers.add_parser(
        "search", help="find relevant memories, best first; prints nothing when none is"
    )
    search.description = (
        "Find the memories relevant to QUERY, best first (keyword match, then recency and use);"
        "\nprints nothing when none is. A search inside Claude Code (CLAUDECODE=1) counts its"
        "\nhits as accessed, which ranks them higher later; one at your terminal does not."
    )
    search.add_argument(
        "query", help="the words to look for (any form: 'deploying' finds 'deploy'; Korean too)"
    )
    search.add_argument("--type", choices=TYPES, metavar="TYPE", help=_TYPE_HELP)
    search.add_argument(
        "--layer",
        action="append",
        choices=["store", "episodic", "semantic"],
        metavar="LAYER",
        help="only this layer (repeatable): store (the memories), episodic (the daily notes) "
        "or semantic (MEMORY.md); default all three, only store with --type",
    )
    search.add_argument(
        "--limit", type=int, default=10, metavar="N", help="at most N results (default 10)"
    )
    _where_flags(search)
    _add_filters(search)
    search.add_argument(
        "--record",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="count the hits as accessed, or not (default: only inside Claude Code)",
    )
    _json_flag(search, "the hits, with their scores,")


STATES = ["pending", "active", "stale", "superseded", "resolved"]
SCOPES = ["global", "project", "person", "temporary"]


def _add_filters(parser: argparse.ArgumentParser) -> None:
    """Add the metadata filters of ``search`` and ``context`` (docs/METADATA.md §2)."""
    parser.add_argument(
        "--state",
        action="append",
        choices=STATES,
        metavar="STATE",
        help="only memories in this state (repeatable): pending, active, stale, superseded or "
        "resolved (default: active, stale and resolved); leaves the notes' lines out",
    )
    parser.add_argument(
        "--scope",
        action="append",
        choices=SCOPES,
        metavar="SCOPE",
        help="only memories of this scope (repeatable): global, project, person or temporary; "
        "leaves the notes' lines out",
    )
    parser.add_argument(
        "--min-confidence",
        type=confidence_arg,
        metavar="X",
        help="only memories at least this sure (0 to 1); leaves the notes' lines out",
    )
    parser.add_argument(
        "--since",
        type=since_arg,
        metavar="DATE",
        help="only what was last seen on or after DATE (a local day YYYY-MM-DD, or an ISO time)",
    )
    parser.add_argument(
        "--until",
        type=until_arg,
        metavar="DATE",
        help="only what was last seen on or before DATE (a day counts whole)",
    )


def confidence_arg(text: str) -> float:
    """Read ``--min-confidence``: a number from 0 to 1.

    >>> confidence_arg("0.8")
    0.8
    """
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        msg = f"not a confidence: {text!r}; give a number from 0 to 1, like 0.8"
        raise argparse.ArgumentTypeError(msg)
    return value


def since_arg(text: str) -> datetime:
    """Read ``--since``: a local day (from its first instant) or an ISO 8601 time.

    >>> since_arg("2026-11-30T08:00:00Z").hour
    8
    """
    return _moment_arg(text, end=False)


def until_arg(text: str) -> datetime:
    """Read ``--until``: a local day (to its last instant: the day is included) or a time."""
    return _moment_arg(text, end=True)


def _moment_arg(text: str, *, end: bool) -> datetime:
    word = text.strip()
    if len(word) == len("YYYY-MM-DD"):
        try:
            day = date.fromisoformat(word)
        except ValueError:
            pass
        else:
            start = datetime.combine(day + timedelta(days=int(end)), time()).astimezone()
            return start - timedelta(microseconds=1) if end else start
    moment = parse_time(word)
    if moment is None:
        msg = f"not a date: {text!r}; give a day (2026-11-30) or an ISO time (2026-11-30T08:00Z)"
        raise argparse.ArgumentTypeError(msg)
    return moment


def _add_read_verbs(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    listing = subparsers.add_parser("list", help="list stored memories, newest first")
    listing.add_argument("--type", choices=TYPES, metavar="TYPE", help=_TYPE_HELP)
    _where_flags(listing)
    _json_flag(listing, "the memories")
    show = subparsers.add_parser("show", help="show one memory in full")
    show.add_argument(
        "id", help="its id, as list and search print it (pref-…, ctx-…, cmd-…, err-…)"
    )
    _json_flag(show, "the full record")
    forget = subparsers.add_parser("forget", help="delete a memory by id, or all with a key")
    forget.add_argument("id", nargs="?", help="the id of the memory to delete")
    forget.add_argument("--key", help="delete every memory saved with this key (its history too)")
    _json_flag(forget, "what was deleted")
    stats = subparsers.add_parser("stats", help="entries, size and expiry per store")
    _json_flag(stats, "the figures")
    context = subparsers.add_parser(
        "context", help="the text a new session of this project receives"
    )
    context.add_argument(
        "--project",
        metavar="NAME|PATH",
        help="the project whose session start to show (default: the working directory's)",
    )
    context.add_argument("--query", help="put what is relevant to this text first in each section")
    context.add_argument(
        "--budget",
        type=int,
        default=None,
        metavar="CHARS",
        help="at most this many characters (default: the context.budget setting, 3600)",
    )
    context.add_argument(
        "--explain",
        action="store_true",
        help="say why each line is there, and what was left out and why",
    )
    _add_filters(context)
    _json_flag(context, "the project, the text, its length and each line's reason")


def _add_get(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    get = subparsers.add_parser("get", help="print one day's note, or MEMORY.md")
    get.add_argument(
        "what",
        metavar="DAY|MEMORY.md",
        help="YYYY-MM-DD (a local day), today, yesterday or MEMORY.md",
    )
    _json_flag(get, "its path, date, sections (each line with its source) and text")


def _add_prune(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    prune = subparsers.add_parser(
        "prune", help="list expired and over-cap memories, then delete them"
    )
    prune.add_argument("--dry-run", action="store_true", help="only list what would go")
    prune.add_argument("--yes", action="store_true", help="delete without asking")
    prune.add_argument(
        "--extend-ttl",
        nargs=2,
        action="append",
        metavar=("ID", "DAYS"),
        help="keep memory ID for DAYS more days, before pruning (repeatable)",
    )
    _json_flag(prune, "what expired and what was deleted")


def _add_transfer(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = subparsers.add_parser("export", help="every record as JSON Lines")
    export.add_argument("--type", choices=TYPES, metavar="TYPE", help=_TYPE_HELP)
    imp = subparsers.add_parser("import", help="add memories from a JSON Lines file (- for stdin)")
    imp.add_argument(
        "file",
        nargs="?",
        help="JSON Lines: records as export writes them, or short ones with type and text; "
        "- reads stdin",
    )
    imp.add_argument(
        "--claude-auto-memory",
        nargs="?",
        const="",
        metavar="PROJECT",
        help="instead, read Claude Code's own auto memory of PROJECT (default: this one) "
        "from $CLAUDE_CONFIG_DIR or ~/.claude, read only",
    )
    imp.add_argument("--skip-invalid", action="store_true", help="import the valid lines anyway")
    _json_flag(imp, "how many were imported and skipped")


def _add_consolidate(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    consolidate = subparsers.add_parser(
        "consolidate",
        help="propose what the recent daily notes add to MEMORY.md and what is stale, then ask",
    )
    consolidate.add_argument(
        "--days",
        type=int,
        metavar="N",
        help="read the notes of the last N days, 1 to 30 (default: since the last "
        "consolidation, or the last 7 days)",
    )
    consolidate.add_argument("--dry-run", action="store_true", help="only show the proposal")
    consolidate.add_argument("--yes", action="store_true", help="apply without asking")
    _json_flag(consolidate, "the proposal and what was applied")


def _add_doctor(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    doctor = subparsers.add_parser("doctor", help="check every file of the memory home")
    doctor.add_argument("--repair", action="store_true", help="mend it (originals kept aside)")
    doctor.add_argument(
        "--reindex",
        action="store_true",
        help="build the search index (index.sqlite) again from the stores",
    )
    doctor.add_argument(
        "--rebuild-venv",
        action="store_true",
        help="build the plugin's Python environment again now (after a failed install)",
    )
    _json_flag(doctor)


def _add_sync(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sync = subparsers.add_parser(
        "sync", help="pull, merge and push your memory through a git remote (docs/SYNC.md)"
    )
    sync.add_argument(
        "--remote",
        metavar="URL",
        help="the git remote to sync with (set once; any repository you can push to)",
    )
    _json_flag(sync)


def _add_share(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    share = subparsers.add_parser(
        "share",
        help="propose this project's memory to its team: .artibot-memory/team.md in the repo",
    )
    share.add_argument(
        "--project", metavar="PATH", help="the repository (default: the one of this folder)"
    )
    share.add_argument("--yes", action="store_true", help="share every proposal without asking")
    share.add_argument("--dry-run", action="store_true", help="list the proposals, write nothing")
    share.add_argument("--remove", metavar="ID", help="take a shared line out (for everyone)")
    _json_flag(share)
    EXAMPLES["share"] = [
        ("share --dry-run", "what this project's team would gain, writing nothing"),
        ("share", "asks for each, then writes .artibot-memory/team.md: commit it"),
        ("share --remove ctx-0a1b2c3d4e", "out of the file; gone for all with the commit"),
    ]


def _add_edit(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    edit = subparsers.add_parser(
        "edit", help="open MEMORY.md in your editor, then learn from what you changed"
    )
    edit.add_argument(
        "--editor", help="the editor to run (default: $VISUAL, else $EDITOR, else vi)"
    )
    _json_flag(edit, "what was added, updated and forgotten")
    EXAMPLES["edit"] = [
        ("edit", "a line you add is remembered, one you delete forgotten"),
        ("edit --editor 'code --wait'", ""),
    ]


def _add_config(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    settings = subparsers.add_parser(
        "config",
        help="print every setting (config.toml, a project's .artibot-memory.toml) and its origin",
    )
    settings.add_argument(
        "--project",
        metavar="NAME|PATH",
        help="the project whose override applies (default: the working directory's)",
    )
    _json_flag(settings, "the settings, the files and any problem")


def _add_proposals(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    proposals = subparsers.add_parser(
        "proposals",
        help="what deserves MEMORY.md (seed 001's signals): accept or reject each proposal",
    )
    proposals.add_argument(
        "action", nargs="?", choices=["accept", "reject"], help="answer one proposal"
    )
    proposals.add_argument("id", nargs="?", metavar="ID", help="the proposal's id (prop-…)")
    _json_flag(proposals, "the proposals and the weekly review list")
    EXAMPLES["proposals"] = [
        ("proposals", "each proposal with its signals, then the weekly review"),
        ("proposals accept prop-3f9a2c1b", "into MEMORY.md (noted in evolution.log)"),
        ("proposals reject prop-3f9a2c1b", "not proposed again for 30 days"),
        ("proposals --json", ""),
    ]


def _add_conflicts(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    conflicts = subparsers.add_parser(
        "conflicts",
        help="the memories that disagree (conflicts/YYYY-MM-DD.md), and their resolution",
    )
    conflicts.add_argument("--all", action="store_true", help="resolved ones too")
    _json_flag(conflicts, "the conflicts")
    actions = conflicts.add_subparsers(
        dest="action", metavar="ACTION", help="resolve: settle one conflict"
    )
    resolve = actions.add_parser("resolve", help="settle one conflict: which memory holds")
    resolve.add_argument("id", metavar="ID", help="the conflict's id (cf-…)")
    resolve.add_argument(
        "--keep",
        required=True,
        choices=["new", "old", "both"],
        help="new: the newer memory active, the older superseded; old: the reverse; both: both",
    )
    resolve.add_argument("--note", metavar="TEXT", help="why, in the ledger's resolution line")
    _json_flag(resolve, "what was resolved")
    EXAMPLES["conflicts"] = [
        ("conflicts", "the open ones: both sides, severity, a proposal"),
        ("conflicts --all --json", "resolved ones too, as JSON"),
        ('conflicts resolve cf-3f9a2c1b --keep new --note "we switched"', ""),
        ("conflicts resolve cf-3f9a2c1b --keep both", "both hold (e.g. per project)"),
    ]


def _add_profile(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    profile = subparsers.add_parser(
        "profile",
        help="entity profiles (entities/…: projects, people, areas): list, show, set the prose",
    )
    actions = profile.add_subparsers(
        dest="action", metavar="ACTION", required=True, help="list, show or set"
    )
    listed = actions.add_parser("list", help="every entity: its file, last consolidated, touches")
    _json_flag(listed, "the entities")
    show = actions.add_parser("show", help="print one entity's file")
    show.add_argument("entity", metavar="ENTITY", help=_ENTITY_HELP)
    _json_flag(show, "the entity and its file's text")
    given = actions.add_parser("set", help="replace one entity's Profile prose (kept by evolve)")
    given.add_argument("entity", metavar="ENTITY", help=_ENTITY_HELP)
    given.add_argument(
        "--file", required=True, metavar="F", help="the prose: a file, or - for stdin"
    )
    _json_flag(given, "the entity and its file")
    EXAMPLES["profile"] = [
        ("profile list", "every entity, due for consolidation or not"),
        ("profile show projects/shop", "its file"),
        ("profile set shop --file profile.md", "a bare name: the one entity called so"),
        ("echo 'Sara owns billing.' | artibot-memory profile set person:sara --file -", ""),
    ]


_ENTITY_HELP = "projects/NAME, people/NAME, areas/NAME, project:NAME, or a bare name"


def ask(question: str) -> bool:
    """Ask a yes/no question on the terminal; without one the answer is no."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in {"y", "yes"}


def _add_evolve(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    evolve = subparsers.add_parser(
        "evolve",
        help="reflect on beliefs, promote the top ones to MEMORY.md, refresh entity profiles",
    )
    evolve.add_argument(
        "--dry-run", action="store_true", help="write nothing at all; report what would change"
    )
    only = evolve.add_mutually_exclusive_group()
    only.add_argument(
        "--consolidate-only", action="store_true", help="only refresh the entity profiles due"
    )
    only.add_argument(
        "--reflect-only",
        action="store_true",
        help="only reflect (every belief, even one reflected in the last 7 days)",
    )
    only.add_argument(
        "--promote-only", action="store_true", help="only recompute MEMORY.md's Top Beliefs"
    )
    _json_flag(evolve, "the report")
    EXAMPLES["evolve"] = [
        ("evolve", "the three phases: consolidate, reflect, promote"),
        ("evolve --dry-run", "what would change; every file left as it is"),
        ("evolve --reflect-only --json", "re-score every belief now, as JSON"),
        ("evolve --promote-only", "Top Beliefs from the beliefs as they stand"),
    ]


def _add_report(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    report = subparsers.add_parser(
        "report", help="write the whole memory as one HTML page, offline (report.html)"
    )
    report.add_argument(
        "--out", metavar="FILE", help="where to write it (default: report.html in the home)"
    )
    report.add_argument("--open", action="store_true", help="then open it in your browser")
    report.add_argument(
        "--project", metavar="NAME|PATH", help="only this project's page, and figures of it"
    )
    _json_flag(report, "the path, its size and what it holds")
    EXAMPLES["report"] = [
        ("report --open", "write report.html in the home, then open it"),
        ("report --project shop --out shop.html", "one project's page and figures"),
        ("report --json", "the path and size, as JSON"),
    ]


READS: dict[str, Callable[[argparse.Namespace], Output]] = {
    "search": reads.cmd_search,
    "list": reads.cmd_list,
    "show": reads.cmd_show,
    "stats": reads.cmd_stats,
    "get": reads.cmd_get,
    "context": reads.cmd_context,
    "config": reads.cmd_config,
}


def dispatch(args: argparse.Namespace) -> Output:
    """Run the verb named in ``args``.

    A read verb runs without the writers (:mod:`artibot_memory.cli.reads`: no pydantic);
    the others import them first.
    """
    read = READS.get(args.verb)
    if read is not None:
        return read(args)
    if args.verb == "home":
        return Output(None, [str(memory_home())])
    if args.verb == "hook":
        return _hook_elsewhere(args)
    if args.verb == "report":
        from artibot_memory.cli import report_html  # noqa: PLC0415 - pydantic: as below

        return report_html.cmd_report(args)
    from artibot_memory.cli import verbs  # noqa: PLC0415 - pydantic and the writers: see above

    table: dict[str, Callable[[argparse.Namespace], Output]] = {
        "save": verbs.cmd_save,
        "forget": verbs.cmd_forget,
        "export": verbs.cmd_export,
        "import": verbs.cmd_import,
        "prune": lambda a: verbs.cmd_prune(a, ask),
        "consolidate": lambda a: verbs.cmd_consolidate(a, ask),
        "ingest": verbs.cmd_ingest,
        "doctor": verbs.cmd_doctor,
        "edit": verbs.cmd_edit,
        "proposals": verbs.cmd_proposals,
        "conflicts": verbs.cmd_conflicts,
        "evolve": verbs.cmd_evolve,
        "profile": verbs.cmd_profile,
        "sync": verbs.cmd_sync,
        "share": lambda a: verbs.cmd_share(a, ask),
    }
    return verbs.after_write(args, table[args.verb](args))


def _hook_elsewhere(args: argparse.Namespace) -> Output:
    # The entry (bin/artibot-memory, the console script, python -m) runs a hook before the
    # command line is parsed; only a direct call of main() gets here.
    msg = f"`hook {args.event}` is run by Claude Code through bin/artibot-memory"
    raise UsageError(msg)


def emit(output: Output, *, as_json: bool) -> None:
    """Print a command's output as versioned JSON or as text for people; warnings to stderr."""
    for warning in output.warnings:
        sys.stderr.write(f"artibot-memory: {warning}\n")
    if as_json:
        sys.stdout.write(render.json_document(output.data))
        return
    lines = output.text(render.Style.for_stream(sys.stdout))
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    words = list(argv) if argv is not None else sys.argv[1:]
    args = build_parser().parse_args(words)
    args.argv = words  # what was typed: a CLI save's source
    try:
        output = dispatch(args)
    except ArtibotMemoryError as exc:
        sys.stderr.write(f"artibot-memory: {exc}\n")
        return 1
    emit(output, as_json=getattr(args, "json", False))
    return output.exit_code
