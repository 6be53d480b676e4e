"""A new user's first hour on structlog 25.5.0 (pyproject.toml with hatch-vcs, tox.ini, src/
layout, a tests/conftest.py that imports the package), the sdist downloaded once into the cache
outside the clone (tests/test_walk.sdist).

Its package under `src/` not installed: pytest cannot load tests/conftest.py, which imports it,
and exits 4 (its usage error), not 2 (a test module that cannot be collected). `new` said
"pytest exits 2", and verify, which looked only at rows that exited 2, gave no word of the
install the row waits for.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.conftest import git, make_git_repo, run_goalfile
from tests.test_operands_pluggy import new_with_notes
from tests.test_walk import sdist
from tests.test_walk_cachetools import src_venv

VERSION = "25.5.0"
NAME = f"structlog-{VERSION}"
TESTS = "python -m pytest -q -p no:cacheprovider tests/test_base.py"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist("structlog", VERSION, f"{NAME}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    root = make_git_repo(tmp_path / NAME)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "structlog as released")  # hatch-vcs reads its version from git
    return root


def test_a_src_package_a_conftest_imports_is_named_with_pytest_s_exit_4_and_its_install(
    project: Path, tmp_path: Path
) -> None:
    python = src_venv(project)
    path = f"{python.parent}:{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"
    environ = {"PATH": path, "HOME": str(tmp_path)}
    notes = new_with_notes(project, "the tests pass", [TESTS], environ)
    line = notes.get("C1", "")
    assert line.startswith(
        "note: C1: pytest runs with `python`, which cannot import `structlog`, the package under "
        "`src/` where the checks run: it is not installed there, so `tests/conftest.py`, which "
        "imports it, cannot be loaded (ModuleNotFoundError), pytest exits 4, and verify judges "
        "the row `unmet`"
    ), notes
    assert line.endswith("until `python -m pip install -e .` installs it"), line

    # what the note says: the real pytest exits 4
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    document = json.loads(ran.stdout)
    (row,) = document["rows"]
    assert (row["verdict"], row["exit"]) == ("unmet", "4"), row
    assert row["evidence"] == "E   ModuleNotFoundError: No module named 'structlog'", row
    # and verify says why, with the command that installs it
    note = (
        "note: C1: pytest ran with `python`, which cannot import `structlog`, the package under "
        "`src/`: nothing installed it there, and `tests/conftest.py`, which imports it, cannot "
        "be loaded; `python -m pip install -e .` (where the checks run) installs it"
    )
    assert document["notes"] == [note], document
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    assert f"{note}\n" in shown.stderr, shown.stderr

    # the command, run as printed, installs it: the conftest loads; pytest then stops at the
    # project's next need, pytest-asyncio for an option its --strict-config checks (still exit
    # 4), which the note names with its install (tests/test_walk_plugins.py runs one)
    done = subprocess.run(
        "python -m pip install -q -e .", shell=True, cwd=project, env={**os.environ, **environ},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    document = json.loads(ran.stdout)
    assert document["notes"] == [
        "note: C1: the tests need pytest-asyncio (`asyncio_mode = auto` in `pyproject.toml`), "
        "which `python` cannot import where the checks run; `python -m pip install "
        "pytest-asyncio` (where the checks run) installs it"
    ], document
    assert document["rows"][0]["evidence"] == (
        "ERROR: Unknown config option: asyncio_default_fixture_loop_scope"
    ), document
