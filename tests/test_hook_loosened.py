"""A `met` under criteria the agent loosened and re-approved itself is no way to stop unseen.

The person's goal was committed (`goalfile new ... --activate --commit`, check `test -f ok`).
The agent changed the check to `true` and ran `goalfile activate --reapprove`, which stages the
goal file: the index's copy approved the agent's contract, the hook's verify ran `true`, wrote
`met`, and Claude Code showed the person `C1 met; status: met`; `git checkout HEAD -- PATH`
after the stop took the re-approval away. A `met` now counts at the stop only under the
contract HEAD's copy approves, or one that only tightens it; else the stop is held once with
each change, and then let go with them.

Real goalfile processes, real git repositories.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conftest import (
    approved_repo,
    clean_env,
    fix_of,
    git,
    hook_answer,
    make_git_repo,
    run_goalfile,
    sh,
)

CHECK_ROW = "| `test -f ok` | exit 0"


def _repo(tmp_path: Path) -> Path:
    """The person's repository: one approved goal, committed, whose check fails."""
    return approved_repo(
        tmp_path / "app", "real", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--non-goal", "nothing else changes",
    )  # fmt: skip


def _edit_criteria(repo: Path, old: str, new: str) -> None:
    """Replace ``old`` with ``new`` in the criteria section only, as the agent's editor does."""
    path = repo / "goals" / "real.md"
    text = path.read_text(encoding="utf-8")
    start = text.index("## Acceptance criteria")
    end = text.index("\n## ", start)
    assert old in text[start:end]
    path.write_text(text[:start] + text[start:end].replace(old, new, 1) + text[end:], "utf-8")


def _loosen_verify_and_commit(repo: Path) -> None:
    """What the agent does once sent back: loosens C1's check, re-approves it itself, verifies
    the goal `met` and commits the file."""
    _edit_criteria(repo, CHECK_ROW, "| `true` | exit 0")
    _reapprove(repo)
    done = run_goalfile("verify", "goals/real.md", cwd=repo)
    assert done.returncode == 0 and "status: met" in done.stdout, done.stdout + done.stderr
    git(repo, "commit", "-qam", "simpler")


def _reapprove(repo: Path) -> None:
    done = run_goalfile("activate", "--reapprove", "goals/real.md", "--reason", "simpler", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "staged goals/real.md (git add)" in done.stderr


def test_a_loosened_check_the_agent_re_approved_holds_the_stop(tmp_path: Path) -> None:
    """Fails before the change: the second stop was let go with `C1 met; status: met` alone,
    and the first stop of the next turn was let go without a word. The stop the host marks as
    continuing (the agent was sent back once for its unmet goal) is held too, once: it was let
    go with the changes named."""
    repo = _repo(tmp_path)
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet
    _edit_criteria(repo, CHECK_ROW, "| `true` | exit 0")
    _reapprove(repo)
    # the agent, sent back once, stops again: held once, with every change named
    answer = hook_answer(repo, active=True)
    assert answer.get("decision") == "block", answer
    assert "- C1 check: `test -f ok` → `true`" in str(answer["reason"]), answer
    # and stops again, the file as it was: let go, with every change named, and the commit
    # that approves it addressed to the person (never in a reason the agent is sent back with)
    answer = hook_answer(repo, active=True)
    message = str(answer.get("systemMessage", ""))
    assert "decision" not in answer, answer
    assert "met only under a contract that HEAD's copy of it does not approve" in message
    assert "- C1 check: `test -f ok` → `true`" in message, message
    assert "by activate`, which HEAD does not hold" in message, message
    assert "a person who approves the change commits it: `git add -- goals/real.md" in message
    # the first stop of the next turn: the met the hook wrote is checked again, and held
    answer = hook_answer(repo)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "- C1 check: `test -f ok` → `true`" in reason, reason
    assert "do not change, re-approve or commit criteria to stop" in reason, reason
    assert "git commit" not in reason, reason
    # the agent's fix, run as written, puts HEAD's approved criteria back (the file kept beside
    # it): the next stop verifies the approved check, unmet
    fix = fix_of(reason)
    assert fix.startswith("[ ! -e goals/real.md.goalfile-saved ] && cp -- goals/real.md "), fix
    done = subprocess.run(fix, shell=True, cwd=repo, env=clean_env(), capture_output=True)
    assert done.returncode == 0, done
    assert (repo / "goals" / "real.md.goalfile-saved").is_file()
    answer = hook_answer(repo)
    assert answer.get("decision") == "block", answer
    assert "C1 unmet" in str(answer["reason"]), answer
    assert "does not approve" not in str(answer["reason"]), answer


def test_the_person_who_approves_a_loosening_commits_it_as_the_message_says(
    tmp_path: Path,
) -> None:
    """The commit the let-go message gives the person, run as written, makes the change
    HEAD's: the met counts, and the stop is let go."""
    repo = _repo(tmp_path)
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet
    _edit_criteria(repo, CHECK_ROW, "| `true` | exit 0")
    _reapprove(repo)
    assert hook_answer(repo, active=True).get("decision") == "block"
    message = str(hook_answer(repo, active=True).get("systemMessage", ""))
    commit = message.split("commits it: `", 1)[1].split("`", 1)[0]
    assert commit.startswith("git add -- goals/real.md && git commit -m"), commit
    subprocess.run(commit, shell=True, cwd=repo, check=True, env=clean_env(), capture_output=True)
    assert hook_answer(repo) == {}, "a change HEAD holds is the person's: met, let go"


def test_a_tightening_staged_is_met_as_before(tmp_path: Path) -> None:
    """Not a regression test (passes before the change): a clause added and re-approved,
    staged only, is a tightening; its `met` lets the agent go without a word."""
    repo = _repo(tmp_path)
    (repo / "ok").write_text("", encoding="utf-8")
    _edit_criteria(repo, CHECK_ROW, "| `test -f ok` | exit 0; output empty")
    _reapprove(repo)
    answer = hook_answer(repo)
    assert "decision" not in answer, answer
    assert "does not approve" not in str(answer), answer


def test_a_run_order_the_agent_re_approved_holds_the_stop(tmp_path: Path) -> None:
    """Fails before the change: the order rows run in is not in the contract's digest, so a
    re-approval that only moved `touch ok` (C2) above `test -f ok` (C1) was the same contract
    to the rule above, and the stop was let go with `C2 met, C1 met; status: met` alone; it is
    held once (sent back once already, as the host says, too), naming the run order."""
    repo = approved_repo(
        tmp_path / "app", "real", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--check", "touch ok", "--expected", "exit 0", "--non-goal", "nothing else changes",
    )  # fmt: skip
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet: it runs before C2
    (repo / "ok").unlink()
    path = repo / "goals" / "real.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("| C1 |"))
    assert lines[first + 1].startswith("| C2 |")
    lines[first], lines[first + 1] = lines[first + 1], lines[first]
    path.write_text("\n".join(lines), encoding="utf-8")
    done = run_goalfile("activate", "--reapprove", "goals/real.md", "--reason", "x", cwd=repo)
    assert done.returncode == 0, done.stderr
    answer = hook_answer(repo, active=True)  # sent back once: held all the same, once
    reason = str(answer.get("reason", ""))
    assert answer.get("decision") == "block" and "C2 met, C1 met" not in reason, answer
    assert "- run order: C1, C2 → C2, C1" in reason, reason


def _staged_repo(tmp_path: Path) -> Path:
    """A person's goal activated and staged (`activate` stages it), never committed."""
    repo = make_git_repo(tmp_path / "app")
    git(repo, "commit", "-q", "--allow-empty", "-m", "start")
    made = run_goalfile(
        "new", "real", "--end-state", "ok exists", "--check", "test -f ok", "--expected",
        "exit 0", "--non-goal", "nothing else changes", "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "staged goals/real.md (git add)" in made.stderr
    return repo


def test_a_loosening_of_a_goal_only_staged_holds_the_stop(tmp_path: Path) -> None:
    """Fails before the change: HEAD holds no copy, so there was no approval to compare with,
    and the agent's own re-approval (staged by `activate`) was met and let go, saying only
    `C1 met; status: met`, at the stop it was sent back from once and at the next turn's. A
    goal no commit holds is compared with its first approval entry (the one that made it
    active): no later approval is known to be a person's."""
    repo = _staged_repo(tmp_path)
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet
    _edit_criteria(repo, CHECK_ROW, "| `true` | exit 0")
    _reapprove(repo)
    answer = hook_answer(repo, active=True)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "- C1 check: `test -f ok` → `true`" in reason, reason
    assert "a contract that its first approval entry (no commit holds the goal" in reason
    assert "by activate`, which no commit holds" in reason, reason
    assert "git commit" not in reason, reason
    answer = hook_answer(repo, active=True)  # the file unchanged: let go, with the changes
    message = str(answer.get("systemMessage", ""))
    assert "decision" not in answer and "- C1 check: `test -f ok` → `true`" in message, answer
    assert hook_answer(repo).get("decision") == "block"  # the next turn's first stop: held
    # the person who approves the change commits it, as the message says: met, let go
    commit = message.split("commits it: `", 1)[1].split("`", 1)[0]
    subprocess.run(commit, shell=True, cwd=repo, check=True, env=clean_env(), capture_output=True)
    assert hook_answer(repo) == {}


def test_a_goal_only_staged_met_under_its_approval_or_a_tightening_is_let_go(
    tmp_path: Path,
) -> None:
    """Not a regression test (passes before the change): met under the criteria its first
    approval records, and then under a clause added and re-approved, it is let go."""
    repo = _staged_repo(tmp_path)
    (repo / "ok").write_text("", encoding="utf-8")
    answer = hook_answer(repo)
    assert answer == {
        "systemMessage": "goalfile: verify-goal real iteration 0: C1 met; status: met"
    }
    done = run_goalfile("reopen", "goals/real.md", "--reason", "more", cwd=repo)
    assert done.returncode == 0, done.stderr
    _edit_criteria(repo, CHECK_ROW, "| `test -f ok` | exit 0; output empty")
    _reapprove(repo)
    answer = hook_answer(repo)
    assert "decision" not in answer and "status: met" in str(answer["systemMessage"]), answer


def test_a_loosening_the_agent_committed_after_it_was_sent_back_holds_the_stop(
    tmp_path: Path,
) -> None:
    """Fails before the change: sent back once for its unmet goal, the agent loosened the
    check, re-approved it itself, verified it `met` and committed the file; HEAD's copy then
    approved the agent's own criteria, and the stop was let go without a word (Claude Code
    printed nothing). The branch moved since the session's earlier stop, where the goal was
    active: the criteria approved at the commit HEAD was on then count, so the stop is held
    once with each change, and the stop after it is let go with them."""
    repo = _repo(tmp_path)
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet
    _loosen_verify_and_commit(repo)
    answer = hook_answer(repo, active=True)
    assert answer.get("decision") == "block", answer  # was: {} (let go without a word)
    reason = str(answer["reason"])
    assert "which HEAD was on at this session's earlier stop" in reason, reason
    assert "- C1 check: `test -f ok` → `true`" in reason, reason
    assert "git commit" not in reason, reason
    shown = reason.split("the approved criteria are those of `", 1)[1].split("`", 1)[0]
    approved = subprocess.run(shown, shell=True, cwd=repo, capture_output=True, text=True)
    assert approved.returncode == 0 and "| `test -f ok` |" in approved.stdout, approved
    told = hook_answer(repo, active=True)  # the file unchanged: let go, with the changes
    assert "decision" not in told, told
    assert "- C1 check: `test -f ok` → `true`" in str(told.get("systemMessage")), told


def test_a_loosening_the_agent_committed_with_the_record_deleted_holds_the_stop(
    tmp_path: Path, state_home: Path
) -> None:
    """Fails before the change: the same, and the agent deleted the session's record too: the
    stop read as a first stop, HEAD's copy approved the agent's own criteria, and the stop was
    let go without a word. A stop the host marks as continuing whose record names no
    repository of the session knows no commit the goal was active on: the criteria its first
    approval entry records count, so the stop is held once with each change, and the stop
    after it is let go with them."""
    repo = _repo(tmp_path)
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet
    _loosen_verify_and_commit(repo)
    shutil.rmtree(state_home / "goalfile")
    answer = hook_answer(repo, active=True)
    assert answer.get("decision") == "block", answer  # was: {} (let go without a word)
    reason = str(answer["reason"])
    assert "its first approval entry does not approve" in reason, reason
    assert "- C1 check: `test -f ok` → `true`" in reason, reason
    fix = reason.split("then run `", 1)[1].split("`", 1)[0]
    _edit_criteria(repo, "| `true` | exit 0", CHECK_ROW)  # each change put back, as it says
    sh(fix, repo)
    after = hook_answer(repo, active=True)  # the approved criteria back: verified, unmet
    assert after.get("decision") == "block" and "C1 unmet" in str(after["reason"]), after


def test_a_loosening_the_agent_committed_with_the_record_deleted_is_told_after_its_hold(
    tmp_path: Path, state_home: Path
) -> None:
    """The stop after that hold, the file unchanged, is let go with the changes."""
    repo = _repo(tmp_path)
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet
    _edit_criteria(repo, CHECK_ROW, "| `true` | exit 0")
    _reapprove(repo)
    git(repo, "commit", "-qam", "simpler")  # left to the hook's verify
    shutil.rmtree(state_home / "goalfile")
    answer = hook_answer(repo, active=True)
    assert answer.get("decision") == "block", answer
    assert "its first approval entry does not approve" in str(answer["reason"]), answer
    told = hook_answer(repo, active=True)
    assert "decision" not in told, told
    assert "- C1 check: `test -f ok` → `true`" in str(told.get("systemMessage")), told


def test_a_loosening_of_a_goal_only_staged_the_agent_committed_holds_the_stop(
    tmp_path: Path,
) -> None:
    """The same for a goal activated and staged, never committed: the agent's commit made
    HEAD hold its re-approval, and the stop was let go without a word. The copy the index
    held at the earlier stop, with its first approval entry, counts."""
    repo = _staged_repo(tmp_path)
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet
    _edit_criteria(repo, CHECK_ROW, "| `true` | exit 0")
    _reapprove(repo)
    git(repo, "commit", "-qm", "simpler", "--", "goals/real.md")
    answer = hook_answer(repo, active=True)
    assert answer.get("decision") == "block", answer  # was: {} (met, let go without a word)
    reason = str(answer["reason"])
    assert "the copy git's index held at this session's earlier stop" in reason, reason
    assert "- C1 check: `test -f ok` → `true`" in reason, reason
    told = hook_answer(repo, active=True)
    assert "decision" not in told, told
    assert "- C1 check: `test -f ok` → `true`" in str(told.get("systemMessage")), told


def test_a_loosening_the_agent_committed_on_a_new_branch_holds_the_stop(tmp_path: Path) -> None:
    """The same on a branch of its own: sent back once, the agent ran `git checkout -b`,
    loosened the check, re-approved it, committed it and stopped; the hook's verify wrote
    `met` under HEAD's (the agent's) approval and let the stop go without a word. HEAD
    resolves to another commit than at the earlier stop: the criteria of that commit count.
    The next turn's first stop is held again, as a loosening HEAD does not approve is."""
    repo = _repo(tmp_path)
    assert hook_answer(repo)["decision"] == "block"  # C1 unmet
    git(repo, "checkout", "-qb", "work")
    _edit_criteria(repo, CHECK_ROW, "| `true` | exit 0")
    _reapprove(repo)
    git(repo, "commit", "-qm", "simpler")
    answer = hook_answer(repo, active=True)
    assert answer.get("decision") == "block", answer  # was: {} (met, let go without a word)
    assert "which HEAD was on at this session's earlier stop" in str(answer["reason"]), answer
    told = hook_answer(repo, active=True)
    assert "decision" not in told, told
    assert "- C1 check: `test -f ok` → `true`" in str(told.get("systemMessage")), told
    assert hook_answer(repo).get("decision") == "block"  # the next turn's first stop
