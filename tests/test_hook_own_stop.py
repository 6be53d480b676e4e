"""The agent's own `goalfile hook stop` runs do not use up the Stop hook's holds.

Run by the agent from its shell (in the background, or from a script whose words do not show
it), with input of its own making (its session's id, its folder, ``stop_hook_active`` as it
likes, no transcript or one it wrote), the hook verified the goal and ledgered as the host's
run does: three runs made verify's stall guard block the goal and ledgered the hold on that
block (``by stop-hook-hold``), so the host's next stop was let go with a message, never held;
and two runs after a hold of the host's fed the loop guard, which let the host's next stop go
("no progress in the last 3 verify runs") after one hold. Now a hold counts only when the
host's transcript shows the host's own record of it (:mod:`goalfile.holdseen`). Real
`goalfile` processes, real git repositories, transcripts in each host's shape as the real
hosts write them (the real hosts: tests/hosts/test_own_hook_stop_hold.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import goal_lock_held, run_goalfile
from test_hook import demo_goal
from test_hook import hook_repo as hook_repo
from test_hook_agent_block import GOAL, exit_127, goal_repo, held, hold_entries, let_go

from goalfile.holdseen import host_texts

SESSION = "0a5e2c7d-93b1-4c1e-8f0d-6b2a4e8c1f37"


def tool_call(host: str, command: str, output: str) -> list[dict[str, object]]:
    """The lines a host writes for one shell call of the agent and its output."""
    key = "call_0001"
    if host == "claude":
        use = {"type": "tool_use", "id": key, "name": "Bash", "input": {"command": command}}
        result = {"type": "tool_result", "tool_use_id": key, "content": output}
        return [
            {"type": "assistant", "message": {"role": "assistant", "content": [use]}},
            {"type": "user", "message": {"role": "user", "content": [result]}},
        ]
    if host == "codex":
        call = {"type": "function_call", "name": "exec_command", "call_id": key,
                "arguments": json.dumps({"cmd": command})}  # fmt: skip
        out = {"type": "function_call_output", "call_id": key, "output": output}
        return [
            {"type": "response_item", "payload": call},
            {"type": "response_item", "payload": out},
        ]
    if host == "gemini":
        answer = {"functionResponse": {"id": key, "name": "run_shell_command",
                                       "response": {"output": output}}}  # fmt: skip
        call = {"id": key, "name": "run_shell_command", "args": {"command": command},
                "result": [answer]}  # fmt: skip
        return [{"type": "gemini", "content": "", "toolCalls": [call]},
                {"type": "user", "content": [answer]}]  # fmt: skip
    call = {"type": "toolCall", "id": key, "name": "bash", "arguments": {"command": command}}
    result = {
        "role": "toolResult",
        "toolCallId": key,
        "content": [{"type": "text", "text": output}],
    }
    return [{"type": "message", "message": {"role": "assistant", "content": [call]}},
            {"type": "message", "message": result}]  # fmt: skip


def host_block(host: str, reason: str) -> dict[str, object]:
    """The line a host writes when a Stop hook holds the agent with ``reason``."""
    if host == "claude":
        error = {"blockingError": reason, "command": "goalfile hook stop --agent claude"}
        return {"type": "attachment", "attachment": {"type": "hook_blocking_error",
                "hookName": "Stop", "hookEvent": "Stop", "blockingError": error}}  # fmt: skip
    if host == "codex":
        text = f'<hook_prompt hook_run_id="stop:1:/repo/.codex/hooks.json">{reason}</hook_prompt>'
        message = {"type": "message", "role": "user",
                   "content": [{"type": "input_text", "text": text}]}  # fmt: skip
        return {"type": "response_item", "payload": message}
    if host == "gemini":
        return {"type": "user", "content": [{"text": reason}]}
    return {"type": "message", "message": {"role": "user",
            "content": [{"type": "text", "text": reason}]}}  # fmt: skip


def write(transcript: Path, lines: list[dict[str, object]]) -> None:
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(line) + "\n" for line in lines))


def own_stop(repo: Path, data: dict[str, object]) -> str:
    """One `goalfile hook stop` the agent runs itself, fed ``data``: what it printed."""
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=repo, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


def host_stop(
    repo: Path, host: str, transcript: Path, *, active: bool, extra: tuple[str, ...] = ()
) -> dict[str, object] | None:
    """The host's own stop: its input names the session's transcript. A hold is recorded in
    the transcript as the host records it."""
    data = {"session_id": SESSION, "transcript_path": str(transcript), "cwd": str(repo),
            "hook_event_name": "AfterAgent" if host == "gemini" else "Stop",
            "stop_hook_active": active}  # fmt: skip
    done = run_goalfile("hook", "stop", "--agent", host, *extra, cwd=repo, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    answer = json.loads(text) if text else None
    assert answer is None or isinstance(answer, dict)
    reason = None
    if answer is not None and answer.get("decision") in ("block", "deny"):
        reason = str(answer["reason"])
    if reason is not None:
        write(transcript, [host_block(host, reason)])
    return answer


def forged(repo: Path, tmp_path: Path) -> list[dict[str, object]]:
    """What the agent can feed the hook: its session's id and folder, either flag, no
    transcript, or one of its own holding a Claude Code block record it wrote."""
    fake = tmp_path / "fake.jsonl"
    write(fake, [host_block("claude", "goalfile: verify-goal demo iteration 2")])
    base = {"session_id": SESSION, "cwd": str(repo), "hook_event_name": "Stop"}
    return [
        {**base, "stop_hook_active": False},
        {**base, "stop_hook_active": True},
        {**base, "stop_hook_active": False, "transcript_path": str(fake)},
    ]


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_the_agents_own_runs_do_not_use_up_the_hold_on_a_stall_block(
    host: str, tmp_path: Path
) -> None:
    """Fails before the change: the host's stop was let go with the message, never held.
    The agent's three runs (from a script, so the transcript does not show the words) made
    the stall block and ledgered its hold; the host's stop is held once, with the block's
    words, and writes no second hold entry; the host's next stop is let go."""
    repo = goal_repo(tmp_path)
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("", encoding="utf-8")
    outputs = [own_stop(repo, data) for data in forged(repo, tmp_path)]
    assert "status: blocked (no progress in 3 verify runs)" in outputs[-1], outputs
    assert hold_entries(repo) == 1
    write(transcript, tool_call(host, "sh .cache/run.sh", outputs[-1]))  # its words, as result
    reason = held(host_stop(repo, host, transcript, active=False))
    assert reason.startswith("goalfile: verify-goal demo iteration 2: C1 unmet; status: blocked")
    assert "(`by stop-hook-hold`) was not made by the host" in reason, reason
    assert hold_entries(repo) == 1
    message = let_go(host_stop(repo, host, transcript, active=True))
    assert "is blocked by a verify run" in message, message
    assert "goalfile resume goals/demo.md --resolved TEXT" in message, message


def test_the_agents_own_runs_do_not_feed_the_loop_guard(hook_repo: Path, tmp_path: Path) -> None:
    """Fails before the change: held once, the agent ran the hook twice itself, as continuing,
    and its next stop was let go ("no progress in the last 3 verify runs"). Only the runs
    whose holds the host's transcript shows count: three of them let it go."""
    demo_goal(hook_repo)
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("", encoding="utf-8")
    limit = ("--stall-limit", "3")
    held(host_stop(hook_repo, "claude", transcript, active=False, extra=limit))
    base = {"session_id": SESSION, "cwd": str(hook_repo), "hook_event_name": "Stop"}
    for _ in range(2):
        own_stop(hook_repo, {**base, "stop_hook_active": True})
    held(host_stop(hook_repo, "claude", transcript, active=True, extra=limit))  # was: let go
    answer = host_stop(hook_repo, "claude", transcript, active=True, extra=limit)
    assert "no progress in the last 3 verify runs" in let_go(answer), answer


def test_the_agents_own_run_does_not_use_up_the_unledgered_hold(tmp_path: Path) -> None:
    """Fails before the change: with the goal's lock held by a process of the agent's, its
    own run marked the hold under the git folder (the ledger could not be written), and the
    host's stop found the mark and was let go with the message. Held now, marking nothing;
    the host's next stop is let go."""
    repo = goal_repo(tmp_path)
    exit_127(repo)
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("", encoding="utf-8")
    with goal_lock_held(repo / GOAL):
        assert "could not record this hold" in own_stop(repo, forged(repo, tmp_path)[0])
        reason = held(host_stop(repo, "claude", transcript, active=False))
        assert "the mark of an earlier hold under the git folder was not made by" in reason
        assert "goals/demo.md is blocked" in let_go(
            host_stop(repo, "claude", transcript, active=True)
        )
    assert hold_entries(repo) == 0


def test_a_tool_result_is_not_the_hosts_hold() -> None:
    """The agent's own run prints the hold's words; the host writes them as its tool call's
    result, which is not the host's record of a hold."""
    reason = "goalfile: verify-goal demo iteration 2: C1 unmet; status: blocked"
    for host in ("claude", "codex", "gemini", "pi"):
        assert [text for line in tool_call(host, "x", reason) for text in host_texts(line)] == []
        assert reason in "".join(host_texts(host_block(host, reason))), host


def test_a_transcript_path_no_file_can_have_is_no_traceback(tmp_path: Path) -> None:
    """Fails before the change: a ``transcript_path`` with a NUL byte (or a lone surrogate)
    reached the read of the host's holds, and the hook printed a ValueError's traceback. A
    path no file can have is a transcript that cannot be read: the ledger decides."""
    repo = goal_repo(tmp_path)
    for path in ("/tmp/a\0b", "/tmp/a\ud800b"):
        base = {"session_id": SESSION, "cwd": str(repo), "transcript_path": path}
        for active in (False, True, True, True, False, True):
            own_stop(repo, {**base, "hook_event_name": "Stop", "stop_hook_active": active})
