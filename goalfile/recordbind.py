"""Whether the Stop hook's record of a session was taken by the host's own hook, as the host's
transcript tells it.

The record (:mod:`goalfile.sessionmemory`) is written by `goalfile hook start`, which the host
runs when the session starts, before the agent's first tool call, and by `goalfile hook stop`,
which it runs when the agent's turn has ended, when every tool call has its result. The agent
can run either itself, also in a way whose words do not show it (a script it wrote, an encoded
command): such a run happens inside one of its tool calls, which each host writes to its
transcript before it runs it. So each record keeps the transcript its taker was given and that
file's length then (:class:`Taken`), and a stop, given the real transcript by the host, asks of
it (:func:`unbound`): does the record name this transcript, and does the transcript up to that
length hold no tool call (a record taken at the start) or no tool call without its result (one
taken at a stop)? A record taken by the agent, with another transcript, none, or this one while
its tool call runs, fails it.

Gemini CLI gives its start hook no transcript before the session's first turn is recorded
(docs/hosts.md), so there a record taken at the start without one is asked instead whether the
transcript dates a tool call before the time the record was taken. Gemini CLI writes a call
once it has ended, in a line dated when the model's message began: so a call written after
the length a record keeps, dated before the record's time, was running when it was taken.
Only the
lines that hold a tool call or its result are decoded.

The record also keeps, sealed, a digest of the transcript up to that length and what that part
holds (a tool call at all; the calls without their result), so a stop decodes only the part
written since the record was taken, whatever the transcript's length: the part before it is
hashed and compared (:func:`unbound`), which also tells a transcript rewritten there, at the
same length or not. The taker at a stop finds what the part up to its own length holds the
same way, from the record before it when that one's digest still holds (:func:`taken_now`).
I/O: :func:`taken_now` and :func:`unbound` read the transcript.
"""

from __future__ import annotations

import json
import os
from typing import Final

from goalfile.value import Compared

__all__ = ["STARTED", "Taken", "started", "taken_now", "unbound"]

# what `goalfile hook start` tells the host as context when the session has a record: each
# keeps it in the session's transcript (Claude Code 2.1.332 in the start hook's output, Codex
# 0.171.0 as a developer message, Gemini CLI 0.61.0 in the first user message, goalfile's pi
# extension as a custom entry), where a stop without a record finds that the session had one
# (:func:`started`); no character JSON escapes
STARTED: Final = (
    "goalfile: the Stop hook recorded this session's start; it holds the agent until each "
    "active goal is met by its checks (`goalfile status` lists them)"
)

_SIZE_LIMIT: Final = 1 << 30  # bytes: a larger transcript is not read (the record stands)
_OPENSSL_FROM: Final = 4 << 20  # bytes: a longer transcript is hashed with OpenSSL's SHA-256
# a line is decoded only when it holds one of these: a tool call's or a result's type, as
# each host writes it (:func:`goalfile.selfrun.tool_calls`)
_MARKERS: Final = (
    b'"tool_use"',
    b'"tool_result"',
    b'"function_call',
    b'"custom_tool_call',
    b'"toolCall"',
    b'"toolCalls"',
    b'"toolResult"',
    b'"functionResponse"',
)


class Taken(Compared):
    """What a record keeps of how it was taken: the transcript its taker was given (empty:
    none), that file's length in bytes then (0: not there yet), whether `goalfile hook
    start` took it (else a stop), and when (seconds since the epoch); and of that transcript
    up to that length, its SHA-256 (empty: not known, a record taken before records kept it),
    whether it holds a tool call, and the ids of the calls it holds without their result."""

    __slots__ = ("at", "called", "digest", "pending", "size", "start", "transcript")

    def __init__(
        self,
        *,
        transcript: str,
        size: int,
        start: bool,
        at: float = 0.0,
        digest: str = "",
        called: bool = False,
        pending: tuple[str, ...] = (),
    ) -> None:
        self.transcript: Final = transcript
        self.size: Final = size
        self.start: Final = start
        self.at: Final = at
        self.digest: Final = digest
        self.called: Final = called
        self.pending: Final = pending

    def to_json(self) -> dict[str, object]:
        return {
            "transcript": self.transcript,
            "size": self.size,
            "start": self.start,
            "at": self.at,
            "digest": self.digest,
            "called": self.called,
            "pending": list(self.pending),
        }

    @classmethod
    def from_json(cls, data: object) -> Taken | None:
        if not isinstance(data, dict):
            return None
        transcript, size, start = data.get("transcript"), data.get("size"), data.get("start")
        if not isinstance(transcript, str) or "\0" in transcript:
            return None
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            return None
        at = data.get("at")
        at = float(at) if isinstance(at, int | float) and not isinstance(at, bool) else 0.0
        digest, pending = data.get("digest"), data.get("pending")
        digest = digest if isinstance(digest, str) and len(digest) == 64 else ""
        kept = [key for key in pending if isinstance(key, str)] if isinstance(pending, list) else []
        return cls(
            transcript=transcript,
            size=size,
            start=start is True,
            at=at,
            digest=digest,
            called=data.get("called") is True,
            pending=tuple(kept),
        )


def taken_now(transcript: str | None, *, start: bool, before: Taken | None = None) -> Taken:
    """The mark of a record taken now by a hook given ``transcript``: its length, digest and
    calls. What the part up to the length ``before`` (the session's record found at this
    stop) keeps holds is taken from it when its digest says that part is unchanged, so only
    the part written since is decoded."""
    import time

    at = time.time()
    data = _read(transcript) if transcript else None
    if data is None or not transcript:  # none given, or it cannot be read: its length only
        size = 0
        if transcript:
            try:
                size = os.stat(os.path.expanduser(transcript)).st_size
            except (OSError, ValueError):
                size = 0
        return Taken(transcript=transcript or "", size=size, start=start, at=at)
    view = memoryview(data)
    called, pending, offset = False, frozenset[str](), 0
    if (
        before is not None
        and before.digest
        and before.size <= len(data)
        and _same_file(before.transcript, transcript)
        and _digest(view[: before.size]) == before.digest
    ):
        called, pending, offset = before.called, frozenset(before.pending), before.size
    calls, answered = _calls(data[_line_start(data, offset) :])
    return Taken(
        transcript=transcript,
        size=len(data),
        start=start,
        at=at,
        digest=_digest(view),
        called=called or bool(calls),
        pending=tuple(sorted((pending | calls) - answered)),
    )


def unbound(taken: Taken | None, transcript: str | None, *, bare_start: bool = False) -> str:
    """Why a record marked ``taken`` is not one the host's hook took, for a stop the host gave
    ``transcript`` (a phrase; see the module's text); empty when it is, or when nothing can be
    told (the host gave no transcript, or it cannot be read). ``bare_start``: the host gives
    its start hook no transcript (Gemini CLI), so a start record without one is its own."""
    if not transcript:
        return ""
    if taken is None:
        return "it does not say which transcript it was taken with"
    if not taken.transcript:
        if not (taken.start and bare_start):
            return "it was taken without the session's transcript, which the host gives its hooks"
        data = _read(transcript)  # a line of a tool call dated before the record was taken
        if data is not None and _called_before(data, taken.at):
            return "it was taken at a session's start after the agent's first tool call"
        return ""
    if not _same_file(taken.transcript, transcript):
        return "it was taken with another transcript than the one the host gives this stop"
    data = _read(transcript)
    if data is None:
        return ""
    if len(data) < taken.size:
        return "the transcript is shorter now than when the record was taken"
    if taken.digest:  # what the part up to its length holds, as the taker found it
        if _digest(memoryview(data)[: taken.size]) != taken.digest:
            return "the transcript was rewritten, up to its length when the record was taken"
        called, running = taken.called, bool(taken.pending)
    else:  # a record taken before records kept a digest: that part is read
        calls, answered = _calls(data[: taken.size])
        called, running = bool(calls), bool(calls - answered)
    if taken.start and called:
        return "it was taken at a session's start after the agent's first tool call"
    if running or _called_before(data[_line_start(data, taken.size) :], taken.at):
        return "it was taken while a tool call of the agent's was running"
    return ""


def _digest(data: memoryview) -> str:
    """The SHA-256 of ``data`` (hex): OpenSSL's for a long transcript, three times faster per
    byte, else the interpreter's own, which loads no library (:mod:`goalfile.digest`)."""
    if len(data) > _OPENSSL_FROM:
        import hashlib

        return hashlib.sha256(data).hexdigest()
    from goalfile.digest import sha256

    return sha256(data).hexdigest()  # type: ignore[arg-type]


def _line_start(data: bytes, offset: int) -> int:
    """Where the line of ``data`` that holds ``offset`` begins (a line the host was writing
    when a record was taken is read whole)."""
    return data.rfind(b"\n", 0, offset) + 1 if 0 < offset <= len(data) else 0


def started(transcript: str | None) -> bool:
    """Whether the transcript at ``transcript`` shows that `goalfile hook start` took the
    session's record (:data:`STARTED`, which the host wrote there; words the agent wrote
    there too only make a stop without a record stricter)."""
    if not transcript:
        return False
    data = _read(transcript)
    return data is not None and STARTED.encode() in data


def _called_before(data: bytes, at: float) -> bool:
    """Whether a line of ``data`` that holds a tool call is dated (its ``timestamp``, as
    Gemini CLI writes a message: ISO 8601) before ``at``, seconds since the epoch."""
    from datetime import datetime

    from goalfile.selfrun import call_ids

    for line in data.split(b"\n"):
        if not any(marker in line for marker in _MARKERS) or not call_ids(line):
            continue
        try:
            stamp = json.loads(line).get("timestamp")
            when = datetime.fromisoformat(stamp).timestamp() if isinstance(stamp, str) else None
        except (ValueError, AttributeError, RecursionError):
            continue
        if when is not None and when < at:
            return True
    return False


def _same_file(one: str, other: str) -> bool:
    try:
        first = os.path.realpath(os.path.expanduser(one))
        return first == os.path.realpath(os.path.expanduser(other))
    except (OSError, ValueError):
        return False


def _read(transcript: str) -> bytes | None:
    from goalfile.errors import GoalfileError
    from goalfile.files import read_regular

    try:
        return read_regular(os.path.expanduser(transcript), what="transcript", limit=_SIZE_LIMIT)
    except FileNotFoundError:
        return b""
    except (OSError, ValueError, GoalfileError):
        return None


def _calls(data: bytes) -> tuple[frozenset[str], frozenset[str]]:
    """The ids of every tool call ``data`` holds, and of those whose result it holds."""
    from goalfile.selfrun import call_ids, result_ids

    calls: set[str] = set()
    answered: set[str] = set()
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end]
        start = end + 1
        if any(marker in line for marker in _MARKERS):
            calls.update(call_ids(line))
            answered.update(result_ids(line))
    return frozenset(calls), frozenset(answered)
