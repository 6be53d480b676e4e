"""The goal lock lives in a shared temporary folder: nothing planted there can misdirect a write.

goalfile keeps its per-goal lock files under the temporary folder (``TMPDIR``, usually the
world-writable ``/tmp``), at names anyone can compute from the goal's path. Another local user
can create that folder first and plant a symlink at one of those names. A goalfile run must
then never write through the link (here it points at a "victim" file the user owns) and must
not crash: it may use the lock safely or refuse with a message (exit 3).

The lock files' names are not assumed: they are learned by listing the temporary folder while
a real ``goalfile verify`` holds the lock (two of them: the lock and a note of its owner).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from reliability_support import (
    activate,
    goal_text,
    make_repo,
    run_goalfile,
    start_goalfile,
    wait_for,
    write_goal,
)


def lock_files_while_held(repo: Path, path: Path, tmpdir: Path) -> list[Path]:
    """The files goalfile keeps in ``tmpdir`` while a verify holds the goal's lock."""
    started, go = repo / "started", repo / "go"
    env = {"TMPDIR": str(tmpdir), "STARTED": str(started), "GO": str(go)}
    proc = start_goalfile("verify", path, cwd=repo, env=env)
    try:
        wait_for(started.exists, what="the check to start")
        held = sorted(p for p in tmpdir.rglob("*") if p.is_file())
    finally:
        go.touch()
        proc.communicate(timeout=60)
    started.unlink()
    go.unlink()
    return held


@pytest.mark.parametrize("planted", ["file-1", "file-2", "every-file"])
def test_a_symlink_planted_in_the_lock_folder_is_never_written_through(
    tmp_path: Path, planted: str
) -> None:
    """A lock folder made by someone else (mode 0777) holding a symlink at the name of the
    first or second lock file (in name order: the ``.lock`` and the ``.owner`` file today), or
    at every one: the victim file keeps its content, and goalfile ends without a traceback."""
    repo = make_repo(tmp_path / "repo")
    check = 'touch "$STARTED"; while [ ! -e "$GO" ]; do sleep 0.02; done; exit 1'
    path = write_goal(repo / "goals", goal_text(rows=[("C1", check, "exit 0")]))
    activate(path, repo)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    held = lock_files_while_held(repo, path, tmpdir)
    assert len(held) == 2, f"expected the .lock and the .owner file, found {held}"

    folders = {p.parent for p in held}
    for folder in folders:  # as another user would have made them: open to everyone
        for entry in folder.iterdir():
            entry.unlink()
        folder.chmod(0o777)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    if planted != "every-file":
        held = [held[int(planted.removeprefix("file-")) - 1]]
    for lock_file in held:
        os.symlink(victim, lock_file)

    before = path.read_bytes()
    done = run_goalfile("pause", path, "--reason", "lunch", cwd=repo, env={"TMPDIR": str(tmpdir)})
    problems = []
    if victim.read_text() != "precious\n":
        problems.append(f"the victim file was overwritten: {victim.read_text()!r}")
    if "Traceback" in done.stderr:
        problems.append("a traceback")
    if done.returncode not in (0, 3):
        problems.append(f"exit {done.returncode}")
    if done.returncode == 3 and path.read_bytes() != before:
        problems.append("refused, but the goal file changed")
    planted_names = [p.name for p in held]
    assert not problems, f"{'; '.join(problems)} (planted: {planted_names})\n{done.stderr}"
