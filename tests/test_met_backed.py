"""A `met` is backed only by a newest verify entry whose rows back the current contract: every
criterion has a row there, each `met`, each deterministic one running the criterion's check,
under the pinned digest. Typing `met` over the frontmatter status and over the `status:` line
of the verify entry the Stop hook wrote at the last stop (not committed, so the comparison
with HEAD sees only an appended entry) let the next stop go, with `lint` and `status` saying
all was well, while `audit` reported `met-row-not-met`. Now the hook, lint, status and audit
give the same answer. Real git repositories, real goalfile processes; the printed fix is run
as written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import clean_env, git, make_git_repo, run_goalfile, stop_input

WITH_GOALFILE = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}


def stop(repo: Path) -> dict[str, object]:
    """The Claude Code Stop hook in ``repo`` (``--json``): its answer."""
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", "--json", cwd=repo, input=stop_input(repo)
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer


def reason(answer: dict[str, object]) -> str:
    output = answer["host_output"]
    assert isinstance(output, dict), answer
    return str(output["reason"])


@pytest.fixture
def held(tmp_path: Path) -> Path:
    """A committed goal with C1 met and C2 unmet, which the Stop hook verified and held on
    (its verify entry, not committed, says `status: active`)."""
    root = make_git_repo(tmp_path / "project")
    done = run_goalfile(
        "new", "demo", "it works", "--check", "test -f done", "--expected", "exit 0",
        "--check", "test -f other", "--expected", "exit 0", "--activate", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (root / "done").write_text("", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    answer = stop(root)
    assert answer["decision"] == "block", answer
    assert reason(answer).startswith("verify-goal demo iteration 0: C1 met, C2 unmet"), answer
    return root


def forge(text: str, how: str) -> str:
    """The agent's hand edits: `met` on the frontmatter's status line and on the newest verify
    entry's, and, by ``how``, one more edit of that entry's rows."""
    text = text.replace("status: active #", "status: met #", 1)
    at = text.rindex("### Iteration 0 (")
    head, entry = text[:at], text[at:]
    assert "by verify-goal" in entry.split("\n", 1)[0]
    entry = entry.replace("\nstatus: active\n", "\nstatus: met\n", 1)
    row = re.compile(r"^\| C2 +\| unmet .*\n", re.MULTILINE)
    assert row.search(entry) is not None, entry
    if how == "row-removed":
        entry = row.sub("", entry, count=1)
    elif how == "other-command":
        entry = row.sub("| C2  | met     | `true` | 0    | (no output) |\n", entry, count=1)
    return head + entry


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("status-lines", "met-row-not-met"),
        ("row-removed", "met-row-missing"),
        ("other-command", "met-command-mismatch"),
    ],
)
def test_met_typed_into_the_verify_entry_holds_the_agent(held: Path, how: str, code: str) -> None:
    goal = held / "goals" / "demo.md"
    goal.write_text(forge(goal.read_text(encoding="utf-8"), how), encoding="utf-8")

    # audit's finding: the newest verify entry does not back the `met`
    audited = run_goalfile("audit", "goals/demo.md", "--json", cwd=held)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    found = [f["code"] for f in json.loads(audited.stdout)["files"][0]["findings"]]
    assert code in found, found
    # lint and status say the same: an error, exit 3
    linted = run_goalfile("lint", "goals/demo.md", cwd=held)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert "goals/demo.md:3: error: the status is `met`" in linted.stdout + linted.stderr
    shown = run_goalfile("status", "goals/demo.md", cwd=held)
    assert shown.returncode == 3, shown.stdout + shown.stderr
    # and the Stop hook holds the agent, with the fix
    answer = stop(held)
    assert answer["decision"] == "block", answer
    why = reason(answer)
    assert why.startswith("goalfile does not accept the status of goals/demo.md"), why
    assert "C2" in why, why
    fix = re.search(r"fix: `([^`]+)`", why)
    assert fix is not None, why
    ran = subprocess.run(
        fix.group(1), shell=True, cwd=held, env=clean_env(WITH_GOALFILE), capture_output=True
    )
    assert ran.returncode == 0, ran
    # the fix sets the status line back; the next stop verifies the goal: C2 is still unmet
    answer = stop(held)
    assert answer["decision"] == "block", answer
    assert reason(answer).startswith("verify-goal demo iteration 1: C1 met, C2 unmet"), answer


def test_a_goal_met_by_verify_still_lets_the_agent_stop(held: Path) -> None:
    (held / "other").write_text("", encoding="utf-8")
    answer = stop(held)
    assert answer["decision"] == "allow", answer
    for command in ("lint", "status", "audit"):
        done = run_goalfile(command, "goals/demo.md", cwd=held)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
