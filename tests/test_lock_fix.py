"""The fix of a command other than verify that another process kept out of its goal for all of
its wait: that very command line, which works as written once the other has finished.

Such a command waits up to ten minutes (`goalfile.commands.mutate.LOCK_WAIT`) for the lock;
each test runs the real command in a process of its own whose wait is cut to a fraction of a
second, then lets the other process go and runs the printed fix as written, by a shell.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import (
    clean_env,
    fix_of,
    goal_lock_held,
    goal_text,
    row,
    run_goalfile,
    shell,
    write_goal,
)

from goalfile.parse import parse_goal
from goalfile.shellword import shell_word

SHORT_WAIT = """
import sys
import goalfile.commands.mutate as mutate
mutate.LOCK_WAIT = 0.2  # seconds, for the test: the command waits ten minutes
from goalfile.__main__ import run
run()
"""


def run_waiting_briefly(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`goalfile ARGS` as a real process that gives up on a held lock after 0.2 s."""
    return subprocess.run(
        [sys.executable, "-c", SHORT_WAIT, *args],
        cwd=cwd, env=clean_env(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip


PREPARE = {
    "active": (),
    "paused": (("pause", "goals/demo.md", "--reason", "later"),),
    "blocked": (("block", "goals/demo.md", "--reason", "down", "--tried", "a retry"),),
    "draft": (),
}
CASES = {
    "pause": (("pause", "goals/demo.md", "--reason", "later"), "active", "paused"),
    "block": (
        ("block", "goals/demo.md", "--reason", "down", "--tried", "a retry"),
        "active",
        "blocked",
    ),
    "resume": (("resume", "goals/demo.md"), "paused", "active"),
    "reopen": (("reopen", "goals/demo.md", "--reason", "once more"), "blocked", "active"),
    "activate": (("activate", "goals/demo.md"), "draft", "active"),
    "budget": (("budget", "goals/demo.md", "--iterations", "9"), "active", "active"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_command_kept_out_by_the_lock_prints_itself_as_its_fix(name: str, repo: Path) -> None:
    args, before, after = CASES[name]
    status = "draft" if before == "draft" else "active"
    path = write_goal(
        repo / "goals", goal_text(status=status, iterations_used=0 if status == "draft" else 1)
    )
    for step in PREPARE[before]:
        prepared = run_goalfile(*step, cwd=repo)
        assert prepared.returncode == 0, prepared.stdout + prepared.stderr
    written = path.read_bytes()
    with goal_lock_held(path):
        done = run_waiting_briefly(*args, cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        assert "locked by" in done.stderr, done.stderr
        assert path.read_bytes() == written  # nothing was written
        fix = fix_of(done.stderr)
        assert fix == "goalfile " + " ".join(shell_word(word) for word in args), done.stderr
        assert f"`{fix}` once the other process has finished" in done.stderr
    ran = shell(fix, repo)  # the other process has finished: the fix works as written
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert parse_goal(path.read_text(), path=str(path)).status.value == after
    assert path.read_bytes() != written


def test_the_json_error_of_a_locked_command_carries_the_same_fix(repo: Path) -> None:
    path = write_goal(repo / "goals", goal_text(rows=(row("C1", "true", "exit 0"),)))
    with goal_lock_held(path):
        done = run_waiting_briefly(
            "pause", "goals/demo.md", "--reason", "later", "--json", cwd=repo
        )
    assert done.returncode == 3, done.stdout + done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["hint"] == (
        "`goalfile pause goals/demo.md --reason later --json` once the other process has finished"
    )
    ran = shell(error["hint"].split("`")[1], repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
