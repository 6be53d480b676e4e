"""Goals the skill family's skills write by hand, run through goalfile's lifecycle from the
outside: the real goalfile in a real git repository.

The goal skill of the family a goal file comes from writes the file and sets `status: active`
itself: no `contract:` pin, no `by activate` entry, so no approval records rows or a `budget
approved:` line. Eleven rows, so that an order by id (`C1`, `C10`, `C11`, `C2`) differs from
the table's. Each check appends its id to `order`, so the order the rows ran in is a fact of
the working tree. What each command says about such a goal, the hints it prints (each one
run as written), and `activate --reapprove` bringing it to the shape goalfile writes.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from tests.conftest import git, run_goalfile

GOAL = "goals/many.md"
IDS = [f"C{i}" for i in range(1, 12)]


def row(rid: str, criterion: str | None = None) -> str:
    return (
        f"| {rid} | {criterion or 'row ' + rid} | `echo {rid} >> order` | exit 0 | deterministic |"
    )


def skill_written() -> str:
    """As the family's goal and plan skills write a goal: compact tables, `tokens_used:
    null`, the plan skill's lines, and the status set to active by hand."""
    return (
        "---\nslug: many\nstatus: active\ncreated: 2026-11-28\nbudget:\n  iterations: 5\n"
        "  tokens: null\niterations_used: 1\ntokens_used: null\n---\n"
        "# Goal: every row runs\n\n## Non-goals\n- nothing else changes.\n\n"
        "## Acceptance criteria\n| id | criterion | check | expected | kind |\n"
        "|----|-----------|-------|----------|------|\n"
        + "".join(row(rid) + "\n" for rid in IDS)
        + "\n## Plan\nrevision: 1\nverify-plan: sound (2026-11-28)\n"
        "| step | change | files | serves | check |\n|------|--------|-------|--------|-------|\n"
        f"| 1 | run every row | - | {', '.join([*IDS, 'C12'])} | - |\n"
        "findings: none\n\n## Iterations\n\n## Lessons\n"
    )


def repo_with(tmp_path: Path, text: str) -> Path:
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    (repo / GOAL).write_text(text)
    (repo / ".gitignore").write_text("order\n")
    git(repo, "init", "-q")
    commit(repo, "goal")
    return repo


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", message)


def gf(repo: Path, *args: str, code: int) -> str:
    done = run_goalfile(*args, cwd=repo, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done.stdout + done.stderr


def ran(repo: Path) -> list[str]:
    """The ids in the order their checks ran, then forgotten."""
    order = repo / "order"
    ids = order.read_text().split()
    order.unlink()
    return ids


def hook(repo: Path) -> dict[str, object]:
    """The Stop hook's answer to Claude Code."""
    stop = {"cwd": str(repo), "hook_event_name": "Stop", "stop_hook_active": False}
    done = run_goalfile("hook", "stop", cwd=repo, input=json.dumps(stop), timeout=120)
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def next_commands(repo: Path) -> list[str]:
    """The goalfile commands of the goal's `next:` step, in order."""
    step = json.loads(gf(repo, "status", "--json", GOAL, code=0))["goals"][0]["next_step"]
    return re.findall(r"`(goalfile [^`]+)`", step)


def run_next(repo: Path) -> subprocess.CompletedProcess[str]:
    """The first command the `next:` step names, run as written."""
    first = next_commands(repo)[0].split()
    assert first[0] == "goalfile"
    return run_goalfile(*first[1:], cwd=repo, timeout=120)


def test_a_skill_written_goal_runs_in_table_order_and_says_nothing_of_a_budget(
    tmp_path: Path,
) -> None:
    repo = repo_with(tmp_path, skill_written())
    assert gf(repo, "lint", GOAL, code=0) == f"{GOAL}: ok\n"
    state = json.loads(gf(repo, "status", "--json", GOAL, code=0))["goals"][0]
    assert state["warnings"] == [] and state["iterations"] == {"used": 1, "budget": 5}
    assert gf(repo, "audit", GOAL, code=0) == f"{GOAL}: clean\n"
    out = gf(repo, "plan", GOAL, code=1)  # the plan serves C12, which is not a criterion yet
    assert "C12" in out and "fix:" not in out
    text = (repo / GOAL).read_text()
    text = text.replace(f"{row('C2')}\n", f"{row('C12', 'added later')}\n{row('C2')}\n", 1)
    (repo / GOAL).write_text(text)  # no approval records rows: every row runs in table order
    # the Stop hook runs a contract only once git holds it (docs/trust.md): the person stages
    # the row they added, as the skill family's goal records no approval entry
    git(repo, "add", "--", GOAL)
    assert gf(repo, "plan", GOAL, code=0).startswith(f"{GOAL}: iteration 3: plan revision")
    answer = hook(repo)
    assert "status: met" in json.dumps(answer), answer
    assert ran(repo) == ["C1", "C12", *IDS[1:]]
    warned = gf(repo, "audit", GOAL, code=0)
    assert "unpinned" in warned
    (fix,) = re.findall(r"fix: pin the contract with `(goalfile [^`]+)`", warned)
    assert "TEXT" in fix
    args = fix.replace("TEXT", "pin the contract").split(" --reason ")
    gf(repo, *args[0].split()[1:], "--reason", args[1], code=0)
    text = (repo / GOAL).read_text()
    assert "\napproved rows:\n" in text and "budget approved:" not in text  # docs/trust.md
    assert gf(repo, "audit", GOAL, code=0) == f"{GOAL}: clean\n"


def by_id_approval(tmp_path: Path) -> Path:
    """The goal activated by goalfile, then its approval record as an approval written before
    goalfile recorded the order lists its rows: by id, `C1`, `C10`, `C11`, `C2`, ..."""
    text = skill_written().replace("status: active", "status: draft", 1)
    repo = repo_with(tmp_path, text.replace("iterations_used: 1", "iterations_used: 0", 1))
    gf(repo, "activate", GOAL, code=0)
    text = (repo / GOAL).read_text()
    at = text.index("approved rows:")
    rows = re.findall(r"^\| C\d+ .*$", text[at:], re.M)
    by_id = sorted(rows, key=lambda line: line.split("|")[1].strip())
    (repo / GOAL).write_text(text[:at] + text[at:].replace("\n".join(rows), "\n".join(by_id)))
    commit(repo, "activated")
    return repo


def test_rows_added_to_a_goal_approved_by_id_run_after_the_approved_ones_until_reapproved(
    tmp_path: Path,
) -> None:
    repo = by_id_approval(tmp_path)
    assert gf(repo, "lint", GOAL, code=0) == f"{GOAL}: ok\n"
    gf(repo, "verify", "--no-write", GOAL, code=0)
    by_id = ["C1", "C10", "C11", *IDS[1:9]]
    assert ran(repo) == by_id
    text = (repo / GOAL).read_text()
    (repo / GOAL).write_text(text.replace(f"{row('C2')}\n", f"{row('C12')}\n{row('C2')}\n", 1))
    out = gf(repo, "verify", GOAL, code=0)  # a tightening: accepted, pinned, run after
    assert ran(repo) == [*by_id, "C12"]
    assert out.rstrip().endswith(
        f"C1 met, C12 met, {', '.join(f'{r} met' for r in IDS[1:])}; status: met"
    )
    assert "contract tightened: C12 added" in (repo / GOAL).read_text()
    gf(repo, "audit", GOAL, code=0)

    # a person approves the table's order: the re-approval records it, and the rows run so
    gf(repo, "activate", "--reapprove", GOAL, "--reason", "the table's order", code=0)
    table = ["C1", "C12", *IDS[1:]]
    assert (
        f"- run order: {', '.join([*by_id, 'C12'])} → {', '.join(table)}"
        in (repo / GOAL).read_text()
    )
    gf(repo, "verify", "--no-write", GOAL, code=0)
    assert ran(repo) == table
    gf(repo, "audit", GOAL, code=0)


def test_after_a_met_goal_is_reapproved_the_next_step_is_a_command_that_works(
    tmp_path: Path,
) -> None:
    """Re-approval sets a met goal back to active; status then named `goalfile refine`,
    which refuses (exit 3) while the newest entry is the re-approval, not a verify run."""
    repo = by_id_approval(tmp_path)
    gf(repo, "verify", GOAL, code=0)
    gf(repo, "activate", "--reapprove", GOAL, "--reason", "the table's order", code=0)
    assert json.loads(gf(repo, "status", "--json", GOAL, code=0))["goals"][0]["status"] == (
        "active"
    )
    done = run_next(repo)
    assert done.returncode == 0, (next_commands(repo), done.stdout, done.stderr)
    assert done.stdout.rstrip().endswith("status: met")


def test_after_a_pause_and_resume_the_next_step_is_a_command_that_works(tmp_path: Path) -> None:
    repo = repo_with(tmp_path, skill_written().replace("`echo C3 >> order`", "`false`", 1))
    gf(repo, "verify", GOAL, code=1)
    assert next_commands(repo)[0] == f"goalfile refine {GOAL}"  # from the verify run: works
    gf(repo, "pause", GOAL, code=0)
    gf(repo, "resume", GOAL, code=0)
    done = run_next(repo)
    assert done.returncode in (0, 1), (next_commands(repo), done.stdout, done.stderr)
    assert next_commands(repo)[0] == f"goalfile refine {GOAL}"
    assert run_next(repo).returncode == 0
