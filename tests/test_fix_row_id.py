"""A row id the goal has no criterion for: the fix is a command, not a list of ids.

`goalfile impossible goals/demo.md c2 ...` was refused with the fix `ids: C1, C2`, nothing to
run. An id that differs from one of the goal's only in case is that row: the fix is the same
command line with it, which works as written. Any other id gets the command that lists the
goal's rows.
"""

from __future__ import annotations

from pathlib import Path

from conftest import fix_of, goal_text, make_git_repo, row, run_goalfile, shell, write_goal


def make(tmp_path: Path) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    rows = [row("C1", "true", "exit 0"), row("C2", "false", "exit 0")]
    write_goal(repo / "goals", goal_text(status="active", rows=rows))
    return repo


def test_a_row_id_in_the_wrong_case_gets_its_command_line_with_the_row(tmp_path: Path) -> None:
    repo = make(tmp_path)
    before = (repo / "goals" / "demo.md").read_bytes()
    done = run_goalfile("impossible", "goals/demo.md", "c2", "--reason", "no GPU", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert (repo / "goals" / "demo.md").read_bytes() == before
    fix = fix_of(done.stderr)
    assert fix == "goalfile impossible goals/demo.md C2 --reason 'no GPU'", done.stderr
    ran = shell(fix, repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "impossible:\n  C2: no GPU" in (repo / "goals" / "demo.md").read_text(), ran.stdout


def test_an_unknown_row_id_gets_the_command_that_lists_the_rows(tmp_path: Path) -> None:
    repo = make(tmp_path)
    done = run_goalfile("impossible", "goals/demo.md", "C9", "--reason", "x", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    fix = fix_of(done.stderr)
    assert fix == "goalfile status goals/demo.md", done.stderr
    ran = shell(fix, repo)
    assert ran.returncode in (0, 1), ran.stdout + ran.stderr  # 1: active with unmet rows
    listed = [line.split()[0] for line in ran.stdout.splitlines() if line.startswith("  C")]
    assert listed == ["C1", "C2"], ran.stdout


def test_a_goal_file_removed_during_verify_names_the_git_checkout_of_its_path(
    tmp_path: Path,
) -> None:
    """The goal file removed by its own check: the fix was `git checkout -- FILE`, a
    placeholder; it names the goal's path, and run as written puts the file back."""
    repo = make_git_repo(tmp_path / "repo")
    write_goal(
        repo / "goals", goal_text(status="active", rows=[row("C1", "rm goals/demo.md", "exit 0")])
    )
    before = (repo / "goals" / "demo.md").read_bytes()
    done = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "was removed during the run" in done.stderr, done.stderr
    fix = fix_of(done.stderr)
    assert fix == "git checkout -- goals/demo.md", done.stderr
    ran = shell(fix, repo)
    assert ran.returncode == 0, ran.stderr
    assert (repo / "goals" / "demo.md").read_bytes() == before
