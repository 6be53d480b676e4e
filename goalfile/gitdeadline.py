"""The limit :func:`goalfile.gitlimit.within` sets on the git commands goalfile runs. Apart
from :mod:`goalfile.gitlimit`, which every run that reads a repository loads, so that only the
Stop hook, which sets a limit, builds the class."""

from __future__ import annotations

from typing import Final

from goalfile.value import Value


class Limit(Value):
    __slots__ = ("after_hang", "per_command", "until")

    def __init__(self, *, per_command: float, until: float, after_hang: float) -> None:
        self.per_command: Final = per_command  # seconds one git command may take
        self.until: Final = until  # time.monotonic() by which every git command has ended
        # seconds each git command may take once one did not answer
        self.after_hang: Final = after_hang
