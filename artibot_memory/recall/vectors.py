"""The optional vector layer: embeddings from wordllama's packaged model, fused with BM25.

``pip install 'artibot-memory[vectors]'`` brings numpy and wordllama, whose wheel holds the
weights (``weights/l2_supercat_256.safetensors``, 32,000 tokens x 256, float16) and the
tokenizer (``tokenizers/l2_supercat_tokenizer_config.json``): nothing is downloaded, ever,
so the layer works offline and in CI. Without the extra every function here answers "not
available" and search is keyword-only, exactly as before. ``ARTIBOT_MEMORY_VECTORS=off``
turns the layer off with the extra installed (the benchmarks compare both in one run).

wordllama's own loader is not used: ``WordLlama.load()`` looks the packaged tokenizer up
under ``wordllama/tokenizer/`` while the wheel ships it under ``wordllama/tokenizers/``, then
falls back to a download from Hugging Face (offline: ``FileNotFoundError``); and importing
``wordllama`` calls ``logging.basicConfig`` (a stderr handler on the root logger of the
hook's process) and imports requests, pydantic configs and toml. Its model is a token
embedding table, mean-pooled and normalised: that is done here in a few lines, from the
package's files found with ``importlib.util.find_spec`` (wordllama itself is never
imported), the weights memory-mapped (a query touches only its tokens' rows).

Nothing is imported at module level beyond the standard library: numpy and tokenizers are
imported inside the functions that need them, so importing this module costs nothing.

The vectors of the memories are kept in ``vectors.bin`` beside ``index.sqlite`` (0600,
written through :func:`artibot_memory.core.disk.write_matrix`): a JSON head (the model, the
dimension, and per row the memory's id and a hash of its text, never the text) and a
float32 matrix. A memory whose id or text hash has no row is embedded when a search next
needs it (a changed text gets a new vector); the file then holds exactly the memories of the
index. Like the index it is disposable: missing, unreadable or of another model, it is
built again; forgetting a memory deletes it (:mod:`artibot_memory.api.memories`). The texts
come from the index, a copy of the stores, which hold only redacted text.

Why a matrix file and not sqlite-vec (``benchmarks/vector_storage.py``, 256-d float32, median
of 7): at 3,700 vectors (the stores' caps) the file loads in 1.8-2.9 ms and a filtered top 10
takes 0.4-1.4 ms, against 4.0 ms and 28 ms for sqlite-vec's ``vec_distance_cosine`` (its KNN
``MATCH``, 2.8 ms, cannot filter on the live memories); at 100,000 vectors, 198 ms and 35 ms
against 107 ms and 671 ms (KNN 84 ms). And sqlite-vec needs an ``sqlite3`` built to load
extensions, which pyenv's Python and python.org's macOS builds are not.

How vectors join the score (:func:`fuse`; the constants below were tuned on the agent set's
``tune`` seed and devbench only). Raw cosines of this model crowd together (unrelated texts
reach 0.8 as easily as answers do), so what counts is how far a memory stands out from the
live memories the search may return, as a z-score::

    z         = (cosine - mean of the live memories' cosines) / their standard deviation
    semantic  = clamp((z - Z_ZERO) / (Z_FULL - Z_ZERO), 0, 1)
    weight    = VECTOR_WEIGHT * the share of the query's tokens the model has a word for
    keyword'  = (1 - weight) * keyword + weight * semantic

``keyword'`` takes the keyword part's place in 0.60 keyword + 0.25 recency + 0.15
frequency. The weight shrinks for a query the tokenizer spells as raw bytes (Hangul mostly,
which Llama 2's vocabulary lacks): its vector says little. A memory the keywords missed
joins the hits when it is among the ``JOIN_TOP`` nearest with a z-score of at least
``JOIN_Z``, and only when the keywords found something: "nothing relevant" stays the
keywords' coverage rule, so a question about nothing stored still returns nothing.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3

from artibot_memory.core import disk

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any

VECTORS_NAME = "vectors.bin"
ENV = "ARTIBOT_MEMORY_VECTORS"  # "off" (or 0, no, false): keyword-only with the extra installed
MODEL = "wordllama l2_supercat"
DIM = 256
WEIGHTS = ("weights", "l2_supercat_256.safetensors")
TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")
TENSOR = "embedding.weight"
KEYWORD_ONLY = "keyword-only"

VECTOR_WEIGHT = 0.35  # the share of the keyword part that is semantic (for a fully known query)
Z_ZERO = 1.0  # a cosine this many deviations above the live memories' mean adds nothing ...
Z_FULL = 3.0  # ... and from this many on, all it can
JOIN_Z = 4.5  # a memory the keywords missed joins from this z-score on ...
JOIN_TOP = 3  # ... among the nearest few, and only when the keywords found something
BYTE_TOKENS = (3, 259)  # Llama 2's byte pieces <0x00>..<0xFF>
_OFF = frozenset({"0", "off", "no", "false"})


def enabled() -> bool:
    """Whether the environment leaves the layer on (``ARTIBOT_MEMORY_VECTORS``)."""
    return os.environ.get(ENV, "").strip().lower() not in _OFF


@functools.cache
def _package_files() -> tuple[Path, Path] | None:
    """Return the packaged weights and tokenizer of wordllama, found without importing it."""
    import importlib.util  # noqa: PLC0415 - a read without vectors need not pay for it

    for name in ("numpy", "tokenizers"):
        if importlib.util.find_spec(name) is None:
            return None
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        return None
    from pathlib import Path  # noqa: PLC0415 - nor for pathlib (a few ms a prompt)

    folder = Path(next(iter(spec.submodule_search_locations)))
    weights, tokenizer = folder.joinpath(*WEIGHTS), folder.joinpath(*TOKENIZER)
    return (weights, tokenizer) if weights.is_file() and tokenizer.is_file() else None


def installed() -> bool:
    """Whether the ``vectors`` extra is installed (numpy, tokenizers, wordllama's files)."""
    return _package_files() is not None


def available() -> bool:
    """Whether search uses vectors: the extra is installed and not turned off."""
    return enabled() and installed()


def mode() -> str:
    """Say which search is active, as ``doctor`` shows it.

    >>> mode() in {KEYWORD_ONLY, f"keyword + vectors ({MODEL}, {DIM}-d)"}
    True
    """
    return f"keyword + vectors ({MODEL}, {DIM}-d)" if available() else KEYWORD_ONLY


def vectors_path(home: str | os.PathLike[str]) -> Path:
    """Return where a memory home keeps its vectors."""
    from pathlib import Path  # noqa: PLC0415 - see _package_files

    return Path(home) / VECTORS_NAME


def remove(home: str | os.PathLike[str]) -> None:
    """Delete the vectors of a home (the next search with vectors embeds them again)."""
    vectors_path(home).unlink(missing_ok=True)


# ---- the model


class _Model:
    """wordllama's token table, memory-mapped, and its tokenizer: mean-pooled, normalised."""

    def __init__(self, weights: Path, tokenizer: Path) -> None:
        import numpy as np  # noqa: PLC0415 - the extra's, only when vectors are used
        from tokenizers import Tokenizer  # noqa: PLC0415

        self._np = np
        self.table = _mapped_tensor(weights, TENSOR)
        self.tokenizer = Tokenizer.from_file(str(tokenizer))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()

    def embed(self, texts: Sequence[str]) -> Any:
        """Return one unit vector (float32) per text; an empty text gets zeros."""
        np = self._np
        out = np.zeros((len(texts), self.table.shape[1]), dtype=np.float32)
        if not texts:
            return out
        encoded = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        for row, encoding in enumerate(encoded):
            ids = np.asarray(encoding.ids, dtype=np.int64)
            ids = ids[(ids >= 0) & (ids < self.table.shape[0])]
            if ids.size:
                out[row] = self.table[ids].astype(np.float32).mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out


def _mapped_tensor(path: Path, name: str) -> Any:
    """Memory-map one tensor of a safetensors file (8-byte head length, JSON head, data)."""
    import numpy as np  # noqa: PLC0415

    dtypes = {"F16": np.float16, "F32": np.float32}
    with path.open("rb") as handle:
        size = int.from_bytes(handle.read(8), "little")
        head = json.loads(handle.read(size))
    info = head[name]
    start, _end = info["data_offsets"]
    shape = tuple(int(n) for n in info["shape"])
    return np.memmap(
        path, dtype=dtypes[info["dtype"]], mode="r", offset=8 + size + start, shape=shape
    )


@functools.cache
def _model() -> _Model:
    files = _package_files()
    if files is None:
        msg = "the vectors extra is not installed"
        raise ImportError(msg)
    return _Model(*files)


def embed(texts: Sequence[str]) -> Any:
    """Return the unit vectors of ``texts`` (numpy float32, one row each)."""
    return _model().embed(texts)


# ---- the vectors of the memories, cached beside the index


def text_hash(text: str) -> str:
    """Return the key of a text's vector: a changed text is embedded again.

    >>> text_hash("pnpm, not npm") == text_hash("pnpm, not npm") != text_hash("npm")
    True
    """
    import hashlib  # noqa: PLC0415 - only where vectors are on

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _read(path: Path) -> tuple[dict[tuple[str, str], int], Any]:
    """Return the cached rows (id, hash) -> row and the matrix; empty when unusable."""
    import numpy as np  # noqa: PLC0415

    empty: tuple[dict[tuple[str, str], int], Any] = ({}, np.zeros((0, DIM), np.float32))
    try:
        raw = path.read_bytes()
    except OSError:
        return empty
    magic = disk.MATRIX_MAGIC
    try:
        if not raw.startswith(magic):
            return empty
        size = int.from_bytes(raw[len(magic) : len(magic) + 8], "little")
        start = len(magic) + 8
        head = json.loads(raw[start : start + size])
        keys = [(str(k[0]), str(k[1])) for k in head["keys"]]
        if head.get("model") != MODEL or head.get("dim") != DIM:
            return empty
        matrix = np.frombuffer(raw, dtype="<f4", offset=start + size)
        if matrix.size != len(keys) * DIM:
            return empty
    except (ValueError, KeyError, TypeError, IndexError):
        return empty
    return {key: row for row, key in enumerate(keys)}, matrix.reshape(len(keys), DIM)


def _write(path: Path, keys: list[tuple[str, str]], matrix: Any) -> None:
    head = json.dumps({"model": MODEL, "dim": DIM, "keys": keys}, separators=(",", ":"))
    disk.write_matrix(path, head.encode("utf-8"), matrix.astype("<f4").tobytes())


def memory_vectors(home: str | os.PathLike[str], memories: Sequence[tuple[str, str]]) -> Any:
    """Return the unit vectors of ``memories`` ((id, text) pairs), in their order.

    Cached rows are reused; the missing ones are embedded, and the file is rewritten to
    hold exactly ``memories`` (pass every memory of the index, so it mirrors the index).
    A home that does not exist is not created: its vectors are computed and not kept.
    """
    import numpy as np  # noqa: PLC0415

    path = vectors_path(home)
    cached, matrix = _read(path)
    keys = [(memory_id, text_hash(text)) for memory_id, text in memories]
    out = np.zeros((len(keys), DIM), dtype=np.float32)
    missing = []
    for row, key in enumerate(keys):
        found = cached.get(key)
        if found is None:
            missing.append(row)
        else:
            out[row] = matrix[found]
    if missing:
        out[missing] = embed([memories[row][1] for row in missing])
    if (missing or len(cached) != len(keys)) and os.path.isdir(home):
        _write(path, keys, out)
    return out


def similarities(
    home: str | os.PathLike[str], query: str, memories: Sequence[tuple[str, str]]
) -> list[float]:
    """Return the cosine of ``query`` with each of ``memories`` ((id, text) pairs), in order."""
    if not memories:
        return []
    matrix = memory_vectors(home, memories)
    return [float(x) for x in matrix @ embed([query])[0]]


# ---- fusion with the keyword score


def semantic(z: float) -> float:
    """Map a cosine's z-score among the live memories onto [0, 1].

    >>> semantic(Z_FULL), semantic(Z_ZERO), semantic(-1.0)
    (1.0, 0.0, 0.0)
    """
    return min(1.0, max(0.0, (z - Z_ZERO) / (Z_FULL - Z_ZERO)))


def blend(keyword: float, z: float, weight: float) -> float:
    """Return the keyword part with vectors: BM25's keyword score and the semantic one.

    >>> blend(1.0, Z_FULL, 0.4), blend(0.5, Z_ZERO, 0.0)
    (1.0, 0.5)
    """
    return (1.0 - weight) * keyword + weight * semantic(z)


def z_scores(cosines: dict[int, float], live: set[int]) -> dict[int, float]:
    """Return each cosine as standard deviations above the live memories' mean.

    >>> z = z_scores({1: 0.9, 2: 0.1, 3: 0.1, 4: 0.1}, {1, 2, 3, 4})
    >>> round(z[1], 2), round(z[2], 2)
    (1.73, -0.58)
    """
    values = [cosines[rowid] for rowid in live if rowid in cosines]
    if len(values) < 2:  # noqa: PLR2004 - a spread needs two
        return dict.fromkeys(cosines, 0.0)
    mean = sum(values) / len(values)
    spread = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5 or 1.0
    return {rowid: (cosine - mean) / spread for rowid, cosine in cosines.items()}


def joiners(keyword: dict[int, float], z: dict[int, float], live: set[int]) -> list[int]:
    """Return the live memories the keywords missed that vectors bring in (see the module).

    >>> joiners({1: 0.9}, {1: 5.0, 2: 4.6, 3: 0.3}, {1, 2, 3})
    [2]
    >>> joiners({}, {2: 9.0}, {2})
    []
    """
    if not keyword:  # the keywords' coverage rule found the query about nothing stored
        return []
    near = sorted(
        (rowid for rowid in live if rowid not in keyword and z.get(rowid, 0.0) >= JOIN_Z),
        key=lambda rowid: -z[rowid],
    )
    return near[:JOIN_TOP]


def known_share(text: str) -> float:
    """Return the share of a text's tokens the model has a word for (not raw UTF-8 bytes).

    wordllama's tokenizer (Llama 2's) spells what it has no piece for, Hangul mostly, as
    bytes, whose vectors say little: a query in such words leans on its keywords.
    """
    ids = _model().tokenizer.encode(text, add_special_tokens=False).ids
    return (
        sum(1 for i in ids if not BYTE_TOKENS[0] <= i < BYTE_TOKENS[1]) / len(ids) if ids else 0.0
    )


def fuse(  # noqa: PLR0917 - the one call site passes the search's own values in order
    connection: sqlite3.Connection,
    home: str | os.PathLike[str],
    query: str,
    keyword: dict[int, float],
    rows: dict[int, tuple[int | None, int]],
    where: str,
    params: list[object],
) -> dict[int, float]:
    """Return the keyword part of each hit with vectors blended in, joiners included.

    ``keyword``: rowid -> BM25 keyword score of the hits; ``rows``: rowid -> (last seen,
    uses) of those hits, to which the joiners' rows are added; ``where``/``params``: the
    condition a live memory meets (``m.`` the memories table of ``index.sqlite``). Without
    vectors, or when they fail (a damaged file is rebuilt on the next write; a database
    without JSON functions), ``keyword`` comes back as it is.
    """
    if not available():
        return keyword
    try:
        sql = (
            "SELECT m.rowid, m.id, json_extract(d.doc, '$.text'), m.last_seen_us, m.access_count, "  # noqa: S608 - our own condition, values bound
            f"CASE WHEN {where} THEN 1 ELSE 0 END "
            "FROM memories AS m JOIN docs AS d ON d.rowid = m.rowid ORDER BY m.rowid"
        )
        found = connection.execute(sql, params).fetchall()
        pairs = [(row[1], row[2] if isinstance(row[2], str) else "") for row in found]
        cosine_list = similarities(home, query, pairs)
        weight = VECTOR_WEIGHT * known_share(query)
    except (sqlite3.Error, OSError, ValueError, ImportError, RuntimeError):
        return keyword
    live = {row[0] for row in found if row[5]}
    z = z_scores({row[0]: c for row, c in zip(found, cosine_list, strict=True)}, live)
    fused = {rowid: blend(score, z.get(rowid, 0.0), weight) for rowid, score in keyword.items()}
    by_rowid = {row[0]: row for row in found}
    for rowid in joiners(keyword, z, live) if weight > 0 else []:
        fused[rowid] = blend(0.0, z[rowid], weight)
        rows[rowid] = (by_rowid[rowid][3], int(by_rowid[rowid][4]))
    return fused
