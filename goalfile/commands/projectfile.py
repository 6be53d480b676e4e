"""A project's file (tox.ini, noxfile.py, package.json, a makefile) read whole, as text for the
notes of :mod:`goalfile.commands.operands`, or not at all.

Only a regular file is read, and only up to 1 MiB: a FIFO at the name (opened without waiting,
never read) would wait for a writer forever, and `goalfile new` with it.
"""

from __future__ import annotations

from pathlib import Path

from goalfile.errors import GoalfileError
from goalfile.files import read_regular

LIMIT = 1 << 20


def read_whole(path: Path) -> bytes | None:
    """The bytes of the regular file ``path`` (:func:`goalfile.files.read_regular`, which
    refuses a FIFO or device without waiting on it); None when it is none, cannot be read, or
    is longer than :data:`LIMIT`."""
    try:
        data = read_regular(path, what="project file", limit=LIMIT + 1)
    except (OSError, ValueError, GoalfileError):
        return None
    return None if len(data) > LIMIT else data
