"""An `expected` exit status of thousands of digits: Python's int() refuses a decimal string
of more than 4,300 digits, and lint, verify, activate and the Stop hook died with a
ValueError traceback. It is the lint error of any status out of range, naming file and line;
one written with thousands of leading zeros is still the status it names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import make_git_repo, run_goalfile

GOAL = "goals/g.md"
MANY = 5000


def goal(repo: Path, expected: str) -> Path:
    made = run_goalfile(
        "new", "g", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--non-goal", "nothing", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    assert text.count("| exit 0 |") == 1, text
    path.write_text(text.replace("| exit 0 |", f"| {expected} |"), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "expected", ["exit " + "9" * MANY, "exit != " + "9" * MANY, "exit -" + "1" * MANY]
)
def test_an_exit_status_of_thousands_of_digits_is_a_lint_error(
    tmp_path: Path, expected: str
) -> None:
    repo = make_git_repo(tmp_path / "repo")
    path = goal(repo, expected)
    lines = path.read_text(encoding="utf-8").split("\n")
    line = next(n for n, text in enumerate(lines, 1) if expected in text)

    def refused(*command: str) -> str:
        done = run_goalfile(*command, cwd=repo)
        said = done.stdout + done.stderr
        assert "Traceback" not in said and "ValueError" not in said, said[-2000:]
        assert done.returncode in (1, 3), (command, done.returncode, said[-2000:])
        return said

    said = refused("lint", GOAL)
    assert f"{GOAL}:{line}:" in said, said[-2000:]
    assert "is out of range" in said and "an exit status is 0 to 255" in said, said[-2000:]
    refused("activate", GOAL)
    # an approved goal whose cell is edited so: every command that reads it, and the hook
    path.write_text("\n".join(lines).replace(expected, "exit 0"), encoding="utf-8")
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    path.write_text(path.read_text(encoding="utf-8").replace("| exit 0 |", f"| {expected} |", 1))
    for command in (("verify", GOAL), ("verify", "--no-write", GOAL)):
        assert "is out of range" in refused(*command)
    assert "changed since it was approved" in refused("audit", GOAL)
    status = run_goalfile("status", GOAL, cwd=repo)
    assert "Traceback" not in status.stdout + status.stderr, status.stderr[-2000:]
    stdin = json.dumps({"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop"})
    hooked = run_goalfile("hook", "stop", "--agent", "claude", cwd=repo, input=stdin)
    assert hooked.returncode == 0, hooked.stderr[-2000:]
    assert "Traceback" not in hooked.stderr and "ValueError" not in hooked.stdout
    answer = json.loads(hooked.stdout)
    assert answer["decision"] == "block", answer  # the goal's line, not a traceback
    assert answer["reason"].startswith(f"goalfile could not verify {GOAL}: "), answer
    assert "ValueError" not in answer["reason"] and "failed" not in answer["reason"], answer


def test_an_exit_status_with_thousands_of_leading_zeros_is_that_status(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    goal(repo, "exit " + "0" * MANY + "1")
    assert run_goalfile("lint", GOAL, cwd=repo).returncode == 0
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    verified = run_goalfile("verify", GOAL, cwd=repo)  # `test -f ok` exits 1: met
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.splitlines()[-1].endswith("C1 met; status: met")
