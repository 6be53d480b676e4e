"""The real Claude Code obeys a Stop hook's holds only so many times in a row.

Claude Code 2.1.332 ends a turn once its Stop hook has blocked it more than
``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`` times in a row (8 when unset), whether the goal is met or
not. Here the model (the scripted fake) only ever says it is done, never calling a tool, and
the goal's check prints the time, so that each verify run differs and goalfile's own stall
guard does not let it go first. The test counts how often goalfile's hook held the agent before
the host ended the turn, with the cap lowered to 2 where Claude Code is started and in the
project's `.claude/settings.json` (as an agent could write it), and at its default; at the stop
the host overrides, goalfile's answer tells the person that the goal is not met, and the goal
stays active and unmet for `status`, with a `by stop-hook` ledger entry for each hold.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_goalfile
from fake_model import AnthropicServer, Reply, Say, Turn
from host_install import install_cli
from host_run import HostRun, claude_env, run_host
from hosts_fixtures import (
    CLAUDE_CODE,
    GOAL,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    goalfile_ok,
    ledger,
    start_server,
)
from hosts_fixtures import isolation as isolation

CAP = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"
HOST_WARNING = "A hook blocked the turn from ending {n} consecutive times"
NOTICE = "Claude Code ends this turn although goals/demo.md is NOT met"


def stops_at_once(turn: Turn) -> Reply:
    """A model that ends every turn without doing anything."""
    return Say("Done.")


def run_stopping_agent(
    repo: Path, isolation: Isolation, env: dict[str, str]
) -> tuple[AnthropicServer, HostRun]:
    claude = install_cli(CLAUDE_CODE)
    home = repo.parent / "home"
    with start_server(AnthropicServer, stops_at_once, isolation) as server:
        argv = [str(claude), "-p", PROMPT, "--output-format", "stream-json", "--verbose"]
        run = run_host(
            [*argv, "--allowedTools", "Bash"],
            cwd=repo,
            env={**claude_env(home=home, server_url=server.url), **env},
            netns=isolation.netns,
            timeout=240,
        )
    assert isinstance(server, AnthropicServer)
    server.write_log(repo.parent / "claude-requests.jsonl")
    assert run.returncode == 0, run.explain()
    return server, run


def shown(run: HostRun) -> list[str]:
    """The text of every system event of the run's stream-json output."""
    texts = []
    for event in run.events():
        if event.get("type") == "system":
            texts += [str(event.get(key)) for key in ("content", "text") if event.get(key)]
    return texts


@pytest.mark.parametrize(("where", "cap"), [("process", 2), ("project", 2), ("default", 8)])
def test_claude_code_ends_the_turn_past_its_cap_and_the_person_is_told(
    where: str, cap: int, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path, iterations="30", check="date +%s%N; test -f done.txt")
    env = {CAP: str(cap)} if where == "process" else {}
    if where == "project":
        settings = repo / ".claude" / "settings.json"
        document = json.loads(settings.read_text(encoding="utf-8"))
        document["env"] = {CAP: str(cap)}
        settings.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        doctor = run_goalfile("doctor", "--json", cwd=repo)
        [finding] = [
            f
            for f in json.loads(doctor.stdout)["findings"]
            if f["check"] == "hook-env" and CAP in f["detail"]
        ]
        assert finding["health"] == "problem", finding
        assert "obeys at most 2 Stop-hook holds in a row (8 without it)" in finding["detail"]

    server, run = run_stopping_agent(repo, isolation, env)

    # the hook held every stop; the host obeyed `cap` holds and ended the turn at the next
    assert server.stops() == cap + 1, run.explain()
    assert len(server.feedbacks()) == cap
    holds = [e.iteration for e in ledger(repo) if e.by == "stop-hook"]
    assert holds == list(range(1, cap + 2)), ledger(repo)
    texts = shown(run)
    assert any(HOST_WARNING.format(n=cap + 1) in text for text in texts), texts
    # goalfile's answer at that stop, and only there, told the person the goal is not met
    told = [text for text in texts if NOTICE in text]
    assert len(told) == 1, texts
    assert f"it obeys at most {cap} Stop-hook holds in a row ({CAP})" in told[0]
    assert f"goalfile has held this turn {cap} times already" in told[0]
    assert not any(NOTICE in feedback for feedback in server.feedbacks())
    # the goal stays active and unmet
    assert goal_state(repo)["status"] == "active"
    assert goalfile_ok("status", GOAL, cwd=repo).startswith("demo: active  (goals/demo.md)\n")
