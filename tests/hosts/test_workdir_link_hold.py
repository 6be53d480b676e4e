"""The real Claude Code moves its goal file into another repository and leaves a symbolic link
in its place: the goal's checks would run in that other repository, so verify refuses the goal
and the Stop hook holds the agent with the fix `unlink -- LINK && mv -- TARGET LINK`. The
model runs that command exactly as printed in Claude Code's Bash tool (which refuses `rm` of a
link, hence `unlink`); the goal file is back where the link was. Git does not hold it (the
person took it out of the index), so the next stop does not run its checks: it lets the agent
go with the fix a person runs (`git add`), after which the hook verifies the goal as usual.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from conftest import git, make_git_repo
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Agent,
    Isolation,
    goal_repo,
    goal_state,
    goalfile_ok,
    hook_now,
    host_session,
    ran_quietly,
    verify_entries,
)
from hosts_fixtures import isolation as isolation

# the hold prints `fix: put what the link points to where the link is: `COMMAND``; the model
# runs that fix only (the `git add` that approves a goal is a person's to run)
PRINTED_FIX = re.compile(r"\n  fix: put what the link points to where the link is: `([^`]+)`")


def test_a_goal_file_linked_into_another_repository_holds_claude_until_the_printed_unlink_runs(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    # not tracked: a goal file git tracks (committed, or staged as `activate` leaves it) that
    # turns into a link is held on git's word, with `git checkout` as the fix; an untracked one
    # is held for the link first (verify's refusal), then for its approval
    git(repo, "rm", "-q", "--cached", "--", GOAL)
    other = make_git_repo(tmp_path / "other")  # the repository the goal is moved into
    moved = other / "goals" / "demo.md"
    trouble = f"{FIX} && mkdir -p {other}/goals && mv {GOAL} {moved} && ln -s {moved} {GOAL}"
    agent = Agent(trouble=trouble, fix=PRINTED_FIX)
    server, run = host_session("claude", repo, agent, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    # held for the link, then once (the session's record has no hold for it yet) for the goal
    # no one approved, which the agent is told to ask the person for; the third stop is let go
    assert len(reasons) == 2 and server.stops() == 3, (reasons, run.explain())
    held, unapproved = reasons
    assert unapproved.endswith(
        "ask the person to approve the goal as the fix says, and go on with the work of the "
        "approved goals."
    ), unapproved
    link, target = repo.resolve() / GOAL, moved.resolve()
    fix = f"unlink -- {link} && mv -- {target} {link}"
    assert (
        f"the goal file is reached through a symbolic link, {link} -> {target}; its checks "
        f"would run in {other.resolve()}, not in {repo.resolve()}, where the link lies; nothing "
        f"was run\n  fix: put what the link points to where the link is: `{fix}`\n" in held
    ), held
    # the model ran the fix as printed in Claude Code's Bash tool, which ran it without a word:
    # the goal file is back where the link was, a file, and nothing is left in the other one
    # (for the approval it printed no command the agent could run: it ran `true`)
    assert agent.ran == [fix, "true"], agent.ran
    assert len(agent.outputs) == 2 and ran_quietly("claude", agent.outputs[0] or ""), (
        agent.outputs,
        run.explain(),
    )
    assert (repo / GOAL).is_file() and not os.path.islink(repo / GOAL)
    assert not os.path.lexists(moved)
    # the stops after the fix ran nothing (git holds no approval of the goal)
    assert verify_entries(repo) == [] and goal_state(repo)["status"] == "active"
    answer = hook_now(repo)
    assert answer["decision"] == "block", answer
    reason = answer["host_output"]["reason"]
    assert reason.startswith(f"goalfile did not run the checks of {GOAL}: "), reason
    assert f"stages it: `git add -- {GOAL}`\n" in reason, reason
    # the person stages it: the hook verifies the goal where the link had been, met
    git(repo, "add", "--", GOAL)
    answer = hook_now(repo)
    assert answer["decision"] != "block", answer
    assert [goal["summary"] for goal in answer["goals"]] == [
        "verify-goal demo iteration 0: C1 met; status: met"
    ], answer
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "met")]
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)
