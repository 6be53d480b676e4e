"""An entry placed among the entries HEAD holds, not after them, is no continuation of the
goal HEAD holds.

With the hook's verify and `by stop-hook` entries committed (the agent's own work-in-progress
commit, or a person's), a `### Iteration 0 (yesterday) by pause` entry typed before the last
one (the `by stop-hook` entry, which has no status line) and `status: paused` in the
frontmatter: the hook counts entries by place, so the pause read as an entry git holds, dated
before today, and the stop was let go with nothing printed; lint said ok. Real git
repositories and the real `goalfile hook stop`."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import committed_repo, git, run_goalfile, shell

GOAL = "goals/auth.md"
PAUSE = "### Iteration 0 (2026-11-02) by pause\n\nreason: waiting\n\nstatus: paused\n\n"


def stop(root: Path, session: str) -> dict[str, object]:
    data = {"session_id": session, "cwd": str(root), "stop_hook_active": False}
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=root, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else {}


def test_a_pause_entry_inserted_before_heads_last_entry_holds_the_agent(tmp_path: Path) -> None:
    root = committed_repo(tmp_path / "project")
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--activate", "--commit", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert stop(root, "first").get("decision") == "block"  # unmet: verify and stop-hook entries
    git(root, "commit", "-qam", "work in progress")
    path = root / GOAL
    text = path.read_text(encoding="utf-8")
    last = text.rindex("### Iteration 1 (")
    assert "by stop-hook" in text[last:].splitlines()[0]
    text = text[:last] + PAUSE + text[last:]
    path.write_text(text.replace("status: active", "status: paused", 1), encoding="utf-8")
    answer = stop(root, "second")
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "does not continue the goal HEAD holds there" in reason, reason
    assert "by pause: the entry was inserted among entries that were there at HEAD" in reason
    fix = reason.split("fix: `", 1)[1].split("`\n", 1)[0]
    assert shell(fix, root).returncode == 0  # the printed fix, run as written
    assert (root / "goals" / "auth.md.goalfile-saved").read_text(encoding="utf-8") == text.replace(
        "status: active", "status: paused", 1
    )
    again = stop(root, "second")
    assert again.get("decision") == "block" and "C1 unmet" in str(again["reason"]), again
