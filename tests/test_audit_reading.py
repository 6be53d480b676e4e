"""`audit --against REF` of a change that adds a goal reports lint's errors of a contract that
reads otherwise than it runs, wherever lint finds them (a cell, the criteria header, an HTML
block in the criteria section), and fails on them; a lint warning of the same rules (a decoy
column a reader may take for the check) is not an audit finding. Real goalfile processes on a
real git repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import frontmatter, git, make_git_repo, run_goalfile

GOAL = "goals/g.md"
TAIL = "\n## Plan\n\n## Iterations\n\n## Lessons\n"
ROW = "| C1 | one | `true` | exit 0 | deterministic |\n"
CRITERIA = {
    "an HTML block around the table": (
        "<details>\n\n| id | criterion | check | expected | kind |\n"
        "|----|-----------|-------|----------|------|\n" + ROW + "\n</details>\n",
        "hidden-markup",
    ),
    "a look-alike letter in the header": (
        "| id | criterion | ch\u0435ck | check | expected | kind |\n"
        "|----|-----------|-------|-------|----------|------|\n"
        "| C1 | one | `pytest -q` | `true` | exit 0 | deterministic |\n",
        "unseen-text",
    ),
}


def added(tmp_path: Path, criteria: str) -> Path:
    """A repository with one commit, and a goal with these criteria added since."""
    repo = make_git_repo(tmp_path / "repo")
    git(repo, "commit", "-q", "--allow-empty", "-m", "before the goal")
    (repo / "goals").mkdir()
    text = frontmatter("g") + "# Goal: x\n\n## Non-goals\n- none\n\n## Acceptance criteria\n"
    (repo / GOAL).write_text(text + criteria + TAIL, encoding="utf-8")
    return repo


def lint_codes(repo: Path, severity: str) -> set[tuple[int, str]]:
    done = run_goalfile("lint", "--json", GOAL, cwd=repo)
    found = json.loads(done.stdout)["files"][0]["findings"]
    return {(f["line"], f["code"]) for f in found if f["severity"] == severity}


def audit_codes(repo: Path) -> tuple[int, set[tuple[int, str]]]:
    done = run_goalfile("audit", "--json", "--against", "HEAD", cwd=repo)
    document = json.loads(done.stdout)
    found = {(f["line"], f["code"]) for file in document["files"] for f in file["findings"]}
    return done.returncode, found


@pytest.mark.parametrize("case", CRITERIA)
def test_lint_errors_of_the_class_fail_the_audit(tmp_path: Path, case: str) -> None:
    criteria, code = CRITERIA[case]
    repo = added(tmp_path, criteria)
    errors = {found for found in lint_codes(repo, "error") if found[1] == code}
    assert errors, lint_codes(repo, "error")
    status, found = audit_codes(repo)
    assert status == 1, found
    assert errors <= found, (errors, found)


def test_a_decoy_column_warning_is_no_audit_finding(tmp_path: Path) -> None:
    repo = added(
        tmp_path,
        "| id | criterion | shown | check | expected | kind |\n"
        "|----|-----------|-------|-------|----------|------|\n"
        "| C1 | one | `pytest -q` | `true` | exit 0 | deterministic |\n",
    )
    assert {code for _, code in lint_codes(repo, "warning")} == {"decoy-column"}
    assert lint_codes(repo, "error") == set()
    status, found = audit_codes(repo)
    assert (status, found) == (0, set())
