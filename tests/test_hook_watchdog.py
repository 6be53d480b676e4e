"""The Stop hook's watchdog answers whatever the hook's work is doing: the watchdog is the
process the host started, the work a child of it. Real git repositories, real goalfile
processes fed a recorded host input (as in test_hook_hold.py).

The agent's own lint-clean goal, in a folder git ignores, has a `matches` pattern that
backtracks without end on the output its own check prints (`/^(a+)+$/` on `aaa…a!`). That
search once held Python's interpreter lock until the watchdog ended it; verify now runs such a
search in a forked child it ends at the goal's time limit, so the hook's own answer comes in
time. The watchdog is tested with work that never returns for another reason: a host input
that never ends.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import (
    DATA,
    clean_env,
    copy_of,
    git,
    goal_text,
    gone,
    made_once,
    make_git_repo,
    row,
    run_goalfile,
    wait_for,
    write_goal,
)

WAIT = 60.0  # seconds a test gives a hook whose time limit is a few


def recorded(repo: Path) -> str:
    data = json.loads((DATA / "hooks" / "claude-stop.json").read_text(encoding="utf-8"))
    data.update(cwd=str(repo), stop_hook_active=False)
    data.pop("transcript_path")
    return json.dumps(data)


def make_project(root: Path, env: dict[str, str]) -> None:
    """A committed goal that is not met, and a goal in an ignored folder, committed too, whose
    `matches` never ends."""
    write_goal(
        root / "goals", goal_text(slug="real", rows=(row("C1", "false", "exit 0"),)), "real.md"
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    (root / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    check = f"{shlex.quote(sys.executable)} -c \"print('a' * 48 + '!')\""
    made = run_goalfile(
        "new", "easy", "x", "--dir", "goals/.cache", "--check", check,
        "--expected", "exit 0; stdout matches /^(a+)+$/", "--non-goal", "n", "--activate",
        cwd=root,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert run_goalfile("lint", "goals/.cache/easy.md", cwd=root).returncode == 0
    # committed (the hook runs only checks a person approved: a goal git holds no copy of is
    # not run at all), so that its search is what the hook meets
    git(root, "add", "-f", "--", "goals/.cache/easy.md")
    git(root, "commit", "-qm", "easy")
    assert git(root, "status", "--porcelain") == ""


@pytest.fixture(scope="module")
def made_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, make_project)


@pytest.fixture
def project(tmp_path: Path, made_project: Path) -> Path:
    """A copy of the repository :func:`make_project` makes once for the module."""
    return copy_of(made_project, tmp_path / "project")


def in_folder(folder: Path) -> list[int]:
    """The processes whose working directory is ``folder`` (the hook's, its checks')."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and not gone(int(entry)):
            try:
                if os.readlink(f"/proc/{entry}/cwd") == str(folder):
                    found.append(int(entry))
            except OSError:
                continue
    return found


def children(pid: int, command: bytes) -> list[int]:
    """The live processes whose parent is ``pid`` and that run ``command``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                ran = handle.read()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] not in (b"Z", b"X") and ran == command:
            found.append(int(entry))
    return found


def test_a_search_that_backtracks_is_ended_by_verify_and_the_hook_answers(project: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude", "--timeout", "6"],
        cwd=project, env=clean_env(), input=recorded(project), capture_output=True, text=True,
        timeout=WAIT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)  # one answer, and only one
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "did not answer within its time limit" not in reason, reason
    assert "Traceback" not in done.stderr
    easy = (project / "goals" / ".cache" / "easy.md").read_text(encoding="utf-8")
    assert "| C1  | error   |" in easy and "ran out of time" in easy, easy
    assert "\nstatus: blocked\n" in easy
    # the search's process was ended with the row: nothing of the hook is left running
    wait_for(lambda: not in_folder(project), timeout=WAIT, what="the hook's processes to end")


def start_hook(project: Path, timeout: str) -> tuple[subprocess.Popen[str], list[str]]:
    """The hook, fed the host's input on a stdin that stays open: its work never gets to the
    end of its input."""
    argv = [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude"]
    argv += ["--timeout", timeout]
    hook = subprocess.Popen(
        argv, cwd=project, env=clean_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert hook.stdin is not None
    hook.stdin.write(recorded(project))
    hook.stdin.flush()
    return hook, argv


def test_work_that_never_returns_does_not_silence_the_watchdog(project: Path) -> None:
    hook, _ = start_hook(project, "6")
    try:
        hook.wait(timeout=WAIT)
        assert hook.stdout is not None and hook.stderr is not None
        out, err = hook.stdout.read(), hook.stderr.read()
        assert hook.returncode == 0, err
        answer = json.loads(out)  # one answer, and only one
        assert answer["decision"] == "block", answer
        reason = str(answer["reason"])
        assert "did not answer within its time limit (5.4s of the host's 6s hook timeout" in reason
        assert "it was at _hook_stop (goalfile/cli/hook.py:" in reason, reason
        assert "Traceback" not in err
        # the work was ended with the answer: nothing of the hook is left running
        wait_for(lambda: not in_folder(project), timeout=WAIT, what="the hook's processes to end")
    finally:
        if hook.poll() is None:
            os.killpg(hook.pid, signal.SIGKILL)
            hook.wait(timeout=WAIT)
        assert hook.stdin is not None
        hook.stdin.close()


def test_the_work_ends_at_the_hosts_timeout_when_the_watchdog_is_killed(project: Path) -> None:
    """A host (or anyone) that SIGKILLs the hook's process leaves no work running past the
    host's timeout: the child's interval timer ends it."""
    hook, argv = start_hook(project, "8")
    try:
        # the work: the hook's child running goalfile, waiting for the rest of its input
        command = "".join(f"{arg}\0" for arg in argv).encode()
        wait_for(lambda: bool(children(hook.pid, command)), timeout=WAIT, what="the work")
        (worker,) = children(hook.pid, command)
        hook.kill()
        hook.wait(timeout=WAIT)
        wait_for(lambda: gone(worker), timeout=WAIT, what="the orphaned work to end")
        assert hook.stdout is not None and hook.stdout.read() == ""  # killed: it said nothing
    finally:
        if hook.poll() is None:
            os.killpg(hook.pid, signal.SIGKILL)
            hook.wait(timeout=WAIT)
        assert hook.stdin is not None
        hook.stdin.close()


WATCHED = """\
import sys
from goalfile import hookwatch
from goalfile.hostprotocol import HostAgent
from goalfile.run import CheckSpec, run_check

hookwatch.start(timeout=3, agent=HostAgent.CLAUDE, as_json=False)
hookwatch.working_on(goal="goals/my goal.md")
spec = CheckSpec(command="sleep 30", shell="/bin/sh", cwd=".", env={}, timeout=None)
run_check(spec, on_output=lambda name, data: None)
print("not held")
"""


def test_the_watchdog_inside_another_program_holds_as_the_forked_one_does(tmp_path: Path) -> None:
    """Inside another program (a host's library, a test's runner) the watchdog is a thread of
    its process; its hold is the forked watchdog's: the same reason, naming the goal the work
    was on and its innermost goalfile frame, on stderr and in the host's answer."""
    done = subprocess.run(
        [sys.executable, "-c", WATCHED],
        cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)  # one answer, and only one
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert reason.startswith(
        "goalfile hook stop did not answer within its time limit (2.7s of the host's 3s hook "
        "timeout; it was at "
    ), reason
    assert "(goalfile/run.py:" in reason and "hookwatch" not in reason, reason
    assert " It was verifying goals/my goal.md. " in reason, reason
    assert "`goalfile verify --no-write 'goals/my goal.md'`" in reason, reason
    assert done.stderr == f"goalfile: {reason}\n"


def test_a_hook_the_host_started_late_answers_before_the_watchdog(tmp_path: Path) -> None:
    """The hook's time limit counts from when the host started it, as the watchdog's does: a
    hook that began its work 5 s after the host started it (a loaded machine; here a shell
    that waits, then runs goalfile in its own process) gives its goals 16 s from the host's
    start and answers itself, 2 s before the watchdog's 18 s. Its limit used to count from
    when its work began, so it ran to 21 s and the watchdog answered instead."""
    root = make_git_repo(tmp_path / "project")
    write_goal(
        root / "goals", goal_text(slug="g", rows=(row("C1", "sleep 120", "exit 0"),)), "g.md"
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "a slow goal")
    argv = [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude"]
    done = subprocess.run(
        ["sh", "-c", 'sleep 5 && exec "$0" "$@"', *argv, "--timeout", "20"],
        cwd=root, env=clean_env(), input=recorded(root), capture_output=True, text=True,
        timeout=WAIT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "did not answer within its time limit" not in reason, reason
    assert "goalfile could not verify goals/g.md within the hook's time limit" in reason, reason
    assert "\n  C1 did not finish in the " in reason, reason
    assert "its share of the hook's 16 s" in reason, reason  # 5 s of them went to the start
