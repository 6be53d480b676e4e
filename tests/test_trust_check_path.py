"""A `PATH` whose entry is empty or relative (`PATH=$EXTRA:$PATH` with `EXTRA` unset starts it
with `:`, which the shell reads as the working directory) made a check's `git` the program the
agent left, untracked and excluded, at the top of the work tree: a guard row was met over a
changed fixture. Checks get `PATH` with such entries left out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import git, goal_text, last_line, make_git_repo, row, run_goalfile, write_goal

SHIM = "#!/bin/sh\nexit 0\n"


@pytest.mark.parametrize(
    ("entry", "folder"), [("", "."), (".", "."), ("bin", "bin"), ("./bin", "bin")]
)
def test_a_program_found_through_a_relative_path_entry_is_not_run(
    tmp_path: Path, entry: str, folder: str
) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "tests").mkdir()
    (repo / "tests" / "f.txt").write_text("kept\n")
    check = "git diff --exit-code HEAD -- tests"
    write_goal(repo / "goals", goal_text(rows=(row("C1", check, "exit 0; output empty"),)))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    (repo / "tests" / "f.txt").write_text("changed\n")
    shim = repo / folder / "git"
    shim.parent.mkdir(exist_ok=True)
    shim.write_text(SHIM)
    shim.chmod(0o755)
    (repo / ".git" / "info" / "exclude").write_text(f"/{folder}/git\n/git\n")
    path = f"{entry}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    done = run_goalfile("verify", "goals/demo.md", cwd=repo, env={"PATH": path})
    assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 unmet; status: active", (
        done.stdout + done.stderr
    )
    assert "changed" in (repo / "goals" / "demo.md").read_text()


def test_a_check_still_runs_a_program_named_by_its_path(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "bin").mkdir()
    (repo / "bin" / "ok").write_text("#!/bin/sh\necho fine\n")
    (repo / "bin" / "ok").chmod(0o755)
    write_goal(
        repo / "goals", goal_text(rows=(row("C1", "bin/ok", 'exit 0; stdout contains "fine"'),))
    )
    path = f"bin:{os.environ.get('PATH', '/usr/bin:/bin')}"
    done = run_goalfile("verify", "goals/demo.md", cwd=repo, env={"PATH": path})
    assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 met; status: met", (
        done.stderr
    )
