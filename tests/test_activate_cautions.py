"""`goalfile activate` listed the rows a person approves but not what lint warns about them,
nor a check whose program the goal's shell cannot find (which `new` notes): a check forced to
exit 0, a row without an exit clause and `pytset -q` were approved without a word. The
approval still goes ahead; each warning is shown with the rows (and in --json)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import make_git_repo, run_goalfile


def draft(repo: Path, *rows: tuple[str, str]) -> None:
    args = ["new", "g", "the end state", "--non-goal", "n"]
    for check, expected in rows:
        args += ["--check", check, "--expected", expected]
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == 0, done.stderr


def test_activate_shows_the_row_warnings_and_a_program_not_found(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    draft(
        repo,
        ("sh -c 'exit 3' || true", "exit 0"),
        ("goalfile-no-such-program -q", "exit 0"),
        ("ls", 'stdout contains "g"'),
    )
    done = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("  warning: ")]
    assert len(warnings) == 3, done.stderr
    assert any("C1: the check cannot fail" in w and "`|| true`" in w for w in warnings)
    assert any("C2: the shell" in w and "`goalfile-no-such-program`" in w for w in warnings)
    assert any("C3: expected has no exit clause" in w for w in warnings)
    assert "goals/g.md: active (3 criteria approved)" in done.stdout
    # what it warned about is so: C1 is met although its command failed, C2 is an error row
    verify = run_goalfile("verify", "--no-write", "--json", "goals/g.md", cwd=repo)
    verdicts = {row["id"]: row["verdict"] for row in json.loads(verify.stdout)["rows"]}
    assert verdicts["C1"] == "met" and verdicts["C2"] == "error", verdicts


def test_a_sound_goal_is_activated_without_a_warning(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    draft(repo, ("ls", 'exit 0; stdout contains "goals"'))
    done = run_goalfile("activate", "--json", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["warnings"] == []
    assert "warning" not in done.stderr
