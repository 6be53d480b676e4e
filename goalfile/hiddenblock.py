"""A top-level block of a goal's body as Markdown reads it, for lint's ``hidden-structure``
rule (:mod:`goalfile.hidden`). Apart from it so that reading a goal where nothing may be hidden,
as goalfile and mdformat write every goal, does not build the class."""

from __future__ import annotations

from dataclasses import dataclass


# repr=False: nothing prints one (a generated method is compiled at every start)
@dataclass(frozen=True, kw_only=True, repr=False)
class Block:
    """A top-level block of the body as Markdown reads it (1-based lines, ``last`` included)."""

    kind: str  # the markdown-it token type that opens it
    first: int
    last: int
    html_comment: bool = False
