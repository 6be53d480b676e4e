"""The CI recipe in docs/ci.md, run as written: its shell step, the real goalfile on PATH, jq,
and a real git repository."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from conftest import clean_env, goal_text, row, run_goalfile, write_goal

DOCS = Path(__file__).resolve().parent.parent / "docs" / "ci.md"
STEP = "- name: Run the checks of every goal that claims met"


def recipe_step() -> str:
    """The shell script of the step, from the YAML block of docs/ci.md, dedented."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(STEP)
    block = re.search(r"\n( +)run: \|\n((?:\1  .*\n|\n)+)", text[start:])
    assert block is not None, "the step has no `run: |` block"
    indent = len(block.group(1)) + 2
    return "".join(line[indent:] + "\n" for line in block.group(2).splitlines())


def run_step(
    repo: Path, *, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The step, run in ``repo``; ``env`` holds what its `env:` block sets (GitHub's values)."""
    jq = shutil.which("jq")
    assert jq is not None, "the CI recipe needs jq: install it (apt-get install jq)"
    path = f"{Path(sys.executable).parent}:{Path(jq).parent}:/usr/bin:/bin"
    return subprocess.run(
        ["bash", "-e", "-c", recipe_step()],
        cwd=repo,
        env=clean_env({**(env or {}), "PATH": path}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def goals(repo: Path) -> Path:
    """One honest met goal, and one active goal whose check fails."""
    met = write_goal(repo / "goals", goal_text(slug="done"), "done.md")
    assert run_goalfile("verify", met, cwd=repo).returncode == 0
    write_goal(
        repo / "goals",
        goal_text(slug="todo", rows=(row("C1", "test -f built", "exit 0"),)),
        "todo.md",
    )
    return repo


def test_the_step_passes_an_honest_repository(goals: Path) -> None:
    done = run_step(goals)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verify-goal done iteration 1: C1 met; status: met" in done.stdout
    assert "verify-goal todo" not in done.stdout  # active: not a gate


def test_the_step_fails_a_met_typed_by_hand(goals: Path) -> None:
    """`status: met` with no verify entry: `status --json` reports only an error for it, and the
    step must still re-run its checks."""
    todo = goals / "goals" / "todo.md"
    todo.write_text(todo.read_text("utf-8").replace("status: active", "status: met", 1), "utf-8")
    shown = run_goalfile("status", "--json", "goals/todo.md", cwd=goals)
    assert '"error"' in shown.stdout and '"status"' not in shown.stdout  # why the filter is wide
    done = run_step(goals)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "goals/todo.md:3: the status is `met`, but the ledger has no verify entry" in (
        done.stderr
    )


def test_the_step_fails_a_goal_file_that_does_not_load(goals: Path) -> None:
    todo = goals / "goals" / "todo.md"
    todo.write_text(todo.read_text("utf-8").replace("tokens_used: 0\n", "note: [x\n", 1), "utf-8")
    done = run_step(goals)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "not valid YAML" in done.stderr


def met_then_evidence_removed(repo: Path, folder: Path, name: str, slug: str) -> Path:
    """A goal made `met` by a verify run while its evidence existed; the evidence is then gone,
    so its check fails on the tree CI sees."""
    goal = write_goal(
        folder, goal_text(slug=slug, rows=(row("C1", "test -f evidence", "exit 0"),)), name
    )
    (repo / "evidence").write_text("", "utf-8")
    assert run_goalfile("verify", goal, cwd=repo).returncode == 0
    (repo / "evidence").unlink()
    return goal


@pytest.mark.parametrize(
    ("folder", "name"),
    [("goals/auth", "login.md"), ("goals", ".login.md"), (".zetetic/goals/team", "login.md")],
)
def test_the_step_reruns_every_goal_goalfile_discovers(goals: Path, folder: str, name: str) -> None:
    """A goal in a sub-folder of goals/, a dot-file goal and one under .zetetic/goals/ are
    goals for status, audit and the hook; the step re-runs them too (a glob `goals/*.md`
    skipped the first two while the top-level goals kept it non-empty)."""
    goal = met_then_evidence_removed(goals, goals / folder, name, "login")
    path = str(goal.relative_to(goals))
    shown = run_goalfile("status", "--json", cwd=goals)
    assert f'"path": "{path}"' in shown.stdout, shown.stdout
    done = run_step(goals)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "verify-goal login iteration 1: C1 unmet" in done.stdout, done.stdout
    assert "verify-goal done iteration 1: C1 met; status: met" in done.stdout


def test_the_step_fails_when_status_cannot_run(goals: Path) -> None:
    """An exit of `status` other than 0 or 3 (here: a usage error from a goalfile too old to
    know `--json` is imitated by a wrapper) fails the step instead of re-running nothing."""
    wrapper = goals / "bin"
    wrapper.mkdir()
    fake = wrapper / "goalfile"
    fake.write_text("#!/bin/sh\necho 'Error: No such option: --json' >&2\nexit 2\n", "utf-8")
    fake.chmod(0o755)
    jq = shutil.which("jq")
    assert jq is not None, "the CI recipe needs jq: install it (apt-get install jq)"
    done = subprocess.run(
        ["bash", "-e", "-c", recipe_step()],
        cwd=goals,
        env=clean_env({"PATH": f"{wrapper}:{Path(jq).parent}:/usr/bin:/bin"}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0, done.stdout + done.stderr
