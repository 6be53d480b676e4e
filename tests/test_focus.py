"""`goalfile focus`: one goal per working tree, honoured by the Stop hook and shown by status."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import git, goal_text, make_git_repo, row, run_goalfile, sh, write_goal


@pytest.fixture
def two_goals(tmp_path: Path) -> Path:
    """A repository with two unrelated active goals, both unmet."""
    repo = make_git_repo(tmp_path / "repo")
    write_goal(
        repo / "goals",
        goal_text(slug="docs", rows=(row("C1", "test -f docs.txt", "exit 0"),)),
        "docs.md",
    )
    write_goal(
        repo / "goals",
        goal_text(slug="speed", rows=(row("C1", "test -f fast.txt", "exit 0"),)),
        "speed.md",
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goals")
    return repo


def hook(repo: Path, cwd: Path | None = None) -> tuple[dict[str, object] | None, str]:
    stdin = json.dumps({"session_id": "s", "cwd": str(cwd or repo), "hook_event_name": "Stop"})
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=cwd or repo, input=stdin)
    assert done.returncode == 0, done.stderr
    return (json.loads(done.stdout) if done.stdout.strip() else None), done.stderr


def test_the_hook_holds_the_session_to_the_focused_goal_only(two_goals: Path) -> None:
    answer, _ = hook(two_goals)
    assert answer is not None
    assert "verify-goal docs" in str(answer["reason"]) and "verify-goal speed" in str(
        answer["reason"]
    )

    done = run_goalfile("focus", "goals/speed.md", cwd=two_goals)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("focus: goals/speed.md (active, since ")
    before = (two_goals / "goals" / "docs.md").read_bytes()
    answer, notes = hook(two_goals)
    assert answer is not None and answer["decision"] == "block"
    assert "verify-goal speed" in str(answer["reason"])
    assert "docs" not in str(answer["reason"])
    assert "focus: goals/speed.md" in notes
    assert (two_goals / "goals" / "docs.md").read_bytes() == before  # not verified

    cleared = run_goalfile("focus", "--clear", cwd=two_goals)
    assert (cleared.returncode, cleared.stdout) == (0, "focus cleared\n")
    answer, _ = hook(two_goals)
    assert answer is not None and "verify-goal docs" in str(answer["reason"])


def test_the_focus_lives_in_the_git_folder_untracked(two_goals: Path) -> None:
    assert run_goalfile("focus", "goals/docs.md", cwd=two_goals).returncode == 0
    recorded = json.loads((two_goals / ".git" / "goalfile-focus.json").read_text())
    assert recorded["goal"] == "goals/docs.md"
    assert git(two_goals, "status", "--porcelain") == ""
    shown = run_goalfile("focus", "--json", cwd=two_goals)
    assert json.loads(shown.stdout)["focus"]["goal"] == "goals/docs.md"


def test_status_shows_the_focus(two_goals: Path) -> None:
    run_goalfile("focus", "goals/docs.md", cwd=two_goals)
    text = run_goalfile("status", cwd=two_goals)
    assert text.stdout.startswith(
        "focus: goals/docs.md (the Stop hook verifies this goal first while it is active)\n"
    )
    data = json.loads(run_goalfile("status", "--json", cwd=two_goals).stdout)
    assert data["focus"] == "goals/docs.md"
    run_goalfile("focus", "--clear", cwd=two_goals)
    data = json.loads(run_goalfile("status", "--json", cwd=two_goals).stdout)
    assert data["focus"] is None


def test_a_focus_on_a_met_goal_does_not_let_the_agent_stop(two_goals: Path) -> None:
    """`goalfile focus goals/old.md` on a goal met long ago is no way out of an active one: a
    focus only narrows the active goals, so the hook falls back to every active goal."""
    (two_goals / "docs.txt").write_text("x")
    assert run_goalfile("verify", "goals/docs.md", cwd=two_goals).returncode == 0  # met
    done = run_goalfile("focus", "goals/docs.md", cwd=two_goals)
    assert "is met; until it is active, the Stop hook verifies every active goal" in done.stderr
    answer, notes = hook(two_goals)
    assert answer is not None and answer["decision"] == "block", answer
    assert str(answer["reason"]).startswith("verify-goal speed iteration 1: C1 unmet")
    assert "the focused goal goals/docs.md is met, not active" in notes
    (two_goals / "fast.txt").write_text("x")  # the active goal met: now the stop is allowed
    answer, _ = hook(two_goals)
    assert answer is not None and "decision" not in answer, answer
    assert "verify-goal speed iteration 2: C1 met; status: met" in str(answer["systemMessage"])


@pytest.mark.parametrize("status", ["paused", "draft"])
def test_a_focus_on_a_goal_that_is_not_active_holds_to_every_active_goal(
    two_goals: Path, status: str
) -> None:
    if status == "paused":
        assert run_goalfile("pause", "goals/docs.md", cwd=two_goals).returncode == 0
    else:
        write_goal(two_goals / "goals", goal_text(slug="later", status="draft"), "later.md")
    focused = "goals/docs.md" if status == "paused" else "goals/later.md"
    assert run_goalfile("focus", focused, cwd=two_goals).returncode == 0
    answer, _ = hook(two_goals)
    assert answer is not None and answer["decision"] == "block", answer
    assert "verify-goal speed" in str(answer["reason"])


def test_a_focused_goal_that_was_deleted_falls_back_to_every_active_goal(
    two_goals: Path,
) -> None:
    run_goalfile("focus", "goals/docs.md", cwd=two_goals)
    (two_goals / "goals" / "docs.md").unlink()
    answer, notes = hook(two_goals)
    assert answer is not None and "verify-goal speed" in str(answer["reason"])
    assert "the focused goal goals/docs.md does not exist" in notes


def test_a_focus_on_a_self_made_goal_does_not_release_the_agent(two_goals: Path) -> None:
    """The agent makes its own active goal (check `true`) in a folder git ignores, focuses it
    and stops: a focus orders and names the goals, it never releases the agent, so once the
    focused goal is met every other goal of the repository is looked at too."""
    with (two_goals / ".git" / "info" / "exclude").open("a", encoding="utf-8") as exclude:
        exclude.write("goals/.cache/\n")
    made = run_goalfile(
        "new", "easy", "x", "--dir", "goals/.cache", "--check", "true", "--expected", "exit 0",
        "--activate", cwd=two_goals,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert run_goalfile("focus", "goals/.cache/easy.md", cwd=two_goals).returncode == 0
    assert git(two_goals, "status", "--porcelain") == ""
    answer, _ = hook(two_goals)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    # git holds no copy of the agent's goal: no person approved it, so it is not run, and the
    # focus on it holds the agent (a focus never releases it)
    assert reason.startswith("goalfile did not run the checks of goals/.cache/easy.md"), reason
    assert "verify-goal easy" not in reason
    (two_goals / "docs.txt").write_text("x")
    (two_goals / "fast.txt").write_text("x")
    answer, _ = hook(two_goals)
    assert answer is not None and answer["decision"] == "block", answer
    assert str(answer["reason"]).startswith("goalfile did not run the checks of goals/.cache/easy")
    assert ") by verify-goal" not in (two_goals / "goals/.cache/easy.md").read_text("utf-8")


def restore_fix(reason: str) -> str:
    """The command in a block reason's `fix:` line."""
    [line] = [line for line in reason.splitlines() if line.strip().startswith("fix: `")]
    return line.split("`")[1]


def test_a_focus_on_a_goal_reopened_by_hand_holds_the_agent(two_goals: Path) -> None:
    """`status: met` -> `status: active` typed on an old met goal, then a focus on it: an
    `active` the ledger does not back is held like an unbacked `met`, and the fix named in the
    reason works as written."""
    (two_goals / "docs.txt").write_text("x")
    assert run_goalfile("verify", "goals/docs.md", cwd=two_goals).returncode == 0  # met
    docs = two_goals / "goals" / "docs.md"
    text = docs.read_text(encoding="utf-8")
    docs.write_text(text.replace("status: met", "status: active", 1), encoding="utf-8")
    assert run_goalfile("focus", "goals/docs.md", cwd=two_goals).returncode == 0
    answer, notes = hook(two_goals)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "goalfile does not accept the status of goals/docs.md: goals/docs.md:" in reason
    assert "a focus is honoured only on an `active` the ledger backs" in reason
    assert "verify-goal speed iteration 1: C1 unmet" in reason
    assert "verify-goal docs" not in reason  # held, not verified
    assert "is active only by a hand edit the ledger does not back" in notes
    fixed = subprocess.run(restore_fix(reason), shell=True, cwd=two_goals, check=False)
    assert fixed.returncode == 0
    status = json.loads(run_goalfile("status", "--json", "goals/docs.md", cwd=two_goals).stdout)
    assert status["goals"][0]["status"] == "met"
    assert run_goalfile("lint", "goals/docs.md", cwd=two_goals).returncode == 0


def test_a_focus_on_a_goal_whose_status_lines_were_all_set_to_active_holds_the_agent(
    two_goals: Path,
) -> None:
    """The same edit over the whole file (the ledger's status lines too): the focused goal is
    met by its checks, and the active, unmet goal still holds the agent."""
    (two_goals / "docs.txt").write_text("x")
    assert run_goalfile("verify", "goals/docs.md", cwd=two_goals).returncode == 0
    docs = two_goals / "goals" / "docs.md"
    docs.write_text(
        docs.read_text(encoding="utf-8").replace("status: met", "status: active"),
        encoding="utf-8",
    )
    assert run_goalfile("focus", "goals/docs.md", cwd=two_goals).returncode == 0
    answer, _ = hook(two_goals)
    assert answer is not None and answer["decision"] == "block", answer
    assert str(answer["reason"]).startswith("verify-goal speed iteration 1: C1 unmet")


def test_each_worktree_has_its_own_focus(two_goals: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    git(two_goals, "worktree", "add", "-q", str(other))
    assert run_goalfile("focus", "goals/docs.md", cwd=other).returncode == 0
    assert json.loads(run_goalfile("focus", "--json", cwd=two_goals).stdout)["focus"] is None
    answer, _ = hook(other)
    assert answer is not None and "speed" not in str(answer["reason"])
    answer, _ = hook(two_goals)
    assert answer is not None and "verify-goal speed" in str(answer["reason"])


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("goals/none.md",), 2, "no such goal file"),
        (("README.md",), 3, ""),
        (("goals/docs.md", "--clear"), 2, "give PATH or --clear, not both"),
    ],
)
def test_bad_focus_requests_are_refused(
    two_goals: Path, args: tuple[str, ...], code: int, message: str
) -> None:
    (two_goals / "README.md").write_text("# not a goal\n")
    done = run_goalfile("focus", *args, cwd=two_goals)
    assert done.returncode == code, done.stderr
    assert message in done.stderr
    assert not (two_goals / ".git" / "goalfile-focus.json").exists()


def test_focus_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    done = run_goalfile("focus", cwd=tmp_path)
    assert done.returncode == 2
    assert "not inside a git repository" in done.stderr


@pytest.mark.parametrize("written", ["absolute", "relative", "symlink"])
def test_a_focus_file_written_by_hand_outside_the_repository_is_ignored(
    two_goals: Path, tmp_path: Path, written: str
) -> None:
    """A hand-written focus on a met goal elsewhere is no way to stop: the hook honours only a
    focus that `goalfile focus` would accept, and looks at every goal of the repository."""
    other = make_git_repo(tmp_path / "elsewhere")
    easy = write_goal(other / "goals", goal_text(slug="easy"), "easy.md")
    assert run_goalfile("verify", easy, cwd=other).returncode == 0  # met, outside the repo
    refused = run_goalfile("focus", easy, cwd=two_goals)
    assert refused.returncode == 2 and "is not inside the repository" in refused.stderr
    target = {
        "absolute": str(easy),
        "relative": "../elsewhere/goals/easy.md",
        "symlink": "goals/easy.md",
    }[written]
    if written == "symlink":  # a link inside the repository to the goal outside it
        (two_goals / "goals" / "easy.md").symlink_to(easy)
    focus = two_goals / ".git" / "goalfile-focus.json"
    focus.write_text(json.dumps({"goal": target, "since": "2026-12-01"}), "utf-8")
    answer, notes = hook(two_goals)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "verify-goal docs" in reason and "verify-goal speed" in reason
    assert "easy" not in reason
    assert "the focus is ignored, as `goalfile focus` would refuse it" in notes
    assert "is not inside the repository" in notes


def test_status_does_not_show_a_focus_outside_the_repository(
    two_goals: Path, tmp_path: Path
) -> None:
    """The hook ignores such a focus, so `status` must not say it verifies that goal first."""
    other = make_git_repo(tmp_path / "elsewhere")
    easy = write_goal(other / "goals", goal_text(slug="easy"), "easy.md")
    focus = two_goals / ".git" / "goalfile-focus.json"
    focus.write_text(json.dumps({"goal": str(easy), "since": "2026-12-01"}), "utf-8")
    text = run_goalfile("status", cwd=two_goals)
    assert "focus:" not in text.stdout and "easy" not in text.stdout
    data = json.loads(run_goalfile("status", "--json", cwd=two_goals).stdout)
    assert data["focus"] is None
    shown = run_goalfile("focus", cwd=two_goals)
    assert shown.stdout == "no focus: the Stop hook verifies every active goal\n"


def test_a_held_goal_is_a_plain_path_in_json_and_a_shell_word_in_the_printed_command(
    tmp_path: Path,
) -> None:
    """focus --json's `held` lists paths, not shell words (it listed `'my plans/sp.md'`, with
    the quotes); the note quotes the path in the command it prints, which runs as printed."""
    repo = make_git_repo(tmp_path / "repo")
    done = run_goalfile("new", "sp", "docs", "--dir", "my plans", "--check", "false",
                        "--expected", "exit 0", "--activate", cwd=repo)  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = run_goalfile("focus", "my plans/sp.md", "--json", cwd=repo)
    assert json.loads(shown.stdout)["held"] == ["my plans/sp.md"], shown.stdout
    said = run_goalfile("focus", "my plans/sp.md", cwd=repo).stderr
    assert "note: my plans/sp.md stays held" in said, said
    command = said.split("a person ends that with `", 1)[1].split("`", 1)[0]
    assert command == "goalfile pause 'my plans/sp.md'"
    sh(command, repo)
    assert json.loads(run_goalfile("focus", "--json", cwd=repo).stdout)["held"] == []
