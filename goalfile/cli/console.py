"""What `goalfile verify` shows while its checks run, and each verdict with the reason.

On a terminal a ticker names the row, its command (shortened) and its place (`2/5`) with the
time it has run; when the output is piped (CI), a line says when each check starts and a
"still running (30 s)" line follows every 30 seconds, so a log never falls silent. Verdicts are
coloured on a terminal. ``NO_COLOR`` (any value) and ``TERM=dumb`` give plain text: no colour
and no escape code at all (``NO_COLOR`` keeps a ticker that redraws with a carriage return;
``TERM=dumb`` gets the piped lines).

Each unmet or error row prints the clauses that failed with what was seen, then the head and
the tail of its output (a pytest run's first traceback and its summary).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from goalfile.commands.checking import Tails
from goalfile.explain import why_line
from goalfile.ledger import clean_line
from goalfile.model import Criterion, Kind, RowResult
from goalfile.termsafe import raw_write

STILL_RUNNING_EVERY = 30.0  # seconds between "still running" lines when piped
COMMAND_WIDTH = 48  # characters of a command the ticker shows
PIPED_LINES = 40  # output lines shown from each end when piped
LINE_CHARS = 200  # characters of an output line shown; a longer one is cut in its middle
LINE_START = 130  # of which from its start (the rest from its end)

COLOURS = {"met": "32", "unmet": "31", "error": "35", "impossible": "33"}


def plain_only(env: Mapping[str, str]) -> bool:
    """No escape codes at all: NO_COLOR set (https://no-color.org), or TERM=dumb."""
    return "NO_COLOR" in env or env.get("TERM", "") == "dumb"


def shorten(command: str, width: int = COMMAND_WIDTH) -> str:
    one_line = " ".join(command.split())
    return one_line if len(one_line) <= width else one_line[: width - 1] + "…"


class Console:
    """A :class:`goalfile.commands.verify.Progress` that writes to a text stream."""

    def __init__(
        self,
        *,
        out: TextIO | None = None,
        terminal: bool,
        env: Mapping[str, str],
        lines: int | None = None,
    ) -> None:
        self.out = out or sys.stdout
        dumb = env.get("TERM", "") == "dumb"
        self.live = terminal and not dumb  # a ticker that redraws itself
        self.escapes = terminal and not plain_only(env)  # colour and erase-line
        self.lines = lines if lines is not None else (None if terminal else PIPED_LINES)
        self.total = 0
        self.places: dict[str, int] = {}
        self._drawn = 0  # characters of the ticker on the screen
        self._reported: dict[str, int] = {}  # row id → "still running" lines printed
        self._unbounded: set[str] = set()

    # --- the Progress protocol -----------------------------------------------------------

    def begin(self, rows: Sequence[Criterion], *, unbounded: frozenset[str] = frozenset()) -> None:
        self.total = len(rows)
        self.places = {row.id: number for number, row in enumerate(rows, start=1)}
        self._unbounded = set(unbounded)  # told once, at the first "still running" mark

    def started(self, row: Criterion) -> None:
        if self.live:
            self._draw(self._ticker(row, 0.0))
        elif row.kind is Kind.REVIEW:  # nothing starts: a recorded review is looked up
            self._line(f"{self._place(row)} {row.id} review of: {shorten(row.check, 200)}")
        else:
            self._line(f"{self._place(row)} {row.id} started: {shorten(row.check, 200)}")

    def tick(self, row: Criterion, elapsed: float) -> None:
        if elapsed >= STILL_RUNNING_EVERY and row.id in self._unbounded:
            self._unbounded.discard(row.id)
            self._erase()
            self._line(
                f"  {row.id} has no time limit (no `timeout` in its row or the frontmatter): "
                "`--time-limit S` bounds this run; Ctrl-C ends it and writes nothing"
            )
        if self.live:
            self._draw(self._ticker(row, elapsed))
            return
        due = int(elapsed // STILL_RUNNING_EVERY)
        if due > self._reported.get(row.id, 0):
            self._reported[row.id] = due
            self._line(f"  {row.id} still running ({due * int(STILL_RUNNING_EVERY)} s)")

    def finished(self, result: RowResult, tails: Tails | None) -> None:
        self._erase()
        took = f" ({result.elapsed:.1f}s)" if result.elapsed is not None else ""
        verdict = self._colour(result.verdict.value)
        self._line(f"{result.id} {verdict}{took}: {why_line(result, limit=2000)}")
        if tails is None or result.verdict.value == "met":
            return
        for name, head, tail, total in (
            ("stdout", tails.stdout_head, tails.stdout, tails.stdout_bytes),
            ("stderr", tails.stderr_head, tails.stderr, tails.stderr_bytes),
        ):
            for line in self.output_lines(name, head, tail, total):
                self._line(line)

    # --- output of a failing check -----------------------------------------------------------

    def output_lines(
        self, name: str, head: Sequence[str], tail: Sequence[str], total: int
    ) -> list[str]:
        """The head and the tail of one stream, each cut to ``self.lines`` lines."""
        if not head and not tail:
            return []
        n = self.lines
        if n == 0:
            return []
        if n is None:
            first, last = list(head), list(tail)
        elif head:
            first, last = list(head[:n]), list(tail[len(tail) - n :])
        elif len(tail) > 2 * n:  # everything was kept: show both ends of it
            first, last = list(tail[:n]), list(tail[len(tail) - n :])
        else:
            first, last = [], list(tail)
        if first:
            what = f"first {len(first)} and last {len(last)} lines of {total} bytes"
        else:
            what = f"{len(last)} line{'' if len(last) == 1 else 's'} of {total} bytes"
        shown = [[short_line(line) for line in part] for part in (first, last)]
        cut = sum(was for part in shown for _, was in part)
        if cut:  # a line of unittest's dots, one per test, would fill the screen
            what += (
                f"; {cut} line{'' if cut == 1 else 's'} over {LINE_CHARS} characters cut in "
                "the middle, whole in `verify --json`"
            )
        lines = [f"  {name} ({what}):"]
        lines += [f"  │ {line}" for line, _ in shown[0]]
        if first:
            lines.append("  │ …")
        lines += [f"  │ {line}" for line, _ in shown[1]]
        return lines

    # --- drawing -----------------------------------------------------------------------------

    def _place(self, row: Criterion) -> str:
        place = self.places.get(row.id)
        return f"[{place}/{self.total}]" if place else "[-]"

    def _ticker(self, row: Criterion, elapsed: float) -> str:
        return f"  {self._place(row)} {row.id} {shorten(row.check)} ({elapsed:.1f}s)"

    def _draw(self, text: str) -> None:
        # the cursor moves are goalfile's own, written as they are; the text (a command from
        # the goal file) is escaped like everything printed (goalfile.termsafe)
        if self.escapes:
            raw_write(self.out, "\r\x1b[K")
            self.out.write(text)
        else:  # a carriage return and spaces over what was there: no escape code
            raw_write(self.out, "\r")
            self.out.write(text.ljust(self._drawn))
        self._drawn = len(text)
        self.out.flush()

    def _erase(self) -> None:
        if not self.live or not self._drawn:
            return
        if self.escapes:
            raw_write(self.out, "\r\x1b[K")
        else:
            raw_write(self.out, "\r" + " " * self._drawn + "\r")
        self._drawn = 0

    def _line(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _colour(self, verdict: str) -> str:
        code = COLOURS.get(verdict)
        if not self.escapes or code is None:
            return verdict
        return f"\x1b[{code}m{verdict}\x1b[0m"


def short_line(line: str) -> tuple[str, bool]:
    """One line of a check's output as it is shown, and whether it was cut: a line longer
    than :data:`LINE_CHARS` keeps its start and its end, with how much was left out."""
    text = clean_line(line, limit=len(line) + 1)
    if len(text) <= LINE_CHARS:
        return text, False
    end = LINE_CHARS - LINE_START
    left = len(text) - LINE_CHARS
    return f"{text[:LINE_START]} …[{left:,} characters]… {text[-end:]}", True


def console_for(*, env: Mapping[str, str], lines: int | None) -> Console | None:
    """The progress display on standard output; None when the program was started with its
    standard output closed (Python then has no ``sys.stdout``): nothing is shown."""
    if sys.stdout is None:
        return None
    return Console(terminal=sys.stdout.isatty(), env=env, lines=lines)
