"""The Stop hook decides what a verify asks, and starts the next iteration, inside verify's own
locked write (``VerifyOptions.then``): never in a write of its own after it. For every outcome a
verify can have (unmet and sent back, at the iteration limit, an iteration the file cannot take,
met, blocked by an error row) the verify goalfile runs calls ``then``; a verify that returned
without calling it would be a bug, and holds the agent on that goal like one."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from conftest import clean_env, goal_text, make_git_repo, row, write_goal

from goalfile.commands.context import Context
from goalfile.commands.hook import HookOptions, StopInput, decide_stop
from goalfile.commands.hookrules.verifyrun import run_verify
from goalfile.commands.verify import VerifyOptions, VerifyResult
from goalfile.model import Goal
from goalfile.value import replace

UNMET = (row("C1", "false", "exit 0"),)
NEL = "tokens_used: 0\x85iterations_used: 1\n"  # `iterations_used` no line edit can set


@pytest.mark.parametrize(
    ("case", "text", "status", "block"),
    [
        ("sent back", goal_text(rows=UNMET), "active", True),
        ("at the limit", goal_text(rows=UNMET, iterations="1"), "exhausted", False),
        (
            "an iteration the file cannot take",
            goal_text(rows=UNMET).replace("iterations_used: 1\ntokens_used: 0\n", NEL),
            "active",
            True,
        ),
        ("met", goal_text(rows=(row("C1", "true", "exit 0"),)), "met", False),
        # (an error row: held once, with what to do, the hold ledgered, no iteration)
        ("blocked", goal_text(rows=(row("C1", "no-such-command-x", "exit 0"),)), "blocked", True),
    ],
)
def test_every_verify_the_hook_runs_decides_in_its_own_write(
    tmp_path: Path, case: str, text: str, status: str, block: bool
) -> None:
    root = make_git_repo(tmp_path / "project")
    path = write_goal(root / "goals", text)
    calls: list[str] = []

    def runner(options: VerifyOptions, ctx: Context) -> VerifyResult:
        then = options.then
        assert then is not None, case

        def counted(result: VerifyResult, text: str, goal: Goal) -> tuple[str, Goal]:
            calls.append(result.summary)
            return then(result, text, goal)

        return run_verify(replace(options, then=counted), ctx)

    ctx = Context(today=date.today().isoformat(), env=clean_env(), cwd=root)
    decision = decide_stop(StopInput(cwd=str(root)), HookOptions(), ctx, runner=runner)
    assert len(calls) == 1, (case, calls)
    [goal] = decision.goals
    assert (goal.status, goal.block) == (status, block), (case, goal)
    written = path.read_text(encoding="utf-8")
    assert written.count(") by verify-goal") == 1, written
    assert written.count(") by stop-hook\n") == (
        0 if case in ("met", "blocked") or "take" in case else 1
    )
    # the hold on a block this verify wrote is ledgered in the same write
    assert written.count(") by stop-hook-hold\n") == (1 if case == "blocked" else 0)


def test_a_verify_that_returns_without_its_write_holds_the_agent_as_a_bug(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "project")
    path = write_goal(root / "goals", goal_text(rows=UNMET))
    before = path.read_bytes()

    def runner(options: VerifyOptions, ctx: Context) -> VerifyResult:
        return run_verify(replace(options, write=False, then=None), ctx)

    ctx = Context(today=date.today().isoformat(), env=clean_env(), cwd=root)
    decision = decide_stop(StopInput(cwd=str(root)), HookOptions(), ctx, runner=runner)
    [goal] = decision.goals
    assert (goal.status, goal.block) == ("failed", True), goal
    assert "verify returned without writing its entry to goals/demo.md" in str(goal.reason)
    assert path.read_bytes() == before  # nothing written apart
