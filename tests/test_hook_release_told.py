"""An agent that ends the hold without the work is named to the person (rt9 H6): the Stop hook's
allow on a goal made paused (`goalfile pause`) or exhausted (`goalfile plan` run until the
iteration budget is spent) by an entry of today says so, naming the goal, its status and the
entry; and `activate` lists the budget it approves with the contract."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from conftest import git, make_git_repo, run_goalfile

PLAN_HEADER = (
    "| step | change | files | serves | check |\n|------|--------|-------|--------|-------|"
)


def _repo(tmp_path: Path, *budget: str, activate: bool = True) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    git(repo, "commit", "-q", "--allow-empty", "-m", "init")
    made = run_goalfile(
        "new", "g", "x", "--check", "false", "--expected", "exit 0", "--non-goal", "n",
        *budget, *(("--activate",) if activate else ()), cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return repo


def _stop(repo: Path) -> dict[str, object]:
    event = {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop",
             "stop_hook_active": False}  # fmt: skip
    done = run_goalfile("hook", "stop", cwd=repo, input=json.dumps(event))
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_agent_run_pause_is_named_at_the_stop(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert run_goalfile("pause", "goals/g.md", cwd=repo).returncode == 0
    message = _stop(repo)["systemMessage"]
    assert message == (
        f"goalfile: goals/g.md (g) is paused, not met: its entry `### Iteration 0 "
        f"({date.today().isoformat()}) by pause` set it; the stop is allowed (a person reopens "
        "it with `goalfile resume goals/g.md`)"
    )


def test_budget_spent_by_plan_is_named_at_the_stop(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "--iterations", "3")
    goal = repo / "goals" / "g.md"
    text = goal.read_text()
    assert PLAN_HEADER in text
    goal.write_text(text.replace(PLAN_HEADER, PLAN_HEADER + "\n| 1 | fix | a.py | C1 | `false` |"))
    for _ in range(4):
        run_goalfile("plan", "goals/g.md", cwd=repo)
    assert "\nstatus: exhausted" in goal.read_text()
    message = _stop(repo)["systemMessage"]
    assert isinstance(message, str)
    assert message.startswith("goalfile: goals/g.md (g) is exhausted, not met: its entry `### ")
    assert message.endswith(
        "by plan` set it; the stop is allowed (a person reopens it with `goalfile budget "
        "goals/g.md --iterations 6`)"
    )


def test_activate_lists_the_budget_it_approves(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "--tokens", "1", activate=False)
    done = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "  budget approved: iterations 5, tokens 1\n" in done.stdout + done.stderr
    listed = run_goalfile(
        "activate", "goals/g.md", "--json", cwd=_repo(tmp_path / "b", activate=False)
    )
    assert json.loads(listed.stdout)["budget"] == {"iterations": 5, "tokens": None}
