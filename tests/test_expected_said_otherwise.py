"""An `expected` clause said in other words got a "did you mean" by spelling alone, and for some
of them it meant the opposite: `stdout has "x"` was offered `stdout lacks "TEXT"`, `stdout does
not contain "x"` was offered `stdout contains "TEXT"`, and `exit 0 with no output` was offered
`exit nonzero`; `success` was offered `stdout matches /REGEX/`. The clause meant is offered now,
with the text typed, and it is what goalfile then judges: the row is met exactly when the words
typed say it should be."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import run_goalfile

CASES = [
    ('stdout has "x"', 'stdout contains "x"', True),
    ('stdout includes "x"', 'stdout contains "x"', True),
    ("stderr shows warning", 'stderr contains "warning"', False),
    ('stdout does not contain "x"', 'stdout lacks "x"', False),
    ("stdout doesn't contain y", 'stdout lacks "y"', True),
    ('output has no "Traceback"', 'output lacks "Traceback"', True),
    ("success", "exit 0", True),
    ("fails", "exit nonzero", False),
    # an exit clause with more words after it was offered `exit nonzero`, the opposite
    ("exit 0 with no output", "exit 0; output empty", False),
    ('exit 0 with output "x"', 'exit 0; output contains "x"', True),
    ("exit 0 ok", "exit 0", True),
]


@pytest.mark.parametrize(("typed", "meant", "met"), CASES)
def test_a_clause_in_other_words_is_offered_the_clause_it_means(
    tmp_path: Path, typed: str, meant: str, met: bool
) -> None:
    args = ["new", "g", "s", "--check", "echo x", "--non-goal", "n"]
    done = run_goalfile(*args, "--expected", typed, cwd=tmp_path)
    assert done.returncode == 2
    offered = re.search(r"did you mean `([^`]+)`\?", done.stderr)
    assert offered is not None and offered.group(1) == meant, done.stderr
    written = run_goalfile(*args, "--expected", offered.group(1), cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    verify = run_goalfile("verify", "--no-write", "--json", "goals/g.md", cwd=tmp_path)
    [row] = json.loads(verify.stdout)["rows"]
    assert (row["verdict"] == "met") is met, row


def test_a_misspelt_keyword_is_still_corrected_by_spelling(tmp_path: Path) -> None:
    args = ["new", "g", "s", "--check", "echo x", "--non-goal", "n"]
    done = run_goalfile(*args, "--expected", 'stdout contians "x"', cwd=tmp_path)
    assert 'did you mean `stdout contains "x"`?' in done.stderr
