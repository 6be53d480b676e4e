"""The README's two commands: the first leaves a clone clean, so the second passes after it."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from pathlib import Path

from tests.conftest import REPO, clean_env, git, last_line, make_git_repo

COMMAND_LINE = re.compile(r"^python3 -m venv \.venv && .*$", re.M)


def readme_commands() -> list[str]:
    """The shell lines of the README's first code block, in order."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    return COMMAND_LINE.findall(block)


def test_the_readme_has_two_commands_and_ci_finds_the_second() -> None:
    first, second = readme_commands()
    assert "goalfile verify" in first
    # .ci/run takes the first README line that holds "-m pytest": it must be the second command
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    ci_line = next(line for line in lines if "-m pytest" in line)
    assert ci_line == second


def test_the_first_command_leaves_a_clone_clean(tmp_path: Path) -> None:
    """What command 1 runs after installing, run on a committed copy of the checkout."""
    import subprocess

    clone = make_git_repo(tmp_path / "clone")
    for name in ("README.md", "pyproject.toml"):
        shutil.copy(REPO / name, clone / name)
    for folder in ("skills", "templates", "examples", "docs"):
        shutil.copytree(REPO / folder, clone / folder)
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "-m", "clone")
    first, _ = readme_commands()
    goalfile_part = first.split("&&")[-1].strip()
    argv = shlex.split(goalfile_part)
    assert argv[0] == ".venv/bin/goalfile"
    done = subprocess.run(
        [sys.executable, "-m", "goalfile", *argv[1:]],
        cwd=clone,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert last_line(done.stdout).startswith("verify-goal hello iteration 1: C1 met")
    assert last_line(done.stdout).endswith("status: met")
    assert git(clone, "status", "--porcelain") == ""
