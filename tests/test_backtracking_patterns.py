"""A `matches` pattern that backtracks without end: `verify` (also `--jobs`, also `--no-write`)
ends the search at the row's time limit and makes the row an error naming the pattern, and
`lint` warns about the pattern with its line and column. The real goalfile on real goal files
in a real git repository; the old code hung in `re`'s C code until it was killed."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.conftest import goal_text, last_line, row, run_goalfile

GOAL = "goals/rx.md"
# 40 `a` then `b`: /^(a+)+$/ tries about 2^40 ways to split the run before it fails
ALMOST = "printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\\n'"
NESTED = "exit 0; stdout matches /^(a+)+$/"
WAIT = 120  # seconds a goalfile process may take before the test calls it hung


def _goal(
    repo: Path, rows: list[tuple[str, str, str, str]], *, extra: tuple[str, ...] = ()
) -> Path:
    text = goal_text(slug="rx", status="draft", iterations_used=0, rows=rows, extra=extra)
    path = repo / GOAL
    path.write_text(text)
    return path


def _with_timeouts(path: Path, seconds: dict[str, str]) -> None:
    """Add a `timeout` column with the given cells (by row id; empty for the others)."""
    lines = path.read_text().split("\n")
    for at, line in enumerate(lines):
        if line.startswith("| id |"):
            lines[at] = line + " timeout |"
        elif line.startswith("|----|"):
            lines[at] = line + "---------|"
        elif line.startswith("| C") or line.startswith("| R"):
            cid = line.split("|")[1].strip()
            lines[at] = line + f" {seconds.get(cid, '')} |"
    path.write_text("\n".join(lines))


def _activate(repo: Path) -> None:
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr


def _verdicts(done_stdout: str) -> dict[str, dict[str, object]]:
    return {r["id"]: r for r in json.loads(done_stdout)["rows"]}


def test_verify_ends_a_backtracking_search_at_the_rows_time_limit(repo: Path) -> None:
    path = _goal(
        repo, [row("C1", ALMOST, NESTED), row("C2", "echo fine", 'exit 0; stdout contains "fine"')]
    )
    _with_timeouts(path, {"C1": "2"})
    _activate(repo)

    started = time.monotonic()
    done = run_goalfile("verify", GOAL, cwd=repo, timeout=WAIT)
    took = time.monotonic() - started
    assert done.returncode == 4, done.stdout + done.stderr  # blocked: an error row
    assert last_line(done.stdout) == "verify-goal rx iteration 0: C1 error, C2 met; status: blocked"
    assert (
        "stdout matches /^(a+)+$/: the search of the stdout ran out of time after 2s" in done.stdout
    )
    assert "the row's time limit" in done.stdout
    assert took < 60, took  # 2 s of search, not 2^40 steps
    ledger = path.read_text().split("## Iterations")[1]
    assert "| C1  | error   |" in ledger and "ran out of time after 2s" in ledger
    assert "Traceback" not in done.stderr

    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 0, lint.stdout + lint.stderr  # a warning, not an error


def test_verify_jobs_and_json_end_it_too(repo: Path) -> None:
    rows = [
        row("C1", ALMOST, NESTED),
        row("C2", ALMOST, "exit 0; stdout matches /^(a?a)+$/"),
        row("C3", "echo fine", 'exit 0; stdout contains "fine"'),
    ]
    _goal(repo, rows, extra=("timeout: 2",))  # the goal's limit: no row sets one
    _activate(repo)

    done = run_goalfile("verify", GOAL, "--jobs", "3", "--json", cwd=repo, timeout=WAIT)
    assert done.returncode == 4, done.stdout + done.stderr
    rows_by_id = _verdicts(done.stdout)
    assert rows_by_id["C1"]["verdict"] == "error"
    assert rows_by_id["C2"]["verdict"] == "error"
    assert rows_by_id["C3"]["verdict"] == "met"
    assert "/^(a?a)+$/: the search of the stdout ran out of time after 2s" in str(
        rows_by_id["C2"]["evidence"]
    )


def test_the_goals_time_limit_bounds_a_row_without_one(repo: Path) -> None:
    _goal(repo, [row("C1", ALMOST, NESTED)])
    _activate(repo)
    before = (repo / GOAL).read_bytes()

    started = time.monotonic()
    done = run_goalfile("verify", GOAL, "--no-write", "--time-limit", "3", cwd=repo, timeout=WAIT)
    assert time.monotonic() - started < 60
    assert done.returncode == 4, done.stdout + done.stderr
    assert "C1 error" in last_line(done.stdout)
    assert "what was left of the goal's time limit" in done.stdout
    assert (repo / GOAL).read_bytes() == before


def test_a_polynomial_pattern_on_a_long_line_is_ended_too(repo: Path) -> None:
    # /.*.*.*x/ costs about n^4 steps on a line of n characters without an x: hours for 2,000
    path = _goal(repo, [row("C1", "printf '%02000d\\n' 0", "`exit 0; stdout matches /.*.*.*x/`")])
    _with_timeouts(path, {"C1": "2"})
    _activate(repo)

    done = run_goalfile("verify", GOAL, cwd=repo, timeout=WAIT)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "C1 error" in last_line(done.stdout)
    assert "/.*.*.*x/: the search of the stdout ran out of time after 2s" in done.stdout


@pytest.mark.parametrize(
    ("command", "expected", "verdict", "evidence"),
    [
        # a pattern that is searched in another process judges as in this one
        ("printf 'x\\naaaa\\ny\\n'", NESTED, "met", "aaaa"),
        ("printf 'x\\nab\\n'", NESTED, "unmet", "ab"),
        ("printf 'x\\naaaa'", NESTED, "met", "aaaa"),  # the last line, without a newline
        (
            "printf 'warn\\n' >&2; printf 'aaaa\\n'",
            "exit 0; output matches /^(a+)+$/",
            "met",
            "aaaa",
        ),
        # a line long enough that a plain repeat is searched in another process
        ("printf '%010000d' 0; printf 'b\\n'", "exit 0; stdout matches /0+b/", "met", "0" * 300),
        ("printf '%010000d\\n' 0", "exit 0; stdout matches /0+b/", "unmet", "0" * 300),
    ],
)
def test_guarded_searches_judge_as_before(
    repo: Path, command: str, expected: str, verdict: str, evidence: str
) -> None:
    _goal(repo, [row("C1", command, expected)])
    _activate(repo)
    done = run_goalfile("verify", GOAL, "--json", cwd=repo, timeout=WAIT)
    assert done.returncode == (0 if verdict == "met" else 1), done.stdout + done.stderr
    found = _verdicts(done.stdout)["C1"]
    assert found["verdict"] == verdict and found["evidence"] == evidence, found


def test_lint_warns_about_a_pattern_that_backtracks_exponentially(repo: Path) -> None:
    rows = [
        row("C1", "true", NESTED),
        row("C2", "true", "exit 0; stdout matches /^(\\d+,?)+$/"),
        row("C3", "true", "exit 0; stdout matches /^(\\d+,)*\\d+$/"),  # the hint's rewrite
        row("C4", "true", "exit 0; stdout matches /^\\d+ passed in [\\d.]+s$/"),
    ]
    path = _goal(repo, rows)
    lines = path.read_text().split("\n")
    c1 = next(n for n, line in enumerate(lines, 1) if line.startswith("| C1 "))
    column = lines[c1 - 1].index("^(a+)+$") + 1

    done = run_goalfile("lint", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert (
        f"{GOAL}:{c1}:{column}: warning: C1: the pattern of `stdout matches /^(a+)+$/` can " in said
    )
    assert "backtrack exponentially" in said and "Write it so that each character" in said

    as_json = run_goalfile("lint", "--json", GOAL, cwd=repo)
    findings = json.loads(as_json.stdout)["files"][0]["findings"]
    flagged = [f for f in findings if f["code"] == "backtracking-pattern"]
    assert [(f["line"], f["severity"]) for f in flagged] == [(c1, "warning"), (c1 + 1, "warning")]
    assert flagged[0]["column"] == column and "/^(a+)+$/" in flagged[0]["message"]
    assert "`a++`" in flagged[0]["message"] and flagged[0]["hint"] is None


@pytest.mark.parametrize(
    "pattern",
    [
        r"^(a+)+$",
        r"(a|aa)+",
        r"(\d+,?)+x",
        r"(.*x)*y",
        r"(a?a)+$",
        r"(x+x+)+y",
        r"(?=(a+)+$)a",
        # repeats with a bound multiply the ways inside them as well
        r"(?:a{1,16}){1,16}b",
        r"(?:.*,){1,16}x",
        r"((a{1,3}){1,3}){1,3}b",
        r"(?:a|ab?){2,5}c",
        r"(?:[\u0100-\u0101]+)+b",  # a range's characters, beyond the sample alphabet
    ],
)
def test_exponential_patterns(pattern: str) -> None:
    from goalfile.backtrack import analyse

    found = analyse(pattern)
    assert found is not None and found.exponential, found


@pytest.mark.parametrize(
    "pattern",
    [
        r"passed",
        r"^\d+ passed in \d+\.\d+s$",
        r"(a|ab)+",
        r"(ab+)+",
        r"(\w+\.)+\w+",
        r"(\s+\w+)*$",
        r"(\d{1,3}\.){3}\d{1,3}",
        r"(?>a+)+",
        r"(a++)+",
        r"(\w|\d)+x",  # `re` reads one-character ways as one class
        r"^(\d+,)*\d+$",
    ],
)
def test_patterns_that_do_not(pattern: str) -> None:
    from goalfile.backtrack import analyse

    found = analyse(pattern)
    assert found is not None and not found.exponential, found


def _searching(parent: int, command: bytes) -> list[int]:
    """The children of ``parent`` that run its own command line (a fork of it, not an exec'd
    check) and have used 50 ms of CPU: the search's process."""
    import os

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
        ticks = int(fields[11]) + int(fields[12])
        busy = ticks >= 0.05 * os.sysconf("SC_CLK_TCK")
        if int(fields[1]) == parent and fields[0] not in (b"Z", b"X") and ran == command and busy:
            found.append(int(entry))
    return found


def test_a_search_left_by_a_killed_goalfile_is_ended(repo: Path) -> None:
    """goalfile killed (SIGKILL) while a search runs in its forked child: the guard that ends
    a killed goalfile's checks ends the search too, long before the row's 600 s."""
    import os
    import signal
    import sys

    from tests.conftest import gone, start_goalfile, wait_for

    path = _goal(repo, [row("C1", ALMOST, NESTED)])
    _with_timeouts(path, {"C1": "600"})
    _activate(repo)
    verify = start_goalfile("verify", GOAL, cwd=repo)
    try:
        command = "".join(
            f"{arg}\0" for arg in (sys.executable, "-m", "goalfile", "verify", GOAL)
        ).encode()
        wait_for(lambda: bool(_searching(verify.pid, command)), timeout=WAIT, what="the search")
        (search,) = _searching(verify.pid, command)
        verify.kill()
        verify.wait(timeout=WAIT)
        wait_for(lambda: gone(search), timeout=WAIT, what="the orphaned search to end")
    finally:
        if verify.poll() is None:
            os.killpg(verify.pid, signal.SIGKILL)
            verify.wait(timeout=WAIT)
    assert "by verify-goal" not in path.read_text()  # killed: no entry written


def test_ambiguous_bounded_repeats_count_by_their_ways() -> None:
    from goalfile.backtrack import analyse

    assert analyse(r".{0,16}.{0,16}x") == analyse(r".*.*x")  # 17 * 17 ways: two counted
    found = analyse(r"\d{1,3}\.\d{1,3}")  # a dot between: one way per character
    assert found is not None and found.ambiguous == 0 and found.repeats == 0


NESTED_BOUNDED = "exit 0; output matches /(?:a{1,16}){1,16}b/"
FORTY_A = "printf '%040d\\n' 0 | tr 0 a"
# The reading takes each class over a sample alphabet: it does not see that Arabic-Indic
# digits (U+0660) are both in U+0600..U+06FF and in \d, so it calls this pattern harmless,
# although a line of 60 of them fails it in about 1.6^60 ways (each digit is the class's, or
# the optional \d after one).
MISSED_PATTERN = r"(?:[\u0600-\u06ff]\d?)+b"
MISSED = f"`exit 0; stdout matches /{MISSED_PATTERN}/`"
# (written with octal escapes of its UTF-8 bytes: a check holding U+0660 itself reads as `.`
# and is refused as a look-alike)
SIXTY_DIGITS = "printf '" + "\\331\\240" * 60 + "\\n'"


def test_the_reading_misses_this_one() -> None:
    from goalfile.backtrack import analyse

    found = analyse(MISSED_PATTERN)
    assert found is not None and not found.exponential and found.ambiguous == 0, found


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_nested_bounded_repeats_end_at_the_goals_time_limit(repo: Path, jobs: str) -> None:
    """Repeats with a bound nested in each other were searched here, without a guard:
    `verify --time-limit 5` still ran after 30 s; lint said ok."""
    _goal(repo, [row("C1", FORTY_A, NESTED_BOUNDED), row("C2", "true", "exit 0")])
    _activate(repo)
    before = (repo / GOAL).read_bytes()

    started = time.monotonic()
    done = run_goalfile(
        "verify", GOAL, "--no-write", "--jobs", jobs, "--time-limit", "5", cwd=repo, timeout=WAIT
    )
    assert time.monotonic() - started < 60
    assert done.returncode == 4, done.stdout + done.stderr
    assert "C1 error" in last_line(done.stdout)
    assert "/(?:a{1,16}){1,16}b/: the search of the stdout ran out of time" in done.stdout
    assert (repo / GOAL).read_bytes() == before

    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert "backtrack exponentially" in lint.stdout + lint.stderr, lint.stdout + lint.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_pattern_the_reading_calls_harmless_still_ends_in_time(repo: Path, jobs: str) -> None:
    """Whatever the reading says, a search ends at the row's time limit: here (one job) a
    timer stops it, in a thread of --jobs it runs in the guard's process."""
    path = _goal(repo, [row("C1", SIXTY_DIGITS, MISSED), row("C2", "true", "exit 0")])
    _with_timeouts(path, {"C1": "2"})
    _activate(repo)

    started = time.monotonic()
    done = run_goalfile("verify", GOAL, "--jobs", jobs, "--json", cwd=repo, timeout=WAIT)
    assert time.monotonic() - started < 60
    assert done.returncode == 4, done.stdout + done.stderr
    found = _verdicts(done.stdout)
    assert found["C1"]["verdict"] == "error" and found["C2"]["verdict"] == "met", found
    assert "ran out of time after 2s (the row's time limit)" in str(found["C1"]["evidence"])


def test_sigterm_ends_verify_jobs_during_such_a_search(repo: Path) -> None:
    """With --jobs the search ran in a thread that kept the interpreter: SIGTERM did nothing."""
    import os
    import signal
    import sys

    from tests.conftest import start_goalfile, wait_for

    path = _goal(repo, [row("C1", SIXTY_DIGITS, MISSED), row("C2", "true", "exit 0")])
    _with_timeouts(path, {"C1": "600"})
    _activate(repo)
    verify = start_goalfile("verify", GOAL, "--jobs", "2", cwd=repo)
    try:
        command = "".join(
            f"{arg}\0" for arg in (sys.executable, "-m", "goalfile", "verify", GOAL, "--jobs", "2")
        ).encode()
        wait_for(lambda: bool(_searching(verify.pid, command)), timeout=WAIT, what="the search")
        verify.send_signal(signal.SIGTERM)
        _, err = verify.communicate(timeout=WAIT)
    finally:
        if verify.poll() is None:
            os.killpg(verify.pid, signal.SIGKILL)
            verify.wait(timeout=WAIT)
    assert verify.returncode == 143, err
    assert "by verify-goal" not in path.read_text()
