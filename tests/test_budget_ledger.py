"""A budget limit is the one the ledger records: a limit typed into the frontmatter by hand
(lowered to end the goal sooner, or raised) counts for nothing, and lint, status and audit
report it with a fix that works as written. Real goalfile processes in a real git repository;
the Stop hook is fed a recorded host input."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import DATA, git, make_git_repo, run_goalfile, stop_input

from goalfile.model import Status
from goalfile.parse import parse_goal

GOAL = "goals/real.md"


def hook_input(repo: Path, *, active: bool = False, transcript: Path | None = None) -> str:
    data = json.loads(stop_input(repo, active=active))
    if transcript is not None:
        data["transcript_path"] = str(transcript)
    return json.dumps(data)


def stop(
    repo: Path, *, active: bool = False, transcript: Path | None = None, agent: str = "claude"
) -> dict[str, object]:
    stdin = hook_input(repo, active=active, transcript=transcript)
    done = run_goalfile("hook", "stop", "--agent", agent, cwd=repo, input=stdin)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.strip() or "{}")
    assert isinstance(answer, dict)
    return answer


def new_goal(tmp_path: Path, *budget: str) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "real", "tests pass", "--check", "cat step.txt; test -f done.txt",
        "--expected", "exit 0",
        "--non-goal", "n", *budget, "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return repo


def work(repo: Path, step: int) -> None:
    """Progress the check's output shows (so no run repeats the last, and none stalls)."""
    (repo / "step.txt").write_text(f"step {step}\n", encoding="utf-8")


def hand_edit(repo: Path, pattern: str, replacement: str) -> None:
    path = repo / GOAL
    text, count = re.subn(pattern, replacement, path.read_text(encoding="utf-8"), flags=re.M)
    assert count == 1, text
    path.write_text(text, encoding="utf-8")


def goal(repo: Path) -> tuple[Status, int, int | None, int | None]:
    parsed = parse_goal((repo / GOAL).read_text(encoding="utf-8"), path=GOAL)
    return parsed.status, parsed.iterations_used, parsed.budget.iterations, parsed.budget.tokens


def fix_command(output: str) -> str:
    """The first command of the first `fix:` line, as a person would paste it."""
    line = next(line for line in output.splitlines() if line.strip().startswith("fix:"))
    return line.split("`")[1]


def line_of(repo: Path, prefix: str) -> int:
    lines = (repo / GOAL).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if line.startswith(prefix))


def test_an_iteration_limit_lowered_by_hand_never_exhausts_the_goal(tmp_path: Path) -> None:
    repo = new_goal(tmp_path)
    first = stop(repo)  # an honest first stop: iteration 1 of 5 starts
    assert first["decision"] == "block"
    assert goal(repo) == (Status.ACTIVE, 1, 5, None)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal approved, one iteration in")

    hand_edit(repo, r"^  iterations: 5", "  iterations: 1")
    line = line_of(repo, "  iterations: 1")
    # a new session's first stop, and every stop after it: held to the approved 5
    for active, iteration in ((False, 2), (True, 3)):
        work(repo, iteration)
        answer = stop(repo, active=active)
        assert answer["decision"] == "block", answer
        assert goal(repo) == (Status.ACTIVE, iteration, 1, None)
    assert "status: exhausted" not in (repo / GOAL).read_text(encoding="utf-8")
    planned = run_goalfile("plan", GOAL, cwd=repo)  # no plan steps: refused, not exhausted
    assert planned.returncode == 3 and "budget reached" not in planned.stderr, planned.stderr
    work(repo, 4)
    verified = run_goalfile("verify", GOAL, cwd=repo)
    assert verified.returncode == 1, verified.stderr  # unmet, still active
    assert goal(repo)[0] is Status.ACTIVE

    warning = f"{GOAL}:{line}: warning: budget.iterations is 1, but the ledger records 5"
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 0, linted.stderr  # a warning: no command goes by the value
    assert warning in linted.stderr
    shown = run_goalfile("status", GOAL, cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert warning in shown.stderr and "iterations 3/5" in shown.stdout
    document = json.loads(run_goalfile("status", GOAL, "--json", cwd=repo).stdout)
    (item,) = document["goals"]
    assert [(w["code"], w["line"]) for w in item["warnings"]] == [("budget-unbacked", line)]
    assert item["iterations"]["budget"] == 5
    audited = run_goalfile("audit", GOAL, "--json", cwd=repo)
    assert audited.returncode == 1, audited.stderr
    (item,) = json.loads(audited.stdout)["files"]
    (found,) = [f for f in item["findings"] if f["code"] == "budget-unbacked"]
    assert found["line"] == line
    against = run_goalfile("audit", GOAL, "--against", "HEAD", "--json", cwd=repo)
    (item,) = json.loads(against.stdout)["files"]  # one finding for one edit
    assert [f["code"] for f in item["findings"]] == ["budget-raised-unledgered"]

    # the fix lint printed works as written, and sets that one value back, comment kept
    before = (repo / GOAL).read_bytes()
    subprocess.run(fix_command(linted.stderr), shell=True, cwd=repo, check=True)
    assert (repo / GOAL).read_bytes() == before.replace(b"  iterations: 1", b"  iterations: 5")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 0 and "warning" not in linted.stderr, linted.stderr
    assert run_goalfile("audit", GOAL, cwd=repo).returncode == 0
    text = (repo / GOAL).read_text(encoding="utf-8")
    assert "\nbudget approved: iterations 5, tokens unbounded\n" in text  # the approval records it


def test_a_token_limit_lowered_by_hand_never_exhausts_the_goal(tmp_path: Path) -> None:
    repo = new_goal(tmp_path, "--tokens", "100000")
    rollout = tmp_path / "rollout.jsonl"
    lines = (DATA / "transcripts" / "codex-rollout-a.jsonl").read_text("utf-8").splitlines(True)
    rollout.write_text("".join(lines[:8]), encoding="utf-8")  # the session so far: its baseline
    assert stop(repo, transcript=rollout, agent="codex")["decision"] == "block"
    rollout.write_text("".join(lines), encoding="utf-8")  # the session goes on spending

    hand_edit(repo, r"^  tokens: 100000", "  tokens: 1")
    work(repo, 2)
    answer = stop(repo, transcript=rollout, agent="codex")
    assert answer["decision"] == "block", answer
    assert goal(repo)[0] is Status.ACTIVE
    used = parse_goal((repo / GOAL).read_text("utf-8"), path=GOAL).tokens_used
    assert 1 < used < 100000  # measured from the transcript: above the typed limit, below 100000
    work(repo, 3)
    again = run_goalfile("verify", GOAL, "--tokens-used", str(used + 50), cwd=repo)
    assert again.returncode == 1, again.stderr  # unmet, still active: not `exhausted`
    assert goal(repo)[0] is Status.ACTIVE
    assert "budget.tokens is 1, but the ledger records 100000" in (
        run_goalfile("lint", GOAL, cwd=repo).stderr
    )
    assert "\nbudget approved: iterations 5, tokens 100000\n" in (repo / GOAL).read_text("utf-8")


def test_goalfile_budget_raises_from_the_ledgers_limit(tmp_path: Path) -> None:
    repo = new_goal(tmp_path)
    hand_edit(repo, r"^  iterations: 5", "  iterations: 1")
    # a "raise" from the typed 1 to 2 would lower the approved 5: refused, file untouched
    refused = run_goalfile("budget", GOAL, "--iterations", "2", cwd=repo)
    assert refused.returncode == 3
    assert "does not raise the limit of 5" in refused.stderr
    raised = run_goalfile("budget", GOAL, "--iterations", "8", cwd=repo)
    assert raised.returncode == 0, raised.stderr
    text = (repo / GOAL).read_text(encoding="utf-8")
    assert "\nbudget.iterations: 5 → 8\n" in text
    assert goal(repo)[2] == 8 and "warning" not in run_goalfile("lint", GOAL, cwd=repo).stderr

    # a hand raise counts for nothing; the fix names the command that ledgers it
    hand_edit(repo, r"^  iterations: 8", "  iterations: 50")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 0
    assert "budget.iterations is 50, but the ledger records 8 (the entry `Iteration 0" in (
        linted.stdout + linted.stderr
    )
    assert f"`goalfile budget {GOAL} --iterations 50`" in linted.stdout + linted.stderr
    done = run_goalfile("budget", GOAL, "--iterations", "50", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "\nbudget.iterations: 8 → 50\n" in (repo / GOAL).read_text(encoding="utf-8")
    assert "warning" not in run_goalfile("lint", GOAL, cwd=repo).stderr


def test_an_older_ledger_backs_what_its_budget_entries_record(tmp_path: Path) -> None:
    """An approval written before approvals recorded the budget: the frontmatter is in force
    until a `by budget` entry records a limit, then that entry's is."""
    repo = new_goal(tmp_path)
    hand_edit(repo, r"^budget approved: .*\n", "")  # as older versions wrote the approval
    hand_edit(repo, r"^  iterations: 5", "  iterations: 3")
    quiet = run_goalfile("lint", GOAL, cwd=repo)
    assert quiet.returncode == 0 and "warning" not in quiet.stderr  # nothing to compare with
    assert run_goalfile("budget", GOAL, "--iterations", "4", cwd=repo).returncode == 0
    hand_edit(repo, r"^  iterations: 4", "  iterations: 1")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 0
    assert "budget.iterations is 1, but the ledger records 4 (the entry `Iteration 0" in (
        linted.stdout + linted.stderr
    )
    assert "by budget`)" in linted.stdout + linted.stderr


def audited(repo: Path, *args: str) -> tuple[int, list[dict[str, object]]]:
    done = run_goalfile("audit", GOAL, "--json", *args, cwd=repo)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    (item,) = json.loads(done.stdout)["files"]
    return done.returncode, list(item["findings"])


def test_audit_against_a_base_goes_by_the_limit_the_ledger_records(tmp_path: Path) -> None:
    """`audit --against` and every other command read a budget by one rule, the ledger's.
    The audit used to start from the limits typed in the base revision's frontmatter, and
    disagreed with lint: a draft committed with `iterations: 5`, given 9 before approval and
    approved with 9, failed the audit (`budget-raised-unledgered`, fix: set 5), while lint
    said ok, and after that fix lint warned that the ledger records 9."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "real", "tests pass", "--check", "true", "--expected", "exit 0",
        "--non-goal", "n", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a draft")
    git(repo, "branch", "base")
    hand_edit(repo, r"^  iterations: 5", "  iterations: 9")  # a draft's budget is the author's
    activated = run_goalfile("activate", GOAL, cwd=repo)
    assert activated.returncode == 0, activated.stderr
    assert "budget approved: iterations 9" in (repo / GOAL).read_text(encoding="utf-8")
    git(repo, "commit", "-qam", "approved")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 0 and "warning" not in linted.stderr, linted.stderr
    assert audited(repo, "--against", "base") == (0, [])

    # a limit typed by hand after the approval: both say so, and name the ledger's 9
    hand_edit(repo, r"^  iterations: 9", "  iterations: 5")
    code, findings = audited(repo, "--against", "base")
    assert code == 1
    assert [f["code"] for f in findings] == ["budget-raised-unledgered"], findings
    assert "but the ledger records 9" in str(findings[0]["message"]), findings
    assert (
        "budget.iterations is 5, but the ledger records 9"
        in run_goalfile("lint", GOAL, cwd=repo).stderr
    )
    subprocess.run(fix_command(f"fix: {findings[0]['hint']}"), shell=True, cwd=repo, check=True)
    assert audited(repo, "--against", "base") == (0, [])


def test_audit_against_a_base_with_a_typed_limit_fixes_to_the_ledgers(tmp_path: Path) -> None:
    """A limit typed by hand already at the base revision is no limit to go back to: the
    audit's fix used to set the base's typed 50 again, which lint and a plain audit still
    report; it sets the ledger's 5, and then every command agrees."""
    repo = new_goal(tmp_path)
    hand_edit(repo, r"^  iterations: 5", "  iterations: 50")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "typed")
    git(repo, "branch", "base")
    hand_edit(repo, r"^  iterations: 50", "  iterations: 60")
    code, findings = audited(repo, "--against", "base")
    assert code == 1
    assert [f["code"] for f in findings] == ["budget-raised-unledgered"], findings
    assert "budget.iterations is 60 (50 at base), but the ledger records 5" in str(
        findings[0]["message"]
    ), findings
    subprocess.run(fix_command(f"fix: {findings[0]['hint']}"), shell=True, cwd=repo, check=True)
    assert goal(repo)[2] == 5
    assert audited(repo, "--against", "base") == (0, [])
    assert audited(repo) == (0, [])
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 0 and "warning" not in linted.stderr, linted.stderr


def test_audit_against_a_base_keeps_a_limit_no_ledger_entry_records(tmp_path: Path) -> None:
    """A ledger that records no limit (an approval older than the `budget approved:` line):
    the limit at the base revision is the one to keep, as before."""
    repo = new_goal(tmp_path)
    hand_edit(repo, r"^budget approved: .*\n", "")  # as older versions wrote the approval
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "older approval")
    git(repo, "branch", "base")
    hand_edit(repo, r"^  iterations: 5", "  iterations: 1")
    code, findings = audited(repo, "--against", "base")
    assert code == 1
    assert [f["message"] for f in findings] == [
        "budget.iterations is 1 (5 at base), but no ledger entry records a change of it"
    ], findings
    subprocess.run(fix_command(f"fix: {findings[0]['hint']}"), shell=True, cwd=repo, check=True)
    assert audited(repo, "--against", "base") == (0, [])
