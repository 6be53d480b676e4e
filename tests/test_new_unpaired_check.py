"""`goalfile new` given a --check without its --expected makes no expected result up.

`goalfile new g x --check 'pytest -q'` was refused with the fix `goalfile new g x --check
'pytest -q' --expected 'exit 0'`: a contract the person never typed, offered to be run as
written, and with `--check A --check B --expected X` the fix gave A an `exit 0` of its own.
Each --expected belongs to the --check it follows (as `--help` says); a --check followed by
none is written as whatever else `new` is not given, `FILL IN: ...` (lint warns about it,
activate refuses it), and the `next:` line names it. With --activate, nothing is written and
the fix is the same command line without --activate, which writes that draft.

Real goalfile processes.
"""

from __future__ import annotations

from pathlib import Path

from conftest import fix_of, run_goalfile, shell

PLACEHOLDER = "FILL IN: what a passing run looks like, e.g. exit 0"


def _rows(repo: Path, slug: str) -> list[str]:
    text = (repo / "goals" / f"{slug}.md").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("| C")]


def test_a_check_without_expected_is_a_draft_with_it_to_fill_in(repo: Path) -> None:
    done = run_goalfile("new", "g", "x", "--check", "test -f ok", cwd=repo)
    assert done.returncode == 0, done.stderr  # was 2, with `--expected 'exit 0'` made up
    assert "fix:" not in done.stderr and "exit 0'" not in done.stderr
    assert _rows(repo, "g") == [
        f"| C1 | `test -f ok` | `test -f ok` | {PLACEHOLDER} | deterministic |"
    ]
    assert "C1's expected result in goals/g.md" in done.stderr, done.stderr
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 3


def test_each_expected_stays_with_the_check_it_follows(repo: Path) -> None:
    args = ("--check", "true", "--check", "test -d .", "--expected", "exit 0; stdout empty")
    done = run_goalfile("new", "two", "x", *args, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert _rows(repo, "two") == [
        f"| C1 | `true` | `true` | {PLACEHOLDER} | deterministic |",
        "| C2 | `test -d .` | `test -d .` | exit 0; stdout empty | deterministic |",
    ]


def test_activate_without_an_expected_gives_the_draft_as_its_fix(repo: Path) -> None:
    args = ("new", "a", "x", "--check", "true", "--non-goal", "n", "--activate")
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == 2 and not (repo / "goals" / "a.md").exists(), done.stderr
    assert "--activate needs C1's expected result; nothing was written" in done.stderr
    fix = fix_of(done.stderr)
    assert fix == "goalfile new a x --check true --non-goal n", done.stderr
    assert shell(fix, repo).returncode == 0  # as written: the draft, FILL IN where it goes
    goal = repo / "goals" / "a.md"
    goal.write_text(goal.read_text(encoding="utf-8").replace(PLACEHOLDER, "exit 0"), "utf-8")
    assert run_goalfile("activate", "goals/a.md", cwd=repo).returncode == 0
    bare = run_goalfile("new", "b", "x", "--activate", cwd=repo)
    assert bare.returncode == 2, bare.stderr  # its fix was `goalfile new b "END STATE" --check
    assert shell(fix_of(bare.stderr), repo).returncode == 0  # CMD ...`, placeholders to type
    assert (repo / "goals" / "b.md").is_file()


def test_an_expected_that_follows_no_check_is_refused(repo: Path) -> None:
    args = ("--expected", "exit 0", "--check", "true", "--expected", "exit 1")
    done = run_goalfile("new", "c", "x", *args, cwd=repo)
    assert done.returncode == 2 and not (repo / "goals" / "c.md").exists(), done.stderr
    assert "1 --check but 2 --expected" in done.stderr
    # one of each, the --expected typed first, pairs by count as it always did
    done = run_goalfile("new", "d", "x", "--expected", "exit 1", "--check", "false", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert _rows(repo, "d") == ["| C1 | `false` | `false` | exit 1 | deterministic |"]


def test_an_expected_after_another_with_as_many_checks_is_refused_not_moved(repo: Path) -> None:
    """`--check A --expected X --expected Y --check B`: the counts match, and the rows were
    read in turn, B with Y, an expected result typed for A given to B, and nothing said."""
    args = ("--check", "true", "--expected", "exit 0", "--expected", "exit 1", "--check", "false")
    done = run_goalfile("new", "m", "x", *args, cwd=repo)
    assert done.returncode == 2, done.stderr
    assert not (repo / "goals" / "m.md").exists()
    assert "--expected 'exit 1' follows another --expected" in done.stderr, done.stderr
    assert fix_of(done.stderr) == "goalfile new --help"
    # the same options in their order are written as typed
    args = ("--check", "true", "--expected", "exit 0", "--check", "false", "--expected", "exit 1")
    done = run_goalfile("new", "m", "x", *args, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert _rows(repo, "m") == [
        "| C1 | `true` | `true` | exit 0 | deterministic |",
        "| C2 | `false` | `false` | exit 1 | deterministic |",
    ]
