"""`goalfile status` tells what to run next, from the status and the newest entries."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import goal_text, row, run_goalfile, write_goal


def next_step(repo: Path, path: Path) -> str:
    done = run_goalfile("status", "--json", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    (goal,) = json.loads(done.stdout)["goals"]
    return str(goal["next_step"])


def test_the_next_step_follows_the_ledger(repo: Path) -> None:
    path = write_goal(repo / "goals", goal_text(rows=[row("C1", "false", "exit 0")]))
    assert next_step(repo, path).startswith("`goalfile plan")
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
    assert "--tokens N" in step, step
    assert "--iterations" not in step, step
