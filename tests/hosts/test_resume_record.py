"""A session resumed, compacted or cleared, through the real hosts: the Stop hook's record and
its holds carry on.

Each host resumes a session under the same session id, appending to the same transcript
(Claude Code `claude -p --continue` and `--resume ID`, Codex `codex exec resume --last` and
`resume ID`, Gemini CLI `gemini -p --resume latest`, pi `pi --continue` and `--session ID`), and
runs its start hook again (Claude Code, Codex and Gemini CLI with `source: "resume"`, pi at
`session_start`; Gemini CLI gives its start hook a new file of two lines, named by the minute
of the resume, and its stops the session's own). `goalfile hook start` keeps a record the
session's stops left; one they left empty (the goal ended met or blocked) is taken anew at the
resume, over a transcript that already holds the earlier run's tool calls, which the first stop
sets aside as it would the agent's own `goalfile hook start` run in the background. For each host:

* a goal met in the first run is not verified again, and the resumed session's stop is let go
  without a word;
* a goal the person reopened between the runs (`goalfile resume`) holds the resumed agent that
  stops with it unmet, until the stall guard blocks it again: held, never for ever;
* the resumed agent that meets it honestly is let go without a word; one that loosens the check,
  re-approves it itself and commits is held once, its criteria compared with the goal's first
  approval.

Claude Code's `/compact` and `/clear`, given as the prompt of `claude -p --continue`, run the
start hook too: the same transcript appended to, or a new session with its own. Gemini CLI's
`/chat resume` and an automatic compaction are not driven (docs/hosts.md, "Resumed sessions").
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import git
from fake_model import FakeModel, Reply, Turn
from host_install import install_cli
from host_run import (
    HostRun,
    claude_transcripts,
    codex_env,
    codex_rollouts,
    run_claude,
    run_host,
    trust_codex_hooks,
    write_codex_config,
)
from host_run_more import gemini_sessions, pi_sessions, run_gemini, run_pi_rpc
from hosts_fixtures import (
    CLAUDE_CODE,
    CODEX,
    FIX,
    GEMINI_CLI,
    GOAL,
    PI,
    PROMPT,
    SERVERS,
    Isolation,
    goalfile_ok,
    run_session,
    start_server,
    verify_entries,
)
from hosts_fixtures import isolation as isolation
from skill_goals import on_the_users_path
from skill_goals import readme_repo as readme_repo
from skill_goals import readme_template as readme_template
from test_head_moved_hold import person_goal_on_main
from test_lock_fix_host import Steps
from test_loosened_hold import LOOSEN, REAPPROVE
from test_start_record_hold import FIRST_TURN

AGAIN = "Go on with the goal in goals/demo.md."
HOSTS = ["claude", "codex", "gemini", "pi"]
SETTINGS = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}


class Resumed(Steps):
    """:class:`Steps` for a resumed session: the prompt given at the resume is no Stop hook's
    reason (Gemini CLI sends it after the earlier turns, where a reason would be)."""

    def __call__(self, turn: Turn) -> Reply:
        if turn.feedback is not None and AGAIN in turn.feedback:
            turn = dataclasses.replace(turn, feedback=None)
        return super().__call__(turn)


def later(kind: type[FakeModel]) -> type[FakeModel]:
    """``kind`` whose ids of messages and tool calls follow those of a first server's: a
    model names each call anew, and a host given a call id its transcript holds already
    (Claude Code) does not run the call."""

    class Later(kind):  # type: ignore[valid-type,misc]
        def respond(self, turn: Turn, reply: Any, usage: Any) -> tuple[str, Any]:
            return super().respond(dataclasses.replace(turn, index=turn.index + 500), reply, usage)

    return Later


def reasons(server: FakeModel) -> list[str]:
    return [said for said in server.feedbacks() if AGAIN not in said]


def log_hook_input(repo: Path, host: str) -> Path:
    """Have each goalfile hook of ``host``'s settings also append its input to a file, which
    it returns (pi's extension builds its input itself: from its session manager), and
    commit the settings (the person's setup)."""
    log = repo.parent / "hook-input.jsonl"
    if host != "pi":
        path = repo / SETTINGS[host]
        settings = json.loads(path.read_text(encoding="utf-8"))
        for groups in settings["hooks"].values():
            for hook in (hook for group in groups for hook in group["hooks"]):
                if hook["command"].startswith("goalfile hook "):
                    hook["command"] = f"tee -a {shlex.quote(str(log))} | {hook['command']}"
        path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        git(repo, "commit", "-qam", "hooks: log their input")
    return log


def hook_inputs(log: Path) -> list[dict[str, Any]]:
    text = log.read_text(encoding="utf-8") if log.exists() else ""
    found: list[dict[str, Any]] = []
    decoder, at = json.JSONDecoder(), 0
    while (at := len(text) - len(text[at:].lstrip())) < len(text):
        value, at = decoder.raw_decode(text, at)
        found.append(value)
    return found


def resume(
    host: str,
    repo: Path,
    script: Steps,
    isolation: Isolation,
    how: str,
    session_id: str,
    prompt: str = AGAIN,
) -> tuple[FakeModel, HostRun, list[Path]]:
    """The session of ``repo`` resumed by ``host``'s own option: ``how`` "last" (the most
    recent session) or "id" (by ``session_id``; Gemini CLI's `--resume` takes "latest" or an
    index in its list, not an id), with ``prompt``."""
    home = repo.parent / "home"
    with start_server(later(SERVERS[host]), script, isolation) as server:
        if host == "codex":
            codex, codex_home = install_cli(CODEX), home / ".codex"
            write_codex_config(codex_home, server_url=server.url, repo=repo)
            trust_codex_hooks(codex, repo=repo, codex_home=codex_home, netns=isolation.netns)
            which = ["--last"] if how == "last" else [session_id]
            argv = [str(codex), "exec", "--json", "resume", *which, prompt]
            env = codex_env(codex_home=codex_home)
            run = run_host(argv, cwd=repo, env=env, netns=isolation.netns)
            return server, run, codex_rollouts(codex_home)
        common = {
            "repo": repo,
            "home": home,
            "server_url": server.url,
            "prompt": prompt,
            "netns": isolation.netns,
        }
        if host == "claude":
            which = ["--continue"] if how == "last" else ["--resume", session_id]
            run = run_claude(install_cli(CLAUDE_CODE), args=which, **common)  # type: ignore[arg-type]
            return server, run, claude_transcripts(home, repo)
        if host == "gemini":
            which = ["--resume", "latest"]
            run = run_gemini(install_cli(GEMINI_CLI), args=which, **common)  # type: ignore[arg-type]
            return server, run, gemini_sessions(home)
        which = ["--continue"] if how == "last" else ["--session", session_id]
        run = run_pi_rpc(install_cli(PI), args=which, **common)  # type: ignore[arg-type]
        return server, run, pi_sessions(home)


def first_run(host: str, repo: Path, steps: list[str], isolation: Isolation) -> tuple[Path, str]:
    """The session's first run, its agent running ``steps`` and then stopping: its one
    transcript and the session's id (as the start hook was given it; pi's from the file)."""
    ran = run_session(host, repo, Steps(steps), isolation, prompt=PROMPT)
    [transcript] = ran.transcripts
    inputs = hook_inputs(repo.parent / "hook-input.jsonl")
    if host == "pi":
        first = json.loads(transcript.read_text(encoding="utf-8").splitlines()[0])
        return transcript, first["id"]
    return transcript, inputs[0]["session_id"]


def set_up(host: str, repo: Path) -> Path:
    person_goal_on_main(repo)
    on_the_users_path(repo.parent / "home")  # Codex's shell is a login shell
    return log_hook_input(repo, host)


@pytest.mark.parametrize(
    ("host", "how"),
    [(host, how) for host in HOSTS for how in ("last", "id") if (host, how) != ("gemini", "id")],
)
def test_a_resumed_session_keeps_its_transcript_and_a_met_goal_is_not_run_again(
    host: str, how: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    log = set_up(host, repo)
    transcript, session_id = first_run(host, repo, [FIX, f"goalfile verify {GOAL}"], isolation)
    size = transcript.stat().st_size
    entries = len(verify_entries(repo))
    agent = Resumed([])
    if host == "gemini":  # resumed in another minute than it started in (below)
        time.sleep(61 - time.time() % 60)
    server, run, transcripts = resume(host, repo, agent, isolation, how, session_id)
    assert run.returncode == 0, run.explain()
    stubs = [path for path in transcripts if path != transcript]
    if host == "gemini":  # Gemini CLI opens a new file named by the minute and the session's
        # id, its first two lines only, gives the start hook that one, and then loads the
        # session it resumes and goes on there, where its stops are given the first
        assert [len(path.read_text().splitlines()) for path in stubs] == [2], transcripts
        transcripts = [path for path in transcripts if path not in stubs]
    assert transcripts == [transcript], transcripts  # the same file, appended to
    assert transcript.stat().st_size > size
    assert reasons(server) == [] and server.stops() == 1, run.explain()
    assert len(verify_entries(repo)) == entries  # the met goal was not verified again
    inputs = hook_inputs(log)
    if host != "pi":
        assert {given["session_id"] for given in inputs} == {session_id}, inputs
        given_start = [
            given["transcript_path"] for given in inputs if "Start" in given["hook_event_name"]
        ]
        assert given_start == [str(transcript), str((stubs or [transcript])[0])], inputs
        stops = {
            given["transcript_path"] for given in inputs if "Start" not in given["hook_event_name"]
        }
        assert stops == {str(transcript)}, inputs
        starts = [given.get("source") for given in inputs if "Start" in given["hook_event_name"]]
        assert starts == ["startup", "resume"], starts


def reopened(host: str, repo: Path, isolation: Isolation) -> str:
    """A first run whose agent lists the folder and stops, held for the unmet goal until the
    stall guard blocks it; the person then reopens the goal. The session's id."""
    set_up(host, repo)
    _transcript, session_id = first_run(host, repo, ["ls"], isolation)
    assert verify_entries(repo)[-1].status.startswith("blocked"), verify_entries(repo)
    goalfile_ok("resume", GOAL, "--resolved", "the person gave it more time", cwd=repo)
    return session_id


@pytest.mark.parametrize("host", HOSTS)
def test_a_reopened_goal_holds_the_resumed_agent_until_the_stall_guard(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo = readme_repo
    session_id = reopened(host, repo, isolation)
    server, run, _ = resume(host, repo, Resumed([]), isolation, "last", session_id)
    held = reasons(server)
    assert len(held) == 3 and server.stops() == 4, run.explain()
    assert all("C1 unmet" in reason for reason in held), held
    assert "status: blocked (no progress in 3 verify runs)" in held[-1], held


@pytest.mark.parametrize("host", HOSTS)
def test_a_resumed_agent_that_meets_the_goal_is_let_go(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    repo, agent = readme_repo, Resumed([FIX, f"goalfile verify {GOAL}"])
    session_id = reopened(host, repo, isolation)
    server, run, _ = resume(host, repo, agent, isolation, "last", session_id)
    assert "C1 met; status: met" in agent.outputs[1], agent.outputs
    assert reasons(server) == [] and server.stops() == 1, run.explain()


@pytest.mark.parametrize("host", HOSTS)
def test_a_loosening_committed_in_a_resumed_session_is_held_once(
    host: str, isolation: Isolation, readme_repo: Path
) -> None:
    """The first run's last stop left the session's record empty (the goal blocked); kept as
    it was at the resume, it named no repository, and the loosening was let go without a
    word under all four hosts. `goalfile hook start` takes it anew: the start record, taken
    over the first run's tool calls, is set aside at the first stop, and the met's criteria
    are compared with the goal's first approval."""
    repo = readme_repo
    session_id = reopened(host, repo, isolation)
    steps = [LOOSEN, REAPPROVE, f"goalfile verify {GOAL}", "git commit -qam 'goal: done'"]
    agent = Resumed(steps)
    server, run, _ = resume(host, repo, agent, isolation, "last", session_id)
    assert "C1 met; status: met" in agent.outputs[2], agent.outputs
    held = reasons(server)
    assert len(held) == 1 and server.stops() == 2, (held, run.explain())
    said = (
        f"goalfile: {GOAL} is met only under a contract that its first approval entry does not "
        "approve (the session's record of its earlier stops is gone, or set aside"
    )
    assert said in held[0], "\n".join(held)
    assert "- C1 check: `test -f done.txt` → `true`" in held[0], held


def test_claudes_compact_and_clear_run_the_start_hook_with_their_transcripts(
    isolation: Isolation, readme_repo: Path
) -> None:
    """`claude -p --continue /compact` summarises the session into the same transcript, under
    the same id (`source: "compact"`; no stop follows): the part the record hashed is kept,
    so the record stays bound. `claude -p --continue /clear` starts a new session, a new id
    and transcript (`source: "clear"`), which gets a record of its own at its start."""
    repo = readme_repo
    log = set_up("claude", repo)
    transcript, session_id = first_run("claude", repo, [FIX, f"goalfile verify {GOAL}"], isolation)
    before = transcript.read_bytes()
    _server, run, transcripts = resume(
        "claude", repo, Resumed([]), isolation, "last", session_id, prompt="/compact"
    )
    assert run.returncode == 0 and transcripts == [transcript], run.explain()
    assert transcript.read_bytes().startswith(before)  # appended to: the hashed part stands
    [compact] = hook_inputs(log)[-1:]
    assert compact["source"] == "compact" and compact["session_id"] == session_id, compact
    assert compact["transcript_path"] == str(transcript), compact
    _server, run, transcripts = resume(
        "claude", repo, Resumed([]), isolation, "last", session_id, prompt="/clear"
    )
    assert run.returncode == 0, run.explain()
    [cleared] = hook_inputs(log)[-1:]
    assert cleared["source"] == "clear" and cleared["session_id"] != session_id, cleared
    assert Path(cleared["transcript_path"]) in transcripts and len(transcripts) == 2, transcripts
    assert cleared["session_id"] in cleared["transcript_path"], cleared


def taken(repo: Path) -> list[dict[str, object]]:
    """How each session record in the state folder was taken."""
    folder = repo.parent / "home" / ".local" / "state" / "goalfile" / "sessions"
    return [json.loads(path.read_text())["taken"] for path in sorted(folder.glob("*.json"))]


@pytest.mark.parametrize("how", ["--resume", "--continue"])
def test_a_resumed_session_keeps_its_record_as_the_hosts(
    how: str, isolation: Isolation, readme_repo: Path
) -> None:
    """Claude Code 2.1.332 keeps the session's id and appends to the same transcript, whose
    part up to the record's length still hashes to the digest the record keeps: the first
    session forges a met as in test_start_record_hold.py and is held once for it; the resumed
    session runs `true` and stops: the record it compares with is the first session's, and
    nothing says it was set aside."""
    repo = readme_repo
    person_goal_on_main(repo)
    on_the_users_path(repo.parent / "home")
    first = run_session("claude", repo, Steps(list(FIRST_TURN)), isolation, prompt=PROMPT)
    [transcript] = first.transcripts
    assert len(first.server.feedbacks()) == 1, first.run.explain()
    [before] = taken(repo)
    assert before["transcript"] == str(transcript) and before["digest"], before
    size = transcript.stat().st_size
    args = [how, transcript.stem] if how == "--resume" else [how]
    again = run_session("claude", repo, Steps(["true"]), isolation, prompt="Go on.", args=args)
    assert again.transcripts == [transcript], again.transcripts  # the same file, appended to
    assert transcript.stat().st_size > size
    [after] = taken(repo)
    assert after["transcript"] == str(transcript), after
    said = [*again.server.feedbacks(), again.run.explain()]
    assert again.server.stops() >= 1 and not any("set aside" in text for text in said), said
    assert f"goalfile: {GOAL} is met only under a contract that commit" in said[0], said
