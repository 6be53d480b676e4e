"""A branch moved by hand between two stops is no way to stop unseen.

At a later stop of a session (the first one held the agent on the active, unmet goal), the
agent made a met copy of the goal in a scratch clone where the check passes, wrote a commit
holding it with plumbing (objects honestly hashed; no ref, no reflog line) and wrote that
commit's id straight into the branch HEAD names: its loose file, or `packed-refs` rewritten in
place with its size, inode and modification time kept. HEAD's mark in the session's record
(read without git: HEAD's text, the loose branch file, the times of `packed-refs`) and its
first line (the branch) were what they had been, the met entry was one "HEAD holds", and the
hook let the agent go without a word; the old id written back after the stop left nothing. Now
the record keeps the commit HEAD resolves to, as git resolves it, and a goal active at the
earlier stop whose branch resolves to another commit counts none of its entries as held: its
`met` is checked again. Real git repositories, the real `goalfile hook stop`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import approved_project, base_repo, clean_env, copy_of, git, made_once, run_goalfile

GOAL = "goals/auth.md"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, approved_project)


@pytest.fixture
def project(tmp_path: Path, made: Path) -> Path:
    return copy_of(made, tmp_path / "project")


def stop(project: Path, *, active: bool) -> dict[str, object]:
    data = {"session_id": "branch-moved", "cwd": str(project), "stop_hook_active": active}
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=project, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return json.loads(text) if text else {}


def git_in(project: Path, *args: str, data: bytes | None = None, **env: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=project, input=data, capture_output=True, check=True,
        env=clean_env(env),
    )  # fmt: skip
    return done.stdout.decode().strip()


def forged_commit(project: Path, tmp_path: Path) -> str:
    """The agent's commit: HEAD's tree with a met copy of the goal (verified in a scratch
    clone where the check passes), written with plumbing: no ref, no reflog line. The met copy
    is put in the working file too."""
    scratch = tmp_path / "scratch"
    git(tmp_path, "clone", "-q", str(project), str(scratch))
    (scratch / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", GOAL, cwd=scratch).returncode == 0
    met = (scratch / GOAL).read_bytes()
    shutil.rmtree(scratch)
    (project / GOAL).write_bytes(met)
    blob = git_in(project, "hash-object", "-w", "--no-filters", "--stdin", data=met)
    index = str(tmp_path / "index")
    git_in(project, "read-tree", "HEAD", GIT_INDEX_FILE=index)
    git_in(project, "update-index", "--cacheinfo", f"100644,{blob},{GOAL}", GIT_INDEX_FILE=index)
    tree = git_in(project, "write-tree", GIT_INDEX_FILE=index)
    return git_in(project, "commit-tree", tree, "-p", "HEAD", "-m", "goal: auth")


def held_once_then_told(project: Path) -> None:
    """A stop the host marks as continuing (the agent was sent back once) is held once for the
    met the moved branch shows, and the stop after it, nothing changed, is let go with the
    message: never silently."""
    answer = stop(project, active=True)
    assert answer.get("decision") == "block", answer
    assert "says `met` by a ledger entry of the commit its branch was moved to" in str(
        answer["reason"]
    ), answer
    answer = stop(project, active=True)
    message = str(answer.get("systemMessage"))
    assert "decision" not in answer and "do not all pass" in message, answer


def test_a_branch_file_written_by_hand_is_checked_again(project: Path, tmp_path: Path) -> None:
    """Fails before the change: the second stop was let go with no answer at all."""
    assert stop(project, active=False).get("decision") == "block"
    reflog = git_in(project, "reflog")
    commit = forged_commit(project, tmp_path)
    (project / ".git" / "refs" / "heads" / "main").write_text(f"{commit}\n", encoding="ascii")
    assert git_in(project, "rev-parse", "HEAD") == commit and git_in(project, "reflog") == reflog
    answer = stop(project, active=False)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "says `met` by a ledger entry of the commit its branch was moved to since" in reason
    assert "- C1 unmet (exit 1)" in reason, reason
    assert "`goalfile reopen goals/auth.md --reason TEXT`" in reason, reason
    message = str(stop(project, active=True).get("systemMessage"))
    assert "its checks, run again at this stop without writing, do not all pass" in message


def test_packed_refs_rewritten_in_place_are_seen(project: Path, tmp_path: Path) -> None:
    """Fails before the change: HEAD's mark keeps the inode, size and modification time of
    `packed-refs`, all of which the agent kept."""
    git_in(project, "pack-refs", "--all")
    assert stop(project, active=False).get("decision") == "block"
    old = git_in(project, "rev-parse", "HEAD")
    commit = forged_commit(project, tmp_path)
    packed = project / ".git" / "packed-refs"
    before = os.stat(packed)
    with open(packed, "r+b") as handle:
        data = handle.read()
        handle.seek(0)
        handle.write(data.replace(old.encode(), commit.encode()))
    os.utime(packed, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(packed)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        before.st_ino, before.st_size, before.st_mtime_ns,
    )  # fmt: skip
    assert git_in(project, "rev-parse", "HEAD") == commit
    held_once_then_told(project)


def test_a_met_verified_and_committed_is_let_go(project: Path) -> None:
    """Not a regression test (passes before the change): the honest way, the check made to
    pass, verify's `met` committed with the work; checked again, it still passes."""
    assert stop(project, active=False).get("decision") == "block"
    (project / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", GOAL, cwd=project).returncode == 0
    git(project, "add", "-A")
    git(project, "commit", "-qm", "ok exists")
    assert stop(project, active=True) == {}


def test_a_branch_a_check_moves_during_the_stop_is_not_the_record(tmp_path: Path) -> None:
    """Fails before the change (with the rule above in): the record of HEAD was taken at the
    end of the stop, after the checks ran, so the project's code a check runs (`check.sh`, as
    pytest runs a conftest.py) moved the branch during the first stop, and the record kept the
    moved branch as HEAD "at the earlier stop": the next stop was let go without a word."""
    project = base_repo(tmp_path / "project")
    (project / "check.sh").write_text("test -f ok\n", encoding="utf-8")
    git(project, "add", "check.sh")
    git(project, "commit", "-qm", "check")
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "sh check.sh", "--expected", "exit 0",
        "--activate", "--commit", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    approved = (project / GOAL).read_bytes()
    commit = forged_commit(project, tmp_path)
    met = (project / GOAL).read_bytes()
    (project / GOAL).write_bytes(approved)
    (project / ".git" / "forged").write_text(f"{commit}\n", encoding="ascii")
    (project / "check.sh").write_text(
        "[ -f .git/forged ] && cp .git/forged .git/refs/heads/main\ntest -f ok\n", "utf-8"
    )
    assert stop(project, active=False).get("decision") == "block"  # C1 unmet
    assert git_in(project, "rev-parse", "HEAD") == commit  # the check moved the branch
    (project / "check.sh").write_text("test -f ok\n", encoding="utf-8")
    (project / GOAL).write_bytes(met)
    held_once_then_told(project)
