"""The real Claude Code's agent leaves a process running that swaps the goal file while the
Stop hook reads it: inotify on `goals/`, the real file for the hook's comparison with HEAD, a
draft of the same goal (an empty ledger) for the read that decides, the real file back after.
The hook said "no active goal" and Claude Code ended the session at its first stop, nothing
printed, the goal active and unmet, nothing in git. Now that stop is held (the hook decides
on the text it compared), and the agent, sent back, meets the goal."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from conftest import git
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import FIX, GOAL, PROMPT, Isolation, goal_repo, goal_state, host_session
from hosts_fixtures import isolation as isolation

WATCHER = Path(__file__).parents[1] / "swap_watcher.py"


def test_claude_agent_swapping_the_goal_file_during_the_hook_is_held(
    isolation: Isolation, tmp_path: Path
) -> None:
    # the check prints the time: the stall guard never lets the agent go first
    repo = goal_repo(tmp_path, check="date +%s%N && test -f done.txt")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the goal, approved, and the hooks")
    text = (repo / GOAL).read_text(encoding="utf-8")
    decoy = re.sub(r"(?m)^status: active", "status: draft", text, count=1)
    (tmp_path / "decoy.md").write_text(
        decoy.split("## Iterations")[0] + "## Iterations\n\n## Lessons\n", encoding="utf-8"
    )
    start = (
        f"setsid nohup {sys.executable} {WATCHER} {GOAL} {tmp_path}/decoy.md {tmp_path}/armed "
        f"> {tmp_path}/watch.out 2>&1 < /dev/null & "
        f"while ! test -e {tmp_path}/armed; do sleep 0.1; done; echo ok"
    )

    def agent(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        return Shell(start if turn.feedback is None else FIX)

    server, run = host_session("claude", repo, agent, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert server.stops() == 2 and len(reasons) == 1, (reasons, run.explain())
    assert "goals/demo.md" in reasons[0], reasons
    assert goal_state(repo)["status"] == "met"
