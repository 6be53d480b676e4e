"""A goal made active is put in git's index, so the Stop hook holds an agent that moves or
deletes it before anyone committed it (README's quick start: `new --activate`, then work)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git, make_git_repo, run_goalfile, stop_input
from test_hook_discovery import fix_of, sh


def stop(repo: Path) -> str:
    """The Claude Code Stop hook's answer in ``repo``, as the host reads it."""
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=repo, input=stop_input(repo))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def new_active(repo: Path, *extra: str, cwd: Path | None = None) -> str:
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--non-goal", "app.txt stays", "--activate", *extra, cwd=cwd or repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "repo")
    (root / "app.txt").write_text("app\n", encoding="utf-8")
    git(root, "add", "app.txt")
    git(root, "commit", "-qm", "init")
    return root


@pytest.mark.parametrize("move", ["mv goals/auth.md goals/auth.md.txt", "rm goals/auth.md"])
def test_an_uncommitted_active_goal_moved_away_holds_the_agent(repo: Path, move: str) -> None:
    said = new_active(repo)
    assert "staged goals/auth.md (git add)" in said
    assert git(repo, "status", "--porcelain").splitlines() == ["A  goals/auth.md"]
    sh(move, repo)
    answer = json.loads(stop(repo))
    assert answer["decision"] == "block", answer
    fix = fix_of(answer["reason"])
    assert fix == "git checkout -- goals/auth.md"
    sh(fix, repo)
    assert "status: active" in (repo / "goals" / "auth.md").read_text(encoding="utf-8")


def test_json_output_stays_one_document_and_the_note_goes_to_stderr(repo: Path) -> None:
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--non-goal", "n", "--activate", "--json", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "active"
    assert "staged goals/auth.md" in done.stderr


def test_activate_resume_and_reopen_stage_an_untracked_goal(repo: Path) -> None:
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--non-goal", "n", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "staged" not in done.stderr  # a draft is no goal the hook keeps the agent at
    assert git(repo, "status", "--porcelain").splitlines() == ["?? goals/"]
    done = run_goalfile("activate", "goals/auth.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "staged goals/auth.md (git add)" in done.stderr
    git(repo, "rm", "-q", "--cached", "goals/auth.md")
    assert run_goalfile("pause", "goals/auth.md", cwd=repo).returncode == 0
    done = run_goalfile("resume", "goals/auth.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "staged goals/auth.md" in done.stderr
    assert git(repo, "ls-files", "goals").splitlines() == ["goals/auth.md"]


def test_a_committed_goal_is_left_as_it_is(repo: Path) -> None:
    new_active(repo)
    git(repo, "commit", "-qm", "goal")
    (repo / "goals" / "auth.md").write_text(
        (repo / "goals" / "auth.md").read_text(encoding="utf-8").replace("active", "paused", 1),
        encoding="utf-8",
    )
    done = run_goalfile("reopen", "goals/auth.md", "--reason", "again", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "staged" not in done.stderr
    assert git(repo, "diff", "--cached", "--name-only") == ""  # the edit is not staged for them


def test_from_a_sub_folder_the_goal_at_the_top_is_staged(repo: Path) -> None:
    (repo / "src").mkdir()
    said = new_active(repo, cwd=repo / "src")
    assert "staged ../goals/auth.md (git add)" in said, said
    assert git(repo, "ls-files", "goals").splitlines() == ["goals/auth.md"]


def test_an_ignored_goal_is_not_forced_in_and_the_fix_stages_it(repo: Path) -> None:
    (repo / "src").mkdir()
    (repo / ".gitignore").write_text("goals/\n", encoding="utf-8")
    said = new_active(repo, cwd=repo / "src")
    assert "a .gitignore file ignores it" in said, said
    assert "the Stop hook cannot hold an agent that moves or deletes it" in said
    assert git(repo, "ls-files", "goals") == ""
    fix = said.split("fix: ", 1)[1].splitlines()[0]
    assert fix == "`git -C .. add -f -- goals/auth.md`"
    sh(fix.strip("`"), repo / "src")
    assert git(repo, "ls-files", "goals").splitlines() == ["goals/auth.md"]


def test_outside_a_repository_nothing_is_said(tmp_path: Path) -> None:
    said = new_active(tmp_path)
    assert "staged" not in said and "git" not in said.replace("`goalfile", ""), said
