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

import os
import stat
from pathlib import Path

from artibot_memory.api.codex_trust import CODEX_CHECK, check_codex
from artibot_memory.api.health import (
    CORRUPT,
    LOOSE_MODE,
    MISSING,
    NEWER_SCHEMA,
    OK,
    UNSAFE_LINK,
    USABLE,
    FileHealth,
    StoreHealth,
    counted,
)
from artibot_memory.capture import journal
from artibot_memory.capture.hooklog import unrecorded_count
from artibot_memory.core import clock, private
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

REPAIR_HINT = "run artibot-memory doctor --repair"
UPGRADE_HINT = "upgrade artibot-memory (pip install -U artibot-memory) to read the newer files"
MAX_NAMES_SHOWN = 5


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


def format_actions(actions: list[str]) -> list[str]:
    """Return the repair lines as printed: one per action, or one saying there was nothing to do.

    >>> format_actions([])
    ['repair: nothing to do']
    """
    return [f"repair: {action}" for action in actions] or ["repair: nothing to do"]
