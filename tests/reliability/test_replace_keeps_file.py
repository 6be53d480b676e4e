"""Writing a goal file changes its content only: never its owner, its mode, or its links.

goalfile writes a new file and renames it over the goal. Run as root on a file of another
user's, that would give the file to root; on a read-only file whose folder is writable, it
would replace the file anyway; on a file with a second hard link, the other name would keep
the old content. So the owner and group are kept, and a read-only or hard-linked goal file is
refused (exit 3, a fix, the file and its links untouched). Real processes, real files; the
suite runs as root, so ``chown`` to another user works (checked, not assumed).
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from reliability_support import goal_text, make_repo, no_traceback, run_goalfile

OTHER_UID, OTHER_GID = 4321, 4322  # no such user is needed: ids are numbers to the kernel


def test_the_owner_group_and_mode_of_a_file_of_another_user_are_kept(tmp_path: Path) -> None:
    assert os.geteuid() == 0, "this test needs root, to give the goal file to another user"
    repo = make_repo(tmp_path / "repo")
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text(), encoding="utf-8")
    os.chown(path, OTHER_UID, OTHER_GID)
    path.chmod(0o640)
    done = run_goalfile("budget", path, "--iterations", "60", cwd=repo)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    info = path.stat()
    assert "iterations: 60" in path.read_text(encoding="utf-8")
    assert (info.st_uid, info.st_gid) == (OTHER_UID, OTHER_GID)
    assert stat.S_IMODE(info.st_mode) == 0o640


def test_a_read_only_goal_file_is_refused(tmp_path: Path) -> None:
    """Mode 0444 in a writable folder, and goalfile run as root (who could write it)."""
    repo = make_repo(tmp_path / "repo")
    path = repo / "goals" / "my demo.md"  # the fix names it as one shell word
    path.write_text(goal_text(), encoding="utf-8")
    path.chmod(0o444)
    before, inode = path.read_bytes(), path.stat().st_ino
    for command in (["budget", "--iterations", "60"], ["activate"]):
        done = run_goalfile(command[0], path, *command[1:], cwd=repo)
        no_traceback(done)
        assert done.returncode == 3, done.stderr
        assert "read-only" in done.stderr and done.stderr.count(path.name) == 2, done.stderr
        assert path.read_bytes() == before and path.stat().st_ino == inode
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert os.listdir(path.parent) == ["my demo.md"]
    assert "` makes it writable, if it should change" in done.stderr, done.stderr
    fix = done.stderr.split("fix: `", 1)[1].split("`", 1)[0]
    subprocess.run(fix, shell=True, cwd=repo, check=True)  # the fix, as written
    done = run_goalfile("budget", path, "--iterations", "60", cwd=repo)
    assert done.returncode == 0, done.stderr


def test_a_hard_linked_goal_file_is_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text(), encoding="utf-8")
    other = repo / "linked.md"
    os.link(path, other)
    before = path.read_bytes()
    done = run_goalfile("budget", path, "--iterations", "60", cwd=repo)
    no_traceback(done)
    assert done.returncode == 3, done.stderr
    assert "hard links" in done.stderr, done.stderr
    assert path.read_bytes() == before == other.read_bytes()
    assert path.stat().st_ino == other.stat().st_ino
