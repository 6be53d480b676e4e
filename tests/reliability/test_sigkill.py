"""SIGKILL of goalfile: no check process outlives it, and no temporary file stays for good.

SIGKILL cannot be caught, so goalfile cannot end its checks itself. A guard process it starts
with the first check holds a pipe from goalfile; when goalfile dies the pipe closes and the
guard kills the checks' process groups. A SIGKILL while the file is being written leaves the
temporary file (``.NAME.goalfile-PID.XXXX.tmp``); the next command that writes the goal removes
it, since the process that wrote it is gone.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reliability_support import (
    activate,
    goal_text,
    gone,
    kill_leftovers,
    make_repo,
    pids_with_argument,
    run_goalfile,
    start_goalfile,
    unique_sleep,
    wait_for,
)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigkill_of_verify_ends_every_check(tmp_path: Path, jobs: str) -> None:
    repo = make_repo(tmp_path / "repo")
    marks = repo / "marks"
    marks.mkdir()
    argument = unique_sleep()
    ids = ["C1", "C2"]
    rows = [
        (cid, f"sleep {argument} & sleep {argument} & touch {marks}/{cid}; wait", "exit 0")
        for cid in ids
    ]
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text(rows=rows, extra=["timeout: 120"]), encoding="utf-8")
    activate(path, repo)
    before = path.read_bytes()
    proc = start_goalfile("verify", "--jobs", jobs, path, cwd=repo)
    try:
        wait_for((marks / "C1").exists, timeout=30, what="the first check to run")
        wait_for(lambda: len(pids_with_argument(argument)) >= 2, timeout=5, what="its sleeps")
        sleepers = pids_with_argument(argument)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        for pid in sleepers:
            wait_for(functools.partial(gone, pid), timeout=10, what=f"check process {pid} to end")
        assert pids_with_argument(argument) == [], "a check process outlived goalfile"
        assert path.read_bytes() == before
    finally:
        kill_leftovers(pids_with_argument(argument))
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)


TEMPORARY = re.compile(r"\.demo\.md\.goalfile-\d+\.\w+\.tmp")


def test_a_temporary_file_left_by_sigkill_is_removed_by_the_next_write(tmp_path: Path) -> None:
    """goalfile is killed the moment its temporary file appears (tried until a kill lands
    before the rename); the temporary file is named as goalfile's, and the next ``budget``
    removes it: the folder and ``git status`` are clean again."""
    repo = make_repo(tmp_path / "repo")
    path = repo / "goals" / "demo.md"
    lessons = ["```text", *(f"{n:07d} " + "x" * 120 for n in range(40_000)), "```"]  # ~5 MB
    path.write_text(goal_text(lessons=lessons), encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "goal"], cwd=repo, check=True)
    left: list[str] = []
    for _ in range(20):
        proc = start_goalfile("budget", path, "--iterations", "60", cwd=repo)
        while proc.poll() is None and not left:
            left = [n for n in os.listdir(path.parent) if n != "demo.md"]
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        left = [n for n in os.listdir(path.parent) if n != "demo.md"]
        if left:
            break
        subprocess.run(["git", "checkout", "-q", "--", "goals"], cwd=repo, check=True)
    assert left, "no kill landed while the file was written (20 tries)"
    assert all(TEMPORARY.fullmatch(name) for name in left), left
    done = run_goalfile("budget", path, "--iterations", "70", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert os.listdir(path.parent) == ["demo.md"]
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout.strip() == "M goals/demo.md", status.stdout


def test_sigkill_of_verify_ends_a_process_that_left_its_group(tmp_path: Path) -> None:
    """A check's child that moved to a session of its own (``setsid``) is outside the process
    group the guard registered; it carries the run's GOALFILE_RUN value, by which the guard
    finds and kills it once goalfile is killed. The same scan ends a check whose group was not
    yet registered when goalfile died."""
    repo = make_repo(tmp_path / "repo")
    marks = repo / "marks"
    marks.mkdir()
    argument = unique_sleep()
    check = (
        f"setsid sh -c 'touch {marks}/left; exec sleep {argument}' & sleep {argument} & "
        f"while [ ! -e {marks}/left ]; do sleep 0.01; done; touch {marks}/C1; wait"
    )
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text(rows=[("C1", check, "exit 0")], extra=["timeout: 120"]))
    activate(path, repo)
    proc = start_goalfile("verify", path, cwd=repo)
    try:
        wait_for((marks / "C1").exists, timeout=30, what="the check to run")
        wait_for(lambda: len(pids_with_argument(argument)) >= 2, timeout=10, what="its sleeps")
        sleepers = pids_with_argument(argument)
        groups = {os.getpgid(pid) for pid in sleepers}
        assert len(groups) == 2, "the setsid sleep should lead a group of its own"
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        for pid in sleepers:
            wait_for(functools.partial(gone, pid), timeout=10, what=f"process {pid} to end")
    finally:
        kill_leftovers(pids_with_argument(argument))
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)


def test_a_process_that_left_its_group_outlives_a_normal_end(tmp_path: Path) -> None:
    """Only a killed goalfile ends what left the check's group: a check may start a server on
    purpose, and a verify that ends normally leaves it running."""
    repo = make_repo(tmp_path / "repo")
    argument = unique_sleep()
    path = repo / "goals" / "demo.md"
    mark = repo / "left"
    # the check waits until the child has left its group: else the group's cleanup ends it
    check = (
        f"setsid sh -c 'touch {mark}; exec sleep {argument}' > /dev/null 2>&1 < /dev/null & "
        f"while [ ! -e {mark} ]; do sleep 0.01; done"
    )
    path.write_text(goal_text(rows=[("C1", check, "exit 0")], extra=["timeout: 120"]))
    activate(path, repo)
    try:
        done = run_goalfile("verify", path, cwd=repo)
        assert done.returncode == 0, done.stderr
        wait_for(lambda: len(pids_with_argument(argument)) == 1, timeout=10, what="the sleep")
        # the guard (started with the run's mark as its argument) has read end of input and
        # ended: only then has it really left the sleep alone
        (left,) = pids_with_argument(argument)
        environ = Path(f"/proc/{left}/environ").read_bytes().split(b"\0")
        (mark,) = [e.decode() for e in environ if e.startswith(b"GOALFILE_RUN=")]
        wait_for(lambda: not pids_with_argument(mark), timeout=30, what="the guard to end")
        assert pids_with_argument(argument) == [left]
    finally:
        kill_leftovers(pids_with_argument(argument))


# A goalfile stand-in: it tells the guard a check is about to start, forks, and dies while the
# child sits between the close of its inherited descriptors and its exec (the moment
# subprocess's child spends there is drawn out to a few seconds). The child then execs a
# marked ``sleep``, as a check's shell would be.
_BETWEEN_FORK_AND_EXEC = """
import os, sys, time
from goalfile import run
argument = sys.argv[1]
run._guard_say("?")
name, _, value = run._mark_entry().partition("=")
child = os.fork()
if child == 0:
    os.setsid()
    os.closerange(3, 4096)
    time.sleep(3)
    os.execve("/bin/sleep", ["sleep", argument], {**os.environ, name: value})
print(child, flush=True)
time.sleep(600)
"""


def test_sigkill_while_a_check_is_between_fork_and_exec_ends_it(tmp_path: Path) -> None:
    """A check forked but not yet exec'd when goalfile dies carries neither a registered group
    nor the run's mark; the guard knows it by goalfile's own command line and environment, and
    kills it before it can exec."""
    argument = unique_sleep()
    proc = subprocess.Popen(
        [sys.executable, "-c", _BETWEEN_FORK_AND_EXEC, argument],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    child = 0
    try:
        assert proc.stdout is not None
        child = int(proc.stdout.readline())
        proc.stdout.close()  # the child holds its copy: no reading to its end
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        wait_for(functools.partial(gone, child), timeout=20, what="the forked check to end")
        time.sleep(4)  # past the moment it would have exec'd its sleep
        assert pids_with_argument(argument) == [], "a check process outlived goalfile"
    finally:
        kill_leftovers([*pids_with_argument(argument), *([child] if child else [])])
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


_WAITING_FOR_A_CHECK = """
import sys, time
from goalfile import run
run._guard_say("?")
print(run._guard.pid, flush=True)
time.sleep(600)
"""


def test_the_guard_of_a_killed_goalfile_spares_the_same_command_started_again(
    tmp_path: Path,
) -> None:
    """Killed while a check was about to start, goalfile's guard looks for a check caught
    between fork and exec by goalfile's command line and environment. The same command started
    again by the same parent (a host running its hook once more) shows both too, and leads its
    own session; it is no such check and must live on."""
    argument = unique_sleep()

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", _WAITING_FOR_A_CHECK, argument],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )

    first, again = start(), None
    try:
        assert first.stdout is not None
        guard = int(first.stdout.readline())
        again = start()
        assert again.stdout is not None
        again.stdout.readline()  # started, and told its own guard
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
        wait_for(functools.partial(gone, guard), timeout=30, what="the first guard to end")
        assert again.poll() is None, "the guard of a killed goalfile killed another goalfile"
    finally:
        for proc in (first, again):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
