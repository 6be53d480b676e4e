"""Every `fix:` hint and `next:` step goalfile prints names a command that works as written.

Each scenario puts a real goal in a real repository into some state and runs goalfile on it;
every `goalfile ...` command in a hint is then run, as written, on a copy of that repository
(placeholders in capitals get a sample value) and must not be a usage error or a refusal.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import goal_text, make_git_repo, row, run_goalfile, write_goal

PLACEHOLDERS = {
    "SLUG": "fresh-goal",
    "END STATE": "it works",
    "TEXT": "exit 0",
    "N": "100",
    "CMD": "true",
    "REF": "HEAD",
    "FILE": "README.md",
    "ID": "C1",
}
CODE_SPAN = re.compile(r"`(goalfile [^`]+)`")


def commands_in(hint: str) -> list[str]:
    """The goalfile commands a hint names: its code spans, or the hint itself."""
    found = CODE_SPAN.findall(hint)
    if not found and hint.startswith("goalfile "):
        found = [hint]
    return found


def hints_of(done: subprocess.CompletedProcess[str]) -> list[str]:
    lines = (done.stdout + done.stderr).splitlines()
    return [
        line.split("fix: ", 1)[1] if "fix: " in line else line.split("next: ", 1)[1]
        for line in lines
        if line.lstrip().startswith(("fix: ", "next: "))
    ]


def argv(command: str, cwd: Path) -> list[str]:
    text = command.replace('"END STATE"', shlex.quote(PLACEHOLDERS["END STATE"]))
    words = shlex.split(text)
    assert words[0] == "goalfile", command
    if "PASSAGE" in words:  # words of the artifact, copied from it as a reviewer would
        artifact = cwd / words[words.index("--artifact") + 1]
        lines = artifact.read_text(encoding="utf-8").splitlines()
        words[words.index("PASSAGE")] = next(line.strip() for line in lines if line.strip())
    return [PLACEHOLDERS.get(word, word) for word in words[1:]]


def after_a_manual_step(hint: str, command: str) -> bool:
    """`fill in ..., then `goalfile activate PATH``: the command works once the step is done."""
    before = hint.split(f"`{command}`", 1)[0]
    return any(step in before for step in ("fill in", "replace every", "remove the blocker"))


def run_hints(
    repo: Path,
    done: subprocess.CompletedProcess[str],
    tmp_path: Path,
    env: dict[str, str] | None = None,
) -> list[str]:
    """Run every command the output's hints name, each on its own copy of ``repo``."""
    pairs = [(hint, c) for hint in hints_of(done) for c in commands_in(hint)]
    for number, (hint, command) in enumerate(pairs):
        copy = tmp_path / f"hint-{len(list(tmp_path.glob('hint-*')))}-{number}"
        shutil.copytree(repo, copy, symlinks=True)
        ran = run_goalfile(*argv(command, copy), cwd=copy, env=env, timeout=300)
        # a command that waits for a manual edit may still refuse (3), never misuse the CLI (2)
        allowed = (0, 1, 3) if after_a_manual_step(hint, command) else (0, 1)
        assert ran.returncode in allowed, (
            f"the hint `{command}` does not work as written (exit {ran.returncode}):\n"
            f"{ran.stdout}{ran.stderr}"
        )
    return [command for _, command in pairs]


def goal(repo: Path, *, status: str = "active", **kwargs: object) -> Path:
    return write_goal(repo / "goals", goal_text(status=status, **kwargs))  # type: ignore[arg-type]


def via(*args: str) -> Callable[[Path], subprocess.CompletedProcess[str]]:
    return lambda repo: run_goalfile(*args, cwd=repo)


def paused(repo: Path) -> None:
    goal(repo, rows=(row("C1", "true", "exit 0"),), iterations_section="")
    assert run_goalfile("pause", "goals/demo.md", "--reason", "later", cwd=repo).returncode == 0


def blocked(repo: Path) -> None:
    goal(repo)
    done = run_goalfile("block", "goals/demo.md", "--reason", "x", "--tried", "y", cwd=repo)
    assert done.returncode == 0, done.stderr


def met(repo: Path) -> None:
    goal(repo)
    assert run_goalfile("verify", "goals/demo.md", cwd=repo).returncode == 0


def exhausted(repo: Path) -> None:
    goal(repo, iterations="1", iterations_used=1)
    assert run_goalfile("plan", "goals/demo.md", cwd=repo).returncode == 5


def review_pending(repo: Path) -> None:
    """C1 met, R1 (README.md) not reviewed yet: only a review row is unmet."""
    goal(repo, rows=(row("C1", "true", "exit 0"), row("R1", "README.md", "says readme", "review")))
    assert run_goalfile("verify", "goals/demo.md", cwd=repo).returncode == 1


def draft(repo: Path) -> None:
    goal(repo, status="draft", iterations_used=0)


def changed_contract(repo: Path) -> None:
    assert (
        run_goalfile(
            "new",
            "demo",
            "it works",
            "--check",
            "true",
            "--expected",
            "exit 0; output empty",
            "--activate",
            cwd=repo,
        ).returncode
        == 0
    )
    path = repo / "goals" / "demo.md"
    text = path.read_text()
    assert "exit 0; output empty |" in text, text
    path.write_text(text.replace("exit 0; output empty |", "exit 0 |", 1))


SCENARIOS: dict[str, tuple[Callable[[Path], object], Callable[[Path], object]]] = {
    "verify a draft": (draft, via("verify", "goals/demo.md")),
    "verify a paused goal": (paused, via("verify", "goals/demo.md")),
    "verify a blocked goal": (blocked, via("verify", "goals/demo.md")),
    "verify a met goal": (met, via("verify", "goals/demo.md")),
    "verify an exhausted goal": (exhausted, via("verify", "goals/demo.md")),
    "verify a changed contract": (changed_contract, via("verify", "goals/demo.md")),
    "activate an active goal": (met, via("activate", "goals/demo.md")),
    "activate a blocked goal": (blocked, via("activate", "goals/demo.md")),
    "plan a draft": (draft, via("plan", "goals/demo.md")),
    "plan a paused goal": (paused, via("plan", "goals/demo.md")),
    "plan an empty plan": (goal, via("plan", "goals/demo.md")),
    "pause a blocked goal": (blocked, via("pause", "goals/demo.md")),
    "review a deterministic row": (
        met,
        via(
            "review",
            "goals/demo.md",
            "C1",
            "--artifact",
            "x",
            "--verdict",
            "unmet",
            "--reason",
            "r",
        ),
    ),
    "a missing goal file": (lambda repo: None, via("verify", "goals/nothing.md")),
    "new --activate without a check": (lambda repo: None, via("new", "d", "x", "--activate")),
    "new, a draft": (lambda repo: None, via("new", "d")),
    "new, complete": (
        lambda repo: None,
        via("new", "d", "x", "--check", "true", "--expected", "exit 0", "--non-goal", "n"),
    ),
    "new --activate": (
        lambda repo: None,
        via("new", "d", "x", "--check", "true", "--expected", "exit 0", "--activate"),
    ),
    "status of a draft": (draft, via("status")),
    "status of a blocked goal": (blocked, via("status")),
    "status of an exhausted goal": (exhausted, via("status")),
    "status of a paused goal": (paused, via("status")),
    "status of a met goal": (met, via("status")),
    "status of an active goal with an empty plan": (goal, via("status")),
    "status when only a review row is unmet": (review_pending, via("status")),
    "verify without PATH": (met, via("verify")),
    "lint a draft": (lambda repo: via("new", "d")(repo), via("lint", "goals/d.md")),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_hint_works_as_written(name: str, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "goals").mkdir()
    (repo / "README.md").write_text("readme\n")
    prepare, act = SCENARIOS[name]
    prepare(repo)
    done = act(repo)
    assert isinstance(done, subprocess.CompletedProcess)
    assert "Traceback" not in done.stderr
    commands = run_hints(repo, done, tmp_path)
    assert commands, f"{name}: no hint names a command:\n{done.stdout}{done.stderr}"


def test_a_blocked_goal_is_not_told_to_resume_without_resolved(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    blocked(repo)
    done = run_goalfile("verify", "goals/demo.md", cwd=repo)
    assert done.returncode == 3
    assert "`goalfile resume goals/demo.md --resolved TEXT`" in done.stderr
