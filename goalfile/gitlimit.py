"""How long one git command goalfile runs may take (:func:`goalfile.gitrun._git_in`, which runs
every git command of goalfile, reads it).

Outside a limit set here, a git command may take :data:`GIT_TIMEOUT` seconds. The Stop hook
sets a shorter one, from its own time budget (:func:`within`): a git that does not answer (a
FIFO at ``.git/index`` or ``.git/HEAD``, a file system that hangs) is killed after a tenth of
the hook's budget (2 s at least), and never runs past the hook's deadline, so the hook
reaches its answer, a hold that names git, well before the host's timeout; once one git
command did not answer, each after it gets 2 s. Kept apart from
:mod:`goalfile.gitrun`, which loads :mod:`subprocess`, so that a stop outside any repository
sets the limit without loading it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # built only by within (goalfile.gitdeadline)
    from goalfile.gitdeadline import Limit

GIT_TIMEOUT = 60.0
"""Seconds one git command may take before the read is given up."""


_limit: ContextVar[Limit | None] = ContextVar("goalfile_git_limit", default=None)
_hung: ContextVar[bool] = ContextVar("goalfile_git_hung", default=False)


@contextmanager
def within(*, per_command: float, until: float, after_hang: float | None = None) -> Iterator[None]:
    """Inside: each git command takes at most ``per_command`` seconds (and never more than
    :data:`GIT_TIMEOUT`), and none runs past ``until`` (a :func:`time.monotonic` value). Once
    one did not answer in its time (:func:`hung`), each git command after it takes at most
    ``after_hang`` seconds (``per_command`` when not given): a git that waits on a FIFO at
    ``.git/HEAD`` waits so in every command, and the hook's time is not spent once a
    command."""
    from goalfile.gitdeadline import Limit

    limit = Limit(
        per_command=per_command,
        until=until,
        after_hang=per_command if after_hang is None else min(after_hang, per_command),
    )
    token, hung_token = _limit.set(limit), _hung.set(False)
    try:
        yield
    finally:
        _hung.reset(hung_token)
        _limit.reset(token)


def hung() -> None:
    """Note that a git command did not answer within its time (see :func:`within`)."""
    if _limit.get() is not None:
        _hung.set(True)


def seconds() -> float:
    """The seconds the next git command may take; 0 or less when no time is left."""
    limit = _limit.get()
    if limit is None:
        return GIT_TIMEOUT
    each = limit.after_hang if _hung.get() else limit.per_command
    return min(GIT_TIMEOUT, each, limit.until - time.monotonic())
