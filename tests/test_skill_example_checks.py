"""The goal skill's worked example is the check every agent copies: its row "no second copy of
the version" must fail when there is a second copy, also one reached through a symbolic link
inside `src`, and when `src` cannot be read at all (a pipe into `wc -l` hid grep's exit 2 and
printed 0). The `goalfile new` command is taken from skills/goal/SKILL.md as written and run by
a real shell; `verify --no-write` judges the row in each state of the repository."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, clean_env, git, run_goalfile

SKILL = REPO / "skills" / "goal" / "SKILL.md"
GOAL = "goals/version-flag.md"


def skill_new_command() -> str:
    """The ```sh block of the skill that begins with `goalfile new `, as written there."""
    blocks = re.findall(r"```sh\n(.*?)```", SKILL.read_text(encoding="utf-8"), flags=re.DOTALL)
    [new] = [block.strip() for block in blocks if block.startswith("goalfile new ")]
    return new


def copy_verdict(repo: Path) -> str:
    done = run_goalfile("verify", "--no-write", "--json", GOAL, cwd=repo)
    rows = {row["id"]: row for row in json.loads(done.stdout)["rows"]}
    [copy] = [
        row for row in rows.values() if "1\\.4\\.0" in row["command"] and "src" in row["command"]
    ]
    return str(copy["verdict"])


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A repository where the skill's `goalfile new ... --activate` was run by a real shell,
    with the version once in src/mytool/__init__.py."""
    repo = tmp_path / "repo"
    (repo / "src" / "mytool").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "src" / "mytool" / "__init__.py").write_text("VERSION = read_pyproject()\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "goalfile").write_text(f'#!/bin/sh\nexec {sys.executable} -m goalfile "$@"\n')
    (bin_dir / "goalfile").chmod(0o755)
    env = clean_env({"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"})
    done = subprocess.run(
        ["sh", "-c", skill_new_command()], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return repo


def test_the_skills_version_copy_row_is_met_only_without_a_second_copy(example: Path) -> None:
    assert copy_verdict(example) == "met"
    # a second copy in a file reached through a link inside src
    (example / "lib").mkdir()
    (example / "lib" / "copy.py").write_text('COPY = "1.4.0"\n')
    (example / "src" / "mytool" / "copy.py").symlink_to("../../lib/copy.py")
    assert copy_verdict(example) == "unmet"
    # src missing: grep cannot read it
    shutil.rmtree(example / "src")
    assert copy_verdict(example) == "unmet"


def test_a_count_piped_into_wc_judged_by_prints_0_is_a_lint_warning(example: Path) -> None:
    clean = run_goalfile("lint", "--json", GOAL, cwd=example)
    codes = {f["code"] for f in json.loads(clean.stdout)["files"][0]["findings"]}
    assert "pipeline-status" not in codes, clean.stdout  # the skill's example as it is now
    done = run_goalfile(
        "new", "count", "one version", "--check", 'grep -rn "1\\.4\\.0" src | wc -l',
        "--expected", "exit 0; prints 0", "--non-goal", "n", cwd=example,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    linted = run_goalfile("lint", "goals/count.md", cwd=example)
    assert linted.returncode == 0, linted.stderr  # a warning: the row still runs
    said = linted.stdout + linted.stderr
    assert (
        "goals/count.md:" in said and "the check ends in `| wc -l` and expects `prints 0`" in said
    )
    assert 'judge the command that measures instead: `grep -rRn "PATTERN" src`' in said, said


def test_the_skills_test_guard_fails_on_a_conftest_that_drops_a_failing_test(
    example: Path,
) -> None:
    """A `conftest.py` at the top (outside `tests/`) with `collect_ignore` leaves a failing
    test file uncollected: pytest printed `1 passed` with no word of it, the suite's row was
    met, and the guard `git diff --stat main -- tests/` the skill taught was met too, also in
    CI's fresh re-run of the committed branch. The guard as the skill writes it now is unmet."""
    (example / "tests").mkdir()
    (example / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    (example / "tests" / "test_version.py").write_text("def test_v():\n    assert False\n")
    git(example, "add", "-A")
    git(example, "commit", "-qm", "base")
    git(example, "checkout", "-qb", "agent")
    (example / "conftest.py").write_text('collect_ignore = ["tests/test_version.py"]\n')
    git(example, "add", "conftest.py")
    git(example, "commit", "-qm", "test setup")
    done = run_goalfile("verify", "--no-write", "--json", GOAL, cwd=example)
    rows = {row["id"]: row for row in json.loads(done.stdout)["rows"]}
    [guard] = [row for row in rows.values() if row["command"].startswith("git diff --stat main")]
    assert guard["verdict"] == "unmet", guard
    assert "conftest.py" in guard["command"]


def guard_verdict(repo: Path, env: dict[str, str]) -> str:
    done = run_goalfile("verify", "--no-write", "--json", GOAL, cwd=repo, env=env)
    [guard] = [r for r in json.loads(done.stdout)["rows"] if r["command"].startswith("git diff")]
    return str(guard["verdict"])


@pytest.mark.parametrize(
    ("path", "text", "committed"),
    [
        ("conftest.py", 'collect_ignore = ["tests/test_version.py"]\n', False),
        ("tests/conftest.py", 'collect_ignore = ["test_version.py"]\n', False),
        ("pytest.toml", '[pytest]\naddopts = ["--ignore=tests/test_version.py"]\n', True),
        (".pytest.ini", "[pytest]\naddopts = --ignore=tests/test_version.py\n", True),
    ],
)
def test_the_skills_test_guard_sees_what_git_diff_does_not(
    example: Path, path: str, text: str, committed: bool
) -> None:
    """What drops a failing test but `git diff --stat main -- tests/ '*conftest.py' pytest.ini
    tox.ini setup.cfg` did not show: a `conftest.py` never added to git (untracked files are in
    no diff; the Stop hook's verify, run in the working tree, wrote `met` for the suite and the
    guard, and let the agent go), and pytest's own configuration files the guard did not name
    (`pytest.toml`, `.pytest.toml` and `.pytest.ini`, read before `pytest.ini`), committed: met
    in CI's fresh re-run too. The suite's row is met in each case (the attack is real), and the
    guard as the skill writes it is unmet."""
    (example / "tests").mkdir()
    (example / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    (example / "tests" / "test_version.py").write_text("def test_v():\n    assert False\n")
    git(example, "add", "-A")
    git(example, "commit", "-qm", "base")
    git(example, "checkout", "-qb", "agent")
    python_bin = str(Path(sys.executable).parent)
    env = {"PATH": f"{python_bin}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
    assert guard_verdict(example, env) == "met"  # after pytest wrote its caches: no false alarm
    (example / path).write_text(text)
    if committed:
        git(example, "add", path)
        git(example, "commit", "-qm", "test setup")
    done = run_goalfile("verify", "--no-write", "--json", GOAL, cwd=example, env=env)
    rows = {row["id"]: row for row in json.loads(done.stdout)["rows"]}
    [suite] = [row for row in rows.values() if row["command"] == "python -m pytest -q"]
    assert suite["verdict"] == "met", suite  # the failing test was dropped
    [guard] = [row for row in rows.values() if row["command"].startswith("git diff --stat main")]
    assert guard["verdict"] == "unmet", guard
