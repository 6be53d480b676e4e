"""`new` names what a check of a real project asks for that is not there, in the shapes a new
user writes first: a bare test folder (`pytest tests` where the suite is in `testing/`), a tox
environment tox.ini does not define, a nox session, an npm script, a glob that matches nothing,
`sh -c 'A && B'`, `cd DIR && ...`, and `make -C DIR` where DIR has no makefile. The project is
the pluggy 1.7.0 sdist (its tox.ini and testing/), downloaded once into the cache outside the
repository (tests/test_walk.py); tox and nox are the real tools in a virtual environment of
their own (tests/pypi_tools.py), npm, make, ruff and pytest the real ones. Each noted row is
then run by a real `verify --no-write`: `unmet`, with the exit status the note says.
"""

from __future__ import annotations

import json
import os
import sys
import tarfile
from collections.abc import Iterable
from pathlib import Path

import pytest

from goalfile.commands import findable, operands
from tests.conftest import make_git_repo, run_goalfile
from tests.pypi_tools import PypiTool, install_venv
from tests.test_walk import sdist

VERSION = "1.7.0"
RUNNERS = PypiTool(requirements=("tox==4.67.16", "nox==2026.10.20"), bin="tox")
NOXFILE = """\
import nox


@nox.session(python=["3.11"])
def tests(session):
    session.run("pytest")


@nox.session(name="lint-all")
def lint(session):
    session.run("ruff", "check", ".")
"""
PACKAGE = '{"name": "docs-site", "private": true, "scripts": {"lint": "true"}}\n'

# id: (check, what the note names, the exit status the note says, which verify sees)
NOTED = {
    "C1": (
        "pytest tests -q -p no:cacheprovider",
        "pytest is given `tests`, which is not there",
        "4",
    ),
    "C2": ("tox -e doc", "tox.ini defines no environment `doc`", "254"),
    "C3": ("nox -s test", "noxfile.py defines no session `test`", "3"),
    "C4": ("npm run lnit", "package.json has no script `lnit`", "1"),
    "C5": (
        "sh -c 'python -m pytest -q -p no:cacheprovider testing/nope.py && echo done'",
        "pytest is given `testing/nope.py`",
        "4",
    ),
    "C6": (
        "ruff check testing/test_*.py src/pluggy/nope*.py",
        "ruff is given `src/pluggy/nope*.py` (a pattern that matches no file there",
        "1",
    ),
    "C7": (
        "make -C docs html",
        "make finds no makefile (GNUmakefile, makefile or Makefile) in `docs`",
        "2",
    ),
    "C8": (
        "bash -ec 'cd testing && python -m pytest -q -p no:cacheprovider test_nope.py'",
        "pytest is given `test_nope.py`, which is not there in `testing`",
        "4",
    ),
}
# all these name what is there: no note
CLEAN = [
    "pytest testing -q -x",
    "tox -e docs",
    "tox -e py311-coverage,benchmark",  # a factor of a setting, and a section
    "tox r -e py3{12,13}",  # left alone: the shell's braces
    "tox -e py3.14t",  # a Python tox finds by its name
    "nox -s tests-3.11 lint-all",
    "npm run lint -- --fix",
    "ruff check testing/test_*.py",
    "sh -c 'cd docs && python -m pytest ../testing'",
    "make -C docs -f rules.mk html",
    "pytest --pyargs pluggy",
    "tox -c other.ini -e doc",  # another configuration: left alone
]


@pytest.fixture(scope="module")
def runners() -> Path:
    return install_venv(RUNNERS).parent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist("pluggy", VERSION, f"pluggy-{VERSION}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    root = tmp_path / f"pluggy-{VERSION}"
    (root / "noxfile.py").write_text(NOXFILE)
    (root / "package.json").write_text(PACKAGE)
    (root / "docs" / "rules.mk").write_text("html:\n\t@echo html\n")
    make_git_repo(root)
    return root


def env(runners: Path) -> dict[str, str]:
    path = f"{Path(sys.executable).parent}:{runners}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return {"PATH": path}


def new_with_notes(
    root: Path, end_state: str, checks: Iterable[str], environ: dict[str, str]
) -> dict[str, str]:
    """`goalfile new first END_STATE --non-goal 'src/ stays'` in ``root`` with each of
    ``checks`` expecting exit 0: it exits 0 without a traceback. The `note: CID: ...` lines it
    printed, by row id."""
    args: list[str] = []
    for check in checks:
        args += ["--check", check, "--expected", "exit 0"]
    done = run_goalfile(
        "new", "first", end_state, "--non-goal", "src/ stays", *args, cwd=root, env=environ
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: C")]
    by_id = {line.split(": ", 2)[1]: line for line in notes}
    assert len(by_id) == len(notes), done.stderr  # one note a row
    return by_id


def test_new_names_each_and_verify_finds_it_unmet(project: Path, runners: Path) -> None:
    checks = [check for check, _, _ in NOTED.values()]
    notes = new_with_notes(project, "pluggy's checks", checks, env(runners))
    for cid, (_, named, _) in NOTED.items():
        line = notes.get(cid, "")
        assert named in line, (cid, notes)
        assert "verify judges the row `unmet`" in line
        assert "correct it in goals/first.md before `goalfile activate`" in line
    assert len(notes) == len(NOTED), notes

    ran = run_goalfile(
        "verify", "--no-write", "--json", "--jobs", "4", "goals/first.md",
        cwd=project, env=env(runners), timeout=300,
    )  # fmt: skip
    rows = {row["id"]: row for row in json.loads(ran.stdout)["rows"]}
    for cid, (_, _, status) in NOTED.items():
        assert (rows[cid]["verdict"], rows[cid]["exit"]) == ("unmet", status), (cid, rows[cid])
        said = notes[cid]
        assert "Traceback" not in rows[cid]["evidence"]
        assert f"exits {status}" in said or f"exit {status}" in said or status == "1", said

    # the evidence is the program's own error line, not the last line of its stdout
    assert rows["C1"]["evidence"] == "ERROR: file or directory not found: tests"
    assert rows["C7"]["evidence"] == "make: *** No rule to make target 'html'.  Stop."
    assert rows["C2"]["evidence"] == "doc - did you mean docs?"  # tox says it on stdout


def test_what_is_there_gets_no_note(project: Path) -> None:
    checks = [(f"C{at}", check) for at, check in enumerate(CLEAN, 1)]
    found = operands.missing(checks, shell="/bin/sh", cwd=project, env={"PATH": "/usr/bin:/bin"})
    assert found == {}


@pytest.mark.parametrize(
    ("makefile", "included", "noted"),
    [
        ("include rules.mk\n", "html:\n\t@echo\n", False),  # the rule is in the include
        ("include rules.mk\n", "lint:\n\t@echo\n", True),
        ("-include nothere.mk\nlint:\n\t@echo\n", None, True),  # -include passes over it
        ("include nothere.mk\n", None, False),  # make may make it: left alone
        ("include $(RULES)\n", None, False),  # made of a variable: left alone
    ],
)
def test_make_reads_its_includes(
    tmp_path: Path, makefile: str, included: str | None, noted: bool
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "Makefile").write_text(makefile)
    if included is not None:
        (tmp_path / "docs" / "rules.mk").write_text(included)
    found = operands.missing([("C1", "make -C docs html")], shell="/bin/sh", cwd=tmp_path, env={})
    assert bool(found) is noted, found
    if noted:
        assert "no rule of its Makefile in `docs` makes `html`" in found["C1"]


def test_a_program_typed_wrong_after_cd_or_inside_sh_c_is_named(project: Path) -> None:
    """`cd docs && mkae html` exits 127 as `mkae html` does: an `error` row, which blocks the
    goal. Only the first word of the check (`cd`) was asked of the shell."""
    checks = [
        ("C1", "cd docs && mkae html"),
        ("C2", "sh -c 'python -m pytest -q testing && covrage report'"),
        ("C3", "FOO=1 true && cd docs && ./make.sh"),  # a path of another folder: not asked
        ("C4", "cd testing && python -m pytest -q"),
    ]
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    found = findable.unknown(checks, shell="/bin/sh", cwd=project, env={"PATH": path})
    assert found == {"C1": "mkae", "C2": "covrage"}


@pytest.mark.parametrize(
    "command",
    [
        "cd {long} && pytest",
        "make -C {long} html",
        "make -f {long} html",
        "ruff check {long}*",
        "pytest {long}",
    ],
)
def test_a_name_the_system_refuses_is_no_note_and_no_traceback(
    tmp_path: Path, command: str
) -> None:
    """A name longer than the system takes made `cd`, `make -C` and `make -f` raise out of
    new (ENAMETOOLONG): now such a name is not looked at."""
    check = command.format(long="x" * 5000)
    assert operands.missing([("C1", check)], shell="/bin/sh", cwd=tmp_path, env={}) == {}


def test_a_path_typed_from_a_sub_folder_is_named_as_the_checks_need_it(project: Path) -> None:
    """Typed in testing/, `pytest test_hookcaller.py` was said to be "not there" while the
    file was right there: the checks run at the top level. The note now says so, with the
    name they need."""
    checks = [("C1", "pytest test_hookcaller.py -q"), ("C2", "pytest test_nope.py")]
    found = operands.missing(checks, shell="/bin/sh", cwd=project, env={}, here=project / "testing")
    assert (
        "(it is there from here, but the checks run in `..`: there it is "
        "`testing/test_hookcaller.py`)" in found["C1"]
    ), found
    assert "there from here" not in found["C2"]
