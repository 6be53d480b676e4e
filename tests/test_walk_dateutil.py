"""A new user's first hour on python-dateutil 4.0.0 (pyproject.toml, src/ layout, tests/ at the
top), the sdist downloaded once into the cache outside the clone (tests/test_walk.sdist).

An older dateutil installed for the Python the checks run with: `python -m pytest tests/...`
imports that copy, not the repository's `src/dateutil`, so the tests check code the work never
touches. A broken `src/` still met the goal, and neither `new` nor verify, whose run failed on
that copy, said anything of it (they named a package under `src/` only when the Python could not
import it at all).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
import tarfile
from pathlib import Path

import pytest

from tests.conftest import make_git_repo, run_goalfile
from tests.test_operands_pluggy import new_with_notes
from tests.test_walk import sdist
from tests.test_walk_attrs import bare_venv

VERSION = "4.0.0"
NAME = f"python_dateutil-{VERSION}"
TESTS = "python -m pytest -q -p no:cacheprovider tests/test_easter.py"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist("python-dateutil", VERSION, f"{NAME}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    return make_git_repo(tmp_path / NAME)


def venv_with_a_copy(project: Path, where: Path) -> Path:
    """A virtual environment outside the project, as a user has one activated: pytest through
    a .pth path line to this test's own site-packages, and a copy of dateutil in its own
    site-packages, as `pip install python-dateutil` leaves one there. Its `bin` folder."""
    bin_folder = bare_venv(where)
    relative = Path(sysconfig.get_path("purelib")).relative_to(sysconfig.get_path("data"))
    places = where / relative
    ours = next(p for p in sys.path if p.endswith("site-packages") and Path(p, "pytest").is_dir())
    (places / "goalfile-tests.pth").write_text(ours + "\n")
    shutil.copytree(project / "src" / "dateutil", places / "dateutil")
    return bin_folder


def test_a_src_package_imported_from_an_installed_copy_is_named_with_its_install(
    project: Path, tmp_path: Path
) -> None:
    bin_folder = venv_with_a_copy(project, tmp_path / "venv")
    environ = {"PATH": f"{bin_folder}:{os.environ.get('PATH', '/usr/bin:/bin')}"}
    notes = new_with_notes(project, "easter stays right", [TESTS], environ)
    line = notes.get("C1", "")
    copy = (tmp_path / "venv").resolve()
    assert line.startswith("note: C1: pytest runs with `python`, which imports `dateutil` from "
                           f"`{copy}/lib/"), notes  # fmt: skip
    assert "/site-packages/dateutil`, not the package under `src/`" in line, line
    assert "the tests check that installed copy, not this repository's code" in line, line
    assert line.endswith("until `python -m pip install -e .` installs it"), line

    # what the note says: the repository's easter() broken, the tests still pass
    easter = project / "src" / "dateutil" / "easter.py"
    text = easter.read_text()
    assert text.count("    return datetime.date(int(y), int(m), int(d))") == 1
    easter.write_text(text.replace("int(d))", "int(d) + 1)"))
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    assert [r["verdict"] for r in json.loads(ran.stdout)["rows"]] == ["met"], ran.stdout

    # a copy that fails the repository's tests (an older release): verify says which it tested
    installed = next((tmp_path / "venv").glob("lib/python*/site-packages/dateutil/easter.py"))
    installed.write_text(easter.read_text())
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    assert shown.returncode == 1 and "C1 unmet" in shown.stdout, shown.stdout
    assert (
        "note: C1: pytest ran with `python`, which imports `dateutil` from "
        f"`{installed.parent.resolve()}`, not the package under `src/`: the tests checked that "
        "installed copy, not this repository's code; `python -m pip install -e .` (where the "
        "checks run) installs it\n"
    ) in shown.stderr, shown.stderr

    # with the repository's src/ first on the path (what an editable install gives): no note,
    # and the broken code is the one tested
    mine = {**environ, "PYTHONPATH": str(project / "src")}
    again = run_goalfile(
        "new", "again", "easter stays right", "--non-goal", "src/ stays",
        "--check", TESTS, "--expected", "exit 0", cwd=project, env=mine,
    )  # fmt: skip
    assert again.returncode == 0 and "note: C1" not in again.stderr, again.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/again.md", cwd=project, env=mine, timeout=300
    )
    assert [r["verdict"] for r in json.loads(ran.stdout)["rows"]] == ["unmet"], ran.stdout
    shown = run_goalfile("verify", "--no-write", "goals/again.md", cwd=project, env=mine)
    assert shown.returncode == 1 and "note: C1" not in shown.stderr, shown.stderr
