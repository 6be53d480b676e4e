"""An empty `.git` folder is no repository, for every command as for the Stop hook
(goalfile.commands.gittop.holds_git): Codex's workspace-write sandbox leaves one in each folder
a command may write that has none. doctor and init judged a hook's `--goal` by it, and the
focus and held-goals records were looked for inside it."""

from __future__ import annotations

from pathlib import Path

from goalfile.commands.focus import git_dir
from goalfile.commands.focusheld import held
from tests.conftest import host_env, run_goalfile


def _doctor(folder: Path, home: Path) -> str:
    return run_goalfile("doctor", cwd=folder, env=host_env(home)).stdout


def test_doctor_outside_git_reads_a_goal_option_alike_with_an_empty_git_folder(
    tmp_path: Path,
) -> None:
    folder, home = tmp_path / "project", tmp_path / "home"
    folder.mkdir()
    env = host_env(home)
    made = run_goalfile("new", "demo", "x", "--check", "true", "--expected", "exit 0",
                        "--non-goal", "n", cwd=folder, env=env)  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert run_goalfile("init", "--no-skills", cwd=folder, env=env).returncode == 0
    settings = folder / ".claude" / "settings.json"
    text = settings.read_text()
    assert "goalfile hook stop --agent claude" in text, text
    settings.write_text(text.replace("hook stop", "hook stop --goal goals/demo.md"))
    without = _doctor(folder, home)
    (folder / ".git").mkdir()
    with_empty = _doctor(folder, home)
    assert "pins the hook unsoundly" not in with_empty, with_empty
    assert with_empty == without


def test_an_empty_git_folder_holds_no_focus_or_held_goals_record(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    assert git_dir(tmp_path) is None
    assert held(tmp_path) == []
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert git_dir(tmp_path) == tmp_path / ".git"
