"""A new user's first hour on blinker 1.9.0 (pyproject.toml with `filterwarnings = ["error"]`
and pytest-asyncio's `asyncio_mode`), the sdist downloaded once into the cache outside the
clone (tests/test_walk.sdist).

Without pytest-asyncio, pytest warns of an unknown config option, the project's
`filterwarnings` makes the warning an error, and pytest stops on an internal error (exit 3)
whose last line, `no tests ran in 0.39s`, says nothing of why; the row's evidence is the
exception its INTERNALERROR lines end with.
"""

from __future__ import annotations

import json
import os
import sys
import tarfile
from pathlib import Path

from tests.conftest import make_git_repo, run_goalfile
from tests.test_walk import sdist

NAME = "blinker-1.9.0"


def test_a_pytest_internal_error_is_evidenced_by_its_cause(tmp_path: Path) -> None:
    with tarfile.open(sdist("blinker", "1.9.0", f"{NAME}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    project = make_git_repo(tmp_path / NAME)
    path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    environ = {"PATH": path, "HOME": str(tmp_path), "PYTHONPATH": "src"}
    made = run_goalfile(
        "new", "t", "the tests pass", "--non-goal", "src/ stays", "--check",
        "python -m pytest -q -p no:cacheprovider", "--expected", "exit 0", cwd=project,
        env=environ,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/t.md", cwd=project, env=environ, timeout=300
    )
    row = json.loads(ran.stdout)["rows"][0]
    assert (row["verdict"], row["exit"]) == ("unmet", "3"), row
    assert row["evidence"] == (
        "INTERNALERROR> pytest.PytestConfigWarning: Unknown config option: asyncio_mode"
    ), row
