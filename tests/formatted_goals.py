"""Goal files as goalfile writes them, for the tests that run outside formatters on them
(tests/test_prettier.py, tests/test_markdownlint.py): a git repository whose `goals/` holds a
draft from `goalfile init`, an active goal, one after several verify runs, a `met` one, one
blocked and resumed with a URL in its reason, one whose check and output hold backticks,
and the shipped examples; and what goalfile reads
from them, to compare before and after a formatter ran."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from tests.conftest import REPO, clean_env, git, make_git_repo, run_goalfile
from tests.hosts.host_install import NpmCli, install_cli

# The versions the formatter tests run (installed from the npm registry into the host CLIs'
# cache, under its lock: see tests/hosts/host_install.py; without node or npm they fail).
PRETTIER = NpmCli(package="prettier", version="3.10.1", bin="prettier")
MARKDOWNLINT = NpmCli(package="markdownlint-cli2", version="0.24.1", bin="markdownlint-cli2")


def npm_tool(cli: NpmCli) -> Path:
    return install_cli(cli)


def run_tool(command: list[str], repo: Path) -> subprocess.CompletedProcess[str]:
    """A formatter run in ``repo`` as a person runs it there: a clean environment, no input."""
    return subprocess.run(
        command,
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
    )


def must(done: object) -> None:
    code = getattr(done, "returncode", None)
    assert code in (0, 1), (getattr(done, "stdout", ""), getattr(done, "stderr", ""))


def goal_repo(root: Path) -> Path:
    """The repository, committed; every goal file under `goals/`."""
    repo = make_git_repo(root)
    g = ["init", "--no-hooks", "--no-skills", "--slug", "draft"]
    assert run_goalfile(*g, cwd=repo).returncode == 0
    new = ["new", "--activate"]
    assert (
        run_goalfile(
            *new, "active", "a.txt exists", "--check", "test -f a.txt", "--expected", "exit 0",
            cwd=repo,
        ).returncode
        == 0
    )  # fmt: skip
    assert (
        run_goalfile(
            *new, "several", "b and c",
            "--check", "cat b.txt", "--expected", 'exit 0; stdout contains "b"',
            "--check", "test -f c.txt", "--expected", "exit 0",
            "--review", "notes.md=says why", "--non-goal", "nothing else",
            cwd=repo,
        ).returncode
        == 0
    )  # fmt: skip
    assert (
        run_goalfile(
            *new, "done", "d exists",
            "--check", "test -f d.txt", "--expected", "exit 0; output empty",
            "--check", 'echo "a|b"', "--expected", 'exit 0; stdout contains "a|b"',
            cwd=repo,
        ).returncode
        == 0
    )  # fmt: skip
    assert (
        run_goalfile(
            *new, "linked", "e exists", "--check", "test -f e.txt", "--expected", "exit 0",
            cwd=repo,
        ).returncode
        == 0
    )  # fmt: skip
    assert (
        run_goalfile(
            *new, "ticks", "code quoted in output",
            "--check", "echo 'use `x` here'; echo 'run ``y`` now'",
            "--expected", 'exit 0; stdout contains "``z``"',
            cwd=repo,
        ).returncode
        == 0
    )  # fmt: skip
    for example in ("hello.md", "unmet.md"):
        shutil.copyfile(REPO / "examples" / example, repo / "goals" / example)
    must(run_goalfile("verify", "goals/several.md", cwd=repo))
    (repo / "b.txt").write_text("b\n", encoding="utf-8")
    must(run_goalfile("verify", "goals/several.md", cwd=repo))
    (repo / "c.txt").write_text("", encoding="utf-8")
    must(run_goalfile("verify", "goals/several.md", cwd=repo))
    (repo / "d.txt").write_text("", encoding="utf-8")
    assert run_goalfile("verify", "goals/done.md", cwd=repo).returncode == 0
    must(run_goalfile("verify", "goals/linked.md", cwd=repo))
    must(run_goalfile("verify", "goals/ticks.md", cwd=repo))
    blocked = run_goalfile(
        "block", "goals/linked.md",
        "--reason", "waiting on https://example.com/issues/7 and *the* owner",
        "--tried", "asked at mailto:team@example.com",
        cwd=repo,
    )  # fmt: skip
    assert blocked.returncode in (0, 4), blocked.stderr
    resumed = run_goalfile(
        "resume", "goals/linked.md", "--resolved", "see https://example.org/y", cwd=repo
    )
    assert resumed.returncode == 0, resumed.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "goals as goalfile wrote them")
    return repo


def no_places(text: str) -> str:
    """Messages without line and column numbers: a formatter adds blank lines."""
    text = re.sub(r"(?m)^(\S+?\.md):\d+(?::\d+)?:", r"\1:", text)
    return re.sub(r"\((?:line \d+|lines? [\d, ]+)\)", "", re.sub(r"\bline \d+\b", "line", text))


def readings(repo: Path) -> dict[str, object]:
    """What goalfile reads from every goal: lint's findings, each goal's status, criteria and
    verdicts, the verify runs of each ledger (`log`), `verify --no-write`'s summary lines, and
    `audit --against HEAD`."""
    lint = run_goalfile("lint", cwd=repo)
    status = run_goalfile("status", "--json", cwd=repo)
    log = run_goalfile("log", "--json", cwd=repo)
    verify = run_goalfile("verify", "--no-write", cwd=repo, timeout=120)
    audit = run_goalfile("audit", "--against", "HEAD", cwd=repo)
    return {
        "lint": (lint.returncode, no_places(lint.stdout + lint.stderr)),
        "status": (status.returncode, json.loads(status.stdout) if status.stdout else None),
        "log": (log.returncode, json.loads(log.stdout) if log.stdout else None),
        "verify": (
            verify.returncode,
            [line for line in verify.stdout.splitlines() if line.startswith("verify-goal ")],
        ),
        "audit": (audit.returncode, no_places(audit.stdout)),
    }
