"""Hand edits of a goal file (DESIGN §10): toward more work accepted and ledgered, toward done
refused everywhere; a contract that only tightens is accepted and pinned.

Each test edits the file as a person or a skill would, then runs the real goalfile process in
a real git repository.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import git, goal_text, row, run_goalfile

GOAL = "goals/g.md"
ROW_C2 = "| C2 | more | `test -d goals` | exit 0 | deterministic |\n"


def approved_on_main(repo: Path, *, iterations: str, check: str) -> Path:
    """An approved goal of one row, committed on main; the agent works on a branch."""
    (repo / GOAL).write_text(
        goal_text(
            slug="g",
            status="draft",
            iterations=iterations,
            iterations_used=0,
            rows=(row("C1", check, "exit 0"),),
        )
    )
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "branch", "-M", "main")
    git(repo, "checkout", "-qb", "work")
    return repo


@pytest.fixture
def goal(repo: Path) -> Path:
    """An approved goal with one passing row, committed on main."""
    (repo / "ok").write_text("")
    return approved_on_main(repo, iterations="1", check="test -f ok")


def set_status(repo: Path, status: str) -> None:
    path = repo / GOAL
    text = path.read_text()
    path.write_text(re.sub(r"(?m)^status: \w+", f"status: {status}", text, count=1))


PLAN_HEADER = "| step | change | files | serves | check |\n|---|---|---|---|---|\n"
SOUND_PLAN = PLAN_HEADER + "| 1 | create the file | ok | C1 | `test -f ok` |\n"
# a real plan that is unsound: C1 is served by no step, and C9 is not a criterion
UNSOUND_PLAN = PLAN_HEADER + "| 1 | tidy the docs | README.md | C9 | - |\n"


def write_plan(repo: Path, table: str) -> None:
    path = repo / GOAL
    text = path.read_text()
    assert text.count("## Plan\n") == 1
    path.write_text(text.replace("## Plan\n", "## Plan\n" + table, 1))


def audit_against_main(repo: Path) -> tuple[int, str]:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "work", "--allow-empty")
    done = run_goalfile("audit", GOAL, "--against", "main", cwd=repo)
    return done.returncode, done.stdout + done.stderr


def reach(repo: Path, status: str) -> None:
    if status == "met":
        assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    elif status == "blocked":
        done = run_goalfile("block", GOAL, "--reason", "CI down", "--tried", "retry", cwd=repo)
        assert done.returncode == 0, done.stderr
    elif status == "paused":
        assert run_goalfile("pause", GOAL, cwd=repo).returncode == 0
    else:  # the budget is one iteration: an unsound plan uses it, the next plan exhausts
        write_plan(repo, UNSOUND_PLAN)
        assert run_goalfile("plan", GOAL, cwd=repo).returncode == 1
        assert run_goalfile("plan", GOAL, cwd=repo).returncode == 5
    assert f"status: {status}" in (repo / GOAL).read_text()


@pytest.mark.parametrize("was", ["met", "blocked", "paused", "exhausted"])
def test_a_goal_set_back_to_active_by_hand_is_verified_and_ledgered(goal: Path, was: str) -> None:
    reach(goal, was)
    set_status(goal, "active")
    linted = run_goalfile("lint", GOAL, cwd=goal)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    done = run_goalfile("verify", GOAL, cwd=goal)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"reopened by hand (was {was})" in (goal / GOAL).read_text()
    code, report = audit_against_main(goal)
    assert code == 0, report


def test_plan_records_a_hand_reopen_too(goal: Path) -> None:
    reach(goal, "met")
    set_status(goal, "active")
    write_plan(goal, SOUND_PLAN)
    done = run_goalfile("plan", GOAL, cwd=goal)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "reopened by hand (was met)" in (goal / GOAL).read_text()


def test_a_met_set_by_hand_is_an_error_everywhere_with_a_fix_that_works(goal: Path) -> None:
    set_status(goal, "met")
    for args in (
        ["lint", GOAL],
        ["status", GOAL],
        ["verify", "--no-write", GOAL],
        ["plan", GOAL],
    ):
        done = run_goalfile(*args, cwd=goal)
        assert done.returncode == 3, (args, done.stdout + done.stderr)
        assert "only `goalfile verify` writes `met`" in done.stdout + done.stderr, args
    linted = run_goalfile("lint", GOAL, cwd=goal)
    hint = (linted.stdout + linted.stderr).split("fix: ", 1)[1]
    reset, verify = hint.split("`")[1], hint.split("`")[3]
    assert verify == f"goalfile verify {GOAL}", hint
    # the fix works as written: the status line alone is set back, then verify decides
    subprocess.run(reset, shell=True, cwd=goal, check=True)
    assert "status: active" in (goal / GOAL).read_text(encoding="utf-8")
    assert not (goal / f"{GOAL}.goalfile-bak").exists()
    assert run_goalfile("verify", GOAL, cwd=goal).returncode == 0
    assert run_goalfile("lint", GOAL, cwd=goal).returncode == 0


def test_a_met_after_a_reapproval_is_not_backed(goal: Path) -> None:
    reach(goal, "met")
    path = goal / GOAL
    path.write_text(path.read_text().replace("`test -f ok`", "`test -e ok`"))
    assert run_goalfile("activate", "--reapprove", GOAL, "--reason", "x", cwd=goal).returncode == 0
    set_status(goal, "met")
    done = run_goalfile("lint", GOAL, cwd=goal)
    assert done.returncode == 3
    assert "set `active`" in done.stdout + done.stderr


def test_a_row_added_to_a_pinned_goal_is_accepted_and_pinned(goal: Path) -> None:
    path = goal / GOAL
    before_pin = next(x for x in path.read_text().split("\n") if x.startswith("contract:"))
    path.write_text(
        path.read_text().replace(
            "| exit 0 | deterministic |\n",
            "| exit 0 | deterministic |\n" + ROW_C2,
        )
    )
    done = run_goalfile("verify", GOAL, cwd=goal)
    assert done.returncode == 0, done.stdout + done.stderr
    text = path.read_text()
    assert "contract tightened: C2 added" in text
    pin = next(x for x in text.split("\n") if x.startswith("contract:"))
    assert pin != before_pin
    assert run_goalfile("verify", "--no-write", GOAL, cwd=goal).returncode == 0
    code, report = audit_against_main(goal)
    assert code == 0, report
    # a loosening after the tightening is refused as before
    path.write_text(path.read_text().replace(ROW_C2, ""))
    refused = run_goalfile("verify", "--no-write", GOAL, cwd=goal)
    assert refused.returncode == 3
    assert "C2 removed" in refused.stderr


def test_a_clause_added_is_a_tightening(goal: Path) -> None:
    path = goal / GOAL
    path.write_text(path.read_text().replace("| exit 0 |", "| exit 0; output empty |"))
    done = run_goalfile("verify", GOAL, cwd=goal)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "contract tightened: C1 expected tightened" in path.read_text()


@pytest.mark.parametrize("was", ["met", "blocked", "paused"])
def test_reopen_does_what_the_hand_edit_does(goal: Path, was: str) -> None:
    reach(goal, was)
    done = run_goalfile("reopen", GOAL, "--reason", "the code regressed", cwd=goal)
    assert done.returncode == 0, done.stdout + done.stderr
    text = (goal / GOAL).read_text()
    assert f"reopened (was {was})" in text and "reason: the code regressed" in text
    assert "status: active" in text and "blocker:" not in text.split("---")[1]
    assert run_goalfile("verify", GOAL, cwd=goal).returncode == 0
    code, report = audit_against_main(goal)
    assert code == 0, report


def test_reopen_refuses_an_active_goal(goal: Path) -> None:
    done = run_goalfile("reopen", GOAL, "--reason", "x", cwd=goal)
    assert done.returncode == 3, done.stdout + done.stderr


def test_audit_an_unpinned_met_goal_is_a_warning(repo: Path) -> None:
    (repo / GOAL).write_text(
        goal_text(slug="g", status="active", rows=(row("C1", "true", "exit 0"),))
    )
    audited = run_goalfile("audit", GOAL, cwd=repo)
    assert audited.returncode == 0, audited.stdout  # active with an empty ledger: no finding
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    audited = run_goalfile("audit", GOAL, "--against", "HEAD", cwd=repo)
    assert audited.returncode == 0, audited.stdout
    assert "warning: " in audited.stdout and "unpinned" in audited.stdout
    # the contract is compared with the base revision: a loosening there is a finding
    path = repo / GOAL
    path.write_text(path.read_text().replace("| exit 0 |", "| exit != 3 |"))
    audited = run_goalfile("audit", GOAL, "--against", "HEAD", cwd=repo)
    assert audited.returncode == 1, audited.stdout
    assert "contract-change-unapproved" in audited.stdout


def test_pause_after_a_hand_reopen_records_it(goal: Path) -> None:
    reach(goal, "met")
    set_status(goal, "active")
    assert run_goalfile("pause", GOAL, "--reason", "later", cwd=goal).returncode == 0
    text = (goal / GOAL).read_text()
    assert text.count("reopened by hand (was met)") == 1
    code, report = audit_against_main(goal)
    assert code == 0, report


ROW_R1 = "| R1 | notes explain rotation | `notes.md` | says the token is rotated | review |\n"
REVIEW_R1 = [
    "review",
    GOAL,
    "R1",
    "--artifact",
    "notes.md",
    "--verdict",
    "met",
    "--quote",
    "the token is rotated",
]


def newest_entry(text: str) -> str:
    start = text.rindex("\n### Iteration ")
    return text[start + 1 : text.index("\n## Lessons", start)]


@pytest.mark.parametrize("command", ["review", "refine", "activate --reapprove"])
def test_review_refine_and_reapprove_record_a_hand_reopen_too(goal: Path, command: str) -> None:
    """The first entry after a hand reopen says so, whichever command writes it."""
    path = goal / GOAL
    (goal / "notes.md").write_text("Each use: the token is rotated.\n")
    path.write_text(
        path.read_text().replace(
            "| exit 0 | deterministic |\n", "| exit 0 | deterministic |\n" + ROW_R1
        )
    )
    done = run_goalfile(*REVIEW_R1, cwd=goal)
    assert done.returncode == 0, done.stdout + done.stderr
    done = run_goalfile("verify", GOAL, cwd=goal)  # C1 met, R1 met by the review: met
    assert done.returncode == 0, done.stdout + done.stderr
    set_status(goal, "active")  # reopened by hand, as the refine-goal skill does
    if command == "review":
        args, by = REVIEW_R1, "review"
    elif command == "refine":
        # every row was met: a refine has no backlog, only a lesson to record
        args, by = ["refine", GOAL, "--lesson", "C1 passed by accident"], "refine-goal"
    else:
        path.write_text(path.read_text().replace("`test -f ok`", "`test -e ok`", 1))  # the row
        args, by = ["activate", "--reapprove", GOAL, "--reason", "any file will do"], "activate"

    done = run_goalfile(*args, cwd=goal)

    assert done.returncode == 0, done.stdout + done.stderr
    entry = newest_entry(path.read_text())
    assert entry.split("\n")[0].endswith(f" by {by}"), entry
    assert "\nreopened by hand (was met)\n" in entry, entry
    linted = run_goalfile("lint", GOAL, cwd=goal)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    code, report = audit_against_main(goal)
    assert code == 0, report


# --- frontmatter values that decide when the Stop hook lets go --------------------------------


@pytest.fixture
def held(repo: Path) -> Path:
    """An approved, unmet goal with a budget of 5 iterations, committed on main; the agent
    works on a branch."""
    return approved_on_main(repo, iterations="5", check="test -f build/ok")


def stop_hook(repo: Path) -> dict[str, object]:
    stdin = json.dumps({"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop"})
    done = run_goalfile("hook", "stop", "--agent", "claude", "--json", cwd=repo, input=stdin)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer


def edit_frontmatter(repo: Path, old: str, new: str) -> None:
    path = repo / GOAL
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new, 1))


def test_iterations_used_raised_by_hand_does_not_exhaust_the_goal(held: Path) -> None:
    """`iterations_used: 0` → `5` (the budget): the hook's next iteration goes by the count
    the ledger backs (the verify entry that carried the 5 backs one more iteration, not five),
    so the agent is sent back to work, and audit names the edit before and after."""
    edit_frontmatter(held, "iterations_used: 0\n", "iterations_used: 5\n")
    code, report = audit_against_main(held)
    assert code == 1 and "iterations-used-unbacked" in report, report
    assert "iterations_used: 0/" in report  # the fix sets it back to what the ledger backs
    answer = stop_hook(held)
    assert answer["decision"] == "block", answer
    assert "iteration 2 of 5 started" in str(answer["notes"]), answer
    assert "status: exhausted" not in (held / GOAL).read_text()
    assert re.search(r"(?m)^iterations_used: 2$", (held / GOAL).read_text())
    code, report = audit_against_main(held)
    assert code == 1 and "iterations-used-unbacked" in report, report


def test_a_stall_limit_lowered_by_hand_does_not_block_the_first_verify(held: Path) -> None:
    edit_frontmatter(held, "tokens_used: 0\n", "tokens_used: 0\nstall_limit: 1\n")
    answer = stop_hook(held)
    assert answer["decision"] == "block", answer
    assert "status: blocked" not in (held / GOAL).read_text()
    code, report = audit_against_main(held)
    assert code == 1 and "stall-limit-lowered" in report, report


def test_an_impossible_mark_typed_by_hand_is_not_honoured(held: Path) -> None:
    """`impossible: {C1: ...}` without the `by impossible` entry that `goalfile impossible`
    writes: the row runs, the goal stays active, audit reports the mark; the command itself
    then records it."""
    edit_frontmatter(
        held, "tokens_used: 0\n", "tokens_used: 0\nimpossible:\n  C1: the build server is gone\n"
    )
    answer = stop_hook(held)
    assert answer["decision"] == "block", answer
    text = (held / GOAL).read_text()
    assert "status: blocked" not in text and "C1 | unmet" in text.replace("  ", " ")
    code, report = audit_against_main(held)
    assert code == 1 and "impossible-unbacked" in report, report
    done = run_goalfile("impossible", GOAL, "C1", "--reason", "gone", cwd=held)
    assert done.returncode == 0, done.stderr
    verified = run_goalfile("verify", GOAL, cwd=held)
    assert verified.returncode == 4, verified.stdout
    assert "C1 impossible; status: blocked" in verified.stdout
