"""The real Claude Code starts `goalfile mcp` from the `.mcp.json` that `goalfile init --mcp`
wrote, and its fake model calls a goalfile tool through it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fake_model import AnthropicServer, Call, Say, Turn
from host_run import run_claude
from hosts_fixtures import GOAL, Isolation, mcp_goal_repo, start_server
from hosts_fixtures import claude_cli as claude_cli
from hosts_fixtures import isolation as isolation

TOOL = "mcp__goalfile__goal_verify"


def tool_results(body: dict[str, Any]) -> list[str]:
    """The text of every tool result in a request's conversation."""
    found = []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                parts = inner if isinstance(inner, list) else [{"text": inner}]
                found.append("".join(str(p.get("text", "")) for p in parts if isinstance(p, dict)))
    return found


def script(turn: Turn) -> Any:
    """Call goalfile's verify tool once (Claude Code offers MCP tools through its tool search,
    but takes a call by name), then say it is done."""
    if turn.after_tool or tool_results(turn.body):
        return Say("Verified.")
    return Call(TOOL, {"path": GOAL, "no_write": True})


def test_claude_code_calls_a_goalfile_mcp_tool(
    claude_cli: Path, isolation: Isolation, tmp_path: Path
) -> None:
    repo = mcp_goal_repo(tmp_path)
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    # the user's yes to the project's MCP servers, which Claude Code otherwise asks for once
    (home / ".claude" / "settings.json").write_text('{"enableAllProjectMcpServers": true}\n')
    before = (repo / GOAL).read_text(encoding="utf-8")
    with start_server(AnthropicServer, script, isolation) as server:
        run = run_claude(
            claude_cli, repo=repo, home=home, server_url=server.url,
            prompt="Check the goal in goals/demo.md.", netns=isolation.netns,
            tools=("Bash", TOOL),
        )  # fmt: skip
    assert run.returncode == 0, run.explain()
    requests = server.agent_requests()
    calls = [r.reply for r in requests if isinstance(r.reply, Call)]
    assert calls == [Call(TOOL, {"path": GOAL, "no_write": True})], run.explain()
    [result] = tool_results(requests[-1].body)
    # the tool's result is verify's JSON document: the checks really ran, nothing was written
    assert "verify-goal demo iteration" in result and "C1 unmet" in result, result
    assert (repo / GOAL).read_text(encoding="utf-8") == before
    assert json.loads((repo / ".mcp.json").read_text())["mcpServers"]["goalfile"] == {
        "command": "goalfile",
        "args": ["mcp"],
    }
