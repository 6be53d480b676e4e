"""Run one check as a real process, in bounded memory, and say how it ended.

This is the only module of goalfile that imports :mod:`subprocess`. It knows nothing about
goal files, verdicts or the ``expected`` language: it starts ``[shell, "-c", command]``,
streams both pipes to a callback, keeps a bounded tail of each stream, enforces the time
limits, and makes sure that no process of the check is left behind.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import IO, TYPE_CHECKING, NoReturn

from goalfile import gitlimit
from goalfile.goalfolders import GOAL_FOLDERS
from goalfile.startwait import interrupts_wait
from goalfile.tail import (
    EMPTY_STREAM,
    MAX_HEAD_BYTES,
    MAX_TAIL_BYTES,
    OutputTail,
    StreamSummary,
)

if TYPE_CHECKING:
    from goalfile.errors import UsageError
    from goalfile.gitobjects import Object

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


# nothing compares, hashes or prints one: no __eq__, __hash__ or __repr__ is built for it
@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class CheckSpec:
    """What to run and where. ``env`` is the complete environment of the child."""

    command: str
    shell: str  # e.g. "/bin/sh"; run as [shell, "-c", command]
    cwd: str
    env: Mapping[str, str]
    timeout: float | None  # seconds for this check; None = unlimited


class Ending(StrEnum):
    EXITED = "exited"
    SIGNALLED = "signalled"
    TIMEOUT = "timeout"
    NOT_STARTED = "not_started"


# nothing compares, hashes or prints one: no __eq__, __hash__ or __repr__ is built for it
@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class RunOutcome:
    """How a check ended. ``message`` explains TIMEOUT and NOT_STARTED, else it is ""."""

    ending: Ending
    exit_status: int | None  # set when EXITED
    signal: int | None  # set when SIGNALLED
    elapsed: float
    stdout: StreamSummary
    stderr: StreamSummary
    message: str
    goal_limit: bool = False  # TIMEOUT by the goal's time limit (``deadline``), not the check's


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

_GUARD_CODE = """
import os, signal, sys, time
mark = sys.argv[1].encode()
proc = sys.argv[2] if len(sys.argv) > 2 else "/proc"
def read(pid, name):
    try:
        with open("%s/%s/%s" % (proc, pid, name), "rb") as handle:
            return handle.read()
    except OSError:
        return None
def stat(pid):  # the fields of /proc/PID/stat after the command's name, from the state on
    text = read(pid, "stat")
    return text[text.rfind(b")") + 2:].split() if text else []
def layout(fields):  # where the stack, arguments and environment lie: a fork keeps them
    return b" ".join(fields[i] for i in (25, 45, 46, 47, 48)) if len(fields) > 48 else None
owner = os.getppid()
twin = [None, None, None, None]  # command line, environment, layout, parent: goalfile's
mine = stat(os.getpid())
born = int(mine[19]) if len(mine) > 19 else None  # None: no /proc (macOS, BSD), no twins
groups, pending = set(), 0
for line in sys.stdin:
    word = line.strip()
    if word[:1] == "=":  # goalfile's command line and environment, in hex
        twin[int(word[1])] = bytes.fromhex(word[2:])
    elif word == "?":
        pending += 1
    elif word == "!":
        pending -= 1
    elif word[:1] == "+":
        pending -= 1
        groups.add(int(word[1:]))
    elif word[:1] == "-":
        groups.discard(int(word[1:]))
if groups or pending > 0:
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    me = os.getpid()
    quiet = 0
    for _ in range(50):
        found = 0
        try:
            entries = os.listdir(proc)
        except OSError:  # no /proc: the groups above were all that can be found
            break
        for entry in entries:
            if not entry.isdigit() or int(entry) in (me, owner):
                continue
            environ = read(entry, "environ")
            if environ is None:
                continue
            marked = mark in environ.split(b"\\0")
            if not marked and None not in twin and born is not None and environ == twin[1]:
                fields = stat(entry)
                marked = (
                    read(entry, "cmdline") == twin[0]
                    and layout(fields) == twin[2]
                    and fields[1] != twin[3]  # an orphan: a new goalfile has a live parent
                    and int(fields[3]) == int(entry)  # it leads its own session
                    and int(fields[19]) >= born
                )
            if marked:
                found += 1
                for kill in (lambda: os.killpg(os.getpgid(int(entry)), signal.SIGKILL),
                             lambda: os.kill(int(entry), signal.SIGKILL)):
                    try:
                        kill()
                    except OSError:
                        pass
        quiet = 0 if found else quiet + 1
        if quiet == 2:
            break
        time.sleep(0.02)
"""
"""The guard takes the mark (``NAME=VALUE``) and, for a test, the folder to read instead of
``/proc``. It reads ``=0HEX`` to ``=3HEX`` (goalfile's ``/proc`` command line, environment and
memory layout, and its parent's pid, sent when it starts), ``?`` (a process is about to start),
``+PGID`` (it started and leads that process group), ``!`` (it did not start) and ``-PGID`` (its
group was ended). At end of input (goalfile has ended, however: even SIGKILL closes the pipe) it
kills every group still registered and, when any was registered or about to be, every process
still carrying this goalfile's :data:`RUN_VARIABLE` value: those that left their group, and a
check that started in the moment before its group was registered. A check caught between its
fork and its exec has goalfile's command line, environment and memory layout (where its stack,
arguments and environment lie, which an exec moves), not yet the mark, already leads a session
of its own (its copy of the pipe closes after ``setsid``) and, goalfile being dead, has another
parent than goalfile's: the guard kills such a twin too. A goalfile started again with the same
command line is none: its layout differs, and its parent is the one that started it. The guard
scans until two scans in a row find nothing, so a process that execs meanwhile is found by its
mark. Without ``/proc`` (macOS, BSD) it kills the registered groups and scans nothing."""

_guard: subprocess.Popen[bytes] | None = None
_guard_lock = threading.Lock()
_run_mark = ""


def _guard_say(line: str) -> None:
    """Tell the guard about a check's process group (see :data:`_GUARD_CODE`).

    The guard is a small process in its own session, started before the first check. It holds
    the read end of a pipe whose write end only goalfile has (checks never inherit it): when
    goalfile dies, even by SIGKILL, the guard reads end of input and kills the processes of the
    checks still running, which would otherwise run on as orphans."""
    global _guard
    with _guard_lock:
        try:
            if _guard is None or _guard.poll() is not None:
                _guard = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-c", _GUARD_CODE, _mark_entry()],
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


# --------------------------------------------------------------------------- git

GIT_TIMEOUT = gitlimit.GIT_TIMEOUT
"""Seconds one git command may take before the read is given up, outside a shorter limit
(:mod:`goalfile.gitlimit`: the Stop hook's)."""


class GitTimedOut(Exception):
    """A git command did not end within its time limit; it was killed (with its process
    group). Its message names the command and the limit."""


_FETCH_CI = "in CI, check out with fetch-depth: 0 so the base branch is there"
_FETCH_HINT = f"`git branch --all` lists the branches to name; fetch one first ({_FETCH_CI})"


def git_show(
    *, ref: str, path: str, cwd: str, env: Mapping[str, str] | None = None
) -> bytes | None:
    """The bytes of ``path`` at the git revision ``ref`` (``git show REF:./PATH``, run in ``cwd``).

    ``path`` is relative to ``cwd``. None when the path does not exist at ``ref`` (or is not a
    file there). Raises :class:`~goalfile.errors.UsageError` when ``ref`` names no commit of the
    repository, when ``cwd`` is not inside a git repository, or when git cannot be run. Blobs
    are shown as stored: no textconv, no smudge filter.
    """
    from goalfile.errors import UsageError

    git = _history_git(cwd, env)
    spec = f"{_commit(git, ref, cwd)}:./{path}"
    kind = git("cat-file", "-t", spec)
    if kind.returncode != 0 or kind.stdout.strip() != b"blob":
        return None
    shown = git("show", spec)
    if shown.returncode != 0:
        raise UsageError(f"git show {ref}:{path} failed: {first_message_line(shown.stderr)}")
    return shown.stdout


def git_is_link(*, ref: str, path: str, cwd: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether the git revision ``ref`` holds a symbolic link (mode 120000) at ``path``
    (relative to ``cwd``); raises as :func:`git_show` does."""
    git = _history_git(cwd, env)
    listed = git("ls-tree", "-z", _commit(git, ref, cwd), "--", f"./{path}")
    return listed.returncode == 0 and listed.stdout.startswith(b"120000 ")


def git_tree_goal_paths(*, ref: str, cwd: str, folders: Sequence[str] = GOAL_FOLDERS) -> list[str]:
    """The ``*.md`` files under ``folders`` (``goals/`` and ``.zetetic/goals/``) of ``cwd`` at
    the git revision ``ref``, as committed, relative to ``cwd``, each name as git stores it (no
    C quoting, no splitting at spaces). Raises :class:`~goalfile.errors.UsageError` as
    :func:`git_show` does."""
    from goalfile.errors import UsageError

    git = _history_git(cwd, None)
    commit = _commit(git, ref, cwd)
    listed = git("ls-tree", "-r", "-z", "--name-only", commit, "--", *folders)
    if listed.returncode != 0:
        raise UsageError(f"git ls-tree {ref} failed: {first_message_line(listed.stderr)}")
    names = [os.fsdecode(name) for name in listed.stdout.split(b"\0") if name]
    return [name for name in names if name.endswith(".md")]


def git_environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of every git command goalfile runs: ``env`` (else this process's)
    without the variables that point git at another repository, work tree or index
    (``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_INDEX_FILE``...: a git hook runs with them set, and
    a shell may export them), so that git asks the repository at the folder it runs in; and
    history as committed: no replace ref (`git replace`) and no graft (``.git/info/grafts``,
    which `--no-replace-objects` leaves on: one line there gave HEAD main as its parent, and
    `audit --against main` never read the commit that held the person's approval).

    One rule for every runner (:func:`_history_git`, :func:`git_toplevel`,
    :func:`_git_clean`): history read with ``GIT_DIR`` kept while the tracked goal files were
    listed without it let `audit --against main` compare a goal with another repository's
    ``main``. A command that means another index says so itself (``GIT_INDEX_FILE`` set after
    this, as `activate --commit` does)."""
    return {
        **_undirected(env if env is not None else os.environ),
        "GIT_NO_REPLACE_OBJECTS": "1",
        "GIT_GRAFT_FILE": os.devnull,
    }


def _history_git(
    cwd: str, env: Mapping[str, str] | None
) -> Callable[..., subprocess.CompletedProcess[bytes]]:
    """``git ARGS`` run in ``cwd`` on history as committed: a replace ref (`git replace`)
    could show another contract. Every way git cannot be run is a usage error."""
    from goalfile.errors import UsageError

    if not os.path.isdir(cwd):
        raise UsageError(f"{cwd} is not a folder; git cannot run there")
    history_env = git_environment(env)

    def git(*args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        try:
            return _git_in(cwd, ["--no-replace-objects", *args], history_env, data=data)
        except FileNotFoundError:
            raise UsageError(
                "git is not installed (or not on PATH); --against needs it",
                hint="install git, or run without --against",
            ) from None
        except GitTimedOut as exc:
            raise UsageError(str(exc)) from None
        except (OSError, ValueError) as exc:
            raise UsageError(f"git cannot be run in {cwd}: {exc}") from None

    return git


def _commit(git: Callable[..., subprocess.CompletedProcess[bytes]], ref: str, cwd: str) -> str:
    """The commit ``ref`` names in the repository at ``cwd``; a usage error when it names
    none, or when ``cwd`` is in no repository."""
    from goalfile.errors import UsageError

    if not ref.strip() or ref.startswith("-"):
        raise UsageError(f"{ref!r} is not a git revision", hint=_FETCH_HINT)
    inside = git("rev-parse", "--git-dir")
    if inside.returncode != 0:
        raise UsageError(
            f"{cwd} is not inside a git repository: {first_message_line(inside.stderr)}",
            hint="run it in a clone of the repository, or check the ledgers alone, without "
            "--against: `goalfile audit`",
        )
    commit = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if commit.returncode != 0:
        raise _unknown_ref(git, ref)
    meanings = ref_meanings(git, ref, cwd)
    if len(meanings) > 1:
        from goalfile.shellword import shell_word

        name = _ref_name(ref)
        refs = [m for m in meanings if m.startswith("refs/")]
        full = next((m for m in refs if m.startswith(("refs/remotes/", "refs/heads/"))), None)
        if full is not None and full + ref[len(name) :] != ref:
            hint = f"name the full ref: `--against {shell_word(full + ref[len(name) :])}`"
        else:  # a pseudo-ref such as HEAD, or a commit, shadowed by a ref of that name
            hint = f"delete the ref that shadows it: `git update-ref -d {shell_word(refs[-1])}`"
        raise UsageError(
            f"the git revision {ref!r} is ambiguous: {name!r} names "
            + " and ".join(meanings)
            + " (git takes the first, so a tag or branch pushed under that name would decide "
            "what is compared)",
            hint=hint,
        )
    return commit.stdout.decode("ascii", errors="replace").strip()


_BASE_BRANCHES = ("main", "master", "trunk", "develop")


def _unknown_ref(git: Callable[..., subprocess.CompletedProcess[bytes]], ref: str) -> UsageError:
    """The error for an ``--against`` revision that names no commit, with the branch of this
    repository it most likely meant (one of the same last name, `master` for `main`, a
    remote-tracking one) in its place: the CLI boundary makes the fix the same command line
    with that revision. Else the fix is how to list the branches."""
    from goalfile.errors import MeantOther, UsageError

    message = f"unknown git revision {ref!r}"
    name = _ref_name(ref)
    listed = git("for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes")
    refs = listed.stdout.decode("utf-8", "surrogateescape").splitlines()
    heads = [r.removeprefix("refs/heads/") for r in refs if r.startswith("refs/heads/")]
    remotes = [
        r.removeprefix("refs/remotes/")
        for r in refs
        if r.startswith("refs/remotes/") and not r.endswith("/HEAD")
    ]
    last = name.rsplit("/", 1)[-1]
    meant: str | None = None
    for pool in (heads, remotes):
        same = [branch for branch in pool if branch.rsplit("/", 1)[-1] == last]
        if len(same) == 1:
            meant = same[0]
            break
    if meant is None and last in _BASE_BRANCHES:
        bases = [b for b in _BASE_BRANCHES if b in heads] or [
            branch for branch in remotes if branch.rsplit("/", 1)[-1] in _BASE_BRANCHES
        ]
        meant = bases[0] if len(bases) == 1 else None
    if meant is None or meant == name or listed.returncode != 0:
        return UsageError(message, hint=_FETCH_HINT)
    why = f" ({name!r} is no branch here; {meant!r} is); {_FETCH_CI}"
    return MeantOther(
        message,
        given=ref,
        instead=meant + ref[len(name) :],
        hint=f"name `{meant + ref[len(name) :]}` as the revision{why}",
        why=why,
    )


_REF_END = re.compile(r"[~^:]|@\{|[*?\[\\]")
_PSEUDO_REF = re.compile(r"[A-Z][A-Z0-9_]*")
_HEX = re.compile(r"[0-9a-fA-F]{4,64}")


def _ref_name(ref: str) -> str:
    """The name at the start of a revision: ``origin/main`` of ``origin/main~2``."""
    end = _REF_END.search(ref)
    return ref[: end.start()] if end else ref


def ref_meanings(
    git: Callable[..., subprocess.CompletedProcess[bytes]], ref: str, cwd: str
) -> list[str]:
    """Everything the name at the start of ``ref`` names, in the order git tries them
    (gitrevisions(7)): a pseudo-ref such as ``HEAD``, ``refs/NAME``, ``refs/tags/NAME``,
    ``refs/heads/NAME``, ``refs/remotes/NAME``, ``refs/remotes/NAME/HEAD``, and the commit a
    hexadecimal name abbreviates. More than one means git chose by that order alone: a tag
    ``origin/main`` comes before the remote-tracking branch ``refs/remotes/origin/main``."""
    name = _ref_name(ref)
    if not name or name.startswith("-"):
        return []
    found: list[str] = []
    if _PSEUDO_REF.fullmatch(name):  # HEAD, FETCH_HEAD: a file in the git folder
        where = git("rev-parse", "--git-path", name)
        path = os.fsdecode(where.stdout.strip())
        if where.returncode == 0 and os.path.isfile(os.path.join(cwd, path)):
            found.append(name)
    candidates = [
        name if name.startswith("refs/") else f"refs/{name}",
        f"refs/tags/{name}",
        f"refs/heads/{name}",
        f"refs/remotes/{name}",
        f"refs/remotes/{name}/HEAD",
    ]
    if name.startswith("refs/"):
        candidates.insert(1, f"refs/{name}")
    listed = git("for-each-ref", "--format=%(refname)", "--", *dict.fromkeys(candidates))
    if listed.returncode == 0:
        present = set(listed.stdout.decode("utf-8", "surrogateescape").splitlines())
        if name.startswith("refs/") and name in present:
            # a full ref that exists is itself: git takes it first, and no ref pushed under
            # another name (a tag `refs/remotes/origin/main`) can shadow it
            return [name]
        found += [c for c in dict.fromkeys(candidates) if c in present and c not in found]
    if found and _HEX.fullmatch(name):
        objects = git("rev-parse", f"--disambiguate={name}")
        if objects.returncode == 0 and objects.stdout.strip():
            found.append(f"the commit {name}")
    return found


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


_DISCOVERY_VARIABLES = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_NAMESPACE",
)


_NO_PROGRAMS = ("-c", "core.fsmonitor=false", "-c", "log.showSignature=false")
"""Options of every git command goalfile runs: git runs no program the repository's (or the
user's) configuration names for what goalfile asks, which anyone with a shell can set without
a trace in git: a file system monitor (``core.fsmonitor``, run whenever git reads the index)
or ``gpg.program`` (run by ``git log`` for a signed commit when ``log.showSignature`` is set).
Under the Stop hook such a program ran inside the hook, before it had closed its processes,
and forged its answer. (The reads of the working repository also fetch nothing:
:func:`_git_clean`.)"""


def _git_in(
    folder: str, args: Sequence[str], env: Mapping[str, str], *, data: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``git ARGS`` run in ``folder`` with ``env``, ``data`` (else nothing) as its input, its
    output captured, within the time :func:`goalfile.gitlimit.seconds` gives. When that time
    is up (or anything else ends the wait), git and every process it started are killed
    (:func:`_kill_tree`: SIGTERM, then SIGKILL), so nothing is left waiting; git stays in
    goalfile's process group, so a signal a host or a terminal sends that group (Claude Code's
    SIGTERM at its hook timeout, Ctrl-C) reaches it too. Raises :class:`GitTimedOut` at the
    limit (also when no time is left to start it), else what ``subprocess.Popen`` raises."""
    limit = gitlimit.seconds()
    shown = f"git {_subcommand(args)}"
    if limit <= 0:
        raise GitTimedOut(f"`{shown}` was not run: no time was left for it")
    proc: subprocess.Popen[bytes] | None = None
    try:
        with interrupts_wait():  # raised once git's pid is known, so that git is killed too
            proc = subprocess.Popen(
                ["git", *_NO_PROGRAMS, *args],
                cwd=folder,
                env=env,
                stdin=subprocess.DEVNULL if data is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                close_fds=True,
            )
        out, errors = proc.communicate(data, timeout=limit)
    except BaseException as exc:
        if proc is None:
            raise
        _kill_tree(proc)
        if isinstance(exc, subprocess.TimeoutExpired):
            gitlimit.hung()
            raise GitTimedOut(
                f"`{shown}` did not answer within {format_seconds(round(limit, 1))} and was killed"
            ) from None
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, errors)


def _descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs, as ``/proc`` lists them now (Linux; none
    elsewhere)."""
    found: list[int] = []
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children", "rb") as handle:
                    children = [int(word) for word in handle.read().split()]
            except (OSError, ValueError):
                continue
            found += children
            waiting += children
    return found


GIT_TERM_GRACE = 0.5
"""Seconds a git killed at its time limit has between SIGTERM and SIGKILL to remove its locks."""


def _kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """End ``proc`` and every process it started: SIGTERM first, so that git removes the lock
    files it holds (a ``.git/index.lock`` left by a SIGKILL made every later `git add` and
    commit fail until a person removed it), then, after :data:`GIT_TERM_GRACE` at most,
    SIGKILL; reap it, and read what is left in its pipes for a second at most (a process that
    left its tree may hold them)."""
    tree = (*_descendants(proc.pid), proc.pid)
    for pid in tree:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=GIT_TERM_GRACE)
    for pid in tree if proc.returncode is None else tree[:-1]:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    try:
        proc.communicate(timeout=1.0)
    except subprocess.TimeoutExpired:
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
    proc.wait()


def _subcommand(args: Sequence[str]) -> str:
    """The git command ``args`` run (``ls-files``), past options and ``-c NAME=VALUE``."""
    after_c = False
    for arg in args:
        if not after_c and not arg.startswith("-"):
            return arg
        after_c = arg == "-c"
    return ""


def _undirected(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without the variables that would point git elsewhere (``GIT_DIR``...)."""
    return {k: v for k, v in env.items() if k not in _DISCOVERY_VARIABLES}


def git_toplevel(folder: str, *, env: Mapping[str, str] | None = None) -> str | None:
    """``git rev-parse --show-toplevel`` run in ``folder``: the top of the work tree git finds
    from there, or None when git finds none (or rejects what it finds, such as an empty
    ``.git`` file), in :func:`git_environment`. Raises OSError when git cannot be run at all.
    """
    clean = git_environment(env)
    try:
        done = _git_in(folder, ["rev-parse", "--show-toplevel"], clean)
    except (GitTimedOut, ValueError):
        return None
    top = done.stdout.decode("utf-8", "surrogateescape").strip()
    return top if done.returncode == 0 and top else None


class GitUnreadable(Exception):
    """git could not list or read a repository (its message says why, in git's words). An
    internal signal between git's runner and the Stop hook, which names it in a hold; not a
    :class:`goalfile.errors.GoalfileError`. With ``branches``: HEAD names no commit although
    the repository holds these branches, and ``ref`` is the one HEAD was on before it moved
    (when git's records name one alone); with ``hung``: git did not answer within its time
    limit; with ``safe_directory``: git refuses the repository at that path as owned by
    another user; with ``forged``: an object git read is not what its name says
    (:mod:`goalfile.gitobjects`)."""

    def __init__(
        self,
        message: str,
        *,
        ref: str | None = None,
        branches: tuple[str, ...] = (),
        hung: bool = False,
        safe_directory: str | None = None,
        forged: bool = False,
    ) -> None:
        super().__init__(message)
        self.ref = ref
        self.branches = branches
        self.hung = hung  # git did not answer within its time limit and was killed
        self.safe_directory = safe_directory
        self.forged = forged  # an object git read does not hash to its name


def _git_said(done: subprocess.CompletedProcess[bytes]) -> str:
    """git's error: its ``fatal:`` and ``error:`` lines, each with the indented lines right
    below it (``unknown repository extension found:`` and the extension's name), joined, and
    not the advice git may print after them (the command that marks a repository safe, for
    one); else its last line."""
    lines = done.stderr.decode("utf-8", "replace").splitlines()
    said: list[str] = []
    taking = False
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            said.append(line.strip())
            taking = True
        elif taking and line[:1] in (" ", "\t") and line.strip():
            said.append(line.strip())
        else:
            taking = False
    rest = [line.strip() for line in lines if line.strip()]
    return " ".join(said) if said else rest[-1] if rest else f"git exited {done.returncode}"


_DUBIOUS = "fatal: detected dubious ownership in repository at '"


def _git_refused(done: subprocess.CompletedProcess[bytes]) -> GitUnreadable:
    """git's failure as :class:`GitUnreadable`; for a repository another user owns ("detected
    dubious ownership"), with the folder it names, as the path itself: the ``fatal:`` line
    holds it between quotes as it is, while git's advice (``git config --global --add
    safe.directory PATH``) shell-quotes a path with a space or a quote, which is read back
    as one shell word (a path kept with those quotes is another path, and git would still
    refuse the repository)."""
    import shlex

    said = _git_said(done)
    safe = None
    if "dubious ownership" in said:
        lines = done.stderr.decode("utf-8", "surrogateescape").splitlines()
        for line in lines:
            line = line.strip()
            if line.startswith(_DUBIOUS) and line.endswith("'") and len(line) > len(_DUBIOUS):
                safe = line[len(_DUBIOUS) : -1]
                break
            _, found, path = line.partition("--add safe.directory ")
            if found and path:
                try:
                    words = shlex.split(path)
                except ValueError:
                    continue
                if len(words) == 1:
                    safe = words[0]
    return GitUnreadable(said, safe_directory=safe)


def _git_clean() -> dict[str, str]:
    """:func:`git_environment` of this process, in the C locale (git's messages are read), for
    goalfile's reads (and stagings) of the working repository, with no transport
    (``protocol.allow=never``): an object a partial clone lacks is not fetched, so a
    ``remote.NAME.uploadpack`` the agent named is never run (under the Stop hook it ran
    inside the hook). `audit --against` reads history through :func:`_history_git`, which
    may fetch what a partial clone lacks."""
    clean = git_environment()
    clean["LC_ALL"] = "C"
    at = clean.get("GIT_CONFIG_COUNT", "0")
    count = int(at) if at.isdigit() else 0
    if not at.isdigit():  # git refuses a count it cannot read: none of those settings counts
        for key in [key for key in clean if key.startswith("GIT_CONFIG_")]:
            del clean[key]
    clean.update(
        {
            f"GIT_CONFIG_KEY_{count}": "protocol.allow",
            f"GIT_CONFIG_VALUE_{count}": "never",
            "GIT_CONFIG_COUNT": str(count + 1),
        }
    )
    return clean


def git_tracked(folder: str, pathspecs: Sequence[str]) -> bytes:
    """``git ls-files -v -z --with-tree=HEAD -- PATHSPECS`` run in ``folder``: the files the
    index holds under ``pathspecs``, each with its tag (lower case when marked
    assume-unchanged, ``S`` for skip-worktree), and those HEAD holds that the index does not
    (tag ``M``). Without a HEAD commit, in a repository that holds no branch or tag yet, the
    index alone. Variables that would point git elsewhere are left out, replace refs are not
    followed (`git replace` could show HEAD without a file), nor is a file system monitor
    asked (`core.fsmonitor` names a program git runs before it reads the index: one that does
    not return made the read wait ``GIT_TIMEOUT`` and then list nothing). A git that does not
    answer within its limit (:mod:`goalfile.gitlimit`) is killed, and that is an error too.

    Raises :class:`GitUnreadable` when git cannot run, names no repository there, or fails
    on it (a broken index, a repository format it does not know), and when HEAD names no
    commit while the repository holds branches or tags (`git symbolic-ref HEAD
    refs/heads/new`): none of these means that git tracks nothing."""
    clean = _git_clean()
    base = ["--no-replace-objects", "ls-files", "-v", "-z"]
    done = _git_read(folder, [*base, "--with-tree=HEAD", "--", *pathspecs], clean)
    if done.returncode == 0:
        return done.stdout
    if b"HEAD" not in done.stderr:  # not a repository, or a broken one
        raise _git_refused(done)
    head = _git_read(folder, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], clean)
    if head.returncode == 0:  # HEAD names a commit, whose trees git cannot read
        refused = _git_refused(done)  # ("unable to read tree entries HEAD": an object gone)
        refused.forged = b"read" in done.stderr
        raise refused
    refs = _git_read(folder, ["for-each-ref", "--count=1", "--format=%(refname)"], clean)
    if refs.returncode != 0:
        raise _git_refused(refs)
    ref = refs.stdout.decode("utf-8", "surrogateescape").strip()
    if ref:
        was, branches = _branch_before(folder, clean)
        raise GitUnreadable(
            f"HEAD names no commit, but the repository holds {ref}", ref=was, branches=branches
        )
    done = _git_read(folder, [*base, "--", *pathspecs], clean)  # no commit yet: the index
    if done.returncode != 0:
        raise _git_refused(done)
    return done.stdout


def git_in_index(folder: str, relative: str) -> bool:
    """Whether git's index holds the file at ``relative`` (from ``folder``, taken literally):
    `git ls-files --error-unmatch`. False when git cannot say."""
    args = ["--no-replace-objects", "ls-files", "--error-unmatch"]
    try:
        done = _git_read(folder, [*args, "--", f":(literal){relative}"], _git_clean())
    except GitUnreadable:
        return False
    return done.returncode == 0


_INDEX_GIT = ["--no-replace-objects"]


def git_write_blob(folder: str, data: bytes) -> str:
    """Store ``data`` in the repository at ``folder`` as a blob of exactly those bytes (no
    clean filter, no end-of-line conversion that git's attributes name): `git hash-object -w
    --no-filters --stdin`; the blob's id. Raises :class:`GitUnreadable` when git cannot run
    or fails."""
    args = [*_INDEX_GIT, "hash-object", "-w", "--no-filters", "--stdin"]
    done = _git_read(folder, args, _git_clean(), data=data)
    if done.returncode != 0:
        raise _git_refused(done)
    return done.stdout.decode("ascii", "replace").strip()


def git_index_entry(
    folder: str, *, mode: str, blob: str, name: str, index: str | None = None
) -> None:
    """Set the entry ``name`` (from the top of the repository at ``folder``) of git's index,
    or of the index file ``index``, to the blob ``blob`` with ``mode`` (``100644``,
    ``120000``): `git update-index --add --cacheinfo`. Raises :class:`GitUnreadable` when git
    cannot run or fails."""
    env = _git_clean() if index is None else {**_git_clean(), "GIT_INDEX_FILE": index}
    args = [*_INDEX_GIT, "update-index", "--add", "--cacheinfo", f"{mode},{blob},{name}"]
    done = _git_read(folder, args, env)
    if done.returncode != 0:
        raise _git_refused(done)


def git_ignored(folder: str, relative: str) -> bool:
    """Whether git ignores the file at ``relative`` (from the top of the repository at
    ``folder``, taken literally): `git add` refuses it without ``-f``. False when git cannot
    say."""
    args = ["--no-replace-objects", "check-ignore", "-q", "--"]
    try:
        done = _git_read(folder, [*args, relative], _git_clean())  # a pathname, not a pattern
    except GitUnreadable:
        return False
    return done.returncode == 0


def _git_read(
    folder: str, args: Sequence[str], env: Mapping[str, str], *, data: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """:func:`_git_in`, with every way git cannot run, its time limit included, raised as
    :class:`GitUnreadable`."""
    try:
        return _git_in(folder, args, env, data=data)
    except GitTimedOut as exc:
        raise GitUnreadable(str(exc), hung=True) from None
    except (OSError, ValueError) as exc:
        raise GitUnreadable(f"git could not run: {exc}") from None


def _branch_before(folder: str, env: Mapping[str, str]) -> tuple[str | None, tuple[str, ...]]:
    """For a HEAD that names no commit: the branch it was on before it moved, and the
    repository's branches (at most 20). That branch is the only one, or the only one at the
    commit HEAD's reflog last names (`git symbolic-ref HEAD refs/heads/new` and `git checkout
    --orphan` leave HEAD's reflog as it was); None when no single branch is known, never the
    first of their names."""
    heads = ["for-each-ref", "--format=%(refname)"]
    listed = _git_read(folder, [*heads, "--count=20", "refs/heads"], env)
    branches = tuple(listed.stdout.decode("utf-8", "surrogateescape").split("\n")[:-1])
    if listed.returncode != 0 or len(branches) <= 1:
        return (branches[0] if len(branches) == 1 else None), branches
    commit = _reflog_last(folder, env)
    if commit is None:
        return None, branches
    at = _git_read(folder, [*heads, f"--points-at={commit}", "--count=2", "refs/heads"], env)
    found = at.stdout.decode("utf-8", "surrogateescape").split("\n")[:-1]
    return (found[0] if at.returncode == 0 and len(found) == 1 else None), branches


def _reflog_last(folder: str, env: Mapping[str, str]) -> str | None:
    """The commit the last line of HEAD's reflog moved HEAD to (None when there is none): read
    from its end, and only from a regular file (a FIFO there is never waited on)."""
    where = _git_read(folder, ["rev-parse", "--git-path", "logs/HEAD"], env)
    if where.returncode != 0:
        return None
    path = os.path.join(folder, os.fsdecode(where.stdout.rstrip(b"\n")))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        size = os.fstat(fd).st_size if stat.S_ISREG(os.fstat(fd).st_mode) else -1
        tail = os.pread(fd, 4096, max(size - 4096, 0)) if size > 0 else b""
    except OSError:
        return None
    finally:
        os.close(fd)
    fields = tail.rstrip(b"\n").rpartition(b"\n")[2].split(b" ", 2)
    commit = fields[1] if len(fields) == 3 else b""
    if not re.fullmatch(rb"[0-9a-f]{40}|[0-9a-f]{64}", commit) or not commit.strip(b"0"):
        return None
    return commit.decode("ascii")


def git_head_trees(folder: str, folders: Sequence[str]) -> None:
    """Check the trees of HEAD that a listing of ``folders`` (``goals``, ``plans``) reads, and
    every folder on their way and below them: each must hash to its name and be the one its
    parent's tree names, from the commit HEAD names down (:func:`goalfile.gitobjects.
    trees_fault`). One `git ls-tree` and one `git cat-file --batch`. Raises
    :class:`GitUnreadable` when git fails, or when a tree is not what its name says (one
    written over by hand without a goal's entry hid the goal from `git ls-files`)."""
    from goalfile.gitobjects import trees_fault

    paths: set[str] = set()
    if folders:  # (none: the commit and its root tree alone)
        listed = _git_read(
            folder,
            ["--no-replace-objects", "ls-tree", "-r", "-d", "-t", "-z", "--name-only", "HEAD",
             "--", *(f":(top,literal){name}" for name in folders)],
            _git_clean(),
        )  # fmt: skip
        if listed.returncode != 0:
            return  # no commit at HEAD (git_tracked has said what that means)
        paths = {os.fsdecode(name) for name in listed.stdout.split(b"\0") if name}
    for name in folders:  # with the folders on the way, held at HEAD or not
        parts = name.split("/")
        paths.update("/".join(parts[:end]) for end in range(1, len(parts) + 1))
    ordered = sorted(path for path in paths if "\n" not in path)
    wanted = ["HEAD^{commit}", "HEAD^{tree}", *(f"HEAD:{path}" for path in ordered)]
    why = trees_fault(ordered, _cat_file_batch(folder, wanted))
    if why is not None:
        raise _forged("HEAD's goal folders", why)


def _cat_file_batch(folder: str, wanted: Sequence[str]) -> dict[str, Object | None]:
    """What one ``git cat-file --batch`` gives for each of ``wanted``, by name (see
    :func:`goalfile.gitobjects.parse_batch`). Raises :class:`GitUnreadable` when git fails or
    its answer ends early."""
    from goalfile.gitobjects import parse_batch

    data = "".join(f"{ask}\n" for ask in wanted).encode("utf-8", "surrogateescape")
    done = _git_read(
        folder, ["--no-replace-objects", "cat-file", "--batch"], _git_clean(), data=data
    )
    if done.returncode != 0:
        raise _git_refused(done)
    objects = parse_batch(done.stdout, list(wanted))
    if objects is None:
        raise GitUnreadable("git cat-file --batch ended early")
    return objects


def _forged(name: str, why: str) -> GitUnreadable:
    return GitUnreadable(
        f"git's objects do not hold what their names say, for {name}: {why} (an object file "
        "under .git/objects written over by hand, which git reads all the same)",
        forged=True,
    )


def git_blobs(
    folder: str, names: Sequence[str], *, ids: dict[str, str] | None = None
) -> list[bytes | None]:
    """What ``git cat-file --batch`` gives for each of ``names`` (``HEAD:goals/a.md``) in
    ``folder``, in order: the blob's bytes, or None when git holds no blob by that name. One
    process for every name; a name holding a line break is not asked (None). ``ids``, when
    given, gets each blob's object id by its name. Each object read is checked against its
    name, and for ``REV:PATH`` the commit and the trees that lead to the blob too
    (:mod:`goalfile.gitobjects`: git reads an object rewritten by hand as if it were the one
    of that name). Raises :class:`GitUnreadable` when git cannot run or fails, or when an
    object is not what its name says."""
    from goalfile.gitobjects import forged, requests

    asked = [name for name in names if "\n" not in name]
    found: dict[str, bytes | None] = {}
    if asked:
        wanted = list(dict.fromkeys(ask for name in asked for ask in requests(name)))
        objects = _cat_file_batch(folder, wanted)
        for name in asked:
            why = forged(name, objects)
            if why is not None:
                raise _forged(name, why)
            obj = objects.get(name)
            found[name] = obj[2] if obj is not None and obj[1] == "blob" else None
            if ids is not None and obj is not None and obj[1] == "blob":
                ids[name] = obj[0]
    return [found.get(name) for name in names]


def git_index_ids(folder: str, relatives: Sequence[str]) -> dict[str, str]:
    """The object id git's index gives each of ``relatives`` (from the repository's top, taken
    literally) at stage 0: `git ls-files -s`; one not there (not in the index, or only in a
    merge's conflict stages) is left out. Raises :class:`GitUnreadable`."""
    if not relatives:
        return {}
    args = [*_INDEX_GIT, "ls-files", "-s", "-z", "--"]
    done = _git_read(
        folder, [*args, *(f":(top,literal){name}" for name in relatives)], _git_clean()
    )
    if done.returncode != 0:
        raise _git_refused(done)
    found: dict[str, str] = {}
    for line in done.stdout.split(b"\0"):
        head, tab, name = line.partition(b"\t")
        fields = head.split(b" ")
        if tab and len(fields) == 3 and fields[2] == b"0":
            found[os.fsdecode(name)] = fields[1].decode("ascii", "replace")
    return found


def git_path_commits(folder: str, relative: str, *, limit: int) -> list[str]:
    """The newest ``limit`` commits reachable from HEAD that changed the file ``relative``
    (from the repository's top, taken literally), newest first, as ``git rev-list`` gives
    them; empty when HEAD names no commit. Raises :class:`GitUnreadable`."""
    args = ["--no-replace-objects", "rev-list", f"--max-count={limit}", "HEAD", "--"]
    done = _git_read(folder, [*args, f":(top,literal){relative}"], _git_clean())
    if done.returncode != 0:
        if b"unknown revision" in done.stderr or b"bad revision" in done.stderr:
            return []
        raise _git_refused(done)
    return done.stdout.decode("ascii", "replace").split()


def git_head_commit(folder: str) -> str:
    """The commit HEAD resolves to in the repository at ``folder``, as git resolves it (a loose
    or packed branch, a symbolic ref, a ``commondir``: the Stop hook's mark of HEAD read without
    git sees none of those moved by hand); empty when HEAD names no commit or git cannot say.
    One ``git rev-parse``."""
    try:
        done = _git_read(
            folder, ["--no-replace-objects", "rev-parse", "-q", "--verify", "HEAD^{commit}"],
            _git_clean(),
        )  # fmt: skip
    except GitUnreadable:
        return ""
    found = done.stdout.decode("ascii", "replace").strip()
    return found if done.returncode == 0 and re.fullmatch(r"[0-9a-f]{40,64}", found) else ""


def git_commits_named(folder: str, names: Sequence[str]) -> dict[str, str]:
    """Which of ``names`` (``MERGE_HEAD``, ``HEAD^2``) name a commit in the repository of
    ``folder``, each with its full id; one ``git rev-parse`` per name. Raises
    :class:`GitUnreadable` when git cannot run."""
    found: dict[str, str] = {}
    for name in names:
        done = _git_read(
            folder, ["--no-replace-objects", "rev-parse", "-q", "--verify", f"{name}^{{commit}}"],
            _git_clean(),
        )  # fmt: skip
        if done.returncode == 0:
            found[name] = done.stdout.decode("ascii", "replace").strip()
    return found


def git_rebasing(folder: str) -> bool:
    """Whether a rebase is under way in the repository of ``folder`` (its git folder holds
    ``rebase-merge`` or ``rebase-apply``; git leaves REBASE_HEAD behind once it is done).
    Raises :class:`GitUnreadable` when git cannot run."""
    args = ["rev-parse", "--git-path", "rebase-merge", "--git-path", "rebase-apply"]
    done = _git_read(folder, args, _git_clean())
    if done.returncode != 0:
        raise _git_refused(done)
    places = os.fsdecode(done.stdout).split("\n")[:2]
    return any(os.path.isdir(os.path.join(folder, place)) for place in places if place)
