"""The ``expected`` language of DESIGN §3: parse it, format it, and judge output against it.

Grammar
=======

An ``expected`` text is one or more clauses, all of which must hold::

    exit N                     the exit status is N (0 to 255)
    exit != N                  the exit status is not N
    exit nonzero               the exit status is not 0
    STREAM contains "TEXT"     TEXT occurs in the stream
    STREAM lacks "TEXT"        TEXT never occurs in the stream
    STREAM matches /REGEX/     some line of the stream matches (Python ``re``, searched per line)
    STREAM empty               the stream has nothing but whitespace
    prints "TEXT"              stdout, trimmed of surrounding whitespace, equals TEXT
    prints N                   the same, with the integer N (``-`` allowed) as TEXT

``STREAM`` is ``stdout``, ``stderr`` or ``output``. ``output`` means either stream for
``contains`` and ``matches`` and both streams for ``lacks`` and ``empty``.

Clauses are joined by ``;`` or by the word ``and`` with whitespace on both sides. A separator
inside a quoted "TEXT" or a /REGEX/ does not split. Keywords (including ``and``) are
case-insensitive; TEXT and REGEX are not. Tokens are separated by whitespace (``exit != 1``,
not ``exit!=1``); a quoted TEXT or a /REGEX/ delimits itself.

Decisions the design left open, and what was chosen:

* Quoted TEXT uses double quotes; the only escapes are ``\\"`` and ``\\\\``. Any other
  backslash sequence (``\\n``, ``\\t``, a lone ``\\``) is a syntax error, so nothing is guessed.
* A REGEX is written between slashes; ``\\/`` stands for a literal slash, every other
  backslash pair is passed to ``re`` unchanged. There are no trailing flags (``/x/i`` is an
  error): write ``(?i)`` inside the pattern. The pattern is compiled when parsed, and
  :class:`MatchClause` stores it with ``\\/`` written as ``/`` (the same regular expression),
  so formatting and parsing again gives an equal value.
* One trailing ``;`` is tolerated (``exit 0;``). An empty clause anywhere else is an error:
  a leading ``;``, ``;;``, or ``and`` with nothing after it. Empty (or blank) text is an error.
* ``contains ""``, ``lacks ""``, ``matches //`` and any ``matches`` pattern that can make a
  match of zero characters (``/^/``, ``/.*/``, ``/x*/``, ``/\\b/``, ``/(?=.)/``: see
  :func:`can_match_empty`) are errors (they hold or fail whatever the output is), and so is a
  pattern that one character of almost any kind satisfies (``/./``, ``/[\\s\\S]/``,
  ``/[^x]/``, ``/\\S/``: see :func:`matches_almost_any_character`).
  ``prints ""`` is allowed (stdout is blank). A ``prints`` TEXT that starts or ends with
  whitespace is an error, because it could never equal trimmed stdout.
* ``exit N`` accepts 0 to 255 only; ``exit == N`` is not part of the language.
* ``prints N`` stores N's text as written (``prints 007`` compares with ``007``).
* "Whitespace" is ASCII whitespace (space, tab, CR, LF, VT, FF), for ``empty``, for trimming in
  ``prints`` and for telling empty lines apart.

Evaluation
==========

:class:`Evaluator` is fed bytes in chunks of any size and keeps bounded state per clause,
however much arrives; :meth:`Evaluator.finish` gives the :class:`Judgement`.

* ``contains``/``lacks`` search the whole stream (encoded UTF-8 bytes), also across chunks.
* Lines are split on ``\\n`` only (a ``\\r`` stays part of the line). A last line without a
  newline is a line; an empty stream has no lines. Only the first :data:`LINE_LIMIT` (64 KiB)
  bytes of a longer line are used for ``matches`` and evidence. Lines are decoded as UTF-8
  with ``errors="replace"``; NUL and control bytes are kept and never raise.
* ``matches`` runs the pattern with ``re.MULTILINE`` over each block of complete lines and
  confirms every candidate against the single line, so a pattern that could match across a
  newline (``\\s``, ``[^x]``) still means "some line matches". Patterns containing ``\\A``,
  ``\\Z``, ``(?!`` or ``(?<!`` would behave differently next to a newline and are searched line
  by line instead; so is the rest of a block where many matches fell across lines. That is
  still exact and runs in C, but costs about 40 ns per line (some 40 s for 10^9 lines).
* With a ``guard`` (verify gives one), a ``matches`` search that could backtrack without end
  runs through it, in another process that is killed when the row's time is used up; the
  :class:`Judgement` then has an ``error`` and the row is neither met nor unmet (see
  :class:`~goalfile.expecttext.MatchCheck` for which searches, :mod:`goalfile.backtrack` for
  the reading of the pattern).
* ``prints`` keeps at most ``len(TEXT) + LINE_LIMIT`` bytes of stdout.
* With ``exit_status=None`` (no status), every exit clause fails; without exit clauses the
  status is not judged.
* Evidence is one line (decoded, trailing whitespace dropped, at most 300 characters): the line
  where a failed ``lacks`` found its TEXT (the line holding the TEXT's last byte); else, when the
  row holds, the line of the first ``contains``/``matches`` clause's hit; else the last
  non-blank line of stdout, else of stderr; else ``""``. For an ``output`` clause that hit in
  both streams, the stdout line is used, so the judgement never depends on how the two streams
  were interleaved or chunked.

Speed (benchmark, not a test)::

    ev = Evaluator(parse_expected('exit 0; stdout contains "passed"; output lacks "Error"'))
    chunk = b"y\\n" * 32768                       # what `yes | head -c 1000000000` gives
    for _ in range(1_000_000_000 // len(chunk)):  # ~15k chunks of 64 KiB
        ev.feed("stdout", chunk)
    ev.finish(0)                                  # about 1 s, memory flat

Measured: ``exit 0`` alone 0.03 s per GB; ``stdout matches /passed/`` 0.4 s per GB (one decode
and one regex scan per chunk); ``stdout matches /^\\d+ passed/`` 9 s per GB (the regex engine
tries every line start).
"""

from __future__ import annotations

import functools
import re
from enum import StrEnum
from types import ModuleType
from typing import TYPE_CHECKING, Final, Literal, Protocol, TypeAlias

from goalfile.errors import GoalfileError, GoalFileInvalid
from goalfile.plainexit import plain_exit
from goalfile.value import Compared, replace

if TYPE_CHECKING:  # the clauses beyond `exit`, their parser and their checks: goalfile.expecttext
    from collections.abc import Callable, Sequence

    from goalfile.expecttext import (
        EmptyClause,
        MatchCheck,
        MatchClause,
        PrintsCheck,
        PrintsClause,
        TextCheck,
        TextClause,
    )

__all__ = [
    "LINE_LIMIT",
    "Evaluator",
    "ExitClause",
    "Expectation",
    "ExpectedSyntaxError",
    "Guard",
    "Judgement",
    "MatchTimedOut",
    "Stream",
    "format_clause",
    "format_expected",
    "parse_expected",
]

LINE_LIMIT = 64 * 1024
"""Bytes of a line used for ``matches`` and evidence; also the size of the pieces fed data
is cut into, so a longer line always spans pieces."""

EVIDENCE_CHARS = 300
_EVIDENCE_BYTES = 4 * EVIDENCE_CHARS + 16  # enough bytes to decode 300 characters exactly


# --------------------------------------------------------------------------- values


class Stream(StrEnum):
    STDOUT = "stdout"
    STDERR = "stderr"
    OUTPUT = "output"


_SOURCES: dict[Stream, tuple[str, ...]] = {
    Stream.STDOUT: ("stdout",),
    Stream.STDERR: ("stderr",),
    Stream.OUTPUT: ("stdout", "stderr"),
}
_OTHER: dict[Stream, Stream] = {Stream.STDOUT: Stream.STDERR, Stream.STDERR: Stream.STDOUT}


class ExitClause(Compared):
    """``exit N`` (op ``==``), ``exit != N`` (op ``!=``) or ``exit nonzero`` (value None)."""

    __slots__ = ("op", "value")

    def __init__(self, *, op: Literal["==", "!=", "nonzero"], value: int | None = None) -> None:
        self.op: Final = op
        self.value: Final = value


if TYPE_CHECKING:
    Clause: TypeAlias = ExitClause | TextClause | MatchClause | EmptyClause | PrintsClause
    _Check: TypeAlias = TextCheck | MatchCheck | PrintsCheck | None


class Expectation(Compared, compared=("clauses",)):
    """A parsed ``expected`` cell: every clause must hold."""

    __slots__ = ("clauses", "rewrites")

    def __init__(
        self, clauses: tuple[Clause, ...], rewrites: tuple[tuple[int, int, str], ...] = ()
    ) -> None:
        self.clauses: Final = clauses
        # (start, end, canonical text) of each accepted synonym or `,` separator in the text it was
        # parsed from: what `lint --fix` rewrites. Not part of the meaning.
        self.rewrites: Final = rewrites

    @property
    def has_exit_clause(self) -> bool:
        return any(isinstance(c, ExitClause) for c in self.clauses)

    @property
    def named_exit_statuses(self) -> frozenset[int]:
        """Every status an ``exit N`` or ``exit != N`` clause names."""
        return frozenset(
            c.value for c in self.clauses if isinstance(c, ExitClause) and c.value is not None
        )


class ExpectedSyntaxError(GoalFileInvalid):
    """An ``expected`` text that does not parse.

    ``column`` is the 1-based column inside the expected text where the bad clause starts;
    ``clause`` is that clause as written. ``file`` and ``line`` are left for the caller.
    """

    def __init__(
        self,
        message: str,
        *,
        column: int,
        hint: str,
        clause: str = "",
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message, file=file, line=line, column=column, hint=hint)
        self.clause = clause


# --------------------------------------------------------------------------- parsing


@functools.lru_cache(maxsize=1024)
def parse_expected(text: str) -> Expectation:
    """Parse an ``expected`` text; raise :class:`ExpectedSyntaxError` on the first bad clause.

    Lint, the contract and the run each parse every row's text, so results are cached (the
    value is immutable; a text that does not parse is parsed again each time). A text that is
    exactly ``exit N`` (the clause most rows hold) is read here; every other text by the
    parser of :mod:`goalfile.expecttext`, which gives ``exit N`` the same value."""
    status = plain_exit(text)
    if status is not None:
        return Expectation((ExitClause(op="==", value=status),))
    from goalfile.expecttext import parse

    return parse(text, guess=True)


def parsed_or_none(text: str) -> Expectation | None:
    """:func:`parse_expected` of ``text``, or None when it does not parse, without the nearest
    valid clause its error would suggest: finding that compares the text with every clause by
    spelling (`difflib`, about 0.1 ms a text and 0.4 ms to import) and is never shown when the
    error is not. The contract's digest asks this of every row, a review row's `reviewed`
    among them, on every run."""
    if plain_exit(text) is None and not _parses(text):
        return None
    return parse_expected(text)


@functools.lru_cache(maxsize=1024)
def _parses(text: str) -> bool:
    """Whether ``text`` parses: the parser without its suggestion, which changes only the
    error's hint."""
    from goalfile.expecttext import parse

    try:
        parse(text, guess=False)
    except GoalfileError:
        return False
    return True


# --------------------------------------------------------------------------- formatting


def format_clause(c: Clause) -> str:
    """The canonical text of one clause (lower-case keywords, single spaces)."""
    if isinstance(c, ExitClause):
        if c.op == "nonzero":
            return "exit nonzero"
        return f"exit {c.value}" if c.op == "==" else f"exit != {c.value}"
    from goalfile.expecttext import format_output_clause

    return format_output_clause(c)


def format_expected(e: Expectation) -> str:
    """The canonical text of an expectation: its clauses joined by ``"; "``."""
    return "; ".join(format_clause(c) for c in e.clauses)


# --------------------------------------------------------------------------- evaluation


class Judgement(Compared):
    """The outcome of one run: do all clauses hold, why not, and one decisive line.

    ``error`` says why the output could not be judged (a ``matches`` search that ran out of
    time): then ``holds`` is False and the row is an error, neither met nor unmet."""

    __slots__ = ("error", "evidence", "failures", "holds")

    def __init__(
        self, *, holds: bool, failures: tuple[str, ...], evidence: str, error: str | None = None
    ) -> None:
        self.holds: Final = holds
        self.failures: Final = failures  # one sentence per failed clause, in clause order
        # one decoded line, no newline, at most 300 characters; may be ""
        self.evidence: Final = evidence
        self.error: Final = error


class MatchTimedOut(Exception):
    """A guarded ``matches`` search did not end in the time it was given.

    ``seconds`` is that time and ``what`` names the limit it came from. ``failed`` is set
    instead when the search could not be run where it can be stopped (no process could be
    forked): then it was not run at all, and the row is not judged either."""

    def __init__(
        self, message: str, *, seconds: float = 0.0, what: str = "", failed: str = ""
    ) -> None:
        super().__init__(message)
        self.seconds = seconds
        self.what = what
        self.failed = failed


class Guard(Protocol):
    """Runs a search so that it can be stopped and returns its bytes; raises
    :class:`MatchTimedOut` when the time it may take is used up. Given by the caller: process
    control is I/O, and this module is pure (see ``goalfile.commands.checking``)."""

    here: bool
    """Whether :meth:`run_here` can stop a search in this thread."""

    def __call__(self, work: Callable[[], bytes]) -> bytes:
        """``work()`` in another process, killed when the time is up."""

    def run_here(self, work: Callable[[], bytes]) -> bytes:
        """``work()`` in this process, stopped when the time is up (only where ``here``)."""


# a line a program ends its stderr with when it stops on an error: pytest's usage error
# (`ERROR: file or directory not found: tests`), git's `fatal:`, make's `make: *** No rule to
# make target`, a Python exception (`ModuleNotFoundError: No module named 'x'`) (this pattern
# and _trailer's are compiled when first asked for: a check that prints nothing asks for neither)
@functools.cache
def _error_line() -> re.Pattern[bytes]:
    return re.compile(
        rb"\s*(?:(?:ERROR|[Ee]rror|fatal)(?::|\b: )|g?make(?:\[\d+\])?: \*\*\* "
        rb"|[A-Za-z_][\w.]*(?:Error|Exception): )"
    )


# npm's lines after the error block that says why: a notice of a newer npm, the path of its log
_NPM_TAIL = (
    rb"npm (?:notice(?: |$)|(?:error|ERR!) (?:A complete log |\s+\S+-debug(?:-\d+)?\.log\s*$))"
)


# a line a task runner ends with that says only how each run went, not why: tox's report
# (`  py312: FAIL code 1 (0.93 seconds)`, `  3.12: SKIP (2.15 seconds)`, `  evaluation failed :(
# (2.56 seconds)`), after the line that says why (`py312: failed with could not find python
# interpreter ...`, `3.12: skipped because ...`); pytest's usage error, after the line that says
# why (`python -m pytest: error: unrecognized arguments: -n`), names its configuration file and
# root folder (`  inifile: /repo/pyproject.toml`, `  rootdir: /repo`); the evidence is that line
@functools.cache
def _trailer() -> re.Pattern[bytes]:
    return re.compile(
        rb"(?:\x1b\[[0-9;]*m)*\s*(?:evaluation failed :\( \("
        rb"|\S+: (?:OK|SKIP|NOT AVAILABLE|(?:IGNORED )?FAIL code -?\d+) \(\d+\.\d\d[= ]"
        rb"|(?:inifile|configfile|rootdir): /"  # after pytest's usage error, where it looked
        rb"|" + _NPM_TAIL + rb")"
    )


# pytest's last line when it stopped on an internal error (exit 3): it says nothing of why
# (`no tests ran in 0.39s`, `3 errors in 0.49s`); the exception its INTERNALERROR lines end
# with does (`INTERNALERROR> pytest.PytestConfigWarning: Unknown config option: asyncio_mode`,
# a plugin's option in a project whose `filterwarnings = error` makes the warning fatal)
@functools.cache
def _pytest_end() -> re.Pattern[bytes]:
    return re.compile(rb"=*\s*(?:no tests ran|\d+ errors?)(?:, [^=]*)? in \d+(?:\.\d+)?s")


@functools.cache
def _internal_error() -> re.Pattern[bytes]:
    return re.compile(rb"INTERNALERROR> [A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit): ")


_TRAILER_LINES = 64  # lines of a piece looked back through for the one before a report


# npm ends every error with the path of its log (`npm error A complete log of this run can be
# found in: ...`), after a block of `npm error` lines whose first words say why (`npm error
# Missing script: "lnit"`, after `npm error code ENOENT`-like lines that name no reason) and
# maybe its `npm notice` of a newer npm; the evidence is that first line of the block
@functools.cache
def _npm_line() -> re.Pattern[bytes]:
    return re.compile(rb"npm (?:error|ERR!)(?: |$)")


@functools.cache
def _npm_tail() -> re.Pattern[bytes]:
    return re.compile(_NPM_TAIL)


@functools.cache
def _npm_key() -> re.Pattern[bytes]:
    return re.compile(
        rb"npm (?:error|ERR!)\s*(?:$|(?:code|errno|syscall|path|dest|signal|workspace|location"
        rb"|command|cwd)(?: |$))"
    )


def _evidence(line: bytes) -> str:
    return line[:_EVIDENCE_BYTES].decode("utf-8", "replace")[:EVIDENCE_CHARS].rstrip()


class _Track:
    """What one stream keeps for lines: the current line's head and the last non-blank line."""

    __slots__ = ("internal", "kept", "last", "nonblank", "npm", "npm_open", "partial")

    def __init__(self) -> None:
        self.partial = b""  # first LINE_LIMIT bytes of the current, unterminated line
        self.last: bytes | None = None  # first bytes of the last complete non-blank line
        self.kept: bytes | None = None  # the same, of the last that is no runner's report
        self.nonblank = False  # the stream has a non-whitespace byte
        self.npm: bytes | None = None  # the first line of npm's last error block that says why
        self.npm_open = False  # the last complete line was one of npm's error lines
        self.internal: bytes | None = None  # pytest's last `INTERNALERROR> X: why` line

    def update(self, piece: bytes, nl_first: int, head: bytes | None) -> None:
        if not self.nonblank and not piece.isspace():
            self.nonblank = True
        if head is None:
            if len(self.partial) < LINE_LIMIT:
                self.partial = (self.partial + piece)[:LINE_LIMIT]
            return
        nl_last = piece.rfind(b"\n")
        if b"INTERNALERROR> " in piece or b"INTERNALERROR> " in head:
            for line in (head, *piece[nl_first + 1 : max(nl_last, nl_first + 1)].split(b"\n")):
                if _internal_error().match(line):
                    self.internal = line[:_EVIDENCE_BYTES]
        if b"npm" in piece or b"npm" in head:
            self._npm_lines((head, *piece[nl_first + 1 : max(nl_last, nl_first + 1)].split(b"\n")))
        else:
            self.npm_open = False
        p = len(piece[:nl_last].rstrip()) - 1  # last non-whitespace byte of complete lines
        if p > nl_first:
            start = piece.rfind(b"\n", 0, p) + 1
            end = piece.find(b"\n", p)
            self.last = piece[start : min(end, start + _EVIDENCE_BYTES)]
            if _trailer().match(self.last) is None:
                self.kept = self.last
            else:
                self._keep_before(piece, nl_first, start, head)
        elif head and not head.isspace():
            self.last = head[:_EVIDENCE_BYTES]
            if _trailer().match(self.last) is None:
                self.kept = self.last
        self.partial = piece[nl_last + 1 :]

    def _keep_before(self, piece: bytes, nl_first: int, start: int, head: bytes | None) -> None:
        """The last non-blank line before ``start`` that is no report, of this piece (its
        complete lines, then ``head``) into :attr:`kept`; it stays as it was when there is none."""
        lines = piece[nl_first + 1 : max(nl_first + 1, start - 1)].split(b"\n")
        before = (head or b"", *lines) if len(lines) < _TRAILER_LINES else lines[-_TRAILER_LINES:]
        trailer = _trailer()
        for line in reversed(before):
            if line.strip() and trailer.match(line) is None:
                self.kept = line[:_EVIDENCE_BYTES]
                return

    def _npm_lines(self, lines: Sequence[bytes]) -> None:
        """Follow npm's error blocks through these complete lines: :attr:`npm` is the first
        line of the last block that says why (no `code ENOENT`, `path ...`, blank), its
        notices and the path of its log left out."""
        for line in lines:
            if _npm_tail().match(line):
                continue  # its log's path or a notice: neither opens nor closes a block
            if _npm_line().match(line) is None:
                if line:
                    self.npm_open = False
                continue
            if not self.npm_open:
                self.npm_open, self.npm = True, None
            if self.npm is None and _npm_key().match(line) is None:
                self.npm = line[:_EVIDENCE_BYTES]

    def last_line(self) -> bytes | None:
        if self.partial and not self.partial.isspace():
            return self.partial[:_EVIDENCE_BYTES]
        return self.last

    def reason_line(self) -> bytes | None:
        """The last line, or when it is a task runner's report (:func:`_trailer`), the line
        before the report."""
        last = self.last_line()
        if last is not None and self.npm is not None and _npm_tail().match(last):
            return self.npm
        if last is not None and self.kept is not None and _trailer().match(last):
            return self.kept
        if last is not None and self.internal is not None and _pytest_end().match(last):
            return self.internal  # pytest stopped on an internal error: it says why
        return last


class Evaluator:
    """Judge one run of a check against an :class:`Expectation`, while it streams.

    With a ``guard``, a ``matches`` search that could backtrack without end (see
    :mod:`goalfile.backtrack`) runs through it; once one runs out of time, no pattern is
    searched again and :meth:`finish` says so in :attr:`Judgement.error`."""

    def __init__(self, expectation: Expectation, *, guard: Guard | None = None) -> None:
        self.expectation = expectation
        self._match_error: str | None = None
        self._tracks = {"stdout": _Track(), "stderr": _Track()}
        self._text: dict[str, list[TextCheck]] = {"stdout": [], "stderr": []}
        self._match: dict[str, list[MatchCheck]] = {"stdout": [], "stderr": []}
        self._prints: list[PrintsCheck] = []
        self._checks: list[_Check] = []
        # for `stdout contains "X"` (or stderr), the other stream searched for X too: a text
        # not found where the clause looks but printed on the other stream (unittest's "OK" is
        # on stderr) is said so, since no work can ever meet such a row
        self._other: dict[int, TextCheck] = {}
        for clause in expectation.clauses:
            check: _Check = None
            if isinstance(clause, ExitClause):
                pass  # judged by the status alone, in finish()
            elif isinstance(clause, (out := _output()).TextClause):
                check = text_check = out.TextCheck(clause)
                for name in _SOURCES[clause.stream]:
                    self._text[name].append(text_check)
                other = _OTHER.get(clause.stream)
                if other is not None and not clause.negate and clause.text:
                    shadow = out.TextCheck(replace(clause, stream=other))
                    self._other[len(self._checks)] = shadow
                    self._text[_SOURCES[other][0]].append(shadow)
            elif isinstance(clause, out.MatchClause):
                check = match_check = out.MatchCheck(clause, guard=guard)
                for name in _SOURCES[clause.stream]:
                    self._match[name].append(match_check)
            elif isinstance(clause, out.PrintsClause):
                check = prints_check = out.PrintsCheck(clause)
                self._prints.append(prints_check)
            self._checks.append(check)
        self._finished = False

    def feed(self, stream: Literal["stdout", "stderr"], data: bytes) -> None:
        """Take the next bytes of ``stream``; chunk boundaries do not matter."""
        if self._finished:
            raise RuntimeError("Evaluator.feed() called after finish()")
        name = str(stream)
        if name not in self._tracks:
            raise ValueError(f"stream must be 'stdout' or 'stderr', not {stream!r}")
        if not data:
            return
        if not isinstance(data, bytes):
            data = bytes(data)
        if len(data) <= LINE_LIMIT:
            self._piece(name, data)
            return
        for i in range(0, len(data), LINE_LIMIT):
            self._piece(name, data[i : i + LINE_LIMIT])

    def _piece(self, name: str, piece: bytes) -> None:
        track = self._tracks[name]
        nl_first = piece.find(b"\n")
        head: bytes | None = None  # the line this piece completes (first LINE_LIMIT bytes)
        if nl_first >= 0:
            partial = track.partial
            head = (partial + piece[:nl_first])[:LINE_LIMIT] if partial else piece[:nl_first]
        for text_check in self._text[name]:
            text_check.feed(name, piece, track.partial, head)
        matches = self._match[name]
        if matches and head is not None and self._match_error is None:
            nl_last = piece.rfind(b"\n")
            block = head if nl_last == nl_first else head + piece[nl_first:nl_last]
            decoded = block.decode("utf-8", "replace")
            try:
                for match_check in matches:
                    match_check.search(name, decoded)
            except MatchTimedOut as exc:
                self._match_error = str(exc)
        if name == "stdout":
            for prints_check in self._prints:
                prints_check.feed(piece)
        track.update(piece, nl_first, head)

    def finish(self, exit_status: int | None) -> Judgement:
        """Judge what was fed; ``exit_status=None`` means there is no status to judge."""
        self._finished = True
        tracks = self._tracks
        failures: list[str] = []
        decisive: str | None = None  # the line where a failed `lacks` found its text
        first_hit: str | None = None  # the line of the first contains/matches hit
        for at, (clause, check) in enumerate(
            zip(self.expectation.clauses, self._checks, strict=True)
        ):
            failure: str | None = None
            if isinstance(clause, ExitClause):
                failure = _exit_failure(clause, exit_status)
            elif isinstance(clause, (out := _output()).TextClause):
                assert isinstance(check, out.TextCheck)
                where, line = check.result(tracks)
                if clause.negate and where is not None:
                    failure = f"{format_clause(clause)}: found in {where}"
                    if decisive is None:
                        decisive = line
                elif not clause.negate and where is None:
                    failure = f"{format_clause(clause)}: not found"
                    shadow = self._other.get(at)
                    elsewhere = shadow.result(tracks)[0] if shadow is not None else None
                    if elsewhere is not None:
                        failure += (
                            f" in {clause.stream}, but in {elsewhere} (`output contains` reads "
                            "both)"
                        )
                elif not clause.negate and first_hit is None:
                    first_hit = line
            elif isinstance(clause, out.MatchClause):
                assert isinstance(check, out.MatchCheck)
                where = line = None
                if self._match_error is None:
                    try:
                        where, line = check.result(tracks)
                    except MatchTimedOut as exc:
                        self._match_error = str(exc)
                if self._match_error is not None:
                    failure = f"{format_clause(clause)}: not judged"
                elif where is None:
                    failure = f"{format_clause(clause)}: no line matches"
                elif first_hit is None:
                    first_hit = line
            elif isinstance(clause, out.EmptyClause):
                busy = [n for n in _SOURCES[clause.stream] if tracks[n].nonblank]
                if busy:
                    failure = f"{format_clause(clause)}: {busy[0]} is not"
            else:
                assert isinstance(check, out.PrintsCheck)
                failure = check.failure()
            if failure is not None:
                failures.append(failure)
        holds = not failures
        if decisive is not None:
            evidence = decisive
        elif holds and first_hit is not None:
            evidence = first_hit
        else:
            said = tracks["stderr"].reason_line()
            if not (exit_status and said and _error_line().match(said)):
                said = None  # the program's own error line, when it ended with one
            last = said or tracks["stdout"].reason_line() or tracks["stderr"].reason_line()
            evidence = _evidence(last) if last else ""
        if self._match_error is not None:
            return Judgement(
                holds=False, failures=tuple(failures), evidence=evidence, error=self._match_error
            )
        return Judgement(holds=holds, failures=tuple(failures), evidence=evidence)


def _output() -> ModuleType:
    """:mod:`goalfile.expecttext`, loaded when a clause other than ``exit`` is judged."""
    from goalfile import expecttext

    return expecttext


def _exit_failure(clause: ExitClause, status: int | None) -> str | None:
    if status is None:
        ok = False
    elif clause.op == "==":
        ok = status == clause.value
    elif clause.op == "!=":
        ok = status != clause.value
    else:
        ok = status != 0
    if ok and clause.op != "==" and status is not None and status in _SIGNAL_STATUSES:
        # a shell reports a command a signal ended as 128 + the signal: a crash (SIGSEGV 139,
        # SIGKILL 137) is not the failure `exit nonzero` asks for; `exit 139` names it
        return (
            f"{format_clause(clause)} expected, got {status}: the status of a command killed "
            f"by signal {status - 128}, which no negative exit clause accepts"
        )
    if ok:
        return None
    got = "no exit status" if status is None else str(status)
    return f"{format_clause(clause)} expected, got {got}"


_SIGNAL_STATUSES: Final = range(129, 129 + 64)  # 128 + a signal of Linux (1 to 64)
