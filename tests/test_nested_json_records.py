"""The small JSON records goalfile reads beside a goal (the focus record under .git/, the lock
owner note in the lock folder, the status line's input, a judge's reply) may hold anything
another process wrote. Nesting too deep for the JSON decoder (a RecursionError, not a
ValueError) is read as an unreadable record, as malformed JSON is: no traceback. Real goalfile
processes in a real git repository."""

from __future__ import annotations

import fcntl
import json
import os
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import make_git_repo, run_goalfile
from test_budget_limit_max import new_goal

from goalfile.files import _lock_paths

GOAL = "goals/real.md"
DEEP = "[" * 200_000 + "]" * 200_000 + "\n"


def test_a_deeply_nested_focus_record_is_read_as_a_malformed_one(tmp_path: Path) -> None:
    repo = new_goal(tmp_path)
    record = repo / ".git" / "goalfile-focus.json"
    commands = (("status",), ("status", "--json"), ("focus",))
    answers: dict[str, list[tuple[int, str]]] = {}
    for name, text in (("malformed", "{not json\n"), ("deep", DEEP)):
        record.write_text(text, encoding="utf-8")
        answers[name] = []
        for command in commands:
            done = run_goalfile(*command, cwd=repo)
            assert "Traceback" not in done.stderr, (command, done.stderr[-400:])
            assert "RecursionError" not in done.stdout + done.stderr
            answers[name].append((done.returncode, done.stdout))
    assert answers["deep"] == answers["malformed"]
    assert [code for code, _ in answers["deep"]] == [0, 0, 0]
    assert "no focus" in answers["deep"][2][1]
    document = json.loads(answers["deep"][1][1])
    assert [goal["path"] for goal in document["goals"]] == [GOAL]
    # the record is left as it was; `goalfile focus GOAL` replaces it
    assert record.read_text(encoding="utf-8") == DEEP
    done = run_goalfile("focus", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert json.loads(record.read_text(encoding="utf-8"))["goal"] == GOAL


def test_a_deeply_nested_lock_owner_note_names_another_goalfile_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = new_goal(tmp_path)
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))  # the lock folder the child uses
    lock_file, owner_file = _lock_paths(repo / GOAL)
    before = (repo / GOAL).read_bytes()
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held, as a running goalfile holds it
        owner_file.write_text("[" * 2000 + "]" * 2000 + "\n", encoding="utf-8")  # under 4 KiB
        done = run_goalfile("verify", "--lock-wait", "0", GOAL, cwd=repo, env={"TMPDIR": str(temp)})
    finally:
        os.close(fd)
    assert "Traceback" not in done.stderr, done.stderr[-400:]
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert (
        f"goalfile: {GOAL}: locked by another goalfile process; nothing was written" in done.stderr
    )
    assert (repo / GOAL).read_bytes() == before


def test_a_deeply_nested_status_line_input_is_read_as_a_malformed_one(tmp_path: Path) -> None:
    repo = new_goal(tmp_path)
    shown = [run_goalfile("statusline", cwd=repo, input=text) for text in ("{not json\n", DEEP)]
    for done in shown:
        assert done.returncode == 0, done.stderr
        assert "Recursion" not in done.stdout + done.stderr
    assert shown[1].stdout == shown[0].stdout
    assert shown[1].stdout.startswith("goal goals/real.md: "), shown[1].stdout


def test_a_deeply_nested_or_overlong_judge_reply_is_a_judge_error(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("hello\n", encoding="utf-8")
    done = run_goalfile(
        "new", "real", "a.txt greets", "--check", "true", "--expected", "exit 0",
        "--review", "a.txt=says hello", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    replies = {
        "nested too deeply": "'[' * 200_000 + ']' * 200_000",
        "a number too long": "'{\"verdict\": ' + '1' * 5000 + '}'",
    }
    for reason, reply in replies.items():
        judge = tmp_path / "judge.py"
        judge.write_text(f"import sys\nsys.stdin.read()\nprint({reply})\n", encoding="utf-8")
        done = run_goalfile(
            "verify", "--no-write", GOAL, "--judge", f"{sys.executable} {judge}", cwd=repo
        )
        assert "Traceback" not in done.stderr, done.stderr[-400:]
        assert "R1 error: judge error: the judge's reply" in done.stdout + done.stderr
        assert reason in done.stdout + done.stderr, done.stdout + done.stderr
