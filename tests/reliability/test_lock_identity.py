"""The goal's lock belongs to the file, not to the path it was reached by; no lock file stays.

The repository is bind-mounted at a second place (the suite runs as root; ``mount --bind``
is checked to work, not assumed) and reached through a symlink too. Verifies run at once
through all three paths: with one lock per path they would overlap, and each later write would
find a ledger it did not start from (exit 3) or lose an entry. With the lock keyed by the
goal's identity every run waits its turn: each exits 1 (its check is unmet) and the file holds
one entry per run. Afterwards goalfile's lock folder (in the test's own TMPDIR) holds no file,
and a lock file left by an earlier goalfile is gone.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from reliability_support import activate, goal_text, make_repo, start_goalfile, verify_headings

RUNS = 9


@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """The repository, and a bind mount of it elsewhere (the whole work tree: the checks run
    at the top of the repository the goal is in)."""
    repo = make_repo(tmp_path / "repo")
    mount = tmp_path / "elsewhere"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "--bind", str(repo), str(mount)], capture_output=True, text=True
    )
    assert done.returncode == 0, f"mount --bind failed (this test needs root): {done.stderr}"
    try:
        yield repo, mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_one_lock_for_the_same_goal_through_a_bind_mount_and_a_symlink(
    tmp_path: Path, mounted: tuple[Path, Path]
) -> None:
    repo, mount = mounted
    path = repo / "goals" / "demo.md"
    rows = [("C1", "sleep 0.2; false", "exit 0")]
    path.write_text(goal_text(rows=rows, extra=["stall_limit: 1000"]), encoding="utf-8")
    activate(path, repo)
    (repo / "link.md").symlink_to(path)
    assert (mount / "goals" / "demo.md").stat().st_ino == path.stat().st_ino
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    locks = tmp / f"goalfile-locks-{os.getuid()}"
    locks.mkdir(mode=0o700)
    stale = locks / "0123456789abcdef0123456789abcdef.lock"  # as an earlier goalfile left it
    stale.write_text("")
    os.utime(stale, (0, 0))  # unchanged for longer than a sweep waits
    paths = [path, mount / "goals" / "demo.md", repo / "link.md"]
    env = {"TMPDIR": str(tmp)}
    procs = [start_goalfile("verify", paths[n % 3], cwd=repo, env=env) for n in range(RUNS)]
    results = [(proc.communicate(timeout=120), proc.returncode) for proc in procs]
    for (out, err), code in results:
        assert code == 1, f"exit {code}\n{out}\n{err}"
    assert len(verify_headings(path.read_text(encoding="utf-8"))) == RUNS
    assert os.listdir(locks) == [], os.listdir(locks)
