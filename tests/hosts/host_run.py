"""Run real host CLIs headless and offline against a fake model server.

* :class:`LoopbackNetns`: a network namespace in which only the loopback interface is up. The
  fake server's listening socket is created inside it (:meth:`LoopbackNetns.call`) and the CLI
  is started inside it (:meth:`LoopbackNetns.wrap`), so the CLI can reach the fake server and
  nothing else. It needs root (or unprivileged user namespaces), ``unshare`` and ``nsenter``;
  :func:`loopback_netns` says why not when the machine does not allow it.
* :func:`claude_env` / :func:`run_claude`: Claude Code in ``-p`` mode with the environment that
  keeps it off every other host.
* :func:`write_codex_config` / :func:`run_codex`: ``codex exec --json`` with a ``config.toml``
  whose model provider is the fake server; :func:`codex_hooks` and :func:`trust_codex_hooks`
  ask ``codex app-server`` for the project hooks and trust them as the ``/hooks`` screen does.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "HostRun",
    "LoopbackNetns",
    "claude_env",
    "claude_transcripts",
    "codex_hooks",
    "codex_rollouts",
    "host_path",
    "loopback_netns",
    "run_claude",
    "run_codex",
    "run_host",
    "trust_codex_hooks",
    "write_codex_config",
]

T = TypeVar("T")
CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


# --- a network namespace with only loopback -------------------------------------------------


def _lo_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH22x", b"lo", 0)
        flags = struct.unpack("16sH22x", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))


PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child, before exec: SIGKILL this process when the test process ends."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class LoopbackNetns:
    """A fresh network namespace, held open by a sleeping ``unshare --net`` process."""

    def __init__(self) -> None:
        self._holder = subprocess.Popen(
            ["unshare", "--net", "--", "sleep", "3600"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # a test run that is killed leaves no holder behind
        )
        mine = os.readlink("/proc/self/ns/net")
        deadline = time.monotonic() + 10
        while True:
            if self._holder.poll() is not None:
                error = self._holder.stderr.read().decode() if self._holder.stderr else ""
                raise OSError(f"unshare --net failed: {error.strip()}")
            try:
                if os.readlink(self.path) != mine:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.close()
                raise OSError("unshare --net did not start a namespace within 10 s")
            time.sleep(0.01)
        self.call(_lo_up)

    @property
    def path(self) -> str:
        return f"/proc/{self._holder.pid}/ns/net"

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in a thread that has joined the namespace (sockets it creates stay in it)."""
        result: list[T] = []
        errors: list[BaseException] = []

        def inside() -> None:
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                fd = os.open(self.path, os.O_RDONLY)
                try:
                    if libc.setns(fd, CLONE_NEWNET) != 0:
                        raise OSError(ctypes.get_errno(), "setns failed")
                finally:
                    os.close(fd)
                result.append(fn())
            except BaseException as exc:
                errors.append(exc)

        thread = threading.Thread(target=inside)
        thread.start()
        thread.join()
        if errors:
            raise errors[0]
        return result[0]

    def wrap(self, argv: Sequence[str]) -> list[str]:
        return ["nsenter", f"--net={self.path}", "--", *argv]

    def close(self) -> None:
        if self._holder.poll() is None:
            os.kill(self._holder.pid, signal.SIGKILL)
        self._holder.wait(timeout=10)
        if self._holder.stderr:
            self._holder.stderr.close()


def loopback_netns() -> LoopbackNetns | str:
    """A loopback-only namespace, or the reason this machine cannot make one."""
    missing = [tool for tool in ("unshare", "nsenter") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found"
    try:
        return LoopbackNetns()
    except OSError as exc:
        return f"no network namespace: {exc}"


# --- running a CLI --------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HostRun:
    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    def events(self) -> list[dict[str, Any]]:
        """The JSON lines of stdout (stream-json / --json output)."""
        found = []
        for line in self.stdout.splitlines():
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                found.append(value)
        return found

    def explain(self) -> str:
        return (
            f"$ {' '.join(self.argv)}\nexit {self.returncode} after {self.seconds:.1f}s\n"
            f"--- stdout\n{self.stdout[-6000:]}\n--- stderr\n{self.stderr[-4000:]}"
        )


def host_path() -> str:
    """PATH for a host CLI: the goalfile under test first (its hooks run `goalfile`), then node
    and the system."""
    folders = [str(Path(sys.executable).parent)]
    node = shutil.which("node")
    if node:
        folders.append(str(Path(node).parent))
    folders += ["/usr/local/bin", "/usr/bin", "/bin"]
    return os.pathsep.join(dict.fromkeys(folders))


def run_host(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    netns: LoopbackNetns | None,
    timeout: float = 120,
) -> HostRun:
    command = netns.wrap(argv) if netns is not None else list(argv)
    started = time.monotonic()
    done = subprocess.run(
        command,
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        check=False,
    )
    return HostRun(
        argv=tuple(command),
        returncode=done.returncode,
        stdout=done.stdout,
        stderr=done.stderr,
        seconds=time.monotonic() - started,
    )


def _base_env(home: Path) -> dict[str, str]:
    return {"PATH": host_path(), "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb"}


# --- Claude Code ----------------------------------------------------------------------------


def claude_env(*, home: Path, server_url: str) -> dict[str, str]:
    return {
        **_base_env(home),
        "ANTHROPIC_BASE_URL": server_url,
        "ANTHROPIC_API_KEY": "dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
    }


def run_claude(
    claude: Path,
    *,
    repo: Path,
    home: Path,
    server_url: str,
    prompt: str,
    netns: LoopbackNetns | None,
    timeout: float = 120,
    tools: Sequence[str] = ("Bash",),
    args: Sequence[str] = (),
) -> HostRun:
    """``claude -p PROMPT`` with the ``tools`` allowed, and ``args`` (``--add-dir DIR``)."""
    argv = [
        str(claude),
        "-p",
        prompt,
        "--output-format",
        "stream-json",
        "--verbose",
        "--allowedTools",
        *tools,
        *args,
    ]
    env = claude_env(home=home, server_url=server_url)
    return run_host(argv, cwd=repo, env=env, netns=netns, timeout=timeout)


def claude_transcripts(home: Path, repo: Path) -> list[Path]:
    """The session transcripts Claude Code wrote for ``repo`` (its folder is named after the
    path with every character but letters and digits replaced by ``-``)."""
    name = re.sub(r"[^A-Za-z0-9]", "-", str(repo.resolve()))
    return sorted((home / ".claude" / "projects" / name).glob("*.jsonl"))


# --- Codex ----------------------------------------------------------------------------------


CODEX_KEY_ENV = "FAKE_MODEL_API_KEY"


def write_codex_config(
    codex_home: Path,
    *,
    server_url: str,
    repo: Path,
    extra: str = "",
    sandbox: str = "danger-full-access",
) -> Path:
    """``config.toml`` for the fake model; ``sandbox`` is its ``sandbox_mode`` (most tests keep
    Codex's sandbox out of what they show; ``workspace-write``, what most users run, is tested
    by test_codex_sandbox.py)."""
    codex_home.mkdir(parents=True, exist_ok=True)
    path = codex_home / "config.toml"
    path.write_text(
        f"""model = "gpt-fake"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "{sandbox}"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "{server_url}/v1"
wire_api = "responses"
env_key = "{CODEX_KEY_ENV}"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
plugins = false

[projects.{json.dumps(str(repo.resolve()))}]
trust_level = "trusted"
{extra}""",
        encoding="utf-8",
    )
    return path


def codex_env(*, codex_home: Path) -> dict[str, str]:
    return {**_base_env(codex_home.parent), "CODEX_HOME": str(codex_home), CODEX_KEY_ENV: "dummy"}


def run_codex(
    codex: Path,
    *,
    repo: Path,
    codex_home: Path,
    prompt: str,
    netns: LoopbackNetns | None,
    timeout: float = 120,
    options: Sequence[str] = (),
) -> HostRun:
    argv = [str(codex), "exec", "--json", *options, prompt]
    return run_host(
        argv, cwd=repo, env=codex_env(codex_home=codex_home), netns=netns, timeout=timeout
    )


def codex_rollouts(codex_home: Path) -> list[Path]:
    return sorted((codex_home / "sessions").glob("*/*/*/rollout-*.jsonl"))


def codex_hooks(
    codex: Path, *, repo: Path, codex_home: Path, netns: LoopbackNetns | None
) -> list[dict[str, Any]]:
    """The hooks ``codex app-server`` reports for ``repo`` (``hooks/list``), as the TUI's
    ``/hooks`` screen sees them: each with ``key``, ``currentHash`` and ``trustStatus``."""
    requests = [
        {
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "tests", "version": "1"}},
        },
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [str(repo.resolve())]}},
    ]
    argv = [str(codex), "app-server"]
    command = netns.wrap(argv) if netns is not None else argv
    with subprocess.Popen(
        command,
        cwd=repo,
        env=codex_env(codex_home=codex_home),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as server:
        assert server.stdin is not None and server.stdout is not None
        try:
            for request in requests:
                server.stdin.write(json.dumps({"jsonrpc": "2.0", **request}) + "\n")
            server.stdin.flush()
            deadline = time.monotonic() + 30
            for _ in range(200):  # bounded: a few notifications, then the answer
                if time.monotonic() > deadline:
                    break
                line = server.stdout.readline()
                if not line:
                    break
                message = json.loads(line)
                if message.get("id") == 2:
                    if "error" in message:
                        raise AssertionError(f"hooks/list failed: {message['error']}")
                    return [hook for entry in message["result"]["data"] for hook in entry["hooks"]]
        finally:
            server.kill()
    raise AssertionError("codex app-server gave no answer to hooks/list")


def trust_codex_hooks(
    codex: Path, *, repo: Path, codex_home: Path, netns: LoopbackNetns | None
) -> list[dict[str, Any]]:
    """Trust every project hook of ``repo`` as ``/hooks`` does: write each hook's current hash
    into config.toml as ``[hooks.state."KEY"] trusted_hash``."""
    hooks = codex_hooks(codex, repo=repo, codex_home=codex_home, netns=netns)
    config = codex_home / "config.toml"
    with config.open("a", encoding="utf-8") as handle:
        for hook in hooks:
            handle.write(
                f"\n[hooks.state.{json.dumps(hook['key'])}]\n"
                f"trusted_hash = {json.dumps(hook['currentHash'])}\n"
            )
    return hooks
