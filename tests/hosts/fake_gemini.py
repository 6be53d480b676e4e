"""A scripted fake Gemini API server (``streamGenerateContent`` over SSE), as Gemini CLI uses it.

Built on :class:`fake_model.FakeModel`: the same scripts, log and request limit. Gemini CLI
posts ``/v1beta/models/<model>:streamGenerateContent?alt=sse`` for the agent loop and, now and
then, ``:generateContent`` (JSON) or ``:countTokens`` for side questions; every model path is
answered, whatever the model name.

The wire format: the request's ``contents`` is the conversation (``role`` ``user`` or
``model``, each with ``parts``: ``text``, ``functionCall`` or ``functionResponse``). A reply is
one SSE ``data:`` line holding a ``GenerateContentResponse``: ``candidates[0].content.parts``
(text, or a ``functionCall`` of ``run_shell_command``) and ``usageMetadata``
(``promptTokenCount`` including ``cachedContentTokenCount``, ``candidatesTokenCount``,
``thoughtsTokenCount``, ``totalTokenCount``).

An AfterAgent hook's ``deny`` reason reaches the model as a plain user text turn after the
model's last answer: :attr:`Turn.feedback` is that text.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

from fake_model import Call, FakeModel, LoggedRequest, Reply, Say, Shell, Turn, Usage

__all__ = ["Call", "GeminiServer", "declared_tools", "gemini_tokens"]


def declared_tools(body: dict[str, Any]) -> list[str]:
    """The function names a request offers the model."""
    names = []
    for tool in body.get("tools") or []:
        for declaration in tool.get("functionDeclarations") or [] if isinstance(tool, dict) else []:
            if isinstance(declaration, dict) and isinstance(declaration.get("name"), str):
                names.append(declaration["name"])
    return names


ROUTE = re.compile(r"^/v1(?:beta|alpha)?/models/[^/:]+:(streamGenerateContent|generateContent)$")


class _ModelRoutes:
    """``route in GeminiServer.model_paths`` for every model name."""

    def __contains__(self, route: object) -> bool:
        return isinstance(route, str) and ROUTE.match(route) is not None


def gemini_tokens(usage: Usage) -> int:
    """What goalfile counts for one Gemini reply: input without the cached part, plus output."""
    return usage.input - usage.cache_read + usage.output


def _parts(content: Any) -> list[dict[str, Any]]:
    if not isinstance(content, dict):
        return []
    return [p for p in content.get("parts") or [] if isinstance(p, dict)]


class GeminiServer(FakeModel):
    model_paths = _ModelRoutes()  # type: ignore[assignment]
    _current = threading.local()

    def is_model_request(self, body: Any) -> bool:
        return isinstance(body, dict) and isinstance(body.get("contents"), list)

    def usage_for(self, index: int) -> Usage:
        # input includes the cached tokens, as Gemini reports them
        return Usage(input=1200 + 17 * index, output=30 + index, cache_read=200 + index)

    def is_agent_request(self, body: dict[str, Any]) -> bool:
        """The agent loop offers tools; side questions (next speaker, titles) do not."""
        return bool(body.get("tools"))

    def parse_turn(self, index: int, body: dict[str, Any]) -> Turn:
        contents = [c for c in body.get("contents", []) if isinstance(c, dict)]
        last = contents[-1] if contents else {}
        parts = _parts(last)
        after_tool = last.get("role") == "user" and any("functionResponse" in p for p in parts)
        texts = [p["text"] for p in parts if isinstance(p.get("text"), str)]
        answered = any(c.get("role") == "model" for c in contents[:-1])
        feedback = None
        if not after_tool and last.get("role") == "user" and answered and texts:
            feedback = "\n".join(texts)
        every: list[str] = []
        for content in contents:
            for part in _parts(content):
                if isinstance(part.get("text"), str):
                    every.append(part["text"])
                elif "functionResponse" in part:
                    every.append(json.dumps(part["functionResponse"]))
        outputs = [json.dumps(p["functionResponse"]) for p in parts if "functionResponse" in p]
        return Turn(
            index=index,
            body=body,
            after_tool=after_tool,
            feedback=feedback,
            tool_output="\n".join(outputs) if after_tool else None,
            text="\n".join(every),
        )

    def respond(self, turn: Turn, reply: Reply | Call, usage: Usage) -> tuple[str, Any]:
        if not self.is_agent_request(turn.body):
            reply = Say('{"reasoning": "the model is done", "next_speaker": "user"}')
        if isinstance(reply, Call):
            part: dict[str, Any] = {"functionCall": {"name": reply.name, "args": reply.args}}
        elif isinstance(reply, Shell):
            part = {
                "functionCall": {
                    "name": "run_shell_command",
                    "args": {"command": reply.command, "description": "run a command"},
                }
            }
        else:
            part = {"text": reply.text}
        document = {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [part]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": usage.input,
                "candidatesTokenCount": usage.output,
                "cachedContentTokenCount": usage.cache_read,
                "totalTokenCount": usage.input + usage.output,
            },
            "modelVersion": "gemini-fake",
            "responseId": f"fake{turn.index:04d}",
        }
        if ":streamGenerateContent" in getattr(self._current, "path", ""):
            return "sse", iter([("", document)])
        return "json", document

    def _record(self, entry: LoggedRequest) -> int:
        self._current.path = entry.path  # the same handler thread then calls respond()
        return super()._record(entry)

    def answer_other(self, route: str, body: Any) -> Any:
        if route.endswith(":countTokens"):
            return {"totalTokens": 100}
        return None

    def answer_get(self, path: str) -> Any:
        if path.split("?", 1)[0].endswith("/models"):
            return {"models": []}
        return None
