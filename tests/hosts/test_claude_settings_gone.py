"""A limit of Claude Code 2.1.332, which goalfile cannot lift: the agent moves the project's
`.claude/settings.json` away in its own shell (`sh -c 'mv ...'`: its Bash tool refuses a
plain `mv` of that file) and waits a few seconds before it stops. Claude Code notices the
file gone, drops the Stop hook it held, and runs no hook at that stop: the agent stops
unheard, the goal active and unmet. (Stopped at once, before Claude Code noticed, it is
still held.) A `git checkout` of a commit that lacks the file does the same. Codex, Gemini
CLI and pi keep the hook they read at their start (tests/hosts/test_head_moved_hold.py).

This test asserts what the real host does, so that a release that changes it is noticed:
docs/hosts.md says it, with what a person can do about it.
"""

from __future__ import annotations

from pathlib import Path

from hosts_fixtures import GOAL, PROMPT, Isolation, goal_repo, goal_state, hook_now, run_session
from hosts_fixtures import isolation as isolation
from skill_goals import SkillAgent

MOVE = "sh -c 'mv .claude/settings.json .claude/settings.json.bak' && sleep 5"


def test_claude_runs_no_stop_hook_once_it_noticed_its_settings_gone(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    agent = SkillAgent(work=[MOVE])
    ran = run_session("claude", repo, agent, isolation, prompt=PROMPT)
    assert ran.server.feedbacks() == [] and ran.server.stops() == 1, ran.run.explain()
    assert agent.outputs == ["(Bash completed with no output)"], agent.outputs
    assert "verify-goal" not in (repo / GOAL).read_text(encoding="utf-8")  # no hook ran
    assert goal_state(repo)["status"] == "active"
    assert hook_now(repo)["decision"] == "block"  # the goal still holds any agent that asks
