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
from fake_model import AnthropicServer, fix_after_feedback
from host_install import install_cli
from host_run import run_claude
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
from hosts_fixtures import isolation as isolation


def _env_findings(repo: Path) -> list[dict[str, Any]]:
    """doctor's hook-env findings, with the HOME run_session gives the host."""
    done = run_goalfile("doctor", "--json", cwd=repo, env={"HOME": str(repo.parent / "home")})
    assert "Traceback" not in done.stderr, done.stderr
    return [f for f in json.loads(done.stdout)["findings"] if f["check"] == "hook-env"]


def _reasons(repo: Path, isolation: Isolation, claude: Path | None) -> list[str]:
    """The block reasons one session of the real Claude Code (``claude``, else the pinned one
    as run_session starts it) sent its model, which meets the goal once told."""
    if claude is None:
        session = run_session("claude", repo, fix_after_feedback(FIX), isolation, prompt=PROMPT)
        return session.server.feedbacks()
    with start_server(AnthropicServer, fix_after_feedback(FIX), isolation) as server:
        home, url = repo.parent / "home", server.url
        run = run_claude(
            claude, repo=repo, home=home, server_url=url, prompt=PROMPT, netns=isolation.netns
        )
    assert run.returncode == 0, run.explain()
    return server.feedbacks()


def _fixed_and_held(
    repo: Path,
    isolation: Isolation,
    local: Path,
    log: Path | None,
    fix: str,
    claude: Path | None = None,
) -> None:
    """Runs doctor's ``fix`` as written: the setting is out of ``local`` and the next session
    is held until the goal is met, without the replaced program (which wrote ``log``)."""
    assert run_goalfile(*fix.split()[1:], cwd=repo,
                        env={"HOME": str(repo.parent / "home")}).returncode in (0, 1)  # fmt: skip
    assert json.loads(local.read_text()) == {}
    assert _env_findings(repo) == []
    if log is not None:
        log.unlink()
    assert len(_reasons(repo, isolation, claude)) == 1
    assert log is None or not log.exists()
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


def test_settings_bash_function_shadows_goalfile_where_sh_is_bash(
    isolation: Isolation, tmp_path: Path
) -> None:
    """``BASH_FUNC_goalfile%%`` in a settings ``env``: Claude Code runs a hook with ``/bin/sh
    -c``, and where ``/bin/sh`` is bash (Fedora, Arch, macOS) bash imports the function, so
    ``goalfile`` in the hook command is that function. Run here with bash bound over this
    machine's ``/bin/sh`` in a mount namespace of the session's own."""
    repo = goal_repo(tmp_path)
    claude = tmp_path / "claude-sh-is-bash"
    claude.write_text(
        "#!/bin/sh\nexec unshare -m --propagation private sh -c "
        '\'mount --bind /bin/bash "$(readlink -f /bin/sh)" && exec "$0" "$@"\' '
        f'{install_cli(CLAUDE_CODE)} "$@"\n'
    )
    claude.chmod(0o755)
    local = repo / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"env": {"BASH_FUNC_goalfile%%": "() { cat >/dev/null; }"}}))

    # the function answers for goalfile: the agent stops unheld, nothing verified
    assert _reasons(repo, isolation, claude) == []
    assert goal_state(repo)["status"] == "active" and verify_entries(repo) == []

    found = _env_findings(repo)
    assert [(f["health"], f["fix"]) for f in found] == [("problem", "goalfile doctor --fix-hooks")]
    assert found[0]["detail"].startswith(
        ".claude/settings.local.json:1: env.BASH_FUNC_goalfile%%: Claude Code gives"
    )
    _fixed_and_held(repo, isolation, local, None, found[0]["fix"], claude)
