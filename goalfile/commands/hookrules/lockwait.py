"""The Stop hook's wait for the process that holds a goal's lock, when verify refused the goal
for it: often the agent's own `goalfile verify`, still running at the stop (Claude Code moved
it to the background; Codex's `exec_command` answered at the model's `yield_time_ms` and left
it running in a session). The hook waits for it a short time at each stop (at most
:data:`goalfile.commands.hookrules.verifyrun.LOCK_WAIT`), so that a host that ends the
processes of its session when it ends (`codex exec`) does not lose that verify; one that has
not ended by the stop after the hold to let it finish holds the agent once more, naming it and
the command that ends it, as a holder that never ends (a check that hangs) must neither make
every stop wait long nor trap the agent.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.hookrules.once import file_mark, held_once
from goalfile.commands.hookrules.outcome import GoalOutcome
from goalfile.files import real_path
from goalfile.hostwords import wait_for_it
from goalfile.value import replace

if TYPE_CHECKING:
    from goalfile.commands.hookrepo import RepositoryWatch
    from goalfile.hostprotocol import HostAgent

RETRY = "retry"  # :func:`lock_waited`: the lock is free and the goal file as judged: verify again


def lock_waited(
    path: Path,
    found: GoalOutcome,
    repositories: RepositoryWatch,
    upgraded: dict[int, GoalOutcome],
    agent: HostAgent,
    *,
    first: float,
    told: float,
    expect: str | None,
) -> GoalOutcome | str | None:
    """verify's refusal ``found`` when it is the goal's lock held by another process: wait for
    that process (``first`` seconds; ``told`` when the hold on the same refusal was made at an
    earlier stop of the session, the agent told to let it finish: it stopped while it still
    ran). Claude Code waits for a command it moved to the background and starts a turn when it
    ends; Codex does not, and `codex exec` ends the processes of its session when it exits, so
    letting that stop go (once per finding) lost the verify and its entry. Once the process
    has ended: :data:`RETRY` when the goal file is the one the hook judged (verify it now),
    else a hold that says the process ended and wrote the goal file, to stop again (the next
    stop judges it as that process left it: verify refused it here as "changed while the Stop
    hook read it", blaming a file swapped). Still running after the wait that followed the
    hold: :func:`still_running_once`. None otherwise (or for another refusal). ``agent``: the
    host, whose words a hold uses (:mod:`goalfile.hostwords`)."""
    from goalfile.commands.hookrules.verdict import is_locked
    from goalfile.errors import GoalfileError
    from goalfile.files import goal_lock, read_text

    text = (found.message if not found.block else (found.reason or "").rsplit("\n", 1)[0]) or ""
    if not is_locked(text):
        return None
    key = f"refused\0{real_path(path)}{file_mark(path)}\0{text}"
    after_hold = repositories.told(key)
    wait = max(told if after_hold else first, 0.0)
    try:
        with goal_lock(path, command="goalfile hook stop", wait=wait):
            pass
    except GoalfileError:
        if not after_hold:
            return None
        return still_running_once(path, found, text, key, wait, repositories, upgraded, agent)
    try:
        now = read_text(path)
    except (OSError, UnicodeDecodeError, GoalfileError):
        now = None
    if expect is None or now == expect:
        return RETRY
    return replace(
        found,
        block=True,
        message=None,
        reason=f"{text}\nThat process has ended since and wrote the goal file (the hook waited "
        "for it): stop again, and the next stop verifies the goal as it left it. While a "
        f"goalfile command of yours still runs, {wait_for_it(agent)}.",
    )


def still_running_once(
    path: Path,
    found: GoalOutcome,
    text: str,
    told: str,
    waited: float,
    repositories: RepositoryWatch,
    upgraded: dict[int, GoalOutcome],
    agent: HostAgent,
) -> GoalOutcome | None:
    """The lock's holder named in verify's refusal ``text`` still runs after the hook waited
    ``waited`` seconds for it, at a stop after the hold ``told`` (to let it finish): hold the
    agent once more (once per finding), naming the process and `kill PID`, when the holder's
    pid is a goalfile process this hook can see (the command then works as written: a process
    in a namespace of its own, or a pid since reused, is not named). None otherwise, and at
    the stops after that hold: the refusal is let go as before (:func:`refused_once`), since a
    lock held for ever must not trap the agent."""
    pid = holder_pid(text)
    if pid is None:
        return None
    key = f"running\0{real_path(path)}{file_mark(path)}\0{text}"
    if repositories.made_before(key):
        return None
    repositories.hold_made(told)  # the hold to let it finish still stands
    held = replace(
        found,
        block=True,
        message=None,
        reason=f"{text}\nThat process still runs: the hook waited for it {waited:.0f} s at this "
        "stop too. If it is yours and makes no progress (a check that hangs, say), end it, then "
        "stop again: the next stop verifies the goal. If it is still needed, "
        f"{wait_for_it(agent)}.\n  fix: `kill {pid}`",
    )
    if found.block:
        repositories.hold_made(key)
        return held
    return held_once(found, key, lambda: held, repositories, upgraded)


_HOLDER = re.compile(r": locked by `[^`\n]*` \(pid (\d+), since [^)\n]*\); nothing was written\Z")


def holder_pid(text: str) -> int | None:
    """The pid verify's refusal ``text`` names as the lock's holder, when that process is a
    goalfile process still running where this hook can see it (its command line names
    goalfile); else None."""
    found = _HOLDER.search(text)
    if found is None:
        return None
    pid = int(found.group(1))
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            command = handle.read()
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except (OSError, ValueError):
        return None
    ended = stat[stat.rfind(b")") + 2 :].startswith(b"Z")  # a zombie has ended
    return None if ended or b"goalfile" not in command else pid
