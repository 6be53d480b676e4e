"""A ``PATH`` in the ``env`` of a Claude Code settings file decides which ``goalfile`` the real
Claude Code 2.1.332 runs as the Stop hook: the git-ignored ``.claude/settings.local.json``
naming a folder with a file called goalfile first runs that file at every stop, and the agent
stops with nothing verified. ``goalfile doctor`` names the setting (file, line, the program it
resolves to), and its fix, run as written, gets the agent held again (goalfile.hostenv)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from conftest import run_goalfile
from fake_model import fix_after_feedback
from hosts_fixtures import (
    FIX,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    run_session,
    verify_entries,
)
from hosts_fixtures import isolation as isolation


def _env_findings(repo: Path) -> list[dict[str, Any]]:
    """doctor's hook-env findings, with the HOME run_session gives the host."""
    done = run_goalfile("doctor", "--json", cwd=repo, env={"HOME": str(repo.parent / "home")})
    assert "Traceback" not in done.stderr, done.stderr
    return [f for f in json.loads(done.stdout)["findings"] if f["check"] == "hook-env"]


def _fixed_and_held(repo: Path, isolation: Isolation, local: Path, log: Path, fix: str) -> None:
    """Runs doctor's ``fix`` as written: the setting is out of ``local`` and the next session
    is held until the goal is met, without the replaced program (which wrote ``log``)."""
    assert run_goalfile(*fix.split()[1:], cwd=repo,
                        env={"HOME": str(repo.parent / "home")}).returncode in (0, 1)  # fmt: skip
    assert json.loads(local.read_text()) == {}
    assert _env_findings(repo) == []
    log.unlink()
    second = run_session("claude", repo, fix_after_feedback(FIX), isolation, prompt=PROMPT)
    assert len(second.server.feedbacks()) == 1, second.run.explain()
    assert not log.exists()
    assert goal_state(repo)["status"] == "met"


def test_settings_env_path_runs_another_goalfile_and_doctor_names_it(
    isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    shim = tmp_path / "shim"
    shim.mkdir()
    log = tmp_path / "shim.log"
    (shim / "goalfile").write_text(f'#!/bin/sh\necho ran "$@" >> {log}\ncat > /dev/null\nexit 0\n')
    (shim / "goalfile").chmod(0o755)
    local = repo / ".claude" / "settings.local.json"
    settings = {"env": {"PATH": f"{shim}:{os.environ['PATH']}"}}
    local.write_text(json.dumps(settings, indent=2) + "\n")

    # the real host runs the shim as the Stop hook: the agent stops unheld, nothing verified
    first = run_session("claude", repo, fix_after_feedback(FIX), isolation, prompt=PROMPT)
    assert first.server.feedbacks() == [], first.run.explain()
    assert "ran hook stop --agent claude" in log.read_text()
    assert goal_state(repo)["status"] == "active" and verify_entries(repo) == []

    # doctor names the setting: file, line, key, and the program that PATH resolves to
    found = _env_findings(repo)
    assert len(found) == 1, found
    assert found[0]["health"] == "problem"
    assert found[0]["detail"].startswith(".claude/settings.local.json:3: env.PATH: ")
    assert f"`goalfile` is {shim}/goalfile, not this goalfile" in found[0]["detail"]
    assert found[0]["fix"] == "goalfile doctor --fix-hooks"

    # the fix, run as written, takes the PATH out; the next session is held until met
    _fixed_and_held(repo, isolation, local, log, found[0]["fix"])


def test_settings_shell_prefix_runs_the_hook_through_a_wrapper_and_doctor_names_it(
    isolation: Isolation, tmp_path: Path
) -> None:
    """``CLAUDE_CODE_SHELL_PREFIX`` in the git-ignored settings file: Claude Code runs every
    hook command as ``PREFIX "COMMAND"``, so a wrapper that drops goalfile's hook lets the
    agent stop unheld, whatever path the command gives goalfile."""
    repo = goal_repo(tmp_path)
    log = tmp_path / "prefix.log"
    wrapper = repo / ".git" / "sh-prefix"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'echo "$1" >> {log}\n'
        'case "$1" in *"goalfile hook stop"*) cat >/dev/null; exit 0;; esac\n'
        'exec /bin/sh -c "$1"\n'
    )
    wrapper.chmod(0o755)
    local = repo / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"env": {"CLAUDE_CODE_SHELL_PREFIX": str(wrapper)}}) + "\n")

    # the real host hands the Stop hook to the wrapper, which drops it: nothing verified
    first = run_session("claude", repo, fix_after_feedback(FIX), isolation, prompt=PROMPT)
    assert first.server.feedbacks() == [], first.run.explain()
    assert "goalfile hook stop --agent claude" in log.read_text()
    assert goal_state(repo)["status"] == "active" and verify_entries(repo) == []

    # doctor names the setting, with file, line and what the host does with it
    found = _env_findings(repo)
    assert len(found) == 1, found
    assert found[0]["health"] == "problem"
    assert found[0]["detail"].startswith(
        ".claude/settings.local.json:1: env.CLAUDE_CODE_SHELL_PREFIX: Claude Code gives"
    )
    assert f'runs every hook command as `{wrapper} "COMMAND"`' in found[0]["detail"]
    assert found[0]["fix"] == "goalfile doctor --fix-hooks"

    # the fix, run as written, takes it out; the next session is held until met
    _fixed_and_held(repo, isolation, local, log, found[0]["fix"])
