"""A hold the Stop hook's own run finds at a stop marked continuing holds the agent too.

Hosts mark every stop after a block as continuing (``stop_hook_active``), and a block the
hook's own verify wrote was held only at a stop not so marked: sent back once for its unmet
goal, the agent deleted the tool the check runs (an `error` row, verify wrote `blocked`) and
stopped: it was let go at that stop with a message, the goal unmet. It is now held once per
ledger entry, the hold ledgered in verify's own write; the stop after it is let go with the
message, so no host is held for ever.

Real `goalfile` processes, a real git repository, the recorded input of each host.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA, git, make_git_repo, run_goalfile

GOAL = "goals/demo.md"
TOOL = "#!/bin/sh\n[ -f slow ] && sleep 30\ntest -f ok\n"


def _repo(tmp_path: Path) -> Path:
    """A person's goal, approved and committed, whose check (a script of the project's)
    fails until the work is done."""
    repo = make_git_repo(tmp_path / "repo")
    tool = repo / "tool.sh"
    tool.write_text(TOOL, encoding="utf-8")
    tool.chmod(0o755)
    made = run_goalfile(
        "new", "demo", "--end-state", "ok exists", "--check", "./tool.sh",
        "--expected", "exit 0", "--non-goal", "Nothing else changes.", "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the goal")
    return repo


def _stop(repo: Path, agent: str, *, active: bool, timeout: str = "600") -> dict[str, object]:
    data = json.loads((DATA / "hooks" / f"{agent}-stop.json").read_text(encoding="utf-8"))
    data.update(cwd=str(repo), stop_hook_active=active)
    data.pop("transcript_path", None)
    done = run_goalfile(
        "hook", "stop", "--agent", agent, "--timeout", timeout, cwd=repo, input=json.dumps(data)
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout) if done.stdout.strip() else {}
    assert isinstance(answer, dict), answer
    return answer


def _holds(repo: Path) -> int:
    return (repo / GOAL).read_text(encoding="utf-8").count("by stop-hook-hold")


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_an_error_made_after_the_agent_was_sent_back_holds_it_once_per_entry(
    tmp_path: Path, agent: str
) -> None:
    repo = _repo(tmp_path)
    first = _stop(repo, agent, active=False)
    assert first.get("decision") == "block" and "C1 unmet" in str(first["reason"]), first
    (repo / "tool.sh").unlink()  # the check now exits 127: an `error` row
    held = _stop(repo, agent, active=True)
    assert held.get("decision") == "block", held  # was: let go with a message
    assert "C1 error (exit 127)" in str(held["reason"]), held
    assert "goalfile resume goals/demo.md --resolved TEXT" in str(held["reason"]), held
    assert _holds(repo) == 1  # ledgered in verify's own write
    told = _stop(repo, agent, active=True)  # the same entry: never held for ever
    assert told.get("decision") != "block", told
    assert "is blocked by a verify run" in str(told.get("systemMessage")), told
    assert _holds(repo) == 1
    # the tool put back and the goal resumed, as the hold says: the next error is another entry
    (repo / "tool.sh").write_text(TOOL, encoding="utf-8")
    (repo / "tool.sh").chmod(0o755)
    done = run_goalfile("resume", GOAL, "--resolved", "the tool is back", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    (repo / "tool.sh").unlink()
    again = _stop(repo, agent, active=True)
    assert again.get("decision") == "block", again
    assert "C1 error (exit 127)" in str(again["reason"]), again
    assert _holds(repo) == 2
