"""The real Gemini CLI, whose session's record the Stop hook cannot save (`~/.local` is a file),
sent back for its unmet goal, meets it and moves the repository's git folder aside (`mv .git
.git-x`). The hook holds such a repository once per session, and the record keeps that to once;
Gemini CLI sends `stop_hook_active` false at every stop that follows a tool call of its model,
so without a record the hold came back at each of them (the session ended only when Gemini CLI's
own loop detection stopped it). The stop is let go with the hold's message and a line saying the
record cannot be saved: Gemini CLI shows it (`Hook system message:` on stderr) and ends the
session. The recorded-input version is tests/test_hook_unsaved_record.py. So is a hook pinned
with `--goal` to a goal file git does not hold, the second hold the record keeps to once
(below).
"""

from __future__ import annotations

from pathlib import Path

from hosts_fixtures import (
    EASY,
    FIX,
    PROMPT,
    Isolation,
    easy_goal_met,
    goal_repo,
    goal_state,
    run_session,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from skill_goals import SkillAgent


def test_gemini_is_let_go_with_the_hold_said_when_the_record_cannot_be_saved(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".local").write_text("", encoding="utf-8")  # no ~/.local/state to save in
    agent = SkillAgent(work=[], then=[f"{FIX} && mv .git .git-x"])
    ran = run_session("gemini", repo, agent, isolation, prompt=PROMPT)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 1 and ran.server.stops() == 2, (reasons, agent.ran, ran.run.explain())
    assert "verify-goal demo iteration 0: C1 unmet" in reasons[0], reasons
    told = ran.run.stderr
    assert told.count("Agent execution blocked:") == 1, ran.run.explain()
    folder = home / ".local" / "state" / "goalfile" / "sessions"
    assert (
        "Hook system message: goalfile cannot tell which goals git tracks in .: it holds a goal "
        "folder and no .git, but .git-x is a git folder under another name\n"
        "  fix: `mv -- .git-x .git`\n"
        f"goalfile: the session's record cannot be saved in {folder}, so this hold, made once "
        "per session, would hold the agent at every stop: the stop is let go; make the state "
        "folder writable (XDG_STATE_HOME, else ~/.local/state)\n"
    ) in told, ran.run.explain()
    # the goal was verified met at the stop that was let go (outside git, as it is)
    assert [e.status for e in verify_entries(repo)] == ["active", "met"]
    assert (repo / ".git-x" / "HEAD").is_file() and not (repo / ".git").exists()


def test_gemini_pinned_to_a_goal_git_does_not_hold_is_held_for_the_goal_git_holds(
    isolation: Isolation, tmp_path: Path
) -> None:
    """The hook's `--goal` names a goal file git does not hold (a met goal in a folder git
    ignores), and the session's record cannot be saved. That hold, made once per session, is
    let go with its message, and then the goals git holds decide: the unmet one holds the
    model, which meets it, and the stop after that is let go with the message. The stop was
    let go at once, the goal git holds unmet and never verified: while the named goal held,
    the others were not looked at, and the hold was let go after."""
    repo = goal_repo(tmp_path)
    easy_goal_met(repo)
    settings = repo / ".gemini" / "settings.json"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace("--agent gemini", f"--agent gemini --goal {EASY}"))
    home = tmp_path / "home"
    home.mkdir()
    (home / ".local").write_text("", encoding="utf-8")  # no ~/.local/state to save in
    agent = SkillAgent(work=[], then=[FIX])
    ran = run_session("gemini", repo, agent, isolation, prompt=PROMPT)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 1 and ran.server.stops() == 2, (reasons, agent.ran, ran.run.explain())
    assert "verify-goal demo iteration 0: C1 unmet" in reasons[0], reasons
    assert agent.ran == [FIX], agent.ran
    assert (
        f"Hook system message: goalfile: the Stop hook's --goal names {EASY}, which is not a "
        "goal file git holds"
    ) in ran.run.stderr, ran.run.explain()
    assert "the session's record cannot be saved in " in ran.run.stderr, ran.run.explain()
    assert goal_state(repo)["status"] == "met"
