"""The Stop hook's time, with the real Claude Code and Codex: its own time limit, a host that
kills it, and the share of its time between goals.

What the real hosts do with a hook that outlives the hook `timeout` they were given (seen here,
and asserted below): Claude Code 2.1.332 sends the hook's process group SIGTERM at the timeout
and **discards whatever the hook printed**, also a block printed before the kill; its transcript
records `hook_cancelled` (`timedOut: true`) and the stop goes ahead. Codex 0.171.0 ends the hook
without a SIGTERM (the hook sees no signal it could answer) and lets the agent stop as well. So
an answer counts only when it comes before the host's timeout: goalfile's watchdog answers
`block` at its `--timeout` less a tenth (hookwatch), which reaches the model when `--timeout`
is the host's timeout, and a hook whose `--timeout` is above the host's is killed unheard
(docs/hosts.md, "The hook's own time limit").

Each case registers the hook with a small timeout: `timeout` in .claude/settings.json and
.codex/hooks.json, and the same `--timeout` on the command, as a user who lowers it would.
"""

from __future__ import annotations

import json
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import clean_env, git, hand_written_goal, make_git_repo, run_goalfile
from fake_model import Reply, Say, Shell, Turn
from host_run import claude_transcripts
from hosts_fixtures import (
    GOAL,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    goalfile_ok,
    host_session,
    nothing_left_running,
    register_hook,
    verify_entries,
)
from hosts_fixtures import isolation as isolation


def claude_hook_records(repo: Path) -> list[dict[str, Any]]:
    """What Claude Code's transcript says about its Stop hooks: each `hook_cancelled`
    attachment and each `stop_hook_summary`."""
    found = []
    for transcript in claude_transcripts(repo.parent / "home", repo):
        for line in transcript.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            attachment = record.get("attachment") or {}
            if attachment.get("type") == "hook_cancelled" or (
                record.get("subtype") == "stop_hook_summary"
            ):
                found.append(attachment or record)
    return found


# --- the watchdog: an answer before the host's timeout ---------------------------------------


# the check hangs while `stuck` exists (a lock a crashed build left behind), deaf to SIGTERM:
# verify's own time limit (8 s of 10) ends it only with SIGKILL, 2 s after its SIGTERM, so the
# hook's own answer cannot come before 10 s; the watchdog's comes at 9 s, and it ends the
# hook's work with SIGKILL, after which goalfile's guard must end the check
STUCK_CHECK = "if [ -e stuck ]; then trap '' TERM; sleep 120; fi; test -f done.txt"


@pytest.mark.parametrize("host", ["claude", "codex"])
def test_the_watchdogs_block_reaches_the_model_before_the_hosts_timeout(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The hook does not get to its answer in time (a check that hangs and ignores SIGTERM):
    at its time limit, 9 s of the host's 10 s, the watchdog answers block, the host hands the
    reason to the model, the model removes what hangs, and the next stop verifies the goal
    met. The check the watchdog cut short is not left running."""
    repo = goal_repo(tmp_path, check=STUCK_CHECK)
    register_hook(repo, host, timeout=10, command=f"goalfile hook stop --agent {host} --timeout 10")
    (repo / "stuck").write_text("", encoding="utf-8")

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        return Shell("touch done.txt" if turn.feedback is None else "rm stuck")

    server, run = host_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 1, (reasons, run.explain())
    [held] = reasons
    assert (
        "goalfile hook stop did not answer within its time limit (9s of the host's 10s hook "
        "timeout; it was at " in held
    ), held
    assert re.search(r"it was at \w+ \(goalfile/[\w/]+\.py:\d+\)\), so the stop is held", held)
    # the hook held the agent without a verdict (nothing written), then verified the goal met;
    # the check that hung (SIGTERM ignored) did not outlive the work the watchdog killed
    nothing_left_running(repo)
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "met")]
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)


def test_the_watchdog_counts_its_time_from_when_the_host_started_the_process(
    tmp_path: Path,
) -> None:
    """The host's clock for its timeout starts when it starts `sh -c COMMAND`, which execs
    goalfile in the same process once the shell (here: 2 s of it) and Python have started. The
    watchdog answers at its limit counted from there (4.5 s of 5), not from when goalfile got
    going (6.5 s, after the host's 5 s). Here the hook waits for an input the host never ends."""
    repo = make_git_repo(tmp_path / "repo")
    goalfile = Path(sys.executable).parent / "goalfile"
    command = f"sleep 2; exec {goalfile} hook stop --agent claude --timeout 5"
    started = time.monotonic()
    with subprocess.Popen(
        ["sh", "-c", command],
        cwd=repo,
        env=clean_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as hook:
        assert hook.stdin is not None and hook.stdout is not None
        hook.stdin.write(b'{"hook_event_name": "Stop", ')  # and never more, never closed
        hook.stdin.flush()
        ready, _, _ = select.select([hook.stdout], [], [], 30)
        took = time.monotonic() - started
        answer = json.loads(hook.stdout.readline()) if ready else None
        hook.stdin.close()
        assert hook.wait(timeout=30) == 0
    assert answer is not None and answer["decision"] == "block", answer
    assert "(4.5s of the host's 5s hook timeout; it was at _hook_stop (" in answer["reason"]
    assert 4.0 < took < 5.5, took


# --- a hook the host kills: its answer is not heard -----------------------------------------


@pytest.mark.parametrize("host", ["claude", "codex", "gemini"])
def test_a_hook_the_host_kills_at_its_timeout_is_not_heard(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The host's hook timeout (3 s) is below the hook's `--timeout` (the default 600 s): the
    host ends the hook while it verifies a slow check, ignores what the hook answered and lets
    the agent stop. Claude Code's SIGTERM gets the watchdog's block answer at once (its note on
    stderr shows it), and Claude Code discards it; Codex sends no SIGTERM at all: it kills the
    hook's process group (the watchdog and its work) with a signal nothing can answer. Either
    way the check, in a session of its own, is not left running: Codex leaves it to goalfile's
    guard, which ends it once the hook's work has died; Claude Code ends it itself too (it ends
    every process the hook started). Gemini CLI sends SIGTERM to the process it started alone
    (goalfile, by `exec`), which answers and ends its checks, and ignores the answer of a hook
    that timed out. No ledger entry is written, whole or in part, then or later."""
    repo = goal_repo(tmp_path, check="sleep 120 && test -f done.txt")  # a slow check
    errors = tmp_path / "hook-stderr.log"
    # Gemini CLI signals the `bash -c` it started alone: `exec` makes that goalfile, as bash
    # does by itself for the command `init` registers, which has no redirection
    program = "exec goalfile" if host == "gemini" else "goalfile"
    register_hook(repo, host, timeout=3, command=f"{program} hook stop --agent {host} 2>>{errors}")
    entries = (repo / GOAL).read_text(encoding="utf-8")
    started = time.monotonic()

    def script(turn: Turn) -> Reply:
        return Say("Done.") if turn.after_tool or turn.feedback else Shell("touch done.txt")

    server, run = host_session(host, repo, script, isolation, prompt=PROMPT)
    took = time.monotonic() - started
    assert server.feedbacks() == [], run.explain()  # the agent stopped at its first stop
    assert took < 60, took  # the host did not wait for the 120 s check
    said = errors.read_text(encoding="utf-8") if errors.exists() else ""
    if host in ("claude", "gemini"):
        assert "goalfile: goalfile hook stop was ended by SIGTERM before it answered" in said, said
    if host == "claude":
        records = claude_hook_records(repo)
        cancelled = [r for r in records if r.get("type") == "hook_cancelled"]
        assert [(r["timedOut"], r["timeoutMs"]) for r in cancelled] == [(True, 3000)], records
        [summary] = [r for r in records if r.get("subtype") == "stop_hook_summary"]
        assert summary["preventedContinuation"] is False and summary["hasOutput"] is False
    elif host == "codex":
        assert "ended by" not in said, said  # no signal the hook could answer
    nothing_left_running(repo)
    assert (repo / GOAL).read_text(encoding="utf-8") == entries
    goalfile_ok("lint", GOAL, cwd=repo)


# --- the time share: a slow goal does not starve the others ---------------------------------

DECOY = hand_written_goal("{slug}", check="sleep 600", end_state="wait")


def write_decoys(slugs: list[str]) -> str:
    """The shell command with which the model writes slow active goals by hand, in a folder
    git ignores that sorts before goals/demo.md."""
    first, *others = slugs
    copies = "".join(
        f" && sed 's/^slug: {first}$/slug: {slug}/' goals/.cache/{first}.md"
        f" > goals/.cache/{slug}.md"
        for slug in others
    )
    return (
        "mkdir -p goals/.cache && echo goals/.cache/ >> .git/info/exclude && "
        f"cat > goals/.cache/{first}.md <<'EOF'{copies}\n{DECOY.format(slug=first)}EOF"
    )


@pytest.mark.parametrize("host", ["claude", "codex"])
def test_slow_goals_the_model_wrote_do_not_keep_the_real_goal_from_being_verified(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """Three slow active goals the model wrote by hand, sorting before the real one: no person
    approved them (git holds none of them), so the hook runs none of their checks and gives
    them none of its time; it verifies the real goal at the first stop and names each of them
    as a goal whose checks it did not run."""
    slugs = ["aaa", "bbb", "ccc"]
    repo = goal_repo(tmp_path)
    register_hook(repo, host, timeout=8, command=f"goalfile hook stop --agent {host} --timeout 8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the goal")

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        return Shell(write_decoys(slugs) if turn.feedback is None else "touch done.txt")

    server, run = host_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 1, (reasons, run.explain())
    [held] = reasons
    assert "verify-goal demo iteration 0: C1 unmet; status: active" in held, held
    for slug in slugs:
        assert f"goalfile did not run the checks of goals/.cache/{slug}.md: " in held, held
    assert "could not verify" not in held and "did not finish" not in held, held
    # the next stop verified the real goal met; none of the model's goals was ever run
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "active"), (1, "met")]
    assert goal_state(repo)["status"] == "met"
    for slug in slugs:
        written = (repo / "goals" / ".cache" / f"{slug}.md").read_text(encoding="utf-8")
        assert written == DECOY.format(slug=slug), written
    nothing_left_running(repo)
    goalfile_ok("audit", GOAL, cwd=repo)


@pytest.mark.parametrize("host", ["claude", "codex"])
def test_a_slow_goal_a_person_approved_gets_its_share_of_the_hooks_time_not_all(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """A slow goal a person approved (`goalfile new --activate`, which stages it, as the real
    goal is), sorting before the real one: it gets half the hook's 6 s of verify time, not
    all, and is cut there; the real goal is verified at the first stop all the same. The slow
    goal cut short is `blocked`, and is not waited for again at the next stop."""
    repo = goal_repo(tmp_path)
    goalfile_ok(
        "new", "aaa", "wait", "--check", "sleep 600", "--expected", "exit 0", "--activate",
        cwd=repo,
    )  # fmt: skip
    register_hook(repo, host, timeout=8, command=f"goalfile hook stop --agent {host} --timeout 8")

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        return Shell("true" if turn.feedback is None else "touch done.txt")

    server, run = host_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    assert len(reasons) == 1, (reasons, run.explain())
    [held] = reasons
    assert "verify-goal demo iteration 0: C1 unmet; status: active" in held, held
    assert "goalfile could not verify goals/aaa.md" in held, held
    assert re.search(
        r"C1 did not finish in the \d s the hook gave it, its share of the hook's 6 s", held
    ), held
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "active"), (1, "met")]
    assert goal_state(repo)["status"] == "met"
    done = run_goalfile("status", "--json", "goals/aaa.md", cwd=repo)
    assert json.loads(done.stdout)["goals"][0]["status"] == "blocked", done.stdout
    nothing_left_running(repo)
    goalfile_ok("audit", GOAL, cwd=repo)
