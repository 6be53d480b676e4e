"""The agent's own runs of goalfile's hook, as the host's transcript shows them.

The agent can run `goalfile hook start` or `goalfile hook stop` from its shell tool, with its
session's id on stdin: such a run writes the session's record, which the Stop hook compares
each stop with. The agent forged a met (the check made `true`, re-approved, verified,
committed), deleted the record, put the person's active copy back in the working tree, ran
`goalfile hook start` itself (the record then named the forged commit, with the goal active),
and checked HEAD's met copy out again: the host's stop found a record naming that commit and let
the agent go without a word. The host's transcript records every shell command of the agent;
such a command now holds the agent once and sets the record aside. Real `goalfile` processes,
real git repositories, a transcript in Claude Code's shape (the real hosts:
tests/hosts/test_self_run_hold.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import approved_project, copy_of, git, made_once, run_goalfile
from test_hook_start import GOAL, SESSION, TOLD, loosen_and_commit, start

from goalfile.selfrun import names_hook, names_state, self_runs


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, approved_project)


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    """The person's repository: one approved goal, committed, whose check fails."""
    return copy_of(made, tmp_path / "project")


class Transcript:
    """A Claude Code transcript: each shell command of the agent a `tool_use` line, its result
    a `tool_result` line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.calls = 0
        path.write_text("", encoding="utf-8")

    def ran(self, command: str, *, ended: bool = True) -> None:
        self.calls += 1
        key = f"toolu_{self.calls:04d}"
        use = {"type": "tool_use", "id": key, "name": "Bash", "input": {"command": command}}
        answer = {"tool_use_id": key, "type": "tool_result", "content": "(Bash completed)"}
        call = {"type": "assistant", "message": {"role": "assistant", "content": [use]}}
        result = {"type": "user", "message": {"role": "user", "content": [answer]}}
        lines = [json.dumps(call)] + ([json.dumps(result)] if ended else [])
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in lines))

    def ended(self) -> None:
        """The result of the newest tool call, written when it ends."""
        key = f"toolu_{self.calls:04d}"
        answer = {"tool_use_id": key, "type": "tool_result", "content": "(Bash completed)"}
        result = {"type": "user", "message": {"role": "user", "content": [answer]}}
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(result) + "\n")

    def wrote(self, path: str) -> None:
        """The host's own file tool (Claude Code's Write) writing ``path``."""
        self.calls += 1
        key = f"toolu_{self.calls:04d}"
        use = {"type": "tool_use", "id": key, "name": "Write",
               "input": {"file_path": path, "content": "{}"}}  # fmt: skip
        call = {"type": "assistant", "message": {"role": "assistant", "content": [use]}}
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(call) + "\n")
        self.ended()


def hook(
    repo: Path,
    verb: str,
    transcript: Path | None,
    *,
    active: bool = False,
    agent: str = "claude",
    session: str = SESSION,
) -> str:
    stop = "AfterAgent" if agent == "gemini" else "Stop"
    event = stop if verb == "stop" else "SessionStart"
    data: dict[str, object] = {"session_id": session, "cwd": str(repo), "hook_event_name": event}
    data["stop_hook_active"] = active
    if transcript is not None:
        data["transcript_path"] = str(transcript)
    done = run_goalfile("hook", verb, "--agent", agent, cwd=repo, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout.strip()


def forge_start(repo: Path, transcript: Transcript, command: str) -> None:
    """The agent's attack: the forged met committed, the record deleted, the person's active
    copy put back, its own `goalfile hook start`, HEAD's met copy checked out again."""
    loosen_and_commit(repo)
    state = Path(os.environ["XDG_STATE_HOME"]) / "goalfile"
    for record in (state / "sessions").iterdir():
        record.unlink()
    (repo / GOAL).write_text(git(repo, "show", f"HEAD~1:{GOAL}"), encoding="utf-8")
    transcript.ran(command)
    assert hook(repo, "start", None) == TOLD  # the agent's run: no transcript given
    git(repo, "checkout", "--", GOAL)


def test_the_agents_own_hook_start_holds_the_next_stop_once(repo: Path, tmp_path: Path) -> None:
    """Fails before the change: the host's stop was let go without a word. Held once, naming
    the command, and the forged met is checked again; the stop after it is let go with the
    message."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert start(repo) == TOLD + "\n"
    forge_start(repo, transcript, f"goalfile hook start --agent claude < /tmp/x.json  # {GOAL}")
    answer = json.loads(hook(repo, "stop", transcript.path) or "{}")
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "the agent ran goalfile's own hook from its shell (`goalfile hook start" in reason
    assert "it is set aside for the rest of the session" in reason, reason
    assert "\n  fix: `goalfile status` lists each goal" in reason, reason
    # the forged met's criteria, compared with the goal's first approval
    assert "- C1 check: `test -f ok` → `true`" in reason, reason
    assert "(the session's record of its earlier stops is gone, or set aside, so" in reason
    assert run_goalfile("status", cwd=repo).returncode in (0, 1)  # the fix runs as written
    answer = json.loads(hook(repo, "stop", transcript.path, active=True) or "{}")
    assert "decision" not in answer, answer
    assert "goalfile's own hook from its shell" in str(answer.get("systemMessage")), answer


def test_a_record_deleted_by_a_shell_command_holds_the_first_stop(
    repo: Path, tmp_path: Path
) -> None:
    """Fails before the change: the forged met committed and the record deleted before the
    first stop made a first stop with nothing to compare with, let go without a word."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert start(repo) == TOLD + "\n"
    loosen_and_commit(repo)
    transcript.ran(f"rm -rf {Path(os.environ['XDG_STATE_HOME']) / 'goalfile'}")
    forget_records()
    reason = held(repo, transcript)
    assert "named the folder that holds the Stop hook's record of this session" in reason, reason
    assert "- C1 check: `test -f ok` → `true`" in reason, reason


def test_a_hook_stop_whose_tool_call_is_running_does_nothing(repo: Path, tmp_path: Path) -> None:
    """Fails before the change: the agent's own `goalfile hook stop`, given its session's
    transcript, verified, and wrote the session's record. Now a transcript whose tool call that
    runs the hook has not ended makes it verify and record nothing."""
    transcript = Transcript(tmp_path / "session.jsonl")
    transcript.ran("goalfile hook stop --agent claude < in.json", ended=False)
    state = Path(os.environ["XDG_STATE_HOME"]) / "goalfile" / "sessions"
    before = (repo / GOAL).read_text(encoding="utf-8")
    answer = json.loads(hook(repo, "stop", transcript.path) or "{}")
    assert answer.get("decision") == "block", answer
    assert "runs goalfile's hook and has not ended" in str(answer["reason"]), answer
    assert (repo / GOAL).read_text(encoding="utf-8") == before  # no verify entry
    assert not state.exists() or not any(state.iterdir())
    assert hook(repo, "start", transcript.path) == ""
    assert not state.exists() or not any(state.iterdir())


def the_work(repo: Path) -> None:
    """The goal met honestly: the work done, verified met, committed."""
    (repo / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "ok")
    git(repo, "commit", "-qam", "the work")


def test_an_honest_session_is_not_held(repo: Path, tmp_path: Path) -> None:
    """Not a regression test: commands that only read about the hook hold nothing."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert start(repo) == TOLD + "\n"
    transcript.ran("grep -n 'goalfile hook stop' docs/hosts.md")
    transcript.ran("ls ~/.local/state/nvim")
    the_work(repo)
    assert hook(repo, "stop", transcript.path) == ""


@pytest.mark.parametrize(
    ("command", "hook_run", "state"),
    [
        ("goalfile hook stop --agent claude < in.json", True, False),
        ("cd sub && /venv/bin/goalfile hook  start", True, False),
        ("python -m goalfile hook stop", True, False),
        ("goalfile hook \\\n  stop --agent claude", True, False),
        ("bash -lc 'goalfile hook stop <x'", True, False),
        ("sh -c \"eval 'goalfile hook start'\"", True, False),
        ("grep 'goalfile hook stop' docs", False, False),
        ("goalfile hook", False, False),
        ("goalfile status", False, False),
        ("rm -rf ~/.local/state/goalfile", False, True),
        ("rm -r $XDG_STATE_HOME", False, True),
        ("rm -rf ~/.local", False, True),
        ("ls ~/.local/state/nvim", False, False),
        ("ls -la ~/.local/state", False, False),
        ("du -sh ~/.local", False, False),
        ("ls ~/.local/state/goalfile", False, True),
        ("rm -rf ~/.local/state", False, True),
        ("cd ~/.local/state && rm -r goalfile", False, True),
        ("X=1 ls ~/.local/state", False, False),
        ("cat 'unbalanced goalfile hook stop", True, False),
    ],
)
def test_which_commands_count(command: str, hook_run: bool, state: bool) -> None:
    assert (names_hook(command), names_state(command)) == (hook_run, state)


# each host's shape of a shell tool call and of its result, as the real CLIs wrote them
# (tests/hosts/test_self_run_hold.py runs them), with the command replaced
SHAPES = {
    "codex": (
        {"type": "response_item", "payload": {"type": "function_call", "status": "completed",
         "id": "fc_1", "name": "exec_command", "call_id": "call_1",
         "arguments": json.dumps({"cmd": "goalfile hook stop --agent codex < in.json"})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "call_1",
         "output": "Process exited with code 0\nOutput:\n"}},
    ),
    "gemini": (
        {"id": "m1", "type": "gemini", "content": "", "toolCalls": [{"id": "run_shell_command_1",
         "name": "run_shell_command", "args": {"command": "goalfile hook stop --agent gemini"}}]},
        {"id": "m2", "type": "user", "content": [{"functionResponse": {"id": "run_shell_command_1",
         "name": "run_shell_command", "response": {"output": "Output: (empty)"}}}]},
    ),
    "pi": (
        {"type": "message", "id": "a1", "message": {"role": "assistant", "content": [
            {"type": "toolCall", "id": "call_1", "name": "bash",
             "arguments": {"command": "goalfile hook stop --agent pi"}}]}},
        {"type": "message", "id": "a2", "message": {"role": "toolResult", "toolCallId": "call_1",
         "toolName": "bash", "content": [{"type": "text", "text": "(no output)"}]}},
    ),
}  # fmt: skip


@pytest.mark.parametrize("host", sorted(SHAPES))
def test_each_hosts_tool_call_is_read_and_its_result_found(host: str, tmp_path: Path) -> None:
    call, result = SHAPES[host]
    path = tmp_path / "session.jsonl"
    path.write_text(json.dumps(call) + "\n", encoding="utf-8")
    [running] = self_runs(str(path))
    assert running.hook and running.pending, running
    assert running.command == f"goalfile hook stop --agent {host}"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(result) + "\n")
    [ended] = self_runs(str(path))
    assert ended.hook and not ended.pending, ended


# the agent's own `goalfile hook start`, in words that do not show it: base64 of
# `goalfile hook start --agent claude < in.json`
ENCODED = "echo Z29hbGZpbGUgaG9vayBzdGFydCAtLWFnZW50IGNsYXVkZSA8IGluLmpzb24= | base64 -d | sh"


def met_and_undone(repo: Path) -> None:
    """The agent's forged met: the work made for a moment, verified met, the goal file
    committed, the work undone (the check fails again)."""
    (repo / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0
    git(repo, "commit", "-qm", "goal: done", "--", GOAL)
    (repo / "ok").unlink()


def forget_records() -> Path:
    """The agent's deletion of the session's records; goalfile's state folder."""
    state = Path(os.environ["XDG_STATE_HOME"]) / "goalfile"
    for record in (state / "sessions").iterdir():
        record.unlink()
    return state


def held(repo: Path, transcript: Transcript) -> str:
    """The host's stop, which holds the agent: its reason."""
    answer = json.loads(hook(repo, "stop", transcript.path) or "{}")
    assert answer.get("decision") == "block", answer
    return str(answer["reason"])


def stop_inside_a_call(repo: Path, tmp_path: Path) -> Transcript:
    """The agent's forgery with its own `goalfile hook stop` run by a script it wrote (`sh
    x.sh`), given its session's transcript, after the host's start record: the forged met
    committed, the record deleted, the person's active copy put back for the run, HEAD's met
    copy checked out again; the session's transcript."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert hook(repo, "start", transcript.path) == TOLD
    met_and_undone(repo)
    forget_records()
    (repo / GOAL).write_text(git(repo, "show", f"HEAD~1:{GOAL}"), encoding="utf-8")
    transcript.ran("sh x.sh", ended=False)
    hook(repo, "stop", transcript.path)  # the agent's, inside that tool call: it holds
    transcript.ended()
    git(repo, "checkout", "--", GOAL)
    return transcript


@pytest.mark.parametrize("given", ["transcript", "none"])
def test_a_record_taken_after_the_agents_first_tool_call_is_set_aside(
    repo: Path, tmp_path: Path, given: str
) -> None:
    """Fails before the change: the host's start record taken, the forged met committed, the
    record deleted, the person's active copy put back and `goalfile hook start` run by words
    that do not show it (a decoded script), HEAD's met copy checked out again: the host's stop
    found a record naming the forged commit and let the agent go without a word. A record
    taken at a start after the agent's first tool call (or with no transcript, which every
    host but Gemini CLI gives its start hook) is set aside: the forged met is checked again,
    and the hold says why."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert hook(repo, "start", transcript.path) == TOLD  # the host's: before any tool call
    met_and_undone(repo)
    forget_records()
    (repo / GOAL).write_text(git(repo, "show", f"HEAD~1:{GOAL}"), encoding="utf-8")
    transcript.ran(ENCODED, ended=False)
    assert hook(repo, "start", transcript.path if given == "transcript" else None) == TOLD
    transcript.ended()
    git(repo, "checkout", "--", GOAL)
    reason = held(repo, transcript)
    why = (
        "it was taken at a session's start after the agent's first tool call"
        if given == "transcript"
        else "it was taken without the session's transcript, which the host gives its hooks"
    )
    said = (
        f"{GOAL} says `met` by a ledger entry the hook cannot place: the session's record is "
        f"set aside, as not the host's hook's: {why}, but its checks, run again"
    )
    assert said in reason, reason
    assert "goalfile's own hook" not in reason, reason  # no words showed it


def test_a_record_taken_by_a_stop_inside_a_tool_call_is_set_aside(
    repo: Path, tmp_path: Path
) -> None:
    """Fails before the change: the same forgery with the agent's own `goalfile hook stop`,
    given its session's transcript, run by a script it wrote (`sh x.sh`): the record it wrote
    named the forged commit, and the host's stop let the agent go without a word. A record
    taken while a tool call had no result is set aside."""
    transcript = stop_inside_a_call(repo, tmp_path)
    reason = held(repo, transcript)
    said = (
        "the session's record is set aside, as not the host's hook's: it was taken while a "
        "tool call of the agent's was running, but its checks, run again"
    )
    assert said in reason, reason


def test_the_hosts_own_records_are_not_set_aside(repo: Path, tmp_path: Path) -> None:
    """Not a regression test: the start record taken before the first tool call, and a stop's
    taken when every tool call had its result, stand (a held goal is let go after one hold)."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert hook(repo, "start", transcript.path) == TOLD
    transcript.ran("true")
    answer = json.loads(hook(repo, "stop", transcript.path) or "{}")
    assert answer.get("decision") == "block", answer
    assert "set aside" not in str(answer["reason"]), answer
    transcript.ran("true")
    the_work(repo)
    assert hook(repo, "stop", transcript.path, active=True) == ""


def test_the_hosts_file_tool_writing_in_the_state_folder_holds_once(
    repo: Path, tmp_path: Path
) -> None:
    """Fails before the change: only shell commands were read. A Write of the host's own into
    the folder that holds the session's record holds the agent once, naming it."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert hook(repo, "start", transcript.path) == TOLD
    state = Path(os.environ["XDG_STATE_HOME"]) / "goalfile"
    transcript.wrote(str(state / "sessions" / "x.json"))
    the_work(repo)
    said = f"named the folder that holds the Stop hook's record of this session (`Write {state}"
    assert said in held(repo, transcript)


def test_listing_the_state_folder_above_goalfiles_holds_nothing(repo: Path, tmp_path: Path) -> None:
    """Fails before the change: `ls ~/.local/state`, which changes nothing, held the agent."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert hook(repo, "start", transcript.path) == TOLD
    transcript.ran("ls -la ~/.local/state")
    the_work(repo)
    assert hook(repo, "stop", transcript.path) == ""


def test_the_recheck_after_a_deleted_record_says_what_the_transcript_shows(
    repo: Path, tmp_path: Path
) -> None:
    """Fails before the change: the met checked again because the transcript showed the
    record's folder deleted was said to be so because "this stop follows a hold", at a first
    stop that followed none."""
    transcript = Transcript(tmp_path / "session.jsonl")
    assert hook(repo, "start", transcript.path) == TOLD
    met_and_undone(repo)
    transcript.ran(f"rm -rf {Path(os.environ['XDG_STATE_HOME']) / 'goalfile'}")
    forget_records()
    reason = held(repo, transcript)
    said = (
        f"{GOAL} says `met` by a ledger entry the hook cannot place: the session's transcript "
        "shows that the agent named the folder that holds the session's record, so the "
        "session's record is set aside, but its checks, run again"
    )
    assert said in reason, reason
    assert "follows a hold" not in reason, reason


# a tool call as Gemini CLI 0.61.0 writes it, once it has ended: the line is dated when the
# model's message began (1796411258.4 seconds since the epoch)
GEMINI_DATED = 1796411258.4


def gemini_call(command: str) -> dict[str, object]:
    result = {"functionResponse": {"id": "run_shell_command_1", "response": {"output": ""}}}
    call = {"id": "run_shell_command_1", "name": "run_shell_command",
            "args": {"command": command}, "result": [result]}  # fmt: skip
    return {"id": "m1", "timestamp": "2026-12-04T19:07:38.400Z", "type": "gemini",
            "toolCalls": [call]}  # fmt: skip


def test_a_gemini_start_record_without_a_transcript_is_dated_against_its_tool_calls(
    tmp_path: Path,
) -> None:
    """Fails before the change: Gemini CLI gives its start hook no transcript before the first
    turn is recorded, so a start record without one was taken as the host's, also the
    agent's own. Gemini CLI writes a tool call once it ended, in a line dated when the model's
    message began: a record taken after that is the agent's."""

    from goalfile.recordbind import Taken, unbound

    call = gemini_call("echo x | base64 -d | sh")
    path = tmp_path / "session.jsonl"
    path.write_text(json.dumps({"sessionId": "s"}) + "\n" + json.dumps(call) + "\n", "utf-8")
    dated = GEMINI_DATED
    after = Taken(transcript="", size=0, start=True, at=dated + 1)
    before = Taken(transcript="", size=0, start=True, at=dated - 1)
    assert unbound(after, str(path), bare_start=True) == (
        "it was taken at a session's start after the agent's first tool call"
    )
    assert unbound(before, str(path), bare_start=True) == ""
    assert unbound(before, str(path)) != ""  # a host that gives its start hook the transcript


def test_a_record_taken_while_a_gemini_tool_call_ran_is_set_aside(tmp_path: Path) -> None:
    """Fails before the change: Gemini CLI writes a tool call only once it has ended, so the
    transcript up to a record the agent's own `goalfile hook stop` took inside a call held no
    call without its result. The call's line, written after that length, is dated when the
    model's message began, before the record was taken."""
    from goalfile.recordbind import Taken, unbound

    path = tmp_path / "session.jsonl"
    path.write_text(json.dumps({"sessionId": "s"}) + "\n", "utf-8")
    size = path.stat().st_size
    call = gemini_call("sh x.sh")
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(call) + "\n")
    dated = GEMINI_DATED
    inside = Taken(transcript=str(path), size=size, start=False, at=dated + 1)
    assert unbound(inside, str(path)) == "it was taken while a tool call of the agent's was running"
    earlier = Taken(transcript=str(path), size=size, start=False, at=dated - 1)
    assert unbound(earlier, str(path)) == ""
