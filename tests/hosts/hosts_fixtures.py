"""Fixtures for the host suite: the pinned CLIs, the loopback namespace, a goal repository.

A test module imports the fixtures it uses by name (``from hosts_fixtures import ...``); there
is no conftest.py here, so ``from conftest import ...`` keeps meaning tests/conftest.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_of, git, made_once_near, make_git_repo, run_goalfile
from fake_chat import ChatServer
from fake_gemini import GeminiServer
from fake_model import AnthropicServer, FakeModel, Reply, ResponsesServer, Say, Script, Shell, Turn
from host_install import NpmCli, install_cli
from host_run import (
    HostRun,
    LoopbackNetns,
    claude_transcripts,
    codex_env,
    codex_rollouts,
    loopback_netns,
    run_claude,
    run_codex,
    run_host,
    trust_codex_hooks,
    write_codex_config,
)
from host_run_more import GEMINI_CLI, PI, gemini_sessions, pi_sessions, run_gemini, run_pi_rpc

# The versions the host suite is run against (docs/hosts.md says the same).
CLAUDE_CODE = NpmCli(package="@anthropic-ai/claude-code", version="2.1.332", bin="claude")
CODEX = NpmCli(package="@openai/codex", version="0.171.0", bin="codex")

GOAL = "goals/demo.md"
FIX = "touch done.txt"  # the command that makes the demo goal met
PROMPT = "Make the goal in goals/demo.md met."


@pytest.fixture(scope="session")
def claude_cli() -> Path:
    return install_cli(CLAUDE_CODE)


@pytest.fixture(scope="session")
def codex_cli() -> Path:
    return install_cli(CODEX)


@dataclass(frozen=True)
class Isolation:
    """The loopback-only namespace, or why this machine cannot make one (then the tests fall
    back to the fake server's log alone to show that nothing else was contacted)."""

    netns: LoopbackNetns | None
    why_not: str | None


@pytest.fixture(scope="session")
def isolation() -> Iterator[Isolation]:
    found = loopback_netns()
    if isinstance(found, str):
        print(f"host suite: {found}; asserting on the fake servers' logs only", file=sys.stderr)
        yield Isolation(netns=None, why_not=found)
        return
    try:
        yield Isolation(netns=found, why_not=None)
    finally:
        found.close()


def goalfile_ok(*args: str, cwd: Path) -> str:
    done = run_goalfile(*args, cwd=cwd)
    assert done.returncode == 0, f"goalfile {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


EASY = "goals/.cache/easy.md"  # a goal met by `true`, in a folder git ignores


def easy_goal_met(repo: Path) -> str:
    """A second goal in ``repo``, ``EASY``: its one check is `true`, it is verified met, and
    git ignores its folder (.git/info/exclude), so neither the index nor HEAD holds it."""
    (repo / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    goalfile_ok(
        "new", "easy", "anything", "--check", "true", "--expected", "exit 0",
        "--non-goal", "n", "--activate", "--dir", "goals/.cache", cwd=repo,
    )  # fmt: skip
    goalfile_ok("verify", EASY, cwd=repo)
    return EASY


def goal_repo(
    tmp_path: Path,
    *,
    tokens: str = "null",
    iterations: str = "10",
    activate: bool = True,
    check: str = "test -f done.txt",
) -> Path:
    """A real git repository set up as a user would: `goalfile new` + `activate` + `init`.

    The goal: `done.txt` exists (C1 ``check``, `test -f done.txt` unless given, exit 0);
    :data:`FIX` meets it. Set up once in the run for each set of arguments and copied to
    ``tmp_path / "repo"`` (conftest.made_once_near): three goalfile processes each time cost
    about half a CPU-second per test."""

    def make(repo: Path, env: dict[str, str]) -> None:
        goalfile_ok(
            "new",
            "demo",
            "--end-state",
            "done.txt exists",
            "--criterion",
            "done.txt exists",
            "--check",
            check,
            "--expected",
            "exit 0",
            "--non-goal",
            "Nothing but done.txt changes.",
            "--iterations",
            iterations,
            "--tokens",
            tokens,
            cwd=repo,
        )
        if activate:
            goalfile_ok("activate", GOAL, cwd=repo)
        goalfile_ok("init", cwd=repo)

    made = made_once_near(tmp_path, make)
    if made is not None:
        return copy_of(made, tmp_path / "repo")
    repo = make_git_repo(tmp_path / "repo")
    make(repo, {})
    return repo


def approve_by_commit(repo: Path, *paths: str) -> None:
    """Commit the goal files at ``paths`` (the goal by default): the MCP and pi tools run only
    checks a commit approved (docs/trust.md)."""
    named = paths or (GOAL,)
    git(repo, "add", "--", *named)
    git(repo, "commit", "-q", "-m", "Approve the goal checks", "--", *named)


def mcp_goal_repo(tmp_path: Path) -> Path:
    """:func:`goal_repo` with the goal approved by a commit, goalfile's MCP server registered
    (`goalfile init --mcp`) and the goal paused, so that the Stop hook lets each turn end at
    once and only the model's tool calls run the checks."""
    repo = goal_repo(tmp_path)
    approve_by_commit(repo)
    goalfile_ok("init", "--mcp", cwd=repo)
    goalfile_ok("pause", GOAL, cwd=repo)
    return repo


def goalfile_beside_codex(
    *args: str, repo: Path, codex: Path, codex_home: Path, isolation: Isolation
) -> HostRun:
    """`goalfile ARGS` run in ``repo`` as a user who has ``codex`` on PATH and keeps Codex's
    state in ``codex_home`` (what doctor and the trust fix read), in the test's namespace."""
    env = codex_env(codex_home=codex_home)
    env["PATH"] = f"{codex.parent}:{env['PATH']}"
    argv = [sys.executable, "-m", "goalfile", *args]
    return run_host(argv, cwd=repo, env=env, netns=isolation.netns, timeout=90)


def start_server(kind: type[FakeModel], script: Script, isolation: Isolation) -> FakeModel:
    """A fake model server whose socket lives where the CLI will run (the namespace, if any)."""
    if isolation.netns is not None:
        return isolation.netns.call(lambda: kind(script))
    return kind(script)


SETTINGS = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
"""Where `goalfile init` registers the Stop hook of each host (pi: its extension, below)."""

EVENT = {"claude": "Stop", "codex": "Stop", "gemini": "AfterAgent"}
PI_HOOK = 'const done = await hook("stop", input, ctx.cwd, HOOK_TIMEOUT_MS);'
PI_TIMEOUT = "const HOOK_TIMEOUT_MS = 600_000;"


def register_hook(repo: Path, host: str, *, timeout: int, command: str) -> None:
    """Give the host's Stop hook (as `init` registered it) ``timeout`` seconds and
    ``command``, as a user who edits the settings would (Gemini CLI's timeout is in
    milliseconds; pi's hook is the command goalfile's extension runs, and its timeout the
    extension's, edited there as `goalfile init` keeps an edited extension)."""
    if host == "pi":
        from goalfile.pi_extension import EXTENSION

        extension = repo / EXTENSION
        text = extension.read_text(encoding="utf-8")
        assert PI_HOOK in text and PI_TIMEOUT in text, text
        # the hook input as a here-document, as the shipped extension gives it; a single
        # command is exec'd, as there, so pi's SIGTERM at its timeout reaches goalfile
        body = f"exec {command}" if "|" not in command else f"{{ {command}\n}}"
        script = json.dumps(f"{body} <<EOF\n$1\nEOF\n")
        run = f"pi.exec('sh', ['-c', {script}, GOALFILE, JSON.stringify(input)], "
        text = text.replace(
            PI_HOOK, f"const done = await {run}{{ cwd: ctx.cwd, timeout: HOOK_TIMEOUT_MS }});"
        )
        text = text.replace(PI_TIMEOUT, f"const HOOK_TIMEOUT_MS = {timeout * 1000};")
        extension.write_text(text, encoding="utf-8")
        return
    path = repo / SETTINGS[host]
    settings = json.loads(path.read_text(encoding="utf-8"))
    [group] = settings["hooks"][EVENT[host]]
    [hook] = group["hooks"]
    assert hook["command"] == f"goalfile hook stop --agent {host}", hook
    hook.update(command=command, timeout=timeout * (1000 if host == "gemini" else 1))
    path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")


def record_answers(repo: Path, host: str) -> Path:
    """Have the host's Stop hook (as `init` registered it) also write each answer it gives
    the host to a file next to the repository, which it returns (:func:`answers` reads it):
    `codex exec` shows a `systemMessage` nowhere."""
    answers = repo.parent / f"{host}-answers.jsonl"
    command = f"goalfile hook stop --agent {host} | tee -a {shlex.quote(str(answers))}"
    register_hook(repo, host, timeout=600, command=command)
    return answers


def answers(path: Path) -> list[dict[str, Any]]:
    """The JSON documents at ``path``, one per answer (an answer ends with no newline)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    found: list[dict[str, Any]] = []
    decoder = json.JSONDecoder()
    at = 0
    while (at := len(text) - len(text[at:].lstrip())) < len(text):  # the next non-blank
        value, at = decoder.raw_decode(text, at)
        found.append(value)
    return found


@dataclass(frozen=True)
class Session:
    """What one host session left: the fake server (its log in memory), the CLI's run, the
    request log written next to the repository, the transcripts the CLI wrote, and (Codex)
    the project hooks it was asked to trust."""

    server: FakeModel
    run: HostRun
    log: Path
    transcripts: list[Path]
    hooks: list[dict[str, Any]]


SERVERS: dict[str, type[FakeModel]] = {
    "claude": AnthropicServer,
    "codex": ResponsesServer,
    "gemini": GeminiServer,
    "pi": ChatServer,
}
"""The fake model server each host talks to."""


def run_session(
    host: str,
    repo: Path,
    script: Script,
    isolation: Isolation,
    *,
    prompt: str,
    timeout: float = 120,
    args: Sequence[str] = (),
) -> Session:
    """One headless session of the real ``host`` in ``repo``, its model the scripted fake,
    ``HOME`` a folder next to the repository: "claude" (`claude -p`), "codex" (`codex exec`,
    its project hooks trusted first, as `/hooks` does), "gemini" (`gemini -p`) or "pi"
    (`pi --mode rpc`: goalfile holds pi's interactive and RPC sessions, not print mode). The
    request log is written next to the repository; the session must end with exit 0 within
    ``timeout`` seconds, a limit that only stops a run that would not end. ``args``: more
    options of `claude -p` (``--add-dir DIR``)."""
    assert not args or host == "claude", "args are given to Claude Code alone"
    home = repo.parent / "home"
    hooks: list[dict[str, Any]] = []
    with start_server(SERVERS[host], script, isolation) as server:
        if host == "codex":
            codex, codex_home = install_cli(CODEX), home / ".codex"
            write_codex_config(codex_home, server_url=server.url, repo=repo)
            hooks = trust_codex_hooks(
                codex, repo=repo, codex_home=codex_home, netns=isolation.netns
            )
            run = run_codex(
                codex,
                repo=repo,
                codex_home=codex_home,
                prompt=prompt,
                netns=isolation.netns,
                timeout=timeout,
            )
            transcripts = codex_rollouts(codex_home)
        else:
            run_cli, cli, sessions_of = {
                "claude": (run_claude, CLAUDE_CODE, lambda home: claude_transcripts(home, repo)),
                "gemini": (run_gemini, GEMINI_CLI, gemini_sessions),
                "pi": (run_pi_rpc, PI, pi_sessions),
            }[host]
            more = {"args": args} if args else {}
            run = run_cli(
                install_cli(cli),
                repo=repo,
                home=home,
                server_url=server.url,
                prompt=prompt,
                netns=isolation.netns,
                timeout=timeout,
                **more,
            )
            transcripts = sessions_of(home)
    log = server.write_log(repo.parent / f"{host}-requests.jsonl")
    assert run.returncode == 0, f"{run.explain()}\nrequest log: {log}"
    return Session(server=server, run=run, log=log, transcripts=transcripts, hooks=hooks)


def host_session(
    host: str, repo: Path, script: Script, isolation: Isolation, *, prompt: str
) -> tuple[FakeModel, HostRun]:
    """:func:`run_session`'s server and run."""
    session = run_session(host, repo, script, isolation, prompt=prompt)
    return session.server, session.run


PRINTED_FIX = re.compile(r"\n  fix: `([^`]+)`")
"""A reason's `fix:` line that is one command: the command, between its backticks."""


@dataclass
class Agent:
    """The scripted model of the hold tests: at the first prompt it runs ``trouble``; for a
    Stop hook's reason it runs the command of the reason's `fix:` (``fix``'s first group) as
    written, or ``otherwise`` when the reason prints none; after each tool result it ends its
    turn (the host's Stop hook then runs)."""

    trouble: str
    otherwise: str = "true"
    fix: re.Pattern[str] = PRINTED_FIX
    ran: list[str] = field(default_factory=list)  # the commands it ran for a reason
    outputs: list[str | None] = field(default_factory=list)  # what the shell tool said of each

    def __call__(self, turn: Turn) -> Reply:
        if turn.after_tool:
            if len(self.outputs) < len(self.ran):
                self.outputs.append(turn.tool_output)
            return Say("Done.")
        if turn.feedback is None:
            return Shell(self.trouble)
        found = self.fix.search(turn.feedback)
        self.ran.append(found.group(1) if found else self.otherwise)
        return Shell(self.ran[-1])


def shell_said(output: str | None) -> str:
    """What a shell tool showed the model: Gemini CLI's function response holds it as a JSON
    string (its quotes and line breaks escaped); the other hosts' as it is."""
    try:
        response = json.loads(output or "")
    except ValueError:
        return output or ""
    if not isinstance(response, dict):
        return output or ""
    return str(response.get("response", {}).get("output", output))


def ran_quietly(host: str, output: str) -> bool:
    """Whether a shell tool's result says the command exited 0 and printed nothing (Gemini
    CLI names an exit code only when it is not 0; pi fails the tool call instead)."""
    if host == "claude":
        return output == "(Bash completed with no output)"
    if host == "gemini":
        said = shell_said(output)
        return said.startswith("<untrusted_context>\nOutput: (empty)\n") and not any(
            word in said for word in ("Exit Code", "Error:", "Signal:")
        )
    if host == "pi":
        return output == "(no output)"
    return "Process exited with code 0\n" in output and output.endswith("Output:\n")


def goalfile_processes(repo: Path) -> dict[int, str]:
    """The processes goalfile left running in ``repo`` (their folder is it or one under it): a
    `goalfile hook stop` (goalfile on its command line) and what its checks started (goalfile's
    mark, ``GOALFILE_RUN``, in their environment), each pid with its command line. A zombie
    has ended: it is not one."""
    top = str(repo.resolve())
    found: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            folder = os.readlink(f"/proc/{entry}/cwd")
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read().split(b"\0")
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ")
        except OSError:
            continue  # ended meanwhile, or not ours to read
        if folder != top and not folder.startswith(top + os.sep):
            continue
        if stat[stat.rfind(b")") + 2 :].startswith(b"Z"):
            continue
        if b"goalfile" in command or any(v.startswith(b"GOALFILE_RUN=") for v in environ):
            found[int(entry)] = command.decode("utf-8", "replace").strip()
    return found


def nothing_left_running(repo: Path, *, within: float = 30) -> None:
    """Assert that, within ``within`` seconds, goalfile leaves no process running in ``repo``
    (:func:`goalfile_processes`); those still there then are killed, and named in the
    failure."""
    deadline = time.monotonic() + within
    while (left := goalfile_processes(repo)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"still running {within:g} s later: {left}"


def hook_now(repo: Path) -> dict[str, Any]:
    """The Stop hook's answer (`--json`) for a first stop in ``repo`` now: whether anything
    still holds an agent that has not been sent back yet."""
    stop = {"session_id": "after", "cwd": str(repo), "hook_event_name": "Stop"}
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", "--json", cwd=repo, input=json.dumps(stop)
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def goal_state(repo: Path) -> dict[str, Any]:
    """`goalfile status --json` of the demo goal."""
    done = run_goalfile("status", "--json", GOAL, cwd=repo)
    state: dict[str, Any] = json.loads(done.stdout)["goals"][0]
    return state


@dataclass(frozen=True)
class LedgerEntry:
    iteration: int
    by: str
    status: str


ENTRY = re.compile(r"^### Iteration (\d+) \([^)]*\) by (\S+)$")


def ledger(repo: Path) -> list[LedgerEntry]:
    """The entries of the demo goal's `## Iterations`, each with its `status:` line."""
    found: list[LedgerEntry] = []
    current: tuple[int, str] | None = None
    for line in (repo / GOAL).read_text(encoding="utf-8").splitlines():
        match = ENTRY.match(line)
        if match or line.startswith("## "):
            if current is not None:  # an entry without a status line
                found.append(LedgerEntry(current[0], current[1], ""))
            current = (int(match.group(1)), match.group(2)) if match else None
        elif current is not None and line.startswith("status: "):
            found.append(LedgerEntry(current[0], current[1], line.removeprefix("status: ")))
            current = None
    return found


def verify_entries(repo: Path) -> list[LedgerEntry]:
    return [entry for entry in ledger(repo) if entry.by == "verify-goal"]
