"""Every writer of the package goes through ``core/disk.py``, the one redacting write path.

Static: every module but ``core/disk.py`` is read with ``ast``, and any call that can put
bytes in a file fails the test: ``open`` for writing, ``os.open`` with anything but
``O_RDONLY``, ``os.write``, ``os.fdopen``, ``Path.write_text``/``write_bytes``/``open`` for
writing, ``tempfile``, ``shutil`` copies and moves, ``sqlite3.connect``, ``os.ftruncate``,
``print(file=...)``, and a subprocess whose output goes anywhere but a pipe or
``/dev/null``. A new file cannot forget redaction: its writer would have to be here.

Behaviour: each writer of ``disk`` redacts what it is handed, JSON documents included,
even when a secret hides behind a JSON escape.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

from artibot_memory.core import disk

PACKAGE = Path(__file__).resolve().parent.parent / "artibot_memory"
WRITE_PATH = PACKAGE / "core" / "disk.py"
GITHUB = "ghp_" + "Zq8Rw2Lx5Nc1Vb7Hd4Kt9Mp3Jf6Gs0Ya2Ue"  # 36 random-looking characters
WRITE_MODE_CHARS = set("wax+")
FORBIDDEN_ATTRIBUTES = {
    ("os", "write"),
    ("os", "ftruncate"),
    ("os", "truncate"),
    ("os", "pwrite"),
    ("os", "sendfile"),
    ("sqlite3", "connect"),
    ("shutil", "copy"),
    ("shutil", "copy2"),
    ("shutil", "copyfile"),
    ("shutil", "copyfileobj"),
    ("shutil", "copytree"),
    ("shutil", "move"),
    ("tempfile", "mkstemp"),
    ("tempfile", "NamedTemporaryFile"),
    ("tempfile", "TemporaryFile"),
    ("tempfile", "SpooledTemporaryFile"),
}
FORBIDDEN_METHODS = {"write_text", "write_bytes", "touch"}
SUBPROCESS_CALLS = {"run", "Popen", "call", "check_call", "check_output"}
HARMLESS_STREAMS = {"DEVNULL", "PIPE", "STDOUT", "None"}


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p != WRITE_PATH)


def _literal_mode(call: ast.Call, position: int) -> str | None:
    """The mode of an ``open`` call as a literal, "r" when left out, None when computed."""
    mode: ast.expr | None = call.args[position] if len(call.args) > position else None
    for keyword in call.keywords:
        if keyword.arg == "mode":
            mode = keyword.value
    if mode is None:
        return "r"
    return mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else None


def _flags_read_only(call: ast.Call) -> bool:
    """True when the flags of an ``os.open`` name O_RDONLY and no flag that writes."""
    if len(call.args) < 2:  # os.open(path, flags, ...)
        return False
    names = {n.attr for n in ast.walk(call.args[1]) if isinstance(n, ast.Attribute)}
    names |= {n.value for n in ast.walk(call.args[1]) if isinstance(n, ast.Constant)}  # type: ignore[misc]
    writes = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC", "O_EXCL"}
    return "O_RDONLY" in names and not names & writes


def _is_devnull(call: ast.Call) -> bool:
    return bool(call.args) and ast.unparse(call.args[0]) == "os.devnull"


def _stream_name(value: ast.expr) -> str:
    if isinstance(value, ast.Attribute):
        return value.attr
    if isinstance(value, ast.Constant):
        return repr(value.value)
    return ast.unparse(value)


def _writes_by_name(call: ast.Call, name: str) -> bool:
    if name == "open":
        mode = _literal_mode(call, 1)
        return mode is None or bool(WRITE_MODE_CHARS & set(mode))
    return name == "print" and any(k.arg == "file" for k in call.keywords)


def _writes_by_attribute(call: ast.Call, owner: str | None, attr: str) -> bool:
    if owner == "disk":
        return False  # the write path itself
    if (owner, attr) in FORBIDDEN_ATTRIBUTES or attr in FORBIDDEN_METHODS:
        return True
    if owner == "os" and attr == "open":
        return not (_flags_read_only(call) or _is_devnull(call))
    if attr in ("open", "fdopen"):  # os.fdopen(fd, mode), Path.open(mode)
        mode = _literal_mode(call, 1 if owner == "os" else 0)
        return mode is None or bool(WRITE_MODE_CHARS & set(mode))
    if owner == "subprocess" and attr in SUBPROCESS_CALLS:
        streams = [k.value for k in call.keywords if k.arg in ("stdout", "stderr")]
        return any(_stream_name(s) not in HARMLESS_STREAMS for s in streams)
    return False


def writes_in(tree: ast.AST) -> list[tuple[int, str]]:
    """Every call of ``tree`` that can write a file, with its line."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            writes = _writes_by_name(node, func.id)
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            writes = _writes_by_attribute(node, owner, func.attr)
        else:
            writes = False
        if writes:
            found.append((node.lineno, ast.unparse(node)[:100]))
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_but_core_disk_writes_a_file(path: Path) -> None:
    found = writes_in(ast.parse(path.read_text(encoding="utf-8")))
    assert found == [], f"{path.name} writes outside core/disk.py (the redacting path): {found}"


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("open(p, 'w')", True),
        ("open(p, mode='ab')", True),
        ("open(p, m)", True),
        ("open(p)", False),
        ("open(p, 'rb')", False),
        ("os.open(p, os.O_RDONLY | NOFOLLOW)", False),
        ("os.open(p, os.O_WRONLY | os.O_CREAT)", True),
        ("os.open(p, flags)", True),
        ("os.write(fd, b'x')", True),
        ("os.fdopen(fd, 'wb')", True),
        ("os.fdopen(fd, 'rb')", False),
        ("os.open(os.devnull, os.O_WRONLY)", False),
        ("disk.write_text(p, 'x')", False),
        ("Path(p).write_text('x')", True),
        ("path.open('a')", True),
        ("path.open()", False),
        ("sqlite3.connect(p)", True),
        ("shutil.copy2(a, b)", True),
        ("tempfile.mkstemp()", True),
        ("subprocess.run(argv, stdout=log)", True),
        ("subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)", False),
        ("subprocess.Popen(argv, stdout=subprocess.DEVNULL)", False),
        ("print('x', file=handle)", True),
        ("print('x')", False),
    ],
)
def test_the_scan_sees_each_kind_of_write(source: str, *, caught: bool) -> None:
    assert bool(writes_in(ast.parse(source))) is caught


# ---- each writer redacts


def test_write_text_redacts(tmp_path: Path) -> None:
    disk.write_text(tmp_path / "a.md", f"- the token is {GITHUB}\n")
    assert GITHUB not in (tmp_path / "a.md").read_text()
    assert oct((tmp_path / "a.md").stat().st_mode & 0o777) == "0o600"


def test_write_document_redacts_a_secret_behind_a_json_escape(tmp_path: Path) -> None:
    document = json.dumps({"text": f"line one\n{GITHUB}", "n": 3}).encode()
    disk.write_document(tmp_path / "d.json", document)
    written = json.loads((tmp_path / "d.json").read_text())
    assert written == {"text": "line one\n[REDACTED:github-token]", "n": 3}


def test_a_clean_document_is_written_byte_for_byte(tmp_path: Path) -> None:
    document = b'{"schema_version":3,"entries":[{"text":"use pnpm\\n","id":"a1b2c3d4e5f6"}]}'
    disk.write_document(tmp_path / "d.json", document)
    assert (tmp_path / "d.json").read_bytes() == document


def test_a_document_of_session_ids_is_written_byte_for_byte(tmp_path: Path) -> None:
    session = "bf94da03-d611-4290-9869-acf21951c67b"
    data = (
        f'{{"entries": [\n{{"id": "ctx-1", "key": "session:{session}",'
        f' "source": {{"session_id": "{session}"}}, "text": "ok"}}\n]}}'
    ).encode()
    target = tmp_path / "store.json"
    assert disk.write_document(target, data) == data  # no UUID is read as a printed token
    assert target.read_bytes() == data


def test_json_lines_are_checked_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"")
    fd = disk.open_rewrite(str(path))
    try:
        lines = [json.dumps({"a": 1}), json.dumps({"b": f"x\t{GITHUB}"}), "not json " + GITHUB]
        disk.rewrite_lines(fd, "\n".join(lines).encode())
    finally:
        os.close(fd)
    text = path.read_text()
    assert GITHUB not in text
    assert json.loads(text.splitlines()[0]) == {"a": 1}


def test_appends_redact_values_before_encoding(tmp_path: Path) -> None:
    path = str(tmp_path / "log")
    fd = disk.open_append(path)
    try:
        disk.append_line(fd, {"command": f"echo {GITHUB}"}, lambda v: json.dumps(v).encode())
    finally:
        os.close(fd)
    disk.append_text(path, f"\nfailed: {GITHUB}\n")
    assert GITHUB not in Path(path).read_text()


def test_a_lock_holds_redacted_text_and_is_exclusive(tmp_path: Path) -> None:
    lock = str(tmp_path / "lock")
    assert disk.create_exclusive(lock, f"{GITHUB}\n") is True
    assert disk.create_exclusive(lock, "again") is False
    assert GITHUB not in Path(lock).read_text()


def test_a_child_process_output_is_logged_redacted(tmp_path: Path) -> None:
    import sys  # noqa: PLC0415

    log = disk.Log(str(tmp_path / "build.log"))
    log.run([sys.executable, "-c", f"print('Looking in indexes: {GITHUB}')"], timeout=60)
    text = (tmp_path / "build.log").read_text()
    assert "Looking in indexes: [REDACTED:github-token]" in text


def test_a_failing_child_raises_after_its_output_is_logged(tmp_path: Path) -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    log = disk.Log(str(tmp_path / "build.log"))
    with pytest.raises(subprocess.CalledProcessError):
        log.run([sys.executable, "-c", "import sys; print('boom'); sys.exit(3)"], timeout=60)
    assert "boom" in (tmp_path / "build.log").read_text()


def test_without_the_redactor_every_string_is_withheld(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys  # noqa: PLC0415

    monkeypatch.setitem(sys.modules, "artibot_memory.core.redact", None)  # the import fails
    assert disk.clean({"a": [f"x {GITHUB}"], "n": 1}) == {"a": [disk.WITHHELD], "n": 1}
