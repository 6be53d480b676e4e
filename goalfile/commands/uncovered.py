"""Why the newest approval does not cover the working directory a goal's checks would run in
(:func:`goalfile.commands.workdir.uncovered`). Apart from :mod:`goalfile.commands.workdir`,
which every verify loads, so that a run whose approval covers its working directory does not
build the class."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from goalfile.model import Entry
from goalfile.value import Value


# nothing compares, hashes or prints one: no __eq__, __hash__ or __repr__ is built for it
# written out on goalfile.value: a dataclass compiled its methods at every start of `activate`
class Uncovered(Value):
    """Why the newest approval does not cover the working directory found now."""

    __slots__ = ("approval", "approved", "outer")

    def __init__(self, *, approval: Entry, approved: str | None, outer: Path | None) -> None:
        self.approval: Final = approval
        # the working directory it recorded; None when it recorded none
        self.approved: Final = approved
        # when it recorded none: the work tree the one found is nested in
        self.outer: Final = outer
