"""Whether Codex CLI will run our hooks: its trust, recomputed from its own files.

Codex runs a plugin's hooks only once the user trusts them, and skips them without a word
until then. :func:`check_codex` reads Codex's ``config.toml`` (``[hooks.state]``) and our
hooks file as Codex keys and hashes it, and says, for ``artibot-memory doctor``, whether
each hook will run and how to trust them (README, "Install it in your agent").
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from artibot_memory.api.health import OK, UNREADABLE, UNTRUSTED, StoreHealth, counted
from artibot_memory.core import config

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
