"""The real Claude Code hides its tracked goal file from the work tree and stops: the Stop hook
still holds it to the goal, and the git command the reason prints, run by the model in Claude
Code's own Bash tool, brings the goal back.

The agent marks goals/demo.md skip-worktree (so `git status` stays clean) and moves the file out
of the repository. goalfile finds goal files on disk and also asks git which ones it tracks
(docs/trust.md), so a tracked goal file that is gone blocks the stop once, naming it, with a
command that restores it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import git
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    GOAL,
    PROMPT,
    Isolation,
    claude_cli,  # noqa: F401  (a fixture)
    goal_repo,
    goal_state,
    goalfile_ok,
    host_session,
)
from hosts_fixtures import isolation as isolation


def test_a_goal_file_hidden_from_the_work_tree_holds_claude_code_and_its_fix_brings_it_back(
    claude_cli: Path,  # noqa: F811
    isolation: Isolation,
    tmp_path: Path,
) -> None:
    repo = goal_repo(tmp_path)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the goal")
    before = (repo / GOAL).read_text(encoding="utf-8")
    away = tmp_path / "away.md"
    hide = f"git update-index --skip-worktree {GOAL} && mv {GOAL} {away} && git status --short"
    printed: list[str] = []

    def script(turn: Turn) -> Reply:
        if turn.feedback is not None:
            found = re.search(r"  fix: `([^`]+)`", turn.feedback)
            if found is None:  # the goal is back and verified unmet: meet it
                return Shell("touch done.txt")
            printed.append(found.group(1))
            return Shell(found.group(1))  # the model runs the printed fix, as written
        if turn.after_tool:
            return Say("Done.")
        return Shell(hide)

    host_session("claude", repo, script, isolation, prompt=PROMPT)
    log = tmp_path / "claude-requests.jsonl"  # the request log the session wrote
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    reasons = [r["feedback"] for r in records if r["feedback"]]
    # the hidden goal held the agent; once back, verify found it unmet, then met (no reason)
    assert len(reasons) == 2, reasons
    hidden, unmet = reasons
    assert f"goalfile cannot verify {GOAL}: git tracks the goal file {GOAL}" in hidden, hidden
    assert "verify-goal demo iteration 0: C1 unmet; status: active" in unmet, unmet
    assert printed == [f"git update-index --no-skip-worktree -- {GOAL} && git checkout -- {GOAL}"]
    # the model's shell ran the printed command: the goal came back as committed (verify
    # appended to it since), and git no longer hides it
    committed = before.split("## Iterations", 1)[1].split("## Lessons", 1)[0].rstrip()
    assert committed in (repo / GOAL).read_text(encoding="utf-8")
    assert not git(repo, "ls-files", "-v", "--", GOAL).startswith("S "), git(
        repo, "ls-files", "-v", "--", GOAL
    )
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)
