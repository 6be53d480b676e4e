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
import re
import subprocess
import sys
from pathlib import Path

from goalfile import ledger
from tests.conftest import clean_env, git, last_line, make_git_repo, run_goalfile, shell
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


def test_a_cell_mdformat_escaped_is_read_the_same_and_its_warning_fix_works(
    tmp_path: Path,
) -> None:
    """mdformat escapes a `*` in an `expected` cell typed outside a code span (`/^a.\\*b$/`):
    goalfile reads the cell as Markdown shows it, so the verdict is the same, and lint warns
    that the source reads otherwise (a reader of the source could take `\\*` for a literal
    star); the printed fix, run as written, puts the cell in a code span that mdformat keeps."""
    repo = make_git_repo(tmp_path / "repo")
    goal = repo / "goals" / "y.md"
    text = run_goalfile("new", "y", "the line is printed", "--non-goal", "nothing else", cwd=repo)
    assert text.returncode == 0, text.stderr
    cell = "| C1 | line | `printf 'aXXb\\n'` | exit 0; stdout matches /^a.*b$/ | deterministic |"
    lines = goal.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("| C1 "))
    lines[at] = cell
    goal.write_text("\n".join(lines), encoding="utf-8")
    assert run_goalfile("lint", "goals/y.md", cwd=repo).stdout == "goals/y.md: ok\n"
    before = last_line(run_goalfile("verify", "--no-write", "goals/y.md", cwd=repo).stdout)
    assert before.startswith("verify-goal y iteration 0: C1 met"), before

    formatter = [sys.executable, "-m", "mdformat"]
    subprocess.run([*formatter, "goals/y.md"], cwd=repo, check=True, env=clean_env())
    assert "/^a.\\*b$/" in goal.read_text(encoding="utf-8")
    after = run_goalfile("verify", "--no-write", "goals/y.md", cwd=repo)
    assert last_line(after.stdout) == before, after.stdout + after.stderr
    lint = run_goalfile("lint", "goals/y.md", cwd=repo)
    said = lint.stdout + lint.stderr
    assert lint.returncode == 0 and "means `exit 0; stdout matches /^a.*b$/`" in said, said
    assert re.search(r"goals/y\.md:\d+: warning: C1: the expected", said), said
    (fix,) = re.findall(r"`(goalfile lint --fix goals/y\.md)`", said)
    assert shell(fix, repo).returncode == 0
    check = subprocess.run([*formatter, "--check", "goals/y.md"], cwd=repo, env=clean_env())
    assert check.returncode == 0  # mdformat keeps the code span as it is
    assert run_goalfile("lint", "goals/y.md", cwd=repo).stdout == "goals/y.md: ok\n"
    again = run_goalfile("verify", "--no-write", "goals/y.md", cwd=repo)
    assert last_line(again.stdout) == before, again.stdout + again.stderr


def test_a_status_line_wrapped_onto_two_lines_is_named_too(tmp_path: Path) -> None:
    """`mdformat --wrap 40` breaks a long `status:` line (a stalled goal's reason) and joins
    the `contract:` line to its second half (`runs) contract: ...`): no line starts with
    `status:` and ends with the contract, and lint said ok (also once `goalfile restore` had
    put back the entries HEAD holds and kept that one); the entry's status and contract were
    not read as written. It is `entry-rewrapped` too, with the same fix."""
    repo = make_git_repo(tmp_path / "repo")
    made = run_goalfile(
        "new", "done", "a.txt exists", "--activate",
        "--check", "test -f a.txt", "--expected", "exit 0", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    for _ in range(3):  # the same unmet run three times: blocked, with the reason why
        ran = run_goalfile("verify", "goals/done.md", cwd=repo)
    assert "status: blocked (no progress in 3 verify runs)" in ran.stdout, ran.stdout
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "blocked")
    path = repo / "goals" / "done.md"
    text = path.read_text(encoding="utf-8")
    wrapped = re.sub(
        r"(?m)^status: blocked \(no progress in 3 verify runs\)\ncontract: ",
        "status: blocked (no progress in 3 verify\nruns) contract: ",
        text,
    )
    assert wrapped != text
    path.write_text(wrapped, encoding="utf-8")
    line = wrapped.split("\n").index("status: blocked (no progress in 3 verify") + 1
    lint = run_goalfile("lint", "--json", "goals/done.md", cwd=repo)
    assert lint.returncode == 3, lint.stdout
    (found,) = json.loads(lint.stdout)["files"][0]["findings"]
    assert (found["code"], found["line"]) == ("entry-rewrapped", line), found
    assert "`git checkout -- goals/done.md` undoes an unstaged one" in found["hint"]
    refused = run_goalfile("status", "goals/done.md", cwd=repo)
    assert refused.returncode == 3 and "joined into one" in refused.stderr, refused.stderr
    git(repo, "checkout", "--", "goals/done.md")
    assert run_goalfile("lint", "goals/done.md", cwd=repo).returncode == 0
