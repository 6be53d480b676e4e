"""A limit the ledger cannot record (more than 18 digits) is refused at the command line:
`goalfile budget` and `goalfile new` exit 2 naming the largest limit and write nothing, so no
raise is written that counts for nothing, and lint never offers such a raise as its fix. Real
goalfile processes in a real git repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from conftest import make_git_repo, run_goalfile

GOAL = "goals/real.md"
MOST = "999999999999999999"  # 18 digits
TOO_MANY = "1" + "0" * 19  # 20 digits


def new_goal(tmp_path: Path) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "real", "done.txt exists", "--check", "test -f done.txt",
        "--expected", "exit 0", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return repo


def iterations_shown(repo: Path) -> str:
    done = run_goalfile("status", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr
    found = re.search(r"iterations [0-9]+/[0-9]+", done.stdout)
    assert found, done.stdout
    return found.group()


def test_budget_refuses_a_limit_the_ledger_cannot_record(tmp_path: Path) -> None:
    repo = new_goal(tmp_path)
    before = (repo / GOAL).read_bytes()
    for key in ("--iterations", "--tokens"):
        for value in (TOO_MANY, "1" + "0" * 18):  # 20 and 19 digits
            done = run_goalfile("budget", GOAL, key, value, cwd=repo)
            assert done.returncode == 2, (key, value, done.stdout, done.stderr)
            assert MOST in done.stderr, done.stderr
            assert "Traceback" not in done.stderr
            assert (repo / GOAL).read_bytes() == before
    assert iterations_shown(repo) == "iterations 0/5"
    # the largest limit the ledger records is taken, and counts
    done = run_goalfile("budget", GOAL, "--iterations", MOST, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert iterations_shown(repo) == f"iterations 0/{MOST}"
    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "budget-unbacked" not in lint.stdout + lint.stderr


def test_new_refuses_a_limit_the_ledger_cannot_record(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    for key in ("--iterations", "--tokens"):
        for extra in ((), ("--activate",)):
            done = run_goalfile(
                "new", "big", "x", "--check", "true", "--expected", "exit 0",
                key, TOO_MANY, *extra, cwd=repo,
            )  # fmt: skip
            assert done.returncode == 2, (key, extra, done.stdout, done.stderr)
            assert MOST in done.stderr and "null" in done.stderr, done.stderr
            assert "Traceback" not in done.stderr
            assert not (repo / "goals" / "big.md").exists()
    done = run_goalfile(
        "new", "big", "x", "--check", "true", "--expected", "exit 0",
        "--iterations", MOST, "--tokens", MOST, "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    status = run_goalfile("status", "goals/big.md", cwd=repo)
    assert f"iterations 0/{MOST}, tokens 0/{MOST}" in status.stdout, status.stdout


def test_lint_offers_no_raise_the_ledger_cannot_record(tmp_path: Path) -> None:
    repo = new_goal(tmp_path)
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("iterations: 5", f"iterations: {TOO_MANY}", 1), encoding="utf-8")
    lint = run_goalfile("lint", GOAL, cwd=repo)
    output = lint.stdout + lint.stderr
    assert "budget-unbacked" in output or "budget.iterations" in output, output
    assert f"--iterations {TOO_MANY}" not in output, output
    fixes = [line for line in output.splitlines() if line.strip().startswith("fix:")]
    assert fixes, output
    # the fix that is offered works as written: the typed limit is set back
    command = fixes[0].split("`")[1]
    done = subprocess.run(command, shell=True, cwd=repo, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert path.read_text(encoding="utf-8") == text
    assert iterations_shown(repo) == "iterations 0/5"


def test_activate_refuses_a_typed_limit_the_ledger_cannot_record(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "big", "x", "--check", "true", "--expected", "exit 0", "--non-goal", "n",
        cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    path = repo / "goals" / "big.md"
    text = path.read_text(encoding="utf-8").replace("iterations: 5", f"iterations: {TOO_MANY}")
    path.write_text(text, encoding="utf-8")
    done = run_goalfile("activate", "goals/big.md", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"goals/big.md:6: budget.iterations is {TOO_MANY}" in done.stderr, done.stderr
    assert MOST in done.stderr
    assert path.read_text(encoding="utf-8") == text  # nothing written
    # the fix works as written: the limit is unbounded, and activate approves it
    command = next(line for line in done.stderr.splitlines() if "fix:" in line).split("`")[1]
    fixed = subprocess.run(command, shell=True, cwd=repo, capture_output=True, text=True)
    assert fixed.returncode == 0, fixed.stderr
    done = run_goalfile("activate", "goals/big.md", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "budget approved: iterations unbounded, tokens unbounded" in path.read_text(
        encoding="utf-8"
    )


def test_a_typed_count_the_ledger_cannot_record_is_an_error_not_an_entry_no_reader_takes(
    tmp_path: Path,
) -> None:
    """`iterations_used: 10**18` (19 digits): verify wrote `### Iteration 1000000000000000000`,
    a heading no reader takes, and set `status: met`; status then said the ledger had no verify
    entry. The count is refused on reading, with a fix that works as written."""
    repo = new_goal(tmp_path)
    path = repo / GOAL
    text = re.sub(r"(?m)^iterations_used: .*$", "iterations_used: 1" + "0" * 18, path.read_text())
    path.write_text(text, encoding="utf-8")
    for command in (("verify", GOAL), ("lint", GOAL)):
        done = run_goalfile(*command, cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        assert f"iterations_used 1{'0' * 18} is more than a ledger entry can record" in (
            done.stderr
        ), done.stderr
    assert path.read_text(encoding="utf-8") == text  # nothing written
    fix = re.sub(r"(?m)^iterations_used: .*$", "iterations_used: 0", text)
    path.write_text(fix, encoding="utf-8")  # what the fix says to write
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert "### Iteration 0 (" in path.read_text(encoding="utf-8")
