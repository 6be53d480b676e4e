"""A re-approval that only changes the run order of approved rows is shown by `audit` and `log`.

The approved order decides verdicts in one working tree: an approved row that writes a file,
moved above the approved row that checks it, makes that row pass in a fresh clone too. The
agent may re-approve (the docs allow it, on the promise that audit shows every change), so the
change must be listed where a reviewer looks: `audit --against` (text, JSON, Markdown) and
`log`. The real goalfile, a real git repository.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import git, run_goalfile

GOAL = "goals/t.md"
C1 = "| C1 | `test -f ok` | `test -f ok` | exit 0 | deterministic |\n"
C2 = "| C2 | `touch ok` | `touch ok` | exit 0 | deterministic |\n"
MOVED = "run order: C1, C2 → C2, C1"


def reordered(repo: Path) -> Path:
    made = run_goalfile(
        "new", "t", "ok is there",
        "--check", "test -f ok", "--expected", "exit 0",
        "--check", "touch ok", "--expected", "exit 0",
        "--activate",
        cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    (repo / ".gitignore").write_text("ok\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    git(repo, "branch", "-M", "main")
    git(repo, "checkout", "-qb", "feature")
    path = repo / GOAL
    text = path.read_text()
    assert C1 + C2 in text
    path.write_text(text.replace(C1 + C2, C2 + C1))
    again = run_goalfile("activate", "--reapprove", GOAL, "--reason", "tidy the table", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert MOVED in again.stderr  # the person re-approving is shown it as a change
    assert "(1 change)" in again.stdout
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "done")
    return path


def test_audit_lists_a_reapproved_run_order(repo: Path) -> None:
    reordered(repo)
    text = run_goalfile("audit", "--against", "main", cwd=repo)
    assert text.returncode == 0, text.stdout + text.stderr  # re-approved: shown, not failed
    assert f"{MOVED} (changed: an approved row now runs before another" in text.stdout
    assert "re-approved by Iteration 0" in text.stdout
    assert "reason: tidy the table" in text.stdout

    data = json.loads(run_goalfile("audit", "--against", "main", "--json", cwd=repo).stdout)
    (changes,) = [f["contract_changes"] for f in data["files"]]
    assert [(c["field"], c["old"], c["new"], c["effect"]) for c in changes] == [
        ("order", "C1, C2", "C2, C1", "changed")
    ]
    assert changes[0]["recorded_by"] is not None

    markdown = run_goalfile("audit", "--against", "main", "--format", "markdown", cwd=repo)
    assert MOVED in markdown.stdout


def test_log_shows_the_order_a_reapproval_changed(repo: Path) -> None:
    path = reordered(repo)
    shown = run_goalfile("log", GOAL, cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert "run order changed: C1, C2 → C2, C1" in shown.stdout
    assert "0 changed" not in shown.stdout.replace("0 changed, run order", "")
    markdown = run_goalfile("log", GOAL, "--format", "markdown", cwd=repo)
    assert "run order changed: C1, C2 → C2, C1" in markdown.stdout

    # an entry whose own line does not say so (written before goalfile said it) still shows it
    text = path.read_text()
    assert ", run order changed" in text
    path.write_text(text.replace(", run order changed", "", 1))
    older = run_goalfile("log", GOAL, cwd=repo)
    assert "0 changed; run order changed: C1, C2 → C2, C1" in older.stdout
