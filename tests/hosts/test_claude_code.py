"""The real Claude Code CLI, offline against a fake Anthropic server, held to a goal by goalfile.

Each test sets up a real git repository with `goalfile new` + `activate` + `init` (which
registers `goalfile hook stop --agent claude` in .claude/settings.json), runs
`claude -p ... --output-format stream-json` in it, and reads what happened from three places:
the fake server's request log (what the model was told), the goal file's ledger (what goalfile
decided) and the CLI's exit status.
"""

from __future__ import annotations

from pathlib import Path

from fake_model import AnthropicServer, fix_after_feedback
from host_run import run_claude
from hosts_fixtures import (
    FIX,
    Isolation,
    goal_repo,
    goal_state,
    start_server,
    verify_entries,
)
from hosts_fixtures import claude_cli as claude_cli
from hosts_fixtures import isolation as isolation

PROMPT = "Make the goal in goals/demo.md met."


def test_the_hook_blocks_until_the_scripted_fix_then_allows_the_stop(
    claude_cli: Path, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    with start_server(AnthropicServer, fix_after_feedback(FIX), isolation) as server:
        run = run_claude(
            claude_cli,
            repo=repo,
            home=tmp_path / "home",
            server_url=server.url,
            prompt=PROMPT,
            netns=isolation.netns,
        )
    assert run.returncode == 0, run.explain()
    # (a) the host ran `goalfile hook stop`, which verified the goal at each stop
    stops = [r for r in server.model_requests if r.turn and r.turn.after_tool]
    assert len(stops) == 2, run.explain()  # two turns ended: before and after the fix
    entries = verify_entries(repo)
    assert len(entries) == len(stops), entries  # one verify entry per stop
    # (b) the block reason reached the model in the next request, naming the unmet criterion
    feedback = server.feedbacks()
    assert len(feedback) == 1, feedback
    assert "verify-goal demo iteration" in feedback[0]
    assert "C1 unmet" in feedback[0]
    assert "test -f done.txt" in feedback[0] or "exit 0 expected" in feedback[0]
    # (c) after the fix the stop is allowed: the goal is met
    assert (repo / "done.txt").exists()
    assert entries[-1].status == "met"
    assert goal_state(repo)["status"] == "met"
