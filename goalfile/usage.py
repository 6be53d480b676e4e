"""Token usage of a coding-agent session, read from the host's own transcript.

Two hosts are understood (the field paths and the traps are described in the transcript
``FORMATS.md`` of the fixtures):

* **Claude Code** session JSONL. Only ``assistant`` lines carry ``message.usage``; one API
  response is written as several lines (one per content block, each repeating the full usage),
  and streaming can leave an earlier snapshot with a smaller ``output_tokens``. Responses are
  keyed on ``message.id`` (falling back to the top-level ``requestId``) and the line with the
  larger token total wins. Per response: input + output + cache creation (the larger of the
  total and its breakdown, which Claude Code may write as zeros); cache reads are not counted.
  ``<synthetic>`` lines are not API calls and are skipped.
* **Codex CLI** rollout JSONL. ``token_count`` events carry a cumulative
  ``total_token_usage``; the session total is the last non-null one, as
  ``input_tokens - cached_input_tokens + output_tokens``. ``last_token_usage`` is never summed:
  Codex re-emits events with unchanged totals.

The module is split in two layers: pure functions and tallies that turn one decoded line into
state (no I/O), and :class:`TranscriptReader`, which reads only the bytes appended to the file
since its previous poll. Its memory is one entry per distinct response, never the file: a
line longer than :data:`LINE_LIMIT` (no host writes one) is skipped unread, like a line that is
not JSON, and a hole of a sparse file inside it is passed over without reading it.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import BinaryIO

from goalfile.errors import GoalfileError
from goalfile.usage_hosts import GeminiTally, PiTally, is_gemini_line, is_pi_line

__all__ = [
    "ClaudeTally",
    "CodexTally",
    "Host",
    "SessionUsage",
    "TranscriptError",
    "TranscriptReader",
    "claude_response",
    "claude_usage_tokens",
    "codex_total_tokens",
    "codex_usage_tokens",
    "detect_host",
    "parse_line",
    "read_usage",
]


class Host(StrEnum):
    CLAUDE = "claude"
    CODEX = "codex"
    GEMINI = "gemini"  # Gemini CLI session file (see goalfile.usage_hosts)
    PI = "pi"  # pi session file (see goalfile.usage_hosts)


@dataclass(frozen=True, kw_only=True)
class SessionUsage:
    """The cumulative usage of one session, as far as its transcript has been read."""

    host: Host
    session_id: str  # Claude: first top-level `sessionId`; Codex: first session_meta id; else stem
    tokens: int  # the project total: Claude in + out + cache creation; Codex in - cached + out
    transcript: str  # the path as given
    newest: str | None = None  # Gemini: the id of the session's latest model message


class TranscriptError(GoalfileError):
    """The transcript cannot be read, or it is neither a Claude Code nor a Codex transcript."""


JsonObject = dict[str, object]

# Top-level `type` values, used to tell the formats apart.
CODEX_TYPES = frozenset(
    {
        "session_meta",
        "response_item",
        "event_msg",
        "turn_context",
        "compacted",
        "token_usage_record",  # Codex 0.171: per-response usage (not summed: token_count is)
        "world_state",
    }
)
CLAUDE_TYPES = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "file-history-snapshot",
        "queue-operation",
        "attachment",
        "progress",
        "ai-title",
        "custom-title",
        # Claude Code 2.1.332
        "last-prompt",
        "atis-latch",
        "api-request",
        "api-request-shape",
        "api-request-blob",
        "tools-used",
        "cost-state",
    }
)

SYNTHETIC_MODEL = "<synthetic>"


# --------------------------------------------------------------------------------------------
# Pure parsing: one line or one object in, a value out. No I/O.


def parse_line(raw: bytes | str) -> JsonObject | None:
    """Decode one transcript line; ``None`` for a blank, malformed or non-object line."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    else:
        text = raw
    text = text.lstrip("\ufeff").strip()
    if not text:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError, over-long int literal, deep nesting
        return None
    return value if isinstance(value, dict) else None


def _obj(value: object) -> JsonObject | None:
    return value if isinstance(value, dict) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _count(value: object) -> int | None:
    """A token count: a non-negative integer (an integral float is accepted), else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and value >= 0:
        return int(value)
    return None


def detect_host(obj: JsonObject) -> Host | None:
    """Which host wrote this line, or ``None`` when the line alone does not tell."""
    if is_gemini_line(obj):  # before Claude: Gemini's messages are `user` lines too
        return Host.GEMINI
    if is_pi_line(obj):
        return Host.PI
    kind = obj.get("type")
    if not isinstance(kind, str):
        return None
    if kind in CODEX_TYPES and isinstance(obj.get("payload"), dict):
        return Host.CODEX
    if kind in CLAUDE_TYPES:
        return Host.CLAUDE
    if kind not in CODEX_TYPES and "payload" not in obj and _str(obj.get("sessionId")):
        return Host.CLAUDE  # a line type newer than this module, with the Claude envelope
    return None


def claude_usage_tokens(usage: JsonObject) -> int:
    """input + output + cache creation of one Claude ``message.usage``; cache reads excluded.

    Cache creation is the larger of ``cache_creation_input_tokens`` and the sum of the
    ``cache_creation.ephemeral_*_input_tokens`` breakdown. The two agree when the API reports
    both, but Claude Code writes the breakdown with zeros when the backend leaves it out (as
    gateways and proxies do), so neither alone can be trusted. A missing or invalid count is 0.
    """
    total = (_count(usage.get("input_tokens")) or 0) + (_count(usage.get("output_tokens")) or 0)
    ephemeral = 0
    detail = _obj(usage.get("cache_creation"))
    if detail is not None:
        for name, value in detail.items():
            n = _count(value)
            if n is not None and name.startswith("ephemeral_") and name.endswith("_input_tokens"):
                ephemeral += n
    return total + max(ephemeral, _count(usage.get("cache_creation_input_tokens")) or 0)


def claude_response(obj: JsonObject) -> tuple[str | None, int] | None:
    """``(dedup key, tokens)`` of a Claude line that carries usage, else ``None``.

    The key is ``"msg:" + message.id``, else ``"req:" + requestId``, else ``None`` (the line then
    counts on its own). ``<synthetic>`` lines are not API calls and give ``None``.
    """
    if obj.get("type") != "assistant":
        return None
    message = _obj(obj.get("message"))
    if message is None:
        return None
    usage = _obj(message.get("usage"))
    if usage is None or message.get("model") == SYNTHETIC_MODEL:
        return None
    message_id = _str(message.get("id"))
    request_id = _str(obj.get("requestId"))
    if message_id is not None:
        key: str | None = "msg:" + message_id
    elif request_id is not None:
        key = "req:" + request_id
    else:
        key = None
    return key, claude_usage_tokens(usage)


def codex_usage_tokens(usage: JsonObject) -> int | None:
    """``input_tokens - cached_input_tokens + output_tokens`` (Codex's blended total).

    ``None`` when ``input_tokens`` or ``output_tokens`` is missing or not a count, so a damaged
    event never replaces a good total. A missing ``cached_input_tokens`` is 0.
    """
    inp = _count(usage.get("input_tokens"))
    out = _count(usage.get("output_tokens"))
    if inp is None or out is None:
        return None
    cached = _count(usage.get("cached_input_tokens")) or 0
    return max(inp - cached, 0) + out


def codex_total_tokens(obj: JsonObject) -> int | None:
    """The session total carried by a Codex ``token_count`` event, else ``None``.

    ``None`` also for ``"info": null`` (usage not known yet).
    """
    if obj.get("type") != "event_msg":
        return None
    payload = _obj(obj.get("payload"))
    if payload is None or payload.get("type") != "token_count":
        return None
    info = _obj(payload.get("info"))
    if info is None:
        return None
    usage = _obj(info.get("total_token_usage"))
    return codex_usage_tokens(usage) if usage is not None else None


class ClaudeTally:
    """Deduplicated Claude usage so far: one entry per distinct response key."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self._responses: dict[str, int] = {}  # dedup key -> largest token total seen
        self._total = 0

    def feed(self, obj: JsonObject) -> None:
        if self.session_id is None:
            self.session_id = _str(obj.get("sessionId"))
        response = claude_response(obj)
        if response is None:
            return
        key, tokens = response
        if key is None:
            self._total += tokens
            return
        kept = self._responses.get(key)
        if kept is None or tokens > kept:
            self._responses[key] = tokens
            self._total += tokens - (kept or 0)

    @property
    def responses(self) -> int:
        """Distinct keyed responses seen (lines without a key are not included)."""
        return len(self._responses)

    @property
    def tokens(self) -> int:
        return self._total


class CodexTally:
    """Codex usage so far: the last non-null cumulative ``total_token_usage``."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.tokens = 0

    def feed(self, obj: JsonObject) -> None:
        if self.session_id is None and obj.get("type") == "session_meta":
            payload = _obj(obj.get("payload"))
            if payload is not None:
                self.session_id = _str(payload.get("id"))
        total = codex_total_tokens(obj)
        if total is not None:
            self.tokens = total


# --------------------------------------------------------------------------------------------
# Line state: host detection plus the tally. Fed complete lines; still no I/O.


class _Session:
    """Everything learnt from the complete lines fed so far."""

    def __init__(self, host: Host | None, name: str) -> None:
        self.requested = host
        self.host = host
        self.name = name
        self.lines = 0  # complete lines fed
        self.detected = False  # a line has shown which host wrote the file
        self.first_content: int | None = None  # first non-blank line
        self.first_object: int | None = None  # first line that parsed as a JSON object
        self.claude = ClaudeTally()
        self.codex = CodexTally()
        self.gemini = GeminiTally()
        self.pi = PiTally()

    def feed(self, raw: bytes) -> None:
        self.lines += 1
        obj = parse_line(raw)
        if obj is None:
            if self.first_content is None and raw.strip():
                self.first_content = self.lines
            return
        if self.first_content is None:
            self.first_content = self.lines
        if self.first_object is None:
            self.first_object = self.lines
        if not self.detected:
            seen = detect_host(obj)
            if seen is None:
                return  # neither format yet: such a line carries no usage in either
            if self.requested is not None and seen is not self.requested:
                raise TranscriptError(
                    f"expected a {_LABEL[self.requested]}, but this is a {_LABEL[seen]}",
                    file=self.name,
                    line=self.lines,
                )
            self.host = seen
            self.detected = True
        self._tally(self.host or Host.CODEX).feed(obj)

    def _tally(self, host: Host) -> ClaudeTally | CodexTally | GeminiTally | PiTally:
        if host is Host.CLAUDE:
            return self.claude
        if host is Host.CODEX:
            return self.codex
        return self.gemini if host is Host.GEMINI else self.pi

    def usage(self, stem: str) -> SessionUsage:
        if self.first_content is not None and self.first_object is None:
            raise TranscriptError(
                "not a transcript: no line is a JSON object",
                file=self.name,
                line=self.first_content,
            )
        if self.host is None:
            if self.first_object is None:
                raise TranscriptError(
                    "the transcript is empty, so its host cannot be detected (named, a host "
                    "reads a transcript that may still be empty)",
                    file=self.name,
                )
            raise TranscriptError(
                "neither a Claude Code or Codex transcript nor a Gemini CLI or pi session file",
                file=self.name,
                line=self.first_object,
            )
        tally = self._tally(self.host)
        session_id, tokens = tally.session_id, tally.tokens
        newest = self.gemini.newest if self.host is Host.GEMINI else None
        return SessionUsage(
            host=self.host,
            session_id=session_id or stem,
            tokens=tokens,
            transcript=self.name,
            newest=newest,
        )


_LABEL = {
    Host.CLAUDE: "Claude Code transcript",
    Host.CODEX: "Codex rollout",
    Host.GEMINI: "Gemini CLI session file",
    Host.PI: "pi session file",
}


# --------------------------------------------------------------------------------------------
# File reading.

_CHUNK = 1 << 20
_HEAD = 512  # bytes of the file start remembered to notice a rewrite in place

LINE_LIMIT = 32 << 20
"""Bytes a transcript line may have. A longer one is skipped (counted in
:attr:`TranscriptReader.skipped`): it carries no usage, and holding it whole would let a file
of the agent's (``truncate -s +64G`` on its own transcript) take that much memory. Hosts write
lines of a few MiB at most."""


def _data_from(fd: int, offset: int, size: int) -> int:
    """The first offset at or after ``offset`` that may hold data: past a hole of a sparse file
    (it reads as NUL bytes, so it holds no newline), at most ``size``."""
    try:
        return min(os.lseek(fd, offset, os.SEEK_DATA), size)
    except OSError as exc:
        return size if exc.errno == errno.ENXIO else offset  # ENXIO: a hole to the end


class TranscriptReader:
    """Incremental reader of one transcript file.

    Each :meth:`poll` reads only the bytes appended since the previous poll and returns the
    cumulative usage. An unterminated last line is held back (not parsed) until its newline
    arrives. When the file was replaced (another inode), shrank below the bytes already read, or
    its first bytes changed, reading starts over from the beginning.
    """

    def __init__(self, path: str | os.PathLike[str], host: Host | None = None) -> None:
        self._path = os.fspath(path)
        self._stem = Path(self._path).stem
        self._host = host
        self._restarts = 0
        self._reset()

    def _reset(self) -> None:
        self._session = _Session(self._host, self._path)
        self._offset = 0
        self._pending: list[bytes] = []  # an unterminated last line, in pieces
        self._pending_bytes = 0
        self._skipping = False  # inside a line longer than LINE_LIMIT, whose bytes are dropped
        self._skipped = 0
        self._identity: tuple[int, int] | None = None
        self._head = b""
        self._last_read = 0

    @property
    def path(self) -> str:
        return self._path

    @property
    def offset(self) -> int:
        """Bytes of the file consumed so far, an unterminated last line included."""
        return self._offset

    @property
    def last_read(self) -> int:
        """Bytes read past the previous offset by the most recent :meth:`poll`."""
        return self._last_read

    @property
    def restarts(self) -> int:
        """How often a replaced, truncated or rewritten file made reading start over."""
        return self._restarts

    @property
    def pending(self) -> int:
        """Bytes of an unterminated last line held back for the next poll."""
        return self._pending_bytes

    @property
    def skipped(self) -> int:
        """Lines longer than :data:`LINE_LIMIT` passed over, the one still being read included."""
        return self._skipped

    def poll(self) -> SessionUsage:
        """Read what was appended since the last poll; return the cumulative usage."""
        try:  # without blocking: a FIFO's open would wait for a writer
            fd = os.open(self._path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            with open(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(fd).st_mode):  # /dev/zero, a FIFO: never read
                    raise TranscriptError(
                        "the transcript is not a regular file (the host session's transcript "
                        "file is); nothing was read",
                        file=self._path,
                    )
                os.set_blocking(fd, True)
                self._read_new(handle)
        except OSError as exc:
            raise TranscriptError(
                f"cannot read the transcript: {exc.strerror or exc}", file=self._path
            ) from exc
        return self._session.usage(self._stem)

    def _read_new(self, handle: BinaryIO) -> None:
        stat = os.fstat(handle.fileno())
        identity = (stat.st_dev, stat.st_ino)
        if self._offset and (
            identity != self._identity
            or stat.st_size < self._offset
            or handle.read(len(self._head)) != self._head
        ):
            self._reset()
            self._restarts += 1
        self._identity = identity
        handle.seek(self._offset)
        read = 0
        size = stat.st_size  # what is appended while this poll reads waits for the next one
        try:
            while self._offset < size:
                if self._skipping:  # NUL bytes of a hole in an overlong line: nothing to read
                    hole = _data_from(handle.fileno(), self._offset, size)
                    if hole > self._offset:
                        self._offset = hole
                        handle.seek(hole)
                        continue
                chunk = handle.read(min(_CHUNK, size - self._offset))
                if not chunk:
                    break
                read += len(chunk)
                self._offset += len(chunk)
                self._consume(chunk)
        except TranscriptError:
            self._reset()  # a content error: the next poll reads the file afresh
            raise
        finally:
            self._last_read = read
        if len(self._head) < _HEAD and self._offset > len(self._head):
            handle.seek(0)
            self._head = handle.read(min(_HEAD, self._offset))

    def _consume(self, chunk: bytes) -> None:
        if self._skipping:
            end = chunk.find(b"\n")
            if end < 0:
                return  # the overlong line goes on
            self._skipping = False
            chunk = chunk[end + 1 :]
        end = chunk.rfind(b"\n")
        if end < 0:
            self._hold(chunk)
            return
        self._pending.append(chunk[: end + 1])
        block = b"".join(self._pending)  # the held line is at most LINE_LIMIT: so is the block
        self._pending, self._pending_bytes = [], 0
        self._feed(block.split(b"\n")[:-1])
        self._hold(chunk[end + 1 :])

    def _hold(self, piece: bytes) -> None:
        """Keep ``piece`` of the unterminated last line, or drop the line once it is too long."""
        if not piece:
            return
        if self._pending_bytes + len(piece) > LINE_LIMIT:
            self._pending, self._pending_bytes = [], 0
            self._skipping = True
            self._skipped += 1
            self._session.lines += 1  # a line all the same: later line numbers stay right
            return
        self._pending.append(piece)
        self._pending_bytes += len(piece)

    def _feed(self, lines: Iterable[bytes]) -> None:
        for raw in lines:
            self._session.feed(raw)

    def _finish(self) -> SessionUsage:
        """Treat the file as complete: parse an unterminated last line too (one-shot reads)."""
        if self._pending:
            block = b"".join(self._pending)
            self._pending, self._pending_bytes = [], 0
            self._feed([block])
        return self._session.usage(self._stem)


def read_usage(path: str | os.PathLike[str], host: Host | None = None) -> SessionUsage:
    """Read a whole transcript once. Unlike :meth:`TranscriptReader.poll`, the file is taken to
    be complete, so a last line without a newline is parsed too (a line cut mid-write is not
    valid JSON and is skipped)."""
    reader = TranscriptReader(path, host)
    reader.poll()
    return reader._finish()
