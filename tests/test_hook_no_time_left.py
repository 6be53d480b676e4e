"""A goal the Stop hook has no time left to verify is held, and the hold says where the time
went: to the goals verified before it, or, with none before it, to the hook's own start and
its reading of the repository (a busy machine is slow). The clock is the hook's own
(``Context.clock``), moved on by the test: no real waiting."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from conftest import clean_env, goal_text, make_git_repo, row, write_goal

from goalfile.commands.context import Context
from goalfile.commands.hook import HookOptions, StopInput, decide_stop
from goalfile.commands.hookrules.verifyrun import run_verify
from goalfile.commands.verify import VerifyOptions, VerifyResult

UNMET = (row("C1", "false", "exit 0"),)
LATER = 1e9  # a clock reading far past any hook's time limit


def test_no_time_left_before_the_first_goal_names_the_start_not_other_goals(
    tmp_path: Path,
) -> None:
    root = make_git_repo(tmp_path / "project")
    write_goal(root / "goals", goal_text(rows=UNMET))
    readings = iter([0.0])  # the hook's start; every reading after it is past its limit
    ctx = Context(
        today=date.today().isoformat(),
        env=clean_env(),
        cwd=root,
        clock=lambda: next(readings, LATER),
    )
    [goal] = decide_stop(StopInput(cwd=str(root)), HookOptions(), ctx).goals
    assert goal.block, goal
    reason = str(goal.reason)
    assert "goalfile could not verify goals/demo.md" in reason, reason
    assert "before verify could start it (starting the hook and reading the repository" in reason
    assert "verified before it" not in reason, reason


def test_no_time_left_after_a_goal_names_the_goal_verified_before_it(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "project")
    write_goal(root / "goals", goal_text(slug="alpha", rows=UNMET), "alpha.md")
    write_goal(root / "goals", goal_text(slug="beta", rows=UNMET), "beta.md")
    now = [0.0]
    ran: list[str] = []

    def runner(options: VerifyOptions, ctx: Context) -> VerifyResult:
        result = run_verify(options, ctx)
        ran.append(options.path)
        now[0] = LATER  # this goal used up the hook's time
        return result

    ctx = Context(today=date.today().isoformat(), env=clean_env(), cwd=root, clock=lambda: now[0])
    decision = decide_stop(StopInput(cwd=str(root)), HookOptions(), ctx, runner=runner)
    assert len(ran) == 1, ran
    held = [goal for goal in decision.goals if "could not verify" in str(goal.reason)]
    assert len(held) == 1, decision.goals
    reason = str(held[0].reason)
    assert "was used up by the goal verified before it" in reason, reason
    assert held[0].block, held[0]
