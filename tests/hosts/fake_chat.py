"""A scripted fake OpenAI chat-completions server (streamed), as pi uses it.

Built on :class:`fake_model.FakeModel`: the same scripts, log and request limit. pi's
``openai-completions`` provider posts ``/v1/chat/completions`` with ``stream: true``; the
reply is a stream of ``chat.completion.chunk`` objects (SSE ``data:`` lines): the text or one
``tool_calls`` entry for pi's ``bash`` tool (``{"command"}``), a chunk with the
``finish_reason``, then a chunk with ``usage`` (``prompt_tokens`` including
``prompt_tokens_details.cached_tokens``, ``completion_tokens``) and no choices.

goalfile's pi extension sends an unmet goal's reason as a follow-up user message:
:attr:`Turn.feedback` is the text of a user message that follows an assistant message.
"""

from __future__ import annotations

import json
from typing import Any

from fake_gemini import Call
from fake_model import FakeModel, Reply, Say, Shell, Turn, Usage

__all__ = ["ChatServer", "pi_tokens"]


def pi_tokens(usage: Usage) -> int:
    """What goalfile counts for one reply as pi records it: input without the cache, plus
    output (pi's ``input`` is ``prompt_tokens - cached_tokens``; it writes no cache)."""
    return usage.input - usage.cache_read + usage.output


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text")) for p in content if isinstance(p, dict) and "text" in p)
    return ""


class ChatServer(FakeModel):
    model_paths = ("/v1/chat/completions",)

    def is_model_request(self, body: Any) -> bool:
        return isinstance(body, dict) and isinstance(body.get("messages"), list)

    def usage_for(self, index: int) -> Usage:
        return Usage(input=900 + 13 * index, output=40 + index, cache_read=100 + index)

    def parse_turn(self, index: int, body: dict[str, Any]) -> Turn:
        messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
        last = messages[-1] if messages else {}
        after_tool = last.get("role") == "tool"
        answered = any(m.get("role") == "assistant" for m in messages[:-1])
        feedback = None
        if last.get("role") == "user" and answered:
            feedback = _text(last.get("content"))
        every = [_text(m.get("content")) for m in messages]
        return Turn(
            index=index,
            body=body,
            after_tool=after_tool,
            feedback=feedback,
            tool_output=_text(last.get("content")) if after_tool else None,
            text="\n".join(every),
        )

    def respond(self, turn: Turn, reply: Reply | Call, usage: Usage) -> tuple[str, Any]:
        model = turn.body.get("model") or "fake-model"
        base = {
            "id": f"chatcmpl-fake{turn.index:04d}",
            "object": "chat.completion.chunk",
            "created": 1_764_547_200,
            "model": model,
        }
        if isinstance(reply, Shell | Call):
            name, args = (
                ("bash", {"command": reply.command})
                if isinstance(reply, Shell)
                else (
                    reply.name,
                    reply.args,
                )
            )
            call = {
                "index": 0,
                "id": f"call_fake{turn.index:04d}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            delta: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            assert isinstance(reply, Say)
            delta = {"role": "assistant", "content": reply.text}
            finish = "stop"
        wire_usage = {
            "prompt_tokens": usage.input,
            "completion_tokens": usage.output,
            "total_tokens": usage.input + usage.output,
            "prompt_tokens_details": {"cached_tokens": usage.cache_read},
        }
        chunks = [
            {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
            {**base, "choices": [], "usage": wire_usage},
        ]
        return "sse", iter(("", chunk) for chunk in chunks)

    def answer_get(self, path: str) -> Any:
        if path.split("?", 1)[0] == "/v1/models":
            return {"object": "list", "data": [{"id": "fake-model", "object": "model"}]}
        return None
