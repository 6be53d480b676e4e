"""The sweep of unused lock files never takes a lock file another process has only just made.

A goalfile that takes a lock first removes lock files nobody holds (left by a killed process).
A process that has just made its lock file and not yet taken it looks the same for a moment;
taken from under it, its `--lock-wait 0` run was refused as "locked by another goalfile
process" with nobody holding the lock. A lock file is swept only once it is older than
`LOCK_SWEEP_AGE` (60 s).
"""

from __future__ import annotations

import os
from pathlib import Path

from reliability_support import activate, goal_text, make_repo, run_goalfile


def test_a_fresh_unheld_lock_file_is_kept_and_an_old_one_removed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text(rows=[("C1", "true", "exit 0")]), encoding="utf-8")
    activate(path, repo)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    locks = tmp / f"goalfile-locks-{os.getuid()}"
    locks.mkdir(mode=0o700)
    fresh = locks / f"goal-{'a' * 32}.lock"  # another goal's, made a moment ago, not yet taken
    fresh.write_text("")
    old = locks / f"goal-{'b' * 32}.lock"  # left by a process killed an hour ago
    old.write_text("")
    hour_ago = fresh.stat().st_mtime - 3600
    os.utime(old, (hour_ago, hour_ago))

    done = run_goalfile("verify", "--lock-wait", "0", path, cwd=repo, env={"TMPDIR": str(tmp)})

    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(os.listdir(locks)) == [fresh.name]
