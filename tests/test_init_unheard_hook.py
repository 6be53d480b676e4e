"""`goalfile init` does not call a goalfile Stop hook its host kills before it answers "already
there": a ``"timeout": 1`` written next to the hook (by anyone: the agent can edit the settings
file) makes the host kill the hook at 1 s and let the agent stop unheard, which `goalfile
doctor` reports. init gives the hook the time of its ``--timeout`` in the files it writes,
keeping every other setting, and names a Codex ``config.toml`` it does not write with the fix
doctor prints, which is run here as written. goalfile runs as a real process in a real git
repository.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import host_env, make_git_repo, run_goalfile

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test

SETTINGS = {
    "claude": (Path(".claude") / "settings.json", "Stop", 1, 600),
    "codex": (Path(".codex") / "hooks.json", "Stop", 1, 600),
    "gemini": (Path(".gemini") / "settings.json", "AfterAgent", 1000, 600000),
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return make_git_repo(tmp_path / "project")


def timeout_health(root: Path, env: dict[str, str]) -> dict[str, list[str]]:
    done = run_goalfile("doctor", "--json", cwd=root, env=env)
    document: dict[str, Any] = json.loads(done.stdout)
    found: dict[str, list[str]] = {}
    for finding in document["findings"]:
        if finding["check"] == "timeout":
            found.setdefault(finding["host"], []).append(finding["health"])
    return found


@pytest.mark.parametrize("agent", sorted(SETTINGS))
def test_a_hook_its_host_kills_at_once_is_given_its_time(repo: Path, agent: str) -> None:
    path, event, planted, wanted = SETTINGS[agent]
    entry: dict[str, object] = {
        "type": "command",
        "command": f"goalfile hook stop --agent {agent}",
        "timeout": planted,
    }
    if agent == "gemini":
        entry = {"name": "goalfile", **entry}
    settings = {
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {
            event: [{"hooks": [entry]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
        },
    }
    (repo / path).parent.mkdir()
    (repo / path).write_text(json.dumps(settings, indent=4) + "\n", "utf-8")
    env = host_env(repo.parent / "home")
    assert "problem" in timeout_health(repo, env)[agent]

    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)

    assert done.returncode == 0, done.stderr
    assert f"Stop hook already in {path}" not in done.stdout
    said = [line for line in done.stdout.splitlines() if line.startswith(f"fixed {path}: ")]
    assert len(said) == 1, done.stdout
    assert f'"timeout": {planted} (' in said[0]
    assert f'"timeout": {wanted} written in its place' in said[0]
    assert f"hooks.{event}[0].hooks[0]" in said[0]
    after = json.loads((repo / path).read_text("utf-8"))
    start = after["hooks"].pop("SessionStart")  # added beside it, with its own time
    assert [h["command"] for g in start for h in g["hooks"]] == [
        f"goalfile hook start --agent {agent}"
    ]
    assert f"registered the session-start hook in {path}" in done.stdout
    assert after == {
        **settings,
        "hooks": {**settings["hooks"], event: [{"hooks": [{**entry, "timeout": wanted}]}]},
    }
    assert (repo / path).read_text("utf-8").startswith('{\n    "')  # its indentation kept
    assert timeout_health(repo, env)[agent] == ["ok"]
    again = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)
    assert again.returncode == 0, again.stderr
    assert f"Stop hook already in {path}" in again.stdout


def test_a_codex_config_toml_init_does_not_write_is_named_with_a_fix_that_works(
    repo: Path,
) -> None:
    config = repo / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(
        "[features]\ncodex_hooks = true\n\n[[hooks.Stop]]\n\n[[hooks.Stop.hooks]]\n"
        'type = "command"\ncommand = "goalfile hook stop --agent codex"\ntimeout = 1\n',
        "utf-8",
    )
    env = host_env(repo.parent / "home")

    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)

    assert done.returncode == 3, done.stderr
    assert "Stop hook already in .codex/config.toml" not in done.stdout
    assert not (repo / ".codex" / "hooks.json").exists()  # Codex would run it twice
    assert "goalfile: .codex/config.toml:9: Codex gives the Stop hook 1 s" in done.stderr
    fix = done.stderr.split("fix: ", 1)[1].splitlines()[0]
    assert fix == "goalfile doctor --fix-timeouts"
    ran = subprocess.run(
        fix, shell=True, cwd=repo, env=env, capture_output=True, text=True, timeout=60
    )
    assert "fixed: .codex/config.toml" in ran.stdout, ran.stdout + ran.stderr
    assert timeout_health(repo, env)["codex"] == ["ok"]
    again = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=env)
    assert again.returncode == 0, again.stderr
    assert "Stop hook already in .codex/config.toml" in again.stdout
