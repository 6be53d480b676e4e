"""Pieces of the Markdown in goalfile's own messages (findings, hints, hold reasons): no
table cell, so nothing is escaped or cleaned (a ledger cell is :func:`goalfile.ledger.code_span`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_BACKTICKS = re.compile("`+")


def inline_code(text: str) -> str:
    """``text`` as one Markdown code span that shows it exactly, written as mdformat writes
    one: a fence one backtick longer than the longest run of backticks in it, and a space
    inside each end when the text holds a backtick or starts and ends with a space (CommonMark
    strips one there). An empty text is a span of one space, the nearest Markdown has."""
    if not text:
        return "` `"
    longest = max(map(len, _BACKTICKS.findall(text)), default=0)
    if longest:
        fence = "`" * (longest + 1)
        return f"{fence} {text} {fence}"
    if text.startswith(" ") and text.endswith(" ") and text.strip(" "):  # U+0020 only
        return f"` {text} `"
    return f"`{text}`"


def path_code(path: str, *, in_table: bool = False) -> str:
    """A file name as one Markdown code span on one line, for a report (``audit --format
    markdown``, ``log --format markdown``): each control, format or line-separator character
    (a line break, a tab, an escape, a bidirectional override) written as an escape (``\\n``,
    ``\\t``, ``\\x1b``, ``\\u202e``), so a name holding ``<!--`` on a line of its own cannot
    start an HTML block that hides what follows; with ``in_table``, each ``|`` written ``\\|``,
    which a table cell needs inside a code span too."""
    if not (path.isascii() and path.isprintable()):
        path = "".join(_escaped(char) for char in path)
    if in_table:
        path = path.replace("|", "\\|")
    return inline_code(path)


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(char: str) -> str:
    import unicodedata

    if unicodedata.category(char) not in ("Cc", "Cf", "Zl", "Zp"):
        return char
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def listed(items: Sequence[str]) -> str:
    """The first three of ``items``, and how many more: ``a, b, c and 2 more``."""
    shown = ", ".join(items[:3])
    return shown + (f" and {len(items) - 3} more" if len(items) > 3 else "")
