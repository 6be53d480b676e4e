"""A budget line of the ledger goalfile cannot read (a limit that is not 1 to 18 ASCII digits, a
misspelt word) is a finding with its line and a fix, not silently ignored: an error where it
leaves a limit that only the frontmatter gives, a warning where the ledger still records the
limit. The real goalfile on goals activated (and raised) in a real git repository, then edited
as a hand would edit them."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import clean_env, copy_of, git, goal_text, made_once, row, run_goalfile

GOAL = "goals/bud.md"


def make_activated(repo: Path, env: dict[str, str]) -> None:
    (repo / "goals").mkdir()
    (repo / "goals" / "bud.md").write_text(
        goal_text(
            slug="bud", status="draft", iterations_used=0, rows=(row("C1", "true", "exit 0"),)
        )
    )
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "approved")


@pytest.fixture(scope="module")
def made_activated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, make_activated)


@pytest.fixture
def activated(tmp_path: Path, made_activated: Path) -> Path:
    """A copy of the repository :func:`make_activated` makes once for the module: goals/bud.md
    activated and committed."""
    return copy_of(made_activated, tmp_path / "repo")


def _replace_line(repo: Path, old: str, new: str) -> int:
    """Replace the ledger line ``old`` by ``new``; its 1-based line number."""
    path = repo / GOAL
    lines = path.read_text().split("\n")
    at = lines.index(old)
    lines[at] = new
    path.write_text("\n".join(lines))
    return at + 1


def _findings(repo: Path, *command: str) -> list[dict[str, object]]:
    done = run_goalfile(*command, "--json", GOAL, cwd=repo)
    found: list[dict[str, object]] = json.loads(done.stdout)["files"][0]["findings"]
    return [f for f in found if f["code"] == "budget-record-invalid"]


def _fix_runs(repo: Path, hint: str) -> None:
    """The `git log -p` a fix names works as written, in the repository."""
    command = re.search(r"`(git log -p -- [^`]+)`", hint)
    assert command is not None, hint
    done = subprocess.run(
        command[1], shell=True, cwd=repo, env=clean_env(), capture_output=True, text=True
    )
    assert done.returncode == 0 and "budget approved:" in done.stdout, done.stderr


@pytest.mark.parametrize(
    "edited",
    [
        "budget approved: iterations 5,000, tokens unbounded",  # not 1 to 18 ASCII digits
        "budget approved: iterations ５, tokens unbounded",  # a fullwidth digit
        "budget approved: iteration 5, tokens unbounded",  # a misspelt word
        "Budget approved: iterations 5, tokens unbounded",
    ],
)
def test_an_approval_line_goalfile_cannot_read_is_an_error(activated: Path, edited: str) -> None:
    line = _replace_line(activated, "budget approved: iterations 5, tokens unbounded", edited)
    before = (activated / GOAL).read_bytes()

    lint = run_goalfile("lint", GOAL, cwd=activated)
    said = lint.stdout + lint.stderr
    assert lint.returncode == 3, said
    assert f"{GOAL}:{line}: error: `{edited}`" in said, said
    assert "is not a budget record goalfile can read" in said
    assert "the ledger then records no budget.iterations and budget.tokens limit" in said
    (found,) = _findings(activated, "lint")
    assert found["line"] == line and found["severity"] == "error", found
    _fix_runs(activated, str(found["hint"]))

    # every command refuses the file, as lint says, and leaves it untouched
    verify = run_goalfile("verify", GOAL, cwd=activated)
    assert verify.returncode == 3, verify.stdout + verify.stderr
    assert f"{GOAL}:{line}:" in verify.stderr and "Traceback" not in verify.stderr
    assert (activated / GOAL).read_bytes() == before

    audit = run_goalfile("audit", "--json", GOAL, cwd=activated)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    found_audit = [
        f
        for f in json.loads(audit.stdout)["files"][0]["findings"]
        if f["code"] == "budget-record-invalid"
    ]
    assert [f["line"] for f in found_audit] == [line], found_audit


def test_a_raise_goalfile_cannot_read_is_a_warning_the_approved_limit_stays(
    activated: Path,
) -> None:
    raised = run_goalfile("budget", GOAL, "--iterations", "8", cwd=activated)
    assert raised.returncode == 0, raised.stderr
    line = _replace_line(activated, "budget.iterations: 5 → 8", "budget.iterations: 5 → 8x")

    lint = run_goalfile("lint", GOAL, cwd=activated)
    said = lint.stdout + lint.stderr
    assert lint.returncode == 0, said  # a warning: nothing gets more room
    assert f"{GOAL}:{line}: warning: `budget.iterations: 5 → 8x`" in said, said
    assert "every command goes by budget.iterations 5" in said
    (found,) = _findings(activated, "lint")
    assert found["line"] == line and found["severity"] == "warning", found
    hint = str(found["hint"])
    assert f"`goalfile budget {GOAL} --iterations 8`" in hint, hint
    _fix_runs(activated, hint)

    audit = run_goalfile("audit", GOAL, cwd=activated)
    assert audit.returncode == 1, audit.stdout
    assert f"{GOAL}:{line}: budget-record-invalid" in audit.stdout, audit.stdout

    # the fix as written ledgers the raise readably, and the finding is gone
    again = run_goalfile("budget", GOAL, "--iterations", "8", cwd=activated)
    assert again.returncode == 0, again.stderr
    shown = json.loads(run_goalfile("status", "--json", GOAL, cwd=activated).stdout)["goals"][0]
    assert shown["iterations"]["budget"] == 8, shown
    still = _findings(activated, "lint")
    assert [f["line"] for f in still] == [line], still  # the edited line is still there
    assert run_goalfile("verify", GOAL, cwd=activated).returncode == 0


def test_a_misspelt_raise_is_a_warning(activated: Path) -> None:
    raised = run_goalfile("budget", GOAL, "--iterations", "8", cwd=activated)
    assert raised.returncode == 0, raised.stderr
    line = _replace_line(activated, "budget.iterations: 5 → 8", "budget.iteration: 5 → 8")
    (found,) = _findings(activated, "lint")
    assert found["line"] == line and found["severity"] == "warning", found


def test_in_a_ledger_without_an_approval_line_an_unreadable_first_raise_is_an_error(
    activated: Path,
) -> None:
    """A ledger older than the `budget approved:` line records a limit from its first raise
    (its old value); without it only the frontmatter gives the limit."""
    raised = run_goalfile("budget", GOAL, "--iterations", "8", cwd=activated)
    assert raised.returncode == 0, raised.stderr
    path = activated / GOAL
    path.write_text(
        path.read_text().replace("budget approved: iterations 5, tokens unbounded\n", "", 1)
    )
    line = _replace_line(activated, "budget.iterations: 5 → 8", "budget.iterations: 5 → 8.0")
    (found,) = _findings(activated, "lint")
    assert found["line"] == line and found["severity"] == "error", found
    assert "records no budget.iterations limit" in str(found["message"]), found
    lint = run_goalfile("lint", GOAL, cwd=activated)
    assert lint.returncode == 3, lint.stdout + lint.stderr


def test_readable_records_and_other_notes_are_no_finding(activated: Path) -> None:
    for command in (
        ("budget", GOAL, "--iterations", "8"),
        ("pause", GOAL, "--reason", "budget review"),
    ):
        done = run_goalfile(*command, cwd=activated)
        assert done.returncode == 0, done.stderr
    assert _findings(activated, "lint") == []
    assert run_goalfile("audit", GOAL, cwd=activated).returncode == 0
