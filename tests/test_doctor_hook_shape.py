"""`goalfile doctor` accepts a Stop hook only in the shape that runs goalfile's hook and hands
its answer to the host (goalfile.hookshape), in every settings file the host reads, and
reports Claude Code's `disableAllHooks`; `goalfile init` replaces a hook that never answers
instead of counting it as registered. Real settings files, goalfile as a real process; every
`fix:` printed is run as written, and the hook it leaves is run as the host runs it
(`sh -c COMMAND`, the host's JSON on stdin) on an active goal that is not met: it must answer
block. What the real Claude Code does with them: tests/hosts/test_claude_hook_shape.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import built_once, git, host_env, make_git_repo, run_goalfile
from test_doctor_timeouts import doctor, run_as_host, run_fix
from test_doctor_timeouts import home as home

FIX_HOOKS = "goalfile doctor --fix-hooks"
CLAUDE = Path(".claude") / "settings.json"
LOCAL = Path(".claude") / "settings.local.json"
CODEX = Path(".codex") / "hooks.json"

NONE = "goalfile hook stop --agent claude --goal goals/none.md"
NEUTERED = [  # each lets the agent stop while its goal is unmet
    "goalfile hook stop --agent claude > /dev/null",
    "echo goalfile hook stop --agent claude",
    "exit 0; goalfile hook stop --agent claude",
    "true goalfile hook stop --agent claude",
    "goalfile hook stop --agent claude | cat >/dev/null",
    "goalfile hook stop --agent claude\necho {}",
    "goalfile hook stop --agent claude --stall-limit 0",
]
UNPROVEN = [  # these may answer, but not in a shape doctor can show does: refused all the same
    "goalfile hook stop --agent claude || true",
    "goalfile hook stop --agent claude --json",
    "env GOALFILE=0 goalfile hook stop --agent claude",
    "goalfile hook stop --agent claude $(true)",
    "goalfile hook stop --agent claude --agent claude",
    "goalfile hook stop --agent claude --stall-limit 1",  # the hook takes it as 2 now
    "goalfile hook stop --agent gemini",
    NONE,  # holds once (a --goal no goal git holds), then checks the other goals
]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`goalfile init` (hooks, no skills) and an active goal whose check fails, made once for
    the module's tests: each test gets a copy of its own (:func:`repo`). Neither command writes
    outside the repository (the home and state folders given to them stay empty). Made once for
    the run (:func:`built_once`), not in each worker."""

    def build(folder: Path) -> None:
        root = make_git_repo(folder / "repo")
        home, state = folder / "home", folder / "state"
        home.mkdir()
        state.mkdir()
        env = {**host_env(home), "XDG_STATE_HOME": str(state)}
        for args in (
            ("init", "--no-goal", "--no-skills"),
            ("new", "t", "tests pass", "--check", "sh test.sh", "--expected", "exit 0",
             "--non-goal", "Nothing else.", "--activate"),
        ):  # fmt: skip
            done = run_goalfile(*args, cwd=root, env=env)
            assert done.returncode == 0, (args, done.stderr)
        (root / "test.sh").write_text('echo "1 failed"; exit 1\n', encoding="utf-8")
        assert not any(home.iterdir()) and not any(state.iterdir())

    return built_once(tmp_path_factory, "test_doctor_hook_shape made", build) / "repo"


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    """A copy of :func:`made`: `goalfile init` (hooks, no skills) and an active goal whose
    check fails."""
    return Path(shutil.copytree(made, tmp_path / "repo", symlinks=True))


def set_command(path: Path, command: str, **entry: object) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    hook = document["hooks"]["Stop"][0]["hooks"][0]
    hook["command"] = command
    hook.update(entry)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def stop_commands(path: Path) -> list[str]:
    document = json.loads(path.read_text(encoding="utf-8"))
    groups = document.get("hooks", {}).get("Stop", [])
    return [hook["command"] for group in groups for hook in group["hooks"]]


def hook_problems(report: dict[str, Any], host: str = "claude") -> list[dict[str, Any]]:
    return [
        f
        for f in report["findings"]
        if f["host"] == host and f["check"] == "hook" and f["health"] == "problem"
    ]


def holds(command: str, repo: Path, home: Path) -> bool:
    """Whether the command, run as the host runs it at a stop, answers block (the host reads
    the top level of one JSON document on stdout)."""
    try:
        document = json.loads(answer(command, repo, home))
    except ValueError:
        return False
    return isinstance(document, dict) and document.get("decision") == "block"


def answer(command: str, repo: Path, home: Path) -> str:
    """What the command answers when the host runs it at a stop."""
    return run_as_host(command, repo, home).stdout


# the fixed settings are the same for every command (checked for each): doctor is run on them,
# and the hook they leave is run as the host runs it, after a neutered command has run, after
# an unproven one has not, and after the --goal that names no goal
FIXED_RUN = {NEUTERED[0], UNPROVEN[0], NONE}


@pytest.mark.parametrize("command", NEUTERED + UNPROVEN)
def test_a_hook_that_never_answers_is_a_problem_the_fix_repairs(
    repo: Path, made: Path, home: Path, command: str
) -> None:
    settings = repo / CLAUDE
    set_command(settings, command, timeout=900)
    if command in NEUTERED:
        assert not holds(command, repo, home)  # it never holds
    report = doctor(repo, home)
    assert report["exit_code"] == 1
    problems = hook_problems(report)
    detail = next(f for f in problems if "hooks.Stop[0].hooks[0]" in f["detail"])
    assert detail["detail"].startswith(f"{CLAUDE}: hooks.Stop[0].hooks[0]: "), detail
    said = "pins the hook unsoundly" if command == NONE else "never holds the agent"
    assert f"`{command}` {said}: " in detail["detail"], detail
    assert all(f["fix"] == FIX_HOOKS for f in problems), problems
    assert not any(f["host"] == "claude" and f["check"] == "hook" and f["health"] == "ok"
                   for f in report["findings"])  # fmt: skip

    said = run_fix(FIX_HOOKS, repo, home)
    assert f"fixed: {CLAUDE}:" in said, said
    [fixed] = stop_commands(settings)
    assert fixed.startswith("goalfile hook stop --agent claude"), fixed
    assert json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"][0]["timeout"] == 900
    # every command is fixed to the same settings: init's, with the timeout kept
    fixed_settings = json.loads((made / CLAUDE).read_text(encoding="utf-8"))
    fixed_settings["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 900
    assert json.loads(settings.read_text(encoding="utf-8")) == fixed_settings
    if command in FIXED_RUN:  # what those settings do, run for a command of each kind
        assert hook_problems(doctor(repo, home)) == []
        assert holds(fixed, repo, home)


@pytest.mark.parametrize("command", [*NEUTERED[:3], NONE])
def test_init_replaces_a_hook_that_never_answers(repo: Path, home: Path, command: str) -> None:
    settings = repo / CLAUDE
    set_command(settings, command)
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=repo, env=host_env(home))
    assert done.returncode == 0, done.stderr
    [registered] = stop_commands(settings)
    assert registered == "goalfile hook stop --agent claude", registered
    assert holds(registered, repo, home)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"async": True}, '"async"'),
        ({"asyncRewake": True}, '"asyncRewake"'),
        ({"once": True}, '"once"'),
        ({"type": "prompt"}, '"type" is'),
    ],
)
def test_an_entry_the_host_runs_otherwise_is_a_problem(
    repo: Path, home: Path, extra: dict[str, object], said: str
) -> None:
    settings = repo / CLAUDE
    set_command(settings, "goalfile hook stop --agent claude", **extra)
    [problem] = [f for f in hook_problems(doctor(repo, home)) if "hooks.Stop[0]" in f["detail"]]
    assert said in problem["detail"], problem
    run_fix(FIX_HOOKS, repo, home)
    [entry] = json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"]
    assert entry == {"type": "command", "command": "goalfile hook stop --agent claude",
                     "timeout": 600}  # fmt: skip
    assert hook_problems(doctor(repo, home)) == []


@pytest.mark.parametrize("where", ["local", "user"])
@pytest.mark.parametrize("value", [True, "true", 1])
def test_disable_all_hooks_is_a_problem_in_every_claude_settings_file(
    repo: Path, home: Path, where: str, value: object
) -> None:
    path = repo / LOCAL if where == "local" else home / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"model": "x", "disableAllHooks": value}) + "\n")
    report = doctor(repo, home)
    assert report["exit_code"] == 1
    [problem] = hook_problems(report)
    assert '"disableAllHooks": ' in problem["detail"] and "runs no hook at all" in problem["detail"]
    assert problem["fix"] == FIX_HOOKS, problem
    run_fix(FIX_HOOKS, repo, home)
    assert json.loads(path.read_text()) == {"model": "x"}  # only that key goes
    assert hook_problems(doctor(repo, home)) == []


@pytest.mark.parametrize("value", [False, "false", None])
def test_disable_all_hooks_off_is_no_problem(repo: Path, home: Path, value: object) -> None:
    (repo / LOCAL).write_text(json.dumps({"disableAllHooks": value}) + "\n")
    assert hook_problems(doctor(repo, home)) == []


def test_a_hook_that_never_answers_in_the_local_settings_is_taken_out(
    repo: Path, home: Path
) -> None:
    """Claude Code runs every Stop hook of every settings file: the repair adds no second
    goalfile hook where one already holds the agent."""
    (repo / LOCAL).write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "echo goalfile hook stop"},
        {"type": "command", "command": "./notify.sh"},
    ]}]}}))  # fmt: skip
    [problem] = hook_problems(doctor(repo, home))
    assert problem["detail"].startswith(f"{LOCAL}: hooks.Stop[0].hooks[0]: `echo"), problem
    run_fix(FIX_HOOKS, repo, home)
    assert stop_commands(repo / LOCAL) == ["./notify.sh"]
    assert stop_commands(repo / CLAUDE) == ["goalfile hook stop --agent claude"]


@pytest.mark.parametrize(
    "command",
    [
        "goalfile hook stop --agent claude",
        "goalfile hook stop",
        "{bin}/goalfile hook stop --agent claude --timeout 600",
        "goalfile hook stop --agent=claude --goal goals/t.md --stall-limit 5",
        "'{bin}/goalfile' hook stop --goal=goals/t.md --timeout 900",
    ],
)
def test_the_accepted_shapes_hold_the_agent(repo: Path, home: Path, command: str) -> None:
    command = command.format(bin=host_env(home)["PATH"].split(":")[0])
    set_command(repo / CLAUDE, command, timeout=900)
    git(repo, "add", "-A")  # a --goal counts when HEAD holds the goal file it names
    git(repo, "commit", "-qm", "goal and hooks")
    report = doctor(repo, home)
    assert hook_problems(report) == [], report
    assert holds(command, repo, home)


def test_codex_hooks_that_never_answer(repo: Path, home: Path) -> None:
    settings = repo / CODEX
    set_command(settings, "goalfile hook stop --agent codex > /dev/null")
    problems = hook_problems(doctor(repo, home), "codex")
    assert any(f"{CODEX}: hooks.Stop[0].hooks[0]" in f["detail"] for f in problems), problems
    assert any("registers no Stop hook doctor accepts for codex" in f["detail"] for f in problems)
    said = run_fix(FIX_HOOKS, repo, home)
    assert stop_commands(settings) == ["goalfile hook stop --agent codex"]
    assert "trusted again" in said, said
    assert hook_problems(doctor(repo, home), "codex") == []


def test_codex_config_toml_hook_that_never_answers(repo: Path, home: Path) -> None:
    (repo / CODEX).unlink()
    config = repo / ".codex" / "config.toml"
    config.write_text(
        '# mine\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\n'
        'command = "goalfile hook stop --agent codex --timeout 300 > /dev/null"\ntimeout = 300\n'
    )
    problems = hook_problems(doctor(repo, home), "codex")
    [shape] = [f for f in problems if "hooks.Stop[0].hooks[0]" in f["detail"]]
    assert shape["detail"].startswith(".codex/config.toml: "), shape
    assert shape["fix"] == FIX_HOOKS, shape
    run_fix(FIX_HOOKS, repo, home)
    text = config.read_text()
    assert text.startswith("# mine\n"), text
    assert 'command = "goalfile hook stop --agent codex --timeout 300"' in text, text
    assert hook_problems(doctor(repo, home), "codex") == []
