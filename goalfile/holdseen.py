"""Which of the Stop hook's holds the host delivered, as the host's transcript records them.

A hold counts (it lets a later stop on the same ledger entry go, or counts toward the loop
guard's streak) only when the host itself was held: a `goalfile hook stop` the agent runs from
its shell, with input of its own making, writes the same ledger entries as the host's run, and
nothing the hook is given tells the two apart (:mod:`goalfile.selfrun`). What the host alone
writes is its record of a Stop hook's block, in the session's transcript, with the hold's words
(tests/hosts/test_own_hook_stop_hold.py probed the four hosts):

* Claude Code: an entry ``{"type": "attachment", "attachment": {"type": "hook_blocking_error",
  "hookEvent": "Stop", "blockingError": {"blockingError": REASON}}}``;
* Codex: ``{"type": "response_item", "payload": {"type": "message", "role": "user", "content":
  [{"type": "input_text", "text": "<hook_prompt hook_run_id=...>REASON</hook_prompt>"}]}}``;
* Gemini CLI: ``{"type": "user", "content": [{"text": REASON}]}`` (a tool's result there is a
  ``functionResponse`` item instead);
* pi (goalfile's extension sends the reason as a follow-up user message): ``{"type": "message",
  "message": {"role": "user", "content": [{"type": "text", "text": REASON}]}}``.

The agent's own run prints the same words, but they reach the transcript as its tool call's
result, which none of these shapes is. Only lines that name ``verify-goal`` and one of the
shapes' words are decoded; at most the transcript's last 64 MiB are read
(:func:`goalfile.blockcap.lines_from_end`). Pure but for :func:`delivered`, which reads the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Final

__all__ = ["delivered", "host_texts"]

_SHAPES: Final = (b'"hook_blocking_error"', b"<hook_prompt", b'"user"')
_SUMMARY: Final = b"verify-goal"  # every hold counted here says a verify summary line


def _texts(items: object, *kinds: str | None) -> Iterator[str]:
    """The ``text`` of each item of ``items`` (a message's content) of one of ``kinds``."""
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("type") in kinds:
            text = item.get("text")
            if isinstance(text, str):
                yield text


def host_texts(entry: object) -> list[str]:
    """The words of a Stop hook's block, or of a person's prompt, that the transcript line
    ``entry`` records as the host's own; none for anything else (a tool's result, the model's
    reply, a subagent's entries)."""
    if not isinstance(entry, dict) or entry.get("isSidechain") is True:
        return []
    kind = entry.get("type")
    if kind == "attachment":  # Claude Code
        attachment = entry.get("attachment")
        if not isinstance(attachment, dict) or attachment.get("type") != "hook_blocking_error":
            return []
        if attachment.get("hookEvent") != "Stop":
            return []
        error = attachment.get("blockingError")
        error = error.get("blockingError") if isinstance(error, dict) else error
        return [error] if isinstance(error, str) else []
    if kind == "response_item":  # Codex
        payload = entry.get("payload")
        if not isinstance(payload, dict) or payload.get("type") != "message":
            return []
        if payload.get("role") != "user":
            return []
        texts = _texts(payload.get("content"), "input_text")
        return [text for text in texts if text.startswith("<hook_prompt")]
    if kind == "user" and "message" not in entry:  # Gemini CLI (Claude Code's have a message)
        return list(_texts(entry.get("content"), None, "text"))
    if kind == "message":  # pi
        message = entry.get("message")
        if not isinstance(message, dict) or message.get("role") != "user":
            return []
        return list(_texts(message.get("content"), "text"))
    return []


def delivered(transcript: str | None, marks: Iterable[str]) -> frozenset[str] | None:
    """Of ``marks`` (each the summary line of the verify entry a hold was made on, which
    every hold on it says), those that a block the host recorded in the session's
    ``transcript`` says; ``None`` when there is no transcript or it cannot be read."""
    if transcript is None:
        return None
    from goalfile.blockcap import lines_from_end

    wanted = set(marks)
    found: set[str] = set()
    try:
        for line in lines_from_end(transcript):
            if not wanted:
                break
            if _SUMMARY not in line or not any(shape in line for shape in _SHAPES):
                continue
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):
                continue
            for text in host_texts(entry):
                seen = {mark for mark in wanted if mark in text}
                found |= seen
                wanted -= seen
    except OSError:
        return None
    return frozenset(found)
