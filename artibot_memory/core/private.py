"""What is kept out of memory: ``<private>`` blocks, and the folders where capture is off.

People keep things out of a colleague's notes in two ways: "this part stays between us"
and "no notes in this room". Here they are ``<private>`` blocks in what is typed or read,
and folders where capture is off. Both are decided here, with the standard library only:
the hook that runs after every tool call asks.

**<private> blocks.** Text between ``<private>`` and ``</private>`` is never captured:
:func:`strip_private` replaces each block, tags included, by :data:`MARKER`
(``[REDACTED:private]``), so a reader sees that something was left out; the rest stays.

* Tags are case-insensitive (``<PRIVATE>``, ``<Private>``); an opening tag may carry
  attributes (``<private reason="client">``). ``<private-key>`` or ``<privateKey>`` is
  another tag.
* Blocks nest: a block ends at the ``</private>`` that closes its first opening tag.
  Several blocks in one text are replaced one by one.
* Fail closed: an opening tag never closed hides everything to the end of that text (a
  forgotten closing tag, or a block cut short by a truncation, keeps its secret), and a
  closing tag with no opening tag before it hides everything from the start of that text
  (the opening tag was cut off, or was in an earlier text).
* A tag between backticks (`` `<private>` ``) is a mention, not a tag: that is how people
  write about the tag itself.
* "That text" is one string: a prompt, one field of a tool's input or output, one block
  of a transcript row.

Where it is applied: every string the package writes goes through
:func:`artibot_memory.core.redact.redact`, which strips private blocks before its secret
rules, so the journal, the stores, the index, the notes, MEMORY.md, the summaries, the
logs and the caches are all covered by that one call. Before it, the hooks strip the
payload they are handed (:func:`scrub`) and the transcript reader each row that holds the
word "private", so what reads a text to decide what to keep (the preference detector, the
decision finder, error signatures, recall's query) never sees a private block either.
Text the agent repeats outside the tags is not recognised: only the tags say what is
private.

**Capture off.** Nothing of a session is recorded (:func:`capture_off` says why) when

* the project's ``.artibot-memory.toml`` (at its git top-level) says ``capture = false``;
* the memory home's ``config.toml`` says ``capture = false`` (everywhere);
* the session's working directory is at or under a folder ``ignore_paths`` names
  (``[capture]`` table of ``config.toml``, or of the project's file);
* a capture setting cannot be read: a settings file that mentions ``capture`` but is not
  valid TOML, a file that exists but cannot be opened, a wrong type, an unknown
  ``capture.*`` name (fail closed, until it is fixed; ``doctor`` and ``config`` say so).

Any one of these turns capture off; none turns it back on. ``ignore_paths`` patterns
(:func:`glob_regex`): ``~`` is expanded; ``*`` and ``?`` match within one folder name,
``**`` across folders, ``[abc]`` one of the characters; a pattern names a folder and
everything under it (``~/work/client`` and ``~/work/client/**`` are the same); a pattern
that does not start with ``/`` or ``~`` matches at any depth (``scratch`` is every folder
named scratch); letters match in either case (fail closed, as macOS's file system does).
The working directory is matched as the hook gives it and with its symlinks resolved.

What it costs a hook: the two files are opened (absent, for most people), the folders
are walked up to the git top-level, and a file is parsed only when it holds the word
``capture``: first by :func:`quick_read`, which reads the documented forms with a regex
in microseconds and says "not sure" for anything else; only then by ``tomllib`` (7 ms to
import), which a hook under Python 3.9 or 3.10 without ``site`` lacks, and then capture
is off (fail closed). No cache: nothing is written to decide.

>>> strip_private("deploy with <private>hunter2</private> on staging")
'deploy with [REDACTED:private] on staging'
>>> strip_private("비밀번호는 <PRIVATE>1234</Private>이고, 서버는 <private>kr-7")
'비밀번호는 [REDACTED:private]이고, 서버는 [REDACTED:private]'
"""

from __future__ import annotations

import os
import re

# The settings, the home and the project are imported where capture is decided: the
# redactor imports this module for strip_private, and its users need nothing else.
TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from collections.abc import Iterable

MARKER = "[REDACTED:private]"
MAX_DEPTH = 100  # as the redactor: a subtree deeper than this is not looked into, but dropped

# `<private>`, `<private attr="…">`, `</private>`, and an opening tag cut off at the end.
# Patterns are kept as text and compiled by `re` on first use (its own cache after that):
# compiling them when this module is imported would cost every hook, which imports it.
_TAG = r"<(/?)private(?:\s[^<>]*)?(?:>|\Z)"
_HINT = rb"private"


# ---- <private> blocks ----------------------------------------------------------------


def strip_private(text: str) -> str:
    """Return ``text`` with each ``<private>`` block replaced by :data:`MARKER`.

    A text without ``<`` costs one ``in`` test; one without a tag, one regex search.

    >>> strip_private("a <private>b <private>c</private> d</private> e")
    'a [REDACTED:private] e'
    >>> strip_private("cut</private> kept"), strip_private("the `<private>` tag")
    ('[REDACTED:private] kept', 'the `<private>` tag')
    """
    if "<" not in text:
        return text
    tags = [tag for tag in re.finditer(_TAG, text, re.IGNORECASE) if not _mentioned(text, tag)]
    if not tags:
        return text
    pieces: list[str] = []
    depth, kept_from = 0, 0
    for tag in tags:
        if not tag.group(1):  # an opening tag
            if depth == 0:
                pieces.append(text[kept_from : tag.start()])
            depth += 1
        elif depth == 0:  # a closing tag with no opening one: hidden from the start
            pieces = [MARKER]
            kept_from = tag.end()
        else:
            depth -= 1
            if depth == 0:
                pieces.append(MARKER)
                kept_from = tag.end()
    pieces.append(MARKER if depth else text[kept_from:])
    return "".join(pieces)


def _mentioned(text: str, tag: re.Match[str]) -> bool:
    """Tell whether a tag is written between backticks: a mention of the tag, not one."""
    start, end = tag.start(), tag.end()
    return start > 0 and text[start - 1] == "`" and text[end : end + 1] == "`"


def has_private(text: str) -> bool:
    """Tell whether ``text`` holds a tag :func:`strip_private` acts on.

    >>> has_private("<Private>x"), has_private("private key"), has_private("`</private>`")
    (True, False, False)
    """
    return strip_private(text) is not text


def scrub(value: object, depth: int = 0) -> object:
    """Strip private blocks from every string in ``value``; dicts and lists are changed in place.

    Returns ``value`` (a new one for a string or a tuple that changed). Keys are stripped
    too. A subtree deeper than :data:`MAX_DEPTH` becomes :data:`MARKER`: never handed on
    unread.

    >>> payload = {"tool_input": {"command": "echo <private>s3cr3t</private>"}}
    >>> scrub(payload) is payload, payload
    (True, {'tool_input': {'command': 'echo [REDACTED:private]'}})
    """
    if isinstance(value, str):
        return strip_private(value)
    if depth > MAX_DEPTH and isinstance(value, (dict, list, tuple)):
        return MARKER
    if isinstance(value, dict):
        _scrub_dict(value, depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            clean = scrub(item, depth + 1)
            if clean is not item:
                value[index] = clean
    elif isinstance(value, tuple):
        items = tuple(scrub(item, depth + 1) for item in value)
        if any(items[index] is not item for index, item in enumerate(value)):
            return items
    return value


def _scrub_dict(value: dict[object, object], depth: int) -> None:
    for key in list(value):
        item = value[key]
        clean = scrub(item, depth)
        if clean is not item:
            value[key] = clean
        if isinstance(key, str) and has_private(key):
            value[strip_private(key)] = value.pop(key)


def may_hold_private(line: bytes) -> bool:
    r"""Tell whether a raw line (a transcript row) may hold a tag: it has the word at least.

    JSON may escape ``<`` (``\u003c``) but never a letter, so the word is a sure sign.

    >>> may_hold_private(b'{"text": "\\u003cPRIVATE>x"}'), may_hold_private(b'{"a": 1}')
    (True, False)
    """
    return re.search(_HINT, line, re.IGNORECASE) is not None


# ---- capture off ---------------------------------------------------------------------

SWITCHED_OFF = "capture = false"
IGNORED = "ignore_paths"
UNREADABLE = "unreadable settings"


class Off:
    """Why capture is off for a session: ``kind`` (no path: for the hook log) and ``why``.

    >>> Off(IGNORED, "x").kind
    'ignore_paths'
    """

    __slots__ = ("kind", "why")

    def __init__(self, kind: str, why: str) -> None:
        """Keep the kind (:data:`SWITCHED_OFF`, :data:`IGNORED`, :data:`UNREADABLE`) and why."""
        self.kind = kind
        self.why = why

    def __repr__(self) -> str:
        """Show it as a person reads it."""
        return f"Off({self.kind!r}, {self.why!r})"


class Fields:
    """What one settings file says about capture: on or off, its patterns, its faults."""

    __slots__ = ("enabled", "faults", "ignore_paths")

    def __init__(
        self,
        enabled: bool = True,  # noqa: FBT001, FBT002 - a value, read as one
        ignore_paths: tuple[str, ...] = (),
        faults: tuple[str, ...] = (),
    ) -> None:
        """Keep the file's ``capture``, ``ignore_paths`` and the faults that turn it off."""
        self.enabled = enabled
        self.ignore_paths = ignore_paths
        self.faults = faults

    def __eq__(self, other: object) -> bool:
        """Compare what two readings found (the quick reader's with tomllib's, in tests)."""
        if not isinstance(other, Fields):
            return NotImplemented
        return (self.enabled, self.ignore_paths, bool(self.faults)) == (
            other.enabled,
            other.ignore_paths,
            bool(other.faults),
        )

    __hash__ = None  # type: ignore[assignment] # compared, never hashed

    def __repr__(self) -> str:
        """Show the three fields."""
        return f"Fields({self.enabled!r}, {self.ignore_paths!r}, {self.faults!r})"


NOTHING = Fields()


def capture_off(cwd: str | None, home: str | None = None) -> Off | None:
    """Return why nothing of a session in ``cwd`` may be recorded, or None when it may.

    ``home``: the memory home (default: :func:`~artibot_memory.core.paths.home_dir`).

    >>> import tempfile
    >>> capture_off("/src/shop", tempfile.mkdtemp()) is None
    True
    """
    from artibot_memory.core import config  # noqa: PLC0415 - see the imports above
    from artibot_memory.core.paths import home_dir  # noqa: PLC0415
    from artibot_memory.core.project import project_of  # noqa: PLC0415

    folder = home if home is not None else home_dir(create=False)
    project = project_of(cwd) if cwd else None
    sources = [(path, read_fields(path)) for path in config.paths(folder, project)]
    for _path, fields in sources:
        if fields.faults:
            return Off(UNREADABLE, f"{fields.faults[0]} (capture stays off until it is fixed)")
    for path, fields in sources:
        if not fields.enabled:
            return Off(SWITCHED_OFF, f"{SWITCHED_OFF} in {path}")
    patterns = [(path, pattern) for path, fields in sources for pattern in fields.ignore_paths]
    if cwd and patterns:
        places = _places(cwd)
        for path, pattern in patterns:
            if matches(pattern, places):
                return Off(IGNORED, f"{cwd} is under {IGNORED} {pattern!r} of {path}")
    return None


def read_fields(path: str) -> Fields:
    """Return what the settings file at ``path`` says about capture (absent: nothing).

    >>> read_fields("/nonexistent/config.toml") is NOTHING
    True
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the working directory
        if isinstance(exc, ValueError) or not os.path.lexists(path):
            return NOTHING  # absent, or a name too long to be a file: nothing said
        # There, and unreadable: it may say capture = false, which cannot be told.
        return Fields(enabled=False, faults=(f"{path}: cannot be read ({exc.strerror or exc})",))
    from artibot_memory.core import config  # noqa: PLC0415 - see the imports above

    if not config.mentions_capture(data):
        return NOTHING
    try:
        quick = quick_read(data.decode("utf-8"))
    except ValueError:  # not UTF-8: tomllib says so below
        quick = None
    return quick if quick is not None else _parsed(path, data)


def _parsed(path: str, data: bytes) -> Fields:
    """Read the file with tomllib, as ``config`` does (capture off when it cannot)."""
    from artibot_memory.core import config  # noqa: PLC0415 - see the imports above

    settings = config.Config()
    config.read_bytes(settings, path, data)
    return Fields(
        settings[config.CAPTURE],
        settings[config.IGNORE_PATHS],
        tuple(settings.capture_faults),
    )


# The documented forms, and nothing else: the quick reader says "not sure" (None) for any
# line it does not know, and tomllib decides. Only TOML that tomllib reads the same way
# is accepted here (tests/test_capture_optout.py compares the two on generated files).
_BLANK = r"[ \t]*(?:#[^\n]*)?"
_HEADER = r"[ \t]*\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\][ \t]*(?:#[^\n]*)?"
_KEY = r"[ \t]*([A-Za-z0-9_-]+|capture\.ignore_paths)[ \t]*=[ \t]*(.*)"
_NUMBER = r"[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?"
_PLAIN_STRING = r"\"[^\"\\\x00-\x1f\x7f]*\"|'[^'\x00-\x1f\x7f]*'"
_SCALAR = rf"(?:true|false|{_NUMBER}|{_PLAIN_STRING})[ \t]*(?:#[^\n]*)?"
_BOOL = r"(true|false)[ \t]*(?:#[^\n]*)?"
_GAP = r"[ \t\n]*(?:#[^\n]*\n[ \t\n]*)*"  # what may come between an array's items
_ARRAY_ITEM = rf"{_GAP}({_PLAIN_STRING}){_GAP}(,?)"
_ARRAY_END = rf"{_GAP}\][ \t]*(?:#[^\n]*)?"


def quick_read(text: str) -> Fields | None:  # noqa: C901, PLR0911, PLR0912 - one grammar
    r"""Read ``capture`` and ``[capture] ignore_paths`` in their documented forms; else None.

    Every line must be blank, a comment, a ``[table]`` header or ``key = value`` with a
    plain value (a boolean, a number, a string without escapes), or ``ignore_paths`` (in
    ``[capture]``, or ``capture.ignore_paths`` before any table) as an array of such
    strings over any number of lines; anything else (escapes, other dotted or quoted keys,
    inline tables, multi-line strings, a repeated key) means "not sure".

    >>> quick_read('capture = false  # this client')
    Fields(False, (), ())
    >>> quick_read('[capture]\nignore_paths = [\n  "~/work/acme/**",  # the client\n]\n')
    Fields(True, ('~/work/acme/**',), ())
    >>> quick_read('"capture" = false') is None  # a quoted key: tomllib reads it
    True
    """
    from artibot_memory.core import config  # noqa: PLC0415 - see the imports above

    text = text.replace("\r\n", "\n")
    if "\r" in text:
        return None
    lines = text.split("\n")
    table, seen_tables, seen_keys = "", {""}, set()
    enabled = True
    patterns: tuple[str, ...] = ()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if re.fullmatch(_BLANK, line):
            continue
        header = re.fullmatch(_HEADER, line)
        if header:
            table = header.group(1)
            if table in seen_tables:
                return None  # a table twice, or [capture] after capture = …: not TOML
            seen_tables.add(table)
            continue
        key = re.fullmatch(_KEY, line)
        if key is None:
            return None
        name, value = key.group(1), key.group(2)
        dotted = f"{table}.{name}" if table else name
        if dotted in seen_keys:
            return None
        seen_keys.add(dotted)
        if not table:  # `x = …` or `capture.ignore_paths = …`: no [x] may follow, nor x twice
            head = name.split(".", maxsplit=1)[0]
            if head in seen_tables or (head != name and head in seen_keys):
                return None
            seen_tables.add(head)
        if dotted == config.CAPTURE:
            found = re.fullmatch(_BOOL, value)
            if found is None:
                return None
            enabled = found.group(1) == "true"
        elif dotted == config.IGNORE_PATHS and value.startswith("["):
            array, index = _array(lines, index, value[1:])
            if array is None:
                return None
            patterns = array
        elif _about_capture(table, name) or not re.fullmatch(_SCALAR, value):
            return None  # any other capture name (a typo?) is tomllib's and config's to judge
    return Fields(enabled, patterns)


def _about_capture(table: str, name: str) -> bool:
    """Tell whether a key is one config counts as capture's (core/config.py's ``_refuse``)."""
    from artibot_memory.core import config  # noqa: PLC0415 - see the imports above

    return (table or name).lower() == config.CAPTURE or name == "ignore_paths"


def _array(lines: list[str], index: int, rest: str) -> tuple[tuple[str, ...] | None, int]:
    """Read an array of plain strings from ``rest`` on, taking lines until its ``]``."""
    body = rest
    while True:
        items, done = _array_items(body)
        if done:
            return items, index
        if index >= len(lines):
            return None, index
        body += "\n" + lines[index]
        index += 1


def _array_items(body: str) -> tuple[tuple[str, ...] | None, bool]:
    """Return (the strings, True) when ``body`` is a whole array; (None, False): read on."""
    items: list[str] = []
    position = 0
    while True:
        end = re.compile(_ARRAY_END).match(body, position)
        if end is not None and end.end() == len(body):
            return tuple(items), True
        item = re.compile(_ARRAY_ITEM).match(body, position)
        if item is None or item.end() == position:
            return None, not _open_ended(body, position)
        items.append(item.group(1)[1:-1])
        position = item.end()
        if not item.group(2):  # no comma: only the end may follow
            end = re.compile(_ARRAY_END).match(body, position)
            if end is not None and end.end() == len(body):
                return tuple(items), True
            return None, not _open_ended(body, position)


def _open_ended(body: str, position: int) -> bool:
    """Tell whether what is left could still become an array's end once more lines come."""
    rest = body[position:]
    return re.fullmatch(_BLANK, rest.rsplit("\n", 1)[-1]) is not None and "]" not in rest


def glob_regex(pattern: str) -> re.Pattern[str] | None:
    r"""Return the regex of an ``ignore_paths`` pattern (None: an empty one, which names nothing).

    >>> bool(glob_regex("/work/*-client").fullmatch("/work/acme-client"))
    True
    >>> bool(glob_regex("/work/*-client").fullmatch("/work/a/b-client"))
    False
    >>> glob_regex("scratch/**").pattern
    '(?:.*/)?scratch'
    """
    text = os.path.expanduser(pattern.strip())
    if not text:
        return None
    while text.endswith("/**"):
        text = text[:-3] or "/"
    if len(text) > 1:
        text = text.rstrip("/")
    if not text.startswith("/"):
        text = f"**/{text}"
    return re.compile("".join(_glob_parts(text)), re.IGNORECASE)


def _glob_parts(text: str) -> Iterable[str]:
    index = 0
    while index < len(text):
        if text.startswith("**/", index):
            yield "(?:.*/)?"
            index += 3
        elif text.startswith("**", index):
            yield ".*"
            index += 2
        elif text[index] == "*":
            yield "[^/]*"
            index += 1
        elif text[index] == "?":
            yield "[^/]"
            index += 1
        elif text[index] == "[" and "]" in text[index + 2 :]:
            end = text.index("]", index + 2)
            body = text[index + 1 : end]
            negated = body[:1] in ("!", "^")
            body = body[1:] if negated else body
            yield f"[{'^' if negated else ''}{re.escape(body).replace(chr(92) + '-', '-')}]"
            index = end + 1
        else:
            yield re.escape(text[index])
            index += 1


def matches(pattern: str, places: Iterable[str]) -> bool:
    """Tell whether ``pattern`` names one of ``places`` or a folder above one of them.

    >>> matches("~/work/acme/**", [os.path.expanduser("~/work/acme/api/src")])
    True
    >>> matches("~/work/acme", [os.path.expanduser("~/work/acme-tools")])
    False
    """
    regex = glob_regex(pattern)
    if regex is None:
        return False
    for place in places:
        folder = place
        while True:
            if regex.fullmatch(folder):
                return True
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return False


def _places(cwd: str) -> list[str]:
    """Return the working directory as given (made absolute) and with its symlinks resolved."""
    given = os.path.normpath(os.path.abspath(os.path.expanduser(cwd)))
    try:
        real = os.path.realpath(given)
    except (OSError, ValueError):  # a NUL byte, a loop: matched as given
        return [given]
    return [given] if real == given else [given, real]
