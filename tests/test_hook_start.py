"""The session's record taken at its start (`goalfile hook start`): the first stop compares with
it, as every later stop compares with the one before.

Before it, a session's first stop had no record: an agent that, before that stop, loosened the
person's committed check, re-approved it itself (`goalfile activate --reapprove`), verified it
met and committed it was let go without a word (HEAD held its own approval); and one that wrote
a commit holding a `met` copy with plumbing and set it as the branch was let go too. Real
`goalfile` processes fed the hosts' session-start and stop input, real git repositories.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import approved_project, copy_of, git, made_once, run_goalfile
from test_hook_branch_moved import forged_commit, git_in

from goalfile.recordbind import STARTED

GOAL = "goals/auth.md"
CHECK_ROW = "| `test -f ok` | exit 0"
SESSION = "c3f1a2b4-0d5e-4f60-8a71-92b3c4d5e6f7"
# what the start hook prints to Claude Code and Codex when it takes the session's record
TOLD = json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                          "additionalContext": STARTED}})  # fmt: skip


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, approved_project)


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    """The person's repository: one approved goal, committed, whose check fails."""
    return copy_of(made, tmp_path / "project")


def start(repo: Path, agent: str = "claude", *, source: str = "startup") -> str:
    """The host's session-start hook, as it runs it: what it prints on stdout."""
    event = "session_start" if agent == "pi" else "SessionStart"
    data = {"session_id": SESSION, "cwd": str(repo), "hook_event_name": event, "source": source}
    done = run_goalfile("hook", "start", "--agent", agent, cwd=repo, input=json.dumps(data))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def stop(repo: Path, *, active: bool = False) -> dict[str, object]:
    data = {"session_id": SESSION, "cwd": str(repo), "hook_event_name": "Stop",
            "stop_hook_active": active}  # fmt: skip
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=repo, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return json.loads(text) if text else {}


def loosen_and_commit(repo: Path) -> None:
    """The agent's first turn: the check made `true`, re-approved, verified met, committed."""
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    assert CHECK_ROW in text
    path.write_text(text.replace(CHECK_ROW, "| `true` | exit 0", 1), encoding="utf-8")
    done = run_goalfile("activate", "--reapprove", GOAL, "--reason", "simpler", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    git(repo, "commit", "-qam", "goal: done")


def test_a_loosening_committed_before_the_first_stop_holds_it(repo: Path) -> None:
    """Fails before the change: the first stop was let go without a word. Held once, naming the
    change and the commit HEAD was on at the session's start; the stop after it is let go with
    the change, which the person reads."""
    assert start(repo) == TOLD + "\n"  # Claude Code hands it to the model, and keeps it
    loosen_and_commit(repo)
    answer = stop(repo)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "- C1 check: `test -f ok` → `true`" in reason, reason
    assert "which HEAD was on at this session's start, where the goal was active" in reason
    assert "do not change, re-approve or commit criteria to stop" in reason, reason
    # the approved criteria, as the reason names them, are the person's
    shown = reason.split("the approved criteria are those of `", 1)[1].split("`", 1)[0]
    assert "| `test -f ok` |" in git_in(repo, *shown.split()[1:]), shown
    answer = stop(repo, active=True)
    assert "decision" not in answer, answer
    message = str(answer.get("systemMessage", ""))
    assert "- C1 check: `test -f ok` → `true`" in message, message
    assert "the branch moved since the session's start" in message, message


def test_a_branch_moved_by_hand_before_the_first_stop_holds_it(repo: Path, tmp_path: Path) -> None:
    """Fails before the change: a commit holding a `met` copy, written with plumbing and set as
    the branch by hand before the first stop, was let go without a word. Its `met` is checked
    again at the first stop, and the failing check holds the agent."""
    assert start(repo) == TOLD + "\n"
    commit = forged_commit(repo, tmp_path)
    (repo / ".git" / "refs" / "heads" / "main").write_text(f"{commit}\n", encoding="ascii")
    answer = stop(repo)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert (
        "says `met` by a ledger entry of the commit its branch was moved to since the start of "
        "this session, where it was active" in reason
    ), reason
    assert "- C1 unmet (exit 1)" in reason, reason


def test_the_work_done_and_committed_before_the_first_stop_is_let_go(repo: Path) -> None:
    """Not a regression test (passes before the change): the agent that does the work, verifies
    it met and commits before its first stop is let go without a word; its met is checked
    again and still passes."""
    assert start(repo) == TOLD + "\n"
    (repo / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "ok")
    git(repo, "commit", "-qam", "the work")
    assert stop(repo) == {}


def test_a_session_with_a_record_keeps_it(repo: Path) -> None:
    """A resumed or compacted session (the hosts run the start hook again, with the same id)
    keeps the record its stops took: what is checked out now is not the start."""
    assert stop(repo).get("decision") == "block"  # C1 unmet: the record names the commit
    loosen_and_commit(repo)
    data = {"session_id": SESSION, "cwd": str(repo), "hook_event_name": "SessionStart",
            "source": "resume"}  # fmt: skip
    done = run_goalfile("hook", "start", "--json", cwd=repo, input=json.dumps(data))
    assert json.loads(done.stdout)["kept"] is True, done.stdout
    answer = stop(repo)
    assert answer.get("decision") == "block", answer
    assert "which HEAD was on at this session's earlier stop" in str(answer["reason"]), answer


def test_a_session_whose_stops_left_its_record_empty_takes_it_anew(repo: Path) -> None:
    """Fails before the change: a session whose last stop left no active goal (met) has its
    record written empty; the person reopens the goal and resumes the session, whose start
    hook kept the empty record, and the loosening committed then was compared with nothing
    and let go without a word. The record is taken anew at the resume, and the loosening is
    held."""
    start(repo)
    (repo / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "ok")
    git(repo, "commit", "-qam", "the work")
    assert stop(repo) == {}
    (repo / "ok").unlink()
    done = run_goalfile("reopen", GOAL, "--reason", "ok is made by the build", cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "commit", "-qam", "goal: reopened")
    assert start(repo, source="resume") == TOLD + "\n"
    loosen_and_commit(repo)
    answer = stop(repo)
    assert answer.get("decision") == "block", answer
    assert "- C1 check: `test -f ok` → `true`" in str(answer["reason"]), answer


@pytest.mark.parametrize(
    ("agent", "printed"), [("codex", TOLD + "\n"), ("gemini", TOLD + "\n"), ("pi", TOLD + "\n")]
)
def test_each_host_is_answered_as_its_start_hook_reads_it(
    repo: Path, agent: str, printed: str
) -> None:
    """Each host keeps the line of context in the session's file (pi by goalfile's
    extension); with no record, Gemini CLI, which reads a hook's stderr as its message when
    stdout is empty, gets `{}`."""
    assert start(repo, agent) == printed
    loosen_and_commit(repo)
    assert stop(repo).get("decision") == "block"


@pytest.mark.parametrize("given", ["not json", "[]", ""])
def test_input_that_is_no_hosts_records_nothing_and_exits_0(repo: Path, given: str) -> None:
    done = run_goalfile("hook", "start", "--agent", "claude", cwd=repo, input=given)
    assert done.returncode == 0 and done.stdout == "", done
    assert "Traceback" not in done.stderr, done.stderr
    assert given == "" or "goalfile hook start: " in done.stderr, done.stderr
