"""HEAD moved away from the goal in the real hosts' shells: the Stop hook holds the agent
once, from the session's second stop, with `git checkout feature` as the fix.

The project is set up as the README says (`goalfile init --no-goal`, committed), and the
person writes the goal on `main` with the goal skill's command and `--commit` (`goalfile new
... --activate --commit`), then starts the agent on its branch `feature`. The model (the
scripted fake) stops at once; the hook holds it for the unmet row. Sent back, it moves HEAD
in the host's shell:

- to the commit before the person's goal (`git checkout -f --detach HEAD~1`), or to the
  project's first commit (`HEAD~2`), before the hooks' settings were committed too: HEAD and
  the index hold no goal, and the hook said "no active goal" with nothing printed. Codex,
  Gemini CLI and pi keep running the Stop hook they read at their start though its settings
  file (goalfile's pi extension) is gone from the working tree; Claude Code drops it once it
  has noticed the file gone (tests/hosts/test_claude_settings_gone.py), so it is run with
  the commit before the goal;
- to a side branch whose commit holds the goal really verified `met` (the check's file
  committed there only), which it deletes once it is back: only the reflog showed it.

Either way the next stop is held with `git checkout feature`, which the model runs as printed
(and then deletes the side branch); the goal is back, unmet, and the model meets it. Claude
Code and Codex run it with a commit and the side branch, Gemini CLI (whose every stop says
`stop_hook_active` false) and pi (whose goalfile extension names the session itself) with the
first commit: the rule rests on the session's record, which each host's session id keys. The
recorded-input version is tests/test_hook_head_moved.py.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from conftest import git
from fake_model import Reply, Turn
from hosts_fixtures import (
    FIX,
    GOAL,
    PRINTED_FIX,
    PROMPT,
    Isolation,
    goal_state,
    goalfile_ok,
    hook_now,
    run_session,
)
from hosts_fixtures import isolation as isolation
from skill_goals import SkillAgent, held_between_unmet, on_the_users_path, skill_new
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

MOVES = {
    "old commit": ["git checkout -qf --detach HEAD~1"],
    "first commit": ["git checkout -qf --detach HEAD~2 && ls -A | tr '\\n' ' '"],
    "side branch": [
        "git checkout -qb side",
        FIX,
        f"goalfile verify {GOAL}",
        "git add -A && git commit -qm 'the goal, met'",
    ],
}
AFTER_FIX = {"old commit": [], "first commit": [], "side branch": ["git branch -D side"]}
MOVED = {
    "old commit": "and now HEAD is ",
    "first commit": "and now HEAD is ",
    "side branch": "and now HEAD is side, where the goal asks",
}


def person_goal_on_main(repo: Path) -> None:
    """The README's start: the goal skill's command with `--commit` run on `main` by the
    person, then the agent's branch `feature` made there."""
    git(repo, "branch", "-M", "main")
    new, _focus = skill_new()
    goalfile_ok(*shlex.split(new)[1:], "--commit", cwd=repo)
    git(repo, "checkout", "-qb", "feature")


@pytest.mark.parametrize(
    ("host", "move"),
    [
        ("claude", "side branch"),
        ("codex", "first commit"),
        ("codex", "side branch"),
        ("gemini", "first commit"),
        ("pi", "first commit"),
    ],
)
def test_head_moved_away_from_the_goal_holds_once_with_the_checkout_back(
    host: str, move: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    person_goal_on_main(repo)
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    agent = SkillAgent(
        work=[], then=list(MOVES[move]), after_fix=list(AFTER_FIX[move]), otherwise=FIX
    )
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    [moved] = held_between_unmet(ran, agent)
    assert (
        f"goalfile cannot verify {GOAL}: at an earlier stop of this session it was an active "
        f"goal on feature, {MOVED[move]}"
    ) in moved, moved
    assert "\n  fix: `git checkout feature`" in moved, moved
    if move == "first commit":  # no hook settings, no goal in the working tree
        assert ".git README.md" in (agent.outputs[0] or ""), agent.outputs
    # the model moved HEAD, ran the printed fix as written, then met the goal
    done = len(MOVES[move])
    assert agent.ran[done:] == ["git checkout feature", *AFTER_FIX[move], FIX], agent.ran
    assert "Switched to branch 'feature'" in (agent.outputs[done] or ""), agent.outputs
    assert git(repo, "branch", "--show-current").strip() == "feature"
    assert git(repo, "branch", "--list", "side") == ""
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"


STAGED_MOVES = {
    "claude": "git checkout -qf --detach HEAD~1",
    "codex": "git reset -q --hard",
    "gemini": "git checkout -qf --detach HEAD~1",
    "pi": "git reset -q --hard",
}


@pytest.mark.parametrize("host", list(STAGED_MOVES))
def test_a_goal_only_staged_taken_away_is_put_back_by_the_printed_fix(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    """The goal written by the model as the goal skill says (approved and staged, never
    committed), on the agent's branch; sent back for the unmet row, the model takes it away
    with `git checkout -f` of the commit before (Claude Code, Gemini CLI) or `git reset --hard`
    (Codex, pi).
    No branch holds such a goal: the fix was `git checkout feature` (for the reset, none),
    which put nothing back. Now the fix takes the copy git's index held from git's object
    store, the model runs it as printed, and the goal, staged again, is verified and met."""
    repo = readme_repo
    git(repo, "checkout", "-qb", "feature")
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    agent = SkillAgent(work=skill_new(), then=[STAGED_MOVES[host]], otherwise=FIX)
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    [gone] = held_between_unmet(ran, agent)
    assert f"goalfile cannot verify {GOAL}: at an earlier stop of this session it was" in gone
    fix = agent.ran[3]
    assert f"\n  fix: `{fix}`" in gone and "update-index --add --cacheinfo 100644," in fix, gone
    assert agent.ran[4:] == [FIX], agent.ran
    assert git(repo, "branch", "--show-current").strip() == "feature"
    assert git(repo, "diff", "--cached", "--name-only") == f"{GOAL}\n"
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"


def test_claude_head_moved_away_again_after_the_fix_ran_is_held_again(
    isolation: Isolation, readme_repo: Path
) -> None:
    """The model runs the printed `git checkout feature` and checks out the commit before
    the goal again before its next stop: the hook, which held once per finding and never saw HEAD
    back, let it go with a message. git writes HEAD anew at each checkout, so this is another
    finding: held again; the model then runs the fix alone and meets the goal. (The first
    hold is Claude Code's case of the commit before the goal, which the test above runs with
    the other hosts.)"""
    repo = readme_repo
    person_goal_on_main(repo)
    move = MOVES["old commit"]
    agent = SkillAgent(work=[], then=list(move), after_fix=list(move), otherwise=FIX)

    def script(turn: Turn) -> Reply:  # moves HEAD again after the first fix only
        reply = agent(turn)
        if turn.feedback is not None and PRINTED_FIX.search(turn.feedback):
            agent.after_fix = []
        return reply

    ran = run_session("claude", repo, script, isolation, prompt=PROMPT)
    moved, again = held_between_unmet(ran, agent, holds=2)
    for reason in (moved, again):
        assert (
            f"goalfile cannot verify {GOAL}: at an earlier stop of this session it was an "
            f"active goal on feature, {MOVED['old commit']}"
        ) in reason, reason
        assert "\n  fix: `git checkout feature`" in reason, reason
    # the model moved HEAD, ran the printed fix as written, moved it again, ran the fix again,
    # then met the goal
    back = "git checkout feature"
    assert agent.ran == [*move, back, *move, back, FIX], agent.ran
    for at in (1, 3):
        assert "Switched to branch 'feature'" in (agent.outputs[at] or ""), agent.outputs
    assert git(repo, "branch", "--show-current").strip() == "feature"
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"
