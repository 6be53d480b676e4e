"""A check the agent loosened and re-approved itself, through the real Claude Code, Codex,
Gemini CLI and pi: what the Stop hook's hold tells it to do is run in the host's shell, as
written. Each host holds it alike: the loosening is held once whether or not the host marks
the stop after the model's commands as continuing (Gemini CLI does not).

The project is set up as the README says (`goalfile init --no-goal`, committed); the model (the
scripted fake) writes the goal as the goal skill's step 5 says (`goalfile new ... --activate`,
which stages it, then `goalfile focus`). It stops at once and is held for the unmet row. Sent
back, it makes the check `true` and re-approves it itself (`goalfile activate --reapprove`,
which stages the file) and stops: the hook's verify writes `met` under criteria no person
approved, and the agent is held once, naming the change.

- The goal committed first: the hold's `fix:` puts HEAD's approved criteria back, the loosened
  file kept beside it. The model runs it as written, does the work, and the goal is met under
  HEAD's criteria.
- The goal only staged (never committed): its first approval entry is the approved contract.
  The model puts the change back and runs the `goalfile activate --reapprove` the hold names
  (verify refuses criteria no approval entry records); it does the work, and the goal is met
  under the criteria the first approval recorded.

The recorded-input versions are in tests/test_hook_loosened.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    FIX,
    GOAL,
    PRINTED_FIX,
    PROMPT,
    Isolation,
    Session,
    goal_state,
    goalfile_ok,
    hook_now,
    ran_quietly,
    record_answers,
    run_session,
)
from hosts_fixtures import isolation as isolation
from skill_goals import UNMET, on_the_users_path, skill_new
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

# the criteria table's row only (the approval entry records the approved row too)
LOOSEN = f"sed -i '/^| C1 | done.txt exists |/ s/`test -f done.txt`/`true`/' {GOAL}"
PUT_BACK = f"sed -i '/^| C1 | done.txt exists |/ s/`true`/`test -f done.txt`/' {GOAL}"
REAPPROVE = f"goalfile activate --reapprove {GOAL} --reason simpler"
COMMITTED = "git add -A && git commit -qm 'goal: demo'"
NAMED_REAPPROVAL = re.compile(r"`(goalfile activate --reapprove [^`]+)`")


class Agent:
    """The scripted model: at the prompt it runs ``work`` (the goal skill's commands first);
    held for the unmet row the first time, it loosens the check and re-approves it; held for
    the loosening, it runs ``back`` and then the command the reason names (``named``); held
    for anything else, it does the work. One shell call a turn; then it ends its turn."""

    def __init__(self, work: list[str], back: list[str], named: re.Pattern[str]) -> None:
        self.work, self.back, self.named = [*skill_new(), *work], back, named
        self.ran: list[str] = []
        self.outputs: list[str | None] = []
        self.queue: list[str] = []
        self.unmet = 0

    def __call__(self, turn: Turn) -> Reply:
        if turn.after_tool:
            self.outputs.append(turn.tool_output)
        elif turn.feedback is None:
            self.queue = list(self.work)
        elif UNMET.search(turn.feedback):
            self.unmet += 1
            self.queue = [LOOSEN, REAPPROVE] if self.unmet == 1 else [FIX]
        else:
            found = self.named.search(turn.feedback)
            self.queue = [*self.back, found.group(1)] if found else []
        if not self.queue:
            return Say("Done.")
        self.ran.append(self.queue.pop(0))
        return Shell(self.ran[-1])


def session(host: str, repo: Path, agent: Agent, isolation: Isolation) -> Session:
    on_the_users_path(repo.parent / "home")  # Codex's `bash -lc` finds goalfile there
    if host == "codex":  # `codex exec` shows a `systemMessage` nowhere
        record_answers(repo, host)
    return run_session(host, repo, agent, isolation, prompt=PROMPT)


def held_for_the_loosening(ran: Session, agent: Agent) -> str:
    """The one reason between the unmet row's two holds; the stop after the last let go."""
    reasons = ran.server.feedbacks()
    assert len(reasons) == 3 and ran.server.stops() == 4, (reasons, agent.ran, ran.run.explain())
    first, loosened, unmet = reasons
    assert UNMET.search(first) and UNMET.search(unmet), (first, unmet)
    assert "- C1 check: `test -f done.txt` → `true`" in loosened, loosened
    return loosened


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_the_printed_fix_of_a_committed_goal_loosened_puts_heads_criteria_back(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    agent = Agent(work=[COMMITTED], back=[], named=PRINTED_FIX)
    ran = session(host, repo, agent, isolation)
    loosened = held_for_the_loosening(ran, agent)
    assert f"goalfile: {GOAL} is met only under a contract that HEAD's copy of it" in loosened
    fix = agent.ran[agent.ran.index(REAPPROVE) + 1]
    assert f"  fix: `{fix}` puts HEAD's approved criteria back" in loosened, loosened
    assert ran_quietly(host, agent.outputs[agent.ran.index(fix)] or ""), agent.outputs
    assert agent.ran[-1] == FIX, agent.ran
    # HEAD's criteria, met; the agent's loosened file kept beside the goal
    assert "| `test -f done.txt` |" in (repo / GOAL).read_text(encoding="utf-8")
    assert "| `true` |" in (repo / f"{GOAL}.goalfile-saved").read_text(encoding="utf-8")
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"
    goalfile_ok("audit", GOAL, cwd=repo)


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_goal_only_staged_loosened_is_put_back_as_the_hold_says(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    agent = Agent(work=[], back=[PUT_BACK], named=NAMED_REAPPROVAL)
    ran = session(host, repo, agent, isolation)
    loosened = held_for_the_loosening(ran, agent)
    assert "a contract that its first approval entry (no commit holds the goal" in loosened
    named = agent.ran[agent.ran.index(PUT_BACK) + 1]
    assert named.startswith(f"goalfile activate --reapprove {GOAL} --reason "), agent.ran
    assert "status: active" in (agent.outputs[agent.ran.index(named)] or ""), agent.outputs
    assert agent.ran[-1] == FIX, agent.ran
    # the criteria the first approval recorded, met; nothing committed
    assert "| `test -f done.txt` |" in (repo / GOAL).read_text(encoding="utf-8")
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"
    goalfile_ok("audit", GOAL, cwd=repo)
