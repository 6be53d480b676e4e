"""The usage a draft claims is seen at its approval (rt10 H10): a draft's `iterations_used: 5`
under `budget.iterations: 5` was approved unseen, and the first stop made the goal exhausted and
let the agent go. activate lists the usage a draft claims with the budget, and refuses a draft
whose usage (its counter, or its ledger's count) reaches a limit, with a fix that works."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import git, make_git_repo, run_goalfile, stop_input


def _draft(tmp_path: Path, iterations_used: int, *, entry: str = "") -> Path:
    repo = make_git_repo(tmp_path / "repo")
    made = run_goalfile(
        "new", "g", "x", "--check", "false", "--expected", "exit 0", "--non-goal", "n",
        "--tokens", "1000", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    goal = repo / "goals" / "g.md"
    text = goal.read_text().replace("iterations_used: 0", f"iterations_used: {iterations_used}")
    text = text.replace("tokens_used: 0", "tokens_used: 999")
    goal.write_text(text.replace("## Iterations\n", f"## Iterations\n{entry}", 1))
    return repo


def test_usage_reaching_the_budget_is_refused_and_usage_below_it_listed(tmp_path: Path) -> None:
    repo = _draft(tmp_path, 5)
    refused = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert refused.returncode == 3
    assert "the draft says iterations_used 5, which reaches the budget it asks to approve (5)" in (
        refused.stderr
    )
    assert "status: draft" in (repo / "goals" / "g.md").read_text()
    fix = re.search(r"fix: (`.+`), then `goalfile activate goals/g.md`", refused.stderr)
    assert fix is not None, refused.stderr
    subprocess.run(["sh", "-c", fix.group(1).strip("`")], cwd=repo, check=True)
    done = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "  already used, as the file says: tokens_used 999\n" in done.stderr
    git(repo, "commit", "-q", "-m", "goal: g")
    answer = json.loads(run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo)).stdout)
    assert answer["decision"] == "block"  # the approved iterations are the agent's
    assert "status: exhausted" not in (repo / "goals" / "g.md").read_text()
    listed = run_goalfile("activate", "goals/g.md", "--json", cwd=_draft(tmp_path / "b", 2))
    assert json.loads(listed.stdout)["used"] == {"iterations_used": 2, "tokens_used": 999}


def test_a_draft_whose_ledger_backs_the_budget_is_refused_with_a_fix_that_works(
    tmp_path: Path,
) -> None:
    repo = _draft(tmp_path, 5, entry="\n### Iteration 5 (2026-12-01) by plan\n\nplan revision 1\n")
    refused = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert refused.returncode == 3
    assert "the draft says iterations_used 5, which reaches the budget" in refused.stderr
    fix = re.search(
        r"delete the draft's ledger entries \(`(.+)`\) and `(.+)`, then", refused.stderr
    )
    assert fix is not None, refused.stderr
    for command in fix.groups():
        subprocess.run(["sh", "-c", command], cwd=repo, check=True)
    goal = repo / "goals" / "g.md"
    done = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "Iteration 5" not in goal.read_text()
    shown = run_goalfile("status", "goals/g.md", cwd=repo)
    assert "iterations 0/5" in shown.stdout
