"""Edits of a goal file that read one way to a person, or to one reader, and another way to
what decides a status: the real goalfile process, a real git repository, the exact edit.

Each must be refused (exit 3, file untouched) or reported by audit.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import git, goal_text, run_goalfile

GOAL = "goals/g.md"


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def hook_decision(repo: Path) -> str:
    event = {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop"}
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", "--json", cwd=repo, input=json.dumps(event)
    )
    return str(json.loads(done.stdout or "{}").get("decision", "allow"))


# --------------------------------------------------------------------------------------------
# A cell whose source text reads like the approved row, but which Markdown shows (and goalfile
# runs) differently: the approval recorded the rows it approved, and those are what must run.

GUARD = r"git diff --exit-code HEAD -- tests/\*.json fixtures/\*.json"
MAIN_OK = r'exit 0; stdout contains "\_\_main\_\_ ok"'


@pytest.mark.parametrize(
    ("check", "expected", "shown"),
    [
        (GUARD, "exit 0", "`git diff --exit-code HEAD -- tests/.json fixtures/.json`"),
        ("`echo __main__ ok`", MAIN_OK, '`exit 0; stdout contains "main ok"`'),
    ],
    ids=["check", "expected"],
)
def test_dropping_the_escapes_of_an_approved_plain_cell_is_refused(
    repo: Path, check: str, expected: str, shown: str
) -> None:
    """The approved cell `tests/\\*.json` shows `tests/*.json`; typed without its escapes it
    shows `tests/.json` (emphasis), whose source text digests to the old pin."""
    (repo / "tests").mkdir()
    (repo / "fixtures").mkdir()
    (repo / "tests" / "t.json").write_text('{"a": 1}\n')
    (repo / "fixtures" / "f.json").write_text('{"b": 1}\n')
    path = repo / GOAL
    text = goal_text(slug="g", status="draft", iterations_used=0)
    plain = f"| C1 | guarded | {check} | {expected} | deterministic |"
    path.write_text(re.sub(r"(?m)^\| C1 .*$", lambda _: plain, text, count=1))
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    commit(repo, "base")
    (repo / "tests" / "t.json").write_text('{"a": 2}\n')  # the guarded fixture changes
    unescaped = plain.replace("\\", "")
    path.write_text(path.read_text().replace(plain, unescaped, 1))
    before = path.read_bytes()

    done = run_goalfile("verify", GOAL, cwd=repo)

    assert done.returncode == 3, done.stdout + done.stderr
    assert "started" not in done.stdout and "status: met" not in done.stdout
    assert f"{GOAL}:10: the contract changed since it was approved" in done.stderr
    assert "the cells' source text digests to the pin" in done.stderr
    assert f"→ {shown}" in done.stderr
    assert (
        "fix: restore the approved rows, or have a person re-approve the change with "
        f"`goalfile activate --reapprove {GOAL} --reason TEXT`"
    ) in done.stderr
    assert path.read_bytes() == before
    assert run_goalfile("verify", "--no-write", GOAL, cwd=repo).returncode == 3
    audit = run_goalfile("audit", GOAL, cwd=repo)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    assert f"{GOAL}:20: contract-drift" in audit.stdout
    assert hook_decision(repo) == "block"
    # the fix works as written: a person approves what Markdown shows, and it runs
    again = run_goalfile("activate", "--reapprove", GOAL, "--reason", "escapes dropped", cwd=repo)
    assert again.returncode == 0, again.stderr
    rerun = run_goalfile("verify", GOAL, cwd=repo)
    assert rerun.returncode in (0, 1) and "C1 started" in rerun.stdout, rerun.stderr
