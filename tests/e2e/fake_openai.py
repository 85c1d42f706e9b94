"""A scripted fake of the OpenAI Responses API, as Codex CLI calls it, for end-to-end tests.

Codex is pointed here by a model provider of its own (``base_url = <origin>/v1``,
``wire_api = "responses"``; see ``agents.py``). It answers ``POST /v1/responses`` as
server-sent events (``event: <type>`` / ``data: <json>``): ``response.created``, one
``response.output_item.done`` (an assistant ``message``, or a call of the shell or the
patch tool), then ``response.completed`` with a usage block. Anything else gets ``{}``.

The step to answer is the count of replies of ours in the request's ``input`` (Codex sends
the whole conversation every time): each call left a call item, each text reply an
assistant message. A call's output comes back in the next request as a
``function_call_output`` (or ``custom_tool_call_output``) item, and the hook contexts as
``role: "developer"`` messages.

The shell call uses whichever shell tool the request offers (``exec_command`` with
``cmd`` in 0.171, else ``shell_command`` or ``shell``); file writes and edits go through
``apply_patch``, as a freeform (``custom``) tool or a function, as offered.
"""

from __future__ import annotations

import json
from typing import Any

from .scripted import (
    EditFile,
    JsonObject,
    RecordedRequest,
    Response,
    ScriptedServer,
    Shell,
    Step,
    WriteFile,
    json_response,
)

# Items of the conversation that one reply of ours left behind.
CALL_ITEMS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})


def input_items(body: Any) -> list[JsonObject]:
    """The ``input`` items of a Responses API request, tolerating any shape."""
    items = body.get("input") if isinstance(body, dict) else None
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def script_step(body: Any) -> int:
    """How many replies of ours the conversation holds: the index of the next one."""
    return sum(1 for item in input_items(body) if is_our_reply(item))


def is_our_reply(item: JsonObject) -> bool:
    """Whether an input item is the trace of one reply of ours (a call or a text)."""
    if item.get("type") in CALL_ITEMS:
        return True
    return item.get("type", "message") == "message" and item.get("role") == "assistant"


def offered_tools(body: Any) -> dict[str, JsonObject]:
    """The tools a request offers, by name."""
    tools = body.get("tools") if isinstance(body, dict) else None
    if not isinstance(tools, list):
        return {}
    return {str(t.get("name")): t for t in tools if isinstance(t, dict) and t.get("name")}


def developer_texts(body: Any) -> list[str]:
    """The texts of the ``role: "developer"`` messages (where hook contexts arrive)."""
    return [
        str(part.get("text", ""))
        for item in input_items(body)
        if item.get("role") == "developer"
        for part in item.get("content") or []
        if isinstance(part, dict)
    ]


def tool_outputs(body: Any) -> list[str]:
    """The outputs of the calls answered so far, in order."""
    outputs = []
    for item in input_items(body):
        if item.get("type") in {"function_call_output", "custom_tool_call_output"}:
            output = item.get("output")
            outputs.append(output if isinstance(output, str) else json.dumps(output))
    return outputs


def patch_text(action: WriteFile | EditFile) -> str:
    """The ``apply_patch`` input that writes or edits a file."""
    if isinstance(action, WriteFile):
        lines = [f"*** Add File: {action.path}"]
        lines += [f"+{line}" for line in action.content.splitlines()]
    else:
        lines = [f"*** Update File: {action.path}", "@@"]
        lines += [f"-{line}" for line in action.old.splitlines()]
        lines += [f"+{line}" for line in action.new.splitlines()]
    return "\n".join(["*** Begin Patch", *lines, "*** End Patch"]) + "\n"


def shell_call(command: str, tools: dict[str, JsonObject], call_id: str) -> JsonObject:
    """A function call of the shell tool the request offers."""
    arguments: JsonObject
    if "exec_command" in tools or not tools:
        name, arguments = "exec_command", {"cmd": command}
    elif "shell_command" in tools:
        name, arguments = "shell_command", {"command": command}
    else:
        name, arguments = "shell", {"command": ["bash", "-lc", command]}
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps(arguments),
    }


def patch_call(
    action: WriteFile | EditFile, tools: dict[str, JsonObject], call_id: str
) -> JsonObject:
    """A call of ``apply_patch``: freeform when offered so, else a function call."""
    patch = patch_text(action)
    if tools.get("apply_patch", {}).get("type") == "custom":
        return {
            "type": "custom_tool_call",
            "call_id": call_id,
            "name": "apply_patch",
            "input": patch,
        }
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": "apply_patch",
        "arguments": json.dumps({"input": patch}),
    }


def message_item(text: str, item_id: str) -> JsonObject:
    """An assistant message output item."""
    return {
        "type": "message",
        "id": item_id,
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def sse(events: list[JsonObject]) -> bytes:
    """Serialize events as ``event: <type>`` / ``data: <json>`` records."""
    return b"".join(
        f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events
    )


class FakeOpenAI(ScriptedServer):
    """The Responses API playing a script; ``base_url`` is the provider's ``base_url``."""

    name = "fake-openai"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: Codex appends ``/responses``."""
        return f"{self.origin}/v1"

    def developer_texts(self) -> list[str]:
        """The developer messages of the last main request (hook contexts among them)."""
        main = self.main_requests()
        return developer_texts(main[-1].body) if main else []

    def respond(self, request: RecordedRequest) -> Response:
        """Answer ``POST /v1/responses`` from the script, anything else with ``{}``."""
        if request.method == "POST" and request.path.rstrip("/").endswith("/responses"):
            request.kind = "main"
            index = request.step = script_step(request.body)
            return 200, "text/event-stream", sse(self.events(self.step(index), request.body))
        if request.path.rstrip("/").endswith("/models"):
            return json_response({"object": "list", "data": [], "models": []})
        return json_response({})

    def events(self, step: Step, body: Any) -> list[JsonObject]:
        """The SSE events of one reply."""
        number = self.next_id()
        response_id, call_id = f"resp_fake{number:04d}", f"call_fake{number:04d}"
        tools = offered_tools(body)
        if isinstance(step, Shell):
            item = shell_call(step.command, tools, call_id)
        elif isinstance(step, (WriteFile, EditFile)):
            item = patch_call(step, tools, call_id)
        else:
            item = message_item(step.text, f"msg_fake{number:04d}")
        output_tokens = max(1, len(json.dumps(item)) // 4)
        usage = {
            "input_tokens": 100,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 100 + output_tokens,
        }
        return [
            {"type": "response.created", "response": {"id": response_id}},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": {"id": response_id, "usage": usage}},
        ]
