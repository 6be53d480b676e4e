"""A `goalfile verify` of the agent's still running at its stop, through the stop after the
hold: the hook waits for it instead of letting the stop go.

The agent ran `goalfile verify` with a short time for its shell tool: Codex 0.171.0 answers the
tool call with what the command printed so far and leaves it running, and the model stops.
The hook's verify found the goal locked by that process and held the agent once, to let it
finish. Codex does not wait for such a process (Claude Code does, and starts a turn when it
ends): the model stopped again at once, the same process still holding the lock, and the hook,
which holds once per finding, let the stop go; `codex exec` then ended, and the processes of
its session with it: that verify wrote nothing, the goal stayed active and unmet. Now the stop
after the hold waits for that process, up to half the hook's time left; once it has ended and
written the goal, the agent is held once more, to stop again, and the stop after that judges
what it wrote. Real `goalfile` processes, a real git repository.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import approved_repo, clean_env, fix_of, run_goalfile, sh, start_goalfile

GOAL = "goals/real.md"
SESSION = "4b1d2c3e-5f60-4a71-8b92-c3d4e5f60718"


def stop(repo: Path, *, active: bool, timeout: str = "30") -> dict[str, object]:
    data = {"session_id": SESSION, "cwd": str(repo), "hook_event_name": "Stop",
            "stop_hook_active": active}  # fmt: skip
    done = run_goalfile(
        "hook", "stop", "--agent", "codex", "--timeout", timeout,
        cwd=repo, input=json.dumps(data), timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return json.loads(text) if text else {}


def waiting_repo(tmp_path: Path, flag: str, seconds: int) -> Path:
    """An approved goal whose one check sleeps ``seconds`` while the file ``flag`` is there
    (it is), then passes."""
    repo = approved_repo(
        tmp_path / "app", "real", "ok exists",
        "--check", f"test ! -e {flag} || sleep {seconds}; test -f ok", "--expected", "exit 0",
    )  # fmt: skip
    (repo / "ok").write_text("", encoding="utf-8")
    (repo / flag).write_text("", encoding="utf-8")
    return repo


def test_the_stop_after_the_hold_waits_for_the_agents_verify(tmp_path: Path) -> None:
    """Fails before the change: the stop after the hold waited for the lock a quarter of its
    time (here 6 s) and then either let the stop go (the process still running: Codex's case)
    or, the process having ended within that wait and written its entry, held the agent for
    "the goal file changed while the Stop hook read it ... (another file was put at its
    path)", blaming a swap, with a fix naming the goal by its absolute path (this case)."""
    repo = waiting_repo(tmp_path, "slow", 12)
    holder = start_goalfile("verify", GOAL, cwd=repo)
    try:
        assert holder.stdout is not None
        assert "C1 started" in holder.stdout.readline()  # it holds the lock, its check runs
        answer = stop(repo, active=False)
        assert answer.get("decision") == "block", answer
        held = str(answer["reason"])
        assert f"goalfile could not verify {GOAL}: locked by `goalfile verify` (pid " in held
        assert "\nLet that process finish" in held, held
        # the model stops again at once: waited for, the process ended, held once more
        answer = stop(repo, active=True)
        assert answer.get("decision") == "block", answer
        again = str(answer["reason"])
        assert again.split("\n")[0] == held.split("\n")[0], (held, again)
        assert "\nThat process has ended since and wrote the goal file" in again, again
        assert "Codex ends a command still running in a session when the session ends" in again
        assert holder.wait(timeout=60) == 0
    finally:
        if holder.poll() is None:
            holder.kill()
    # the stop after it judges what that verify wrote: met, its checks still passing
    (repo / "slow").unlink()
    assert stop(repo, active=True) == {}
    status = run_goalfile("status", "--json", GOAL, cwd=repo)
    assert [g["status"] for g in json.loads(status.stdout)["goals"]] == ["met"], status.stdout


def test_a_holder_that_never_ends_is_waited_for_briefly_then_named_with_its_kill(
    tmp_path: Path,
) -> None:
    """The agent's `goalfile verify` runs a check that hangs, and the agent stops while it
    runs, and again after the hold to let it finish. Fails before the change: the stop after
    the hold waited half the hook's time left (about 285 s at the default 600 s timeout), then
    let the agent go with the goal unverified. Now each stop waits for the holder at most 30 s;
    still running then, the agent is held once more, naming the process and `kill PID`, which
    works as printed; the stop after that hold is let go (a lock held for ever must not trap the
    agent), and once the process is ended the next stop verifies the goal."""
    repo = waiting_repo(tmp_path, "hang", 300)
    holder = start_goalfile("verify", GOAL, cwd=repo)
    try:
        assert holder.stdout is not None
        assert "C1 started" in holder.stdout.readline()  # it holds the lock, its check hangs
        held = str(stop(repo, active=False, timeout="10")["reason"])  # waits 2 s, holds
        locked = f"goalfile could not verify {GOAL}: locked by `goalfile verify` (pid "
        assert held.startswith(f"{locked}{holder.pid}, since "), held
        assert "\nLet that process finish" in held, held
        # the default timeout: waited 30 s, not 285, and held once more with the kill
        answer = stop(repo, active=True, timeout="600")
        assert answer.get("decision") == "block", answer
        again = str(answer["reason"])
        assert again.split("\n")[0] == held.split("\n")[0], (held, again)
        assert "\nThat process still runs: the hook waited for it 30 s at this stop too." in again
        assert fix_of(again) == f"kill {holder.pid}", again
        # stopped again without ending it: let go, with the lock named
        answer = stop(repo, active=True, timeout="10")
        assert answer.get("decision") != "block", answer
        assert str(answer.get("systemMessage", "")).startswith(locked), answer
        sh(fix_of(again), cwd=repo)
        assert holder.wait(timeout=30) == 143  # SIGTERM: ended, nothing written
    finally:
        if holder.poll() is None:
            holder.kill()
    (repo / "hang").unlink()
    answer = stop(repo, active=True, timeout="30")
    assert answer.get("decision") != "block", answer
    status = run_goalfile("status", "--json", GOAL, cwd=repo)
    assert [g["status"] for g in json.loads(status.stdout)["goals"]] == ["met"], status.stdout


def test_a_holder_in_another_pid_namespace_is_said_so_and_no_kill_is_named(
    tmp_path: Path,
) -> None:
    """Codex runs each command of the model's in a sandbox with a pid namespace of its own
    (its workspace-write mode): the agent's `goalfile verify` noted the pid it has there (2),
    and the hold named "pid 2", a process the hook, and any later command of the agent's, sees
    as another one or none (`kill 2` would signal whatever is pid 2 where it runs). Fails
    before the change: the lock's holder was described with that pid as if it were one here.
    Now the owner note keeps its pid namespace: a holder in another one is said to be there,
    and the stop after the hold names no `kill` (no command would work as written); it is let
    go with the hold's message, as a lock held for ever must not trap the agent."""
    repo = waiting_repo(tmp_path, "hang", 300)
    holder = subprocess.Popen(
        ["unshare", "--user", "--map-current-user", "--pid", "--fork", "--mount-proc",
         "--kill-child", sys.executable, "-m", "goalfile", "verify", GOAL],
        cwd=repo, env=clean_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None
        started = holder.stdout.readline()
        assert "C1 started" in started, (started, holder.stderr and holder.stderr.read())
        held = str(stop(repo, active=False, timeout="10")["reason"])
        locked = f"goalfile could not verify {GOAL}: locked by `goalfile verify` (pid 1 in "
        assert held.startswith(f"{locked}another pid namespace, since "), held
        assert "\nLet that process finish" in held, held
        answer = stop(repo, active=True, timeout="10")
        assert answer.get("decision") != "block", answer
        assert str(answer.get("systemMessage", "")).startswith(locked), answer
        assert "kill" not in json.dumps(answer), answer
    finally:
        holder.kill()
        holder.communicate()
