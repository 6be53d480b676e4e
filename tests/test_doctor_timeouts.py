"""`goalfile doctor` checks the time each host gives goalfile's Stop hook against the hook's own
`--timeout`: Claude Code and Codex kill a hook at the `timeout` of their settings and let the
agent stop, whatever it printed (tests/hosts/test_hook_time.py), so a host timeout below
`--timeout` lets the agent stop unheard. Real settings files as `goalfile init` writes them,
edited as a person would; goalfile runs as a real process, and every `fix:` printed is run as
written.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import clean_env, copy_of, host_env, made_once, run_goalfile, stop_input

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def _init(root: Path, env: dict[str, str]) -> None:
    home = root.parent / "repo-home"  # given to init, which writes nothing there
    home.mkdir()
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=root, env={**host_env(home), **env})
    assert done.returncode == 0, done.stderr
    assert not any(home.iterdir())
    home.rmdir()


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _init)


@pytest.fixture
def repo(tmp_path: Path, home: Path, made: Path) -> Path:
    """A repository set up by `goalfile init` (the hooks, no goal, no skills): a copy of one
    made once for the module."""
    return copy_of(made, tmp_path / "repo")


def edit(path: Path, event: str = "Stop", **changes: object) -> None:
    """Change goalfile's hook entry in a settings file as a person would (None: delete)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    entry = document["hooks"][event][0]["hooks"][0]
    for key, value in changes.items():
        if value is None:
            entry.pop(key, None)
        else:
            entry[key] = value
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def hook_entry(path: Path, event: str = "Stop") -> dict[str, Any]:
    entry = json.loads(path.read_text(encoding="utf-8"))["hooks"][event][0]["hooks"][0]
    assert isinstance(entry, dict)
    return entry


def doctor(repo: Path, home: Path, *extra: str) -> dict[str, Any]:
    done = run_goalfile("doctor", "--json", *extra, cwd=repo, env=host_env(home))
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["exit_code"] == done.returncode
    return report


def timeouts(report: dict[str, Any], health: str | None = None) -> list[dict[str, Any]]:
    return [
        f
        for f in report["findings"]
        if f["check"] == "timeout" and (health is None or f["health"] == health)
    ]


def run_fix(command: str, repo: Path, home: Path) -> str:
    words = shlex.split(command)
    assert words[0] == "goalfile"
    done = run_goalfile(*words[1:], cwd=repo, env=host_env(home))
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def run_as_host(command: str, repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """A registered command, run as the host runs it at a stop: `sh -c COMMAND`, the host's
    JSON on stdin."""
    return subprocess.run(
        ["sh", "-c", command],
        cwd=repo,
        env=clean_env(host_env(home)),
        input=stop_input(repo),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def answers(command: str, repo: Path, home: Path) -> dict[str, Any]:
    """What the registered command answers when the host runs it (:func:`run_as_host`), which
    must be a real verdict, not a refused command line."""
    done = run_as_host(command, repo, home)
    assert done.returncode == 0, done.stderr
    assert "goalfile hook stop: " not in done.stderr, done.stderr  # a refused command line
    assert "no active goal" in done.stderr, done.stderr
    return json.loads(done.stdout or "{}")  # type: ignore[no-any-return]


def test_the_hooks_init_registers_get_the_time_they_count_on(repo: Path, home: Path) -> None:
    report = doctor(repo, home)
    found = {f["host"]: f for f in timeouts(report)}
    assert set(found) == {"claude", "codex", "gemini"}, report
    assert all(f["health"] == "ok" for f in found.values()), found
    assert "gives the Stop hook 600 s" in found["claude"]["detail"]
    assert '"timeout": 600000' in found["gemini"]["detail"]  # Gemini CLI's are milliseconds


def test_a_lower_claude_timeout_is_a_problem_whose_fix_keeps_it_and_lowers_the_hooks(
    repo: Path, home: Path
) -> None:
    settings = repo / ".claude" / "settings.json"
    edit(settings, timeout=120)
    report = doctor(repo, home)
    assert report["ok"] is False
    [problem] = timeouts(report, "problem")
    assert problem["host"] == "claude"
    assert problem["detail"].startswith(
        '.claude/settings.json: Claude Code gives the Stop hook 120 s (its "timeout": 120), '
        "less than the 600 s its `--timeout` counts on"
    ), problem
    assert "lets the agent stop unheard" in problem["detail"]
    assert problem["fix"] == "goalfile doctor --fix-timeouts"
    printed = run_fix(problem["fix"], repo, home)
    assert "fixed: .claude/settings.json: `goalfile hook stop --agent claude`: " in printed
    entry = hook_entry(settings)
    assert entry == {
        "type": "command",
        "command": "goalfile hook stop --timeout 120 --agent claude",
        "timeout": 120,
    }
    assert timeouts(doctor(repo, home), "problem") == []
    # the command as rewritten is one the hook accepts: it gives a real answer (no goal here)
    assert answers(entry["command"], repo, home) == {}


def test_a_codex_hook_whose_timeout_exceeds_codexs_default_gets_it_written(
    repo: Path, home: Path
) -> None:
    """No `timeout` in .codex/hooks.json gives Codex's 600 s; `--timeout 900` counts on more."""
    hooks = repo / ".codex" / "hooks.json"
    edit(hooks, timeout=None, command="goalfile hook stop --agent codex --timeout=900")
    [problem] = timeouts(doctor(repo, home), "problem")
    assert problem["host"] == "codex"
    assert (
        "Codex gives the Stop hook 600 s (its default: .codex/hooks.json names no timeout)"
        in (problem["detail"])
    )
    assert "900 s its `--timeout` counts on" in problem["detail"]
    report = doctor(repo, home, "--fix-timeouts")
    assert report["fixed"] == [
        '.codex/hooks.json: `goalfile hook stop --agent codex --timeout=900`: "timeout": 900 '
        "written next to its command",
        ".codex/hooks.json: Codex runs a changed hook only once it is trusted again: "
        "`goalfile init --no-goal --no-skills --trust-codex`, or `/hooks` in Codex",
    ]
    assert hook_entry(hooks)["timeout"] == 900
    assert timeouts(report, "problem") == []


def test_a_codex_timeout_codex_cannot_read_is_a_problem_fixed_to_its_whole_seconds(
    repo: Path, home: Path
) -> None:
    hooks = repo / ".codex" / "hooks.json"
    edit(hooks, timeout=30.5)
    [problem] = timeouts(doctor(repo, home), "problem")
    assert "rejects the whole file: none of its hooks runs" in problem["detail"], problem
    assert '"timeout": 600 (seconds)' in problem["hint"]
    run_fix(problem["fix"], repo, home)
    assert hook_entry(hooks) == {
        "type": "command",
        "command": "goalfile hook stop --timeout 30 --agent codex",
        "timeout": 30,
    }
    assert timeouts(doctor(repo, home), "problem") == []


def test_a_claude_timeout_claude_code_cannot_read_gets_the_hooks(repo: Path, home: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    edit(settings, timeout=0)
    [problem] = timeouts(doctor(repo, home), "problem")
    assert 'the Stop hook\'s "timeout": 0 is no timeout' in problem["detail"], problem
    run_fix(problem["fix"], repo, home)
    assert hook_entry(settings)["timeout"] == 600
    assert timeouts(doctor(repo, home), "problem") == []


def test_a_gemini_hook_without_a_timeout_gets_gemini_clis_60_seconds(
    repo: Path, home: Path
) -> None:
    settings = repo / ".gemini" / "settings.json"
    edit(settings, "AfterAgent", timeout=None)
    [problem] = timeouts(doctor(repo, home), "problem")
    assert problem["host"] == "gemini"
    assert "Gemini CLI gives the Stop hook 60 s" in problem["detail"], problem
    run_fix(problem["fix"], repo, home)
    assert hook_entry(settings, "AfterAgent")["timeout"] == 600_000


def test_the_local_and_the_users_settings_are_checked_too(repo: Path, home: Path) -> None:
    """Claude Code also reads .claude/settings.local.json and the user's settings.json."""
    local = repo / ".claude" / "settings.local.json"
    user = home / ".claude" / "settings.json"
    hook = {"type": "command", "command": "goalfile hook stop --agent claude --timeout 300"}
    for path, seconds in ((local, 60), (user, 90)):
        path.parent.mkdir(parents=True, exist_ok=True)
        document = {"model": "x", "hooks": {"Stop": [{"hooks": [{**hook, "timeout": seconds}]}]}}
        path.write_text(json.dumps(document, indent=4) + "\n", encoding="utf-8")
    problems = timeouts(doctor(repo, home), "problem")
    assert [p["detail"].split(":", 1)[0] for p in problems] == [
        ".claude/settings.local.json",
        str(user),
    ], problems
    assert "gives the Stop hook 60 s" in problems[0]["detail"]
    assert "gives the Stop hook 90 s" in problems[1]["detail"]
    done = run_goalfile("doctor", "--fix-timeouts", cwd=repo, env=host_env(home))
    assert f"fixed: {user}: " in done.stdout, done.stdout
    assert "fixed: .claude/settings.local.json: " in done.stdout, done.stdout
    assert hook_entry(local)["command"].endswith("--timeout 60")
    assert hook_entry(user)["command"].endswith("--timeout 90")
    assert json.loads(user.read_text(encoding="utf-8"))["model"] == "x"  # the rest is kept
    assert "\n    " in user.read_text(encoding="utf-8")  # in its own indentation
    assert timeouts(doctor(repo, home), "problem") == []


@pytest.mark.parametrize("value", ["0.5", "inf", "nan", "1e10"])
def test_a_timeout_the_hook_refuses_is_a_problem(repo: Path, home: Path, value: str) -> None:
    """`--timeout 0.5` (or no finite number of seconds up to a day) is refused by the hook's
    command line, which then lets every stop through; the hook itself says so and exits 0."""
    command = f"goalfile hook stop --timeout {value}"
    edit(repo / ".claude" / "settings.json", command=command)
    [problem] = timeouts(doctor(repo, home), "problem")
    assert "its `--timeout` is not a number of seconds from 1 to 86400" in problem["detail"]
    said = run_goalfile(
        "hook", "stop", "--timeout", value, cwd=repo, input=json.dumps({"cwd": str(repo)})
    )
    assert said.returncode == 0, said.stderr
    assert "Traceback" not in said.stderr
    assert "Invalid value for '--timeout'" in said.stderr


def test_the_text_report_prints_the_fix(repo: Path, home: Path) -> None:
    edit(repo / ".claude" / "settings.json", timeout=30)
    done = run_goalfile("doctor", cwd=repo, env=host_env(home))
    assert done.returncode == 1
    assert "claude  problem  .claude/settings.json: Claude Code gives the Stop hook 30 s" in (
        done.stdout
    )
    assert "fix: goalfile doctor --fix-timeouts" in done.stdout
