"""A goal file deleted with `rm` after `activate` staged it (or after it was committed) is still
the repository's goal: the Stop hook held every stop on it, while `goalfile status` listed only
the files on disk and said nothing of it. status now lists it as a row in error (exit 3) with
both ways out, and each printed command works as written: the one that keeps the goal brings
it back, the one that retires it (a commit: the Stop hook lets a goal go once HEAD has moved)
lets the hook pass and leaves other staged work alone."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import clean_env, git, make_git_repo, run_goalfile, stop_input


def repo_with_goal(tmp_path: Path, *, commit: bool) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "README").write_text("x\n")
    git(repo, "add", "README")
    git(repo, "commit", "-q", "-m", "start")
    args = ["new", "typo", "tests pass", "--check", "true", "--expected", "exit 0"]
    args += ["--non-goal", "n", "--activate", *(["--commit"] if commit else [])]
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == 0, done.stderr
    (repo / "goals" / "typo.md").unlink()
    return repo


def fix_commands(stderr: str) -> tuple[str, str]:
    found = re.search(r"fix: to keep the goal: `(.+?)`; to retire it: `(.+?)`$", stderr, re.M)
    assert found is not None, stderr
    return found.group(1), found.group(2)


def hook_holds(repo: Path) -> bool:
    done = run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo))
    assert done.returncode == 0, done.stderr
    return bool(done.stdout.strip()) and json.loads(done.stdout).get("decision") == "block"


@pytest.mark.parametrize("commit", [False, True])
def test_status_names_a_tracked_goal_gone_from_disk_and_retiring_it_frees_the_hook(
    tmp_path: Path, commit: bool
) -> None:
    repo = repo_with_goal(tmp_path, commit=commit)
    assert hook_holds(repo)
    done = run_goalfile("status", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "goals/typo.md: git tracks this goal file" in done.stderr
    assert "the Stop hook holds every stop on it" in done.stderr
    _, retire = fix_commands(done.stderr)
    (repo / "other.txt").write_text("work in progress\n")
    git(repo, "add", "other.txt")  # staged work the retiring commit must leave alone
    ran = subprocess.run(["sh", "-c", retire], cwd=repo, capture_output=True, env=clean_env())
    assert ran.returncode == 0, ran.stderr
    after = run_goalfile("status", cwd=repo)
    assert after.returncode == 0 and "typo" not in after.stdout + after.stderr, after.stderr
    assert not hook_holds(repo)
    assert git(repo, "status", "--porcelain") == "A  other.txt\n"
    assert "other.txt" not in git(repo, "show", "--stat", "HEAD")


def test_the_keep_command_brings_the_goal_back_from_a_subfolder(tmp_path: Path) -> None:
    repo = repo_with_goal(tmp_path, commit=True)
    sub = repo / "src"
    sub.mkdir()
    done = run_goalfile("status", "--json", cwd=sub)
    assert done.returncode == 3
    [row] = [g for g in json.loads(done.stdout)["goals"] if g["path"] == "../goals/typo.md"]
    assert "working tree has no such file" in row["error"]["message"]
    keep, _ = fix_commands(run_goalfile("status", cwd=sub).stderr)
    ran = subprocess.run(["sh", "-c", keep], cwd=sub, capture_output=True, env=clean_env())
    assert ran.returncode == 0, ran.stderr
    back = run_goalfile("status", cwd=sub)
    assert back.returncode == 0 and "typo: active" in back.stdout, back.stderr


def test_a_status_of_named_paths_is_unchanged(tmp_path: Path) -> None:
    """With PATH arguments status shows what it was asked about, nothing more."""
    repo = repo_with_goal(tmp_path, commit=True)
    run_goalfile("new", "other", "s", "--check", "true", "--expected", "exit 0", cwd=repo)
    done = run_goalfile("status", "goals/other.md", cwd=repo)
    assert done.returncode == 0 and "typo" not in done.stdout + done.stderr
