"""Whether a check's output shows a test run that ran no test at all: libtest's (as `cargo
test` runs it), pytest's or unittest's.

`cargo test NAME` runs only the tests whose name holds NAME. When none does, every test binary
prints ``running 0 tests`` and ``test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured;
N filtered out`` and cargo exits 0: a check ``cargo test the_feature`` with ``exit 0`` would be
met before the test exists, or after it was renamed. pytest ends a run that collected no test
with exit 5 ("no tests ran"), which no ``exit 0`` accepts, but a run whose every test was
skipped, deselected or marked xfail (``1 skipped, 2 deselected in 0.12s``) exits 0, as does
unittest's (``Ran 1 test`` then ``OK (skipped=1)``, on stderr). goalfile judges them alike: a
row whose clauses hold is unmet when its output holds such summary lines
and they count no test that passed or failed, in all of them together, or when one pytest
session or unittest run among them ran none (`pytest tests/unit && pytest tests/feature -k
the_feature`, docs/trust.md). A
test marked ``#[ignore]``, ``@pytest.mark.skip`` or ``@unittest.skip`` ran no more than one
filtered out.

Other lines read as summary lines, of runs that exit 0 having run no test: pytest run twice quiet
(``-qq``, or ``-q`` over a configuration's ``addopts = "-ra -q"``) prints only its progress
line (``sx      [100%]``), one letter per result, of which ``s`` and ``x`` did not run;
pytest's options that only list the tests or their fixtures (``--co``, ``--setup-plan``,
``--fixtures``) exit 0 with ``1 test collected in 0.5s`` or ``no tests ran in 0.5s``; cargo's
``Running unittests src/lib.rs (target/...)`` (on stderr) counts no test, libtest's own line
after it says what the binary ran, and none follows when a ``runner`` in
``.cargo/config.toml`` runs nothing (``runner = "true"``); Node's test runner (``node
--test``) exits 0 when every test was skipped or none matched ``--test-name-pattern``, ending
``# pass 0`` and ``# fail 0`` (``ℹ pass 0`` in its spec reporter); mocha the same with
every test pending or none matching ``--grep`` (``0 passing (2ms)``, ``1 pending``).
pytest's other progress styles (``console_output_style``): ``s   [1/1]`` (count), and only
when the command runs pytest ``s   169.8us`` (times) and a bare ``s`` (classic).

:func:`runners` names the runners a command starts (pytest, ``cargo test``) whose lines its
output should show: one that exits 0 with none of them (``-p no:terminal``, ``cargo test -q``
through a runner that runs nothing, output sent elsewhere) ran no test the row can see.

:class:`TestCount` is fed one stream in chunks of any size and keeps at most one line (8 KiB).
The complete lines of a chunk are searched for what a summary line holds (byte searches); only a
line so found is read: about 1.4 s per GB of output that holds no such line (`yes`), 3 to 4 s
for prose and source code (measured on a loaded machine). Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from typing import Final

__all__ = ["TestCount", "asks_for_listing", "runners"]

# bytes: a longer line is not a summary line. pytest pads its summary with `=` to the width of
# the terminal, which it takes from `COLUMNS`: 1,200 columns made it too long for a limit of 512
_LINE_LIMIT: Final = 8192
_ANSI: Final = rb"\x1b\[[0-9;]*m"
# pytest's counts: the first four say a test ran (an error is a test's setup or teardown failing)
_RAN: Final = frozenset({b"passed", b"failed", b"xpassed", b"error", b"errors"})
_SPARED: Final = frozenset({b"skipped", b"expected failures"})  # unittest's, in `OK (...)`


# what a summary line holds, each found by a byte search (no regular expression runs over the
# whole output), and what must follow it on its line (one of them; nothing when empty):
# libtest's start; pytest's and unittest's time (`... in 0.12s`); the end of pytest's progress
# line (`[100%]`, either coloured, or `[2/2]`); the count lines of Node's test runner (`# pass 0`
# in TAP, `ℹ fail 0` in its spec reporter; `ℹ` ends in byte b9); unittest's verdict, looked
# for only after its `Ran N tests in 0.001s`; mocha's `0 passing (2ms)` and, only after it,
# its `1 failing`. One byte is found fastest (memchr).
_NODE_COUNTS: Final = (b" pass ", b" fail ")
_WORDS: Final = (
    (b"test result: ", ()),
    (b"Running unittests ", ()),
    (b" in ", tuple(b"%d" % digit for digit in range(10))),
    (b"%", (b"]",)),
    (b"/", (b" ", *(b"%d" % digit for digit in range(10)))),  # `[1/2]`, `[ 0 / 0 ]`
    (b"#", _NODE_COUNTS),
    (b"\xb9", _NODE_COUNTS),
    (b" passing (", ()),
)
_VERDICTS: Final = ((b"OK", ()), (b"FAILED", ()))
_MOCHA_FAILING: Final = ((b" failing", ()),)  # looked for only after mocha's `N passing (...)`


@functools.cache
def _unittest_ran() -> re.Pattern[bytes]:
    return re.compile(rb"Ran (\d+) tests? in \d+(?:\.\d+)?s")


@functools.cache
def _unittest_end() -> re.Pattern[bytes]:
    # `OK`, `OK (skipped=1, expected failures=1)`, `FAILED (failures=2)`
    return re.compile(rb"(OK|FAILED)(?: \(([a-z =,0-9]*)\))?")


@functools.cache
def _libtest() -> re.Pattern[bytes]:
    return re.compile(rb"test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed;")


@functools.cache
def _cargo_running() -> re.Pattern[bytes]:
    # cargo's line before it runs a unit-test binary (on stderr), whose libtest then prints a
    # `test result:` line: the binary ran no test when no such line follows (a `runner` in
    # `.cargo/config.toml` that runs nothing)
    return re.compile(rb"Running unittests \S.* \([^()]+\)")


@functools.cache
def _pytest() -> re.Pattern[bytes]:
    count = rb"\d+ (?:passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)"
    return re.compile(
        rb"=* ?(" + count + rb"(?:, " + count + rb")*) in \d+(?:\.\d+)?s(?: \([^)\n]*\))? ?=*"
    )


@functools.cache
def _pytest_idle() -> re.Pattern[bytes]:
    # a run that ran no test by design: `--co` (`1 test collected in 0.5s`, `1/2 tests
    # collected (1 deselected) in ...`), `--setup-plan`, `--fixtures` (`no tests ran in 0.5s`)
    return re.compile(
        rb"=* ?(?:no tests ran|(?:\d+/)?\d+ tests? collected(?: \(\d+ deselected\))?)"
        rb"(?:, \d+ warnings?)? in \d+(?:\.\d+)?s(?: \([^)\n]*\))? ?=*"
    )


@functools.cache
def _progress() -> re.Pattern[bytes]:
    # pytest run twice quiet (`-qq`, or `-q` over a configuration's `addopts = "-q"`) prints no
    # summary line, only one letter per test result and the progress: `s.x    [100%]`
    # with `console_output_style = "count"`: `s.    [1/2]` (`[ 0 / 0 ]` when none was collected)
    return re.compile(rb"([.sxXFE]+) +\[ *(?:(\d+)%|(\d+)/(\d+)|0 / 0 )\]")


@functools.cache
def _progress_plain() -> re.Pattern[bytes]:
    # `console_output_style = "times"` ends the letters with a duration (` 650.1us`, ` 2m 3s`),
    # `"classic"` with nothing: read only when the check runs pytest (:func:`runners`)
    return re.compile(rb"([.sxXFE]+)(?: +(?:\d+(?:\.\d+)?(?:us|ms|s)|\d+m \d+s|\d+h \d+m))?")


@functools.cache
def _letters_start() -> re.Pattern[bytes]:
    # where a line that may be pytest's progress letters starts, colour or none before them
    return re.compile(rb"^(?:" + _ANSI + rb")*[.sxXFE]", re.MULTILINE)


@functools.cache
def _node() -> re.Pattern[bytes]:
    # one count a line: `# tests 2`, `# pass 0`, `# fail 0`, `# skipped 2`, ...
    return re.compile(rb"(?:#|\xe2\x84\xb9) (?:pass|fail) +(\d+)")


@functools.cache
def _mocha() -> re.Pattern[bytes]:
    # `0 passing (2ms)`, then `1 pending` and `1 failing` on lines of their own
    return re.compile(rb"(\d+) (?:passing \(\d+(?:\.\d+)?[a-z]+\)|failing)")


@functools.cache
def _listing() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\S)--(?:co|collect-only|setup-plan|setup-only|fixtures|fixtures-per-test)(?!\S)"
    )


def asks_for_listing(command: str) -> bool:
    """Whether ``command`` names a pytest option that lists the tests or their fixtures
    without running them: the person asked for the listing (`pytest --co -q` with `stdout
    contains "test_x"`: the test exists), one planted in a configuration was not."""
    return _listing().search(command) is not None


# where a shell command starts (after `&&`, `;`, `|`, `(`, ...), what may come before the
# program (`VAR=x`, `env`, `uv run`, `timeout 60`), and the programs: pytest (`pytest`,
# `.venv/bin/pytest`, `python3 -m pytest`) and `cargo test`
_START: Final = r"(?:^|[;&|(){}\n]|(?<!\S)(?:then|do|else|!)(?=\s))\s*"
_BEFORE: Final = (
    r"(?:(?:[A-Za-z_][A-Za-z0-9_]*=\S*|env|exec|time|command|nice|timeout +\S+"
    r"|(?:uv|poetry|pdm|hatch|rye|pipenv) +run)\s+)*"
)
_END: Final = r"(?=\s|$|[;&|)])"
_RUNNERS: Final = (
    ("pytest", r"(?:\S*/)?(?:py\.?test|python[0-9.]*\s+(?:-[A-Za-z]+\s+)*-m\s*pytest)"),
    ("cargo test", r"(?:\S*/)?cargo\s+(?:\+\S+\s+)?(?:-\S+\s+)*test"),
)
# options after which a runner prints no summary line by design: help, versions, listings,
# `cargo test --no-run` (builds only), libtest's `--list` and JSON `--format`
_QUIET_BY_DESIGN: Final = {
    "pytest": r"(?<!\S)(?:-h|--help|-V|--version|--markers)(?!\S)",
    "cargo test": r"(?<!\S)(?:-h|--help|-V|--version|--no-run|--list|--format(?:=\S*)?)(?!\S)",
}


@functools.cache
def _runner(name: str) -> re.Pattern[str]:
    return re.compile(_START + _BEFORE + dict(_RUNNERS)[name] + _END)


@functools.cache
def _quiet_by_design(name: str) -> re.Pattern[str]:
    return re.compile(_QUIET_BY_DESIGN[name])


def runners(command: str) -> frozenset[str]:
    """The test runners ``command`` starts whose summary line its output should show:
    ``pytest`` and ``cargo test``, less those it asks for help, a version or a listing."""
    return frozenset(
        name
        for name, _ in _RUNNERS
        if _runner(name).search(command) is not None
        and _quiet_by_design(name).search(command) is None
        and not (name == "pytest" and asks_for_listing(command))
    )


@functools.cache
def _ansi() -> re.Pattern[bytes]:
    return re.compile(_ANSI)


class TestCount:
    """The test runs' summary lines seen in one stream, and the tests they say ran."""

    __test__ = False  # not a test class, whatever pytest makes of its name
    __slots__ = (
        "first",
        "idle",
        "kinds",
        "listing",
        "mocha",
        "progress",
        "pytest",
        "ran",
        "rest",
        "skipping",
        "unittest",
    )

    def __init__(self, *, listing: bool = False, pytest: bool = False) -> None:
        # the command asks pytest for a listing itself (:func:`asks_for_listing`): its
        # `1 test collected in 0.5s` is what the row measures, not a run that ran nothing
        self.listing = listing
        # the command runs pytest (:func:`runners`): a line of its progress letters alone
        # (`console_output_style = "classic"`) or with a duration (`"times"`) is read
        self.pytest = pytest
        self.first: bytes | None = None  # the first summary line (the evidence)
        self.ran = 0  # tests that passed or failed, over every summary line
        self.rest = b""  # the current unterminated line
        self.skipping = False  # the current line is longer than any summary line
        self.unittest: int | None = None  # unittest's `Ran N tests`, until its `OK` or `FAILED`
        self.mocha = False  # mocha's `N passing (...)` was seen: its `N failing` may follow
        # the first line of a pytest or unittest session that ran no test, whatever the others
        # ran (`pytest tests/unit && pytest tests/feature -k the_feature`)
        self.idle: bytes | None = None
        # the current pytest session's progress lines: its first line and the tests that ran
        self.progress: tuple[bytes, int] | None = None
        self.kinds: set[str] = set()  # the runners whose lines were seen (:func:`runners`)

    @property
    def none_ran(self) -> bool:
        """Whether a test run summarised itself and no test passed or failed in any, or a
        pytest or unittest session ran none."""
        return self.idle is not None or (self.first is not None and self.ran == 0)

    @property
    def evidence(self) -> str:
        return (self.idle or self.first or b"").decode("utf-8", "replace").rstrip()

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
        self._session_ends()

    def _session_ends(self) -> None:
        """A pytest session's progress lines ended (`[100%]`, its summary line, the stream)."""
        if self.progress is not None:
            line, ran = self.progress
            self.progress = None
            self._session(line, ran)

    def _session(self, line: bytes, ran: int) -> None:
        if ran == 0 and self.idle is None:
            self.idle = line

    def _keep(self, piece: bytes) -> None:
        if len(piece) <= _LINE_LIMIT:
            self.rest, self.skipping = piece, False
        else:
            self.rest, self.skipping = b"", True

    def _block(self, block: bytes) -> None:
        """Read the summary lines of ``block``, complete lines each ending in a newline."""
        lines: dict[int, int] = {}  # start: end of each line a word is in
        self._find(block, _WORDS, lines)
        found = [block[start:end] for start, end in lines.items()]
        if self.unittest is not None or any(b"Ran " in line for line in found):
            self._find(block, _VERDICTS, lines)
        if self.mocha or any(b" passing (" in line for line in found):
            self._find(block, _MOCHA_FAILING, lines)
        if self.pytest:
            for letters in _letters_start().finditer(block):
                lines[letters.start()] = block.find(b"\n", letters.start())
        for start in sorted(lines):
            self._line(block[start : lines[start]])

    @staticmethod
    def _find(
        block: bytes,
        words: tuple[tuple[bytes, tuple[bytes, ...]], ...],
        lines: dict[int, int],
    ) -> None:
        for word, follows in words:
            at = block.find(word)
            while at >= 0:
                end = block.find(b"\n", at)
                if not follows or block.startswith(follows, at + len(word)):
                    lines[block.rfind(b"\n", 0, at) + 1] = end
                at = block.find(word, end + 1)

    def _line(self, line: bytes) -> None:
        if len(line) > _LINE_LIMIT:
            return
        plain = _ansi().sub(b"", line).strip()
        libtest = _libtest().match(plain)
        if libtest is not None:
            ran = int(libtest[1]) + int(libtest[2])
            self.kinds.add("cargo test")
        elif (pytest := _pytest().fullmatch(plain)) is not None:
            counts = (part.split(b" ", 1) for part in pytest[1].split(b", "))
            ran = sum(int(number) for number, word in counts if word in _RAN)
            self._session_ends()
            self._session(line, ran)
            self.kinds.add("pytest")
        elif _cargo_running().fullmatch(plain):
            ran = 0
            self.kinds.add("cargo test")
        elif not self.listing and _pytest_idle().fullmatch(plain):
            ran = 0
            self._session_ends()
            self._session(line, ran)
            self.kinds.add("pytest")
        elif (unittest := _unittest_ran().fullmatch(plain)) is not None:
            self.unittest = int(unittest[1])
            return
        elif self.unittest is not None and (end := _unittest_end().fullmatch(plain)):
            # unittest's count less the tests it skipped or expected to fail
            counts = (part.split(b"=", 1) for part in (end[2] or b"").split(b", ") if part)
            spared = sum(int(n) for word, n in counts if word in _SPARED and n.isdigit())
            ran, self.unittest = self.unittest - spared if end[1] == b"OK" else 1, None
            self._session(line, ran)
        elif (node := _node().fullmatch(plain)) is not None:
            ran = int(node[1])
        elif (mocha := _mocha().fullmatch(plain)) is not None:
            ran, self.mocha = int(mocha[1]), True
        elif (progress := _progress().fullmatch(plain)) is not None or (
            self.pytest and (progress := _progress_plain().fullmatch(plain)) is not None
        ):
            ran = len(progress[1]) - progress[1].count(b"s") - progress[1].count(b"x")
            first, before = self.progress or (line, 0)
            self.progress = (first, before + ran)
            self.kinds.add("pytest")
            if progress.re is _progress() and progress[2] in (b"100", None):
                ends = progress[3] == progress[4]  # `[100%]`, `[2/2]`, `[ 0 / 0 ]`
                if ends:
                    self._session_ends()
        else:
            return
        if self.first is None:
            self.first = line
        self.ran += ran
