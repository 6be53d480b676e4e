"""A value as one shell word, for the commands `fix:` and `next:` hints print."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

_PLAIN = re.compile(r"[\w@%+=:,./-]+", re.ASCII)
"""A word the shell reads as it is (the characters :func:`shlex.quote` leaves unquoted)."""


def shell_word(text: str) -> str:
    """``text`` as one word of a shell command, as :func:`shlex.quote` gives it: a goal path
    or any other value read from a file goes into a printed command so, and the command then
    works as written and runs nothing the value holds (``goals/a;id>PWNED;b.md``, ``$(...)``,
    a space, a quote). A plain path (ASCII letters, digits, ``_@%+=:,./-``) is printed as it
    is; a name that is not UTF-8, or that holds a control character, in ANSI-C quotes with
    octal escapes (``$'goals/\\377.md'``), which bash, zsh and ksh (the shells the hosts'
    tools run) read back as its bytes. Not ``"$(printf ...)"``: Gemini CLI's shell tool
    refuses a command that holds a command substitution (docs/hosts.md#gemini-cli). Written
    here rather than imported: a command that only may print a hint does not load
    :mod:`shlex`."""
    if _PLAIN.fullmatch(text):
        return text
    undecoded, control, escaped = _unplain()
    if undecoded.search(text) or control.search(text):
        # bytes of a name that is not UTF-8, a line break, or a character goalfile's output
        # writes as an escape (termsafe): each is written as octal escapes, so the command
        # stays on one line and works as printed; so is a quote, which would end the word, and
        # a backtick or a dollar sign
        return "$'" + escaped.sub(_octal, text) + "'"
    return _quoted(text)


_UNPRINTED = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"


@functools.cache
def _unplain() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The patterns of a word that is not plain, compiled when the first one comes (a command
    whose words are all plain paths compiles none: a class of characters beyond Latin-1 is
    built as a table of 65,536 bits, 2.5 M instructions each at every start):

    - a byte of a file name that is not UTF-8, as Python reads it (a lone surrogate);
    - a control character (a line break, a tab, a C1 control), a bidirectional control or a
      line or paragraph separator: a word in quotes would hold it raw, which starts a line of
      its own or is printed as an escape (``\\u0085``, :mod:`goalfile.termsafe`), so that
      the command as printed names another file;
    - what ANSI-C quotes must write as an escape: a quote, a backslash, such a byte, such a
      character; and a backtick and a dollar sign, which a fix line's code span or a host's
      check for command substitution would read otherwise."""
    return (
        re.compile("[\udc80-\udcff]"),
        re.compile(f"[{_UNPRINTED}]"),
        re.compile(f"['`$\\\\\udc80-\udcff{_UNPRINTED}]"),
    )


def _octal(found: re.Match[str]) -> str:
    """A character as the octal escapes of its bytes, three digits each (``\\047`` for a
    quote: a digit after it is never read as part of it)."""
    char = found.group()
    if "\udc80" <= char <= "\udcff":  # a byte that is not UTF-8
        return f"\\{ord(char) - 0xDC00:03o}"
    return "".join(f"\\{byte:03o}" for byte in char.encode("utf-8"))


def show_command(revision: str, path: str) -> str:
    """The command that shows ``path`` as ``revision`` holds it: ``git show REVISION:./PATH``.
    git reads a path after ``:./`` from the current folder, where goalfile's paths start (after
    a bare ``:``, from the repository's top). A path given whole is named from its own folder,
    which ``-C`` makes git's (``git -C /repo/goals show HEAD:./auth.md``): not made relative by
    the shell (``$(realpath ...)``), a command substitution Gemini CLI's shell tool refuses."""
    if path.startswith("/"):
        folder, name = path.rsplit("/", 1)
        return f"git -C {shell_word(folder or '/')} show {shell_word(f'{revision}:./{name}')}"
    return f"git show {shell_word(f'{revision}:./{path}')}"


SED_BACKUP = ".goalfile-bak"
"""The suffix of the backup ``sed -i`` makes while a printed fix edits a file: goalfile's own,
so the backup takes the place of no file another tool left (``git mergetool`` leaves
``FILE.orig``)."""


def moved_aside(word: str) -> str:
    """The command that moves ``word`` (a path as :func:`shell_word` gives it) into a new
    temporary folder, keeping it: ``mktemp -d | { read -r d && mv -- WORD "$d"; }``. Not
    ``mv -- WORD "$(mktemp -d)"``: Gemini CLI's shell tool refuses a command that holds a
    command substitution outside single quotes, so that one could not be run as written
    there (docs/hosts.md#gemini-cli)."""
    return f'mktemp -d | {{ read -r d && mv -- {word} "$d"; }}'


def sed_command(path: str, scripts: Sequence[str]) -> str:
    """A shell command, in backticks, that edits ``path`` in place with the sed ``scripts``:
    every `fix:` that edits lines of a file is printed by this function.

    It works as written with GNU and BSD sed alike: ``-i`` with a suffix written onto it is
    the one in-place form both read, and each script comes with ``-e`` and the path after
    ``--``, so a path that starts with ``-`` is no option (BSD sed reads no option after the
    first other word, so a script written without ``-e`` would make it read ``--`` as a file).
    The backup is removed when sed is done, and nothing is lost: the command refuses (exit 1,
    the file untouched) while a file of the backup's name is there, which ``sed -i`` would
    replace and ``rm`` delete."""
    backup = shell_word(path + SED_BACKUP)
    edits = " ".join(f"-e {_quoted(script)}" for script in scripts)
    edit = f"sed -i{SED_BACKUP} {edits} -- {shell_word(path)}"
    return f"`[ ! -e {backup} ] && {edit} && rm -- {backup}`"


def sed_lines(first: int, last: int) -> str:
    """The sed address of lines ``first`` to ``last``: ``N`` for one line, else ``N,M``."""
    return str(first) if last <= first else f"{first},{last}"


def _quoted(text: str) -> str:
    """``text`` in single quotes, as one word of a shell command (a sed script reads better
    quoted, also when it needs no quotes)."""
    return "'" + text.replace("'", "'\"'\"'") + "'"
