"""An escaped quote (or slash) that reads as the end of a clause: `stdout lacks "failed\\";
stdout lacks \\"error"` reads as two `lacks` clauses and is one, whose TEXT (`failed"; stdout
lacks "error`) no run prints, so it never fails. lint, activate, verify and audit refuse it
(`merged-clauses`), and the `fix:` they name, written as it is, judges the output as it reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git, run_goalfile
from tests.test_lint_unseen import (
    GOAL,
    accepted_everywhere,
    activate_and_verify_refuse,
    draft,
    verifies_all_unmet,
)

MERGED = 'exit 0; stdout contains "passed"; stdout lacks "failed\\"; stdout lacks \\"error"'
SPLIT = 'exit 0; stdout contains "passed"; stdout lacks "failed"; stdout lacks "error"'


def tests_script(repo: Path) -> None:
    script = repo / "run-tests"
    script.write_text('#!/bin/sh\necho "1 passed, 2 failed, 1 error"\n')
    script.chmod(0o755)


@pytest.mark.parametrize(
    ("expected", "fixed"),
    [
        (MERGED, SPLIT),
        (MERGED.replace(";", " and"), SPLIT.replace(";", " and")),
        ('exit 0; stdout lacks "failed\\",stdout lacks \\"error"', None),
    ],
)
def test_a_text_that_reads_as_more_clauses_is_refused_and_the_fix_works(
    repo: Path, expected: str, fixed: str | None
) -> None:
    tests_script(repo)
    path = draft(repo, f"| C1 | suite passes | `./run-tests` | `{expected}` | |\n")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    report = linted.stdout + linted.stderr
    assert linted.returncode == 3, report
    assert "goals/g.md:16:" in report and "C1: expected" in report, report
    assert 'is one clause, whose text `failed"' in report, report
    fix = report.split("; write the clauses apart, as they read: `", 1)[1].split("`\n")[0]
    assert fix == (fixed or 'exit 0; stdout lacks "failed",stdout lacks "error"'), fix
    # audit fails on it, as on any contract that reads otherwise than it runs
    git(repo, "commit", "-q", "--allow-empty", "-m", "before the goal")
    audited = run_goalfile("audit", "--json", "--against", "HEAD", cwd=repo)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    found = {f["code"] for file in json.loads(audited.stdout)["files"] for f in file["findings"]}
    assert "merged-clauses" in found, found
    # activate refuses it, and so does verify of the same row in an active goal
    activate_and_verify_refuse(repo, path)
    assert "merged-clauses" in run_goalfile("lint", "--json", GOAL, cwd=repo).stdout
    # the fix as written: lint is clean, and the run printing "2 failed" is unmet
    path.write_text(
        path.read_text(encoding="utf-8")
        .replace(expected, fix)
        .replace("status: active", "status: draft")
    )
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    verifies_all_unmet(repo, 1)


def test_an_escaped_slash_in_a_regex_that_reads_as_more_clauses_is_refused(repo: Path) -> None:
    draft(
        repo,
        "| C1 | c | `./run-tests` | "
        "`stdout matches /passed\\/; exit 0; stdout matches \\/ok/` | |\n",
    )
    linted = run_goalfile("lint", GOAL, cwd=repo)
    report = linted.stdout + linted.stderr
    assert linted.returncode == 3, report
    assert "merged-clauses" in run_goalfile("lint", "--json", GOAL, cwd=repo).stdout
    assert "holds 1 clause, not the ones it reads as" in report, report


def test_an_escaped_quote_that_is_only_text_is_accepted(repo: Path) -> None:
    (repo / "say").write_text("#!/bin/sh\necho 'say \"hi\"; done'\n")
    (repo / "say").chmod(0o755)
    draft(
        repo,
        '| C1 | c | `./say` | `exit 0; stdout contains "say \\"hi\\"; done"` | |\n'
        '| C2 | c | `./say` | `exit 0; stdout matches /^say "hi"; done$/` | |\n',
    )
    accepted_everywhere(repo)
