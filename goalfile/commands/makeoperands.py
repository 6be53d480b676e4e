"""Whether the targets a `make` check names have a rule, where the checks will run: the make
shape of :mod:`goalfile.commands.operands`.

`make tset` (or `make test` where there is no makefile) exits 2, "No rule to make target": make
ran to its end, so verify judges the row `unmet`, never `error`. This reads the makefile make
reads (GNUmakefile, makefile, Makefile, or those `-f` names) in the folder it runs in (the
checks' folder, or the one `-C` names), with the files its `include` lines name there, and names
a target that no rule of them names, that is no file there, and that no file there could be made
from by a built-in rule (`prog` from `prog.c`); and a `-C` folder or `-f` makefile that is not
there. It runs nothing: `make -n` runs the lines that start with `+` or call `$(MAKE)`. A
makefile it cannot read whole (an include of a file not there or made of variables, a target
made of variables, a pattern rule, `.DEFAULT`, another recipe prefix), a check that gives make
an include folder or an old or new file (`-I`, `-o`, `-W`), and any expansion are left alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from goalfile.commands.projectfile import read_whole
from goalfile.value import Value

_MAKES = frozenset({"make", "gmake"})
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_ELSEWHERE = frozenset({"-I", "--include-dir", "-o", "--old-file", "--assume-old", "-W"})
_ELSEWHERE |= {"--what-if", "--new-file", "--assume-new"}
_FOLDER = ("-C", "--directory")
_FILE = ("-f", "--file", "--makefile")
_NUMBER_AFTER = frozenset({"-j", "--jobs", "-l", "--load-average", "--max-load"})
_UNREADABLE = re.compile(r"(?m)^[ \t]*(?:\.RECIPEPREFIX|\.DEFAULT\b|vpath\b)")
_INCLUDE = re.compile(r"^[ \t]*(-?include|sinclude)(?:[ \t]+(.*))?$")
_INCLUDES_MAX = 16
_ASSIGNMENT = re.compile(r"^[^:=#]*(?::{1,3}=|[?+!]?=)")
_DEFINE = re.compile(r"^\s*(?:(?:export|override)\s+)*define\b")


# written out on goalfile.value: a dataclass compiled its methods at every start of `activate`
class MakeCall(Value):
    """What a make command gives: its targets (empty: the default goal), the folder it runs in
    as `-C` gives it (None: the checks' folder) and the makefiles `-f` names (filled in as the
    command's words are read)."""

    __slots__ = ("files", "folder", "targets")

    def __init__(self) -> None:
        self.targets: list[str] = []
        self.folder: str | None = None
        self.files: list[str] = []


def make_call(words: Sequence[str]) -> MakeCall | None:
    """What the make command ``words`` gives; None when it is none, or when it gives make an
    include folder or an old or new file."""
    if not words or Path(words[0]).name not in _MAKES:
        return None
    call = MakeCall()
    number = False
    value: str | None = None  # the option whose value is the next word
    for word in words[1:]:
        if value is not None:
            _take(call, value, word)
            value = None
            continue
        if number and word.isdigit():
            number = False
            continue
        number = False
        name, eq, given = word.partition("=")
        if word in _ELSEWHERE or name in _ELSEWHERE or word.startswith(("-I", "-o", "-W")):
            return None
        if word in _FOLDER or word in _FILE:
            value = word
        elif name in _FOLDER + _FILE and eq and name.startswith("--"):
            _take(call, name, given)
        elif word[:2] in ("-C", "-f") and len(word) > 2:
            _take(call, word[:2], word[2:])
        elif word.startswith("-"):
            number = word in _NUMBER_AFTER
        elif not eq:  # NAME=value sets a variable
            call.targets.append(word)
    return None if value is not None else call


def _take(call: MakeCall, option: str, value: str) -> None:
    if option in _FOLDER:
        call.folder = value if call.folder is None else str(Path(call.folder) / value)
    else:
        call.files.append(value)


def make_targets(words: Sequence[str]) -> list[str] | None:
    """The targets of the make command ``words`` (empty: its default goal); None when it is
    none."""
    call = make_call(words)
    return None if call is None else call.targets


def _rules(text: str, folder: Path, depth: int = 0) -> set[str] | None:
    """The targets the rules of the makefile ``text`` name, with those of the files its
    `include` lines name in ``folder``; None when it cannot be told."""
    if _UNREADABLE.search(text):
        return None
    targets: set[str] = set()
    defining = False
    for line in text.replace("\\\n", " ").splitlines():
        if defining:
            defining = not line.strip().startswith("endef")
            continue
        if _DEFINE.match(line):
            defining = True
            continue
        if line.startswith("\t") or not line.strip() or line.lstrip().startswith("#"):
            continue
        include = _INCLUDE.match(line.split("#", 1)[0])
        if include is not None:
            included = _included(include.group(1), include.group(2) or "", folder, depth)
            if included is None:
                return None
            targets |= included
            continue
        if _ASSIGNMENT.match(line) or ":" not in line:
            continue
        head, _, after = line.partition(":")
        if "$" in head or "%" in head:
            return None  # a target made of variables, or a pattern rule
        targets.update(head.split())
        if head.split() == [".PHONY"]:  # `make NAME` of a phony NAME with no rule: exit 0
            phony = after.split(";", 1)[0].split("#", 1)[0]
            if "$" in phony:
                return None
            targets.update(phony.split())
    return targets


def _included(how: str, names: str, folder: Path, depth: int) -> set[str] | None:
    """The targets of the files an `include` line names; None when it cannot be told (a name
    made of variables or a pattern, a file not there that make might make, too deep)."""
    if depth >= _INCLUDES_MAX or any(char in names for char in "$*?[(){}"):
        return None
    targets: set[str] = set()
    for name in names.split():
        text = _read(folder / name)
        if text is None:
            if how == "include" or (folder / name).exists():
                return None  # make may make it, or stops: not told here
            continue  # -include and sinclude pass over a file that is not there
        rules = _rules(text, folder, depth + 1)
        if rules is None:
            return None
        targets |= rules
    return targets


def _read(path: Path) -> str | None:
    data = read_whole(path)
    return None if data is None else data.decode("utf-8", "surrogateescape")


def no_rule(words: Sequence[str], cwd: Path) -> str | None:
    """For a make command run in ``cwd``: what it names that nothing there makes (a target, the
    `-C` folder, a `-f` makefile), said for a note; None when all is there, or it cannot be
    told."""
    call = make_call(words)
    if call is None:
        return None
    folder = cwd
    if call.folder is not None:
        folder = cwd / call.folder
        if not folder.is_dir():
            return f"make is given `-C {call.folder}`, a folder that is not there"
    within = "" if call.folder is None else f" in `{call.folder}`"
    files = call.files or [name for name in _MAKEFILES if (folder / name).is_file()][:1]
    if not files:
        gone = [target for target in call.targets if not _made_by_builtin(folder, target)]
        if gone or not call.targets:
            return f"make finds no makefile (GNUmakefile, makefile or Makefile){within}"
        return None
    rules: set[str] = set()
    for name in files:
        text = _read(folder / name)
        if text is None:
            if not (folder / name).exists():
                return f"make is given `-f {name}`, a makefile that is not there{within}"
            return None
        found = _rules(text, folder)
        if found is None:
            return None
        rules |= found
    gone = [t for t in call.targets if t not in rules and not _made_by_builtin(folder, t)]
    if not gone:
        return None
    named = ", ".join(f"`{target}`" for target in gone)
    return f"no rule of its {' or '.join(files)}{within} makes {named}"


def _made_by_builtin(cwd: Path, target: str) -> bool:
    """Whether ``target`` is a file in ``cwd``, or a file there could make it by one of make's
    built-in rules (a file named as its stem with any suffix: `prog.c` for `prog` or
    `prog.o`)."""
    path = cwd / target
    stem = path.name.rsplit(".", 1)[0] if "." in path.name[1:] else path.name
    try:
        if os.path.lexists(path):
            return True
        return any(name.startswith(stem + ".") for name in os.listdir(path.parent))
    except (OSError, ValueError):
        return True
