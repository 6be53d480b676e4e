"""Codex skips an untrusted project hook without a word; `goalfile doctor` finds that through
the real `codex app-server`, and the fix it prints makes the real Codex run the hook."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from fake_model import ResponsesServer, fix_after_feedback
from host_run import run_codex, write_codex_config
from hosts_fixtures import (
    FIX,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    start_server,
    verify_entries,
)
from hosts_fixtures import codex_cli as codex_cli
from hosts_fixtures import goalfile_beside_codex as goalfile
from hosts_fixtures import isolation as isolation


def trust_finding(report: dict[str, Any], hook: str = "Stop hook") -> dict[str, Any]:
    """The trust finding on goalfile's ``hook`` (its Stop hook, or its session-start hook);
    the one finding there is when doctor cannot tell."""
    found = [f for f in report["findings"] if f["check"] == "trust"]
    if len(found) == 1 and found[0]["health"] == "unknown":
        return found[0]
    [one] = [f for f in found if f"the {hook} " in f["detail"]]
    return one


def test_an_untrusted_hook_is_skipped_and_doctor_says_how_to_trust_it(
    codex_cli: Path, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    codex_home = tmp_path / "home" / ".codex"
    before = goalfile("doctor", "--json", repo=repo, codex=codex_cli, codex_home=codex_home,
                      isolation=isolation)  # fmt: skip
    unknown = trust_finding(json.loads(before.stdout))
    assert unknown["health"] == "unknown", unknown
    assert f"{codex_home} does not exist" in unknown["detail"]
    with start_server(ResponsesServer, fix_after_feedback(FIX), isolation) as server:
        write_codex_config(codex_home, server_url=server.url, repo=repo)
        untrusted = run_codex(
            codex_cli, repo=repo, codex_home=codex_home, prompt=PROMPT, netns=isolation.netns
        )
        assert untrusted.returncode == 0, untrusted.explain()
        # skipped silently: nothing verified, nothing sent back, nothing said
        assert server.feedbacks() == [] and verify_entries(repo) == []
        assert "goalfile hook stop" not in untrusted.stdout + untrusted.stderr

        found = goalfile(
            "doctor", "--json", repo=repo, codex=codex_cli, codex_home=codex_home,
            isolation=isolation,
        )  # fmt: skip
        assert found.returncode == 1, found.explain()
        problem = trust_finding(json.loads(found.stdout))
        assert problem["health"] == "problem" and "untrusted" in problem["detail"], problem
        start = trust_finding(json.loads(found.stdout), "session-start hook")
        assert start["health"] == "problem" and start["fix"] == problem["fix"], start
        assert "so the session's record is not taken at its start" in start["detail"], start
        fix = shlex.split(problem["fix"])
        assert fix[:2] == ["goalfile", "init"]
        fixed = goalfile(*fix[1:], repo=repo, codex=codex_cli, codex_home=codex_home,
                         isolation=isolation)  # fmt: skip
        assert fixed.returncode == 0, fixed.explain()
        assert "trusted the Codex hook" in fixed.stdout

        again = goalfile("doctor", "--json", repo=repo, codex=codex_cli, codex_home=codex_home,
                         isolation=isolation)  # fmt: skip
        # what init wrote is not committed here (goal_repo does not commit it): the one problem
        problems = [f for f in json.loads(again.stdout)["findings"] if f["health"] == "problem"]
        assert {f["check"] for f in problems} <= {"commit"}, again.explain()
        assert trust_finding(json.loads(again.stdout))["health"] == "ok"
        assert trust_finding(json.loads(again.stdout), "session-start hook")["health"] == "ok"

        # a changed hook definition needs trusting again: doctor compares the hashes
        hooks_json = repo / ".codex" / "hooks.json"
        hooks_json.write_text(hooks_json.read_text().replace("600", "590"), encoding="utf-8")
        changed = goalfile("doctor", "--json", repo=repo, codex=codex_cli,
                           codex_home=codex_home, isolation=isolation)  # fmt: skip
        assert changed.returncode == 1, changed.explain()
        problem = trust_finding(json.loads(changed.stdout))
        assert "changed since it was trusted" in problem["detail"], problem
        refixed = goalfile(*shlex.split(problem["fix"])[1:], repo=repo, codex=codex_cli,
                           codex_home=codex_home, isolation=isolation)  # fmt: skip
        assert refixed.returncode == 0, refixed.explain()
        config = (codex_home / "config.toml").read_text(encoding="utf-8")
        # the Stop hook's old hash replaced, not a second table (the other: the start hook's)
        assert config.count("[hooks.state.") == 2

        trusted = run_codex(
            codex_cli, repo=repo, codex_home=codex_home, prompt=PROMPT, netns=isolation.netns
        )
    assert trusted.returncode == 0, trusted.explain()
    assert len(server.feedbacks()) == 1  # the hook ran this time, and held the agent once
    assert goal_state(repo)["status"] == "met"
