"""doctor names the variables a host's settings give goalfile's Stop hook that decide which
`goalfile` it starts (goalfile.hostenv): Claude Code's `env` in each settings file it reads,
a Gemini CLI hook entry's own `env`; `--fix-hooks` takes them out of the project's files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import make_git_repo, run_goalfile


def _setup(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = make_git_repo(tmp_path / "repo")
    env = {"HOME": str(tmp_path / "home")}
    (tmp_path / "home").mkdir()
    assert run_goalfile("init", "--no-goal", cwd=repo, env=env).returncode == 0
    return repo, env


def _env_findings(repo: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    return [f for f in json.loads(done.stdout)["findings"] if f["check"] == "hook-env"]


def test_user_settings_env_is_named_with_a_fix_by_hand(tmp_path: Path) -> None:
    repo, env = _setup(tmp_path)
    user = tmp_path / "home" / ".claude" / "settings.json"
    user.parent.mkdir(parents=True)
    user.write_text('{\n  "env": {\n    "PYTHONPATH": "/tmp/x",\n    "FOO": "1"\n  }\n}\n')
    found = _env_findings(repo, env)
    assert [f["health"] for f in found] == ["problem", "unknown"], found
    assert found[1]["detail"].startswith(f"{user}:4: env.FOO: Claude Code gives every hook")
    assert found[1]["hint"] == f"delete env.FOO from {user} unless you set it on purpose"
    assert found[0]["health"] == "problem" and found[0]["fix"] is None
    assert found[0]["detail"].startswith(f"{user}:3: env.PYTHONPATH: Claude Code gives")
    assert found[0]["hint"] == f"delete env.PYTHONPATH from {user} by hand"


def test_path_without_goalfile_says_the_hook_cannot_start(tmp_path: Path) -> None:
    repo, env = _setup(tmp_path)
    local = repo / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"env": {"PATH": "/nowhere"}}) + "\n")
    (found,) = _env_findings(repo, env)
    assert found["detail"].endswith("on that PATH there is no `goalfile`, so the hook cannot start")


def test_gemini_hook_entry_env_and_the_fix_as_written(tmp_path: Path) -> None:
    repo, env = _setup(tmp_path)
    path = repo / ".gemini" / "settings.json"
    document = json.loads(path.read_text())
    entry = document["hooks"]["AfterAgent"][0]["hooks"][0]
    entry["env"] = {"BASH_ENV": "/tmp/evil.sh"}
    path.write_text(json.dumps(document, indent=2) + "\n")
    (found,) = _env_findings(repo, env)
    assert found["host"] == "gemini" and found["fix"] == "goalfile doctor --fix-hooks"
    assert "hooks.AfterAgent[0].hooks[0].env.BASH_ENV: Gemini CLI gives" in found["detail"]
    fixed = run_goalfile(*found["fix"].split()[1:], cwd=repo, env=env)
    assert "fixed: .gemini/settings.json: hooks.AfterAgent[0].hooks[0].env.BASH_ENV taken out" in (
        fixed.stdout + fixed.stderr
    )
    assert "env" not in json.loads(path.read_text())["hooks"]["AfterAgent"][0]["hooks"][0]
    assert _env_findings(repo, env) == []


def test_gemini_env_file_is_named_as_unknown(tmp_path: Path) -> None:
    repo, env = _setup(tmp_path)
    (repo / ".gemini" / ".env").write_text("GEMINI_API_KEY=x\nexport BASH_ENV=/tmp/e.sh\nPATH=/x\n")
    found = _env_findings(repo, env)
    assert [(f["host"], f["health"]) for f in found] == [("gemini", "unknown")], found
    assert found[0]["detail"].startswith(".gemini/.env:2: `BASH_ENV=/tmp/e.sh`: Gemini CLI sets it")
    assert found[0]["hint"] == "delete line 2 from .gemini/.env unless you set it on purpose"


def test_claude_code_shell_and_hook_variables_are_named_others_are_not(tmp_path: Path) -> None:
    repo, env = _setup(tmp_path)
    names = ["CLAUDE_CODE_SHELL_PREFIX", "SHELL", "CLAUDE_CODE_SHELL", "HOME",
             "CLAUDE_CODE_HOOKS_SAME_THREAD", "PYTHONWARNINGS", "BASH_FUNC_goalfile%%"]  # fmt: skip
    harmless = {"ANTHROPIC_MODEL": "x", "DISABLE_TELEMETRY": "1", "HTTPS_PROXY": "x"}
    unknown = {"WEBHOOK_URL": "x", "CLAUDE_CODE_MAX_OUTPUT_TOKENS": "9"}
    local = repo / ".claude" / "settings.local.json"
    settings = {**dict.fromkeys(names, "/x"), **harmless, **unknown}
    local.write_text(json.dumps({"env": settings}) + "\n")
    found = _env_findings(repo, env)
    named = [(f["health"], f["detail"].split(": ")[1]) for f in found]
    assert named == [("problem", f"env.{n}") for n in names] + [
        ("unknown", f"env.{n}") for n in unknown
    ], found
    fixed = run_goalfile("doctor", "--fix-hooks", cwd=repo, env=env)
    assert "Traceback" not in fixed.stderr
    assert json.loads(local.read_text()) == {"env": {**harmless, **unknown}}
