"""Whether a check's stdout shows a Rust test run (libtest, as `cargo test` runs it) that ran
no test at all.

`cargo test NAME` runs only the tests whose name holds NAME. When none does, every test binary
prints ``running 0 tests`` and ``test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured;
N filtered out`` and cargo exits 0: a check ``cargo test the_feature`` with ``exit 0`` would be
met before the test exists, or after it was renamed. pytest ends such a run with exit 5 ("no
tests ran"), which no ``exit 0`` accepts; goalfile judges libtest's the same way: a row whose
clauses hold is unmet when its stdout holds libtest's summary lines and they count no test
passed or failed, in all binaries together (docs/trust.md).

:class:`TestCount` is fed stdout in chunks of any size and keeps at most one short line: only
a line that begins with ``test result: `` is read, found by a byte search, so a large output
costs about what a ``contains`` clause costs. Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from typing import Final

__all__ = ["TestCount"]

_MARK: Final = b"test result: "
_LINE_LIMIT: Final = 512  # bytes: libtest's summary line is far shorter; a longer one is not it


@functools.cache
def _summary() -> re.Pattern[bytes]:
    # `test result: ok. 0 passed; 0 failed; ...`, the word coloured under `--color always`
    colour = rb"(?:\x1b\[[0-9;]*m)*"
    return re.compile(
        rb"test result: " + colour + rb"(?:ok|FAILED)" + colour + rb"\. (\d+) passed; (\d+) failed;"
    )


class TestCount:
    """libtest's summary lines seen in one stream, and the tests they say ran."""

    __test__ = False  # not a test class, whatever pytest makes of its name
    __slots__ = ("first", "ran", "rest", "skipping")

    def __init__(self) -> None:
        self.first: bytes | None = None  # the first summary line (the evidence)
        self.ran = 0  # tests passed or failed, over every summary line
        self.rest = b""  # the current unterminated line, when it may be a summary line
        self.skipping = False  # the current line is longer than any summary line

    @property
    def none_ran(self) -> bool:
        """Whether libtest summarised at least one test binary and no test ran in any."""
        return self.first is not None and self.ran == 0

    @property
    def evidence(self) -> str:
        return (self.first or b"").decode("utf-8", "replace").rstrip()

    def feed(self, data: bytes) -> None:
        start = 0
        if self.rest or self.skipping:  # the end of a line begun in an earlier chunk
            end = data.find(b"\n")
            if end < 0:
                self._keep(self.rest + data if not self.skipping else b"")
                return
            if not self.skipping:
                self._line(self.rest + data[:end])
            self.rest, self.skipping, start = b"", False, end + 1
        at = data.find(_MARK, start)
        while at >= 0:
            if at == start or data[at - 1] == 0x0A:  # at the start of a line
                end = data.find(b"\n", at)
                if end < 0:
                    break  # the last, unterminated line: kept below
                self._line(data[at:end])
            at = data.find(_MARK, at + 1)
        last = data.rfind(b"\n", start)
        tail = data[last + 1 if last >= 0 else start :]
        if tail:  # kept only when it may begin a summary line
            self._keep(tail if tail[: len(_MARK)] == _MARK[: len(tail)] else b"")

    def finish(self) -> None:
        """The stream ended: its last line counts even without a newline."""
        if self.rest and not self.skipping:
            self._line(self.rest)
        self.rest, self.skipping = b"", False

    def _keep(self, piece: bytes) -> None:
        if piece and len(piece) <= _LINE_LIMIT:
            self.rest, self.skipping = piece, False
        else:
            self.rest, self.skipping = b"", True

    def _line(self, line: bytes) -> None:
        found = _summary().match(line)
        if found is None:
            return
        if self.first is None:
            self.first = line[:_LINE_LIMIT]
        self.ran += int(found[1]) + int(found[2])
