"""The goal lock's refusal and wait, through the real Claude Code and Codex (and the refusal's
fix through Gemini CLI and pi too): what the agent sees when its own `goalfile` command finds
the goal locked by another process, and whether the command the refusal prints works as
written in the host's shell.

- `goalfile verify --lock-wait 1` while a process of the model's holds the goal's lock: refused
  (exit 3, nothing written), its fix the same command line with a longer `--lock-wait`. The
  model ends its process and runs the printed fix as written: it verifies the goal met.
- `goalfile pause` (a command with no `--lock-wait`: it waits up to 600 s, and only then prints
  its own command line as the fix) while that process holds the lock, the model giving its Bash
  tool 3 s: Claude Code 2.1.332 does not end the command at that time: it moves it to the
  background ("moved to the background ... You will be notified when it completes"; a task
  still running after 10 minutes there is stopped), and the model's turn goes on. The model
  ends its process; the waiting `pause` takes the lock and pauses the goal, which the Stop hook
  tells the person at the stop. So the 600 s wait ends within the time Claude Code gives a
  background task, and the refusal's fix would reach the model as that task's output.

- The Stop hook's wait for a lock holder under the real Codex, whose `exec_command` answers at
  the model's `yield_time_ms` and leaves the command running: a `goalfile verify` still running
  at the stop is waited for and kept. One whose check hangs (under Claude Code too, which moves
  it to the background) is named with its `kill`, which the model runs as printed.

The recorded-input versions are tests/test_verify.py, tests/test_lock_fix.py and
tests/test_hook_lock_wait.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fake_model import Call, Reply, Say, Shell, Turn
from hosts_fixtures import (
    FIX,
    GOAL,
    PRINTED_FIX,
    PROMPT,
    Agent,
    Isolation,
    Session,
    goal_repo,
    goal_state,
    goalfile_ok,
    ledger,
    ran_quietly,
    register_hook,
    run_session,
    shell_said,
)
from hosts_fixtures import isolation as isolation
from skill_goals import on_the_users_path
from test_sent_back_once import HOLD_LOCK, holder_ended

# its lock is free once it has ended (no `$(...)`: Gemini CLI's shell tool refuses it)
END_HOLDER = "xargs kill < holder.pid; sleep 1"

LET_RUN_ON = {
    "claude": "a command your Bash tool moved to the background is one: Claude Code tells you "
    "when it completes",
    "codex": 'a command `exec_command` left running in a session ("Process running with session '
    'ID N") is one: poll that session with `write_stdin` until it exits',
    "gemini": "a command you ran in `run_shell_command` with `is_background` or `&` is one",
    "pi": "a command you started with `&` in your `bash` tool is one",
}
"""What the hold on a goal's lock says, in each host's words, of a command of the model's that
may hold it (what each host does with a command it lets run on: docs/hosts.md)."""

WAIT_FOR_IT = {
    "claude": "let it finish before you stop: Claude Code tells you when a command your Bash "
    "tool moved to the background completes",
    "codex": "poll its session with `write_stdin` until it exits before you stop: Codex ends a "
    "command still running in a session when the session ends, and it writes nothing",
    "gemini": "wait in `run_shell_command` until it has ended before you stop",
    "pi": "wait in your `bash` tool until it has ended before you stop",
}
"""How the holds after that one tell each host's model to wait for its command."""

OWN_WORDS = {
    "claude": ("Claude Code", "Bash tool", "moved to the background", "TaskStop"),
    "codex": ("Codex", "exec_command", "write_stdin", "session ID"),
    "gemini": ("Gemini", "run_shell_command"),
    "pi": ("`bash` tool",),
}
"""Words of one host's own tools and ways, which no other host's model is to read."""


def others_words(host: str, said: str) -> list[str]:
    """The words of other hosts' tools in ``said`` (a reason ``host`` handed its model)."""
    return [w for h, words in OWN_WORDS.items() if h != host for w in words if w in said]


class Steps:
    """The scripted model: at the prompt it runs ``steps`` one shell call at a time; a step
    that is None runs the `fix:` the previous step's output printed. Then it ends its turn,
    and at any later prompt ends it at once. ``outputs``: what the tool showed of each.
    ``background``: a goalfile step is a call of Gemini CLI's `run_shell_command` with
    `is_background`."""

    def __init__(
        self, steps: list[str | None], timeout_ms: int | None = None, *, background: bool = False
    ) -> None:
        self.steps, self.timeout_ms, self.background = steps, timeout_ms, background
        self.ran: list[str] = []
        self.outputs: list[str] = []

    def __call__(self, turn: Turn) -> Reply:
        if turn.after_tool:
            self.outputs.append(shell_said(turn.tool_output))
        elif turn.feedback is not None or self.ran:
            return Say("Done.")
        if len(self.ran) == len(self.steps):
            return Say("Done.")
        step = self.steps[len(self.ran)]
        if step is None:
            found = [m.group(1) for o in self.outputs for m in PRINTED_FIX.finditer(o)]
            step = found[-1] if found else "false"
        self.ran.append(step)
        if self.background and "goalfile" in step:
            return in_background(step)
        return Shell(step, timeout_ms=self.timeout_ms if "goalfile" in step else None)


def in_background(command: str) -> Reply:
    """A call of Gemini CLI's `run_shell_command` with `is_background`: it answers "Command
    moved to background (PID: N)" and leaves ``command`` running (fake_gemini sends a
    :class:`Call` as it is)."""
    run = {"command": command, "description": "run a command", "is_background": True}
    return Call("run_shell_command", run)  # type: ignore[return-value]


def hooked_repo(tmp_path: Path, host: str, *, hook_s: int, check: str = "test -f done.txt") -> Path:
    """The goal's repository (its one check ``check``) with ``host``'s Stop hook given
    ``hook_s`` seconds, and goalfile on the PATH of a login shell (Codex's `bash -lc`)."""
    repo = goal_repo(tmp_path, check=check)
    on_the_users_path(repo.parent / "home")
    command = f"goalfile hook stop --agent {host} --timeout {hook_s}"
    register_hook(repo, host, timeout=hook_s, command=command)
    return repo


def verify_left_running(
    host: str, isolation: Isolation, tmp_path: Path, *, check_s: int, hook_s: int
) -> tuple[Path, Steps, Session, str, str]:
    """A session whose model does the work and runs `goalfile verify` (its check taking
    ``check_s`` seconds), giving its shell tool 1 s, and stops while the verify still runs,
    under a Stop hook given ``hook_s`` seconds. The hook finds the goal locked by that verify
    and holds the agent once to let it finish; the stop after that waits for the same holder,
    which ends and writes the goal, met. Returns the repository, the model, the session and
    the two holds."""
    repo = hooked_repo(tmp_path, host, check=f"sleep {check_s}; test -f done.txt", hook_s=hook_s)
    # (Gemini CLI's run_shell_command takes no time from the model: it runs the verify with
    # `is_background`)
    # (pi's bash tool runs it with `&`: it takes no time from the model either)
    verify = f"goalfile verify {GOAL}" + (" > verify.log 2>&1 &" if host == "pi" else "")
    agent = Steps([FIX, verify], timeout_ms=1000, background=host == "gemini")
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT, timeout=240)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2, (reasons, ran.run.explain())
    held, waited = reasons
    assert re.search(
        rf"goalfile could not verify {GOAL}: locked by `goalfile verify` \(pid \d+, since "
        r"[\d:]+\); nothing was written\nLet that process finish ",
        held,
    ), held
    assert LET_RUN_ON[host] in held, held
    assert "fix:" not in held, held
    assert waited.split("\n")[0] == held.split("\n")[0], (held, waited)
    assert "\nThat process has ended since and wrote the goal file" in waited, waited
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)
    return repo, agent, ran, held, waited


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "pi"])
def test_verifys_lock_fix_runs_as_printed_in_the_hosts_shell(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    on_the_users_path(repo.parent / "home")  # Codex's `bash -lc` finds python and goalfile
    agent = Steps([HOLD_LOCK, FIX, f"goalfile verify {GOAL} --lock-wait 1", END_HOLDER, None])
    with holder_ended(repo):
        ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    refused = agent.outputs[2]
    assert "goalfile: goals/demo.md: locked by another goalfile process; nothing was written" in (
        refused
    ), refused
    fix = f"goalfile verify {GOAL} --lock-wait 601"
    assert f"  fix: `{fix}` waits longer for it" in refused, refused
    assert agent.ran[-1] == fix, agent.ran
    assert "C1 met; status: met" in agent.outputs[-1], agent.outputs[-1]
    # the one stop: the met checked again and let go
    assert ran.server.feedbacks() == [] and ran.server.stops() == 1, ran.run.explain()
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)


@pytest.mark.parametrize("host", ["gemini", "pi"])
def test_a_lock_the_model_holds_is_held_for_in_its_own_hosts_words(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The model starts a process that holds the goal's lock and stops: the hook waits for it
    a while, then holds the agent once, telling it to let that process finish or end it, in
    its own host's words (before, every host's model read Claude Code's: "a command of yours
    the host moved to the background", which neither Gemini CLI nor pi does: their shell tools
    wait for a command unless the model asks otherwise, `is_background` or `&`). The model
    ends its process and does the work; the next stop verifies the goal met."""
    # the hook waits for the lock a quarter of its time: given 20 s, about 5
    repo = hooked_repo(tmp_path, host, hook_s=20)
    agent = Agent(trouble=HOLD_LOCK, otherwise=f"{END_HOLDER}; {FIX}")
    with holder_ended(repo):
        ran = run_session(host, repo, agent, isolation, prompt=PROMPT)
    reasons = ran.server.feedbacks()
    assert len(reasons) == 1, (reasons, ran.run.explain())
    [held] = reasons
    said = "locked by another goalfile process; nothing was written"
    assert f"goalfile could not verify {GOAL}: {said}\nLet that process finish" in held, held
    assert f"({LET_RUN_ON[host]})" in held, held
    assert not others_words(host, held), held
    assert agent.ran == [agent.otherwise], agent.ran
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)


def test_a_pause_waiting_for_the_lock_is_moved_to_the_background_by_claude_and_lands(
    isolation: Isolation, tmp_path: Path
) -> None:
    # the hook waits for the lock a quarter of its time: given 20 s, 5 (the pause has it by then)
    repo = hooked_repo(tmp_path, "claude", hook_s=20)
    agent = Steps([HOLD_LOCK, f"goalfile pause {GOAL}", END_HOLDER], timeout_ms=3000)
    with holder_ended(repo):
        ran = run_session("claude", repo, agent, isolation, prompt=PROMPT)
    waiting = agent.outputs[1]
    assert f"{GOAL}: waiting for another goalfile process to finish (up to 600s)" in waiting
    moved = "did not complete within its 3s timeout and was moved to the background"
    assert moved in waiting, waiting
    # the pause landed once the model's process ended; the stop was let go, the person told
    assert goal_state(repo)["status"] == "paused"
    assert [e.by for e in ledger(repo)][-1] == "pause", ledger(repo)
    told = [str(e.get("content")) for e in ran.run.events()]
    assert any(m.startswith("Stop says: ") and "is paused, not met" in m for m in told), told
    assert ran.server.feedbacks() == [], ran.run.explain()


def test_a_verify_claude_moved_to_the_background_holds_the_stop_once_naming_no_command(
    isolation: Isolation, tmp_path: Path
) -> None:
    """The model does the work and runs `goalfile verify`, giving its Bash tool 1 s: the
    checks take 8 s, so Claude Code moves the verify to the background, and the model stops
    while it runs (Claude Code's Stop input lists it in `background_tasks`). The hook's verify
    finds the goal locked by it, and holds the agent once: let it finish and stop again. The
    reason named the lock's own hint as its fix, "run the command again once it has finished",
    no command the agent could run (and the goal's path twice, the second time absolute). The
    model does nothing more and stops again at once, the verify still running: the hook waits
    for it (it let that stop go, which Codex, that does not wait for a background command,
    ends the session on) and, the verify having written the goal, holds the agent once more to
    stop again; that stop is let go with the goal met."""
    # verify's time 9.6 s of 12, the lock waited for a quarter of it (2.4 s)
    _, agent, *_ = verify_left_running("claude", isolation, tmp_path, check_s=8, hook_s=12)
    assert "was moved to the background" in agent.outputs[1], agent.outputs


def test_a_verify_the_model_backgrounds_under_codex_is_ended_and_the_hook_verifies(
    isolation: Isolation, tmp_path: Path
) -> None:
    """Codex 0.171.0 moves no command to the background; a model that backgrounds one itself
    (`... &`) finds it ended when the command returns: Codex ends the command's processes then
    (a `(sleep 2; touch late.txt) &` beside it never writes the file). So the model's
    `goalfile verify ... &` writes nothing and holds no lock at the stop, and the hook's own
    verify runs the checks (8 s) and lets the one stop go with the goal met: the work is not
    lost to a verify Codex ended. (The hook's wait for a lock holder, tests/test_hook_lock_wait.py,
    is for a holder still running at the stop, as Claude Code's background tasks are.)"""
    repo = hooked_repo(tmp_path, "codex", check="sleep 8; test -f done.txt", hook_s=12)
    late = "(sleep 2; touch late.txt) > /dev/null 2>&1 &"
    agent = Steps([FIX, late, f"goalfile verify {GOAL} > verify.log 2>&1 &"])
    ran = run_session("codex", repo, agent, isolation, prompt=PROMPT)
    assert not (repo / "late.txt").exists(), "Codex let a backgrounded command run on"
    assert (repo / "verify.log").read_text(encoding="utf-8") == ""  # ended before it printed
    assert ran.server.feedbacks() == [] and ran.server.stops() == 1, ran.run.explain()
    assert [e.by for e in ledger(repo)] == ["activate", "verify-goal"], ledger(repo)
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)


def test_a_verify_codex_left_running_at_yield_time_is_waited_for_and_kept(
    isolation: Isolation, tmp_path: Path
) -> None:
    """The model does the work and runs `goalfile verify`, giving Codex's `exec_command` a
    `yield_time_ms` of 1 s: the check takes 20 s, so Codex answers with the session the command
    still runs in, and the model stops. The hook's verify finds the goal locked by that verify,
    waits for it a quarter of its share (10 s of 40) and holds the agent once, to let it finish;
    the model stops again at once, the verify still running. Codex waits for no command it let
    run on, and `codex exec` ends the processes of its session when it exits: the stop after
    the hold waits for the same holder, which ends and writes the goal, and the agent is held
    once more to stop again; that stop checks the `met` the verify wrote (its entry HEAD does
    not hold) and lets the agent go. The agent's verify entry is kept: nothing was lost to the
    session's end. Before the hook waited for the holder, the stop after the hold waited for
    the lock as the hook's verify (a quarter of its share) and, the verify having written the
    goal meanwhile, held the agent for "the goal file changed while the Stop hook read it ...
    (another file was put at its path)", blaming a swap; with a slower check, it let the agent
    go and the session's end lost the verify."""
    # the verify ends about 10 s after the first stop's wait, and as long before the second's
    repo, agent, ran, held, waited = verify_left_running(
        "codex", isolation, tmp_path, check_s=20, hook_s=50
    )
    assert re.search(r"Process running with session ID \d+", agent.outputs[1]), agent.outputs
    assert f"While a goalfile command of yours still runs, {WAIT_FOR_IT['codex']}" in waited
    assert not others_words("codex", held + waited), (held, waited)
    assert ran.server.stops() == 3, ran.run.explain()
    # the agent's own verify wrote the verdict; the hook's checks wrote nothing
    assert [e.by for e in ledger(repo)] == ["activate", "verify-goal"], ledger(repo)


@pytest.mark.parametrize("host", ["gemini", "pi"])
def test_a_verify_run_in_the_background_is_waited_for_and_kept(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The model does the work and runs `goalfile verify` in the background (Gemini CLI's
    `run_shell_command` with `is_background`; `&` in pi's `bash` tool), its check taking 20 s,
    and stops while it runs. The hook's verify finds the goal locked by that verify and holds
    the agent once, in its host's words (before, Claude Code's: "the host moved to the
    background"); the stop after that waits for the same holder, which ends and writes the
    goal, and the agent is held once more to stop again, told how to wait for it in its own
    shell tool; that stop lets it go, met by the agent's own verify."""
    repo, _, ran, held, waited = verify_left_running(
        host, isolation, tmp_path, check_s=20, hook_s=50
    )
    assert f"While a goalfile command of yours still runs, {WAIT_FOR_IT[host]}" in waited
    assert not others_words(host, held + waited), (held, waited)
    assert ran.server.stops() == 3, ran.run.explain()
    # the agent's own verify wrote the verdict; the hook's checks wrote nothing
    assert [e.by for e in ledger(repo)] == ["activate", "verify-goal"], ledger(repo)


class KillsWhenTold:
    """The scripted model of a verify that hangs: at the prompt it runs ``steps`` one shell
    call at a time (a goalfile command given ``yield_time_ms``: Codex answers at that time and
    leaves it running), then ends its turn; for a Stop-hook reason that prints a `fix:` it runs
    that fix as written, then ``after``; for any other reason it ends its turn at once.
    ``background``: a goalfile command is run with Gemini CLI's `is_background` instead."""

    def __init__(
        self, steps: list[str], *, after: str, yield_ms: int, background: bool = False
    ) -> None:
        self.steps, self.after, self.yield_ms = steps, after, yield_ms
        self.background = background
        self.ran: list[str] = []
        self.outputs: list[str] = []
        self.todo: list[str] = []

    def __call__(self, turn: Turn) -> Reply:
        if turn.after_tool:
            self.outputs.append(shell_said(turn.tool_output))
        elif turn.feedback is not None:
            found = PRINTED_FIX.search(turn.feedback)
            self.todo = [found.group(1), self.after] if found else []
        elif not self.ran:
            self.todo = list(self.steps)
        if not self.todo:
            return Say("Done.")
        step = self.todo.pop(0)
        self.ran.append(step)
        if self.background and "goalfile" in step:
            return in_background(step)
        return Shell(step, timeout_ms=self.yield_ms if "goalfile" in step else None)


LEFT_RUNNING = {
    "claude": "did not complete within its 1s timeout and was moved to the background",
    "codex": "Process running with session ID ",
    "gemini": "Command moved to background (PID: ",
}
"""What each host says of a command it left running past the time the model gave it."""


@pytest.mark.parametrize("host", ["claude", "codex", "gemini"])
def test_a_verify_that_hangs_is_named_with_its_kill_which_runs_as_printed(
    host: str, isolation: Isolation, tmp_path: Path
) -> None:
    """The model runs `goalfile verify` on a check that hangs, giving its shell tool 1 s (Claude
    Code's Bash `timeout`, after which it moves the command to the background; Codex's
    `exec_command` `yield_time_ms`, after which it answers and leaves the command running in a
    session; Gemini CLI's `run_shell_command` given `is_background`, which moves it to the
    background at once), and stops while it runs; held once to let it finish, it stops again
    at once. The stop after that hold waits for the holder a bounded time (before, half the
    hook's time left, and then let the agent go with the goal unverified; Codex then ended the
    verify with the session); it still runs, so the agent is held once more, naming the process
    and `kill PID`. The model runs that fix as printed in the host's shell, removes what made
    the check hang, and stops: the hook verifies the goal, met."""
    repo = hooked_repo(
        tmp_path, host, check="test ! -e hang || sleep 300; test -f done.txt", hook_s=40
    )
    agent = KillsWhenTold(
        [f"{FIX} && touch hang", f"goalfile verify {GOAL}"],
        after="rm hang",
        yield_ms=1000,
        background=host == "gemini",
    )
    ran = run_session(host, repo, agent, isolation, prompt=PROMPT, timeout=240)
    assert LEFT_RUNNING[host] in agent.outputs[1], agent.outputs
    reasons = ran.server.feedbacks()
    assert len(reasons) == 2, (reasons, ran.run.explain())
    held, running = reasons
    assert "\nLet that process finish" in held and "fix:" not in held, held
    assert running.split("\n")[0] == held.split("\n")[0], (held, running)
    pid = re.search(r"locked by `goalfile verify` \(pid (\d+), since", held)
    assert pid is not None, held
    assert "\nThat process still runs: the hook waited for it " in running, running
    # each host's model reads of its own tools only
    assert f"\nLet that process finish ({LET_RUN_ON[host]})" in held, held
    assert f"If it is still needed, {WAIT_FOR_IT[host]}.\n" in running, running
    assert not others_words(host, held + running), (held, running)
    assert agent.ran[2:] == [f"kill {pid.group(1)}", "rm hang"], agent.ran
    assert ran_quietly(host, agent.outputs[2]), agent.outputs[2]
    # the hook's own verify wrote the verdict; the ended verify wrote nothing
    assert [e.by for e in ledger(repo)] == ["activate", "verify-goal"], ledger(repo)
    assert goal_state(repo)["status"] == "met"
    goalfile_ok("audit", GOAL, cwd=repo)
