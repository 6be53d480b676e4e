"""`goalfile status` tells what to run next, from the status and the newest entries."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import clean_env, goal_text, row, run_goalfile, write_goal


def next_step(repo: Path, path: Path) -> str:
    done = run_goalfile("status", "--json", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    (goal,) = json.loads(done.stdout)["goals"]
    return str(goal["next_step"])


def test_the_next_step_follows_the_ledger(repo: Path) -> None:
    path = write_goal(repo / "goals", goal_text(rows=[row("C1", "false", "exit 0")]))
    assert next_step(repo, path).startswith("fill in the plan")  # its `## Plan` is empty
    assert run_goalfile("verify", path, cwd=repo).returncode == 1
    assert next_step(repo, path).startswith("`goalfile refine")
    assert run_goalfile("refine", path, cwd=repo).returncode == 0
    assert next_step(repo, path).startswith("work the backlog")
    assert run_goalfile("verify", path, cwd=repo).returncode == 1
    assert next_step(repo, path).startswith("`goalfile refine")
    assert run_goalfile("pause", path, cwd=repo).returncode == 0
    assert next_step(repo, path).startswith("`goalfile resume")


def test_a_goal_exhausted_by_tokens_is_told_to_raise_the_token_budget(repo: Path) -> None:
    path = write_goal(
        repo / "goals",
        goal_text(status="exhausted", tokens="100", tokens_used=100, iterations_used=1),
    )
    step = next_step(repo, path)
    assert "--tokens 200`" in step, step
    assert "--iterations" not in step, step


@pytest.mark.parametrize("iterations", ["5", "1"])
def test_the_budget_raise_status_names_reopens_a_goal_far_past_its_token_limit(
    repo: Path, iterations: str
) -> None:
    """One run's tokens can go far past the limit (5000 of 1000): the raise status names
    leaves room after them, and with the iteration limit reached too it raises both, so that
    run as printed it reopens the goal (it named `--tokens 2000`, which left it exhausted)."""
    made = run_goalfile(
        "new", "far", "x", "--check", "false", "--expected", "exit 0", "--non-goal", "none",
        "--iterations", iterations, "--tokens", "1000", "--activate", "--commit", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    if iterations == "1":  # a plan's step starts iteration 1: the iteration limit reached too
        path = repo / "goals" / "far.md"
        text = path.read_text(encoding="utf-8")
        head = "|------|--------|-------|--------|-------|\n"
        path.write_text(text.replace(head, head + "| 1 | do | x.py | C1 | - |\n", 1))
        planned = run_goalfile("plan", "goals/far.md", cwd=repo)
        assert "iteration 1" in planned.stdout, planned.stdout + planned.stderr
    spent = run_goalfile("verify", "--tokens-used", "5000", "goals/far.md", cwd=repo)
    assert spent.returncode == 5, spent.stdout + spent.stderr
    step = next_step(repo, Path("goals/far.md"))
    fix = step.split("`")[1]
    assert fix.startswith("goalfile budget "), step
    done = subprocess.run(
        [sys.executable, "-m", "goalfile", *shlex.split(fix)[1:]],
        cwd=repo, capture_output=True, text=True, env=clean_env(),
    )  # fmt: skip
    assert done.returncode == 0, (fix, done.stdout, done.stderr)
    status = run_goalfile("status", "goals/far.md", cwd=repo)
    assert status.stdout.startswith("far: active"), (fix, status.stdout)


PLAN_TABLE = (
    "| step | change | files | serves | check |\n"
    "|---|---|---|---|---|\n"
    "| 1 | make it pass | x.py | C1 | - |\n"
)


def test_an_empty_plan_is_to_be_filled_in_not_run(repo: Path) -> None:
    """`goalfile plan` refuses a plan with no step, so status does not send anyone there:
    it says to fill in the plan first, and names `goalfile plan` once there is a step."""
    path = write_goal(repo / "goals", goal_text(rows=[row("C1", "true", "exit 0")]))
    rel = "goals/demo.md"
    step = next_step(repo, Path(rel))
    assert step == (
        "fill in the plan (a table under `## Plan`, one row per step), then "
        f"`goalfile plan {rel}`, do the work, then `goalfile verify {rel}`"
    )
    assert run_goalfile("plan", rel, cwd=repo).returncode == 3  # as status says: not yet

    text = path.read_text()
    path.write_text(text.replace("## Plan\n", "", 1))
    assert next_step(repo, Path(rel)).startswith("fill in the plan (a `## Plan` table, ")

    path.write_text(text.replace("## Plan\n", "## Plan\n" + PLAN_TABLE, 1))
    assert next_step(repo, Path(rel)) == (
        f"`goalfile plan {rel}`, do the work, then `goalfile verify {rel}`"
    )
    assert run_goalfile("plan", rel, cwd=repo).returncode == 0
    # planned: the work and the verify come next, not a second plan (another iteration)
    assert (
        next_step(repo, Path(rel)) == f"do the work the plan lays out, then `goalfile verify {rel}`"
    )


def test_when_only_review_rows_are_unmet_the_next_step_is_the_review(repo: Path) -> None:
    (repo / "docs").mkdir()
    (repo / "docs" / "auth guide.md").write_text("The refresh token is rotated on every use.\n")
    write_goal(
        repo / "goals",
        goal_text(
            rows=[
                row("C1", "true", "exit 0"),
                row("R1", "docs/auth guide.md", "says the token is rotated", "review"),
            ]
        ),
    )
    rel = "goals/demo.md"
    assert run_goalfile("verify", rel, cwd=repo).returncode == 1  # R1: not reviewed
    step = next_step(repo, Path(rel))
    command = (
        f"goalfile review {rel} R1 --artifact 'docs/auth guide.md' --verdict met --quote PASSAGE"
    )
    assert step.startswith(f"review R1: `{command}`, PASSAGE being "), step
    assert step.endswith(f"; then `goalfile verify {rel}`"), step

    # the command works as written once PASSAGE is the artifact's words
    words = shlex.split(command.replace("PASSAGE", shlex.quote("rotated on every use")))
    done = run_goalfile(*words[1:], cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert next_step(repo, Path(rel)) == (
        f"`goalfile verify {rel}` counts the review recorded since the last run"
    )
    assert run_goalfile("verify", rel, cwd=repo).returncode == 0
    assert next_step(repo, Path(rel)).startswith("done")


def test_a_deterministic_row_unmet_still_leads_to_refine(repo: Path) -> None:
    path = write_goal(
        repo / "goals",
        goal_text(rows=[row("C1", "false", "exit 0"), row("R1", "README.md", "says hi", "review")]),
    )
    assert run_goalfile("verify", path, cwd=repo).returncode == 1
    assert next_step(repo, path).startswith("`goalfile refine")


def test_after_an_unsound_plan_the_next_step_is_to_fix_it_or_work(repo: Path) -> None:
    path = write_goal(
        repo / "goals",
        goal_text(rows=[row("C1", "true", "exit 0"), row("C2", "true", "exit 0")]),
    )
    rel = "goals/demo.md"
    path.write_text(path.read_text().replace("## Plan\n", "## Plan\n" + PLAN_TABLE, 1))
    assert run_goalfile("plan", rel, cwd=repo).returncode == 1  # C2 is served by no step
    assert "findings: C2 is served by no step" in path.read_text()
    assert next_step(repo, Path(rel)) == (
        "fill in what the `findings:` line of `## Plan` names, then "
        f"`goalfile plan {rel}`; or do the work, then `goalfile verify {rel}`"
    )


def test_the_budget_command_for_an_exhausted_goal_works_as_written(repo: Path) -> None:
    """`--iterations N` was printed, and `N` is no number: the command failed as written."""
    from conftest import shell

    path = write_goal(
        repo / "goals",
        goal_text(rows=[row("C1", "false", "exit 0")], iterations="2", iterations_used=2),
    )
    assert run_goalfile("verify", path, cwd=repo).returncode == 1
    planned = run_goalfile("plan", path, cwd=repo)  # at the limit: exhausted
    assert planned.returncode in (3, 5), planned.stderr
    refused = run_goalfile("verify", path, cwd=repo)
    assert refused.returncode == 3
    # a review of a deterministic row points at its check, not at the budget
    reviewed = run_goalfile(
        "review", path, "C1", "--artifact", "x", "--quote", "y", "--verdict", "met", cwd=repo
    )
    assert reviewed.returncode == 3
    assert f"`goalfile verify --no-write {path}`" in reviewed.stderr, reviewed.stderr
    assert "goalfile budget" not in reviewed.stderr
    step = next_step(repo, path)
    for said in (step, refused.stderr):
        assert "`goalfile budget " in said and " --iterations 4`" in said, said
    command = step[step.index("`goalfile budget ") + 1 : step.index(" --iterations 4`") + 15]
    raised = shell(command, repo)
    assert raised.returncode == 0, raised.stdout + raised.stderr
    assert run_goalfile("verify", path, cwd=repo).returncode == 1  # active again


def test_after_resume_the_next_step_is_verify_without_the_refine_aside(repo: Path) -> None:
    """After `pause` and `resume` the next step is the verify run; the aside on why not a
    refine (a refine works from a verify run) is kept for a re-approval, where the verify run
    before it was under the contract as it was, and is left out after a resume."""
    path = write_goal(repo / "goals", goal_text(rows=[row("C1", "false", "exit 0")]))
    assert run_goalfile("verify", path, cwd=repo).returncode == 1
    assert run_goalfile("pause", path, cwd=repo).returncode == 0
    assert run_goalfile("resume", path, cwd=repo).returncode == 0
    step = next_step(repo, path)
    assert step == f"`goalfile verify {shlex.quote(str(path))}`, then act on its result", step
    shown = run_goalfile("status", path, cwd=repo)
    assert "by resume" not in shown.stdout and "a refine works" not in shown.stdout, shown.stdout


def test_after_a_reapproval_the_next_step_says_why_verify_comes_before_refine(
    repo: Path,
) -> None:
    made = run_goalfile(
        "new", "again", "x", "--check", "true", "--expected", "exit 0", "--non-goal", "none",
        "--activate", "--commit", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    path = repo / "goals" / "again.md"
    assert run_goalfile("verify", path, cwd=repo).returncode == 0
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("## Non-goals\n", "## Non-goals\n- docs/ stays as it is\n", 1))
    done = run_goalfile("activate", "--reapprove", path, "--reason", "again", cwd=repo)
    assert done.returncode == 0, done.stderr
    step = next_step(repo, path)
    assert "(the newest entry is `by activate`; a refine works from a verify run)" in step, step
