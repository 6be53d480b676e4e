"""goalfile started with a standard stream closed (`>&-`, `2>&-`, `<&-`, as a cron job or a
careless wrapper does): Python then has no `sys.stdout` (or stderr, stdin) at all. Each
command still runs to its usual exit status, without a traceback, and writes what it writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import clean_env, goal_text, row, run_goalfile, write_goal

COMMANDS = [
    ("verify", "--no-write"),
    ("verify",),
    ("status",),
    ("lint",),
    ("log",),
    ("audit",),
]


@pytest.mark.parametrize("closed", [">&-", "2>&-", "<&-"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_a_closed_stream_is_no_traceback(repo: Path, command: tuple[str, ...], closed: str) -> None:
    goal = write_goal(
        repo / "goals", goal_text(status="draft", rows=(row("C1", "true", "exit 0"),))
    )
    assert run_goalfile("activate", goal, cwd=repo).returncode == 0
    program = [sys.executable, "-m", "goalfile", *command, str(goal.relative_to(repo))]
    line = " ".join(f"'{word}'" for word in program)
    # stderr is kept on a file of its own when stdout is the one closed, and the other way round
    errors = repo / "errors.txt"
    shell = f"exec {line} {closed}" + ("" if closed == "2>&-" else f" 2>'{errors}'")
    done = subprocess.run(
        ["sh", "-c", shell], cwd=repo, env=clean_env(), capture_output=True, text=True, timeout=60
    )
    said = done.stderr + (errors.read_text(encoding="utf-8") if errors.exists() else "")
    assert "Traceback" not in said, said
    assert done.returncode == 0, (done.returncode, said)
    if command == ("verify",):
        assert "status: met" in goal.read_text(encoding="utf-8")
