"""`audit --against REF` reads the approved copy from git's objects as their names say.

git does not hash a blob or a tree when it reads one. The agent loosened its check on a
branch, re-approved and met it, and `audit --against main` showed the change; it then wrote
its own goal file over the loose object of main's blob of the goal (no commit made, no ref
moved, `git status` clean), and audit compared the branch with itself: "clean", no change
shown. A tree of main written over without the goal's entry hid a goal the branch deleted;
for a goal new since main, its first committed version (the person's approval) written over
hid the change. Every object audit reads from git is now checked against its name, and one
that does not hash to it stops the audit (exit 2), naming it, with `git fsck` (which names
its file) as the fix.

Real goalfile processes, real git repositories.
"""

from __future__ import annotations

from pathlib import Path

from conftest import (
    approved_repo,
    base_repo,
    fix_of,
    git,
    overwrite_object,
    run_goalfile,
    shell,
)

MARK = "git's objects do not hold what their names say"


def _loosened(tmp_path: Path) -> Path:
    """The person's approved goal on main, pushed to a remote (`origin`, objects copied, not
    linked); on the branch `agent`, the check loosened to `true`, re-approved by the agent,
    verified met and committed."""
    repo = approved_repo(
        tmp_path / "app", "real", "ok exists", "--check", "test -f ok", "--expected", "exit 0"
    )
    git(tmp_path, "clone", "-q", "--bare", "--no-local", str(repo), str(tmp_path / "origin.git"))
    git(repo, "remote", "add", "origin", str(tmp_path / "origin.git"))
    git(repo, "fetch", "-q", "origin")
    git(repo, "checkout", "-qb", "agent")
    _loosen(repo)
    honest = run_goalfile("audit", "--against", "main", "goals/real.md", cwd=repo)
    assert "C1 check: `test -f ok` → `true`" in honest.stdout, honest.stdout + honest.stderr
    return repo


def _loosen(repo: Path) -> None:
    """The agent's commit: the check loosened to `true`, re-approved, verified met."""
    goal = repo / "goals" / "real.md"
    text = goal.read_text(encoding="utf-8")
    goal.write_text(text.replace("| `test -f ok` | exit 0 |", "| `true` | exit 0 |"), "utf-8")
    done = run_goalfile("activate", "--reapprove", "goals/real.md", "--reason", "x", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert run_goalfile("verify", "goals/real.md", cwd=repo).returncode == 0
    git(repo, "commit", "-qam", "work")


def test_a_base_blob_written_over_stops_the_audit(tmp_path: Path) -> None:
    repo = _loosened(tmp_path)
    blob = git(repo, "rev-parse", "main:goals/real.md").strip()
    written = overwrite_object(repo, blob, "blob", (repo / "goals" / "real.md").read_bytes())
    assert git(repo, "status", "--porcelain") == ""
    done = run_goalfile("audit", "--against", "main", "goals/real.md", cwd=repo)
    assert done.returncode == 2, done.stdout + done.stderr  # was 0: "clean", no change shown
    assert "clean" not in done.stdout
    assert MARK in done.stderr and f"for main:goals/real.md: the blob object {blob}" in done.stderr
    fsck = shell(fix_of(done.stderr), repo)  # the fix, as written, names the object's file
    assert fsck.returncode != 0 and f".git/objects/{blob[:2]}/{blob[2:]}" in fsck.stderr, fsck
    written.unlink()  # what the fix says next: delete that file, fetch the object again
    assert "--refetch" in done.stderr
    git(repo, "fetch", "-q", "--refetch", "origin")
    again = run_goalfile("audit", "--against", "main", "goals/real.md", cwd=repo)
    assert "C1 check: `test -f ok` → `true`" in again.stdout, again.stdout + again.stderr


def test_a_base_tree_written_over_does_not_hide_a_deleted_goal(tmp_path: Path) -> None:
    repo = approved_repo(tmp_path / "app", "real", "ok", "--check", "true", "--expected", "exit 0")
    git(repo, "checkout", "-qb", "agent")
    git(repo, "rm", "-q", "goals/real.md")
    git(repo, "commit", "-qm", "no goal")
    honest = run_goalfile("audit", "--against", "main", cwd=repo)
    assert honest.returncode == 1 and "goal-deleted" in honest.stdout, honest.stdout
    tree = git(repo, "rev-parse", "main:goals").strip()
    overwrite_object(repo, tree, "tree", b"")  # main's goals/ now lists nothing
    done = run_goalfile("audit", "--against", "main", cwd=repo)
    assert done.returncode == 2, done.stdout + done.stderr  # was 0: no goal to audit
    assert MARK in done.stderr and f"the tree object {tree} holds bytes" in done.stderr


def test_a_version_the_branch_committed_written_over_stops_the_audit(tmp_path: Path) -> None:
    """A goal new since main: the person approved and committed it on the branch, the agent
    loosened and re-approved it in a later commit. The first committed version is the
    approval audit holds the goal to: its blob written over with the loosened text showed
    no change at all."""
    repo = base_repo(tmp_path / "app")
    git(repo, "checkout", "-qb", "agent")
    new = ("new", "real", "ok exists", "--check", "test -f ok", "--expected", "exit 0")
    assert run_goalfile(*new, "--activate", "--commit", cwd=repo).returncode == 0
    _loosen(repo)
    honest = run_goalfile("audit", "--against", "main", "goals/real.md", cwd=repo)
    assert "C1 check: `test -f ok` → `true`" in honest.stdout, honest.stdout + honest.stderr
    first = git(repo, "rev-parse", "HEAD~1:goals/real.md").strip()
    overwrite_object(repo, first, "blob", (repo / "goals" / "real.md").read_bytes())
    done = run_goalfile("audit", "--against", "main", "goals/real.md", cwd=repo)
    assert done.returncode == 2, done.stdout + done.stderr  # was 0, no change shown
    assert MARK in done.stderr and f"the blob object {first} holds bytes" in done.stderr
