"""A goal file reached through a symbolic link into another repository is refused (its checks
would run there), and the printed fix, run as written, puts the goal where the link was."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import clean_env, goal_text, make_git_repo, row, run_goalfile, write_goal


@pytest.mark.parametrize("linked", ["file", "folder"])
def test_a_goal_linked_from_another_repository_is_refused_and_the_fix_works(
    tmp_path: Path, linked: str
) -> None:
    other = make_git_repo(tmp_path / "other")
    project = make_git_repo(tmp_path / "project")
    (project / "here").write_text("", encoding="utf-8")  # only the project has it
    text = goal_text(status="draft", rows=(row("C1", "test -f here", "exit 0"),))
    write_goal(other / "goals", text, "demo.md")
    if linked == "file":
        (project / "goals").mkdir()
        (project / "goals" / "demo.md").symlink_to(other / "goals" / "demo.md")
    else:
        (project / "goals").symlink_to(other / "goals")
    refused = run_goalfile("verify", "--no-write", "goals/demo.md", cwd=project)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert "reached through a symbolic link" in refused.stderr
    fix = refused.stderr.split("fix: put what the link points to where the link is: `")[1]
    fix = fix.split("`")[0]
    assert fix.startswith("unlink -- "), fix  # Claude Code's shell tool refuses rm of a link
    subprocess.run(["sh", "-c", fix], cwd=project, env=clean_env(), check=True)
    goal = project / "goals" / "demo.md"
    assert goal.is_file() and not goal.is_symlink()
    assert not any(part.is_symlink() for part in (project / "goals",))
    done = run_goalfile("verify", "--no-write", "goals/demo.md", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "C1 met" in done.stdout
