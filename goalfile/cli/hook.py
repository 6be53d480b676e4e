"""The ``hook`` commands, which hosts run at every stop of every agent turn (``hook stop``):
apart from the other host commands so that a stop loads only its own."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from goalfile.cli.base import Seconds, err, json_option, main
from goalfile.hostprotocol import HOOK_TIMEOUT_MAX


@main.group()
def hook() -> None:
    """Entry points for coding-agent hosts' hooks (Claude Code, Codex, Gemini CLI, pi)."""


class _FailOpen(click.Command):
    """A hook must never exit 2 by accident (some hosts read 2 as "block"): a bad command line
    is reported on stderr, and the stop is allowed."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            name = self.name or "stop"
            said = "the stop is allowed" if name == "stop" else "not recorded"
            err(f"goalfile hook {name}: {exc.format_message()}; {said}")
            click.echo("{}")
            raise click.exceptions.Exit(0) from None


@hook.command("stop", cls=_FailOpen)
@click.option(
    "--agent",
    type=click.Choice(["claude", "codex", "gemini", "pi"]),
    default=None,
    help="The host whose protocol to answer in (default: read from the input's "
    "hook_event_name: AfterAgent is gemini, agent_end is pi, else claude).",
)
@click.option(
    "--goal",
    "goal_path",
    type=click.Path(),
    help="The goal to hold the agent to (default: every active goal under goals/ and "
    ".zetetic/goals/).",
)
@click.option(
    "--timeout",
    type=Seconds(min=1, max=HOOK_TIMEOUT_MAX),
    default=600,
    show_default=True,
    help="The host's timeout for this hook, in seconds; verify stops well before it.",
)
@click.option(
    "--stall-limit",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Let the agent stop after this many verify runs in a row without progress (at least "
    "2: 1 counts as 2, since no progress needs two runs compared).",
)
@json_option
def hook_stop(
    agent: str | None, goal_path: str | None, timeout: float, stall_limit: int, as_json: bool
) -> None:
    """Stop hook of Claude Code, Codex, Gemini CLI (AfterAgent) and pi (goalfile's extension):
    verify the goal; hold the agent while it is unmet.

    Reads the host's hook JSON on stdin. Allows the stop when the goal is met, exhausted,
    blocked, paused or absent; otherwise answers {"decision": "block", "reason": ...}
    ("deny" for Gemini CLI) with the summary line and the unmet rows' evidence. A goal it could
    not verify (no time left, a goal file git tracks that is gone, an error on that goal) holds
    the agent once, as do a repository git cannot list, a goal folder that cannot be read and
    any other error once the input is read. Always exits 0: input that is not a host's JSON
    object, or an internal error before the input is read, lets the agent stop, with a message
    on stderr.
    """
    from goalfile import hookwatch
    from goalfile.hostprotocol import HostAgent
    from goalfile.termsafe import wrap_standard_streams

    wrap_standard_streams()  # its notes name goal files: text, never terminal instructions
    given = HostAgent(agent) if agent else None
    host = given or HostAgent.CLAUDE
    # whatever blocks, an answer comes within the host's timeout, and it holds the agent
    watch = hookwatch.start(timeout=timeout, agent=host, as_json=as_json)
    try:
        document, notes = _hook_stop(given, goal_path, timeout, stall_limit, as_json, watch)
    except Exception as exc:  # before the input is read (_hook_stop holds on a later one)
        err(f"goalfile hook stop: internal error: {type(exc).__name__}: {exc}; the stop is allowed")
        document, notes = _fail_open(host, as_json, str(exc)), []
    except KeyboardInterrupt:  # a SIGINT the watchdog did not take first: held, as it holds
        err("goalfile hook stop: interrupted; the stop is held")
        reason = "goalfile hook stop was interrupted before it answered, so the stop is held"
        document, notes = json.loads(hookwatch.held_answer(host, reason, as_json=as_json)), []
    with watch.answering():
        for note in notes:
            err(f"goalfile: {note}")
        if document is not None:
            click.echo(json.dumps(document, ensure_ascii=False))
    sys.exit(0)


@hook.command("start", cls=_FailOpen)
@click.option(
    "--agent",
    type=click.Choice(["claude", "codex", "gemini", "pi"]),
    default=None,
    help="The host that runs it: when the session has a record, it is answered with one "
    "line of context that its transcript keeps (Gemini CLI otherwise with `{}`).",
)
@json_option
def hook_start(agent: str | None, as_json: bool) -> None:
    """Session-start hook of Claude Code, Codex and Gemini CLI (SessionStart) and pi
    (goalfile's extension): take the session's record before the agent acts.

    Reads the host's hook JSON on stdin and records, per session, the branch and the commit
    HEAD is on and the active goal files git tracks in each repository that holds the
    session's folder, as `goalfile hook stop` records them at each stop; the session's first
    stop then compares with it (a branch moved, criteria loosened and committed before the
    first stop). A session that has a record already (resumed, compacted) keeps it. Never
    stops the session: always exits 0, with what it could not record on stderr.
    """
    from goalfile.termsafe import wrap_standard_streams

    wrap_standard_streams()
    document: dict[str, object] | None = None
    try:
        document = _hook_start(as_json, agent)
    except Exception as exc:  # a start hook never keeps a session from starting
        err(f"goalfile hook start: internal error: {type(exc).__name__}: {exc}; not recorded")
        document = {"schema_version": 1, "error": {"message": str(exc)}} if as_json else None
    if document is None and agent == "gemini":  # Gemini CLI reads stderr when stdout is empty
        document = {}
    if document is not None:
        click.echo(json.dumps(document, ensure_ascii=False))
    sys.exit(0)


def _hook_start(as_json: bool, agent: str | None = None) -> dict[str, object] | None:
    import os
    from pathlib import Path

    from goalfile.commands.context import Context
    from goalfile.commands.hookrules.stopinput import StopInput
    from goalfile.commands.hookstart import record_start
    from goalfile.errors import GoalfileError

    raw = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
    try:
        start = StopInput.parse(raw)
    except GoalfileError as exc:
        err(f"goalfile hook start: {exc.render()}; not recorded")
        return {"schema_version": 1, "error": exc.to_json()} if as_json else None
    here = Path(start.cwd) if start.cwd and os.path.isabs(start.cwd) else None
    ctx = Context.from_process(notify=err, fallback=here)
    done = record_start(start, ctx)
    for note in done.notes:
        err(f"goalfile hook start: {note}")
    if as_json:
        return done.to_json()
    if agent is not None and (done.written or done.kept):
        from goalfile.recordbind import STARTED

        # the host (pi: goalfile's extension) keeps it in the session's transcript, where a
        # stop finds that the session had a record (:func:`goalfile.recordbind.started`)
        context = {"hookEventName": "SessionStart", "additionalContext": STARTED}
        return {"hookSpecificOutput": context}
    return None


def _hook_stop(
    given: Any, goal_path: str | None, timeout: float, stall_limit: int, as_json: bool, watch: Any
) -> tuple[dict[str, object] | None, list[str]]:
    import os
    from pathlib import Path

    from goalfile import hookwatch
    from goalfile.commands.context import Context
    from goalfile.commands.hook import HookOptions, StopInput, allow_output, decide_stop
    from goalfile.errors import GoalfileError
    from goalfile.hostprotocol import detect_agent

    raw = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
    host = detect_agent(given, None)
    try:
        stop = StopInput.parse(raw)
    except GoalfileError as exc:
        err(f"goalfile hook stop: {exc.render()}; the stop is allowed")
        if as_json:
            return {"schema_version": 1, "decision": "allow", "error": exc.to_json()}, []
        return allow_output(host, f"goalfile hook stop: {exc.message}; the stop is allowed"), []
    host = detect_agent(given, stop.hook_event_name)
    from goalfile.selfrun import self_runs

    pending = _running(self_runs(stop.transcript_path))
    if pending is not None:  # the agent's own tool call, it may be: nothing is run or written
        from goalfile.commands.hookrules.selfheld import refusal

        return _document(refusal(stop, pending, "stop"), host, as_json, stop)
    # from here on the input names the session, and no error lets the agent stop unchecked:
    # one that escapes the goals' own holds holds the agent once
    try:
        watch.host(host)
        # closed to this user's other processes before anything runs (git, and what git's
        # configuration may name: a program git runs for the agent must not reach the pipes)
        hookwatch.private()
        # a limit of 1 compares a verify run with itself: every run would be "no progress"
        options = HookOptions(
            agent=host, goal=goal_path, timeout=timeout, stall_limit=max(stall_limit, 2)
        )
        here = Path(stop.cwd) if stop.cwd and os.path.isabs(stop.cwd) else None
        ctx = Context.from_process(notify=err, fallback=here)  # the hook's folder may be gone
        # the hook's time limit counts from when the host started it, as the watchdog's does:
        # a slow start (a loaded machine) leaves the hook less time, not the watchdog none
        spent = hookwatch.spent()
        return _document(decide_stop(stop, options, ctx, spent=spent), host, as_json, stop)
    except (Exception, KeyboardInterrupt) as exc:
        from goalfile.commands.hookrules.failures import failed_stop  # here: only a failure

        return _document(failed_stop(stop, exc), host, as_json, stop)


def _running(runs: Any) -> Any:
    from goalfile.commands.hookrules.selfheld import running

    return running(runs) if runs else None


def _document(
    decision: Any, host: Any, as_json: bool, stop: Any
) -> tuple[dict[str, object] | None, list[str]]:
    """The answer to print for ``decision``, and the notes for stderr. A hold Claude Code will
    override (its cap on holds in a row, :mod:`goalfile.blockcap`) tells the person so."""
    document = decision.to_json(host) if as_json else decision.host_output(host)
    notice = _override_notice(decision, host, stop)
    answer = document.get("host_output") if as_json and document else document
    if notice and isinstance(answer, dict):
        from goalfile.termsafe import escape

        answer["systemMessage"] = escape(notice)
    return document, list(decision.notes)


def _override_notice(decision: Any, host: Any, stop: Any) -> str | None:
    """The notice, if any; never an error (the hold stands whatever this finds)."""
    try:
        return _overridden(decision, host, stop)
    except Exception:
        return None


def _overridden(decision: Any, host: Any, stop: Any) -> str | None:
    import os

    from goalfile import blockcap
    from goalfile.hostprotocol import HostAgent

    if host is not HostAgent.CLAUDE or not decision.block:
        return None
    cap = blockcap.cap_in_force(os.environ)
    if cap is None:
        return None
    path = os.path.expanduser(stop.transcript_path) if stop.transcript_path else None
    held = blockcap.holds_in_a_row(path, at_most=cap)
    if held is None or held < cap:
        return None
    goals = [goal.path for goal in decision.goals if goal.block and goal.path]
    return blockcap.override_notice(goals, held=held, cap=cap)


def _fail_open(host: Any, as_json: bool, message: str) -> dict[str, object] | None:
    from goalfile.commands.hook import allow_output

    if as_json:
        return {"schema_version": 1, "decision": "allow", "error": {"message": message}}
    return allow_output(host, f"goalfile hook stop failed ({message}); the stop is allowed")
