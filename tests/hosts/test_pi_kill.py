"""The real pi ends goalfile's hook at the extension's timeout, and with it every process the
goal's check started: background children, and one that left for a session of its own.

pi's `exec` (what the extension runs the hook with) ends the one process it started, with
SIGTERM, at its timeout. That process must be goalfile itself, not a shell around it: a shell
killed leaves goalfile and its checks running. goalfile, signalled, ends its checks as verify's
own runner does (their process group, and what carries its mark in its environment) and
answers with a hold, which the extension sends to the model.

The extension's timeout is set to a few seconds here, as a person who edits it would (`goalfile
init` keeps an edited extension); the check hangs until done.txt exists.
"""

from __future__ import annotations

import os
from pathlib import Path

from fake_chat import ChatServer
from fake_model import Reply, Say, Shell, Turn
from host_install import install_cli
from host_run_more import PI, run_pi_rpc
from hosts_fixtures import (
    FIX,
    PROMPT,
    Isolation,
    goal_repo,
    goal_state,
    nothing_left_running,
    start_server,
    verify_entries,
)
from hosts_fixtures import isolation as isolation

from goalfile.pi_extension import EXTENSION, shipped_extension

SHIPPED_TIMEOUT = "const HOOK_TIMEOUT_MS = 600_000;"
TIMEOUT_MS = 8_000


def alive(pid: int) -> bool:
    """``pid`` runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False
    return not stat[stat.rfind(b")") + 2 :].startswith(b"Z")


def test_pi_s_kill_of_the_hook_ends_the_checks_background_and_setsid_processes(
    isolation: Isolation, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    # the check: met once done.txt exists; until then it starts a background sleep and a
    # setsid one, notes their pids and its own, and waits
    check = (
        f"test -f done.txt || {{ sleep 100 & echo $! >> {pids}; setsid sleep 100 & "
        f"echo $! >> {pids}; echo $$ >> {pids}; sleep 100; }}"
    )
    repo = goal_repo(tmp_path, check=check)
    extension = repo / EXTENSION
    shipped = shipped_extension()
    assert extension.read_text(encoding="utf-8") == shipped and SHIPPED_TIMEOUT in shipped
    short = shipped.replace(SHIPPED_TIMEOUT, f"const HOOK_TIMEOUT_MS = {TIMEOUT_MS};")
    extension.write_text(short, encoding="utf-8")

    def script(turn: Turn) -> Reply:
        if turn.after_tool:
            return Say("Done.")
        return Shell(FIX if turn.feedback is not None else "true")

    with start_server(ChatServer, script, isolation) as server:
        run = run_pi_rpc(
            install_cli(PI),
            repo=repo,
            home=tmp_path / "home",
            server_url=server.url,
            prompt=PROMPT,
            netns=isolation.netns,
        )
    assert run.returncode == 0, run.explain()
    # the check ran and started its processes; pi's kill of the hook ended every one of them
    # and goalfile with them (a shell around goalfile would have taken the kill alone)
    started = [int(line) for line in pids.read_text(encoding="utf-8").split()]
    assert len(started) == 3, started
    nothing_left_running(repo)
    assert not [pid for pid in started if alive(pid)], started
    # goalfile answered the kill with a hold, which reached the model: it met the goal, and
    # the next end of the agent's run verified it met and let it stop
    reasons = server.feedbacks()
    assert len(reasons) == 1, (reasons, run.explain())
    assert "goalfile hook stop was ended by SIGTERM before it answered" in reasons[0], reasons
    assert server.stops() == 2, run.explain()
    assert [e.status for e in verify_entries(repo)] == ["met"]
    assert goal_state(repo)["status"] == "met"
    assert os.path.exists(repo / "done.txt")
