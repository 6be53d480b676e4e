"""Codex's hook trust: what ``codex app-server`` reports, and the ``config.toml`` entry that
trusts a hook.

Codex runs a project hook only when ``config.toml`` (in ``$CODEX_HOME``, else ``~/.codex``)
holds the hook's current hash::

    [hooks.state."/repo/.codex/hooks.json:stop:0:0"]
    trusted_hash = "sha256:…"

The key and the hash come from ``codex app-server`` (``initialize``, then ``hooks/list`` with
the repository as ``cwds``), which is also what Codex's ``/hooks`` screen uses. goalfile does
not compute the hash itself: without ``codex`` it cannot tell whether the hook is trusted.

Codex 0.171.0 also reads hooks declared in ``config.toml``, in the same shape as
``hooks.json`` (``[[hooks.Stop]]``, then ``[[hooks.Stop.hooks]]`` with ``type``, ``command``,
``timeout``), both the project's ``.codex/config.toml`` and the user's, and runs every one it
finds: a Stop hook declared in ``hooks.json`` and in ``config.toml`` runs twice per stop
(:func:`hook_files` lists where it looks; :func:`load_hooks_toml` reads one;
:func:`set_hook_entry` edits one hook's ``command`` or ``timeout`` in the text).

The functions on text are pure; :func:`list_hooks` runs ``codex`` (through goalfile.run).
"""

from __future__ import annotations

import json
import os
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
    "declared_in_config",
    "hook_files",
    "list_hooks",
    "load_hooks_toml",
    "set_hook_entry",
    "set_trusted_hash",
    "trusted_hash",
    "with_start_hook",
]

APP_SERVER_TIMEOUT = 30.0


@dataclass(frozen=True, kw_only=True)
class CodexHook:
    key: str
    command: str
    current_hash: str
    trust: str  # Codex's trustStatus: "trusted", "untrusted", "modified", ...
    source_path: str
    enabled: bool = True  # False: turned off (`enabled = false` under its [hooks.state."KEY"])


def config_path(env: Mapping[str, str]) -> Path:
    home = env.get("CODEX_HOME")
    if home:
        return Path(home).expanduser() / "config.toml"
    return Path(env.get("HOME") or Path.home()).expanduser() / ".codex" / "config.toml"


def hook_files(root: Path, env: Mapping[str, str]) -> list[Path]:
    """Every file Codex reads hooks from for the repository at ``root``: the project's
    ``.codex/hooks.json`` (the one `goalfile init` writes) and ``.codex/config.toml``, then the
    user's ``hooks.json`` and ``config.toml`` (in ``$CODEX_HOME``, else ``~/.codex``); a file
    reached twice (a link) once."""
    home = config_path(env).parent
    found = [
        root / ".codex" / "hooks.json",
        root / ".codex" / "config.toml",
        home / "hooks.json",
        home / "config.toml",
    ]
    kept: dict[str, Path] = {}
    for path in found:
        kept.setdefault(os.path.realpath(path), path)
    return list(kept.values())


def load_hooks_toml(path: Path) -> tuple[dict[str, object], str | None]:
    """The parsed ``config.toml`` and its text (``{}``, ``None`` when the file does not exist).
    Raises :class:`~goalfile.hostjson.SettingsError` (naming the file, and the line when TOML
    says it) when it cannot be read or is not TOML."""
    from goalfile.hostjson import SettingsError, read_text, where_broken

    text = read_text(path, what="Codex configuration")
    if text is None:
        return {}, None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        raise SettingsError(
            f"not valid TOML: {exc}; the file was left untouched",
            file=str(path),
            line=int(found.group(1)) if found else None,
            hint=where_broken(str(path), toml=True),
        ) from None
    except RecursionError:
        raise SettingsError(
            "TOML nested too deeply to read (Codex cannot read it either); the file was left "
            "untouched",
            file=str(path),
        ) from None


def declared_in_config(root: Path, env: Mapping[str, str]) -> Path | None:
    """The first file Codex reads hooks from for ``root``, other than the project's
    ``.codex/hooks.json`` (the project's ``config.toml``, then the user's ``hooks.json`` and
    ``config.toml``), that declares goalfile's Stop hook; None when none does or none can be
    read. `goalfile init` then writes no ``.codex/hooks.json``: Codex would run the hook from
    both, which `goalfile doctor` reports (it counts the same files)."""
    from goalfile.errors import GoalfileError
    from goalfile.hostjson import load
    from goalfile.hostprotocol import HostAgent
    from goalfile.hosttimeouts import stop_hooks

    project = root / ".codex" / "hooks.json"
    for path in hook_files(root, env):
        if path == project:
            continue
        try:
            document, _ = load_hooks_toml(path) if path.suffix == ".toml" else load(path)
        except GoalfileError:
            continue
        if stop_hooks(document, HostAgent.CODEX):
            return path
    return None


def with_start_hook(text: str) -> str | None:
    """``text`` (a ``config.toml`` that declares goalfile's Stop hook) with goalfile's
    session-start hook (:mod:`goalfile.starthook`) written after all it holds, as the Stop hook
    is declared there (``[[hooks.SessionStart]]``, then its ``[[hooks.SessionStart.hooks]]``);
    everything else stays byte for byte. None when the file, so written, would not read back
    with the hook in its one shape (``hooks`` written as an inline table, say)."""
    from goalfile.hostprotocol import HostAgent
    from goalfile.starthook import START_TIMEOUT, sound_start, start_command

    newline = "\r\n" if "\r\n" in text else "\n"
    lines = [
        "[[hooks.SessionStart]]",
        "",
        "[[hooks.SessionStart.hooks]]",
        'type = "command"',
        f"command = {_toml_value(start_command(HostAgent.CODEX))}",
        f"timeout = {START_TIMEOUT}",
    ]
    head = text if not text or text.endswith("\n") else text + newline
    new = head + (newline if head.strip() else "") + newline.join(lines) + newline
    try:
        read = tomllib.loads(new)
    except tomllib.TOMLDecodeError:
        return None
    return new if sound_start(read, HostAgent.CODEX) else None


_ANY_HEADER = re.compile(r"^[ \t]*\[", re.M)


def _array_header(*names: str) -> re.Pattern[str]:
    dotted = r"[ \t]*\.[ \t]*".join(re.escape(n) for n in names)
    return re.compile(rf"\[\[[ \t]*{dotted}[ \t]*\]\][ \t]*(#.*)?$")


def _toml_value(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"cannot write {value!r} into config.toml")
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def _hook_region(text: str, *, event: str, group: int, index: int) -> tuple[int, int] | None:
    """Where the body of the ``[[hooks.<event>.hooks]]`` table of ``hooks.<event>[group]
    .hooks[index]`` lies in ``text`` (from the end of its header line to the next header);
    None when the hook is not written as such a table."""
    group_header = _array_header("hooks", event)
    hook_header = _array_header("hooks", event, "hooks")
    at_group, at_hook = -1, -1
    headers = list(_ANY_HEADER.finditer(text))
    for number, header in enumerate(headers):
        line_end = text.find("\n", header.start())
        line_end = len(text) if line_end < 0 else line_end
        line = text[header.start() : line_end].strip()
        if group_header.match(line):
            at_group, at_hook = at_group + 1, -1
        elif hook_header.match(line):
            at_hook += 1
            if (at_group, at_hook) == (group, index):
                end = headers[number + 1].start() if number + 1 < len(headers) else len(text)
                return line_end, end
    return None


def hook_key_line(text: str, *, event: str, group: int, index: int, key: str) -> int | None:
    """The line (from 1) of ``key = ...`` in the table of the hook ``hooks.<event>[group]
    .hooks[index]``, else of the table's header; None when the hook is not written as such a
    table."""
    region = _hook_region(text, event=event, group=group, index=index)
    if region is None:
        return None
    start, end = region
    found = re.compile(rf"^[ \t]*{re.escape(key)}[ \t]*=", re.M).search(text, start, end)
    return text.count("\n", 0, found.start() if found is not None else start - 1) + 1


def set_hook_entry(
    text: str,
    *,
    event: str,
    group: int,
    index: int,
    changes: Mapping[str, object],
    expected: Mapping[str, object],
) -> str:
    """``text`` with the hook ``hooks.<event>[group].hooks[index]`` given ``changes`` (each key,
    such as ``command`` or ``timeout``, set to a string or a whole number): its line replaced,
    or written under the hook's ``[[hooks.<event>.hooks]]`` header. Everything else stays as it
    was. Raises ValueError when the hook is not written as such a table or the result, read
    back, is not ``expected`` (the whole document as it should be)."""
    region = _hook_region(text, event=event, group=group, index=index)
    if region is None:
        raise ValueError(f"hooks.{event}[{group}].hooks[{index}] is not written as a table")
    start, end = region
    body = text[start:end]
    for key, value in changes.items():
        line = f"{key} = {_toml_value(value)}"
        pattern = re.compile(rf"^[ \t]*{re.escape(key)}[ \t]*=.*$", re.M)
        found = pattern.search(body)
        if found is not None:
            body = body[: found.start()] + line + body[found.end() :]
        else:
            body = "\n" + line + body
    new = text[:start] + body + text[end:]
    if tomllib.loads(new) != expected:
        raise ValueError(f"could not write hooks.{event}[{group}].hooks[{index}] there")
    return new


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
                enabled=hook.get("enabled") is not False,
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
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise ValueError("TOML nested too deeply to read") from None
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
