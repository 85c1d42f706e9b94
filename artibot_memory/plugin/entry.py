"""The entry point of ``bin/artibot-memory``: hooks and the command line (standard library only).

``artibot-memory hook EVENT`` is what Claude Code runs. Whatever happens, it reads its
stdin (at most 1 MiB is kept), exits 0, prints nothing or exactly one JSON object on
stdout, and writes nothing to stderr; its own failures go, redacted, to
``<memory home>/logs/hooks.log`` (:mod:`artibot_memory.capture.hooklog`).

- Every hook runs as ``python3 -S`` (hooks/hooks.json): skipping ``site`` saves its
  start-up (every ``.pth`` file) on each call, and what the standard library can do
  is done first (:func:`artibot_memory.plugin.fast.route`): PostToolUse and
  PostToolUseFailure always, SessionStart from its context cache, prompts that hold
  nothing to save, SessionEnd and PreCompact (journaled, then a detached worker).
- The rest goes to :func:`artibot_memory.lifecycle.handle`, which needs Python 3.10 and
  the runtime dependencies: ``site`` is turned back on first. Without them the hook reruns
  under the plugin venv when it is ready (:mod:`artibot_memory.core.venv`), else it
  journals what the event carried (``"deferred": true``) and, on SessionStart, starts
  the one-time background install or says why it cannot
  (:mod:`artibot_memory.plugin.bootstrap`).
- The first SessionStart after the venv was built says "memory is ready", once.

Any other argv is the command line (:func:`artibot_memory.cli.app.main`), run under the
plugin venv when this interpreter lacks the dependencies. This is the one entry of the
product: ``bin/artibot-memory``, the ``artibot-memory`` console script and
``python -m artibot_memory`` all start here.

This module, :mod:`~artibot_memory.plugin.bootstrap` and :mod:`artibot_memory.core.venv`
run under any Python 3.8+, since the hooks run whatever ``python3`` is on PATH (macOS's is
3.9): no ``X | Y`` at run time, no ``match``, no ``removeprefix``. On an interpreter older
than 3.10 the full path is never tried; the fast path runs from 3.9 (its journal
subscripts ``list`` at run time, which 3.8 cannot), and under 3.8 every event goes to the
plugin venv or, without one, is not captured.

>>> parse_payload(b'not json'), parse_payload(b'{"a": 1}')
({}, {'a': 1})
"""

from __future__ import annotations

import io
import json
import os
import sys

# Paths are str and os.path, and typing is for checkers only: importing pathlib or typing
# costs milliseconds, paid on every tool call.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, TextIO

MAX_STDIN_BYTES = 1024 * 1024
MAX_DISCARD_CHUNKS = 4096  # 256 MiB of 64 KiB chunks: drained so the writer never blocks
# Seconds a relayed hook may take: under Claude Code's timeouts in hooks/hooks.json.
# SessionEnd and PreCompact never get here: the fast path journals them and starts a
# detached worker.
RELAY_TIMEOUTS = {
    "SessionStart": 25.0,
    "UserPromptSubmit": 8.0,
    # Relayed only under Python 3.8 (no fast path there), within their 5 s, 2 s and 5 s.
    "PostToolUse": 4.0,
    "PostToolUseFailure": 4.0,
    "SessionEnd": 1.2,
    "PreCompact": 4.0,
}
DEFAULT_RELAY_TIMEOUT = 8.0
FULL_PATH_PYTHON = (3, 10)  # lifecycle, cli and below: pydantic models, `X | Y` at run time
FAST_PATH_PYTHON = (3, 9)  # plugin.fast and what it imports (capture.journal: list[...])


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hook EVENT`` or the command line; return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["hook"]:
        event, agent = hook_args(args[1:])
        give_data_dir(agent)
        status = run_hook(event, read_stdin(), agent)
        sys.stderr = io.StringIO()  # nothing may reach Claude Code, not even at shutdown
        return status
    return run_cli(args)


def hook_args(args: list[str]) -> tuple[str, str]:
    """Return the event and the agent of ``hook EVENT [--agent NAME]`` (Claude Code's default).

    >>> hook_args(["AfterTool", "--agent", "gemini-cli"]), hook_args(["SessionEnd"])
    (('AfterTool', 'gemini-cli'), ('SessionEnd', 'claude-code'))
    """
    from artibot_memory.plugin.agents import agent_of  # noqa: PLC0415 - inside the hook's net

    event = next((arg for arg in args if not arg.startswith("-")), "")
    agent = None
    for at, arg in enumerate(args):
        if arg == "--agent" and at + 1 < len(args):
            agent = args[at + 1]
        elif arg.startswith("--agent="):
            agent = arg.partition("=")[2]
    if agent is not None and event == agent:
        event = next((a for a in args if not a.startswith("-") and a != agent), "")
    return event, agent_of(agent)


def give_data_dir(agent: str) -> None:
    """Name the plugin's data folder where the agent gives none (Gemini CLI, Cursor).

    Claude Code and Codex's plugins set ``$CLAUDE_PLUGIN_DATA``; Codex's ``$PLUGIN_DATA``
    too. The others share one folder (:func:`artibot_memory.core.paths.runtime_dir`),
    where the venv is built when their ``python3`` cannot run the full path.
    """
    from artibot_memory.core import paths  # noqa: PLC0415 - inside the hook only

    if agent != "claude-code" and not os.environ.get(paths.PLUGIN_DATA_ENV):
        given = os.environ.get("PLUGIN_DATA") or paths.runtime_dir()
        os.environ[paths.PLUGIN_DATA_ENV] = given


def read_stdin(stream: TextIO | None = None) -> bytes:
    """Return the first MiB of stdin and drain the rest ('' for a terminal or no stdin)."""
    stream = sys.stdin if stream is None else stream
    try:
        if stream is None or stream.isatty():
            return b""
        data = stream.buffer.read(MAX_STDIN_BYTES)
        for _chunk in range(MAX_DISCARD_CHUNKS):
            if not stream.buffer.read(64 * 1024):
                break
    except (OSError, ValueError, AttributeError):
        return b""
    return data or b""


def parse_payload(raw: bytes) -> dict[str, Any]:
    """Return the hook payload, or ``{}`` for anything that is not one JSON object."""
    try:
        payload = json.loads(raw)
    except (ValueError, RecursionError):
        return {}
    return payload if isinstance(payload, dict) else {}


def run_hook(event: str, raw: bytes, agent: str = "claude-code") -> int:
    """Handle one hook event of ``agent`` from its raw stdin bytes; always return 0.

    The event comes from the command line, never from the payload. The agent's event and
    payload become ours first (:mod:`artibot_memory.plugin.agents`), and what we return
    goes back in the field that agent reads.
    """
    captured = io.StringIO()
    real_stderr, sys.stderr = sys.stderr, captured
    try:
        from artibot_memory.plugin import agents  # noqa: PLC0415 - inside the safety net

        ours, payload = agents.normalize(agent, event, parse_payload(raw))
        if ours:
            _emit(agents.answer(agent, event, _dispatch(ours, payload)))
    except BaseException as exc:  # noqa: BLE001 - a hook must never break the session
        _log_failure(event, exc)
    finally:
        sys.stderr = real_stderr
    if captured.getvalue():
        _write_log(f"{event}: stderr: {captured.getvalue()}")
    return 0


def _log_failure(event: str, exc: BaseException) -> None:
    from artibot_memory.capture.hooklog import log_failure  # noqa: PLC0415 - failures only

    log_failure(event, exc)


def _write_log(message: str) -> None:
    from artibot_memory.capture.hooklog import write_log  # noqa: PLC0415 - failures only

    write_log(message)


def _dispatch(event: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    output = _answer(event, payload)
    if event == "SessionStart" and _ready_news_waiting():
        from artibot_memory.plugin import bootstrap  # noqa: PLC0415 - once, after a build

        output = _with_message(output, bootstrap.ready_message())
    return output


def _ready_news_waiting() -> bool:
    """Tell, with one stat, whether a venv build left news for this SessionStart."""
    from artibot_memory.core.paths import PLUGIN_DATA_ENV, READY_NEWS_NAME  # noqa: PLC0415

    data = os.environ.get(PLUGIN_DATA_ENV, "")
    return bool(data) and os.path.exists(os.path.join(data, READY_NEWS_NAME))


def _answer(event: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    # Imported here, inside run_hook's safety net: even a broken module exits 0, silently.
    if sys.version_info >= FAST_PATH_PYTHON:
        from artibot_memory.plugin import fast  # noqa: PLC0415

        done, output = fast.route(event, payload)
        if done:
            return output
    if sys.version_info < FULL_PATH_PYTHON:
        return _without_full_path(event, payload, None)
    _enable_site()
    if event == "SessionStart" and _runtime_found():
        return _start_from_index(payload)
    try:
        from artibot_memory.lifecycle import handle  # noqa: PLC0415
    except ImportError as exc:
        return _without_full_path(event, payload, exc)
    result: dict[str, Any] | None = handle(event, payload)
    return result


def _runtime_found() -> bool:
    """Tell whether this interpreter has the runtime dependencies (found, not imported)."""
    from artibot_memory.plugin import bootstrap  # noqa: PLC0415 - SessionStart without cache

    return not bootstrap.missing_modules()


def _start_from_index(payload: dict[str, Any]) -> dict[str, Any] | None:
    """SessionStart without its cache: the context from the index now, the rest detached.

    The context is rendered from the index (standard library only: no pydantic to import,
    no store to load) and cached for the next start; the journal's ingest and the prune a
    SessionStart owes go to a detached worker (``ingest --prune``), as a SessionEnd's do,
    which renders the cache again once its writes (the access counts of what was shown,
    at least) have changed the stores.
    Expired memories are never shown meanwhile: every read leaves them out.
    """
    from artibot_memory.plugin import fast  # noqa: PLC0415
    from artibot_memory.recall.context import start_session  # noqa: PLC0415

    output = start_session(payload)
    fast.defer("SessionStart", payload)  # the worker renders the cache again once it wrote
    fast.start_worker("ingest", "--prune")
    return output


def _with_message(output: dict[str, Any] | None, message: str | None) -> dict[str, Any] | None:
    """Add ``message`` to the output's ``systemMessage`` (after any it has)."""
    if not message:
        return output
    combined = dict(output or {})
    previous = combined.get("systemMessage")
    combined["systemMessage"] = f"{previous}\n{message}" if previous else message
    return combined


def _enable_site() -> None:
    """Add site-packages when started with ``python3 -S`` (as the fast hooks are)."""
    if sys.flags.no_site:
        import site  # noqa: PLC0415

        site.main()


def _without_full_path(
    event: str, payload: dict[str, Any], exc: ImportError | None
) -> dict[str, Any] | None:
    """Rerun under the plugin venv, or keep the event in the journal for later.

    ``exc`` is why the full path failed to import; None when this Python is too old for it.
    """
    from artibot_memory.core import venv  # noqa: PLC0415 - only when the full path is missing
    from artibot_memory.plugin import bootstrap  # noqa: PLC0415

    captures = sys.version_info >= FAST_PATH_PYTHON
    if exc is not None and not bootstrap.is_dependency_failure(exc):
        _log_failure(event, exc)
        _defer(event, payload)
        return None
    python = venv.ready_python()
    if python is not None:
        # the payload as normalized: the venv's hook takes it as Claude Code's, agent kept
        return _relay(python, event, json.dumps(payload).encode())
    if captures:
        _defer(event, payload)
    if event != "SessionStart":
        return None
    return bootstrap.session_start_output(payload, captures=captures)


def _defer(event: str, payload: dict[str, Any]) -> None:
    from artibot_memory.plugin import fast  # noqa: PLC0415

    fast.defer(event, payload)


def _relay(python: str, event: str, raw: bytes) -> dict[str, Any] | None:
    from artibot_memory.plugin import bootstrap  # noqa: PLC0415

    timeout = RELAY_TIMEOUTS.get(event, DEFAULT_RELAY_TIMEOUT)
    done = bootstrap.relay(python, event, raw, timeout)
    if done.stderr or done.returncode:
        _write_log(f"{event}: relay exit {done.returncode}: {done.stderr.decode(errors='replace')}")
    output = parse_payload(done.stdout)
    return output or None


def _emit(output: object) -> None:
    """Print ``output`` as one JSON object (nothing for None); never a partial line."""
    if output is None:
        return
    if not isinstance(output, dict):
        msg = f"hook returned {type(output).__name__}, not a dict"
        raise TypeError(msg)
    line = (json.dumps(output, ensure_ascii=False) + "\n").encode("utf-8", "replace")
    try:
        sys.stdout.buffer.write(line)
        sys.stdout.flush()
    except BrokenPipeError:
        # Claude Code stopped reading; keep the interpreter's final flush from failing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run_cli(argv: list[str]) -> int:
    """Run the command line, under the plugin venv when the dependencies are missing here.

    The read verbs need no dependency and run here; a verb that writes imports the writers
    (pydantic, orjson, filelock) before it does anything, so when they are missing it is
    rerun under the venv from the start, or says what to install.
    """
    if sys.version_info < FULL_PATH_PYTHON:
        return _cli_without_dependencies(argv, None)
    try:
        from artibot_memory.cli.app import main as cli_main  # noqa: PLC0415

        return cli_main(argv)
    except ImportError as exc:
        return _cli_without_dependencies(argv, exc)


def _cli_without_dependencies(argv: list[str], exc: ImportError | None) -> int:
    """Rerun under the plugin venv; else say what works (``exc`` None: Python too old)."""
    from artibot_memory.core import venv  # noqa: PLC0415
    from artibot_memory.plugin import bootstrap  # noqa: PLC0415

    if exc is not None and not bootstrap.is_dependency_failure(exc):
        sys.stderr.write(f"artibot-memory: cannot load the command line: {exc}\n")
        return 1
    python = venv.ready_python()
    if python is not None:
        os.environ[venv.RELAYED_ENV] = "1"
        os.execv(python, [python, venv.ENTRY_SCRIPT, *argv])  # noqa: S606 - our venv, our script
        return 1  # pragma: no cover - execv does not return
    if argv[:1] == ["doctor"] and "--rebuild-venv" in argv:
        return bootstrap.rebuild_from_cli()
    sys.stderr.write(bootstrap.missing_message(exc) + "\n")
    return 1
