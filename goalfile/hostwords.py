"""What a hold on a goal's lock tells the model of its own commands, in its host's words. Pure.

The process that holds a goal's lock at a stop is often a goalfile command of the agent's
that the host let run on, and each host does that its own way (docs/hosts.md, as the real
hosts do it): Claude Code's Bash tool moves a command that outlasts its `timeout` to the
background and tells the model when it completes; Codex's `exec_command` answers at the
model's `yield_time_ms` with "Process running with session ID N", `write_stdin` polls that
session, and `codex exec` ends what still runs when the session ends; Gemini CLI's
`run_shell_command` waits for a command unless the model gives it `is_background` or starts it
with `&`, and pi's `bash` tool unless the model starts it with `&`. A hold names only its own
host's tools and ways, and the place where a person gives the hook more time in that host
(:func:`hook_time`).
"""

from __future__ import annotations

from goalfile.hostprotocol import HostAgent

__all__ = ["hook_time", "let_run_on", "wait_for_it"]

_LET_RUN_ON = {
    HostAgent.CLAUDE: "a command your Bash tool moved to the background is one: Claude Code "
    "tells you when it completes",
    HostAgent.CODEX: 'a command `exec_command` left running in a session ("Process running '
    'with session ID N") is one: poll that session with `write_stdin` until it exits',
    HostAgent.GEMINI: "a command you ran in `run_shell_command` with `is_background` or `&` is one",
    HostAgent.PI: "a command you started with `&` in your `bash` tool is one",
}

_WAIT = {
    HostAgent.CLAUDE: "let it finish before you stop: Claude Code tells you when a command "
    "your Bash tool moved to the background completes",
    HostAgent.CODEX: "poll its session with `write_stdin` until it exits before you stop: "
    "Codex ends a command still running in a session when the session ends, and it writes "
    "nothing",
    HostAgent.GEMINI: "wait in `run_shell_command` until it has ended before you stop",
    HostAgent.PI: "wait in your `bash` tool until it has ended before you stop",
}


def let_run_on(agent: HostAgent) -> str:
    """Which of the model's own commands may be the lock's holder, and how it learns of its
    end, in ``agent``'s words (a parenthesis of the lock hold's advice)."""
    return _LET_RUN_ON[agent]


def wait_for_it(agent: HostAgent) -> str:
    """How the model waits for a goalfile command of its own that still runs, in ``agent``'s
    words (the end of a sentence that starts "if it is still needed, ")."""
    return _WAIT[agent]


_HOOK_TIME = {
    HostAgent.CLAUDE: "the hook's `timeout` in .claude/settings.json and `goalfile hook stop "
    "--timeout`",
    HostAgent.CODEX: "the hook's `timeout` in .codex/hooks.json and `goalfile hook stop --timeout`",
    HostAgent.GEMINI: "the hook's `timeout` in .gemini/settings.json, in milliseconds, and "
    "`goalfile hook stop --timeout`",
    HostAgent.PI: "`HOOK_TIMEOUT_MS` in .pi/extensions/goalfile/goalfile.mjs and the `--timeout` "
    "of the `goalfile hook stop` it runs, 600 s when not given",
}


def hook_time(agent: HostAgent) -> str:
    """Where a person raises the Stop hook's time under ``agent``, the host's limit and
    goalfile's (`goalfile init` writes them: Gemini CLI's in milliseconds; pi's in goalfile's
    extension, whose hook command carries no `--timeout`)."""
    return _HOOK_TIME[agent]
