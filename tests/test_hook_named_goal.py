"""`goalfile hook stop --goal PATH` keeps the rules about the goal file it names: a goal file
git tracks must be shown by the working tree (not marked skip-worktree or assume-unchanged),
must continue the one HEAD holds (not another goal copied or linked over it), and a
repository git cannot list holds the agent. Naming the goal outright only narrows which goal
is looked at; it is no way around these rules. Real git repositories, real goalfile
processes fed a recorded host input; every `fix:` printed is run as written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import git, make_git_repo, run_goalfile, stop_input
from test_hook_discovery import fix_of, new_goal, outcome, sh, statuses


def stop(repo: Path, goal: str | None = None) -> dict[str, object]:
    """The Claude Code Stop hook in ``repo`` (``--json``), with ``--goal GOAL`` when given:
    its answer."""
    named = ("--goal", goal) if goal is not None else ()
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", *named, "--json", cwd=repo, input=stop_input(repo)
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return decoy_project(tmp_path)


def decoy_project(tmp_path: Path) -> Path:
    """A repository whose committed goal goals/real.md is active and unmet, and the agent's
    own goal goals/.cache/easy.md in a folder git ignores, honestly verified met."""
    root = make_git_repo(tmp_path / "project")
    new_goal(root, "real", "test -f done.txt")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    (root / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    new_goal(root, "easy", "true", "--dir", "goals/.cache")
    assert run_goalfile("verify", "goals/.cache/easy.md", cwd=root).returncode == 0
    return root


def held_by_real(answer: dict[str, object]) -> None:
    """The hook verified the committed goal: C1 is unmet, so the stop is held by it."""
    assert answer["decision"] == "block", answer
    reason = answer["host_output"]["reason"]  # type: ignore[index]
    assert str(reason).startswith("verify-goal real iteration 0: C1 unmet"), reason


@pytest.mark.parametrize("how", ["copy", "symlink"])
@pytest.mark.parametrize("named", ["relative", "absolute"])
def test_another_goal_at_the_named_goals_path_holds_the_agent(
    project: Path, how: str, named: str
) -> None:
    real = project / "goals" / "real.md"
    kept = real.read_bytes()
    real.unlink()
    if how == "copy":
        shutil.copyfile(project / "goals" / ".cache" / "easy.md", real)
    else:
        real.symlink_to(".cache/easy.md")
    goal = "goals/real.md" if named == "relative" else str(real)
    answer = stop(project, goal)
    assert answer["decision"] == "block", answer
    held = outcome(answer, "replaced")
    why = "its slug is easy, where HEAD's is real" if how == "copy" else "it is a symlink"
    assert why in str(held["reason"]), held
    assert fix_of(held["reason"]) == "git checkout HEAD -- goals/real.md"
    sh(fix_of(held["reason"]), project)
    assert real.read_bytes() == kept and not real.is_symlink()
    held_by_real(stop(project, goal))


def test_a_named_goal_hidden_from_git_holds_the_agent(project: Path) -> None:
    """`--skip-worktree` on the named goal, then the agent's met goal copied over it: `git
    status` shows nothing, and the hook held by the file's name verified the copy."""
    git(project, "update-index", "--skip-worktree", "goals/real.md")
    shutil.copyfile(project / "goals" / ".cache" / "easy.md", project / "goals" / "real.md")
    assert git(project, "status", "--porcelain") == ""
    answer = stop(project, "goals/real.md")
    assert answer["decision"] == "block", answer
    held = outcome(answer, "hidden")
    assert fix_of(held["reason"]) == "git update-index --no-skip-worktree -- goals/real.md"
    sh(fix_of(held["reason"]), project)
    answer = stop(project, "goals/real.md")  # git sees it again: the copy is named next
    held = outcome(answer, "replaced")
    sh(fix_of(held["reason"]), project)
    held_by_real(stop(project, "goals/real.md"))


def test_a_repository_git_cannot_list_holds_the_named_goal(project: Path) -> None:
    """The agent's met goal copied over the named one, and the index broken, so that git can
    neither list the goal files nor be asked for HEAD's copy: that is never "nothing to
    compare"."""
    shutil.copyfile(project / "goals" / ".cache" / "easy.md", project / "goals" / "real.md")
    (project / ".git" / "index").write_text("garbage\n", encoding="utf-8")
    answer = stop(project, "goals/real.md")
    assert answer["decision"] == "block", answer
    held = outcome(answer, "unlisted")
    reason = str(held["reason"])
    assert reason.startswith("goalfile cannot tell which goal files git tracks"), reason
    assert "index file smaller than expected" in reason, reason


def test_a_named_goal_git_does_not_track_holds_the_agent_once(project: Path) -> None:
    """A goal file git does not track (the agent's own, met, named on purpose) is no goal to
    pin the hook to: it holds the agent once; then the goals git holds decide
    (tests/test_hook_scope.py has more)."""
    answer = stop(project, "goals/.cache/easy.md")
    assert answer["decision"] == "block", answer
    assert statuses(answer) == ["unheld"], answer


# --- a goal file outside goals/: asked of git by its own path ------------------------------


@pytest.fixture
def planned(tmp_path: Path) -> Path:
    """A repository whose only goal, committed, is plans/real.md (outside goals/: `goalfile
    new --dir plans` writes it there, `goalfile focus` accepts it), active and unmet; and the
    agent's own met goal in a folder git ignores."""
    root = make_git_repo(tmp_path / "planned")
    new_goal(root, "real", "test -f done.txt", "--dir", "plans")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    (root / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    new_goal(root, "easy", "true", "--dir", "goals/.cache")
    assert run_goalfile("verify", "goals/.cache/easy.md", cwd=root).returncode == 0
    return root


@pytest.mark.parametrize("how", ["goal", "focus"])
def test_a_committed_goal_outside_goals_that_is_deleted_holds_the_agent(
    planned: Path, how: str
) -> None:
    """Deleting plans/real.md let the first stop go ("no goal file at plans/real.md", or, with
    a focus, "no active goal"): git was asked only about goals/ and .zetetic/goals/."""
    if how == "focus":
        done = run_goalfile("focus", "plans/real.md", cwd=planned)
        assert done.returncode == 0, done.stderr

    def answer() -> dict[str, object]:
        return stop(planned, "plans/real.md") if how == "goal" else stop(planned)

    kept = (planned / "plans" / "real.md").read_bytes()
    (planned / "plans" / "real.md").unlink()
    held = answer()
    assert held["decision"] == "block", held
    hidden = outcome(held, "hidden")
    assert fix_of(hidden["reason"]) == "git checkout -- plans/real.md", hidden
    sh(fix_of(hidden["reason"]), planned)
    assert (planned / "plans" / "real.md").read_bytes() == kept
    verified = answer()
    assert verified["decision"] == "block", verified
    reason = verified["host_output"]["reason"]  # type: ignore[index]
    assert str(reason).startswith("verify-goal real iteration 0: C1 unmet"), reason


@pytest.mark.parametrize("how", ["goal", "focus"])
def test_a_goal_outside_goals_hidden_or_swapped_holds_the_agent(planned: Path, how: str) -> None:
    """`--skip-worktree` on plans/real.md, then the agent's met goal copied over it: the hook
    verified the copy, met, and let the agent go."""
    if how == "focus":
        done = run_goalfile("focus", "plans/real.md", cwd=planned)
        assert done.returncode == 0, done.stderr

    def answer() -> dict[str, object]:
        return stop(planned, "plans/real.md") if how == "goal" else stop(planned)

    git(planned, "update-index", "--skip-worktree", "plans/real.md")
    shutil.copyfile(planned / "goals" / ".cache" / "easy.md", planned / "plans" / "real.md")
    assert git(planned, "status", "--porcelain") == ""
    held = outcome(answer(), "hidden")
    assert fix_of(held["reason"]) == "git update-index --no-skip-worktree -- plans/real.md"
    sh(fix_of(held["reason"]), planned)
    held = outcome(answer(), "replaced")  # git sees it again: the copy is named next
    assert fix_of(held["reason"]) == "git checkout HEAD -- plans/real.md", held
    sh(fix_of(held["reason"]), planned)
    verified = answer()
    reason = verified["host_output"]["reason"]  # type: ignore[index]
    assert str(reason).startswith("verify-goal real iteration 0: C1 unmet"), reason
