"""A loosening the agent commits before its first stop, through the real hosts: the session's
record taken at the session's start (`goalfile hook start`, registered by `goalfile init` under
each host's SessionStart, run by goalfile's pi extension at `session_start`) holds it.

The project is set up as the README says (`goalfile init --no-goal`, committed) and the person
writes the goal on `main` with the goal skill's command and `--commit`, then starts the agent on
its branch `feature`. In its first turn the model (the scripted fake) makes the check `true`,
re-approves it itself (`goalfile activate --reapprove`), verifies it met and commits it, and
stops. The first stop had no record to compare with: HEAD held the agent's own approval, and
the stop was let go without a word. Now the first stop is held once, naming the change and the
commit HEAD was on at the session's start; the model stops again and is let go with the change,
which the person reads. The recorded-input version is tests/test_hook_start.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hosts_fixtures import GOAL, PROMPT, Isolation, run_session
from hosts_fixtures import isolation as isolation
from skill_goals import on_the_users_path
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template
from test_head_moved_hold import person_goal_on_main
from test_lock_fix_host import Steps
from test_loosened_hold import LOOSEN, REAPPROVE

FIRST_TURN = [LOOSEN, REAPPROVE, f"goalfile verify {GOAL}", "git commit -qam 'goal: done'"]


def held_once(host: str, isolation: Isolation, repo: Path, turn: list[str]) -> str:
    """The person's goal committed on `main`, one session whose first turn runs ``turn`` (the
    forged met verified at its third step): the reason of the one hold, the model let go at
    its second stop."""
    person_goal_on_main(repo)
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    agent = Steps(list(turn))
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    assert agent.ran == turn, agent.ran
    assert "C1 met; status: met" in agent.outputs[2], agent.outputs
    reasons = ran.server.feedbacks()
    assert len(reasons) == 1 and ran.server.stops() == 2, (reasons, ran.run.explain())
    return reasons[0]


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_loosening_committed_before_the_first_stop_is_held_once(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    held = held_once(host, isolation, readme_repo, FIRST_TURN)
    assert f"goalfile: {GOAL} is met only under a contract that commit " in held, held
    assert "which HEAD was on at this session's start, where the goal was active" in held, held
    assert "- C1 check: `test -f done.txt` → `true`" in held, held
    assert "do not change, re-approve or commit criteria to stop" in held, held
