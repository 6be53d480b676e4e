"""`goalfile audit`: real git repositories, changed the way an agent would change them.

Each scenario starts from a goal activated and verified on `main`, then acts on a branch with
the goalfile CLI, text edits and git, and runs `goalfile audit --against main` as CI would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import copy_of, made_once, sh

from goalfile import contract, ledger
from goalfile.audit import AuditFinding, audit_goal, blocks, ledger_growth
from goalfile.errors import GoalfileError, UsageError
from goalfile.githistory import git_show
from goalfile.parse import ledger_region, parse_goal

GOAL = """\
---
slug: demo
status: draft   # draft | active | paused | met | blocked | exhausted
created: 2026-11-30
budget:
  iterations: 5
  tokens: null
iterations_used: 1
tokens_used: 0
---
# Goal: the demo writes its greeting and leaves the fixtures alone

## Non-goals
- `fixtures/` stays unchanged.

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | greeting written | `cat out.txt` | exit 0; stdout contains "hello world" | deterministic |
| C2 | fixtures untouched | `cat fixtures.log` | exit 0; output empty | deterministic |

## Iterations

## Lessons
"""
PATH = "goals/demo.md"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GOALFILE_", "GIT_"))}
    env.update(
        GIT_AUTHOR_NAME="agent",
        GIT_AUTHOR_EMAIL="agent@example.invalid",
        GIT_COMMITTER_NAME="agent",
        GIT_COMMITTER_EMAIL="agent@example.invalid",
        GIT_CONFIG_NOSYSTEM="1",
        HOME=env.get("HOME", "/tmp"),
    )
    return env


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, env=_env(), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def goalfile(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "goalfile", *args],
        cwd=repo,
        env=_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def audit(repo: Path, *args: str) -> tuple[int, dict[str, object]]:
    done = goalfile(repo, "audit", *args, "--json")
    return done.returncode, json.loads(done.stdout)


def codes(document: dict[str, object]) -> list[str]:
    files = document["files"]
    assert isinstance(files, list)
    return [f["code"] for item in files for f in item["findings"]]


def edit(repo: Path, old: str, new: str, *, count: int = 1) -> None:
    path = repo / PATH
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def _main(root: Path, env: dict[str, str]) -> None:
    # as `git init -q -b main` leaves it: no user of its own (_env names the agent)
    git(root, "config", "--unset", "user.email")
    git(root, "config", "--unset", "user.name")
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    (root / "goals").mkdir()
    (root / PATH).write_text(GOAL, encoding="utf-8")
    (root / "fixtures.log").write_text("", encoding="utf-8")
    assert goalfile(root, "activate", PATH).returncode == 0
    first = goalfile(root, "verify", PATH)
    assert first.returncode == 1, first.stderr
    commit(root, "goal: demo, activated and verified once")
    git(root, "checkout", "-q", "-b", "agent")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _main)


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    """`main`: the goal activated and verified once (C1 unmet: nothing written yet); the
    branch `agent` checked out (a copy of the repository made once for the module)."""
    return copy_of(made, tmp_path / "repo")


def do_the_work(repo: Path) -> None:
    (repo / "out.txt").write_text("hello world\n", encoding="utf-8")


# --- an agent that cheats -----------------------------------------------------------------


def test_loosened_check_and_met_set_by_hand_are_both_reported(repo: Path) -> None:
    edit(repo, "| exit 0; output empty |", "| exit 0 |")
    edit(repo, "status: active ", "status: met ")
    commit(repo, "done")
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 1
    found = codes(document)
    assert "contract-change-unapproved" in found
    assert "status-hand-edited" in found
    (item,) = document["files"]  # type: ignore[misc]
    change = next(f for f in item["findings"] if f["code"] == "contract-change-unapproved")
    assert change["row"] == "C2"
    assert (
        "C2 expected: `exit 0; output empty` → `exit 0` (loosened: clause dropped"
        in (change["message"])
    )
    assert "--reapprove" in change["hint"]
    assert item["contract_changes"][0]["loosened"] is True
    assert item["contract_changes"][0]["recorded_by"] is None

    # the text report names the file, the entry and the row, and says what to do
    text = goalfile(repo, "audit", PATH, "--against", "main")
    assert text.returncode == 1
    assert f"{PATH}:3: status-hand-edited: Iteration 1 (" in text.stdout
    assert "by verify-goal: the frontmatter says `met`" in text.stdout
    assert "contract-change-unapproved: C2: changed since main" in text.stdout
    assert "NOT re-approved" in text.stdout
    restore = "'3s/^status:[^#]*[^#[:space:]]/status: active/'"
    fix = (
        f"[ ! -e {PATH}.goalfile-bak ] && sed -i.goalfile-bak -e {restore} -- {PATH} "
        f"&& rm -- {PATH}.goalfile-bak"
    )
    assert f"  fix: `{fix}`" in text.stdout

    # without a revision the pin still tells
    rc, document = audit(repo, PATH)
    assert rc == 1
    assert {"contract-drift", "status-hand-edited"} <= set(codes(document))


def test_a_rewritten_entry_is_reported(repo: Path) -> None:
    edit(repo, "| C1  | unmet   | `cat out.txt` ", "| C1  | met     | `cat out.txt` ")
    commit(repo, "fix the ledger")
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 1
    (item,) = document["files"]  # type: ignore[misc]
    (finding,) = [f for f in item["findings"] if f["code"] == "entry-rewritten"]
    assert finding["entry"].startswith("Iteration 1 (") and finding["entry"].endswith(
        "by verify-goal"
    )
    assert "was «| C1 | unmet | `cat out.txt` |" in finding["message"]
    assert "is now «| C1 | met | `cat out.txt` |" in finding["message"]


def test_a_deleted_entry_is_reported(repo: Path) -> None:
    path = repo / PATH
    text = path.read_text(encoding="utf-8")
    start = text.index("### Iteration 1 (")
    start = text.index("### Iteration 1 (", start + 1)  # the verify entry
    end = text.index("## Lessons")
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    commit(repo, "tidy the ledger")
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 1
    assert "entry-deleted" in codes(document)
    (item,) = document["files"]  # type: ignore[misc]
    finding = next(f for f in item["findings"] if f["code"] == "entry-deleted")
    assert finding["entry"].endswith("by verify-goal")


def test_a_deleted_goal_file_is_reported(repo: Path) -> None:
    git(repo, "rm", "-q", PATH)
    commit(repo, "no more goal")
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 1
    assert codes(document) == ["goal-deleted"]
    (item,) = document["files"]  # type: ignore[misc]
    hint = item["findings"][0]["hint"]
    assert hint.startswith("`git checkout main -- goals/demo.md` puts back"), hint
    sh(hint.split("`")[1], repo)  # the fix, as written: the goal is back as main holds it
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 0, document


def test_a_lowered_iteration_count_and_a_raised_budget_are_reported(repo: Path) -> None:
    edit(repo, "iterations_used: 1", "iterations_used: 0")
    edit(repo, "  iterations: 5", "  iterations: 50")
    commit(repo, "more room")
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 1
    assert {"iterations-used-decreased", "budget-raised-unledgered"} <= set(codes(document))
    # each fix is a command that works as written: it sets that one line back
    (item,) = document["files"]  # type: ignore[misc]
    wanted = ("iterations-used-decreased", "budget-raised-unledgered")
    for finding in item["findings"]:
        if finding["code"] in wanted:
            command = finding["hint"].split("`")[1]
            subprocess.run(command, shell=True, cwd=repo, check=True)
    text = (repo / PATH).read_text(encoding="utf-8")
    assert "iterations_used: 1\n" in text and "\n  iterations: 5\n" in text, text
    commit(repo, "set back")
    rc, document = audit(repo, PATH, "--against", "main")
    assert not {"iterations-used-decreased", "budget-raised-unledgered"} & set(codes(document))
    # the raise each hint names instead is a command that works as written too, with a number
    # (the one iteration won back on top of the limit; the limit typed by hand)
    raises = [f["hint"].split("`")[3] for f in item["findings"] if f["code"] in wanted]
    assert raises == [
        f"goalfile budget {PATH} --iterations 6",
        f"goalfile budget {PATH} --iterations 50",
    ], raises
    for command in raises:
        sh(command, repo)
    assert "\n  iterations: 50\n" in (repo / PATH).read_text(encoding="utf-8")


def test_the_reopen_named_for_a_status_changed_by_hand_works_as_written(repo: Path) -> None:
    """`status-transition-unledgered` names the command that reopens an exhausted goal: a
    budget raise with a number, not `--iterations N`."""
    path = repo / PATH
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("status: active", "status: blocked", 1), encoding="utf-8")
    resumed = goalfile(repo, "resume", PATH, "--resolved", "nothing was wrong")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    commit(repo, "resumed")
    for against in ((), ("--against", "main")):
        rc, document = audit(repo, PATH, *against)
        assert rc == 1
        (item,) = document["files"]  # type: ignore[misc]
        (finding,) = [f for f in item["findings"] if f["code"] == "status-transition-unledgered"]
        command = finding["hint"].split("`")[1]
        assert command == f"goalfile budget {PATH} --iterations 10", finding["hint"]
    sh(command, repo)
    assert "\n  iterations: 10\n" in path.read_text(encoding="utf-8")


# --- an honest agent ----------------------------------------------------------------------


def test_honest_reapproval_then_verify_met_is_clean(repo: Path) -> None:
    edit(repo, "| exit 0; output empty |", "| exit 0 |")
    done = goalfile(
        repo, "activate", PATH, "--reapprove", "--reason", "the log file is written by CI"
    )
    assert done.returncode == 0, done.stderr
    (repo / "fixtures.log").write_text("ci ran\n", encoding="utf-8")
    do_the_work(repo)
    ran = goalfile(repo, "verify", PATH)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    commit(repo, "greeting; C2 re-approved")
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 0, document
    (item,) = document["files"]  # type: ignore[misc]
    (change,) = item["contract_changes"]
    assert change["row"] == "C2" and change["loosened"] is True
    assert change["recorded_by"].endswith("by activate")
    assert change["reason"] == "the log file is written by CI"
    assert len(item["new_entries"]) == 2
    text = goalfile(repo, "audit", PATH, "--against", "main")
    assert text.returncode == 0
    assert "re-approved by Iteration 1 (" in text.stdout
    assert text.stdout.rstrip().endswith(f"{PATH}: clean (2 entries added since main)")


def test_a_branch_that_only_appends_is_clean(repo: Path) -> None:
    do_the_work(repo)
    ran = goalfile(repo, "verify", PATH)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    commit(repo, "greeting")
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 0, document
    (item,) = document["files"]  # type: ignore[misc]
    assert item["findings"] == [] and item["contract_changes"] == []
    assert len(item["new_entries"]) == 1
    assert document["schema_version"] == 1 and document["exit_code"] == 0
    # the folder form and no revision agree
    assert audit(repo, "goals")[0] == 0


def test_met_then_reapproved_is_no_longer_met(repo: Path) -> None:
    do_the_work(repo)
    assert goalfile(repo, "verify", PATH).returncode == 0
    edit(repo, '| exit 0; stdout contains "hello world" |', '| exit 0; stdout contains "hello" |')
    assert goalfile(repo, "activate", PATH, "--reapprove").returncode == 0
    edit(repo, "status: active ", "status: met ")  # the agent puts `met` back by hand
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 1
    assert {"status-hand-edited", "met-after-reapproval", "met-wrong-contract"} <= set(
        codes(document)
    )


def test_a_new_goal_on_the_branch_is_audited_without_history(repo: Path) -> None:
    other = repo / "goals" / "other.md"
    other.write_text(GOAL.replace("slug: demo", "slug: other"), encoding="utf-8")
    assert goalfile(repo, "activate", "goals/other.md").returncode == 0
    commit(repo, "another goal")
    rc, document = audit(repo, "goals/other.md", "--against", "main")
    assert rc == 0, document
    (item,) = document["files"]  # type: ignore[misc]
    assert item["at_ref"] is False
    assert item["notes"] and "new since main" in item["notes"][0]


# --- review quotes ------------------------------------------------------------------------


def _guide_reviewed_by_r1(repo: Path) -> Path:
    """docs/guide.md, and the review row R1 that reads it, approved; the checks' work done."""
    (repo / "docs").mkdir()
    guide = repo / "docs" / "guide.md"
    guide.write_text("# Guide\n\nThe greeting is written to out.txt.\n", encoding="utf-8")
    edit(
        repo,
        "| C2 | fixtures untouched |",
        "| R1 | the guide explains it | `docs/guide.md` | explains where the greeting goes "
        "| review |\n| C2 | fixtures untouched |",
    )
    assert goalfile(repo, "activate", PATH, "--reapprove", "--reason", "add R1").returncode == 0
    do_the_work(repo)
    return guide


def test_a_review_quote_removed_from_its_artifact_is_reported(repo: Path) -> None:
    guide = _guide_reviewed_by_r1(repo)
    reviewed = goalfile(
        repo,
        "review",
        PATH,
        "R1",
        "--artifact",
        "docs/guide.md",
        "--quote",
        "The greeting is  written to out.txt.",
        "--verdict",
        "met",
    )
    assert reviewed.returncode == 0, reviewed.stderr
    ran = goalfile(repo, "verify", PATH)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    commit(repo, "guide")
    assert audit(repo, PATH, "--against", "main")[0] == 0

    guide.write_text("# Guide\n\nSee the code.\n", encoding="utf-8")
    commit(repo, "shorter guide")
    rc, document = audit(repo, PATH, "--against", "main")
    assert rc == 1
    (item,) = document["files"]  # type: ignore[misc]
    (finding,) = item["findings"]
    assert finding["code"] == "review-quote-missing" and finding["row"] == "R1"
    assert "docs/guide.md" in finding["message"]
    assert finding["entry"].endswith("by verify-goal")

    guide.unlink()
    rc, document = audit(repo, PATH)
    assert rc == 1 and codes(document) == ["review-artifact-missing"]


def test_a_review_entry_that_read_another_file_than_the_row_names_is_reported(
    repo: Path,
) -> None:
    """The agent's guide lost the passage its met review quotes; instead of writing it back, it
    typed the review entry's artifact over with a scratch file of its own that holds the
    passage. `goalfile review` refuses an artifact the row does not name, and verify counts no
    such review, but audit checked the quote only against the file the entry names: clean."""
    guide = _guide_reviewed_by_r1(repo)
    quote = "The greeting is written to out.txt."
    reviewed = goalfile(
        repo, "review", PATH, "R1", "--artifact", "docs/guide.md", "--quote", quote,
        "--verdict", "met",
    )  # fmt: skip
    assert reviewed.returncode == 0, reviewed.stderr
    assert goalfile(repo, "verify", PATH).returncode == 0
    guide.write_text("# Guide\n\nSee the code.\n", encoding="utf-8")
    (repo / "scratch.md").write_text(f"{quote}\n", encoding="utf-8")
    edit(repo, "artifact: `docs/guide.md`", "artifact: `scratch.md`")
    commit(repo, "guide")
    # verify itself would not count that review
    again = goalfile(repo, "verify", "--no-write", PATH)
    assert "not reviewed: the review read scratch.md, but R1 names docs/guide.md" in again.stdout

    for extra in ((), ("--against", "main")):
        rc, document = audit(repo, PATH, *extra)
        assert rc == 1, document
        (item,) = document["files"]  # type: ignore[misc]
        (finding,) = [f for f in item["findings"] if f["code"] == "review-artifact-mismatch"]
        assert finding["row"] == "R1" and finding["entry"].endswith("by verify-goal")
        assert "read `scratch.md`, but R1 names `docs/guide.md`" in finding["message"]
        assert "--artifact docs/guide.md" in finding["hint"]

    # the entry put back and the passage written back: clean
    edit(repo, "artifact: `scratch.md`", "artifact: `docs/guide.md`")
    guide.write_text(f"# Guide\n\n{quote}\n", encoding="utf-8")
    assert audit(repo, PATH)[0] == 0


# --- the command line ---------------------------------------------------------------------


def test_an_unknown_revision_is_a_usage_error(repo: Path) -> None:
    done = goalfile(repo, "audit", PATH, "--against", "origin/main")
    assert done.returncode == 2
    assert "unknown git revision 'origin/main'" in done.stderr
    assert "fetch-depth: 0" in done.stderr


def test_outside_a_repository_against_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "goal.md").write_text(GOAL, encoding="utf-8")
    done = goalfile(tmp_path, "audit", "goal.md", "--against", "main")
    assert done.returncode == 2
    assert "not inside a git repository" in done.stderr


def test_an_invalid_goal_file_exits_3(repo: Path) -> None:
    (repo / "goals" / "broken.md").write_text("no frontmatter\n", encoding="utf-8")
    done = goalfile(repo, "audit", "goals/broken.md", PATH)
    assert done.returncode == 3
    assert "goals/broken.md: invalid" in done.stdout
    rc, document = audit(repo, "goals/broken.md")
    assert rc == 3 and document["files"][0]["error"]["exit_code"] == 3  # type: ignore[index]


def test_help(repo: Path) -> None:
    done = goalfile(repo, "audit", "--help")
    assert done.returncode == 0
    assert "--against" in done.stdout and "--json" in done.stdout


# --- git_show -----------------------------------------------------------------------------


def test_git_show_reads_a_file_at_a_revision(repo: Path) -> None:
    at_main = git_show(ref="main", path="demo.md", cwd=str(repo / "goals"), env=_env())
    assert at_main is not None
    assert at_main == git(repo, "show", f"main:{PATH}").encode("utf-8")
    assert git_show(ref="main", path="missing.md", cwd=str(repo / "goals"), env=_env()) is None
    assert git_show(ref="main", path="goals", cwd=str(repo), env=_env()) is None  # a folder
    with pytest.raises(UsageError, match="unknown git revision"):
        git_show(ref="no-such-branch", path="demo.md", cwd=str(repo / "goals"), env=_env())
    with pytest.raises(GoalfileError):
        git_show(ref="--output=x", path="demo.md", cwd=str(repo / "goals"), env=_env())
    with pytest.raises(UsageError, match="not a folder"):
        git_show(ref="main", path="demo.md", cwd=str(repo / "nowhere"), env=_env())


# --- the rules on texts (no git) ----------------------------------------------------------

ENTRY = """\
### Iteration {n} ({date}) by verify-goal
| id | verdict | command | exit | evidence |
|----|---------|---------|------|----------|
| C1 | {verdict} | `cat out.txt` | 0 | `hello world` |

status: {status}
contract: {pin}
"""


def ledger_text(*entries: str, status: str = "active") -> str:
    base = GOAL.replace("status: draft", f"status: {status}")
    return base.replace("## Iterations\n", "## Iterations\n\n" + "\n".join(entries))


def verify_entry(n: int, date: str = "2026-11-30", verdict: str = "unmet", pin: str = "") -> str:
    status = "met" if verdict == "met" else "active"
    return ENTRY.format(n=n, date=date, verdict=verdict, status=status, pin=pin or "0" * 12)


def run_rules(text: str, old: str | None = None) -> list[str]:
    goal = parse_goal(text, path="goal.md")
    result = audit_goal(
        goal,
        read_artifact=lambda name: "",
        against="main" if old is not None else None,
        old_text=old,
    )
    return [f.code for f in result.findings]


def test_entries_moved_or_inserted_are_reported() -> None:
    a, b, c = verify_entry(1), verify_entry(2), verify_entry(3)
    old = ledger_text(a, b, c)
    assert "entry-moved" in run_rules(ledger_text(a, c, b), old)
    assert "entry-inserted" in run_rules(ledger_text(a, verify_entry(2, "2026-12-01"), b, c), old)
    assert run_rules(ledger_text(a, b, c, verify_entry(3)), old) == []


def test_iterations_and_dates_never_go_backwards() -> None:
    found = run_rules(ledger_text(verify_entry(2), verify_entry(1)))
    assert found == ["iteration-backwards"]
    found = run_rules(ledger_text(verify_entry(1, "2026-12-02"), verify_entry(1, "2026-12-01")))
    assert found == ["date-backwards"]
    # with a revision, only entries added since are judged
    old = ledger_text(verify_entry(2), verify_entry(1))
    assert run_rules(ledger_text(verify_entry(2), verify_entry(1), verify_entry(2)), old) == []


def test_met_needs_a_pin_and_a_verify_entry() -> None:
    assert run_rules(ledger_text(status="met")) == ["status-unbacked", "met-without-verify"]
    found = run_rules(ledger_text(verify_entry(1, verdict="met"), status="met"))
    # C2 has no verdict, and the entry ran under a digest (0…0) that is not this contract's
    assert found == ["met-row-missing", "met-wrong-contract"]
    # a missing pin is a warning, not a failure: with --against the contract is compared
    result = audit_goal(
        parse_goal(ledger_text(verify_entry(1, verdict="met"), status="met"), path="goal.md"),
        read_artifact=lambda name: "",
    )
    assert [w.code for w in result.warnings] == ["unpinned"]


def test_blocks_keep_each_entry_as_markdown_means_it() -> None:
    text = ledger_text(verify_entry(1), verify_entry(2)).replace("\n", "\r\n")
    found = blocks(text)
    assert [b.entry.iteration for b in found] == [1, 2]
    assert found[0].text == "\n".join(ledger.meaning_lines(verify_entry(1).split("\n")))
    assert found[0].text.split("\n")[0] == verify_entry(1).split("\n")[0]
    region = ledger_region(text)
    assert region is not None
    assert [b.entry for b in found] == list(ledger.entries(text, *region))
    assert ledger_growth("g.md", found, found, "main").findings == ()


def test_a_forged_verify_entry_must_name_the_contracts_checks(tmp_path: Path) -> None:
    goal = parse_goal(ledger_text(status="draft"), path="goal.md")
    pin = contract.digest(goal)
    forged = verify_entry(1, verdict="met", pin=contract.short(pin)).replace(
        "`cat out.txt`", "`true`"
    )
    text = ledger_text(forged, status="met").replace(
        "tokens_used: 0\n", f"tokens_used: 0\ncontract: {pin}\n"
    )
    found = run_rules(text)
    assert "met-command-mismatch" in found
    assert "met-row-missing" in found  # C2 has no verdict
    assert ledger.VERIFY_BY == "verify-goal"


def test_changed_run_settings_are_contract_changes() -> None:
    """cwd and shell decide where and how every check runs: changing them unapproved is a
    finding, like loosening a row."""
    old = ledger_text(verify_entry(1))
    new = old.replace("tokens_used: 0\n", "tokens_used: 0\ncwd: sub\nshell: /bin/bash\n")
    result = audit_goal(
        parse_goal(new, path="goal.md"),
        read_artifact=lambda name: "",
        against="main",
        old_text=old,
    )
    unapproved = [f for f in result.findings if f.code == "contract-change-unapproved"]
    assert [f.row for f in unapproved] == ["cwd", "shell"]
    assert "run setting cwd: (default) → sub" in unapproved[0].message


def test_a_command_that_ran_on_a_status_it_never_acts_on_is_reported() -> None:
    """verify only runs on an active goal: a verify entry right after an `exhausted` one means
    the status was set back by hand in between."""
    resume = "### Iteration 1 (2026-11-30) by resume\nresumed after pause\n\nstatus: active\n"
    codes = run_rules(ledger_text(verify_entry(1), resume))
    assert "status-transition-unledgered" in codes
    assert "status-transition-unledgered" not in run_rules(
        ledger_text(verify_entry(1), verify_entry(1))
    )
    # an `exhausted` set back to `active` by hand asks for more work: accepted (DESIGN §10)
    exhausted = verify_entry(1).replace("status: active", "status: exhausted")
    codes = run_rules(ledger_text(exhausted, verify_entry(1)))
    assert "status-transition-unledgered" not in codes


def test_a_finding_no_command_mends_prints_no_empty_fix_line() -> None:
    """A lint error audit passes on may have no fix (what to write is in its message): its
    finding then ends with the message, not with a `fix:` line that names nothing."""
    bare = AuditFinding(code="run-setting-invalid", path="goals/a.md", line=3, message="m", hint="")
    assert bare.render() == "goals/a.md:3: run-setting-invalid: m"
    fixed = AuditFinding(code="run-setting-invalid", path="goals/a.md", message="m", hint="`x`")
    assert fixed.render() == "goals/a.md: run-setting-invalid: m\n  fix: `x`"
