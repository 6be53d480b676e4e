"""The real Gemini CLI and pi, offline against a fake model, held to a goal by goalfile.

Each test sets up a real git repository as a user would (`goalfile new` + `activate` +
`init`, which registers `goalfile hook stop --agent gemini` as Gemini's AfterAgent hook in
.gemini/settings.json and installs goalfile's pi extension in .pi/extensions/), runs the CLI in
it (`gemini -p`, `pi --mode rpc`), and reads what happened from the fake server's request log,
the goal file's ledger and the host's own session file.

(a) the hook or extension runs at the end of a turn, (b) the reason reaches the model's next
request, (c) the run ends once the scripted fix makes the goal met, (d) a model that never fixes
anything is released, (e) the token usage read from the host's session file equals what the
fake server sent. The last case has Gemini's fake model call a goalfile MCP tool.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fake_chat import ChatServer, pi_tokens
from fake_gemini import Call, declared_tools, gemini_tokens
from fake_model import FakeModel, Say, Script, Shell, Turn, Usage, fix_after_feedback, never_fix
from host_install import install_cli
from host_run_more import (
    PI,
    run_pi_print,
)
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Isolation,
    Session,
    approve_by_commit,
    goal_repo,
    goal_state,
    goalfile_ok,
    ledger,
    mcp_goal_repo,
    run_session,
    start_server,
    verify_entries,
)
from hosts_fixtures import isolation as isolation

from goalfile.usage import read_usage


@dataclass(frozen=True)
class Host:
    name: str
    tokens: Callable[[Usage], int]  # what goalfile counts of one reply's usage
    allowed: re.Pattern[str] = re.compile("")  # every request the CLI may make

    def session(self, repo: Path, script: Script, isolation: Isolation) -> Session:
        """The CLI run to its end against ``script``. Its time limit only stops a run that would
        not end: a dozen turns, each with a hook that runs the checks, take half a minute on an
        idle machine and several times that on a loaded one."""
        return run_session(self.name, repo, script, isolation, prompt=PROMPT, timeout=600)


@pytest.fixture(params=["gemini", "pi"])
def host(request: pytest.FixtureRequest) -> Host:
    if request.param == "gemini":
        return Host(
            name="gemini",
            tokens=gemini_tokens,
            allowed=re.compile(
                r"(POST /v1beta/models/[\w.-]+:(streamGenerateContent|countTokens)"
                r"|GET /v1beta/models)(\?.*)?"
            ),
        )
    return Host(
        name="pi",
        tokens=pi_tokens,
        allowed=re.compile(r"(POST /v1/chat/completions|GET /v1/models)(\?.*)?"),
    )


# one `IFACES: NAME` line per network interface (no `$(...)`: Gemini CLI refuses it)
IFACES = "grep -o '^ *[^ :|]*:' /proc/net/dev | tr -d ' :' | sed 's/^/IFACES: /'"


def replies(server: FakeModel) -> list[Usage]:
    return [r.usage for r in server.agent_requests() if r.usage is not None]


def test_the_goal_holds_the_agent_until_the_scripted_fix(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    session = host.session(repo, fix_after_feedback(FIX, idle=IFACES), isolation)
    server = session.server
    # (a) at each end of a turn goalfile verified the goal: one ledger entry per stop
    assert server.stops() == 2, session.run.explain()
    entries = verify_entries(repo)
    assert len(entries) == 2, entries
    # (b) the reason reached the model's next request, and the model fixed the work
    feedback = server.feedbacks()
    assert len(feedback) == 1, feedback
    assert feedback[0].startswith("verify-goal demo iteration ")
    assert "C1 unmet" in feedback[0]
    fixed = [r.reply for r in server.agent_requests() if r.turn and r.turn.feedback]
    assert fixed == [Shell(FIX)]
    # (c) once the fix made the goal met, the run ended (exit 0 was checked)
    assert [e.status for e in entries] == ["active", "met"]
    assert goal_state(repo)["status"] == "met"
    # (e) the usage in the host's own session file is exactly what the fake server sent
    (file,) = session.transcripts
    sent = sum(host.tokens(u) for u in replies(server))
    assert read_usage(file).tokens == sent
    stops = [i for i, r in enumerate(server.agent_requests()) if isinstance(r.reply, Say)]
    baseline = sum(host.tokens(u) for u in replies(server)[: stops[0] + 1])
    text = (repo / GOAL).read_text(encoding="utf-8")
    row = re.search(rf"\| `[^`]+` +\| {host.name} +\| `[^`]+` +\| (\d+) +\| (\d+) +\|", text)
    assert row is not None, text
    assert (int(row.group(1)), int(row.group(2))) == (baseline, sent)
    assert goal_state(repo)["tokens"]["used"] == sent - baseline
    # the CLI asked the fake server for nothing but its model, and (where the machine allows a
    # network namespace) ran where loopback is the only network
    seen = [f"{r.method} {r.path}" for r in server.log]
    assert all(host.allowed.fullmatch(s) for s in seen), seen
    if isolation.netns is not None:
        outputs = [r.turn.tool_output or "" for r in server.log if r.turn and r.turn.after_tool]
        listed = [name for o in outputs for name in re.findall(r"IFACES: ([\w.@-]+)", o)]
        assert listed == ["lo"], outputs


def test_a_model_that_never_fixes_anything_is_released(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    session = host.session(repo, never_fix(), isolation)
    # (d) three identical verify runs, then the goal is blocked, which holds the agent once
    # more (once per entry, at a stop the host marks as continuing or not: pi says the stop
    # follows the hook's own follow-up, `stop_hook_active`; Gemini CLI sends it false at every
    # stop that follows a tool call, as each does here); its next stop is let go
    entries = verify_entries(repo)
    assert len(entries) == 3 and session.server.stops() == 4, session.run.explain()
    feedbacks = session.server.feedbacks()
    assert len(feedbacks) == 3, feedbacks
    assert "no progress in 3 verify runs" in feedbacks[-1], feedbacks
    assert [e.by for e in ledger(repo)].count("stop-hook-hold") == 1  # that hold
    state = goal_state(repo)
    assert state["status"] == "blocked"
    assert "no progress in 3" in (state["blocker"] or ""), state


def test_gemini_retry_storm_is_released_by_the_hook(isolation: Isolation, tmp_path: Path) -> None:
    """With both stall guards and the iteration budget out of the way, a model that only talks
    makes Gemini stop calling it (its loop detection) while it still fires AfterAgent: the hook
    must end that."""
    repo = goal_repo(tmp_path, iterations="100")
    settings = repo / ".gemini" / "settings.json"
    text = settings.read_text().replace("--agent gemini", "--agent gemini --stall-limit 50")
    settings.write_text(text)
    goal = repo / GOAL
    unstalled = goal.read_text().replace("\ntokens_used:", "\nstall_limit: 50\ntokens_used:", 1)
    goal.write_text(unstalled)
    host = Host(name="gemini", tokens=gemini_tokens)
    session = host.session(repo, lambda turn: Say("I looked; nothing to do."), isolation)
    model_calls = len(session.server.agent_requests())
    entries = verify_entries(repo)
    # one verify per model answer at most; the hook calls without a model call ran nothing
    assert len(entries) <= model_calls, (len(entries), model_calls)
    # the storm is bounded in hook calls, not in seconds (a loaded machine is slow, not wrong):
    # every hold the CLI shows is a verify's, and the first call of the storm ended the run
    told = session.run.stderr
    assert told.count("Agent execution blocked:") <= len(entries), session.run.explain()
    assert told.count("the model was not called since") == 1, session.run.explain()
    assert goal_state(repo)["status"] == "active"


def _mcp_script(turn: Turn) -> Any:
    names = declared_tools(turn.body)
    if turn.after_tool:
        return Say("Verified.")
    verify = next((n for n in names if n.endswith("goal_verify")), None)
    if verify is None:
        return Say(f"no goal_verify tool among {names}")
    return Call(verify, {"path": GOAL, "no_write": True})


def test_gemini_calls_a_goalfile_mcp_tool(isolation: Isolation, tmp_path: Path) -> None:
    repo = mcp_goal_repo(tmp_path)
    host = Host(name="gemini", tokens=gemini_tokens)
    before = (repo / GOAL).read_text()
    session = host.session(repo, _mcp_script, isolation)
    requests = session.server.agent_requests()
    calls = [r.reply for r in requests if isinstance(r.reply, Call)]
    assert len(calls) == 1, session.run.explain()
    results = [r.turn.tool_output or "" for r in requests if r.turn and r.turn.after_tool]
    assert len(results) == 1, session.run.explain()
    # the tool's result is verify's JSON document: the checks really ran, nothing was written
    assert "verify-goal demo iteration" in results[0], results[0]
    assert '\\"C1\\"' in results[0] or '"C1"' in results[0] or "C1 unmet" in results[0]
    assert (repo / GOAL).read_text() == before
    assert json.loads((repo / ".gemini" / "settings.json").read_text())["mcpServers"]


def test_pi_print_mode_is_not_held(isolation: Isolation, tmp_path: Path) -> None:
    """The caveat docs/hosts.md states: in `pi -p` the session is gone before the extension's
    agent_end handler can send the follow-up. If this starts failing, pi now holds print mode
    and the docs should say so."""
    repo = goal_repo(tmp_path)
    with start_server(ChatServer, fix_after_feedback(FIX), isolation) as server:
        run = run_pi_print(
            install_cli(PI),
            repo=repo,
            home=tmp_path / "home",
            server_url=server.url,
            prompt=PROMPT,
            netns=isolation.netns,
        )
    assert run.returncode == 0, run.explain()
    assert server.stops() == 1, run.explain()
    assert server.feedbacks() == []
    assert not (repo / "done.txt").exists()
    assert goal_state(repo)["status"] == "active"


def test_pi_model_uses_the_extensions_goal_tools(isolation: Isolation, tmp_path: Path) -> None:
    repo = goal_repo(tmp_path)
    # a second active goal, and a focus on the first: goal_get lists only the focused goal
    goalfile_ok(
        "new", "other", "--end-state", "other.txt exists", "--criterion", "other.txt exists",
        "--check", "test -f other.txt", "--expected", "exit 0", "--non-goal", "Nothing else.",
        "--activate", cwd=repo,
    )  # fmt: skip
    goalfile_ok("focus", GOAL, cwd=repo)
    approve_by_commit(repo, "goals")
    # a goal the agent wrote under goals/ with an approval entry of its own making (docs/trust.md)
    forged = (repo / GOAL).read_text(encoding="utf-8").replace("slug: demo", "slug: forged", 1)
    forged = forged.replace("test -f done.txt", f"pwd > {tmp_path}/FORGED")
    (repo / "goals" / "forged.md").write_text(forged, encoding="utf-8")
    # a goal file the agent could write beside the project: its check must never run
    outside = tmp_path / "outside"
    goalfile_ok(
        "new", "x", "--dir", str(outside), "--end-state", "x", "--criterion", "x",
        "--check", f"pwd > {outside}/RAN", "--expected", "exit 0", "--non-goal", "None.",
        "--activate", cwd=tmp_path,
    )  # fmt: skip
    plan: list[Any] = [
        Call("goal_get", {}),
        Call("goal_verify", {"path": "../outside/x.md", "no_write": True}),
        Call("goal_verify", {"path": GOAL, "no_write": True}),
        Call("goal_verify", {"path": "goals/forged.md", "no_write": True}),
        Call("goal_block", {"path": GOAL, "reason": "the API is down", "tried": ["a mirror"]}),
        # a focus only narrows the active goals: with the focused goal blocked, the other
        # active goal would hold the agent, so it is blocked too (ledgered)
        Call("goal_block", {"path": "goals/other.md", "reason": "the API", "tried": ["b"]}),
        Say("Blocked."),
    ]

    def script(turn: Turn) -> Any:
        if len(plan) == 3:  # the forged goal's answer is in: gone before the hook looks
            (repo / "goals" / "forged.md").unlink(missing_ok=True)
        return plan.pop(0) if plan else Say("Done.")

    host = Host(name="pi", tokens=pi_tokens)
    session = host.session(repo, script, isolation)
    requests = session.server.agent_requests()
    outputs = [r.turn.tool_output or "" for r in requests if r.turn and r.turn.after_tool]
    assert len(outputs) == 6, session.run.explain()
    listed, refused, verified, forged_answer, blocked, _ = outputs
    assert "whose approval entry is committed, and HEAD holds no such file" in forged_answer
    assert not (tmp_path / "FORGED").exists(), forged_answer
    assert "../outside/x.md" in refused, refused
    assert "only a goal file of this project that `goalfile status` lists" in refused, refused
    assert not (outside / "RAN").exists()
    assert '"path": "goals/demo.md"' in listed and '"status": "active"' in listed, listed
    assert '"focus": "goals/demo.md"' in listed and "goals/other.md" not in listed, listed
    assert '"id": "C1"' in listed and '"last_verify"' in listed, listed  # its rows, last entry
    assert "verify-goal demo iteration" in verified, verified
    assert '"status": "blocked"' in blocked or "blocked" in blocked, blocked
    # both goals are blocked, so the extension's hook let the run end without a follow-up
    assert session.server.feedbacks() == []
    state = goal_state(repo)
    assert state["status"] == "blocked"
    assert "the API is down" in (state["blocker"] or "")
    assert "a mirror" in (repo / GOAL).read_text(encoding="utf-8")  # what was tried, ledgered
    assert verify_entries(repo) == [], "no_write wrote nothing; the hook found the goal blocked"
    # the other goal was blocked, not verified
    other = (repo / "goals" / "other.md").read_text(encoding="utf-8")
    assert "by verify-goal" not in other and "status: blocked" in other
