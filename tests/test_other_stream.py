"""`python -m unittest` prints its `OK` on stderr, so a row written `stdout contains "OK"` is
never met, whatever the work does; it said `stdout contains "OK": not found; last line: OK`.
The reason says now that the text is on the other stream, and which clause reads both. The
real interpreter's unittest in a real folder, judged by the real goalfile."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from tests.conftest import run_goalfile

UNITTEST = f"{shlex.quote(sys.executable)} -m unittest test_one"


def test_a_text_on_the_other_stream_is_said_so(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text(
        "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_ok(self):\n        pass\n"
    )
    for n, expected in enumerate(('exit 0; stdout contains "OK"', 'exit 0; output contains "OK"')):
        done = run_goalfile(
            "new", f"g{n}", "the test passes", "--check", UNITTEST, "--expected", expected,
            "--non-goal", "n", cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr

    wrong = run_goalfile("verify", "--no-write", "--json", "goals/g0.md", cwd=tmp_path)
    right = run_goalfile("verify", "--no-write", "--json", "goals/g1.md", cwd=tmp_path)

    [row] = json.loads(wrong.stdout)["rows"]
    assert row["verdict"] == "unmet", row
    assert row["why"] == [
        'stdout contains "OK": not found in stdout, but in stderr (`output contains` reads both)'
    ]
    assert [r["verdict"] for r in json.loads(right.stdout)["rows"]] == ["met"]
