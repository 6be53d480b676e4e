"""A goal whose check ends as `error` holds the real Claude Code, Codex, Gemini CLI and pi once,
then lets go.

An `error` row says nothing about the work: the check could not be judged (its command is not
found, exit 127, or it outlasted the row's own `timeout`). verify sets the goal `blocked`, and
the Stop hook holds the agent once, naming each error row and what to do (fix the cause, never
the check; `goalfile resume` afterwards; or stop and say so when only a person can fix it).
The model here does nothing about it and ends its turn again: the goal is blocked, so that
second stop is let go, and so is any stop after it. Nothing is run a second time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_model import Reply, Say, Shell, Turn, never_fix
from hosts_fixtures import (
    GOAL,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    goalfile_ok,
    hook_now,
    host_session,
    ledger,
    run_session,
    verify_entries,
)
from hosts_fixtures import isolation as isolation

MISSING = "nosuch-tool-4d1e --version"  # no such command anywhere on PATH


def with_row_timeout(repo: Path, seconds: int) -> None:
    """Give the draft goal's criteria table a `timeout` column, ``seconds`` for C1, as a user
    who edits the table would; then activate it."""
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    header = (
        "| id | criterion | check | expected | kind |\n"
        "|----|-----------|-------|----------|------|\n"
    )
    assert header in text, text
    head, rest = text.split(header, 1)
    row, tail = rest.split("\n", 1)
    assert row.startswith("| C1 |") and row.endswith(" |"), row
    text = (
        head
        + "| id | criterion | check | expected | kind | timeout |\n"
        + "|----|-----------|-------|----------|------|---------|\n"
        + f"{row} {seconds} |\n"
        + tail
    )
    path.write_text(text, encoding="utf-8")
    goalfile_ok("activate", GOAL, cwd=repo)


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("claude", "not found"),
        ("codex", "not found"),
        ("claude", "row timeout"),
        ("codex", "row timeout"),
        ("gemini", "not found"),
        ("pi", "not found"),
        ("gemini", "row timeout"),
        ("pi", "row timeout"),
    ],
)
def test_an_error_row_holds_the_host_once_naming_the_row_then_lets_it_go(
    host: str, kind: str, isolation: Isolation, tmp_path: Path
) -> None:
    if kind == "not found":
        repo = goal_repo(tmp_path, check=MISSING)
        row = "- C1 error (exit 127): exit 127: command not found: "
    else:
        repo = goal_repo(tmp_path, check="sleep 120", activate=False)
        with_row_timeout(repo, 2)
        row = "- C1 error (exit timeout): timed out after 2s (check timeout)"
    server, run = host_session(host, repo, never_fix(), isolation, prompt=PROMPT)
    # held once, at the first stop; the second stop (the goal blocked now) was let go
    reasons = server.feedbacks()
    assert len(reasons) == 1 and server.stops() == 2, (reasons, run.explain())
    [held] = reasons
    # (Claude Code hands the reason on after words of its own: the summary line is not first)
    assert f"goalfile: verify-goal demo iteration 0: C1 error; status: blocked\n{row}" in held, held
    assert (
        f"{GOAL} is blocked: a check could not be judged. Fix the cause in the work" in held
        and f"`goalfile resume {GOAL} --resolved TEXT`" in held
        and "never the check, its time limit, the criteria or the status" in held
    ), held
    # the check ran once, at the first stop: one verify entry, the goal blocked by it
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "blocked")]
    state = goal_state(repo)
    assert state["status"] == "blocked", state
    # and no stop is held on it now, whether or not a Stop hook sent the agent back before
    answer = hook_now(repo)
    assert answer["decision"] == "allow", answer
    goalfile_ok("audit", GOAL, cwd=repo)  # the blocked status is the ledger's own


def test_an_error_the_agent_made_with_its_own_verify_holds_claude_once(
    isolation: Isolation, tmp_path: Path
) -> None:
    """The block made before the stop: the model makes the check exit 127 and runs verify
    itself, so the goal is `blocked` before the Stop hook runs. The hook holds it once all the
    same (and ledgers that hold), then lets it go with the message, and a later turn is let
    go, with the message, without a hold."""
    repo = goal_repo(tmp_path, check="sh check.sh")
    (repo / "check.sh").write_text("exit 1\n", encoding="utf-8")
    trouble = "printf 'exit 127\\n' > check.sh; goalfile verify goals/demo.md; echo exit $?"

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        return Shell(trouble if turn.feedback is None else "true")

    session = run_session("claude", repo, script, isolation, prompt=PROMPT)
    server, run = session.server, session.run
    reasons = server.feedbacks()
    assert len(reasons) == 1 and server.stops() == 2, (reasons, run.explain())
    [held] = reasons
    assert "goalfile: verify-goal demo iteration 0: C1 error; status: blocked\n- C1 error" in (
        held
    ), held
    assert (
        f"{GOAL} is blocked: a check could not be judged. Fix the cause in the work" in held
        and f"`goalfile resume {GOAL} --resolved TEXT`" in held
    ), held
    # the agent's own verify wrote the block; the hook ran no check, and ledgered its hold
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "blocked")]
    assert [e.by for e in ledger(repo)][-2:] == ["verify-goal", "stop-hook-hold"]
    assert goal_state(repo)["status"] == "blocked"
    answer = hook_now(repo)  # a later turn's first stop: let go, with the message
    assert answer["decision"] == "allow", answer
    assert f"{GOAL} is blocked by a verify run" in str(answer["host_output"]), answer
    goalfile_ok("audit", GOAL, cwd=repo)
