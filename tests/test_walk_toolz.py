"""A new user's first hour on toolz 1.2.0 (setup.cfg and pyproject.toml, its tests inside the
package, toolz/tests), the sdist downloaded once into the cache outside the clone
(tests/test_walk.sdist), following the README: `goalfile init --no-goal` on a machine without
Codex.

init's note on Codex's hook trust offered `goalfile init --no-goal --trust-codex` as the way to
trust the hook, and that command, run as written where `codex` is not on PATH, is refused
(exit 3, "cannot trust the Codex hook: `codex` is not on PATH").
"""

from __future__ import annotations

import shlex
import shutil
import sys
import tarfile
from pathlib import Path

import pytest

from tests.conftest import git, make_git_repo, run_goalfile
from tests.test_console import on_a_terminal
from tests.test_walk import sdist

VERSION = "1.2.0"
NAME = f"toolz-{VERSION}"
WITHOUT_CODEX = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with tarfile.open(sdist("toolz", VERSION, f"{NAME}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    return make_git_repo(tmp_path / NAME)


def test_init_without_codex_on_path_offers_the_trust_command_for_when_it_is(
    project: Path, tmp_path: Path
) -> None:
    assert shutil.which("codex", path=WITHOUT_CODEX["PATH"]) is None
    env = {**WITHOUT_CODEX, "CODEX_HOME": str(tmp_path / "codex")}
    done = run_goalfile("init", "--no-goal", cwd=project, env=env)
    assert done.returncode == 0, done.stderr
    note = next(line for line in done.stderr.splitlines() if "Codex skips the hooks" in line)
    assert "or run `goalfile init --no-goal --trust-codex`" not in note, note
    assert (
        "or, once `codex` is on PATH (it is not now), run `goalfile init --no-goal --trust-codex`"
    ) in note, note
    assert "open `/hooks`" in note and "`goalfile doctor` checks it" in note, note
    # why: run as written now, it is refused
    trust = run_goalfile("init", "--no-goal", "--trust-codex", cwd=project, env=env)
    assert trust.returncode == 3, trust.stderr
    assert "cannot trust the Codex hook: `codex` is not on PATH" in trust.stderr


def test_the_ticker_of_a_long_command_shows_its_time_as_the_verdict_line_does(
    project: Path,
) -> None:
    suite = "python -m pytest -q -p no:cacheprovider toolz/tests/test_curried.py"
    done = run_goalfile(
        "new", "demo", "toolz's curried tests pass", "--non-goal", "toolz/tests stays",
        "--check", suite, "--expected", "exit 0", cwd=project, env=WITHOUT_CODEX,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = on_a_terminal(project, {**WITHOUT_CODEX, "TERM": "xterm-256color"}).decode()
    assert "C1 \x1b[32mmet\x1b[0m (" in shown, shown
    ticks = [t for t in shown.split("\r\x1b[K") if t.startswith("  [1/1] C1 ")]
    assert ticks, shown
    cut = "  [1/1] C1 python -m pytest -q -p no:cacheprovider toolz/t… ("
    for tick in ticks:
        assert tick.startswith(cut), tick
        assert tick.endswith("s)") and "… …" not in tick, tick


def test_verify_that_blocks_on_a_check_that_cannot_run_says_what_to_do(project: Path) -> None:
    suite = "python -m pytest -q -p no:cacheprovider toolz/tests/test_curried.py"
    done = run_goalfile(
        "new", "curried", "toolz's curried tests pass", "--non-goal", "toolz/tests stays",
        "--check", suite, "--expected", "exit 0",
        "--check", "flake8-not-installed toolz", "--expected", "exit 0",
        "--activate", cwd=project, env=WITHOUT_CODEX,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ran = run_goalfile("verify", "goals/curried.md", cwd=project, env=WITHOUT_CODEX, timeout=300)
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert ran.stdout.splitlines()[-1] == (
        "verify-goal curried iteration 0: C1 met, C2 error; status: blocked"
    )
    told = [line for line in ran.stderr.splitlines() if line.startswith("next: ")]
    assert told == [
        "next: C2 could not run, which blocks the goal: remove the cause, then "
        "`goalfile resume goals/curried.md --resolved TEXT` and verify again"
    ], ran.stderr
    # the command works as written
    command = told[0].split("`")[1]
    resumed = run_goalfile(*shlex.split(command)[1:], cwd=project, env=WITHOUT_CODEX)
    assert resumed.returncode == 0, resumed.stderr
    lines = (project / "goals" / "curried.md").read_text().splitlines()
    assert next(line for line in lines if line.startswith("status:")).split()[1] == "active"
    # a run that writes nothing, or blocks no goal, says nothing of it
    again = run_goalfile(
        "verify", "--no-write", "goals/curried.md", cwd=project, env=WITHOUT_CODEX, timeout=300
    )
    assert again.returncode == 4 and "next: " not in again.stderr, again.stderr


def test_audit_of_a_goal_committed_once_since_the_base_says_no_later_commit(
    project: Path,
) -> None:
    git(project, "add", "-A")
    git(project, "commit", "-qm", "toolz 1.2.0")
    git(project, "branch", "base")
    suite = "python -m pytest -q -p no:cacheprovider toolz/tests/test_curried.py"
    done = run_goalfile(
        "new", "curried", "toolz's curried tests pass", "--non-goal", "toolz/tests stays",
        "--check", suite, "--expected", "exit 0", "--activate", "--commit",
        cwd=project, env=WITHOUT_CODEX,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    audited = run_goalfile("audit", "--against", "base", cwd=project, env=WITHOUT_CODEX)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    said = audited.stdout + audited.stderr
    assert "and to no later commit of it: entries are only appended" in said, said
    assert "0 later commits" not in said, said
