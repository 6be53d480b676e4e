"""What formatters write into a ledger, read as Markdown reads it (tests/test_formatter_matrix.py
runs the real tools on goals at every stage; these are the single cases, fast):

- the skill family writes `status: met` right under the verdict table, which GFM reads as one
  more row: mdformat writes it `| status: met |  |  |  |  |`, prettier `| status: met |`. Every
  reader took the row for a note: the entry lost its status (`log`), `audit --against` found a
  rewritten entry and the Stop hook refused the goal;
- an approval entry records each non-goal as the text it shows; markdownlint's fix wraps a URL
  there in `<...>`: the record no longer digested to its `contract:` line, and every command
  refused the goal (`approval-record-invalid`);
- a rewrapped ledger (`entry-rewrapped`) also drew lint's status rules, whose fix set a `met`
  back to `active` by `sed`, and verify gave that one first; status showed the goal as if
  never verified."""

from __future__ import annotations

import json
from pathlib import Path

from goalfile import ledger
from tests.conftest import git, last_line, make_git_repo, run_goalfile
from tests.test_skill_family import GOAL, SKILL_PLAN, VERIFY_ENTRY, project, skill_goal

ROWS = VERIFY_ENTRY.splitlines()[:-1]  # the heading and the table, without `status: met`


def test_a_status_line_under_a_table_reads_the_same_as_the_row_a_formatter_makes_of_it() -> None:
    for last in ("| status: met |  |  |  |  |", "| status: met |", "|status: met||||"):
        entry = ledger.parse_entry([*ROWS, last])
        assert entry is not None and entry.status is not None, last
        assert entry.status.value == "met", (last, entry)
        assert not [note for note in entry.notes if "status" in note], entry.notes
        assert ledger.meaning_lines([*ROWS, last]) == ledger.meaning_lines([*ROWS, "status: met"])
    # a row is a row: one with another cell, or not under a table, is a note as before
    for lines in ([*ROWS, "| status: met | x |"], [ROWS[0], "", "| status: met |  |"]):
        entry = ledger.parse_entry(lines)
        assert entry is not None and entry.status is None, lines


def test_the_skill_familys_entry_formatted_reads_and_audits_the_same(tmp_path: Path) -> None:
    review = VERIFY_ENTRY.replace("status: met", "status: active")
    repo = project(tmp_path, skill_goal(plan=SKILL_PLAN, iterations=review))
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "met")
    log = run_goalfile("log", "--json", GOAL, cwd=repo)
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    assert "|\nstatus: active\n" in text
    for row in ("| status: active |  |  |  |  |", "| status: active |"):
        path.write_text(text.replace("|\nstatus: active\n", f"|\n{row}\n"), encoding="utf-8")
        assert run_goalfile("log", "--json", GOAL, cwd=repo).stdout == log.stdout, row
        audit = run_goalfile("audit", "--against", "HEAD", GOAL, cwd=repo)
        assert audit.returncode == 0, (row, audit.stdout)
        assert "clean (0 entries added since HEAD)" in audit.stdout, audit.stdout


def approved_with_a_url(tmp_path: Path) -> tuple[Path, Path, str]:
    repo = make_git_repo(tmp_path / "repo")
    made = run_goalfile(
        "new", "api", "a.txt exists", "--activate",
        "--check", "test -f a.txt", "--expected", "exit 0",
        "--non-goal", "the API at https://example.com/api keeps its shape",
        cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "approved")
    path = repo / "goals" / "api.md"
    text = path.read_text(encoding="utf-8")
    assert text.count("https://example.com/api") == 2  # the section and the approval's record
    return repo, path, text


def test_an_approval_whose_non_goal_url_was_wrapped_still_backs_the_pin(tmp_path: Path) -> None:
    repo, path, text = approved_with_a_url(tmp_path)
    before = run_goalfile("verify", "--no-write", "goals/api.md", cwd=repo)
    assert before.returncode == 1, before.stdout + before.stderr
    # as markdownlint's fix writes it (MD034, in the section and the record), and with an
    # escape in the record that shows the same text
    record = text.rindex("https://example.com/api")
    for edited in (
        text.replace("https://example.com/api", "<https://example.com/api>"),
        text[:record] + "https\\://example.com/api" + text[record + 23 :],
    ):
        path.write_text(edited, encoding="utf-8")
        assert run_goalfile("lint", "goals/api.md", cwd=repo).returncode == 0, edited
        after = run_goalfile("verify", "--no-write", "goals/api.md", cwd=repo)
        assert last_line(after.stdout) == last_line(before.stdout), (edited, after.stderr)
        audit = run_goalfile("audit", "--against", "HEAD", "goals/api.md", cwd=repo)
        assert audit.returncode == 0, (edited, audit.stdout)
    # a record that shows another text is still an edited approval
    path.write_text(text.replace("https://example.com/api", "<https://example.com/v2>"), "utf-8")
    refused = run_goalfile("verify", "--no-write", "goals/api.md", cwd=repo)
    assert refused.returncode == 3 and "approval" in refused.stderr, refused.stderr


def test_a_rewrapped_met_goal_is_named_once_with_the_fix_that_undoes_it(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    made = run_goalfile(
        "new", "done", "a.txt exists", "--activate",
        "--check", "test -f a.txt", "--expected", "exit 0", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    (repo / "a.txt").write_text("", encoding="utf-8")
    assert run_goalfile("verify", "goals/done.md", cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "met")
    path = repo / "goals" / "done.md"
    text = path.read_text(encoding="utf-8")
    # what `prettier --prose-wrap never` makes of every entry's last paragraph
    head, ledger_text = text.split("## Iterations", 1)
    joined = ledger_text.replace("\ncontract: ", " contract: ")
    path.write_text(f"{head}## Iterations{joined}", encoding="utf-8")
    lint = run_goalfile("lint", "--json", "goals/done.md", cwd=repo)
    (found,) = json.loads(lint.stdout)["files"][0]["findings"]
    assert found["code"] == "entry-rewrapped", found
    assert "`git checkout -- goals/done.md` undoes an unstaged one" in found["hint"]
    assert "mdformat's default `--wrap keep`" in found["hint"]
    for command in (("verify", "--no-write"), ("status",), ("plan",)):
        refused = run_goalfile(*command, "goals/done.md", cwd=repo)
        assert refused.returncode == 3, (command, refused.stdout, refused.stderr)
        said = refused.stderr.replace("goalfile: goals/done.md", "goals/done.md")
        assert f"goals/done.md:{found['line']}:" in said, (command, refused.stderr)
        assert "joined into one" in refused.stderr and "sed" not in refused.stderr, command
    git(repo, "checkout", "--", "goals/done.md")
    assert run_goalfile("status", "goals/done.md", cwd=repo).returncode == 0
