"""A value as one shell word, for the commands `fix:` and `next:` hints print."""

from __future__ import annotations

import re

_PLAIN = re.compile(r"[\w@%+=:,./-]+", re.ASCII)
"""A word the shell reads as it is (the characters :func:`shlex.quote` leaves unquoted)."""


def shell_word(text: str) -> str:
    """``text`` as one word of a POSIX shell command, as :func:`shlex.quote` gives it: a goal
    path or any other value read from a file goes into a printed command so, and the command
    then works as written and runs nothing the value holds (``goals/a;id>PWNED;b.md``,
    ``$(...)``, a space, a quote). A plain path (ASCII letters, digits, ``_@%+=:,./-``) is
    printed as it is. Written here rather than imported: a command that only may print a hint
    does not load :mod:`shlex`."""
    if _PLAIN.fullmatch(text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def revision_word(revision: str, path: str) -> str:
    """``REVISION:./PATH`` as one word of a shell command, for ``git show``: git reads a path
    after ``:./`` from the current folder, where goalfile's paths start (after a bare ``:``,
    from the repository's top). A path given whole is made relative to the current folder
    by the shell (``realpath --relative-to=.``), inside double quotes, so it stays one word."""
    if path.startswith("/"):
        return f'"{revision}:./$(realpath --relative-to=. {shell_word(path)})"'
    return shell_word(f"{revision}:./{path}")
