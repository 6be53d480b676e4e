"""`goalfile doctor` and the Stop hook's own settings as git holds them: a `--goal` in the hook
command counts only when it names a goal file HEAD holds in a goal folder (an excluded, met
decoy `goals/.cache/easy.md` narrowed the hook to itself), and a host settings file marked
skip-worktree or assume-unchanged (so `git status` hides the edit) is a problem. Real git, real
settings files, goalfile as a real process; every `fix:` printed is run as written."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import git, host_env, run_goalfile
from test_doctor_hook_shape import CLAUDE, hook_problems, set_command, stop_commands
from test_doctor_hook_shape import made as made
from test_doctor_hook_shape import repo as repo
from test_doctor_timeouts import doctor, run_fix
from test_doctor_timeouts import home as home

DECOY = "goals/.cache/easy.md"


@pytest.fixture
def decoy(repo: Path, home: Path) -> Path:
    """The hook shape tests' repository (`goalfile init`, an active goal whose check fails),
    committed; then the agent's met decoy in a folder `.git/info/exclude` hides."""
    env = host_env(home)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal: t; hooks")
    with (repo / ".git" / "info" / "exclude").open("a") as exclude:
        exclude.write("goals/.cache/\n")
    done = run_goalfile("new", "easy", "docs", "--dir", "goals/.cache", "--check", "true",
                        "--expected", "exit 0", "--activate", cwd=repo, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert git(repo, "ls-files", "--", DECOY) == ""  # git does not track it
    assert run_goalfile("verify", DECOY, cwd=repo, env=env).returncode == 0
    return repo


def test_a_goal_option_naming_an_untracked_decoy_is_a_problem_the_fix_repairs(
    decoy: Path, home: Path
) -> None:
    repo = decoy
    set_command(repo / CLAUDE, f"goalfile hook stop --agent claude --goal {DECOY}")
    report = doctor(repo, home)
    assert report["exit_code"] == 1, report
    details = [f["detail"] for f in hook_problems(report)]
    assert any(
        f"--goal {DECOY}` pins the hook unsoundly: `--goal {DECOY}` names no goal file a "
        "person committed to goals/ or .zetetic/goals/ (doctor asks that HEAD hold it there)" in d
        for d in details
    ), details
    assert not any(f["health"] == "ok" and f["detail"].startswith("Stop hook in .claude")
                   for f in report["findings"]), report  # fmt: skip
    # git holds the decoy nowhere: no commit is offered to keep the option
    assert not [f for f in hook_problems(report) if "git's index holds" in str(f.get("hint"))]
    run_fix("goalfile doctor --fix-hooks", repo, home)
    document = json.loads((repo / CLAUDE).read_text(encoding="utf-8"))
    assert document["hooks"]["Stop"][0]["hooks"][0]["command"] == (
        "goalfile hook stop --agent claude"
    )
    assert hook_problems(doctor(repo, home)) == []


def test_a_goal_option_outside_the_goal_folders_is_a_problem(decoy: Path, home: Path) -> None:
    repo = decoy
    (repo / "notes").mkdir()
    (repo / "notes" / "easy.md").write_bytes((repo / DECOY).read_bytes())
    git(repo, "add", "notes/easy.md")
    git(repo, "commit", "-qm", "notes")
    set_command(repo / CLAUDE, "goalfile hook stop --agent claude --goal notes/easy.md")
    details = [f["detail"] for f in hook_problems(doctor(repo, home))]
    assert any("`--goal notes/easy.md` names no goal file a person committed" in d for d in details)
    # a --goal naming the committed goal is sound
    set_command(repo / CLAUDE, "goalfile hook stop --agent claude --goal goals/t.md")
    git(repo, "commit", "-qam", "hook names the goal")
    assert hook_problems(doctor(repo, home)) == []


def test_init_keeps_the_goal_option_doctor_accepts_once_committed(decoy: Path, home: Path) -> None:
    """One rule for `init` and `doctor`: a `--goal` in a goal folder that git holds. `init`
    (run while a goal is set up) asks git's index, `doctor` HEAD: a goal `activate` staged is
    kept by init, is a problem for doctor until it is committed, and is sound after. A staged
    goal outside the goal folders is neither's."""
    repo, env = decoy, host_env(home)
    done = run_goalfile("new", "next", "docs", "--check", "true", "--expected", "exit 0",
                        "--activate", cwd=repo, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    staged = git(repo, "diff", "--cached", "--name-only").split()
    assert staged == ["goals/next.md"]  # staged, not committed
    pinned = "goalfile hook stop --agent claude --goal goals/next.md"
    set_command(repo / CLAUDE, pinned)
    init = ("init", "--no-goal", "--no-skills")
    assert run_goalfile(*init, cwd=repo, env=env).returncode == 0
    assert stop_commands(repo / CLAUDE) == [pinned]
    [pinned_problem] = [
        f for f in hook_problems(doctor(repo, home)) if "--goal goals/next.md` pins" in f["detail"]
    ]
    assert pinned_problem["fix"] == "goalfile doctor --fix-hooks"  # drops the option
    commit = pinned_problem["hint"].split("(`", 1)[1].split("`)", 1)[0]  # or keeps it
    assert commit == "git commit -m 'goal: next' -- goals/next.md", pinned_problem
    subprocess.run(["sh", "-c", commit], cwd=repo, check=True, capture_output=True)
    assert hook_problems(doctor(repo, home)) == []
    assert stop_commands(repo / CLAUDE) == [pinned]

    (repo / "notes").mkdir()
    (repo / "notes" / "next.md").write_bytes((repo / "goals" / "next.md").read_bytes())
    git(repo, "add", "notes/next.md")
    set_command(repo / CLAUDE, "goalfile hook stop --agent claude --goal notes/next.md")
    assert run_goalfile(*init, cwd=repo, env=env).returncode == 0
    assert stop_commands(repo / CLAUDE) == ["goalfile hook stop --agent claude"]


@pytest.mark.parametrize(
    "flags",
    [["--skip-worktree"], ["--assume-unchanged"], ["--skip-worktree", "--assume-unchanged"]],
)
def test_a_settings_file_hidden_from_git_status_is_a_problem(
    decoy: Path, home: Path, flags: list[str]
) -> None:
    repo = decoy
    for flag in flags:
        git(repo, "update-index", flag, str(CLAUDE))
    report = doctor(repo, home)
    mark = " and ".join(flag.removeprefix("--") for flag in flags)
    [hidden] = [f for f in hook_problems(report) if "in git's index" in f["detail"]]
    assert hidden["detail"].startswith(f"{CLAUDE} is marked {mark} in git's index"), hidden
    subprocess.run(["sh", "-c", hidden["fix"]], cwd=repo, check=True)  # the fix, as written
    assert [f for f in hook_problems(doctor(repo, home)) if "in git's index" in f["detail"]] == []
    assert git(repo, "ls-files", "-v", str(CLAUDE)).startswith("H ")
