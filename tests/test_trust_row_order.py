"""Rows added since the newest approval (a tightening, accepted without a person) run after the
rows that approval recorded, and only once those are judged: an added row cannot prepare what
an approved row sees. The real goalfile, a real git repository, the CI step of docs/ci.md."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import git, goal_text, make_git_repo, row, run_goalfile
from tests.test_ci_recipe import run_step

GOAL = "goals/build.md"
APPROVED = "| C1 | criterion of C1 | `test -f ok` | exit 0 | deterministic |"
ADDED = "| C0 | build step runs | `touch ok` | exit 0 | deterministic |"


def approved_goal(repo: Path, rows: tuple[tuple[str, str, str, str], ...]) -> Path:
    """A goal approved by activate and committed on main."""
    (repo / "goals").mkdir(exist_ok=True)
    (repo / GOAL).write_text(goal_text(slug="build", status="draft", iterations_used=0, rows=rows))
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "approved")
    git(repo, "branch", "-M", "main")
    return repo / GOAL


def add_row_above(goal: Path, approved: str, added: str) -> None:
    text = goal.read_text()
    assert approved in text
    goal.write_text(text.replace(approved, f"{added}\n{approved}", 1))


@pytest.fixture
def build(repo: Path) -> Path:
    approved_goal(repo, (row("C1", "test -f ok", "exit 0"),))
    return repo


def started(stdout: str) -> list[str]:
    return re.findall(r"^\[\d+/\d+\] (\S+) started", stdout, re.M)


def test_an_added_row_runs_after_the_approved_rows_are_judged(build: Path) -> None:
    goal = build / GOAL
    add_row_above(goal, APPROVED, ADDED)

    done = run_goalfile("verify", GOAL, cwd=build)
    assert done.returncode == 1, done.stdout + done.stderr  # C1 saw no `ok`: C0 had not run
    assert started(done.stdout) == ["C1", "C0"]
    # the summary and the entry list the rows in the table's order
    assert done.stdout.rstrip().endswith(
        "verify-goal build iteration 0: C0 met, C1 unmet; status: active"
    )
    text = goal.read_text()
    assert "contract tightened: C0 added" in text  # accepted and pinned, as before
    record = text[text.rindex("approved rows:") :]
    assert record.index("`test -f ok`") < record.index("`touch ok`")  # recorded in run order

    # the next run keeps that order: in a tree without `ok`, C1 is judged before C0 runs
    (build / "ok").unlink()
    again = run_goalfile("verify", "--no-write", GOAL, cwd=build)
    assert again.returncode == 1, again.stdout + again.stderr
    assert started(again.stdout) == ["C1", "C0"]
    assert "C1 unmet" in again.stdout


def test_the_order_of_the_approved_rows_is_the_approvals_not_the_tables(repo: Path) -> None:
    """Approved rows moved in the table, or listed otherwise in a tightening entry's record,
    still run in the order the approval recorded."""
    goal = approved_goal(
        repo, (row("C1", "test ! -e made", "exit 0"), row("C2", "touch made", "exit 0"))
    )
    text = goal.read_text()
    one = "| C1 | criterion of C1 | `test ! -e made` | exit 0 | deterministic |"
    two = "| C2 | criterion of C2 | `touch made` | exit 0 | deterministic |"
    goal.write_text(text.replace(f"{one}\n{two}", f"{two}\n{one}", 1))
    done = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert started(done.stdout) == ["C1", "C2"]
    assert "C2 met, C1 met; status: met" in done.stdout  # listed in the table's order

    # a person approves the new order: the re-approval records it, and the rows then run so
    again = run_goalfile("activate", "--reapprove", GOAL, "--reason", "C2 first", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert "- run order: C1, C2 → C2, C1" in goal.read_text()
    now = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert now.returncode == 1 and started(now.stdout) == ["C2", "C1"], now.stdout


def test_a_tightening_record_reordered_by_hand_does_not_move_an_added_row_first(
    build: Path,
) -> None:
    goal = build / GOAL
    add_row_above(goal, APPROVED, ADDED)
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 1
    text = goal.read_text()
    at = text.rindex("approved rows:")
    rows = re.findall(r"^\| C\d .*$", text[at:], re.M)
    assert len(rows) == 2 and "test -f ok" in rows[0]
    goal.write_text(text[:at] + text[at:].replace(f"{rows[0]}\n{rows[1]}", f"{rows[1]}\n{rows[0]}"))
    (build / "ok").unlink()
    done = run_goalfile("verify", "--no-write", GOAL, cwd=build)
    assert done.returncode == 1, done.stdout + done.stderr
    assert started(done.stdout) == ["C1", "C0"]


def test_with_jobs_no_added_row_starts_before_every_approved_row_ended(repo: Path) -> None:
    # C1 waits up to 2 s for `made` and is met only if it never appears; C0, added, makes it
    waits = "i=0; while [ ! -e made ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done"
    goal = approved_goal(
        repo, (row("C1", f"{waits}; test ! -e made", "exit 0"), row("C2", "true", "exit 0"))
    )
    first = next(line for line in goal.read_text().split("\n") if line.startswith("| C1 |"))
    add_row_above(goal, first, "| C0 | added | `touch made` | exit 0 | deterministic |")
    done = run_goalfile("verify", "--no-write", "--jobs", "3", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "C0 met, C1 met, C2 met; status: met" in done.stdout
    assert started(done.stdout)[-1] == "C0"


def test_the_ci_step_fails_a_goal_met_only_through_an_added_row(tmp_path: Path) -> None:
    """The attack on the CI step: a row placed above the approved one prepares what it checks;
    the agent verifies until `met` and commits without what the row made. The docs/ci.md step,
    run as written in a fresh clone of the pull request, re-runs the approved row first."""
    src = make_git_repo(tmp_path / "src")
    approved_goal(src, (row("C1", "test -f ok", "exit 0"),))
    git(src, "checkout", "-q", "-b", "work")
    add_row_above(src / GOAL, APPROVED, ADDED)
    first = run_goalfile("verify", GOAL, cwd=src)  # C1 unmet; C0 runs after it, makes `ok`
    assert first.returncode == 1, first.stdout + first.stderr
    second = run_goalfile("verify", GOAL, cwd=src)  # `ok` left by the run before
    assert second.returncode == 0, second.stdout + second.stderr
    (src / "ok").unlink()
    git(src, "add", "goals")
    git(src, "commit", "-qm", "work")

    ci = tmp_path / "ci"
    subprocess.run(["git", "clone", "-q", str(src), str(ci)], check=True)
    git(ci, "checkout", "-q", "work")
    assert "ok" not in git(ci, "ls-files").split()
    done = run_step(ci)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "verify-goal build iteration 0: C0 met, C1 unmet; status: active" in done.stdout
