"""The real Claude Code, started with a second folder added (`claude --add-dir ../elsewhere`),
makes there a work tree of a commit without its goal and moves its shell into it: the Stop hook
holds it once, with the `cd` back, which the model runs as printed.

The project is set up as the README says (`goalfile init --no-goal`, committed); the model
(the scripted fake) writes the goal as the goal skill's step 5 says (`goalfile new ...
--activate`, then `goalfile focus`: approved and staged, never committed) and stops, and the
hook holds it for the unmet row. Sent back, it runs `git worktree add --detach ../elsewhere
HEAD && cd ../elsewhere`: HEAD holds no goal, and Claude Code keeps a shell's `cd` into a
folder the session was given (out of the project and any such folder it puts the shell back),
so the next stop's folder is that work tree, where the hook saw no goal and said nothing. The
session's record names the repository (the same common git folder): held, with `fix: cd --
../repo`; the model runs it, is back in the project, and meets the goal. The recorded-input
version is tests/test_hook_repository.py (another work tree without the goal).

Claude Code is the one host whose shell keeps a `cd`: Codex, Gemini CLI and pi start each
shell command in the session's folder, and their Stop hooks are given that folder.
"""

from __future__ import annotations

from pathlib import Path

from hosts_fixtures import FIX, GOAL, PROMPT, Isolation, goal_state, hook_now, run_session
from hosts_fixtures import isolation as isolation
from skill_goals import UNMET, SkillAgent, skill_new
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

ELSEWHERE = "git worktree add -q --detach ../elsewhere HEAD && cd ../elsewhere && pwd"


def test_claude_moved_into_another_work_tree_without_the_goal_is_held_with_the_cd_back(
    isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    elsewhere = repo.parent / "elsewhere"
    elsewhere.mkdir()  # the folder the session is given: git makes the work tree in it
    agent = SkillAgent(work=skill_new(), then=[ELSEWHERE], after_fix=["pwd", FIX])
    ran = run_session(
        "claude", repo, agent, isolation, prompt=PROMPT, args=("--add-dir", str(elsewhere))
    )
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2 and ran.server.stops() == 3, (reasons, agent.ran, ran.run.explain())
    first, moved = reasons
    assert UNMET.search(first), first
    # the shell stayed in the other work tree: the stop came from there
    done = len(agent.work)
    assert agent.outputs[done] == str(elsewhere), agent.outputs
    assert (
        "goalfile cannot verify the goals of the repository at ../repo: at an earlier stop of "
        f"this session it held the active goal {GOAL} there, and the session's folder is now "
        "in ., another work tree of the same repository, where that goal is not\n"
        "  fix: `cd -- ../repo`\n"
    ) in moved, moved
    # the model ran the printed `cd` as written, was back in the project, and met the goal
    assert agent.ran[done + 1 :] == ["cd -- ../repo", "pwd", FIX], agent.ran
    assert agent.outputs[done + 2] == str(repo), agent.outputs
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"
