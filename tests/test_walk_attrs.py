"""A new user's first hour on attrs 25.4.0 (pyproject.toml, tox.ini, src/ layout, a
tests/conftest.py that imports the package), the sdist downloaded once into the cache outside
the clone (tests/test_walk.sdist).

pytest not installed for the Python a check names: `python -m pytest` exits 1 ("No module
named pytest") before any test runs, and verify judges the row `unmet`; no work on the code
meets it. `new` said nothing of it (or, for a package under `src/`, that pytest "cannot import"
the package and "exits 2"), and verify gave no word of why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.conftest import REPO, make_git_repo, run_goalfile
from tests.pypi_tools import install_venv
from tests.test_operands_pluggy import RUNNERS, new_with_notes
from tests.test_tox_config_files import TOX
from tests.test_walk import sdist

VERSION = "25.4.0"
NAME = f"attrs-{VERSION}"
TESTS = "python -m pytest -q -p no:cacheprovider tests/test_make.py"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist("attrs", VERSION, f"{NAME}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    return make_git_repo(tmp_path / NAME)


def bare_venv(where: Path) -> Path:
    """A virtual environment outside the project with nothing installed in it (no pip, no
    pytest): the `bin` folder a user's PATH has first once it is activated."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=300
    )
    return where / "bin"


def test_pytest_not_installed_for_the_checks_python_is_named_by_new_and_verify(
    project: Path, tmp_path: Path
) -> None:
    bin_folder = bare_venv(tmp_path / "venv")
    environ = {"PATH": f"{bin_folder}:{os.environ.get('PATH', '/usr/bin:/bin')}"}
    notes = new_with_notes(project, "the tests pass", [TESTS], environ)
    line = notes.get("C1", "")
    assert line.startswith("note: C1: `python` cannot import pytest where the checks run"), notes
    assert "exits 1 (No module named pytest) before any test runs" in line, line
    assert "until pytest is installed for that Python" in line, line
    assert "src/" not in line, line  # not the note of a package not installed: pytest is not
    assert line.endswith("correct it in goals/first.md before `goalfile activate`"), line

    # what the note says: the real run exits 1 with that message, and the row is unmet
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    (row,) = json.loads(ran.stdout)["rows"]
    assert (row["verdict"], row["exit"]) == ("unmet", "1"), row
    assert row["evidence"].endswith("No module named pytest"), row
    # and verify says why at each run
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    assert (
        "note: C1: `python` cannot import pytest where the checks run: no test ran, and no "
        "work on the code meets the row until pytest is installed for that Python, or the "
        "check names a Python that has it\n"
    ) in shown.stderr, shown.stderr
    assert "Traceback" not in shown.stderr

    # pytest there (this test's own, through a .pth path line, as installing it would put it):
    # no such note from new, nor from verify
    places = subprocess.run(
        [str(bin_folder / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.strip()  # fmt: skip
    ours = next(p for p in sys.path if p.endswith("site-packages") and Path(p, "pytest").is_dir())
    Path(places, "goalfile-tests.pth").write_text(ours + "\n")
    again = run_goalfile(
        "new", "again", "the tests pass", "--non-goal", "src/ stays", "--check", TESTS,
        "--expected", "exit 0", cwd=project, env=environ,
    )  # fmt: skip
    assert again.returncode == 0 and "cannot import pytest" not in again.stderr, again.stderr
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=environ, timeout=300
    )
    assert "cannot import pytest" not in shown.stderr, shown.stderr


def test_a_tox_runner_only_tox_uv_provides_is_named_when_tox_has_no_tox_uv(
    project: Path, tmp_path: Path
) -> None:
    """attrs' tox.ini sets `runner = uv-venv-lock-runner` for every environment: a tox without
    the tox-uv plugin exits 254 ("runner ... is not available"), whatever the work does. With
    tox-uv beside tox, nothing is said."""
    here = "py{}{}-tests".format(*sys.version_info[:2])
    environ = {"PATH": f"{install_venv(RUNNERS).parent}:{os.environ.get('PATH', '')}"}
    notes = new_with_notes(project, "tox", [f"tox -e {here}"], environ)
    assert notes.get("C1") == (
        f"note: C1: tox.ini gives `{here}` the runner `uv-venv-lock-runner`, which only the "
        "tox-uv plugin provides, and the tox that runs the check cannot import it: tox exits 254 "
        '("runner ... is not available"), and verify judges the row `unmet` until tox-uv is '
        "installed beside tox; correct it in goals/first.md before `goalfile activate`"
    ), notes
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=environ, timeout=600
    )
    (row,) = json.loads(ran.stdout)["rows"]
    assert (row["verdict"], row["exit"]) == ("unmet", "254"), row
    assert row["evidence"] == (
        f"ROOT: HandledError| runner 'uv-venv-lock-runner' for environment '{here}' is not "
        "available (plugin may not be installed)"
    ), row

    with_uv = {"PATH": f"{install_venv(TOX).parent}:{os.environ.get('PATH', '')}"}
    again = run_goalfile(
        "new", "again", "tox", "--non-goal", "src/ stays", "--check", f"tox -e {here}",
        "--expected", "exit 0", cwd=project, env=with_uv,
    )  # fmt: skip
    assert again.returncode == 0 and "note: C1" not in again.stderr, again.stderr


def test_the_goal_skill_calls_these_notes_the_machine_s_not_the_check_s() -> None:
    """The goal skill tells the agent which `new` notes are about the machine (install, then
    run the check again) rather than a check to correct: these two are."""
    text = (REPO / "skills" / "goal" / "SKILL.md").read_text(encoding="utf-8")
    bullet = text.split("- Read the `note:` lines `goalfile new` prints", 1)[1].split("\n- ")[0]
    words = " ".join(bullet.split())
    assert "that a Python cannot import pytest itself" in words, words
    assert "that tox lacks the tox-uv plugin an environment's runner needs" in words, words
    assert "is about the machine, not the check" in words, words
