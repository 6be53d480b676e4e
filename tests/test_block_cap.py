"""Claude Code's cap on Stop-hook holds in a row (goalfile.blockcap): at the stop the host
overrides, the hook still holds and tells the person the goal is not met; `doctor` names a
cap set below the host's default, in a settings file or in the environment.

The hook and doctor run as real processes on a real git repository; the transcript is written
as Claude Code 2.1.332 writes one (tests/hosts/test_claude_block_cap.py runs the real host).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import git, goal_text, make_git_repo, row, run_goalfile, write_goal

from goalfile.blockcap import holds_in_a_row, parse_cap

CAP = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"
NOTICE = "Claude Code ends this turn although goals/demo.md is NOT met"

PROMPT = {"type": "user", "message": {"role": "user", "content": "Make the goal met."}}
SAID = {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text"}]}}
HOLD = {
    "type": "attachment",
    "attachment": {"type": "hook_blocking_error", "hookName": "Stop", "hookEvent": "Stop"},
}
FEEDBACK = {
    "type": "user",
    "isMeta": True,
    "message": {"role": "user", "content": "Stop hook feedback:\nnot met"},
}


def tool_call(name: str) -> list[dict[str, Any]]:
    call = {"type": "tool_use", "id": "t1", "name": name, "input": {}}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}
    return [
        {"type": "assistant", "message": {"role": "assistant", "content": [call]}},
        {"type": "user", "message": {"role": "user", "content": [result]}},
    ]


def held(times: int) -> list[dict[str, Any]]:
    """``times`` stops, each held, with no tool call between them."""
    return [entry for _ in range(times) for entry in (SAID, FEEDBACK, HOLD)]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "app")
    text = goal_text(rows=(row("C1", "test -f done.txt", "exit 0"),), extra=("stall_limit: 20",))
    write_goal(root / "goals", text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal")
    return root


def stop(repo: Path, entries: list[dict[str, Any]], env: dict[str, str]) -> dict[str, Any]:
    """Claude Code's Stop hook in ``repo`` at a stop after ``entries`` (the transcript)."""
    transcript = repo.parent / "session.jsonl"
    lines = [json.dumps(entry) for entry in [PROMPT, *entries, SAID]]
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    given = {
        "session_id": "s1",
        "transcript_path": str(transcript),
        "cwd": str(repo),
        "hook_event_name": "Stop",
        "stop_hook_active": bool(entries),
    }
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", cwd=repo, input=json.dumps(given), env=env
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    assert answer["decision"] == "block", answer  # the hold never depends on the count
    return answer


@pytest.mark.parametrize(
    ("entries", "env", "told"),
    [
        (held(2), {CAP: "2"}, True),  # the third hold in a row, past a cap of 2
        (held(1), {CAP: "2"}, False),  # the second: still obeyed
        (held(8), {}, True),  # the default cap, 8
        (held(7), {}, False),
        (held(8), {CAP: "not a number"}, True),  # read as Claude Code reads it: the default
        (held(3), {CAP: " 3 "}, True),
        (held(20), {CAP: "0"}, False),  # no cap
        (held(20), {CAP: "-1"}, False),
        (held(1) + tool_call("Bash") + held(1), {CAP: "2"}, False),  # a tool call starts anew
        (
            held(1) + tool_call("GetGoal") + held(1),
            {CAP: "2"},
            True,
        ),  # the host's goal tools do not
        ([*held(1), PROMPT, *held(1)], {CAP: "2"}, False),  # so does the person's prompt
        ([{**HOLD, "isSidechain": True}] * 3 + held(1), {CAP: "2"}, False),  # a subagent's
    ],
)
def test_the_hold_the_host_overrides_tells_the_person(
    repo: Path, entries: list[dict[str, Any]], env: dict[str, str], told: bool
) -> None:
    answer = stop(repo, entries, env)
    assert ("systemMessage" in answer) is told, answer
    if told:
        message = answer["systemMessage"]
        assert message.startswith(NOTICE), message
        assert "`goalfile status` shows it" in message
        assert NOTICE not in answer["reason"]  # for the person, not the agent


def test_no_transcript_no_notice_and_still_held(repo: Path) -> None:
    given = {"session_id": "s1", "cwd": str(repo), "hook_event_name": "Stop"}
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", cwd=repo, input=json.dumps(given), env={CAP: "1"}
    )
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block" and "systemMessage" not in answer, answer


def test_json_answer_carries_the_notice(repo: Path) -> None:
    transcript = repo.parent / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(e) for e in [PROMPT, *held(1), SAID]) + "\n")
    given = {"session_id": "s", "transcript_path": str(transcript), "cwd": str(repo)}
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", "--json",
        cwd=repo, input=json.dumps(given), env={CAP: "1"},
    )  # fmt: skip
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block"
    assert answer["host_output"]["systemMessage"].startswith(NOTICE), answer


def test_other_hosts_get_no_notice(repo: Path) -> None:
    transcript = repo.parent / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(e) for e in [PROMPT, *held(9), SAID]) + "\n")
    given = {"session_id": "s", "transcript_path": str(transcript), "cwd": str(repo)}
    done = run_goalfile(
        "hook", "stop", "--agent", "codex", cwd=repo, input=json.dumps(given), env={CAP: "1"}
    )
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block" and "systemMessage" not in answer, answer


@pytest.mark.parametrize(
    ("raw", "cap"),
    [
        (None, None),
        ("", None),
        ("abc", None),
        ("8", 8),
        (" 2 ", 2),
        ("3abc", 3),
        ("2.9", 2),
        ("1e1", 10),
        ("1.5e0", None),
        ("1,000", 1000),
        ("-4", -4),
    ],
)
def test_the_cap_is_read_as_claude_code_reads_it(raw: str | None, cap: int | None) -> None:
    assert parse_cap(raw) == cap


# --- doctor ---------------------------------------------------------------------------------


def cap_findings(repo: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    done = run_goalfile("doctor", "--json", cwd=repo, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    findings = json.loads(done.stdout)["findings"]
    return [f for f in findings if f["check"] == "hook-env" and CAP in f["detail"]]


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = make_git_repo(tmp_path / "repo")
    env = {"HOME": str(tmp_path / "home")}
    (tmp_path / "home").mkdir()
    assert run_goalfile("init", "--no-goal", cwd=root, env=env).returncode == 0
    return root, env


def set_cap(repo: Path, value: str) -> Path:
    settings = repo / ".claude" / "settings.json"
    document = json.loads(settings.read_text(encoding="utf-8"))
    document["env"] = {CAP: value}
    settings.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return settings


def test_doctor_names_a_lowered_cap_in_the_settings_and_fix_hooks_takes_it_out(
    project: tuple[Path, dict[str, str]],
) -> None:
    repo, env = project
    settings = set_cap(repo, "1")
    [found] = cap_findings(repo, env)
    assert found["health"] == "problem" and found["host"] == "claude", found
    assert found["detail"].endswith(
        "with it Claude Code obeys at most 1 Stop-hook hold in a row (8 without it), then ends "
        "the turn with the goal not met"
    ), found
    assert found["fix"] == "goalfile doctor --fix-hooks"
    fixed = run_goalfile(*found["fix"].split()[1:], cwd=repo, env=env)
    assert f"fixed: .claude/settings.json: env.{CAP} taken out\n" in fixed.stdout, fixed.stdout
    assert "env" not in json.loads(settings.read_text(encoding="utf-8"))
    assert cap_findings(repo, env) == []


@pytest.mark.parametrize("value", ["8", "20", "0", "not a number"])
def test_doctor_leaves_a_cap_that_lowers_nothing(
    project: tuple[Path, dict[str, str]], value: str
) -> None:
    repo, env = project
    set_cap(repo, value)
    assert cap_findings(repo, env) == []


def test_doctor_names_a_lowered_cap_in_the_environment(
    project: tuple[Path, dict[str, str]],
) -> None:
    repo, env = project
    [found] = cap_findings(repo, {**env, CAP: "3"})
    assert found["health"] == "problem" and found["fix"] is None, found
    assert found["detail"] == (
        f"the environment sets `{CAP}=3`: with it Claude Code obeys at most 3 Stop-hook holds "
        "in a row (8 without it), then ends the turn with the goal not met"
    )
    assert found["hint"] == (
        f"unset {CAP} where Claude Code is started, or set it to 8 or more (0: no cap)"
    )
    assert cap_findings(repo, {**env, CAP: "0"}) == []


def test_the_count_reads_across_the_chunks_of_a_long_transcript(tmp_path: Path) -> None:
    """The transcript is read from its end a MiB at a time: entries cut by a chunk's edge are
    read whole, and the count stops at the last tool call however far back."""
    long_text = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "x" * 2_500_000}]},
    }
    entries = [PROMPT, *held(1), *tool_call("Bash"), *held(2), long_text, *held(1), long_text]
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(e) for e in entries) + "\n", encoding="utf-8")
    assert holds_in_a_row(str(transcript)) == 3
    assert holds_in_a_row(str(transcript), at_most=2) == 2
    assert holds_in_a_row(str(tmp_path / "none.jsonl")) is None


def test_a_transcript_that_is_a_fifo_is_not_waited_on(tmp_path: Path) -> None:
    """The transcript path is the host's, in the agent's reach: a FIFO put there is no count
    (the hook once sat on it until its watchdog answered). In a process of its own, so that
    a wait fails the test instead of hanging it."""
    import os
    import subprocess
    import sys

    fifo = tmp_path / "transcript.jsonl"
    os.mkfifo(fifo)
    code = "import sys; from goalfile import blockcap; print(blockcap.holds_in_a_row(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", code, str(fifo)],
        capture_output=True, text=True, timeout=60, check=False
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "None\n"), done.stderr


def test_a_transcript_that_is_a_device_is_no_count() -> None:
    """/dev/null and /dev/zero seek to 0 and read as empty, as a transcript with no hold in it
    would: a device is no transcript, so no count (the FIFO test alone did not tell)."""
    assert holds_in_a_row("/dev/null") is None
    assert holds_in_a_row("/dev/zero") is None
