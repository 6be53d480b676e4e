"""`goalfile hook stop` answers whatever blocks it: a FIFO where goalfile reads a file (the
focus record, a `.git` entry, a settings file) is refused and never waited on.

Every test runs the real hook on a real git repository, with a bounded wait of its own: a hook
that hangs fails the test by that timeout (the child is killed), never the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import DATA, git, goal_text, make_git_repo, row, run_goalfile, write_goal

WAIT = 60.0  # seconds the test gives a hook that should answer in one or two


def recorded(repo: Path, cwd: Path, *, active: bool = False) -> str:
    data = json.loads((DATA / "hooks" / "claude-stop.json").read_text(encoding="utf-8"))
    data["cwd"] = str(cwd)
    data["stop_hook_active"] = active
    data.pop("transcript_path")
    return json.dumps(data)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with one active goal that is not met, committed."""
    root = make_git_repo(tmp_path / "app")
    text = goal_text(rows=(row("C1", "test -f done.txt", "exit 0"),), extra=("stall_limit: 20",))
    write_goal(root / "goals", text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    return root


def hook(
    repo: Path, cwd: Path, *extra: str, active: bool = False
) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", *extra,
        cwd=cwd, input=recorded(repo, cwd, active=active), timeout=WAIT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


def held_by_the_goal(done: subprocess.CompletedProcess[str]) -> str:
    """The block reason, which must be the goal's own: verify ran and C1 is unmet."""
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", done.stdout
    reason = answer["reason"]
    assert isinstance(reason, str)
    assert "C1 unmet" in reason and "goalfile hook stop did not answer" not in reason, reason
    return reason


def test_a_fifo_as_the_focus_file_is_no_focus_and_never_waited_on(repo: Path) -> None:
    focus = repo / ".git" / "goalfile-focus.json"
    os.mkfifo(focus)
    done = hook(repo, repo)
    held_by_the_goal(done)
    assert "by stop-hook" in (repo / "goals" / "demo.md").read_text(encoding="utf-8")
    # the note names the file, says what it is, and gives the fix; the fix works as written
    assert f"{focus}: is a FIFO (named pipe), not a regular file" in done.stderr, done.stderr
    assert "fix: `goalfile focus --clear` removes it" in done.stderr, done.stderr
    shown = run_goalfile("focus", cwd=repo, timeout=WAIT)
    assert shown.returncode == 0, shown.stderr
    status = run_goalfile("status", cwd=repo, timeout=WAIT)
    assert status.returncode == 0 and "demo" in status.stdout, status.stderr
    cleared = run_goalfile("focus", "--clear", cwd=repo, timeout=WAIT)
    assert cleared.returncode == 0, cleared.stderr
    assert not os.path.lexists(focus)


def test_a_fifo_named_git_in_the_sessions_folder_is_never_waited_on(repo: Path) -> None:
    (repo / ".git" / "info" / "exclude").write_text("scratch/\n", encoding="utf-8")
    scratch = repo / "scratch"
    scratch.mkdir()
    os.mkfifo(scratch / ".git")
    assert git(repo, "status", "--porcelain") == ""  # nothing shows in git
    done = hook(repo, scratch)
    reason = held_by_the_goal(done)
    assert "../goals/demo.md" in reason


def test_a_fifo_as_a_settings_file_is_refused_by_name(repo: Path) -> None:
    (repo / ".claude").mkdir()
    settings = repo / ".claude" / "settings.json"
    os.mkfifo(settings)
    done = run_goalfile("doctor", cwd=repo, timeout=WAIT)
    assert "Traceback" not in done.stderr
    assert "settings.json" in done.stdout + done.stderr
    assert "not a regular file" in done.stdout + done.stderr, (done.stdout, done.stderr)
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, timeout=WAIT)
    assert "Traceback" not in done.stderr
    assert f"{settings}: is a FIFO (named pipe), not a regular file" in done.stderr, done.stderr
    assert "fix: remove it (`rm " in done.stderr
