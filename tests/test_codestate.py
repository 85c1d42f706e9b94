"""Memory that follows the code (docs/CODE.md), with real git: anchors, the check, the words.

Every repository here is made by git itself in a temporary folder; the time of each commit
is fixed by the environment, never slept for.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from artibot_memory.api import anchors, codecheck, consolidate, memories
from artibot_memory.cli import render
from artibot_memory.core import clock, config
from artibot_memory.recall import briefing, codestate, known_errors, prompt_recall, startcache
from artibot_memory.store.record import Record

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

KOREAN = "문서/설명 파일.md"
SPACED = "src/my cart/total file.ts"


@pytest.fixture(autouse=True)
def git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Commit as a fixed person at a fixed time, with no user or system git config."""
    for name, value in {
        "GIT_AUTHOR_NAME": "Ana",
        "GIT_AUTHOR_EMAIL": "ana@example.com",
        "GIT_COMMITTER_NAME": "Ana",
        "GIT_COMMITTER_EMAIL": "ana@example.com",
        "GIT_AUTHOR_DATE": "2026-12-01T10:00:00Z",
        "GIT_COMMITTER_DATE": "2026-12-01T10:00:00Z",
        "GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
    }.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "gitconfig").write_text(
        "[init]\n\tdefaultBranch = main\n[protocol]\n\tallow = always\n"
    )


def run(root: Path, *args: str) -> str:
    done = subprocess.run(  # noqa: S603 - git with the test's own arguments
        ["git", *args],  # noqa: S607
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def repo(tmp_path: Path, files: dict[str, str], name: str = "shop") -> Path:
    root = tmp_path / name
    root.mkdir()
    run(root, "init", "-q")
    write(root, files)
    if files:
        commit(root, "first")
    return root


def write(root: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")


def commit(root: Path, message: str) -> None:
    run(root, "add", "-A")
    run(root, "commit", "-q", "-m", message)


def states(
    root: Path, anchored: dict[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = codecheck.check(str(root), anchored)["memories"]
    return found


def anchor(root: Path, *paths: str) -> list[dict[str, Any]]:
    return anchors.anchors_of(str(root), list(paths), codecheck.head(str(root)))


# ---- the check, file by file


def test_an_unchanged_file_says_nothing_and_an_edited_one_counts_its_commits(
    tmp_path: Path,
) -> None:
    root = repo(tmp_path, {"src/a.py": "a\n", "src/b.py": "b\n"})
    anchored = {"m1": anchor(root, "src/a.py"), "m2": anchor(root, "src/b.py")}
    write(root, {"src/a.py": "a2\n"})
    commit(root, "edit a")
    write(root, {"src/a.py": "a3\n"})
    commit(root, "edit a again")
    found = states(root, anchored)
    assert list(found) == ["m1"]
    assert found["m1"] == [{"path": "src/a.py", "state": "changed", "now": None, "commits": 2}]
    assert codestate.words(found["m1"]) == "src/a.py changed since, 2 commits"


def test_uncommitted_edits_count(tmp_path: Path) -> None:
    root = repo(tmp_path, {"a.py": "a\n"})
    anchored = {"m": anchor(root, "a.py")}
    write(root, {"a.py": "edited, not committed\n"})
    found = states(root, anchored)
    assert found["m"][0]["state"] == "changed"
    assert codestate.words(found["m"]) == "a.py changed since, not committed"


def test_a_file_back_to_its_anchored_content_is_unchanged(tmp_path: Path) -> None:
    root = repo(tmp_path, {"a.py": "a\n"})
    anchored = {"m": anchor(root, "a.py")}
    write(root, {"a.py": "b\n"})
    commit(root, "change")
    write(root, {"a.py": "a\n"})
    commit(root, "revert")
    assert states(root, anchored) == {}


def test_a_deleted_file_says_so(tmp_path: Path) -> None:
    root = repo(tmp_path, {"a.py": "a\n", "b.py": "b\n"})
    anchored = {"m": anchor(root, "a.py")}
    run(root, "rm", "-q", "a.py")
    commit(root, "delete")
    assert states(root, anchored)["m"] == [{"path": "a.py", "state": "deleted", "now": None}]
    assert codestate.words(states(root, anchored)["m"]) == "a.py deleted since"


def test_a_renamed_file_is_followed_to_its_new_path(tmp_path: Path) -> None:
    root = repo(tmp_path, {"src/a.py": "one\ntwo\nthree\nfour\nfive\n"})
    anchored = {"m": anchor(root, "src/a.py")}
    (root / "lib").mkdir()
    run(root, "mv", "src/a.py", "lib/a.py")
    commit(root, "move")
    assert states(root, anchored)["m"] == [
        {"path": "src/a.py", "state": "renamed", "now": "lib/a.py"}
    ]
    write(root, {"lib/a.py": "one\ntwo\nthree\nfour\nfive\nsix\n"})
    commit(root, "edit after the move")
    found = states(root, anchored)["m"][0]
    # the move and the edit: the commits that touched lib/a.py, as `git rev-list` counts them
    assert (found["state"], found["now"], found["commits"]) == ("renamed-changed", "lib/a.py", 2)
    assert codestate.words([found]) == "src/a.py is now lib/a.py, changed since, 2 commits"


def test_a_rename_with_edits_in_one_commit_is_found_by_git_rename_detection(tmp_path: Path) -> None:
    body = "".join(f"line {i}\n" for i in range(40))
    root = repo(tmp_path, {"cart.ts": body})
    anchored = {"m": anchor(root, "cart.ts")}
    run(root, "mv", "cart.ts", "basket.ts")
    write(root, {"basket.ts": body + "one more\n"})
    commit(root, "rename and edit")
    found = states(root, anchored)["m"][0]
    assert (found["state"], found["now"]) == ("renamed-changed", "basket.ts")


def test_staged_and_unstaged_moves_are_followed_too(tmp_path: Path) -> None:
    root = repo(tmp_path, {"a.py": "alpha\n", "b.py": "beta\n"})
    anchored = {"a": anchor(root, "a.py"), "b": anchor(root, "b.py")}
    run(root, "mv", "a.py", "a2.py")  # staged, not committed
    os.rename(root / "b.py", root / "b2.py")  # moved without git
    found = states(root, anchored)
    assert found["a"][0]["now"] == "a2.py"
    assert found["b"][0]["now"] == "b2.py"


def test_a_file_changed_only_on_another_branch_is_not_changed(tmp_path: Path) -> None:
    root = repo(tmp_path, {"a.py": "a\n"})
    anchored = {"m": anchor(root, "a.py")}
    run(root, "checkout", "-q", "-b", "feature")
    write(root, {"a.py": "feature work\n"})
    commit(root, "feature")
    assert states(root, anchored)["m"][0]["state"] == "changed"
    run(root, "checkout", "-q", "main")
    assert states(root, anchored) == {}
    run(root, "checkout", "-q", "feature")
    assert states(root, anchored)["m"][0]["commits"] == 1
    run(root, "checkout", "-q", "main")
    assert states(root, anchored) == {}


def test_after_a_rebase_the_anchor_commit_is_gone_from_the_branch_and_still_counts(
    tmp_path: Path,
) -> None:
    root = repo(tmp_path, {"a.py": "a\n", "b.py": "b\n"})
    run(root, "checkout", "-q", "-b", "feature")
    write(root, {"a.py": "a on feature\n"})
    commit(root, "feature edit")
    anchored = {"m": anchor(root, "a.py"), "n": anchor(root, "b.py")}
    run(root, "checkout", "-q", "main")
    write(root, {"b.py": "b on main\n"})
    commit(root, "main edit")
    run(root, "checkout", "-q", "feature")
    run(root, "rebase", "-q", "main")
    found = states(root, anchored)
    assert "m" not in found  # the same content, under a rewritten commit
    assert found["n"][0]["state"] == "changed"  # came in with the rebase
    write(root, {"a.py": "after the rebase\n"})
    commit(root, "after")
    assert states(root, anchored)["m"][0]["commits"] == 2  # the rewritten one and this


def test_a_repository_with_no_commits(tmp_path: Path) -> None:
    root = repo(tmp_path, {})
    write(root, {"new.py": "x\n"})
    anchored = {"m": anchor(root, "new.py")}
    assert anchored["m"][0]["commit"] is None
    assert states(root, anchored) == {}
    write(root, {"new.py": "y\n"})
    found = states(root, anchored)["m"]
    assert codestate.words(found) == "new.py changed since, not committed"
    (root / "new.py").unlink()
    assert states(root, anchored)["m"][0]["state"] == "deleted"


def test_a_submodule_is_a_project_of_its_own(tmp_path: Path) -> None:
    library = repo(tmp_path, {"lib.py": "v1\n"}, name="library")
    root = repo(tmp_path, {"app.py": "app\n"})
    run(root, "submodule", "add", "-q", str(library), "vendor/library")
    commit(root, "add the submodule")
    sub = root / "vendor" / "library"
    assert codecheck.repo_root(str(sub)) == str(sub)
    assert codestate.head_of(str(sub)) == run(sub, "rev-parse", "HEAD").strip()
    anchored = {"m": anchor(sub, "lib.py")}
    write(sub, {"lib.py": "v2\n"})
    commit(sub, "edit in the submodule")
    assert states(sub, anchored)["m"][0]["commits"] == 1
    folder = {"f": anchor(root, "vendor/library")}
    assert folder["f"][0]["blob"] is None  # a folder: there or not
    assert states(root, folder) == {}


def test_paths_with_spaces_and_korean_names(tmp_path: Path) -> None:
    root = repo(tmp_path, {SPACED: "total\n", KOREAN: "설명\n"})
    anchored = {"m": anchor(root, SPACED, KOREAN)}
    assert [a["path"] for a in anchored["m"]] == [SPACED, KOREAN]
    write(root, {SPACED: "total 2\n"})
    commit(root, "edit")
    run(root, "mv", KOREAN, "문서/새 이름.md")
    commit(root, "rename")
    found = states(root, anchored)["m"]
    assert found[0] == {"path": SPACED, "state": "changed", "now": None, "commits": 1}
    assert found[1] == {"path": KOREAN, "state": "renamed", "now": "문서/새 이름.md"}


def test_a_moved_folder_is_followed(tmp_path: Path) -> None:
    root = repo(tmp_path, {"services/api/main.py": "m\n", "services/api/db.py": "d\n"})
    anchored = {"m": anchor(root, "services/api")}
    run(root, "mv", "services/api", "services/backend")
    commit(root, "move the folder")
    assert states(root, anchored)["m"] == [
        {"path": "services/api", "state": "renamed", "now": "services/backend"}
    ]


def test_outside_git_nothing_is_anchored_or_flagged(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "a.py").write_text("a\n")
    assert codecheck.repo_root(str(folder)) is None
    memories.save("context", "the loader lives in a.py", project=str(folder))
    assert anchors.refresh(str(folder)) is False
    assert codestate.load(str(folder)) == {}
    assert codestate.head_of(str(folder)) is None


def test_without_git_on_the_path_nothing_happens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = repo(tmp_path, {"a.py": "a\n"})
    monkeypatch.setenv("PATH", str(tmp_path / "no-such-folder"))
    assert codecheck.repo_root(str(root)) is None
    assert anchors.refresh(str(root)) is False


# ---- what a memory names


def test_the_files_a_memory_names() -> None:
    assert anchors.named_files({"type": "command", "text": "pytest a.py"}, "/") == []


def test_a_fix_names_its_edited_files_and_a_fact_the_paths_it_mentions(tmp_path: Path) -> None:
    root = repo(tmp_path, {"src/cart/total.ts": "t\n", "src/a (old).py": "a\n", "README.md": "r"})
    fix = {
        "type": "error",
        "details": {"fix": {"edits": ["src/cart/total.ts (-a +b)", "src/a (old).py (-x)"]}},
    }
    assert anchors.named_files(fix, str(root)) == ["src/cart/total.ts", "src/a (old).py"]
    fact = {"type": "context", "text": "The cart total is in src/cart/total.ts; see `README.md`."}
    assert anchors.named_files(fact, str(root)) == ["README.md", "src/cart/total.ts"]
    outside = {"type": "context", "text": "see /etc/hosts and ../other/x.py and src/missing.py"}
    assert anchors.named_files(outside, str(root)) == []


# ---- the worker's step and every place a memory is handed back


def fixed_error(root: Path, confidence: float = 0.96) -> str:
    saved = memories.save(
        "error",
        "`pnpm test -- cart` failed: TypeError: total is not a function",
        project=str(root),
        resolution="edited src/cart/total.ts (-a +b); then `pnpm test -- cart` succeeded",
        confidence=confidence,
        details={
            "fix": {
                "method": "same-command",
                "confidence": confidence,
                "at": "2026-12-01T10:00:00Z",
                "edits": ["src/cart/total.ts (-a +b)"],
            }
        },
    )
    return saved.id


def test_the_worker_anchors_then_checks_once_per_state(tmp_path: Path, memory_home: Path) -> None:
    root = repo(tmp_path, {"src/cart/total.ts": "export const total = 1\n"})
    error_id = fixed_error(root)
    assert anchors.refresh(str(root)) is True
    stored = memories.get(error_id).details["anchors"]
    assert [f["path"] for f in stored["files"]] == ["src/cart/total.ts"]
    assert stored["files"][0]["commit"] == run(root, "rev-parse", "HEAD").strip()
    assert anchors.refresh(str(root)) is False  # the same HEAD and working tree: not again
    write(root, {"src/cart/total.ts": "export function total() {}\n"})
    commit(root, "rewrite total")
    assert anchors.refresh(str(root)) is True
    assert memories.get(error_id).details["anchors"] == stored  # anchored once, kept
    cache = json.loads(Path(codestate.cache_path(memory_home, str(root))).read_text())
    assert cache["head"] == run(root, "rev-parse", "HEAD").strip()
    assert codestate.load(str(root))[error_id][0]["commits"] == 1


def test_a_cache_of_another_head_flags_nothing(tmp_path: Path) -> None:
    root = repo(tmp_path, {"src/cart/total.ts": "a\n"})
    error_id = fixed_error(root)
    anchors.refresh(str(root))
    write(root, {"src/cart/total.ts": "b\n"})
    commit(root, "one")
    anchors.refresh(str(root))
    assert error_id in codestate.load(str(root))
    write(root, {"README.md": "x\n"})
    commit(root, "HEAD moves, the worker has not run")
    assert codestate.load(str(root)) == {}


def rewritten(tmp_path: Path) -> tuple[Path, str]:
    root = repo(tmp_path, {"src/cart/total.ts": "export const total = 1\n"})
    error_id = fixed_error(root)
    anchors.refresh(str(root))
    for n in range(3):
        write(root, {"src/cart/total.ts": f"export function total() {{ return {n} }}\n"})
        commit(root, f"rewrite {n}")
    anchors.refresh(str(root))
    return root, error_id


def test_a_known_error_says_its_fix_file_changed_and_lowers_its_confidence(tmp_path: Path) -> None:
    root, error_id = rewritten(tmp_path)
    doc = memories.get(error_id)
    output, offered = known_errors.recall(str(doc.signature), str(root / "src"))
    assert offered == error_id
    text = output["hookSpecificOutput"]["additionalContext"]  # type: ignore[index]
    assert "[src/cart/total.ts changed since, 3 commits: confidence 0.58, was 0.96]" in text


def test_the_session_start_says_so_and_leaves_out_a_fact_whose_path_is_gone(
    tmp_path: Path,
) -> None:
    root, error_id = rewritten(tmp_path)
    write(root, {"services/api/main.py": "m\n", "docs/old.md": "o\n"})
    commit(root, "add")
    moved = memories.save("context", "The API lives in services/api", project=str(root))
    gone = memories.save("context", "Deploy notes are in docs/old.md", project=str(root))
    anchors.refresh(str(root))
    run(root, "mv", "services/api", "services/backend")
    run(root, "rm", "-q", "docs/old.md")
    commit(root, "move and delete")
    anchors.refresh(str(root))
    pool = [Record(m.model_dump(mode="json")) for m in memories.list_memories()]
    text = briefing.brief(pool, str(root), clock.now(), config.load(None, str(root))).text
    assert "services/api is now services/backend" in text
    assert gone.id not in text
    assert "Deploy notes" not in text
    assert "changed since, 3 commits: confidence 0.58, was 0.96]" in text  # the fix
    assert moved.id in text
    assert error_id in text
    proposal = consolidate.plan()
    stale = [c for c in proposal.changes if c.action == "stale"]
    assert [(c.memory_id, c.reason) for c in stale] == [
        (gone.id, "docs/old.md deleted since: what it says is of code that is gone")
    ]


def test_per_prompt_recall_and_show_say_so(tmp_path: Path, memory_home: Path) -> None:
    root, error_id = rewritten(tmp_path)
    output = prompt_recall.prompt_output(
        {"prompt": "why does the cart test fail with total is not a function?", "cwd": str(root)},
        home=str(memory_home),
    )
    assert output is not None
    text = output["hookSpecificOutput"]["additionalContext"]
    assert error_id in text
    assert "[src/cart/total.ts changed since, 3 commits: confidence 0.58, was 0.96]" in text
    doc = memories.get(error_id).model_dump(mode="json")
    assert render.code_words(doc) == ["src/cart/total.ts changed since, 3 commits"]
    state = codestate.memory_code_state(doc)
    assert state is not None
    assert state["all_changed"]
    assert state["known"]


def test_a_new_head_sends_the_cached_start_back_to_the_full_path(tmp_path: Path) -> None:
    root = repo(tmp_path, {"a.py": "a\n"})
    home = str(Path(os.environ["ARTIBOT_MEMORY_HOME"]))
    now = clock.now()
    startcache.write_cache(home, str(root), "the text", [], None, now)
    assert startcache.read_cache(home, str(root), startcache.micros(now)) is not None
    write(root, {"a.py": "b\n"})
    commit(root, "new head")
    assert startcache.read_cache(home, str(root), startcache.micros(now)) is None


def test_the_workers_ingest_anchors_and_checks_the_projects_it_touched(
    tmp_path: Path, memory_home: Path
) -> None:
    from artibot_memory import lifecycle  # noqa: PLC0415
    from artibot_memory.plugin import fast  # noqa: PLC0415

    root = repo(tmp_path, {"src/cart/total.ts": "a\n"})
    error_id = fixed_error(root)
    fast.defer("SessionStart", {"session_id": "s1", "cwd": str(root), "source": "startup"})
    lifecycle.ingest(then_prune=True)
    assert memories.get(error_id).details["anchors"]["files"][0]["path"] == "src/cart/total.ts"
    assert Path(codestate.cache_path(memory_home, str(root))).is_file()


def test_a_failing_check_is_only_logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from artibot_memory import lifecycle  # noqa: PLC0415

    def broken(project: str | None) -> bool:
        raise OSError(project)

    monkeypatch.setattr(lifecycle, "refresh_code", broken)
    lifecycle.follow_code(str(tmp_path))  # no exception


def cli(root: Path, *argv: str) -> str:
    done = subprocess.run(  # noqa: S603 - this interpreter, our own module
        [sys.executable, "-m", "artibot_memory", *argv],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ),
    )
    return done.stdout


def test_search_and_show_as_a_person_and_a_script_read_them(tmp_path: Path) -> None:
    root, error_id = rewritten(tmp_path)
    [hit] = json.loads(cli(root, "search", "total is not a function", "--json"))
    assert hit["code"]["words"] == "src/cart/total.ts changed since, 3 commits"
    assert hit["code"]["files"][0]["state"] == "changed"
    assert "code: src/cart/total.ts changed since, 3 commits" in cli(root, "search", "total")
    shown = cli(root, "show", error_id)
    assert "src/cart/total.ts changed since, 3 commits" in shown
    memories.save("context", "Nothing about files here", project=str(root))
    [plain] = json.loads(cli(root, "search", "Nothing about files", "--json"))
    assert plain["code"] is None


def test_the_report_says_which_files_changed_beside_the_memory(tmp_path: Path) -> None:
    root, error_id = rewritten(tmp_path)
    page = tmp_path / "report.html"
    cli(root, "report", "--out", str(page))
    text = page.read_text()
    start = text.index(f"{error_id} · error")
    item = text[start : text.index("</li>", start)]
    assert "▲ code: src/cart/total.ts changed since, 3 commits" in item
    assert "offered less sure" in item  # its only edited file changed: a fix to check first
