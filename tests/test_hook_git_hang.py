"""A git that does not answer under the Stop hook: its git commands get a limit from the hook's
own time budget (a tenth of it, 2 s at least, never past it), so a FIFO at `.git/index` or
`.git/HEAD` ends in a hold that names git, well before the host's timeout, and the git
processes are killed.

Each test runs the real hook (`python -m goalfile hook stop`) on a real repository whose
`.git/index` or `.git/HEAD` is a FIFO nobody writes to: git waits to open it for ever.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import (
    clean_env,
    git,
    goal_text,
    gone,
    make_git_repo,
    row,
    run_goalfile,
    wait_for,
    write_goal,
)

HOST_TIMEOUT = 20  # the hook's --timeout: its budget is 16 s, a git command gets 2 s
WAIT = 90.0  # seconds the test waits for the hook at most


def gits_under(root: Path) -> list[int]:
    """The pids of the git processes running in ``root`` or below it."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            comm = Path(f"/proc/{entry}/comm").read_text(encoding="utf-8").strip()
            cwd = Path(os.readlink(f"/proc/{entry}/cwd"))
        except OSError:
            continue
        if comm == "git" and cwd.is_relative_to(root) and not gone(int(entry)):
            found.append(int(entry))
    return found


def hanging_repo(tmp_path: Path, name: str) -> Path:
    """A repository with one active goal, committed, whose ``.git/NAME`` is then a FIFO."""
    root = make_git_repo(tmp_path / "app")
    write_goal(root / "goals", goal_text(rows=(row("C1", "true", "exit 0"),)))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    target = root / ".git" / name
    target.unlink()
    os.mkfifo(target)
    return root


@pytest.mark.parametrize("name", ["index", "HEAD"])
def test_a_git_that_hangs_is_killed_and_named_in_a_hold_before_the_hosts_timeout(
    tmp_path: Path, name: str
) -> None:
    root = hanging_repo(tmp_path, name)
    stop = {"session_id": "s", "cwd": str(root), "hook_event_name": "Stop"}
    started = time.monotonic()
    try:
        done = run_goalfile(
            "hook", "stop", "--agent", "claude", "--timeout", str(HOST_TIMEOUT),
            cwd=root, input=json.dumps(stop), timeout=WAIT,
        )  # fmt: skip
        took = time.monotonic() - started
        left = gits_under(root)
    finally:
        for pid in gits_under(root):  # what the old code left behind, waiting on the FIFO
            os.kill(pid, signal.SIGKILL)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", done.stdout
    reason = answer["reason"]
    # the hold is goalfile's own, naming git, not the watchdog's answer at 18 s
    assert "goalfile hook stop did not answer" not in reason, reason
    assert "goalfile cannot tell which goal files git tracks in the repository at ." in reason
    assert "`git ls-files` did not answer within 2s and was killed" in reason, reason
    assert "git waits on something in the repository" in reason, reason
    assert took < HOST_TIMEOUT, took
    assert left == [], f"git processes left behind: {left}"


def test_once_a_git_command_did_not_answer_each_after_it_gets_two_seconds(tmp_path: Path) -> None:
    """A FIFO at `.git/HEAD` makes every git command wait. With `--timeout 200` (a budget of
    170 s), finding the repository (`git rev-parse`) is killed after 17 s; the listing after it
    gets 2 s, not 17 s more, so the hold comes after about 21 s, not 51 s."""
    root = hanging_repo(tmp_path, "HEAD")
    stop = {"session_id": "s", "cwd": str(root), "hook_event_name": "Stop"}
    started = time.monotonic()
    try:
        done = run_goalfile(
            "hook", "stop", "--agent", "claude", "--timeout", "200",
            cwd=root, input=json.dumps(stop), timeout=WAIT,
        )  # fmt: skip
        took = time.monotonic() - started
    finally:
        for pid in gits_under(root):
            os.kill(pid, signal.SIGKILL)
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", done.stdout
    assert "`git ls-files` did not answer within 2s and was killed" in answer["reason"], answer
    assert took < 40, took


def test_a_host_that_signals_the_hooks_process_group_ends_the_waiting_git_too(
    tmp_path: Path,
) -> None:
    """Claude Code ends a hook at its timeout with SIGTERM to the hook's process group. git,
    which the hook starts in its own group, gets it too: the hook answers block at once and
    no git is left waiting on the FIFO (here the hook's own git limit, 57 s of the default
    600 s budget, is far off)."""
    root = hanging_repo(tmp_path, "index")
    stop = tmp_path / "stop.json"
    stop.write_text(
        json.dumps({"session_id": "s", "cwd": str(root), "hook_event_name": "Stop"}),
        encoding="utf-8",
    )
    with stop.open("rb") as given:
        hook = subprocess.Popen(
            [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude"],
            cwd=root,
            env=clean_env(None),
            stdin=given,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # a group of its own, as a host gives it
        )
    try:
        wait_for(lambda: gits_under(root) != [], timeout=WAIT, what="git waiting on the FIFO")
        os.killpg(hook.pid, signal.SIGTERM)
        out, errors = hook.communicate(timeout=WAIT)
        wait_for(lambda: gits_under(root) == [], timeout=10, what="git to end")
    finally:
        if hook.poll() is None:
            hook.kill()
        for pid in gits_under(root):
            os.kill(pid, signal.SIGKILL)
    assert hook.returncode == 0, errors
    answer = json.loads(out)
    assert answer["decision"] == "block", out
    assert "ended by SIGTERM" in answer["reason"], answer


def test_a_git_killed_at_its_limit_leaves_no_index_lock(tmp_path: Path) -> None:
    """`git update-index` waits on a FIFO at `.git/info/attributes` while it holds
    `.git/index.lock`; a SIGKILL at its limit left the lock, and every later `git add` or
    commit failed ("index.lock: File exists") until a person removed it. git is sent SIGTERM
    first, on which it removes its locks."""
    from goalfile import gitlimit
    from goalfile.gitattrs import stage_exact

    root = make_git_repo(tmp_path / "repo")
    (root / "a.md").write_text("a\n", encoding="utf-8")
    git(root, "add", "a.md")
    git(root, "commit", "-qm", "a")
    # git reads the attributes while it holds the lock only to re-check an entry "racily
    # clean" (the file's time is not before the index's): a.md written in the same second as
    # the index. On a loaded machine `git add` and `git commit` can end in the next second, and
    # then update-index never opened the FIFO; the index gets a.md's time, as in that second
    stamp = (root / "a.md").stat().st_mtime_ns
    os.utime(root / ".git" / "index", ns=(stamp, stamp))
    (root / "b.md").write_text("b\n", encoding="utf-8")
    os.mkfifo(root / ".git" / "info" / "attributes")
    started = time.monotonic()
    with gitlimit.within(per_command=1.0, until=started + 30, after_hang=1.0):
        said = stage_exact(str(root), "b.md")
    assert said is not None and "did not answer within 1s and was killed" in said, said
    assert time.monotonic() - started < 10
    assert not (root / ".git" / "index.lock").exists()
    assert gits_under(root) == []
