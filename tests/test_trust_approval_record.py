"""An approval entry vouches for a pin only through its own record: the rows it records and the
`contract:` line that names their digest. The real goalfile on a goal approved and committed
in a real git repository, edited as an agent would edit it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import git, goal_text, row, run_goalfile

GOAL = "goals/build.md"


@pytest.fixture
def approved(repo: Path) -> Path:
    """A goal whose check fails (`false`), approved by activate and committed on main."""
    (repo / "goals" / "build.md").write_text(
        goal_text(
            slug="build", status="draft", iterations_used=0, rows=(row("C1", "false", "exit 0"),)
        )
    )
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "branch", "-M", "main")
    return repo


def loosen_and_repin(repo: Path, tmp_path: Path) -> tuple[str, str]:
    """The check made to pass (`true`) and the frontmatter pin set to that contract's digest,
    as a re-approval of a scratch copy prints it; returns the approval's line and the new pin."""
    goal = repo / GOAL
    goal.write_text(goal.read_text().replace("`false`", "`true`", 1))
    scratch = tmp_path / "scratch.md"
    shutil.copy(goal, scratch)
    done = run_goalfile("activate", "--reapprove", scratch, "--reason", "x", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pin = re.search(r"^contract: (sha256:\w+)$", scratch.read_text(), re.M)
    assert pin is not None
    text = re.sub(
        r"^contract: sha256:\w+$", f"contract: {pin[1]}", goal.read_text(), count=1, flags=re.M
    )
    line = re.search(r"^contract: [0-9a-f]{12}$", text, re.M)
    assert line is not None and "`false`" in text.split("## Iterations")[1]
    goal.write_text(text)
    return line[0], pin[1]


def entry_line(repo: Path) -> int:
    lines = (repo / GOAL).read_text().split("\n")
    return next(n for n, line in enumerate(lines, 1) if line.endswith("by activate"))


def test_an_approval_entry_without_its_contract_line_vouches_for_no_pin(
    approved: Path, tmp_path: Path
) -> None:
    goal = approved / GOAL
    line, _ = loosen_and_repin(approved, tmp_path)
    goal.write_text(goal.read_text().replace(f"\n{line}\n", "\n", 1))  # the entry's line deleted
    before = goal.read_bytes()

    refused = run_goalfile("verify", GOAL, cwd=approved)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert f"{GOAL}:{entry_line(approved)}: the approval entry" in refused.stderr
    assert "no `contract:` line" in refused.stderr
    assert f"put back the line `{line}`" in refused.stderr  # the rows it records: `false`
    assert "fix:" in refused.stderr and "Traceback" not in refused.stderr
    assert goal.read_bytes() == before

    audit = run_goalfile("audit", GOAL, "--json", cwd=approved)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    findings = json.loads(audit.stdout)["files"][0]["findings"]
    invalid = [f for f in findings if f["code"] == "approval-record-invalid"]
    assert invalid and invalid[0]["line"] == entry_line(approved), findings

    # the fixes it names work as written: the line put back holds the pin to `false` again ...
    goal.write_text(goal.read_text().replace("\nstatus: active\n", f"\nstatus: active\n{line}\n"))
    again = run_goalfile("verify", GOAL, cwd=approved)
    assert again.returncode == 3 and "newest approval entry records" in again.stderr
    goal.write_bytes(before)
    # ... and a re-approval ledgers the change, old and new rows, after which the run is honest
    fixed = run_goalfile("activate", "--reapprove", GOAL, "--reason", "no check", cwd=approved)
    assert fixed.returncode == 0, fixed.stderr
    assert "C1 check: `false` → `true`" in goal.read_text()
    assert run_goalfile("verify", GOAL, cwd=approved).returncode == 0
    assert run_goalfile("audit", GOAL, cwd=approved).returncode == 0


def test_an_approval_entry_whose_contract_line_names_other_rows_vouches_for_no_pin(
    approved: Path, tmp_path: Path
) -> None:
    goal = approved / GOAL
    line, pin = loosen_and_repin(approved, tmp_path)
    short = pin.removeprefix("sha256:")[:12]
    goal.write_text(goal.read_text().replace(f"\n{line}\n", f"\ncontract: {short}\n", 1))
    before = goal.read_bytes()

    refused = run_goalfile("verify", GOAL, cwd=approved)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert f"names the contract {short}, but the rows it records digest to" in refused.stderr
    assert goal.read_bytes() == before
    assert not re.search(r"^status: met", goal.read_text(), re.M)

    audit = run_goalfile("audit", GOAL, cwd=approved)
    assert audit.returncode == 1 and "approval-record-invalid" in audit.stdout, audit.stdout


def test_a_check_edited_in_the_criteria_and_in_the_entry_alike_is_not_offered_a_digest(
    approved: Path,
) -> None:
    """`sed -i 's/false/true/'` over the whole file changes the check in the criteria and in the
    rows the approval entry records; the entry's `contract:` line, the pin's, is left. The fix
    once offered to write the digest of the edited rows as the line, and the next refusal the
    pin to match: followed as printed, that approved the edit without a re-approval. The fix
    says now that the rows or the line were edited, and names no digest to write."""
    goal = approved / GOAL
    goal.write_text(goal.read_text().replace("`false`", "`true`"))
    before = goal.read_bytes()

    refused = run_goalfile("verify", GOAL, cwd=approved)

    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert "but the rows it records digest to" in refused.stderr
    fix = refused.stderr.split("fix: ", 1)[1]
    assert "put back" not in fix and not re.search(r"[0-9a-f]{12}", fix), fix
    assert (
        "its rows or its `contract:` line were edited since activate wrote it "
        f"(`git diff -- {GOAL}`" in fix
    )
    assert goal.read_bytes() == before
    # lint (so the pre-commit hook) says what verify refuses, with the same fix: it said ok
    lint = run_goalfile("lint", "--json", GOAL, cwd=approved)
    assert lint.returncode == 3, lint.stdout + lint.stderr
    (finding,) = json.loads(lint.stdout)["files"][0]["findings"]
    assert (finding["code"], finding["severity"]) == ("approval-record-invalid", "error")
    assert "but the rows it records digest to" in finding["message"], finding
    assert refused.stderr.split("fix: ", 1)[1].strip() == finding["hint"], finding
    # the fixes it names work as written: the diff shows the edit, and a checkout of the entry
    # as goalfile wrote it runs the approved check again
    assert "-| C1  | deterministic | `false`" in git(approved, "diff", "--", GOAL)
    git(approved, "checkout", "--", GOAL)
    again = run_goalfile("verify", GOAL, cwd=approved)
    assert again.returncode == 1 and "C1 unmet" in again.stdout, again.stdout + again.stderr


def test_the_stop_hook_does_not_let_an_unapproved_check_meet_the_goal(
    approved: Path, tmp_path: Path
) -> None:
    goal = approved / GOAL
    line, _ = loosen_and_repin(approved, tmp_path)
    goal.write_text(goal.read_text().replace(f"\n{line}\n", "\n", 1))
    # committed: a rewrite of the working copy alone is held as another goal than HEAD's
    # (test_hook_discovery.py); committed, it is verify's approval rule that refuses it
    git(approved, "commit", "-qam", "rewrite the approval")
    stop = {"session_id": "s", "cwd": str(approved), "hook_event_name": "Stop"}
    stop["stop_hook_active"] = False
    done = run_goalfile("hook", "stop", cwd=approved, input=json.dumps(stop))
    assert json.loads(done.stdout)["decision"] == "block", done.stdout + done.stderr
    assert "no `contract:` line" in done.stdout
    assert not re.search(r"^status: met", goal.read_text(), re.M)
