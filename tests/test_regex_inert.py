"""A `matches` pattern holding a part that asks for nothing: a `(?#...)` comment, the verbose
flag (whose `#` starts a comment) or a part repeated `{0}` times. Such a pattern read as "N
passed, 0 failed" in `activate`'s listing and on GitHub, and matched `3 passed, 2 failed`: an
agent-drafted row approved that way verified `met` on a failing run. Now `new --activate`,
`lint` and `verify` refuse it (exit 3, file untouched)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goalfile.regexinert import inert_part
from tests.conftest import git, make_git_repo, run_goalfile

FAILING = "3 passed, 2 failed"
INERT = [
    r"^\d+ passed(?#, 0 failed)",
    r"(?x)^\d+\ passed #, 0 failed$",
    r"^\d+ passed(, 0 failed){0}",
    r"^\d+ passed(, 0 failed){0,0}",
    r"[]](?#x)|^\d+ passed",
]


@pytest.mark.parametrize("pattern", INERT)
def test_an_inert_part_is_refused_where_a_failing_run_would_be_met(
    tmp_path: Path, pattern: str
) -> None:
    assert re.search(pattern, FAILING), "the attack: the failing line matches"
    repo = make_git_repo(tmp_path / "repo")
    git(repo, "commit", "-q", "--allow-empty", "-m", "init")
    done = run_goalfile(
        "new", "g", "the suite passes", "--check", f"echo '{FAILING}'",
        "--expected", f"exit 0; stdout matches /{pattern}/", "--non-goal", "n", "--activate",
        cwd=repo,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr  # a usage error of `new`
    assert "reads as more than it asks" in done.stderr, done.stderr
    assert not (repo / "goals" / "g.md").exists()


def test_an_approved_goal_with_an_inert_part_is_not_verified(tmp_path: Path) -> None:
    """A goal approved before the rule: verify refuses it (exit 3), nothing written."""
    repo = make_git_repo(tmp_path / "repo")
    git(repo, "commit", "-q", "--allow-empty", "-m", "init")
    done = run_goalfile(
        "new", "g", "the suite passes", "--check", f"echo '{FAILING}'",
        "--expected", r"exit 0; stdout matches /^\d+ passed/", "--non-goal", "n", "--activate",
        cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    goal = repo / "goals" / "g.md"
    text = goal.read_text()
    goal.write_text(text.replace(r"/^\d+ passed/", r"/^\d+ passed(?#, 0 failed)/"))
    before = goal.read_bytes()
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "(?#, 0 failed)" in done.stderr and "reads as more than it asks" in done.stderr
    assert "status: met" not in done.stdout
    assert goal.read_bytes() == before


@pytest.mark.parametrize(
    "pattern", [r"^\d+ passed$", r"passed[(?#]x", r"a{0,2}b", r"[#] x", r"\(?#x", r"[^]](?=x)"]
)
def test_a_pattern_without_an_inert_part_is_accepted(pattern: str) -> None:
    assert inert_part(pattern) is None


def test_the_scoped_verbose_flag_is_named_too() -> None:
    """`(?x:...)` cannot hold a comment in one line (the `#` would take its `)`), but its blanks
    match nothing: `/passed(?x: , 0 failed)/` reads as ", 0 failed" and asks for ",0failed"."""
    assert inert_part(r"passed(?x: , 0 failed)") is not None
