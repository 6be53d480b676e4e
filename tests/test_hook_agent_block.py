"""A `blocked` the agent brings about itself, before it stops, is no way to stop unseen.

The Stop hook holds the agent once when its own verify leaves a goal `blocked` by an `error`
row. An agent that stops on purpose can bring the block about first, with verify runs of its
own: a check made to exit 127 (or cut short by a `--time-limit` it chose), the same run
repeated until verify's stall guard blocks the goal, or a run whose token usage cannot be
measured. Such a block holds the agent once per ledger entry, like the hook's own, then lets it
go with the message, at that stop and at every later one, until someone resumes the goal. A
block declared with `goalfile block` lets it go; while its entry is new since the copy git
holds (or dated today), the stop says so to the person.

Each test drives real `goalfile` processes in a real git repository and feeds the hook the
JSON a host sends on stdin.
"""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import DATA, git, goal_lock_held, make_git_repo, run_goalfile

GOAL = "goals/demo.md"
HOOKS = DATA / "hooks"


def goalfile_ok(*args: str, cwd: Path, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(*args, cwd=cwd)
    assert done.returncode == code, f"goalfile {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


def goal_repo(tmp_path: Path, *, tokens: str = "null") -> Path:
    """A repository as a person sets one up: a goal whose check is `sh check.sh`, activated
    (its contract pinned) and committed; `check.sh` fails until the work is done."""
    repo = make_git_repo(tmp_path / "repo")
    (repo / "check.sh").write_text("exit 1\n", encoding="utf-8")
    goalfile_ok(
        "new",
        "demo",
        "--end-state",
        "the check passes",
        "--check",
        "sh check.sh",
        "--expected",
        "exit 0",
        "--non-goal",
        "Nothing else changes.",
        "--tokens",
        tokens,
        "--activate",
        cwd=repo,
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the goal")
    return repo


def stop(
    repo: Path, *, active: bool = False, agent: str = "claude", session: str | None = None
) -> dict[str, object] | None:
    """The hook's answer to one stop of a session in ``repo`` (``active``: the host's
    ``stop_hook_active``; ``session``: another session's id than the recorded input's), as
    the host reads it; None for no output."""
    name = "gemini-afteragent.json" if agent == "gemini" else f"{agent}-stop.json"
    data = json.loads((HOOKS / name).read_text(encoding="utf-8"))
    data.update(cwd=str(repo), stop_hook_active=active)
    if session is not None:
        data.update(session_id=session)
    data.pop("transcript_path", None)
    done = run_goalfile("hook", "stop", "--agent", agent, cwd=repo, input=json.dumps(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    if not text:
        return None
    answer = json.loads(text)
    assert isinstance(answer, dict)
    return answer


def held(answer: dict[str, object] | None) -> str:
    assert answer is not None and answer.get("decision") == "block", answer
    return str(answer["reason"])


def let_go(answer: dict[str, object] | None) -> str:
    """The message of an allow that says something to the person."""
    assert answer is not None and "decision" not in answer, answer
    return str(answer["systemMessage"])


def hold_entries(repo: Path) -> int:
    return (repo / GOAL).read_text(encoding="utf-8").count(") by stop-hook-hold\n")


def exit_127(repo: Path) -> str:
    """(a) The check's code made to exit 127, then verify run by the agent."""
    (repo / "check.sh").write_text("exit 127\n", encoding="utf-8")
    goalfile_ok("verify", GOAL, cwd=repo, code=4)
    return "C1 error; status: blocked"


def time_limit(repo: Path) -> str:
    """(a) verify run by the agent with a time limit that cuts the check short."""
    (repo / "check.sh").write_text("sleep 30\n", encoding="utf-8")
    goalfile_ok("verify", "--time-limit", "0.5", GOAL, cwd=repo, code=4)
    return "C1 error; status: blocked"


def stalled(repo: Path) -> str:
    """(b) verify run by the agent three times without a change: the stall guard."""
    goalfile_ok("verify", GOAL, cwd=repo, code=1)
    goalfile_ok("verify", GOAL, cwd=repo, code=1)
    goalfile_ok("verify", GOAL, cwd=repo, code=4)
    return "status: blocked (no progress in 3 verify runs)"


def unmeasured(repo: Path) -> str:
    """(c) verify run by the agent, with no transcript, on a goal with a token budget."""
    goalfile_ok("verify", GOAL, cwd=repo, code=4)
    return "usage cannot be measured"


CASES = {"exit 127": exit_127, "time limit": time_limit, "stall": stalled, "usage": unmeasured}


@pytest.mark.parametrize("case", CASES)
def test_a_block_the_agents_own_verify_made_holds_it_once(tmp_path: Path, case: str) -> None:
    repo = goal_repo(tmp_path, tokens="1000" if case == "usage" else "null")
    said = CASES[case](repo)
    assert "status: blocked" in (repo / GOAL).read_text(encoding="utf-8")
    reason = held(stop(repo))  # the first stop: held, with the block and what to do
    assert said in reason, reason
    assert "goals/demo.md is blocked" in reason, reason
    assert "`goalfile resume goals/demo.md --resolved TEXT`" in reason, reason
    assert "never the check" in reason, reason
    # the rows not met, after the summary line (none for a run the token budget stopped)
    after = {
        # as verify printed it ("(no output)" was said twice)
        "stall": f"{said}\n- C1 unmet (exit 1): exit 0 expected, got 1 (no output)\n",
        "usage": "GOALFILE_TOKENS_USED)\ngoals/demo.md is blocked: token budget of 1000",
    }
    assert after.get(case, f"{said}\n- C1 error (exit ") in reason, reason
    assert hold_entries(repo) == 1  # the hold is ledgered, where git and audit show it
    assert said in let_go(stop(repo, active=True))  # sent back once: let go, said
    # a later turn (the host sets stop_hook_active afresh): let go, said, never held again
    message = let_go(stop(repo))
    assert "goals/demo.md is blocked" in message and said in message, message
    assert hold_entries(repo) == 1
    goalfile_ok("audit", GOAL, cwd=repo)  # the hold entry is no finding
    goalfile_ok("lint", GOAL, cwd=repo)


def test_each_new_block_holds_once_again(tmp_path: Path) -> None:
    """Once per ledger entry: resumed, then blocked again by the agent's own run, it holds."""
    repo = goal_repo(tmp_path)
    exit_127(repo)
    held(stop(repo))
    let_go(stop(repo))
    goalfile_ok("resume", GOAL, "--resolved", "the check runs again", cwd=repo)
    goalfile_ok("verify", GOAL, cwd=repo, code=4)  # still 127: a new blocked entry
    held(stop(repo))
    assert hold_entries(repo) == 2


def test_gemini_which_never_says_it_was_sent_back_is_held_only_once(tmp_path: Path) -> None:
    """The hold is kept per ledger entry, not read from ``stop_hook_active``: a host that
    sends it false at every stop is held once, then let go."""
    repo = goal_repo(tmp_path)
    exit_127(repo)
    answer = stop(repo, agent="gemini")
    assert answer is not None and answer.get("decision") == "block", answer
    for _ in range(3):
        answer = stop(repo, agent="gemini")
        assert answer is not None and "decision" not in answer, answer
        assert "goals/demo.md is blocked" in str(answer.get("systemMessage")), answer
    assert hold_entries(repo) == 1


def test_a_declared_block_lets_the_agent_stop_and_the_person_is_told(tmp_path: Path) -> None:
    """`goalfile block` says why, in the ledger, with what was tried: it holds no stop, but an
    agent may run it to end the hold, so the stop says so to the person, naming the entry and
    the command that makes the goal active again, as a pause the agent runs does. Nothing is
    written. A block git holds from an earlier day (a person's, committed) lets the stop go
    without a word, as before, in a session that did not see the goal active before that
    commit; the one that did is told (docs/trust.md, "A branch moved by hand between two
    stops")."""
    repo = goal_repo(tmp_path)
    goalfile_ok(
        "block", GOAL, "--reason", "the staging server is down", "--tried", "retry", cwd=repo
    )
    before = (repo / GOAL).read_text(encoding="utf-8")
    for agent in ("claude", "codex", "gemini"):
        message = let_go(stop(repo, agent=agent))
        assert message.startswith("goalfile: goals/demo.md (demo) is blocked, not met: "), message
        assert ") by block` set it; the stop is allowed" in message, message
        assert "`goalfile resume goals/demo.md --resolved TEXT`" in message, message
    assert (repo / GOAL).read_text(encoding="utf-8") == before  # nothing written
    # the printed command makes the goal active again: the next stop verifies and holds it
    goalfile_ok("resume", GOAL, "--resolved", "the server is back", cwd=repo)
    assert "C1 unmet" in held(stop(repo))
    # a person's block, committed on an earlier day: let go, saying nothing
    goalfile_ok("block", GOAL, "--reason", "waiting for a decision", "--tried", "asked", cwd=repo)
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    heading = text[text.rindex("### Iteration") :].split("\n", 1)[0]
    assert heading.endswith(" by block"), heading
    day = heading.split("(", 1)[1].split(")", 1)[0]
    path.write_text(text.replace(heading, heading.replace(day, "2026-11-30")), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "blocked until the decision")
    # the session that saw the goal active is told: its branch moved to the block since then
    assert "by block` set it; the stop is allowed" in let_go(stop(repo))
    assert stop(repo, session="a later session") is None
    assert stop(repo, agent="codex") == {}


def test_the_hooks_own_error_hold_is_not_repeated_at_a_later_turn(tmp_path: Path) -> None:
    """The hook's own verify blocked the goal and held the agent: that hold is ledgered in
    the same write, so a later turn's first stop lets the agent go, with the message."""
    repo = goal_repo(tmp_path)
    (repo / "check.sh").write_text("exit 127\n", encoding="utf-8")
    reason = held(stop(repo))
    assert "C1 error; status: blocked" in reason, reason
    assert hold_entries(repo) == 1
    message = let_go(stop(repo))  # a later turn
    assert "goals/demo.md is blocked" in message, message
    assert hold_entries(repo) == 1


def test_a_hold_the_hook_does_not_answer_with_is_not_ledgered(tmp_path: Path) -> None:
    """With a focus on another goal that holds the agent, the hook does not look at the
    blocked goal yet: no hold is ledgered for it, so it holds once the focused goal lets go."""
    repo = goal_repo(tmp_path)
    exit_127(repo)
    goalfile_ok(
        "new",
        "other",
        "--end-state",
        "done.txt exists",
        "--check",
        "test -f done.txt",
        "--expected",
        "exit 0",
        "--non-goal",
        "Nothing else changes.",
        "--activate",
        cwd=repo,
    )
    goalfile_ok("focus", "goals/other.md", cwd=repo)
    reason = held(stop(repo))
    assert "verify-goal other iteration" in reason and "demo" not in reason, reason
    assert hold_entries(repo) == 0
    (repo / "done.txt").write_text("ok\n", encoding="utf-8")
    reason = held(stop(repo))  # the focused goal is met: every other goal is looked at
    assert "goals/demo.md is blocked" in reason, reason
    assert hold_entries(repo) == 1


def test_a_focused_goal_outside_the_goal_folders_blocked_by_its_own_verify_holds_once(
    tmp_path: Path,
) -> None:
    # `new --dir docs` and a focus on it: discovery never looks in docs/, and a focus on a goal
    # that is not active was dropped, so the block let the agent go with no word at all
    repo = make_git_repo(tmp_path / "repo")
    (repo / "docs").mkdir()
    goalfile_ok(
        "new", "x", "t passes", "--dir", "docs", "--check", "./t.sh", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the goal")
    goalfile_ok("focus", "docs/x.md", cwd=repo)
    goalfile_ok("verify", "docs/x.md", cwd=repo, code=4)  # ./t.sh is missing: C1 error
    reason = held(stop(repo))
    assert "docs/x.md is blocked: a check could not be judged" in reason, reason
    text = (repo / "docs" / "x.md").read_text(encoding="utf-8")
    assert text.count(") by stop-hook-hold\n") == 1
    assert "docs/x.md is blocked by a verify run" in let_go(stop(repo))


def test_a_hold_that_cannot_be_ledgered_still_holds_the_first_stop(tmp_path: Path) -> None:
    """The agent keeps the goal's lock held (a process of its own) while it stops, so the hold's
    entry cannot be written: the first stop is held all the same, saying the hold is not
    recorded and why; each later stop on that entry is let go with the message, also for a
    host that sends ``stop_hook_active`` false at every stop. Claude Code and Gemini CLI, each
    in a repository of its own, side by side (each stop waits out the hook's wait for the
    lock)."""

    def stops(agent: str) -> None:
        repo = goal_repo(tmp_path / agent)
        exit_127(repo)
        with goal_lock_held(repo / GOAL):
            reason = held(stop(repo, agent=agent))
            assert "goals/demo.md is blocked" in reason, (agent, reason)
            assert "could not record this hold" in reason and "locked" in reason, (agent, reason)
            for _ in range(2):  # a new turn, or Gemini's next stop: flag false, held once already
                assert "goals/demo.md is blocked" in let_go(stop(repo, agent=agent)), agent
        assert hold_entries(repo) == 0, agent

    with ThreadPoolExecutor(max_workers=2) as pool:
        for done in [pool.submit(stops, agent) for agent in ("claude", "gemini")]:
            done.result()
