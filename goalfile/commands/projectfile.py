"""A project's file (tox.ini, noxfile.py, package.json, a makefile) read whole, as text for the
notes of :mod:`goalfile.commands.operands`, or not at all.

Only a regular file is read, and only up to 1 MiB: a FIFO at the name (opened without waiting,
never read) would wait for a writer forever, and `goalfile new` with it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

LIMIT = 1 << 20


def read_whole(path: Path) -> bytes | None:
    """The bytes of the regular file ``path``; None when it is none, cannot be read, or is
    longer than :data:`LIMIT`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(LIMIT + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return None if len(data) > LIMIT else data
