"""The real Claude Code and Codex CLIs, offline against a fake model, held to a goal by goalfile.

Each test sets up a real git repository as a user would (`goalfile new` + `activate` + `init`,
which registers `goalfile hook stop` in .claude/settings.json and .codex/hooks.json), runs the
CLI headless in it, and reads what happened from the fake server's request log (what the model
was told, and the usage it was sent), the goal file's ledger (what goalfile decided) and the
CLI's exit status. Codex's project hook is trusted first, as its `/hooks` screen does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from fake_model import (
    LoggedRequest,
    Say,
    Script,
    Shell,
    Turn,
    Usage,
    fix_after_feedback,
    never_fix,
)
from hosts_fixtures import (
    FIX,
    GOAL,
    PROMPT,
    Isolation,
    Session,
    goal_repo,
    goal_state,
    goalfile_ok,
    ledger,
    run_session,
    verify_entries,
)
from hosts_fixtures import isolation as isolation


@dataclass(frozen=True)
class Host:
    name: str
    tokens: Callable[[Usage], int]  # what goalfile counts of one reply's usage
    allowed_paths: frozenset[str]  # every request the CLI may make

    def session(self, repo: Path, script: Script, isolation: Isolation) -> Session:
        session = run_session(self.name, repo, script, isolation, prompt=PROMPT)
        if self.name == "codex":
            assert [h["command"] for h in session.hooks] == [
                "goalfile hook start --agent codex",
                "goalfile hook stop --agent codex",
            ]
        return session


@pytest.fixture(params=["claude", "codex"])
def host(request: pytest.FixtureRequest) -> Host:
    from host_install import install_cli
    from hosts_fixtures import CLAUDE_CODE, CODEX

    if request.param == "claude":
        install_cli(CLAUDE_CODE)
        return Host(
            name="claude",
            tokens=lambda u: u.input + u.output + u.cache_creation,
            allowed_paths=frozenset({"POST /v1/messages?beta=true", "HEAD /"}),
        )
    install_cli(CODEX)
    return Host(
        name="codex",
        tokens=lambda u: u.input - u.cache_read + u.output,
        allowed_paths=frozenset({"POST /v1/responses", "GET /v1/models"}),
    )


def test_the_hook_blocks_until_the_scripted_fix_then_allows_the_stop(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    session = host.session(repo, fix_after_feedback(FIX), isolation)
    server = session.server
    # (a) the host ran `goalfile hook stop`, which verified the goal at each stop
    assert server.stops() == 2, session.run.explain()  # before and after the fix
    entries = verify_entries(repo)
    assert len(entries) == 2, entries  # one verify entry per stop
    # (b) the block reason reached the model in the next request, naming the unmet criterion
    feedback = server.feedbacks()
    assert len(feedback) == 1, feedback
    assert "verify-goal demo iteration" in feedback[0]
    assert "C1 unmet" in feedback[0]
    fix_turns = [r.turn for r in server.agent_requests() if r.turn and r.turn.feedback]
    assert [r.reply for r in server.agent_requests() if r.turn in fix_turns] == [Shell(FIX)]
    # (c) after the fix the stop is allowed: the CLI exited 0 (checked) and the goal is met
    assert (repo / "done.txt").exists()
    assert [e.status for e in entries] == ["active", "met"]
    assert goal_state(repo)["status"] == "met"
    # sending the agent back started iteration 1, and the second stop's verify carries it
    assert [(e.iteration, e.by) for e in ledger(repo)] == [
        (0, "activate"),
        (0, "verify-goal"),
        (1, "stop-hook"),
        (1, "verify-goal"),
    ]
    assert goal_state(repo)["iterations"] == {"used": 1, "budget": 10}
    goalfile_ok("audit", GOAL, cwd=repo)  # the met status is backed by the ledger


def test_a_model_that_never_fixes_anything_is_released_by_the_loop_guard(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    session = host.session(repo, never_fix(), isolation)
    # (d) three identical verify runs, then the goal is blocked: that block holds the agent
    # once (once per entry, at a stop the host marks as continuing too), the next stop is let go
    entries = verify_entries(repo)
    assert len(entries) == 3 and session.server.stops() == 4, session.run.explain()
    feedbacks = session.server.feedbacks()
    assert len(feedbacks) == 3 and "no progress in 3 verify runs" in feedbacks[-1], feedbacks
    state = goal_state(repo)
    assert state["status"] == "blocked"
    assert "no progress in 3" in (state["blocker"] or ""), state
    assert "no progress in 3 verify runs" in entries[-1].status
    assert [e.iteration for e in entries] == [0, 1, 2]  # each turn was an iteration
    if host.name == "claude":  # Claude Code shows the hook's message to the user; `codex exec`
        # accepts it but shows it nowhere
        shown = [
            str(e.get("content"))
            for e in session.run.events()
            if e.get("subtype") == "informational"
        ]
        assert any("status: blocked (no progress in 3 verify runs)" in m for m in shown), shown


def test_at_the_iteration_limit_the_goal_is_exhausted_and_the_agent_stops(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path, iterations="1")
    session = host.session(repo, never_fix(), isolation)
    # the first stop starts iteration 1 of 1; the second finds the budget used up
    assert session.server.stops() == 2 and len(session.server.feedbacks()) == 1
    assert [(e.iteration, e.by, e.status) for e in ledger(repo)][1:] == [
        (0, "verify-goal", "active"),
        (1, "stop-hook", ""),
        (1, "verify-goal", "active"),
        (1, "stop-hook", "exhausted"),
    ]
    assert goal_state(repo)["status"] == "exhausted"


def test_a_token_budget_is_exhausted_from_the_real_transcript(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path, tokens="2000")
    session = host.session(repo, never_fix(), isolation)
    server = session.server
    # (e) the first stop takes the session's usage so far as its baseline; the second stop
    # charges what the session used after it, which is over the budget
    # the figures are counted from the request log the run left behind, which shows the
    # reason each request carried and the usage sent with each reply
    logged = [json.loads(line) for line in session.log.read_text(encoding="utf-8").splitlines()]
    records = [r for r in logged if r["usage"] is not None and server.is_agent_request(r["body"])]
    sent = [Usage(**r["usage"]) for r in records]
    assert sent == [r.usage for r in server.agent_requests() if r.usage is not None]
    assert all(u.cache_read > 0 for u in sent)  # a cached part the reader must not count
    first_feedback = next(i for i, r in enumerate(records) if r["feedback"])
    assert "C1 unmet" in records[first_feedback]["feedback"]
    baseline = sum(host.tokens(u) for u in sent[:first_feedback])
    latest = sum(host.tokens(u) for u in sent)
    assert latest - baseline >= 2000  # so the second stop must exhaust the budget
    state = goal_state(repo)
    assert state["status"] == "exhausted", session.run.explain()
    assert state["tokens"] == {"used": latest - baseline, "budget": 2000}
    assert len(verify_entries(repo)) == server.stops() == 2
    assert len(session.transcripts) == 1
    text = (repo / GOAL).read_text(encoding="utf-8")
    row = re.search(rf"\| `[^`]+` +\| {host.name} +\| `[^`]+` +\| (\d+) +\| (\d+) +\|", text)
    assert row is not None, text
    assert (int(row.group(1)), int(row.group(2))) == (baseline, latest)


def test_a_paused_goal_lets_the_agent_stop_at_once(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    goalfile_ok("pause", GOAL, cwd=repo)
    session = host.session(repo, fix_after_feedback(FIX), isolation)
    # (f) one turn, no reason sent back, nothing verified
    assert session.server.stops() == 1
    assert session.server.feedbacks() == []
    assert verify_entries(repo) == []
    assert not (repo / "done.txt").exists()
    assert goal_state(repo)["status"] == "paused"


IFACES = "echo IFACES: $(tail -n +3 /proc/net/dev | cut -d: -f1)"


def test_nothing_connects_anywhere_but_the_fake_server(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    session = host.session(repo, fix_after_feedback(FIX, idle=IFACES), isolation)
    assert goal_state(repo)["status"] == "met"
    # (g) every request the fake server saw is one the CLI needs to talk to its model
    seen = {f"{r.method} {r.path}" for r in session.server.log}
    assert seen <= host.allowed_paths, seen
    if isolation.netns is None:
        print(f"(g) from the log only: {isolation.why_not}")
        return
    # and the CLI ran where loopback is the only network: it could reach nothing else
    outputs = [r.turn.tool_output or "" for r in session.server.log if _after_tool(r)]
    listed = [m.group(1).split() for o in outputs for m in re.finditer(r"IFACES: ([^\n]*)", o)]
    assert listed == [["lo"]], outputs


def _after_tool(request: LoggedRequest) -> bool:
    return request.turn is not None and request.turn.after_tool


def test_the_scripts_reply_to_what_the_request_carries() -> None:
    """The script that drives the cases above, on its own (no CLI)."""
    script = fix_after_feedback("fix", idle="idle")

    def turn(**kw: object) -> Turn:
        fields = {"after_tool": False, "feedback": None, "tool_output": None, **kw}
        return Turn(index=0, body={}, text="", **fields)  # type: ignore[arg-type]

    assert script(turn()) == Shell("idle")
    assert script(turn(feedback="verify-goal demo ...")) == Shell("fix")
    assert script(turn(after_tool=True, tool_output="")) == Say("Done.")


def test_a_focused_working_tree_is_held_to_its_goal_only(
    host: Host, isolation: Isolation, tmp_path: Path
) -> None:
    repo = goal_repo(tmp_path)
    goalfile_ok(
        "new", "other", "--end-state", "other.txt exists", "--criterion", "other.txt exists",
        "--check", "test -f other.txt", "--expected", "exit 0", "--non-goal", "Nothing else.",
        cwd=repo,
    )  # fmt: skip
    goalfile_ok("activate", "goals/other.md", cwd=repo)
    goalfile_ok("focus", GOAL, cwd=repo)
    # the fix meets both goals: the block reason names only the focused one, and once it is
    # met the other is verified too before the stop is allowed (a focus never releases)
    session = host.session(repo, fix_after_feedback(f"{FIX} && touch other.txt"), isolation)
    [feedback] = session.server.feedbacks()
    assert "verify-goal demo" in feedback and "other" not in feedback
    assert goal_state(repo)["status"] == "met"
    other = (repo / "goals" / "other.md").read_text(encoding="utf-8")
    assert "by verify-goal" in other and "\nstatus: met" in other
