"""What the fake model servers share: the script of model turns, and a loopback server.

A *script* is a list of turns. A turn either says something (:class:`Say`, which ends the
model's turn) or acts: runs a shell command (:class:`Shell`), writes a file
(:class:`WriteFile`) or replaces text in one (:class:`EditFile`). An action executed by the
CLI sends its output back in the next request; ``then_say`` names what the model says
once it sees that output, and without it the next turn follows at once. So
``Shell("ls /no/such/dir", then_say="It failed.")`` is "run SHELL COMMAND then say TEXT".

Each fake turns the script into its own wire format (``fake_openai.py``: the Responses
API as Codex calls it; ``fake_gemini.py``: the Gemini API as Gemini CLI calls it) and picks
the step to answer from the conversation the request carries (how many replies of ours it
already holds), so it plays the script in order per conversation and a resumed session
goes on where the last one stopped. Past the end of the script, the model says
:data:`DONE`.

:class:`FakeServer` is the loopback server every fake is (``fake_anthropic.py``'s too):
threaded, 127.0.0.1 on an ephemeral port, a context manager, every request recorded
(:class:`RecordedRequest`, credentials left out) for the tests to read and answered by the
fake's :meth:`~FakeServer.respond`. :class:`ScriptedServer` adds the script above. Standard
library only.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import traceback
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence
    from types import TracebackType

    from typing_extensions import Self

DONE = "done"

# Headers that carry credentials: never recorded.
SECRET_HEADERS = frozenset(
    {"authorization", "x-goog-api-key", "api-key", "x-api-key", "cookie", "proxy-authorization"}
)

JsonObject = dict[str, Any]


# -- the script ---------------------------------------------------------------------


@dataclass(frozen=True)
class Say:
    """The model says ``text`` and ends its turn."""

    text: str


@dataclass(frozen=True)
class Shell:
    """The model runs ``command`` in the CLI's shell tool."""

    command: str
    then_say: str | None = None


@dataclass(frozen=True)
class WriteFile:
    """The model writes ``content`` to ``path`` (a new file; relative to the session's cwd)."""

    path: str
    content: str
    then_say: str | None = None


@dataclass(frozen=True)
class EditFile:
    """The model replaces ``old`` with ``new`` in the file at ``path``."""

    path: str
    old: str
    new: str
    then_say: str | None = None


Action = Shell | WriteFile | EditFile
Turn = Say | Action
Step = Say | Shell | WriteFile | EditFile  # one model response: what a turn expands into


def say(text: str) -> Say:
    """Script a reply that only says ``text``."""
    return Say(text)


def run(command: str, then_say: str | None = None) -> Shell:
    """Script a shell command, optionally followed by ``then_say`` once its output is back."""
    return Shell(command, then_say)


def steps(turns: Iterable[Turn]) -> list[Step]:
    """Expand turns into model responses: an action, then its ``then_say`` if any."""
    expanded: list[Step] = []
    for turn in turns:
        if isinstance(turn, Say):
            expanded.append(turn)
            continue
        expanded.append(turn)
        if turn.then_say is not None:
            expanded.append(Say(turn.then_say))
    return expanded


def step_at(script: Sequence[Step], index: int) -> Step:
    """The response for step ``index``: the script's, or :data:`DONE` past its end."""
    return script[index] if 0 <= index < len(script) else Say(DONE)


# -- recorded requests ----------------------------------------------------------------


@dataclass
class RecordedRequest:
    """One HTTP request a fake received (credentials left out of ``headers``).

    ``kind`` is set by the fake: ``"main"`` for the agent loop, ``"side"`` for a model
    call outside it (``"compact"`` for a compaction summary, in ``fake_anthropic.py``),
    ``"other"`` for anything else; ``step`` is the script index answered (or summarised).
    """

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    kind: str = "other"
    step: int | None = None

    @property
    def messages(self) -> list[JsonObject]:
        """The body's ``messages`` (empty when it has none)."""
        return body_messages(self.body)

    def strings(self) -> list[str]:
        """Every string anywhere in the body."""
        return list(iter_strings(self.body))

    def contains(self, needle: str) -> bool:
        """Whether any string in the body contains ``needle``."""
        return any(needle in s for s in iter_strings(self.body))

    def as_json(self) -> JsonObject:
        """A JSON-ready record (path, query, headers, body, kind, step)."""
        return {
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "headers": self.headers,
            "body": self.body,
            "kind": self.kind,
            "step": self.step,
        }


def body_messages(body: Any) -> list[JsonObject]:
    """The ``messages`` of a request body, tolerating any shape."""
    messages = body.get("messages") if isinstance(body, dict) else None
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def iter_strings(value: Any) -> Iterator[str]:
    """Yield every string in a JSON value, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from iter_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from iter_strings(item)


Response = tuple[int, str, bytes]  # status, content type, body


def json_response(payload: Any, status: int = 200) -> Response:
    """A JSON response."""
    return status, "application/json", json.dumps(payload).encode()


# -- the server -----------------------------------------------------------------------


class FakeServer:
    """A threaded loopback server that records every request; subclasses answer them.

    Use as a context manager, or call :meth:`start` and :meth:`stop`. A subclass
    implements :meth:`respond`; ``requests`` lists every request received, in arrival
    order, and ``errors`` the tracebacks of those the fake failed to answer.
    """

    name = "fake"
    # The HTTP methods answered (HEAD with the headers of ``{}``, unrecorded); others get 501.
    methods: frozenset[str] = frozenset({"GET", "POST"})
    # Sent with every response, after Cache-Control.
    extra_headers: tuple[tuple[str, str], ...] = ()
    # The kinds of the model requests (:meth:`model_requests`).
    model_kinds: tuple[str, ...] = ("main", "side")

    def __init__(self) -> None:
        """Prepare (but do not start) the server."""
        self.requests: list[RecordedRequest] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle ---------------------------------------------------------------

    def start(self) -> Self:
        """Bind 127.0.0.1 on an ephemeral port and serve in a thread."""
        if self._server is not None:
            return self
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=self.name,
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, close the socket and join every thread."""
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is None:
            return
        server.shutdown()
        server.server_close()  # joins the request threads too (block_on_close)
        if thread is not None:
            thread.join(timeout=10)

    def __enter__(self) -> Self:
        """Start the server."""
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the server."""
        self.stop()

    @property
    def port(self) -> int:
        """The port the server listens on (only while started)."""
        if self._server is None:
            msg = f"{type(self).__name__} is not started"
            raise RuntimeError(msg)
        return int(self._server.server_address[1])

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    # -- what was received ------------------------------------------------------------

    def reset(self) -> None:
        """Forget the recorded requests and errors."""
        with self._lock:
            self.requests.clear()
            self.errors.clear()

    def of_kind(self, *kinds: str) -> list[RecordedRequest]:
        """The recorded requests of the given kinds (all when none is given)."""
        with self._lock:
            return [r for r in self.requests if not kinds or r.kind in kinds]

    def main_requests(self) -> list[RecordedRequest]:
        """The agent loop's model requests, in arrival order."""
        return self.of_kind("main")

    def model_requests(self) -> list[RecordedRequest]:
        """Every model request (of the :attr:`model_kinds`), in arrival order."""
        return self.of_kind(*self.model_kinds)

    def was_sent(self, needle: str) -> bool:
        """Whether ``needle`` occurs in any model request."""
        return any(r.contains(needle) for r in self.model_requests())

    def sent_text(self) -> str:
        """Every string of every model request, one per line (for failure messages)."""
        return "\n".join(s for r in self.model_requests() for s in r.strings())

    # -- answering (called from the handler threads) ----------------------------------

    def record(self, request: RecordedRequest) -> None:
        """Keep a received request."""
        with self._lock:
            self.requests.append(request)

    def record_error(self, error: str) -> None:
        """Keep the traceback of a request the fake failed to answer."""
        with self._lock:
            self.errors.append(error)

    def respond(self, request: RecordedRequest) -> Response:
        """The response to one request; set ``request.kind`` and ``request.step``."""
        raise NotImplementedError

    def error_response(self) -> Response:
        """The 500 sent when :meth:`respond` failed (its traceback is in ``errors``)."""
        return json_response({"error": {"message": f"{self.name} failed"}}, 500)


class ScriptedServer(FakeServer):
    """A :class:`FakeServer` that answers from a script of :data:`Turn` s."""

    def __init__(self, turns: Iterable[Turn] = ()) -> None:
        """Prepare (but do not start) a server that plays ``turns`` in order."""
        super().__init__()
        self.script: list[Step] = steps(turns)
        self._ids = itertools.count(1)

    def set_script(self, turns: Iterable[Turn]) -> None:
        """Replace the script (e.g. between two runs against one server)."""
        with self._lock:
            self.script = steps(turns)

    def next_id(self) -> int:
        """The next number of a deterministic sequence (for response and call ids)."""
        with self._lock:
            return next(self._ids)

    def step(self, index: int) -> Step:
        """The response scripted for step ``index`` (:data:`DONE` past the end)."""
        with self._lock:
            return step_at(self.script, index)


class _Server(ThreadingHTTPServer):
    """The HTTP server, carrying a reference to its fake."""

    # Non-daemon request threads, so server_close() joins them: no thread or socket
    # outlives stop(), which keeps pytest's filterwarnings=error quiet.
    daemon_threads = False
    block_on_close = True
    fake: FakeServer


class _Handler(BaseHTTPRequestHandler):
    """Hands every request to the fake; every response closes its connection."""

    server: _Server
    protocol_version = "HTTP/1.1"
    timeout = 15  # a client that connects and goes quiet must not block stop() for long

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Stay quiet: tests read the recorded requests instead."""

    def do_GET(self) -> None:
        """Answer through the fake."""
        self._handle()

    def do_POST(self) -> None:
        """Answer through the fake."""
        self._handle()

    def do_PUT(self) -> None:
        """Answer through the fake (if it takes PUT)."""
        self._handle()

    def do_HEAD(self) -> None:
        """Answer with the headers of an empty JSON object (if the fake takes HEAD)."""
        if self._refused():
            return
        self._send(200, "application/json", b"{}", head=True)

    def _refused(self) -> bool:
        """Send a 501, as for a method without a ``do_`` handler, if the fake refuses it."""
        if self.command in self.server.fake.methods:
            return False
        self.send_error(HTTPStatus.NOT_IMPLEMENTED, f"Unsupported method ({self.command!r})")
        return True

    def _handle(self) -> None:
        """Record the request, then send the fake's response (a 500 if the fake failed)."""
        if self._refused():
            return
        fake = self.server.fake
        request = self._read_request()
        try:
            response = fake.respond(request)
        except Exception:  # noqa: BLE001 - a bug in the fake must reach the test
            fake.record_error(traceback.format_exc())
            response = fake.error_response()
        fake.record(request)  # before answering: once the client has the reply, it is listed
        # A client that gave up (e.g. was killed) needs no answer.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._send(*response)

    def _read_request(self) -> RecordedRequest:
        """Parse path, query, headers (credentials dropped) and the JSON body."""
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in SECRET_HEADERS}
        return RecordedRequest(
            method=self.command,
            path=parts.path,
            query=parse_qs(parts.query),
            headers=headers,
            body=body,
        )

    def _send(self, status: int, content_type: str, data: bytes, *, head: bool = False) -> None:
        """Send a complete response and close the connection.

        One request per connection keeps every handler thread short-lived, so stop()
        never waits on an idle keep-alive connection.
        """
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        for name, value in self.server.fake.extra_headers:
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        if not head:
            self.wfile.write(data)
            self.wfile.flush()
        self.close_connection = True
