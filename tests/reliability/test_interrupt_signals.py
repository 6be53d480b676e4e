"""SIGINT or SIGTERM in the middle of `goalfile verify` ends every check and writes nothing.

Each check writes its shell's pid, starts two ``sleep`` processes with an argument no other
process on the machine has (one in the background, one waited for), and only then touches
its "started" marker, so the signal arrives while the check's processes really run. Afterwards
the goal file must be byte-identical, no process of any check may be left (the pids and a scan
of /proc for the unique argument), and the exit code is 130 for SIGINT (Ctrl-C) and 128+15 =
143 for SIGTERM, the shell convention for "terminated by SIGTERM".
"""

from __future__ import annotations

import contextlib
import functools
import selectors
import signal
import subprocess
from pathlib import Path

import pytest
from reliability_support import (
    activate,
    goal_text,
    gone,
    kill_leftovers,
    make_repo,
    pids_with_argument,
    start_goalfile,
    unique_sleep,
    wait_for,
)

EXPECTED_EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


def sleeping_check(folder: Path, cid: str, argument: str) -> str:
    return (
        f"echo $$ > {folder}/{cid}.pid; sleep {argument} & sleep {argument} & "
        f"touch {folder}/{cid}.started; wait"
    )


def interrupt(tmp_path: Path, signum: signal.Signals, ids: list[str], *options: str) -> None:
    repo = make_repo(tmp_path / "repo")
    marks = repo / "marks"
    marks.mkdir()
    argument = unique_sleep()
    rows = [(cid, sleeping_check(marks, cid, argument), "exit 0") for cid in ids]
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text(rows=rows, extra=["timeout: 120"]), encoding="utf-8")
    activate(path, repo)
    before = path.read_bytes()

    proc = start_goalfile("verify", *options, path, cwd=repo)
    started = [marks / f"{cid}.started" for cid in ids]
    try:

        def all_started() -> bool:
            if proc.poll() is not None:
                out, err = proc.communicate()
                raise AssertionError(f"verify ended early, exit {proc.returncode}\n{out}\n{err}")
            return all(mark.exists() for mark in started)

        wait_for(all_started, timeout=20, what=f"the checks {ids} to run")
        shells = [int((marks / f"{cid}.pid").read_text()) for cid in ids]
        wait_for(  # a backgrounded sleep may still be between fork and exec
            lambda: len(pids_with_argument(argument)) == 2 * len(ids),
            timeout=5,
            what="two sleeps per check",
        )
        sleepers = pids_with_argument(argument)

        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err
        assert path.read_bytes() == before, "the goal file changed"
        assert list((repo / "goals").iterdir()) == [path], "a file was left next to the goal"
        for pid in [*shells, *sleepers]:
            wait_for(functools.partial(gone, pid), timeout=3, what=f"pid {pid} of a check to end")
        assert pids_with_argument(argument) == [], "a check process outlived goalfile"
        assert "interrupted" in err, err
        assert proc.returncode == EXPECTED_EXIT[signum], f"exit {proc.returncode}\n{err}"
    finally:
        kill_leftovers(pids_with_argument(argument))
        if proc.poll() is None:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.communicate(timeout=10)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_a_check_ends_it_and_leaves_the_file(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """One sleeping check: file byte-identical, check processes gone, exit 130 / 143."""
    interrupt(tmp_path, signum, ["C1"])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_two_parallel_checks_ends_both_groups(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """``--jobs 2`` runs both sleeping checks at once; the signal ends both process groups."""
    interrupt(tmp_path, signum, ["C1", "C2"], "--jobs", "2")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_waiting_for_the_lock(tmp_path: Path, signum: signal.Signals) -> None:
    """A second verify waits for the first one's lock; a signal then ends it (130 / 143) with
    the file untouched, and the first run still writes its one entry."""
    repo = make_repo(tmp_path / "repo")
    started, go = repo / "started", repo / "go"
    check = f"touch {started}; while [ ! -e {go} ]; do sleep 0.02; done; exit 1"
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text(rows=[("C1", check, "exit 0")], extra=["timeout: 60"]))
    activate(path, repo)
    before = path.read_bytes()
    first = start_goalfile("verify", path, cwd=repo)
    second = None
    try:
        wait_for(started.exists, what="the first run's check to start")
        second = start_goalfile("verify", path, cwd=repo)
        assert second.stderr is not None
        with selectors.DefaultSelector() as selector:  # its "waiting for ..." line
            selector.register(second.stderr, selectors.EVENT_READ)
            assert selector.select(timeout=20), "the second verify never said it waits"
        waiting = second.stderr.readline()
        assert "waiting for" in waiting, waiting

        second.send_signal(signum)
        _, err = second.communicate(timeout=30)
        assert "Traceback" not in err, err
        assert path.read_bytes() == before, "the waiting verify changed the file"
        assert "interrupted" in err, err
        assert second.returncode == EXPECTED_EXIT[signum], f"exit {second.returncode}\n{err}"
    finally:
        go.touch()
        first_out, first_err = first.communicate(timeout=60)
        if second is not None and second.poll() is None:
            second.kill()
            second.communicate(timeout=10)
    assert first.returncode == 1, first_out + first_err
    assert path.read_text().count("by verify-goal") == 1
