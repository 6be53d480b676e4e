"""A goal active at an earlier stop of the session, gone at this one because HEAD moved: the
hook never lets the agent go silently.

After one hold the agent kept its goal file aside, ran `git checkout -f --detach HEAD~1` (the
commit before the person's goal) and stopped: HEAD and the index held no goal, the rule for a
goal gone with no trace in git stood aside because HEAD had moved ("a person retires a goal by
a commit"), and the hook said "no active goal" with nothing printed; `git checkout` back and
the file copied back left nothing in git. Now HEAD on another branch or commit holds the agent
once, with the checkout back; the same branch moved (a commit, a reset) lets it go with a
message naming the goal. Real git repositories, the real `goalfile hook stop`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import (
    approved_project,
    committed_repo,
    copy_of,
    fix_of,
    git,
    made_once,
    run_goalfile,
    shell,
)

from goalfile.sessionmemory import write_sealed

GOAL = "goals/auth.md"


def _project(root: Path, env: dict[str, str]) -> None:
    approved_project(root, env)
    git(root, "checkout", "-qb", "feature")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _project)


@pytest.fixture
def project(tmp_path: Path, made: Path) -> Path:
    """README's start: the goal approved and committed on main, the agent on its branch (a
    copy of the repository made once for the module)."""
    return copy_of(made, tmp_path / "project")


def stop(project: Path, *, active: bool) -> tuple[dict[str, object], str]:
    data = {"session_id": "moved", "cwd": str(project), "stop_hook_active": active}
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=project, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return (json.loads(text) if text else {}), done.stderr


def test_a_checkout_of_a_commit_without_the_goal_holds_once_with_the_way_back(
    project: Path, tmp_path: Path
) -> None:
    first, _ = stop(project, active=False)
    assert first.get("decision") == "block"  # the goal is unmet
    shutil.copy(project / GOAL, tmp_path / "saved.md")
    git(project, "checkout", "-qf", "--detach", "HEAD~1")
    assert not (project / GOAL).exists()
    held, said = stop(project, active=True)  # the agent is continuing because of the hold
    assert held.get("decision") == "block", (held, said)
    reason = str(held["reason"])
    assert (
        "goalfile cannot verify goals/auth.md: at an earlier stop of this session it was an "
        "active goal on feature, and now HEAD is "
    ) in reason, reason
    assert fix_of(reason) == "git checkout feature"
    again, _ = stop(project, active=False)  # while it stands: told, not held again
    assert again.get("decision") is None and "HEAD is" in str(again.get("systemMessage")), again
    assert shell(fix_of(reason), project).returncode == 0
    shutil.copy(tmp_path / "saved.md", project / GOAL)
    back, _ = stop(project, active=True)  # the goal is looked at again: still unmet
    assert back.get("decision") == "block" and "C1 unmet" in str(back["reason"]), back


def test_head_moved_away_again_after_the_fix_ran_is_held_again(project: Path) -> None:
    """Held once per finding: the agent ran the printed checkout back and moved HEAD away
    again before its next stop, which the hook took for the hold it had made (it never saw
    HEAD back) and let go with a message. git writes HEAD anew at each checkout, so a HEAD
    written since the hold is another finding; one left as it was is still let go."""
    first, _ = stop(project, active=False)
    assert first.get("decision") == "block"
    git(project, "checkout", "-qf", "--detach", "HEAD~1")
    held, _ = stop(project, active=True)
    assert held.get("decision") == "block", held
    assert shell(fix_of(held["reason"]), project).returncode == 0
    git(project, "checkout", "-qf", "--detach", "HEAD~1")  # the same commit, again
    again, said = stop(project, active=True)
    assert again.get("decision") == "block", (again, said)
    assert fix_of(again["reason"]) == "git checkout feature"
    told, _ = stop(project, active=True)  # left as it is: let go, with the message
    assert told.get("decision") is None and "HEAD is" in str(told.get("systemMessage")), told


def test_the_same_branch_moved_is_said_at_the_stop(project: Path) -> None:
    first, _ = stop(project, active=False)
    assert first.get("decision") == "block"
    git(project, "checkout", "-qf", "main")
    git(project, "branch", "-qf", "feature", "HEAD~1")  # feature moved back past the goal
    git(project, "checkout", "-qf", "feature")
    told, said = stop(project, active=True)
    assert told.get("decision") is None, told
    message = str(told.get("systemMessage"))
    assert (
        "goalfile: goals/auth.md was an active goal at an earlier stop of this session and is "
        "gone now: feature moved since (a commit or a reset)"
    ) in message, (told, said)


def verified_on_a_side_branch(project: Path) -> None:
    """A branch ``side`` made at HEAD whose commit holds the goal really verified `met` (the
    check's file committed there only); HEAD stays on it."""
    git(project, "checkout", "-qf", "-b", "side")
    (project / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", GOAL, cwd=project).returncode == 0
    git(project, "add", "-A")
    git(project, "commit", "-qm", "side")


def test_a_side_branch_whose_commit_holds_the_goal_met_holds_once(project: Path) -> None:
    """The goal really verified `met` on a side branch (the check's file committed there
    only), HEAD on it for the stop, the branch deleted after: only the reflog showed it."""
    first, _ = stop(project, active=False)
    assert first.get("decision") == "block"
    verified_on_a_side_branch(project)
    held, said = stop(project, active=True)
    assert held.get("decision") == "block", (held, said)
    reason = str(held["reason"])
    assert "it was an active goal on feature, and now HEAD is side, where the goal asks" in reason
    assert fix_of(reason) == "git checkout feature"
    again, _ = stop(project, active=True)
    assert "now HEAD is side" in str(again.get("systemMessage")), again


def test_a_new_branch_on_which_the_hook_verifies_the_goal_met_is_let_go(project: Path) -> None:
    first, _ = stop(project, active=False)
    assert first.get("decision") == "block"
    git(project, "checkout", "-qb", "fix")
    (project / "ok").write_text("", encoding="utf-8")
    done, said = stop(project, active=True)
    assert "decision" not in done and "C1 met; status: met" in str(done.get("systemMessage"))
    assert "HEAD is" not in said


def test_a_goal_name_with_a_nul_in_the_session_record_is_passed_over(project: Path) -> None:
    """The session's record is a file the agent can write: a goal named there with a NUL
    byte (no path can hold one) is passed over, and the branch switch still holds once."""
    import os

    first, _ = stop(project, active=False)
    assert first.get("decision") == "block"
    records = list((Path(os.environ["XDG_STATE_HOME"]) / "goalfile" / "sessions").iterdir())
    assert len(records) == 1, records
    data = json.loads(records[0].read_text(encoding="utf-8"))
    for repository in data["repositories"]:
        repository["goals"].append("notes/x\0y.md")
    write_sealed(records[0], data)  # sealed with the key, which is the user's to read too
    verified_on_a_side_branch(project)
    held, said = stop(project, active=True)
    assert held.get("decision") == "block", (held, said)
    reason = str(held["reason"])
    assert "now HEAD is side, where the goal asks" in reason, reason
    assert fix_of(reason) == "git checkout feature"


def test_from_a_detached_head_the_fix_checks_out_that_commit_again(
    project: Path, tmp_path: Path
) -> None:
    """The session stopped first on a detached HEAD (a CI checkout, a bisect): the way back is
    that commit, detached again, and the printed command takes HEAD there."""
    git(project, "checkout", "-q", "--detach")
    commit = git(project, "rev-parse", "HEAD").strip()
    first, _ = stop(project, active=False)
    assert first.get("decision") == "block"
    shutil.copy(project / GOAL, tmp_path / "saved.md")
    git(project, "checkout", "-qf", "--detach", "HEAD~1")
    held, said = stop(project, active=True)
    assert held.get("decision") == "block", (held, said)
    reason = str(held["reason"])
    assert f"it was an active goal on {commit[:12]}, and now HEAD is " in reason, reason
    assert fix_of(reason) == f"git checkout --detach {commit}"
    assert shell(fix_of(reason), project).returncode == 0
    assert git(project, "rev-parse", "HEAD").strip() == commit
    shutil.copy(tmp_path / "saved.md", project / GOAL)
    back, _ = stop(project, active=True)
    assert back.get("decision") == "block" and "C1 unmet" in str(back["reason"]), back


@pytest.fixture
def staged(tmp_path: Path) -> Path:
    """The goal as the goal skill writes it: approved and staged (`goalfile new ...
    --activate`), never committed, on the agent's branch."""
    root = committed_repo(tmp_path / "staged")
    git(root, "commit", "-q", "--allow-empty", "-m", "second")
    git(root, "checkout", "-qb", "feature")
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--activate", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert git(root, "diff", "--cached", "--name-only") == f"{GOAL}\n"
    return root


@pytest.mark.parametrize(
    "move", [("checkout", "-qf", "--detach", "HEAD~1"), ("reset", "-q", "--hard")]
)
def test_a_goal_only_staged_taken_away_is_put_back_by_the_printed_fix(
    staged: Path, move: tuple[str, ...]
) -> None:
    """`git checkout -f` of another commit, or `git reset --hard`, takes away a goal only
    git's index held, and no branch holds it: the fix was `git checkout feature` (for the
    reset, no fix at all), which put nothing back. The session's record keeps the object id of
    the index's copy, and the fix takes it from git's object store."""
    first, _ = stop(staged, active=False)
    assert first.get("decision") == "block"
    approved = git(staged, "show", f":{GOAL}")
    git(staged, *move)
    assert not (staged / GOAL).exists()
    held, said = stop(staged, active=True)
    assert held.get("decision") == "block", (held, said)
    reason = str(held["reason"])
    fix = fix_of(reason)
    assert "update-index --add --cacheinfo 100644," in fix and f",{GOAL}" in fix, reason
    if move[0] == "checkout":
        assert fix.startswith("git checkout feature && git update-index"), fix
    assert shell(fix, staged).returncode == 0
    assert git(staged, "branch", "--show-current").strip() == "feature"
    assert git(staged, "show", f":{GOAL}") == approved  # staged as it was
    assert (staged / GOAL).read_text(encoding="utf-8") == approved
    back, _ = stop(staged, active=True)  # the goal is verified again: still unmet
    assert back.get("decision") == "block" and "C1 unmet" in str(back["reason"]), back
