"""Many goalfile processes at once on one goal: 64 verifies, and a mix of every command.

Every process is a real ``goalfile``, all started together on the same goal file. Whatever
order the lock gives them, each one must end with an exit code its command documents and no
traceback, and the ledger must hold exactly one entry for each command that said it wrote one:
no entry lost, none doubled, the file still a valid goal. The mixed run has ``verify``,
``budget`` (raising the limit to a different value each), ``pause`` and ``resume``, ``status``,
``lint`` and ``audit``, 32 alive at a time; ``GOALFILE_MIXED_COMMANDS`` sets how many (64 by
default; 560 for the long run).
"""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

from reliability_support import (
    activate,
    goal_text,
    make_repo,
    no_traceback,
    run_goalfile,
    start_goalfile,
)

VERIFIES = 64
MIXED = int(os.environ.get("GOALFILE_MIXED_COMMANDS", "64"))
WIDTH = 32  # processes of the mixed run alive at once
ROWS = (("C1", "false", "exit 0"),)  # unmet: the goal stays active however many runs
EXTRA = ["stall_limit: 100000"]


def prepared(tmp_path: Path) -> tuple[Path, Path]:
    repo = make_repo(tmp_path / "repo")
    path = repo / "goals" / "demo.md"
    text = goal_text(rows=ROWS, extra=EXTRA).replace("iterations: 50 ", "iterations: 100000 ")
    path.write_text(text, encoding="utf-8")
    activate(path, repo)
    return repo, path


def run_all(repo: Path, commands: list[list[str]], width: int) -> list[tuple[list[str], int, str]]:
    """Run every command, ``width`` processes alive at a time (each started as soon as one
    ends: the machine's memory bounds how many Python processes may live at once)."""
    alive: list[tuple[list[str], subprocess.Popen[str]]] = []
    results = []

    def finish_oldest() -> None:
        args, proc = alive.pop(0)
        out, err = proc.communicate(timeout=600)
        results.append((args, proc.returncode, out + err))

    for args in commands:
        if len(alive) >= width:
            finish_oldest()
        alive.append((args, start_goalfile(*args, cwd=repo)))
    while alive:
        finish_oldest()
    return results


def entries(path: Path, by: str) -> int:
    return path.read_text(encoding="utf-8").count(f") by {by}\n")


def test_64_verifies_at_once(tmp_path: Path) -> None:
    repo, path = prepared(tmp_path)
    results = run_all(repo, [["verify", str(path)] for _ in range(VERIFIES)], VERIFIES)
    for args, code, output in results:
        assert "Traceback" not in output, output
        assert code == 1, f"{args}: exit {code}\n{output}"
    assert entries(path, "verify-goal") == VERIFIES
    linted = run_goalfile("lint", path, cwd=repo)
    assert linted.returncode == 0, linted.stderr


def test_a_mix_of_every_command_at_once(tmp_path: Path) -> None:
    repo, path = prepared(tmp_path)
    chooser = random.Random(MIXED)  # the same mix every run
    name = str(path)
    commands: list[list[str]] = []
    for n in range(MIXED):
        kind = chooser.choice(["verify", "verify", "budget", "pause", "resume", "read"])
        if kind == "budget":
            commands.append(["budget", name, "--iterations", str(100_001 + n)])
        elif kind == "read":
            commands.append([chooser.choice(["status", "lint", "audit"]), name])
        else:
            commands.append([kind, name])
    results = run_all(repo, commands, WIDTH)
    wrote = {"verify": 0, "budget": 0, "pause": 0, "resume": 0}
    documented = {
        "verify": {1, 3},  # 3: paused at that moment
        "budget": {0, 3},  # 3: another run raised it higher already
        "pause": {0, 3},  # 3: paused already
        "resume": {0, 3},  # 3: not paused
        "status": {0},
        "lint": {0},
        "audit": {0, 1},
    }
    for args, code, output in results:
        assert "Traceback" not in output, output
        assert code in documented[args[0]], f"{args}: exit {code}\n{output}"
        if args[0] in wrote and code in (0, 1):
            wrote[args[0]] += 1
    assert entries(path, "verify-goal") == wrote["verify"]
    assert entries(path, "budget") == wrote["budget"]
    assert entries(path, "pause") == wrote["pause"]
    assert entries(path, "resume") == wrote["resume"]
    linted = run_goalfile("lint", path, cwd=repo)
    no_traceback(linted)
    assert linted.returncode == 0, linted.stderr
