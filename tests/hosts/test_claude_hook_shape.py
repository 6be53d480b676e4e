"""`goalfile doctor` and the shape of the Stop hook, with the real Claude Code: a hook shape
doctor calls ok is one Claude Code really runs, its answer reaching the model; a set-up that
never holds the agent (`"disableAllHooks": true` in the git-ignored
`.claude/settings.local.json`, a command that sends the hook's answer to /dev/null) is one
doctor reports, and Claude Code then runs no hook (the agent stops at once, nothing is
verified); the fix doctor prints, run as written, gets the agent held again
(tests/test_doctor_hook_shape.py holds the rest of the grammar).
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import git, run_goalfile
from fake_model import fix_after_feedback
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Isolation,
    approve_by_commit,
    goal_repo,
    goal_state,
    goalfile_ok,
    host_session,
    register_hook,
    verify_entries,
)
from hosts_fixtures import isolation as isolation

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test


def _doctor(repo: Path) -> dict[str, Any]:
    home = repo.parent / "home"  # the HOME host_session gives Claude Code
    done = run_goalfile("doctor", "--json", cwd=repo, env={"HOME": str(home)})
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _claude_hook(report: dict[str, Any], health: str) -> list[dict[str, Any]]:
    return [
        f
        for f in report["findings"]
        if f["host"] == "claude" and f["check"] == "hook" and f["health"] == health
    ]


def _held(repo: Path, isolation: Isolation) -> list[str]:
    """One Claude Code session whose model fixes the goal only when a Stop hook says so: the
    Stop hook's reasons it got."""
    server, _ = host_session("claude", repo, fix_after_feedback(FIX), isolation, prompt=PROMPT)
    return server.feedbacks()


@pytest.mark.parametrize(
    "command",
    [
        "{bin}/goalfile hook stop --agent claude --goal={goal} --stall-limit 5",
        "'{bin}/goalfile' hook stop --timeout 600 --goal {goal}",
    ],
)
def test_a_hook_doctor_calls_ok_holds_the_agent(
    command: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    register_hook(repo, "claude", timeout=600, command=command.format(bin=BIN, goal=GOAL))
    approve_by_commit(repo)  # doctor counts a --goal only when HEAD holds the goal file
    report = _doctor(repo)
    assert _claude_hook(report, "problem") == [], report
    assert _claude_hook(report, "ok"), report
    reasons = _held(repo, isolation)
    assert len(reasons) == 1 and "C1 unmet" in reasons[0], reasons
    assert [e.status for e in verify_entries(repo)] == ["active", "met"]
    assert goal_state(repo)["status"] == "met"


def _disable_all_hooks(repo: Path) -> str:
    (repo / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}\n')
    return '.claude/settings.local.json: "disableAllHooks": true'


def _to_dev_null(repo: Path) -> str:
    command = "goalfile hook stop --agent claude > /dev/null"
    register_hook(repo, "claude", timeout=600, command=command)
    return f".claude/settings.json: hooks.Stop[0].hooks[0]: `{command}` never holds"


@pytest.mark.parametrize("breaks", [_disable_all_hooks, _to_dev_null])
def test_a_set_up_that_never_holds_is_reported_and_the_fix_holds_again(
    breaks: Callable[[Path], str], isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    said = breaks(repo)
    report = _doctor(repo)
    problems = _claude_hook(report, "problem")
    [problem] = [f for f in problems if f["detail"].startswith(said)]
    assert report["exit_code"] == 1
    # Claude Code, so set up, lets the agent stop at once: nothing is verified
    assert _held(repo, isolation) == []
    assert goal_state(repo)["status"] == "active"
    # the fix, run as written
    words = shlex.split(problem["fix"])
    assert words[:2] == ["goalfile", "doctor"], problem
    fixed = run_goalfile(*words[1:], cwd=repo, env={"HOME": str(repo.parent / "home")})
    assert "fixed: .claude/" in fixed.stdout, fixed.stdout + fixed.stderr
    assert _claude_hook(_doctor(repo), "problem") == []
    reasons = _held(repo, isolation)
    assert len(reasons) == 1 and "C1 unmet" in reasons[0], reasons
    assert goal_state(repo)["status"] == "met"


def test_a_hook_narrowed_to_a_goal_git_does_not_track_is_reported_and_the_fix_holds(
    isolation: Isolation, tmp_path: Path
) -> None:
    """The agent's own goal, in a folder git ignores, named by the hook's `--goal`: the hook
    would look at that goal alone. doctor reports it; its fix registers the hook without it,
    and the real Claude Code holds the agent to the person's goal again."""
    repo = goal_repo(tmp_path)
    with (repo / ".git" / "info" / "exclude").open("a") as exclude:
        exclude.write("goals/wip/\n")
    easy = ("new", "easy", "--end-state", "easy", "--criterion", "easy", "--check", "true")
    goalfile_ok(*easy, "--expected", "exit 0", "--dir", "goals/wip", "--activate", cwd=repo)
    git(repo, "rm", "-q", "--cached", "--ignore-unmatch", "goals/wip/easy.md")
    narrowed = "goalfile hook stop --agent claude --goal goals/wip/easy.md"
    register_hook(repo, "claude", timeout=600, command=narrowed)
    [problem] = [f for f in _claude_hook(_doctor(repo), "problem") if narrowed in f["detail"]]
    assert "`--goal goals/wip/easy.md` names no goal file a person committed" in problem["detail"]
    fixed = run_goalfile(*shlex.split(problem["fix"])[1:], cwd=repo,
                         env={"HOME": str(repo.parent / "home")})  # fmt: skip
    assert "fixed: .claude/settings.json" in fixed.stdout, fixed.stdout + fixed.stderr
    assert _claude_hook(_doctor(repo), "problem") == []
    reasons = _held(repo, isolation)
    assert len(reasons) == 1 and "C1 unmet" in reasons[0], reasons
    assert goal_state(repo)["status"] == "met"
