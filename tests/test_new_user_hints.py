"""What a person new to goalfile ran into in a real project, and the hint now printed: each
`fix:` is run as written by a real shell and does what it says."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.conftest import clean_env, run_goalfile


def met_goal(tmp_path: Path) -> Path:
    args = ["new", "g", "s", "--check", "echo hi", "--expected", 'exit 0; stdout contains "hi"']
    assert run_goalfile(*args, "--non-goal", "n", "--activate", cwd=tmp_path).returncode == 0
    assert run_goalfile("verify", "goals/g.md", cwd=tmp_path).returncode == 0
    return tmp_path


def fix_command(stderr: str) -> str:
    found = re.search(r"^  fix: .*?`(goalfile [^`]+)`", stderr, re.M)
    assert found is not None, stderr
    return found.group(1)


def run_fix(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    import sys

    argv = command.replace("goalfile ", f"{sys.executable} -m goalfile ", 1)
    return subprocess.run(
        ["sh", "-c", argv], cwd=cwd, capture_output=True, text=True, env=clean_env()
    )


def test_pausing_a_met_goal_names_reopen_and_the_fix_makes_pause_work(tmp_path: Path) -> None:
    """`pause` on a met goal offered `verify --no-write`, which does not lead to a pause."""
    repo = met_goal(tmp_path)
    done = run_goalfile("pause", "goals/g.md", cwd=repo)
    assert done.returncode == 3
    fix = fix_command(done.stderr)
    assert fix == "goalfile reopen goals/g.md --reason TEXT", done.stderr
    assert run_fix(fix, repo).returncode == 0
    assert run_goalfile("pause", "goals/g.md", cwd=repo).returncode == 0


def test_verify_of_a_folder_names_status_of_it(tmp_path: Path) -> None:
    """`verify goals/` said only "is a folder, not a goal file", with no fix."""
    repo = met_goal(tmp_path)
    done = run_goalfile("verify", "goals/", cwd=repo)
    assert done.returncode == 2 and "goals/: is a folder, not a goal file" in done.stderr
    fix = fix_command(done.stderr)
    assert fix == "goalfile status goals/"
    listed = run_fix(fix, repo)
    assert listed.returncode == 0 and "g: met  (goals/g.md)" in listed.stdout


def test_new_commit_help_reads_as_one_sentence(tmp_path: Path) -> None:
    done = run_goalfile("new", "--help", cwd=tmp_path)
    text = " ".join(done.stdout.split())
    assert "With --activate: commit the goal as approved" in text, text


def test_verify_of_a_folder_without_goals_points_to_new(tmp_path: Path) -> None:
    """No `goalfile status` of a folder that holds no goal: that command fails the same way."""
    (tmp_path / "empty").mkdir()
    done = run_goalfile("verify", "empty", cwd=tmp_path)
    assert done.returncode == 2
    assert "it holds no goal file (*.md); check the path, or create one with `goalfile new" in (
        done.stderr
    )
    assert "goalfile status" not in done.stderr


def test_status_does_not_ask_for_a_review_of_a_row_marked_impossible(tmp_path: Path) -> None:
    """After `impossible R1`, status still said "review R1: `goalfile review ...`", whose
    artifact did not exist; the row is never run nor reviewed again."""
    args = ["new", "g", "s", "--check", "ls", "--expected", "exit 0", "--non-goal", "n"]
    args += ["--review", "docs/missing.md=explains it", "--activate"]
    assert run_goalfile(*args, cwd=tmp_path).returncode == 0
    assert run_goalfile("verify", "goals/g.md", cwd=tmp_path).returncode == 1
    marked = run_goalfile("impossible", "goals/g.md", "R1", "--reason", "no docs", cwd=tmp_path)
    assert marked.returncode == 0, marked.stderr
    done = run_goalfile("status", "goals/g.md", cwd=tmp_path)
    [step] = [line for line in done.stdout.splitlines() if line.startswith("  next: ")]
    assert "goalfile review" not in step, step
    assert step.startswith("  next: R1 marked impossible: the goal can never become met"), step
    fix = re.search(r"`(goalfile verify [^`]+)`", step)
    assert fix is not None
    assert run_fix(fix.group(1), tmp_path).returncode == 4  # blocked: not completable


def test_status_says_no_streak_of_zero_after_an_entry_since_the_run(tmp_path: Path) -> None:
    """After `budget`, status read "same result 0 times in a row"."""
    args = ["new", "g", "s", "--check", "false", "--expected", "exit 0", "--non-goal", "n"]
    assert run_goalfile(*args, "--activate", cwd=tmp_path).returncode == 0
    assert run_goalfile("verify", "goals/g.md", cwd=tmp_path).returncode == 1
    before = run_goalfile("status", "goals/g.md", cwd=tmp_path).stdout
    assert "same result 1 time in a row" in before, before
    assert run_goalfile("budget", "goals/g.md", "--iterations", "9", cwd=tmp_path).returncode == 0
    after = run_goalfile("status", "goals/g.md", cwd=tmp_path).stdout
    [line] = [line for line in after.splitlines() if line.startswith("  last verify:")]
    assert "in a row" not in line, line


def test_status_after_a_plan_does_not_send_to_work_a_goal_left_only_impossible_rows(
    tmp_path: Path,
) -> None:
    """With a sound plan since the last verify, `impossible C1` on the only row left status
    saying "do the work the plan lays out"; the next verify blocks the goal, as it says now."""
    args = ["new", "g", "s", "--check", "false", "--expected", "exit 0", "--non-goal", "n"]
    assert run_goalfile(*args, "--activate", cwd=tmp_path).returncode == 0
    assert run_goalfile("verify", "goals/g.md", cwd=tmp_path).returncode == 1
    goal = tmp_path / "goals" / "g.md"
    goal.write_text(
        goal.read_text().replace(
            "|------|--------|-------|--------|-------|\n",
            "|------|--------|-------|--------|-------|\n| 1 | make it pass | - | C1 | - |\n",
        )
    )
    assert run_goalfile("plan", "goals/g.md", cwd=tmp_path).returncode == 0
    marked = run_goalfile("impossible", "goals/g.md", "C1", "--reason", "no way", cwd=tmp_path)
    assert marked.returncode == 0, marked.stderr

    done = run_goalfile("status", "goals/g.md", cwd=tmp_path)

    [step] = [line for line in done.stdout.splitlines() if line.startswith("  next: ")]
    assert step == (
        "  next: C1 marked impossible: the goal can never become met; `goalfile verify "
        "goals/g.md` sets it blocked (not completable), and a person decides what follows"
    ), step
    verified = run_goalfile("verify", "goals/g.md", cwd=tmp_path)
    assert verified.returncode == 4 and "(not completable: C1 marked impossible)" in (
        verified.stdout
    ), verified.stdout


def test_a_verb_a_new_user_reaches_for_names_the_command_that_does_it(tmp_path: Path) -> None:
    """`goalfile check PATH` said only "No such command 'check'."; each named command exists."""
    import json

    for word, meant in [("check", ["verify", "lint"]), ("run", ["verify"]), ("ls", ["status"])]:
        done = run_goalfile(word, "goals/g.md", cwd=tmp_path)
        assert done.returncode == 2
        assert f"No such command '{word}'. Did you mean '{meant[0]}' (" in done.stderr
        for name in meant:
            assert f"'{name}' (" in done.stderr
            assert run_goalfile(name, "--help", cwd=tmp_path).returncode == 0
        as_json = run_goalfile(word, "--json", cwd=tmp_path)
        assert as_json.returncode == 2
        assert f"Did you mean '{meant[0]}'" in json.loads(as_json.stdout)["error"]["message"]
    typo = run_goalfile("verfy", cwd=tmp_path)
    assert "Did you mean 'verify'?" in typo.stderr  # click's guess by spelling, as before


def test_a_goal_blocked_by_an_impossible_row_is_not_sent_to_resume_alone(tmp_path: Path) -> None:
    """Blocked "not completable", status said "remove the blocker, then `goalfile resume ...`",
    which only blocks it again at the next verify; the way it names instead works."""
    args = ["new", "g", "s", "--check", "ls", "--expected", "exit 0", "--non-goal", "n"]
    args += ["--review", "docs/missing.md=explains it", "--activate"]
    assert run_goalfile(*args, cwd=tmp_path).returncode == 0
    run_goalfile("verify", "goals/g.md", cwd=tmp_path)
    run_goalfile("impossible", "goals/g.md", "R1", "--reason", "no docs", cwd=tmp_path)
    assert run_goalfile("verify", "goals/g.md", cwd=tmp_path).returncode == 4
    step = run_goalfile("status", "goals/g.md", cwd=tmp_path).stdout.splitlines()[-1]
    assert "R1 marked impossible: the goal can never become met; a person decides" in step
    goal = tmp_path / "goals" / "g.md"
    text = goal.read_text(encoding="utf-8")
    goal.write_text(re.sub(r"(?m)^impossible:\n  R1: .*\n", "", text), encoding="utf-8")
    resume = re.search(r"`(goalfile resume [^`]+)`", step)
    assert resume is not None, step
    assert run_fix(resume.group(1), tmp_path).returncode == 0
    assert run_goalfile("verify", "goals/g.md", cwd=tmp_path).returncode == 1  # R1 runs again


def test_focus_names_a_missing_goal_as_typed_with_the_one_meant(tmp_path: Path) -> None:
    """`goalfile focus goals/nope.md` named /the/whole/path/goals/nope.md, unlike every other
    command, and offered no goal file it may have meant."""
    from tests.conftest import make_git_repo

    repo = make_git_repo(tmp_path / "repo")
    args = ["new", "tok", "s", "--check", "ls", "--expected", "exit 0", "--non-goal", "n"]
    assert run_goalfile(*args, "--activate", cwd=repo).returncode == 0
    done = run_goalfile("focus", "goals/nope.md", cwd=repo)
    assert done.returncode == 2
    assert done.stderr.startswith("goalfile: goals/nope.md: no such goal file"), done.stderr
    assert str(repo) not in done.stderr
    near = run_goalfile("focus", "tok", cwd=repo / "goals")
    assert near.returncode == 2
    fix = fix_command(near.stderr)
    assert fix == "goalfile focus tok.md", near.stderr
    assert run_fix(fix, repo / "goals").returncode == 0


def test_new_names_an_existing_goal_from_here_and_takes_a_path_for_its_slug(
    tmp_path: Path,
) -> None:
    """`goalfile new p x` over goals/p.md named /the/whole/path; `goalfile new goals/q.md x`
    offered the slug goals-q-md, where q was meant."""
    assert run_goalfile("new", "p", "x", cwd=tmp_path).returncode == 0
    again = run_goalfile("new", "p", "x", cwd=tmp_path)
    assert again.returncode == 3
    assert again.stderr.startswith("goalfile: goals/p.md: exists already"), again.stderr
    path = run_goalfile("new", "goals/q.md", "x", cwd=tmp_path)
    assert path.returncode == 2
    fix = fix_command(path.stderr)
    assert fix == "goalfile new q x", path.stderr
    assert run_fix(fix, tmp_path).returncode == 0
    assert (tmp_path / "goals" / "q.md").is_file()


def test_a_copy_of_the_template_names_its_placeholders(tmp_path: Path) -> None:
    """templates/goal.md copied into goals/ said only "found unhashable key" at `{{slug}}`."""
    from tests.conftest import REPO

    (tmp_path / "goals").mkdir()
    copy = tmp_path / "goals" / "t.md"
    copy.write_text((REPO / "templates" / "goal.md").read_text(encoding="utf-8"))
    done = run_goalfile("lint", "goals/t.md", cwd=tmp_path)
    assert done.returncode == 3
    assert "a template placeholder `{{...}}`" in done.stderr, done.stderr
    assert 'have `goalfile new SLUG "END STATE"` write the goal file' in done.stderr


def test_a_frontmatter_timeout_with_a_unit_is_given_in_seconds(tmp_path: Path) -> None:
    """`timeout: 2m` got "write e.g. `timeout: 600`"; the value meant, in seconds, is named,
    and the file it gives lints clean."""
    assert run_goalfile("new", "g", "s", "--check", "ls", "--expected", "exit 0",
                        "--non-goal", "n", cwd=tmp_path).returncode == 0  # fmt: skip
    goal = tmp_path / "goals" / "g.md"
    text = goal.read_text(encoding="utf-8")
    goal.write_text(text.replace("tokens_used: 0\n", "tokens_used: 0\ntimeout: 2m\n", 1))
    done = run_goalfile("lint", "goals/g.md", cwd=tmp_path)
    assert done.returncode == 3
    found = re.search(r"fix: write `(timeout: [0-9]+)` \(seconds, without a unit\)", done.stderr)
    assert found is not None and found.group(1) == "timeout: 120", done.stderr
    goal.write_text(goal.read_text(encoding="utf-8").replace("timeout: 2m", found.group(1)))
    assert run_goalfile("lint", "goals/g.md", cwd=tmp_path).returncode == 0


def test_a_goal_written_from_the_template_with_fields_left_is_not_approved(
    tmp_path: Path,
) -> None:
    """templates/goal.md copied by hand, the frontmatter and the row filled in, `# Goal:
    {{end_state}}` and `{{non_goals}}` left: lint said ok and activate approved the end state
    `{{end_state}}`. They are placeholders now, as `FILL IN: ...` is; a Jinja `{{ user }}` in an
    end state is text."""
    from tests.conftest import REPO

    template = (REPO / "templates" / "goal.md").read_text(encoding="utf-8")
    filled = {"{{slug}}": "g", "{{created}}": "2026-12-01", "{{iterations}}": "3"}
    filled |= {"{{tokens}}": "null", "{{rows}}": "| C1 | ls runs | `ls` | exit 0 | deterministic |"}
    for field, value in filled.items():
        template = template.replace(field, value)
    goal = tmp_path / "goals" / "g.md"
    goal.parent.mkdir()
    goal.write_text(template, encoding="utf-8")

    linted = run_goalfile("lint", "goals/g.md", cwd=tmp_path)
    refused = run_goalfile("activate", "goals/g.md", cwd=tmp_path)

    assert linted.returncode == 0, linted.stderr
    for what in ("the end state is still a placeholder", "a non-goal is still a placeholder"):
        assert f"warning: {what}" in linted.stderr, linted.stderr
    assert "fix: replace every `{{...}}` of templates/goal.md in goals/g.md" in linted.stderr
    assert refused.returncode == 3 and "is still a placeholder" in refused.stderr
    goal.write_text(
        template.replace("{{end_state}}", "the `{{ user }}` field renders escaped").replace(
            "{{non_goals}}", "- templates/ stay unchanged"
        ),
        encoding="utf-8",
    )
    approved = run_goalfile("activate", "goals/g.md", cwd=tmp_path)
    assert approved.returncode == 0, approved.stderr


def test_every_missing_required_option_is_named_at_once(tmp_path: Path) -> None:
    """`goalfile block PATH` said `Missing option '--reason'`, and once that was given,
    `Missing option '--tried'`: one round trip per option. All of them are named now, in the
    text and in the --json document; one missing alone reads as click writes it."""
    import json

    both = run_goalfile("block", "goals/g.md", cwd=tmp_path)
    as_json = run_goalfile("review", "goals/g.md", "C1", "--json", cwd=tmp_path)
    one = run_goalfile("block", "goals/g.md", "--reason", "x", cwd=tmp_path)

    assert both.returncode == 2 and "Error: Missing options '--reason' and '--tried'." in (
        both.stderr
    ), both.stderr
    assert as_json.returncode == 2
    error = json.loads(as_json.stdout)["error"]
    assert error["message"] == "Missing options '--artifact' and '--verdict'.", error
    assert error["hint"] == "`goalfile review --help`"
    assert one.returncode == 2 and "Error: Missing option '--tried'." in one.stderr, one.stderr


def test_a_run_in_process_reads_its_own_command_line(tmp_path: Path) -> None:
    """Run in-process (click's CliRunner, as the fuzz tests run the CLI), the command line is
    the one given to it, not the process's `sys.argv` (pytest's here): `--reason` given was
    named missing with `--tried`, and `--json` got no JSON document."""
    import json

    from click.testing import CliRunner

    from goalfile.cli import main

    runner = CliRunner()
    one = runner.invoke(main, ["block", str(tmp_path / "g.md"), "--reason", "x"])
    as_json = runner.invoke(main, ["review", str(tmp_path / "g.md"), "C1", "--json"])

    assert one.exit_code == 2 and "Error: Missing option '--tried'." in one.output, one.output
    assert as_json.exit_code == 2, as_json.output
    error = json.loads(as_json.stdout)["error"]
    assert error["message"] == "Missing options '--artifact' and '--verdict'.", error
