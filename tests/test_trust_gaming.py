"""An agent that edits the goal file to get to `met`: each trick is refused or reported.

Scripted like an agent in a real git repository: a base commit with an approved goal, then a
branch where the agent acts, and `goalfile audit --against main` as CI would run it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import copy_of, git, last_line, made_once, run_goalfile

GOAL = "goals/auth.md"


def make_agent(repo: Path, env: dict[str, str]) -> None:
    """An approved goal (C1 greets, C2 no log) committed on main; the agent's branch `agent`
    starts there."""
    (repo / "goals").mkdir()
    (repo / "out.txt").write_text("hello\n")
    (repo / "log.txt").write_text("")
    done = run_goalfile(
        "new",
        "auth",
        "--end-state",
        "out says hello world",
        "--non-goal",
        "nothing else",
        "--criterion",
        "greet",
        "--check",
        "cat out.txt",
        "--expected",
        'exit 0; stdout contains "hello world"',
        "--tokens",
        "1000",
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    path = repo / GOAL
    text = path.read_text()
    path.write_text(
        text.replace(
            "| deterministic |\n",
            "| deterministic |\n"
            "| C2 | no log | `cat log.txt` | exit 0; output empty | deterministic |\n",
            1,
        )
    )
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "branch", "-M", "main")
    git(repo, "checkout", "-qb", "agent")


@pytest.fixture(scope="module")
def made_agent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, make_agent)


@pytest.fixture
def agent(tmp_path: Path, made_agent: Path) -> Path:
    """A copy of the repository :func:`make_agent` makes once for the module."""
    return copy_of(made_agent, tmp_path / "repo")


def edit(repo: Path, old: str, new: str, count: int = 1) -> None:
    path = repo / GOAL
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


def audit(repo: Path) -> tuple[int, str]:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "agent work", "--allow-empty")
    done = run_goalfile("audit", GOAL, "--against", "main", cwd=repo)
    return done.returncode, done.stdout + done.stderr


def test_an_exhausted_goal_reopened_by_hand_is_ledgered_and_its_budget_still_holds(
    agent: Path,
) -> None:
    assert run_goalfile("verify", GOAL, "--tokens-used", "1200", cwd=agent).returncode == 5
    (agent / "out.txt").write_text("hello world\n")
    edit(agent, "status: exhausted", "status: active")  # asks for more work: accepted

    again = run_goalfile("verify", GOAL, "--tokens-used", "1200", cwd=agent)
    assert again.returncode == 5, again.stdout + again.stderr  # the budget is still spent
    assert "reopened by hand (was exhausted)" in (agent / GOAL).read_text()

    code, report = audit(agent)
    assert code == 0, report  # a reopen by hand is no finding: the ledger records it


def test_changing_the_working_directory_is_a_contract_change(agent: Path) -> None:
    (agent / "fake").mkdir()
    (agent / "fake" / "out.txt").write_text("hello world\n")
    (agent / "fake" / "log.txt").write_text("")
    edit(agent, "tokens_used: 0\n", "tokens_used: 0\ncwd: ../fake\n")

    refused = run_goalfile("verify", GOAL, "--tokens-used", "10", cwd=agent)
    assert refused.returncode == 3
    assert "run setting cwd" in refused.stderr

    code, report = audit(agent)
    assert code == 1
    assert "run setting cwd: (default) → ../fake" in report


def test_a_shell_that_always_succeeds_is_a_contract_change(agent: Path) -> None:
    fake = agent / "tools" / "bash"  # named as a shell, so lint lets it pass: /bin/true is not
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    edit(agent, "tokens_used: 0\n", f"tokens_used: 0\nshell: {fake}\n")
    refused = run_goalfile("verify", GOAL, "--tokens-used", "10", cwd=agent)
    assert refused.returncode == 3
    assert "run setting shell" in refused.stderr


def test_a_hand_edited_budget_is_reported_even_after_an_honest_raise(agent: Path) -> None:
    assert run_goalfile("budget", GOAL, "--tokens", "2000", cwd=agent).returncode == 0
    edit(agent, "  tokens: 2000", "  tokens: null")
    code, report = audit(agent)
    assert code == 1
    assert "budget.tokens is unbounded" in report
    assert "but the ledger records 2000" in report


def test_an_honest_budget_raise_is_clean(agent: Path) -> None:
    assert run_goalfile("budget", GOAL, "--tokens", "2000", cwd=agent).returncode == 0
    code, report = audit(agent)
    assert code == 0, report


def test_a_removed_pin_is_refused_and_a_forged_pin_is_reported(agent: Path) -> None:
    path = agent / GOAL
    text = path.read_text()
    loosened = text.replace('exit 0; stdout contains "hello world"', "exit 0")
    pin_line = re.search(r"^contract: .*\n", loosened, flags=re.M)
    assert pin_line is not None
    path.write_text(loosened.replace(pin_line.group(0), "", 1))

    refused = run_goalfile("verify", GOAL, "--tokens-used", "10", cwd=agent)
    assert refused.returncode == 3
    assert "the `contract:` pin is missing" in refused.stderr

    # forge a pin that matches the loosened rows
    from goalfile.contract import digest
    from goalfile.parse import parse_goal

    forged = digest(parse_goal(path.read_text(), path=str(path)))
    edit(agent, "tokens_used: 0\n", f"tokens_used: 0\ncontract: {forged}\n")
    done = run_goalfile("audit", GOAL, cwd=agent)
    assert done.returncode == 1
    assert "pin-not-approved" in done.stdout + done.stderr


def test_ci_recheck_of_an_honest_met_goal_with_a_token_budget_passes(agent: Path) -> None:
    (agent / "out.txt").write_text("hello world\n")
    met = run_goalfile("verify", GOAL, "--tokens-used", "100", cwd=agent)
    assert met.returncode == 0, met.stdout + met.stderr
    recheck = run_goalfile("verify", "--no-write", GOAL, cwd=agent)
    assert recheck.returncode == 0, recheck.stdout + recheck.stderr
    assert last_line(recheck.stdout).endswith("status: met")
    code, report = audit(agent)
    assert code == 0, report


def test_no_write_runs_do_not_count_toward_a_stall(agent: Path) -> None:
    for _ in range(2):
        assert run_goalfile("verify", GOAL, "--tokens-used", "10", cwd=agent).returncode == 1
    dry = run_goalfile("verify", "--no-write", GOAL, "--tokens-used", "10", cwd=agent)
    assert dry.returncode == 1
    assert last_line(dry.stdout).endswith("status: active")
