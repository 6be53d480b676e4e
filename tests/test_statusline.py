"""`goalfile statusline` (Claude Code's status line) and `goalfile init --statusline`."""

from __future__ import annotations

import json
from pathlib import Path

from goalfile.statusline import compact
from tests.conftest import git, goal_text, make_git_repo, row, run_goalfile, write_goal


def status_json(folder: Path) -> str:
    """What Claude Code writes on the status line command's stdin (its documented shape)."""
    return json.dumps(
        {
            "hook_event_name": "Status",
            "session_id": "abc123",
            "transcript_path": str(folder / "transcript.jsonl"),
            "cwd": str(folder),
            "model": {"id": "claude-opus-4-1", "display_name": "Opus"},
            "workspace": {"current_dir": str(folder), "project_dir": str(folder)},
            "version": "1.0.80",
            "output_style": {"name": "default"},
            "cost": {"total_cost_usd": 0.01, "total_duration_ms": 45000},
        }
    )


def statusline(cwd: Path, stdin: str) -> str:
    done = run_goalfile("statusline", cwd=cwd, input=stdin)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_active_goal_in_one_line_from_the_session_folder(repo: Path, tmp_path: Path) -> None:
    rows = (row("C1", "true", "exit 0"), row("C2", "false", "exit 0"))
    write_goal(repo / "goals", goal_text(slug="auth", rows=rows, tokens="2000000"))
    assert run_goalfile("verify", "--tokens-used", "120000", "goals/demo.md", cwd=repo).returncode
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / "src").mkdir()
    shown = statusline(elsewhere, status_json(repo / "src"))  # the session's folder decides
    assert shown == "goal goals/demo.md: 1/2 met · iteration 1/5 · tokens 120k/2M\n"


def test_the_focused_goal_wins_over_other_active_goals(repo: Path) -> None:
    write_goal(repo / "goals", goal_text(slug="first"), "a.md")
    write_goal(repo / "goals", goal_text(slug="second", iterations="null"), "b.md")
    assert statusline(repo, status_json(repo)) == (
        "goal goals/a.md: 0/1 met (not verified yet) · iteration 1/5 (+1 more active)\n"
    )
    assert run_goalfile("focus", "goals/b.md", cwd=repo).returncode == 0
    assert statusline(repo, status_json(repo)) == (
        "goal goals/b.md: 0/1 met (not verified yet) · iteration 1\n"
    )


def test_a_status_other_than_active_is_said(repo: Path) -> None:
    write_goal(repo / "goals", goal_text(slug="done"))
    assert run_goalfile("verify", "goals/demo.md", cwd=repo).returncode == 0
    assert run_goalfile("focus", "goals/demo.md", cwd=repo).returncode == 0
    shown = statusline(repo, status_json(repo))
    assert shown == "goal goals/demo.md (met): 1/1 met · iteration 1/5\n"


def test_nothing_to_show_and_bad_input_never_fail(repo: Path) -> None:
    assert statusline(repo, status_json(repo)) == ""
    write_goal(repo / "goals", goal_text(slug="x"))
    assert statusline(repo, "not json {").startswith("goal goals/demo.md: ")
    (repo / "goals" / "demo.md").write_text("---\nnot: [a goal\n")
    assert statusline(repo, status_json(repo)) == ""


def test_compact_numbers() -> None:
    assert [compact(n) for n in (0, 999, 1000, 1234, 120_000, 2_000_000, 1_500_000_000)] == [
        "0", "999", "1k", "1.2k", "120k", "2M", "1.5G",
    ]  # fmt: skip


# --------------------------------------------------------------------------- init --statusline


def test_init_statusline_merges_into_the_claude_settings(repo: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls)"]}\n}\n')
    done = run_goalfile("init", "--statusline", "--no-goal", "--no-skills", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "registered the status line in .claude/settings.json" in done.stdout
    document = json.loads(settings.read_text())
    assert document["statusLine"] == {
        "type": "command",
        "command": "goalfile statusline",
        "padding": 0,
    }
    assert document["model"] == "opus" and document["permissions"] == {"allow": ["Bash(ls)"]}
    assert "Stop" in document["hooks"]  # the Stop hook went in beside it
    assert settings.read_text().startswith('{\n    "model"')  # its indentation is kept
    before = settings.read_bytes()
    again = run_goalfile("init", "--statusline", "--no-goal", "--no-skills", cwd=repo)
    assert "status line already in .claude/settings.json" in again.stdout
    assert settings.read_bytes() == before


def test_init_statusline_keeps_a_status_line_of_someone_else(repo: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"statusLine": {"type": "command", "command": "~/bin/my-line"}}
    settings.write_text(json.dumps(mine))
    done = run_goalfile("init", "--statusline", "--no-goal", "--no-skills", "--no-hooks", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "a status line is set already (`~/bin/my-line`); kept" in done.stdout
    assert json.loads(settings.read_text()) == mine


def test_init_statusline_leaves_bad_json_untouched(repo: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"statusLine": ')
    done = run_goalfile("init", "--statusline", "--no-goal", "--no-skills", "--no-hooks", cwd=repo)
    assert done.returncode == 3
    assert ".claude/settings.json:1:" in done.stderr and "Traceback" not in done.stderr
    assert settings.read_text() == '{"statusLine": '


def test_a_focus_the_stop_hook_ignores_is_not_shown(tmp_path: Path) -> None:
    """A decoy of the same slug in a folder git ignores, focused and met, while the person's
    goal is active and unmet: the status line and `status` show what the hook looks at."""
    repo = make_git_repo(tmp_path / "repo")
    new = ("new", "auth", "tests pass", "--expected", "exit 0", "--activate")
    assert run_goalfile(*new, "--check", "false", cwd=repo).returncode == 0
    git(repo, "commit", "-qm", "goal: auth")
    before = statusline(repo, status_json(repo))
    # the agent's decoy, kept out of git, verified met and focused
    with (repo / ".git" / "info" / "exclude").open("a") as exclude:
        exclude.write("goals/.cache/\n")
    decoy = "goals/.cache/auth.md"
    made = run_goalfile(*new, "--check", "true", "--dir", "goals/.cache", cwd=repo)
    assert made.returncode == 0, made.stderr
    git(repo, "rm", "-q", "--cached", "--ignore-unmatch", decoy)
    assert run_goalfile("verify", decoy, cwd=repo).returncode == 0
    assert run_goalfile("focus", decoy, cwd=repo).returncode == 0
    assert git(repo, "status", "--porcelain") == ""
    assert statusline(repo, status_json(repo)) == before
    assert before == "goal goals/auth.md: 0/1 met (not verified yet) · iteration 0/5\n"
    document = json.loads(run_goalfile("status", "--json", cwd=repo).stdout)
    assert document["focus"] is None
    assert document["focus_ignored"]["goal"] == decoy
    assert "is met, not active" in document["focus_ignored"]["why"]
    text = run_goalfile("status", cwd=repo).stdout
    assert f"focus: {decoy} (ignored by the Stop hook: the focused goal {decoy} is met" in text


def test_a_met_typed_by_hand_is_said_to_be_one(repo: Path) -> None:
    write_goal(repo / "goals", goal_text(slug="auth", rows=(row("C1", "false", "exit 0"),)))
    assert run_goalfile("focus", "goals/demo.md", cwd=repo).returncode == 0
    path = repo / "goals" / "demo.md"
    path.write_text(path.read_text().replace("status: active", "status: met", 1))
    assert run_goalfile("status", cwd=repo).returncode == 3  # status refuses it
    shown = statusline(repo, status_json(repo))
    assert "(met)" not in shown
    assert shown.startswith("goal goals/demo.md (status met typed by hand, not backed by verify)")
