"""The Stop hook on a goal whose `cwd:` names a folder that does not exist: every check is an
error and verify blocks the goal; the hook's hold (and, once the agent is continuing because of
a Stop hook, its message) names the `cwd:` line and the fix that verify prints, and the fix,
run as written, makes the next stop verify the goal in the folder meant.

Real goalfile processes on a real git repository."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import clean_env, git, goal_with_cwd, make_git_repo, run_goalfile, stop_input

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test
MESSAGE = (
    "/goals/demo.md:4: cwd `../app` names app (a cwd is read from the goal file's folder), which "
    "does not exist, so no check could run"
)


def stop(repo: Path, *, active: bool) -> dict[str, object]:
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", cwd=repo, input=stop_input(repo, active=active),
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An active goal, committed, whose `cwd: ../app` (line 4) names app/, not there yet."""
    root = make_git_repo(tmp_path / "repo")
    goal_with_cwd(root, "../app")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    return root


@pytest.mark.parametrize("active", [False, True])
def test_the_hook_names_the_missing_cwd_and_the_fix(repo: Path, active: bool) -> None:
    answer = stop(repo, active=active)
    said = str(answer.get("reason"))
    # held at a stop the host marks as continuing too: the block the hook's own verify
    # writes holds the agent once per entry
    assert answer.get("decision") == "block", answer
    # the goal as the hook's verify names it (its absolute path), so the fix works as written
    goal = repo / "goals" / "demo.md"
    assert f"\n{repo}{MESSAGE}\n  fix: `mkdir -p -- app && goalfile resume {goal} " in said, said
    if active:  # that hold made, the next continuing stop is let go, the block said
        again = stop(repo, active=True)
        assert again.get("decision") != "block", again
        assert "blocked" in str(again.get("systemMessage")), again
        return
    [command] = re.findall(r"\n  fix: `([^`]+)`", said)
    sh = shutil.which("sh")
    assert sh is not None, "a POSIX sh is needed to run the printed fix"
    ran = subprocess.run(
        [sh, "-c", command], cwd=repo, env=clean_env({"PATH": f"{BIN}:/usr/bin:/bin"}),
        capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert stop(repo, active=False).get("decision") is None  # met: the stop is allowed
    assert "status: met" in (repo / "goals" / "demo.md").read_text(encoding="utf-8")
