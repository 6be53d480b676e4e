"""unittest writes its report on stderr: `lint` and `activate` warn about a unittest check judged
on stdout (`unittest-stdout`), the first row a person writes for a unittest project: `stdout
contains "OK"` is never met, `stdout lacks "FAILED"` always holds. What the warnings say is what
verify does with the real interpreter's unittest; a check that sends stderr to stdout, or judges
stderr, gets none."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from goalfile.expect import parse_expected
from goalfile.model import Criterion
from goalfile.unitteststream import findings
from tests.conftest import run_goalfile

UNITTEST = f"{shlex.quote(sys.executable)} -m unittest"
ROWS = {
    "C1": (f"{UNITTEST} test_ok", 'exit 0; stdout contains "OK"'),  # never met
    "C2": (f"{UNITTEST} test_bad", 'stdout lacks "FAILED"'),  # always holds
    "C3": (f"{UNITTEST} test_ok", 'exit 0; stderr contains "OK"'),
    "C4": (f"{UNITTEST} test_ok 2>&1", 'exit 0; stdout contains "OK"'),
}


def test_a_unittest_check_judged_on_stdout_is_warned_about(tmp_path: Path) -> None:
    case = "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_it(self):\n"
    (tmp_path / "test_ok.py").write_text(case + "        pass\n")
    (tmp_path / "test_bad.py").write_text(case + "        self.fail('no')\n")
    args = ["new", "g", "the tests pass", "--non-goal", "n"]
    for check, expected in ROWS.values():
        args += ["--check", check, "--expected", expected]
    assert run_goalfile(*args, cwd=tmp_path).returncode == 0

    linted = run_goalfile("lint", "goals/g.md", cwd=tmp_path)
    activated = run_goalfile("activate", "goals/g.md", cwd=tmp_path)

    assert linted.returncode == 0, linted.stderr
    warned = [line for line in linted.stderr.splitlines() if "unittest writes its report" in line]
    assert [line.split(": ")[2] for line in warned] == ["C1", "C2"], linted.stderr
    judge = (
        ": judge the stream unittest writes, `stderr ...`, or `output ...` for both "
        '(`exit 0; stderr contains "OK"`)'
    )
    assert warned[0].endswith('so `stdout contains "OK"` is never met by its report' + judge)
    assert warned[1].endswith(
        'so `stdout lacks "FAILED"` always holds, whatever the tests do' + judge
    )
    assert "fix:" not in linted.stderr, linted.stderr  # only the author can judge the stream
    assert activated.returncode == 0, activated.stderr
    assert activated.stderr.count("unittest writes its report") == 2, activated.stderr
    ran = run_goalfile("verify", "--no-write", "--json", "goals/g.md", cwd=tmp_path)
    verdicts = {row["id"]: row["verdict"] for row in json.loads(ran.stdout)["rows"]}
    assert verdicts == {"C1": "unmet", "C2": "met", "C3": "met", "C4": "met"}, verdicts


@pytest.mark.parametrize(
    ("expected", "warned"),
    [
        ("exit 0; stdout empty", "always holds"),  # unittest prints nothing on stdout
        ("stdout matches /OK/", "is never met"),
        ('prints "OK"', "is never met"),  # prints: stdout, trimmed
        ('output contains "OK"', None),  # either stream: unittest's report is there
        ("stderr empty", None),
    ],
)
def test_each_clause_on_stdout_is_told_what_it_does(expected: str, warned: str | None) -> None:
    row = Criterion(id="C1", criterion="c", check="python -m unittest", expected=expected)
    said = [f.message for f in findings(row, "C1", parse_expected(expected))]
    if warned is None:
        assert said == [], said
    else:
        assert len(said) == 1 and warned in said[0], said
