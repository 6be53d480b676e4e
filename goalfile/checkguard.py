"""The guard program: ends the checks a goalfile process leaves behind when it dies.

:func:`goalfile.run.guard_command` starts it as ``python -I -S`` with this module's folder on
its path, so the interpreter loads its cached bytecode instead of compiling it at every start,
and nothing of goalfile's package comes with it: it imports only modules built into the
interpreter (``posix`` rather than ``os``, ``_signal`` rather than ``signal``: what ``os`` adds
to ``posix`` took 6.3 M of the 39 M instructions the guard spent to start, ``signal``'s
enumerations 20 M of 54 M).

It takes the mark (``NAME=VALUE``) and, for a test, the folder to read instead of ``/proc``. It
reads ``=0HEX`` to ``=3HEX`` (goalfile's ``/proc`` command line, environment and memory layout,
and its parent's pid, sent when it starts), ``?`` (a process is about to start), ``+PGID`` (it
started and leads that process group), ``!`` (it did not start) and ``-PGID`` (its group was
ended). At end of input (goalfile has ended, however: even SIGKILL closes the pipe) it kills
every group still registered and, when any was registered or about to be, every process still
carrying this goalfile's :data:`goalfile.run.RUN_VARIABLE` value: those that left their group,
and a check that started in the moment before its group was registered. A check caught between
its fork and its exec has goalfile's command line, environment and memory layout (where its
stack, arguments and environment lie, which an exec moves), not yet the mark, already leads a
session of its own (its copy of the pipe closes after ``setsid``) and, goalfile being dead, has
another parent than goalfile's: the guard kills such a twin too. A goalfile started again with
the same command line is none: its layout differs, and its parent is the one that started it.
The guard scans until two scans in a row find nothing, so a process that execs meanwhile is
found by its mark. Without ``/proc`` (macOS, BSD) it kills the registered groups and scans
nothing."""

import posix as os
import sys
import time
from _signal import SIGKILL  # type: ignore[import-not-found]  # no stub: the C half of `signal`


def _read(proc: str, pid: object, name: str) -> bytes | None:
    try:
        with open(f"{proc}/{pid}/{name}", "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _stat(proc: str, pid: object) -> list[bytes]:
    """The fields of /proc/PID/stat after the command's name, from the state on."""
    text = _read(proc, pid, "stat")
    return text[text.rfind(b")") + 2 :].split() if text else []


def _layout(fields: list[bytes]) -> bytes | None:
    """Where the stack, arguments and environment lie: a fork keeps them."""
    return b" ".join(fields[i] for i in (25, 45, 46, 47, 48)) if len(fields) > 48 else None


def main() -> None:
    mark = sys.argv[1].encode()
    proc = sys.argv[2] if len(sys.argv) > 2 else "/proc"
    owner = os.getppid()
    twin: list[bytes | None] = [None, None, None, None]  # goalfile's command line, environment,
    # layout, parent
    mine = _stat(proc, os.getpid())
    born = int(mine[19]) if len(mine) > 19 else None  # None: no /proc (macOS, BSD), no twins
    groups: set[int] = set()
    pending = 0
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
    if not groups and pending <= 0:
        return
    for group in groups:
        try:  # noqa: SIM105  (contextlib is no built-in module)
            os.killpg(group, SIGKILL)
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
            environ = _read(proc, entry, "environ")
            if environ is None:
                continue
            marked = mark in environ.split(b"\0")
            if not marked and None not in twin and born is not None and environ == twin[1]:
                fields = _stat(proc, entry)
                marked = (
                    _read(proc, entry, "cmdline") == twin[0]
                    and _layout(fields) == twin[2]
                    and fields[1] != twin[3]  # an orphan: a new goalfile has a live parent
                    and int(fields[3]) == int(entry)  # it leads its own session
                    and int(fields[19]) >= born
                )
            if marked:
                found += 1
                try:  # noqa: SIM105
                    os.killpg(os.getpgid(int(entry)), SIGKILL)
                except OSError:
                    pass
                try:  # noqa: SIM105
                    os.kill(int(entry), SIGKILL)
                except OSError:
                    pass
        quiet = 0 if found else quiet + 1
        if quiet == 2:
            break
        time.sleep(0.02)
