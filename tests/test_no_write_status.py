"""`verify --no-write` judges a goal of any status and writes nothing, so the status in its
summary line is the run's verdict, not the file's: on a draft, or on a met goal whose check
fails now, the line alone read as if the goal had become active or blocked. A note on stderr
says what the file still holds; the summary line stays the last line of stdout, verbatim."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_goalfile

GOAL = "goals/flag.md"


def new_draft(repo: Path, check: str = "test -f done.txt") -> str:
    done = run_goalfile(
        "new", "flag", "the flag file exists", "--check", check, "--expected", "exit 0",
        "--non-goal", "nothing else changes", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return (repo / GOAL).read_text(encoding="utf-8")


def test_a_draft_run_says_the_file_is_still_a_draft(repo: Path) -> None:
    before = new_draft(repo)

    done = run_goalfile("verify", "--no-write", GOAL, cwd=repo)

    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[-1] == "verify-goal flag iteration 0: C1 unmet; status: active"
    assert (
        f"note: nothing was written (--no-write): {GOAL} is still draft; `status: active` "
        "below is what this run judged, not the file's status"
    ) in done.stderr
    assert (repo / GOAL).read_text(encoding="utf-8") == before


def test_a_met_goal_whose_check_fails_now_is_still_met(repo: Path) -> None:
    new_draft(repo)
    (repo / "done.txt").write_text("yes\n", encoding="utf-8")
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    (repo / "done.txt").unlink()
    before = (repo / GOAL).read_text(encoding="utf-8")

    done = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    every = run_goalfile("verify", "--no-write", cwd=repo)  # every goal: the same note
    as_json = run_goalfile("verify", "--no-write", "--json", GOAL, cwd=repo)

    for run in (done, every):
        assert run.returncode == 1, run.stderr
        assert run.stdout.splitlines()[-1].endswith("C1 unmet; status: active")
        assert f"{GOAL} is still met; `status: active` below" in run.stderr
    document = json.loads(as_json.stdout)
    assert (document["status"], document["file_status"], document["written"]) == (
        "active",
        "met",
        False,
    )
    assert (repo / GOAL).read_text(encoding="utf-8") == before


def test_no_note_when_the_file_says_what_the_run_judged(repo: Path) -> None:
    new_draft(repo)
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0

    done = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    written = run_goalfile("verify", "--json", GOAL, cwd=repo)

    assert done.returncode == 1 and "note: nothing was written" not in done.stderr
    document = json.loads(written.stdout)
    assert (document["status"], document["file_status"], document["written"]) == (
        "active",
        "active",
        True,
    )


def test_a_draft_whose_non_goals_are_not_written_yet_can_have_its_checks_tried(
    repo: Path,
) -> None:
    done = run_goalfile(
        "new", "flag", "the flag file exists", "--check", "test -f done.txt",
        "--expected", "exit 0", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    before = (repo / GOAL).read_text(encoding="utf-8")
    assert "FILL IN" in before  # the non-goal `new` left to fill in

    tried = run_goalfile("verify", "--no-write", GOAL, cwd=repo)

    assert tried.returncode == 1, tried.stderr
    assert tried.stdout.splitlines()[-1] == "verify-goal flag iteration 0: C1 unmet; status: active"
    assert (repo / GOAL).read_text(encoding="utf-8") == before
    # activate still refuses it, and a run that writes refuses any draft
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 3
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 3


def test_a_draft_whose_check_is_a_placeholder_is_still_refused(repo: Path) -> None:
    done = run_goalfile("init", "--no-skills", "--no-hooks", cwd=repo)
    assert done.returncode == 0, done.stderr

    tried = run_goalfile("verify", "--no-write", "goals/first-goal.md", cwd=repo)

    assert tried.returncode == 3
    assert "still a placeholder" in tried.stderr


def test_the_refusal_names_the_row_and_the_trial_as_the_next_step(repo: Path) -> None:
    """A draft whose non-goal and check are both placeholders: the refusal named the non-goal
    (a warning here) and sent the person to `goalfile activate`; it names the row, and its fix
    leads to the trial it asked for."""
    done = run_goalfile("new", "flag", "the flag file exists", cwd=repo)
    assert done.returncode == 0, done.stderr
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    assert text.count("FILL IN") >= 2

    tried = run_goalfile("verify", "--no-write", GOAL, cwd=repo)

    assert tried.returncode == 3, tried.stderr
    row = 1 + text.split("\n").index(next(s for s in text.split("\n") if s.startswith("| C1 ")))
    assert f"{GOAL}:{row}: C1: a cell is still a placeholder" in tried.stderr, tried.stderr
    assert f"then `goalfile verify --no-write {GOAL}` tries their checks" in tried.stderr
    lines = text.split("\n")
    lines[row - 1] = "| C1 | the flag file exists | `test -f done.txt` | exit 0 | deterministic |"
    path.write_text("\n".join(lines), encoding="utf-8")
    again = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert again.stdout.splitlines()[-1] == "verify-goal flag iteration 0: C1 unmet; status: active"


def test_a_row_the_template_left_is_named_as_the_template_writes_it(repo: Path) -> None:
    """A goal written by hand from templates/goal.md, its `{{rows}}` still there: the fix says
    what to replace as the file holds it."""
    from conftest import REPO

    template = (REPO / "templates" / "goal.md").read_text(encoding="utf-8")
    for field, value in {"{{slug}}": "g", "{{created}}": "2026-12-01", "{{iterations}}": "3",
                         "{{tokens}}": "null"}.items():  # fmt: skip
        template = template.replace(field, value)
    (repo / "goals").mkdir(exist_ok=True)
    (repo / "goals" / "g.md").write_text(template, encoding="utf-8")

    tried = run_goalfile("verify", "--no-write", "goals/g.md", cwd=repo)

    assert tried.returncode == 3, tried.stderr
    assert "fix: replace the `{{...}}` of templates/goal.md in the criteria rows" in tried.stderr
