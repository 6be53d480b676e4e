"""Text in a ``matches`` pattern that asks for nothing: what a reader reads as part of the
pattern and ``re`` does not match.

``/^\\d+ passed(?#, 0 failed)/`` reads as "N passed, 0 failed" and matches ``3 passed, 2
failed``: ``(?#...)`` is a comment. So are a ``#`` and the rest of the pattern under the verbose
flag (``/(?x)^\\d+\\ passed #, 0 failed$/``), whose blanks match nothing either, and a part
repeated zero times (``/passed(, 0 failed){0}/``). :func:`inert_part` names the first such
part, or returns None; the expected language refuses the pattern (see
docs/format.md#patterns-that-read-as-more-than-they-ask)."""

from __future__ import annotations

import re
import warnings
from typing import Any

__all__ = ["inert_part"]


def inert_part(pattern: str) -> str | None:
    """What in ``pattern`` (as ``re`` gets it) asks for nothing, in words, or None."""
    comment = _comment(pattern)
    if comment is not None:
        return f"the comment {comment}"
    try:
        from re import _parser  # type: ignore[attr-defined]

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = _parser.parse(pattern)
    except (ImportError, AttributeError, re.error, RecursionError, OverflowError):
        return None
    if parsed.state.flags & re.VERBOSE:
        return _VERBOSE
    return _walk(parsed, _parser)


def _comment(pattern: str) -> str | None:
    """The first ``(?#...)`` outside a character class, as written."""
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            # a `]` right after `[` or `[^` is a literal member, not the end of the class
            i += 2 if pattern[i + 1 : i + 2] == "^" else 1
            if pattern[i : i + 1] == "]":
                i += 1
            continue
        elif pattern.startswith("(?#", i):
            end = pattern.find(")", i)
            return pattern[i : (len(pattern) if end < 0 else end + 1)]
        i += 1
    return None


_VERBOSE = "the verbose flag (?x), under which blanks match nothing and # starts a comment"


def _walk(node: object, parser: Any) -> str | None:
    """The first part of a parsed pattern that is repeated zero times or set verbose."""
    if isinstance(node, parser.SubPattern):
        for op, av in node.data:
            name = str(op)
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and av[1] == 0:
                return "a part repeated {0} times"
            if name == "SUBPATTERN" and av[1] & re.VERBOSE:
                return _VERBOSE
            found = _walk(av, parser)
            if found is not None:
                return found
        return None
    if isinstance(node, (tuple, list)):
        for item in node:
            found = _walk(item, parser)
            if found is not None:
                return found
    return None
