"""A `commondir` file planted in a work tree's git folder holds the agent, a first stop included.

git reads `commondir` in any git folder (it writes one only in a linked work tree's folder):
one line in the main work tree's `.git/commondir`, naming the git folder of the agent's clone
whose branch holds a met copy of the goal, made git read that clone's branches and objects
while `.git/HEAD`, the index and the reflog stayed as they were. At a session's first stop the
hook said "no active goal" and let the agent go; `rm .git/commondir` after the stop left
nothing. Real git repositories, the real `goalfile hook stop`.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import approved_repo, clean_env, fix_of, git, run_goalfile

GOAL = "goals/auth.md"


def _repo(tmp_path: Path) -> Path:
    return approved_repo(
        tmp_path / "app", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0"
    )


def stop(cwd: Path, session: str, *, active: bool = False) -> dict[str, object]:
    data = {"session_id": session, "cwd": str(cwd), "stop_hook_active": active}
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=cwd, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return json.loads(text) if text else {}


def planted(repo: Path, tmp_path: Path) -> Path:
    """The agent's clone, whose branch holds the goal verified met, named by a commondir
    planted in ``repo``'s git folder; the met copy is put in the working file too."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    git(clone, "config", "user.email", "tests@example.invalid")
    git(clone, "config", "user.name", "goalfile tests")
    (clone / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", GOAL, cwd=clone).returncode == 0
    git(clone, "commit", "-qam", "goal: auth")
    (clone / ".git" / "objects" / "info" / "alternates").write_text(f"{repo}/.git/objects\n")
    (repo / GOAL).write_bytes((clone / GOAL).read_bytes())
    (repo / ".git" / "commondir").write_text(f"{clone}/.git\n", encoding="utf-8")
    assert git(repo, "rev-parse", "HEAD") == git(clone, "rev-parse", "HEAD")  # git reads it
    return clone


def test_a_commondir_in_the_git_folder_holds_a_first_stop(tmp_path: Path) -> None:
    """Fails before the change: the first stop was let go with no answer at all."""
    repo = _repo(tmp_path)
    planted(repo, tmp_path)
    answer = stop(repo, "first")
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "its git folder holds a commondir file naming" in reason, reason
    fix = fix_of(reason)
    assert fix == 'mktemp -d | { read -r d && mv -- .git/commondir "$d"; }', fix
    subprocess.run(fix, shell=True, cwd=repo, check=True, env=clean_env())
    assert not (repo / ".git" / "commondir").exists()
    git(repo, "checkout", "-q", "--", GOAL)
    answer = stop(repo, "second")  # the repository's own branch: the goal is active, unmet
    assert str(answer.get("reason", "")).startswith("verify-goal auth iteration 0: C1 unmet")


def test_a_commondir_planted_after_a_hold_is_named_with_its_fix(tmp_path: Path) -> None:
    """The session's first stop held the agent for its unmet goal; it plants the commondir and
    stops (Claude Code marks that stop as continuing). The hold named the git folder "another
    git folder made at that path (a new repository, or a copy)", with no fix (seen with the
    real Claude Code, tests/hosts/test_sent_back_once.py): the git folder is the same one;
    only the repository it takes its branches and objects from is another."""
    repo = _repo(tmp_path)
    assert str(stop(repo, "later").get("reason", "")).startswith("verify-goal auth")
    clone = planted(repo, tmp_path)
    answer = stop(repo, "later", active=True)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert f"its git folder holds a commondir file naming {(clone / '.git').resolve()}" in reason, (
        reason
    )
    assert fix_of(reason) == 'mktemp -d | { read -r d && mv -- .git/commondir "$d"; }', reason


def test_a_linked_work_tree_is_not_held(tmp_path: Path) -> None:
    """Not a regression test (passes before the change): git's own `commondir` in a linked
    work tree's folder names the repository that lists it."""
    repo = _repo(tmp_path)
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    answer = stop(linked, "linked")
    assert "commondir" not in json.dumps(answer), answer
    assert str(answer.get("reason", "")).startswith("verify-goal auth iteration 0: C1 unmet")


def test_a_linked_work_trees_commondir_naming_another_repository_holds_it(
    tmp_path: Path,
) -> None:
    """The linked work tree's own `commondir` rewritten to name another repository (the
    agent's clone, whose branch holds a met copy of the goal): that repository lists no such
    work tree, and the stop is held, with no fix (git wrote `../..` there). Before, a second
    hold came with it, for the clone git read (HEAD on a branch it does not have), whose fix
    `git -C . symbolic-ref HEAD refs/heads/main` would have moved this work tree's HEAD."""
    repo = _repo(tmp_path)
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    gitdir = Path(git(linked, "rev-parse", "--absolute-git-dir").strip())
    assert (gitdir / "commondir").read_text(encoding="utf-8").strip() == "../.."
    (gitdir / "commondir").write_text(f"{clone}/.git\n", encoding="utf-8")
    answer = stop(linked, "linked")
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "which lists no such linked work tree" in reason, reason
    assert "fix:" not in reason and "(`../..`)" in reason, reason
    (gitdir / "commondir").write_text("../..\n", encoding="utf-8")  # as the advice says
    answer = stop(linked, "linked-again")
    assert str(answer.get("reason", "")).startswith("verify-goal auth iteration 0: C1 unmet")
