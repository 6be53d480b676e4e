"""The Stop hook's message on a goal an agent paused or exhausted (rt9 H6) is decided by git,
not by the entry's heading (rt10 H8): an entry the copy git holds does not have is new, whatever
date or `by` the agent types into it; and an entry under the Stop hook's name with a status the
hook never writes (`paused`) is an error for lint and audit."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from pathlib import Path

from conftest import git, make_git_repo, run_goalfile, stop_input

APPROVED = "2026-11-20"  # the person approved it days ago


def _committed(tmp_path: Path) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    made = run_goalfile(
        "new", "g", "x", "--check", "false", "--expected", "exit 0", "--activate", cwd=repo
    )
    assert made.returncode == 0, made.stderr
    goal = repo / "goals" / "g.md"
    text = re.sub(r"(### Iteration 0) \([0-9-]+\) by activate", rf"\1 ({APPROVED}) by activate",
                  goal.read_text())  # fmt: skip
    goal.write_text(re.sub(r"(?m)^created: .*$", f"created: {APPROVED}", text))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "goal: g")
    return repo


def _paused_as(repo: Path, pattern: str, replacement: str) -> None:
    assert run_goalfile("pause", "goals/g.md", cwd=repo).returncode == 0
    goal = repo / "goals" / "g.md"
    text = goal.read_text()
    changed = re.sub(pattern, replacement, text)
    assert changed != text
    goal.write_text(changed)


def _stop(repo: Path) -> str:
    done = run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert "decision" not in answer, answer  # a pause lets the agent go
    message: str = answer["systemMessage"]
    return message


def test_a_pause_redated_since_head_is_still_named(tmp_path: Path) -> None:
    repo = _committed(tmp_path)
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    _paused_as(repo, r"(### Iteration 0) \([0-9-]+\) by pause", rf"\1 ({yesterday}) by pause")
    assert _stop(repo).startswith(
        f"goalfile: goals/g.md (g) is paused, not met: its entry `### Iteration 0 ({yesterday}) "
        "by pause` set it; the stop is allowed"
    )


def test_a_pause_typed_as_the_hooks_entry_is_named_and_refused(tmp_path: Path) -> None:
    repo = _committed(tmp_path)
    _paused_as(repo, r"(### Iteration 0 \([0-9-]+\)) by pause", r"\1 by stop-hook")
    assert "is paused, not met: its entry `### Iteration 0 (" in _stop(repo)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3
    assert "an entry `by stop-hook` sets `status: paused`, which the Stop hook never writes" in (
        linted.stderr
    )
    git(repo, "commit", "-q", "-am", "work")
    audited = run_goalfile("audit", "--against", "HEAD~1", cwd=repo)
    assert audited.returncode == 1
    assert "status-transition-unledgered" in audited.stdout + audited.stderr


def test_words_after_a_pause_heading_are_no_pause_for_any_reader(tmp_path: Path) -> None:
    """rt10 H12: `... by pause (approved by the person)` is a heading no reader takes; lint
    said invalid, but `status` said paused and the hook read the pause as lines of the
    person's committed activate entry and let the agent go silently."""
    repo = _committed(tmp_path)
    _paused_as(repo, r"(### Iteration 0 \([0-9-]+\) by pause)\n", r"\1 (approved by the person)\n")
    shown = run_goalfile("status", "goals/g.md", cwd=repo)
    assert shown.returncode == 3, shown.stdout
    assert "looks like an entry heading but cannot be read as one" in shown.stdout + shown.stderr
    done = run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo))
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block"  # lines added inside HEAD's entry: not a continuation
    assert "Iteration 0 (2026-11-20) by activate: the entry differs from HEAD" in answer["reason"]
    assert "fix: `goalfile restore goals/g.md`" in answer["reason"]
    git(repo, "commit", "-q", "-am", "work")  # committed, it is a file no reader takes
    done = run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo))
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block"
    assert answer["reason"].startswith("goalfile could not read goals/g.md: goals/g.md:"), answer[
        "reason"
    ]
    assert "looks like an entry heading but cannot be read as one" in answer["reason"]
