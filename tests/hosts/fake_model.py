"""Scripted fake model servers on 127.0.0.1, one per wire format, for driving real host CLIs.

A host CLI (Claude Code, Codex, ...) is pointed at one of these servers instead of its vendor's
API. The server logs every request it receives (method, path, headers, JSON body) and answers
each model request from a *script*: a function that looks at the request (is it the first
prompt, a tool result, or a Stop hook's feedback?) and returns what the model says next: a
shell tool call (:class:`Shell`) or plain text (:class:`Say`).

* :class:`AnthropicServer` speaks the Anthropic Messages API (``POST /v1/messages``, streamed
  as server-sent events when the body says ``stream: true``), as Claude Code uses it.
* :class:`ResponsesServer` speaks the OpenAI Responses API (``POST /v1/responses``, SSE), as
  Codex uses it with ``wire_api = "responses"``.

Every reply carries distinct, known token usage (:meth:`FakeModel.usage_for`), recorded in the
log next to the request, so a test can compute exactly what a transcript must add up to.

The servers bind 127.0.0.1 on a free port and refuse to answer more than ``max_requests``
model requests (HTTP 500 after that), so a host that loops cannot loop forever.
"""

from __future__ import annotations

import json
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from xml.sax.saxutils import unescape

__all__ = [
    "AnthropicServer",
    "Call",
    "FakeModel",
    "LoggedRequest",
    "ResponsesServer",
    "Say",
    "Script",
    "Shell",
    "Turn",
    "Usage",
    "fix_after_feedback",
    "never_fix",
]


# --- what the model says --------------------------------------------------------------------


@dataclass(frozen=True)
class Shell:
    """A call of the host's shell tool with this command line; ``timeout_ms``, when given, is
    the time the model asks the tool to give it (Claude Code's Bash `timeout`, after which it
    ends the command; Codex's `exec_command` `yield_time_ms`, after which it answers with what
    the command printed so far and leaves it running)."""

    command: str
    timeout_ms: int | None = None


@dataclass(frozen=True)
class Say:
    """Plain assistant text, which ends the model's turn."""

    text: str


@dataclass(frozen=True)
class Call:
    """A call of any tool the request offers (an MCP server's, say) with these arguments."""

    name: str
    args: dict[str, Any]


Reply = Shell | Say


@dataclass(frozen=True, kw_only=True)
class Turn:
    """What a script sees of one model request."""

    index: int  # 0 for the first model request of the server's life
    body: dict[str, Any]
    after_tool: bool  # the newest input is the result of a tool call
    feedback: str | None  # the newest input is a Stop hook's reason: its text
    tool_output: str | None  # the newest input is a tool's result: its text
    text: str  # every piece of text in the request's input, joined (for searching)


Script = Callable[[Turn], Reply]


def fix_after_feedback(fix: str, *, idle: str = "true", done: str = "Done.") -> Script:
    """The script most cases use: a useless shell call first, then, when the request carries a
    Stop hook's reason, a shell call that fixes the goal; text after each tool result."""

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say(done)
        if turn.feedback is not None:
            return Shell(fix)
        return Shell(idle)

    return script


def never_fix(idle: str = "true", *, done: str = "Done.") -> Script:
    """A model that never fixes anything: the same useless shell call on every prompt."""

    def script(turn: Turn) -> Reply:
        return Say(done) if turn.after_tool else Shell(idle)

    return script


# --- the log --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Usage:
    """Token usage reported with one reply, in the wire format's own terms.

    Anthropic: ``input``, ``output``, ``cache_creation``, ``cache_read``.
    Responses: ``input`` (cached included), ``output``, ``cache_read`` (= cached input).
    """

    input: int
    output: int
    cache_creation: int = 0
    cache_read: int = 0


@dataclass(kw_only=True)
class LoggedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it is not JSON, or None
    model_request: bool = False  # answered from the script
    turn: Turn | None = None
    reply: Reply | None = None
    usage: Usage | None = None
    status: int = 200


# --- the server -----------------------------------------------------------------------------


class FakeModel(ABC):
    """Base of the fake servers: the HTTP plumbing, the log and the usage numbering."""

    model_paths: tuple[str, ...] = ()

    def __init__(self, script: Script, *, max_requests: int = 60) -> None:
        self.script = script
        self.max_requests = max_requests
        self.log: list[LoggedRequest] = []
        self._lock = threading.Lock()
        self._served = 0
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    # -- lifecycle

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    # -- the log, for tests

    @property
    def model_requests(self) -> list[LoggedRequest]:
        with self._lock:
            return [r for r in self.log if r.model_request]

    def write_log(self, path: Path) -> Path:
        """The request log as JSON lines (method, path, body, and the reply and usage sent), to
        read after a run: it shows the reason text each request carried and every token figure
        the server reported."""
        with path.open("w", encoding="utf-8") as handle:
            for entry in list(self.log):
                record = {
                    "method": entry.method,
                    "path": entry.path,
                    "status": entry.status,
                    "feedback": entry.turn.feedback if entry.turn else None,
                    "reply": repr(entry.reply) if entry.reply else None,
                    "usage": vars(entry.usage) if entry.usage else None,
                    "body": entry.body,
                }
                handle.write(json.dumps(record) + "\n")
        return path

    def feedbacks(self) -> list[str]:
        """The Stop-hook reasons the model was given, in order."""
        return [r.turn.feedback for r in self.agent_requests() if r.turn and r.turn.feedback]

    def is_agent_request(self, body: dict[str, Any]) -> bool:
        """A request of the agent loop itself (its replies are what a transcript records)."""
        return True

    def agent_requests(self) -> list[LoggedRequest]:
        return [
            r
            for r in self.model_requests
            if r.turn is not None and self.is_agent_request(r.turn.body)
        ]

    def stops(self) -> int:
        """How often the model ended its turn (replied with plain text) in the agent loop."""
        return sum(isinstance(r.reply, Say) for r in self.agent_requests())

    def usage_for(self, index: int) -> Usage:
        """The usage reported with the ``index``-th model reply: distinct for every reply, so a
        sum over any set of replies tells which replies it counted."""
        return Usage(
            input=1000 + 17 * index, output=20 + index, cache_creation=100, cache_read=7 + index
        )

    # -- to be provided by each wire format

    @abstractmethod
    def parse_turn(self, index: int, body: dict[str, Any]) -> Turn:
        """The request's body, read in this wire format."""

    @abstractmethod
    def respond(self, turn: Turn, reply: Reply, usage: Usage) -> tuple[str, Any]:
        """``("sse", iterator of (event, data))`` or ``("json", document)``."""

    def is_model_request(self, body: Any) -> bool:
        return isinstance(body, dict)

    # -- plumbing

    def _record(self, entry: LoggedRequest) -> int:
        with self._lock:
            self.log.append(entry)
            if not entry.model_request:
                return -1
            index = self._served
            self._served += 1
            return index

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _body(self) -> Any:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if not raw:
                    return None
                try:
                    return json.loads(raw)
                except ValueError:
                    return raw.decode("utf-8", "replace")

            def _plain(self, status: int, document: Any = None, head: bool = False) -> None:
                data = json.dumps(document if document is not None else {}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if not head:
                    self.wfile.write(data)

            def do_HEAD(self) -> None:
                server._record(
                    LoggedRequest(
                        method="HEAD", path=self.path, headers=dict(self.headers), body=None
                    )
                )
                self._plain(200, head=True)

            def do_GET(self) -> None:
                entry = LoggedRequest(
                    method="GET", path=self.path, headers=dict(self.headers), body=None
                )
                server._record(entry)
                document = server.answer_get(self.path)
                entry.status = 200 if document is not None else 404
                self._plain(entry.status, document or {"error": "not found"})

            def do_POST(self) -> None:
                body = self._body()
                route = self.path.split("?", 1)[0]
                entry = LoggedRequest(
                    method="POST", path=self.path, headers=dict(self.headers), body=body
                )
                if route not in server.model_paths or not server.is_model_request(body):
                    server._record(entry)
                    document = server.answer_other(route, body)
                    entry.status = 200 if document is not None else 404
                    self._plain(entry.status, document or {"error": "not found"})
                    return
                entry.model_request = True
                index = server._record(entry)
                if index >= server.max_requests:
                    entry.status = 500
                    self._plain(500, {"error": "the fake model's request limit was reached"})
                    return
                turn = server.parse_turn(index, body)
                # a side request (a title, a summary) is answered without the script: run for
                # it, the script moved on a step the agent never saw, and a side request in
                # another thread could interleave with the agent's own
                agent = server.is_agent_request(body)
                reply = server.script(turn) if agent else Say("Goal work")
                usage = server.usage_for(index)
                entry.turn, entry.reply, entry.usage = turn, reply, usage
                kind, payload = server.respond(turn, reply, usage)
                if kind == "json":
                    self._plain(200, payload)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for event, data in payload:
                    named = f"event: {event}\n" if event else ""  # Gemini's SSE: data only
                    chunk = f"{named}data: {json.dumps(data)}\n\n"
                    self.wfile.write(chunk.encode())
                self.wfile.flush()
                self.close_connection = True

        return Handler

    def answer_get(self, path: str) -> Any:
        return None

    def answer_other(self, route: str, body: Any) -> Any:
        return None


# --- Anthropic Messages ---------------------------------------------------------------------


def _texts(content: Any) -> Iterator[str]:
    """Every text in a message's content (a string, or a list of blocks), nested results too."""
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for block in content:
            if isinstance(block, dict):
                for key in ("text", "content", "output"):
                    if key in block:
                        yield from _texts(block[key])
            elif isinstance(block, str):
                yield block


class AnthropicServer(FakeModel):
    """``POST /v1/messages``: Anthropic's Messages API, streamed (SSE) or not."""

    model_paths = ("/v1/messages",)
    # how Claude Code introduces a Stop hook's reason: a user message in older versions, a
    # system message in newer ones
    FEEDBACK = ("Stop hook feedback:", "Stop hook blocking error from command")
    omit_cache_breakdown = True  # as gateways do: no `usage.cache_creation` object

    def is_model_request(self, body: Any) -> bool:
        return isinstance(body, dict) and isinstance(body.get("messages"), list)

    def is_agent_request(self, body: dict[str, Any]) -> bool:
        """The main agent loop (it offers tools); side requests (titles, summaries) do not."""
        return bool(body.get("tools"))

    def parse_turn(self, index: int, body: dict[str, Any]) -> Turn:
        messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
        last = messages[-1] if messages else {}
        # Claude Code 2.1.332 follows a tool result with a system message of its own when the
        # tool moved the shell (`# Environment update ... Primary working directory: ...`):
        # the turn is still the tool's result, so that is read from the newest other message
        spoken = [m for m in messages if m.get("role") != "system"]
        newest = spoken[-1] if spoken else {}
        content = newest.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        after_tool = newest.get("role") == "user" and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks
        )
        feedback = None
        if not after_tool:
            for text in _texts(last.get("content")):
                for marker in self.FEEDBACK:
                    at = text.find(marker)
                    if at >= 0:
                        feedback = text[at:]
        every = [t for m in messages for t in _texts(m.get("content"))]
        return Turn(
            index=index,
            body=body,
            after_tool=after_tool,
            feedback=feedback,
            tool_output="\n".join(_texts(content)) if after_tool else None,
            text="\n".join(every),
        )

    def respond(self, turn: Turn, reply: Reply | Call, usage: Usage) -> tuple[str, Any]:
        message_id = f"msg_fake{turn.index:04d}"
        start_usage: dict[str, Any] = {
            "input_tokens": usage.input,
            "cache_creation_input_tokens": usage.cache_creation,
            "cache_read_input_tokens": usage.cache_read,
            "output_tokens": 1,
        }
        if not self.omit_cache_breakdown:
            start_usage["cache_creation"] = {
                "ephemeral_5m_input_tokens": usage.cache_creation,
                "ephemeral_1h_input_tokens": 0,
            }
        if isinstance(reply, Shell):
            block: dict[str, Any] = {
                "type": "tool_use",
                "id": f"toolu_fake{turn.index:04d}",
                "name": "Bash",
                "input": {
                    "command": reply.command,
                    "description": "run a command",
                    **({"timeout": reply.timeout_ms} if reply.timeout_ms else {}),
                },
            }
            stop_reason = "tool_use"
        elif isinstance(reply, Call):
            block = {
                "type": "tool_use",
                "id": f"toolu_fake{turn.index:04d}",
                "name": reply.name,
                "input": reply.args,
            }
            stop_reason = "tool_use"
        else:
            block = {"type": "text", "text": reply.text}
            stop_reason = "end_turn"
        model = turn.body.get("model") or "claude-fake"
        final_usage = {**start_usage, "output_tokens": usage.output}
        if not turn.body.get("stream"):
            return "json", {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [block],
                "stop_reason": stop_reason,
                "stop_sequence": None,
                "usage": final_usage,
            }
        events: list[tuple[str, Any]] = [
            (
                "message_start",
                {
                    "type": "message_start",
                    "message": {
                        "id": message_id,
                        "type": "message",
                        "role": "assistant",
                        "model": model,
                        "content": [],
                        "stop_reason": None,
                        "stop_sequence": None,
                        "usage": start_usage,
                    },
                },
            )
        ]
        if block["type"] == "tool_use":
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {**block, "input": {}},
                    },
                )
            )
            events.append(
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {
                            "type": "input_json_delta",
                            "partial_json": json.dumps(block["input"]),
                        },
                    },
                )
            )
        else:
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {**block, "text": ""},
                    },
                )
            )
            events.append(
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "text_delta", "text": block["text"]},
                    },
                )
            )
        events += [
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                    "usage": {"output_tokens": usage.output},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        return "sse", iter(events)

    def answer_other(self, route: str, body: Any) -> Any:
        if route == "/v1/messages/count_tokens":
            return {"input_tokens": 1000}
        return None


# --- OpenAI Responses -----------------------------------------------------------------------


HOOK_PROMPT = re.compile(r"<hook_prompt[^>]*>(.*?)</hook_prompt>", re.S)


class ResponsesServer(FakeModel):
    """``POST /v1/responses``: OpenAI's Responses API, streamed as server-sent events."""

    model_paths = ("/v1/responses",)

    def usage_for(self, index: int) -> Usage:
        """As :meth:`FakeModel.usage_for`, in the Responses API's terms: no cache creation, and
        a cached part of the input (``input_tokens_details.cached_tokens``) that a reader must
        not count twice."""
        return Usage(input=1000 + 17 * index, output=20 + index, cache_read=5 + index)

    def is_model_request(self, body: Any) -> bool:
        return isinstance(body, dict) and "input" in body

    def parse_turn(self, index: int, body: dict[str, Any]) -> Turn:
        items = [i for i in body.get("input", []) if isinstance(i, dict)]
        last = items[-1] if items else {}
        after_tool = last.get("type") in {"function_call_output", "custom_tool_call_output"}
        feedback = None
        if not after_tool and last.get("role") == "user":
            for text in _texts(last.get("content")):
                found = HOOK_PROMPT.search(text)
                if found:  # an XML element: the reason's `&`, `<` and `>` come escaped
                    feedback = unescape(found.group(1), {"&quot;": '"', "&apos;": "'"})
        every = [t for i in items for t in _texts(i.get("content", i.get("output")))]
        return Turn(
            index=index,
            body=body,
            after_tool=after_tool,
            feedback=feedback,
            tool_output="\n".join(_texts(last.get("output"))) if after_tool else None,
            text="\n".join(every),
        )

    def respond(self, turn: Turn, reply: Reply, usage: Usage) -> tuple[str, Any]:
        response_id = f"resp_fake{turn.index:04d}"
        if isinstance(reply, Shell):
            item: dict[str, Any] = {
                "type": "function_call",
                "id": f"fc_fake{turn.index:04d}",
                "call_id": f"call_fake{turn.index:04d}",
                "name": "exec_command",
                "arguments": json.dumps(
                    {
                        "cmd": reply.command,
                        **({"yield_time_ms": reply.timeout_ms} if reply.timeout_ms else {}),
                    }
                ),
                "status": "completed",
            }
        else:
            item = {
                "type": "message",
                "id": f"msg_fake{turn.index:04d}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
            }
        wire_usage = {
            "input_tokens": usage.input,
            "input_tokens_details": {"cached_tokens": usage.cache_read},
            "output_tokens": usage.output,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": usage.input + usage.output,
        }
        base = {"id": response_id, "object": "response", "model": turn.body.get("model")}
        events: list[tuple[str, Any]] = [
            (
                "response.created",
                {
                    "type": "response.created",
                    "response": {**base, "status": "in_progress", "output": []},
                },
            ),
        ]
        if item["type"] == "message":
            events += [
                (
                    "response.output_item.added",
                    {
                        "type": "response.output_item.added",
                        "output_index": 0,
                        "item": {**item, "status": "in_progress", "content": []},
                    },
                ),
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": reply.text if isinstance(reply, Say) else "",
                    },
                ),
            ]
        else:
            events.append(
                (
                    "response.output_item.added",
                    {"type": "response.output_item.added", "output_index": 0, "item": item},
                )
            )
        events += [
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            (
                "response.completed",
                {
                    "type": "response.completed",
                    "response": {
                        **base,
                        "status": "completed",
                        "output": [item],
                        "usage": wire_usage,
                    },
                },
            ),
        ]
        return "sse", iter(events)

    def answer_get(self, path: str) -> Any:
        if path.split("?", 1)[0] == "/v1/models":
            return {"object": "list", "data": []}
        return None
