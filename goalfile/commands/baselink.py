"""A goal path that the base revision of `audit --against REF` holds as a symbolic link.

Git stores a link as a blob holding its target (`goals/current.md -> auth.md` is the text
`auth.md`), which no reader takes for a goal. The goal the base approved through the link is the
file the link leads to *at the base*: :func:`read_at_base` reads that (`git show REF:TARGET`,
through a chain of links), and says why when it cannot: a target the base does not hold (the
goal was approved through the link and never committed), or one outside the repository.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from goalfile.commands.context import Context
from goalfile.files import ENCODING, ERRORS
from goalfile.githistory import git_is_link, git_show

__all__ = ["BaseRead", "read_at_base"]

_HOPS = 8  # links followed in a chain before it is called a loop


@dataclass(frozen=True, kw_only=True)
class BaseRead:
    """What the base holds at a goal's path: ``text`` to compare with (None: nothing there);
    ``problem``, when the path is a link at the base that leads to no file the base holds."""

    text: str | None
    problem: str | None = None
    chain: tuple[str, ...] = ()  # with a problem: the link and where it leads, from ``folder``


def read_at_base(*, folder: str, name: str, ref: str, ctx: Context) -> BaseRead:
    """The file ``name`` (relative to ``folder``) at ``ref``, read through links at ``ref``."""
    data = git_show(ref=ref, path=name, cwd=folder, env=ctx.env)
    if data is None or not git_is_link(ref=ref, path=name, cwd=folder, env=ctx.env):
        return BaseRead(text=None if data is None else data.decode(ENCODING, ERRORS))
    raw = data.decode(ENCODING, ERRORS)
    chain = [name]
    at = name
    for _ in range(_HOPS):
        target = data.decode(ENCODING, ERRORS)
        if target.startswith("/"):
            return BaseRead(
                text=raw, problem=f"a symlink to {target}, outside the repository, at {ref}"
            )
        at = posixpath.normpath(posixpath.join(posixpath.dirname(at), target))
        chain.append(at)
        found = git_show(ref=ref, path=at, cwd=folder, env=ctx.env)
        if found is None:
            return BaseRead(
                text=raw,
                problem=f"a symlink at {ref} ({' -> '.join(chain)}) to a file {ref} does not hold",
                chain=tuple(chain),
            )
        if not git_is_link(ref=ref, path=at, cwd=folder, env=ctx.env):
            return BaseRead(text=found.decode(ENCODING, ERRORS))
        data = found
    return BaseRead(text=raw, problem=f"a chain of more than {_HOPS} symlinks at {ref}")
