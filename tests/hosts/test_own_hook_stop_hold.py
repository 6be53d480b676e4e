"""The agent's own `goalfile hook stop` runs, through the real hosts: the host's stop is still
held.

The project is set up as the README says and the person's goal committed on `main` (as in
test_self_run_hold.py). In its first turn the model (the scripted fake) runs goalfile's hook
three times from its shell tool, in words the transcript does not show as the hook's (`H=hook;
S=st; goalfile $H ${S}op`), fed JSON of its own: its folder, no transcript. The three runs
make verify's stall guard block the goal (`no progress in 3 verify runs`), and the third
ledgers the hold on that block. Then it stops. The host's stop was let go with the message,
never held; now it is held once, with the block's words (the ledger's hold was not the
host's: its transcript shows none), and the stop after it is let go with the message. The
recorded-input version is tests/test_hook_own_stop.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hosts_fixtures import PROMPT, Isolation, ledger, run_session
from hosts_fixtures import isolation as isolation
from skill_goals import on_the_users_path
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template
from test_head_moved_hold import person_goal_on_main
from test_lock_fix_host import Steps


def holds(repo: Path) -> int:
    """The holds the demo goal's ledger records (`by stop-hook-hold`)."""
    return [entry.by for entry in ledger(repo)].count("stop-hook-hold")


def own_stop(host: str) -> str:
    """One run of goalfile's hook by the agent, its words hidden, fed JSON of its own."""
    return (
        f'H=hook; S=st; printf \'{{"session_id": "own", "cwd": "%s"}}\' "$PWD" '
        f"| goalfile $H ${{S}}op --agent {host}"
    )


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_the_agents_own_hook_stop_runs_leave_the_hosts_hold(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    person_goal_on_main(repo)
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    steps = [own_stop(host)] * 3
    agent = Steps(list(steps))
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    assert agent.ran == steps, agent.ran
    assert "status: blocked (no progress in 3 verify runs)" in agent.outputs[2], agent.outputs
    assert holds(repo) == 1, ledger(repo)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 1 and ran.server.stops() == 2, (reasons, ran.run.explain())
    [reason] = reasons
    assert "C1 unmet; status: blocked (no progress in 3 verify runs)" in reason, reason
    assert "(`by stop-hook-hold`) was not made by the host" in reason, reason
    assert holds(repo) == 1, ledger(repo)
