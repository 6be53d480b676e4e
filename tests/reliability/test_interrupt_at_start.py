"""Ctrl-C or SIGTERM that lands while a check is being started still ends the check.

``subprocess.Popen`` (and ``os.fork``) create the child in C code; a signal that arrives
meanwhile is raised by Python as soon as that code returns, so inside ``Popen``, with the child
running and its pid not yet handed back. On a loaded machine that is where a Ctrl-C lands now
and then (tests/test_verify.py saw the check's shell outlive an interrupted `goalfile verify`).
Here the moment is made certain: a real Python process wraps the fork so that it sends itself
the signal right after the child exists, then runs a check (or a search in a forked child) the
way goalfile does. The interrupt must come out as usual, and the child must be gone.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from reliability_support import clean_env, gone, wait_for

PRELUDE = """
import os, signal, subprocess, sys
from goalfile.errors import Terminated

def on_term(signum, frame):
    raise Terminated  # as the command boundary does

signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGINT, signal.default_int_handler)
SIGNUM = int(sys.argv[1])
PIDS = sys.argv[2]
"""

CHECK = """
import time
from goalfile.run import CheckSpec, run_check

real = subprocess._fork_exec
def fork_exec(*args):
    pid = real(*args)
    if os.fsdecode(args[0][-1]) != "exec sleep 60":  # not the check (goalfile's guard)
        return pid
    with open(PIDS, "w") as handle:
        handle.write(str(pid))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not os.path.samefile(f"/proc/{pid}/exe", "/bin/sleep"):
        time.sleep(0.01)  # until the check really runs, as on a loaded machine
    os.kill(os.getpid(), SIGNUM)  # lands while Popen has not yet handed the child back
    return pid
subprocess._fork_exec = fork_exec

spec = CheckSpec(
    command="exec sleep 60", shell="/bin/sh", cwd=".",
    env={"PATH": "/usr/bin:/bin"}, timeout=120,
)
try:
    run_check(spec, on_output=lambda name, data: None)
except KeyboardInterrupt as exc:
    print(type(exc).__name__)
"""

SEARCH = """
import time
from goalfile.run import call_bounded

real = os.fork
def fork():
    pid = real()
    if pid:
        with open(PIDS, "w") as handle:
            handle.write(str(pid))
        os.kill(os.getpid(), SIGNUM)  # lands the moment the child exists
    return pid
os.fork = fork

try:
    call_bounded(lambda: time.sleep(60) or b"", timeout=60)
except KeyboardInterrupt as exc:
    print(type(exc).__name__)
"""

RAISED = {signal.SIGINT: "KeyboardInterrupt", signal.SIGTERM: "Terminated"}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("body", [CHECK, SEARCH], ids=["check", "search"])
def test_an_interrupt_in_the_fork_ends_the_child(
    tmp_path: Path, signum: signal.Signals, body: str
) -> None:
    pids = tmp_path / "child.pid"
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(PRELUDE + body), str(int(signum)), str(pids)],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == RAISED[signum], (done.stdout, done.stderr)
    pid = int(pids.read_text())
    # the run returned after ending its child: it is gone already (a moment for the kernel)
    wait_for(lambda: gone(pid), timeout=5, what=f"the child {pid} to be gone")
