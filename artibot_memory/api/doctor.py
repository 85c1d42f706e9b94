"""``artibot-memory doctor``: can every file of the memory home be used, and if not, mend it.

:func:`diagnose` changes nothing. It checks each of the four stores (and its backup,
``backups/<file>``), the capture journal, and the file modes, says whether this folder's
sessions are recorded (capture off, and why: :mod:`artibot_memory.core.private`), whether
Codex CLI runs our plugin's hooks (:func:`check_codex`), and returns one :class:`StoreHealth`
per check. Its states:

=============== ============================================================ =========
state           meaning                                                      a problem
=============== ============================================================ =========
ok              parses (the journal: can be appended to)                     no
missing         not created yet: nothing was stored (reads as empty)         no
corrupt         cannot be read, not JSON, not the shape of a store, or a bad yes
                entry
newer-schema    written by a newer artibot-memory                            yes
unsafe-link     a symlink leading out of the memory home (the journal: any   yes
                symlink, which the hooks refuse to append to)
loose-mode      a file or folder that others may read                        yes
untrusted       Codex has our plugin but skips its hooks until the user      yes
                trusts them (the line says how)
unreadable      Codex has our plugin, but its config.toml or our hooks file  yes
                cannot be read, so whether the hooks run cannot be told
=============== ============================================================ =========

:func:`repair` mends what diagnose finds, and says what it did, one line per action:

- a corrupt store, or one that is an unsafe link, is moved aside as
  ``<file>.corrupt-<UTC time>`` (the bytes kept, owner-only) and replaced by its last
  backup when the backup parses, else by an empty store; a restore leaves out forgotten
  entries (``tombstones.json``) and expired ones;
- a store of a newer schema is left as it is: upgrading artibot-memory reads it, and
  replacing it by an older backup would hide what the newer version stored;
- temp files left by a write that was killed are deleted (under the store's lock);
- a journal that is a symlink or cannot be read is moved aside the same way; capture
  starts a new one;
- any other symlink leading out of the home (``logs``, ``backups``, a lock) is moved aside:
  artibot-memory writes inside its home only;
- files get mode 0600 and folders 0700.

>>> import os, tempfile
>>> os.environ["ARTIBOT_MEMORY_HOME"] = tempfile.mkdtemp()
>>> [(check.name, check.state) for check in diagnose()][:2]
[('user-preferences.json', 'missing'), ('project-contexts.json', 'missing')]
>>> repair()
[]
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from artibot_memory.capture import journal
from artibot_memory.capture.hooklog import unrecorded_count
from artibot_memory.core import clock, config, private
from artibot_memory.core.disk import write_document
from artibot_memory.core.errors import (
    ArtibotMemoryError,
    NewerSchemaError,
    StoreError,
    UnsafeStoreError,
)
from artibot_memory.core.paths import is_inside, memory_home
from artibot_memory.recall import vectors
from artibot_memory.store import envelope, index
from artibot_memory.store.files import make_private, move_aside
from artibot_memory.store.jsonfile import Store, encode_entries, parse_store_bytes
from artibot_memory.store.lock import locked
from artibot_memory.store.table import STORES
from artibot_memory.store.tombstones import forgotten_ids

OK = "ok"
MISSING = "missing"
CORRUPT = "corrupt"
NEWER_SCHEMA = "newer-schema"
UNSAFE_LINK = "unsafe-link"
LOOSE_MODE = "loose-mode"
UNTRUSTED = "untrusted"
UNREADABLE = "unreadable"
USABLE = frozenset({OK, MISSING})
REPAIR_HINT = "run artibot-memory doctor --repair"
UPGRADE_HINT = "upgrade artibot-memory (pip install -U artibot-memory) to read the newer files"
MAX_NAMES_SHOWN = 5


@dataclass(frozen=True)
class FileHealth:
    """What one file is: its state, the problem in words, how many entries it holds."""

    state: str
    problem: str | None = None
    entries: int | None = None


@dataclass(frozen=True)
class StoreHealth:
    """One check of :func:`diagnose`: a store with its backup, the journal, or the modes.

    >>> StoreHealth("journal.jsonl", Path("/h/journal.jsonl"), MISSING).ok
    True
    """

    name: str
    path: Path
    state: str
    problem: str | None = None
    entries: int | None = None
    backup: str | None = None
    backup_entries: int | None = None
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Tell whether this can be used as it is (a missing file counts: it reads as empty)."""
        return self.state in USABLE

    def line(self) -> str:
        """One line for people: state, file, what is in it or what is wrong.

        >>> StoreHealth("x.json", Path("/h/x.json"), OK, entries=3, backup=MISSING).line()
        'ok            x.json: 3 entries; no backup yet'
        """
        where = self.name if self.ok else str(self.path)
        if not self.ok and self.path.name != self.name:  # a check of the whole home
            where = f"{self.name} in {self.path}"
        parts = [self.problem or self._contents(), *self._backup_part(), *self.notes]
        # No journal yet is the normal state of a quiet home, not a problem worth a word.
        state = OK if self.state == MISSING and self.name == journal.JOURNAL_NAME else self.state
        return f"{state:<13} {where}: {'; '.join(parts)}"

    def _contents(self) -> str:
        if self.state == MISSING:
            return "not created yet (reads as empty)"
        return counted(self.entries, "entry", "entries") if self.entries is not None else "fine"

    def _backup_part(self) -> list[str]:
        if self.backup is None:
            return []
        if self.backup == MISSING:
            return ["no backup yet"]
        if self.backup == OK:
            return [f"backup ok ({counted(self.backup_entries or 0, 'entry', 'entries')})"]
        return [f"backup {self.backup} (not usable)"]

    def as_dict(self) -> dict[str, Any]:
        """Return the check as JSON-ready data (``ok`` included)."""
        return {**asdict(self), "path": str(self.path), "notes": list(self.notes), "ok": self.ok}


def diagnose(
    home: Path | None = None,
    *,
    plugin_data: list[Path] | None = None,
    cwd: str | None = None,
    codex_home: Path | None = None,
) -> list[StoreHealth]:
    """Check the stores, the journal, the file modes, Codex's trust and the venv; change nothing.

    ``plugin_data``: the plugin data folders whose venv is checked (default: those found,
    :func:`check_venvs`). ``cwd``: the folder whose capture is told (default: this one).
    ``codex_home``: Codex CLI's home (default ``$CODEX_HOME``, else ``~/.codex``).
    """
    home = home if home is not None else memory_home(create=False)
    checks = [check_store(Store(spec, home)) for spec in STORES]
    home_checks = [check_journal(home), check_links(home), check_modes(home), check_search(home)]
    home_checks.append(check_capture(home, cwd if cwd is not None else os.getcwd()))
    home_checks.append(check_sync(home))
    return [*checks, *home_checks, *check_codex(codex_home), *check_venvs(plugin_data)]


CAPTURE_CHECK = "capture"


def check_capture(home: Path, cwd: str) -> StoreHealth:
    """Say whether a session in ``cwd`` is recorded, and when not, why and how many were not.

    Capture off is a choice, not a problem (state ``ok``); a setting that cannot be read
    turned it off until it is fixed, and says so.

    >>> import tempfile
    >>> check_capture(Path(tempfile.mkdtemp()), "/src/shop").problem
    'on in /src/shop'
    """
    off = private.capture_off(cwd, str(home))
    if off is None:
        return StoreHealth(CAPTURE_CHECK, home, OK, f"on in {cwd}")
    ended = unrecorded_count(str(home))
    said = f"{counted(ended, 'session')} ended unrecorded where capture is off (logs/hooks.log)"
    notes = (said,) if ended else ()
    return StoreHealth(CAPTURE_CHECK, home, OK, f"off in {cwd}: {off.why}", notes=notes)


def check_store(store: Store) -> StoreHealth:
    """Check one store file and its backup."""
    health = check_store_file(store.path, store.home)
    backup = check_store_file(store.backup_path, store.home)
    litter = len(store.temp_files())
    note = f"{counted(litter, 'temp file')} left by an interrupted write (--repair deletes)"
    return StoreHealth(
        name=store.path.name,
        path=store.path,
        state=health.state,
        problem=health.problem,
        entries=health.entries,
        backup=backup.state,
        backup_entries=backup.entries,
        notes=(note,) if litter else (),
    )


def check_store_file(path: Path, home: Path) -> FileHealth:
    """Tell whether the store file at ``path`` (a store or a backup) can be loaded."""
    if path.is_symlink() and not is_inside(path, home):
        return FileHealth(UNSAFE_LINK, "is a symlink leading out of the memory home")
    try:
        return FileHealth(OK, entries=len(parse_store_bytes(path, path.read_bytes())))
    except FileNotFoundError:
        return FileHealth(MISSING)
    except OSError as exc:
        return FileHealth(CORRUPT, f"cannot be read ({exc.strerror})")
    except StoreError as exc:
        return FileHealth(_state_of(exc), exc.problem)


def _state_of(error: StoreError) -> str:
    if isinstance(error, NewerSchemaError):
        return NEWER_SCHEMA
    return UNSAFE_LINK if isinstance(error, UnsafeStoreError) else CORRUPT


def check_journal(home: Path) -> StoreHealth:
    """Check the capture journal: appendable, how many records wait for the next ingest."""
    path = home / journal.JOURNAL_NAME
    health = _journal_file(path)
    return StoreHealth(
        path.name,
        path,
        health.state,
        health.problem,
        health.entries,
        notes=_journal_notes(home, path),
    )


def _journal_file(path: Path) -> FileHealth:
    if path.is_symlink():
        return FileHealth(UNSAFE_LINK, "is a symlink; the hooks refuse to append to it")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return FileHealth(MISSING, "empty (nothing waiting to be stored)")
    except OSError as exc:
        return FileHealth(CORRUPT, f"cannot be read ({exc.strerror}); the hooks cannot capture")
    lines = [line for line in data.split(b"\n") if line.strip()]
    records = sum(1 for line in lines if journal.parse_line(line) is not None)
    torn = (
        f" ({counted(len(lines) - records, 'unreadable line')}, skipped at ingest)"
        if records < len(lines)
        else ""
    )
    waiting = f"{counted(records, 'record')} waiting for the next ingest{torn}"
    return FileHealth(OK, waiting, records)


def _journal_notes(home: Path, path: Path) -> tuple[str, ...]:
    notes = []
    if path.is_file() and path.stat().st_size >= journal.MAX_JOURNAL_BYTES:
        notes.append("full: capture is paused until the next ingest (run artibot-memory ingest)")
    takes = [name for name in _names(home) if name.endswith(journal.TAKEN_SUFFIX)]
    if takes:
        batches = counted(len(takes), "batch", "batches")
        notes.append(f"{batches} taken by an unfinished ingest (retried later)")
    return tuple(notes)


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def check_links(home: Path) -> StoreHealth:
    """Check that no symlink under the home (logs, backups, locks ...) leads out of it."""
    if not home.is_dir():
        return StoreHealth("links", home, MISSING, "no memory home yet")
    outward = outward_links(home)
    if not outward:
        return StoreHealth("links", home, OK, "no symlink leads out of the memory home")
    shown = ", ".join(str(p.relative_to(home)) for p in outward[:MAX_NAMES_SHOWN])
    return StoreHealth(
        "links",
        home,
        UNSAFE_LINK,
        f"{counted(len(outward), 'symlink')} leading out of the memory home: {shown}",
    )


def outward_links(home: Path) -> list[Path]:
    """Return the symlinks under ``home`` whose target is outside it.

    The stores and the journal have checks of their own; copies moved aside
    (``*.corrupt-*``) are never opened again, so they are left out.
    """
    own_checks = {home / spec.filename for spec in STORES} | {home / journal.JOURNAL_NAME}
    found = []
    for folder, dirs, files in os.walk(home):
        links = [Path(folder, name) for name in [*dirs, *files] if ".corrupt-" not in name]
        found += [
            p for p in links if p.is_symlink() and p not in own_checks and not is_inside(p, home)
        ]
    return sorted(found)


def check_sync(home: Path) -> StoreHealth:
    """Say where the memory syncs, when it last did and how that ended (docs/SYNC.md).

    A failed sync (offline) is no problem of the home: the next one retries.

    >>> import tempfile
    >>> check_sync(Path(tempfile.mkdtemp())).problem
    'not set up (artibot-memory sync --remote URL)'
    """
    from artibot_memory.api import snapshots  # noqa: PLC0415 - git only when sync is set up

    try:
        remote = snapshots.remote_url(home) if snapshots.repo_path(home).is_dir() else None
    except ArtibotMemoryError as exc:  # git gone since the last sync
        return StoreHealth("sync", snapshots.sync_dir(home), OK, f"cannot be read: {exc}")
    if remote is None:
        return StoreHealth("sync", home, OK, "not set up (artibot-memory sync --remote URL)")
    state = snapshots.read_state(home)
    said = f"remote {remote}"
    if state.get("last_success"):
        said += f"; last synced {state['last_success']}"
    if state.get("result") == "failed":
        said += f"; last attempt {state.get('last_attempt')} failed: {state.get('error')}"
    elif not state.get("last_success"):
        said += "; never synced yet"
    return StoreHealth("sync", snapshots.sync_dir(home), OK, said)


def check_search(home: Path) -> StoreHealth:
    """Say which search is active: keyword-only, or keyword + vectors (the ``vectors`` extra)."""
    why = ""
    if not vectors.installed():
        why = " (pip install 'artibot-memory[vectors]' adds vectors)"
    elif not vectors.enabled():
        why = f" (vectors turned off by {vectors.ENV})"
    return StoreHealth("search", home, OK, f"mode: {vectors.mode()}{why}")


def check_modes(home: Path) -> StoreHealth:
    """Check that the home and everything in it is readable by its owner only."""
    if not home.is_dir():
        return StoreHealth("permissions", home, MISSING, "no memory home yet")
    loose = loose_paths(home)
    if not loose:
        return StoreHealth("permissions", home, OK, "every file and folder is owner-only")
    shown = ", ".join(str(p.relative_to(home)) or "." for p in loose[:MAX_NAMES_SHOWN])
    more = f" and {len(loose) - MAX_NAMES_SHOWN} more" if len(loose) > MAX_NAMES_SHOWN else ""
    how_many = counted(len(loose), "file or folder", "files or folders")
    problem = f"{how_many} others may read: {shown}{more}"
    return StoreHealth("permissions", home, LOOSE_MODE, problem)


def loose_paths(home: Path) -> list[Path]:
    """Return the home, folders and files under it with group or other permission bits."""
    found = [home] if _is_loose(home) else []
    for folder, dirs, files in os.walk(home):
        found += [Path(folder, name) for name in [*dirs, *files] if _is_loose(Path(folder, name))]
    return found


def _is_loose(path: Path) -> bool:
    try:
        mode = path.lstat().st_mode
    except OSError:
        return False
    return not stat.S_ISLNK(mode) and bool(stat.S_IMODE(mode) & 0o077)


CODEX_CHECK = "codex hooks"
CODEX_PLUGIN = "artibot-memory"  # our plugin's name, as .codex-plugin/plugin.json gives it
CODEX_TRUST_HINT = (
    'start `codex` and answer "Hooks need review" with "Trust all and continue" '
    "(or type /hooks, then t)"
)
# Codex's hook events and their labels in the [hooks.state] keys (``hook_event_key_label``).
CODEX_EVENTS = {
    "PreToolUse": "pre_tool_use",
    "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use",
    "PreCompact": "pre_compact",
    "PostCompact": "post_compact",
    "SessionStart": "session_start",
    "SessionEnd": "session_end",
    "UserPromptSubmit": "user_prompt_submit",
    "Stop": "stop",
    "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop",
    "Interrupt": "interrupt",
}
CODEX_NO_MATCHER = frozenset({"UserPromptSubmit", "Stop"})  # Codex drops their matcher
CODEX_TIMEOUT = 600  # seconds, when a handler gives none
CODEX_SESSION_END_TIMEOUT = (1, 3)  # SessionEnd's default and its most


class CodexUnreadableError(Exception):
    """A file Codex reads to decide on our hooks cannot be read; the message says which."""


@dataclass(frozen=True)
class CodexHook:
    """One handler of our hooks file as Codex keys and hashes it, and what config.toml holds.

    ``content_hash`` is the ``trusted_content_hash`` recorded with the trust, if any: the
    plugin's files as they were then, which Codex compares too and doctor cannot.

    >>> CodexHook("p@m:hooks/h.json:stop:0:0", "sha256:a", trusted_hash="sha256:b").status
    'modified'
    """

    key: str
    current_hash: str
    trusted_hash: str | None = None
    content_hash: str | None = None
    enabled: bool = True

    @property
    def status(self) -> str:
        """``trusted``, ``modified`` (trusted, changed since) or ``untrusted``, as Codex says."""
        if self.trusted_hash is None:
            return "untrusted"
        return "trusted" if self.trusted_hash == self.current_hash else "modified"

    @property
    def runs(self) -> bool:
        """Tell whether Codex runs this hook (trusted, and not turned off with ``/hooks``)."""
        return self.enabled and self.status == "trusted"


def codex_home() -> Path:
    """Return Codex CLI's home: ``$CODEX_HOME``, else ``~/.codex``."""
    return Path(os.path.expanduser(os.environ.get("CODEX_HOME") or "~/.codex"))


def check_codex(home: Path | None = None) -> list[StoreHealth]:
    """Say whether Codex CLI runs our plugin's hooks; nothing when Codex does not have it.

    Codex 0.171 runs a plugin's hook only once it is trusted: config.toml holds
    ``[hooks.state."<plugin>@<marketplace>:<hooks file>:<event>:<group>:<handler>"]`` with
    ``trusted_hash``, the hash of the hook as declared (:func:`codex_hook_hash`), and, when
    trusted at the startup prompt, ``trusted_content_hash``, a hash of the plugin's files.
    This reads config.toml and the installed copy of the plugin
    (``plugins/cache/<marketplace>/artibot-memory/<version>/``) the way Codex does and
    recomputes the first hash; the second it cannot, and says so. No subprocess.

    One check per installed copy of our plugin: ``ok`` (its hooks run, or Codex was told not
    to run them: a choice), ``untrusted`` (the line says how to trust them), ``unreadable``.
    Without tomllib or tomli (Python 3.10 without its dependency) nothing is said.
    """
    home = home if home is not None else codex_home()
    roots = codex_plugin_roots(home)
    parser = config.toml_parser()
    if not roots or parser is None:
        return []
    config_path = home / "config.toml"
    try:
        codex = read_codex_config(config_path, parser)
    except CodexUnreadableError as exc:
        problem = f"cannot tell whether Codex runs our hooks: {exc}"
        return [StoreHealth(CODEX_CHECK, config_path, UNREADABLE, problem)]
    plugins = codex.get("plugins")
    checks = []
    for plugin_id in plugins if isinstance(plugins, dict) else {}:
        name, _, marketplace = plugin_id.partition("@")
        if name == CODEX_PLUGIN and marketplace in roots:  # installed, not just left in the cache
            checks.append(_check_codex_plugin(config_path, codex, plugin_id, roots[marketplace]))
    return checks


def _check_codex_plugin(
    config_path: Path, config: Mapping[str, Any], plugin_id: str, root: Path
) -> StoreHealth:
    features = config.get("features")
    for feature in ("hooks", "plugins"):
        if isinstance(features, dict) and features.get(feature) is False:
            said = f"Codex runs no hook of {plugin_id}: [features] {feature} = false in config.toml"
            return StoreHealth(CODEX_CHECK, config_path, OK, said)
    entry = config["plugins"][plugin_id]
    if isinstance(entry, dict) and entry.get("enabled") is False:
        said = f"Codex runs no hook of {plugin_id}: the plugin is disabled in config.toml"
        return StoreHealth(CODEX_CHECK, config_path, OK, said)
    try:
        hooks = codex_hooks(plugin_id, root, config)
    except CodexUnreadableError as exc:
        problem = f"cannot tell whether Codex runs our hooks: {exc}"
        return StoreHealth(CODEX_CHECK, config_path, UNREADABLE, problem)
    return codex_verdict(config_path, plugin_id, hooks)


def codex_verdict(config_path: Path, plugin_id: str, hooks: list[CodexHook]) -> StoreHealth:
    """Turn what config.toml says of each hook into the check's state and line.

    >>> hook = CodexHook("p@m:hooks/h.json:stop:0:0", "sha256:a")
    >>> codex_verdict(Path("/c/config.toml"), "p@m", [hook]).state
    'untrusted'
    """
    off = [hook for hook in hooks if not hook.enabled]
    notes = [f"{counted(len(off), 'hook')} turned off in Codex (/hooks)"] if off else []
    waiting = [hook for hook in hooks if hook.enabled and not hook.runs]
    if not waiting:
        running = counted(len(hooks) - len(off), "hook")
        said = f"Codex runs {running} of {plugin_id}, trusted in {config_path}"
        if any(hook.content_hash for hook in hooks if hook.runs):
            notes.append(
                "trusted with the plugin's files as they were: after an update of the plugin "
                "Codex asks again (doctor cannot compare the files)"
            )
        return StoreHealth(CODEX_CHECK, config_path, OK, said, notes=tuple(notes))
    changed = [hook for hook in waiting if hook.status == "modified"]
    why = [f"{len(waiting) - len(changed)} not trusted yet"] if len(changed) < len(waiting) else []
    why += [f"{len(changed)} changed since trusted"] if changed else []
    problem = (
        f"Codex skips {counted(len(waiting), 'hook')} of {plugin_id} ({', '.join(why)}): "
        f"{CODEX_TRUST_HINT}"
    )
    if any((hook.trusted_hash or "").startswith(hook.current_hash + "/") for hook in changed):
        notes.append(
            "trusted_hash holds the whole currentHash of hooks/list: the part before '/' is "
            "trusted_hash, the part after it trusted_content_hash"
        )
    return StoreHealth(CODEX_CHECK, config_path, UNTRUSTED, problem, notes=tuple(notes))


def codex_plugin_roots(home: Path) -> dict[str, Path]:
    """Return the installed copies of our plugin in Codex's cache, by marketplace.

    Codex keeps one version per plugin (``plugins/cache/<marketplace>/<plugin>/<version>``);
    should there be more, the newest manifest wins.
    """
    found: dict[str, tuple[float, Path]] = {}
    pattern = f"*/{CODEX_PLUGIN}/*/.codex-plugin/plugin.json"
    for manifest in (home / "plugins" / "cache").glob(pattern):
        try:
            written = manifest.stat().st_mtime
        except OSError:
            continue
        marketplace = manifest.parents[3].name
        if marketplace not in found or written > found[marketplace][0]:
            found[marketplace] = (written, manifest.parents[1])
    return {marketplace: root for marketplace, (_, root) in found.items()}


def read_codex_config(path: Path, parser: Any) -> dict[str, Any]:
    """Return Codex's config.toml as data (empty when there is none)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise CodexUnreadableError(f"{path} cannot be read ({exc.strerror})") from exc
    try:
        config: dict[str, Any] = parser.loads(data.decode("utf-8"))
    except ValueError as exc:  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        raise CodexUnreadableError(f"{path} is not valid TOML ({exc})") from exc
    return config


def codex_hooks(plugin_id: str, root: Path, config: Mapping[str, Any]) -> list[CodexHook]:
    """Return each hook the installed plugin at ``root`` declares, with its trust from config."""
    manifest = _read_json(root / ".codex-plugin" / "plugin.json")
    reference = manifest.get("hooks") if isinstance(manifest, dict) else None
    relative = _plugin_relative(reference) if isinstance(reference, str) else None
    if relative is None:
        return []
    document = _read_json(root / relative)
    events = document.get("hooks") if isinstance(document, dict) else None
    hooks_table = config.get("hooks")
    table = hooks_table.get("state") if isinstance(hooks_table, dict) else None
    states = {str(k).strip(): v for k, v in (table if isinstance(table, dict) else {}).items()}
    found = []
    for key, current in codex_hook_hashes(plugin_id, relative, events):
        state = states.get(key)
        state = state if isinstance(state, dict) else {}
        trusted, content = state.get("trusted_hash"), state.get("trusted_content_hash")
        found.append(
            CodexHook(
                key,
                current,
                trusted_hash=trusted if isinstance(trusted, str) else None,
                content_hash=content if isinstance(content, str) else None,
                enabled=state.get("enabled") is not False,
            )
        )
    return found


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except OSError as exc:
        raise CodexUnreadableError(f"{path} cannot be read ({exc.strerror})") from exc
    except ValueError as exc:
        raise CodexUnreadableError(f"{path} is not valid JSON ({exc})") from exc


def _plugin_relative(reference: str) -> str | None:
    """Return a manifest's ``./hooks/x.json`` as the key names it, or None if it leaves the root.

    >>> _plugin_relative("./hooks/codex.json"), _plugin_relative("../x.json")
    ('hooks/codex.json', None)
    """
    path = PurePosixPath(reference)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        return None
    return path.as_posix()


def codex_hook_hashes(plugin_id: str, relative: str, events: Any) -> list[tuple[str, str]]:
    """Return the key and hash of every command hook of a plugin's hooks file (its ``hooks``).

    A key counts the groups of its event and the handlers of its group from 0, those Codex
    skips (prompt hooks, empty commands) included.

    >>> hooks = {"Stop": [{"hooks": [{"type": "prompt"}, {"type": "command", "command": "x"}]}]}
    >>> [key for key, _ in codex_hook_hashes("p@m", "hooks/h.json", hooks)]
    ['p@m:hooks/h.json:stop:0:1']
    """
    found = []
    for event, groups in (events if isinstance(events, dict) else {}).items():
        label = CODEX_EVENTS.get(event)
        for group_index, group in enumerate(groups if label and isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for position, handler in enumerate(handlers if isinstance(handlers, list) else []):
                current = codex_hook_hash(event, group.get("matcher"), handler)
                key = f"{plugin_id}:{relative}:{label}:{group_index}:{position}"
                if current is not None:
                    found.append((key, current))
    return found


def codex_hook_hash(event: str, matcher: Any, handler: Any) -> str | None:
    """Return the hash Codex 0.171 trusts a command hook by, or None for a hook it skips.

    The hook as declared, normalised (the timeout given or its default, ``async``; the
    command before ``${PLUGIN_ROOT}`` is replaced, so it does not depend on where the plugin
    is installed), as JSON with sorted keys and no spaces, then SHA-256: Codex's
    ``command_hook_hash`` and ``version_for_toml``.

    >>> codex_hook_hash("SessionStart", None, {"type": "command", "command": "echo hi"})
    'sha256:a245b9b8493f2be82aea06c373ef42709b417c1b701a54e5ab76ab728777f4ad'
    """
    if event not in CODEX_EVENTS or not isinstance(handler, dict):
        return None
    command, timeout = handler.get("command"), handler.get("timeout")
    if handler.get("type") != "command" or not isinstance(command, str) or not command.strip():
        return None
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int)):
        return None  # Codex refuses the file
    if event == "SessionEnd":
        default, most = CODEX_SESSION_END_TIMEOUT
        timeout = min(max(default if timeout is None else timeout, 1), most)
    else:
        timeout = max(CODEX_TIMEOUT if timeout is None else timeout, 1)
    normalized = {"type": "command", "command": command, "timeout": timeout}
    normalized["async"] = bool(handler.get("async", False))
    if handler.get("statusMessage") is not None:
        normalized["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": CODEX_EVENTS[event], "hooks": [normalized]}
    if matcher is not None and event not in CODEX_NO_MATCHER:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


VENV_CHECK = "plugin venv"
VENV_FAILED = "failed"
VENV_BROKEN = "broken"
REBUILD_VENV_HINT = "run artibot-memory doctor --rebuild-venv"


def check_venvs(plugin_data: list[Path] | None = None) -> list[StoreHealth]:
    """Check the plugin venv of each plugin data folder; no folder found, no check.

    The folders are ``$CLAUDE_PLUGIN_DATA``, else Claude Code's
    ``~/.claude/plugins/data/artibot-memory*`` (:func:`artibot_memory.core.venv.plugin_data_dirs`).
    """
    from artibot_memory.core import venv  # noqa: PLC0415 - the one check that needs it

    folders = [Path(d) for d in venv.plugin_data_dirs()] if plugin_data is None else plugin_data
    return [check_venv(folder) for folder in folders]


def check_venv(data_dir: Path) -> StoreHealth:
    """Check the plugin venv in ``data_dir``: its Python, its packages, its build log.

    Its states: ``ok`` (its interpreter runs and the packages import), ``missing`` (not
    built: the hooks need it only when their ``python3`` lacks the dependencies or is older
    than 3.10), ``failed`` (not built, and the last build failed), ``broken`` (its
    interpreter does not run or its packages do not import). The notes say whether a build
    is running and give the build log's last line (redacted).
    """
    from artibot_memory.core import venv  # noqa: PLC0415 - the one check that needs it
    from artibot_memory.core.redact import redact  # noqa: PLC0415

    folder = Path(venv.venv_dir(data_dir))
    python = venv.venv_python(data_dir)
    notes = []
    age = venv.build_age(data_dir)
    if age is not None:
        notes.append(f"a build is running (started {int(age // 60)} min ago)")
    last = venv.last_log_line(data_dir)
    if last is not None:
        notes.append(f"last line of {venv.log_path(data_dir)}: {redact(last)}")
    failed = venv.has_failed(data_dir)
    if not os.path.exists(python):
        if failed and age is None:
            problem = f"not built: the last build failed; {REBUILD_VENV_HINT}"
            return StoreHealth(VENV_CHECK, folder, VENV_FAILED, problem, notes=tuple(notes))
        problem = (
            f"{folder} is not built (the hooks need it only when their python3 lacks the "
            "dependencies or is older than 3.10)"
        )
        return StoreHealth(VENV_CHECK, folder, MISSING, problem, notes=tuple(notes))
    version, broken = venv.probe_venv(python)
    if broken is not None:
        problem = f"{python} {broken}; {REBUILD_VENV_HINT}"
        return StoreHealth(VENV_CHECK, folder, VENV_BROKEN, problem, notes=tuple(notes))
    ready = (
        "built from today's requirements"
        if venv.is_ready(data_dir)
        else "built from other requirements (the next session start updates it)"
    )
    if failed:
        notes.insert(0, "the last rebuild failed; this venv is still used")
    problem = f"{folder}: Python {version}, its packages import, {ready}"
    return StoreHealth(VENV_CHECK, folder, OK, problem, notes=tuple(notes))


def report_lines(checks: list[StoreHealth]) -> list[str]:
    """One line per check, then what to do when something is wrong.

    >>> report_lines([StoreHealth("x", Path("/h/x"), CORRUPT, "is not valid JSON")])[-1]
    'run artibot-memory doctor --repair'
    """
    # A Codex check's line names its own remedy: --repair mends the memory home only.
    problems = [check for check in checks if not check.ok and check.name != CODEX_CHECK]
    lines = [check.line() for check in checks]
    if any(check.state != NEWER_SCHEMA for check in problems):
        lines.append(REPAIR_HINT)
    elif problems:
        lines.append(UPGRADE_HINT)
    return lines


def repair(home: Path | None = None) -> list[str]:
    """Mend what :func:`diagnose` finds (see the module docstring); return what was done."""
    home = home if home is not None else memory_home()
    actions: list[str] = []
    for spec in STORES:
        actions += repair_store(Store(spec, home))
    actions += repair_journal(home)
    actions += repair_links(home)
    actions += repair_modes(home)
    return actions


def reindex(home: Path | None = None) -> str:
    """Build the search index again from the stores; say what it holds."""
    home = home if home is not None else memory_home()
    held = index.rebuild(home)
    held_words = counted(held, "memory", "memories")
    return f"reindex: built index.sqlite again from the stores: {held_words}"


def repair_store(store: Store) -> list[str]:
    """Move an unusable store aside and restore its backup (or start it empty).

    Temp files left by interrupted writes are deleted too (under the lock, so no write
    of this store is running).
    """
    if check_store_file(store.path, store.home).state in USABLE and not store.temp_files():
        return []
    with locked(store.path):
        actions = _delete_litter(store)
        health = check_store_file(store.path, store.home)  # another doctor may have been first
        if health.state in USABLE:
            return actions
        if health.state == NEWER_SCHEMA:
            return [*actions, f"left {store.path.name} as it is ({health.problem}); {UPGRADE_HINT}"]
        moved = move_aside(store.path)
        return [
            *actions,
            f"moved {store.path.name} aside to {moved.name} ({health.problem})",
            restore(store),
        ]


def _delete_litter(store: Store) -> list[str]:
    litter = store.temp_files()
    for path in litter:
        path.unlink(missing_ok=True)
    if not litter:
        return []
    files = counted(len(litter), "temp file")
    return [f"deleted {files} left by an interrupted write of {store.path.name}"]


def restore(store: Store) -> str:
    """Write the store from its backup when the backup parses, else as an empty store.

    Forgotten (tombstoned) and expired entries are left out, of the backup too: a restore
    never brings back what the user forgot, nor what had already expired.
    """
    backup = check_store_file(store.backup_path, store.home)
    name = store.path.name
    if backup.state == OK:
        kept, left_out = write_from_backup(store)
        entries = counted(kept, "entry", "entries")
        if left_out:
            gone = counted(left_out, "forgotten or expired entry", "forgotten or expired entries")
            entries += f"; left out {gone}"
        return f"restored {name} from backups/{name} ({entries})"
    write_document(store.path, envelope.EMPTY)
    why = "there is no backup" if backup.state == MISSING else f"the backup is {backup.state}"
    return f"started {name} empty ({why})"


def write_from_backup(store: Store) -> tuple[int, int]:
    """Write the store from its backup, minus forgotten and expired entries (under the lock).

    Returns how many entries were restored and how many left out; when any were left out
    the backup is rewritten without them too, else its bytes are copied as they are.
    """
    data = store.backup_path.read_bytes()
    entries = parse_store_bytes(store.backup_path, data)
    forgotten, now = forgotten_ids(store.home), clock.now()
    kept = [e for e in entries if e.id not in forgotten and not e.is_expired(now)]
    if len(kept) == len(entries):
        write_document(store.path, data)
        return len(kept), 0
    payload = encode_entries(kept)
    write_document(store.path, payload)
    write_document(store.backup_path, payload)
    return len(kept), len(entries) - len(kept)


def repair_journal(home: Path) -> list[str]:
    """Move a journal that is a symlink or cannot be read aside; capture starts a new one."""
    path = home / journal.JOURNAL_NAME
    health = _journal_file(path)
    if health.state in USABLE:
        return []
    moved = move_aside(path)
    return [
        f"moved {path.name} aside to {moved.name} ({health.problem}); capture starts a new journal"
    ]


def repair_links(home: Path) -> list[str]:
    """Move every symlink leading out of the home aside; what it points to is not touched."""
    actions = []
    for link in outward_links(home) if home.is_dir() else []:
        moved = move_aside(link)
        what = f"{link.relative_to(home)}, a symlink leading out of the memory home"
        actions.append(f"moved {what}, aside to {moved.name}")
    return actions


def repair_modes(home: Path) -> list[str]:
    """Make every file 0600 and every folder 0700; return one line if anything changed."""
    loose = loose_paths(home) if home.is_dir() else []
    for path in loose:
        make_private(path)
    if not loose:
        return []
    return [f"made {len(loose)} files and folders owner-only (files 0600, folders 0700)"]


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """Say how many, in words that agree.

    >>> counted(1, "entry", "entries"), counted(2, "record")
    ('1 entry', '2 records')
    """
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def format_actions(actions: list[str]) -> list[str]:
    """Return the repair lines as printed: one per action, or one saying there was nothing to do.

    >>> format_actions([])
    ['repair: nothing to do']
    """
    return [f"repair: {action}" for action in actions] or ["repair: nothing to do"]
