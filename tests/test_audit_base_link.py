"""`audit --against REF` of a goal path the base holds as a symbolic link reads the goal through
the link *at the base* (`git show REF:TARGET`); a link the base holds to a file it does not
hold (the goal was approved through the link and only the link was committed), and a base goal
file that cannot be read as one, are findings, not notes: nothing on the base backs what the
branch holds there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import git, run_goalfile

NEW = ("new", "auth", "tests pass", "--non-goal", "tests/ unchanged")


def new_goal(repo: Path, check: str, *more: str) -> None:
    done = run_goalfile(*NEW, "--check", check, "--expected", "exit 0", *more, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr


def audit(repo: Path) -> tuple[int, dict[str, set[str]], str]:
    done = run_goalfile("audit", "--json", "--against", "main", cwd=repo)
    document = json.loads(done.stdout)
    codes = {f["path"]: {x["code"] for x in f["findings"]} for f in document["files"]}
    return done.returncode, codes, done.stdout


def base_with_link(repo: Path, *, commit_target: bool) -> None:
    git(repo, "commit", "-q", "--allow-empty", "-m", "init")
    git(repo, "branch", "-M", "main")
    new_goal(repo, "test -d goals")
    (repo / "goals" / "current.md").symlink_to("auth.md")
    assert run_goalfile("activate", "goals/current.md", cwd=repo).returncode == 0
    paths = ["goals/current.md", "goals/auth.md"] if commit_target else ["goals/current.md"]
    git(repo, "commit", "-q", "-m", "goal: auth", "--", *paths)
    git(repo, "checkout", "-q", "-b", "agent")


def test_a_link_the_base_holds_to_a_goal_it_never_committed_is_a_finding(repo: Path) -> None:
    base_with_link(repo, commit_target=False)
    # the agent's own goal of the same slug over the file the link leads to
    (repo / "goals" / "auth.md").unlink()
    new_goal(repo, "true", "--activate")
    assert run_goalfile("verify", "goals/auth.md", cwd=repo).returncode == 0
    git(repo, "add", "goals/auth.md")
    git(repo, "commit", "-q", "-m", "work")
    code, found, out = audit(repo)
    assert code == 1, out
    assert "base-goal-unreadable" in found["goals/current.md"], out
    assert "goals/current.md -> goals/auth.md" in out or "current.md -> auth.md" in out, out
    # the hint names the link and its target, from here (it said `git commit -- LINK TARGET`)
    [finding] = [
        f
        for item in json.loads(out)["files"]
        for f in item["findings"]
        if f["code"] == "base-goal-unreadable"
    ]
    assert "`git commit -- goals/current.md goals/auth.md`" in finding["hint"], finding


def test_a_goal_the_base_holds_through_a_link_is_compared_through_it(repo: Path) -> None:
    base_with_link(repo, commit_target=True)
    # an honest iteration: verify appends to the ledger; the link's goal is compared, clean
    assert run_goalfile("verify", "goals/current.md", cwd=repo).returncode == 0
    git(repo, "commit", "-q", "-am", "verified")
    code, found, out = audit(repo)
    assert code == 0, out
    assert "cannot be read" not in out, out
    # the approved check rewritten on the branch: the link's path reports it too
    goal = repo / "goals" / "auth.md"
    goal.write_text(goal.read_text(encoding="utf-8").replace("`test -d goals`", "`true`"))
    git(repo, "commit", "-q", "-am", "loosen")
    code, found, out = audit(repo)
    assert code == 1, out
    assert "contract-change-unapproved" in found["goals/current.md"], out


def test_a_base_goal_that_cannot_be_read_is_a_finding(repo: Path) -> None:
    git(repo, "commit", "-q", "--allow-empty", "-m", "init")
    git(repo, "branch", "-M", "main")
    new_goal(repo, "test -d goals", "--activate")
    goal = repo / "goals" / "auth.md"
    text = goal.read_text(encoding="utf-8")
    goal.write_text(text.replace("slug: auth", "slug: [auth", 1))  # YAML that does not parse
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "goal: auth (broken)")
    git(repo, "checkout", "-q", "-b", "agent")
    (repo / "goals" / "auth.md").unlink()
    new_goal(repo, "true", "--activate")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "work")
    code, found, out = audit(repo)
    assert code == 1, out
    assert "base-goal-unreadable" in found["goals/auth.md"], out


def test_a_base_link_out_of_the_repository_is_shown_by_the_fix(repo: Path, tmp_path: Path) -> None:
    """A link the base holds to a file outside the repository: only a person can judge what it
    stood for, and the fix is the git command that shows it (it said "commit the goal file the
    link leads to ... or name the goal file itself")."""
    git(repo, "commit", "-q", "--allow-empty", "-m", "init")
    git(repo, "branch", "-M", "main")
    outside = tmp_path / "outside.md"
    new_goal(repo, "test -d goals")
    (repo / "goals" / "auth.md").rename(outside)
    (repo / "goals" / "auth.md").symlink_to(outside)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "goal: auth, a link")
    git(repo, "checkout", "-q", "-b", "agent")
    (repo / "goals" / "auth.md").unlink()
    new_goal(repo, "true", "--activate")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "work")
    code, found, out = audit(repo)
    assert code == 1 and "base-goal-unreadable" in found["goals/auth.md"], out
    [finding] = [
        f
        for item in json.loads(out)["files"]
        for f in item["findings"]
        if f["code"] == "base-goal-unreadable"
    ]
    assert finding["hint"] == "`git show main:./goals/auth.md` shows it", finding
    assert "a person judges the file main holds" in finding["message"], finding
    shown = subprocess.run(
        ["bash", "-c", "git show main:./goals/auth.md"], cwd=repo, capture_output=True, text=True
    )
    assert shown.returncode == 0 and shown.stdout == str(outside), shown
