"""Ctrl-C and SIGTERM wait while goalfile starts a process, so that what it started is known.

``subprocess.Popen`` and ``os.fork`` create the child in C code; a Ctrl-C or SIGTERM that
lands meanwhile is raised by Python as soon as that C code returns, inside ``Popen`` itself,
which then raises with the child running and its pid lost: nothing ends it. While
:func:`interrupts_wait` holds, the two signals are only noted; at its end the handlers goalfile
had are put back and each noted signal is sent again, so that its own handler acts on it then,
where the caller knows the child and ends it.

The Python-level handlers are swapped, not the signal mask: a child inherits a blocked mask
across ``exec``, and a check that cannot be sent SIGTERM could not be ended. Off the main
thread nothing is swapped: Python runs signal handlers in the main thread only, so an interrupt
never lands in another thread's ``Popen``.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

WAITING = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def interrupts_wait() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM for the block; each that came is sent again when it ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(signum: int, frame: object) -> None:
        came.append(signum)

    before: dict[signal.Signals, Any] = {}
    try:
        for waiting in WAITING:
            handler = signal.getsignal(waiting)
            if handler is None:  # installed from outside Python: it cannot be put back
                continue
            before[waiting] = handler
            signal.signal(waiting, note)
        yield
    finally:
        # `signal.signal` first runs the handler of a signal already pending: one that came
        # just before the handlers are put back is still noted here
        for waiting, handler in before.items():
            signal.signal(waiting, handler)
        for signum in dict.fromkeys(came):
            signal.raise_signal(signum)  # as if it came now: its own handler acts on it
