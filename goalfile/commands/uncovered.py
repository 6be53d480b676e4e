"""Why the newest approval does not cover the working directory a goal's checks would run in
(:func:`goalfile.commands.workdir.uncovered`). Apart from :mod:`goalfile.commands.workdir`,
which every verify loads, so that a run whose approval covers its working directory does not
build the class."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from goalfile.model import Entry


# nothing compares, hashes or prints one: no __eq__, __hash__ or __repr__ is built for it
@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class Uncovered:
    """Why the newest approval does not cover the working directory found now."""

    approval: Entry
    approved: str | None  # the working directory it recorded; None when it recorded none
    outer: Path | None  # when it recorded none: the work tree the one found is nested in
