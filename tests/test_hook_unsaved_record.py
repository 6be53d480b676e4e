"""The holds the Stop hook makes once per session (`--goal` naming a goal file git does not
hold; a repository hidden from the hook) are kept to once by the session's record. When that
record cannot be saved (the state folder's parent is a file), Gemini CLI, which sends
`stop_hook_active` false at every stop after a tool call, met the same hold at each, for ever.
Then the stop is let go with the hold's message and a note that says the record cannot be saved
(docs/hosts.md). Real git repositories, real goalfile processes fed a recorded host input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_goalfile
from test_hook_named_goal import decoy_project


def gemini_stop(
    repo: Path, state: Path, *named: str, event: str = "AfterAgent"
) -> tuple[dict[str, object], str]:
    """Gemini CLI's AfterAgent hook (as its input gives it: `stop_hook_active` false) in
    ``repo``, with ``XDG_STATE_HOME`` at ``state``: its answer and its stderr."""
    stdin = json.dumps(
        {
            "session_id": "s-1",
            "cwd": str(repo),
            "hook_event_name": event,
            "stop_hook_active": False,
        }
    )
    done = run_goalfile(
        "hook", "stop", "--agent", "gemini", *named, cwd=repo, input=stdin,
        env={"XDG_STATE_HOME": str(state)},
    )  # fmt: skip
    assert done.returncode in (0, 2), done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout) if done.stdout.strip() else {}
    assert isinstance(answer, dict)
    return answer, done.stderr


@pytest.mark.parametrize("hold", ["unheld-goal", "hidden-repository"])
def test_a_once_per_session_hold_is_not_endless_without_a_record(tmp_path: Path, hold: str) -> None:
    project = decoy_project(tmp_path)
    (project / "done.txt").write_text("", encoding="utf-8")  # the goal git holds is met
    named: tuple[str, ...] = ("--goal", "goals/.cache/easy.md") if hold == "unheld-goal" else ()
    said = "is not a goal file git holds" if named else "is a git folder under another name"
    if not named:  # hidden from the hook: held once at any stop, remembered or not
        (project / ".git").rename(project / "backup")
    # with a record, the hold is made once, then the stop is let go with its message
    saved = tmp_path / "state"
    first, _ = gemini_stop(project, saved, *named)
    assert first.get("decision") == "block" and said in str(first["reason"]), first
    second, _ = gemini_stop(project, saved, *named)
    assert second.get("decision") != "block", second
    # with none (the state folder's parent is a file), no stop is held by it: each says why
    (tmp_path / "file").write_text("", encoding="utf-8")
    unsaved = tmp_path / "file" / "state"
    for _ in range(3):
        answer, stderr = gemini_stop(project, unsaved, *named)
        assert answer.get("decision") != "block", answer
        message = str(answer.get("systemMessage", ""))
        assert said in message, answer
        assert "the session's record cannot be saved in " in message, message
        assert "could not be recorded" in stderr, stderr


def test_the_goals_git_holds_still_decide_when_the_named_goal_is_let_go(tmp_path: Path) -> None:
    """`--goal` names a goal file git does not hold, under Gemini CLI, and the record cannot be
    saved: the stop was let go with the hold's message, and the goal git holds, unmet, was
    never verified (while the named goal held, the others were not looked at). It is verified,
    and holds the agent."""
    project = decoy_project(tmp_path)  # goals/real.md unmet: done.txt is not there
    (tmp_path / "file").write_text("", encoding="utf-8")
    answer, _ = gemini_stop(project, tmp_path / "file" / "state", "--goal", "goals/.cache/easy.md")
    assert answer.get("decision") == "block", answer
    assert str(answer.get("reason")).startswith("verify-goal real iteration 0: C1 unmet"), answer


def test_a_settings_state_folder_that_cannot_be_written_is_a_problem(tmp_path: Path) -> None:
    """Claude Code gives every hook a settings file's `env`: `XDG_STATE_HOME` there, pointed
    at `/dev/null`, moves the session's record where it cannot be saved, and the holds kept to
    once per session are then let go (the message says so). doctor named it `unknown`; it is
    a problem, with `doctor --fix-hooks` taking it out of the project's file."""
    project = decoy_project(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home)}
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir(exist_ok=True)
    local.write_text(json.dumps({"env": {"XDG_STATE_HOME": "/dev/null"}}) + "\n", "utf-8")
    done = run_goalfile("doctor", "--json", cwd=project, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    found = [
        f
        for f in json.loads(done.stdout)["findings"]
        if f["check"] == "hook-env" and "XDG_STATE_HOME" in f["detail"]
    ]
    assert [f["health"] for f in found] == ["problem"], found
    assert found[0]["fix"] == "goalfile doctor --fix-hooks", found
    fixed = run_goalfile("doctor", "--fix-hooks", cwd=project, env=env)
    assert fixed.returncode in (0, 1), fixed.stderr
    assert "XDG_STATE_HOME" not in local.read_text("utf-8")
