"""`goalfile --help` is answered without click (goalfile.cli.helptext), and what it prints is
exactly what click prints: checked against click's own rendering in a real process, for the
installed script, `python -m goalfile`, every terminal width and a real terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from goalfile.cli import helptext
from tests.conftest import clean_env

GOALFILE = Path(sys.executable).with_name("goalfile")
CLICK_HELP = (
    "import sys; from goalfile.cli import group; group()(['--help'], prog_name=sys.argv[1])"
)


def run(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=120
    )


def click_help(prog: str, env: dict[str, str], cwd: Path) -> str:
    """What click itself prints for ``--help`` (the whole group built, no shortcut)."""
    done = run([sys.executable, "-c", CLICK_HELP, prog], env, cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def imported(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if "|" in line}


def test_the_kept_text_is_what_click_renders_now() -> None:
    assert helptext.rendered("{prog}") == helptext.TEXT, (
        "a command's short help changed: run `python -m goalfile.cli.helptext` to rewrite "
        "goalfile/cli/helptext.py"
    )


@pytest.mark.parametrize("columns", [None, "80", "200"])
@pytest.mark.parametrize("option", ["--help", "-h"])
def test_the_script_prints_clicks_help_without_click(
    tmp_path: Path, columns: str | None, option: str
) -> None:
    assert GOALFILE.is_file(), f"{GOALFILE} is missing: install goalfile into this venv"
    env = clean_env({"PYTHONPROFILEIMPORTTIME": "1"})
    env.pop("COLUMNS", None)
    if columns is not None:
        env["COLUMNS"] = columns
    done = run([str(GOALFILE), option], env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == click_help("goalfile", env, tmp_path)
    assert done.stdout.startswith("Usage: goalfile [OPTIONS] COMMAND [ARGS]...\n")
    assert "click" not in imported(done.stderr)
    assert "goalfile.cli.core" not in imported(done.stderr)
    # nor what only a command's signal handling needs (goalfile.__main__ answers before it)
    assert imported(done.stderr) & {"signal", "goalfile.errors"} == set()


def test_python_dash_m_prints_clicks_help(tmp_path: Path) -> None:
    env = clean_env({"PYTHONPROFILEIMPORTTIME": "1"})
    env.pop("COLUMNS", None)
    done = run([sys.executable, "-m", "goalfile", "--help"], env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == click_help("python -m goalfile", env, tmp_path)
    assert "click" not in imported(done.stderr)


@pytest.mark.parametrize("columns", ["79", "60", "20"])
def test_a_narrow_terminal_gets_click_laying_it_out(tmp_path: Path, columns: str) -> None:
    env = clean_env({"COLUMNS": columns, "PYTHONPROFILEIMPORTTIME": "1"})
    done = run([str(GOALFILE), "--help"], env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == click_help("goalfile", env, tmp_path)
    if columns != "79":  # at 79 every line of the kept text fits already
        assert done.stdout != helptext.TEXT.replace("{prog}", "goalfile")
    assert "click" in imported(done.stderr)


def on_terminal(argv: list[str], columns: int, env: dict[str, str], cwd: Path) -> str:
    """What ``argv`` writes to a real terminal ``columns`` wide (a pseudo-terminal)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    attrs = termios.tcgetattr(follower)
    attrs[1] &= ~termios.ONLCR  # keep "\n" as written, for comparing with a pipe
    termios.tcsetattr(follower, termios.TCSANOW, attrs)
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower
    )
    os.close(follower)
    output = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        assert ready, "no output from the terminal in 120 s"
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    assert process.wait(timeout=120) == 0
    return output.decode()


@pytest.mark.parametrize("columns", [120, 70])
def test_a_real_terminal_gets_clicks_layout_for_its_width(tmp_path: Path, columns: int) -> None:
    env = clean_env()
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    shown = on_terminal([str(GOALFILE), "--help"], columns, env, tmp_path)
    expected = click_help("goalfile", {**env, "COLUMNS": str(columns)}, tmp_path)
    assert shown == expected


def test_the_command_table_is_what_click_registers() -> None:
    assert helptext.registered() == helptext.COMMANDS, (
        "a command was added or moved: run `python -m goalfile.cli.helptext` to rewrite "
        "goalfile/cli/helptext.py"
    )


@pytest.mark.parametrize(
    ("args", "module"),
    [
        (["verify", "--help"], "core"),
        (["plan", "--help"], "lifecycle"),
        (["hook", "--help"], "hook"),
    ],
)
def test_a_command_imports_only_the_module_that_registers_it(
    tmp_path: Path, args: list[str], module: str
) -> None:
    env = clean_env({"PYTHONPROFILEIMPORTTIME": "1"})
    done = run([str(GOALFILE), *args], env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Usage: goalfile {args[0]} ")
    loaded = {m for m in imported(done.stderr) if m.startswith("goalfile.cli.")}
    assert loaded == {"goalfile.cli.base", "goalfile.cli.helptext", f"goalfile.cli.{module}"}


RUN_WITH_TABLE = (
    "import sys; from goalfile.cli import helptext; helptext.COMMANDS = eval(sys.argv[1]); "
    "sys.argv = ['goalfile', *sys.argv[2:]]; from goalfile.__main__ import run; run()"
)


@pytest.mark.parametrize("table", ["()", "(('status', 'views'), ('verify', 'hosts'))"])
def test_a_stale_command_table_costs_time_not_commands(tmp_path: Path, table: str) -> None:
    """A command the table does not know, or places in the wrong module, is still found."""
    env = clean_env()
    for args in (["status", "--help"], ["verify", "--help"], ["completion", "bash"]):
        done = run([sys.executable, "-c", RUN_WITH_TABLE, table, *args], env, tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout


def test_the_list_keeps_its_order_whichever_module_came_first(tmp_path: Path) -> None:
    """A run that registered `hook` first still lists the commands in the life of a goal."""
    code = (
        "import goalfile.cli.hook, goalfile.cli.views; from goalfile.cli import group; "
        "group()(['--help'], prog_name='goalfile')"
    )
    env = clean_env({"COLUMNS": "60"})
    done = run([sys.executable, "-c", code], env, tmp_path)
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
    names = [
        line.split()[0] for line in listed.splitlines() if line.startswith("  ") and line[2] != " "
    ]
    assert names == [name for name, _ in helptext.COMMANDS]
