"""A Codex Stop hook declared in `.codex/config.toml` instead of `.codex/hooks.json`, with the
real Codex CLI (docs/hosts.md).

Codex 0.171.0 reads hooks from `config.toml` (the project's and the user's) in the shape of
hooks.json (`[[hooks.Stop]]`, `[[hooks.Stop.hooks]]`), and runs every one it finds. Here a
person keeps the project's Codex hooks in `.codex/config.toml`, with a `timeout` below the
hook's `--timeout`: `goalfile doctor` finds the hook there (not "missing"), names the timeout
and the trust, and each fix it prints, run as written, edits that file in place (the rest of it
as it was) and writes no `.codex/hooks.json` beside it, which would make Codex run the hook
twice; the real Codex then lists one hook, trusted, and a session is held by it, one verify per
stop. A hooks.json written next to it is reported as the hook declared twice, which the real
Codex lists twice.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from fake_model import ResponsesServer, fix_after_feedback
from host_run import HostRun, codex_hooks, run_codex, write_codex_config
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

from goalfile.hostjson import is_ours

CONFIG = """\
# this project's Codex settings, kept by hand
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "goalfile hook stop --agent codex"  # goalfile's
timeout = 30

[[hooks.PostToolUse]]
matcher = "Bash"
[[hooks.PostToolUse.hooks]]
type = "command"
command = "true"
"""


def findings(run: HostRun, host: str = "codex") -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for finding in json.loads(run.stdout)["findings"]:
        if finding["host"] == host:
            found.setdefault(finding["check"], []).append(finding)
    return found


def test_a_stop_hook_in_codex_config_toml_is_checked_and_fixed_where_it_is(
    codex_cli: Path, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    (repo / ".codex" / "hooks.json").unlink()  # the person keeps Codex's hooks in config.toml
    config = repo / ".codex" / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    codex_home = tmp_path / "home" / ".codex"
    with start_server(ResponsesServer, fix_after_feedback(FIX), isolation) as server:
        write_codex_config(codex_home, server_url=server.url, repo=repo)

        def listed() -> list[dict[str, Any]]:
            hooks = codex_hooks(codex_cli, repo=repo, codex_home=codex_home, netns=isolation.netns)
            return [h for h in hooks if is_ours(h["command"])]

        def doctor(*extra: str) -> HostRun:
            return goalfile("doctor", "--json", *extra, repo=repo, codex=codex_cli,
                            codex_home=codex_home, isolation=isolation)  # fmt: skip

        def run_fix(command: str) -> HostRun:
            words = shlex.split(command)
            assert words[0] == "goalfile", command
            return goalfile(*words[1:], repo=repo, codex=codex_cli, codex_home=codex_home,
                            isolation=isolation)  # fmt: skip

        # the real Codex reads the hook from config.toml, with the 30 s given there
        [hook] = listed()
        assert hook["sourcePath"] == str(config.resolve()), hook
        assert (hook["timeoutSec"], hook["trustStatus"]) == (30, "untrusted"), hook

        before = doctor()
        assert before.returncode == 1, before.explain()
        found = findings(before)
        assert [(f["health"], f["detail"]) for f in found["hook"]] == [
            ("ok", "Stop hook in .codex/config.toml")
        ], found
        [timeout] = found["timeout"]
        assert timeout["health"] == "problem", timeout
        assert timeout["detail"].startswith(
            ".codex/config.toml: Codex gives the Stop hook 30 s (its `timeout = 30`), less than "
            "the 600 s its `--timeout` counts on"
        ), timeout
        [trust] = found["trust"]
        assert trust["health"] == "problem" and "untrusted" in trust["detail"], trust

        # the timeout fix, as printed: the command's --timeout becomes Codex's 30 s, in place
        fixed = run_fix(timeout["fix"])
        assert fixed.returncode == 1, fixed.explain()  # the trust is still to do
        assert (
            ".codex/config.toml: `goalfile hook stop --agent codex`: `--timeout 30` written "
            "into its command\n" in fixed.stdout
        ), fixed.stdout
        assert config.read_text(encoding="utf-8") == CONFIG.replace(
            'command = "goalfile hook stop --agent codex"  # goalfile\'s',
            'command = "goalfile hook stop --timeout 30 --agent codex"',
        )
        # the trust fix, as printed: trusted, and no .codex/hooks.json written beside it
        trusted = run_fix(trust["fix"])
        assert trusted.returncode == 0, trusted.explain()
        assert not (repo / ".codex" / "hooks.json").exists()
        [hook] = listed()
        assert (hook["command"], hook["timeoutSec"], hook["trustStatus"]) == (
            "goalfile hook stop --timeout 30 --agent codex",
            30,
            "trusted",
        ), hook
        after = findings(doctor())
        # the session-start hook: the trust fix's `init` wrote it into config.toml, beside the
        # Stop hook (no .codex/hooks.json), and trusted it with the Stop hook
        [start] = after.pop("start")
        assert (start["health"], start["fix"]) == ("ok", None), start
        assert config.read_text(encoding="utf-8").count("[[hooks.SessionStart]]") == 1
        assert [f["health"] for f in after["trust"]] == ["ok", "ok"], after["trust"]
        # the PostToolUse hook is named: goalfile cannot tell whether it ends the session
        [other] = after.pop("other-hook")
        assert other["health"] == "unknown", other
        assert other["detail"].startswith(".codex/config.toml:12: hooks.PostToolUse[0].hooks[0]")
        after.pop("commit", None)  # goal_repo does not commit what init wrote
        assert {f["health"] for checks in after.values() for f in checks} == {"ok"}, after

        # the real Codex runs it from config.toml: held once, one verify per stop
        run = run_codex(
            codex_cli, repo=repo, codex_home=codex_home, prompt=PROMPT, netns=isolation.netns
        )
        assert run.returncode == 0, run.explain()
        assert len(server.feedbacks()) == 1, run.explain()
        assert [e.status for e in verify_entries(repo)] == ["active", "met"]
        assert goal_state(repo)["status"] == "met"

        # `goalfile init` (every other fix doctor prints) leaves Codex's hooks where they are
        again = run_fix("goalfile init --no-goal")
        assert again.returncode == 0, again.explain()
        assert "Stop hook already in .codex/config.toml" in again.stdout, again.stdout
        assert not (repo / ".codex" / "hooks.json").exists()

        # a hooks.json beside it (an older init's): Codex lists the hook twice, doctor says so
        hooks_json = {"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "goalfile hook stop --agent codex", "timeout": 600}
        ]}]}}  # fmt: skip
        (repo / ".codex" / "hooks.json").write_text(json.dumps(hooks_json), encoding="utf-8")
        assert len(listed()) == 2
        twice = doctor()
        assert twice.returncode == 1, twice.explain()
        [declared] = findings(twice)["hook"]
        assert declared["health"] == "problem", declared
        assert declared["detail"] == (
            "the Stop hook is declared in .codex/hooks.json and in .codex/config.toml: Codex "
            "runs each of them, so every stop runs the hook (and writes a verify entry) 2 times"
        ), declared
