"""Which goals the Stop hook holds the real Claude Code, Codex, Gemini CLI and pi to, whatever
the agent points it at, with the goal written as the goal skill says (`goalfile new ...
--activate`, staged and never committed, then `goalfile focus`):

- (Claude Code, Codex, Gemini CLI) the hook command pinned with `--goal` to a decoy, the
  agent's own goal in a folder git ignores, met by `true`: held once on that (Gemini CLI sends
  `stop_hook_active` false at every stop after a tool call; the session's record keeps the
  hold), then the person's goal, active and unmet, holds the agent. Without that, "easy is
  met; the stop is allowed" let the agent go at its first stop;
- a goal outside goals/ (`goalfile new --dir plans`), focused, then `goalfile focus --clear` in
  the agent's shell: the goal stays held. Without that, no goal was found and the first stop
  was let go;
- the check made to pass for a moment, `goalfile verify` (met), the goal file staged
  with `git add` and the work undone: HEAD holds no copy of the goal, so the met entry the
  index holds is no one's, and the checks run again at the stop and hold the agent, with
  `goalfile reopen`. Without that, the index's copy was taken as the person's, and the met
  let the agent go.

The model (the scripted fake) runs the command a reason names, and meets the goal when a
reason says only that a row is unmet; each run ends once the goal is met.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import sh
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    EVENT,
    FIX,
    PROMPT,
    SETTINGS,
    Isolation,
    goalfile_ok,
    hook_now,
    run_session,
    shell_said,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from skill_goals import REOPEN, SkillAgent, on_the_users_path, skill_new
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

REAL = "goals/real.md"
DECOY = "goals/.cache/easy.md"
UNMET = re.compile(r"verify-goal (\w+) iteration \d+: C1 unmet; status: active")


def unmet_goals(reasons: list[str]) -> list[str]:
    """The goal each reason holds the agent on for an unmet row, in order."""
    return [found.group(1) for r in reasons if (found := UNMET.search(r))]


def person_goal(repo: Path) -> Path:
    """The README's project ``repo``, with the person's goal goals/real.md written as the goal
    skill says (active and staged, never committed)."""
    for command in skill_new("real"):
        sh(command, repo)
    return repo


def pin_to_a_decoy(repo: Path, host: str) -> None:
    """The agent's own goal where git does not look, met by `true`, and ``host``'s hook
    command pinned to it with `--goal` (as an agent's edit of the host's settings would)."""
    (repo / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    new, _focus = skill_new("easy", check="true", folder="goals/.cache")
    sh(new, repo)
    goalfile_ok("verify", DECOY, cwd=repo)
    settings = repo / SETTINGS[host]
    hooks = json.loads(settings.read_text(encoding="utf-8"))
    [group] = hooks["hooks"][EVENT[host]]
    [hook] = group["hooks"]
    assert hook["command"] == f"goalfile hook stop --agent {host}", hook
    hook["command"] += f" --goal {DECOY}"
    settings.write_text(json.dumps(hooks, indent=2) + "\n", encoding="utf-8")


@pytest.mark.parametrize("host", ["claude", "codex", "gemini"])
def test_a_goal_option_pinned_to_a_decoy_does_not_release_the_agent(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = person_goal(readme_repo)
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    pin_to_a_decoy(repo, host)

    def script(turn: Turn) -> Reply:  # meets the goal when a row is said unmet; else stops
        if turn.after_tool or turn.feedback is None or not UNMET.search(turn.feedback):
            return Say("Done.")
        return Shell(FIX)

    ran = run_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2 and ran.server.stops() == 3, (reasons, ran.run.explain())
    decoy, unmet = reasons
    # (Claude Code hands the reason on after words of its own: it is not first)
    assert (
        f"goalfile: the Stop hook's --goal names {DECOY}, which is not a goal file git holds"
        in decoy
    ), decoy
    assert unmet_goals([unmet]) == ["real"], unmet
    assert "\nreal: met  (goals/real.md)\n" in goalfile_ok("status", REAL, cwd=repo)


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_goal_outside_goals_stays_held_after_focus_clear(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    agent = SkillAgent(
        work=[*skill_new("real", folder="plans"), "goalfile focus --clear"], otherwise=FIX
    )
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = ran.server.feedbacks()
    assert unmet_goals(reasons) == ["real"] and ran.server.stops() == 2, (
        reasons,
        ran.run.explain(),
    )
    assert "plans/real.md stays held" in shell_said(agent.outputs[2]), agent.outputs
    assert agent.ran[len(agent.work) :] == [FIX], agent.ran
    assert hook_now(repo)["decision"] == "allow"


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_met_only_the_index_holds_is_checked_again(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    work = [
        *skill_new(),
        FIX,
        "goalfile verify goals/demo.md",
        "git add goals/demo.md",
        "rm done.txt",
    ]
    agent = SkillAgent(work=work, otherwise=FIX, fix=REOPEN)
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2 and ran.server.stops() == 3, (reasons, ran.run.explain())
    rechecked, unmet = reasons
    assert (
        "goalfile: goals/demo.md says `met` by a ledger entry git does not hold yet, but its "
        "checks, run again at this stop without writing, do not all pass" in rechecked
    ), rechecked
    assert agent.ran[len(agent.work) :] == ["goalfile reopen goals/demo.md --reason TEXT", FIX]
    assert unmet_goals([unmet]) == ["demo"], unmet
    # the stop that ran the checks again wrote nothing: the model's met, then the hook's two
    assert [e.status for e in verify_entries(repo)] == ["met", "active", "met"]
    assert hook_now(repo)["decision"] == "allow"
