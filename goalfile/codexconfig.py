"""Codex's hook trust: what ``codex app-server`` reports, and the ``config.toml`` entry that
trusts a hook.

Codex runs a project hook only when ``config.toml`` (in ``$CODEX_HOME``, else ``~/.codex``)
holds the hook's current hash::

    [hooks.state."/repo/.codex/hooks.json:stop:0:0"]
    trusted_hash = "sha256:…"

The key and the hash come from ``codex app-server`` (``initialize``, then ``hooks/list`` with
the repository as ``cwds``), which is also what Codex's ``/hooks`` screen uses. goalfile does
not compute the hash itself: without ``codex`` it cannot tell whether the hook is trusted.

The functions on text are pure; :func:`list_hooks` runs ``codex`` (through goalfile.run).
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from goalfile import run

__all__ = [
    "CodexHook",
    "config_path",
    "list_hooks",
    "set_trusted_hash",
    "trusted_hash",
]

APP_SERVER_TIMEOUT = 30.0


@dataclass(frozen=True, kw_only=True)
class CodexHook:
    key: str
    command: str
    current_hash: str
    trust: str  # Codex's trustStatus: "trusted", "untrusted", "modified", ...
    source_path: str


def config_path(env: Mapping[str, str]) -> Path:
    home = env.get("CODEX_HOME")
    if home:
        return Path(home).expanduser() / "config.toml"
    return Path(env.get("HOME") or Path.home()).expanduser() / ".codex" / "config.toml"


def list_hooks(root: Path, env: Mapping[str, str]) -> list[CodexHook] | str:
    """The hooks Codex sees for ``root``, or why they cannot be known (a sentence)."""
    codex = shutil.which("codex", path=env.get("PATH"))
    if codex is None:
        return "`codex` is not on PATH"
    home = config_path(env).parent
    if not home.is_dir():  # `codex app-server` does not answer without it
        return f"{home} does not exist (start `codex` once to set it up)"
    requests: list[dict[str, object]] = [
        {
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "goalfile", "version": "1"}},
        },
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [str(root)]}},
    ]
    try:
        line = run.converse(
            [codex, "app-server"],
            requests=[json.dumps({"jsonrpc": "2.0", **r}) for r in requests],
            done=_answers(2),
            cwd=str(root),
            env=env,
            timeout=APP_SERVER_TIMEOUT,
        )
    except OSError as exc:
        return f"`codex app-server` cannot be run: {exc.strerror or exc}"
    if line is None:
        return "`codex app-server` gave no answer to hooks/list"
    try:
        answer = json.loads(line)
        found = [
            CodexHook(
                key=str(hook["key"]),
                command=str(hook.get("command") or ""),
                current_hash=str(hook["currentHash"]),
                trust=str(hook.get("trustStatus") or "unknown"),
                source_path=str(hook.get("sourcePath") or ""),
            )
            for entry in answer["result"]["data"]
            for hook in entry["hooks"]
        ]
    except (ValueError, KeyError, TypeError):
        return f"`codex app-server` answered hooks/list in an unknown shape: {line[:200]}"
    return found


def _answers(request_id: int) -> Callable[[str], bool]:
    def check(line: str) -> bool:
        try:
            message = json.loads(line)
        except ValueError:
            return False
        return isinstance(message, dict) and message.get("id") == request_id

    return check


def _header(key: str) -> re.Pattern[str]:
    quoted = re.escape(json.dumps(key))
    return re.compile(
        rf"^[ \t]*\[[ \t]*hooks[ \t]*\.[ \t]*state[ \t]*\.[ \t]*{quoted}[ \t]*\][ \t]*(#.*)?$", re.M
    )


def trusted_hash(text: str, key: str) -> str | None:
    """The ``trusted_hash`` config.toml records for hook ``key``; raises ValueError when the
    text is not TOML."""
    data = tomllib.loads(text)
    state = data.get("hooks", {}).get("state", {})
    entry = state.get(key) if isinstance(state, dict) else None
    value = entry.get("trusted_hash") if isinstance(entry, dict) else None
    return value if isinstance(value, str) else None


def set_trusted_hash(text: str, key: str, digest: str) -> str:
    """``text`` with hook ``key`` trusted at ``digest``: the table's ``trusted_hash`` replaced,
    or the table appended. Everything else stays as it was. Raises ValueError when the text is
    not TOML, or when the result would not say what it should (a table written in a shape this
    edit does not handle, such as an inline table)."""
    trusted_hash(text, key)  # the input must be TOML
    line = f"trusted_hash = {json.dumps(digest)}"
    header = _header(key).search(text)
    if header is None:
        sep = "" if not text or text.endswith("\n") else "\n"
        new = f"{text}{sep}{'' if not text else chr(10)}[hooks.state.{json.dumps(key)}]\n{line}\n"
    else:
        start = header.end()
        following = re.search(r"^[ \t]*\[", text[start:], re.M)
        end = start + following.start() if following else len(text)
        body = text[start:end]
        old = re.search(r"^[ \t]*trusted_hash[ \t]*=.*$", body, re.M)
        if old is not None:
            body = body[: old.start()] + line + body[old.end() :]
        else:
            body = "\n" + line + body
        new = text[:start] + body + text[end:]
    if trusted_hash(new, key) != digest:
        raise ValueError(f"could not set trusted_hash for {key} in this config.toml")
    return new
