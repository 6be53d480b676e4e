"""What verify shows: why a row failed (console, --json, the Stop hook's reason), the head and
the tail of a failing check's output, the ticker on a real terminal, and plain piped lines."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from goalfile.cli.console import Console
from goalfile.model import Criterion
from tests.conftest import clean_env, goal_text, row, run_goalfile, write_goal

# prints a first traceback, 5,000 lines of noise (far more than the kept tail), then a summary
PYTEST_LIKE = (
    "python3 -c \"import sys; print('Traceback (most recent call last): first_cause'); "
    "[print('noise', i) for i in range(5000)]; print('1 failed in 0.1s'); sys.exit(1)\""
)
ROWS = (
    row("C1", PYTEST_LIKE, 'exit 0; stdout contains "passed"'),
    row("C2", "echo fine", 'exit 0; stdout lacks "fine"'),
    row("C3", "printf ''", "exit 0; stdout matches /^ok$/"),
    row("C4", "true", "exit 0"),
)


def failing_goal(repo: Path) -> Path:
    return write_goal(repo / "goals", goal_text(rows=ROWS, extra=("stall_limit: 20",)))


def test_the_console_names_each_failed_clause_and_shows_head_and_tail(repo: Path) -> None:
    failing_goal(repo)
    done = run_goalfile("verify", "--no-write", "goals/demo.md", cwd=repo)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    verdicts = {line.split(" ")[0]: line for line in lines if line[:2] in ("C1", "C2", "C3", "C4")}
    assert verdicts["C1"].startswith("C1 unmet (")
    assert verdicts["C1"].endswith(
        '): exit 0 expected, got 1; stdout contains "passed": not found; '
        "last line: 1 failed in 0.1s"
    )
    assert verdicts["C2"].endswith('): stdout lacks "fine": found in stdout; last line: fine')
    assert verdicts["C3"].endswith("): stdout matches /^ok$/: no line matches (no output)")
    assert verdicts["C4"].startswith("C4 met (")
    # the cause at the start and the summary at the end both show
    output = done.stdout
    assert "│ Traceback (most recent call last): first_cause" in output
    assert "│ 1 failed in 0.1s" in output
    assert "stdout (first 40 and last 40 lines of" in output
    assert "│ noise 2500" not in output  # the middle is left out
    assert "\x1b" not in output and "\r" not in output  # piped: plain lines


def test_json_and_the_hook_reason_say_why(repo: Path) -> None:
    failing_goal(repo)
    done = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=repo)
    document = json.loads(done.stdout)
    why = {item["id"]: item["why"] for item in document["rows"]}
    assert why == {
        "C1": ["exit 0 expected, got 1", 'stdout contains "passed": not found'],
        "C2": ['stdout lacks "fine": found in stdout'],
        "C3": ["stdout matches /^ok$/: no line matches"],
        "C4": [],
    }
    c1 = document["rows"][0]["output"]
    assert c1["stdout_head"][0] == "Traceback (most recent call last): first_cause"
    assert c1["stdout_tail"][-1] == "1 failed in 0.1s"

    stdin = json.dumps({"session_id": "s", "cwd": str(repo), "stop_hook_active": False})
    hook = run_goalfile("hook", "stop", "--agent", "claude", cwd=repo, input=stdin)
    answer = json.loads(hook.stdout)
    assert answer["decision"] == "block"
    reason = answer["reason"]
    assert (
        '- C1 unmet (exit 1): exit 0 expected, got 1; stdout contains "passed": not found; '
        "last line: 1 failed in 0.1s"
    ) in reason
    assert '- C2 unmet (exit 0): stdout lacks "fine": found in stdout; last line: fine' in reason


def test_an_error_row_says_what_went_wrong(repo: Path) -> None:
    write_goal(repo / "goals", goal_text(rows=(row("C1", "no-such-tool-xyz", "exit 0"),)))
    done = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=repo)
    (item,) = json.loads(done.stdout)["rows"]
    assert item["verdict"] == "error"
    (reason,) = item["why"]
    assert reason.startswith("exit 127: command not found: ") and "no-such-tool-xyz" in reason


def test_piped_output_kept_whole_shows_both_ends_of_a_long_run(repo: Path) -> None:
    """A failing run whose output fits in memory but is longer than 80 lines: the first 40
    (where the cause is) and the last 40 show, the middle does not."""
    long = "for i in $(seq 1 100); do echo line$i; done; exit 1"
    short = "for i in $(seq 1 60); do echo row$i; done; exit 1"
    rows = (row("C1", long, "exit 0"), row("C2", short, "exit 0"))
    write_goal(repo / "goals", goal_text(rows=rows))
    done = run_goalfile("verify", "--no-write", "goals/demo.md", cwd=repo)
    shown = done.stdout.splitlines()
    assert "  stdout (first 40 and last 40 lines of 692 bytes):" in shown
    assert "  │ line1" in shown and "  │ line40" in shown and "  │ line61" in shown
    assert "  │ line41" not in shown and "  │ line60" not in shown
    assert "  stdout (60 lines of 351 bytes):" in shown  # up to 80 lines: all of them
    assert all(f"  │ row{i}" in shown for i in range(1, 61))


# --------------------------------------------------------------------------- progress


def test_piped_output_says_when_each_check_starts(repo: Path) -> None:
    failing_goal(repo)
    done = run_goalfile("verify", "--no-write", "goals/demo.md", cwd=repo)
    started = [line for line in done.stdout.splitlines() if " started: " in line]
    assert started == [
        f"[1/4] C1 started: {PYTEST_LIKE}",
        "[2/4] C2 started: echo fine",
        "[3/4] C3 started: printf ''",
        "[4/4] C4 started: true",
    ]


def test_piped_output_says_when_each_check_starts_also_with_jobs(repo: Path) -> None:
    rows = (row("C1", "sleep 0.3", "exit 0"), row("C2", "true", "exit 0"))
    write_goal(repo / "goals", goal_text(rows=rows))
    done = run_goalfile("verify", "--no-write", "--jobs", "2", "goals/demo.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["[1/2] C1 started: sleep 0.3", "[2/2] C2 started: true"]
    assert lines[-1] == "verify-goal demo iteration 1: C1 met, C2 met; status: met"


def test_piped_output_says_still_running_every_30_seconds() -> None:
    out = io.StringIO()
    console = Console(out=out, terminal=False, env={})
    c1 = Criterion(id="C1", criterion="slow", check="sleep 100", expected="exit 0", line=1)
    console.begin([c1])
    console.started(c1)
    for elapsed in (0.5, 12.0, 29.9, 30.0, 31.0, 59.0, 61.0, 95.0):
        console.tick(c1, elapsed)
    assert out.getvalue().splitlines() == [
        "[1/1] C1 started: sleep 100",
        "  C1 still running (30 s)",
        "  C1 still running (60 s)",
        "  C1 still running (90 s)",
    ]


def on_a_terminal(repo: Path, env: dict[str, str]) -> bytes:
    """Run verify with a real pseudo-terminal as its stdout; everything it wrote."""
    main, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "goalfile", "verify", "--no-write", "--tail", "2", "goals/demo.md"],
        cwd=repo,
        env=clean_env(env),
        stdin=subprocess.DEVNULL,
        stdout=child,
        stderr=child,
    )
    os.close(child)
    chunks = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 1)
        if not ready:
            if process.poll() is not None:
                break
            continue
        try:
            data = os.read(main, 65536)
        except OSError:  # the child closed its end
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=30)
    os.close(main)
    return b"".join(chunks)


def slow_goal(repo: Path) -> None:
    rows = (row("C1", "true", "exit 0"), row("C2", "sleep 0.6; echo done; exit 3", "exit 0"))
    write_goal(repo / "goals", goal_text(rows=rows))


def test_the_terminal_ticker_names_row_command_and_place_in_colour(repo: Path) -> None:
    slow_goal(repo)
    shown = on_a_terminal(repo, {"TERM": "xterm-256color"}).decode()
    assert "\r\x1b[K  [2/2] C2 sleep 0.6; echo done; exit 3 (0." in shown
    assert "C1 \x1b[32mmet\x1b[0m (" in shown
    assert "C2 \x1b[31munmet\x1b[0m (" in shown
    assert "exit 0 expected, got 3" in shown


def test_no_color_and_dumb_terminals_get_no_escape_codes(repo: Path) -> None:
    slow_goal(repo)
    for env in ({"TERM": "xterm", "NO_COLOR": "1"}, {"TERM": "dumb"}):
        shown = on_a_terminal(repo, env)
        assert b"\x1b" not in shown, (env, shown)
        assert b"C2 unmet (" in shown
        assert b"verify-goal demo iteration 1: C1 met, C2 unmet; status: active" in shown
    # a dumb terminal gets the piped lines: no carriage return but the terminal's own CRLF
    dumb = on_a_terminal(repo, {"TERM": "dumb"})
    assert b"\r" not in dumb.replace(b"\r\n", b"\n")
    assert b"[2/2] C2 started: sleep 0.6; echo done; exit 3" in dumb


def _verify_with_a_fast_clock(repo: Path, extra: tuple[str, ...]) -> list[str]:
    """verify --no-write in this process on a real `sleep 1` check, with a clock that runs 20
    seconds per reading, so the "still running" marks come without waiting for them."""
    from datetime import date

    from goalfile.commands.context import Context
    from goalfile.commands.verify import VerifyOptions, verify

    path = write_goal(
        repo / "goals", goal_text(rows=(row("C1", "sleep 1", "exit 0"),), extra=extra)
    )
    now = [0.0]

    def clock() -> float:
        now[0] += 20.0
        return now[0]

    out = io.StringIO()
    ctx = Context(today=date.today().isoformat(), env=clean_env(), cwd=repo, clock=clock)
    verify(
        VerifyOptions(path=str(path), write=False),
        ctx,
        Console(out=out, terminal=False, env={}),
    )
    return out.getvalue().splitlines()


def test_a_check_without_a_time_limit_says_so_once_with_the_way_to_bound_it(repo: Path) -> None:
    hint = (
        "  C1 has no time limit (no `timeout` in its row or the frontmatter): "
        "`--time-limit S` bounds this run; Ctrl-C ends it and writes nothing"
    )
    lines = _verify_with_a_fast_clock(repo, ())
    assert lines.count(hint) == 1, lines
    assert "  C1 still running" in "\n".join(lines)
    assert hint not in _verify_with_a_fast_clock(repo, ("timeout: 600",))


def test_piped_output_says_a_review_row_is_reviewed_not_started(repo: Path) -> None:
    rows = (row("C1", "true", "exit 0"), row("R1", "docs/guide.md", "explains it", "review"))
    (repo / "docs").mkdir()
    (repo / "docs" / "guide.md").write_text("# Guide\n")
    write_goal(repo / "goals", goal_text(rows=rows))
    done = run_goalfile("verify", "--no-write", "goals/demo.md", cwd=repo)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "[1/2] C1 started: true" in lines
    assert "[2/2] R1 review of: docs/guide.md" in lines
    assert not any(line.startswith("[2/2] R1 started") for line in lines)
