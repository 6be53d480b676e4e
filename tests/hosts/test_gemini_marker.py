"""The Gemini storm guard's marker in a real Gemini CLI session (docs/hosts.md, docs/trust.md).

After each verify for a Gemini session, the AfterAgent hook writes a marker under
`.git/goalfile-idle/` naming the session file's latest model message and usage; on a later
AfterAgent with `stop_hook_active` it lets the agent stop without verifying only when the
session file still stands exactly there. The marker is in the agent's reach, so here the
model, held once, attacks it in its own shell tool, as an agent that wants to stop would:

* forged: it rewrites the marker to the session file's latest model message and usage as they
  stand while it acts (the best any agent can do from inside a turn);
* removed: it deletes the marker folder.

Either way, at the next stop the hook must verify (a ledger entry, the goal still unmet, the
agent held again), never allow on the marker. The model then meets the goal and is let go.
The marker the hook wrote during the real session, read against Gemini's own session file by
the guard's reader, says "not called since"; one token more or less, and it does not.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fake_gemini import GeminiServer
from fake_model import Reply, Say, Shell, Turn
from host_install import install_cli
from host_run_more import GEMINI_CLI, gemini_sessions, run_gemini
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    goalfile_ok,
    start_server,
    verify_entries,
)
from hosts_fixtures import isolation as isolation

from goalfile.hostguard import model_idle
from goalfile.usage import read_usage

# run by the model in Gemini's shell tool: keep what the hook wrote, then forge the marker to
# the session file as it stands now (no `$(...)` in the command line: Gemini refuses it)
FORGE = """\
import glob, json, shutil, sys
from goalfile.usage import read_usage
[marker] = glob.glob(".git/goalfile-idle/*.json")
shutil.copy(marker, sys.argv[1])
[session] = glob.glob(sys.argv[2])
usage = read_usage(session)
data = json.loads(open(marker, encoding="utf-8").read())
data.update(session=usage.session_id, tokens=usage.tokens, newest=usage.newest)
open(marker, "w", encoding="utf-8").write(json.dumps(data) + "\\n")
print("FORGED", json.dumps(data))
"""


@dataclass
class Agent:
    """Held the first time, it runs ``attack``; held again, it meets the goal."""

    attack: str
    outputs: list[str | None] = field(default_factory=list)
    held: int = 0

    def __call__(self, turn: Turn) -> Reply:
        if turn.after_tool:
            self.outputs.append(turn.tool_output)
            return Say("Done.")
        if turn.feedback is None:
            return Shell("true")
        self.held += 1
        return Shell(self.attack if self.held == 1 else FIX)


def markers(repo: Path) -> list[Path]:
    return sorted((repo / ".git" / "goalfile-idle").glob("*.json"))


@pytest.mark.parametrize("attack", ["forged", "removed"])
def test_a_marker_the_agent_forges_or_removes_in_gemini_makes_the_hook_verify(
    attack: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    home = tmp_path / "home"
    seen = tmp_path / "marker-as-written.json"
    if attack == "forged":
        script = tmp_path / "forge.py"
        script.write_text(FORGE, encoding="utf-8")
        chats = home / ".gemini" / "tmp" / "*" / "chats" / "session-*.jsonl"
        command = f"{sys.executable} {script} {seen} '{chats}'"
    else:
        command = "cp .git/goalfile-idle/*.json " + str(seen) + " && rm -r .git/goalfile-idle"
    agent = Agent(attack=command)
    with start_server(GeminiServer, agent, isolation) as server:
        run = run_gemini(
            install_cli(GEMINI_CLI),
            repo=repo,
            home=home,
            server_url=server.url,
            prompt=PROMPT,
            netns=isolation.netns,
        )
    server.write_log(tmp_path / "gemini-requests.jsonl")
    assert run.returncode == 0, run.explain()
    [session] = gemini_sessions(home)
    usage = read_usage(session)

    # the hook's first verify wrote the marker: this session, this goal, a model message of the
    # session file and a usage
    written = json.loads(seen.read_text(encoding="utf-8"))
    assert written["session"] == usage.session_id and written["goal"] == GOAL, written
    assert isinstance(written["tokens"], int) and 0 < written["tokens"] < usage.tokens, written
    assert isinstance(written["newest"], str) and written["newest"] in session.read_text()
    # the attack ran in Gemini's shell tool
    assert agent.held == 2 and len(agent.outputs) >= 2, (agent, run.explain())
    if attack == "forged":
        assert "FORGED" in (agent.outputs[1] or ""), agent.outputs
    # ... and the next stop was verified, not let go on the marker: three stops, three
    # verify entries, the goal held (unmet) twice and met the third time
    assert "the model was not called since" not in run.stderr, run.explain()
    assert server.stops() == 3, run.explain()
    assert [e.status for e in verify_entries(repo)] == ["active", "active", "met"]
    assert len(server.feedbacks()) == 2 and "C1 unmet" in server.feedbacks()[1]
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)

    # the marker the hook wrote after its last verify matches Gemini's own session file, for
    # the guard's reader; a usage one token off, or another message, does not
    [marker] = markers(repo)
    assert model_idle(git_folder=repo / ".git", goal=GOAL, transcript=str(session))
    kept = marker.read_text(encoding="utf-8")
    data = json.loads(kept)
    assert (data["session"], data["tokens"], data["newest"]) == (
        usage.session_id,
        usage.tokens,
        usage.newest,
    )
    for changed in (
        {"tokens": usage.tokens + 1},
        {"tokens": usage.tokens - 1},
        {"newest": written["newest"]},
    ):
        marker.write_text(json.dumps({**data, **changed}) + "\n", encoding="utf-8")
        assert not model_idle(git_folder=repo / ".git", goal=GOAL, transcript=str(session))
