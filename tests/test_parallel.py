"""`verify --jobs N`: checks run side by side, and the result is that of a one-by-one run."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

import pytest
from conftest import (
    goal_text,
    gone,
    last_line,
    row,
    run_goalfile,
    start_goalfile,
    wait_for,
    write_goal,
)

from goalfile.commands.parallel import Pool

MIXED = (
    row("C1", "echo one", 'prints "one"'),
    row("C2", "echo two; exit 3", "exit 0"),
    row("C3", "sleep 0.3; echo three >&2", 'exit 0; stderr contains "three"'),
    row("C4", "echo (", "exit 0"),
    row("C5", "sleep 5", "exit 0"),
    row("C6", "no-such-command-here", "exit 0"),
    row("C7", "seq 1 30", "exit 0; stdout matches /^17$/"),
    row("R1", "README.md", "explains the checks", "review"),
)


def entry_of(path: Path) -> str:
    """The newest ledger entry, with the durations (the only thing that may differ) masked."""
    text = path.read_text(encoding="utf-8")
    entry = text[text.rindex("### Iteration") :]
    return re.sub(r"\b\d+(\.\d+)?s\b", "Ns", entry)


@pytest.mark.parametrize("jobs", ["2", "3", "8"])
def test_jobs_write_the_same_entry_summary_and_exit_code(repo: Path, jobs: str) -> None:
    extra = ("timeout: 1",)
    one = write_goal(repo / "goals", goal_text(rows=MIXED, extra=extra), "one.md")
    many = write_goal(repo / "goals", goal_text(rows=MIXED, extra=extra), "many.md")
    sequential = run_goalfile("verify", one, cwd=repo)
    parallel = run_goalfile("verify", "--jobs", jobs, many, cwd=repo)
    assert sequential.returncode == parallel.returncode == 4, parallel.stderr
    assert last_line(parallel.stdout) == last_line(sequential.stdout)
    assert "C5 error" in last_line(parallel.stdout)
    assert entry_of(many) == entry_of(one)
    assert one.read_text().replace("one.md", "") == many.read_text().replace("many.md", "")


def test_jobs_run_the_checks_at_the_same_time(repo: Path) -> None:
    """Each check waits until all four have started: only side by side can all four be met."""
    meet = (
        "touch {me}; for i in $(seq 100); do [ $(ls {dir} | wc -l) -ge 4 ] && exit 0; "
        "sleep 0.05; done; exit 1"
    )
    marks = repo / "marks"
    marks.mkdir()
    rows = [row(f"C{i}", meet.format(me=marks / f"m{i}", dir=marks), "exit 0") for i in range(4)]
    path = write_goal(repo / "goals", goal_text(rows=rows))
    done = run_goalfile("verify", "--jobs", "4", path, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert last_line(done.stdout).endswith("status: met")


def test_jobs_one_runs_them_one_at_a_time(repo: Path) -> None:
    """The same checks one by one: the first waits in vain, so the run is not met."""
    meet = (
        "touch {me}; for i in $(seq 4); do [ $(ls {dir} | wc -l) -ge 2 ] && exit 0; "
        "sleep 0.05; done; exit 1"
    )
    marks = repo / "marks"
    marks.mkdir()
    rows = [row(f"C{i}", meet.format(me=marks / f"m{i}", dir=marks), "exit 0") for i in range(2)]
    path = write_goal(repo / "goals", goal_text(rows=rows))
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "C0 unmet, C1 met" in last_line(done.stdout)


def usage_line(message_id: str, tokens: int) -> str:
    """One assistant message of a Claude Code transcript, with its token usage."""
    message = {
        "id": message_id,
        "role": "assistant",
        "content": [{"type": "text", "text": "ok"}],
        "usage": {"input_tokens": tokens, "output_tokens": 0},
    }
    line = {"type": "assistant", "sessionId": "s1", "requestId": f"r{message_id}"}
    return json.dumps({**line, "message": message}) + "\n"


def test_jobs_read_the_token_budget_before_each_check_starts(repo: Path) -> None:
    """C1 and C2 start together; C1 spends the budget; C3, started when C1 is done, is not
    run. C2, already running, finishes."""
    session = repo / "session.jsonl"
    session.write_text(usage_line("m1", 100), encoding="utf-8")
    (repo / "more.jsonl").write_text(usage_line("m2", 1000), encoding="utf-8")
    rows = (
        row("C1", f"sleep 0.3; cat {repo / 'more.jsonl'} >> {session}", "exit 0"),
        row("C2", "sleep 1.5", "exit 0"),
        row("C3", "true", "exit 0"),
    )
    path = write_goal(repo / "goals", goal_text(rows=rows, tokens="500"))
    done = run_goalfile("verify", "--jobs", "2", "--transcript", session, path, cwd=repo)
    assert done.returncode == 5, done.stdout + done.stderr
    assert "C1 met, C2 met, C3 unmet; status: exhausted" in last_line(done.stdout)
    assert "C3 unmet: not run: token budget reached: 1000 of 500 used" in done.stdout


def test_jobs_zero_is_a_usage_error(repo: Path) -> None:
    path = write_goal(repo / "goals", goal_text())
    done = run_goalfile("verify", "--jobs", "0", path, cwd=repo)
    assert done.returncode == 2
    assert "--jobs" in done.stderr


def test_ctrl_c_ends_every_running_check(repo: Path) -> None:
    pids = [repo / f"pid{i}" for i in range(3)]
    rows = [row(f"C{i}", f"echo $$ > {pid}; sleep 60", "exit 0") for i, pid in enumerate(pids)]
    path = write_goal(repo / "goals", goal_text(rows=rows))
    before = path.read_bytes()
    proc = start_goalfile("verify", "--jobs", "3", path, cwd=repo)
    wait_for(lambda: all(p.exists() and p.read_text().strip() for p in pids), what="3 checks")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert path.read_bytes() == before
    for pid in (int(p.read_text()) for p in pids):
        assert gone(pid)


def test_pool_hands_results_over_in_the_calling_thread_and_caps_the_running() -> None:
    import threading
    import time

    seen: list[tuple[str, int, bool]] = []
    running = {"now": 0, "most": 0}
    lock = threading.Lock()

    def job(n: int) -> int:
        with lock:
            running["now"] += 1
            running["most"] = max(running["most"], running["now"])
        time.sleep(0.05)
        with lock:
            running["now"] -= 1
        return n * n

    def done(key: str, value: int) -> None:
        seen.append((key, value, threading.current_thread() is threading.main_thread()))

    pool: Pool[int] = Pool(2, on_done=done, clock=time.monotonic)
    for n in range(6):
        pool.start(str(n), lambda n=n: job(n))
    pool.wait()
    assert sorted(seen) == [(str(n), n * n, True) for n in range(6)]
    assert running["most"] == 2


def test_pool_passes_a_worker_error_on() -> None:
    import time

    def boom() -> int:
        raise ValueError("broken job")

    pool: Pool[int] = Pool(2, on_done=lambda key, value: None, clock=time.monotonic)
    pool.start("a", boom)
    with pytest.raises(ValueError, match="broken job"):
        pool.wait()
