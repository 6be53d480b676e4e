"""`goalfile init --mcp` registered `goalfile mcp` for Claude Code, Gemini CLI and Codex in a
goalfile installed without the extra `goalfile[mcp]`, and said nothing, and `goalfile doctor`
found no problem: every host then failed to start the server (`goalfile mcp` exits 2). init
and doctor now say so, with the pip command `goalfile mcp` itself prints, which installs it.
goalfile is installed as README says, into a virtual environment of its own, without the
extra. The environment is made with virtualenv, which puts pip in it from its own cache: `python
-m venv` runs ensurepip, a pip install of its own, in every run."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, clean_env, make_git_repo, run_goalfile


def test_init_mcp_without_the_extra_says_how_to_install_it(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    made = [sys.executable, "-m", "virtualenv", "-q", "--no-periodic-update", str(venv)]
    subprocess.run(made, check=True)
    installed = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(REPO)],
        capture_output=True, text=True, env=clean_env(), timeout=600,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    goalfile = str(venv / "bin" / "goalfile")
    project = make_git_repo(tmp_path / "project")
    done = subprocess.run(
        [goalfile, "init", "--no-goal", "--mcp"], cwd=project, capture_output=True, text=True,
        env=clean_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "registered `goalfile mcp` in .mcp.json" in done.stdout
    note = re.search(
        r"note: `goalfile mcp` needs the optional MCP support.*?until `([^`]+)`", done.stderr
    )
    assert note is not None, done.stderr
    finding = mcp_finding(goalfile, project)
    assert finding["health"] == "problem"
    fix_of_doctor = finding["fix"]
    serve = subprocess.run(
        [goalfile, "mcp"], cwd=project, capture_output=True, text=True, stdin=subprocess.DEVNULL,
        env=clean_env(),
    )  # fmt: skip
    assert serve.returncode == 2  # what the hosts would meet
    assert note.group(1) in serve.stderr  # the same command as goalfile mcp's own fix
    assert fix_of_doctor == note.group(1)
    fix = subprocess.run(["sh", "-c", note.group(1)], capture_output=True, text=True, timeout=600)
    assert fix.returncode == 0, fix.stderr
    again = subprocess.run(
        [goalfile, "init", "--no-goal", "--mcp"], cwd=project, capture_output=True, text=True,
        env=clean_env(),
    )  # fmt: skip
    assert again.returncode == 0 and "optional MCP support" not in again.stderr, again.stderr
    assert mcp_finding(goalfile, project)["health"] == "ok"


def mcp_finding(goalfile: str, project: Path) -> dict[str, str]:
    """doctor's finding about the MCP server the project registers."""
    done = subprocess.run(
        [goalfile, "doctor", "--json"], cwd=project, capture_output=True, text=True,
        env=clean_env(),
    )  # fmt: skip
    [found] = [f for f in json.loads(done.stdout)["findings"] if f["host"] == "mcp"]
    return dict(found)


def test_doctor_passes_over_an_mcp_file_it_cannot_read(tmp_path: Path) -> None:
    """A `.mcp.json` nested past Python's recursion limit was a traceback of doctor's MCP
    check, and a FIFO there made doctor wait for a writer: neither is a registration, and
    doctor ends with its report."""
    project = make_git_repo(tmp_path / "project")
    (project / ".mcp.json").write_text("[" * 200_000, encoding="utf-8")
    (project / ".codex").mkdir()
    os.mkfifo(project / ".codex" / "config.toml")
    done = run_goalfile("doctor", "--json", cwd=project, env=clean_env(), timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert [f for f in report["findings"] if f["host"] == "mcp"] == []
