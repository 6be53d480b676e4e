"""A criteria header that names a column goalfile reads twice (`check` and `Check`) is refused,
naming the header's line: a reader takes the first column, goalfile read the last. A table
with the criteria columns outside the criteria section is not read: an error before the
ledger, where a reader takes it for criteria, a warning in `## Lessons`. Real goalfile
processes on real files in a real git repository."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import clean_env, frontmatter, run_goalfile

HEAD = (
    frontmatter("d", created="2026-12-02")
    + """# Goal: the suite passes

## Non-goals
- `tests/` stays unchanged.

## Acceptance criteria
"""
)
TAIL = """
## Plan

## Token accounting

## Iterations

## Lessons
"""
TWICE = {
    "check and expected": (
        "| id | criterion | check | expected | kind | notes | Check | Expected |\n"
        "|----|-----------|-------|----------|------|-------|-------|----------|\n"
        "| C1 | suite passes | `test -f ok` | exit 0; stdout empty | deterministic "
        "| see the CI job | `true` | exit 0 |\n",
        "check, expected",
    ),
    "kind": (
        "| id | criterion | check | expected | kind | `Kind` |\n"
        "|----|-----------|-------|----------|------|--------|\n"
        "| C1 | suite passes | `test -f ok` | exit 0 | deterministic | review |\n",
        "kind",
    ),
}


def goal(tmp_path: Path, body: str) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=clean_env())
    (tmp_path / "goals").mkdir()
    path = tmp_path / "goals" / "d.md"
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def lint(tmp_path: Path) -> tuple[int, list[dict[str, object]]]:
    done = run_goalfile("lint", "--json", "goals/d.md", cwd=tmp_path)
    return done.returncode, json.loads(done.stdout)["files"][0]["findings"]


@pytest.mark.parametrize("case", TWICE)
def test_a_column_named_twice_is_refused_on_its_line(tmp_path: Path, case: str) -> None:
    table, named = TWICE[case]
    path = goal(tmp_path, table + TAIL)
    before = path.read_bytes()
    code, found = lint(tmp_path)
    assert code == 3
    columns = [f for f in found if f["code"] == "columns"]
    assert [(f["severity"], f["line"]) for f in columns] == [("error", 17)], found
    word = "column" if "," not in named else "columns"
    assert f"names the {word} {named} twice" in str(columns[0]["message"])
    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/d.md", cwd=tmp_path)
        assert done.returncode == 3, done.stdout + done.stderr
        assert f"goals/d.md:17:1: the criteria table names the {word} {named}" in done.stderr
        assert "started" not in done.stderr + done.stdout
    assert path.read_bytes() == before


def test_a_column_goalfile_does_not_read_may_be_named_twice(tmp_path: Path) -> None:
    goal(
        tmp_path,
        "| id | criterion | check | expected | notes | Notes |\n"
        "|----|-----------|-------|----------|-------|-------|\n"
        "| C1 | suite passes | `true` | exit 0 | a | b |\n" + TAIL,
    )
    assert lint(tmp_path)[0] == 0
    assert run_goalfile("activate", "goals/d.md", cwd=tmp_path).returncode == 0


CRITERIA = (
    "| id | criterion | check | expected |\n|----|-----------|-------|----------|\n"
    "| C1 | suite passes | `true` | exit 0 |\n"
)
OTHER = (
    "| id | criterion | check | expected |\n|----|-----------|-------|----------|\n"
    "| C2 | strict | `test -f ok` | exit 0 |\n"
)


@pytest.mark.parametrize("heading", ["## Suite\n", "Suite\n-----\n"])
def test_a_criteria_table_under_another_section_is_an_error(tmp_path: Path, heading: str) -> None:
    path = goal(tmp_path, CRITERIA + "\n" + heading + "\n" + OTHER + TAIL)
    line = (HEAD + CRITERIA + "\n" + heading + "\n").count("\n") + 1
    code, found = lint(tmp_path)
    assert code == 3
    ignored = [f for f in found if f["code"] == "criteria-table-ignored"]
    assert [(f["severity"], f["line"]) for f in ignored] == [("error", line)], found
    assert "under `## Suite`" in str(ignored[0]["message"])
    assert "under its last row, line 19)" in str(ignored[0]["message"])
    done = run_goalfile("activate", "goals/d.md", cwd=tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"goals/d.md:{line}:1:" in done.stderr
    assert "status: draft" in path.read_text(encoding="utf-8")


def test_a_criteria_table_in_the_lessons_is_a_warning(tmp_path: Path) -> None:
    goal(tmp_path, CRITERIA + TAIL + "\n" + OTHER)
    line = (HEAD + CRITERIA + TAIL + "\n").count("\n") + 1
    code, found = lint(tmp_path)
    assert code == 0
    ignored = [f for f in found if f["code"] == "criteria-table-ignored"]
    assert [(f["severity"], f["line"]) for f in ignored] == [("warning", line)], found
    assert run_goalfile("activate", "goals/d.md", cwd=tmp_path).returncode == 0
