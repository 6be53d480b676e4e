"""What a command needs from the outside world, passed in rather than read deep inside."""

from __future__ import annotations

import datetime as _dt
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from goalfile.value import Value


class Context(Value):
    """What a command takes from its process: the date, the environment, the working folder,
    a clock and where progress messages go."""

    __slots__ = ("clock", "cwd", "env", "notify", "today")

    def __init__(
        self,
        *,
        today: str,
        env: Mapping[str, str],
        cwd: Path,
        clock: Callable[[], float] = time.monotonic,
        notify: Callable[[str], None] = lambda message: None,
    ) -> None:
        self.today: Final = today  # YYYY-MM-DD, the date written into entries
        self.env: Final = env
        self.cwd: Final = cwd
        self.clock: Final = clock
        self.notify: Final = notify  # progress messages

    @classmethod
    def from_process(
        cls, *, notify: Callable[[str], None] | None = None, fallback: Path | None = None
    ) -> Context:
        """The process's context; its working folder is ``fallback`` when the process's own is
        gone (removed while it ran: ``Path.cwd()`` raises), and without one that error is
        raised."""
        try:
            cwd = Path.cwd()
        except OSError:
            if fallback is None:
                raise
            cwd = fallback
        return cls(
            today=_dt.date.today().isoformat(),
            env=dict(os.environ),
            cwd=cwd,
            notify=notify or (lambda message: None),
        )
