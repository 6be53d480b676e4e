"""A criteria cell that a GitHub view shows otherwise than goalfile reads it
(:func:`goalfile.gfmview.difference`). Apart from :mod:`goalfile.gfmview` so that linting a
goal whose cells GitHub shows as goalfile reads them (every verify) does not build the class."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Difference:
    """A cell that GitHub shows otherwise than goalfile reads it."""

    read: str  # what goalfile runs (check) or judges by (expected)
    shown: str  # the text a GitHub view shows, struck text included
    struck: tuple[str, ...]  # the pieces GitHub draws struck out
    linked: tuple[str, ...] = ()  # the web addresses GitHub links and shows as typed
    math: tuple[str, ...] = ()  # the `$...$` spans GitHub draws as math
    footnotes: tuple[str, ...] = ()  # the `[^label]` references GitHub shows as a number
    emoji: tuple[str, ...] = ()  # the `:name:` shortcodes GitHub draws as emoji pictures
    blanks: bool = False  # runs of blanks a browser draws as one, which goalfile reads
    emphasis: tuple[str, ...] = ()  # stars or underscores GitHub reads as emphasis, beside a symbol
