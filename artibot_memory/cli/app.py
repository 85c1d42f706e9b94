"""The ``artibot-memory`` command line: one parser, one error boundary, one renderer.

Exit status: 0 done, 1 an error with one clear line on stderr (no traceback), 2 a usage
error from the parser. Every read verb takes ``--json``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

import orjson

from artibot_memory import __version__
from artibot_memory.cli import verbs
from artibot_memory.core.errors import ArtibotMemoryError, UsageError
from artibot_memory.core.paths import memory_home
from artibot_memory.store.model import MemoryType

TYPES = [t.value for t in MemoryType]
EPILOG = "Memories live in the memory home ($ARTIBOT_MEMORY_HOME, or your user data folder)."


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of every verb."""
    parser = argparse.ArgumentParser(
        prog="artibot-memory", description=__doc__.splitlines()[0], epilog=EPILOG
    )
    parser.add_argument("--version", action="version", version=f"artibot-memory {__version__}")
    subparsers = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    _add_save(subparsers)
    _add_search(subparsers)
    _add_read_verbs(subparsers)
    _add_prune(subparsers)
    _add_transfer(subparsers)
    _add_doctor(subparsers)
    hook = subparsers.add_parser(
        "hook", help="run a Claude Code hook (payload on stdin; always exits 0)"
    )
    hook.add_argument("event")
    subparsers.add_parser("home", help="print the memory home")
    subparsers.add_parser("ingest", help="store what the hooks captured in the journal now")
    return parser


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")


def _add_save(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    save = subparsers.add_parser("save", help="remember one thing")
    save.add_argument("type", choices=TYPES)
    save.add_argument("text")
    save.add_argument("--key", help="a stable name; saving the same key again replaces the value")
    save.add_argument("--tag", action="append", help="a tag (repeatable)")
    save.add_argument(
        "--project", help="project name or path (context/command/error: default this one)"
    )
    save.add_argument("--scope", choices=["global", "project", "person", "temporary"])
    save.add_argument("--fix", help="with an error: what resolved it (offered when it recurs)")
    _json_flag(save)


def _add_search(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    search = subparsers.add_parser(
        "search", help="find relevant memories; prints nothing when none is"
    )
    search.add_argument("query")
    search.add_argument("--type", choices=TYPES)
    search.add_argument("--limit", type=int, default=10)
    search.add_argument("--project", help="only global memories and this project's")
    _json_flag(search)


def _add_read_verbs(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    listing = subparsers.add_parser("list", help="list stored memories, newest first")
    listing.add_argument("--type", choices=TYPES)
    listing.add_argument("--project")
    _json_flag(listing)
    show = subparsers.add_parser("show", help="show one memory in full")
    show.add_argument("id")
    _json_flag(show)
    forget = subparsers.add_parser("forget", help="delete a memory by id, or all with a key")
    forget.add_argument("id", nargs="?")
    forget.add_argument("--key")
    _json_flag(forget)
    stats = subparsers.add_parser("stats", help="entries, size and expiry per store")
    _json_flag(stats)
    context = subparsers.add_parser(
        "context", help="the text a new session of this project receives"
    )
    context.add_argument("--project")
    context.add_argument("--query")
    context.add_argument("--budget", type=int, default=8_000)
    _json_flag(context)


def _add_prune(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    prune = subparsers.add_parser(
        "prune", help="list expired and over-cap memories, then delete them"
    )
    prune.add_argument("--dry-run", action="store_true", help="only list what would go")
    prune.add_argument("--yes", action="store_true", help="delete without asking")
    prune.add_argument("--extend-ttl", nargs=2, action="append", metavar=("ID", "DAYS"))
    _json_flag(prune)


def _add_transfer(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = subparsers.add_parser("export", help="every record as JSON Lines")
    export.add_argument("--type", choices=TYPES)
    imp = subparsers.add_parser("import", help="add memories from a JSON Lines file (- for stdin)")
    imp.add_argument("file")
    imp.add_argument("--skip-invalid", action="store_true", help="import the valid lines anyway")
    _json_flag(imp)


def _add_doctor(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    doctor = subparsers.add_parser("doctor", help="check every file of the memory home")
    doctor.add_argument("--repair", action="store_true", help="mend it (originals kept aside)")
    _json_flag(doctor)


def ask(question: str) -> bool:
    """Ask a yes/no question on the terminal; without one the answer is no."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in {"y", "yes"}


def dispatch(args: argparse.Namespace) -> verbs.Output:
    """Run the verb named in ``args``."""
    table: dict[str, Callable[[argparse.Namespace], verbs.Output]] = {
        "save": verbs.cmd_save,
        "search": verbs.cmd_search,
        "list": verbs.cmd_list,
        "show": verbs.cmd_show,
        "forget": verbs.cmd_forget,
        "stats": verbs.cmd_stats,
        "context": verbs.cmd_context,
        "export": verbs.cmd_export,
        "import": verbs.cmd_import,
        "prune": lambda a: verbs.cmd_prune(a, ask),
        "home": lambda _a: verbs.Output(None, [str(memory_home())]),
        "ingest": verbs.cmd_ingest,
        "doctor": verbs.cmd_doctor,
        "hook": _hook_elsewhere,
    }
    return table[args.verb](args)


def _hook_elsewhere(args: argparse.Namespace) -> verbs.Output:
    # The entry (bin/artibot-memory, the console script, python -m) runs a hook before the
    # command line is parsed; only a direct call of main() gets here.
    msg = f"`hook {args.event}` is run by Claude Code through bin/artibot-memory"
    raise UsageError(msg)


def emit(output: verbs.Output, *, as_json: bool) -> None:
    """Print a command's output as JSON or as lines of text."""
    if as_json:
        sys.stdout.write(orjson.dumps(output.data, option=orjson.OPT_INDENT_2).decode() + "\n")
    elif output.lines:
        sys.stdout.write("\n".join(output.lines) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    args = build_parser().parse_args(argv)
    try:
        output = dispatch(args)
    except ArtibotMemoryError as exc:
        sys.stderr.write(f"artibot-memory: {exc}\n")
        return 1
    emit(output, as_json=getattr(args, "json", False))
    return output.exit_code
