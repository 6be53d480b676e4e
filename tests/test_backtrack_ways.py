"""The reading of goalfile.backtrack against a signal that needs no clock: the number of ways
a part of a pattern can match a stretch of text, counted exactly.

A backtracking search that fails tries every way each part of the pattern can match before it
gives up, so that number is a lower bound of its work, whatever the machine. It is counted here
by dynamic programming over a small pattern language (literals, `.`, a class, groups,
alternatives, greedy repeats with and without a bound), on the string that lets every part take
the most: a run of `a`. The property: a pattern the reading does not call exponential has at
most (n+1)^R * 2^A ways on a run of n, with R repeats and A alternatives in it (polynomial in n);
an exponential one is allowed anything.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile.backtrack import analyse

N = 20


@dataclass(frozen=True)
class Node:
    kind: str  # lit, any, cls, cat, alt, rep
    text: str = ""
    parts: tuple[Node, ...] = ()
    low: int = 0
    high: int | None = None  # None: no bound

    def regex(self) -> str:
        if self.kind in ("lit", "any", "cls"):
            return self.text
        if self.kind == "cat":
            return "".join(part.regex() for part in self.parts)
        if self.kind == "alt":
            return "(?:" + "|".join(part.regex() for part in self.parts) + ")"
        body = "(?:" + self.parts[0].regex() + ")"
        if self.high is None:
            return body + ("*" if self.low == 0 else "+" if self.low == 1 else f"{{{self.low},}}")
        return body + f"{{{self.low},{self.high}}}"

    def count(self, kind: str) -> int:
        return (self.kind == kind) + sum(part.count(kind) for part in self.parts)


def _nullable(node: Node) -> bool:
    if node.kind in ("lit", "any", "cls"):
        return False
    if node.kind == "cat":
        return all(map(_nullable, node.parts))
    if node.kind == "alt":
        return any(map(_nullable, node.parts))
    return node.low == 0 or _nullable(node.parts[0])


LEAVES = st.sampled_from(
    [Node("lit", "a"), Node("lit", "b"), Node("any", "."), Node("cls", "[ab]")]
)
BOUNDS = st.sampled_from([(0, None), (1, None), (0, 1), (1, 3), (1, 16), (0, 16), (2, 2)])


def _extend(inner: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    pair = st.tuples(inner, inner).map(lambda p: Node("cat", parts=p))
    return st.one_of(
        pair,
        # two alternatives of two parts each, starting unlike: `re` takes a first part common
        # to all out of the alternatives and merges one-character ways into a class
        st.tuples(pair, pair)
        .filter(lambda p: p[0].parts[0] != p[1].parts[0])
        .map(lambda p: Node("alt", parts=p)),
        st.tuples(inner, BOUNDS)
        .filter(lambda p: not _nullable(p[0]))  # `re` ends a repeat at an empty turn
        .map(lambda p: Node("rep", parts=(p[0],), low=p[1][0], high=p[1][1])),
    )


PATTERNS = st.recursive(LEAVES, _extend, max_leaves=6)


def most_ways(node: Node, text: str) -> int:
    """The largest number of ways any part of ``node`` matches any stretch of ``text``."""
    most = 1

    @functools.cache
    def ways(item: Node, start: int) -> dict[int, int]:
        """end -> the number of ways ``item`` matches text[start:end]."""
        nonlocal most
        found: dict[int, int] = {}
        if item.kind in ("lit", "any", "cls"):
            if start < len(text) and (item.kind == "any" or text[start] in item.text):
                found = {start + 1: 1}
        elif item.kind == "cat":
            found = {start: 1}
            for part in item.parts:
                found = _then(found, part)
        elif item.kind == "alt":
            for part in item.parts:
                for end, n in ways(part, start).items():
                    found[end] = found.get(end, 0) + n
        else:
            body = item.parts[0]
            turn = {start: 1}
            high = item.high if item.high is not None else len(text) + 1
            for taken in range(high + 1):
                if taken >= item.low:
                    for end, n in turn.items():
                        found[end] = found.get(end, 0) + n
                if taken == high or not turn:
                    break
                turn = _then(turn, body)
        if found:
            most = max(most, *found.values())
        return found

    def _then(before: dict[int, int], part: Node) -> dict[int, int]:
        after: dict[int, int] = {}
        for mid, n in before.items():
            for end, m in ways(part, mid).items():
                after[end] = after.get(end, 0) + n * m
        return after

    for start in range(len(text) + 1):
        ways(node, start)
    return most


def test_the_counter_sees_what_it_should() -> None:
    nested = Node("rep", parts=(Node("rep", parts=(Node("lit", "a"),), low=1),), low=1)
    assert nested.regex() == "(?:(?:a)+)+"
    assert most_ways(nested, "a" * 10) == 2**9  # the splits of a run of ten
    plain = Node("rep", parts=(Node("lit", "a"),), low=0)
    assert most_ways(plain, "a" * 10) == 1


@settings(max_examples=300, deadline=None)
@given(PATTERNS)
def test_a_pattern_not_called_exponential_has_polynomially_many_ways(node: Node) -> None:
    pattern = node.regex()
    found = analyse(pattern)
    assert found is not None, pattern
    if found.exponential:
        return
    bound = (N + 1) ** node.count("rep") * 2 ** node.count("alt")
    assert most_ways(node, "a" * N) <= bound, (pattern, found)
