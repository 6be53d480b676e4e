"""The Stop hook and the hints near it, where a review found them wrong: a hook input whose
`cwd` cannot be asked about (or a hook whose own folder is gone) let the agent stop with an
active, unmet goal. Real git repositories, real goalfile processes fed a host's input on
stdin; every `fix:` printed is run as written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import clean_env, git, make_git_repo, run_goalfile

WITH_GOALFILE = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}


def hook(
    cwd: Path, given: dict[str, object], *, shell: str | None = None
) -> tuple[dict[str, object], str]:
    """`goalfile hook stop --agent claude --json` run in ``cwd`` (through ``sh -c SHELL`` when
    given, which ends by running goalfile): its answer and its stderr."""
    data = json.dumps({"hook_event_name": "Stop", **given})
    command = [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude", "--json"]
    if shell is not None:
        command = ["sh", "-c", f'{shell} && exec "$0" "$@"', *command]
    done = subprocess.run(
        command,
        cwd=cwd,
        env=clean_env(),
        input=data,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def sh(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A printed command, run as written in ``cwd`` by a shell, with this goalfile on PATH."""
    done = subprocess.run(
        command, shell=True, cwd=cwd, env=clean_env(WITH_GOALFILE), capture_output=True, text=True
    )
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done


def fix_of(reason: object) -> str:
    found = re.search(r"fix: `([^`]+)`", str(reason))
    assert found is not None, reason
    return found.group(1)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository whose committed goal goals/demo.md is active and unmet."""
    root = make_git_repo(tmp_path / "project")
    done = run_goalfile(
        "new", "demo", "the end state", "--check", "test -f done.txt", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def verified_unmet(answer: dict[str, object]) -> None:
    """The answer blocks because goals/demo.md was verified, and its row is unmet."""
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert reason.startswith("verify-goal demo iteration 0: C1 unmet"), reason


# --- F1: no error once the input is read lets the agent stop --------------------------------


@pytest.mark.parametrize("cwd", ["long", "~nosuchuser/x"])
def test_a_cwd_that_cannot_be_asked_about_gives_way_to_the_hook_folder(
    project: Path, cwd: str
) -> None:
    """A `cwd` past the path limit (`is_dir` raises ENAMETOOLONG) or `~` for no such user
    (`expanduser` raises): the hook looks at the folder the host started it in, where the
    goal is unmet, and says why on stderr."""
    given = str(project / ("a" * 5000)) if cwd == "long" else cwd
    answer, stderr = hook(project, {"cwd": given})
    verified_unmet(answer)
    assert "the hook input's cwd cannot be used" in stderr
    assert "the stop is allowed" not in stderr


def test_a_hook_whose_own_folder_is_gone_takes_the_input_cwd(project: Path) -> None:
    """The host started the hook in a folder removed since (`Path.cwd()` raises): the input's
    `cwd` names the repository, whose goal is verified unmet."""
    (project.parent / "gone").mkdir()
    answer, stderr = hook(project.parent / "gone", {"cwd": str(project)}, shell="rmdir ../gone")
    verified_unmet(answer)
    assert "internal error" not in stderr


def test_an_error_once_the_input_is_read_holds_the_agent_once(project: Path) -> None:
    """No folder at all (the hook's is gone, the input names none): the error holds the agent
    once, naming it, and is let go with the message when the agent is already continuing."""
    (project.parent / "gone").mkdir()
    answer, stderr = hook(project.parent / "gone", {}, shell="rmdir ../gone")
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert reason.startswith("goalfile hook stop failed in the hook's working folder"), reason
    assert "FileNotFoundError" in reason
    assert "internal error: FileNotFoundError" in stderr and "Traceback" in stderr
    (project.parent / "gone").mkdir()
    again, _ = hook(project.parent / "gone", {"stop_hook_active": True}, shell="rmdir ../gone")
    assert again["decision"] == "allow", again
    assert "FileNotFoundError" in str(again["host_output"]["systemMessage"])  # type: ignore[index]


def test_input_that_is_not_json_still_lets_the_agent_stop(project: Path) -> None:
    """Only an input the hook cannot read lets the agent stop on an error (unchanged)."""
    done = run_goalfile("hook", "stop", "--agent", "codex", cwd=project, input="{not json")
    assert done.returncode == 0
    assert set(json.loads(done.stdout)) == {"systemMessage"}
    assert "the stop is allowed" in done.stderr
