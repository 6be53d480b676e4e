"""The Stop hook runs the checks only of a goal whose approval a person made: one that git's
index or HEAD holds. An agent that can only write files (a host with its shell tool disallowed,
an MCP-only client) wrote `goals/evil.md`, active, with a row whose check runs any command and
an approval entry typed by hand (or none), and stopped: the hook picked every active goal and
ran that check, a command the agent could not run itself, and wrote `met`. A row added to a
committed, approved goal ran the same way (verify takes a tightening without a new approval).
Real git repositories, the real `goalfile hook stop` with a host's JSON on stdin."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import (
    committed_repo,
    git,
    goal_text,
    hand_written_goal,
    hook_answer,
    make_git_repo,
    row,
    run_goalfile,
    sh,
    write_goal,
)

EVIL = "id > PWNED"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return committed_repo(tmp_path / "project")


def approved_elsewhere(tmp_path: Path, check: str) -> str:
    """The text `goalfile new --activate` writes for a goal with ``check``, made in a scratch
    repository: every byte of it, approval entry and pin included, is text an agent can type."""
    scratch = make_git_repo(tmp_path / "scratch")
    done = run_goalfile(
        "new", "evil", "tidy up", "--check", check, "--expected", "exit 0", "--activate",
        cwd=scratch,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return (scratch / "goals" / "evil.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("approval", ["typed by hand", "none"])
def test_an_agent_written_goal_runs_nothing_in_the_hook(
    project: Path, tmp_path: Path, approval: str
) -> None:
    text = (
        approved_elsewhere(tmp_path, EVIL)
        if approval == "typed by hand"
        else goal_text(slug="evil", rows=(row("C1", EVIL, "exit 0"),))
    )
    evil = write_goal(project / "goals", text, "evil.md", stage=False)  # a Write tool's file
    answer = hook_answer(project)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert reason.startswith("goalfile did not run the checks of goals/evil.md"), reason
    assert "neither git's index nor HEAD holds the goal file" in reason
    if approval == "none":  # as a person who forgot `goalfile activate` wrote it
        assert (
            "\n  fix: a person who has read its checks approves them with `goalfile activate "
            "goals/evil.md`, which stages the goal file\n" in reason
        ), reason
    else:  # its own ledger approves it: only git does not hold that approval
        assert "stages it: `git add -- goals/evil.md`" in reason, reason
    answer = hook_answer(project, active=True)  # held once: then let go, with the message
    assert "decision" not in answer, answer
    assert "did not run the checks of goals/evil.md" in str(answer["systemMessage"])
    assert not (project / "PWNED").exists()
    assert ") by verify-goal" not in evil.read_text(encoding="utf-8")  # nothing ran, no `met`


def test_a_row_added_to_a_committed_goal_runs_only_once_a_person_approves_it(
    project: Path,
) -> None:
    done = run_goalfile(
        "new", "demo", "it works", "--check", "test -f done", "--expected", "exit 0",
        "--activate", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(project, "commit", "-qm", "goal")
    path = project / "goals" / "demo.md"
    text = path.read_text(encoding="utf-8")
    added = "| C2 | tidy | `id > PWNED` | exit 0 | deterministic |\n"
    at = text.index("\n", text.index("| C1 ")) + 1
    path.write_text(text[:at] + added + text[at:], encoding="utf-8")  # a tightening
    answer = hook_answer(project)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert reason.startswith("goalfile did not run the checks of goals/demo.md"), reason
    assert "the contract changed since the newest approval entry" in reason
    assert "`goalfile activate --reapprove goals/demo.md --reason TEXT`" in reason
    assert not (project / "PWNED").exists()
    # the person reads the added row and approves it: activate stages the goal file
    done = run_goalfile(
        "activate", "--reapprove", "goals/demo.md", "--reason", "C2 added", cwd=project
    )
    assert done.returncode == 0, done.stderr
    assert "staged goals/demo.md (git add)" in done.stderr
    answer = hook_answer(project)
    assert str(answer.get("reason", "")).startswith("verify-goal demo iteration 0: C1 unmet"), (
        answer
    )
    assert (project / "PWNED").exists()  # approved now: the person's to run


def test_the_readme_start_and_a_committed_draft_activated_later_are_run(project: Path) -> None:
    """Not regression tests (both pass before the change): `goalfile new --activate` with no
    commit yet, and a draft committed for review and activated later, are verified by the hook
    (activate stages the goal file whose contract it approves)."""
    done = run_goalfile(
        "new", "demo", "it works", "--check", "test -f done", "--expected", "exit 0",
        "--activate", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = hook_answer(project)
    assert str(answer.get("reason", "")).startswith("verify-goal demo iteration 0: C1 unmet")
    (project / "goals" / "demo.md").unlink()
    git(project, "rm", "-q", "--cached", "goals/demo.md")
    done = run_goalfile(
        "new", "draft", "it works", "--check", "test -f done", "--expected", "exit 0",
        "--non-goal", "README.md stays as it is", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(project, "add", "-A")
    git(project, "commit", "-qm", "a draft for review")
    assert run_goalfile("activate", "goals/draft.md", cwd=project).returncode == 0
    answer = hook_answer(project)
    assert str(answer.get("reason", "")).startswith("verify-goal draft iteration 0: C1 unmet")


def test_a_goal_the_skill_family_wrote_runs_once_a_person_stages_it(project: Path) -> None:
    """An active goal with no approval entry (how the skill family writes one) is run once git
    holds it as it is: staged (or committed) by the person as it is, without the approval
    entry the printed fix (`goalfile activate`) would add."""
    write_goal(
        project / "goals", goal_text(rows=(row("C1", "test -f done", "exit 0"),)), stage=False
    )
    answer = hook_answer(project)
    assert "`goalfile activate goals/demo.md`" in str(answer.get("reason")), answer
    git(project, "add", "--", "goals/demo.md")
    answer = hook_answer(project)
    assert str(answer.get("reason", "")).startswith("verify-goal demo iteration 1: C1 unmet")


def printed_fix(reason: str) -> str:
    """The command of a hold's `fix:` line (the first code span on it)."""
    found = re.search(r"\n  fix: [^`\n]*`([^`]+)`", reason)
    assert found is not None, reason
    return found.group(1)


def test_the_repro_a_goal_the_agent_wrote_runs_nothing_until_a_person_runs_the_printed_fix(
    project: Path,
) -> None:
    """The repro, as written: in a committed repository set up with goalfile, an agent that
    can only write files writes `goals/evil.md` (untracked, active, check `id > PWNED`, no
    approval entry) and the host's Stop hook runs `goalfile hook stop` with the JSON on stdin
    (no --agent). Nothing runs and nothing is written; the hold names the goal, and its fix,
    run as written by a person, approves it: from then on the hook runs its checks."""
    assert run_goalfile("init", "--no-goal", cwd=project).returncode == 0
    git(project, "add", "-A")
    git(project, "commit", "-qm", "goalfile set up")
    evil = project / "goals" / "evil.md"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text(hand_written_goal("evil", check=EVIL), encoding="utf-8")
    hook = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name": "Stop"})
    done = run_goalfile("hook", "stop", cwd=project, input=hook)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert not (project / "PWNED").exists()
    assert evil.read_text(encoding="utf-8") == hand_written_goal("evil", check=EVIL)
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    reason = answer["reason"]
    assert reason.startswith("goalfile did not run the checks of goals/evil.md: "), reason
    assert printed_fix(reason) == "goalfile activate goals/evil.md"
    # the person reads the check and runs the fix as printed: it approves and stages the goal
    sh(printed_fix(reason), project)
    assert git(project, "diff", "--cached", "--name-only").split() == ["goals/evil.md"]
    done = run_goalfile("hook", "stop", cwd=project, input=hook)
    assert "verify-goal evil iteration 0: C1 met; status: met" in done.stdout, done.stdout
    assert (project / "PWNED").exists()  # approved: the person's to run


def test_a_goal_in_a_folder_git_ignores_gets_a_fix_that_stages_it_with_force(
    project: Path,
) -> None:
    """`goalfile activate` never forces an ignored file into git's index: the fix of a goal
    in a folder git ignores adds `git add -f`, and works as written from a sub-folder."""
    (project / ".gitignore").write_text("goals/.cache/\n", encoding="utf-8")
    cache = project / "goals" / ".cache"
    write_goal(cache, hand_written_goal("aaa", check="touch RAN"), "aaa.md", stage=False)
    (project / "src").mkdir()
    answer = hook_answer(project / "src")
    fix = printed_fix(str(answer.get("reason")))
    assert fix == (
        "goalfile activate ../goals/.cache/aaa.md && git -C .. add -f -- goals/.cache/aaa.md"
    ), answer
    assert not (project / "RAN").exists()
    sh(fix, project / "src")
    answer = hook_answer(project / "src")
    assert "verify-goal aaa iteration 0: C1 met" in str(answer.get("systemMessage")), answer
    assert (project / "RAN").exists()


def test_a_goal_linked_into_another_repository_is_held_for_the_link_first(
    project: Path, tmp_path: Path
) -> None:
    """An untracked goal file moved into another repository, a link left in its place: the
    hold names the link and the fix that puts the file back (verify's refusal, before any
    check), not a `git add` of a path outside the repository, which git refuses."""
    done = run_goalfile(
        "new", "demo", "it works", "--check", "touch RAN", "--expected", "exit 0",
        "--activate", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(project, "rm", "-q", "--cached", "--", "goals/demo.md")
    other = make_git_repo(tmp_path / "other")
    (other / "goals").mkdir()
    moved = other / "goals" / "demo.md"
    (project / "goals" / "demo.md").rename(moved)
    (project / "goals" / "demo.md").symlink_to(moved)
    reason = str(hook_answer(project).get("reason"))
    assert "the goal file is reached through a symbolic link" in reason, reason
    assert printed_fix(reason).startswith("unlink -- "), reason
    assert "did not run the checks" not in reason and not (project / "RAN").exists()
    assert not (other / "RAN").exists()
