"""What stands at a project's settings path when it is no regular file in the repository (a
folder, a FIFO or a device, a file of the person's own they may not read, a symbolic link to
nothing or out of the repository), and the command that puts it right, as written in a `fix:`
line.

A host reads its settings from such a path or fails to; either way the settings are not what a
clone of the repository shares, so doctor reports the path with this command.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from goalfile.shellword import shell_word


@dataclass(frozen=True, kw_only=True)
class OddFile:
    what: str  # what stands there, after the path: "is a folder, not a file"
    fix: str  # a command that puts it right, run from the folder the path is shown from
    readable: bool  # a host can still read settings through it (a link out of the repository)


def odd_file(path: Path, *, root: Path | None, shown: str) -> OddFile | None:
    """What stands at ``path`` (named ``shown``, relative to the person's folder) when it is
    no regular file, or (with ``root``, the repository it belongs to) a link
    to a file outside ``root``; None when it is none of these, or when nothing is there."""
    word = shell_word(shown)
    try:
        found = os.lstat(path)
    except OSError:  # nothing there, or a folder that cannot be searched: read as before
        return None
    if stat.S_ISLNK(found.st_mode):
        target = os.readlink(path)
        try:
            resolved = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return OddFile(
                what=f"is a symbolic link to {target!r}, which leads to no file (missing, or "
                "a loop of links), so no settings are read from it",
                fix=f"rm -- {word}",
                readable=False,
            )
        outside = root is not None and not resolved.is_relative_to(root.resolve())
        if outside and resolved.is_file():
            return OddFile(
                what=f"is a symbolic link to {str(resolved)!r}, outside the repository: a "
                "clone does not have what it holds, and it changes without a commit "
                "git would show",
                fix=f"rm -- {word} && cp -- {shell_word(str(resolved))} {word}",  # BSD cp too
                readable=True,
            )
        found = os.stat(path)
    if stat.S_ISDIR(found.st_mode):
        aside = _free(path, ".folder")
        return OddFile(
            what="is a folder, not a file, so no settings are read from it",
            fix=f"mv -- {word} {shell_word(shown + aside)}",
            readable=False,
        )
    if not stat.S_ISREG(found.st_mode):
        kind = "a FIFO (named pipe)" if stat.S_ISFIFO(found.st_mode) else "no regular file"
        return OddFile(
            what=f"is {kind}, so no settings are read from it (reading it could wait forever)",
            fix=f"rm -- {word}",
            readable=False,
        )
    if not os.access(path, os.R_OK) and found.st_uid == os.geteuid():
        return OddFile(
            what=f"cannot be read: its mode is {stat.filemode(found.st_mode)}",
            fix=f"chmod u+r -- {word}",
            readable=False,
        )
    return None  # another file that cannot be read or parsed: the reader names why


def _free(path: Path, suffix: str) -> str:
    """``suffix``, or ``suffix-N``, that names nothing yet beside ``path``."""
    number = 1
    while True:
        tail = suffix if number == 1 else f"{suffix}-{number}"
        if not os.path.lexists(f"{path}{tail}"):
            return tail
        number += 1
