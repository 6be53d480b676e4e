"""Pieces of the Markdown in goalfile's own messages (findings, hints, hold reasons): no
table cell, so nothing is escaped or cleaned (a ledger cell is :func:`goalfile.ledger.code_span`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_BACKTICKS = re.compile("`+")


def inline_code(text: str) -> str:
    """``text`` as one Markdown code span: a fence longer than any run of backticks in it,
    with a space inside each end when it starts or ends with a backtick."""
    fence = "`" * (max(map(len, _BACKTICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def listed(items: Sequence[str]) -> str:
    """The first three of ``items``, and how many more: ``a, b, c and 2 more``."""
    shown = ", ".join(items[:3])
    return shown + (f" and {len(items) - 3} more" if len(items) > 3 else "")
