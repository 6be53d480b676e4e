"""Checks whose expected exit status is also the status of the measuring command's error (lint's
``error-counted``).

"No TODO is left in src/legacy.py" drafted as `! grep -n TODO src/legacy.py` with `exit 0`, or
as `grep -n TODO src/legacy.py` with `exit nonzero`, is met when the file is gone: grep exits 2
for a file it cannot read, `!` turns any failure into 0, and `nonzero` takes 2 as it takes 1.
Deleting or moving the file the row reads, the easiest way to make it "pass", makes it met.
The same holds for `diff` and `cmp` (2 for trouble) and `git` (128), and for `test -z "$(CMD)"`
(or `[ -z "$(CMD)" ]`) with `exit 0`, whatever CMD is: the substitution drops CMD's status, and an
error prints nothing on stdout. grep's own answer is `exit 1; output empty`: 1 for no match, 2
for an error, whose message is output.

The command is read as :mod:`goalfile.forcedexit` reads it; what needs the shell to be told is
not judged: no finding, never a false one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from goalfile.forcedexit import program_of, shell_tokens
from goalfile.value import Compared

if TYPE_CHECKING:
    from goalfile.expect import Expectation

__all__ = ["Counted", "error_counted"]

# programs whose error status differs from their "no"/"differ" status, and that status
_ERROR_STATUS = {"grep": 2, "egrep": 2, "fgrep": 2, "rg": 2, "diff": 2, "cmp": 2, "git": 128}
_OPERATORS = frozenset({";", "&", "&&", "||", "|", "(", ")"})


class Counted(Compared):  # a value class written out: a dataclass compiled its methods at start
    """How an error of the check's command satisfies its exit clauses."""

    __slots__ = ("negated", "program", "status", "substituted")

    def __init__(
        self, *, program: str, negated: bool, status: int, substituted: bool = False
    ) -> None:
        self.program: Final = program  # the measuring command's name, as written
        self.negated: Final = negated  # the check starts with `!`
        self.status: Final = status  # the status an error of the command gives the check
        # the command runs in `test -z "$(...)"`, which drops its status
        self.substituted: Final = substituted


# `test -z "$(CMD)"` or `[ -z "$(CMD)" ]`: the substitution's status is lost, and an error of CMD
# prints nothing on stdout, so the test holds
_EMPTY_TEST = re.compile(r'(?:test|\[) +-z +"\$\(([^()`"]*)\)"(?: +\])?')


def error_counted(command: str, expectation: Expectation) -> Counted | None:
    """How an error of ``command`` would pass ``expectation``'s exit clauses, or None."""
    tested = _EMPTY_TEST.fullmatch(command.strip())
    if tested is not None and (command.lstrip()[:1] == "[") == command.rstrip().endswith("]"):
        inner = _simple_command(tested.group(1))
        program = program_of(inner) if inner else None
        if program is None or not _exit_clauses_hold(expectation, 0):
            return None
        if _error_shown(expectation, inner or [], program.rsplit("/", 1)[-1]):
            return None
        return Counted(program=program, negated=False, status=0, substituted=True)
    words = _simple_command(command)
    if not words:
        return None
    negated = words[0] == "!"
    if negated:
        words = words[1:]
    program = program_of(words)
    if program is None:
        return None
    name = program.rsplit("/", 1)[-1]
    if negated:
        status = 0
    elif name in _ERROR_STATUS:
        status = _ERROR_STATUS[name]
    else:
        return None
    if not _exit_clauses_hold(expectation, status) or _error_shown(expectation, words, name):
        return None
    return Counted(program=program, negated=negated, status=status)


def _simple_command(command: str) -> list[str] | None:
    """The words of ``command`` when it is one simple command (``!`` allowed before it), else
    None."""
    if "\\" in command or "`" in command or "$(" in command:
        return None
    tokens = shell_tokens(command)
    if tokens is None:
        return None
    if any(token in _OPERATORS or token.startswith("#") for token in tokens):
        return None
    if any(token and all(char in "<>&|;()" for char in token) for token in tokens):
        return None  # a redirection: stderr may go elsewhere
    return tokens


def _exit_clauses_hold(expectation: Expectation, status: int) -> bool:
    """Whether the exit clauses (there is at least one) all hold for ``status``."""
    from goalfile.expect import ExitClause

    clauses = [c for c in expectation.clauses if isinstance(c, ExitClause)]
    if not clauses:
        return False
    for clause in clauses:
        if clause.op == "==" and clause.value != status:
            return False
        if clause.op == "!=" and clause.value == status:
            return False
        if clause.op == "nonzero" and status == 0:
            return False
    return True


def _error_shown(expectation: Expectation, words: list[str], name: str) -> bool:
    """Whether the error's message on stderr fails the row: an ``output empty`` or ``stderr
    empty`` clause, and no grep option that silences it (``-s``, ``--no-messages``)."""
    from goalfile.expecttext import EmptyClause

    if not any(
        isinstance(c, EmptyClause) and c.stream in ("stderr", "output") for c in expectation.clauses
    ):
        return False
    return not any(_silences(word, name) for word in words[1:])


def _silences(word: str, name: str) -> bool:
    if word == "--no-messages":
        return name in ("grep", "egrep", "fgrep", "rg")
    short = word.startswith("-") and not word.startswith("--")
    return name in ("grep", "egrep", "fgrep") and short and "s" in word
