"""Run one check as a real process, in bounded memory, and say how it ended.

With :mod:`goalfile.gitrun` (which runs git), the only module of goalfile that starts a
process. It knows nothing about goal files, verdicts or the ``expected`` language: it starts
``[shell, "-c", command]``, streams both pipes to a callback, keeps a bounded tail of each
stream, enforces the time limits, and makes sure that no process of the check is left behind.

How a check is run (POSIX, Linux):

- The child gets a new session (so a new process group whose id is its pid), stdin from
  ``/dev/null``, stdout and stderr as two separate pipes, and exactly the cwd and the
  environment of the :class:`CheckSpec`.
- Both pipes are read concurrently by a :mod:`selectors` loop in the calling thread; no thread
  is started. Every chunk goes to ``on_output`` (from the calling thread only) and into an
  :class:`OutputTail`, whose memory is bounded however large the output is.
- When the time limit expires, the whole process group gets SIGTERM, then SIGKILL after
  :data:`KILL_GRACE` seconds. When the shell exits on its own, the pipes are read until EOF for
  at most :data:`LINGER` seconds (a background child may hold them open), and then whatever is
  left in the process group is ended the same way (SIGTERM, grace, SIGKILL).
- Any exception raised while waiting (``KeyboardInterrupt`` from Ctrl-C, or one raised by a
  callback) ends the process group the same way before it propagates.

A process that leaves the group on purpose (``setsid``, ``setpgid``) escapes this cleanup; that
is the documented limit of process-group based supervision.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import selectors
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import IO, Final, NoReturn

from goalfile.startwait import interrupts_wait
from goalfile.tail import (
    EMPTY_STREAM,
    MAX_HEAD_BYTES,
    MAX_TAIL_BYTES,
    OutputTail,
    StreamSummary,
)
from goalfile.value import Value

CHUNK_SIZE = 64 * 1024
"""Bytes asked for by one read of a pipe. Larger reads were slower: from 128 KiB on, the C
library maps fresh memory for each one (glibc's mmap threshold)."""

PIPE_SIZE = 1024 * 1024
"""Buffer asked for each output pipe (Linux lets anyone have up to 1 MiB)."""

BUSY_BYTES = 1024 * 1024
"""Output after which a check counts as one that prints a lot (see :class:`_Pipes`)."""

COALESCE = 0.0002
"""Seconds each turn of the read loop pauses while a check that prints a lot streams."""

SELECT_INTERVAL = 0.1
"""Longest wait of one turn of the read loop, in seconds."""

TICK_INTERVAL = 0.1
"""``on_tick`` is called at most once per this many seconds."""

KILL_GRACE = 2.0
"""Seconds between SIGTERM and SIGKILL to a check's process group."""

LINGER = 1.0
"""Seconds the pipes are still read after the shell exited, for background children."""

GROUP_POLL = 0.02
"""Seconds between looks at a process group that was sent SIGTERM."""

SYNTAX_TIMEOUT = 10.0
"""Default time limit of :func:`syntax_error`, in seconds."""

MAX_MESSAGE_CHARS = 300
"""A syntax error message longer than this is shortened."""

GOAL_LIMIT_MESSAGE = "timed out: goal time limit reached"
GOAL_LIMIT_BEFORE_START_MESSAGE = "timed out: goal time limit reached before the check started"


# --------------------------------------------------------------------------- values


class CheckSpec(Value):
    """What to run and where. ``env`` is the complete environment of the child."""

    __slots__ = ("command", "cwd", "env", "shell", "timeout")

    def __init__(
        self, *, command: str, shell: str, cwd: str, env: Mapping[str, str], timeout: float | None
    ) -> None:
        self.command: Final = command
        self.shell: Final = shell  # e.g. "/bin/sh"; run as [shell, "-c", command]
        self.cwd: Final = cwd
        self.env: Final = env
        self.timeout: Final = timeout  # seconds for this check; None = unlimited


class Ending(StrEnum):
    EXITED = "exited"
    SIGNALLED = "signalled"
    TIMEOUT = "timeout"
    NOT_STARTED = "not_started"


class RunOutcome(Value):
    """How a check ended. ``message`` explains TIMEOUT and NOT_STARTED, else it is ""."""

    __slots__ = (
        "elapsed",
        "ending",
        "exit_status",
        "goal_limit",
        "message",
        "signal",
        "stderr",
        "stdout",
    )

    def __init__(
        self,
        *,
        ending: Ending,
        exit_status: int | None,
        signal: int | None,
        elapsed: float,
        stdout: StreamSummary,
        stderr: StreamSummary,
        message: str,
        goal_limit: bool = False,
    ) -> None:
        self.ending: Final = ending
        self.exit_status: Final = exit_status  # set when EXITED
        self.signal: Final = signal  # set when SIGNALLED
        self.elapsed: Final = elapsed
        self.stdout: Final = stdout
        self.stderr: Final = stderr
        self.message: Final = message
        # TIMEOUT by the goal's time limit (``deadline``), not the check's
        self.goal_limit: Final = goal_limit


# --------------------------------------------------------------------------- pure logic


def time_limit(
    timeout: float | None, deadline: float | None, now: float
) -> tuple[float | None, str]:
    """The effective limit in seconds from ``now`` and the message used if it expires."""
    check_message = (
        f"timed out after {format_seconds(timeout)} (check timeout)" if timeout is not None else ""
    )
    if deadline is None:
        return timeout, check_message
    remaining = deadline - now
    if timeout is not None and timeout <= remaining:
        return timeout, check_message
    return remaining, GOAL_LIMIT_MESSAGE


def format_seconds(seconds: float) -> str:
    return f"{seconds:g}s"


# compiled on first use (by re's own cache): only an error message of sh or git is cleaned
_ANSI_ESCAPE = r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b."
_CONTROL = r"[\x00-\x1f\x7f-\x9f]"


def clean_message(text: str) -> str:
    """One line of text without escapes or control characters, whitespace collapsed."""
    text = re.sub(_CONTROL, " ", re.sub(_ANSI_ESCAPE, "", text))
    text = " ".join(text.split())
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[: MAX_MESSAGE_CHARS - 1] + "…"
    return text


def first_message_line(data: bytes) -> str:
    """The first non-empty line of ``data``, cleaned; "" when there is none."""
    for line in data.decode("utf-8", errors="replace").splitlines():
        cleaned = clean_message(line)
        if cleaned:
            return cleaned
    return ""


def parse_proc_stat(data: bytes) -> tuple[str, int]:
    """State letter and process group id from the text of ``/proc/PID/stat``."""
    fields = data[data.rfind(b")") + 2 :].split()
    return fields[0].decode("ascii", errors="replace"), int(fields[2])


# --------------------------------------------------------------------------- process groups


def _signal_group(pgid: int, signum: int) -> bool:
    """Send ``signum`` to a process group; False when the group no longer exists."""
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a member we may not signal still exists
    return True


def _has_live_member(pgid: int) -> bool:
    """Whether some process of the group is still running (zombies do not count).

    Linux only; without ``/proc`` every existing group counts as live. Zombies matter because
    an init that does not reap orphans (common in containers) leaves them in the group.
    """
    if not os.path.exists("/proc/self/stat"):
        return True
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat_file:
                state, group = parse_proc_stat(stat_file.read())
        except (OSError, ValueError, IndexError):
            continue
        if group == pgid and state not in ("Z", "X", "x"):
            return True
    return False


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _has_live_member(pgid)


def _end_group(
    proc: subprocess.Popen[bytes], *, pump: Callable[[float], bool] | None = None
) -> None:
    """SIGTERM the check's process group, SIGKILL it after the grace, reap the shell.

    ``pump(seconds)`` keeps reading the pipes while waiting; it returns False once they are
    closed. Without it the wait sleeps.
    """
    pgid = proc.pid  # start_new_session: the shell leads its own group
    if _signal_group(pgid, signal.SIGTERM):
        give_up = time.monotonic() + KILL_GRACE
        while True:
            proc.poll()
            if not _group_alive(pgid):
                break
            left = give_up - time.monotonic()
            if left <= 0:
                _signal_group(pgid, signal.SIGKILL)
                break
            wait = min(GROUP_POLL, left)
            if pump is None or not pump(wait):
                time.sleep(wait)
    proc.wait()
    _guard_say(f"-{pgid}")


# --------------------------------------------------------------------------- pipes


class _Pipes:
    """Both output pipes of a check, and its exit, watched by one selector, without threads.

    A check that prints a lot is read in large chunks: a pipe that fills up gets
    :data:`PIPE_SIZE` bytes of buffer, and after a short read of a busy stream the next turn
    first pauses :data:`COALESCE` seconds so that a chunk gathers (waking for every small
    write costs both sides more than the copy does).
    """

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        tails: Mapping[str, OutputTail],
        on_output: Callable[[str, bytes], None],
    ) -> None:
        self._tails = tails
        self._on_output = on_output
        self._files: list[IO[bytes]] = []
        self._selector = selectors.DefaultSelector()
        for name, pipe in (("stdout", proc.stdout), ("stderr", proc.stderr)):
            assert pipe is not None
            self._files.append(pipe)
            self._selector.register(pipe.fileno(), selectors.EVENT_READ, name)
        self._widened: set[int] = set()  # pipes given PIPE_SIZE bytes of buffer
        self._reading = 2  # pipes not yet at EOF
        self._pidfd = _open_pidfd(proc.pid)
        if self._pidfd is not None:
            self._selector.register(self._pidfd, selectors.EVENT_READ, _EXITED)
        self._proc = proc
        self._streamed = 0  # bytes read so far
        self._flowing = False  # the last turn read output, and much of it came already
        self._open = True

    @property
    def open(self) -> bool:
        """Whether a pipe is still open (not at EOF and not closed)."""
        return self._open and self._reading > 0

    def pump(self, timeout: float) -> bool:
        """Wait up to ``timeout`` for output (or the shell's exit) and read what is ready.

        Returns False when both pipes are done."""
        if not self.open:
            return False
        if self._flowing:
            time.sleep(COALESCE)
        self._flowing = False
        for key, _ in self._selector.select(max(timeout, 0.0)):
            if key.data is _EXITED:
                self._forget_pidfd()
                continue
            data = os.read(key.fd, CHUNK_SIZE)
            if not data:
                self._selector.unregister(key.fd)
                self._reading -= 1
                continue
            name: str = key.data
            if len(data) >= _DEFAULT_PIPE_SIZE and key.fd not in self._widened:
                self._widen(key.fd)  # the pipe filled up: this stream prints a lot
            self._streamed += len(data)
            # a short read of a busy stream: let the next chunk gather before reading again
            self._flowing = self._streamed >= BUSY_BYTES and len(data) < CHUNK_SIZE // 2
            self._tails[name].feed(data)
            self._on_output(name, data)
        return self.open

    def wait_exit(self, seconds: float) -> None:
        """With both pipes done: wait up to ``seconds`` for the shell to exit."""
        if self._pidfd is not None and self._open:
            if self._selector.select(max(seconds, 0.0)):
                self._forget_pidfd()
                self._proc.poll()
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=max(seconds, 0.0))

    def drain(self, seconds: float) -> None:
        """Read until EOF on both pipes, for at most ``seconds``."""
        until = time.monotonic() + seconds
        while self.open and (left := until - time.monotonic()) > 0:
            self.pump(min(left, SELECT_INTERVAL))

    def close(self) -> None:
        if not self._open:
            return
        self._open = False
        self._forget_pidfd()
        self._selector.close()
        for pipe in self._files:
            pipe.close()

    def _widen(self, fd: int) -> None:
        self._widened.add(fd)
        with contextlib.suppress(OSError):  # a bigger buffer is a wish, not a need
            fcntl.fcntl(fd, _F_SETPIPE_SZ, PIPE_SIZE)

    def _forget_pidfd(self) -> None:
        """Stop watching the exit (once seen, a pidfd stays readable)."""
        if self._pidfd is None:
            return
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(self._pidfd)
        os.close(self._pidfd)
        self._pidfd = None


_EXITED = object()
"""Selector data of a check's pidfd."""

_F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)
_DEFAULT_PIPE_SIZE = 64 * 1024  # Linux's; a read this large means the pipe had filled


def _open_pidfd(pid: int) -> int | None:
    """A pidfd (Linux 5.3+), readable once the process has exited; None where there is none."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


# --------------------------------------------------------------------------- running


def _cwd_problem(cwd: str) -> str | None:
    try:
        mode = os.stat(cwd).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return f"working directory {cwd} does not exist"
    except OSError as exc:
        return f"working directory {cwd} cannot be used: {exc.strerror or exc}"
    except ValueError as exc:  # a NUL byte in the path
        return f"working directory {cwd!r} cannot be used: {exc}"
    if not stat.S_ISDIR(mode):
        return f"working directory {cwd} is not a directory"
    return None


def _start_problem(spec: CheckSpec, exc: OSError) -> str:
    if exc.filename == spec.cwd and exc.filename != spec.shell:  # chdir failed in the child
        if isinstance(exc, PermissionError):
            return f"working directory {spec.cwd} cannot be entered: permission denied"
        return f"working directory {spec.cwd} cannot be entered: {exc.strerror or exc}"
    if isinstance(exc, FileNotFoundError):
        return f"shell {spec.shell} not found"
    if isinstance(exc, PermissionError):
        return f"shell {spec.shell} cannot be run: permission denied"
    return f"shell {spec.shell} cannot be run: {exc.strerror or exc}"


# --------------------------------------------------------------------------- the guard

RUN_VARIABLE = "GOALFILE_RUN"
"""Environment variable every process goalfile starts for a check carries: a value unique to
one goalfile process. The guard finds by it the processes that left their check's process
group (``setsid``) or started before their group was registered."""


def guard_command() -> list[str]:
    """The guard program's command (:mod:`goalfile.checkguard`), without its arguments: an
    isolated interpreter without ``site`` that imports the module from its own folder, so that
    its cached bytecode is loaded and nothing else of goalfile (compiling the same code from a
    ``-c`` string cost about 5 M instructions at every start)."""
    folder = os.path.dirname(os.path.abspath(__file__))
    code = f"import sys; sys.path.append({folder!r}); import checkguard; checkguard.main()"
    return [sys.executable, "-I", "-S", "-c", code]


_guard: subprocess.Popen[bytes] | None = None
_guard_lock = threading.Lock()
_run_mark = ""


def _guard_say(line: str) -> None:
    """Tell the guard about a check's process group (see :mod:`goalfile.checkguard`).

    The guard is a small process in its own session, started before the first check. It holds
    the read end of a pipe whose write end only goalfile has (checks never inherit it): when
    goalfile dies, even by SIGKILL, the guard reads end of input and kills the processes of the
    checks still running, which would otherwise run on as orphans."""
    global _guard
    with _guard_lock:
        try:
            if _guard is None or _guard.poll() is not None:
                _guard = subprocess.Popen(
                    [*guard_command(), _mark_entry()],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    # not marked itself: an outer goalfile's guard must not kill this one
                    env={k: v for k, v in os.environ.items() if k != RUN_VARIABLE},
                    start_new_session=True,  # no Ctrl-C from the terminal, no group kill
                    close_fds=True,
                )
                assert _guard.stdin is not None
                _guard.stdin.write(_identity())
            assert _guard.stdin is not None
            _guard.stdin.write(f"{line}\n".encode())
            _guard.stdin.flush()
        except (OSError, ValueError):
            pass  # no guard: the checks are still ended by goalfile itself, as long as it lives


def _identity() -> bytes:
    """The guard's ``=0`` to ``=3`` lines: this process's command line, environment and memory
    layout as ``/proc`` shows them, which a check forked but not yet exec'd shows too, and the
    pid of the process that started this one."""
    values: list[bytes] = []
    try:
        for name in ("cmdline", "environ", "stat"):
            with open(f"/proc/self/{name}", "rb") as handle:
                values.append(handle.read())
        fields = values[2][values[2].rfind(b")") + 2 :].split()
        values[2] = b" ".join(fields[i] for i in (25, 45, 46, 47, 48))
    except (OSError, IndexError):
        return b""  # no /proc: no twin to find either
    values.append(str(os.getppid()).encode())
    return b"".join(f"={index}{value.hex()}\n".encode() for index, value in enumerate(values))


def _mark_entry() -> str:
    """``GOALFILE_RUN=VALUE``: the environment entry of this goalfile process's checks."""
    global _run_mark
    if not _run_mark:
        _run_mark = f"{os.getpid()}.{time.time_ns()}"
    return f"{RUN_VARIABLE}={_run_mark}"


def _spawn(
    argv: list[str], *, env: Mapping[str, str], **options: object
) -> subprocess.Popen[bytes]:
    """Start ``argv`` in a new session, registered with the guard before it can run anything
    that outlives goalfile. The caller ends it with :func:`_end_group`, in a ``try`` that
    follows the call at once.

    Ctrl-C and SIGTERM wait while it starts (:func:`goalfile.startwait.interrupts_wait`): one
    that lands in ``Popen`` after the fork would raise there, with the child running and no
    one left to end it. One that came meanwhile ends the child here, then is raised."""
    _guard_say("?")
    name, _, value = _mark_entry().partition("=")
    proc: subprocess.Popen[bytes] | None = None
    try:
        with interrupts_wait():
            try:
                proc = subprocess.Popen(  # type: ignore[call-overload]
                    argv,
                    env={**env, name: value},
                    start_new_session=True,
                    close_fds=True,
                    **options,
                )
            except Exception:  # it did not start
                _guard_say("!")
                raise
            _guard_say(f"+{proc.pid}")
    except BaseException:
        if proc is not None:  # an interrupt came while it started
            _end_group(proc)
            for pipe in (proc.stdin, proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        raise
    return proc


def _start(spec: CheckSpec) -> subprocess.Popen[bytes] | str:
    """The running check, or a message saying why it could not start."""
    if not spec.shell:
        return "no shell given"
    problem = _cwd_problem(spec.cwd)
    if problem is not None:
        return problem
    try:
        return _spawn(
            [spec.shell, "-c", spec.command],
            env=spec.env,
            cwd=spec.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as exc:
        return _start_problem(spec, exc)
    except ValueError as exc:  # a NUL byte in the command, a bad environment name
        return f"check cannot be started: {exc}"


def _not_run(ending: Ending, message: str, *, goal_limit: bool = False) -> RunOutcome:
    return RunOutcome(
        ending=ending,
        exit_status=None,
        signal=None,
        elapsed=0.0,
        stdout=EMPTY_STREAM,
        stderr=EMPTY_STREAM,
        message=message,
        goal_limit=goal_limit,
    )


def _output_tail() -> OutputTail:
    """A stream's kept output: its head and its tail, together within MAX_TAIL_BYTES."""
    return OutputTail(max_bytes=MAX_TAIL_BYTES - MAX_HEAD_BYTES, head_bytes=MAX_HEAD_BYTES)


def run_check(
    spec: CheckSpec,
    *,
    on_output: Callable[[str, bytes], None],
    deadline: float | None = None,
    on_tick: Callable[[float], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> RunOutcome:
    """Run ``spec`` to its end and report how it ended. Never raises for a check's failure.

    ``deadline`` is an absolute ``clock()`` value for the whole goal; the check gets
    ``min(spec.timeout, deadline - now)``. ``on_output("stdout" | "stderr", chunk)`` sees every
    byte, in order per stream. ``on_tick(elapsed)`` is called at most ten times a second while
    the check runs. Both are called from the calling thread only. An exception from either, or
    a ``KeyboardInterrupt``, ends the check's process group and then propagates.
    """
    start = clock()
    limit, limit_message = time_limit(spec.timeout, deadline, start)
    goal_limit = limit_message == GOAL_LIMIT_MESSAGE  # the goal's time, not the check's, binds
    if limit is not None and limit <= 0 and goal_limit:
        return _not_run(Ending.TIMEOUT, GOAL_LIMIT_BEFORE_START_MESSAGE, goal_limit=True)
    pipes: _Pipes | None = None
    started = _start(spec)
    try:  # at once: an interrupt from here on ends the check
        if isinstance(started, str):
            return _not_run(Ending.NOT_STARTED, started)
        proc = started
        tails = {name: _output_tail() for name in ("stdout", "stderr")}
        pipes = _Pipes(proc, tails, on_output)
        ended_at, timed_out = _supervise(proc, pipes, start, limit, on_tick, clock)
        if timed_out:
            _end_group(proc, pump=pipes.pump)
            pipes.drain(LINGER)
        pipes.close()
        _end_group(proc)  # whatever the shell left behind in its group
    except BaseException:
        if not isinstance(started, str):
            _clean_up(started, pipes)
        raise
    return _outcome(proc, timed_out, limit_message, ended_at - start, tails, goal_limit)


def _clean_up(proc: subprocess.Popen[bytes], pipes: _Pipes | None) -> None:
    """End a check that an exception (Ctrl-C, SIGTERM, a callback's) cut short."""
    try:
        if pipes is not None:
            pipes.close()
        for pipe in (proc.stdout, proc.stderr):  # when the pipes were not watched yet
            if pipe is not None:
                pipe.close()
        _end_group(proc)
    except BaseException:  # interrupted again while cleaning up: no more grace
        _signal_group(proc.pid, signal.SIGKILL)
        proc.wait()
        _guard_say(f"-{proc.pid}")


def _supervise(
    proc: subprocess.Popen[bytes],
    pipes: _Pipes,
    start: float,
    limit: float | None,
    on_tick: Callable[[float], None] | None,
    clock: Callable[[], float],
) -> tuple[float, bool]:
    """Read until the shell has exited and the pipes are done, or the limit expires.

    Returns when the shell's end was seen (or the limit expired) and whether it timed out.
    """
    ended_at: float | None = None
    last_tick = start
    while True:
        now = clock()
        if ended_at is None and proc.poll() is not None:
            ended_at = now
        if ended_at is not None:
            if not pipes.open or now - ended_at >= LINGER:
                return ended_at, False
            wait = min(SELECT_INTERVAL, ended_at + LINGER - now)
        elif limit is not None and now - start >= limit:
            return now, True
        else:
            wait = SELECT_INTERVAL if limit is None else min(SELECT_INTERVAL, start + limit - now)
        if on_tick is not None and now - last_tick >= TICK_INTERVAL:
            last_tick = now
            on_tick(now - start)
        if pipes.open:
            pipes.pump(wait)
        else:  # the shell closed its output but runs on
            pipes.wait_exit(wait)


def _outcome(
    proc: subprocess.Popen[bytes],
    timed_out: bool,
    limit_message: str,
    elapsed: float,
    tails: Mapping[str, OutputTail],
    goal_limit: bool = False,
) -> RunOutcome:
    """How the check ended; ``goal_limit``: its limit was the goal's time limit."""
    status = proc.returncode
    exit_status: int | None = None
    signum: int | None = None
    message = ""
    if timed_out:
        ending = Ending.TIMEOUT
        message = limit_message
    elif status < 0:
        ending = Ending.SIGNALLED
        signum = -status
    else:
        ending = Ending.EXITED
        exit_status = status
    return RunOutcome(
        ending=ending,
        exit_status=exit_status,
        signal=signum,
        elapsed=max(elapsed, 0.0),
        stdout=tails["stdout"].summary(),
        stderr=tails["stderr"].summary(),
        message=message,
        goal_limit=timed_out and goal_limit,
    )


_MAX_FD = 1 << 20
"""Above every descriptor a process has here (``os.closerange`` stops at the real limit)."""


POLL_SECONDS = 0.2
"""How often :func:`call_bounded` asks its ``poll`` whether to stop waiting."""


class BoundedCallFailed(Exception):
    """The child of :func:`call_bounded` ended without an answer (it raised, or was killed)."""


def call_bounded(
    work: Callable[[], bytes], *, timeout: float, poll: Callable[[], None] | None = None
) -> bytes | None:
    """What ``work()`` returns, computed in a forked child of this process; None when it did
    not finish within ``timeout`` seconds (the child is then killed).

    For pure work that no other thread can stop, such as a regular expression search that
    backtracks without end in ``re``'s C code in a worker thread: the child is another process, so
    killing it ends the work wherever it is. The child shares this process's memory as it was
    at the fork (nothing is copied to it), sends back only the bytes ``work`` returns, and ends
    with ``os._exit`` (no buffer of this process is flushed twice). It leads a process group of
    its own, registered with the guard like a check's (see :func:`_guard_say`), and keeps no
    descriptor but its answer's pipe: should this process die without killing it, even by
    SIGKILL, the guard ends it, and else SIGALRM, with its default action, ends it two
    seconds after ``timeout``. Ctrl-C, or any exception while waiting, kills the child before it
    propagates. Raises :class:`BoundedCallFailed` when the child ended without an answer.
    ``poll`` is called every :data:`POLL_SECONDS` while waiting: what it raises (a cancelled
    ``--jobs`` worker) ends the wait, and the child, as well."""
    read_end, write_end = os.pipe()
    _guard_say("?")
    pid = 0
    try:
        with interrupts_wait():  # an interrupt right after the fork would lose the child
            try:
                pid = os.fork()
            except Exception:
                _guard_say("!")
                raise
            if pid == 0:
                _bounded_child(work, write_end, timeout)
            with contextlib.suppress(OSError):  # the child may have done it, or ended, already
                os.setpgid(pid, pid)
            _guard_say(f"+{pid}")
    except BaseException:
        os.close(read_end)
        os.close(write_end)
        if pid:  # an interrupt came while it started
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            _guard_say(f"-{pid}")
        raise
    os.close(write_end)
    chunks: list[bytes] = []
    answered = False
    deadline = time.monotonic() + max(timeout, 0.0)
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(read_end, selectors.EVENT_READ)
            while (left := deadline - time.monotonic()) > 0:
                if not selector.select(min(left, POLL_SECONDS) if poll else left):
                    if poll is not None:
                        poll()
                    continue
                data = os.read(read_end, CHUNK_SIZE)
                if not data:
                    answered = True
                    break
                chunks.append(data)
    finally:
        os.close(read_end)
        if not answered:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        _guard_say(f"-{pid}")
    if not answered:
        return None
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        code = os.waitstatus_to_exitcode(status)
        ended = f"by signal {-code}" if code < 0 else f"with exit status {code}"
        raise BoundedCallFailed(f"the search process ended {ended}")
    return b"".join(chunks)


def _bounded_child(work: Callable[[], bytes], write_end: int, timeout: float) -> NoReturn:
    """The child of :func:`call_bounded`: ``work()``'s answer written to ``write_end``, then
    ``os._exit``, with no Python-level cleanup whatever happens."""
    code = 1
    try:
        os.setpgid(0, 0)  # a group of its own, which the guard ends should goalfile die
        # nothing of this process's but the answer's pipe: not the guard's pipe (whose
        # end of input tells the guard goalfile is gone), not a lock, not a check's pipe
        os.closerange(0, write_end)
        os.closerange(write_end + 1, _MAX_FD)
        for signum in (signal.SIGALRM, signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_DFL)
        signal.alarm(max(int(timeout) + 2, 2))
        view = memoryview(work())
        while view:
            view = view[os.write(write_end, view) :]
        code = 0
    finally:
        os._exit(code)


class _TimeUp(Exception):
    """Raised by :func:`call_timed`'s SIGALRM handler in the work it interrupts."""


def _time_up(signum: int, frame: object) -> None:
    raise _TimeUp


def can_time_here() -> bool:
    """Whether :func:`call_timed` can stop work in this thread: only the main thread runs
    signal handlers."""
    return threading.current_thread() is threading.main_thread()


def call_timed(work: Callable[[], bytes], *, timeout: float) -> bytes | None:
    """What ``work()`` returns, computed here, in the main thread; None when it did not finish
    within ``timeout`` seconds (an interval timer's SIGALRM then raises inside it).

    Much lighter than :func:`call_bounded` (no process), and enough for a search in ``re``,
    whose C code lets the main thread's signal handlers run every few thousand steps. A timer
    set before (the Stop hook's last resort, whose SIGALRM ends the process) is put back with
    what was left of it; one due sooner than ``timeout`` is left alone to end the process. Call
    it only where :func:`can_time_here` is true."""
    timeout = max(timeout, 0.001)
    started = time.monotonic()
    before, _ = signal.setitimer(signal.ITIMER_REAL, 0)
    if 0 < before <= timeout:
        signal.setitimer(signal.ITIMER_REAL, before)  # it ends the process first
        return work()
    handler = signal.signal(signal.SIGALRM, _time_up)
    answer: bytes | None = None
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, timeout)
            answer = work()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _TimeUp:
        answer = None
    finally:
        signal.signal(signal.SIGALRM, handler)
        if before > 0:
            left = before - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))
    return answer


def syntax_error(
    *,
    shell: str,
    command: str,
    cwd: str,
    env: Mapping[str, str],
    timeout: float = SYNTAX_TIMEOUT,
) -> str | None:
    """What the shell's ``-n`` (parse only) says about ``command``; None when it parses.

    Also None when the syntax could not be checked (missing shell or cwd, timeout, a shell
    killed by a signal): :func:`run_check` then reports the real problem.
    """
    try:
        child = _spawn(
            [shell, "-n", "-c", command],
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    except (OSError, ValueError):
        return None
    try:
        _, stderr = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    finally:
        _signal_group(child.pid, signal.SIGKILL)  # a parse leaves nothing worth a grace
        child.communicate()
        _guard_say(f"-{child.pid}")
    if child.returncode <= 0:
        return None
    return first_message_line(stderr) or (
        f"shell {shell} rejected the command (exit {child.returncode})"
    )


PROBE_TIMEOUT = 10.0
"""Seconds a shell may take to answer :func:`probe`."""

PROBE_OUTPUT_MAX = 4096
"""Bytes of a probe's stdout that are kept (a shell's answer is one short line)."""


def probe(
    *,
    shell: str,
    command: str,
    cwd: str,
    env: Mapping[str, str],
    timeout: float = PROBE_TIMEOUT,
) -> tuple[int | None, bytes] | None:
    """Run ``[shell, "-c", command]`` to see whether ``shell`` is one: its exit status (None
    when a signal ended it or it outlasted ``timeout``) and the start of its stdout.

    None when it could not be started (missing shell or cwd): :func:`run_check` then reports
    the real problem."""
    try:
        child = _spawn(
            [shell, "-c", command],
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, ValueError):
        return None
    out = child.stdout
    assert out is not None
    kept = b""
    status: int | None = None
    deadline = time.monotonic() + timeout
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(out, selectors.EVENT_READ)
            while (left := deadline - time.monotonic()) > 0 and selector.select(left):
                chunk = os.read(out.fileno(), CHUNK_SIZE)  # to the end: a chatty one cannot block
                if not chunk:
                    break
                kept += chunk[: max(PROBE_OUTPUT_MAX - len(kept), 0)]
        with contextlib.suppress(subprocess.TimeoutExpired):
            status = child.wait(timeout=max(deadline - time.monotonic(), 0.001))
    finally:
        _signal_group(child.pid, signal.SIGKILL)  # whatever it left in its group
        out.close()
        child.wait()
        _guard_say(f"-{child.pid}")
    return (status if status is not None and status >= 0 else None), kept


__all__ = [
    "CHUNK_SIZE",
    "KILL_GRACE",
    "LINGER",
    "CheckSpec",
    "Ending",
    "RunOutcome",
    "probe",
    "run_check",
    "syntax_error",
]


def converse(
    argv: list[str],
    *,
    requests: list[str],
    done: Callable[[str], bool],
    cwd: str,
    env: Mapping[str, str],
    timeout: float = 30.0,
    max_lines: int = 1000,
) -> str | None:
    """Write ``requests`` (one line each) to a line-oriented server's stdin and read its stdout
    until a line for which ``done(line)`` is true; that line, or None when the server ended,
    printed ``max_lines`` lines or took ``timeout`` seconds without one. The server's process
    group is ended either way. Raises :class:`OSError` when it cannot be started."""
    child = _spawn(
        argv,
        env=env,
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert child.stdin is not None and child.stdout is not None
    deadline = time.monotonic() + timeout
    pending = b""
    try:
        with contextlib.suppress(BrokenPipeError):
            child.stdin.write("".join(line + "\n" for line in requests).encode())
            child.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(child.stdout, selectors.EVENT_READ)
            seen = 0
            while seen < max_lines:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return None
                chunk = os.read(child.stdout.fileno(), 65536)
                if not chunk:
                    return None
                pending += chunk
                while b"\n" in pending and seen < max_lines:
                    raw, pending = pending.split(b"\n", 1)
                    seen += 1
                    line = raw.decode("utf-8", errors="replace")
                    if done(line):
                        return line
            return None
    finally:
        _end_group(child)
        child.stdin.close()
        child.stdout.close()
