"""How much a ``matches`` pattern can backtrack: read from the pattern alone, never by running it.

Python's ``re`` is a backtracking engine. A pattern that can match the same text in many ways
makes a failing search try them all: ``/^(a+)+$/`` on 40 ``a`` and a ``b`` tries about 2^40
splits of the ``a`` run, and no Python code of the thread that searches runs meanwhile (``re``
lets a signal handler of the main thread run every few thousand steps, nothing else).
:func:`analyse` tells, from the pattern as ``re``'s own parser reads it:

* ``exponential``: inside a repeat that may take its body more than once, bounded or not
  (``*``, ``+``, ``{n,m}`` with m > 1), a choice whose ways can start with the same character:
  a repeat that can stop or go on (``(a+)+``, ``(\\d+,?)+``, ``(.*x)*``, ``(?:a{1,16}){1,16}``),
  or alternatives (``(a|aa)+``, ``(\\w|\\d)+``). The work can double with each character of a
  line;
* ``ambiguous``: how many repeats without a bound, outside those, can stop or go on where the
  next character could be taken either way (``.*.*x`` has two): k of them make a failing search
  cost about n^(k+1) steps on a line of n characters (``/.*.*.*x/`` takes 13 s on 500
  characters). Bounded choices of that kind outside any repeat multiply their ways, and every
  factor of ``BIG + 1`` counts as one more (``.{0,16}.{0,16}x`` counts two);
* ``repeats``: how many repeats without a bound the pattern has at all, with those counts of
  bounded ways (even ``/a*b/`` costs n^2 steps on a line of n ``a``: 7 s on one of 64 KiB).

Possessive repeats (``a++``) and atomic groups (``(?>...)``) never backtrack into what they
matched, so they count as neither. The reading is a close approximation, not a proof: the
characters a part can start with are taken over a sample alphabet (printable ASCII, tab,
carriage return, a few letters and blanks beyond ASCII, every literal of the pattern and the
ends of its ranges), and a back-reference may start with any character. So verify does not
rely on it alone: a search it does not send to another process runs under a timer (see
``goalfile.expecttext``).
"""

from __future__ import annotations

import functools
import math
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["BIG", "MAY_BACKTRACK", "Backtracking", "analyse"]

BIG = 16
"""A repeat allowed more than this many times counts as one without a bound."""

_SAMPLE = frozenset(map(chr, range(32, 127))) | frozenset("\t\r\u00e9\u0436\u4e2d\u00a0\u2003")
# what re's classes hold in a str pattern (Unicode): \d the decimal digits, \s the blanks
# str.isspace() knows, \w what str.isalnum() accepts and `_`
_CLASSES: dict[str, Callable[[str], bool]] = {
    "CATEGORY_DIGIT": str.isdecimal,
    "CATEGORY_NOT_DIGIT": lambda ch: not ch.isdecimal(),
    "CATEGORY_SPACE": str.isspace,
    "CATEGORY_NOT_SPACE": lambda ch: not ch.isspace(),
    "CATEGORY_WORD": lambda ch: ch.isalnum() or ch == "_",
    "CATEGORY_NOT_WORD": lambda ch: not (ch.isalnum() or ch == "_"),
    "CATEGORY_LINEBREAK": lambda ch: ch == "\n",
    "CATEGORY_NOT_LINEBREAK": lambda ch: ch != "\n",
}


@dataclass(frozen=True, kw_only=True)
class Backtracking:
    """What :func:`analyse` found in one pattern."""

    exponential: bool
    ambiguous: int
    repeats: int


@functools.lru_cache(maxsize=256)
def analyse(pattern: str, flags: int = 0) -> Backtracking | None:
    """How ``pattern`` can backtrack; None when ``re``'s parser is not available or the
    pattern does not parse (it is then refused elsewhere)."""
    try:
        from re import _constants, _parser  # type: ignore[attr-defined]

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = _parser.parse(pattern, flags)
        reader = _Reader(_constants, parsed.state.flags | flags, parsed.data)
        reader.walk(parsed.data, frozenset(), starred=False)
    except (ImportError, AttributeError, TypeError, ValueError, re.error, RecursionError):
        return None
    # bounded choices one after another multiply too: every BIG + 1 ways count as one more
    # repeat without a bound (.{0,16}.{0,16}x is about as slow as .*.*x on a short line)
    bounded = int(math.log(reader._ways, BIG + 1) + 1e-9)
    return Backtracking(
        exponential=reader.exponential,
        ambiguous=reader.ambiguous + bounded,
        repeats=reader.repeats + bounded,
    )


MAY_BACKTRACK = r"[*+?{|]"
"""What every repeat and every alternative of a pattern is written with: a pattern without
any of these characters tries each start of a line one way only (its work is at most its
length times the line's), so it is never analysed nor timed."""


class _Reader:
    """One walk over a parsed pattern (``re._parser``'s items: ``(opcode, argument)``)."""

    def __init__(self, constants: Any, flags: int, data: Sequence[Any]) -> None:
        self.c = constants
        self.ignorecase = bool(flags & re.IGNORECASE)
        literals: set[str] = set()
        self._collect(data, literals)
        self.alphabet = _SAMPLE | frozenset(literals)
        self._firsts: dict[tuple[Any, int], frozenset[str]] = {}
        self.exponential = False
        self.ambiguous = 0
        self.repeats = 0
        self._ways = 1  # the product of the ways of bounded choices outside any repeat

    # ---------------------------------------------------------------- the parse tree

    def _children(self, op: Any, av: Any) -> list[Sequence[Any]]:
        c = self.c
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            return [av[2]]
        if op is c.SUBPATTERN:
            return [av[3]]
        if op is c.ATOMIC_GROUP:
            return [av]
        if op is c.BRANCH:
            return list(av[1])
        if op in (c.ASSERT, c.ASSERT_NOT):
            return [av[1]]
        if op is c.GROUPREF_EXISTS:
            return [part for part in av[1:] if part is not None]
        return []

    def _collect(self, seq: Sequence[Any], out: set[str]) -> None:
        for op, av in seq:
            if op in (self.c.LITERAL, self.c.NOT_LITERAL):
                out.add(chr(av))
            elif op is self.c.IN:
                out.update(chr(a) for o, a in av if o is self.c.LITERAL)
                # a range's ends: two ranges that overlap hold one of them in common
                out.update(chr(a) for o, r in av if o is self.c.RANGE for a in r)
            for child in self._children(op, av):
                self._collect(child, out)

    # ---------------------------------------------------------------- width and first characters

    def nullable(self, seq: Sequence[Any]) -> bool:
        return all(self._nullable_item(op, av) for op, av in seq)

    def _nullable_item(self, op: Any, av: Any) -> bool:
        c = self.c
        if op in (c.LITERAL, c.NOT_LITERAL, c.ANY, c.IN):
            return False
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            return bool(av[0] == 0 or self.nullable(av[2]))
        if op is c.BRANCH:
            return any(self.nullable(alt) for alt in av[1])
        if op in (c.SUBPATTERN, c.ATOMIC_GROUP):
            return self.nullable(self._children(op, av)[0])
        return True  # anchors, look-arounds, back-references (they may be empty)

    def first(self, seq: Sequence[Any], follow: frozenset[str]) -> frozenset[str]:
        """The characters a match of ``seq``, then ``follow``, can start with."""
        found: frozenset[str] = frozenset()
        for op, av in seq:
            found |= self._first_item(op, av)
            if not self._nullable_item(op, av):
                return found
        return found | follow

    def _first_item(self, op: Any, av: Any) -> frozenset[str]:
        key = (op, id(av))  # the parsed items live as long as the reader: their ids stay theirs
        found = self._firsts.get(key)
        if found is None:
            found = self._firsts[key] = self._first_of(op, av)
        return found

    def _first_of(self, op: Any, av: Any) -> frozenset[str]:
        c = self.c
        if op is c.LITERAL:
            return self._cased(chr(av))
        if op is c.NOT_LITERAL:
            return self.alphabet - self._cased(chr(av))
        if op is c.ANY:
            return self.alphabet - {"\n"}
        if op is c.IN:
            return self._in(av)
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            return self.first(av[2], frozenset()) if av[1] > 0 else frozenset()  # x{0}
        if op is c.BRANCH:
            return frozenset().union(*(self.first(alt, frozenset()) for alt in av[1]))
        if op in (c.SUBPATTERN, c.ATOMIC_GROUP):
            return self.first(self._children(op, av)[0], frozenset())
        if op in (c.GROUPREF, c.GROUPREF_EXISTS):
            return self.alphabet
        return frozenset()  # anchors and look-arounds take no character

    def _cased(self, ch: str) -> frozenset[str]:
        return frozenset({ch, ch.lower(), ch.upper()}) if self.ignorecase else frozenset(ch)

    def _in(self, items: Sequence[Any]) -> frozenset[str]:
        """The characters of the alphabet a class ``[...]`` holds."""
        c = self.c
        negate = False
        hit: set[str] = set()
        for op, av in items:
            if op is c.NEGATE:
                negate = True
            elif op is c.LITERAL:
                hit |= self._cased(chr(av))
            elif op in (c.RANGE, getattr(c, "RANGE_UNI_IGNORE", c.RANGE)):
                low, high = av
                hit.update(
                    ch
                    for ch in self.alphabet
                    if any(low <= ord(x) <= high for x in self._cased(ch))
                )
            elif op is c.CATEGORY and str(av) in _CLASSES:
                test = _CLASSES[str(av)]
                hit.update(ch for ch in self.alphabet if test(ch))
            else:
                return self.alphabet  # something this reading does not know: any character
        return self.alphabet - hit if negate else frozenset(hit)

    # ---------------------------------------------------------------- the walk

    def walk(self, seq: Sequence[Any], follow: frozenset[str], *, starred: bool) -> None:
        """Look at every choice in ``seq`` (followed by ``follow``); ``starred``: inside a
        repeat without a bound, where a choice's ways multiply with each turn."""
        c = self.c
        for index, (op, av) in enumerate(seq):
            after = self.first(seq[index + 1 :], follow)
            if op in (c.MAX_REPEAT, c.MIN_REPEAT):
                low, high, body = av
                unbounded = high == c.MAXREPEAT or high > BIG
                if unbounded:
                    self.repeats += 1
                if low < high and self.first(body, frozenset()) & after:
                    # once more, or go on: both can take the next character
                    if starred:
                        self.exponential = True
                    elif unbounded:
                        self.ambiguous += 1
                    else:
                        self._ways *= high - low + 1
                inner = self.first(body, after) | after if high > 1 else after
                # a body taken more than once multiplies the ways of every choice inside it,
                # bounded or not: (?:a{1,16}){1,16} splits a run of a in about 2^n ways
                self.walk(body, inner, starred=starred or high > 1)
            elif op is c.BRANCH:
                ways = [self.first(alt, after) for alt in av[1]]
                if any(
                    ways[i] & ways[j] for i in range(len(ways)) for j in range(i + 1, len(ways))
                ):
                    if starred:
                        self.exponential = True
                    else:
                        self._ways *= len(ways)
                for alt in av[1]:
                    self.walk(alt, after, starred=starred)
            elif op is c.SUBPATTERN:
                self.walk(av[3], after, starred=starred)
            elif op in (c.ASSERT, c.ASSERT_NOT):
                self.walk(av[1], frozenset(), starred=starred)
            elif op is c.GROUPREF_EXISTS:
                for part in av[1:]:
                    if part is not None:
                        self.walk(part, after, starred=starred)
            elif op in (c.POSSESSIVE_REPEAT, c.ATOMIC_GROUP):
                continue  # never backtracked into
