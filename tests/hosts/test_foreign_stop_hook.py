"""What the real hosts do with a hook that is not goalfile's, or a switch that turns hooks off,
and that `goalfile doctor` reports each (goalfile.otherhooks).

Claude Code 2.1.332: a second Stop hook answering `{"continue": false}` ends the session at the
first stop, whatever goalfile's hook answers (`terminal_reason: stop_hook_prevented`), and a
`PostToolUse` hook answering it ends the session before any Stop hook is asked; a second Stop
hook answering `{"decision": "approve"}` does not override goalfile's block; managed settings
(`/etc/claude-code/managed-settings.json`, written in a mount namespace of the test's own) with
`"disableAllHooks": true` or `"allowManagedHooksOnly": true` run no Stop hook of the project's.
Codex 0.171.0:
a second Stop hook in `.codex/hooks.json` answering `{"continue": false}` ends the session the
same way; `[features] hooks = false` in the project's `.codex/config.toml` runs no hook, and a Stop
hook turned off in `/hooks` (`enabled = false`) is skipped; `codex app-server` says so, and
doctor asks it. Gemini CLI 0.61.0: `"hooksConfig": {"enabled": false}`, or
`"disabled": ["goalfile"]`, in the project's `.gemini/settings.json` runs no AfterAgent hook, or
not goalfile's. The fix doctor prints, run as written (or the edit its hint names, made as
written), gets the agent held again.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_goalfile
from fake_gemini import GeminiServer
from fake_model import AnthropicServer, ResponsesServer, fix_after_feedback
from host_install import install_cli
from host_run import (
    HostRun,
    claude_env,
    codex_env,
    host_path,
    run_codex,
    run_host,
    trust_codex_hooks,
    write_codex_config,
)
from host_run_more import GEMINI_CLI, run_gemini
from hosts_fixtures import (
    CLAUDE_CODE,
    FIX,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    run_session,
    start_server,
    verify_entries,
)
from hosts_fixtures import codex_cli as codex_cli
from hosts_fixtures import isolation as isolation

ENDS = "printf '%s' '{\"continue\": false}'"
APPROVES = "printf '%s' '{\"decision\": \"approve\"}'"


def _doctor(repo: Path, *extra: str) -> dict[str, Any]:
    home = repo.parent / "home"  # the HOME run_session gives the host
    done = run_goalfile("doctor", "--json", *extra, cwd=repo, env={"HOME": str(home)})
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _found(report: dict[str, Any], check: str, health: str) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["check"] == check and f["health"] == health]


def _local_hook(repo: Path, event: str, command: str) -> None:
    settings = {"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}}
    path = repo / ".claude" / "settings.local.json"
    path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")


def _claude(repo: Path, isolation: Isolation) -> tuple[list[str], list[str]]:
    """One Claude Code session whose model fixes the goal only when a Stop hook says so: the
    Stop hook's reasons it got, and how the session ended (its result's terminal_reason)."""
    session = run_session("claude", repo, fix_after_feedback(FIX), isolation, prompt=PROMPT)
    ends = [e.get("terminal_reason") for e in session.run.events() if e.get("type") == "result"]
    return session.server.feedbacks(), ends


def test_a_second_stop_hook_that_ends_the_session_is_reported_and_its_fix_holds_again(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    _local_hook(repo, "Stop", ENDS)
    report = _doctor(repo)
    [problem] = _found(report, "other-hook", "problem")
    assert problem["detail"].startswith(
        f".claude/settings.local.json:8: hooks.Stop[0].hooks[0]: `{ENDS}` is a Stop hook"
    ), problem
    assert report["exit_code"] == 1
    # the real Claude Code, so set up: the session ends at the first stop, goalfile unheard
    feedbacks, ends = _claude(repo, isolation)
    assert feedbacks == [] and ends == ["stop_hook_prevented"], (feedbacks, ends)
    assert goal_state(repo)["status"] == "active"
    assert [e.status for e in verify_entries(repo)] == ["active"]  # the hook ran, and blocked
    # the fix, run as written
    words = shlex.split(problem["fix"])
    assert words[:2] == ["goalfile", "doctor"], problem
    fixed = run_goalfile(*words[1:], cwd=repo, env={"HOME": str(repo.parent / "home")})
    assert f"fixed: .claude/settings.local.json: hooks.Stop[0].hooks[0]: `{ENDS}` taken out" in (
        fixed.stdout
    ), fixed.stdout + fixed.stderr
    assert _found(_doctor(repo), "other-hook", "problem") == []
    feedbacks, ends = _claude(repo, isolation)
    assert len(feedbacks) == 1 and "C1 unmet" in feedbacks[0], feedbacks
    assert goal_state(repo)["status"] == "met"


def test_another_events_hook_can_end_the_session_before_the_stop_hook_and_is_named(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    _local_hook(repo, "PostToolUse", ENDS)
    [unknown] = _found(_doctor(repo), "other-hook", "unknown")
    assert "hooks.PostToolUse[0].hooks[0]" in unknown["detail"], unknown
    feedbacks, ends = _claude(repo, isolation)
    assert feedbacks == [] and ends == ["hook_stopped"], (feedbacks, ends)
    assert verify_entries(repo) == []  # no Stop hook was asked
    assert goal_state(repo)["status"] == "active"


def test_a_second_stop_hook_that_approves_is_reported_and_does_not_override_the_block(
    isolation: Isolation, tmp_path: Path
) -> None:
    """Doctor cannot tell what a command answers, so it reports this one too; Claude Code
    still holds the agent: only `continue: false` overrides goalfile's block."""
    repo = goal_repo(tmp_path)
    _local_hook(repo, "Stop", APPROVES)
    [problem] = _found(_doctor(repo), "other-hook", "problem")
    assert f"`{APPROVES}`" in problem["detail"]
    feedbacks, _ = _claude(repo, isolation)
    assert len(feedbacks) == 1 and "C1 unmet" in feedbacks[0], feedbacks
    assert goal_state(repo)["status"] == "met"


def test_codex_a_second_stop_hook_that_ends_the_session_is_reported_and_its_fix_holds_again(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    path = repo / ".codex" / "hooks.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    settings["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": ENDS}]})
    path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    [problem] = _found(_doctor(repo), "other-hook", "problem")
    assert problem["detail"].startswith(f".codex/hooks.json:17: hooks.Stop[1].hooks[0]: `{ENDS}`")
    # the real Codex: goalfile's hook ran and blocked, and the session ended all the same
    session = run_session("codex", repo, fix_after_feedback(FIX), isolation, prompt=PROMPT)
    assert session.server.feedbacks() == []
    assert [e.status for e in verify_entries(repo)] == ["active"]
    words = shlex.split(problem["fix"])
    fixed = run_goalfile(*words[1:], cwd=repo, env={"HOME": str(repo.parent / "home")})
    assert f"fixed: .codex/hooks.json: hooks.Stop[1].hooks[0]: `{ENDS}` taken out" in (
        fixed.stdout
    ), fixed.stdout + fixed.stderr
    assert json.loads(path.read_text(encoding="utf-8"))["hooks"]["Stop"] == [
        {"hooks": [{"type": "command", "command": "goalfile hook stop --agent codex",
                    "timeout": 600}]}
    ]  # fmt: skip
    session = run_session("codex", repo, fix_after_feedback(FIX), isolation, prompt=PROMPT)
    feedbacks = session.server.feedbacks()
    assert len(feedbacks) == 1 and "C1 unmet" in feedbacks[0], feedbacks
    assert goal_state(repo)["status"] == "met"


def _goalfile_with_codex(
    *args: str, repo: Path, codex: Path, codex_home: Path, isolation: Isolation
) -> HostRun:
    env = codex_env(codex_home=codex_home)
    env["PATH"] = f"{codex.parent}:{env['PATH']}"  # `codex` on PATH, as for a user who has it
    argv = [sys.executable, "-m", "goalfile", *args]
    return run_host(argv, cwd=repo, env=env, netns=isolation.netns, timeout=60)


def _codex_session(
    repo: Path, codex: Path, codex_home: Path, isolation: Isolation, *, extra: str
) -> list[str]:
    """One Codex session (the user's config.toml written afresh, the project's hooks trusted
    as `/hooks` does, then ``extra`` added at its end, in the last hook's trust table): the
    Stop hook's reasons the model got."""
    with start_server(ResponsesServer, fix_after_feedback(FIX), isolation) as server:
        write_codex_config(codex_home, server_url=server.url, repo=repo)
        trust_codex_hooks(codex, repo=repo, codex_home=codex_home, netns=isolation.netns)
        with (codex_home / "config.toml").open("a", encoding="utf-8") as config:
            config.write(extra)
        run = run_codex(codex, repo=repo, codex_home=codex_home, prompt=PROMPT,
                        netns=isolation.netns)  # fmt: skip
        assert run.returncode == 0, run.explain()
        return server.feedbacks()


@pytest.mark.parametrize("where", ["project", "hook"])
def test_codex_hooks_turned_off_are_reported_and_the_edit_named_holds_again(
    where: str, codex_cli: Path, isolation: Isolation, tmp_path: Path
) -> None:
    """``project``: `[features] hooks = false` in the project's .codex/config.toml; ``hook``:
    goalfile's hook turned off as `/hooks` does (`enabled = false` under its key)."""
    repo = goal_repo(tmp_path)
    codex_home = tmp_path / "home" / ".codex"
    project = repo / ".codex" / "config.toml"
    key = f"{repo.resolve()}/.codex/hooks.json:stop:0:0"
    extra = "enabled = false\n" if where == "hook" else ""  # under the hook's trust table
    if where == "project":
        project.write_text("[features]\nhooks = false\n", encoding="utf-8")
    feedbacks = _codex_session(repo, codex_cli, codex_home, isolation, extra=extra)
    assert feedbacks == [] and verify_entries(repo) == [], feedbacks  # no hook ran
    done = _goalfile_with_codex("doctor", "--json", repo=repo, codex=codex_cli,
                                codex_home=codex_home, isolation=isolation)  # fmt: skip
    assert done.returncode == 1, done.explain()
    report = json.loads(done.stdout)
    if where == "project":
        [problem] = _found(report, "hooks-off", "problem")
        assert problem["detail"].startswith(".codex/config.toml:2: `hooks = false` in "), problem
        assert (
            problem["hint"]
            == "delete `hooks = false` in `[features]` from .codex/config.toml by hand"
        )
        project.write_text("[features]\n", encoding="utf-8")  # the edit, as the hint says
    else:
        [problem] = [f for f in _found(report, "trust", "problem") if "turned off" in f["detail"]]
        assert f"{key} has `enabled = false`" in problem["detail"], problem
        extra = ""  # the line deleted, as the hint says (config.toml is written afresh)
    feedbacks = _codex_session(repo, codex_cli, codex_home, isolation, extra=extra)
    assert len(feedbacks) == 1 and "C1 unmet" in feedbacks[0], feedbacks
    assert goal_state(repo)["status"] == "met"


def _gemini_session(repo: Path, isolation: Isolation) -> list[str]:
    """One Gemini CLI session whose model fixes the goal only when the hook says so: the
    reasons it got."""
    with start_server(GeminiServer, fix_after_feedback(FIX), isolation) as server:
        run = run_gemini(install_cli(GEMINI_CLI), repo=repo, home=repo.parent / "home",
                         server_url=server.url, prompt=PROMPT, netns=isolation.netns)  # fmt: skip
    assert run.returncode == 0, run.explain()
    return server.feedbacks()


@pytest.mark.parametrize("switch", [{"enabled": False}, {"disabled": ["goalfile"]}])
def test_gemini_hooks_turned_off_are_reported_and_the_edit_named_holds_again(
    switch: dict[str, Any], isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    path = repo / ".gemini" / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**settings, "hooksConfig": switch}, indent=2), encoding="utf-8")
    [problem] = [f for f in _found(_doctor(repo), "hooks-off", "problem") if f["host"] == "gemini"]
    assert problem["detail"].startswith(".gemini/settings.json:"), problem
    assert f'"hooksConfig": {json.dumps(switch)}' in problem["detail"], problem
    assert _gemini_session(repo, isolation) == [] and verify_entries(repo) == []
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")  # the switch deleted
    assert _found(_doctor(repo), "hooks-off", "problem") == []
    feedbacks = _gemini_session(repo, isolation)
    assert len(feedbacks) == 1 and "C1 unmet" in feedbacks[0], feedbacks
    assert goal_state(repo)["status"] == "met"


MANAGED = """
set -e
mount -t overlay overlay -o lowerdir=/etc,upperdir="$UPPER",workdir="$WORK" /etc
mkdir -p /etc/claude-code
printf '%s\\n' "$MANAGED" > /etc/claude-code/managed-settings.json
exec "$@"
"""
"""Run the rest of the command line where /etc/claude-code/managed-settings.json holds
$MANAGED: an overlay of /etc in a mount namespace of its own, seen by nothing else."""


def _managed(tmp_path: Path, settings: dict[str, Any], env: dict[str, str]) -> list[str]:
    """``env`` for a command run under :data:`MANAGED` with ``settings``; the argv prefix."""
    for name in ("upper", "work"):
        (tmp_path / name).mkdir(exist_ok=True)
    env.update(UPPER=str(tmp_path / "upper"), WORK=str(tmp_path / "work"),
               MANAGED=json.dumps(settings))  # fmt: skip
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", MANAGED, "sh"]


def _under_managed(
    repo: Path, tmp_path: Path, settings: dict[str, Any], isolation: Isolation
) -> tuple[list[dict[str, Any]], list[str]]:
    """Doctor's switch problems, and the Stop hook's reasons a Claude Code session got, both
    run where the managed settings are ``settings``."""
    env = {"PATH": host_path(), "HOME": str(tmp_path / "home")}
    prefix = _managed(tmp_path, settings, env)
    done = run_host([*prefix, sys.executable, "-m", "goalfile", "doctor", "--json"], cwd=repo,
                    env=env, netns=None)  # fmt: skip
    assert "Traceback" not in done.stderr, done.explain()
    off = _found(json.loads(done.stdout), "hooks-off", "problem")
    with start_server(AnthropicServer, fix_after_feedback(FIX), isolation) as server:
        run_env = claude_env(home=tmp_path / "home", server_url=server.url)
        argv = [*_managed(tmp_path, settings, run_env), str(install_cli(CLAUDE_CODE)),
                "-p", PROMPT, "--output-format", "stream-json", "--verbose",
                "--allowedTools", "Bash"]  # fmt: skip
        run = run_host(argv, cwd=repo, env=run_env, netns=isolation.netns)
    assert run.returncode == 0, run.explain()
    return off, server.feedbacks()


@pytest.mark.parametrize("key", ["disableAllHooks", "allowManagedHooksOnly"])
def test_claude_managed_settings_that_run_no_project_hook_are_reported(
    key: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    off, feedbacks = _under_managed(repo, tmp_path, {key: True}, isolation)
    [problem] = off
    assert problem["detail"].startswith(
        f'/etc/claude-code/managed-settings.json:1: "{key}": true: Claude Code runs '
    ), problem
    assert problem["fix"] is None and "administrator" in problem["hint"], problem
    assert feedbacks == [] and verify_entries(repo) == []  # no Stop hook ran
    assert goal_state(repo)["status"] == "active"
    # the key taken out (by whoever manages the file): held until the goal is met
    off, feedbacks = _under_managed(repo, tmp_path, {}, isolation)
    assert off == [] and len(feedbacks) == 1 and "C1 unmet" in feedbacks[0], (off, feedbacks)
    assert goal_state(repo)["status"] == "met"
