"""A value as one shell word, for the commands `fix:` and `next:` hints print."""

from __future__ import annotations


def shell_word(text: str) -> str:
    """``text`` as one word of a POSIX shell command (:func:`shlex.quote`): a goal path or any
    other value read from a file goes into a printed command so, and the command then works as
    written and runs nothing the value holds (``goals/a;id>PWNED;b.md``, ``$(...)``, a space, a
    quote). A plain path (letters, digits, ``@%+=:,./-``) is printed as it is. :mod:`shlex` is
    loaded only when a hint needs it."""
    import shlex

    return shlex.quote(text)
