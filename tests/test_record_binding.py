"""The session's record bound to the host's transcript (:mod:`goalfile.recordbind`): a
transcript the agent rewrote under the record, a sealed record of another session put in this
session's place, and what a stop reads of a long transcript.

Real `goalfile hook` processes, real git repositories, a transcript in Claude Code's shape
(tests/test_hook_self_run.py's); through the real hosts, tests/hosts/test_record_binding_hold.py.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import approved_project, copy_of, git, made_once, run_goalfile
from test_hook_self_run import Transcript, forget_records, held, hook, met_and_undone
from test_hook_start import GOAL

from goalfile.sessionmemory import record_path


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, approved_project)


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    """The person's repository: one approved goal, committed, whose check fails."""
    return copy_of(made, tmp_path / "project")


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
    transcript = Transcript(tmp_path / "session.jsonl")
    assert hook(repo, "start", transcript.path) == ""
    met_and_undone(repo)
    forget_records()
    (repo / GOAL).write_text(git(repo, "show", f"HEAD~1:{GOAL}"), encoding="utf-8")
    transcript.ran("sh x.sh", ended=False)
    hook(repo, "stop", transcript.path)  # the agent's, inside that tool call
    transcript.ended()
    git(repo, "checkout", "--", GOAL)
    blank_line(transcript.path, '"sh x.sh"')
    transcript.ran("python3 tidy.py")  # the edit's own tool call, after the record's length
    reason = held(repo, transcript)
    said = (
        "the session's record is set aside, as not the host's hook's: the transcript was "
        "rewritten, up to its length when the record was taken, but its checks, run again"
    )
    assert said in reason, reason


def gemini_hook(repo: Path, verb: str, session: str, transcript: Path | None) -> dict[str, object]:
    """`goalfile hook VERB --agent gemini` as Gemini CLI runs it for ``session``: its start
    hook given no transcript (as before the session's first turn is recorded)."""
    event = "AfterAgent" if verb == "stop" else "SessionStart"
    data: dict[str, object] = {"session_id": session, "cwd": str(repo), "hook_event_name": event}
    data["stop_hook_active"] = False
    if transcript is not None:
        data["transcript_path"] = str(transcript)
    done = run_goalfile("hook", verb, "--agent", "gemini", cwd=repo, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout) if done.stdout.strip() else {}
    assert isinstance(answer, dict), answer
    return answer


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
    assert gemini_hook(repo, "start", "session-a", None) == {}
    git(repo, "checkout", "--", GOAL)
    assert gemini_hook(repo, "start", "session-b", None) == {}  # the host's, for this session
    records = Path(os.environ["XDG_STATE_HOME"]) / "goalfile" / "sessions"
    mine = record_path(records, session_id="session-b", transcript=None)
    other = record_path(records, session_id="session-a", transcript=None)
    assert mine is not None and other is not None and other.exists()
    transcript = tmp_path / "session.jsonl"
    gemini_transcript(transcript, "cp a.json b.json")
    shutil.copyfile(other, mine)
    answer = gemini_hook(repo, "stop", "session-b", transcript)
    reason = str(answer.get("reason", ""))
    said = (
        "the session's record is set aside, as not the host's hook's: it is another session's "
        "record, put in this session's place, but its checks, run again"
    )
    assert said in reason, answer
