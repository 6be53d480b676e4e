"""Fewer git processes for one command that reads a repository many times (`goalfile audit`).

Inside :func:`session`, :func:`goalfile.gitrun._git_in` asks the session first
(:meth:`Session.run`): a read it asked before with the same arguments, folder and environment
(``rev-parse``, ``for-each-ref``, ``log``...) is answered as git answered it then; the object
reads (``git cat-file --batch``, ``--batch-check``) go to one ``git cat-file`` process, and the
attribute questions (``git check-attr -z ATTR... -- PATH``) to one ``git check-attr --stdin``,
per folder, arguments and environment, kept open until the session ends
(:class:`goalfile.gitrun.KeptGit`). Each question put to such a process has the time one git
command has (:func:`goalfile.gitlimit.seconds`): at that limit it is killed with the processes
it started, as any git command is, and the next question starts another. An audit of ten
goals started about twenty git processes a goal without this (docs/performance.md). Commands
that write (`activate --commit`) never run inside one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

    from goalfile.gitrun import KeptGit

    Runner = Callable[..., subprocess.CompletedProcess[bytes]]

_READS = frozenset(
    ("rev-parse", "for-each-ref", "log", "rev-list", "merge-base", "check-attr", "config",
     "ls-files", "ls-tree", "cat-file", "show")
)  # fmt: skip
"""The git commands whose answers a session keeps: each only reads."""

_BATCHES = {"--batch": True, "--batch-check": False}  # the answer holds each object's bytes

_session: ContextVar[Session | None] = ContextVar("goalfile_git_session", default=None)


def active() -> Session | None:
    """The session the git commands run now belong to, if any."""
    return _session.get()


@contextmanager
def session() -> Iterator[Session]:
    """Inside: git's answers are kept and its object reads share processes (see the module);
    at the end every git still open is closed (killed when it does not end)."""
    held = Session()
    token = _session.set(held)
    try:
        yield held
    finally:
        _session.reset(token)
        held.close()


class Session:
    """The answers and open ``git cat-file`` / ``git check-attr`` processes of one
    :func:`session`."""

    def __init__(self) -> None:
        self._answers: dict[tuple[object, ...], subprocess.CompletedProcess[bytes]] = {}
        self._batches: dict[tuple[object, ...], KeptGit] = {}

    def run(
        self,
        folder: str,
        args: Sequence[str],
        env: Mapping[str, str],
        data: bytes | None,
        once: Runner,
    ) -> subprocess.CompletedProcess[bytes]:
        """``git ARGS`` in ``folder`` as :func:`goalfile.gitrun._git_in` runs it (``once``:
        one process), answered from what this session kept when it can."""
        from goalfile.gitrun import _subcommand

        command = _subcommand(args)
        environment = tuple(sorted(env.items()))
        asked = _batched(args, command, data)
        if asked is not None:
            argv, request, end = asked
            key = (folder, tuple(argv), environment)
            batch = self._batches.get(key)
            if batch is None or batch.ended:
                from goalfile.gitrun import KeptGit

                batch = self._batches[key] = KeptGit(folder, argv, env)
            return batch.ask(request, end)
        if data is not None or command not in _READS:
            return once(folder, args, env, data=data)
        key = (folder, tuple(args), environment)
        done = self._answers.get(key)
        if done is None:
            done = self._answers[key] = once(folder, args, env, data=None)
        return done

    def close(self) -> None:
        for batch in self._batches.values():
            batch.close()
        self._batches.clear()


def _batched(
    args: Sequence[str], command: str, data: bytes | None
) -> tuple[list[str], bytes, Callable[[bytearray], bool]] | None:
    """How a process kept open answers ``git ARGS`` (given ``data``): its arguments, what to
    write it, and when its answer is whole; None when one cannot.

    ``git cat-file --batch`` (or ``--batch-check``) reads the same lines. ``git check-attr
    -z ATTR... -- PATH`` is ``git check-attr -z --stdin ATTR...`` given ``PATH`` and a NUL,
    which answers the same three NUL-ended fields for each attribute."""
    if command == "cat-file" and args[-1] in _BATCHES and data and data.endswith(b"\n"):
        lines, content = data.count(b"\n"), _BATCHES[args[-1]]
        return list(args), data, lambda out: answer_end(out, lines, content=content) is not None
    if command != "check-attr" or data is not None or len(args) < 3 or args[-2] != "--":
        return None
    import os

    at = args.index("check-attr")
    attributes = [arg for arg in args[at + 1 : -2] if arg != "-z"]
    if (
        "-z" not in args[at + 1 : -2]
        or not attributes
        or any(arg.startswith("-") for arg in attributes)
    ):
        return None  # -a, --cached, --source: asked one at a time
    path = os.fsencode(args[-1])
    if b"\0" in path:
        return None
    fields = 3 * len(attributes)
    argv = [*args[: at + 1], "-z", "--stdin", *attributes]
    return argv, path + b"\0", lambda out: out.count(b"\0") >= fields


def answer_end(out: bytes | bytearray, asked: int, *, content: bool) -> int | None:
    """Where the answer of ``git cat-file --batch`` (with ``content``; else ``--batch-check``)
    to ``asked`` lines ends in ``out``: past each object's line and, for one found, its bytes
    and newline; None when ``out`` does not hold it all yet. A line of three words whose last
    is a number is an object found (as :func:`goalfile.gitobjects.parse_batch` reads it);
    any other (``NAME missing``) has nothing after it."""
    at = 0
    for _ in range(asked):
        end = out.find(b"\n", at)
        if end < 0:
            return None
        head = bytes(out[at:end]).split(b" ")
        at = end + 1
        if content and len(head) == 3 and head[2].isdigit():
            at += int(head[2]) + 1
            if at > len(out):
                return None
    return at
