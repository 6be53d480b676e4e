"""`new` names a `tox -e ENV` the project's tox configuration does not define, in each file tox 4
takes it from: tox.toml and pyproject.toml's [tool.tox] (the pyproject-api 1.12.1 sdist, whose
tox.toml is moved into its pyproject.toml as tox's docs show it), setup.cfg's [tox:tox] and
pyproject.toml's `legacy_tox_ini` (pluggy 1.7.0's tox.ini, put there). Both sdists are
downloaded once into the cache outside the repository (tests/test_walk.py). Each name is also
given to the real tox (`tox config -e NAME`, in a virtual environment of its own with tox-uv,
which pyproject-api's tox.toml requires, so tox does not provision one): the note is there
exactly when tox refuses the name (exit 254), and a noted row run by `verify --no-write` is
`unmet` with that exit.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from goalfile.commands import operands
from tests.conftest import make_git_repo, run_goalfile
from tests.pypi_tools import PypiTool, install_venv
from tests.test_walk import sdist

TOX = PypiTool(requirements=("tox==4.67.16", "tox-uv==1.37.1"), bin="tox")
API = ("pyproject-api", "1.12.1", "pyproject_api-1.12.1.tar.gz")
PLUGGY = ("pluggy", "1.7.0", "pluggy-1.7.0.tar.gz")

# names tox refuses (exit 254) in pyproject-api's configuration, and names it takes
API_UNDEFINED = ["lint", "lnt", "pkg-meta", "3.12-lint"]
API_DEFINED = ["fix", "pkg_meta", "3.12", "py312", "3.15t", "type,docs", "docs-type", "3.11-fix"]
PLUGGY_UNDEFINED = ["doc", "py311-lint", "pytest"]
PLUGGY_DEFINED = ["docs", "benchmark", "py312", "pypy3-pytestmain"]
# `coverage` is a factor of pluggy's [testenv] settings: tox takes it from a tox.ini's [testenv],
# not from a setup.cfg's (there it reads [tox:testenv])
COVERAGE = ["py311-coverage"]


@pytest.fixture(scope="module")
def tox() -> Path:
    return install_venv(TOX)


def extract(which: tuple[str, str, str], into: Path) -> Path:
    project, version, name = which
    with tarfile.open(sdist(project, version, name)) as archive:
        archive.extractall(into, filter="data")
    return make_git_repo(into / name.removesuffix(".tar.gz"))


def as_tool_tox(tox_toml: str) -> str:
    """tox.toml's text as pyproject.toml's [tool.tox] table: its top-level keys under
    [tool.tox], each table [X] as [tool.tox.X]."""
    body = re.sub(r"(?m)^\[([^\[\]]+)\]$", r"[tool.tox.\1]", tox_toml)
    return "\n[tool.tox]\n" + body


def configure(root: Path, form: str) -> None:
    """Put the project's tox configuration in the file ``form`` names."""
    if form == "pyproject.toml":
        tox_toml = root / "tox.toml"
        with (root / "pyproject.toml").open("a", encoding="utf-8") as out:
            out.write(as_tool_tox(tox_toml.read_text(encoding="utf-8")))
        tox_toml.unlink()
    elif form == "setup.cfg":
        ini = root / "tox.ini"
        text = ini.read_text(encoding="utf-8").replace("[tox]\n", "[tox:tox]\n", 1)
        with (root / "setup.cfg").open("a", encoding="utf-8") as out:
            out.write("\n" + text)
        ini.unlink()
    elif form == "legacy_tox_ini":
        ini = root / "tox.ini"
        with (root / "pyproject.toml").open("a", encoding="utf-8") as out:
            out.write(f"\n[tool.tox]\nlegacy_tox_ini = '''\n{ini.read_text(encoding='utf-8')}'''\n")
        ini.unlink()


FORMS = [
    ("tox.toml", API, API_UNDEFINED, API_DEFINED),
    ("pyproject.toml", API, API_UNDEFINED, API_DEFINED),
    ("setup.cfg", PLUGGY, PLUGGY_UNDEFINED + COVERAGE, PLUGGY_DEFINED),
    ("legacy_tox_ini", PLUGGY, PLUGGY_UNDEFINED, PLUGGY_DEFINED + COVERAGE),
]


def env(tox: Path) -> dict[str, str]:
    path = f"{tox.parent}:{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return {"PATH": path}


@pytest.mark.parametrize(("form", "which", "undefined", "defined"), FORMS)
def test_noted_exactly_when_tox_refuses_the_name(
    tmp_path: Path,
    tox: Path,
    form: str,
    which: tuple[str, str, str],
    undefined: list[str],
    defined: list[str],
) -> None:
    root = extract(which, tmp_path)
    configure(root, form)
    file = "pyproject.toml" if form == "legacy_tox_ini" else form
    # the defined names in one run of tox (it refuses the run for any one it does not take),
    # each undefined one in a run of its own
    for names in [",".join(defined), *undefined]:
        said = subprocess.run(
            [str(tox), "config", "-e", names, "-k", "env_name"],
            cwd=root, env=env(tox), capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        refused = said.returncode == 254 and "provided environments not found" in said.stdout
        assert refused is (names in undefined), (form, names, said.returncode, said.stdout)
        assert refused or said.returncode == 0, (form, names, said.returncode, said.stdout)
    for name in undefined + defined:
        found = operands.missing(
            [("C1", f"tox -e {name}")], shell="/bin/sh", cwd=root, env={"PATH": "/usr/bin:/bin"}
        )
        if name in defined:
            assert found == {}, (form, name, found)
        else:
            assert f"{file} defines no environment `{name}` (" in found["C1"], (form, found)


def test_new_names_tox_toml_and_verify_finds_it_unmet(tmp_path: Path, tox: Path) -> None:
    """The first goal a new user writes for pyproject-api: `tox -e lint` (the project calls
    it `fix`) is noted at `new`, and the real tox refuses it, exit 254, as the note says."""
    root = extract(API, tmp_path)
    done = run_goalfile(
        "new", "first", "pyproject-api's checks", "--non-goal", "tests/ stays",
        "--check", "tox -e lint", "--expected", "exit 0",
        "--check", "tox -e type", "--expected", "exit 0",
        cwd=root, env=env(tox),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: C")]
    assert len(notes) == 1, done.stderr
    assert notes[0].startswith(
        "note: C1: tox.toml defines no environment `lint` (in its env_list, an [env.NAME] "
        'table or an env_base): tox stops, "provided environments not found in configuration '
        'file", exit 254, and verify judges the row `unmet`'
    ), notes
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md",
        cwd=root, env=env(tox), timeout=300,
    )  # fmt: skip
    rows = {row["id"]: row for row in json.loads(ran.stdout)["rows"]}
    assert (rows["C1"]["verdict"], rows["C1"]["exit"]) == ("unmet", "254"), rows["C1"]
    assert rows["C2"]["exit"] != "254", rows["C2"]  # tox takes `type`: it goes on to run it
