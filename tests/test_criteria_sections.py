"""goalfile reads criteria only from the first table of the first criteria section; every
Markdown view also shows a second `## Acceptance criteria` section and a second table. Such a
second section or table is a lint error naming its line, with a fix that merges its rows into
the criteria table, and `activate` refuses the file, so no criterion a reader sees goes
unchecked. Real goalfile processes on real files in a real git repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import frontmatter, make_git_repo, run_goalfile

GOAL = "goals/g.md"

HEAD = (
    frontmatter("g")
    + """# Goal: done.txt exists

## Non-goals
- nothing outside this repository changes

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | one | `true` | exit 0 | deterministic |
"""
)
TAIL = """
## Plan

## Iterations

## Lessons
"""
PIPELESS = """id | criterion | check | expected | kind
---|---|---|---|---
C2 | done.txt exists | `test -f done.txt` | exit 0 | deterministic
"""

# each is HEAD, then what GitHub shows as criteria and goalfile never reads, then TAIL; with the
# line lint names
IGNORED = {
    "second section holding a list": (
        "\n## Acceptance criteria\n\n- C2: `test -f done.txt` exits 0\n",
        "criteria-section-ignored",
        21,
    ),
    "second section named Criteria holding text": (
        "\n## Criteria\n\nC2 also: done.txt exists (`test -f done.txt`).\n",
        "criteria-section-ignored",
        21,
    ),
    "second table without outer pipes": (
        "\nMore:\n\n" + PIPELESS,
        "hidden-structure",
        24,
    ),
    "second section holding a table without outer pipes": (
        "\n## Acceptance criteria\n\n" + PIPELESS,
        "hidden-structure",
        24,
    ),
}


def write(tmp_path: Path, text: str) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "goals").mkdir()
    (repo / GOAL).write_text(text, encoding="utf-8")
    return repo


@pytest.mark.parametrize("case", sorted(IGNORED))
def test_a_second_criteria_section_or_table_is_an_error(tmp_path: Path, case: str) -> None:
    extra, code, line = IGNORED[case]
    text = HEAD + extra + TAIL
    repo = write(tmp_path, text)
    done = run_goalfile("lint", "--json", GOAL, cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    findings = json.loads(done.stdout)["files"][0]["findings"]
    errors = [f for f in findings if f["severity"] == "error"]
    assert [(f["code"], f["line"]) for f in errors] == [(code, line)], errors
    # the fix merges the rows into the criteria table: it names the table's last row
    said = f"{errors[0]['message']} {errors[0]['hint'] or ''}"
    assert "under its last row (line 19)" in said, errors[0]
    text_out = run_goalfile("lint", GOAL, cwd=repo)
    assert f"{GOAL}:{line}:1: error:" in text_out.stdout + text_out.stderr
    activate = run_goalfile("activate", GOAL, cwd=repo)
    assert activate.returncode == 3, activate.stdout + activate.stderr
    assert (repo / GOAL).read_text(encoding="utf-8") == text  # untouched


def test_the_rows_merged_into_the_criteria_table_are_checked(tmp_path: Path) -> None:
    merged = HEAD + "| C2 | done.txt exists | `test -f done.txt` | exit 0 | deterministic |\n"
    repo = write(tmp_path, merged + TAIL)
    done = run_goalfile("lint", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert "C2 unmet" in done.stdout + done.stderr, done.stdout + done.stderr


def test_prose_and_an_empty_second_heading_are_not_flagged(tmp_path: Path) -> None:
    text = HEAD.replace(
        "## Acceptance criteria\n", "## Acceptance criteria\nEach row is one check.\n\n"
    )
    repo = write(tmp_path, text + "\n## Criteria\n" + TAIL)
    done = run_goalfile("lint", GOAL, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
