"""The settings: ``config.toml`` in the memory home, and a project's ``.artibot-memory.toml``.

Every switch and threshold of promotion, conflicts, the retrieval flags and belief
evolution is one row of :data:`SETTINGS`: a dotted name (``table.key``), its default, its
bounds and one line of help. The effective value of a setting is, last one wins:

1. the default below;
2. the memory home's ``config.toml`` (``artibot-memory home`` prints the folder);
3. the project's ``.artibot-memory.toml``, at its root (the git top-level of the working
   directory), for the sessions and verbs of that project only.

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

import importlib
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

FILE_NAME = "config.toml"
PROJECT_FILE_NAME = ".artibot-memory.toml"
DEFAULT = "default"


class Setting:
    """One row of the settings table: its dotted name, default, bounds and help."""

    __slots__ = ("default", "help", "high", "low", "name")

    def __init__(
        self,
        name: str,
        default: bool | float,  # noqa: FBT001 - the table reads as rows
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
        """
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
)
SETTINGS_BY_NAME = {setting.name: setting for setting in SETTINGS}


class Config:
    """The effective settings: each value with where it came from, and what was left out."""

    __slots__ = ("files", "origins", "problems", "values")

    def __init__(self) -> None:
        """Start from the defaults."""
        self.values: dict[str, Any] = {s.name: s.default for s in SETTINGS}
        self.origins: dict[str, str] = dict.fromkeys(self.values, DEFAULT)
        self.files: list[str] = []  # the files read, in order
        self.problems: list[str] = []  # one line each: "path: name must be ..."

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
                self.problems.append(f"{path}: unknown setting {name!r}; `config` lists them")
                continue
            problem = setting.check(value)
            if problem is not None:
                self.problems.append(f"{path}: {name} {problem} (got {value!r}); default kept")
                continue
            whole = isinstance(setting.default, float) and isinstance(value, int)
            self.values[name] = float(value) if whole else value  # type: ignore[arg-type]
            self.origins[name] = path


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
    parser = _toml()
    if parser is None:
        config.problems.append(f"{path}: not read: this Python has neither tomllib nor tomli")
        return
    try:
        with open(path, "rb") as handle:
            document = parser.load(handle)
    except OSError as exc:
        config.problems.append(f"{path}: cannot be read ({exc.strerror or exc}); defaults kept")
        return
    except ValueError as exc:  # tomllib.TOMLDecodeError is a ValueError
        config.problems.append(f"{path}: not valid TOML ({exc}); defaults kept")
        return
    config.apply(path, document)


def _toml() -> Any:
    """Return the TOML parser of this Python: tomllib (3.11+), tomli (3.10), or None."""
    for name in ("tomllib", "tomli"):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    return None
