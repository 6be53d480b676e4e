"""`new` and `activate` name a test path a pytest check gives that is not there, and a revision
a git check compares with that names no commit: each makes its program exit with its own
usage error (pytest 4, git 128), which verify judges `unmet`, so the row could never be met.
Real goalfile processes in a real git repository whose branch is `master`."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from conftest import git, run_goalfile

from goalfile.commands.operands import git_revisions, pytest_paths

PYTEST = f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "master")
    git(repo, "config", "user.email", "tests@example.invalid")
    git(repo, "config", "user.name", "goalfile tests")
    (repo / "tests").mkdir()
    (repo / "tests" / "test_version.py").write_text("def test_ok():\n    pass\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "start")
    return repo


def new(repo: Path, *checks: str, activate: bool = False) -> tuple[int, str, str]:
    args = ["new", "demo", "the version tests pass", "--non-goal", "nothing else"]
    for check in checks:
        args += ["--check", check, "--expected", "exit 0"]
    done = run_goalfile(*args, *(["--activate"] if activate else []), cwd=repo)
    return done.returncode, done.stdout, done.stderr


def test_new_names_a_missing_test_path_and_an_unknown_branch(project: Path) -> None:
    code, _, said = new(
        project,
        f"{PYTEST} tests/test_versoin.py::test_ok",
        "git diff --stat main -- tests",
        f"{PYTEST} -k ok tests/test_version.py tests",  # both there
        "git diff --stat master...HEAD -- tests",  # there
    )

    assert code == 0, said
    assert (
        "note: C1: pytest is given `tests/test_versoin.py`, which is not there where the checks "
        "run: pytest exits 4 (its usage error), and verify judges the row `unmet` until the "
        "work makes it; if the work is not to make it, correct it in goals/demo.md before "
        "`goalfile activate`"
    ) in said
    assert (
        "note: C2: git knows no commit `main` where the checks run (`git branch --all` lists "
        "the branches): git exits 128, and verify judges the row `unmet`"
    ) in said
    assert "C3:" not in said and "C4:" not in said
    # what the note foretells is what verify does
    ran = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=project)
    rows = {row["id"]: (row["verdict"], row["exit"]) for row in json.loads(ran.stdout)["rows"]}
    assert rows == {
        "C1": ("unmet", "4"),
        "C2": ("unmet", "128"),
        "C3": ("met", "0"),
        "C4": ("met", "0"),
    }


def test_activate_shows_them_as_warnings_and_json_names_them(project: Path) -> None:
    done = run_goalfile(
        "new", "demo", "x", "--non-goal", "n", "--check", "git log --oneline trunk -- tests",
        "--expected", "exit 0", "--json", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert list(json.loads(done.stdout)["not_there"]) == ["C1"]

    activated = run_goalfile("activate", "goals/demo.md", cwd=project)

    assert activated.returncode == 0, activated.stderr
    assert "warning: C1: git knows no commit `trunk` where the checks run" in activated.stderr


def test_new_activate_says_a_reapproval_corrects_it(project: Path) -> None:
    code, _, said = new(project, f"{PYTEST} tests/nope", activate=True)

    assert code == 0, said
    assert "note: C1: pytest is given `tests/nope`" in said
    assert "`goalfile activate --reapprove goals/demo.md --reason TEXT`" in said


@pytest.mark.parametrize(
    ("command", "paths"),
    [
        ("pytest tests/a.py::test_x -k 'b or c'", ["tests/a.py"]),
        ("python3 -m pytest -q --tb short -p no:x tests/", ["tests/"]),
        ("py.test --ignore tests/skip tests/unit", ["tests/unit"]),
        ("pytest -q", []),
        ("pytest $TESTS", []),  # the shell expands it
        ("pytest tests/a.py | tail -1", []),  # a pipeline: not judged here
        ("python -m pip install x/y.py", []),
        ("pytest --lf -q tests/unit", ["tests/unit"]),
        # a plugin's option with its value (pytest-html's report): no test path
        ("pytest --html report/r.html tests/unit", ["tests/unit"]),
    ],
)
def test_pytest_paths(command: str, paths: list[str]) -> None:
    assert pytest_paths(command) == paths


@pytest.mark.parametrize(
    ("command", "revisions"),
    [
        ("git diff --stat main -- tests/", ["main"]),
        ("git -c core.quotepath=off diff origin/main...HEAD -- x", ["origin/main", "HEAD"]),
        ("git -C sub diff origin/main...HEAD -- x", []),  # another repository's commits
        ("git --git-dir=sub/.git log feature -- x", []),
        ("git log --oneline v1.0..v2.0 -- src", ["v1.0", "v2.0"]),
        ("git diff --stat main tests/", []),  # no `--`: git tells a path from a revision
        ("git status --short -- x", []),
        ("git diff HEAD~1 -- x", []),  # left to git
        # an option's value in the next word is no revision
        ("git log -n 5 --author Bob main -- src", ["main"]),
        ("git diff -S needle --stat main -- src", ["main"]),
    ],
)
def test_git_revisions(command: str, revisions: list[str]) -> None:
    assert git_revisions(command) == revisions


def test_option_values_and_a_path_too_long_to_look_at_get_no_note(project: Path) -> None:
    """`-n 5` and `--author Bob` are a git log's option values, not commits; a test path longer
    than the system takes cannot be looked at (it was a traceback): neither is named."""
    code, _, said = new(
        project, "git log -n 5 --author Bob master -- tests", f"{PYTEST} {'a' * 300}/test_x.py"
    )

    assert code == 0 and "Traceback" not in said, said
    assert "note:" not in said, said


def test_a_check_in_another_repository_gets_no_note(project: Path) -> None:
    """`git -C sub` compares with the commits of the repository in `sub`: its branch, which
    the project's repository does not have, is no missing commit."""
    sub = project / "sub"
    sub.mkdir()
    git(sub, "init", "-q", "-b", "feature")
    git(sub, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-q",
        "--allow-empty", "-m", "start")  # fmt: skip
    code, _, said = new(project, "git -C sub diff --stat feature -- x")

    assert code == 0, said
    assert "note:" not in said, said
    ran = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=project)
    assert [row["verdict"] for row in json.loads(ran.stdout)["rows"]] == ["met"]
