"""Register goalfile's Stop hook in a host's JSON settings: merge, never overwrite.

Claude Code reads ``.claude/settings.json`` and Codex reads ``.codex/hooks.json``; both use the
same shape::

    {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "...", "timeout": 600}]}]}}

Gemini CLI reads ``.gemini/settings.json``, with the event ``AfterAgent``, a ``name`` and the
timeout in milliseconds::

    {"hooks": {"AfterAgent": [{"hooks": [{"name": "goalfile", "type": "command",
                                          "command": "...", "timeout": 600000}]}]}}

pi has no hook settings: its hook is an extension file (see goalfile.pi_extension).

The merge keeps every existing key and hook (in their order), adds one matcher group only when
no goalfile Stop hook that holds the agent is registered yet (a command that only holds the
words ``goalfile hook stop`` is replaced: goalfile.hookshape), and writes nothing when nothing
changes.
A file that is not valid JSON is reported with its line and column and left untouched. Writes
are atomic (a temporary file in the same folder, then a rename), keep the file's mode and its
indentation.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from goalfile import files
from goalfile.errors import GoalfileError
from goalfile.hostprotocol import HOOK_TIMEOUT, HostAgent

__all__ = [
    "HOOK_TIMEOUT",
    "HostAgent",
    "Registration",
    "SettingsError",
    "hook_command",
    "merge_stop_hook",
    "register_stop_hook",
    "settings_path",
]

HOOK_PREFIX = ("goalfile", "hook", "stop")

SETTINGS = {
    HostAgent.CLAUDE: Path(".claude") / "settings.json",
    HostAgent.CODEX: Path(".codex") / "hooks.json",
    HostAgent.GEMINI: Path(".gemini") / "settings.json",
}
EVENT = {HostAgent.CLAUDE: "Stop", HostAgent.CODEX: "Stop", HostAgent.GEMINI: "AfterAgent"}


class SettingsError(GoalfileError):
    """A host settings file cannot be merged into (exit 3, file untouched)."""


def where_broken(path: str, *, toml: bool = False) -> str:
    """The fix for a JSON (or TOML) file that does not parse: a command that names the line
    and column where it breaks, to fix there, and "then run this again" (init names itself)."""
    import sys

    if toml:
        read = 'import sys, tomllib; tomllib.load(open(sys.argv[1], "rb"))'
        show = f"{shlex.quote(sys.executable)} -c {shlex.quote(read)} {shlex.quote(path)}"
    else:
        show = f"{shlex.quote(sys.executable)} -m json.tool {shlex.quote(path)}"
    return f"`{show}` names the line and column; fix the file there, then run this again"


def top_object(document: object, *, what: str, file: str = "") -> dict[str, object]:
    """``document`` (a JSON file as read) when it is a JSON object; else the error that says
    ``what`` is not one, on its first line and column."""
    if not isinstance(document, dict):
        raise SettingsError(
            f"{what} is not a JSON object",
            file=file or None,
            line=1,
            column=1,
            again="once its top level is a JSON object ({ ... })",
        )
    return document


@dataclass(frozen=True, kw_only=True)
class Registration:
    agent: HostAgent
    path: str
    changed: bool  # the file was written
    created: bool  # the file did not exist before
    # goalfile Stop hooks given the time of their --timeout (hosttimeouts.given_their_time)
    timeouts: tuple[str, ...] = ()
    start_changed: bool = False  # goalfile's session-start hook was added (goalfile.starthook)

    def to_json(self) -> dict[str, object]:
        return {
            "agent": self.agent.value,
            "path": self.path,
            "changed": self.changed,
            "created": self.created,
            "timeouts": list(self.timeouts),
            "start_changed": self.start_changed,
        }


def settings_path(root: Path, agent: HostAgent) -> Path:
    return root / SETTINGS[agent]


def hook_command(agent: HostAgent) -> str:
    return f"goalfile hook stop --agent {agent.value}"


_OPERATOR = frozenset("();<>|&")


def shell_words(command: str) -> list[str]:
    """The words of ``command`` as a POSIX shell splits them, each run of operator characters
    (``;``, ``&&``, ``|``, ``)``...) a word of its own; split at blanks when the quotes do not
    close."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:
        return command.split()


def hook_stop_words(command: object) -> list[str] | None:
    """The words of the `goalfile hook stop` a registered hook command runs, from `stop` to the
    first shell operator (`;`, `&&`, `|`, `)`...), as the shell splits them; None when it runs
    none. A prefix such as `env X=1`, a subshell, or a path to goalfile is allowed."""
    if not isinstance(command, str):
        return None
    words = shell_words(command)
    for start in range(len(words)):
        head = words[start : start + 3]
        if [os.path.basename(w) for w in head[:1]] + head[1:] == list(HOOK_PREFIX):
            rest = words[start + 2 :]
            end = next((at for at, w in enumerate(rest) if w and set(w) <= _OPERATOR), None)
            return rest[:end]
    return None


def is_ours(command: object) -> bool:
    """Whether a registered hook command runs `goalfile hook stop` (past a prefix such as
    `env X=1`, or with a path to goalfile)."""
    return hook_stop_words(command) is not None


def merge_stop_hook(
    document: object,
    *,
    agent: HostAgent,
    timeout: int = HOOK_TIMEOUT,
    file: str = "",
    goal_exists: Callable[[str], bool] | None = None,
) -> tuple[dict[str, object], bool]:
    """The settings with our Stop hook registered, and whether anything had to change.

    A goalfile Stop hook that would not hold the agent (:mod:`goalfile.hookshape`: a command
    that only holds the words, an entry run in the background) does not count as registered:
    it is taken out, and the hook registered in its place (its sound options kept).
    ``goal_exists`` says whether a ``--goal`` value names a goal file (none does without it).

    Pure: ``document`` is not modified. Raises :class:`SettingsError` when the existing shape
    leaves no place for the hook (``hooks`` or ``hooks.Stop`` of the wrong type).
    """
    merged: dict[str, object] = dict(top_object(document, what="the settings file", file=file))
    hooks = merged.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(
            '"hooks" is not a JSON object',
            file=file or None,
            again='once "hooks" is a map of event names to lists ({"Stop": [...]})',
        )
    event = EVENT[agent]
    groups = hooks.get(event, [])
    if not isinstance(groups, list):
        raise SettingsError(
            f'"hooks.{event}" is not a JSON list',
            file=file or None,
            again=f'once "{event}" is a list of matcher groups ([{{"hooks": [...]}}])',
        )
    ours: dict[str, object] = {
        "type": "command",
        "command": hook_command(agent),
        "timeout": timeout,
    }
    if agent is HostAgent.GEMINI:  # a name for its listing; the timeout in milliseconds
        ours = {"name": "goalfile", **ours, "timeout": timeout * 1000}
    from goalfile import hookshape

    exists = goal_exists or (lambda _: False)
    sound, faults = hookshape.review(merged, agent, goal_exists=exists)
    if faults:  # one that never answers is not registered: it is replaced (hookshape)
        mended = hookshape.repaired(merged, agent, goal_exists=exists, fresh=ours)
        assert mended is not None
        return mended, True
    if sound:
        return merged, False
    merged["hooks"] = {**hooks, event: [*groups, {"hooks": [ours]}]}
    return merged, True


def _indent(text: str) -> int | str:
    match = re.search(r"\n([ \t]+)\S", text)
    if match is None:
        return 2
    found = match.group(1)
    return found if "\t" in found else len(found)


def render(document: Mapping[str, object], *, like: str = "") -> str:
    """JSON text in the indentation of ``like`` (two spaces by default), ending in a newline."""
    return json.dumps(document, indent=_indent(like), ensure_ascii=False, allow_nan=False) + "\n"


class _NotWritable(ValueError):
    """A JSON value goalfile could read but could not write back as JSON; ``text``: the
    value as written, to find its line."""

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.text = text


_DIGITS_MAX = 4300
"""Digits Python turns into an integer (``sys.get_int_max_str_digits()``'s default)."""


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e400: JSON, but it would come back as `Infinity`
        raise _NotWritable(f"the number {_shown(text)} is too large to be written back", text)
    return number


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > _DIGITS_MAX:  # int() refuses it: a ValueError, not JSON's
        raise _NotWritable(f"the number {_shown(text)} is too long to read", text)
    return int(text)


def _shown(text: str) -> str:
    return text if len(text) <= 20 else f"{text[:10]}…{text[-4:]} ({len(text)} characters)"


def _where(text: str, value: str) -> tuple[int | None, int | None]:
    """The line and column (from 1) of ``value`` in ``text``; (None, None) if not found."""
    at = text.find(value) if value else -1
    if at < 0:
        return None, None
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def _constant(name: str) -> object:
    raise _NotWritable(f"{name} is not JSON")


def _writable(document: object) -> None:
    """Raise :class:`_NotWritable` for a string holding a lone surrogate (a `\\ud800` escape,
    valid JSON text but no UTF-8 character)."""
    try:
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise _NotWritable(
            "a string holds an escape of a lone surrogate (such as \\ud800), which is no "
            "character and cannot be written back as UTF-8"
        ) from None


def read_text(path: Path, *, what: str) -> str | None:
    """A host's settings file as text (``None`` when it does not exist); a file that cannot
    be read, is no regular file or is not UTF-8 is a :class:`SettingsError` naming it."""
    try:
        return files.read_regular_text(path, what=what)  # a FIFO is refused
    except FileNotFoundError:
        return None
    except GoalfileError as exc:  # a FIFO or a device, never waited on
        raise SettingsError(exc.message, file=str(path), hint=exc.hint) from None
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"not UTF-8 text: {exc.reason}",
            file=str(path),
            again="once the file is saved as UTF-8",
        ) from None
    except OSError as exc:
        raise SettingsError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None


def load(path: Path) -> tuple[object, str | None]:
    """The parsed document and its text (``None`` when the file does not exist)."""
    text = read_text(path, what="settings file")
    if text is None:
        return {}, None
    if not text.strip():
        return {}, text
    try:
        document = json.loads(text, parse_float=_finite, parse_int=_whole, parse_constant=_constant)
        _writable(document)
        return document, text
    except _NotWritable as exc:
        line, column = _where(text, exc.text)
        raise SettingsError(
            f"{exc}; the file was left untouched",
            file=str(path),
            line=line,
            column=column,
            again="once the value there is written another way",
        ) from None
    except json.JSONDecodeError as exc:
        raise SettingsError(
            f"not valid JSON: {exc.msg}; the file was left untouched",
            file=str(path),
            line=exc.lineno,
            column=exc.colno,
            hint=where_broken(str(path)),
        ) from None
    except RecursionError:
        raise SettingsError("JSON nested too deeply", file=str(path)) from None


def write_atomic(path: Path, text: str) -> None:
    """Replace the file in one step (see goalfile.files), creating its folder when needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_atomic(path, text)


def register_stop_hook(
    *,
    root: Path,
    agent: HostAgent,
    timeout: int = HOOK_TIMEOUT,
    dry_run: bool = False,
    goal_exists: Callable[[str], bool] | None = None,
) -> Registration:
    """Merge the Stop hook into the host's settings file under ``root``; ``goal_exists`` as
    :func:`merge_stop_hook` takes it (`goalfile init`:
    :func:`goalfile.commands.hookgoal.goal_option`). A goalfile Stop hook there that its host
    would kill before it answers gets the time of its ``--timeout``
    (:func:`goalfile.hosttimeouts.given_their_time`)."""
    from goalfile.hosttimeouts import given_their_time

    path = settings_path(root, agent)
    document, text = load(path)
    merged, changed = merge_stop_hook(
        document, agent=agent, timeout=timeout, file=str(path), goal_exists=goal_exists
    )
    timed, timeouts = given_their_time(merged, agent)
    changed = changed or bool(timeouts)
    if changed and not dry_run:
        assert isinstance(timed, dict)
        write_atomic(path, render(timed, like=text or ""))
    return Registration(
        agent=agent,
        path=str(path),
        changed=changed,
        created=text is None,
        timeouts=tuple(timeouts),
    )


def register_start_hook(
    *, root: Path, agent: HostAgent, dry_run: bool = False, path: Path | None = None
) -> Registration:
    """Merge goalfile's session-start hook (:mod:`goalfile.starthook`) into the host's settings
    file under ``root`` (or ``path``, a JSON file the Stop hook is declared in: the user's
    ``~/.codex/hooks.json``), beside its Stop hook; nothing is written when it is there
    already. A ``config.toml`` gets it from :func:`register_start_in_config`."""
    from goalfile.starthook import merge_start_hook

    if path is None:
        path = settings_path(root, agent)
    elif path.suffix == ".toml":
        return register_start_in_config(path, dry_run=dry_run)
    document, text = load(path)
    merged = merge_start_hook(top_object(document, what="the settings file", file=str(path)), agent)
    if isinstance(merged, str):
        raise SettingsError(
            merged,
            file=str(path),
            again='once "hooks" is a map of event names to lists of matcher groups '
            '({"SessionStart": [{"hooks": [...]}]})',
        )
    new, changed = merged
    if changed and not dry_run:
        write_atomic(path, render(new, like=text or ""))
    return Registration(agent=agent, path=str(path), changed=changed, created=text is None)


def register_start_in_config(path: Path, *, dry_run: bool = False) -> Registration:
    """Codex's session-start hook written into ``path``, a ``config.toml`` that declares
    goalfile's Stop hook (:func:`goalfile.codexconfig.with_start_hook`); nothing is written when
    it is there already. Raises :class:`SettingsError` when it cannot be written there."""
    from goalfile.codexconfig import load_hooks_toml, with_start_hook
    from goalfile.starthook import sound_start

    document, text = load_hooks_toml(path)
    agent = HostAgent.CODEX
    if sound_start(document, agent):
        return Registration(agent=agent, path=str(path), changed=False, created=False)
    new = with_start_hook(text or "")
    if new is None:
        raise SettingsError(
            "its hooks are not written as tables (`[[hooks.Stop]]`), so goalfile cannot add "
            "`goalfile hook start --agent codex` under SessionStart beside the Stop hook; "
            "write it there as the Stop hook is written",
            file=str(path),
        )
    if not dry_run:
        write_atomic(path, new)
    return Registration(agent=agent, path=str(path), changed=True, created=text is None)
