"""docs/lifecycle.md (verify's options): a check `--time-limit` cuts short is an `error` row, so
the goal is `blocked` until a person resumes it, and `--no-write` tries a limit without that.
The real goalfile, a real `sleep`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_goalfile


def test_a_check_the_time_limit_cuts_short_blocks_the_goal(tmp_path: Path) -> None:
    docs = (Path(__file__).parents[1] / "docs" / "lifecycle.md").read_text()
    assert "is an `error` row (`timed out: goal time limit reached`), so the goal is `blocked`" in (
        docs
    )
    args = ["new", "g", "s", "--check", "sleep 5", "--expected", "exit 0", "--non-goal", "n"]
    assert run_goalfile(*args, "--activate", cwd=tmp_path).returncode == 0
    goal = tmp_path / "goals" / "g.md"
    before = goal.read_bytes()

    tried = run_goalfile("verify", "--no-write", "--time-limit", "1", "goals/g.md", cwd=tmp_path)
    assert tried.returncode == 4 and goal.read_bytes() == before, tried.stdout

    done = run_goalfile("verify", "--time-limit", "1", "--json", "goals/g.md", cwd=tmp_path)

    assert done.returncode == 4, done.stdout + done.stderr
    [row] = json.loads(done.stdout)["rows"]
    assert row["verdict"] == "error" and "goal time limit reached" in json.dumps(row), row
    status = run_goalfile("status", "goals/g.md", cwd=tmp_path).stdout
    assert "blocked" in status and "goalfile resume goals/g.md --resolved TEXT" in status, status
