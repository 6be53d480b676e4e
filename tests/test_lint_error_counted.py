"""A row whose exit clause also takes the measuring command's error: "no TODO is left in
src/legacy.py" drafted as `! grep -n TODO src/legacy.py` with `exit 0`, or `grep -n TODO
src/legacy.py` with `exit nonzero`, or `test -z "$(grep -n TODO src/legacy.py)"` with `exit 0`,
was lint-clean and approved without a word, and deleting the file (the easiest way to make the
row pass) made it met: grep exits 2 for a file it cannot read, `!` turns that into 0, `nonzero`
takes 2, and `$(...)` drops the status and prints nothing. lint, and so `activate`'s listing,
now warn (`error-counted`); grep's own answer, `exit 1; output empty`, is unmet on the deleted
file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git, make_git_repo, run_goalfile

CASES = [
    ("! grep -n TODO src/legacy.py", "exit 0"),
    ("grep -n TODO src/legacy.py", "exit nonzero"),
    ("grep -n TODO src/legacy.py", "exit != 0"),
    ("git diff --quiet base -- src/legacy.py", "exit nonzero"),
    ('test -z "$(grep -n TODO src/legacy.py)"', "exit 0"),
    ('[ -z "$(grep -n TODO src/legacy.py)" ]', "exit 0"),
]


def _goal(tmp_path: Path, check: str, expected: str) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "src").mkdir()
    (repo / "src" / "legacy.py").write_text("x = 1  # TODO remove\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    git(repo, "branch", "base")  # the git row wants src/legacy.py to differ from it: unmet
    done = run_goalfile(
        "new", "g", "no TODO left", "--check", check, "--expected", expected,
        "--non-goal", "n", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return repo


def _verdict(repo: Path) -> str:
    done = run_goalfile("verify", "--no-write", "--json", "goals/g.md", cwd=repo)
    [row] = json.loads(done.stdout)["rows"]
    return str(row["verdict"])


@pytest.mark.parametrize(("check", "expected"), CASES)
def test_an_error_that_passes_the_exit_clause_is_a_warning(
    tmp_path: Path, check: str, expected: str
) -> None:
    repo = _goal(tmp_path, check, expected)
    done = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert _verdict(repo) == "unmet"  # the TODO is there; the file is as at base
    git(repo, "branch", "-D", "base")
    (repo / "src" / "legacy.py").unlink()
    assert _verdict(repo) == "met", "the attack: deleting what the row reads makes it met"
    said = done.stdout + done.stderr
    assert "the row is met when what the check reads is deleted or moved" in said, said
    linted = run_goalfile("lint", "--json", "goals/g.md", cwd=repo)
    codes = [f["code"] for f in json.loads(linted.stdout)["files"][0]["findings"]]
    assert "error-counted" in codes, linted.stdout


@pytest.mark.parametrize(
    ("check", "expected"),
    [
        ("grep -n TODO src/legacy.py", "exit 1; output empty"),
        ("! grep -n TODO src/legacy.py", "exit 0; output empty"),
        ("grep -n TODO src/legacy.py", "exit 1"),
        ("python3 -c 'import sys; sys.exit(1)'", "exit nonzero"),
        ('test -z "$(grep -n TODO src/legacy.py)"', "exit 0; output empty"),
    ],
)
def test_a_row_an_error_fails_has_no_warning(tmp_path: Path, check: str, expected: str) -> None:
    repo = _goal(tmp_path, check, expected)
    (repo / "src" / "legacy.py").unlink()
    linted = run_goalfile("lint", "--json", "goals/g.md", cwd=repo)
    codes = [f["code"] for f in json.loads(linted.stdout)["files"][0]["findings"]]
    assert "error-counted" not in codes, linted.stdout
    if "grep" in check:
        assert _verdict(repo) == "unmet"  # grep's error on the deleted file fails the row
