"""A goal on a real project goalfile did not write: the six sdist from PyPI, whose own test
suite (test_six.py, about 200 tests, a second) is the goal's first check.

The goal is written and driven the way the skills tell an agent to: the goal skill's `goalfile
new ... --activate`, the plan skill's table typed under `## Plan`, verify, refine, the fix,
plan and verify again, then audit against the base branch. Then the pull request as CI sees it
in a clone made with git's `core.autocrlf=true`, so every file of the project and the goal file
are checked out with CRLF line ends: lint, verify, audit --against and the docs/ci.md step.

The sdist is downloaded once with pip into a cache outside the repository
($GOALFILE_TEST_CACHE, else ~/.cache/goalfile-tests), under a file lock so that parallel test
processes neither download it twice nor read half a file; the test fails if it cannot be
fetched.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from filelock import FileLock

from tests.conftest import git, last_line, make_git_repo, run_goalfile
from tests.test_ci_recipe import run_step

PROJECT, VERSION = "six", "1.17.0"
NAME = f"six-{VERSION}.tar.gz"
GOAL = "goals/u-keeps-text.md"
SUITE = "python -m pytest -q -p no:cacheprovider test_six.py"
GOOD = "    def u(s):\n        return s\n"
BROKEN = "    def u(s):\n        return s.strip()\n"  # test_u and test_print_ fail


def sdist() -> Path:
    folder = Path(
        os.environ.get("GOALFILE_TEST_CACHE") or Path.home() / ".cache" / "goalfile-tests"
    )
    folder.mkdir(parents=True, exist_ok=True)
    if (folder / NAME).is_file():
        return folder / NAME
    with FileLock(str(folder / f".{NAME}.lock"), timeout=600):
        if not (folder / NAME).is_file():
            with tempfile.TemporaryDirectory(prefix=f".{NAME}.", dir=folder) as staging:
                done = subprocess.run(
                    [sys.executable, "-m", "pip", "download", "--no-binary", ":all:",
                     "--no-deps", f"{PROJECT}=={VERSION}", "-d", staging],
                    capture_output=True, text=True, timeout=300, check=False,
                )  # fmt: skip
                fetched = Path(staging) / NAME
                assert fetched.is_file(), (
                    f"could not download the {PROJECT} {VERSION} sdist with pip into {folder}; "
                    f"this test needs it (or put {NAME} there by hand):\n"
                    f"{done.stdout}{done.stderr}"
                )
                fetched.replace(folder / NAME)
    return folder / NAME


def env() -> dict[str, str]:
    """The checks run with this test's Python first on PATH (pytest is there)."""
    return {"PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"}


def gf(repo: Path, *args: str, code: int) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(*args, cwd=repo, env=env(), timeout=300)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def source(root: Path, old: str, new: str) -> None:
    six = root / "six.py"
    text = six.read_text()
    assert text.count(old) == 1
    six.write_text(text.replace(old, new))


def test_a_goal_on_six_runs_its_suite_to_met_and_audits_in_a_crlf_clone(tmp_path: Path) -> None:
    with tarfile.open(sdist()) as archive:
        archive.extractall(tmp_path, filter="data")
    root = make_git_repo(tmp_path / f"six-{VERSION}")
    source(root, GOOD, BROKEN)
    (root / ".gitignore").write_text("__pycache__/\n")  # what the checks leave is not committed
    git(root, "checkout", "-q", "-b", "main")

    # the goal skill, step 5: the rows the user approved, written and activated in one command
    gf(
        root, "new", "u-keeps-text", "`six.u` returns its text unchanged and the suite passes",
        "--iterations", "4", "--non-goal", "test_six.py stays unchanged",
        "--criterion", "the suite passes", "--check", SUITE,
        "--expected", 'exit 0; stdout contains " passed" and stdout lacks "failed"',
        "--criterion", "u keeps a newline",
        "--check", """python -c 'import six; print(repr(six.u("a\\n")))'""",
        "--expected", """exit 0; prints "'a\\\\n'\"""",
        "--criterion", "tests untouched", "--check", "git diff --stat main -- test_six.py",
        "--expected", "exit 0; output empty", "--activate", code=0,
    )  # fmt: skip
    # the plan skill: its table, typed under `## Plan` in place of the empty one
    goal = root / GOAL
    header = (
        "| step | change | files | serves | check |\n"
        + "|------|--------|-------|--------|-------|\n"
    )
    text = goal.read_text()
    assert text.count(header) == 1
    goal.write_text(
        text.replace(
            header,
            header + "| 1 | return the text as given from `u` | six.py | C1, C2 | `" + SUITE
            + " -k test_u` |\n| 2 | no change to the tests | - | C3 | - |\n",
        )
    )  # fmt: skip
    commit(root, "six with a bug in u(), and the goal that fixes it")
    git(root, "checkout", "-q", "-b", "work")

    assert "plan revision 1 is sound" in gf(root, "plan", GOAL, code=0).stdout
    done = gf(root, "verify", GOAL, code=1)
    assert last_line(done.stdout) == (
        "verify-goal u-keeps-text iteration 1: C1 unmet, C2 unmet, C3 met; status: active"
    )
    assert "test_six.py::test_u" in done.stdout  # the suite's own failure, on the terminal
    backlog = gf(root, "refine", GOAL, code=0).stdout
    assert "- [ ] C1 unmet (exit 1): `2 failed, " in backlog, backlog  # test_u, test_print_
    source(root, BROKEN, GOOD)
    gf(root, "plan", GOAL, code=0)
    done = gf(root, "verify", GOAL, code=0)
    assert last_line(done.stdout) == (
        "verify-goal u-keeps-text iteration 2: C1 met, C2 met, C3 met; status: met"
    )
    assert re.search(r"\| C1 +\| met +\| .* \| 0 +\| `\d+ passed", goal.read_text())
    gf(root, "audit", GOAL, code=0)
    commit(root, "u() returns its text unchanged")
    clean = gf(root, "audit", "--against", "main", GOAL, code=0).stdout
    assert clean.rstrip().endswith("clean (5 entries added since main)"), clean

    # the pull request in a clone that checks every text file out with CRLF
    clone = tmp_path / "ci"
    subprocess.run(
        ["git", "-c", "core.autocrlf=true", "clone", "-q", "-b", "work", str(root), str(clone)],
        check=True, timeout=120,
    )  # fmt: skip
    git(clone, "config", "core.autocrlf", "true")
    crlf = (clone / GOAL).read_bytes()
    assert crlf.count(b"\r\n") == crlf.count(b"\n") > 50
    assert (clone / "six.py").read_bytes().count(b"\r\n") > 900
    gf(clone, "lint", GOAL, code=0)
    gf(clone, "audit", "--against", "origin/main", GOAL, code=0)
    # C3 names the base branch, as the goal skill writes a non-goal's guard; the checkout of a
    # pull request has `origin/main` only, so without the step's own set-up git cannot read
    # `main` and the row is unmet (exit 128) on an honest `met`
    out = gf(clone, "verify", "--no-write", GOAL, code=1).stdout
    assert last_line(out).endswith("C1 met, C2 met, C3 unmet; status: active"), out
    step = run_step(clone, env={"BASE_BRANCH": "main"})  # the step as docs/ci.md writes it
    assert step.returncode == 0, step.stdout + step.stderr
    assert "verify-goal u-keeps-text iteration 2: C1 met, C2 met, C3 met; status: met" in (
        step.stdout
    )
    assert git(clone, "rev-parse", "main") == git(clone, "rev-parse", "origin/main")
    assert git(clone, "status", "--porcelain") == ""  # CI wrote nothing
    done = gf(clone, "verify", "--no-write", GOAL, code=0)
    assert last_line(done.stdout).endswith("C1 met, C2 met, C3 met; status: met")
