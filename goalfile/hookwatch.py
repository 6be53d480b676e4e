"""The Stop hook's own time limit: `goalfile hook stop` answers within its ``--timeout``
whatever blocks it, and an answer it did not reach holds the agent.

A host kills a hook that outlives its timeout, and Claude Code, Codex and goalfile's pi
extension then let the agent stop (a hook that failed is not a "block"), discarding what it
printed. So a hook that never answers in time (something it reads or runs does not return)
would be a way out. :func:`start` runs a watchdog thread that, at :func:`limit_for` seconds
from when the host started the process (a little below the host's timeout), prints
the host's block answer, naming why and where the hook was, and ends the process; SIGTERM and
SIGINT (a host's kill, Ctrl-C) do the same at once. The signals reach the watchdog through
:func:`signal.set_wakeup_fd`, written by the interpreter's C-level handler, so the answer
comes even while the main thread is stuck in a system call. Whichever answer is printed first
is the only one: the command's own (:meth:`Watch.answering`) or the watchdog's.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Iterator

from goalfile.errors import NOTED_SIGNALS
from goalfile.hostprotocol import HostAgent, block_answer

SIGNALS = (signal.SIGTERM, signal.SIGINT)
PACKAGE = os.path.dirname(os.path.realpath(__file__))


def limit_for(timeout: float) -> float:
    """Seconds after its start at which the hook answers on its own: the host's ``timeout``
    less a tenth of it, at most 15 s (585 s of the 600 `init` registers). verify's own time
    limit ends before (see :mod:`goalfile.commands.hook`), so only a hook that is stuck
    reaches it."""
    return max(timeout - min(15.0, timeout / 10), 0.5)


class Watch:
    """One hook run's watchdog; :func:`start` makes it."""

    def __init__(self, *, timeout: float, agent: HostAgent, as_json: bool) -> None:
        self.timeout = timeout
        self.limit = limit_for(timeout)
        self.agent = agent  # the host, once the input names it (:meth:`host`)
        self.as_json = as_json
        # the host's clock started when it started this process, before Python loaded goalfile
        self._deadline = time.monotonic() + self.limit - running_for()
        self._lock = threading.RLock()  # RLock: a signal may come while the main thread prints
        self._answered = False
        self._wake_read, wake_write = os.pipe()
        os.set_blocking(wake_write, False)
        os.set_blocking(self._wake_read, False)
        self._wake_write = wake_write
        self._thread: threading.Thread | None = None
        self._restore: list[tuple[int, object]] = []  # (signal, handler) and the wakeup fd

    def host(self, agent: HostAgent) -> None:
        """The host the answer is for, once the input has named it."""
        self.agent = agent

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Print the command's own answer inside this: the watchdog then prints none (and if
        it has printed one already, this waits for the process to end). Afterwards the
        watchdog is gone and the signals are as they were."""
        try:
            with self._lock:
                self._answered = True
                yield
        finally:
            self._stop()

    def _stop(self) -> None:
        for signum, handler in reversed(self._restore):
            if signum < 0:
                signal.set_wakeup_fd(handler)  # type: ignore[arg-type]
            else:
                signal.signal(signum, handler)  # type: ignore[arg-type]
        self._restore.clear()
        _write(self._wake_write, "\0")  # not a signal: the watchdog sees it is answered
        if self._thread is not None:
            self._thread.join(timeout=5)
        for fd in (self._wake_read, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _run(self) -> None:
        while not self._answered:
            left = self._deadline - time.monotonic()
            if left <= 0:
                self._hold(None)
                return
            ready, _, _ = select.select([self._wake_read], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(self._wake_read, 64)
            except BlockingIOError:
                continue
            caught = [signum for signum in data if signum in SIGNALS]
            if caught:
                self._hold(caught[0])
                return

    def _on_signal(self, signum: int, frame: object) -> None:  # the main thread's handler
        self._hold(signum)

    def _hold(self, signum: int | None) -> None:
        """Print the block answer and end the process, unless the command has answered."""
        where = stuck_at()
        with self._lock:
            if self._answered:
                return
            self._answered = True
            reason = held_reason(signum, limit=self.limit, timeout=self.timeout, where=where)
            _write(2, f"goalfile: {reason}\n")
            _write(1, json.dumps(self._document(reason), ensure_ascii=False) + "\n")
            os._exit(0)

    def _document(self, reason: str) -> dict[str, object]:
        answer = block_answer(self.agent, reason)
        if not self.as_json:
            return answer
        return {
            "schema_version": 1,
            "agent": self.agent.value,
            "decision": "block",
            "host_output": answer,
            "goals": [],
            "notes": [],
            "error": {"message": reason},
        }


def start(*, timeout: float, agent: HostAgent, as_json: bool) -> Watch:
    """Start the watchdog of a hook run whose host gives it ``timeout`` seconds, and take
    SIGTERM and SIGINT over: from now on, each of them ends the run with the block answer.
    Call it from the main thread, as early as the run begins."""
    watch = Watch(timeout=timeout, agent=agent, as_json=as_json)
    if threading.current_thread() is threading.main_thread():  # only there can it take them
        previous = signal.set_wakeup_fd(watch._wake_write, warn_on_full_buffer=False)
        watch._restore.append((-1, previous))
        for signum in SIGNALS:
            watch._restore.append((signum, signal.getsignal(signum)))
            signal.signal(signum, watch._on_signal)
    watch._thread = threading.Thread(target=watch._run, name="goalfile-hook-watchdog", daemon=True)
    watch._thread.start()
    for noted in NOTED_SIGNALS:  # those that came while goalfile was starting
        if noted in SIGNALS:
            watch._hold(noted)
    return watch


def running_for() -> float:
    """Seconds since this process began (the host started it; `sh -c` execs goalfile in the
    same process), from ``/proc/self/stat``; 0 where the system does not say. At most 10 s: a
    start time that far back is not the host's start of this hook."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            stat = handle.read()
        ticks = int(stat.rsplit(b")", 1)[1].split()[19])  # field 22: starttime, in clock ticks
        since = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0
    return min(max(since, 0.0), 10.0)


def held_reason(signum: int | None, *, limit: float, timeout: float, where: str | None) -> str:
    """Why the stop is held when the hook did not reach its answer, and what to do."""
    at = f"it was at {where}" if where else ""
    if signum is None:
        limits = f"{limit:g}s of the host's {timeout:g}s hook timeout"
        what = f"did not answer within its time limit ({'; '.join(filter(None, [limits, at]))})"
    else:
        what = f"was ended by {signal.Signals(signum).name} before it answered"
        what += f" ({at})" if at else ""
    return (
        f"goalfile hook stop {what}, so the stop is held: a Stop hook that does not reach its "
        "answer never lets the agent stop. Something goalfile reads or runs did not return. "
        "A FIFO, socket or device where goalfile reads a file is refused, not waited on, so "
        "look at the goal's checks and at the repository for what hangs: "
        "`find . \\( -type p -o -type s -o -type b -o -type c \\) -print` lists special files "
        "(`.git` included), and `goalfile verify --no-write` on each active goal (`goalfile "
        "status` lists them) runs its checks within their time limits. The next stop runs the "
        "hook again."
    )


def stuck_at() -> str | None:
    """Where in goalfile the main thread is: its innermost frame in this package, as
    ``module.function (file:line)``."""
    frame = sys._current_frames().get(threading.main_thread().ident or 0)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(PACKAGE) and not name.endswith("hookwatch.py"):
            relative = os.path.relpath(name, os.path.dirname(PACKAGE))
            return f"{frame.f_code.co_name} ({relative}:{frame.f_lineno})"
        frame = frame.f_back
    return None


def _write(fd: int, text: str) -> None:
    data = text.encode("utf-8", "backslashreplace")
    with contextlib.suppress(OSError):
        while data:
            data = data[os.write(fd, data) :]
