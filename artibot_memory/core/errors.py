"""Every exception artibot-memory raises, under one root.

::

    ArtibotMemoryError                  the root: the CLI prints its message, exit 1
    ├── UsageError                      bad input from the user (unknown type, empty text, ...)
    │   └── UnknownMemoryError          no memory has that id or key
    ├── StoreError                      a store file cannot be used as it is
    │   ├── CorruptStoreError           not JSON, or not the shape we write
    │   ├── NewerSchemaError            written by a newer artibot-memory
    │   └── UnsafeStoreError            a symlink leading out of the memory home
    ├── StoreBusyError                  the lock could not be taken in time
    ├── ImportFileError                 a malformed line in an import file
    └── SyncError                       a sync could not be made (git, the remote, a merge)

The library never prints or exits; the CLI is the one boundary that turns these into
one line on stderr. Each subclass builds its message from structured fields.
"""

from __future__ import annotations

TYPE_CHECKING = False  # pathlib costs milliseconds, and the hook fast path imports this tree
if TYPE_CHECKING:
    from pathlib import Path


class ArtibotMemoryError(Exception):
    """Root of every error this package raises on purpose."""


class UsageError(ArtibotMemoryError):
    """The caller asked for something that cannot be done as asked.

    >>> str(UsageError("text is empty"))
    'text is empty'
    """


class UnknownMemoryError(UsageError):
    """No memory matches the id or key given."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(f"no memory with {what}; `artibot-memory list` shows the ids")


class StoreError(ArtibotMemoryError):
    """A store file exists but cannot be used; it is never overwritten."""

    advice = "run `artibot-memory doctor --repair` to set it aside and restore the last backup"

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}; {self.advice}")


class CorruptStoreError(StoreError):
    """The file is not valid JSON, or not the shape of a store."""


class NewerSchemaError(StoreError):
    """The file was written by a newer version of artibot-memory."""

    advice = "upgrade artibot-memory (pip install -U artibot-memory); the file is left as it is"


class UnsafeStoreError(StoreError):
    """The store path is a symlink that leads outside the memory home."""

    advice = "remove the link; artibot-memory only writes inside its memory home"


class StoreBusyError(ArtibotMemoryError):
    """Another process held the store's lock for longer than the timeout."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        super().__init__(f"{path}: still locked by another process after {timeout:g} s; try again")


class ImportFileError(ArtibotMemoryError):
    """A line of an import file is not a valid memory record."""

    def __init__(self, source: str, line_number: int, problem: str) -> None:
        self.source = source
        self.line_number = line_number
        self.problem = problem
        super().__init__(
            f"{source}:{line_number}: {problem}; nothing was imported "
            "(fix the line or pass --skip-invalid)"
        )


class SyncError(ArtibotMemoryError):
    """A sync could not be made; the local home is left as it was.

    >>> str(SyncError("cannot reach /nowhere: not a git repository"))
    'cannot reach /nowhere: not a git repository'
    """
