"""Memory that follows the code (issue 29): are the stale flags right, and what does the check cost?

A project history is generated, deterministically from a seed, with real git: N files in
nested folders, then at least 60 commits of edits, renames (some with an edit in the same
commit), deletions, folder moves, reverts to an earlier content, and branch work that is
either merged (``--no-ff``) or left unmerged; the working tree ends with a few uncommitted
edits. Along the way, memories are anchored to 1 to 3 of the files that exist at that moment
(``artibot_memory.api.anchors.anchors_of``: the blob and HEAD, as the workers record them),
some of them while on a branch that is later abandoned.

The generator keeps its own ground truth: every file is an identity that follows its renames,
with its content. A memory is *stale* at the end when one of its files, on the working tree
of the branch checked out (main), has another content than when it was anchored, or no
longer exists; a file back to its anchored content (a revert, or work only on an abandoned
branch) is not. The check (``anchors.check``) flags a memory stale when any of its files is
``changed``, ``renamed-changed`` or ``deleted`` (a file only renamed is followed, not stale); precision and recall of those flags against the truth are the figures (targets
0.95 and 0.90), with how often a renamed file was followed to its right new path.

The worker's cost is timed at the size of the issue (10,000 files, 1,000 anchored memories):
``state_key`` alone (what a worker pays when nothing changed since the last check) and
``state_key`` + ``check`` (a new HEAD or working-tree state). Target: under 1 s.

    python benchmarks/code_staleness.py [--files 10000] [--memories 1000] [--commits 80]
                                        [--seed 29] [--runs 5] [--smoke]
"""

# Report prose makes long lines; fine here.
# ruff: noqa: E501, PLR2004, ISC004

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import common

sys.path.insert(0, str(common.ROOT))

from artibot_memory.api import anchors, codecheck
from artibot_memory.recall import codestate

SECTION = "code_staleness"
TITLE = "Memory that follows the code (benchmarks/code_staleness.py)"
TARGET_PRECISION, TARGET_RECALL, TARGET_SECONDS = 0.95, 0.90, 1.0
HOT = 300  # the files most of the work (and most memories) is about
LINES = 20  # lines per file: a one-line edit keeps a renamed file similar enough for git -M
WORDS = "cart total price tax order user session token cache index query page item list".split()


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


@dataclass
class Project:
    """The repository and the generator's own truth: identity → (path, content), per branch."""

    root: Path
    rng: random.Random
    files: dict[int, tuple[str, str]] = field(default_factory=dict)
    history: dict[int, list[str]] = field(default_factory=dict)  # each identity's contents
    next_id: int = 0
    commits: int = 0

    def content(self) -> str:
        words = [self.rng.choice(WORDS) for _ in range(LINES * 4)]
        return "\n".join(" ".join(words[i * 4 : i * 4 + 4]) for i in range(LINES)) + "\n"

    def add(self, path: str, text: str) -> None:
        self.files[self.next_id] = (path, text)
        self.history[self.next_id] = [text]
        self.next_id += 1
        self.write(path, text)

    def write(self, path: str, text: str) -> None:
        full = self.root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text(text, encoding="utf-8")

    def commit(self, message: str) -> None:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "--allow-empty", "-m", message)
        self.commits += 1

    def pick(self) -> int:
        """A file to work on: seven times in ten one of the project's 300 hot files."""
        hot = [i for i in range(min(HOT, self.next_id)) if i in self.files]
        if hot and self.rng.random() < 0.7:
            return self.rng.choice(hot)
        return self.rng.choice(sorted(self.files))

    # each operation changes the tree and the truth alike

    def edit(self) -> None:
        ident = self.pick()
        path, text = self.files[ident]
        lines = text.splitlines(keepends=True)
        lines[self.rng.randrange(len(lines))] = f"edited {self.rng.random():.6f}\n"
        self.set(ident, path, "".join(lines))

    def revert(self) -> None:
        """Put a file back to an earlier content of its own (a revert)."""
        ident = self.pick()
        path, text = self.files[ident]
        earlier = [t for t in self.history[ident] if t != text]
        if earlier:
            self.set(ident, path, self.rng.choice(earlier))

    def set(self, ident: int, path: str, text: str) -> None:
        self.files[ident] = (path, text)
        self.history[ident].append(text)
        self.write(path, text)

    def rename(self, *, edit: bool = False) -> None:
        ident = self.pick()
        path, text = self.files[ident]
        folder, name = os.path.split(path)
        new = f"{folder}/moved_{self.next_id}_{name}" if self.rng.random() < 0.5 else f"lib/{name}"
        if any(p == new for p, _ in self.files.values()):
            return
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        git(self.root, "mv", path, new)
        self.files[ident] = (new, text)
        if edit:
            lines = text.splitlines(keepends=True)
            lines[0] = f"renamed and edited {self.rng.random():.6f}\n"
            self.set(ident, new, "".join(lines))

    def delete(self) -> None:
        ident = self.pick()
        path, _ = self.files.pop(ident)
        git(self.root, "rm", "-q", "-f", path)

    def move_folder(self) -> None:
        folders = sorted({os.path.dirname(p) for p, _ in self.files.values() if p.count("/") >= 2})
        if not folders:
            return
        folder = self.rng.choice(folders)
        new = f"{folder}_v{self.commits}"
        git(self.root, "mv", folder, new)
        for ident, (path, text) in list(self.files.items()):
            if path.startswith(folder + "/"):
                self.files[ident] = (new + path[len(folder) :], text)


@dataclass
class Memory:
    ident: str
    files: list[tuple[int, str, str]]  # (identity, path then, content then)
    anchored: list[dict[str, Any]]


def generate(
    root: Path, n_files: int, n_memories: int, n_commits: int, seed: int
) -> tuple[Project, list[Memory]]:
    """Build the repository and anchor the memories along its history."""
    rng = random.Random(seed)
    project = Project(root, rng)
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for i in range(n_files):
        folder = f"src/m{i % 50:02d}/s{i % 7}"
        project.add(f"{folder}/f{i:05d}.py", project.content())
    project.commit("initial")
    memories: list[Memory] = []
    per_commit = max(1, n_memories // n_commits)
    ops = [
        (project.edit, 40),
        (lambda: project.rename(edit=False), 8),
        (lambda: project.rename(edit=True), 6),
        (project.delete, 6),
        (project.revert, 10),
        (project.move_folder, 2),
    ]
    actions, weights = zip(*ops, strict=True)
    step = 0
    while project.commits < n_commits + 1 or len(memories) < n_memories:
        step += 1
        if step % 9 == 0:
            branch_work(
                project,
                memories,
                per_commit,
                merged=step % 18 == 0,
                actions=actions,
                weights=weights,
            )
            continue
        for _ in range(rng.randint(3, 12)):
            rng.choices(actions, weights)[0]()
        project.commit(f"work {step}")
        anchor_some(project, memories, per_commit if len(memories) < n_memories else 0)
    for _ in range(5):  # uncommitted edits at the end
        project.edit()
    return project, memories[:n_memories]


def branch_work(
    project: Project,
    memories: list[Memory],
    count: int,
    *,
    merged: bool,
    actions: Any,
    weights: Any,
) -> None:
    """Commits on a branch, memories anchored there; merged (--no-ff) into main or left."""
    name = f"feature{project.commits}"
    saved = dict(project.files), {k: list(v) for k, v in project.history.items()}, project.next_id
    git(project.root, "checkout", "-q", "-b", name)
    for _ in range(2):
        for _ in range(project.rng.randint(3, 8)):
            project.rng.choices(actions, weights)[0]()
        project.commit(f"on {name}")
        anchor_some(project, memories, count)
    git(project.root, "checkout", "-q", "main")
    if merged:
        git(project.root, "merge", "-q", "--no-ff", "-m", f"merge {name}", name)
        project.commits += 1
    else:
        project.files, project.history, project.next_id = saved
        if project.rng.random() < 0.5:  # anchors taken on a branch main never sees
            anchor_some(project, memories, 0)


def anchor_some(project: Project, memories: list[Memory], count: int) -> None:
    if count <= 0:
        return
    head = codecheck.head(str(project.root))
    chosen = []
    for _ in range(count):
        idents = list(dict.fromkeys(project.pick() for _ in range(project.rng.randint(1, 3))))
        chosen.append([(i, *project.files[i]) for i in idents])
    paths = sorted({path for files in chosen for _, path, _ in files})
    by_path = {a["path"]: a for a in anchors.anchors_of(str(project.root), paths, head)}
    for files in chosen:
        anchored = [by_path[path] for _, path, _ in files]
        memories.append(Memory(f"m{len(memories):05d}", files, anchored))


def truth(project: Project, memory: Memory) -> tuple[bool, dict[str, str | None]]:
    """Stale or not, and where each renamed file is now (None: deleted)."""
    stale = False
    moved: dict[str, str | None] = {}
    for ident, path, text in memory.files:
        now = project.files.get(ident)
        if now is None:
            stale = True
            moved[path] = None
            continue
        if now[1] != text:
            stale = True
        if now[0] != path:
            moved[path] = now[0]
    return stale, moved


def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="code-staleness-") as scratch:
        env_keep = os.environ.copy()
        os.environ.update(
            {
                "GIT_AUTHOR_NAME": "Bench",
                "GIT_AUTHOR_EMAIL": "bench@example.com",
                "GIT_COMMITTER_NAME": "Bench",
                "GIT_COMMITTER_EMAIL": "bench@example.com",
                "GIT_AUTHOR_DATE": "2026-12-01T10:00:00Z",
                "GIT_COMMITTER_DATE": "2026-12-01T10:00:00Z",
                "GIT_CONFIG_GLOBAL": os.devnull,
                "GIT_CONFIG_NOSYSTEM": "1",
            }
        )
        try:
            started = time.perf_counter()
            project, memories = generate(
                Path(scratch) / "repo", args.files, args.memories, args.commits, args.seed
            )
            generated = time.perf_counter() - started
            return judge(project, memories, args.runs) | {"generated_s": generated}
        finally:
            os.environ.clear()
            os.environ.update(env_keep)


def judge(project: Project, memories: list[Memory], runs: int) -> dict[str, Any]:
    root = str(project.root)
    anchored = {m.ident: m.anchored for m in memories}
    checked = codecheck.check(root, anchored)["memories"]
    tp = fp = fn = tn = 0
    renamed = followed = 0
    misses: list[str] = []
    for memory in memories:
        stale, moved = truth(project, memory)
        flagged = any(f["state"] in codestate.MOVED_STATES for f in checked.get(memory.ident, []))
        tp, fp, fn, tn = (
            tp + (stale and flagged),
            fp + (flagged and not stale),
            fn + (stale and not flagged),
            tn + (not stale and not flagged),
        )
        if stale != flagged and len(misses) < 5:
            misses.append(
                f"{memory.ident}: truth {'stale' if stale else 'fresh'}, flagged {checked.get(memory.ident)}"
            )
        said = {f["path"]: f for f in checked.get(memory.ident, [])}
        for old, new in moved.items():
            if new is not None:
                renamed += 1
                followed += said.get(old, {}).get("now") == new
    keyed, full = [], []
    for _ in range(runs):
        started = time.perf_counter()
        anchors.state_key(root, anchored)
        keyed.append(time.perf_counter() - started)
        started = time.perf_counter()
        anchors.state_key(root, anchored)
        codecheck.check(root, anchored)
        full.append(time.perf_counter() - started)
    return {
        "files": len(project.files),
        "memories": len(memories),
        "anchored_files": len({a["path"] for m in memories for a in m.anchored}),
        "commits": int(git(project.root, "rev-list", "--count", "--all").strip()),
        "stale": tp + fn,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "renamed": renamed,
        "followed": followed,
        "key_s": common.median(keyed),
        "check_s": common.median(full),
        "check_p95_s": common.p95(full),
        "misses": misses,
    }


def report(found: dict[str, Any], args: argparse.Namespace) -> str:
    ok_p = found["precision"] >= TARGET_PRECISION
    ok_r = found["recall"] >= TARGET_RECALL
    ok_t = found["check_s"] < TARGET_SECONDS
    rows = [
        [
            "precision of the stale flags",
            f"{found['precision']:.3f} ({found['tp']} of {found['tp'] + found['fp']} flagged)",
            f"≥ {TARGET_PRECISION}: {common.verdict(ok_p)}",
        ],
        [
            "recall of the stale flags",
            f"{found['recall']:.3f} ({found['tp']} of {found['stale']} stale)",
            f"≥ {TARGET_RECALL}: {common.verdict(ok_r)}",
        ],
        [
            "renamed files followed to their new path",
            f"{found['followed']} of {found['renamed']}",
            "none",
        ],
        [
            "the worker's check, a new HEAD or working tree (`state_key` + `check`)",
            f"median {common.ms(found['check_s'])}, p95 {common.ms(found['check_p95_s'])}",
            f"< {TARGET_SECONDS:.0f} s: {common.verdict(ok_t)}",
        ],
        [
            "the worker when nothing changed (`state_key` only)",
            f"median {common.ms(found['key_s'])}",
            "none",
        ],
    ]
    lines = [
        f"A generated history of {found['commits']} commits (seed {args.seed}) over {found['files']:,} files at the end; "
        f"{found['memories']:,} memories anchored along it to {found['anchored_files']:,} distinct files, "
        f"{found['stale']} of them stale at the end by the generator's own truth "
        f"(edits, renames with and without edits, deletions, folder moves, reverts to an earlier content, branches merged with --no-ff or left, 5 uncommitted edits).",
        "",
        common.table(["case", "figure", "target"], rows),
    ]
    if found["misses"]:
        lines += ["", "First misses:", *(f"- {m}" for m in found["misses"])]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--memories", type=int, default=1_000)
    parser.add_argument("--commits", type=int, default=80)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--smoke", action="store_true", help="300 files, 100 memories, 60 commits, 1 run"
    )
    parser.add_argument("--write", action="store_true", help="write the section of RESULTS.md")
    args = parser.parse_args(argv)
    if args.smoke:
        args.files, args.memories, args.commits, args.runs = 300, 100, 60, 1
    args.commits = max(args.commits, 60)
    found = measure(args)
    body = report(found, args)
    print(f"## {TITLE}\n\n- date: {common.today()}\n- command: `{common.command_line()}`\n\n{body}")
    print(f"\n(history generated in {found['generated_s']:.1f} s)")
    if args.write:
        common.write_section(SECTION, TITLE, body)
    ok = found["precision"] >= TARGET_PRECISION and found["recall"] >= TARGET_RECALL
    return 0 if ok or args.smoke else 1


if __name__ == "__main__":
    raise SystemExit(main())
