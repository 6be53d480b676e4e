"""The agent's own runs of goalfile's hook, as the host's transcript records them.

`goalfile hook start` and `goalfile hook stop` write the session's record
(:mod:`goalfile.sessionmemory`), which the Stop hook compares each stop with. Nothing a hook
process is given tells the host's run from one the agent starts from its shell tool with its
session's id on stdin: under Claude Code and Codex both are children of the host in a session
of their own, with input the agent can write (tests/hosts/test_self_run_hold.py probed the four
hosts). What the host does keep is its transcript: every shell command of the agent, written
by the host. A tool call whose command runs goalfile's hook (``goalfile hook stop``,
``python -m goalfile hook start``, also inside ``sh -c '...'`` or ``eval``), or names the
state folder that holds the record (``~/.local/state/goalfile``, ``goalfile/sessions``,
``goalfile/key``, ``XDG_STATE_HOME``), is the evidence (:func:`self_runs`); so is a call of
the host's own file tools (Claude Code's Read, Write and Edit, Codex's ``apply_patch``, Gemini
CLI's and pi's read and write tools) whose path lies in goalfile's part of the state folder
(:func:`path_calls`). A run of the hook by words that do not show it is told by when its
record was taken (:mod:`goalfile.recordbind`).

The four hosts' shapes of a shell tool call (the ``command`` or ``cmd`` of each):

* Claude Code: ``message.content[]`` items ``{"type": "tool_use", "id", "input": {"command"}}``,
  answered by ``{"type": "tool_result", "tool_use_id"}``;
* Codex: ``payload`` ``{"type": "function_call", "call_id", "arguments": "{\\"cmd\\": ...}"}``,
  answered by ``{"type": "function_call_output", "call_id"}``;
* Gemini CLI: ``toolCalls[]`` items ``{"id", "args": {"command"}, "result"}``;
* pi: ``message.content[]`` items ``{"type": "toolCall", "id", "arguments": {"command"}}``,
  answered by ``{"role": "toolResult", "toolCallId"}``.

Only lines that hold one of the words looked for are decoded, so a long transcript costs a few
byte searches. Pure but for :func:`self_runs`, which reads the file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Final

from goalfile.value import Compared

__all__ = [
    "SelfRun",
    "call_ids",
    "hook_part",
    "names_hook",
    "names_state",
    "path_calls",
    "result_ids",
    "self_runs",
    "state_part",
    "tool_calls",
]

# a line is decoded only when it holds one of these (the command's own words, as JSON writes
# them: a Codex call's arguments are JSON text inside JSON, whose slashes stay as they are,
# and a line break between two words is `\n` there)
_MARKERS: Final = (b"hook st", b"hook  ", b"hook\\", b".local", b"XDG_STATE_HOME", b"goalfile/")
_CALLS: Final = (
    b'"tool_use"',
    b'"function_call"',
    b'"custom_tool_call"',
    b'"toolCall"',
    b'"toolCalls"',
)
_STRICT: Final = (
    rb"hook(?:\s|\\+[nt])+st(?:art|op)|\.local|XDG_STATE_HOME|goalfile/(?:sessions|key)"
)
_SIZE_LIMIT: Final = 1 << 30  # bytes: a larger transcript is not read
_STATE: Final = re.compile(
    r"XDG_STATE_HOME|\.local/state/goalfile|goalfile/(sessions|key)\b|(^|/)\.local(/state)?/?$"
)
_OWN_STATE: Final = re.compile(r"XDG_STATE_HOME|\.local/state/goalfile|goalfile/(sessions|key)\b")
# programs that only read or show what they are given: `ls ~/.local/state` names the folder
# above the record's and changes nothing (a word naming goalfile's own folder counts whatever
# reads it: the key there is what seals a record)
_READERS: Final = frozenset(
    {"ls", "du", "stat", "tree", "file", "df", "realpath", "readlink", "test", "[", "echo"}
)
# the arguments of a tool that reads or writes a file, which name it (Claude Code's Read,
# Write and Edit, Gemini CLI's read_file, write_file and replace, pi's read, write and edit)
_PATH_KEYS: Final = ("file_path", "path", "absolute_path", "notebook_path", "dir_path")
_PATCH_FILE: Final = re.compile(
    r"^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$", re.MULTILINE
)
_SHELLS: Final = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "busybox"})
_TEXT_LIMIT: Final = 100  # characters of a command shown in a message


class SelfRun(Compared):
    """A tool call of the agent's that ran goalfile's hook or named its state folder: its
    ``key`` (the host's id of the call), the part of its command that did (the simple
    command that runs the hook, else the word naming the folder), whether it ran the hook
    (else it named the state folder), and whether the transcript holds no result of it yet
    (the call is running: a hook run given this transcript may be that call itself)."""

    __slots__ = ("command", "hook", "key", "pending")

    def __init__(self, *, key: str, command: str, hook: bool, pending: bool) -> None:
        self.key: Final = key
        self.command: Final = command
        self.hook: Final = hook
        self.pending: Final = pending

    @property
    def shown(self) -> str:
        """The command on one line, cut to a length a message can hold."""
        text = " ".join(self.command.split())
        return text if len(text) <= _TEXT_LIMIT else text[: _TEXT_LIMIT - 1] + "…"


def self_runs(transcript: str | None, state: str | None = None) -> tuple[SelfRun, ...]:
    """The agent's tool calls in the transcript at ``transcript`` that ran goalfile's hook or
    named its state folder (those :func:`names_state` knows, and ``state``, the folder of
    goalfile's in the state folder this user's hooks write, as the environment names it), in
    the order the transcript has them; none when there is no transcript or it cannot be read
    (a FIFO or device is never read)."""
    if not transcript:
        return ()
    from goalfile.errors import GoalfileError
    from goalfile.files import read_regular

    try:
        data = read_regular(os.path.expanduser(transcript), what="transcript", limit=_SIZE_LIMIT)
    except (OSError, ValueError, GoalfileError):
        return ()
    named = os.fsencode(state) if state else b""
    markers = (*_MARKERS, named) if named else _MARKERS
    strict = re.compile(_STRICT + (b"|" + re.escape(named) if named else b""))
    found: dict[str, SelfRun] = {}
    for line in _candidate_lines(data, markers, strict):
        for key, command in tool_calls(line):
            if key in found:
                continue
            part = hook_part(command)
            hook = part is not None
            part = part if hook else state_part(command, state)
            if part is not None:
                found[key] = SelfRun(key=key, command=part, hook=hook, pending=True)
        for key, name, path in path_calls(line):
            if key not in found and _names_own_state(path, state):
                found[key] = SelfRun(key=key, command=f"{name} {path}", hook=False, pending=True)
    if not found:
        return ()
    answered = _answered(data, frozenset(found))
    return tuple(
        SelfRun(key=run.key, command=run.command, hook=run.hook, pending=run.key not in answered)
        for run in found.values()
    )


def _candidate_lines(
    data: bytes, markers: tuple[bytes, ...], strict: re.Pattern[bytes]
) -> Iterator[bytes]:
    """The lines of ``data`` that hold one of ``markers`` (a fast search), a tool call of one
    of the four shapes, and something ``strict`` finds, each once, in order."""
    starts: set[int] = set()
    for marker in markers:
        at = data.find(marker)
        while at >= 0:
            starts.add(data.rfind(b"\n", 0, at) + 1)
            end = data.find(b"\n", at)
            at = -1 if end < 0 else data.find(marker, end)
    for start in sorted(starts):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end]
        if any(call in line for call in _CALLS) and strict.search(line):
            yield line


def _answered(data: bytes, keys: frozenset[str]) -> frozenset[str]:
    """Of ``keys``, the tool calls the transcript holds a result of."""
    found: set[str] = set()
    for key in keys:
        needle = json.dumps(key).encode()
        at = data.find(needle)
        while at >= 0:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            line = data[start : len(data) if end < 0 else end]
            if key in result_ids(line):
                found.add(key)
                break
            at = -1 if end < 0 else data.find(needle, end)
    return frozenset(found)


def _decode(line: bytes) -> object:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _walk(value: object, depth: int = 0) -> Iterator[dict[str, object]]:
    """Every JSON object in ``value``, itself first (at most 12 levels deep)."""
    if depth > 12:
        return
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _walk(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, depth + 1)


def tool_calls(line: bytes) -> list[tuple[str, str]]:
    """The shell tool calls one transcript line holds: each call's id and its command."""
    found: list[tuple[str, str]] = []
    for item in _walk(_decode(line)):
        key, arguments = _call(item)
        if key is None:
            continue
        command = _command(arguments)
        if command is not None:
            found.append((key, command))
    return found


def call_ids(line: bytes) -> list[str]:
    """The ids of the tool calls, of any tool, one transcript line holds."""
    return [key for item in _walk(_decode(line)) for key in [_call(item)[0]] if key is not None]


def path_calls(line: bytes) -> list[tuple[str, str, str]]:
    """The calls of a tool that reads or writes a named file (the host's own file tools, and
    Codex's `apply_patch`) one transcript line holds: each call's id, its tool's name and
    each path it names."""
    found: list[tuple[str, str, str]] = []
    for item in _walk(_decode(line)):
        key, arguments = _call(item)
        if key is None or not isinstance(arguments, dict) or _command(arguments) is not None:
            continue
        name = item.get("name")
        name = name if isinstance(name, str) else "tool"
        for path in _paths(arguments):
            found.append((key, name, path))
    return found


def _paths(arguments: dict[object, object]) -> list[str]:
    found = [path for key in _PATH_KEYS for path in [arguments.get(key)] if isinstance(path, str)]
    patch = arguments.get("input", arguments.get("patch"))
    if isinstance(patch, str) and "*** " in patch:
        found += [match.strip() for match in _PATCH_FILE.findall(patch)]
    return found


def _names_own_state(path: str, state: str | None) -> bool:
    """Whether a file tool's ``path`` lies in goalfile's part of the state folder."""
    return bool(_OWN_STATE.search(path)) or (state is not None and state != "" and state in path)


def _call(item: dict[str, object]) -> tuple[str | None, object]:
    kind = item.get("type")
    if kind == "tool_use":  # Claude Code
        key, arguments = item.get("id"), item.get("input")
    elif kind == "function_call":  # Codex: the arguments are JSON text
        key, arguments = item.get("call_id"), item.get("arguments")
        if isinstance(arguments, str):
            arguments = _decode(arguments.encode("utf-8", "surrogatepass"))
    elif kind == "custom_tool_call":  # Codex's apply_patch: its input is the patch's text
        key, arguments = item.get("call_id"), {"input": item.get("input")}
    elif kind == "toolCall":  # pi
        key, arguments = item.get("id"), item.get("arguments")
    elif "args" in item and "name" in item and "id" in item:  # Gemini CLI's toolCalls[]
        key, arguments = item.get("id"), item.get("args")
    else:
        return None, None
    return (key, arguments) if isinstance(key, str) and key else (None, None)


def _command(arguments: object) -> str | None:
    if not isinstance(arguments, dict):
        return None
    command = arguments.get("command", arguments.get("cmd"))
    if isinstance(command, list) and all(isinstance(word, str) for word in command):
        import shlex  # here: a stop whose transcript names no hook loads no quoting

        return shlex.join(command)
    return command if isinstance(command, str) else None


def result_ids(line: bytes) -> frozenset[str]:
    """The ids of the tool calls whose result ``line`` holds."""
    found: set[str] = set()
    for item in _walk(_decode(line)):
        kind = item.get("type")
        key: object = None
        if kind == "tool_result":  # Claude Code
            key = item.get("tool_use_id")
        elif kind in ("function_call_output", "custom_tool_call_output"):  # Codex
            key = item.get("call_id")
        elif item.get("role") == "toolResult":  # pi
            key = item.get("toolCallId")
        elif "functionResponse" in item and isinstance(item["functionResponse"], dict):
            key = item["functionResponse"].get("id")  # Gemini CLI
        elif "args" in item and "id" in item and item.get("result"):  # Gemini CLI's toolCalls[]
            key = item.get("id")
        if isinstance(key, str):
            found.add(key)
    return frozenset(found)


def _words(command: str) -> list[list[str]] | None:
    """``command`` as simple commands, each a list of words (a word that is the script of
    ``sh -c``, ``bash -lc`` or ``eval`` split the same way, as more commands); None when the
    shell's quoting cannot be read."""
    import shlex

    commands: list[list[str]] = []
    for text in command.replace("\\\n", " ").splitlines():  # a line continued is one line
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        try:
            tokens = list(lexer)
        except ValueError:
            return None
        current: list[str] = []
        for token in [*tokens, ";"]:
            if token and set(token) <= set(";&|()<>"):
                if current:
                    commands.append(current)
                current = []
            else:
                current.append(token)
    scripts: list[list[str]] = []
    for words in commands:
        for index, word in enumerate(words[:-1]):
            script_flag = word.startswith("-") and not word.startswith("--") and "c" in word
            if (script_flag and _runs_shell(words[:index])) or word == "eval":
                inner = _words(words[index + 1])
                if inner is not None:
                    scripts += inner
    return commands + scripts


def _runs_shell(words: list[str]) -> bool:
    return any(os.path.basename(word) in _SHELLS for word in words)


def names_hook(command: str) -> bool:
    """Whether ``command`` runs goalfile's hook (:func:`hook_part`)."""
    return hook_part(command) is not None


def hook_part(command: str) -> str | None:
    """The simple command in ``command`` that runs goalfile's hook: one where a word naming
    goalfile (``goalfile``, ``/path/goalfile``, ``-m goalfile``) is followed by ``hook`` and
    ``start`` or ``stop``; None when there is none."""
    commands = _words(command)
    if commands is None:  # quoting the shell would refuse: look at the text
        found = re.search(r"\S*goalfile\S*\s+hook\s+(start|stop)\b", command)
        return None if found is None else found.group(0)
    for words in commands:
        for index, word in enumerate(words):
            if os.path.basename(word) != "goalfile":
                continue
            rest = words[index + 1 :]
            if any(
                rest[at : at + 2] in (["hook", "start"], ["hook", "stop"])
                for at in range(len(rest))
            ):
                return " ".join(words)
    return None


def names_state(command: str, state: str | None = None) -> bool:
    """Whether ``command`` names the state folder that holds the session's record
    (:func:`state_part`)."""
    return state_part(command, state) is not None


def state_part(command: str, state: str | None = None) -> str | None:
    """The word of ``command`` that names the state folder that holds the session's record: a
    word holding ``XDG_STATE_HOME``, ``.local/state/goalfile``, ``goalfile/sessions`` or
    ``goalfile/key``, or ``state`` (goalfile's folder there, as this user's environment names
    it), in any simple command; or one that is ``~/.local``, ``~/.local/state`` or the folder
    above ``state`` itself, in a simple command whose program does more than read or show
    what it is given (``rm -r ~/.local/state``, not ``ls ~/.local/state``); None when there
    is none."""

    def above(word: str) -> bool:
        if _STATE.search(word):
            return True
        return bool(state) and word.rstrip("/") == os.path.dirname((state or "").rstrip("/"))

    commands = _words(command)
    if commands is None:
        found = _STATE.search(command)
        if found is not None:
            return found.group(0)
        return state if state and state in command else None
    for words in commands:
        reads = _program(words) in _READERS
        for word in words:
            if _names_own_state(word, state) or (not reads and above(word)):
                return word
    return None


def _program(words: list[str]) -> str:
    """The name of the program a simple command runs (after its variable assignments)."""
    for word in words:
        if not re.match(r"[A-Za-z_][A-Za-z0-9_]*=", word):
            return os.path.basename(word)
    return ""
