"""A `draft` typed into the ledger is no way back from an approved goal.

No goalfile command writes an entry that says `status: draft`: a goal goes from draft to
active once, when a person approves it. An agent that typed such an entry under the last one
and set the frontmatter to `draft` made the approved goal a draft again: the Stop hook let it
stop with no output (a draft holds no one), `lint` said ok and `audit --against` the base said
clean. Such an entry backs no status but `active`: lint and audit report it, `status` points
at lint, the hook holds the agent once with the command that sets `active` back, and that
command works as printed.

Real git repositories in tmp_path, real goalfile processes, the hook fed the JSON a host sends.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import git, make_git_repo, run_goalfile, stop_input

GOAL = "goals/auth.md"
FORGED = "### Iteration 1 ({day}) by refine-goal\n\nstatus: draft\n\n"


def _ok(repo: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == code, f"goalfile {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


def _approved(tmp_path: Path) -> tuple[Path, str]:
    """A goal a person approved and committed; its check fails until `ok` exists."""
    repo = make_git_repo(tmp_path / "repo")
    _ok(repo, "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--activate", "--commit")  # fmt: skip
    return repo, git(repo, "rev-parse", "HEAD").strip()


def _make_draft(repo: Path) -> None:
    """The agent's edit: the frontmatter's status and an entry it types, both `draft`."""
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    day = re.search(r"### Iteration 0 \(([0-9-]+)\) by activate", text)
    assert day is not None
    text = text.replace("status: active", "status: draft", 1)
    text = text.replace("## Lessons", FORGED.format(day=day.group(1)) + "## Lessons")
    path.write_text(text, encoding="utf-8")


def _stop(repo: Path, *, active: bool = False) -> dict[str, object] | None:
    done = run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo, active=active))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return json.loads(text) if text else None


def test_a_typed_draft_entry_holds_the_agent_once_and_every_reader_reports_it(
    tmp_path: Path,
) -> None:
    repo, base = _approved(tmp_path)
    _make_draft(repo)
    answer = _stop(repo)
    assert answer is not None and answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "says `draft`, which no goalfile command writes" in reason, reason
    # once the agent is continuing because of a Stop hook: let go, but never silently
    again = _stop(repo, active=True)
    assert again is not None and "which no goalfile command writes" in str(
        again.get("systemMessage")
    ), again
    # lint, status and audit (plain and against the base) refuse it
    linted = _ok(repo, "lint", "--json", GOAL, code=3)
    assert "status-transition-unledgered" in linted.stdout, linted.stdout
    shown = _ok(repo, "status", GOAL)
    assert "next: fix what `goalfile lint goals/auth.md` reports" in shown.stdout, shown.stdout
    git(repo, "commit", "-q", "-am", "the agent's work")
    for args in (("audit", GOAL), ("audit", "--against", base)):
        audited = _ok(repo, *args, "--json", code=1)
        files = json.loads(audited.stdout)["files"]
        codes = {f["code"] for file in files for f in file["findings"]}
        assert {"status-hand-edited", "status-transition-unledgered"} <= codes, codes


def test_the_printed_fix_sets_active_back_and_the_next_stop_verifies(tmp_path: Path) -> None:
    repo, _ = _approved(tmp_path)
    _make_draft(repo)
    answer = _stop(repo)
    assert answer is not None
    fix = re.search(r"fix: `([^`]+)`", str(answer["reason"]))
    assert fix is not None, answer
    subprocess.run(["sh", "-c", fix.group(1)], cwd=repo, check=True)
    assert "\nstatus: active" in (repo / GOAL).read_text(encoding="utf-8")
    held = _stop(repo)
    assert held is not None and "C1 unmet" in str(held.get("reason")), held
    text = (repo / GOAL).read_text(encoding="utf-8")
    assert "reopened by hand (was draft)" in text, text
    _ok(repo, "lint", GOAL)
    (repo / "ok").write_text("", encoding="utf-8")
    _ok(repo, "verify", GOAL)


def test_with_a_focus_the_printed_fix_is_not_refused_in_turn(tmp_path: Path) -> None:
    """The goal skill focuses the goal it writes. The focus rule took `active` over the typed
    `draft` entry for a hand reopening and printed the sed that sets `draft` back: each fix
    undid the other, and the goal was never verified. `active` over it is the status the
    approval set: the focus is honoured and the next stop verifies."""
    repo, _ = _approved(tmp_path)
    _ok(repo, "focus", GOAL)
    _make_draft(repo)
    answer = _stop(repo)
    assert answer is not None
    fix = re.search(r"fix: `([^`]+)`", str(answer["reason"]))
    assert fix is not None, answer
    subprocess.run(["sh", "-c", fix.group(1)], cwd=repo, check=True)
    held = _stop(repo, active=True)  # the agent is continuing because of the hold
    assert held is not None and "C1 unmet; status: active" in str(held.get("reason")), held
    shown = _ok(repo, "status", GOAL)
    assert f"focus: {GOAL} (the Stop hook verifies this goal first" in shown.stdout, shown.stdout
