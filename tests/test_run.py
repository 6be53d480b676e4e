"""goalfile.run: checks run as real processes (sh, sleep, yes, head), no mocks."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from conftest import gone

from goalfile.run import (
    CHUNK_SIZE,
    GOAL_LIMIT_BEFORE_START_MESSAGE,
    GOAL_LIMIT_MESSAGE,
    KILL_GRACE,
    LINGER,
    CheckSpec,
    Ending,
    RunOutcome,
    clean_message,
    first_message_line,
    parse_proc_stat,
    run_check,
    syntax_error,
    time_limit,
)
from goalfile.tail import MAX_TAIL_LINES, StreamSummary

REPO = Path(__file__).resolve().parents[1]
ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}


# --------------------------------------------------------------------------- helpers


def spec(
    command: str,
    *,
    cwd: Path | str = "/",
    timeout: float | None = None,
    shell: str = "/bin/sh",
    env: dict[str, str] | None = None,
) -> CheckSpec:
    return CheckSpec(
        command=command,
        shell=shell,
        cwd=str(cwd),
        env=ENV if env is None else env,
        timeout=timeout,
    )


def run(check: CheckSpec, **kwargs: object) -> tuple[RunOutcome, list[tuple[str, bytes]], float]:
    """Run a check; return its outcome, the chunks it printed and the wall time taken."""
    chunks: list[tuple[str, bytes]] = []
    began = time.monotonic()
    outcome = run_check(
        check,
        on_output=lambda name, data: chunks.append((name, data)),
        **kwargs,  # type: ignore[arg-type]
    )
    return outcome, chunks, time.monotonic() - began


def joined(chunks: list[tuple[str, bytes]], name: str) -> bytes:
    return b"".join(data for stream, data in chunks if stream == name)


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(state, process group) of a process, None when it no longer exists."""
    try:
        return parse_proc_stat(Path(f"/proc/{pid}/stat").read_bytes())
    except (OSError, ValueError, IndexError):
        return None


def live_in_group(pgid: int) -> list[int]:
    live = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            found = proc_stat(int(name))
            if found is not None and found[1] == pgid and found[0] not in ("Z", "X"):
                live.append(int(name))
    return live


def script_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


# --------------------------------------------------------------------------- pure logic


def test_time_limit_names_the_limit_that_applies() -> None:
    assert time_limit(None, None, 0.0) == (None, "")
    assert time_limit(5.0, None, 0.0) == (5.0, "timed out after 5s (check timeout)")
    assert time_limit(2.5, 100.0, 10.0) == (2.5, "timed out after 2.5s (check timeout)")
    assert time_limit(600.0, 100.0, 10.0) == (90.0, GOAL_LIMIT_MESSAGE)
    assert time_limit(None, 100.0, 10.0) == (90.0, GOAL_LIMIT_MESSAGE)
    assert time_limit(None, 5.0, 10.0) == (-5.0, GOAL_LIMIT_MESSAGE)


def test_messages_are_cleaned_to_one_line() -> None:
    assert clean_message("\x1b[31m  bad \t thing\x07 ") == "bad thing"
    assert len(clean_message("x" * 1000)) == 300
    assert first_message_line(b"\n  \n\x1b[1mfirst\x1b[0m\nsecond\n") == "first"
    assert first_message_line(b"") == ""


def test_parse_proc_stat_handles_odd_command_names() -> None:
    assert parse_proc_stat(b"42 (a) b (c)) S 1 42 42 0 -1") == ("S", 42)


# --------------------------------------------------------------------------- exit and signal


def test_exit_statuses(tmp_path: Path) -> None:
    script = tmp_path / "not-executable.sh"
    script.write_text("echo hi\n")
    script.chmod(0o644)
    cases = {"true": 0, "exit 3": 3, "./not-executable.sh": 126, "no-such-command-xyz": 127}
    for command, status in cases.items():
        outcome, _, _ = run(spec(command, cwd=tmp_path))
        assert (outcome.ending, outcome.exit_status, outcome.signal) == (
            Ending.EXITED,
            status,
            None,
        ), command
        assert outcome.message == ""


def test_killed_by_a_signal() -> None:
    outcome, _, _ = run(spec("kill -TERM $$"))
    assert outcome.ending is Ending.SIGNALLED
    assert outcome.signal == signal.SIGTERM
    assert outcome.exit_status is None


# --------------------------------------------------------------------------- process setup


def test_cwd_env_and_new_session_exactly_as_given(tmp_path: Path) -> None:
    env = {"PATH": ENV["PATH"], "ONLY_THIS": "a b=c"}
    outcome, chunks, _ = run(
        spec("pwd; tr '\\0' '\\n' < /proc/$$/environ; cat /proc/$$/stat", cwd=tmp_path, env=env)
    )
    assert outcome.ending is Ending.EXITED
    assert outcome.exit_status == 0
    lines = joined(chunks, "stdout").decode().splitlines()
    assert lines[0] == str(tmp_path.resolve())
    given = [f"{key}={value}" for key, value in env.items()]
    marks = [line for line in lines[1:-1] if line.startswith("GOALFILE_RUN=")]
    assert len(marks) == 1, "the guard's mark of this goalfile process"
    assert sorted(lines[1:-1]) == sorted([*given, *marks])
    stat_fields = lines[-1].rsplit(")", 1)[1].split()
    pid = int(lines[-1].split()[0])
    pgrp, session = int(stat_fields[2]), int(stat_fields[3])
    assert pgrp == pid  # its own process group ...
    assert session == pid  # ... and its own session
    assert pgrp != os.getpgrp()


def test_stdin_is_closed() -> None:
    outcome, chunks, took = run(spec('cat; read x; echo "read=$?"; readlink /proc/$$/fd/0'))
    assert outcome.ending is Ending.EXITED
    assert outcome.exit_status == 0
    assert joined(chunks, "stdout").decode().splitlines() == ["read=1", "/dev/null"]
    assert took < 2


# --------------------------------------------------------------------------- output


def test_streams_are_separate_and_callbacks_come_from_the_calling_thread() -> None:
    seen: list[tuple[str, bytes]] = []
    threads: set[int] = set()
    counts: set[int] = set()
    baseline = threading.active_count()

    def on_output(name: str, data: bytes) -> None:
        seen.append((name, data))
        threads.add(threading.get_ident())
        counts.add(threading.active_count())

    outcome = run_check(spec("printf 'a\\nb'; echo err >&2; printf ''"), on_output=on_output)
    assert outcome.ending is Ending.EXITED
    assert joined(seen, "stdout") == b"a\nb"
    assert joined(seen, "stderr") == b"err\n"
    assert outcome.stdout == StreamSummary(tail=("a", "b"), total_bytes=3, truncated=False)
    assert outcome.stderr.tail == ("err",)
    assert threads == {threading.get_ident()}
    assert counts == {baseline}


def test_both_pipes_are_read_concurrently() -> None:
    # Each burst is far larger than a pipe buffer: reading one pipe at a time would deadlock.
    command = (
        "head -c 3000000 /dev/zero >&2; yes out | head -n 500000; "
        "head -c 3000000 /dev/zero >&2; echo done"
    )
    outcome, chunks, took = run(spec(command, timeout=30))
    assert outcome.ending is Ending.EXITED
    assert outcome.stderr.total_bytes == 6_000_000
    assert outcome.stdout.total_bytes == 2_000_005
    assert outcome.stdout.tail[-2:] == ("out", "done")
    assert outcome.stdout.truncated
    assert len(joined(chunks, "stderr")) == 6_000_000
    assert all(len(data) <= CHUNK_SIZE for _, data in chunks)
    assert took < 20


def test_binary_nul_and_escapes_in_output() -> None:
    outcome, chunks, _ = run(spec("printf 'a\\377\\376b\\000c\\033[31mred\\033[0m\\n\\200'"))
    assert outcome.ending is Ending.EXITED
    assert joined(chunks, "stdout") == b"a\xff\xfeb\x00c\x1b[31mred\x1b[0m\n\x80"
    assert outcome.stdout.tail == ("a\ufffd\ufffdb\x00c\x1b[31mred\x1b[0m", "\ufffd")


def test_on_tick_is_rate_limited() -> None:
    ticks: list[float] = []
    outcome = run_check(spec("sleep 0.6"), on_output=lambda *_: None, on_tick=ticks.append)
    assert outcome.ending is Ending.EXITED
    assert 2 <= len(ticks) <= 8
    assert all(later - earlier >= 0.09 for earlier, later in itertools.pairwise(ticks))
    assert 0.5 <= outcome.elapsed < 2


# --------------------------------------------------------------------------- time limits


def test_check_timeout_ends_the_whole_group_term_first() -> None:
    outcome, chunks, took = run(spec("sleep 100 & echo $!; sleep 100", timeout=0.3))
    assert outcome.ending is Ending.TIMEOUT
    assert outcome.message == "timed out after 0.3s (check timeout)"
    assert (outcome.exit_status, outcome.signal) == (None, None)
    assert took < 0.3 + KILL_GRACE  # sleep obeys SIGTERM: no need to wait for the grace
    assert gone(int(joined(chunks, "stdout")))


def test_timeout_kills_a_grandchild_that_ignores_term_and_holds_the_pipes() -> None:
    outcome, chunks, took = run(spec("trap '' TERM; sleep 100 & echo $!; sleep 100", timeout=0.3))
    assert outcome.ending is Ending.TIMEOUT
    grandchild = int(joined(chunks, "stdout"))
    assert KILL_GRACE <= took < KILL_GRACE + 3
    assert 0.3 <= outcome.elapsed < 1
    assert gone(grandchild)


def test_goal_deadline_shorter_than_check_timeout() -> None:
    outcome, _, took = run(spec("sleep 30", timeout=30), deadline=time.monotonic() + 0.3)
    assert outcome.ending is Ending.TIMEOUT
    assert outcome.message == GOAL_LIMIT_MESSAGE
    assert took < 3


def test_goal_deadline_already_passed_starts_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    outcome, _, _ = run(spec(f"touch {marker}"), deadline=time.monotonic() - 1)
    assert outcome.ending is Ending.TIMEOUT
    assert outcome.message == GOAL_LIMIT_BEFORE_START_MESSAGE
    assert not marker.exists()


def test_injected_clock_drives_the_deadline() -> None:
    ticks = iter(range(10_000))  # one second per look at the clock
    outcome, _, took = run(spec("sleep 30"), deadline=5.0, clock=lambda: float(next(ticks)))
    assert outcome.ending is Ending.TIMEOUT
    assert outcome.message == GOAL_LIMIT_MESSAGE
    assert took < 10


# --------------------------------------------------------------------------- leftovers


def test_background_child_holding_the_pipe_does_not_hang() -> None:
    outcome, chunks, took = run(spec("sleep 30 & echo hi; echo $! >&2"))
    assert outcome.ending is Ending.EXITED
    assert outcome.exit_status == 0
    assert outcome.stdout.tail == ("hi",)
    assert took < LINGER + 2
    assert outcome.elapsed < LINGER
    assert gone(int(joined(chunks, "stderr")))


def test_background_child_without_the_pipes_is_ended_too() -> None:
    outcome, chunks, took = run(spec("sleep 30 >/dev/null 2>&1 & echo $!"))
    assert outcome.exit_status == 0
    assert took < LINGER
    assert gone(int(joined(chunks, "stdout")))


def test_shell_that_closes_its_output_still_times_out() -> None:
    outcome, _, took = run(spec("exec >&- 2>&-; sleep 30", timeout=0.3))
    assert outcome.ending is Ending.TIMEOUT
    assert took < 3


def test_an_exception_from_a_callback_ends_the_group_and_propagates() -> None:
    pids: list[int] = []

    def on_output(name: str, data: bytes) -> None:
        pids.append(int(data))
        raise RuntimeError("stop")

    began = time.monotonic()
    with pytest.raises(RuntimeError, match="stop"):
        run_check(spec("sleep 30 & echo $!; sleep 30"), on_output=on_output)
    assert time.monotonic() - began < 3
    assert gone(pids[0])


def test_keyboard_interrupt_ends_the_check_and_propagates(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    script = textwrap.dedent(
        f"""
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)  # also in a background job
        from goalfile.run import CheckSpec, run_check
        run_check(
            CheckSpec(command="echo $$ > {pidfile}.tmp && mv {pidfile}.tmp {pidfile}; "
                              "sleep 31 & sleep 30",
                      shell="/bin/sh", cwd="/", env={ENV!r}, timeout=None),
            on_output=lambda name, data: None,
        )
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], env=script_env(), stderr=subprocess.PIPE, text=True
    )
    try:
        for _ in range(200):
            if pidfile.exists():
                break
            time.sleep(0.05)
        shell_pid = int(pidfile.read_text())
        time.sleep(0.2)
        assert live_in_group(shell_pid)
        began = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert time.monotonic() - began < 5
    assert child.returncode != 0
    assert "KeyboardInterrupt" in err
    assert live_in_group(shell_pid) == []


# --------------------------------------------------------------------------- not started


def test_cannot_start_is_reported_not_raised(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    not_executable = tmp_path / "shell"
    not_executable.write_text("")
    not_executable.chmod(0o644)
    missing = tmp_path / "missing"
    cases = [
        (spec("true", shell="/no/such/zsh"), "shell /no/such/zsh not found"),
        (spec("true", shell="no-such-shell-xyz"), "shell no-such-shell-xyz not found"),
        (spec("true", cwd=missing), f"working directory {missing} does not exist"),
        (spec("true", cwd=a_file), f"working directory {a_file} is not a directory"),
        (
            spec("true", shell=str(not_executable)),
            f"shell {not_executable} cannot be run: permission denied",
        ),
        (spec("true", shell=""), "no shell given"),
        (spec("echo \0"), "check cannot be started: embedded null byte"),
        (spec("true", cwd="/\0"), "working directory '/\\x00' cannot be used: embedded null byte"),
    ]
    for check, message in cases:
        outcome, chunks, _ = run(check)
        assert outcome.ending is Ending.NOT_STARTED
        assert outcome.message == message
        assert (outcome.exit_status, outcome.signal, chunks) == (None, None, [])
        assert outcome.stdout.total_bytes == outcome.stderr.total_bytes == 0


# --------------------------------------------------------------------------- syntax


def test_syntax_error() -> None:
    message = syntax_error(shell="/bin/sh", command="echo (", cwd="/", env=ENV)
    assert message
    assert "\n" not in message
    assert "(" in message
    assert syntax_error(shell="/bin/sh", command="echo ok", cwd="/", env=ENV) is None
    assert syntax_error(shell="/bin/sh", command="rm -rf /no/such/x", cwd="/", env=ENV) is None


def test_syntax_error_leaves_missing_shell_and_cwd_to_run_check(tmp_path: Path) -> None:
    assert syntax_error(shell="/no/such/sh", command="echo (", cwd="/", env=ENV) is None
    assert syntax_error(shell="/bin/sh", command="echo (", cwd=str(tmp_path / "x"), env=ENV) is None


# --------------------------------------------------------------------------- memory


def test_memory_stays_bounded_for_a_gigabyte_of_output() -> None:
    """The one slow test: 1 GB through the pipe, peak memory of the reader under 100 MB."""
    script = textwrap.dedent(
        f"""
        import json
        from goalfile.run import CheckSpec, run_check
        def peak_kib():
            # VmHWM is this process's own peak; ru_maxrss would also count the parent it was
            # forked from, because Linux carries that figure across execve
            with open("/proc/self/status") as status:
                return int(next(x for x in status if x.startswith("VmHWM:")).split()[1])
        outcome = run_check(
            CheckSpec(command="yes | head -c 1000000000", shell="/bin/sh", cwd="/",
                      env={ENV!r}, timeout=120),
            on_output=lambda name, data: None,
        )
        print(json.dumps({{
            "ending": outcome.ending,
            "status": outcome.exit_status,
            "bytes": outcome.stdout.total_bytes,
            "tail": len(outcome.stdout.tail),
            "truncated": outcome.stdout.truncated,
            "maxrss_kib": peak_kib(),
        }}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=script_env(),
        capture_output=True,
        text=True,
        timeout=150,
        check=True,
    )
    report = json.loads(done.stdout)
    assert report["ending"] == "exited"
    assert report["status"] == 0
    assert report["bytes"] == 1_000_000_000
    assert report["tail"] == MAX_TAIL_LINES
    assert report["truncated"] is True
    assert report["maxrss_kib"] < 100 * 1024
