"""`goalfile activate` records the approved rows; `--reapprove` ledgers a changed contract.

Every scenario runs goalfile as a real process on a real file, the way an agent or a person
would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from goalfile import contract, ledger
from goalfile.parse import ledger_region, parse_goal

GOAL = """\
---
slug: demo
status: draft   # draft | active | paused | met | blocked | exhausted
created: 2026-11-30
budget:
  iterations: 5
  tokens: null
iterations_used: 0
tokens_used: 0
---
# Goal: the demo prints its greeting and leaves the fixtures alone

## Non-goals
- `fixtures/` stays unchanged.

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | greets | `echo hello world` | exit 0; stdout contains "hello world" | deterministic |
| C2 | fixtures untouched | `cat fixtures.log` | exit 0; output empty | deterministic |

## Iterations

## Lessons
"""


def goalfile(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOALFILE_")}
    return subprocess.run(
        [sys.executable, "-m", "goalfile", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def goal(tmp_path: Path) -> Path:
    path = tmp_path / "goal.md"
    path.write_text(GOAL, encoding="utf-8")
    (tmp_path / "fixtures.log").write_text("", encoding="utf-8")
    return path


def activated(goal: Path) -> Path:
    done = goalfile("activate", goal.name, cwd=goal.parent)
    assert done.returncode == 0, done.stderr
    return goal


def entries(path: Path) -> list[ledger.Entry]:
    text = path.read_text(encoding="utf-8")
    region = ledger_region(text)
    assert region is not None
    return list(ledger.entries(text, *region))


def loosen_c2(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("| exit 0; output empty |", "| exit 0 |"), encoding="utf-8")


# --- the first approval -------------------------------------------------------------------


def test_activate_records_the_approved_rows_and_pins_them(goal: Path) -> None:
    activated(goal)
    text = goal.read_text(encoding="utf-8")
    parsed = parse_goal(text, path=str(goal))
    (entry,) = entries(goal)
    assert entry.by == "activate" and entry.status is not None
    assert entry.rows == ()  # the approved rows are a record, not verdicts
    assert contract.recorded(entry) == contract.contract_of(parsed)
    assert contract.pinned(parsed) == contract.digest(parsed)
    assert entry.contract == contract.short(contract.digest(parsed))
    # padded to the widest cell of each column (at least 3), as mdformat writes a table
    assert (
        "| id  | kind          | check              | expected                                "
        "| timeout |\n"
        "| --- | ------------- | ------------------ | --------------------------------------- "
        "| ------- |\n"
        '| C1  | deterministic | `echo hello world` | `exit 0; stdout contains "hello world"` '
        "| -       |\n"
        "| C2  | deterministic | `cat fixtures.log` | `exit 0; output empty`                  "
        "| -       |\n"
    ) in text
    assert "non-goals:\n\n- `fixtures/` stays unchanged.\n" in text


def test_activate_on_an_active_goal_points_at_reapprove(goal: Path) -> None:
    activated(goal)
    before = goal.read_bytes()
    done = goalfile("activate", goal.name, cwd=goal.parent)
    assert done.returncode == 3
    assert "--reapprove" in done.stderr
    assert goal.read_bytes() == before


# --- re-approval --------------------------------------------------------------------------


def test_reapprove_ledgers_old_and_new_rows_and_repins(goal: Path) -> None:
    activated(goal)
    loosen_c2(goal)
    refused = goalfile("verify", goal.name, cwd=goal.parent)
    assert refused.returncode == 3
    assert "C2 expected: `exit 0; output empty` → `exit 0`" in refused.stderr

    done = goalfile(
        "activate", goal.name, "--reapprove", "--reason", "the log is not ours", cwd=goal.parent
    )
    assert done.returncode == 0, done.stderr
    text = goal.read_text(encoding="utf-8")
    parsed = parse_goal(text, path=str(goal))
    first, second = entries(goal)
    assert second.by == "activate"
    assert second.status is not None and second.status.value == "active"
    assert "reason: the log is not ours" in second.notes
    assert (
        "- C2 expected: `exit 0; output empty` → `exit 0` (loosened: clause dropped `output empty`)"
    ) in second.notes
    assert any(n.startswith("contract re-approved (") for n in second.notes)
    assert contract.recorded(first) != contract.recorded(second)
    assert contract.recorded(second) == contract.contract_of(parsed)
    assert contract.pinned(parsed) == contract.digest(parsed)
    assert second.contract == contract.short(contract.digest(parsed))
    assert parsed.status.value == "active"

    ran = goalfile("verify", goal.name, cwd=goal.parent)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.rstrip().endswith("status: met")


def test_reapprove_lists_added_removed_and_non_goal_changes(goal: Path) -> None:
    activated(goal)
    text = goal.read_text(encoding="utf-8")
    text = text.replace(
        '| C1 | greets | `echo hello world` | exit 0; stdout contains "hello world" '
        "| deterministic |\n",
        "",
    )
    text = text.replace(
        "| C2 | fixtures untouched |",
        '| C3 | no warnings | `echo fine` | exit 0; output lacks "warning" | deterministic |\n'
        "| C2 | fixtures untouched |",
    )
    text = text.replace("- `fixtures/` stays unchanged.", "- `fixtures/` and `data/` stay.", 1)
    goal.write_text(text, encoding="utf-8")
    done = goalfile("activate", goal.name, "--reapprove", "--json", cwd=goal.parent)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["schema_version"] == 1 and document["reapproved"] is True
    kinds = {(c["row"], tuple(c["kinds"])) for c in document["changes"]}
    assert ("C1", ("row-removed",)) in kinds
    assert ("C3", ("row-added",)) in kinds
    assert (None, ("non-goal-removed",)) in kinds
    assert (None, ("non-goal-added",)) in kinds
    notes = entries(goal)[-1].notes
    assert any(
        n.startswith("- C1 removed: deterministic row, check `echo hello world`") for n in notes
    )
    assert any(n.startswith("- C3 added: deterministic row, check `echo fine`") for n in notes)
    assert "- non-goal removed: `fixtures/` stays unchanged. (loosened: non-goal removed)" in notes


def test_a_met_goal_goes_back_to_active(goal: Path) -> None:
    activated(goal)
    assert goalfile("verify", goal.name, cwd=goal.parent).returncode == 0
    assert parse_goal(goal.read_text(encoding="utf-8"), path="g").status.value == "met"
    loosen_c2(goal)
    done = goalfile("activate", goal.name, "--reapprove", "--reason", "x", cwd=goal.parent)
    assert done.returncode == 0, done.stderr
    assert "status: active" in done.stdout
    parsed = parse_goal(goal.read_text(encoding="utf-8"), path="g")
    assert parsed.status.value == "active"
    assert entries(goal)[-1].status is not None
    assert entries(goal)[-1].status.value == "active"  # type: ignore[union-attr]
    # the inline comment of the status line is kept
    assert "status: active  # draft | active" in goal.read_text(encoding="utf-8")


@pytest.mark.parametrize("status", ["paused", "blocked", "exhausted"])
def test_other_statuses_are_kept(goal: Path, status: str) -> None:
    activated(goal)
    text = goal.read_text(encoding="utf-8").replace("status: active ", f"status: {status} ", 1)
    goal.write_text(text, encoding="utf-8")
    loosen_c2(goal)
    done = goalfile("activate", goal.name, "--reapprove", cwd=goal.parent)
    assert done.returncode == 0, done.stderr
    assert parse_goal(goal.read_text(encoding="utf-8"), path="g").status.value == status
    last = entries(goal)[-1]
    assert last.status is not None and last.status.value == status


def test_reapprove_refuses_a_draft_and_an_unchanged_contract(goal: Path) -> None:
    before = goal.read_bytes()
    draft = goalfile("activate", goal.name, "--reapprove", cwd=goal.parent)
    assert draft.returncode == 3
    assert "draft" in draft.stderr
    assert goal.read_bytes() == before

    activated(goal)
    before = goal.read_bytes()
    same = goalfile("activate", goal.name, "--reapprove", "--json", cwd=goal.parent)
    assert same.returncode == 3
    assert "nothing to re-approve" in same.stderr
    assert json.loads(same.stdout)["error"]["exit_code"] == 3
    assert goal.read_bytes() == before


def test_reapprove_refuses_an_invalid_contract(goal: Path) -> None:
    activated(goal)
    text = goal.read_text(encoding="utf-8").replace("| exit 0; output empty |", "| exit zero |")
    goal.write_text(text, encoding="utf-8")
    before = goal.read_bytes()
    done = goalfile("activate", goal.name, "--reapprove", cwd=goal.parent)
    assert done.returncode == 3
    assert goal.read_bytes() == before


def test_reason_needs_reapprove(goal: Path) -> None:
    before = goal.read_bytes()
    done = goalfile("activate", goal.name, "--reason", "because", cwd=goal.parent)
    assert done.returncode == 2
    assert "--reapprove" in done.stderr
    assert goal.read_bytes() == before


def test_reapprove_after_an_activation_that_recorded_no_rows(goal: Path) -> None:
    """A goal activated before activate recorded its rows: the entry says so, and records
    the rows approved now."""
    activated(goal)
    text = goal.read_text(encoding="utf-8")
    head, sep, tail = text.partition("### Iteration 0")
    _, _, rest = tail.partition("status: active\n")
    legacy = " (2026-11-30) by activate\ncontract approved: C1, C2\n\n"
    goal.write_text(head + sep + legacy + "status: active\n" + rest, encoding="utf-8")
    assert contract.recorded(entries(goal)[0]) is None
    loosen_c2(goal)
    done = goalfile("activate", goal.name, "--reapprove", cwd=goal.parent)
    assert done.returncode == 0, done.stderr
    last = entries(goal)[-1]
    assert any("were not recorded" in note for note in last.notes)
    parsed = parse_goal(goal.read_text(encoding="utf-8"), path="g")
    assert contract.recorded(last) == contract.contract_of(parsed)


def test_reapprove_keeps_crlf_line_endings(goal: Path) -> None:
    goal.write_bytes(GOAL.replace("\n", "\r\n").encode("utf-8"))
    activated(goal)
    loosen_c2_bytes = goal.read_bytes().replace(b"| exit 0; output empty |", b"| exit 0 |")
    goal.write_bytes(loosen_c2_bytes)
    done = goalfile("activate", goal.name, "--reapprove", cwd=goal.parent)
    assert done.returncode == 0, done.stderr
    data = goal.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")
    last = entries(goal)[-1]
    assert (
        "- C2 expected: `exit 0; output empty` → `exit 0` (loosened: clause dropped `output empty`)"
        in last.notes
    )
    assert goalfile("verify", goal.name, cwd=goal.parent).returncode == 0


def test_help_lists_the_options(tmp_path: Path) -> None:
    done = goalfile("activate", "--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "--reapprove" in done.stdout and "--reason" in done.stdout and "--json" in done.stdout
