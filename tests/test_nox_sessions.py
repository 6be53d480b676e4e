"""`new` names a `nox -s SESSION` the noxfile does not define, with the Python of a session's
name read as nox reads it: `lint-3.11` where `lint` runs on Python 3.12 only, `cover-3.12` where
`cover` names no Python. The noxfile is nox 2026.10.20's own (its sdist, downloaded once into the
cache outside the repository, tests/test_walk.py), as shipped (its `tests` take their Pythons
from a call, so any `tests-X` is left alone) and with that call replaced by a list. Each name is
also given to the real nox of that version (`nox -s NAME --list`, which exits 3, "Sessions not
found", as a run does): the note is there exactly when nox refuses the name, but for a
session whose Pythons are not known. A noted row run by `verify --no-write` is `unmet`, exit 3.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from goalfile.commands import operands
from tests.conftest import run_goalfile
from tests.pypi_tools import install_venv
from tests.test_operands_pluggy import RUNNERS, env
from tests.test_tox_config_files import extract

VERSION = "2026.10.20"
CALL = "ALL_PYTHONS = nox.project.python_versions(PYPROJECT)\n"
LISTED = 'ALL_PYTHONS = ["3.11", "3.12"]\n'
# names nox refuses in its own noxfile (exit 3), and names it takes
REFUSED = ["lint-3.11", "cover-3.12", "doc", "minimums-3.12"]
TAKEN = ["lint", "lint-3.12", "cover", "tests", "tests-3.12", "docs", "github_actions_all_tests"]


@pytest.fixture(scope="module")
def runners() -> Path:
    return install_venv(RUNNERS).parent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = extract(("nox", VERSION, f"nox-{VERSION}.tar.gz"), tmp_path)
    assert CALL in (root / "noxfile.py").read_text(encoding="utf-8")
    return root


@pytest.mark.parametrize("pythons", [CALL, LISTED])
def test_noted_exactly_when_nox_refuses_the_name(
    project: Path, runners: Path, pythons: str
) -> None:
    noxfile = project / "noxfile.py"
    noxfile.write_text(noxfile.read_text(encoding="utf-8").replace(CALL, pythons))
    # with the list, `tests` runs on 3.11 and 3.12 only, and goalfile knows it
    refused = REFUSED + (["tests-3.99"] if pythons == LISTED else [])
    for name in [*refused, *TAKEN, "tests-3.99"]:
        said = subprocess.run(
            [str(runners / "nox"), "-s", name, "--list"],
            cwd=project, env=env(runners), capture_output=True, text=True, timeout=120,
            check=False,
        )  # fmt: skip
        nox_refuses = said.returncode == 3 and f"Sessions not found: {name}" in said.stderr
        assert nox_refuses is (name in refused or name == "tests-3.99"), (name, said.stderr)
        found = operands.missing(
            [("C1", f"nox -s {name}")], shell="/bin/sh", cwd=project, env={"PATH": "/usr/bin:/bin"}
        )
        if name in refused:
            assert f"noxfile.py defines no session `{name}`" in found["C1"], (name, found)
        else:
            assert found == {}, (name, found)  # tests-3.99 with the call: not known, left alone


def test_new_names_the_sessions_python_and_verify_finds_it_unmet(
    project: Path, runners: Path
) -> None:
    done = run_goalfile(
        "new", "first", "nox's checks", "--non-goal", "tests/ stays",
        "--check", "nox -s lint-3.11 cover-3.12", "--expected", "exit 0",
        cwd=project, env=env(runners),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (
        "note: C1: noxfile.py defines no session `lint-3.11`, `cover-3.12` (`cover` runs as "
        '`cover`; `lint` runs as `lint` or `lint-3.12`): nox stops, "Sessions not found", '
        "exit 3, and verify judges the row `unmet`"
    ) in done.stderr, done.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=env(runners)
    )
    row = json.loads(ran.stdout)["rows"][0]
    assert (row["verdict"], row["exit"]) == ("unmet", "3"), row
    # with the names the note gives, nox takes them
    for name in ("lint", "lint-3.12", "cover"):
        said = subprocess.run(
            [str(runners / "nox"), "-s", name, "--list"],
            cwd=project, env=env(runners), capture_output=True, timeout=120, check=False,
        )  # fmt: skip
        assert said.returncode == 0, name
