"""An agent sent back once for its unmet goal cannot then stop on a goal file it broke.

Hosts mark every stop after a block as continuing (Claude Code's and Codex's
``stop_hook_active``), and a hold made only at a stop not so marked let the agent go, with a
message only, at the stop after it had been sent back for unmet rows: it typed `status: met`,
broke the frontmatter, or added a row of its own (no person approved it, so its checks are not
run), and stopped. Each is a finding held once, as the session's record keeps it, whatever the
host says; the stop after it is let go with the message (a host is never held for ever), and
the same change made again after the fix is another finding.

Real `goalfile` processes, a real git repository, the recorded input of each host.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import (
    DATA,
    approved_repo,
    fix_of,
    git,
    goal_lock_held,
    hook_answer,
    run_goalfile,
    sh,
)

GOAL = "goals/demo.md"


def _held_once(repo: Path, said: str, told: str | None = None, **answer: str) -> dict[str, object]:
    """The continuing stop's answer, a hold whose reason says ``said``; the stop after it, the
    same finding, is let go with a message saying ``told`` (``said`` by default): never held
    for ever."""
    held = hook_answer(repo, active=True, **answer)
    assert held.get("decision") == "block", held  # was: let go with a message
    assert said in str(held["reason"]), held
    again = hook_answer(repo, active=True, **answer)
    assert again.get("decision") != "block", again
    assert (told or said) in str(again.get("systemMessage")), again
    return held


def _repo(tmp_path: Path) -> Path:
    """A person's goal, approved and committed, whose check fails until the work is done."""
    return approved_repo(
        tmp_path / "repo", "demo", "--end-state", "ok exists", "--check", "test -f ok",
        "--expected", "exit 0", "--non-goal", "Nothing else changes.",
    )  # fmt: skip


def _typed_met(text: str) -> str:
    return re.sub(r"^status: active", "status: met", text, count=1, flags=re.M)


def _broken(text: str) -> str:
    return text.replace("---", "--", 1)


def _row_added(text: str) -> str:
    row = "| C1 | `test -f ok` | `test -f ok` | exit 0 | deterministic |\n"
    assert row in text, text
    return text.replace(row, row + "| C2 | `true` | `true` | exit 0 | deterministic |\n", 1)


CHANGES = {
    "status met typed": (_typed_met, "goalfile does not accept the status of goals/demo.md"),
    "frontmatter broken": (_broken, "goalfile could not read goals/demo.md"),
    "row added": (_row_added, "goalfile did not run the checks of goals/demo.md"),
}


@pytest.mark.parametrize("agent", ["claude", "codex"])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_goal_file_changed_after_the_agent_was_sent_back_holds_it_once(
    tmp_path: Path, agent: str, change: str
) -> None:
    repo = _repo(tmp_path)
    first = hook_answer(repo, agent=agent, active=False)
    assert first.get("decision") == "block" and "C1 unmet" in str(first["reason"]), first
    goal = repo / GOAL
    kept = goal.read_text(encoding="utf-8")
    edit, said = CHANGES[change]
    goal.write_text(edit(kept), encoding="utf-8")
    _held_once(repo, said, agent=agent)
    # the file put back, as a fix does, and the same change made again: another finding
    goal.write_text(kept, encoding="utf-8")
    goal.write_text(edit(kept), encoding="utf-8")
    again = hook_answer(repo, agent=agent, active=True)
    assert again.get("decision") == "block", again
    assert said in str(again["reason"]), again


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_met_made_for_a_moment_after_the_agent_was_sent_back_holds_it_once(
    tmp_path: Path, agent: str
) -> None:
    """Sent back for its unmet goal, the agent makes the check pass, runs `goalfile verify`
    (`met`, an entry git does not hold yet), undoes the work and stops: the hook runs the
    checks again, writing nothing, and they fail; that hold was let go with a message."""
    repo = _repo(tmp_path)
    assert hook_answer(repo, agent=agent, active=False).get("decision") == "block"
    said = "says `met` by a ledger entry git does not hold yet, but its checks"
    for turn in range(2):  # the second after `goalfile reopen`, as the hold says: held again
        if turn:
            done = run_goalfile("reopen", GOAL, "--reason", "not met", cwd=repo)
            assert done.returncode == 0, done.stdout + done.stderr
        (repo / "ok").write_text("", encoding="utf-8")
        done = run_goalfile("verify", GOAL, cwd=repo)
        assert done.returncode == 0, done.stdout + done.stderr
        (repo / "ok").unlink()
        held = hook_answer(repo, agent=agent, active=True)
        assert held.get("decision") == "block", held  # was: let go with a message
        assert said in str(held["reason"]), held
    told = hook_answer(repo, agent=agent, active=True)  # the same finding: never held for ever
    assert told.get("decision") != "block" and said in str(told.get("systemMessage")), told


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_block_the_agents_own_verify_made_after_it_was_sent_back_holds_it_once(
    tmp_path: Path, agent: str
) -> None:
    """Sent back for its unmet goal, the agent runs `goalfile verify` until verify's stall
    guard writes `blocked` (no progress in 3 verify runs) and stops: that block is held once
    per ledger entry, and the hold on it was made only at a stop not marked continuing."""
    repo = _repo(tmp_path)
    assert hook_answer(repo, agent=agent, active=False).get("decision") == "block"
    for _ in range(3):
        done = run_goalfile("verify", GOAL, cwd=repo)
        if "status: blocked (no progress" in done.stdout:
            break
    assert "status: blocked (no progress" in done.stdout, done.stdout + done.stderr
    _held_once(repo, "no progress in 3 verify runs", "is blocked by a verify run", agent=agent)


def test_a_lock_the_agent_holds_after_it_was_sent_back_holds_it_once(tmp_path: Path) -> None:
    """Sent back for its unmet goal, the agent leaves a process of its own holding the goal's
    lock and stops: verify refuses the goal, and that refusal was let go with a message at the
    stop the host marks as continuing. Held once; the stop after it is let go, with it."""
    repo = _repo(tmp_path)
    assert hook_answer(repo, agent="claude", active=False).get("decision") == "block"
    with goal_lock_held(repo / GOAL):
        said = "locked by another goalfile process"
        _held_once(repo, said, agent="claude", timeout="20")


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_record_deleted_after_the_agent_was_sent_back_holds_it_once(
    tmp_path: Path, agent: str, state_home: Path
) -> None:
    """Sent back once for its unmet goal, the agent deletes the session's record (the user's
    state folder is its to write), types `status: met` and stops: a missing record said the
    hold was made, and the stop was let go with a message. A missing record is no hold made:
    held once, and the stop after it (the record saved again) is let go with the message."""
    repo = _repo(tmp_path)
    first = hook_answer(repo, agent=agent, active=False)
    assert first.get("decision") == "block" and "C1 unmet" in str(first["reason"]), first
    assert list((state_home / "goalfile" / "sessions").glob("*.json"))
    shutil.rmtree(state_home / "goalfile")
    goal = repo / GOAL
    goal.write_text(_typed_met(goal.read_text(encoding="utf-8")), encoding="utf-8")
    said = "goalfile does not accept the status of goals/demo.md"
    _held_once(repo, said, agent=agent)


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_met_committed_with_the_record_deleted_after_the_agent_was_sent_back_holds_it_once(
    tmp_path: Path, agent: str, state_home: Path
) -> None:
    """Sent back once for its unmet goal, the agent makes the check pass for a moment, runs
    `goalfile verify` (`met`), undoes the work, commits the goal file and deletes the session's
    record: with no record the stop read as a first stop, HEAD held the met entry, and the
    stop was let go without a word. A stop the host marks as continuing whose record names no
    repository of the session is no first stop: git's entries count as new, the checks are
    run again and fail, and the agent is held once; the stop after it is let go with the
    message."""
    repo = _repo(tmp_path)
    first = hook_answer(repo, agent=agent, active=False)
    assert first.get("decision") == "block" and "C1 unmet" in str(first["reason"]), first
    (repo / "ok").write_text("", encoding="utf-8")
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode == 0 and "status: met" in done.stdout, done.stdout + done.stderr
    (repo / "ok").unlink()
    git(repo, "commit", "-qam", "met")
    shutil.rmtree(state_home / "goalfile")
    said = "says `met` by a ledger entry the hook cannot place"
    held = _held_once(repo, said, agent=agent)  # was: {} (let go without a word)
    assert "C1 unmet" in str(held["reason"]), held


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_record_edited_to_list_the_hold_after_the_agent_was_sent_back_holds_it_once(
    tmp_path: Path, agent: str, state_home: Path
) -> None:
    """Sent back once for its unmet goal, the agent types `status: met` and writes the key of
    that finding (the file's path, inode, status-change time and size) into the session's
    record as a hold made: the record said the hold was made, and the stop was let go with a
    message. A record the hook did not write is no record: held once, and the stop after it
    is let go with the message."""
    repo = _repo(tmp_path)
    first = hook_answer(repo, agent=agent, active=False)
    assert first.get("decision") == "block" and "C1 unmet" in str(first["reason"]), first
    goal = repo / GOAL
    goal.write_text(_typed_met(goal.read_text(encoding="utf-8")), encoding="utf-8")
    found = os.lstat(goal)
    key = f"unbacked\0{os.path.realpath(goal)}\0{found.st_ino}:{found.st_ctime_ns}:{found.st_size}"
    (record,) = (state_home / "goalfile" / "sessions").glob("*.json")
    data = json.loads(record.read_text(encoding="utf-8"))
    data["held"] = sorted({*data["held"], key})
    record.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
    said = "goalfile does not accept the status of goals/demo.md"
    _held_once(repo, said, agent=agent)


def test_a_met_the_work_made_is_let_go_with_the_record_deleted(
    tmp_path: Path, state_home: Path
) -> None:
    """The honest run with the same lost record: the work done, verified `met` and committed,
    the checks run again at the stop pass, and the stop is let go without a word."""
    repo = _repo(tmp_path)
    assert hook_answer(repo, active=False).get("decision") == "block"
    (repo / "ok").write_text("", encoding="utf-8")
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode == 0 and "status: met" in done.stdout, done.stdout + done.stderr
    git(repo, "add", "ok")
    git(repo, "commit", "-qam", "met")
    shutil.rmtree(state_home / "goalfile")
    assert hook_answer(repo, active=True) == {}


def test_a_record_made_unsavable_after_the_agent_was_sent_back_says_so(
    tmp_path: Path, state_home: Path
) -> None:
    """The same, with a file put where the state folder was: the record can be neither read
    nor saved, and a hold made at every continuing stop would never end, so the stop is let
    go; the message the person sees says that the record cannot be saved, and where."""
    repo = _repo(tmp_path)
    assert hook_answer(repo, active=False).get("decision") == "block"
    shutil.rmtree(state_home / "goalfile")
    (state_home / "goalfile").write_text("", encoding="utf-8")
    goal = repo / GOAL
    goal.write_text(_typed_met(goal.read_text(encoding="utf-8")), encoding="utf-8")
    for _ in range(2):
        told = hook_answer(repo, active=True)
        assert told.get("decision") != "block", told
        message = str(told.get("systemMessage"))
        assert "goalfile does not accept the status of goals/demo.md" in message, told
        assert f"the session's record cannot be saved in {state_home}" in message, told


def _gemini_answer(repo: Path) -> dict[str, object]:
    """Gemini CLI's AfterAgent hook in ``repo``, as its recorded input gives it
    (`stop_hook_active` false, as at every stop that follows a tool call of its model)."""
    data = json.loads((DATA / "hooks" / "gemini-afteragent.json").read_text(encoding="utf-8"))
    data.update(cwd=str(repo))
    data.pop("transcript_path")
    done = run_goalfile(
        "hook", "stop", "--agent", "gemini", cwd=repo, input=json.dumps(data)
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout) if done.stdout.strip() else {}
    assert isinstance(answer, dict), answer
    return answer


def test_under_gemini_a_finding_in_the_goal_file_holds_until_it_is_fixed(tmp_path: Path) -> None:
    """Gemini CLI marks a stop that follows a tool call of the model as no continuing one
    (`stop_hook_active` false), so a finding in the goal file (a typed `status: met`) holds
    the agent at each such stop until the printed fix is run (docs/hosts.md#gemini-cli; the
    stop at which the model answered with text alone is marked continuing, and let go with
    the message: tests/hosts/test_sent_back_once.py)."""
    repo = _repo(tmp_path)
    first = _gemini_answer(repo)
    assert first.get("decision") == "block" and "C1 unmet" in str(first["reason"]), first
    goal = repo / GOAL
    goal.write_text(_typed_met(goal.read_text(encoding="utf-8")), encoding="utf-8")
    said = "goalfile does not accept the status of goals/demo.md"
    for _ in range(3):  # the file unchanged: held each time, with the same fix
        held = _gemini_answer(repo)
        assert held.get("decision") == "block" and said in str(held["reason"]), held
    sh(fix_of(held["reason"]), repo)
    after = _gemini_answer(repo)  # verified again: the goal's own rows decide
    assert after.get("decision") == "block", after
    assert str(after["reason"]).startswith("verify-goal demo iteration "), after
