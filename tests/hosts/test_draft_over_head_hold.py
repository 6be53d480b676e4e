"""`status: draft` typed by the agent's `sed` over the committed active goal, in the real
Claude Code's, Codex's, Gemini CLI's and pi's shells: the Stop hook holds the agent once, the
model runs the printed fix as written, and the goal is then verified: unmet, then met.

The goal is one as the skill family writes it (by hand, `status: active`, its ledger empty;
format.md), committed by the person with the hooks `goalfile init --no-goal` wrote. No entry
says `active`, so the draft contradicted nothing the file holds, and a draft holds no one: the
hook said "no active goal" and let the first stop go, nothing printed. Now a `draft` where
HEAD's copy says another status is a status the ledger does not back. (A goal `goalfile new
--activate` wrote carries its `by activate` entry, which says `active`: a draft typed over
that one is held by the ledger's rule, tests/hosts/test_agent_status_moves.py.) The
recorded-input version is in tests/test_hook_read_race.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, goal_text, row
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Isolation,
    goal_state,
    hook_now,
    ran_quietly,
    run_session,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from skill_goals import UNMET, SkillAgent, on_the_users_path
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

DRAFT = f"sed -i '0,/^status: active/s//status: draft/' {GOAL}"


def family_goal(repo: Path) -> None:
    """The person's goal as the skill family writes it (active, an empty ledger), committed."""
    (repo / "goals").mkdir()
    text = goal_text(slug="demo", rows=(row("C1", "test -f done.txt", "exit 0"),))
    (repo / GOAL).write_text(text, encoding="utf-8")
    git(repo, "add", GOAL)
    git(repo, "commit", "-qm", "the goal")


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_draft_typed_over_the_committed_goal_holds_once_until_the_fix_sets_it_back(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    family_goal(repo)
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    agent = SkillAgent(work=[DRAFT], otherwise=FIX)
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2 and ran.server.stops() == 3, (reasons, agent.ran, ran.run.explain())
    drafted, unmet = reasons
    assert (
        f"goalfile does not accept the status of {GOAL}: {GOAL}:3: the status is `draft`, but "
        "the goal HEAD holds there is `active`; no command makes a goal a draft again"
    ) in drafted, drafted
    # the model ran the printed fix as written, in its shell tool, without a word of error
    fix = agent.ran[1]
    assert f"\n  fix: `{fix}`, then run `goalfile verify {GOAL}`" in drafted, drafted
    assert "status: active" in fix and agent.ran == [DRAFT, fix, FIX], agent.ran
    assert ran_quietly(host, agent.outputs[1] or ""), agent.outputs
    assert UNMET.search(unmet), unmet
    assert [e.status for e in verify_entries(repo)] == ["active", "met"]
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"
