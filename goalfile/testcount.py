"""Whether a check's stdout shows a test run that ran no test at all: libtest's (as `cargo
test` runs it) or pytest's.

`cargo test NAME` runs only the tests whose name holds NAME. When none does, every test binary
prints ``running 0 tests`` and ``test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured;
N filtered out`` and cargo exits 0: a check ``cargo test the_feature`` with ``exit 0`` would be
met before the test exists, or after it was renamed. pytest ends a run that collected no test
with exit 5 ("no tests ran"), which no ``exit 0`` accepts, but a run whose every test was
skipped, deselected or marked xfail (``1 skipped, 2 deselected in 0.12s``) exits 0. goalfile
judges them alike: a row whose clauses hold is unmet when its stdout holds such summary lines
and they count no test that passed or failed, in all of them together (docs/trust.md). A
test marked ``#[ignore]`` or ``@pytest.mark.skip`` ran no more than one filtered out.

:class:`TestCount` is fed stdout in chunks of any size and keeps at most one short line. The
complete lines of a chunk are searched at once for what a summary line holds; only a line so
found is read. Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from typing import Final

__all__ = ["TestCount"]

_LINE_LIMIT: Final = 512  # bytes: a summary line is far shorter; a longer one is not one
_ANSI: Final = rb"\x1b\[[0-9;]*m"
# pytest's counts: the first four say a test ran (an error is a test's setup or teardown failing)
_RAN: Final = frozenset({b"passed", b"failed", b"xpassed", b"error", b"errors"})


@functools.cache
def _candidate() -> re.Pattern[bytes]:
    # what a summary line holds, searched in a block of complete lines: libtest's start, or a
    # pytest count followed by its time on the same line
    return re.compile(
        rb"test result: |\d+ (?:passed|failed|skipped|deselected|xfailed|xpassed|errors?)\b"
        rb"[^\n]* in \d+(?:\.\d+)?s\b"
    )


@functools.cache
def _libtest() -> re.Pattern[bytes]:
    return re.compile(rb"test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed;")


@functools.cache
def _pytest() -> re.Pattern[bytes]:
    count = rb"\d+ (?:passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)"
    return re.compile(
        rb"=* ?(" + count + rb"(?:, " + count + rb")*) in \d+(?:\.\d+)?s(?: \([^)\n]*\))? ?=*"
    )


@functools.cache
def _ansi() -> re.Pattern[bytes]:
    return re.compile(_ANSI)


class TestCount:
    """The test runs' summary lines seen in one stream, and the tests they say ran."""

    __test__ = False  # not a test class, whatever pytest makes of its name
    __slots__ = ("first", "ran", "rest", "skipping")

    def __init__(self) -> None:
        self.first: bytes | None = None  # the first summary line (the evidence)
        self.ran = 0  # tests that passed or failed, over every summary line
        self.rest = b""  # the current unterminated line
        self.skipping = False  # the current line is longer than any summary line

    @property
    def none_ran(self) -> bool:
        """Whether a test run summarised itself and no test passed or failed in any."""
        return self.first is not None and self.ran == 0

    @property
    def evidence(self) -> str:
        return (self.first or b"").decode("utf-8", "replace").rstrip()

    def feed(self, data: bytes) -> None:
        if self.rest or self.skipping:  # the end of a line begun in an earlier chunk
            end = data.find(b"\n")
            if end < 0:
                if not self.skipping:
                    self._keep(self.rest + data)
                return
            if not self.skipping:
                self._block(self.rest + data[: end + 1])
            self.rest, self.skipping = b"", False
            data = data[end + 1 :]
        last = data.rfind(b"\n")
        if last >= 0:
            self._block(data if last == len(data) - 1 else data[: last + 1])
        if last < len(data) - 1:
            self._keep(data[last + 1 :])

    def finish(self) -> None:
        """The stream ended: its last line counts even without a newline."""
        if self.rest and not self.skipping:
            self._block(self.rest + b"\n")
        self.rest, self.skipping = b"", False

    def _keep(self, piece: bytes) -> None:
        if len(piece) <= _LINE_LIMIT:
            self.rest, self.skipping = piece, False
        else:
            self.rest, self.skipping = b"", True

    def _block(self, block: bytes) -> None:
        """Read the summary lines of ``block``, complete lines each ending in a newline."""
        at = 0
        while (found := _candidate().search(block, at)) is not None:
            start = block.rfind(b"\n", 0, found.start()) + 1
            end = block.find(b"\n", found.end())
            self._line(block[start:end])
            at = end + 1

    def _line(self, line: bytes) -> None:
        if len(line) > _LINE_LIMIT:
            return
        plain = _ansi().sub(b"", line).strip()
        libtest = _libtest().match(plain)
        if libtest is not None:
            ran = int(libtest[1]) + int(libtest[2])
        elif (pytest := _pytest().fullmatch(plain)) is not None:
            counts = (part.split(b" ", 1) for part in pytest[1].split(b", "))
            ran = sum(int(number) for number, word in counts if word in _RAN)
        else:
            return
        if self.first is None:
            self.first = line
        self.ran += ran
