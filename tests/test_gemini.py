"""Gemini CLI: the AfterAgent hook's protocol, its retry-storm guard, its settings, its usage."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import DATA, goal_text, make_git_repo, row, run_goalfile, write_goal

from goalfile.hostjson import HostAgent, merge_stop_hook
from goalfile.hostprotocol import detect_agent
from goalfile.usage import Host, read_usage
from goalfile.usage_hosts import GeminiTally

SESSION = DATA / "transcripts" / "gemini-session-a.jsonl"
SESSION_ID = "0ffe87d3-e47a-4fa6-80ba-f0f8483fb754"
SESSION_TOKENS = 4222  # 4 model messages (6 lines: 2 written twice), input - cached + output


@pytest.fixture
def gemini_repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "repo")
    (root / "goals").mkdir()
    text = goal_text(rows=[row("C1", "test -f done.txt", "exit 0")], extra=("stall_limit: 20",))
    write_goal(root / "goals", text)
    return root


def after_agent(
    repo: Path, *, active: bool = False, transcript: Path | None = None, agent: str | None = None
) -> tuple[dict[str, object] | None, subprocess.CompletedProcess[str]]:
    data = json.loads((DATA / "hooks" / "gemini-afteragent.json").read_text())
    data["cwd"] = str(repo)
    data["stop_hook_active"] = active
    data["transcript_path"] = str(transcript) if transcript else str(repo / "absent.jsonl")
    args = ["hook", "stop", *(["--agent", agent] if agent else [])]
    done = run_goalfile(*args, cwd=repo, input=json.dumps(data))
    assert done.returncode == 0, done.stderr
    text = done.stdout.strip()
    return (json.loads(text) if text else None), done


def entries(repo: Path) -> int:
    return (repo / "goals" / "demo.md").read_text().count("by verify-goal")


def test_the_session_file_is_read_once_per_message() -> None:
    usage = read_usage(SESSION)
    assert usage.host is Host.GEMINI
    assert usage.session_id == SESSION_ID
    assert usage.tokens == SESSION_TOKENS


def test_tally_dedupes_by_id_and_reads_set_records() -> None:
    tally = GeminiTally()
    first = {"id": "a", "type": "gemini", "tokens": {"input": 100, "cached": 40, "output": 5}}
    tally.feed({"sessionId": "s", "projectHash": "h", "startTime": "t"})
    tally.feed(first)
    tally.feed(first)  # written again after its tool calls
    tally.feed({"$set": {"messages": [first, {"id": "b", "type": "user", "content": []}]}})
    assert tally.tokens == 65
    thoughts = {"input": 10, "cached": 0, "output": 1, "thoughts": 7, "tool": 2}
    tally.feed({"$set": {"messages": [{"id": "c", "type": "gemini", "tokens": thoughts}]}})
    assert tally.tokens == 65 + 20
    assert tally.session_id == "s"


def test_gemini_is_detected_from_the_hook_input() -> None:
    assert detect_agent(None, "AfterAgent") is HostAgent.GEMINI
    assert detect_agent(None, "agent_end") is HostAgent.PI
    assert detect_agent(None, "Stop") is HostAgent.CLAUDE
    assert detect_agent(HostAgent.CODEX, "AfterAgent") is HostAgent.CODEX


@pytest.mark.parametrize("agent", [None, "gemini"])
def test_deny_while_unmet_then_allow_once_met(gemini_repo: Path, agent: str | None) -> None:
    answer, _ = after_agent(gemini_repo, agent=agent)
    assert answer is not None
    assert answer["decision"] == "block"  # Gemini CLI reads `block` as `deny`
    assert str(answer["reason"]).startswith("verify-goal demo iteration ")
    (gemini_repo / "done.txt").write_text("")
    answer, _ = after_agent(gemini_repo, agent=agent, active=True)
    assert answer is not None
    assert "decision" not in answer
    assert "status: met" in str(answer["systemMessage"])


def test_no_goal_answers_an_empty_object(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "empty")
    answer, _ = after_agent(repo)
    assert answer == {}


def test_the_retry_storm_is_released_without_verifying_again(gemini_repo: Path) -> None:
    session = gemini_repo.parent / "session.jsonl"
    shutil.copy(SESSION, session)
    answer, _ = after_agent(gemini_repo, transcript=session)
    assert answer is not None and answer["decision"] == "block"
    assert entries(gemini_repo) == 1
    text = (gemini_repo / "goals" / "demo.md").read_text()
    assert re.search(rf"\| {SESSION_TOKENS} +\|", text)  # a cell of the padded table
    # Gemini fires the hook again without calling the model: no token was spent since
    for _ in range(3):
        answer, _ = after_agent(gemini_repo, transcript=session, active=True)
        assert answer is not None and "decision" not in answer, answer
        assert "the model was not called" in str(answer["systemMessage"])
    assert entries(gemini_repo) == 1, "no check ran and nothing was written"
    # once the model is called again, the hook verifies again and holds the agent
    with session.open("a") as out:
        tokens = {"input": 50, "output": 5, "cached": 0, "thoughts": 0, "tool": 0, "total": 55}
        out.write(json.dumps({"id": "new", "type": "gemini", "content": "x", "tokens": tokens}))
        out.write("\n")
    answer, _ = after_agent(gemini_repo, transcript=session, active=True)
    assert answer is not None and answer["decision"] == "block"
    assert entries(gemini_repo) == 2


def test_the_storm_guard_is_only_for_gemini(gemini_repo: Path) -> None:
    session = gemini_repo.parent / "session.jsonl"
    shutil.copy(SESSION, session)
    after_agent(gemini_repo, transcript=session, agent="codex")
    answer, _ = after_agent(gemini_repo, transcript=session, agent="codex", active=True)
    assert answer is not None and answer["decision"] == "block"
    assert entries(gemini_repo) == 2


def test_init_registers_the_after_agent_hook_and_keeps_other_settings(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / ".gemini").mkdir()
    mine = {"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "lint"}]}]}}
    (repo / ".gemini" / "settings.json").write_text(json.dumps({"theme": "x", **mine}, indent=4))
    assert run_goalfile("init", "--no-goal", cwd=repo).returncode == 0
    settings = json.loads((repo / ".gemini" / "settings.json").read_text())
    assert settings["theme"] == "x"
    groups = settings["hooks"]["AfterAgent"]
    assert groups[0] == mine["hooks"]["AfterAgent"][0]
    assert groups[1] == {
        "hooks": [
            {
                "name": "goalfile",
                "type": "command",
                "command": "goalfile hook stop --agent gemini",
                "timeout": 600000,
            }
        ]
    }
    before = (repo / ".gemini" / "settings.json").read_text()
    assert run_goalfile("init", "--no-goal", cwd=repo).returncode == 0
    assert (repo / ".gemini" / "settings.json").read_text() == before


def test_a_stop_list_is_not_mistaken_for_after_agent() -> None:
    document = {"hooks": {"Stop": [{"hooks": [{"command": "goalfile hook stop"}]}]}}
    merged, changed = merge_stop_hook(document, agent=HostAgent.GEMINI)
    assert changed
    assert merged["hooks"]["Stop"] == document["hooks"]["Stop"]  # type: ignore[index]


def model_message(session: Path, message_id: str, tokens: int) -> None:
    with session.open("a") as out:
        counts = {"input": tokens, "output": 0, "cached": 0, "thoughts": 0, "tool": 0}
        out.write(
            json.dumps({"id": message_id, "type": "gemini", "content": "x", "tokens": counts})
        )
        out.write("\n")


def tokens_used(repo: Path) -> int:
    match = re.search(r"(?m)^tokens_used: (\d+)", (repo / "goals" / "demo.md").read_text())
    assert match is not None
    return int(match.group(1))


def test_editing_the_token_accounting_table_neither_releases_the_hook_nor_stops_counting(
    gemini_repo: Path,
) -> None:
    """The storm guard's marker is not the goal's `## Token accounting` row: raising that row
    to a huge number makes no later hook skip its verify, the next read re-bases the row, and
    `audit --against` reports the edit."""
    session = gemini_repo.parent / "session.jsonl"
    shutil.copy(SESSION, session)
    goal = gemini_repo / "goals" / "demo.md"
    answer, _ = after_agent(gemini_repo, transcript=session)
    assert answer is not None and answer["decision"] == "block"
    subprocess.run(["git", "add", "-A"], cwd=gemini_repo, check=True)
    subprocess.run(["git", "commit", "-qm", "base"], cwd=gemini_repo, check=True)
    used = tokens_used(gemini_repo)
    model_message(session, "m1", 1000)  # the model worked
    text = goal.read_text()
    edited = re.sub(r"\| \d+ +\| \d+ +\|$", "| 999999999 | 999999999 |", text, flags=re.M)
    assert edited != text
    goal.write_text(edited)
    answer, _ = after_agent(gemini_repo, transcript=session, active=True)
    assert answer is not None and answer["decision"] == "block", answer
    assert entries(gemini_repo) == 2, "the hook verified"
    assert "999999999" not in goal.read_text()  # re-based on the transcript
    model_message(session, "m2", 700)
    # verified again (three runs alike: the loop guard may let go; what counts is the usage)
    after_agent(gemini_repo, transcript=session, active=True)
    assert entries(gemini_repo) == 3
    assert tokens_used(gemini_repo) == used + 700, "usage after the edit is counted"
    audit = run_goalfile("audit", "--against", "HEAD", "goals/demo.md", cwd=gemini_repo)
    assert audit.returncode == 1, audit.stdout
    assert "accounting-row-rewritten" in audit.stdout
    assert f"row of session `{SESSION_ID}` has baseline" in audit.stdout


def idle_markers(repo: Path) -> list[Path]:
    return sorted((repo / ".git" / "goalfile-idle").glob("*.json"))


@pytest.mark.parametrize("model_called", [True, False])
def test_a_raised_idle_marker_makes_the_hook_verify(gemini_repo: Path, model_called: bool) -> None:
    """The storm guard's marker sits in `.git`, in the agent's reach: raising its usage (or
    naming a message the session file does not end with) makes the hook verify, never allow."""
    session = gemini_repo.parent / "session.jsonl"
    shutil.copy(SESSION, session)
    answer, _ = after_agent(gemini_repo, transcript=session)
    assert answer is not None and answer["decision"] == "block"
    model_message(session, "m1", 2000)
    answer, _ = after_agent(gemini_repo, transcript=session, active=True)
    assert answer is not None and answer["decision"] == "block"
    assert entries(gemini_repo) == 2
    if model_called:
        model_message(session, "m2", 2000)
    (marker,) = idle_markers(gemini_repo)
    text = marker.read_text()
    raised = re.sub(r'"tokens": \d+', '"tokens": 999999999', text)
    assert raised != text
    marker.write_text(raised)
    answer, _ = after_agent(gemini_repo, transcript=session, active=True)
    # verified (the loop guard may let go after three runs without progress; not the marker)
    assert answer is not None and "the model was not called" not in str(answer), answer
    assert entries(gemini_repo) == 3, "the hook verified"


def test_an_idle_marker_naming_the_latest_message_with_another_usage_is_not_trusted(
    gemini_repo: Path,
) -> None:
    session = gemini_repo.parent / "session.jsonl"
    shutil.copy(SESSION, session)
    answer, _ = after_agent(gemini_repo, transcript=session)
    assert answer is not None and answer["decision"] == "block"
    model_message(session, "m1", 2000)
    (marker,) = idle_markers(gemini_repo)
    data = json.loads(marker.read_text())
    for forged in (
        {**data, "newest": "m1", "tokens": 999999999},  # the message is right, the usage raised
        {**data, "newest": "m1", "tokens": "lots"},
        {**data, "newest": None},
        "not json",
    ):
        marker.write_text(forged if isinstance(forged, str) else json.dumps(forged))
        before = entries(gemini_repo)
        answer, _ = after_agent(gemini_repo, transcript=session, active=True)
        assert answer is not None and "the model was not called" not in str(answer), forged
        assert entries(gemini_repo) == before + 1, f"the hook verified with {forged!r}"
