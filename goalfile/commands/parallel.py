"""Checks run side by side for `verify --jobs N`: threads that each supervise one check.

Each check already runs in its own process group and is read by its own selector loop
(:mod:`goalfile.run`), so a thread per running check is all concurrency needs. Everything the
user sees, and every decision (budget, time limit, the order of the ledger rows), stays in
the calling thread: workers only run a check and hand back its result.

Ctrl-C and SIGTERM reach the calling thread. :meth:`Pool.cancel` then tells every worker to
stop; each worker's check sees that on its next tick, ends its process group (SIGTERM, grace,
SIGKILL) and returns, and the pool waits for all of them before the interrupt goes on.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

POLL = 0.1
"""Seconds between looks at the running checks while waiting (progress is drawn then)."""


class Cancelled(BaseException):
    """Raised inside a worker's check once the pool is cancelled; it ends the check."""


@dataclass(frozen=True)
class _Done(Generic[T]):
    key: str
    value: T | None
    error: BaseException | None


class Pool(Generic[T]):
    """At most ``size`` jobs at a time; results are handed to ``on_done`` in this thread."""

    def __init__(
        self,
        size: int,
        *,
        on_done: Callable[[str, T], None],
        on_wait: Callable[[dict[str, float]], None] | None = None,
        clock: Callable[[], float],
    ) -> None:
        if size < 1:
            raise ValueError("a pool runs at least one job at a time")
        self.size = size
        self._on_done = on_done
        self._on_wait = on_wait
        self._clock = clock
        self._done: queue.SimpleQueue[_Done[T]] = queue.SimpleQueue()
        self._running: dict[str, float] = {}  # key -> start time
        self._threads: list[threading.Thread] = []
        self._cancel = threading.Event()

    def stop_if_cancelled(self) -> None:
        """Called from a worker's check at each tick: raises :class:`Cancelled` once cancelled."""
        if self._cancel.is_set():
            raise Cancelled

    def start(self, key: str, job: Callable[[], T]) -> None:
        """Run ``job`` in a new thread once a slot is free."""
        self.wait(self.size - 1)

        def work() -> None:
            try:
                self._done.put(_Done(key, job(), None))
            except BaseException as exc:  # handed to the calling thread, which re-raises it
                self._done.put(_Done(key, None, exc))

        self._running[key] = self._clock()
        thread = threading.Thread(target=work, name=f"goalfile-check-{key}", daemon=True)
        self._threads.append(thread)
        thread.start()

    def wait(self, most: int = 0) -> None:
        """Hand over finished results until at most ``most`` jobs are still running."""
        while len(self._running) > most:
            try:
                done = self._done.get(timeout=POLL)
            except queue.Empty:
                if self._on_wait is not None:
                    self._on_wait(dict(self._running))
                continue
            del self._running[done.key]
            if done.error is not None:
                raise done.error
            assert done.value is not None
            self._on_done(done.key, done.value)

    def cancel(self) -> None:
        """Stop every running job and wait until each has ended its check."""
        self._cancel.set()
        for thread in self._threads:
            while thread.is_alive():
                try:
                    thread.join()
                except KeyboardInterrupt:  # asked again: the workers are ending their checks
                    continue
        self._running.clear()
