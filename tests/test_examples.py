"""The shipped examples, verified for real on a copy of the checkout."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from goalfile import ledger
from goalfile.model import Entry, Status
from goalfile.parse import ledger_region, parse_goal
from tests.conftest import REPO, last_line, make_git_repo, run_goalfile


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "checkout")
    for name in ("README.md",):
        shutil.copy(REPO / name, root / name)
    for folder in ("skills", "templates", "examples", "docs"):
        shutil.copytree(REPO / folder, root / folder)
    return root


def newest_entry(path: Path) -> Entry:
    text = path.read_text()
    region = ledger_region(text)
    assert region is not None
    return next(ledger.entries_reversed(text, *region))


def test_the_met_example_is_met_and_audits_clean(checkout: Path) -> None:
    done = run_goalfile("verify", "examples/hello.md", cwd=checkout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert last_line(done.stdout) == (
        "verify-goal hello iteration 1: C1 met, C2 met, C3 met, C4 met; status: met"
    )
    entry = newest_entry(checkout / "examples" / "hello.md")
    assert (entry.by, entry.iteration, entry.status) == ("verify-goal", 1, Status.MET)
    assert [row.exit for row in entry.rows] == ["0", "0", "0", "0"]
    assert parse_goal((checkout / "examples" / "hello.md").read_text(), path="h").status.value == (
        "met"
    )
    audited = run_goalfile("audit", "examples/hello.md", cwd=checkout)
    assert audited.returncode == 0, audited.stdout + audited.stderr


def test_the_unmet_example_shows_unmet_and_error_rows(checkout: Path) -> None:
    done = run_goalfile("verify", "examples/unmet.md", cwd=checkout)
    assert done.returncode == 4, done.stdout + done.stderr
    assert last_line(done.stdout) == (
        "verify-goal unmet-demo iteration 1: C1 unmet, C2 unmet, C3 error, C4 error, C5 error, "
        "R1 unmet; status: blocked"
    )
    entry = newest_entry(checkout / "examples" / "unmet.md")
    assert [(row.id, row.verdict.value, row.exit) for row in entry.rows] == [
        ("C1", "unmet", "0"),
        ("C2", "unmet", "3"),
        ("C3", "error", "127"),
        ("C4", "error", "timeout"),
        ("C5", "error", "-"),
        ("R1", "unmet", "-"),
    ]
