"""A lint warning for a unittest check judged on stdout (`unittest-stdout`).

`python -m unittest` (also under `coverage run -m unittest`) writes its report on stderr: the
dots, `Ran 42 tests`, `OK`, `FAILED (errors=1)`. A row written `exit 0; stdout contains "OK"`,
the first thing a person writes for such a project, is never met, whatever the work does, and
`stdout lacks "FAILED"` always holds. Only the check's own words are read: a check that sends
stderr to stdout (`2>&1`, `|&`) is not named.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from goalfile.expect import Expectation, Stream, format_clause
from goalfile.model import Criterion, Finding, Severity

_UNITTEST = re.compile(r"(?:^|\s)-m\s+unittest(?:\s|$)")
_MERGED = ("2>&1", "|&", "&>")


def findings(row: Criterion, label: str, expectation: Expectation) -> Iterable[Finding]:
    """The warning for each clause of ``expectation`` that reads the stdout of the unittest
    check of ``row``: one that can never be met, or one that always holds."""
    if not _UNITTEST.search(row.check) or any(merged in row.check for merged in _MERGED):
        return
    from goalfile.expecttext import EmptyClause, MatchClause, PrintsClause, TextClause

    for clause in expectation.clauses:
        holds = None
        stdout = getattr(clause, "stream", Stream.STDOUT) is Stream.STDOUT  # prints: stdout
        if isinstance(clause, TextClause) and stdout:
            holds = clause.negate
        elif isinstance(clause, (MatchClause, PrintsClause)) and stdout:
            holds = False
        elif isinstance(clause, EmptyClause) and stdout:
            holds = True
        if holds is None:
            continue
        said = format_clause(clause)
        yield Finding(
            severity=Severity.WARNING,
            line=row.line,
            code="unittest-stdout",
            message=f"{label}: unittest writes its report (`Ran N tests`, `OK`, `FAILED`) on "
            f"stderr, so `{said}` "
            + ("always holds, whatever the tests do" if holds else "is never met by its report")
            + ": judge the stream unittest writes, `stderr ...`, or `output ...` for both "
            '(`exit 0; stderr contains "OK"`)',
        )
