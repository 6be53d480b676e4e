"""Clauses merged by an escape: an ``expected`` text that reads as more clauses than it holds.

``stdout lacks "failed\\"; stdout lacks \\"error"`` looks like two ``lacks`` clauses, and is
one: ``\\"`` is a quote inside the TEXT, so its TEXT is ``failed"; stdout lacks "error``, a
string no run prints, and the clause can never fail. The same goes for ``\\/`` in a
``/REGEX/``. A reviewer approves the clauses they see; goalfile judges the one it parsed.

:func:`merged` finds, in a parsed :class:`~goalfile.expect.Expectation`, every quoted TEXT that
holds a ``"`` (and every REGEX that holds a ``/``) followed by a clause separator (``;``, ``,``
or ``and``) and a word that starts a clause. Pure: text in, findings out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from goalfile.expect import Expectation

__all__ = ["Merged", "escaped_at", "merged", "split_reading"]

_STARTS = r"(?:exit|exits|stdout|stderr|output|prints|empty)\b"
_SEP = r"\s*(?:[;,]|and(?=\s))\s*"
_AFTER_QUOTE = re.compile(r'"' + _SEP + _STARTS, re.IGNORECASE)
_AFTER_SLASH = re.compile(r"/" + _SEP + _STARTS, re.IGNORECASE)
_ESCAPED = re.compile(r'\\["/]' + _SEP + _STARTS, re.IGNORECASE)


@dataclass(frozen=True, kw_only=True)
class Merged:
    """One clause whose TEXT or REGEX holds what reads as a clause boundary."""

    clause: str  # the clause as goalfile formats it
    inner: str  # its TEXT or REGEX
    boundary: str  # the part of ``inner`` that reads as the end of a clause and a new one


def merged(expectation: Expectation) -> list[Merged]:
    """Every clause of ``expectation`` whose TEXT or REGEX reads as a clause boundary."""
    from goalfile.expect import format_clause
    from goalfile.expecttext import MatchClause, PrintsClause, TextClause

    found: list[Merged] = []
    for clause in expectation.clauses:
        if isinstance(clause, TextClause | PrintsClause):
            inner, scan = clause.text, _AFTER_QUOTE
        elif isinstance(clause, MatchClause):
            inner, scan = clause.pattern, _AFTER_SLASH
        else:
            continue
        hit = scan.search(inner)
        if hit is not None:
            found.append(Merged(clause=format_clause(clause), inner=inner, boundary=hit.group()))
    return found


def split_reading(expected: str) -> str | None:
    """The ``expected`` text as it reads (``\\"`` and ``\\/`` taken as the end of a TEXT or a
    REGEX), when that parses into more clauses and nothing in it is merged; else None."""
    from goalfile.errors import GoalfileError
    from goalfile.expect import parse_expected

    try:
        before = len(parse_expected(expected).clauses)
        candidate = expected.replace('\\"', '"').replace("\\/", "/")
        after = parse_expected(candidate)
    except GoalfileError:
        return None
    if len(after.clauses) <= before or merged(after):
        return None
    return candidate


def escaped_at(expected: str) -> int | None:
    """The 1-based column in ``expected`` of the first escaped quote or slash that is followed
    by a separator and a clause word, or None."""
    hit = _ESCAPED.search(expected)
    return hit.start() + 1 if hit else None
