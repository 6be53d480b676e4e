"""Helpers of the reliability suite: goal files, goalfile as a real process, /proc scans.

The suite imports nothing from ``tests/conftest.py`` so that ``mypy tests/reliability`` can check
it on its own; the few helpers it needs are here.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

HEADER = "| id | criterion | check | expected | kind |"
RULE = "|----|-----------|-------|----------|------|"

VERIFY_HEADING = re.compile(r"^### Iteration (\d+) \(([^)]*)\) by verify-goal\r?$", re.M)


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment without GOALFILE_* variables, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOALFILE_")}
    env.setdefault("PATH", "/usr/bin:/bin")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as tests/conftest.py: compile goalfile once
    env.update(extra or {})
    return env


def goalfile_argv(*args: str | os.PathLike[str]) -> list[str]:
    return [PYTHON, "-m", "goalfile", *map(str, args)]


def run_goalfile(
    *args: str | os.PathLike[str],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
    **popen: Any,
) -> subprocess.CompletedProcess[str]:
    """``python -m goalfile ARGS`` as a real process, output captured as text."""
    return subprocess.run(
        goalfile_argv(*args),
        cwd=cwd,
        env=clean_env(env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        check=False,
        **popen,
    )


def start_goalfile(
    *args: str | os.PathLike[str], cwd: Path, env: Mapping[str, str] | None = None
) -> subprocess.Popen[str]:
    """``python -m goalfile ARGS`` in the background, in a process group of its own."""
    return subprocess.Popen(
        goalfile_argv(*args),
        cwd=cwd,
        env=clean_env(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        start_new_session=True,
    )


def wait_for(predicate: Callable[[], bool], *, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")
        time.sleep(0.02)


def make_repo(path: Path) -> Path:
    """A real git repository with a ``goals/`` folder."""
    path.mkdir(parents=True, exist_ok=True)
    for args in (
        ["init", "-q"],
        ["config", "user.email", "tests@example.invalid"],
        ["config", "user.name", "goalfile reliability tests"],
    ):
        subprocess.run(["git", *args], cwd=path, check=True, capture_output=True, env=clean_env())
    (path / "goals").mkdir()
    return path


def code(command: str) -> str:
    """A command as one Markdown code span in a table cell (``|`` written ``\\|``)."""
    text = command.replace("|", "\\|")
    fence = "`"
    while fence in text:
        fence += "`"
    if text.startswith("`") or text.endswith("`"):
        text = f" {text} "
    return f"{fence}{text}{fence}"


Row = tuple[str, str, str]  # id, command, expected


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


def write_goal(folder: Path, text: str, name: str = "demo.md") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


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


def gone(pid: int) -> bool:
    """The process has ended (a zombie waiting for its reaper counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in (b"Z", b"X")


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
