"""`goalfile init` and the host settings merge (goalfile.hostjson)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, git, make_git_repo, run_goalfile

from goalfile.hostjson import (
    HostAgent,
    SettingsError,
    hook_command,
    merge_stop_hook,
    register_stop_hook,
)
from goalfile.parse import parse_goal

CLAUDE = Path(".claude") / "settings.json"
CODEX = Path(".codex") / "hooks.json"


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under root (but .git) with its content and modification time."""
    found: dict[str, tuple[bytes, int]] = {}
    for path in sorted(root.rglob("*")):
        if ".git" in path.relative_to(root).parts or not path.is_file():
            continue
        found[str(path.relative_to(root))] = (path.read_bytes(), path.stat().st_mtime_ns)
    return found


def stop_commands(document: dict[str, object]) -> list[str]:
    hooks = document["hooks"]
    assert isinstance(hooks, dict)
    return [h["command"] for group in hooks["Stop"] for h in group["hooks"]]


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    return make_git_repo(tmp_path / "project")


def test_init_sets_up_a_fresh_repository(fresh: Path) -> None:
    done = run_goalfile("init", cwd=fresh)
    assert done.returncode == 0, done.stderr
    goal = fresh / "goals" / "first-goal.md"
    assert parse_goal(goal.read_text("utf-8"), path=str(goal)).status.value == "draft"
    for folder in (".agents/skills", ".claude/skills"):
        names = sorted(p.name for p in (fresh / folder).iterdir() if p.is_dir())
        assert names == ["goal", "plan", "refine-goal", "verify-goal"]
    claude = json.loads((fresh / CLAUDE).read_text("utf-8"))
    assert claude == {
        "hooks": {
            "Stop": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": "goalfile hook stop --agent claude",
                            "timeout": 600,
                        }
                    ]
                }
            ],
            "SessionStart": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": "goalfile hook start --agent claude",
                            "timeout": 60,
                        }
                    ]
                }
            ],
        }
    }
    codex = json.loads((fresh / CODEX).read_text("utf-8"))
    assert stop_commands(codex) == ["goalfile hook stop --agent codex"]
    assert "wrote goals/first-goal.md" in done.stdout
    assert "registered the Stop hook in .claude/settings.json" in done.stdout
    assert "registered the session-start hook in .claude/settings.json" in done.stdout


def test_init_twice_changes_nothing(fresh: Path) -> None:
    assert run_goalfile("init", cwd=fresh).returncode == 0
    before = snapshot(fresh)
    done = run_goalfile("init", cwd=fresh)
    assert done.returncode == 0, done.stderr
    assert snapshot(fresh) == before
    assert "nothing to change" in done.stdout
    document = json.loads(run_goalfile("init", "--json", cwd=fresh).stdout)
    assert document["schema_version"] == 1 and document["changed"] is False
    assert snapshot(fresh) == before


def test_init_from_a_subfolder_works_at_the_top_level(fresh: Path) -> None:
    (fresh / "src" / "deep").mkdir(parents=True)
    done = run_goalfile("init", cwd=fresh / "src" / "deep")
    assert done.returncode == 0, done.stderr
    assert (fresh / "goals" / "first-goal.md").is_file()
    assert (fresh / CLAUDE).is_file() and (fresh / CODEX).is_file()
    assert not (fresh / "src" / "deep" / "goals").exists()


def test_init_keeps_existing_goals_and_settings(fresh: Path) -> None:
    (fresh / "goals").mkdir()
    (fresh / "goals" / "auth.md").write_text("---\nslug: auth\n---\n", encoding="utf-8")
    settings: dict[str, Any] = {
        "model": "opus",
        "permissions": {"allow": ["Bash(pytest:*)"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}],
        },
    }
    (fresh / ".claude").mkdir()
    (fresh / CLAUDE).write_text(json.dumps(settings, indent=4) + "\n", encoding="utf-8")
    done = run_goalfile("init", "--slug", "ignored", cwd=fresh)
    assert done.returncode == 0, done.stderr
    assert not (fresh / "goals" / "ignored.md").exists()
    merged = json.loads((fresh / CLAUDE).read_text("utf-8"))
    assert merged["model"] == "opus" and merged["permissions"] == settings["permissions"]
    assert merged["hooks"]["PreToolUse"] == settings["hooks"]["PreToolUse"]
    assert stop_commands(merged) == ["./notify.sh", "goalfile hook stop --agent claude"]
    assert list(merged) == ["model", "permissions", "hooks"]  # key order kept
    assert '\n    "model"' in (fresh / CLAUDE).read_text("utf-8")  # its indentation kept


def test_an_existing_goalfile_hook_is_not_added_twice(fresh: Path) -> None:
    (fresh / ".codex").mkdir()
    mine = {"hooks": {"Stop": [{"hooks": [{"type": "command",
            "command": "/opt/bin/goalfile hook stop --agent codex --goal goals/a.md --timeout 300",
            "timeout": 300}]}]}}  # fmt: skip
    text = json.dumps(mine)
    (fresh / CODEX).write_text(text, encoding="utf-8")
    (fresh / "goals").mkdir(exist_ok=True)  # --goal names a goal file git tracks
    (fresh / "goals" / "a.md").write_text("# Goal: a\n", encoding="utf-8")
    git(fresh, "add", "goals/a.md")
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=fresh)
    assert done.returncode == 0, done.stderr
    # the Stop hook as it was; the session-start hook added beside it
    written = json.loads((fresh / CODEX).read_text("utf-8"))
    assert written["hooks"]["Stop"] == mine["hooks"]["Stop"]
    assert list(written["hooks"]) == ["Stop", "SessionStart"]
    assert "Stop hook already in .codex/hooks.json" in done.stdout
    assert "registered the session-start hook in .codex/hooks.json" in done.stdout


def test_a_hook_narrowed_to_a_goal_git_does_not_track_is_replaced(fresh: Path) -> None:
    """An agent's own goal, in a folder git ignores, named by `--goal`: the hook would look
    at that goal alone. `init` and `doctor` do not count it as goalfile's hook."""
    (fresh / ".claude").mkdir()
    narrowed = "goalfile hook stop --agent claude --goal goals/wip/easy.md"
    mine = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": narrowed}]}]}}
    (fresh / ".claude" / "settings.json").write_text(json.dumps(mine), encoding="utf-8")
    (fresh / "goals" / "wip").mkdir(parents=True)
    (fresh / "goals" / "wip" / "easy.md").write_text("# Goal: easy\n", encoding="utf-8")
    (fresh / ".git" / "info" / "exclude").write_text("goals/wip/\n", encoding="utf-8")
    doctor = run_goalfile("doctor", "--json", cwd=fresh)
    (shape,) = [f for f in json.loads(doctor.stdout)["findings"] if "--goal goals/" in f["detail"]]
    assert (shape["health"], shape["fix"]) == ("problem", "goalfile doctor --fix-hooks")
    assert "`--goal goals/wip/easy.md` names no goal file a person committed" in shape["detail"]
    assert run_goalfile("init", "--no-goal", "--no-skills", cwd=fresh).returncode == 0
    written = json.loads((fresh / ".claude" / "settings.json").read_text("utf-8"))
    commands = [h["command"] for g in written["hooks"]["Stop"] for h in g["hooks"]]
    assert commands == ["goalfile hook stop --agent claude"], commands


def test_outside_git_init_and_doctor_keep_a_goal_option_naming_a_file(tmp_path: Path) -> None:
    """Outside every git repository the hook verifies the goal `--goal` names as it is, and
    there is no git to ask: `init` keeps such an option, as doctor accepts it (init once
    dropped it, asking git's index of a folder that has none)."""
    folder = tmp_path / "plain"
    (folder / "goals").mkdir(parents=True)
    (folder / "goals" / "x.md").write_text("# Goal: x\n", encoding="utf-8")
    (folder / ".claude").mkdir()
    pinned = "goalfile hook stop --agent claude --goal goals/x.md"
    mine = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": pinned}]}]}}
    (folder / ".claude" / "settings.json").write_text(json.dumps(mine), encoding="utf-8")
    assert run_goalfile("init", "--no-goal", "--no-skills", cwd=folder).returncode == 0
    written = json.loads((folder / ".claude" / "settings.json").read_text("utf-8"))
    assert [h["command"] for g in written["hooks"]["Stop"] for h in g["hooks"]] == [pinned]
    doctor = run_goalfile("doctor", "--json", cwd=folder)
    assert not [f for f in json.loads(doctor.stdout)["findings"] if "pins the hook" in f["detail"]]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"n": 1e400}\n', "the number 1e400 is too large to be written back"),
        ('{"n": NaN}\n', "NaN is not JSON"),
        ('{"n": -Infinity}\n', "-Infinity is not JSON"),
        ('{"x": "\\ud800"}\n', "lone surrogate"),
    ],
)
def test_a_settings_file_goalfile_could_not_write_back_is_left_untouched(
    fresh: Path, text: str, said: str
) -> None:
    """`1e400` is JSON, but Python reads it as infinity and wrote it back as `Infinity`, which
    no JSON reader takes (Claude Code then dropped every hook of the file, goalfile's too); a
    `\\ud800` escape ended init in a traceback. Both are reported, and the file kept."""
    (fresh / ".claude").mkdir()
    (fresh / CLAUDE).write_text(text, encoding="utf-8")
    done = run_goalfile("init", cwd=fresh)
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    assert f"{fresh / CLAUDE}:" in done.stderr and said in done.stderr, done.stderr
    if "1e400" in text:  # a number is named by its line and column
        assert f"{fresh / CLAUDE}:1:7: " in done.stderr
    assert "the file was left untouched" in done.stderr
    assert (fresh / CLAUDE).read_text("utf-8") == text
    assert stop_commands(json.loads((fresh / CODEX).read_text("utf-8")))  # the other one is done


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ('{\n  "hooks": {\n    "Stop": [\n  }\n}\n', 4, 3),
        ('{"model": "opus",}\n', 1, 18),
        ("{'a': 1}", 1, 2),
    ],
)
def test_a_malformed_settings_file_is_reported_and_left_untouched(
    fresh: Path, text: str, line: int, column: int
) -> None:
    (fresh / ".claude").mkdir()
    (fresh / CLAUDE).write_text(text, encoding="utf-8")
    done = run_goalfile("init", cwd=fresh)
    assert done.returncode == 3
    assert f"{fresh / CLAUDE}:{line}:{column}: not valid JSON" in done.stderr
    assert (fresh / CLAUDE).read_text("utf-8") == text
    assert stop_commands(json.loads((fresh / CODEX).read_text("utf-8")))  # the other one is done
    assert (fresh / "goals" / "first-goal.md").is_file()
    document = json.loads(run_goalfile("init", "--json", cwd=fresh).stdout)
    assert document["errors"][0]["line"] == line and document["exit_code"] == 3


@pytest.mark.parametrize(
    "document",
    [[1, 2], {"hooks": []}, {"hooks": {"Stop": {"hooks": []}}}],
)
def test_a_settings_file_of_the_wrong_shape_is_refused(fresh: Path, document: object) -> None:
    with pytest.raises(SettingsError):
        merge_stop_hook(document, agent=HostAgent.CLAUDE)
    (fresh / ".claude").mkdir()
    text = json.dumps(document)
    (fresh / CLAUDE).write_text(text, encoding="utf-8")
    done = run_goalfile("init", "--no-goal", "--no-skills", cwd=fresh)
    assert done.returncode == 3 and str(fresh / CLAUDE) in done.stderr
    assert (fresh / CLAUDE).read_text("utf-8") == text


def test_merge_is_pure_and_idempotent() -> None:
    original: dict[str, object] = {"hooks": {"Stop": [{"hooks": [{"command": "a"}]}]}, "x": 1}
    merged, changed = merge_stop_hook(original, agent=HostAgent.CODEX, timeout=120)
    assert changed and original == {"hooks": {"Stop": [{"hooks": [{"command": "a"}]}]}, "x": 1}
    assert merged["hooks"]["Stop"][-1] == {  # type: ignore[index]
        "hooks": [{"type": "command", "command": hook_command(HostAgent.CODEX), "timeout": 120}]
    }
    again, changed = merge_stop_hook(merged, agent=HostAgent.CODEX)
    assert not changed and again == merged


def test_an_empty_settings_file_is_filled_and_the_mode_kept(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    path = tmp_path / CLAUDE
    path.write_text("\n", encoding="utf-8")
    os.chmod(path, 0o600)
    done = register_stop_hook(root=tmp_path, agent=HostAgent.CLAUDE)
    assert done.changed and not done.created
    assert stop_commands(json.loads(path.read_text("utf-8"))) == [hook_command(HostAgent.CLAUDE)]
    assert path.stat().st_mode & 0o777 == 0o600
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_init_options_skip_steps(fresh: Path) -> None:
    done = run_goalfile("init", "--no-goal", "--no-skills", "--no-hooks", cwd=fresh)
    assert done.returncode == 0
    assert snapshot(fresh) == {}


def test_the_starter_draft_lints_with_warnings_until_it_is_activated(fresh: Path) -> None:
    assert run_goalfile("init", "--slug", "ship-it", cwd=fresh).returncode == 0
    assert (fresh / "goals" / "ship-it.md").is_file()
    # the pre-commit hook runs `goalfile lint` on it: placeholders in a draft are warnings
    lint = run_goalfile("lint", "goals/ship-it.md", cwd=fresh)
    assert lint.returncode == 0, lint.stderr
    assert "warning: the end state is still a placeholder" in lint.stderr
    activate = run_goalfile("activate", "goals/ship-it.md", cwd=fresh)
    assert activate.returncode == 3
    assert "is still a placeholder" in activate.stderr


# --- pre-commit -----------------------------------------------------------------------------


def test_the_pre_commit_hook_lints_goal_files() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    (lint,) = [h for h in hooks if h["id"] == "goalfile-lint"]
    assert lint["entry"] == "goalfile lint" and lint["language"] == "python"
    files = re.compile(lint["files"])
    assert files.search("goals/auth.md") and files.search(".zetetic/goals/a/b.md")
    assert not files.search("docs/goals/auth.md") and not files.search("goals/auth.txt")
    assert lint["files"] == r"^(goals|\.zetetic/goals)/.*\.md$"


def test_the_pre_commit_entry_runs(fresh: Path) -> None:
    assert run_goalfile("init", cwd=fresh).returncode == 0
    done = run_goalfile("lint", "goals/first-goal.md", cwd=fresh)
    # a commit right after `goalfile init` passes the hook: the starter draft only warns
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "goals/first-goal.md: ok (3 warnings)"
