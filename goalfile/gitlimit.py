"""How long one git command goalfile runs may take (:func:`goalfile.run.git_toplevel` and the
other git helpers there read it).

Outside a limit set here, a git command may take :data:`GIT_TIMEOUT` seconds. The Stop hook
sets a shorter one, from its own time budget (:func:`within`): a git that does not answer (a
FIFO at ``.git/index`` or ``.git/HEAD``, a file system that hangs) is killed after a tenth of
the hook's budget (2 s at least), and never runs past the hook's deadline, so the hook
reaches its answer, a hold that names git, well before the host's timeout. Kept apart from
:mod:`goalfile.run`, which loads :mod:`subprocess`, so that a stop outside any repository
sets the limit without loading it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

GIT_TIMEOUT = 60.0
"""Seconds one git command may take before the read is given up."""


@dataclass(frozen=True, kw_only=True)
class Limit:
    per_command: float  # seconds one git command may take
    until: float  # time.monotonic() by which every git command has ended


_limit: ContextVar[Limit | None] = ContextVar("goalfile_git_limit", default=None)


@contextmanager
def within(*, per_command: float, until: float) -> Iterator[None]:
    """Inside: each git command takes at most ``per_command`` seconds (and never more than
    :data:`GIT_TIMEOUT`), and none runs past ``until`` (a :func:`time.monotonic` value)."""
    token = _limit.set(Limit(per_command=per_command, until=until))
    try:
        yield
    finally:
        _limit.reset(token)


def seconds() -> float:
    """The seconds the next git command may take; 0 or less when no time is left."""
    limit = _limit.get()
    if limit is None:
        return GIT_TIMEOUT
    return min(GIT_TIMEOUT, limit.per_command, limit.until - time.monotonic())
