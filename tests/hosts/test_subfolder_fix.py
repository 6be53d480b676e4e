"""The Stop hook's `fix:` commands work as written from the sub-folder the agent's shell is in.

The hook names a goal as the session's shell reaches it from the input's `cwd`
(`../goals/demo.md` from `src/`), and a fix it prints must name it the same way, or `sed`
finds no file there.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import run_goalfile
from hosts_fixtures import GOAL, goal_repo, goal_state, goalfile_ok

REFUSED = "goalfile does not accept the status of "


def set_status_line(repo: Path, was: str, typed: str) -> None:
    """Type ``typed`` over the frontmatter's ``status: WAS`` (line 3), as an agent would."""
    path = repo / GOAL
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[2].startswith(f"status: {was} "), lines[:4]  # the frontmatter's status line
    lines[2] = lines[2].replace(f"status: {was} ", f"status: {typed} ", 1)
    path.write_text("\n".join(lines), encoding="utf-8")


def focused_met_typed_active(tmp_path: Path) -> Path:
    """The demo repository with its goal focused and met by `goalfile verify`, then its status
    line typed back to `active` by hand: no entry backs that `active`."""
    repo = goal_repo(tmp_path)
    goalfile_ok("focus", GOAL, cwd=repo)
    (repo / "done.txt").write_text("", encoding="utf-8")
    goalfile_ok("verify", GOAL, cwd=repo)
    set_status_line(repo, "met", "active")
    return repo


def printed_fix(reason: str) -> str:
    """The command of the reason's `fix:` line, as printed (between its backticks)."""
    _, sep, rest = reason.partition("  fix: `")
    assert sep, reason
    return rest.split("`", 1)[0]


def test_a_focused_goals_hand_typed_active_is_fixed_as_written_from_a_sub_folder(
    tmp_path: Path,
) -> None:
    """The focused goal's `met` typed back to `active` (no entry since): the hook ignores the
    focus and holds the agent, and the fix it prints names the goal as the session's folder
    reaches it, like the reason around it (it used to name it from the repository's top, so
    `sed` found no file from `src/`)."""
    repo = focused_met_typed_active(tmp_path)
    src = repo / "src"
    src.mkdir()
    stop = {"cwd": str(src), "hook_event_name": "Stop", "stop_hook_active": False}
    done = run_goalfile("hook", "stop", cwd=src, input=json.dumps(stop))
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert reason.startswith(f"{REFUSED}../goals/demo.md: ../goals/demo.md:3: "), reason
    fix = printed_fix(reason)
    assert fix == (
        "sed -i.orig '3s/^status:.*/status: met/' ../goals/demo.md && rm ../goals/demo.md.orig"
    )
    ran = subprocess.run(fix, shell=True, cwd=src, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("lint", GOAL, cwd=repo)
    goalfile_ok("audit", GOAL, cwd=repo)
