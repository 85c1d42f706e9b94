"""A scripted fake of the Anthropic Messages API for end-to-end tests.

The real Claude Code CLI is pointed at this server with ``ANTHROPIC_BASE_URL``.
It answers ``POST /v1/messages`` (streamed as server-sent events, or as plain
JSON when ``stream`` is false) from a fixed script of turns, records every
request it receives, and answers any other path with ``{}`` so the CLI never
stalls on a start-up call.

Choosing the reply is stateless per request: every scripted turn leaves one
trace in the conversation Claude Code sends back (a ``tool_result`` block for a
tool call, a text-only assistant message for a text turn), so counting those
traces in the request picks the next turn. Retries and side requests (titles,
quota probes, compaction summaries) therefore never consume script steps, and a
``--resume`` run continues the script where the previous run stopped.

Standard library only; binds 127.0.0.1 on an ephemeral port.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import threading
import traceback
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from types import TracebackType

    from typing_extensions import Self

DEFAULT_MODEL = "claude-fake-1"
FINAL_TEXT = "Done."
SIDE_TEXT = "Fake reply."
COMPACT_TEXT = "Fake summary of the conversation so far."

# Written into every compaction summary: the script step reached before the
# compaction, which the summary-only history could not tell otherwise.
STEP_MARK = re.compile(r"\[fake-anthropic step (\d+)\]")

# Side requests (titles, quota probes) ask for tiny completions; the agent loop
# asks for thousands of tokens (128000 in 2.1.332).
SIDE_MAX_TOKENS = 1024

# Claude Code's compaction request reuses the agent loop's tools and budget (to
# share the prompt cache) and differs only by this instruction in the last user
# message. It must get a <summary> block, or Claude Code asks once more.
COMPACT_MARKERS = ("CRITICAL: Respond with TEXT ONLY", "create a detailed summary")

JsonObject = dict[str, Any]


# -- the script ---------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """A scripted assistant turn that only says something and ends the turn."""

    text: str


@dataclass(frozen=True)
class ToolUse:
    """A scripted assistant turn that calls one tool, optionally after some text."""

    name: str
    input: JsonObject
    text: str = ""
    id: str | None = None


Turn = Text | ToolUse


def text(reply: str) -> Text:
    """Script a plain text reply (ends the model's turn)."""
    return Text(reply)


def tool_use(name: str, tool_input: JsonObject, *, preamble: str = "") -> ToolUse:
    """Script a call of tool ``name`` with ``tool_input``."""
    return ToolUse(name=name, input=dict(tool_input), text=preamble)


def bash(command: str, description: str = "Run a command") -> ToolUse:
    """Script a call of Claude Code's Bash tool."""
    return tool_use("Bash", {"command": command, "description": description})


# -- reading requests -----------------------------------------------------------


@dataclass
class RecordedRequest:
    """One HTTP request the fake received.

    ``kind`` is ``"main"`` (agent loop), ``"compact"`` (compaction summary),
    ``"side"`` (any other /v1/messages call) or ``"other"`` (another path).
    """

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    kind: str = "other"
    step: int | None = None  # script index answered ("main") or summarised ("compact")

    @property
    def messages(self) -> list[JsonObject]:
        """The request's ``messages`` (empty when it has none)."""
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []

    def strings(self) -> list[str]:
        """Every string anywhere in the body (system prompt, tools, messages)."""
        return list(iter_strings(self.body))

    def contains(self, needle: str) -> bool:
        """Whether any string in the body contains ``needle``."""
        return any(needle in s for s in iter_strings(self.body))


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


def _blocks(message: JsonObject) -> list[JsonObject]:
    """The content blocks of a message (a string content is one text block)."""
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [b for b in content if isinstance(b, dict)]
    return []


def _messages(body: Any) -> list[JsonObject]:
    """The ``messages`` of a request body, tolerating any shape."""
    messages = body.get("messages") if isinstance(body, dict) else None
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def count_tool_results(messages: list[JsonObject]) -> int:
    """Count the ``tool_result`` blocks in some messages."""
    return sum(
        1
        for message in messages
        for block in _blocks(message)
        if block.get("type") == "tool_result"
    )


def count_text_turns(messages: list[JsonObject]) -> int:
    """Count assistant messages that only hold text (completed text turns)."""
    count = 0
    for message in messages:
        if message.get("role") != "assistant":
            continue
        types = {block.get("type") for block in _blocks(message)}
        if "text" in types and "tool_use" not in types:
            count += 1
    return count


def _last_step_mark(messages: list[JsonObject]) -> tuple[int, int]:
    """(step, index of the message after it) of the last compaction step mark."""
    step, after = 0, 0
    for index, message in enumerate(messages):
        for block in _blocks(message):
            found = STEP_MARK.search(str(block.get("text", "")))
            if found:
                step, after = int(found.group(1)), index + 1
    return step, after


def script_step(body: Any) -> int:
    """The index of the scripted turn that answers this agent-loop request.

    Counts the traces of answered turns (tool results, text-only assistant
    messages). Compaction replaces the history with the fake's own summary,
    which carries a step mark, so counting resumes from that mark.
    """
    messages = _messages(body)
    step, after = _last_step_mark(messages)
    rest = messages[after:]
    return step + count_tool_results(rest) + count_text_turns(rest)


def is_compact_request(body: Any) -> bool:
    """Whether this is Claude Code asking for a compaction summary."""
    messages = _messages(body)
    if not messages:
        return False
    last = "\n".join(str(b.get("text", "")) for b in _blocks(messages[-1]))
    return any(marker in last for marker in COMPACT_MARKERS)


def is_main_request(body: Any) -> bool:
    """Tell the agent loop's requests from Claude Code's side requests.

    The agent loop offers tools and asks for a large completion; side requests
    (session titles, quota probes) have no tools or a small budget, and the
    compaction request carries an explicit "text only" instruction.
    """
    if not isinstance(body, dict) or not body.get("tools"):
        return False
    max_tokens = body.get("max_tokens")
    if isinstance(max_tokens, int) and max_tokens <= SIDE_MAX_TOKENS:
        return False
    return not is_compact_request(body)


# -- the server ---------------------------------------------------------------


@dataclass
class _Reply:
    """What the assistant says in one response: text and/or one tool call."""

    text: str
    tool: ToolUse | None = None
    stop_reason: str = "end_turn"


@dataclass
class _Counters:
    """Deterministic id sequences, one per prefix."""

    counters: dict[str, Iterator[int]] = field(default_factory=dict)

    def next(self, prefix: str) -> str:
        """Return e.g. ``toolu_fake0001``, ``toolu_fake0002``, ..."""
        counter = self.counters.setdefault(prefix, itertools.count(1))
        return f"{prefix}_fake{next(counter):04d}"


class FakeAnthropic:
    """A threaded loopback server that plays a script of assistant turns.

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    ``requests`` lists every request received, in arrival order.
    """

    def __init__(  # all but turns are keyword-only knobs
        self,
        turns: Iterable[Turn] = (),
        *,
        final_text: str = FINAL_TEXT,
        side_text: str = SIDE_TEXT,
        compact_text: str = COMPACT_TEXT,
        is_main: Callable[[Any], bool] = is_main_request,
        step_for: Callable[[Any], int] = script_step,
    ) -> None:
        """Prepare (but do not start) a server that plays ``turns`` in order.

        After the script, every agent-loop request gets ``final_text`` with
        stop_reason ``end_turn``; side requests get ``side_text``; compaction
        requests get ``compact_text`` in a ``<summary>`` block.
        """
        self.turns: list[Turn] = list(turns)
        self.final_text = final_text
        self.side_text = side_text
        self.compact_text = compact_text
        self.is_main = is_main
        self.step_for = step_for
        self.requests: list[RecordedRequest] = []
        self.errors: list[str] = []  # tracebacks of requests the fake failed to answer
        self._lock = threading.Lock()
        self._ids = _Counters()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle -----------------------------------------------------

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
            name="fake-anthropic",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, close the listening socket and join every thread."""
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
            msg = "FakeAnthropic is not started"
            raise RuntimeError(msg)
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """The value for ``ANTHROPIC_BASE_URL``."""
        return f"http://127.0.0.1:{self.port}"

    def set_script(self, turns: Iterable[Turn]) -> None:
        """Replace the script (e.g. between two runs against one server)."""
        with self._lock:
            self.turns = list(turns)

    def reset(self) -> None:
        """Forget the recorded requests and errors."""
        with self._lock:
            self.requests.clear()
            self.errors.clear()

    # -- what was received ------------------------------------------------

    def _of_kind(self, *kinds: str) -> list[RecordedRequest]:
        """Recorded requests of the given kinds, in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.kind in kinds]

    def message_requests(self) -> list[RecordedRequest]:
        """Every ``POST /v1/messages`` request: main, compact and side."""
        return self._of_kind("main", "compact", "side")

    def main_requests(self) -> list[RecordedRequest]:
        """The agent loop's requests only."""
        return self._of_kind("main")

    def side_requests(self) -> list[RecordedRequest]:
        """Message requests outside the agent loop (compaction included)."""
        return self._of_kind("compact", "side")

    def other_requests(self) -> list[RecordedRequest]:
        """Requests to any path other than ``/v1/messages``."""
        return self._of_kind("other")

    def sent_text(self) -> str:
        """Every string of every message request, one per line (for debugging)."""
        return "\n".join(s for r in self.message_requests() for s in r.strings())

    def was_sent(self, needle: str) -> bool:
        """Whether ``needle`` occurs in any message request (system, tools or messages)."""
        return any(r.contains(needle) for r in self.message_requests())

    # -- answering (called from the handler threads) ----------------------------------

    def record(self, request: RecordedRequest) -> None:
        """Keep a received request."""
        with self._lock:
            self.requests.append(request)

    def record_error(self, error: str) -> None:
        """Keep the traceback of a request the fake failed to answer."""
        with self._lock:
            self.errors.append(error)

    def reply_for(self, request: RecordedRequest) -> _Reply:
        """Classify a ``/v1/messages`` request and decide the answer."""
        body = request.body
        if is_compact_request(body):
            request.kind = "compact"
            step = request.step = self.step_for(body)
            summary = f"<summary>{self.compact_text}\n[fake-anthropic step {step}]</summary>"
            return _Reply(text=summary)
        if not self.is_main(body):
            request.kind = "side"
            return _Reply(text=self.side_text)
        request.kind = "main"
        step = request.step = self.step_for(body)
        with self._lock:
            turn = self.turns[step] if step < len(self.turns) else Text(self.final_text)
        if isinstance(turn, Text):
            return _Reply(text=turn.text)
        return _Reply(text=turn.text, tool=turn, stop_reason="tool_use")

    def message_for(self, request: RecordedRequest) -> JsonObject:
        """The complete (non-streamed) Messages API response to a request."""
        reply = self.reply_for(request)
        with self._lock:
            content = self._content(reply)
            message_id = self._ids.next("msg")
        model = request.body.get("model") if isinstance(request.body, dict) else None
        return {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            # Echo the requested model: Claude Code prices usage by model name.
            "model": model or DEFAULT_MODEL,
            "content": content,
            "stop_reason": reply.stop_reason,
            "stop_sequence": None,
            "usage": _usage(output_tokens=max(1, len(json.dumps(content)) // 4)),
        }

    def _content(self, reply: _Reply) -> list[JsonObject]:
        """The content blocks of a reply (caller holds the lock for the ids)."""
        blocks: list[JsonObject] = []
        if reply.text:
            blocks.append({"type": "text", "text": reply.text})
        if reply.tool is not None:
            blocks.append(
                {
                    "type": "tool_use",
                    "id": reply.tool.id or self._ids.next("toolu"),
                    "name": reply.tool.name,
                    "input": reply.tool.input,
                }
            )
        return blocks


def _usage(output_tokens: int) -> dict[str, int]:
    """A plausible usage block (Claude Code reads it for cost accounting)."""
    return {
        "input_tokens": 10,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def sse_events(message: JsonObject) -> Iterator[tuple[str, JsonObject]]:
    """Turn a complete message into the events of the streaming API."""
    start = dict(message, content=[], stop_reason=None, stop_sequence=None)
    start["usage"] = _usage(output_tokens=1)
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(message["content"]):
        yield from _block_events(index, block)
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": message["usage"]["output_tokens"]},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _block_events(index: int, block: JsonObject) -> Iterator[tuple[str, JsonObject]]:
    """The start, delta and stop events of one content block."""
    if block["type"] == "tool_use":
        empty = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    else:
        empty = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    yield (
        "content_block_start",
        {
            "type": "content_block_start",
            "index": index,
            "content_block": empty,
        },
    )
    yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
    yield "content_block_stop", {"type": "content_block_stop", "index": index}


def encode_sse(events: Iterable[tuple[str, JsonObject]]) -> bytes:
    """Serialize events in the ``event:``/``data:`` wire format."""
    return b"".join(
        f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events
    )


def _json_response(status: int, payload: Any) -> tuple[int, str, bytes]:
    """A JSON response as (status, content type, body)."""
    return status, "application/json", json.dumps(payload).encode()


class _Server(ThreadingHTTPServer):
    """The HTTP server, carrying a reference to its :class:`FakeAnthropic`."""

    # Non-daemon request threads, so server_close() joins them: no thread or
    # socket outlives stop(), which keeps pytest's filterwarnings=error quiet.
    daemon_threads = False
    block_on_close = True
    fake: FakeAnthropic


class _Handler(BaseHTTPRequestHandler):
    """Routes requests to the fake; every response closes its connection."""

    server: _Server
    protocol_version = "HTTP/1.1"
    # A client that connects and goes quiet must not block stop() for long.
    timeout = 15

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Stay quiet: tests read the recorded requests instead."""

    def do_GET(self) -> None:
        """Answer any GET with an empty JSON object."""
        self._handle()

    def do_POST(self) -> None:
        """Answer /v1/messages from the script, anything else with ``{}``."""
        self._handle()

    def do_PUT(self) -> None:
        """Answer like POST."""
        self._handle()

    def do_HEAD(self) -> None:
        """Answer with headers only."""
        self._send(200, "application/json", b"{}", head=True)

    def _handle(self) -> None:
        """Classify and record the request, then send its response."""
        fake = self.server.fake
        request = self._read_request()
        try:
            response = self._response_for(request)
        except Exception:  # noqa: BLE001 - a bug in the fake must reach the test
            fake.record_error(traceback.format_exc())
            response = _json_response(
                500,
                {
                    "type": "error",
                    "error": {
                        "type": "api_error",
                        "message": "fake_anthropic failed; see FakeAnthropic.errors",
                    },
                },
            )
        # Recorded before answering: once the client has the reply, it is listed.
        fake.record(request)
        # A client that gave up (e.g. was killed) needs no answer.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._send(*response)

    def _response_for(self, request: RecordedRequest) -> tuple[int, str, bytes]:
        """The status, content type and body a request deserves."""
        path = request.path.rstrip("/")
        if self.command == "POST" and path == "/v1/messages":
            message = self.server.fake.message_for(request)
            if isinstance(request.body, dict) and request.body.get("stream"):
                return 200, "text/event-stream", encode_sse(sse_events(message))
            return _json_response(200, message)
        if path == "/v1/messages/count_tokens":
            return _json_response(200, {"input_tokens": 100})
        return _json_response(200, {})

    def _read_request(self) -> RecordedRequest:
        """Parse path, query, headers and (JSON) body."""
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        return RecordedRequest(
            method=self.command,
            path=parts.path,
            query=parse_qs(parts.query),
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
        )

    def _send(self, status: int, content_type: str, data: bytes, *, head: bool = False) -> None:
        """Send a complete response and close the connection.

        One request per connection keeps every handler thread short-lived, so
        stop() never waits on an idle keep-alive connection.
        """
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("request-id", "req_fake")
        self.send_header("Connection", "close")
        self.end_headers()
        if not head:
            self.wfile.write(data)
            self.wfile.flush()
        self.close_connection = True
