"""A check whose program reports its own usage error ran to its end: `pytest` on a path that
does not exist exits 4, and the row is `unmet` (with that status and pytest's message), not
`error` (docs/format.md, Verdicts: only start failures, syntax errors, 126/127 and timeouts
are). The docs say so, since a new user expects the opposite."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from conftest import run_goalfile

DOCS = Path(__file__).resolve().parent.parent / "docs" / "format.md"


def test_pytest_on_a_missing_path_is_unmet_with_its_exit_4(repo: Path) -> None:
    (repo / "tests").mkdir()
    (repo / "tests" / "test_version.py").write_text("def test_ok():\n    pass\n")
    check = f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider tests/test_versoin.py"
    done = run_goalfile(
        "new", "typo", "the version tests pass", "--check", check,
        "--expected", 'exit 0; stdout contains " passed"', "--non-goal", "nothing else", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr

    ran = run_goalfile("verify", "--no-write", "--json", "goals/typo.md", cwd=repo)

    assert ran.returncode == 1, ran.stderr
    (row,) = json.loads(ran.stdout)["rows"]
    assert (row["verdict"], row["exit"]) == ("unmet", "4")
    assert "file or directory not found: tests/test_versoin.py" in "\n".join(
        row["output"]["stderr_tail"]
    )


def test_the_docs_say_a_usage_error_is_unmet() -> None:
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    assert "A program's own usage error is a result, not an `error`." in text
    assert "`pytest -q tests/test_versoin.py` (a path that does not exist) exits 4" in text
    assert "`goalfile verify --no-write PATH` runs a draft's checks" in text
