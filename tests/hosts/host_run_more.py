"""Run the real Gemini CLI and pi headless and offline against a fake model server.

* :func:`run_gemini`: ``gemini -p PROMPT --approval-mode=yolo`` with a user settings file that
  selects API-key auth and turns off updates, usage statistics, telemetry and the IDE client,
  and ``GOOGLE_GEMINI_BASE_URL`` pointing at :class:`fake_gemini.GeminiServer`.
* :func:`run_pi_rpc`: ``pi --mode rpc`` (goalfile holds pi's interactive and RPC sessions, not
  print mode) with a custom ``openai-completions`` provider pointing at
  :class:`fake_chat.ChatServer`. One ``prompt`` command is written on stdin; the run is over when
  an ``agent_end`` event is not followed by another ``agent_start`` (goalfile's extension sends
  its follow-up before pi reports ``agent_end``), then stdin is closed.

Both share :func:`host_run.run_host`'s conventions: the environment holds only what the CLI
needs, ``HOME`` is a temporary folder, and the CLI runs in the loopback-only namespace when
there is one.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from host_install import NpmCli
from host_run import HostRun, LoopbackNetns, host_path, run_host

__all__ = [
    "GEMINI_CLI",
    "GEMINI_MODEL",
    "PI",
    "gemini_sessions",
    "pi_sessions",
    "run_gemini",
    "run_pi_print",
    "run_pi_rpc",
]

# The versions the host suite is run against (docs/hosts.md says the same).
GEMINI_CLI = NpmCli(package="@google/gemini-cli", version="0.61.0", bin="gemini")
PI = NpmCli(package="@mariozechner/pi-coding-agent", version="0.73.1", bin="pi")

GEMINI_MODEL = "gemini-2.5-flash"
PI_KEY_ENV = "FAKE_MODEL_API_KEY"
QUIET_AFTER_END = 3.0  # seconds without a new agent_start after agent_end: the run is over


def _base_env(home: Path) -> dict[str, str]:
    return {"PATH": host_path(), "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb"}


# --- Gemini CLI -----------------------------------------------------------------------------


def write_gemini_home(home: Path) -> None:
    folder = home / ".gemini"
    folder.mkdir(parents=True, exist_ok=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "ide": {"enabled": False},
        "model": {"name": GEMINI_MODEL},
    }
    (folder / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")


def run_gemini(
    gemini: Path,
    *,
    repo: Path,
    home: Path,
    server_url: str,
    prompt: str,
    netns: LoopbackNetns | None,
    timeout: float = 120,
    args: Sequence[str] = (),
) -> HostRun:
    """``gemini -p PROMPT`` in yolo mode, with ``args`` (``--resume latest``)."""
    write_gemini_home(home)
    env = {
        **_base_env(home),
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": server_url,
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    }
    argv = [str(gemini), "-p", prompt, "--approval-mode=yolo", *args]
    return run_host(argv, cwd=repo, env=env, netns=netns, timeout=timeout)


def gemini_sessions(home: Path) -> list[Path]:
    return sorted((home / ".gemini" / "tmp").glob("*/chats/session-*.jsonl"))


# --- pi -------------------------------------------------------------------------------------


def write_pi_home(home: Path, *, server_url: str) -> None:
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    model = {
        "id": "fake-model",
        "name": "fake model",
        "reasoning": False,
        "input": ["text"],
        "contextWindow": 128_000,
        "maxTokens": 4096,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
    }
    provider = {
        "baseUrl": f"{server_url}/v1",
        "api": "openai-completions",
        "apiKey": PI_KEY_ENV,
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [model],
    }
    (agent / "models.json").write_text(json.dumps({"providers": {"fake": provider}}, indent=2))
    settings = {"defaultProvider": "fake", "defaultModel": "fake-model"}
    (agent / "settings.json").write_text(json.dumps(settings, indent=2))


def run_pi_rpc(
    pi: Path,
    *,
    repo: Path,
    home: Path,
    server_url: str,
    prompt: str,
    netns: LoopbackNetns | None,
    timeout: float = 120,
    tmpdir: Path | None = None,
    args: Sequence[str] = (),
) -> HostRun:
    """One prompt in RPC mode; ``stdout`` holds pi's JSON events, one per line. ``tmpdir``:
    pi's ``TMPDIR`` (where jiti, pi's TypeScript loader, keeps its file cache), else none.
    ``args``: more options of pi's (``--continue``)."""
    write_pi_home(home, server_url=server_url)
    env = {**_base_env(home), PI_KEY_ENV: "dummy", "PI_OFFLINE": "1"}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    argv = [str(pi), "--mode", "rpc", *args]
    command = netns.wrap(argv) if netns is not None else argv
    started = time.monotonic()
    lines: list[str] = []
    with subprocess.Popen(
        command,
        cwd=repo,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(json.dumps({"type": "prompt", "message": prompt}) + "\n")
        proc.stdin.flush()
        _read_until_quiet(proc, lines, deadline=started + timeout)
        proc.stdin.close()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        stderr = proc.stderr.read()
    return HostRun(
        argv=tuple(command),
        returncode=proc.returncode,
        stdout="\n".join(lines),
        stderr=stderr,
        seconds=time.monotonic() - started,
    )


def _read_until_quiet(proc: subprocess.Popen[str], lines: list[str], *, deadline: float) -> None:
    """Read events until an ``agent_end`` is followed by no ``agent_start`` for a while."""
    assert proc.stdout is not None
    stdout = proc.stdout
    found: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for line in stdout:
            found.put(line)
        found.put(None)

    threading.Thread(target=pump, daemon=True).start()
    ended_at: float | None = None
    while time.monotonic() < deadline:
        if ended_at is not None and time.monotonic() - ended_at > QUIET_AFTER_END:
            return
        try:
            line = found.get(timeout=0.2)
        except queue.Empty:
            continue
        if line is None:
            return  # pi exited
        lines.append(line.rstrip("\n"))
        kind = _event_type(line)
        if kind == "agent_end":
            ended_at = time.monotonic()
        elif kind == "agent_start":
            ended_at = None
    raise AssertionError("pi did not finish within the time limit:\n" + "\n".join(lines[-20:]))


def _event_type(line: str) -> str | None:
    try:
        value: Any = json.loads(line)
    except ValueError:
        return None
    return value.get("type") if isinstance(value, dict) else None


def run_pi_print(
    pi: Path,
    *,
    repo: Path,
    home: Path,
    server_url: str,
    prompt: str,
    netns: LoopbackNetns | None,
    timeout: float = 120,
) -> HostRun:
    """``pi -p PROMPT``: print mode, which goalfile does not hold (see docs/hosts.md)."""
    write_pi_home(home, server_url=server_url)
    env = {**_base_env(home), PI_KEY_ENV: "dummy", "PI_OFFLINE": "1"}
    return run_host([str(pi), "-p", prompt], cwd=repo, env=env, netns=netns, timeout=timeout)


def pi_sessions(home: Path) -> list[Path]:
    return sorted((home / ".pi" / "agent" / "sessions").glob("*/*.jsonl"))
