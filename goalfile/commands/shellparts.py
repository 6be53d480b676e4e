"""The simple commands a check runs, read as the shell reads them, for the notes of
:mod:`goalfile.commands.operands`.

A check is often more than one command: `coverage run -m pytest testing && coverage report`,
`cd docs && make html`, `sh -c 'TEXT'`. Each command of an `&&` list runs only when the one
before it exited 0, so a command that names something not there makes the whole row `unmet`
whichever it is. This splits such a list, reads the TEXT of `sh -c` (`bash -ec`, ...) the same
way, follows a `cd DIR` to the folder the commands after it run in, and expands a glob as the
shell does: into the files it matches there, else (no file matches) into itself, the word the
program is then given. Anything else the shell would make something other than plain words
(`$`, a backquote, `~`, braces, a pipe, `||`, `;`, a redirection, a subshell) leaves the whole
check alone: no note is better than a wrong one.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Final, TypeVar

from goalfile.value import Compared

T = TypeVar("T")

_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh"})
_GLOB = frozenset("*?[")
_DEPTH = 3  # sh -c 'bash -c "..."' at most this deep


class Part(Compared):
    """One simple command of a check: its words after glob expansion, the folder it runs in,
    whether a `cd` brought it there, and the globs that matched nothing (given as they are)."""

    __slots__ = ("folder", "gone_folder", "moved", "unmatched", "words")

    def __init__(
        self,
        words: list[str],
        folder: Path,
        moved: bool = False,
        unmatched: frozenset[str] = frozenset(),
        gone_folder: str | None = None,
    ) -> None:
        self.words: Final = words
        self.folder: Final = folder
        self.moved: Final = moved
        self.unmatched: Final = unmatched
        self.gone_folder: Final = gone_folder  # `cd DIR` to a folder that is not there: DIR


def lex(command: str) -> list[list[tuple[str, bool]]] | None:
    """The commands of the `&&` list ``command``, each as its words with whether the word has
    a glob character outside quotes; None when the shell could make it something else."""
    commands: list[list[tuple[str, bool]]] = [[]]
    word: list[str] = []
    started = globbed = False
    at, size = 0, len(command)

    def end() -> None:
        nonlocal word, started, globbed
        if started:
            commands[-1].append(("".join(word), globbed))
        word, started, globbed = [], False, False

    while at < size:
        char = command[at]
        if char in " \t":
            end()
        elif char == "#" and not started:
            break  # a comment to the end of the line
        elif char == "\\":
            if at + 1 >= size or command[at + 1] == "\n":
                return None
            word.append(command[at + 1])
            started = True
            at += 1
        elif char == "'":
            close = command.find("'", at + 1)
            if close < 0:
                return None
            word.append(command[at + 1 : close])
            started, at = True, close
        elif char == '"':
            at += 1
            while at < size and command[at] != '"':
                if command[at] in "$`":
                    return None
                if command[at] == "\\" and at + 1 < size and command[at + 1] in '$`"\\':
                    at += 1
                word.append(command[at])
                at += 1
            if at >= size:
                return None
            started = True
        elif char == "&" and command[at + 1 : at + 2] == "&":
            end()
            if not commands[-1]:
                return None
            commands.append([])
            at += 1
        elif char in "$`|;&<>(){}\n" or (char == "~" and not started):
            return None
        else:
            globbed = globbed or char in _GLOB
            word.append(char)
            started = True
        at += 1
    end()
    if not commands[-1]:
        return None
    return commands


def parts(command: str, cwd: Path, depth: int = 0) -> list[Part] | None:
    """The simple commands of ``command`` run in ``cwd``, in order, up to the first that
    cannot be followed (a `cd` to a folder not there ends the list with its part); None when
    the command is none that can be read this way."""
    commands = lex(command)
    if commands is None:
        return None
    found: list[Part] = []
    folder, moved = cwd, False
    for lexed in commands:
        words, unmatched = _expand(lexed, folder)
        inner = _shell_text(words) if depth < _DEPTH else None
        if inner is not None:
            within = parts(inner, folder, depth + 1)
            if within is None:
                return found or None
            found.extend(
                Part(p.words, p.folder, p.moved or moved, p.unmatched, p.gone_folder)
                for p in within
            )
            continue
        if words[:1] == ["cd"]:
            if len(words) != 2 or words[1].startswith("-"):
                break  # `cd` alone goes home; `cd -` back: not followed
            target = folder / words[1]
            try:
                folder_there, anything_there = target.is_dir(), os.path.lexists(target)
            except (OSError, ValueError):
                break  # a name the system refuses (too long, a NUL): not followed
            if not anything_there:
                found.append(Part(words, folder, moved, unmatched, gone_folder=words[1]))
                break
            if not folder_there:
                break  # a file, or a link to nothing: not followed
            folder, moved = target, True
            continue
        found.append(Part(words, folder, moved, unmatched))
    return found


def _expand(lexed: list[tuple[str, bool]], folder: Path) -> tuple[list[str], frozenset[str]]:
    """The words after the shell's glob expansion in ``folder``, and the globs that matched
    nothing there (the shell gives those as they are)."""
    words: list[str] = []
    unmatched: set[str] = set()
    for word, globbed in lexed:
        if not globbed:
            words.append(word)
            continue
        try:
            matches = sorted(glob.glob(word, root_dir=folder))
        except (OSError, ValueError):
            matches = []
        if matches:
            words.extend(matches)
        else:
            words.append(word)
            unmatched.add(word)
    return words, frozenset(unmatched)


def _shell_text(words: list[str]) -> str | None:
    """The TEXT of `sh -c TEXT` (`bash -ec TEXT`, `sh -o pipefail -c TEXT`); None for any other
    command."""
    if not words or Path(words[0]).name not in _SHELLS:
        return None
    at, given = 1, False
    while at < len(words) and words[at][:1] in "-+" and words[at] not in ("-", "--"):
        option = words[at]
        if option in ("-o", "+o", "-O", "+O"):
            at += 1  # its value
        elif option[1:2] != "-" and "c" in option[1:]:
            given = True
        at += 1
    if not given or at >= len(words):
        return None
    return words[at]


def first_found(
    rows: Sequence[tuple[str, str, str]],
    statuses: Collection[str],
    cwd: Path,
    find: Callable[[str, Part], T | None],
) -> Iterator[tuple[str, Part, T]]:
    """For each ``(id, command, exit)`` row whose exit is one of ``statuses``: its id, the
    first simple command of it (run from ``cwd``) that ``find(id, part)`` tells something of,
    and what it told (a part it cannot be asked of, OSError or ValueError, tells nothing)."""
    for cid, command, status in rows:
        if status not in statuses:
            continue
        for part in parts(command, cwd) or []:
            try:
                found = find(cid, part)
            except (OSError, ValueError):
                found = None
            if found is not None:
                yield cid, part, found
                break
