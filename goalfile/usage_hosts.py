"""Token usage of Gemini CLI and pi sessions, from one decoded session-file line at a time.

Pure: no I/O. :mod:`goalfile.usage` detects the host and feeds every line to the tally.

* **Gemini CLI** ``~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl``: an append log.
  The first line is the session header (``sessionId``, ``projectHash``, ``startTime``, no
  ``type``); each message is a line with ``id`` and ``type`` (``user``, ``gemini``, ``info``...);
  ``{"$set": {...}}`` lines update fields, and ``$set.messages`` may list messages again. A
  message can be written more than once with the same ``id`` (before and after its tool calls),
  so messages are keyed on ``id`` and the larger count wins. Per ``gemini`` message,
  ``tokens`` = ``{input, output, cached, thoughts, tool, total}`` where ``input`` includes
  ``cached``; goalfile counts ``input - cached + output + thoughts + tool`` (what was not read
  from the cache, as for Codex).
* **pi** ``~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl``: a header
  ``{"type": "session", "version", "id", "cwd"}``, then entries with ``id``; an assistant
  message is ``{"type": "message", "message": {"role": "assistant", "usage": {input, output,
  cacheRead, cacheWrite, totalTokens, cost}}}`` where ``input`` excludes the cache. goalfile
  counts ``input + output + cacheWrite`` (cache reads are not counted, as for Claude Code).
  Entries are keyed on their ``id``.
"""

from __future__ import annotations

import math

__all__ = [
    "GeminiTally",
    "PiTally",
    "gemini_tokens",
    "is_gemini_line",
    "is_pi_line",
    "pi_tokens",
]

JsonObject = dict[str, object]


def _obj(value: object) -> JsonObject | None:
    return value if isinstance(value, dict) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _count(value: object) -> int:
    """A token count, else 0 (a bool, a negative or a fraction is not a count)."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return max(value, 0)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and value >= 0:
        return int(value)
    return 0


# --- Gemini CLI -----------------------------------------------------------------------------

GEMINI_TYPES = frozenset({"gemini", "user", "info", "error", "warning"})


def is_gemini_line(obj: JsonObject) -> bool:
    """A line only a Gemini CLI session file has: its header, or a ``gemini`` message."""
    if "type" not in obj and _str(obj.get("sessionId")) and "projectHash" in obj:
        return True
    return obj.get("type") == "gemini" and _str(obj.get("id")) is not None


def gemini_tokens(tokens: JsonObject) -> int:
    """``input - cached + output + thoughts + tool`` of one message's ``tokens``."""
    fresh = max(_count(tokens.get("input")) - _count(tokens.get("cached")), 0)
    return (
        fresh
        + _count(tokens.get("output"))
        + _count(tokens.get("thoughts"))
        + _count(tokens.get("tool"))
    )


class GeminiTally:
    """Gemini usage so far: one count per distinct message id."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self._messages: dict[str, int] = {}
        self.tokens = 0
        self.newest: str | None = None  # the id of the latest model message first seen

    def feed(self, obj: JsonObject) -> None:
        if self.session_id is None and "type" not in obj:
            self.session_id = _str(obj.get("sessionId"))
        update = _obj(obj.get("$set"))
        if update is not None:
            listed = update.get("messages")
            for message in listed if isinstance(listed, list) else ():
                if isinstance(message, dict):
                    self._message(message)
            return
        self._message(obj)

    def _message(self, message: JsonObject) -> None:
        if message.get("type") != "gemini":
            return
        key = _str(message.get("id"))
        tokens = _obj(message.get("tokens"))
        if key is None or tokens is None:
            return
        count = gemini_tokens(tokens)
        kept = self._messages.get(key)
        if kept is None:
            self.newest = key
        if kept is None or count > kept:
            self._messages[key] = count
            self.tokens += count - (kept or 0)


# --- pi -------------------------------------------------------------------------------------


def is_pi_line(obj: JsonObject) -> bool:
    """pi's session header, or a pi message entry."""
    kind = obj.get("type")
    if kind == "session":
        return _str(obj.get("id")) is not None and "version" in obj
    if kind == "message":
        message = _obj(obj.get("message"))
        return message is not None and isinstance(message.get("role"), str)
    return False


def pi_tokens(usage: JsonObject) -> int:
    """``input + output + cacheWrite`` of one assistant message's ``usage``."""
    return (
        _count(usage.get("input")) + _count(usage.get("output")) + _count(usage.get("cacheWrite"))
    )


class PiTally:
    """pi usage so far: one count per distinct entry id."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self._entries: dict[str, int] = {}
        self.tokens = 0

    def feed(self, obj: JsonObject) -> None:
        kind = obj.get("type")
        if kind == "session" and self.session_id is None:
            self.session_id = _str(obj.get("id"))
            return
        if kind != "message":
            return
        message = _obj(obj.get("message"))
        if message is None or message.get("role") != "assistant":
            return
        usage = _obj(message.get("usage"))
        if usage is None:
            return
        count = pi_tokens(usage)
        key = _str(obj.get("id"))
        if key is None:
            self.tokens += count
            return
        kept = self._entries.get(key)
        if kept is None or count > kept:
            self._entries[key] = count
            self.tokens += count - (kept or 0)
