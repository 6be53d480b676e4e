"""A new user's first hour on idna 3.11 (flit, a unittest suite under tests/), the sdist
downloaded once into the cache outside the clone (tests/test_walk.sdist).

`goalfile new ... --activate`, the README's first command and the goal skill's step 5, wrote
and approved a row that lint warns about (a unittest check judged on stdout, where unittest
writes nothing of its report: never met) without a word: the warning came only from `goalfile
lint`, or from `goalfile activate` of a draft. `new` now prints the rows' warnings as lint
does, for a draft and an approved goal alike.
"""

from __future__ import annotations

import json
import os
import sys
import tarfile
from pathlib import Path

import pytest

from tests.conftest import REPO, make_git_repo, run_goalfile
from tests.test_walk import sdist

VERSION = "3.11"
NAME = f"idna-{VERSION}"
SUITE = "python -m unittest discover -s tests -t ."
WARNING = (
    ": warning: C1: unittest writes its report (`Ran N tests`, `OK`, `FAILED`) on stderr, so "
    '`stdout contains "OK"` is never met by its report: judge the stream unittest writes, '
    "`stderr ...`, or `output ...` for both "
    '(`exit 0; stderr contains "OK"`)\n'
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist("idna", VERSION, f"{NAME}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    return make_git_repo(tmp_path / NAME)


def environ() -> dict[str, str]:
    return {"PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"}


@pytest.mark.parametrize("activate", [True, False])
def test_new_prints_the_warnings_lint_gives_about_its_rows(project: Path, activate: bool) -> None:
    made = run_goalfile(
        "new", "suite", "the unittest suite passes", "--non-goal", "tests/ stays unchanged",
        "--check", SUITE, "--expected", 'exit 0; stdout contains "OK"',
        *(["--activate"] if activate else []), cwd=project, env=environ(),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "Traceback" not in made.stderr
    linted = run_goalfile("lint", "goals/suite.md", cwd=project, env=environ())
    line = 20 if activate else 19  # activate pinned the contract in the frontmatter
    assert linted.stderr == f"goals/suite.md:{line}{WARNING}", linted.stderr
    assert linted.stderr in made.stderr, made.stderr  # lint's words, where lint puts them
    again = run_goalfile(
        "new", "again", "the unittest suite passes", "--non-goal", "tests/ stays unchanged",
        "--check", SUITE, "--expected", 'exit 0; stdout contains "OK"', "--json",
        *(["--activate"] if activate else []), cwd=project, env=environ(),
    )  # fmt: skip
    as_json = json.loads(again.stdout)
    assert [(w["line"], w["code"]) for w in as_json["warnings"]] == [(line, "unittest-stdout")]
    if activate:  # what the warning says: the suite passes, and the row is never met
        ran = run_goalfile(
            "verify", "--no-write", "--json", "goals/suite.md", cwd=project, env=environ(),
            timeout=300,
        )  # fmt: skip
        (row,) = json.loads(ran.stdout)["rows"]
        assert (row["verdict"], row["exit"]) == ("unmet", "0"), row


def test_a_row_lint_does_not_warn_about_gets_no_warning(project: Path) -> None:
    made = run_goalfile(
        "new", "suite", "the unittest suite passes", "--non-goal", "tests/ stays unchanged",
        "--check", SUITE, "--expected", 'exit 0; stderr contains "OK"', "--activate",
        cwd=project, env=environ(),
    )  # fmt: skip
    assert made.returncode == 0 and "warning" not in made.stderr, made.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/suite.md", cwd=project, env=environ(), timeout=300
    )
    assert [r["verdict"] for r in json.loads(ran.stdout)["rows"]] == ["met"], ran.stdout


def test_the_goal_skill_has_the_agent_read_the_warnings_new_prints(project: Path) -> None:
    """The goal skill's step 5 (`goalfile new ... --activate` after the user's yes) told the
    agent to read only the `next:` line: a `warning:` line on a row approved that moment went
    unread. The step names them, and they are what `new` prints."""
    step = (REPO / "skills" / "goal" / "SKILL.md").read_text(encoding="utf-8")
    step = step.split("\n5. ", 1)[1].split("\n6. ", 1)[0]
    assert "a `warning:` line names a row `goalfile lint`" in step, step
    assert "show it to\n   the user" in step, step
    made = run_goalfile(
        "new", "suite", "the unittest suite passes", "--non-goal", "tests/ stays unchanged",
        "--check", SUITE, "--expected", 'exit 0; stdout contains "OK"', "--activate",
        cwd=project, env=environ(),
    )  # fmt: skip
    warned = [line for line in made.stderr.splitlines() if ": warning: C1: " in line]
    assert warned and warned[0].startswith("goals/suite.md:"), made.stderr


def test_a_line_of_unittest_dots_is_shown_cut_in_its_middle(project: Path) -> None:
    """idna's suite prints one character a test (6,366 of them) on one line: shown whole it
    filled a screen; verify shows its start and its end, says how much it left out and where
    the whole line is (`verify --json`, which keeps it)."""
    core = project / "idna" / "core.py"
    text = core.read_text()
    punycode = "    label_bytes = _alabel_prefix + _punycode(label)\n"
    assert punycode in text
    core.write_text(text.replace(punycode, punycode.replace(")\n", ') + b"x"\n'), 1))
    made = run_goalfile(
        "new", "suite", "the unittest suite passes", "--non-goal", "tests/ stays unchanged",
        "--check", SUITE, "--expected", 'exit 0; stderr contains "OK"', cwd=project, env=environ(),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/suite.md", cwd=project, env=environ()
    )
    dots = json.loads(ran.stdout)["rows"][0]["output"]["stderr_head"][0]
    assert len(dots) > 6000 and set(dots) == {".", "F", "E"}, dots  # kept whole in --json
    shown = run_goalfile("verify", "--no-write", "goals/suite.md", cwd=project, env=environ())
    assert shown.returncode == 1, shown.stderr
    lines = shown.stdout.splitlines()
    at = lines.index(f"  │ {dots[:130]} …[{len(dots) - 200:,} characters]… {dots[-70:]}")
    assert lines[at - 1].startswith("  stderr (first "), lines[at - 1]
    assert lines[at - 1].endswith(
        " bytes; 1 line over 200 characters cut in the middle, whole in `verify --json`):"
    ), lines[at - 1]
    assert max(map(len, lines)) < 240, max(lines, key=len)


def test_a_fix_in_ansi_c_quotes_names_the_shells_that_read_it(project: Path) -> None:
    """A goal whose name holds a tab is named in a fix as `$'goals/a\\011b.md'`: bash reads it
    back, dash (Debian's sh) reads `$goals/a\\011b.md`. The fix says which shells to run it in."""
    import shutil
    import subprocess

    made = run_goalfile(
        "new", "suite", "the unittest suite passes", "--non-goal", "tests/ stays unchanged",
        "--check", SUITE, "--expected", 'exit 0; stderr contains "OK"', cwd=project, env=environ(),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    (project / "goals" / "suite.md").rename(project / "goals" / "a\tb.md")
    ran = run_goalfile("verify", "goals/a\tb.md", cwd=project, env=environ())
    lines = ran.stderr.splitlines()
    fix = next(line for line in lines if line.startswith("  fix: "))
    assert "`goalfile activate $'goals/a\\011b.md'`" in fix, ran.stderr
    assert lines[lines.index(fix) + 1] == (
        "  shell: run it in bash, zsh or ksh; sh and dash do not read `$'...'` quotes"
    ), ran.stderr
    command = f"{sys.executable} -m goalfile lint $'goals/a\\011b.md'"
    dash = shutil.which("dash")
    assert dash, "this test needs dash (Debian's /bin/sh)"
    for shell, code in (("bash", 0), (dash, 3)):
        done = subprocess.run(
            [shell, "-c", command], cwd=project, capture_output=True, text=True, timeout=120,
            env={**os.environ, **environ()}, check=False,
        )  # fmt: skip
        assert done.returncode == code, (shell, done.stdout, done.stderr)
