"""Help text on every command and option, shell completion, and the commands that default to
every goal under goals/ and .zetetic/goals/ with paths relative to the current folder."""

from __future__ import annotations

import json
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from goalfile.cli import main
from tests.conftest import clean_env, goal_text, row, run_goalfile, write_goal


def walk(command: click.Command, path: tuple[str, ...]) -> Iterator[tuple[str, click.Command]]:
    yield " ".join(path), command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from walk(sub, (*path, name))


COMMANDS = list(walk(main, ("goalfile",)))


def test_the_walk_sees_every_command() -> None:
    names = {name for name, _ in COMMANDS}
    assert {"goalfile verify", "goalfile skills install", "goalfile completion"} <= names


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_every_command_and_option_has_help(name: str, command: click.Command) -> None:
    assert (command.help or "").strip(), f"{name} has no help text"
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert (param.help or "").strip(), f"{name} {param.opts[0]} has no help text"


def test_review_verdict_has_help(tmp_path: Path) -> None:
    done = run_goalfile("review", "--help", cwd=tmp_path)
    assert "--verdict [met|unmet]" in done.stdout
    assert "met: the artifact shows" in done.stdout


@pytest.mark.parametrize(
    ("command", "runs_checks"),
    [("verify", True), ("review", True), ("status", False), ("block", False)],
)
def test_in_project_help_says_what_this_command_refuses(
    tmp_path: Path, command: str, runs_checks: bool
) -> None:
    """`status --help` spoke of what verify and review refuse; each command now says its own."""
    shown = " ".join(run_goalfile(command, "--help", cwd=tmp_path).stdout.split())
    assert "--in-project Refuse a goal file that is not one of this project's" in shown
    assert ("no approval entry committed at HEAD" in shown) is runs_checks, shown
    assert "verify and review" not in shown


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell: str, tmp_path: Path) -> None:
    done = run_goalfile("completion", shell, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "_GOALFILE_COMPLETE" in done.stdout


def test_the_bash_completion_script_completes_commands(tmp_path: Path) -> None:
    """Load the script into a real bash and ask it for the completions of `goalfile ver`."""
    import sys

    script = run_goalfile("completion", "bash", cwd=tmp_path).stdout
    installed = Path(sys.executable).parent / "goalfile"  # the console script pip installed
    assert installed.is_file(), f"{installed} is missing: install goalfile in this environment"
    env = clean_env({"PATH": f"{installed.parent}:{clean_env()['PATH']}"})
    program = (
        f"{script}\n"
        "COMP_WORDS=(goalfile ver); COMP_CWORD=1; _goalfile_completion goalfile; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(
        ["bash", "-c", program], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["verify"]


def test_an_unknown_shell_is_a_usage_error(tmp_path: Path) -> None:
    done = run_goalfile("completion", "tcsh", cwd=tmp_path)
    assert done.returncode == 2


# --------------------------------------------------------------------------- defaults


@pytest.fixture
def two_goals(repo: Path) -> Path:
    write_goal(repo / "goals", goal_text(slug="one"), "one.md")
    write_goal(
        repo / ".zetetic" / "goals", goal_text(slug="two", rows=(row("C1", "false", "exit 0"),))
    )
    (repo / "src").mkdir()
    return repo


def test_lint_audit_and_status_default_to_every_goal(two_goals: Path) -> None:
    lint = run_goalfile("lint", cwd=two_goals)
    assert lint.returncode == 0, lint.stderr
    assert lint.stdout.splitlines() == ["goals/one.md: ok", ".zetetic/goals/demo.md: ok"]
    audit = run_goalfile("audit", cwd=two_goals)
    verdicts = [  # one verdict line per goal (an active goal with an empty ledger is clean)
        line.split(": ")[0]
        for line in audit.stdout.splitlines()
        if line.endswith(": clean") or line.endswith((" finding", " findings"))
    ]
    assert verdicts == ["goals/one.md", ".zetetic/goals/demo.md"], audit.stdout
    status = run_goalfile("status", "--json", cwd=two_goals)
    assert [g["path"] for g in json.loads(status.stdout)["goals"]] == [
        "goals/one.md",
        ".zetetic/goals/demo.md",
    ]


def test_from_a_subfolder_paths_are_relative_to_it(two_goals: Path) -> None:
    status = run_goalfile("status", cwd=two_goals / "src")
    assert "one: active  (../goals/one.md)" in status.stdout
    lint = run_goalfile("lint", cwd=two_goals / "src")
    assert lint.stdout.splitlines() == ["../goals/one.md: ok", "../.zetetic/goals/demo.md: ok"]


def test_verify_no_write_checks_every_goal(two_goals: Path) -> None:
    before = {p: p.read_bytes() for p in two_goals.rglob("*.md")}
    done = run_goalfile("verify", "--no-write", cwd=two_goals)
    assert done.returncode == 1  # the highest exit: goal `two` has an unmet row
    summaries = [line for line in done.stdout.splitlines() if line.startswith("verify-goal")]
    assert summaries == [
        "verify-goal one iteration 1: C1 met; status: met",
        "verify-goal two iteration 1: C1 unmet; status: active",
    ]
    assert {p: p.read_bytes() for p in two_goals.rglob("*.md")} == before
    as_json = json.loads(run_goalfile("verify", "--no-write", "--json", cwd=two_goals).stdout)
    assert [g["slug"] for g in as_json["goals"]] == ["one", "two"]
    assert as_json["exit_code"] == 1


def test_verify_without_path_and_without_no_write_is_a_usage_error(two_goals: Path) -> None:
    done = run_goalfile("verify", cwd=two_goals)
    assert done.returncode == 2
    assert "only --no-write checks every goal at once" in done.stderr


def test_no_goals_is_said(repo: Path) -> None:
    done = run_goalfile("lint", cwd=repo)
    assert done.returncode == 0
    assert "no goal files found under goals/ or .zetetic/goals/" in done.stderr


def test_stall_limit_help_says_what_1_does(tmp_path: Path) -> None:
    """`--stall-limit` said "(at least 2)" beside click's `x>=1`, and took 1 without a word:
    the help says now that 1 counts as 2."""
    shown = " ".join(run_goalfile("hook", "stop", "--help", cwd=tmp_path).stdout.split())
    assert "(at least 2: 1 counts as 2, since no progress needs two runs compared)" in shown


def test_every_command_but_two_takes_json_as_the_readme_says() -> None:
    """README: every command but `statusline`, `completion` and `mcp` takes `--json`."""
    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())
    assert "every one but `statusline`, `completion` and `mcp` (a status line" in readme
    without = {
        name
        for name, command in COMMANDS
        if not isinstance(command, click.Group)
        and not any("--json" in param.opts for param in command.params)
    }
    assert without == {"goalfile statusline", "goalfile completion", "goalfile mcp"}, without


EXAMPLED = [(name, command) for name, command in COMMANDS if name != "goalfile"]


@pytest.mark.parametrize(("name", "command"), EXAMPLED, ids=[n for n, _ in EXAMPLED])
def test_every_commands_help_shows_examples_that_parse(
    name: str, command: click.Command, tmp_path: Path
) -> None:
    """`goalfile CMD --help`, run as a program, shows at least one example command line for
    CMD, and click takes each one's words as CMD's (no unknown option, a choice that exists, a
    number where one is wanted): a user can copy it."""
    path = name.split()
    done = run_goalfile(*path[1:], "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    help_text = done.stdout
    if "\n  Examples:\n" in help_text:
        shown = help_text.split("\n  Examples:\n", 1)[1].split("\n\n")[0].splitlines()
    else:  # `new` shows its example in its text, one command over several lines
        shown = [" ".join(help_text.split("\n\n")[2].replace("\\\n", " ").split())]
    examples = [" ".join(line.split()) for line in shown if line.strip()]
    assert examples, f"{name} shows no example: add its lines to goalfile.cli.base.EXAMPLES"
    for example in examples:
        words = shlex.split(example)
        for stop, word in enumerate(words):
            if word in (">", ">>", "|"):
                words = words[:stop]
                break
        assert words[: len(path)] == path, example
        command.make_context(name, words[len(path) :])  # raises click's UsageError if not
