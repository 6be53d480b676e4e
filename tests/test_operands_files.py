"""`new` names a file a linter or a script runner check reads that is not there where the checks
run: `ruff check src/nope.py` (E902, exit 1), `node tools/nope.js` (exit 1), `sh tools/nope.sh`
(exit 2 where sh is dash): `unmet` until the work makes it; `bash tools/nope.sh` exits 127, which
verify judges `error`, blocking the goal. A word after a long option that takes a value, and text
a runner is given to run (`bash -c`), are not paths. Real programs in a real git repository."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from conftest import git, run_goalfile

from goalfile.commands.fileoperands import named_files

RUFF = shlex.quote(str(Path(sys.executable).parent / "ruff"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "tools").mkdir()
    (repo / "src" / "app.py").write_text("VALUE = 1\n")
    (repo / "tools" / "run.sh").write_text("echo ran\n")
    git(repo, "init", "-q", "-b", "master")
    git(repo, "add", ".")
    git(repo, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "s")
    return repo


def test_new_names_the_files_not_there_and_verify_does_as_the_notes_say(project: Path) -> None:
    checks = [
        "bash tools/nope.sh",
        f"{RUFF} check --quiet src/nope.py",
        "node tools/nope.js",
        f"{RUFF} check --output-file out/report.txt src/app.py",  # a value, and a file there
        "bash -e tools/run.sh",
        "bash -c 'test -f tools/nope.sh'",  # text bash runs
    ]
    args = ["new", "demo", "x", "--non-goal", "n"]
    for check in checks:
        args += ["--check", check, "--expected", "exit 0"]

    done = run_goalfile(*args, cwd=project)

    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: C")]
    assert [note.split(":")[1].strip() for note in notes] == ["C1", "C2", "C3"], done.stderr
    assert notes[0].startswith(
        "note: C1: bash is given `tools/nope.sh`, which is not there where the checks run: bash "
        "exits 127, the status of a command not found, and verify judges the row `error`, which "
        "blocks the goal, until the work makes it; if the work is not to make it, correct it"
    ), notes[0]
    for note, program, path in (
        (notes[1], "ruff", "src/nope.py"),
        (notes[2], "node", "tools/nope.js"),
    ):
        assert note.startswith(
            f"note: {note[6:8]}: {program} is given `{path}`, which is not there where the checks "
            "run: it reports its own error (an exit status other than 0), and verify judges the "
            "row `unmet` until the work makes it"
        ), note
    ran = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=project)
    rows = {row["id"]: (row["verdict"], row["exit"]) for row in json.loads(ran.stdout)["rows"]}
    assert rows["C1"] == ("error", "127"), rows
    assert rows["C2"] == ("unmet", "1") and rows["C3"] == ("unmet", "1"), rows
    assert rows["C5"] == ("met", "0") and rows["C6"] == ("unmet", "1"), rows


def test_sh_says_what_this_system_s_sh_does(project: Path) -> None:
    """`sh` is dash on some systems (exit 2: unmet) and bash on others (exit 127: error); the
    note names both, and verify does one of them."""
    done = run_goalfile(
        "new", "demo", "x", "--non-goal", "n", "--check", "sh tools/nope.sh", "--expected",
        "exit 0", cwd=project,
    )  # fmt: skip
    assert (
        "note: C1: sh is given `tools/nope.sh`, which is not there where the checks run: sh exits "
        "2 (127 where it is bash: an `error` row, which blocks the goal), and verify judges the "
        "row `unmet` until the work makes it"
    ) in done.stderr
    ran = run_goalfile("verify", "--no-write", "--json", "goals/demo.md", cwd=project)
    [row] = json.loads(ran.stdout)["rows"]
    assert (row["verdict"], row["exit"]) in (("unmet", "2"), ("error", "127")), row


@pytest.mark.parametrize(
    ("command", "paths"),
    [
        ("flake8 markdown tests/test_a.py", ["tests/test_a.py"]),  # `markdown`: no path shape
        ("mypy --config-file setup.cfg src/", ["src/"]),
        ("ruff format --check src/app.py", ["src/app.py"]),
        ("ruff rule E501", None),
        ("black --check --diff src/a.py", ["src/a.py"]),
        ("isort --check-only --diff src/a.py", ["src/a.py"]),  # isort's --check
        ("pylint --errors-only src/pkg", ["src/pkg"]),
        ("mypy --strict --show-error-codes src/", ["src/"]),
        ("flake8 --max-line-length 120 src/a.py", ["src/a.py"]),
        ("flake8 --output-file out/r.txt src", []),
        ("ruff check -o out/r.txt src/a.py", ["src/a.py"]),  # -o's value is no path to read
        ("sh -ec 'echo x'", None),
        ("node -e 'x'", None),
        ("bash -x tools/run.sh arg/x", ["tools/run.sh"]),
        ("node tools/build.mjs", ["tools/build.mjs"]),
        ("pytest tests/a.py", None),  # the pytest shape
    ],
)
def test_named_files(command: str, paths: list[str] | None) -> None:
    assert named_files(shlex.split(command)) == paths
