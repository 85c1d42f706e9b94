"""The optional vector layer (recall/vectors.py): keyword-only without its extra, fused with it.

The suite runs keyword-only by default (tests/conftest.py sets ARTIBOT_MEMORY_VECTORS=off),
so every other test sees the same results with or without the extra; the tests here turn
the layer on where they need it. Those that need the model skip when the extra is missing.
"""

from __future__ import annotations

import json
import logging
import socket
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from artibot_memory.api import doctor, memories
from artibot_memory.core import disk
from artibot_memory.recall import vectors
from artibot_memory.recall.search import search

NOW = "2026-03-01 12:00:00"


def _installed() -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("tokenizers")
    if not vectors.installed():
        pytest.skip("the vectors extra (wordllama's packaged model) is not installed")


@pytest.fixture
def layer_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(vectors.ENV, "on")


@pytest.fixture
def layer_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the extra were not installed, whatever this environment has."""
    monkeypatch.setenv(vectors.ENV, "on")
    monkeypatch.setattr(vectors, "_package_files", lambda: None)


def _head(path: Path) -> dict[str, Any]:
    raw = path.read_bytes()
    assert raw.startswith(disk.MATRIX_MAGIC)
    start = len(disk.MATRIX_MAGIC) + 8
    size = int.from_bytes(raw[len(disk.MATRIX_MAGIC) : start], "little")
    head: dict[str, Any] = json.loads(raw[start : start + size])
    return head


def _save_some() -> dict[str, str]:
    saved = {
        "pnpm": memories.save("preference", "Use pnpm instead of npm for JavaScript packages"),
        "deploy": memories.save("context", "Deploys go through GitHub Actions to Fly.io"),
        "stripe": memories.save("context", "The billing service talks to Stripe through a queue"),
        "pytest": memories.save("command", "pytest -q -x tests/unit"),
    }
    return {name: m.id for name, m in saved.items()}


# ---- without the extra: keyword-only, as before


def test_importing_the_layer_imports_nothing_beyond_the_standard_library() -> None:
    code = (
        "import sys; import artibot_memory.recall.vectors as v; v.mode(); "
        "print([m for m in ('numpy', 'tokenizers', 'wordllama', 'requests') if m in sys.modules])"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.usefixtures("layer_missing")
def test_without_the_extra_search_is_keyword_only() -> None:
    assert not vectors.available()
    assert vectors.mode() == vectors.KEYWORD_ONLY
    keyword: dict[int, float] = {1: 0.5}
    assert vectors.fuse(None, ".", "q", keyword, {}, "1", []) is keyword  # type: ignore[arg-type]


def test_without_the_extra_results_are_those_of_the_keyword_search(
    monkeypatch: pytest.MonkeyPatch, memory_home: Path
) -> None:
    with freeze_time(NOW):
        _save_some()
        queries = ["how do we deploy", "npm or pnpm", "kubernetes helm chart", "billing queue"]
        monkeypatch.setenv(vectors.ENV, "off")
        before = [[(h.memory.id, h.parts) for h in search(q, record=False)] for q in queries]
        monkeypatch.setenv(vectors.ENV, "on")
        monkeypatch.setattr(vectors, "_package_files", lambda: None)
        after = [[(h.memory.id, h.parts) for h in search(q, record=False)] for q in queries]
    assert after == before
    assert before[0]
    assert before[2] == []
    assert not vectors.vectors_path(memory_home).exists()


@pytest.mark.usefixtures("layer_missing")
def test_doctor_says_keyword_only_and_how_to_add_vectors(memory_home: Path) -> None:
    [check] = [c for c in doctor.diagnose(memory_home) if c.name == "search"]
    assert check.ok
    assert "mode: keyword-only" in check.line()
    assert "artibot-memory[vectors]" in check.line()


def test_the_environment_turns_the_layer_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "_package_files", lambda: (Path("w"), Path("t")))
    monkeypatch.setenv(vectors.ENV, "off")
    assert vectors.installed()
    assert not vectors.available()
    assert vectors.mode() == vectors.KEYWORD_ONLY
    [check] = [c for c in doctor.diagnose() if c.name == "search"]
    assert f"turned off by {vectors.ENV}" in check.line()
    monkeypatch.setenv(vectors.ENV, "on")
    assert vectors.mode().startswith("keyword + vectors (wordllama")


# ---- fusion, with the similarities given (no model needed)


def test_a_standing_out_vector_lifts_its_memory_above_a_keyword_tie() -> None:
    # Two memories share the query's words equally; the one whose vector stands out wins.
    assert vectors.blend(0.6, vectors.Z_FULL, 0.35) > vectors.blend(0.6, 0.0, 0.35)
    assert vectors.blend(0.6, 0.0, 0.0) == 0.6


def test_no_vector_brings_a_memory_in_when_the_keywords_found_nothing() -> None:
    z = {1: 50.0, 2: 0.0}
    assert vectors.joiners({}, z, {1, 2}) == []
    assert vectors.joiners({2: 0.4}, z, {1, 2}) == [1]
    assert vectors.joiners({2: 0.4}, z, {2}) == []  # not live: never


def _fake_similarities(
    monkeypatch: pytest.MonkeyPatch, cosine_of: dict[str, float]
) -> list[list[str]]:
    """Turn the layer on with made-up cosines (by a word of the text); record what was asked."""
    asked: list[list[str]] = []

    def similarities(_home: object, _query: str, pairs: list[tuple[str, str]]) -> list[float]:
        asked.append([memory_id for memory_id, _ in pairs])
        return [next((c for w, c in cosine_of.items() if w in text), 0.0) for _, text in pairs]

    monkeypatch.setenv(vectors.ENV, "on")
    monkeypatch.setattr(vectors, "_package_files", lambda: (Path("w"), Path("t")))
    monkeypatch.setattr(vectors, "similarities", similarities)
    monkeypatch.setattr(vectors, "known_share", lambda _query: 1.0)
    return asked


def test_a_memory_the_keywords_miss_joins_when_its_vector_stands_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with freeze_time(NOW):
        ids = _save_some()
        filler = [memories.save("context", f"note number {n} about lunch") for n in range(30)]
        _fake_similarities(monkeypatch, {"Fly.io": 0.95, "Stripe": 0.2})
        hits = search("pnpm packages shipped to production", record=False)
        unrelated = search("kubernetes helm chart", record=False)
    found = [h.memory.id for h in hits]
    assert found[0] == ids["pnpm"]  # the keywords' hit
    assert ids["deploy"] in found  # no word in common: brought in by its vector
    assert not {m.id for m in filler} & set(found)
    assert unrelated == []


def test_the_similarities_cover_every_memory_of_the_index_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with freeze_time(NOW):
        ids = _save_some()
        asked = _fake_similarities(monkeypatch, {})
        search("pnpm packages", types=["preference"], record=False)
    assert len(asked) == 1
    assert sorted(asked[0]) == sorted(ids.values())  # the file mirrors the index


# ---- forget


def test_forget_deletes_the_vectors(memory_home: Path) -> None:
    with freeze_time(NOW):
        ids = _save_some()
        path = vectors.vectors_path(memory_home)
        disk.write_matrix(path, json.dumps({"keys": [[ids["pnpm"], "0"]]}).encode(), b"\0" * 8)
        memories.forget(ids["pnpm"])
    assert not path.exists()


# ---- with the extra: the real model


@pytest.mark.usefixtures("layer_on")
def test_vectors_are_kept_beside_the_index_owner_only_without_text(memory_home: Path) -> None:
    _installed()
    with freeze_time(NOW):
        ids = _save_some()
        assert search("how do we ship to Fly.io", record=False)
    path = vectors.vectors_path(memory_home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    head = _head(path)
    assert head["model"] == vectors.MODEL
    assert head["dim"] == vectors.DIM
    assert sorted(k[0] for k in head["keys"]) == sorted(ids.values())
    assert b"Stripe" not in path.read_bytes()
    assert next(c for c in doctor.diagnose(memory_home) if c.name == "search").ok


def test_only_new_or_changed_texts_are_embedded(
    memory_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed()
    memory_home.mkdir(parents=True, exist_ok=True)
    first = vectors.memory_vectors(memory_home, [("a", "pnpm install"), ("b", "fly deploy")])
    embedded: list[list[str]] = []
    real = vectors.embed

    def counting(texts: list[str]) -> Any:
        embedded.append(list(texts))
        return real(texts)

    monkeypatch.setattr(vectors, "embed", counting)
    again = vectors.memory_vectors(memory_home, [("a", "pnpm install"), ("b", "fly deploy")])
    assert embedded == []
    assert (again == first).all()
    changed = vectors.memory_vectors(memory_home, [("a", "yarn install"), ("b", "fly deploy")])
    assert embedded == [["yarn install"]]
    assert not (changed[0] == first[0]).all()
    assert (changed[1] == first[1]).all()
    keys = dict(_head(vectors.vectors_path(memory_home))["keys"])
    assert keys == {"a": vectors.text_hash("yarn install"), "b": vectors.text_hash("fly deploy")}


@pytest.mark.parametrize("garbage", [b"", b"not a vector file", disk.MATRIX_MAGIC + b"\xff" * 40])
@pytest.mark.usefixtures("layer_on")
def test_a_damaged_vector_file_is_built_again(memory_home: Path, garbage: bytes) -> None:
    _installed()
    with freeze_time(NOW):
        ids = _save_some()
        path = vectors.vectors_path(memory_home)
        path.write_bytes(garbage)
        hits = search("how do we deploy", record=False)
    assert ids["deploy"] in [h.memory.id for h in hits]
    assert sorted(k[0] for k in _head(path)["keys"]) == sorted(ids.values())


@pytest.mark.usefixtures("layer_on")
def test_with_vectors_an_unrelated_query_still_returns_nothing() -> None:
    _installed()
    with freeze_time(NOW):
        _save_some()
        assert search("kubernetes helm chart", record=False) == []
        assert search("payroll schedule for march", record=False) == []
        assert search("how do we deploy", record=False)


@pytest.mark.usefixtures("layer_on")
def test_forget_deletes_the_vectors_a_search_wrote(memory_home: Path) -> None:
    _installed()
    with freeze_time(NOW):
        ids = _save_some()
        search("how do we deploy", record=False)
        path = vectors.vectors_path(memory_home)
        assert path.exists()
        memories.forget(ids["deploy"])
        assert not path.exists()
        search("how do we deploy", record=False)
    assert ids["deploy"] not in [k[0] for k in _head(path)["keys"]]


def test_the_model_loads_with_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    _installed()

    def refuse(*_args: object, **_kwargs: object) -> None:
        msg = "no network in this test"
        raise OSError(msg)

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    vectors._model.cache_clear()  # noqa: SLF001 - load it again, here
    try:
        found = vectors.embed(["pytest fails with ImportError", "the tests cannot import a module"])
    finally:
        vectors._model.cache_clear()  # noqa: SLF001
    assert found.shape == (2, vectors.DIM)
    assert float(found[0] @ found[0]) == pytest.approx(1.0, abs=1e-5)
    assert float(found[0] @ found[1]) > 0.3


def test_the_embedding_is_wordllamas_own() -> None:
    _installed()
    wordllama = pytest.importorskip("wordllama")
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        files = vectors._package_files()  # noqa: SLF001
        assert files is not None
        folder = files[0].parent.parent
        # The library's loader finds its packaged tokenizer only when told the package
        # folder is its cache (it looks under tokenizer/, the wheel has tokenizers/).
        model = wordllama.WordLlama.load(cache_dir=folder, disable_download=True)
        texts = ["Use pnpm instead of npm", "배포는 GitHub Actions로 한다", "x"]
        theirs = model.embed(texts, norm=True)
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    ours = vectors.embed(texts)
    assert abs(ours - theirs).max() < 1e-4
