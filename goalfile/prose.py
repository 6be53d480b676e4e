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
    strips one there) and is not blanks alone. An empty text is a span of one space, the
    nearest Markdown has. A text of blanks alone is written as :func:`code_text` keeps it."""
    if not text:
        return "` `"
    longest = max(map(len, _BACKTICKS.findall(text)), default=0)
    if longest:
        fence = "`" * (longest + 1)
        return f"{fence} {text} {fence}"
    text = code_text(text)
    if text.startswith(" ") and text.endswith(" ") and text.strip():  # mdformat's own test
        return f"` {text} `"
    return f"`{text}`"


def code_text(text: str) -> str:
    """The text a code span of ``text`` keeps through mdformat, one rule for every blank.

    CommonMark takes one space (U+0020 alone) off each end of a span's text that starts and
    ends with one and is not spaces alone; mdformat writes the space inside each end back
    only when the text is not blanks alone by Python's ``str.strip`` (U+0020, a tab, U+00A0,
    U+1680, U+2000 to U+200A, U+202F, U+205F, U+3000, ...). So a text of such blanks with a
    space at both ends, but not spaces alone (U+0020 U+3000 U+0020), has no form mdformat keeps:
    each run takes one more space off each end. It is kept as mdformat leaves it at last,
    without the spaces both of its ends have; any other text is kept as it is."""
    if text[:1] == " " and text[-1:] == " " and not text.strip() and text.strip(" "):
        cut = min(len(text) - len(text.lstrip(" ")), len(text) - len(text.rstrip(" ")))
        return text[cut : len(text) - cut]
    return text


def span_text(inner: str) -> str:
    """What a code span shows of ``inner``, the text between its backticks, as goalfile reads
    it: one space off each end when both have one and it is not spaces alone (CommonMark's
    rule), then as :func:`code_text` keeps it, so a span mdformat rewrote reads the same."""
    if inner.startswith(" ") and inner.endswith(" ") and inner.strip(" "):
        inner = inner[1:-1]
    return code_text(inner)


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
