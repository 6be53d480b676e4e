"""Value types shared by every module, immutable (see :mod:`goalfile.value`). No I/O here."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from typing import Final, overload

from goalfile.value import Compared


class Status(StrEnum):
    DRAFT = "draft"
    ACTIVE = "active"
    PAUSED = "paused"
    MET = "met"
    BLOCKED = "blocked"
    EXHAUSTED = "exhausted"


class Verdict(StrEnum):
    MET = "met"
    UNMET = "unmet"
    ERROR = "error"
    IMPOSSIBLE = "impossible"


class Kind(StrEnum):
    DETERMINISTIC = "deterministic"
    REVIEW = "review"


class Budget(Compared):
    """The frontmatter's ``budget``: iterations and tokens a goal may use (None: no limit)."""

    __slots__ = ("iterations", "tokens")

    def __init__(self, *, iterations: int | None = None, tokens: int | None = None) -> None:
        self.iterations: Final = iterations
        self.tokens: Final = tokens


# the largest limit a ledger entry can record (its numbers are 1 to 18 ASCII digits): `new` and
# `budget` refuse a larger one at the command line, so no limit is written that counts for nothing
BUDGET_LIMIT_MAX = 999_999_999_999_999_999


class Cells(Sequence[tuple[str, str]]):
    """Every cell of a criteria row by header name, as written: ``(name, text)`` pairs, equal
    to (and hashed as) the tuple of those pairs. The names are one tuple that every row of a
    table shares, so a row of a big table keeps only its texts."""

    __slots__ = ("names", "values")

    def __init__(self, names: tuple[str, ...], values: tuple[str, ...]) -> None:
        self.names = names
        self.values = values

    def __len__(self) -> int:
        return len(self.names)

    @overload
    def __getitem__(self, index: int) -> tuple[str, str]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[str, str], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[str, str] | tuple[tuple[str, str], ...]:
        if isinstance(index, slice):
            return tuple(zip(self.names[index], self.values[index], strict=True))
        return self.names[index], self.values[index]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return zip(self.names, self.values, strict=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cells):
            return self.names == other.names and self.values == other.values
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


class Criterion(Compared):
    """One row of the acceptance-criteria table, as written (a table may hold a hundred
    thousand)."""

    __slots__ = (
        "cells",
        "check",
        "check_is_code",
        "criterion",
        "expected",
        "id",
        "kind",
        "kind_text",
        "line",
        "source_check",
        "source_expected",
        "timeout",
        "timeout_text",
    )

    def __init__(
        self,
        *,
        id: str,
        criterion: str,
        check: str,
        expected: str,
        kind: Kind = Kind.DETERMINISTIC,
        kind_text: str = "deterministic",
        timeout: float | None = None,
        timeout_text: str = "",
        line: int = 0,
        check_is_code: bool = True,
        cells: Sequence[tuple[str, str]] = (),
        source_check: str = "",
        source_expected: str = "",
    ) -> None:
        self.id: Final = id
        self.criterion: Final = criterion
        # the command (code span content, `\\|` unescaped) or, for review rows, the cell
        self.check: Final = check
        self.expected: Final = expected
        self.kind: Final = kind
        self.kind_text: Final = kind_text  # the cell as written, for lint
        self.timeout: Final = timeout
        self.timeout_text: Final = timeout_text  # the cell as written, for lint
        self.line: Final = line  # 1-based line of the row in the goal file
        self.check_is_code: Final = check_is_code  # the check cell was exactly one code span
        self.cells: Final = cells  # every cell by header name, as written (Cells)
        # check and expected as written, before Markdown escapes are read (for lint, and for
        # pins made before cells were read as Markdown shows them)
        self.source_check: Final = source_check
        self.source_expected: Final = source_expected


class LaterLines:
    """The line numbers after a goal's ledger, counted when one is first read: the ledger's
    lines are counted then (a long ledger's count is a pass over it, which most commands
    never need). A number above ``heading`` (the ledger's heading line) is one of the lines
    after the ledger numbered as if the ledger were its heading line alone."""

    __slots__ = ("_count", "heading")

    def __init__(self, heading: int, count: Callable[[], int]) -> None:
        self.heading: Final = heading
        self._count: Callable[[], int] | int = count  # the ledger's newlines, once counted

    def real(self, line: int) -> int:
        """The file's line number of ``line``."""
        if line <= self.heading:
            return line
        count = self._count
        if not isinstance(count, int):
            count = self._count = count()
        return line + count - 1


class Section(Compared, compared=("title", "key", "line", "end")):
    """A level-2 section of the body: its heading and line span (1-based, end exclusive)."""

    __slots__ = ("_end", "_later", "_line", "key", "title")

    def __init__(
        self, *, title: str, key: str, line: int, end: int, later: LaterLines | None = None
    ) -> None:
        self.title: Final = title
        self.key: Final = key  # normalised title: lower case, single spaces
        self._line: Final = line
        self._end: Final = end
        self._later: Final = later  # how ``line`` and ``end`` after the ledger are numbered

    def __repr__(self) -> str:
        return f"Section(title={self.title!r}, key={self.key!r}, line={self.line}, end={self.end})"

    @property
    def line(self) -> int:
        """The line of the heading."""
        later = self._later
        return self._line if later is None else later.real(self._line)

    @property
    def end(self) -> int:
        """The first line after the section."""
        later = self._later
        return self._end if later is None else later.real(self._end)


class Goal(Compared):
    """A parsed goal file. ``meta`` holds the frontmatter as YAML read it."""

    __slots__ = (
        "budget",
        "criteria",
        "cwd",
        "end_state",
        "frontmatter_end",
        "iterations_used",
        "key_lines",
        "link_labels",
        "meta",
        "newline",
        "non_goals",
        "path",
        "problems",
        "sections",
        "shell",
        "slug",
        "source_non_goals",
        "status",
        "text",
        "timeout",
        "tokens_measured",
        "tokens_used",
    )

    def __init__(
        self,
        *,
        path: str,
        text: str,
        meta: dict[str, object],
        slug: str,
        status: Status,
        budget: Budget,
        iterations_used: int,
        tokens_used: int,
        end_state: str,
        non_goals: tuple[str, ...],
        criteria: tuple[Criterion, ...],
        sections: tuple[Section, ...],
        frontmatter_end: int,
        timeout: float | None = None,
        source_non_goals: tuple[str, ...] = (),
        tokens_measured: bool = True,
        shell: str = "/bin/sh",
        cwd: str | None = None,
        newline: str = "\n",
        key_lines: tuple[tuple[str, int], ...] = (),
        problems: tuple[Finding, ...] = (),
        link_labels: frozenset[str] = frozenset(),
    ) -> None:
        self.path: Final = path
        self.text: Final = text
        self.meta: Final = meta
        self.slug: Final = slug
        self.status: Final = status
        self.budget: Final = budget
        self.iterations_used: Final = iterations_used
        self.tokens_used: Final = tokens_used  # 0 when the file says `tokens_used: null`
        self.end_state: Final = end_state
        # as Markdown shows them, code spans in single backticks
        self.non_goals: Final = non_goals
        self.criteria: Final = criteria
        self.sections: Final = sections
        self.frontmatter_end: Final = frontmatter_end  # line number of the closing `---`
        self.timeout: Final = timeout
        # the list items' source text, whitespace collapsed
        self.source_non_goals: Final = source_non_goals
        # False for `tokens_used: null`: usage not measured yet
        self.tokens_measured: Final = tokens_measured
        self.shell: Final = shell
        self.cwd: Final = cwd
        self.newline: Final = newline
        # frontmatter key (dotted for budget.*) -> line
        self.key_lines: Final = key_lines
        # what reading the file found wrong; see goalfile.lint
        self.problems: Final = problems
        # the link reference labels the body defines outside the ledger (normalised, as
        # markdown-it keys them): cells are read with all of them, as every Markdown view reads
        # them
        self.link_labels: Final = link_labels

    def criterion(self, cid: str) -> Criterion | None:
        for row in self.criteria:
            if row.id == cid:
                return row
        return None

    def key_line(self, key: str) -> int | None:
        for name, line in self.key_lines:
            if name == key:
                return line
        return None

    def section(self, key: str) -> Section | None:
        for sec in self.sections:
            if sec.key == key:
                return sec
        return None


class RowResult(Compared):
    """The verdict of one criterion in one iteration entry."""

    __slots__ = (
        "command",
        "cut_short",
        "elapsed",
        "evidence",
        "evidence_label",
        "evidence_quoted",
        "excerpt",
        "excerpt_label",
        "exit",
        "id",
        "verdict",
        "why",
    )

    def __init__(
        self,
        *,
        id: str,
        verdict: Verdict,
        command: str,
        exit: str,
        evidence: str,
        evidence_quoted: bool = True,
        evidence_label: str = "",
        excerpt: tuple[str, ...] = (),
        excerpt_label: str = "",
        elapsed: float | None = None,
        why: tuple[str, ...] = (),
        cut_short: bool = False,
    ) -> None:
        self.id: Final = id
        self.verdict: Final = verdict
        self.command: Final = command
        self.exit: Final = exit  # "0", "timeout", "signal 9", or "-" when nothing ran
        self.evidence: Final = evidence  # one line
        # True: output, shown as a code span; False: our own prose
        self.evidence_quoted: Final = evidence_quoted
        # prose before a quoted evidence, e.g. "judge:" or "review:"
        self.evidence_label: Final = evidence_label
        self.excerpt: Final = excerpt  # at most twenty output lines quoted under the table
        self.excerpt_label: Final = excerpt_label
        self.elapsed: Final = elapsed
        self.why: Final = why  # what failed, clause by clause, with what was seen
        # an error: the goal's time limit ended it before it was judged
        self.cut_short: Final = cut_short

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the row is not met: the failed clauses, or the prose of its evidence."""
        if self.verdict is Verdict.MET:
            return ()
        if self.why:
            return self.why
        return (self.evidence,) if self.evidence and not self.evidence_quoted else ()

    @classmethod
    def not_run(
        cls,
        row: Criterion,
        verdict: Verdict,
        evidence: str,
        *,
        quoted: bool = False,
        label: str = "",
    ) -> RowResult:
        """A row decided without running its check (exit ``-``): prose, or a quoted passage."""
        return cls(
            id=row.id,
            verdict=verdict,
            command=row.check,
            exit="-",
            evidence=evidence,
            evidence_quoted=quoted,
            evidence_label=label,
        )


class Entry(Compared):
    """An iteration entry of the ledger (``### Iteration n (date) by who``)."""

    __slots__ = (
        "by",
        "contract",
        "date",
        "iteration",
        "line",
        "notes",
        "rows",
        "status",
        "status_reason",
        "time",
    )

    def __init__(
        self,
        *,
        iteration: int,
        date: str,
        by: str,
        time: str = "",
        rows: tuple[RowResult, ...] = (),
        status: Status | None = None,
        status_reason: str | None = None,
        contract: str | None = None,
        notes: tuple[str, ...] = (),
        line: int = 0,
    ) -> None:
        self.iteration: Final = iteration
        self.date: Final = date
        self.by: Final = by
        self.time: Final = time  # HH:MM or HH:MM:SS after the date, as some writers add it
        self.rows: Final = rows
        self.status: Final = status
        self.status_reason: Final = status_reason
        self.contract: Final = contract  # short digest of the contract the entry ran under
        self.notes: Final = notes  # free lines of the entry, for non-verify entries
        self.line: Final = line


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Finding(Compared):
    """A problem found in a goal file, with where it is and how to fix it."""

    __slots__ = ("code", "column", "hint", "line", "message", "severity")

    def __init__(
        self,
        *,
        severity: Severity,
        message: str,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        code: str = "",
    ) -> None:
        self.severity: Final = severity
        self.message: Final = message
        self.line: Final = line
        self.column: Final = column
        self.hint: Final = hint
        self.code: Final = code  # short stable name, e.g. "expected-syntax"
