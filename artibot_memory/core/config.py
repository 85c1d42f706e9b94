"""The settings: ``config.toml`` in the memory home, and a project's ``.artibot-memory.toml``.

Every switch and threshold of promotion, conflicts, the retrieval flags and belief
evolution is one row of :data:`SETTINGS`: a dotted name (``table.key``), its default, its
bounds and one line of help. The effective value of a setting is, last one wins:

1. the default below;
2. the memory home's ``config.toml`` (``artibot-memory home`` prints the folder);
3. the project's ``.artibot-memory.toml``, at its root (the git top-level of the working
   directory), for the sessions and verbs of that project only.

The two capture settings are the exception, as a privacy switch must be: an opt-out never
comes back on. ``capture`` is false as soon as one file says false (a project's ``true``
cannot undo the home's ``false``), ``capture.ignore_paths`` adds up the lists of both files,
and a capture setting that cannot be read (a file that mentions ``capture`` but is not valid
TOML, or cannot be opened; a wrong type; an unknown ``capture.*`` name) turns ``capture`` off
with its problem, until it is fixed (:mod:`artibot_memory.core.private` decides a session's
capture from these, and says why).

Both files are TOML, with one table per group::

    [promotion]
    auto_promote = true

    [evolve]
    top_beliefs_n = 5

``artibot-memory config`` prints every effective value and where it came from. A file
that cannot be read, an unknown name or a value of the wrong type or out of its bounds is
left out with a one-line problem (``config`` lists them, the hooks log them): a typo in a
config file never costs a session its memory, it costs that one setting its change.

Standard library only: ``tomllib`` (Python 3.11+), else the ``tomli`` package it came
from (a dependency under Python 3.10); with neither, the files are not read, and said so.

>>> settings = load(home="/nonexistent", project=None)
>>> settings["promotion.auto_promote"], settings.origin("promotion.auto_promote")
(False, 'default')
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

FILE_NAME = "config.toml"
PROJECT_FILE_NAME = ".artibot-memory.toml"
DEFAULT = "default"
CAPTURE = "capture"
IGNORE_PATHS = "capture.ignore_paths"
PATHS_PROBLEM = "must be a list of folder patterns (strings)"


class Setting:
    """One row of the settings table: its dotted name, default, bounds and help."""

    __slots__ = ("default", "help", "high", "low", "name")

    def __init__(
        self,
        name: str,
        default: bool | float | tuple[str, ...],  # noqa: FBT001 - the table reads as rows
        help_text: str,
        low: float | None = None,
        high: float | None = None,
    ) -> None:
        """Describe one setting; ``low`` and ``high`` bound a number (both included)."""
        self.name = name
        self.default = default
        self.help = help_text
        self.low = low
        self.high = high

    def __repr__(self) -> str:
        """Show the setting as a person reads the table."""
        return f"Setting({self.name}={self.default!r})"

    def check(self, value: object) -> str | None:
        """Return what is wrong with ``value`` for this setting, or None when it fits.

        >>> SETTINGS_BY_NAME["conflicts.behaviour_sessions"].check(0)
        'must be at least 1'
        >>> SETTINGS_BY_NAME["promotion.auto_promote"].check("yes")
        'must be true or false'
        >>> SETTINGS_BY_NAME["capture.ignore_paths"].check(["~/work/client/**", 3])
        'must be a list of folder patterns (strings)'
        """
        if isinstance(self.default, tuple):
            return None if paths_of(value) is not None else PATHS_PROBLEM
        return self._check_scalar(value)

    def _check_scalar(self, value: object) -> str | None:
        if isinstance(self.default, bool):
            return None if isinstance(value, bool) else "must be true or false"
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "must be a number"
        if isinstance(self.default, int) and not isinstance(value, int):
            return "must be a whole number"
        if self.low is not None and value < self.low:
            return f"must be at least {self.low:g}"
        if self.high is not None and value > self.high:
            return f"must be at most {self.high:g}"
        return None


SETTINGS: tuple[Setting, ...] = (
    # Capture: where sessions are recorded at all (core/private.py; an opt-out never undone).
    Setting(
        CAPTURE,
        default=True,
        help_text="record sessions; false in a project's .artibot-memory.toml keeps its sessions "
        "out of memory (in config.toml: everywhere)",
    ),
    Setting(
        IGNORE_PATHS,
        (),
        "folders whose sessions are never recorded: globs, ~ expanded, each covering the folders "
        "under it",
    ),
    # Promotion of candidates (seed 001): `artibot-memory proposals`.
    Setting(
        "promotion.auto_promote",
        default=False,
        help_text="promote a candidate that qualifies at once (noted in evolution.log) instead of "
        "proposing it",
    ),
    Setting(
        "promotion.repeat_min",
        3,
        "days or sessions a candidate must recur in for the 'repeated' signal",
        1,
    ),
    Setting(
        "promotion.core_projects",
        3,
        "how many of the most active projects count as core projects",
        1,
    ),
    Setting(
        "promotion.core_window_days",
        30,
        "the days over which a project's activity is counted for 'core project'",
        1,
    ),
    Setting(
        "promotion.high_confidence",
        0.8,
        "confidence from which a candidate has the 'high confidence' signal",
        0.0,
        1.0,
    ),
    Setting(
        "promotion.reject_days",
        30,
        "days a rejected candidate is not proposed again",
        0,
    ),
    # Conflicts (seed 001): `artibot-memory conflicts`.
    Setting(
        "conflicts.behaviour_sessions",
        3,
        "sessions whose behaviour contradicts a stated preference before it is a conflict",
        1,
    ),
    Setting(
        "conflicts.established_sessions",
        3,
        "sessions of evidence that make a side of a conflict established (its severity)",
        1,
    ),
    Setting(
        "conflicts.auto_resolve_low",
        default=True,
        help_text="resolve a low-severity conflict by itself, newest side kept, with a note",
    ),
    # What search and the context say about a memory.
    Setting(
        "recall.stale_days",
        90,
        "days without evidence after which a memory is flagged stale",
        1,
    ),
    Setting(
        "recall.unverified_below",
        0.5,
        "confidence under which a memory is flagged unverified",
        0.0,
        1.0,
    ),
    # What a session start receives: `artibot-memory context` prints it.
    Setting(
        "context.budget",
        3_600,
        "characters a session start may inject (about 4 a token; Claude Code keeps 10,000)",
        400,
        10_000,
    ),
    # Belief evolution (seed 002): `artibot-memory evolve`.
    Setting(
        "evolve.auto_promote",
        default=True,
        help_text="let evolve write Top Beliefs in MEMORY.md (false: compute and report only)",
    ),
    Setting(
        "evolve.promotion_confidence",
        0.85,
        "confidence a belief needs for Top Beliefs",
        0.0,
        1.0,
    ),
    Setting("evolve.promotion_sources", 5, "distinct sessions or days of evidence it needs", 1),
    Setting(
        "evolve.stale_days",
        90,
        "days without evidence after which a belief is stale (reflect's recency reaches 0)",
        31,
    ),
    Setting(
        "evolve.consolidate_touches",
        5,
        "mentions since an entity's last consolidation that make it due",
        1,
    ),
    Setting("evolve.top_beliefs_n", 10, "how many beliefs Top Beliefs keeps", 1),
    Setting(
        "evolve.bootstrap",
        default=True,
        help_text="while the memory holds few beliefs, promote with lower thresholds",
    ),
    Setting(
        "evolve.bootstrap_below",
        20,
        "the number of beliefs under which bootstrap thresholds apply",
        1,
    ),
    Setting("evolve.every_days", 7, "days between the evolves the worker runs by itself", 1),
    # Sync through git (docs/SYNC.md): `artibot-memory sync --remote URL` once.
    Setting(
        "sync.auto",
        default=False,
        help_text="sync with the remote in the session-end worker (never in a hook's own time)",
    ),
)
SETTINGS_BY_NAME = {setting.name: setting for setting in SETTINGS}


class Config:
    """The effective settings: each value with where it came from, and what was left out."""

    __slots__ = ("capture_faults", "files", "origins", "problems", "values")

    def __init__(self) -> None:
        """Start from the defaults."""
        self.values: dict[str, Any] = {s.name: s.default for s in SETTINGS}
        self.origins: dict[str, str] = dict.fromkeys(self.values, DEFAULT)
        self.files: list[str] = []  # the files read, in order
        self.problems: list[str] = []  # one line each: "path: name must be ..."
        self.capture_faults: list[str] = []  # the problems that turned capture off

    def __getitem__(self, name: str) -> Any:
        """Return the effective value of a setting (``KeyError`` for a name not in the table)."""
        return self.values[name]

    def __iter__(self) -> Iterator[str]:
        """Iterate over the settings' names, in the table's order."""
        return iter(self.values)

    def origin(self, name: str) -> str:
        """Return where a setting's value came from: ``default`` or a file's path."""
        return self.origins[name]

    def apply(self, path: str, document: dict[str, Any]) -> None:
        """Take the settings a parsed file gives; note each one that does not fit."""
        self.files.append(path)
        for name, value in _flatten(document):
            setting = SETTINGS_BY_NAME.get(name)
            if setting is None:
                self._refuse(path, name, f"{path}: unknown setting {name!r}; `config` lists them")
                continue
            problem = setting.check(value)
            if problem is not None:
                self._refuse(path, name, f"{path}: {name} {problem} (got {value!r}); default kept")
                continue
            if name in (CAPTURE, IGNORE_PATHS):
                self._take_capture(path, name, value)
                continue
            whole = isinstance(setting.default, float) and isinstance(value, int)
            self.values[name] = float(value) if whole else value  # type: ignore[arg-type]
            self.origins[name] = path

    def _refuse(self, path: str, name: str, problem: str) -> None:
        """Note a setting left out; one of capture's turns capture off (fail closed).

        ``ignore_paths`` outside its table (a forgotten ``[capture]``) counts as capture's.
        """
        self.problems.append(problem)
        table, _, key = name.rpartition(".")
        if (table or key).split(".", maxsplit=1)[0].lower() == CAPTURE or key == "ignore_paths":
            self.turn_off_capture(path, problem)

    def _take_capture(self, path: str, name: str, value: object) -> None:
        """Take a capture setting the way an opt-out adds up: off wins, patterns join."""
        if name == CAPTURE:
            if value is False or self.values[CAPTURE] is True:
                self.values[CAPTURE] = value
                self.origins[CAPTURE] = path
            return
        joined = dict.fromkeys([*self.values[IGNORE_PATHS], *(paths_of(value) or ())])
        self.values[IGNORE_PATHS] = tuple(joined)
        self.origins[IGNORE_PATHS] = path

    def turn_off_capture(self, path: str, problem: str) -> None:
        """Turn capture off because of ``problem`` in the file at ``path``, until it is fixed."""
        self.capture_faults.append(problem)
        self.values[CAPTURE] = False
        self.origins[CAPTURE] = path


def paths_of(value: object) -> tuple[str, ...] | None:
    """Return ``ignore_paths`` as a tuple of patterns (one string is a list of one), else None.

    >>> paths_of(["~/a/**", "b"]), paths_of("~/a"), paths_of([1])
    (('~/a/**', 'b'), ('~/a',), None)
    """
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return tuple(value)
    return None


def _flatten(document: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, object]]:
    for key, value in document.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flatten(value, f"{name}.")
        else:
            yield name, value


def paths(home: str | os.PathLike[str], project: str | None) -> list[str]:
    """Return the files that may hold settings, in the order they apply.

    >>> paths("/h", "/src/shop")
    ['/h/config.toml', '/src/shop/.artibot-memory.toml']
    """
    found = [os.path.join(os.fspath(home), FILE_NAME)]
    if project and os.path.isabs(project):
        found.append(os.path.join(project, PROJECT_FILE_NAME))
    return found


_CACHE: dict[tuple[object, ...], Config] = {}


def load(home: str | os.PathLike[str] | None = None, project: str | None = None) -> Config:
    """Return the effective settings for ``project`` (None: the home's file only).

    Read again whenever one of the files changed (size, mtime); a file that is absent is
    no problem, one that cannot be read or parsed is one.
    """
    if home is None:
        from artibot_memory.core.paths import home_dir  # noqa: PLC0415 - platformdirs, lazily

        home = home_dir(create=False)
    files = paths(home, project)
    key = tuple((path, _stat(path)) for path in files)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    config = Config()
    for path, stat in key:
        if stat is not None:
            _read(config, path)
    _CACHE.clear()  # one entry: the settings of the last project asked for
    _CACHE[key] = config
    return config


def _stat(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns)


def _read(config: Config, path: str) -> None:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        problem = f"{path}: cannot be read ({exc.strerror or exc}); defaults kept"
        config.problems.append(problem)
        config.turn_off_capture(path, problem)  # it may say capture = false: it cannot be told
        return
    read_bytes(config, path, data)


def read_bytes(config: Config, path: str, data: bytes) -> None:
    """Apply the settings of the file at ``path``, whose content is ``data``.

    A file that cannot be parsed is left out whole, with a problem; when it mentions
    ``capture``, capture is turned off too (it may have been an opt-out).

    >>> settings = Config()
    >>> read_bytes(settings, "/h/config.toml", b"capture = [")
    >>> settings["capture"], len(settings.capture_faults)
    (False, 1)
    """
    parser = toml_parser()
    if parser is None:
        problem = f"{path}: not read: this Python has neither tomllib nor tomli"
        if mentions_capture(data):  # the hooks read the documented forms without a parser
            problem += "; write capture settings as docs/PRIVACY.md shows them"
    else:
        try:
            config.apply(path, parser.loads(data.decode("utf-8")))
        except ValueError as exc:  # tomllib.TOMLDecodeError, UnicodeDecodeError: ValueErrors
            problem = f"{path}: not valid TOML ({exc}); defaults kept"
        else:
            return
    config.problems.append(problem)
    if mentions_capture(data):
        config.turn_off_capture(path, problem)


def mentions_capture(data: bytes) -> bool:
    """Tell whether a settings file's bytes may say something about capture.

    >>> mentions_capture(b"[Capture]"), mentions_capture(b"ignore_paths = []")
    (True, True)
    """
    lowered = data.lower()
    return CAPTURE.encode() in lowered or b"ignore_paths" in lowered


def toml_parser() -> Any:
    """Return the TOML parser of this Python: tomllib (3.11+), tomli (3.10), or None."""
    import importlib  # noqa: PLC0415 - the hooks import this module, and rarely parse

    for name in ("tomllib", "tomli"):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    return None
