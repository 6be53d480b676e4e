"""The Stop hook's own time limit: `goalfile hook stop` answers within its ``--timeout``
whatever blocks it, and an answer it did not reach holds the agent.

A host kills a hook that outlives its timeout, and Claude Code, Codex and goalfile's pi
extension then let the agent stop (a hook that failed is not a "block"), discarding what it
printed. So a hook that never answers in time (something it reads or runs does not return)
would be a way out. The watchdog answers for it: at :func:`limit_for` seconds from when the
host started the process (a little below the host's timeout) it prints the host's block
answer, naming why and where the hook was; SIGTERM and SIGINT (a host's kill, Ctrl-C) do the
same at once.

In the goalfile program, :func:`start` forks: the process the host started becomes the
watchdog, and the hook's work goes on in the child. A watchdog in the same interpreter (a
thread, a signal handler) needs the interpreter's lock, which the work can hold for as long
as it likes: a regular expression that backtracks, or any other loop in C, and then nothing
answers. The watchdog process only waits (``select`` on three pipes and its signals' wakeup
fd), so nothing the work does can keep it from its time. It is also the only one that writes
to the host's stdout, so exactly one answer is printed: the child's stdout is a pipe to the
watchdog, and the child says on a second pipe that its answer is complete
(:meth:`Worker.answering`), then ends; the watchdog prints that answer once the child has
ended, or, at its time limit or a signal, ends the child (SIGKILL) and prints the block
answer instead. A child that ends without saying it answered (killed, or a crash) is held
too. If the watchdog itself is killed, the child cannot outlive the host's timeout: an
interval timer whose signal (SIGALRM) keeps its default action ends it without the
interpreter. Where the work was comes from the child's stack, which :mod:`faulthandler`
writes on SIGUSR1 from its C-level handler just before that signal ends the child, so the
child writes nothing after the watchdog has decided; a SIGTERM or SIGINT that reaches the
child too (a host that signals the whole tree) stops it where it is, or, while it writes a
goal file (:func:`goalfile.files.write_atomic` holds the signals), once that write is over,
as an interrupt the hook answers with a hold; the watchdog, signalled as well, has normally
answered and ended the child before.

Nothing but the child may say it answered, and nothing but the watchdog may write to the host:
once the hook has read its input, before it runs anything (:func:`private`; git too, and a
program git's configuration names is the hook's descendant as well), both processes are made
non-dumpable (Linux's ``prctl(PR_SET_DUMPABLE, 0)``), so that a process of the same user (a
check's, which is their descendant) can no longer open their pipes through
``/proc/PID/fd`` or trace them; a check's own processes are dumpable again once they exec, but
hold none of the hook's pipes (the checks start with only their own stdin, stdout and stderr).
Then the watchdog prints an answer only if it is exactly one JSON document on one line (or
nothing), said complete once, from a child that then ended with exit status 0; a child that is
killed or stopped, that says it answered twice, or whose answer is anything else, is held
(:func:`untrusted_reason`). Root, or any process with ``CAP_SYS_PTRACE``, is not held back by
any of this (see docs/trust.md).

Run inside another program (a host's library, a test's ``CliRunner``), forking is not
goalfile's to do: a thread waits for the time limit instead (:class:`Watch`), with the
signals' wakeup fd, and the same answer; it needs the interpreter's lock to act.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Final, NoReturn

from goalfile import errors
from goalfile.errors import NOTED_SIGNALS
from goalfile.hostprotocol import HostAgent, block_answer
from goalfile.value import Value

SIGNALS = (signal.SIGTERM, signal.SIGINT)
PACKAGE = os.path.dirname(os.path.realpath(__file__))


@functools.cache
def _frame_line() -> re.Pattern[str]:
    return re.compile(r'^\s*File "(.*)", line (\d+) in (.*)$')


class Doing(Value):
    """What the work last said it was doing (:func:`working_on`): the goal it verifies (as
    the session's shell names it), and the row whose check it runs or judges, with the row's
    `expected` column. The reason of a block names them when the work does not answer."""

    __slots__ = ("expected", "goal", "row")

    def __init__(
        self, goal: str | None = None, row: str | None = None, expected: str | None = None
    ) -> None:
        self.goal: Final = goal
        self.row: Final = row
        self.expected: Final = expected


_heard: Callable[[Doing], None] | None = None  # the running watchdog's (set by :func:`start`)
_private_hook: Callable[[], None] | None = None  # the running work's (set by :func:`start`)
NOTHING_SAID = Doing()  # what the work said before it said anything
_doing = NOTHING_SAID


def working_on(*, goal: str | None = None, row: str | None = None, expected: str = "") -> None:
    """Tell the watchdog what the work does now: a ``goal`` it starts verifying (no row yet),
    or a ``row`` of that goal whose check starts, and its ``expected`` column. Cheap, and a
    no-op outside a hook run."""
    global _doing
    if goal is not None:
        _doing = Doing(goal=goal[:1000])
    if row is not None:
        _doing = Doing(goal=_doing.goal, row=row[:100], expected=expected[:300])
    if _heard is not None:
        _heard(_doing)


def private() -> None:
    """Before the hook's work runs anything (git, which runs what its configuration names,
    the goal's checks, a judge): make the work and the watchdog non-dumpable, so that those
    processes cannot reach the hook's pipes through ``/proc`` (see the module's text). Once
    per run; a no-op outside a hook run, and where the system has no such setting. It needs
    :mod:`ctypes`, about 1.6 ms, also on the met-goal fast path (that path runs git too):
    the forked hook loads it once, before the fork (:func:`_prctl`), for both processes."""
    if _private_hook is not None:
        _private_hook()


def non_dumpable() -> bool:
    """Make this process non-dumpable (``prctl(PR_SET_DUMPABLE, 0)``): its ``/proc/PID`` files
    then belong to root, and a process of the same user without ``CAP_SYS_PTRACE`` can neither
    open its file descriptors there nor trace it. Linux only; False where it did not take."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = _prctl()
        return int(prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


_PR_SET_DUMPABLE = 4
_PRCTL: list[Callable[..., int]] = []  # libc's prctl, once looked up (:func:`_prctl`)


def _prctl() -> Callable[..., int]:
    """libc's ``prctl``, through :mod:`ctypes` (raises OSError or AttributeError where there is
    none). Looked up once per process: the forked hook asks before its fork, so that the
    watchdog and the work, which both call it, load :mod:`ctypes` once between them."""
    if not _PRCTL:
        import ctypes

        _PRCTL.append(ctypes.CDLL(None, use_errno=True).prctl)
    return _PRCTL[0]


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
        self.doing = Doing()  # what the command last said it was doing (:func:`working_on`)

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

    def heard(self, doing: Doing) -> None:
        """What the command does now (:func:`working_on`)."""
        self.doing = doing

    def _stop(self) -> None:
        _listen(None)
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
            _held(
                signum, timeout=self.timeout, agent=self.agent, as_json=self.as_json,
                where=where, doing=self.doing,
            )  # fmt: skip


def _held(
    signum: int | None,
    *,
    timeout: float,
    agent: HostAgent,
    as_json: bool,
    where: str | None,
    doing: Doing,
    ended: str | None = None,
) -> NoReturn:
    """Print the block answer (:func:`held_reason` in the host's protocol, and on stderr) and
    end the process: the one way both watchdogs, the thread and the process, hold a stop."""
    reason = held_reason(
        signum, limit=limit_for(timeout), timeout=timeout, where=where, ended=ended, doing=doing
    )
    _print_hold(agent, reason, as_json=as_json)


def _print_hold(agent: HostAgent, reason: str, *, as_json: bool) -> NoReturn:
    """Print the block answer for ``reason`` (and the reason on stderr), and end the process."""
    from goalfile.termsafe import escape

    _write(2, f"goalfile: {escape(reason)}\n")
    _write(1, held_answer(agent, reason, as_json=as_json))
    os._exit(0)


def held_answer(agent: HostAgent, reason: str, *, as_json: bool) -> str:
    """The block answer's line, in the host's protocol (or goalfile's ``--json``)."""
    answer = block_answer(agent, reason)
    document: dict[str, object] = answer
    if as_json:
        document = {
            "schema_version": 1,
            "agent": agent.value,
            "decision": "block",
            "host_output": answer,
            "goals": [],
            "notes": [],
            "error": {"message": reason},
        }
    return json.dumps(document, ensure_ascii=False) + "\n"


def start(*, timeout: float, agent: HostAgent, as_json: bool) -> Watch | Worker:
    """Start the watchdog of a hook run whose host gives it ``timeout`` seconds, and take
    SIGTERM and SIGINT over: from now on, each of them ends the run with the block answer.
    Call it from the main thread, as early as the run begins. In the goalfile program this
    returns in the child that does the hook's work (:class:`Worker`), and the process that
    called it never returns from it (see the module's text)."""
    global _begun
    _begun = time.monotonic() - running_for()
    alone = threading.current_thread() is threading.main_thread()
    if errors.IN_PROGRAM and alone and hasattr(os, "fork"):
        return _fork(timeout=timeout, agent=agent, as_json=as_json)
    watch = Watch(timeout=timeout, agent=agent, as_json=as_json)
    _listen(watch.heard)
    if alone:  # only the main thread can take the signals
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


class Worker:
    """The hook's side of the watchdog process, in the child that does the work: its stdout
    is a pipe to the watchdog, which prints what came through it only once this says the
    answer is complete."""

    def __init__(self, control: int, sealed: int) -> None:
        self._control = control  # to the watchdog: the host's name, what it does, "answered"
        self._sealed = sealed  # from the watchdog: it is non-dumpable (:meth:`private`)
        self._private = False

    def host(self, agent: HostAgent) -> None:
        """The host the answer is for, once the input has named it: the watchdog's block
        answer is then in its protocol."""
        _write(self._control, f"h{agent.value}\n")

    def heard(self, doing: Doing) -> None:
        """What the work does now (:func:`working_on`), for the watchdog's reason: one line,
        written at once (well below the pipe's atomic size), as JSON."""
        said = json.dumps([doing.goal, doing.row, doing.expected], ensure_ascii=True)
        _write(self._control, f"w{said}\n")

    def private(self) -> None:
        """Make this process non-dumpable, ask the watchdog to make itself so, and wait until
        it has (it only waits on its pipes, so it answers at once; a watchdog that does not, in
        10 s, is gone or stopped, and the run is held anyway)."""
        if self._private:
            return
        self._private = True
        non_dumpable()
        _write(self._control, "p\n")
        with contextlib.suppress(OSError):
            ready, _, _ = select.select([self._sealed], [], [], 10.0)
            if ready:
                os.read(self._sealed, 16)

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Print the command's own answer inside this; then the watchdog prints it, and this
        process ends here. An answer cut short by an error is not complete: the watchdog
        holds the stop."""
        try:
            yield
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            os._exit(70)
        _write(self._control, "a\n")
        os._exit(0)


def _fork(*, timeout: float, agent: HostAgent, as_json: bool) -> Worker:
    """Fork the hook's work off; the watchdog waits for it here and never returns."""
    global _private_hook
    deadline = time.monotonic() + limit_for(timeout) - running_for()
    watchdog = _Watchdog(timeout=timeout, agent=agent, as_json=as_json)
    # the watchdog's signals, taken before the fork: none is missed, and a child that ends at
    # once is not reaped by a SIGCHLD the host left ignored
    wake, wake_write = os.pipe()
    for fd in (wake, wake_write):
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    for signum in (*SIGNALS, signal.SIGCHLD):
        signal.signal(signum, _ignore)
    for noted in NOTED_SIGNALS:  # those that came while goalfile was starting
        if noted in SIGNALS:
            watchdog.hold(noted)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    answers, answers_write = os.pipe()
    control, control_write = os.pipe()
    trace, trace_write = os.pipe()
    sealed, sealed_write = os.pipe()
    if sys.platform.startswith("linux"):  # both processes make themselves non-dumpable
        with contextlib.suppress(OSError, AttributeError):  # (non_dumpable says False then)
            _prctl()
    worker = os.fork()
    if worker == 0:
        signal.set_wakeup_fd(-1)
        for fd in (answers, control, trace, wake, wake_write, sealed_write):
            os.close(fd)
        os.dup2(answers_write, 1)
        os.close(answers_write)
        # SIGTERM and SIGINT are the watchdog's, which then ends this process: one that
        # comes here too (a host that signals the whole tree) stops the work where it is, so
        # that nothing more is written (a check's process gets the default handlers back)
        for signum in SIGNALS:
            signal.signal(signum, _hold_still)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        import faulthandler

        # SIGUSR1 writes the stack and then ends the process (its default action, chained)
        signal.signal(signal.SIGUSR1, signal.SIG_DFL)
        faulthandler.register(signal.SIGUSR1, file=trace_write, all_threads=True, chain=True)
        # if the watchdog is killed, nothing outlives the host's timeout: SIGALRM's default
        # action ends the process without the interpreter
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        host_left = deadline - time.monotonic() + min(15.0, timeout / 10)
        signal.setitimer(signal.ITIMER_REAL, max(host_left, 0.1))
        work = Worker(control_write, sealed)
        _listen(work.heard)
        _private_hook = work.private
        return work
    for fd in (answers_write, control_write, trace_write, sealed):
        os.close(fd)
    watchdog.worker = worker
    watchdog.sealed = sealed_write
    watchdog.watch(deadline, answers=answers, control=control, trace=trace, wake=wake)


def _listen(heard: Callable[[Doing], None] | None) -> None:
    """Where :func:`working_on` tells what the work does (``None``: nowhere), from a fresh
    start."""
    global _heard, _doing
    _heard, _doing = heard, Doing()


def _ignore(signum: int, frame: object) -> None:
    """A handler that does nothing: the signal still writes the wakeup fd."""


def _hold_still(signum: int, frame: object) -> NoReturn:
    """The work's handler of SIGTERM and SIGINT: wait, doing nothing, to be ended."""
    while True:
        signal.pause()


class _Watchdog:
    """The process the host started, once it has forked the work off: it waits, and prints
    the one answer."""

    def __init__(self, *, timeout: float, agent: HostAgent, as_json: bool) -> None:
        self.worker = 0  # the child's pid; 0: none (not yet, or ended)
        self.timeout = timeout
        self.agent = agent
        self.as_json = as_json
        self.trace = -1
        self.sealed = -1  # to the work: "p", this process is non-dumpable now
        self.answered = False
        self.said_answered = 0  # how many times the work said its answer was complete
        self.doing = Doing()  # what the work last said it was doing

    def watch(
        self, deadline: float, *, answers: int, control: int, trace: int, wake: int
    ) -> NoReturn:
        self.trace = trace
        answer = bytearray()
        reading = [answers, control, wake]
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select(reading, [], [], left)
            if wake in ready:
                caught = [signum for signum in _drain(wake) if signum in SIGNALS]
                if caught:
                    if self.answered:  # that answer, not a block, if the work ends as it should
                        self.settle(answer, answers, control)
                    self.hold(caught[0])
            if answers in ready:
                chunk = _read(answers)
                answer += chunk
                if not chunk:
                    reading.remove(answers)
            if control in ready:
                chunk = _read(control)
                self.heard(chunk)
                if not chunk:
                    reading.remove(control)
            try:
                done, status = os.waitpid(self.worker, os.WNOHANG | os.WUNTRACED)
            except ChildProcessError:  # reaped by no one else: cannot be, but it ended
                done, status = self.worker, 255 << 8
            if done:
                self.ended(status, answer, answers, control)
        if self.answered:  # but not yet ended
            self.settle(answer, answers, control)
        self.hold(None)

    def ended(self, status: int, answer: bytearray, answers: int, control: int) -> NoReturn:
        """The work stopped or ended (``status`` from ``waitpid``): print its answer if it is
        one to trust, else hold."""
        if os.WIFSTOPPED(status):  # alive, but held still by someone: not goalfile's doing
            self.refuse(f"its work process was stopped by {_signal_name(os.WSTOPSIG(status))}")
        self.worker = 0  # all it wrote is in the pipes now
        self.heard(_drain(control))
        if not self.answered:
            self.hold(None, ended=_status(status))
        data = bytes(answer) + _drain(answers)
        problem = untrusted(status, data, said=self.said_answered)
        if problem is not None:
            self.refuse(problem)
        self.answer(data)

    def settle(self, answer: bytearray, answers: int, control: int) -> NoReturn:
        """The work said it answered, and ends at once (:meth:`Worker.answering`): wait a
        second at most for that end, then print the answer or hold (:meth:`ended`)."""
        give_up = time.monotonic() + 1.0
        while time.monotonic() < give_up:
            try:
                done, status = os.waitpid(self.worker, os.WNOHANG | os.WUNTRACED)
            except ChildProcessError:
                done, status = self.worker, 255 << 8
            if done:
                self.ended(status, answer, answers, control)
            time.sleep(0.01)
        self.refuse("its work process said it answered but did not end")

    def heard(self, said: bytes) -> None:
        """What the child said on the control pipe: ``h`` and the host's name (the input has
        named it), ``w`` and what it does (:func:`working_on`), ``a`` (its answer is complete:
        all of it is in the answers pipe)."""
        for line in said.split(b"\n"):
            if line == b"a":
                self.answered = True
                self.said_answered += 1
            elif line == b"p":  # the work runs the goal's checks next
                non_dumpable()
                _write(self.sealed, "p")
            elif line[:1] == b"h":
                with contextlib.suppress(ValueError):
                    self.agent = HostAgent(line[1:].decode("ascii", "replace"))
            elif line[:1] == b"w":
                with contextlib.suppress(ValueError, TypeError):
                    goal, row, expected = json.loads(line[1:])
                    self.doing = Doing(goal=goal, row=row, expected=expected)

    def answer(self, data: bytes) -> NoReturn:
        """Print the work's own answer, and end."""
        self.end_worker()
        with contextlib.suppress(OSError):
            while data:
                data = data[os.write(1, data) :]
        os._exit(0)

    def refuse(self, what: str) -> NoReturn:
        """Hold: the work's answer cannot be trusted, for the reason ``what``."""
        self.end_worker()
        _print_hold(self.agent, untrusted_reason(what, self.doing), as_json=self.as_json)

    def hold(self, signum: int | None, *, ended: str | None = None) -> NoReturn:
        """Print the block answer, the work ended first, and end."""
        where = self.where() if self.worker else None
        self.end_worker()
        _held(
            signum, timeout=self.timeout, agent=self.agent, as_json=self.as_json,
            where=where, doing=self.doing, ended=ended,
        )  # fmt: skip

    def end_worker(self) -> None:
        if self.worker:
            with contextlib.suppress(OSError):
                os.kill(self.worker, signal.SIGKILL)
            self.worker = 0

    def where(self) -> str | None:
        """Where the work is: its stack, which faulthandler writes on SIGUSR1 before the
        signal ends the child (so the child does nothing more), read to its end (the child's
        end), for half a second at most."""
        try:
            os.kill(self.worker, signal.SIGUSR1)
        except OSError:
            return None
        dump = bytearray()
        give_up = time.monotonic() + 0.5
        while True:
            left = give_up - time.monotonic()
            ready, _, _ = select.select([self.trace], [], [], max(left, 0))
            if not ready:
                break
            chunk = _read(self.trace)
            if not chunk:
                break
            dump += chunk
        return stack_frame(dump.decode("utf-8", "replace"), threading.get_ident())


def stack_frame(dump: str, thread: int) -> str | None:
    """In a faulthandler stack dump, the innermost frame in goalfile (not this module) of the
    thread ``thread`` (or of the first thread shown), as :func:`stuck_at` names it."""
    blocks = dump.split("\n\n")
    chosen = next((b for b in blocks if f"0x{thread:016x}" in b.split("\n", 1)[0]), blocks[0])
    for line in chosen.splitlines():
        found = _frame_line().match(line)
        if found is None:
            continue
        name, number, function = found.groups()
        named = _frame(name, function, number)
        if named is not None:
            return named
    return None


def _frame(filename: str, function: str, line: int | str) -> str | None:
    """A frame as a hold names it, ``function (goalfile/module.py:line)``, when it is in
    goalfile and not in this module; None otherwise."""
    if not filename.startswith(PACKAGE) or filename.endswith("hookwatch.py"):
        return None
    return f"{function} ({os.path.relpath(filename, os.path.dirname(PACKAGE))}:{line})"


def _status(status: int) -> str:
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def untrusted(status: int, data: bytes, *, said: int) -> str | None:
    """Why the answer ``data`` of a work process that said ``said`` times that it answered
    and then ended with ``status`` (from ``waitpid``) is not to be printed; None if it is:
    said once, exit status 0, and nothing or exactly one JSON object on one line."""
    if os.WIFSIGNALED(status):
        return (
            f"its work process said it answered, then was killed by "
            f"{_signal_name(os.WTERMSIG(status))} instead of ending"
        )
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        return f"its work process said it answered, then ended with exit status {code}"
    if said != 1:
        return f"its work process said {said} times that its answer was complete"
    if not data:
        return None
    if not data.endswith(b"\n") or data.count(b"\n") != 1:
        return "its answer was not one line"
    try:
        document = json.loads(data)
    except ValueError:
        return "its answer was not a JSON document"
    if not isinstance(document, dict):
        return "its answer was not a JSON object"
    return None


def _it_was(doing: Doing) -> str:
    """What the work said it was on, as a sentence of its own (empty when it said nothing)."""
    if doing.goal is None:
        return ""
    on = f"verifying {doing.goal}" if doing.row is None else f"on row {doing.row} of {doing.goal}"
    return f" It was {on}."


def untrusted_reason(what: str, doing: Doing) -> str:
    """Why the stop is held when the hook's work answered in a way goalfile never does
    (:func:`untrusted`), and what to do."""
    from goalfile.shellword import shell_word

    held = (
        f"goalfile hook stop held the stop because {what}: goalfile's own hook never does "
        "that, so something it ran (a check's code, most likely) reached into the hook's "
        "processes, and whatever it answered is not printed."
    )
    held += _it_was(doing)
    goal = shell_word(doing.goal) if doing.goal is not None else "PATH"
    each = "" if doing.goal is not None else " (`goalfile status` lists the active goals)"
    return (
        f"{held} Tell the user: a person reads the code the goal's checks run for what "
        "signals, stops or writes into other processes (`kill`, `/proc/PID/fd`); `goalfile "
        f"verify --no-write {goal}`{each} runs the checks outside the hook and shows their "
        "output. The next stop runs the hook again."
    )


def _read(fd: int) -> bytes:
    """What a pipe that ``select`` found ready holds (b"" at its end)."""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def _drain(fd: int) -> bytes:
    """What a pipe holds now, without waiting."""
    os.set_blocking(fd, False)
    data = bytearray()
    with contextlib.suppress(OSError):
        while chunk := os.read(fd, 65536):
            data += chunk
    return bytes(data)


_begun: float | None = None
"""When the host started this hook (:func:`time.monotonic`), as :func:`start` found it."""


def spent() -> float:
    """Seconds of the host's timeout gone since it started this hook: the watchdog's limit
    counts from there, and so does the hook's own time limit (0 before :func:`start`)."""
    return 0.0 if _begun is None else max(time.monotonic() - _begun, 0.0)


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


def held_reason(
    signum: int | None,
    *,
    limit: float,
    timeout: float,
    where: str | None,
    ended: str | None = None,
    doing: Doing = NOTHING_SAID,
) -> str:
    """Why the stop is held when the hook did not reach its answer, and what to do: where the
    hook was, the goal and row it said it was on, and, when it was judging a check's output
    (in expect.py or expecttext.py), the `matches` pattern that can make that take longer
    than any time limit."""
    from goalfile.prose import inline_code
    from goalfile.shellword import shell_word

    at = f"it was at {where}" if where else ""
    if ended is not None:
        what = f"ended ({ended}) before it answered"
    elif signum is None:
        limits = f"{limit:g}s of the host's {timeout:g}s hook timeout"
        what = f"did not answer within its time limit ({'; '.join(filter(None, [limits, at]))})"
    else:
        what = f"was ended by {signal.Signals(signum).name} before it answered"
        what += f" ({at})" if at else ""
    held = (
        f"goalfile hook stop {what}, so the stop is held: a Stop hook that does not reach its "
        "answer never lets the agent stop."
    )
    held += _it_was(doing)
    goal = shell_word(doing.goal) if doing.goal is not None else "PATH"
    if where is not None and _judging().search(where):
        row = f" of row {doing.row}" if doing.row is not None else ""
        column = (
            f" ({inline_code(doing.expected)})" if doing.row is not None and doing.expected else ""
        )
        return (
            f"{held} It was judging the output of a check{row} against its `expected` "
            f"column{column}: a `matches` pattern that backtracks (a repeat inside a repeat, "
            "such as `(a+)+`, on a line it does not match) can take longer than the time the "
            "hook has. Tell the user: a person rewrites that pattern (`goalfile "
            f"lint {goal}` lists the goal's problems) and re-approves the changed row "
            f"(`goalfile activate --reapprove {goal} --reason TEXT`); the criteria are not the "
            "agent's to change. The next stop runs the hook again."
        )
    each = "" if doing.goal is not None else " on each active goal (`goalfile status` lists them)"
    return (
        f"{held} Something goalfile reads or runs did not return. A FIFO, socket or device "
        "where goalfile reads a file is refused, not waited on, so look at the goal's checks "
        "and at the repository for what hangs: `find . \\( -type p -o -type s -o -type b -o "
        "-type c \\) -print` lists special files (`.git` included), `goalfile verify "
        f"--no-write {goal}`{each} shows which check does not end (a check ends at its time "
        f"limit), and `goalfile lint {goal}` lists the goal's problems (a `matches` pattern "
        "that backtracks can make judging a check's output take longer than a time limit). "
        "The next stop runs the hook again."
    )


@functools.cache
def _judging() -> re.Pattern[str]:
    return re.compile(r"\(goalfile/(?:expect|expecttext|backtrack)\.py:\d+\)$")


def stuck_at() -> str | None:
    """Where in goalfile the main thread is: its innermost frame in this package, as
    ``module.function (file:line)``."""
    frame = sys._current_frames().get(threading.main_thread().ident or 0)
    while frame is not None:
        named = _frame(frame.f_code.co_filename, frame.f_code.co_name, frame.f_lineno)
        if named is not None:
            return named
        frame = frame.f_back
    return None


def _write(fd: int, text: str) -> None:
    data = text.encode("utf-8", "backslashreplace")
    with contextlib.suppress(OSError):
        while data:
            data = data[os.write(fd, data) :]
