"""Small fixes, each reproduced with the real `goalfile` on real files.

- a tab (or another character the approval entry cannot record) in a check was approved, and
  the recorded rows then never digested to the pin: verify refused the goal for good;
- a goal name of 252 to 255 bytes printed a traceback (the "did you mean" search added `.md`
  and crossed the system's name limit).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import frontmatter, run_goalfile

DRAFT = (
    frontmatter("g")
    + """# Goal: it works

## Non-goals

- nothing

## Acceptance criteria

| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | ok | `CHECK` | EXPECTED | deterministic |

## Iterations

## Lessons
"""
)


@pytest.mark.parametrize(
    ("check", "expected", "said"),
    [
        ("echo\tok", "exit 0", "the check holds the character U+0009"),
        ("echo ok", 'exit 0; stdout lacks "a\x01b"', "the expected holds the character U+0001"),
        ("echo " + "x" * 10_001, "exit 0", "the check is longer than 10,000 characters"),
    ],
)
def test_a_cell_the_approval_cannot_record_is_a_lint_error(
    repo: Path, check: str, expected: str, said: str
) -> None:
    path = repo / "goals" / "g.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(DRAFT.replace("CHECK", check).replace("EXPECTED", expected))
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert f"goals/g.md:21: error: C1: {said}, which the approval entry cannot record" in (
        linted.stderr
    )
    before = path.read_text()
    refused = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert path.read_text() == before  # nothing approved that could never be verified


def test_a_goal_written_as_the_fix_says_is_approved_and_verified(repo: Path) -> None:
    path = repo / "goals" / "g.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(DRAFT.replace("CHECK", "echo ok").replace("EXPECTED", "exit 0"))
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("command", ["status", "verify", "lint", "log"])
@pytest.mark.parametrize("length", [252, 255])
def test_a_goal_name_near_the_system_limit_is_no_traceback(
    repo: Path, command: str, length: int
) -> None:
    (repo / "goals").mkdir(exist_ok=True)
    done = run_goalfile(command, "a" * length, cwd=repo)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (2, 3), done.stdout + done.stderr  # as for any missing goal
    assert "no such goal file" in done.stderr


def test_a_draft_with_a_lint_error_is_sent_to_lint_before_activate(repo: Path) -> None:
    path = repo / "goals" / "g.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(DRAFT.replace("CHECK", "echo ok").replace("EXPECTED", "exit zero"))
    shown = run_goalfile("status", "goals/g.md", cwd=repo)
    assert (
        "next: fix what `goalfile lint goals/g.md` reports; once a person approves the "
        "contract, `goalfile activate goals/g.md`" in shown.stdout + shown.stderr
    ), shown.stdout + shown.stderr
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)  # run as written, it names the fault
    assert linted.returncode == 3 and "goals/g.md:21" in linted.stderr, linted.stderr
    path.write_text(DRAFT.replace("CHECK", "echo ok").replace("EXPECTED", "exit 0"))
    ready = run_goalfile("status", "goals/g.md", cwd=repo)
    assert (
        "next: read it; once a person approves the contract, `goalfile activate goals/g.md`"
        in ready.stdout + ready.stderr
    )


@pytest.mark.parametrize("line", [["--json", "status"], ["--json", "--nosuch", "status"]])
def test_a_wrong_command_line_with_json_before_the_command_gets_a_json_error(
    tmp_path: Path, line: list[str]
) -> None:
    done = run_goalfile(*line, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    document = json.loads(done.stdout)  # exactly one document
    assert document["error"]["exit_code"] == 2
    assert document["error"]["hint"] == "`goalfile --help`"
    assert "No such option" in document["error"]["message"]


def test_the_judges_packet_holds_the_review_rows_decided_before(repo: Path) -> None:
    """R2's packet held C1 only; the documented packet holds every row decided so far."""
    (repo / "docs").mkdir()
    (repo / "docs" / "a.md").write_text("The token is rotated.\n")
    path = repo / "goals" / "g.md"
    path.parent.mkdir(exist_ok=True)
    rows = (
        "| C1 | ok | `true` | exit 0 | deterministic |\n"
        "| R1 | docs | `docs/a.md` | describes rotation | review |\n"
        "| R2 | docs2 | `docs/a.md` | describes it again | review |\n"
    )
    text = DRAFT.replace("| C1 | ok | `CHECK` | EXPECTED | deterministic |\n", rows)
    path.write_text(text)
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    reply = '{"verdict":"met","quote":"rotated","reason":"ok"}'
    judge = f"cat > {repo}/packet-$GOALFILE_CRITERION.json; echo '{reply}'"
    done = run_goalfile("verify", "goals/g.md", "--judge", judge, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    first = json.loads((repo / "packet-R1.json").read_text())
    second = json.loads((repo / "packet-R2.json").read_text())
    assert [r["id"] for r in first["deterministic_results"]] == ["C1"]
    assert [r["id"] for r in second["deterministic_results"]] == ["C1", "R1"]
    assert second["deterministic_results"][1]["verdict"] == "met"
