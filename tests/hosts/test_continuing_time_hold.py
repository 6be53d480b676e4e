"""The Stop hook's time used up after the agent was sent back once, through the real Claude
Code, Codex, Gemini CLI and pi. Claude Code and Codex mark the stop after a block as
continuing (`stop_hook_active`), as goalfile's pi extension does the end of a run its
follow-up started, where the hook used to let the agent go with a message, the person's goal
not verified; Gemini CLI marks it only when the model answered the block without a tool call
(docs/hosts.md#gemini-cli). The hook's time is given in the host's settings (Gemini CLI's in
milliseconds) or, for pi, in goalfile's extension, edited as a person would.

- The goal approved and staged (`new`, `activate`, `init`), the hook given 8 s (the host's
  `timeout` and `--timeout 8`): the model stops at once and is held for the unmet row. Sent
  back, it makes the approved check outlast the hook (`touch slow`: the check then sleeps
  30 s) and stops: the hook's verify is cut short, writes `blocked`, and the agent is held
  once, the hold ledgered, naming the row cut and the `goalfile resume` a person runs once the
  hook has the time. The model does nothing about it and stops again: that stop, on the same
  entry, is let go. The person runs the printed `goalfile resume` as written: the goal is
  active again.
- The hook given 6 s: sent back once, the model writes, commits and focuses a goal of its
  own whose check passes only when the hook's time is nearly up: the person's goal gets no
  time, and the agent is held once (the goal file as written); the same again is let go,
  with the message. Under Gemini CLI that stop follows the model's command, so it is held
  again, until the model does the work and the person's goal, verified, is met.

The recorded-input versions are in tests/test_hook_continuing_holds.py.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import clean_env
from fake_model import Reply, Say, Shell, Turn
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Isolation,
    answers,
    goal_repo,
    goal_state,
    goalfile_ok,
    host_session,
    ledger,
    nothing_left_running,
    register_hook,
    run_session,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from skill_goals import on_the_users_path
from test_hook_continuing_holds import eat

SLOW_WHEN_TOLD = "if [ -e slow ]; then sleep 30; fi; test -f done.txt"
RESUME = re.compile(r"`(goalfile resume [^`]+)`")
HOOK_TIME = {
    "claude": "the hook's `timeout` in .claude/settings.json and `goalfile hook stop --timeout`",
    "codex": "the hook's `timeout` in .codex/hooks.json and `goalfile hook stop --timeout`",
    "gemini": "the hook's `timeout` in .gemini/settings.json, in milliseconds, and `goalfile "
    "hook stop --timeout`",
    "pi": "`HOOK_TIMEOUT_MS` in .pi/extensions/goalfile/goalfile.mjs and the `--timeout` of the "
    "`goalfile hook stop` it runs, 600 s when not given",
}
"""Where the hold tells each host's person to give the hook more time (before, every host's
said "the host's hook `timeout`", which pi has not: its time is goalfile's extension's)."""


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_check_cut_short_after_the_agent_was_sent_back_holds_it_once(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path, check=SLOW_WHEN_TOLD)
    register_hook(repo, host, timeout=8, command=f"goalfile hook stop --agent {host} --timeout 8")
    said: list[str] = []

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        if turn.feedback is None:
            return Shell("true")
        said.append(turn.feedback)
        return Shell("touch slow" if len(said) == 1 else "true")

    server, run = host_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = server.feedbacks()
    # held for the unmet row, then once for the cut check; the third stop was let go
    assert len(reasons) == 2 and server.stops() == 3, (reasons, run.explain())
    unmet, cut = reasons
    assert "verify-goal demo iteration 0: C1 unmet; status: active" in unmet, unmet
    assert f"goalfile could not verify {GOAL} within the hook's time limit: " in cut, cut
    assert "verify-goal demo iteration 1: C1 error; status: blocked" in cut, cut
    assert "C1 did not finish in the " in cut, cut
    assert f"raises the hook's timeout ({HOOK_TIME[host]}), then runs" in cut, cut
    # the hook's verify ran twice; the block it wrote was held once, and ledgered so
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [
        (0, "active"),
        (1, "blocked"),
    ]
    assert [e.by for e in ledger(repo)].count("stop-hook-hold") == 1, ledger(repo)
    assert goal_state(repo)["status"] == "blocked"
    nothing_left_running(repo)  # the check cut short (sleep 30) is not left running
    # the person makes the check fast again and runs the printed resume as written
    (repo / "slow").unlink()
    found = RESUME.search(cut)
    assert found is not None, cut
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"  # the goalfile under test
    done = subprocess.run(
        ["sh", "-c", found.group(1)], cwd=repo, env=clean_env({"PATH": path}),
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, (found.group(1), done.stdout, done.stderr)
    assert goal_state(repo)["status"] == "active"
    goalfile_ok("audit", GOAL, cwd=repo)


# --- a goal of the agent's own that leaves the person's no time ------------------------------

# the agent's check: it sleeps until 0.7 s before the hook's time is up (4 s for --timeout 6)
OWN_GOAL = [
    f"cat > eat.py <<'EOF'\n{eat(4)}EOF",
    f"goalfile new easy --end-state x --check '{sys.executable} eat.py' --expected 'exit 0' "
    "--non-goal n --activate && git add eat.py goals/easy.md && git commit -qm mine "
    "&& goalfile focus goals/easy.md",
]


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_a_goal_the_hook_had_no_time_for_after_the_agent_was_sent_back_holds_it_once(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """Sent back once, the model writes, commits and focuses a goal of its own whose check
    passes only once the hook's time is nearly up, and stops: the person's goal is not
    verified, and the agent is held once for it. It then reopens its own goal (the same time
    eaten again, the person's goal file unchanged) and stops: let go, the person told why
    (Claude Code shows it; `codex exec` shows it nowhere, so Codex's answer is read as the
    hook gave it). Gemini CLI marks that stop, which follows a tool call, as no continuing
    one: held again, the model does the work, and the next stop verifies the person's goal
    met (its own, met, no longer takes the time)."""
    repo = goal_repo(tmp_path)
    on_the_users_path(repo.parent / "home")  # Codex's `bash -lc` finds goalfile there
    given = repo.parent / f"{host}-answers.jsonl"
    hook = f"goalfile hook stop --agent {host} --timeout 6 | tee -a {shlex.quote(str(given))}"
    register_hook(repo, host, timeout=6, command=hook)
    held: list[str] = []
    queue: list[str] = []

    def script(turn: Turn) -> Reply:
        if turn.feedback is not None:  # what it does for each reason, one call at a time
            held.append(turn.feedback)
            queue[:] = {1: OWN_GOAL, 2: ["goalfile reopen goals/easy.md --reason again"]}.get(
                len(held), [FIX]
            )
        elif not turn.after_tool:
            queue[:] = ["true"]
        return Shell(queue.pop(0)) if queue else Say("Done.")

    session = run_session(host, repo, script, isolation, prompt=PROMPT)
    reasons = session.server.feedbacks()
    holds = 3 if host == "gemini" else 2  # Gemini CLI: the second no-time stop held again
    assert len(reasons) == holds and session.server.stops() == holds + 1, (
        reasons,
        session.run.explain(),
    )
    unmet, no_time, *again = reasons
    assert "verify-goal demo iteration 0: C1 unmet; status: active" in unmet, unmet
    said = f"goalfile could not verify {GOAL}: the hook's time limit (4 s) was used up"
    assert said in no_time and again in ([], [no_time]), (no_time, again)
    if host == "gemini":  # held until the person's goal had the time: then verified met
        assert [(e.iteration, e.status) for e in verify_entries(repo)] == [
            (0, "active"),
            (1, "met"),
        ]
        goalfile_ok("audit", GOAL, cwd=repo)
        return
    told = [str(a.get("systemMessage")) for a in answers(given)]
    assert said in told[-1] and "decision" not in answers(given)[-1], told
    if host == "claude":
        shown = [str(e.get("content")) for e in session.run.events()]
        assert any(m.startswith("Stop says: ") and said in m for m in shown), shown
    # the person's goal was verified once, at the first stop; the agent's own goal twice
    assert [(e.iteration, e.status) for e in verify_entries(repo)] == [(0, "active")]
    assert goal_state(repo)["status"] == "active"
