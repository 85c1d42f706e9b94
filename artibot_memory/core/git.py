"""The ``git`` binary: the one place that runs it (standard library only).

Two uses, two environments. :func:`read` runs git in the user's own repository (memory that
follows the code, :mod:`artibot_memory.api.anchors`): their config and environment apply,
as when they run git, and it only reads. :func:`run` drives the repository of our own
inside the memory home (sync), with a fixed, minimal environment:

Sync (:mod:`artibot_memory.api.sync`) drives git the way pass and chezmoi do: the binary
does transport and authentication (SSH keys, credential helpers: the user's own), we never
store a credential and never reimplement either. What we fix for every run:

- the environment: ``PATH``, ``HOME`` and what SSH and credential helpers need to find the
  user's keys (``SSH_AUTH_SOCK``, ``GIT_SSH_COMMAND``, ``GIT_SSH``, ``SSH_ASKPASS`` are
  passed on when set), ``LC_ALL=C`` (messages we can read), ``GIT_TERMINAL_PROMPT=0`` (a
  missing credential fails instead of waiting for a person), no editor, no pager;
- ``-c`` overrides of whatever a user's ``~/.gitconfig`` could do to our repository:
  hooks off (``core.hooksPath=/dev/null``), no signing, no line-ending conversion, no
  automatic gc (we prune ourselves), no fsmonitor;
- a umask of 077: every file git writes in the home is the owner's only;
- a timeout: a remote that never answers fails the sync, it does not hang it.

>>> "GIT_TERMINAL_PROMPT" in environment()
True
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from artibot_memory.core.errors import SyncError

TIMEOUT_SECONDS = 120.0
PASSED_ON = (
    "PATH",
    "HOME",
    "USERPROFILE",
    "SYSTEMROOT",
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "SSH_ASKPASS",
    "DISPLAY",
    "XDG_CONFIG_HOME",
    "TMPDIR",
)
OVERRIDES = (
    "core.hooksPath=/dev/null",
    "commit.gpgSign=false",
    "tag.gpgSign=false",
    "core.autocrlf=false",
    "core.safecrlf=false",
    "core.fsmonitor=false",
    "gc.auto=0",
    "maintenance.auto=false",
    "core.logAllRefUpdates=false",
    "fetch.fsckObjects=true",
    "push.gpgSign=false",
    "advice.pushUpdateRejected=false",
)


def environment() -> dict[str, str]:
    """Return the environment every git run gets: a few of ours, nothing else of the user's.

    >>> environment()["GIT_TERMINAL_PROMPT"], environment()["GIT_EDITOR"]
    ('0', 'true')
    """
    env = {name: os.environ[name] for name in PASSED_ON if os.environ.get(name)}
    env.update(
        {
            "LC_ALL": "C",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_EDITOR": "true",
            "GIT_SEQUENCE_EDITOR": "true",
            "GIT_PAGER": "cat",
            "GIT_ASKPASS": "",
        }
    )
    return env


def binary() -> str:
    """Return the path of ``git``, or raise :class:`SyncError` when there is none."""
    found = shutil.which("git", path=os.environ.get("PATH"))
    if found is None:
        msg = "git is not installed (or not on PATH); sync drives the git binary"
        raise SyncError(msg)
    return found


def run(
    git_dir: str | os.PathLike[str] | None,
    *args: str,
    stdin: bytes | None = None,
    check: bool = True,
    timeout: float = TIMEOUT_SECONDS,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git [--git-dir DIR] -c … ARGS`` and return the completed process.

    With ``check``, a non-zero exit raises :class:`SyncError` with git's last line.
    """
    argv = [binary()]
    for override in OVERRIDES:
        argv += ["-c", override]
    if git_dir is not None:
        argv.append(f"--git-dir={os.fspath(git_dir)}")
    argv += args
    try:
        done = subprocess.run(  # noqa: S603 - git, with our own arguments, no shell
            argv,
            input=stdin if stdin is not None else b"",
            capture_output=True,
            env=environment(),
            timeout=timeout,
            check=False,
            preexec_fn=_private_umask if sys.platform != "win32" else None,
        )
    except subprocess.TimeoutExpired as exc:
        msg = f"git {args[0]} gave no answer in {timeout:g} s"
        raise SyncError(msg) from exc
    except OSError as exc:
        msg = f"git could not be run ({exc.strerror})"
        raise SyncError(msg) from exc
    if check and done.returncode != 0:
        raise SyncError(f"git {args[0]} failed: {last_line(done)}")
    return done


READ_TIMEOUT_SECONDS = 60.0


def read(root: str, *args: str, stdin: bytes | None = None) -> bytes | None:
    """Run ``git ARGS`` in the user's repository ``root``; its stdout, or None on any failure.

    Read-only: ``GIT_OPTIONAL_LOCKS=0`` keeps a ``status`` from taking the index lock the
    user's own git may want; no prompt ever waits for a person; stderr is dropped (a
    missing git, a failure or a timeout all mean "unknown", never an error of ours).
    """
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(  # noqa: S603 - git with our own arguments, no shell
            ["git", *args],  # noqa: S607 - git from PATH, as the developer runs it
            cwd=root,
            input=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            timeout=READ_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def last_line(done: subprocess.CompletedProcess[bytes]) -> str:
    r"""Return the line that says what went wrong (git's first ``fatal:``, else its last line).

    >>> last_line(subprocess.CompletedProcess([], 1, b"", b"fatal: no\nfatal: x\nPlease\n"))
    'no'
    """
    for stream in (done.stderr, done.stdout):
        lines = [line.strip() for line in stream.decode("utf-8", "replace").splitlines()]
        lines = [line for line in lines if line]
        for line in lines:
            for prefix in ("fatal: ", "error: "):
                if line.startswith(prefix):
                    return line.removeprefix(prefix)
        if lines:
            return lines[-1]
    return f"exit status {done.returncode}"


def _private_umask() -> None:
    os.umask(0o077)
