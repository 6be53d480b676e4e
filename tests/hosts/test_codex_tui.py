"""What the person sees of the Stop hook in Codex's own terminal interface (not `codex exec`,
which shows a `systemMessage` nowhere): the real Codex runs in a tmux pane, offline against
the fake model, and the test reads the screen.

Codex 0.171.0 shows a hold as `• Blocked by hook` with the hook's reason under it, and an
allowed stop's `systemMessage` as `↳ Hook · MESSAGE`. The goal is the demo goal (`goalfile
new` + `activate` + `init`, the hook trusted as `/hooks` does); the model does nothing useful
at first, is held, meets the goal, and is let go with the summary line.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from fake_model import Reply, ResponsesServer, Say, Turn, fix_after_feedback
from host_install import install_cli
from host_run import codex_env, trust_codex_hooks, write_codex_config
from hosts_fixtures import CODEX, FIX, PROMPT, Isolation, goal_repo, goal_state, start_server
from hosts_fixtures import isolation as isolation
from skill_goals import on_the_users_path

TITLE = "Generate a concise, single-line task title"  # the interface's side request
HELD = "• Blocked by hook"
LET_GO = "↳ Hook · goalfile: verify-goal demo iteration 1: C1 met; status: met"


def agent(turn: Turn) -> Reply:
    """Nothing useful at first; the fix once held; text after each tool result. The title the
    interface asks for on the side is text."""
    if TITLE in turn.text:
        return Say("Goal work")
    return fix_after_feedback(FIX)(turn)


def screen(tmux: list[str]) -> str:
    """The pane's text, its scrolled-off lines too, each line's trailing blanks dropped."""
    shot = subprocess.run(
        [*tmux, "capture-pane", "-p", "-J", "-S", "-", "-t", "codex"],
        capture_output=True,
        text=True,
        check=True,
    )
    return "\n".join(line.rstrip() for line in shot.stdout.splitlines())


def test_codex_tui_shows_the_hold_and_the_message_of_the_stop_it_lets_go(
    isolation: Isolation, tmp_path: Path
) -> None:
    found = shutil.which("tmux")
    assert found is not None, "tmux is needed to drive Codex's terminal interface"
    repo = goal_repo(tmp_path)
    codex = install_cli(CODEX)
    home = tmp_path / "home"
    codex_home = home / ".codex"
    on_the_users_path(home)  # Codex's shell is a login shell
    tmux = [found, "-S", str(tmp_path / "tmux.sock")]
    with start_server(ResponsesServer, agent, isolation) as server:
        write_codex_config(codex_home, server_url=server.url, repo=repo)
        trust_codex_hooks(codex, repo=repo, codex_home=codex_home, netns=isolation.netns)
        env = {**codex_env(codex_home=codex_home), "TERM": "xterm-256color"}
        start = [*tmux, "new-session", "-d", "-s", "codex", "-x", "200", "-y", "60"]
        start += ["-c", str(repo), "env", "-i", *(f"{k}={v}" for k, v in env.items())]
        # without its app-server daemon, which Codex otherwise starts and leaves running (an
        # update loop that `codex app-server daemon stop` does not end): the interface then
        # runs the app server, and the hooks, itself
        start += [str(codex), "--disable", "daemon_auto_start", PROMPT]
        if isolation.netns is not None:
            start = isolation.netns.wrap(start)
        subprocess.run(start, env=env, check=True, timeout=30)
        try:
            deadline = time.monotonic() + 120  # only stops a run that would not end
            shown = screen(tmux)
            while LET_GO not in shown and time.monotonic() < deadline:
                time.sleep(0.5)
                shown = screen(tmux)
        finally:
            subprocess.run([*tmux, "kill-server"], check=False, timeout=30)
    reasons = server.feedbacks()
    stops = [r for r in server.model_requests if r.turn and TITLE not in r.turn.text]
    assert len(reasons) == 1 and sum(isinstance(r.reply, Say) for r in stops) == 2, shown
    assert LET_GO in shown, shown
    held = shown.index(HELD)
    assert held < shown.index("Ran touch done.txt") < shown.index(LET_GO), shown
    # the reason the model was given, line by line, under the hold
    lines = [line.strip() for line in shown[held:].splitlines()[1:]]
    for line in reasons[0].splitlines():
        assert line.strip() in "\n".join(lines), (line, shown)
    assert goal_state(repo)["status"] == "met"
    left = codex_processes(tmp_path)
    assert not left, f"Codex left these running: {left}"


def codex_processes(folder: Path) -> dict[int, str]:
    """The processes whose program lies under ``folder`` (Codex copies its daemon into its
    home), each pid with its command line; they are killed."""
    found: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                program = os.readlink(f"/proc/{entry}/exe")
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    command = handle.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if program.startswith(f"{folder}{os.sep}"):
                found[int(entry)] = command
    for pid in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return found
