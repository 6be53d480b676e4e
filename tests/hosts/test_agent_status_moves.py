"""What the agent can do to its goal's status in its own shell, through the real Claude Code
and Codex (and pi for the first, Gemini CLI and pi for the other two): the Stop hook answers
each at the stop.

The project is set up as the README says (`goalfile init --no-goal`, committed); the model
(the scripted fake) writes the goal as the goal skill's step 5 says, in the host's shell:
`goalfile new ... --activate` (approved and staged, never committed), then `goalfile focus`.
Then it does one of these and ends its turn:

- it runs `goalfile block`, as refine-goal's table writes it: the stop is allowed, and the
  person is told, as for a pause, with the command that makes the goal active again (Claude
  Code shows the hook's `systemMessage`, and so does pi through goalfile's extension; `codex
  exec` shows it nowhere, so Codex's answer is read as the hook gave it). Without that, an
  agent ended the hold with no word to anyone;
- it types `status: draft` into the frontmatter and a ledger entry that says so: the hook
  holds it with the printed fix that sets `active` back, which the model runs as written; the
  next stop verifies as usual. Without that, a draft held no one: the first stop was let go;
- it makes the check pass for a moment, runs `goalfile verify` (met), and undoes the work: the
  hook runs the checks again at the stop and holds it with `goalfile reopen`, which the model
  runs as printed; the next stop verifies as usual. Without that, the met let it go at once.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Isolation,
    Session,
    answers,
    goal_state,
    goalfile_ok,
    hook_now,
    ran_quietly,
    record_answers,
    run_session,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from skill_goals import (
    REOPEN,
    SkillAgent,
    held_between_unmet,
    on_the_users_path,
    skill_new,
    skill_synopsis,
)
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template

HOSTS = ["claude", "codex"]


def session(host: str, repo: Path, agent: SkillAgent, isolation: Isolation) -> Session:
    """One session of ``host`` in ``repo``, a project set up as the README says, the goal
    written by the model as the goal skill says before the rest of its ``work``."""
    on_the_users_path(repo.parent / "home")  # where run_session puts the host's HOME
    if host == "codex":  # `codex exec` shows a `systemMessage` nowhere
        record_answers(repo, host)
    agent.work[:0] = skill_new()
    return run_session(host, repo, agent, isolation, prompt=PROMPT)


def told(session: Session, host: str) -> list[str]:
    """What the Stop hook told the person at the stops it allowed: Claude Code's stream shows
    each `systemMessage` as `Stop says: ...`; goalfile's pi extension has pi notify its UI
    (in RPC mode, an `extension_ui_request`); for Codex, the hook's answers as given."""
    events = session.run.events()
    if host == "claude":
        shown = [str(e.get("content")) for e in events]
        return [m.removeprefix("Stop says: ") for m in shown if m.startswith("Stop says: ")]
    if host == "pi":
        return [str(e["message"]) for e in events if e.get("method") == "notify"]
    recorded = answers(session.log.parent / "codex-answers.jsonl")
    return [str(a["systemMessage"]) for a in recorded if "systemMessage" in a]


def entry_heading(repo: Path, by: str) -> str:
    """The heading of the goal's last ledger entry written ``by`` that name."""
    found = re.findall(rf"(?m)^### Iteration \d+ \([^)]*\) by {by}$", (repo / GOAL).read_text())
    assert found, (repo / GOAL).read_text()
    return found[-1]


# --- `goalfile block` --------------------------------------------------------------------


def block_command() -> str:
    """refine-goal's `goalfile block PATH --reason "..." --tried "..."`, filled in."""
    synopsis = skill_synopsis("refine-goal", "goalfile block ")
    assert synopsis == 'goalfile block PATH --reason "..." --tried "..." [--tried "..."]'
    reason, tried = "the staging server is down", "retried the upload twice"
    filled = synopsis.removesuffix(' [--tried "..."]').replace("PATH", GOAL)
    return filled.replace('"..."', f'"{reason}"', 1).replace('"..."', f'"{tried}"', 1)


@pytest.mark.parametrize("host", [*HOSTS, "pi"])
def test_a_block_the_agent_declares_lets_it_stop_and_the_person_is_told(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    agent = SkillAgent(work=[block_command()])
    repo = readme_repo
    ran = session(host, repo, agent, isolation)
    assert ran.server.stops() == 1 and ran.server.feedbacks() == [], ran.run.explain()
    assert "blocked" in (agent.outputs[-1] or ""), agent.outputs
    heading = entry_heading(repo, "block")
    resume = f"goalfile resume {GOAL} --resolved TEXT"
    assert told(ran, host) == [
        f"goalfile: {GOAL} (demo) is blocked, not met: its entry `{heading}` "
        f"set it; the stop is allowed (a person reopens it with `{resume}`)"
    ], ran.run.explain()
    assert goal_state(repo)["status"] == "blocked"
    # the command the person is given works as written: the next stop verifies, and holds
    goalfile_ok(*resume.split()[1:], cwd=repo)
    answer = hook_now(repo)
    assert answer["decision"] == "block", answer
    assert re.search(r"verify-goal demo iteration \d+: C1 unmet; status: active", str(answer))


# --- `status: draft`, typed ---------------------------------------------------------------


def typed_draft() -> str:
    """The model's edit: `draft` over the frontmatter's `active`, and an entry of its own
    typing that says `status: draft`, dated today, before `## Lessons`."""
    entry = rf"### Iteration 0 ({date.today().isoformat()}) by refine-goal\n\nstatus: draft\n"
    return (
        f"sed -i -e '0,/^status: active/s//status: draft/' "
        rf"-e 's/^## Lessons$/{entry}\n## Lessons/' {GOAL}"
    )


@pytest.mark.parametrize("host", [*HOSTS, "gemini", "pi"])
def test_a_typed_draft_holds_the_agent_until_the_printed_fix_sets_active_back(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    agent = SkillAgent(work=[typed_draft()], otherwise=FIX)
    repo = readme_repo
    ran = session(host, repo, agent, isolation)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2 and ran.server.stops() == 3, (reasons, ran.run.explain())
    draft, unmet = reasons
    assert (
        f"goalfile does not accept the status of {GOAL}: {GOAL}:3: the status is `draft`, but "
        "the newest ledger entry with a status (line " in draft
    ), draft
    assert "says `draft`, which no goalfile command writes" in draft, draft
    # the model ran the fix as printed, in the host's shell, without a word of error; the
    # next stop verified the goal as usual, and the model met it
    fix = agent.ran[len(agent.work)]
    assert f"  fix: `{fix}`" in draft and "status: active" in fix, draft
    assert agent.ran[len(agent.work) :] == [fix, FIX], agent.ran
    assert ran_quietly(host, agent.outputs[len(agent.work)] or ""), agent.outputs
    assert re.search(r"verify-goal demo iteration \d+: C1 unmet; status: active", unmet), unmet
    assert "reopened by hand (was draft)" in (repo / GOAL).read_text(encoding="utf-8")
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("lint", GOAL, cwd=repo)
    assert hook_now(repo)["decision"] == "allow"


# --- a `met` made for a moment --------------------------------------------------------------

MET_FOR_A_MOMENT = [FIX, f"goalfile verify {GOAL}", "rm done.txt"]


@pytest.mark.parametrize("host", [*HOSTS, "gemini", "pi"])
def test_a_met_the_hook_did_not_see_is_checked_again_and_holds_the_agent(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    agent = SkillAgent(work=list(MET_FOR_A_MOMENT), otherwise=FIX, fix=REOPEN)
    repo = readme_repo
    ran = session(host, repo, agent, isolation)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2 and ran.server.stops() == 3, (reasons, ran.run.explain())
    rechecked, unmet = reasons
    assert (
        f"goalfile: {GOAL} says `met` by a ledger entry git does not hold yet, but its checks, "
        "run again at this stop without writing, do not all pass" in rechecked
    ), rechecked
    assert "- C1 unmet (exit 1)" in rechecked, rechecked
    # the model's own verify said met; the command the reason names ran as printed
    assert "C1 met; status: met" in (agent.outputs[len(agent.work) - 2] or ""), agent.outputs
    reopen = f"goalfile reopen {GOAL} --reason TEXT"
    assert agent.ran[len(agent.work) :] == [reopen, FIX], agent.ran
    assert re.search(r"verify-goal demo iteration \d+: C1 unmet; status: active", unmet), unmet
    # the stop that ran the checks again wrote nothing: the model's met, then the hook's two
    assert [e.status for e in verify_entries(repo)] == ["met", "active", "met"]
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)
    assert hook_now(repo)["decision"] == "allow"


def test_a_met_for_a_moment_after_the_agent_was_sent_back_holds_it_once(
    isolation: Isolation, readme_repo: Path
) -> None:
    """The same met for a moment, made once the agent was sent back for its unmet goal: Claude
    Code marks that stop as continuing (`stop_hook_active`), where the hook let it go with a
    message. Held once now; the model runs the printed `goalfile reopen`, then meets the goal."""
    agent = SkillAgent(work=[], then=list(MET_FOR_A_MOMENT), otherwise=FIX, fix=REOPEN)
    repo = readme_repo
    ran = session("claude", repo, agent, isolation)
    (rechecked,) = held_between_unmet(ran, agent)
    assert (
        f"goalfile: {GOAL} says `met` by a ledger entry git does not hold yet, but its checks, "
        "run again at this stop without writing, do not all pass" in rechecked
    ), rechecked
    assert agent.ran[-2:] == [f"goalfile reopen {GOAL} --reason TEXT", FIX], agent.ran
    assert [e.status for e in verify_entries(repo)] == ["active", "met", "active", "met"]
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"


NEVER = re.compile(r"(?!)")  # the model runs no command a reason prints


def test_a_check_loosened_and_re_approved_by_the_agent_holds_it_once(
    isolation: Isolation, readme_repo: Path
) -> None:
    """The goal committed, the model sent back for its unmet row makes the check `true` and
    re-approves it itself (`goalfile activate --reapprove`, which stages the file): the met the
    hook's verify writes under that contract holds Claude Code once, naming the change; the
    model puts HEAD's goal back, does the work, and is let go with the goal met."""
    # the criteria table's row only (the approval entry records the approved row too)
    loosen = f"sed -i '/^| C1 | done.txt exists |/ s/`test -f done.txt`/`true`/' {GOAL}"
    agent = SkillAgent(
        work=["git add -A && git commit -qm 'goal: demo'"],
        then=[loosen, f"goalfile activate --reapprove {GOAL} --reason simpler"],
        otherwise=f"git checkout HEAD -- {GOAL} && {FIX}",
        fix=NEVER,
    )
    repo = readme_repo
    ran = session("claude", repo, agent, isolation)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2 and ran.server.stops() == 3, (reasons, agent.ran, ran.run.explain())
    assert "C1 unmet" in reasons[0], reasons[0]
    assert "- C1 check: `test -f done.txt` → `true`" in reasons[1], reasons[1]
    assert "| `test -f done.txt` |" in (repo / GOAL).read_text(encoding="utf-8")
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"


def test_a_status_typed_met_after_the_agent_was_sent_back_holds_it_once(
    isolation: Isolation, readme_repo: Path
) -> None:
    """The model, sent back once for its unmet goal, types `status: met` into the frontmatter
    and stops: Claude Code marks that stop as continuing, where the hook let it go with a
    message. Held once now, with a fix the model runs as printed; then it meets the goal."""
    typed = f"sed -i 's/^status: active #/status: met #/' {GOAL}"  # the frontmatter's line
    agent = SkillAgent(work=[], then=[typed], otherwise=FIX)
    repo = readme_repo
    ran = session("claude", repo, agent, isolation)
    (held,) = held_between_unmet(ran, agent)
    assert f"goalfile does not accept the status of {GOAL}" in held, held
    at = agent.ran.index(typed) + 1  # the fix the reason printed, run as written
    assert f"fix: `{agent.ran[at]}`" in held, (held, agent.ran)
    assert ran_quietly("claude", agent.outputs[at] or ""), agent.outputs[at]
    assert goal_state(repo)["status"] == "met"
    assert hook_now(repo)["decision"] == "allow"
