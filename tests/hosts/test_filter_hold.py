"""A git clean filter the agent planted on the goal files (`.git/config` and
`.git/info/attributes`, neither of which `git status` shows), through the real Claude Code: the
Stop hook holds the agent, naming the attribute and the line that sets it, with a `sed` that
deletes that line. Claude Code asks the person before it runs that `sed` (it writes in
`.git/`); run as written, it ends the hold, and the goal is then verified and met.

Before, the hook compared the goal with git's copies and said nothing of the filter, which
made the person's next `git commit` of the goal store what the filter printed.
"""

from __future__ import annotations

from pathlib import Path

from conftest import git
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    FIX,
    GOAL,
    PRINTED_FIX,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    host_session,
)
from hosts_fixtures import isolation as isolation
from test_hook_discovery import sh


def test_a_filter_on_the_goal_holds_the_host_until_its_line_is_deleted(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    git(repo, "commit", "-qm", "goal")
    git(repo, "config", "filter.g.clean", "cat")  # what the agent did in an earlier session
    attributes = repo / ".git" / "info" / "attributes"
    attributes.parent.mkdir(exist_ok=True)
    attributes.write_text("goals/*.md filter=g\n", encoding="utf-8")
    printed: list[str] = []

    def held(turn: Turn) -> Reply:
        if turn.after_tool or turn.feedback is None:
            return Say("Done.")
        found = PRINTED_FIX.search(turn.feedback)
        printed.append(found.group(1) if found else "")
        return Shell(printed[-1])

    server, _ = host_session("claude", repo, held, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert reasons, server.stops()
    assert f"goalfile cannot verify {GOAL}: git applies `filter=g`" in reasons[0], reasons
    assert ".git/info/attributes:1: `goals/*.md filter=g`" in reasons[0], reasons
    assert "sed -i.goalfile-bak -e '1d' -- .git/info/attributes" in printed[0], printed
    assert goal_state(repo)["status"] == "active"  # nothing was verified under the filter
    sh(printed[0], repo)  # the person approves the printed command: it works as written
    assert attributes.read_text(encoding="utf-8") == ""

    def work(turn: Turn) -> Reply:
        return Say("Done.") if turn.after_tool else Shell(FIX)

    server, _ = host_session("claude", repo, work, isolation, prompt=PROMPT)
    assert not any("filter" in reason for reason in server.feedbacks()), server.feedbacks()
    assert goal_state(repo)["status"] == "met"
