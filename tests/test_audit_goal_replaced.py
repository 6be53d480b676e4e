"""A goal of the base whose path now holds something other than a file is deleted: `git rm
goals/auth.md && mkdir goals/auth.md && touch goals/auth.md/.keep`, committed, made `audit
--against` (without PATH, as docs/ci.md runs it, and with the path) print nothing and exit 0,
since a folder argument stands for the goals under it and the base's file was never compared."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import git, make_git_repo, run_goalfile


def new_auth(root: Path) -> None:
    """The person's goal, active, with a check that fails."""
    done = run_goalfile(
        "new", "auth", "the tests pass", "--check", "false", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def goal_on_branch(tmp_path: Path) -> Path:
    """A repository whose main holds no goal, on the agent's branch, where the person's goal
    is committed after main."""
    root = make_git_repo(tmp_path / "repo")
    git(root, "commit", "-q", "--allow-empty", "-m", "init")
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-qb", "agent")
    new_auth(root)
    git(root, "commit", "-qm", "goal: auth")
    return root


@pytest.fixture
def branch(tmp_path: Path) -> Path:
    """A repository whose main holds the person's active goal, on the agent's branch."""
    root = make_git_repo(tmp_path / "repo")
    new_auth(root)
    git(root, "commit", "-qm", "goal: auth")
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-qb", "agent")
    git(root, "rm", "-q", "goals/auth.md")
    return root


def ci_clone(root: Path, tmp_path: Path) -> Path:
    """A fresh clone of the agent's branch, as CI checks it out."""
    clone = tmp_path / "ci"
    subprocess.run(
        ["git", "clone", "-q", "-b", "agent", str(root), str(clone)],
        check=True,
        capture_output=True,
    )
    return clone


@pytest.mark.parametrize("against_paths", [(), ("goals/auth.md",), ("goals",)])
def test_a_folder_in_place_of_a_goal_of_the_base_is_goal_deleted(
    branch: Path, tmp_path: Path, against_paths: tuple[str, ...]
) -> None:
    (branch / "goals" / "auth.md").mkdir(parents=True)
    (branch / "goals" / "auth.md" / ".keep").write_text("", encoding="utf-8")
    git(branch, "add", "-A")
    git(branch, "commit", "-qm", "keep the folder")
    clone = ci_clone(branch, tmp_path)
    done = run_goalfile("audit", "--against", "refs/remotes/origin/main", *against_paths, cwd=clone)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "goals/auth.md: goal-deleted: the goal file existed at refs/remotes/origin/main and " \
        "was deleted: a folder stands at its path now" in done.stdout  # fmt: skip


def test_a_repository_in_place_of_a_goal_is_goal_deleted(branch: Path) -> None:
    git(branch, "commit", "-qm", "drop goal")
    (branch / "goals" / "auth.md").mkdir(parents=True)
    make_git_repo(branch / "goals" / "auth.md")  # a clone, or a submodule's work tree
    done = run_goalfile("audit", "--against", "refs/heads/main", cwd=branch)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "a repository (a submodule, or a clone) stands at its path now" in done.stdout


def test_a_goal_committed_on_the_branch_then_replaced_by_a_folder_is_goal_deleted(
    tmp_path: Path,
) -> None:
    root = goal_on_branch(tmp_path)
    git(root, "rm", "-q", "goals/auth.md")
    (root / "goals" / "auth.md").mkdir(parents=True)
    (root / "goals" / "auth.md" / ".keep").write_text("", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "keep the folder")
    done = run_goalfile("audit", "--against", "refs/heads/main", cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "goal-deleted: the goal file was committed after refs/heads/main" in done.stdout


def test_an_honest_goal_folder_is_no_finding(branch: Path) -> None:
    git(branch, "checkout", "-q", "HEAD", "--", "goals/auth.md")  # the goal kept
    done = run_goalfile("audit", "--against", "refs/heads/main", "goals", cwd=branch)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_goal_folder_named_as_path_also_stands_for_the_goals_it_held(branch: Path) -> None:
    git(branch, "commit", "-qm", "drop goal")
    (branch / "goals").mkdir()  # another goal's folder, say
    done = run_goalfile("audit", "--against", "refs/heads/main", "goals", cwd=branch)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "goals/auth.md: goal-deleted: the goal file existed at refs/heads/main" in done.stdout


def restore_fix(output: str) -> str:
    """The `git show ...` a goal-deleted finding's fix names (it printed `REV:PATH`, with a
    placeholder git refuses)."""
    found = re.search(r"restore it \(`(git show [^`]+)` has it\)", output)
    assert found is not None, output
    return found.group(1)


def shows_the_goal(command: str, cwd: Path) -> None:
    done = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, (command, done.stderr)
    assert done.stdout.startswith("---\nslug: auth\n"), done.stdout


def test_the_fix_for_a_folder_in_place_of_a_goal_shows_it_as_written(branch: Path) -> None:
    git(branch, "commit", "-qm", "drop goal")
    (branch / "goals" / "auth.md").mkdir(parents=True)
    (branch / "goals" / "auth.md" / ".keep").write_text("", encoding="utf-8")
    done = run_goalfile("audit", "--against", "refs/heads/main", cwd=branch)
    assert done.returncode == 1, done.stdout + done.stderr
    shows_the_goal(restore_fix(done.stdout), branch)


def test_the_fix_for_a_goal_deleted_on_the_branch_shows_it_from_a_sub_folder(
    tmp_path: Path,
) -> None:
    root = goal_on_branch(tmp_path)
    git(root, "rm", "-q", "goals/auth.md")
    (root / "sub").mkdir()
    (root / "sub" / "keep").write_text("", encoding="utf-8")
    git(root, "add", "sub")
    git(root, "commit", "-qm", "no goal")
    done = run_goalfile("audit", "--against", "refs/heads/main", cwd=root / "sub")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "goal-deleted: the goal file was committed after refs/heads/main" in done.stdout
    shows_the_goal(restore_fix(done.stdout), root / "sub")
