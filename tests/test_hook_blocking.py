"""`goalfile hook stop` answers whatever blocks it, and an answer it does not reach holds the
agent: a FIFO where goalfile reads a file (the focus record, a `.git` entry, a settings file) is
refused and never waited on; the hook answers "block" at its own time limit and on SIGTERM.

Every test runs the real hook on a real git repository, with a bounded wait of its own: a hook
that hangs fails the test by that timeout (the child is killed), never the suite.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import (
    clean_env,
    git,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    stop_input,
    write_goal,
)

WAIT = 60.0  # seconds the test gives a hook that should answer in one or two


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
        cwd=cwd, input=stop_input(cwd, active=active), timeout=WAIT,
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


def special(folder: Path, name: str, kind: str) -> Path:
    """A FIFO, or a UNIX socket bound there (relative to the folder: a socket's path is short)."""
    if kind == "fifo":
        os.mkfifo(folder / name)
    else:
        bind = f"import socket; socket.socket(socket.AF_UNIX).bind({name!r})"
        subprocess.run([sys.executable, "-c", bind], cwd=folder, check=True, timeout=WAIT)
    return folder / name


@pytest.mark.parametrize(("kind", "said"), [("fifo", "FIFO (named pipe)"), ("socket", "socket")])
def test_a_fifo_as_the_focus_file_is_no_focus_and_never_waited_on(
    repo: Path, kind: str, said: str
) -> None:
    focus = special(repo / ".git", "goalfile-focus.json", kind)
    done = hook(repo, repo)
    held_by_the_goal(done)
    assert "by stop-hook" in (repo / "goals" / "demo.md").read_text(encoding="utf-8")
    # the note names the file, says what it is, and gives the fix; the fix works as written
    assert f"{focus}: is a {said}, not a regular file" in done.stderr, done.stderr
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


def start_hook(repo: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    """The hook with a stdin the host never closes (the test holds its write end): the hook
    waits for its input until its watchdog or a signal answers."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude", *extra],
        cwd=repo,
        env=clean_env(None),
        stdin=read_end,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(read_end)
    return proc, write_end


def finish(proc: subprocess.Popen[str], write_end: int) -> tuple[str, str]:
    try:
        out, errs = proc.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"the hook did not answer within {WAIT:g}s")
    finally:
        os.close(write_end)
    assert proc.returncode == 0, errs
    return out, errs


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that are still there (Linux's /proc, on every thread)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:  # the thread or the process is gone
            continue
    return found


def held(out: str, why: str) -> str:
    answer = json.loads(out)
    assert answer["decision"] == "block", out
    reason = answer["reason"]
    assert isinstance(reason, str) and reason.startswith(f"goalfile hook stop {why}"), reason
    assert "so the stop is held" in reason
    return reason


def test_a_hook_that_does_not_reach_its_answer_holds_the_agent_at_its_time_limit(
    repo: Path,
) -> None:
    began = time.monotonic()
    proc, write_end = start_hook(repo, "--timeout", "5")
    out, errs = finish(proc, write_end)
    took = time.monotonic() - began
    reason = held(out, "did not answer within its time limit (4.5s of the host's 5s")
    assert "it was at " in reason and "goalfile/cli/hook.py" in reason
    assert reason in errs
    assert took < 5 + 2 * WAIT / 3  # answered by itself, not by the test's timeout


def test_sigterm_answers_block_with_the_hosts_protocol(repo: Path) -> None:
    proc, write_end = start_hook(repo, "--json")
    # the watchdog forks the hook's work once its handlers are in place (a watchdog thread
    # starts then, where the hook cannot fork): then SIGTERM is the hook's (a hook that does
    # neither is sent it all the same, after a while, and must answer too)
    give_up = time.monotonic() + WAIT / 2
    while not children(proc.pid) and len(list(Path(f"/proc/{proc.pid}/task").iterdir())) < 2:
        assert proc.poll() is None, "the hook ended before it was sent SIGTERM"
        if time.monotonic() > give_up:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, errs = finish(proc, write_end)
    assert "was ended by SIGTERM" in errs
    document = json.loads(out)
    assert document["decision"] == "block"
    host_output = document["host_output"]
    assert isinstance(host_output, dict)
    held(json.dumps(host_output), "was ended by SIGTERM before it answered")


def test_an_answered_hook_leaves_no_watchdog_behind(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run in this process (as a host's library could): once the hook has answered, its
    watchdog thread has ended and the signal handlers and wakeup fd are as they were, so the
    watchdog can never end the process that ran it later."""
    from click.testing import CliRunner

    from goalfile.cli import main

    monkeypatch.chdir(repo)
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    result = CliRunner().invoke(main, ["hook", "stop", "--agent", "codex"], input="{}")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["decision"] == "block"
    assert not [t for t in threading.enumerate() if t.name == "goalfile-hook-watchdog"]
    assert {signum: signal.getsignal(signum) for signum in before} == before
    assert signal.set_wakeup_fd(-1) == -1
