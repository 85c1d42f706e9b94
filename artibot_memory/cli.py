"""The ``artibot-memory`` command line: one parser, one error boundary, one renderer.

Exit status: 0 done, 1 an error with one clear line on stderr (no traceback), 2 a usage
error from the parser. Every read verb takes ``--json``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

import orjson

from artibot_memory import __version__, commands
from artibot_memory.errors import ArtibotMemoryError
from artibot_memory.model import MemoryType
from artibot_memory.paths import memory_home

TYPES = [t.value for t in MemoryType]
EPILOG = "Memories live in the memory home ($ARTIBOT_MEMORY_HOME, or your user data folder)."


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of every verb."""
    parser = argparse.ArgumentParser(
        prog="artibot-memory", description=__doc__.splitlines()[0], epilog=EPILOG
    )
    parser.add_argument("--version", action="version", version=f"artibot-memory {__version__}")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    _add_save(verbs)
    _add_search(verbs)
    _add_read_verbs(verbs)
    _add_prune(verbs)
    _add_transfer(verbs)
    _add_doctor(verbs)
    hook = verbs.add_parser(
        "hook", help="run a Claude Code hook (payload on stdin; always exits 0)"
    )
    hook.add_argument("event")
    verbs.add_parser("home", help="print the memory home")
    verbs.add_parser("ingest", help="store what the hooks captured in the journal now")
    return parser


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")


def _add_save(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    save = verbs.add_parser("save", help="remember one thing")
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


def _add_search(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    search = verbs.add_parser("search", help="find relevant memories; prints nothing when none is")
    search.add_argument("query")
    search.add_argument("--type", choices=TYPES)
    search.add_argument("--limit", type=int, default=10)
    search.add_argument("--project", help="only global memories and this project's")
    _json_flag(search)


def _add_read_verbs(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    listing = verbs.add_parser("list", help="list stored memories, newest first")
    listing.add_argument("--type", choices=TYPES)
    listing.add_argument("--project")
    _json_flag(listing)
    show = verbs.add_parser("show", help="show one memory in full")
    show.add_argument("id")
    _json_flag(show)
    forget = verbs.add_parser("forget", help="delete a memory by id, or all with a key")
    forget.add_argument("id", nargs="?")
    forget.add_argument("--key")
    _json_flag(forget)
    stats = verbs.add_parser("stats", help="entries, size and expiry per store")
    _json_flag(stats)
    context = verbs.add_parser("context", help="the text a new session of this project receives")
    context.add_argument("--project")
    context.add_argument("--query")
    context.add_argument("--budget", type=int, default=8_000)
    _json_flag(context)


def _add_prune(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    prune = verbs.add_parser("prune", help="list expired and over-cap memories, then delete them")
    prune.add_argument("--dry-run", action="store_true", help="only list what would go")
    prune.add_argument("--yes", action="store_true", help="delete without asking")
    prune.add_argument("--extend-ttl", nargs=2, action="append", metavar=("ID", "DAYS"))
    _json_flag(prune)


def _add_transfer(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = verbs.add_parser("export", help="every record as JSON Lines")
    export.add_argument("--type", choices=TYPES)
    imp = verbs.add_parser("import", help="add memories from a JSON Lines file (- for stdin)")
    imp.add_argument("file")
    imp.add_argument("--skip-invalid", action="store_true", help="import the valid lines anyway")
    _json_flag(imp)


def _add_doctor(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    doctor = verbs.add_parser("doctor", help="check every file of the memory home")
    doctor.add_argument("--repair", action="store_true", help="mend it (originals kept aside)")
    _json_flag(doctor)


def ask(question: str) -> bool:
    """Ask a yes/no question on the terminal; without one the answer is no."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in {"y", "yes"}


def dispatch(args: argparse.Namespace) -> commands.Output:
    """Run the verb named in ``args``."""
    table: dict[str, Callable[[argparse.Namespace], commands.Output]] = {
        "save": commands.cmd_save,
        "search": commands.cmd_search,
        "list": commands.cmd_list,
        "show": commands.cmd_show,
        "forget": commands.cmd_forget,
        "stats": commands.cmd_stats,
        "context": commands.cmd_context,
        "export": commands.cmd_export,
        "import": commands.cmd_import,
        "prune": lambda a: commands.cmd_prune(a, ask),
        "home": lambda _a: commands.Output(None, [str(memory_home())]),
        "ingest": commands.cmd_ingest,
        "doctor": commands.cmd_doctor,
    }
    return table[args.verb](args)


def emit(output: commands.Output, *, as_json: bool) -> None:
    """Print a command's output as JSON or as lines of text."""
    if as_json:
        sys.stdout.write(orjson.dumps(output.data, option=orjson.OPT_INDENT_2).decode() + "\n")
    elif output.lines:
        sys.stdout.write("\n".join(output.lines) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    args = build_parser().parse_args(argv)
    if args.verb == "hook":
        from artibot_memory.launcher import read_stdin, run_hook  # noqa: PLC0415

        return run_hook(args.event, read_stdin())
    try:
        output = dispatch(args)
    except ArtibotMemoryError as exc:
        sys.stderr.write(f"artibot-memory: {exc}\n")
        return 1
    emit(output, as_json=getattr(args, "json", False))
    return output.exit_code
