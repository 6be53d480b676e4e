"""Frozen value types shared by every module. No I/O here.

Built without ``__repr__`` (``repr=False``): nothing prints one, and every method a dataclass
generates is compiled at every start of goalfile (see docs/performance.md, cold start)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import overload


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


@dataclass(frozen=True, kw_only=True, repr=False)
class Budget:
    """The frontmatter's ``budget``: iterations and tokens a goal may use (None: no limit)."""

    iterations: int | None = None
    tokens: int | None = None


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


@dataclass(frozen=True, kw_only=True, slots=True, repr=False)
class Criterion:
    """One row of the acceptance-criteria table, as written (slotted: a table may hold a
    hundred thousand)."""

    id: str
    criterion: str
    check: str  # the command (code span content, `\\|` unescaped) or, for review rows, the cell
    expected: str
    kind: Kind = Kind.DETERMINISTIC
    kind_text: str = "deterministic"  # the cell as written, for lint
    timeout: float | None = None
    timeout_text: str = ""  # the cell as written, for lint
    line: int = 0  # 1-based line of the row in the goal file
    check_is_code: bool = True  # the check cell was exactly one code span
    cells: Sequence[tuple[str, str]] = ()  # every cell by header name, as written (Cells)
    # check and expected as written, before Markdown escapes are read (for lint, and for pins
    # made before cells were read as Markdown shows them)
    source_check: str = ""
    source_expected: str = ""


@dataclass(frozen=True, kw_only=True, repr=False)
class Section:
    """A level-2 section of the body: its heading and line span (1-based, end exclusive)."""

    title: str
    key: str  # normalised title: lower case, single spaces
    line: int  # line of the heading
    end: int  # first line after the section


@dataclass(frozen=True, kw_only=True, repr=False)
class Goal:
    """A parsed goal file. ``meta`` holds the frontmatter as YAML read it."""

    path: str
    text: str
    meta: dict[str, object]
    slug: str
    status: Status
    budget: Budget
    iterations_used: int
    tokens_used: int  # 0 when the file says `tokens_used: null`
    end_state: str
    non_goals: tuple[str, ...]  # as Markdown shows them, code spans in single backticks
    criteria: tuple[Criterion, ...]
    sections: tuple[Section, ...]
    frontmatter_end: int  # line number of the closing `---`
    timeout: float | None = None
    source_non_goals: tuple[str, ...] = ()  # the list items' source text, whitespace collapsed
    tokens_measured: bool = True  # False for `tokens_used: null`: usage not measured yet
    shell: str = "/bin/sh"
    cwd: str | None = None
    newline: str = "\n"
    key_lines: tuple[tuple[str, int], ...] = ()  # frontmatter key (dotted for budget.*) -> line
    problems: tuple[Finding, ...] = ()  # what reading the file found wrong; see goalfile.lint
    # the link reference labels the body defines outside the ledger (normalised, as markdown-it
    # keys them): cells are read with all of them, as every Markdown view reads them
    link_labels: frozenset[str] = frozenset()

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


@dataclass(frozen=True, kw_only=True, repr=False)
class RowResult:
    """The verdict of one criterion in one iteration entry."""

    id: str
    verdict: Verdict
    command: str
    exit: str  # "0", "timeout", "signal 9", or "-" when nothing ran
    evidence: str  # one line
    evidence_quoted: bool = True  # True: output, shown as a code span; False: our own prose
    evidence_label: str = ""  # prose before a quoted evidence, e.g. "judge:" or "review:"
    excerpt: tuple[str, ...] = ()  # at most twenty output lines quoted under the table
    excerpt_label: str = ""
    elapsed: float | None = None
    why: tuple[str, ...] = ()  # what failed, clause by clause, with what was seen
    cut_short: bool = False  # an error: the goal's time limit ended it before it was judged

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


@dataclass(frozen=True, kw_only=True, repr=False)
class Entry:
    """An iteration entry of the ledger (``### Iteration n (date) by who``)."""

    iteration: int
    date: str
    by: str
    time: str = ""  # HH:MM or HH:MM:SS after the date, as some writers add it
    rows: tuple[RowResult, ...] = ()
    status: Status | None = None
    status_reason: str | None = None
    contract: str | None = None  # short digest of the contract the entry ran under
    notes: tuple[str, ...] = field(default=())  # free lines of the entry, for non-verify entries
    line: int = 0


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, kw_only=True, repr=False)
class Finding:
    """A problem found in a goal file, with where it is and how to fix it."""

    severity: Severity
    message: str
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    code: str = ""  # short stable name, e.g. "expected-syntax"
