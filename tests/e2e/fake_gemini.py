"""A scripted fake of the Gemini API, as Gemini CLI calls it, for end-to-end tests.

Gemini CLI is pointed here with ``GOOGLE_GEMINI_BASE_URL`` (see ``agents.py``). The agent
loop calls ``POST /v1beta/models/<model>:streamGenerateContent?alt=sse``, answered as
server-sent events (``data: <GenerateContentResponse>`` records): one candidate whose
content is a text part, or a ``functionCall`` part (``run_shell_command``,
``write_file``, ``replace``), finish reason ``STOP``. Calls outside the loop
(``:generateContent``, e.g. the "who speaks next" check, which asks for JSON) are "side"
requests, answered without moving the script; ``:countTokens`` gets a count; anything
else ``{}``.

The step to answer is the count of replies of ours in the request's ``contents`` (the
CLI sends the whole conversation every time): each call left a ``functionCall`` part, each
text reply a text-only ``model`` content. A call's result comes back in the next
request as a ``functionResponse`` part; a SessionStart hook's context is prepended to the
prompt as ``<hook_context>…</hook_context>``, a BeforeAgent hook's is an extra part of
that user message.
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

SIDE_TEXT = "Fake reply."
NEXT_SPEAKER = {
    "reasoning": "The model has answered; the user speaks next.",
    "next_speaker": "user",
}


def contents(body: Any) -> list[JsonObject]:
    """The ``contents`` of a request, tolerating any shape."""
    items = body.get("contents") if isinstance(body, dict) else None
    return [c for c in items if isinstance(c, dict)] if isinstance(items, list) else []


def parts(content: JsonObject) -> list[JsonObject]:
    """The parts of one content."""
    found = content.get("parts")
    return [p for p in found if isinstance(p, dict)] if isinstance(found, list) else []


def script_step(body: Any) -> int:
    """How many replies of ours the conversation holds: the index of the next one."""
    count = 0
    for content in contents(body):
        if content.get("role") != "model":
            continue
        calls = sum(1 for part in parts(content) if "functionCall" in part)
        texts = any(part.get("text") and not part.get("thought") for part in parts(content))
        count += calls or int(texts)
    return count


def user_texts(body: Any) -> list[str]:
    """The text parts of the user contents (prompt, hook contexts), in order."""
    return [
        str(part["text"])
        for content in contents(body)
        if content.get("role") == "user"
        for part in parts(content)
        if isinstance(part.get("text"), str)
    ]


def function_responses(body: Any) -> list[JsonObject]:
    """The ``functionResponse`` parts answered so far, in order."""
    return [
        part["functionResponse"]
        for content in contents(body)
        for part in parts(content)
        if isinstance(part.get("functionResponse"), dict)
    ]


def call_part(step: Shell | WriteFile | EditFile) -> JsonObject:
    """The ``functionCall`` part of an action."""
    if isinstance(step, Shell):
        name = "run_shell_command"
        args: JsonObject = {"command": step.command, "description": "Run a command"}
    elif isinstance(step, WriteFile):
        name, args = "write_file", {"file_path": step.path, "content": step.content}
    else:
        name = "replace"
        args = {
            "file_path": step.path,
            "instruction": f"Replace {step.old!r} with {step.new!r}.",
            "old_string": step.old,
            "new_string": step.new,
        }
    return {"functionCall": {"name": name, "args": args}}


def reply(part: JsonObject, model: str) -> JsonObject:
    """A complete ``GenerateContentResponse`` with one part."""
    output_tokens = max(1, len(json.dumps(part)) // 4)
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": 100,
            "candidatesTokenCount": output_tokens,
            "totalTokenCount": 100 + output_tokens,
        },
        "modelVersion": model,
    }


def sse(responses: list[JsonObject]) -> bytes:
    """Serialize responses as ``data: <json>`` records, as the Gemini API streams them."""
    return b"".join(f"data: {json.dumps(r)}\r\n\r\n".encode() for r in responses)


def wants_json(body: Any) -> bool:
    """Whether a request asks for a JSON answer (the CLI's structured side calls)."""
    config = body.get("generationConfig") if isinstance(body, dict) else None
    if not isinstance(config, dict):
        return False
    return bool(
        config.get("responseJsonSchema")
        or config.get("responseSchema")
        or config.get("responseMimeType") == "application/json"
    )


class FakeGemini(ScriptedServer):
    """The Gemini API playing a script; ``base_url`` is ``GOOGLE_GEMINI_BASE_URL``."""

    name = "fake-gemini"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``: the CLI appends ``/v1beta/models/...``."""
        return self.origin

    def user_texts(self) -> list[str]:
        """The user text parts of the last main request (hook contexts among them)."""
        main = self.main_requests()
        return user_texts(main[-1].body) if main else []

    def respond(self, request: RecordedRequest) -> Response:
        """Answer the model endpoints from the script, anything else with ``{}``."""
        model, _, method = request.path.rpartition("/")[2].partition(":")
        if request.method != "POST" or not method:
            return json_response({})
        if method == "streamGenerateContent":
            request.kind = "main"
            index = request.step = script_step(request.body)
            return 200, "text/event-stream", sse([reply(self.part(self.step(index)), model)])
        if method == "generateContent":
            request.kind = "side"
            text = json.dumps(NEXT_SPEAKER) if wants_json(request.body) else SIDE_TEXT
            return json_response(reply({"text": text}, model))
        if method == "countTokens":
            return json_response({"totalTokens": 100})
        return json_response({})

    @staticmethod
    def part(step: Step) -> JsonObject:
        """The one part of the reply for a script step."""
        if isinstance(step, (Shell, WriteFile, EditFile)):
            return call_part(step)
        return {"text": step.text}
