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

from conftest import committed_repo, fix_of, git, run_goalfile, shell

GOAL = "goals/auth.md"
PAUSE = "### Iteration 0 (2026-11-02) by pause\n\nreason: waiting\n\nstatus: paused\n\n"


def stop(root: Path, session: str, *, active: bool = False) -> dict[str, object]:
    data = {"session_id": session, "cwd": str(root), "stop_hook_active": active}
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


def test_the_entry_inserted_again_after_the_fix_ran_is_held_again(tmp_path: Path) -> None:
    """Held once per finding: the agent, sent back, ran the printed fix and typed the same
    entry in again before its next stop, which the hook took for the hold it had made (the
    file never seen put back) and let go with a message. A file written since the hold is
    another finding; one left as it was is still let go with the message, and the fix of the
    second hold keeps its copy beside the first one's."""
    root = committed_repo(tmp_path / "project")
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--activate", "--commit", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert stop(root, "s").get("decision") == "block"
    git(root, "commit", "-qam", "work in progress")
    path = root / GOAL
    text = path.read_text(encoding="utf-8")
    last = text.rindex("### Iteration 1 (")
    typed = (text[:last] + PAUSE + text[last:]).replace("status: active", "status: paused", 1)
    path.write_text(typed, encoding="utf-8")
    held = stop(root, "s", active=True)  # continuing because of the first hold
    assert held.get("decision") == "block", held
    assert shell(fix_of(held["reason"]), root).returncode == 0
    path.write_text(typed, encoding="utf-8")  # the same entry, typed again
    again = stop(root, "s", active=True)
    assert again.get("decision") == "block", again
    fix = fix_of(again["reason"])
    assert f"cp -- {GOAL} {GOAL}.goalfile-saved-2 &&" in fix, fix
    told = stop(root, "s", active=True)  # left as it is: let go, with the message
    assert told.get("decision") is None and "by pause" in str(told.get("systemMessage")), told
    assert shell(fix, root).returncode == 0
    assert (root / f"{GOAL}.goalfile-saved-2").read_text(encoding="utf-8") == typed
    back = stop(root, "s", active=True)
    assert back.get("decision") == "block" and "C1 unmet" in str(back["reason"]), back
