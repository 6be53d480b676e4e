"""The session's record bound to the host's transcript (:mod:`goalfile.recordbind`): a
transcript the agent rewrote under the record, and a sealed record of another session put in
this session's place.

Real `goalfile hook` processes, real git repositories, a transcript in Claude Code's shape
(tests/test_hook_self_run.py's) or Gemini CLI's.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import git
from test_hook_self_run import (
    SHAPES,
    Transcript,
    forget_records,
    held,
    hook,
    met_and_undone,
    stop_inside_a_call,
)
from test_hook_self_run import made as made
from test_hook_self_run import repo as repo
from test_hook_start import GOAL, SESSION, TOLD

from goalfile.sessionmemory import record_path


def blank_line(path: Path, holding: str) -> None:
    """The agent's edit of the host's transcript: the line that holds ``holding`` made spaces,
    the file's length unchanged."""
    lines = path.read_bytes().split(b"\n")
    found = [index for index, line in enumerate(lines) if holding.encode() in line]
    assert found, holding
    for index in found:
        lines[index] = b" " * len(lines[index])
    size = path.stat().st_size
    path.write_bytes(b"\n".join(lines))
    assert path.stat().st_size == size


def test_a_transcript_rewritten_at_the_same_length_sets_the_record_aside(
    repo: Path, tmp_path: Path
) -> None:
    """Fails before the change: the forged met committed, the record deleted, the person's
    active copy put back, the agent's own `goalfile hook stop` run by a script it wrote (`sh
    x.sh`, its record taken while that call ran), HEAD's met copy checked out again, and then
    the tool call's line in the host's transcript overwritten with spaces (the file's length
    unchanged): the transcript up to the record's length then held no call without its
    result, and the host's stop let the agent go without a word. The record keeps a digest
    of that part: it is set aside, the forged met is checked again and the hold says why."""
    transcript = stop_inside_a_call(repo, tmp_path)
    blank_line(transcript.path, '"sh x.sh"')
    transcript.ran("python3 tidy.py")  # the edit's own tool call, after the record's length
    reason = held(repo, transcript)
    said = (
        "the session's record is set aside, as not the host's hook's: the transcript was "
        "rewritten, up to its length when the record was taken, but its checks, run again"
    )
    assert said in reason, reason


def gemini_transcript(path: Path, command: str) -> None:
    """A Gemini CLI session file with one tool call of ``command``, ended, dated now."""
    import datetime

    stamp = datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")
    result = {"functionResponse": {"id": "run_shell_command_1", "response": {"output": ""}}}
    call = {"id": "run_shell_command_1", "name": "run_shell_command",
            "args": {"command": command}, "result": [result]}  # fmt: skip
    line = {"id": "m1", "timestamp": stamp.replace("+00:00", "Z"), "type": "gemini",
            "toolCalls": [call]}  # fmt: skip
    first = {"sessionId": "session-b", "kind": "main"}
    path.write_text(json.dumps(first) + "\n" + json.dumps(line) + "\n", encoding="utf-8")


def test_another_sessions_sealed_record_copied_in_place_is_set_aside(
    repo: Path, tmp_path: Path
) -> None:
    """Fails before the change: under Gemini CLI, whose start hook is given no transcript, a
    start record is dated against the session's tool calls. The forged met committed, the
    person's active copy put back and a start record taken for another session id (its own
    `goalfile hook start`, before this session's tool calls), HEAD's met copy checked out,
    that sealed record copied over this session's: it was dated before every call of this
    session and named the forged commit with the goal active, and the stop let the agent go
    without a word. A record is sealed with its own file's name: another session's is set
    aside, the forged met is checked again and the hold says why."""
    met_and_undone(repo)
    (repo / GOAL).write_text(git(repo, "show", f"HEAD~1:{GOAL}"), encoding="utf-8")
    assert hook(repo, "start", None, agent="gemini", session="session-a") == TOLD
    git(repo, "checkout", "--", GOAL)
    assert hook(repo, "start", None, agent="gemini", session="session-b") == "{}"  # the host's
    records = Path(os.environ["XDG_STATE_HOME"]) / "goalfile" / "sessions"
    mine = record_path(records, session_id="session-b", transcript=None)
    other = record_path(records, session_id="session-a", transcript=None)
    assert mine is not None and other is not None and other.exists()
    transcript = tmp_path / "session.jsonl"
    gemini_transcript(transcript, "cp a.json b.json")
    shutil.copyfile(other, mine)
    answer = json.loads(hook(repo, "stop", transcript, agent="gemini", session="session-b") or "{}")
    reason = str(answer.get("reason", ""))
    said = (
        "the session's record is set aside, as not the host's hook's: it was sealed for "
        "another session's file (copied in this session's place, or written before records "
        "named their file), but its checks, run again"
    )
    assert said in reason, answer


# `rm -r ~/.local/state/goalfile/sessions`, in words that do not show it
ENCODED_RM = "echo cm0gLXIgfi8ubG9jYWwvc3RhdGUvZ29hbGZpbGUvc2Vzc2lvbnM= | base64 -d | sh"


def host_kept(transcript: Transcript, told: str) -> None:
    """What Claude Code 2.1.332 writes to the transcript of the session-start hook's run: the
    hook's output, with its command."""
    attachment = {"type": "hook_success", "hookName": "SessionStart:startup",
                  "hookEvent": "SessionStart", "content": "", "stdout": told, "stderr": "",
                  "exitCode": 0, "command": "goalfile hook start --agent claude"}  # fmt: skip
    line = {"type": "attachment", "attachment": attachment}
    with transcript.path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")


def test_a_record_deleted_in_words_that_do_not_show_it_holds_the_first_stop(
    repo: Path, tmp_path: Path
) -> None:
    """Fails before the change: after the host's start record, the forged met committed and
    the session's record deleted by a command whose words do not show it (a decoded script);
    the stop, the host not marking it continuing, had nothing to compare with, HEAD held the
    met entry, and the agent was let go without a word. The start hook's output, which
    Claude Code and Codex keep in the transcript, says the session had a record: a stop
    without one is the strictest case, the forged met is checked again and held once."""
    transcript = Transcript(tmp_path / "session.jsonl")
    host_kept(transcript, hook(repo, "start", transcript.path))
    met_and_undone(repo)
    transcript.ran(ENCODED_RM)
    forget_records()
    reason = held(repo, transcript)
    said = (
        f"{GOAL} says `met` by a ledger entry the hook cannot place: the session's record, "
        "which its transcript shows was taken at its start, is gone, but its checks, run again"
    )
    assert said in reason, reason
    assert hook(repo, "stop", transcript.path, active=True) != ""  # told, not held again


def kept_by(host: str, path: Path, told: str) -> None:
    """The session file of Gemini CLI 0.61.0 (`gemini -p`) or pi 0.73.1 after the start hook
    printed ``told`` and the agent ran ENCODED_RM: Gemini CLI puts the hook's context before
    the person's prompt, in the user's first message; goalfile's pi extension appends it as a
    custom entry. What the hook printed is the source of each: nothing, nothing is kept."""
    said = json.loads(told or "{}").get("hookSpecificOutput", {}).get("additionalContext")
    lines: list[dict[str, object]]
    if host == "gemini":
        prompt = f"<hook_context>{said}</hook_context>\n\nMake it met." if said else "Make it met."
        lines = [{"sessionId": SESSION, "kind": "main"},
                 {"id": "m0", "type": "user", "content": [{"text": prompt}]}]  # fmt: skip
    else:
        lines = [{"type": "session", "version": 3, "id": SESSION, "cwd": str(path.parent)}]
        if said:
            lines.append({"type": "custom", "customType": "goalfile", "data": {"context": said}})
    call, result = (json.loads(json.dumps(line).replace(SELF_STOP[host], ENCODED_RM))
                    for line in SHAPES[host])  # fmt: skip
    lines += [call, result]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


SELF_STOP = {"gemini": "goalfile hook stop --agent gemini", "pi": "goalfile hook stop --agent pi"}


@pytest.mark.parametrize("host", ["gemini", "pi"])
def test_a_record_deleted_under_gemini_cli_and_pi_holds_the_first_stop(
    repo: Path, tmp_path: Path, host: str
) -> None:
    """Fails before the change: the start hook printed nothing Gemini CLI or goalfile's pi
    extension keeps in the session file, so a stop after the record's deletion (in words that
    do not show it) had nothing to compare with and let the forged met go. Now the hook's line
    is kept there (Gemini CLI's first user message, pi's custom entry), and the stop is the
    strictest case."""
    transcript = tmp_path / "session.jsonl"
    given = None if host == "gemini" else transcript  # `gemini -p` gives its start hook none
    told = hook(repo, "start", given, agent=host)
    met_and_undone(repo)
    kept_by(host, transcript, told)
    forget_records()
    answer = json.loads(hook(repo, "stop", transcript, agent=host) or "{}")
    assert answer.get("decision") == "block", answer
    said = (
        f"{GOAL} says `met` by a ledger entry the hook cannot place: the session's record, "
        "which its transcript shows was taken at its start, is gone, but its checks, run again"
    )
    assert said in str(answer["reason"]), answer
