"""A check that cannot fail (`pytest -q || true`, `pytest -q; exit 0`, `make test; echo done`)
judged by its exit status alone passed lint ("ok") and was approved, although the goal skill
forbids it: lint warns `status-forced`. Each command is first run by a real shell with a
measuring command that fails (`false`), so the warning is tied to what the shell does: a
flagged check exits 0 there, and every command lint leaves alone exits nonzero."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_goalfile

FORCED = [
    ("false || true", "|| true"),
    ("false; exit 0", "; exit 0"),
    ("false 2>&1 || true", "|| true"),
    ("false > out.txt; echo done", "; echo done"),
    ("false | true", "| true"),
    ("false && false || :", "|| :"),
    ("false & true", "& true"),
    ("false; true;", "; true"),
]
JUDGED = [
    "false",
    "false && true",
    "false && echo PASS",
    "false && false | true",
    "false || exit",
    "false; exit 1",
    "grep -q 'a || true' missing.txt",
    "set -o pipefail; false | true",
    "if true; then false; fi",
]
NOT_READ = ["(false) || true", "{ false; } || true", "if false; then true; fi"]
ALONE = ["true", "echo ok", ":"]  # hide no command that measures: a person reads what they do


def lint_codes(tmp_path: Path, check: str, expected: str) -> dict[str, str]:
    """lint's findings by code for a draft whose one row is ``check`` / ``expected``."""
    done = run_goalfile(
        "new", "g", "the end state", "--check", check, "--expected", expected,
        "--non-goal", "n", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lint = run_goalfile("lint", "--json", "goals/g.md", cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout + lint.stderr  # a warning, not an error
    [report] = json.loads(lint.stdout)["files"]
    return {f["code"]: f["message"] + "\n" + (f["hint"] or "") for f in report["findings"]}


def shell_status(check: str, cwd: Path) -> int:
    return subprocess.run(["sh", "-c", check], cwd=cwd, capture_output=True).returncode


@pytest.mark.parametrize(("check", "tail"), FORCED)
def test_a_check_the_shell_forces_to_0_judged_by_exit_alone_is_a_warning(
    tmp_path: Path, check: str, tail: str
) -> None:
    assert shell_status(check, tmp_path) == 0  # the real shell: the failure does not show
    found = lint_codes(tmp_path, check, "exit 0")
    assert "status-forced" in found, found
    assert "cannot fail" in found["status-forced"]
    assert f"(`{tail}` ends it)" in found["status-forced"]


@pytest.mark.parametrize("check", JUDGED)
def test_a_check_whose_status_can_show_a_failure_is_not_warned_about(
    tmp_path: Path, check: str
) -> None:
    assert shell_status(check, tmp_path) != 0  # the real shell: the failure shows
    assert "status-forced" not in lint_codes(tmp_path, check, "exit 0")


@pytest.mark.parametrize("check", NOT_READ)
def test_a_subshell_or_compound_command_is_not_read(tmp_path: Path, check: str) -> None:
    """What needs the shell to be told is left alone: never a false warning, at the price of a
    missed one (these exit 0 too)."""
    assert shell_status(check, tmp_path) == 0
    assert "status-forced" not in lint_codes(tmp_path, check, "exit 0")


def test_a_forced_status_with_a_clause_on_the_output_is_judged(tmp_path: Path) -> None:
    """`pytest -q || true` with `stdout contains " passed"` can fail: no warning."""
    found = lint_codes(tmp_path, "false || true", 'exit 0; stdout contains " passed"')
    assert "status-forced" not in found


@pytest.mark.parametrize("check", ALONE)
def test_a_check_that_is_only_true_or_echo_is_left_to_the_person(
    tmp_path: Path, check: str
) -> None:
    assert "status-forced" not in lint_codes(tmp_path, check, "exit 0")


def test_the_warning_says_what_to_drop_with_no_fix_line(tmp_path: Path) -> None:
    run_goalfile(
        "new", "g", "s", "--check", "pytest -q || true", "--expected", "exit 0",
        "--non-goal", "n", cwd=tmp_path,
    )  # fmt: skip
    done = run_goalfile("lint", "goals/g.md", cwd=tmp_path)
    assert done.returncode == 0
    assert "warning: C1: the check cannot fail" in done.stderr
    assert "the work does; drop `|| true`" in done.stderr
    assert "fix:" not in done.stderr, done.stderr  # no command rewrites the check
