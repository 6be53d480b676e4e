"""The guard that ends a killed goalfile's checks works where there is no /proc (macOS, BSD).

It read its own start time from /proc/PID/stat at once and died with an IndexError where that
file does not exist, so a check outlived a goalfile killed by SIGKILL. Here /proc is hidden from
a real goalfile by an empty file system mounted over it in a mount namespace of its own
(`unshare`, as root), and from the guard program alone by the folder it is told to read."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import clean_env, goal_text, gone, row, run_goalfile, wait_for

WAIT = 60


def _sleeping(seconds: str) -> list[int]:
    """The pids of `sleep SECONDS` processes (seen through this test's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if handle.read() == b"sleep\0" + seconds.encode() + b"\0":
                    found.append(int(entry))
        except OSError:
            continue
    return found


def test_a_check_of_a_killed_goalfile_ends_without_proc(repo: Path) -> None:
    assert os.geteuid() == 0, "this test hides /proc in a mount namespace: run it as root"
    unshare = shutil.which("unshare")
    assert unshare is not None, "this test needs unshare (util-linux)"
    seconds = f"{600 + os.getpid() % 1000}.{os.getpid() % 97}"  # this test's own check
    (repo / "goals").mkdir(exist_ok=True)
    (repo / "goals" / "demo.md").write_text(
        goal_text(status="draft", iterations_used=0, rows=[row("C1", f"sleep {seconds}", "exit 0")])
    )
    assert run_goalfile("activate", "goals/demo.md", cwd=repo).returncode == 0
    hidden = 'mount -t tmpfs none /proc && exec "$0" -m goalfile verify --no-write goals/demo.md'
    verify = subprocess.Popen(
        [unshare, "-m", "--propagation", "private", "sh", "-c", hidden, sys.executable],
        cwd=repo,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for(lambda: bool(_sleeping(seconds)), timeout=WAIT, what="the check to start")
        (check,) = _sleeping(seconds)
        verify.kill()
        verify.wait(timeout=WAIT)
        wait_for(lambda: gone(check), timeout=WAIT, what="the killed goalfile's check to end")
    finally:
        if verify.poll() is None:
            verify.kill()
            verify.wait(timeout=WAIT)
        for pid in _sleeping(seconds):
            os.kill(pid, signal.SIGKILL)


def test_the_guard_program_kills_its_groups_without_proc(tmp_path: Path) -> None:
    from goalfile.run import guard_command

    check = subprocess.Popen(["sleep", "600"], start_new_session=True)
    try:
        guard = subprocess.run(
            [*guard_command(), "X=1", str(tmp_path / "no-proc")],
            input=f"?\n+{check.pid}\n".encode(),
            capture_output=True,
            timeout=WAIT,
            check=False,
        )
        assert guard.returncode == 0, guard.stderr.decode()
        assert check.wait(timeout=WAIT) == -signal.SIGKILL
    finally:
        if check.poll() is None:
            check.kill()
            check.wait()


def test_a_search_process_that_fails_is_named_by_its_exit_status() -> None:
    """The message said "ended with status 256", the raw wait status."""
    import pytest

    from goalfile.run import BoundedCallFailed, call_bounded

    def fails() -> bytes:
        raise RuntimeError("no answer")

    with pytest.raises(BoundedCallFailed, match=r"^the search process ended with exit status 1$"):
        call_bounded(fails, timeout=WAIT)
