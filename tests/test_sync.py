"""``artibot-memory sync`` with real git: two homes ("laptop", "desktop"), a bare remote on disk.

Each machine is a memory home chosen by ``ARTIBOT_MEMORY_HOME`` (:class:`Machine` sets it
around what it does), the remote a bare repository in ``tmp_path``.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from artibot_memory import lifecycle
from artibot_memory.api import doctor, memories, snapshots
from artibot_memory.api import sync as syncing
from artibot_memory.capture import journal
from artibot_memory.cli.app import main
from artibot_memory.core import disk
from artibot_memory.core.errors import SyncError, UsageError
from artibot_memory.notes import daily
from artibot_memory.plugin import fast
from artibot_memory.store import ledger
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.model import MemoryType
from artibot_memory.store.table import spec_for

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="sync drives the git binary")

TOKEN = "ghp_" + "a1B2c3D4e5" * 4
CANARY = "Canary memory zebra-quartz-7 never to be seen again"


class Machine:
    """One memory home, used with ``ARTIBOT_MEMORY_HOME`` pointing at it."""

    def __init__(self, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.home = home
        self._monkeypatch = monkeypatch

    @contextmanager
    def on(self) -> Iterator[Path]:
        before = os.environ.get("ARTIBOT_MEMORY_HOME")
        os.environ["ARTIBOT_MEMORY_HOME"] = str(self.home)
        try:
            yield self.home
        finally:
            if before is not None:
                os.environ["ARTIBOT_MEMORY_HOME"] = before

    def sync(self, url: Path | None = None, **kwargs: Any) -> syncing.Report:
        with self.on():
            return syncing.sync(self.home, str(url) if url else None, **kwargs)

    def save(self, memory_type: str, text: str, **fields: Any) -> str:
        with self.on():
            return memories.save(memory_type, text, home=self.home, **fields).id

    def entries(self, memory_type: str = "preference") -> dict[str, Any]:
        return {m.id: m for m in Store(spec_for(memory_type), self.home).load()}

    def cli(self, *argv: str) -> int:
        with self.on():
            return main(list(argv))


def git(*args: str) -> str:
    done = subprocess.run(["git", *args], capture_output=True, check=True)  # noqa: S603, S607
    return done.stdout.decode()


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    bare = tmp_path / "remote.git"
    git("init", "--quiet", "--bare", str(bare))
    return bare


@pytest.fixture
def laptop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    return Machine(tmp_path / "laptop", monkeypatch)


@pytest.fixture
def desktop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    return Machine(tmp_path / "desktop", monkeypatch)


@pytest.fixture
def paired(laptop: Machine, desktop: Machine, remote: Path) -> tuple[Machine, Machine]:
    """Both machines synced once with the remote (laptop first, with a first memory)."""
    laptop.save("preference", "Always use pnpm, not npm")
    laptop.sync(remote)
    desktop.sync(remote)
    return laptop, desktop


def remote_blobs(bare: Path) -> dict[str, bytes]:
    """Every blob the remote's refs reach, by path (what anyone who clones it gets)."""
    found = {}
    for line in git("--git-dir", str(bare), "rev-list", "--objects", "--all").splitlines():
        oid, _, name = line.partition(" ")
        if git("--git-dir", str(bare), "cat-file", "-t", oid).strip() == "blob":
            found[name] = subprocess.run(  # noqa: S603
                ["git", "--git-dir", str(bare), "cat-file", "blob", oid],  # noqa: S607
                capture_output=True,
                check=True,
            ).stdout
    return found


def every_object(repo: Path) -> bytes:
    """Every object of a repository, reachable or not, uncompressed (the local one is ours)."""
    return subprocess.run(  # noqa: S603
        ["git", "--git-dir", str(repo), "cat-file", "--batch-all-objects", "--batch"],  # noqa: S607
        capture_output=True,
        check=True,
    ).stdout


def files_of(home: Path, *, without: str = "sync") -> dict[str, bytes]:
    return {
        p.relative_to(home).as_posix(): p.read_bytes()
        for p in home.rglob("*")
        if p.is_file() and p.relative_to(home).parts[0] != without
    }


# ---- the round trip


def test_a_preference_saved_on_one_machine_is_recalled_on_the_other(
    paired: tuple[Machine, Machine],
) -> None:
    laptop, desktop = paired
    assert [m.text for m in desktop.entries().values()] == ["Always use pnpm, not npm"]
    desktop.save("preference", "Indent with tabs")
    desktop.sync()
    laptop.sync()
    assert sorted(m.text for m in laptop.entries().values()) == [
        "Always use pnpm, not npm",
        "Indent with tabs",
    ]
    assert "Indent with tabs" in (laptop.home / "MEMORY.md").read_text()


def test_the_remote_holds_one_snapshot_commit_with_no_parent(
    paired: tuple[Machine, Machine], remote: Path
) -> None:
    laptop, desktop = paired
    desktop.save("preference", "Indent with tabs")
    desktop.sync()
    laptop.sync()
    log = git("--git-dir", str(remote), "log", "--format=%H %P", "memory").splitlines()
    assert len(log) == 1
    assert log[0].split(" ", 1)[1].strip() == ""


def test_only_the_travelling_files_are_committed(laptop: Machine, remote: Path) -> None:
    laptop.save("preference", "Always use pnpm, not npm")
    laptop.save("command", "make test")
    journal.append({"event": "PostToolUse", "command": "make lint"}, laptop.home)
    (laptop.home / "config.toml").write_text("[sync]\nauto = false\n")
    laptop.sync(remote)
    names = set(remote_blobs(remote))
    assert {"user-preferences.json", "command-history.json", "MEMORY.md", "config.toml"} <= names
    assert all(syncing.is_travelling(name) for name in names)
    assert not names & {"journal.jsonl", "index.sqlite", "cache", "backups", "logs"}
    assert (laptop.home / "journal.jsonl").exists()


def test_the_home_and_its_repository_are_owner_only(laptop: Machine, remote: Path) -> None:
    laptop.save("preference", "Always use pnpm, not npm")
    laptop.sync(remote)
    folder = laptop.home / "sync"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(laptop.home.stat().st_mode) == 0o700
    assert doctor.loose_paths(laptop.home) == []


# ---- the merge


def test_counts_are_added_once_and_evidence_is_the_union(paired: tuple[Machine, Machine]) -> None:
    laptop, desktop = paired
    [memory_id] = laptop.entries()

    def bump(machine: Machine, times: int, note: str) -> None:
        with Store(spec_for("preference"), machine.home).transaction() as entries:
            entry = entries[0]
            entry.count += times
            entry.evidence.append(entry.evidence[0].model_copy(update={"note": note}))

    bump(laptop, 2, "laptop saw it")
    bump(desktop, 1, "desktop saw it")
    laptop.sync()
    desktop.sync()
    laptop.sync()
    for machine in (laptop, desktop):
        merged = machine.entries()[memory_id]
        assert merged.count == 1 + 2 + 1
        assert {e.note for e in merged.evidence} >= {"laptop saw it", "desktop saw it"}


def test_a_forget_on_one_machine_leaves_no_text_on_the_other_nor_on_the_remote(
    paired: tuple[Machine, Machine], remote: Path
) -> None:
    laptop, desktop = paired
    assert laptop.cli("save", "preference", CANARY) == 0  # its daily bullet and MEMORY.md too
    [canary] = [i for i, m in laptop.entries().items() if m.text == CANARY]
    note = daily.skeleton(date(2026, 12, 1)).replace(
        "## Notes\n", f"## Notes\n- 10:00 [global] Saved: {CANARY} ({canary})\n"
    )
    (laptop.home / "daily").mkdir(mode=0o700, exist_ok=True)
    disk.write_text(laptop.home / "daily" / "2026-12-01.md", note)
    laptop.sync()
    desktop.sync()
    assert canary in desktop.entries()
    assert any(b"zebra-quartz" in data for data in files_of(desktop.home).values())
    assert CANARY in (desktop.home / "MEMORY.md").read_text()
    assert CANARY in (desktop.home / "daily" / "2026-12-01.md").read_text()
    with laptop.on():
        memories.forget(canary, home=laptop.home)
    assert b"zebra-quartz" not in every_object(snapshots.repo_path(laptop.home))  # not even here
    laptop.sync()
    desktop.sync()
    assert canary not in desktop.entries()
    for name, data in files_of(desktop.home).items():
        assert b"zebra-quartz" not in data, name
    for name, data in remote_blobs(remote).items():
        assert b"zebra-quartz" not in data, name
    assert b"zebra-quartz" not in every_object(snapshots.repo_path(desktop.home))


def test_daily_notes_of_the_same_day_keep_both_machines_bullets_in_time_order(
    paired: tuple[Machine, Machine],
) -> None:
    laptop, desktop = paired
    name = "daily/2026-12-01.md"
    start = daily.skeleton(date(2026, 12, 1)).replace(
        "## Events\n", "## Events\n- 09:00 [shop] Started the cart work (session aaaaaaaa:1)\n"
    )
    (laptop.home / "daily").mkdir(mode=0o700, exist_ok=True)
    disk.write_text(laptop.home / name, start)
    laptop.sync()
    desktop.sync()
    for machine, bullet in (
        (laptop, "- 11:00 [shop] Fixed the flaky test (session bbbbbbbb:5)\n"),
        (desktop, "- 10:00 [shop] Deployed to staging (session cccccccc:9)\n"),
    ):
        text = (machine.home / name).read_text()
        disk.write_text(
            machine.home / name, text.replace("\n## Decisions", bullet + "\n## Decisions", 1)
        )
    laptop.sync()
    desktop.sync()
    laptop.sync()
    for machine in (laptop, desktop):
        text = (machine.home / name).read_text()
        events = text.split("## Events\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert [line[:7] for line in events] == ["- 09:00", "- 10:00", "- 11:00"]
        assert "<<<<<<<" not in text


def test_memory_md_hand_edits_of_both_machines_are_kept(paired: tuple[Machine, Machine]) -> None:
    laptop, desktop = paired
    for machine, line in (
        (laptop, "- Prefer small commits"),
        (desktop, "- Never deploy on Fridays"),
    ):
        path = machine.home / "MEMORY.md"
        text = path.read_text()
        assert "## User Preferences\n" in text
        path.write_text(text.replace("## User Preferences\n", f"## User Preferences\n{line}\n", 1))
    laptop.sync()
    desktop.sync()
    laptop.sync()
    for machine in (laptop, desktop):
        text = (machine.home / "MEMORY.md").read_text()
        assert "Prefer small commits" in text
        assert "Never deploy on Fridays" in text
        assert "Always use pnpm" in text
        texts = sorted(m.text for m in machine.entries().values())
        assert texts.count("Prefer small commits") == 1


def test_a_preference_superseded_differently_on_two_machines_is_a_ledger_conflict(
    laptop: Machine, desktop: Machine, remote: Path
) -> None:
    laptop.save("preference", "Use npm for packages", key="package-manager")
    laptop.sync(remote)
    desktop.sync(remote)
    pnpm = laptop.save("preference", "Use pnpm for packages", key="package-manager")
    yarn = desktop.save("preference", "Use yarn for packages", key="package-manager")
    laptop.sync()
    report = desktop.sync()
    assert len(report.conflicts) == 1
    [entry] = [e for e in ledger.entries(str(desktop.home)) if e.id == report.conflicts[0]]
    assert entry.new is not None
    assert entry.old is not None
    assert {entry.new.id, entry.old.id} == {pnpm, yarn}
    laptop.sync()
    assert report.conflicts[0] in {e.id for e in ledger.entries(str(laptop.home))}


def test_two_machines_at_once_one_push_is_refused_then_merged_again(
    paired: tuple[Machine, Machine], remote: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop, desktop = paired
    laptop.save("preference", "Indent with tabs")
    desktop.save("preference", "Write commit messages in English")
    real_push = snapshots.push
    calls: list[bool] = []

    def desktop_pushes_first(*args: Any) -> bool:
        if not calls:
            monkeypatch.setattr(snapshots, "push", real_push)
            desktop.sync()  # lands between the laptop's fetch and its push
            monkeypatch.setattr(snapshots, "push", desktop_pushes_first)
        calls.append(pushed := real_push(*args))
        return pushed

    monkeypatch.setattr(snapshots, "push", desktop_pushes_first)
    report = laptop.sync()
    assert calls == [False, True]
    assert report.attempts == 2
    desktop.sync()
    wanted = {"Always use pnpm, not npm", "Indent with tabs", "Write commit messages in English"}
    for machine in (laptop, desktop):
        assert {m.text for m in machine.entries().values()} == wanted
    published = remote_blobs(remote)["user-preferences.json"]
    assert all(text.encode() in published for text in wanted)


def test_two_machines_that_hold_the_same_memory_settle_and_send_nothing(
    paired: tuple[Machine, Machine],
) -> None:
    laptop, desktop = paired
    for machine, text in ((laptop, "make test"), (desktop, "make lint")):
        machine.save("command", text)
        machine.save("preference", f"Run {text} before pushing")
    laptop.sync()
    desktop.sync()
    laptop.sync()
    assert (laptop.sync().sent, desktop.sync().sent) == ([], [])
    assert (laptop.sync().received, desktop.sync().received) == ([], [])


def test_two_machines_that_each_forgot_a_memory_settle_and_send_nothing(
    paired: tuple[Machine, Machine],
) -> None:
    laptop, desktop = paired
    here = laptop.save("preference", "Forget me on the laptop")
    there = laptop.save("preference", "Forget me on the desktop")
    laptop.sync()
    desktop.sync()
    with laptop.on():
        memories.forget(here, home=laptop.home)
    with desktop.on():
        memories.forget(there, home=desktop.home)
    desktop.sync()
    laptop.sync()
    desktop.sync()
    assert (laptop.sync().sent, desktop.sync().sent) == ([], [])
    tombstones = [(m.home / "tombstones.json").read_bytes() for m in (laptop, desktop)]
    assert tombstones[0] == tombstones[1]
    assert set(laptop.entries()) == set(desktop.entries())


class Killed(BaseException):
    """Stands for SIGKILL at one point of a sync: nothing after it runs."""


@pytest.mark.parametrize(
    "point", ["commit_snapshot", "push", "set_base", "forget_old", "read_snapshot"]
)
def test_a_sync_stopped_at_any_step_leaves_the_home_readable_and_the_next_one_completes(
    paired: tuple[Machine, Machine], point: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop, desktop = paired
    desktop.save("preference", "Indent with tabs")
    desktop.sync()
    laptop.save("preference", "Write commit messages in English")

    def killed(*_args: object, **_kwargs: object) -> None:
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(snapshots, point, killed)
        with pytest.raises(Killed):
            laptop.sync()
    assert laptop.cli("doctor") == 0
    laptop.sync()
    desktop.sync()
    wanted = {"Always use pnpm, not npm", "Indent with tabs", "Write commit messages in English"}
    for machine in (laptop, desktop):
        assert {m.text for m in machine.entries().values()} == wanted


def test_config_and_the_evolution_log_travel(paired: tuple[Machine, Machine]) -> None:
    laptop, desktop = paired
    (laptop.home / "config.toml").write_text("[context]\nbudget = 2000\n")
    (laptop.home / "evolution.log").write_text("2026-12-01T10:00:00Z  PROMOTED  laptop line\n")
    laptop.sync()
    desktop.sync()
    assert (desktop.home / "config.toml").read_text() == "[context]\nbudget = 2000\n"
    log = desktop.home / "evolution.log"
    log.write_text(log.read_text() + "2026-12-02T10:00:00Z  DEMOTED  desktop line\n")
    (desktop.home / "config.toml").write_text("[context]\nbudget = 3000\n")
    (laptop.home / "config.toml").write_text("[context]\nbudget = 1000\n")
    desktop.sync()
    report = laptop.sync()
    assert report.notes == ["config.toml changed on both machines: this machine's is kept"]
    assert (laptop.home / "config.toml").read_text() == "[context]\nbudget = 1000\n"
    assert (laptop.home / "evolution.log").read_text().splitlines() == [
        "2026-12-01T10:00:00Z  PROMOTED  laptop line",
        "2026-12-02T10:00:00Z  DEMOTED  desktop line",
    ]


# ---- safety


def test_a_secret_pasted_into_memory_md_blocks_that_file_with_its_line(
    paired: tuple[Machine, Machine], remote: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, _desktop = paired
    path = laptop.home / "MEMORY.md"
    lines = path.read_text().split("\n")
    lines.insert(2, f"deploy with {TOKEN}")
    path.write_text("\n".join(lines))
    laptop.save("preference", "Indent with tabs")
    capsys.readouterr()
    assert laptop.cli("sync") == 1
    err = capsys.readouterr().err
    assert "MEMORY.md:3: a secret (github-token)" in err
    blobs = remote_blobs(remote)
    assert all(TOKEN.encode() not in data for data in blobs.values())
    assert b"Indent with tabs" in blobs["user-preferences.json"]  # the rest went
    assert TOKEN in path.read_text()  # the user's file is theirs to fix


def test_a_secret_pasted_into_a_store_already_synced_is_found_on_its_changed_line(
    paired: tuple[Machine, Machine], remote: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, _desktop = paired
    path = laptop.home / "user-preferences.json"
    text = path.read_text()
    assert "Always use pnpm" in text  # synced: every other line is as the remote has it
    path.write_text(text.replace("Always use pnpm", f"Always use pnpm, token {TOKEN}", 1))
    capsys.readouterr()
    assert laptop.cli("sync") == 1
    assert "user-preferences.json:" in capsys.readouterr().err
    assert all(TOKEN.encode() not in data for data in remote_blobs(remote).values())


def test_an_unreachable_remote_fails_in_one_line_and_changes_nothing(
    laptop: Machine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert laptop.cli("save", "preference", "Always use pnpm, not npm") == 0  # renders MEMORY.md
    path = laptop.home / "MEMORY.md"
    path.write_text(path.read_text() + "\n- A hand edit not yet applied\n")
    before = files_of(laptop.home)
    capsys.readouterr()
    assert laptop.cli("sync", "--remote", str(tmp_path / "no-such-remote")) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("artibot-memory: cannot reach ")
    assert files_of(laptop.home) == before
    state = snapshots.read_state(laptop.home)
    assert state["result"] == "failed"


def test_a_mistyped_remote_keeps_the_one_that_works_and_its_base(
    paired: tuple[Machine, Machine],
    remote: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    laptop, desktop = paired
    repo = snapshots.repo_path(laptop.home)
    base = snapshots.resolve(repo, snapshots.BASE_REF)
    capsys.readouterr()
    assert laptop.cli("sync", "--remote", str(tmp_path / "typo.git")) == 1
    assert capsys.readouterr().err.rstrip().endswith(f"the remote stays {remote}")
    assert snapshots.remote_url(laptop.home) == str(remote)
    assert snapshots.resolve(repo, snapshots.BASE_REF) == base
    assert desktop.cli("save", "preference", "Always write commit messages in English") == 0
    assert desktop.cli("sync") == 0
    assert laptop.cli("sync") == 0
    assert "commit messages in English" in (laptop.home / "user-preferences.json").read_text()


def test_a_new_remote_starts_without_the_old_ones_base(
    paired: tuple[Machine, Machine], tmp_path: Path
) -> None:
    laptop, _desktop = paired
    repo = snapshots.repo_path(laptop.home)
    assert snapshots.resolve(repo, snapshots.BASE_REF) is not None
    other = tmp_path / "other.git"
    git("init", "--quiet", "--bare", str(other))
    with laptop.on():
        snapshots.set_remote(repo, str(other))
    assert snapshots.resolve(repo, snapshots.BASE_REF) is None
    assert laptop.sync().sent  # everything goes to the new remote
    assert {"user-preferences.json", "MEMORY.md"} <= set(remote_blobs(other))


def test_a_password_in_the_url_is_refused(laptop: Machine) -> None:
    with pytest.raises(UsageError, match="password"):
        syncing.sync(laptop.home, "https://me:hunter2@example.com/memory.git")


def test_sync_without_a_remote_says_how_to_set_one(laptop: Machine) -> None:
    with pytest.raises(UsageError, match="--remote URL"):
        laptop.sync()


def test_the_users_git_hooks_and_signing_do_not_run(
    laptop: Machine, remote: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "pre-push").write_text("#!/bin/sh\nexit 1\n")
    (hooks / "pre-push").chmod(0o755)
    user = tmp_path / "user"
    user.mkdir()
    (user / ".gitconfig").write_text(
        f"[core]\n\thooksPath = {hooks}\n[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = false\n"
    )
    monkeypatch.setenv("HOME", str(user))
    laptop.save("preference", "Always use pnpm, not npm")
    assert laptop.sync(remote).commit is not None


def test_a_corrupt_store_on_the_remote_changes_nothing_here(
    paired: tuple[Machine, Machine], remote: Path
) -> None:
    laptop, desktop = paired
    repo = snapshots.repo_path(laptop.home)
    bad = {"user-preferences.json": b"{not json"}
    commit = snapshots.commit_snapshot(repo, bad, datetime.now(timezone.utc))
    assert snapshots.push(repo, str(remote), commit, snapshots.resolve(repo, snapshots.BASE_REF))
    desktop.save("preference", "Indent with tabs")
    before = files_of(desktop.home)
    with pytest.raises(SyncError, match="remote's"):
        desktop.sync()
    assert files_of(desktop.home) == before


# ---- automatic, and doctor


def test_auto_sync_runs_in_the_session_end_worker_only_when_asked(
    laptop: Machine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    called: list[Path | None] = []
    monkeypatch.setattr(syncing, "sync_if_asked", lambda home=None: called.append(home))
    ended = {"cwd": str(tmp_path), "session_id": "s1", "transcript_path": "/nope"}
    with laptop.on():
        fast.defer("SessionEnd", ended)
        lifecycle.ingest()
        assert len(called) == 1
        lifecycle.ingest(then_prune=True)
    assert len(called) == 1


def test_auto_sync_syncs_when_on_and_records_a_failure_when_offline(
    laptop: Machine, remote: Path, tmp_path: Path
) -> None:
    laptop.save("preference", "Always use pnpm, not npm")
    laptop.sync(remote)
    laptop.save("preference", "Indent with tabs")
    syncing.sync_if_asked(laptop.home)
    assert b"Indent with tabs" not in remote_blobs(remote)["user-preferences.json"]  # off
    (laptop.home / "config.toml").write_text("[sync]\nauto = true\n")
    syncing.sync_if_asked(laptop.home)
    assert b"Indent with tabs" in remote_blobs(remote)["user-preferences.json"]
    git(
        "--git-dir",
        str(snapshots.repo_path(laptop.home)),
        "config",
        "remote.origin.url",
        str(tmp_path / "gone"),
    )
    syncing.sync_if_asked(laptop.home)  # never raises
    assert snapshots.read_state(laptop.home)["result"] == "failed"


def test_doctor_shows_the_remote_the_last_sync_and_its_result(
    laptop: Machine, remote: Path
) -> None:
    [before] = [c for c in doctor.diagnose(laptop.home) if c.name == "sync"]
    assert "not set up" in (before.problem or "")
    laptop.save("preference", "Always use pnpm, not npm")
    laptop.sync(remote)
    [after] = [c for c in doctor.diagnose(laptop.home) if c.name == "sync"]
    assert str(remote) in (after.problem or "")
    assert "last synced" in (after.problem or "")
    assert after.ok


# ---- the merges, pure


@pytest.mark.parametrize(
    ("base", "local", "remote", "merged"),
    [
        pytest.param("a\n", "a\nb\n", "a\n", "a\nb\n", id="only-local-changed"),
        pytest.param("a\n", "a\n", "a\nc\n", "a\nc\n", id="only-remote-changed"),
        pytest.param("a\nx\n", "a\nx\nb\n", "a\n", "a\nb\n", id="remote-removed-a-line"),
        pytest.param(
            "## S\n- a\n",
            "## S\n- a\n- b\n",
            "## S\n- a\n- c\n",
            "## S\n- a\n- b\n- c\n",
            id="both-added",
        ),
    ],
)
def test_markdown_merges_line_by_line(base: str, local: str, remote: str, merged: str) -> None:
    from artibot_memory.notes.reconcile import merge_sections  # noqa: PLC0415

    assert merge_sections(base, local, remote) == merged


def test_tombstones_win_over_a_change_on_the_other_side() -> None:
    from datetime import datetime, timezone  # noqa: PLC0415

    from artibot_memory.store.model import Memory  # noqa: PLC0415
    from artibot_memory.store.reconcile import merge_entries  # noqa: PLC0415

    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    memory = Memory(
        id="pref-1", type=MemoryType.PREFERENCE, text="x", created_at=t, updated_at=t, last_seen=t
    )
    changed = memory.model_copy(update={"count": 5})
    assert merge_entries([memory], [changed], [], frozenset({"pref-1"})) == []
    assert merge_entries([memory], [changed], [], frozenset()) == [changed]
    assert merge_entries([memory], [memory], [], frozenset()) == []
