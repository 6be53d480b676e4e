"""The limit :func:`goalfile.gitlimit.within` sets on the git commands goalfile runs. Apart
from :mod:`goalfile.gitlimit`, which every run that reads a repository loads, so that only the
Stop hook, which sets a limit, builds the class."""

from __future__ import annotations

from dataclasses import dataclass


# nothing compares, hashes or prints one: no __eq__, __hash__ or __repr__ is built for it
@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class Limit:
    per_command: float  # seconds one git command may take
    until: float  # time.monotonic() by which every git command has ended
    after_hang: float  # seconds each git command may take once one did not answer
