"""`goalfile verify` end to end: a real process in a real git repository, real checks.

Every test runs ``python -m goalfile verify`` as a subprocess and looks at its exit status, the
last line of its stdout (the summary line, verbatim), and the bytes of the goal file.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    HEADER,
    REPO,
    RULE,
    WITH_GOALFILE,
    clean_env,
    fix_of,
    goal_text,
    gone,
    last_line,
    outside_git,
    recent_days,
    row,
    run_goalfile,
    start_goalfile,
    wait_for,
    write_goal,
)

from goalfile import ledger
from goalfile.model import Status
from goalfile.parse import ledger_region, parse_goal


def make(repo: Path, *rows: tuple[str, str, str, str], name: str = "demo.md", **kw: Any) -> Path:
    text = goal_text(rows=rows or (row("C1", "true", "exit 0"),), **kw)
    return write_goal(repo / "goals", text, name)


def verify_entries(path: Path) -> list[ledger.Entry]:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    region = ledger_region(text)
    assert region is not None
    return [e for e in ledger.entries(text, *region) if e.by == ledger.VERIFY_BY]


def verify_json(path: Path, cwd: Path, *args: str) -> dict[str, Any]:
    done = run_goalfile("verify", "--json", *args, path, cwd=cwd)
    document = json.loads(done.stdout)
    assert isinstance(document, dict)
    return document


def tails(document: dict[str, Any], cid: str = "C1") -> list[str]:
    (found,) = [r for r in document["rows"] if r["id"] == cid]
    return list(found["output"]["stdout_tail"])


# --------------------------------------------------------------------------- exit codes


def test_met_exit_0_summary_line_and_file(repo: Path) -> None:
    path = make(repo, row("C1", "echo hello", 'exit 0; stdout contains "hello"'))
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 met; status: met"
    goal = parse_goal(path.read_text(), path=str(path))
    assert goal.status is Status.MET
    (entry,) = verify_entries(path)
    assert (entry.iteration, entry.status) == (1, Status.MET)
    assert entry.date in recent_days()
    assert [(r.id, r.verdict.value, r.exit, r.evidence) for r in entry.rows] == [
        ("C1", "met", "0", "hello")
    ]


def test_unmet_exit_1_stays_active(repo: Path) -> None:
    path = make(
        repo,
        row("C1", "true", "exit 0"),
        row("C2", "echo 3 failed; exit 3", "exit 0"),
        row("R1", "docs/a.md", "explains it", kind="review"),
    )
    before = path.read_text()
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 1, done.stderr
    assert last_line(done.stdout) == (
        "verify-goal demo iteration 1: C1 met, C2 unmet, R1 unmet; status: active"
    )
    after = path.read_text()
    assert after.split("\n")[2] == before.split("\n")[2]  # status line unchanged: still active
    (entry,) = verify_entries(path)
    assert entry.rows[1].exit == "3" and entry.rows[1].evidence == "3 failed"
    assert entry.rows[2].evidence == "not reviewed: C2 is not met"
    assert entry.status is Status.ACTIVE


@pytest.mark.parametrize("status", ["draft", "paused", "met", "blocked", "exhausted"])
def test_not_active_is_refused_and_the_file_untouched(repo: Path, status: str) -> None:
    path = make(repo, row("C1", "touch ran", "exit 0"), status=status)
    before = path.read_bytes()
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 3
    if status == "met":  # no verify entry backs it: an error before anything else
        assert "only `goalfile verify` writes `met`" in done.stderr
    else:
        assert f"the goal is {status}, not active" in done.stderr
    assert path.read_bytes() == before
    assert not (repo / "ran").exists()
    assert "verify-goal" not in done.stdout


def test_row_without_check_is_refused(repo: Path) -> None:
    path = make(repo, row("C1", "touch ran", "exit 0"), row("C2", "", "exit 0"))
    before = path.read_bytes()
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 3
    assert "C2: no check" in done.stderr
    assert path.read_bytes() == before
    assert not (repo / "ran").exists()


def test_row_without_expected_is_refused(repo: Path) -> None:
    path = make(repo, row("C1", "touch ran", ""))
    before = path.read_bytes()
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 3
    assert "C1: no expected result" in done.stderr
    assert path.read_bytes() == before


def test_invalid_expected_is_refused_with_its_place(repo: Path) -> None:
    path = make(repo, row("C1", "touch ran", "exit 0; stdout has 'x'"))
    before = path.read_bytes()
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 3
    lines = before.decode().split("\n")
    line = next(n for n, text in enumerate(lines, start=1) if text.startswith("| C1 |"))
    assert f"{path}:{line}:" in done.stderr
    assert "fix: " in done.stderr
    assert path.read_bytes() == before
    assert not (repo / "ran").exists()


def test_error_row_exit_4_blocked(repo: Path) -> None:
    path = make(repo, row("C1", "true", "exit 0"), row("C2", "no-such-command-goalfile", "exit 0"))
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 4, done.stderr
    assert (
        last_line(done.stdout) == "verify-goal demo iteration 1: C1 met, C2 error; status: blocked"
    )
    assert parse_goal(path.read_text(), path="g").status is Status.BLOCKED
    (entry,) = verify_entries(path)
    assert entry.rows[1].exit == "127"
    assert entry.rows[1].evidence.startswith("command not found")


def test_exit_127_named_in_expected_is_met(repo: Path) -> None:
    path = make(repo, row("C1", "no-such-command-goalfile", "exit 127"))
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 met; status: met"


def test_shell_syntax_error_is_an_error_and_nothing_runs(repo: Path) -> None:
    path = make(repo, row("C1", "touch ran; echo (", "exit 0"))
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 4, done.stderr
    assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 error; status: blocked"
    (entry,) = verify_entries(path)
    assert entry.rows[0].exit == "-"
    assert "syntax error" in entry.rows[0].evidence
    assert not (repo / "ran").exists()


def test_last_allowed_iteration_still_verifies_with_its_number(repo: Path) -> None:
    path = make(repo, iterations="5", iterations_used=5)
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert last_line(done.stdout) == "verify-goal demo iteration 5: C1 met; status: met"
    assert "iterations_used: 5\n" in path.read_text()


# --------------------------------------------------------------------------- token budget


def test_token_budget_reached_via_option_exit_5(repo: Path) -> None:
    path = make(repo, row("C1", "touch ran", "exit 0"), tokens="1000")
    done = run_goalfile("verify", "--tokens-used", "1000", path, cwd=repo)
    assert done.returncode == 5, done.stderr
    assert last_line(done.stdout) == (
        "verify-goal demo iteration 1: C1 unmet; status: exhausted "
        "(token budget reached: 1000 of 1000 used)"
    )
    assert not (repo / "ran").exists()
    goal = parse_goal(path.read_text(), path="g")
    assert goal.status is Status.EXHAUSTED
    assert goal.tokens_used == 1000


def test_token_budget_reached_via_environment_exit_5(repo: Path) -> None:
    path = make(repo, row("C1", "touch ran", "exit 0"), tokens="1000")
    done = run_goalfile("verify", path, cwd=repo, env={"GOALFILE_TOKENS_USED": "5000"})
    assert done.returncode == 5, done.stderr
    assert last_line(done.stdout).endswith(
        "; status: exhausted (token budget reached: 5000 of 1000 used)"
    )
    assert not (repo / "ran").exists()


def test_token_budget_not_reached_runs_and_records_usage(repo: Path) -> None:
    path = make(repo, row("C1", "touch ran", "exit 0"), tokens="1000")
    done = run_goalfile("verify", path, cwd=repo, env={"GOALFILE_TOKENS_USED": "10"})
    assert done.returncode == 0, done.stderr
    assert (repo / "ran").exists()
    assert parse_goal(path.read_text(), path="g").tokens_used == 10


def test_finite_token_budget_without_usage_is_blocked(repo: Path) -> None:
    path = make(repo, row("C1", "touch ran", "exit 0"), tokens="1000")
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 4, done.stderr
    summary = last_line(done.stdout)
    assert summary.startswith("verify-goal demo iteration 1: C1 unmet; status: blocked (")
    assert "token budget of 1000 set but usage cannot be measured" in summary
    assert not (repo / "ran").exists()
    assert parse_goal(path.read_text(), path="g").status is Status.BLOCKED


# --------------------------------------------------------------------------- --no-write, --json


@pytest.mark.parametrize(("check", "code"), [("true", 0), ("false", 1)])
def test_no_write_on_a_draft_leaves_the_file_and_exits_by_the_result(
    repo: Path, check: str, code: int
) -> None:
    path = make(repo, row("C1", check, "exit 0"), status="draft")
    before = path.read_bytes()
    done = run_goalfile("verify", "--no-write", path, cwd=repo)
    assert done.returncode == code, done.stderr
    verdict = "met" if code == 0 else "unmet"
    status = "met" if code == 0 else "active"
    assert last_line(done.stdout) == f"verify-goal demo iteration 1: C1 {verdict}; status: {status}"
    assert path.read_bytes() == before


def test_json_document(repo: Path) -> None:
    path = make(repo, row("C1", "echo hi", "exit 0"), row("C2", "echo no >&2; exit 2", "exit 0"))
    done = run_goalfile("verify", "--json", path, cwd=repo)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)  # the whole of stdout is one document
    assert document["schema_version"] == 1
    assert document["summary"] == ("verify-goal demo iteration 1: C1 met, C2 unmet; status: active")
    assert document["status"] == "active" and document["exit_code"] == 1
    assert document["slug"] == "demo" and document["iteration"] == 1
    assert document["written"] is True
    rows = document["rows"]
    assert [r["id"] for r in rows] == ["C1", "C2"]
    for item in rows:
        assert {"id", "verdict", "command", "exit", "evidence"} <= set(item)
    assert rows[0]["verdict"] == "met" and rows[0]["command"] == "echo hi"
    assert rows[1]["exit"] == "2" and rows[1]["evidence"] == "no"
    assert rows[1]["output"]["stderr_tail"] == ["no"]
    assert len(verify_entries(path)) == 1


def test_json_on_refusal_is_one_error_document(repo: Path) -> None:
    path = make(repo, status="draft")
    done = run_goalfile("verify", "--json", path, cwd=repo)
    assert done.returncode == 3
    document = json.loads(done.stdout)
    assert document["schema_version"] == 1
    assert document["error"]["exit_code"] == 3
    assert document["error"]["file"] == str(path)


# --------------------------------------------------------------------------- the child process


def test_working_directory_from_frontmatter(repo: Path) -> None:
    (repo / "sub").mkdir()
    path = make(repo, row("C1", "pwd -P", "exit 0"), extra=["cwd: ../sub"])
    assert tails(verify_json(path, repo, "--no-write"))[0] == str((repo / "sub").resolve())


def test_working_directory_is_the_git_top_level(repo: Path) -> None:
    deep = repo / "goals" / "team" / "auth"
    path = write_goal(deep, goal_text(rows=[row("C1", "pwd -P", "exit 0")]))
    assert tails(verify_json(path, deep, "--no-write"))[0] == str(repo.resolve())


def test_working_directory_outside_git_is_the_folder_holding_goals(tmp_path: Path) -> None:
    folder = tmp_path / "plain" / "goals"
    path = write_goal(folder, goal_text(rows=[row("C1", "pwd -P", "exit 0")]))
    assert outside_git(folder), "tmp_path lies inside a git repository"
    document = verify_json(path, tmp_path, "--no-write")
    assert tails(document)[0] == str(folder.parent.resolve())


def test_working_directory_outside_git_and_goals_is_the_goal_folder(tmp_path: Path) -> None:
    folder = tmp_path / "plain" / "work"
    path = write_goal(folder, goal_text(rows=[row("C1", "pwd -P", "exit 0")]))
    assert outside_git(folder), "tmp_path lies inside a git repository"
    document = verify_json(path, tmp_path, "--no-write")
    assert tails(document)[0] == str(folder.resolve())


def test_goal_and_criterion_in_the_environment(repo: Path) -> None:
    path = make(
        repo, row("C7", 'printf \'%s\\n%s\\n\' "$GOALFILE_GOAL" "$GOALFILE_CRITERION"', "exit 0")
    )
    document = verify_json(path, repo, "--no-write")
    assert tails(document, "C7") == [str(path.resolve()), "C7"]


def test_stdin_is_closed(repo: Path) -> None:
    path = make(
        repo,
        row(
            "C1", 'if read line; then echo "read: $line"; else echo eof; fi', 'exit 0; prints "eof"'
        ),
    )
    done = run_goalfile("verify", path, cwd=repo, input="a secret on verify's stdin\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "secret" not in path.read_text()


def test_timeout_with_a_background_grandchild_is_an_error(repo: Path) -> None:
    pidfile = repo / "grandchild.pid"
    path = make(
        repo,
        row("C1", f"sh -c 'echo $$ > {pidfile}; exec sleep 60' & sleep 60", "exit 0"),
        extra=["timeout: 1"],
    )
    began = time.monotonic()
    # waiting for the sleeps would take 60 s: the run's limit and the bound lie well below that,
    # and well above the 1 s limit and 2 s grace however slow a loaded machine starts goalfile
    done = run_goalfile("verify", path, cwd=repo, timeout=50)
    took = time.monotonic() - began
    assert done.returncode == 4, done.stderr
    assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 error; status: blocked"
    assert took < 40
    (entry,) = verify_entries(path)
    assert entry.rows[0].exit == "timeout"
    wait_for(lambda: gone(int(pidfile.read_text())), timeout=5, what="the grandchild to end")


def test_a_background_child_holding_the_pipe_does_not_hang(repo: Path) -> None:
    path = make(repo, row("C1", "sleep 60 & echo started", 'exit 0; stdout contains "started"'))
    began = time.monotonic()
    done = run_goalfile("verify", path, cwd=repo, timeout=50)  # the sleep would take 60 s
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - began < 40


# --------------------------------------------------------------------------- concurrency, edits


def test_two_concurrent_verifies_are_both_recorded(repo: Path) -> None:
    path = make(repo, row("C1", "sleep 1; exit 1", "exit 0"))
    first = start_goalfile("verify", path, cwd=repo)
    second = start_goalfile("verify", path, cwd=repo)
    outs = [proc.communicate(timeout=60) for proc in (first, second)]
    assert [first.returncode, second.returncode] == [1, 1], outs
    for out, _ in outs:
        assert last_line(out) == "verify-goal demo iteration 1: C1 unmet; status: active"
    entries = verify_entries(path)
    assert len(entries) == 2
    assert all(e.rows[0].verdict.value == "unmet" for e in entries)
    assert (
        parse_goal(path.read_text(), path="g").criteria
        == parse_goal(goal_text(rows=[row("C1", "sleep 1; exit 1", "exit 0")]), path="g").criteria
    )


def test_a_second_verify_says_who_holds_the_lock(repo: Path) -> None:
    started = repo / "started"
    path = make(repo, row("C1", f"touch {started}; sleep 2", "exit 0"))
    first = start_goalfile("verify", path, cwd=repo)
    try:
        wait_for(started.exists, what="the first check to start")
        done = run_goalfile("verify", "--lock-wait", "0", path, cwd=repo)
        assert done.returncode == 3
        assert f"pid {first.pid}" in done.stderr
        assert "goalfile verify" in done.stderr
    finally:
        first.communicate(timeout=60)
    assert first.returncode == 0
    assert len(verify_entries(path)) == 1


def test_a_verify_refused_by_the_lock_names_its_command_line_waiting_longer(repo: Path) -> None:
    """A verify that waited its --lock-wait for another out was told "wait for it to finish,
    or raise --lock-wait", nothing to run. Its fix is its own command line with a longer
    --lock-wait, which, run by a shell as written while the other still holds the goal,
    waits for it and then verifies."""
    started, go = repo / "started", repo / "go"
    wait = f"until [ -e {go} ]; do sleep 0.02; done"
    check = f"[ -e {started} ] && exit 1; touch {started}; {wait}; exit 1"
    path = make(repo, row("C1", check, "exit 0"))
    first = start_goalfile("verify", path, cwd=repo)
    again: subprocess.Popen[str] | None = None
    try:
        wait_for(started.exists, what="the first check to start")
        done = run_goalfile("verify", "--lock-wait=0", path, "--jobs", "1", cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        fix = fix_of(done.stderr)
        assert fix == f"goalfile verify {path} --jobs 1 --lock-wait 600", done.stderr
        again = subprocess.Popen(
            fix, shell=True, cwd=repo, env=clean_env(WITH_GOALFILE), text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert again.stderr is not None
        waiting = again.stderr.readline()  # said before it waits, so the lock was held then
        assert "waiting for `goalfile verify`" in waiting, waiting
    finally:
        go.touch()
        first.communicate(timeout=60)
    assert first.returncode == 1  # C1 unmet
    assert again is not None
    out, err = again.communicate(timeout=60)
    assert again.returncode == 1, out + err  # it ran the check, now failing: C1 unmet
    assert len(verify_entries(path)) == 2


def test_a_no_write_verify_reads_while_another_verify_holds_the_lock(repo: Path) -> None:
    """`verify --no-write` writes nothing and takes no lock: it runs while a writing verify
    holds the goal, where a writing run would be refused at once with --lock-wait 0."""
    started, go = repo / "started", repo / "go"
    check = f"[ -e {started} ] && exit 0; touch {started}; while [ ! -e {go} ]; do sleep 0.02; done"
    path = make(repo, row("C1", check, "exit 0"))
    first = start_goalfile("verify", path, cwd=repo)
    try:
        wait_for(started.exists, what="the first check to start")
        before = path.read_bytes()
        done = run_goalfile("verify", "--no-write", "--lock-wait", "0", path, cwd=repo)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "locked by" not in done.stderr
        assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 met; status: met"
        assert path.read_bytes() == before
    finally:
        go.touch()
        first.communicate(timeout=60)
    assert first.returncode == 0
    assert len(verify_entries(path)) == 1


def test_an_edit_made_during_the_run_is_kept(repo: Path) -> None:
    started = repo / "started"
    path = make(repo, row("C1", f"touch {started}; sleep 1.5", "exit 0"), lessons="- first lesson")
    proc = start_goalfile("verify", path, cwd=repo)
    wait_for(started.exists, what="the check to start")
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("- a lesson written during the run\n")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    text = path.read_text()
    assert text.endswith("## Lessons\n- first lesson\n- a lesson written during the run\n")
    assert len(verify_entries(path)) == 1
    assert parse_goal(text, path="g").status is Status.MET


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_exits_130_or_143_leaves_the_file_and_no_child(
    repo: Path, signum: int, status: int
) -> None:
    child, grandchild = repo / "child.pid", repo / "grandchild.pid"
    path = make(
        repo,
        row(
            "C1",
            f"sh -c 'echo $$ > {grandchild}; exec sleep 60' & echo $$ > {child}; sleep 60",
            "exit 0",
        ),
    )
    before = path.read_bytes()
    proc = start_goalfile("verify", path, cwd=repo)
    wait_for(
        lambda: all(p.exists() and p.read_text().strip() for p in (child, grandchild)),
        what="the check and its grandchild to start",
    )
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == status, err
    assert "interrupted" in err
    assert path.read_bytes() == before
    for pidfile in (child, grandchild):
        pid = int(pidfile.read_text())
        wait_for(lambda pid=pid: gone(pid), timeout=5, what=f"pid {pid} to end")


# --------------------------------------------------------------------------- the file


def test_symlinked_goal_is_written_through_the_link_and_keeps_its_mode(repo: Path) -> None:
    real = write_goal(repo / "real", goal_text(), "target.md")
    real.chmod(0o640)
    link = repo / "goals" / "demo.md"
    link.symlink_to(Path("..") / "real" / "target.md")
    done = run_goalfile("verify", link, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink()
    assert os.readlink(link) == str(Path("..") / "real" / "target.md")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert parse_goal(real.read_text(), path="g").status is Status.MET
    assert not [p for p in (repo / "real").iterdir() if p.name != "target.md"]
    assert not [p for p in (repo / "goals").iterdir() if p.name != "demo.md"]


def test_the_contract_pin_refuses_an_edited_check(repo: Path) -> None:
    path = make(repo, row("C1", "true", "exit 0"), row("C2", "echo ok", "exit 0"), status="draft")
    done = run_goalfile("activate", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    text = path.read_text()
    assert "contract: sha256:" in text
    criteria_row = "| C2 | criterion of C2 | `echo ok` |"
    assert text.count(criteria_row) == 1
    path.write_text(text.replace(criteria_row, "| C2 | criterion of C2 | `echo ok \\|\\| true` |"))
    before = path.read_bytes()
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 3
    assert "contract changed" in done.stderr
    named = [line for line in done.stderr.splitlines() if "C2" in line and "echo ok" in line]
    assert named, done.stderr  # the changed row, with its command
    assert not [line for line in done.stderr.splitlines() if "C1" in line]
    assert path.read_bytes() == before


def test_a_goal_with_5000_entries_gets_its_entry_at_the_end_of_the_ledger(repo: Path) -> None:
    entry = "\n".join(
        [
            "### Iteration 0 (2026-11-30) by verify-goal",
            ledger.ROW_HEADER,  # the compact style goalfile wrote before: still read
            "|----|---------|---------|------|----------|",
            "| C1 | unmet | `true` | 1 | `no` |",
            "",
            "status: active",
        ]
    )
    path = make(repo, iterations_section="\n" + "\n\n".join([entry] * 5000), lessons="- keep")
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    entries = verify_entries(path)
    assert len(entries) == 5001
    assert entries[-1].iteration == 1 and entries[-1].status is Status.MET
    assert path.read_text().endswith(
        "status: met\ncontract: " + entries[-1].contract + "\n\n## Lessons\n- keep\n"
    )


# --------------------------------------------------------------------------- memory


MEMORY_WRAPPER = REPO / "bench" / "verify_peak.py"  # verify in-process, reporting its peak


def test_verify_of_a_gigabyte_of_output_stays_under_100_mb(repo: Path) -> None:
    """The one slow test: 1 GB through verify; peak RSS of the verify process itself."""
    path = make(repo, row("C1", "yes | head -c 1000000000", "exit 0"), status="draft")
    report = repo / "report.json"
    done = subprocess.run(
        [sys.executable, str(MEMORY_WRAPPER), str(report), str(path)],
        cwd=repo,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    measured = json.loads(report.read_text())
    assert measured["exit"] == 0, done.stdout + done.stderr
    document = json.loads(done.stdout)
    assert document["summary"] == "verify-goal demo iteration 1: C1 met; status: met"
    assert document["rows"][0]["output"]["stdout_bytes"] == 1_000_000_000
    assert measured["maxrss_kib"] < 100 * 1024, measured


# --------------------------------------------------------------------------- more of DESIGN §4–§6


def test_a_signalled_check_is_unmet_with_the_signal(repo: Path) -> None:
    path = make(repo, row("C1", "kill -TERM $$", "exit 0"))
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 1, done.stderr
    (entry,) = verify_entries(path)
    assert (entry.rows[0].verdict.value, entry.rows[0].exit) == ("unmet", "signal 15")


def test_at_most_twenty_output_lines_follow_the_table(repo: Path) -> None:
    path = make(repo, row("C1", "seq 1 100; exit 1", "exit 0"))
    before = path.read_text()
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 1, done.stderr
    added = path.read_text()[len(before.split("## Lessons")[0]) :]
    quoted = [line for line in added.split("\n") if line.startswith("    ")]
    assert [line.strip() for line in quoted] == [str(n) for n in range(81, 101)]
    (entry,) = verify_entries(path)
    assert entry.rows[0].evidence == "100"


def test_the_goal_time_limit_ends_a_long_check(repo: Path) -> None:
    path = make(repo, row("C1", "sleep 30", "exit 0"), row("C2", "touch ran", "exit 0"))
    began = time.monotonic()
    done = run_goalfile("verify", "--time-limit", "1", path, cwd=repo)
    assert time.monotonic() - began < 15
    assert done.returncode == 4, done.stderr
    assert last_line(done.stdout) == (
        "verify-goal demo iteration 1: C1 error, C2 error; status: blocked"
    )
    assert not (repo / "ran").exists()


def test_a_row_timeout_overrides_the_goal_timeout(repo: Path) -> None:
    text = goal_text(
        rows=[row("C1", "sleep 30", "exit 0"), row("C2", "sleep 0.1", "exit 0")],
        extra=["timeout: 60"],
    )
    text = text.replace(HEADER, HEADER + " timeout |").replace(RULE, RULE + "---------|")
    text = text.replace("| exit 0 | deterministic |\n| C2", "| exit 0 | deterministic | 1 |\n| C2")
    text = text.replace("| exit 0 | deterministic |\n", "| exit 0 | deterministic | |\n")
    path = write_goal(repo / "goals", text)
    assert [c.timeout for c in parse_goal(text, path="g").criteria] == [1.0, None]
    began = time.monotonic()
    done = run_goalfile("verify", path, cwd=repo)
    assert time.monotonic() - began < 15
    assert last_line(done.stdout) == (
        "verify-goal demo iteration 1: C1 error, C2 met; status: blocked"
    )
    (entry,) = verify_entries(path)
    assert entry.rows[0].exit == "timeout"


def test_the_goal_shell_runs_the_checks(repo: Path) -> None:
    check = row("C1", "[[ 3 -gt 2 ]] && echo bash", 'exit 0; prints "bash"')
    bash = make(repo, check, extra=["shell: /bin/bash"], name="bash.md")
    done = run_goalfile("verify", "--no-write", bash, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("extra", ["shell: /no/such/bash", "cwd: no-such-folder"])
def test_a_check_that_cannot_start_is_an_error(repo: Path, extra: str) -> None:
    path = make(repo, row("C1", "true", "exit 0"), extra=[extra])
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 4, done.stdout + done.stderr
    assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 error; status: blocked"
    (entry,) = verify_entries(path)
    assert entry.rows[0].exit == "-"
    assert entry.rows[0].evidence


def test_invalid_utf8_output_leaves_a_valid_utf8_file(repo: Path) -> None:
    path = make(repo, row("C1", "printf 'caf\\351 \\377\\376\\n'; exit 1", "exit 0"))
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 1, done.stderr
    text = path.read_bytes().decode("utf-8")  # strict: nothing undecodable was written
    (entry,) = verify_entries(path)
    assert entry.rows[0].evidence.startswith("caf\ufffd")
    assert "caf\ufffd" in text


def test_a_missing_iterations_section_is_created_before_lessons(repo: Path) -> None:
    path = make(repo, iterations_section=None, lessons="- keep")
    before = path.read_text()
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    after = path.read_text()
    head = before.split("## Lessons")[0]
    assert after.startswith(head.replace("status: active ", "status: met    "))
    assert after.endswith(
        "status: met\ncontract: " + verify_entries(path)[0].contract + "\n\n## Lessons\n- keep\n"
    )
    assert after.count("## Iterations") == 1


def test_a_crlf_goal_stays_crlf(repo: Path) -> None:
    text = goal_text(lessons="- keep").replace("\n", "\r\n")
    path = repo / "goals" / "crlf.md"
    path.write_bytes(text.encode())
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    after = path.read_bytes().decode()
    assert "\n" not in after.replace("\r\n", "")
    before_lines, after_lines = text.split("\r\n"), after.split("\r\n")
    changed = [(a, b) for a, b in zip(before_lines[:12], after_lines[:12], strict=True) if a != b]
    assert changed == [
        (
            "status: active            # draft | active | paused | met | blocked | exhausted",
            "status: met               # draft | active | paused | met | blocked | exhausted",
        )
    ]
    assert after.endswith("\r\n\r\n## Lessons\r\n- keep\r\n")
    (entry,) = verify_entries(path)
    assert entry.status is Status.MET
