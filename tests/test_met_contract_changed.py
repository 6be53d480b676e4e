"""A `met` is backed only under the contract its verify entry ran under. A goal verified `met`
and then edited so that the entry no longer backs the current contract (a clause added to a
row's `expected`, `expected` replaced, a row's or the goal's time limit, `cwd` or `shell`
set, a review row's rubric or artifact changed, a row made a review row, a check changed by a
character the entry's command column flattens) was still `met` for `lint`, `status`, `audit`
and the Stop hook: `handedit.met_gaps` compared only each deterministic row's command, and the
pin, which the edit leaves alone and which goals of the skill family do not have. Now the
digest the verify entry records must be the digest of the contract the goal holds now, for
pinned and unpinned goals alike, and every reader says so. Real git repositories, real
goalfile processes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import clean_env, copy_of, git, made_once, run_goalfile
from test_met_backed import stop

WITH_GOALFILE = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
GOAL = "goals/demo.md"
QUOTE = "the flow is explained here"

# a goal as the skill family writes it: active, no pin, no approval entry
SKILL_GOAL = """---
slug: demo
status: active
created: 2026-12-01
budget:
  iterations: 5
  tokens: null
iterations_used: 0
tokens_used: null
---
# Goal: it says hi and the docs explain the flow

## Non-goals
- `docs/` keeps its layout.

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | says hi | `echo hi` | exit 0; stdout contains "hi" | deterministic |
| R1 | explains the flow | `docs/a.md` | explains the flow | review |

## Plan

## Iterations

## Lessons
"""


def gf(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(*args, cwd=root)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def make_met_goal(root: Path, *, pinned: bool) -> None:
    """A committed goal with a deterministic and a review row, made `met` by real runs of
    verify, review and verify: activated by `goalfile new --activate` (``pinned``), or written
    as the skill family writes one (no pin, no approval entry)."""
    (root / "docs").mkdir()
    (root / "docs" / "a.md").write_text(f"# Doc\n\n{QUOTE}\n", encoding="utf-8")
    if pinned:
        done = gf(
            root, "new", "demo", "it says hi", "--check", "echo hi",
            "--expected", 'exit 0; stdout contains "hi"', "--review",
            "docs/a.md=explains the flow", "--non-goal", "`docs/` keeps its layout.",
            "--activate",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    else:
        (root / "goals").mkdir()
        (root / GOAL).write_text(SKILL_GOAL, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    assert gf(root, "verify", GOAL).returncode == 1
    reviewed = gf(
        root, "review", GOAL, "R1", "--artifact", "docs/a.md", "--quote", QUOTE,
        "--verdict", "met", "--reason", "it says so",
    )  # fmt: skip
    assert reviewed.returncode == 0, reviewed.stderr
    verified = gf(root, "verify", GOAL)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert ("contract: sha256:" in read(root)) is pinned


MetGoal = Callable[..., Path]


@pytest.fixture(scope="module")
def met_goal(tmp_path_factory: pytest.TempPathFactory) -> MetGoal:
    """``met_goal(tmp_path, pinned=...)``: a copy, at ``tmp_path / "project"``, of the
    repository :func:`make_met_goal` makes once for the module (for each ``pinned``)."""
    made: dict[bool, Path] = {}

    def copy(tmp_path: Path, *, pinned: bool) -> Path:
        if pinned not in made:
            made[pinned] = made_once(
                tmp_path_factory, lambda root, env: make_met_goal(root, pinned=pinned)
            )
        return copy_of(made[pinned], tmp_path / "project")

    return copy


def read(root: Path) -> str:
    return (root / GOAL).read_text(encoding="utf-8")


def replace(root: Path, old: str, new: str) -> None:
    text = read(root)
    assert text.count(old) == 1, (old, text)
    (root / GOAL).write_text(text.replace(old, new), encoding="utf-8")


def add_key(root: Path, line: str) -> None:
    replace(root, "\n---\n# Goal:", f"\n{line}\n---\n# Goal:")


C1_EXPECTED = '| exit 0; stdout contains "hi" |'
EDITS = {
    "clause added to expected": lambda root: replace(
        root, C1_EXPECTED, '| exit 0; stdout contains "hi"; stdout contains "bye" |'
    ),
    "expected replaced": lambda root: replace(root, C1_EXPECTED, "| exit 0 |"),
    "row timeout set": lambda root: (
        replace(root, "| expected | kind |", "| expected | kind | timeout |"),
        replace(root, "|----------|------|", "|----------|------|---------|"),
        replace(root, '"hi" | deterministic |', '"hi" | deterministic | 1 |'),
        replace(root, "| explains the flow | review |", "| explains the flow | review | |"),
    ),
    "goal timeout set": lambda root: add_key(root, "timeout: 1"),
    "shell set": lambda root: add_key(root, "shell: /bin/bash"),
    "cwd set": lambda root: add_key(root, "cwd: ../docs"),
    "review rubric changed": lambda root: replace(
        root, "| explains the flow | review |", "| explains the other flow | review |"
    ),
    "row made a review row": lambda root: replace(
        root, '"hi" | deterministic |', '"hi" | review |'
    ),
    "check changed by a tab": lambda root: replace(
        root,
        '| `echo hi` | exit 0; stdout contains "hi" |',
        '| `echo\thi` | exit 0; stdout contains "hi" |',
    ),
}


@pytest.mark.parametrize("pinned", [True, False], ids=["pinned", "skill-family"])
@pytest.mark.parametrize("edit", list(EDITS))
def test_a_contract_changed_after_met_backs_no_met(
    met_goal: MetGoal, tmp_path: Path, edit: str, pinned: bool
) -> None:
    root = met_goal(tmp_path, pinned=pinned)
    EDITS[edit](root)

    linted = gf(root, "lint", GOAL)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    said = linted.stdout + linted.stderr
    assert f"{GOAL}:3: error: the status is `met`, but the newest verify entry ran under" in said
    assert "it changed since that run" in said, said
    shown = gf(root, "status", GOAL)
    assert shown.returncode == 3, shown.stdout + shown.stderr
    audited = gf(root, "audit", GOAL, "--json")
    assert audited.returncode == 1, audited.stdout + audited.stderr
    found = [f["code"] for f in json.loads(audited.stdout)["files"][0]["findings"]]
    assert "met-wrong-contract" in found, found
    answer = stop(root)
    assert answer["decision"] == "block", answer
    output = answer["host_output"]
    assert isinstance(output, dict)
    why = str(output["reason"])
    assert why.startswith(f"goalfile does not accept the status of {GOAL}"), why
    assert "it changed since that run" in why, why


def test_the_fix_sends_the_goal_back_to_verify_under_the_new_contract(
    met_goal: MetGoal, tmp_path: Path
) -> None:
    """A clause added after `met`: the hook's fix, run as written, sets the status back; the
    next stop runs nothing of a contract no person approved (tests/test_hook_approval.py) and
    names the re-approval, after which the stop verifies the goal under the contract it holds
    now, where C1 is unmet."""
    root = met_goal(tmp_path, pinned=True)
    EDITS["clause added to expected"](root)
    answer = stop(root)
    output = answer["host_output"]
    assert isinstance(output, dict)
    fix = re.search(r"fix: `([^`]+)`", str(output["reason"]))
    assert fix is not None, answer
    ran = subprocess.run(
        fix.group(1), shell=True, cwd=root, env=clean_env(WITH_GOALFILE), capture_output=True
    )
    assert ran.returncode == 0, ran
    answer = stop(root)
    assert answer["decision"] == "block", answer
    output = answer["host_output"]
    assert isinstance(output, dict)
    assert f"`goalfile activate --reapprove {GOAL} --reason TEXT`" in str(output["reason"])
    approved = gf(root, "activate", "--reapprove", GOAL, "--reason", "C1 must say bye too")
    assert approved.returncode == 0, approved.stderr
    answer = stop(root)
    assert answer["decision"] == "block", answer
    output = answer["host_output"]
    assert isinstance(output, dict)
    assert str(output["reason"]).startswith("verify-goal demo iteration 0: C1 unmet"), answer


@pytest.mark.parametrize("pinned", [True, False], ids=["pinned", "skill-family"])
def test_an_honest_met_stays_backed(met_goal: MetGoal, tmp_path: Path, pinned: bool) -> None:
    """Not a regression test (it passes before the change too): verify, then no change of the
    contract (an edit of the end state and the plan only), is `met` for every reader."""
    root = met_goal(tmp_path, pinned=pinned)
    replace(root, "## Plan\n", "## Plan\n\nsay hi first\n")
    for command in ("lint", "status", "audit"):
        done = gf(root, command, GOAL)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert stop(root)["decision"] == "allow"


def test_a_re_approval_of_a_met_goal_whose_contract_changed_sets_it_active(
    met_goal: MetGoal, tmp_path: Path
) -> None:
    """`activate --reapprove` is the fix for a changed contract: a `met` that the change left
    unbacked does not make it refuse (it sets the goal back to `active`)."""
    root = met_goal(tmp_path, pinned=True)
    EDITS["expected replaced"](root)
    done = gf(root, "activate", "--reapprove", GOAL, "--reason", "C1 needs only its exit")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "\nstatus: active" in read(root)
    assert gf(root, "lint", GOAL).returncode == 0
    assert gf(root, "verify", GOAL).returncode == 0
