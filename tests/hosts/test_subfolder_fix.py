"""The real Claude Code moves its Bash tool into a sub-folder before it stops: the Stop hook's
reason names the goal as that shell reaches it, and the `fix:` it prints works as written there.

What Claude Code 2.1.332 really does (seen here, and asserted by these tests): after a Bash call
`cd src`, the tool's next calls run in `src/`, the next model request says
`Primary working directory: .../src`, and every Stop hook input carries that folder as `cwd`.
After `cd link`, where `link` is a symbolic link to `src/app/deep`, the shell says it is in
`link`, but the hook's `cwd` is the resolved folder, `.../src/app/deep`. goalfile names the goal
relative to the resolved folder (`../../../goals/demo.md`), which the kernel resolves the same
way from the shell's `link`, so the fix works from either spelling of the folder.

The goal carries a status typed by hand: a `met` no verify entry backs, or, on a focused goal,
an `active` typed over the `met` verify wrote. The hook blocks once, naming the file and line,
with the `sed` that sets the status back (docs/hosts.md); the next stop (`stop_hook_active`)
is let go with the same message.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import run_goalfile
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    GOAL,
    PROMPT,
    Isolation,
    claude_cli,  # noqa: F401  (a fixture)
    goal_repo,
    goal_state,
    goalfile_ok,
    host_session,
    ledger,
)
from hosts_fixtures import isolation as isolation

REFUSED = "goalfile does not accept the status of "
FOLDERS = {"src": "src", "link": "src/app/deep"}  # where `cd NAME` leads, resolved
# a status typed by hand, and the status the printed fix sets back
CASES = {"met-typed": ("met", "active"), "focused-active-typed": ("active", "met")}


def hand_typed_met(tmp_path: Path) -> Path:
    """The demo repository (`new` + `activate` + `init`) with `status: met` typed over the
    goal's `active`."""
    repo = goal_repo(tmp_path)
    set_status_line(repo, "active", "met")
    return repo


def set_status_line(repo: Path, was: str, typed: str) -> None:
    """Type ``typed`` over the frontmatter's ``status: WAS`` (line 3), as an agent would."""
    path = repo / GOAL
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[2].startswith(f"status: {was} "), lines[:4]  # the frontmatter's status line
    lines[2] = lines[2].replace(f"status: {was} ", f"status: {typed} ", 1)
    path.write_text("\n".join(lines), encoding="utf-8")


def for_claude(repo: Path) -> Path:
    """``repo`` with a `src/app/deep` folder and a `link` to it, and a second Stop hook that
    records every input Claude Code hands its hooks."""
    (repo / "src" / "app" / "deep").mkdir(parents=True)
    (repo / "src" / "app" / "deep" / "main.py").write_text("print('hi')\n", encoding="utf-8")
    (repo / "link").symlink_to("src/app/deep", target_is_directory=True)
    settings_path = repo / ".claude" / "settings.json"
    settings = json.loads(settings_path.read_text(encoding="utf-8"))
    [stop] = settings["hooks"]["Stop"]
    inputs = shlex.quote(str(hook_inputs(repo)))
    stop["hooks"].insert(0, {"type": "command", "command": f"cat >> {inputs}; echo >> {inputs}"})
    settings_path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    return repo


def focused_met_typed_active(tmp_path: Path) -> Path:
    """The demo repository with its goal focused and met by `goalfile verify`, then its status
    line typed back to `active` by hand: no entry backs that `active`."""
    repo = goal_repo(tmp_path)
    goalfile_ok("focus", GOAL, cwd=repo)
    (repo / "done.txt").write_text("", encoding="utf-8")
    goalfile_ok("verify", GOAL, cwd=repo)
    set_status_line(repo, "met", "active")
    return repo


def hook_inputs(repo: Path) -> Path:
    return repo.parent / "stop-hook-inputs.jsonl"


def recorded_inputs(repo: Path) -> list[dict[str, Any]]:
    lines = hook_inputs(repo).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def printed_fix(reason: str) -> str:
    """The command of the reason's `fix:` line, as printed (between its backticks)."""
    _, sep, rest = reason.partition("  fix: `")
    assert sep, reason
    return rest.split("`", 1)[0]


def stop_reasons(log: Path) -> list[str]:
    """The Stop hook reasons the fake server's request log shows, in order: each is carried by
    the request that follows the stop it was given at."""
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return [r["feedback"] for r in records if r["feedback"]]


@pytest.mark.parametrize(
    ("case", "folder"),
    [("met-typed", "src"), ("met-typed", "link"), ("focused-active-typed", "src")],
)
def test_the_fix_a_reason_prints_works_from_the_folder_claude_codes_bash_moved_to(
    claude_cli: Path,  # noqa: F811
    isolation: Isolation,
    tmp_path: Path,
    case: str,
    folder: str,
) -> None:
    typed, target = CASES[case]
    repo = for_claude(
        hand_typed_met(tmp_path) if case == "met-typed" else focused_met_typed_active(tmp_path)
    )
    before = (repo / GOAL).read_text(encoding="utf-8")
    entries = ledger(repo)

    def script(turn: Turn) -> Reply:
        if turn.after_tool or turn.feedback is not None:
            return Say("Done.")  # the model does nothing about the reason: the test runs the fix
        return Shell(f"cd {folder} && pwd")

    server, run = host_session("claude", repo, script, isolation, prompt=PROMPT)
    # the Bash tool moved: its output says so (the shell keeps the path as given: `link`)
    moved = [r.turn for r in server.agent_requests() if r.turn and r.turn.after_tool]
    assert moved, run.explain()
    assert (moved[0].tool_output or "").strip() == str(repo.resolve() / folder), run.explain()
    resolved = (repo / FOLDERS[folder]).resolve()
    # the cwd Claude Code hands the Stop hook: the folder the shell moved to, resolved
    inputs = recorded_inputs(repo)
    assert [i["stop_hook_active"] for i in inputs] == [False, True], inputs
    assert {i["cwd"] for i in inputs} == {str(resolved)}, inputs

    # the first stop was blocked once with the reason; the second (stop_hook_active) let go
    reasons = stop_reasons(repo.parent / "claude-requests.jsonl")
    assert len(reasons) == 1, reasons
    [reason] = reasons
    shown = "../" * len(Path(FOLDERS[folder]).parts) + GOAL
    assert f"{REFUSED}{shown}: {shown}:3: the status is `{typed}`" in reason, reason
    fix = printed_fix(reason)
    edit = f"'3s/^status:[^#]*[^#[:space:]]/status: {target}/'"
    assert fix == (
        f"[ ! -e {shown}.goalfile-bak ] && sed -i.goalfile-bak -e {edit} -- {shown} "
        f"&& rm -- {shown}.goalfile-bak"
    )
    assert (repo / GOAL).read_text(encoding="utf-8") == before  # the hook wrote nothing
    assert ledger(repo) == entries

    # the fix, exactly as printed, from the folder the hook was told, and from the shell's own
    # spelling of it (`cd link` keeps `link` in the shell's path)
    lines = before.split("\n")
    lines[2] = lines[2].replace(f"status: {typed} ", f"status: {target} ", 1)  # comment kept
    for where, command in ((resolved, fix), (repo, f"cd {folder} && {fix}")):
        (repo / GOAL).write_text(before, encoding="utf-8")
        done = subprocess.run(
            command, shell=True, cwd=where, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, (where, command, done.stderr)
        assert (repo / GOAL).read_text(encoding="utf-8") == "\n".join(lines)
        assert sorted(p.name for p in (repo / "goals").iterdir()) == ["demo.md"]  # no backup
    goalfile_ok("lint", GOAL, cwd=repo)
    assert goal_state(repo)["status"] == target
    if target == "met":
        goalfile_ok("audit", GOAL, cwd=repo)
        return
    # and the verify the reason names next, from the same folder, runs the goal
    then = reason.split("then run `", 1)[1].split("`", 1)[0]
    assert then == f"goalfile verify {shown}", reason
    verified = run_goalfile(*shlex.split(then)[1:], cwd=resolved)
    assert verified.returncode == 1, verified.stdout + verified.stderr  # C1 unmet: no done.txt
    assert verified.stdout.rstrip().endswith("C1 unmet; status: active"), verified.stdout
    assert goal_state(repo)["status"] == "active"


def test_claude_codes_bash_tool_runs_the_printed_fix_in_the_sub_folder(
    claude_cli: Path,  # noqa: F811
    isolation: Isolation,
    tmp_path: Path,
) -> None:
    """The agent itself runs the fix the reason prints, as written, in its own Bash tool (which
    is in `src/`), then meets the goal; the hook lets it stop and audit accepts the `met`."""
    repo = for_claude(hand_typed_met(tmp_path))
    ran: list[str] = []

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        if turn.feedback is None:
            return Shell("cd src")
        if REFUSED in turn.feedback:
            ran.append(printed_fix(turn.feedback))
            return Shell(ran[-1])
        ran.append('touch "$(git rev-parse --show-toplevel)/done.txt"')
        return Shell(ran[-1])

    server, run = host_session("claude", repo, script, isolation, prompt=PROMPT)
    reasons = stop_reasons(repo.parent / "claude-requests.jsonl")
    assert len(reasons) == 2, (reasons, run.explain())
    assert REFUSED + "../goals/demo.md" in reasons[0]
    assert "verify-goal demo iteration 0: C1 unmet; status: active" in reasons[1]
    assert "../goals/demo.md" in reasons[1]
    assert ran[0] == (
        "[ ! -e ../goals/demo.md.goalfile-bak ] && sed -i.goalfile-bak "
        "-e '3s/^status:[^#]*[^#[:space:]]/status: active/' -- ../goals/demo.md"
        " && rm -- ../goals/demo.md.goalfile-bak"
    )
    # the fix ran in the agent's shell without an error: its result is the next request's input
    results = [r.turn for r in server.agent_requests() if r.turn and r.turn.after_tool]
    fix_result = results[1].body["messages"]
    tool_results = [
        block
        for message in fix_result
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]
    assert tool_results[-1].get("is_error") is False, tool_results[-1]
    assert {i["cwd"] for i in recorded_inputs(repo)} == {str((repo / "src").resolve())}
    assert [(e.iteration, e.by, e.status) for e in ledger(repo)] == [
        (0, "activate", "active"),
        (0, "verify-goal", "active"),
        (1, "stop-hook", ""),
        (1, "verify-goal", "met"),
    ]
    assert goal_state(repo)["status"] == "met"
    assert not (repo / "goals" / "demo.md.goalfile-bak").exists()
    goalfile_ok("audit", GOAL, cwd=repo)


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
        "[ ! -e ../goals/demo.md.goalfile-bak ] && sed -i.goalfile-bak "
        "-e '3s/^status:[^#]*[^#[:space:]]/status: met/' -- ../goals/demo.md"
        " && rm -- ../goals/demo.md.goalfile-bak"
    )
    ran = subprocess.run(fix, shell=True, cwd=src, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("lint", GOAL, cwd=repo)
    goalfile_ok("audit", GOAL, cwd=repo)


def test_a_hand_set_paused_is_named_with_the_line_of_the_entry_that_backs_the_status(
    tmp_path: Path,
) -> None:
    """`status: paused` typed over an active goal, the session in `src/`: the reason names the
    file and line of the status, the line of the newest entry with a status (the activate
    entry's heading; it said line 0), and a fix that works as written from `src/`."""
    repo = goal_repo(tmp_path)
    set_status_line(repo, "active", "paused")
    src = repo / "src"
    src.mkdir()
    stop = {"cwd": str(src), "hook_event_name": "Stop", "stop_hook_active": False}
    answer = json.loads(run_goalfile("hook", "stop", cwd=src, input=json.dumps(stop)).stdout)
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    lines = (repo / GOAL).read_text(encoding="utf-8").split("\n")
    [heading] = [n for n, line in enumerate(lines, 1) if line.endswith(") by activate")]
    assert reason.startswith(
        f"{REFUSED}../goals/demo.md: ../goals/demo.md:3: the status is `paused`, but the "
        f"newest ledger entry with a status (line {heading}) says `active`; "
    ), reason
    fix = printed_fix(reason)
    ran = subprocess.run(fix, shell=True, cwd=src, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert goal_state(repo)["status"] == "active"
    goalfile_ok("lint", GOAL, cwd=repo)
