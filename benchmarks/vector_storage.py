"""Where the vector layer keeps its vectors: a numpy matrix file or sqlite-vec, measured.

Both hold N random unit vectors of 256 float32 (wordllama's size) with their memory ids.
For each N, the median of ``--runs``:

- load: what a search pays before its first comparison. The matrix file: read it and wrap the
  bytes (``numpy.frombuffer``) after its JSON header; sqlite-vec: connect, load the extension,
  read the ids.
- query: the cosine of one query vector against every stored one, then the 10 best among the
  live ones (a search filters by type, project and expiry first: here every other memory).
  The matrix: one matrix-vector product; sqlite-vec: its ``vec_distance_cosine`` over the rows
  (the KNN ``MATCH`` cannot filter on our ids), and its KNN ``MATCH ... k = 10`` unfiltered.

sqlite-vec needs an ``sqlite3`` that can load extensions; many Pythons are built without it
(pyenv's and python.org's macOS builds among them): then its rows say so.

    python benchmarks/vector_storage.py [--sizes 3700,100000] [--runs 5]

Needs numpy (the ``vectors`` extra); writes nothing but temporary files.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DIM = 256
TOP = 10


def median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def vectors(n: int) -> Any:
    import numpy as np  # noqa: PLC0415 - optional

    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((n, DIM)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix


def matrix_file(folder: Path, matrix: Any, runs: int) -> tuple[float, float]:
    import numpy as np  # noqa: PLC0415

    ids = [f"ctx-{i:06d}" for i in range(len(matrix))]
    header = json.dumps({"dim": DIM, "keys": [[i, "0" * 16] for i in ids]}).encode()
    path = folder / "vectors.bin"
    path.write_bytes(len(header).to_bytes(8, "little") + header + matrix.tobytes())

    def load() -> tuple[list[Any], Any]:
        raw = path.read_bytes()
        size = int.from_bytes(raw[:8], "little")
        keys = json.loads(raw[8 : 8 + size])["keys"]
        return keys, np.frombuffer(raw, np.float32, offset=8 + size).reshape(-1, DIM)

    keys, loaded = load()
    live = np.arange(0, len(keys), 2)
    query = matrix[1]

    def ask() -> list[int]:
        sims = loaded[live] @ query
        best = np.argpartition(-sims, min(TOP, len(sims) - 1))[:TOP]
        return [int(live[i]) for i in best[np.argsort(-sims[best])]]

    return median_ms(load, runs), median_ms(ask, runs)


def sqlite_vec_db(folder: Path, matrix: Any, runs: int) -> tuple[float, float, float] | str:
    try:
        import sqlite_vec  # noqa: PLC0415 - optional
    except ImportError:
        return "skipped: sqlite-vec not installed"
    probe = sqlite3.connect(":memory:")
    if not hasattr(probe, "enable_load_extension"):
        return "skipped: this Python's sqlite3 cannot load extensions"
    path = folder / "vectors.sqlite"

    def connect() -> sqlite3.Connection:
        connection = sqlite3.connect(path)
        connection.enable_load_extension(True)  # noqa: FBT003 - sqlite3's own API
        sqlite_vec.load(connection)
        connection.enable_load_extension(False)  # noqa: FBT003
        return connection

    connection = connect()
    connection.execute(f"CREATE VIRTUAL TABLE v USING vec0(embedding float[{DIM}])")
    connection.execute("CREATE TABLE ids (rowid INTEGER PRIMARY KEY, id TEXT)")
    with connection:
        connection.executemany(
            "INSERT INTO v (rowid, embedding) VALUES (?, ?)",
            ((i + 1, row.tobytes()) for i, row in enumerate(matrix)),
        )
        connection.executemany(
            "INSERT INTO ids VALUES (?, ?)", ((i + 1, f"ctx-{i:06d}") for i in range(len(matrix)))
        )
    connection.close()

    def load() -> None:
        c = connect()
        c.execute("SELECT rowid, id FROM ids").fetchall()
        c.close()

    c = connect()
    query = matrix[1].tobytes()

    def filtered() -> list[Any]:
        return c.execute(
            "SELECT rowid, vec_distance_cosine(embedding, ?) AS d FROM v "
            "WHERE rowid % 2 = 1 ORDER BY d LIMIT ?",
            (query, TOP),
        ).fetchall()

    def knn() -> list[Any]:
        return c.execute(
            "SELECT rowid, distance FROM v WHERE embedding MATCH ? AND k = ?", (query, TOP)
        ).fetchall()

    return median_ms(load, runs), median_ms(filtered, runs), median_ms(knn, runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="3700,100000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        import numpy as np  # noqa: PLC0415
    except ImportError:
        print("skipped: numpy not installed (pip install 'artibot-memory[vectors]')")
        return 0
    print(
        f"Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, numpy {np.__version__}"
    )
    print(
        "| vectors | store | file MB | load ms | query ms (filtered top 10) | KNN ms (unfiltered) |"
    )
    print("|---|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",") if s):
        matrix = vectors(n)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            load, query = matrix_file(folder, matrix, args.runs)
            size = (folder / "vectors.bin").stat().st_size / 1e6
            print(f"| {n:,} | numpy matrix file | {size:.1f} | {load:.1f} | {query:.2f} | - |")
            found = sqlite_vec_db(folder, matrix, args.runs)
            if isinstance(found, str):
                print(f"| {n:,} | sqlite-vec | - | {found} | | |")
            else:
                size = (folder / "vectors.sqlite").stat().st_size / 1e6
                load, query, knn = found
                print(f"| {n:,} | sqlite-vec | {size:.1f} | {load:.1f} | {query:.2f} | {knn:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
