"""`goalfile doctor` and a host timeout below the hook's `--timeout`, with the real Claude Code
and Codex: a person lowered the host's hook `timeout` and left the command as `init` wrote it
(`--timeout` 600), so the host would kill the hook before it answers and let the agent stop
unheard (tests/hosts/test_hook_time.py shows that). `doctor` names the hook; its fix, run as
written, writes the host's number after `--timeout`; the hook's answer then reaches the model
before the host's timeout.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from conftest import run_goalfile
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    PROMPT,
    SETTINGS,
    Isolation,
    goal_repo,
    goal_state,
    host_session,
    register_hook,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from test_hook_time import STUCK_CHECK


@pytest.mark.parametrize("host", ["claude", "codex"])
def test_doctors_fix_for_a_lowered_host_timeout_gets_the_hook_heard(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path, check=STUCK_CHECK)
    register_hook(repo, host, timeout=10, command=f"goalfile hook stop --agent {host}")
    home = repo.parent / "home"
    env = {"HOME": str(home), "CODEX_HOME": str(home / ".codex")}
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    assert done.returncode == 1, done.stderr
    [problem] = [
        f
        for f in json.loads(done.stdout)["findings"]
        if f["check"] == "timeout" and f["health"] == "problem"
    ]
    assert problem["host"] == host
    assert "gives the Stop hook 10 s" in problem["detail"], problem
    words = shlex.split(problem["fix"])
    assert words[0] == "goalfile"
    fixed = run_goalfile(*words[1:], cwd=repo, env=env)
    assert fixed.returncode in (0, 1), fixed.stderr  # Codex's trust: `unknown` or a problem
    settings = json.loads((repo / SETTINGS[host]).read_text(encoding="utf-8"))
    [hook] = settings["hooks"]["Stop"][0]["hooks"]
    assert hook == {
        "type": "command",
        "command": f"goalfile hook stop --timeout 10 --agent {host}",
        "timeout": 10,
    }
    (repo / "stuck").write_text("", encoding="utf-8")  # the check hangs, deaf to SIGTERM

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        return Shell("touch done.txt" if turn.feedback is None else "rm stuck")

    server, run = host_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 1, (reasons, run.explain())
    assert "(9s of the host's 10s hook timeout; it was at " in reasons[0], reasons
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "met")]
    assert goal_state(repo)["status"] == "met"
