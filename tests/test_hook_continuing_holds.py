"""A hold the Stop hook's own run finds at a stop marked continuing holds the agent too.

Hosts mark every stop after a block as continuing (``stop_hook_active``), and three holds
were made only at a stop not so marked: sent back once for its unmet goal, the agent deleted
the tool the check runs (the hook's verify wrote `blocked`, an `error` row), made the check
outlast the hook's time (the same, the row cut short), or committed and focused a goal of its
own whose check sleeps until the hook's time is nearly up (the person's goal not verified), and
stopped: each was let go at that stop with a message, the goal unmet. Each is now held once: a
block through the hold ledgered in verify's own write (once per entry), a goal not verified
through the session's record (once per finding: the goal file as written); the stop after it
is let go with the message, so no host is held for ever.

Real `goalfile` processes, a real git repository, the recorded input of each host.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import git, hook_answer, make_git_repo, run_goalfile

GOAL = "goals/demo.md"
TOOL = "#!/bin/sh\n[ -f slow ] && sleep 30\ntest -f ok\n"


def _repo(tmp_path: Path) -> Path:
    """A person's goal, approved and committed, whose check (a script of the project's)
    fails until the work is done."""
    repo = make_git_repo(tmp_path / "repo")
    tool = repo / "tool.sh"
    tool.write_text(TOOL, encoding="utf-8")
    tool.chmod(0o755)
    made = run_goalfile(
        "new", "demo", "--end-state", "ok exists", "--check", "./tool.sh",
        "--expected", "exit 0", "--non-goal", "Nothing else changes.", "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the goal")
    return repo


def _holds(repo: Path) -> int:
    return (repo / GOAL).read_text(encoding="utf-8").count("by stop-hook-hold")


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_an_error_made_after_the_agent_was_sent_back_holds_it_once_per_entry(
    tmp_path: Path, agent: str
) -> None:
    repo = _repo(tmp_path)
    first = hook_answer(repo, agent=agent, active=False)
    assert first.get("decision") == "block" and "C1 unmet" in str(first["reason"]), first
    (repo / "tool.sh").unlink()  # the check now exits 127: an `error` row
    held = hook_answer(repo, agent=agent, active=True)
    assert held.get("decision") == "block", held  # was: let go with a message
    assert "C1 error (exit 127)" in str(held["reason"]), held
    assert "goalfile resume goals/demo.md --resolved TEXT" in str(held["reason"]), held
    assert _holds(repo) == 1  # ledgered in verify's own write
    told = hook_answer(repo, agent=agent, active=True)  # the same entry: never held for ever
    assert told.get("decision") != "block", told
    assert "is blocked by a verify run" in str(told.get("systemMessage")), told
    assert _holds(repo) == 1
    # the tool put back and the goal resumed, as the hold says: the next error is another entry
    (repo / "tool.sh").write_text(TOOL, encoding="utf-8")
    (repo / "tool.sh").chmod(0o755)
    done = run_goalfile("resume", GOAL, "--resolved", "the tool is back", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    (repo / "tool.sh").unlink()
    again = hook_answer(repo, agent=agent, active=True)
    assert again.get("decision") == "block", again
    assert "C1 error (exit 127)" in str(again["reason"]), again
    assert _holds(repo) == 2


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_check_cut_short_after_the_agent_was_sent_back_holds_it_once_per_entry(
    tmp_path: Path, agent: str
) -> None:
    """`--timeout 6` gives verify 4 s: the check, made to sleep 30 s, is cut short, and verify
    writes `blocked`."""
    repo = _repo(tmp_path)
    assert hook_answer(repo, agent=agent, active=False).get("decision") == "block"
    (repo / "slow").write_text("", encoding="utf-8")
    held = hook_answer(repo, agent=agent, active=True, timeout="6")
    assert held.get("decision") == "block", held  # was: let go with a message
    said = "goalfile could not verify goals/demo.md within the hook's time limit"
    assert said in str(held["reason"]), held
    assert _holds(repo) == 1
    told = hook_answer(repo, agent=agent, active=True, timeout="6")  # blocked, held: let go, said
    assert told.get("decision") != "block", told
    assert "is blocked by a verify run" in str(told.get("systemMessage")), told


def eat(budget: float) -> str:
    """The agent's own check: it sleeps until 0.7 s before the hook's time is up, read from
    /proc (the start of the `goalfile hook stop` process the host started, and ``budget``, the
    hook's time for its --timeout: 8 s for 10), so that it passes and leaves the person's goal
    no time."""
    return rf"""import os, re, time
pid, began = os.getppid(), None
while pid > 1:
    with open(f"/proc/{{pid}}/cmdline", "rb") as f:
        cmd = f.read()
    with open(f"/proc/{{pid}}/stat", "rb") as f:
        stat = f.read().rsplit(b")", 1)[1].split()
    if re.search(rb"goalfile\0hook\0stop\0", cmd):
        began = int(stat[19]) / os.sysconf("SC_CLK_TCK")
    pid = int(stat[1])
time.sleep(max(began + {budget:g} - 0.7 - time.clock_gettime(time.CLOCK_BOOTTIME), 0))
"""


def test_a_goal_the_hook_had_no_time_for_after_the_agent_was_sent_back_holds_it_once(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    assert hook_answer(repo, agent="claude", active=False, timeout="10").get("decision") == "block"
    (repo / "eat.py").write_text(eat(8), encoding="utf-8")
    made = run_goalfile(
        "new", "easy", "--end-state", "x", "--check", f"{sys.executable} eat.py",
        "--expected", "exit 0", "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    git(repo, "commit", "-q", "-m", "mine", "goals/easy.md")
    focused = run_goalfile("focus", "goals/easy.md", cwd=repo)
    assert focused.returncode == 0, focused.stdout + focused.stderr
    held = hook_answer(repo, agent="claude", active=True, timeout="10")
    assert held.get("decision") == "block", held  # was: let go with a message
    said = "goalfile could not verify goals/demo.md: the hook's time limit (8 s) was used up"
    assert said in str(held["reason"]), held
    # its goal made active again (met at that stop, it no longer held the focus), the time
    # eaten again: the person's goal file unchanged, the same finding, let go with the message
    done = run_goalfile("reopen", "goals/easy.md", "--reason", "again", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    told = hook_answer(repo, agent="claude", active=True, timeout="10")
    assert told.get("decision") != "block", told
    assert said in str(told.get("systemMessage")), told
