from __future__ import annotations

import json
import os
import stat
from datetime import timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from artibot_memory.api import codex_trust, doctor, health, memories
from artibot_memory.cli.app import main
from artibot_memory.core import config
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.table import spec_for

VALID_EMPTY = b'{"schema_version": 1, "entries": []}'
BROKEN = [
    pytest.param(b"", "corrupt", "is empty", id="zero-bytes"),
    pytest.param(b'{"schema_version": 1, "entr', "corrupt", "not valid JSON", id="truncated"),
    pytest.param(b"\x00\xff garbage", "corrupt", "not valid JSON", id="garbage"),
    pytest.param(
        b'{"schema_version": 1, "entries": {}}', "corrupt", "is not a store", id="wrong-shape"
    ),
    pytest.param(
        b'{"schema_version": 1, "entries": [{"id": 1}]}', "corrupt", "invalid entry", id="bad-entry"
    ),
    pytest.param(
        b'{"schema_version": 99, "entries": []}', "newer-schema", "schema_version 99", id="newer"
    ),
]


@pytest.fixture(autouse=True)
def codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The empty Codex home tests/conftest.py gives too (never the developer's ~/.codex)."""
    home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def check_of(name: str) -> health.StoreHealth:
    return next(check for check in doctor.diagnose() if check.name == name)


def two_saves() -> Path:
    memories.save("preference", "first preference")
    memories.save("preference", "second preference")
    return Store(spec_for("preference")).path


def test_a_fresh_home_is_healthy_and_diagnose_does_not_create_it(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checks = doctor.diagnose()
    assert [c.state for c in checks if c.name not in ("search", "capture", "sync")] == [
        "missing"
    ] * 7
    assert [c.state for c in checks if c.name == "sync"] == ["ok"]  # not set up: no problem
    assert [c.state for c in checks if c.name == "search"] == ["ok"]  # which search is active
    assert [c.state for c in checks if c.name == "capture"] == ["ok"]  # whether it records here
    assert all(check.ok for check in checks)
    assert not memory_home.exists()
    code, out, err = run(capsys, "doctor")
    assert (code, err) == (0, "")
    assert "--repair" not in out


def test_diagnose_counts_entries_and_checks_the_backup() -> None:
    two_saves()
    check = check_of("user-preferences.json")
    assert (check.state, check.entries, check.backup, check.backup_entries) == ("ok", 2, "ok", 1)
    assert check.line() == "ok            user-preferences.json: 2 entries; backup ok (1 entry)"


@pytest.mark.parametrize(("content", "state", "problem"), BROKEN)
def test_diagnose_names_what_is_wrong_with_a_store(
    memory_home: Path, content: bytes, state: str, problem: str
) -> None:
    memory_home.mkdir(mode=0o700)
    (memory_home / "command-history.json").write_bytes(content)
    check = check_of("command-history.json")
    assert check.state == state
    assert check.problem is not None  # for mypy: narrows str | None
    assert problem in check.problem
    assert not check.ok
    assert (memory_home / "command-history.json").read_bytes() == content


def test_a_store_symlinked_out_of_the_home_is_an_unsafe_link(
    memory_home: Path, tmp_path: Path
) -> None:
    memory_home.mkdir(mode=0o700)
    outside = tmp_path / "outside.json"
    outside.write_bytes(VALID_EMPTY)
    (memory_home / "error-patterns.json").symlink_to(outside)
    assert check_of("error-patterns.json").state == "unsafe-link"


def test_a_corrupt_backup_is_reported_as_not_usable() -> None:
    path = two_saves()
    (path.parent / "backups" / path.name).write_bytes(b"{")
    check = check_of("user-preferences.json")
    assert (check.state, check.backup) == ("ok", "corrupt")
    assert "backup corrupt (not usable)" in check.line()


def test_doctor_exits_1_with_one_line_per_problem_and_the_repair_hint(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory_home.mkdir(mode=0o700)
    (memory_home / "user-preferences.json").write_bytes(b"garbage")
    (memory_home / "error-patterns.json").write_bytes(b"")
    code, out, err = run(capsys, "doctor")
    lines = out.splitlines()
    assert (code, err) == (1, "")
    assert [line.split()[0] for line in lines if line.startswith("corrupt")] == ["corrupt"] * 2
    assert any(str(memory_home / "user-preferences.json") in line for line in lines)
    assert lines[-1] == "run artibot-memory doctor --repair"
    assert (memory_home / "user-preferences.json").read_bytes() == b"garbage"


def test_doctor_json_lists_every_check(capsys: pytest.CaptureFixture[str]) -> None:
    memories.save("error", "boom")
    code, out, _ = run(capsys, "doctor", "--json")
    report = json.loads(out)
    assert (code, report["healthy"], report["repaired"]) == (0, True, [])
    by_name = {check["name"]: check for check in report["checks"]}
    assert by_name["error-patterns.json"]["entries"] == 1
    assert {"journal.jsonl", "permissions"} <= by_name.keys()


@freeze_time("2026-03-04 05:06:07")
def test_repair_keeps_the_original_bytes_aside_and_restores_the_backup(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = two_saves()
    path.write_bytes(b'{"schema_version": 1, "entr')
    code, out, _ = run(capsys, "doctor", "--repair")
    aside = memory_home / "user-preferences.json.corrupt-20260304T050607Z"
    assert code == 0
    assert aside.read_bytes() == b'{"schema_version": 1, "entr'
    assert [m.text for m in memories.list_memories("preference")] == ["first preference"]
    assert (
        "repair: restored user-preferences.json from backups/user-preferences.json (1 entry)" in out
    )


@pytest.mark.parametrize(
    ("backup", "why"),
    [
        pytest.param(None, "there is no backup", id="no-backup"),
        pytest.param(b"not json", "the backup is corrupt", id="corrupt-backup"),
        pytest.param(
            b'{"schema_version": 7, "entries": []}', "the backup is newer-schema", id="newer-backup"
        ),
    ],
)
def test_repair_starts_empty_when_the_backup_cannot_be_used(
    memory_home: Path, backup: bytes | None, why: str
) -> None:
    memory_home.mkdir(mode=0o700)
    path = memory_home / "project-contexts.json"
    path.write_bytes(b"[1, 2")
    if backup is not None:
        (memory_home / "backups").mkdir(mode=0o700)
        (memory_home / "backups" / path.name).write_bytes(backup)
    actions = doctor.repair()
    assert actions[1] == f"started project-contexts.json empty ({why})"
    assert memories.list_memories("context") == []
    assert check_of("project-contexts.json").state == "ok"


def test_repair_leaves_a_newer_schema_store_as_it_is(memory_home: Path) -> None:
    memory_home.mkdir(mode=0o700)
    newer = b'{"schema_version": 99, "entries": [{"future": true}]}'
    (memory_home / "error-patterns.json").write_bytes(newer)
    action = doctor.repair()[0]
    assert action.startswith("left error-patterns.json as it is")
    assert "upgrade artibot-memory" in action
    assert (memory_home / "error-patterns.json").read_bytes() == newer
    assert doctor.report_lines(doctor.diagnose())[-1].startswith("upgrade artibot-memory")


def test_repair_moves_an_unsafe_link_aside_without_touching_its_target(
    memory_home: Path, tmp_path: Path
) -> None:
    memory_home.mkdir(mode=0o700)
    outside = tmp_path / "outside.json"
    outside.write_bytes(VALID_EMPTY)
    outside.chmod(0o644)
    (memory_home / "command-history.json").symlink_to(outside)
    doctor.repair()
    [aside] = memory_home.glob("command-history.json.corrupt-*")
    assert aside.is_symlink()
    assert (outside.read_bytes(), stat.S_IMODE(outside.stat().st_mode)) == (VALID_EMPTY, 0o644)
    assert not (memory_home / "command-history.json").is_symlink()
    memories.save("command", "make test")
    assert outside.read_bytes() == VALID_EMPTY


@freeze_time("2026-03-04 05:06:07")
def test_a_second_repair_in_the_same_second_never_overwrites_the_first_copy(
    memory_home: Path,
) -> None:
    memory_home.mkdir(mode=0o700)
    path = memory_home / "user-preferences.json"
    path.write_bytes(b"first garbage")
    doctor.repair()
    path.write_bytes(b"second garbage")
    doctor.repair()
    copies = sorted(memory_home.glob("user-preferences.json.corrupt-*"))
    assert [p.read_bytes() for p in copies] == [b"first garbage", b"second garbage"]
    assert [p.name[-16:] for p in copies] == ["20260304T050607Z", "20260304T050608Z"]


def test_temp_files_of_a_killed_write_are_noted_and_deleted_by_repair(memory_home: Path) -> None:
    path = two_saves()
    litter = [
        memory_home / f".{path.name}.k1ll3d.tmp",
        memory_home / "backups" / f"{path.name}.4242.tmp",
    ]
    for file in litter:
        file.write_bytes(b'{"schema_version":1,"entr')
    check = check_of("user-preferences.json")
    assert check.ok
    assert "2 temp files left by an interrupted write" in check.line()
    assert (
        doctor.repair()[0]
        == "deleted 2 temp files left by an interrupted write of user-preferences.json"
    )
    assert not any(file.exists() for file in litter)
    assert check_of("user-preferences.json").entries == 2


def test_quarantined_copies_are_owner_only(memory_home: Path) -> None:
    memory_home.mkdir(mode=0o700)
    path = memory_home / "error-patterns.json"
    path.write_bytes(b"{{{")
    path.chmod(0o644)
    doctor.repair()
    [aside] = memory_home.glob("error-patterns.json.corrupt-*")
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600


def test_a_journal_symlink_is_reported_and_moved_aside(memory_home: Path, tmp_path: Path) -> None:
    memory_home.mkdir(mode=0o700)
    target = tmp_path / "elsewhere.jsonl"
    target.write_bytes(b"")
    (memory_home / "journal.jsonl").symlink_to(target)
    assert check_of("journal.jsonl").state == "unsafe-link"
    [action] = doctor.repair()
    assert "capture starts a new journal" in action
    assert check_of("journal.jsonl").state == "missing"
    assert target.exists()


def test_the_journal_check_counts_waiting_records_and_torn_lines(memory_home: Path) -> None:
    memory_home.mkdir(mode=0o700)
    (memory_home / "journal.jsonl").write_bytes(b'{"v":1,"event":"PostToolUse"}\n{"v":1,"ev\n')
    check = check_of("journal.jsonl")
    assert (check.state, check.entries) == ("ok", 1)
    assert check.problem is not None  # for mypy: narrows str | None
    assert "1 unreadable line," in check.problem


def test_a_symlink_leading_out_of_the_home_is_a_problem_that_repair_moves_aside(
    memory_home: Path, tmp_path: Path
) -> None:
    memories.save("preference", "tabs")
    outside = tmp_path / "outside-logs"
    outside.mkdir()
    (memory_home / "logs").symlink_to(outside)
    check = check_of("links")
    assert (check.state, check.problem) == (
        "unsafe-link",
        "1 symlink leading out of the memory home: logs",
    )
    assert check.line().startswith(f"unsafe-link   links in {memory_home}: 1 symlink")
    [action] = doctor.repair()
    assert action.startswith(
        "moved logs, a symlink leading out of the memory home, aside to logs.corrupt-"
    )
    assert check_of("links").state == "ok"
    assert outside.is_dir()


def test_a_lock_file_symlinked_out_of_the_home_is_moved_aside(
    memory_home: Path, tmp_path: Path
) -> None:
    memory_home.mkdir(mode=0o700)
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (memory_home / "user-preferences.json.lock").symlink_to(victim)
    assert check_of("links").state == "unsafe-link"
    doctor.repair()
    memories.save("preference", "tabs")
    assert victim.read_bytes() == b"precious"


def test_loose_modes_are_a_problem_that_repair_fixes(memory_home: Path) -> None:
    memories.save("preference", "tabs")
    (memory_home / "user-preferences.json").chmod(0o644)
    (memory_home / "backups").mkdir(exist_ok=True)
    (memory_home / "backups").chmod(0o755)
    check = check_of("permissions")
    assert check.state == "loose-mode"
    assert check.problem is not None  # for mypy: narrows str | None
    assert "backups" in check.problem
    assert doctor.repair() == ["made 2 files and folders owner-only (files 0600, folders 0700)"]
    assert check_of("permissions").state == "ok"


def test_repair_of_a_healthy_home_does_nothing(
    memory_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two_saves()
    before = {p: p.read_bytes() for p in memory_home.rglob("*") if p.is_file()}
    code, out, _ = run(capsys, "doctor", "--repair")
    assert code == 0
    assert out.splitlines()[0] == "repair: nothing to do"
    assert {p: p.read_bytes() for p in before} == before
    assert not list(memory_home.glob("*.corrupt-*"))


@pytest.mark.parametrize(
    "content", [pytest.param(p.values[0], id=p.id) for p in BROKEN if p.id != "newer"]
)
def test_after_repair_saving_works_again(memory_home: Path, content: bytes) -> None:
    memory_home.mkdir(mode=0o700)
    (memory_home / "error-patterns.json").write_bytes(content)
    doctor.repair()
    memories.save("error", "ModuleNotFoundError: No module named 'requests'")
    assert all(check.ok for check in doctor.diagnose())
    assert os.listdir(memory_home).count("error-patterns.json") == 1


def test_repair_never_restores_a_forgotten_memory_from_an_older_backup(memory_home: Path) -> None:
    path = two_saves()
    gone = memories.list_memories("preference")[-1]
    stale_backup = (memory_home / "backups" / path.name).read_bytes()  # holds the first one
    memories.forget(gone.id)
    (memory_home / "backups" / path.name).write_bytes(stale_backup)
    path.write_bytes(b"garbage")
    actions = doctor.repair()
    assert gone.id not in {m.id for m in memories.list_memories()}
    assert gone.id.encode() not in (memory_home / "backups" / path.name).read_bytes()
    assert (
        f"restored {path.name} from backups/{path.name} (0 entries; left out 1 forgotten or "
        "expired entry)"
    ) in actions


def test_repair_leaves_out_what_expired_since_the_backup_was_kept() -> None:
    with freeze_time("2026-01-01") as clock:
        memories.save("command", "make old")
        clock.tick(timedelta(days=6))
        memories.save("command", "make new")
        clock.tick(timedelta(hours=1))
        memories.save("command", "make newer")  # the backup holds "make old" and "make new"
        clock.tick(timedelta(days=1))  # "make old" has expired
        Store(spec_for("command")).path.write_bytes(b"garbage")
        doctor.repair()
        assert [m.text for m in memories.list_memories(include_expired=True)] == ["make new"]


# -- Codex CLI: are our plugin's hooks trusted? ------------------------------------------

REPO = Path(__file__).resolve().parent.parent
OUR_CODEX_HOOKS = REPO / "hooks" / "codex.json"
PLUGIN_ID = "artibot-memory@artibot-memory"
CONTENT_HASH = "sha256:" + "9" * 64  # a trusted_content_hash: the plugin's files, not recomputed

# A hooks file and the keys and hashes Codex 0.171 reported for it (app-server hooks/list,
# installed as plugin mp from marketplace mm): defaults, SessionEnd's clamp, matchers (kept,
# even empty; dropped for UserPromptSubmit), async, statusMessage, ${PLUGIN_ROOT} unexpanded,
# non-ASCII, and the skipped prompt and empty hooks still counting in the positions.
CODEX_REPORTED_FILE = {
    "SessionEnd": [
        {
            "hooks": [
                {"type": "command", "command": "echo a"},
                {"type": "command", "command": "echo b", "timeout": 10},
            ]
        }
    ],
    "PostToolUse": [
        {
            "matcher": "Bash",
            "hooks": [
                {
                    "type": "command",
                    "command": "echo c ${PLUGIN_ROOT} \u00e9",
                    "statusMessage": "working",
                    "timeout": 0,
                }
            ],
        },
        {"matcher": "", "hooks": [{"type": "command", "command": "echo d", "async": True}]},
    ],
    "UserPromptSubmit": [
        {"matcher": "foo", "hooks": [{"type": "command", "command": "echo e", "timeout": 7}]}
    ],
    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo f"}]}],
    "PreCompact": [
        {
            "hooks": [
                {"type": "prompt", "prompt": "x"},
                {"type": "command", "command": "  "},
                {"type": "command", "command": "echo g"},
            ]
        }
    ],
}
CODEX_REPORTED_HASHES = [  # after mp@mm:hooks/h.json:
    ("session_end:0:0", "5be7079596f45e5b154aedd0aeea5dfefd71ff372841fed401ae1fae480f2ef0"),
    ("session_end:0:1", "7fdcfde7cebf533caec0e61dd15d95edd097d182e378b222f3398ee015d76340"),
    ("post_tool_use:0:0", "ad88206b74a2c7e398be7874108745f107235179d38efb1631a919de68118c20"),
    ("post_tool_use:1:0", "79d226e2514b735e4376f3df6287d8fb4ccb282f73986cd063b3544d15eb25b5"),
    ("user_prompt_submit:0:0", "e0f4afe3b834d9a28611f7c7f6d89f83ce07235154df998fa3ca778a476bfb48"),
    ("session_start:0:0", "d00bc395341e51a5e28ccd905536f57ff6d4b6de8e5e128068c78af1bf347d1d"),
    ("pre_compact:0:2", "234677bdd8a6ff7359d9704215fde6ebe697acce1c053b7ffc7a0fc989d3853a"),
]


def our_hooks() -> list[tuple[str, str]]:
    """The keys and hashes of the shipped hooks/codex.json, as doctor computes them."""
    events = json.loads(OUR_CODEX_HOOKS.read_text(encoding="utf-8"))["hooks"]
    return codex_trust.codex_hook_hashes(PLUGIN_ID, "hooks/codex.json", events)


def install_in_codex(
    codex_home: Path, config: str = "", marketplace: str = "artibot-memory"
) -> Path:
    """Lay out what `codex plugin add artibot-memory@<marketplace>` leaves: cache and config."""
    root = codex_home / "plugins" / "cache" / marketplace / "artibot-memory" / "0.1.0"
    (root / ".codex-plugin").mkdir(parents=True)
    manifest = {"name": "artibot-memory", "version": "0.1.0", "hooks": "./hooks/codex.json"}
    (root / ".codex-plugin" / "plugin.json").write_text(json.dumps(manifest), encoding="utf-8")
    (root / "hooks").mkdir()
    (root / "hooks" / "codex.json").write_bytes(OUR_CODEX_HOOKS.read_bytes())
    plugin = f'[plugins."artibot-memory@{marketplace}"]\nenabled = true\n'
    (codex_home / "config.toml").write_text(plugin + config, encoding="utf-8")
    return root


def trusted(
    hooks: list[tuple[str, str]],
    *,
    content_hash: str | None = None,
    hashes: dict[str, str] | None = None,
) -> str:
    """[hooks.state] entries trusting ``hooks`` (``hashes`` overrides some trusted_hash)."""
    lines = []
    for key, current in hooks:
        lines += [f'[hooks.state."{key}"]', f'trusted_hash = "{(hashes or {}).get(key, current)}"']
        if content_hash:
            lines.append(f'trusted_content_hash = "{content_hash}"')
    return "\n".join(lines) + "\n"


def codex_check(codex_home: Path) -> health.StoreHealth:
    [check] = codex_trust.check_codex(codex_home)
    assert check.name == "codex hooks"
    return check


def test_codex_hook_keys_and_hashes_are_the_ones_codex_reports() -> None:
    found = dict(codex_trust.codex_hook_hashes("mp@mm", "hooks/h.json", CODEX_REPORTED_FILE))
    assert found == {f"mp@mm:hooks/h.json:{key}": f"sha256:{h}" for key, h in CODEX_REPORTED_HASHES}


def test_our_codex_hooks_file_uses_only_what_the_trust_hash_models() -> None:
    events = json.loads(OUR_CODEX_HOOKS.read_text(encoding="utf-8"))["hooks"]
    for event, groups in events.items():
        assert event in codex_trust.CODEX_EVENTS
        for group in groups:
            assert set(group) <= {"matcher", "hooks"}
            for handler in group["hooks"]:
                assert set(handler) <= {"type", "command", "timeout", "async", "statusMessage"}
                assert handler["type"] == "command"
    assert len(our_hooks()) == sum(len(g["hooks"]) for groups in events.values() for g in groups)


def test_codex_runs_our_hooks_once_trusted(
    codex_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    install_in_codex(codex_home, trusted(our_hooks()))  # as /hooks, then t, writes it
    check, config = codex_check(codex_home), codex_home / "config.toml"
    assert (check.state, check.ok, check.notes) == ("ok", True, ())
    assert (
        check.problem == f"Codex runs {len(our_hooks())} hooks of {PLUGIN_ID}, trusted in {config}"
    )
    code, out, _ = run(capsys, "doctor")
    assert code == 0
    assert check.line() in out.splitlines()


def test_untrusted_codex_hooks_are_a_problem_whose_line_says_how_to_trust_them(
    codex_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    install_in_codex(codex_home)
    check = codex_check(codex_home)
    assert (check.state, check.ok) == ("untrusted", False)
    assert f"({len(our_hooks())} not trusted yet)" in (check.problem or "")
    code, out, _ = run(capsys, "doctor")
    lines = out.splitlines()
    assert code == 1
    [line] = [line for line in lines if line.startswith("untrusted")]
    assert f"codex hooks in {codex_home / 'config.toml'}" in line
    assert '"Trust all and continue" (or type /hooks, then t)' in line
    assert "run artibot-memory doctor --repair" not in lines  # --repair cannot trust them


def test_a_hook_changed_since_it_was_trusted_is_not_run(codex_home: Path) -> None:
    hooks = our_hooks()
    first_key = hooks[0][0]
    install_in_codex(codex_home, trusted(hooks, hashes={first_key: "sha256:" + "0" * 64}))
    check = codex_check(codex_home)
    assert check.state == "untrusted"
    assert "Codex skips 1 hook of artibot-memory@artibot-memory (1 changed since trusted)" in (
        check.problem or ""
    )


def test_the_whole_current_hash_of_hooks_list_as_trusted_hash_is_named(codex_home: Path) -> None:
    # hooks/list reports a plugin hook's currentHash as "<hook hash>/<plugin files' hash>";
    # written whole as trusted_hash it never matches: Codex says "modified".
    hooks = our_hooks()
    whole = {key: f"{current}/{CONTENT_HASH}" for key, current in hooks}
    install_in_codex(codex_home, trusted(hooks, hashes=whole))
    check = codex_check(codex_home)
    assert check.state == "untrusted"
    assert f"({len(hooks)} changed since trusted)" in (check.problem or "")
    assert any("trusted_content_hash" in note for note in check.notes)


def test_trust_with_the_plugins_files_is_told_doctor_cannot_check_them(codex_home: Path) -> None:
    # "Trust all and continue" at the start also records the plugin's files' hash.
    install_in_codex(codex_home, trusted(our_hooks(), content_hash=CONTENT_HASH))
    check = codex_check(codex_home)
    assert check.state == "ok"
    assert any("after an update of the plugin Codex asks again" in note for note in check.notes)


def test_a_hook_turned_off_in_codex_is_a_choice_not_a_problem(codex_home: Path) -> None:
    hooks = our_hooks()
    state = trusted(hooks).replace(
        f'[hooks.state."{hooks[0][0]}"]', f'[hooks.state."{hooks[0][0]}"]\nenabled = false'
    )
    install_in_codex(codex_home, state)
    check = codex_check(codex_home)
    assert check.state == "ok"
    assert f"Codex runs {len(hooks) - 1} hooks" in (check.problem or "")
    assert check.notes == ("1 hook turned off in Codex (/hooks)",)


def test_another_marketplace_names_the_plugin_in_the_keys(codex_home: Path) -> None:
    events = json.loads(OUR_CODEX_HOOKS.read_text(encoding="utf-8"))["hooks"]
    hooks = codex_trust.codex_hook_hashes("artibot-memory@acme", "hooks/codex.json", events)
    install_in_codex(codex_home, trusted(hooks), marketplace="acme")
    config = codex_home / "config.toml"
    said = f"Codex runs {len(hooks)} hooks of artibot-memory@acme, trusted in {config}"
    assert codex_check(codex_home).problem == said
    install_in_codex(codex_home.parent / "other", trusted(our_hooks()), marketplace="acme")
    assert codex_check(codex_home.parent / "other").state == "untrusted"  # keys of another id


@pytest.mark.parametrize("layout", ["no-codex", "no-plugin", "removed", "cache-only"])
def test_without_codex_or_our_plugin_in_it_there_is_no_codex_line(
    codex_home: Path, capsys: pytest.CaptureFixture[str], layout: str
) -> None:
    if layout == "no-plugin":
        codex_home.mkdir()
        (codex_home / "config.toml").write_text('[plugins."other@x"]\nenabled = true\n')
    elif layout == "removed":  # the cache is left, config.toml no longer names the plugin
        install_in_codex(codex_home)
        (codex_home / "config.toml").write_text("[features]\nhooks = true\n")
    elif layout == "cache-only":
        install_in_codex(codex_home)
        (codex_home / "config.toml").unlink()
    assert codex_trust.check_codex(codex_home) == []
    assert [c for c in doctor.diagnose() if c.name == "codex hooks"] == []
    code, out, _ = run(capsys, "doctor")
    assert (code, "codex" in out) == (0, False)


@pytest.mark.parametrize(
    ("config", "said"),
    [
        pytest.param(
            '[plugins."artibot-memory@artibot-memory"]\nenabled = false\n',
            "the plugin is disabled in config.toml",
            id="plugin-disabled",
        ),
        pytest.param(
            '[plugins."artibot-memory@artibot-memory"]\n[features]\nhooks = false\n',
            "[features] hooks = false in config.toml",
            id="hooks-off",
        ),
    ],
)
def test_codex_told_not_to_run_our_hooks_is_said_not_a_problem(
    codex_home: Path, config: str, said: str
) -> None:
    install_in_codex(codex_home)
    (codex_home / "config.toml").write_text(config)
    check = codex_check(codex_home)
    assert (check.state, check.ok) == ("ok", True)
    assert check.problem == f"Codex runs no hook of artibot-memory@artibot-memory: {said}"


@pytest.mark.parametrize("broken", ["not-toml", "a-folder", "hooks-file"])
def test_an_unreadable_codex_config_is_said(
    codex_home: Path, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    root = install_in_codex(codex_home)
    config = codex_home / "config.toml"
    if broken == "not-toml":
        config.write_text('[plugins."artibot-memory@artibot-memory"\nenabled = true\n')
    elif broken == "a-folder":
        config.unlink()
        config.mkdir()
    else:
        (root / "hooks" / "codex.json").write_text("{", encoding="utf-8")
    check = codex_check(codex_home)
    assert (check.state, check.ok) == ("unreadable", False)
    assert (check.problem or "").startswith("cannot tell whether Codex runs our hooks: ")
    code, out, _ = run(capsys, "doctor")
    assert code == 1
    assert "run artibot-memory doctor --repair" not in out.splitlines()


def test_without_a_toml_parser_codex_is_not_checked(
    codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_in_codex(codex_home)
    monkeypatch.setattr(config, "toml_parser", lambda: None)
    assert codex_trust.check_codex(codex_home) == []
