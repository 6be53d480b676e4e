"""`new` and `activate` name what a Python or make check gives that is not there where the
checks run, as they name a pytest path: a script (`python scripts/nope.py` exits 2), a module
(`python -m nosuch` exits 1), a unittest name (`python -m unittest tests.test_nope`, or
`test_a` typed in `tests/` while the checks run at the top level, exits 1), a discover folder,
and a make target no rule makes (exit 2): each row is `unmet`, never `error`, until the work
makes it. A test file the work is to write is the commonest such name: the note says to correct
it only if the work is not to make it, and the row is met once the file is there. Real goalfile
processes, the real interpreter and GNU make, in a real git repository."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import clean_env, git, run_goalfile

from goalfile.commands.makeoperands import make_targets
from goalfile.commands.pyoperands import python_operands

PY = shlex.quote(sys.executable)
MAKEFILE = f"""\
# the project's makefile
.PHONY : test lint
test:
\t{sys.executable} -m unittest -q tests.test_a
lint: ; @echo lint
CFLAGS := -O2
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "scripts").mkdir()
    (repo / "tests" / "__init__.py").write_text("")
    (repo / "tests" / "test_a.py").write_text(
        "import unittest\n\n\nclass TestA(unittest.TestCase):\n    def test_ok(self):\n"
        "        pass\n"
    )
    (repo / "scripts" / "run.py").write_text("print('ran')\n")
    (repo / "makefile").write_text(MAKEFILE)
    git(repo, "init", "-q", "-b", "master")
    git(repo, "add", ".")
    git(repo, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "s")
    return repo


CHECKS = {
    "C1": f"{PY} scripts/nope.py",
    "C2": f"{PY} -m nosuch_module_here",
    "C3": f"{PY} -m unittest tests.test_new",
    "C4": f"{PY} -m unittest discover -s tests/nope",
    "C5": "make tset",
    "C6": f"{PY} scripts/run.py",  # all of these are there
    "C7": f"{PY} -m unittest -q tests.test_a.TestA.test_ok",
    "C8": f"{PY} -m unittest discover tests",
    "C9": "make test lint -j 2",
    "C10": f"{PY} -m json.tool --help",
    "C11": f"{PY} -c 'import nosuch'",  # text the interpreter runs: not looked at
}


def test_new_names_what_is_not_there_and_verify_does_as_the_note_says(project: Path) -> None:
    args = ["new", "demo", "the tests pass", "--non-goal", "nothing else"]
    for check in CHECKS.values():
        args += ["--check", check, "--expected", "exit 0"]
    written = run_goalfile(*args, "--json", cwd=project)
    assert written.returncode == 0, written.stderr
    assert sorted(json.loads(written.stdout)["not_there"]) == ["C1", "C2", "C3", "C4", "C5"]
    (project / "goals" / "demo.md").unlink()

    done = run_goalfile(*args, cwd=project)

    assert done.returncode == 0, done.stderr
    said = done.stderr
    python = Path(sys.executable).name
    correct = (
        "; if the work is not to make it, correct it in goals/demo.md before `goalfile activate`"
    )
    for line in (
        f"C1: {python} is given `scripts/nope.py`, which is no file where the checks run: it "
        "exits 2 (can't open file)",
        f"C2: {python} is given `nosuch_module_here`, which is no module where the checks run: "
        "it exits 1 (No module named ...)",
        f"C3: {python} is given `tests.test_new`, which is no module where the checks run: it "
        "exits 1 (an ImportError, which unittest counts as an error)",
        f"C4: {python} is given `tests/nope`, which is no file or folder where the checks run",
        "C5: no rule of its makefile makes `tset` where the checks run: make exits 2",
    ):
        assert f"note: {line}" in said, said
    assert said.count(f"and verify judges the row `unmet` until the work makes it{correct}") == 5
    for cid in ("C6", "C7", "C8", "C9", "C10", "C11"):
        assert f"{cid}:" not in said, said

    # what the notes foretell is what verify does; the test module, once written, is met
    ran = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=project)
    rows = {row["id"]: (row["verdict"], row["exit"]) for row in json.loads(ran.stdout)["rows"]}
    assert rows["C1"] == ("unmet", "2") and rows["C5"] == ("unmet", "2"), rows
    assert all(rows[cid] == ("unmet", "1") for cid in ("C2", "C3", "C4")), rows
    assert all(rows[cid][0] == "met" for cid in ("C6", "C7", "C8", "C9", "C10")), rows
    (project / "tests" / "test_new.py").write_text((project / "tests" / "test_a.py").read_text())
    ran = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=project)
    assert [r["verdict"] for r in json.loads(ran.stdout)["rows"] if r["id"] == "C3"] == ["met"]


def test_a_unittest_name_typed_in_a_sub_folder_is_named(project: Path) -> None:
    """In `tests/`, `python -m unittest test_a` runs; the checks run at the git top level,
    where there is no module `test_a`. activate shows it with the rows it approves."""
    done = run_goalfile(
        "new", "demo", "x", "--non-goal", "n", "--check", f"{PY} -m unittest test_a",
        "--expected", "exit 0", cwd=project / "tests",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "is given `test_a`, which is no module where the checks run" in done.stderr

    activated = run_goalfile("activate", "../goals/demo.md", cwd=project / "tests")

    assert activated.returncode == 0, activated.stderr
    assert "warning: C1: " in activated.stderr and "`test_a`" in activated.stderr


def test_no_makefile_and_a_makefile_it_cannot_read_whole(project: Path) -> None:
    (project / "makefile").unlink()
    done = run_goalfile(
        "new", "demo", "x", "--non-goal", "n", "--check", "make test", "--expected", "exit 0",
        cwd=project,
    )  # fmt: skip
    assert "note: C1: make finds no makefile (GNUmakefile, makefile or Makefile)" in done.stderr
    (project / "goals" / "demo.md").unlink()
    # an include may hold the rule: nothing is said
    (project / "Makefile").write_text("include rules.mk\n")
    done = run_goalfile(
        "new", "demo", "x", "--non-goal", "n", "--check", "make test", "--expected", "exit 0",
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 0 and "note:" not in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("command", "shape"),
    [
        ("python -m unittest -k fast tests.test_a", ([], [], ["tests.test_a"], None)),
        ("python3 -u -W ignore run.py x", ([], [], [], "run.py")),
        ("python -m unittest discover -s src -t . -p 'test*.py'", (["src", "."], [], [], None)),
        ("python -m unittest discover src 'test*.py' .", (["src", "."], [], [], None)),
        ("python -m unittest tests/test_a.py", (["tests/test_a.py"], [], [], None)),
        ("python -m http.server", ([], ["http.server"], [], None)),
        ("python -m pytest tests", None),  # the pytest shape
        ("python -c 'print(1)'", None),
        ("python -Bc 'print(1)'", None),
        ("python --version", None),
        ("python", None),
        ("pythonista x.py", None),
    ],
)
def test_python_operands(command: str, shape: tuple[object, ...] | None) -> None:
    found = python_operands(shlex.split(command))
    got = None if found is None else (found.paths, found.modules, found.tests, found.script)
    assert got == shape


@pytest.mark.parametrize(
    ("command", "targets"),
    [
        ("make test", ["test"]),
        ("make -j 4 -k all check V=1", ["all", "check"]),
        ("make", []),
        ("make -C sub test", ["test"]),  # another folder's makefile: read there
        ("make -f other.mk test", ["test"]),
        ("make --file=other.mk test", ["test"]),
        ("make -I inc test", None),  # an include folder: left alone
        ("gmake -s docs", ["docs"]),
        ("cmake --build .", None),
    ],
)
def test_make_targets(command: str, targets: list[str] | None) -> None:
    assert make_targets(shlex.split(command)) == targets


def test_a_tool_missing_inside_make_is_unmet_as_format_md_says(project: Path) -> None:
    """docs/format.md (Verdicts): a recipe's program that is not installed makes make exit 2, a
    result, so the row is `unmet`, not `error`; `new` names nothing, the target has a rule."""
    (project / "makefile").write_text("cover:\n\tno-such-tool-here run\n")
    done = run_goalfile(
        "new", "demo", "x", "--non-goal", "n", "--check", "make cover", "--expected", "exit 0",
        "--activate", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0 and "note:" not in done.stderr, done.stderr

    ran = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=project)

    [row] = json.loads(ran.stdout)["rows"]
    assert (row["verdict"], row["exit"]) == ("unmet", "2"), row
    assert "make: no-such-tool-here: No such file or directory" in ran.stderr + json.dumps(row)


def test_an_interpreter_the_repository_holds_is_not_run(project: Path) -> None:
    """`new` and `activate` read a goal before a person approves its checks: a `python` of the
    repository (named by its path, or found through a PATH entry inside it) could be anything
    its author wrote, so it is not asked about modules; it would have left `ran.txt`."""
    tools = project / "tools"
    tools.mkdir()
    python = tools / "python"
    python.write_text(f"#!/bin/sh\necho ran > {project / 'ran.txt'}\n")
    python.chmod(0o755)
    path = f"{tools}:{clean_env()['PATH']}"
    for check, env in (("tools/python -m nosuch", None), ("python -m nosuch", {"PATH": path})):
        done = run_goalfile(
            "new", "demo", "x", "--non-goal", "n", "--check", check, "--expected", "exit 0",
            cwd=project, env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        activated = run_goalfile("activate", "goals/demo.md", cwd=project, env=env)
        assert activated.returncode == 0, activated.stderr
        assert not (project / "ran.txt").exists(), check
        (project / "goals" / "demo.md").unlink()


def test_a_virtual_environment_in_the_repository_is_asked(project: Path) -> None:
    """`.venv/bin/python` of a virtual environment made in the repository links to a Python
    outside it: that one is asked, and the module it lacks is named."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")], check=True
    )
    done = run_goalfile(
        "new", "demo", "x", "--non-goal", "n", "--check", ".venv/bin/python -m nosuch_here",
        "--expected", "exit 0", cwd=project,
    )  # fmt: skip
    assert "note: C1: python is given `nosuch_here`, which is no module where the checks run" in (
        done.stderr
    ), done.stderr


def test_the_pth_files_of_a_virtual_environment_in_the_repository_are_not_run(
    project: Path,
) -> None:
    """A `.pth` file's `import` line is code: site runs it at the interpreter's start, and the
    site-packages of a virtual environment made in the repository are the repository's files.
    The interpreter is asked with -S: the paths its site-packages and their `.pth` files give
    are added by site's rules, and a `.pth` there that imports leaves the answer untold."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")], check=True
    )
    (packages,) = (project / ".venv" / "lib").glob("python*/site-packages")
    (packages / "installed").mkdir()
    (packages / "installed" / "__init__.py").write_text("")
    (project / "src" / "editable").mkdir(parents=True)
    (project / "src" / "editable" / "__init__.py").write_text("")
    (packages / "_editable.pth").write_text(f"{project / 'src'}\n")  # as an editable install
    checks = ("installed", "editable", "editable.nosuch")
    for module in checks:
        done = run_goalfile(
            "new", "demo", "x", "--non-goal", "n", "--check", f".venv/bin/python -m {module}",
            "--expected", "exit 0", cwd=project,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        named = f"python is given `{module}`, which is no module" in done.stderr
        assert named == (module == "editable.nosuch"), (module, done.stderr)
        (project / "goals" / "demo.md").unlink()
    ran = project / "ran.txt"
    (packages / "zz.pth").write_text(f"import pathlib; pathlib.Path({str(ran)!r}).touch()\n")
    done = run_goalfile(
        "new", "demo", "x", "--non-goal", "n", "--check", ".venv/bin/python -m nosuch_here",
        "--expected", "exit 0", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not ran.exists()
    assert "nosuch_here" not in done.stderr  # what the import would add cannot be told


@pytest.mark.parametrize(
    ("makefile", "target", "named"),
    [
        ("test:\n\techo\n", "test", False),
        ("test:\n\techo\n", "docs", True),
        # a rule's line inside define ... endef is text, not a rule
        ("define RECIPE\ndocs: x\nendef\ntest:\n\techo\n", "docs", True),
        ("$(NAME): x\n\techo\n", "docs", False),  # a target made of variables: not told
        ("%.html: %.md\n\techo\n", "docs", False),  # a pattern rule may make it: not told
        # a phony target with no rule: make says "Nothing to be done", exit 0
        (".PHONY: lint docs\ntest:\n\techo\n", "docs", False),
        (".PHONY: $(NAMES)\ntest:\n\techo\n", "docs", False),  # names not told
        (".PHONY: lint\ntest:\n\techo\n", "docs", True),
        ("# " + "x" * (1 << 20) + "\ntest:\n", "docs", False),  # too long to read whole
    ],
)
def test_what_a_makefile_read_as_text_makes(
    tmp_path: Path, makefile: str, target: str, named: bool
) -> None:
    """`no_rule` on the makefile's text alone (no make run): a target no rule names is named,
    and none is where the text cannot tell."""
    from goalfile.commands.makeoperands import no_rule

    (tmp_path / "Makefile").write_text(makefile, encoding="utf-8")
    said = no_rule(["make", target], tmp_path)
    assert (said is not None and f"`{target}`" in said) if named else said is None, said


def test_a_phony_target_without_a_rule_is_no_note_as_make_exits_0(tmp_path: Path) -> None:
    """Fails before the change: `.PHONY: test` with no rule for `test` was named "no rule of
    its Makefile makes `test`: make exits 2", while the real make says "Nothing to be done
    for 'test'" and exits 0."""
    from goalfile.commands.makeoperands import no_rule

    (tmp_path / "Makefile").write_text(".PHONY: test lint\nlint:\n\techo lint\n", "utf-8")
    done = subprocess.run(["make", "test"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert no_rule(["make", "test"], tmp_path) is None
