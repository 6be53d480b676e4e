"""The README's own start, through the real Claude Code, Codex, Gemini CLI and pi: a goal made
active and not committed yet (`activate` put it in git's index), which the agent deletes or
renames out of `*.md` before it stops. The Stop hook holds it on the goal git's index still
has, with the printed `git checkout` that the model runs as written in the host's own shell; the
goal comes back as it was activated, is verified, and is met.

Before `activate` staged the goal, git knew nothing of it: the hook found no active goal and let
the first stop go, and with `rm` the ledger was gone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    GOAL,
    PRINTED_FIX,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    goalfile_ok,
    host_session,
)
from hosts_fixtures import isolation as isolation


@pytest.mark.parametrize(
    ("host", "trouble"),
    [
        ("claude", f"rm {GOAL}"),
        ("codex", f"mv {GOAL} {GOAL}.txt"),
        ("gemini", f"rm {GOAL}"),
        ("pi", f"mv {GOAL} {GOAL}.txt"),
    ],
)
def test_an_active_goal_nobody_committed_holds_the_host_when_it_is_taken_away(
    host: str, trouble: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)  # `new`, `activate` (which stages it), `init`: nothing committed
    assert f"A  {GOAL}" in git(repo, "status", "--porcelain").splitlines()
    activated = (repo / GOAL).read_text(encoding="utf-8")
    ran: list[str] = []

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        if turn.feedback is None:
            return Shell(trouble)
        found = PRINTED_FIX.search(turn.feedback)
        ran.append(found.group(1) if found else "touch done.txt")
        return Shell(ran[-1])

    server, run = host_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    # held on the missing goal, then (the goal back, unmet) on its row; met at the third stop
    assert len(reasons) == 2 and server.stops() == 3, (reasons, run.explain())
    missing, unmet = reasons
    assert f"git tracks the goal file {GOAL}" in missing, missing
    assert ran[0] == f"git checkout -- {GOAL}", ran
    assert "verify-goal demo iteration 0: C1 unmet; status: active" in unmet, unmet
    # the goal came back as `activate` left it, and its ledger goes on from there
    approval = activated.split("## Iterations", 1)[1].split("## Lessons", 1)[0].rstrip()
    assert approval in (repo / GOAL).read_text(encoding="utf-8")
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)
