"""Signals fired across the whole window in which ``verify`` replaces the goal file.

The message of an interrupted run must tell the truth about the file: "untouched" only when
the file is byte for byte what it was, "was written" only when it holds the new entry, whatever
the moment the signal came. The test watches two moments from outside: the temporary file
appearing beside the goal (the write begins), and the lock's owner file vanishing from the
process's private lock folder (the file has been replaced; the lock is being let go). From
each it waits a delay, stepped in sub-millisecond steps, and fires SIGTERM or SIGINT: the
signals land before, during and after the replace and while the process ends.
``GOALFILE_SIGNAL_RUNS`` sets how many runs (30 by default; the steps get finer with more).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reliability_support import activate, clean_env, goal_text, make_repo, start_goalfile

PROGRAM = str(Path(sys.executable).with_name("goalfile"))  # the installed program
RUNS = int(os.environ.get("GOALFILE_SIGNAL_RUNS", "30"))


class Run:
    """One ``goalfile verify`` whose check reports through the FIFO the moment it has run."""

    def __init__(self, repo: Path, path: Path, fifo: Path, tmp: Path) -> None:
        self.fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.proc = start_goalfile("verify", path, cwd=repo, env={"TMPDIR": str(tmp)})
        self.path = path

    def wait_for_check(self) -> float:
        ready, _, _ = select.select([self.fd], [], [], 30)
        assert ready, "the check never ran"
        return time.perf_counter()

    def close(self) -> tuple[int, str]:
        try:
            _, err = self.proc.communicate(timeout=60)
        finally:
            os.close(self.fd)
            if self.proc.poll() is None:
                self.proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.communicate(timeout=10)
        return self.proc.returncode, err


TRIGGERS = ("the check ran", "the temporary file appeared", "the lock's owner file vanished")
SPANS = (0.003, 0.003, 0.001)  # seconds the delays after each trigger step through


def _moment(path: Path, proc: subprocess.Popen[str], locks: Path, trigger: int) -> float | None:
    """The moment of ``TRIGGERS[trigger]``; None when the process ended first."""
    folder = path.parent
    while proc.poll() is None:
        if trigger == 0:
            return time.perf_counter()
        if trigger == 1 and len(os.listdir(folder)) > 1:
            return time.perf_counter()
        if trigger == 2 and not any(name.endswith(".owner") for name in os.listdir(locks)):
            return time.perf_counter()
    return None


def _sleep_until(moment: float) -> None:
    while time.perf_counter() < moment:  # time.sleep is too coarse for sub-millisecond steps
        pass


def test_the_message_of_a_signal_matches_the_file(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    fifo = repo / "ran"
    os.mkfifo(fifo)
    path = repo / "goals" / "demo.md"
    rows = [("C1", f"echo ran > {fifo}", "exit 0")]
    path.write_text(goal_text(rows=rows), encoding="utf-8")
    activate(path, repo)
    pristine = path.read_bytes()
    tmp = tmp_path / "tmp"  # goalfile's own temporary folder: its lock folder is watched
    tmp.mkdir()
    locks = tmp / f"goalfile-locks-{os.getuid()}"
    outcomes: dict[str, int] = {}
    steps = max(1, RUNS // 6)
    for index in range(RUNS):
        signum = signal.SIGTERM if index % 2 == 0 else signal.SIGINT
        trigger = (index // 2) % 3
        delay = SPANS[trigger] * (index // 6) / steps
        path.write_bytes(pristine)
        run = Run(repo, path, fifo, tmp)
        run.wait_for_check()
        moment = _moment(path, run.proc, locks, trigger)
        if moment is not None:
            _sleep_until(moment + delay)
            with contextlib.suppress(ProcessLookupError):
                run.proc.send_signal(signum)
        code, err = run.close()
        after = path.read_bytes()
        written = after != pristine
        where = f"run {index}: {signum.name} {delay * 1000:.3f} ms after {TRIGGERS[trigger]}"
        where += f": exit {code}"
        assert "Traceback" not in err, f"{where}\n{err}"
        if written:
            text = after.decode("utf-8")
            assert text.count("by verify-goal") == 1 and "status: met" in text, where
        if code in (130, 143):
            says_untouched, says_written = "untouched" in err, "was written" in err
            assert says_untouched != says_written, f"{where}\n{err}"
            assert says_written == written, f"{where}: the message lies\n{err}"
            key = "written, and said so" if written else "untouched, and said so"
            outcomes[key] = outcomes.get(key, 0) + 1
        else:
            assert code in (0, -signum), f"{where}\n{err}"
            assert written, f"{where}: ended without a message and without writing\n{err}"
        stray = [p.name for p in path.parent.iterdir() if p != path]
        assert not stray, f"{where}: left {stray}"
    assert outcomes.get("untouched, and said so") and outcomes.get("written, and said so"), outcomes


# What CPython prints when a Ctrl-C lands while it decides whether argv[0] goes on sys.path;
# it then runs the program as if nothing happened (Modules/main.c, pymain_run_python).
PYTHON_GOES_ON = "Failed checking if argv[0] is an import path entry"


def test_ctrl_c_while_goalfile_starts_is_no_traceback(tmp_path: Path) -> None:
    """SIGINT and SIGTERM in goalfile's first milliseconds (Python still importing it) and
    just after it finished: exit 130 / 143 with the usual message, or the process ended by the
    signal, or the command's own result; never a traceback.

    The installed ``goalfile`` program runs. In its first milliseconds the interpreter itself
    is still starting (``site`` reads the virtual environment's ``.pth`` files, the program's
    wrapper imports ``re``), before any code of goalfile runs; Python prints a Ctrl-C there
    with a traceback of its own and exits 1, or, when the Ctrl-C lands while it looks at its own
    argv[0], prints it and goes on to run the command to its end. Those are the cases let
    through, and only when no frame of the traceback is in goalfile's own files."""
    repo = make_repo(tmp_path / "repo")
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text(), encoding="utf-8")
    before = path.read_bytes()
    seen = set()

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen(
            [PROGRAM, "activate", str(path)],
            cwd=repo,
            env=clean_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    began = time.perf_counter()
    start().communicate(timeout=60)
    span = time.perf_counter() - began  # how long one run takes on this machine, now
    path.write_bytes(before)
    for index in range(RUNS):
        signum = signal.SIGINT if index % 2 == 0 else signal.SIGTERM
        delay = span * index / max(1, RUNS - 1)
        proc = start()
        _sleep_until(time.perf_counter() + delay)
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
        where = f"{signum.name} {delay * 1000:.1f} ms after the start: exit {proc.returncode}"
        if proc.returncode in (1, -signal.SIGINT) and "KeyboardInterrupt" in err:
            assert f"{os.sep}goalfile{os.sep}" not in err, f"{where}: in goalfile\n{err}"
            assert path.read_bytes() == before, where
            continue
        if proc.returncode == 0 and PYTHON_GOES_ON in err:
            # Python caught the Ctrl-C while it looked at its own argv[0], printed it, and
            # went on to run the command, which then finished: the goal is activated whole.
            assert f"{os.sep}goalfile{os.sep}" not in err, f"{where}: in goalfile\n{err}"
            assert "status: active" in path.read_text(encoding="utf-8"), where
            path.write_bytes(before)
            continue
        assert "Traceback" not in err, f"{where}\n{err}"
        assert proc.returncode in (0, 128 + signum, -signum), f"{where}\n{err}"
        if proc.returncode == 128 + signum:
            assert ("untouched" in err) == (path.read_bytes() == before), f"{where}\n{err}"
        seen.add(proc.returncode)
        path.write_bytes(before)
    assert 128 + signal.SIGINT in seen or 128 + signal.SIGTERM in seen, seen


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_python_swallows_in_a_callback_still_ends_the_command(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """A signal whose exception is raised inside code Python runs on the side (here a
    ``__del__``; in the wild, the import system's weakref callback) is printed by Python as
    "Exception ignored" and lost. The command boundary keeps it: no traceback, and the command
    exits 130 / 143 once it has returned, instead of exit 0."""
    script = tmp_path / "command.py"
    script.write_text(
        f"""
import os, sys
from goalfile.cli.base import boundary

class Dropped:
    def __del__(self):
        os.kill(os.getpid(), {int(signum)})
        for _ in range(100_000):
            pass

@boundary
def command():
    Dropped()
    print("the command went on to its end")
    return 0

command()
""",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert done.returncode == 128 + signum, (done.returncode, done.stderr)
    assert "interrupted; the goal file is untouched" in done.stderr
