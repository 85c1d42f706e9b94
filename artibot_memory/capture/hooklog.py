"""The hooks' own failure log: ``<memory home>/logs/hooks.log`` (standard library only).

A hook never shows its failures to Claude Code (it exits 0 and prints nothing or one JSON
object), and the detached SessionEnd worker has no stderr: what went wrong is appended
here, redacted, one dated entry at a time, and rotated to ``hooks.log.1`` at 256 KiB.

A session where capture is off (:mod:`artibot_memory.core.private`) leaves one line here at
its end, and nothing anywhere else: :func:`note_unrecorded` writes it (the reason in a word,
no path, no session id) and :func:`unrecorded_count` counts them, for ``doctor``.

>>> import os, tempfile
>>> home = tempfile.mkdtemp()
>>> write_log("SessionStart: something broke", home)
>>> os.listdir(os.path.join(home, "logs"))
['hooks.log']
"""

from __future__ import annotations

import os

LOG_NAME = "hooks.log"
LOG_MAX_BYTES = 256 * 1024
LOG_ENTRY_CHARS = 8_000
UNRECORDED = "capture is off here"


def note_unrecorded(kind: str, home: str | None = None) -> None:
    """Count a session that ended unrecorded because capture is off (``kind``: why, in a word).

    >>> import os, tempfile
    >>> home = tempfile.mkdtemp()
    >>> note_unrecorded("ignore_paths", home)
    >>> unrecorded_count(home)
    1
    """
    write_log(f"SessionEnd: {UNRECORDED} ({kind}): the session was not recorded", home)


def unrecorded_count(home: str) -> int:
    """Count the sessions :func:`note_unrecorded` noted in ``hooks.log`` and ``hooks.log.1``."""
    count = 0
    for name in (LOG_NAME, f"{LOG_NAME}.1"):
        try:
            with open(os.path.join(home, "logs", name), "rb") as log:
                count += sum(1 for line in log if UNRECORDED.encode() in line)
        except OSError:
            continue
    return count


def log_failure(event: str, exc: BaseException, home: str | None = None) -> None:
    """Log an exception of a hook: type, message and the last frames, redacted."""
    import traceback  # noqa: PLC0415 - only on failure

    frames = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-6))
    write_log(f"{event}: {type(exc).__name__}: {exc}\n{frames}", home)


def write_log(message: str, home: str | None = None) -> None:
    """Append a redacted, dated entry to ``logs/hooks.log``; never raises.

    Nothing is written through a symlink: a ``logs`` folder or ``hooks.log`` that is a
    link (perhaps out of the memory home) means no log.
    """
    try:
        from artibot_memory.core import clock, disk  # noqa: PLC0415
        from artibot_memory.text.trim import cut_middle  # noqa: PLC0415

        path = _log_path(home)
        if os.path.lexists(path) and os.lstat(path).st_size > LOG_MAX_BYTES:
            os.replace(path, f"{path}.1")
        entry = f"{clock.stamp('seconds')} {cut_middle(message, LOG_ENTRY_CHARS)}"
        disk.append_text(path, entry.rstrip("\n") + "\n")
    except Exception:  # noqa: BLE001, S110 - logging must never become the failure
        pass


def _log_path(home: str | None) -> str:
    """Return ``<home>/logs/hooks.log``, with ``logs`` a real folder of mode 0700."""
    import contextlib  # noqa: PLC0415 - only when something failed
    import stat  # noqa: PLC0415

    from artibot_memory.core.paths import DIR_MODE, home_dir  # noqa: PLC0415

    logs = os.path.join(home if home is not None else home_dir(), "logs")
    with contextlib.suppress(FileExistsError):
        os.mkdir(logs, DIR_MODE)
    mode = os.lstat(logs).st_mode
    if not stat.S_ISDIR(mode):
        msg = f"{logs} is not a folder (a symlink?)"
        raise NotADirectoryError(msg)
    if stat.S_IMODE(mode) != DIR_MODE:
        os.chmod(logs, DIR_MODE)
    return os.path.join(logs, LOG_NAME)
