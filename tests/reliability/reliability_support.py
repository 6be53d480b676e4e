"""Helpers of the reliability suite: its goal files, /proc scans, and tests/conftest.py's
helpers for running goalfile as a real process."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path

from click.testing import CliRunner, Result
from conftest import (
    HEADER,
    RULE,
    clean_env,
    code,
    gone,
    make_git_repo,
    run_goalfile,
    start_goalfile,
    wait_for,
    write_goal,
)

PROJECT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

__all__ = [  # its own helpers, and those of tests/conftest.py the suite takes from here
    "PROJECT",
    "PYTHON",
    "Row",
    "activate",
    "clean_env",
    "code",
    "goal_text",
    "gone",
    "kill_leftovers",
    "make_repo",
    "no_traceback",
    "pids_with_argument",
    "run_goalfile",
    "start_goalfile",
    "stray_files",
    "unique_sleep",
    "verify_headings",
    "wait_for",
    "write_goal",
]

VERIFY_HEADING = re.compile(r"^### Iteration (\d+) \(([^)]*)\) by verify-goal\r?$", re.M)


def make_repo(path: Path) -> Path:
    """A real git repository with a ``goals/`` folder."""
    make_git_repo(path)
    (path / "goals").mkdir()
    return path


Row = tuple[str, str, str]  # id, command, expected (every row deterministic)


def goal_text(
    *,
    slug: str = "demo",
    status: str = "draft",
    rows: Sequence[Row] = (("C1", "true", "exit 0"),),
    extra: Iterable[str] = (),
    ledger: Sequence[str] = (),
    lessons: Sequence[str] = (),
) -> str:
    """A goal file in the documented format (every row deterministic)."""
    lines = [
        "---",
        f"slug: {slug}",
        f"status: {status}            # draft | active | paused | met | blocked | exhausted",
        "created: 2026-11-30",
        "budget:",
        "  iterations: 50           # null = unbounded",
        "  tokens: null         # null = unbounded",
        "iterations_used: 1",
        "tokens_used: 0",
        *extra,
        "---",
        "# Goal: the checks pass",
        "",
        "## Non-goals",
        "- Nothing outside this folder changes.",
        "",
        "## Acceptance criteria",
        HEADER,
        RULE,
        *(
            f"| {cid} | criterion of {cid} | {code(check)} | {expected} | deterministic |"
            for cid, check, expected in rows
        ),
        "",
        "## Plan",
        "",
        "## Iterations",
        *ledger,
        "",
        "## Lessons",
        *lessons,
    ]
    return "\n".join(lines) + "\n"


def activate(path: Path, cwd: Path) -> None:
    """``goalfile activate PATH`` (pins the contract); it must succeed."""
    done = run_goalfile("activate", path, cwd=cwd)
    assert done.returncode == 0, f"activate failed: {done.returncode}\n{done.stderr}"


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert "Traceback" not in done.stdout, done.stdout


def verify_headings(text: str) -> list[int]:
    """The iteration numbers of the ``verify-goal`` entries, in ledger order."""
    return [int(m.group(1)) for m in VERIFY_HEADING.finditer(text)]


def stray_files(folder: Path, before: Iterable[str]) -> list[str]:
    """Names in ``folder`` that were not there before (e.g. ``.NAME.xxxx.tmp`` left behind)."""
    return sorted(set(os.listdir(folder)) - set(before))


# --------------------------------------------------------------------------- processes


def pids_with_argument(argument: str) -> list[int]:
    """Live processes whose command line holds ``argument`` as one whole word."""
    wanted = argument.encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                words = handle.read().split(b"\0")
        except OSError:
            continue
        if wanted in words and not gone(int(entry)):
            found.append(int(entry))
    return found


def unique_sleep() -> str:
    """A ``sleep`` argument no other process on the machine uses: ``600.<nanoseconds>``."""
    return f"600.{time.time_ns() % 10**9:09d}{os.getpid() % 1000:03d}"


def kill_leftovers(pids: Iterable[int]) -> None:
    """Clean up after a failed test: SIGKILL exactly these pids (processes the test started)."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, 9)


RUNNER = CliRunner()


def invoke(*args: str) -> Result:
    """goalfile in this process (click's runner), with no GOALFILE_* variable of the caller."""
    from goalfile.cli import main

    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith("GOALFILE_")}
    return RUNNER.invoke(main, list(args), env=env, catch_exceptions=True)


def crashed(result: Result) -> str | None:
    """The traceback when the command raised anything but SystemExit, or printed one."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        return "".join(traceback.format_exception(*result.exc_info))
    if "Traceback" in result.output:
        return result.output
    return None
