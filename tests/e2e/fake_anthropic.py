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

The server itself (loopback, request recording, the handler) is
``scripted.py``'s :class:`~.scripted.FakeServer`, shared with the other fakes.
Standard library only; binds 127.0.0.1 on an ephemeral port.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .scripted import (
    FakeServer,
    JsonObject,
    RecordedRequest,
    Response,
    body_messages,
    iter_strings,  # noqa: F401 - re-exported, as before the move
    json_response,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

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


def _blocks(message: JsonObject) -> list[JsonObject]:
    """The content blocks of a message (a string content is one text block)."""
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [b for b in content if isinstance(b, dict)]
    return []


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
    messages = body_messages(body)
    step, after = _last_step_mark(messages)
    rest = messages[after:]
    return step + count_tool_results(rest) + count_text_turns(rest)


def is_compact_request(body: Any) -> bool:
    """Whether this is Claude Code asking for a compaction summary."""
    messages = body_messages(body)
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


class FakeAnthropic(FakeServer):
    """A threaded loopback server that plays a script of assistant turns.

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    ``requests`` lists every request received, in arrival order.
    """

    name = "fake-anthropic"
    methods = frozenset({"GET", "POST", "PUT", "HEAD"})
    extra_headers = (("request-id", "req_fake"),)
    model_kinds = ("main", "compact", "side")

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
        super().__init__()
        self.turns: list[Turn] = list(turns)
        self.final_text = final_text
        self.side_text = side_text
        self.compact_text = compact_text
        self.is_main = is_main
        self.step_for = step_for
        self._ids = _Counters()

    @property
    def base_url(self) -> str:
        """The value for ``ANTHROPIC_BASE_URL``."""
        return self.origin

    def set_script(self, turns: Iterable[Turn]) -> None:
        """Replace the script (e.g. between two runs against one server)."""
        with self._lock:
            self.turns = list(turns)

    # -- what was received ------------------------------------------------

    def message_requests(self) -> list[RecordedRequest]:
        """Every ``POST /v1/messages`` request: main, compact and side."""
        return self.model_requests()

    def side_requests(self) -> list[RecordedRequest]:
        """Message requests outside the agent loop (compaction included)."""
        return self.of_kind("compact", "side")

    def other_requests(self) -> list[RecordedRequest]:
        """Requests to any path other than ``/v1/messages``."""
        return self.of_kind("other")

    # -- answering (called from the handler threads) ----------------------------------

    def respond(self, request: RecordedRequest) -> Response:
        """The status, content type and body a request deserves."""
        path = request.path.rstrip("/")
        if request.method == "POST" and path == "/v1/messages":
            message = self.message_for(request)
            if isinstance(request.body, dict) and request.body.get("stream"):
                return 200, "text/event-stream", encode_sse(sse_events(message))
            return json_response(message)
        if path == "/v1/messages/count_tokens":
            return json_response({"input_tokens": 100})
        return json_response({})

    def error_response(self) -> Response:
        """The API's error shape, for a request the fake failed to answer."""
        error = {"type": "api_error", "message": "fake_anthropic failed; see FakeAnthropic.errors"}
        return json_response({"type": "error", "error": error}, 500)

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
