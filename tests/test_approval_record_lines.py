"""An approval entry whose record does not read back is reported with the line that does not
read back, by `lint` (text and `--json`), `audit` and `verify`: the real goalfile on a goal
activated in a real git repository, then edited as a hand would edit it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import copy_of, goal_text, made_once, row, run_goalfile

GOAL = "goals/rec.md"


def make_activated(repo: Path, env: dict[str, str]) -> None:
    (repo / "goals").mkdir()
    (repo / "goals" / "rec.md").write_text(
        goal_text(
            slug="rec",
            status="draft",
            iterations_used=0,
            rows=(
                row("C1", "true", "exit 0"),
                row("C2", "echo ok", 'exit 0; stdout contains "ok"'),
            ),
            extra=("timeout: 30",),
        )
    )
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def made_activated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, make_activated)


@pytest.fixture
def activated(tmp_path: Path, made_activated: Path) -> Path:
    """A copy of the repository :func:`make_activated` makes once for the module: goals/rec.md
    activated."""
    return copy_of(made_activated, tmp_path / "repo")


def _edit(repo: Path, find: str, replace: str) -> int:
    """Replace the first line of the ledger that starts with ``find`` (after ``## Iterations``)
    by ``replace``; returns its 1-based line number."""
    path = repo / GOAL
    lines = path.read_text().split("\n")
    ledger = lines.index("## Iterations")
    at = next(n for n in range(ledger, len(lines)) if lines[n].startswith(find))
    lines[at] = replace
    path.write_text("\n".join(lines))
    return at + 1


def _row_line(repo: Path, cid: str) -> str:
    lines = (repo / GOAL).read_text().split("\n")
    ledger = lines.index("## Iterations")
    return next(line for line in lines[ledger:] if line.startswith(f"| {cid} "))


def _assert_named(repo: Path, line: int, what: str) -> None:
    lint = run_goalfile("lint", GOAL, cwd=repo)
    assert lint.returncode == 3, lint.stdout + lint.stderr
    assert f"{GOAL}:{line}: error: the approval entry" in lint.stdout + lint.stderr, (
        lint.stdout + lint.stderr
    )
    assert what in lint.stdout + lint.stderr

    as_json = run_goalfile("lint", "--json", GOAL, cwd=repo)
    findings = json.loads(as_json.stdout)["files"][0]["findings"]
    invalid = [f for f in findings if f["code"] == "approval-record-invalid"]
    assert len(invalid) == 1 and invalid[0]["line"] == line, findings

    audit = run_goalfile("audit", "--json", GOAL, cwd=repo)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    found = json.loads(audit.stdout)["files"][0]["findings"]
    invalid = [f for f in found if f["code"] == "approval-record-invalid"]
    assert invalid and invalid[0]["line"] == line, found
    assert "FILE" not in invalid[0]["hint"] and GOAL in invalid[0]["hint"], invalid[0]

    before = (repo / GOAL).read_bytes()
    verify = run_goalfile("verify", GOAL, cwd=repo)
    assert verify.returncode == 3, verify.stdout + verify.stderr
    assert f"{GOAL}:{line}: the approval entry" in verify.stderr, verify.stderr
    assert "Traceback" not in verify.stderr
    assert (repo / GOAL).read_bytes() == before


def test_a_recorded_timeout_edited_to_text_is_named_on_its_row(activated: Path) -> None:
    old = _row_line(activated, "C2")
    line = _edit(activated, "| C2 ", old.replace("| -       |", "| abc     |"))
    _assert_named(activated, line, "row C2 has the timeout `abc`")


def test_a_recorded_row_with_a_cell_deleted_is_named_on_its_row(activated: Path) -> None:
    old = _row_line(activated, "C1")
    line = _edit(activated, "| C1 ", old.rsplit("|", 2)[0] + "|")
    _assert_named(activated, line, "cells, not 5")


def test_a_recorded_run_setting_edited_is_named_on_its_line(activated: Path) -> None:
    line = _edit(activated, "- timeout:", "- timeout: `soon`")
    _assert_named(activated, line, "the run setting timeout is `soon`")


def test_a_row_recorded_twice_is_named_on_the_second(activated: Path) -> None:
    c1 = _row_line(activated, "C1")
    line = _edit(activated, "| C2 ", c1)
    _assert_named(activated, line, "lists the row C1 twice")


def test_a_second_row_of_one_id_that_differs_is_named_on_its_line(activated: Path) -> None:
    """A hand-added second C1 row rarely repeats the first word for word: it was named by
    the entry's heading (the search for a second copy of its text failed)."""
    c1 = _row_line(activated, "C1")
    line = _edit(activated, "| C2 ", c1.replace("`true`", "`false`"))
    _assert_named(activated, line, "lists the row C1 twice")


def test_a_row_recorded_three_times_is_named_on_the_second(activated: Path) -> None:
    c1 = _row_line(activated, "C1")
    path = activated / GOAL
    text = path.read_text()
    path.write_text(text.replace(c1 + "\n", c1 + "\n" + c1 + "\n", 1))
    lines = path.read_text().split("\n")
    second = [n for n, line in enumerate(lines, 1) if line == c1][1]
    path.write_text(path.read_text().replace(c1 + "\n", c1 + "\n" + c1 + "\n", 1))
    _assert_named(activated, second, "lists the row C1 twice")
