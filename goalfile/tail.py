"""The kept end of a check's output stream, in bounded memory, whatever its size.

Pure logic: bytes in, lines out. :mod:`goalfile.run` feeds it every chunk it reads.
"""

from __future__ import annotations

from collections import deque
from typing import Final

from goalfile.value import Compared

MAX_TAIL_LINES = 2000
"""Lines kept at the end of each stream."""

MAX_TAIL_BYTES = 50 * 1024
"""Bytes kept at the end of each stream (line terminators not counted)."""

MAX_HEAD_BYTES = 8 * 1024
"""Bytes kept from the start of a stream when a check asks for its head too (run.py does): the
tail then keeps ``MAX_TAIL_BYTES - MAX_HEAD_BYTES``, so head and tail together stay within the
same bound. The head shows the first traceback of a long failing run; the tail its summary."""

MAX_HEAD_LINES = 200
"""Lines kept from the start of a stream (with :data:`MAX_HEAD_BYTES`)."""

MAX_PENDING_CHUNKS = 256
"""Chunks an :class:`OutputTail` gathers at most (a trickle of tiny reads stays small too)."""

TAIL_BATCH = 1024 * 1024
"""Bytes an :class:`OutputTail` gathers before it splits them into lines."""


class StreamSummary(Compared):
    """The kept end of one stream and the size of all of it."""

    __slots__ = ("head", "tail", "total_bytes", "truncated")

    def __init__(
        self,
        *,
        tail: tuple[str, ...],
        total_bytes: int,
        truncated: bool,
        head: tuple[str, ...] = (),
    ) -> None:
        self.tail: Final = tail  # last lines, UTF-8 with errors="replace", without terminators
        self.total_bytes: Final = total_bytes
        # tail holds less than everything (lines dropped or a line cut)
        self.truncated: Final = truncated
        self.head: Final = head  # first lines, when the tail was truncated and a head was kept


EMPTY_STREAM = StreamSummary(tail=(), total_bytes=0, truncated=False)


def decode_line(raw: bytes) -> str:
    """One kept line as text: UTF-8 with replacement characters, a trailing CR dropped."""
    return raw.decode("utf-8", errors="replace").removesuffix("\r")


def keep_last(lines: deque[bytes], kept_bytes: int, *, max_lines: int, max_bytes: int) -> int:
    """Drop lines from the front until both limits hold; return the bytes still kept."""
    while lines and (len(lines) > max_lines or kept_bytes > max_bytes):
        kept_bytes -= len(lines.popleft())
    return kept_bytes


class OutputTail:
    """The end of a stream, fed chunk by chunk, in bounded memory.

    Keeps at most ``max_lines`` lines and ``max_bytes`` bytes (terminators not counted); a
    single line longer than ``max_bytes`` keeps its first ``max_bytes`` bytes. Counts every
    byte, however much is dropped.

    The work is per batch of :data:`TAIL_BATCH` bytes, not per byte: only the end of a batch
    is split into lines when the lines there are enough to push out everything before them.
    """

    def __init__(
        self,
        *,
        max_lines: int = MAX_TAIL_LINES,
        max_bytes: int = MAX_TAIL_BYTES,
        batch: int = TAIL_BATCH,
        head_bytes: int = 0,
        head_lines: int = MAX_HEAD_LINES,
    ):
        if max_lines < 1 or max_bytes < 1:
            raise ValueError("an output tail must keep at least one line and one byte")
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self.batch = batch
        self.total_bytes = 0
        self._lines: deque[bytes] = deque()  # complete lines, each cut to max_bytes
        self._kept_bytes = 0
        self._partial = bytearray()  # the current unterminated line, at most max_bytes
        self._ends_with_newline = True
        self._pending: list[bytes] = []  # chunks fed but not yet split into lines
        self._pending_bytes = 0
        self._head = bytearray()  # the first head_bytes bytes of the stream
        self._head_bytes = head_bytes
        self._head_lines = head_lines
        self._newlines = 0  # counted only when a head is kept

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        if self._head_bytes:
            if len(self._head) < self._head_bytes:
                self._head += chunk[: self._head_bytes - len(self._head)]
            self._newlines += chunk.count(b"\n")
        self.total_bytes += len(chunk)
        self._ends_with_newline = chunk.endswith(b"\n")
        self._pending.append(chunk)
        self._pending_bytes += len(chunk)
        if self._pending_bytes >= self.batch or len(self._pending) >= MAX_PENDING_CHUNKS:
            self._flush()

    def summary(self) -> StreamSummary:
        self._flush()
        lines = deque(self._lines)
        terminators = len(lines)
        kept = self._kept_bytes
        if not self._ends_with_newline:
            lines.append(bytes(self._partial))
            kept = keep_last(
                lines,
                kept + len(self._partial),
                max_lines=self.max_lines,
                max_bytes=self.max_bytes,
            )
            terminators = len(lines) - 1
        truncated = kept + terminators != self.total_bytes
        return StreamSummary(
            tail=tuple(decode_line(line) for line in lines),
            total_bytes=self.total_bytes,
            # everything is kept exactly when the kept lines account for every byte
            truncated=truncated,
            head=self._head_before(len(lines)) if truncated else (),
        )

    def _head_before(self, tail_lines: int) -> tuple[str, ...]:
        """The kept first lines that come before the tail's lines (none is shown twice)."""
        count = self._newlines + (0 if self._ends_with_newline else 1)
        before = count - tail_lines  # lines of the stream that the tail does not show
        if not self._head or before <= 0:
            return ()
        lines = bytes(self._head).split(b"\n")
        if len(lines) > 1:
            lines.pop()  # empty after a complete line, or a line the head cut: left out
        return tuple(decode_line(line) for line in lines[: min(before, self._head_lines)])

    def _flush(self) -> None:
        """Take the gathered chunks as one stream piece; where they were cut does not matter.

        The chunks are not joined: only the line the first newline completes, the lines that
        can still be kept before the last newline, and the part after it are looked at."""
        chunks = self._pending
        if not chunks:
            return
        self._pending = []
        self._pending_bytes = 0
        first = 0
        while (newline := chunks[first].find(b"\n")) < 0:
            self._grow_partial(chunks[first])
            first += 1
            if first == len(chunks):
                return
        self._grow_partial(chunks[first][:newline])
        completed = bytes(self._partial)
        self._partial.clear()
        self._push([completed])
        last = len(chunks) - 1
        while (end := chunks[last].rfind(b"\n")) < 0:
            last -= 1  # stops at `first` at the latest, which holds a newline
        if (last, end) != (first, newline):
            self._push(self._last_lines(_Span(chunks, first, newline + 1, last, end)))
        self._grow_partial(chunks[last][end + 1 :])
        for chunk in chunks[last + 1 :]:
            self._grow_partial(chunk)

    def _last_lines(self, span: _Span) -> list[bytes]:
        """The lines of ``span`` (newline-separated) that can still be kept."""
        window = self.max_bytes + self.max_lines + 1
        if len(span) > window:
            # The last lines alone may already break a limit; the earlier ones then go.
            pieces = span.last(window).rsplit(b"\n", self.max_lines)
            del pieces[0]  # lines before these, or the end of a line that began earlier
            if len(pieces) >= self.max_lines or (
                sum(min(len(piece), self.max_bytes) for piece in pieces) > self.max_bytes
            ):
                self._lines.clear()
                self._kept_bytes = 0
                return pieces
        pieces = span.whole().rsplit(b"\n", self.max_lines)
        if len(pieces) > self.max_lines:
            del pieces[0]  # several earlier lines, unsplit: the later ones push them out
        return pieces

    def _grow_partial(self, data: bytes) -> None:
        room = self.max_bytes - len(self._partial)
        self._partial += data[:room] if len(data) > room else data

    def _push(self, lines: list[bytes]) -> None:
        if not lines:
            return
        size = sum(map(len, lines))
        if size > self.max_bytes and max(map(len, lines)) > self.max_bytes:
            lines = [line[: self.max_bytes] for line in lines]
            size = sum(map(len, lines))
        if len(lines) >= self.max_lines:
            self._lines.clear()
            self._kept_bytes = 0
            if len(lines) > self.max_lines:
                lines = lines[-self.max_lines :]
                size = sum(map(len, lines))
        self._lines.extend(lines)
        self._kept_bytes = keep_last(
            self._lines,
            self._kept_bytes + size,
            max_lines=self.max_lines,
            max_bytes=self.max_bytes,
        )


class _Span:
    """Bytes from ``chunks[first][start:]`` to ``chunks[last][:end]``, not copied until asked."""

    def __init__(self, chunks: list[bytes], first: int, start: int, last: int, end: int):
        self._chunks = chunks
        self._first, self._start, self._last, self._end = first, start, last, end

    def __len__(self) -> int:
        if self._first == self._last:
            return self._end - self._start
        middle = sum(map(len, self._chunks[self._first + 1 : self._last]))
        return len(self._chunks[self._first]) - self._start + middle + self._end

    def whole(self) -> bytes:
        if self._first == self._last:
            return self._chunks[self._first][self._start : self._end]
        return b"".join(
            (
                self._chunks[self._first][self._start :],
                *self._chunks[self._first + 1 : self._last],
                self._chunks[self._last][: self._end],
            )
        )

    def last(self, size: int) -> bytes:
        """The last ``size`` bytes (``size`` at most the span's length)."""
        parts = [memoryview(self._chunks[self._last])[: self._end]]
        have = len(parts[0])
        index = self._last
        while have < size:
            index -= 1
            part = memoryview(self._chunks[index])
            if index == self._first:
                part = part[self._start :]
            parts.append(part)
            have += len(part)
        parts[-1] = parts[-1][have - size :]  # views: only the last `size` bytes are copied
        return b"".join(reversed(parts))
