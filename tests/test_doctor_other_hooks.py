"""`goalfile doctor` reports what lets the agent stop whatever goalfile's Stop hook answers
(goalfile.otherhooks): a hook that is not goalfile's on a host's stop event, in every file the
host reads hooks from (a problem), one on another event (`unknown`: it can end the session
too), and each key that turns hooks off or keeps only an administrator's;
`--remove-other-stop-hooks` takes
the other stop-event hooks out of the project's own settings files only, saying which. Real
settings files, goalfile as a real process; administrators' files are written at their real
paths (`/etc/claude-code`, `/etc/codex`, `/etc/gemini-cli`) inside a mount namespace of the
test's own, over an overlay of `/etc`, so nothing outside the test sees them. What the real
Claude Code and Codex do with them: tests/hosts/test_foreign_stop_hook.py."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import clean_env, host_env, run_goalfile
from test_doctor_timeouts import doctor, run_fix
from test_doctor_timeouts import home as home
from test_doctor_timeouts import made as made
from test_doctor_timeouts import repo as repo

ENDS = "printf '%s' '{\"continue\": false}'"  # a Stop hook that ends Claude Code's session


def _write(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = value if isinstance(value, str) else json.dumps(value, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")


def _hooks(event: str, *commands: str) -> dict[str, Any]:
    return {"hooks": {event: [{"hooks": [{"type": "command", "command": c} for c in commands]}]}}


def found(report: dict[str, Any], check: str, health: str = "problem") -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["check"] == check and f["health"] == health]


def problems(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The problems but the skills' (the repository has none installed) and the hook files'
    commit (the tests write them)."""
    return [
        f
        for f in report["findings"]
        if f["health"] == "problem" and f["host"] != "skills" and f["check"] != "commit"
    ]


def test_another_stop_hook_in_the_local_settings_is_a_problem_the_fix_takes_out(
    repo: Path, home: Path
) -> None:
    local = repo / ".claude" / "settings.local.json"
    settings = _hooks("Stop", ENDS)
    settings["hooks"]["PostToolUse"] = [
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --write ."}]}
    ]
    _write(local, settings)
    report = doctor(repo, home)
    assert report["exit_code"] == 1
    [problem] = found(report, "other-hook")
    assert problem["host"] == "claude"
    assert problem["detail"].startswith(
        f".claude/settings.local.json:8: hooks.Stop[0].hooks[0]: `{ENDS}` is a Stop hook "
        "that is not goalfile's"
    ), problem
    assert '{"continue": false}' in problem["detail"]
    assert problem["fix"] == "goalfile doctor --remove-other-stop-hooks"
    # another event's hook: goalfile cannot tell what it answers, and says so
    [other] = found(report, "other-hook", "unknown")
    assert (
        "hooks.PostToolUse[0].hooks[0]: `prettier --write .` is a PostToolUse hook"
        in (other["detail"])
    )
    # the fix, run as written, takes out that hook only, and says so
    said = run_fix(problem["fix"], repo, home)
    assert (
        f"fixed: .claude/settings.local.json: hooks.Stop[0].hooks[0]: `{ENDS}` taken out" in said
    ), said
    left = json.loads(local.read_text(encoding="utf-8"))
    assert left == {"hooks": {"PostToolUse": settings["hooks"]["PostToolUse"]}}
    after = doctor(repo, home)
    assert found(after, "other-hook") == [] and problems(after) == [], after
    # goalfile's own hook is where it was
    ours = json.loads((repo / ".claude" / "settings.json").read_text(encoding="utf-8"))
    assert ours["hooks"]["Stop"][0]["hooks"][0]["command"] == "goalfile hook stop --agent claude"


def test_another_stop_hook_beside_goalfiles_in_the_same_group_is_taken_out_alone(
    repo: Path, home: Path
) -> None:
    path = repo / ".claude" / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    settings["hooks"]["Stop"][0]["hooks"].append({"type": "prompt", "prompt": "Stop now."})
    _write(path, settings)
    [problem] = found(doctor(repo, home), "other-hook")
    assert 'hooks.Stop[0].hooks[1]: `"type": "prompt"` is a Stop hook' in problem["detail"]
    said = run_fix(problem["fix"], repo, home)
    assert "hooks.Stop[0].hooks[1]" in said, said
    left = json.loads(path.read_text(encoding="utf-8"))["hooks"]["Stop"]
    assert [[h["command"] for h in g["hooks"]] for g in left] == [
        ["goalfile hook stop --agent claude"]
    ]


def test_another_stop_hook_in_the_users_settings_is_reported_never_edited(
    repo: Path, home: Path
) -> None:
    user = home / ".claude" / "settings.json"
    _write(user, _hooks("Stop", ENDS))
    before = user.read_text(encoding="utf-8")
    report = doctor(repo, home)
    [problem] = found(report, "other-hook")
    assert problem["detail"].startswith(f"{user}:8: hooks.Stop[0].hooks[0]: `{ENDS}`"), problem
    assert problem["fix"] is None
    assert problem["hint"] == f"delete hooks.Stop[0].hooks[0] (`{ENDS}`) from {user} by hand"
    said = run_fix("goalfile doctor --remove-other-stop-hooks", repo, home)
    assert "taken out" not in said, said
    assert user.read_text(encoding="utf-8") == before
    assert found(doctor(repo, home), "other-hook"), "still reported"


def test_codex_another_stop_hook_and_hooks_turned_off(repo: Path, home: Path) -> None:
    _write(repo / ".codex" / "hooks.json", _hooks("Stop", "goalfile hook stop --agent codex", ENDS))
    _write(repo / ".codex" / "config.toml", "# project\n[features]\nhooks = false\n")
    _write(
        home / ".codex" / "config.toml",
        'profile = "fast"\n\n[features]\ncodex_hooks = false\n\n'
        "[profiles.fast.features]\nhooks = false\n",
    )
    report = doctor(repo, home)
    [other] = found(report, "other-hook")
    assert other["host"] == "codex"
    assert other["detail"].startswith(f".codex/hooks.json:12: hooks.Stop[0].hooks[1]: `{ENDS}`")
    assert other["fix"] == "goalfile doctor --remove-other-stop-hooks"
    off = {f["detail"] for f in found(report, "hooks-off")}
    user = home / ".codex" / "config.toml"
    assert off == {
        ".codex/config.toml:3: `hooks = false` in `[features]`: Codex runs no hook at all, the "
        "Stop hook included, and lets the agent stop",
        f"{user}:4: `codex_hooks = false` in `[features]`: Codex runs no hook at all, the Stop "
        "hook included, and lets the agent stop",
        f"{user}:7: `hooks = false` in `[profiles.fast.features]`: Codex runs no hook at all, "
        "in every session of profile fast, the Stop hook included, and lets the agent stop",
    }, off
    assert all(f["fix"] is None and "by hand" in f["hint"] for f in found(report, "hooks-off"))
    said = run_fix(other["fix"], repo, home)
    assert f".codex/hooks.json: hooks.Stop[0].hooks[1]: `{ENDS}` taken out" in said, said
    assert (
        "only once it is trusted again: `goalfile init --no-goal --no-skills --trust-codex`" in said
    )
    assert found(doctor(repo, home), "other-hook") == []


def test_gemini_another_after_agent_hook_and_hooks_turned_off(repo: Path, home: Path) -> None:
    path = repo / ".gemini" / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    settings["hooks"]["AfterAgent"].append(
        {"hooks": [{"type": "command", "command": "echo '{\"continue\": false}'"}]}
    )
    settings["hooksConfig"] = {"disabled": ["goalfile"]}
    _write(path, settings)
    user = home / ".gemini" / "settings.json"
    _write(user, {"telemetry": {"enabled": False}, "hooksConfig": {"enabled": False}})
    report = doctor(repo, home)
    [other] = [f for f in found(report, "other-hook") if f["host"] == "gemini"]
    assert "hooks.AfterAgent[1].hooks[0]" in other["detail"], other
    at = sorted(f["detail"].split(": ", 1)[0] for f in found(report, "hooks-off"))
    assert at == [".gemini/settings.json:37", f"{user}:6"], at  # the key, not telemetry's
    off = sorted(f["detail"].split(": ", 1)[1] for f in found(report, "hooks-off"))
    assert off == [
        '"hooksConfig": {"disabled": ["goalfile"]}: Gemini CLI skips the hook of that name or '
        "command, goalfile's, and lets the agent stop",
        '"hooksConfig": {"enabled": false}: Gemini CLI runs no hook at all, the AfterAgent '
        "hook included, and lets the agent stop",
    ], off


MANAGED_SCRIPT = """
set -e
mount -t overlay overlay -o lowerdir=/etc,upperdir="$UPPER",workdir="$WORK" /etc
mkdir -p /etc/claude-code/managed-settings.d /etc/codex /etc/gemini-cli
printf '%s\\n' '{"allowManagedHooksOnly": true,' '"disableAllHooks": true}' \
  > /etc/claude-code/managed-settings.json
printf '%s\\n' "$STOP" > /etc/claude-code/managed-settings.d/50-stop.json
printf 'allow_managed_hooks_only = true\\n' > /etc/codex/requirements.toml
printf '[features]\\nhooks = false\\n' > /etc/codex/managed_config.toml
printf '%s\\n' '{"hooksConfig": {"enabled": false}}' > /etc/gemini-cli/settings.json
exec "$@"
"""


NAMESPACE = ("unshare", "--mount", "--propagation", "private", "sh", "-c", MANAGED_SCRIPT, "sh")


def test_administrators_files_are_read_where_the_hosts_read_them(
    repo: Path, home: Path, tmp_path: Path
) -> None:
    """Written at their real paths, seen by this doctor alone (its own mount namespace);
    `allowManagedHooksOnly` counts there only (Claude Code ignores it in other settings)."""
    _write(repo / ".claude" / "settings.local.json", {"allowManagedHooksOnly": True})
    (tmp_path / "upper").mkdir()
    (tmp_path / "work").mkdir()
    env = clean_env(host_env(home))
    env.update(
        UPPER=str(tmp_path / "upper"),
        WORK=str(tmp_path / "work"),
        STOP=json.dumps(_hooks("Stop", ENDS)),
    )
    done = subprocess.run(
        [*NAMESPACE, sys.executable, "-m", "goalfile", "doctor", "--json"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    off = {f["detail"].split(": ")[0]: f for f in found(report, "hooks-off")}
    claude = "/etc/claude-code/managed-settings.json"
    assert set(off) == {
        f"{claude}:1",
        f"{claude}:2",
        "/etc/codex/managed_config.toml:2",
        "/etc/codex/requirements.toml:1",
        "/etc/gemini-cli/settings.json:1",
    }, sorted(off)
    assert '"allowManagedHooksOnly": true' in off[f"{claude}:1"]["detail"]
    assert '"disableAllHooks": true' in off[f"{claude}:2"]["detail"]
    assert all(f["fix"] is None and "administrator" in f["hint"] for f in off.values())
    [stop] = found(report, "other-hook")
    assert stop["detail"].startswith(
        f"/etc/claude-code/managed-settings.d/50-stop.json:1: hooks.Stop[0].hooks[0]: `{ENDS}`"
    ), stop
    assert stop["fix"] is None and "administrator" in stop["hint"]
    # and nothing was written outside the namespace
    assert not Path("/etc/claude-code/managed-settings.d/50-stop.json").exists()
    assert (tmp_path / "upper" / "claude-code" / "managed-settings.json").is_file()


def test_text_output_names_file_line_and_fix(repo: Path, home: Path) -> None:
    _write(repo / ".claude" / "settings.local.json", _hooks("Stop", ENDS))
    done = run_goalfile("doctor", cwd=repo, env=host_env(home))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "hooks.Stop[0].hooks[0]" in line)
    assert f".claude/settings.local.json:8: hooks.Stop[0].hooks[0]: `{ENDS}`" in lines[at]
    assert lines[at + 1].strip() == "fix: goalfile doctor --remove-other-stop-hooks", lines[
        at : at + 2
    ]
    assert shlex.split(lines[at + 1].strip()[5:])[:2] == ["goalfile", "doctor"]


def test_a_hook_that_runs_goalfile_under_another_event_is_reported(repo: Path, home: Path) -> None:
    """Only under the host's stop event is a command that runs `goalfile hook stop` goalfile's
    hook: under PreToolUse, `goalfile hook stop >/dev/null; <ENDS>` ends Claude Code's session
    before any Stop hook runs, and doctor names it as it names any other event's hook."""
    path = repo / ".claude" / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    command = f"goalfile hook stop >/dev/null; {ENDS}"
    settings["hooks"]["PreToolUse"] = _hooks("PreToolUse", command)["hooks"]["PreToolUse"]
    _write(path, settings)
    report = doctor(repo, home)
    [other] = found(report, "other-hook", "unknown")
    assert f"hooks.PreToolUse[0].hooks[0]: `{command}` is a PreToolUse hook" in other["detail"]
    assert found(report, "other-hook") == [], report  # goalfile's own Stop hook is not named
