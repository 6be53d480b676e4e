"""`activate --commit` and `new --activate --commit`: the goal is committed as approved.

`git commit PATH` after `activate` committed whatever the working tree held by then: an agent
running while its person approved could swap its own goal in between the listing and the
commit (a watcher waiting for the approval entry), or a clean filter it set in `.git/config`
could store other bytes than the file shows. `--commit` commits the text activate wrote, on
top of HEAD, without reading the working tree. Real git repositories and `goalfile` processes.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import committed_repo, git, make_git_repo, run_goalfile

APPROVED = "pytest -q tests"
AGENTS = "echo 1 passed"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return committed_repo(tmp_path / "repo")


def goalfile(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_goalfile(*args, cwd=repo, timeout=120)


def draft(repo: Path, check: str = APPROVED) -> None:
    done = goalfile(
        repo, "new", "auth", "tests pass", "--check", check, "--expected", "exit 0",
        "--non-goal", "tests/ unchanged",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def at_head(repo: Path, path: str = "goals/auth.md") -> str:
    return git(repo, "show", f"HEAD:{path}")


def test_new_activate_commit_commits_the_goal_alone_on_top_of_head(repo: Path) -> None:
    (repo / "other.txt").write_text("staged by the person for later\n", encoding="utf-8")
    git(repo, "add", "other.txt")
    before = git(repo, "rev-parse", "HEAD").strip()
    done = goalfile(
        repo, "new", "auth", "tests pass", "--check", APPROVED, "--expected", "exit 0",
        "--non-goal", "tests/ unchanged", "--activate", "--commit", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    commit = json.loads(done.stdout)["commit"]
    assert git(repo, "rev-parse", "HEAD").strip() == commit
    assert git(repo, "rev-parse", "HEAD^").strip() == before
    assert git(repo, "log", "-1", "--format=%s").strip() == "goal: auth"
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["goals/auth.md"]
    assert at_head(repo) == (repo / "goals" / "auth.md").read_text(encoding="utf-8")
    assert "status: active" in at_head(repo)
    # the index agrees with HEAD at the goal; what the person staged stays staged
    assert git(repo, "status", "--porcelain").splitlines() == ["A  other.txt"]
    assert "committed goals/auth.md as approved" in done.stderr


def test_a_goal_swapped_in_after_the_approval_is_not_what_is_committed(repo: Path) -> None:
    """rt10 H13: a watcher swaps in the agent's goal as soon as the approval entry is written;
    whenever it lands, HEAD holds the goal the person approved."""
    draft(repo)
    fake = repo.parent / "fake.md"
    fake.write_text(
        (repo / "goals" / "auth.md").read_text(encoding="utf-8").replace(APPROVED, AGENTS),
        encoding="utf-8",
    )
    watcher = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import pathlib, shutil, sys, time\n"
            "goal = pathlib.Path(sys.argv[1])\n"
            "while 'by activate' not in goal.read_text():\n"
            "    time.sleep(0.001)\n"
            "shutil.copyfile(sys.argv[2], goal)\n",
            str(repo / "goals" / "auth.md"),
            str(fake),
        ]
    )
    try:
        done = goalfile(repo, "activate", "goals/auth.md", "--commit")
        assert done.returncode == 0, done.stderr
        watcher.wait(timeout=60)
    finally:
        watcher.kill()
    assert AGENTS in (repo / "goals" / "auth.md").read_text(encoding="utf-8")  # swapped
    assert APPROVED in at_head(repo) and AGENTS not in at_head(repo)
    assert "by activate" in at_head(repo)
    assert APPROVED in git(repo, "show", ":goals/auth.md")  # the index too


def test_a_clean_filter_does_not_change_the_bytes_committed(repo: Path) -> None:
    """A clean filter the agent set (rt10 H1) rewrites what `git add`/`git commit PATH` store:
    activate refuses the goal path it applies to (goalfile/gitattrs.py), commits nothing, and
    once the printed fix deleted the attribute's line, --commit stores the approved bytes."""
    git(repo, "config", "filter.g.clean", f"sed 's/{APPROVED}/{AGENTS}/'")
    (repo / ".git" / "info" / "attributes").write_text("goals/*.md filter=g\n", encoding="utf-8")
    draft(repo)
    head = git(repo, "rev-parse", "HEAD")
    done = goalfile(repo, "activate", "goals/auth.md", "--commit")
    assert done.returncode == 3, done.stderr
    assert "git applies `filter=g`" in done.stderr, done.stderr
    assert git(repo, "rev-parse", "HEAD") == head  # nothing committed
    fix = done.stderr.split("fix: `", 1)[1].split("`", 1)[0]
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    done = goalfile(repo, "activate", "goals/auth.md", "--commit")
    assert done.returncode == 0, done.stderr
    assert APPROVED in at_head(repo) and AGENTS not in at_head(repo)
    assert at_head(repo) == (repo / "goals" / "auth.md").read_text(encoding="utf-8")


def test_a_goal_named_by_a_link_commits_the_link_and_the_file(repo: Path) -> None:
    draft(repo)
    (repo / "goals" / "current.md").symlink_to("auth.md")
    done = goalfile(repo, "activate", "goals/current.md", "--commit")
    assert done.returncode == 0, done.stderr
    assert sorted(git(repo, "show", "--name-only", "--format=", "HEAD").split()) == [
        "goals/auth.md",
        "goals/current.md",
    ]
    assert at_head(repo, "goals/current.md") == "auth.md"  # a symlink: its target
    assert git(repo, "ls-tree", "HEAD", "goals/current.md").split()[0] == "120000"
    assert "status: active" in at_head(repo)
    assert git(repo, "status", "--porcelain").strip() == ""


def test_outside_a_repository_nothing_is_written(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    done = goalfile(
        folder, "new", "auth", "tests pass", "--check", APPROVED, "--expected", "exit 0",
        "--non-goal", "n", "--activate", "--commit",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "in no git repository" in done.stderr and "fix: git init" in done.stderr
    assert not (folder / "goals").exists()


def test_commit_without_activate_is_a_usage_error(repo: Path) -> None:
    done = goalfile(repo, "new", "auth", "x", "--check", "true", "--expected", "exit 0", "--commit")
    assert done.returncode == 2
    assert "goes with --activate" in done.stderr
    assert not (repo / "goals").exists()


def test_without_an_identity_the_goal_is_approved_and_staged(repo: Path) -> None:
    draft(repo)
    git(repo, "config", "user.useConfigOnly", "true")
    git(repo, "config", "--unset", "user.email")
    git(repo, "config", "--unset", "user.name")
    home = repo.parent / "home"
    home.mkdir()
    done = run_goalfile(
        "activate", "goals/auth.md", "--commit", cwd=repo,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home), "EMAIL": ""},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "nothing was committed" in done.stderr and "Traceback" not in done.stderr
    # the fix sets the name and e-mail (`git config user.name` alone only prints it), then
    # commits what activate staged
    assert '`git config user.name "Your Name"`' in done.stderr, done.stderr
    assert "`git commit -m 'goal: auth'`" in done.stderr, done.stderr
    assert git(repo, "log", "--format=%s").split("\n")[0] == "base"
    assert "status: active" in git(repo, "show", ":goals/auth.md")  # staged as without it
    fix = done.stderr.split("\n  fix: ", 1)[1].split("\n", 1)[0]
    ran = subprocess.run(
        " && ".join(re.findall(r"`([^`]+)`", fix)), shell=True, cwd=repo, check=False,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home)}, capture_output=True, text=True,
    )  # fmt: skip
    assert ran.returncode == 0, (fix, ran.stderr)
    assert git(repo, "log", "--format=%s").split("\n")[0] == "goal: auth"
    assert "status: active" in at_head(repo)


def test_a_git_dir_in_the_environment_does_not_take_the_commit_elsewhere(
    repo: Path, tmp_path: Path
) -> None:
    """`--commit` asked git with the environment as it was, so a `GIT_DIR` (or
    `GIT_INDEX_FILE`) exported in the person's shell made it commit into that repository,
    while it said it committed the goal, which its own repository never held. It asks git as
    every other git command of goalfile does: of the repository that holds the goal."""
    other = make_git_repo(tmp_path / "other")
    (other / "x").write_text("x\n", encoding="utf-8")
    git(other, "add", "x")
    git(other, "commit", "-qm", "other")
    theirs = git(other, "rev-parse", "HEAD").strip()
    draft(repo)
    done = run_goalfile(
        "activate", "goals/auth.md", "--commit", cwd=repo, timeout=120,
        env={"GIT_DIR": str(other / ".git"), "GIT_INDEX_FILE": str(other / ".git" / "index")},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert git(other, "rev-parse", "HEAD").strip() == theirs
    assert git(other, "ls-files") == "x\n"
    assert APPROVED in at_head(repo)
    assert git(repo, "status", "--porcelain", "--", "goals/auth.md") == ""
