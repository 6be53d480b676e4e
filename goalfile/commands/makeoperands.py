"""Whether the targets a `make` check names have a rule, where the checks will run: the make
shape of :mod:`goalfile.commands.operands`.

`make tset` (or `make test` where there is no makefile) exits 2, "No rule to make target": make
ran to its end, so verify judges the row `unmet`, never `error`. This reads the makefile of the
folder the checks run in (GNUmakefile, makefile, Makefile: the one make reads) and names a target
that no rule of it names, that is no file there, and that no file there could be made from by a
built-in rule (`prog` from `prog.c`). It runs nothing: `make -n` runs the lines that start with
`+` or call `$(MAKE)`. A makefile it cannot read whole (an `include`, a target made of
variables, a pattern rule, `.DEFAULT`, another recipe prefix), a check that names another
makefile or folder (`-f`, `-C`, ...), and any expansion are left alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

_MAKES = frozenset({"make", "gmake"})
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_ELSEWHERE = frozenset({"-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir"})
_ELSEWHERE |= {"-o", "--old-file", "--assume-old", "-W", "--what-if", "--new-file", "--assume-new"}
_NUMBER_AFTER = frozenset({"-j", "--jobs", "-l", "--load-average", "--max-load"})
_MAKEFILE_MAX = 1 << 20
_UNREADABLE = re.compile(r"(?m)^[ \t]*(?:-?include|sinclude|\.RECIPEPREFIX|\.DEFAULT\b|vpath\b)")
_ASSIGNMENT = re.compile(r"^[^:=#]*(?::{1,3}=|[?+!]?=)")
_DEFINE = re.compile(r"^\s*(?:(?:export|override)\s+)*define\b")


def make_targets(words: Sequence[str]) -> list[str] | None:
    """The targets of the make command ``words`` (empty: its default goal); None when it is
    none, or when it reads another makefile or folder."""
    if not words or Path(words[0]).name not in _MAKES:
        return None
    targets: list[str] = []
    number = False
    for word in words[1:]:
        if number and word.isdigit():
            number = False
            continue
        number = False
        name = word.split("=", 1)[0]
        if word in _ELSEWHERE or name in _ELSEWHERE or word.startswith(("-f", "-C", "-I")):
            return None
        if word.startswith("-"):
            number = word in _NUMBER_AFTER
        elif "=" not in word:  # NAME=value sets a variable
            targets.append(word)
    return targets


def _rules(text: str) -> set[str] | None:
    """The targets the rules of the makefile ``text`` name; None when it cannot be told."""
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
        if _ASSIGNMENT.match(line) or ":" not in line:
            continue
        head = line.split(":", 1)[0]
        if "$" in head or "%" in head:
            return None  # a target made of variables, or a pattern rule
        targets.update(head.split())
    return targets


def no_rule(words: Sequence[str], cwd: Path) -> tuple[str | None, list[str]] | None:
    """For a make command: the makefile it reads in ``cwd`` (None: there is none) and the
    targets it names that nothing there makes; None when all are made, or it cannot be told."""
    targets = make_targets(words)
    if targets is None:
        return None
    makefile = next((name for name in _MAKEFILES if (cwd / name).is_file()), None)
    if makefile is None:
        gone = [target for target in targets if not _made_by_builtin(cwd, target)]
        return (None, gone) if gone or not targets else None
    try:
        with open(cwd / makefile, "rb") as file:
            data = file.read(_MAKEFILE_MAX + 1)
    except OSError:
        return None
    if len(data) > _MAKEFILE_MAX:
        return None
    rules = _rules(data.decode("utf-8", "surrogateescape"))
    if rules is None:
        return None
    gone = [t for t in targets if t not in rules and not _made_by_builtin(cwd, t)]
    return (makefile, gone) if gone else None


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
