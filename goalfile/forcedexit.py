"""Checks whose exit status the shell forces to 0 (lint's ``status-forced``).

`pytest -q || true`, `pytest -q; exit 0` and `make test; echo done` exit 0 whatever the project
does, so a row that judges such a check by its exit status alone can never fail (and one that
wants another status can never be met). The goal skill forbids them; lint names the ones that
hide a command that measures (`|| true`, `; exit 0`, `| true`, a trailing `&`). A check that
is only `true` or `echo ok` hides nothing: the person approving it reads what it does.

The command is read as the shell reads its top level: lists (``;``, ``&``, ``&&``, ``||``) of
pipelines (``|``) of simple commands. What needs the shell to be told (a subshell, braces, a
compound command, ``!``, ``set -o pipefail``, a backslash, an unclosed quote) is not judged:
no finding, never a false one.
"""

from __future__ import annotations

import shlex
from typing import Final

from goalfile.value import Compared

_SUCCEED = frozenset({"true", ":", "echo", "printf"})  # a command that exits 0 whatever it sees
_RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "while", "until", "do", "done", "for", "case", "esac"}
    | {"{", "}", "!", "(", ")", "function", "select", "[[", "]]"}
)
_LISTS = frozenset({";", "&", "&&", "||"})


class Forced(Compared):  # a value class: lint of an error-counted check loads this module too
    """How the shell forces the check's status to 0."""

    __slots__ = ("tail",)

    def __init__(self, *, tail: str) -> None:
        self.tail: Final = tail  # what does it, as written: `|| true`, `; exit 0`, `| true`, `&`


def shell_tokens(command: str) -> list[str] | None:
    """``command``'s words and operators as written (quotes kept, ``#`` not a comment), or
    None when a quote does not close."""
    lexer = shlex.shlex(command, posix=False, punctuation_chars=True)
    lexer.commenters = ""
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:
        return None


def forced(command: str) -> Forced | None:
    """How ``command``'s exit status is always 0, or None when it is not (or cannot be told
    without the shell)."""
    if "\\" in command or "pipefail" in command or "`" in command:
        return None
    tokens = shell_tokens(command)
    if tokens is None:
        return None
    if not tokens or any(token.startswith("#") for token in tokens):
        return None
    items = _items(tokens)
    if items is None or not items:
        return None
    if items[-1] == ("&", []):  # run in the background: the list's status is 0 at once
        return Forced(tail="&")
    if items[-1] == (";", []):  # a trailing `;` ends the list, changes nothing
        items.pop()
    if not items or not items[-1][1]:
        return None
    last = items[-1][1]
    if not _succeeds(last):
        return None
    start = len(items) - 1  # the last pipeline's first command: its status is the last's
    while start > 0 and items[start][0] == "|":
        start -= 1
    before = items[start][0] if start > 0 else None
    tail = ("| " if start < len(items) - 1 else "") + " ".join(last)
    if before is None:  # one pipeline: `true` alone hides nothing; `pytest -q | true` does
        return Forced(tail=tail) if start < len(items) - 1 else None
    if before in (";", "&", "||"):
        return Forced(tail=f"{before} {tail}" if start == len(items) - 1 else tail)
    return None


def _items(tokens: list[str]) -> list[tuple[str, list[str]]] | None:
    """The simple commands of ``tokens``, each with the operator before it (``""`` for the
    first; an operator at the end as its own item with no words); redirections are dropped.
    None for what is not judged here."""
    items: list[tuple[str, list[str]]] = []
    op, words = "", list[str]()
    skip = False
    for token in tokens:
        if skip:
            skip = False
            continue
        if token in _LISTS or token == "|":
            if not words:
                return None
            items.append((op, words))
            op, words = token, []
            continue
        if token and all(char in "<>&|;()" for char in token):
            if "(" in token or ")" in token or not any(char in "<>" for char in token):
                return None
            skip = True  # a redirection: its target word follows
            continue
        if not words and token in _RESERVED:
            return None
        words.append(token)
    if skip:
        return None
    if words:
        items.append((op, words))
    elif op:
        items.append((op, []))
    return items


def _succeeds(words: list[str]) -> bool:
    """Whether the simple command ``words`` exits 0 whatever happens: ``true``, ``:``,
    ``echo``, ``printf``, or ``exit 0`` (a plain ``exit`` keeps the status before it)."""
    program = program_of(words)
    if program is None:
        return False
    if program in _SUCCEED:
        return True
    rest = words[words.index(program) + 1 :]
    return program == "exit" and rest == ["0"]


def program_of(words: list[str]) -> str | None:
    """The first word that is not a ``NAME=value`` assignment."""
    for word in words:
        name, equals, _ = word.partition("=")
        if equals and name.isidentifier():
            continue
        return word
    return None
